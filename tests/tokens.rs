//! The token path as the Worker runs it (`skills_edge::http::Authenticator`): the refresh
//! and its discovery, requests that wait for a refresh under way, the tokens remembered, the
//! signatures handed to the platform, and the answers when no key set can be had.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use serde_json::json;
use skills_edge::auth::{KeySet, SignatureVerifier as _};
use skills_edge::http::{
    AuthMode, Authenticator, Bearer, BearerConfig, KeyFetch, KeySetError, TokenCheck, TokenError,
    TokenOutcome, TokenStep,
};

use crate::auth::{fixture_token, fixtures, Native};

const ISS: &str = "https://as.example";
const RESOURCE: &str = "https://rs.example/mcp";
const JWKS_URL: &str = "https://as.example/jwks.json";
const NOW: u64 = 1_700_000_000;

fn bearer_of(mode: AuthMode, issuer: &str, audiences: &[&str], jwks_url: Option<&str>) -> Bearer {
    let config = BearerConfig {
        mode,
        issuer: Some(issuer.into()),
        audiences: audiences.iter().map(|a| (*a).to_owned()).collect(),
        jwks_url: jwks_url.map(Into::into),
        ..BearerConfig::default()
    };
    Bearer::new(config).unwrap().unwrap()
}

/// `jwt` for the issuer ISS, its key set at `jwks_url` or found from its metadata.
fn bearer(jwks_url: Option<&str>) -> Bearer {
    bearer_of(AuthMode::Jwt, ISS, &[], jwks_url)
}

