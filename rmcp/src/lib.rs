//! # skills-edge-rmcp
//!
//! Agent Skills (`io.modelcontextprotocol/skills`, SEP-2640) from a catalog compiled at build
//! time, served by an [rmcp](https://docs.rs/rmcp) 3.11 server. rmcp has no skills source to
//! plug in: a server implements its `ServerHandler`'s `list_skills`, `get_skill`,
//! `read_resource_directory`, `list_resources` and `read_resource` and declares the extension
//! in its capabilities. [`SkillsHandler`] answers each of those methods with rmcp's own model
//! types, from skills-edge's responder: the pages and cursors as compiled, the answers
//! rendered at build time (no hashing, no YAML per request), and one visibility rule per
//! caller ([`SkillsHandler::with_scopes`]): a skill, file or directory the caller may not see
//! is answered exactly as one that does not exist.
//!
//! A server needs about five lines: a build script that compiles its skills folder,
//!
//! ```text
//! // build.rs (with `skills-edge` in [build-dependencies], `default-features = false`)
//! fn main() {
//!     skills_edge::build_script::embed("skills");
//! }
//! ```
//!
//! the handler, and one call per method in its `ServerHandler`:
//!
//! ```ignore
//! use skills_edge_rmcp::{capabilities, include_pack, Config, SkillsHandler};
//! let skills = Arc::new(SkillsHandler::new(include_pack!(), Config::default())?);
//!
//! impl ServerHandler for MyServer {
//!     fn get_info(&self) -> ServerConfig {
//!         ServerConfig::new(capabilities(ServerCapabilities::builder().enable_tools().build()))
//!     }
//!     async fn list_skills(&self, r: Option<PaginatedRequestParams>, cx: RequestContext<RoleServer>)
//!         -> Result<ListSkillsResult, ErrorData> { self.skills.list_skills(r, &cx) }
//!     // get_skill, read_resource_directory, list_resources, read_resource: one line each
//! }
//! ```
//!
//! `examples/server/` in the repository is a whole server (a tool of its own plus the
//! skills, over stdio and Streamable HTTP).
//!
//! ## How an answer is made
//!
//! `skills/list`, `skills/get` and `resources/read` ask the responder for the answer as data
//! ([`Responder::skills_page`], [`Responder::skill_for`], [`Responder::file_for`]: the
//! library's pages, cursors and predicate), and build rmcp's types from it: each skill's
//! entry was read into rmcp's `Skill` once, when the handler was made, and is cloned per
//! reply, and a file's bytes are copied once into the content (as text, or base64). The other
//! methods hand the responder the 2025-11-25 form of the request (the method, `uri` and
//! `cursor`) with the caller's grant and read its reply into rmcp's types. Either way the work
//! is proportional to the reply. rmcp adds or strips what depends on the negotiated protocol
//! version; the handler adds the cache hints of a 2026-07-28 result from
//! [`Responder::cache_hints`], so they are the responder's own. An error is the responder's
//! error object as is (code, message and `data`): an unknown or hidden URI is `-32602`
//! with the same message either way, as the Skills extension requires (rmcp's own
//! `SkillCatalog` answers `-32602` too, and rmcp turns a handler's `-32002` into `-32602` at
//! 2026-07-28).

//!
//! ## Targets
//!
//! Native, and wasm32-unknown-unknown: rmcp's `server` feature alone does not build there
//! (its uuid needs a source of randomness), so on that target this crate turns on uuid's `js`
//! (`crypto.getRandomValues`). The crate itself does no I/O; a transport is the server's.

#![warn(missing_docs)]

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;
use rmcp::model::{
    CacheScope as RmcpCacheScope, ErrorCode, ErrorData, GetSkillRequestParams, GetSkillResult,
    ListResourceTemplatesResult, ListResourcesResult, ListSkillsResult, PaginatedRequestParams,
    ProtocolVersion, ReadResourceDirectoryRequestParams, ReadResourceDirectoryResult,
    ReadResourceRequestParams, ReadResourceResult, ResourceContents, ResultType,
    ServerCapabilities, Skill,
};
use rmcp::service::{RequestContext, RoleServer};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use skills_edge::catalog::pack::PackError;
use skills_edge::catalog::{Catalog, Grant};
use skills_edge::protocol::CacheScope;
use skills_edge::server::{ConfigError, ErrorObject, Reply, Responder, Transport};
use std::fmt;
use std::sync::Arc;

