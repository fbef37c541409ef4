//! The `/.well-known/agent-skills/` mirror (Agent Skills Discovery RFC 0.2.0, the text with
//! `files` and a skill-level `digest`): the index agrees with the MCP entries file by file,
//! every file is served byte for byte with a strong ETag from its digest, conditional and HEAD
//! requests, the same Host, Origin and CORS rules as `/mcp`, and assets spliced in by the
//! adapter.

use serde_json::{json, Value as Json};
use sha2::{Digest as _, Sha256};
use skills_edge::catalog::compile::{self, SourceTree};
use skills_edge::catalog::{pack, Catalog};
use skills_edge::host::Entry;
use skills_edge::http::*;
use std::sync::Arc;

fn endpoint(config: HttpConfig) -> Endpoint {
    let catalog = skills_edge::embedded::catalog().expect("embedded catalog");
    Endpoint::new(catalog, config).expect("valid config")
}

fn get<'a>(path: &'a str) -> Head<'a> {
    Head {
        method: "GET",
        path,
        host: Some("127.0.0.1:8787"),
        ..Head::default()
    }
}

fn respond(ep: &Endpoint, head: &Head<'_>) -> Response {
    match ep.head(head) {
        Step::Respond(r) => r,
        Step::ReadBody { .. } => panic!("the mirror never reads a body"),
        Step::Page { file, .. } => panic!("the mirror is not the inspector page ({file})"),
    }
}

fn hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn index(ep: &Endpoint) -> Json {
    let r = respond(ep, &get("/.well-known/agent-skills/index.json"));
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("application/json"));
    serde_json::from_slice(&r.body).expect("index.json is JSON")
}

#[test]
fn the_index_lists_every_skill_as_mcp_does_with_its_revision() {
    let ep = endpoint(HttpConfig::default());
    let idx = index(&ep);
    assert_eq!(idx["version"], "0.2.0");
    let skills = idx["skills"].as_array().expect("skills");
    let catalog = ep.responder().catalog();
    // Every name of the embedded catalog is unique, so every skill is mirrored.
    assert_eq!(skills.len(), catalog.skill_count());
    let names: Vec<&str> = skills.iter().map(|s| s["name"].as_str().unwrap()).collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(names, sorted, "sorted by name");
    for s in skills {
        let name = s["name"].as_str().unwrap();
        let view = catalog.mirrored_skill(name).expect("mirrored");
        let entry = Entry::parse(view.entry_json).expect("a valid entry");
        assert_eq!(s["description"], entry.description());
        assert_eq!(s["digest"].as_str(), entry.revision().as_deref(), "{name}");
        let files = s["files"].as_array().expect("files");
        assert_eq!(files[0]["path"], "SKILL.md", "{name}: SKILL.md first");
        let items = entry.items().expect("a manifest");
        assert_eq!(files.len(), items.len());
        for (f, item) in files.iter().zip(items) {
            let path = f["path"].as_str().unwrap();
            assert_eq!(format!("{}/{path}", entry.root()), item.uri);
            assert_eq!(f["digest"].as_str(), Some(item.digest.as_str()));
            // The file itself, at the RFC's address, byte for byte.
            let url = format!("/.well-known/agent-skills/{name}/{path}");
            let r = respond(&ep, &get(&url));
            assert_eq!(r.status, 200, "{url}");
            assert_eq!(format!("sha256:{}", hex(&r.body)), item.digest, "{url}");
            assert_eq!(r.body.len() as u64, item.size, "{url}");
            assert_eq!(
                r.header("etag"),
                Some(format!("\"{}\"", hex(&r.body)).as_str())
            );
            assert_eq!(r.header("cache-control"), Some("public, max-age=300"));
            assert_eq!(r.header("vary"), Some("Origin"));
            let mime = catalog.file(&item.uri).unwrap().mime;
            let ct = r.header("content-type").unwrap();
            assert!(
                ct == mime || ct == format!("{mime}; charset=utf-8"),
                "{url}: {ct}"
            );
        }
    }
    // The SKILL.md of every mirrored skill is text/markdown, as the RFC requires.
    let r = respond(&ep, &get("/.well-known/agent-skills/code-review/SKILL.md"));
    assert_eq!(
        r.header("content-type"),
        Some("text/markdown; charset=utf-8")
    );
}

