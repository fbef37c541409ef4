//! Streamable HTTP for the client, without the I/O: what to POST (body and MCP headers), how
//! to read what comes back (a JSON body or a request-scoped event stream), and how to find a
//! protocol revision both sides speak. The caller's [`HttpIo`] only moves bytes: `fetch` in
//! the npm package, an HTTP client in the native command.
//!
//! Era negotiation ([`HttpSession::connect`]), with [`EraChoice::Auto`]:
//!
//! 1. `server/discover` at 2026-07-28 (per-request `_meta`, `MCP-Protocol-Version`,
//!    `Mcp-Method`). A result whose `supportedVersions` lists 2026-07-28 settles it.
//! 2. Anything that says "not this revision" — a JSON-RPC error (`-32601`, `-32022`, …), HTTP
//!    400, 404, 405, 406, 415 or 422 without one, or a result without 2026-07-28 — falls back
//!    to `initialize` at 2025-11-25 (no version header), then `notifications/initialized`;
//!    later requests carry `MCP-Protocol-Version` with the version the server chose and its
//!    `Mcp-Session-Id` when it gave one.
//! 3. A failure of the exchange itself (no connection, a timeout, an abort, HTTP 401, 403 or
//!    5xx) is reported as it is: falling back would only hide it. A 401 is explained from the
//!    server's challenge and metadata ([`super::challenge`]).
//!
//! [`EraChoice::Modern`] stops after step 1 (anything else is `protocol-error`);
//! [`EraChoice::Legacy`] starts at step 2.
//!
//! Headers of every request: `Content-Type: application/json`, `Accept: application/json,
//! text/event-stream`; at 2026-07-28 `MCP-Protocol-Version`, `Mcp-Method` and, on
//! `resources/read`, `Mcp-Name` with the URI (on `tools/call` and `prompts/get`, with the
//! tool's or prompt's name), each in the `=?base64?…?=` form when the value
//! is not plain ASCII (`protocol::headers::encode_header_value`, the inverse of the
//! responder's decoder). The caller adds its own headers (authorization), checked by
//! `check_headers` so they never replace these.
//!
//! Replies: a 2xx with `application/json` is one JSON-RPC response; with `text/event-stream`
//! the events are read until the response with the request's `id` arrives (notifications and
//! anything else are skipped, the rest of the stream is not waited for). A non-2xx status with
//! a JSON-RPC error body is that error (`server-error`); without one it is `http-status`.
//! Replies are capped at `MAX_REPLY_BYTES`; the reply to `notifications/initialized`, which
//! carries nothing the client reads, at 64 KiB (the rest is not read).
//!
//! Strictness of replies:
//!
//! * A response object that has a member twice (`{"id":0,"id":1,…}`) is refused
//!   (`protocol-error`): readers that keep the first and the last would see different answers.
//! * An error whose `id` is `null` (or absent) is the server saying it could not read the
//!   request's `id` (JSON-RPC 2.0 §5). Each POST carries exactly one request, so it can only be
//!   about that request: it is taken as that request's error answer. A `result` must carry the
//!   request's own `id`.
//! * An event stream may start with one UTF-8 byte order mark, which is skipped (WHATWG HTML,
//!   "Interpreting an event stream").
//! * An `Mcp-Session-Id` that is not visible ASCII (0x21–0x7E, as the 2025-11-25 transport
//!   requires) is dropped, never echoed: the requests that follow go without one, and a server
//!   that needs it says so.
//! * A failed [`HttpSession::connect`] leaves no facts and no session id behind.

use std::cell::RefCell;
use std::future::Future;

use serde_json::{json, Value as Json};

use super::challenge::{
    metadata_urls, parse_challenge, read_metadata, unauthorized, Requested, MAX_METADATA_BYTES,
};
use super::error::{ClientError, ExchangeKind, Result};
use super::{ClientInfo, EraChoice, Rpc, ServerFacts};
use crate::host::error::{ErrorCode, VerifyError};
use crate::json::Node;
use crate::protocol::headers::encode_header_value;
use crate::protocol::{
    Era, LEGACY_VERSIONS, META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION, MODERN_VERSION,
};

mod reply;
mod sse;
pub use reply::read_answer;
pub(crate) use reply::serde_value;
use reply::{read_reply, Reader};
pub use sse::Sse;

