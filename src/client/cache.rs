//! The client's result cache (MCP `server/utilities/caching`; spec notes H10, H34).
//!
//! * The key is the method and its parameters (`uri`, `cursor`), as the base protocol says.
//! * A result is kept for its `ttlMs`; `0`, a missing value (legacy servers) or anything that
//!   is not a non-negative integer means "immediately stale": it is not stored at all.
//! * A `"private"` result (and one without a valid `cacheScope`) is stored under the
//!   authorization context too (a digest of the custom headers the request carried), so it
//!   is never reused for another context; a `"public"` one is shared by every context.
//! * Only results are stored, never errors, and only once the caller has checked them
//!   ([`Cache::store`] is called after verification): a file that failed verification is
//!   evicted, not kept.
//! * The cache is bounded ([`MAX_ENTRIES`], [`MAX_BYTES`]); when full, the entries closest to
//!   expiry go first.
//!
//! Cached bytes are verified again on every use, exactly like fresh ones: the cache saves
//! round trips, never checks.

use std::collections::BTreeMap;
use std::rc::Rc;

use crate::json::Node;
use serde_json::Value as Json;

use super::member;
use crate::protocol::CacheScope;

/// Most results held at once.
pub(crate) const MAX_ENTRIES: usize = 4096;
/// Most result bytes (as JSON text) held at once.
pub(crate) const MAX_BYTES: usize = 64 << 20;

/// The caching hints of a result, read as a client must: `ttlMs` missing, negative, fractional
/// or not a number is `0`; `cacheScope` missing or unknown is `"private"`.
///
/// ```
/// use skills_edge::client::{block_on, Hints, SkillsClient};
/// use skills_edge::protocol::CacheScope;
/// # use std::cell::RefCell;
/// # use std::future::{ready, Future};
/// # use skills_edge::client::http::{HttpIo, HttpRequest, HttpResponse, ResponseBody};
/// # use skills_edge::server::{Config, Grant, HttpHeaders, Responder, Transport};
/// # struct Body(Option<Vec<u8>>);
/// # impl ResponseBody for Body {
/// #     fn next_chunk(&mut self) -> impl Future<Output = skills_edge::client::Result<Option<Vec<u8>>>> { ready(Ok(self.0.take())) }
/// # }
/// # struct Wire { responder: Responder, sent: RefCell<Vec<HttpRequest>> }
/// # impl Wire {
/// #     fn new(config: Config) -> Wire {
/// #         let responder = Responder::new(skills_edge::embedded::catalog().unwrap(), config).unwrap();
/// #         Wire { responder, sent: RefCell::new(Vec::new()) }
/// #     }
/// # }
/// # impl HttpIo for Wire {
/// #     type Body = Body;
/// #     fn post(&self, request: HttpRequest) -> impl Future<Output = skills_edge::client::Result<HttpResponse<Body>>> {
/// #         let header = |n: &str| request.headers.iter().find(|(k, _)| k == n).map(|(_, v)| v.as_str());
/// #         let transport = Transport::Http(HttpHeaders {
/// #             protocol_version: header("mcp-protocol-version"), method: header("mcp-method"), name: header("mcp-name") });
/// #         let reply = self.responder.respond(request.body.as_bytes(), &transport, Grant::PUBLIC);
/// #         self.sent.borrow_mut().push(request.clone());
/// #         ready(Ok(HttpResponse { status: reply.status, content_type: Some("application/json".into()),
/// #             session_id: None, www_authenticate: None, body: Body(reply.body) }))
/// #     }
/// #     fn now_ms(&self) -> f64 { 0.0 }
/// # }
/// # let wire = Wire::new(Config { ttl_ms: 60_000, cache_scope: CacheScope::Private, ..Config::default() });
/// # let session = skills_edge::client::http::HttpSession::new(skills_edge::client::ClientInfo::default());
/// # let client = SkillsClient::new("docs", skills_edge::host::HostOptions::default()).unwrap();
/// # client.set_facts(block_on(session.connect(&wire, skills_edge::client::EraChoice::Auto)).unwrap()).unwrap();
/// # let rpc = session.rpc(&wire);
/// // A server whose results may be kept a minute, by this client only.
/// let listing = block_on(client.list(&rpc)).unwrap();
/// assert_eq!(listing.hints, Hints { ttl_ms: 60_000, scope: CacheScope::Private });
/// // Within the minute, listing again sends nothing.
/// let sent = wire.sent.borrow().len();
/// block_on(client.list(&rpc)).unwrap();
/// assert_eq!(wire.sent.borrow().len(), sent);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hints {
    /// How long the result may be reused, in milliseconds.
    pub ttl_ms: u64,
    /// Who may share it.
    pub scope: CacheScope,
}

