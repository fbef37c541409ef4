//! The tools and prompts fallback (`Config::fallback`, FALLBACK): off, nothing changes; on, the
//! capabilities, instructions, `tools/list`, `tools/call` of every tool on every skill and file,
//! `prompts/list` and `prompts/get` of every skill, in both eras, with the bytes checked
//! against `resources/read`; tool errors that say what exists; protocol errors; `Mcp-Name`
//! mirroring; results spliced around assets; packs without the fallback sections.

use crate::common;

use common::*;
use serde_json::{json, Value as Json};
use skills_edge::catalog::compile::{self, SourceTree};
use skills_edge::catalog::pack::PackErrorKind;
use skills_edge::catalog::Grant;
use skills_edge::catalog::{pack, Catalog};
use skills_edge::protocol::Era;
use skills_edge::server::{Config, Fallback, Responder, Transport};
use std::collections::BTreeSet;
use std::sync::Arc;

const TOOLS: Fallback = Fallback {
    tools: true,
    prompts: false,
    search: false,
};
const PROMPTS: Fallback = Fallback {
    tools: false,
    prompts: true,
    search: false,
};

/// A `tools/call` of `name` with `args`; the result (asserting a result, not an error).
fn tool(r: &Responder, era: Era, name: &str, args: Json) -> Json {
    ok(
        r,
        &request(
            era,
            1,
            "tools/call",
            json!({"name": name, "arguments": args}),
        ),
    )
}

/// A tool call that must be a tool error; its text.
fn tool_err(r: &Responder, name: &str, args: Json) -> String {
    let res = tool(r, Era::Modern, name, args.clone());
    assert_eq!(res["isError"], true, "{name} {args}: {res}");
    assert!(res.get("structuredContent").is_none(), "{res}");
    let content = res["content"].as_array().expect("content");
    assert_eq!(content.len(), 1, "{res}");
    assert_eq!(content[0]["type"], "text");
    content[0]["text"].as_str().expect("text").to_owned()
}

/// Every skill entry, through skills/list.
fn entries(r: &Responder) -> Vec<Json> {
    all_items(r, Era::Modern, "skills/list", json!({}), "skills")
}

/// The bytes `resources/read` serves for `uri`, and whether as text.
fn read_bytes(r: &Responder, era: Era, uri: &str) -> (Vec<u8>, bool, Json) {
    let res = ok(r, &request(era, 1, "resources/read", json!({ "uri": uri })));
    let item = res["contents"][0].clone();
    (content_bytes(&item), item.get("text").is_some(), item)
}

fn strip_2026(mut v: Json) -> Json {
    if let Some(o) = v.as_object_mut() {
        for f in ["resultType", "ttlMs", "cacheScope", "_meta"] {
            o.remove(f);
        }
    }
    v
}

// ------------------------------------------------------------------------------------------
// Off
// ------------------------------------------------------------------------------------------

#[test]
fn off_nothing_changes() {
    let off = responder(50);
    assert_eq!(off.config().fallback, Fallback::NONE);
    assert_eq!(Config::default().fallback, Fallback::NONE);
    let d = ok(&off, &request(Era::Modern, 1, "server/discover", json!({})));
    let caps = json!({"resources": {}, "extensions": {SKILLS_EXT: {"directoryRead": true}}});
    assert_eq!(d["capabilities"], caps);
    assert_eq!(d["instructions"], *embedded().instructions(Grant::PUBLIC));
    let i = ok(
        &off,
        &request(
            Era::Legacy,
            1,
            "initialize",
            json!({"protocolVersion": LEGACY}),
        ),
    );
    assert_eq!(i["capabilities"], caps);
    for era in ERAS {
        for (method, params) in [
            ("tools/list", json!({})),
            ("tools/call", json!({"name": "list_skills"})),
            ("prompts/list", json!({})),
            ("prompts/get", json!({"name": "code-review"})),
        ] {
            let rpc = call(&off, &request(era, 1, method, params), &Transport::Stream);
            assert_eq!((rpc.status, rpc.code()), (404, Some(-32601)), "{method}");
        }
    }
    // Over HTTP, a tools/call without Mcp-Name is still -32601 (the method is not served),
    // not a header error.
    let m = request(Era::Modern, 1, "tools/call", json!({"name": "list_skills"}));
    let rpc = call(&off, &m, &http(Some(MODERN), Some("tools/call"), None));
    assert_eq!((rpc.status, rpc.code()), (404, Some(-32601)));
    // Tools on, prompts off (and the other way round): the other half stays -32601.
    let t = fallback_over(embedded(), TOOLS);
    let rpc = call(
        &t,
        &request(Era::Modern, 1, "prompts/list", json!({})),
        &Transport::Stream,
    );
    assert_eq!(rpc.code(), Some(-32601));
    let p = fallback_over(embedded(), PROMPTS);
    let rpc = call(
        &p,
        &request(Era::Modern, 1, "tools/list", json!({})),
        &Transport::Stream,
    );
    assert_eq!(rpc.code(), Some(-32601));
    // Every other reply is the same byte for byte whatever the fallback.
    let on = fallback_responder();
    for era in ERAS {
        for (method, params) in [
            ("skills/list", json!({})),
            ("skills/get", json!({"uri": "skill://code-review/SKILL.md"})),
            ("resources/list", json!({})),
            ("resources/templates/list", json!({})),
            (
                "resources/read",
                json!({"uri": "skill://diagram-style/assets/palette.png"}),
            ),
            (
                "resources/directory/read",
                json!({"uri": "skill://code-review"}),
            ),
        ] {
            let m = request(era, 1, method, params);
            assert_eq!(
                off.respond(&m, &Transport::Stream, Grant::PUBLIC),
                on.respond(&m, &Transport::Stream, Grant::PUBLIC),
                "{method}"
            );
        }
    }
}

