//! JSON-RPC 2.0 and MCP wire basics: protocol versions, the error types every failure maps
//! through (the responder's `RpcError` and the transport's [`Refusal`]), the parsing of an
//! incoming message's envelope, the one writer of reply envelopes, and the header rules that
//! tie a Streamable HTTP request to its body; the `cacheScope` of a cacheable result
//! ([`CacheScope`]), which the server sets and a host reads.
//!
//! | module | what it is |
//! |---|---|
//! | `envelope` | one incoming message, parsed without building a value tree |
//! | `error` | `RpcError`: code, message, `data` and HTTP status of every responder error |
//! | `refusal` | [`Refusal`]: status, code and message of every transport refusal |
//! | [`reply`] | the one writer of response envelopes ([`reply::refusal`] for adapters) |
//! | `headers` | the era a request belongs to; `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` mirroring; the `=?base64?…?=` value form |
//!
//! Only [`Refusal`], [`reply::refusal`], [`Era`], [`CacheScope`] and [`clip`] are public: an
//! adapter answers a refusal and clips what it repeats of a request in its log, a host reads a
//! result's era and `cacheScope`. The rest, the protocol's names (versions, the extension's
//! identifier) included, serves the responder and the client inside this crate; the request headers the responder reads are [`crate::server::HttpHeaders`].

pub(crate) mod envelope;
pub(crate) mod error;
pub(crate) mod headers;
mod refusal;
pub mod reply;

pub(crate) use envelope::{parse_message, Incoming, NamedParams, Params, RawId};
pub(crate) use error::RpcError;
pub use refusal::Refusal;

/// A request value as every message of this crate repeats it: whole up to 200 characters,
/// else its first 200 followed by `…` (so a long header or path never makes a long reply or
/// log line). For adapters that log what a request sent (the Worker's authentication log).
///
/// ```
/// let long = "x".repeat(60_000);
/// assert_eq!(skills_edge::protocol::clip(&long).chars().count(), 201);
/// assert_eq!(skills_edge::protocol::clip("/mcp"), "/mcp");
/// ```
pub fn clip(s: &str) -> std::borrow::Cow<'_, str> {
    error::clip(s)
}

/// Decodes a header value in the `=?base64?…?=` form (the responder's rule for `Mcp-Name` and
/// `Mcp-Method`). Exposed for the fuzz target `headers` only; not part of the API.
#[doc(hidden)]
pub use headers::decode_header_value;

/// The protocol revision of the stateless, per-request `_meta` era.
#[cfg_attr(feature = "internals", visibility::make(pub))]
pub(crate) const MODERN_VERSION: &str = "2026-07-28";

/// Revisions served with the 2026-07-28 rules (per-request `_meta`, `server/discover`).
/// This list is `supportedVersions` in `server/discover` and `data.supported` in `-32022`.
///
/// Legacy revisions are deliberately not listed: they are negotiated with `initialize`, not
/// per request, so naming them here would invite a client to send `_meta` with a version this
/// server can only speak through the handshake (spec notes §6, "Open question").
pub(crate) const MODERN_VERSIONS: &[&str] = &[MODERN_VERSION];

/// Revisions served with the legacy (`initialize`) rules, newest first. The first is what
/// `initialize` answers when the client asks for a version this server does not know.
#[cfg_attr(feature = "internals", visibility::make(pub))]
pub(crate) const LEGACY_VERSIONS: &[&str] =
    &["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/// The `_meta` key carrying the protocol version of a request.
pub(crate) const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// The `_meta` key carrying the client's capabilities.
pub(crate) const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// The result `_meta` key carrying the server's identity.
pub(crate) const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
/// The Skills extension identifier.
#[cfg_attr(feature = "internals", visibility::make(pub))]
pub(crate) const SKILLS_EXTENSION: &str = "io.modelcontextprotocol/skills";

/// Which rules a request is served under.
///
/// ```
/// use skills_edge::client::ServerFacts;
/// use skills_edge::protocol::Era;
/// // A 2026-07-28 server names itself in the result's `_meta`, a 2025-11-25 one in `serverInfo`.
/// let modern = serde_json::json!({"capabilities": {},
///     "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "docs", "version": "2"}}});
/// let facts = ServerFacts::from_result(Era::Modern, "2026-07-28", &modern);
/// assert_eq!(facts.server_info.as_ref().unwrap()["name"], "docs");
/// assert_eq!(ServerFacts::from_result(Era::Legacy, "2025-11-25", &modern).server_info, None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// 2026-07-28: stateless, `_meta` on every request, `resultType` and cache hints.
    Modern,
    /// 2025-11-25 and earlier: `initialize` handshake (served statelessly here).
    Legacy,
}

/// `cacheScope` of a cacheable result (MCP 2026-07-28): who may keep it for its `ttlMs`. The
/// server sets it (its configuration's `cache_scope`); a host reads it from a result.
///
/// ```
/// use skills_edge::protocol::CacheScope;
/// use skills_edge::server::{Config, Grant, Responder};
/// let config = Config { cache_scope: CacheScope::Private, ..Config::default() };
/// let responder = Responder::new(skills_edge::embedded::catalog().unwrap(), config).unwrap();
/// let (ttl_ms, scope) = responder.cache_hints(Grant::PUBLIC);
/// assert_eq!((ttl_ms, scope.as_str()), (300_000, "private"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheScope {
    /// Any cache may share the result (the embedded catalog is the same for every caller).
    Public,
    /// Only the requesting client may cache it (use when content depends on authorization).
    Private,
}

impl CacheScope {
    /// Every scope, in the order of [`CacheScope::NAMES`].
    const ALL: [CacheScope; 2] = [CacheScope::Public, CacheScope::Private];

    /// The wire values, in declaration order: the choices of the `CACHE_SCOPE` setting.
    pub(crate) const NAMES: [&'static str; 2] = ["public", "private"];

    /// The wire value.
    pub fn as_str(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// Parses `"public"` or `"private"`.
    pub(crate) fn parse(s: &str) -> Option<CacheScope> {
        Self::ALL.into_iter().find(|c| c.as_str() == s)
    }
}
