//! The catalog from R2 (`CATALOG_SOURCE = "r2"`): the isolate keeps the decoded pack of the
//! catalog's current release and looks at the catalog's pointer at most once per
//! `CATALOG_REFRESH_MS`, in the background of a request. When the pointer names another
//! release, it opens the release with the keys of `CATALOG_TRUST`, checks that every asset the
//! release names is in the bucket with its length, fetches the pack, checks its length, its
//! SHA-256 and every record, and its signer (`Release::check_pack`), then installs it
//! (`platform::install`): requests under way finish on the pack they started with, later ones
//! get the new one. Any fault keeps the last good pack and is logged once per refresh; with no
//! good pack at all, every request is answered 503 with `Retry-After`. A request costs one
//! clock read here; a switch costs one fetch of the pointer, one listing of the assets, one
//! fetch and one decode of the pack. docs/serving.md, "Update skills without redeploying",
//! describes the bucket's layout and the choices.

use crate::platform::{self, current, Serving};
use skills_edge::catalog::release::{self, keys, Release, DEFAULT_CATALOG};
use skills_edge::catalog::sign::PublicKey;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{future_to_promise, JsFuture};
use worker::{Context, Result};

/// How long one R2 operation (a get or one page of a listing) may take before the refresh
/// gives up and keeps the last good pack.
const R2_DEADLINE_MS: f64 = 10_000.0;

/// `CATALOG_REFRESH_MS` when unset: see docs/settings.md for the reasoning.
const DEFAULT_REFRESH_MS: f64 = 60_000.0;

/// The name of the R2 binding holding the catalogs.
const BINDING: &str = "CATALOG_BUCKET";

#[wasm_bindgen(inline_js = r#"
function bounded(promise, ms, what) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
export function r2_get(bucket, key, ms) {
  return bounded((async () => {
    const o = await bucket.get(key);
    return o === null ? null : new Uint8Array(await o.arrayBuffer());
  })(), ms, `R2 (get ${key})`);
}
export async function r2_sizes(bucket, prefix, ms) {
  const sizes = new Map();
  let cursor;
  for (;;) {
    const page = await bounded(bucket.list({ prefix, cursor, limit: 1000 }), ms, `R2 (list ${prefix})`);
    for (const o of page.objects) sizes.set(o.key, o.size);
    if (!page.truncated) return sizes;
    cursor = page.cursor;
  }
}
export function r2_assets(bucket, prefix) {
  const origin = "https://assets.invalid/";
  return {
    async fetch(url) {
      const o = await bucket.get(prefix + String(url).slice(origin.length));
      return o === null ? new Response(null, { status: 404 }) : new Response(o.body, { status: 200 });
    },
  };
}
export function is_bucket(b) { return b !== null && typeof b === "object" && typeof b.get === "function" && typeof b.list === "function"; }
"#)]
extern "C" {
    /// The object `key`'s bytes, `null` when there is none; rejects on a failure or after `ms`.
    #[wasm_bindgen(catch)]
    fn r2_get(
        bucket: &JsValue,
        key: &str,
        ms: f64,
    ) -> std::result::Result<js_sys::Promise, JsValue>;
    /// A `Map` of every object name under `prefix` to its length.
    fn r2_sizes(bucket: &JsValue, prefix: &str, ms: f64) -> js_sys::Promise;
    /// An object whose `fetch(url)` answers the asset named by the URL's last segment from the
    /// bucket under `prefix` (200, or 404 when missing), as the `ASSETS` binding does.
    fn r2_assets(bucket: &JsValue, prefix: &str) -> JsValue;
    /// Whether `b` looks like an R2 bucket binding.
    fn is_bucket(b: &JsValue) -> bool;
}

/// The r2 mode's settings, read once.
struct Config {
    env: JsValue,
    bucket: JsValue,
    catalog: String,
    trust: Vec<PublicKey>,
    refresh_ms: f64,
}

thread_local! {
    /// `None` until `configure` ran; then `Some(None)` in embedded mode.
    static CONFIG: RefCell<Option<Option<Rc<Config>>>> = const { RefCell::new(None) };
    /// When the pointer is looked at next (milliseconds since the epoch).
    static NEXT: Cell<f64> = const { Cell::new(0.0) };
    /// The refresh under way, which a request without a pack waits for.
    static INFLIGHT: RefCell<Option<js_sys::Promise>> = const { RefCell::new(None) };
    /// The pointer's bytes of the installed release.
    static SERVED: RefCell<Option<(Vec<u8>, String)>> = const { RefCell::new(None) };
    /// The pointer's bytes last refused, with the reason (its pack is not fetched again).
    static REFUSED: RefCell<Option<(Vec<u8>, String)>> = const { RefCell::new(None) };
}

fn var(env: &JsValue, name: &str) -> Option<String> {
    let v = js_sys::Reflect::get(env, &JsValue::from_str(name)).ok()?;
    if v.is_undefined() || v.is_null() {
        return None;
    }
    v.as_string()
        .or_else(|| js_sys::JSON::stringify(&v).ok()?.as_string())
}

