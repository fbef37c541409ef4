//! Reading a `resources/read` result: its one content item for a URI (A7, A14), read once with the strict JSON reader.

use super::*;

pub(super) fn bad_result(uri: &str, message: impl Into<String>) -> VerifyError {
    VerifyError::new(ErrorCode::InvalidReadResult, message).with_uri(uri)
}

/// A `resources/read` result given as JSON text, read with the strict reader.
pub(super) fn parse_result<'a>(text: &'a str, uri: &str) -> Result<Node<'a>> {
    json::parse(text).map_err(|e| {
        bad_result(
            uri,
            format!("the resources/read result for {uri} is not valid JSON: {e}"),
        )
    })
}

/// The member `key` of `node` (`None` when absent or `node` is no object); a key given twice
/// is refused.
fn member<'n, 'a>(node: &'n Node<'a>, key: &str, uri: &str) -> Result<Option<&'n Node<'a>>> {
    node.field(key).map_err(|e| {
        bad_result(
            uri,
            format!(
                "the resources/read result for {uri} has a {e}; a result names each member once"
            ),
        )
    })
}

/// Extracts the one content item for `uri` from a `resources/read` result read with the strict
/// JSON reader ([`crate::json`]) (A7, A14): `resultType` absent (legacy servers) or
/// `"complete"`; exactly one item of `contents` with this exact `uri` (items for other URIs
/// are ignored); exactly one of `text` (a string) or `blob` (strict, padded standard base64).
/// A member the check reads that is given twice (in the result or in a content item) is
/// refused, so the result is never read on one of its spellings. When `expected_size` is
/// given, a `blob`'s decoded length is checked against it before anything is decoded
/// ([`ErrorCode::SizeMismatch`]).
///
/// ```
/// use skills_edge::host::{read_content, Body, ErrorCode};
/// use skills_edge::catalog::json::parse;
/// let r = r#"{"contents":[{"uri":"skill://a/SKILL.md","mimeType":"text/markdown","text":"a"}]}"#;
/// let (body, mime) = read_content(&parse(r).unwrap(), "skill://a/SKILL.md", None).unwrap();
/// assert_eq!((body, mime.as_deref()), (Body::Text("a".into()), Some("text/markdown")));
/// let twice = r#"{"contents":[{"uri":"skill://a/SKILL.md","text":"a","text":"b"}]}"#;
/// let e = read_content(&parse(twice).unwrap(), "skill://a/SKILL.md", None).unwrap_err();
/// assert_eq!(e.code, ErrorCode::InvalidReadResult);
/// ```
pub fn read_content(
    result: &Node<'_>,
    uri: &str,
    expected_size: Option<u64>,
) -> Result<(Body, Option<String>)> {
    if result.as_object().is_none() {
        return Err(bad_result(uri, "a resources/read result must be an object"));
    }
    if let Some(other) = member(result, "resultType", uri)?
        && other.as_str() != Some("complete")
    {
        let other = other.raw;
        return Err(bad_result(
            uri,
            format!("the resources/read result for {uri} is not complete (resultType {other}); skill files are never read incrementally"),
        )
        .with_values("complete", other));
    }
    let contents = member(result, "contents", uri)?
        .and_then(Node::as_array)
        .ok_or_else(|| bad_result(uri, "the resources/read result has no `contents` array"))?;
    let mut matching = Vec::new();
    for c in contents {
        if member(c, "uri", uri)?.and_then(Node::as_str) == Some(uri) {
            matching.push(c);
        }
    }
    let item = *matching.first().ok_or_else(|| {
        bad_result(
            uri,
            format!(
                "the resources/read result has no content item for {uri} ({} item(s) for other URIs)",
                contents.len()
            ),
        )
        .with_values("1", "0")
    })?;
    let extra = matching.len() - 1;
    if extra > 0 {
        return Err(bad_result(
            uri,
            format!(
                "the resources/read result has {} content items for {uri}; exactly one is allowed",
                extra + 1
            ),
        )
        .with_values("1", (extra + 1).to_string()));
    }
    let mime_type = member(item, "mimeType", uri)?
        .and_then(Node::as_str)
        .map(str::to_owned);
    match (
        member(item, "text", uri)?.map(Node::as_str),
        member(item, "blob", uri)?.map(Node::as_str),
    ) {
        (Some(Some(text)), None) => Ok((Body::Text(text.to_owned()), mime_type)),
        (None, Some(Some(blob))) => {
            let padding = blob.bytes().rev().take_while(|&c| c == b'=').count();
            if blob.len() % 4 != 0 || padding > 2 {
                return Err(bad_result(
                    uri,
                    format!(
                        "the blob of {uri} is not valid base64 (its length or padding is wrong)"
                    ),
                ));
            }
            let decoded_len = base64::decoded_len(blob.len(), padding) as u64;
            if let Some(size) = expected_size
                && decoded_len != size
            {
                return Err(VerifyError::new(
                    ErrorCode::SizeMismatch,
                    format!("{uri} is {decoded_len} bytes (base64-decoded) but its entry says {size}; the content must not be used"),
                )
                .with_uri(uri)
                .with_values(size.to_string(), decoded_len.to_string()));
            }
            let bytes = base64::decode(blob).ok_or_else(|| {
                bad_result(
                    uri,
                    format!("the blob of {uri} is not strict base64 (RFC 4648 standard alphabet, padded, no whitespace)"),
                )
            })?;
            Ok((Body::Blob(bytes), mime_type))
        }
        (Some(_), Some(_)) => Err(bad_result(
            uri,
            format!(
                "the content item for {uri} has both `text` and `blob`; exactly one is allowed"
            ),
        )),
        _ => Err(bad_result(
            uri,
            format!("the content item for {uri} has neither a string `text` nor a string `blob`"),
        )),
    }
}

/// The content item of a `resources/read` result (its JSON text) for `uri` after every check
/// of [`verify_content`] over a `resources/read` result that comes before hashing: the URI
/// must be listed, the result well-formed ([`read_content`]), and the content's byte length
/// equal to its item's. A caller that hashes the content elsewhere then hands the content
/// item to [`verify_content`] with [`Hashing::Given`].
pub(crate) fn read_result_content(
    entry: &Entry,
    uri: &str,
    result: &str,
    options: VerifyOptions,
) -> Result<(Body, Option<String>)> {
    let item = manifest_item(entry, uri, options)?;
    let (body, mime_type) = read_content(&parse_result(result, uri)?, uri, item.map(|i| i.size))?;
    if let Some(item) = item {
        check_size(item, body.as_bytes().len() as u64)?;
    }
    Ok((body, mime_type))
}
