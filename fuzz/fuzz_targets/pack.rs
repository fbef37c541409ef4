//! Pack decoding: `Catalog::from_bytes` on arbitrary bytes. Under `cfg(fuzzing)` the pack's length and SHA-256 are not checked (magic and version
//! still are; see `check_integrity` in `src/pack/read.rs`), so mutations reach the
//! structure decoder instead of stopping at the checksum.
//!
//! The same bytes through `Catalog::from_bundled` (the shape-only load of a pack the
//! deployment vouches for, which reads each record when it is used): whatever it opens is
//! looked up and answered without a panic (a damaged record reads as absent; its replies need
//! not be well formed). A load refuses by the pack's prefix or its tables, never as a damaged
//! record (`PackErrorKind::DamagedRecord`); reading a record of a pack it opened fails as
//! one only.
//!
//! Properties: a pack that loads can be served: every file,
//! skill and directory is found by its own URI, every JSON fragment parses (strictly), text
//! files are UTF-8, and answering `server/discover`, `initialize`, every page of `skills/list`,
//! `resources/list` and `resources/directory/read`, `skills/get` of every skill and
//! `resources/read` of every file gives well-formed JSON-RPC replies (both eras) serving the
//! pack's bytes (a file kept as an asset: a splice of its announced length, or its fault). A
//! signed pack has an envelope (a JSON object) for every skill and a key set. A pack with
//! access rules, for the anonymous grant, each class's grant and every class at
//! once: the merged list of visible skills is exactly the skills the grant sees, in order;
//! `skills/list` and `resources/list` list exactly those over all pages (the cursors carry
//! the grant); `skills/get` of a hidden skill is refused as an unknown one; the assembled
//! mirror index, prompts and `list_skills` result are strict JSON. (That no hidden skill is
//! named is a property of the compiler's fragments, which a hostile pack can forge; the
//! library's tests/access.rs checks it on real packs.)

#![no_main]

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value as Json};
use skills_edge::catalog::pack::{PackError, PackErrorKind};
use skills_edge::catalog::{Catalog, Grant, SkillFallback};
use skills_edge::server::{Config, Responder, Transport};
use skills_edge_fuzz::json::strict;
use skills_edge_fuzz::reply::{check, Checked};
use std::sync::Arc;

fn request(modern: bool, method: &str, mut params: Json) -> Vec<u8> {
    if modern {
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}
        });
    }
    serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params}))
        .unwrap_or_default()
}

fn ask(r: &Responder, modern: bool, method: &str, params: Json) -> Json {
    ask_as(r, modern, method, params, Grant::PUBLIC)
}

fn ask_as(r: &Responder, modern: bool, method: &str, params: Json, g: Grant) -> Json {
    let msg = request(modern, method, params);
    let reply = r.respond(&msg, &Transport::Stream, g);
    match check(&msg, &reply) {
        Checked::Result(v) => v,
        Checked::Error(code) => panic!(
            "{method} of a loaded pack failed with {code}: {}",
            reply.body_str()
        ),
        Checked::NoBody => panic!("{method} got no reply"),
    }
}

/// Every page of a list; the items in order.
fn all_pages(
    r: &Responder,
    modern: bool,
    method: &str,
    field: &str,
    params: Json,
    total: usize,
) -> Vec<Json> {
    all_pages_as(r, modern, method, field, params, total, Grant::PUBLIC)
}

/// [`all_pages`] for a caller with `g`.
fn all_pages_as(
    r: &Responder,
    modern: bool,
    method: &str,
    field: &str,
    params: Json,
    total: usize,
    g: Grant,
) -> Vec<Json> {
    let mut items = Vec::new();
    let mut p = params;
    for _ in 0..=total + 1 {
        let res = ask_as(r, modern, method, p.clone(), g);
        items.extend(res[field].as_array().cloned().unwrap_or_default());
        match res["nextCursor"].as_str() {
            Some(c) => p["cursor"] = json!(c),
            None => return items,
        }
    }
    panic!("{method} has more pages than items");
}

