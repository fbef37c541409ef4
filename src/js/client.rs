//! `SkillsClientCore`: the skills client ([`crate::client`]) for the package's
//! `SkillsClient`, plus the `verify` command's run (its arguments: [`super::command`]).
//!
//! The core never does I/O. Every operation takes an `io` object from the JavaScript layer,
//! made per call (so it carries that call's `AbortSignal` and timeout):
//!
//! * over Streamable HTTP, `io.post(body, headers)` POSTs the body with the given headers (and
//!   the caller's own) and resolves to `{ status, contentType, sessionId, wwwAuthenticate,
//!   read }`, where `read()` resolves to the next `Uint8Array` of the body or `undefined` at its
//!   end; the io object's `url` (the endpoint) and `authorized` (whether the caller's headers
//!   carry `Authorization`) let a 401 be explained ([`crate::client::challenge`]);
//! * over an official SDK `Client`, `io.request(method, params)` resolves to the result object;
//! * either way, an optional `io.digest(bytes)` resolves to the SHA-256 of `bytes` in wire form
//!   from the platform (node:crypto, crypto.subtle), for fetched content of at least
//!   `io.digestThreshold` bytes that the verifier would otherwise hash in WebAssembly; the
//!   verifier still checks everything else and makes every decision, and any other outcome of
//!   the call (absent, thrown, rejected, not a wire digest) leaves the hashing to it.
//!
//! A rejection of either is read as a transport failure: its `code` (`connection-failed`,
//! `http-status`, `protocol-error`, `server-error`, `timeout`, `aborted`; anything else is
//! `connection-failed`), `message` and `actual`. Every promise the core returns rejects with a
//! `SkillsEdgeError`; arguments are checked before any promise is made.

use crate::host::SkillHost;
use std::cell::Cell;
use std::future::Future;
use std::rc::Rc;

use js_sys::{Array, Function, Promise, Reflect};
use serde::Serialize;
use serde_json::Value as Json;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{future_to_promise, JsFuture};

use super::command::verify_args;
use super::convert::{
    arg, bytes_of, content_fields, json_arg, json_array, json_array_text, json_text, json_value,
    option_record, options, options_with_host, skill_md_fields, string, to_js, Arg, JsonObject,
};
use super::host::{signer_json, summary_fields, summary_json, SignerOptionsJs, SIGNER_FIELDS};
use super::{js_error, throw};
use crate::client::http::{HttpIo, HttpRequest, HttpResponse, HttpSession, ResponseBody};
use crate::client::{
    bearer_header, check_headers, context_of, server_label_of_url, ClientInfo, EraChoice,
    ListedSkill, Rpc, ServerFacts, SkillsClient,
};
use crate::client::{ClientCode, ClientError, ExchangeKind, Result as ClientResult};
use crate::command::report::{self, Report};
use crate::command::verify::{after_mcp, output, signers_of, SignerFiles};
use crate::command::wellknown::run_well_known;
use crate::host::{ErrorCode, VerifyError};
use crate::protocol::{Era, LEGACY_VERSIONS, MODERN_VERSION};
use crate::skill::digest::is_wire_digest;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Not connected yet.
    None,
    /// Streamable HTTP through `io.post`.
    Http,
    /// An SDK client's `io.request`.
    Sdk,
}

struct Inner {
    client: SkillsClient,
    session: HttpSession,
    mode: Cell<Mode>,
}

/// The transport of one call, as the JavaScript layer made it: the io object, its `url` (the
/// endpoint, where a 401's metadata is looked up) and its `authorized` flag (whether the
/// requests carry an `Authorization` header; the token itself never reaches the core's
/// messages).
struct JsIo(JsValue, Option<String>, bool);

fn failure(value: &JsValue) -> ClientError {
    let text = |k: &str| {
        Reflect::get(value, &JsValue::from_str(k))
            .ok()
            .and_then(|v| v.as_string())
    };
    let kind = text("code")
        .as_deref()
        .and_then(ClientCode::from_name)
        .and_then(|c| match c {
            ClientCode::Exchange(k) => Some(k),
            ClientCode::Verify(_) => None,
        })
        .unwrap_or(ExchangeKind::ConnectionFailed);
    let message = text("message")
        .or_else(|| value.as_string())
        .unwrap_or_else(|| "the transport failed".to_owned());
    let mut e = ClientError::exchange(kind, message);
    if let Some(a) = text("actual") {
        e = e.with_actual(a);
    }
    if let Some(x) = text("expected") {
        e = e.with_expected(x);
    }
    if let Some(u) = text("uri") {
        e = e.with_uri(u);
    }
    e
}

fn broken(what: &str) -> ClientError {
    ClientError::exchange(
        ExchangeKind::ProtocolError,
        format!("the transport gave {what}"),
    )
}

impl JsIo {
    fn function(&self, name: &str) -> ClientResult<Function> {
        Reflect::get(&self.0, &JsValue::from_str(name))
            .ok()
            .and_then(|f| f.dyn_into::<Function>().ok())
            .ok_or_else(|| {
                VerifyError::new(
                    ErrorCode::InvalidArgument,
                    format!("the io object has no {name}() function"),
                )
                .into()
            })
    }

    /// Awaits `promise` (anything thenable, or a plain value).
    async fn settle(value: ClientResult<JsValue>) -> ClientResult<JsValue> {
        let value = value?;
        JsFuture::from(Promise::resolve(&value))
            .await
            .map_err(|e| failure(&e))
    }

