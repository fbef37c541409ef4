//! The responder: one JSON-RPC message and the facts of its transport in, one reply (JSON
//! bytes or nothing, plus the HTTP status a transport should use) out. No I/O, no clocks, no
//! hashing, no YAML: replies are assembled from fragments the catalog compiler rendered at
//! build time, so the work is proportional to the reply.
//!
//! Both protocol eras are served on one endpoint, statelessly:
//! * a request whose `params._meta` carries `io.modelcontextprotocol/protocolVersion`, or
//!   that arrives over HTTP with a non-legacy `MCP-Protocol-Version` header, follows
//!   2026-07-28 (`server/discover`, required `_meta`, `resultType`, cache hints);
//! * anything else follows 2025-11-25 (`initialize`, `ping`, no 2026-only fields). No session
//!   is kept: `initialize` only negotiates the version, and every request stands alone.
//!
//! The methods are those of the Skills extension and the resources they rest on (`methods`).
//! With the opt-in tools and prompts fallback ([`Config::fallback`], off by default) the same
//! catalog is also served as `tools/list`, `tools/call`, `prompts/list` and `prompts/get`
//! (`fallback`), for clients without the extension; off, those methods are `-32601`.

/// What a caller may see (re-exported from the catalog, where it is defined).
pub use crate::access::Grant;
use crate::protocol::envelope::check_meta;
pub use crate::protocol::headers::HttpHeaders;
use crate::protocol::headers::{
    check_method_headers, check_version_header, era_of, require_version_header,
};
use crate::protocol::reply::{envelope, result_envelope, Outcome};
use crate::protocol::{
    parse_message, CacheScope, Era, Incoming, Params, RawId, RpcError, META_SERVER_INFO,
    MODERN_VERSIONS,
};
use crate::skill::value::write_json_string;
use crate::view::Catalog;
use crate::view::FileView;
use std::sync::Arc;

mod arguments;
mod config;
mod fallback;
mod methods;
mod paging;
mod search;
mod table;

pub use config::{Config, ConfigError, Fallback, SettingKey};
pub(crate) use config::{DEFAULT_SERVER_NAME, DEFAULT_SERVER_VERSION, MAX_PAGE_SIZE, MAX_TTL_MS};
#[cfg(feature = "js")]
pub(crate) use methods::Served;

/// What the transport knows about a message beyond its bytes.
///
/// ```
/// use skills_edge::server::{Config, Grant, HttpHeaders, Responder, Transport};
/// let responder = Responder::new(skills_edge::embedded::catalog().unwrap(), Config::default()).unwrap();
/// let list = br#"{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{"_meta":{
///     "io.modelcontextprotocol/protocolVersion":"2026-07-28",
///     "io.modelcontextprotocol/clientCapabilities":{}}}}"#;
/// assert_eq!(responder.respond(list, &Transport::Stream, Grant::PUBLIC).status, 200);
/// // Over HTTP, a 2026-07-28 request must repeat its version in `MCP-Protocol-Version`.
/// let http = Transport::Http(HttpHeaders::default());
/// assert_eq!(responder.respond(list, &http, Grant::PUBLIC).status, 400);
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub enum Transport<'a> {
    /// A message stream without headers: stdio, an in-page call, a component call.
    #[default]
    Stream,
    /// Streamable HTTP: the MCP headers of the POST (raw values, `None` when absent).
    Http(HttpHeaders<'a>),
}

impl<'a> Transport<'a> {
    /// The MCP headers, over HTTP.
    fn headers(&self) -> Option<&HttpHeaders<'a>> {
        match self {
            Transport::Http(h) => Some(h),
            Transport::Stream => None,
        }
    }
}

