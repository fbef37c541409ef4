//! The Worker on wasm32: the `fetch` handler, `configure`, the body reads and the splice of
//! assets (see the crate documentation).

use crate::auth;
use crate::parking::Parking;
use crate::serving::{serve, Serving};
use skills_edge::catalog::{Catalog, Grant};
use skills_edge::http::{BodyReader, Gate, Head, Response, Step};
use skills_edge::http::{TokenError, TokenOutcome};
use skills_edge::protocol::clip;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{ReadableStreamDefaultReader, ReadableStreamReadResult};
use worker::{event, Context, Env, Result};

thread_local! {
    /// The current [`Serving`]; `None` before `configure` (or after the wasm instance was
    /// reset), and in r2 mode until a good pack was installed.
    static SERVING: std::cell::RefCell<Option<Rc<Serving>>> = const { std::cell::RefCell::new(None) };
}

/// The current [`Serving`], if any.
pub(crate) fn current() -> Option<Rc<Serving>> {
    SERVING.with(|s| s.borrow().clone())
}

/// Makes `s` the current [`Serving`]; requests under way keep the one they took.
fn install(s: Serving) {
    SERVING.with(|c| *c.borrow_mut() = Some(Rc::new(s)));
}

#[wasm_bindgen]
extern "C" {
    /// The platform's `Headers`, with `get` taking the name as a JavaScript string made once.
    #[wasm_bindgen(js_name = Headers)]
    type NamedHeaders;
    #[wasm_bindgen(method, js_name = get)]
    fn get(this: &NamedHeaders, name: &JsValue) -> Option<String>;
}

#[wasm_bindgen(
    inline_js = "export function read_then(req, id, f) { return req.arrayBuffer().then((buf) => f(id, buf), () => f(id, null)); }"
)]
extern "C" {
    /// `req.arrayBuffer().then(buf => f(id, buf))`, with `f(id, null)` if the body cannot be
    /// read: the body read's continuation is one long-lived function, not a future.
    fn read_then(req: &web_sys::Request, id: u64, f: &JsValue) -> js_sys::Promise;
}

#[wasm_bindgen(inline_js = r#"
let held;
export function kept(pack) { if (pack !== undefined) held = pack; return held; }
const ORIGIN = "https://assets.invalid/";
export async function splice(assets, name, len, head, tail, init, faultBody, faultInit) {
  let buf = null;
  let why;
  try {
    if (typeof assets?.fetch !== "function") {
      why = "the Worker has no ASSETS binding (wrangler.toml: [assets] binding = 'ASSETS')";
    } else {
      const r = await assets.fetch(ORIGIN + name);
      if (r.status === 200) buf = await r.arrayBuffer();
      else {
        why = `the binding answered ${r.status}`;
        await r.body?.cancel();
      }
    }
  } catch (e) {
    why = `fetching it failed: ${e}`;
  }
  if (buf !== null && buf.byteLength !== len) {
    why = `it is ${buf.byteLength} bytes, the pack says ${len}`;
    buf = null;
  }
  if (buf === null) {
    console.error(`skills-edge: asset ${name} cannot be served: ${why}; answered the fault instead (redeploy the Worker with its assets: bash scripts/build-worker.sh && npx wrangler deploy)`);
    return new Response(faultBody, faultInit);
  }
  const body = head.byteLength === 0 && tail.byteLength === 0 ? buf : new Blob([head, buf, tail]);
  return new Response(body, init);
}
export async function page(assets, file, init, missingBody, missingInit) {
  try {
    if (assets && typeof assets.fetch === "function") {
      const r = await assets.fetch("https://assets.invalid/inspector/" + file);
      if (r.ok) return new Response(r.body, init);
      if (r.body) await r.body.cancel();
    }
  } catch (e) {
    console.error(`skills-edge: the inspector page's ${file} could not be read: ${e && e.message}`);
  }
  return new Response(missingBody, missingInit);
}
"#)]
extern "C" {
    /// Keeps `pack` in the JavaScript module (unless it is `undefined`) and returns the pack
    /// kept, so a fresh wasm instance (after an abort) can load it again.
    fn kept(pack: &JsValue) -> JsValue;
    /// The response `head + asset + tail` with `init`, or the fault response (`fault_body`
    /// with `fault_init`; see the module comment).
    #[allow(clippy::too_many_arguments)]
    fn splice(
        assets: &JsValue,
        name: &str,
        len: f64,
        head: &js_sys::Uint8Array,
        tail: &js_sys::Uint8Array,
        init: &web_sys::ResponseInit,
        fault_body: &js_sys::Uint8Array,
        fault_init: &web_sys::ResponseInit,
    ) -> js_sys::Promise;
    /// The response `init` with the static file `inspector/<file>` of the `ASSETS` binding as
    /// its body, or the `missing` response when the binding has no such file (the page is
    /// switched on but was not built into the Worker's assets).
    fn page(
        assets: &JsValue,
        file: &str,
        init: &web_sys::ResponseInit,
        missing_body: &js_sys::Uint8Array,
        missing_init: &web_sys::ResponseInit,
    ) -> js_sys::Promise;
}

