//! Streamable HTTP rules (MCP 2026-07-28, with 2025-11-25 clients on the same endpoint) as
//! pure functions: no sockets, no platform types. An adapter (the Cloudflare Worker, a
//! `wasi:http` component, a test) does three things:
//!
//! 1. collects the request head into a [`Head`] and asks [`Endpoint::head`] what to do:
//!    answer at once (preflight, 403, 404, 405, 406, 413, 415) or read the body up to a limit;
//! 2. reads the body through a [`BodyReader`], which keeps at most `limit + 1` bytes, and
//!    hands it to [`Endpoint::body`], or calls [`Endpoint::body_too_large`] when the limit was
//!    crossed;
//! 3. writes the [`Response`] (status, headers, body) back.
//!
//! The rules, in the order they are applied:
//!
//! | check | outcome |
//! |---|---|
//! | `Origin` present and not allowed ([`HttpConfig::allowed_origins`]) | 403, no CORS headers |
//! | `Host` not allowed ([`HttpConfig::allowed_hosts`], DNS-rebinding defence) | 403 |
//! | path other than [`ENDPOINT_PATH`] | 404 |
//! | `OPTIONS` | 204, the CORS preflight answer (no authentication) |
//! | method other than `POST` | 405 with `Allow: POST` |
//! | `Accept` not allowing both `application/json` and `text/event-stream` | 406 |
//! | `Content-Type` other than `application/json` | 415 |
//! | `Content-Length` above [`HttpConfig::max_body_bytes`] | 413, body not read |
//! | body longer than the limit (chunked uploads) | 413; nothing past `limit + 1` bytes is kept (the excess is read and dropped, up to [`DRAIN_BYTES`], then cancelled) |
//! | the message | the responder's status: 202 without a body for notifications, 200 for results and most errors, 400 for malformed messages, `-32602` envelope errors, `-32020` and `-32022`, 404 for `-32601` |
//!
//! Every error response carries a JSON-RPC error body (`{"jsonrpc":"2.0","error":{…}}`,
//! without `id` when the request's id is unknown). Every response carries `Vary: Origin`;
//! a request from an allowed origin gets `Access-Control-Allow-Origin` echoing it on every
//! response, errors included. No session id is ever minted or required.
//!
//! ```
//! use skills_edge::http::{Endpoint, Head, HttpConfig, Step};
//! let endpoint = Endpoint::new(skills_edge::embedded::catalog().unwrap(), HttpConfig::default()).unwrap();
//! let head = Head {
//!     method: "POST",
//!     path: "/mcp",
//!     host: Some("127.0.0.1:8787"),
//!     accept: Some("application/json, text/event-stream"),
//!     content_type: Some("application/json"),
//!     protocol_version: Some("2026-07-28"),
//!     mcp_method: Some("skills/list"),
//!     ..Head::default()
//! };
//! let Step::ReadBody { limit } = endpoint.head(&head) else { panic!() };
//! assert_eq!(limit, 1 << 20);
//! let response = endpoint.body(&head, br#"{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{"_meta":{
//!     "io.modelcontextprotocol/protocolVersion":"2026-07-28",
//!     "io.modelcontextprotocol/clientCapabilities":{}}}}"#);
//! assert_eq!(response.status, 200);
//! assert_eq!(response.header("content-type"), Some("application/json"));
//! ```

use crate::catalog::Catalog;
use crate::server::{CacheScope, Config, ConfigError, HttpHeaders, Responder, Transport};
use crate::skill::value::write_json_string;
use std::fmt;
use std::sync::Arc;

/// The one MCP endpoint path.
pub const ENDPOINT_PATH: &str = "/mcp";

/// `Access-Control-Allow-Methods` of the preflight answer.
pub const ALLOW_METHODS: &str = "POST, OPTIONS";

/// `Access-Control-Allow-Headers` of the preflight answer: every request header an MCP
/// client sends (and `authorization`, for deployments that put a gateway in front).
pub const ALLOW_HEADERS: &str =
    "content-type, accept, mcp-protocol-version, mcp-method, mcp-name, authorization";

/// `Access-Control-Max-Age` of the preflight answer, in seconds (browsers cap it: Chromium
/// at 7200).
pub const MAX_AGE_SECONDS: &str = "7200";

/// Default body limit: 1 MiB.
pub const DEFAULT_MAX_BODY_BYTES: usize = 1 << 20;

/// Largest accepted body limit: 16 MiB (the Worker holds the body in memory).
pub const MAX_MAX_BODY_BYTES: usize = 16 << 20;

/// Default `ALLOWED_ORIGINS`: browser pages served from this machine, any port.
pub const DEFAULT_ALLOWED_ORIGINS: &str = "http://localhost:*,http://127.0.0.1:*,http://[::1]:*";

/// Default `ALLOWED_HOSTS`: the loopback names, any port.
pub const DEFAULT_ALLOWED_HOSTS: &str = "localhost,127.0.0.1,[::1]";

/// One configuration variable: its name, default and accepted form (the documentation
/// and the error messages both come from this table).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Var {
    /// The variable's name (a Worker var, an environment variable).
    pub name: &'static str,
    /// The value used when the variable is not set.
    pub default: &'static str,
    /// The accepted form.
    pub form: &'static str,
}

/// `PAGE_SIZE`: items per page of `skills/list`, `resources/list`, `resources/directory/read`.
pub const PAGE_SIZE: Var = Var {
    name: "PAGE_SIZE",
    default: "50",
    form: "an integer from 1 to 1000",
};
/// `TTL_MS`: `ttlMs` of cacheable results.
pub const TTL_MS: Var = Var {
    name: "TTL_MS",
    default: "300000",
    form: "an integer from 0 to 9007199254740991 (milliseconds)",
};
/// `CACHE_SCOPE`: `cacheScope` of cacheable results.
pub const CACHE_SCOPE: Var = Var {
    name: "CACHE_SCOPE",
    default: "public",
    form: "`public` or `private`",
};
/// `INSTRUCTIONS`: the server instructions.
pub const INSTRUCTIONS: Var = Var {
    name: "INSTRUCTIONS",
    default: "(generated from the catalog: names every skill)",
    form: "any text; the empty string sends no instructions",
};
/// `ALLOWED_ORIGINS`: browser origins allowed to call the endpoint.
pub const ALLOWED_ORIGINS: Var = Var {
    name: "ALLOWED_ORIGINS",
    default: DEFAULT_ALLOWED_ORIGINS,
    form: "a comma-separated list of origins `scheme://host[:port]` (port `*` for any port, \
           host `*.example.com` for any subdomain), `null`, or `*` for any origin; empty for none",
};
/// `ALLOWED_HOSTS`: `Host` header values accepted (DNS-rebinding defence).
pub const ALLOWED_HOSTS: Var = Var {
    name: "ALLOWED_HOSTS",
    default: DEFAULT_ALLOWED_HOSTS,
    form: "a comma-separated list of host names `name` (any port) or `name:port`, \
           `*.example.com` for any subdomain, IPv6 in brackets (`[::1]`), or `*` for any host",
};
/// `MAX_BODY_BYTES`: the largest request body read.
pub const MAX_BODY_BYTES: Var = Var {
    name: "MAX_BODY_BYTES",
    default: "1048576",
    form: "an integer from 1 to 16777216 (bytes)",
};

