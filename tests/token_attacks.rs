//! Attacks on the promises of docs/private.md about `AUTH_TOKEN_PROFILE = "jwt"`, scope
//! claims (names and JSON Pointers), Cloudflare Access grants and hidden skills. Each probe
//! sends what an attacker (or a hostile issuer configuration) would and asserts what the docs
//! promise. jwt-mode probes sign with a real Ed25519 key; Access probes run every check but
//! the signature (`Bearer::prepare`, then `finish(true)`), Access being RS256 only.

use crate::common::{request, MODERN};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use serde_json::{json, Value};
use skills_edge::auth::{Ed25519Verifier, KeySet, SignatureVerifier, Token, MAX_TOKEN_BYTES};
use skills_edge::catalog::compile::{compile, SourceTree};
use skills_edge::catalog::{pack, Catalog, Grant};
use skills_edge::http::{AuthMode, Bearer, BearerConfig, Endpoint, Head, HttpConfig, TokenProfile};
use skills_edge::protocol::Era;
use skills_edge::settings;
use std::sync::Arc;

const ISS: &str = "https://as.example";
const AUD: &str = "https://rs.example/mcp";
const NOW: u64 = 1_800_000_000;
const TEAM: &str = "https://acme.cloudflareaccess.com";
const TAG: &str = "32eafc7626e974616deaf0dc3ce63d7bcbed58a2731e84d06bc3cdf1b53c4228";

fn b64(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

fn pair() -> ed25519_compact::KeyPair {
    ed25519_compact::KeyPair::from_seed(ed25519_compact::Seed::new([9; 32]))
}

fn ed_keys() -> KeySet {
    let jwks = json!({"keys":[{"kty":"OKP","crv":"Ed25519","kid":"ed","x":b64(&pair().pk[..])}]});
    KeySet::parse(jwks.to_string().as_bytes()).unwrap()
}

/// A jwt-mode step with the provider-JWT profile and these scope claims.
fn jwt_profile(scope_claim: Option<&str>) -> Bearer {
    Bearer::new(BearerConfig {
        mode: AuthMode::Jwt,
        issuer: Some(ISS.into()),
        audiences: vec![AUD.into()],
        scope_claim: scope_claim.map(str::to_owned),
        token_profile: Some(TokenProfile::Jwt),
        ..BearerConfig::default()
    })
    .unwrap()
    .unwrap()
}

/// `header` and `claims` as raw JSON text (so duplicates and escapes reach the reader),
/// signed with the Ed25519 key.
fn signed(header: &str, claims: &str) -> String {
    let input = format!("{}.{}", b64(header.as_bytes()), b64(claims.as_bytes()));
    let sig = pair().sk.sign(&input, None);
    format!("{input}.{}", b64(&sig[..]))
}

/// Parses, validates and verifies as the Worker does: the scopes, or the refusal's reason.
fn run(b: &Bearer, compact: &str) -> Result<Vec<String>, &'static str> {
    let token = Token::parse(compact).map_err(|e| e.reason())?;
    let keys = ed_keys();
    let check = b.prepare(&token, &keys, NOW, AUD).map_err(|e| e.reason())?;
    let ok = Ed25519Verifier
        .verify(check.alg, check.key, check.message, check.signature)
        .unwrap();
    check.finish(ok).map(|c| c.scopes).map_err(|e| e.reason())
}

fn good_claims() -> Value {
    json!({"iss":ISS,"aud":AUD,"sub":"u1","iat":NOW - 10,"exp":NOW + 600,"scope":"team"})
}

fn with(edit: impl FnOnce(&mut serde_json::Map<String, Value>)) -> String {
    let mut c = good_claims();
    edit(c.as_object_mut().unwrap());
    c.to_string()
}

/// HMAC-SHA256 (RFC 2104), for the public-key-as-secret probe.
fn hmac_sha256(key: &[u8], msg: &[u8]) -> Vec<u8> {
    use sha2::{Digest, Sha256};
    let mut k = [0u8; 64];
    k[..key.len()].copy_from_slice(key);
    let pad = |b: u8| k.iter().map(|x| x ^ b).collect::<Vec<u8>>();
    let mut inner = Sha256::new();
    inner.update(pad(0x36));
    inner.update(msg);
    let mut outer = Sha256::new();
    outer.update(pad(0x5c));
    outer.update(inner.finalize());
    outer.finalize().to_vec()
}

const HDR: &str = r#"{"alg":"EdDSA","kid":"ed","typ":"JWT"}"#;

#[test]
fn the_baseline_token_is_accepted() {
    let b = jwt_profile(None);
    assert_eq!(
        run(&b, &signed(HDR, &good_claims().to_string())),
        Ok(vec!["team".into()])
    );
}

