//! The client's error: a refusal of the host rules ([`VerifyError`], with its
//! [`ErrorCode`]) or a failure of the exchange with the server ([`ExchangeKind`]: the server
//! could not be reached, answered with a status or a reply the protocol does not allow, answered
//! with a JSON-RPC error, or did not answer in time). An exchange failure is not a verification
//! failure: nothing was verified, so nothing may be used, and retrying may help.
//!
//! [`ClientCode`] is the one map of both to their wire form: the stable kebab-case names the
//! npm package's `error.code`, the `verify` report's reasons, the WIT `error-code` cases and
//! the TypeScript `ErrorCode` union use, in one order ([`ClientCode::ALL`]).

use std::fmt;

use crate::host::error::{ErrorCode, Failure, VerifyError};
#[cfg(feature = "command")]
use crate::host::index::IndexError;

/// How an exchange with a server failed.
///
/// ```
/// use skills_edge::client::{block_on, ExchangeKind, SkillsClient};
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
/// // The server answers that it serves no such skill: a JSON-RPC error, not a refusal of the host rules.
/// let e = block_on(client.get(&rpc, "skill://no-such-skill/SKILL.md")).unwrap_err();
/// assert_eq!(e.code, ExchangeKind::ServerError);
/// assert_eq!(e.actual.as_deref(), Some("-32602"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ExchangeKind {
    /// A client transport could not reach the server: the connection was refused or reset,
    /// the name did not resolve, TLS failed, or the body stopped arriving.
    ConnectionFailed,
    /// The server answered with an HTTP status the exchange does not allow (401, 403, 500, a
    /// 404 without a JSON-RPC body, …); `expected` and `actual` hold the statuses.
    HttpStatus,
    /// The server's reply is not what the protocol prescribes: not JSON-RPC, another `id`, a
    /// content type other than JSON or an event stream, a result of the wrong shape, a
    /// pagination that never ends, a well-known index that is not one, or no protocol
    /// revision both sides speak.
    ProtocolError,
    /// The server answered the request with a JSON-RPC error (`actual` holds its code, for
    /// example `-32602` for a resource it does not serve).
    ServerError,
    /// The request did not complete within the time allowed.
    Timeout,
    /// The caller aborted the request (an `AbortSignal`).
    Aborted,
}

impl ExchangeKind {
    /// Every kind, in declaration order.
    pub const ALL: [ExchangeKind; 6] = [
        ExchangeKind::ConnectionFailed,
        ExchangeKind::HttpStatus,
        ExchangeKind::ProtocolError,
        ExchangeKind::ServerError,
        ExchangeKind::Timeout,
        ExchangeKind::Aborted,
    ];

    /// The stable kebab-case code.
    ///
    /// ```
    /// use skills_edge::client::ExchangeKind;
    /// assert_eq!(ExchangeKind::HttpStatus.as_str(), "http-status");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            ExchangeKind::ConnectionFailed => "connection-failed",
            ExchangeKind::HttpStatus => "http-status",
            ExchangeKind::ProtocolError => "protocol-error",
            ExchangeKind::ServerError => "server-error",
            ExchangeKind::Timeout => "timeout",
            ExchangeKind::Aborted => "aborted",
        }
    }

    /// Whether the server could not be reached or did not answer as the protocol prescribes
    /// (every kind but [`ExchangeKind::ServerError`], which is an answer: the server refused
    /// the request).
    #[cfg_attr(not(feature = "command"), allow(dead_code))]
    pub(crate) fn is_transport_failure(self) -> bool {
        self != ExchangeKind::ServerError
    }
}

impl fmt::Display for ExchangeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The code of a [`ClientError`]: the host rules' refusal or the exchange's failure.
///
/// ```
/// use skills_edge::client::{ClientCode, ExchangeKind, SkillsClient};
/// use skills_edge::host::{ErrorCode, HostOptions};
/// let describe = |code: ClientCode| match code {
///     ClientCode::Verify(c) => format!("refused: {c}"),
///     ClientCode::Exchange(k) => format!("exchange failed: {k}"),
/// };
/// let client = SkillsClient::new("docs", HostOptions::default()).unwrap();
/// let e = client.import_approvals("not an export").unwrap_err();
/// assert_eq!(e.code, ClientCode::Verify(ErrorCode::InvalidArgument));
/// assert_eq!(describe(e.code), "refused: invalid-argument");
/// assert_eq!(describe(ExchangeKind::Timeout.into()), "exchange failed: timeout");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClientCode {
    /// A refusal of the host rules.
    Verify(ErrorCode),
    /// A failure of the exchange.
    Exchange(ExchangeKind),
}

