//! Verifying a well-known skills source (Agent Skills Discovery RFC v0.2.0, §Client
//! Implementation, §Integrity and Verification, §Archive Safety): the run of `skills-edge
//! verify` on an index URL, reported in the same [`Report`] as an MCP server's.
//!
//! 1. `GET` the index and read it ([`parse_index`]): an unknown `$schema` stops the run
//!    (`unknown-schema`, exit 2), as does an index that cannot be read; a bad entry is a
//!    `failed` skill (`invalid-entry`).
//! 2. For each skill, `GET` its artifact and check its SHA-256 against `digest` before anything
//!    else (`digest-mismatch`: nothing of it is unpacked or read).
//! 3. A `skill-md` artifact is the `SKILL.md`; an `archive` is unpacked in memory as its URL's
//!    extension in the index says (`.tar.gz`, `.tgz`, `.zip`; never by `Content-Type`, which
//!    the digest does not cover: [`crate::host::archive`]).
//! 4. The files go through the very checks the catalog compiler runs on a skills folder
//!    ([`compile`]: path segments, frontmatter, `name` equal to the directory, limits), the
//!    directory being the index's `name`, and the index's `description` must equal the
//!    frontmatter's (`frontmatter-mismatch`; the RFC says SHOULD, a verifier reports it).
//!
//! Each skill's report: `uri` is the artifact's URL, `revision` the skill-level digest of its
//! files (the value MCP entries of this project carry, so both can be compared), `checks` the
//! artifact first, then each file as `{artifact URL}#{path}` with its size and digest (for a
//! `skill-md` the artifact is the one check). A v0.1.0 index (no `$schema`) has no digests: its
//! files are fetched one by one from `{index directory}/{name}/{path}` and checked by the
//! compiler's rules, and the skill and each of its files are `dynamic` (nothing could be
//! compared, so nothing is `verified`).
//!
//! **Signatures.** An entry whose `_meta` names a DSSE envelope ([`IndexSkill::envelope`]) is
//! signed: once its files are read, the envelope is fetched and checked against them with the
//! run's signer policy and pins, under the index's origin ([`Signers::check_files`]): the
//! statement's skill must be a `SKILL.md` in a directory of the entry's name, its subjects the
//! files (each subject's name minus that directory is a path in the artifact, with its digest,
//! as many of them), its revision theirs. The keys the source offers are its JWK Set
//! ([`Index::keys`](crate::host::index::Index::keys): named by the index's `_meta`, else
//! `/.well-known/agent-skills/keys.json`; fetched once, when the first envelope is met); a trusted
//! or pinned key is used first. A refusal is a failed check on the envelope's URL (`signature-invalid`,
//! `signer-untrusted`, `signer-changed`); an unsigned entry is judged by the policy alone (a
//! failed check on the artifact). The report's `signer` is the verified signer.
//!
//! [`cross_check`] compares such a report with an MCP server's: every file of an archive must
//! have the digest the MCP entry of the same skill lists, and every MCP file must be in it.

use std::collections::{BTreeMap, BTreeSet};

use super::report::{finish_skill, FileCheck, FileStatus, Report, SkillReport, SkillStatus};
use crate::client::challenge::Requested;
use crate::client::http::{explain_unauthorized, HttpIo, ResponseBody, MAX_REPLY_BYTES};
use crate::client::{ClientError, ExchangeKind, Result};
use crate::compile::{compile, SourceTree};
use crate::diag::Severity;
use crate::host::archive::{unpack, ArchiveFormat, Member};
use crate::host::error::{ErrorCode, VerifyError};
use crate::host::index::{
    origin_of, parse_index, Artifact, IndexSkill, IndexVersion, RejectedEntry,
};
use crate::host::signature::{Presented, PublicKey, Signers};
use crate::sign::Envelope;
use crate::skill::digest::digest_of;
use crate::skill::limits::{MAX_BYTES_PER_SKILL, MAX_FILES_PER_SKILL};
use crate::skill::revision::skill_revision;
use crate::skill::uri::{skill_root, SKILL_MD};

/// What a `GET` brought back: the whole body (its `Content-Type` decides nothing: an archive's
/// format is the index's, [`crate::host::archive::ArchiveFormat::from_url`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Fetched {
    /// The body.
    pub(crate) bytes: Vec<u8>,
}

