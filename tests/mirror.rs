//! The `/.well-known/agent-skills/` mirror (Agent Skills Discovery RFC v0.2.0, the published
//! single-artifact index with `$schema`): the index's fields exactly as the RFC lists them, each
//! artifact's digest over its raw bytes, archives holding the manifest's files byte for byte,
//! every file and archive served with a strong ETag from its digest, conditional and HEAD
//! requests, the same Host, Origin and CORS rules as `/mcp`, and assets spliced in by the
//! adapter.

use serde_json::{json, Value as Json};
use sha2::{Digest as _, Sha256};
use skills_edge::catalog::compile::{self, SourceTree};
use skills_edge::catalog::Grant;
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
    match ep.head(head, Grant::PUBLIC) {
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

/// The members of a `.tar.gz` as `(path, bytes)` (the `tar` and `flate2` readers).
fn untar(gz: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(gz));
    archive
        .entries()
        .expect("a tar stream")
        .map(|e| {
            let mut e = e.expect("an entry");
            assert_eq!(e.header().entry_type(), tar::EntryType::Regular);
            let path = e.path().expect("a path").to_string_lossy().into_owned();
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(&mut e, &mut bytes).expect("its bytes");
            (path, bytes)
        })
        .collect()
}

/// The skill-entry fields of the RFC (v0.2.0, "Skill entry fields"), and ours, which an RFC
/// client ignores.
const RFC_FIELDS: [&str; 5] = ["name", "type", "description", "url", "digest"];

