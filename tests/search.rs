//! The `search_skills` tool (docs/search.md): offered with the tools fallback and, alone, with
//! `fallback = search` beside the Skills extension; every result a `skill://` URI that
//! `skills/get` serves; bad arguments a tool error naming the argument and its bounds; and a
//! caller's results byte-identical between two catalogs that differ only in skills it may not
//! see (tests/fixtures/hidden-views, as tests/cursors.rs compares lists).

use crate::common::{fallback_over, ok, request, ERAS};
use serde_json::{json, Value as Json};
use skills_edge::catalog::compile::SourceTree;
use skills_edge::catalog::walk::walk;
use skills_edge::catalog::{Catalog, Grant};
use skills_edge::protocol::Era;
use skills_edge::server::{Fallback, Responder, Transport};
use std::path::PathBuf;
use std::sync::Arc;

const SEARCH: Fallback = Fallback {
    tools: false,
    prompts: false,
    search: true,
};

fn skill_md(name: &str, description: &str, extra: &str) -> String {
    format!("---\nname: {name}\ndescription: {description}\n{extra}---\n# {name}\n")
}

fn small() -> Arc<Catalog> {
    let mut tree = SourceTree::default();
    for (name, description, extra) in [
        (
            "pdf-forms",
            "Fill in PDF forms and flatten them.",
            "metadata:\n  tags: pdf, forms\n",
        ),
        (
            "csv-clean",
            "Clean CSV files and fix their encodings.",
            "metadata:\n  tags: data\n",
        ),
        ("git-bisect", "Find the commit that broke a test.", ""),
    ] {
        tree.add_file(
            &format!("{name}/SKILL.md"),
            skill_md(name, description, extra).as_str(),
        );
    }
    Arc::new(Catalog::compile(tree, None).expect("compiles"))
}

fn call(r: &Responder, era: Era, args: Json) -> Json {
    ok(
        r,
        &request(
            era,
            1,
            "tools/call",
            json!({"name": "search_skills", "arguments": args}),
        ),
    )
}

fn tool_error(r: &Responder, args: Json) -> String {
    let res = call(r, Era::Modern, args.clone());
    assert_eq!(res["isError"], true, "{args}: {res}");
    res["content"][0]["text"].as_str().expect("text").to_owned()
}

