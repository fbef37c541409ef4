//! Reading a reply: a JSON body or the events of a stream, each read once with the strict JSON
//! reader, as the response to one request, its result handed to the caller's reader.

use crate::json::{self, Json as JsonNode, Node};

use super::*;
use crate::client::member;

/// The reader a reply's result is handed to. One reader type, so the reply's reading is
/// compiled once whatever the caller makes of the result.
pub(crate) type Reader<'r> = &'r mut dyn FnMut(&Node<'_>);

/// An event's data: `Some` when it is the response to `id` (its result handed to `read`);
/// another message is skipped.
fn answer_in_event(
    data: &str,
    id: u64,
    method: &str,
    read: Reader<'_>,
) -> Result<Option<Answer<()>>> {
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
    answer_of(&envelope, id, method, false, read).map(Some)
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
/// The `result` is handed, as read, to the caller's reader: the reply is read once, and
/// nothing is written back to text.
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

/// Parses a JSON body as the response to `id`, its result handed to `read`. With
/// `lenient_id`, an error without an `id` (the server could not read the request's) is
/// accepted.
pub(super) fn parse_response(
    body: &[u8],
    id: u64,
    method: &str,
    lenient_id: bool,
    read: Reader<'_>,
) -> Result<Answer<()>> {
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
    answer_of(&envelope, id, method, lenient_id, read)
}

fn answer_of(
    envelope: &Node<'_>,
    id: u64,
    method: &str,
    lenient_id: bool,
    read: Reader<'_>,
) -> Result<Answer<()>> {
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
        (Some(r), None) if r.as_object().is_some() => {
            read(r);
            Ok(Answer::Result(()))
        }
        (None, Some(e)) if e.as_object().is_some() => error_of(e, method),
        _ => Err(protocol(format!(
            "the reply to {method} must have either a `result` object or an `error` object"
        ))),
    }
}

fn error_of(e: &Node<'_>, method: &str) -> Result<Answer<()>> {
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

/// The essence of a content type (`application/json`), lowercase.
fn essence(content_type: Option<&str>) -> String {
    content_type
        .and_then(|c| c.split(';').next())
        .map(|c| c.trim().to_ascii_lowercase())
        .unwrap_or_default()
}

async fn read_all<B: ResponseBody>(body: &mut B, method: &str) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    while let Some(chunk) = body.next_chunk().await? {
        if out.len() + chunk.len() > MAX_REPLY_BYTES {
            return Err(too_large(method));
        }
        out.extend_from_slice(&chunk);
    }
    Ok(out)
}

fn too_large(method: &str) -> ClientError {
    protocol(format!(
        "the reply to {method} is larger than {MAX_REPLY_BYTES} bytes; it was not read"
    ))
}

/// Reads the answer to request `id` from a response (see the module documentation).
///
/// [`HttpSession`]'s own reader; public (and hidden from the documentation) for the fuzz target
/// `reply` and the reply tests of `tests/client_bounds.rs`.
#[doc(hidden)]
pub async fn read_answer<B: ResponseBody>(
    response: HttpResponse<B>,
    id: u64,
    method: &str,
) -> Result<Answer> {
    let mut text = String::new();
    let answer = read_reply(response, id, method, &mut |result| {
        text = result.raw.to_owned()
    })
    .await?;
    Ok(answer.with_result(text))
}

impl Answer<()> {
    /// This answer with `result` for its result (an error stays as it is).
    pub(crate) fn with_result<R>(self, result: R) -> Answer<R> {
        match self {
            Answer::Result(()) => Answer::Result(result),
            Answer::Error {
                code,
                message,
                data,
            } => Answer::Error {
                code,
                message,
                data,
            },
        }
    }
}

/// Reads the answer to request `id` from a response, its result handed, as read, to `read`:
/// a reply is read once.
pub(super) async fn read_reply<B: ResponseBody>(
    mut response: HttpResponse<B>,
    id: u64,
    method: &str,
    read: Reader<'_>,
) -> Result<Answer<()>> {
    let kind = essence(response.content_type.as_deref());
    let status = response.status;
    let ok = (200..300).contains(&status) && status != 202 && status != 204;
    if !ok {
        let body = if kind == "application/json" {
            read_all(&mut response.body, method).await.ok()
        } else {
            None
        };
        // A JSON-RPC error sent with an error status is the server's answer.
        if let Some(Ok(Answer::Error {
            code,
            message,
            data,
        })) = body
            .as_deref()
            .map(|b| parse_response(b, id, method, true, &mut |_| ()))
        {
            return Ok(Answer::Error {
                code,
                message,
                data,
            });
        }
        let what = if status == 202 || status == 204 {
            format!("HTTP {status} with no response")
        } else {
            format!("HTTP {status}")
        };
        return Err(ClientError::exchange(
            ExchangeKind::HttpStatus,
            format!("the server answered {method} with {what}"),
        )
        .with_values("200", status.to_string()));
    }
    match kind.as_str() {
        "application/json" => {
            let body = read_all(&mut response.body, method).await?;
            parse_response(&body, id, method, false, read)
        }
        "text/event-stream" => {
            let reader = read;
            let mut sse = Sse::default();
            let mut read = 0usize;
            loop {
                let chunk = response.body.next_chunk().await?;
                let events = match &chunk {
                    Some(c) => {
                        read += c.len();
                        if read > MAX_REPLY_BYTES {
                            return Err(too_large(method));
                        }
                        sse.feed(c)
                    }
                    None => sse.finish(),
                };
                for data in events {
                    if let Some(answer) = answer_in_event(&data, id, method, &mut *reader)? {
                        return Ok(answer);
                    }
                }
                if chunk.is_none() {
                    return Err(protocol(format!(
                        "the event stream answering {method} ended without the response to request {id}"
                    )));
                }
            }
        }
        other => Err(protocol(format!(
            "the server answered {method} with content type {:?}; a response must be application/json or text/event-stream",
            if other.is_empty() { "(none)" } else { other }
        ))),
    }
}
