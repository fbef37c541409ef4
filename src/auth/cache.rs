//! What is kept between requests, as policy without I/O: the issuer's key set with the time
//! it was fetched ([`KeyCache`]: when to fetch, when to give up), and the tokens already
//! verified ([`TokenCache`]: a repeated request does no signature work).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::error::KeySetError;
use super::jwk::{KeySet, MAX_KEY_SET_BYTES};
use super::validate::Caller;

/// When the key set is fetched again, and the bounds the I/O layer applies to a fetch.
///
/// ```
/// use skills_edge::auth::{KeyCache, KeyCachePolicy, Plan};
/// # let jwks = br#"{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"k1","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}]}"#;
/// let policy = KeyCachePolicy { max_age: 300, ..KeyCachePolicy::default() };
/// assert_eq!((policy.refetch_interval, policy.max_stale), (60, 3600));
/// let mut cache = KeyCache::new(policy);
/// assert_eq!(cache.plan(0, None), Plan::Fetch);
/// cache.store(0, jwks).unwrap();
/// assert_eq!(cache.plan(299, None), Plan::Use);
/// // Older than `max_age`: fetched again.
/// assert_eq!(cache.plan(300, None), Plan::Fetch);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyCachePolicy {
    /// Seconds a fetched key set is used before it is fetched again (default 600). Issuers
    /// publish a new key ahead of using it and keep the old one after (Cloudflare Access keeps
    /// a rotated key valid for 7 days), so ten minutes picks up a rotation long before it
    /// matters.
    pub max_age: u64,
    /// The least number of seconds between two fetch attempts (default 60), whatever asks
    /// for them: a token naming a `kid` the set lacks, an expired set, a failed fetch. A flood
    /// of tokens with made-up `kid`s costs the issuer one request a minute.
    pub refetch_interval: u64,
    /// Seconds past `max_age` a key set is still used while fetches fail (default 3600):
    /// an issuer's brief outage does not lock everyone out, a long one ends in 503.
    pub max_stale: u64,
    /// The largest response body the I/O layer reads (default `MAX_KEY_SET_BYTES`); it
    /// stops reading past it and reports [`KeySetError::TooLarge`].
    pub max_body_bytes: usize,
    /// The time the I/O layer gives one fetch, in milliseconds (default 5000); a fetch
    /// reported neither stored nor failed after this long no longer holds back new
    /// attempts.
    pub fetch_timeout_ms: u64,
}

impl Default for KeyCachePolicy {
    fn default() -> Self {
        KeyCachePolicy {
            max_age: 600,
            refetch_interval: 60,
            max_stale: 3600,
            max_body_bytes: MAX_KEY_SET_BYTES,
            fetch_timeout_ms: 5000,
        }
    }
}

/// What the I/O layer does before validating a token.
///
/// ```
/// use skills_edge::auth::{KeyCache, KeyCachePolicy, KeySetError, Plan};
/// let mut cache = KeyCache::new(KeyCachePolicy::default());
/// assert_eq!(cache.plan(1000, Some("k1")), Plan::Fetch);
/// // While that fetch is under way, another request waits for it.
/// assert_eq!(cache.plan(1001, Some("k1")), Plan::Wait);
/// cache.failed(KeySetError::Fetch { what: "HTTP 500".into() });
/// // No key set, and the next attempt is not due: 503.
/// assert_eq!(cache.plan(1002, Some("k1")), Plan::Unavailable);
/// assert_eq!(cache.keys(1002).unwrap_err().reason(), "fetch");
/// assert_eq!(cache.plan(1060, Some("k1")), Plan::Fetch);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plan {
    /// Validate with [`KeyCache::keys`] now.
    Use,
    /// Fetch the key set (within [`KeyCachePolicy::fetch_timeout_ms`] and
    /// [`KeyCachePolicy::max_body_bytes`]), then report it with [`KeyCache::store`] or
    /// [`KeyCache::failed`], then ask [`KeyCache::keys`]. The attempt is already counted: a
    /// plan asked meanwhile does not fetch again.
    Fetch,
    /// A fetch is under way and no usable key set is held: wait for that fetch (an I/O layer
    /// that cannot share it answers 503).
    Wait,
    /// No usable key set, and the next fetch is not due: answer 503 with
    /// [`KeyCache::keys`]'s error.
    Unavailable,
}

