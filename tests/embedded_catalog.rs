//! The embedded catalog (`skills/` → `build.rs` → `skills_edge::embedded::catalog()`), checked
//! through the responder's real replies: every served file hashes to its manifest digest and
//! size, the catalog covers the shapes the extension allows (organisational prefix, deep
//! subdirectories, binary assets, nested skills, every optional frontmatter field, non-ASCII
//! text), the published frontmatter is the `SKILL.md` frontmatter in document order, and every
//! directory of the namespace lists its direct children.

use crate::common;

use common::*;
use serde_json::{json, Value as Json};
use skills_edge::protocol::Era;
use skills_edge::skill::frontmatter::parse_file_strict;
use std::collections::{BTreeMap, BTreeSet};

/// Every skill entry, from every page of `skills/list`.
fn entries(era: Era) -> Vec<Json> {
    all_items(&responder(2), era, "skills/list", json!({}), "skills")
}

/// Reads a file through `resources/read` and returns (mimeType, raw bytes, was it text).
fn read(era: Era, uri: &str) -> (String, Vec<u8>, bool) {
    let res = ok(
        &responder(50),
        &request(era, 1, "resources/read", json!({ "uri": uri })),
    );
    let contents = res["contents"].as_array().expect("contents");
    assert_eq!(contents.len(), 1, "{uri}: exactly one contents item");
    let item = &contents[0];
    assert_eq!(item["uri"], uri, "the item's uri is the requested uri");
    let mime = item["mimeType"].as_str().expect("mimeType").to_owned();
    (mime, content_bytes(item), item.get("text").is_some())
}

fn entry<'a>(all: &'a [Json], uri: &str) -> &'a Json {
    all.iter()
        .find(|e| e["uri"] == uri)
        .unwrap_or_else(|| panic!("no entry {uri}"))
}

fn manifest(e: &Json) -> Vec<(String, String, u64)> {
    e["resources"]
        .as_array()
        .expect("resources is an array")
        .iter()
        .map(|r| {
            (
                r["uri"].as_str().expect("uri").to_owned(),
                r["digest"].as_str().expect("digest").to_owned(),
                r["size"].as_u64().expect("size"),
            )
        })
        .collect()
}

#[test]
fn every_served_file_hashes_to_its_manifest_digest_and_size() {
    let catalog = embedded();
    for era in ERAS {
        let all = entries(era);
        assert_eq!(all.len(), catalog.skill_count());
        let mut covered = BTreeSet::new();
        for e in &all {
            let uri = e["uri"].as_str().expect("uri");
            let root = uri.strip_suffix("/SKILL.md").expect("a SKILL.md uri");
            let items = manifest(e);
            assert_eq!(items[0].0, uri, "SKILL.md comes first in {uri}");
            let uris: BTreeSet<&str> = items.iter().map(|i| i.0.as_str()).collect();
            assert_eq!(uris.len(), items.len(), "{uri}: each file once");
            for (file, digest, size) in &items {
                assert!(
                    file == uri || file.starts_with(&format!("{root}/")),
                    "{file} lies inside {root}"
                );
                let (_, bytes, is_text) = read(era, file);
                assert_eq!(bytes.len() as u64, *size, "{file}: size");
                assert_eq!(&sha256_wire(&bytes), digest, "{file}: digest");
                assert_eq!(
                    is_text,
                    std::str::from_utf8(&bytes).is_ok(),
                    "{file}: text exactly when the bytes are UTF-8"
                );
                covered.insert(file.clone());
            }
            // Complete: every file the catalog serves under the root is in the manifest.
            let under: BTreeSet<&str> = catalog
                .files()
                .map(|f| f.uri)
                .filter(|f| f.starts_with(&format!("{root}/")))
                .collect();
            assert_eq!(under, uris, "{uri}: the manifest is complete");
        }
        // Every served file belongs to some skill's manifest.
        let served: BTreeSet<String> = catalog.files().map(|f| f.uri.to_owned()).collect();
        assert_eq!(served, covered);
    }
}