pub use skills_edge::server::Config;

/// The pack a build script made with `skills_edge::build_script::embed`, as a
/// `&'static [u8]` (`include_bytes!` of `OUT_DIR/catalog.pack`, expanded in the calling
/// crate).
#[macro_export]
macro_rules! include_pack {
    () => {
        include_bytes!(concat!(env!("OUT_DIR"), "/catalog.pack")) as &'static [u8]
    };
}

/// `own` (the server's other capabilities: tools, prompts, …) with what serving skills
/// declares: `resources` (kept as given when the server already has resources) and the Skills
/// extension with `resources/directory/read` (`extensions`, as rmcp's
/// `enable_skills_with_directory_read`).
pub fn capabilities(own: ServerCapabilities) -> ServerCapabilities {
    let skills = ServerCapabilities::builder()
        .enable_resources()
        .enable_skills_with_directory_read()
        .build();
    let mut caps = own;
    if caps.resources.is_none() {
        caps.resources = skills.resources;
    }
    let extensions = caps.extensions.get_or_insert_with(Default::default);
    for (name, settings) in skills.extensions.into_iter().flatten() {
        extensions.insert(name, settings);
    }
    caps
}

/// The scopes of the caller of one request, from what rmcp's `RequestContext` carries: its
/// `extensions` (over Streamable HTTP, the request's `http::request::Parts`, with whatever an
/// authentication layer in front put into their extensions), and its `meta`.
///
/// ```
/// use rmcp::service::{RequestContext, RoleServer};
/// use skills_edge_rmcp::{Config, ScopesHook, SkillsHandler};
/// # use skills_edge::catalog::{compile::SourceTree, Catalog};
/// # let mut tree = SourceTree::default();
/// # tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n# Hello\n");
/// # let catalog = std::sync::Arc::new(Catalog::compile(tree, None).unwrap());
/// /// What the authentication layer in front verified, put into the request's extensions.
/// #[derive(Clone)]
/// struct Verified { scopes: Vec<String> }
/// let hook: Box<ScopesHook> = Box::new(|cx: &RequestContext<RoleServer>| {
///     cx.extensions.get::<Verified>().map(|v| v.scopes.clone()).unwrap_or_default()
/// });
/// let handler = SkillsHandler::from_catalog(catalog, Config::default()).unwrap().with_scopes(hook);
/// assert!(format!("{handler:?}").contains("scopes_hook: true"));
/// ```
pub type ScopesHook = dyn Fn(&RequestContext<RoleServer>) -> Vec<String> + Send + Sync;

/// Who asks, as the handler needs it: the caller's grant and whether the negotiated protocol
/// version carries cache hints (2026-07-28 and later). [`SkillsHandler::caller`] reads it
/// from a request's context; a test or another transport can make one directly.
///
/// ```
/// use skills_edge::catalog::Grant;
/// use skills_edge_rmcp::{Caller, Config, SkillsHandler};
/// # use skills_edge::catalog::{compile::SourceTree, Catalog};
/// # let mut tree = SourceTree::default();
/// # tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n# Hello\n");
/// # let catalog = std::sync::Arc::new(Catalog::compile(tree, None).unwrap());
/// let handler = SkillsHandler::from_catalog(catalog, Config::default()).unwrap();
/// let legacy = Caller { grant: Grant::PUBLIC, modern: false };
/// assert_eq!(handler.list_skills(None, legacy).unwrap().ttl_ms, None);
/// // At 2026-07-28 a result carries the responder's cache hints.
/// let modern = Caller { modern: true, ..legacy };
/// assert_eq!(handler.list_skills(None, modern).unwrap().ttl_ms, Some(300_000));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caller {
    /// What the caller may see ([`Catalog::grant`] of its scopes).
    pub grant: Grant,
    /// Whether results carry `ttlMs` and `cacheScope` (protocol 2026-07-28 or later).
    pub modern: bool,
}

