//! Both protocol eras on one responder. 2026-07-28 results carry `resultType: "complete"`,
//! `_meta["io.modelcontextprotocol/serverInfo"]`, and `ttlMs`/`cacheScope` on the cacheable
//! methods and on `resources/directory/read` (the official SDK's schema requires them there);
//! 2025-11-25 results carry none of those; `initialize` and `server/discover` declare the same
//! capabilities.

use crate::common;

use common::*;
use serde_json::{json, Value as Json};
use skills_edge::protocol::{CacheScope, Era};
use skills_edge::server::{Config, Fallback, Responder, Transport};

/// One request per method the responder serves in both eras (besides the handshake).
fn methods() -> Vec<(&'static str, Json, bool)> {
    vec![
        ("skills/list", json!({}), true),
        (
            "skills/get",
            json!({"uri": "skill://code-review/SKILL.md"}),
            true,
        ),
        ("resources/list", json!({}), true),
        ("resources/templates/list", json!({}), true),
        (
            "resources/read",
            json!({"uri": "skill://diagram-style/assets/palette.png"}),
            true,
        ),
        (
            "resources/directory/read",
            json!({"uri": "skill://acme/billing/refunds"}),
            true,
        ),
    ]
}

/// The identity a responder reports unless its configuration names another: skills-edge and
/// this package's version.
fn server_info() -> Json {
    json!({"name": "skills-edge", "version": env!("CARGO_PKG_VERSION")})
}

#[test]
fn modern_results_carry_result_type_server_info_and_cache_hints_where_due() {
    let r = responder(50);
    let mut all = methods();
    all.push(("server/discover", json!({}), true));
    for (method, params, cacheable) in all {
        let res = ok(&r, &request(Era::Modern, 1, method, params));
        assert_eq!(res["resultType"], "complete", "{method}");
        assert_eq!(
            res["_meta"],
            json!({ SERVER_INFO: server_info() }),
            "{method}"
        );
        if cacheable {
            assert_eq!(res["ttlMs"], 300_000, "{method}");
            assert_eq!(res["cacheScope"], "public", "{method}");
        } else {
            assert!(res.get("ttlMs").is_none(), "{method}: not cacheable");
            assert!(res.get("cacheScope").is_none(), "{method}: not cacheable");
        }
        assert!(
            res.get("serverInfo").is_none(),
            "{method}: serverInfo only in _meta"
        );
    }
}