impl ClientCode {
    /// Every code, in its wire order (the order of the WIT `error-code` cases and of the npm
    /// package's `errorCodes()`).
    pub const ALL: [ClientCode; 28] = [
        ClientCode::Verify(ErrorCode::InvalidEntry),
        ClientCode::Verify(ErrorCode::LimitExceeded),
        ClientCode::Verify(ErrorCode::NotInManifest),
        ClientCode::Verify(ErrorCode::SizeMismatch),
        ClientCode::Verify(ErrorCode::DigestMismatch),
        ClientCode::Verify(ErrorCode::FrontmatterMismatch),
        ClientCode::Verify(ErrorCode::FrontmatterInvalid),
        ClientCode::Verify(ErrorCode::InvalidReadResult),
        ClientCode::Verify(ErrorCode::EscapesRoot),
        ClientCode::Verify(ErrorCode::InvalidReference),
        ClientCode::Verify(ErrorCode::DynamicNotAllowed),
        ClientCode::Verify(ErrorCode::NoActingWindow),
        ClientCode::Verify(ErrorCode::NotApproved),
        ClientCode::Verify(ErrorCode::UnknownServer),
        ClientCode::Verify(ErrorCode::UnknownSkill),
        ClientCode::Verify(ErrorCode::InvalidArgument),
        ClientCode::Exchange(ExchangeKind::ConnectionFailed),
        ClientCode::Exchange(ExchangeKind::HttpStatus),
        ClientCode::Exchange(ExchangeKind::ProtocolError),
        ClientCode::Exchange(ExchangeKind::ServerError),
        ClientCode::Exchange(ExchangeKind::Timeout),
        ClientCode::Exchange(ExchangeKind::Aborted),
        ClientCode::Verify(ErrorCode::ArchiveInvalid),
        ClientCode::Verify(ErrorCode::ArchiveUnsafe),
        ClientCode::Verify(ErrorCode::UnknownSchema),
        ClientCode::Verify(ErrorCode::SignatureInvalid),
        ClientCode::Verify(ErrorCode::SignerUntrusted),
        ClientCode::Verify(ErrorCode::SignerChanged),
    ];

    /// The stable kebab-case code: the wire form of both kinds.
    ///
    /// ```
    /// use skills_edge::client::{ClientCode, ExchangeKind};
    /// use skills_edge::host::ErrorCode;
    /// assert_eq!(ClientCode::Exchange(ExchangeKind::Timeout).as_str(), "timeout");
    /// assert_eq!(ClientCode::Verify(ErrorCode::DigestMismatch).as_str(), "digest-mismatch");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            ClientCode::Verify(c) => c.as_str(),
            ClientCode::Exchange(k) => k.as_str(),
        }
    }

    /// The code of its kebab-case name ([`ClientCode::as_str`]).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    #[cfg_attr(not(feature = "js"), allow(dead_code))]
    pub(crate) fn from_name(name: &str) -> Option<ClientCode> {
        ClientCode::ALL.into_iter().find(|c| c.as_str() == name)
    }

    /// Whether this is an exchange failure other than a JSON-RPC error answer
    /// ([`ExchangeKind::is_transport_failure`]).
    #[cfg_attr(not(feature = "command"), allow(dead_code))]
    pub(crate) fn is_transport_failure(self) -> bool {
        matches!(self, ClientCode::Exchange(k) if k.is_transport_failure())
    }
}

impl fmt::Display for ClientCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<ErrorCode> for ClientCode {
    fn from(c: ErrorCode) -> ClientCode {
        ClientCode::Verify(c)
    }
}

impl From<ExchangeKind> for ClientCode {
    fn from(k: ExchangeKind) -> ClientCode {
        ClientCode::Exchange(k)
    }
}

impl PartialEq<ErrorCode> for ClientCode {
    fn eq(&self, other: &ErrorCode) -> bool {
        *self == ClientCode::Verify(*other)
    }
}

impl PartialEq<ExchangeKind> for ClientCode {
    fn eq(&self, other: &ExchangeKind) -> bool {
        *self == ClientCode::Exchange(*other)
    }
}

