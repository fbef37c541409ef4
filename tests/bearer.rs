//! The authentication step in front of the endpoint (`skills_edge::http::Bearer`) and its
//! settings: the gate's decisions, the Protected Resource Metadata, the 401 and 503 answers,
//! the audience taken from the request, and the configuration errors of every source.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use serde_json::{json, Value};
use skills_edge::auth::{Ed25519Verifier, KeySet, KeySetError, SignatureVerifier, TokenError};
use skills_edge::catalog::Grant;
use skills_edge::http::{
    AuthMode, AuthStep, Bearer, BearerConfig, Endpoint, Gate, Head, HttpConfig, KeySource, Step,
};
use skills_edge::settings::{self, Scope, Source};

const HOST: &str = "127.0.0.1:8787";
const ISS: &str = "https://auth.example.com";
const NOW: u64 = 1_700_000_000;

fn endpoint() -> Endpoint {
    Endpoint::new(
        skills_edge::embedded::catalog().unwrap(),
        HttpConfig::default(),
    )
    .unwrap()
}

fn jwt(audiences: &[&str]) -> Bearer {
    Bearer::new(BearerConfig {
        mode: AuthMode::Jwt,
        issuer: Some(ISS.into()),
        audiences: audiences.iter().map(|a| (*a).to_owned()).collect(),
        scopes_supported: vec!["skills:read".into()],
        ..BearerConfig::default()
    })
    .unwrap()
    .unwrap()
}

fn head<'a>(method: &'a str, path: &'a str) -> Head<'a> {
    Head {
        method,
        path,
        host: Some(HOST),
        accept: Some("application/json, text/event-stream"),
        content_type: Some("application/json"),
        ..Head::default()
    }
}

