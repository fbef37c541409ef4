//! What a `401 Unauthorized` means, told from the server's own words: the `WWW-Authenticate`
//! challenge (RFC 6750 §3: `error`, `scope`; RFC 9728 §5.1: `resource_metadata`) and the
//! Protected Resource Metadata document it points to (RFC 9728 §2: `authorization_servers`,
//! `scopes_supported`).
//!
//! `unauthorized` turns a 401 into an `http-status` error (`expected` 200, `actual` 401)
//! whose message names the authorization server(s), the scopes the server supports, whether a
//! token was sent (and the challenge's `error`, such as `invalid_token` or
//! `insufficient_scope`), and the fix. The metadata is looked up as MCP clients do (MCP
//! authorization, Protected Resource Metadata Discovery): the challenge's `resource_metadata`
//! first; without one, `<origin>/.well-known/oauth-protected-resource<path>` (RFC 9728 §3.1: the
//! well-known segment before the endpoint's path), then the same at the root
//! (`metadata_urls`). The lookup is [`super::http`]'s: each GET goes through the transport's
//! `HttpIo::get`, so the caller's headers (the token) go to the endpoint's origin only, the
//! caller's timeout bounds it, and at most [`MAX_METADATA_BYTES`] are read. A document whose
//! `resource` is not the endpoint's URL is not used (RFC 9728 §3.3, `read_metadata`); for the
//! GETs of a well-known skills source, one whose `resource` is on their origin is
//! (`Requested::WellKnown`). A lookup that fails leaves the challenge alone to explain the
//! 401: the error is about the 401, never about the lookup.
//!
//! The token itself is never part of a message: only whether one was sent
//! (`HttpIo::sends_authorization`).

use serde_json::Value as Json;

use super::error::{ClientError, ExchangeKind};
use crate::host::index::origin_of;

/// The most bytes of a metadata document read (a document is a few hundred bytes).
pub const MAX_METADATA_BYTES: usize = 64 << 10;

/// The well-known path of Protected Resource Metadata (RFC 9728 §3).
const PRM_PATH: &str = "/.well-known/oauth-protected-resource";

/// The `Bearer` challenge of a `WWW-Authenticate` value: the parameters a client reads.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Challenge {
    /// `error` (RFC 6750 §3.1: `invalid_request`, `invalid_token`, `insufficient_scope`).
    pub error: Option<String>,
    /// `scope`: the scopes the request needs (RFC 6750 §3).
    pub scope: Option<String>,
    /// `resource_metadata`: the URL of the metadata document (RFC 9728 §5.1).
    pub resource_metadata: Option<String>,
}

/// Reads the `Bearer` challenge of a `WWW-Authenticate` value (RFC 9110 §11.6.1 challenge
/// syntax: `scheme param=value, param="quoted", …`, possibly after other schemes' challenges);
/// `None` when the value holds no `Bearer` challenge. Parameter names are case-insensitive;
/// quoted values have their `\` escapes removed; a parameter given twice keeps its first value.
pub(crate) fn parse_challenge(header: &str) -> Option<Challenge> {
    let mut rest = header;
    let mut in_bearer = None::<Challenge>;
    loop {
        rest = rest.trim_start_matches([' ', '\t', ',']);
        if rest.is_empty() {
            return in_bearer;
        }
        let name_len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)))
            .unwrap_or(rest.len());
        if name_len == 0 {
            // Not a token: nothing more can be read.
            return in_bearer;
        }
        let name = &rest[..name_len];
        let after = rest[name_len..].trim_start_matches([' ', '\t']);
        if let Some(value_start) = after.strip_prefix('=') {
            // An auth-param of the current challenge.
            let value_start = value_start.trim_start_matches([' ', '\t']);
            let (value, tail) = read_value(value_start);
            rest = tail;
            if let Some(c) = in_bearer.as_mut() {
                let slot = match name.to_ascii_lowercase().as_str() {
                    "error" => &mut c.error,
                    "scope" => &mut c.scope,
                    "resource_metadata" => &mut c.resource_metadata,
                    _ => continue,
                };
                if slot.is_none() {
                    *slot = Some(value);
                }
            }
            continue;
        }
        // A new challenge's scheme.
        if in_bearer.is_some() {
            return in_bearer;
        }
        if name.eq_ignore_ascii_case("bearer") {
            in_bearer = Some(Challenge::default());
        }
        rest = after;
    }
}

