//! What a page of another site can make a browser do with the mirror, when the caller's grant
//! comes with the browser (a cookie session handed to `fetch(request, { scopes })`, Access's
//! cookie on the Worker, a component's `SCOPES`) and not from the page: load a private file
//! with `<script src>` or `<img src>`, frame or open it, and run a skill's own HTML, SVG or
//! script on the server's origin. Each test is named after what the attacker does; the
//! answers are compared with those of an anonymous caller and of a name that never existed.

use sha2::{Digest as _, Sha256};
use skills_edge::catalog::compile::{compile, SourceTree};
use skills_edge::catalog::{pack, Catalog, Grant};
use skills_edge::http::*;
use std::sync::Arc;

const MIRROR: &str = "/.well-known/agent-skills";

const HTML: &str = "<!doctype html><script>fetch('/mcp')</script>\n";
const SVG: &str =
    "<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(document.domain)</script></svg>\n";
const JS: &str = "window.leak = 'the private body';\n";
const XML: &str = "<?xml version=\"1.0\"?><html xmlns=\"http://www.w3.org/1999/xhtml\"><script>1</script></html>\n";

fn md(name: &str) -> String {
    format!("---\nname: {name}\ndescription: The {name} skill.\n---\n\n# {name}\n")
}

/// A catalog with a public skill `hello` holding files of every active type, and a private
/// skill `invoices` (scope `billing`) holding a script.
fn catalog() -> Arc<Catalog> {
    let mut t = SourceTree::default();
    t.add_file("hello/SKILL.md", md("hello"));
    t.add_file("hello/page.html", HTML);
    t.add_file("hello/logo.svg", SVG);
    t.add_file("hello/app.js", JS);
    t.add_file("hello/data.xml", XML);
    t.add_file("hello/notes.md", "Plain notes.\n");
    t.add_file("hello/table.csv", "a,b\n1,2\n");
    t.add_file("invoices/SKILL.md", md("invoices"));
    t.add_file("invoices/app.js", JS);
    t.add_file(
        "skills-edge.toml",
        "[[access]]\nskills = [\"invoices\"]\nscopes = [\"billing\"]\n",
    );
    let c = compile(t).expect("compiles");
    Arc::new(Catalog::from_bytes(pack::encode(&c, None)).expect("loads"))
}

fn endpoint() -> Endpoint {
    Endpoint::new(catalog(), HttpConfig::default()).expect("valid config")
}

fn billing(ep: &Endpoint) -> Grant {
    ep.responder().catalog().grant(&["billing".to_owned()])
}

/// A `GET` of `path` as a browser sends it from a page on `site` (`Sec-Fetch-Site`) in `mode`
/// (`Sec-Fetch-Mode`), with `origin` when the mode sends one.
fn browser<'a>(path: &'a str, site: &'a str, mode: &'a str, origin: Option<&'a str>) -> Head<'a> {
    Head {
        method: "GET",
        path,
        host: Some("localhost:8787"),
        origin,
        sec_fetch_site: Some(site),
        sec_fetch_mode: Some(mode),
        ..Head::default()
    }
}

fn agent(path: &str) -> Head<'_> {
    Head {
        method: "GET",
        path,
        host: Some("localhost:8787"),
        ..Head::default()
    }
}

fn answer(ep: &Endpoint, head: &Head<'_>, grant: Grant) -> Response {
    match ep.head(head, grant) {
        Step::Respond(r) => r,
        _ => panic!("the mirror answers from the head"),
    }
}

