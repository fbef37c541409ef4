//! OpenSSF Model Signing on the host side of `verify` (a well-known source's artifacts, and
//! an MCP server's entries after their files were read): a skill whose files hold
//! `skill.oms.sig` at its root offers an OMS signature ([`crate::oms`]), whatever
//! made it (this project's build, `model_signing sign key`, NVIDIA's verified skills).
//!
//! The trust options are the command's: a `--trust` file holding a PEM public key
//! (`-----BEGIN PUBLIC KEY-----`, P-256, `oms.pub`) trusts that key for OMS signatures, as a
//! JWK file trusts a key for DSSE envelopes. Per skill:
//!
//! - a `skill.oms.sig` is always read: a bundle that is not a Sigstore bundle of
//!   `model_signing`'s key mode (truncated, a certificate chain, another predicate, shards,
//!   another digest) fails the skill (`signature-invalid`), as does one whose statement does not
//!   cover exactly the skill's other files (the check names the file);
//! - with OMS keys trusted, its signature must verify with one of them (`signer-untrusted`
//!   otherwise); without, its signature cannot be checked (a bundle carries a hint of its key,
//!   not the key) and only the coverage is, which says nothing about who signed;
//! - with OMS keys trusted, a skill without an OMS signature must carry a DSSE signature by a
//!   trusted key, else it fails `signer-untrusted`: the trust list is one list, and a skill
//!   signed in either format by a key on it verifies;
//! - both formats present: each must hold on its own. They cover the same served files, so
//!   two that hold agree; one that fails refuses the skill.
//!
//! **Pins** ([`crate::host::signature`]'s OMS pins, kept with the DSSE pins of the run's
//! `Signers` and written to the same `--pins` file): an origin pinned to an OMS key (by its
//! hint, the SHA-256 of its PEM, as `model_signing` names a key) has its bundles checked with
//! that key too, and a skill from it whose `skill.oms.sig` is by another key, or that has
//! none, is `signer-changed` until the change is accepted. With trust on first use (`--pins`,
//! `trustOnFirstUse`), the first skill from an unpinned origin that passes every check with
//! an OMS signature by a trusted key pins the origin to that key. First use cannot pin a key
//! no trust list or pin gives: a bundle names its key by a hash, not the key.

use super::args::SignerFiles;
use super::args::VerifyArgs;
use super::report::{FileCheck, FileStatus, SkillReport};
use crate::host::archive::Member;
use crate::host::error::{ErrorCode, VerifyError};
use crate::host::signature::{Signer, SignerTrust, Signers};
use crate::oms::{verify_folder, Bundle, OmsPublicKey, SIGNATURE_FILE};
use sha2::{Digest as _, Sha256};

/// Whether a `--trust` file holds a PEM block (an OMS key) rather than a JWK.
pub(crate) fn is_pem(text: &str) -> bool {
    text.trim_start().starts_with("-----BEGIN ")
}

/// The `--trust` files split: the OMS public keys of those that hold PEM, and the arguments
/// and files of the others (JWKs, for [`super::verify::signers_of`]). A PEM file that is not a
/// P-256 public key (a certificate, a private key, another curve) is an `invalid-argument`
/// naming the file.
pub(crate) fn split_trust(
    args: &VerifyArgs,
    files: &SignerFiles,
) -> Result<(Vec<OmsPublicKey>, VerifyArgs, SignerFiles), VerifyError> {
    let mut keys = Vec::new();
    let mut jwk_args = args.clone();
    let mut jwk_files = files.clone();
    jwk_args.trust.clear();
    jwk_files.trust.clear();
    for (path, text) in args.trust.iter().zip(&files.trust) {
        if is_pem(text) {
            let key = OmsPublicKey::from_pem(text, &format!("--trust {path}"))
                .map_err(|e| VerifyError::new(ErrorCode::InvalidArgument, e.message))?;
            keys.push(key);
        } else {
            jwk_args.trust.push(path.clone());
            jwk_files.trust.push(text.clone());
        }
    }
    if files.trust.len() != args.trust.len() {
        // signers_of names the mismatch.
        return Ok((keys, args.clone(), files.clone()));
    }
    Ok((keys, jwk_args, jwk_files))
}

