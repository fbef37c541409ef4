//! The run of `skills-edge verify <url>`, one implementation for the native command, the npm
//! package's command, [`SkillsClient`]'s `verify` and the inspector page: which skills and
//! files are checked, each one's status and reason, the table, the JSON lines and the exit
//! status. The callers only move bytes ([`HttpIo`](crate::client::http::HttpIo)); the command itself is [`super::verify`].
//!
//! For every skill of the server (every page of `skills/list`, or only `--skill URI`, fetched
//! with `skills/get`):
//!
//! 1. an entry the listing has but that is invalid is `failed` (`invalid-entry`);
//! 2. the skill is loaded ([`SkillsClient::load`]: limits, then the `SKILL.md`'s size, digest
//!    and frontmatter); if that fails the other files are not read (`skipped`), as no host
//!    would read them;
//! 3. every other file of the entry is read and verified ([`SkillsClient::read`]);
//! 4. when the server declares `directoryRead`, every directory under the skill root is
//!    listed, and a file it shows that the entry does not list is `unlisted`
//!    (`not-in-manifest`, never read).
//!
//! Refreshing once after a verification failure is part of loading and reading, so a stale
//! entry that the server has since corrected verifies (`refreshed` says so).
//!
//! **Signatures.** The client's registry checks each entry's signature when it is registered,
//! under the run's signer policy ([`crate::host::signature`]: `--trust`, `--pins`, or by
//! default checked when present and reported): an entry whose signature does not hold, or
//! whose signer the policy refuses, is `failed` with `signature-invalid`, `signer-untrusted`
//! or `signer-changed`, like an invalid entry, and none of its files is read. Each skill's
//! report names the signer verified for the entry held at the end (`signer`: key id, catalog
//! identity, and `trusted`, `pinned`, `first-use` or `announced`); none for an unsigned skill.
//!
//! **What the host holds.** Every status comes from the receipt of a read
//! ([`FileReceipt::verified`](crate::host::FileReceipt::verified)) and from the entry the client
//! holds at the end of the skill's check, never from the listing: the figures (`files`,
//! `bytes`, `revision`) are that entry's. When the entry held at the end differs from the one
//! the check started on (a refresh during a read replaced it), the check starts again on the
//! new entry, at most [`MAX_ENTRY_RESTARTS`] times; after that the skill is `changed`, and
//! each of its checks is settled against the entry then held (a file verified against a
//! replaced entry whose item differs is `changed`, a file only the new entry lists is
//! `skipped`).
//!
//! A skill is `verified` when every check is `verified`, `dynamic` when the entry held is
//! `"dynamic"` (only its frontmatter can be checked; its `SKILL.md` is `dynamic` too, never
//! `verified`), `changed` when its entry kept changing during its check, `failed` when
//! something did not verify (or the server refused a request with a JSON-RPC error), `error`
//! when the exchange itself failed, `downgraded` when the listing gave it a manifest and the
//! entry held (what `skills/get` answered) is `"dynamic"`. The exit status follows from the
//! statuses alone: 0 when every skill is `verified` (or `dynamic`, with `--allow-dynamic`), 1
//! when some skill is `failed`, `changed` or `downgraded`, or `dynamic` without
//! `--allow-dynamic` (a host declines dynamic skills unless told: `SkillHost`'s default), 2
//! when the server could not be reached or listed, a skill's check hit an `error`, or the
//! arguments are wrong.
//!
//! **Terminal output.** Everything a server says (its name and version, URIs, error
//! messages, excerpts of its replies) reaches the table, the summary and the error line
//! through [`escape_for_terminal`], so no control character or bidirectional override a
//! server sends can act on the user's terminal. The JSON lines are JSON: serde escapes C0
//! controls there, but C1 controls, DEL and bidirectional controls stay as the server sent
//! them (they are valid JSON string content); a consumer that prints those strings to a
//! terminal escapes them itself (`escape_for_terminal` is public for that).

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde::Serialize;

use super::args::VerifyArgs;
use crate::client::{context_of, server_label_of_url, ServerFacts, SkillsClient};
use crate::client::{ClientError, ExchangeKind};
use crate::client::{ListedSkill, Rpc};
use crate::host::error::{ErrorCode, VerifyError};
use crate::host::index::origin_of;
use crate::host::registry::{HostOptions, Purpose};
use crate::host::signature::{Signer, SignerTrust, Signers};

/// Most directories listed per skill.
pub const MAX_DIRECTORIES: usize = 256;

/// How many times a skill's check starts again when the entry held at its end is not the one
/// it started on (a refresh during a read replaced it). Past this the skill is `changed`: a
/// server that replaces the entry on every refresh cannot keep the run going.
pub const MAX_ENTRY_RESTARTS: usize = 2;

/// Whether a terminal may act on `c`: C0 controls (tab and newline included), DEL, C1
/// controls, the bidirectional controls (U+061C, U+200E, U+200F, U+202A–U+202E,
/// U+2066–U+2069) and the line and paragraph separators (U+2028, U+2029).
fn acts_on_terminal(c: char) -> bool {
    matches!(c,
        '\0'..='\u{1f}'
        | '\u{7f}'..='\u{9f}'
        | '\u{61c}'
        | '\u{200e}'
        | '\u{200f}'
        | '\u{2028}'..='\u{202e}'
        | '\u{2066}'..='\u{2069}')
}