/// A parameter value at the start of `s` (a quoted string or a token) and what follows it.
fn read_value(s: &str) -> (String, &str) {
    if let Some(quoted) = s.strip_prefix('"') {
        let mut out = String::new();
        let mut chars = quoted.char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '\\' => {
                    if let Some((_, e)) = chars.next() {
                        out.push(e);
                    }
                }
                '"' => return (out, &quoted[i + 1..]),
                _ => out.push(c),
            }
        }
        return (out, "");
    }
    let end = s.find([',', ' ', '\t']).unwrap_or(s.len());
    (s[..end].to_owned(), &s[end..])
}

/// The metadata URLs to try for `endpoint`, in order: the challenge's `resource_metadata` when
/// it is an `http(s)` URL, else `<origin>/.well-known/oauth-protected-resource<path>` (when the
/// endpoint has a path other than `/`) and `<origin>/.well-known/oauth-protected-resource`.
pub(crate) fn metadata_urls(endpoint: &str, resource_metadata: Option<&str>) -> Vec<String> {
    if let Some(url) = resource_metadata
        .filter(|u| u.starts_with("https://") || u.starts_with("http://"))
        .filter(|u| !u.chars().any(|c| c.is_whitespace() || c.is_control()))
    {
        return vec![url.to_owned()];
    }
    let Some(origin) = origin_of(endpoint) else {
        return Vec::new();
    };
    let path = endpoint
        .get(origin.len()..)
        .unwrap_or_default()
        .split(['?', '#'])
        .next()
        .unwrap_or_default()
        .trim_end_matches('/');
    let mut out = Vec::new();
    if !path.is_empty() {
        out.push(format!("{origin}{PRM_PATH}{path}"));
    }
    out.push(format!("{origin}{PRM_PATH}"));
    out
}

/// What a metadata document says: its authorization servers and supported scopes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ResourceMetadata {
    /// The URL it was read from.
    pub url: String,
    /// `authorization_servers`.
    pub authorization_servers: Vec<String>,
    /// `scopes_supported`.
    pub scopes_supported: Vec<String>,
}

/// Whether two URLs name the same resource: equal, with the scheme and host compared without
/// regard to case (RFC 3986 §6.2.2.1).
fn same_resource(a: &str, b: &str) -> bool {
    match (origin_of(a), origin_of(b)) {
        (Some(oa), Some(ob)) => {
            oa.eq_ignore_ascii_case(&ob)
                && a.get(oa.len()..).unwrap_or_default() == b.get(ob.len()..).unwrap_or_default()
        }
        _ => a == b,
    }
}

/// Strings of a JSON array member, printable ones only (control characters dropped, at most
/// 20 items of 200 characters: a hostile document cannot flood the message).
fn strings(doc: &Json, key: &str) -> Vec<String> {
    doc.get(key)
        .and_then(Json::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Json::as_str)
                .take(20)
                .map(|s| {
                    s.chars()
                        .filter(|c| !c.is_control())
                        .take(200)
                        .collect::<String>()
                })
                .collect()
        })
        .unwrap_or_default()
}

/// What answered 401, and so which `resource` a metadata document must name to be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Requested<'a> {
    /// An MCP endpoint (its URL): the document's `resource` must be that URL (RFC 9728 §3.3).
    Endpoint(&'a str),
    /// A `GET` of a well-known skills source (the index, an artifact or the key set; its URL):
    /// a document whose `resource` has the URL's origin is used. A choice: such a source is
    /// served beside an MCP endpoint that has the metadata (this project's Worker names
    /// `/mcp`'s in the mirror's challenges), and the document only explains the 401, it is
    /// never used to get a token. Built by the command's well-known run only.
    #[cfg_attr(not(feature = "command"), allow(dead_code))]
    WellKnown(&'a str),
}

impl<'a> Requested<'a> {
    /// The URL that answered 401.
    pub(crate) fn url(self) -> &'a str {
        match self {
            Requested::Endpoint(u) | Requested::WellKnown(u) => u,
        }
    }

    /// Whether a document naming `resource` is about this request.
    fn covers(self, resource: &str) -> bool {
        match self {
            Requested::Endpoint(u) => same_resource(resource, u),
            Requested::WellKnown(u) => match (origin_of(resource), origin_of(u)) {
                (Some(a), Some(b)) => a.eq_ignore_ascii_case(&b),
                _ => false,
            },
        }
    }
}