/// A request whose head passed and whose body is being read: what its continuation needs.
struct Pending {
    method: String,
    url: String,
    headers: [Option<String>; Head::HEADERS.len()],
    /// What the caller may see: the grant of its token's scopes ([`Catalog::grant`]),
    /// [`Grant::PUBLIC`] for an anonymous caller.
    grant: Grant,
    /// What answers it (the pack current when it arrived).
    serving: Rc<Serving>,
}

impl Pending {
    fn head(&self) -> Head<'_> {
        Head::from_url(
            &self.method,
            &self.url,
            self.headers.each_ref().map(Option::as_deref),
        )
    }
}

/// Most requests whose bodies are being read at once, per instance (a power of two). When
/// every slot is taken, one more request drops a parked one (see [`Parking`]), whose
/// continuation, should it ever run, answers 503 (`Retry-After: 1`).
const PARKING_SLOTS: u32 = 4096;

thread_local! {
    /// Requests waiting for their bodies.
    static PARKING: std::cell::RefCell<Parking<Pending, PARKING_SLOTS>> =
        const { std::cell::RefCell::new(Parking::new()) };
    /// The continuation of every body read (made once, lives as long as the instance).
    static FINISH: Closure<dyn Fn(u64, JsValue) -> JsValue> = Closure::new(finish);
}

/// Parks a request whose body is being read; returns its id, or `None` when the ring's ids
/// are used up (the request is answered 503). A request it displaces is dropped here: its
/// body read's continuation finds nothing and answers 503.
fn park(p: Pending) -> Option<u64> {
    PARKING.with(|cell| cell.borrow_mut().park(p).ok().map(|(id, _)| id))
}

/// The parked request `id`, taken out of the ring; `None` when it was displaced.
fn unpark(id: u64) -> Option<Pending> {
    PARKING.with(|cell| cell.borrow_mut().unpark(id))
}

/// Answers a parked request with its body (`buf` is `null` when the body could not be read).
/// A request evicted from its slot (see [`PARKING_SLOTS`]) gets a 503.
fn finish(id: u64, buf: JsValue) -> JsValue {
    let Some(p) = unpark(id) else {
        return match current().or_else(crate::r2::any) {
            Some(s) => into_platform(&s, s.endpoint.overloaded()).unwrap_or(JsValue::NULL),
            None => JsValue::NULL,
        };
    };
    let endpoint = &p.serving.endpoint;
    let head = p.head();
    let response = if buf.is_null() {
        endpoint.body_unreadable(&head)
    } else {
        let body = js_sys::Uint8Array::new(&buf).to_vec();
        endpoint.body(&head, &body, p.grant)
    };
    into_platform(&p.serving, cache_rule(&p.serving, response)).unwrap_or(JsValue::NULL)
}