/// The issuer's key set, when it was fetched, and when the next fetch may happen. One per
/// issuer, kept for the life of the process (a Worker isolate).
///
/// For each request: [`KeyCache::plan`] with the token's `kid`; on [`Plan::Fetch`] fetch and
/// [`KeyCache::store`] (or [`KeyCache::failed`]); then [`KeyCache::keys`] gives the set, or
/// the [`KeySetError`] to answer 503 with.
///
/// ```
/// use skills_edge::auth::{KeyCache, KeyCachePolicy, Plan};
/// # let jwks = br#"{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"k1","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}]}"#;
/// let mut cache = KeyCache::new(KeyCachePolicy::default());
/// assert_eq!(cache.plan(1000, Some("k1")), Plan::Fetch);
/// cache.store(1000, jwks).unwrap(); // the body the I/O layer fetched
/// assert_eq!(cache.plan(1001, Some("k1")), Plan::Use);
/// assert_eq!(cache.keys(1001).unwrap().keys()[0].kid.as_deref(), Some("k1"));
/// // A `kid` the set lacks asks for a fetch, at most once per refetch interval.
/// assert_eq!(cache.plan(1030, Some("k2")), Plan::Use);
/// assert_eq!(cache.plan(1060, Some("k2")), Plan::Fetch);
/// ```
#[derive(Debug, Clone)]
pub struct KeyCache {
    policy: KeyCachePolicy,
    held: Option<(KeySet, u64)>,
    last_attempt: Option<u64>,
    in_flight: Option<u64>,
    last_error: Option<KeySetError>,
    epoch: u64,
}

impl KeyCache {
    /// An empty cache.
    pub fn new(policy: KeyCachePolicy) -> KeyCache {
        KeyCache {
            policy,
            held: None,
            last_attempt: None,
            in_flight: None,
            last_error: None,
            epoch: 0,
        }
    }

    /// The policy.
    pub fn policy(&self) -> &KeyCachePolicy {
        &self.policy
    }

    /// What to do for a token naming `kid` at `now` (seconds since the epoch).
    ///
    /// A fetch is asked for when no key set is held, when the held one is older than
    /// [`KeyCachePolicy::max_age`], or when the token names a `kid` the held set has no
    /// usable key for; and only when no fetch is under way and the last attempt is at least
    /// [`KeyCachePolicy::refetch_interval`] old. Otherwise the held set is used if it is
    /// usable (not older than `max_age + max_stale`): a token with an unknown `kid` is then
    /// refused by the validator without a fetch.
    pub fn plan(&mut self, now: u64, kid: Option<&str>) -> Plan {
        let timeout = self.policy.fetch_timeout_ms.div_ceil(1000);
        // Strictly after: `now` and the start are whole seconds, so the mark lasts at least
        // the fetch's time.
        if self
            .in_flight
            .is_some_and(|started| now > started.saturating_add(timeout))
        {
            self.in_flight = None;
        }
        let needs = match &self.held {
            None => true,
            Some((set, at)) => now >= at.saturating_add(self.policy.max_age) || !set.knows(kid),
        };
        let due = self.in_flight.is_none()
            && self
                .last_attempt
                .is_none_or(|t| now >= t.saturating_add(self.policy.refetch_interval));
        if needs && due {
            self.last_attempt = Some(now);
            self.in_flight = Some(now);
            return Plan::Fetch;
        }
        if self.usable(now) {
            Plan::Use
        } else if self.in_flight.is_some() {
            Plan::Wait
        } else {
            Plan::Unavailable
        }
    }