#[test]
fn conditional_and_head_requests() {
    let ep = endpoint(HttpConfig::default());
    let path = "/.well-known/agent-skills/code-review/references/checklist.md";
    let full = respond(&ep, &get(path));
    let tag = full.header("etag").unwrap().to_owned();
    let weak = format!("W/{tag}");
    let listed = format!("\"0000\", {tag}");
    for inm in [tag.as_str(), weak.as_str(), listed.as_str(), "*"] {
        let r = respond(
            &ep,
            &Head {
                if_none_match: Some(inm),
                ..get(path)
            },
        );
        assert_eq!(r.status, 304, "{inm}");
        assert!(r.body.is_empty());
        assert_eq!(r.header("etag"), Some(tag.as_str()));
        assert_eq!(r.header("cache-control"), full.header("cache-control"));
    }
    let r = respond(
        &ep,
        &Head {
            if_none_match: Some("\"another\""),
            ..get(path)
        },
    );
    assert_eq!((r.status, r.body.len()), (200, full.body.len()));
    let r = respond(
        &ep,
        &Head {
            method: "HEAD",
            ..get(path)
        },
    );
    assert_eq!(r.status, 200);
    assert!(r.body.is_empty());
    assert_eq!(r.header("etag"), Some(tag.as_str()));
    assert_eq!(r.header("content-type"), full.header("content-type"));
    // The index has a strong ETag of its own, and honours it too.
    let i = respond(&ep, &get("/.well-known/agent-skills/index.json"));
    let itag = i.header("etag").unwrap();
    assert_eq!(itag, format!("\"{}\"", hex(&i.body)));
    let r = respond(
        &ep,
        &Head {
            if_none_match: Some(itag),
            ..get("/.well-known/agent-skills/index.json")
        },
    );
    assert_eq!(r.status, 304);
    // Cache-Control follows TTL_MS and CACHE_SCOPE.
    let private = endpoint(
        skills_edge::settings::http_config(skills_edge::settings::Source::Var, |s| match s.var {
            "TTL_MS" => Some("60000".into()),
            "CACHE_SCOPE" => Some("private".into()),
            _ => None,
        })
        .unwrap(),
    );
    let r = respond(&private, &get(path));
    assert_eq!(r.header("cache-control"), Some("private, max-age=60"));
}

#[test]
fn anything_else_under_the_prefix_is_404_and_other_methods_405() {
    let ep = endpoint(HttpConfig::default());
    for path in [
        "/.well-known/agent-skills/",
        "/.well-known/agent-skills/index.json/",
        "/.well-known/agent-skills/code-review",
        "/.well-known/agent-skills/code-review/",
        "/.well-known/agent-skills/code-review/missing.md",
        "/.well-known/agent-skills/code-review/../release-notes/SKILL.md",
        "/.well-known/agent-skills/code-review//SKILL.md",
        "/.well-known/agent-skills/nope/SKILL.md",
        "/.well-known/agent-skills/CODE-REVIEW/SKILL.md",
        // A nested skill is mirrored under its own name, not under its parent's path.
        "/.well-known/agent-skills/release-notes/changelog-lint/SKILL.md/x",
    ] {
        let r = respond(&ep, &get(path));
        assert_eq!(r.status, 404, "{path}");
        assert!(r.body_str().contains("Not Found"), "{path}");
    }
    // The nested skill's files are the parent's files too, and its own.
    for path in [
        "/.well-known/agent-skills/release-notes/changelog-lint/SKILL.md",
        "/.well-known/agent-skills/changelog-lint/SKILL.md",
    ] {
        assert_eq!(respond(&ep, &get(path)).status, 200, "{path}");
    }
    for m in ["POST", "PUT", "DELETE", "PATCH"] {
        let r = respond(
            &ep,
            &Head {
                method: m,
                ..get("/.well-known/agent-skills/index.json")
            },
        );
        assert_eq!(r.status, 405, "{m}");
        assert_eq!(r.header("allow"), Some("GET, HEAD"));
    }
}

