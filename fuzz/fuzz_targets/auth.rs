//! Bearer token validation, `skills_edge::auth`: `Token::parse`, `Token::compact_digest`,
//! `KeySet::parse`, the `Validator` and the `KeyCache` policy.
//!
//! Input: a flag byte, then by `flag % 5`:
//! * 0: a header value (`Bearer <token>` or a bare token), validated as sent;
//! * 1: the same, but re-signed first: whatever comes after its last `.` is replaced by a
//!   signature that verifies (Ed25519 with the key its header names, or the test verifier's
//!   stand-in for ES256 and RS256), so the fuzzer's headers and claims reach every check;
//! * 2: a JWK Set document;
//! * 3: a valid EdDSA token built from fields (`sub`, scopes, `exp` offset: 4 bytes, then the
//!   text), signed and checked by the stand-in, then mutated: up to 32 records of 3 bytes (operation, position, byte): truncate,
//!   replace, insert, remove;
//! * 4: `KeyCache` events: records of 2 bytes (seconds to advance, event).
//!
//! Properties:
//! * nothing panics;
//! * `Token::compact_digest` of every header value (modes 0, 1 and 3): the same for equal
//!   inputs and for every spelling of one compact token (bare, or `Bearer` in any case and
//!   with any number of spaces); `Some` exactly when the value is framed as a credential (at
//!   most `MAX_TOKEN_BYTES`, a `Bearer` scheme or none, a non-empty token without
//!   whitespace: read here independently), and then the SHA-256 of that token; `None` only
//!   for a value `Token::parse` refuses; and `Token::digest` of every token parsed;
//! * an accepted token has an `alg` in the allow-list and in the configuration, the verifier
//!   was asked exactly once, with that `alg` and a key of its type, and the signature
//!   verifies again independently (Ed25519 with ed25519-compact, the stand-in recomputed);
//!   its claims, read again with serde_json, have the configured `iss`, an `aud` naming the
//!   configured audience, an `exp` not past and at most 31 days after `iat` (or now), no
//!   `cnf`, a `typ` claim absent or `Bearer`, `type` `app` with Access's grants, only scope
//!   tokens in the grant, and the caller's subject; `typ` is an access token's where the
//!   configuration asks; `validate` and `prepare` + `finish` agree;
//! * a valid token is accepted; a mutated one is accepted only when its compact form is the
//!   original's (strict base64url gives one spelling), with the same caller;
//! * a key set read has at most `MAX_KEYS` keys, no `kid` shared by two of its keys, and every
//!   key reads back from its own JWK;
//! * the key cache never asks for two fetches less than the refetch interval apart, gives
//!   keys whenever it says `Use`, and none whenever it says `Unavailable`.

#![no_main]

use std::cell::Cell;
use std::sync::OnceLock;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};
use sha2::{Digest as _, Sha256};
use skills_edge::auth::*;

const ISS: &str = "https://as.example";
const AUD: &str = "https://rs.example/mcp";
const NOW: u64 = 1_700_000_000;

fn b64(b: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(b)
}

/// The Ed25519 key pairs of `ed-1` (seed 1) and `ed-2` (seed 2), made once.
fn pair(seed: u8) -> &'static ed25519_compact::KeyPair {
    static PAIRS: OnceLock<[ed25519_compact::KeyPair; 2]> = OnceLock::new();
    let pairs = PAIRS.get_or_init(|| {
        [1, 2].map(|s| ed25519_compact::KeyPair::from_seed(ed25519_compact::Seed::new([s; 32])))
    });
    &pairs[usize::from(seed == 2)]
}

/// The key set every token is checked against: Ed25519 `ed-1` and `ed-2`, a P-256 `es-1` and
/// a 2048-bit RSA `rs-1` (stand-ins: the test verifier does not do curve or modulus math).
fn key_set() -> &'static KeySet {
    static KEYS: OnceLock<KeySet> = OnceLock::new();
    KEYS.get_or_init(read_key_set)
}

