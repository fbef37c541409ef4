//! The Worker's side of authentication (`AUTH_MODE` `jwt` and `access`): the I/O the
//! library's sans-I/O token path ([`Authenticator`]) leaves to it.
//!
//! - One [`Authenticator`] per isolate holds the key set, the tokens already verified and the
//!   key set URL found in the issuer's metadata.
//! - A refresh ([`TokenStep::Refresh`]) fetches with `fetch`, within a time bound
//!   (`AbortSignal.timeout`, which also ends a body that trickles) and a size bound (at most
//!   [`KeyFetch::max_bytes`] bytes are kept; the read stops past them). Concurrent requests
//!   share one refresh: the first starts it as a promise, the others await the same promise
//!   ([`TokenStep::Wait`]), each wait bounded by a fetch's time (a refresh whose request went
//!   away may never settle it), then ask again.
//! - Signatures: ES256 and RS256 with WebCrypto (`crypto.subtle.verify`; imported keys are
//!   kept by their JWK: [`TokenStep::Verify`]); Ed25519 is checked in the library: WebCrypto
//!   adds nothing to the wasm, and Ed25519 in Rust is a synchronous call.
//!
//! Every refusal is logged with its reason and message (`console.warn` for a 401, the
//! caller's problem; `console.error` for a failed key set fetch and a 503, the server's),
//! which never hold the token or its claims beyond the reason (`TokenError`'s rules).

use std::cell::RefCell;