/// `GET`s `url` through `io` and reads the body (at most [`MAX_REPLY_BYTES`]); any status but
/// 200 is `http-status`, a 401 explained as an MCP endpoint's is: the challenge and the
/// source's Protected Resource Metadata ([`crate::client::challenge`], `Requested::WellKnown`).
pub(crate) async fn fetch<H: HttpIo>(io: &H, url: &str) -> Result<Fetched> {
    let mut response = io.get(url).await?;
    if response.status == 401 {
        let requested = Some(Requested::WellKnown(url));
        let challenge = response.www_authenticate.take();
        return Err(explain_unauthorized(
            io,
            &format!("GET {url}"),
            requested,
            challenge.as_deref(),
        )
        .await
        .with_uri(url));
    }
    if response.status != 200 {
        return Err(ClientError::exchange(
            ExchangeKind::HttpStatus,
            format!("GET {url} answered HTTP {}", response.status),
        )
        .with_uri(url)
        .with_values("200", response.status.to_string()));
    }
    let mut bytes = Vec::new();
    while let Some(chunk) = response.body.next_chunk().await? {
        if bytes.len() + chunk.len() > MAX_REPLY_BYTES {
            return Err(ClientError::exchange(
                ExchangeKind::ProtocolError,
                format!("GET {url} sent more than {MAX_REPLY_BYTES} bytes; it was not read"),
            )
            .with_uri(url));
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(Fetched { bytes })
}

/// What the signature checks of one run share: the signer policy and pins, the origin they are
/// kept under, and the source's key set once fetched.
struct Signing<'a> {
    signers: &'a mut Signers,
    origin: String,
    /// The URL of the source's key set.
    keys_url: String,
    /// The key set: the keys it holds, or why it could not be read; `None` until needed.
    keys: Option<std::result::Result<Vec<PublicKey>, String>>,
    /// The OMS keys the `--trust` files hold ([`super::oms`]).
    oms_keys: Vec<crate::oms::OmsPublicKey>,
}

impl Signing<'_> {
    /// The source's key set, fetched on first use: every key of it that is a public Ed25519
    /// JWK (the others are skipped; a key is only ever used when an envelope names its
    /// thumbprint).
    async fn keys<H: HttpIo>(&mut self, io: &H) -> &std::result::Result<Vec<PublicKey>, String> {
        if self.keys.is_none() {
            let url = self.keys_url.clone();
            let read = match fetch(io, &url).await {
                Err(e) => Err(format!(
                    "the key set {url} could not be read: {}",
                    e.message
                )),
                Ok(f) => match serde_json::from_slice::<serde_json::Value>(&f.bytes) {
                    Ok(set) => Ok(set
                        .get("keys")
                        .and_then(serde_json::Value::as_array)
                        .map(|keys| {
                            keys.iter()
                                .filter_map(|k| PublicKey::from_jwk(&k.to_string()).ok())
                                .collect()
                        })
                        .unwrap_or_default()),
                    Err(e) => Err(format!("the key set {url} is not JSON: {e}")),
                },
            };
            self.keys = Some(read);
        }
        self.keys.get_or_insert_with(|| Ok(Vec::new()))
    }
}

/// Verifies every skill of the well-known index at `index_url` (see the module
/// documentation), checking signatures with `signers` under the index's origin (pins made on
/// first use are added to it) and OMS signatures with `oms_keys` (the `--trust` files, or the
/// `trust` option's items, holding PEM; [`super::oms`]).
pub(crate) async fn run_well_known_with<H: HttpIo>(
    io: &H,
    index_url: &str,
    signers: &mut Signers,
    oms_keys: Vec<crate::oms::OmsPublicKey>,
) -> Report {
    let index = match fetch(io, index_url).await {
        Ok(f) => match parse_index(index_url, &f.bytes) {
            Ok(i) => i,
            Err(e) => return Report::stopped(None, ClientError::from_index(e)),
        },
        Err(e) => return Report::stopped(None, e),
    };
    let mut signing = Signing {
        signers,
        origin: origin_of(index_url).unwrap_or_else(|| index_url.to_owned()),
        keys_url: index.keys.clone(),
        keys: None,
        oms_keys,
    };
    let mut skills = Vec::with_capacity(index.skills.len());
    for entry in index.skills {
        skills.push(match entry {
            Ok(skill) => verify_skill(io, index.version, skill, &mut signing).await,
            Err(rejected) => rejected_report(index_url, rejected),
        });
    }
    Report {
        facts: None,
        skills,
        fatal: None,
    }
}