/// One page of `skills/list` as data ([`Responder::skills_page`]).
///
/// ```
/// use skills_edge::server::{Config, Grant, Responder};
/// let config = Config { page_size: 1, ..Config::default() };
/// let responder = Responder::new(skills_edge::embedded::catalog().unwrap(), config).unwrap();
/// let first = responder.skills_page(None, Grant::PUBLIC).unwrap();
/// assert_eq!(first.skills, [0]);
/// let next = responder.skills_page(first.next_cursor.as_deref(), Grant::PUBLIC).unwrap();
/// assert_eq!(next.skills, [1]);
/// let uri = responder.catalog().skill_at(next.skills[0]).unwrap().uri;
/// assert!(uri.ends_with("/SKILL.md"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillsPage {
    /// The skills of the page, by their index in the catalog, in list order.
    pub skills: Vec<usize>,
    /// The cursor of the next page, when one follows.
    pub next_cursor: Option<String>,
}

/// An error the responder sends, as its JSON-RPC error object
/// (`{"code":…,"message":…,"data":…}`), exactly as in a reply.
///
/// ```
/// use skills_edge::server::{Config, Grant, Responder};
/// let responder = Responder::new(skills_edge::embedded::catalog().unwrap(), Config::default()).unwrap();
/// let e = responder.skill_for("skill://no-such-skill/SKILL.md", Grant::PUBLIC).unwrap_err();
/// assert!(e.as_json().starts_with(r#"{"code":-32602,"#), "{}", e.as_json());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorObject(String);

impl ErrorObject {
    /// The error object's JSON text.
    pub fn as_json(&self) -> &str {
        &self.0
    }
}

impl From<RpcError> for ErrorObject {
    fn from(err: RpcError) -> ErrorObject {
        let mut json = String::new();
        err.write_json(&mut json);
        ErrorObject(json)
    }
}

/// The reply to one message.
///
/// ```
/// use skills_edge::server::{Config, Grant, Responder, Transport};
/// let responder = Responder::new(skills_edge::embedded::catalog().unwrap(), Config::default()).unwrap();
/// let reply = responder.respond(br#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#, &Transport::Stream, Grant::PUBLIC);
/// assert_eq!((reply.status, reply.body_str()), (200, r#"{"jsonrpc":"2.0","id":7,"result":{}}"#));
/// assert!(reply.splice.is_none());
/// // A method that does not exist: status 404, and a JSON-RPC error as the body.
/// let reply = responder.respond(br#"{"jsonrpc":"2.0","id":8,"method":"nope"}"#, &Transport::Stream, Grant::PUBLIC);
/// assert_eq!(reply.status, 404);
/// assert!(reply.body_str().contains(r#""code":-32601"#));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// The HTTP status a transport should use (202 when there is no body).
    pub status: u16,
    /// The reply (a JSON-RPC response object), or `None` for notifications and responses. With a
    /// [`Reply::splice`], only its beginning.
    pub body: Option<Vec<u8>>,
    /// Set only when the catalog keeps a file's bytes outside the pack, as assets (the
    /// Cloudflare Worker's large files): the reply is [`Reply::body`], then the asset, then
    /// [`Splice::tail`]; its [`Splice::fault`] is a `-32603` error reply naming the file's URI.
    pub splice: Option<Box<Splice<Reply>>>,
}

