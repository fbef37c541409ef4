//! Transport refusals: a request turned away before (or instead of) reaching the responder,
//! each with its HTTP status, JSON-RPC error code and message in one place (the table is on
//! [`Refusal`], public as `protocol::Refusal`).

use super::error::clip;
use crate::skill::value::write_json_string;

/// Why a transport turns a request away. Every adapter (the Worker, the HTTP component, the
/// npm package's `handleHttp`, the stdio server) answers it through
/// [`crate::protocol::reply`], so a refusal always carries a JSON-RPC error body.
///
/// | refusal | status | code |
/// |---|---|---|
/// | [`Refusal::Origin`], [`Refusal::Host`] | 403 | `-32600` |
/// | [`Refusal::Path`] | 404 | `-32600` |
/// | [`Refusal::Method`] | 405 (with `Allow: POST`) | `-32600` |
/// | [`Refusal::MirrorMethod`], [`Refusal::PageMethod`] | 405 (with `Allow: GET, HEAD`) | `-32600` |
/// | [`Refusal::PageFile`] | 404 | `-32600` |
/// | [`Refusal::PageUnavailable`] | 503 | `-32603` |
/// | [`Refusal::Accept`] | 406 | `-32600` |
/// | [`Refusal::MediaType`] | 415 | `-32600` |
/// | [`Refusal::Length`], [`Refusal::Unreadable`] | 400 | `-32600` |
/// | [`Refusal::TooLarge`] | 413 | `-32600` |
/// | [`Refusal::Overloaded`] | 503 (with `Retry-After: 1`) | `-32603` |
/// | [`Refusal::Misconfigured`] | 500 | `-32603` |
///
/// The messages repeat request values (an origin, a host, a method) clipped to
/// 200 characters (`MAX_ECHO_CHARS`).
///
/// ```
/// use skills_edge::http::Response;
/// use skills_edge::protocol::Refusal;
/// let refusal = Refusal::Method { method: "GET".into() };
/// assert_eq!(refusal.status(), 405);
/// let r = Response::refused(&refusal);
/// assert_eq!(r.header("allow"), Some("POST"));
/// assert!(r.body_str().starts_with(r#"{"jsonrpc":"2.0","error":{"code":-32600,"#), "{}", r.body_str());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The `Origin` header names a page that may not call this server (or is malformed).
    Origin {
        /// The `Origin` value.
        origin: String,
    },
    /// The `Host` header is missing or names a host this server does not answer for
    /// (DNS-rebinding defence).
    Host {
        /// The `Host` value, when there is one.
        host: Option<String>,
    },
    /// The path is not the MCP endpoint.
    Path {
        /// The endpoint's path.
        endpoint: &'static str,
    },
    /// An HTTP method other than `POST` (and `OPTIONS`) at the endpoint.
    Method {
        /// The method of the request.
        method: String,
    },
    /// An HTTP method other than `GET`, `HEAD` (and `OPTIONS`) under the skills mirror.
    MirrorMethod {
        /// The method of the request.
        method: String,
    },
    /// An HTTP method other than `GET` or `HEAD` for the inspector page.
    PageMethod {
        /// The method of the request.
        method: String,
    },
    /// A path under the inspector page's prefix that is not one of its files.
    PageFile {
        /// The path of the request.
        path: String,
    },
    /// The inspector page is switched on but its files are not part of this build.
    PageUnavailable,
    /// `Accept` does not allow both `application/json` and `text/event-stream`.
    Accept,
    /// `Content-Type` is not `application/json`.
    MediaType,
    /// `Content-Length` is not a number.
    Length,
    /// The body is longer than the limit.
    TooLarge {
        /// The limit, in bytes.
        limit: usize,
    },
    /// The body could not be read (the client went away, or sent fewer bytes than its
    /// `Content-Length`).
    Unreadable,
    /// Too many requests are in progress at once; the request was dropped while its body was
    /// being read.
    Overloaded,
    /// The server's configuration is invalid, so it serves nothing until it is fixed (an
    /// adapter that cannot refuse to start, such as the HTTP component, answers this).
    Misconfigured {
        /// What is wrong: the setting, its value and the accepted form.
        message: String,
    },
}

