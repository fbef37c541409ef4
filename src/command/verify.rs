//! The `verify` command after its arguments were read ([`VerifyArgs`]): an MCP server
//! (`report`), a well-known source (the crate's own `wellknown` run), or both compared
//! (`--cross-check`). Above both, so that neither imports the other.
//!
//! The signer policy of a run comes from `--trust` and `--pins` (`signers_of`): the files are
//! read by the command's I/O (the native command, the npm package's) and handed over as
//! [`SignerFiles`]; the pins to write back come out in [`Output::pins`].

pub use super::args::SignerFiles;
use super::args::VerifyArgs;
use super::report::{command_client, run_with_oms, Output, Report};
use super::wellknown::{cross_check, run_well_known_with};
use crate::client::http::{HttpIo, HttpSession};
use crate::client::{ClientInfo, SkillsClient};
use crate::compile::mirror::INDEX_PATH;
use crate::host::error::{ErrorCode, VerifyError};
use crate::host::index::origin_of;
use crate::host::signature::{trusted_key, SignerPolicy, Signers};

/// The signer policy and pins of a run: the trust list of the `--trust` files (each a public
/// JWK; a secret one is refused), trust on first use with `--pins`, and the pins its file
/// holds. [`ErrorCode::InvalidArgument`] naming the file and what is wrong with it.
pub(crate) fn signers_of(args: &VerifyArgs, files: &SignerFiles) -> Result<Signers, VerifyError> {
    if files.trust.len() != args.trust.len() {
        return Err(VerifyError::new(
            ErrorCode::InvalidArgument,
            format!(
                "{} --trust files were read for {} given",
                files.trust.len(),
                args.trust.len()
            ),
        ));
    }
    let trusted = args
        .trust
        .iter()
        .zip(&files.trust)
        .map(|(path, text)| trusted_key(&format!("--trust {path}"), text))
        .collect::<Result<Vec<_>, _>>()?;
    let mut signers = Signers::new(SignerPolicy {
        trusted,
        trust_on_first_use: args.pins.is_some(),
    });
    if let (Some(path), Some(text)) = (&args.pins, &files.pins) {
        signers.import_pins(text).map_err(|e| {
            VerifyError::new(
                ErrorCode::InvalidArgument,
                format!("--pins {path}: {} (fix or remove the file)", e.message),
            )
        })?;
    }
    Ok(signers)
}

/// The OMS keys and the signer policy of a run: `--trust` files holding PEM are OMS keys
/// ([`super::oms`]), the others JWKs for DSSE (`signers_of`). The native command and the npm
/// package's read their files the same way.
pub(crate) fn trust_of(
    args: &VerifyArgs,
    files: &SignerFiles,
) -> Result<(Vec<crate::oms::OmsPublicKey>, Signers), VerifyError> {
    let (oms_keys, jwk_args, jwk_files) = super::oms::split_trust(args, files)?;
    Ok((oms_keys, signers_of(&jwk_args, &jwk_files)?))
}

/// The whole command after its arguments were read: connect (with `args.era`), verify, render.
/// `io` POSTs to `args.url` with `args.headers` and `args.timeout_ms` (the caller's part);
/// `files` holds what the `--trust` and `--pins` files say.
pub async fn verify_command<H: HttpIo>(args: &VerifyArgs, files: &SignerFiles, io: &H) -> Output {
    let (oms_keys, signers) = match trust_of(args, files) {
        Ok(t) => t,
        Err(e) => return Report::stopped(None, e).render(args),
    };
    if args.well_known {
        let mut signers = signers;
        let report = run_well_known_with(io, &args.url, &mut signers, oms_keys).await;
        return output(args, &report, &signers);
    }
    let client = match command_client(args, signers) {
        Ok(c) => c,
        Err(e) => return Report::stopped(None, e).render(args),
    };
    let session = HttpSession::new(ClientInfo::default());
    let report = match session.connect(io, args.era).await {
        Ok(facts) => {
            let _ = client.set_facts(facts);
            run_with_oms(&client, &session.rpc(io), args.skill.as_deref(), &oms_keys).await
        }
        Err(e) => Report::stopped(None, e),
    };
    after_mcp(args, io, &client, report, oms_keys).await
}

/// The rest of the command after the MCP run `report` over `client`: with `--cross-check`,
/// the index of the same origin verified (with the signer policy and the pins the client holds
/// now, and the OMS keys `oms_keys`) and compared ([`cross_check`]), then the output.
pub(crate) async fn after_mcp<H: HttpIo>(
    args: &VerifyArgs,
    io: &H,
    client: &SkillsClient,
    report: Report,
    oms_keys: Vec<crate::oms::OmsPublicKey>,
) -> Output {
    let mut signers = client.host(|h, _| h.signers().clone()).unwrap_or_default();
    let report = with_well_known(args, io, report, &mut signers, oms_keys).await;
    output(args, &report, &signers)
}

/// What the command prints ([`Report::render`]) and, with `--pins`, the pins to write back.
pub(crate) fn output(args: &VerifyArgs, report: &Report, signers: &Signers) -> Output {
    let mut out = report.render(args);
    out.pins = args.pins.as_ref().map(|_| signers.export_pins());
    out
}

/// With `--cross-check`, the index of the same origin verified and compared
/// ([`cross_check`]), its skills after the MCP ones.
async fn with_well_known<H: HttpIo>(
    args: &VerifyArgs,
    io: &H,
    mut report: Report,
    signers: &mut Signers,
    oms_keys: Vec<crate::oms::OmsPublicKey>,
) -> Report {
    if !args.cross_check || report.fatal.is_some() {
        return report;
    }
    let index = origin_of(&args.url).map(|o| format!("{o}{INDEX_PATH}"));
    let mut mirror = match index {
        Some(i) => run_well_known_with(io, &i, signers, oms_keys).await,
        None => Report::stopped(
            None,
            VerifyError::new(ErrorCode::InvalidArgument, "the URL has no origin"),
        ),
    };
    if let Some(e) = mirror.fatal.take() {
        report.fatal = Some(e);
    } else {
        cross_check(&report, &mut mirror);
        report.skills.append(&mut mirror.skills);
    }
    report
}
