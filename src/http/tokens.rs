//! The token path of `AUTH_MODE` `jwt` and `access`, sans-I/O: what one isolate keeps between
//! requests (the issuer's key set, the tokens already verified, the key set URL found in the
//! issuer's metadata) and the steps of one request's token, with the two kinds of I/O left to
//! the adapter: a bounded `GET` ([`KeyFetch`]) and, for ES256 and RS256, a signature check by the
//! platform (WebCrypto: [`TokenStep::Verify`]). EdDSA is checked here.
//!
//! ```text
//! let mut check = auth.check(credential, &resource);
//! let outcome = loop {
//!     match auth.step(&bearer, &mut check, now()) {
//!         TokenStep::Done(outcome) => break outcome,
//!         TokenStep::Refresh(first) => { run the refresh (below), shared with later requests }
//!         TokenStep::Wait { timeout_ms } => { wait for the refresh under way, at most timeout_ms }
//!         TokenStep::Verify(signature) => { let ok = verify(&signature); break auth.verified(signature, ok) }
//!     }
//! };
//! // the refresh: each fetch's bytes (or its failure) go to `fetched`, which names the next
//! let mut next = Some(first);
//! while let Some(fetch) = next { next = auth.fetched(&bearer, fetch, get(&fetch), now())?; }
//! ```
//!
//! The rules of the steps are [`crate::auth`]'s: the key cache decides when a fetch is due (at
//! most one attempt per interval, whatever asks: an unknown `kid`, an old set, a failure), a
//! refresh under way makes later requests wait for it rather than fetch again, and a token is
//! found among those already verified by its digest, before anything in it is decoded.

use super::bearer::{Bearer, KeySource};
use crate::auth::{
    jwks_uri, Algorithm, DetachedCheck, Ed25519Verifier, KeyCache, KeyCachePolicy, KeySetError,
    Plan, SignatureVerifier as _, Token, TokenCache, TokenError, DEFAULT_TOKEN_CACHE_ENTRIES,
    MAX_METADATA_BYTES,
};

/// What one isolate keeps for the token path: the issuer's key set and when to fetch it
/// again, the tokens already verified (until they expire or the key set changes), and the key
/// set URL read from the issuer's metadata (found again after a failed refresh).
///
/// The adapter keeps one per isolate (the Worker: in a `thread_local`) and lends it to each
/// step; no step holds it across an `await`.
///
/// ```
/// use skills_edge::http::{Authenticator, AuthMode, Bearer, BearerConfig, TokenOutcome, TokenStep};
/// # use base64::Engine as _;
/// # let b64 = |b: &[u8]| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(b);
/// # let pair = ed25519_compact::KeyPair::from_seed(ed25519_compact::Seed::new([1; 32]));
/// # let jwks = format!(r#"{{"keys":[{{"kty":"OKP","crv":"Ed25519","kid":"k1","x":"{}"}}]}}"#, b64(&pair.pk[..]));
/// # let input = format!("{}.{}", b64(br#"{"alg":"EdDSA","kid":"k1","typ":"at+jwt"}"#),
/// #     b64(br#"{"iss":"https://as.example","aud":"https://rs.example/mcp","sub":"alice",
/// #             "client_id":"c","jti":"j","iat":1000,"exp":2000,"scope":"skills:read"}"#));
/// # let credential = format!("Bearer {input}.{}", b64(&pair.sk.sign(&input, None)[..]));
/// let bearer = Bearer::new(BearerConfig {
///     mode: AuthMode::Jwt,
///     issuer: Some("https://as.example".into()),
///     jwks_url: Some("https://as.example/jwks.json".into()),
///     ..BearerConfig::default()
/// })
/// .unwrap()
/// .unwrap();
/// let mut auth = Authenticator::default();
/// let mut check = auth.check(&credential, "https://rs.example/mcp");
/// // No key set yet: fetch it.
/// let TokenStep::Refresh(fetch) = auth.step(&bearer, &mut check, 1500) else { panic!() };
/// assert_eq!(fetch.url, "https://as.example/jwks.json");
/// // A second request meanwhile waits for that fetch.
/// let mut other = auth.check(&credential, "https://rs.example/mcp");
/// assert!(matches!(auth.step(&bearer, &mut other, 1500), TokenStep::Wait { .. }));
/// assert!(auth.fetched(&bearer, fetch, Ok(jwks.into_bytes()), 1500).unwrap().is_none());
/// let TokenStep::Done(TokenOutcome::Caller(scopes)) = auth.step(&bearer, &mut check, 1500) else { panic!() };
/// assert_eq!(scopes, ["skills:read"]);
/// // Expired (past `exp` and the minute of leeway), under the same keys: refused (401).
/// let mut late = auth.check(&credential, "https://rs.example/mcp");
/// let TokenStep::Done(TokenOutcome::Refused(e)) = auth.step(&bearer, &mut late, 2090) else { panic!() };
/// assert_eq!(e.reason(), "expired");
/// ```
#[derive(Debug)]
pub struct Authenticator {
    keys: KeyCache,
    tokens: TokenCache,
    discovered: Option<String>,
    /// The refresh under way, or the last one: a report of an older one is stale.
    refresh: u64,
}

