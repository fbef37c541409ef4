//! Reading a reply: a JSON body or the events of a stream, each read once with the strict JSON reader, as the response to one request.

use crate::json::{self, Json as JsonNode, Node};

use super::*;
use crate::client::member;

/// An event's data: `Some` when it is the response to `id`; other messages are skipped.
pub(super) fn answer_in_event(data: &str, id: u64, method: &str) -> Result<Option<Answer>> {
    let envelope = match read_envelope(data) {
        Ok(e) => e,
        Err(Unread::Repeated(key)) => return Err(duplicate(method, &key)),
        Err(Unread::NotJson(_)) => {
            return Err(protocol(format!(
                "an event answering {method} is not JSON: {}",
                excerpt(data)
            )))
        }
    };
    let is_response = envelope.as_object().is_some()
        && envelope.get("method").is_none()
        && (envelope.get("result").is_some() || envelope.get("error").is_some());
    if !is_response {
        return Ok(None);
    }
    answer_of(&envelope, id, method, false).map(Some)
}

fn duplicate(method: &str, key: &str) -> ClientError {
    protocol(format!(
        "the reply to {method} is not a valid JSON-RPC response: it has a duplicate member {key:?}; a response names each member once"
    ))
}

/// Why a reply was not read.
enum Unread {
    /// Not JSON (the strict reader's error).
    NotJson(json::Error),
    /// An object that names this member twice: refused, so the reply is never read on one of
    /// its spellings.
    Repeated(String),
}

/// Reads a reply with the strict JSON reader ([`crate::json`]), once; an object
/// has its top-level members checked for a repeated key with one ordered set (O(n log n)).
/// The `result` is handed on as the text it was read from ([`Node::raw`]), for the client's
/// own reading; nothing is written back to text.
fn read_envelope(text: &str) -> std::result::Result<Node<'_>, Unread> {
    let node = json::parse(text).map_err(Unread::NotJson)?;
    if let Some(key) = node.repeated_key() {
        return Err(Unread::Repeated(key.to_owned()));
    }
    Ok(node)
}

/// The value of a node read by the strict reader, as a `serde_json` value (what a message
/// quotes, an error's `data`, a server's facts). Depth is bounded by the reader's nesting
/// limit. A number keeps `serde_json`'s reading of its text; a repeated key keeps its last
/// value, as `serde_json` reads it.
pub(crate) fn serde_value(node: &Node<'_>) -> Json {
    match &node.value {
        JsonNode::Null => Json::Null,
        JsonNode::Bool(b) => Json::Bool(*b),
        JsonNode::Number(n) => n.parse().map_or(Json::Null, Json::Number),
        JsonNode::String(s) => Json::String(s.to_string()),
        JsonNode::Array(items) => Json::Array(items.iter().map(serde_value).collect()),
        JsonNode::Object(members) => Json::Object(
            members
                .iter()
                .map(|(k, v)| (k.to_string(), serde_value(v)))
                .collect(),
        ),
    }
}

pub(super) fn excerpt(s: &str) -> String {
    let mut e: String = s.chars().take(120).collect();
    if e.len() < s.len() {
        e.push('…');
    }
    e
}

/// Parses a JSON body as the response to `id`. With `lenient_id`, an error without an `id`
/// (the server could not read the request's) is accepted.
pub(super) fn parse_response(
    body: &[u8],
    id: u64,
    method: &str,
    lenient_id: bool,
) -> Result<Answer> {
    let text = std::str::from_utf8(body).map_err(|_| {
        protocol(format!(
            "the reply to {method} is not JSON (it is not UTF-8): {}",
            excerpt(&String::from_utf8_lossy(body))
        ))
    })?;
    let envelope = read_envelope(text).map_err(|e| match e {
        Unread::Repeated(key) => duplicate(method, &key),
        Unread::NotJson(e) => protocol(format!(
            "the reply to {method} is not JSON ({e}): {}",
            excerpt(text)
        )),
    })?;
    answer_of(&envelope, id, method, lenient_id)
}

fn answer_of(envelope: &Node<'_>, id: u64, method: &str, lenient_id: bool) -> Result<Answer> {
    if envelope.as_object().is_none() {
        return Err(protocol(format!(
            "the reply to {method} is not a JSON-RPC response object"
        )));
    }
    if envelope.get("jsonrpc").and_then(Node::as_str) != Some("2.0") {
        return Err(protocol(format!(
            "the reply to {method} is not JSON-RPC 2.0 (no \"jsonrpc\": \"2.0\")"
        )));
    }
    let error = envelope.get("error");
    // JSON-RPC 2.0 §5: an error about a request whose id could not be read has `"id": null`.
    let id_ok = match envelope.get("id") {
        // As `serde_json` reads the number (`-0` is a float there, so no id).
        Some(v) if !v.is_null() => serde_value(v).as_u64() == Some(id),
        _ => lenient_id || error.is_some(),
    };
    if !id_ok {
        let carried = envelope.get("id").map(|v| serde_value(v).to_string());
        return Err(protocol(format!(
            "the reply to {method} (request {id}) carries the id {}",
            carried.as_deref().unwrap_or("(none)")
        ))
        .with_values(id.to_string(), carried.unwrap_or_default()));
    }
    match (envelope.get("result"), error) {
        (Some(r), None) if r.as_object().is_some() => Ok(Answer::Result(r.raw.to_owned())),
        (None, Some(e)) if e.as_object().is_some() => error_of(e, method),
        _ => Err(protocol(format!(
            "the reply to {method} must have either a `result` object or an `error` object"
        ))),
    }
}

fn error_of(e: &Node<'_>, method: &str) -> Result<Answer> {
    // The error object's members as `serde_json` read them: a repeated key, the last one,
    // and the code an integer as `serde_json` reads one (`-0` is a float there, so no code).
    let code = member(e, "code").and_then(|c| serde_value(c).as_i64());
    match (code, member(e, "message").and_then(Node::as_str)) {
        (Some(code), Some(message)) => Ok(Answer::Error {
            code,
            message: message.to_owned(),
            data: member(e, "data").map(serde_value),
        }),
        _ => Err(protocol(format!(
            "the error answering {method} has no integer `code` and string `message`"
        ))),
    }
}
