//! What the client may send, and to whom (SEP-2640's host rules H1, H2, H12, H15, H22): the
//! declarations a request needs, the answers that say a skill is gone, and the default label
//! of a server at a URL.

use super::error::{ClientError, ExchangeKind, Result};
use super::ServerFacts;
use crate::host::error::{ErrorCode, VerifyError};
use crate::protocol::SKILLS_EXTENSION;

/// Refuses `method` unless the server declared what it needs (spec notes H1: "issue
/// `skills/list` and `skills/get` only after seeing the server's declaration"; H2: "MUST NOT
/// call `resources/directory/read` unless the server declared `directoryRead: true`").
/// `facts` is what the server said about itself (`None`: nothing observed yet, so nothing is
/// declared). Other methods pass. The refusal is `invalid-argument`, its `expected` the
/// declaration that is missing and its `actual` what was observed.
///
/// ```
/// use skills_edge::client::{check_declared, ServerFacts};
/// use skills_edge::protocol::Era;
/// let bare = ServerFacts::from_result(Era::Modern, "2026-07-28", &serde_json::json!({"capabilities": {"resources": {}}}));
/// let e = check_declared(Some(&bare), "skills/list").unwrap_err();
/// assert_eq!(e.expected.as_deref(), Some(r#"capabilities.extensions["io.modelcontextprotocol/skills"]"#));
/// let skills = ServerFacts::from_result(Era::Modern, "2026-07-28", &serde_json::json!({
///     "capabilities": {"extensions": {"io.modelcontextprotocol/skills": {}}}}));
/// assert!(check_declared(Some(&skills), "skills/get").is_ok());
/// assert!(check_declared(Some(&skills), "resources/directory/read").is_err());
/// assert!(check_declared(None, "skills/list").is_err());
/// assert!(check_declared(None, "resources/read").is_ok());
/// ```
pub fn check_declared(facts: Option<&ServerFacts>, method: &str) -> Result<()> {
    let skills = format!("capabilities.extensions[\"{SKILLS_EXTENSION}\"]");
    let (needed, rule) = match method {
        "skills/list" | "skills/get" => {
            if facts.is_some_and(ServerFacts::declares_skills) {
                return Ok(());
            }
            (
                skills,
                "a client issues skills/list and skills/get only after observing the server's declaration of the Skills extension",
            )
        }
        "resources/directory/read" => {
            if facts.is_some_and(ServerFacts::directory_read) {
                return Ok(());
            }
            (
                format!("{skills}.directoryRead: true"),
                "a client must not call resources/directory/read unless the server declared directoryRead: true; the skill's entry (its resources) lists its files",
            )
        }
        _ => return Ok(()),
    };
    let observed = if facts.is_some() {
        "not declared"
    } else {
        "no capabilities observed (connect first)"
    };
    Err(VerifyError::new(
        ErrorCode::InvalidArgument,
        format!("{method} was not sent: the server does not declare {needed} ({observed}); {rule}"),
    )
    .with_values(needed, observed)
    .into())
}

/// Whether the answer to a recovery `skills/get` says the skill is gone: a JSON-RPC error
/// `-32602` (SEP-2640 §Error Handling: `skills/get` for a skill the server does not serve) or
/// the legacy resource-not-found `-32002`. Anything else (`-32603`, a lost connection, a
/// timeout) says nothing about the skill, and its acting window stays open.
pub fn says_gone(e: &ClientError) -> bool {
    e.code == ExchangeKind::ServerError && matches!(e.actual.as_deref(), Some("-32602" | "-32002"))
}

/// The default label of the server at `url` (an `http:` or `https:` URL): its origin, as the
/// WHATWG URL standard serializes it (`URL.origin`): the scheme and host in lowercase, the
/// port unless it is the scheme's default (80, 443), no user information, path or query. The
/// npm `SkillsClient.connect`, the inspector page and `skills-edge verify` label a server
/// with it, so one server has one label everywhere, and two servers two. `None` for
/// anything else, and for a host with characters outside ASCII (whose WHATWG origin is its
/// IDNA form, which this function does not compute).
///
/// ```
/// use skills_edge::client::server_label_of_url;
/// assert_eq!(server_label_of_url("HTTPS://Skills.Example:443/mcp?x#y").as_deref(), Some("https://skills.example"));
/// assert_eq!(server_label_of_url("http://user:pw@127.0.0.1:8080/mcp").as_deref(), Some("http://127.0.0.1:8080"));
/// assert_eq!(server_label_of_url("http://[::1]:80/").as_deref(), Some("http://[::1]"));
/// assert_eq!(server_label_of_url("ftp://h/"), None);
/// ```
pub fn server_label_of_url(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    let default_port = match scheme.as_str() {
        "http" => 80,
        "https" => 443,
        _ => return None,
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let (host, port) = match host_port.strip_prefix('[') {
        Some(v6) => {
            let (inner, after) = v6.split_once(']')?;
            (format!("[{inner}]"), after.strip_prefix(':'))
        }
        None => match host_port.rsplit_once(':') {
            Some((h, p)) => (h.to_owned(), Some(p)),
            None => (host_port.to_owned(), None),
        },
    };
    if host.is_empty() || !host.is_ascii() || host.chars().any(|c| c.is_ascii_control() || c == ' ')
    {
        return None;
    }
    let port = match port {
        None | Some("") => None,
        Some(p) if p.bytes().all(|b| b.is_ascii_digit()) => {
            let n: u32 = p.trim_start_matches('0').parse().unwrap_or(0);
            if n > 65535 {
                return None;
            }
            (n != default_port).then_some(n)
        }
        Some(_) => return None,
    };
    let host = host.to_ascii_lowercase();
    Some(match port {
        Some(n) => format!("{scheme}://{host}:{n}"),
        None => format!("{scheme}://{host}"),
    })
}