    /// Reports a fetched key set document: read with [`KeySet::parse`] (a body over
    /// [`KeyCachePolicy::max_body_bytes`] is refused too). A set that reads replaces the
    /// held one; one that does not is a failed fetch ([`KeyCache::failed`]) and the error is
    /// returned for the log.
    pub fn store(&mut self, now: u64, body: &[u8]) -> Result<(), KeySetError> {
        let parsed = if body.len() > self.policy.max_body_bytes {
            Err(KeySetError::TooLarge {
                what: "key set",
                len: body.len(),
                max: self.policy.max_body_bytes,
            })
        } else {
            KeySet::parse(body)
        };
        match parsed {
            Ok(set) => {
                self.in_flight = None;
                self.last_error = None;
                if self.held.as_ref().is_none_or(|(old, _)| *old != set) {
                    self.epoch += 1;
                }
                self.held = Some((set, now));
                Ok(())
            }
            Err(e) => {
                self.failed(e.clone());
                Err(e)
            }
        }
    }

    /// Reports that a refresh goes on with another fetch (after the issuer's metadata, its
    /// key set; after a metadata URL that failed, the next): the refresh stays under way, for
    /// that fetch's time, so requests keep waiting for it.
    pub(crate) fn continuing(&mut self, now: u64) {
        self.in_flight = Some(now);
    }

    /// Whether the held key set is younger than [`KeyCachePolicy::max_age`]: what a remembered
    /// token needs ([`TokenCache`]), since an older set is due for a refresh (and, while
    /// fetches fail, usable only until `max_age + max_stale`), which a full validation asks for.
    pub(crate) fn fresh(&self, now: u64) -> bool {
        self.held
            .as_ref()
            .is_some_and(|(_, at)| now < at.saturating_add(self.policy.max_age))
    }

    /// Reports a failed fetch. The held set (if any) stays in use until it is older than
    /// `max_age + max_stale`.
    pub fn failed(&mut self, error: KeySetError) {
        self.in_flight = None;
        self.last_error = Some(error);
    }

    /// The key set to validate with at `now`, or why there is none (the last fetch's error,
    /// or [`KeySetError::NotYet`]).
    pub fn keys(&self, now: u64) -> Result<&KeySet, KeySetError> {
        match &self.held {
            Some((set, _)) if self.usable(now) => Ok(set),
            _ => Err(self.last_error.clone().unwrap_or(KeySetError::NotYet)),
        }
    }

    /// A number that changes whenever the held key set changes (a rotation, a key removed):
    /// [`TokenCache`] entries remembered under another epoch are not used, so a token
    /// signed by a removed key is checked again.
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    fn usable(&self, now: u64) -> bool {
        self.held.as_ref().is_some_and(|(_, at)| {
            now < at
                .saturating_add(self.policy.max_age)
                .saturating_add(self.policy.max_stale)
        })
    }
}

/// The default number of verified tokens remembered.
pub const DEFAULT_TOKEN_CACHE_ENTRIES: usize = 256;

