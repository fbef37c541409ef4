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

use crate::base64;
use crate::catalog::Catalog;
use crate::protocol::envelope::{raw_str, Meta};
pub use crate::protocol::headers::HttpHeaders;
use crate::protocol::headers::{
    check_method_headers, check_version_header, era_of, require_version_header,
};
use crate::protocol::reply::{envelope, Outcome};
use crate::protocol::{
    parse_message, Era, Incoming, Params, RawId, RpcError, LEGACY_VERSIONS, META_SERVER_INFO,
    MODERN_VERSIONS, SKILLS_EXTENSION,
};
use crate::skill::value::write_json_string;
use std::borrow::Cow;
use std::sync::Arc;

/// The name this server reports in `serverInfo`.
pub const SERVER_NAME: &str = "skills-edge";
/// The version this server reports in `serverInfo`.
pub const SERVER_VERSION: &str = env!("CARGO_PKG_VERSION");

/// `cacheScope` of cacheable results.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheScope {
    /// Any cache may share the result (the embedded catalog is the same for every caller).
    Public,
    /// Only the requesting client may cache it (use when content depends on authorization).
    Private,
}

impl CacheScope {
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            CacheScope::Public => "public",
            CacheScope::Private => "private",
        }
    }

    /// Parses `"public"` or `"private"`.
    pub fn parse(s: &str) -> Option<CacheScope> {
        match s {
            "public" => Some(CacheScope::Public),
            "private" => Some(CacheScope::Private),
            _ => None,
        }
    }
}

/// Largest page size accepted.
pub const MAX_PAGE_SIZE: usize = 1000;

/// Largest `ttlMs` accepted: 2^53 − 1, the largest integer every JSON reader keeps exactly.
pub const MAX_TTL_MS: u64 = crate::skill::value::MAX_SAFE_INTEGER as u64;

/// Responder settings. Defaults: 50 items per page, `ttlMs` 300000 (five minutes),
/// `cacheScope` `"public"` (a static, embedded catalog is the same for everyone; open point
/// A17), instructions generated from the catalog (they name every skill's URI).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// Items per page of `skills/list`, `resources/list` and `resources/directory/read`
    /// (1–1000).
    pub page_size: usize,
    /// `ttlMs` of cacheable results (0 to 2^53 − 1).
    pub ttl_ms: u64,
    /// `cacheScope` of cacheable results.
    pub cache_scope: CacheScope,
    /// Server instructions; `None` uses the catalog's own, `Some("")` sends none.
    pub instructions: Option<String>,
    /// The server identity sent in `serverInfo` (`initialize`) and in every 2026-07-28
    /// result's `_meta`: `(name, version)`. `None` is skills-edge and this crate's version;
    /// a server that embeds the responder next to its own methods names itself here.
    pub server_info: Option<(String, String)>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            page_size: 50,
            ttl_ms: 300_000,
            cache_scope: CacheScope::Public,
            instructions: None,
            server_info: None,
        }
    }
}

/// A setting out of range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

impl Config {
    /// Checks every setting; the message names the setting, the value and the allowed range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(1..=MAX_PAGE_SIZE).contains(&self.page_size) {
            return Err(ConfigError(format!(
                "page size {} is out of range: use 1 to {MAX_PAGE_SIZE}",
                self.page_size
            )));
        }
        if self.ttl_ms > MAX_TTL_MS {
            return Err(ConfigError(format!(
                "ttlMs {} is out of range: use 0 to 9007199254740991",
                self.ttl_ms
            )));
        }
        if let Some((name, version)) = &self.server_info {
            if name.is_empty() || version.is_empty() {
                return Err(ConfigError(format!(
                    "serverInfo needs a non-empty name and version, got {name:?} and {version:?}"
                )));
            }
        }
        Ok(())
    }
}

/// What the transport knows about a message beyond its bytes.
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

