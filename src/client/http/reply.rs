//! Reading a reply: a JSON body or the events of a stream, each read once with the strict JSON reader, as the response to one request.

use serde_json::Map;
use skills_edge_catalog::json::{self, Json as JsonNode, Node};

use super::*;

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
    let is_response = match &envelope {
        Envelope::Object(obj) => {
            obj.get("method").is_none() && (obj.contains_key("result") || obj.contains_key("error"))
        }
        Envelope::Other => false,
    };
    if !is_response {
        return Ok(None);
    }
    answer_of(envelope, id, method, false).map(Some)
}

fn duplicate(method: &str, key: &str) -> ClientError {
    protocol(format!(
        "the reply to {method} is not a valid JSON-RPC response: it has a duplicate member {key:?}; a response names each member once"
    ))
}

/// A reply read as JSON: an object whose members are all distinct, or anything else.
enum Envelope {
    Object(Map<String, Json>),
    Other,
}

/// Why a reply was not read.
enum Unread {
    /// Not JSON (the strict reader's error).
    NotJson(json::Error),
    /// An object that names this member twice: refused, so the reply is never read on one of
    /// its spellings.
    Repeated(String),
}

/// Reads a reply with the strict JSON reader ([`skills_edge_catalog::json`]): once, its
/// top-level members checked for a repeated key with one ordered set (O(n log n)), then
/// handed on as `serde_json` values, without writing them back to text.
fn read_envelope(text: &str) -> std::result::Result<Envelope, Unread> {
    let node = json::parse(text).map_err(Unread::NotJson)?;
    if node.as_object().is_none() {
        return Ok(Envelope::Other);
    }
    if let Some(key) = node.repeated_key() {
        return Err(Unread::Repeated(key.to_owned()));
    }
    match serde_value(&node) {
        Json::Object(obj) => Ok(Envelope::Object(obj)),
        _ => Ok(Envelope::Other),
    }
}

/// The value of a node read by the strict reader, as a `serde_json` value (the client's
/// representation of results). Depth is bounded by the reader's nesting limit. A number keeps
/// `serde_json`'s reading of its text; a repeated key below the top level keeps its last
/// value, as `serde_json` reads it.
fn serde_value(node: &Node<'_>) -> Json {
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
    answer_of(envelope, id, method, lenient_id)
}

fn answer_of(envelope: Envelope, id: u64, method: &str, lenient_id: bool) -> Result<Answer> {
    let Envelope::Object(obj) = envelope else {
        return Err(protocol(format!(
            "the reply to {method} is not a JSON-RPC response object"
        )));
    };
    if obj.get("jsonrpc").and_then(Json::as_str) != Some("2.0") {
        return Err(protocol(format!(
            "the reply to {method} is not JSON-RPC 2.0 (no \"jsonrpc\": \"2.0\")"
        )));
    }
    // JSON-RPC 2.0 §5: an error about a request whose id could not be read has `"id": null`.
    let id_ok = match obj.get("id") {
        Some(Json::Null) | None => lenient_id || obj.contains_key("error"),
        Some(v) => v.as_u64() == Some(id),
    };
    if !id_ok {
        return Err(protocol(format!(
            "the reply to {method} (request {id}) carries the id {}",
            obj.get("id")
                .map(Json::to_string)
                .unwrap_or_else(|| "(none)".into())
        ))
        .with_values(
            id.to_string(),
            obj.get("id").map(Json::to_string).unwrap_or_default(),
        ));
    }
    let mut obj = obj;
    match (obj.remove("result"), obj.get("error")) {
        (Some(r @ Json::Object(_)), None) => Ok(Answer::Result(r)),
        (None, Some(Json::Object(e))) => error_of(e, method),
        _ => Err(protocol(format!(
            "the reply to {method} must have either a `result` object or an `error` object"
        ))),
    }
}

fn error_of(e: &Map<String, Json>, method: &str) -> Result<Answer> {
    match (
        e.get("code").and_then(Json::as_i64),
        e.get("message").and_then(Json::as_str),
    ) {
        (Some(code), Some(message)) => Ok(Answer::Error {
            code,
            message: message.to_owned(),
            data: e.get("data").cloned(),
        }),
        _ => Err(protocol(format!(
            "the error answering {method} has no integer `code` and string `message`"
        ))),
    }
}
