//! `SkillsServer`: the in-page server over a pack or the embedded catalog.
//!
//! Messages stay JSON text end to end: an object message is serialised with one
//! `JSON.stringify` and the reply parsed with one `JSON.parse`, both native and faster than
//! walking the objects from WebAssembly (`benches/js/handle-bench.mjs`).

use std::borrow::Cow;

use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::convert::{
    arg, bytes_of, get, json_arg, json_value, options_except, record, string, to_js, Arg,
};
use super::pack_error;
use crate::catalog::Catalog;
use crate::host::ErrorCode;
use crate::server::{Config, HttpHeaders, Responder, Transport};
use crate::settings::{self, Source};

#[derive(serde::Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct JsServerOptions {
    page_size: Option<f64>,
    ttl_ms: Option<f64>,
    cache_scope: Option<String>,
    instructions: Option<String>,
    fallback: Option<String>,
    /// Read as a value of its own (a nested object, checked field by field).
    #[serde(default, with = "serde_wasm_bindgen::preserve")]
    server_info: JsValue,
}

#[derive(serde::Deserialize)]
struct JsServerInfo {
    name: String,
    version: String,
}

/// Every option of `SkillsServer`, read in one place: the responder's [`Config`] and the bytes
/// of `options.pack`, if any. `pack` is read on its own (its bytes are copied once, never
/// walked as an object); the other options through serde.
fn server_config(options: &JsValue) -> Result<(Config, Option<Vec<u8>>), JsValue> {
    let a = arg("new SkillsServer", "options");
    let o: JsServerOptions = options_except(options, a, &["pack"])?;
    let pack = if options.is_undefined() || options.is_null() {
        None
    } else {
        let value = get(options, "pack", a)?;
        if value.is_undefined() {
            None
        } else {
            let p = a.with("options.pack");
            let bytes = bytes_of(&value, true, p)?.ok_or_else(|| {
                p.wrong(
                    "a Uint8Array or an ArrayBuffer (the bytes of a .pack file)",
                    &value,
                )
            })?;
            Some(bytes)
        }
    };
    // Every value goes through the one settings table (as text, JavaScript numbers in their
    // decimal form), so the ranges and the messages are those of the Worker and the command.
    let server_info = if o.server_info.is_undefined() {
        None
    } else {
        Some(record::<JsServerInfo>(
            &o.server_info,
            a.with("options.serverInfo"),
            &[],
        )?)
    };
    let config = settings::server_config(Source::Option, |s| match s.option {
        "pageSize" => o.page_size.map(|n| n.to_string()),
        "ttlMs" => o.ttl_ms.map(|n| n.to_string()),
        "cacheScope" => o.cache_scope.clone(),
        "instructions" => o.instructions.clone(),
        "fallback" => o.fallback.clone(),
        "serverInfo.name" => server_info.as_ref().map(|i| i.name.clone()),
        "serverInfo.version" => server_info.as_ref().map(|i| i.version.clone()),
        _ => None,
    })
    .map_err(|e| super::fail(ErrorCode::InvalidArgument, format!("new SkillsServer: {e}")))?;
    Ok((config, pack))
}

/// The MCP request headers `handleHttp` reads, by their lowercase names.
const MCP_HEADERS: [&str; 3] = ["mcp-protocol-version", "mcp-method", "mcp-name"];

/// Reads the MCP headers from a `Headers` object (anything with a `get` method) or a plain
/// record keyed by lowercase names; absent, `null` and `undefined` values are `None`.
fn mcp_headers(headers: &JsValue, a: Arg) -> Result<[Option<String>; 3], JsValue> {
    if headers.is_undefined() || headers.is_null() {
        return Ok([None, None, None]);
    }
    if !headers.is_object() {
        return Err(a.wrong(
            "a Headers object or a record of lowercase header names",
            headers,
        ));
    }
    let getter = get(headers, "get", a)?.dyn_into::<js_sys::Function>().ok();
    let mut out = [None, None, None];
    for (slot, name) in out.iter_mut().zip(MCP_HEADERS) {
        let v = match &getter {
            Some(f) => f.call1(headers, &JsValue::from_str(name)).map_err(|_| {
                a.error(
                    ErrorCode::InvalidArgument,
                    format_args!("threw from get({name:?})"),
                )
            })?,
            None => get(headers, name, a)?,
        };
        if v.is_undefined() || v.is_null() {
            continue;
        }
        *slot = Some(v.as_string().ok_or_else(|| {
            a.error(
                ErrorCode::InvalidArgument,
                format_args!(
                    "{name} must be a string, got {}",
                    super::convert::type_name(&v)
                ),
            )
        })?);
    }
    Ok(out)
}