/// The OMS keys the check of one skill may verify with: the trusted ones, and the key the
/// skill's origin is pinned to.
#[derive(Debug, Clone)]
pub(crate) struct OmsKeys<'a> {
    /// The trusted keys (the `--trust` files, the `trust` option's items, holding PEM).
    pub(crate) trusted: &'a [OmsPublicKey],
    /// The origin the skill is served from (its pins' key).
    origin: String,
    /// The hint the origin is pinned to, if it is.
    pinned_hint: Option<String>,
    /// The pinned key, when it reads as a P-256 key.
    pinned: Option<OmsPublicKey>,
}

impl<'a> OmsKeys<'a> {
    /// The keys for a skill served from `origin`, under `signers`' pins.
    pub(crate) fn of(trusted: &'a [OmsPublicKey], signers: &Signers, origin: &str) -> Self {
        let pin = signers.oms_pin(origin);
        OmsKeys {
            trusted,
            origin: origin.to_owned(),
            pinned_hint: pin.map(|p| p.hint.clone()),
            pinned: pin.and_then(|p| OmsPublicKey::from_pem(&p.key, "the pin").ok()),
        }
    }

    /// Whether the check has a key to verify with, or a pin to enforce.
    #[cfg(feature = "js")]
    pub(crate) fn any(&self) -> bool {
        !self.trusted.is_empty() || self.pinned_hint.is_some()
    }

    /// The keys a bundle may verify with: the trusted ones, then the pinned one.
    fn candidates(&self) -> Vec<OmsPublicKey> {
        let mut keys = self.trusted.to_vec();
        if let Some(p) = &self.pinned
            && !keys.contains(p)
        {
            keys.push(p.clone());
        }
        keys
    }

    /// The refusal of a skill from a pinned origin whose OMS signer is `got`.
    fn changed(&self, uri: String, pinned: &str, got: &str) -> FileCheck {
        failed(
            uri,
            ErrorCode::SignerChanged,
            format!("the skill's OMS signature ({SIGNATURE_FILE}) is {got}, but its origin {} is pinned to the OMS key with hint {pinned}; accept the change (accept_signer_change, or remove the origin's entry of omsPins from the --pins file) only if the publisher changed its key", self.origin),
        )
    }
}

/// What the OMS check of one skill found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum OmsOutcome {
    /// No `skill.oms.sig`.
    Absent,
    /// A bundle that covers the files, not checked against a key (none is trusted or pinned).
    Unchecked,
    /// Verified with `key`: a trusted key (`trusted`), else the origin's pinned one.
    Verified {
        /// The key that verified the bundle.
        key: OmsPublicKey,
        /// Whether it is on the trust list.
        trusted: bool,
    },
    /// Refused (a failed check was added to the report).
    Failed,
}

fn failed(uri: String, code: ErrorCode, message: String) -> FileCheck {
    FileCheck {
        uri: uri.clone(),
        size: None,
        digest: None,
        status: FileStatus::Failed,
        error: Some(VerifyError::new(code, message).with_uri(uri).into()),
    }
}

/// Checks the OMS signature among `files` (read from the artifact `artifact`) with `keys`;
/// a refusal is a failed check on `{artifact}#skill.oms.sig` (or the file it names).
pub(crate) fn check_oms(
    files: &[Member],
    artifact: &str,
    keys: &OmsKeys<'_>,
    report: &mut SkillReport,
) -> OmsOutcome {
    let Some(sig) = files.iter().find(|m| m.path == SIGNATURE_FILE) else {
        return OmsOutcome::Absent;
    };
    let digests: Vec<(&str, [u8; 32])> = files
        .iter()
        .map(|m| (m.path.as_str(), Sha256::digest(&m.bytes).into()))
        .collect();
    check_bundle(
        &sig.bytes,
        digests,
        |p| format!("{artifact}#{p}"),
        keys,
        report,
    )
}