impl Default for Authenticator {
    fn default() -> Self {
        Authenticator {
            keys: KeyCache::new(KeyCachePolicy::default()),
            tokens: TokenCache::new(DEFAULT_TOKEN_CACHE_ENTRIES),
            discovered: None,
            refresh: 0,
        }
    }
}

/// One request's token on its way through [`Authenticator::step`]: the credential as sent
/// (the value of [`Bearer::credential_header`]) and the request's resource
/// ([`Bearer::resource`]).
///
/// ```
/// use skills_edge::http::{Authenticator, AuthMode, Bearer, BearerConfig, TokenOutcome, TokenStep};
/// let bearer = Bearer::new(BearerConfig {
///     mode: AuthMode::Jwt,
///     issuer: Some("https://as.example".into()),
///     jwks_url: Some("https://as.example/jwks.json".into()),
///     ..BearerConfig::default()
/// })
/// .unwrap()
/// .unwrap();
/// let mut auth = Authenticator::default();
/// // A credential that is no JWS is refused at its first step, before any fetch.
/// let mut check = auth.check("Bearer not-a-token", "https://rs.example/mcp");
/// let TokenStep::Done(TokenOutcome::Refused(e)) = auth.step(&bearer, &mut check, 1500) else { panic!() };
/// assert_eq!((e.reason(), e.status()), ("malformed", 401));
/// ```
#[derive(Debug)]
pub struct TokenCheck {
    credential: String,
    resource: String,
    state: State,
}

#[derive(Debug)]
enum State {
    /// Not looked at yet.
    New,
    /// Read; this request's refresh ran, so the next step validates with what is held,
    /// without asking again.
    Refreshed(Token),
    /// Read; another request's refresh was under way, so the next step asks again.
    Waited(Token),
    /// Answered (or handed to the platform to verify).
    Spent,
}

