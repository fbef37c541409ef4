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
use crate::catalog::access::is_scope_token;
use crate::catalog::{Catalog, Grant};
use crate::host::ErrorCode;
use crate::http::{Endpoint, Head, HttpConfig, Response, Step};
use crate::server::{ConfigError, HttpHeaders, Responder, Served, SettingKey, Transport};
use crate::settings::{self, Source};

#[derive(serde::Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct JsServerOptions {
    page_size: Option<f64>,
    ttl_ms: Option<f64>,
    cache_scope: Option<String>,
    instructions: Option<String>,
    fallback: Option<String>,
    allowed_origins: Option<String>,
    allowed_hosts: Option<String>,
    max_body_bytes: Option<f64>,
    mirror: Option<String>,
    /// The authentication settings: read so that anything but `authMode: "none"` is refused
    /// naming the Worker, the only adapter that authenticates callers.
    auth_mode: Option<String>,
    auth_issuer: Option<String>,
    auth_audience: Option<String>,
    auth_jwks_url: Option<String>,
    auth_scopes_claim: Option<String>,
    /// Read as a value of its own (a nested object, checked field by field).
    #[serde(default, with = "serde_wasm_bindgen::preserve")]
    server_info: JsValue,
}

#[derive(serde::Deserialize)]
struct JsServerInfo {
    name: String,
    version: String,
}

/// Every option of `SkillsServer`, read in one place: the endpoint's [`HttpConfig`] (the
/// responder's settings and the HTTP rules of `fetch`) and the bytes of `options.pack`, if any. `pack` is read on its own (its bytes are copied once, never
/// walked as an object); the other options through serde.
fn server_config(options: &JsValue) -> Result<(HttpConfig, Option<Vec<u8>>), JsValue> {
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
    // The inspector page is the Worker's (this server has no static files): `inspector` is
    // not an option, and stays off.
    let config = settings::http_config(Source::Option, |s| match s.key {
        SettingKey::PageSize => o.page_size.map(|n| n.to_string()),
        SettingKey::TtlMs => o.ttl_ms.map(|n| n.to_string()),
        SettingKey::CacheScope => o.cache_scope.clone(),
        SettingKey::Instructions => o.instructions.clone(),
        SettingKey::Fallback => o.fallback.clone(),
        SettingKey::ServerName => server_info.as_ref().map(|i| i.name.clone()),
        SettingKey::ServerVersion => server_info.as_ref().map(|i| i.version.clone()),
        SettingKey::AllowedOrigins => o.allowed_origins.clone(),
        SettingKey::AllowedHosts => o.allowed_hosts.clone(),
        SettingKey::MaxBodyBytes => o.max_body_bytes.map(|n| n.to_string()),
        SettingKey::Mirror => o.mirror.clone(),
        SettingKey::Inspector => None,
        SettingKey::AuthMode => o.auth_mode.clone(),
        SettingKey::AuthIssuer => o.auth_issuer.clone(),
        SettingKey::AuthAudience => o.auth_audience.clone(),
        SettingKey::AuthJwksUrl => o.auth_jwks_url.clone(),
        SettingKey::AuthScopesClaim => o.auth_scopes_claim.clone(),
        // Not an option (`Setting::option` is empty): each request's scopes are given with
        // it (`SkillsServer::fetch`, `handleHttp`, …).
        SettingKey::Scopes => None,
    })
    .map_err(config_error)?;
    Ok((config, pack))
}

/// A configuration error as `new SkillsServer` throws it (`invalid-argument`), the setting
/// named as an option: the one mapping of [`ConfigError`] to this adapter's form.
fn config_error(e: ConfigError) -> JsValue {
    let e = settings::named_for(Source::Option, e);
    super::fail(ErrorCode::InvalidArgument, format!("new SkillsServer: {e}"))
}

/// The options of one call of `handle`, `handleText`, `handleHttp` or `fetch` (whose `own`
/// is read on its own): who the caller is.
#[derive(serde::Deserialize, Default)]
struct JsCallOptions {
    #[serde(default, with = "serde_wasm_bindgen::preserve")]
    scopes: JsValue,
}

/// What `options.scopes` accepts, as its errors say.
const SCOPES_EXPECTED: &str = "an array of OAuth scope strings (`[\"billing\"]`) or a space-separated string (`\"billing review\"`): the scopes your host verified for this caller";