/// Every configuration variable, in documentation order.
pub const VARS: &[Var] = &[
    PAGE_SIZE,
    TTL_MS,
    CACHE_SCOPE,
    INSTRUCTIONS,
    ALLOWED_ORIGINS,
    ALLOWED_HOSTS,
    MAX_BODY_BYTES,
];

/// A configuration variable with a value outside its accepted form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VarError {
    /// The variable's name.
    pub var: &'static str,
    /// The value it had.
    pub value: String,
    /// What was wrong, when more precise than the form.
    pub problem: Option<String>,
    /// The accepted form.
    pub form: &'static str,
}

impl fmt::Display for VarError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "configuration variable {} = {:?} is invalid",
            self.var, self.value
        )?;
        if let Some(p) = &self.problem {
            write!(f, " ({p})")?;
        }
        write!(f, ": use {}", self.form)
    }
}

impl std::error::Error for VarError {}

impl VarError {
    fn new(var: &Var, value: &str, problem: Option<String>) -> VarError {
        VarError {
            var: var.name,
            value: value.to_owned(),
            problem,
            form: var.form,
        }
    }
}

/// Which `Origin` values may call the endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OriginList {
    /// Any origin (still echoed, never `*`).
    Any,
    /// Only these.
    Only(Vec<OriginPattern>),
}

/// One allowed origin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OriginPattern {
    /// The literal `null` origin (sandboxed frames, `file:` pages).
    Null,
    /// `scheme://host[:port]`.
    Origin {
        /// Lower-case scheme.
        scheme: String,
        /// Lower-case host; IPv6 keeps its brackets.
        host: HostPattern,
        /// Port to match.
        port: PortPattern,
    },
}

/// A host name to match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostPattern {
    /// Exactly this name (lower case).
    Exact(String),
    /// Any name ending in `.suffix` (the suffix is stored with its leading dot).
    Subdomain(String),
}

/// A port to match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PortPattern {
    /// Any port.
    Any,
    /// This port (an absent port means the scheme's default one).
    Exact(u16),
    /// No port given, and the scheme has no known default.
    None,
}

/// Which `Host` header values are accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostList {
    /// Any host (no DNS-rebinding defence: for deployments behind a router that only
    /// forwards the Worker's own names).
    Any,
    /// Only these names (each with a port pattern).
    Only(Vec<(HostPattern, PortPattern)>),
}

impl HostPattern {
    fn parse(s: &str) -> Option<HostPattern> {
        let s = s.to_ascii_lowercase();
        if let Some(rest) = s.strip_prefix("*.") {
            return valid_reg_name(rest).then(|| HostPattern::Subdomain(format!(".{rest}")));
        }
        valid_host(&s).then_some(HostPattern::Exact(s))
    }

    fn matches(&self, host: &str) -> bool {
        match self {
            HostPattern::Exact(h) => h.eq_ignore_ascii_case(host),
            HostPattern::Subdomain(suffix) => {
                host.len() > suffix.len()
                    && host
                        .get(host.len() - suffix.len()..)
                        .is_some_and(|tail| tail.eq_ignore_ascii_case(suffix))
                    && !host.starts_with('.')
            }
        }
    }
}

fn valid_reg_name(s: &str) -> bool {
    !s.is_empty()
        && s.split('.').all(|label| {
            !label.is_empty()
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        })
}

fn valid_host(s: &str) -> bool {
    match s.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        Some(v6) => {
            !v6.is_empty()
                && v6
                    .bytes()
                    .all(|b| b.is_ascii_hexdigit() || b == b':' || b == b'.')
        }
        None => valid_reg_name(s),
    }
}

/// Splits `host[:port]` (IPv6 in brackets). `None` when malformed.
fn split_host_port(s: &str) -> Option<(&str, Option<&str>)> {
    if s.starts_with('[') {
        let end = s.find(']')?;
        let (host, rest) = s.split_at(end + 1);
        match rest {
            "" => Some((host, None)),
            r => r.strip_prefix(':').map(|p| (host, Some(p))),
        }
    } else {
        match s.split_once(':') {
            None => Some((s, None)),
            Some((h, p)) if !p.contains(':') => Some((h, Some(p))),
            Some(_) => None,
        }
    }
}

fn parse_port(p: &str) -> Option<u16> {
    if p.is_empty() || p.len() > 5 || !p.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    p.parse().ok()
}

fn default_port(scheme: &str) -> Option<u16> {
    match scheme {
        "http" | "ws" => Some(80),
        "https" | "wss" => Some(443),
        _ => None,
    }
}

impl OriginPattern {
    fn parse(s: &str) -> Result<OriginPattern, String> {
        if s == "null" {
            return Ok(OriginPattern::Null);
        }
        let (scheme, rest) = s
            .split_once("://")
            .ok_or_else(|| format!("{s:?} is not `scheme://host[:port]`"))?;
        let scheme = scheme.to_ascii_lowercase();
        if scheme.is_empty()
            || !scheme
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
        {
            return Err(format!("{s:?} has an invalid scheme"));
        }
        if rest.contains('/') {
            return Err(format!(
                "{s:?} has a path; an origin is only `scheme://host[:port]`"
            ));
        }
        let (host, port) = split_host_port(rest).ok_or_else(|| format!("{s:?} is malformed"))?;
        let host = HostPattern::parse(host).ok_or_else(|| format!("{s:?} has an invalid host"))?;
        let port = match port {
            Some("*") => PortPattern::Any,
            Some(p) => PortPattern::Exact(
                parse_port(p).ok_or_else(|| format!("{s:?} has an invalid port"))?,
            ),
            None => default_port(&scheme).map_or(PortPattern::None, PortPattern::Exact),
        };
        Ok(OriginPattern::Origin { scheme, host, port })
    }

    fn matches(&self, origin: &str) -> bool {
        match self {
            OriginPattern::Null => origin == "null",
            OriginPattern::Origin { scheme, host, port } => {
                let Some((s, rest)) = origin.split_once("://") else {
                    return false;
                };
                if !s.eq_ignore_ascii_case(scheme) || rest.contains('/') {
                    return false;
                }
                let Some((h, p)) = split_host_port(rest) else {
                    return false;
                };
                if !host.matches(h) {
                    return false;
                }
                let got = match p {
                    Some(p) => match parse_port(p) {
                        Some(n) => Some(n),
                        None => return false,
                    },
                    None => default_port(scheme),
                };
                match port {
                    PortPattern::Any => true,
                    PortPattern::Exact(n) => got == Some(*n),
                    PortPattern::None => got.is_none(),
                }
            }
        }
    }
}

impl OriginList {
    /// Parses the `ALLOWED_ORIGINS` form (see [`ALLOWED_ORIGINS`]).
    pub fn parse(value: &str) -> Result<OriginList, VarError> {
        let mut out = Vec::new();
        for item in list_items(value) {
            if item == "*" {
                return Ok(OriginList::Any);
            }
            out.push(
                OriginPattern::parse(item)
                    .map_err(|p| VarError::new(&ALLOWED_ORIGINS, value, Some(p)))?,
            );
        }
        Ok(OriginList::Only(out))
    }

    /// Whether `origin` (an `Origin` header value) is allowed.
    pub fn allows(&self, origin: &str) -> bool {
        match self {
            OriginList::Any => true,
            OriginList::Only(list) => list.iter().any(|p| p.matches(origin)),
        }
    }
}