impl Hints {
    /// The hints of a result object as the strict JSON reader read it (a member given twice:
    /// the last one, as `serde_json` reads it).
    ///
    /// ```
    /// use skills_edge::client::Hints;
    /// use skills_edge::protocol::CacheScope;
    /// use skills_edge::catalog::json::parse;
    /// let h = Hints::of(&parse(r#"{"ttlMs": 5000, "cacheScope": "public"}"#).unwrap());
    /// assert_eq!((h.ttl_ms, h.scope), (5000, CacheScope::Public));
    /// let legacy = Hints::of(&parse(r#"{"skills": []}"#).unwrap());
    /// assert_eq!((legacy.ttl_ms, legacy.scope), (0, CacheScope::Private));
    /// ```
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn of(result: &Node<'_>) -> Hints {
        let ttl_ms = member(result, "ttlMs").and_then(Node::as_u64).unwrap_or(0);
        let scope = member(result, "cacheScope")
            .and_then(Node::as_str)
            .and_then(CacheScope::parse)
            .unwrap_or(CacheScope::Private);
        Hints { ttl_ms, scope }
    }
}

/// The cache key of a request: its method and parameters.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key {
    method: String,
    params: String,
}

impl Key {
    /// The key of `method` with `params` (an object; its JSON text is the key).
    pub(crate) fn new(method: &str, params: &Json) -> Key {
        Key {
            method: method.to_owned(),
            params: params.to_string(),
        }
    }
}

#[derive(Debug)]
struct Held {
    /// The result's JSON text, shared with whoever fetched it.
    result: Rc<str>,
    expires_at: f64,
    bytes: usize,
}

/// Results by key, public ones shared and private ones per authorization context.
#[derive(Debug, Default)]
pub(crate) struct Cache {
    public: BTreeMap<Key, Held>,
    private: BTreeMap<(Key, String), Held>,
    bytes: usize,
}

impl Cache {
    /// An empty cache.
    pub(crate) fn new() -> Cache {
        Cache::default()
    }

    /// A still-fresh result for `key` usable in `context` at `now` (milliseconds), and when
    /// it expires (its own `ttlMs` from when it was received: a hit does not extend it).
    pub(crate) fn get(&self, key: &Key, context: &str, now: f64) -> Option<(&Rc<str>, f64)> {
        let fresh = |h: &&Held| h.expires_at > now;
        let held = match self.public.get(key).filter(fresh) {
            Some(h) => h,
            None => self
                .private
                .get(&(key.clone(), context.to_owned()))
                .filter(fresh)?,
        };
        Some((&held.result, held.expires_at))
    }

    /// Stores a checked result (its JSON text) under its own hints (not at all when its
    /// `ttlMs` is 0). Returns whether it was stored.
    pub(crate) fn store(
        &mut self,
        key: Key,
        context: &str,
        result: Rc<str>,
        hints: Hints,
        now: f64,
    ) -> bool {
        if hints.ttl_ms == 0 {
            self.evict(&key, context);
            return false;
        }
        let bytes = result.len();
        if bytes > MAX_BYTES / 4 {
            self.evict(&key, context);
            return false;
        }
        self.evict(&key, context);
        self.purge(now);
        while self.len() >= MAX_ENTRIES || self.bytes + bytes > MAX_BYTES {
            if !self.drop_soonest() {
                break;
            }
        }
        let held = Held {
            result,
            expires_at: now + hints.ttl_ms as f64,
            bytes,
        };
        self.bytes += bytes;
        match hints.scope {
            CacheScope::Public => {
                self.public.insert(key, held);
            }
            CacheScope::Private => {
                self.private.insert((key, context.to_owned()), held);
            }
        }
        true
    }

    /// Forgets `key` (public, and private in `context`).
    pub(crate) fn evict(&mut self, key: &Key, context: &str) {
        if let Some(h) = self.public.remove(key) {
            self.bytes -= h.bytes;
        }
        if let Some(h) = self.private.remove(&(key.clone(), context.to_owned())) {
            self.bytes -= h.bytes;
        }
    }