/// Reads a metadata document fetched from `url` for `requested` (its status and body); `Err`
/// says why it cannot be used.
pub(crate) fn read_metadata(
    requested: Requested<'_>,
    url: &str,
    status: u16,
    body: &[u8],
) -> Result<ResourceMetadata, String> {
    if status != 200 {
        return Err(format!("HTTP {status}"));
    }
    let doc: Json = serde_json::from_slice(body).map_err(|_| "not JSON".to_owned())?;
    if !doc.is_object() {
        return Err("not a JSON object".into());
    }
    match doc.get("resource").and_then(Json::as_str) {
        Some(r) if requested.covers(r) => {}
        Some(_) => {
            return Err(match requested {
                Requested::Endpoint(_) => {
                    "its resource is not this endpoint's URL (RFC 9728 §3.3: not used)".into()
                }
                Requested::WellKnown(_) => {
                    "its resource is on another origin than the source's (not used)".into()
                }
            })
        }
        None => return Err("it has no resource (RFC 9728 §2)".into()),
    }
    Ok(ResourceMetadata {
        url: url.to_owned(),
        authorization_servers: strings(&doc, "authorization_servers"),
        scopes_supported: strings(&doc, "scopes_supported"),
    })
}

/// Printable text of a server-given value, for a message (no control characters, at most
/// 200 characters).
fn printable(s: &str) -> String {
    s.chars().filter(|c| !c.is_control()).take(200).collect()
}