#[test]
fn the_mirror_follows_the_host_origin_and_cors_rules_of_the_endpoint() {
    let ep = endpoint(HttpConfig::default());
    let path = "/.well-known/agent-skills/index.json";
    let r = respond(
        &ep,
        &Head {
            host: Some("evil.example"),
            ..get(path)
        },
    );
    assert_eq!(r.status, 403);
    let r = respond(
        &ep,
        &Head {
            origin: Some("https://evil.example"),
            ..get(path)
        },
    );
    assert_eq!(r.status, 403);
    assert_eq!(r.header("access-control-allow-origin"), None);
    let r = respond(
        &ep,
        &Head {
            origin: Some("http://localhost:5173"),
            ..get(path)
        },
    );
    assert_eq!(r.status, 200);
    assert_eq!(
        r.header("access-control-allow-origin"),
        Some("http://localhost:5173")
    );
    assert_eq!(r.header("access-control-expose-headers"), Some("etag"));
    let r = respond(
        &ep,
        &Head {
            method: "OPTIONS",
            origin: Some("http://localhost:5173"),
            ..get(path)
        },
    );
    assert_eq!(r.status, 204);
    assert_eq!(
        r.header("access-control-allow-methods"),
        Some("GET, HEAD, OPTIONS")
    );
}

#[test]
fn mirror_off_leaves_only_the_mcp_endpoint() {
    let ep = endpoint(HttpConfig {
        mirror: false,
        ..HttpConfig::default()
    });
    let r = respond(&ep, &get("/.well-known/agent-skills/index.json"));
    assert_eq!(r.status, 404);
    let v: Json = serde_json::from_slice(&r.body).unwrap();
    assert_eq!(v["error"]["code"], -32600);
}

#[test]
fn asset_backed_files_are_spliced_in_by_the_adapter() {
    let mut t = SourceTree::default();
    t.add_file(
        "big/SKILL.md",
        "---\nname: big\ndescription: A skill with a large file.\n---\n\n# Big\n",
    );
    let blob: Vec<u8> = (0..4096u32).map(|i| (i * 31 % 251) as u8).collect();
    t.add_file("big/assets/blob.bin", blob.clone());
    let compiled = compile::compile(t).expect("compiles");
    let packed = pack::encode_with(
        &compiled,
        &pack::PackOptions {
            instructions: None,
            assets: Some(pack::AssetPolicy { inline_max: 1024 }),
        },
    );
    let catalog = Arc::new(Catalog::from_bytes(packed.pack).expect("loads"));
    let ep = Endpoint::new(catalog, HttpConfig::default()).expect("valid");
    let r = respond(&ep, &get("/.well-known/agent-skills/big/assets/blob.bin"));
    assert_eq!(r.status, 200);
    assert!(r.body.is_empty());
    let splice = r.splice.as_ref().expect("the bytes are an asset");
    let digest = format!("sha256:{}", hex(&blob));
    assert_eq!(splice.asset, pack::raw_asset_name(&digest));
    assert_eq!(splice.len, blob.len() as u64);
    let asset = packed
        .assets
        .iter()
        .find(|a| a.name == splice.asset)
        .expect("written");
    assert_eq!(asset.bytes, blob);
    assert_eq!(splice.fault.status, 500);
    assert!(splice
        .fault
        .body_str()
        .contains("skill://big/assets/blob.bin"));
    assert_eq!(splice.fault.header("vary"), Some("Origin"));
    // A conditional request needs no asset at all.
    let tag = r.header("etag").unwrap().to_owned();
    let r = respond(
        &ep,
        &Head {
            if_none_match: Some(&tag),
            ..get("/.well-known/agent-skills/big/assets/blob.bin")
        },
    );
    assert_eq!((r.status, r.splice.is_none()), (304, true));
    // The index needs no asset either: it is in the pack.
    assert_eq!(
        index(&ep)["skills"][0]["files"][1],
        json!({"path": "assets/blob.bin", "digest": digest})
    );
}