impl HostList {
    /// Parses the `ALLOWED_HOSTS` form (see [`ALLOWED_HOSTS`]).
    pub fn parse(value: &str) -> Result<HostList, VarError> {
        let mut out = Vec::new();
        for item in list_items(value) {
            if item == "*" {
                return Ok(HostList::Any);
            }
            let bad = |p: &str| VarError::new(&ALLOWED_HOSTS, value, Some(format!("{item:?} {p}")));
            let (h, p) = split_host_port(item).ok_or_else(|| bad("is malformed"))?;
            let host = HostPattern::parse(h).ok_or_else(|| bad("has an invalid host name"))?;
            let port = match p {
                None | Some("*") => PortPattern::Any,
                Some(p) => {
                    PortPattern::Exact(parse_port(p).ok_or_else(|| bad("has an invalid port"))?)
                }
            };
            out.push((host, port));
        }
        if out.is_empty() {
            return Err(VarError::new(
                &ALLOWED_HOSTS,
                value,
                Some("no host would be accepted".into()),
            ));
        }
        Ok(HostList::Only(out))
    }

    /// Whether `host` (a `Host` header value, `name[:port]`) is allowed.
    pub fn allows(&self, host: &str) -> bool {
        match self {
            HostList::Any => true,
            HostList::Only(list) => {
                let Some((h, p)) = split_host_port(host) else {
                    return false;
                };
                if !valid_host(&h.to_ascii_lowercase()) {
                    return false;
                }
                let port = match p {
                    None => None,
                    Some(p) => match parse_port(p) {
                        Some(n) => Some(n),
                        None => return false,
                    },
                };
                list.iter().any(|(hp, pp)| {
                    hp.matches(h)
                        && match pp {
                            PortPattern::Any => true,
                            PortPattern::Exact(n) => port == Some(*n),
                            PortPattern::None => port.is_none(),
                        }
                })
            }
        }
    }
}

fn list_items(value: &str) -> impl Iterator<Item = &str> {
    value.split(',').map(str::trim).filter(|s| !s.is_empty())
}

/// Everything the HTTP endpoint is configured with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpConfig {
    /// The responder's settings (page size, `ttlMs`, `cacheScope`, instructions).
    pub server: Config,
    /// Browser origins allowed (`ALLOWED_ORIGINS`). Requests without `Origin` are always
    /// allowed: they do not come from a web page.
    pub allowed_origins: OriginList,
    /// `Host` values accepted (`ALLOWED_HOSTS`).
    pub allowed_hosts: HostList,
    /// The largest body read, in bytes (`MAX_BODY_BYTES`).
    pub max_body_bytes: usize,
}

impl Default for HttpConfig {
    fn default() -> Self {
        HttpConfig {
            server: Config::default(),
            allowed_origins: OriginList::parse(DEFAULT_ALLOWED_ORIGINS)
                .unwrap_or(OriginList::Only(Vec::new())),
            allowed_hosts: HostList::parse(DEFAULT_ALLOWED_HOSTS)
                .unwrap_or(HostList::Only(Vec::new())),
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
        }
    }
}

fn parse_int(var: &Var, value: &str, min: u64, max: u64) -> Result<u64, VarError> {
    let t = value.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(VarError::new(var, value, Some("not an integer".into())));
    }
    match t.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(VarError::new(var, value, Some("out of range".into()))),
    }
}

impl HttpConfig {
    /// Reads the configuration from named string variables (Worker vars, environment
    /// variables); `get` returns `None` for an unset variable, which takes its default
    /// (see [`VARS`]). The first invalid variable is returned as the error.
    ///
    /// ```
    /// use skills_edge::http::HttpConfig;
    /// let c = HttpConfig::from_vars(|name| (name == "PAGE_SIZE").then(|| "2".to_owned())).unwrap();
    /// assert_eq!(c.server.page_size, 2);
    /// let e = HttpConfig::from_vars(|name| (name == "CACHE_SCOPE").then(|| "shared".to_owned())).unwrap_err();
    /// assert_eq!(e.var, "CACHE_SCOPE");
    /// ```
    pub fn from_vars(get: impl Fn(&str) -> Option<String>) -> Result<HttpConfig, VarError> {
        let mut c = HttpConfig::default();
        if let Some(v) = get(PAGE_SIZE.name) {
            c.server.page_size =
                parse_int(&PAGE_SIZE, &v, 1, crate::server::MAX_PAGE_SIZE as u64)? as usize;
        }
        if let Some(v) = get(TTL_MS.name) {
            c.server.ttl_ms = parse_int(&TTL_MS, &v, 0, (1u64 << 53) - 1)?;
        }
        if let Some(v) = get(CACHE_SCOPE.name) {
            c.server.cache_scope =
                CacheScope::parse(v.trim()).ok_or_else(|| VarError::new(&CACHE_SCOPE, &v, None))?;
        }
        if let Some(v) = get(INSTRUCTIONS.name) {
            c.server.instructions = Some(v);
        }
        if let Some(v) = get(ALLOWED_ORIGINS.name) {
            c.allowed_origins = OriginList::parse(&v)?;
        }
        if let Some(v) = get(ALLOWED_HOSTS.name) {
            c.allowed_hosts = HostList::parse(&v)?;
        }
        if let Some(v) = get(MAX_BODY_BYTES.name) {
            c.max_body_bytes =
                parse_int(&MAX_BODY_BYTES, &v, 1, MAX_MAX_BODY_BYTES as u64)? as usize;
        }
        Ok(c)
    }
}

/// The request head, as raw header values (`None` when absent). Header names are
/// case-insensitive; the adapter looks up each of [`Head::HEADERS`]. A header sent more
/// than once may be given joined with `", "` (as the Fetch API does): for `Host` and
/// `Origin` that never matches the allow-lists, so it is refused.
#[derive(Debug, Clone, Copy, Default)]
pub struct Head<'a> {
    /// The HTTP method (`POST`, `OPTIONS`, …).
    pub method: &'a str,
    /// The path, without the query string.
    pub path: &'a str,
    /// `Host` (or the authority of the request URL when the platform gives no header).
    pub host: Option<&'a str>,
    /// `Origin`.
    pub origin: Option<&'a str>,
    /// `Accept`.
    pub accept: Option<&'a str>,
    /// `Content-Type`.
    pub content_type: Option<&'a str>,
    /// `Content-Length`.
    pub content_length: Option<&'a str>,
    /// `MCP-Protocol-Version`.
    pub protocol_version: Option<&'a str>,
    /// `Mcp-Method`.
    pub mcp_method: Option<&'a str>,
    /// `Mcp-Name`.
    pub mcp_name: Option<&'a str>,
}

impl<'a> Head<'a> {
    /// The request headers the rules read, in the order of the fields of [`Head`] after
    /// `path`.
    pub const HEADERS: [&'static str; 8] = [
        "host",
        "origin",
        "accept",
        "content-type",
        "content-length",
        "mcp-protocol-version",
        "mcp-method",
        "mcp-name",
    ];

    /// Builds a head from the method, the path and any list of `(name, value)` headers
    /// (names matched case-insensitively; the first occurrence wins).
    pub fn from_headers<I>(method: &'a str, path: &'a str, headers: I) -> Head<'a>
    where
        I: IntoIterator<Item = (&'a str, &'a str)>,
    {
        let mut h = Head {
            method,
            path,
            ..Head::default()
        };
        for (name, value) in headers {
            let slot = match name.to_ascii_lowercase().as_str() {
                "host" => &mut h.host,
                "origin" => &mut h.origin,
                "accept" => &mut h.accept,
                "content-type" => &mut h.content_type,
                "content-length" => &mut h.content_length,
                "mcp-protocol-version" => &mut h.protocol_version,
                "mcp-method" => &mut h.mcp_method,
                "mcp-name" => &mut h.mcp_name,
                _ => continue,
            };
            if slot.is_none() {
                *slot = Some(value);
            }
        }
        h
    }