// ------------------------------------------------------------------------------------------
// Capabilities and instructions
// ------------------------------------------------------------------------------------------

#[test]
fn capabilities_declare_what_is_on_in_both_eras() {
    for (f, tools, prompts) in [
        (TOOLS, true, false),
        (PROMPTS, false, true),
        (Fallback::ALL, true, true),
    ] {
        let r = fallback_over(embedded(), f);
        let d = ok(&r, &request(Era::Modern, 1, "server/discover", json!({})));
        let i = ok(
            &r,
            &request(
                Era::Legacy,
                1,
                "initialize",
                json!({"protocolVersion": LEGACY}),
            ),
        );
        for caps in [&d["capabilities"], &i["capabilities"]] {
            assert_eq!(caps.get("tools").is_some(), tools, "{f:?}");
            assert_eq!(caps.get("prompts").is_some(), prompts, "{f:?}");
            if tools {
                assert_eq!(
                    caps["tools"],
                    json!({}),
                    "no listChanged: the catalog is fixed"
                );
            }
            if prompts {
                assert_eq!(caps["prompts"], json!({}));
            }
            assert_eq!(caps["resources"], json!({}));
            assert_eq!(
                caps["extensions"][SKILLS_EXT],
                json!({"directoryRead": true})
            );
        }
        assert_eq!(d["capabilities"], i["capabilities"]);
        assert_eq!(d["instructions"], i["instructions"]);
    }
}

#[test]
fn instructions_start_with_the_fallback_and_stay_within_2048_characters() {
    let catalog = embedded();
    for (f, words) in [
        (
            TOOLS,
            vec![
                "list_skills",
                "read_skill",
                "read_skill_resource",
                "not part of the extension",
            ],
        ),
        (
            PROMPTS,
            vec!["Prompts: one per skill", "not part of the extension"],
        ),
        (
            Fallback::ALL,
            vec![
                "list_skills",
                "read_skill_resource",
                "Prompts: one per skill",
            ],
        ),
    ] {
        let r = fallback_over(catalog.clone(), f);
        let d = ok(&r, &request(Era::Modern, 1, "server/discover", json!({})));
        let text = d["instructions"].as_str().expect("instructions");
        let head: String = text.chars().take(2048).collect();
        let lines = catalog
            .fallback()
            .expect("fallback")
            .instructions(f.tools, f.prompts);
        assert!(lines.chars().count() < 1200, "{} characters", lines.len());
        assert!(text.starts_with(lines), "{text}");
        assert!(
            head.contains(lines),
            "the fallback lines fit in the first 2048"
        );
        for w in words {
            assert!(lines.contains(w), "{f:?}: {w}");
        }
        if !f.tools {
            assert!(!lines.contains("list_skills"), "{lines}");
        }
        // The catalog's own instructions follow, unchanged.
        assert!(text.ends_with(&*catalog.instructions(Grant::PUBLIC)));
    }
    // Instructions given in the settings are sent as given.
    let custom = Responder::new(
        catalog.clone(),
        Config {
            instructions: Some("Only this.".into()),
            fallback: Fallback::ALL,
            ..Config::default()
        },
    )
    .expect("valid");
    let d = ok(
        &custom,
        &request(Era::Modern, 1, "server/discover", json!({})),
    );
    assert_eq!(d["instructions"], "Only this.");
    // A catalog of 60 skills with long descriptions: the lines still come first.
    let mut t = SourceTree::default();
    let long = "d".repeat(900);
    for i in 0..60 {
        let name = format!("skill-{i:02}");
        t.add_file(
            &format!("{name}/SKILL.md"),
            format!("---\nname: {name}\ndescription: {long}\n---\nBody.\n"),
        );
    }
    let c = Arc::new(Catalog::compile(t, None).expect("compiles"));
    let r = fallback_over(c.clone(), Fallback::ALL);
    let d = ok(&r, &request(Era::Modern, 1, "server/discover", json!({})));
    let text = d["instructions"].as_str().expect("instructions");
    assert!(text.chars().count() > 2048);
    let head: String = text.chars().take(2048).collect();
    assert!(head.contains(c.fallback().expect("fallback").instructions(true, true)));
}

// ------------------------------------------------------------------------------------------
// Tools
// ------------------------------------------------------------------------------------------