#[test]
fn the_index_is_the_rfc_format_and_agrees_with_mcp() {
    let ep = endpoint(HttpConfig::default());
    let idx = index(&ep);
    let top: Vec<&String> = idx.as_object().expect("an object").keys().collect();
    assert_eq!(top, ["$schema", "skills"]);
    assert_eq!(
        idx["$schema"],
        "https://schemas.agentskills.io/discovery/0.2.0/schema.json"
    );
    let skills = idx["skills"].as_array().expect("skills");
    let catalog = ep.responder().catalog();
    // Every name of the embedded catalog is unique, so every skill is mirrored.
    assert_eq!(skills.len(), catalog.skill_count());
    let names: Vec<&str> = skills.iter().map(|s| s["name"].as_str().unwrap()).collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(names, sorted, "sorted by name");
    let mut kinds = std::collections::BTreeSet::new();
    for s in skills {
        let name = s["name"].as_str().unwrap();
        let mut keys: Vec<&str> = s.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort_unstable();
        let mut want: Vec<&str> = RFC_FIELDS.iter().copied().chain(["_meta"]).collect();
        want.sort_unstable();
        assert_eq!(keys, want, "{name}");
        // The RFC's name rule (the Agent Skills one).
        assert!(
            (1..=64).contains(&name.len())
                && name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                && !name.starts_with('-')
                && !name.ends_with('-')
                && !name.contains("--"),
            "{name}"
        );
        let view = catalog.mirrored_skill(name).expect("mirrored");
        let entry = Entry::parse(view.entry_json).expect("a valid entry");
        let description = s["description"].as_str().unwrap();
        assert_eq!(description, entry.description());
        assert!(description.chars().count() <= 1024);
        assert_eq!(
            s["_meta"]["io.github.skills-edge/revision"].as_str(),
            entry.revision().as_deref(),
            "{name}"
        );
        let digest = s["digest"].as_str().unwrap();
        let hex64 = digest.strip_prefix("sha256:").expect("sha256:");
        assert!(
            hex64.len() == 64
                && hex64
                    .bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        );
        // The artifact at `url` (path-absolute), byte for byte under its digest.
        let url = s["url"].as_str().unwrap();
        let r = respond(&ep, &get(url));
        assert_eq!(r.status, 200, "{url}");
        assert_eq!(format!("sha256:{}", hex(&r.body)), digest, "{url}");
        assert_eq!(r.header("etag"), Some(format!("\"{hex64}\"").as_str()));
        assert_eq!(r.header("cache-control"), Some("public, max-age=300"));
        assert_eq!(r.header("content-encoding"), None, "{url}");
        let items = entry.items().expect("a manifest");
        let kind = s["type"].as_str().unwrap();
        kinds.insert(kind.to_owned());
        match kind {
            "skill-md" => {
                assert_eq!(url, format!("/.well-known/agent-skills/{name}/SKILL.md"));
                assert_eq!(items.len(), 1, "{name}: only a SKILL.md");
                assert_eq!(digest, items[0].digest);
                assert_eq!(
                    r.header("content-type"),
                    Some("text/markdown; charset=utf-8")
                );
            }
            "archive" => {
                assert_eq!(url, format!("/.well-known/agent-skills/{name}.tar.gz"));
                assert_eq!(r.header("content-type"), Some("application/gzip"));
                // The manifest's files, in its order (SKILL.md first), at the archive root.
                let members = untar(&r.body);
                assert_eq!(members.len(), items.len(), "{name}");
                for ((path, bytes), item) in members.iter().zip(items) {
                    assert_eq!(format!("{}/{path}", entry.root()), item.uri, "{name}");
                    assert_eq!(
                        format!("sha256:{}", hex(bytes)),
                        item.digest,
                        "{name}/{path}"
                    );
                }
            }
            other => panic!("{name}: unknown type {other}"),
        }
        // Every file stays at `/{name}/{path}` too.
        for item in items {
            let path = item
                .uri
                .strip_prefix(&format!("{}/", entry.root()))
                .unwrap();
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
    assert_eq!(
        kinds.into_iter().collect::<Vec<_>>(),
        ["archive"],
        "every skill of the embedded catalog has supporting files"
    );
    // The SKILL.md of every mirrored skill is text/markdown, as the RFC requires.
    let r = respond(&ep, &get("/.well-known/agent-skills/code-review/SKILL.md"));
    assert_eq!(
        r.header("content-type"),
        Some("text/markdown; charset=utf-8")
    );
}

#[test]
fn a_skill_that_is_only_a_skill_md_is_published_as_one() {
    let mut t = SourceTree::default();
    t.add_file(
        "solo/SKILL.md",
        "---\nname: solo\ndescription: Only a SKILL.md.\n---\n\n# Solo\n",
    );
    let catalog =
        Arc::new(Catalog::from_bytes(pack::encode(&compile::compile(t).unwrap(), None)).unwrap());
    let ep = Endpoint::new(catalog, HttpConfig::default()).expect("valid");
    let s = &index(&ep)["skills"][0];
    assert_eq!(s["type"], "skill-md");
    assert_eq!(s["url"], "/.well-known/agent-skills/solo/SKILL.md");
    let r = respond(&ep, &get("/.well-known/agent-skills/solo/SKILL.md"));
    assert_eq!(
        s["digest"].as_str(),
        Some(format!("sha256:{}", hex(&r.body)).as_str())
    );
    assert_eq!(
        respond(&ep, &get("/.well-known/agent-skills/solo.tar.gz")).status,
        404
    );
}

#[test]
fn conditional_and_head_requests() {
    let ep = endpoint(HttpConfig::default());
    let path = "/.well-known/agent-skills/code-review/references/checklist.md";
    // A file and an archive answer alike.
    for path in [path, "/.well-known/agent-skills/code-review.tar.gz"] {
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
        assert_eq!(r.header("cache-control"), full.header("cache-control"));
    }
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
        // Archives: only `{name}.tar.gz` of a mirrored skill.
        "/.well-known/agent-skills/nope.tar.gz",
        "/.well-known/agent-skills/CODE-REVIEW.tar.gz",
        "/.well-known/agent-skills/code-review.zip",
        "/.well-known/agent-skills/code-review.tar",
        "/.well-known/agent-skills/code-review.tar.gz/",
        "/.well-known/agent-skills/.tar.gz",
        "/.well-known/agent-skills/code-review/SKILL.md.tar.gz",
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
    // Pseudo-random bytes, so that the archive does not compress below the limit either.
    let mut x = 1u32;
    let blob: Vec<u8> = (0..4096)
        .map(|_| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (x >> 24) as u8
        })
        .collect();
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
    // The archive is above the limit too: an asset of its own, spliced in the same way.
    let idx = index(&ep);
    let archive_digest = idx["skills"][0]["digest"].as_str().unwrap().to_owned();
    let r = respond(&ep, &get("/.well-known/agent-skills/big.tar.gz"));
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("application/gzip"));
    assert!(r.body.is_empty());
    let splice = r.splice.as_ref().expect("the archive is an asset");
    assert_eq!(splice.asset, pack::raw_asset_name(&archive_digest));
    let asset = packed
        .assets
        .iter()
        .find(|a| a.name == splice.asset)
        .expect("written");
    assert_eq!(splice.len, asset.bytes.len() as u64);
    assert_eq!(format!("sha256:{}", hex(&asset.bytes)), archive_digest);
    let members = untar(&asset.bytes);
    assert_eq!(members[1], ("assets/blob.bin".to_owned(), blob));
    assert_eq!(splice.fault.status, 500);
    assert!(splice
        .fault
        .body_str()
        .contains("the archive of the skill big"));
    // The index needs no asset: it is in the pack.
    assert_eq!(idx["skills"][0]["type"], "archive");
    assert_eq!(
        idx["skills"][0]["url"],
        json!("/.well-known/agent-skills/big.tar.gz")
    );
    // Below the limit, the archive stays in the pack.
    let inline = pack::encode_with(
        &compiled,
        &pack::PackOptions {
            instructions: None,
            assets: Some(pack::AssetPolicy {
                inline_max: 1 << 20,
            }),
        },
    );
    assert!(inline.assets.is_empty());
    let catalog = Arc::new(Catalog::from_bytes(inline.pack).expect("loads"));
    let ep = Endpoint::new(catalog, HttpConfig::default()).expect("valid");
    let r = respond(&ep, &get("/.well-known/agent-skills/big.tar.gz"));
    assert_eq!((r.status, r.splice.is_none()), (200, true));
    assert_eq!(format!("sha256:{}", hex(&r.body)), archive_digest);
}