/// The rest of what is sent when its middle is an asset (see `crate::pack`): the
/// adapter fetches the asset and checks its length before sending anything; if the asset is
/// missing or has another length it sends [`Splice::fault`] instead, so wrong bytes are never
/// served. No hashing is needed per request: an asset is named by its content's digest, and
/// its length was recorded when the pack was made.
///
/// One idea on both sides: the responder's [`Reply`] carries a `Splice<Reply>`, the HTTP
/// endpoint's [`crate::http::Response`] a `Splice<Response>` (the same asset, its fault framed
/// as an HTTP response).
///
/// ```
/// use skills_edge::catalog::Catalog;
/// use skills_edge::server::{Config, Grant, Responder, Transport};
/// # use skills_edge::catalog::{compile::{compile, SourceTree}, pack};
/// # use std::sync::Arc;
/// # let mut tree = SourceTree::default();
/// # tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n# Hello\n");
/// # let options = pack::PackOptions { assets: Some(pack::AssetPolicy { inline_max: 0 }), ..Default::default() };
/// # let packed = pack::encode_with(&compile(tree).unwrap(), &options);
/// // `packed`: what `skills-edge pack --assets DIR --inline-max 0` writes: the pack, and every
/// // file larger than 0 bytes left out of it as an asset.
/// let catalog = Arc::new(Catalog::from_bytes(packed.pack).unwrap());
/// let responder = Responder::new(catalog, Config::default()).unwrap();
/// let reply = responder.respond(br#"{"jsonrpc":"2.0","id":1,"method":"resources/read",
///     "params":{"uri":"skill://hello/SKILL.md"}}"#, &Transport::Stream, Grant::PUBLIC);
/// let splice = reply.splice.unwrap();
/// let asset = packed.assets.iter().find(|a| a.name == splice.asset).unwrap();
/// assert_eq!(splice.len, asset.bytes.len() as u64);
/// assert!(splice.fault.body_str().contains("-32603"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Splice<Fault> {
    /// The asset's name (`crate::pack::rendered_asset_name` or
    /// `crate::pack::raw_asset_name`).
    pub asset: String,
    /// The asset's length in bytes.
    pub len: u64,
    /// What follows the asset.
    pub tail: Vec<u8>,
    /// The whole answer to send instead when the asset is missing or has another length.
    pub fault: Fault,
}

impl Reply {
    fn none() -> Reply {
        Reply {
            status: 202,
            body: None,
            splice: None,
        }
    }

    /// The body as text (`""` when there is none).
    pub fn body_str(&self) -> &str {
        self.body
            .as_deref()
            .and_then(|b| std::str::from_utf8(b).ok())
            .unwrap_or("")
    }
}

/// The responder. Cheap to share; holds the catalog and the rendered constant parts of replies.
///
/// ```
/// use skills_edge::catalog::{compile::SourceTree, Catalog};
/// use skills_edge::server::{Config, Grant, Responder, Transport};
/// use std::sync::Arc;
/// let mut tree = SourceTree::default();
/// tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n# Hello\n");
/// let catalog = Arc::new(Catalog::compile(tree, None).unwrap());
/// let responder = Responder::new(catalog, Config { page_size: 10, ..Config::default() }).unwrap();
/// // A legacy (2025-11-25) request: no `_meta`.
/// let reply = responder.respond(
///     br#"{"jsonrpc":"2.0","id":"r","method":"resources/read","params":{"uri":"skill://hello/SKILL.md"}}"#,
///     &Transport::Stream,
///     Grant::PUBLIC,
/// );
/// assert_eq!(reply.status, 200);
/// assert!(reply.body_str().contains(r#""text":"---\nname: hello"#));
/// // A notification gets no reply.
/// let none = responder.respond(
///     br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
///     &Transport::Stream,
///     Grant::PUBLIC,
/// );
/// assert_eq!((none.status, none.body), (202, None));
/// ```
pub struct Responder {
    pub(super) catalog: Arc<Catalog>,
    pub(super) config: Config,
    /// `,"ttlMs":…,"cacheScope":…,"_meta":{…}}` closing a cacheable modern result.
    tail_cacheable: String,
    /// The same with `"cacheScope":"private"`: for a caller with a grant, in a catalog with
    /// private skills (its answers depend on who asks).
    tail_private: String,
    /// `,"_meta":{…}}` closing a modern result that is not cacheable (`tools/call`,
    /// `prompts/get`).
    tail_meta: String,
    /// `"capabilities":{…}` plus `,"instructions":…` when there are instructions.
    capabilities: String,
    /// `"capabilities":{…}` alone, and the fallback's lines: a caller's own instructions
    /// follow them (a catalog with private skills and its default instructions).
    capabilities_base: String,
    fallback_lines: String,
    /// `{"name":…,"version":…}`.
    server_info: String,
}

