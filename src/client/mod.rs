//! A skills client over [`SkillHost`]: the requests a host makes (every page of
//! `skills/list`, `skills/get`, `resources/read`, every page of `resources/directory/read`),
//! the caching rules, and the spec's recovery from stale metadata, with the verification left
//! to the one verifier, [`SkillHost`].
//!
//! | module | what it is |
//! |---|---|
//! | this one | [`SkillsClient`]: `list`, `get`, `load`, `read`, `read_directory`, approvals |
//! | [`http`] | Streamable HTTP without the I/O: framing, headers, JSON and event-stream replies, era negotiation ([`http::HttpSession`]) |
//! | [`challenge`] | a 401 explained: the `WWW-Authenticate` challenge and the Protected Resource Metadata it points to |
//! | `cache` (private) | results kept for their `ttlMs`, private ones per authorization context; a result's [`Hints`] |
//! | `error` (private) | [`ClientError`]: a refusal of the host rules or a failure of the exchange ([`ExchangeKind`]); [`ClientCode`], their wire names |
//! | `rules` (private) | what the client may send and to whom: [`check_declared`], [`says_gone`], [`server_label_of_url`] |
//!
//! The items of `cache`, `error` and `rules` a caller needs are this module's ([`Hints`],
//! [`ClientError`], [`ClientCode`], [`ExchangeKind`], [`Result`], [`check_declared`],
//! [`says_gone`], [`server_label_of_url`]): each has one path.
//!
//! The client performs no I/O itself. Each operation is an `async fn` that takes an [`Rpc`]:
//! something that sends one JSON-RPC request and returns its result. The npm package passes
//! one built on `fetch` (or on an official SDK `Client`'s `request`), the native command one
//! built on a blocking HTTP client (run with `block_on`, on native targets). What is
//! requested, cached, refreshed and refused is decided here, once, for all of them.
//!
//! The rules:
//!
//! * **Declarations** (spec notes H1, H2): `skills/list` and `skills/get` are sent only to a
//!   server whose capabilities (recorded with [`SkillsClient::set_facts`]) declare the Skills
//!   extension, and `resources/directory/read` only to one that declares `directoryRead:
//!   true`; otherwise the operation fails with `invalid-argument` naming the missing
//!   declaration (in `expected`), before anything is sent or taken from the cache
//!   ([`check_declared`]). A client with no recorded capabilities sends neither.
//! * **Arguments**: [`SkillsClient::get`] and [`SkillsClient::load`] take a `SKILL.md` URI
//!   only ([`check_skill_md_uri`]), refused with `invalid-argument` before anything is sent.
//! * **Identity** (H22, H28): the client's server is its label, the host-assigned name under
//!   which every skill, approval and cached result is kept; a client of a URL is labelled
//!   with the URL's origin by default ([`server_label_of_url`]), and an export of approvals
//!   imports only into a client of the same server ([`SkillsClient::import_approvals`]).
//! * **Verification** is [`SkillHost`]'s: a `SKILL.md` is loaded with [`SkillHost::load`] and
//!   a supporting file read with [`SkillHost::read`]; nothing else reaches the caller, so no
//!   unverified byte is ever returned. Only files the held entry lists are requested.
//! * **Recovery** (spec notes H12): when a file fails with `size-mismatch`, `digest-mismatch`,
//!   `frontmatter-mismatch` or `frontmatter-invalid`, the entry is fetched again with
//!   `skills/get` (bypassing the cache), registered (which revokes an approval whose files
//!   changed), and the file fetched again and verified against it, once. For a supporting
//!   file the skill's `SKILL.md` is loaded again first, so the acting window holds the new
//!   entry. A second failure is thrown. When the recovery `skills/get` itself fails, the
//!   verification failure is thrown and the acting window stays as it was (H15: a host may
//!   keep it longer, never shorter), unless the server answered that it no longer serves the
//!   skill (JSON-RPC `-32602`, or the legacy `-32002`): then the skill is forgotten and its
//!   window closes ([`says_gone`]). An internal error (`-32603`), a lost connection or a
//!   timeout says nothing about the skill.
//! * **Freshness** (H34): an entry from `skills/list` or `skills/get` is current for that
//!   result's `ttlMs`; [`SkillsClient::load`] fetches an entry that is unknown or no longer
//!   current with `skills/get` first. During an acting window the held entry governs reads,
//!   whatever the TTL. The registry owns each entry and its deadline: the client records the
//!   deadline on the [`Rpc`]'s clock ([`SkillHost::set_current_until`]) and asks, in one call,
//!   whether the entry is current and what to read ([`SkillHost::plan_load_current`]).
//! * **Caching** (the private `cache`): results are reused within their `ttlMs` and `cacheScope`, keyed
//!   by method and parameters (and the authorization context for private ones); errors and
//!   content that failed verification are never kept.
//! * **Bounds**: at most [`MAX_PAGES`] pages per listing and [`MAX_LISTED`] items; a repeated
//!   cursor ends the walk with `protocol-error`. Every page of one listing (`skills/list`) or
//!   one directory read counts against one byte budget, the listing budget
//!   ([`DEFAULT_LISTING_BUDGET`], 256 MiB, unless [`SkillsClient::set_listing_budget`] says
//!   otherwise): the bytes of each page's result as JSON text, cached pages included. A walk
//!   over many directories shares one budget when it is opened with
//!   [`SkillsClient::begin_walk`]. Past the budget the listing fails with `protocol-error`,
//!   naming the budget and how to raise it. Each reply is capped on its own as well
//!   ([`http::MAX_REPLY_BYTES`]).
//! * **Cost**: registering a listing, the summaries of its skills, a load and the marking of
//!   a directory's children are linear in what the server sent: display names are worked out
//!   once per change of the registered set ([`SkillHost::summary`]), and a child's skill is
//!   found from its URI's prefixes ([`SkillHost::innermost_entry`]), never by scanning every
//!   skill.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::future::Future;

use serde_json::{json, Value as Json};

use crate::host::approval::ApprovalsExport;
pub use crate::host::entry::check_skill_md_uri;
use crate::host::entry::Entry;
use crate::host::error::{ErrorCode, VerifyError};
use crate::host::registry::{
    HostOptions, LoadedSkill, PlannedRead, Purpose, ReadFile, RegisterOutcome, Rejected, SkillHost,
    SkillSummary,
};
use crate::host::signature::SignerPolicy;
use crate::host::verify::{read_content, Content, Hashing};
use crate::protocol::{Era, SKILLS_EXTENSION};
use crate::skill::digest::digest_of;

mod cache;
pub mod challenge;
mod error;
pub mod http;
mod rules;

