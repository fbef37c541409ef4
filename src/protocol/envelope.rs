//! Parsing one incoming JSON-RPC message without building a value tree: the envelope's
//! fields stay raw JSON slices of the input until a handler asks for them, so a request
//! costs what its reply costs.

use super::error::RpcError;
use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;
use std::borrow::Cow;

/// A request id, as the raw JSON text the client sent (a string or an integer), echoed back
/// byte for byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RawId<'a>(&'a str);

impl<'a> RawId<'a> {
    /// The raw JSON text of the id.
    pub(crate) fn as_json(&self) -> &'a str {
        self.0
    }
}

/// A field that is either absent or present with some JSON value (`null` included), so an
/// explicit `"id": null` is told apart from a missing id.
#[derive(Debug, Clone, Copy, Default)]
enum Field<'a> {
    #[default]
    Absent,
    Present(&'a RawValue),
}

impl<'de: 'a, 'a> Deserialize<'de> for Field<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        <&'a RawValue>::deserialize(d).map(Field::Present)
    }
}

impl<'a> Field<'a> {
    fn get(self) -> Option<&'a RawValue> {
        match self {
            Field::Absent => None,
            Field::Present(r) => Some(r),
        }
    }
}

#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(default, borrow)]
    jsonrpc: Field<'a>,
    #[serde(default, borrow)]
    id: Field<'a>,
    #[serde(default, borrow)]
    method: Field<'a>,
    #[serde(default, borrow)]
    params: Field<'a>,
    #[serde(default, borrow)]
    result: Field<'a>,
    #[serde(default, borrow)]
    error: Field<'a>,
}

/// An incoming message, classified.
#[derive(Debug)]
pub(crate) enum Incoming<'a> {
    /// A request: it gets exactly one reply.
    Request {
        /// The id to echo.
        id: RawId<'a>,
        /// The method name.
        method: Cow<'a, str>,
        /// The raw `params`, if present.
        params: Option<&'a RawValue>,
    },
    /// A notification: it never gets a reply.
    Notification,
    /// A response (`result` or `error`). This server sends no requests, so there is nothing
    /// to match it to; JSON-RPC forbids replying to it.
    Response,
}

/// Reads a JSON string value, unescaping only when needed.
pub(crate) fn raw_str(raw: &RawValue) -> Option<Cow<'_, str>> {
    let text = raw.get();
    if !text.starts_with('"') {
        return None;
    }
    match serde_json::from_str::<&str>(text) {
        Ok(s) => Some(Cow::Borrowed(s)),
        Err(_) => serde_json::from_str::<String>(text).ok().map(Cow::Owned),
    }
}

fn first_byte(text: &str) -> Option<u8> {
    text.bytes()
        .find(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
}

fn syntax_or(text: &str, err: RpcError) -> RpcError {
    match serde_json::from_str::<serde::de::IgnoredAny>(text) {
        Ok(_) => err,
        Err(e) => RpcError::Parse(e.to_string()),
    }
}

/// Parses one message. On failure returns the error to send, with the request id when it
/// could be read (`None`: the error reply has no `id` member; see [`super::reply`]).
pub(crate) fn parse_message(bytes: &[u8]) -> Result<Incoming<'_>, (Option<RawId<'_>>, RpcError)> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        (
            None,
            RpcError::Parse(format!(
                "the message is not UTF-8 (byte {})",
                e.valid_up_to()
            )),
        )
    })?;
    match first_byte(text) {
        Some(b'{') => {}
        Some(b'[') => {
            return Err((
                None,
                syntax_or(
                    text,
                    RpcError::InvalidRequest(
                        "batches (JSON arrays) are not supported; send one message per request"
                            .into(),
                    ),
                ),
            ))
        }
        None => return Err((None, RpcError::Parse("the message is empty".into()))),
        Some(_) => {
            return Err((
                None,
                syntax_or(
                    text,
                    RpcError::InvalidRequest("a JSON-RPC message must be a JSON object".into()),
                ),
            ))
        }
    }
    let env: Envelope = serde_json::from_str(text).map_err(|e| {
        let err = if e.is_syntax() || e.is_eof() {
            RpcError::Parse(e.to_string())
        } else {
            RpcError::InvalidRequest(e.to_string())
        };
        (None, err)
    })?;

    let id = match env.id {
        Field::Absent => None,
        Field::Present(raw) => {
            let t = raw.get();
            let ok = t.starts_with('"') || {
                let digits = t.strip_prefix('-').unwrap_or(t);
                !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
            };
            if !ok {
                return Err((
                    None,
                    RpcError::InvalidRequest(format!(
                        "the id must be a string or an integer, not {}",
                        super::error::clip(t)
                    )),
                ));
            }
            Some(RawId(t))
        }
    };
    let version_ok = env
        .jsonrpc
        .get()
        .and_then(raw_str)
        .is_some_and(|v| v == "2.0");
    if !version_ok {
        return Err((
            id,
            RpcError::InvalidRequest("`jsonrpc` must be the string \"2.0\"".into()),
        ));
    }
    match env.method.get() {
        Some(m) => {
            let Some(method) = raw_str(m) else {
                return Err((
                    id,
                    RpcError::InvalidRequest("`method` must be a string".into()),
                ));
            };
            let params = env.params.get();
            match id {
                Some(id) => Ok(Incoming::Request { id, method, params }),
                None => Ok(Incoming::Notification),
            }
        }
        None if env.result.get().is_some() || env.error.get().is_some() => Ok(Incoming::Response),
        None => Err((
            id,
            RpcError::InvalidRequest("the message has no `method`".into()),
        )),
    }
}