fn b64(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

fn pair() -> ed25519_compact::KeyPair {
    ed25519_compact::KeyPair::from_seed(ed25519_compact::Seed::new([5; 32]))
}

fn ed_jwks(kid: &str) -> Vec<u8> {
    json!({"keys":[{"kty":"OKP","crv":"Ed25519","kid":kid,"x":b64(&pair().pk[..])}]})
        .to_string()
        .into_bytes()
}

fn ed_token(kid: &str, sub: &str) -> String {
    ed_token_until(kid, sub, NOW + 600)
}

fn ed_token_until(kid: &str, sub: &str, exp: u64) -> String {
    let header = json!({"alg":"EdDSA","kid":kid,"typ":"at+jwt"});
    let claims = json!({"iss":ISS,"aud":RESOURCE,"sub":sub,"client_id":"c","jti":"j",
        "iat":NOW,"exp":exp,"scope":"skills:read"});
    let input = format!(
        "{}.{}",
        b64(header.to_string().as_bytes()),
        b64(claims.to_string().as_bytes())
    );
    format!("Bearer {input}.{}", b64(&pair().sk.sign(&input, None)[..]))
}

/// Runs one request's steps to its answer, serving each fetch from `serve` and counting them;
/// a `Wait` is an error here (no other request is under way).
fn run(
    auth: &mut Authenticator,
    b: &Bearer,
    credential: &str,
    now: u64,
    serve: &mut dyn FnMut(&KeyFetch) -> Result<Vec<u8>, KeySetError>,
) -> (TokenOutcome, Vec<String>) {
    let mut check = auth.check(credential, RESOURCE);
    let mut fetched = Vec::new();
    for _ in 0..4 {
        match auth.step(b, &mut check, now) {
            TokenStep::Done(outcome) => return (outcome, fetched),
            TokenStep::Refresh(first) => {
                let mut next = Some(first);
                while let Some(fetch) = next {
                    fetched.push(fetch.url.clone());
                    let body = serve(&fetch);
                    next = auth.fetched(b, fetch, body, now).unwrap_or(None);
                }
            }
            TokenStep::Wait { .. } => panic!("nothing to wait for"),
            TokenStep::Verify(_) => panic!("an EdDSA signature is checked in the library"),
        }
    }
    panic!("no answer after four steps")
}

/// A refresh started by a first request at NOW, and a second request waiting for it: the
/// checks, the refresh's first fetch and the wait's bound.
fn a_refresh_and_a_waiter(
    auth: &mut Authenticator,
    b: &Bearer,
) -> (TokenCheck, KeyFetch, TokenCheck, u64) {
    let mut first = auth.check(&ed_token("k1", "alice"), RESOURCE);
    let TokenStep::Refresh(fetch) = auth.step(b, &mut first, NOW) else {
        panic!("a refresh")
    };
    let mut second = auth.check(&ed_token("k1", "bob"), RESOURCE);
    let TokenStep::Wait { timeout_ms } = auth.step(b, &mut second, NOW) else {
        panic!("a wait")
    };
    (first, fetch, second, timeout_ms)
}

/// A `jwt` step with its key set URL, and an Authenticator that verified alice's token at NOW.
fn verified_at_now() -> (Bearer, Authenticator, String) {
    let b = bearer(Some(JWKS_URL));
    let mut auth = Authenticator::default();
    let t = ed_token("k1", "alice");
    let mut serve = |_: &KeyFetch| Ok(ed_jwks("k1"));
    assert_eq!(run(&mut auth, &b, &t, NOW, &mut serve).0, caller());
    (b, auth, t)
}

fn caller() -> TokenOutcome {
    TokenOutcome::Caller(vec!["skills:read".into()])
}

#[test]
fn a_token_is_checked_after_one_fetch_and_remembered() {
    let b = bearer(Some(JWKS_URL));
    let mut auth = Authenticator::default();
    let mut serve = |f: &KeyFetch| {
        assert_eq!(
            (f.what, f.max_bytes > 0, f.timeout_ms > 0),
            ("key set", true, true)
        );
        Ok(ed_jwks("k1"))
    };
    let t = ed_token("k1", "alice");
    assert_eq!(
        run(&mut auth, &b, &t, NOW, &mut serve),
        (caller(), vec![JWKS_URL.into()])
    );
    // The same token again: remembered, no fetch and no signature work.
    assert_eq!(
        run(&mut auth, &b, &t, NOW + 1, &mut serve),
        (caller(), vec![])
    );
    // Another token under the held key: no fetch.
    let other = ed_token("k1", "bob");
    assert_eq!(
        run(&mut auth, &b, &other, NOW + 2, &mut serve).1,
        Vec::<String>::new()
    );
    // A token that does not parse is refused before anything is fetched.
    let (outcome, fetched) = run(&mut auth, &b, "Bearer not.a.token", NOW, &mut serve);
    assert!(matches!(outcome, TokenOutcome::Refused(_)), "{outcome:?}");
    assert!(fetched.is_empty());
}

#[test]
fn requests_during_a_refresh_wait_for_it_and_then_use_its_keys() {
    let b = bearer(Some(JWKS_URL));
    let mut auth = Authenticator::default();
    let (mut first, fetch, mut second, _) = a_refresh_and_a_waiter(&mut auth, &b);
    assert_eq!(auth.fetched(&b, fetch, Ok(ed_jwks("k1")), NOW), Ok(None));
    for check in [&mut first, &mut second] {
        assert!(matches!(
            auth.step(&b, check, NOW),
            TokenStep::Done(TokenOutcome::Caller(_))
        ));
        // A check stepped again after its answer is refused, never granted.
        assert!(matches!(
            auth.step(&b, check, NOW),
            TokenStep::Done(TokenOutcome::Refused(_))
        ));
    }
}

#[test]
fn the_key_set_url_is_discovered_from_the_issuers_metadata_and_kept() {
    let b = bearer(None);
    let mut auth = Authenticator::default();
    let oauth = format!("{ISS}/.well-known/oauth-authorization-server");
    let oidc = format!("{ISS}/.well-known/openid-configuration");
    let mut serve = |f: &KeyFetch| match f.url.as_str() {
        u if u == oauth => Err(KeySetError::Fetch {
            what: format!("{u}: HTTP status 404"),
        }),
        u if u == oidc => {
            assert_eq!(f.what, "authorization server metadata");
            Ok(json!({"issuer": ISS, "jwks_uri": JWKS_URL})
                .to_string()
                .into_bytes())
        }
        JWKS_URL => Ok(ed_jwks("k1")),
        u => panic!("fetched {u}"),
    };
    let (outcome, fetched) = run(&mut auth, &b, &ed_token("k1", "alice"), NOW, &mut serve);
    assert_eq!(outcome, caller());
    assert_eq!(fetched, [oauth.clone(), oidc.clone(), JWKS_URL.into()]);
    // An unknown kid, past the refetch interval: the discovered URL is fetched directly.
    let mut serve2 = |f: &KeyFetch| {
        assert_eq!(f.url, JWKS_URL);
        Ok(ed_jwks("k2"))
    };
    let (outcome, fetched) = run(
        &mut auth,
        &b,
        &ed_token("k2", "alice"),
        NOW + 61,
        &mut serve2,
    );
    assert_eq!((outcome, fetched), (caller(), vec![JWKS_URL.to_owned()]));
}

#[test]
fn metadata_naming_another_issuer_is_not_used() {
    let b = bearer(None);
    let mut auth = Authenticator::default();
    let mut serve = |f: &KeyFetch| {
        assert_ne!(
            f.url, JWKS_URL,
            "the key set of unchecked metadata was fetched"
        );
        Ok(
            json!({"issuer": "https://evil.example", "jwks_uri": JWKS_URL})
                .to_string()
                .into_bytes(),
        )
    };
    let (outcome, fetched) = run(&mut auth, &b, &ed_token("k1", "alice"), NOW, &mut serve);
    let TokenOutcome::Unavailable(e) = outcome else {
        panic!("{outcome:?}")
    };
    assert_eq!(e.reason(), "invalid");
    assert_eq!(
        fetched.len(),
        2,
        "both metadata URLs, then no key set: {fetched:?}"
    );
}

#[test]
fn a_failed_refresh_answers_503_until_the_next_attempt_is_due() {
    let b = bearer(None);
    let mut auth = Authenticator::default();
    let mut attempts = 0;
    let mut failing = |_: &KeyFetch| {
        attempts += 1;
        Err(KeySetError::Fetch {
            what: "no answer within 5000 ms".into(),
        })
    };
    let t = ed_token("k1", "alice");
    let (outcome, _) = run(&mut auth, &b, &t, NOW, &mut failing);
    assert!(
        matches!(&outcome, TokenOutcome::Unavailable(e) if e.reason() == "fetch"),
        "{outcome:?}"
    );
    // Within the refetch interval: 503 at once, nothing fetched.
    let (outcome, fetched) = run(&mut auth, &b, &t, NOW + 30, &mut failing);
    assert!(matches!(outcome, TokenOutcome::Unavailable(_)));
    assert!(fetched.is_empty());
    assert_eq!(attempts, 2, "one attempt per metadata URL");
    // Past it, a new attempt, which finds the keys.
    let meta = json!({"issuer": ISS, "jwks_uri": JWKS_URL})
        .to_string()
        .into_bytes();
    let mut serving = |f: &KeyFetch| {
        Ok(if f.url == JWKS_URL {
            ed_jwks("k1")
        } else {
            meta.clone()
        })
    };
    assert_eq!(run(&mut auth, &b, &t, NOW + 60, &mut serving).0, caller());
    // A key set fetch that fails is reported as the error that ended the refresh.
    let mut auth = Authenticator::default();
    let b = bearer(Some(JWKS_URL));
    let mut check = auth.check(&t, RESOURCE);
    let TokenStep::Refresh(fetch) = auth.step(&b, &mut check, NOW) else {
        panic!()
    };
    let too_large = KeySetError::TooLarge {
        what: fetch.what,
        len: fetch.max_bytes + 1,
        max: fetch.max_bytes,
    };
    assert_eq!(
        auth.fetched(&b, fetch, Err(too_large.clone()), NOW),
        Err(too_large)
    );
    assert!(matches!(
        auth.step(&b, &mut check, NOW),
        TokenStep::Done(TokenOutcome::Unavailable(_))
    ));
}

#[test]
fn es256_and_rs256_signatures_go_to_the_platform_and_their_answer_decides() {
    let fx = fixtures();
    let (issuer, audience) = (
        fx["issuer"].as_str().unwrap(),
        fx["audience"].as_str().unwrap(),
    );
    let b = bearer_of(AuthMode::Jwt, issuer, &[audience], Some(JWKS_URL));
    let now = fx["now"].as_u64().unwrap() + 10;
    for (name, alg) in [("es256", "ES256"), ("rs256", "RS256")] {
        let mut auth = Authenticator::default();
        let token = format!("Bearer {}", fixture_token(name));
        for verdict in [false, true] {
            let mut check = auth.check(&token, RESOURCE);
            let mut step = auth.step(&b, &mut check, now);
            if let TokenStep::Refresh(fetch) = step {
                let jwks = fx["jwks"].to_string().into_bytes();
                assert_eq!(auth.fetched(&b, fetch, Ok(jwks), now), Ok(None));
                step = auth.step(&b, &mut check, now);
            }
            let TokenStep::Verify(sig) = step else {
                panic!("{name}: {step:?}")
            };
            assert_eq!(sig.alg, alg);
            // What goes to the platform verifies under an independent verifier.
            let set = format!(r#"{{"keys":[{}]}}"#, sig.jwk);
            let keys = KeySet::parse(set.as_bytes()).unwrap();
            let key = keys.select(None, keys.keys()[0].key.algorithm()).unwrap();
            assert_eq!(
                Native.verify(key.key.algorithm(), &key.key, &sig.message, &sig.signature),
                Ok(true),
                "{name}"
            );
            let outcome = auth.verified(sig, verdict);
            if verdict {
                assert!(
                    matches!(outcome, TokenOutcome::Caller(_)),
                    "{name}: {outcome:?}"
                );
            } else {
                assert_eq!(
                    outcome,
                    TokenOutcome::Refused(TokenError::Signature),
                    "{name}"
                );
            }
        }
        // Verified once: remembered, no second signature check.
        let mut check = auth.check(&token, RESOURCE);
        assert!(matches!(
            auth.step(&b, &mut check, now),
            TokenStep::Done(TokenOutcome::Caller(_))
        ));
    }
}

#[test]
fn a_remembered_token_answers_as_a_full_validation_would_as_the_key_set_ages() {
    let (b, mut auth, t) = verified_at_now();
    // Past the key set's age (600 s), a remembered token no longer skips the refresh.
    let mut counted = 0;
    let mut serve = |_: &KeyFetch| {
        counted += 1;
        Ok(ed_jwks("k1"))
    };
    assert_eq!(run(&mut auth, &b, &t, NOW + 600, &mut serve).0, caller());
    assert_eq!(counted, 1, "the aged key set was fetched again");
    // While fetches fail, the held set serves up to an hour past its age, then 503, for a
    // remembered token as for any other (its token expires at NOW + 600 + leeway otherwise:
    // this one is minted to last).
    let long = ed_token_until("k1", "carol", NOW + 86_400);
    let mut down = |_: &KeyFetch| {
        Err(KeySetError::Fetch {
            what: "HTTP status 502".into(),
        })
    };
    assert_eq!(run(&mut auth, &b, &long, NOW + 601, &mut down).0, caller());
    assert_eq!(
        run(&mut auth, &b, &long, NOW + 600 + 4199, &mut down).0,
        caller()
    );
    let (outcome, _) = run(&mut auth, &b, &long, NOW + 600 + 4200, &mut down);
    assert!(
        matches!(outcome, TokenOutcome::Unavailable(_)),
        "{outcome:?}"
    );
}

#[test]
fn a_refresh_of_several_fetches_stays_under_way_for_the_requests_that_wait() {
    let b = bearer(None);
    let mut auth = Authenticator::default();
    let t = ed_token("k1", "alice");
    let (mut first, meta, mut second, timeout_ms) = a_refresh_and_a_waiter(&mut auth, &b);
    assert_eq!(timeout_ms, 5000);
    // The metadata arrives after 4 s; the key set fetch that follows is under way too.
    let doc = json!({"issuer": ISS, "jwks_uri": JWKS_URL})
        .to_string()
        .into_bytes();
    let keys = auth.fetched(&b, meta, Ok(doc), NOW + 4).unwrap().unwrap();
    // The waiting request's wait ran out: it asks again and waits again, as does a new one.
    assert!(matches!(
        auth.step(&b, &mut second, NOW + 6),
        TokenStep::Wait { .. }
    ));
    let mut third = auth.check(&t, RESOURCE);
    assert!(matches!(
        auth.step(&b, &mut third, NOW + 6),
        TokenStep::Wait { .. }
    ));
    assert_eq!(auth.fetched(&b, keys, Ok(ed_jwks("k1")), NOW + 8), Ok(None));
    for check in [&mut first, &mut second, &mut third] {
        let step = auth.step(&b, check, NOW + 8);
        assert!(
            matches!(step, TokenStep::Done(TokenOutcome::Caller(_))),
            "{step:?}"
        );
    }
    // A refresh that goes quiet (its fetch never reported) holds nobody for longer than a
    // fetch's time: then 503, and no new attempt before the refetch interval.
    let mut auth = Authenticator::default();
    let mut a = auth.check(&t, RESOURCE);
    assert!(matches!(auth.step(&b, &mut a, NOW), TokenStep::Refresh(_)));
    let mut w = auth.check(&t, RESOURCE);
    assert!(matches!(
        auth.step(&b, &mut w, NOW + 5),
        TokenStep::Wait { .. }
    ));
    let step = auth.step(&b, &mut w, NOW + 6);
    assert!(
        matches!(step, TokenStep::Done(TokenOutcome::Unavailable(_))),
        "{step:?}"
    );
}

#[test]
fn authorization_is_read_as_bearer_only_and_another_scheme_gets_no_error_code() {
    let (b, mut auth, t) = verified_at_now();
    let mut serve = |_: &KeyFetch| Ok(ed_jwks("k1"));
    // The same token without its scheme, even remembered, and another scheme: refused as an
    // unsupported authentication method, with no error code (RFC 6750 §3.1).
    let bare = t.strip_prefix("Bearer ").unwrap();
    for credential in [bare, "Basic YWxpY2U6c2VjcmV0", "bearer"] {
        let (outcome, fetched) = run(&mut auth, &b, credential, NOW, &mut serve);
        let TokenOutcome::Refused(e) = outcome else {
            panic!("{credential}: {outcome:?}")
        };
        assert!(fetched.is_empty());
        if credential == "bearer" {
            assert_eq!(e.reason(), "scheme", "{credential}");
        } else {
            assert_eq!(e, TokenError::Scheme, "{credential}");
        }
    }
    // Any case of the scheme is the scheme (RFC 9110 §11.1).
    let lower = format!("bEaReR {bare}");
    assert_eq!(run(&mut auth, &b, &lower, NOW, &mut serve).0, caller());
    // Access's own header holds a bare token.
    let access = bearer_of(
        AuthMode::Access,
        "acme.cloudflareaccess.com",
        &["aud"],
        None,
    );
    let mut check = auth.check(bare, RESOURCE);
    let step = auth.step(&access, &mut check, NOW);
    assert!(
        !matches!(
            step,
            TokenStep::Done(TokenOutcome::Refused(TokenError::Scheme))
        ),
        "{step:?}"
    );
}

#[test]
fn a_late_report_of_a_refresh_a_newer_one_replaced_changes_nothing() {
    let (b, mut auth, t) = (
        bearer(None),
        Authenticator::default(),
        ed_token("k1", "alice"),
    );
    let mut first = auth.check(&t, RESOURCE);
    let TokenStep::Refresh(old) = auth.step(&b, &mut first, NOW) else {
        panic!("a refresh")
    };
    // It goes quiet; past the refetch interval a new request starts a newer refresh.
    let mut second = auth.check(&t, RESOURCE);
    let TokenStep::Refresh(newer) = auth.step(&b, &mut second, NOW + 60) else {
        panic!("a newer refresh")
    };
    // The old one's failure, reported late, neither ends the newer one nor names a next fetch.
    let late = Err(KeySetError::Fetch {
        what: "no answer".into(),
    });
    assert_eq!(auth.fetched(&b, old, late, NOW + 61), Ok(None));
    let mut waiting = auth.check(&t, RESOURCE);
    let step = auth.step(&b, &mut waiting, NOW + 61);
    assert!(matches!(step, TokenStep::Wait { .. }), "{step:?}");
    let doc = json!({"issuer": ISS, "jwks_uri": JWKS_URL})
        .to_string()
        .into_bytes();
    let keys = auth.fetched(&b, newer, Ok(doc), NOW + 61).unwrap().unwrap();
    assert_eq!(
        auth.fetched(&b, keys, Ok(ed_jwks("k1")), NOW + 62),
        Ok(None)
    );
    let step = auth.step(&b, &mut waiting, NOW + 62);
    assert!(
        matches!(step, TokenStep::Done(TokenOutcome::Caller(_))),
        "{step:?}"
    );
}