/// A response as comparable text: status, headers in order, body.
fn transcript(r: &Response) -> String {
    let headers: Vec<String> = r.headers.iter().map(|(n, v)| format!("{n}: {v}")).collect();
    format!("{}\n{}\n\n{}", r.status, headers.join("\n"), r.body_str())
}

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn a_script_tag_on_another_site_reads_no_private_file_with_an_ambient_grant() {
    let ep = endpoint();
    let grant = billing(&ep);
    let private = format!("{MIRROR}/invoices/app.js");
    let absent = format!("{MIRROR}/estimates/app.js");
    // What the page can make the browser send: `<script src>` and `<img src>` (no-cors), a
    // frame or a window (navigate), from another site or a sibling one.
    for (site, mode) in [
        ("cross-site", "no-cors"),
        ("same-site", "no-cors"),
        ("cross-site", "navigate"),
        ("cross-site", "same-origin"),
        (" Cross-Site ", "no-cors"),
    ] {
        let got = answer(&ep, &browser(&private, site, mode, None), grant);
        let never = answer(&ep, &browser(&absent, site, mode, None), grant);
        let anonymous = answer(&ep, &browser(&private, site, mode, None), Grant::PUBLIC);
        assert_eq!(got.status, 404, "{site} {mode}: {}", got.body_str());
        assert_eq!(
            transcript(&got).replace("invoices", "estimates"),
            transcript(&never),
            "{site} {mode}: as a name that never existed"
        );
        assert_eq!(transcript(&got), transcript(&anonymous), "{site} {mode}");
        // The index is the anonymous caller's, byte for byte.
        let index = format!("{MIRROR}/index.json");
        let got = answer(&ep, &browser(&index, site, mode, None), grant);
        let anonymous = answer(&ep, &agent(&index), Grant::PUBLIC);
        assert_eq!(transcript(&got), transcript(&anonymous), "{site} {mode}");
        assert!(!got.body_str().contains("invoices"));
        // A cross-site no-cors request cannot carry an `Origin` in a browser; one that does is
        // still no CORS request, and still anonymous.
        let with_origin = browser(&private, site, "no-cors", Some("http://localhost:5173"));
        assert_eq!(answer(&ep, &with_origin, grant).status, 404, "{site}");
    }
    // The caller's own pages, the address bar and agents that are no browser keep the grant.
    for head in [
        browser(&private, "same-origin", "no-cors", None),
        browser(&private, "same-origin", "cors", None),
        browser(&private, "none", "navigate", None),
        agent(&private),
        // A CORS request: the `Origin` allow-list decides, and the browser hands the answer to
        // the page only with `Access-Control-Allow-Origin`.
        browser(
            &private,
            "cross-site",
            "cors",
            Some("http://localhost:5173"),
        ),
    ] {
        let r = answer(&ep, &head, grant);
        assert_eq!(r.status, 200, "{head:?}");
        assert_eq!(r.body_str(), JS);
    }
    // The same CORS request from a page the allow-list does not name is refused outright.
    let foreign = browser(&private, "cross-site", "cors", Some("https://evil.example"));
    assert_eq!(answer(&ep, &foreign, grant).status, 403);
}

#[test]
fn a_page_on_another_origin_cannot_embed_what_a_grant_made() {
    let ep = endpoint();
    let grant = billing(&ep);
    // Answers made for the grant: the browser hands them to this origin's pages only, even one
    // that sends no `Sec-Fetch-Site` (older browsers).
    for path in [
        "index.json",
        "invoices/app.js",
        "invoices/SKILL.md",
        "hello/app.js",
    ] {
        let r = answer(&ep, &agent(&format!("{MIRROR}/{path}")), grant);
        assert_eq!(r.status, 200, "{path}");
        assert_eq!(
            r.header("cross-origin-resource-policy"),
            Some("same-origin"),
            "{path}"
        );
        assert!(r.header("cache-control").unwrap().starts_with("private"));
    }
    // Anonymous answers, and a grant in a catalog without private skills, stay usable from
    // any page: the mirror is public.
    let public = Endpoint::new(
        skills_edge::embedded::catalog().unwrap(),
        HttpConfig::default(),
    )
    .unwrap();
    for (ep, grant) in [(&ep, Grant::PUBLIC), (&public, grant)] {
        let r = answer(ep, &agent(&format!("{MIRROR}/index.json")), grant);
        assert_eq!(r.status, 200);
        assert_eq!(
            r.header("cross-origin-resource-policy"),
            Some("cross-origin")
        );
    }
}