/// Who asks one of [`SkillsHandler`]'s methods: a request's context (`&RequestContext`, whose
/// caller [`SkillsHandler::caller`] reads) or a [`Caller`] made directly (a test, another
/// transport).
///
/// ```
/// use skills_edge::catalog::{compile::SourceTree, Catalog};
/// use skills_edge_rmcp::{Asker, Caller, Config, SkillsHandler};
/// let mut tree = SourceTree::default();
/// tree.add_file("billing/SKILL.md", "---\nname: billing\ndescription: Bill.\n---\n");
/// tree.add_file("skills-edge.toml", "[[access]]\nskills = [\"billing\"]\nscopes = [\"finance\"]\n");
/// let catalog = std::sync::Arc::new(Catalog::compile(tree, None).unwrap());
/// let handler = SkillsHandler::from_catalog(catalog, Config::default()).unwrap();
/// /// Another transport's caller: the scopes its own authentication verified.
/// struct Verified(Vec<String>);
/// impl Asker for Verified {
///     fn caller(&self, handler: &SkillsHandler) -> Caller {
///         Caller { grant: handler.catalog().grant(&self.0), modern: true }
///     }
/// }
/// assert_eq!(handler.list_skills(None, Verified(vec!["finance".into()])).unwrap().skills.len(), 1);
/// assert_eq!(handler.list_skills(None, Verified(vec![])).unwrap().skills.len(), 0);
/// ```
pub trait Asker {
    /// The caller, as `handler` reads it.
    fn caller(&self, handler: &SkillsHandler) -> Caller;
}

impl Asker for &RequestContext<RoleServer> {
    fn caller(&self, handler: &SkillsHandler) -> Caller {
        handler.caller(self)
    }
}

impl Asker for Caller {
    fn caller(&self, _: &SkillsHandler) -> Caller {
        *self
    }
}

/// Why a [`SkillsHandler`] could not be made.
///
/// ```
/// use skills_edge_rmcp::{Config, SetupError, SkillsHandler};
/// let e = SkillsHandler::new(b"not a pack", Config::default()).unwrap_err();
/// assert!(matches!(e, SetupError::Pack(_)));
/// assert!(e.to_string().starts_with("the embedded skills pack does not load: "), "{e}");
/// # use skills_edge::catalog::{compile::SourceTree, Catalog};
/// # let mut tree = SourceTree::default();
/// # tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n# Hello\n");
/// # let catalog = std::sync::Arc::new(Catalog::compile(tree, None).unwrap());
/// let e = SkillsHandler::from_catalog(catalog, Config { page_size: 0, ..Config::default() }).unwrap_err();
/// assert!(matches!(e, SetupError::Config(_)));
/// ```
#[derive(Debug)]
pub enum SetupError {
    /// The pack does not decode (not made by this version's compiler, or damaged).
    Pack(PackError),
    /// The responder's configuration is out of range.
    Config(ConfigError),
    /// A skill's entry, as the catalog rendered it, does not read as rmcp's `Skill` (the
    /// pack and this crate's rmcp disagree on the entry's shape).
    Entry {
        /// The skill's index in the catalog.
        index: usize,
        /// What serde said.
        reason: String,
    },
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Pack(e) => write!(
                f,
                "the embedded skills pack does not load: {e} (rebuild it with this version's \
                 skills-edge build script)"
            ),
            SetupError::Config(e) => write!(f, "{e}"),
            SetupError::Entry { index, reason } => write!(
                f,
                "the entry of skill {index} of the pack does not read as rmcp's Skill: {reason} \
                 (use the rmcp version this crate names, =3.11.0)"
            ),
        }
    }
}

impl std::error::Error for SetupError {}

/// Answers rmcp's skills and resource methods from a catalog (see the crate's
/// documentation). Cheap to share behind an `Arc`; every method takes `&self`.
///
/// ```
/// use rmcp::model::{GetSkillRequestParams, ReadResourceRequestParams};
/// use skills_edge::catalog::{compile::SourceTree, Catalog, Grant};
/// use skills_edge_rmcp::{Caller, Config, SkillsHandler};
/// let mut tree = SourceTree::default();
/// tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n# Hello\n");
/// let catalog = std::sync::Arc::new(Catalog::compile(tree, None).unwrap());
/// let handler = SkillsHandler::from_catalog(catalog, Config::default()).unwrap();
/// let who = Caller { grant: Grant::PUBLIC, modern: true }; // in a server: `&cx`
/// let list = handler.list_skills(None, who).unwrap();
/// assert_eq!(list.skills[0].uri, "skill://hello/SKILL.md");
/// let read = handler.read_resource(ReadResourceRequestParams::new("skill://hello/SKILL.md"), who).unwrap();
/// assert_eq!(read.contents.len(), 1);
/// let e = handler.get_skill(GetSkillRequestParams::new("skill://nope/SKILL.md"), who).unwrap_err();
/// assert_eq!(e.code.0, -32602);
/// ```
pub struct SkillsHandler {
    responder: Responder,
    /// Every skill's entry as rmcp's type, by catalog index, read once from the entries the
    /// catalog rendered at build time.
    skills: Vec<Skill>,
    scopes: Option<Arc<ScopesHook>>,
}