fn read_key_set() -> KeySet {
    let jwks = json!({"keys": [
        {"kty":"OKP","crv":"Ed25519","kid":"ed-1","x":b64(&pair(1).pk[..])},
        {"kty":"OKP","crv":"Ed25519","kid":"ed-2","x":b64(&pair(2).pk[..])},
        {"kty":"EC","crv":"P-256","kid":"es-1","x":b64(&[3; 32]),"y":b64(&[4; 32])},
        {"kty":"RSA","kid":"rs-1","n":b64(&[0xc5; 256]),"e":"AQAB"},
    ]});
    KeySet::parse(jwks.to_string().as_bytes()).expect("the fuzz key set reads")
}

/// The stand-in signature of ES256 and RS256: SHA-256 of the message, repeated to `len`.
fn stand_in(message: &[u8], len: usize) -> Vec<u8> {
    let h = Sha256::digest(message);
    h.iter().copied().cycle().take(len).collect()
}

thread_local! {
    /// Whether Ed25519 signatures are made and checked for real (modes 0 and 1) or by the
    /// stand-in (mode 3, whose many mutations would otherwise spend the run on curve math: the
    /// stand-in binds the signature to the signed bytes just as well for the validator).
    static REAL_ED25519: Cell<bool> = const { Cell::new(true) };
}

fn real_ed25519() -> bool {
    REAL_ED25519.with(Cell::get)
}

/// Ed25519 for real (or by the stand-in in mode 3), ES256 and RS256 by the stand-in; records
/// each call.
#[derive(Default)]
struct TestVerifier {
    calls: Cell<u32>,
    last: Cell<Option<(Algorithm, Algorithm)>>,
}

impl SignatureVerifier for TestVerifier {
    fn verify(
        &self,
        alg: Algorithm,
        key: &PublicKey,
        message: &[u8],
        signature: &[u8],
    ) -> Result<bool, Unsupported> {
        self.calls.set(self.calls.get() + 1);
        self.last.set(Some((alg, key.algorithm())));
        match key {
            PublicKey::Ed25519 { .. } if real_ed25519() => {
                Ed25519Verifier.verify(alg, key, message, signature)
            }
            PublicKey::Ed25519 { .. } | PublicKey::P256 { .. } => {
                Ok(signature == stand_in(message, 64))
            }
            PublicKey::Rsa { n, .. } => Ok(signature == stand_in(message, n.len())),
        }
    }
}

fn configs() -> &'static [Validator; 3] {
    static CONFIGS: OnceLock<[Validator; 3]> = OnceLock::new();
    CONFIGS.get_or_init(make_configs)
}

/// The RFC 9068 settings; Access's (no `typ` check, the subject's fallback, the grant of what
/// Access asserts with a groups claim behind a JSON Pointer); the `jwt` profile with two scope
/// claims, one a pointer.
fn make_configs() -> [Validator; 3] {
    let strict = ValidatorConfig::rfc9068(ISS, vec![AUD.into()]);
    let mut loose = strict.clone();
    loose.token_type = TypeCheck::Unchecked;
    loose.required = RequiredClaims::Minimal;
    loose.subject_fallback = Some("common_name".into());
    loose.scope_claims = vec!["/custom/groups".into()];
    loose.grants = Grants::AccessIdentity;
    let mut jwt = ValidatorConfig::provider_jwt(ISS, vec![AUD.into()]);
    jwt.scope_claims = vec!["scp".into(), "/realm_access/roles".into()];
    [
        Validator::new(strict).expect("valid config"),
        Validator::new(loose).expect("valid config"),
        Validator::new(jwt).expect("valid config"),
    ]
}