pub use cache::Hints;
pub use error::{ClientCode, ClientError, ExchangeKind, Result};
pub use rules::{check_declared, says_gone, server_label_of_url};

use cache::{Cache, Key};

/// Most pages read for one listing (`skills/list`, or one directory).
pub const MAX_PAGES: usize = 1000;
/// Most items read for one listing.
pub const MAX_LISTED: usize = 100_000;
/// The default listing budget: the most result bytes (as JSON text) read for one listing,
/// one directory, or one walk opened with [`SkillsClient::begin_walk`] (256 MiB). Change it
/// with [`SkillsClient::set_listing_budget`].
pub const DEFAULT_LISTING_BUDGET: u64 = 256 << 20;

/// Sends one JSON-RPC request and returns its `result` object: the I/O half of a client.
///
/// Failures are [`ClientError`]s of an [`ExchangeKind`]: `server-error` for a JSON-RPC error
/// answer (its code in `actual`), `connection-failed`, `http-status`, `protocol-error`,
/// `timeout` or `aborted` for the exchange itself.
pub trait Rpc {
    /// Sends `method` with `params` (an object, without the 2026-07-28 `_meta` envelope,
    /// which the transport adds) and returns the result object.
    fn call(&self, method: &str, params: Json) -> impl Future<Output = Result<Json>>;
    /// Milliseconds on a clock that does not go backwards (for TTLs).
    fn now_ms(&self) -> f64;
    /// The SHA-256 of `bytes` in wire form (`sha256:` and 64 lowercase hex characters) from a
    /// platform digest, or `None` to have the verifier hash them (the default; also for
    /// content too small for the platform's digest to pay). The verifier still checks the
    /// listing and the size, compares this digest with the entry's and names any failure; a
    /// digest that is not in wire form is refused as `invalid-argument`.
    fn digest(&self, bytes: &[u8]) -> impl Future<Output = Option<String>> {
        let _ = bytes;
        std::future::ready(None)
    }
}

/// How the client names itself (`clientInfo`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientInfo {
    /// The name.
    pub name: String,
    /// The version.
    pub version: String,
}

impl Default for ClientInfo {
    /// `skills-edge` and this crate's version.
    fn default() -> ClientInfo {
        ClientInfo {
            name: "skills-edge".into(),
            version: env!("CARGO_PKG_VERSION").into(),
        }
    }
}

/// Which protocol revision to speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EraChoice {
    /// 2026-07-28 when the server speaks it, else 2025-11-25.
    #[default]
    Auto,
    /// 2026-07-28 only.
    Modern,
    /// 2025-11-25 only (`initialize`).
    Legacy,
}

impl EraChoice {
    /// `auto`, `2026-07-28` or `2025-11-25`.
    ///
    /// ```
    /// use skills_edge::client::EraChoice;
    /// assert_eq!(EraChoice::parse("2025-11-25"), Some(EraChoice::Legacy));
    /// assert_eq!(EraChoice::parse("modern"), None);
    /// ```
    pub fn parse(s: &str) -> Option<EraChoice> {
        match s {
            "auto" => Some(EraChoice::Auto),
            "2026-07-28" => Some(EraChoice::Modern),
            "2025-11-25" => Some(EraChoice::Legacy),
            _ => None,
        }
    }

    /// The name [`EraChoice::parse`] reads.
    pub fn as_str(self) -> &'static str {
        match self {
            EraChoice::Auto => "auto",
            EraChoice::Modern => "2026-07-28",
            EraChoice::Legacy => "2025-11-25",
        }
    }
}

/// What a connected server said about itself.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerFacts {
    /// The era spoken.
    pub era: Era,
    /// The protocol revision: `2026-07-28`, or the one `initialize` answered.
    pub protocol_version: String,
    /// Its `capabilities` object.
    pub capabilities: Json,
    /// Its `serverInfo` (`{ name, version, … }`), if it sent one.
    pub server_info: Option<Json>,
    /// Its `instructions`, if any.
    pub instructions: Option<String>,
}

impl ServerFacts {
    /// The facts in a `server/discover` or `initialize` result.
    pub fn from_result(era: Era, version: &str, result: &Json) -> ServerFacts {
        let server_info = match era {
            Era::Modern => result
                .get("_meta")
                .and_then(|m| m.get(crate::protocol::META_SERVER_INFO)),
            Era::Legacy => result.get("serverInfo"),
        }
        .filter(|v| v.is_object())
        .cloned();
        ServerFacts {
            era,
            protocol_version: version.to_owned(),
            capabilities: result
                .get("capabilities")
                .filter(|c| c.is_object())
                .cloned()
                .unwrap_or_else(|| json!({})),
            server_info,
            instructions: result
                .get("instructions")
                .and_then(Json::as_str)
                .map(str::to_owned),
        }
    }

    fn skills_capability(&self) -> Option<&Json> {
        self.capabilities
            .get("extensions")
            .and_then(|e| e.get(SKILLS_EXTENSION))
            .filter(|c| c.is_object())
    }

    /// Whether the server declares the Skills extension.
    pub fn declares_skills(&self) -> bool {
        self.skills_capability().is_some()
    }

    /// Whether it declares `directoryRead` (`resources/directory/read`).
    pub fn directory_read(&self) -> bool {
        self.skills_capability()
            .and_then(|c| c.get("directoryRead"))
            .and_then(Json::as_bool)
            .unwrap_or(false)
    }

    /// `name version` of its `serverInfo`, if it sent one.
    pub fn server_name(&self) -> Option<String> {
        let info = self.server_info.as_ref()?;
        let name = info.get("name")?.as_str()?;
        Some(match info.get("version").and_then(Json::as_str) {
            Some(v) => format!("{name} {v}"),
            None => name.to_owned(),
        })
    }
}

/// Checks a bearer token (RFC 6750 §2.1 `b64token`: letters, digits and `-._~+/`, then `=`
/// padding) and returns the `authorization` header that carries it (`Bearer TOKEN`, RFC 6750
/// §2.1). The error ([`ErrorCode::InvalidArgument`]) names `source` (the option, flag or
/// variable the token came from), never the token.
///
/// ```
/// use skills_edge::client::bearer_header;
/// let (name, value) = bearer_header("--token", "eyJ.a-b_c~d+e/f==").unwrap();
/// assert_eq!((name.as_str(), value.as_str()), ("authorization", "Bearer eyJ.a-b_c~d+e/f=="));
/// let e = bearer_header("--token", "Bearer s3cret").unwrap_err();
/// assert!(!e.message.contains("s3cret"));
/// assert!(bearer_header("--token", "").is_err());
/// ```
pub fn bearer_header(source: &str, token: &str) -> Result<(String, String), VerifyError> {
    let body = token.trim_end_matches('=');
    let ok = !body.is_empty()
        && body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~+/".contains(&b));
    if !ok {
        return Err(VerifyError::new(
            ErrorCode::InvalidArgument,
            format!(
                "{source}: not a bearer token (not shown): RFC 6750 allows letters, digits and \
                 -._~+/ followed by = padding; give the token alone, without \"Bearer \""
            ),
        ));
    }
    Ok(("authorization".to_owned(), format!("Bearer {token}")))
}