/// The largest reply read, in bytes (a 16 MiB file in base64 with its JSON-RPC envelope fits
/// with room to spare).
pub(crate) const MAX_REPLY_BYTES: usize = 64 << 20;

/// The most bytes read of the reply to `notifications/initialized` (a notification has no
/// answer; a server may still send a body, which is read this far and then dropped).
#[cfg_attr(feature = "internals", visibility::make(pub))]
pub(crate) const MAX_NOTIFICATION_REPLY_BYTES: usize = 64 << 10;

/// The `_meta` key of the client's identity.
const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";

/// The legacy revision this client asks for in `initialize`.
const LEGACY_VERSION: &str = "2025-11-25";

/// One POST to the MCP endpoint: the JSON body and the MCP headers (lowercase names). The
/// caller adds its own headers and sends it.
///
/// ```
/// use skills_edge::client::{block_on, Rpc, SkillsClient};
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
/// block_on(rpc.call("resources/read", serde_json::json!({"uri": "skill://code-review/SKILL.md"}))).unwrap();
/// let sent: skills_edge::client::http::HttpRequest = wire.sent.borrow().last().unwrap().clone();
/// let header = |n: &str| sent.headers.iter().find(|(k, _)| k == n).map(|(_, v)| v.as_str());
/// assert_eq!((header("mcp-protocol-version"), header("mcp-method")), (Some("2026-07-28"), Some("resources/read")));
/// assert_eq!(header("mcp-name"), Some("skill://code-review/SKILL.md"));
/// assert!(sent.body.contains(r#""method":"resources/read""#));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpRequest {
    /// The JSON-RPC message.
    pub body: String,
    /// `content-type`, `accept`, and the MCP headers of this request.
    pub headers: Vec<(String, String)>,
}

/// What came back: the status, the two headers the client reads, and the body as a stream.
///
/// ```
/// use skills_edge::client::http::{HttpIo, HttpRequest, HttpResponse, HttpSession, ResponseBody};
/// use skills_edge::client::{block_on, ClientInfo, EraChoice, ExchangeKind, Result};
/// # struct Body(Option<Vec<u8>>);
/// # impl ResponseBody for Body {
/// #     async fn next_chunk(&mut self) -> Result<Option<Vec<u8>>> { Ok(self.0.take()) }
/// # }
/// struct Down;
/// impl HttpIo for Down {
///     type Body = Body;
///     async fn post(&self, _request: HttpRequest) -> Result<HttpResponse<Body>> {
///         Ok(HttpResponse { status: 503, content_type: Some("text/plain".into()), session_id: None,
///             www_authenticate: None, body: Body(Some(b"down for maintenance".to_vec())) })
///     }
///     fn now_ms(&self) -> f64 { 0.0 }
/// }
/// // A status without a JSON-RPC answer is a failure of the exchange, reported as it is.
/// let e = block_on(HttpSession::new(ClientInfo::default()).connect(&Down, EraChoice::Auto)).unwrap_err();
/// assert_eq!(e.code, ExchangeKind::HttpStatus);
/// assert_eq!(e.actual.as_deref(), Some("503"));
/// ```
#[derive(Debug)]
pub struct HttpResponse<B> {
    /// The HTTP status.
    pub status: u16,
    /// `Content-Type`, if any.
    pub content_type: Option<String>,
    /// `Mcp-Session-Id`, if any (2025-11-25 servers that keep sessions).
    pub session_id: Option<String>,
    /// `WWW-Authenticate`, if any: the challenge of a 401 ([`super::challenge`]).
    pub www_authenticate: Option<String>,
    /// The body.
    pub body: B,
}