/// The compact token of a credential framed as `Authorization: Bearer` (RFC 6750 §2.1: the
/// scheme, in any case, then one or more spaces) or as a bare token (no space at all), read
/// apart from the library: `None` when the value is too large, has another scheme, or its
/// token is empty or holds whitespace.
fn framed(value: &str) -> Option<&str> {
    if value.len() > MAX_TOKEN_BYTES {
        return None;
    }
    let token = match value.find(' ') {
        None if value.eq_ignore_ascii_case("bearer") => return None,
        None => value,
        Some(i) if value[..i].eq_ignore_ascii_case("bearer") => value[i..].trim_start_matches(' '),
        Some(_) => return None,
    };
    let ok = !token.is_empty() && !token.bytes().any(|b| b.is_ascii_whitespace());
    ok.then_some(token)
}

/// The properties of `Token::compact_digest(value)`; `parsed` is `Token::parse(value)`.
fn compact_digest(value: &str, parsed: &Result<Token, TokenError>) {
    let digest = Token::compact_digest(value);
    assert_eq!(
        digest,
        Token::compact_digest(value),
        "equal inputs, other digests"
    );
    let compact = framed(value);
    assert_eq!(
        digest,
        compact.map(|c| <[u8; 32]>::from(Sha256::digest(c.as_bytes()))),
        "the digest is not the framed token's SHA-256"
    );
    match parsed {
        Ok(token) => assert_eq!(
            digest.as_ref(),
            Some(token.digest()),
            "not the parsed token's digest"
        ),
        Err(e) => assert_eq!(e.status(), 401),
    }
    let Some(compact) = compact else {
        assert!(parsed.is_err(), "no digest for a token that parses");
        return;
    };
    // Every spelling of the same compact token has its digest.
    for spelling in [
        compact.to_owned(),
        format!("bearer {compact}"),
        format!("BEARER   {compact}"),
        format!("BeArEr {compact}"),
    ] {
        if spelling.len() <= MAX_TOKEN_BYTES {
            assert_eq!(Token::compact_digest(&spelling), digest, "{spelling:?}");
        }
    }
}

/// Validates `value` under each configuration and checks every accepted token.
fn validate_all(value: &str, keys: &KeySet, now: u64) -> Vec<Result<Caller, TokenError>> {
    let parsed = Token::parse(value);
    compact_digest(value, &parsed);
    let token = match parsed {
        Ok(t) => t,
        Err(e) => {
            assert_eq!(e.status(), 401);
            return vec![Err(e)];
        }
    };
    configs()
        .iter()
        .map(|v| {
            let verifier = TestVerifier::default();
            let result = v.validate(&token, keys, now, &verifier);
            // The two-step form agrees.
            let two_step = v.prepare(&token, keys, now).and_then(|check| {
                match TestVerifier::default().verify(
                    check.alg,
                    check.key,
                    check.message,
                    check.signature,
                ) {
                    Ok(ok) => check.finish(ok),
                    Err(Unsupported) => Err(TokenError::Unverifiable {
                        alg: check.alg.as_str(),
                    }),
                }
            });
            assert_eq!(result, two_step, "validate and prepare + finish disagree");
            if let Ok(caller) = &result {
                accepted(v, &token, value, keys, now, caller, &verifier);
            } else {
                assert!(verifier.calls.get() <= 1);
            }
            result
        })
        .collect()
}

