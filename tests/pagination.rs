//! Pagination of `skills/list`, `resources/list` and `resources/directory/read`: with small
//! pages, walking `nextCursor` visits every item exactly once, entries are atomic, the last page
//! has no `nextCursor`; cursors carried to another page size resolve to the same place, and
//! cursors carried to another list or catalog are refused with a clear message; a list longer
//! than 64 pages of the configured size gets larger pages, from what the caller sees only.

use crate::common;

use common::*;
use serde_json::{json, Value as Json};
use skills_edge::catalog::compile::SourceTree;
use skills_edge::catalog::{Catalog, Grant};
use skills_edge::protocol::Era;
use skills_edge::server::{Responder, Transport};
use std::collections::BTreeSet;
use std::sync::Arc;

/// A generated catalog big enough for many pages: 25 skills under three prefixes, one with 23
/// files in a single directory and a nested skill.
fn big_catalog() -> Arc<Catalog> {
    let mut tree = SourceTree::default();
    for i in 0..25 {
        let name = format!("s{i:02}");
        let path = format!("team-{}/{name}", i % 3);
        tree.add_file(
            &format!("{path}/SKILL.md"),
            skill_md(&name, "").into_bytes(),
        );
        tree.add_file(
            &format!("{path}/references/r.md"),
            format!("ref {i}\n").into_bytes(),
        );
    }
    for j in 0..22 {
        tree.add_file(
            &format!("team-0/s00/references/extra-{j:02}.md"),
            vec![b'x'; j + 1],
        );
    }
    tree.add_file(
        "team-0/s00/inner/SKILL.md",
        skill_md("inner", "").into_bytes(),
    );
    Arc::new(Catalog::compile(tree, None).expect("the generated catalog compiles"))
}

/// Checks the page shapes of one walk and returns the concatenated items.
fn walk(r: &Responder, era: Era, method: &str, params: Json, key: &str) -> Vec<Json> {
    let pages = pages(r, era, method, params.clone());
    let size = r.config().page_size;
    for (i, p) in pages.iter().enumerate() {
        let items = p[key].as_array().expect("items");
        let last = i + 1 == pages.len();
        assert_eq!(
            p.get("nextCursor").is_none(),
            last,
            "{method} {params}: only the last page lacks nextCursor"
        );
        if !last {
            assert_eq!(items.len(), size, "{method}: full pages before the last");
        } else {
            assert!(items.len() <= size);
            assert!(
                !items.is_empty() || pages.len() == 1,
                "{method}: no empty last page"
            );
        }
    }
    pages
        .iter()
        .flat_map(|p| p[key].as_array().expect("items").clone())
        .collect()
}

fn uris(items: &[Json]) -> Vec<String> {
    items
        .iter()
        .map(|i| i["uri"].as_str().expect("uri").to_owned())
        .collect()
}

fn assert_once(list: &[String], what: &str) {
    let set: BTreeSet<&String> = list.iter().collect();
    assert_eq!(set.len(), list.len(), "{what}: every item exactly once");
}

fn check_all_lists(catalog: Arc<Catalog>) {
    let full = responder_over(catalog.clone(), 1000);
    for page_size in [1, 2] {
        let r = responder_over(catalog.clone(), page_size);
        for era in ERAS {
            // skills/list: every skill once, in order, each entry whole.
            let skills = walk(&r, era, "skills/list", json!({}), "skills");
            let got = uris(&skills);
            let want: Vec<String> = catalog.skills().map(|s| s.uri.to_owned()).collect();
            assert_eq!(got, want, "skills/list, page size {page_size}");
            assert_once(&got, "skills/list");
            for e in &skills {
                let whole = ok(
                    &full,
                    &request(era, 1, "skills/get", json!({"uri": e["uri"]})),
                );
                assert_eq!(e, &whole["skill"], "entries are atomic");
            }
            // resources/list: every SKILL.md once.
            let resources = walk(&r, era, "resources/list", json!({}), "resources");
            assert_eq!(
                uris(&resources),
                want,
                "resources/list, page size {page_size}"
            );
            let all_at_once = ok(&full, &request(era, 1, "resources/list", json!({})));
            assert_eq!(Json::Array(resources), all_at_once["resources"]);
            // Every directory.
            for i in 0..catalog.dir_count() {
                let dir = catalog.dir_at(i).expect("dir");
                let params = json!({ "uri": dir.uri });
                let children = walk(
                    &r,
                    era,
                    "resources/directory/read",
                    params.clone(),
                    "resources",
                );
                assert_eq!(children.len(), dir.len(), "{}", dir.uri);
                assert_once(&uris(&children), dir.uri);
                let at_once = ok(&full, &request(era, 1, "resources/directory/read", params));
                assert!(at_once.get("nextCursor").is_none());
                assert_eq!(Json::Array(children), at_once["resources"], "{}", dir.uri);
            }
        }
    }
}