/// Checks the OMS signature of a skill served over MCP, after its files were read: the
/// `skill.oms.sig` its entry lists is read again (verified against the entry like every read),
/// and the bundle is checked against the entry's digests, which every read was checked
/// against. A refusal is a failed check on the file's `skill://` URI.
pub(crate) async fn check_mcp<R: crate::client::Rpc>(
    client: &crate::client::SkillsClient,
    rpc: &R,
    entry: &crate::host::Entry,
    keys: &OmsKeys<'_>,
    report: &mut SkillReport,
) -> OmsOutcome {
    match read_signature(client, rpc, entry, crate::host::Purpose::Check).await {
        None => OmsOutcome::Absent,
        // The file's earlier read may have passed (and this one not come from the cache): the
        // failure is the skill's, or a server could skip the OMS check by failing this read.
        Some(Err(e)) => {
            let skill = entry.uri();
            let root = skill.strip_suffix("SKILL.md").unwrap_or(skill);
            report.checks.push(FileCheck {
                uri: format!("{root}{SIGNATURE_FILE}"),
                size: None,
                digest: None,
                status: FileStatus::Failed,
                error: Some(e),
            });
            OmsOutcome::Failed
        }
        Some(Ok(bytes)) => check_entry(&bytes, entry, keys, report),
    }
}

/// The `skill.oms.sig` the entry lists, read for `purpose` (verified against the entry like
/// every read); `None` when it lists none.
async fn read_signature<R: crate::client::Rpc>(
    client: &crate::client::SkillsClient,
    rpc: &R,
    entry: &crate::host::Entry,
    purpose: crate::host::Purpose,
) -> Option<Result<Vec<u8>, crate::client::ClientError>> {
    let skill = entry.uri();
    let root = skill.strip_suffix("SKILL.md").unwrap_or(skill);
    let sig_uri = format!("{root}{SIGNATURE_FILE}");
    let items = entry.items().unwrap_or_default();
    if !items.iter().any(|i| i.uri == sig_uri) {
        return None;
    }
    Some(
        client
            .read_for(rpc, skill, &sig_uri, purpose)
            .await
            .map(|r| r.file.content.body.as_bytes().to_vec()),
    )
}

/// The bundle `bytes` checked against the digests of `entry`, which every read is checked
/// against.
fn check_entry(
    bytes: &[u8],
    entry: &crate::host::Entry,
    keys: &OmsKeys<'_>,
    report: &mut SkillReport,
) -> OmsOutcome {
    let skill = entry.uri();
    let root = skill.strip_suffix("SKILL.md").unwrap_or(skill);
    let items = entry.items().unwrap_or_default();
    let mut digests = Vec::with_capacity(items.len());
    for i in items {
        let (Some(path), Some(d)) = (i.uri.strip_prefix(root), hex32(&i.digest)) else {
            continue;
        };
        digests.push((path, d));
    }
    check_bundle(bytes, digests, |p| format!("{root}{p}"), keys, report)
}

/// The 32 bytes of a `sha256:` + 64 hex digest.
fn hex32(digest: &str) -> Option<[u8; 32]> {
    let hex = digest.strip_prefix("sha256:")?.as_bytes();
    if hex.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (o, pair) in out.iter_mut().zip(hex.chunks(2)) {
        let s = std::str::from_utf8(pair).ok()?;
        *o = u8::from_str_radix(s, 16).ok()?;
    }
    Some(out)
}