/// A pack opened by its shape only: every lookup and a first page of each list, for the
/// anonymous grant and every class at once, answer without a panic.
fn bundled(data: &[u8]) {
    let c = match Catalog::from_bundled(data.to_vec()) {
        Ok(c) => Arc::new(c),
        Err(e) => return load_refusal(&e),
    };
    let record = |e: PackError| assert_eq!(e.kind, PackErrorKind::DamagedRecord, "{e}");
    for i in 0..c.skill_count().min(256) {
        if let Err(e) = c.try_skill_at(i) {
            record(e);
        }
    }
    for i in 0..c.file_count().min(256) {
        if let Err(e) = c.try_file_at(i) {
            record(e);
        }
    }
    let all = Grant::from_mask(u64::MAX);
    let _ = (
        c.instructions(Grant::PUBLIC),
        c.mirror_index(Grant::PUBLIC),
        c.keys_json(),
        c.has_assets(),
    );
    for s in c.skills() {
        let _ = (c.skill(s.uri), c.skill_index(s.uri), c.skills_named(s.name));
    }
    for f in c.files() {
        let _ = (
            c.file(f.uri),
            c.file_index(f.uri),
            c.files_under(f.uri).count(),
        );
    }
    for i in 0..c.dir_count() {
        if let Some(d) = c.dir_at(i) {
            let _ = c.dir(d.uri);
            for k in 0..d.len() {
                let _ = (d.child(k).map(|p| p.to_string()), d.child_visible(k, all));
                if let Some(Err(e)) = d.child(k).map(|p| p.push_to(&mut String::new())) {
                    record(e);
                }
            }
        }
    }
    for g in [Grant::PUBLIC, all] {
        let _ = c.visible_skills(g, 0).take(1000).count();
        let _ = (
            c.visible_skill_count(g),
            c.visible_skill_at(g, 1),
            c.view_snapshot(g),
        );
        let _ = (c.instructions(g), c.mirror_index(g));
        let _ = (c.prompts_json(g), c.list_skills_json(g));
    }
    if let Some(f) = c.fallback() {
        let _ = f.tools_json();
        for i in 0..c.skill_count().min(64) {
            let _ = (f.skill(i), f.prompt_name(i));
            if let Some(parts) = f.skill(i) {
                let structured = parts.read_structured_json.to_string();
                SkillFallback::push_read_block(&structured, &mut String::new());
                let _ = (
                    parts.links_json.to_string(),
                    parts.read_structured_json.len(),
                );
            }
        }
    }
    let Ok(r) = Responder::new(c.clone(), Config::default()) else {
        return;
    };
    let mut msgs = vec![
        request(true, "server/discover", json!({})),
        request(true, "skills/list", json!({})),
        request(false, "resources/list", json!({})),
    ];
    for s in c.skills().take(16) {
        msgs.push(request(true, "skills/get", json!({"uri": s.uri})));
    }
    for f in c.files().take(16) {
        msgs.push(request(true, "resources/read", json!({"uri": f.uri})));
    }
    for d in (0..c.dir_count().min(16)).filter_map(|i| c.dir_at(i)) {
        msgs.push(request(
            false,
            "resources/directory/read",
            json!({"uri": d.uri}),
        ));
    }
    for m in &msgs {
        for g in [Grant::PUBLIC, all] {
            let _ = r.respond(m, &Transport::Stream, g);
        }
    }
}

/// A load's refusal: of the pack's prefix or its tables, never of one record.
fn load_refusal(e: &PackError) {
    assert_ne!(e.kind, PackErrorKind::DamagedRecord, "a load refused: {e}");
}