impl Responder {
    /// A responder over `catalog` with `config` (validated).
    pub fn new(catalog: Arc<Catalog>, config: Config) -> Result<Responder, ConfigError> {
        config.validate()?;
        let (name, version) = match &config.server_info {
            Some((n, v)) => (n.as_str(), v.as_str()),
            None => (DEFAULT_SERVER_NAME, DEFAULT_SERVER_VERSION),
        };
        let mut server_info = String::from("{\"name\":");
        write_json_string(name, &mut server_info);
        server_info.push_str(",\"version\":");
        write_json_string(version, &mut server_info);
        server_info.push('}');
        let mut meta = String::from(",\"_meta\":{");
        write_json_string(META_SERVER_INFO, &mut meta);
        meta.push(':');
        meta.push_str(&server_info);
        meta.push('}');
        let tail = |scope: CacheScope| {
            format!(
                ",\"ttlMs\":{},\"cacheScope\":\"{}\"{meta}}}",
                config.ttl_ms,
                scope.as_str()
            )
        };
        let tail_cacheable = tail(config.cache_scope);
        let tail_private = tail(CacheScope::Private);
        let tail_meta = format!("{meta}}}");
        let fallback = config.fallback;
        let fallback_lines = match catalog.fallback() {
            Some(f) => f.instructions(fallback.tools, fallback.prompts),
            None if fallback.is_on() => return Err(ConfigError::field(
                SettingKey::Fallback,
                "fallback",
                fallback.as_str(),
                "it needs a pack with the fallback sections, and this pack was made without them",
                "rebuild it with this version (`skills-edge pack`), or leave the fallback off",
            )),
            None => "",
        };
        if fallback.search && !catalog.has_search() {
            return Err(ConfigError::field(
                SettingKey::Fallback,
                "fallback",
                fallback.as_str(),
                "`search` needs a pack with a search index, and this pack was made without one",
                "rebuild it with this version (`skills-edge pack`), or leave `search` out",
            ));
        }
        let mut ci = table::declared_capabilities(fallback);
        let capabilities_base = ci.clone();
        // Settings-given instructions are sent as given; the catalog's own start with how to
        // use the fallback when it is on, so clients that keep only the first 2,048
        // characters still have those lines.
        let instructions = match &config.instructions {
            Some(s) => std::borrow::Cow::Borrowed(s.as_str()),
            None => join_instructions(fallback_lines, &catalog.instructions(Grant::PUBLIC)).into(),
        };
        let fallback_lines = fallback_lines.to_owned();
        push_instructions(&mut ci, &instructions);
        Ok(Responder {
            catalog,
            config,
            tail_cacheable,
            tail_private,
            tail_meta,
            capabilities: ci,
            capabilities_base,
            fallback_lines,
            server_info,
        })
    }