#[test]
fn tools_list_has_four_read_only_tools_with_cache_hints_at_2026() {
    let r = fallback_responder();
    let modern = ok(&r, &request(Era::Modern, 1, "tools/list", json!({})));
    assert_eq!(modern["resultType"], "complete");
    assert_eq!(modern["ttlMs"], 300_000);
    assert_eq!(modern["cacheScope"], "public");
    assert_eq!(modern["_meta"][SERVER_INFO]["name"], "skills-edge");
    assert!(modern.get("nextCursor").is_none());
    let legacy = ok(&r, &request(Era::Legacy, 1, "tools/list", json!({})));
    for f in ["resultType", "ttlMs", "cacheScope", "_meta"] {
        assert!(legacy.get(f).is_none(), "{f}");
    }
    assert_eq!(strip_2026(modern.clone()), legacy);
    let tools = modern["tools"].as_array().expect("tools");
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "list_skills",
            "read_skill",
            "read_skill_resource",
            "search_skills"
        ]
    );
    for t in tools {
        let name = t["name"].as_str().unwrap();
        assert!(
            name.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(&b)),
            "SEP-986 tool name"
        );
        let d = t["description"].as_str().unwrap();
        assert!(d.contains("not part of that extension"), "{name}: {d}");
        assert_eq!(t["inputSchema"]["type"], "object");
        assert_eq!(t["inputSchema"]["additionalProperties"], false);
        for k in ["oneOf", "anyOf", "allOf"] {
            assert!(
                t["inputSchema"].get(k).is_none(),
                "no top-level {k}: some hosts refuse it"
            );
        }
        assert_eq!(t["outputSchema"]["type"], "object");
        assert_eq!(t["annotations"]["readOnlyHint"], true);
        assert_eq!(t["annotations"]["openWorldHint"], false);
    }
    // The examples in the argument descriptions name real skills and files.
    let text = modern.to_string();
    assert!(text.contains("skill://acme/billing/refunds/SKILL.md"));
    // One page: any cursor is refused.
    let rpc = err(
        &r,
        &request(Era::Modern, 1, "tools/list", json!({"cursor": "AAAA"})),
    );
    assert_eq!(rpc.code(), Some(-32602));
    // The settings' cache hints apply.
    let private = Responder::new(
        embedded(),
        Config {
            ttl_ms: 5,
            cache_scope: skills_edge::protocol::CacheScope::Private,
            fallback: Fallback::ALL,
            ..Config::default()
        },
    )
    .expect("valid");
    for m in ["tools/list", "prompts/list"] {
        let res = ok(&private, &request(Era::Modern, 1, m, json!({})));
        assert_eq!(
            (res["ttlMs"].clone(), res["cacheScope"].clone()),
            (json!(5), json!("private"))
        );
    }
}

#[test]
fn list_skills_is_skills_list_in_short() {
    let r = fallback_responder();
    let all = entries(&r);
    for era in ERAS {
        let res = tool(&r, era, "list_skills", json!({}));
        assert_eq!(res["isError"], false);
        assert_eq!(res.get("resultType").is_some(), era == Era::Modern);
        assert!(
            res.get("ttlMs").is_none(),
            "tools/call results are not cacheable"
        );
        let s = &res["structuredContent"];
        let skills = s["skills"].as_array().expect("skills");
        assert_eq!(skills.len(), all.len());
        for (item, e) in skills.iter().zip(&all) {
            assert_eq!(item["uri"], e["uri"]);
            assert_eq!(item["name"], e["frontmatter"]["name"]);
            assert_eq!(item["description"], e["frontmatter"]["description"]);
            assert_eq!(
                item["revision"],
                e["_meta"]["io.github.skills-edge/revision"]
            );
            assert!(item["revision"].as_str().unwrap().starts_with("sha256:"));
        }
        // The text block is the same, as JSON text.
        let text = res["content"][0]["text"].as_str().expect("text");
        assert_eq!(serde_json::from_str::<Json>(text).expect("JSON"), *s);
        assert_eq!(res["content"].as_array().map(Vec::len), Some(1));
    }
    // `null` arguments and no arguments are both "no arguments".
    let a = tool(&r, Era::Modern, "list_skills", json!(null));
    let b = ok(
        &r,
        &request(Era::Modern, 1, "tools/call", json!({"name": "list_skills"})),
    );
    assert_eq!(a, b);
}

#[test]
fn read_skill_returns_every_skill_md_exactly_by_name_and_by_uri() {
    let r = fallback_responder();
    for e in entries(&r) {
        let uri = e["uri"].as_str().unwrap();
        let name = e["frontmatter"]["name"].as_str().unwrap();
        for era in ERAS {
            let by_name = tool(&r, era, "read_skill", json!({ "name": name }));
            let by_uri = tool(&r, era, "read_skill", json!({ "uri": uri }));
            assert_eq!(by_name, by_uri, "{uri}");
            assert_eq!(by_name["isError"], false);
            let (bytes, is_text, _) = read_bytes(&r, era, uri);
            assert!(is_text);
            let c = by_name["content"].as_array().expect("content");
            assert_eq!(c.len(), 2);
            assert_eq!(c[0]["type"], "text");
            assert_eq!(
                c[0]["text"].as_str().unwrap().as_bytes(),
                &bytes[..],
                "{uri}"
            );
            let s = &by_name["structuredContent"];
            assert_eq!(s["uri"], uri);
            assert_eq!(s["name"], name);
            assert_eq!(s["mimeType"], "text/markdown");
            assert_eq!(s["size"], bytes.len());
            assert_eq!(s["digest"], sha256_wire(&bytes));
            let manifest = e["resources"].as_array().unwrap();
            assert_eq!(manifest[0]["digest"], s["digest"]);
            let root = uri.strip_suffix("SKILL.md").unwrap();
            let files = s["files"].as_array().expect("files");
            assert_eq!(files.len(), manifest.len() - 1);
            for (f, m) in files.iter().zip(&manifest[1..]) {
                assert_eq!(f["uri"], m["uri"]);
                assert_eq!(f["digest"], m["digest"]);
                assert_eq!(f["size"], m["size"]);
                assert_eq!(
                    format!("{root}{}", f["path"].as_str().unwrap()),
                    m["uri"].as_str().unwrap()
                );
            }
            assert_eq!(
                serde_json::from_str::<Json>(c[1]["text"].as_str().unwrap()).unwrap(),
                *s
            );
        }
    }
}