/// Header names a caller cannot set: the transport's own.
const RESERVED_HEADERS: &[&str] = &[
    "accept",
    "content-type",
    "content-length",
    "host",
    "mcp-protocol-version",
    "mcp-method",
    "mcp-name",
    "mcp-session-id",
];

/// Checks the caller's own headers (authorization and the like): names are HTTP tokens, not
/// one of the transport's own (`Accept`, `Content-Type`, `MCP-Protocol-Version`, `Mcp-Method`,
/// `Mcp-Name`, `Mcp-Session-Id`, `Host`, `Content-Length`) and not given twice; values are
/// visible ASCII with inner spaces or tabs (no CR, LF or other control characters), without
/// leading or trailing whitespace. Returns them with lowercase names, or
/// [`ErrorCode::InvalidArgument`] naming the header.
///
/// ```
/// use skills_edge::client::check_headers;
/// let h = check_headers(&[("Authorization".into(), "Bearer x".into())]).unwrap();
/// assert_eq!(h, [("authorization".to_owned(), "Bearer x".to_owned())]);
/// assert!(check_headers(&[("Mcp-Method".into(), "x".into())]).is_err());
/// assert!(check_headers(&[("X-A".into(), "a\r\nb".into())]).is_err());
/// ```
pub fn check_headers(headers: &[(String, String)]) -> Result<Vec<(String, String)>, VerifyError> {
    let mut out: Vec<(String, String)> = Vec::with_capacity(headers.len());
    for (name, value) in headers {
        let bad = |why: &str| {
            VerifyError::new(
                ErrorCode::InvalidArgument,
                format!("the header {name:?} {why}"),
            )
        };
        let token = !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
        if !token {
            return Err(bad(
                "is not a valid header name (letters, digits and !#$%&'*+-.^_`|~)",
            ));
        }
        let lower = name.to_ascii_lowercase();
        if RESERVED_HEADERS.contains(&lower.as_str()) {
            return Err(bad("is set by the transport itself and cannot be given"));
        }
        if out.iter().any(|(n, _)| *n == lower) {
            return Err(bad("is given twice"));
        }
        if value.trim() != value {
            return Err(bad("has a value with leading or trailing whitespace"));
        }
        if !value.chars().all(|c| c == '\t' || (' '..='~').contains(&c)) {
            return Err(bad(
                "has a value with a character outside visible ASCII, space and tab",
            ));
        }
        out.push((lower, value.clone()));
    }
    Ok(out)
}

/// The authorization context of a set of checked headers, for the cache: a digest over the
/// names and values, sorted (so the same headers in another order are the same context, and
/// no secret is kept in a cache key).
pub fn context_of(headers: &[(String, String)]) -> String {
    let mut sorted: Vec<&(String, String)> = headers.iter().collect();
    sorted.sort();
    let mut text = String::new();
    for (n, v) in sorted {
        text.push_str(n);
        text.push('\n');
        text.push_str(v);
        text.push('\n');
    }
    digest_of(text.as_bytes())
}

/// A skill as a listing or `skills/get` shows it: the registry's summary, the entry, and the
/// figures of its manifest.
#[derive(Debug, Clone)]
pub struct ListedSkill {
    /// The registry's summary (display name, revision, approval, window).
    pub summary: SkillSummary,
    /// The entry, as registered.
    pub entry: Entry,
    /// Number of files (0 when dynamic).
    pub files: usize,
    /// Their declared total size (0 when dynamic).
    pub bytes: u64,
}

/// Every page of `skills/list`, registered.
#[derive(Debug, Clone)]
pub struct Listing {
    /// The valid entries, in listing order.
    pub skills: Vec<ListedSkill>,
    /// The invalid ones (never registered, never loaded), with the reason.
    pub rejected: Vec<Rejected>,
    /// The first page's caching hints.
    pub hints: Hints,
    /// How many pages were read (or reused from the cache).
    pub pages: usize,
}

/// A `skills/get` result, registered.
#[derive(Debug, Clone)]
pub struct FetchedSkill {
    /// The skill.
    pub skill: ListedSkill,
    /// What registering it did (`changed`, `approval_revoked`).
    pub outcome: RegisterOutcome,
    /// The result's caching hints.
    pub hints: Hints,
}

/// A loaded skill.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The verified `SKILL.md`, tagged with its server.
    pub skill: LoadedSkill,
    /// Whether the entry was refreshed with `skills/get` after a verification failure.
    pub refreshed: bool,
    /// Whether fetching the entry (for freshness or recovery) revoked an approval.
    pub approval_revoked: bool,
}

/// A verified supporting file.
#[derive(Debug, Clone)]
pub struct ReadOutcome {
    /// The file, tagged with its server and skill.
    pub file: ReadFile,
    /// Whether the entry was refreshed (and the skill loaded again) after a verification
    /// failure.
    pub refreshed: bool,
    /// Whether the refresh revoked an approval.
    pub approval_revoked: bool,
}

/// One child of a directory listing.
#[derive(Debug, Clone, PartialEq)]
pub struct DirectoryChild {
    /// Its URI.
    pub uri: String,
    /// Its `name`, if any.
    pub name: Option<String>,
    /// Its `mimeType`, if any.
    pub mime_type: Option<String>,
    /// Its `size`, if any.
    pub size: Option<u64>,
    /// Whether it is a directory (`mimeType` `inode/directory`).
    pub directory: bool,
    /// For a file inside a registered skill with a manifest: whether that entry lists it
    /// (a child it does not list must not be read or shown as a file of the skill, H18).
    pub listed: Option<bool>,
}

/// Every page of one `resources/directory/read`.
#[derive(Debug, Clone)]
pub struct Directory {
    /// The directory's URI.
    pub uri: String,
    /// Its direct children.
    pub children: Vec<DirectoryChild>,
    /// The first page's caching hints.
    pub hints: Hints,
    /// How many pages were read.
    pub pages: usize,
}

/// A result as fetched, with what is needed to keep it in the cache once it is checked.
struct Fetched {
    key: Key,
    context: String,
    result: Json,
    cached: bool,
}