    fn transport(&self) -> Transport<'a> {
        Transport::Http(HttpHeaders {
            protocol_version: self.protocol_version,
            method: self.mcp_method,
            name: self.mcp_name,
        })
    }
}

/// An HTTP response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// Header names (lower case) and values.
    pub headers: Vec<(&'static str, String)>,
    /// The body (empty for 202 and 204).
    pub body: Vec<u8>,
}

impl Response {
    /// The value of header `name` (lower case), if set.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as text (`""` if it is not UTF-8).
    pub fn body_str(&self) -> &str {
        std::str::from_utf8(&self.body).unwrap_or("")
    }
}

/// What the adapter does next with a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Send this response; do not read the body.
    Respond(Response),
    /// Read the body with a [`BodyReader`] of this limit (it keeps at most `limit + 1`
    /// bytes), then call [`Endpoint::body`] with it, or [`Endpoint::body_too_large`] when it
    /// was longer.
    ReadBody {
        /// The largest acceptable body, in bytes.
        limit: usize,
    },
}

/// How many bytes of an oversized body are still read (and discarded) after the limit is
/// crossed, before the rest is cancelled: answering 413 while the client is still uploading
/// and cancelling at once can break the connection for the requests behind it (wrangler dev's
/// proxy answers the next request with 503), so a moderate excess is drained instead.
pub const DRAIN_BYTES: u64 = 16 << 20;

/// Reads a body in chunks without ever holding more than `limit + 1` bytes of it.
///
/// ```
/// use skills_edge::http::BodyReader;
/// let mut r = BodyReader::new(4);
/// assert!(r.push(b"abc"));
/// assert!(r.push(b"de")); // over the limit: keep reading, to discard the rest
/// assert_eq!(r.room(), 0);
/// assert_eq!(r.finish(), None);
/// ```
#[derive(Debug)]
pub struct BodyReader {
    limit: usize,
    buf: Vec<u8>,
    discarded: u64,
}

impl BodyReader {
    /// A reader for a body of at most `limit` bytes.
    pub fn new(limit: usize) -> BodyReader {
        BodyReader {
            limit,
            buf: Vec::new(),
            discarded: 0,
        }
    }

    /// How many leading bytes of the next chunk are kept (0 once over the limit), so an
    /// adapter copies no more than that out of the platform's buffer.
    pub fn room(&self) -> usize {
        (self.limit + 1).saturating_sub(self.buf.len())
    }

    /// Records a chunk of `len` bytes of which `kept` are the first `min(len, room())`.
    /// Returns whether to keep reading; `false` means cancel the stream now.
    pub fn push_kept(&mut self, kept: &[u8], len: usize) -> bool {
        let take = kept.len().min(self.room());
        self.buf.extend_from_slice(kept.get(..take).unwrap_or(&[]));
        self.discarded = self.discarded.saturating_add((len - take.min(len)) as u64);
        self.discarded <= DRAIN_BYTES
    }

    /// Records a whole chunk. Returns whether to keep reading (see [`BodyReader::push_kept`]).
    pub fn push(&mut self, chunk: &[u8]) -> bool {
        let take = chunk.len().min(self.room());
        self.push_kept(chunk.get(..take).unwrap_or(&[]), chunk.len())
    }

    /// Whether more than `limit` bytes arrived.
    pub fn is_over(&self) -> bool {
        self.buf.len() > self.limit
    }

    /// The body, or `None` when it was longer than the limit (answer
    /// [`Endpoint::body_too_large`]).
    pub fn finish(self) -> Option<Vec<u8>> {
        (!self.is_over()).then_some(self.buf)
    }
}

/// The Streamable HTTP endpoint: configuration plus the responder.
pub struct Endpoint {
    responder: Responder,
    allowed_origins: OriginList,
    allowed_hosts: HostList,
    max_body_bytes: usize,
}

impl Endpoint {
    /// An endpoint serving `catalog` with `config` (checked).
    pub fn new(catalog: Arc<Catalog>, config: HttpConfig) -> Result<Endpoint, ConfigError> {
        if !(1..=MAX_MAX_BODY_BYTES).contains(&config.max_body_bytes) {
            return Err(ConfigError(format!(
                "body limit {} is out of range: use 1 to {MAX_MAX_BODY_BYTES}",
                config.max_body_bytes
            )));
        }
        Ok(Endpoint {
            responder: Responder::new(catalog, config.server)?,
            allowed_origins: config.allowed_origins,
            allowed_hosts: config.allowed_hosts,
            max_body_bytes: config.max_body_bytes,
        })
    }

    #[cfg(feature = "embedded")]
    /// The endpoint every adapter starts: the embedded catalog, configured from named
    /// variables (Worker vars, environment variables; see [`VARS`]). The error names the
    /// variable, its value and the accepted form.
    pub fn embedded_from_vars(get: impl Fn(&str) -> Option<String>) -> Result<Endpoint, String> {
        let config = HttpConfig::from_vars(get).map_err(|e| e.to_string())?;
        let catalog = crate::embedded::catalog()
            .map_err(|e| format!("the embedded skills catalog cannot be read: {e}"))?;
        Endpoint::new(catalog, config).map_err(|e| e.to_string())
    }

    /// The responder behind the endpoint.
    pub fn responder(&self) -> &Responder {
        &self.responder
    }

    /// The body limit in force.
    pub fn max_body_bytes(&self) -> usize {
        self.max_body_bytes
    }

