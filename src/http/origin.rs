//! `Origin` and `Host` allow-lists: the browser pages that may call the server, and the host
//! names it answers for (the DNS-rebinding defence). Parsed once from the `ALLOWED_ORIGINS`
//! and `ALLOWED_HOSTS` settings, matched per request without allocating.

use crate::skill::uri::is_scheme;
use std::fmt;

/// Why an `ALLOWED_ORIGINS` or `ALLOWED_HOSTS` value is refused ([`OriginList::parse`],
/// [`HostList::parse`]): the item at fault, quoted, and what is wrong with it, or that the
/// list accepts nothing. The settings' error adds which setting it is and the fix.
///
/// ```
/// use skills_edge::http::HostList;
/// let e = HostList::parse("localhost:http").unwrap_err();
/// assert_eq!(e.to_string(), r#""localhost:http" has an invalid port"#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AllowListError {
    message: String,
}

impl fmt::Display for AllowListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for AllowListError {}

impl From<String> for AllowListError {
    fn from(message: String) -> Self {
        AllowListError { message }
    }
}

/// Default `ALLOWED_ORIGINS`: browser pages served from this machine, any port.
pub(crate) const DEFAULT_ALLOWED_ORIGINS: &str =
    "http://localhost:*,http://127.0.0.1:*,http://[::1]:*";

/// Default `ALLOWED_HOSTS`: the loopback names, any port.
pub(crate) const DEFAULT_ALLOWED_HOSTS: &str = "localhost,127.0.0.1,[::1]";

/// Which `Origin` values may call the endpoint.
///
/// ```
/// use skills_edge::http::{OriginList, OriginPattern};
/// assert_eq!(OriginList::parse("*").unwrap(), OriginList::Any);
/// let list = OriginList::parse("null, https://app.example").unwrap();
/// let OriginList::Only(patterns) = &list else { panic!("a list") };
/// assert_eq!(patterns[0], OriginPattern::Null);
/// assert!(list.allows("null") && list.allows("https://app.example"));
/// assert!(!list.allows("http://app.example"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OriginList {
    /// Any origin (still echoed, never `*`).
    Any,
    /// Only these.
    Only(Vec<OriginPattern>),
}

/// One allowed origin.
///
/// ```
/// use skills_edge::http::{HostPattern, OriginList, OriginPattern, PortPattern};
/// let OriginList::Only(list) = OriginList::parse("https://*.example.com").unwrap() else { panic!() };
/// assert_eq!(list, [OriginPattern::Origin {
///     scheme: "https".into(),
///     host: HostPattern::Subdomain(".example.com".into()),
///     port: PortPattern::Exact(443),
/// }]);
/// ```
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
///
/// ```
/// use skills_edge::http::{HostList, HostPattern, PortPattern};
/// let list = HostList::parse("Skills.Example.com, *.workers.dev").unwrap();
/// assert_eq!(list, HostList::Only(vec![
///     (HostPattern::Exact("skills.example.com".into()), PortPattern::Any),
///     (HostPattern::Subdomain(".workers.dev".into()), PortPattern::Any),
/// ]));
/// assert!(list.allows("me.workers.dev") && !list.allows("workers.dev"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostPattern {
    /// Exactly this name (lower case).
    Exact(String),
    /// Any name ending in `.suffix` (the suffix is stored with its leading dot).
    Subdomain(String),
}

/// A port to match.
///
/// ```
/// use skills_edge::http::{HostList, HostPattern, PortPattern};
/// let list = HostList::parse("localhost:8787").unwrap();
/// assert_eq!(list, HostList::Only(vec![(HostPattern::Exact("localhost".into()), PortPattern::Exact(8787))]));
/// assert!(list.allows("localhost:8787"));
/// assert!(!list.allows("localhost:9000"));
/// ```
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
///
/// ```
/// use skills_edge::http::{HostList, HttpConfig};
/// // The default accepts the loopback names, on any port.
/// let hosts = HttpConfig::default().allowed_hosts;
/// assert!(hosts.allows("localhost:8787") && hosts.allows("[::1]:3000"));
/// assert!(!hosts.allows("attacker.example"));
/// assert_eq!(HostList::parse("*").unwrap(), HostList::Any);
/// ```
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
        if !is_scheme(&scheme) {
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
    /// Parses the `ALLOWED_ORIGINS` form (its row of the settings table, `src/settings/rows.rs`): a
    /// comma-separated list of `scheme://host[:port]` (port `*`, host `*.example.com`),
    /// `null`, or `*`. The error says which item is wrong and why.
    ///
    /// ```
    /// use skills_edge::http::OriginList;
    /// let list = OriginList::parse("https://*.example.com, http://localhost:*").unwrap();
    /// assert!(list.allows("https://app.example.com"));
    /// assert!(list.allows("http://localhost:5173"));
    /// assert!(!list.allows("https://example.com.evil"));
    /// assert!(OriginList::parse("example.com").is_err());
    /// ```
    pub fn parse(value: &str) -> Result<OriginList, AllowListError> {
        let mut out = Vec::new();
        for item in list_items(value) {
            if item == "*" {
                return Ok(OriginList::Any);
            }
            out.push(OriginPattern::parse(item)?);
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
    /// Parses the `ALLOWED_HOSTS` form (its row of the settings table, `src/settings/rows.rs`): a
    /// comma-separated list of `name` (any port) or `name:port`, `*.example.com`, `[::1]`, or
    /// `*`. The error says which item is wrong and why; an empty list is refused (no host
    /// would be served).
    ///
    /// ```
    /// use skills_edge::http::HostList;
    /// let list = HostList::parse("localhost,*.workers.dev").unwrap();
    /// assert!(list.allows("localhost:8787"));
    /// assert!(list.allows("skills.me.workers.dev"));
    /// assert!(!list.allows("evil.example"));
    /// assert!(HostList::parse(" , ").is_err());
    /// ```
    pub fn parse(value: &str) -> Result<HostList, AllowListError> {
        let mut out = Vec::new();
        for item in list_items(value) {
            if item == "*" {
                return Ok(HostList::Any);
            }
            let bad = |p: &str| format!("{item:?} {p}");
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
            return Err(AllowListError::from("no host would be accepted".to_owned()));
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