/// `text` made safe for a terminal: every C0 control (tab and newline included, so a table
/// cell stays one cell on one line), DEL, C1 control, bidirectional control (U+061C,
/// U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) and line or paragraph separator (U+2028,
/// U+2029) is replaced by a visible escape in Rust's form, `\u{1b}`; everything else is kept
/// (a backslash too, so a server can print something that looks like an escape, but nothing
/// a terminal acts on). Every human-readable output of `verify` passes the server's text
/// through this one function.
///
/// ```
/// use skills_edge::command::report::escape_for_terminal;
/// assert_eq!(escape_for_terminal("a\u{1b}]0;x\u{7}b"), r"a\u{1b}]0;x\u{7}b");
/// assert_eq!(escape_for_terminal("\u{202e}txt.exe\t1"), r"\u{202e}txt.exe\u{9}1");
/// assert_eq!(escape_for_terminal("plain, é"), "plain, é");
/// ```
pub fn escape_for_terminal(text: &str) -> Cow<'_, str> {
    if !text.chars().any(acts_on_terminal) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if acts_on_terminal(c) {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// The status of a skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SkillStatus {
    /// Every file verified.
    Verified,
    /// The entry held is `"dynamic"`: the frontmatter verified, the files cannot be.
    Dynamic,
    /// The listing gave the skill a manifest, and the entry held (what `skills/get` answered)
    /// is `"dynamic"`: the server withdrew what the files could be verified against. Always a
    /// failure, whatever accepts dynamic skills.
    Downgraded,
    /// The entry kept changing during the skill's check ([`MAX_ENTRY_RESTARTS`]): what was
    /// read was not all verified against the entry now held.
    Changed,
    /// Something did not verify.
    Failed,
    /// The exchange failed before everything was checked.
    Error,
}

impl SkillStatus {
    /// `verified`, `dynamic`, `downgraded`, `changed`, `failed` or `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            SkillStatus::Verified => "verified",
            SkillStatus::Dynamic => "dynamic",
            SkillStatus::Downgraded => "downgraded",
            SkillStatus::Changed => "changed",
            SkillStatus::Failed => "failed",
            SkillStatus::Error => "error",
        }
    }
}

/// The status of one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FileStatus {
    /// Size and digest (and for the `SKILL.md` the frontmatter) match the entry held.
    Verified,
    /// Read from a `"dynamic"` skill: only a `SKILL.md`'s frontmatter could be checked, its
    /// bytes match no manifest.
    Dynamic,
    /// Read for an entry that was then replaced, and the entry held lists it differently (or
    /// not at all), or has a manifest where the entry read for was `"dynamic"`.
    Changed,
    /// It did not verify (or the server refused to serve it).
    Failed,
    /// The exchange failed.
    Error,
    /// Listed by `resources/directory/read` but not by the entry: never read.
    Unlisted,
    /// Not read: the skill's `SKILL.md` did not load, or the file is listed only by an entry
    /// that replaced the one the skill's last check ran on.
    Skipped,
}

impl FileStatus {
    /// The status of a read whose receipt is `receipt`: `verified` only when it was checked
    /// against a manifest item.
    fn of(receipt: &crate::host::FileReceipt) -> FileStatus {
        if receipt.verified {
            FileStatus::Verified
        } else {
            FileStatus::Dynamic
        }
    }
}

/// One check: a file of the entry, an unlisted file, or a directory that could not be listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileCheck {
    /// The file's (or directory's) URI.
    pub uri: String,
    /// Its size, verified (or as the entry lists it when not verified).
    pub size: Option<u64>,
    /// Its digest, verified (or as the entry lists it when not verified).
    pub digest: Option<String>,
    /// The outcome.
    pub status: FileStatus,
    /// Why, when it is not `verified`.
    pub error: Option<ClientError>,
}

/// The report on one skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillReport {
    /// Its `SKILL.md` URI (for an entry too broken to have one, `#<index>` in the listing).
    pub uri: String,
    /// `frontmatter.name`, when the entry is valid.
    pub name: Option<String>,
    /// Its description, when the entry is valid.
    pub description: Option<String>,
    /// Its revision (the skill-level digest), when the entry held has a manifest.
    pub revision: Option<String>,
    /// Files in the entry held.
    pub files: usize,
    /// Their declared total size.
    pub bytes: u64,
    /// The outcome.
    pub status: SkillStatus,
    /// The first reason it is not `verified` (in check order).
    pub error: Option<ClientError>,
    /// Whether its entry was refreshed with `skills/get` after a verification failure.
    pub refreshed: bool,
    /// The signer verified for the entry held (or for the artifact's files), `None` when the
    /// skill is unsigned or its signature was not checked (it failed before).
    pub signer: Option<Signer>,
    /// Every check, the `SKILL.md` first, then the entry's other files in its order, then
    /// files only the directory listing shows.
    pub checks: Vec<FileCheck>,
}

/// The whole run.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// What the server said about itself.
    pub facts: Option<ServerFacts>,
    /// One report per skill, in listing order.
    pub skills: Vec<SkillReport>,
    /// What stopped the run before any skill was checked (connecting, listing).
    pub fatal: Option<ClientError>,
}

fn status_of(e: &ClientError) -> FileStatus {
    if e.code.is_transport_failure() {
        FileStatus::Error
    } else {
        FileStatus::Failed
    }
}

fn failed_check(uri: &str, e: ClientError) -> FileCheck {
    FileCheck {
        uri: uri.to_owned(),
        size: None,
        digest: None,
        status: status_of(&e),
        error: Some(e),
    }
}

/// Verifies every skill of the connected server (or only `only`), with `client` over `rpc`.
/// Each skill is loaded only to be checked ([`Purpose::Check`]): a nested skill needs no
/// consent (nothing reaches a model), and every other option of the client applies.
pub async fn run<R: Rpc>(client: &SkillsClient, rpc: &R, only: Option<&str>) -> Report {
    run_with_oms(client, rpc, only, &[]).await
}

