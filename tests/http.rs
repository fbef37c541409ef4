//! The Streamable HTTP rules (`skills_edge::http`): statuses, headers and bodies of every
//! decision, driven through the public `Endpoint` API.

use skills_edge::catalog::Grant;
use skills_edge::http::*;

const MODERN: &str = r#"{"jsonrpc":"2.0","id":7,"method":"skills/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
const ACCEPT: &str = "application/json, text/event-stream";

/// The inspector page's files as the npm package ships them (`inspector/`, `lib/`, `web/`),
/// with the content types they are served with.
const PAGE_FILES: [(&str, &str); 9] = [
    ("index.html", "text/html; charset=utf-8"),
    ("inspector.js", "text/javascript; charset=utf-8"),
    ("inspector.css", "text/css; charset=utf-8"),
    ("lib/client.js", "text/javascript; charset=utf-8"),
    ("lib/client-web.js", "text/javascript; charset=utf-8"),
    ("lib/async-verifier.js", "text/javascript; charset=utf-8"),
    ("lib/transport.js", "text/javascript; charset=utf-8"),
    ("web/skills_edge.js", "text/javascript; charset=utf-8"),
    ("web/skills_edge_bg.wasm", "application/wasm"),
];

fn endpoint(config: HttpConfig) -> Endpoint {
    let catalog = skills_edge::embedded::catalog().expect("embedded catalog");
    Endpoint::new(catalog, config).expect("valid config")
}

fn post<'a>() -> Head<'a> {
    Head {
        method: "POST",
        path: "/mcp",
        host: Some("127.0.0.1:8787"),
        accept: Some(ACCEPT),
        content_type: Some("application/json"),
        protocol_version: Some("2026-07-28"),
        mcp_method: Some("skills/list"),
        ..Head::default()
    }
}

fn respond(ep: &Endpoint, head: &Head<'_>) -> Response {
    match ep.head(head, Grant::PUBLIC) {
        Step::Respond(r) => r,
        Step::ReadBody { limit } => {
            panic!("expected an immediate response, got ReadBody {limit}")
        }
        Step::Page { file, .. } => panic!("expected an immediate response, got the page's {file}"),
    }
}

fn error_code(r: &Response) -> i64 {
    let v: serde_json::Value = serde_json::from_slice(&r.body).expect("JSON body");
    assert_eq!(v["jsonrpc"], "2.0");
    assert!(v.get("id").is_none_or(|id| !id.is_null()), "no null ids");
    v["error"]["code"].as_i64().expect("an error code")
}

#[test]
fn a_result_is_200_json_with_vary() {
    let ep = endpoint(HttpConfig::default());
    let h = post();
    assert_eq!(
        ep.head(&h, Grant::PUBLIC),
        Step::ReadBody { limit: 1 << 20 }
    );
    let r = ep.body(&h, MODERN.as_bytes(), Grant::PUBLIC);
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert_eq!(r.header("vary"), Some("Origin"));
    assert_eq!(r.header("access-control-allow-origin"), None);
    let v: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
    assert_eq!(v["id"], 7);
    assert!(v["result"]["skills"].is_array());
}

#[test]
fn notifications_get_202_without_body() {
    let ep = endpoint(HttpConfig::default());
    let h = Head {
        protocol_version: Some("2025-11-25"),
        mcp_method: None,
        ..post()
    };
    let r = ep.handle(
        &h,
        br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        Grant::PUBLIC,
    );
    assert_eq!(r.status, 202);
    assert!(r.body.is_empty());
    assert_eq!(r.header("content-type"), None);
    assert_eq!(r.header("vary"), Some("Origin"));
}