/// A response body, read chunk by chunk (an event stream may stay open after the response;
/// it is dropped as soon as the response is read).
///
/// An event stream that arrives in pieces, and stays open after the answer:
///
/// ```
/// use skills_edge::client::http::{HttpIo, HttpRequest, HttpResponse, HttpSession, ResponseBody};
/// use skills_edge::client::{block_on, ClientInfo, EraChoice, Result};
/// struct Chunks(Vec<&'static str>);
/// impl ResponseBody for Chunks {
///     async fn next_chunk(&mut self) -> Result<Option<Vec<u8>>> {
///         Ok((!self.0.is_empty()).then(|| self.0.remove(0).as_bytes().to_vec()))
///     }
/// }
/// # struct Stream;
/// # impl HttpIo for Stream {
/// #     type Body = Chunks;
/// #     async fn post(&self, _request: HttpRequest) -> Result<HttpResponse<Chunks>> {
/// #         Ok(HttpResponse { status: 200, content_type: Some("text/event-stream".into()), session_id: None, www_authenticate: None,
/// #             body: Chunks(vec!["data: {\"jsonrpc\":\"2.0\",\"id\":1,\"res", "ult\":{\"supportedVersions\":[\"2026-07-28\"],",
/// #                 "\"capabilities\":{\"tools\":{}}}}\n\n", ": still open\n"]) })
/// #     }
/// #     fn now_ms(&self) -> f64 { 0.0 }
/// # }
/// // `Stream` answers server/discover with those chunks, as `text/event-stream`.
/// let facts = block_on(HttpSession::new(ClientInfo::default()).connect(&Stream, EraChoice::Modern)).unwrap();
/// assert_eq!(facts.protocol_version, "2026-07-28");
/// assert!(facts.capabilities["tools"].is_object());
/// ```
pub trait ResponseBody {
    /// The next chunk, or `None` at the end. Failures are `connection-failed`, `timeout` or
    /// `aborted`.
    fn next_chunk(&mut self) -> impl Future<Output = Result<Option<Vec<u8>>>>;
}

/// The bytes-only part of a Streamable HTTP client: POST a request to the endpoint, hand the
/// response back.
///
/// Over a server in the same process (a real transport POSTs `request` to the endpoint):
///
/// ```
/// use std::future::{ready, Future};
/// use skills_edge::client::http::{HttpIo, HttpRequest, HttpResponse, HttpSession, ResponseBody};
/// use skills_edge::client::{block_on, ClientInfo, EraChoice, Result};
/// use skills_edge::server::{Config, Grant, HttpHeaders, Responder, Transport};
/// # struct Body(Option<Vec<u8>>);
/// # impl ResponseBody for Body {
/// #     async fn next_chunk(&mut self) -> Result<Option<Vec<u8>>> { Ok(self.0.take()) }
/// # }
/// struct InProcess(Responder);
/// impl HttpIo for InProcess {
///     type Body = Body;
///     fn post(&self, request: HttpRequest) -> impl Future<Output = Result<HttpResponse<Body>>> {
///         let header = |n: &str| request.headers.iter().find(|(k, _)| k == n).map(|(_, v)| v.as_str());
///         let transport = Transport::Http(HttpHeaders {
///             protocol_version: header("mcp-protocol-version"), method: header("mcp-method"), name: header("mcp-name") });
///         let reply = self.0.respond(request.body.as_bytes(), &transport, Grant::PUBLIC);
///         ready(Ok(HttpResponse { status: reply.status, content_type: Some("application/json".into()),
///             session_id: None, www_authenticate: None, body: Body(reply.body) }))
///     }
///     fn now_ms(&self) -> f64 { 0.0 }
/// }
/// let io = InProcess(Responder::new(skills_edge::embedded::catalog().unwrap(), Config::default()).unwrap());
/// let facts = block_on(HttpSession::new(ClientInfo::default()).connect(&io, EraChoice::Auto)).unwrap();
/// assert!(facts.capabilities["extensions"]["io.modelcontextprotocol/skills"].is_object());
/// ```
pub trait HttpIo {
    /// The body type of responses.
    type Body: ResponseBody;
    /// POSTs `request` (with the caller's own headers added) to the endpoint. Failures are
    /// `connection-failed`, `timeout` or `aborted`; any status is a response.
    fn post(&self, request: HttpRequest) -> impl Future<Output = Result<HttpResponse<Self::Body>>>;
    /// GETs `url`, following at most 5 redirects itself (never the HTTP library's own
    /// following), with the caller's own headers on a hop only when the hop's URL has the
    /// origin of the URL the caller gave ([`crate::host::same_origin`]): the index,
    /// artifacts, envelopes and keys of a well-known skills source (the command's `wellknown`
    /// run) and the metadata explaining a 401. A sixth redirect is `http-status` naming the
    /// limit. Failures as for [`HttpIo::post`]. The default refuses (`invalid-argument`), so a transport that only
    /// speaks MCP needs nothing more.
    fn get(&self, url: &str) -> impl Future<Output = Result<HttpResponse<Self::Body>>> {
        std::future::ready(Err(VerifyError::new(
            ErrorCode::InvalidArgument,
            format!("this transport cannot GET {url}; it only POSTs to an MCP endpoint"),
        )
        .into()))
    }
    /// Milliseconds on a clock that does not go backwards (for cache expiry).
    fn now_ms(&self) -> f64;
    /// The endpoint's URL: where the metadata explaining a 401 is looked up
    /// ([`super::challenge`]). The default `None` reports a 401 with its challenge only.
    fn endpoint(&self) -> Option<&str> {
        None
    }
    /// Whether the requests carry an `Authorization` header (a token): a 401 says whether one
    /// was sent, never the token. The default says none is.
    fn sends_authorization(&self) -> bool {
        false
    }
}