struct State {
    host: SkillHost,
    label: String,
    cache: Cache,
    context: String,
    facts: Option<ServerFacts>,
    /// The listing budget in bytes.
    budget: u64,
    /// Bytes counted against it in the current listing or walk.
    spent: u64,
    /// Whether a walk is open ([`SkillsClient::begin_walk`]): listings do not start a budget
    /// of their own.
    walking: bool,
}

/// The skills client (see the module documentation). One client talks to one server, which
/// it registers in its [`SkillHost`] under a host-assigned label.
pub struct SkillsClient {
    state: RefCell<State>,
}

fn busy() -> ClientError {
    ClientError::exchange(
        ExchangeKind::ProtocolError,
        "internal: the client state is in use",
    )
}

/// The verification failures that the spec's recovery path (refresh the entry, verify again)
/// can cure: the content or the entry changed.
pub(crate) fn refreshable(code: impl Into<ClientCode>) -> bool {
    matches!(
        code.into(),
        ClientCode::Verify(
            ErrorCode::SizeMismatch
                | ErrorCode::DigestMismatch
                | ErrorCode::FrontmatterMismatch
                | ErrorCode::FrontmatterInvalid
        )
    )
}

/// The content of a fetched `resources/read` result for the verifier, and the platform's
/// digest of its bytes ([`Rpc::digest`]) when the verifier will hash them: the result's content
/// item is read once ([`read_content`]; when that fails, the whole result goes to the verifier,
/// which names the failure), and hashed only when its length is the planned size (a wrong
/// size is refused without hashing).
async fn prepared<R: Rpc>(rpc: &R, result: &Json, plan: &PlannedRead) -> (Content, Option<String>) {
    let text = result.to_string();
    let Ok((body, mime_type)) = read_content(&text, &plan.uri, plan.size) else {
        return (Content::ReadResult(text), None);
    };
    let bytes = body.as_bytes();
    let digest = if plan.size.is_none_or(|s| s == bytes.len() as u64) {
        rpc.digest(bytes).await
    } else {
        None
    };
    (Content::Item { body, mime_type }, digest)
}

/// How the verifier gets the digest of content [`prepared`] made ready: the platform's, when
/// it gave one, else hashed there.
fn hashing(platform_digest: &Option<String>) -> Hashing<'_> {
    platform_digest
        .as_deref()
        .map_or(Hashing::Here, Hashing::Given)
}

impl SkillsClient {
    /// A client whose server is labelled `label` (the host's name for it, never the server's
    /// own: for a server at a URL, [`server_label_of_url`] gives the default the npm package
    /// and the `verify` command use; see [`SkillHost::add_server`] for the form) in a
    /// registry with `options`.
    pub fn new(label: &str, options: HostOptions) -> Result<SkillsClient> {
        let mut host = SkillHost::new(options);
        host.add_server(label)?;
        Ok(SkillsClient {
            state: RefCell::new(State {
                host,
                label: label.to_owned(),
                cache: Cache::new(),
                context: context_of(&[]),
                facts: None,
                budget: DEFAULT_LISTING_BUDGET,
                spent: 0,
                walking: false,
            }),
        })
    }

    /// Sets the listing budget: the most result bytes (as JSON text) that one listing, one
    /// directory, or one walk ([`SkillsClient::begin_walk`]) may read, over all its pages
    /// ([`DEFAULT_LISTING_BUDGET`] until set). Past it the listing fails with `protocol-error`.
    pub fn set_listing_budget(&self, bytes: u64) -> Result<()> {
        self.with(|s| s.budget = bytes)
    }

    /// The listing budget in force, in bytes.
    pub fn listing_budget(&self) -> u64 {
        self.with(|s| s.budget).unwrap_or(DEFAULT_LISTING_BUDGET)
    }

    /// The bytes read so far in the current listing, directory or walk.
    pub fn listing_bytes(&self) -> u64 {
        self.with(|s| s.spent).unwrap_or(0)
    }

    /// Opens a walk: until [`SkillsClient::end_walk`], every listing and directory read
    /// counts against one listing budget, starting from zero now (a walk over a skill's
    /// directories is bounded as a whole, not per directory).
    pub fn begin_walk(&self) -> Result<()> {
        self.with(|s| {
            s.walking = true;
            s.spent = 0;
        })
    }

    /// Closes the walk opened by [`SkillsClient::begin_walk`] and returns the bytes it read;
    /// each listing counts on its own again.
    pub fn end_walk(&self) -> Result<u64> {
        self.with(|s| {
            s.walking = false;
            s.spent
        })
    }

    /// Starts the budget of one listing (unless a walk is open).
    fn begin_listing(&self) -> Result<()> {
        self.with(|s| {
            if !s.walking {
                s.spent = 0;
            }
        })
    }

    /// Counts a page's result against the listing budget.
    fn spend(&self, method: &str, result: &Json) -> Result<()> {
        let bytes = json_len(result);
        self.with(|s| {
            s.spent = s.spent.saturating_add(bytes);
            if s.spent <= s.budget {
                return Ok(());
            }
            let what = if s.walking { "this walk" } else { "this listing" };
            Err(ClientError::exchange(ExchangeKind::ProtocolError,
                format!(
                    "the replies to {method} in {what} reached {} bytes, past the listing budget of {} bytes; nothing more was read (if the server is meant to send this much, raise the budget: the listingBudget option of the npm SkillsClient, SkillsClient::set_listing_budget in Rust)",
                    s.spent, s.budget
                ),
            )
            .with_values(s.budget.to_string(), s.spent.to_string()))
        })?
    }

    fn with<R>(&self, f: impl FnOnce(&mut State) -> R) -> Result<R> {
        let mut s = self.state.try_borrow_mut().map_err(|_| busy())?;
        Ok(f(&mut s))
    }

    /// Runs `f` with the registry and the server's label (for approvals, summaries, entries).
    pub fn host<R>(&self, f: impl FnOnce(&mut SkillHost, &str) -> R) -> Result<R> {
        self.with(|s| f(&mut s.host, &s.label))
    }

    /// Sets the signer policy of the client's registry ([`SkillHost::set_signer_policy`]):
    /// a trust list and/or trust on first use, for the entries registered from now on.
    pub fn set_signer_policy(&self, policy: SignerPolicy) -> Result<()> {
        self.with(|s| s.host.set_signer_policy(policy))
    }

    /// Sets the origin the server's signer is pinned under ([`SkillHost::set_origin`]; the
    /// label until set). A client connected to a URL sets the URL's origin.
    pub fn set_origin(&self, origin: &str) -> Result<()> {
        self.with(|s| s.host.set_origin(&s.label, origin))??;
        Ok(())
    }

