//! `SkillsHandler` on the private fixture catalog (tests/fixtures/private-skills: `hello` and
//! `acme/tools/lint` public, `acme/billing/**` for the scope `billing`, `code-review` for
//! `review`) and on a catalog with a binary file: what each caller sees, refusals of hidden
//! URIs equal to those of absent ones, pages and cursors, cache hints by era, and the contents
//! as rmcp types.

use rmcp::model::{
    CacheScope, ErrorCode, ErrorData, GetSkillRequestParams, PaginatedRequestParams,
    ReadResourceDirectoryRequestParams, ReadResourceRequestParams, ResourceContents, ResultType,
    ServerCapabilities,
};
use skills_edge::catalog::compile::SourceTree;
use skills_edge::catalog::{walk, Catalog, Grant};
use skills_edge_rmcp::{capabilities, Caller, Config, SkillsHandler};
use std::path::Path;
use std::sync::Arc;

fn fixture(page_size: usize) -> SkillsHandler {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/private-skills");
    let walked = walk::walk(&root);
    let catalog = Catalog::compile(walked.tree, None).expect("the fixture compiles");
    let config = Config {
        page_size,
        ..Config::default()
    };
    SkillsHandler::from_catalog(Arc::new(catalog), config).expect("a valid configuration")
}

fn anonymous() -> Caller {
    Caller {
        grant: Grant::PUBLIC,
        modern: true,
    }
}

fn granted(h: &SkillsHandler, scopes: &[&str]) -> Caller {
    Caller {
        grant: h.catalog().grant(scopes),
        modern: true,
    }
}

fn cursor(c: Option<String>) -> Option<PaginatedRequestParams> {
    c.map(|c| PaginatedRequestParams::default().with_cursor(Some(c)))
}

/// Every skill URI `caller` sees, following the cursors.
fn all_skills(h: &SkillsHandler, caller: Caller) -> Vec<String> {
    let mut uris = Vec::new();
    let mut next = None;
    loop {
        let page = h.list_skills(cursor(next), caller).expect("skills/list");
        uris.extend(page.skills.into_iter().map(|s| s.uri));
        next = page.next_cursor;
        if next.is_none() {
            return uris;
        }
    }
}

/// The error with `uri` replaced by `<uri>` in its message and data.
fn masked(e: ErrorData, uri: &str) -> (ErrorCode, String, String) {
    (
        e.code,
        e.message.replace(uri, "<uri>"),
        format!("{:?}", e.data).replace(uri, "<uri>"),
    )
}

#[test]
fn each_caller_sees_its_skills_across_pages() {
    let h = fixture(1);
    assert_eq!(
        all_skills(&h, anonymous()),
        ["skill://acme/tools/lint/SKILL.md", "skill://hello/SKILL.md"]
    );
    let mut both = all_skills(&h, granted(&h, &["billing", "review"]));
    both.sort();
    assert_eq!(
        both,
        [
            "skill://acme/billing/invoices/SKILL.md",
            "skill://acme/billing/invoices/refunds/SKILL.md",
            "skill://acme/tools/lint/SKILL.md",
            "skill://code-review/SKILL.md",
            "skill://hello/SKILL.md",
        ]
    );
    let review = all_skills(&h, granted(&h, &["review"]));
    assert!(review.contains(&"skill://code-review/SKILL.md".to_owned()));
    assert!(!review.iter().any(|u| u.contains("billing")), "{review:?}");
}