#[test]
fn the_catalog_covers_an_organisational_prefix_and_deep_subdirectories() {
    let all = entries(Era::Modern);
    let refunds = entry(&all, "skill://acme/billing/refunds/SKILL.md");
    assert_eq!(refunds["frontmatter"]["name"], "refunds");
    let files: Vec<String> = manifest(refunds).into_iter().map(|i| i.0).collect();
    assert_eq!(
        files,
        [
            "skill://acme/billing/refunds/SKILL.md",
            "skill://acme/billing/refunds/references/policy.md",
            "skill://acme/billing/refunds/templates/refund-email.md",
            "skill://acme/billing/refunds/templates/regional/eu-refund.md",
            "skill://acme/billing/refunds/templates/regional/fr-remboursement.md",
        ]
    );
    // Two directory levels below the skill root.
    let deep = files
        .iter()
        .filter(|f| {
            f["skill://acme/billing/refunds/".len()..]
                .matches('/')
                .count()
                >= 2
        })
        .count();
    assert_eq!(deep, 2);
    // The final segment of the skill path equals the name, for every skill.
    for e in &all {
        let uri = e["uri"].as_str().expect("uri");
        let root = uri.strip_suffix("/SKILL.md").expect("SKILL.md");
        assert_eq!(root.rsplit('/').next(), e["frontmatter"]["name"].as_str());
    }
}

#[test]
fn a_binary_asset_is_served_as_a_base64_blob() {
    let uri = "skill://diagram-style/assets/palette.png";
    for era in ERAS {
        let res = ok(
            &responder(50),
            &request(era, 1, "resources/read", json!({ "uri": uri })),
        );
        let item = &res["contents"][0];
        assert!(item.get("text").is_none(), "binary files are never text");
        let blob = item["blob"].as_str().expect("blob");
        let bytes = base64_decode(blob).expect("strict base64");
        assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
        assert!(
            std::str::from_utf8(&bytes).is_err(),
            "the asset is not UTF-8"
        );
        assert_eq!(item["mimeType"], "image/png");
        let all = entries(era);
        let e = entry(&all, "skill://diagram-style/SKILL.md");
        let (_, digest, size) = manifest(e)
            .into_iter()
            .find(|i| i.0 == uri)
            .expect("listed");
        assert_eq!(size, bytes.len() as u64);
        assert_eq!(digest, sha256_wire(&bytes));
    }
}

#[test]
fn a_nested_skill_is_its_own_skill_and_part_of_the_outer_manifest() {
    let all = entries(Era::Modern);
    let outer = manifest(entry(&all, "skill://release-notes/SKILL.md"));
    let inner = manifest(entry(&all, "skill://release-notes/changelog-lint/SKILL.md"));
    assert_eq!(
        inner.iter().map(|i| i.0.as_str()).collect::<Vec<_>>(),
        [
            "skill://release-notes/changelog-lint/SKILL.md",
            "skill://release-notes/changelog-lint/references/rules.md",
        ]
    );
    for item in &inner {
        assert!(
            outer.contains(item),
            "{} is in the outer manifest with the same digest and size",
            item.0
        );
    }
    assert_eq!(outer.len(), inner.len() + 2);
    assert_eq!(
        entry(&all, "skill://release-notes/changelog-lint/SKILL.md")["frontmatter"]["name"],
        "changelog-lint"
    );
}

#[test]
fn frontmatter_in_entries_is_the_served_skill_md_frontmatter_in_document_order() {
    let r = responder(50);
    let catalog = embedded();
    for era in ERAS {
        for skill in catalog.skills() {
            let (mime, bytes, is_text) = read(era, skill.uri);
            assert_eq!(mime, "text/markdown");
            assert!(is_text);
            let text = String::from_utf8(bytes).expect("UTF-8");
            let parsed = parse_file_strict(&text).expect("the served SKILL.md parses");
            let rpc = ok_rpc(
                &r,
                &request(era, 1, "skills/get", json!({"uri": skill.uri})),
            );
            let entry_raw = raw_member(rpc.result_raw().expect("result"), "skill");
            let fm_raw = raw_member(&entry_raw, "frontmatter");
            // Byte-equal JSON: same content and the same key order at every depth.
            assert_eq!(fm_raw, parsed.to_json(), "{}", skill.uri);
            assert!(ordered(&fm_raw).same_content(&parsed));
        }
    }
}

