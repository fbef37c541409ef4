//! Bearer token validation (`skills_edge::auth`): valid tokens of the three algorithms, and each
//! hostile case refused with its reason.
//!
//! EdDSA tokens are minted here with ed25519-compact. ES256 and RS256 tokens are minted by
//! Python's `cryptography` into `tests/auth/fixtures.json` (`tests/auth/mint.py`, run again
//! to renew them) and checked here with a native verifier over the RustCrypto crates `p256`
//! and `rsa`, so the signatures are made and checked by independent implementations.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use serde_json::{json, Value};
use skills_edge::auth::*;

const ISS: &str = "https://as.example";
const AUD: &str = "https://rs.example/mcp";
const NOW: u64 = 1_700_000_000;

fn b64(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

fn pair(seed: u8) -> ed25519_compact::KeyPair {
    ed25519_compact::KeyPair::from_seed(ed25519_compact::Seed::new([seed; 32]))
}

fn okp(kid: &str, seed: u8) -> Value {
    json!({"kty":"OKP","crv":"Ed25519","kid":kid,"use":"sig","x":b64(&pair(seed).pk[..])})
}

fn set(keys: &[Value]) -> KeySet {
    KeySet::parse(json!({ "keys": keys }).to_string().as_bytes()).unwrap()
}

/// The default key set: Ed25519 keys `ed-1` (seed 1) and `ed-2` (seed 2).
fn keys() -> KeySet {
    set(&[okp("ed-1", 1), okp("ed-2", 2)])
}

/// RFC 9068 claims, valid at NOW.
fn claims() -> Value {
    json!({
        "iss": ISS, "aud": AUD, "sub": "alice", "client_id": "mcp-client", "jti": "j-1",
        "iat": NOW, "exp": NOW + 600, "scope": "skills:read skills:private",
    })
}

fn header(kid: &str) -> Value {
    json!({"alg":"EdDSA","kid":kid,"typ":"at+jwt"})
}

/// A token of raw header and claims text, signed by the Ed25519 key of `seed`.
fn mint_raw(header: &str, claims: &str, seed: u8) -> String {
    let input = format!("{}.{}", b64(header.as_bytes()), b64(claims.as_bytes()));
    let sig = pair(seed).sk.sign(&input, None);
    format!("{input}.{}", b64(&sig[..]))
}

fn mint(header: &Value, claims: &Value) -> String {
    mint_raw(&header.to_string(), &claims.to_string(), 1)
}

fn validator() -> Validator {
    Validator::new(ValidatorConfig::rfc9068(ISS, vec![AUD.into()])).unwrap()
}

fn check(token: &str) -> Result<Caller, TokenError> {
    check_with(&validator(), token, &keys(), NOW)
}

fn check_with(v: &Validator, token: &str, keys: &KeySet, now: u64) -> Result<Caller, TokenError> {
    let t = Token::parse(token)?;
    v.validate(&t, keys, now, &Native)
}

fn reason(r: Result<Caller, TokenError>) -> &'static str {
    match r {
        Ok(c) => panic!("accepted: {c:?}"),
        Err(e) => {
            assert_eq!(e.status(), 401);
            e.reason()
        }
    }
}

/// A native verifier of the three algorithms: Ed25519 through the library's own, ES256 and
/// RS256 through `p256` and `rsa`.
pub(crate) struct Native;

impl SignatureVerifier for Native {
    fn verify(
        &self,
        alg: Algorithm,
        key: &PublicKey,
        message: &[u8],
        signature: &[u8],
    ) -> Result<bool, Unsupported> {
        match (alg, key) {
            (Algorithm::Es256, PublicKey::P256 { x, y }) => {
                use p256::ecdsa::signature::Verifier as _;
                let mut sec1 = vec![4u8];
                sec1.extend_from_slice(x);
                sec1.extend_from_slice(y);
                let (Ok(k), Ok(s)) = (
                    p256::ecdsa::VerifyingKey::from_sec1_bytes(&sec1),
                    p256::ecdsa::Signature::from_slice(signature),
                ) else {
                    return Ok(false);
                };
                Ok(k.verify(message, &s).is_ok())
            }
            (Algorithm::Rs256, PublicKey::Rsa { n, e }) => {
                use sha2::Digest as _;
                let Ok(k) = rsa::PublicKey::new_with_size_limits(
                    rsa::BoxedUint::from_be_slice_vartime(n),
                    rsa::BoxedUint::from_be_slice_vartime(e),
                    MIN_RSA_BITS..=MAX_RSA_BITS,
                ) else {
                    return Ok(false);
                };
                let hashed = sha2::Sha256::digest(message);
                Ok(
                    k.verify(rsa::Pkcs1v15Sign::new::<sha2::Sha256>(), &hashed, signature)
                        .is_ok(),
                )
            }
            _ => Ed25519Verifier.verify(alg, key, message, signature),
        }
    }
}

// --- valid tokens -----------------------------------------------------------------------------

#[test]
fn an_eddsa_access_token_is_accepted() {
    let token = mint(&header("ed-1"), &claims());
    for value in [
        format!("Bearer {token}"),
        format!("bearer {token}"),
        format!("BEARER   {token}"),
        token.clone(),
    ] {
        let caller = check(&value).unwrap();
        assert_eq!(caller.subject, "alice");
        assert_eq!(caller.scopes, ["skills:read", "skills:private"]);
        assert_eq!(caller.expires_at, NOW + 600);
    }
    // RFC 9864's fully specified name is the same check.
    let mut h = header("ed-2");
    h["alg"] = json!("Ed25519");
    let t = mint_raw(&h.to_string(), &claims().to_string(), 2);
    assert_eq!(Token::parse(&t).unwrap().alg(), Algorithm::EdDsa);
    assert!(check(&t).is_ok());
    // typ is case-insensitive, and application/ may be written (RFC 7515 §4.1.9).
    for typ in ["AT+JWT", "application/at+jwt", "Application/At+Jwt"] {
        let mut h = header("ed-1");
        h["typ"] = json!(typ);
        assert!(check(&mint(&h, &claims())).is_ok(), "{typ}");
    }
}

