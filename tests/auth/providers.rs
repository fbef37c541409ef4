//! The identity providers' recipes of docs/private.md (`tests/fixtures/auth-providers/`):
//! each recipe's Worker vars read by `settings::worker_config` (the Worker's own entry point),
//! and each token, shaped as the provider documents its access tokens, taken through every
//! check but the signature (`Bearer::prepare`; the signatures are checked on workerd by
//! `tests/e2e/auth-providers.test.mjs`, with the same recipes). A token's caller must see the
//! private skill exactly when the recipe says so: its grant names a scope of the skill's rule.

use serde_json::Value;
use skills_edge::auth::{KeySet, Token};
use skills_edge::http::Bearer;
use skills_edge::settings;

const NOW: u64 = 1_800_000_000;

/// 256 bytes of base64url (the length of the RSA key's modulus): a signature every check but
/// the signature's lets through.
const SIGNATURE: &str = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

fn recipes() -> Value {
    serde_json::from_str(include_str!("../fixtures/auth-providers/recipes.json")).unwrap()
}

/// The scopes of the private skill's rule (the fixture's skills-edge.toml).
fn rule_scopes() -> Vec<String> {
    let toml = include_str!("../fixtures/auth-providers/skills/skills-edge.toml");
    toml.lines()
        .map(|l| l.trim())
        .filter_map(|l| l.strip_prefix('"'))
        .filter_map(|l| l.split('"').next())
        .map(str::to_owned)
        .collect()
}

/// `"now"`, `"now+N"`, `"now-N"` as seconds; anything else as it is, at any depth.
fn times(v: &Value) -> Value {
    match v {
        Value::String(s) if s == "now" => NOW.into(),
        Value::String(s) if s.starts_with("now+") => (NOW + s[4..].parse::<u64>().unwrap()).into(),
        Value::String(s) if s.starts_with("now-") => (NOW - s[4..].parse::<u64>().unwrap()).into(),
        Value::Object(m) => Value::Object(m.iter().map(|(k, v)| (k.clone(), times(v))).collect()),
        Value::Array(a) => Value::Array(a.iter().map(times).collect()),
        other => other.clone(),
    }
}

fn bearer(vars: &Value) -> Bearer {
    let vars: Vec<(String, String)> = vars
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_owned()))
        .collect();
    settings::worker_config(vars.iter().map(|(k, _)| k.as_str()), |s| {
        vars.iter()
            .find(|(k, _)| k == s.var)
            .map(|(_, v)| v.clone())
    })
    .unwrap_or_else(|e| panic!("{e}"))
    .1
    .into_bearer()
    .unwrap()
}

/// The test's RSA key (`rs-1` of tests/auth/fixtures.json).
fn keys() -> KeySet {
    let fx: Value = serde_json::from_str(include_str!("fixtures.json")).unwrap();
    KeySet::parse(fx["jwks"].to_string().as_bytes()).unwrap()
}

fn b64(v: &Value) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(v.to_string())
}