impl Refusal {
    /// The HTTP status of the refusal.
    pub fn status(&self) -> u16 {
        match self {
            Refusal::Origin { .. } | Refusal::Host { .. } => 403,
            Refusal::Path { .. } | Refusal::PageFile { .. } => 404,
            Refusal::Method { .. } | Refusal::MirrorMethod { .. } | Refusal::PageMethod { .. } => {
                405
            }
            Refusal::PageUnavailable => 503,
            Refusal::Accept => 406,
            Refusal::MediaType => 415,
            Refusal::Length | Refusal::Unreadable => 400,
            Refusal::TooLarge { .. } => 413,
            Refusal::Overloaded => 503,
            Refusal::Misconfigured { .. } => 500,
        }
    }

    /// The JSON-RPC error code: `-32600` (Invalid Request) for requests this server will not
    /// take, `-32603` (Internal error) when the fault is the server's.
    pub(crate) fn code(&self) -> i32 {
        match self {
            Refusal::Overloaded | Refusal::Misconfigured { .. } | Refusal::PageUnavailable => {
                -32603
            }
            _ => -32600,
        }
    }

    /// Headers the refusal's response carries besides the usual ones.
    pub(crate) fn headers(&self) -> &'static [(&'static str, &'static str)] {
        match self {
            Refusal::Method { .. } => &[("allow", "POST")],
            Refusal::MirrorMethod { .. } | Refusal::PageMethod { .. } => &[("allow", "GET, HEAD")],
            Refusal::Overloaded => &[("retry-after", "1")],
            _ => &[],
        }
    }

    /// The human message.
    pub(crate) fn message(&self) -> String {
        match self {
            // Quoted and escaped first, then clipped: 200 `"` escape to 400 characters.
            Refusal::Origin { origin } => format!(
                "Forbidden: the Origin {} is not allowed to call this server",
                clip(&format!("{origin:?}"))
            ),
            Refusal::Host { host: Some(h) } => {
                format!(
                    "Forbidden: the Host {} is not served here",
                    clip(&format!("{h:?}"))
                )
            }
            Refusal::Host { host: None } => "Forbidden: the request has no Host header".into(),
            Refusal::Path { endpoint } => format!("Not Found: the MCP endpoint is {endpoint}"),
            Refusal::Method { method } => format!(
                "Method Not Allowed: {} (this server has no SSE stream and no sessions; send each message with POST)",
                clip(method)
            ),
            Refusal::MirrorMethod { method } => format!(
                "Method Not Allowed: {} (the skills mirror is read with GET or HEAD)",
                clip(method)
            ),
            Refusal::PageMethod { method } => format!(
                "Method Not Allowed: {} (the inspector page is read with GET or HEAD)",
                clip(method)
            ),
            Refusal::PageFile { path } => format!(
                "Not Found: {} is not a file of the inspector page",
                clip(path)
            ),
            Refusal::PageUnavailable => "Service Unavailable: the inspector page is switched on but its files are not part of this deployment; build the npm package (bash scripts/build-pkg.sh), then the Worker (bash scripts/build-worker.sh), and deploy again".into(),
            Refusal::Accept => "Not Acceptable: the Accept header must allow both application/json and text/event-stream".into(),
            Refusal::MediaType => "Unsupported Media Type: the body must be one JSON-RPC message with Content-Type: application/json".into(),
            Refusal::Length => "Bad Request: Content-Length is not a number".into(),
            Refusal::TooLarge { limit } => {
                format!("Content Too Large: a message may have at most {limit} bytes")
            }
            Refusal::Unreadable => "Bad Request: the request body could not be read".into(),
            Refusal::Overloaded => {
                "Service Unavailable: too many requests in progress; retry".into()
            }
            Refusal::Misconfigured { message } => {
                format!("Internal error: the server is misconfigured: {message}")
            }
        }
    }

    /// Writes the `error` object: `{"code":…,"message":…}`.
    pub(crate) fn write_json(&self, out: &mut String) {
        out.push_str("{\"code\":");
        out.push_str(&self.code().to_string());
        out.push_str(",\"message\":");
        write_json_string(&self.message(), out);
        out.push('}');
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message())
    }
}

impl std::error::Error for Refusal {}