/// The scopes of `options.scopes`: an array of strings or a space-separated string (a token's
/// `scope` claim), `undefined` or `null` for none. Each must be an OAuth scope token (RFC 6749
/// §3.3), so a list joined into one item (`["billing review"]`) is refused rather than
/// matching nothing. The scopes are taken as verified: this server does not authenticate.
fn scopes_of(value: &JsValue, a: Arg) -> Result<Vec<String>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(Vec::new());
    }
    let scopes: Vec<String> = if let Some(text) = value.as_string() {
        text.split_ascii_whitespace().map(str::to_owned).collect()
    } else if is_array(value) {
        let mut out = Vec::new();
        for (i, item) in array_items(value, a, SCOPES_EXPECTED)?.iter().enumerate() {
            let text = item.as_string().ok_or_else(|| {
                a.at(
                    i,
                    format_args!("must be a string (one scope), got {}", type_name(item)),
                )
            })?;
            out.push(text);
        }
        out
    } else {
        return Err(a.wrong(SCOPES_EXPECTED, value));
    };
    if let Some(bad) = scopes.iter().find(|s| !is_scope_token(s)) {
        return Err(a.error(
            ErrorCode::InvalidArgument,
            format_args!(
                "holds {:?}, which is not an OAuth scope token (RFC 6749 §3.3: printable ASCII without space, `\"` or `\\`): give each scope as an item of its own",
                crate::protocol::error::clip(bad)
            ),
        ));
    }
    Ok(scopes)
}

/// The grant of a caller of `handle`, `handleText` or `handleHttp` from the call's `options`
/// (`{ scopes }`; absent: an anonymous caller).
fn call_grant(catalog: &Catalog, options: Option<JsValue>, a: Arg) -> Result<Grant, JsValue> {
    let options = options.unwrap_or(JsValue::UNDEFINED);
    let o: JsCallOptions = options_except(&options, a, &[])?;
    let scopes = scopes_of(&o.scopes, a.with("options.scopes"))?;
    Ok(catalog.grant(&scopes))
}

/// The MCP request headers `handleHttp` reads, by their lowercase names.
const MCP_HEADERS: [&str; 3] = ["mcp-protocol-version", "mcp-method", "mcp-name"];