#[test]
fn hidden_uris_are_refused_as_absent_ones() {
    let h = fixture(10);
    let anon = anonymous();
    let get = |uri: &str| {
        h.get_skill(GetSkillRequestParams::new(uri), anon)
            .map(|_| ())
            .expect_err(uri)
    };
    let read = |uri: &str| {
        h.read_resource(ReadResourceRequestParams::new(uri), anon)
            .map(|_| ())
            .expect_err(uri)
    };
    let dir = |uri: &str| {
        h.read_resource_directory(ReadResourceDirectoryRequestParams::new(uri), anon)
            .map(|_| ())
            .expect_err(uri)
    };
    type Ask<'a> = &'a dyn Fn(&str) -> ErrorData;
    let cases: [(Ask, &str, &str); 6] = [
        (
            &get,
            "skill://code-review/SKILL.md",
            "skill://code-reviews/SKILL.md",
        ),
        (
            &get,
            "skill://acme/billing/invoices/SKILL.md",
            "skill://acme/billing/x/SKILL.md",
        ),
        (
            &read,
            "skill://code-review/checklist.md",
            "skill://code-review/checklists.md",
        ),
        (
            &read,
            "skill://acme/billing/invoices/references/rates.md",
            "skill://nothing/r.md",
        ),
        (&dir, "skill://acme/billing", "skill://acme/billings"),
        (&dir, "skill://code-review", "skill://code-reviews"),
    ];
    for (ask, hidden, absent) in cases {
        let h_err = masked(ask(hidden), hidden);
        assert_eq!(h_err.0, ErrorCode::INVALID_PARAMS, "{hidden}");
        assert_eq!(h_err, masked(ask(absent), absent), "{hidden} vs {absent}");
        assert!(h_err.2.contains("<uri>"), "data names the URI: {h_err:?}");
    }
    // The same URIs answer for a caller with the scopes.
    let both = granted(&h, &["billing", "review"]);
    h.get_skill(
        GetSkillRequestParams::new("skill://code-review/SKILL.md"),
        both,
    )
    .expect("a granted skills/get");
    h.read_resource(
        ReadResourceRequestParams::new("skill://acme/billing/invoices/references/rates.md"),
        both,
    )
    .expect("a granted read");
    h.read_resource_directory(
        ReadResourceDirectoryRequestParams::new("skill://acme/billing"),
        both,
    )
    .expect("a granted directory read");
}

#[test]
fn shared_directories_and_resources_show_only_what_the_caller_sees() {
    let h = fixture(10);
    let acme = h
        .read_resource_directory(
            ReadResourceDirectoryRequestParams::new("skill://acme"),
            anonymous(),
        )
        .expect("skill://acme");
    let children: Vec<&str> = acme.resources.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(children, ["skill://acme/tools"]);
    assert!(acme.resources.iter().all(|r| r.is_directory()));
    let listed = h.list_resources(None, anonymous()).expect("resources/list");
    let uris: Vec<&str> = listed.resources.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(
        uris,
        ["skill://acme/tools/lint/SKILL.md", "skill://hello/SKILL.md"]
    );
}

#[test]
fn a_cursor_belongs_to_its_caller_and_list() {
    let h = fixture(1);
    let both = granted(&h, &["billing", "review"]);
    let first = h.list_skills(None, both).expect("first page");
    let c = first.next_cursor.expect("more pages");
    // Another caller, or another list, presenting it: -32602.
    let other = h.list_skills(cursor(Some(c.clone())), anonymous());
    let e = other.expect_err("a cursor of another grant");
    assert_eq!(e.code, ErrorCode::INVALID_PARAMS);
    assert!(e.message.contains("Invalid cursor"), "{}", e.message);
    let e = h
        .list_resources(cursor(Some(c)), both)
        .expect_err("a cursor of another list");
    assert_eq!(e.code, ErrorCode::INVALID_PARAMS);
    let e = h
        .list_skills(cursor(Some("not-ours".into())), both)
        .expect_err("a made-up cursor");
    assert_eq!(e.code, ErrorCode::INVALID_PARAMS);
}

#[test]
fn cache_hints_follow_the_era_and_the_grant() {
    let h = fixture(10);
    let anon = h.list_skills(None, anonymous()).expect("list");
    assert_eq!(anon.result_type, Some(ResultType::COMPLETE));
    assert_eq!(
        (anon.ttl_ms, anon.cache_scope),
        (Some(300_000), Some(CacheScope::Public))
    );
    let g = h
        .get_skill(
            GetSkillRequestParams::new("skill://code-review/SKILL.md"),
            granted(&h, &["review"]),
        )
        .expect("get");
    assert_eq!(g.cache_scope, Some(CacheScope::Private));
    let legacy = Caller {
        grant: Grant::PUBLIC,
        modern: false,
    };
    let r = h
        .read_resource(
            ReadResourceRequestParams::new("skill://hello/SKILL.md"),
            legacy,
        )
        .expect("read");
    assert_eq!((r.ttl_ms, r.cache_scope), (None, None));
}

