//! The response an adapter writes back: status, headers and body, and the asset spliced into
//! it when the catalog keeps the bytes outside the pack ([`Splice`], the responder's, with an
//! HTTP response as its fault). The endpoint and the well-known routes both build it; it
//! imports neither.

use crate::protocol::{reply, Refusal};
use crate::server::Splice;

/// An HTTP response.
///
/// ```
/// use skills_edge::catalog::Grant;
/// use skills_edge::http::{Endpoint, Head, HttpConfig};
/// let endpoint = Endpoint::new(skills_edge::embedded::catalog().unwrap(), HttpConfig::default()).unwrap();
/// let head = Head { method: "OPTIONS", path: "/mcp", host: Some("localhost"),
///     origin: Some("http://localhost:5173"), ..Head::default() };
/// let r = endpoint.handle(&head, b"", Grant::PUBLIC);
/// assert_eq!((r.status, r.body_str()), (204, ""));
/// assert_eq!(r.header("access-control-allow-origin"), Some("http://localhost:5173"));
/// assert_eq!(r.header("vary"), Some("Origin"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// Header names (lower case) and values.
    pub headers: Vec<(&'static str, String)>,
    /// The body (empty for 202, 204 and 304). With a [`Response::splice`], only its beginning.
    pub body: Vec<u8>,
    /// Set when the catalog keeps the bytes this response carries outside the pack, as an
    /// asset (the Cloudflare Worker's large files): the adapter fetches the asset and checks its
    /// length before it sends anything, then sends [`Response::body`], the asset and
    /// [`Splice::tail`] with this status and these headers, or else [`Splice::fault`] (a
    /// `-32603` error at `/mcp`, a 500 in the mirror). Wrong bytes are never served.
    pub splice: Option<Box<Splice<Response>>>,
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

    /// The response to a refusal when no request head is at hand (a request dropped while its
    /// body was read, a server without a valid configuration): the refusal's status and
    /// headers, `Vary: Origin`, and its JSON-RPC error body; no CORS headers.
    ///
    /// ```
    /// use skills_edge::http::Response;
    /// use skills_edge::protocol::Refusal;
    /// let r = Response::refused(&Refusal::Overloaded);
    /// assert_eq!((r.status, r.header("retry-after")), (503, Some("1")));
    /// assert!(r.body_str().contains("-32603"));
    /// ```
    pub fn refused(refusal: &Refusal) -> Response {
        let mut r = Response {
            status: refusal.status(),
            headers: vec![("vary", "Origin".to_owned())],
            body: Vec::new(),
            splice: None,
        };
        r.set_refusal(refusal);
        r
    }

    /// Sets the refusal's `content-type` and headers and its JSON-RPC error body.
    pub(super) fn set_refusal(&mut self, refusal: &Refusal) {
        self.headers
            .push(("content-type", "application/json".to_owned()));
        for (name, value) in refusal.headers() {
            self.headers.push((name, (*value).to_owned()));
        }
        self.body = reply::refusal(refusal);
    }
}