impl fmt::Debug for SkillsHandler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SkillsHandler")
            .field("skills", &self.responder.catalog().skill_count())
            .field("config", self.responder.config())
            .field("scopes_hook", &self.scopes.is_some())
            .finish()
    }
}

impl SkillsHandler {
    /// A handler over the pack a build script embedded ([`include_pack!`]) with `config`
    /// (page size, `ttlMs`, `cacheScope`; its `scopes`, `fallback` and `instructions` are not
    /// used here: scopes come from [`SkillsHandler::with_scopes`], and the server's own
    /// `get_info` says what it offers).
    pub fn new(pack: &'static [u8], config: Config) -> Result<SkillsHandler, SetupError> {
        let catalog = Catalog::from_static(pack).map_err(SetupError::Pack)?;
        SkillsHandler::from_catalog(Arc::new(catalog), config)
    }

    /// A handler over a catalog already loaded (compiled at run time, or shared).
    pub fn from_catalog(
        catalog: Arc<Catalog>,
        config: Config,
    ) -> Result<SkillsHandler, SetupError> {
        let skills = (0..catalog.skill_count())
            .map(|i| {
                let entry = catalog.skill_at(i).map_or("", |s| s.entry_json);
                serde_json::from_str::<Skill>(entry).map_err(|e| SetupError::Entry {
                    index: i,
                    reason: e.to_string(),
                })
            })
            .collect::<Result<Vec<Skill>, SetupError>>()?;
        let responder = Responder::new(catalog, config).map_err(SetupError::Config)?;
        Ok(SkillsHandler {
            responder,
            skills,
            scopes: None,
        })
    }

    /// Reads each request's scopes with `hook`. Without a hook every caller is anonymous and
    /// sees the public skills only. The hook decides who may see what, so it must read only
    /// what an authentication step in front of the server has verified (for example the
    /// claims a token validator put into the HTTP request's extensions), never a value the
    /// client sends unchecked.
    pub fn with_scopes(
        mut self,
        hook: impl Fn(&RequestContext<RoleServer>) -> Vec<String> + Send + Sync + 'static,
    ) -> SkillsHandler {
        self.scopes = Some(Arc::new(hook));
        self
    }

    /// The catalog served.
    pub fn catalog(&self) -> &Catalog {
        self.responder.catalog()
    }

    /// Whether `uri` is a skill file or directory this catalog could serve (its scheme is
    /// `skill://`), so a server with resources of its own knows which reads to hand over.
    /// Says nothing about whether it exists or who may see it.
    pub fn claims(uri: &str) -> bool {
        uri.starts_with("skill://")
    }