/// `HttpReply`.
#[derive(Serialize)]
struct HttpReplyJs<'a> {
    status: u16,
    #[serde(skip_serializing_if = "Option::is_none")]
    body: Option<Cow<'a, str>>,
}

/// Serves a skills catalog in-page: JSON-RPC messages in, responses out, on both protocol
/// eras (2026-07-28 `server/discover` with `_meta`, 2025-11-25 `initialize`). The catalog is a
/// pack (`options.pack`) or, by default, the one embedded in this package.
#[wasm_bindgen]
pub struct SkillsServer {
    responder: Responder,
}

#[wasm_bindgen]
impl SkillsServer {
    /// A server over `options.pack`, or over the embedded catalog. Throws `invalid-argument`
    /// for an unknown option or a value out of range, `pack-invalid` for a pack that is
    /// truncated, corrupted or of another format version.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "SkillsServerOptions")] options: Option<
            JsValue,
        >,
    ) -> Result<SkillsServer, JsValue> {
        let (config, pack) = server_config(&options.unwrap_or(JsValue::UNDEFINED))?;
        let catalog = match pack {
            Some(bytes) => {
                std::sync::Arc::new(Catalog::from_bytes(bytes).map_err(|e| pack_error(&e))?)
            }
            None => crate::embedded::catalog().map_err(|e| pack_error(&e))?,
        };
        let responder = Responder::new(catalog, config).map_err(|e| {
            arg("new SkillsServer", "options").error(ErrorCode::InvalidArgument, e.0)
        })?;
        Ok(SkillsServer { responder })
    }

    /// Answers one JSON-RPC message (a string, or an object that is serialised with
    /// `JSON.stringify`): the response object, or `undefined` for a notification.
    #[wasm_bindgen(unchecked_return_type = "JsonRpcResponse | undefined")]
    pub fn handle(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | JsonRpcMessage")] message: JsValue,
    ) -> Result<JsValue, JsValue> {
        let text = json_arg(
            &message,
            arg("SkillsServer.handle", "message"),
            ErrorCode::InvalidArgument,
            "a string or a JSON-RPC message object",
            true,
        )?;
        let reply = self.responder.respond(text.as_bytes(), &Transport::Stream);
        match reply.body {
            Some(body) => json_value(&String::from_utf8_lossy(&body)),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// `handle` on JSON text: the response as JSON text, or `undefined` for a notification.
    #[wasm_bindgen(js_name = handleText)]
    pub fn handle_text(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] message: JsValue,
    ) -> Result<Option<String>, JsValue> {
        let text = string(&message, arg("SkillsServer.handleText", "message"))?;
        let reply = self.responder.respond(text.as_bytes(), &Transport::Stream);
        Ok(reply.body.map(|b| {
            String::from_utf8(b)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
        }))
    }

    /// Answers one message received as a Streamable HTTP POST body, with the request's MCP
    /// headers: `MCP-Protocol-Version` is checked against the body's `_meta`, `Mcp-Method` and
    /// `Mcp-Name` against the body (`-32020`), a 2026-07-28 header without `_meta` is refused,
    /// and the reply carries the HTTP status the transport rules give it (202 and no body for
    /// a notification, 400 for envelope errors, 404 for an unknown method, 200 otherwise).
    /// `headers` is the platform's `Headers` or a record keyed by lowercase names. The
    /// transport-level rules (method, `Accept`, `Content-Type`, `Origin`, body size) stay
    /// with the caller's HTTP layer.
    #[wasm_bindgen(js_name = handleHttp, unchecked_return_type = "HttpReply")]
    pub fn handle_http(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] message: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "HeaderGetter | McpHeaders")]
        headers: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let a = arg("SkillsServer.handleHttp", "message");
        let message = string(&message, a)?;
        let [protocol_version, method, name] =
            mcp_headers(&headers.unwrap_or(JsValue::UNDEFINED), a.with("headers"))?;
        let transport = Transport::Http(HttpHeaders {
            protocol_version: protocol_version.as_deref(),
            method: method.as_deref(),
            name: name.as_deref(),
        });
        let reply = self.responder.respond(message.as_bytes(), &transport);
        to_js(&HttpReplyJs {
            status: reply.status,
            body: reply.body.as_deref().map(String::from_utf8_lossy),
        })
    }
}