#[test]
fn each_recipe_grants_what_its_provider_asserts() {
    let keys = keys();
    let rule = rule_scopes();
    assert!(rule.len() >= 8, "{rule:?}");
    let mut checked = 0;
    for recipe in recipes()["recipes"].as_array().unwrap() {
        let name = recipe["name"].as_str().unwrap();
        let b = bearer(&recipe["vars"]);
        for t in recipe["tokens"].as_array().unwrap() {
            let label = format!("{name}: {}", t["label"].as_str().unwrap());
            let mut header = t["header"].clone();
            for k in ["kid", "x5t"] {
                if header.get(k).is_some() {
                    header[k] = "rs-1".into();
                }
            }
            // A signature as long as the modulus: every check but the signature's runs.
            let compact = format!(
                "{}.{}.{}",
                b64(&header),
                b64(&times(&t["claims"])),
                SIGNATURE
            );
            let token = Token::parse(&compact).unwrap_or_else(|e| panic!("{label}: {e}"));
            let got = b.prepare(&token, &keys, NOW, "http://127.0.0.1/mcp");
            match &t["sees"] {
                Value::Number(_) => {
                    let e = got.map(|_| ()).unwrap_err();
                    assert_eq!(e.reason(), t["reason"].as_str().unwrap(), "{label}: {e}");
                    // The log names the setting that fixes a provider's plain JWT, and only
                    // for a type that setting accepts.
                    let names_fix = e.to_string().contains("set AUTH_TOKEN_PROFILE = \"jwt\"");
                    assert_eq!(names_fix, name == "auth0-rfc9068", "{label}: {e}");
                }
                sees => {
                    let caller = got
                        .unwrap_or_else(|e| panic!("{label}: {e}"))
                        .finish(true)
                        .unwrap();
                    let team = caller.scopes.iter().any(|s| rule.contains(s));
                    let expected = sees.as_array().unwrap().iter().any(|s| s == "team");
                    assert_eq!(team, expected, "{label}: {:?}", caller.scopes);
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 20, "{checked}");
}

/// What `AUTH_TOKEN_PROFILE = "jwt"` still refuses: a token explicitly typed as another kind
/// of JWT, one without `exp`, `iss` or `aud`, and the algorithms outside the allow-list.
#[test]
fn the_jwt_profile_keeps_the_checks_it_does_not_give_up() {
    let keys = keys();
    let recipes = recipes();
    let okta = &recipes["recipes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "okta")
        .unwrap();
    let b = bearer(&okta["vars"]);
    let good = times(&okta["tokens"][0]["claims"]);
    let check = |header: Value, claims: &Value| {
        let compact = format!("{}.{}.{}", b64(&header), b64(claims), SIGNATURE);
        let token = Token::parse(&compact).map_err(|e| e.reason())?;
        b.prepare(&token, &keys, NOW, "http://127.0.0.1/mcp")
            .map(|c| c.finish(true).unwrap().scopes)
            .map_err(|e| e.reason())
    };
    let rs = |typ: Option<&str>| match typ {
        Some(t) => serde_json::json!({"alg":"RS256","kid":"rs-1","typ":t}),
        None => serde_json::json!({"alg":"RS256","kid":"rs-1"}),
    };
    for typ in [
        None,
        Some("JWT"),
        Some("jwt"),
        Some("application/JWT"),
        Some("at+jwt"),
        Some("application/at+jwt"),
    ] {
        assert!(check(rs(typ), &good).is_ok(), "{typ:?}");
    }
    for typ in [
        "dpop+jwt",
        "logout+jwt",
        "secevent+jwt",
        "application/okta-internal-at+jwt",
        "id_token+jwt",
        "",
    ] {
        assert_eq!(check(rs(Some(typ)), &good), Err("typ"), "{typ:?}");
    }
    for (claim, reason) in [("exp", "claim"), ("iss", "claim"), ("aud", "claim")] {
        let mut c = good.clone();
        c.as_object_mut().unwrap().remove(claim);
        assert_eq!(check(rs(None), &c), Err(reason), "{claim}");
    }
    let mut expired = good.clone();
    expired["exp"] = (NOW - 120).into();
    assert_eq!(check(rs(None), &expired), Err("expired"));
    let none = serde_json::json!({"alg":"none","kid":"rs-1"});
    assert_eq!(check(none, &good), Err("algorithm"));
    let hs = serde_json::json!({"alg":"HS256","kid":"rs-1"});
    assert_eq!(check(hs, &good), Err("algorithm"));
    // A scope claim of the wrong type refuses the token; an absent one grants nothing.
    let mut wrong = good.clone();
    wrong["scp"] = serde_json::json!({"skills:read": true});
    assert_eq!(check(rs(None), &wrong), Err("claim"));
    let mut absent = good.clone();
    absent.as_object_mut().unwrap().remove("scp");
    assert_eq!(check(rs(None), &absent), Ok(vec![]));
}