/// What the adapter does next for a request's token.
///
/// The Worker's loop, with the I/O as closures (`get` for a bounded `GET`, `verify` for
/// WebCrypto) and no other request under way:
///
/// ```
/// use skills_edge::http::{Authenticator, Bearer, KeyFetch, KeySetError, TokenCheck, TokenOutcome, TokenStep};
/// fn answer(
///     auth: &mut Authenticator,
///     bearer: &Bearer,
///     mut check: TokenCheck,
///     now: u64,
///     get: impl Fn(&KeyFetch) -> Result<Vec<u8>, KeySetError>,
///     verify: impl Fn(&str, &str, &[u8], &[u8]) -> bool,
/// ) -> TokenOutcome {
///     loop {
///         match auth.step(bearer, &mut check, now) {
///             TokenStep::Done(outcome) => return outcome,
///             TokenStep::Refresh(first) => {
///                 let mut next = Some(first);
///                 while let Some(fetch) = next {
///                     let body = get(&fetch);
///                     // An error ends the refresh (the Worker logs it); the next step says 503.
///                     next = auth.fetched(bearer, fetch, body, now).unwrap_or(None);
///                 }
///             }
///             TokenStep::Wait { .. } => unreachable!("no other request"),
///             TokenStep::Verify(s) => {
///                 let ok = verify(s.alg, &s.jwk, &s.message, &s.signature);
///                 return auth.verified(s, ok);
///             }
///         }
///     }
/// }
/// # use skills_edge::http::{AuthMode, BearerConfig};
/// # let bearer = Bearer::new(BearerConfig { mode: AuthMode::Jwt, issuer: Some("https://as.example".into()),
/// #     jwks_url: Some("https://as.example/jwks.json".into()), ..BearerConfig::default() }).unwrap().unwrap();
/// let mut auth = Authenticator::default();
/// # let fx: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(
/// #     concat!(env!("CARGO_MANIFEST_DIR"), "/tests/auth/fixtures.json")).unwrap()).unwrap();
/// # let credential = &format!("Bearer {}", fx["tokens"]["es256"].as_str().unwrap());
/// let check = auth.check(credential, "https://rs.example/mcp");
/// // The issuer is down: no key set can be had, 503.
/// let down = |f: &KeyFetch| Err(KeySetError::Fetch { what: format!("{}: HTTP status 502", f.url) });
/// let TokenOutcome::Unavailable(e) = answer(&mut auth, &bearer, check, 1500, down, |_, _, _, _| false) else { panic!() };
/// assert_eq!(e.reason(), "fetch");
/// ```
#[derive(Debug)]
pub enum TokenStep {
    /// The answer: the caller's scopes, a refusal (401) or no key set (503).
    Done(TokenOutcome),
    /// A fetch of the key set is due (none is held, the held one is older than its
    /// `max_age`, or it lacks the token's `kid`) and none is under way: run this refresh
    /// (each fetch's result to [`Authenticator::fetched`], until it names no next fetch), let
    /// later requests wait for it, then step again.
    Refresh(KeyFetch),
    /// Another request's refresh is under way: wait for it, at most `timeout_ms` (a fetch's
    /// time), then step again (which waits again while that refresh goes on, and answers
    /// once it is over or has gone quiet).
    Wait {
        /// The longest wait, in milliseconds.
        timeout_ms: u64,
    },
    /// Check this ES256 or RS256 signature (WebCrypto), then give the answer to
    /// [`Authenticator::verified`].
    Verify(PendingSignature),
}

/// What a request's token stands for, and the adapter's answer: the catalog's grant for the
/// caller's scopes, [`Bearer::refused`] or [`Bearer::unavailable`].
///
/// ```
/// use skills_edge::catalog::Grant;
/// use skills_edge::http::{AuthMode, Bearer, BearerConfig, Endpoint, Head, HttpConfig, Response, TokenOutcome};
/// let endpoint = Endpoint::new(skills_edge::embedded::catalog().unwrap(), HttpConfig::default()).unwrap();
/// let bearer = Bearer::new(BearerConfig { mode: AuthMode::Jwt, issuer: Some("https://as.example".into()),
///     ..BearerConfig::default() }).unwrap().unwrap();
/// let head = Head { method: "POST", path: "/mcp", host: Some("localhost"), ..Head::default() };
/// let answer = |outcome: TokenOutcome| -> Result<Grant, Response> {
///     match outcome {
///         TokenOutcome::Caller(scopes) => Ok(endpoint.responder().catalog().grant(&scopes)),
///         TokenOutcome::Refused(e) => Err(bearer.refused(&endpoint, &head, "http", &e)),
///         TokenOutcome::Unavailable(e) => Err(bearer.unavailable(&endpoint, &head, &e)),
///     }
/// };
/// assert!(answer(TokenOutcome::Caller(vec!["skills:read".into()])).is_ok());
/// let refused = answer(TokenOutcome::Refused(skills_edge::http::TokenError::Signature)).unwrap_err();
/// assert_eq!(refused.status, 401);
/// assert!(refused.header("www-authenticate").unwrap().contains(r#"error="invalid_token""#));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenOutcome {
    /// A valid token: the caller's scopes, for the catalog's grant.
    Caller(Vec<String>),
    /// Answer [`Bearer::refused`] (401: `error="invalid_token"`, or no error code for
    /// [`TokenError::Scheme`]).
    Refused(TokenError),
    /// Answer [`Bearer::unavailable`] (503): no key set can be had.
    Unavailable(KeySetError),
}