/// A JSON-RPC answer: a result, or the server's error.
///
/// What [`read_answer`] returns; public (and hidden from the documentation) for the fuzz target
/// `reply` and the reply tests of `tests/client_bounds.rs`, which read replies without a session.
#[doc(hidden)]
#[derive(Debug, Clone, PartialEq)]
pub enum Answer<R = String> {
    /// The `result` object, as the reader given the reply made it (for [`read_answer`]: the
    /// JSON text it was read from).
    Result(R),
    /// The `error` object's fields.
    Error {
        /// Its `code`.
        code: i64,
        /// Its `message`.
        message: String,
        /// Its `data`, if any.
        data: Option<Json>,
    },
}

/// How a request is framed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Framing<'a> {
    /// 2026-07-28: `_meta` envelope and the MCP headers.
    Modern,
    /// `initialize`: no `MCP-Protocol-Version` header.
    Initialize,
    /// After `initialize`: `MCP-Protocol-Version` with the negotiated version.
    Legacy(&'a str),
}

#[derive(Debug, Default)]
struct SessionState {
    facts: Option<ServerFacts>,
    session_id: Option<String>,
    next_id: u64,
}

/// One client's connection state over Streamable HTTP: the negotiated revision, the server's
/// facts, the legacy session id and the request ids. Requests go through [`HttpSession::rpc`].
///
/// ```
/// use skills_edge::client::{block_on, http::HttpSession, ClientInfo, EraChoice, Rpc};
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
/// let facts = block_on(session.connect(&wire, EraChoice::Auto)).unwrap();
/// assert_eq!(facts.protocol_version, "2026-07-28");
/// // The result object's JSON text, as the server sent it.
/// let text = block_on(session.rpc(&wire).call("skills/list", serde_json::json!({}))).unwrap();
/// let result = skills_edge::catalog::json::parse(&text).unwrap();
/// assert!(result.get("skills").is_some_and(|s| s.a_type() == "an array" && s.raw != "[]"));
/// ```
#[derive(Debug)]
pub struct HttpSession {
    info: ClientInfo,
    state: RefCell<SessionState>,
}

/// [`Rpc`] over an [`HttpSession`] and the caller's [`HttpIo`].
///
/// ```
/// use skills_edge::client::{block_on, http::HttpRpc, Rpc, SkillsClient};
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
/// // One per operation: it borrows the session and the transport.
/// let rpc: HttpRpc<'_, Wire> = session.rpc(&wire);
/// assert_eq!(rpc.now_ms(), wire.now_ms()); // the transport's clock dates the cache
/// let fetched = block_on(client.get(&rpc, "skill://code-review/SKILL.md")).unwrap();
/// assert_eq!(fetched.skill.files, 2);
/// ```
pub struct HttpRpc<'a, H> {
    session: &'a HttpSession,
    io: &'a H,
}

impl<H: HttpIo> Rpc for HttpRpc<'_, H> {
    fn call(&self, method: &str, params: Json) -> impl Future<Output = Result<String>> {
        self.session
            .call(self.io, method, params, |result| Ok(result.raw.to_owned()))
    }

    /// The result as read with the reply: the reply is read once.
    async fn call_read<T>(
        &self,
        method: &str,
        params: Json,
        read: impl FnOnce(&Node<'_>) -> Result<T>,
    ) -> Result<T> {
        self.session.call(self.io, method, params, read).await
    }

    fn now_ms(&self) -> f64 {
        self.io.now_ms()
    }
}

fn protocol(message: impl Into<String>) -> ClientError {
    ClientError::exchange(ExchangeKind::ProtocolError, message)
}

fn state_busy() -> ClientError {
    protocol("internal: the session state is in use")
}

