//! The Streamable HTTP header rules of 2026-07-28 that concern the message itself: which era a
//! request belongs to, and how `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` must mirror
//! the body (spec: `basic/transports/streamable-http.mdx`, "Required request headers").
//!
//! The transport rules (Origin, Host, Accept, Content-Type, body size) are in [`crate::http`];
//! these rules need the parsed message, so the responder applies them. Every header value (and
//! body value) a refusal repeats is clipped to 200 characters (`error::clip`): a header is not
//! bounded by the body limit, so a long one must not make a long reply.

use super::envelope::{raw_str, Meta, Params};
use super::error::clip;
use super::{Era, RpcError, LEGACY_VERSIONS};
use serde_json::value::RawValue;
use std::borrow::Cow;

/// The MCP request headers of a Streamable HTTP POST, as raw values (`None` when absent).
///
/// ```
/// use skills_edge::server::{Config, Grant, HttpHeaders, Responder, Transport};
/// let responder = Responder::new(skills_edge::embedded::catalog().unwrap(), Config::default()).unwrap();
/// let body = br#"{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{"_meta":{
///     "io.modelcontextprotocol/protocolVersion":"2026-07-28",
///     "io.modelcontextprotocol/clientCapabilities":{}}}}"#;
/// let headers = HttpHeaders { protocol_version: Some("2026-07-28"), method: Some("skills/list"), name: None };
/// assert_eq!(responder.respond(body, &Transport::Http(headers), Grant::PUBLIC).status, 200);
/// // `Mcp-Method` must mirror the body's method.
/// let wrong = HttpHeaders { method: Some("tools/list"), ..headers };
/// let reply = responder.respond(body, &Transport::Http(wrong), Grant::PUBLIC);
/// assert_eq!(reply.status, 400);
/// assert!(reply.body_str().contains("Mcp-Method"), "{}", reply.body_str());
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct HttpHeaders<'a> {
    /// `MCP-Protocol-Version`.
    pub protocol_version: Option<&'a str>,
    /// `Mcp-Method`.
    pub method: Option<&'a str>,
    /// `Mcp-Name` (possibly in the `=?base64?…?=` form).
    pub name: Option<&'a str>,
}

/// Decodes a header value that may use the `=?base64?…?=` form for text that is not plain
/// ASCII (the server MUST decode before comparing). `None` when the form is used but its
/// content is not base64 of UTF-8 text; other values are returned as they are.
pub fn decode_header_value(v: &str) -> Option<Cow<'_, str>> {
    match v
        .strip_prefix("=?base64?")
        .and_then(|r| r.strip_suffix("?="))
    {
        Some(b64) => crate::base64::decode(b64)
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .map(Cow::Owned),
        None => Some(Cow::Borrowed(v)),
    }
}

/// Encodes a header value for `Mcp-Name` (and any header that mirrors a body value): a value
/// that is a safe plain-ASCII field value is sent as it is; anything else is sent as
/// `=?base64?<standard padded base64 of its UTF-8>?=` (spec: "Value encoding"). A value needs
/// the base64 form when it is empty, starts or ends with whitespace (field parsing would strip
/// it), contains a character outside visible ASCII, space and tab (non-ASCII text, CR, LF,
/// other control characters), or already looks like the sentinel form. The inverse is
/// [`decode_header_value`]; the official SDKs apply the same rule. The client sends its
/// request headers through it.
pub(crate) fn encode_header_value(v: &str) -> Cow<'_, str> {
    let sentinel = v.starts_with("=?base64?") && v.ends_with("?=");
    let padded = v.starts_with([' ', '\t']) || v.ends_with([' ', '\t']);
    let unsafe_char = v.chars().any(|c| !(c == '\t' || (' '..='~').contains(&c)));
    if !(v.is_empty() || sentinel || padded || unsafe_char) {
        return Cow::Borrowed(v);
    }
    let mut out = String::from("=?base64?");
    crate::base64::encode_into(v.as_bytes(), &mut out);
    out.push_str("?=");
    Cow::Owned(out)
}

/// Which era serves a request: 2026-07-28 when its `params._meta` carries
/// `io.modelcontextprotocol/protocolVersion`, or when it arrives over HTTP with an
/// `MCP-Protocol-Version` header that is not a legacy revision; 2025-11-25 otherwise
/// (spec: `basic/versioning.mdx`, dual-era routing).
pub(crate) fn era_of(params: Option<&Params<'_>>, headers: Option<&HttpHeaders<'_>>) -> Era {
    let body_modern = params
        .and_then(|p| p.meta)
        .and_then(Meta::parse)
        .is_some_and(|m| m.protocol_version.is_some());
    if body_modern {
        return Era::Modern;
    }
    match headers.and_then(|h| h.protocol_version) {
        Some(v) if !LEGACY_VERSIONS.contains(&v) => Era::Modern,
        _ => Era::Legacy,
    }
}