/// One bounded `GET` of a refresh: the issuer's metadata (RFC 8414, to find its key set) or
/// the key set. The adapter reads at most `max_bytes` of the body (past that, it reports
/// [`KeySetError::TooLarge`] with `what`) and gives up after `timeout_ms`
/// ([`KeySetError::Fetch`]).
///
/// Without a configured key set URL, a refresh reads the issuer's metadata first (RFC 8414),
/// then the key set it names:
///
/// ```
/// use skills_edge::http::{Authenticator, AuthMode, Bearer, BearerConfig, TokenStep};
/// let bearer = Bearer::new(BearerConfig { mode: AuthMode::Jwt, issuer: Some("https://as.example".into()),
///     ..BearerConfig::default() }).unwrap().unwrap();
/// let mut auth = Authenticator::default();
/// # let fx: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(
/// #     concat!(env!("CARGO_MANIFEST_DIR"), "/tests/auth/fixtures.json")).unwrap()).unwrap();
/// # let credential = &format!("Bearer {}", fx["tokens"]["es256"].as_str().unwrap());
/// let mut check = auth.check(credential, "https://rs.example/mcp");
/// let TokenStep::Refresh(fetch) = auth.step(&bearer, &mut check, 1500) else { panic!() };
/// assert_eq!((fetch.url.as_str(), fetch.what), ("https://as.example/.well-known/oauth-authorization-server", "authorization server metadata"));
/// let metadata = br#"{"issuer":"https://as.example","jwks_uri":"https://as.example/keys"}"#.to_vec();
/// let next = auth.fetched(&bearer, fetch, Ok(metadata), 1500).unwrap().unwrap();
/// assert_eq!((next.url.as_str(), next.what), ("https://as.example/keys", "key set"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyFetch {
    /// The URL.
    pub url: String,
    /// The most bytes of the body to read.
    pub max_bytes: usize,
    /// The time the fetch is given, in milliseconds.
    pub timeout_ms: u64,
    /// What is fetched, for messages: `"key set"` or `"authorization server metadata"`.
    pub what: &'static str,
    /// For metadata: the index of `url` among the metadata URLs tried in turn.
    metadata: Option<usize>,
    /// The refresh it belongs to.
    refresh: u64,
}

/// A signature for the platform to check ([`TokenStep::Verify`]).
///
/// ```
/// use skills_edge::http::{Authenticator, AuthMode, Bearer, BearerConfig, TokenError, TokenOutcome, TokenStep};
/// # let fx: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(
/// #     concat!(env!("CARGO_MANIFEST_DIR"), "/tests/auth/fixtures.json")).unwrap()).unwrap();
/// # let (es256_token, jwks) = (format!("Bearer {}", fx["tokens"]["es256"].as_str().unwrap()), fx["jwks"].to_string());
/// let bearer = Bearer::new(BearerConfig {
///     mode: AuthMode::Jwt,
///     issuer: Some("https://as.example".into()),
///     audiences: vec!["https://rs.example/mcp".into()],
///     jwks_url: Some("https://as.example/jwks.json".into()),
///     ..BearerConfig::default()
/// })
/// .unwrap()
/// .unwrap();
/// let now = 1_700_000_010;
/// let mut auth = Authenticator::default();
/// let mut check = auth.check(&es256_token, "https://rs.example/mcp");
/// let TokenStep::Refresh(fetch) = auth.step(&bearer, &mut check, now) else { panic!() };
/// auth.fetched(&bearer, fetch, Ok(jwks.into_bytes()), now).unwrap();
/// let TokenStep::Verify(signature) = auth.step(&bearer, &mut check, now) else { panic!() };
/// assert_eq!(signature.alg, "ES256");
/// assert!(signature.jwk.contains(r#""crv":"P-256""#));
/// // The platform's verdict decides: here, refused.
/// assert_eq!(auth.verified(signature, false), TokenOutcome::Refused(TokenError::Signature));
/// ```
#[derive(Debug)]
pub struct PendingSignature {
    /// `"ES256"` or `"RS256"`.
    pub alg: &'static str,
    /// The key, as a JWK's JSON text (for `crypto.subtle.importKey("jwk", …)`).
    pub jwk: String,
    /// The signed bytes (`header.payload`, ASCII).
    pub message: Vec<u8>,
    /// The signature, as the token carries it (ES256: `r || s`, the form WebCrypto takes).
    pub signature: Vec<u8>,
    /// The check and where to remember its caller, boxed: a step stays small.
    pending: Box<(DetachedCheck, Remember)>,
}

/// Where a verified token's caller is remembered: its cache key and the key set's epoch.
type Remember = Option<([u8; 32], u64)>;

impl Authenticator {
    /// A check of `credential` (the value of [`Bearer::credential_header`]) for a request to
    /// `resource` ([`Bearer::resource`]). Nothing is read until [`Authenticator::step`].
    pub fn check(&self, credential: &str, resource: &str) -> TokenCheck {
        TokenCheck {
            credential: credential.to_owned(),
            resource: resource.to_owned(),
            state: State::New,
        }
    }

