//! The golden vectors of the Skills extension notes (§1.9): the digests of the two
//! `code-review` files, of the empty file and of `"a"`, and the exact `code-review` entry, as
//! served by `skills/list` and `skills/get` from the embedded catalog in both eras.

use crate::common;

use common::*;
use serde_json::json;
use skills_edge::protocol::Era;
use skills_edge::skill::digest::{digest_of, is_wire_digest};

const SKILL_MD: &str = "---\nname: code-review\ndescription: Review code using the team's checklist.\n---\n\n# Code review\n\nRead `references/checklist.md`, then review the diff.\n";
const SKILL_MD_DIGEST: &str =
    "sha256:d2489d6c182e8df9c178563ff9f2eac7998a0c1bb1278c52a7fd5306e4259160";
const CHECKLIST: &str = "# Review checklist\n\nCheck correctness, tests, and compatibility.\n";
const CHECKLIST_DIGEST: &str =
    "sha256:dbab2de7bf7db9cc95cb6ce681c3690b26184db39f75b958a0287ca6d9e24e20";
const EMPTY_DIGEST: &str =
    "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
const A_DIGEST: &str = "sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb";

/// The entry the notes expect for `skill://code-review/SKILL.md`, byte for byte, plus this
/// server's revision of the skill in `_meta` (the Agent Skills Discovery RFC's skill-level
/// digest of `SKILL.md` and `references/checklist.md`, computed independently:
/// SHA-256 of `"SKILL.md\0d2489d…\nreferences/checklist.md\0dbab2d…\n"`).
const ENTRY: &str = concat!(
    r#"{"uri":"skill://code-review/SKILL.md","#,
    r#""frontmatter":{"name":"code-review","description":"Review code using the team's checklist."},"#,
    r#""resources":["#,
    r#"{"uri":"skill://code-review/SKILL.md","digest":"sha256:d2489d6c182e8df9c178563ff9f2eac7998a0c1bb1278c52a7fd5306e4259160","size":149},"#,
    r#"{"uri":"skill://code-review/references/checklist.md","digest":"sha256:dbab2de7bf7db9cc95cb6ce681c3690b26184db39f75b958a0287ca6d9e24e20","size":65}"#,
    r#"],"_meta":{"io.github.skills-edge/revision":"sha256:e970acab7b703b9126893ca0b9c5e3d2b1659e5ab4560c5f96f3e2c3b19eddee"}}"#
);

#[test]
fn digest_vectors_match_the_notes() {
    let vectors: [(&[u8], usize, &str); 4] = [
        (SKILL_MD.as_bytes(), 149, SKILL_MD_DIGEST),
        (CHECKLIST.as_bytes(), 65, CHECKLIST_DIGEST),
        (b"", 0, EMPTY_DIGEST),
        (b"a", 1, A_DIGEST),
    ];
    for (bytes, size, digest) in vectors {
        assert_eq!(bytes.len(), size);
        // The crate's digest and an independent computation agree with the vector.
        assert_eq!(digest_of(bytes), digest);
        assert_eq!(sha256_wire(bytes), digest);
        assert!(is_wire_digest(digest));
        assert!(
            !is_wire_digest(&digest.to_uppercase()),
            "uppercase is refused"
        );
    }
}

#[test]
fn the_embedded_code_review_files_are_the_golden_bytes() {
    let catalog = embedded();
    for (uri, text, mime) in [
        ("skill://code-review/SKILL.md", SKILL_MD, "text/markdown"),
        (
            "skill://code-review/references/checklist.md",
            CHECKLIST,
            "text/markdown",
        ),
    ] {
        let f = catalog.file(uri).expect("served");
        assert_eq!(f.bytes(), Some(text.as_bytes()), "{uri}");
        assert!(f.is_text);
        assert_eq!(f.mime, mime);
    }
    // And as served by resources/read, in both eras.
    let r = responder(50);
    for era in ERAS {
        for (uri, text) in [
            ("skill://code-review/SKILL.md", SKILL_MD),
            ("skill://code-review/references/checklist.md", CHECKLIST),
        ] {
            let res = ok(&r, &request(era, 1, "resources/read", json!({"uri": uri})));
            let contents = res["contents"].as_array().expect("contents");
            assert_eq!(contents.len(), 1);
            assert_eq!(contents[0]["uri"], uri);
            assert_eq!(contents[0]["mimeType"], "text/markdown");
            assert_eq!(contents[0]["text"], text);
            assert_eq!(
                sha256_wire(&content_bytes(&contents[0])),
                digest_of(text.as_bytes())
            );
        }
    }
}

#[test]
fn skills_get_serves_the_exact_golden_entry() {
    let r = responder(50);
    for era in ERAS {
        let rpc = ok_rpc(
            &r,
            &request(
                era,
                "get-1",
                "skills/get",
                json!({"uri": "skill://code-review/SKILL.md"}),
            ),
        );
        let result = rpc.result_raw().expect("result");
        assert_eq!(raw_member(result, "skill"), ENTRY, "{era:?}");
        let expected: serde_json::Value = serde_json::from_str(ENTRY).expect("JSON");
        assert_eq!(rpc.json["result"]["skill"], expected);
        assert_eq!(rpc.id_raw(), Some("\"get-1\""));
    }
}

#[test]
fn skills_list_serves_the_exact_golden_entry_on_every_page_size() {
    for page_size in [1, 2, 50] {
        let r = responder(page_size);
        for era in ERAS {
            let mut found = 0;
            let mut cursor: Option<String> = None;
            loop {
                let params = match &cursor {
                    Some(c) => json!({ "cursor": c }),
                    None => json!({}),
                };
                let rpc = ok_rpc(&r, &request(era, 7, "skills/list", params));
                let raw = raw_member(rpc.result_raw().expect("result"), "skills");
                let entries: Vec<Box<serde_json::value::RawValue>> =
                    serde_json::from_str(&raw).expect("array");
                for e in entries {
                    if e.get()
                        .starts_with(r#"{"uri":"skill://code-review/SKILL.md""#)
                    {
                        assert_eq!(e.get(), ENTRY, "{era:?} page size {page_size}");
                        found += 1;
                    }
                }
                match rpc.json["result"]["nextCursor"].as_str() {
                    Some(c) => cursor = Some(c.to_owned()),
                    None => break,
                }
            }
            assert_eq!(found, 1, "{era:?} page size {page_size}");
        }
    }
}

#[test]
fn the_golden_entry_is_what_the_catalog_compiled() {
    let catalog = embedded();
    let skill = catalog
        .skill("skill://code-review/SKILL.md")
        .expect("code-review is served");
    assert_eq!(skill.entry_json, ENTRY);
    assert_eq!(
        skill.list_item_json,
        r#"{"uri":"skill://code-review/SKILL.md","name":"code-review","description":"Review code using the team's checklist.","mimeType":"text/markdown","size":149}"#
    );
    // The same entry through the modern era carries the 2026-07-28 result fields around it.
    let r = responder(50);
    let res = ok(
        &r,
        &request(
            Era::Modern,
            1,
            "skills/get",
            json!({"uri": "skill://code-review/SKILL.md"}),
        ),
    );
    assert_eq!(res["resultType"], "complete");
}
