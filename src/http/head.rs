//! The request head as the HTTP rules see it: the method, the path and the raw values of the
//! headers they read, plus the `Accept` and `Content-Type` matching (RFC 9110).

use crate::server::{HttpHeaders, Transport};

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
    /// `If-None-Match` (the skills mirror's conditional `GET`).
    pub if_none_match: Option<&'a str>,
}

impl<'a> Head<'a> {
    /// The request headers the rules read, in the order of the fields of [`Head`] after
    /// `path`.
    pub const HEADERS: [&'static str; 9] = [
        "host",
        "origin",
        "accept",
        "content-type",
        "content-length",
        "mcp-protocol-version",
        "mcp-method",
        "mcp-name",
        "if-none-match",
    ];

    /// Builds a head from the method, the path and the values of [`Head::HEADERS`], in that
    /// order (an adapter that looks each header up by name).
    pub fn with_values(method: &'a str, path: &'a str, values: [Option<&'a str>; 9]) -> Head<'a> {
        let [host, origin, accept, content_type, content_length, protocol_version, mcp_method, mcp_name, if_none_match] =
            values;
        Head {
            method,
            path,
            host,
            origin,
            accept,
            content_type,
            content_length,
            protocol_version,
            mcp_method,
            mcp_name,
            if_none_match,
        }
    }

    /// Builds a head from a Fetch API request: its method, its URL (the path; the authority
    /// stands in for `Host` when the platform gives no such header) and the values of
    /// [`Head::HEADERS`], in that order.
    ///
    /// ```
    /// use skills_edge::http::Head;
    /// let head = Head::from_url("POST", "https://a.example:8443/mcp?x#y", [None; 9]);
    /// assert_eq!((head.path, head.host), ("/mcp", Some("a.example:8443")));
    /// ```
    pub fn from_url(method: &'a str, url: &'a str, values: [Option<&'a str>; 9]) -> Head<'a> {
        let rest = url.split_once("://").map_or(url, |(_, r)| r);
        let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
        let path = rest.find('/').map_or("", |i| rest.get(i..).unwrap_or(""));
        let path = path.split(['?', '#']).next().unwrap_or("");
        let mut head = Head::with_values(method, path, values);
        head.host = head.host.or(Some(authority));
        head
    }

    /// Builds a head from the method, the path and any list of `(name, value)` headers
    /// (names matched case-insensitively; the first occurrence wins).
    pub fn from_headers<I>(method: &'a str, path: &'a str, headers: I) -> Head<'a>
    where
        I: IntoIterator<Item = (&'a str, &'a str)>,
    {
        let mut values = [None; 9];
        for (name, value) in headers {
            let Some(i) = Head::HEADERS
                .iter()
                .position(|h| h.eq_ignore_ascii_case(name))
            else {
                continue;
            };
            if let Some(slot) = values.get_mut(i) {
                *slot = slot.or(Some(value));
            }
        }
        Head::with_values(method, path, values)
    }

    pub(crate) fn transport(&self) -> Transport<'a> {
        Transport::Http(HttpHeaders {
            protocol_version: self.protocol_version,
            method: self.mcp_method,
            name: self.mcp_name,
        })
    }
}

/// Whether the media type of a `Content-Type` value is `application/json`.
pub(crate) fn is_json_media_type(v: &str) -> bool {
    let essence = v.split(';').next().unwrap_or("").trim();
    essence.eq_ignore_ascii_case("application/json")
}

/// Whether an `Accept` value allows `type/subtype` (RFC 9110 §12.5.1: the most specific
/// matching range decides, and `q=0` refuses).
pub(crate) fn accepts(accept: &str, ty: &str, sub: &str) -> bool {
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