#[test]
fn responder_statuses_pass_through_with_error_bodies() {
    let ep = endpoint(HttpConfig::default());
    // Parse error.
    let r = ep.handle(&post(), b"{not json", Grant::PUBLIC);
    assert_eq!((r.status, error_code(&r)), (400, -32700));
    // Batch.
    let r = ep.handle(&post(), format!("[{MODERN}]").as_bytes(), Grant::PUBLIC);
    assert_eq!((r.status, error_code(&r)), (400, -32600));
    // Unknown method.
    let h = Head {
        mcp_method: Some("nope/nope"),
        ..post()
    };
    let body = MODERN.replace("skills/list", "nope/nope");
    let r = ep.handle(&h, body.as_bytes(), Grant::PUBLIC);
    assert_eq!((r.status, error_code(&r)), (404, -32601));
    // Header mismatch.
    let h = Head {
        mcp_method: Some("skills/get"),
        ..post()
    };
    let r = ep.handle(&h, MODERN.as_bytes(), Grant::PUBLIC);
    assert_eq!((r.status, error_code(&r)), (400, -32020));
    // Unsupported version.
    let h = Head {
        protocol_version: Some("v999"),
        ..post()
    };
    let body = MODERN.replace("2026-07-28", "v999");
    let r = ep.handle(&h, body.as_bytes(), Grant::PUBLIC);
    assert_eq!((r.status, error_code(&r)), (400, -32022));
    // Envelope error.
    let r = ep.handle(
        &post(),
        br#"{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{}}"#,
        Grant::PUBLIC,
    );
    assert_eq!((r.status, error_code(&r)), (400, -32602));
    // Other errors are 200.
    let h = Head {
        mcp_method: Some("skills/get"),
        ..post()
    };
    let body = MODERN.replace("skills/list", "skills/get").replace(
        "\"params\":{",
        "\"params\":{\"uri\":\"skill://missing/SKILL.md\",",
    );
    let r = ep.handle(&h, body.as_bytes(), Grant::PUBLIC);
    assert_eq!((r.status, error_code(&r)), (200, -32602));
}

#[test]
fn mcp_name_base64_form_reaches_the_responder() {
    let ep = endpoint(HttpConfig::default());
    let uri = "skill://code-review/SKILL.md";
    let encoded = format!(
        "=?base64?{}?=",
        base64::Engine::encode(&base64::engine::general_purpose::STANDARD, uri.as_bytes())
    );
    let h = Head {
        mcp_method: Some("resources/read"),
        mcp_name: Some(&encoded),
        ..post()
    };
    let body = MODERN
        .replace("skills/list", "resources/read")
        .replace("\"params\":{", &format!("\"params\":{{\"uri\":\"{uri}\","));
    let r = ep.handle(&h, body.as_bytes(), Grant::PUBLIC);
    assert_eq!(r.status, 200, "{}", r.body_str());
    assert!(r.body_str().contains("\"contents\""));
}

#[test]
fn legacy_clients_are_served_without_sessions() {
    let ep = endpoint(HttpConfig::default());
    let h = Head {
        protocol_version: None,
        mcp_method: None,
        ..post()
    };
    let r = ep.handle(
        &h,
        br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
        Grant::PUBLIC,
    );
    assert_eq!(r.status, 200);
    assert!(r.body_str().contains("\"protocolVersion\":\"2025-11-25\""));
    assert!(r.headers.iter().all(|(n, _)| *n != "mcp-session-id"));
}

#[test]
fn get_and_delete_are_405_with_allow_post() {
    let ep = endpoint(HttpConfig::default());
    for m in ["GET", "DELETE", "PUT", "HEAD"] {
        let r = respond(
            &ep,
            &Head {
                method: m,
                ..post()
            },
        );
        assert_eq!(r.status, 405, "{m}");
        assert_eq!(r.header("allow"), Some("POST"));
        assert_eq!(error_code(&r), -32600);
    }
}

#[test]
fn other_paths_are_404() {
    let ep = endpoint(HttpConfig::default());
    for p in ["/", "/mcp/", "/MCP", "/mcp/x", ""] {
        let r = respond(&ep, &Head { path: p, ..post() });
        assert_eq!(r.status, 404, "{p:?}");
        assert_eq!(error_code(&r), -32600);
    }
}