use skills_edge::http::{Authenticator, Bearer, KeyFetch, KeySetError, TokenOutcome, TokenStep};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen(inline_js = r#"
export async function fetch_bounded(url, timeoutMs, maxBytes) {
  const signal = AbortSignal.timeout(timeoutMs);
  let res;
  try {
    res = await fetch(url, { headers: { accept: "application/json" }, signal });
  } catch (e) {
    const why = e && (e.name === "TimeoutError" || e.name === "AbortError")
      ? `no answer within ${timeoutMs} ms` : String((e && e.message) || e);
    return { error: `${url}: ${why}` };
  }
  if (res.status !== 200) {
    try { await res.body?.cancel(); } catch {}
    return { error: `${url}: HTTP status ${res.status}` };
  }
  const declared = Number(res.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    try { await res.body?.cancel(); } catch {}
    return { tooLarge: declared };
  }
  const chunks = [];
  let total = 0;
  try {
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        try { await reader.cancel(); } catch {}
        return { tooLarge: total };
      }
      chunks.push(value);
    }
  } catch (e) {
    const why = e && (e.name === "TimeoutError" || e.name === "AbortError")
      ? `the body did not arrive within ${timeoutMs} ms` : `the body could not be read: ${(e && e.message) || e}`;
    return { error: `${url}: ${why}` };
  }
  const body = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) { body.set(c, at); at += c.byteLength; }
  return { body };
}
const imported = new Map();
export async function verify_signature(alg, jwk, message, signature) {
  const params = alg === "ES256"
    ? { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" }
    : { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" };
  try {
    let key = imported.get(jwk);
    if (key === undefined) {
      if (imported.size >= 128) imported.clear();
      key = await crypto.subtle.importKey("jwk", JSON.parse(jwk), params, false, ["verify"]);
      imported.set(jwk, key);
    }
    return await crypto.subtle.verify(params, key, signature, message);
  } catch (e) {
    console.error(`skills-edge: auth: a ${alg} key could not be used: ${(e && e.message) || e}`);
    return false;
  }
}
export function within(promise, ms) {
  const timer = new Promise((resolve) => setTimeout(resolve, ms));
  return promise ? Promise.race([promise, timer]) : timer;
}
export function warn(line) { console.warn(line); }
export function error(line) { console.error(line); }
"#)]
extern "C" {
    /// `fetch(url)` within `timeout_ms`, keeping at most `max_bytes` of the body: resolves
    /// `{ body }` (a `Uint8Array`), `{ tooLarge }` (the length seen) or `{ error }`.
    fn fetch_bounded(url: &str, timeout_ms: f64, max_bytes: f64) -> js_sys::Promise;
    /// `crypto.subtle.verify` of an ES256 or RS256 signature with the key `jwk` (a JWK's JSON
    /// text); resolves `false` when the key cannot be imported.
    fn verify_signature(
        alg: &str,
        jwk: &str,
        message: &js_sys::Uint8Array,
        signature: &js_sys::Uint8Array,
    ) -> js_sys::Promise;
    /// `promise` (the refresh under way, if any) or `ms` milliseconds, whichever ends first.
    fn within(promise: Option<js_sys::Promise>, ms: f64) -> js_sys::Promise;
    /// `console.warn`: a refused caller (401).
    pub fn warn(line: &str);
    /// `console.error`: the server's own problem (no key set: 503).
    pub fn error(line: &str);
}

thread_local! {
    /// The token path's state: the key set, the tokens already verified, the discovered URL.
    static AUTH: RefCell<Authenticator> = RefCell::new(Authenticator::default());
    /// The refresh under way, which concurrent requests await, with its number.
    static REFRESH: RefCell<Option<(u64, js_sys::Promise)>> = const { RefCell::new(None) };
    /// The number of the last refresh started.
    static REFRESHES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The time in seconds since the epoch.
fn now() -> u64 {
    (js_sys::Date::now() / 1000.0) as u64
}

/// Validates the `credential` (the header's value) for a request to `resource` (this
/// server's `/mcp` URL as the request names it).
pub async fn authenticate(
    bearer: &std::rc::Rc<Bearer>,
    credential: &str,
    resource: &str,
) -> TokenOutcome {
    let mut check = AUTH.with(|a| a.borrow().check(credential, resource));
    loop {
        match AUTH.with(|a| a.borrow_mut().step(bearer, &mut check, now())) {
            TokenStep::Done(outcome) => return outcome,
            TokenStep::Refresh(first) => {
                let n = REFRESHES.with(|c| {
                    c.set(c.get() + 1);
                    c.get()
                });
                let promise =
                    wasm_bindgen_futures::future_to_promise(refresh(bearer.clone(), first, n));
                REFRESH.with(|r| *r.borrow_mut() = Some((n, promise.clone())));
                let _ = JsFuture::from(promise).await;
            }
            TokenStep::Wait { timeout_ms } => {
                // Bounded: a refresh whose request went away may never settle its promise.
                let refresh = REFRESH.with(|r| r.borrow().as_ref().map(|(_, p)| p.clone()));
                let _ = JsFuture::from(within(refresh, timeout_ms as f64)).await;
            }
            TokenStep::Verify(signature) => {
                let promise = verify_signature(
                    signature.alg,
                    &signature.jwk,
                    &js_sys::Uint8Array::from(signature.message.as_slice()),
                    &js_sys::Uint8Array::from(signature.signature.as_slice()),
                );
                let verified = JsFuture::from(promise)
                    .await
                    .ok()
                    .and_then(|v| v.as_bool())
                    .unwrap_or(false);
                return AUTH.with(|a| a.borrow_mut().verified(signature, verified));
            }
        }
    }
}

/// Runs a refresh: each fetch's result goes to the [`Authenticator`], which names the next
/// (the promise concurrent requests share).
async fn refresh(bearer: std::rc::Rc<Bearer>, first: KeyFetch, n: u64) -> Result<JsValue, JsValue> {
    let mut next = Some(first);
    while let Some(fetch) = next {
        let body = fetch_bytes(&fetch).await;
        match AUTH.with(|a| a.borrow_mut().fetched(&bearer, fetch, body, now())) {
            Ok(n) => next = n,
            Err(e) => {
                error(&format!(
                    "skills-edge: auth: {e} (reason {}; the held key set, if any, stays in use for its time)",
                    e.reason()
                ));
                next = None;
            }
        }
    }
    // A newer refresh (this one went quiet past its time) keeps its own promise.
    REFRESH.with(|r| {
        let mut r = r.borrow_mut();
        if r.as_ref().is_some_and(|(m, _)| *m == n) {
            *r = None;
        }
    });
    Ok(JsValue::UNDEFINED)
}

/// One bounded fetch.
async fn fetch_bytes(fetch: &KeyFetch) -> Result<Vec<u8>, KeySetError> {
    let url = &fetch.url;
    let fail = |what: String| KeySetError::Fetch { what };
    let r = JsFuture::from(fetch_bounded(
        url,
        fetch.timeout_ms as f64,
        fetch.max_bytes as f64,
    ))
    .await
    .map_err(|e| fail(format!("{url}: {}", e.as_string().unwrap_or_default())))?;
    let get = |name: &str| js_sys::Reflect::get(&r, &JsValue::from_str(name)).unwrap_or_default();
    if let Some(e) = get("error").as_string() {
        return Err(fail(e));
    }
    if let Some(len) = get("tooLarge").as_f64() {
        return Err(KeySetError::TooLarge {
            what: fetch.what,
            len: len as usize,
            max: fetch.max_bytes,
        });
    }
    let body = get("body");
    if body.is_instance_of::<js_sys::Uint8Array>() {
        Ok(js_sys::Uint8Array::new(&body).to_vec())
    } else {
        Err(fail(format!("{url}: no body")))
    }
}