    /// The origin the server's signer is pinned under.
    pub fn origin(&self) -> String {
        self.with(|s| s.host.origin(&s.label).map(str::to_owned))
            .ok()
            .flatten()
            .unwrap_or_default()
    }

    /// The pins as JSON, for persisting ([`SkillHost::export_pins`]).
    pub fn export_pins(&self) -> Result<String> {
        self.with(|s| s.host.export_pins())
    }

    /// Restores exported pins ([`SkillHost::import_pins`]); returns how many were read.
    pub fn import_pins(&self, json: &str) -> Result<usize> {
        Ok(self.with(|s| s.host.import_pins(json))??)
    }

    /// Accepts a change of the server's signer ([`SkillHost::accept_signer_change`] for its
    /// origin): list or get the skills again to register them under the new signer (cached
    /// results are registered again too, and checked anew). Returns whether the origin had a
    /// pin.
    pub fn accept_signer_change(&self) -> Result<bool> {
        self.with(|s| {
            let origin = s.host.origin(&s.label).unwrap_or(&s.label).to_owned();
            s.host.accept_signer_change(&origin)
        })
    }

    /// The approvals of this client's registry as JSON text, for persisting
    /// ([`SkillHost::export_approvals`]): each carries the server's label, its identity.
    pub fn export_approvals(&self) -> Result<String> {
        self.with(|s| s.host.export_approvals())
    }

    /// Restores approvals exported by a client of the same server
    /// ([`SkillHost::import_approvals`]); returns how many were stored. An export holding an
    /// approval of another server (another label) is refused whole with `invalid-argument`
    /// and nothing is stored: an approval is the user's consent to one server's skill (H22,
    /// H30), and a client of another server must not count it.
    pub fn import_approvals(&self, json: &str) -> Result<usize> {
        let export = ApprovalsExport::parse(json)?;
        self.with(|s| {
            if let Some(other) = export.approvals.iter().find(|a| a.server != s.label) {
                return Err(VerifyError::new(
                    ErrorCode::InvalidArgument,
                    format!(
                        "the approvals were exported for the server {:?} ({}), and this client's server is {:?}: an approval holds for the server it was given for only, so nothing was imported",
                        other.server, other.uri, s.label
                    ),
                )
                .with_values(s.label.clone(), other.server.clone())
                .into());
            }
            Ok(s.host.import_approvals(json)?)
        })?
    }

    /// The server's label.
    pub fn label(&self) -> String {
        self.with(|s| s.label.clone()).unwrap_or_default()
    }

    /// Sets the authorization context (see [`context_of`]) of the requests that follow:
    /// private cached results of any other context are dropped, as they can never be
    /// reused.
    pub fn set_context(&self, context: &str) -> Result<()> {
        self.with(|s| {
            s.context = context.to_owned();
            s.cache.retain_context(context);
        })
    }

    /// Records what the server said about itself (after connecting).
    pub fn set_facts(&self, facts: ServerFacts) -> Result<()> {
        self.with(|s| s.facts = Some(facts))
    }

    /// Forgets what the server said about itself (when connecting again failed: the old
    /// facts describe no connection any more).
    pub fn clear_facts(&self) -> Result<()> {
        self.with(|s| s.facts = None)
    }

    /// What the server said about itself, once connected.
    pub fn facts(&self) -> Option<ServerFacts> {
        self.with(|s| s.facts.clone()).ok().flatten()
    }

    /// Sends a request, or takes a still-fresh result from the cache (`use_cache`), and checks
    /// that the result is a complete result object. A method the server did not declare is
    /// refused first ([`check_declared`]): nothing is sent, nothing taken from the cache.
    async fn fetch<R: Rpc>(
        &self,
        rpc: &R,
        method: &str,
        params: Json,
        use_cache: bool,
    ) -> Result<Fetched> {
        self.with(|s| check_declared(s.facts.as_ref(), method))??;
        let key = Key::new(method, &params);
        let now = rpc.now_ms();
        let (context, hit) = self.with(|s| {
            let hit = if use_cache {
                s.cache.get(&key, &s.context, now).cloned()
            } else {
                None
            };
            (s.context.clone(), hit)
        })?;
        if let Some(result) = hit {
            return Ok(Fetched {
                key,
                context,
                result,
                cached: true,
            });
        }
        let result = rpc.call(method, params).await?;
        if !result.is_object() {
            return Err(ClientError::exchange(
                ExchangeKind::ProtocolError,
                format!("the result of {method} is not an object"),
            ));
        }
        match result.get("resultType") {
            None => {}
            Some(Json::String(t)) if t == "complete" => {}
            Some(other) => {
                return Err(ClientError::exchange(ExchangeKind::ProtocolError,
                    format!("the result of {method} has resultType {other}; this client takes complete results only"),
                )
                .with_values("complete", other.to_string()))
            }
        }
        Ok(Fetched {
            key,
            context,
            result,
            cached: false,
        })
    }

    /// Keeps a checked result for its TTL.
    fn remember(&self, f: &Fetched, now: f64) -> Result<()> {
        self.with(|s| Self::keep(s, f, now))
    }

    /// [`SkillsClient::remember`] inside a borrow of the state.
    fn keep(s: &mut State, f: &Fetched, now: f64) {
        if !f.cached {
            s.cache
                .store(f.key.clone(), &f.context, f.result.clone(), now);
        }
    }

    /// Drops a result that did not pass its checks.
    fn evict(&self, f: &Fetched) -> Result<()> {
        self.with(|s| s.cache.evict(&f.key, &f.context))
    }