#[test]
fn accept_must_allow_both_types() {
    let ep = endpoint(HttpConfig::default());
    for bad in [
        "application/json",
        "text/event-stream",
        "text/html",
        "application/json, text/event-stream;q=0",
        "*/*;q=0",
        "application/json;q=0, */*",
    ] {
        let r = respond(
            &ep,
            &Head {
                accept: Some(bad),
                ..post()
            },
        );
        assert_eq!(r.status, 406, "{bad:?}");
        assert_eq!(error_code(&r), -32600);
    }
    for good in [
        ACCEPT,
        "*/*",
        "application/*, text/*",
        "text/event-stream, application/json;q=0.5",
        "Application/JSON , TEXT/Event-Stream",
        "application/json, */*;q=0.1",
    ] {
        assert!(
            matches!(
                ep.head(
                    &Head {
                        accept: Some(good),
                        ..post()
                    },
                    Grant::PUBLIC
                ),
                Step::ReadBody { .. }
            ),
            "{good:?}"
        );
    }
    // No Accept header means any type (RFC 9110 §12.5.1).
    assert!(matches!(
        ep.head(
            &Head {
                accept: None,
                ..post()
            },
            Grant::PUBLIC
        ),
        Step::ReadBody { .. }
    ));
}

#[test]
fn content_type_must_be_json() {
    let ep = endpoint(HttpConfig::default());
    for bad in [
        None,
        Some("text/plain"),
        Some("application/jsonx"),
        Some(""),
    ] {
        let r = respond(
            &ep,
            &Head {
                content_type: bad,
                ..post()
            },
        );
        assert_eq!(r.status, 415, "{bad:?}");
        assert_eq!(error_code(&r), -32600);
    }
    for good in ["application/json; charset=utf-8", "Application/Json"] {
        assert!(matches!(
            ep.head(
                &Head {
                    content_type: Some(good),
                    ..post()
                },
                Grant::PUBLIC
            ),
            Step::ReadBody { .. }
        ));
    }
}

#[test]
fn body_limit_from_content_length_and_from_the_body() {
    let ep = endpoint(HttpConfig {
        max_body_bytes: 100,
        ..HttpConfig::default()
    });
    let r = respond(
        &ep,
        &Head {
            content_length: Some("101"),
            ..post()
        },
    );
    assert_eq!((r.status, error_code(&r)), (413, -32600));
    let r = respond(
        &ep,
        &Head {
            content_length: Some("99999999999999999999999999"),
            ..post()
        },
    );
    assert_eq!(r.status, 413);
    assert_eq!(
        ep.head(
            &Head {
                content_length: Some("100"),
                ..post()
            },
            Grant::PUBLIC
        ),
        Step::ReadBody { limit: 100 }
    );
    let r = respond(
        &ep,
        &Head {
            content_length: Some("12x"),
            ..post()
        },
    );
    assert_eq!((r.status, error_code(&r)), (400, -32600));
    // Chunked: no Content-Length, the body itself is over the limit.
    let r = ep.body(&post(), &[b' '; 101], Grant::PUBLIC);
    assert_eq!(r.status, 413);
    assert_eq!(ep.body_too_large(&post()).status, 413);
}

#[test]
fn adapters_failures_while_reading_a_body_are_json_rpc_errors() {
    let ep = endpoint(HttpConfig::default());
    let r = ep.body_unreadable(&post());
    assert_eq!((r.status, error_code(&r)), (400, -32600));
    assert_eq!(r.header("content-type"), Some("application/json"));
    let r = ep.overloaded();
    assert_eq!((r.status, error_code(&r)), (503, -32603));
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert_eq!(r.header("retry-after"), Some("1"));
}

#[test]
fn host_allow_list_defends_against_dns_rebinding() {
    let ep = endpoint(HttpConfig::default());
    for ok in [
        "localhost",
        "localhost:8787",
        "127.0.0.1:1",
        "[::1]:8787",
        "LOCALHOST:80",
    ] {
        assert!(
            matches!(
                ep.head(
                    &Head {
                        host: Some(ok),
                        ..post()
                    },
                    Grant::PUBLIC
                ),
                Step::ReadBody { .. }
            ),
            "{ok}"
        );
    }
    for bad in [
        Some("evil.example.com"),
        Some("evil.example.com:8787"),
        Some("localhost.evil.com"),
        Some("127.0.0.1.nip.io"),
        Some("localhost:notaport"),
        Some("localhost, evil.example.com"),
        Some(""),
        None,
    ] {
        let r = respond(
            &ep,
            &Head {
                host: bad,
                ..post()
            },
        );
        assert_eq!(r.status, 403, "{bad:?}");
        assert_eq!(error_code(&r), -32600);
    }
}