fn rejected_report(index_url: &str, r: RejectedEntry) -> SkillReport {
    let uri = format!("{index_url}#skills[{}]", r.index);
    let report = SkillReport {
        uri: uri.clone(),
        name: r.name,
        description: None,
        revision: None,
        files: 0,
        bytes: 0,
        status: SkillStatus::Failed,
        error: None,
        refreshed: false,
        signer: None,
        checks: vec![check_failed(&uri, r.error.with_uri(uri.clone()))],
    };
    finish_skill(report, false)
}

fn check_failed(uri: &str, e: impl Into<ClientError>) -> FileCheck {
    let e = e.into();
    FileCheck {
        uri: uri.to_owned(),
        size: None,
        digest: None,
        status: if e.code.is_transport_failure() {
            FileStatus::Error
        } else {
            FileStatus::Failed
        },
        error: Some(e),
    }
}

fn verified(uri: String, bytes: &[u8]) -> FileCheck {
    FileCheck {
        uri,
        size: Some(bytes.len() as u64),
        digest: Some(digest_of(bytes)),
        status: FileStatus::Verified,
        error: None,
    }
}

async fn verify_skill<H: HttpIo>(
    io: &H,
    version: IndexVersion,
    skill: IndexSkill,
    signing: &mut Signing<'_>,
) -> SkillReport {
    let (uri, members, dynamic) = match &skill.artifact {
        Artifact::SkillMd { url, .. } | Artifact::Archive { url, .. } => (url.clone(), None, false),
        Artifact::Files(files) => {
            let uri = files
                .iter()
                .find(|(p, _)| p == SKILL_MD)
                .map(|(_, u)| u.clone())
                .unwrap_or_else(|| files.first().map(|(_, u)| u.clone()).unwrap_or_default());
            (uri, Some(files.clone()), true)
        }
    };
    debug_assert_eq!(dynamic, version == IndexVersion::V0_1_0);
    let mut report = SkillReport::start(
        uri.clone(),
        Some(skill.name.clone()),
        Some(skill.description.clone()),
    );
    let files = match members {
        None => match artifact_members(io, &skill, &mut report).await {
            Some(m) => m,
            None => return finish_skill(report, false),
        },
        Some(list) => match listed_members(io, &list, &mut report).await {
            Some(m) => m,
            None => return finish_skill(report, true),
        },
    };
    report.files = files.len();
    report.bytes = files.iter().map(|m| m.bytes.len() as u64).sum();
    let digests: Vec<(String, String)> = files
        .iter()
        .map(|m| (m.path.clone(), digest_of(&m.bytes)))
        .collect();
    report.revision = skill_revision(digests.iter().map(|(p, d)| (p.as_str(), d.as_str())));
    let problems = compiler_checks(&skill, &files);
    file_checks(&skill, &files, &uri, dynamic, &problems, &mut report);
    // An OMS signature verified by a trusted key stands for a skill without a DSSE envelope
    // (one trust list, either format); each format present must hold ([`super::oms`]).
    let trusted = signing.oms_keys.clone();
    let oms_keys = super::oms::OmsKeys::of(&trusted, signing.signers, &signing.origin);
    let oms = super::oms::check_oms(&files, &uri, &oms_keys, &mut report);
    let oms_trusted = matches!(oms, super::oms::OmsOutcome::Verified { trusted: true, .. });
    if !oms_trusted || skill.envelope.is_some() {
        check_signature(io, &skill, &uri, &digests, signing, &mut report).await;
    }
    let sig_uri = format!("{uri}#{}", crate::oms::SIGNATURE_FILE);
    let trust_given = signing.signers.policy().has_trust() || !signing.oms_keys.is_empty();
    super::oms::finish(
        oms,
        &oms_keys,
        trust_given,
        &sig_uri,
        &mut report,
        signing.signers,
    );
    finish_skill(report, dynamic)
}

