//! Who may see what, on every surface: a catalog with a public skill, a private nested pair
//! under `acme/billing/**` (scope `billing`) and a skill with scope `review`, walked through
//! the HTTP endpoint (sans-I/O) for an anonymous caller, a caller with a scope no rule names
//! and a caller with `billing`, in both protocol eras: lists (every page), reads of every
//! file, directories from the top down, the instructions, the fallback's tools and prompts,
//! and the mirror (index, artifacts, per-file URLs, envelopes). A hidden skill's name, URI and
//! description appear in no reply; a hidden skill's reads answer byte for byte as a skill that
//! never existed (modulo the URI the request echoes); the right scope sees exactly the public
//! skills and its own; answers made for a grant are `cacheScope: "private"`, and the mirror's
//! `Cache-Control: private` with `Vary: Authorization`.

use crate::common::{request, LEGACY, MODERN};
use serde_json::{json, Value as Json};
use skills_edge::catalog::compile::signing::CatalogId;
use skills_edge::catalog::compile::{compile, SourceTree};
use skills_edge::catalog::sign::SigningKey;
use skills_edge::catalog::{pack, Catalog, Grant};
use skills_edge::http::*;
use skills_edge::protocol::Era;
use skills_edge::server::{Config, Fallback};
use std::sync::Arc;

fn md(name: &str) -> String {
    format!("---\nname: {name}\ndescription: Secretish {name} work, described.\n---\n\n# {name}\n")
}

const RULES: &str = "[[access]]\nskills = [\"acme/billing/**\"]\nscopes = [\"billing\"]\n\n[[access]]\nskills = [\"code-review\"]\nscopes = [\"review\"]\n";

fn tree() -> SourceTree {
    let mut t = SourceTree::default();
    t.add_file("hello/SKILL.md", md("hello"));
    t.add_file("hello/references/tone.md", "Be kind.\n");
    t.add_file("acme/billing/invoices/SKILL.md", md("invoices"));
    t.add_file("acme/billing/invoices/references/rates.md", "rates\n");
    t.add_file("acme/billing/invoices/refunds/SKILL.md", md("refunds"));
    t.add_file("code-review/SKILL.md", md("code-review"));
    t.add_file("code-review/checklist.md", "check\n");
    t.add_file("acme/tools/lint/SKILL.md", md("lint"));
    t.add_file("skills-edge.toml", RULES);
    t
}

fn catalog(signed: bool) -> Arc<Catalog> {
    let mut c = compile(tree()).expect("compiles");
    if signed {
        c.sign(
            &SigningKey::from_seed([5; 32]),
            &CatalogId::new("--catalog-id", "urn:example:walk").unwrap(),
        );
    }
    Arc::new(Catalog::from_bytes(pack::encode(&c, None)).unwrap())
}

fn endpoint(signed: bool) -> Endpoint {
    let config = HttpConfig {
        server: Config {
            page_size: 2,
            fallback: Fallback::ALL,
            ..Config::default()
        },
        ..HttpConfig::default()
    };
    Endpoint::new(catalog(signed), config).unwrap()
}

/// The skills: (path, name, scope) of each.
const SKILLS: [(&str, &str, Option<&str>); 5] = [
    ("acme/billing/invoices", "invoices", Some("billing")),
    ("acme/billing/invoices/refunds", "refunds", Some("billing")),
    ("acme/tools/lint", "lint", None),
    ("code-review", "code-review", Some("review")),
    ("hello", "hello", None),
];

/// Every file of the catalog.
const FILES: [&str; 8] = [
    "acme/billing/invoices/SKILL.md",
    "acme/billing/invoices/references/rates.md",
    "acme/billing/invoices/refunds/SKILL.md",
    "acme/tools/lint/SKILL.md",
    "code-review/SKILL.md",
    "code-review/checklist.md",
    "hello/SKILL.md",
    "hello/references/tone.md",
];

struct Caller {
    label: &'static str,
    grant: Grant,
    /// The scope it holds that opens skills (None: public ones only).
    sees: Option<&'static str>,
}