fn invalid(name: &str, value: Option<&str>, problem: &str, fix: &str) -> String {
    match value {
        Some(v) => format!(
            "configuration variable {name} is invalid: {} ({problem}); {fix}",
            skills_edge::protocol::clip(v)
        ),
        None => format!("configuration variable {name} is invalid ({problem}); {fix}"),
    }
}

/// Reads the r2 mode's settings from `env` (once; later calls return what the first decided):
/// `Ok(false)` in embedded mode, `Ok(true)` in r2 mode, `Err` naming the variable, its value
/// and the fix. `CATALOG_TRUST` is never echoed (a secret key pasted there would reach the
/// log).
pub(crate) fn configure(env: &JsValue) -> std::result::Result<bool, String> {
    if let Some(decided) = CONFIG.with(|c| c.borrow().as_ref().map(Option::is_some)) {
        return Ok(decided);
    }
    let source = var(env, "CATALOG_SOURCE");
    match source.as_deref() {
        None | Some("embedded") => {
            CONFIG.with(|c| *c.borrow_mut() = Some(None));
            return Ok(false);
        }
        Some("r2") => {}
        Some(other) => {
            return Err(invalid(
                "CATALOG_SOURCE",
                Some(other),
                "not a catalog source",
                "use \"embedded\" (the pack built into the Worker, the default) or \"r2\"",
            ))
        }
    }
    let bucket = js_sys::Reflect::get(env, &JsValue::from_str(BINDING)).unwrap_or_default();
    if !is_bucket(&bucket) {
        return Err(format!(
            "CATALOG_SOURCE is \"r2\" but the Worker has no R2 binding {BINDING}; add [[r2_buckets]] binding = \"{BINDING}\" bucket_name = \"<your bucket>\" to wrangler.toml"
        ));
    }
    let trust = match var(env, "CATALOG_TRUST") {
        None => return Err(invalid(
            "CATALOG_TRUST",
            None,
            "required with CATALOG_SOURCE r2: the Worker serves only packs signed by a key it trusts",
            "set it to the public key skills-edge keygen wrote (signing.pub), or a JWK Set of several",
        )),
        Some(t) => release::parse_trust(&t).map_err(|e| {
            invalid(
                "CATALOG_TRUST",
                None,
                &e,
                "set it to the public key skills-edge keygen wrote (signing.pub), or a JWK Set of several",
            )
        })?,
    };
    let refresh_ms = match var(env, "CATALOG_REFRESH_MS") {
        None => DEFAULT_REFRESH_MS,
        Some(v) => match v.parse::<u32>() {
            Ok(n) if (100..=86_400_000).contains(&n) => f64::from(n),
            _ => {
                return Err(invalid(
                    "CATALOG_REFRESH_MS",
                    Some(&v),
                    "not an integer from 100 to 86400000",
                    "give milliseconds, such as 60000",
                ))
            }
        },
    };
    let catalog = var(env, "CATALOG_ID").unwrap_or_else(|| DEFAULT_CATALOG.to_owned());
    release::check_catalog_id(&catalog).map_err(|e| {
        invalid(
            "CATALOG_ID",
            Some(&catalog),
            &e,
            "use the id given to skills-edge publish --catalog",
        )
    })?;
    platform::set_assets(r2_assets(&bucket, &keys::assets(&catalog)));
    let config = Config {
        env: env.clone(),
        bucket,
        catalog,
        trust,
        refresh_ms,
    };
    CONFIG.with(|c| *c.borrow_mut() = Some(Some(Rc::new(config))));
    Ok(true)
}

fn config() -> Option<Rc<Config>> {
    CONFIG.with(|c| c.borrow().clone().flatten())
}

/// Before a request in r2 mode: starts a refresh when one is due (in the background, under
/// `ctx.waitUntil`), and when no pack is installed yet waits for the refresh under way.
pub(crate) async fn ready(ctx: &Context) {
    let Some(cfg) = config() else { return };
    let now = js_sys::Date::now();
    let due = NEXT.with(|n| {
        let due = now >= n.get();
        if due {
            n.set(now + cfg.refresh_ms);
        }
        due
    });
    if due && INFLIGHT.with(|i| i.borrow().is_none()) {
        let promise = future_to_promise(async move {
            refresh(&cfg).await;
            INFLIGHT.with(|i| *i.borrow_mut() = None);
            Ok(JsValue::UNDEFINED)
        });
        let context: &worker::worker_sys::Context = ctx.as_ref();
        let _ = context.wait_until(&promise);
        INFLIGHT.with(|i| *i.borrow_mut() = Some(promise));
    }
    if current().is_none() {
        if let Some(p) = INFLIGHT.with(|i| i.borrow().clone()) {
            let _ = JsFuture::from(p).await;
        }
    }
}

/// One refresh: installs the pointer's release when it moved, or logs why not (once).
async fn refresh(cfg: &Config) {
    let served = SERVED.with(|s| s.borrow().as_ref().map(|(_, rev)| rev.clone()));
    match load(cfg).await {
        Ok(Some(rev)) => worker::console_log!(
            "skills-edge: catalog {}: serving revision {rev}",
            cfg.catalog
        ),
        Ok(None) => {}
        Err(why) => {
            let kept = match served {
                Some(rev) => format!("kept revision {rev}"),
                None => "no good pack yet: every request is answered 503".to_owned(),
            };
            worker::console_error!("skills-edge: catalog {}: {why}; {kept}", cfg.catalog)
        }
    }
}