#[test]
fn read_skill_resource_returns_every_file_exactly_by_uri_and_by_skill_and_path() {
    let r = fallback_responder();
    let (mut text, mut binary) = (0, 0);
    for e in entries(&r) {
        let skill_uri = e["uri"].as_str().unwrap();
        let name = e["frontmatter"]["name"].as_str().unwrap();
        let root = skill_uri.strip_suffix("SKILL.md").unwrap();
        for m in e["resources"].as_array().unwrap() {
            let uri = m["uri"].as_str().unwrap();
            let path = uri.strip_prefix(root).unwrap();
            for era in ERAS {
                let (bytes, is_text, item) = read_bytes(&r, era, uri);
                let by_path = tool(
                    &r,
                    era,
                    "read_skill_resource",
                    json!({"skill": name, "path": path}),
                );
                let by_skill_uri = tool(
                    &r,
                    era,
                    "read_skill_resource",
                    json!({"skill": skill_uri, "path": path}),
                );
                assert_eq!(by_path, by_skill_uri);
                let by_uri = tool(&r, era, "read_skill_resource", json!({ "uri": uri }));
                let s = &by_path["structuredContent"];
                assert_eq!(s["uri"], uri);
                assert_eq!(s["skill"], skill_uri);
                assert_eq!(s["path"], path);
                assert_eq!(s["mimeType"], item["mimeType"]);
                assert_eq!(s["size"], m["size"]);
                assert_eq!(s["digest"], m["digest"]);
                assert_eq!(s["digest"], sha256_wire(&bytes));
                let c = &by_path["content"][0];
                if is_text {
                    assert_eq!(c["type"], "text");
                    assert_eq!(c["text"].as_str().unwrap().as_bytes(), &bytes[..]);
                    text += 1;
                } else {
                    assert_eq!(c["type"], "resource");
                    // The embedded resource is the very contents item resources/read gives.
                    assert_eq!(c["resource"], item);
                    assert_eq!(content_bytes(&c["resource"]), bytes);
                    binary += 1;
                }
                assert_eq!(
                    serde_json::from_str::<Json>(by_path["content"][1]["text"].as_str().unwrap())
                        .unwrap(),
                    *s
                );
                // By URI, the file's innermost skill is named (nested skills have their own).
                let owner = by_uri["structuredContent"]["skill"].as_str().unwrap();
                assert!(uri.starts_with(owner.strip_suffix("SKILL.md").unwrap()));
                assert_eq!(by_uri["content"][0], by_path["content"][0]);
            }
        }
    }
    assert!(text > 10 && binary >= 2, "{text} text, {binary} binary");
    // A nested skill's file read through its parent names the parent.
    let res = tool(
        &r,
        Era::Modern,
        "read_skill_resource",
        json!({"skill": "release-notes", "path": "changelog-lint/references/rules.md"}),
    );
    assert_eq!(
        res["structuredContent"]["skill"],
        "skill://release-notes/SKILL.md"
    );
    let res = tool(
        &r,
        Era::Modern,
        "read_skill_resource",
        json!({"uri": "skill://release-notes/changelog-lint/references/rules.md"}),
    );
    assert_eq!(
        res["structuredContent"]["skill"],
        "skill://release-notes/changelog-lint/SKILL.md"
    );
    assert_eq!(res["structuredContent"]["path"], "references/rules.md");
}