/// Writes `files` under `root` with `mode` on every file and `mtime` (seconds) on every file
/// and directory, deepest first.
fn write_folder(root: &std::path::Path, files: &[(&str, &[u8])], mode: u32, mtime: u64) {
    use std::os::unix::fs::PermissionsExt as _;
    let when = std::time::UNIX_EPOCH + std::time::Duration::from_secs(mtime);
    for (path, bytes) in files {
        let p = root.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, bytes).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
        std::fs::File::options()
            .write(true)
            .open(&p)
            .unwrap()
            .set_modified(when)
            .unwrap();
    }
}

/// A scratch directory under the target directory, emptied first.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn archives_are_byte_for_byte_reproducible_from_any_copy_of_a_folder() {
    let skill = b"---\nname: repro\ndescription: Reproducible archives.\n---\n\n# Repro\n";
    let blob: Vec<u8> = (0..70_000u32).map(|i| (i * 131 % 253) as u8).collect();
    let long = format!("deep/{}/{}.md", "d".repeat(120), "n".repeat(90));
    let files: Vec<(&str, &[u8])> = vec![
        ("repro/SKILL.md", skill),
        ("repro/scripts/run.sh", b"#!/bin/sh\necho hi\n"),
        ("repro/assets/blob.bin", &blob),
        ("repro/references/a.md", b"a\n"),
        ("repro/references/b.md", b""),
    ];
    let long_path = format!("repro/{long}");
    let mut files = files;
    files.push((long_path.as_str(), b"long\n"));
    let root = scratch("mirror-repro");
    // Two copies: other modes (as under another umask, or an executable bit), other mtimes,
    // and the files written in the opposite order.
    write_folder(&root.join("one"), &files, 0o644, 1_000_000_000);
    let mut reversed = files.clone();
    reversed.reverse();
    write_folder(&root.join("two"), &reversed, 0o755, 1_700_000_000);
    let build = |dir: &str| {
        let walked = skills_edge::catalog::walk::walk(&root.join(dir));
        let compiled = compile::compile(walked.tree).expect("compiles");
        compiled.skills[0].archive.clone().expect("an archive")
    };
    let (a, b) = (build("one"), build("two"));
    assert_eq!(a.digest, b.digest);
    assert!(a.bytes == b.bytes, "the same bytes");
    // And the same as a tree built in memory, with no file system at all.
    let mut t = SourceTree::default();
    for (p, bytes) in &files {
        t.add_file(p, bytes.to_vec());
    }
    let c = compile::compile(t).expect("compiles");
    assert_eq!(
        c.skills[0].archive.as_ref().map(|x| &x.digest),
        Some(&a.digest)
    );
    let members: Vec<String> = untar(&a.bytes).into_iter().map(|(p, _)| p).collect();
    assert_eq!(
        members,
        [
            "SKILL.md",
            "assets/blob.bin",
            long.as_str(),
            "references/a.md",
            "references/b.md",
            "scripts/run.sh"
        ]
    );
}