    /// Reads every page of a paginated method: the items of `field` on each page.
    async fn pages<R: Rpc>(
        &self,
        rpc: &R,
        method: &str,
        base: Json,
        field: &str,
    ) -> Result<(Vec<Json>, Hints, usize)> {
        let mut items: Vec<Json> = Vec::new();
        let mut cursor: Option<String> = None;
        let mut seen: BTreeSet<String> = BTreeSet::new();
        let mut hints: Option<Hints> = None;
        let mut pages = 0;
        loop {
            if pages == MAX_PAGES {
                return Err(ClientError::exchange(
                    ExchangeKind::ProtocolError,
                    format!("{method} did not end after {MAX_PAGES} pages"),
                ));
            }
            let mut params = base.clone();
            if let (Some(c), Some(obj)) = (&cursor, params.as_object_mut()) {
                obj.insert("cursor".into(), Json::String(c.clone()));
            }
            let mut f = self.fetch(rpc, method, params, true).await?;
            self.spend(method, &f.result)?;
            let count = f
                .result
                .get(field)
                .and_then(Json::as_array)
                .map(Vec::len)
                .ok_or_else(|| {
                    ClientError::exchange(
                        ExchangeKind::ProtocolError,
                        format!("a {method} result has no `{field}` array"),
                    )
                })?;
            if items.len() + count > MAX_LISTED {
                return Err(ClientError::exchange(
                    ExchangeKind::ProtocolError,
                    format!("{method} lists more than {MAX_LISTED} items"),
                ));
            }
            pages += 1;
            let page_hints = Hints::of(&f.result);
            let h = hints.get_or_insert(page_hints);
            h.ttl_ms = h.ttl_ms.min(page_hints.ttl_ms);
            let next = match f.result.get("nextCursor") {
                None | Some(Json::Null) => None,
                Some(Json::String(c)) => Some(c.clone()),
                Some(other) => {
                    return Err(ClientError::exchange(
                        ExchangeKind::ProtocolError,
                        format!("a {method} result has a nextCursor that is not a string: {other}"),
                    ))
                }
            };
            self.remember(&f, rpc.now_ms())?;
            // The cache holds its own copy: the page's items move, not copied.
            if let Some(Json::Array(page)) = f.result.get_mut(field).map(Json::take) {
                items.extend(page);
            }
            match next {
                None => break,
                Some(c) => {
                    if !seen.insert(c.clone()) {
                        return Err(ClientError::exchange(
                            ExchangeKind::ProtocolError,
                            format!(
                                "{method} repeated the cursor {c:?}; its pagination does not end"
                            ),
                        ));
                    }
                    cursor = Some(c);
                }
            }
        }
        let hints = hints.unwrap_or(Hints {
            ttl_ms: 0,
            scope: crate::protocol::CacheScope::Private,
        });
        Ok((items, hints, pages))
    }

    fn listed(s: &State, uri: &str) -> Option<ListedSkill> {
        let entry = s.host.entry(&s.label, uri)?.clone();
        let summary = s.host.summary(&s.label, uri)?;
        let (files, bytes) = match entry.items() {
            Some(items) => (
                items.len(),
                items.iter().fold(0u64, |a, i| a.saturating_add(i.size)),
            ),
            None => (0, 0),
        };
        Some(ListedSkill {
            summary,
            entry,
            files,
            bytes,
        })
    }

    /// Every page of `skills/list`, registered in one go (an entry listed twice is rejected
    /// the second time). The entries are current for the smallest `ttlMs` of the pages.
    pub async fn list<R: Rpc>(&self, rpc: &R) -> Result<Listing> {
        self.begin_listing()?;
        let (items, hints, pages) = self.pages(rpc, "skills/list", json!({}), "skills").await?;
        let now = rpc.now_ms();
        self.with(|s| {
            let outcome = s
                .host
                .register_entries(&s.label, items.iter().map(Json::to_string))?;
            let until = now + hints.ttl_ms as f64;
            let mut skills = Vec::with_capacity(outcome.registered.len());
            for r in &outcome.registered {
                s.host.set_current_until(&s.label, &r.uri, until);
                if let Some(l) = Self::listed(s, &r.uri) {
                    skills.push(l);
                }
            }
            Ok(Listing {
                skills,
                rejected: outcome.rejected,
                hints,
                pages,
            })
        })?
    }

    /// `skills/get` for `uri`, registered (replacing the entry held for it; an approval whose
    /// files changed is revoked). `uri` must be a `SKILL.md` URI ([`check_skill_md_uri`]) and
    /// the server must declare the extension ([`check_declared`]); otherwise nothing is sent.
    pub async fn get<R: Rpc>(&self, rpc: &R, uri: &str) -> Result<FetchedSkill> {
        check_skill_md_uri(uri)?;
        self.get_with(rpc, uri, true).await
    }

    async fn get_with<R: Rpc>(&self, rpc: &R, uri: &str, use_cache: bool) -> Result<FetchedSkill> {
        let f = self
            .fetch(rpc, "skills/get", json!({ "uri": uri }), use_cache)
            .await?;
        let text = f.result.to_string();
        let now = rpc.now_ms();
        let hints = Hints::of(&f.result);
        self.with(|s| {
            let outcome = match s.host.register_get_result(&s.label, uri, &text) {
                Ok(o) => o,
                Err(e) => {
                    s.cache.evict(&f.key, &f.context);
                    return Err(e.into());
                }
            };
            Self::keep(s, &f, now);
            s.host
                .set_current_until(&s.label, uri, now + hints.ttl_ms as f64);
            let skill = Self::listed(s, uri).ok_or_else(|| {
                ClientError::from(VerifyError::new(
                    ErrorCode::UnknownSkill,
                    format!("{uri} is not registered"),
                ))
            })?;
            Ok(FetchedSkill {
                skill,
                outcome,
                hints,
            })
        })?
    }

    /// The recovery fetch of an entry: `skills/get` past the cache. A skill the server says it
    /// no longer serves ([`says_gone`]) is forgotten, and its acting window closes; any other
    /// failure leaves the skill and its window as they were.
    async fn refresh<R: Rpc>(&self, rpc: &R, uri: &str) -> Result<FetchedSkill> {
        match self.get_with(rpc, uri, false).await {
            Ok(g) => Ok(g),
            Err(e) => {
                if says_gone(&e) {
                    self.with(|s| {
                        let _ = s.host.forget(&s.label, uri);
                    })?;
                }
                Err(e)
            }
        }
    }

    /// Loads a skill: its entry (fetched with `skills/get` when unknown or no longer current),
    /// the limit, dynamic and approval checks, then its `SKILL.md` fetched and verified
    /// against the entry; on success the acting window opens holding that entry. On a
    /// verification failure the entry is refreshed once and the `SKILL.md` verified again.
    ///
    /// `uri` must be a `SKILL.md` URI ([`check_skill_md_uri`]): anything else is refused before
    /// anything is sent.
    pub async fn load<R: Rpc>(&self, rpc: &R, uri: &str) -> Result<Loaded> {
        self.load_for(rpc, uri, Purpose::Use).await
    }

