//! The request head as the HTTP rules see it: the method, the path and the raw values of the
//! headers they read, plus the `Accept` and `Content-Type` matching (RFC 9110).

use crate::server::{HttpHeaders, Transport};

/// The request head, as raw header values (`None` when absent). Header names are
/// case-insensitive; the adapter looks up each of [`Head::HEADERS`]. A header sent more
/// than once may be given joined with `", "` (as the Fetch API does): for `Host` and
/// `Origin` that never matches the allow-lists, so it is refused.
///
/// ```
/// use skills_edge::http::Head;
/// let head = Head::from_headers("POST", "/mcp", [
///     ("Host", "localhost:8787"),
///     ("Content-Type", "application/json"),
///     ("MCP-Protocol-Version", "2026-07-28"),
///     ("X-Other", "ignored"),
/// ]);
/// assert_eq!(head.host, Some("localhost:8787"));
/// assert_eq!(head.protocol_version, Some("2026-07-28"));
/// assert_eq!(head.origin, None);
/// ```
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
    /// `Sec-Fetch-Site` (Fetch Metadata): which site a browser sent the request from
    /// (`same-origin`, `same-site`, `cross-site`, `none`); see [`Head::from_another_origin`].
    pub sec_fetch_site: Option<&'a str>,
    /// `Sec-Fetch-Mode` (Fetch Metadata): `cors`, `no-cors`, `navigate`, `same-origin`, …
    pub sec_fetch_mode: Option<&'a str>,
}

/// How many request headers the rules read: the length of [`Head::HEADERS`].
const HEADER_COUNT: usize = 11;

/// The `Sec-Fetch-Site` value [`Head::from_headers`] gives a request that sent the header more
/// than once (no browser does): not `same-origin` or `none`, so another origin's.
const REPEATED_FETCH_SITE: &str = "(sent more than once)";

impl<'a> Head<'a> {
    /// The request headers the rules read, in the order of the fields of [`Head`] after
    /// `path`.
    pub const HEADERS: [&'static str; HEADER_COUNT] = [
        "host",
        "origin",
        "accept",
        "content-type",
        "content-length",
        "mcp-protocol-version",
        "mcp-method",
        "mcp-name",
        "if-none-match",
        "sec-fetch-site",
        "sec-fetch-mode",
    ];

    /// Builds a head from the method, the path and the values of [`Head::HEADERS`], in that
    /// order (an adapter that looks each header up by name).
    pub fn with_values(
        method: &'a str,
        path: &'a str,
        values: [Option<&'a str>; HEADER_COUNT],
    ) -> Head<'a> {
        let [host, origin, accept, content_type, content_length, protocol_version, mcp_method, mcp_name, if_none_match, sec_fetch_site, sec_fetch_mode] =
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
            sec_fetch_site,
            sec_fetch_mode,
        }
    }

    /// Builds a head from a Fetch API request: its method, its URL (the path; the authority
    /// stands in for `Host` when the platform gives no such header) and the values of
    /// [`Head::HEADERS`], in that order.
    ///
    /// ```
    /// use skills_edge::http::Head;
    /// let head = Head::from_url("POST", "https://a.example:8443/mcp?x#y", [None; Head::HEADERS.len()]);
    /// assert_eq!((head.path, head.host), ("/mcp", Some("a.example:8443")));
    /// ```
    pub fn from_url(
        method: &'a str,
        url: &'a str,
        values: [Option<&'a str>; HEADER_COUNT],
    ) -> Head<'a> {
        let rest = url.split_once("://").map_or(url, |(_, r)| r);
        let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
        let path = rest.find('/').map_or("", |i| rest.get(i..).unwrap_or(""));
        let path = path.split(['?', '#']).next().unwrap_or("");
        let mut head = Head::with_values(method, path, values);
        head.host = head.host.or(Some(authority));
        head
    }

    /// Builds a head from the method, the path and any list of `(name, value)` headers
    /// (names matched case-insensitively; the first occurrence wins, except for
    /// `Sec-Fetch-Site`: one sent more than once gets a value that
    /// [`Head::from_another_origin`] takes as another origin's, as it takes the Fetch API's
    /// joined value).
    pub fn from_headers<I>(method: &'a str, path: &'a str, headers: I) -> Head<'a>
    where
        I: IntoIterator<Item = (&'a str, &'a str)>,
    {
        let mut values = [None; HEADER_COUNT];
        for (name, value) in headers {
            let Some(i) = Head::HEADERS
                .iter()
                .position(|h| h.eq_ignore_ascii_case(name))
            else {
                continue;
            };
            if let Some(slot) = values.get_mut(i) {
                *slot = match slot {
                    Some(_) if Head::HEADERS.get(i) == Some(&"sec-fetch-site") => {
                        Some(REPEATED_FETCH_SITE)
                    }
                    Some(first) => Some(*first),
                    None => Some(value),
                };
            }
        }
        Head::with_values(method, path, values)
    }

    /// Whether a browser says it sent this request from a page of another origin, in a way
    /// that carries its ambient credentials but is not a CORS request the `Origin` allow-list
    /// decides: `Sec-Fetch-Site` is present and is anything but exactly one `same-origin` or
    /// `none` (so `cross-site`, `same-site`, an unknown value, and a list such as
    /// `same-origin, cross-site`, which is how the Fetch API and the HTTP component present a
    /// header sent twice), and the request is not in `cors` mode with an `Origin` (a
    /// `<script>`, `<img>`, `<link>` or `<iframe>` load, a navigation, a form). Such a request
    /// is answered as an anonymous caller's under the mirror ([`crate::http`]); an absent
    /// `Sec-Fetch-Site` (a client that is no browser, an old browser) is not one, and
    /// `Cross-Origin-Resource-Policy` covers old browsers. A browser sends the header once,
    /// with one value (Fetch Metadata, §2.1), so a list is no browser's and never widens a
    /// grant.
    ///
    /// ```
    /// use skills_edge::http::Head;
    /// let script = Head { sec_fetch_site: Some("cross-site"), sec_fetch_mode: Some("no-cors"), ..Head::default() };
    /// assert!(script.from_another_origin());
    /// let cors = Head { origin: Some("https://app.example"), sec_fetch_mode: Some("cors"), ..script };
    /// assert!(!cors.from_another_origin());
    /// let own = Head { sec_fetch_site: Some("same-origin"), ..script };
    /// assert!(!own.from_another_origin());
    /// let twice = Head { sec_fetch_site: Some("same-origin, cross-site"), ..script };
    /// assert!(twice.from_another_origin());
    /// ```
    pub fn from_another_origin(&self) -> bool {
        let other = self.sec_fetch_site.is_some_and(|s| {
            let s = s.trim();
            !(s.eq_ignore_ascii_case("same-origin") || s.eq_ignore_ascii_case("none"))
        });
        let cors = self.origin.is_some()
            && self
                .sec_fetch_mode
                .is_some_and(|m| m.trim().eq_ignore_ascii_case("cors"));
        other && !cors
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
            if let Some((k, v)) = p.split_once('=')
                && k.trim().eq_ignore_ascii_case("q")
            {
                allowed = v.trim().parse::<f32>().map_or(true, |q| q > 0.0);
            }
        }
        if best.is_none_or(|(sp, _)| specificity > sp) {
            best = Some((specificity, allowed));
        }
    }
    best.is_some_and(|(_, allowed)| allowed)
}