/// An error of the client: a refusal of the host rules or an exchange failure, with the details
/// of [`Failure`]. A [`VerifyError`] becomes one unchanged (`?` converts); an exchange failure
/// is made with [`ClientError::exchange`].
///
/// ```
/// use skills_edge::client::{ClientCode, ClientError, ExchangeKind};
/// use skills_edge::host::{Entry, ErrorCode};
/// let timeout = ClientError::exchange(ExchangeKind::Timeout, "no answer within 30 s");
/// assert_eq!(timeout.code, ClientCode::Exchange(ExchangeKind::Timeout));
/// assert_eq!(timeout.to_string(), "no answer within 30 s [timeout]");
/// // A refusal of the host rules converts with `?`, keeping its code.
/// fn parse(json: &str) -> Result<Entry, ClientError> {
///     Ok(Entry::parse(json)?)
/// }
/// assert_eq!(parse("[]").unwrap_err().code, ClientCode::Verify(ErrorCode::InvalidEntry));
/// ```
pub type ClientError = Failure<ClientCode>;

impl ClientError {
    /// An exchange failure with a message, and nothing else yet.
    pub fn exchange(kind: ExchangeKind, message: impl Into<String>) -> ClientError {
        Failure::new(ClientCode::Exchange(kind), message)
    }

    /// The host rules' refusal this error is, if it is one.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    #[cfg_attr(not(feature = "command"), allow(dead_code))]
    pub(crate) fn verify_code(&self) -> Option<ErrorCode> {
        match self.code {
            ClientCode::Verify(c) => Some(c),
            ClientCode::Exchange(_) => None,
        }
    }
}

impl From<VerifyError> for ClientError {
    fn from(e: VerifyError) -> ClientError {
        e.recode(ClientCode::Verify)
    }
}

#[cfg(feature = "command")]
impl ClientError {
    /// A document that is not an index is a `protocol-error` of the exchange that brought it;
    /// a refused one keeps its code.
    pub(crate) fn from_index(e: IndexError) -> ClientError {
        match e {
            IndexError::NotAnIndex { url, message } => {
                ClientError::exchange(ExchangeKind::ProtocolError, message).with_uri(url)
            }
            IndexError::Refused(e) => e.into(),
        }
    }
}

/// Shorthand for results of the client.
///
/// ```
/// use skills_edge::client::{Result, SkillsClient};
/// use skills_edge::host::{ErrorCode, HostOptions};
/// fn open(label: &str) -> Result<SkillsClient> {
///     SkillsClient::new(label, HostOptions::default())
/// }
/// assert_eq!(open("docs").unwrap().label(), "docs");
/// // A label the host cannot show is refused.
/// assert_eq!(open(" docs").err().unwrap().code, ErrorCode::InvalidArgument);
/// ```
pub type Result<T, E = ClientError> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_once_verify_and_exchange_alike() {
        let mut seen = std::collections::HashSet::new();
        for c in ClientCode::ALL {
            assert!(seen.insert(c.as_str()), "{c}");
            assert_eq!(ClientCode::from_name(c.as_str()), Some(c));
        }
        for c in ErrorCode::ALL {
            assert!(ClientCode::ALL.contains(&ClientCode::Verify(c)), "{c}");
        }
        for k in ExchangeKind::ALL {
            assert!(ClientCode::ALL.contains(&ClientCode::Exchange(k)), "{k}");
        }
        assert_eq!(
            ClientCode::ALL.len(),
            ErrorCode::ALL.len() + ExchangeKind::ALL.len()
        );
    }

    #[test]
    fn a_refusal_keeps_everything_and_an_exchange_failure_is_not_one() {
        let v = VerifyError::new(ErrorCode::SizeMismatch, "size differs")
            .with_uri("skill://a/SKILL.md")
            .with_values("1", "2")
            .with_field("f");
        let e = ClientError::from(v);
        assert_eq!(e.to_string(), "size differs [size-mismatch]");
        assert_eq!(e.verify_code(), Some(ErrorCode::SizeMismatch));
        assert_eq!(
            (e.expected.as_deref(), e.field.as_deref()),
            (Some("1"), Some("f"))
        );
        assert!(!e.code.is_transport_failure());
        let x = ClientError::exchange(ExchangeKind::Timeout, "slow");
        assert_eq!(x.code, ExchangeKind::Timeout);
        assert_eq!(x.verify_code(), None);
        assert!(x.code.is_transport_failure());
        assert!(!ClientCode::Exchange(ExchangeKind::ServerError).is_transport_failure());
    }
}