fn callers(c: &Catalog) -> [Caller; 3] {
    [
        Caller {
            label: "anonymous",
            grant: Grant::PUBLIC,
            sees: None,
        },
        Caller {
            label: "wrong scope",
            grant: c.grant(&["other"]),
            sees: None,
        },
        Caller {
            label: "right scope",
            grant: c.grant(&["billing"]),
            sees: Some("billing"),
        },
    ]
}

impl Caller {
    fn visible(&self, scope: Option<&str>) -> bool {
        scope.is_none() || scope == self.sees
    }
    fn hidden_skills(&self) -> Vec<(&'static str, &'static str)> {
        SKILLS
            .iter()
            .filter(|(_, _, s)| !self.visible(*s))
            .map(|(p, n, _)| (*p, *n))
            .collect()
    }
    fn scope_of_path(path: &str) -> Option<&'static str> {
        SKILLS
            .iter()
            .filter(|(p, _, _)| path == *p || path.starts_with(&format!("{p}/")))
            .max_by_key(|(p, _, _)| p.len())
            .and_then(|(_, _, s)| *s)
    }
}

/// One POST to `/mcp` as `grant`.
fn post(ep: &Endpoint, era: Era, grant: Grant, method: &str, params: Json) -> Response {
    let body = request(era, 1, method, params.clone());
    let name = params
        .get("uri")
        .or_else(|| params.get("name"))
        .and_then(Json::as_str)
        .map(str::to_owned);
    let named = matches!(method, "resources/read" | "tools/call" | "prompts/get");
    let head = Head {
        method: "POST",
        path: "/mcp",
        host: Some("127.0.0.1:8787"),
        accept: Some("application/json, text/event-stream"),
        content_type: Some("application/json"),
        protocol_version: (era == Era::Modern).then_some(MODERN),
        mcp_method: (era == Era::Modern).then_some(method),
        mcp_name: if era == Era::Modern && named {
            name.as_deref()
        } else {
            None
        },
        ..Head::default()
    };
    let r = ep.handle(&head, &body, grant);
    assert!(r.splice.is_none(), "every byte is in the pack here");
    r
}

fn get(ep: &Endpoint, grant: Grant, path: &str) -> Response {
    let head = Head {
        method: "GET",
        path,
        host: Some("127.0.0.1:8787"),
        ..Head::default()
    };
    match ep.head(&head, grant) {
        Step::Respond(r) => r,
        _ => panic!("the mirror answers from the head"),
    }
}

fn json_of(r: &Response) -> Json {
    serde_json::from_slice(&r.body).expect("a JSON body")
}

/// A response as comparable text: status, headers, body.
fn shape(r: &Response) -> String {
    format!(
        "{} {:?} {}",
        r.status,
        r.headers,
        String::from_utf8_lossy(&r.body)
    )
}

/// Every page of a list method; the names of `key`'s items by `field`.
fn all_pages(
    ep: &Endpoint,
    era: Era,
    g: Grant,
    method: &str,
    key: &str,
    seen: &mut Vec<u8>,
) -> Vec<Json> {
    let mut items = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..20 {
        let params = match &cursor {
            Some(c) => json!({"cursor": c}),
            None => json!({}),
        };
        let r = post(ep, era, g, method, params);
        seen.extend_from_slice(&r.body);
        let j = json_of(&r);
        let result = &j["result"];
        items.extend(result[key].as_array().expect("items").iter().cloned());
        match result["nextCursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => return items,
        }
    }
    panic!("{method} never ended");
}

fn cache_scope(r: &Response) -> Option<String> {
    json_of(r)["result"]["cacheScope"]
        .as_str()
        .map(str::to_owned)
}

/// `a` with `from` replaced by `to` (the URI or name a request echoes).
fn echo(r: &Response, from: &str, to: &str) -> String {
    shape(r).replace(from, to)
}

