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
//! | `rules` (private) | what the client may send and to whom: `check_declared`, `says_gone`, `server_label_of_url` |
//!
//! The items of `cache`, `error` and `rules` a caller needs are this module's ([`Hints`],
//! [`ClientError`], [`ClientCode`], [`ExchangeKind`], [`Result`], `check_declared`,
//! `says_gone`, `server_label_of_url`): each has one path.
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
//!   (`check_declared`). A client with no recorded capabilities sends neither.
//! * **Arguments**: [`SkillsClient::get`] and [`SkillsClient::load`] take a `SKILL.md` URI
//!   only (`check_skill_md_uri`), refused with `invalid-argument` before anything is sent.
//! * **Identity** (H22, H28): the client's server is its label, the host-assigned name under
//!   which every skill, approval and cached result is kept; a client of a URL is labelled
//!   with the URL's origin by default (`server_label_of_url`), and an export of approvals
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
//!   window closes (`says_gone`). An internal error (`-32603`), a lost connection or a
//!   timeout says nothing about the skill.
//! * **Freshness** (H34): an entry from `skills/list` or `skills/get` is current for that
//!   result's `ttlMs`; [`SkillsClient::load`] fetches an entry that is unknown or no longer
//!   current with `skills/get` first. During an acting window the held entry governs reads,
//!   whatever the TTL. The registry owns each entry and its deadline: the client records the
//!   deadline on the [`Rpc`]'s clock (`SkillHost::set_current_until`) and asks, in one call,
//!   whether the entry is current and what to read (`SkillHost::plan_load_current_for`).
//! * **Caching** (the private `cache`): results are reused within their `ttlMs` and `cacheScope`, keyed
//!   by method and parameters (and the authorization context for private ones); errors and
//!   content that failed verification are never kept.
//! * **Bounds**: at most `MAX_PAGES` pages per listing and `MAX_LISTED` items; a repeated
//!   cursor ends the walk with `protocol-error`. Every page of one listing (`skills/list`) or
//!   one directory read counts against one byte budget, the listing budget
//!   (256 MiB, unless [`SkillsClient::set_listing_budget`] says
//!   otherwise): the bytes of each page's result as JSON text, as the [`Rpc`] handed it over,
//!   cached pages included. A walk over many directories shares one budget when it is opened
//!   as one walk (the command's `verify` of a whole server does). Past the budget the listing fails with `protocol-error`,
//!   naming the budget and how to raise it. Each reply is capped on its own as well
//!   (`http::MAX_REPLY_BYTES`).
//! * **Cost**: registering a listing, the summaries of its skills, a load and the marking of
//!   a directory's children are linear in what the server sent: display names are worked out
//!   once per change of the registered set ([`SkillHost::summary`]), and a child's skill is
//!   found from its URI's prefixes (`SkillHost::innermost_entry`), never by scanning every
//!   skill.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::future::Future;
use std::rc::Rc;

use crate::json::{self as strict, Node};
use serde_json::{json, Value as Json};

use crate::host::entry::Entry;
use crate::host::error::{ErrorCode, VerifyError};
use crate::host::registry::{
    HostOptions, LoadedSkill, PlannedRead, Purpose, ReadFile, RegisterOutcome, Rejected, SkillHost,
    SkillSummary,
};
use crate::host::verify::{read_content, Content, Hashing};
use crate::protocol::{Era, SKILLS_EXTENSION};
use crate::skill::digest::digest_of;

mod cache;
pub mod challenge;
mod error;
mod facts;
pub mod http;
mod requests;
mod rules;
pub mod search;
mod trust;

pub use cache::Hints;
pub use error::{ClientCode, ClientError, ExchangeKind, Result};
pub(crate) use facts::context_of;
pub use facts::{bearer_header, ClientInfo, EraChoice, ServerFacts};
pub(crate) use rules::says_gone;

#[cfg(any(feature = "command", feature = "internals"))]
internal_use!(facts::check_headers);
internal_use!(rules::{check_declared, server_label_of_url});
internal_use!(crate::host::entry::check_skill_md_uri);

use cache::{Cache, Key};

/// Most pages read for one listing (`skills/list`, or one directory).
pub(crate) const MAX_PAGES: usize = 1000;
/// Most items read for one listing.
pub(crate) const MAX_LISTED: usize = 100_000;
/// The default listing budget: the most result bytes (as JSON text) read for one listing,
/// one directory, or one walk opened with [`SkillsClient::begin_walk`] (256 MiB). Change it
/// with [`SkillsClient::set_listing_budget`].
#[cfg_attr(feature = "internals", visibility::make(pub))]
pub(crate) const DEFAULT_LISTING_BUDGET: u64 = 256 << 20;