/// [`run`], checking OpenSSF Model Signing signatures with `oms_keys` (the `--trust` files
/// holding PEM; `super::oms`).
pub(crate) async fn run_with_oms<R: Rpc>(
    client: &SkillsClient,
    rpc: &R,
    only: Option<&str>,
    oms_keys: &[crate::catalog::oms::OmsPublicKey],
) -> Report {
    let facts = client.facts();
    let directory_read = facts.as_ref().is_some_and(ServerFacts::directory_read);
    let mut targets: Vec<Result<ListedSkill, (String, ClientError)>> = Vec::new();
    match only {
        Some(uri) => match client.get(rpc, uri).await {
            Ok(g) => targets.push(Ok(g.skill)),
            Err(e) if e.code.is_transport_failure() => return fatal(facts, e),
            Err(e) => targets.push(Err((uri.to_owned(), e))),
        },
        None => match client.list(rpc).await {
            Ok(listing) => {
                let total = listing.skills.len() + listing.rejected.len();
                let mut listed = listing.skills.into_iter();
                let rejected: BTreeMap<usize, &crate::host::Rejected> =
                    listing.rejected.iter().map(|r| (r.index, r)).collect();
                for index in 0..total {
                    match rejected.get(&index) {
                        Some(r) => {
                            let uri = r
                                .error
                                .uri
                                .as_deref()
                                .map(str::to_owned)
                                .unwrap_or_else(|| format!("#{index}"));
                            targets.push(Err((uri, r.error.clone().into())));
                        }
                        None => {
                            if let Some(s) = listed.next() {
                                targets.push(Ok(s));
                            }
                        }
                    }
                }
            }
            Err(e) => return fatal(facts, e),
        },
    }
    let mut skills = Vec::with_capacity(targets.len());
    for t in targets {
        skills.push(match t {
            Ok(skill) => verify_skill(client, rpc, skill, directory_read, oms_keys).await,
            Err((uri, e)) => SkillReport {
                uri: uri.clone(),
                name: None,
                description: None,
                revision: None,
                files: 0,
                bytes: 0,
                status: if e.code.is_transport_failure() {
                    SkillStatus::Error
                } else {
                    SkillStatus::Failed
                },
                checks: vec![failed_check(&uri, e.clone())],
                error: Some(e),
                refreshed: false,
                signer: None,
            },
        });
    }
    Report {
        facts,
        skills,
        fatal: None,
    }
}

fn fatal(facts: Option<ServerFacts>, e: ClientError) -> Report {
    Report::stopped(facts, e)
}

/// Checks one skill: [`check_skill`] until the entry held at the end of a check is the one it
/// started on (at most [`MAX_ENTRY_RESTARTS`] restarts), then settles every status against the
/// entry held.
async fn verify_skill<R: Rpc>(
    client: &SkillsClient,
    rpc: &R,
    skill: ListedSkill,
    directory_read: bool,
    oms_keys: &[crate::catalog::oms::OmsPublicKey],
) -> SkillReport {
    let uri = skill.entry.uri().to_owned();
    let mut refreshed = false;
    let mut restarts = 0;
    let (mut report, held) = loop {
        let (report, started) = check_skill(client, rpc, &skill.entry, directory_read).await;
        refreshed |= report.refreshed;
        let held = held_entry(client, &uri);
        let changed = match (&started, &held) {
            (Some(a), Some(b)) => a != b,
            // The load failed (no check ran on an entry) or the skill was forgotten.
            _ => false,
        };
        if !changed {
            break (report, held);
        }
        if restarts == MAX_ENTRY_RESTARTS {
            let mut report = report;
            report.status = SkillStatus::Changed;
            break (report, held);
        }
        restarts += 1;
    };
    report.refreshed = refreshed;
    // The OMS signature among the files (skill.oms.sig), checked while the window is open.
    let oms = match &held {
        Some(e) => super::oms::check_mcp(client, rpc, e, oms_keys, &mut report).await,
        None => super::oms::OmsOutcome::Absent,
    };
    // Only the window this check opened closes: the embedder's acting window, if any, stays
    // as it was (H15: a window is kept open longer, never shorter).
    let _ = client.host(|h, label| h.close_check_window(label, &uri));
    let entry = match held {
        Some(e) => e,
        None => {
            // The server stopped serving the skill during its check (a refresh answered with
            // an error, so the client forgot it): no entry backs what was read.
            withdrawn(&mut report, &uri);
            skill.entry.clone()
        }
    };
    settle(&mut report, &entry);
    report.signer = client
        .host(|h, label| h.signer(label, &uri).cloned())
        .ok()
        .flatten();
    let sig_uri = format!(
        "{}{}",
        uri.strip_suffix("SKILL.md").unwrap_or(&uri),
        crate::catalog::oms::SIGNATURE_FILE
    );
    super::oms::finish(oms, oms_keys, &sig_uri, &mut report);
    let changed = report.status == SkillStatus::Changed;
    let report = finish(report, &entry, changed.then_some(restarts));
    downgrade(report, &skill.entry, &entry)
}

/// A skill the listing gave a manifest whose entry held is `"dynamic"` is `downgraded`: a
/// server that lists files and digests, then answers `skills/get` with `"dynamic"`, would
/// otherwise serve other bytes as a `dynamic` skill that only fails without
/// `--allow-dynamic`. An `error` stays an `error` (the exchange failed first).
fn downgrade(
    mut report: SkillReport,
    listed: &crate::host::Entry,
    held: &crate::host::Entry,
) -> SkillReport {
    if listed.is_dynamic() || !held.is_dynamic() || report.status == SkillStatus::Error {
        return report;
    }
    let files = listed.items().map_or(0, <[_]>::len);
    report.status = SkillStatus::Downgraded;
    report.error = Some(
        VerifyError::new(
            ErrorCode::DynamicNotAllowed,
            format!(
                "{} was listed with a manifest of {files} files (revision {}), then served as \"dynamic\": its files can no longer be verified against anything (a downgrade, refused even when dynamic skills are accepted)",
                listed.uri(),
                listed.revision().unwrap_or_default()
            ),
        )
        .with_uri(listed.uri())
        .with_field("resources")
        .with_values("a manifest", "\"dynamic\"")
        .into(),
    );
    report
}