#[test]
fn a_text_file_is_never_sniffed_into_a_script_or_a_page() {
    let ep = endpoint();
    let grant = billing(&ep);
    let index = answer(&ep, &agent(&format!("{MIRROR}/index.json")), grant);
    let index: serde_json::Value = serde_json::from_slice(&index.body).unwrap();
    let mut paths: Vec<String> = index["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["url"].as_str().unwrap().to_owned())
        .collect();
    for f in [
        "page.html",
        "logo.svg",
        "app.js",
        "data.xml",
        "notes.md",
        "table.csv",
    ] {
        paths.push(format!("{MIRROR}/hello/{f}"));
    }
    paths.push(format!("{MIRROR}/index.json"));
    paths.push(format!("{MIRROR}/nothing/here.txt"));
    assert!(paths.len() > 8);
    for path in &paths {
        for g in [Grant::PUBLIC, grant] {
            let r = answer(&ep, &agent(path), g);
            assert_eq!(
                r.header("x-content-type-options"),
                Some("nosniff"),
                "{path}"
            );
            assert_eq!(
                r.header("content-security-policy"),
                Some("default-src 'none'; sandbox"),
                "{path}"
            );
            // The conditional answer keeps them.
            if let Some(tag) = r.header("etag").map(str::to_owned) {
                let mut h = agent(path);
                h.if_none_match = Some(&tag);
                let r = answer(&ep, &h, g);
                assert_eq!(r.status, 304, "{path}");
                assert_eq!(r.header("x-content-type-options"), Some("nosniff"));
            }
        }
    }
}

#[test]
fn a_skill_html_svg_or_script_runs_nothing_on_the_servers_origin() {
    let ep = endpoint();
    for (file, bytes, mime, inline) in [
        ("page.html", HTML, "text/html; charset=utf-8", false),
        ("logo.svg", SVG, "image/svg+xml", false),
        ("app.js", JS, "text/javascript; charset=utf-8", false),
        ("data.xml", XML, "application/xml", false),
        (
            "notes.md",
            "Plain notes.\n",
            "text/markdown; charset=utf-8",
            true,
        ),
        ("table.csv", "a,b\n1,2\n", "text/csv; charset=utf-8", true),
    ] {
        let path = format!("{MIRROR}/hello/{file}");
        let r = answer(&ep, &agent(&path), Grant::PUBLIC);
        assert_eq!(r.status, 200, "{file}");
        // The type is the file's and the bytes are the file's: the digest still holds.
        assert_eq!(r.header("content-type"), Some(mime), "{file}");
        assert_eq!(r.body, bytes.as_bytes(), "{file}");
        assert_eq!(
            r.header("etag"),
            Some(format!("\"{}\"", sha256(&r.body)).as_str())
        );
        // Opened in a window it is saved, not shown; shown anyway, it runs in a sandbox with
        // an origin of its own and loads nothing.
        let disposition = r.header("content-disposition");
        assert_eq!(disposition.is_none(), inline, "{file}: {disposition:?}");
        if !inline {
            assert_eq!(disposition, Some("attachment"));
        }
        assert!(r
            .header("content-security-policy")
            .is_some_and(|p| p.split(';').any(|d| d.trim() == "sandbox")));
        // HEAD says the same.
        let mut head = agent(&path);
        head.method = "HEAD";
        let h = answer(&ep, &head, Grant::PUBLIC);
        assert_eq!(h.header("content-disposition"), disposition, "{file}");
    }
    // The archive is the artifact the index's digest names, byte for byte.
    let index = answer(&ep, &agent(&format!("{MIRROR}/index.json")), Grant::PUBLIC);
    let index: serde_json::Value = serde_json::from_slice(&index.body).unwrap();
    let hello = index["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "hello")
        .unwrap();
    let archive = answer(&ep, &agent(hello["url"].as_str().unwrap()), Grant::PUBLIC);
    assert_eq!(archive.status, 200);
    assert_eq!(
        hello["digest"].as_str().unwrap(),
        format!("sha256:{}", sha256(&archive.body))
    );
    assert_eq!(archive.header("content-disposition"), Some("attachment"));
}

#[test]
fn a_shared_browser_cannot_replay_an_access_callers_private_index() {
    let ep = endpoint();
    let grant = billing(&ep);
    let step = |mode, audiences: Vec<String>| {
        Bearer::new(BearerConfig {
            mode,
            issuer: Some("https://acme.cloudflareaccess.com".into()),
            audiences,
            ..BearerConfig::default()
        })
        .unwrap()
        .unwrap()
    };
    let access = step(AuthMode::Access, vec!["aud-tag".into()]);
    let jwt = step(AuthMode::Jwt, vec![]);
    let index = format!("{MIRROR}/index.json");
    for path in [index.as_str(), "/.well-known/agent-skills/invoices/app.js"] {
        // Access's identity is its cookie, which no `Vary` names: nothing is kept.
        let r = access.cache_rule(answer(&ep, &agent(path), grant));
        assert_eq!(r.status, 200);
        assert_eq!(
            r.header("cache-control"),
            Some("private, no-store"),
            "{path}"
        );
        // With jwt the identity is the `Authorization` header the answer varies on.
        let r = jwt.cache_rule(answer(&ep, &agent(path), grant));
        assert!(r
            .header("cache-control")
            .unwrap()
            .starts_with("private, max-age="));
        assert!(r.header("vary").unwrap().contains("Authorization"));
    }
    // The anonymous index is public either way.
    let r = access.cache_rule(answer(&ep, &agent(&index), Grant::PUBLIC));
    assert!(r
        .header("cache-control")
        .unwrap()
        .starts_with("public, max-age="));
}

#[test]
fn a_page_on_another_site_repeats_sec_fetch_site_to_keep_the_grant() {
    let ep = endpoint();
    let grant = billing(&ep);
    let private = format!("{MIRROR}/invoices/app.js");
    let anonymous = answer(&ep, &agent(&private), Grant::PUBLIC);
    assert_eq!(anonymous.status, 404);
    // The value as the Fetch API (the Worker, the npm `fetch`) and the HTTP component present a
    // header sent twice: joined with ", ". Any list, and any value but one `same-origin` or
    // `none`, is another origin's.
    for site in [
        "cross-site, cross-site",
        "same-origin, cross-site",
        "cross-site, same-origin",
        "none, same-site",
        "same-origin, same-origin",
        "same-origin,none",
        "same-origin-ish",
        "",
    ] {
        let r = answer(&ep, &browser(&private, site, "no-cors", None), grant);
        assert_eq!(transcript(&r), transcript(&anonymous), "{site:?}");
        // Through the Fetch API's head (the Worker and the npm `fetch` build theirs so).
        let mut values = [None; Head::HEADERS.len()];
        values[Head::HEADERS
            .iter()
            .position(|h| *h == "sec-fetch-site")
            .unwrap()] = Some(site);
        let url = format!("http://localhost:8787{private}");
        let head = Head::from_url("GET", &url, values);
        assert_eq!(answer(&ep, &head, grant).status, 404, "{site:?}");
    }
    // Sent as two header lines to an adapter that hands each line over (the first one used to
    // win): in either order, the request is another origin's.
    for lines in [
        ["same-origin", "cross-site"],
        ["cross-site", "same-origin"],
        ["none", "none"],
    ] {
        let head = Head::from_headers(
            "GET",
            &private,
            [
                ("Host", "localhost:8787"),
                ("Sec-Fetch-Site", lines[0]),
                ("sec-fetch-mode", "no-cors"),
                ("SEC-FETCH-SITE", lines[1]),
            ],
        );
        let r = answer(&ep, &head, grant);
        assert_eq!(transcript(&r), transcript(&anonymous), "{lines:?}");
    }
    // One `same-origin` or `none` keeps the grant, on every head.
    for site in ["same-origin", " none ", "Same-Origin"] {
        let r = answer(&ep, &browser(&private, site, "no-cors", None), grant);
        assert_eq!(r.status, 200, "{site:?}");
        let head = Head::from_headers(
            "GET",
            &private,
            [("host", "localhost:8787"), ("sec-fetch-site", site)],
        );
        assert_eq!(answer(&ep, &head, grant).status, 200, "{site:?}");
    }
}

#[test]
fn a_page_loads_a_mirror_refusal_as_a_script_or_a_page() {
    let ep = endpoint();
    let private = format!("{MIRROR}/invoices/app.js");
    let with = |method, origin, host| Head {
        method,
        path: &private,
        host,
        origin,
        ..Head::default()
    };
    let bearer = Bearer::new(BearerConfig {
        mode: AuthMode::Jwt,
        issuer: Some("https://auth.example.com".into()),
        ..BearerConfig::default()
    })
    .unwrap()
    .unwrap();
    let bad_token = with("GET", None, Some("localhost:8787"));
    let answers = [
        // The CORS preflight, with and without an allowed origin.
        answer(
            &ep,
            &with(
                "OPTIONS",
                Some("http://localhost:5173"),
                Some("localhost:8787"),
            ),
            Grant::PUBLIC,
        ),
        answer(
            &ep,
            &with("OPTIONS", None, Some("localhost:8787")),
            Grant::PUBLIC,
        ),
        // A method the mirror does not take.
        answer(
            &ep,
            &with("POST", None, Some("localhost:8787")),
            Grant::PUBLIC,
        ),
        answer(
            &ep,
            &with("DELETE", None, Some("localhost:8787")),
            Grant::PUBLIC,
        ),
        // A refused Origin and a refused Host, through both ways in.
        answer(
            &ep,
            &with("GET", Some("https://evil.example"), Some("localhost:8787")),
            Grant::PUBLIC,
        ),
        answer(&ep, &with("GET", None, Some("evil.example")), Grant::PUBLIC),
        ep.admit(&with(
            "GET",
            Some("https://evil.example"),
            Some("localhost:8787"),
        ))
        .unwrap_err(),
        // A refused token.
        bearer.refused(
            &ep,
            &bad_token,
            "http",
            &skills_edge::auth::TokenError::Missing,
        ),
    ];
    let statuses: Vec<u16> = answers.iter().map(|r| r.status).collect();
    assert_eq!(statuses, [204, 204, 405, 405, 403, 403, 403, 401]);
    for r in &answers {
        for (name, value) in [
            ("x-content-type-options", "nosniff"),
            ("content-security-policy", "default-src 'none'; sandbox"),
            ("cross-origin-resource-policy", "cross-origin"),
        ] {
            let got: Vec<&str> = r
                .headers
                .iter()
                .filter(|(n, _)| *n == name)
                .map(|(_, v)| v.as_str())
                .collect();
            assert_eq!(got, [value], "{} {name}", r.status);
        }
    }
    // An answer made for a grant has its one CORP, `same-origin`.
    let grant = billing(&ep);
    let r = answer(&ep, &agent(&private), grant);
    let corp: Vec<_> = r
        .headers
        .iter()
        .filter(|(n, _)| *n == "cross-origin-resource-policy")
        .collect();
    assert_eq!(corp.len(), 1);
    assert_eq!(
        r.header("cross-origin-resource-policy"),
        Some("same-origin")
    );
    // `/mcp` keeps its own headers: its refusals are JSON-RPC, not mirror answers.
    let r = answer(
        &ep,
        &Head {
            method: "GET",
            path: "/mcp",
            host: Some("localhost:8787"),
            ..Head::default()
        },
        Grant::PUBLIC,
    );
    assert_eq!(r.status, 405);
    assert_eq!(r.header("content-security-policy"), None);
}

/// A `skills/get` of the private skill through `/mcp`.
fn mcp_get(ep: &Endpoint, grant: Grant, name: &str) -> Response {
    let head = Head {
        method: "POST",
        path: "/mcp",
        host: Some("localhost:8787"),
        accept: Some("application/json, text/event-stream"),
        content_type: Some("application/json"),
        protocol_version: Some("2026-07-28"),
        mcp_method: Some("skills/get"),
        ..Head::default()
    };
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"skills/get","params":{{"uri":"skill://{name}/SKILL.md","_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#
    );
    ep.handle(&head, body.as_bytes(), grant)
}

#[test]
fn a_page_on_another_origin_embeds_an_mcp_answer_made_for_a_grant() {
    let ep = endpoint();
    let grant = billing(&ep);
    let access = Bearer::new(BearerConfig {
        mode: AuthMode::Access,
        issuer: Some("https://acme.cloudflareaccess.com".into()),
        audiences: vec!["aud-tag".into()],
        ..BearerConfig::default()
    })
    .unwrap()
    .unwrap();
    // The private skill, and one that does not exist, for the grant: same-origin only, and
    // private (with Access, kept nowhere).
    for name in ["invoices", "estimates"] {
        let r = mcp_get(&ep, grant, name);
        assert_eq!(r.status, 200, "{}", r.body_str());
        assert_eq!(
            r.header("cross-origin-resource-policy"),
            Some("same-origin"),
            "{name}"
        );
        assert_eq!(r.header("cache-control"), Some("private"), "{name}");
        let r = access.cache_rule(r);
        assert_eq!(r.header("cache-control"), Some("private, no-store"));
    }
    assert!(mcp_get(&ep, grant, "invoices")
        .body_str()
        .contains("invoices"));
    // The anonymous caller's answers are as before: no such headers.
    let r = mcp_get(&ep, Grant::PUBLIC, "invoices");
    assert_eq!(r.header("cross-origin-resource-policy"), None);
    assert_eq!(r.header("cache-control"), None);
}

#[test]
fn a_shared_browser_replays_an_access_callers_404() {
    let ep = endpoint();
    let grant = billing(&ep);
    let access = Bearer::new(BearerConfig {
        mode: AuthMode::Access,
        issuer: Some("https://acme.cloudflareaccess.com".into()),
        audiences: vec!["aud-tag".into()],
        ..BearerConfig::default()
    })
    .unwrap()
    .unwrap();
    // A file the grant's skill does not have, a skill that does not exist: each 404 made for
    // the grant is kept nowhere, and the two are alike.
    let missing = access.cache_rule(answer(
        &ep,
        &agent(&format!("{MIRROR}/invoices/nothing.js")),
        grant,
    ));
    let never = access.cache_rule(answer(
        &ep,
        &agent(&format!("{MIRROR}/estimates/nothing.js")),
        grant,
    ));
    for r in [&missing, &never] {
        assert_eq!(r.status, 404);
        assert_eq!(r.header("cache-control"), Some("private, no-store"));
        assert_eq!(
            r.header("cross-origin-resource-policy"),
            Some("same-origin")
        );
    }
    assert_eq!(
        transcript(&missing).replace("invoices", "estimates"),
        transcript(&never)
    );
}