/// Tokens already validated, remembered until they expire so a repeated request does no
/// signature work: at most a fixed number of entries (the oldest remembered is replaced
/// first), looked up in O(1) by the SHA-256 of the token ([`super::Token::digest`]).
///
/// An entry is used only while `now` is before its token's `exp` plus the leeway (the same
/// answer a full validation would give) and only under the key set epoch it was verified
/// with ([`KeyCache::epoch`]). One cache serves one validator configuration; only tokens the
/// validator accepted are put in it, so its keys are digests no caller can choose.
///
/// ```
/// use skills_edge::auth::{Ed25519Verifier, KeySet, SignatureVerifier, Token, TokenCache};
/// # use base64::Engine as _;
/// # let b64 = |b: &[u8]| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(b);
/// # let pair = ed25519_compact::KeyPair::from_seed(ed25519_compact::Seed::new([1; 32]));
/// # let jwks = format!(r#"{{"keys":[{{"kty":"OKP","crv":"Ed25519","kid":"k1","x":"{}"}}]}}"#, b64(&pair.pk[..]));
/// # let input = format!("{}.{}", b64(br#"{"alg":"EdDSA","kid":"k1","typ":"at+jwt"}"#),
/// #     b64(br#"{"iss":"https://as.example","aud":"https://rs.example/mcp","sub":"alice",
/// #             "client_id":"c","jti":"j","iat":1000,"exp":2000,"scope":"skills:read"}"#));
/// # let header = format!("Bearer {input}.{}", b64(&pair.sk.sign(&input, None)[..]));
/// # let bearer = skills_edge::http::Bearer::new(skills_edge::http::BearerConfig {
/// #     mode: skills_edge::http::AuthMode::Jwt, issuer: Some("https://as.example".into()),
/// #     audiences: vec!["https://rs.example/mcp".into()], ..Default::default() }).unwrap().unwrap();
/// # let keys = KeySet::parse(jwks.as_bytes()).unwrap();
/// let token = Token::parse(&header).unwrap();
/// # let check = bearer.prepare(&token, &keys, 1500, "https://rs.example/mcp").unwrap();
/// # let verdict = Ed25519Verifier.verify(check.alg, check.key, check.message, check.signature).unwrap();
/// # let caller = check.finish(verdict).unwrap();
/// let mut cache = TokenCache::new(256);
/// let epoch = 1; // `KeyCache::epoch` of the key set that verified it
/// cache.insert(*token.digest(), caller, epoch);
/// assert_eq!(cache.get(token.digest(), 1600, epoch).unwrap().subject, "alice");
/// // Not past `exp` (2000) plus the leeway, and not under another key set.
/// assert!(cache.get(token.digest(), 2100, epoch).is_none());
/// assert!(cache.get(token.digest(), 1600, epoch + 1).is_none());
/// ```
#[derive(Debug, Clone)]
pub struct TokenCache {
    slots: Vec<Option<Entry>>,
    index: HashMap<[u8; 32], usize, BuildHasherDefault<DigestHasher>>,
    next: usize,
}

#[derive(Debug, Clone)]
struct Entry {
    digest: [u8; 32],
    caller: Caller,
    epoch: u64,
}

impl TokenCache {
    /// A cache of at most `capacity` tokens (at least 1).
    pub fn new(capacity: usize) -> TokenCache {
        let capacity = capacity.max(1);
        TokenCache {
            slots: vec![None; capacity],
            index: HashMap::with_capacity_and_hasher(capacity, Default::default()),
            next: 0,
        }
    }

    /// The caller of a token remembered under `digest`, if it is still valid at `now` and was
    /// verified under `epoch`.
    pub fn get(&self, digest: &[u8; 32], now: u64, epoch: u64) -> Option<&Caller> {
        let e = self.slots.get(*self.index.get(digest)?)?.as_ref()?;
        (e.epoch == epoch && now < e.caller.refused_from).then_some(&e.caller)
    }

    /// Remembers a validated token's caller under `digest`, verified under `epoch`; the
    /// oldest entry makes room when the cache is full.
    pub fn insert(&mut self, digest: [u8; 32], caller: Caller, epoch: u64) {
        if let Some(&slot) = self.index.get(&digest) {
            self.slots[slot] = Some(Entry {
                digest,
                caller,
                epoch,
            });
            return;
        }
        let slot = self.next;
        self.next = (self.next + 1) % self.slots.len();
        if let Some(old) = self.slots[slot].take() {
            self.index.remove(&old.digest);
        }
        self.index.insert(digest, slot);
        self.slots[slot] = Some(Entry {
            digest,
            caller,
            epoch,
        });
    }

    /// How many tokens are remembered.
    #[cfg(any(test, feature = "internals"))]
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// Whether no token is remembered.
    #[cfg(any(test, feature = "internals"))]
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }
}

/// Hashes a SHA-256 digest by its first eight bytes: the digest is already uniform, and its
/// input (a token the validator accepted) is not the caller's to choose.
#[derive(Default)]
struct DigestHasher(u64);

impl Hasher for DigestHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes.iter().take(8) {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
}