    /// `io.digest(bytes)` for content of at least `io.digestThreshold` bytes (0 when absent):
    /// the wire digest it resolves to, or `None` (the verifier then hashes) when the io object
    /// has no such function, the content is smaller, or the call throws, rejects or gives
    /// anything but a wire digest.
    async fn digest(&self, bytes: &[u8]) -> Option<String> {
        let f = self.function("digest").ok()?;
        let threshold = match Reflect::get(&self.0, &JsValue::from_str("digestThreshold")) {
            Ok(v) if v.is_undefined() => 0.0,
            Ok(v) => v.as_f64().filter(|t| *t >= 0.0)?,
            Err(_) => return None,
        };
        if (bytes.len() as f64) < threshold {
            return None;
        }
        let called = f
            .call1(&self.0, &js_sys::Uint8Array::from(bytes))
            .map_err(|e| failure(&e));
        let digest = JsIo::settle(called).await.ok()?.as_string()?;
        is_wire_digest(&digest).then_some(digest)
    }

    async fn request(&self, method: &str, params: Json) -> ClientResult<Json> {
        let f = self.function("request")?;
        let params = json_value(&params.to_string()).map_err(|_| broken("unreadable params"))?;
        let called = f
            .call2(&self.0, &JsValue::from_str(method), &params)
            .map_err(|e| failure(&e));
        let result = JsIo::settle(called).await?;
        let text = json_text(&result).ok_or_else(|| broken("a result that is not JSON"))?;
        serde_json::from_str(&text).map_err(|_| broken("a result that is not JSON"))
    }
}

/// A response body read through `read()`.
struct JsBody {
    read: Option<Function>,
    this: JsValue,
}

impl Drop for JsBody {
    /// Tells the transport the body is no longer needed (`cancel()`, when it has one): an
    /// event stream may stay open after the response was read.
    fn drop(&mut self) {
        if let Some(cancel) = Reflect::get(&self.this, &JsValue::from_str("cancel"))
            .ok()
            .and_then(|f| f.dyn_into::<Function>().ok())
        {
            let _ = cancel.call0(&self.this);
        }
    }
}

impl ResponseBody for JsBody {
    fn next_chunk(&mut self) -> impl Future<Output = ClientResult<Option<Vec<u8>>>> {
        let called = match &self.read {
            Some(f) => Some(f.call0(&self.this).map_err(|e| failure(&e))),
            None => None,
        };
        async move {
            let Some(called) = called else {
                return Ok(None);
            };
            let v = JsIo::settle(called).await?;
            if v.is_undefined() || v.is_null() {
                return Ok(None);
            }
            bytes_of(&v, true, arg("io", "read"))
                .ok()
                .flatten()
                .map(Some)
                .ok_or_else(|| broken("a body chunk that is not a Uint8Array"))
        }
    }
}

impl HttpIo for JsIo {
    type Body = JsBody;

    fn post(
        &self,
        request: HttpRequest,
    ) -> impl Future<Output = ClientResult<HttpResponse<JsBody>>> {
        let called = self.function("post").map(|f| {
            let headers = Array::new();
            for (k, v) in &request.headers {
                let pair = Array::new();
                pair.push(&JsValue::from_str(k));
                pair.push(&JsValue::from_str(v));
                headers.push(&pair);
            }
            f.call2(&self.0, &JsValue::from_str(&request.body), &headers)
                .map_err(|e| failure(&e))
        });
        JsIo::response(called.and_then(|c| c))
    }

    fn get(&self, url: &str) -> impl Future<Output = ClientResult<HttpResponse<JsBody>>> {
        let called = self.function("get").map(|f| {
            f.call1(&self.0, &JsValue::from_str(url))
                .map_err(|e| failure(&e))
        });
        JsIo::response(called.and_then(|c| c))
    }

    fn now_ms(&self) -> f64 {
        js_sys::Date::now()
    }

    fn endpoint(&self) -> Option<&str> {
        self.1.as_deref()
    }

    fn sends_authorization(&self) -> bool {
        self.2
    }
}

impl JsIo {
    /// The response object `io.post` or `io.get` resolved to: `{ status, contentType,
    /// sessionId, read }`.
    async fn response(called: ClientResult<JsValue>) -> ClientResult<HttpResponse<JsBody>> {
        let response = JsIo::settle(called).await?;
        let field = |k: &str| Reflect::get(&response, &JsValue::from_str(k)).ok();
        let status = field("status")
            .and_then(|s| s.as_f64())
            .filter(|s| s.fract() == 0.0 && (0.0..1000.0).contains(s))
            .ok_or_else(|| broken("a response without a numeric status"))?
            as u16;
        Ok(HttpResponse {
            status,
            content_type: field("contentType").and_then(|v| v.as_string()),
            session_id: field("sessionId").and_then(|v| v.as_string()),
            www_authenticate: field("wwwAuthenticate").and_then(|v| v.as_string()),
            body: JsBody {
                read: field("read").and_then(|f| f.dyn_into::<Function>().ok()),
                this: response,
            },
        })
    }
}

/// The [`Rpc`] of one operation: the HTTP session or the SDK client, per the core's mode,
/// over the `io` object of that call. It owns what the operation's promise needs.
struct CallRpc {
    inner: Rc<Inner>,
    io: JsIo,
}

impl CallRpc {
    /// The client the operation runs on.
    fn client(&self) -> &SkillsClient {
        &self.inner.client
    }
}

impl Rpc for CallRpc {
    async fn call(&self, method: &str, params: Json) -> ClientResult<Json> {
        match self.inner.mode.get() {
            Mode::Http => self.inner.session.rpc(&self.io).call(method, params).await,
            Mode::Sdk => self.io.request(method, params).await,
            Mode::None => Err(VerifyError::new(
                ErrorCode::InvalidArgument,
                format!("{method}: the client is not connected; connect or attach first"),
            )
            .into()),
        }
    }