    /// [`SkillsClient::load`] for `purpose`: [`Purpose::Check`] loads a skill only to check
    /// it (the `verify` run), so a nested skill needs no consent ([`SkillHost::plan_load_for`]).
    pub async fn load_for<R: Rpc>(&self, rpc: &R, uri: &str, purpose: Purpose) -> Result<Loaded> {
        check_skill_md_uri(uri)?;
        let now = rpc.now_ms();
        // The registry says at once whether the held entry is current and what to read.
        let mut plan =
            self.with(|s| s.host.plan_load_current_for(&s.label, uri, now, purpose))??;
        let mut approval_revoked = false;
        // A skill known from a listing (or an earlier get) is loaded from that entry (H6);
        // one known from its URI alone has its enclosing skills looked for first.
        let known = self.with(|s| s.host.entry(&s.label, uri).is_some())?;
        if plan.is_none() {
            approval_revoked |= self.get(rpc, uri).await?.outcome.approval_revoked;
        }
        if purpose == Purpose::Use && !known && self.learn_enclosing(rpc, uri).await? {
            // An enclosing skill is now registered: the plan is made again under it.
            plan = None;
        }
        let mut refreshed = false;
        loop {
            match self
                .load_skill_md(rpc, uri, plan.take(), !refreshed, purpose)
                .await?
            {
                Ok(skill) => {
                    return Ok(Loaded {
                        skill,
                        refreshed,
                        approval_revoked,
                    })
                }
                Err(e) if refreshable(e.code) && !refreshed => {
                    refreshed = true;
                    match self.refresh(rpc, uri).await {
                        Ok(g) => approval_revoked |= g.outcome.approval_revoked,
                        Err(_) => return Err(e),
                    }
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// Before a skill loaded from its URI alone is activated, learns whether it is nested
    /// (H31: "Activating it needs fresh, explicit user consent"), so that it is not
    /// activated as a skill of its own: each enclosing
    /// directory of its root that could be a skill (its last segment a valid skill name) and
    /// is not registered is asked for with `skills/get`, outermost first, until one answers.
    /// An answer that the server serves no such skill (`-32602`, `-32002`) moves on; any
    /// other failure stops the load, since whether the skill is nested is then unknown.
    /// Returns whether an enclosing skill was registered. Nothing is asked when the host lets
    /// nested skills load without their own approval, or the skill is already known to be
    /// nested. At most one request per enclosing directory (the skill path's depth).
    async fn learn_enclosing<R: Rpc>(&self, rpc: &R, uri: &str) -> Result<bool> {
        let candidates = self.with(|s| {
            if s.host.options().nested_without_approval
                || s.host.enclosing_skill(&s.label, uri).is_some()
            {
                return Vec::new();
            }
            let Some(root) = s.host.entry(&s.label, uri).map(|e| e.root().to_owned()) else {
                return Vec::new();
            };
            let start = root.find("://").map_or(0, |i| i + 3);
            root.match_indices('/')
                .map(|(i, _)| i)
                .filter(|i| *i > start)
                .map(|i| format!("{}/SKILL.md", &root[..i]))
                .filter(|c| check_skill_md_uri(c).is_ok() && s.host.entry(&s.label, c).is_none())
                .collect()
        })?;
        for candidate in candidates {
            match self.get(rpc, &candidate).await {
                Ok(_) => return Ok(true),
                Err(e) if says_gone(&e) => continue,
                Err(e) => return Err(e),
            }
        }
        Ok(false)
    }

    /// One attempt at loading, with the registry's plan when the caller has it already:
    /// `Ok(Err(e))` is a verification failure of the content, `Err` anything else.
    async fn load_skill_md<R: Rpc>(
        &self,
        rpc: &R,
        uri: &str,
        plan: Option<PlannedRead>,
        use_cache: bool,
        purpose: Purpose,
    ) -> Result<Result<LoadedSkill>> {
        let plan = match plan {
            Some(p) => p,
            None => self.with(|s| s.host.plan_load_for(&s.label, uri, purpose))??,
        };
        let f = self
            .fetch(rpc, "resources/read", json!({ "uri": plan.uri }), use_cache)
            .await?;
        let (content, digest) = prepared(rpc, &f.result, &plan).await;
        let loaded = self.with(|s| {
            s.host
                .load_for(&s.label, uri, content, hashing(&digest), purpose)
        })?;
        match loaded {
            Ok(skill) => {
                self.remember(&f, rpc.now_ms())?;
                Ok(Ok(skill))
            }
            Err(e) => {
                self.evict(&f)?;
                Ok(Err(e.into()))
            }
        }
    }

    /// Reads a file of a loaded skill: `reference` (relative to the skill root, or an absolute
    /// URI) must resolve to a file the held entry lists (else `not-in-manifest` or
    /// `escapes-root`, and nothing is fetched); the file is fetched and verified against the
    /// held entry. On a verification failure the entry is refreshed once, the skill loaded
    /// again on it, and the file fetched and verified again.
    pub async fn read<R: Rpc>(
        &self,
        rpc: &R,
        skill_uri: &str,
        reference: &str,
    ) -> Result<ReadOutcome> {
        self.read_for(rpc, skill_uri, reference, Purpose::Use).await
    }

    /// [`SkillsClient::read`] for `purpose`: the skill loaded again after a refresh is loaded
    /// for it ([`SkillsClient::load_for`]).
    pub async fn read_for<R: Rpc>(
        &self,
        rpc: &R,
        skill_uri: &str,
        reference: &str,
        purpose: Purpose,
    ) -> Result<ReadOutcome> {
        let mut refreshed = false;
        let mut approval_revoked = false;
        loop {
            let plan = self.with(|s| {
                s.host
                    .plan_read_for(&s.label, skill_uri, reference, purpose)
            })??;
            let f = self
                .fetch(
                    rpc,
                    "resources/read",
                    json!({ "uri": plan.uri }),
                    !refreshed,
                )
                .await?;
            let (content, digest) = prepared(rpc, &f.result, &plan).await;
            let read = self.with(|s| {
                s.host.read_for(
                    &s.label,
                    skill_uri,
                    &plan.uri,
                    content,
                    hashing(&digest),
                    purpose,
                )
            })?;
            match read {
                Ok(file) => {
                    self.remember(&f, rpc.now_ms())?;
                    return Ok(ReadOutcome {
                        file,
                        refreshed,
                        approval_revoked,
                    });
                }
                Err(e) => {
                    self.evict(&f)?;
                    if !refreshable(e.code) || refreshed {
                        return Err(e.into());
                    }
                    refreshed = true;
                    match self.refresh(rpc, skill_uri).await {
                        Ok(g) => approval_revoked |= g.outcome.approval_revoked,
                        Err(_) => return Err(e.into()),
                    }
                    // The acting window must hold the new entry: load the skill again.
                    self.load_skill_md(rpc, skill_uri, None, false, purpose)
                        .await??;
                }
            }
        }
    }

    /// Every page of `resources/directory/read` for `uri` (a directory: a skill root, a
    /// directory inside one, or a prefix). A child file inside a registered skill is marked
    /// with whether its entry lists it; the listing never extends a manifest (H20).
    pub async fn read_directory<R: Rpc>(&self, rpc: &R, uri: &str) -> Result<Directory> {
        self.begin_listing()?;
        let (items, hints, pages) = self
            .pages(
                rpc,
                "resources/directory/read",
                json!({ "uri": uri }),
                "resources",
            )
            .await?;
        let mut children = Vec::with_capacity(items.len());
        for item in &items {
            let child_uri = item.get("uri").and_then(Json::as_str).ok_or_else(|| {
                ClientError::exchange(
                    ExchangeKind::ProtocolError,
                    format!("an item of resources/directory/read for {uri} has no string `uri`"),
                )
            })?;
            let mime_type = item
                .get("mimeType")
                .and_then(Json::as_str)
                .map(str::to_owned);
            let directory = mime_type.as_deref() == Some("inode/directory");
            children.push(DirectoryChild {
                uri: child_uri.to_owned(),
                name: item.get("name").and_then(Json::as_str).map(str::to_owned),
                size: item.get("size").and_then(Json::as_u64),
                directory,
                listed: None,
                mime_type,
            });
        }
        self.with(|s| {
            // The files each skill lists, as a set, built once per skill met in this directory.
            let mut listed: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
            for c in children.iter_mut().filter(|c| !c.directory) {
                let Some(entry) = s.host.innermost_entry(&s.label, &c.uri) else {
                    continue;
                };
                let Some(items) = entry.items() else {
                    continue;
                };
                let files = listed
                    .entry(entry.uri())
                    .or_insert_with(|| items.iter().map(|i| i.uri.as_str()).collect());
                c.listed = Some(files.contains(c.uri.as_str()));
            }
        })?;
        Ok(Directory {
            uri: uri.to_owned(),
            children,
            hints,
            pages,
        })
    }
}

/// The length of a value's JSON text, without writing it anywhere.
fn json_len(value: &Json) -> u64 {
    struct Count(u64);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 = self.0.saturating_add(buf.len() as u64);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    // Writing to a counter cannot fail, and a `Value` always serialises.
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}

/// Runs a future to completion on the current thread, for an [`Rpc`] that does blocking I/O
/// (its futures are ready when first polled; anything else parks the thread until woken).
#[cfg(not(target_family = "wasm"))]
pub fn block_on<F: Future>(future: F) -> F::Output {
    use std::sync::Arc;
    use std::task::{Context, Poll, Wake, Waker};

    struct Unpark(std::thread::Thread);
    impl Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
    let mut cx = Context::from_waker(&waker);
    let mut future = std::pin::pin!(future);
    loop {
        if let Poll::Ready(v) = future.as_mut().poll(&mut cx) {
            return v;
        }
        std::thread::park();
    }
}

// Native only: the tests run the client with `block_on`, which wasm has not.
#[cfg(all(test, not(target_family = "wasm")))]
mod tests {
    use super::*;
    use crate::host::registry::tests::table_builds;

    /// An [`Rpc`] over a fixed listing of `n` skills (pages of 100) and one directory of
    /// every skill's files.
    struct Many(usize);

    fn entry(i: usize) -> Json {
        let root = format!("skill://s{i}");
        let digest = digest_of(b"x");
        json!({
            "uri": format!("{root}/SKILL.md"),
            "frontmatter": {"name": format!("s{i}"), "description": "d"},
            "resources": [
                {"uri": format!("{root}/SKILL.md"), "digest": digest, "size": 1},
                {"uri": format!("{root}/a.md"), "digest": digest, "size": 1},
            ],
        })
    }

    impl Rpc for Many {
        fn call(&self, method: &str, params: Json) -> impl Future<Output = Result<Json>> {
            let page: usize = params["cursor"]
                .as_str()
                .and_then(|c| c.parse().ok())
                .unwrap_or(0);
            let result = match method {
                "skills/list" => {
                    let skills: Vec<Json> = (page * 100..(page * 100 + 100).min(self.0))
                        .map(entry)
                        .collect();
                    let mut r = json!({ "skills": skills });
                    if (page + 1) * 100 < self.0 {
                        r["nextCursor"] = json!((page + 1).to_string());
                    }
                    r
                }
                "skills/get" => {
                    let uri = params["uri"].as_str().unwrap_or_default();
                    let i: usize = uri
                        .trim_start_matches("skill://s")
                        .trim_end_matches("/SKILL.md")
                        .parse()
                        .unwrap_or(0);
                    json!({ "skill": entry(i) })
                }
                _ => {
                    let files: Vec<Json> = (0..self.0)
                        .flat_map(|i| {
                            [
                                json!({"uri": format!("skill://s{i}/a.md")}),
                                json!({"uri": format!("skill://s{i}/b.md")}),
                            ]
                        })
                        .collect();
                    json!({ "resources": files })
                }
            };
            std::future::ready(Ok(result))
        }
        fn now_ms(&self) -> f64 {
            0.0
        }
    }

    /// A client of a server that declares the extension and `directoryRead`.
    fn client() -> SkillsClient {
        let c = SkillsClient::new("docs", HostOptions::default()).unwrap();
        let caps =
            json!({"capabilities": {"extensions": {SKILLS_EXTENSION: {"directoryRead": true}}}});
        c.set_facts(ServerFacts::from_result(Era::Modern, "2026-07-28", &caps))
            .unwrap();
        c
    }

    #[test]
    fn server_lists_many_skills_the_display_table_is_built_once() {
        let rpc = Many(1000);
        let c = client();
        let before = table_builds();
        let listing = block_on(c.list(&rpc)).unwrap();
        assert_eq!((listing.skills.len(), listing.pages), (1000, 10));
        assert_eq!(listing.skills[5].summary.display_name, "s5");
        assert_eq!(table_builds() - before, 1);
        // Fetching a known entry again changes no name.
        let got = block_on(c.get(&rpc, "skill://s7/SKILL.md")).unwrap();
        assert_eq!(got.skill.summary.display_name, "s7");
        assert_eq!(table_builds() - before, 1);
    }

    #[test]
    fn server_lists_a_directory_of_every_skill_without_scanning_skills() {
        let rpc = Many(1000);
        let c = client();
        block_on(c.list(&rpc)).unwrap();
        let before = table_builds();
        let d = block_on(c.read_directory(&rpc, "skill://")).unwrap();
        assert_eq!(d.children.len(), 2000);
        assert!(d
            .children
            .iter()
            .all(|ch| ch.listed == Some(ch.uri.ends_with("/a.md"))));
        assert_eq!(table_builds() - before, 0);
    }
}