#[test]
fn the_catalog_covers_every_optional_frontmatter_field_and_non_ascii_text() {
    let r = responder(50);
    let rpc = ok_rpc(
        &r,
        &request(
            Era::Modern,
            1,
            "skills/get",
            json!({"uri": "skill://acme/billing/refunds/SKILL.md"}),
        ),
    );
    let fm_raw = raw_member(
        &raw_member(rpc.result_raw().expect("result"), "skill"),
        "frontmatter",
    );
    let fm = ordered(&fm_raw);
    let skills_edge::skill::value::Value::Object(pairs) = &fm else {
        panic!("frontmatter is an object")
    };
    let keys: Vec<&str> = pairs.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        keys,
        [
            "name",
            "description",
            "license",
            "compatibility",
            "metadata",
            "allowed-tools"
        ]
    );
    let Some(skills_edge::skill::value::Value::Object(meta)) = fm.get("metadata") else {
        panic!("metadata is a map")
    };
    let meta_keys: Vec<&str> = meta.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(meta_keys, ["owner", "version", "review-cycle"]);
    let fm_json: Json = serde_json::from_str(&fm_raw).expect("JSON");
    assert_eq!(fm_json["license"], "Apache-2.0");
    assert_eq!(
        fm_json["allowed-tools"],
        json!(["Read", "billing:lookup_order", "billing:issue_refund"])
    );
    assert_eq!(fm_json["metadata"]["version"], "1.2");
    assert!(fm_json["compatibility"]
        .as_str()
        .is_some_and(|c| !c.is_empty()));
    // A string-valued allowed-tools elsewhere.
    let all = entries(Era::Modern);
    assert_eq!(
        entry(&all, "skill://git-commit-messages/SKILL.md")["frontmatter"]["allowed-tools"],
        "Bash(git:*) Read"
    );

    // Non-ASCII text is served unaltered; size counts UTF-8 bytes, not characters.
    let uri = "skill://acme/billing/refunds/templates/regional/fr-remboursement.md";
    let (mime, bytes, is_text) = read(Era::Modern, uri);
    assert!(is_text);
    assert_eq!(mime, "text/markdown");
    let text = String::from_utf8(bytes.clone()).expect("UTF-8");
    assert!(text.contains("procédé") && text.contains("l’achat"));
    assert!(text.chars().count() < bytes.len());
    let (_, digest, size) = manifest(entry(&all, "skill://acme/billing/refunds/SKILL.md"))
        .into_iter()
        .find(|i| i.0 == uri)
        .expect("listed");
    assert_eq!(size, bytes.len() as u64);
    assert_eq!(digest, sha256_wire(&bytes));
}

/// The expected namespace, computed from the served files alone: every proper ancestor
/// directory of a file, with its direct children (directories, then files, each by name).
fn expected_dirs() -> BTreeMap<String, (BTreeSet<String>, BTreeSet<String>)> {
    let catalog = embedded();
    let mut dirs: BTreeMap<String, (BTreeSet<String>, BTreeSet<String>)> = BTreeMap::new();
    for f in catalog.files() {
        let path = &f.uri["skill://".len()..];
        let segs: Vec<&str> = path.split('/').collect();
        for depth in 1..segs.len() {
            let dir = format!("skill://{}", segs[..depth].join("/"));
            let child = format!("{dir}/{}", segs[depth]);
            let slot = dirs.entry(dir).or_default();
            if depth + 1 == segs.len() {
                slot.1.insert(child);
            } else {
                slot.0.insert(child);
            }
        }
    }
    dirs
}