    fn now_ms(&self) -> f64 {
        js_sys::Date::now()
    }

    async fn digest(&self, bytes: &[u8]) -> Option<String> {
        self.io.digest(bytes).await
    }
}

/// The options of the package's `SkillsClient` that configure the client, checked here and only
/// here (`SkillsClient.connect` and `wrap` pass them through as given); the host's own
/// (`allowDynamic`, `requireApproval`) are read beside them by `options_with_host`. `trust`,
/// `trustOnFirstUse` and `pins` are the signer options ([`SignerOptionsJs`]); `origin` the
/// name the server's signer is pinned under (`connect` gives its URL's origin; default: the
/// label).
#[derive(serde::Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct CoreOptions {
    label: Option<String>,
    origin: Option<String>,
    #[serde(default, with = "serde_wasm_bindgen::preserve")]
    trust: JsValue,
    trust_on_first_use: Option<bool>,
    #[serde(default, with = "serde_wasm_bindgen::preserve")]
    pins: JsValue,
    /// Any number, so its range is checked (and named) here; JavaScript numbers are exact
    /// integers up to `Number.MAX_SAFE_INTEGER`.
    listing_budget: Option<f64>,
    client_name: Option<String>,
    client_version: Option<String>,
}

/// `ServerFacts`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct FactsJs<'a> {
    protocol_version: &'a str,
    #[serde(serialize_with = "serde_wasm_bindgen::preserve::serialize")]
    capabilities: JsValue,
    #[serde(
        skip_serializing_if = "JsValue::is_undefined",
        serialize_with = "serde_wasm_bindgen::preserve::serialize"
    )]
    server_info: JsValue,
    #[serde(skip_serializing_if = "Option::is_none")]
    instructions: Option<&'a str>,
    skills: bool,
    directory_read: bool,
}

fn facts_js(f: &ServerFacts) -> Result<JsValue, JsValue> {
    to_js(&FactsJs {
        protocol_version: &f.protocol_version,
        capabilities: json_value(&f.capabilities.to_string())?,
        server_info: match &f.server_info {
            Some(i) => json_value(&i.to_string())?,
            None => JsValue::UNDEFINED,
        },
        instructions: f.instructions.as_deref(),
        skills: f.declares_skills(),
        directory_read: f.directory_read(),
    })
}

/// `ListedSkill`: the registry's `SkillSummary` and the figures of its manifest, as JSON text.
fn listed_json(l: &ListedSkill) -> String {
    let mut o = JsonObject::new();
    summary_fields(&mut o, &l.summary);
    o.num("files", l.files as u64);
    o.num("bytes", l.bytes);
    o.raw("entry", &l.entry.to_json());
    o.text()
}

#[derive(Serialize)]
struct RejectedJs {
    index: usize,
    #[serde(serialize_with = "serde_wasm_bindgen::preserve::serialize")]
    error: JsValue,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ListingJs<'a> {
    #[serde(serialize_with = "serde_wasm_bindgen::preserve::serialize")]
    skills: JsValue,
    rejected: Vec<RejectedJs>,
    ttl_ms: u64,
    cache_scope: &'a str,
    pages: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct FetchedJs<'a> {
    #[serde(serialize_with = "serde_wasm_bindgen::preserve::serialize")]
    skill: JsValue,
    changed: bool,
    approval_revoked: bool,
    ttl_ms: u64,
    cache_scope: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ChildJs<'a> {
    uri: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mime_type: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    size: Option<u64>,
    directory: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    listed: Option<bool>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct DirectoryJs<'a> {
    uri: &'a str,
    resources: Vec<ChildJs<'a>>,
    ttl_ms: u64,
    cache_scope: &'a str,
    pages: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ReportJs<'a> {
    #[serde(serialize_with = "serde_wasm_bindgen::preserve::serialize")]
    skills: JsValue,
    exit_code: u8,
    table: String,
    summary: String,
    #[serde(
        skip_serializing_if = "JsValue::is_undefined",
        serialize_with = "serde_wasm_bindgen::preserve::serialize"
    )]
    error: JsValue,
    #[serde(skip_serializing_if = "Option::is_none")]
    protocol_version: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pins: Option<String>,
}

/// The report of `verify`: `allow_dynamic` (the client's `allowDynamic`, as its `SkillHost`
/// has it) says whether a `dynamic` skill passes (`Report::exit_code`).
fn report_js(r: &Report, url: &str, allow_dynamic: bool) -> Result<JsValue, JsValue> {
    report_with_pins(r, url, None, allow_dynamic)
}