impl HttpSession {
    /// A session that identifies itself as `info`.
    pub fn new(info: ClientInfo) -> HttpSession {
        HttpSession {
            info,
            state: RefCell::new(SessionState::default()),
        }
    }

    /// The facts of the connected server (`None` before [`HttpSession::connect`]).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn facts(&self) -> Option<ServerFacts> {
        self.state.try_borrow().ok()?.facts.clone()
    }

    /// An [`Rpc`] for one operation, over `io`.
    pub fn rpc<'a, H: HttpIo>(&'a self, io: &'a H) -> HttpRpc<'a, H> {
        HttpRpc { session: self, io }
    }

    fn next_id(&self) -> Result<u64> {
        let mut s = self.state.try_borrow_mut().map_err(|_| state_busy())?;
        s.next_id += 1;
        Ok(s.next_id)
    }

    /// Finds a revision both sides speak (see the module documentation) and returns what the
    /// server says about itself. Connecting again starts over.
    /// A failed connect leaves the session unconnected (its requests are refused until a
    /// connect succeeds).
    pub async fn connect<H: HttpIo>(&self, io: &H, choice: EraChoice) -> Result<ServerFacts> {
        self.reset()?;
        match self.negotiate(io, choice).await {
            Ok(facts) => {
                let mut s = self.state.try_borrow_mut().map_err(|_| state_busy())?;
                s.facts = Some(facts.clone());
                Ok(facts)
            }
            Err(e) => {
                self.reset()?;
                Err(e)
            }
        }
    }

    /// Forgets the facts and the session id.
    fn reset(&self) -> Result<()> {
        let mut s = self.state.try_borrow_mut().map_err(|_| state_busy())?;
        s.facts = None;
        s.session_id = None;
        Ok(())
    }

    /// The negotiation of [`HttpSession::connect`].
    async fn negotiate<H: HttpIo>(&self, io: &H, choice: EraChoice) -> Result<ServerFacts> {
        let facts = match choice {
            EraChoice::Legacy => self.initialize(io).await?,
            EraChoice::Modern | EraChoice::Auto => match self.discover(io).await? {
                Ok(facts) => facts,
                Err(why) if choice == EraChoice::Auto => self.initialize(io).await.map_err(|e| {
                    let message = format!(
                        "{} (server/discover at 2026-07-28 was refused first: {why})",
                        e.message
                    );
                    ClientError { message, ..e }
                })?,
                Err(why) => {
                    return Err(protocol(format!(
                        "the server does not speak protocol revision 2026-07-28: {why}; try --era 2025-11-25 or auto"
                    ))
                    .with_values(MODERN_VERSION, why))
                }
            },
        };
        Ok(facts)
    }

    /// `server/discover`: `Ok(Ok(facts))` at 2026-07-28, `Ok(Err(why))` when the server
    /// does not speak it, `Err` when the exchange itself failed.
    async fn discover<H: HttpIo>(
        &self,
        io: &H,
    ) -> Result<std::result::Result<ServerFacts, String>> {
        let mut result = Json::Null;
        let mut reader = |r: &Node<'_>| result = serde_value(r);
        let answer = match self
            .exchange(
                io,
                Framing::Modern,
                "server/discover",
                json!({}),
                &mut reader,
            )
            .await
        {
            Ok(a) => a,
            Err(e) if e.code == ExchangeKind::HttpStatus && falls_back(e.actual.as_deref()) => {
                return Ok(Err(format!(
                    "HTTP {}",
                    e.actual.as_deref().unwrap_or_default()
                )))
            }
            Err(e) => return Err(e),
        };
        if let Answer::Error { code, message, .. } = answer {
            return Ok(Err(format!("JSON-RPC error {code}: {message}")));
        }
        let versions: Vec<&str> = result
            .get("supportedVersions")
            .and_then(Json::as_array)
            .map(|a| a.iter().filter_map(Json::as_str).collect())
            .unwrap_or_default();
        if !versions.contains(&MODERN_VERSION) {
            return Ok(Err(format!(
                "its server/discover result lists supportedVersions {versions:?}"
            )));
        }
        Ok(Ok(ServerFacts::from_result(
            Era::Modern,
            MODERN_VERSION,
            &result,
        )))
    }

    async fn initialize<H: HttpIo>(&self, io: &H) -> Result<ServerFacts> {
        let params = json!({
            "protocolVersion": LEGACY_VERSION,
            "capabilities": {},
            "clientInfo": {"name": self.info.name, "version": self.info.version},
        });
        let mut result = Json::Null;
        let mut reader = |r: &Node<'_>| result = serde_value(r);
        let answer = self
            .exchange(io, Framing::Initialize, "initialize", params, &mut reader)
            .await?;
        rpc_result("initialize", None, answer)?;
        let version = result
            .get("protocolVersion")
            .and_then(Json::as_str)
            .unwrap_or_default()
            .to_owned();
        if !LEGACY_VERSIONS.contains(&version.as_str()) {
            return Err(protocol(format!(
                "the server answered initialize with protocol version {version:?}, which this client does not speak (it speaks 2026-07-28 and {})",
                LEGACY_VERSIONS.join(", ")
            ))
            .with_values(LEGACY_VERSION, version));
        }
        let facts = ServerFacts::from_result(Era::Legacy, &version, &result);
        // The notification needs no answer; a server that refuses it will refuse the requests
        // that follow, with a clearer message. Whatever body comes back is read up to a small
        // cap and dropped.
        let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let request = self.frame(Framing::Legacy(&version), "notifications/initialized", note)?;
        let mut response = io.post(request).await?;
        let mut read = 0usize;
        while read <= MAX_NOTIFICATION_REPLY_BYTES {
            match response.body.next_chunk().await? {
                Some(chunk) => read = read.saturating_add(chunk.len()),
                None => break,
            }
        }
        Ok(facts)
    }

    /// One request of an operation, framed for the negotiated era; its result handed, as read
    /// with the reply, to `read`.
    async fn call<H: HttpIo, T>(
        &self,
        io: &H,
        method: &str,
        params: Json,
        read: impl FnOnce(&Node<'_>) -> Result<T>,
    ) -> Result<T> {
        let facts = self.facts().ok_or_else(|| {
            VerifyError::new(
                ErrorCode::InvalidArgument,
                format!("{method}: the client is not connected; connect first"),
            )
        })?;
        let uri = params.get("uri").and_then(Json::as_str).map(str::to_owned);
        // The result's reading goes to `read` through the one reader type of the reply.
        let (mut read, mut out) = (Some(read), None);
        let mut reader = |result: &Node<'_>| {
            if let Some(read) = read.take() {
                out = Some(read(result));
            }
        };
        let answer = match facts.era {
            Era::Modern => {
                self.exchange(io, Framing::Modern, method, params, &mut reader)
                    .await?
            }
            Era::Legacy => {
                let version = facts.protocol_version.clone();
                self.exchange(io, Framing::Legacy(&version), method, params, &mut reader)
                    .await?
            }
        };
        rpc_result(method, uri.as_deref(), answer)?;
        out.unwrap_or_else(|| Err(protocol(format!("the reply to {method} has no result"))))
    }

    /// The body and MCP headers of a message (`message` is the whole JSON-RPC object; a
    /// request's `params` get the `_meta` envelope at 2026-07-28).
    fn frame(&self, framing: Framing<'_>, method: &str, mut message: Json) -> Result<HttpRequest> {
        let mut headers = vec![
            ("content-type".to_owned(), "application/json".to_owned()),
            (
                "accept".to_owned(),
                "application/json, text/event-stream".to_owned(),
            ),
        ];
        match framing {
            Framing::Modern => {
                let meta = json!({
                    META_PROTOCOL_VERSION: MODERN_VERSION,
                    META_CLIENT_INFO: {"name": self.info.name, "version": self.info.version},
                    META_CLIENT_CAPABILITIES: {},
                });
                if let Some(params) = message.get_mut("params").and_then(Json::as_object_mut) {
                    params.insert("_meta".to_owned(), meta);
                }
                headers.push(("mcp-protocol-version".into(), MODERN_VERSION.into()));
                headers.push((
                    "mcp-method".into(),
                    encode_header_value(method).into_owned(),
                ));
                let named = match method {
                    "resources/read" => Some("/params/uri"),
                    "tools/call" | "prompts/get" => Some("/params/name"),
                    _ => None,
                };
                if let Some(name) = named
                    .and_then(|at| message.pointer(at))
                    .and_then(Json::as_str)
                {
                    headers.push(("mcp-name".into(), encode_header_value(name).into_owned()));
                }
            }
            Framing::Initialize => {}
            Framing::Legacy(version) => {
                headers.push(("mcp-protocol-version".into(), version.to_owned()));
                let s = self.state.try_borrow().map_err(|_| state_busy())?;
                if let Some(id) = &s.session_id {
                    headers.push(("mcp-session-id".into(), id.clone()));
                }
            }
        }
        Ok(HttpRequest {
            body: message.to_string(),
            headers,
        })
    }

    /// POSTs one request and reads its answer, the result handed to `read`.
    async fn exchange<H: HttpIo>(
        &self,
        io: &H,
        framing: Framing<'_>,
        method: &str,
        params: Json,
        read: Reader<'_>,
    ) -> Result<Answer<()>> {
        let id = self.next_id()?;
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let request = self.frame(framing, method, message)?;
        let response = io.post(request).await?;
        if response.status == 401 {
            let endpoint = io.endpoint().map(Requested::Endpoint);
            return Err(explain_unauthorized(
                io,
                method,
                endpoint,
                response.www_authenticate.as_deref(),
            )
            .await);
        }
        if framing == Framing::Initialize
            && let Some(sid) = response
                .session_id
                .clone()
                .filter(|s| !s.is_empty() && s.bytes().all(|b| (0x21..=0x7e).contains(&b)))
        {
            let mut s = self.state.try_borrow_mut().map_err(|_| state_busy())?;
            s.session_id = Some(sid);
        }
        read_reply(response, id, method, read).await
    }
}