fn walk(signed: bool) {
    let ep = endpoint(signed);
    let cat = catalog(signed);
    for caller in callers(&cat) {
        let g = caller.grant;
        let private_answers = !g.is_public();
        let hidden = caller.hidden_skills();
        let mut seen: Vec<u8> = Vec::new();
        let ctx = |what: &str| {
            format!(
                "{} ({}): {what}",
                caller.label,
                if signed { "signed" } else { "unsigned" }
            )
        };
        for era in [Era::Modern, Era::Legacy] {
            // skills/list and resources/list, every page.
            let skills = all_pages(&ep, era, g, "skills/list", "skills", &mut seen);
            let uris: Vec<String> = skills
                .iter()
                .map(|s| s["uri"].as_str().unwrap().to_owned())
                .collect();
            let expected: Vec<String> = SKILLS
                .iter()
                .filter(|(_, _, s)| caller.visible(*s))
                .map(|(p, _, _)| format!("skill://{p}/SKILL.md"))
                .collect();
            assert_eq!(uris, expected, "{}", ctx("skills/list"));
            let resources = all_pages(&ep, era, g, "resources/list", "resources", &mut seen);
            let uris: Vec<&str> = resources
                .iter()
                .map(|s| s["uri"].as_str().unwrap())
                .collect();
            assert_eq!(uris, expected, "{}", ctx("resources/list"));
            let t = post(&ep, era, g, "resources/templates/list", json!({}));
            seen.extend_from_slice(&t.body);
            if era == Era::Modern {
                let scope = cache_scope(&t);
                assert_eq!(
                    scope.as_deref(),
                    Some(if private_answers { "private" } else { "public" }),
                    "{}",
                    ctx("cacheScope")
                );
            }
            // skills/get of every skill: hidden ones as a skill that never existed.
            let absent = post(
                &ep,
                era,
                g,
                "skills/get",
                json!({"uri": "skill://nowhere/SKILL.md"}),
            );
            for (path, _, scope) in SKILLS {
                let uri = format!("skill://{path}/SKILL.md");
                let r = post(&ep, era, g, "skills/get", json!({"uri": uri}));
                if caller.visible(scope) {
                    assert_eq!(r.status, 200);
                    assert_eq!(json_of(&r)["result"]["skill"]["uri"], uri.as_str());
                    seen.extend_from_slice(&r.body);
                } else {
                    assert_eq!(
                        echo(&r, &uri, "X"),
                        echo(&absent, "skill://nowhere/SKILL.md", "X"),
                        "{}",
                        ctx(&uri)
                    );
                }
            }
            // resources/read of every file.
            let absent = post(
                &ep,
                era,
                g,
                "resources/read",
                json!({"uri": "skill://nowhere/x.md"}),
            );
            for f in FILES {
                let uri = format!("skill://{f}");
                let r = post(&ep, era, g, "resources/read", json!({"uri": uri}));
                if caller.visible(Caller::scope_of_path(f)) {
                    assert_eq!(r.status, 200, "{}", ctx(f));
                    seen.extend_from_slice(&r.body);
                } else {
                    assert_eq!(
                        echo(&r, &uri, "X"),
                        echo(&absent, "skill://nowhere/x.md", "X"),
                        "{}",
                        ctx(f)
                    );
                }
            }
            // Directories: reading a hidden one (or a hidden skill's root as a file) answers
            // as a directory that does not exist.
            let absent_dir = post(
                &ep,
                era,
                g,
                "resources/directory/read",
                json!({"uri": "skill://nowhere"}),
            );
            let absent_read = post(
                &ep,
                era,
                g,
                "resources/read",
                json!({"uri": "skill://nowhere"}),
            );
            let mut queue: Vec<String> = ["skill://acme", "skill://code-review", "skill://hello"]
                .map(String::from)
                .to_vec();
            let mut dirs_seen = Vec::new();
            while let Some(d) = queue.pop() {
                let path = d.strip_prefix("skill://").unwrap();
                let visible_dir = SKILLS.iter().any(|(p, _, s)| {
                    caller.visible(*s)
                        && (p == &path
                            || p.starts_with(&format!("{path}/"))
                            || path.starts_with(&format!("{p}/")))
                });
                let r = post(&ep, era, g, "resources/directory/read", json!({"uri": d}));
                let as_file = post(&ep, era, g, "resources/read", json!({"uri": d}));
                if !visible_dir {
                    assert_eq!(
                        echo(&r, &d, "X"),
                        echo(&absent_dir, "skill://nowhere", "X"),
                        "{}",
                        ctx(&d)
                    );
                    assert_eq!(
                        echo(&as_file, &d, "X"),
                        echo(&absent_read, "skill://nowhere", "X"),
                        "{}",
                        ctx(&d)
                    );
                    continue;
                }
                seen.extend_from_slice(&as_file.body);
                dirs_seen.push(d.clone());
                // Every page of the directory.
                let mut cursor: Option<String> = None;
                loop {
                    let mut params = json!({"uri": d});
                    if let Some(c) = &cursor {
                        params["cursor"] = json!(c);
                    }
                    let r = post(&ep, era, g, "resources/directory/read", params);
                    assert_eq!(r.status, 200, "{}", ctx(&d));
                    seen.extend_from_slice(&r.body);
                    let j = json_of(&r);
                    for child in j["result"]["resources"].as_array().unwrap() {
                        if child["mimeType"] == "inode/directory" {
                            queue.push(child["uri"].as_str().unwrap().to_owned());
                        }
                    }
                    match j["result"]["nextCursor"].as_str() {
                        Some(c) => cursor = Some(c.to_owned()),
                        None => break,
                    }
                }
            }
            // Hidden directories are never reached from the top, and are refused when named.
            for d in [
                "skill://acme/billing",
                "skill://acme/billing/invoices",
                "skill://acme/billing/invoices/references",
                "skill://code-review",
            ] {
                let path = d.strip_prefix("skill://").unwrap();
                let visible = caller.visible(Caller::scope_of_path(path)) && path != "acme/billing"
                    || (path == "acme/billing" && caller.sees == Some("billing"));
                assert_eq!(dirs_seen.contains(&d.to_owned()), visible, "{}", ctx(d));
            }
            // The instructions.
            let (method, params) = match era {
                Era::Modern => ("server/discover", json!({})),
                Era::Legacy => (
                    "initialize",
                    json!({"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}),
                ),
            };
            let r = post(&ep, era, g, method, params);
            assert_eq!(r.status, 200);
            let instructions = json_of(&r)["result"]["instructions"]
                .as_str()
                .unwrap()
                .to_owned();
            assert!(
                instructions.contains("skill://hello/SKILL.md (hello)"),
                "{}",
                ctx(&instructions)
            );
            assert_eq!(
                instructions.contains("skill://acme/billing/invoices/SKILL.md (invoices)"),
                caller.sees == Some("billing"),
                "{}",
                ctx(&instructions)
            );
            seen.extend_from_slice(&r.body);
            // The fallback: tools, the list_skills tool, prompts.
            let r = post(&ep, era, g, "tools/list", json!({}));
            seen.extend_from_slice(&r.body);
            let r = post(
                &ep,
                era,
                g,
                "tools/call",
                json!({"name": "list_skills", "arguments": {}}),
            );
            let j = json_of(&r);
            let listed: Vec<&str> = j["result"]["structuredContent"]["skills"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["uri"].as_str().unwrap())
                .collect();
            assert_eq!(listed, expected, "{}", ctx("list_skills"));
            seen.extend_from_slice(&r.body);
            let r = post(&ep, era, g, "prompts/list", json!({}));
            let j = json_of(&r);
            let prompts: Vec<String> = j["result"]["prompts"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["name"].as_str().unwrap().to_owned())
                .collect();
            let mut want: Vec<String> = SKILLS
                .iter()
                .filter(|(_, _, s)| caller.visible(*s))
                .map(|(_, n, _)| n.to_string())
                .collect();
            want.sort();
            assert_eq!(prompts, want, "{}", ctx("prompts/list"));
            seen.extend_from_slice(&r.body);
            let absent_prompt = post(&ep, era, g, "prompts/get", json!({"name": "nowhere"}));
            let absent_tool_name = post(
                &ep,
                era,
                g,
                "tools/call",
                json!({"name": "read_skill", "arguments": {"name": "nowhere"}}),
            );
            let absent_tool_uri = post(
                &ep,
                era,
                g,
                "tools/call",
                json!({"name": "read_skill", "arguments": {"uri": "skill://nowhere/SKILL.md"}}),
            );
            let absent_resource = post(
                &ep,
                era,
                g,
                "tools/call",
                json!({"name": "read_skill_resource", "arguments": {"uri": "skill://nowhere/x.md"}}),
            );
            for (path, name, scope) in SKILLS {
                let uri = format!("skill://{path}/SKILL.md");
                let p = post(&ep, era, g, "prompts/get", json!({"name": name}));
                let by_name = post(
                    &ep,
                    era,
                    g,
                    "tools/call",
                    json!({"name": "read_skill", "arguments": {"name": name}}),
                );
                let by_uri = post(
                    &ep,
                    era,
                    g,
                    "tools/call",
                    json!({"name": "read_skill", "arguments": {"uri": uri}}),
                );
                let res = post(
                    &ep,
                    era,
                    g,
                    "tools/call",
                    json!({"name": "read_skill_resource", "arguments": {"uri": uri}}),
                );
                if caller.visible(scope) {
                    for r in [&p, &by_name, &by_uri, &res] {
                        assert_eq!(r.status, 200);
                        assert!(
                            !json_of(r)["result"]["isError"].as_bool().unwrap_or(false),
                            "{}",
                            ctx(name)
                        );
                        seen.extend_from_slice(&r.body);
                    }
                } else {
                    assert_eq!(
                        echo(&p, name, "X"),
                        echo(&absent_prompt, "nowhere", "X"),
                        "{}",
                        ctx(name)
                    );
                    assert_eq!(
                        echo(&by_name, name, "X"),
                        echo(&absent_tool_name, "nowhere", "X"),
                        "{}",
                        ctx(name)
                    );
                    assert_eq!(
                        echo(&by_uri, &uri, "X"),
                        echo(&absent_tool_uri, "skill://nowhere/SKILL.md", "X"),
                        "{}",
                        ctx(name)
                    );
                    assert_eq!(
                        echo(&res, &uri, "X"),
                        echo(&absent_resource, "skill://nowhere/x.md", "X"),
                        "{}",
                        ctx(name)
                    );
                    assert!(json_of(&by_name)["result"]["isError"].as_bool().unwrap());
                    // The tool errors list what exists: the visible skills only.
                    seen.extend_from_slice(&absent_tool_name.body);
                }
            }
        }
        // The mirror.
        let idx = get(&ep, g, "/.well-known/agent-skills/index.json");
        assert_eq!(idx.status, 200);
        seen.extend_from_slice(&idx.body);
        let names: Vec<String> = json_of(&idx)["skills"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].as_str().unwrap().to_owned())
            .collect();
        let mut want: Vec<String> = SKILLS
            .iter()
            .filter(|(_, _, s)| caller.visible(*s))
            .map(|(_, n, _)| n.to_string())
            .collect();
        want.sort();
        assert_eq!(names, want, "{}", ctx("mirror index"));
        let cache = idx.header("cache-control").unwrap();
        if private_answers {
            assert!(cache.starts_with("private, max-age="), "{}", ctx(cache));
            assert_eq!(idx.header("vary"), Some("Origin, Authorization"));
        } else {
            assert!(cache.starts_with("public, max-age="), "{}", ctx(cache));
            assert_eq!(idx.header("vary"), Some("Origin"));
        }
        let absent = |suffix: &str| {
            get(
                &ep,
                g,
                &format!("/.well-known/agent-skills/nowhere{suffix}"),
            )
        };
        for (path, name, scope) in SKILLS {
            let md = get(
                &ep,
                g,
                &format!("/.well-known/agent-skills/{name}/SKILL.md"),
            );
            let tar = get(&ep, g, &format!("/.well-known/agent-skills/{name}.tar.gz"));
            let dsse = get(
                &ep,
                g,
                &format!("/.well-known/agent-skills/{name}.dsse.json"),
            );
            if caller.visible(scope) {
                assert_eq!(md.status, 200, "{}", ctx(path));
                assert_eq!(
                    md.header("vary"),
                    Some(if private_answers {
                        "Origin, Authorization"
                    } else {
                        "Origin"
                    })
                );
                assert_eq!(dsse.status, if signed { 200 } else { 404 }, "{}", ctx(path));
                if private_answers {
                    assert!(md.header("cache-control").unwrap().starts_with("private"));
                }
                seen.extend_from_slice(&md.body);
                seen.extend_from_slice(&dsse.body);
            } else {
                for (r, suffix) in [(&md, "/SKILL.md"), (&tar, ".tar.gz"), (&dsse, ".dsse.json")] {
                    let a = absent(suffix);
                    assert_eq!(r.status, 404);
                    assert_eq!(
                        echo(r, name, "X"),
                        echo(&a, "nowhere", "X"),
                        "{}",
                        ctx(path)
                    );
                }
            }
        }
        // Nothing hidden appears anywhere in what was answered.
        let text = String::from_utf8_lossy(&seen);
        for (path, name) in &hidden {
            for needle in [
                format!("skill://{path}"),
                format!("\"{name}\""),
                format!("Secretish {name}"),
                format!("{name}.tar.gz"),
            ] {
                assert!(
                    !text.contains(&needle),
                    "{}: {needle} appears",
                    ctx("replies")
                );
            }
        }
        if caller.sees.is_none() {
            assert!(
                !text.contains("acme/billing"),
                "{}",
                ctx("acme/billing appears")
            );
        }
    }
}

#[test]
fn every_surface_hides_what_the_caller_may_not_see() {
    walk(false);
}

#[test]
fn every_surface_hides_what_the_caller_may_not_see_signed() {
    walk(true);
}

#[test]
fn a_cursor_issued_to_one_grant_is_refused_for_another() {
    let ep = endpoint(false);
    let cat = catalog(false);
    let billing = cat.grant(&["billing"]);
    let r = post(&ep, Era::Modern, billing, "skills/list", json!({}));
    let cursor = json_of(&r)["result"]["nextCursor"]
        .as_str()
        .unwrap()
        .to_owned();
    let own = post(
        &ep,
        Era::Modern,
        billing,
        "skills/list",
        json!({"cursor": cursor}),
    );
    assert_eq!(own.status, 200);
    let other = post(
        &ep,
        Era::Modern,
        Grant::PUBLIC,
        "skills/list",
        json!({"cursor": cursor}),
    );
    let j = json_of(&other);
    assert_eq!(j["error"]["code"], -32602);
    let foreign = post(
        &ep,
        Era::Modern,
        Grant::PUBLIC,
        "resources/list",
        json!({"cursor": cursor}),
    );
    assert_eq!(
        json_of(&foreign)["error"]["message"],
        j["error"]["message"],
        "the same message as a cursor of another list"
    );
    assert!(j["error"]["message"]
        .as_str()
        .unwrap()
        .contains("different list"));
}

#[test]
fn without_rules_a_grant_changes_nothing() {
    let mut t = tree();
    t.files.retain(|f| f.path != "skills-edge.toml");
    let c = Arc::new(Catalog::compile(t, None).unwrap());
    assert!(!c.has_private());
    assert_eq!(c.grant(&["billing"]), Grant::PUBLIC);
    let ep = Endpoint::new(c, HttpConfig::default()).unwrap();
    let any = Grant::from_mask(u64::MAX);
    for (method, params) in [
        ("skills/list", json!({})),
        ("resources/list", json!({})),
        ("server/discover", json!({})),
        ("skills/get", json!({"uri": "skill://code-review/SKILL.md"})),
    ] {
        let a = post(&ep, Era::Modern, Grant::PUBLIC, method, params.clone());
        let b = post(&ep, Era::Modern, any, method, params);
        assert_eq!(shape(&a), shape(&b), "{method}");
    }
    let a = get(&ep, Grant::PUBLIC, "/.well-known/agent-skills/index.json");
    let b = get(&ep, any, "/.well-known/agent-skills/index.json");
    assert_eq!(shape(&a), shape(&b));
}

fn jwt_step() -> Bearer {
    Bearer::new(BearerConfig {
        mode: AuthMode::Jwt,
        issuer: Some("https://auth.example.com".into()),
        ..BearerConfig::default()
    })
    .unwrap()
    .unwrap()
}

fn anonymous_gate(b: &Bearer, ep: &Endpoint, method: &str, path: &str) -> Option<Response> {
    let h = Head {
        method,
        path,
        host: Some("127.0.0.1:8787"),
        accept: Some("application/json, text/event-stream"),
        content_type: Some("application/json"),
        ..Head::default()
    };
    match b.gate(ep, &h, None, "http") {
        Gate::Respond(r) => Some(r),
        Gate::Anonymous => None,
        Gate::Validate(_) => panic!("no credential was sent"),
    }
}

#[test]
fn the_metadata_names_the_scopes_the_rules_name() {
    let c = catalog(false);
    assert_eq!(c.access_scopes(), ["billing", "review"]);
    let scopes = c.access_scopes().into_iter().map(str::to_owned).collect();
    let b = jwt_step().with_scopes_supported(scopes);
    let ep = endpoint(false);
    let r = anonymous_gate(&b, &ep, "GET", PRM_MCP_PATH).expect("the metadata document");
    assert_eq!(r.status, 200);
    let doc = json_of(&r);
    assert_eq!(doc["scopes_supported"], json!(["billing", "review"]));
    // A catalog without rules names none, and the member is left out.
    let mut t = tree();
    t.files.retain(|f| f.path != "skills-edge.toml");
    assert!(Catalog::compile(t, None)
        .unwrap()
        .access_scopes()
        .is_empty());
}

#[test]
fn an_anonymous_caller_is_challenged_only_when_nothing_is_public() {
    let b = jwt_step();
    // Public skills too: the anonymous view, no challenge, whatever the request names.
    let mixed = endpoint(false);
    for (m, p) in [
        ("POST", "/mcp"),
        ("GET", "/mcp"),
        ("GET", "/.well-known/agent-skills/index.json"),
    ] {
        assert!(anonymous_gate(&b, &mixed, m, p).is_none(), "{m} {p}");
    }
    // Every skill private: `/mcp` needs a token (401, the challenge without an error code);
    // the mirror answers its (empty) anonymous view; a preflight needs no token.
    let mut t = tree();
    t.files.retain(|f| f.path != "skills-edge.toml");
    t.add_file(
        "skills-edge.toml",
        "[[access]]\nskills = [\"**\"]\nscopes = [\"staff\"]\n",
    );
    let all = Endpoint::new(
        Arc::new(Catalog::compile(t, None).unwrap()),
        HttpConfig::default(),
    )
    .unwrap();
    for m in ["POST", "GET", "DELETE"] {
        let r = anonymous_gate(&b, &all, m, "/mcp").expect("a challenge");
        assert_eq!(r.status, 401, "{m}");
        let challenge = r
            .headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("www-authenticate"))
            .map(|(_, v)| v.as_str())
            .unwrap();
        assert!(challenge.starts_with("Bearer "), "{challenge}");
        assert!(challenge.contains("resource_metadata=\"http://127.0.0.1:8787/.well-known/oauth-protected-resource/mcp\""), "{challenge}");
        assert!(!challenge.contains("error="), "{challenge}");
        assert!(r.body.is_empty());
    }
    assert!(anonymous_gate(&b, &all, "OPTIONS", "/mcp").is_none());
    assert!(anonymous_gate(&b, &all, "GET", "/.well-known/agent-skills/index.json").is_none());
    let index = get(&all, Grant::PUBLIC, "/.well-known/agent-skills/index.json");
    assert_eq!(index.status, 200);
    assert_eq!(json_of(&index)["skills"], json!([]));
}