/// The check of one bundle against the files' digests; `at` gives a file's URI in the report.
fn check_bundle(
    sig: &[u8],
    digests: Vec<(&str, [u8; 32])>,
    at: impl Fn(&str) -> String,
    keys: &OmsKeys<'_>,
    report: &mut SkillReport,
) -> OmsOutcome {
    let refuse = |e: crate::oms::OmsError, code: ErrorCode| {
        // A file name a bundle made up can be as long as the bundle: the check is then the
        // signature file's (the message quotes the name clipped).
        let file = e.file.as_deref().filter(|f| f.len() <= 200);
        let uri = at(file.unwrap_or(SIGNATURE_FILE));
        failed(
            uri,
            code,
            format!("the OMS signature {SIGNATURE_FILE}: {}", e.message),
        )
    };
    let candidates = keys.candidates();
    if let (true, Some(pinned)) = (candidates.is_empty(), &keys.pinned_hint) {
        report.checks.push(failed(
            at(SIGNATURE_FILE),
            ErrorCode::SignatureInvalid,
            format!("the OMS pin of {} (hint {pinned}) holds no P-256 public key: the pins file is damaged; remove the origin's entry of omsPins, or pin its key again", keys.origin),
        ));
        return OmsOutcome::Failed;
    }
    if candidates.is_empty() {
        let covered = Bundle::parse(sig)
            .and_then(|b| read_unverified(&b))
            .and_then(|m| m.check_covers(digests));
        return match covered {
            Ok(()) => OmsOutcome::Unchecked,
            Err(e) => {
                report.checks.push(refuse(e, ErrorCode::SignatureInvalid));
                OmsOutcome::Failed
            }
        };
    }
    match verify_folder(sig, &candidates, digests) {
        Ok(key) => OmsOutcome::Verified {
            trusted: keys.trusted.contains(key),
            key: key.clone(),
        },
        Err(e) if e.message.contains("not trusted here") => {
            // By a key neither trusted nor pinned: from a pinned origin without a trust list,
            // a change of signer (as a DSSE pin has it); otherwise an untrusted signer.
            match (&keys.pinned_hint, keys.trusted.is_empty()) {
                (Some(pinned), true) => {
                    let got = match Bundle::parse(sig).ok().and_then(|b| b.hint) {
                        Some(h) => format!("by the key with hint {h}"),
                        None => "by a key it does not name, and the pinned key does not verify it"
                            .to_owned(),
                    };
                    report
                        .checks
                        .push(keys.changed(at(SIGNATURE_FILE), pinned, &got));
                }
                _ => report.checks.push(refuse(e, ErrorCode::SignerUntrusted)),
            }
            OmsOutcome::Failed
        }
        Err(e) => {
            report.checks.push(refuse(e, ErrorCode::SignatureInvalid));
            OmsOutcome::Failed
        }
    }
}

/// The statement of a bundle whose signature is not checked: only for its coverage, when no
/// key is trusted.
fn read_unverified(b: &Bundle) -> Result<crate::oms::Manifest, crate::oms::OmsError> {
    crate::oms::read_statement(&b.payload)
}

/// After the DSSE check. Each format present must hold on its own, and with a trust list
/// (`trust_given`: any `--trust` or `--pins`) each signature present must be by a key on it:
/// - an OMS signature by a trusted key beside a DSSE signature whose key is only announced
///   (not trusted, not pinned): refused (`signer-untrusted`), since the two disagree on who
///   signed;
/// - an OMS signature checked against no key (no OMS key is trusted, and its origin has no
///   OMS pin) while a trust list is given: refused, since nothing vouches for its signer;
/// - with OMS keys trusted, a skill without an OMS signature must have a DSSE signature whose
///   key is trusted or pinned, and an OMS signature must verify with a trusted key (the
///   origin's pinned key alone does not do);
/// - from an origin pinned to an OMS key, an OMS signature by another key, or none, is
///   `signer-changed`.
///
/// A skill that passes every check with an OMS signature pins its origin on first use
/// ([`Signers::pin_oms`]); a refusal changes no pin, and takes back the DSSE pin the skill's
/// signer made on first use ([`Signers::settle_first_use`]). The OMS signer is reported when
/// no DSSE signer is.
pub(crate) fn finish(
    outcome: OmsOutcome,
    keys: &OmsKeys<'_>,
    trust_given: bool,
    sig_uri: &str,
    report: &mut SkillReport,
    signers: &mut Signers,
) {
    settle_oms(outcome, keys, trust_given, sig_uri, report, signers);
    // The DSSE signer was pinned on first use when the entry was registered (or the
    // artifact's envelope checked), before this skill's files and OMS signature were: a
    // skill refused since pins nothing, in either format (whatever its signer's trust: a
    // trusted key pinned on first use is reported `trusted`).
    if let Some(signer) = &report.signer {
        signers.settle_first_use(&keys.origin, signer, refused(report));
    }
}