/// The error of a 401 answering `method` (an MCP method, or `GET <url>`): the challenge of
/// `www_authenticate`, and the Protected Resource Metadata looked up through `io` for
/// `requested` ([`super::challenge`]; `None`: not looked up). The MCP exchanges and the GETs of
/// a well-known source (`command::wellknown`) both explain a 401 here.
pub(crate) async fn explain_unauthorized<H: HttpIo>(
    io: &H,
    method: &str,
    requested: Option<Requested<'_>>,
    www_authenticate: Option<&str>,
) -> ClientError {
    let challenge = www_authenticate.and_then(parse_challenge);
    let metadata = match requested {
        Some(requested) => {
            let mut why = Vec::new();
            let mut found = None;
            let named = challenge
                .as_ref()
                .and_then(|c| c.resource_metadata.as_deref());
            for url in metadata_urls(requested.url(), named) {
                match fetch_metadata(io, requested, &url).await {
                    Ok(m) => {
                        found = Some(m);
                        break;
                    }
                    Err(e) => why.push(format!("{url}: {e}")),
                }
            }
            Some(found.ok_or_else(|| why.join("; ")))
        }
        None => None,
    };
    unauthorized(
        method,
        challenge.as_ref(),
        io.sends_authorization(),
        metadata,
    )
}