/// Marks every check of a skill whose entry the client no longer holds as `changed`: what was
/// read matched an entry the server has since withdrawn, so none of it is `verified` (or
/// `dynamic`) against anything the host holds.
fn withdrawn(report: &mut SkillReport, uri: &str) {
    for c in &mut report.checks {
        if matches!(c.status, FileStatus::Verified | FileStatus::Dynamic) {
            c.status = FileStatus::Changed;
            c.error = Some(
                VerifyError::new(
                    ErrorCode::UnknownSkill,
                    format!(
                        "{} was read for {uri}, which the server stopped serving during its check (its skills/get answered with an error); no entry the host holds lists it",
                        c.uri
                    ),
                )
                .with_uri(c.uri.clone())
                .into(),
            );
        }
    }
}

/// The entry the client holds for `uri`.
fn held_entry(client: &SkillsClient, uri: &str) -> Option<crate::host::Entry> {
    client
        .host(|h, label| h.entry(label, uri).cloned())
        .ok()
        .flatten()
}

/// One check of a skill: load it, then read every file of the entry held after loading, then
/// (with `directory_read`) walk its directories. Returns the checks and the entry the reads
/// started on (`None` when the `SKILL.md` did not load).
async fn check_skill<R: Rpc>(
    client: &SkillsClient,
    rpc: &R,
    listed: &crate::host::Entry,
    directory_read: bool,
) -> (SkillReport, Option<crate::host::Entry>) {
    let uri = listed.uri().to_owned();
    let mut report = SkillReport::start(
        uri.clone(),
        Some(listed.name().to_owned()),
        Some(listed.description().to_owned()),
    );
    match client.load_for(rpc, &uri, Purpose::Check).await {
        Ok(l) => {
            report.refreshed |= l.refreshed;
            let r = &l.skill.skill_md.receipt;
            report.checks.push(FileCheck {
                uri: r.uri.clone(),
                size: Some(r.size),
                digest: Some(r.digest.clone()),
                status: FileStatus::of(r),
                error: None,
            });
        }
        Err(e) => {
            report.refreshed |= crate::client::refreshable(e.code);
            report.checks.push(failed_check(&uri, e));
            // The other files are `skipped` (settle lists those of the entry held).
            return (report, None);
        }
    }
    // The entry the acting window holds (refreshed, if loading had to).
    let Some(started) = held_entry(client, &uri) else {
        return (report, None);
    };
    for item in started.items().unwrap_or_default() {
        if item.uri == uri {
            continue;
        }
        match client.read_for(rpc, &uri, &item.uri, Purpose::Check).await {
            Ok(r) => {
                report.refreshed |= r.refreshed;
                let receipt = &r.file.content.receipt;
                report.checks.push(FileCheck {
                    uri: receipt.uri.clone(),
                    size: Some(receipt.size),
                    digest: Some(receipt.digest.clone()),
                    status: FileStatus::of(receipt),
                    error: None,
                });
            }
            Err(e) => {
                report.refreshed |= crate::client::refreshable(e.code);
                let mut c = failed_check(&item.uri, e);
                c.size = Some(item.size);
                c.digest = Some(item.digest.clone());
                report.checks.push(c);
            }
        }
    }
    if directory_read && !started.is_dynamic() {
        walk(client, rpc, &started, &mut report).await;
    }
    (report, Some(started))
}

/// Settles every check against `held`, the entry held at the end: a `verified` check whose
/// item `held` lists with another size or digest (or does not list) is `changed`; a
/// `dynamic` one is `changed` when `held` is not dynamic; every file of `held` that no check
/// covers is `skipped`. After a check that ended on the entry it started on, this changes
/// nothing.
fn settle(report: &mut SkillReport, held: &crate::host::Entry) {
    let items: BTreeMap<&str, &crate::host::ResourceItem> = held
        .items()
        .unwrap_or_default()
        .iter()
        .map(|i| (i.uri.as_str(), i))
        .collect();
    for c in &mut report.checks {
        let item = items.get(c.uri.as_str());
        let differs = match c.status {
            FileStatus::Verified => {
                item.is_none_or(|i| Some(i.size) != c.size || Some(&i.digest) != c.digest.as_ref())
            }
            FileStatus::Dynamic => !held.is_dynamic(),
            _ => false,
        };
        if !differs {
            continue;
        }
        let why = |what: &str| {
            format!(
                "{} was read for an entry of {} that the server then replaced; the entry held {what}",
                c.uri,
                held.uri()
            )
        };
        let error = match item {
            Some(i) if Some(i.size) != c.size => {
                VerifyError::new(ErrorCode::SizeMismatch, why("gives another size")).with_values(
                    i.size.to_string(),
                    c.size.map(|s| s.to_string()).unwrap_or_default(),
                )
            }
            Some(i) if Some(&i.digest) != c.digest.as_ref() => {
                VerifyError::new(ErrorCode::DigestMismatch, why("gives another digest"))
                    .with_values(i.digest.clone(), c.digest.clone().unwrap_or_default())
            }
            // Read (unverified) while the entry was dynamic; the entry held has a manifest.
            Some(_) => VerifyError::new(
                ErrorCode::DynamicNotAllowed,
                why("has a manifest, and the file was read without one, unverified"),
            ),
            None => VerifyError::new(ErrorCode::NotInManifest, why("does not list it")),
        }
        .with_uri(c.uri.clone());
        c.status = FileStatus::Changed;
        c.error = Some(error.into());
    }
    let checked: BTreeSet<String> = report.checks.iter().map(|c| c.uri.clone()).collect();
    for item in held.items().unwrap_or_default() {
        if !checked.contains(&item.uri) {
            report.checks.push(FileCheck {
                uri: item.uri.clone(),
                size: Some(item.size),
                digest: Some(item.digest.clone()),
                status: FileStatus::Skipped,
                error: None,
            });
        }
    }
}