#[test]
fn every_directory_of_the_namespace_lists_its_direct_children() {
    let catalog = embedded();
    let expected = expected_dirs();
    assert_eq!(catalog.dir_count(), expected.len());
    for must in [
        "skill://acme",
        "skill://acme/billing",
        "skill://acme/billing/refunds",
        "skill://acme/billing/refunds/templates",
        "skill://acme/billing/refunds/templates/regional",
        "skill://release-notes/changelog-lint",
        "skill://diagram-style/assets",
    ] {
        assert!(expected.contains_key(must), "{must}");
    }
    for page_size in [1, 50] {
        let r = responder(page_size);
        for era in ERAS {
            for (dir, (subdirs, files)) in &expected {
                let children = all_items(
                    &r,
                    era,
                    "resources/directory/read",
                    json!({ "uri": dir }),
                    "resources",
                );
                let mut want: Vec<&String> = subdirs.iter().collect();
                want.extend(files.iter());
                let got: Vec<&str> = children
                    .iter()
                    .map(|c| c["uri"].as_str().expect("uri"))
                    .collect();
                assert_eq!(got, want, "{dir} ({era:?}, page size {page_size})");
                for c in &children {
                    let uri = c["uri"].as_str().expect("uri");
                    assert_eq!(c["name"].as_str(), uri.rsplit('/').next(), "{uri}: name");
                    if subdirs.contains(uri) {
                        assert_eq!(c["mimeType"], "inode/directory", "{uri}");
                        assert!(c.get("size").is_none(), "{uri}: directories have no size");
                    } else {
                        let f = catalog.file(uri).expect("a served file");
                        assert_eq!(c["mimeType"], f.mime, "{uri}");
                        assert_eq!(c["size"], f.size, "{uri}");
                    }
                    assert!(!uri.ends_with('/'));
                }
            }
        }
    }
}

#[test]
fn the_prefix_directories_hold_exactly_the_next_level() {
    let r = responder(50);
    for (dir, child) in [
        ("skill://acme", "skill://acme/billing"),
        ("skill://acme/billing", "skill://acme/billing/refunds"),
    ] {
        let res = ok(
            &r,
            &request(
                Era::Modern,
                1,
                "resources/directory/read",
                json!({ "uri": dir }),
            ),
        );
        assert_eq!(
            res["resources"],
            json!([{"uri": child, "name": child.rsplit('/').next(), "mimeType": "inode/directory"}])
        );
    }
    let root = ok(
        &r,
        &request(
            Era::Modern,
            1,
            "resources/directory/read",
            json!({"uri": "skill://code-review"}),
        ),
    );
    assert_eq!(
        root["resources"],
        json!([
            {"uri": "skill://code-review/references", "name": "references", "mimeType": "inode/directory"},
            {"uri": "skill://code-review/SKILL.md", "name": "SKILL.md", "mimeType": "text/markdown", "size": 149}
        ])
    );
}

#[test]
fn the_scheme_root_and_files_are_not_directories() {
    let r = responder(50);
    for era in ERAS {
        for uri in [
            "skill://",
            "skill:",
            "skill:///",
            "skill://code-review/SKILL.md",
        ] {
            let rpc = err(
                &r,
                &request(era, 9, "resources/directory/read", json!({ "uri": uri })),
            );
            assert_eq!(rpc.code(), Some(-32602), "{uri}");
            assert_eq!(rpc.status, 200);
            assert_eq!(rpc.json["error"]["data"]["uri"], uri);
        }
        let rpc = err(
            &r,
            &request(
                era,
                9,
                "resources/directory/read",
                json!({"uri": "skill://code-review/SKILL.md"}),
            ),
        );
        assert_eq!(
            rpc.message(),
            "skill://code-review/SKILL.md is not a directory resource"
        );
    }
    // A directory is not a readable resource either.
    for dir in expected_dirs().keys() {
        let rpc = err(
            &r,
            &request(Era::Modern, 1, "resources/read", json!({ "uri": dir })),
        );
        assert_eq!(rpc.code(), Some(-32602), "{dir}");
        assert!(rpc.message().contains("directory"), "{}", rpc.message());
    }
}

#[test]
fn resources_list_describes_each_skill_md_from_its_frontmatter() {
    let r = responder(2);
    for era in ERAS {
        let listed = all_items(&r, era, "resources/list", json!({}), "resources");
        let all = entries(era);
        assert_eq!(listed.len(), all.len());
        for (item, e) in listed.iter().zip(&all) {
            assert_eq!(item["uri"], e["uri"]);
            assert_eq!(item["name"], e["frontmatter"]["name"]);
            assert_eq!(item["description"], e["frontmatter"]["description"]);
            assert_eq!(item["mimeType"], "text/markdown");
            assert_eq!(item["size"], e["resources"][0]["size"]);
            let keys: BTreeSet<&str> = item
                .as_object()
                .expect("object")
                .keys()
                .map(String::as_str)
                .collect();
            assert_eq!(
                keys,
                BTreeSet::from(["uri", "name", "description", "mimeType", "size"])
            );
        }
    }
}
