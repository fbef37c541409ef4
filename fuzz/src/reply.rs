//! What the responder must answer to a message, worked out independently of its parser, and
//! the shape every reply must have.
//!
//! * No body (status 202) exactly for a readable notification (`jsonrpc` `"2.0"`, a string
//!   `method`, no `id`) and a readable response (no `method`, a `result` or `error`).
//! * Otherwise one JSON-RPC 2.0 response object: `jsonrpc`, exactly one of `result`/`error`,
//!   and `id` equal (as raw JSON text) to the request's when that could be read as a string or
//!   an integer, absent otherwise (never `"id": null`).
//! * Status 200, 400 or 404, matching the error code; codes only from the documented set.

use crate::json::{as_string, is_id, strict, Members};
use serde_json::Value as Json;
use skills_edge::server::Reply;

/// Error codes the responder may send (`-32603` is allowed for internal errors).
pub const CODES: [i64; 7] = [-32700, -32600, -32601, -32602, -32020, -32022, -32603];

/// The members of the envelope the responder reads.
const ENVELOPE: [&str; 6] = ["jsonrpc", "id", "method", "params", "result", "error"];

/// What a message must get.
#[derive(Debug, PartialEq, Eq)]
pub enum Expect {
    /// No reply (a notification or a response).
    NoBody,
    /// A reply with this raw id (`None`: no `id` member).
    Reply {
        /// The raw JSON text of the id to echo.
        id: Option<String>,
        /// Whether the message is a well-formed request (so the reply may be a result).
        request: bool,
    },
}

/// What `msg` must get, from its text alone.
pub fn expect(msg: &[u8]) -> Expect {
    let unreadable = Expect::Reply {
        id: None,
        request: false,
    };
    let Ok(text) = std::str::from_utf8(msg) else {
        return unreadable;
    };
    let Some(m) = Members::parse(text) else {
        return unreadable;
    };
    if ENVELOPE.iter().any(|k| m.count(k) > 1) {
        return unreadable;
    }
    let id = match m.get("id") {
        None => None,
        Some(raw) if is_id(raw.get()) => Some(raw.get().to_owned()),
        Some(_) => return unreadable,
    };
    let reply = |request: bool| Expect::Reply {
        id: id.clone(),
        request,
    };
    if m.get("jsonrpc").and_then(as_string).as_deref() != Some("2.0") {
        return reply(false);
    }
    match m.get("method") {
        Some(raw) => match (as_string(raw), &id) {
            (None, _) => reply(false),
            (Some(_), Some(_)) => reply(true),
            (Some(_), None) => Expect::NoBody,
        },
        None if m.get("result").is_some() || m.get("error").is_some() => Expect::NoBody,
        None => reply(false),
    }
}

/// A checked reply: the parsed `result` or the error code.
#[derive(Debug)]
pub enum Checked {
    /// No body.
    NoBody,
    /// A result object.
    Result(Json),
    /// An error with this code.
    Error(i64),
}

/// Checks every property of `reply` to `msg` and returns what it carried. A reply spliced
/// around an asset is checked both ways an adapter can send it: its fault reply (the asset
/// missing) must be a well-formed `-32603` error, and the head, a stand-in asset of the
/// announced length (a JSON string, as the real one is) and the tail must form a well-formed
/// reply, which is what is returned.
pub fn check(msg: &[u8], reply: &Reply) -> Checked {
    let Some(splice) = &reply.splice else {
        return check_whole(msg, reply);
    };
    assert!(splice.fault.splice.is_none(), "a fault reply is whole");
    assert!(
        matches!(check_whole(msg, &splice.fault), Checked::Error(-32603)),
        "the fault reply of a splice is not a -32603 error"
    );
    assert!(splice.len >= 2, "an asset is a JSON string, at least \"\"");
    let len = usize::try_from(splice.len)
        .unwrap_or(usize::MAX)
        .min(1 << 24);
    let mut stand_in = vec![b'a'; len];
    stand_in[0] = b'"';
    stand_in[len - 1] = b'"';
    let whole = Reply {
        status: reply.status,
        body: Some(
            [
                reply.body.clone().unwrap_or_default(),
                stand_in,
                splice.tail.clone(),
            ]
            .concat(),
        ),
        splice: None,
    };
    check_whole(msg, &whole)
}

