//! Cursors say nothing about what their caller may not see (docs/private.md, "Hidden is
//! absent"). Two catalogs packed from folders that differ only in what a grant hides
//! (tests/fixtures/hidden-views: `one/` hides 1 skill from an anonymous caller, `four/` hides
//! 4 whose URIs sort among the public ones, a nested pair and a sibling of a public skill in
//! its directory included) must give that grant byte-identical transcripts through the
//! responder: every page of `skills/list`, `resources/list` and `resources/directory/read` of
//! every directory (hidden ones too) with pages of 1 and 2, in both eras, every cursor issued,
//! each cursor presented to every other list, and every cursor forged from them (each
//! character changed, each decoded byte changed, truncated, extended, each offset).

use crate::common::{request, ERAS};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use serde_json::{json, Value as Json};
use skills_edge::catalog::walk::walk;
use skills_edge::catalog::{Catalog, Grant};
use skills_edge::protocol::Era;
use skills_edge::server::{Config, Responder, Transport};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/hidden-views")
        .join(name)
}

/// The catalog of a folder of tests/fixtures/hidden-views, read from disk as `pack` reads it.
fn from_folder(name: &str) -> Arc<Catalog> {
    let walked = walk(&fixture(name));
    Arc::new(Catalog::compile(walked.tree, None).expect("the fixture compiles"))
}

fn responder(c: &Arc<Catalog>, page_size: usize) -> Responder {
    let config = Config {
        page_size,
        ..Config::default()
    };
    Responder::new(c.clone(), config).expect("valid settings")
}

/// The grant of `scopes` in `c` (its classes are numbered per catalog).
fn grant(c: &Catalog, scopes: &[&str]) -> Grant {
    c.grant(scopes)
}