    /// The echoed origin, if the request has an allowed one.
    fn cors_origin<'h>(&self, head: &Head<'h>) -> Option<&'h str> {
        head.origin.filter(|o| self.allowed_origins.allows(o))
    }

    fn base(&self, head: &Head<'_>, status: u16) -> Response {
        let mut headers = Vec::with_capacity(4);
        headers.push(("vary", "Origin".to_owned()));
        if let Some(o) = self.cors_origin(head) {
            headers.push(("access-control-allow-origin", o.to_owned()));
        }
        Response {
            status,
            headers,
            body: Vec::new(),
        }
    }

    /// A JSON-RPC error response without `id` (`-32600`) for a transport-level refusal.
    fn refuse(&self, head: &Head<'_>, status: u16, message: &str) -> Response {
        let mut r = self.base(head, status);
        r.headers
            .push(("content-type", "application/json".to_owned()));
        let mut b = String::with_capacity(message.len() + 64);
        b.push_str("{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32600,\"message\":");
        write_json_string(message, &mut b);
        b.push_str("}}");
        r.body = b.into_bytes();
        r
    }

    /// Decides from the request head alone: an immediate response, or read the body.
    pub fn head(&self, head: &Head<'_>) -> Step {
        if let Some(origin) = head.origin {
            if !self.allowed_origins.allows(origin) {
                // No CORS headers: the page must not read the refusal.
                return Step::Respond(self.refuse(
                    head,
                    403,
                    &format!("Forbidden: the Origin {origin:?} is not allowed to call this server"),
                ));
            }
        }
        let host_ok = head.host.is_some_and(|h| self.allowed_hosts.allows(h));
        if !host_ok {
            let msg = match head.host {
                Some(h) => format!("Forbidden: the Host {h:?} is not served here"),
                None => "Forbidden: the request has no Host header".to_owned(),
            };
            return Step::Respond(self.refuse(head, 403, &msg));
        }
        if head.path != ENDPOINT_PATH {
            return Step::Respond(self.refuse(
                head,
                404,
                &format!("Not Found: the MCP endpoint is {ENDPOINT_PATH}"),
            ));
        }
        if head.method.eq_ignore_ascii_case("OPTIONS") {
            let mut r = self.base(head, 204);
            if self.cors_origin(head).is_some() {
                r.headers
                    .push(("access-control-allow-methods", ALLOW_METHODS.to_owned()));
                r.headers
                    .push(("access-control-allow-headers", ALLOW_HEADERS.to_owned()));
                r.headers
                    .push(("access-control-max-age", MAX_AGE_SECONDS.to_owned()));
            }
            r.headers.push(("allow", ALLOW_METHODS.to_owned()));
            return Step::Respond(r);
        }
        if !head.method.eq_ignore_ascii_case("POST") {
            let mut r = self.refuse(
                head,
                405,
                &format!(
                    "Method Not Allowed: {} (this server has no SSE stream and no sessions; send each message with POST)",
                    head.method
                ),
            );
            r.headers.push(("allow", "POST".to_owned()));
            return Step::Respond(r);
        }
        let accept = head.accept.unwrap_or("*/*");
        if !accepts(accept, "application", "json") || !accepts(accept, "text", "event-stream") {
            return Step::Respond(self.refuse(
                head,
                406,
                "Not Acceptable: the Accept header must allow both application/json and text/event-stream",
            ));
        }
        if !head.content_type.is_some_and(is_json_media_type) {
            return Step::Respond(self.refuse(
                head,
                415,
                "Unsupported Media Type: the body must be one JSON-RPC message with Content-Type: application/json",
            ));
        }
        if let Some(len) = head.content_length {
            let t = len.trim();
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
                return Step::Respond(self.refuse(
                    head,
                    400,
                    "Bad Request: Content-Length is not a number",
                ));
            }
            // Too many digits to parse is larger than any limit.
            let n = t.parse::<u64>().unwrap_or(u64::MAX);
            if n > self.max_body_bytes as u64 {
                return Step::Respond(self.body_too_large(head));
            }
        }
        Step::ReadBody {
            limit: self.max_body_bytes,
        }
    }

    /// The 413 response for a body longer than the limit.
    pub fn body_too_large(&self, head: &Head<'_>) -> Response {
        self.refuse(
            head,
            413,
            &format!(
                "Content Too Large: a message may have at most {} bytes",
                self.max_body_bytes
            ),
        )
    }

    /// The 400 response for a body the platform could not deliver (the client went away, or
    /// sent fewer bytes than its `Content-Length`).
    pub fn body_unreadable(&self, head: &Head<'_>) -> Response {
        self.refuse(head, 400, "Bad Request: the request body could not be read")
    }

    /// The 503 response for a request an adapter had to drop while its body was being read
    /// (too many in progress at once). Its head is gone, so it carries no CORS headers.
    pub fn overloaded(&self) -> Response {
        let body = "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32603,\"message\":\"Service Unavailable: too many requests in progress; retry\"}}";
        Response {
            status: 503,
            headers: vec![
                ("vary", "Origin".to_owned()),
                ("content-type", "application/json".to_owned()),
                ("retry-after", "1".to_owned()),
            ],
            body: body.as_bytes().to_vec(),
        }
    }

    /// Answers a request whose head passed [`Endpoint::head`] with its body.
    pub fn body(&self, head: &Head<'_>, body: &[u8]) -> Response {
        if body.len() > self.max_body_bytes {
            return self.body_too_large(head);
        }
        let reply = self.responder.respond(body, &head.transport());
        let mut r = self.base(head, reply.status);
        if let Some(b) = reply.body {
            r.headers
                .push(("content-type", "application/json".to_owned()));
            r.body = b;
        }
        r
    }

    /// Both steps at once, for adapters that already hold the whole body (tests, servers
    /// whose platform enforces the limit): the head's response if it has one, else the
    /// body's.
    pub fn handle(&self, head: &Head<'_>, body: &[u8]) -> Response {
        match self.head(head) {
            Step::Respond(r) => r,
            Step::ReadBody { .. } => self.body(head, body),
        }
    }
}

/// Whether the media type of a `Content-Type` value is `application/json`.
fn is_json_media_type(v: &str) -> bool {
    let essence = v.split(';').next().unwrap_or("").trim();
    essence.eq_ignore_ascii_case("application/json")
}