/// Reads the headers `names` from a `Headers` object (anything with a `get` method) or a
/// plain record keyed by lowercase names; absent, `null` and `undefined` values are `None`.
fn header_values<const N: usize>(
    headers: &JsValue,
    names: [&str; N],
    a: Arg,
) -> Result<[Option<String>; N], JsValue> {
    let mut out = [const { None }; N];
    if headers.is_undefined() || headers.is_null() {
        return Ok(out);
    }
    if !headers.is_object() {
        return Err(a.wrong(
            "a Headers object or a record of lowercase header names",
            headers,
        ));
    }
    let getter = get(headers, "get", a)?.dyn_into::<Function>().ok();
    for (slot, name) in out.iter_mut().zip(names) {
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

/// The head of a Fetch API `Request`, read once (its method, URL and the headers the HTTP
/// rules read, [`Head::HEADERS`]), kept while the body is read.
struct FetchHead {
    method: String,
    url: String,
    headers: [Option<String>; Head::HEADERS.len()],
}

impl FetchHead {
    fn read(request: &JsValue, a: Arg) -> Result<FetchHead, JsValue> {
        let expected = "a Request (the Fetch API's, with method, url and headers)";
        if !request.is_object() {
            return Err(a.wrong(expected, request));
        }
        let text = |key: &str| -> Result<String, JsValue> {
            get(request, key, a)?
                .as_string()
                .ok_or_else(|| a.wrong(expected, request))
        };
        let method = text("method")?;
        let url = text("url")?;
        let headers = get(request, "headers", a)?;
        if !headers.is_object() {
            return Err(a.wrong(expected, request));
        }
        let headers = header_values(&headers, Head::HEADERS, a.with("request.headers"))?;
        Ok(FetchHead {
            method,
            url,
            headers,
        })
    }

    fn head(&self) -> Head<'_> {
        Head::from_url(
            &self.method,
            &self.url,
            self.headers.each_ref().map(Option::as_deref),
        )
    }
}

/// What reading a request body gave.
enum FetchBody {
    /// All of it, within the limit.
    Complete(Vec<u8>),
    /// Longer than the limit: reading stopped there and the stream was cancelled.
    TooLarge,
    /// The platform could not deliver it (the client went away, the body was used already).
    Unreadable,
}

/// Reads `request.body` (a `ReadableStream` of bytes, or `null` for no body), keeping at most
/// `limit` bytes.
async fn read_body(request: JsValue, limit: usize) -> FetchBody {
    let Ok(stream) = Reflect::get(&request, &JsValue::from_str("body")) else {
        return FetchBody::Unreadable;
    };
    if stream.is_null() || stream.is_undefined() {
        return FetchBody::Complete(Vec::new());
    }
    let reader = Reflect::get(&stream, &JsValue::from_str("getReader"))
        .and_then(|f| f.dyn_into::<Function>())
        .and_then(|f| f.call0(&stream));
    let Ok(reader) = reader else {
        return FetchBody::Unreadable;
    };
    let method = |name: &str| {
        Reflect::get(&reader, &JsValue::from_str(name))
            .ok()
            .and_then(|f| f.dyn_into::<Function>().ok())
    };
    let (Some(read), Some(cancel)) = (method("read"), method("cancel")) else {
        return FetchBody::Unreadable;
    };
    let mut body = Vec::new();
    loop {
        let chunk = match read
            .call0(&reader)
            .map(|p| JsFuture::from(Promise::from(p)))
        {
            Ok(next) => next.await,
            Err(e) => Err(e),
        };
        let Ok(chunk) = chunk else {
            return FetchBody::Unreadable;
        };
        let done = Reflect::get(&chunk, &JsValue::from_str("done")).unwrap_or(JsValue::TRUE);
        if done.is_truthy() {
            return FetchBody::Complete(body);
        }
        let value = Reflect::get(&chunk, &JsValue::from_str("value")).unwrap_or_default();
        // Read as every byte argument is (`convert::js_bytes`: the built-in length, a copy
        // that cannot trap), so a chunk whose `length` is shadowed or changes is refused.
        let Ok(Some(bytes)) = js_bytes(&value, false, arg("SkillsServer.fetch", "request")) else {
            let _ = cancel.call0(&reader);
            return FetchBody::Unreadable;
        };
        if body.len().saturating_add(bytes.len()) > limit {
            // Nothing more is read; the platform closes the stream.
            let _ = cancel.call0(&reader);
            return FetchBody::TooLarge;
        }
        match bytes.to_vec() {
            Ok(chunk) => body.extend_from_slice(&chunk),
            Err(_) => {
                let _ = cancel.call0(&reader);
                return FetchBody::Unreadable;
            }
        }
    }
}

/// The platform's `Response` for `r` (status, headers, body; no body when it is empty). A
/// response whose middle is an asset gets its fault answer: this server has no assets.
fn platform_response(r: Response) -> Result<JsValue, JsValue> {
    let r = match r.splice {
        Some(splice) => splice.fault,
        None => r,
    };
    let headers = Array::new();
    for (name, value) in &r.headers {
        headers.push(&Array::of2(
            &JsValue::from_str(name),
            &JsValue::from_str(value),
        ));
    }
    let init = Object::new();
    Reflect::set(&init, &"status".into(), &r.status.into())?;
    Reflect::set(&init, &"headers".into(), &headers)?;
    let body: JsValue = if r.body.is_empty() {
        JsValue::NULL
    } else {
        Uint8Array::from(r.body.as_slice()).into()
    };
    let ctor = Reflect::get(&js_sys::global(), &"Response".into())?.dyn_into::<Function>()?;
    Reflect::construct(&ctor, &Array::of2(&body, &init))
}

/// The caller's own answer to a message, from `own(text)`: `undefined` (or `null`) leaves the
/// message to this server; an `HttpReply` (`status`, and `body`, JSON text, unless it is 202)
/// is sent with the headers every response carries.
fn own_reply(own: &Function, body: &[u8], a: Arg) -> Result<Option<Response>, JsValue> {
    let text = String::from_utf8_lossy(body);
    let reply = own.call1(&JsValue::NULL, &JsValue::from_str(&text))?;
    if reply.is_undefined() || reply.is_null() {
        return Ok(None);
    }
    let expected = "an HttpReply ({ status, body? }) or undefined";
    let status = get(&reply, "status", a)?
        .as_f64()
        .filter(|n| n.fract() == 0.0 && (200.0..=599.0).contains(n))
        .ok_or_else(|| a.wrong(expected, &reply))? as u16;
    let body = get(&reply, "body", a)?;
    let mut r = Response {
        status,
        headers: Vec::new(),
        body: Vec::new(),
        splice: None,
    };
    if !body.is_undefined() {
        let text = body.as_string().ok_or_else(|| a.wrong(expected, &reply))?;
        r.headers
            .push(("content-type", "application/json".to_owned()));
        r.body = text.into_bytes();
    }
    Ok(Some(r))
}

/// The files of the skills inspector page, `[path, content type]`, as the Worker serves them
/// below `/inspector/` and finds them in the npm package (`inspector/`, `lib/`, `web/`): the
/// one list ([`crate::http::INSPECTOR_FILES`]) for the Worker's build and its tests.
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
                let name = crate::catalog::pack::raw_asset_name(file.digest);
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
    /// `pageSize`, `ttlMs` and `cacheScope` it serves with.
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
