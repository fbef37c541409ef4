//! The Worker's side of authentication (`AUTH_MODE` `jwt` and `access`): the I/O the
//! library's sans-I/O core leaves to it.
//!
//! - The key set is fetched with `fetch`, within a time bound (`AbortSignal.timeout`, which
//!   also ends a body that trickles) and a size bound (at most
//!   [`KeyCachePolicy::max_body_bytes`] bytes are kept; the read stops past them), when
//!   [`KeyCache`] says so. Concurrent requests share one fetch: the first starts it as a
//!   promise, the others await the same promise ([`Plan::Wait`]).
//! - Without `AUTH_JWKS_URL`, `jwt` finds the key set's URL in the issuer's metadata
//!   ([`KeySource::Discover`]), once, and again after a key set fetch fails.
//! - Signatures: ES256 and RS256 with WebCrypto (`crypto.subtle.verify`; imported keys are
//!   kept by their JWK), Ed25519 in Rust ([`Ed25519Verifier`]): WebCrypto adds nothing to the
//!   wasm, and Ed25519 in Rust is a synchronous call.
//! - A verified token is remembered ([`TokenCache`]) until it expires, or until the key set
//!   changes.
//!
//! Every refusal is logged with its reason and message (`console.warn` for a 401, the
//! caller's problem; `console.error` for a failed key set fetch and a 503, the server's),
//! which never hold the token or its claims beyond the reason (`TokenError`'s rules).

use std::cell::RefCell;

use skills_edge::auth::{
    jwks_uri, Algorithm, Ed25519Verifier, KeyCache, KeyCachePolicy, KeySetError, Plan,
    SignatureVerifier, Token, TokenCache, TokenError, DEFAULT_TOKEN_CACHE_ENTRIES,
    MAX_METADATA_BYTES,
};
use skills_edge::http::{Bearer, KeySource};
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
    /// `console.warn`: a refused caller (401).
    pub fn warn(line: &str);
    /// `console.error`: the server's own problem (no key set: 503).
    pub fn error(line: &str);
}