/// Lists every directory under the skill root; a file the entry does not list is `unlisted`.
async fn walk<R: Rpc>(
    client: &SkillsClient,
    rpc: &R,
    entry: &crate::host::Entry,
    report: &mut SkillReport,
) {
    let root = entry.root().to_owned();
    let mut queue = vec![root.clone()];
    let mut seen: BTreeSet<String> = BTreeSet::from([root.clone()]);
    let files: BTreeSet<&str> = entry
        .items()
        .unwrap_or_default()
        .iter()
        .map(|i| i.uri.as_str())
        .collect();
    let mut listed = 0;
    // One listing budget covers the whole walk, not each directory on its own.
    let _ = client.begin_walk();
    while let Some(dir) = queue.pop() {
        if listed == MAX_DIRECTORIES {
            break;
        }
        listed += 1;
        match client.read_directory(rpc, &dir).await {
            Ok(d) => {
                for c in d.children {
                    let inside = c
                        .uri
                        .strip_prefix(root.as_str())
                        .is_some_and(|r| r.starts_with('/') && r.len() > 1);
                    if !inside {
                        continue;
                    }
                    if c.directory {
                        let u = c.uri.trim_end_matches('/').to_owned();
                        if seen.insert(u.clone()) {
                            queue.push(u);
                        }
                    } else if !files.contains(c.uri.as_str()) {
                        let e = VerifyError::new(
                            ErrorCode::NotInManifest,
                            format!(
                                "{} is served in the directory of {} but its entry does not list it; it was not read",
                                c.uri,
                                entry.uri()
                            ),
                        )
                        .with_uri(c.uri.clone());
                        report.checks.push(FileCheck {
                            uri: c.uri.clone(),
                            size: c.size,
                            digest: None,
                            status: FileStatus::Unlisted,
                            error: Some(e.into()),
                        });
                    }
                }
            }
            Err(e) => {
                // Past the walk's budget every further directory would fail the same way.
                let spent = client.listing_bytes() >= client.listing_budget();
                report.checks.push(failed_check(&dir, e));
                if spent {
                    break;
                }
            }
        }
    }
    let _ = client.end_walk();
    // Queue order is a stack; report unlisted files in URI order for stable output.
    report.checks.sort_by(|a, b| {
        let rank = |c: &FileCheck| u8::from(c.status == FileStatus::Unlisted);
        rank(a).cmp(&rank(b)).then_with(|| {
            if rank(a) == 1 {
                a.uri.cmp(&b.uri)
            } else {
                std::cmp::Ordering::Equal
            }
        })
    });
}

/// The skill's figures from `held` (the entry held at the end), its first reason and its
/// status from the checks alone (`restarts` is `Some` when the entry kept changing).
fn finish(
    mut report: SkillReport,
    held: &crate::host::Entry,
    restarts: Option<usize>,
) -> SkillReport {
    report.name = Some(held.name().to_owned());
    report.description = Some(held.description().to_owned());
    report.revision = held.revision();
    let items = held.items().unwrap_or_default();
    report.files = items.len();
    report.bytes = items.iter().fold(0u64, |a, i| a.saturating_add(i.size));
    let changed = restarts.map(|n| {
        ClientError::exchange(ExchangeKind::ProtocolError,
            format!(
                "the entry of {} changed during each of {} checks (the check restarts at most {MAX_ENTRY_RESTARTS} times); its files are not all verified against the entry now held",
                held.uri(),
                n + 1
            ),
        )
        .with_uri(held.uri())
    });
    status_from_checks(report, held.is_dynamic(), changed)
}

/// A skill's status and first error from its checks alone, `dynamic` when what it was checked
/// against has no manifest (shared with [`super::wellknown`]).
pub(crate) fn finish_skill(report: SkillReport, dynamic: bool) -> SkillReport {
    status_from_checks(report, dynamic, None)
}

/// The status of a skill from its checks: `error` before everything, then `changed` (with
/// `changed` as its reason), `failed`, `dynamic`, and `verified` only when every check is.
fn status_from_checks(
    mut report: SkillReport,
    dynamic_entry: bool,
    changed: Option<ClientError>,
) -> SkillReport {
    let first = report.checks.iter().find(|c| {
        matches!(
            c.status,
            FileStatus::Failed | FileStatus::Error | FileStatus::Unlisted | FileStatus::Changed
        )
    });
    let failed = first.is_some();
    report.error = first.and_then(|c| c.error.clone());
    let has = |st: FileStatus| report.checks.iter().any(|c| c.status == st);
    let (error, skipped, dynamic) = (
        has(FileStatus::Error),
        has(FileStatus::Skipped),
        has(FileStatus::Dynamic),
    );
    report.status = if error {
        SkillStatus::Error
    } else if let Some(e) = changed {
        report.error = Some(e);
        SkillStatus::Changed
    } else if failed || skipped {
        SkillStatus::Failed
    } else if dynamic_entry || dynamic {
        SkillStatus::Dynamic
    } else {
        SkillStatus::Verified
    };
    report
}