#[test]
fn audiences_and_scopes_in_their_array_forms() {
    let mut c = claims();
    c["aud"] = json!(["https://other.example", AUD]);
    c["permissions"] = json!(["skills:read", "skills:admin", "skills:read"]);
    let mut cfg = ValidatorConfig::rfc9068(ISS, vec!["https://x.example".into(), AUD.into()]);
    cfg.scope_claims = vec!["permissions".into()];
    let caller = check_with(
        &Validator::new(cfg).unwrap(),
        &mint(&header("ed-1"), &c),
        &keys(),
        NOW,
    )
    .unwrap();
    assert_eq!(caller.scopes, ["skills:read", "skills:admin"]);
    // No scope claim: no scopes.
    let mut c = claims();
    c.as_object_mut().unwrap().remove("scope");
    assert!(check(&mint(&header("ed-1"), &c)).unwrap().scopes.is_empty());
}

#[test]
fn a_token_without_kid_takes_the_one_key_of_its_type() {
    let h = json!({"alg":"EdDSA","typ":"at+jwt"});
    let t = mint(&h, &claims());
    let one = set(&[okp("ed-1", 1)]);
    assert!(check_with(&validator(), &t, &one, NOW).is_ok());
    // Two Ed25519 keys: not guessed, not tried in turn.
    assert_eq!(reason(check(&t)), "ambiguous-key");
    // No key of its type.
    let fx = fixtures();
    let rsa_only = KeySet::parse(
        json!({"keys":[fx["jwks"]["keys"][1].clone()]})
            .to_string()
            .as_bytes(),
    )
    .unwrap();
    assert_eq!(
        reason(check_with(&validator(), &t, &rsa_only, NOW)),
        "unknown-key"
    );
}

#[test]
fn the_time_checks_have_a_leeway_and_round_toward_refusal() {
    let mut c = claims();
    c["exp"] = json!(NOW);
    c["iat"] = json!(NOW - 10);
    let t = mint(&header("ed-1"), &c);
    // Valid while now < exp + leeway (60 s).
    assert!(check_with(&validator(), &t, &keys(), NOW + 59).is_ok());
    assert_eq!(
        reason(check_with(&validator(), &t, &keys(), NOW + 60)),
        "expired"
    );
    let mut cfg = ValidatorConfig::rfc9068(ISS, vec![AUD.into()]);
    cfg.leeway = 0;
    let strict = Validator::new(cfg).unwrap();
    assert_eq!(reason(check_with(&strict, &t, &keys(), NOW)), "expired");
    assert!(check_with(&strict, &t, &keys(), NOW - 1).is_ok());
    // A fractional exp counts from its whole second before.
    c["exp"] = json!(NOW as f64 + 0.9);
    let t = mint(&header("ed-1"), &c);
    assert_eq!(reason(check_with(&strict, &t, &keys(), NOW)), "expired");
    // nbf and iat up to the leeway ahead are accepted.
    let mut c = claims();
    c["nbf"] = json!(NOW + 60);
    c["iat"] = json!(NOW + 60);
    assert!(check(&mint(&header("ed-1"), &c)).is_ok());
}

// --- ES256 and RS256 from Python's cryptography -----------------------------------------------

pub(crate) fn fixtures() -> Value {
    let text = include_str!("auth/fixtures.json");
    serde_json::from_str(text).unwrap()
}

fn fixture_keys() -> KeySet {
    KeySet::parse(fixtures()["jwks"].to_string().as_bytes()).unwrap()
}

pub(crate) fn fixture_token(name: &str) -> String {
    fixtures()["tokens"][name].as_str().unwrap().to_owned()
}

#[test]
fn es256_and_rs256_tokens_minted_by_python_are_accepted() {
    let fx = fixtures();
    let keys = fixture_keys();
    // The P-256 and the 2048-bit RSA key are read; the 1024-bit one is skipped.
    let kinds: Vec<_> = keys
        .keys()
        .iter()
        .map(|k| (k.kid.as_deref(), k.key.kind()))
        .collect();
    assert_eq!(kinds, [(Some("es-1"), "EC P-256"), (Some("rs-1"), "RSA")]);
    assert_eq!(keys.skipped().len(), 1);
    assert_eq!(keys.skipped()[0].kid.as_deref(), Some("rs-weak"));
    assert!(
        keys.skipped()[0].why.contains("1024 bits"),
        "{:?}",
        keys.skipped()
    );
    let v = Validator::new(ValidatorConfig::rfc9068(
        fx["issuer"].as_str().unwrap(),
        vec![fx["audience"].as_str().unwrap().into()],
    ))
    .unwrap();
    let now = fx["now"].as_u64().unwrap() + 10;
    for (name, alg) in [("es256", Algorithm::Es256), ("rs256", Algorithm::Rs256)] {
        let t = Token::parse(&fixture_token(name)).unwrap();
        assert_eq!(t.alg(), alg);
        assert_eq!(t.typ(), Some("at+jwt"));
        let caller = v.validate(&t, &keys, now, &Native).unwrap();
        assert_eq!(caller.subject, "alice", "{name}");
        assert_eq!(caller.scopes, ["skills:read", "skills:private"]);
        assert_eq!(caller.expires_at, fx["now"].as_u64().unwrap() + 3600);
        // The library's own verifier does not do these: the Worker uses WebCrypto.
        assert_eq!(
            v.validate(&t, &keys, now, &Ed25519Verifier)
                .unwrap_err()
                .reason(),
            "unverifiable"
        );
        // The two-step form gives the same answer.
        let check = v.prepare(&t, &keys, now).unwrap();
        assert_eq!(check.alg, alg);
        let verdict = Native
            .verify(check.alg, check.key, check.message, check.signature)
            .unwrap();
        assert_eq!(check.finish(verdict).unwrap().subject, "alice");
    }
    // A claim changed after signing.
    let changed = Token::parse(&fixture_token("rs256_claims_changed")).unwrap();
    assert_eq!(
        v.validate(&changed, &keys, now, &Native).unwrap_err(),
        TokenError::Signature
    );
    assert!(v
        .prepare(&changed, &keys, now)
        .unwrap()
        .finish(false)
        .is_err());
}