#[test]
fn tool_errors_say_what_exists() {
    let r = fallback_responder();
    let cases: Vec<(&str, Json, Vec<&str>)> = vec![
        (
            "read_skill",
            json!({"name": "no-such-skill"}),
            vec![
                "no skill is named \"no-such-skill\"",
                "code-review (skill://code-review/SKILL.md)",
                "The 7 skills",
            ],
        ),
        (
            "read_skill",
            json!({"uri": "skill://no-such/SKILL.md"}),
            vec![
                "no skill has the SKILL.md URI",
                "skill://code-review/SKILL.md",
            ],
        ),
        (
            "read_skill",
            json!({"uri": "skill://code-review"}),
            vec!["is a skill's directory; its SKILL.md is skill://code-review/SKILL.md"],
        ),
        (
            "read_skill",
            json!({"uri": "skill://code-review/references/checklist.md"}),
            vec!["not a SKILL.md", "read_skill_resource"],
        ),
        (
            "read_skill",
            json!({"name": "skill://code-review/SKILL.md"}),
            vec!["give it as `uri`"],
        ),
        ("read_skill", json!({}), vec!["needs `name`", "code-review"]),
        (
            "read_skill",
            json!({"name": "code-review", "uri": "skill://code-review/SKILL.md"}),
            vec!["not both"],
        ),
        (
            "read_skill",
            json!({"name": 7}),
            vec!["`name` must be a string, not a number"],
        ),
        (
            "read_skill",
            json!({"name": ["code-review"]}),
            vec!["`name` must be a string, not an array"],
        ),
        (
            "read_skill",
            json!({"skill": "code-review"}),
            vec!["read_skill takes `name`, `uri`; `skill` is not one of its arguments"],
        ),
        (
            "list_skills",
            json!({"all": true}),
            vec!["list_skills takes no arguments; `all` is not one of its arguments"],
        ),
        (
            "read_skill_resource",
            json!({"uri": "skill://code-review/nope.md"}),
            vec![
                "not a file of the skill skill://code-review/SKILL.md",
                "SKILL.md, references/checklist.md",
            ],
        ),
        (
            "read_skill_resource",
            json!({"uri": "skill://code-review/../diagram-style/SKILL.md"}),
            vec!["`.` and `..` are not resolved", "references/checklist.md"],
        ),
        (
            "read_skill_resource",
            json!({"uri": "file:///etc/passwd"}),
            vec![
                "not a file this server serves",
                "skill://code-review/SKILL.md",
            ],
        ),
        (
            "read_skill_resource",
            json!({"uri": "skill://elsewhere/x.md"}),
            vec!["not a file this server serves"],
        ),
        (
            "read_skill_resource",
            json!({"uri": "skill://code-review/references"}),
            vec!["not a file of the skill"],
        ),
        (
            "read_skill_resource",
            json!({"skill": "code-review", "path": "../diagram-style/SKILL.md"}),
            vec![
                "no leading `/`, no empty, `.` or `..` segments",
                "references/checklist.md",
            ],
        ),
        (
            "read_skill_resource",
            json!({"skill": "code-review", "path": "/etc/passwd"}),
            vec!["no leading `/`"],
        ),
        (
            "read_skill_resource",
            json!({"skill": "code-review", "path": "references/./checklist.md"}),
            vec!["`.` or `..` segments"],
        ),
        (
            "read_skill_resource",
            json!({"skill": "code-review", "path": "references\\checklist.md"}),
            vec!["must be a path inside"],
        ),
        (
            "read_skill_resource",
            json!({"skill": "code-review", "path": ""}),
            vec!["must be a path inside"],
        ),
        (
            "read_skill_resource",
            json!({"skill": "code-review", "path": "references/nope.md"}),
            vec![
                "has no file \"references/nope.md\"",
                "references/checklist.md",
            ],
        ),
        (
            "read_skill_resource",
            json!({"skill": "nope", "path": "SKILL.md"}),
            vec!["no skill is named \"nope\""],
        ),
        (
            "read_skill_resource",
            json!({"skill": "code-review"}),
            vec!["`skill` needs `path` too"],
        ),
        (
            "read_skill_resource",
            json!({"path": "SKILL.md"}),
            vec!["`path` needs `skill` too"],
        ),
        ("read_skill_resource", json!({}), vec!["needs `uri`"]),
        (
            "read_skill_resource",
            json!({"uri": "skill://code-review/SKILL.md", "path": "SKILL.md"}),
            vec!["not both"],
        ),
        (
            "read_skill_resource",
            json!({"uri": {"href": "x"}}),
            vec!["`uri` must be a string, not an object"],
        ),
        (
            "read_skill_resource",
            json!({"skill": "code-review", "path": true}),
            vec!["`path` must be a string, not a boolean"],
        ),
    ];
    for (name, args, words) in cases {
        let text = tool_err(&r, name, args.clone());
        for w in words {
            assert!(text.contains(w), "{name} {args}: {w:?} not in {text:?}");
        }
    }
    // `null` for an optional argument is as good as leaving it out (models send it).
    let a = tool(
        &r,
        Era::Modern,
        "read_skill",
        json!({"name": "code-review", "uri": null}),
    );
    assert_eq!(a["isError"], false);
    // Echoed values are clipped.
    let text = tool_err(&r, "read_skill", json!({"name": "x".repeat(5000)}));
    assert!(text.len() < 2000, "{} bytes", text.len());
}

#[test]
fn protocol_errors_for_unknown_tools_and_bad_params() {
    let r = fallback_responder();
    for era in ERAS {
        let rpc = err(
            &r,
            &request(era, 1, "tools/call", json!({"name": "test_simple_text"})),
        );
        assert_eq!((rpc.status, rpc.code()), (200, Some(-32602)));
        assert_eq!(
            rpc.json["error"]["data"],
            json!({"name": "test_simple_text"})
        );
        assert!(
            rpc.message()
                .contains("list_skills, read_skill, read_skill_resource and search_skills"),
            "{}",
            rpc.message()
        );
        for params in [
            json!({}),
            json!({"name": 1}),
            json!({"name": null}),
            json!({"name": "read_skill", "arguments": "code-review"}),
            json!({"name": "read_skill", "arguments": ["code-review"]}),
            json!({"name": "read_skill", "arguments": 5}),
        ] {
            let rpc = err(&r, &request(era, 1, "tools/call", params.clone()));
            assert_eq!(rpc.code(), Some(-32602), "{params}");
        }
        let rpc = err(&r, &request(era, 1, "prompts/get", json!({"name": "nope"})));
        assert_eq!(rpc.code(), Some(-32602));
        assert_eq!(rpc.json["error"]["data"], json!({"name": "nope"}));
        for params in [
            json!({}),
            json!({"name": ["code-review"]}),
            json!({"name": "code-review", "arguments": {"topic": "x"}}),
            json!({"name": "code-review", "arguments": {"topic": 1}}),
            json!({"name": "code-review", "arguments": "x"}),
        ] {
            let rpc = err(&r, &request(era, 1, "prompts/get", params.clone()));
            assert_eq!(rpc.code(), Some(-32602), "{params}");
        }
    }
    // An unknown prompt is named as such, arguments or not.
    let rpc = err(
        &r,
        &request(
            Era::Modern,
            1,
            "prompts/get",
            json!({"name": "nope", "arguments": {"a": "b"}}),
        ),
    );
    assert_eq!(rpc.json["error"]["data"], json!({"name": "nope"}));
    assert!(
        rpc.message().starts_with("Unknown prompt: nope"),
        "{}",
        rpc.message()
    );
    // A repeated `name` is a malformed params object.
    let m = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_skills","name":"read_skill"}}"#;
    assert_eq!(err(&r, m).code(), Some(-32602));
    // Empty arguments for a prompt are fine.
    let res = ok(
        &r,
        &request(
            Era::Modern,
            1,
            "prompts/get",
            json!({"name": "code-review", "arguments": {}}),
        ),
    );
    assert!(res["messages"].is_array());
}