fn b64(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

fn pair() -> ed25519_compact::KeyPair {
    ed25519_compact::KeyPair::from_seed(ed25519_compact::Seed::new([3; 32]))
}

fn keys() -> KeySet {
    let jwks = json!({"keys":[{"kty":"OKP","crv":"Ed25519","kid":"k","x":b64(&pair().pk[..])}]});
    KeySet::parse(jwks.to_string().as_bytes()).unwrap()
}

fn token(aud: &str) -> String {
    let header = json!({"alg":"EdDSA","kid":"k","typ":"at+jwt"});
    let claims = json!({"iss":ISS,"aud":aud,"sub":"alice","client_id":"c","jti":"j",
        "iat":NOW,"exp":NOW + 600,"scope":"skills:read team:a"});
    let input = format!(
        "{}.{}",
        b64(header.to_string().as_bytes()),
        b64(claims.to_string().as_bytes())
    );
    let sig = pair().sk.sign(&input, None);
    format!("Bearer {input}.{}", b64(&sig[..]))
}

/// Validates through the gate, as the Worker does: the scopes, or the refusal.
fn validate(bearer: &Bearer, h: &Head<'_>, credential: &str) -> Result<Vec<String>, TokenError> {
    let e = endpoint();
    let token = match bearer.gate(&e, h, Some(credential), "http") {
        Gate::Validate(value) => skills_edge::auth::Token::parse(value)?,
        other => panic!("not a token to validate: {other:?}"),
    };
    let keys = keys();
    let resource = bearer.resource(h, "http");
    let check = bearer.prepare(&token, &keys, NOW, &resource)?;
    let ok = Ed25519Verifier
        .verify(check.alg, check.key, check.message, check.signature)
        .unwrap();
    check.finish(ok).map(|c| c.scopes)
}

#[test]
fn anonymous_requests_and_preflights_pass_to_the_endpoint() {
    let b = jwt(&[]);
    let e = endpoint();
    assert!(matches!(
        b.gate(&e, &head("POST", "/mcp"), None, "http"),
        Gate::Anonymous
    ));
    // A preflight needs no token, even with a (browser-impossible) credential.
    assert!(matches!(
        b.gate(&e, &head("OPTIONS", "/mcp"), Some("Bearer x"), "http"),
        Gate::Anonymous
    ));
    // The embedded catalog has no private skills: no anonymous request needs a token.
    assert!(!b.needs_token(&e, &head("POST", "/mcp")));
}

#[test]
fn a_token_that_does_not_parse_is_refused_not_downgraded() {
    let b = jwt(&[]);
    let h = head("POST", "/mcp");
    // Another scheme: 401 without an error code (an unsupported authentication method,
    // RFC 6750 §3.1), never anonymous.
    let err = validate(&b, &h, "Basic dXNlcjpwYXNz").unwrap_err();
    assert_eq!((err.reason(), err.error_code()), ("scheme", None));
    for bad in ["", "Bearer a.b", "Bearer e30.e30.", "Bearer a=.b.c"] {
        let err = validate(&b, &h, bad).unwrap_err();
        assert_eq!(err.error_code(), Some("invalid_token"), "{bad:?}");
    }
    let huge = format!("Bearer {}", "a".repeat(64 * 1024));
    assert_eq!(validate(&b, &h, &huge).unwrap_err().reason(), "too-large");
    // Neither has a cache key: nothing refused before decoding is ever remembered.
    assert_eq!(b.cache_key(&huge, "r"), None);
    assert_eq!(b.cache_key("Basic dXNlcjpwYXNz", "r"), None);
}

#[test]
fn the_origin_and_host_rules_come_before_the_token() {
    let b = jwt(&[]);
    let e = endpoint();
    let mut h = head("POST", "/mcp");
    h.origin = Some("https://evil.example");
    match b.gate(&e, &h, Some("Bearer x"), "http") {
        Gate::Respond(r) => assert_eq!(r.status, 403),
        other => panic!("{other:?}"),
    }
    let mut h = head("GET", "/.well-known/oauth-protected-resource");
    h.host = Some("rebound.example");
    match b.gate(&e, &h, None, "http") {
        Gate::Respond(r) => assert_eq!(r.status, 403),
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_audience_defaults_to_the_requests_own_mcp_url() {
    let b = jwt(&[]);
    let h = head("POST", "/mcp");
    assert_eq!(b.resource(&h, "http"), "http://127.0.0.1:8787/mcp");
    assert_eq!(
        validate(&b, &h, &token("http://127.0.0.1:8787/mcp")).unwrap(),
        ["skills:read", "team:a"]
    );
    let e = validate(&b, &h, &token("https://other.example/mcp")).unwrap_err();
    assert_eq!(e.reason(), "audience");
    // The same token on another host name is another audience, and another cache key.
    let mut other = head("POST", "/mcp");
    other.host = Some("localhost:8787");
    let e = validate(&b, &other, &token("http://127.0.0.1:8787/mcp")).unwrap_err();
    assert_eq!(e.reason(), "audience");
    let t = token("x");
    assert_ne!(
        b.cache_key(&t, "http://127.0.0.1:8787/mcp"),
        b.cache_key(&t, "http://localhost:8787/mcp")
    );
}

#[test]
fn a_configured_audience_replaces_the_default() {
    let b = jwt(&["https://skills.example.com/mcp"]);
    let h = head("POST", "/mcp");
    assert!(validate(&b, &h, &token("https://skills.example.com/mcp")).is_ok());
    let e = validate(&b, &h, &token("http://127.0.0.1:8787/mcp")).unwrap_err();
    assert_eq!(e.reason(), "audience");
    // The key is the digest Token::parse gives, taken before parsing, whatever the scheme's
    // case or the spaces after it.
    let t = token("x");
    let parsed = skills_edge::auth::Token::parse(&t).unwrap();
    assert_eq!(b.cache_key(&t, "a"), Some(*parsed.digest()));
    let spelled = t.replacen("Bearer ", "bEARER   ", 1);
    assert_eq!(b.cache_key(&spelled, "a"), Some(*parsed.digest()));
}

#[test]
fn the_401_challenges_and_names_the_metadata() {
    let b = jwt(&[]);
    let e = endpoint();
    let mut h = head("POST", "/mcp");
    h.origin = Some("http://localhost:5173");
    let r = b.refused(&e, &h, "http", &TokenError::Audience);
    assert_eq!(r.status, 401);
    assert_eq!(
        r.header("www-authenticate"),
        Some("Bearer error=\"invalid_token\", resource_metadata=\"http://127.0.0.1:8787/.well-known/oauth-protected-resource/mcp\"")
    );
    assert_eq!(
        r.header("access-control-expose-headers"),
        Some("www-authenticate")
    );
    assert_eq!(
        r.header("access-control-allow-origin"),
        Some("http://localhost:5173")
    );
    assert!(
        r.body.is_empty(),
        "the reason is not told: {:?}",
        r.body_str()
    );
    let r = b.refused(&e, &head("POST", "/mcp"), "https", &TokenError::Missing);
    assert_eq!(
        r.header("www-authenticate"),
        Some("Bearer resource_metadata=\"https://127.0.0.1:8787/.well-known/oauth-protected-resource/mcp\"")
    );
    let r = b.unavailable(&e, &head("POST", "/mcp"), &KeySetError::NotYet);
    assert_eq!((r.status, r.header("retry-after")), (503, Some("60")));
    assert!(r.body.is_empty());
}

#[test]
fn protected_resource_metadata_at_both_paths() {
    let b = jwt(&[]);
    let e = endpoint();
    for path in [
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-protected-resource/mcp",
    ] {
        let Gate::Respond(r) = b.gate(&e, &head("GET", path), Some("Bearer garbage"), "https")
        else {
            panic!("{path}: no document");
        };
        assert_eq!(r.status, 200, "{path}");
        assert_eq!(r.header("content-type"), Some("application/json"));
        let doc: Value = serde_json::from_slice(&r.body).unwrap();
        assert_eq!(
            doc,
            json!({
                "resource": "https://127.0.0.1:8787/mcp",
                "authorization_servers": [ISS],
                "bearer_methods_supported": ["header"],
                "scopes_supported": ["skills:read"],
            }),
            "{path}"
        );
        let Gate::Respond(r) = b.gate(&e, &head("HEAD", path), None, "https") else {
            panic!()
        };
        assert_eq!((r.status, r.body.len()), (200, 0));
        let Gate::Respond(r) = b.gate(&e, &head("POST", path), None, "https") else {
            panic!()
        };
        assert_eq!(
            (r.status, r.header("allow")),
            (405, Some("GET, HEAD, OPTIONS"))
        );
        let mut pre = head("OPTIONS", path);
        pre.origin = Some("http://localhost:5173");
        let Gate::Respond(r) = b.gate(&e, &pre, None, "https") else {
            panic!()
        };
        assert_eq!(r.status, 204);
        assert_eq!(
            r.header("access-control-allow-origin"),
            Some("http://localhost:5173")
        );
    }
    // Without authentication, the path is the endpoint's: 404.
    let Step::Respond(r) = e.head(
        &head("GET", "/.well-known/oauth-protected-resource"),
        Grant::PUBLIC,
    ) else {
        panic!()
    };
    assert_eq!(r.status, 404);
}

#[test]
fn the_modes_read_their_header_and_find_their_keys() {
    let b = jwt(&[]);
    assert_eq!(b.credential_header(), "authorization");
    assert_eq!(
        b.key_source(),
        &KeySource::Discover(vec![
            format!("{ISS}/.well-known/oauth-authorization-server"),
            format!("{ISS}/.well-known/openid-configuration"),
        ])
    );
    let access = Bearer::new(BearerConfig {
        mode: AuthMode::Access,
        issuer: Some("acme.cloudflareaccess.com".into()),
        audiences: vec!["aud-tag".into()],
        ..BearerConfig::default()
    })
    .unwrap()
    .unwrap();
    assert_eq!(access.credential_header(), "cf-access-jwt-assertion");
    assert_eq!(access.issuer(), "https://acme.cloudflareaccess.com");
    assert_eq!(
        access.key_source(),
        &KeySource::Url("https://acme.cloudflareaccess.com/cdn-cgi/access/certs".into())
    );
    assert!(Bearer::new(BearerConfig::default()).unwrap().is_none());
}

/// The vars of a Worker, as `settings::worker_config` reads them.
fn worker(vars: &[(&str, &str)]) -> Result<Option<Bearer>, String> {
    settings::worker_config(vars.iter().map(|(n, _)| *n), |s| {
        vars.iter()
            .find(|(n, _)| *n == s.var)
            .map(|(_, v)| (*v).to_owned())
    })
    .map(|(_, b)| b.into_bearer())
    .map_err(|e| e.to_string())
}

#[test]
fn worker_settings_are_checked_together() {
    assert!(worker(&[]).unwrap().is_none());
    assert!(worker(&[("AUTH_MODE", "none")]).unwrap().is_none());
    let b = worker(&[
        ("AUTH_MODE", "jwt"),
        ("AUTH_ISSUER", ISS),
        (
            "AUTH_AUDIENCE",
            "https://a.example/mcp, https://b.example/mcp",
        ),
        ("AUTH_JWKS_URL", "https://keys.example.com/jwks.json"),
        ("AUTH_SCOPES_CLAIM", "permissions"),
    ])
    .unwrap()
    .unwrap();
    assert_eq!(
        b.validator().config().audiences,
        ["https://a.example/mcp", "https://b.example/mcp"]
    );
    assert_eq!(b.validator().config().scope_claims, ["permissions"]);
    assert_eq!(
        b.key_source(),
        &KeySource::Url("https://keys.example.com/jwks.json".into())
    );
    for (vars, starts) in [
        (
            &[("AUTH_MODE", "oauth")][..],
            "configuration variable AUTH_MODE = \"oauth\" is invalid: use `none`, `jwt`, `access` or `provider`",
        ),
        (
            &[("AUTH_MODE", "jwt")][..],
            "configuration variable AUTH_ISSUER is invalid (required with AUTH_MODE jwt)",
        ),
        (
            &[("AUTH_MODE", "access"), ("AUTH_ISSUER", "acme.cloudflareaccess.com")][..],
            "configuration variable AUTH_AUDIENCE is invalid (required with AUTH_MODE access)",
        ),
        (
            &[("AUTH_ISSUER", ISS)][..],
            "configuration variable AUTH_ISSUER = \"https://auth.example.com\" is invalid (given without an AUTH_MODE other than none)",
        ),
        (
            &[("AUTH_MODE", "jwt"), ("AUTH_ISSUER", "http://auth.example.com")][..],
            "configuration variable AUTH_ISSUER = \"http://auth.example.com\" is invalid: use the issuer's https URL",
        ),
        (
            &[("AUTH_MODE", "jwt"), ("AUTH_ISSUER", ISS), ("AUTH_JWKS_URL", "ftp://k")][..],
            "configuration variable AUTH_JWKS_URL = \"ftp://k\" is invalid: use an https URL",
        ),
        (
            &[("AUTH_MODE", "jwt"), ("AUTH_ISSUER", ISS), ("AUTH_SCOPES_CLAIM", "a b")][..],
            "configuration variable AUTH_SCOPES_CLAIM = \"a b\" is invalid (not a list of claim names)",
        ),
        (
            &[("AUTH_MODE", "jwt"), ("AUTH_ISSUER", ISS), ("AUTH_SCOPES_CLAIM", "scp,/a~2")][..],
            "configuration variable AUTH_SCOPES_CLAIM = \"scp,/a~2\" is invalid: \"/a~2\" is not a JSON Pointer",
        ),
        (
            &[("AUTH_MODE", "jwt"), ("AUTH_ISSUER", ISS), ("AUTH_TOKEN_PROFILE", "oidc")][..],
            "configuration variable AUTH_TOKEN_PROFILE = \"oidc\" is invalid: use `rfc9068` or `jwt`",
        ),
        (
            &[("AUTH_MODE", "access"), ("AUTH_ISSUER", "acme.cloudflareaccess.com"), ("AUTH_AUDIENCE", "t"), ("AUTH_TOKEN_PROFILE", "jwt")][..],
            "configuration variable AUTH_TOKEN_PROFILE = \"jwt\" is invalid (given with AUTH_MODE access): remove it",
        ),
        (
            &[("AUTH_MODE", "provider"), ("AUTH_TOKEN_PROFILE", "jwt")][..],
            "configuration variable AUTH_TOKEN_PROFILE = \"jwt\" is invalid (given with AUTH_MODE provider",
        ),
        (
            &[("AUTH_TOKEN_PROFILE", "jwt")][..],
            "configuration variable AUTH_TOKEN_PROFILE = \"jwt\" is invalid (given without an AUTH_MODE other than none)",
        ),
        (
            &[("AUTH_MODE", "access"), ("AUTH_ISSUER", "not a host"), ("AUTH_AUDIENCE", "t")][..],
            "configuration variable AUTH_ISSUER = \"not a host\" is invalid: ",
        ),
        (
            &[("AUTH_MODE", "provider"), ("AUTH_ISSUER", ISS)][..],
            "configuration variable AUTH_ISSUER = \"https://auth.example.com\" is invalid (given with AUTH_MODE provider, where the host (@cloudflare/workers-oauth-provider) validates the tokens and this Worker reads none): remove it",
        ),
        (
            &[("AUTH_MODE", "provider"), ("AUTH_SCOPES_CLAIM", "permissions")][..],
            "configuration variable AUTH_SCOPES_CLAIM = \"permissions\" is invalid (given with AUTH_MODE provider",
        ),
        (
            &[("auth_mode", "jwt")][..],
            "configuration variable auth_mode is invalid (not a setting; AUTH_MODE is)",
        ),
    ] {
        let e = worker(vars).map(|_| ()).unwrap_err();
        assert!(e.starts_with(starts), "{vars:?}: {e}");
    }
}

#[test]
fn provider_mode_does_no_token_work_of_its_own() {
    let auth = |vars: &[(&str, &str)]| {
        settings::worker_config(vars.iter().map(|(n, _)| *n), |s| {
            vars.iter()
                .find(|(n, _)| *n == s.var)
                .map(|(_, v)| (*v).to_owned())
        })
        .map(|(_, a)| a)
    };
    let provider = auth(&[("AUTH_MODE", "provider")]).unwrap();
    assert!(matches!(provider, AuthStep::Provider));
    assert_eq!(provider.mode(), AuthMode::Provider);
    assert!(
        provider.bearer().is_none(),
        "no token step: the host does it"
    );
    // The vars the example composing the provider gives besides the settings are its own.
    let provider = auth(&[
        ("AUTH_MODE", " provider "),
        ("OAUTH_KV", "x"),
        ("OAUTH_PROVIDER", "x"),
        ("PUBLIC_URL", "http://127.0.0.1:8787"),
    ])
    .unwrap();
    assert!(matches!(provider, AuthStep::Provider));
    assert!(matches!(auth(&[]).unwrap(), AuthStep::Anonymous));
    assert_eq!(AuthMode::parse("provider"), Some(AuthMode::Provider));
    assert_eq!(AuthMode::Provider.as_str(), "provider");
    let jwt = auth(&[("AUTH_MODE", "jwt"), ("AUTH_ISSUER", ISS)]).unwrap();
    assert_eq!(jwt.mode(), AuthMode::Jwt);
    assert!(jwt.bearer().is_some());
    // Elsewhere it is refused like the other modes, naming the Worker.
    let e = settings::from_vars(["AUTH_MODE"], |s| {
        (s.var == "AUTH_MODE").then(|| "provider".to_owned())
    })
    .unwrap_err()
    .to_string();
    assert_eq!(
        e,
        "configuration variable AUTH_MODE = \"provider\" is invalid (supported by the Cloudflare Worker only): use `none` here (the default), or serve private skills from the Worker (docs/private.md)"
    );
    let all = [Scope::Responder, Scope::Auth];
    let e = settings::from_pairs(Source::Flag, &all, &[("--auth-mode", "provider")]).unwrap_err();
    assert!(e.to_string().starts_with(
        "option --auth-mode = \"provider\" is invalid (supported by the Cloudflare Worker only)"
    ));
}

#[test]
fn other_adapters_refuse_authentication_naming_the_worker() {
    // The HTTP component's environment.
    let e = settings::from_vars(["AUTH_MODE"], |s| {
        (s.var == "AUTH_MODE").then(|| "jwt".to_owned())
    })
    .unwrap_err()
    .to_string();
    assert_eq!(
        e,
        "configuration variable AUTH_MODE = \"jwt\" is invalid (supported by the Cloudflare Worker only): use `none` here (the default), or serve private skills from the Worker (docs/private.md)"
    );
    assert!(settings::from_vars(["AUTH_MODE"], |s| {
        (s.var == "AUTH_MODE").then(|| "none".to_owned())
    })
    .is_ok());
    // stdio flags.
    let all = [Scope::Responder, Scope::Auth];
    assert!(settings::from_pairs(Source::Flag, &all, &[("--auth-mode", "none")]).is_ok());
    let e = settings::from_pairs(Source::Flag, &all, &[("--auth-mode", "access")]).unwrap_err();
    assert!(e.to_string().starts_with(
        "option --auth-mode = \"access\" is invalid (supported by the Cloudflare Worker only)"
    ));
    let e = settings::from_pairs(Source::Flag, &all, &[("--auth-issuer", ISS)]).unwrap_err();
    assert!(
        e.to_string().starts_with(
            "option --auth-issuer = \"https://auth.example.com\" is invalid (supported by the Cloudflare Worker only): remove it"
        ),
        "{e}"
    );
    // npm options.
    let e = settings::http_config(Source::Option, |s| {
        (s.option == "authMode").then(|| "jwt".to_owned())
    })
    .unwrap_err();
    assert!(e.to_string().starts_with(
        "option authMode = \"jwt\" is invalid (supported by the Cloudflare Worker only)"
    ));
}