#[test]
fn contents_are_the_files_bytes_as_text_or_blob() {
    let mut tree = SourceTree::default();
    let skill_md = "---\nname: pics\ndescription: Has a picture.\n---\n# Pics \"quoted\" \\ é\n";
    tree.add_file("pics/SKILL.md", skill_md);
    let png: Vec<u8> = (0u8..=255).chain([0x89, b'P', b'N', b'G']).collect();
    tree.add_file("pics/assets/p.png", png.clone());
    let catalog = Catalog::compile(tree, None).expect("compiles");
    let h = SkillsHandler::from_catalog(Arc::new(catalog), Config::default()).expect("handler");
    let text = h
        .read_resource(
            ReadResourceRequestParams::new("skill://pics/SKILL.md"),
            anonymous(),
        )
        .expect("text");
    match &text.contents[..] {
        [ResourceContents::TextResourceContents {
            uri,
            mime_type,
            text,
            ..
        }] => {
            assert_eq!(uri, "skill://pics/SKILL.md");
            assert_eq!(mime_type.as_deref(), Some("text/markdown"));
            assert_eq!(text, skill_md);
        }
        other => panic!("expected one text content, got {other:?}"),
    }
    let blob = h
        .read_resource(
            ReadResourceRequestParams::new("skill://pics/assets/p.png"),
            anonymous(),
        )
        .expect("blob");
    match &blob.contents[..] {
        [ResourceContents::BlobResourceContents {
            blob, mime_type, ..
        }] => {
            assert_eq!(mime_type.as_deref(), Some("image/png"));
            use base64::Engine as _;
            let expected = base64::engine::general_purpose::STANDARD.encode(&png);
            assert_eq!(blob, &expected);
        }
        other => panic!("expected one blob content, got {other:?}"),
    }
}

#[test]
fn capabilities_add_resources_and_the_skills_extension() {
    let caps = capabilities(ServerCapabilities::builder().enable_tools().build());
    assert!(caps.tools.is_some());
    assert!(caps.resources.is_some());
    assert!(caps.supports_skills());
    assert!(caps.supports_directory_read());
}

#[test]
fn only_skill_uris_are_claimed() {
    assert!(SkillsHandler::claims("skill://hello/SKILL.md"));
    assert!(!SkillsHandler::claims("file:///etc/hosts"));
}

// ---------------------------------------------------------------------------------------------
// Cursors say nothing about what the caller may not see: tests/fixtures/hidden-views, two
// folders that differ only in what is hidden (`one/` hides 1 skill from an anonymous caller,
// `four/` 4, sorting among the public ones; a billing caller 0 and 3).
// ---------------------------------------------------------------------------------------------

fn hidden_views(name: &str, page_size: usize) -> SkillsHandler {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/hidden-views")
        .join(name);
    let catalog = Catalog::compile(walk::walk(&root).tree, None).expect("the fixture compiles");
    let config = Config {
        page_size,
        ..Config::default()
    };
    SkillsHandler::from_catalog(Arc::new(catalog), config).expect("a valid configuration")
}

/// Every directory URI of both folders (hidden ones included).
fn hidden_views_dirs() -> Vec<String> {
    let mut dirs = std::collections::BTreeSet::new();
    for name in ["one", "four"] {
        for f in hidden_views(name, 1).catalog().files() {
            let mut uri = f.uri;
            while let Some((parent, _)) = uri.rsplit_once('/') {
                if parent.len() <= "skill:/".len() {
                    break;
                }
                dirs.insert(parent.to_owned());
                uri = parent;
            }
        }
    }
    dirs.into_iter().collect()
}