    /// The next step of `check` at `now` (seconds since the epoch).
    ///
    /// The first step finds a token already verified (by its digest), or reads it and asks
    /// the key cache whether a fetch is due ([`TokenStep::Refresh`], [`TokenStep::Wait`]). Once the key
    /// set was asked for, a step validates with the key set held: every claim, then the
    /// signature, here for EdDSA, by the platform for ES256 and RS256.
    pub fn step(&mut self, bearer: &Bearer, check: &mut TokenCheck, now: u64) -> TokenStep {
        let token = match std::mem::replace(&mut check.state, State::Spent) {
            // Stepped again after its answer: refused, never a grant.
            State::Spent => return TokenStep::Done(TokenOutcome::Refused(TokenError::Signature)),
            // After its own refresh: validated with what is held, without asking again.
            State::Refreshed(token) => token,
            // After waiting for another request's refresh: asked again, so a refresh still
            // under way is waited for again, and one that went quiet is not.
            State::Waited(token) => match self.plan(bearer, check, token, now) {
                Ok(token) => token,
                Err(step) => return step,
            },
            State::New => {
                // In the `Authorization` header only `Bearer <token>` is read (RFC 6750 §2.1),
                // before the remembered tokens are looked at.
                if bearer.scheme_required() && !has_bearer_scheme(&check.credential) {
                    return TokenStep::Done(TokenOutcome::Refused(TokenError::Scheme));
                }
                // A remembered token answers as a full validation would, so only under a key
                // set that is not due for a refresh.
                let key = bearer.cache_key(&check.credential, &check.resource);
                let remembered = key
                    .filter(|_| self.keys.fresh(now))
                    .and_then(|k| self.tokens.get(&k, now, self.keys.epoch()));
                if let Some(caller) = remembered {
                    return TokenStep::Done(TokenOutcome::Caller(caller.scopes.clone()));
                }
                let token = match Token::parse(&check.credential) {
                    Ok(token) => token,
                    Err(e) => return TokenStep::Done(TokenOutcome::Refused(e)),
                };
                match self.plan(bearer, check, token, now) {
                    Ok(token) => token,
                    Err(step) => return step,
                }
            }
        };
        let epoch = self.keys.epoch();
        let detached = match self.keys.keys(now) {
            Err(e) => return TokenStep::Done(TokenOutcome::Unavailable(e)),
            Ok(keys) => match bearer.prepare(&token, keys, now, &check.resource) {
                Ok(c) => c.detach(),
                Err(e) => return TokenStep::Done(TokenOutcome::Refused(e)),
            },
        };
        let remember = bearer
            .cache_key(&check.credential, &check.resource)
            .map(|k| (k, epoch));
        let alg = match detached.alg {
            Algorithm::EdDsa => {
                let ok = Ed25519Verifier
                    .verify(
                        detached.alg,
                        &detached.key,
                        &detached.message,
                        &detached.signature,
                    )
                    .unwrap_or(false);
                return TokenStep::Done(self.finish(detached, remember, ok));
            }
            Algorithm::Es256 => "ES256",
            Algorithm::Rs256 => "RS256",
        };
        TokenStep::Verify(PendingSignature {
            alg,
            jwk: detached.key.to_jwk(),
            message: detached.message.clone(),
            signature: detached.signature.clone(),
            pending: Box::new((detached, remember)),
        })
    }

    /// The outcome of a [`TokenStep::Verify`]: `verified` is the platform's answer (`false` too
    /// when the key could not be imported).
    pub fn verified(&mut self, signature: PendingSignature, verified: bool) -> TokenOutcome {
        let (check, remember) = *signature.pending;
        self.finish(check, remember, verified)
    }