    /// The caller of the request `cx` belongs to: its scopes from the hook, as a grant, and
    /// whether its protocol version carries cache hints.
    pub fn caller(&self, cx: &RequestContext<RoleServer>) -> Caller {
        let grant = match &self.scopes {
            Some(hook) if self.catalog().has_private() => self.catalog().grant(&hook(cx)),
            _ => Grant::PUBLIC,
        };
        let modern = cx
            .protocol_version()
            .is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str());
        Caller { grant, modern }
    }

    /// `skills/list`: one page of the skills the caller sees.
    /// `who` is the request's context (`&cx`: its caller as [`SkillsHandler::caller`] reads
    /// it) or a [`Caller`].
    pub fn list_skills(
        &self,
        request: Option<PaginatedRequestParams>,
        who: impl Asker,
    ) -> Result<ListSkillsResult, ErrorData> {
        let caller = who.caller(self);
        let cursor = request.and_then(|r| r.cursor);
        let page = self
            .responder
            .skills_page(cursor.as_deref(), caller.grant)
            .map_err(refusal)?;
        let skills = page
            .skills
            .iter()
            .map(|&i| self.entry(i))
            .collect::<Result<Vec<Skill>, ErrorData>>()?;
        let mut r = ListSkillsResult::with_all_items(skills);
        r.next_cursor = page.next_cursor;
        r.result_type = Some(ResultType::COMPLETE);
        (r.ttl_ms, r.cache_scope) = self.hints(caller);
        Ok(r)
    }

    /// `skills/get`: the entry of one skill; `-32602` when the caller sees no skill there.
    /// `who` is the request's context (`&cx`: its caller as [`SkillsHandler::caller`] reads
    /// it) or a [`Caller`].
    pub fn get_skill(
        &self,
        request: GetSkillRequestParams,
        who: impl Asker,
    ) -> Result<GetSkillResult, ErrorData> {
        let caller = who.caller(self);
        let i = self
            .responder
            .skill_for(&request.uri, caller.grant)
            .map_err(refusal)?;
        let mut r = GetSkillResult::new(self.entry(i)?);
        (r.ttl_ms, r.cache_scope) = self.hints(caller);
        Ok(r)
    }

    /// `resources/directory/read`: one page of a directory's children; `-32602` when the
    /// caller sees no directory there.
    /// `who` is the request's context (`&cx`: its caller as [`SkillsHandler::caller`] reads
    /// it) or a [`Caller`].
    pub fn read_resource_directory(
        &self,
        request: ReadResourceDirectoryRequestParams,
        who: impl Asker,
    ) -> Result<ReadResourceDirectoryResult, ErrorData> {
        let caller = who.caller(self);
        let mut r: ReadResourceDirectoryResult = self.answer(
            "resources/directory/read",
            Some(&request.uri),
            request.cursor.as_deref(),
            caller,
        )?;
        r.result_type = Some(ResultType::COMPLETE);
        (r.ttl_ms, r.cache_scope) = self.hints(caller);
        Ok(r)
    }

    /// `resources/list`: one page of the `SKILL.md` of every skill the caller sees. A server
    /// with resources of its own lists them after the skills' last page (or serves the
    /// skills' pages alone, as the example does).
    /// `who` is the request's context (`&cx`: its caller as [`SkillsHandler::caller`] reads
    /// it) or a [`Caller`].
    pub fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        who: impl Asker,
    ) -> Result<ListResourcesResult, ErrorData> {
        let caller = who.caller(self);
        let cursor = request.and_then(|r| r.cursor);
        let mut r: ListResourcesResult =
            self.answer("resources/list", None, cursor.as_deref(), caller)?;
        r.result_type = Some(ResultType::COMPLETE);
        (r.ttl_ms, r.cache_scope) = self.hints(caller);
        Ok(r)
    }

    /// `resources/templates/list`: the one template of skill files, `skill://{+path}`.
    /// `who` is the request's context (`&cx`: its caller as [`SkillsHandler::caller`] reads
    /// it) or a [`Caller`].
    pub fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        who: impl Asker,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let caller = who.caller(self);
        let cursor = request.and_then(|r| r.cursor);
        let mut r: ListResourceTemplatesResult =
            self.answer("resources/templates/list", None, cursor.as_deref(), caller)?;
        r.result_type = Some(ResultType::COMPLETE);
        (r.ttl_ms, r.cache_scope) = self.hints(caller);
        Ok(r)
    }

    /// `resources/read` of a skill file; `-32602` when the caller sees no file there.
    /// `who` is the request's context (`&cx`: its caller as [`SkillsHandler::caller`] reads
    /// it) or a [`Caller`].
    pub fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        who: impl Asker,
    ) -> Result<ReadResourceResult, ErrorData> {
        let caller = who.caller(self);
        let file = self
            .responder
            .file_for(&request.uri, caller.grant)
            .map_err(refusal)?;
        let contents = match (file.text(), file.bytes()) {
            (Some(text), _) => ResourceContents::text(text, file.uri),
            (None, Some(bytes)) => ResourceContents::blob(BASE64.encode(bytes), file.uri),
            // The Worker's packs keep large files outside, as assets; this server has none.
            (None, None) => {
                return Err(internal(
                    "resources/read",
                    &format!(
                        "the bytes of {} are kept outside this pack, as an asset, which this \
                         server cannot read; embed a pack made with every file inside",
                        file.uri
                    ),
                ))
            }
        };
        let mut r = ReadResourceResult::new(vec![contents.with_mime_type(file.mime)]);
        (r.ttl_ms, r.cache_scope) = self.hints(caller);
        Ok(r)
    }

    /// The entry of the skill at catalog index `i`, as rmcp's type.
    fn entry(&self, i: usize) -> Result<Skill, ErrorData> {
        self.skills
            .get(i)
            .cloned()
            .ok_or_else(|| internal("skills", &format!("the catalog has no skill {i}")))
    }

    /// The cache hints of a result for `caller`: the responder's, at 2026-07-28 only.
    fn hints(&self, caller: Caller) -> (Option<u64>, Option<RmcpCacheScope>) {
        if !caller.modern {
            return (None, None);
        }
        let (ttl, scope) = self.responder.cache_hints(caller.grant);
        let scope = match scope {
            CacheScope::Public => RmcpCacheScope::Public,
            CacheScope::Private => RmcpCacheScope::Private,
        };
        (Some(ttl), Some(scope))
    }

    /// Asks the responder `method` (the 2025-11-25 form: no `_meta`) with `uri` and `cursor`
    /// for `caller`, and reads its result as `T`, or its error as rmcp's error.
    fn answer<T: DeserializeOwned>(
        &self,
        method: &str,
        uri: Option<&str>,
        cursor: Option<&str>,
        caller: Caller,
    ) -> Result<T, ErrorData> {
        let message = request(method, uri, cursor);
        let reply = self
            .responder
            .respond(&message, &Transport::Stream, caller.grant);
        read_reply(method, reply)
    }
}