/// The properties of an accepted token.
fn accepted(
    v: &Validator,
    token: &Token,
    value: &str,
    keys: &KeySet,
    now: u64,
    caller: &Caller,
    verifier: &TestVerifier,
) {
    let cfg = v.config();
    let alg = token.alg();
    assert!(Algorithm::ALL.contains(&alg) && cfg.algorithms.contains(&alg));
    assert_eq!(verifier.calls.get(), 1, "the signature was checked once");
    assert_eq!(
        verifier.last.get(),
        Some((alg, alg)),
        "alg and key type agree"
    );
    // The compact token, independently.
    let compact = value
        .split_once(' ')
        .map(|(_, t)| t.trim_start_matches(' '))
        .unwrap_or(value);
    assert_eq!(
        token.digest(),
        &<[u8; 32]>::from(Sha256::digest(compact.as_bytes()))
    );
    let mut parts = compact.split('.');
    let (h, p, s) = (
        parts.next().unwrap(),
        parts.next().unwrap(),
        parts.next().unwrap(),
    );
    assert!(parts.next().is_none());
    let header: Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(h).unwrap()).unwrap();
    let claims: Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(p).unwrap()).unwrap();
    let sig = URL_SAFE_NO_PAD.decode(s).unwrap();
    let message = format!("{h}.{p}");
    // The signature verifies with the key the header names (or the one key of its type).
    let key = keys
        .keys()
        .iter()
        .find(|k| match header.get("kid") {
            Some(Value::String(kid)) => k.kid.as_deref() == Some(kid.as_str()),
            _ => k.key.algorithm() == alg,
        })
        .expect("the key exists");
    match &key.key {
        PublicKey::Ed25519 { .. } if !real_ed25519() => {
            assert_eq!(sig, stand_in(message.as_bytes(), 64))
        }
        PublicKey::Ed25519 { x } => {
            let sig = ed25519_compact::Signature::from_slice(&sig).unwrap();
            assert!(ed25519_compact::PublicKey::new(*x)
                .verify(message.as_bytes(), &sig)
                .is_ok());
        }
        PublicKey::P256 { .. } => assert_eq!(sig, stand_in(message.as_bytes(), 64)),
        PublicKey::Rsa { n, .. } => assert_eq!(sig, stand_in(message.as_bytes(), n.len())),
    }
    if cfg.token_type == TypeCheck::AccessToken {
        let typ = header["typ"].as_str().unwrap().to_ascii_lowercase();
        assert!(typ == "at+jwt" || typ == "application/at+jwt", "typ {typ}");
    }
    if cfg.token_type == TypeCheck::Jwt {
        if let Some(typ) = header.get("typ") {
            let typ = typ.as_str().unwrap().to_ascii_lowercase();
            let typ = typ.strip_prefix("application/").unwrap_or(&typ);
            assert!(typ == "at+jwt" || typ == "jwt", "typ {typ}");
        }
    }
    // Every scope a caller holds is in the token: a scope claim's value (split on spaces), or,
    // with Access's grants, a kind prefix before one.
    let text = claims.to_string().to_ascii_lowercase();
    for scope in &caller.scopes {
        let value = match cfg.grants {
            Grants::Scopes => scope.as_str(),
            Grants::AccessIdentity => scope.split_once(':').map(|(_, v)| v).unwrap_or(""),
        };
        let escaped = serde_json::to_string(&value.to_ascii_lowercase()).unwrap();
        let escaped = &escaped[1..escaped.len() - 1];
        assert!(!value.is_empty() && text.contains(escaped), "scope {scope}");
    }
    assert_eq!(claims["iss"], json!(ISS));
    let aud_ok = match &claims["aud"] {
        Value::String(a) => a == AUD,
        Value::Array(a) => a.iter().any(|x| x == AUD),
        _ => false,
    };
    assert!(aud_ok, "aud {}", claims["aud"]);
    let exp = claims["exp"].as_f64().expect("exp is a number");
    assert!(
        (now as f64) < exp.floor() + cfg.leeway as f64,
        "exp {exp} now {now}"
    );
    // At most 31 days from iat (or now) to exp, compared where f64 holds the seconds exactly.
    let from = claims
        .get("iat")
        .and_then(Value::as_f64)
        .map_or(now as f64, f64::ceil);
    if exp.abs() < 9e15 && from.abs() < 9e15 {
        let bound = (31 * 24 * 3600 + cfg.leeway) as f64;
        assert!(
            exp.floor() - from <= bound,
            "lifetime: exp {exp} from {from}"
        );
    }
    // No sender-constrained token, no token its issuer marks as another kind.
    assert!(
        claims.get("cnf").is_none(),
        "a cnf-bound token was accepted"
    );
    if let Some(t) = claims.get("typ") {
        let bearer = t.as_str().is_some_and(|t| t.eq_ignore_ascii_case("bearer"));
        assert!(bearer, "typ claim {t}");
    }
    if cfg.grants == Grants::AccessIdentity {
        assert_eq!(claims["type"], json!("app"));
    }
    // Only scope tokens (RFC 6749 §3.3) in the grant.
    for scope in &caller.scopes {
        let token = !scope.is_empty()
            && scope
                .bytes()
                .all(|b| b == 0x21 || (0x23..=0x5B).contains(&b) || (0x5D..=0x7E).contains(&b));
        assert!(token, "scope {scope:?} is no scope token");
    }
    match claims.get("sub") {
        Some(Value::String(s)) if !s.is_empty() => assert_eq!(&caller.subject, s),
        _ => assert_eq!(cfg.required, RequiredClaims::Minimal),
    }
}