thread_local! {
    /// The name of the credential header (`Bearer::credential_header`), as a JavaScript
    /// string made once.
    static CREDENTIAL_NAME: std::cell::OnceCell<JsValue> = const { std::cell::OnceCell::new() };
    /// `host`, as a JavaScript string made once (r2 mode picks the catalog by it).
    static HOST_NAME: JsValue = JsValue::from_str("host");
    /// The request header names the endpoint reads, as JavaScript strings (made once).
    static HEADER_NAMES: [JsValue; Head::HEADERS.len()] = Head::HEADERS.map(JsValue::from_str);
    /// `ResponseInit`s of the common responses (status and constant headers only), made
    /// once per status and header count.
    static INITS: std::cell::RefCell<Vec<(u16, usize, web_sys::ResponseInit)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// The endpoint serving `pack` (an `ArrayBuffer` or `Uint8Array`) with the settings in
/// `env`'s vars; remembers `env.ASSETS` for the responses spliced around assets.
fn build(env: &JsValue, pack: &JsValue) -> std::result::Result<Serving, String> {
    if !(pack.is_instance_of::<js_sys::ArrayBuffer>()
        || pack.is_instance_of::<js_sys::Uint8Array>())
    {
        return Err("the skills pack was not given: worker/entry.mjs must import the pack scripts/build-worker.sh writes (worker/build/catalog.pack, a Data module) and call configure(env, pack)".into());
    }
    // The pack is bundled with this code by the same upload (scripts/build-worker.sh wrote
    // it), so the deployment vouches for its bytes: it is opened by its shape only, in time
    // independent of the catalog's size (docs/pack-format.md#reading).
    let catalog = Catalog::from_bundled(js_sys::Uint8Array::new(pack).to_vec()).map_err(|e| {
        format!("the skills pack cannot be loaded: {e} (rebuild it: bash scripts/build-worker.sh)")
    })?;
    let assets = js_sys::Reflect::get(env, &JsValue::from_str("ASSETS")).unwrap_or_default();
    serve(env, catalog, assets)
}

/// Loads the skills `pack` (the file `scripts/build-worker.sh` writes, imported as a Data
/// module: an `ArrayBuffer`) and checks the configuration from the Worker's `env` (its vars;
/// `env.ASSETS` is the Static Assets binding holding the files the pack left out). Throws an
/// `Error` naming what is wrong: the pack (truncated, corrupted, another format version) or
/// the variable, its value and the accepted form.
#[wasm_bindgen]
pub fn configure(env: &JsValue, pack: &JsValue) -> std::result::Result<(), JsError> {
    // `CATALOG_SOURCE = "r2"`: the catalog comes from the bucket (module `r2`), not `pack`;
    // the other vars are still checked now, over the bundled pack, so a bad one stops the
    // Worker at start instead of refusing every pack it fetches.
    if crate::r2::configure(env).map_err(|e| JsError::new(&e))? {
        let bundled = js_sys::Uint8Array::new(pack).to_vec();
        if let Ok(catalog) = Catalog::from_bundled(bundled) {
            serve(env, catalog, JsValue::UNDEFINED).map_err(|e| JsError::new(&e))?;
        }
        return Ok(());
    }
    if current().is_none() {
        let serving = build(env, pack).map_err(|e| JsError::new(&e))?;
        kept(pack);
        install(serving);
    }
    Ok(())
}

/// What answers a request: the current [`Serving`]; configured again from the kept pack after
/// the wasm instance was reset (a fresh instance after an abort has empty statics). `None` in
/// r2 mode while no good pack was installed.
fn serving(env: &Env) -> Result<Option<Rc<Serving>>> {
    if let Some(s) = current() {
        return Ok(Some(s));
    }
    let env: &JsValue = env.as_ref();
    if crate::r2::configure(env).map_err(worker::Error::RustError)? {
        return Ok(None);
    }
    let s = build(env, &kept(&JsValue::UNDEFINED)).map_err(worker::Error::RustError)?;
    install(s);
    Ok(current())
}

/// `r` with the cache rule of `AUTH_MODE` (`Bearer::cache_rule`: with `access`, an answer made
/// for a caller's grant is `Cache-Control: private, no-store`).
fn cache_rule(s: &Serving, r: Response) -> Response {
    match s.bearer() {
        Some(b) => b.cache_rule(r),
        None => r,
    }
}

thread_local! {
    /// Whether a `ctx.auth` of the wrong shape was logged already (once per instance).
    static WARNED_SHAPE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The caller's scopes as `@cloudflare/workers-oauth-provider` hands them to the handler:
/// `ctx.auth.scope`, an array of strings, set by the host only after it validated the token
/// (`OAuthProvider` for its `apiHandler`, `OAuthResourceServer` for its `handler`). `None`
/// is an anonymous caller: no `ctx.auth` (a request the host passed on without a token, such
/// as one its `defaultHandler` forwards), or a `ctx.auth` of another shape, which fails
/// closed to the public grant and is logged once (it means the host is not the one this mode
/// expects). The token in `ctx.auth.token` is never read.
fn provider_scopes(ctx: &JsValue) -> Option<Vec<String>> {
    let auth = js_sys::Reflect::get(ctx, &JsValue::from_str("auth")).ok()?;
    if auth.is_undefined() || auth.is_null() {
        return None;
    }
    let scopes = (|| {
        if !auth.is_object() {
            return Err("it is not an object");
        }
        let scope = js_sys::Reflect::get(&auth, &JsValue::from_str("scope"))
            .map_err(|_| "its scope cannot be read")?;
        if !js_sys::Array::is_array(&scope) {
            return Err("its scope is not an array");
        }
        js_sys::Array::from(&scope)
            .iter()
            .map(|v| {
                v.as_string()
                    .ok_or("its scope holds a value that is not a string")
            })
            .collect::<std::result::Result<Vec<String>, _>>()
    })();
    match scopes {
        Ok(scopes) => Some(scopes),
        Err(why) => {
            if !WARNED_SHAPE.with(|w| w.replace(true)) {
                auth::warn(&format!(
                    "skills-edge: auth: AUTH_MODE provider: the request's ctx.auth is not the one @cloudflare/workers-oauth-provider hands over ({why}; expected {{ scope: string[] , ... }}): the caller is anonymous (the public grant); mount the Worker as OAuthProvider's apiHandler or OAuthResourceServer's handler (docs/private.md); logged once"
                ));
            }
            None
        }
    }
}

/// A `ResponseInit` with the status and the headers as a plain record (which the `Response`
/// constructor copies, so an init can be used again).
fn make_init(r: &Response) -> Result<web_sys::ResponseInit> {
    let headers = js_sys::Object::new();
    for (name, value) in &r.headers {
        js_sys::Reflect::set(
            &headers,
            &JsValue::from_str(name),
            &JsValue::from_str(value),
        )?;
    }
    let init = web_sys::ResponseInit::new();
    init.set_status(r.status);
    init.set_headers(&headers);
    Ok(init)
}

/// The platform's response to `r`: a `Response`, or the promise of one when `r`'s middle is
/// an asset (see the module comment).
fn into_platform(serving: &Serving, mut r: Response) -> Result<JsValue> {
    let Some(s) = r.splice.take() else {
        return Ok(plain_response(r)?.into());
    };
    let init = make_init(&r)?;
    let head = js_sys::Uint8Array::from(r.body.as_slice());
    let tail = js_sys::Uint8Array::from(s.tail.as_slice());
    let fault_init = make_init(&s.fault)?;
    let fault_body = js_sys::Uint8Array::from(s.fault.body.as_slice());
    // Lengths are at most 16 MiB (a skill's limit), exact in an f64.
    let len = s.len as f64;
    Ok(splice(
        &serving.assets,
        &s.asset,
        len,
        &head,
        &tail,
        &init,
        &fault_body,
        &fault_init,
    )
    .into())
}

/// The platform's response to `r`, without its splice.
fn plain_response(r: Response) -> Result<web_sys::Response> {
    // Responses whose headers are the constant `Vary: Origin` plus, with a body,
    // `Content-Type: application/json` (no CORS or other per-request headers) share one
    // init per status and header count.
    let plain = r.header("vary") == Some("Origin")
        && r.headers.iter().all(|(name, value)| {
            *name == "vary" || (*name == "content-type" && value == "application/json")
        });
    let init = if plain {
        let key = (r.status, r.headers.len());
        let cached = INITS.with(|c| {
            c.borrow()
                .iter()
                .find(|(s, t, _)| (*s, *t) == key)
                .map(|(_, _, i)| i.clone())
        });
        match cached {
            Some(init) => init,
            None => {
                let init = make_init(&r)?;
                INITS.with(|c| c.borrow_mut().push((key.0, key.1, init.clone())));
                init
            }
        }
    } else {
        make_init(&r)?
    };
    let mut body = r.body;
    let response = if body.is_empty() {
        web_sys::Response::new_with_opt_str_and_init(None, &init)?
    } else {
        web_sys::Response::new_with_opt_u8_array_and_init(Some(&mut body), &init)?
    };
    Ok(response)
}

/// A body sent without `Content-Length` (chunked), as read.
enum Chunked {
    /// All of it, within the limit.
    Complete(Vec<u8>),
    /// Longer than the limit (at most `limit + 1` bytes were kept).
    TooLarge,
    /// The platform could not deliver it (the client went away, or ended the stream before
    /// the last chunk).
    Unreadable,
}

/// Reads a body sent without `Content-Length` (chunked), chunk by chunk through a
/// [`BodyReader`], which keeps at most `limit + 1` bytes.
async fn read_chunked_body(req: &web_sys::Request, limit: usize) -> Chunked {
    let Some(stream) = req.body() else {
        return Chunked::Complete(Vec::new());
    };
    let reader: ReadableStreamDefaultReader = stream.get_reader().unchecked_into();
    let mut body = BodyReader::new(limit);
    loop {
        // A failed read is the client's fault, not the Worker's: answered 400, never 500.
        let Ok(step) = JsFuture::from(reader.read()).await else {
            return Chunked::Unreadable;
        };
        let step: ReadableStreamReadResult = step.unchecked_into();
        if step.get_done().unwrap_or(true) {
            break;
        }
        let chunk = js_sys::Uint8Array::new(&step.get_value());
        let len = chunk.length() as usize;
        // Copy only the bytes that are kept.
        let take = body.room().min(len);
        let kept = if take > 0 {
            chunk.subarray(0, take as u32).to_vec()
        } else {
            Vec::new()
        };
        if !body.push_kept(&kept, len) {
            let _ = reader.cancel();
            break;
        }
    }
    match body.finish() {
        Some(bytes) => Chunked::Complete(bytes),
        None => Chunked::TooLarge,
    }
}

/// What answers the request: the embedded pack, or in r2 mode (module `r2`) the current pack
/// of the catalog the Host names; `Err` is the answer instead (404 or 503 from `r2`).
async fn pick(
    h: &NamedHeaders,
    env: &Env,
    ctx: &Context,
) -> Result<std::result::Result<Rc<Serving>, web_sys::Response>> {
    if crate::r2::configure(env.as_ref()).map_err(worker::Error::RustError)? {
        let host = HOST_NAME.with(|n| h.get(n));
        return match crate::r2::serving_for(host.as_deref(), ctx).await {
            Ok(s) => Ok(Ok(s)),
            Err(response) => Ok(Err(response?)),
        };
    }
    match serving(env)? {
        Some(s) => Ok(Ok(s)),
        None => Ok(Err(crate::r2::unavailable(1000.0)?)),
    }
}

#[event(fetch)]
async fn fetch(req: web_sys::Request, env: Env, ctx: Context) -> Result<web_sys::Response> {
    let headers = req.headers();
    let h: &NamedHeaders = headers.unchecked_ref();
    let serving = match pick(h, &env, &ctx).await? {
        Ok(s) => s,
        Err(response) => return Ok(response),
    };
    let endpoint = &serving.endpoint;
    let mut pending = Pending {
        method: req.method(),
        url: req.url(),
        headers: HEADER_NAMES.with(|names| names.each_ref().map(|n| h.get(n))),
        grant: Grant::PUBLIC,
        serving: serving.clone(),
    };
    if let Some(bearer) = serving.bearer() {
        let head = pending.head();
        let credential = CREDENTIAL_NAME.with(|n| {
            let n = n.get_or_init(|| JsValue::from_str(bearer.credential_header()));
            h.get(n)
        });
        let scheme = if pending.url.starts_with("http://") {
            "http"
        } else {
            "https"
        };
        let refused = |e: &TokenError| {
            auth::warn(&format!(
                "skills-edge: auth: 401 {} {}: {e} (reason {})",
                clip(head.method),
                clip(head.path),
                e.reason()
            ));
            bearer.refused(endpoint, &head, scheme, e)
        };
        let grant = match bearer.gate(endpoint, &head, credential.as_deref(), scheme) {
            Gate::Respond(r) => return Ok(into_platform(&serving, r)?.unchecked_into()),
            Gate::Anonymous => Grant::PUBLIC,
            Gate::Validate(value) => {
                let resource = bearer.resource(&head, scheme);
                match auth::authenticate(bearer, value, &resource).await {
                    TokenOutcome::Caller(scopes) => endpoint.responder().catalog().grant(&scopes),
                    TokenOutcome::Refused(e) => {
                        return Ok(into_platform(&serving, refused(&e))?.unchecked_into())
                    }
                    TokenOutcome::Unavailable(e) => {
                        auth::error(&format!(
                            "skills-edge: auth: 503 {} {}: {e} (reason {})",
                            clip(head.method),
                            clip(head.path),
                            e.reason()
                        ));
                        let r = bearer.unavailable(endpoint, &head, &e);
                        return Ok(into_platform(&serving, r)?.unchecked_into());
                    }
                }
            }
        };
        pending.grant = grant;
    } else if serving.behind_provider() {
        let context: &worker::worker_sys::Context = ctx.as_ref();
        if let Some(scopes) = provider_scopes(context.as_ref()) {
            pending.grant = endpoint.responder().catalog().grant(&scopes);
        }
    }
    let head = pending.head();
    let response = match endpoint.head(&head, pending.grant) {
        Step::Respond(r) => r,
        Step::Page {
            file,
            response,
            missing,
        } => {
            let assets = js_sys::Reflect::get(env.as_ref(), &JsValue::from_str("ASSETS"))
                .unwrap_or(JsValue::UNDEFINED);
            let init = make_init(&response)?;
            let missing_init = make_init(&missing)?;
            // A copy the promise owns (a view of wasm memory would not outlive the call).
            let body = js_sys::Uint8Array::from(missing.body.as_slice());
            let promise = page(&assets, file, &init, &body, &missing_init);
            return Ok(promise.unchecked_into());
        }
        Step::ReadBody { .. } if head.content_length.is_some() => {
            // The declared length is within the limit (checked by `head`), and the platform
            // delivers exactly that many bytes: read them in one piece and answer in the
            // continuation. The promise stands in for the response; the runtime awaits it.
            let Some(id) = park(pending) else {
                return Ok(into_platform(&serving, endpoint.overloaded())?.unchecked_into());
            };
            let promise = FINISH.with(|f| read_then(&req, id, f.as_ref()));
            return Ok(promise.unchecked_into());
        }
        Step::ReadBody { limit } => match read_chunked_body(&req, limit).await {
            Chunked::Complete(body) => endpoint.body(&head, &body, pending.grant),
            Chunked::TooLarge => endpoint.body_too_large(&head),
            Chunked::Unreadable => endpoint.body_unreadable(&head),
        },
    };
    Ok(into_platform(&serving, cache_rule(&serving, response))?.unchecked_into())
}