/// Whether the skill is refused so far: an error, a check that is not `verified` (or
/// `dynamic`), or an entry that kept changing during its check (`changed`).
fn refused(report: &SkillReport) -> bool {
    report.error.is_some()
        || report.status == super::report::SkillStatus::Changed
        || report
            .checks
            .iter()
            .any(|c| !matches!(c.status, FileStatus::Verified | FileStatus::Dynamic))
}

/// The rules of [`finish`] for the OMS signature.
fn settle_oms(
    outcome: OmsOutcome,
    keys: &OmsKeys<'_>,
    trust_given: bool,
    sig_uri: &str,
    report: &mut SkillReport,
    signers: &mut Signers,
) {
    let dsse = report
        .signer
        .as_ref()
        .map(|s| s.trust != SignerTrust::Announced);
    let pinned = keys.pinned_hint.as_deref();
    match outcome {
        OmsOutcome::Verified { key, trusted } => {
            let hint = key.hint();
            if let Some(p) = pinned.filter(|p| *p != hint) {
                report.checks.push(keys.changed(
                    sig_uri.to_owned(),
                    p,
                    &format!("by the key with hint {hint}"),
                ));
                return;
            }
            if !trusted && !keys.trusted.is_empty() {
                report.checks.push(failed(
                    sig_uri.to_owned(),
                    ErrorCode::SignerUntrusted,
                    format!("the skill's OMS signature verifies only with the key its origin is pinned to (hint {hint}), which is not among the trusted OMS keys: with OMS keys trusted, the signature must be by one of them (trust that key too, or accept the change)"),
                ));
                return;
            }
            if dsse == Some(false) {
                report.checks.push(failed(
                    sig_uri.to_owned(),
                    ErrorCode::SignerUntrusted,
                    "the OMS signature is by a trusted key, but the skill's DSSE signature is by a key not trusted here: both formats present must both hold (trust that key too, or serve one format)".to_owned(),
                ));
                return;
            }
            let passed = !refused(report)
                && report
                    .checks
                    .iter()
                    .all(|c| c.status == FileStatus::Verified);
            if pinned.is_none() && passed {
                signers.pin_oms(&keys.origin, &hint, &key.to_pem());
            }
            if dsse.is_none() {
                report.signer = Some(Signer {
                    key_id: format!("oms:{hint}"),
                    catalog: "OpenSSF Model Signing".into(),
                    trust: if trusted {
                        SignerTrust::Trusted
                    } else {
                        SignerTrust::Pinned
                    },
                });
            }
        }
        OmsOutcome::Unchecked if trust_given => report.checks.push(failed(
            sig_uri.to_owned(),
            ErrorCode::SignerUntrusted,
            format!("the skill's OMS signature ({SIGNATURE_FILE}) is by no key trusted here (--trust names no OMS key, and its origin has no OMS pin; a bundle names its key by a hash, so first use pins only a trusted key): both formats present must both hold; add the publisher's oms.pub to --trust"),
        )),
        OmsOutcome::Absent if pinned.is_some() => {
            let p = pinned.unwrap_or_default();
            report.checks.push(keys.changed(sig_uri.to_owned(), p, "missing"));
        }
        OmsOutcome::Absent if !keys.trusted.is_empty() && dsse != Some(true) => {
            report.checks.push(failed(
                sig_uri.to_owned(),
                ErrorCode::SignerUntrusted,
                format!("the skill has no OMS signature ({SIGNATURE_FILE}) and no DSSE signature by a trusted key, and --trust names OMS keys: it is not signed by a key trusted here"),
            ));
        }
        _ => {}
    }
}