/// A refusal in a few words: the code, the URI, and what was expected and found (the test
/// `why_names_the_code_the_uri_and_both_values`).
pub(crate) fn why(e: &ClientError) -> String {
    let uri = e.uri.as_deref().unwrap_or("");
    let exp = e.expected.as_deref();
    let act = e.actual.as_deref();
    let code = e.code.as_str();
    match (e.verify_code(), exp, act) {
        (Some(ErrorCode::SizeMismatch), Some(x), Some(a)) => {
            format!("{code}: {uri} is {a} bytes, its entry says {x}")
        }
        (Some(ErrorCode::DigestMismatch), Some(x), Some(a)) => {
            format!("{code}: {uri} has digest {a}, its entry says {x}")
        }
        (Some(ErrorCode::FrontmatterMismatch), _, _) => {
            let mut s = format!(
                "{code}: {uri}: `{}` is {} in the entry and {} in SKILL.md",
                e.field.as_deref().unwrap_or("frontmatter"),
                exp.unwrap_or("absent"),
                act.unwrap_or("absent")
            );
            if e.differences.len() > 1 {
                let others: Vec<String> = e
                    .differences
                    .iter()
                    .skip(1)
                    .map(|f| format!("`{f}`"))
                    .collect();
                s.push_str(&format!("; {} differ too", others.join(", ")));
            }
            s
        }
        _ => format!("{code}: {}", e.message),
    }
}

/// What a command prints and returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    /// Standard output: the table, or one JSON object per line.
    pub stdout: String,
    /// Standard error: a summary line, or the error that stopped the run.
    pub stderr: String,
    /// 0, 1 or 2 (see the module documentation).
    pub exit_code: u8,
    /// With `--pins`: the pins to write back to its file after the run (`None` without
    /// `--pins`, or when its file could not be read: it is then left as it is).
    pub pins: Option<String>,
}

#[derive(Serialize)]
struct CheckJson<'a> {
    uri: &'a str,
    status: FileStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    size: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    digest: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    expected: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    actual: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    field: Option<&'a str>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    fields: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    why: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SignerJson<'a> {
    key_id: &'a str,
    catalog: &'a str,
    trust: SignerTrust,
}

#[derive(Serialize)]
struct SkillJson<'a> {
    skill: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    revision: Option<&'a str>,
    files: usize,
    bytes: u64,
    status: SkillStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    why: Option<String>,
    refreshed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    signer: Option<SignerJson<'a>>,
    checks: Vec<CheckJson<'a>>,
}

impl SkillReport {
    /// A report on the skill `uri` with nothing checked yet: status `verified` until a check
    /// says otherwise, no figures.
    pub(crate) fn start(uri: String, name: Option<String>, description: Option<String>) -> Self {
        SkillReport {
            uri,
            name,
            description,
            revision: None,
            files: 0,
            bytes: 0,
            status: SkillStatus::Verified,
            error: None,
            refreshed: false,
            signer: None,
            checks: Vec::new(),
        }
    }

    /// The skill's JSON line (one object, no newline): `skill`, `name`, `description`,
    /// `revision`, `files`, `bytes`, `status`, `code` and `why` (when not verified),
    /// `refreshed`, `signer` (when signed: `keyId`, `catalog`, `trust`), and `checks`
    /// (`uri`, `status`, `size`, `digest`, and for a refusal `code`,
    /// `expected`, `actual`, `field`, `fields` (every differing frontmatter field, when
    /// there are several), `why`).
    pub fn to_json(&self) -> String {
        let checks = self
            .checks
            .iter()
            .map(|c| {
                let e = c.error.as_ref();
                CheckJson {
                    uri: &c.uri,
                    status: c.status,
                    size: c.size,
                    digest: c.digest.as_deref(),
                    code: e.map(|e| e.code.as_str()),
                    expected: e.and_then(|e| e.expected.as_deref()),
                    actual: e.and_then(|e| e.actual.as_deref()),
                    field: e.and_then(|e| e.field.as_deref()),
                    fields: e.map(|e| &*e.differences).unwrap_or_default(),
                    why: e.map(why),
                }
            })
            .collect();
        let j = SkillJson {
            skill: &self.uri,
            name: self.name.as_deref(),
            description: self.description.as_deref(),
            revision: self.revision.as_deref(),
            files: self.files,
            bytes: self.bytes,
            status: self.status,
            code: self.error.as_ref().map(|e| e.code.as_str()),
            why: self.error.as_ref().map(why),
            refreshed: self.refreshed,
            signer: self.signer.as_ref().map(|s| SignerJson {
                key_id: &s.key_id,
                catalog: &s.catalog,
                trust: s.trust,
            }),
            checks,
        };
        serde_json::to_string(&j).unwrap_or_default()
    }
}

impl Report {
    /// A run stopped before any skill was checked (connecting or listing failed).
    pub(crate) fn stopped(facts: Option<ServerFacts>, error: impl Into<ClientError>) -> Report {
        Report {
            facts,
            skills: Vec::new(),
            fatal: Some(error.into()),
        }
    }

    /// 0, 1 or 2 (see the module documentation), from the statuses alone: 2 when the run
    /// stopped or a skill is `error`, 1 when one is `failed`, `changed` or `downgraded`, or
    /// `dynamic` without `allow_dynamic` (`--allow-dynamic`, npm `allowDynamic`: the user
    /// accepts skills whose files cannot be verified, as `SkillHost` only does when told),
    /// else 0.
    pub fn exit_code(&self, allow_dynamic: bool) -> u8 {
        let fails = |st: SkillStatus| match st {
            SkillStatus::Failed | SkillStatus::Changed | SkillStatus::Downgraded => true,
            SkillStatus::Dynamic => !allow_dynamic,
            SkillStatus::Verified | SkillStatus::Error => false,
        };
        if self.fatal.is_some() || self.skills.iter().any(|s| s.status == SkillStatus::Error) {
            2
        } else if self.skills.iter().any(|s| fails(s.status)) {
            1
        } else {
            0
        }
    }

