//! The catalog from R2 (`CATALOG_SOURCE = "r2"`): the isolate keeps the decoded pack of the
//! catalog's current release and looks at the catalog's pointer at most once per
//! `CATALOG_REFRESH_MS`, in the background of a request. When the pointer names another
//! release, it opens the release with the keys of `CATALOG_TRUST`, checks that every asset the
//! release names is in the bucket with its length, fetches the pack, checks its length, its
//! SHA-256 and every record, and its signer (`Release::check_pack`), then installs it:
//! requests under way finish on the pack they started with, later ones get the new one. With
//! `CATALOGS`, each host name picks one catalog of the bucket, each with its own pointer, pack,
//! signer and refresh; a host no mapping names is answered 404. Any fault keeps the last good pack and is logged once per refresh; with no
//! good pack yet (a fresh isolate), a refused or missing pointer sends the isolate to the
//! catalog's history for the newest release that passes every check (`from_history`), and
//! only with none every request is answered 503 with `Retry-After`. A request costs one
//! clock read here; a switch costs one fetch of the pointer, one listing of the assets, one
//! fetch and one decode of the pack. docs/serving.md, "Update skills without redeploying",
//! describes the bucket's layout and the choices.

use crate::hosts::{self, HostPattern};

mod catalogs;
use crate::serving::{self, Serving};
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

/// One catalog of the bucket and what the isolate holds of it.
pub(crate) struct Tenant {
    catalog: String,
    trust: Vec<PublicKey>,
    /// Where `trust` came from (`CATALOG_TRUST`, or the catalog's own in `CATALOGS`), named
    /// in a refusal with its fix.
    trusted_by: String,
    /// Where its assets are read (the bucket under `ID/assets/`).
    assets: JsValue,
    /// When the pointer is looked at next (milliseconds since the epoch).
    next: Cell<f64>,
    /// The refresh under way, which a request without a pack waits for.
    inflight: RefCell<Option<js_sys::Promise>>,
    /// The pointer's bytes of the installed release, with its revision.
    served: RefCell<Option<(Vec<u8>, String)>>,
    /// The pointer's bytes last refused, with the reason (its pack is not fetched again).
    refused: RefCell<Option<(Vec<u8>, String)>>,
    /// What answers its requests.
    current: RefCell<Option<Rc<Serving>>>,
}

/// Which tenant each host pattern gets.
type Hosts = Vec<(HostPattern, usize)>;

/// The r2 mode's settings, read once.
struct Config {
    env: JsValue,
    bucket: JsValue,
    refresh_ms: f64,
    tenants: Vec<Rc<Tenant>>,
    /// `ALLOWED_HOSTS`, checked before a catalog is picked.
    allowed_hosts: skills_edge::http::HostList,
    /// `CATALOGS`: which tenant each host gets (the most specific pattern that names it);
    /// empty: every host gets the one tenant (`CATALOG_ID`).
    hosts: Hosts,
}

thread_local! {
    /// `None` until `configure` ran; then `Some(None)` in embedded mode.
    static CONFIG: RefCell<Option<Option<Rc<Config>>>> = const { RefCell::new(None) };
}

fn var(env: &JsValue, name: &str) -> Option<String> {
    let v = js_sys::Reflect::get(env, &JsValue::from_str(name)).ok()?;
    if v.is_undefined() || v.is_null() {
        return None;
    }
    v.as_string()
        .or_else(|| js_sys::JSON::stringify(&v).ok()?.as_string())
}