    /// `"capabilities":{…}` and the instructions for a caller with `grant`: the ones made
    /// with the responder, unless the catalog assembles its default instructions per caller
    /// (a catalog with private skills) and the caller has a grant.
    fn capabilities_for(&self, grant: Grant) -> std::borrow::Cow<'_, str> {
        if grant.is_public() || self.config.instructions.is_some() {
            return self.capabilities.as_str().into();
        }
        let std::borrow::Cow::Owned(own) = self.catalog.instructions(grant) else {
            return self.capabilities.as_str().into();
        };
        let mut ci = self.capabilities_base.clone();
        push_instructions(&mut ci, &join_instructions(&self.fallback_lines, &own));
        ci.into()
    }

    /// The cache hints of a cacheable 2026-07-28 result for a caller with `grant`: the
    /// configured `ttlMs`, and the configured `cacheScope`, or `private` for a caller with a
    /// grant in a catalog with private skills (its answers depend on who asks). The replies
    /// of [`Responder::respond`] carry these; an adapter that builds its results from the
    /// 2025-11-25 form of a reply (an SDK's own result types) adds them with this.
    pub fn cache_hints(&self, grant: Grant) -> (u64, CacheScope) {
        if self.catalog.has_private() && !grant.is_public() {
            (self.config.ttl_ms, CacheScope::Private)
        } else {
            (self.config.ttl_ms, self.config.cache_scope)
        }
    }

    /// The grant the answers follow: `grant`, or [`Grant::PUBLIC`] in a catalog without
    /// private skills (where every caller gets the same answers).
    fn in_force(&self, grant: Grant) -> Grant {
        if self.catalog.has_private() {
            grant
        } else {
            Grant::PUBLIC
        }
    }

    /// One page of `skills/list` for a caller with `grant`, as data: the skills' indices in
    /// the catalog and the next page's cursor, from the same cursors, pages and predicate as
    /// [`Responder::respond`] (a cursor is the one a `skills/list` reply carries). For an
    /// adapter that builds an SDK's own result types from the catalog's entries
    /// ([`Catalog::skill_at`]); the error is the one `respond` would send.
    pub fn skills_page(
        &self,
        cursor: Option<&str>,
        grant: Grant,
    ) -> Result<SkillsPage, ErrorObject> {
        let g = self.in_force(grant);
        let start = self
            .skill_cursor(cursor, paging::ListKind::Skills, g)
            .map_err(ErrorObject::from)?;
        let (skills, next_cursor) = self.skill_page_at(start, paging::ListKind::Skills, g);
        Ok(SkillsPage {
            skills,
            next_cursor,
        })
    }

    /// `skills/get` for a caller with `grant`, as data: the index of the skill whose
    /// `SKILL.md` is `uri`, or the error [`Responder::respond`] would send (the same for a
    /// skill the grant does not see as for one that does not exist).
    pub fn skill_for(&self, uri: &str, grant: Grant) -> Result<usize, ErrorObject> {
        self.visible_skill(uri, self.in_force(grant))
            .map_err(ErrorObject::from)
    }

    /// `resources/read` for a caller with `grant`, as data: the file at `uri`, or the error
    /// [`Responder::respond`] would send (the same for a file the grant does not see as for
    /// one that does not exist). Its content goes out as [`FileView::text`] when that is
    /// `Some`, otherwise as the base64 of its bytes.
    pub fn file_for(&self, uri: &str, grant: Grant) -> Result<FileView<'_>, ErrorObject> {
        self.visible_file_or_error(uri, self.in_force(grant))
            .map_err(ErrorObject::from)
    }

    /// The catalog served.
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// The settings in force.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Answers one message from a caller with `grant` ([`Grant::PUBLIC`] for an anonymous
    /// caller: the public skills only; [`Catalog::grant`] of the scopes a token carries
    /// otherwise). Every surface applies the one predicate `Catalog::skill_visible`: a
    /// skill the grant does not see is answered exactly as one that does not exist. In a
    /// catalog without private skills every grant is [`Grant::PUBLIC`] and the replies are
    /// the same byte for byte.
    pub fn respond(&self, message: &[u8], transport: &Transport<'_>, grant: Grant) -> Reply {
        let g = self.in_force(grant);
        let (id, method, params_raw) = match parse_message(message) {
            Ok(Incoming::Request { id, method, params }) => (id, method, params),
            Ok(Incoming::Notification) | Ok(Incoming::Response) => return Reply::none(),
            Err((id, err)) => return error_reply(id, &err),
        };
        let params = Params::parse(params_raw);
        let era = era_of(params.as_ref().ok(), transport.headers());
        let result = match era {
            Era::Modern => self.modern(&method, params, transport, g),
            Era::Legacy => params
                .map_err(RpcError::InvalidParams)
                .and_then(|p| self.legacy(&method, &p, g)),
        };
        match result {
            Ok(Rendered::Whole(body)) => Reply {
                status: 200,
                body: Some(envelope(Some(id), Outcome::Result(&body))),
                splice: None,
            },
            Ok(Rendered::Split(s)) => {
                let (open, close) = result_envelope(id);
                Reply {
                    status: 200,
                    body: Some([open.as_bytes(), s.head.as_bytes()].concat()),
                    splice: Some(Box::new(Splice {
                        asset: s.asset,
                        len: s.len,
                        tail: [s.tail.as_bytes(), close.as_bytes()].concat(),
                        fault: error_reply(Some(id), &RpcError::AssetFault { uri: s.uri }),
                    })),
                }
            }
            Err(err) => error_reply(Some(id), &err),
        }
    }

    fn modern(
        &self,
        method: &str,
        params: Result<Params<'_>, String>,
        transport: &Transport<'_>,
        g: Grant,
    ) -> Result<Rendered, RpcError> {
        let headers = transport.headers();
        if let Some(h) = headers {
            require_version_header(h)?;
        }
        let params = params.map_err(RpcError::InvalidEnvelope)?;
        let version = check_meta(&params)?;
        if let Some(h) = headers {
            check_version_header(h, &version)?;
        }
        if !MODERN_VERSIONS.contains(&version.as_ref()) {
            return Err(RpcError::UnsupportedVersion {
                requested: version.into_owned(),
                supported: MODERN_VERSIONS,
            });
        }
        let row = self.method(method, true);
        if let Some(h) = headers {
            check_method_headers(h, method, row.and_then(|m| m.named_field(&params)))?;
        }
        let Some(row) = row else {
            return Err(RpcError::MethodNotFound {
                method: method.to_owned(),
                hint: table::REMOVED_IN_MODERN
                    .contains(&method)
                    .then_some("removed in protocol revision 2026-07-28; use server/discover"),
            });
        };
        // A caller with a grant gets answers made for it: `cacheScope` private.
        let tail = match (row.cacheable, g.is_public()) {
            (false, _) => &self.tail_meta,
            (true, true) => &self.tail_cacheable,
            (true, false) => &self.tail_private,
        };
        (row.run)(self, &params, true, g).map(|body| body.close(tail))
    }

    fn legacy(&self, method: &str, params: &Params<'_>, g: Grant) -> Result<Rendered, RpcError> {
        match self.method(method, false) {
            Some(row) => (row.run)(self, params, false, g).map(|body| body.close("}")),
            None => Err(not_found(method)),
        }
    }
}