// ------------------------------------------------------------------------------------------
// Prompts
// ------------------------------------------------------------------------------------------

#[test]
fn one_prompt_per_skill_with_its_skill_md_and_links_to_its_files() {
    let r = fallback_responder();
    let all = entries(&r);
    let modern = ok(&r, &request(Era::Modern, 1, "prompts/list", json!({})));
    assert_eq!(
        (modern["ttlMs"].clone(), modern["cacheScope"].clone()),
        (json!(300_000), json!("public"))
    );
    let legacy = ok(&r, &request(Era::Legacy, 1, "prompts/list", json!({})));
    assert_eq!(strip_2026(modern.clone()), legacy);
    let prompts = modern["prompts"].as_array().expect("prompts");
    assert_eq!(prompts.len(), all.len());
    let names: Vec<&str> = prompts
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted, "in name order");
    // The embedded catalog's names are unique, so each prompt is named after its skill.
    let skill_names: BTreeSet<&str> = all
        .iter()
        .map(|e| e["frontmatter"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.iter().copied().collect::<BTreeSet<_>>(), skill_names);
    for p in prompts {
        assert!(
            p.get("title").is_none(),
            "no title: some clients invoke prompts by title"
        );
        assert!(p.get("arguments").is_none());
        let e = all
            .iter()
            .find(|e| e["frontmatter"]["name"] == p["name"])
            .unwrap();
        assert_eq!(p["description"], e["frontmatter"]["description"]);
        for era in ERAS {
            let g = ok(
                &r,
                &request(era, 1, "prompts/get", json!({"name": p["name"]})),
            );
            assert_eq!(g.get("resultType").is_some(), era == Era::Modern);
            assert!(g.get("ttlMs").is_none(), "prompts/get is not cacheable");
            assert_eq!(g["description"], p["description"]);
            let msgs = g["messages"].as_array().unwrap();
            let manifest = e["resources"].as_array().unwrap();
            assert_eq!(msgs.len(), manifest.len());
            let (_, _, item) = read_bytes(&r, era, e["uri"].as_str().unwrap());
            assert_eq!(
                msgs[0],
                json!({"role": "user", "content": {"type": "resource", "resource": item}})
            );
            let root = e["uri"].as_str().unwrap().strip_suffix("SKILL.md").unwrap();
            for (msg, m) in msgs[1..].iter().zip(&manifest[1..]) {
                assert_eq!(msg["role"], "user");
                let c = &msg["content"];
                assert_eq!(c["type"], "resource_link");
                assert_eq!(c["uri"], m["uri"]);
                assert_eq!(c["size"], m["size"]);
                assert_eq!(
                    format!("{root}{}", c["name"].as_str().unwrap()),
                    m["uri"].as_str().unwrap()
                );
                let (_, _, item) = read_bytes(&r, era, m["uri"].as_str().unwrap());
                assert_eq!(c["mimeType"], item["mimeType"]);
            }
        }
    }
    let rpc = err(
        &r,
        &request(Era::Modern, 1, "prompts/list", json!({"cursor": "AAAA"})),
    );
    assert_eq!(rpc.code(), Some(-32602));
}

#[test]
fn shared_names_and_prefixes_stay_distinguishable() {
    let mut t = SourceTree::default();
    for path in [
        "acme/billing/refunds",
        "acme/support/refunds",
        "refunds-policy",
        "a.b/x",
        "a/b/x",
        "solo",
        "solo/inner",
    ] {
        let name = path.rsplit('/').next().unwrap();
        t.add_file(&format!("{path}/SKILL.md"), skill_md(name, ""));
    }
    t.add_file("acme/billing/refunds/notes.md", "billing\n");
    let compiled = compile::compile(t.clone()).expect("compiles");
    let names = compiled.prompt_names();
    let distinct: BTreeSet<&String> = names.iter().collect();
    assert_eq!(distinct.len(), names.len(), "{names:?}");
    let by_uri: Vec<(&str, &str)> = compiled
        .skills
        .iter()
        .zip(&names)
        .map(|(s, n)| (s.uri.as_str(), n.as_str()))
        .collect();
    assert_eq!(
        by_uri,
        [
            ("skill://a.b/x/SKILL.md", "a.b.x"),
            ("skill://a/b/x/SKILL.md", "a.b.x-2"),
            (
                "skill://acme/billing/refunds/SKILL.md",
                "acme.billing.refunds"
            ),
            (
                "skill://acme/support/refunds/SKILL.md",
                "acme.support.refunds"
            ),
            ("skill://refunds-policy/SKILL.md", "refunds-policy"),
            ("skill://solo/SKILL.md", "solo"),
            ("skill://solo/inner/SKILL.md", "inner"),
        ]
    );
    let r = fallback_over(
        Arc::new(Catalog::compile(t, None).expect("loads")),
        Fallback::ALL,
    );
    // A shared name is ambiguous for read_skill, and the error names every candidate.
    let text = tool_err(&r, "read_skill", json!({"name": "refunds"}));
    assert!(text.contains("2 skills are named \"refunds\""), "{text}");
    assert!(
        text.contains("skill://acme/billing/refunds/SKILL.md")
            && text.contains("skill://acme/support/refunds/SKILL.md")
    );
    let text = tool_err(
        &r,
        "read_skill_resource",
        json!({"skill": "x", "path": "SKILL.md"}),
    );
    assert!(text.contains("2 skills are named \"x\""), "{text}");
    // The URI picks one; so does the prompt name.
    let res = tool(
        &r,
        Era::Modern,
        "read_skill",
        json!({"uri": "skill://acme/support/refunds/SKILL.md"}),
    );
    assert_eq!(
        res["structuredContent"]["uri"],
        "skill://acme/support/refunds/SKILL.md"
    );
    let g = ok(
        &r,
        &request(
            Era::Modern,
            1,
            "prompts/get",
            json!({"name": "acme.billing.refunds"}),
        ),
    );
    assert_eq!(
        g["messages"][0]["content"]["resource"]["uri"],
        "skill://acme/billing/refunds/SKILL.md"
    );
    assert_eq!(g["messages"][1]["content"]["name"], "notes.md");
    let g = ok(
        &r,
        &request(Era::Modern, 1, "prompts/get", json!({"name": "a.b.x-2"})),
    );
    assert_eq!(
        g["messages"][0]["content"]["resource"]["uri"],
        "skill://a/b/x/SKILL.md"
    );
    // The bare shared name is not a prompt.
    assert_eq!(
        err(
            &r,
            &request(Era::Modern, 1, "prompts/get", json!({"name": "refunds"}))
        )
        .code(),
        Some(-32602)
    );
    // A unique name is its own prompt, and read_skill finds it by name.
    let res = tool(&r, Era::Modern, "read_skill", json!({"name": "inner"}));
    assert_eq!(
        res["structuredContent"]["uri"],
        "skill://solo/inner/SKILL.md"
    );
}