/// One check row per file of the skill (its URI, size and digest), failed where the
/// compiler's checks found a problem (`problems`); problems of paths that are not members get
/// a row of their own. A `SKILL.md` artifact keeps the one row it already has.
fn file_checks(
    skill: &IndexSkill,
    files: &[Member],
    uri: &str,
    dynamic: bool,
    problems: &[(String, VerifyError)],
    report: &mut SkillReport,
) {
    let is_skill_md = matches!(skill.artifact, Artifact::SkillMd { .. });
    for m in files {
        let file_uri = if is_skill_md {
            uri.to_owned()
        } else if dynamic {
            member_url(skill, &m.path).unwrap_or_else(|| format!("{uri}#{}", m.path))
        } else {
            format!("{uri}#{}", m.path)
        };
        let mut check = verified(file_uri.clone(), &m.bytes);
        if dynamic {
            // A v0.1.0 index lists no digests: nothing was compared, so nothing is verified.
            check.status = FileStatus::Dynamic;
        }
        if let Some(e) = problems
            .iter()
            .find(|(p, _)| *p == m.path)
            .map(|(_, e)| e.clone())
        {
            check.status = FileStatus::Failed;
            check.error = Some(e.with_uri(file_uri).into());
        }
        if is_skill_md {
            // The artifact's check is this file's: keep one row.
            if let (Some(first), Some(e)) = (report.checks.first_mut(), check.error) {
                first.status = FileStatus::Failed;
                first.error = Some(e);
            }
            continue;
        }
        report.checks.push(check);
    }
    let member_paths: BTreeSet<&str> = files.iter().map(|m| m.path.as_str()).collect();
    for (path, e) in problems
        .iter()
        .filter(|(p, _)| !member_paths.contains(p.as_str()))
    {
        report
            .checks
            .push(check_failed(&format!("{uri}#{path}"), e.clone()));
    }
}

/// The signature check of a skill whose files were read (see the module documentation): the
/// signer into `report`, or a failed check.
async fn check_signature<H: HttpIo>(
    io: &H,
    skill: &IndexSkill,
    artifact: &str,
    digests: &[(String, String)],
    signing: &mut Signing<'_>,
    report: &mut SkillReport,
) {
    let presented = match &skill.envelope {
        None => None,
        Some(url) => {
            let fetched = match fetch(io, url).await {
                Ok(f) => f,
                Err(e) => {
                    report.checks.push(check_failed(url, e));
                    return;
                }
            };
            let envelope = match Envelope::parse(&fetched.bytes) {
                Ok(e) => e,
                Err(e) => {
                    let e = VerifyError::new(
                        ErrorCode::SignatureInvalid,
                        format!(
                            "the signature envelope {url} of {}: {}",
                            skill.name, e.message
                        ),
                    )
                    .with_uri(url.clone())
                    .with_actual(e.fault.as_str());
                    report.checks.push(check_failed(url, e));
                    return;
                }
            };
            let offered = match signing.keys(io).await {
                Ok(keys) => keys.clone(),
                Err(_) => Vec::new(),
            };
            Some((url.clone(), Presented { envelope, offered }))
        }
    };
    let at = presented
        .as_ref()
        .map_or_else(|| artifact.to_owned(), |(u, _)| u.clone());
    let checked = signing.signers.check_files(
        &signing.origin,
        &at,
        &skill.name,
        digests,
        presented.map(|(_, p)| p),
    );
    match checked {
        Ok(signer) => report.signer = signer,
        Err(mut e) => {
            if let Some(Err(why)) = &signing.keys {
                e.message = format!("{} ({why})", e.message);
            }
            report.checks.push(check_failed(&at, e));
        }
    }
}

fn member_url(skill: &IndexSkill, path: &str) -> Option<String> {
    match &skill.artifact {
        Artifact::Files(files) => files
            .iter()
            .find(|(p, _)| p == path)
            .map(|(_, u)| u.clone()),
        _ => None,
    }
}

