//! `SkillsServer`: the in-page server over a pack or the embedded catalog.

use js_sys::{Array, Object, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::convert::{get, json_text, json_value, object, parse_options, set};
use super::{fail, pack_error};
use crate::catalog::Catalog;
use crate::host::ErrorCode;
use crate::server::{CacheScope, Config, HttpHeaders, Responder, Transport};

#[derive(serde::Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct JsServerOptions {
    page_size: Option<f64>,
    ttl_ms: Option<f64>,
    cache_scope: Option<String>,
    instructions: Option<String>,
    server_info: Option<JsServerInfo>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct JsServerInfo {
    name: String,
    version: String,
}

/// The MCP request headers `handleHttp` reads, by their lowercase names.
pub(super) const MCP_HEADERS: [&str; 3] = ["mcp-protocol-version", "mcp-method", "mcp-name"];

/// Reads the MCP headers from a `Headers` object (anything with a `get` method) or a plain
/// record keyed by lowercase names; absent, `null` and `undefined` values are `None`.
pub(super) fn mcp_headers(headers: &JsValue) -> Result<[Option<String>; 3], JsValue> {
    if headers.is_undefined() || headers.is_null() {
        return Ok([None, None, None]);
    }
    if !headers.is_object() {
        return Err(fail(
            ErrorCode::InvalidArgument,
            "headers must be a Headers object or a record of lowercase header names",
        ));
    }
    let getter = get(headers, "get").dyn_into::<js_sys::Function>().ok();
    let mut out = [None, None, None];
    for (slot, name) in out.iter_mut().zip(MCP_HEADERS) {
        let key = JsValue::from_str(name);
        let v = match &getter {
            Some(f) => f.call1(headers, &key)?,
            None => Reflect::get(headers, &key).unwrap_or(JsValue::UNDEFINED),
        };
        if v.is_undefined() || v.is_null() {
            continue;
        }
        *slot = Some(v.as_string().ok_or_else(|| {
            fail(
                ErrorCode::InvalidArgument,
                format!("the {name} header must be a string"),
            )
        })?);
    }
    Ok(out)
}

/// Splits `pack` off a `SkillsServer` options object: its bytes, and the other options (so a
/// large pack is never serialised to JSON).
pub(super) fn take_pack(o: JsValue) -> Result<(Option<Vec<u8>>, Option<JsValue>), JsValue> {
    let key = JsValue::from_str("pack");
    let value = Reflect::get(&o, &key).unwrap_or(JsValue::UNDEFINED);
    if value.is_undefined() {
        return Ok((None, Some(o)));
    }
    let bytes = if let Some(b) = value.dyn_ref::<Uint8Array>() {
        b.to_vec()
    } else if let Some(b) = value.dyn_ref::<js_sys::ArrayBuffer>() {
        Uint8Array::new(b).to_vec()
    } else {
        return Err(fail(
            ErrorCode::InvalidArgument,
            "pack must be a Uint8Array or an ArrayBuffer (the bytes of a .pack file)",
        ));
    };
    let rest = Object::assign(&Object::new(), o.unchecked_ref());
    let _ = Reflect::delete_property(&rest, &key);
    Ok((Some(bytes), Some(rest.into())))
}

/// Every option of `SkillsServer`, read in one place: the responder's [`Config`] and the bytes
/// of `options.pack`, if any.
fn server_config(options: Option<JsValue>) -> Result<(Config, Option<Vec<u8>>), JsValue> {
    let (pack, options) = match options {
        Some(o) if o.is_object() && !Array::is_array(&o) => take_pack(o)?,
        other => (None, other),
    };
    let o: JsServerOptions = parse_options(&options, "SkillsServer options")?;
    let bad = |m: String| fail(ErrorCode::InvalidArgument, m);
    let int = |v: f64, what: &str| -> Result<u64, JsValue> {
        if v.fract() == 0.0 && (0.0..=9_007_199_254_740_991.0).contains(&v) {
            Ok(v as u64)
        } else {
            Err(bad(format!(
                "{what} must be a non-negative integer, got {v}"
            )))
        }
    };
    let mut config = Config::default();
    if let Some(p) = o.page_size {
        config.page_size = usize::try_from(int(p, "pageSize")?).unwrap_or(usize::MAX);
    }
    if let Some(t) = o.ttl_ms {
        config.ttl_ms = int(t, "ttlMs")?;
    }
    if let Some(s) = o.cache_scope {
        config.cache_scope = CacheScope::parse(&s).ok_or_else(|| {
            bad(format!(
                "cacheScope must be \"public\" or \"private\", got {s:?}"
            ))
        })?;
    }
    config.instructions = o.instructions;
    config.server_info = o.server_info.map(|i| (i.name, i.version));
    Ok((config, pack))
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
        let (config, pack) = server_config(options)?;
        let catalog = match pack {
            Some(bytes) => {
                std::sync::Arc::new(Catalog::from_bytes(bytes).map_err(|e| pack_error(&e))?)
            }
            None => crate::embedded::catalog().map_err(|e| pack_error(&e))?,
        };
        let responder =
            Responder::new(catalog, config).map_err(|e| fail(ErrorCode::InvalidArgument, e.0))?;
        Ok(SkillsServer { responder })
    }

    /// Answers one JSON-RPC message (a string, or an object that is serialised with
    /// `JSON.stringify`): the response object, or `undefined` for a notification.
    #[wasm_bindgen(unchecked_return_type = "JsonRpcResponse | undefined")]
    pub fn handle(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | JsonRpcMessage")] message: JsValue,
    ) -> Result<JsValue, JsValue> {
        let text = match message.as_string() {
            Some(s) => s,
            None => json_text(&message).ok_or_else(|| {
                fail(
                    ErrorCode::InvalidArgument,
                    "the message cannot be serialised as JSON",
                )
            })?,
        };
        match self.handle_text(&text) {
            Some(body) => json_value(&body),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// `handle` on JSON text: the response as JSON text, or `undefined` for a notification.
    #[wasm_bindgen(js_name = handleText)]
    pub fn handle_text(&self, message: &str) -> Option<String> {
        let reply = self
            .responder
            .respond(message.as_bytes(), &Transport::Stream);
        reply.body.map(|b| String::from_utf8_lossy(&b).into_owned())
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
        message: &str,
        #[wasm_bindgen(unchecked_optional_param_type = "HeaderGetter | McpHeaders")]
        headers: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let [protocol_version, method, name] = mcp_headers(&headers.unwrap_or(JsValue::UNDEFINED))?;
        let transport = Transport::Http(HttpHeaders {
            protocol_version: protocol_version.as_deref(),
            method: method.as_deref(),
            name: name.as_deref(),
        });
        let reply = self.responder.respond(message.as_bytes(), &transport);
        let out = object();
        set(&out, "status", &JsValue::from_f64(f64::from(reply.status)));
        if let Some(b) = reply.body {
            set(
                &out,
                "body",
                &JsValue::from_str(&String::from_utf8_lossy(&b)),
            );
        }
        Ok(out)
    }
}