#[test]
fn attacker_swaps_the_algorithm() {
    let b = jwt_profile(None);
    let claims = good_claims().to_string();
    for alg in [
        "none", "None", "NONE", "HS256", "HS512", "PS256", "ES384", "RS512", "EdDSA ", "eddsa",
        "ED25519", "",
    ] {
        let h = json!({"alg":alg,"kid":"ed","typ":"JWT"}).to_string();
        assert!(
            run(&b, &signed(&h, &claims)).is_err(),
            "alg {alg:?} accepted"
        );
    }
    // `alg: none` with an empty signature, the classic form.
    let h = b64(br#"{"alg":"none","typ":"JWT"}"#);
    let c = b64(claims.as_bytes());
    assert!(run(&b, &format!("{h}.{c}.")).is_err());
    // HS256 "signed" with the public key as the HMAC secret.
    let h = b64(br#"{"alg":"HS256","kid":"ed","typ":"JWT"}"#);
    let input = format!("{h}.{c}");
    let tag = hmac_sha256(&pair().pk[..], input.as_bytes());
    assert_eq!(run(&b, &format!("{input}.{}", b64(&tag))), Err("algorithm"));
    // alg/kty mismatch: ES256 or RS256 naming the Ed25519 key, with an Ed25519 signature.
    for alg in ["ES256", "RS256"] {
        let h = json!({"alg":alg,"kid":"ed","typ":"JWT"}).to_string();
        let r = run(&b, &signed(&h, &claims));
        assert!(r.is_err(), "{alg}: {r:?}");
    }
    // alg is not a string, or appears twice (once as an escape).
    for h in [
        r#"{"alg":["EdDSA"],"kid":"ed"}"#,
        r#"{"alg":"EdDSA","alg":"none","kid":"ed"}"#,
        r#"{"alg":"none","\u0061lg":"EdDSA","kid":"ed"}"#,
        r#"{"alg":"EdDSA","kid":"ed","crit":["exp"],"exp":1}"#,
        r#"{"alg":"EdDSA","kid":"ed","crit":[]}"#,
        r#"{"alg":"EdDSA","kid":7}"#,
        r#"{"alg":"EdDSA","kid":"ed","typ":7}"#,
    ] {
        assert!(run(&b, &signed(h, &claims)).is_err(), "header {h} accepted");
    }
}

#[test]
fn attacker_labels_another_jwt_kind_as_jwt() {
    let b = jwt_profile(None);
    let claims = good_claims().to_string();
    // What the docs accept under the jwt profile: absent, JWT, at+jwt, any case, application/.
    for typ in [
        "JWT",
        "jwt",
        "at+JWT",
        "AT+JWT",
        "application/at+jwt",
        "APPLICATION/JWT",
    ] {
        let h = json!({"alg":"EdDSA","kid":"ed","typ":typ}).to_string();
        assert!(run(&b, &signed(&h, &claims)).is_ok(), "{typ:?} refused");
    }
    // Everything else is refused.
    for typ in [
        "id_token",
        "JWT+id",
        "id+jwt",
        "jwt ",
        " jwt",
        "jwt\u{0}",
        "application/jwt; charset=utf-8",
        "application/application/jwt",
        "application/",
        "application/ jwt",
        "at+jwt+jwt",
        "JWS",
        "JOSE",
        "JOSE+JSON",
        "dpop+jwt",
        "logout+jwt",
        "secevent+jwt",
        "application/okta-internal-at+jwt",
        "\u{0130}D", // dotted capital I, lowercasing tricks
        "jwt\u{212A}",
    ] {
        let h = json!({"alg":"EdDSA","kid":"ed","typ":typ}).to_string();
        assert_eq!(run(&b, &signed(&h, &claims)), Err("typ"), "{typ:?}");
    }
}

#[test]
fn attacker_replays_an_id_token_or_another_apis_token() {
    let b = jwt_profile(None);
    // An OIDC ID token: aud is the client's ID.
    let id = with(|c| {
        c.insert("aud".into(), json!("client-123"));
        c.insert("nonce".into(), json!("n"));
    });
    assert_eq!(run(&b, &signed(HDR, &id)), Err("audience"));
    // Another API's token, and near misses of the audience.
    for aud in [
        json!("https://rs.example/mcp/"),
        json!("https://rs.example/MCP"),
        json!("https://RS.example/mcp"),
        json!("https://rs.example/mcp?x"),
        json!("https://rs.example/mcp#"),
        json!("https://rs.example:443/mcp"),
        json!(" https://rs.example/mcp"),
        json!("https://rs.example/mcp\u{0}"),
        json!([]),
        json!(["https://other/mcp"]),
        json!([["https://rs.example/mcp"]]),
        json!({"0": "https://rs.example/mcp"}),
        json!(null),
        json!(7),
        json!(""),
    ] {
        let c = with(|c| {
            c.insert("aud".into(), aud.clone());
        });
        assert!(run(&b, &signed(HDR, &c)).is_err(), "aud {aud} accepted");
    }
    // An array with extra entries naming the accepted audience is accepted (RFC 7519 §4.1.3).
    let c = with(|c| {
        c.insert("aud".into(), json!(["client-123", AUD, "https://other"]));
    });
    assert!(run(&b, &signed(HDR, &c)).is_ok());
    // A mixed array with a non-string is refused (docs: an array of strings).
    let c = with(|c| {
        c.insert("aud".into(), json!([AUD, 1]));
    });
    assert!(run(&b, &signed(HDR, &c)).is_err(), "aud [AUD, 1] accepted");
    // Duplicate aud, the second the accepted one, including through an escape.
    let base = r#""iss":"https://as.example","sub":"u","iat":1799999990,"exp":1800000600"#;
    for dup in [
        format!(r#"{{{base},"aud":"client-123","aud":"{AUD}"}}"#),
        format!(r#"{{{base},"aud":"client-123","\u0061ud":"{AUD}"}}"#),
        format!(r#"{{{base},"aud":"client-123","a\u0075d":"{AUD}"}}"#),
    ] {
        assert!(run(&b, &signed(HDR, &dup)).is_err(), "duplicate {dup}");
    }
    // The issuer, exactly.
    for iss in [
        json!("https://as.example/"),
        json!("https://AS.example"),
        json!("http://as.example"),
        json!(["https://as.example"]),
        json!("https://as.example\u{0}"),
    ] {
        let c = with(|c| {
            c.insert("iss".into(), iss.clone());
        });
        assert!(run(&b, &signed(HDR, &c)).is_err(), "iss {iss} accepted");
    }
}

#[test]
fn attacker_bends_the_time_claims() {
    let b = jwt_profile(None);
    let refused = |edit: &dyn Fn(&mut serde_json::Map<String, Value>)| {
        let mut c = good_claims();
        edit(c.as_object_mut().unwrap());
        run(&b, &signed(HDR, &c.to_string()))
    };
    for (label, r) in [
        ("no exp", refused(&|c| drop(c.remove("exp")))),
        (
            "exp string",
            refused(&|c| drop(c.insert("exp".into(), json!("1900000000")))),
        ),
        (
            "exp null",
            refused(&|c| drop(c.insert("exp".into(), json!(null)))),
        ),
        (
            "exp bool",
            refused(&|c| drop(c.insert("exp".into(), json!(true)))),
        ),
        (
            "exp array",
            refused(&|c| drop(c.insert("exp".into(), json!([1900000000])))),
        ),
        (
            "exp past",
            refused(&|c| drop(c.insert("exp".into(), json!(NOW - 61)))),
        ),
        (
            "exp -inf-ish",
            refused(&|c| drop(c.insert("exp".into(), json!(-1e300)))),
        ),
        (
            "exp float past",
            refused(&|c| drop(c.insert("exp".into(), json!((NOW - 61) as f64 + 0.999)))),
        ),
        (
            "nbf future",
            refused(&|c| drop(c.insert("nbf".into(), json!(NOW + 61)))),
        ),
        (
            "nbf string",
            refused(&|c| drop(c.insert("nbf".into(), json!("0")))),
        ),
        (
            "nbf huge",
            refused(&|c| drop(c.insert("nbf".into(), json!(1e300)))),
        ),
        (
            "iat future",
            refused(&|c| drop(c.insert("iat".into(), json!(NOW + 61)))),
        ),
        (
            "iat string",
            refused(&|c| drop(c.insert("iat".into(), json!("0")))),
        ),
        (
            "iat float future",
            refused(&|c| drop(c.insert("iat".into(), json!((NOW + 60) as f64 + 0.001)))),
        ),
    ] {
        assert!(r.is_err(), "{label} accepted: {r:?}");
    }
    // Duplicate exp, the second in the future.
    let raw = format!(
        r#"{{"iss":"{ISS}","aud":"{AUD}","sub":"u","exp":{},"exp":{}}}"#,
        NOW - 1000,
        NOW + 1000
    );
    assert!(run(&b, &signed(HDR, &raw)).is_err());
    let raw = format!(
        r#"{{"iss":"{ISS}","aud":"{AUD}","sub":"u","exp":{},"\u0065xp":{}}}"#,
        NOW - 1000,
        NOW + 1000
    );
    assert!(run(&b, &signed(HDR, &raw)).is_err());
    // Number spellings JSON does not allow.
    for exp in [
        "1e",
        "+1900000000",
        "0x7fffffff",
        "Infinity",
        "NaN",
        "01900000000",
        "1900000000.",
    ] {
        let raw = format!(r#"{{"iss":"{ISS}","aud":"{AUD}","exp":{exp}}}"#);
        assert!(run(&b, &signed(HDR, &raw)).is_err(), "exp {exp}");
    }
}

#[test]
fn attacker_confuses_the_key() {
    let b = jwt_profile(None);
    let claims = good_claims().to_string();
    for kid in ["ED", "ed ", "", "ed\u{0}", "../ed"] {
        let h = json!({"alg":"EdDSA","kid":kid,"typ":"JWT"}).to_string();
        assert!(run(&b, &signed(&h, &claims)).is_err(), "kid {kid:?}");
    }
    // Keys smuggled in the header are never used: a jwk of the attacker's own.
    let evil = ed25519_compact::KeyPair::from_seed(ed25519_compact::Seed::new([1; 32]));
    let h = json!({"alg":"EdDSA","typ":"JWT",
        "jwk":{"kty":"OKP","crv":"Ed25519","x":b64(&evil.pk[..])},
        "jku":"https://evil.example/jwks"})
    .to_string();
    let input = format!("{}.{}", b64(h.as_bytes()), b64(claims.as_bytes()));
    let sig = evil.sk.sign(&input, None);
    assert!(run(&b, &format!("{input}.{}", b64(&sig[..]))).is_err());
    // A good signature over different claims (claims swapped after signing).
    let t = signed(HDR, &claims);
    let mut parts: Vec<&str> = t.split('.').collect();
    let other = b64(with(|c| drop(c.insert("scope".into(), json!("admin")))).as_bytes());
    parts[1] = &other;
    assert_eq!(run(&b, &parts.join(".")), Err("signature"));
}

#[test]
fn attacker_sends_very_long_or_odd_tokens() {
    let b = jwt_profile(None);
    // Padding the claims past the limit.
    let big = with(|c| drop(c.insert("pad".into(), json!("x".repeat(MAX_TOKEN_BYTES)))));
    assert_eq!(run(&b, &signed(HDR, &big)), Err("too-large"));
    // Deep nesting in an unread claim.
    let deep = format!(
        r#"{{"iss":"{ISS}","aud":"{AUD}","exp":{},"x":{}{}}}"#,
        NOW + 600,
        "[".repeat(200),
        "]".repeat(200)
    );
    assert!(run(&b, &signed(HDR, &deep)).is_err());
    // A lone surrogate in an unread claim.
    let lone = format!(
        r#"{{"iss":"{ISS}","aud":"{AUD}","exp":{},"x":"\ud800"}}"#,
        NOW + 600
    );
    assert!(run(&b, &signed(HDR, &lone)).is_err());
    // Claims that are not an object.
    for claims in ["[]", "\"x\"", "null", "1"] {
        assert!(run(&b, &signed(HDR, claims)).is_err(), "{claims}");
    }
    // Five parts (JWE), padding, a trailing dot.
    let t = signed(HDR, &good_claims().to_string());
    for bad in [
        format!("{t}."),
        format!("{t}=="),
        format!("{t}.a.b"),
        format!(" {t}"),
    ] {
        assert!(run(&b, &bad).is_err(), "{bad}");
    }
}

#[test]
fn one_scope_claim_never_passes_for_another() {
    // `scp,roles`: the values of both are joined, but `roles` must not stand in for `scp` when
    // the setting names only `scp`.
    let b = jwt_profile(Some("scp"));
    let c = with(|c| {
        c.remove("scope");
        c.insert("roles".into(), json!(["team"]));
        c.insert("scope".into(), json!("team"));
        c.insert("SCP".into(), json!("team"));
        c.insert("realm_access".into(), json!({"scp":"team"}));
    });
    assert_eq!(run(&b, &signed(HDR, &c)), Ok(vec![]));
    // A pointer reads that member only, not a same-named one at the top or elsewhere.
    let b = jwt_profile(Some("/realm_access/roles"));
    let c = with(|c| {
        c.insert("roles".into(), json!(["team"]));
        c.insert("realm_access/roles".into(), json!(["team"]));
        c.insert(
            "resource_access".into(),
            json!({"realm_access":{"roles":["team"]}}),
        );
        c.insert(
            "realm_access".into(),
            json!({"Roles":["team"], "role":["team"]}),
        );
    });
    assert_eq!(run(&b, &signed(HDR, &c)), Ok(vec![]));
    // The escapes of RFC 6901: `~1` is `/`, `~0` is `~`, applied in that order.
    let b = jwt_profile(Some("/a~1b"));
    let c = with(|c| {
        c.insert("a".into(), json!({"b": "wrong"}));
        c.insert("a/b".into(), json!("right"));
    });
    assert_eq!(run(&b, &signed(HDR, &c)), Ok(vec!["right".into()]));
    let b = jwt_profile(Some("/a~01"));
    let c = with(|c| {
        c.insert("a~1".into(), json!("right"));
        c.insert("a/".into(), json!("wrong"));
        c.insert("a~".into(), json!({"1": "wrong"}));
    });
    assert_eq!(run(&b, &signed(HDR, &c)), Ok(vec!["right".into()]));
    // A namespaced claim name (with `/`, not a pointer) reads that member only.
    let b = jwt_profile(Some("https://example.com/roles"));
    let c = with(|c| {
        c.insert(
            "https:".into(),
            json!({"": {"example.com": {"roles": ["wrong"]}}}),
        );
        c.insert("https://example.com/roles".into(), json!(["right"]));
    });
    assert_eq!(run(&b, &signed(HDR, &c)), Ok(vec!["right".into()]));
    // A pointer through an array index is not followed (docs: each member on the way an
    // object), so an attacker-ordered array cannot pick the scope claim.
    let b = jwt_profile(Some("/groups/0"));
    let c = with(|c| drop(c.insert("groups".into(), json!(["team"]))));
    assert!(run(&b, &signed(HDR, &c)).is_err());
}

#[test]
fn scope_values_that_are_not_scope_tokens() {
    let b = jwt_profile(Some("scp"));
    let claim = |v: Value| {
        let c = with(|c| {
            c.remove("scope");
            c.insert("scp".into(), v);
        });
        run(&b, &signed(HDR, &c))
    };
    // Non-strings and objects refuse the token.
    for v in [
        json!([1]),
        json!([null]),
        json!([["team"]]),
        json!([{"team": true}]),
        json!({"team": true}),
        json!(true),
        json!(7),
        json!(["team", 1]),
    ] {
        assert_eq!(claim(v.clone()), Err("claim"), "{v}");
    }
    // A space inside an array item does not split into two scopes.
    let r = claim(json!(["other team"])).unwrap();
    assert!(!r.iter().any(|s| s == "team"), "{r:?}");
    // Other whitespace in a string is no separator either.
    for s in [
        "other\tteam",
        "other\nteam",
        "other\u{a0}team",
        "other,team",
    ] {
        let r = claim(json!(s)).unwrap();
        assert!(!r.iter().any(|x| x == "team"), "{s:?}: {r:?}");
    }
    // Empty entries are dropped; duplicates kept once.
    assert_eq!(claim(json!("  team  team ")), Ok(vec!["team".into()]));
    assert_eq!(claim(json!(["", "team", "team"])), Ok(vec!["team".into()]));
}

// ---- Cloudflare Access ----

/// 256 zero bytes: as long as the RSA modulus, so every check but the signature's runs.
fn rsa_sig() -> String {
    b64(&[0u8; 256])
}

fn rsa_keys() -> KeySet {
    let fx: Value = serde_json::from_str(include_str!("auth/fixtures.json")).unwrap();
    KeySet::parse(fx["jwks"].to_string().as_bytes()).unwrap()
}

fn access_step(groups: Option<&str>) -> Bearer {
    Bearer::new(BearerConfig {
        mode: AuthMode::Access,
        issuer: Some(TEAM.into()),
        audiences: vec![TAG.into()],
        scope_claim: groups.map(str::to_owned),
        ..BearerConfig::default()
    })
    .unwrap()
    .unwrap()
}

/// The grant Access's claims give, or the refusal's reason.
fn access(b: &Bearer, claims: Value) -> Result<Vec<String>, &'static str> {
    let mut c = json!({"iss":TEAM,"aud":[TAG],"iat":NOW - 5,"nbf":NOW - 5,"exp":NOW + 600,
        "type":"app","identity_nonce":"n","country":"US"});
    for (k, v) in claims.as_object().unwrap() {
        c[k] = v.clone();
    }
    access_exactly(b, c)
}

/// The grant of exactly these claims, or the refusal's reason.
fn access_exactly(b: &Bearer, c: Value) -> Result<Vec<String>, &'static str> {
    let header = json!({"alg":"RS256","kid":"rs-1","typ":"JWT"});
    let compact = format!(
        "{}.{}.{}",
        b64(header.to_string().as_bytes()),
        b64(c.to_string().as_bytes()),
        rsa_sig()
    );
    let token = Token::parse(&compact).map_err(|e| e.reason())?;
    let keys = rsa_keys();
    b.prepare(&token, &keys, NOW, "https://skills.example.com/mcp")
        .map_err(|e| e.reason())?
        .finish(true)
        .map(|c| c.scopes)
        .map_err(|e| e.reason())
}

fn domains(scopes: &[String]) -> Vec<&str> {
    scopes
        .iter()
        .filter_map(|s| s.strip_prefix("email-domain:"))
        .collect()
}

#[test]
fn an_address_elsewhere_never_gets_the_domain() {
    let b = access_step(None);
    let grant = |email: &str| access(&b, json!({"sub":"u-1","email":email}));
    assert_eq!(
        grant("Alice@ACME.example").unwrap(),
        ["email:alice@acme.example", "email-domain:acme.example"]
    );
    for email in [
        "alice@evil-acme.example",
        "alice@acme.example.evil.com",
        "alice@sub.acme.example",
        "\"alice@evil.com\"@acme.example",
        "alice@evil.com@acme.example",
        "alice@acme.example@evil.com",
        "@acme.example",
        "alice@",
        "alice",
        "",
        "alice@acme.example.",
        "alice@acme.example ",
        " alice@acme.example",
        "alice@acme.example\u{0}",
        "alice@acme.example\r\nx",
        "alice@acme.exampl\u{0435}", // Cyrillic e
        "alice@\u{212A}cme.example", // Kelvin sign
        "alice@acme\u{ff0e}example", // fullwidth dot
        "alice@acme.example%40evil.com",
        "alice@[acme.example]",
        "alice(comment)@acme.example(x)",
    ] {
        let g = grant(email).unwrap_or_default();
        assert!(
            !domains(&g).contains(&"acme.example"),
            "{email:?} got {g:?}"
        );
        // And no address grant that differs from the asserted address.
        for s in &g {
            if let Some(a) = s.strip_prefix("email:") {
                assert_eq!(a, email.to_ascii_lowercase(), "{email:?}: {g:?}");
            }
        }
    }
}

#[test]
fn a_value_of_one_kind_never_passes_for_another() {
    let b = access_step(Some("/custom/groups"));
    // A group named like an email grant, an address named like a group.
    let g = access(
        &b,
        json!({"sub":"u-1","email":"group:x@other.example",
            "custom":{"groups":["email-domain:acme.example","email:alice@acme.example",
                "service-token:abc.access","x"]}}),
    )
    .unwrap();
    for s in &g {
        assert!(
            s.starts_with("group:") || s.starts_with("email:") || s.starts_with("email-domain:"),
            "{g:?}"
        );
    }
    assert!(!g.iter().any(|s| s == "email-domain:acme.example"), "{g:?}");
    assert!(!g.iter().any(|s| s == "email:alice@acme.example"), "{g:?}");
    assert!(!g.iter().any(|s| s == "service-token:abc.access"), "{g:?}");
    assert!(g.iter().any(|s| s == "group:x"), "{g:?}");
    // An address's grants are `email:` and `email-domain:` only; no `group:x` from an email.
    let g = access(&b, json!({"sub":"u-1","email":"x@acme.example"})).unwrap();
    assert!(!g.iter().any(|s| s.starts_with("group:")), "{g:?}");
    // Groups read only at the configured pointer, not a top-level `groups` nor `scope`.
    let g = access(
        &b,
        json!({"sub":"u-1","groups":["x"],"scope":"x group:x","scp":["group:x"],
            "custom":{"Groups":["x"]}}),
    )
    .unwrap();
    assert_eq!(g, Vec::<String>::new());
    // Without a group claim configured, `custom.groups` grants nothing.
    let b0 = access_step(None);
    let g = access(
        &b0,
        json!({"sub":"u-1","custom":{"groups":["x"]},"scope":"x"}),
    )
    .unwrap();
    assert_eq!(g, Vec::<String>::new());
}

#[test]
fn a_service_token_gets_no_email_grant_and_a_user_no_service_grant() {
    let b = access_step(Some("/custom/groups"));
    let g = access(&b, json!({"sub":"","common_name":"abc.access"})).unwrap();
    assert_eq!(g, ["service-token:abc.access"]);
    // A user (sub set) with a common_name gets no service-token grant.
    let g = access(
        &b,
        json!({"sub":"u-1","email":"a@acme.example","common_name":"abc.access"}),
    )
    .unwrap();
    assert!(!g.iter().any(|s| s.starts_with("service-token:")), "{g:?}");
    // common_name shaped like other grants stays a service token's.
    let g = access(
        &b,
        json!({"sub":"","common_name":"x email-domain:acme.example"}),
    )
    .unwrap_or_default();
    assert!(!g.iter().any(|s| s.starts_with("email")), "{g:?}");
}

// ---- Hidden stays hidden ----

const RULES: &str =
    "[[access]]\nskills = [\"secret\"]\nscopes = [\"email-domain:acme.example\", \"group:eng\"]\n";

fn md(name: &str) -> String {
    format!("---\nname: {name}\ndescription: The {name} skill.\n---\n\n# {name}\n")
}

fn catalog(with_secret: bool) -> Arc<Catalog> {
    let mut t = SourceTree::default();
    t.add_file("hello/SKILL.md", md("hello"));
    if with_secret {
        t.add_file("secret/SKILL.md", md("secret"));
        t.add_file("skills-edge.toml", RULES);
    }
    let c = compile(t).expect("compiles");
    Arc::new(Catalog::from_bytes(pack::encode(&c, None)).unwrap())
}

fn transcript(c: Arc<Catalog>, grant: Grant) -> Vec<String> {
    let ep = Endpoint::new(c, HttpConfig::default()).unwrap();
    let mut out = Vec::new();
    for (method, params) in [
        ("resources/list", json!({})),
        ("resources/templates/list", json!({})),
        ("resources/read", json!({"uri":"skill://secret/SKILL.md"})),
        ("resources/read", json!({"uri":"skill://index.json"})),
    ] {
        let body = request(Era::Modern, 1, method, params.clone());
        let head = Head {
            method: "POST",
            path: "/mcp",
            host: Some("127.0.0.1:8787"),
            accept: Some("application/json, text/event-stream"),
            content_type: Some("application/json"),
            protocol_version: Some(MODERN),
            mcp_method: Some(method),
            mcp_name: params.get("uri").and_then(Value::as_str),
            ..Head::default()
        };
        let r = ep.handle(&head, &body, grant);
        out.push(format!(
            "{method} {params} -> {} {}",
            r.status,
            String::from_utf8_lossy(&r.body)
        ));
    }
    out
}

#[test]
fn an_attackers_access_grant_sees_what_a_catalog_without_the_secret_shows() {
    let with_secret = catalog(true);
    let without = catalog(false);
    let b = access_step(Some("/custom/groups"));
    let reference = transcript(without, Grant::PUBLIC);
    for claims in [
        json!({"sub":"u","email":"alice@evil-acme.example"}),
        json!({"sub":"u","email":"alice@acme.example.evil.com"}),
        json!({"sub":"u","email":"alice@ACME.EXAMPL\u{0395}"}),
        json!({"sub":"u","email":"x@y","custom":{"groups":["email-domain:acme.example","ENG"," eng"]}}),
        json!({"sub":"","common_name":"eng"}),
        json!({"sub":"u","scope":"group:eng email-domain:acme.example"}),
    ] {
        let scopes = access(&b, claims.clone()).unwrap();
        let grant = with_secret.grant(&scopes);
        assert_eq!(grant, Grant::PUBLIC, "{claims}: {scopes:?}");
        assert_eq!(
            transcript(with_secret.clone(), grant),
            reference,
            "{claims}"
        );
    }
    // The right grant does see it (so the comparison is not vacuous).
    let scopes = access(&b, json!({"sub":"u","email":"bob@Acme.Example"})).unwrap();
    let grant = with_secret.grant(&scopes);
    assert_ne!(transcript(with_secret.clone(), grant), reference);
}

/// Docs (Access grants): each value of the group claim grants `group:<value>`, and "a value
/// with a space, `"` or `\` in it is no scope token and is left out". A group claim that is
/// one string (a single-valued SAML attribute or OIDC claim) naming the group "Platform eng"
/// must not grant `group:eng`, another group.
#[test]
fn a_group_named_with_a_space_grants_another_group() {
    let b = access_step(Some("/custom/groups"));
    let g = access(&b, json!({"sub":"u-1","custom":{"groups":"Platform eng"}})).unwrap();
    assert!(!g.iter().any(|s| s == "group:eng"), "{g:?}");
    // The same value as an array item is left out, as the docs say.
    let g = access(
        &b,
        json!({"sub":"u-1","custom":{"groups":["Platform eng"]}}),
    )
    .unwrap();
    assert!(g.is_empty(), "{g:?}");
}

/// `AUTH_SCOPES_CLAIM` spellings at the edge of the setting: each is refused at start, or
/// reads exactly the member it names.
#[test]
fn scope_claim_settings_at_the_edge() {
    for setting in [
        "",
        ",",
        "scp,",
        ",scp",
        "scp,,roles",
        "scp, roles",
        " scp",
        "/",
        "//",
        "#/scp",
        "/scp/",
        "~",
        "/a~2b",
        "/a~",
        "scp,scp",
        "/scp,scp",
    ] {
        let b = Bearer::new(BearerConfig {
            mode: AuthMode::Jwt,
            issuer: Some(ISS.into()),
            audiences: vec![AUD.into()],
            scope_claim: Some(setting.to_owned()),
            token_profile: Some(TokenProfile::Jwt),
            ..BearerConfig::default()
        });
        let b = match b {
            // Refused at start, naming the setting.
            Err(e) => {
                assert!(e.to_string().contains("scope_claim"), "{setting:?}: {e}");
                continue;
            }
            Ok(b) => b.unwrap(),
        };
        let c = with(|c| {
            c.remove("scope");
            c.insert("".into(), json!("empty-name"));
            c.insert(" scp".into(), json!("space-scp"));
            c.insert("scp".into(), json!("scp"));
            c.insert("roles".into(), json!("roles"));
            c.insert(" roles".into(), json!("space-roles"));
            c.insert("a~b".into(), json!("tilde"));
            c.insert("#".into(), json!({"scp": "hash"}));
        });
        let got = run(&b, &signed(HDR, &c)).unwrap();
        for s in &got {
            assert!(*s == "scp" || *s == "roles", "{setting:?} read {s:?}");
        }
    }
}

/// Ed25519 signature malleability: `S + L` (RFC 8032 §5.1.7: `S` must be below `L`).
#[test]
fn attacker_sends_a_malleated_ed25519_signature() {
    let b = jwt_profile(None);
    let t = signed(HDR, &good_claims().to_string());
    let (input, sig) = t.rsplit_once('.').unwrap();
    let mut sig = URL_SAFE_NO_PAD.decode(sig).unwrap();
    // L = 2^252 + 27742317777372353535851937790883648493, little-endian.
    const L: [u8; 32] = [
        0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde,
        0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
    ];
    let mut carry = 0u16;
    for i in 0..32 {
        let v = u16::from(sig[32 + i]) + u16::from(L[i]) + carry;
        sig[32 + i] = v as u8;
        carry = v >> 8;
    }
    assert_eq!(carry, 0);
    assert_eq!(run(&b, &format!("{input}.{}", b64(&sig))), Err("signature"));
}

/// Docs (Who may see what, the metadata): in `jwt` mode `scopes_supported` lists every scope
/// a rule names, `email:` addresses included, so the metadata document of a catalog with
/// private skills differs from one without; recorded as observed (a documented choice).
#[test]
fn the_metadata_tells_a_catalog_with_rules_from_one_without() {
    let with_secret = catalog(true);
    let without = catalog(false);
    assert_ne!(with_secret.access_scopes(), without.access_scopes());
    assert!(with_secret
        .access_scopes()
        .contains(&"email-domain:acme.example"));
}

/// The group-claim split end to end: a caller whose one group is "Platform eng" (the claim a
/// single string) sees the skill whose rule names `group:eng`, while the docs leave a value
/// with a space out.
#[test]
fn a_group_named_with_a_space_sees_another_groups_skill() {
    let with_secret = catalog(true);
    let reference = transcript(catalog(false), Grant::PUBLIC);
    let b = access_step(Some("/custom/groups"));
    let scopes = access(&b, json!({"sub":"u","custom":{"groups":"Platform eng"}})).unwrap();
    let grant = with_secret.grant(&scopes);
    assert_eq!(transcript(with_secret, grant), reference, "{scopes:?}");
}

/// The Worker's vars around `AUTH_TOKEN_PROFILE`, read as the Worker reads them: the docs
/// refuse it with `access`, refuse a wildcard host without `AUTH_AUDIENCE`, and take only the
/// names `rfc9068` and `jwt`.
#[test]
fn token_profile_settings_at_the_edge() {
    let cfg = |vars: &[(&str, &str)]| {
        settings::worker_config(vars.iter().map(|(k, _)| *k), |s| {
            vars.iter()
                .find(|(k, _)| *k == s.var)
                .map(|(_, v)| (*v).to_owned())
        })
        .map(|_| ())
        .map_err(|e| e.to_string())
    };
    let jwt = [
        ("AUTH_MODE", "jwt"),
        ("AUTH_ISSUER", ISS),
        ("AUTH_AUDIENCE", AUD),
        ("ALLOWED_HOSTS", "skills.example.com"),
    ];
    let with = |extra: &[(&'static str, &'static str)]| {
        let mut v = jwt.to_vec();
        for (k, val) in extra {
            v.retain(|(n, _)| n != k);
            v.push((k, val));
        }
        v
    };
    assert!(cfg(&with(&[("AUTH_TOKEN_PROFILE", "jwt")])).is_ok());
    assert!(cfg(&with(&[("AUTH_TOKEN_PROFILE", "rfc9068")])).is_ok());
    for bad in ["", "JWT ", "none", "rfc-9068", "id_token", "jwt,rfc9068"] {
        let v = with(&[("AUTH_TOKEN_PROFILE", bad)]);
        assert!(cfg(&v).is_err(), "AUTH_TOKEN_PROFILE={bad:?} accepted");
    }
    // With access, refused.
    let access = [
        ("AUTH_MODE", "access"),
        ("AUTH_ISSUER", TEAM),
        ("AUTH_AUDIENCE", TAG),
        ("AUTH_TOKEN_PROFILE", "jwt"),
        ("ALLOWED_HOSTS", "skills.example.com"),
    ];
    assert!(cfg(&access).is_err());
    // A wildcard host without AUTH_AUDIENCE, with the jwt profile: refused at start.
    let mut v = with(&[
        ("AUTH_TOKEN_PROFILE", "jwt"),
        ("ALLOWED_HOSTS", "*.workers.dev"),
    ]);
    v.retain(|(k, _)| *k != "AUTH_AUDIENCE");
    assert!(cfg(&v).is_err());
}

// ---- Found by an outside attack on the identity providers' tokens ----

#[test]
fn attacker_presents_a_token_that_never_expires() {
    let b = jwt_profile(None);
    const DAY: u64 = 24 * 3600;
    let lived = |iat: Option<u64>, exp: u64| {
        run(
            &b,
            &signed(
                HDR,
                &with(|c| {
                    c.remove("iat");
                    if let Some(iat) = iat {
                        c.insert("iat".into(), json!(iat));
                    }
                    c.insert("exp".into(), json!(exp));
                }),
            ),
        )
    };
    // Valid until the year 2100, or further: refused whatever iat says.
    for (iat, exp) in [
        (Some(NOW), 4_102_444_800),
        (None, 4_102_444_800),
        (Some(NOW), i64::MAX as u64),
        (None, NOW + 32 * DAY),
        // Issued long ago, "valid" a little longer: the lifetime is what counts.
        (Some(NOW - 400 * DAY), NOW + 60),
    ] {
        assert_eq!(lived(iat, exp), Err("claim"), "iat {iat:?} exp {exp}");
    }
    let huge = with(|c| drop(c.insert("exp".into(), json!(1e300))));
    assert_eq!(run(&b, &signed(HDR, &huge)), Err("claim"));
    // The longest lifetime a supported issuer documents (Auth0's 30 days) and the usual ones
    // are accepted.
    for (iat, exp) in [
        (Some(NOW - 10), NOW - 10 + 30 * DAY),
        (None, NOW + 30 * DAY),
        (Some(NOW - 10), NOW + 300),
        (Some(NOW - 29 * DAY), NOW + DAY),
    ] {
        assert!(lived(iat, exp).is_ok(), "iat {iat:?} exp {exp}");
    }
    // The same bound under the RFC 9068 profile and for Access.
    let strict = Bearer::new(BearerConfig {
        mode: AuthMode::Jwt,
        issuer: Some(ISS.into()),
        audiences: vec![AUD.into()],
        ..BearerConfig::default()
    })
    .unwrap()
    .unwrap();
    let h = r#"{"alg":"EdDSA","kid":"ed","typ":"at+jwt"}"#;
    let forever = with(|c| {
        c.insert("client_id".into(), json!("c"));
        c.insert("jti".into(), json!("j"));
        c.insert("exp".into(), json!(4_102_444_800u64));
    });
    assert_eq!(run(&strict, &signed(h, &forever)), Err("claim"));
    let a = access_step(None);
    let r = access(
        &a,
        json!({"sub":"u","email":"a@acme.example","exp":4_102_444_800u64}),
    );
    assert_eq!(r, Err("claim"));
}

#[test]
fn attacker_presents_a_dpop_or_mtls_bound_token_as_a_bearer_token() {
    // A sender-constrained token (RFC 7800 `cnf`) stolen without its key: DPoP's `jkt`
    // (RFC 9449 §6.1), mTLS's `x5t#S256` (RFC 8705 §3.1), or any other confirmation method.
    let b = jwt_profile(None);
    for cnf in [
        json!({"jkt":"0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"}),
        json!({"x5t#S256":"bwcK0esc3ACC3DB2Y5_lESsXE8o9ltc05O89jdN-dg2"}),
        json!({"jwk":{"kty":"OKP","crv":"Ed25519","x":b64(&pair().pk[..])}}),
        json!({}),
        json!(null),
        json!("jkt"),
    ] {
        let c = with(|c| drop(c.insert("cnf".into(), cnf.clone())));
        assert_eq!(run(&b, &signed(HDR, &c)), Err("claim"), "cnf {cnf}");
    }
    let a = access_step(None);
    let r = access(
        &a,
        json!({"sub":"u","email":"a@acme.example","cnf":{"jkt":"x"}}),
    );
    assert_eq!(r, Err("claim"));
}

#[test]
fn attacker_presents_a_keycloak_id_token_addressed_to_the_api() {
    // Keycloak marks each token in its `typ` claim: `Bearer` for access tokens, `ID` for ID
    // tokens. An ID token whose `aud` is the API (a client whose ID is the API's URL, or an
    // audience mapper on the ID token) passes every other check.
    let b = jwt_profile(Some("scope,/realm_access/roles"));
    let keycloak = |typ: Value| {
        with(|c| {
            c.insert("typ".into(), typ);
            c.insert("azp".into(), json!("mcp-client"));
            c.insert("realm_access".into(), json!({"roles":["skills-reader"]}));
        })
    };
    for typ in [
        json!("ID"),
        json!("Refresh"),
        json!("Offline"),
        json!("Logout"),
        json!("Serialized-ID"),
        json!(""),
        json!("Bearer "),
        json!(["Bearer"]),
        json!(null),
    ] {
        assert_eq!(
            run(&b, &signed(HDR, &keycloak(typ.clone()))),
            Err("claim"),
            "typ {typ}"
        );
    }
    // Keycloak's access token, and providers that send no such claim, are accepted.
    for typ in ["Bearer", "bearer"] {
        assert_eq!(
            run(&b, &signed(HDR, &keycloak(json!(typ)))),
            Ok(vec!["team".into(), "skills-reader".into()])
        );
    }
}

#[test]
fn attacker_puts_values_that_are_not_scope_tokens_in_the_jwt_grant() {
    // Array items are kept whole (a space does not split them), and those that are no scope
    // token (RFC 6749 §3.3) never reach the grant: no access rule can name them.
    let b = jwt_profile(Some("scp,roles"));
    let c = with(|c| {
        c.remove("scope");
        c.insert("scp".into(), json!(["team", "other team", "a\"b", "a\\b"]));
        c.insert(
            "roles".into(),
            json!(["caf\u{e9}", "tab\tbed", "nul\u{0}", "", "review", "\u{7f}"]),
        );
    });
    assert_eq!(
        run(&b, &signed(HDR, &c)),
        Ok(vec!["team".into(), "review".into()])
    );
    // A string with other whitespace than a space is one value, and no scope token.
    let c = with(|c| drop(c.insert("scope".into(), json!("team\tadmin review"))));
    assert_eq!(
        run(&jwt_profile(None), &signed(HDR, &c)),
        Ok(vec!["review".into()])
    );
}

#[test]
fn attacker_presents_an_access_org_token_to_the_application() {
    // The team domain's own token (`type` "org", the CF_Authorization cookie of
    // <team>.cloudflareaccess.com) or a token of another kind is no application token.
    let b = access_step(None);
    let user = json!({"sub":"u","email":"alice@acme.example"});
    for kind in [
        json!("org"),
        json!("APP"),
        json!("app "),
        json!(""),
        json!(["app"]),
        json!(null),
    ] {
        let mut c = user.clone();
        c["type"] = kind.clone();
        assert_eq!(access(&b, c), Err("claim"), "type {kind}");
    }
    // Without `type` at all.
    let c = json!({"iss":TEAM,"aud":[TAG],"iat":NOW - 5,"exp":NOW + 600,
        "sub":"u","email":"alice@acme.example"});
    assert_eq!(access_exactly(&b, c), Err("claim"));
    // The application token is accepted.
    assert_eq!(
        access(&b, user),
        Ok(vec![
            "email:alice@acme.example".into(),
            "email-domain:acme.example".into()
        ])
    );
}