/// A value whose signature part is replaced by one that verifies.
fn resign(value: &str) -> Option<String> {
    let (input, _) = value.rsplit_once('.')?;
    let compact_input = input
        .split_once(' ')
        .map(|(_, t)| t.trim_start_matches(' '))
        .unwrap_or(input);
    let header_b64 = compact_input.split('.').next()?;
    let header: Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(header_b64).ok()?).ok()?;
    let sig = match (header["alg"].as_str(), header["kid"].as_str()) {
        (Some("ES256"), _) => stand_in(compact_input.as_bytes(), 64),
        (Some("RS256"), _) => stand_in(compact_input.as_bytes(), 256),
        (_, Some("ed-2")) => pair(2).sk.sign(compact_input, None).to_vec(),
        _ => pair(1).sk.sign(compact_input, None).to_vec(),
    };
    Some(format!("{input}.{}", b64(&sig)))
}

fn key_sets(data: &[u8]) {
    let Ok(set) = KeySet::parse(data) else {
        return;
    };
    assert!(!set.keys().is_empty() && set.keys().len() <= MAX_KEYS);
    let mut kids: Vec<&str> = set.keys().iter().filter_map(|k| k.kid.as_deref()).collect();
    let n = kids.len();
    kids.sort_unstable();
    kids.dedup();
    assert_eq!(kids.len(), n, "a kid shared by two usable keys");
    for k in set.keys() {
        if let PublicKey::Rsa { n, e } = &k.key {
            assert!(n[0] != 0 && n.len() * 8 >= MIN_RSA_BITS && n.len() * 8 <= MAX_RSA_BITS + 7);
            assert!(e.len() <= 4 && e.last().is_some_and(|b| b & 1 == 1));
        }
        let again = KeySet::parse(format!(r#"{{"keys":[{}]}}"#, k.key.to_jwk()).as_bytes())
            .expect("a key reads back from its JWK");
        assert_eq!(again.keys()[0].key, k.key);
    }
}

fn mutated(data: &[u8]) {
    let [a, b, c, d] = [0, 1, 2, 3].map(|i| data.get(i).copied().unwrap_or(0));
    let rest = data.get(4..).unwrap_or(&[]);
    let (fields, ops) = rest.split_at(rest.len().min(usize::from(a % 64)));
    let text = String::from_utf8_lossy(fields);
    let mid = text
        .char_indices()
        .nth(text.chars().count() / 2)
        .map_or(text.len(), |(i, _)| i);
    let (sub, scope) = text.split_at(mid);
    let sub = if sub.is_empty() { "s" } else { sub };
    let offset = i64::from(i16::from_le_bytes([b, c]));
    let exp = NOW as i64 + offset;
    let claims = json!({
        "iss": ISS, "aud": if d & 1 == 0 { json!(AUD) } else { json!(["x", AUD]) },
        "sub": sub, "client_id": "c", "jti": "j", "iat": NOW - 100, "exp": exp,
        "scope": scope, "groups": [scope], "type": "app",
    });
    let header = json!({"alg":"EdDSA","kid":"ed-1","typ":"at+jwt"});
    let input = format!(
        "{}.{}",
        b64(header.to_string().as_bytes()),
        b64(claims.to_string().as_bytes())
    );
    REAL_ED25519.with(|r| r.set(false));
    let token = format!("Bearer {input}.{}", b64(&stand_in(input.as_bytes(), 64)));
    let keys = key_set();
    let original = validate_all(&token, keys, NOW);
    let valid = (NOW as i64) < exp + DEFAULT_LEEWAY as i64 && !sub.is_empty();
    for r in &original {
        assert_eq!(
            r.is_ok(),
            valid,
            "a valid token was refused (or the reverse): {r:?}"
        );
    }
    let digest = Token::parse(&token).expect("parses").digest().to_owned();
    let mut bytes = token.clone().into_bytes();
    for op in ops.chunks(3).take(32) {
        let [kind, pos, byte] = [0, 1, 2].map(|i| op.get(i).copied().unwrap_or(0));
        let at = usize::from(pos) * bytes.len().max(1) / 256;
        match kind % 4 {
            0 => bytes.truncate(at),
            1 if at < bytes.len() => bytes[at] = byte,
            2 => bytes.insert(at.min(bytes.len()), byte),
            3 if at < bytes.len() => {
                bytes.remove(at);
            }
            _ => {}
        }
        let Ok(value) = std::str::from_utf8(&bytes) else {
            continue;
        };
        let results = validate_all(value, keys, NOW);
        for (r, o) in results.iter().zip(&original) {
            if let Ok(caller) = r {
                assert_eq!(
                    Token::parse(value).unwrap().digest(),
                    &digest,
                    "a changed token was accepted"
                );
                assert_eq!(Some(caller), o.as_ref().ok(), "accepted with other claims");
            }
        }
    }
}

fn key_cache(data: &[u8]) {
    let policy = KeyCachePolicy::default();
    let mut cache = KeyCache::new(policy);
    let good =
        json!({"keys":[{"kty":"OKP","crv":"Ed25519","kid":"ed-1","x":b64(&pair(1).pk[..])}]})
            .to_string();
    let other =
        json!({"keys":[{"kty":"OKP","crv":"Ed25519","kid":"ed-2","x":b64(&pair(2).pk[..])}]})
            .to_string();
    let mut now = NOW;
    let mut last_fetch: Option<u64> = None;
    for rec in data.chunks(2) {
        let [dt, ev] = [0, 1].map(|i| rec.get(i).copied().unwrap_or(0));
        now += u64::from(dt) * u64::from(dt % 8 + 1);
        let kid = match ev % 3 {
            0 => None,
            1 => Some("ed-1"),
            _ => Some("unknown"),
        };
        let plan = cache.plan(now, kid);
        match plan {
            Plan::Fetch => {
                if let Some(t) = last_fetch {
                    assert!(now >= t + policy.refetch_interval, "fetches {t} and {now}");
                }
                last_fetch = Some(now);
                match (ev / 3) % 5 {
                    0 => cache.store(now, good.as_bytes()).unwrap(),
                    1 => cache.store(now, other.as_bytes()).unwrap(),
                    2 => assert!(cache.store(now, b"{}").is_err()),
                    3 => cache.failed(KeySetError::Fetch { what: "x".into() }),
                    _ => {} // never reported
                }
            }
            Plan::Use => assert!(cache.keys(now).is_ok(), "Use without keys"),
            Plan::Unavailable => assert!(cache.keys(now).is_err(), "Unavailable with keys"),
            Plan::Wait => {}
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&flag, rest)) = data.split_first() else {
        return;
    };
    REAL_ED25519.with(|r| r.set(true));
    match flag % 5 {
        0 | 1 => {
            let Ok(text) = std::str::from_utf8(rest) else {
                return;
            };
            let value = if flag % 5 == 1 {
                match resign(text) {
                    Some(v) => v,
                    None => return,
                }
            } else {
                text.to_owned()
            };
            let now = NOW.wrapping_add(u64::from(flag / 5) * 600);
            validate_all(&value, key_set(), now);
        }
        2 => key_sets(rest),
        3 => mutated(rest),
        _ => key_cache(rest),
    }
});