#[test]
fn small_pages_visit_every_item_of_the_embedded_catalog_once() {
    check_all_lists(embedded());
}

#[test]
fn small_pages_visit_every_item_of_a_large_catalog_once() {
    let catalog = big_catalog();
    assert_eq!(catalog.skill_count(), 26);
    let dir = catalog
        .dir("skill://team-0/s00/references")
        .expect("the crowded directory");
    assert_eq!(dir.len(), 23);
    check_all_lists(catalog);
}

#[test]
fn an_empty_catalog_has_one_empty_page() {
    let catalog = Arc::new(Catalog::compile(SourceTree::default(), None).expect("empty"));
    let r = responder_over(catalog, 1);
    for era in ERAS {
        for (method, key) in [("skills/list", "skills"), ("resources/list", "resources")] {
            let res = ok(&r, &request(era, 1, method, json!({})));
            assert_eq!(res[key], json!([]), "{method}");
            assert!(res.get("nextCursor").is_none());
        }
    }
}

#[test]
fn a_cursor_resolves_to_the_same_place_at_another_page_size() {
    let catalog = big_catalog();
    let one = responder_over(catalog.clone(), 1);
    let two = responder_over(catalog.clone(), 2);
    let seven = responder_over(catalog.clone(), 7);
    let all: Vec<String> = catalog.skills().map(|s| s.uri.to_owned()).collect();
    // Take the cursor after three items from the page-size-1 walk.
    let mut cursor = None;
    for _ in 0..3 {
        let params = cursor
            .as_ref()
            .map_or(json!({}), |c: &String| json!({ "cursor": c }));
        let page = ok(&one, &request(Era::Modern, 1, "skills/list", params));
        cursor = page["nextCursor"].as_str().map(str::to_owned);
    }
    let cursor = cursor.expect("more pages");
    for (r, n) in [(&two, 2), (&seven, 7)] {
        for era in ERAS {
            let page = ok(
                r,
                &request(era, 1, "skills/list", json!({ "cursor": cursor })),
            );
            assert_eq!(
                uris(page["skills"].as_array().expect("skills")),
                all[3..3 + n]
            );
        }
    }
    // A cursor near the end at a larger page size gives a short last page.
    let mut c = None;
    for _ in 0..all.len() - 1 {
        let params = c
            .as_ref()
            .map_or(json!({}), |x: &String| json!({ "cursor": x }));
        c = ok(&one, &request(Era::Legacy, 1, "skills/list", params))["nextCursor"]
            .as_str()
            .map(str::to_owned);
    }
    let last = ok(
        &seven,
        &request(
            Era::Modern,
            1,
            "skills/list",
            json!({ "cursor": c.expect("a cursor") }),
        ),
    );
    assert_eq!(
        uris(last["skills"].as_array().expect("skills")),
        all[all.len() - 1..]
    );
    assert!(last.get("nextCursor").is_none());
}

#[test]
fn cursors_from_another_list_or_catalog_are_refused_clearly() {
    let catalog = big_catalog();
    let r = responder_over(catalog, 2);
    let first = |method: &str, params: Json| {
        ok(&r, &request(Era::Modern, 1, method, params))["nextCursor"]
            .as_str()
            .expect("a second page")
            .to_owned()
    };
    let skills = first("skills/list", json!({}));
    let resources = first("resources/list", json!({}));
    let dir_a = first(
        "resources/directory/read",
        json!({"uri": "skill://team-0/s00/references"}),
    );
    let dir_b_uri = "skill://team-0";
    let refused = |method: &str, params: Json, phrase: &str| {
        for era in ERAS {
            let rpc = err(&r, &request(era, 1, method, params.clone()));
            assert_eq!(rpc.code(), Some(-32602), "{method} {params}");
            assert_eq!(rpc.status, 200);
            assert!(
                rpc.message().starts_with("Invalid cursor: ") && rpc.message().contains(phrase),
                "{method} {params}: {}",
                rpc.message()
            );
        }
    };
    refused(
        "resources/list",
        json!({ "cursor": skills }),
        "different list",
    );
    refused(
        "skills/list",
        json!({ "cursor": resources }),
        "different list",
    );
    refused("skills/list", json!({ "cursor": dir_a }), "different list");
    refused(
        "resources/directory/read",
        json!({"uri": dir_b_uri, "cursor": dir_a}),
        "different list",
    );
    refused(
        "resources/templates/list",
        json!({ "cursor": resources }),
        "",
    );
    // A cursor of the embedded catalog on another catalog: the snapshot differs.
    let embedded_cursor = ok(
        &responder(1),
        &request(Era::Modern, 1, "skills/list", json!({})),
    )["nextCursor"]
        .as_str()
        .expect("cursor")
        .to_owned();
    refused(
        "skills/list",
        json!({ "cursor": embedded_cursor }),
        "catalog has changed",
    );
    // The same cursor is accepted again and again (cursors are stable).
    for _ in 0..3 {
        let a = ok(
            &r,
            &request(Era::Modern, 1, "skills/list", json!({ "cursor": skills })),
        );
        assert_eq!(a["skills"].as_array().map(Vec::len), Some(2));
    }
}