/// The instructions: the fallback's lines, then the catalog's (either may be empty).
fn join_instructions(fallback_lines: &str, catalog: &str) -> String {
    match (fallback_lines.is_empty(), catalog.is_empty()) {
        (true, _) => catalog.to_owned(),
        (false, true) => fallback_lines.to_owned(),
        (false, false) => format!("{fallback_lines}\n\n{catalog}"),
    }
}

/// Appends `,"instructions":…` when there are instructions.
fn push_instructions(ci: &mut String, instructions: &str) {
    if !instructions.is_empty() {
        ci.push_str(",\"instructions\":");
        write_json_string(instructions, ci);
    }
}

fn not_found(method: &str) -> RpcError {
    RpcError::MethodNotFound {
        method: method.to_owned(),
        hint: None,
    }
}

/// An error reply (without `id` when the request's id could not be read; see
/// [`crate::protocol::reply`]).
fn error_reply(id: Option<RawId<'_>>, err: &RpcError) -> Reply {
    Reply {
        status: err.http_status(),
        body: Some(envelope(id, Outcome::Error(err))),
        splice: None,
    }
}

/// A result as a method renders it: whole, or split around the content of a file whose bytes
/// are an asset.
pub(super) enum Rendered {
    /// The whole result.
    Whole(String),
    /// The result up to the asset, the asset, and the rest.
    Split(Split),
}

/// A result split around an asset (see [`Splice`]).
pub(super) struct Split {
    /// The result before the asset.
    pub(super) head: String,
    /// The asset's name.
    pub(super) asset: String,
    /// Its expected length.
    pub(super) len: u64,
    /// The URI of the file it holds.
    pub(super) uri: String,
    /// The result after the asset.
    pub(super) tail: String,
}

impl From<String> for Rendered {
    fn from(body: String) -> Rendered {
        Rendered::Whole(body)
    }
}

impl Rendered {
    /// Appends the closing part of a result (its cache hints and `_meta`, or `}`).
    fn close(self, tail: &str) -> Rendered {
        match self {
            Rendered::Whole(mut b) => {
                b.push_str(tail);
                Rendered::Whole(b)
            }
            Rendered::Split(mut s) => {
                s.tail.push_str(tail);
                Rendered::Split(s)
            }
        }
    }
}