// ------------------------------------------------------------------------------------------
// HTTP header mirroring
// ------------------------------------------------------------------------------------------

#[test]
fn mcp_name_mirrors_the_tool_and_prompt_name_over_http() {
    let r = fallback_responder();
    let b64 = |s: &str| {
        use base64::Engine as _;
        format!(
            "=?base64?{}?=",
            base64::engine::general_purpose::STANDARD.encode(s)
        )
    };
    let call_m = request(Era::Modern, 1, "tools/call", json!({"name": "list_skills"}));
    let prompt_m = request(
        Era::Modern,
        1,
        "prompts/get",
        json!({"name": "code-review"}),
    );
    let encoded = b64("list_skills");
    type Case<'a> = (&'a [u8], &'a str, Option<&'a str>, (u16, Option<i64>));
    let cases: Vec<Case<'_>> = vec![
        (&call_m, "tools/call", Some("list_skills"), (200, None)),
        (&call_m, "tools/call", Some(&encoded), (200, None)),
        (&call_m, "tools/call", None, (400, Some(-32020))),
        (
            &call_m,
            "tools/call",
            Some("read_skill"),
            (400, Some(-32020)),
        ),
        (&prompt_m, "prompts/get", Some("code-review"), (200, None)),
        (&prompt_m, "prompts/get", None, (400, Some(-32020))),
        (
            &prompt_m,
            "prompts/get",
            Some("diagram-style"),
            (400, Some(-32020)),
        ),
        (
            &prompt_m,
            "prompts/get",
            Some("=?base64?%%%?="),
            (400, Some(-32020)),
        ),
    ];
    for (m, method, name, want) in cases {
        let rpc = call(&r, m, &http(Some(MODERN), Some(method), name));
        assert_eq!(
            (rpc.status, rpc.code()),
            want,
            "{method} {name:?}: {}",
            rpc.text
        );
        if want.1 == Some(-32020) && name.is_none() {
            assert!(
                rpc.message().contains(&format!("required on {method}")),
                "{}",
                rpc.message()
            );
        }
    }
    // A missing name is reported by the method (-32602), whatever Mcp-Name says.
    let m = request(Era::Modern, 1, "tools/call", json!({}));
    let rpc = call(
        &r,
        &m,
        &http(Some(MODERN), Some("tools/call"), Some("list_skills")),
    );
    assert_eq!(rpc.code(), Some(-32602));
    // The list methods need no Mcp-Name.
    let m = request(Era::Modern, 1, "tools/list", json!({}));
    let rpc = call(&r, &m, &http(Some(MODERN), Some("tools/list"), None));
    assert!(rpc.result().is_some());
}

// ------------------------------------------------------------------------------------------
// Assets and packs
// ------------------------------------------------------------------------------------------

fn asset_tree() -> SourceTree {
    let mut t = SourceTree::default();
    t.add_file(
        "big/SKILL.md",
        format!("{}{}\n", skill_md("big", ""), "Long line. ".repeat(40)),
    );
    t.add_file("big/references/long.md", "x".repeat(500));
    t.add_file(
        "big/assets/blob.bin",
        (0u8..=255).cycle().take(300).collect::<Vec<u8>>(),
    );
    t.add_file("big/small.txt", "tiny\n");
    t
}