#[test]
fn every_page_carries_the_same_cache_hints() {
    let r = responder(1);
    for method in ["skills/list", "resources/list"] {
        for p in pages(&r, Era::Modern, method, json!({})) {
            assert_eq!(p["cacheScope"], "public", "{method}");
            assert_eq!(p["ttlMs"], 300_000, "{method}");
            assert_eq!(p["resultType"], "complete");
        }
    }
}

/// A folder of `n` generated skills under four prefix directories (`team-0` … `team-3`), and
/// `hidden` more under `private/`, private to the scope `private` when there are any.
fn many_skills(n: usize, hidden: usize) -> Arc<Catalog> {
    let mut tree = SourceTree::default();
    for i in 0..n {
        let name = format!("skill-{i:05}");
        let md = skill_md(&name, "");
        tree.add_file(&format!("team-{}/{name}/SKILL.md", i % 4), md.into_bytes());
    }
    for i in 0..hidden {
        let name = format!("hidden-{i:05}");
        let md = skill_md(&name, "");
        tree.add_file(&format!("private/{name}/SKILL.md"), md.into_bytes());
    }
    if hidden > 0 {
        let rules = "[[access]]\nskills = [\"private/**\"]\nscopes = [\"private\"]\n";
        tree.add_file("skills-edge.toml", rules);
    }
    Arc::new(Catalog::compile(tree, None).expect("the generated catalog compiles"))
}

/// The raw replies of every page of `method` for an anonymous caller (the cursors followed).
fn anonymous_transcript(r: &Responder, era: Era, method: &str, params: Json) -> Vec<String> {
    let mut out = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut p = params.clone();
        if let Some(c) = &cursor {
            p["cursor"] = json!(c);
        }
        let msg = request(era, 1, method, p);
        let reply = r.respond(&msg, &Transport::Stream, Grant::PUBLIC);
        let body = reply.body_str().to_owned();
        let parsed: Json = serde_json::from_str(&body).expect("a JSON reply");
        out.push(body);
        match parsed["result"].get("nextCursor").and_then(Json::as_str) {
            Some(c) if out.len() < 1000 => cursor = Some(c.to_owned()),
            _ => return out,
        }
    }
}

#[test]
fn a_catalog_of_3300_skills_lists_within_the_clients_64_pages_at_every_page_size() {
    // The official TypeScript SDK 2.4 client and MCP Inspector stop after 64 pages: at 50 a
    // page, 3,300 skills would take 66. Lists that long get pages of ⌈3300 / 64⌉ = 52.
    let catalog = many_skills(3300, 0);
    let want: Vec<String> = catalog.skills().map(|s| s.uri.to_owned()).collect();
    for page_size in [1, 50, 60] {
        let r = responder_over(catalog.clone(), page_size);
        for era in ERAS {
            for (method, key) in [("skills/list", "skills"), ("resources/list", "resources")] {
                let pages = pages(&r, era, method, json!({}));
                assert!(
                    pages.len() <= 64,
                    "{method} at {page_size}: {} pages",
                    pages.len()
                );
                let size = page_size.max(52);
                assert_eq!(pages[0][key].as_array().map(Vec::len), Some(size));
                let got = uris(&all_items(&r, era, method, json!({}), key));
                assert_eq!(
                    got, want,
                    "{method} at {page_size}: every skill once, in order"
                );
            }
            // A directory of 825 children: within the configured size's pages when they fit.
            let dir = json!({ "uri": "skill://team-0" });
            let children = pages(&r, era, "resources/directory/read", dir.clone());
            assert_eq!(children.len(), 825usize.div_ceil(page_size.max(13)));
            let all = all_items(&r, era, "resources/directory/read", dir, "resources");
            assert_eq!(all.len(), 825);
            assert_once(&uris(&all), "skill://team-0");
        }
    }
}

#[test]
fn hidden_skills_do_not_change_the_page_size_an_anonymous_caller_sees() {
    // 3,300 public skills and one private skill, or 3,000 private ones: the page size follows
    // the list the caller sees, so the anonymous caller's pages, cursors included, are the
    // same bytes (a size from the whole catalog, 99 a page, would tell it the hidden count).
    let bare = responder_over(many_skills(3300, 1), 50);
    let hiding = responder_over(many_skills(3300, 3000), 50);
    for era in ERAS {
        for method in ["skills/list", "resources/list"] {
            let a = anonymous_transcript(&bare, era, method, json!({}));
            let b = anonymous_transcript(&hiding, era, method, json!({}));
            assert_eq!(a.len(), 64, "{method}: 64 pages of 52");
            assert_eq!(a, b, "{method}, {era:?}");
        }
    }
}
