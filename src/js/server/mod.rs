//! `SkillsServer`: the in-page server over a pack or the embedded catalog.
//!
//! Messages stay JSON text end to end: an object message is serialised with one
//! `JSON.stringify` and the reply parsed with one `JSON.parse`, both native and faster than
//! walking the objects from WebAssembly (`benches/js/handle-bench.mjs`).

use std::borrow::Cow;
use std::rc::Rc;

use js_sys::{Array, Function, Object, Promise, Reflect, Uint8Array};
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{future_to_promise, JsFuture};

use super::convert::{
    arg, array_items, bytes_of, get, is_array, js_bytes, json_arg, json_value, options_except,
    record, string, to_js, type_name, Arg,
};
use super::pack_error;
use crate::access::is_scope_token;
use crate::access::Grant;
use crate::host::ErrorCode;
use crate::http::{Endpoint, Head, HttpConfig, Response, Step};
use crate::server::{ConfigError, HttpHeaders, Responder, Served, SettingKey, Transport};
use crate::settings::{self, Source};
use crate::view::Catalog;

mod fetch;
mod options;

use fetch::*;
use options::*;

/// The files of the skills inspector page, `[path, content type]`, as the Worker serves them
/// below `/inspector/` and finds them in the npm package (`inspector/`, `lib/`, `web/`): the
/// one list (`INSPECTOR_FILES` of the library's `http` module) for the Worker's build and its
/// tests.
#[wasm_bindgen(js_name = inspectorFiles, unchecked_return_type = "Array<[string, string]>")]
pub fn inspector_files() -> Array {
    crate::http::INSPECTOR_FILES
        .iter()
        .map(|(file, content_type)| {
            JsValue::from(Array::of2(
                &JsValue::from_str(file),
                &JsValue::from_str(content_type),
            ))
        })
        .collect()
}

/// The `HttpReply` of a message over the body limit: 413 with the Worker's JSON-RPC error.
fn too_large(endpoint: &Endpoint) -> Result<JsValue, JsValue> {
    let r = endpoint.body_too_large(&Head::default());
    to_js(&HttpReplyJs {
        status: r.status,
        body: Some(String::from_utf8_lossy(&r.body)),
    })
}

/// `HttpReply`.
#[derive(Serialize)]
struct HttpReplyJs<'a> {
    status: u16,
    #[serde(skip_serializing_if = "Option::is_none")]
    body: Option<Cow<'a, str>>,
}

/// `CatalogInfo`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CatalogInfoJs {
    has_assets: bool,
    has_private_skills: bool,
    page_size: usize,
    ttl_ms: f64,
    cache_scope: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    signer_key_id: Option<String>,
}

/// The key id (`kid`) of the key that signed `catalog`'s skills, from the mirror's `keys.json`
/// the pack holds; `None` when the catalog is not signed.
fn signer_key_id(catalog: &Catalog) -> Option<String> {
    let keys = crate::json::parse(catalog.keys_json()?).ok()?;
    let first = keys.get("keys")?.as_array()?.first()?;
    Some(first.get("kid")?.as_str()?.to_owned())
}

/// Serves a skills catalog in-page: JSON-RPC messages in, responses out, on both protocol
/// eras (2026-07-28 `server/discover` with `_meta`, 2025-11-25 `initialize`). The catalog is a
/// pack (`options.pack`) or, by default, the one embedded in this package.
#[wasm_bindgen]
pub struct SkillsServer {
    /// Shared with the promises of `fetch`, which outlive the call.
    endpoint: Rc<Endpoint>,
}