#[test]
fn cloudflare_access_tokens_minted_by_python_are_accepted() {
    let fx = fixtures();
    let keys = fixture_keys();
    let cfg = ValidatorConfig::cloudflare_access(
        "acme.cloudflareaccess.com",
        vec![fx["access_aud"].as_str().unwrap().into()],
    )
    .unwrap();
    assert_eq!(cfg.issuer, fx["access_issuer"].as_str().unwrap());
    assert_eq!(
        access_certs_url(&cfg.issuer),
        "https://acme.cloudflareaccess.com/cdn-cgi/access/certs"
    );
    let v = Validator::new(cfg).unwrap();
    let now = fx["now"].as_u64().unwrap() + 5;
    let user = check_with(&v, &fixture_token("access"), &keys, now).unwrap();
    assert_eq!(user.subject, "7335d417-61da-459d-899c-0a01c76a2f94");
    // The grant is what Access asserts (no groups claim configured).
    assert_eq!(
        user.scopes,
        ["email:user@example.com", "email-domain:example.com"]
    );
    let service = check_with(&v, &fixture_token("access_service"), &keys, now).unwrap();
    assert_eq!(service.subject, "88bf3b6d86161464f6509f7219099e57.access");
    assert_eq!(
        service.scopes,
        ["service-token:88bf3b6d86161464f6509f7219099e57.access"]
    );
    // The Access preset accepts RS256 only, and an RFC 9068 token is not for this audience.
    assert_eq!(
        reason(check_with(&v, &fixture_token("es256"), &keys, now)),
        "algorithm"
    );
    assert_eq!(
        reason(check_with(&v, &fixture_token("rs256"), &keys, now)),
        "issuer"
    );
    // The RFC 9068 validator refuses an Access token: typ JWT.
    let strict = Validator::new(ValidatorConfig::rfc9068(
        fx["access_issuer"].as_str().unwrap(),
        vec![fx["access_aud"].as_str().unwrap().into()],
    ))
    .unwrap();
    assert_eq!(
        reason(check_with(&strict, &fixture_token("access"), &keys, now)),
        "typ"
    );
}

// --- hostile tokens, each refused with its reason ---------------------------------------------