/// [`report_js`] with the pins to hand back (`verifyWellKnown` with trust on first use or
/// pins).
fn report_with_pins(
    r: &Report,
    url: &str,
    pins: Option<String>,
    allow_dynamic: bool,
) -> Result<JsValue, JsValue> {
    let lines: Vec<String> = r.skills.iter().map(|s| s.to_json()).collect();
    to_js(&ReportJs {
        pins,
        skills: json_array(lines.iter().map(String::as_str))?,
        exit_code: r.exit_code(allow_dynamic),
        table: r.table(),
        summary: r.summary(url),
        error: match &r.fatal {
            Some(e) => js_error(e.clone()),
            None => JsValue::UNDEFINED,
        },
        protocol_version: r.facts.as_ref().map(|f| f.protocol_version.as_str()),
    })
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct OutputJs {
    stdout: String,
    stderr: String,
    exit_code: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    pins: Option<String>,
}

/// A checked `io` argument (an object; its functions are looked up when used).
fn io_arg(io: &JsValue, a: Arg) -> Result<JsIo, JsValue> {
    if !io.is_object() || io.is_function() {
        return Err(a.wrong("an io object", io));
    }
    let field = |k: &str| Reflect::get(io, &JsValue::from_str(k)).ok();
    let url = field("url").and_then(|v| v.as_string());
    let authorized = field("authorized").and_then(|v| v.as_bool()) == Some(true);
    Ok(JsIo(io.clone(), url, authorized))
}

/// Headers given as `[name, value]` pairs or a record of names to values.
fn headers_arg(value: &JsValue, a: Arg) -> Result<Vec<(String, String)>, JsValue> {
    let text = json_arg(
        value,
        a,
        ErrorCode::InvalidArgument,
        "an array of [name, value] pairs or an object of names to values",
        false,
    )?;
    let parsed: Json = serde_json::from_str(&text).map_err(|e| {
        a.error(
            ErrorCode::InvalidArgument,
            format_args!("cannot be read: {e}"),
        )
    })?;
    let pairs: Option<Vec<(String, String)>> = match &parsed {
        Json::Array(items) => items
            .iter()
            .map(|p| match p.as_array().map(Vec::as_slice) {
                Some([Json::String(k), Json::String(v)]) => Some((k.clone(), v.clone())),
                _ => None,
            })
            .collect(),
        Json::Object(map) => map
            .iter()
            .map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_owned())))
            .collect(),
        _ => None,
    };
    let pairs = pairs.ok_or_else(|| {
        a.error(
            ErrorCode::InvalidArgument,
            "must be [name, value] string pairs or an object of string values",
        )
    })?;
    throw(check_headers(&pairs).map_err(|e| {
        VerifyError::new(
            ErrorCode::InvalidArgument,
            format!("{}: {}", "headers", e.message),
        )
    }))
}

fn scope_str(h: crate::client::Hints) -> &'static str {
    h.scope.as_str()
}

/// The most exact integer of a JavaScript number, `Number.MAX_SAFE_INTEGER`.
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// A `listingBudget` option: an integer from 1 to `Number.MAX_SAFE_INTEGER` (bytes).
fn listing_budget(bytes: f64, a: Arg) -> Result<u64, JsValue> {
    if bytes.fract() != 0.0 || !(1.0..=MAX_SAFE_INTEGER).contains(&bytes) {
        return Err(a.with("listingBudget").error(
            ErrorCode::InvalidArgument,
            format_args!("must be an integer from 1 to 9007199254740991 (bytes), got {bytes}"),
        ));
    }
    // An integer within 2^53: exact.
    Ok(bytes as u64)
}

/// The host side of a skills client: the registry, the cache and the protocol, over the
/// `io` objects the package's `SkillsClient` makes (see the module documentation).
#[wasm_bindgen]
pub struct SkillsClientCore {
    inner: Rc<Inner>,
}

fn promise<F>(future: F) -> Promise
where
    F: Future<Output = Result<JsValue, JsValue>> + 'static,
{
    future_to_promise(future)
}