impl SkillsServer {
    fn responder(&self) -> &Responder {
        self.endpoint.responder()
    }
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
        let endpoint = Endpoint::new(catalog, config).map_err(config_error)?;
        Ok(SkillsServer {
            endpoint: Rc::new(endpoint),
        })
    }

    /// Answers one JSON-RPC message (a string, or an object that is serialised with
    /// `JSON.stringify`): the response object, or `undefined` for a notification.
    ///
    /// `options.scopes` (an array of strings or a space-separated string) are the caller's
    /// scopes, as your host verified them: the caller sees the public skills and the private
    /// ones whose access rules name one of them. Without it the caller is anonymous.
    #[wasm_bindgen(unchecked_return_type = "JsonRpcResponse | undefined")]
    pub fn handle(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | JsonRpcMessage")] message: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let a = arg("SkillsServer.handle", "message");
        let text = json_arg(
            &message,
            a,
            ErrorCode::InvalidArgument,
            "a string or a JSON-RPC message object",
            true,
        )?;
        let grant = call_grant(self.responder().catalog(), options, a.with("options"))?;
        let reply = self
            .responder()
            .respond(text.as_bytes(), &Transport::Stream, grant);
        match reply.body {
            Some(body) => json_value(&String::from_utf8_lossy(&body)),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// `handle` on JSON text: the response as JSON text, or `undefined` for a notification.
    /// `options` as `handle`'s.
    #[wasm_bindgen(js_name = handleText)]
    pub fn handle_text(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] message: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: Option<JsValue>,
    ) -> Result<Option<String>, JsValue> {
        let a = arg("SkillsServer.handleText", "message");
        let text = string(&message, a)?;
        let grant = call_grant(self.responder().catalog(), options, a.with("options"))?;
        let reply = self
            .responder()
            .respond(text.as_bytes(), &Transport::Stream, grant);
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
    /// A message of more UTF-8 bytes than the `maxBodyBytes` option (1 MiB by default, the
    /// Worker's `MAX_BODY_BYTES`) is answered 413 before anything else is read of it (a string
    /// of more UTF-16 units than that is refused without being copied).
    /// `headers` is the platform's `Headers` or a record keyed by lowercase names. The
    /// transport-level rules (`Host`, `Origin`, CORS, method, `Accept`, `Content-Type`, reading
    /// no more of a body than the limit) are [`SkillsServer::fetch`]'s; this is the message
    /// step for a caller whose own HTTP layer applies them. `options` as `handle`'s: a caller
    /// your HTTP layer authenticated passes its scopes here.
    #[wasm_bindgen(js_name = handleHttp, unchecked_return_type = "HttpReply")]
    pub fn handle_http(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] message: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "HeaderGetter | McpHeaders")]
        headers: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let a = arg("SkillsServer.handleHttp", "message");
        // UTF-8 takes at least one byte per UTF-16 unit: a longer string is over the limit.
        let limit = self.endpoint.max_body_bytes();
        let units = message.dyn_ref::<js_sys::JsString>().map(|s| s.length());
        if units.is_some_and(|n| n as usize > limit) {
            return too_large(&self.endpoint);
        }
        let message = string(&message, a)?;
        if message.len() > limit {
            return too_large(&self.endpoint);
        }
        let [protocol_version, method, name] = header_values(
            &headers.unwrap_or(JsValue::UNDEFINED),
            MCP_HEADERS,
            a.with("headers"),
        )?;
        let transport = Transport::Http(HttpHeaders {
            protocol_version: protocol_version.as_deref(),
            method: method.as_deref(),
            name: name.as_deref(),
        });
        let grant = call_grant(self.responder().catalog(), options, a.with("options"))?;
        let reply = self
            .responder()
            .respond(message.as_bytes(), &transport, grant);
        to_js(&HttpReplyJs {
            status: reply.status,
            body: reply.body.as_deref().map(String::from_utf8_lossy),
        })
    }
    /// The content of the file at exactly `uri`, as `resources/read` serves it to a caller
    /// with `options.scopes` (as `handle`'s), without a JSON-RPC reply around it: `{ uri,
    /// mimeType, text }` for a text file, `{ uri, mimeType, bytes }` (a copy of the stored
    /// bytes) for any other, `undefined` when the caller sees no file there. A file the caller
    /// may not see is `undefined`, as one that does not exist. The work is the lookup and one
    /// copy of the content: no JSON, no base64, no hashing. A file kept outside the pack as an
    /// asset (a pack made with `--assets`) is `{ uri, mimeType, asset, size, isText }`: the
    /// name of the asset that holds its raw bytes, their length, and whether it is served as
    /// text. Throws `invalid-argument` when `uri` is not a string.
    #[wasm_bindgen(js_name = readFile, unchecked_return_type = "ServedFile | undefined")]
    pub fn read_file(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CallOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let a = arg("SkillsServer.readFile", "uri");
        let uri = string(&uri, a)?;
        let responder = self.responder();
        let grant = call_grant(responder.catalog(), options, a.with("options"))?;
        let Some(file) = responder.visible_file(&uri, grant) else {
            return Ok(JsValue::UNDEFINED);
        };
        let out = Object::new();
        Reflect::set(&out, &"uri".into(), &JsValue::from_str(file.uri))?;
        Reflect::set(&out, &"mimeType".into(), &JsValue::from_str(file.mime))?;
        match Served::of(&file) {
            Served::Text(text) => {
                Reflect::set(&out, &"text".into(), &JsValue::from_str(text))?;
            }
            Served::Bytes(bytes) => {
                Reflect::set(&out, &"bytes".into(), &Uint8Array::from(bytes).into())?;
            }
            Served::Asset { is_text, .. } => {
                let name = crate::pack::raw_asset_name(file.digest);
                Reflect::set(&out, &"asset".into(), &JsValue::from_str(name))?;
                Reflect::set(&out, &"size".into(), &JsValue::from_f64(file.size as f64))?;
                Reflect::set(&out, &"isText".into(), &JsValue::from_bool(is_text))?;
            }
        }
        Ok(out.into())
    }

    /// What an adapter over this server needs to know of its catalog and settings: whether
    /// some files are kept outside the pack as assets (`hasAssets`), whether some skills are
    /// private (`hasPrivateSkills`: answers then depend on the caller's scopes), and the
    /// `pageSize`, `ttlMs` and `cacheScope` it serves with, and the key id of the key that
    /// signed its skills (`signerKeyId`, absent when the catalog is not signed).
    #[wasm_bindgen(js_name = catalogInfo, unchecked_return_type = "CatalogInfo")]
    pub fn catalog_info(&self) -> Result<JsValue, JsValue> {
        let responder = self.responder();
        let config = responder.config();
        to_js(&CatalogInfoJs {
            has_assets: responder.catalog().has_assets(),
            has_private_skills: responder.catalog().has_private(),
            page_size: config.page_size,
            ttl_ms: config.ttl_ms as f64,
            cache_scope: config.cache_scope.as_str(),
            signer_key_id: signer_key_id(responder.catalog()),
        })
    }

    /// Answers a Fetch API `Request` with a `Response`, applying the Streamable HTTP rules
    /// of the Worker (`skills_edge::http`) with this server's options (`allowedOrigins`,
    /// `allowedHosts`, `maxBodyBytes`, `mirror`, from the same settings table): `Origin` and
    /// `Host` (403), the path (404), the CORS preflight (204), the method (405), `Accept`
    /// (406), `Content-Type` (415), the body limit (413, the body read no further), then the
    /// message. Every response carries `Vary: Origin`, and the CORS headers for an allowed
    /// origin. `own`, if given, is called with the text of each message that passed those
    /// rules: an `HttpReply` it returns is sent (with the same headers), `undefined` leaves
    /// the message to this server. The second argument is `own`, or `{ own?, scopes? }`:
    /// `scopes` (an array of strings or a space-separated string) are the caller's scopes as
    /// your host verified them (this server authenticates nobody), and every answer, the
    /// mirror's included, is made for them as the Worker makes it for a token with those
    /// scopes; without them the caller is anonymous. Throws `invalid-argument` when
    /// `request` is not a request or an option is not what it takes; the promise rejects
    /// with what `own` throws.
    #[wasm_bindgen(unchecked_return_type = "Promise<PlatformResponse>")]
    pub fn fetch(
        &self,
        #[wasm_bindgen(unchecked_param_type = "FetchRequest")] request: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "OwnMethods | FetchOptions")]
        options: Option<JsValue>,
    ) -> Result<Promise, JsValue> {
        let a = arg("SkillsServer.fetch", "request");
        let fetched = FetchHead::read(&request, a)?;
        let options = options.unwrap_or(JsValue::UNDEFINED);
        let (own, scopes) = if options.is_function() {
            (options, Vec::new())
        } else if options.is_undefined() || options.is_null() {
            (JsValue::UNDEFINED, Vec::new())
        } else if options.is_object() {
            // `own` is read on its own (a function is no value the options' copy keeps).
            let o: JsCallOptions = record(&options, a.with("options"), &["own"])?;
            let own = get(&options, "own", a.with("options"))?;
            (own, scopes_of(&o.scopes, a.with("options.scopes"))?)
        } else {
            return Err(a.with("options").wrong(
                "a function (your own methods) or an object `{ own?, scopes? }`",
                &options,
            ));
        };
        let own = if own.is_undefined() || own.is_null() {
            None
        } else {
            Some(
                own.dyn_into::<Function>()
                    .map_err(|f| a.with("own").wrong("a function", &f))?,
            )
        };
        let endpoint = Rc::clone(&self.endpoint);
        let grant = endpoint.responder().catalog().grant(&scopes);
        let limit = match endpoint.head(&fetched.head(), grant) {
            Step::Respond(r) => return Ok(Promise::resolve(&platform_response(r)?)),
            // No static files here: the inspector page is the Worker's.
            Step::Page { missing, .. } => {
                return Ok(Promise::resolve(&platform_response(missing)?))
            }
            Step::ReadBody { limit } => limit,
        };
        let a = a.with("own");
        Ok(future_to_promise(async move {
            let head = fetched.head();
            let response = match read_body(request, limit).await {
                FetchBody::TooLarge => endpoint.body_too_large(&head),
                FetchBody::Unreadable => endpoint.body_unreadable(&head),
                FetchBody::Complete(body) => {
                    let mine = match &own {
                        Some(f) => own_reply(f, &body, a)?,
                        None => None,
                    };
                    match mine {
                        Some(r) => endpoint.framed(&head, r),
                        None => endpoint.body(&head, &body, grant),
                    }
                }
            };
            platform_response(response)
        }))
    }
}