fn check_whole(msg: &[u8], reply: &Reply) -> Checked {
    let expected = expect(msg);
    let Some(body) = &reply.body else {
        assert_eq!(reply.status, 202, "a reply without a body must be 202");
        assert_eq!(
            expected,
            Expect::NoBody,
            "no reply was sent to a message that needs one: {:?}",
            String::from_utf8_lossy(msg)
        );
        return Checked::NoBody;
    };
    let Expect::Reply { id, request } = expected else {
        panic!(
            "a notification or response got a reply {:?}: {:?}",
            String::from_utf8_lossy(body),
            String::from_utf8_lossy(msg)
        );
    };
    assert_ne!(reply.status, 202, "a reply with a body must not be 202");
    let text = std::str::from_utf8(body).expect("the reply is UTF-8");
    let m =
        Members::parse(text).unwrap_or_else(|| panic!("the reply is not a JSON object: {text:?}"));
    assert!(m.unique(), "the reply repeats a member: {text:?}");
    for (k, _) in &m.0 {
        assert!(
            ["jsonrpc", "id", "result", "error"].contains(&k.as_str()),
            "the reply has an unexpected member {k:?}: {text:?}"
        );
    }
    assert_eq!(
        m.get("jsonrpc").map(|r| r.get()),
        Some("\"2.0\""),
        "the reply's jsonrpc: {text:?}"
    );
    // The id is echoed byte for byte (it may hold escapes that only the client judges).
    assert_eq!(
        m.get("id").map(|r| r.get().to_owned()),
        id,
        "the reply's id differs from the request's: {text:?} to {:?}",
        String::from_utf8_lossy(msg)
    );
    match (m.get("result"), m.get("error")) {
        (Some(result), None) => {
            assert!(
                request,
                "a result for a message that is not a request: {text:?}"
            );
            assert_eq!(reply.status, 200, "a result must be 200: {text:?}");
            let v = strict(result.get(), "the result");
            assert!(v.is_object(), "the result is not an object: {text:?}");
            Checked::Result(v)
        }
        (None, Some(error)) => {
            let e = strict(error.get(), "the error");
            let obj = e
                .as_object()
                .unwrap_or_else(|| panic!("the error is not an object: {text:?}"));
            for k in obj.keys() {
                assert!(
                    ["code", "message", "data"].contains(&k.as_str()),
                    "the error has an unexpected member {k:?}: {text:?}"
                );
            }
            let code = obj
                .get("code")
                .and_then(Json::as_i64)
                .unwrap_or_else(|| panic!("the error has no integer code: {text:?}"));
            assert!(
                CODES.contains(&code),
                "unexpected error code {code}: {text:?}"
            );
            // A readable request is never a parse error or an invalid request, and anything
            // else is one of those two.
            assert_eq!(
                request,
                code != -32700 && code != -32600,
                "error {code} for a message that is {}a well-formed request: {:?}",
                if request { "" } else { "not " },
                String::from_utf8_lossy(msg)
            );
            assert!(
                obj.get("message").is_some_and(Json::is_string),
                "the error has no message: {text:?}"
            );
            let statuses: &[u16] = match code {
                -32601 => &[404],
                -32602 => &[200, 400],
                -32603 => &[200, 400, 500],
                _ => &[400],
            };
            assert!(
                statuses.contains(&reply.status),
                "status {} for error {code}: {text:?}",
                reply.status
            );
            Checked::Error(code)
        }
        _ => panic!("the reply must have exactly one of result and error: {text:?}"),
    }
}