/// The JSON-RPC request the responder reads: `{"jsonrpc":"2.0","id":0,"method":…,"params":
/// {"uri":…,"cursor":…}}`.
fn request(method: &str, uri: Option<&str>, cursor: Option<&str>) -> Vec<u8> {
    let mut params = serde_json::Map::new();
    if let Some(u) = uri {
        params.insert("uri".into(), u.into());
    }
    if let Some(c) = cursor {
        params.insert("cursor".into(), c.into());
    }
    let message = serde_json::json!({
        "jsonrpc": "2.0",
        "id": 0,
        "method": method,
        "params": params,
    });
    // A Value with string keys always serializes.
    serde_json::to_vec(&message).unwrap_or_default()
}

/// A JSON-RPC response as the responder writes it.
#[derive(Deserialize)]
struct Envelope<T> {
    result: Option<T>,
    error: Option<ErrorData>,
}

/// The responder's error object as rmcp's error: the same code, message and `data`.
fn refusal(e: ErrorObject) -> ErrorData {
    serde_json::from_str(e.as_json()).unwrap_or_else(|err| {
        internal(
            "a refusal",
            &format!("the responder's error object does not read as rmcp's: {err}"),
        )
    })
}

fn read_reply<T: DeserializeOwned>(method: &str, reply: Reply) -> Result<T, ErrorData> {
    // A file kept outside the pack as an asset (the Worker's packs only) cannot be served
    // from here: its fault reply, which names the file, is the answer.
    let body = match reply.splice {
        Some(splice) => splice.fault.body,
        None => reply.body,
    };
    let Some(body) = body else {
        return Err(internal(method, "the responder sent no reply"));
    };
    match serde_json::from_slice::<Envelope<T>>(&body) {
        Ok(Envelope {
            error: Some(error), ..
        }) => Err(error),
        Ok(Envelope {
            result: Some(result),
            ..
        }) => Ok(result),
        Ok(_) => Err(internal(
            method,
            "the reply has neither a result nor an error",
        )),
        Err(e) => Err(internal(
            method,
            &format!("the reply does not read as rmcp's result type: {e}"),
        )),
    }
}

fn internal(method: &str, what: &str) -> ErrorData {
    ErrorData::new(
        ErrorCode::INTERNAL_ERROR,
        format!("Internal error in {method}: {what} (a fault of this server, not of the request)"),
        None,
    )
}