    /// Forgets every private result of contexts other than `context` (after the
    /// authorization changed, they can never be used again).
    #[cfg_attr(not(feature = "command"), allow(dead_code))]
    pub(crate) fn retain_context(&mut self, context: &str) {
        let mut freed = 0;
        self.private.retain(|(_, c), h| {
            let keep = c == context;
            if !keep {
                freed += h.bytes;
            }
            keep
        });
        self.bytes -= freed;
    }

    /// Number of results held.
    pub(crate) fn len(&self) -> usize {
        self.public.len() + self.private.len()
    }

    /// Whether nothing is held (asked by the tests only).
    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn purge(&mut self, now: f64) {
        let mut freed = 0;
        self.public.retain(|_, h| {
            let keep = h.expires_at > now;
            if !keep {
                freed += h.bytes;
            }
            keep
        });
        self.private.retain(|_, h| {
            let keep = h.expires_at > now;
            if !keep {
                freed += h.bytes;
            }
            keep
        });
        self.bytes -= freed;
    }

    fn drop_soonest(&mut self) -> bool {
        let public = self
            .public
            .iter()
            .map(|(k, h)| (h.expires_at, k))
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(t, k)| (t, k.clone()));
        let private = self
            .private
            .iter()
            .map(|(k, h)| (h.expires_at, k))
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(t, k)| (t, k.clone()));
        let freed = match (public, private) {
            (Some((tp, kp)), Some((tq, _))) if tp <= tq => self.public.remove(&kp),
            (_, Some((_, kq))) => self.private.remove(&kq),
            (Some((_, kp)), None) => self.public.remove(&kp),
            (None, None) => None,
        };
        match freed {
            Some(h) => {
                self.bytes -= h.bytes;
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Stores `result` as its JSON text, under its own hints.
    fn put(c: &mut Cache, key: Key, context: &str, result: Json, now: f64) -> bool {
        let text: Rc<str> = result.to_string().into();
        let hints = Hints::of(&crate::json::parse(&text).unwrap());
        c.store(key, context, text, hints, now)
    }

    fn key(uri: &str) -> Key {
        Key::new("resources/read", &json!({ "uri": uri }))
    }

    #[test]
    fn ttl_and_scope() {
        let mut c = Cache::new();
        assert!(!put(
            &mut c,
            key("a"),
            "ctx",
            json!({"ttlMs":0,"cacheScope":"public"}),
            0.0
        ));
        assert!(!put(&mut c, key("a"), "ctx", json!({"contents":[]}), 0.0));
        assert!(!put(
            &mut c,
            key("a"),
            "ctx",
            json!({"ttlMs":-5,"cacheScope":"public"}),
            0.0
        ));
        assert!(c.is_empty());
        assert!(put(
            &mut c,
            key("a"),
            "ctx",
            json!({"ttlMs":100,"cacheScope":"public"}),
            0.0
        ));
        assert!(c.get(&key("a"), "other", 99.0).is_some());
        assert!(c.get(&key("a"), "other", 100.0).is_none());
        assert!(put(
            &mut c,
            key("b"),
            "ctx",
            json!({"ttlMs":100,"cacheScope":"private"}),
            0.0
        ));
        assert!(c.get(&key("b"), "ctx", 1.0).is_some());
        assert!(c.get(&key("b"), "other", 1.0).is_none());
        // An unknown scope is private.
        assert!(put(
            &mut c,
            key("c"),
            "ctx",
            json!({"ttlMs":100,"cacheScope":"shared"}),
            0.0
        ));
        assert!(c.get(&key("c"), "other", 1.0).is_none());
        c.retain_context("other");
        assert!(c.get(&key("b"), "ctx", 1.0).is_none());
        assert!(c.get(&key("a"), "ctx", 1.0).is_some());
        c.evict(&key("a"), "ctx");
        assert!(c.is_empty());
        assert_eq!(c.bytes, 0);
    }

    #[test]
    fn bounded() {
        let mut c = Cache::new();
        for i in 0..(MAX_ENTRIES + 10) {
            let ttl = 1000 + i;
            put(
                &mut c,
                key(&i.to_string()),
                "x",
                json!({"ttlMs":ttl,"cacheScope":"public"}),
                0.0,
            );
        }
        assert_eq!(c.len(), MAX_ENTRIES);
        // The soonest to expire went first.
        assert!(c.get(&key("0"), "x", 1.0).is_none());
        assert!(c
            .get(&key(&(MAX_ENTRIES + 9).to_string()), "x", 1.0)
            .is_some());
    }
}
