//! What a client knows of its server and sends with its requests: the client's identity, the protocol era, the server's facts from `initialize`, and the headers a caller adds.

use super::*;

/// How the client names itself (`clientInfo`).
///
/// ```
/// use skills_edge::client::{block_on, http::HttpSession, ClientInfo, EraChoice};
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
/// let session = HttpSession::new(ClientInfo { name: "my-host".into(), version: "1.0".into() });
/// block_on(session.connect(&wire, EraChoice::Legacy)).unwrap();
/// let initialize: serde_json::Value = serde_json::from_str(&wire.sent.borrow()[0].body).unwrap();
/// assert_eq!(initialize["params"]["clientInfo"], serde_json::json!({"name": "my-host", "version": "1.0"}));
/// assert_eq!(ClientInfo::default().name, "skills-edge");
/// ```
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
///
/// ```
/// use skills_edge::client::{block_on, http::HttpSession, ClientInfo, EraChoice};
/// use skills_edge::protocol::Era;
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
/// // A server that speaks both revisions.
/// for (choice, era, version) in [(EraChoice::Auto, Era::Modern, "2026-07-28"), (EraChoice::Legacy, Era::Legacy, "2025-11-25")] {
///     let facts = block_on(HttpSession::new(ClientInfo::default()).connect(&wire, choice)).unwrap();
///     assert_eq!((facts.era, facts.protocol_version.as_str()), (era, version));
/// }
/// assert_eq!(EraChoice::Modern.as_str(), "2026-07-28");
/// ```
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
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    #[cfg_attr(not(feature = "command"), allow(dead_code))]
    pub(crate) fn parse(s: &str) -> Option<EraChoice> {
        match s {
            "auto" => Some(EraChoice::Auto),
            "2026-07-28" => Some(EraChoice::Modern),
            "2025-11-25" => Some(EraChoice::Legacy),
            _ => None,
        }
    }

    /// Its name on the command line and in the npm package (`--era`, `era`).
    pub fn as_str(self) -> &'static str {
        match self {
            EraChoice::Auto => "auto",
            EraChoice::Modern => "2026-07-28",
            EraChoice::Legacy => "2025-11-25",
        }
    }
}

/// What a connected server said about itself.
///
/// ```
/// use skills_edge::client::ServerFacts;
/// use skills_edge::protocol::Era;
/// let initialize = serde_json::json!({"protocolVersion": "2025-11-25",
///     "capabilities": {"extensions": {"io.modelcontextprotocol/skills": {}}},
///     "serverInfo": {"name": "docs", "version": "1.2"}, "instructions": "Use the skills."});
/// let facts = ServerFacts::from_result(Era::Legacy, "2025-11-25", &initialize);
/// assert!(facts.capabilities["extensions"]["io.modelcontextprotocol/skills"].is_object());
/// assert_eq!(facts.server_info.as_ref().unwrap()["name"], "docs");
/// assert_eq!(facts.instructions.as_deref(), Some("Use the skills."));
/// ```
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
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn declares_skills(&self) -> bool {
        self.skills_capability().is_some()
    }

    /// Whether it declares `directoryRead` (`resources/directory/read`).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn directory_read(&self) -> bool {
        self.skills_capability()
            .and_then(|c| c.get("directoryRead"))
            .and_then(Json::as_bool)
            .unwrap_or(false)
    }

    /// `name version` of its `serverInfo`, if it sent one.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    #[cfg_attr(not(feature = "command"), allow(dead_code))]
    pub(crate) fn server_name(&self) -> Option<String> {
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
#[cfg(any(feature = "command", feature = "internals"))]
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
#[cfg(any(feature = "command", feature = "internals"))]
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
pub(crate) fn context_of(headers: &[(String, String)]) -> String {
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