/// Every directory URI of either folder (the union: hidden ones are asked too).
fn directory_uris() -> Vec<String> {
    let mut dirs = BTreeSet::new();
    for name in ["one", "four"] {
        let c = from_folder(name);
        for f in c.files() {
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

/// One list: its method and the `uri` of a directory.
#[derive(Clone)]
struct List {
    method: &'static str,
    uri: Option<String>,
}

fn lists() -> Vec<List> {
    let mut l = vec![
        List {
            method: "skills/list",
            uri: None,
        },
        List {
            method: "resources/list",
            uri: None,
        },
    ];
    l.extend(directory_uris().into_iter().map(|u| List {
        method: "resources/directory/read",
        uri: Some(u),
    }));
    l
}

/// Cursors forged from `c`: each character replaced by two others of the alphabet, each
/// decoded byte changed four ways, the cursor truncated and extended, and its offset (the
/// last four bytes) set to each value from 0 to 20.
fn forged(c: &str) -> Vec<String> {
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
            for change in [|b: u8| b ^ 1, |b: u8| b ^ 0x80, |_: u8| 0, |_: u8| 0xff] {
                let mut b = bytes.clone();
                b[i] = change(b[i]);
                out.push(URL_SAFE_NO_PAD.encode(&b));
            }
        }
        for offset in 0u32..=20 {
            let mut b = bytes.clone();
            let n = b.len();
            if n >= 4 {
                b[n - 4..].copy_from_slice(&offset.to_le_bytes());
                out.push(URL_SAFE_NO_PAD.encode(&b));
            }
        }
    }
    out.push(c[..c.len().saturating_sub(1)].to_owned());
    out.push(format!("{c}A"));
    out.push(String::new());
    out
}

/// What a caller with `g` gets from `r`: each (request, reply) in order. For every list,
/// every page (following `nextCursor`); every cursor issued is then presented to every
/// list and forged (see [`forged`]), each forgery presented to the list that issued it.
fn transcript(r: &Responder, g: Grant, era: Era) -> Vec<(String, String)> {
    let lists = lists();
    let mut out = Vec::new();
    let ask = |list: &List, cursor: Option<&str>, out: &mut Vec<(String, String)>| {
        let mut params = json!({});
        if let Some(u) = &list.uri {
            params["uri"] = json!(u);
        }
        if let Some(c) = cursor {
            params["cursor"] = json!(c);
        }
        let msg = request(era, 1, list.method, params);
        let reply = r.respond(&msg, &Transport::Stream, g);
        let body = String::from_utf8(reply.body.unwrap_or_default()).expect("UTF-8 reply");
        out.push((String::from_utf8(msg).expect("UTF-8 request"), body.clone()));
        serde_json::from_str::<Json>(&body).expect("JSON reply")["result"]["nextCursor"]
            .as_str()
            .map(str::to_owned)
    };
    let mut issued = Vec::new();
    for list in &lists {
        let mut cursor = None;
        let mut pages = 0;
        while let Some(next) = ask(list, cursor.as_deref(), &mut out) {
            issued.push((list.clone(), next.clone()));
            cursor = Some(next);
            pages += 1;
            assert!(pages < 100, "{}: too many pages", list.method);
        }
    }
    for (list, cursor) in &issued {
        for other in &lists {
            ask(other, Some(cursor), &mut out);
        }
        for f in forged(cursor) {
            ask(list, Some(&f), &mut out);
        }
    }
    out
}

/// Asserts two transcripts are the same, naming the first request answered differently.
fn assert_same(a: &[(String, String)], b: &[(String, String)], what: &str) {
    for (x, y) in a.iter().zip(b) {
        assert_eq!(x.0, y.0, "{what}: the same requests");
        assert_eq!(x.1, y.1, "{what}: request {} answered differently", x.0);
    }
    assert_eq!(a.len(), b.len(), "{what}: transcripts of the same length");
}

/// The cursors a transcript's replies carry.
fn cursors_in(t: &[(String, String)]) -> BTreeSet<String> {
    t.iter()
        .filter_map(|(_, reply)| {
            let v: Json = serde_json::from_str(reply).ok()?;
            Some(v["result"]["nextCursor"].as_str()?.to_owned())
        })
        .collect()
}

#[test]
fn the_two_folders_differ_only_in_hidden_skills() {
    let (one, four) = (from_folder("one"), from_folder("four"));
    let uris = |c: &Catalog, g: Grant| -> Vec<String> {
        c.visible_skills(g, 0)
            .filter_map(|i| c.skill_at(i).map(|s| s.uri.to_owned()))
            .collect()
    };
    assert_eq!(
        uris(&one, Grant::PUBLIC),
        uris(&four, Grant::PUBLIC),
        "the same public skills"
    );
    assert_eq!(
        one.skill_count() - one.visible_skill_count(Grant::PUBLIC),
        1
    );
    assert_eq!(
        four.skill_count() - four.visible_skill_count(Grant::PUBLIC),
        4
    );
    assert_eq!(
        uris(&one, grant(&one, &["billing"])),
        uris(&four, grant(&four, &["billing"])),
        "the same skills for billing"
    );
    assert_ne!(
        grant(&one, &["billing"]),
        grant(&four, &["billing"]),
        "billing's class is numbered differently in the two catalogs"
    );
    // Each visible file has the same bytes in both.
    for f in one.files() {
        if let Some(g) = four.file(f.uri) {
            assert_eq!(f.bytes(), g.bytes(), "{}", f.uri);
        }
    }
}

#[test]
fn anonymous_caller_cannot_tell_one_hidden_skill_from_four_by_its_cursors() {
    let (one, four) = (from_folder("one"), from_folder("four"));
    for page_size in [1, 2] {
        for era in ERAS {
            // An anonymous caller, and one whose scope no rule names.
            for scopes in [&[][..], &["nobody"][..]] {
                let a = transcript(&responder(&one, page_size), grant(&one, scopes), era);
                let b = transcript(&responder(&four, page_size), grant(&four, scopes), era);
                let what = format!("page size {page_size}, {era:?}, scopes {scopes:?}");
                assert_same(&a, &b, &what);
                let issued = cursors_in(&a);
                assert!(issued.len() >= 4, "{what}: cursors were issued");
                // Some forged cursors were accepted (a forged offset inside the list): the
                // comparison covered answers, not only refusals.
                let accepted = a
                    .iter()
                    .filter(|(q, r)| q.contains("cursor") && r.contains("\"result\""))
                    .count();
                assert!(accepted > issued.len(), "{what}: forged cursors accepted");
            }
        }
    }
}

#[test]
fn scoped_caller_cannot_learn_other_scopes_skills_from_its_cursors() {
    // `four` hides 3 more skills from a billing caller, and numbers billing's class 2, not 1.
    let (one, four) = (from_folder("one"), from_folder("four"));
    for page_size in [1, 2] {
        for era in ERAS {
            let a = transcript(&responder(&one, page_size), grant(&one, &["billing"]), era);
            let b = transcript(
                &responder(&four, page_size),
                grant(&four, &["billing"]),
                era,
            );
            assert_same(&a, &b, &format!("billing, page size {page_size}, {era:?}"));
            assert!(a.iter().any(|(_, r)| r.contains("acme/billing/invoices")));
        }
    }
}

#[test]
fn anonymous_caller_cannot_count_hidden_skills_by_forging_offsets() {
    // Forging the offset of a real cursor: accepted exactly within the caller's own list
    // (4 public skills: offsets 1 to 3), whatever is hidden around them.
    for name in ["one", "four"] {
        let c = from_folder(name);
        let r = responder(&c, 1);
        for method in ["skills/list", "resources/list"] {
            let first = request(Era::Modern, 1, method, json!({}));
            let reply = r.respond(&first, &Transport::Stream, Grant::PUBLIC);
            let v: Json = serde_json::from_slice(&reply.body.unwrap_or_default()).unwrap();
            let cursor = v["result"]["nextCursor"].as_str().expect("a cursor");
            let mut bytes = URL_SAFE_NO_PAD.decode(cursor).expect("base64url");
            assert_eq!(bytes[10..14], 1u32.to_le_bytes(), "{name}: the offset is 1");
            let mut accepted = Vec::new();
            for offset in 0u32..=16 {
                bytes[10..14].copy_from_slice(&offset.to_le_bytes());
                let msg = request(
                    Era::Modern,
                    1,
                    method,
                    json!({"cursor": URL_SAFE_NO_PAD.encode(&bytes)}),
                );
                let reply = r.respond(&msg, &Transport::Stream, Grant::PUBLIC);
                let v: Json = serde_json::from_slice(&reply.body.unwrap_or_default()).unwrap();
                if v.get("result").is_some() {
                    accepted.push(offset);
                } else {
                    assert_eq!(v["error"]["code"], -32602, "{name} {method} {offset}");
                    assert_eq!(
                        v["error"]["message"], "Invalid cursor: it points outside the list",
                        "{name} {method} {offset}"
                    );
                }
            }
            assert_eq!(accepted, [1, 2, 3], "{name} {method}");
        }
    }
}

#[test]
fn anonymous_caller_cannot_see_a_private_skill_change_through_its_cursors() {
    // The private skill of `one` edited: a cursor issued before the edit still works after
    // it, and every answer is the same; an edit of a public skill does invalidate it.
    let before = from_folder("one");
    let edit = |path: &str| {
        let mut t = walk(&fixture("one")).tree;
        for f in &mut t.files {
            if f.path == path {
                f.bytes.extend_from_slice(b"\nEdited.\n");
            }
        }
        Arc::new(Catalog::compile(t, None).expect("still compiles"))
    };
    let private_edit = edit("acme/billing/invoices/SKILL.md");
    assert_ne!(before.snapshot(), private_edit.snapshot());
    for era in ERAS {
        assert_same(
            &transcript(&responder(&before, 2), Grant::PUBLIC, era),
            &transcript(&responder(&private_edit, 2), Grant::PUBLIC, era),
            "anonymous, before and after a private edit",
        );
    }
    let public_edit = edit("hello/SKILL.md");
    let first = request(Era::Modern, 1, "skills/list", json!({}));
    let reply = responder(&before, 2).respond(&first, &Transport::Stream, Grant::PUBLIC);
    let v: Json = serde_json::from_slice(&reply.body.unwrap_or_default()).unwrap();
    let cursor = v["result"]["nextCursor"].as_str().expect("a cursor");
    for (c, stale) in [(&private_edit, false), (&public_edit, true)] {
        let msg = request(Era::Modern, 1, "skills/list", json!({ "cursor": cursor }));
        let reply = responder(c, 2).respond(&msg, &Transport::Stream, Grant::PUBLIC);
        let v: Json = serde_json::from_slice(&reply.body.unwrap_or_default()).unwrap();
        assert_eq!(v.get("error").is_some(), stale, "{v}");
    }
}