/// Fetches a v0.2.0 artifact, checks its digest, and unpacks it. `None` when a check failed
/// (recorded in `report`).
async fn artifact_members<H: HttpIo>(
    io: &H,
    skill: &IndexSkill,
    report: &mut SkillReport,
) -> Option<Vec<Member>> {
    let (url, digest, archive) = match &skill.artifact {
        Artifact::SkillMd { url, digest } => (url, digest, false),
        Artifact::Archive { url, digest } => (url, digest, true),
        Artifact::Files(_) => return None,
    };
    let fetched = match fetch(io, url).await {
        Ok(f) => f,
        Err(e) => {
            report.checks.push(check_failed(url, e));
            return None;
        }
    };
    let actual = digest_of(&fetched.bytes);
    let mut check = verified(url.clone(), &fetched.bytes);
    if actual != *digest {
        let e = VerifyError::new(
            ErrorCode::DigestMismatch,
            format!(
                "{url} has digest {actual} but the index says {digest}; it was not unpacked or read"
            ),
        )
        .with_uri(url.clone())
        .with_values(digest.clone(), actual);
        check.status = FileStatus::Failed;
        check.error = Some(e.into());
        report.checks.push(check);
        return None;
    }
    report.checks.push(check);
    if !archive {
        return Some(vec![Member {
            path: SKILL_MD.to_owned(),
            bytes: fetched.bytes,
        }]);
    }
    let unpacked = ArchiveFormat::from_url(url)
        .ok_or_else(|| {
            VerifyError::new(
                ErrorCode::ArchiveInvalid,
                format!(
                    "{url} does not end in .tar.gz, .tgz or .zip, so the index does not say how to read it; name the archive by its format (its Content-Type is not used: the digest does not cover it)"
                ),
            )
            .with_uri(url.clone())
            .with_actual("unsupported")
        })
        .and_then(|format| unpack(format, &fetched.bytes, url));
    match unpacked {
        Ok(m) => Some(m),
        Err(e) => {
            if let Some(first) = report.checks.first_mut() {
                first.status = FileStatus::Failed;
                first.error = Some(e.into());
            }
            None
        }
    }
}

/// Fetches the files of a v0.1.0 entry one by one (no digests to check), within the skill
/// limits. `None` when one could not be fetched (recorded in `report`).
async fn listed_members<H: HttpIo>(
    io: &H,
    files: &[(String, String)],
    report: &mut SkillReport,
) -> Option<Vec<Member>> {
    if files.len() > MAX_FILES_PER_SKILL {
        let e = VerifyError::new(
            ErrorCode::LimitExceeded,
            format!(
                "the entry lists {} files; a skill has at most {MAX_FILES_PER_SKILL}",
                files.len()
            ),
        )
        .with_values(MAX_FILES_PER_SKILL.to_string(), files.len().to_string());
        report.checks.push(check_failed(&report.uri.clone(), e));
        return None;
    }
    let mut out: Vec<Member> = Vec::with_capacity(files.len());
    let mut total = 0u64;
    for (path, url) in files {
        match fetch(io, url).await {
            Ok(f) => {
                total += f.bytes.len() as u64;
                if total > MAX_BYTES_PER_SKILL {
                    let e = VerifyError::new(
                        ErrorCode::LimitExceeded,
                        format!("the files add up to more than {MAX_BYTES_PER_SKILL} bytes, the most a skill may have"),
                    )
                    .with_uri(url.clone());
                    report.checks.push(check_failed(url, e));
                    return None;
                }
                out.push(Member {
                    path: path.clone(),
                    bytes: f.bytes,
                });
            }
            Err(e) => {
                report.checks.push(check_failed(url, e));
                return None;
            }
        }
    }
    Some(out)
}

/// The compiler's checks on the skill's files, laid out as `{name}/{path}`, and the index's
/// name and description against the frontmatter: `(path, error)` for each error found.
fn compiler_checks(skill: &IndexSkill, files: &[Member]) -> Vec<(String, VerifyError)> {
    let mut tree = SourceTree::default();
    for m in files {
        tree.add_file(&format!("{}/{}", skill.name, m.path), m.bytes.clone());
    }
    let prefix = format!("{}/", skill.name);
    let mut out = Vec::new();
    match compile(tree) {
        Err(err) => {
            for d in err
                .diagnostics
                .iter()
                .filter(|d| d.severity == Severity::Error)
            {
                let path = d.path.strip_prefix(&prefix).unwrap_or(&d.path).to_owned();
                let code = if path == SKILL_MD {
                    ErrorCode::FrontmatterInvalid
                } else {
                    ErrorCode::ArchiveInvalid
                };
                let e = VerifyError::new(
                    code,
                    format!("{path}: {} ({}; fix: {})", d.message, d.rule.id(), d.fix),
                )
                .with_field(path.clone())
                .with_actual(d.rule.id());
                out.push((path, e));
            }
        }
        Ok(compiled) => {
            let root = compiled.skills.iter().find(|s| {
                skill_root(&s.uri).is_some_and(|r| r.ends_with(&format!("//{}", skill.name)))
            });
            if let Some(s) = root
                && s.description != skill.description
            {
                let e = VerifyError::new(
                    ErrorCode::FrontmatterMismatch,
                    format!(
                        "the index describes {} as {:?} but its SKILL.md says {:?}",
                        skill.name, skill.description, s.description
                    ),
                )
                .with_field("description")
                .with_values(
                    serde_json::Value::from(skill.description.as_str()).to_string(),
                    serde_json::Value::from(s.description.as_str()).to_string(),
                );
                out.push((SKILL_MD.to_owned(), e));
            }
        }
    }
    out
}