/// An independent reader: Python's `tarfile` (with the `data` extraction filter, which refuses
/// links, devices, absolute paths and traversal) unpacks every archive of the example catalog
/// into a scratch folder, and every unpacked file equals the skills folder's.
#[test]
fn python_tarfile_unpacks_every_archive_to_the_skills_folder() {
    let ep = endpoint(HttpConfig::default());
    let catalog = ep.responder().catalog();
    let skills_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("skills");
    let root = scratch("mirror-python");
    let idx = index(&ep);
    let mut checked = 0;
    for s in idx["skills"].as_array().unwrap() {
        let name = s["name"].as_str().unwrap();
        if s["type"] != "archive" {
            continue;
        }
        let body = respond(&ep, &get(s["url"].as_str().unwrap())).body;
        let file = root.join(format!("{name}.tar.gz"));
        std::fs::write(&file, &body).unwrap();
        let out = root.join(name);
        let script = r#"
import json, sys, tarfile
with tarfile.open(sys.argv[1], "r:gz") as t:
    members = t.getmembers()
    # The "data" filter where tarfile has it (Python 3.12, and 3.11.4 on); Debian 12's 3.11.2
    # has none, and extracts as older releases all do.
    t.extractall(sys.argv[2], **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
print(json.dumps([[m.name, m.type.decode(), m.mode, m.uid, m.gid, m.uname, m.gname, m.mtime] for m in members]))
"#;
        let run = std::process::Command::new("python3")
            .args(["-c", script])
            .arg(&file)
            .arg(&out)
            .output()
            .expect("python3 runs");
        assert!(
            run.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        let listed: Json = serde_json::from_slice(&run.stdout).unwrap();
        let view = catalog.mirrored_skill(name).unwrap();
        let entry = Entry::parse(view.entry_json).unwrap();
        let items = entry.items().unwrap();
        let listed = listed.as_array().unwrap();
        assert_eq!(listed.len(), items.len(), "{name}");
        for (m, item) in listed.iter().zip(items) {
            let path = item
                .uri
                .strip_prefix(&format!("{}/", entry.root()))
                .unwrap();
            assert_eq!(m, &json!([path, "0", 0o644, 0, 0, "", "", 0]), "{name}");
            let source = skills_dir.join(item.uri.strip_prefix("skill://").unwrap());
            let unpacked = std::fs::read(out.join(path)).unwrap();
            assert!(unpacked == std::fs::read(&source).unwrap(), "{name}/{path}");
            checked += 1;
        }
        // Nothing else was unpacked.
        let mut count = 0;
        let mut stack = vec![out.clone()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(d).unwrap() {
                let e = e.unwrap();
                if e.file_type().unwrap().is_dir() {
                    stack.push(e.path());
                } else {
                    count += 1;
                }
            }
        }
        assert_eq!(count, items.len(), "{name}");
    }
    assert!(
        checked >= catalog.file_count(),
        "every file of every skill was unpacked"
    );
}