/// The OMS keys for a skill of `client`'s server: `trusted`, and its origin's pin.
pub(crate) fn keys_of<'a>(
    client: &crate::client::SkillsClient,
    trusted: &'a [OmsPublicKey],
) -> OmsKeys<'a> {
    client
        .host(|h, label| OmsKeys::of(trusted, h.signers(), h.origin(label).unwrap_or(label)))
        .unwrap_or_else(|_| OmsKeys::of(trusted, &Signers::default(), ""))
}

/// Settles the OMS `outcome` of a skill of `client`'s server ([`finish`], with the pins the
/// client's host holds).
pub(crate) fn finish_client(
    client: &crate::client::SkillsClient,
    outcome: OmsOutcome,
    keys: &OmsKeys<'_>,
    trust_given: bool,
    sig_uri: &str,
    report: &mut SkillReport,
) {
    let settled = client.host(|h, _| {
        finish(
            outcome.clone(),
            keys,
            trust_given,
            sig_uri,
            report,
            h.signers_mut(),
        )
    });
    if settled.is_err() {
        // The server is gone from the client: nothing is pinned, the rules still apply.
        finish(
            outcome,
            keys,
            trust_given,
            sig_uri,
            report,
            &mut Signers::default(),
        );
    }
}

/// The OMS check of a skill `SkillsClient.load` (the npm package's) just loaded, when the
/// client trusts OMS keys or the skill's origin has an OMS pin: the `skill.oms.sig` its held
/// entry lists is read (verified like every read) and checked against the entry's digests,
/// then the rules of [`finish`] apply (pinning on first use), so a skill that `verify` would
/// fail for its signatures is not returned. The error is the first refusal, naming the file.
#[cfg(feature = "js")]
pub(crate) async fn check_loaded<R: crate::client::Rpc>(
    client: &crate::client::SkillsClient,
    rpc: &R,
    uri: &str,
    trusted: &[OmsPublicKey],
) -> Result<(), crate::client::ClientError> {
    let keys = keys_of(client, trusted);
    if !keys.any() {
        return Ok(());
    }
    let Ok(Some(entry)) = client.host(|h, label| h.entry(label, uri).cloned()) else {
        return Ok(());
    };
    let mut report = SkillReport {
        uri: uri.to_owned(),
        name: None,
        description: None,
        revision: None,
        files: 0,
        bytes: 0,
        status: super::report::SkillStatus::Verified,
        error: None,
        refreshed: false,
        signer: client
            .host(|h, label| h.signer(label, uri).cloned())
            .ok()
            .flatten(),
        checks: Vec::new(),
    };
    let outcome = match read_signature(client, rpc, &entry, crate::host::Purpose::Use).await {
        None => OmsOutcome::Absent,
        Some(Err(e)) => {
            let _ = client.host(|h, label| h.close_window(label, uri));
            return Err(e);
        }
        Some(Ok(bytes)) => check_entry(&bytes, &entry, &keys, &mut report),
    };
    let sig_uri = format!(
        "{}{SIGNATURE_FILE}",
        uri.strip_suffix("SKILL.md").unwrap_or(uri)
    );
    finish_client(client, outcome, &keys, true, &sig_uri, &mut report);
    match report.checks.into_iter().find_map(|c| c.error) {
        Some(e) => {
            // A refused skill is not left active: its files cannot be read after the refusal.
            let _ = client.host(|h, label| h.close_window(label, uri));
            Err(e)
        }
        None => Ok(()),
    }
}