/// Adds to `well_known` the comparison with `mcp` (the same server's MCP run): for every
/// well-known skill that one MCP skill has the name of, each of its files must carry the digest
/// the MCP entry lists, and each MCP file must be among them (`digest-mismatch`,
/// `not-in-manifest`). Skills only one side has are left as they are.
///
/// Every lookup is in an ordered map built once (skills by name, files by path): O(n log n) in
/// the skills and files of both runs.
pub(crate) fn cross_check(mcp: &Report, well_known: &mut Report) {
    // The MCP skill of each name; `None` when two have it (neither is compared).
    let mut by_name: BTreeMap<&str, Option<&SkillReport>> = BTreeMap::new();
    for m in &mcp.skills {
        if let Some(name) = m.name.as_deref() {
            by_name
                .entry(name)
                .and_modify(|slot| *slot = None)
                .or_insert(Some(m));
        }
    }
    for s in &mut well_known.skills {
        let Some(name) = s.name.clone() else { continue };
        let Some(Some(m)) = by_name.get(name.as_str()) else {
            continue;
        };
        let Some(root) = skill_root(&m.uri).map(|r| format!("{r}/")) else {
            continue;
        };
        let mut mcp_files: BTreeMap<&str, Option<&str>> = BTreeMap::new();
        for c in &m.checks {
            if let Some(path) = c.uri.strip_prefix(&root) {
                mcp_files.entry(path).or_insert(c.digest.as_deref());
            }
        }
        let artifact = s.uri.clone();
        let ours: Vec<(String, Option<String>)> = s
            .checks
            .iter()
            .filter_map(|c| {
                let path = match c.uri.split_once('#') {
                    Some((_, p)) => p.to_owned(),
                    None if c.uri == artifact && s.files == 1 => SKILL_MD.to_owned(),
                    None => return None,
                };
                Some((path, c.digest.clone()))
            })
            .collect();
        if ours.is_empty() {
            continue;
        }
        let mut added = Vec::new();
        for (path, digest) in &ours {
            match mcp_files.get(path.as_str()) {
                Some(Some(d)) if Some(*d) == digest.as_deref() => {}
                Some(d) => added.push(check_failed(
                    &format!("{artifact}#{path}"),
                    VerifyError::new(
                        ErrorCode::DigestMismatch,
                        format!(
                            "{path} of {name} has digest {} in the well-known archive and {} over MCP; the two publish different bytes",
                            digest.as_deref().unwrap_or("(none)"),
                            d.unwrap_or("(none)")
                        ),
                    )
                    .with_uri(format!("{root}{path}"))
                    .with_values(d.unwrap_or_default(), digest.clone().unwrap_or_default()),
                )),
                None => added.push(check_failed(
                    &format!("{artifact}#{path}"),
                    VerifyError::new(
                        ErrorCode::NotInManifest,
                        format!("{path} is in the well-known copy of {name} but not in its MCP entry"),
                    )
                    .with_uri(format!("{root}{path}")),
                )),
            }
        }
        let our_paths: BTreeSet<&str> = ours.iter().map(|(p, _)| p.as_str()).collect();
        let mcp_paths = m.checks.iter().filter_map(|c| c.uri.strip_prefix(&root));
        for path in mcp_paths {
            if !our_paths.contains(path) {
                added.push(check_failed(
                    &format!("{root}{path}"),
                    VerifyError::new(
                        ErrorCode::NotInManifest,
                        format!(
                            "{path} is in the MCP entry of {name} but not in its well-known copy"
                        ),
                    )
                    .with_uri(format!("{root}{path}")),
                ));
            }
        }
        if !added.is_empty() {
            s.checks.extend(added);
            let dynamic = s.status == SkillStatus::Dynamic;
            *s = finish_skill(s.clone(), dynamic);
        }
    }
}