thread_local! {
    /// The issuer's key set and when to fetch it again.
    static KEYS: RefCell<KeyCache> = RefCell::new(KeyCache::new(KeyCachePolicy::default()));
    /// Tokens already verified.
    static TOKENS: RefCell<TokenCache> = RefCell::new(TokenCache::new(DEFAULT_TOKEN_CACHE_ENTRIES));
    /// The fetch under way, which concurrent requests await.
    static REFRESH: RefCell<Option<js_sys::Promise>> = const { RefCell::new(None) };
    /// The key set URL found in the issuer's metadata.
    static DISCOVERED: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// The time in seconds since the epoch.
fn now() -> u64 {
    (js_sys::Date::now() / 1000.0) as u64
}

/// What a request's token stands for.
pub enum Outcome {
    /// A valid token: the caller's scopes.
    Caller(Vec<String>),
    /// Answer 401 (`error="invalid_token"`).
    Refused(TokenError),
    /// Answer 503: no key set can be had.
    Unavailable(KeySetError),
}

/// Validates the `credential` (the header's value) for a request to `resource` (this
/// server's `/mcp` URL as the request names it). A token already validated is found by its
/// digest before anything in it is decoded.
pub async fn authenticate(
    bearer: &std::rc::Rc<Bearer>,
    credential: &str,
    resource: &str,
) -> Outcome {
    let key = bearer.cache_key(credential, resource);
    let t = now();
    let epoch = KEYS.with(|k| k.borrow().epoch());
    if let Some(key) = &key {
        let remembered = TOKENS.with(|c| {
            c.borrow()
                .get(key, t, epoch)
                .map(|caller| caller.scopes.clone())
        });
        if let Some(scopes) = remembered {
            return Outcome::Caller(scopes);
        }
    }
    let token = match Token::parse(credential) {
        Ok(token) => token,
        Err(e) => return Outcome::Refused(e),
    };
    let token = &token;
    match KEYS.with(|k| k.borrow_mut().plan(t, token.kid())) {
        Plan::Fetch => {
            let promise = wasm_bindgen_futures::future_to_promise(refresh(bearer.clone()));
            REFRESH.with(|r| *r.borrow_mut() = Some(promise.clone()));
            let _ = JsFuture::from(promise).await;
        }
        Plan::Wait => {
            if let Some(promise) = REFRESH.with(|r| r.borrow().clone()) {
                let _ = JsFuture::from(promise).await;
            }
        }
        Plan::Use | Plan::Unavailable => {}
    }
    let t = now();
    let prepared = KEYS.with(|k| {
        let k = k.borrow();
        let epoch = k.epoch();
        match k.keys(t) {
            Err(e) => Err(Outcome::Unavailable(e)),
            Ok(keys) => bearer
                .prepare(token, keys, t, resource)
                .map(|check| (check.detach(), epoch))
                .map_err(Outcome::Refused),
        }
    });
    let (check, epoch) = match prepared {
        Ok(p) => p,
        Err(outcome) => return outcome,
    };
    let verified = match check.alg {
        Algorithm::EdDsa => Ed25519Verifier
            .verify(check.alg, &check.key, &check.message, &check.signature)
            .unwrap_or(false),
        Algorithm::Es256 | Algorithm::Rs256 => {
            let promise = verify_signature(
                check.alg.as_str(),
                &check.key.to_jwk(),
                &js_sys::Uint8Array::from(check.message.as_slice()),
                &js_sys::Uint8Array::from(check.signature.as_slice()),
            );
            JsFuture::from(promise)
                .await
                .ok()
                .and_then(|v| v.as_bool())
                .unwrap_or(false)
        }
    };
    match check.finish(verified) {
        Ok(caller) => {
            let scopes = caller.scopes.clone();
            if let Some(key) = key {
                TOKENS.with(|c| c.borrow_mut().insert(key, caller, epoch));
            }
            Outcome::Caller(scopes)
        }
        Err(e) => Outcome::Refused(e),
    }
}

/// Fetches the key set and reports it to the cache (the promise concurrent requests share).
async fn refresh(bearer: std::rc::Rc<Bearer>) -> Result<JsValue, JsValue> {
    let policy = KEYS.with(|k| *k.borrow().policy());
    let fetched = fetch_key_set(&bearer, &policy).await;
    let t = now();
    let result = KEYS.with(|k| {
        let mut k = k.borrow_mut();
        match fetched {
            Ok(body) => k.store(t, &body),
            Err(e) => {
                k.failed(e.clone());
                Err(e)
            }
        }
    });
    if let Err(e) = result {
        error(&format!(
            "skills-edge: auth: {e} (reason {}; the held key set, if any, stays in use for its time)",
            e.reason()
        ));
        DISCOVERED.with(|d| *d.borrow_mut() = None);
    }
    REFRESH.with(|r| *r.borrow_mut() = None);
    Ok(JsValue::UNDEFINED)
}

/// The key set's bytes, from its configured URL or the one the issuer's metadata names.
async fn fetch_key_set(bearer: &Bearer, policy: &KeyCachePolicy) -> Result<Vec<u8>, KeySetError> {
    let url = match bearer.key_source() {
        KeySource::Url(url) => url.clone(),
        KeySource::Discover(urls) => match DISCOVERED.with(|d| d.borrow().clone()) {
            Some(url) => url,
            None => {
                let url = discover(bearer, urls, policy).await?;
                DISCOVERED.with(|d| *d.borrow_mut() = Some(url.clone()));
                url
            }
        },
    };
    fetch_bytes(
        &url,
        policy.fetch_timeout_ms,
        policy.max_body_bytes,
        "key set",
    )
    .await
}

/// The `jwks_uri` of the first of the issuer's metadata documents that can be read and is
/// the issuer's own.
async fn discover(
    bearer: &Bearer,
    urls: &[String],
    policy: &KeyCachePolicy,
) -> Result<String, KeySetError> {
    let mut last = KeySetError::NotYet;
    for url in urls {
        let found = fetch_bytes(
            url,
            policy.fetch_timeout_ms,
            MAX_METADATA_BYTES,
            "authorization server metadata",
        )
        .await
        .and_then(|body| jwks_uri(&body, bearer.issuer()));
        match found {
            Ok(uri) => return Ok(uri),
            Err(e) => last = e,
        }
    }
    Err(last)
}

/// One bounded fetch.
async fn fetch_bytes(
    url: &str,
    timeout_ms: u64,
    max: usize,
    what: &'static str,
) -> Result<Vec<u8>, KeySetError> {
    let fail = |what: String| KeySetError::Fetch { what };
    let r = JsFuture::from(fetch_bounded(url, timeout_ms as f64, max as f64))
        .await
        .map_err(|e| fail(format!("{url}: {}", e.as_string().unwrap_or_default())))?;
    let get = |name: &str| js_sys::Reflect::get(&r, &JsValue::from_str(name)).unwrap_or_default();
    if let Some(e) = get("error").as_string() {
        return Err(fail(e));
    }
    if let Some(len) = get("tooLarge").as_f64() {
        return Err(KeySetError::TooLarge {
            what,
            len: len as usize,
            max,
        });
    }
    let body = get("body");
    if body.is_instance_of::<js_sys::Uint8Array>() {
        Ok(js_sys::Uint8Array::new(&body).to_vec())
    } else {
        Err(fail(format!("{url}: no body")))
    }
}