/// The reply to one message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// The HTTP status a transport should use (202 when there is no body).
    pub status: u16,
    /// The JSON-RPC response, or `None` for notifications and responses.
    pub body: Option<Vec<u8>>,
}

impl Reply {
    fn none() -> Reply {
        Reply {
            status: 202,
            body: None,
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
pub struct Responder {
    catalog: Arc<Catalog>,
    config: Config,
    /// `,"ttlMs":…,"cacheScope":…,"_meta":{…}}` closing a cacheable modern result.
    tail_cacheable: String,
    /// `"capabilities":{…}` plus `,"instructions":…` when there are instructions.
    capabilities: String,
    /// `{"name":…,"version":…}`.
    server_info: String,
}

/// The list a cursor belongs to: its kind, and for directories which one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ListKind {
    Skills,
    Resources,
    Templates,
    /// A directory, by its index in the catalog.
    Directory(u32),
}

impl ListKind {
    /// (tag, scope) as written into a cursor.
    fn key(self) -> (u8, u32) {
        match self {
            ListKind::Skills => (1, 0),
            ListKind::Resources => (2, 0),
            ListKind::Templates => (4, 0),
            ListKind::Directory(i) => (3, i),
        }
    }
}

const CURSOR_VERSION: u8 = 1;

impl Responder {
    /// A responder over `catalog` with `config` (validated).
    pub fn new(catalog: Arc<Catalog>, config: Config) -> Result<Responder, ConfigError> {
        config.validate()?;
        let (name, version) = match &config.server_info {
            Some((n, v)) => (n.as_str(), v.as_str()),
            None => (SERVER_NAME, SERVER_VERSION),
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
        let tail_cacheable = format!(
            ",\"ttlMs\":{},\"cacheScope\":\"{}\"{meta}}}",
            config.ttl_ms,
            config.cache_scope.as_str()
        );
        let mut ci = String::from("\"capabilities\":{\"resources\":{},\"extensions\":{");
        write_json_string(SKILLS_EXTENSION, &mut ci);
        ci.push_str(":{\"directoryRead\":true}}}");
        let instructions = match &config.instructions {
            Some(s) => s.as_str(),
            None => catalog.instructions(),
        };
        if !instructions.is_empty() {
            ci.push_str(",\"instructions\":");
            write_json_string(instructions, &mut ci);
        }
        Ok(Responder {
            catalog,
            config,
            tail_cacheable,
            capabilities: ci,
            server_info,
        })
    }

    /// The catalog served.
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// The settings in force.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Answers one message.
    pub fn respond(&self, message: &[u8], transport: &Transport<'_>) -> Reply {
        let (id, method, params_raw) = match parse_message(message) {
            Ok(Incoming::Request { id, method, params }) => (id, method, params),
            Ok(Incoming::Notification { .. }) | Ok(Incoming::Response) => return Reply::none(),
            Err((id, err)) => return error_reply(id, &err),
        };
        let params = Params::parse(params_raw);
        let era = era_of(params.as_ref().ok(), transport.headers());
        let result = match era {
            Era::Modern => self.modern(&method, params, transport),
            Era::Legacy => params
                .map_err(RpcError::InvalidParams)
                .and_then(|p| self.legacy(&method, &p)),
        };
        match result {
            Ok(body) => Reply {
                status: 200,
                body: Some(envelope(Some(id), Outcome::Result(&body))),
            },
            Err(err) => error_reply(Some(id), &err),
        }
    }

    fn modern(
        &self,
        method: &str,
        params: Result<Params<'_>, String>,
        transport: &Transport<'_>,
    ) -> Result<String, RpcError> {
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
        if let Some(h) = headers {
            check_method_headers(h, method, &params)?;
        }
        let cacheable = |body: String| body + &self.tail_cacheable;
        match method {
            "server/discover" => {
                let mut b = String::from("{\"resultType\":\"complete\",\"supportedVersions\":[");
                for (i, v) in MODERN_VERSIONS.iter().enumerate() {
                    if i > 0 {
                        b.push(',');
                    }
                    write_json_string(v, &mut b);
                }
                b.push_str("],");
                b.push_str(&self.capabilities);
                Ok(cacheable(b))
            }
            "skills/list" => self.skills_list(&params, true).map(cacheable),
            "skills/get" => self.skills_get(&params, true).map(cacheable),
            "resources/list" => self.resources_list(&params, true).map(cacheable),
            "resources/templates/list" => self.templates_list(&params, true).map(cacheable),
            "resources/read" => self.resources_read(&params, true).map(cacheable),
            // Not a CacheableResult on the stable spec page, but the official TypeScript SDK
            // (2.4) requires ttlMs and cacheScope on it at 2026-07-28 (as its server sends
            // them); clients that follow the page ignore the extra fields.
            "resources/directory/read" => self.directory_read(&params, true).map(cacheable),
            "initialize"
            | "ping"
            | "logging/setLevel"
            | "resources/subscribe"
            | "resources/unsubscribe" => Err(RpcError::MethodNotFound {
                method: method.to_owned(),
                hint: Some("removed in protocol revision 2026-07-28; use server/discover"),
            }),
            _ => Err(not_found(method)),
        }
    }

    fn legacy(&self, method: &str, params: &Params<'_>) -> Result<String, RpcError> {
        let close = |b: String| b + "}";
        match method {
            "initialize" => {
                let requested = params.protocol_version.and_then(raw_str).ok_or_else(|| {
                    RpcError::InvalidParams(
                        "`protocolVersion` (a string) is required in initialize".into(),
                    )
                })?;
                let chosen = LEGACY_VERSIONS
                    .iter()
                    .find(|v| **v == requested)
                    .unwrap_or(&LEGACY_VERSIONS[0]);
                let mut b = String::from("{\"protocolVersion\":");
                write_json_string(chosen, &mut b);
                b.push(',');
                b.push_str(&self.capabilities);
                // 2025-11-25 carries serverInfo in the body; 2026-07-28 only in `_meta`.
                b.push_str(",\"serverInfo\":");
                b.push_str(&self.server_info);
                Ok(close(b))
            }
            "ping" => Ok("{}".to_owned()),
            "skills/list" => self.skills_list(params, false).map(close),
            "skills/get" => self.skills_get(params, false).map(close),
            "resources/list" => self.resources_list(params, false).map(close),
            "resources/templates/list" => self.templates_list(params, false).map(close),
            "resources/read" => self.resources_read(params, false).map(close),
            "resources/directory/read" => self.directory_read(params, false).map(close),
            _ => Err(not_found(method)),
        }
    }

    /// Opens a result object: `{"resultType":"complete",` in the modern era, `{` otherwise.
    fn open(modern: bool, capacity: usize) -> String {
        let mut b = String::with_capacity(capacity + 256);
        b.push_str(if modern {
            "{\"resultType\":\"complete\","
        } else {
            "{"
        });
        b
    }

    fn page(
        &self,
        params: &Params<'_>,
        kind: ListKind,
        total: usize,
    ) -> Result<(usize, usize, Option<String>), RpcError> {
        let start = match params.cursor {
            None => 0,
            Some(raw) if raw.get() == "null" => 0,
            Some(raw) => {
                let c = raw_str(raw).ok_or(RpcError::InvalidCursor {
                    reason: "the cursor must be a string",
                })?;
                self.decode_cursor(&c, kind, total)?
            }
        };
        let end = (start + self.config.page_size).min(total);
        let next = (end < total).then(|| self.encode_cursor(kind, end));
        Ok((start, end, next))
    }

    fn encode_cursor(&self, kind: ListKind, offset: usize) -> String {
        let (tag, scope) = kind.key();
        let mut b = [0u8; 14];
        b[0] = CURSOR_VERSION;
        b[1] = tag;
        b[2..6].copy_from_slice(&self.catalog.snapshot().to_le_bytes());
        b[6..10].copy_from_slice(&scope.to_le_bytes());
        b[10..14].copy_from_slice(&(offset as u32).to_le_bytes());
        base64::encode_url(&b)
    }

    fn decode_cursor(&self, cursor: &str, kind: ListKind, total: usize) -> Result<usize, RpcError> {
        let (tag, scope) = kind.key();
        let bad = |reason| RpcError::InvalidCursor { reason };
        let b = base64::decode_url(cursor)
            .filter(|b| b.len() == 14 && b[0] == CURSOR_VERSION)
            .ok_or(bad("it was not issued by this server"))?;
        let u = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        if b[1] != tag || u(6) != scope {
            return Err(bad("it belongs to a different list"));
        }
        if u(2) != self.catalog.snapshot() {
            return Err(bad(
                "the catalog has changed since it was issued; list again from the start",
            ));
        }
        let offset = u(10) as usize;
        if offset == 0 || offset >= total {
            return Err(bad("it points outside the list"));
        }
        Ok(offset)
    }

    /// One page of a list: `"<field>":[items…]` plus `nextCursor` when more follow.
    fn list_page<'c>(
        &self,
        params: &Params<'_>,
        modern: bool,
        kind: ListKind,
        field: &str,
        total: usize,
        item: impl Fn(usize) -> Option<&'c str>,
    ) -> Result<String, RpcError> {
        let (start, end, next) = self.page(params, kind, total)?;
        let mut b = Self::open(modern, 0);
        b.push('"');
        b.push_str(field);
        b.push_str("\":[");
        for (n, json) in (start..end).filter_map(&item).enumerate() {
            if n > 0 {
                b.push(',');
            }
            b.push_str(json);
        }
        b.push(']');
        push_next(&mut b, next);
        Ok(b)
    }

    fn skills_list(&self, params: &Params<'_>, modern: bool) -> Result<String, RpcError> {
        let c = &*self.catalog;
        self.list_page(
            params,
            modern,
            ListKind::Skills,
            "skills",
            c.skill_count(),
            |i| c.skill_at(i).map(|s| s.entry_json),
        )
    }

    fn skills_get(&self, params: &Params<'_>, modern: bool) -> Result<String, RpcError> {
        let uri = required_uri(params)?;
        let skill = self
            .catalog
            .skill(&uri)
            .ok_or_else(|| RpcError::SkillNotFound {
                uri: uri.clone().into_owned(),
            })?;
        let mut b = Self::open(modern, skill.entry_json.len());
        b.push_str("\"skill\":");
        b.push_str(skill.entry_json);
        Ok(b)
    }

    fn resources_list(&self, params: &Params<'_>, modern: bool) -> Result<String, RpcError> {
        let c = &*self.catalog;
        let total = c.skill_count();
        self.list_page(
            params,
            modern,
            ListKind::Resources,
            "resources",
            total,
            |i| c.skill_at(i).map(|s| s.list_item_json),
        )
    }

    fn templates_list(&self, params: &Params<'_>, modern: bool) -> Result<String, RpcError> {
        // One template, so any cursor is one this server never issued.
        self.page(params, ListKind::Templates, 1)?;
        let mut b = Self::open(modern, 0);
        b.push_str(
            "\"resourceTemplates\":[{\"uriTemplate\":\"skill://{+path}\",\"name\":\"skill-file\",\
             \"title\":\"Skill file\",\"description\":\"Any file of a served skill, by its skill:// URI. \
             Each skill's entry (skills/list, skills/get) lists its files with their sha256 digests and sizes.\"}]",
        );
        Ok(b)
    }

    fn resources_read(&self, params: &Params<'_>, modern: bool) -> Result<String, RpcError> {
        let uri = required_uri(params)?;
        let Some(file) = self.catalog.file(&uri) else {
            let hint = self
                .catalog
                .dir(&uri)
                .map(|_| "it is a directory; list it with resources/directory/read");
            return Err(RpcError::ResourceNotFound {
                uri: uri.into_owned(),
                hint,
            });
        };
        let n = file.bytes.len();
        let mut b = Self::open(
            modern,
            if file.is_text {
                n + n / 8
            } else {
                n / 3 * 4 + 4
            },
        );
        b.push_str("\"contents\":[{\"uri\":");
        write_json_string(file.uri, &mut b);
        b.push_str(",\"mimeType\":");
        write_json_string(file.mime, &mut b);
        match std::str::from_utf8(file.bytes) {
            Ok(text) if file.is_text => {
                b.push_str(",\"text\":");
                write_json_string(text, &mut b);
            }
            _ => {
                b.push_str(",\"blob\":\"");
                base64::encode_into(file.bytes, &mut b);
                b.push('"');
            }
        }
        b.push_str("}]");
        Ok(b)
    }

    fn directory_read(&self, params: &Params<'_>, modern: bool) -> Result<String, RpcError> {
        let uri = required_uri(params)?;
        // Accept one trailing slash (open point A4); published URIs never have one.
        let key = match uri.strip_suffix('/') {
            Some(k) if !k.ends_with('/') => k,
            _ => uri.as_ref(),
        };
        let Some(dir) = self.catalog.dir(key) else {
            return Err(RpcError::NotADirectory {
                is_file: self.catalog.file(key).is_some(),
                uri: uri.into_owned(),
            });
        };
        self.list_page(
            params,
            modern,
            ListKind::Directory(dir.index as u32),
            "resources",
            dir.len(),
            |i| dir.child_json(i),
        )
    }
}

fn push_next(b: &mut String, next: Option<String>) {
    if let Some(c) = next {
        b.push_str(",\"nextCursor\":");
        write_json_string(&c, b);
    }
}

fn not_found(method: &str) -> RpcError {
    RpcError::MethodNotFound {
        method: method.to_owned(),
        hint: None,
    }
}

fn required_uri<'a>(params: &Params<'a>) -> Result<Cow<'a, str>, RpcError> {
    match params.uri {
        None => Err(RpcError::InvalidParams("`uri` is required".into())),
        Some(raw) => {
            raw_str(raw).ok_or_else(|| RpcError::InvalidParams("`uri` must be a string".into()))
        }
    }
}