#[test]
fn legacy_results_carry_none_of_the_2026_fields() {
    let r = responder(50);
    let mut all = methods();
    all.push((
        "initialize",
        json!({"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}),
        false,
    ));
    all.push(("ping", json!({}), false));
    for (method, params, _) in all {
        let res = ok(&r, &request(Era::Legacy, 1, method, params));
        for field in ["resultType", "ttlMs", "cacheScope", "_meta"] {
            assert!(
                res.get(field).is_none(),
                "{method}: {field} in a legacy result"
            );
        }
    }
}

#[test]
fn both_eras_serve_the_same_content() {
    let r = responder(2);
    for (method, params, _) in methods() {
        let mut modern = ok(&r, &request(Era::Modern, 1, method, params.clone()));
        let legacy = ok(&r, &request(Era::Legacy, 1, method, params));
        let m = modern.as_object_mut().expect("object");
        for field in ["resultType", "ttlMs", "cacheScope", "_meta"] {
            m.remove(field);
        }
        assert_eq!(modern, legacy, "{method}");
    }
}

#[test]
fn initialize_and_discover_declare_the_same_capabilities() {
    let r = responder(50);
    let discover = ok(&r, &request(Era::Modern, 1, "server/discover", json!({})));
    let init = ok(
        &r,
        &request(
            Era::Legacy,
            1,
            "initialize",
            json!({"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}),
        ),
    );
    let caps = json!({
        "resources": {},
        "extensions": { SKILLS_EXT: { "directoryRead": true } }
    });
    assert_eq!(discover["capabilities"], caps);
    assert_eq!(init["capabilities"], caps);
    // Identity: in the body for 2025-11-25, in _meta for 2026-07-28.
    assert_eq!(init["serverInfo"], server_info());
    assert_eq!(discover["_meta"][SERVER_INFO], server_info());
    assert!(discover.get("serverInfo").is_none());
    assert!(discover.get("protocolVersion").is_none());
    assert_eq!(init["protocolVersion"], LEGACY);
    assert!(init.get("supportedVersions").is_none());
    assert_eq!(discover["supportedVersions"], json!([MODERN]));
    // The same instructions, naming every skill.
    assert_eq!(discover["instructions"], init["instructions"]);
    let text = discover["instructions"].as_str().expect("instructions");
    for s in embedded().skills() {
        assert!(text.contains(s.uri), "{} named in the instructions", s.uri);
    }
    // The settings object is a JSON object (never `[]`, never `true`).
    assert!(discover["capabilities"]["extensions"][SKILLS_EXT].is_object());
    // Exactly these members.
    let keys = |v: &Json| {
        let mut k: Vec<String> = v.as_object().expect("object").keys().cloned().collect();
        k.sort();
        k
    };
    assert_eq!(
        keys(&discover),
        [
            "_meta",
            "cacheScope",
            "capabilities",
            "instructions",
            "resultType",
            "supportedVersions",
            "ttlMs"
        ]
    );
    assert_eq!(
        keys(&init),
        [
            "capabilities",
            "instructions",
            "protocolVersion",
            "serverInfo"
        ]
    );
}

#[test]
fn the_era_follows_the_body_and_the_headers() {
    let r = responder(50);
    let legacy_list = request(Era::Legacy, 1, "skills/list", json!({}));
    let modern_list = request(Era::Modern, 1, "skills/list", json!({}));
    let cases: Vec<(&[u8], Transport<'_>, bool)> = vec![
        (&legacy_list, Transport::Stream, false),
        (&modern_list, Transport::Stream, true),
        (
            &legacy_list,
            http(Some(LEGACY), Some("skills/list"), None),
            false,
        ),
        (&legacy_list, http(Some("2025-06-18"), None, None), false),
        (&legacy_list, http(None, None, None), false),
        (
            &modern_list,
            http(Some(MODERN), Some("skills/list"), None),
            true,
        ),
    ];
    for (msg, t, modern) in cases {
        let rpc = call(&r, msg, &t);
        let res = rpc.result().expect("a result");
        assert_eq!(res.get("resultType").is_some(), modern, "{t:?}");
    }
    // A modern header with a legacy body is a modern request missing its _meta.
    let rpc = call(
        &r,
        &legacy_list,
        &http(Some(MODERN), Some("skills/list"), None),
    );
    assert_eq!((rpc.status, rpc.code()), (400, Some(-32602)));
}

#[test]
fn settings_change_the_cache_hints_and_instructions() {
    let custom = Responder::new(
        embedded(),
        Config {
            page_size: 3,
            ttl_ms: 0,
            cache_scope: CacheScope::Private,
            instructions: Some("Use skills/list.".into()),
            server_info: None,
            fallback: Fallback::NONE,
            scopes: Vec::new(),
        },
    )
    .expect("valid");
    let mut all = methods();
    all.push(("server/discover", json!({}), true));
    for (method, params, cacheable) in all {
        let res = ok(&custom, &request(Era::Modern, 1, method, params));
        if cacheable {
            assert_eq!(res["ttlMs"], 0, "{method}");
            assert_eq!(res["cacheScope"], "private", "{method}");
        }
    }
    let d = ok(
        &custom,
        &request(Era::Modern, 1, "server/discover", json!({})),
    );
    assert_eq!(d["instructions"], "Use skills/list.");
    let page = ok(&custom, &request(Era::Modern, 1, "skills/list", json!({})));
    assert_eq!(page["skills"].as_array().map(Vec::len), Some(3));

    let silent = Responder::new(
        embedded(),
        Config {
            instructions: Some(String::new()),
            ..Config::default()
        },
    )
    .expect("valid");
    let d = ok(
        &silent,
        &request(Era::Modern, 1, "server/discover", json!({})),
    );
    assert!(
        d.get("instructions").is_none(),
        "empty instructions are left out"
    );
    let i = ok(
        &silent,
        &request(
            Era::Legacy,
            1,
            "initialize",
            json!({"protocolVersion": LEGACY}),
        ),
    );
    assert!(i.get("instructions").is_none());

    let max = Responder::new(
        embedded(),
        Config {
            ttl_ms: 9_007_199_254_740_991,
            ..Config::default()
        },
    )
    .expect("2^53 - 1 is allowed");
    let res = ok(&max, &request(Era::Modern, 1, "resources/list", json!({})));
    assert_eq!(res["ttlMs"], 9_007_199_254_740_991u64);
}

#[test]
fn a_server_that_embeds_the_responder_names_itself() {
    let named = Responder::new(
        embedded(),
        Config {
            server_info: Some(("dice-mcp".into(), "1.2.3".into())),
            ..Config::default()
        },
    )
    .expect("valid");
    let want = json!({"name": "dice-mcp", "version": "1.2.3"});
    for method in ["server/discover", "skills/list", "resources/list"] {
        let res = ok(&named, &request(Era::Modern, 1, method, json!({})));
        assert_eq!(
            res["_meta"]["io.modelcontextprotocol/serverInfo"], want,
            "{method}"
        );
    }
    let i = ok(
        &named,
        &request(
            Era::Legacy,
            1,
            "initialize",
            json!({"protocolVersion": LEGACY}),
        ),
    );
    assert_eq!(i["serverInfo"], want);
}

#[test]
fn out_of_range_settings_are_refused() {
    for (cfg, phrase) in [
        (
            Config {
                server_info: Some((String::new(), "1".into())),
                ..Config::default()
            },
            "field server_info.0 = \"\" is invalid (empty)",
        ),
        (
            Config {
                page_size: 0,
                ..Config::default()
            },
            "field page_size = \"0\" is invalid (out of range)",
        ),
        (
            Config {
                page_size: 1001,
                ..Config::default()
            },
            "field page_size = \"1001\" is invalid (out of range)",
        ),
        (
            Config {
                ttl_ms: 9_007_199_254_740_992,
                ..Config::default()
            },
            "field ttl_ms = \"9007199254740992\" is invalid (out of range)",
        ),
    ] {
        let e = Responder::new(embedded(), cfg).err().expect("refused");
        assert!(e.to_string().contains(phrase), "{e}");
    }
}
