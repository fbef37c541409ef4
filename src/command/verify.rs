//! The `verify` command after its arguments were read ([`VerifyArgs`]): an MCP server
//! ([`super::report`]), a well-known source (the crate's own `wellknown` run), or both compared
//! (`--cross-check`). Above both, so that neither imports the other.

use super::args::VerifyArgs;
use super::report::{command_client, run, Output, Report};
use super::wellknown::{cross_check, run_well_known};
use crate::catalog::compile::mirror::INDEX_PATH;
use crate::client::http::{HttpIo, HttpSession};
use crate::client::ClientInfo;
use crate::host::error::{ErrorCode, VerifyError};
use crate::host::index::origin_of;

/// The whole command after its arguments were read: connect (with `args.era`), verify, render.
/// `io` POSTs to `args.url` with `args.headers` and `args.timeout_ms` (the caller's part).
pub async fn verify_command<H: HttpIo>(args: &VerifyArgs, io: &H) -> Output {
    if args.well_known {
        return run_well_known(io, &args.url).await.render(args);
    }
    let report = mcp_report(args, io).await;
    with_well_known(args, io, report).await.render(args)
}

/// The rest of the command after the MCP run `report`: with `--cross-check`, the index of the
/// same origin verified and compared ([`cross_check`]), its skills after the MCP ones.
pub(crate) async fn with_well_known<H: HttpIo>(
    args: &VerifyArgs,
    io: &H,
    mut report: Report,
) -> Report {
    if !args.cross_check || report.fatal.is_some() {
        return report;
    }
    let index = origin_of(&args.url).map(|o| format!("{o}{INDEX_PATH}"));
    let mut mirror = match index {
        Some(i) => run_well_known(io, &i).await,
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

/// The MCP part of the command: connect, verify.
async fn mcp_report<H: HttpIo>(args: &VerifyArgs, io: &H) -> Report {
    let session = HttpSession::new(ClientInfo::default());
    let client = match command_client(args) {
        Ok(c) => c,
        Err(e) => return Report::stopped(None, e),
    };
    let facts = match session.connect(io, args.era).await {
        Ok(f) => f,
        Err(e) => return Report::stopped(None, e),
    };
    let _ = client.set_facts(facts);
    run(&client, &session.rpc(io), args.skill.as_deref()).await
}
