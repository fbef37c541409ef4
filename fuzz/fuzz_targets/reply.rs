//! The client's reply reader, `client::http::read_answer`, over arbitrary bytes with a
//! chosen request id, status, content type and chunking.
//!
//! Input: four flag bytes, then the body.
//! * byte 0: the content type (`CONTENT_TYPES`, modulo their number);
//! * byte 1: the HTTP status (`STATUSES`);
//! * byte 2: the request id (`0`–`254`, `255` is `u64::MAX`);
//! * byte 3: the chunk length (`% 32`; `0`: the whole body in one chunk).
//!
//! Properties: no panic; an answer is taken only from a message the reply really carries (the
//! whole JSON body, or an event of the stream as `skills_edge_fuzz::sse` reads it) that is the
//! response to this request: a JSON object with `"jsonrpc": "2.0"`, no member of the envelope
//! (`jsonrpc`, `id`, `result`, `error`) twice, and an `id` that is this request's integer id
//! (an error may have no `id`, or `"id": null`: the answer to nothing); a result is that
//! message's `result` object, an error its `code` and `message`. A reply with another id, or
//! with two ids, is never the answer.

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value as Json;
use skills_edge::client::block_on;
use skills_edge::client::http::{read_answer, Answer, HttpResponse, ResponseBody};
use skills_edge::client::Result;
use skills_edge_fuzz::json::{as_string, Members};
use skills_edge_fuzz::split_flags;

const CONTENT_TYPES: &[Option<&str>] = &[
    Some("application/json"),
    Some("text/event-stream"),
    Some("application/json; charset=utf-8"),
    Some("Text/Event-Stream;charset=utf-8"),
    None,
    Some("text/html"),
];

const STATUSES: &[u16] = &[200, 200, 201, 202, 204, 400, 404, 500, 302];

/// The body, in chunks of a fixed length.
struct Chunks {
    body: Vec<u8>,
    at: usize,
    len: usize,
}

impl ResponseBody for Chunks {
    async fn next_chunk(&mut self) -> Result<Option<Vec<u8>>> {
        if self.at >= self.body.len() {
            return Ok(None);
        }
        let end = (self.at + self.len).min(self.body.len());
        let chunk = self.body[self.at..end].to_vec();
        self.at = end;
        Ok(Some(chunk))
    }
}

/// Whether the raw JSON text `raw` is the integer `id`.
fn is_this_id(raw: &str, id: u64) -> bool {
    let digits = raw.strip_prefix('-').unwrap_or(raw);
    !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && digits.parse::<u128>().ok().is_some_and(|v| {
            if raw.starts_with('-') {
                v == 0 && id == 0
            } else {
                v == u128::from(id)
            }
        })
}

/// Whether `message` is the response to request `id` and carries `answer`.
fn carries(message: &str, id: u64, answer: &Answer) -> bool {
    let Some(m) = Members::parse(message) else {
        return false;
    };
    if ["jsonrpc", "id", "result", "error"]
        .iter()
        .any(|k| m.count(k) > 1)
    {
        return false;
    }
    if m.get("jsonrpc").and_then(as_string).as_deref() != Some("2.0") {
        return false;
    }
    let id_raw = m.get("id").map(|r| r.get());
    let parse = |k: &str| {
        m.get(k)
            .and_then(|r| serde_json::from_str::<Json>(r.get()).ok())
    };
    match answer {
        Answer::Result(r) => {
            id_raw.is_some_and(|raw| is_this_id(raw, id))
                && m.get("error").is_none()
                && parse("result") == serde_json::from_str::<Json>(r).ok()
        }
        Answer::Error { code, message, .. } => {
            let id_ok = match id_raw {
                None | Some("null") => true,
                Some(raw) => is_this_id(raw, id),
            };
            let e = parse("error");
            id_ok
                && m.get("result").is_none()
                && e.as_ref()
                    .and_then(|e| e.get("code"))
                    .and_then(Json::as_i64)
                    == Some(*code)
                && e.as_ref()
                    .and_then(|e| e.get("message"))
                    .and_then(Json::as_str)
                    == Some(message.as_str())
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let (flags, body) = split_flags::<4>(data);
    let content_type = CONTENT_TYPES[usize::from(flags[0]) % CONTENT_TYPES.len()];
    let status = STATUSES[usize::from(flags[1]) % STATUSES.len()];
    let id = if flags[2] == 255 {
        u64::MAX
    } else {
        u64::from(flags[2])
    };
    let len = match usize::from(flags[3] % 32) {
        0 => body.len().max(1),
        n => n,
    };
    let response = HttpResponse {
        status,
        content_type: content_type.map(str::to_owned),
        session_id: None,
        www_authenticate: None,
        body: Chunks {
            body: body.to_vec(),
            at: 0,
            len,
        },
    };
    let Ok(answer) = block_on(read_answer(response, id, "skills/list")) else {
        return;
    };
    let stream = content_type
        .and_then(|c| c.split(';').next())
        .is_some_and(|c| c.trim().eq_ignore_ascii_case("text/event-stream"));
    let messages = if stream {
        skills_edge_fuzz::sse::events(body)
    } else {
        vec![String::from_utf8_lossy(body).into_owned()]
    };
    assert!(
        messages.iter().any(|m| carries(m, id, &answer)),
        "{answer:?} was taken as the answer to request {id} (HTTP {status}, {content_type:?}) from a reply that does not carry it as that request's response: {:?}",
        String::from_utf8_lossy(body)
    );
});