#[test]
fn host_patterns() {
    let l = HostList::parse("example.com:443, *.workers.dev, [::1]").unwrap();
    assert!(l.allows("example.com:443"));
    assert!(!l.allows("example.com"));
    assert!(!l.allows("example.com:444"));
    assert!(l.allows("skills.acme.workers.dev"));
    assert!(l.allows("x.workers.dev:8443"));
    assert!(!l.allows("workers.dev"));
    assert!(!l.allows("evilworkers.dev"));
    assert!(l.allows("[::1]:9"));
    assert!(!l.allows("[::2]"));
    assert!(HostList::parse("*").unwrap().allows("anything.example"));
    for bad in [
        "",
        " , ",
        "exa mple.com",
        "a:b:c",
        "host:99999",
        "[::1",
        "*.",
        "a..b",
    ] {
        assert!(HostList::parse(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn origin_patterns() {
    // The default list (`ALLOWED_ORIGINS` unset): pages served from this machine.
    let l = HttpConfig::default().allowed_origins;
    assert!(l.allows("http://localhost:6274"));
    assert!(l.allows("http://127.0.0.1:3000"));
    assert!(l.allows("http://localhost"));
    assert!(l.allows("http://[::1]:5173"));
    assert!(!l.allows("https://localhost:6274"));
    assert!(!l.allows("http://evil.example.com"));
    assert!(!l.allows("http://localhost.evil.example.com"));
    assert!(!l.allows("null"));
    assert!(!l.allows("http://localhost:6274/path"));

    let l = OriginList::parse("https://app.example.com, https://*.example.org:8443, null").unwrap();
    assert!(l.allows("https://app.example.com"));
    assert!(l.allows("https://app.example.com:443"));
    assert!(!l.allows("http://app.example.com"));
    assert!(!l.allows("https://app.example.com:444"));
    assert!(l.allows("https://a.b.example.org:8443"));
    assert!(!l.allows("https://example.org:8443"));
    assert!(l.allows("null"));
    assert!(OriginList::parse("*")
        .unwrap()
        .allows("https://anything.example"));
    assert_eq!(OriginList::parse("").unwrap(), OriginList::Only(vec![]));
    for bad in [
        "example.com",
        "https://example.com/",
        "https://exa mple.com",
        "http://x:99999",
        "://x",
    ] {
        let e = OriginList::parse(bad).unwrap_err().to_string();
        assert!(e.contains(bad), "{e}");
    }
}

#[test]
fn foreign_origins_are_403_without_cors_headers() {
    let ep = endpoint(HttpConfig::default());
    for m in ["POST", "OPTIONS", "GET"] {
        let r = respond(
            &ep,
            &Head {
                method: m,
                origin: Some("http://evil.example.com"),
                ..post()
            },
        );
        assert_eq!(r.status, 403, "{m}");
        assert_eq!(error_code(&r), -32600);
        assert!(r
            .headers
            .iter()
            .all(|(n, _)| !n.starts_with("access-control-")));
        assert_eq!(r.header("vary"), Some("Origin"));
    }
}

#[test]
fn preflight_from_an_allowed_origin() {
    let ep = endpoint(HttpConfig::default());
    let h = Head {
        method: "OPTIONS",
        origin: Some("http://localhost:5173"),
        accept: None,
        content_type: None,
        protocol_version: None,
        mcp_method: None,
        ..post()
    };
    let r = respond(&ep, &h);
    assert_eq!(r.status, 204);
    assert!(r.body.is_empty());
    assert_eq!(
        r.header("access-control-allow-origin"),
        Some("http://localhost:5173")
    );
    assert_eq!(
        r.header("access-control-allow-methods"),
        Some("POST, OPTIONS")
    );
    let allowed = r.header("access-control-allow-headers").unwrap();
    for name in [
        "content-type",
        "accept",
        "mcp-protocol-version",
        "mcp-method",
        "mcp-name",
        "authorization",
    ] {
        assert!(allowed.split(", ").any(|n| n == name), "{name}");
    }
    assert_eq!(r.header("access-control-max-age"), Some("7200"));
    assert_eq!(r.header("access-control-allow-credentials"), None);
    assert_eq!(r.header("vary"), Some("Origin"));
    // Without Origin it is a plain OPTIONS.
    let r = respond(&ep, &Head { origin: None, ..h });
    assert_eq!(r.status, 204);
    assert_eq!(r.header("access-control-allow-origin"), None);
    assert_eq!(r.header("allow"), Some("POST, OPTIONS"));
}

#[test]
fn cors_headers_on_every_response_from_an_allowed_origin() {
    let ep = endpoint(HttpConfig::default());
    let o = "http://127.0.0.1:3000";
    let with = |h: Head<'static>| Head {
        origin: Some(o),
        ..h
    };
    let cases: Vec<Response> = vec![
        ep.handle(&with(post()), MODERN.as_bytes(), Grant::PUBLIC),
        ep.handle(&with(post()), b"{", Grant::PUBLIC),
        respond(
            &ep,
            &with(Head {
                method: "GET",
                ..post()
            }),
        ),
        respond(
            &ep,
            &with(Head {
                accept: Some("text/html"),
                ..post()
            }),
        ),
        respond(
            &ep,
            &with(Head {
                content_type: Some("text/plain"),
                ..post()
            }),
        ),
        respond(
            &ep,
            &with(Head {
                path: "/x",
                ..post()
            }),
        ),
        respond(
            &ep,
            &with(Head {
                host: Some("evil.example.com"),
                ..post()
            }),
        ),
        ep.body_too_large(&with(post())),
    ];
    for r in cases {
        assert_eq!(
            r.header("access-control-allow-origin"),
            Some(o),
            "{}",
            r.status
        );
        assert_eq!(r.header("vary"), Some("Origin"));
    }
}

#[test]
fn any_origin_is_echoed_not_wildcarded() {
    let ep = endpoint(HttpConfig {
        allowed_origins: OriginList::Any,
        ..HttpConfig::default()
    });
    let r = ep.handle(
        &Head {
            origin: Some("https://x.example"),
            ..post()
        },
        MODERN.as_bytes(),
        Grant::PUBLIC,
    );
    assert_eq!(r.status, 200);
    assert_eq!(
        r.header("access-control-allow-origin"),
        Some("https://x.example")
    );
}

#[test]
fn head_from_headers_is_case_insensitive() {
    let h = Head::from_headers(
        "POST",
        "/mcp",
        [
            ("Host", "localhost:1"),
            ("ORIGIN", "http://localhost:2"),
            ("Mcp-Method", "skills/list"),
            ("MCP-Protocol-Version", "2026-07-28"),
            ("mcp-name", "n"),
            ("Accept", "a"),
            ("Content-Type", "c"),
            ("Content-Length", "3"),
            ("X-Other", "ignored"),
            ("host", "second"),
        ],
    );
    assert_eq!(h.host, Some("localhost:1"));
    assert_eq!(h.origin, Some("http://localhost:2"));
    assert_eq!(h.mcp_method, Some("skills/list"));
    assert_eq!(h.protocol_version, Some("2026-07-28"));
    assert_eq!(h.mcp_name, Some("n"));
    assert_eq!(h.accept, Some("a"));
    assert_eq!(h.content_type, Some("c"));
    assert_eq!(h.content_length, Some("3"));
}

#[test]
fn endpoint_rejects_an_out_of_range_limit() {
    let catalog = skills_edge::embedded::catalog().unwrap();
    let c = HttpConfig {
        max_body_bytes: 0,
        ..HttpConfig::default()
    };
    assert!(Endpoint::new(catalog, c).is_err());
}

fn get<'a>(path: &'a str) -> Head<'a> {
    Head {
        method: "GET",
        path,
        host: Some("127.0.0.1:8787"),
        ..Head::default()
    }
}

#[test]
fn the_inspector_page_only_when_switched_on() {
    let off = endpoint(HttpConfig::default());
    for path in ["/inspector", "/inspector/", "/inspector/inspector.js"] {
        let r = respond(&off, &get(path));
        assert_eq!((r.status, error_code(&r)), (404, -32600), "{path}");
    }
    let on = endpoint(HttpConfig {
        inspector: true,
        ..HttpConfig::default()
    });
    for (file, content_type) in &PAGE_FILES {
        let path = format!("{INSPECTOR_PREFIX}{file}");
        let Step::Page {
            file: f,
            response,
            missing,
        } = on.head(&get(&path), Grant::PUBLIC)
        else {
            panic!("{path} is a file of the page");
        };
        assert_eq!(&f, file);
        assert_eq!(response.status, 200);
        assert_eq!(response.header("content-type"), Some(*content_type));
        assert_eq!(response.header("x-content-type-options"), Some("nosniff"));
        assert!(response.body.is_empty());
        assert_eq!((missing.status, error_code(&missing)), (503, -32603));
        assert!(missing.body_str().contains("build the npm package"));
        // An adapter without static files answers `missing`.
        assert_eq!(on.handle(&get(&path), b"", Grant::PUBLIC), missing);
    }
    let Step::Page { file, .. } = on.head(&get("/inspector/"), Grant::PUBLIC) else {
        panic!("the page's index");
    };
    assert_eq!(file, "index.html");
    let r = respond(&on, &get("/inspector"));
    assert_eq!((r.status, r.header("location")), (308, Some("/inspector/")));
    let head = respond(
        &on,
        &Head {
            method: "HEAD",
            ..get("/inspector/web/skills_edge_bg.wasm")
        },
    );
    assert_eq!(
        (head.status, head.header("content-type")),
        (200, Some("application/wasm"))
    );
    for path in [
        "/inspector/../wrangler.toml",
        "/inspector/lib/",
        "/inspector/nope.js",
        "/inspector/web/skills_edge_bg.wasm.map",
    ] {
        let r = respond(&on, &get(path));
        assert_eq!((r.status, error_code(&r)), (404, -32600), "{path}");
    }
    let r = respond(
        &on,
        &Head {
            method: "POST",
            ..get("/inspector/")
        },
    );
    assert_eq!((r.status, r.header("allow")), (405, Some("GET, HEAD")));
    // The Host and Origin rules come first.
    let r = respond(
        &on,
        &Head {
            host: Some("evil.example"),
            ..get("/inspector/")
        },
    );
    assert_eq!(r.status, 403);
    let r = respond(
        &on,
        &Head {
            origin: Some("https://evil.example"),
            ..get("/inspector/")
        },
    );
    assert_eq!(r.status, 403);
    // The page calls /mcp from this server's own origin: allowed with the page on, and only
    // for the very host the request was sent to (and that the Host rule allows).
    let own = Head {
        origin: Some("http://127.0.0.1:8787"),
        ..post()
    };
    let only = |inspector| HttpConfig {
        allowed_origins: OriginList::parse("https://app.example").unwrap(),
        inspector,
        ..HttpConfig::default()
    };
    assert_eq!(
        endpoint(only(true)).head(&own, Grant::PUBLIC),
        Step::ReadBody { limit: 1 << 20 }
    );
    assert_eq!(respond(&endpoint(only(false)), &own).status, 403);
    let other_port = Head {
        origin: Some("http://127.0.0.1:9999"),
        ..post()
    };
    assert_eq!(respond(&endpoint(only(true)), &other_port).status, 403);
    let rebound = Head {
        origin: Some("http://evil.example"),
        host: Some("evil.example"),
        ..post()
    };
    assert_eq!(respond(&endpoint(only(true)), &rebound).status, 403);
    let page = Head {
        origin: Some("http://127.0.0.1:8787"),
        ..get("/inspector/inspector.js")
    };
    assert!(matches!(
        endpoint(only(true)).head(&page, Grant::PUBLIC),
        Step::Page {
            file: "inspector.js",
            ..
        }
    ));
    // The endpoint itself is unchanged.
    assert_eq!(
        on.head(&post(), Grant::PUBLIC),
        Step::ReadBody { limit: 1 << 20 }
    );
}

/// A header is not bounded by the body limit: a 60,000-character `Mcp-Method`, `Mcp-Name` or
/// `MCP-Protocol-Version` used to come back whole in the error message (a 60 KB reply). Every
/// value repeated is clipped to 200 characters, followed by `…`.
#[test]
fn a_60000_character_mcp_header_comes_back_clipped() {
    let ep = endpoint(HttpConfig::default());
    let long = "x".repeat(60_000);
    let read = r#"{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"skill://code-review/SKILL.md","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let cases: [(&str, Head<'_>, &str); 3] = [
        (
            "Mcp-Method",
            Head {
                mcp_method: Some(&long),
                ..post()
            },
            MODERN,
        ),
        (
            "MCP-Protocol-Version",
            Head {
                protocol_version: Some(&long),
                ..post()
            },
            MODERN,
        ),
        (
            "Mcp-Name",
            Head {
                mcp_method: Some("resources/read"),
                mcp_name: Some(&long),
                ..post()
            },
            read,
        ),
    ];
    for (name, head, body) in cases {
        let r = ep.body(&head, body.as_bytes(), Grant::PUBLIC);
        assert_eq!((r.status, error_code(&r)), (400, -32020), "{name}");
        assert!(r.body.len() < 1000, "{name}: a {}-byte reply", r.body.len());
        let clipped = format!("{}…", "x".repeat(200));
        assert!(r.body_str().contains(&clipped), "{name}: {}", r.body_str());
    }
}