fn run(data: &[u8]) {
    bundled(data);
    let c = match Catalog::from_bytes(data.to_vec()) {
        Ok(c) => Arc::new(c),
        Err(e) => return load_refusal(&e),
    };
    let _ = c.instructions(Grant::PUBLIC);

    for i in 0..c.file_count() {
        let f = c.file_at(i).expect("file_at within file_count");
        let g = c
            .file(f.uri)
            .unwrap_or_else(|| panic!("file {:?} not found by its URI", f.uri));
        assert_eq!(
            (g.uri, g.content, g.mime, g.is_text, g.digest, g.size),
            (f.uri, f.content, f.mime, f.is_text, f.digest, f.size)
        );
        if let (true, Some(bytes)) = (f.is_text, f.bytes()) {
            assert!(
                std::str::from_utf8(bytes).is_ok(),
                "{} is text but not UTF-8",
                f.uri
            );
        }
    }
    for (i, s) in c.skills().enumerate() {
        let t = c
            .skill(s.uri)
            .unwrap_or_else(|| panic!("skill {:?} not found by its URI", s.uri));
        assert_eq!(t.entry_json, s.entry_json);
        assert_eq!(c.skill_at(i).map(|x| x.uri), Some(s.uri));
        strict(s.entry_json, "a skill entry");
        strict(&s.list_item_json.to_string(), "a resource list item");
    }
    // A signed pack: every skill's envelope and the key set are JSON objects.
    assert_eq!(c.is_signed(), c.keys_json().is_some());
    if let Some(keys) = c.keys_json() {
        assert!(strict(keys, "keys.json").is_object());
    }
    for i in 0..c.skill_count() {
        match c.signature(i) {
            Some(sig) => assert!(strict(sig.envelope_json, "an envelope").is_object()),
            None => assert!(
                !c.is_signed(),
                "skill {i} of a signed pack has no signature"
            ),
        }
    }
    for i in 0..c.dir_count() {
        let d = c.dir_at(i).expect("dir_at within dir_count");
        let e = c
            .dir(d.uri)
            .unwrap_or_else(|| panic!("directory {:?} not found by its URI", d.uri));
        assert_eq!(e.index, i);
        for k in 0..d.len() {
            strict(
                &d.child(k).expect("child within len").to_string(),
                "a directory child",
            );
        }
    }

    let page_size = data.len() % 3 + 1;
    let r = Responder::new(
        c.clone(),
        Config {
            page_size,
            ..Config::default()
        },
    )
    .expect("valid settings");
    for modern in [true, false] {
        if modern {
            ask(&r, true, "server/discover", json!({}));
        } else {
            ask(
                &r,
                false,
                "initialize",
                json!({"protocolVersion": "2025-11-25"}),
            );
        }
        if c.has_private() {
            grants(&c, &r, modern);
            continue;
        }
        let skills = all_pages(
            &r,
            modern,
            "skills/list",
            "skills",
            json!({}),
            c.skill_count(),
        );
        assert_eq!(
            skills.len(),
            c.skill_count(),
            "skills/list lists every skill once"
        );
        let listed = all_pages(
            &r,
            modern,
            "resources/list",
            "resources",
            json!({}),
            c.skill_count(),
        );
        assert_eq!(listed.len(), c.skill_count());
        for s in c.skills() {
            let res = ask(&r, modern, "skills/get", json!({"uri": s.uri}));
            assert_eq!(res["skill"], strict(s.entry_json, "an entry"));
        }
        for f in c.files() {
            let Some(bytes) = f.bytes() else {
                // An asset: the reply is a splice, checked by `ask` both ways.
                ask(&r, modern, "resources/read", json!({"uri": f.uri}));
                continue;
            };
            let res = ask(&r, modern, "resources/read", json!({"uri": f.uri}));
            let item = &res["contents"][0];
            assert_eq!(item["uri"], f.uri);
            let served = match (item["text"].as_str(), item["blob"].as_str()) {
                (Some(t), None) => t.as_bytes().to_vec(),
                (None, Some(b)) => STANDARD.decode(b).expect("a blob is strict base64"),
                _ => panic!("a content item needs exactly one of text and blob"),
            };
            assert_eq!(
                served, bytes,
                "resources/read served other bytes for {}",
                f.uri
            );
        }
        for i in 0..c.dir_count() {
            let d = c.dir_at(i).expect("dir_at within dir_count");
            // resources/directory/read takes one trailing slash as the directory without it
            // (open point A4), so a hostile pack's directory URI ending in one slash is read as
            // another directory. The compiler never writes such a URI.
            if d.uri.ends_with('/') && !d.uri.ends_with("//") {
                continue;
            }
            let children = all_pages(
                &r,
                modern,
                "resources/directory/read",
                "resources",
                json!({"uri": d.uri}),
                d.len(),
            );
            assert_eq!(
                children.len(),
                d.len(),
                "directory/read lists every child of {}",
                d.uri
            );
        }
    }
}

/// The properties of a pack with access rules, for the anonymous grant, each class's and all.
fn grants(c: &Catalog, r: &Responder, modern: bool) {
    let n = c.class_count();
    let mut all = vec![Grant::PUBLIC];
    all.extend((0..n).map(|k| Grant::from_mask(1u64 << k)));
    all.push(Grant::from_mask(if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }));
    for g in all {
        let visible: Vec<usize> = (0..c.skill_count())
            .filter(|&i| c.skill_visible(i, g))
            .collect();
        let merged: Vec<usize> = c.visible_skills(g, 0).collect();
        assert_eq!(merged, visible, "the merged list is the visible skills");
        assert_eq!(c.visible_skill_count(g), visible.len());
        for (method, field) in [("skills/list", "skills"), ("resources/list", "resources")] {
            let items = all_pages_as(r, modern, method, field, json!({}), c.skill_count(), g);
            // The items are the visible skills' own fragments (a hostile pack's fragments
            // need not name their skill's URI).
            let want: Vec<Json> = visible
                .iter()
                .filter_map(|&i| c.skill_at(i))
                .map(|s| match field {
                    "skills" => strict(s.entry_json, "an entry"),
                    _ => strict(&s.list_item_json.to_string(), "a list item"),
                })
                .collect();
            assert_eq!(items, want, "{method} lists exactly the visible skills");
        }
        let hidden: Vec<&str> = (0..c.skill_count())
            .filter(|&i| !c.skill_visible(i, g))
            .filter_map(|i| c.skill_at(i).map(|s| s.uri))
            .collect();
        for uri in &hidden {
            let msg = request(modern, "skills/get", json!({"uri": uri}));
            let reply = r.respond(&msg, &Transport::Stream, g);
            assert!(
                matches!(check(&msg, &reply), Checked::Error(_)),
                "skills/get of a hidden skill is refused"
            );
        }
        let index = c.mirror_index(g);
        strict(&index, "the mirror index for a grant");
        if let Some(p) = c.prompts_json(g) {
            strict(&p, "the prompts for a grant");
        }
        if let Some(l) = c.list_skills_json(g) {
            strict(&l, "the list_skills result for a grant");
        }
        let _ = c.instructions(g);
    }
}

fuzz_target!(|data: &[u8]| run(data));