#[derive(Deserialize, Default)]
struct ParamsFields<'a> {
    #[serde(rename = "_meta", default, borrow)]
    meta: Field<'a>,
    #[serde(default, borrow)]
    cursor: Field<'a>,
    #[serde(default, borrow)]
    uri: Field<'a>,
    #[serde(rename = "protocolVersion", default, borrow)]
    protocol_version: Field<'a>,
}

/// The `params` fields this server reads, still raw.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Params<'a> {
    /// `params` was present and a JSON object.
    pub(crate) is_object: bool,
    /// `_meta`.
    pub(crate) meta: Option<&'a RawValue>,
    /// `cursor`.
    pub(crate) cursor: Option<&'a RawValue>,
    /// `uri`.
    pub(crate) uri: Option<&'a RawValue>,
    /// `protocolVersion` (legacy `initialize`).
    pub(crate) protocol_version: Option<&'a RawValue>,
    /// The whole `params` object, for the methods that read other fields
    /// ([`NamedParams`]).
    pub(crate) raw: Option<&'a RawValue>,
}

impl<'a> Params<'a> {
    /// Reads the fields of `params`. `Err` when `params` is present but not an object or
    /// repeats a field; absent `params` gives all fields `None`.
    pub(crate) fn parse(raw: Option<&'a RawValue>) -> Result<Params<'a>, String> {
        let Some(raw) = raw else {
            return Ok(Params::default());
        };
        if first_byte(raw.get()) != Some(b'{') {
            return Err("`params` must be an object".into());
        }
        let f: ParamsFields =
            serde_json::from_str(raw.get()).map_err(|e| format!("`params`: {e}"))?;
        Ok(Params {
            is_object: true,
            meta: f.meta.get(),
            cursor: f.cursor.get(),
            uri: f.uri.get(),
            protocol_version: f.protocol_version.get(),
            raw: Some(raw),
        })
    }
}

#[derive(Deserialize, Default)]
struct NamedFields<'a> {
    #[serde(default, borrow)]
    name: Field<'a>,
    #[serde(default, borrow)]
    arguments: Field<'a>,
}

/// The `params` fields of `tools/call` and `prompts/get`, still raw. They are read only for
/// those methods (when the server offers them), so the other methods see `params` exactly as
/// before.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct NamedParams<'a> {
    /// `name`: the tool's or the prompt's name.
    pub(crate) name: Option<&'a RawValue>,
    /// `arguments`.
    pub(crate) arguments: Option<&'a RawValue>,
}

impl<'a> NamedParams<'a> {
    /// Reads `name` and `arguments` of a `params` object ([`Params::raw`]). `Err` when a
    /// field is repeated.
    pub(crate) fn parse(raw: Option<&'a RawValue>) -> Result<NamedParams<'a>, String> {
        let Some(raw) = raw else {
            return Ok(NamedParams::default());
        };
        let f: NamedFields =
            serde_json::from_str(raw.get()).map_err(|e| format!("`params`: {e}"))?;
        Ok(NamedParams {
            name: f.name.get(),
            arguments: f.arguments.get(),
        })
    }
}

#[derive(Deserialize)]
struct MetaFields<'a> {
    #[serde(rename = "io.modelcontextprotocol/protocolVersion", default, borrow)]
    protocol_version: Field<'a>,
    #[serde(rename = "io.modelcontextprotocol/clientCapabilities", default, borrow)]
    client_capabilities: Field<'a>,
}

/// The 2026-07-28 request `_meta` fields, still raw.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Meta<'a> {
    /// `io.modelcontextprotocol/protocolVersion`.
    pub(crate) protocol_version: Option<&'a RawValue>,
    /// `io.modelcontextprotocol/clientCapabilities`.
    pub(crate) client_capabilities: Option<&'a RawValue>,
}

impl<'a> Meta<'a> {
    /// Reads `_meta`; `None` when it is not an object (or repeats a key).
    pub(crate) fn parse(raw: &'a RawValue) -> Option<Meta<'a>> {
        if first_byte(raw.get()) != Some(b'{') {
            return None;
        }
        let f: MetaFields = serde_json::from_str(raw.get()).ok()?;
        Some(Meta {
            protocol_version: f.protocol_version.get(),
            client_capabilities: f.client_capabilities.get(),
        })
    }

    /// Whether a raw value is a JSON object.
    pub(crate) fn is_object(raw: &RawValue) -> bool {
        first_byte(raw.get()) == Some(b'{')
    }
}

/// The required 2026-07-28 `_meta` fields; returns the declared protocol version.
pub(crate) fn check_meta<'a>(params: &Params<'a>) -> Result<Cow<'a, str>, RpcError> {
    let env = |m: &str| RpcError::InvalidEnvelope(m.to_owned());
    if !params.is_object {
        return Err(env(
            "`params` with `_meta` is required on every request (protocol revision 2026-07-28)",
        ));
    }
    let meta_raw = params.meta.ok_or_else(|| {
        env("`params._meta` is required (io.modelcontextprotocol/protocolVersion and io.modelcontextprotocol/clientCapabilities)")
    })?;
    let meta = Meta::parse(meta_raw).ok_or_else(|| env("`params._meta` must be an object"))?;
    let version = meta.protocol_version.and_then(raw_str).ok_or_else(|| {
        env("`_meta[\"io.modelcontextprotocol/protocolVersion\"]` (a string) is required")
    })?;
    match meta.client_capabilities {
        Some(c) if Meta::is_object(c) => Ok(version),
        _ => Err(env(
            "`_meta[\"io.modelcontextprotocol/clientCapabilities\"]` (an object) is required",
        )),
    }
}