#[test]
fn results_are_spliced_around_assets_and_equal_the_inline_ones() {
    let compiled = compile::compile(asset_tree()).expect("compiles");
    let inline = fallback_over(
        Arc::new(Catalog::from_bytes(pack::encode(&compiled, None)).unwrap()),
        Fallback::ALL,
    );
    let packed = pack::encode_with(
        &compiled,
        &pack::PackOptions {
            instructions: None,
            assets: Some(pack::AssetPolicy { inline_max: 64 }),
        },
    );
    let external = fallback_over(
        Arc::new(Catalog::from_bytes(packed.pack.clone()).unwrap()),
        Fallback::ALL,
    );
    let asset = |name: &str| {
        packed
            .assets
            .iter()
            .find(|a| a.name == name)
            .map(|a| a.bytes.clone())
    };
    let mut spliced = 0;
    for era in ERAS {
        let mut msgs = vec![
            request(
                era,
                1,
                "tools/call",
                json!({"name": "read_skill", "arguments": {"name": "big"}}),
            ),
            request(era, 1, "prompts/get", json!({"name": "big"})),
        ];
        for f in &compiled.files {
            msgs.push(request(
                era,
                1,
                "tools/call",
                json!({"name": "read_skill_resource", "arguments": {"uri": f.uri}}),
            ));
        }
        for m in msgs {
            let whole = inline.respond(&m, &Transport::Stream, Grant::PUBLIC);
            let reply = external.respond(&m, &Transport::Stream, Grant::PUBLIC);
            if reply.splice.is_some() {
                spliced += 1;
            }
            assert_eq!(
                assemble(reply, asset),
                whole,
                "{}",
                String::from_utf8_lossy(&m)
            );
        }
    }
    assert_eq!(
        spliced,
        2 * 5,
        "read_skill, prompts/get and the three large files, in two eras"
    );
    // A missing asset is a loud -32603 naming the file.
    let m = request(
        Era::Modern,
        9,
        "tools/call",
        json!({"name": "read_skill_resource", "arguments": {"uri": "skill://big/assets/blob.bin"}}),
    );
    let rpc = check_reply(&assemble(
        external.respond(&m, &Transport::Stream, Grant::PUBLIC),
        |_| None,
    ))
    .unwrap()
    .unwrap();
    assert_eq!((rpc.status, rpc.code()), (500, Some(-32603)));
    assert_eq!(
        rpc.json["error"]["data"]["uri"],
        "skill://big/assets/blob.bin"
    );
}

/// The pack without some of its sections (by tag), resealed. The table is found by the pack
/// module's own reader ([`pack::section_table`]), so a change of the record layouts moves it too.
fn without_sections(pack: &[u8], drop: &[u32]) -> Vec<u8> {
    let t = pack::section_table(pack).expect("a pack with a table of sections");
    let end = t.start + t.record_len * t.count;
    let kept: Vec<u8> = pack[t.start..end]
        .chunks_exact(t.record_len)
        .filter(|rec| !drop.contains(&u32::from_le_bytes([rec[0], rec[1], rec[2], rec[3]])))
        .flatten()
        .copied()
        .collect();
    let mut out = pack[..t.start].to_vec();
    out[t.count_at..t.count_at + 4]
        .copy_from_slice(&((kept.len() / t.record_len) as u32).to_le_bytes());
    out.extend_from_slice(&kept);
    out.extend_from_slice(&pack[end..]);
    pack::seal(&mut out);
    out
}

#[test]
fn a_pack_without_the_fallback_sections_serves_without_it_and_says_so_when_asked() {
    let compiled = compile::compile(asset_tree()).expect("compiles");
    let full = pack::encode(&compiled, None);
    let old = without_sections(&full, &[3, 4, 5, 6, 7, 8, 9]);
    assert!(old.len() < full.len());
    let c = Arc::new(Catalog::from_bytes(old).expect("a pack without the fallback sections loads"));
    assert!(c.fallback().is_none());
    assert!(c.skills_named("big").is_empty());
    // Off, it serves as before.
    let r = responder_over(c.clone(), 50);
    assert!(ok(&r, &request(Era::Modern, 1, "skills/list", json!({})))["skills"].is_array());
    // On, the responder is refused with a message that says what to do.
    for f in [TOOLS, PROMPTS, Fallback::ALL] {
        let e = Responder::new(
            c.clone(),
            Config {
                fallback: f,
                ..Config::default()
            },
        )
        .err()
        .expect("refused");
        assert!(
            e.to_string().contains("rebuild it with this version"),
            "{e}"
        );
    }
    // Some but not all of the sections: the pack itself is refused.
    for tag in 3..=9 {
        let e = refused!(
            Catalog::from_bytes(without_sections(&full, &[tag])),
            PackErrorKind::Inconsistent,
        );
        assert!(e.contains("fallback sections are incomplete"), "{tag}: {e}");
    }
    // Unknown sections are still ignored.
    assert!(Catalog::from_bytes(full)
        .expect("loads")
        .fallback()
        .is_some());
}

#[test]
fn the_fallback_of_the_embedded_pack_is_what_the_compiler_renders() {
    let c = embedded();
    let f = c.fallback().expect("the embedded pack has the fallback");
    let r = fallback_responder();
    let tools = ok(&r, &request(Era::Modern, 1, "tools/list", json!({})));
    // The compiler's three tools, then search_skills (the responder's, docs/search.md).
    let mut compiled = serde_json::from_str::<Json>(f.tools_json()).unwrap();
    if let Some(list) = compiled.as_array_mut() {
        list.push(tools["tools"][3].clone());
    }
    assert_eq!(tools["tools"], compiled);
    assert_eq!(tools["tools"][3]["name"], "search_skills");
    for (i, s) in c.skills().enumerate() {
        let name = f.prompt_name(i).expect("a prompt");
        assert_eq!(f.prompt(name), Some(i));
        assert_eq!(c.skills_named(s.name), vec![i]);
        assert_eq!(c.skill_index(s.uri), Some(i));
        let under: Vec<&str> = c
            .files_under(s.uri.strip_suffix("SKILL.md").unwrap())
            .map(|f| f.uri)
            .collect();
        assert!(under.contains(&s.uri));
    }
}