/// Cursors forged from `c`: each character replaced by two others of the alphabet, each
/// decoded byte changed four ways, truncated, extended and empty.
fn forged(c: &str) -> Vec<String> {
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use base64::Engine as _;
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = Vec::new();
    for (i, ch) in c.bytes().enumerate() {
        let at = ALPHABET.iter().position(|&a| a == ch).unwrap_or(0);
        for step in [1, 32] {
            let mut s = c.as_bytes().to_vec();
            s[i] = ALPHABET[(at + step) % 64];
            out.push(String::from_utf8(s).expect("ASCII"));
        }
    }
    if let Ok(bytes) = URL_SAFE_NO_PAD.decode(c) {
        for i in 0..bytes.len() {
            for change in [|b: u8| b ^ 1, |b: u8| b ^ 0x80, |_| 0, |_| 0xff] {
                let mut b = bytes.clone();
                b[i] = change(b[i]);
                out.push(URL_SAFE_NO_PAD.encode(&b));
            }
        }
    }
    out.push(c[..c.len().saturating_sub(1)].to_owned());
    out.push(format!("{c}A"));
    out.push(String::new());
    out
}

/// One list of the handler: `None` for skills/list, `Some(None)` for resources/list,
/// `Some(Some(uri))` for a directory.
type HandlerList = Option<Option<String>>;

/// One page of `list` for `caller`, as text (the result's JSON or the error), and its cursor.
fn ask(
    h: &SkillsHandler,
    list: &HandlerList,
    c: Option<String>,
    caller: Caller,
) -> (String, Option<String>) {
    let text = |r: Result<serde_json::Value, ErrorData>| match r {
        Ok(v) => v.to_string(),
        Err(e) => format!("{:?} {} {:?}", e.code, e.message, e.data),
    };
    fn json<T: serde::Serialize>(v: T) -> serde_json::Value {
        serde_json::to_value(v).expect("serialisable")
    }
    let reply = match list {
        None => h.list_skills(cursor(c), caller).map(json),
        Some(None) => h.list_resources(cursor(c), caller).map(json),
        Some(Some(uri)) => {
            let mut p = ReadResourceDirectoryRequestParams::new(uri.as_str());
            if let Some(c) = c {
                p = p.with_cursor(c);
            }
            h.read_resource_directory(p, caller).map(json)
        }
    };
    let next = reply
        .as_ref()
        .ok()
        .and_then(|v| v["nextCursor"].as_str().map(str::to_owned));
    (text(reply), next)
}

/// What `caller` gets from `h`: every page of every list, then each cursor issued presented
/// to every list and forged ([`forged`]) against its own.
fn handler_transcript(h: &SkillsHandler, caller: Caller) -> Vec<String> {
    let mut lists: Vec<HandlerList> = vec![None, Some(None)];
    lists.extend(hidden_views_dirs().into_iter().map(|u| Some(Some(u))));
    let mut out = Vec::new();
    let mut issued = Vec::new();
    for list in &lists {
        let mut next = None;
        loop {
            let (text, c) = ask(h, list, next.clone(), caller);
            out.push(text);
            match c {
                Some(c) => {
                    issued.push((list.clone(), c.clone()));
                    next = Some(c);
                }
                None => break,
            }
            assert!(out.len() < 10_000);
        }
    }
    for (list, c) in &issued {
        for other in &lists {
            out.push(ask(h, other, Some(c.clone()), caller).0);
        }
        for f in forged(c) {
            out.push(format!("{f} {}", ask(h, list, Some(f.clone()), caller).0));
        }
    }
    assert!(issued.len() >= 2, "cursors were issued");
    out
}

#[test]
fn callers_cannot_learn_hidden_skills_from_cursors_or_forged_ones() {
    for page_size in [1, 2] {
        let (one, four) = (
            hidden_views("one", page_size),
            hidden_views("four", page_size),
        );
        for modern in [true, false] {
            for scopes in [&[][..], &["nobody"][..], &["billing"][..]] {
                let caller = |h: &SkillsHandler| Caller {
                    grant: h.catalog().grant(scopes),
                    modern,
                };
                let a = handler_transcript(&one, caller(&one));
                let b = handler_transcript(&four, caller(&four));
                assert_eq!(a.len(), b.len());
                for (x, y) in a.iter().zip(&b) {
                    assert_eq!(x, y, "page size {page_size}, modern {modern}, {scopes:?}");
                }
            }
        }
    }
}