#[test]
fn alg_none_is_refused() {
    let h = b64(br#"{"alg":"none","typ":"at+jwt"}"#);
    let p = b64(claims().to_string().as_bytes());
    for t in [format!("{h}.{p}."), format!("{h}.{p}.AAAA")] {
        let e = Token::parse(&t).unwrap_err();
        assert_eq!(e.reason(), "algorithm", "{e}");
        assert!(e.to_string().contains("\"none\""), "{e}");
    }
    for alg in [
        "None", "NONE", "", "HS512", "PS256", "ES384", "RS512", "Ed448", "ES256K",
    ] {
        let h = b64(json!({"alg": alg, "kid": "ed-1"}).to_string().as_bytes());
        assert_eq!(
            Token::parse(&format!("{h}.{p}.AAAA")).unwrap_err().reason(),
            "algorithm",
            "{alg}"
        );
    }
}

#[test]
fn hs256_signed_with_the_public_key_is_refused() {
    // From Python: the RSA public key's PEM as the HMAC secret (RFC 8725 §2.1).
    assert_eq!(
        Token::parse(&fixture_token("hs256_public_key_secret")).unwrap_err(),
        TokenError::Algorithm {
            alg: "\"HS256\"".into()
        }
    );
    // And with the Ed25519 key's bytes as the secret: refused before any key is looked at.
    let h = b64(br#"{"alg":"HS256","kid":"ed-1","typ":"at+jwt"}"#);
    let p = b64(claims().to_string().as_bytes());
    let t = format!("{h}.{p}.{}", b64(&pair(1).pk[..]));
    assert_eq!(Token::parse(&t).unwrap_err().reason(), "algorithm");
}

#[test]
fn an_algorithm_outside_the_configuration_is_refused() {
    let mut cfg = ValidatorConfig::rfc9068(ISS, vec![AUD.into()]);
    cfg.algorithms = vec![Algorithm::Es256];
    let v = Validator::new(cfg).unwrap();
    let t = mint(&header("ed-1"), &claims());
    assert_eq!(reason(check_with(&v, &t, &keys(), NOW)), "algorithm");
}

#[test]
fn wrong_audience_is_refused() {
    for aud in [
        json!("https://rs.example/other"),
        json!("https://rs.example/mcp/"),
        json!("HTTPS://RS.EXAMPLE/mcp"),
        json!(["https://a.example", "https://b.example"]),
        json!([]),
    ] {
        let mut c = claims();
        c["aud"] = aud.clone();
        assert_eq!(
            reason(check(&mint(&header("ed-1"), &c))),
            "audience",
            "{aud}"
        );
    }
}

#[test]
fn wrong_issuer_is_refused() {
    for iss in [
        "https://evil.example",
        "https://as.example/",
        "https://AS.example",
        "",
    ] {
        let mut c = claims();
        c["iss"] = json!(iss);
        let e = check(&mint(&header("ed-1"), &c)).unwrap_err();
        assert_eq!(e.reason(), "issuer", "{iss}");
    }
}

#[test]
fn wrong_typ_is_refused() {
    for typ in [
        json!("JWT"),
        json!("at+JWT2"),
        json!("application/jwt"),
        json!("at+jwt "),
    ] {
        let mut h = header("ed-1");
        h["typ"] = typ.clone();
        assert_eq!(reason(check(&mint(&h, &claims()))), "typ", "{typ}");
    }
    let h = json!({"alg":"EdDSA","kid":"ed-1"});
    assert_eq!(
        check(&mint(&h, &claims())).unwrap_err(),
        TokenError::Type { typ: None }
    );
    // typ of another JSON type is malformed.
    let mut h = header("ed-1");
    h["typ"] = json!(1);
    assert_eq!(reason(check(&mint(&h, &claims()))), "malformed");
}

#[test]
fn expired_not_yet_valid_and_future_iat_are_refused() {
    let mut c = claims();
    c["exp"] = json!(NOW - 61);
    assert!(matches!(
        check(&mint(&header("ed-1"), &c)),
        Err(TokenError::Expired { exp, now: NOW }) if exp == (NOW - 61) as i64
    ));
    let mut c = claims();
    c["nbf"] = json!(NOW + 61);
    assert_eq!(reason(check(&mint(&header("ed-1"), &c))), "not-yet-valid");
    let mut c = claims();
    c["iat"] = json!(NOW + 61);
    assert_eq!(
        reason(check(&mint(&header("ed-1"), &c))),
        "issued-in-future"
    );
    // Far-off values do not overflow.
    let mut c = claims();
    c["exp"] = json!(i64::MIN);
    assert_eq!(reason(check(&mint(&header("ed-1"), &c))), "expired");
    // Far in the future: no overflow, and over the 31-day lifetime bound.
    c["exp"] = json!(u64::MAX);
    assert_eq!(reason(check(&mint(&header("ed-1"), &c))), "claim");
    // A time past i64: every exp is behind it.
    let t = mint(&header("ed-1"), &c);
    assert_eq!(
        reason(check_with(&validator(), &t, &keys(), u64::MAX)),
        "expired"
    );
}

#[test]
fn unknown_and_ambiguous_kids_are_refused() {
    assert_eq!(
        check(&mint(&header("ed-9"), &claims())).unwrap_err(),
        TokenError::UnknownKey {
            kid: Some("\"ed-9\"".into())
        }
    );
    // Two keys with one kid (even the right key among them): the kid is ambiguous.
    let twice = set(&[okp("ed-1", 1), okp("ed-1", 3), okp("ed-2", 2)]);
    assert_eq!(twice.ambiguous(), ["ed-1"]);
    let t = mint(&header("ed-1"), &claims());
    assert_eq!(
        reason(check_with(&validator(), &t, &twice, NOW)),
        "ambiguous-key"
    );
    // Other kids of the set still work.
    let t2 = mint_raw(&header("ed-2").to_string(), &claims().to_string(), 2);
    assert!(check_with(&validator(), &t2, &twice, NOW).is_ok());
    // A set whose only keys share one kid has no usable key.
    let e = KeySet::parse(
        json!({"keys":[okp("k", 1), okp("k", 2)]})
            .to_string()
            .as_bytes(),
    )
    .unwrap_err();
    assert_eq!(e.reason(), "no-usable-key");
    assert!(e.to_string().contains("shared by several keys"), "{e}");
}

#[test]
fn bad_base64url_is_refused() {
    let t = mint(&header("ed-1"), &claims());
    let (h, rest) = t.split_once('.').unwrap();
    let (p, s) = rest.split_once('.').unwrap();
    let mut bad = vec![
        format!("{h}=.{p}.{s}"),
        format!("{h}.{p}.{s}="),
        format!("{h}.{p}.{s}=="),
        format!("{h}.{p}+.{s}"),
        format!("{h}.{p}.{}", s.replace('-', "+").replace('_', "/")),
        format!("{h}.{p}\n.{s}"),
        format!("{h}.{p}.{s}\t"),
        format!("{h}.{}", &rest[1..]),
    ];
    // The signature in the standard alphabet, when it has '-' or '_'.
    if s.contains(['-', '_']) {
        bad.push(format!("{h}.{p}.{}", s.replace('-', "+")));
    }
    // Non-zero unused bits in the last character: another spelling of the same bytes.
    let last = s.chars().last().unwrap();
    let idx = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
        .find(last)
        .unwrap();
    let alt = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
        .chars()
        .nth(idx ^ 1)
        .unwrap();
    bad.push(format!("{h}.{p}.{}{alt}", &s[..s.len() - 1]));
    for b in &bad {
        let e = Token::parse(b).unwrap_err();
        assert_eq!(e.reason(), "malformed", "{b:?}: {e}");
    }
    // Whitespace inside the credential.
    assert_eq!(
        Token::parse(&format!("Bearer {h}.{p} .{s}"))
            .unwrap_err()
            .reason(),
        "malformed"
    );
    // Another scheme: an unsupported authentication method (no error code, RFC 6750 §3.1).
    for other in ["Basic dXNlcjpwYXNz", "Token abc.def.ghi"] {
        let e = Token::parse(other).unwrap_err();
        assert_eq!((e.reason(), e.error_code()), ("scheme", None), "{other:?}");
    }
    for other in ["Bearer", "Bearer ", ""] {
        assert_eq!(
            Token::parse(other).unwrap_err().reason(),
            "malformed",
            "{other:?}"
        );
    }
}

#[test]
fn a_64_kib_token_is_refused_by_its_length() {
    // Well-formed apart from its size: a claim padded to 64 KiB.
    let mut c = claims();
    c["pad"] = json!("x".repeat(64 * 1024));
    let t = mint(&header("ed-1"), &c);
    assert!(t.len() > 64 * 1024);
    assert_eq!(
        Token::parse(&t).unwrap_err(),
        TokenError::TooLarge { len: t.len() }
    );
    // Not even base64: nothing is decoded.
    let junk = "!".repeat(64 * 1024);
    assert_eq!(Token::parse(&junk).unwrap_err().reason(), "too-large");
    // The bound itself: 16 KiB passes the size check.
    let mut c = claims();
    c["pad"] = json!("");
    let base = mint(&header("ed-1"), &c).len();
    let pad = (MAX_TOKEN_BYTES - base) * 3 / 4;
    c["pad"] = json!("x".repeat(pad - 2));
    let t = mint(&header("ed-1"), &c);
    assert!(t.len() <= MAX_TOKEN_BYTES, "{}", t.len());
    assert!(check(&t).is_ok());
}

#[test]
fn claims_of_the_wrong_json_type_are_refused() {
    let cases = [
        ("exp", json!(format!("{}", NOW + 600))),
        ("exp", json!(null)),
        ("aud", json!(5)),
        ("aud", json!([AUD, 5])),
        ("aud", json!({"a": AUD})),
        ("scope", json!({"skills:read": true})),
        ("scope", json!(["skills:read", 1])),
        ("scope", json!(7)),
        ("iss", json!([ISS])),
        ("sub", json!(42)),
        ("client_id", json!(true)),
        ("jti", json!(1)),
        ("iat", json!("now")),
        ("nbf", json!("1")),
    ];
    for (name, value) in cases {
        let mut c = claims();
        c[name] = value.clone();
        let e = check(&mint(&header("ed-1"), &c)).unwrap_err();
        assert!(
            matches!(&e, TokenError::Claim { name: n, .. } if n == name),
            "{name} = {value}: {e}"
        );
    }
}

#[test]
fn rfc9068_requires_its_claims() {
    for name in ["iss", "exp", "aud", "sub", "client_id", "iat", "jti"] {
        let mut c = claims();
        c.as_object_mut().unwrap().remove(name);
        let e = check(&mint(&header("ed-1"), &c)).unwrap_err();
        assert_eq!(
            e,
            TokenError::Claim {
                name: name.into(),
                problem: "is missing".into()
            }
        );
    }
    for name in ["sub", "client_id", "jti"] {
        let mut c = claims();
        c[name] = json!("");
        assert_eq!(reason(check(&mint(&header("ed-1"), &c))), "claim", "{name}");
    }
}

#[test]
fn a_key_of_the_wrong_type_for_the_alg_is_refused() {
    let keys = fixture_keys();
    // From Python: an ES256 token naming the RSA key.
    let t = fixture_token("es256_header_rsa_signature");
    let fx = fixtures();
    let v = Validator::new(ValidatorConfig::rfc9068(
        fx["issuer"].as_str().unwrap(),
        vec![fx["audience"].as_str().unwrap().into()],
    ))
    .unwrap();
    assert_eq!(
        check_with(&v, &t, &keys, NOW).unwrap_err(),
        TokenError::KeyMismatch {
            alg: "ES256",
            key: "RSA"
        }
    );
    // An EdDSA token naming the P-256 key.
    let h = json!({"alg":"EdDSA","kid":"es-1","typ":"at+jwt"});
    let t = mint_raw(&h.to_string(), &claims().to_string(), 1);
    assert_eq!(
        reason(check_with(&validator(), &t, &keys, NOW)),
        "key-mismatch"
    );
}

#[test]
fn an_rsa_key_under_2048_bits_is_refused() {
    let fx = fixtures();
    let keys = fixture_keys();
    let v = Validator::new(ValidatorConfig::rfc9068(
        fx["issuer"].as_str().unwrap(),
        vec![fx["audience"].as_str().unwrap().into()],
    ))
    .unwrap();
    let e = check_with(&v, &fixture_token("rs256_weak_key"), &keys, NOW + 10).unwrap_err();
    assert_eq!(e.reason(), "unusable-key");
    assert!(e.to_string().contains("at least 2048"), "{e}");
    // A set with only that key has no usable key.
    let weak = json!({"keys":[fx["jwks"]["keys"][2].clone()]});
    let e = KeySet::parse(weak.to_string().as_bytes()).unwrap_err();
    assert!(matches!(&e, KeySetError::NoUsableKey { skipped } if skipped[0].contains("1024 bits")));
    assert_eq!(e.status(), 503);
}

#[test]
fn huge_key_sets_are_refused() {
    let mut keys: Vec<Value> = (0..MAX_KEYS + 1)
        .map(|i| okp(&format!("k{i}"), 1))
        .collect();
    let e = KeySet::parse(json!({ "keys": keys }).to_string().as_bytes()).unwrap_err();
    assert_eq!(
        e,
        KeySetError::TooManyKeys {
            count: MAX_KEYS + 1
        }
    );
    keys.truncate(MAX_KEYS);
    assert_eq!(set(&keys).keys().len(), MAX_KEYS);
    // Over 256 KiB: refused before parsing.
    let big = format!(r#"{{"keys":[],"pad":"{}"}}"#, "x".repeat(MAX_KEY_SET_BYTES));
    assert!(matches!(
        KeySet::parse(big.as_bytes()),
        Err(KeySetError::TooLarge {
            max: MAX_KEY_SET_BYTES,
            ..
        })
    ));
    let junk = vec![b'{'; 1 << 20];
    assert_eq!(KeySet::parse(&junk).unwrap_err().reason(), "too-large");
}

#[test]
fn key_sets_with_keys_of_the_wrong_type_only_are_refused() {
    let x = b64(&[7; 32]);
    let wrong = json!({"keys":[
        {"kty":"oct","kid":"h","k":"c2VjcmV0"},
        {"kty":"EC","crv":"P-384","kid":"e384","x":b64(&[1;48]),"y":b64(&[2;48])},
        {"kty":"OKP","crv":"X25519","kid":"x","x":x},
        {"kty":"OKP","crv":"Ed448","kid":"ed448","x":b64(&[1;57])},
        {"kty":"OKP","crv":"Ed25519","kid":"enc","use":"enc","x":x},
        {"kty":"OKP","crv":"Ed25519","kid":"ops","key_ops":["sign"],"x":x},
        {"kty":"OKP","crv":"Ed25519","kid":"alg","alg":"ES256","x":x},
        {"kty":"OKP","crv":"Ed25519","kid":"priv","d":x,"x":x},
        {"kty":"OKP","crv":"Ed25519","kid":"short","x":b64(&[1;31])},
        {"kty":"OKP","crv":"Ed25519","kid":"pad","x":format!("{x}=")},
        {"kty":"EC","crv":"P-256","kid":"noy","x":x},
        {"kty":"RSA","kid":"e1","n":b64(&[0xff;256]),"e":"AQ"},
        {"kty":"RSA","kid":"even","n":b64(&[0xff;256]),"e":"AQAA"},
        {"kty":"RSA","kid":"huge","n":b64(&[0xff;1025]),"e":"AQAB"},
        {"kty":"RSA","kid":"ps","alg":"PS256","n":b64(&[0xff;256]),"e":"AQAB"},
        {"kty":"dsa","kid":"unknown"},
        {"kid":"nokty"},
        {"kty":"OKP","kid":7},
        "not an object",
    ]});
    let e = KeySet::parse(wrong.to_string().as_bytes()).unwrap_err();
    let KeySetError::NoUsableKey { skipped } = &e else {
        panic!("{e}")
    };
    assert_eq!(skipped.len(), 19, "{skipped:#?}");
    // A key naming a member twice (built as text: serde_json's Value would keep one): the
    // document is not one every reader reads alike, so the whole set is refused.
    let dup =
        format!(r#"{{"keys":[{{"kty":"OKP","crv":"Ed25519","kid":"dup","x":"{x}","x":"{x}"}}]}}"#);
    let e = KeySet::parse(dup.as_bytes()).unwrap_err();
    assert!(
        matches!(&e, KeySetError::Invalid { problem, .. } if problem.contains("names the member \"x\" twice")),
        "{e}"
    );
    // The same keys beside one good one: the set is read, each bad key skipped with its reason.
    let mut with_good = wrong.clone();
    with_good["keys"]
        .as_array_mut()
        .unwrap()
        .push(okp("good", 1));
    let ks = KeySet::parse(with_good.to_string().as_bytes()).unwrap();
    assert_eq!(ks.keys().len(), 1);
    let why = |kid: &str| {
        ks.skipped()
            .iter()
            .find(|s| s.kid.as_deref() == Some(kid))
            .map(|s| s.why.clone())
            .unwrap_or_default()
    };
    assert!(why("h").contains("symmetric"));
    assert!(why("e384").contains("P-256"));
    assert!(why("enc").contains("use"));
    assert!(why("ops").contains("key_ops"));
    assert!(why("alg").contains("ES256"));
    assert!(why("priv").contains("private"));
    assert!(why("short").contains("31 bytes"));
    assert!(why("e1").contains("exponent"));
    assert!(why("even").contains("exponent"));
    assert!(why("huge").contains("8200 bits"));
    assert!(why("ps").contains("PS256"));
    // A token naming a skipped key says why it was not used.
    let t = mint(&header("enc"), &claims());
    assert_eq!(
        reason(check_with(&validator(), &t, &ks, NOW)),
        "unusable-key"
    );
    for bad in [
        &b"[]"[..],
        b"{}",
        br#"{"keys":{}}"#,
        br#"{"keys":[]}"#,
        b"nope",
    ] {
        assert!(KeySet::parse(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn other_hostile_forms_are_refused() {
    let p = b64(claims().to_string().as_bytes());
    let sig = b64(&[0; 64]);
    let cases = [
        // crit, even empty (RFC 7515 §4.1.11).
        (
            r#"{"alg":"EdDSA","kid":"ed-1","typ":"at+jwt","crit":["exp"],"exp":1}"#,
            "crit",
        ),
        (
            r#"{"alg":"EdDSA","kid":"ed-1","typ":"at+jwt","crit":[]}"#,
            "crit",
        ),
        // A header member twice: two readers could see two algorithms.
        (
            r#"{"alg":"none","alg":"EdDSA","kid":"ed-1","typ":"at+jwt"}"#,
            "malformed",
        ),
        (r#"{"kid":"ed-1","typ":"at+jwt"}"#, "malformed"),
        (r#"{"alg":["EdDSA"],"kid":"ed-1"}"#, "malformed"),
        (r#"{"alg":"EdDSA","kid":1}"#, "malformed"),
        (r#"["EdDSA"]"#, "malformed"),
        ("not json", "malformed"),
    ];
    for (h, why) in cases {
        let t = format!("{}.{p}.{sig}", b64(h.as_bytes()));
        assert_eq!(Token::parse(&t).unwrap_err().reason(), why, "{h}");
    }
    // A claim named twice.
    let t = mint_raw(
        &header("ed-1").to_string(),
        r#"{"iss":"https://as.example","sub":"alice","sub":"admin"}"#,
        1,
    );
    assert!(Token::parse(&t)
        .unwrap_err()
        .to_string()
        .contains("\"sub\" twice"));
    // Claims that are not an object.
    let t = mint_raw(&header("ed-1").to_string(), "[1]", 1);
    assert_eq!(Token::parse(&t).unwrap_err().reason(), "malformed");
    // Five parts (JWE), two parts, four parts.
    let h = b64(header("ed-1").to_string().as_bytes());
    for t in [
        format!("{h}.{p}.{sig}.a.b"),
        format!("{h}.{p}"),
        format!("{h}.{p}.{sig}.x"),
    ] {
        assert_eq!(Token::parse(&t).unwrap_err().reason(), "malformed");
    }
    assert!(Token::parse(&format!("{h}.{p}.{sig}.a.b"))
        .unwrap_err()
        .to_string()
        .contains("JWE"));
    // Signature lengths: EdDSA and ES256 are 64 bytes.
    for n in [0usize, 63, 65] {
        let t = format!("{h}.{p}.{}", b64(&vec![0; n]));
        assert_eq!(Token::parse(&t).unwrap_err().reason(), "malformed", "{n}");
    }
    // A flipped signature bit, and another key's signature.
    let good = mint(&header("ed-1"), &claims());
    let (head, s) = good.rsplit_once('.').unwrap();
    let mut bytes = URL_SAFE_NO_PAD.decode(s).unwrap();
    bytes[5] ^= 1;
    assert_eq!(
        reason(check(&format!("{head}.{}", b64(&bytes)))),
        "signature"
    );
    let other = mint_raw(&header("ed-1").to_string(), &claims().to_string(), 2);
    assert_eq!(reason(check(&other)), "signature");
}

#[test]
fn an_rs256_signature_must_be_as_long_as_the_modulus() {
    let fx = fixtures();
    let keys = fixture_keys();
    let v = Validator::new(ValidatorConfig::rfc9068(
        fx["issuer"].as_str().unwrap(),
        vec![fx["audience"].as_str().unwrap().into()],
    ))
    .unwrap();
    let t = fixture_token("rs256");
    let (head, s) = t.rsplit_once('.').unwrap();
    let sig = URL_SAFE_NO_PAD.decode(s).unwrap();
    assert_eq!(sig.len(), 256);
    for n in [255usize, 257, 512] {
        let mut other = sig.clone();
        other.resize(n, 0);
        let t = format!("{head}.{}", b64(&other));
        assert_eq!(
            reason(check_with(&v, &t, &keys, NOW + 10)),
            "signature",
            "{n}"
        );
    }
}

#[test]
fn messages_never_hold_the_token() {
    let t = mint(&header("ed-1"), &claims());
    let sig = t.rsplit('.').next().unwrap().to_owned();
    let payload = t.split('.').nth(1).unwrap().to_owned();
    let mut errors = Vec::new();
    let mut c = claims();
    c["exp"] = json!(1);
    errors.push(check(&mint(&header("ed-1"), &c)).unwrap_err());
    errors.push(check_with(&validator(), &t, &set(&[okp("x", 1)]), NOW).unwrap_err());
    errors.push(Token::parse(&format!("{t}=")).unwrap_err());
    errors.push(check(&format!("{}.{}", &t[..t.len() - 2], "AA")).unwrap_err());
    let debug = format!("{:?}", Token::parse(&t).unwrap());
    for e in &errors {
        let text = format!("{e} {e:?}");
        for secret in [&t, &sig, &payload] {
            assert!(!text.contains(secret.as_str()), "{text}");
        }
    }
    assert!(
        !debug.contains(&sig) && !debug.contains(&payload),
        "{debug}"
    );
    // Values from the token are escaped and shortened.
    let mut h = header("ed-1");
    h["kid"] = json!(format!("\u{1b}[31m{}", "k".repeat(200)));
    let e = check(&mint(&h, &claims())).unwrap_err().to_string();
    assert!(!e.contains('\u{1b}') && e.len() < 300, "{e}");
}

// --- key and token caches ---------------------------------------------------------------------

fn jwks_doc(keys: &[Value]) -> Vec<u8> {
    json!({ "keys": keys }).to_string().into_bytes()
}

#[test]
fn the_key_cache_fetches_when_it_must_and_no_more() {
    let mut cache = KeyCache::new(KeyCachePolicy::default());
    let p = *cache.policy();
    assert_eq!(
        (p.max_age, p.refetch_interval, p.max_body_bytes),
        (600, 60, 256 * 1024)
    );
    // Nothing held: fetch; a second request meanwhile waits.
    assert_eq!(cache.plan(NOW, Some("ed-1")), Plan::Fetch);
    assert_eq!(cache.plan(NOW, Some("ed-1")), Plan::Wait);
    assert_eq!(cache.keys(NOW).unwrap_err(), KeySetError::NotYet);
    cache.store(NOW, &jwks_doc(&[okp("ed-1", 1)])).unwrap();
    let epoch = cache.epoch();
    assert_eq!(cache.plan(NOW + 1, Some("ed-1")), Plan::Use);
    assert_eq!(cache.keys(NOW + 1).unwrap().keys().len(), 1);
    // An unknown kid right after a fetch: no fetch before the interval has passed.
    assert_eq!(cache.plan(NOW + 2, Some("new")), Plan::Use);
    // Then one fetch, and none for the next interval however many kids arrive.
    assert_eq!(cache.plan(NOW + 60, Some("new")), Plan::Fetch);
    cache.store(NOW + 60, &jwks_doc(&[okp("ed-1", 1)])).unwrap();
    assert_eq!(cache.epoch(), epoch, "the same keys keep the epoch");
    for i in 0..1000 {
        assert_eq!(
            cache.plan(NOW + 61 + i / 20, Some(&format!("r{i}"))),
            Plan::Use
        );
    }
    assert_eq!(cache.plan(NOW + 120, Some("r")), Plan::Fetch);
    cache
        .store(NOW + 120, &jwks_doc(&[okp("ed-1", 1), okp("r", 2)]))
        .unwrap();
    assert_ne!(cache.epoch(), epoch, "new keys change the epoch");
    assert!(cache.keys(NOW + 120).unwrap().knows(Some("r")));
    // A token without kid does not trigger a fetch; age does.
    assert_eq!(cache.plan(NOW + 300, None), Plan::Use);
    assert_eq!(cache.plan(NOW + 120 + 599, Some("ed-1")), Plan::Use);
    assert_eq!(cache.plan(NOW + 120 + 600, Some("ed-1")), Plan::Fetch);
}

#[test]
fn the_key_cache_serves_a_stale_set_while_fetches_fail_then_gives_up() {
    let mut cache = KeyCache::new(KeyCachePolicy::default());
    assert_eq!(cache.plan(NOW, None), Plan::Fetch);
    cache.store(NOW, &jwks_doc(&[okp("ed-1", 1)])).unwrap();
    let t = NOW + 600;
    assert_eq!(cache.plan(t, None), Plan::Fetch);
    cache.failed(KeySetError::Fetch {
        what: "HTTP 502".into(),
    });
    assert_eq!(cache.plan(t + 1, None), Plan::Use);
    assert!(cache.keys(t + 1).is_ok());
    // A body that does not read is a failed fetch too, and the held set stays.
    assert_eq!(cache.plan(t + 60, None), Plan::Fetch);
    assert_eq!(
        cache.store(t + 60, b"<html>").unwrap_err().reason(),
        "invalid"
    );
    assert!(cache.keys(t + 61).is_ok());
    // Past max_age + max_stale: 503 with the last error.
    let end = NOW + 600 + 3600;
    assert!(cache.keys(end - 1).is_ok());
    assert_eq!(cache.plan(end, None), Plan::Fetch);
    cache.failed(KeySetError::Fetch {
        what: "timed out".into(),
    });
    assert_eq!(cache.plan(end + 1, None), Plan::Unavailable);
    let e = cache.keys(end + 1).unwrap_err();
    assert_eq!((e.status(), e.reason()), (503, "fetch"));
    // A body over the bound is refused without parsing.
    let mut small = KeyCache::new(KeyCachePolicy {
        max_body_bytes: 10,
        ..KeyCachePolicy::default()
    });
    assert_eq!(small.plan(NOW, None), Plan::Fetch);
    assert_eq!(
        small
            .store(NOW, &jwks_doc(&[okp("a", 1)]))
            .unwrap_err()
            .reason(),
        "too-large"
    );
    assert_eq!(small.plan(NOW + 1, None), Plan::Unavailable);
}

#[test]
fn a_fetch_never_reported_stops_holding_back_new_attempts() {
    let mut cache = KeyCache::new(KeyCachePolicy::default());
    assert_eq!(cache.plan(NOW, None), Plan::Fetch);
    // The fetch time-out is 5 s (strictly past it: the clock is in whole seconds); the
    // refetch interval still applies after it.
    assert_eq!(cache.plan(NOW + 5, None), Plan::Wait);
    assert_eq!(cache.plan(NOW + 6, None), Plan::Unavailable);
    assert_eq!(cache.plan(NOW + 60, None), Plan::Fetch);
}

#[test]
fn the_token_cache_remembers_valid_tokens_until_exp() {
    let v = validator();
    let ks = keys();
    let mut cache = TokenCache::new(2);
    let t = Token::parse(&mint(&header("ed-1"), &claims())).unwrap();
    assert!(cache.get(t.digest(), NOW, 1).is_none());
    let caller = v.validate(&t, &ks, NOW, &Native).unwrap();
    cache.insert(*t.digest(), caller.clone(), 1);
    assert_eq!(cache.get(t.digest(), NOW, 1), Some(&caller));
    // Until exp + leeway, like a full validation; not under another key set epoch.
    assert!(cache.get(t.digest(), NOW + 659, 1).is_some());
    assert!(v.validate(&t, &ks, NOW + 659, &Native).is_ok());
    assert!(cache.get(t.digest(), NOW + 660, 1).is_none());
    assert!(v.validate(&t, &ks, NOW + 660, &Native).is_err());
    assert!(cache.get(t.digest(), NOW, 2).is_none());
    // The same token again does not take a second slot; the oldest makes room.
    cache.insert(*t.digest(), caller.clone(), 1);
    assert_eq!(cache.len(), 1);
    let mut digests = vec![*t.digest()];
    for i in 0..5 {
        let mut c = claims();
        c["jti"] = json!(format!("j{i}"));
        let t = Token::parse(&mint(&header("ed-1"), &c)).unwrap();
        cache.insert(*t.digest(), v.validate(&t, &ks, NOW, &Native).unwrap(), 1);
        digests.push(*t.digest());
        assert!(cache.len() <= 2);
    }
    assert_eq!(cache.len(), 2);
    assert!(cache.get(&digests[4], NOW, 1).is_some());
    assert!(cache.get(&digests[5], NOW, 1).is_some());
    assert!(cache.get(&digests[0], NOW, 1).is_none());
    // The digest is of the compact token, whatever the scheme's spelling.
    let raw = mint(&header("ed-1"), &claims());
    assert_eq!(
        Token::parse(&raw).unwrap().digest(),
        Token::parse(&format!("bearer  {raw}")).unwrap().digest()
    );
}
mod providers;