/// GETs one metadata document (at most [`MAX_METADATA_BYTES`]); `Err` says why it cannot be
/// used.
async fn fetch_metadata<H: HttpIo>(
    io: &H,
    requested: Requested<'_>,
    url: &str,
) -> std::result::Result<super::challenge::ResourceMetadata, String> {
    let mut response = io.get(url).await.map_err(|e| e.message)?;
    if response.status != 200 {
        return Err(format!("HTTP {}", response.status));
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.body.next_chunk().await.map_err(|e| e.message)? {
        if body.len() + chunk.len() > MAX_METADATA_BYTES {
            return Err(format!("larger than {MAX_METADATA_BYTES} bytes"));
        }
        body.extend_from_slice(&chunk);
    }
    read_metadata(requested, url, response.status, &body)
}

/// Whether an HTTP status answering `server/discover` means "not this revision" (rather than
/// a failure that falling back would hide).
fn falls_back(status: Option<&str>) -> bool {
    matches!(status, Some("400" | "404" | "405" | "406" | "415" | "422"))
}

/// The result of an answer, or its error as `server-error` (`actual` is the JSON-RPC code).
pub(crate) fn rpc_result<T>(method: &str, uri: Option<&str>, answer: Answer<T>) -> Result<T> {
    match answer {
        Answer::Result(r) => Ok(r),
        Answer::Error { code, message, .. } => {
            let about = uri.map(|u| format!(" for {u}")).unwrap_or_default();
            let mut e = ClientError::exchange(
                ExchangeKind::ServerError,
                format!(
                    "the server answered {method}{about} with JSON-RPC error {code}: {message}"
                ),
            )
            .with_actual(code.to_string());
            if let Some(u) = uri {
                e = e.with_uri(u);
            }
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests;