/// Sends one JSON-RPC request and hands over its `result`: the I/O half of a client. The
/// client asks with [`Rpc::call_read`] and works from one reading of the result by the strict
/// JSON reader (the registry included). A transport implements [`Rpc::call`], which returns
/// the result's JSON text as received (never a value to be written back to text), and the
/// default `call_read` reads it once; a transport that reads the whole reply itself
/// overrides `call_read` to hand over its reading of the `result` member ([`http::HttpRpc`]
/// does), so the reply is read once.
///
/// Failures are [`ClientError`]s of an [`ExchangeKind`]: `server-error` for a JSON-RPC error
/// answer (its code in `actual`), `connection-failed`, `http-status`, `protocol-error`,
/// `timeout` or `aborted` for the exchange itself.
///
/// A fixed server that answers `skills/list` with one skill, and nothing else:
///
/// ```
/// use serde_json::{json, Value};
/// use skills_edge::client::{block_on, ClientError, ExchangeKind, Result, Rpc, ServerFacts, SkillsClient};
/// # use skills_edge::{catalog::digest_of, host::HostOptions, protocol::Era};
/// struct Fixed(String);
/// impl Rpc for Fixed {
///     async fn call(&self, method: &str, _params: Value) -> Result<String> {
///         match method {
///             "skills/list" => Ok(self.0.clone()),
///             _ => Err(ClientError::exchange(ExchangeKind::ServerError, "no such method")),
///         }
///     }
///     fn now_ms(&self) -> f64 { 0.0 }
/// }
/// # let entry = json!({"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},
/// #     "resources":[{"uri":"skill://a/SKILL.md","digest":digest_of(b"a"),"size":1}]});
/// let client = SkillsClient::new("docs", HostOptions::default()).unwrap();
/// let caps = json!({"capabilities": {"extensions": {"io.modelcontextprotocol/skills": {}}}});
/// client.set_facts(ServerFacts::from_result(Era::Modern, "2026-07-28", &caps)).unwrap();
/// let listing = block_on(client.list(&Fixed(json!({"skills": [entry]}).to_string()))).unwrap();
/// assert_eq!(listing.skills[0].summary.name, "a");
/// ```
pub trait Rpc {
    /// Sends `method` with `params` (an object, without the 2026-07-28 `_meta` envelope,
    /// which the transport adds) and returns the result object's JSON text, as received.
    fn call(&self, method: &str, params: Json) -> impl Future<Output = Result<String>>;
    /// [`Rpc::call`], with the result handed to `read` as the strict reader
    /// ([`crate::catalog::json`]) read it; what the client calls. By default [`Rpc::call`]'s
    /// text is read (whatever JSON it is: the client checks that it is a result object); a
    /// transport that reads the whole response itself hands over its reading of the
    /// `result` member instead, so that a reply is read once ([`http::HttpRpc`] does, and
    /// hands over an object only).
    fn call_read<T>(
        &self,
        method: &str,
        params: Json,
        read: impl FnOnce(&Node<'_>) -> Result<T>,
    ) -> impl Future<Output = Result<T>> {
        async move {
            let text = self.call(method, params).await?;
            read(&read_result(method, &text)?)
        }
    }
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

/// A skill as a listing or `skills/get` shows it: the registry's summary, the entry, and the
/// figures of its manifest.
///
/// ```
/// use skills_edge::client::{block_on, SkillsClient};
/// # use std::cell::RefCell;
/// # use std::future::{ready, Future};
/// # use skills_edge::client::http::{HttpIo, HttpRequest, HttpResponse, ResponseBody};
/// # use skills_edge::server::{Config, Grant, HttpHeaders, Responder, Transport};
/// # struct Body(Option<Vec<u8>>);
/// # impl ResponseBody for Body {
/// #     fn next_chunk(&mut self) -> impl Future<Output = skills_edge::client::Result<Option<Vec<u8>>>> { ready(Ok(self.0.take())) }
/// # }
/// # struct Wire { responder: Responder, sent: RefCell<Vec<HttpRequest>> }
/// # impl Wire {
/// #     fn new(config: Config) -> Wire {
/// #         let responder = Responder::new(skills_edge::embedded::catalog().unwrap(), config).unwrap();
/// #         Wire { responder, sent: RefCell::new(Vec::new()) }
/// #     }
/// # }
/// # impl HttpIo for Wire {
/// #     type Body = Body;
/// #     fn post(&self, request: HttpRequest) -> impl Future<Output = skills_edge::client::Result<HttpResponse<Body>>> {
/// #         let header = |n: &str| request.headers.iter().find(|(k, _)| k == n).map(|(_, v)| v.as_str());
/// #         let transport = Transport::Http(HttpHeaders {
/// #             protocol_version: header("mcp-protocol-version"), method: header("mcp-method"), name: header("mcp-name") });
/// #         let reply = self.responder.respond(request.body.as_bytes(), &transport, Grant::PUBLIC);
/// #         self.sent.borrow_mut().push(request.clone());
/// #         ready(Ok(HttpResponse { status: reply.status, content_type: Some("application/json".into()),
/// #             session_id: None, www_authenticate: None, body: Body(reply.body) }))
/// #     }
/// #     fn now_ms(&self) -> f64 { 0.0 }
/// # }
/// # let wire = Wire::new(Config::default());
/// # let session = skills_edge::client::http::HttpSession::new(skills_edge::client::ClientInfo::default());
/// # let client = SkillsClient::new("docs", skills_edge::host::HostOptions::default()).unwrap();
/// # client.set_facts(block_on(session.connect(&wire, skills_edge::client::EraChoice::Auto)).unwrap()).unwrap();
/// # let rpc = session.rpc(&wire);
/// let listing = block_on(client.list(&rpc)).unwrap();
/// let s = listing.skills.iter().find(|s| s.summary.name == "code-review").unwrap();
/// assert_eq!((s.summary.uri.as_str(), s.entry.description()), (s.entry.uri(), "Review code using the team's checklist."));
/// let limits = s.entry.check_limits().unwrap().unwrap();
/// assert_eq!((s.files, s.bytes), (limits.resource_count, limits.total_size));
/// assert_eq!(s.files, 2); // SKILL.md and references/checklist.md
/// ```
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
///
/// ```
/// use skills_edge::client::{block_on, SkillsClient};
/// # use skills_edge::protocol::CacheScope;
/// # use std::cell::RefCell;
/// # use std::future::{ready, Future};
/// # use skills_edge::client::http::{HttpIo, HttpRequest, HttpResponse, ResponseBody};
/// # use skills_edge::server::{Config, Grant, HttpHeaders, Responder, Transport};
/// # struct Body(Option<Vec<u8>>);
/// # impl ResponseBody for Body {
/// #     fn next_chunk(&mut self) -> impl Future<Output = skills_edge::client::Result<Option<Vec<u8>>>> { ready(Ok(self.0.take())) }
/// # }
/// # struct Wire { responder: Responder, sent: RefCell<Vec<HttpRequest>> }
/// # impl Wire {
/// #     fn new(config: Config) -> Wire {
/// #         let responder = Responder::new(skills_edge::embedded::catalog().unwrap(), config).unwrap();
/// #         Wire { responder, sent: RefCell::new(Vec::new()) }
/// #     }
/// # }
/// # impl HttpIo for Wire {
/// #     type Body = Body;
/// #     fn post(&self, request: HttpRequest) -> impl Future<Output = skills_edge::client::Result<HttpResponse<Body>>> {
/// #         let header = |n: &str| request.headers.iter().find(|(k, _)| k == n).map(|(_, v)| v.as_str());
/// #         let transport = Transport::Http(HttpHeaders {
/// #             protocol_version: header("mcp-protocol-version"), method: header("mcp-method"), name: header("mcp-name") });
/// #         let reply = self.responder.respond(request.body.as_bytes(), &transport, Grant::PUBLIC);
/// #         self.sent.borrow_mut().push(request.clone());
/// #         ready(Ok(HttpResponse { status: reply.status, content_type: Some("application/json".into()),
/// #             session_id: None, www_authenticate: None, body: Body(reply.body) }))
/// #     }
/// #     fn now_ms(&self) -> f64 { 0.0 }
/// # }
/// # let wire = Wire::new(Config { page_size: 2, ttl_ms: 60_000, ..Config::default() });
/// # let session = skills_edge::client::http::HttpSession::new(skills_edge::client::ClientInfo::default());
/// # let client = SkillsClient::new("docs", skills_edge::host::HostOptions::default()).unwrap();
/// # client.set_facts(block_on(session.connect(&wire, skills_edge::client::EraChoice::Auto)).unwrap()).unwrap();
/// # let rpc = session.rpc(&wire);
/// // A server with pages of 2 skills: every page is read, and the skills registered.
/// let listing = block_on(client.list(&rpc)).unwrap();
/// assert_eq!(listing.pages, listing.skills.len().div_ceil(2));
/// assert!(listing.rejected.is_empty());
/// assert_eq!((listing.hints.ttl_ms, listing.hints.scope), (60_000, CacheScope::Public));
/// assert!(client.host(|host, label| host.entry(label, "skill://code-review/SKILL.md").is_some()).unwrap());
/// ```
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
///
/// ```
/// use skills_edge::client::{block_on, SkillsClient};
/// # use std::cell::RefCell;
/// # use std::future::{ready, Future};
/// # use skills_edge::client::http::{HttpIo, HttpRequest, HttpResponse, ResponseBody};
/// # use skills_edge::server::{Config, Grant, HttpHeaders, Responder, Transport};
/// # struct Body(Option<Vec<u8>>);
/// # impl ResponseBody for Body {
/// #     fn next_chunk(&mut self) -> impl Future<Output = skills_edge::client::Result<Option<Vec<u8>>>> { ready(Ok(self.0.take())) }
/// # }
/// # struct Wire { responder: Responder, sent: RefCell<Vec<HttpRequest>> }
/// # impl Wire {
/// #     fn new(config: Config) -> Wire {
/// #         let responder = Responder::new(skills_edge::embedded::catalog().unwrap(), config).unwrap();
/// #         Wire { responder, sent: RefCell::new(Vec::new()) }
/// #     }
/// # }
/// # impl HttpIo for Wire {
/// #     type Body = Body;
/// #     fn post(&self, request: HttpRequest) -> impl Future<Output = skills_edge::client::Result<HttpResponse<Body>>> {
/// #         let header = |n: &str| request.headers.iter().find(|(k, _)| k == n).map(|(_, v)| v.as_str());
/// #         let transport = Transport::Http(HttpHeaders {
/// #             protocol_version: header("mcp-protocol-version"), method: header("mcp-method"), name: header("mcp-name") });
/// #         let reply = self.responder.respond(request.body.as_bytes(), &transport, Grant::PUBLIC);
/// #         self.sent.borrow_mut().push(request.clone());
/// #         ready(Ok(HttpResponse { status: reply.status, content_type: Some("application/json".into()),
/// #             session_id: None, www_authenticate: None, body: Body(reply.body) }))
/// #     }
/// #     fn now_ms(&self) -> f64 { 0.0 }
/// # }
/// # let wire = Wire::new(Config::default());
/// # let session = skills_edge::client::http::HttpSession::new(skills_edge::client::ClientInfo::default());
/// # let client = SkillsClient::new("docs", skills_edge::host::HostOptions::default()).unwrap();
/// # client.set_facts(block_on(session.connect(&wire, skills_edge::client::EraChoice::Auto)).unwrap()).unwrap();
/// # let rpc = session.rpc(&wire);
/// let fetched = block_on(client.get(&rpc, "skill://code-review/SKILL.md")).unwrap();
/// assert!(fetched.outcome.added);
/// assert_eq!((fetched.skill.summary.display_name.as_str(), fetched.skill.files), ("code-review", 2));
/// // Fetched again: the same entry, nothing changed.
/// let again = block_on(client.get(&rpc, "skill://code-review/SKILL.md")).unwrap();
/// assert!(!again.outcome.added && !again.outcome.changed && !again.outcome.approval_revoked);
/// ```
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
///
/// ```
/// use skills_edge::client::{block_on, SkillsClient};
/// # use std::cell::RefCell;
/// # use std::future::{ready, Future};
/// # use skills_edge::client::http::{HttpIo, HttpRequest, HttpResponse, ResponseBody};
/// # use skills_edge::server::{Config, Grant, HttpHeaders, Responder, Transport};
/// # struct Body(Option<Vec<u8>>);
/// # impl ResponseBody for Body {
/// #     fn next_chunk(&mut self) -> impl Future<Output = skills_edge::client::Result<Option<Vec<u8>>>> { ready(Ok(self.0.take())) }
/// # }
/// # struct Wire { responder: Responder, sent: RefCell<Vec<HttpRequest>> }
/// # impl Wire {
/// #     fn new(config: Config) -> Wire {
/// #         let responder = Responder::new(skills_edge::embedded::catalog().unwrap(), config).unwrap();
/// #         Wire { responder, sent: RefCell::new(Vec::new()) }
/// #     }
/// # }
/// # impl HttpIo for Wire {
/// #     type Body = Body;
/// #     fn post(&self, request: HttpRequest) -> impl Future<Output = skills_edge::client::Result<HttpResponse<Body>>> {
/// #         let header = |n: &str| request.headers.iter().find(|(k, _)| k == n).map(|(_, v)| v.as_str());
/// #         let transport = Transport::Http(HttpHeaders {
/// #             protocol_version: header("mcp-protocol-version"), method: header("mcp-method"), name: header("mcp-name") });
/// #         let reply = self.responder.respond(request.body.as_bytes(), &transport, Grant::PUBLIC);
/// #         self.sent.borrow_mut().push(request.clone());
/// #         ready(Ok(HttpResponse { status: reply.status, content_type: Some("application/json".into()),
/// #             session_id: None, www_authenticate: None, body: Body(reply.body) }))
/// #     }
/// #     fn now_ms(&self) -> f64 { 0.0 }
/// # }
/// # let wire = Wire::new(Config::default());
/// # let session = skills_edge::client::http::HttpSession::new(skills_edge::client::ClientInfo::default());
/// # let client = SkillsClient::new("docs", skills_edge::host::HostOptions::default()).unwrap();
/// # client.set_facts(block_on(session.connect(&wire, skills_edge::client::EraChoice::Auto)).unwrap()).unwrap();
/// # let rpc = session.rpc(&wire);
/// // Unknown so far: the entry is fetched with skills/get, then the SKILL.md is verified against it.
/// let loaded = block_on(client.load(&rpc, "skill://code-review/SKILL.md")).unwrap();
/// assert_eq!(loaded.skill.server_label, "docs");
/// assert!(loaded.skill.skill_md.body().starts_with("\n# Code review"));
/// assert!(!loaded.refreshed && !loaded.approval_revoked);
/// ```
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
///
/// ```
/// use skills_edge::client::{block_on, SkillsClient};
/// # use std::cell::RefCell;
/// # use std::future::{ready, Future};
/// # use skills_edge::client::http::{HttpIo, HttpRequest, HttpResponse, ResponseBody};
/// # use skills_edge::server::{Config, Grant, HttpHeaders, Responder, Transport};
/// # struct Body(Option<Vec<u8>>);
/// # impl ResponseBody for Body {
/// #     fn next_chunk(&mut self) -> impl Future<Output = skills_edge::client::Result<Option<Vec<u8>>>> { ready(Ok(self.0.take())) }
/// # }
/// # struct Wire { responder: Responder, sent: RefCell<Vec<HttpRequest>> }
/// # impl Wire {
/// #     fn new(config: Config) -> Wire {
/// #         let responder = Responder::new(skills_edge::embedded::catalog().unwrap(), config).unwrap();
/// #         Wire { responder, sent: RefCell::new(Vec::new()) }
/// #     }
/// # }
/// # impl HttpIo for Wire {
/// #     type Body = Body;
/// #     fn post(&self, request: HttpRequest) -> impl Future<Output = skills_edge::client::Result<HttpResponse<Body>>> {
/// #         let header = |n: &str| request.headers.iter().find(|(k, _)| k == n).map(|(_, v)| v.as_str());
/// #         let transport = Transport::Http(HttpHeaders {
/// #             protocol_version: header("mcp-protocol-version"), method: header("mcp-method"), name: header("mcp-name") });
/// #         let reply = self.responder.respond(request.body.as_bytes(), &transport, Grant::PUBLIC);
/// #         self.sent.borrow_mut().push(request.clone());
/// #         ready(Ok(HttpResponse { status: reply.status, content_type: Some("application/json".into()),
/// #             session_id: None, www_authenticate: None, body: Body(reply.body) }))
/// #     }
/// #     fn now_ms(&self) -> f64 { 0.0 }
/// # }
/// # let wire = Wire::new(Config::default());
/// # let session = skills_edge::client::http::HttpSession::new(skills_edge::client::ClientInfo::default());
/// # let client = SkillsClient::new("docs", skills_edge::host::HostOptions::default()).unwrap();
/// # client.set_facts(block_on(session.connect(&wire, skills_edge::client::EraChoice::Auto)).unwrap()).unwrap();
/// # let rpc = session.rpc(&wire);
/// let skill = "skill://code-review/SKILL.md";
/// block_on(client.load(&rpc, skill)).unwrap();
/// let r = block_on(client.read(&rpc, skill, "references/checklist.md")).unwrap();
/// assert_eq!(r.file.content.receipt.uri, "skill://code-review/references/checklist.md");
/// assert!(r.file.content.receipt.verified && !r.refreshed);
/// // A file the entry does not list is refused before anything is sent.
/// assert!(block_on(client.read(&rpc, skill, "references/other.md")).is_err());
/// ```
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
///
/// ```
/// use skills_edge::client::{block_on, SkillsClient};
/// # use std::cell::RefCell;
/// # use std::future::{ready, Future};
/// # use skills_edge::client::http::{HttpIo, HttpRequest, HttpResponse, ResponseBody};
/// # use skills_edge::server::{Config, Grant, HttpHeaders, Responder, Transport};
/// # struct Body(Option<Vec<u8>>);
/// # impl ResponseBody for Body {
/// #     fn next_chunk(&mut self) -> impl Future<Output = skills_edge::client::Result<Option<Vec<u8>>>> { ready(Ok(self.0.take())) }
/// # }
/// # struct Wire { responder: Responder, sent: RefCell<Vec<HttpRequest>> }
/// # impl Wire {
/// #     fn new(config: Config) -> Wire {
/// #         let responder = Responder::new(skills_edge::embedded::catalog().unwrap(), config).unwrap();
/// #         Wire { responder, sent: RefCell::new(Vec::new()) }
/// #     }
/// # }
/// # impl HttpIo for Wire {
/// #     type Body = Body;
/// #     fn post(&self, request: HttpRequest) -> impl Future<Output = skills_edge::client::Result<HttpResponse<Body>>> {
/// #         let header = |n: &str| request.headers.iter().find(|(k, _)| k == n).map(|(_, v)| v.as_str());
/// #         let transport = Transport::Http(HttpHeaders {
/// #             protocol_version: header("mcp-protocol-version"), method: header("mcp-method"), name: header("mcp-name") });
/// #         let reply = self.responder.respond(request.body.as_bytes(), &transport, Grant::PUBLIC);
/// #         self.sent.borrow_mut().push(request.clone());
/// #         ready(Ok(HttpResponse { status: reply.status, content_type: Some("application/json".into()),
/// #             session_id: None, www_authenticate: None, body: Body(reply.body) }))
/// #     }
/// #     fn now_ms(&self) -> f64 { 0.0 }
/// # }
/// # let wire = Wire::new(Config::default());
/// # let session = skills_edge::client::http::HttpSession::new(skills_edge::client::ClientInfo::default());
/// # let client = SkillsClient::new("docs", skills_edge::host::HostOptions::default()).unwrap();
/// # client.set_facts(block_on(session.connect(&wire, skills_edge::client::EraChoice::Auto)).unwrap()).unwrap();
/// # let rpc = session.rpc(&wire);
/// block_on(client.list(&rpc)).unwrap();
/// let dir = block_on(client.read_directory(&rpc, "skill://code-review")).unwrap();
/// let skill_md = dir.children.iter().find(|c| c.uri == "skill://code-review/SKILL.md").unwrap();
/// assert_eq!((skill_md.directory, skill_md.listed, skill_md.size), (false, Some(true), Some(149)));
/// let references = dir.children.iter().find(|c| c.directory).unwrap();
/// assert_eq!(references.mime_type.as_deref(), Some("inode/directory"));
/// ```
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
///
/// ```
/// use skills_edge::client::{block_on, SkillsClient};
/// # use std::cell::RefCell;
/// # use std::future::{ready, Future};
/// # use skills_edge::client::http::{HttpIo, HttpRequest, HttpResponse, ResponseBody};
/// # use skills_edge::server::{Config, Grant, HttpHeaders, Responder, Transport};
/// # struct Body(Option<Vec<u8>>);
/// # impl ResponseBody for Body {
/// #     fn next_chunk(&mut self) -> impl Future<Output = skills_edge::client::Result<Option<Vec<u8>>>> { ready(Ok(self.0.take())) }
/// # }
/// # struct Wire { responder: Responder, sent: RefCell<Vec<HttpRequest>> }
/// # impl Wire {
/// #     fn new(config: Config) -> Wire {
/// #         let responder = Responder::new(skills_edge::embedded::catalog().unwrap(), config).unwrap();
/// #         Wire { responder, sent: RefCell::new(Vec::new()) }
/// #     }
/// # }
/// # impl HttpIo for Wire {
/// #     type Body = Body;
/// #     fn post(&self, request: HttpRequest) -> impl Future<Output = skills_edge::client::Result<HttpResponse<Body>>> {
/// #         let header = |n: &str| request.headers.iter().find(|(k, _)| k == n).map(|(_, v)| v.as_str());
/// #         let transport = Transport::Http(HttpHeaders {
/// #             protocol_version: header("mcp-protocol-version"), method: header("mcp-method"), name: header("mcp-name") });
/// #         let reply = self.responder.respond(request.body.as_bytes(), &transport, Grant::PUBLIC);
/// #         self.sent.borrow_mut().push(request.clone());
/// #         ready(Ok(HttpResponse { status: reply.status, content_type: Some("application/json".into()),
/// #             session_id: None, www_authenticate: None, body: Body(reply.body) }))
/// #     }
/// #     fn now_ms(&self) -> f64 { 0.0 }
/// # }
/// # let wire = Wire::new(Config::default());
/// # let session = skills_edge::client::http::HttpSession::new(skills_edge::client::ClientInfo::default());
/// # let client = SkillsClient::new("docs", skills_edge::host::HostOptions::default()).unwrap();
/// # client.set_facts(block_on(session.connect(&wire, skills_edge::client::EraChoice::Auto)).unwrap()).unwrap();
/// # let rpc = session.rpc(&wire);
/// let dir = block_on(client.read_directory(&rpc, "skill://code-review/references")).unwrap();
/// assert_eq!((dir.uri.as_str(), dir.pages), ("skill://code-review/references", 1));
/// let uris: Vec<&str> = dir.children.iter().map(|c| c.uri.as_str()).collect();
/// assert_eq!(uris, ["skill://code-review/references/checklist.md"]);
/// ```
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

/// A result as fetched (its JSON text, shared with the cache), with what is needed to keep it
/// in the cache once it is checked. [`Fetched::read`] reads it.
struct Fetched {
    key: Key,
    context: String,
    text: Rc<str>,
    cached_until: Option<f64>, // from the cache: its expiry there, the end of being current
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
///
/// Over Streamable HTTP (the transport's bytes are the caller's [`http::HttpIo`], here a
/// server in the same process):
///
/// ```
/// use skills_edge::client::{block_on, http::HttpSession, ClientInfo, EraChoice, SkillsClient};
/// use skills_edge::host::HostOptions;
/// # use std::cell::RefCell;
/// # use std::future::{ready, Future};
/// # use skills_edge::client::http::{HttpIo, HttpRequest, HttpResponse, ResponseBody};
/// # use skills_edge::server::{Config, Grant, HttpHeaders, Responder, Transport};
/// # struct Body(Option<Vec<u8>>);
/// # impl ResponseBody for Body {
/// #     fn next_chunk(&mut self) -> impl Future<Output = skills_edge::client::Result<Option<Vec<u8>>>> { ready(Ok(self.0.take())) }
/// # }
/// # struct Wire { responder: Responder, sent: RefCell<Vec<HttpRequest>> }
/// # impl Wire {
/// #     fn new(config: Config) -> Wire {
/// #         let responder = Responder::new(skills_edge::embedded::catalog().unwrap(), config).unwrap();
/// #         Wire { responder, sent: RefCell::new(Vec::new()) }
/// #     }
/// # }
/// # impl HttpIo for Wire {
/// #     type Body = Body;
/// #     fn post(&self, request: HttpRequest) -> impl Future<Output = skills_edge::client::Result<HttpResponse<Body>>> {
/// #         let header = |n: &str| request.headers.iter().find(|(k, _)| k == n).map(|(_, v)| v.as_str());
/// #         let transport = Transport::Http(HttpHeaders {
/// #             protocol_version: header("mcp-protocol-version"), method: header("mcp-method"), name: header("mcp-name") });
/// #         let reply = self.responder.respond(request.body.as_bytes(), &transport, Grant::PUBLIC);
/// #         self.sent.borrow_mut().push(request.clone());
/// #         ready(Ok(HttpResponse { status: reply.status, content_type: Some("application/json".into()),
/// #             session_id: None, www_authenticate: None, body: Body(reply.body) }))
/// #     }
/// #     fn now_ms(&self) -> f64 { 0.0 }
/// # }
/// # let wire = Wire::new(Config::default());
/// let session = HttpSession::new(ClientInfo::default());
/// let client = SkillsClient::new("https://skills.example", HostOptions::default()).unwrap();
/// client.set_facts(block_on(session.connect(&wire, EraChoice::Auto)).unwrap()).unwrap();
/// let rpc = session.rpc(&wire);
/// let listing = block_on(client.list(&rpc)).unwrap();
/// assert!(listing.skills.iter().any(|s| s.summary.name == "code-review"));
/// let skill = "skill://code-review/SKILL.md";
/// let loaded = block_on(client.load(&rpc, skill)).unwrap();
/// assert!(loaded.skill.skill_md.body().contains("references/checklist.md"));
/// let file = block_on(client.read(&rpc, skill, "references/checklist.md")).unwrap();
/// assert!(file.file.content.receipt.verified);
/// ```
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

/// What a `resources/read` result holds for the verifier: its one item's content, or, when
/// it does not read as one, the result's text (the verifier names why).
fn content_of(f: &Fetched, result: &Node<'_>, plan: &PlannedRead) -> Content {
    match read_content(result, &plan.uri, plan.size) {
        Ok((body, mime_type)) => Content::Item { body, mime_type },
        Err(_) => Content::ReadResult(f.text.as_ref().to_owned()),
    }
}

/// The platform's digest of an item's bytes ([`Rpc::digest`]), when they have the planned
/// size (else the verifier refuses them by size, and no digest is needed).
async fn platform_digest<R: Rpc>(rpc: &R, content: &Content, plan: &PlannedRead) -> Option<String> {
    let Content::Item { body, .. } = content else {
        return None;
    };
    let bytes = body.as_bytes();
    if plan.size.is_none_or(|s| s == bytes.len() as u64) {
        rpc.digest(bytes).await
    } else {
        None
    }
}

/// How the verifier gets the digest of content ([`platform_digest`]): the platform's, when
/// it gave one, else hashed there.
fn hashing(platform_digest: &Option<String>) -> Hashing<'_> {
    platform_digest
        .as_deref()
        .map_or(Hashing::Here, Hashing::Given)
}

impl SkillsClient {
    /// A client whose server is labelled `label` (the host's name for it, never the server's
    /// own: for a server at a URL, `server_label_of_url` gives the default the npm package
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
    /// directory, or one walk over many directories may read, over all its pages
    /// (256 MiB until set). Past it the listing fails with `protocol-error`.
    pub fn set_listing_budget(&self, bytes: u64) -> Result<()> {
        self.with(|s| s.budget = bytes)
    }

    /// The listing budget in force, in bytes.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    #[cfg_attr(not(feature = "command"), allow(dead_code))]
    pub(crate) fn listing_budget(&self) -> u64 {
        self.with(|s| s.budget).unwrap_or(DEFAULT_LISTING_BUDGET)
    }

    /// The bytes read so far in the current listing, directory or walk.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    #[cfg_attr(not(feature = "command"), allow(dead_code))]
    pub(crate) fn listing_bytes(&self) -> u64 {
        self.with(|s| s.spent).unwrap_or(0)
    }

    /// Opens a walk: until [`SkillsClient::end_walk`], every listing and directory read
    /// counts against one listing budget, starting from zero now (a walk over a skill's
    /// directories is bounded as a whole, not per directory).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    #[cfg_attr(not(feature = "command"), allow(dead_code))]
    pub(crate) fn begin_walk(&self) -> Result<()> {
        self.with(|s| {
            s.walking = true;
            s.spent = 0;
        })
    }

    /// Closes the walk opened by [`SkillsClient::begin_walk`] and returns the bytes it read;
    /// each listing counts on its own again.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    #[cfg_attr(not(feature = "command"), allow(dead_code))]
    pub(crate) fn end_walk(&self) -> Result<u64> {
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

    /// Counts a page's result (`bytes` of JSON text) against the listing budget.
    fn spend(&self, method: &str, bytes: u64) -> Result<()> {
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

    /// The server's label.
    pub fn label(&self) -> String {
        self.with(|s| s.label.clone()).unwrap_or_default()
    }

    /// Sets the authorization context (a digest of the checked headers' sorted names and values) of the requests that follow:
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
    #[cfg_attr(not(feature = "js"), allow(dead_code))]
    pub(crate) fn clear_facts(&self) -> Result<()> {
        self.with(|s| s.facts = None)
    }

    /// What the server said about itself, once connected.
    pub fn facts(&self) -> Option<ServerFacts> {
        self.with(|s| s.facts.clone()).ok().flatten()
    }
}

/// The last member named `key` of a result object read by the strict reader (`None` when
/// absent, or when `node` is no object): a result's members are read as `serde_json` reads a
/// repeated key, the last one counting.
pub(crate) fn member<'n, 'a>(node: &'n Node<'a>, key: &str) -> Option<&'n Node<'a>> {
    node.as_object()?
        .iter()
        .rev()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v)
}

/// The JSON text of a value read by the strict reader, as `serde_json` writes it (compact),
/// for messages that quote what a server sent.
pub(crate) fn quoted(node: &Node<'_>) -> String {
    http::serde_value(node).to_string()
}

/// Reads a result's JSON text once, with the strict reader: `protocol-error` when it is not
/// JSON.
pub(crate) fn read_result<'t>(method: &str, text: &'t str) -> Result<Node<'t>> {
    strict::parse(text).map_err(|e| {
        ClientError::exchange(
            ExchangeKind::ProtocolError,
            format!("the result of {method} is not JSON ({e})"),
        )
    })
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
        fn call(&self, method: &str, params: Json) -> impl Future<Output = Result<String>> {
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
            std::future::ready(Ok(result.to_string()))
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