    /// Reports the result of `fetch` at `now`: its body, or why there is none. Returns the
    /// next fetch of the refresh (the key set once the metadata named it; the next metadata
    /// URL after one that failed), `None` when the refresh is over and the key set stored,
    /// or the error that ended it (the key set held before, if any, stays in use for its
    /// time; the adapter logs the error). The report of a refresh that a newer one replaced
    /// (it went quiet past its time) is dropped: `None`.
    pub fn fetched(
        &mut self,
        bearer: &Bearer,
        fetch: KeyFetch,
        body: Result<Vec<u8>, KeySetError>,
        now: u64,
    ) -> Result<Option<KeyFetch>, KeySetError> {
        // A refresh that went quiet was followed by a newer one: its late report would end
        // the newer one's time under way, so it is dropped.
        if fetch.refresh != self.refresh {
            return Ok(None);
        }
        let result = match (fetch.metadata, body) {
            (Some(i), body) => match body.and_then(|b| jwks_uri(&b, bearer.issuer())) {
                Ok(url) => {
                    self.discovered = Some(url);
                    self.keys.continuing(now);
                    return Ok(self.first_fetch(bearer));
                }
                Err(e) => match self.metadata_fetch(bearer, i + 1) {
                    Some(next) => {
                        self.keys.continuing(now);
                        return Ok(Some(next));
                    }
                    None => Err(e),
                },
            },
            (None, Ok(body)) => self.keys.store(now, &body),
            (None, Err(e)) => Err(e),
        };
        if let Err(e) = &result {
            self.keys.failed(e.clone());
            self.discovered = None;
        }
        result.map(|()| None)
    }

    /// Asks the key cache what to do for `token`: `Ok` to validate now, or the step that
    /// comes first (a refresh, a wait).
    fn plan(
        &mut self,
        bearer: &Bearer,
        check: &mut TokenCheck,
        token: Token,
        now: u64,
    ) -> Result<Token, TokenStep> {
        match self.keys.plan(now, token.kid()) {
            Plan::Fetch => match self.start_refresh(bearer) {
                Some(fetch) => {
                    check.state = State::Refreshed(token);
                    Err(TokenStep::Refresh(fetch))
                }
                // Nowhere to fetch from (no metadata URL): the attempt fails at once.
                None => {
                    self.keys.failed(KeySetError::Fetch {
                        what: "no URL to fetch the key set from".into(),
                    });
                    Ok(token)
                }
            },
            Plan::Wait => {
                check.state = State::Waited(token);
                Err(TokenStep::Wait {
                    timeout_ms: self.keys.policy().fetch_timeout_ms,
                })
            }
            Plan::Use | Plan::Unavailable => Ok(token),
        }
    }

    /// Starts a refresh (a newer one than any before): its first fetch.
    fn start_refresh(&mut self, bearer: &Bearer) -> Option<KeyFetch> {
        self.refresh += 1;
        self.first_fetch(bearer)
    }

    /// The first fetch of a refresh: the key set when its URL is known, else the issuer's
    /// first metadata URL.
    fn first_fetch(&self, bearer: &Bearer) -> Option<KeyFetch> {
        let url = match (bearer.key_source(), &self.discovered) {
            (KeySource::Url(url), _) | (KeySource::Discover(_), Some(url)) => url.clone(),
            (KeySource::Discover(_), None) => return self.metadata_fetch(bearer, 0),
        };
        let policy = self.keys.policy();
        Some(KeyFetch {
            url,
            max_bytes: policy.max_body_bytes,
            timeout_ms: policy.fetch_timeout_ms,
            what: "key set",
            metadata: None,
            refresh: self.refresh,
        })
    }

    /// The fetch of the issuer's `i`th metadata URL, if there is one.
    fn metadata_fetch(&self, bearer: &Bearer, i: usize) -> Option<KeyFetch> {
        let KeySource::Discover(urls) = bearer.key_source() else {
            return None;
        };
        Some(KeyFetch {
            url: urls.get(i)?.clone(),
            max_bytes: MAX_METADATA_BYTES,
            timeout_ms: self.keys.policy().fetch_timeout_ms,
            what: "authorization server metadata",
            metadata: Some(i),
            refresh: self.refresh,
        })
    }

    /// The caller of a checked signature, remembered under its key when verified.
    fn finish(&mut self, check: DetachedCheck, remember: Remember, verified: bool) -> TokenOutcome {
        match check.finish(verified) {
            Ok(caller) => {
                let scopes = caller.scopes.clone();
                if let Some((key, epoch)) = remember {
                    self.tokens.insert(key, caller, epoch);
                }
                TokenOutcome::Caller(scopes)
            }
            Err(e) => TokenOutcome::Refused(e),
        }
    }
}

/// Whether `credential` is `Bearer <token>` (the scheme without regard to case, RFC 9110
/// §11.1), not a bare token or another scheme.
fn has_bearer_scheme(credential: &str) -> bool {
    credential
        .split_once(' ')
        .is_some_and(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
}