/// A request value the spec has `data` repeat (`data.uri` of "Resource not found",
/// `data.method`, `data.name`, `data.requested`) comes back whole there: a client matches the
/// error to what it asked by that value, and `data.requested` must echo the version (MCP
/// 2026-07-28, the conformance checks), so a clipped one would name something else. The
/// message repeats it clipped. Such a value is read from the body, so the reply stays within
/// the body's size plus a constant, whatever a client sends: a 500,000-character URI or
/// method makes a reply of about one body, never more.
#[test]
fn a_500000_character_uri_or_method_in_the_body_makes_no_reply_larger_than_the_body() {
    let big = endpoint(HttpConfig {
        max_body_bytes: 2 << 20,
        ..HttpConfig::default()
    });
    let long = format!("skill://code-review/{}", "y".repeat(500_000));
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
    let cases = [
        ("resources/read", "uri", "resources/read", &long),
        ("skills/get", "uri", "skills/get", &long),
        ("x/y", "", &long[..], &long),
    ];
    for (header, key, method, value) in cases {
        let params = if key.is_empty() {
            format!("{{{meta}}}")
        } else {
            format!(r#"{{"{key}":"{value}",{meta}}}"#)
        };
        let body = format!(r#"{{"jsonrpc":"2.0","id":7,"method":"{method}","params":{params}}}"#);
        let name = (header != "x/y").then_some(value.as_str());
        let head = Head {
            mcp_method: Some(if header == "x/y" { method } else { header }),
            mcp_name: name,
            ..post()
        };
        let r = big.body(&head, body.as_bytes(), Grant::PUBLIC);
        let v: serde_json::Value = serde_json::from_slice(&r.body).expect("JSON");
        let error = &v["error"];
        assert!(
            r.body.len() < body.len() + 1000,
            "{method:.40}: a {}-byte reply to a {}-byte body",
            r.body.len(),
            body.len()
        );
        let message = error["message"].as_str().unwrap();
        assert!(message.chars().count() < 400, "{message:.300}");
        assert!(message.contains('…'), "{message:.300}");
        let data_value = error["data"]["uri"]
            .as_str()
            .or(error["data"]["method"].as_str())
            .unwrap_or_else(|| panic!("{error:.300}"));
        assert_eq!(data_value, value.as_str(), "data repeats it whole");
    }
}

/// `"` escapes to `\"`: a `Host` or `Origin` of 300 quotes used to come back as 400 quoted
/// characters (clipped before it was escaped). The message quotes the value, then clips it.
#[test]
fn a_host_or_origin_of_quotes_makes_no_long_403() {
    let ep = endpoint(HttpConfig::default());
    let quotes = "\"".repeat(300);
    let origin = format!("http://{quotes}");
    for head in [
        Head {
            host: Some(&quotes),
            ..post()
        },
        Head {
            origin: Some(&origin),
            ..post()
        },
    ] {
        let r = respond(&ep, &head);
        assert_eq!(r.status, 403);
        let v: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
        let message = v["error"]["message"].as_str().unwrap();
        let run = message
            .split(|c| c != '"' && c != '\\')
            .map(str::len)
            .max()
            .unwrap();
        assert!(run <= 201, "{run} quote characters: {message}");
        assert!(message.chars().count() < 300, "{message}");
        assert!(
            message.ends_with("… is not served here")
                || message.ends_with("… is not allowed to call this server"),
            "{message}"
        );
    }
}