/// The required 2026-07-28 `_meta` fields; returns the declared protocol version.
fn check_meta<'a>(params: &Params<'a>) -> Result<Cow<'a, str>, RpcError> {
    let env = |m: &str| RpcError::InvalidEnvelope(m.to_owned());
    if !params.is_object {
        return Err(env(
            "`params` with `_meta` is required on every request (protocol revision 2026-07-28)",
        ));
    }
    let meta_raw = params.meta.ok_or_else(|| {
        env("`params._meta` is required (io.modelcontextprotocol/protocolVersion and io.modelcontextprotocol/clientCapabilities)")
    })?;
    let meta = Meta::parse(meta_raw).ok_or_else(|| env("`params._meta` must be an object"))?;
    let version = meta.protocol_version.and_then(raw_str).ok_or_else(|| {
        env("`_meta[\"io.modelcontextprotocol/protocolVersion\"]` (a string) is required")
    })?;
    match meta.client_capabilities {
        Some(c) if Meta::is_object(c) => Ok(version),
        _ => Err(env(
            "`_meta[\"io.modelcontextprotocol/clientCapabilities\"]` (an object) is required",
        )),
    }
}

/// An error response (without `id` when the request's id could not be read; see
/// [`crate::protocol::reply`]).
fn error_reply(id: Option<RawId<'_>>, err: &RpcError) -> Reply {
    Reply {
        status: err.http_status(),
        body: Some(envelope(id, Outcome::Error(err))),
    }
}
