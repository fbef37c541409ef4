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
//! terminal escapes them itself (`command::escape_for_terminal` is public for that).

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde::Serialize;

mod output;
mod run;
#[cfg(test)]
mod tests;

pub use output::Output;
pub(crate) use run::finish_skill;
#[cfg(feature = "internals")]
pub use run::run;
pub(crate) use run::run_with_oms;

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
/// use skills_edge::command::escape_for_terminal;
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