/// A var that holds JSON text (`CATALOGS`, `CATALOG_TRUST`): refused unless a string, because
/// a value given as an object (`wrangler.jsonc`, or a TOML table) was parsed by wrangler's own
/// reader first, which keeps the last of a key given twice without a word.
fn json_var(env: &JsValue, name: &str) -> std::result::Result<Option<String>, String> {
    let v = js_sys::Reflect::get(env, &JsValue::from_str(name)).unwrap_or_default();
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    v.as_string().map(Some).ok_or_else(|| {
        invalid(
            name,
            None,
            "it is not a string: wrangler read it as JSON or TOML itself, and such a reader keeps the last of a key given twice",
            "give it as one string of JSON text (in wrangler.toml a quoted string such as '{\"…\":…}', in wrangler.jsonc a JSON string)",
        )
    })
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

const TRUST_FIX: &str =
    "set it to the public key skills-edge keygen wrote (signing.pub), or a JWK Set of several";

fn tenant(
    bucket: &JsValue,
    catalog: String,
    trust: Vec<PublicKey>,
    trusted_by: String,
) -> Rc<Tenant> {
    Rc::new(Tenant {
        assets: r2_assets(bucket, &keys::assets(&catalog)),
        catalog,
        trust,
        trusted_by,
        next: Cell::new(0.0),
        inflight: RefCell::new(None),
        served: RefCell::new(None),
        refused: RefCell::new(None),
        current: RefCell::new(None),
    })
}

/// Whether `CATALOG_SOURCE` asks for r2 mode; `Err` for another value, and for `CATALOGS`
/// set without it.
fn wants_r2(env: &JsValue) -> std::result::Result<bool, String> {
    let source = var(env, "CATALOG_SOURCE");
    match source.as_deref() {
        None | Some("embedded") => {
            // CATALOGS routes hosts to catalogs of the bucket: set without r2 mode, every host
            // would get the embedded catalog, the opposite of what it says.
            if var(env, "CATALOGS").is_some() {
                return Err(invalid(
                    "CATALOGS",
                    None,
                    "it is set, but CATALOG_SOURCE is not \"r2\" (the Worker serves its embedded pack to every host)",
                    "set CATALOG_SOURCE = \"r2\" with its bucket and CATALOG_TRUST, or remove CATALOGS",
                ));
            }
            Ok(false)
        }
        Some("r2") => Ok(true),
        Some(other) => Err(invalid(
            "CATALOG_SOURCE",
            Some(other),
            "not a catalog source",
            "use \"embedded\" (the pack built into the Worker, the default) or \"r2\"",
        )),
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
    if !wants_r2(env)? {
        CONFIG.with(|c| *c.borrow_mut() = Some(None));
        return Ok(false);
    }
    let bucket = js_sys::Reflect::get(env, &JsValue::from_str(BINDING)).unwrap_or_default();
    if !is_bucket(&bucket) {
        return Err(format!(
            "CATALOG_SOURCE is \"r2\" but the Worker has no R2 binding {BINDING}; add [[r2_buckets]] binding = \"{BINDING}\" bucket_name = \"<your bucket>\" to wrangler.toml"
        ));
    }
    let trust = json_var(env, "CATALOG_TRUST")?
        .map(|t| {
            release::parse_trust(&t)
                .map_err(|e| invalid("CATALOG_TRUST", None, &e.to_string(), TRUST_FIX))
        })
        .transpose()?;
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
    let (tenants, hosts) = match json_var(env, "CATALOGS")? {
        Some(text) => {
            if var(env, "CATALOG_ID").is_some() {
                return Err(invalid(
                    "CATALOG_ID",
                    None,
                    "CATALOGS is set too",
                    "name every catalog in CATALOGS and remove CATALOG_ID",
                ));
            }
            catalogs::read(&text, &bucket, trust.as_deref())?
        }
        None => {
            let trust = trust.ok_or_else(|| invalid(
                "CATALOG_TRUST",
                None,
                "required with CATALOG_SOURCE r2: the Worker serves only packs signed by a key it trusts",
                TRUST_FIX,
            ))?;
            let catalog = var(env, "CATALOG_ID").unwrap_or_else(|| DEFAULT_CATALOG.to_owned());
            release::check_catalog_id(&catalog).map_err(|e| {
                invalid(
                    "CATALOG_ID",
                    Some(&catalog),
                    &e.to_string(),
                    "use the id given to skills-edge publish --catalog",
                )
            })?;
            (
                vec![tenant(&bucket, catalog, trust, "CATALOG_TRUST".to_owned())],
                Vec::new(),
            )
        }
    };
    let allowed_hosts = serving::allowed_hosts(env)?;
    let config = Config {
        allowed_hosts,
        env: env.clone(),
        bucket,
        refresh_ms,
        tenants,
        hosts,
    };
    CONFIG.with(|c| *c.borrow_mut() = Some(Some(Rc::new(config))));
    Ok(true)
}

fn config() -> Option<Rc<Config>> {
    CONFIG.with(|c| c.borrow().clone().flatten())
}

/// What answers a request to `host` in r2 mode: its catalog's current pack, after starting a
/// refresh when one is due (and waiting for it when the catalog has no pack yet). `Err` is the
/// response instead: 404 for a host `CATALOGS` does not name, 503 for a catalog with no good
/// pack yet.
pub(crate) async fn serving_for(
    host: Option<&str>,
    ctx: &Context,
) -> std::result::Result<Rc<Serving>, Result<web_sys::Response>> {
    let Some(cfg) = config() else {
        return Err(unavailable(1.0));
    };
    // ALLOWED_HOSTS first, as the endpoint checks it before anything else: a host it refuses
    // picks no catalog and starts no read of the bucket. Any installed pack's endpoint answers
    // it with that refusal, which names no catalog (the settings are the Worker's); with none
    // installed yet, the same status, code and message.
    if !host.is_some_and(|h| cfg.allowed_hosts.allows(h)) {
        return match any() {
            Some(serving) => Ok(serving),
            None => Err(forbidden(host)),
        };
    }
    let tenant = if cfg.hosts.is_empty() {
        cfg.tenants.first().cloned()
    } else {
        hosts::pick(&cfg.hosts, host.unwrap_or_default()).and_then(|i| cfg.tenants.get(i).cloned())
    };
    let Some(tenant) = tenant else {
        return Err(not_found());
    };
    ready(&cfg, &tenant, ctx).await;
    let current = tenant.current.borrow().clone();
    current.ok_or_else(|| unavailable(cfg.refresh_ms))
}

/// Any pack installed (for the overload answer of a request whose slot was taken).
pub(crate) fn any() -> Option<Rc<Serving>> {
    config()?
        .tenants
        .iter()
        .find_map(|t| t.current.borrow().clone())
}

/// Starts a refresh of `tenant` when one is due (in the background, under `ctx.waitUntil`),
/// and when it has no pack yet waits for the refresh under way.
async fn ready(cfg: &Rc<Config>, tenant: &Rc<Tenant>, ctx: &Context) {
    let now = js_sys::Date::now();
    let due = now >= tenant.next.get();
    if due {
        tenant.next.set(now + cfg.refresh_ms);
    }
    if due && tenant.inflight.borrow().is_none() {
        let (cfg, t) = (cfg.clone(), tenant.clone());
        let promise = future_to_promise(async move {
            refresh(&cfg, &t).await;
            *t.inflight.borrow_mut() = None;
            Ok(JsValue::UNDEFINED)
        });
        let context: &worker::worker_sys::Context = ctx.as_ref();
        let _ = context.wait_until(&promise);
        *tenant.inflight.borrow_mut() = Some(promise);
    }
    if tenant.current.borrow().is_none() {
        let inflight = tenant.inflight.borrow().clone();
        if let Some(p) = inflight {
            let _ = JsFuture::from(p).await;
        }
    }
}

/// One refresh: installs the pointer's release when it moved, or logs why not (once).
async fn refresh(cfg: &Config, t: &Tenant) {
    let served = t.served.borrow().as_ref().map(|(_, rev)| rev.clone());
    match load(cfg, t).await {
        Ok(Some(rev)) => {
            worker::console_log!("skills-edge: catalog {}: serving revision {rev}", t.catalog)
        }
        Ok(None) => {}
        Err(why) => {
            let kept = match served {
                Some(rev) => format!("kept revision {rev}"),
                None => "no good pack yet: its requests are answered 503".to_owned(),
            };
            worker::console_error!("skills-edge: catalog {}: {why}; {kept}", t.catalog)
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
async fn load(cfg: &Config, t: &Tenant) -> std::result::Result<Option<String>, String> {
    let pointer_key = keys::pointer(&t.catalog);
    let Some(pointer) = get(&cfg.bucket, &pointer_key).await? else {
        let why = format!(
            "the pointer {pointer_key} is missing (publish the catalog: skills-edge publish DIR --catalog {})",
            t.catalog
        );
        return from_history(cfg, t, why).await;
    };
    let same = t.current.borrow().is_some()
        && t.served
            .borrow()
            .as_ref()
            .is_some_and(|(p, _)| *p == pointer);
    if same {
        // Back on the served release (a rollback): a release refused before is tried again
        // when the pointer names it next, its objects may have been repaired since.
        *t.refused.borrow_mut() = None;
        return Ok(None);
    }
    let refused = t
        .refused
        .borrow()
        .as_ref()
        .filter(|(p, _)| *p == pointer)
        .map(|(_, why)| why.clone());
    if let Some(why) = refused {
        return from_history(cfg, t, why).await;
    }
    match install(cfg, t, &pointer).await {
        Ok(rev) => {
            *t.served.borrow_mut() = Some((pointer, rev.clone()));
            *t.refused.borrow_mut() = None;
            Ok(Some(rev))
        }
        // A refused release is not fetched again; one refused for an object of the bucket
        // (which publish --reupload, or a publish of the same folder, puts back without moving
        // the pointer) is looked at again by the next refresh; a failure to reach R2 is tried
        // again.
        Err((why, Fault::Release)) => {
            *t.refused.borrow_mut() = Some((pointer, why.clone()));
            from_history(cfg, t, why).await
        }
        Err((why, Fault::Object)) => from_history(cfg, t, why).await,
        Err((why, Fault::Unreachable)) => Err(why),
    }
}

/// How many of the history's newest entries a tenant with no good pack tries when the
/// pointer's release is refused: a bad publish, then a few more, is still recovered from,
/// and a cold start costs at most this many more fetches (each of a release, its asset
/// listing and its pack).
const HISTORY_DEPTH: usize = 8;

/// A tenant whose pointer is refused (`why`): with a good pack, keeps it (the error is
/// logged). With none (a fresh isolate after a bad publish), serves the newest release among
/// the last [`HISTORY_DEPTH`] entries of the catalog's history that passes every check of the
/// pointer's (`install`), so a bad publish never takes a working catalog down; the log says
/// why the pointer was refused and which revision is served instead. The history is not
/// signed, it only says where to look: each release found is opened with `CATALOG_TRUST`
/// like the pointer, so this serves nothing a rollback to a signed release could not.
async fn from_history(
    cfg: &Config,
    t: &Tenant,
    why: String,
) -> std::result::Result<Option<String>, String> {
    if t.current.borrow().is_some() {
        return Err(why);
    }
    let key = keys::history(&t.catalog);
    let history = match get(&cfg.bucket, &key).await {
        Ok(Some(bytes)) => release::parse_history(&bytes)
            .map_err(|e| format!("{why}; the history {key} is damaged ({e})"))?,
        Ok(None) => return Err(format!("{why}; no history {key} to fall back on")),
        Err(e) => return Err(format!("{why}; {e}")),
    };
    let mut tried = Vec::new();
    for e in history.iter().rev().take(HISTORY_DEPTH) {
        let release_key = keys::release(&t.catalog, &e.revision);
        let bytes = match get(&cfg.bucket, &release_key).await {
            Ok(Some(b)) => b,
            Ok(None) => {
                tried.push(format!("{release_key} is missing"));
                continue;
            }
            Err(e) => return Err(format!("{why}; {e}")),
        };
        match install(cfg, t, &bytes).await {
            Ok(rev) => {
                worker::console_error!(
                    "skills-edge: catalog {}: {why}; serving revision {rev} of the history instead (the newest of its last {HISTORY_DEPTH} that passes every check) until the pointer names a good release",
                    t.catalog
                );
                *t.served.borrow_mut() = Some((bytes, rev.clone()));
                return Ok(Some(rev));
            }
            Err((e, _)) => tried.push(e),
        }
    }
    Err(format!(
        "{why}; no release among the history's last {HISTORY_DEPTH} passes every check ({})",
        if tried.is_empty() {
            "the history is empty".to_owned()
        } else {
            tried.join("; ")
        }
    ))
}

/// Why `install` refused a release.
enum Fault {
    /// The release, or the pack it names by digest, is at fault: the same pointer is refused
    /// again, so it is not fetched again until the pointer moves.
    Release,
    /// An object of the bucket the release names is missing or of another length (an asset,
    /// the pack): a publish can put it back without moving the pointer.
    Object,
    /// R2 could not be read.
    Unreachable,
}

/// Opens, checks and installs the release `pointer`; the error says why not ([`Fault`]).
async fn install(
    cfg: &Config,
    t: &Tenant,
    pointer: &[u8],
) -> std::result::Result<String, (String, Fault)> {
    let bad = |why: String| (why, Fault::Release);
    let object = |why: String| (why, Fault::Object);
    let r = Release::open(pointer, &t.trust, &t.trusted_by, &t.catalog).map_err(|e| {
        bad(format!(
            "the pointer {} is refused: {e}",
            keys::pointer(&t.catalog)
        ))
    })?;
    if !r.assets.is_empty() {
        let prefix = keys::assets(&t.catalog);
        let sizes = JsFuture::from(r2_sizes(&cfg.bucket, &prefix, R2_DEADLINE_MS))
            .await
            .map_err(|e| {
                (
                    format!("R2 cannot be listed ({})", reason(e)),
                    Fault::Unreachable,
                )
            })?;
        let sizes: js_sys::Map = sizes.unchecked_into();
        for (name, len) in &r.assets {
            let key = format!("{prefix}{name}");
            match sizes.get(&JsValue::from_str(&key)).as_f64() {
                Some(n) if n == *len as f64 => {}
                Some(n) => {
                    // R2 gives sizes as whole numbers; written as an integer (an f64 would
                    // link core's float printer into the Worker for this one message).
                    return Err(object(format!(
                        "revision {}: the asset {key} is {} bytes, the release says {len} (the bucket was changed outside publish: publish again with --reupload)",
                        r.revision(),
                        n as u64
                    )));
                }
                None => {
                    return Err(object(format!(
                        "revision {}: the asset {key} is missing (the bucket was changed outside publish: publish again with --reupload)",
                        r.revision()
                    )))
                }
            }
        }
    }
    let pack_key = keys::pack(&t.catalog, r.revision());
    let pack = get(&cfg.bucket, &pack_key)
        .await
        .map_err(|e| (e, Fault::Unreachable))?
        .ok_or_else(|| {
            object(format!(
                "revision {}: the pack {pack_key} is missing (publish the folder again)",
                r.revision()
            ))
        })?;
    if pack.len() as u64 != r.size {
        // Truncated or replaced in the bucket: publish uploads the pack again.
        return Err(object(format!(
            "revision {}: the pack {pack_key} is {} bytes, the release says {} (truncated or replaced); publish the folder again",
            r.revision(),
            pack.len(),
            r.size
        )));
    }
    let catalog = r
        .check_pack(pack, &t.trust, &t.trusted_by)
        .map_err(|e| bad(format!("revision {}: {e}", r.revision())))?;
    let serving: Serving = serving::serve(&cfg.env, catalog, t.assets.clone()).map_err(bad)?;
    *t.current.borrow_mut() = Some(Rc::new(serving));
    Ok(r.revision().to_owned())
}

fn json_response(
    status: u16,
    extra: Option<(&str, String)>,
    body: &str,
) -> Result<web_sys::Response> {
    let headers = web_sys::Headers::new()?;
    headers.set("content-type", "application/json")?;
    headers.set("cache-control", "no-store")?;
    if let Some((name, value)) = extra {
        headers.set(name, &value)?;
    }
    let init = web_sys::ResponseInit::new();
    init.set_status(status);
    init.set_headers(&headers);
    Ok(web_sys::Response::new_with_opt_str_and_init(
        Some(body),
        &init,
    )?)
}

/// The answer for a catalog with no good pack yet: 503 with `Retry-After` (the refresh
/// interval, at least a second) and a JSON-RPC error body.
pub(crate) fn unavailable(refresh_ms: f64) -> Result<web_sys::Response> {
    // Whole seconds, written as an integer (refresh_ms is at most 86,400,000): formatting an
    // f64 would link the float printer into the Worker for this one header.
    let secs = (refresh_ms / 1000.0).ceil().max(1.0) as u64;
    json_response(
        503,
        Some(("retry-after", secs.to_string())),
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"the skills catalog is not available yet: no good pack could be loaded from R2 (the Worker's log says why); retry later"}}"#,
    )
}

/// The answer for a host `ALLOWED_HOSTS` refuses while no pack is installed: the endpoint's
/// refusal (403, `-32600`, its message).
fn forbidden(host: Option<&str>) -> Result<web_sys::Response> {
    let refusal = skills_edge::protocol::Refusal::Host {
        host: host.map(str::to_owned),
    };
    // The endpoint's own body for the refusal (protocol::reply::refusal), byte for byte.
    let body = skills_edge::protocol::reply::refusal(&refusal);
    json_response(refusal.status(), None, &String::from_utf8_lossy(&body))
}

/// The answer for a host `CATALOGS` does not name: 404, the same whatever the tenants.
fn not_found() -> Result<web_sys::Response> {
    json_response(
        404,
        None,
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"no skills catalog is served at this host"}}"#,
    )
}