/// The error of a 401 answering `method` (see the module documentation): `challenge` is the
/// response's, `sent` whether the request carried a token, `metadata` the document found (or
/// why none could be used; `None`: not looked up).
pub(crate) fn unauthorized(
    method: &str,
    challenge: Option<&Challenge>,
    sent: bool,
    metadata: Option<Result<ResourceMetadata, String>>,
) -> ClientError {
    let mut parts = vec![format!(
        "the server answered {method} with HTTP 401: it needs authorization"
    )];
    let refusal = challenge.and_then(|c| c.error.as_deref()).map(printable);
    parts.push(match (sent, refusal.as_deref()) {
        (true, Some(e)) => format!("a token was sent and refused (error=\"{e}\")"),
        (true, None) => "a token was sent and refused".into(),
        (false, Some(e)) => format!("no token was sent (error=\"{e}\")"),
        (false, None) => "no token was sent".into(),
    });
    if let Some(scope) = challenge.and_then(|c| c.scope.as_deref()) {
        parts.push(format!(
            "the request needs the scope(s) {}",
            printable(scope)
        ));
    }
    match metadata {
        Some(found) => match found {
            Ok(m) => {
                let list = |v: &[String]| {
                    if v.is_empty() {
                        "(none listed)".to_owned()
                    } else {
                        v.join(", ")
                    }
                };
                parts.push(format!(
                    "its metadata ({}) names the authorization server(s) {} and scopes_supported {}",
                    m.url,
                    list(&m.authorization_servers),
                    list(&m.scopes_supported)
                ));
            }
            Err(why) => parts.push(format!("no usable resource metadata ({why})")),
        },
        None => parts.push("the resource metadata was not looked up".into()),
    }
    let fix = if sent && refusal.as_deref() == Some("insufficient_scope") {
        "fix: get a token with the scopes needed and pass it with --token or SKILLS_EDGE_TOKEN (SkillsClient: the token option)"
    } else if sent {
        "fix: get a valid token from the authorization server and pass it with --token or SKILLS_EDGE_TOKEN (SkillsClient: the token option)"
    } else {
        "fix: pass --token or set SKILLS_EDGE_TOKEN (SkillsClient: the token option) with a token from the authorization server"
    };
    parts.push(fix.into());
    ClientError::exchange(ExchangeKind::HttpStatus, parts.join("; ")).with_values("200", "401")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bearer_challenge_and_its_metadata_urls() {
        let c = parse_challenge(r#"Bearer error="invalid_token", resource_metadata="https://h/.well-known/oauth-protected-resource/mcp""#).unwrap();
        assert_eq!(c.error.as_deref(), Some("invalid_token"));
        assert_eq!(
            c.resource_metadata.as_deref(),
            Some("https://h/.well-known/oauth-protected-resource/mcp")
        );
        assert!(parse_challenge("Basic realm=\"x\"").is_none());
        assert_eq!(
            metadata_urls("https://h/mcp?x=1", None),
            [
                "https://h/.well-known/oauth-protected-resource/mcp",
                "https://h/.well-known/oauth-protected-resource",
            ]
        );
        assert_eq!(
            metadata_urls("https://h/mcp", Some("https://as/m")),
            ["https://as/m"]
        );
    }

    #[test]
    fn challenges_are_read_as_rfc_9110_says() {
        let c = parse_challenge(
            r#"Basic realm="a, b", Bearer realm="x", ERROR=insufficient_scope, scope="a b", resource_metadata="https://h/m\"q""#,
        )
        .unwrap();
        assert_eq!(c.error.as_deref(), Some("insufficient_scope"));
        assert_eq!(c.scope.as_deref(), Some("a b"));
        assert_eq!(c.resource_metadata.as_deref(), Some("https://h/m\"q"));
        // Parameters of a later challenge are not the Bearer one's.
        let c = parse_challenge(r#"Bearer, DPoP error="invalid_token""#).unwrap();
        assert_eq!(c, Challenge::default());
        assert!(parse_challenge("").is_none());
        assert!(parse_challenge("Basic").is_none());
        let c = parse_challenge("bearer error=invalid_token,error=other").unwrap();
        assert_eq!(c.error.as_deref(), Some("invalid_token"));
        // An unterminated quote ends the value.
        let c = parse_challenge("Bearer error=\"invalid").unwrap();
        assert_eq!(c.error.as_deref(), Some("invalid"));
    }

    #[test]
    fn metadata_urls_follow_rfc_9728() {
        assert_eq!(
            metadata_urls("http://127.0.0.1:9/", None),
            ["http://127.0.0.1:9/.well-known/oauth-protected-resource"]
        );
        assert_eq!(
            metadata_urls("https://h/a/mcp/", Some("javascript:x")),
            [
                "https://h/.well-known/oauth-protected-resource/a/mcp",
                "https://h/.well-known/oauth-protected-resource"
            ]
        );
        assert!(same_resource("HTTPS://H/mcp", "https://h/mcp"));
        assert!(!same_resource("https://h/MCP", "https://h/mcp"));
        assert!(!same_resource("https://other/mcp", "https://h/mcp"));
    }

    #[test]
    fn a_well_known_source_uses_a_document_of_its_origin() {
        let doc = br#"{"resource":"https://H/mcp","authorization_servers":["https://as"]}"#;
        let index = "https://h/.well-known/agent-skills/index.json";
        let m = read_metadata(Requested::WellKnown(index), "https://h/m", 200, doc).unwrap();
        assert_eq!(m.authorization_servers, ["https://as"]);
        // The same document does not describe the index as an MCP endpoint (RFC 9728 §3.3).
        assert!(read_metadata(Requested::Endpoint(index), "https://h/m", 200, doc).is_err());
        // Another origin's document, or another port, is not used.
        for other in ["https://other/.well-known/x", "https://h:8443/index.json"] {
            let e =
                read_metadata(Requested::WellKnown(other), "https://h/m", 200, doc).unwrap_err();
            assert!(e.contains("another origin"), "{e}");
        }
    }
}