#[test]
fn search_alone_is_one_tool_beside_the_extension() {
    let r = fallback_over(small(), SEARCH);
    for era in ERAS {
        let tools = ok(&r, &request(era, 1, "tools/list", json!({})));
        let names: Vec<&str> = tools["tools"]
            .as_array()
            .expect("tools")
            .iter()
            .filter_map(|t| t["name"].as_str())
            .collect();
        assert_eq!(names, ["search_skills"]);
        let tool = &tools["tools"][0];
        assert_eq!(tool["inputSchema"]["required"], json!(["query"]));
        assert_eq!(tool["outputSchema"]["required"], json!(["results"]));
        let reply = r.respond(
            &request(era, 1, "tools/call", json!({"name": "list_skills"})),
            &Transport::Stream,
            Grant::PUBLIC,
        );
        let body: Json = serde_json::from_slice(&reply.body.expect("a reply")).expect("JSON");
        assert_eq!(body["error"]["code"], -32602, "{body}");
        assert!(body["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("search_skills"));
    }
}

#[test]
fn the_tools_fallback_lists_search_with_its_three_tools() {
    let r = fallback_over(
        small(),
        Fallback {
            tools: true,
            ..Fallback::NONE
        },
    );
    let tools = ok(&r, &request(Era::Modern, 1, "tools/list", json!({})));
    let names: Vec<&str> = tools["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(
        names,
        [
            "list_skills",
            "read_skill",
            "read_skill_resource",
            "search_skills"
        ]
    );
}

#[test]
fn each_result_is_a_skill_uri_that_skills_get_serves() {
    let r = fallback_over(small(), SEARCH);
    for era in ERAS {
        let res = call(&r, era, json!({"query": "fill in a form", "limit": 3}));
        assert_eq!(res["isError"], false, "{res}");
        let results = res["structuredContent"]["results"]
            .as_array()
            .expect("results");
        assert_eq!(results[0]["uri"], "skill://pdf-forms/SKILL.md");
        assert_eq!(results[0]["name"], "pdf-forms");
        assert_eq!(
            results[0]["description"],
            "Fill in PDF forms and flatten them."
        );
        assert!(results[0]["score"].as_f64().is_some_and(|s| s > 0.0));
        // The text block is the same JSON.
        let text: Json =
            serde_json::from_str(res["content"][0]["text"].as_str().expect("text")).expect("JSON");
        assert_eq!(text, res["structuredContent"]);
        for hit in results {
            let uri = hit["uri"].as_str().expect("uri");
            assert!(uri.starts_with("skill://") && uri.ends_with("/SKILL.md"));
            if era == Era::Modern {
                let got = ok(&r, &request(era, 2, "skills/get", json!({"uri": uri})));
                assert_eq!(got["skill"]["uri"], uri);
            }
        }
        let tagged = call(&r, era, json!({"query": "clean files", "tags": ["data"]}));
        let uris: Vec<&str> = tagged["structuredContent"]["results"]
            .as_array()
            .expect("results")
            .iter()
            .filter_map(|h| h["uri"].as_str())
            .collect();
        assert_eq!(uris, ["skill://csv-clean/SKILL.md"]);
    }
}

/// The text of a `tools/call` of `search_skills` whose arguments are `raw` (JSON text that
/// `json!` cannot write: a lone surrogate escape, a number past `f64`'s range).
fn raw_call(r: &Responder, era: Era, raw: &str) -> Json {
    let msg = String::from_utf8(request(
        era,
        1,
        "tools/call",
        json!({"name": "search_skills", "arguments": "RAW"}),
    ))
    .expect("UTF-8")
    .replace("\"RAW\"", raw);
    ok(r, msg.as_bytes())
}

/// A lone UTF-16 surrogate escape and a number past `f64`'s range are JSON by its grammar,
/// but no string or number can hold them: each is a tool error naming its argument and what
/// it must be, as for any other bad argument.
#[test]
fn values_json_allows_but_no_string_or_number_holds_are_tool_errors_naming_the_argument() {
    let r = fallback_over(small(), SEARCH);
    for era in ERAS {
        for (raw, says) in [
            (
                r#"{"query": "pdf \ud800 forms"}"#,
                "`query` must be a string",
            ),
            (
                r#"{"query": "pdf", "tags": ["\udc00"]}"#,
                "`tags` must be an array of strings",
            ),
            (
                r#"{"query": "pdf", "limit": 1e400}"#,
                "`limit` must be an integer from 1 to 50",
            ),
            (
                r#"{"query": "pdf", "limit": -1e400}"#,
                "`limit` must be an integer from 1 to 50",
            ),
            (
                r#"{"query": "pdf", "sort": 1e400}"#,
                "`sort` is not one of its arguments",
            ),
        ] {
            let res = raw_call(&r, era, raw);
            assert_eq!(res["isError"], true, "{era:?} {raw}: {res}");
            let text = res["content"][0]["text"].as_str().expect("text");
            assert!(text.contains(says), "{era:?} {raw}: {text}");
        }
        let text =
            raw_call(&r, era, r#"{"query": "pdf \ud800 forms"}"#)["content"][0]["text"].clone();
        assert!(
            text.as_str().is_some_and(|t| t.contains("surrogate")),
            "{text}"
        );
        let text =
            raw_call(&r, era, r#"{"query": "pdf", "limit": 1e400}"#)["content"][0]["text"].clone();
        assert!(
            text.as_str().is_some_and(|t| t.contains("(1e400)")),
            "{text}"
        );
        // A refused number is shown as it was sent, where `f64` would not hold it.
        for n in [
            "18446744073709551617",
            "-9223372036854775809",
            "1e-400",
            "-0",
            "1e400",
        ] {
            let res = raw_call(&r, era, &format!(r#"{{"query": "pdf", "limit": {n}}}"#));
            let text = res["content"][0]["text"]
                .as_str()
                .unwrap_or_default()
                .to_owned();
            assert!(text.contains(&format!("{n})")), "{n}: {text}");
        }
        // A long tag is echoed cut, and says so.
        let res = call(&r, era, json!({"query": "pdf", "tags": ["x".repeat(100)]}));
        let text = res["content"][0]["text"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        assert!(text.contains("… (100 characters)"), "{text}");
        // A pair is text, and is searched.
        let paired = raw_call(&r, era, r#"{"query": "pdf \ud83d\ude00 forms"}"#);
        assert_eq!(paired["isError"], false, "{paired}");
    }
}

#[test]
fn bad_arguments_are_tool_errors_that_name_the_argument_and_its_bounds() {
    let r = fallback_over(small(), SEARCH);
    for (args, says) in [
        (json!({}), "needs `query`"),
        (json!({"query": 3}), "`query` must be a string"),
        (json!({"query": ""}), "`query` is empty"),
        (json!({"query": "?!?! ..."}), "`query` has no word"),
        (json!({"query": "x".repeat(1001)}), "1 to 1000"),
        (
            json!({"query": "pdf", "limit": 0}),
            "`limit` must be an integer from 1 to 50 (got 0)",
        ),
        (
            json!({"query": "pdf", "limit": 51}),
            "`limit` must be an integer from 1 to 50 (got 51)",
        ),
        (
            json!({"query": "pdf", "limit": 9007199254740993_u64}),
            "`limit` must be an integer from 1 to 50 (got 9007199254740993)",
        ),
        (
            json!({"query": "pdf", "limit": null}),
            "`limit` must be an integer from 1 to 50, not null",
        ),
        (
            json!({"query": "pdf", "tags": null}),
            "`tags` must be an array of strings (tags of the skills' metadata.tags), not null",
        ),
        (
            json!({"query": format!("pdf {}", (0..32).map(|i| format!("w{i}")).collect::<Vec<_>>().join(" "))}),
            "more than 32 words",
        ),
        (
            json!({"query": "pdf", "limit": -1}),
            "`limit` must be an integer from 1 to 50",
        ),
        (
            json!({"query": "pdf", "limit": 2.5}),
            "`limit` must be an integer from 1 to 50",
        ),
        (
            json!({"query": "pdf", "limit": "5"}),
            "`limit` must be an integer",
        ),
        (
            json!({"query": "pdf", "limit": 1e20}),
            "`limit` must be an integer from 1 to 50 (got 1e+20)",
        ),
        (
            json!({"query": "pdf", "tags": "pdf"}),
            "`tags` must be an array of strings",
        ),
        (
            json!({"query": "pdf", "tags": [1]}),
            "`tags` must be an array of strings",
        ),
        (
            json!({"query": "pdf", "tags": ["nope"]}),
            "no skill carries the tag \"nope\"",
        ),
        (
            json!({"query": "pdf", "sort": "name"}),
            "`sort` is not one of its arguments",
        ),
    ] {
        let text = tool_error(&r, args.clone());
        assert!(text.contains(says), "{args}: {text}");
    }
}

#[test]
fn what_the_tools_input_schema_allows_is_accepted() {
    // JSON Schema's `integer` includes 10.0; its `maxLength` counts characters, and 250 of
    // the widest (4 bytes each) are the 1000 bytes the server reads.
    let r = fallback_over(small(), SEARCH);
    for era in ERAS {
        let whole = call(&r, era, json!({"query": "fill in a form", "limit": 1.0}));
        assert_eq!(whole["isError"], false, "{whole}");
        assert_eq!(
            whole["structuredContent"]["results"]
                .as_array()
                .map(Vec::len),
            Some(1)
        );
        let wide = call(
            &r,
            era,
            json!({"query": format!("form {}", "\u{1F600}".repeat(248))}),
        );
        assert_eq!(wide["isError"], false, "{wide}");
    }
    let listed = ok(&r, &request(Era::Modern, 1, "tools/list", json!({})));
    let tool = &listed["tools"][0];
    assert_eq!(tool["name"], "search_skills");
    assert_eq!(tool["inputSchema"]["properties"]["query"]["maxLength"], 250);
}

#[test]
fn a_query_for_a_hidden_skill_reads_as_for_an_absent_one() {
    let fixture = |name: &str| {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/hidden-views")
            .join(name);
        Arc::new(Catalog::compile(walk(&dir).tree, None).expect("the fixture compiles"))
    };
    let (one, four) = (fixture("one"), fixture("four"));
    let queries = [
        json!({"query": "audit the tools"}),
        json!({"query": "runbook ops deep"}),
        json!({"query": "invoices billing rates"}),
        json!({"query": "public skill of the hidden-views fixture", "limit": 50}),
        json!({"query": "lint rules", "limit": 1}),
        json!({"query": "starts things"}),
        json!({"query": "skill", "tags": ["ops"]}),
        json!({"query": ""}),
    ];
    let mut with_results = 0;
    for scopes in [&[][..], &["billing"][..]] {
        let (ga, gb) = (one.grant(scopes), four.grant(scopes));
        let (ra, rb) = (
            fallback_over(one.clone(), SEARCH),
            fallback_over(four.clone(), SEARCH),
        );
        for era in ERAS {
            for q in &queries {
                let msg = request(
                    era,
                    1,
                    "tools/call",
                    json!({"name": "search_skills", "arguments": q}),
                );
                let a = ra
                    .respond(&msg, &Transport::Stream, ga)
                    .body
                    .unwrap_or_default();
                let b = rb
                    .respond(&msg, &Transport::Stream, gb)
                    .body
                    .unwrap_or_default();
                assert_eq!(
                    String::from_utf8_lossy(&a),
                    String::from_utf8_lossy(&b),
                    "{scopes:?} {q}"
                );
                with_results += usize::from(String::from_utf8_lossy(&a).contains("\"score\":"));
            }
        }
    }
    assert!(with_results >= 12, "{with_results} answers had results");
    // The hidden skills are there for a caller that holds their scopes.
    let ops = four.grant(&["ops"]);
    let hits = four.search(ops, "runbook", &[], 5).expect("searches");
    assert!(
        hits.iter().any(|h| h.uri.contains("m-ops/runbook")),
        "{hits:?}"
    );
}

#[test]
fn a_bad_tag_is_a_build_error_naming_file_line_and_fix() {
    let mut tree = SourceTree::default();
    tree.add_file(
        "pdf/SKILL.md",
        "---\nname: pdf\ndescription: Read PDFs.\nmetadata:\n  owner: docs\n  tags: PDF, forms\n---\n# PDF\n",
    );
    let Err(e) = Catalog::compile(tree, None) else {
        panic!("an upper-case tag compiles");
    };
    let text = format!("{e:?}");
    assert!(
        text.contains("metadata-tags") || text.contains("MetadataTags"),
        "{text}"
    );
    let skills_edge::catalog::CatalogError::Compile(c) = e else {
        panic!("{text}");
    };
    let d = c
        .diagnostics
        .iter()
        .find(|d| d.rule.id() == "metadata-tags")
        .expect("the rule");
    assert_eq!((d.path.as_str(), d.line), ("pdf/SKILL.md", Some(6)));
    assert!(
        d.message.contains("\"PDF\"") && d.fix.contains("tags: \"pdf, forms\""),
        "{d:?}"
    );
}

/// `metadata.tags` of another type than a string is refused at its line, with the one form
/// tags take as the fix (quoting a list would give a string the tags' grammar refuses).
#[test]
fn tags_of_another_type_are_a_build_error_at_their_line_with_the_form_tags_take() {
    for tags in ["[pdf, forms]", "5", "\n    - pdf\n    - forms"] {
        let mut tree = SourceTree::default();
        tree.add_file(
            "pdf/SKILL.md",
            format!("---\nname: pdf\ndescription: Read PDFs.\nmetadata:\n  owner: docs\n  tags: {tags}\n---\n# PDF\n"),
        );
        let Err(skills_edge::catalog::CatalogError::Compile(c)) = Catalog::compile(tree, None)
        else {
            panic!("tags: {tags} compiles");
        };
        let d = c
            .diagnostics
            .iter()
            .find(|d| d.rule.id() == "metadata-type")
            .expect("the rule");
        assert_eq!(
            (d.path.as_str(), d.line),
            ("pdf/SKILL.md", Some(6)),
            "{tags}"
        );
        assert!(
            d.message.contains("`metadata.tags`") && d.fix.contains("tags: \"pdf, forms\""),
            "{d:?}"
        );
    }
}