    /// How many skills are `dynamic`.
    fn dynamic_skills(&self) -> usize {
        self.skills
            .iter()
            .filter(|s| s.status == SkillStatus::Dynamic)
            .count()
    }

    /// The table: one row per skill (skill, files, bytes, status, signer, why), every cell
    /// the server controls passed through [`escape_for_terminal`] (so a row is one line). The
    /// signer is [`Signer::describe`]'s short form, `-` for an unsigned skill.
    pub fn table(&self) -> String {
        let rows: Vec<[String; 6]> = self
            .skills
            .iter()
            .map(|s| {
                [
                    escape_for_terminal(&s.uri).into_owned(),
                    s.files.to_string(),
                    s.bytes.to_string(),
                    s.status.as_str().to_owned(),
                    s.signer.as_ref().map_or_else(
                        || "-".to_owned(),
                        |x| escape_for_terminal(&x.describe()).into_owned(),
                    ),
                    s.error
                        .as_ref()
                        .map(|e| escape_for_terminal(&why(e)).into_owned())
                        .unwrap_or_default(),
                ]
            })
            .collect();
        let head = ["SKILL", "FILES", "BYTES", "STATUS", "SIGNER", "WHY"].map(str::to_owned);
        let mut w = [0usize; 5];
        for row in rows.iter().chain(std::iter::once(&head)) {
            for (width, cell) in w.iter_mut().zip(row.iter()) {
                *width = (*width).max(cell.chars().count());
            }
        }
        let mut out = String::new();
        for [skill, files, bytes, status, signer, why] in std::iter::once(&head).chain(&rows) {
            let line = format!(
                "{skill:<w0$}  {files:>w1$}  {bytes:>w2$}  {status:<w3$}  {signer:<w4$}  {why}",
                w0 = w[0],
                w1 = w[1],
                w2 = w[2],
                w3 = w[3],
                w4 = w[4]
            );
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }

    /// One JSON object per skill, one per line.
    pub fn json_lines(&self) -> String {
        let mut out = String::new();
        for s in &self.skills {
            out.push_str(&s.to_json());
            out.push('\n');
        }
        out
    }

    /// The summary line: the server, then the counts, passed through
    /// [`escape_for_terminal`] (the server's name and version are its own text).
    pub fn summary(&self, url: &str) -> String {
        let line = self.summary_text(url);
        escape_for_terminal(&line).into_owned()
    }

    fn summary_text(&self, url: &str) -> String {
        let server = match &self.facts {
            Some(f) => match f.server_name() {
                Some(n) => format!("{url} ({n}, protocol {})", f.protocol_version),
                None => format!("{url} (protocol {})", f.protocol_version),
            },
            None => url.to_owned(),
        };
        let count = |st: SkillStatus| self.skills.iter().filter(|s| s.status == st).count();
        let files: usize = self.skills.iter().map(|s| s.files).sum();
        let bytes: u64 = self.skills.iter().map(|s| s.bytes).sum();
        let n = self.skills.len();
        let (failed, errors, dynamic, changed, downgraded) = (
            count(SkillStatus::Failed),
            count(SkillStatus::Error),
            count(SkillStatus::Dynamic),
            count(SkillStatus::Changed),
            count(SkillStatus::Downgraded),
        );
        let tail = if failed + errors + dynamic + changed + downgraded == 0 {
            "every file verified".to_owned()
        } else {
            let mut parts = vec![format!("{} verified", count(SkillStatus::Verified))];
            for (k, what) in [
                (dynamic, "dynamic (frontmatter only)"),
                (
                    downgraded,
                    "downgraded to dynamic after a listing with a manifest",
                ),
                (changed, "changed during the check"),
                (failed, "failed"),
                (errors, "with errors"),
            ] {
                if k > 0 {
                    parts.push(format!("{k} {what}"));
                }
            }
            parts.join(", ")
        };
        let signed = self.skills.iter().filter(|s| s.signer.is_some()).count();
        let signed = if signed > 0 {
            format!(", {signed} signed")
        } else {
            String::new()
        };
        format!("{server}: {n} skills, {files} files, {bytes} bytes: {tail}{signed}")
    }

    /// What a command prints: the table or the JSON lines on stdout, the summary (or the
    /// error that stopped the run) on stderr, and the exit status. The table, the summary and
    /// the error line are escaped for a terminal ([`escape_for_terminal`]); the JSON lines are
    /// JSON (see the module documentation).
    pub fn render(&self, args: &VerifyArgs) -> Output {
        if let Some(e) = &self.fatal {
            return Output {
                stdout: String::new(),
                stderr: format!("error: {} [{}]\n", escape_for_terminal(&e.message), e.code),
                exit_code: 2,
                pins: None,
            };
        }
        let mut stderr = format!("{}\n", self.summary(&args.url));
        let dynamic = self.dynamic_skills();
        if dynamic > 0 && !args.allow_dynamic {
            let what = if dynamic == 1 {
                "1 skill is dynamic: its files".to_owned()
            } else {
                format!("{dynamic} skills are dynamic: their files")
            };
            let _ = writeln!(
                stderr,
                "error: {what} cannot be verified (only the frontmatter was checked); pass --allow-dynamic to accept unverifiable skills"
            );
        }
        Output {
            stdout: if args.json {
                self.json_lines()
            } else {
                self.table()
            },
            stderr,
            exit_code: self.exit_code(args.allow_dynamic),
            pins: None,
        }
    }
}

/// The client `verify` runs with: the server labelled with its URL's origin
/// ([`server_label_of_url`], as the npm `SkillsClient.connect` and the inspector page label
/// it), dynamic skills loaded (their frontmatter is checked and they are reported as
/// `dynamic`; whether that passes is the exit status's, `--allow-dynamic`), no approval
/// required, the caller's headers as its authorization context, `signers` as its signer
/// policy and pins, under the origin of the URL given. Its run ([`run`]) loads every skill
/// only to check it ([`Purpose::Check`]): a nested skill needs no consent there, since
/// nothing reaches a model.
pub fn command_client(args: &VerifyArgs, signers: Signers) -> Result<SkillsClient, ClientError> {
    let label = server_label_of_url(&args.url).unwrap_or_else(|| "server".to_owned());
    let client = SkillsClient::new(
        &label,
        HostOptions {
            allow_dynamic: true,
            ..HostOptions::default()
        },
    )?;
    client.set_context(&context_of(&args.headers))?;
    if let Some(origin) = origin_of(&args.url) {
        client.set_origin(&origin)?;
    }
    client.host(|h, _| *h.signers_mut() = signers)?;
    Ok(client)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::Entry;
    use crate::skill::digest::digest_of;

    #[test]
    fn why_names_the_code_the_uri_and_both_values() {
        let e = VerifyError::new(ErrorCode::SizeMismatch, "…")
            .with_uri("skill://a/x.md")
            .with_values("5", "6");
        assert_eq!(
            why(&e.into()),
            "size-mismatch: skill://a/x.md is 6 bytes, its entry says 5"
        );
    }

    fn entry(files: &[(&str, &str)]) -> Entry {
        let items: Vec<serde_json::Value> = files
            .iter()
            .map(|(path, text)| {
                serde_json::json!({ "uri": format!("skill://s/{path}"), "size": text.len(),
                    "digest": digest_of(text.as_bytes()) })
            })
            .collect();
        let e = serde_json::json!({ "uri": "skill://s/SKILL.md",
            "frontmatter": { "name": "s", "description": "d" }, "resources": items });
        Entry::parse(&e.to_string()).unwrap()
    }

    fn verified(path: &str, text: &str) -> FileCheck {
        FileCheck {
            uri: format!("skill://s/{path}"),
            size: Some(text.len() as u64),
            digest: Some(digest_of(text.as_bytes())),
            status: FileStatus::Verified,
            error: None,
        }
    }

    fn report(checks: Vec<FileCheck>) -> SkillReport {
        SkillReport {
            checks,
            ..SkillReport::start("skill://s/SKILL.md".into(), None, None)
        }
    }

    #[test]
    fn settle_marks_what_the_held_entry_lists_otherwise() {
        let held = entry(&[
            ("SKILL.md", "md"),
            ("a.md", "a, new"),
            ("b.md", "b"),
            ("n.md", "n"),
        ]);
        let mut r = report(vec![
            verified("SKILL.md", "md"),
            verified("a.md", "a, old"),
            verified("b.md", "b"),
            verified("gone.md", "gone"),
        ]);
        settle(&mut r, &held);
        let status: Vec<(&str, FileStatus)> = r
            .checks
            .iter()
            .map(|c| (c.uri.trim_start_matches("skill://s/"), c.status))
            .collect();
        assert_eq!(
            status,
            [
                ("SKILL.md", FileStatus::Verified),
                ("a.md", FileStatus::Changed),
                ("b.md", FileStatus::Verified),
                ("gone.md", FileStatus::Changed),
                ("n.md", FileStatus::Skipped),
            ]
        );
        let code = |i: usize| {
            r.checks[i]
                .error
                .as_ref()
                .and_then(ClientError::verify_code)
        };
        assert_eq!(code(1), Some(ErrorCode::DigestMismatch));
        assert_eq!(code(3), Some(ErrorCode::NotInManifest));
        let done = finish(r, &held, None);
        assert_eq!(done.status, SkillStatus::Failed);
        assert_eq!((done.files, done.bytes), (4, 10));
        assert_eq!(done.revision, held.revision());
    }

    #[test]
    fn settle_changes_nothing_when_the_entry_held_is_the_one_checked() {
        let held = entry(&[("SKILL.md", "md"), ("a.md", "a")]);
        let checks = vec![verified("SKILL.md", "md"), verified("a.md", "a")];
        let mut r = report(checks.clone());
        settle(&mut r, &held);
        assert_eq!(r.checks, checks);
        assert_eq!(finish(r, &held, None).status, SkillStatus::Verified);
    }

    #[test]
    fn a_verified_check_against_a_dynamic_entry_is_changed() {
        let held = Entry::parse(
            r#"{"uri":"skill://s/SKILL.md","frontmatter":{"name":"s","description":"d"},"resources":"dynamic"}"#,
        )
        .unwrap();
        let mut r = report(vec![verified("SKILL.md", "md")]);
        settle(&mut r, &held);
        assert_eq!(r.checks[0].status, FileStatus::Changed);
        // A dynamic read whose bytes the entry held now lists is still not verified.
        let listed = entry(&[("SKILL.md", "md")]);
        let mut d = report(vec![FileCheck {
            status: FileStatus::Dynamic,
            ..verified("SKILL.md", "md")
        }]);
        settle(&mut d, &listed);
        assert_eq!(d.checks[0].status, FileStatus::Changed);
        assert_eq!(
            d.checks[0]
                .error
                .as_ref()
                .and_then(ClientError::verify_code),
            Some(ErrorCode::DynamicNotAllowed)
        );
        let after_restarts = finish(r.clone(), &held, Some(MAX_ENTRY_RESTARTS));
        assert_eq!(after_restarts.status, SkillStatus::Changed);
        assert_eq!(finish(r, &held, None).status, SkillStatus::Failed);
    }
}
