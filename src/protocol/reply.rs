//! The one writer of replies: the JSON-RPC message sent back for a request (what JSON-RPC
//! calls a response object; in this crate a *reply*, while a *response* is the HTTP response
//! of [`crate::http`] that may carry one). Results, errors of the responder (`RpcError`) and
//! transport refusals ([`Refusal`]) all go out through one writer (`envelope`), so every reply
//! has the same shape:
//!
//! * `{"jsonrpc":"2.0","id":<id>,"result":<result>}` for a result;
//! * `{"jsonrpc":"2.0","id":<id>,"error":{"code":…,"message":…[,"data":…]}}` for an error, and
//!   without `id` when the request's id is unknown: MCP's schemas (2025-11-25 and 2026-07-28)
//!   define `RequestId` as a string or an integer and make `id` optional on error responses,
//!   so JSON-RPC's `"id": null` would not validate.

use super::envelope::RawId;
use super::{Refusal, RpcError};

/// What a reply carries.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Outcome<'a> {
    /// A result object, as JSON text.
    Result(&'a str),
    /// An error of the responder.
    Error(&'a RpcError),
    /// A transport refusal.
    Refused(&'a Refusal),
}

/// The reply envelope for `id` (absent when the request's id could not be read).
pub(crate) fn envelope(id: Option<RawId<'_>>, outcome: Outcome<'_>) -> Vec<u8> {
    let size = match outcome {
        Outcome::Result(r) => r.len(),
        _ => 160,
    };
    let mut out = String::with_capacity(size + 48);
    out.push_str("{\"jsonrpc\":\"2.0\",");
    if let Some(id) = id {
        out.push_str("\"id\":");
        out.push_str(id.as_json());
        out.push(',');
    }
    match outcome {
        Outcome::Result(r) => {
            out.push_str("\"result\":");
            out.push_str(r);
        }
        Outcome::Error(e) => {
            out.push_str("\"error\":");
            e.write_json(&mut out);
        }
        Outcome::Refused(r) => {
            out.push_str("\"error\":");
            r.write_json(&mut out);
        }
    }
    out.push('}');
    out.into_bytes()
}

/// A result envelope in two parts, for a result written around something the adapter adds
/// (an asset): `{"jsonrpc":"2.0","id":<id>,"result":` and `}`. [`envelope`] writes the same.
pub(crate) fn result_envelope(id: RawId<'_>) -> (String, &'static str) {
    let mut open = String::with_capacity(48);
    open.push_str("{\"jsonrpc\":\"2.0\",\"id\":");
    open.push_str(id.as_json());
    open.push_str(",\"result\":");
    (open, "}")
}

/// The reply to a refused request: an error without `id` (a refusal happens before the
/// message is read).
pub fn refusal(r: &Refusal) -> Vec<u8> {
    envelope(None, Outcome::Refused(r))
}