/// Whether an `Accept` value allows `type/subtype` (RFC 9110 §12.5.1: the most specific
/// matching range decides, and `q=0` refuses).
fn accepts(accept: &str, ty: &str, sub: &str) -> bool {
    // (specificity, q) of the most specific range seen so far.
    let mut best: Option<(u8, bool)> = None;
    for range in accept.split(',') {
        let mut parts = range.split(';');
        let media = parts.next().unwrap_or("").trim();
        let Some((t, s)) = media.split_once('/') else {
            continue;
        };
        let (t, s) = (t.trim(), s.trim());
        let specificity = if t.eq_ignore_ascii_case(ty) && s.eq_ignore_ascii_case(sub) {
            3
        } else if t.eq_ignore_ascii_case(ty) && s == "*" {
            2
        } else if t == "*" && s == "*" {
            1
        } else {
            continue;
        };
        let mut allowed = true;
        for p in parts {
            if let Some((k, v)) = p.split_once('=') {
                if k.trim().eq_ignore_ascii_case("q") {
                    allowed = v.trim().parse::<f32>().map_or(true, |q| q > 0.0);
                }
            }
        }
        if best.is_none_or(|(sp, _)| specificity > sp) {
            best = Some((specificity, allowed));
        }
    }
    best.is_some_and(|(_, allowed)| allowed)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODERN: &str = r#"{"jsonrpc":"2.0","id":7,"method":"skills/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    const ACCEPT: &str = "application/json, text/event-stream";

    fn endpoint(config: HttpConfig) -> Endpoint {
        let catalog = crate::embedded::catalog().expect("embedded catalog");
        Endpoint::new(catalog, config).expect("valid config")
    }

    fn post<'a>() -> Head<'a> {
        Head {
            method: "POST",
            path: "/mcp",
            host: Some("127.0.0.1:8787"),
            accept: Some(ACCEPT),
            content_type: Some("application/json"),
            protocol_version: Some("2026-07-28"),
            mcp_method: Some("skills/list"),
            ..Head::default()
        }
    }

    fn respond(ep: &Endpoint, head: &Head<'_>) -> Response {
        match ep.head(head) {
            Step::Respond(r) => r,
            Step::ReadBody { limit } => {
                panic!("expected an immediate response, got ReadBody {limit}")
            }
        }
    }

    fn error_code(r: &Response) -> i64 {
        let v: serde_json::Value = serde_json::from_slice(&r.body).expect("JSON body");
        assert_eq!(v["jsonrpc"], "2.0");
        assert!(v.get("id").is_none_or(|id| !id.is_null()), "no null ids");
        v["error"]["code"].as_i64().expect("an error code")
    }

    #[test]
    fn a_result_is_200_json_with_vary() {
        let ep = endpoint(HttpConfig::default());
        let h = post();
        assert_eq!(ep.head(&h), Step::ReadBody { limit: 1 << 20 });
        let r = ep.body(&h, MODERN.as_bytes());
        assert_eq!(r.status, 200);
        assert_eq!(r.header("content-type"), Some("application/json"));
        assert_eq!(r.header("vary"), Some("Origin"));
        assert_eq!(r.header("access-control-allow-origin"), None);
        let v: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
        assert_eq!(v["id"], 7);
        assert!(v["result"]["skills"].is_array());
    }

    #[test]
    fn notifications_get_202_without_body() {
        let ep = endpoint(HttpConfig::default());
        let h = Head {
            protocol_version: Some("2025-11-25"),
            mcp_method: None,
            ..post()
        };
        let r = ep.handle(
            &h,
            br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        );
        assert_eq!(r.status, 202);
        assert!(r.body.is_empty());
        assert_eq!(r.header("content-type"), None);
        assert_eq!(r.header("vary"), Some("Origin"));
    }

    #[test]
    fn responder_statuses_pass_through_with_error_bodies() {
        let ep = endpoint(HttpConfig::default());
        // Parse error.
        let r = ep.handle(&post(), b"{not json");
        assert_eq!((r.status, error_code(&r)), (400, -32700));
        // Batch.
        let r = ep.handle(&post(), format!("[{MODERN}]").as_bytes());
        assert_eq!((r.status, error_code(&r)), (400, -32600));
        // Unknown method.
        let h = Head {
            mcp_method: Some("nope/nope"),
            ..post()
        };
        let body = MODERN.replace("skills/list", "nope/nope");
        let r = ep.handle(&h, body.as_bytes());
        assert_eq!((r.status, error_code(&r)), (404, -32601));
        // Header mismatch.
        let h = Head {
            mcp_method: Some("skills/get"),
            ..post()
        };
        let r = ep.handle(&h, MODERN.as_bytes());
        assert_eq!((r.status, error_code(&r)), (400, -32020));
        // Unsupported version.
        let h = Head {
            protocol_version: Some("v999"),
            ..post()
        };
        let body = MODERN.replace("2026-07-28", "v999");
        let r = ep.handle(&h, body.as_bytes());
        assert_eq!((r.status, error_code(&r)), (400, -32022));
        // Envelope error.
        let r = ep.handle(
            &post(),
            br#"{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{}}"#,
        );
        assert_eq!((r.status, error_code(&r)), (400, -32602));
        // Other errors are 200.
        let h = Head {
            mcp_method: Some("skills/get"),
            ..post()
        };
        let body = MODERN.replace("skills/list", "skills/get").replace(
            "\"params\":{",
            "\"params\":{\"uri\":\"skill://missing/SKILL.md\",",
        );
        let r = ep.handle(&h, body.as_bytes());
        assert_eq!((r.status, error_code(&r)), (200, -32602));
    }

    #[test]
    fn mcp_name_base64_form_reaches_the_responder() {
        let ep = endpoint(HttpConfig::default());
        let uri = "skill://code-review/SKILL.md";
        let encoded = format!("=?base64?{}?=", crate::base64::encode(uri.as_bytes()));
        let h = Head {
            mcp_method: Some("resources/read"),
            mcp_name: Some(&encoded),
            ..post()
        };
        let body = MODERN
            .replace("skills/list", "resources/read")
            .replace("\"params\":{", &format!("\"params\":{{\"uri\":\"{uri}\","));
        let r = ep.handle(&h, body.as_bytes());
        assert_eq!(r.status, 200, "{}", r.body_str());
        assert!(r.body_str().contains("\"contents\""));
    }

    #[test]
    fn legacy_clients_are_served_without_sessions() {
        let ep = endpoint(HttpConfig::default());
        let h = Head {
            protocol_version: None,
            mcp_method: None,
            ..post()
        };
        let r = ep.handle(
            &h,
            br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
        );
        assert_eq!(r.status, 200);
        assert!(r.body_str().contains("\"protocolVersion\":\"2025-11-25\""));
        assert!(r.headers.iter().all(|(n, _)| *n != "mcp-session-id"));
    }

    #[test]
    fn get_and_delete_are_405_with_allow_post() {
        let ep = endpoint(HttpConfig::default());
        for m in ["GET", "DELETE", "PUT", "HEAD"] {
            let r = respond(
                &ep,
                &Head {
                    method: m,
                    ..post()
                },
            );
            assert_eq!(r.status, 405, "{m}");
            assert_eq!(r.header("allow"), Some("POST"));
            assert_eq!(error_code(&r), -32600);
        }
    }

    #[test]
    fn other_paths_are_404() {
        let ep = endpoint(HttpConfig::default());
        for p in ["/", "/mcp/", "/MCP", "/mcp/x", ""] {
            let r = respond(&ep, &Head { path: p, ..post() });
            assert_eq!(r.status, 404, "{p:?}");
            assert_eq!(error_code(&r), -32600);
        }
    }

    #[test]
    fn accept_must_allow_both_types() {
        let ep = endpoint(HttpConfig::default());
        for bad in [
            "application/json",
            "text/event-stream",
            "text/html",
            "application/json, text/event-stream;q=0",
            "*/*;q=0",
            "application/json;q=0, */*",
        ] {
            let r = respond(
                &ep,
                &Head {
                    accept: Some(bad),
                    ..post()
                },
            );
            assert_eq!(r.status, 406, "{bad:?}");
            assert_eq!(error_code(&r), -32600);
        }
        for good in [
            ACCEPT,
            "*/*",
            "application/*, text/*",
            "text/event-stream, application/json;q=0.5",
            "Application/JSON , TEXT/Event-Stream",
            "application/json, */*;q=0.1",
        ] {
            assert!(
                matches!(
                    ep.head(&Head {
                        accept: Some(good),
                        ..post()
                    }),
                    Step::ReadBody { .. }
                ),
                "{good:?}"
            );
        }
        // No Accept header means any type (RFC 9110 §12.5.1).
        assert!(matches!(
            ep.head(&Head {
                accept: None,
                ..post()
            }),
            Step::ReadBody { .. }
        ));
    }

    #[test]
    fn content_type_must_be_json() {
        let ep = endpoint(HttpConfig::default());
        for bad in [
            None,
            Some("text/plain"),
            Some("application/jsonx"),
            Some(""),
        ] {
            let r = respond(
                &ep,
                &Head {
                    content_type: bad,
                    ..post()
                },
            );
            assert_eq!(r.status, 415, "{bad:?}");
            assert_eq!(error_code(&r), -32600);
        }
        for good in ["application/json; charset=utf-8", "Application/Json"] {
            assert!(matches!(
                ep.head(&Head {
                    content_type: Some(good),
                    ..post()
                }),
                Step::ReadBody { .. }
            ));
        }
    }

    #[test]
    fn body_limit_from_content_length_and_from_the_body() {
        let ep = endpoint(HttpConfig {
            max_body_bytes: 100,
            ..HttpConfig::default()
        });
        let r = respond(
            &ep,
            &Head {
                content_length: Some("101"),
                ..post()
            },
        );
        assert_eq!((r.status, error_code(&r)), (413, -32600));
        let r = respond(
            &ep,
            &Head {
                content_length: Some("99999999999999999999999999"),
                ..post()
            },
        );
        assert_eq!(r.status, 413);
        assert_eq!(
            ep.head(&Head {
                content_length: Some("100"),
                ..post()
            }),
            Step::ReadBody { limit: 100 }
        );
        let r = respond(
            &ep,
            &Head {
                content_length: Some("12x"),
                ..post()
            },
        );
        assert_eq!((r.status, error_code(&r)), (400, -32600));
        // Chunked: no Content-Length, the body itself is over the limit.
        let r = ep.body(&post(), &[b' '; 101]);
        assert_eq!(r.status, 413);
        assert_eq!(ep.body_too_large(&post()).status, 413);
    }

    #[test]
    fn adapters_failures_while_reading_a_body_are_json_rpc_errors() {
        let ep = endpoint(HttpConfig::default());
        let r = ep.body_unreadable(&post());
        assert_eq!((r.status, error_code(&r)), (400, -32600));
        assert_eq!(r.header("content-type"), Some("application/json"));
        let r = ep.overloaded();
        assert_eq!((r.status, error_code(&r)), (503, -32603));
        assert_eq!(r.header("content-type"), Some("application/json"));
        assert_eq!(r.header("retry-after"), Some("1"));
    }

    #[test]
    fn body_reader_keeps_at_most_limit_plus_one_bytes() {
        let mut r = BodyReader::new(5);
        assert_eq!(r.room(), 6);
        assert!(r.push(b"ab"));
        assert!(r.push(b""));
        assert!(r.push(b"cde"));
        assert!(!r.is_over());
        assert_eq!(r.finish(), Some(b"abcde".to_vec()));

        let mut r = BodyReader::new(5);
        assert!(r.push(b"abcdefgh"));
        assert!(r.is_over());
        assert_eq!(r.room(), 0);
        assert_eq!(r.buf.len(), 6);
        // The excess is discarded, up to DRAIN_BYTES; then reading stops.
        assert!(r.push_kept(&[], DRAIN_BYTES as usize - 2));
        assert_eq!(r.buf.len(), 6);
        assert!(!r.push_kept(&[], 1));
        assert_eq!(r.finish(), None);

        // An adapter that copies only `room()` bytes.
        let mut r = BodyReader::new(3);
        let chunk = [1u8; 10];
        let n = r.room().min(chunk.len());
        assert!(r.push_kept(&chunk[..n], chunk.len()));
        assert!(r.is_over());
        assert_eq!(r.buf.len(), 4);

        let r = BodyReader::new(0);
        assert_eq!(r.finish(), Some(Vec::new()));
    }

    #[test]
    fn host_allow_list_defends_against_dns_rebinding() {
        let ep = endpoint(HttpConfig::default());
        for ok in [
            "localhost",
            "localhost:8787",
            "127.0.0.1:1",
            "[::1]:8787",
            "LOCALHOST:80",
        ] {
            assert!(
                matches!(
                    ep.head(&Head {
                        host: Some(ok),
                        ..post()
                    }),
                    Step::ReadBody { .. }
                ),
                "{ok}"
            );
        }
        for bad in [
            Some("evil.example.com"),
            Some("evil.example.com:8787"),
            Some("localhost.evil.com"),
            Some("127.0.0.1.nip.io"),
            Some("localhost:notaport"),
            Some("localhost, evil.example.com"),
            Some(""),
            None,
        ] {
            let r = respond(
                &ep,
                &Head {
                    host: bad,
                    ..post()
                },
            );
            assert_eq!(r.status, 403, "{bad:?}");
            assert_eq!(error_code(&r), -32600);
        }
    }

    #[test]
    fn host_patterns() {
        let l = HostList::parse("example.com:443, *.workers.dev, [::1]").unwrap();
        assert!(l.allows("example.com:443"));
        assert!(!l.allows("example.com"));
        assert!(!l.allows("example.com:444"));
        assert!(l.allows("skills.acme.workers.dev"));
        assert!(l.allows("x.workers.dev:8443"));
        assert!(!l.allows("workers.dev"));
        assert!(!l.allows("evilworkers.dev"));
        assert!(l.allows("[::1]:9"));
        assert!(!l.allows("[::2]"));
        assert!(HostList::parse("*").unwrap().allows("anything.example"));
        for bad in [
            "",
            " , ",
            "exa mple.com",
            "a:b:c",
            "host:99999",
            "[::1",
            "*.",
            "a..b",
        ] {
            let e = HostList::parse(bad).unwrap_err();
            assert_eq!(e.var, "ALLOWED_HOSTS", "{bad:?}");
        }
    }

    #[test]
    fn origin_patterns() {
        let l = OriginList::parse(DEFAULT_ALLOWED_ORIGINS).unwrap();
        assert!(l.allows("http://localhost:6274"));
        assert!(l.allows("http://127.0.0.1:3000"));
        assert!(l.allows("http://localhost"));
        assert!(l.allows("http://[::1]:5173"));
        assert!(!l.allows("https://localhost:6274"));
        assert!(!l.allows("http://evil.example.com"));
        assert!(!l.allows("http://localhost.evil.example.com"));
        assert!(!l.allows("null"));
        assert!(!l.allows("http://localhost:6274/path"));

        let l =
            OriginList::parse("https://app.example.com, https://*.example.org:8443, null").unwrap();
        assert!(l.allows("https://app.example.com"));
        assert!(l.allows("https://app.example.com:443"));
        assert!(!l.allows("http://app.example.com"));
        assert!(!l.allows("https://app.example.com:444"));
        assert!(l.allows("https://a.b.example.org:8443"));
        assert!(!l.allows("https://example.org:8443"));
        assert!(l.allows("null"));
        assert!(OriginList::parse("*")
            .unwrap()
            .allows("https://anything.example"));
        assert_eq!(OriginList::parse("").unwrap(), OriginList::Only(vec![]));
        for bad in [
            "example.com",
            "https://example.com/",
            "https://exa mple.com",
            "http://x:99999",
            "://x",
        ] {
            let e = OriginList::parse(bad).unwrap_err();
            assert_eq!(e.var, "ALLOWED_ORIGINS", "{bad:?}");
            assert!(e.to_string().contains(bad), "{e}");
        }
    }

    #[test]
    fn foreign_origins_are_403_without_cors_headers() {
        let ep = endpoint(HttpConfig::default());
        for m in ["POST", "OPTIONS", "GET"] {
            let r = respond(
                &ep,
                &Head {
                    method: m,
                    origin: Some("http://evil.example.com"),
                    ..post()
                },
            );
            assert_eq!(r.status, 403, "{m}");
            assert_eq!(error_code(&r), -32600);
            assert!(r
                .headers
                .iter()
                .all(|(n, _)| !n.starts_with("access-control-")));
            assert_eq!(r.header("vary"), Some("Origin"));
        }
    }

    #[test]
    fn preflight_from_an_allowed_origin() {
        let ep = endpoint(HttpConfig::default());
        let h = Head {
            method: "OPTIONS",
            origin: Some("http://localhost:5173"),
            accept: None,
            content_type: None,
            protocol_version: None,
            mcp_method: None,
            ..post()
        };
        let r = respond(&ep, &h);
        assert_eq!(r.status, 204);
        assert!(r.body.is_empty());
        assert_eq!(
            r.header("access-control-allow-origin"),
            Some("http://localhost:5173")
        );
        assert_eq!(
            r.header("access-control-allow-methods"),
            Some("POST, OPTIONS")
        );
        let allowed = r.header("access-control-allow-headers").unwrap();
        for name in [
            "content-type",
            "accept",
            "mcp-protocol-version",
            "mcp-method",
            "mcp-name",
            "authorization",
        ] {
            assert!(allowed.split(", ").any(|n| n == name), "{name}");
        }
        assert_eq!(r.header("access-control-max-age"), Some("7200"));
        assert_eq!(r.header("access-control-allow-credentials"), None);
        assert_eq!(r.header("vary"), Some("Origin"));
        // Without Origin it is a plain OPTIONS.
        let r = respond(&ep, &Head { origin: None, ..h });
        assert_eq!(r.status, 204);
        assert_eq!(r.header("access-control-allow-origin"), None);
        assert_eq!(r.header("allow"), Some("POST, OPTIONS"));
    }

    #[test]
    fn cors_headers_on_every_response_from_an_allowed_origin() {
        let ep = endpoint(HttpConfig::default());
        let o = "http://127.0.0.1:3000";
        let with = |h: Head<'static>| Head {
            origin: Some(o),
            ..h
        };
        let cases: Vec<Response> = vec![
            ep.handle(&with(post()), MODERN.as_bytes()),
            ep.handle(&with(post()), b"{"),
            respond(
                &ep,
                &with(Head {
                    method: "GET",
                    ..post()
                }),
            ),
            respond(
                &ep,
                &with(Head {
                    accept: Some("text/html"),
                    ..post()
                }),
            ),
            respond(
                &ep,
                &with(Head {
                    content_type: Some("text/plain"),
                    ..post()
                }),
            ),
            respond(
                &ep,
                &with(Head {
                    path: "/x",
                    ..post()
                }),
            ),
            respond(
                &ep,
                &with(Head {
                    host: Some("evil.example.com"),
                    ..post()
                }),
            ),
            ep.body_too_large(&with(post())),
        ];
        for r in cases {
            assert_eq!(
                r.header("access-control-allow-origin"),
                Some(o),
                "{}",
                r.status
            );
            assert_eq!(r.header("vary"), Some("Origin"));
        }
    }

    #[test]
    fn any_origin_is_echoed_not_wildcarded() {
        let ep = endpoint(HttpConfig {
            allowed_origins: OriginList::Any,
            ..HttpConfig::default()
        });
        let r = ep.handle(
            &Head {
                origin: Some("https://x.example"),
                ..post()
            },
            MODERN.as_bytes(),
        );
        assert_eq!(r.status, 200);
        assert_eq!(
            r.header("access-control-allow-origin"),
            Some("https://x.example")
        );
    }

    #[test]
    fn head_from_headers_is_case_insensitive() {
        let h = Head::from_headers(
            "POST",
            "/mcp",
            [
                ("Host", "localhost:1"),
                ("ORIGIN", "http://localhost:2"),
                ("Mcp-Method", "skills/list"),
                ("MCP-Protocol-Version", "2026-07-28"),
                ("mcp-name", "n"),
                ("Accept", "a"),
                ("Content-Type", "c"),
                ("Content-Length", "3"),
                ("X-Other", "ignored"),
                ("host", "second"),
            ],
        );
        assert_eq!(h.host, Some("localhost:1"));
        assert_eq!(h.origin, Some("http://localhost:2"));
        assert_eq!(h.mcp_method, Some("skills/list"));
        assert_eq!(h.protocol_version, Some("2026-07-28"));
        assert_eq!(h.mcp_name, Some("n"));
        assert_eq!(h.accept, Some("a"));
        assert_eq!(h.content_type, Some("c"));
        assert_eq!(h.content_length, Some("3"));
    }

    #[test]
    fn config_from_vars() {
        let c = HttpConfig::from_vars(|_| None).unwrap();
        assert_eq!(c, HttpConfig::default());
        assert_eq!(c.server.page_size, 50);
        assert_eq!(c.server.ttl_ms, 300_000);
        assert_eq!(c.server.cache_scope, CacheScope::Public);
        assert_eq!(c.server.instructions, None);
        assert_eq!(c.max_body_bytes, 1 << 20);

        let vars = [
            ("PAGE_SIZE", "2"),
            ("TTL_MS", "0"),
            ("CACHE_SCOPE", "private"),
            ("INSTRUCTIONS", ""),
            ("ALLOWED_ORIGINS", "https://a.example"),
            ("ALLOWED_HOSTS", "*"),
            ("MAX_BODY_BYTES", "4096"),
        ];
        let get = |n: &str| {
            vars.iter()
                .find(|(k, _)| *k == n)
                .map(|(_, v)| v.to_string())
        };
        let c = HttpConfig::from_vars(get).unwrap();
        assert_eq!(c.server.page_size, 2);
        assert_eq!(c.server.ttl_ms, 0);
        assert_eq!(c.server.cache_scope, CacheScope::Private);
        assert_eq!(c.server.instructions.as_deref(), Some(""));
        assert!(c.allowed_origins.allows("https://a.example"));
        assert!(!c.allowed_origins.allows("http://localhost:1"));
        assert_eq!(c.allowed_hosts, HostList::Any);
        assert_eq!(c.max_body_bytes, 4096);
        assert!(endpoint(c).responder().config().instructions.is_some());
    }

    #[test]
    fn bad_vars_are_named_with_value_and_form() {
        let cases = [
            ("PAGE_SIZE", "0"),
            ("PAGE_SIZE", "1001"),
            ("PAGE_SIZE", "ten"),
            ("PAGE_SIZE", "-1"),
            ("PAGE_SIZE", ""),
            ("TTL_MS", "9007199254740992"),
            ("TTL_MS", "1.5"),
            ("CACHE_SCOPE", "shared"),
            ("ALLOWED_ORIGINS", "localhost:3000"),
            ("ALLOWED_HOSTS", ""),
            ("MAX_BODY_BYTES", "0"),
            ("MAX_BODY_BYTES", "16777217"),
            ("MAX_BODY_BYTES", "1MiB"),
        ];
        for (name, value) in cases {
            let e = HttpConfig::from_vars(|n| (n == name).then(|| value.to_owned())).unwrap_err();
            assert_eq!(e.var, name);
            assert_eq!(e.value, value);
            let var = VARS.iter().find(|v| v.name == name).unwrap();
            let msg = e.to_string();
            assert!(msg.contains(name) && msg.contains(var.form), "{msg}");
            assert!(msg.contains(&format!("{value:?}")), "{msg}");
        }
        // Surrounding blanks are tolerated in numbers and lists.
        let c = HttpConfig::from_vars(|n| (n == "PAGE_SIZE").then(|| " 7 ".to_owned())).unwrap();
        assert_eq!(c.server.page_size, 7);
    }

    #[test]
    fn endpoint_rejects_an_out_of_range_limit() {
        let catalog = crate::embedded::catalog().unwrap();
        let c = HttpConfig {
            max_body_bytes: 0,
            ..HttpConfig::default()
        };
        assert!(Endpoint::new(catalog, c).is_err());
    }

    #[test]
    fn vars_table_defaults_parse() {
        for v in VARS {
            if v.name == INSTRUCTIONS.name {
                continue;
            }
            let c = HttpConfig::from_vars(|n| (n == v.name).then(|| v.default.to_owned()));
            assert_eq!(c, Ok(HttpConfig::default()), "{}", v.name);
        }
    }
}