fn reason(e: JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "an unknown failure".to_owned())
}

async fn get(bucket: &JsValue, key: &str) -> std::result::Result<Option<Vec<u8>>, String> {
    let promise = r2_get(bucket, key, R2_DEADLINE_MS).map_err(reason)?;
    let v = JsFuture::from(promise)
        .await
        .map_err(|e| format!("R2 cannot be read ({})", reason(e)))?;
    if v.is_null() {
        return Ok(None);
    }
    Ok(Some(js_sys::Uint8Array::new(&v).to_vec()))
}

/// Fetches and installs the release the pointer names; `Ok(None)` when it is the one served.
async fn load(cfg: &Config) -> std::result::Result<Option<String>, String> {
    let pointer_key = keys::pointer(&cfg.catalog);
    let pointer = get(&cfg.bucket, &pointer_key).await?.ok_or_else(|| {
        format!("the pointer {pointer_key} is missing (publish the catalog: skills-edge publish DIR --catalog {})", cfg.catalog)
    })?;
    if current().is_some()
        && SERVED.with(|s| s.borrow().as_ref().is_some_and(|(p, _)| *p == pointer))
    {
        return Ok(None);
    }
    if let Some(why) = REFUSED.with(|r| {
        r.borrow()
            .as_ref()
            .filter(|(p, _)| *p == pointer)
            .map(|(_, why)| why.clone())
    }) {
        return Err(why);
    }
    let result = install(cfg, &pointer).await;
    match &result {
        Ok(rev) => {
            SERVED.with(|s| *s.borrow_mut() = Some((pointer, rev.clone())));
            REFUSED.with(|r| *r.borrow_mut() = None);
        }
        // A failure to reach R2 is tried again; a refused release is not fetched again.
        Err((why, true)) => REFUSED.with(|r| *r.borrow_mut() = Some((pointer, why.clone()))),
        Err(_) => {}
    }
    result.map(Some).map_err(|(why, _)| why)
}

/// Opens, checks and installs the release `pointer`; the error says whether the release
/// itself is at fault (`true`) or R2 could not be read (`false`).
async fn install(cfg: &Config, pointer: &[u8]) -> std::result::Result<String, (String, bool)> {
    let bad = |why: String| (why, true);
    let r = Release::open(pointer, &cfg.trust, &cfg.catalog).map_err(|e| {
        bad(format!(
            "the pointer {} is refused: {e}",
            keys::pointer(&cfg.catalog)
        ))
    })?;
    if !r.assets.is_empty() {
        let prefix = keys::assets(&cfg.catalog);
        let sizes = JsFuture::from(r2_sizes(&cfg.bucket, &prefix, R2_DEADLINE_MS))
            .await
            .map_err(|e| (format!("R2 cannot be listed ({})", reason(e)), false))?;
        let sizes: js_sys::Map = sizes.unchecked_into();
        for (name, len) in &r.assets {
            let key = format!("{prefix}{name}");
            match sizes.get(&JsValue::from_str(&key)).as_f64() {
                Some(n) if n == *len as f64 => {}
                Some(n) => {
                    return Err(bad(format!(
                        "revision {}: the asset {key} is {n} bytes, the release says {len}",
                        r.revision()
                    )))
                }
                None => {
                    return Err(bad(format!(
                        "revision {}: the asset {key} is missing",
                        r.revision()
                    )))
                }
            }
        }
    }
    let pack_key = keys::pack(&cfg.catalog, r.revision());
    let pack = get(&cfg.bucket, &pack_key)
        .await
        .map_err(|e| (e, false))?
        .ok_or_else(|| {
            bad(format!(
                "revision {}: the pack {pack_key} is missing",
                r.revision()
            ))
        })?;
    let catalog = r
        .check_pack(pack, &cfg.trust)
        .map_err(|e| bad(format!("revision {}: {e}", r.revision())))?;
    let serving: Serving = platform::serve(&cfg.env, catalog).map_err(bad)?;
    platform::install(serving);
    Ok(r.revision().to_owned())
}

/// The answer while no good pack was ever installed: 503 with `Retry-After` (the refresh
/// interval, at least a second) and a JSON-RPC error body.
pub(crate) fn unavailable() -> Result<web_sys::Response> {
    let secs = config().map_or(1.0, |c| (c.refresh_ms / 1000.0).ceil().max(1.0));
    let headers = web_sys::Headers::new()?;
    headers.set("content-type", "application/json")?;
    headers.set("retry-after", &format!("{secs}"))?;
    headers.set("cache-control", "no-store")?;
    let init = web_sys::ResponseInit::new();
    init.set_status(503);
    init.set_headers(&headers);
    let body = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"the skills catalog is not available yet: no good pack could be loaded from R2 (the Worker's log says why); retry later"}}"#;
    Ok(web_sys::Response::new_with_opt_str_and_init(
        Some(body),
        &init,
    )?)
}