#[wasm_bindgen]
impl SkillsClientCore {
    /// A client core: `label` (the host's name for the server; default: its `origin`'s, see
    /// [`crate::client::server_label_of_url`]; one of the two is required),
    /// `listingBudget` (the most result bytes one listing or walk may read, default 256 MiB),
    /// `allowDynamic`, `requireApproval`, `trust`, `trustOnFirstUse`, `pins` (as for
    /// `SkillHost`), `origin` (what the server's signer is pinned under, default the label),
    /// `clientName` and `clientVersion` (its `clientInfo`). Throws `invalid-argument`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "SkillsClientCoreOptions")] options: Option<
            JsValue,
        >,
    ) -> Result<SkillsClientCore, JsValue> {
        let a = arg("new SkillsClientCore", "options");
        let (o, host): (CoreOptions, _) =
            options_with_host(&options.unwrap_or(JsValue::UNDEFINED), a)?;
        let listing_budget = o.listing_budget.map(|b| listing_budget(b, a)).transpose()?;
        let signers = SignerOptionsJs {
            trust: o.trust,
            trust_on_first_use: o.trust_on_first_use,
            pins: o.pins,
        }
        .signers(a)?;
        // The server's identity: the label given, else its origin's (the URL's origin for
        // `connect`; `wrap` needs one of them).
        let label = match (&o.label, &o.origin) {
            (Some(l), _) => l.clone(),
            (None, Some(origin)) => server_label_of_url(origin).unwrap_or_else(|| origin.clone()),
            (None, None) => {
                return Err(a.with("label").error(
                    ErrorCode::InvalidArgument,
                    "is required when no origin is given: the host's name for the server, its identity wherever its skills and approvals are kept (SkillsClient.connect uses the URL's origin)",
                ))
            }
        };
        let client = throw(SkillsClient::new(&label, host))?;
        if let Some(origin) = &o.origin {
            throw(client.set_origin(origin)).map_err(|_| {
                a.with("origin").error(
                    ErrorCode::InvalidArgument,
                    "must be 1 to 2048 bytes without control characters",
                )
            })?;
        }
        throw(client.host(|h, _| *h.signers_mut() = signers))?;
        if let Some(bytes) = listing_budget {
            throw(client.set_listing_budget(bytes))?;
        }
        let default = ClientInfo::default();
        let info = ClientInfo {
            name: o.client_name.unwrap_or(default.name),
            version: o.client_version.unwrap_or(default.version),
        };
        Ok(SkillsClientCore {
            inner: Rc::new(Inner {
                client,
                session: HttpSession::new(info),
                mode: Cell::new(Mode::None),
            }),
        })
    }

    /// Checks the caller's own request headers and makes them the authorization context of
    /// the cache (private results of another context are never reused). With `token` (a bearer
    /// token, RFC 6750 §2.1; `undefined` or `null`: none), `authorization: Bearer TOKEN` is
    /// added; `token` with an `authorization` header is refused. Returns them as `[name, value]`
    /// pairs with lowercase names. Throws `invalid-argument`, never repeating the token.
    #[wasm_bindgen(js_name = setHeaders, unchecked_return_type = "[string, string][]")]
    pub fn set_headers(
        &self,
        #[wasm_bindgen(unchecked_param_type = "[string, string][] | Record<string, string>")]
        headers: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "string")] token: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let a = arg("SkillsClientCore.setHeaders", "headers");
        let mut checked = headers_arg(&headers, a)?;
        if let Some(token) = token.filter(|t| !t.is_undefined() && !t.is_null()) {
            let t = a.with("token");
            let text = token.as_string().ok_or_else(|| {
                t.error(
                    ErrorCode::InvalidArgument,
                    "must be a string (not shown: it may be a credential)",
                )
            })?;
            if checked.iter().any(|(k, _)| k == "authorization") {
                return Err(t.error(
                    ErrorCode::InvalidArgument,
                    "and an authorization header are both given: use one of them",
                ));
            }
            checked.push(throw(bearer_header("token", &text))?);
        }
        throw(self.inner.client.set_context(&context_of(&checked)))?;
        let out = Array::new();
        for (k, v) in &checked {
            let pair = Array::new();
            pair.push(&JsValue::from_str(k));
            pair.push(&JsValue::from_str(v));
            out.push(&pair);
        }
        Ok(out.into())
    }

    /// Connects over Streamable HTTP through `io.post`: `era` is `auto` (2026-07-28, else
    /// 2025-11-25), `2026-07-28` or `2025-11-25`. Resolves to what the server says about
    /// itself.
    #[wasm_bindgen(unchecked_return_type = "Promise<ServerFacts>")]
    pub fn connect(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SkillsClientIo")] io: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] era: JsValue,
    ) -> Result<Promise, JsValue> {
        let a = arg("SkillsClientCore.connect", "io");
        let rpc = self.rpc(&io, a)?;
        let era = string(&era, a.with("era"))?;
        let choice = EraChoice::parse(&era).ok_or_else(|| {
            a.with("era").error(
                ErrorCode::InvalidArgument,
                format_args!("{era:?} is not auto, 2026-07-28 or 2025-11-25"),
            )
        })?;
        Ok(promise(async move {
            let inner = &rpc.inner;
            let facts = match inner.session.connect(&rpc.io, choice).await {
                Ok(f) => f,
                Err(e) => {
                    // The facts of an earlier connection describe no connection any more.
                    let _ = inner.client.clear_facts();
                    return throw(Err(e));
                }
            };
            throw(inner.client.set_facts(facts.clone()))?;
            inner.mode.set(Mode::Http);
            facts_js(&facts)
        }))
    }

    /// Uses an SDK client's connection (through `io.request`): `facts` is what it
    /// negotiated, `{ protocolVersion, capabilities, serverInfo?, instructions? }`.
    #[wasm_bindgen(unchecked_return_type = "ServerFacts")]
    pub fn attach(
        &self,
        #[wasm_bindgen(unchecked_param_type = "AttachedFacts")] facts: JsValue,
    ) -> Result<JsValue, JsValue> {
        let a = arg("SkillsClientCore.attach", "facts");
        let text = json_arg(&facts, a, ErrorCode::InvalidArgument, "an object", false)?;
        let v: Json = serde_json::from_str(&text).map_err(|e| {
            a.error(
                ErrorCode::InvalidArgument,
                format_args!("cannot be read: {e}"),
            )
        })?;
        let version = v
            .get("protocolVersion")
            .and_then(Json::as_str)
            .unwrap_or_default()
            .to_owned();
        let era = if version == MODERN_VERSION {
            Era::Modern
        } else if LEGACY_VERSIONS.contains(&version.as_str()) {
            Era::Legacy
        } else {
            return Err(a.error(
                ErrorCode::InvalidArgument,
                format_args!("has protocolVersion {version:?}, which this client does not speak"),
            ));
        };
        let mut f = ServerFacts::from_result(era, &version, &v);
        if era == Era::Modern {
            // The SDK hands serverInfo over directly.
            f.server_info = v.get("serverInfo").filter(|i| i.is_object()).cloned();
        }
        throw(self.inner.client.set_facts(f.clone()))?;
        self.inner.mode.set(Mode::Sdk);
        facts_js(&f)
    }

    /// What the connected server says about itself, or `undefined`.
    #[wasm_bindgen(unchecked_return_type = "ServerFacts | undefined")]
    pub fn facts(&self) -> Result<JsValue, JsValue> {
        match self.inner.client.facts() {
            Some(f) => facts_js(&f),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// Every page of `skills/list`, registered.
    #[wasm_bindgen(unchecked_return_type = "Promise<SkillListing>")]
    pub fn list(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SkillsClientIo")] io: JsValue,
    ) -> Result<Promise, JsValue> {
        let rpc = self.rpc(&io, arg("SkillsClientCore.list", "io"))?;
        Ok(promise(async move {
            let l = throw(rpc.client().list(&rpc).await)?;
            let skills = json_value(&json_array_text(l.skills.iter().map(listed_json)))?;
            to_js(&ListingJs {
                skills,
                rejected: l
                    .rejected
                    .iter()
                    .map(|r| RejectedJs {
                        index: r.index,
                        error: js_error(r.error.clone()),
                    })
                    .collect(),
                ttl_ms: l.hints.ttl_ms,
                cache_scope: scope_str(l.hints),
                pages: l.pages,
            })
        }))
    }

    /// `skills/get`, registered.
    #[wasm_bindgen(unchecked_return_type = "Promise<FetchedSkill>")]
    pub fn get(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SkillsClientIo")] io: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    ) -> Result<Promise, JsValue> {
        let a = arg("SkillsClientCore.get", "io");
        let rpc = self.rpc(&io, a)?;
        let uri = string(&uri, a.with("uri"))?;
        Ok(promise(async move {
            let g = throw(rpc.client().get(&rpc, &uri).await)?;
            to_js(&FetchedJs {
                skill: json_value(&listed_json(&g.skill))?,
                changed: g.outcome.changed,
                approval_revoked: g.outcome.approval_revoked,
                ttl_ms: g.hints.ttl_ms,
                cache_scope: scope_str(g.hints),
            })
        }))
    }

    /// Loads a skill: its verified `SKILL.md`, the acting window open.
    #[wasm_bindgen(unchecked_return_type = "Promise<ClientLoadedSkill>")]
    pub fn load(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SkillsClientIo")] io: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    ) -> Result<Promise, JsValue> {
        let a = arg("SkillsClientCore.load", "io");
        let rpc = self.rpc(&io, a)?;
        let uri = string(&uri, a.with("uri"))?;
        Ok(promise(async move {
            let l = throw(rpc.client().load(&rpc, &uri).await)?;
            // `ClientLoadedSkill`: a `LoadedSkill` and what the refresh did.
            let mut o = JsonObject::new();
            skill_md_fields(&mut o, &l.skill.skill_md);
            o.str("serverLabel", &l.skill.server_label);
            o.str("displayName", &l.skill.display_name);
            o.bool("refreshed", l.refreshed);
            o.bool("approvalRevoked", l.approval_revoked);
            o.into_js()
        }))
    }

    /// Reads a file of a loaded skill (only files its held entry lists), verified.
    #[wasm_bindgen(unchecked_return_type = "Promise<ClientReadFile>")]
    pub fn read(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SkillsClientIo")] io: JsValue,
        #[wasm_bindgen(js_name = skillUri, unchecked_param_type = "string")] skill_uri: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] reference: JsValue,
    ) -> Result<Promise, JsValue> {
        let a = arg("SkillsClientCore.read", "io");
        let rpc = self.rpc(&io, a)?;
        let skill_uri = string(&skill_uri, a.with("skillUri"))?;
        let reference = string(&reference, a.with("reference"))?;
        Ok(promise(async move {
            let r = throw(rpc.client().read(&rpc, &skill_uri, &reference).await)?;
            // `ClientReadFile`: a `ReadFile` and what the refresh did.
            let mut o = JsonObject::new();
            content_fields(&mut o, &r.file.content);
            o.str("serverLabel", &r.file.server_label);
            o.str("skillUri", &r.file.skill_uri);
            o.bool("refreshed", r.refreshed);
            o.bool("approvalRevoked", r.approval_revoked);
            o.into_js()
        }))
    }

    /// Every page of `resources/directory/read` for a directory URI.
    #[wasm_bindgen(js_name = readDirectory, unchecked_return_type = "Promise<DirectoryListing>")]
    pub fn read_directory(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SkillsClientIo")] io: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    ) -> Result<Promise, JsValue> {
        let a = arg("SkillsClientCore.readDirectory", "io");
        let rpc = self.rpc(&io, a)?;
        let uri = string(&uri, a.with("uri"))?;
        Ok(promise(async move {
            let d = throw(rpc.client().read_directory(&rpc, &uri).await)?;
            to_js(&DirectoryJs {
                uri: &d.uri,
                resources: d
                    .children
                    .iter()
                    .map(|c| ChildJs {
                        uri: &c.uri,
                        name: c.name.as_deref(),
                        mime_type: c.mime_type.as_deref(),
                        size: c.size,
                        directory: c.directory,
                        listed: c.listed,
                    })
                    .collect(),
                ttl_ms: d.hints.ttl_ms,
                cache_scope: scope_str(d.hints),
                pages: d.pages,
            })
        }))
    }

    /// The `verify` run over this client (every skill, or only `skill`): resolves to
    /// `{ skills, exitCode, table, summary, error?, protocolVersion? }`, where `skills` are the
    /// objects `skills-edge verify --json` prints and `url` labels the summary.
    #[wasm_bindgen(unchecked_return_type = "Promise<VerifyReport>")]
    pub fn verify(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SkillsClientIo")] io: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] url: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "string")] skill: Option<JsValue>,
    ) -> Result<Promise, JsValue> {
        let a = arg("SkillsClientCore.verify", "io");
        let rpc = self.rpc(&io, a)?;
        let url = string(&url, a.with("url"))?;
        let skill = match skill {
            Some(s) if !s.is_undefined() && !s.is_null() => Some(string(&s, a.with("skill"))?),
            _ => None,
        };
        Ok(promise(async move {
            let r = report::run(rpc.client(), &rpc, skill.as_deref()).await;
            // A dynamic skill passes only when the client accepts them (`allowDynamic`, as
            // its SkillHost does); a downgraded one never does.
            let allow_dynamic = rpc
                .client()
                .host(|h, _| h.options().allow_dynamic)
                .unwrap_or(false);
            report_js(&r, &url, allow_dynamic)
        }))
    }

    /// The skills registered so far (summaries with display names).
    #[wasm_bindgen(unchecked_return_type = "SkillSummary[]")]
    pub fn skills(&self) -> Result<JsValue, JsValue> {
        let rows = throw(self.inner.client.host(|h, l| {
            h.skills()
                .into_iter()
                .filter(|s| s.server_label == l)
                .collect::<Vec<_>>()
        }))?;
        json_value(&json_array_text(rows.iter().map(summary_json)))
    }

    /// The registered entry of a skill, or `undefined`.
    #[wasm_bindgen(unchecked_return_type = "SkillEntry | undefined")]
    pub fn entry(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    ) -> Result<JsValue, JsValue> {
        let uri = string(&uri, arg("SkillsClientCore.entry", "uri"))?;
        match throw(
            self.inner
                .client
                .host(|h, l| h.entry(l, &uri).map(|e| e.to_json())),
        )? {
            Some(j) => json_value(&j),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// Records the user's approval of a skill as its entry stands; returns the fingerprint.
    pub fn approve(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    ) -> Result<String, JsValue> {
        let uri = string(&uri, arg("SkillsClientCore.approve", "uri"))?;
        throw(throw(self.inner.client.host(|h, l| h.approve(l, &uri)))?)
    }

    /// Whether a stored approval matches the skill's current entry.
    #[wasm_bindgen(js_name = isApproved)]
    pub fn is_approved(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    ) -> Result<bool, JsValue> {
        self.on_skill("SkillsClientCore.isApproved", &uri, |h, l, u| {
            h.is_approved(l, u)
        })
    }

    /// Withdraws an approval; returns whether there was one.
    pub fn revoke(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    ) -> Result<bool, JsValue> {
        self.on_skill("SkillsClientCore.revoke", &uri, |h, l, u| h.revoke(l, u))
    }

    /// Whether an acting window is open for the skill.
    #[wasm_bindgen(js_name = isActive)]
    pub fn is_active(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    ) -> Result<bool, JsValue> {
        self.on_skill("SkillsClientCore.isActive", &uri, |h, l, u| {
            h.is_active(l, u)
        })
    }

    /// Closes the acting window; returns whether one was open.
    #[wasm_bindgen(js_name = closeWindow)]
    pub fn close_window(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    ) -> Result<bool, JsValue> {
        self.on_skill("SkillsClientCore.closeWindow", &uri, |h, l, u| {
            h.close_window(l, u)
        })
    }

    /// The signer verified for a registered skill, or `undefined`.
    #[wasm_bindgen(unchecked_return_type = "SignerInfo | undefined")]
    pub fn signer(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    ) -> Result<JsValue, JsValue> {
        let uri = string(&uri, arg("SkillsClientCore.signer", "uri"))?;
        let signer = throw(self.inner.client.host(|h, l| h.signer(l, &uri).cloned()))?;
        match &signer {
            Some(s) => json_value(&signer_json(s)),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// The origin the server's signer is pinned under.
    pub fn origin(&self) -> String {
        self.inner.client.origin()
    }

    /// The pins as JSON text (a `PinsExport`), for persisting.
    #[wasm_bindgen(js_name = exportPins)]
    pub fn export_pins(&self) -> Result<String, JsValue> {
        throw(self.inner.client.export_pins())
    }

    /// Restores exported pins (JSON text or the parsed object); returns how many were read.
    #[wasm_bindgen(js_name = importPins)]
    pub fn import_pins(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | PinsExport")] pins: JsValue,
    ) -> Result<u32, JsValue> {
        let text = json_arg(
            &pins,
            arg("SkillsClientCore.importPins", "pins"),
            ErrorCode::InvalidArgument,
            "JSON text or a PinsExport object",
            true,
        )?;
        let n = throw(self.inner.client.import_pins(&text))?;
        Ok(u32::try_from(n).unwrap_or(u32::MAX))
    }

    /// Accepts a change of the server's signer: the pin of its origin is dropped, and the next
    /// signature that holds pins it again (list or get the skills again). Returns whether there
    /// was a pin.
    #[wasm_bindgen(js_name = acceptSignerChange)]
    pub fn accept_signer_change(&self) -> Result<bool, JsValue> {
        throw(self.inner.client.accept_signer_change())
    }

    /// The stored approvals as JSON text, for persisting.
    #[wasm_bindgen(js_name = exportApprovals)]
    pub fn export_approvals(&self) -> Result<String, JsValue> {
        throw(self.inner.client.export_approvals())
    }

    /// Restores approvals exported by a client of the same server; returns how many were
    /// stored. An export with an approval of another server is refused (`invalid-argument`).
    #[wasm_bindgen(js_name = importApprovals)]
    pub fn import_approvals(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | ApprovalsExport")] approvals: JsValue,
    ) -> Result<u32, JsValue> {
        let text = json_arg(
            &approvals,
            arg("SkillsClientCore.importApprovals", "approvals"),
            ErrorCode::InvalidArgument,
            "JSON text or an ApprovalsExport object",
            true,
        )?;
        let n = throw(self.inner.client.import_approvals(&text))?;
        Ok(u32::try_from(n).unwrap_or(u32::MAX))
    }
}

/// Reads and verifies a well-known skills source (an Agent Skills Discovery index, RFC v0.2.0 or
/// v0.1.0) through `io.get`: `url` is the index (ending in `/.well-known/agent-skills/index.json`)
/// or an origin (`https://host`, whose index that is). `options` holds the signer options
/// (`trust`, `trustOnFirstUse`, `pins`, as for `SkillHost`) and `allowDynamic` (a `dynamic`
/// skill, such as every skill of a v0.1.0 index, passes only with it, as with
/// `--allow-dynamic`). Resolves to what
/// `SkillsClient.verify` resolves to, `{ skills, exitCode, table, summary, error? }`, with the
/// same statuses and exit codes as `skills-edge verify`, which runs the same code, and `pins`
/// (the pins after the run, to persist) when `trustOnFirstUse` or `pins` was given. Throws
/// `invalid-argument` for a `url` that is neither, or a malformed option.
#[wasm_bindgen(js_name = verifyWellKnown, unchecked_return_type = "Promise<VerifyReport>")]
pub fn verify_well_known(
    #[wasm_bindgen(unchecked_param_type = "SkillsClientIo")] io: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] url: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "SignerOptions")] options: Option<JsValue>,
) -> Result<Promise, JsValue> {
    let a = arg("verifyWellKnown", "io");
    let io = io_arg(&io, a)?;
    let url = string(&url, a.with("url"))?;
    let record = option_record(
        &options.unwrap_or(JsValue::UNDEFINED),
        a.with("options"),
        &[
            SIGNER_FIELDS[0],
            SIGNER_FIELDS[1],
            SIGNER_FIELDS[2],
            "allowDynamic",
        ],
    )?;
    let allow_dynamic = match &record {
        Some(r) => r.bool("allowDynamic")?.unwrap_or(false),
        None => false,
    };
    let signer_options = SignerOptionsJs::read(record.as_ref())?;
    let mut signers = signer_options.signers(a.with("options"))?;
    let hand_back = signer_options.pins_given();
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        return Err(a.with("url").error(
            ErrorCode::InvalidArgument,
            format_args!("{url:?} must start with http:// or https://"),
        ));
    }
    let index = if crate::host::index::is_index_url(&url) {
        url.clone()
    } else {
        crate::host::index::index_url_of_origin(&url).ok_or_else(|| {
            a.with("url").error(
                ErrorCode::InvalidArgument,
                format_args!(
                    "{url:?} is neither an index URL (ending in {}) nor an origin (http:// or https:// and a host)",
                    crate::catalog::compile::mirror::INDEX_PATH
                ),
            )
        })?
    };
    Ok(promise(async move {
        let r = run_well_known(&io, &index, &mut signers).await;
        report_with_pins(
            &r,
            &index,
            hand_back.then(|| signers.export_pins()),
            allow_dynamic,
        )
    }))
}

/// What the command's `--trust` and `--pins` files hold, read by the package's `bin`.
#[derive(serde::Deserialize, Default)]
struct FilesJs {
    trust: Option<Vec<String>>,
    pins: Option<String>,
}

/// The whole `verify` command after its arguments (`args`, as for `parseVerifyArgs`):
/// connect through `io.post`, verify, render. `files` holds the texts of the `--trust` files
/// (`trust`, in order) and of the `--pins` file (`pins`, absent when it does not exist yet).
/// Resolves to `{ stdout, stderr, exitCode, pins? }`, exactly what the native command prints
/// and returns, and with `--pins` the pins to write back to its file.
#[wasm_bindgen(js_name = runVerifyCommand, unchecked_return_type = "Promise<CommandOutput>")]
pub fn run_verify_command(
    #[wasm_bindgen(unchecked_param_type = "string[]")] args: JsValue,
    #[wasm_bindgen(unchecked_param_type = "SkillsClientIo")] io: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "VerifyFiles")] files: Option<JsValue>,
) -> Result<Promise, JsValue> {
    let a = arg("runVerifyCommand", "args");
    let parsed = verify_args(&args, a)?;
    let io = io_arg(&io, a.with("io"))?;
    let files: FilesJs = options(&files.unwrap_or(JsValue::UNDEFINED), a.with("files"))?;
    let files = SignerFiles {
        trust: files.trust.unwrap_or_default(),
        pins: files.pins,
    };
    let prepared = match signers_of(&parsed, &files) {
        Ok(s) => Ok((s.clone(), throw(report::command_client(&parsed, s))?)),
        Err(e) => Err(e),
    };
    Ok(promise(async move {
        let out = match prepared {
            Err(e) => Report::stopped(None, e).render(&parsed),
            Ok((mut signers, _)) if parsed.well_known => {
                let r = run_well_known(&io, &parsed.url, &mut signers).await;
                output(&parsed, &r, &signers)
            }
            Ok((_, client)) => {
                // command::verify_command, over the same Rpc as SkillsClientCore's (one copy
                // of the client's code in the wasm, not two).
                let rpc = CallRpc {
                    inner: Rc::new(Inner {
                        client,
                        session: HttpSession::new(ClientInfo::default()),
                        mode: Cell::new(Mode::Http),
                    }),
                    io,
                };
                let report = match rpc.inner.session.connect(&rpc.io, parsed.era).await {
                    Err(e) => Report::stopped(None, e),
                    Ok(facts) => {
                        let _ = rpc.client().set_facts(facts);
                        report::run(rpc.client(), &rpc, parsed.skill.as_deref()).await
                    }
                };
                after_mcp(&parsed, &rpc.io, rpc.client(), report).await
            }
        };
        to_js(&OutputJs {
            stdout: out.stdout,
            stderr: out.stderr,
            exit_code: out.exit_code,
            pins: out.pins,
        })
    }))
}

impl SkillsClientCore {
    /// The [`Rpc`] of one operation over `io` (checked and named after `a`), to move into the
    /// operation's promise: the shape of `list`, `get`, `load`, `read`, `readDirectory` and
    /// `verify`, whose other arguments are checked after it.
    fn rpc(&self, io: &JsValue, a: Arg) -> Result<CallRpc, JsValue> {
        Ok(CallRpc {
            inner: self.inner.clone(),
            io: io_arg(io, a)?,
        })
    }

    /// `op(uri)` on the client's registry for a skill of this server, `uri` checked and named
    /// after `method`, the JavaScript method called: the shape of the registry queries above.
    fn on_skill(
        &self,
        method: &'static str,
        uri: &JsValue,
        op: impl FnOnce(&mut SkillHost, &str, &str) -> bool,
    ) -> Result<bool, JsValue> {
        let uri = string(uri, arg(method, "uri"))?;
        throw(self.inner.client.host(|h, l| op(h, l, &uri)))
    }
}