/// A 2026-07-28 request over HTTP must carry `MCP-Protocol-Version` (checked before the body's
/// `_meta`, as the conformance suite requires).
pub(crate) fn require_version_header(h: &HttpHeaders<'_>) -> Result<(), RpcError> {
    match h.protocol_version {
        Some(_) => Ok(()),
        None => Err(RpcError::HeaderMismatch(
            "the MCP-Protocol-Version header is required".into(),
        )),
    }
}

/// `MCP-Protocol-Version` must equal the body's `_meta` protocol version.
pub(crate) fn check_version_header(h: &HttpHeaders<'_>, version: &str) -> Result<(), RpcError> {
    if h.protocol_version == Some(version) {
        return Ok(());
    }
    Err(RpcError::HeaderMismatch(format!(
        "the MCP-Protocol-Version header {:?} differs from _meta protocolVersion {:?}",
        clip(h.protocol_version.unwrap_or_default()),
        clip(version)
    )))
}

/// The body field that `Mcp-Name` repeats on a method: `params.uri` on `resources/read`,
/// `params.name` on `tools/call` and `prompts/get` (checked only when the server offers them:
/// a server without tools or prompts answers those methods `-32601` whatever the headers).
#[derive(Debug, Clone, Copy)]
pub(crate) struct NamedField<'a> {
    /// The field's name (`uri`, `name`).
    pub(crate) field: &'static str,
    /// What it is, for the message (`the resource URI`).
    pub(crate) what: &'static str,
    /// Its raw value, when present.
    pub(crate) value: Option<&'a RawValue>,
}

/// `Mcp-Method` must equal the body's method; where `named` says so, `Mcp-Name` must equal
/// that field. Both may use the `=?base64?…?=` form.
pub(crate) fn check_method_headers(
    h: &HttpHeaders<'_>,
    method: &str,
    named: Option<NamedField<'_>>,
) -> Result<(), RpcError> {
    match h.method.map(decode_header_value) {
        None => {
            return Err(RpcError::HeaderMismatch(format!(
                "the Mcp-Method header is required (expected {:?})",
                clip(method)
            )))
        }
        Some(Some(m)) if m == method => {}
        Some(_) => {
            return Err(RpcError::HeaderMismatch(format!(
                "the Mcp-Method header {:?} differs from the body's method {:?}",
                clip(h.method.unwrap_or_default()),
                clip(method)
            )))
        }
    }
    let Some(named) = named else {
        return Ok(());
    };
    match (
        h.name.map(decode_header_value),
        named.value.and_then(raw_str),
    ) {
        (None, _) => Err(RpcError::HeaderMismatch(format!(
            "the Mcp-Name header is required on {} ({})",
            clip(method),
            named.what
        ))),
        (Some(Some(n)), Some(u)) if n == u => Ok(()),
        // A missing or non-string field is reported as invalid params by the method.
        (Some(Some(_)), None) => Ok(()),
        (Some(_), _) => Err(RpcError::HeaderMismatch(format!(
            "the Mcp-Name header {:?} differs from params.{}",
            clip(h.name.unwrap_or_default()),
            named.field
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::{decode_header_value, encode_header_value};

    #[test]
    fn a_plain_value_is_kept_and_the_base64_form_decoded() {
        assert_eq!(
            decode_header_value("skills/list").as_deref(),
            Some("skills/list")
        );
        assert_eq!(
            decode_header_value("=?base64?c2tpbGw6Ly/DqQ==?=").as_deref(),
            Some("skill://é")
        );
        assert_eq!(decode_header_value("=?base64?not base64?="), None);
    }

    #[test]
    fn values_that_are_not_plain_ascii_use_the_base64_form_and_round_trip() {
        assert_eq!(
            encode_header_value("skill://a/SKILL.md"),
            "skill://a/SKILL.md"
        );
        assert_eq!(
            encode_header_value("skill://é"),
            "=?base64?c2tpbGw6Ly/DqQ==?="
        );
        assert_eq!(encode_header_value(" x"), "=?base64?IHg=?=");
        for v in ["a\r\nb", "=?base64?eA==?=", "", "tab\tinside", "ü"] {
            assert_eq!(
                decode_header_value(&encode_header_value(v)).as_deref(),
                Some(v)
            );
        }
    }

    #[test]
    fn non_ascii_names_use_the_base64_form() {
        assert_eq!(
            encode_header_value("skill://straße/SKILL.md"),
            "=?base64?c2tpbGw6Ly9zdHJhw59lL1NLSUxMLm1k?="
        );
    }
}
