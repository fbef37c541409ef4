//! Every reply validated against the official MCP JSON schemas (2026-07-28 and 2025-11-25) and
//! the extension's own schema (`tests/schema/skills-extension.json`): every page of every list
//! and every file read of the embedded catalog, in both eras, at several page sizes, plus error
//! replies, and every reply of the tools and prompts fallback. Negative controls prove the
//! validators reject what they should.

use crate::common;

use common::*;
use serde_json::{json, Value as Json};
use skills_edge::protocol::Era;
use skills_edge::server::{Responder, Transport};

/// Sends a request, validates the request itself, the envelope and the result.
#[allow(clippy::too_many_arguments)]
fn checked(
    s: &mut Schemas,
    r: &Responder,
    era: Era,
    method: &str,
    params: Json,
    request_def: (Doc, &str),
    result_def: (Doc, &str),
) -> Json {
    let msg = request(era, 1, method, params);
    let req: Json = serde_json::from_slice(&msg).expect("JSON");
    let ctx = format!("{era:?} {method} {}", String::from_utf8_lossy(&msg));
    s.assert_valid(
        request_def.0,
        request_def.1,
        &req,
        &format!("request {ctx}"),
    );
    let rpc = ok_rpc(r, &msg);
    s.assert_envelope(mcp_doc(era), &rpc, &ctx);
    let result = rpc.json["result"].clone();
    s.assert_valid(result_def.0, result_def.1, &result, &ctx);
    result
}

/// Walks a paginated method, validating each page.
#[allow(clippy::too_many_arguments)]
fn checked_pages(
    s: &mut Schemas,
    r: &Responder,
    era: Era,
    method: &str,
    params: Json,
    request_def: (Doc, &str),
    result_def: (Doc, &str),
) -> Vec<Json> {
    let mut out = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut p = params.clone();
        if let Some(c) = &cursor {
            p["cursor"] = json!(c);
        }
        let page = checked(s, r, era, method, p, request_def, result_def);
        cursor = page["nextCursor"].as_str().map(str::to_owned);
        out.push(page);
        if cursor.is_none() {
            return out;
        }
        assert!(out.len() < 1000);
    }
}

#[test]
fn every_reply_for_the_embedded_catalog_is_schema_valid_in_both_eras() {
    let mut s = Schemas::new();
    let catalog = embedded();
    let mut replies = 0usize;
    for page_size in [2, 50] {
        let r = responder(page_size);
        for era in ERAS {
            let mcp = mcp_doc(era);
            // Handshake / discovery.
            match era {
                Era::Modern => {
                    let res = checked(
                        &mut s,
                        &r,
                        era,
                        "server/discover",
                        json!({}),
                        (mcp, "DiscoverRequest"),
                        (mcp, "DiscoverResult"),
                    );
                    s.assert_valid(
                        Doc::Skills,
                        "SkillsExtensionSettings",
                        &res["capabilities"]["extensions"][SKILLS_EXT],
                        "discover",
                    );
                }
                Era::Legacy => {
                    let init = json!({
                        "protocolVersion": LEGACY,
                        "capabilities": {},
                        "clientInfo": {"name": "skills-edge-tests", "version": "0"}
                    });
                    let res = checked(
                        &mut s,
                        &r,
                        era,
                        "initialize",
                        init,
                        (mcp, "InitializeRequest"),
                        (mcp, "InitializeResult"),
                    );
                    s.assert_valid(
                        Doc::Skills,
                        "SkillsExtensionSettings",
                        &res["capabilities"]["extensions"][SKILLS_EXT],
                        "initialize",
                    );
                    checked(
                        &mut s,
                        &r,
                        era,
                        "ping",
                        json!({}),
                        (mcp, "PingRequest"),
                        (mcp, "EmptyResult"),
                    );
                    replies += 2;
                }
            }
            // skills/list, every page, and skills/get for every entry.
            let list = checked_pages(
                &mut s,
                &r,
                era,
                "skills/list",
                json!({}),
                (Doc::Skills, &ext_def(era, "ListSkillsRequest")),
                (Doc::Skills, &ext_def(era, "ListSkillsResult")),
            );
            replies += list.len();
            let entries: Vec<Json> = list
                .iter()
                .flat_map(|p| p["skills"].as_array().expect("skills").clone())
                .collect();
            assert_eq!(entries.len(), catalog.skill_count());
            for e in &entries {
                s.assert_valid(Doc::Skills, "Skill", e, "entry");
                checked(
                    &mut s,
                    &r,
                    era,
                    "skills/get",
                    json!({"uri": e["uri"]}),
                    (Doc::Skills, &ext_def(era, "GetSkillRequest")),
                    (Doc::Skills, &ext_def(era, "GetSkillResult")),
                );
                replies += 1;
                // Every file of every skill.
                for item in e["resources"].as_array().expect("resources") {
                    s.assert_valid(Doc::Skills, "SkillResource", item, "manifest item");
                    checked(
                        &mut s,
                        &r,
                        era,
                        "resources/read",
                        json!({"uri": item["uri"]}),
                        (mcp, "ReadResourceRequest"),
                        (mcp, "ReadResourceResult"),
                    );
                    replies += 1;
                }
            }
            // resources/list and resources/templates/list.
            replies += checked_pages(
                &mut s,
                &r,
                era,
                "resources/list",
                json!({}),
                (mcp, "ListResourcesRequest"),
                (mcp, "ListResourcesResult"),
            )
            .len();
            checked(
                &mut s,
                &r,
                era,
                "resources/templates/list",
                json!({}),
                (mcp, "ListResourceTemplatesRequest"),
                (mcp, "ListResourceTemplatesResult"),
            );
            replies += 1;
            // Every page of every directory.
            for i in 0..catalog.dir_count() {
                let dir = catalog.dir_at(i).expect("dir").uri;
                replies += checked_pages(
                    &mut s,
                    &r,
                    era,
                    "resources/directory/read",
                    json!({ "uri": dir }),
                    (Doc::Skills, &ext_def(era, "ReadResourceDirectoryRequest")),
                    (Doc::Skills, &ext_def(era, "ReadResourceDirectoryResult")),
                )
                .len();
            }
        }
    }
    // Sanity: the loops really ran over the whole catalog.
    assert!(replies > 4 * (catalog.file_count() + catalog.dir_count()));
}

#[test]
fn error_replies_are_schema_valid_and_omit_an_unreadable_id() {
    let mut s = Schemas::new();
    let r = responder(50);
    let modern_unknown = request(Era::Modern, "e-1", "unknown/method", json!({}));
    let legacy_unknown = request(Era::Legacy, 2, "unknown/method", json!({}));
    let bad_uri = request(
        Era::Modern,
        3,
        "resources/read",
        json!({"uri": "skill://nope/SKILL.md"}),
    );
    let bad_version = br#"{"jsonrpc":"2.0","id":4,"method":"skills/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1900-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let cases: Vec<(&[u8], Option<&str>, i64)> = vec![
        (&modern_unknown, Some("\"e-1\""), -32601),
        (&legacy_unknown, Some("2"), -32601),
        (&bad_uri, Some("3"), -32602),
        (bad_version, Some("4"), -32022),
        (b"{", None, -32700),
        (b"\xff", None, -32700),
        (b"[]", None, -32600),
        (
            br#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
            None,
            -32600,
        ),
        (
            br#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
            None,
            -32600,
        ),
        (
            br#"{"jsonrpc":"2.0","id":{},"method":"ping"}"#,
            None,
            -32600,
        ),
        (br#"{"id":5,"method":"ping"}"#, Some("5"), -32600),
    ];
    for (msg, id, code) in cases {
        let rpc = call(&r, msg, &Transport::Stream);
        let ctx = String::from_utf8_lossy(msg).into_owned();
        assert_eq!(rpc.code(), Some(code), "{ctx}");
        assert_eq!(rpc.id_raw(), id, "{ctx}");
        if id.is_none() {
            let obj = rpc.json.as_object().expect("object");
            assert!(!obj.contains_key("id"), "{ctx}: no id member at all");
        }
        for doc in [Doc::Mcp2026, Doc::Mcp2025] {
            s.assert_valid(doc, "JSONRPCErrorResponse", &rpc.json, &ctx);
            s.assert_valid(doc, "JSONRPCResponse", &rpc.json, &ctx);
            s.assert_invalid(doc, "JSONRPCResultResponse", &rpc.json, &ctx);
        }
    }
    // The unsupported-version error carries the data the 2026-07-28 schema describes.
    let rpc = call(&r, bad_version, &Transport::Stream);
    s.assert_valid(
        Doc::Mcp2026,
        "UnsupportedProtocolVersionError",
        &rpc.json,
        "unsupported version",
    );
}

#[test]
fn the_validators_reject_what_they_must() {
    let mut s = Schemas::new();
    let r = responder(50);
    // A real modern skills/list result, then broken copies of it.
    let good = ok(&r, &request(Era::Modern, 1, "skills/list", json!({})));
    s.assert_valid(Doc::Skills, "ListSkillsResult", &good, "good");
    for field in ["ttlMs", "cacheScope", "resultType", "skills"] {
        let mut bad = good.clone();
        bad.as_object_mut().expect("object").remove(field);
        s.assert_invalid(Doc::Skills, "ListSkillsResult", &bad, field);
    }
    let mut bad = good.clone();
    bad["skills"][0]["resources"][0]["digest"] = json!("sha256:ABC");
    s.assert_invalid(Doc::Skills, "ListSkillsResult", &bad, "uppercase digest");
    let mut bad = good.clone();
    bad["skills"][0]["resources"] = json!("static");
    s.assert_invalid(
        Doc::Skills,
        "ListSkillsResult",
        &bad,
        "resources neither array nor dynamic",
    );
    let mut bad = good.clone();
    bad["skills"][0]["resources"][0]["size"] = json!(-1);
    s.assert_invalid(Doc::Skills, "ListSkillsResult", &bad, "negative size");
    let mut dynamic = good.clone();
    dynamic["skills"][0]["resources"] = json!("dynamic");
    s.assert_valid(
        Doc::Skills,
        "ListSkillsResult",
        &dynamic,
        "dynamic resources",
    );

    let get = ok(
        &r,
        &request(
            Era::Modern,
            1,
            "skills/get",
            json!({"uri": "skill://code-review/SKILL.md"}),
        ),
    );
    let mut bad = get.clone();
    bad["nextCursor"] = json!("x");
    s.assert_invalid(
        Doc::Skills,
        "GetSkillResult",
        &bad,
        "skills/get with nextCursor",
    );

    let dir = ok(
        &r,
        &request(
            Era::Modern,
            1,
            "resources/directory/read",
            json!({"uri": "skill://code-review"}),
        ),
    );
    s.assert_valid(Doc::Skills, "ReadResourceDirectoryResult", &dir, "dir");
    let mut bad = dir.clone();
    bad.as_object_mut().map(|o| o.remove("ttlMs"));
    s.assert_invalid(
        Doc::Skills,
        "ReadResourceDirectoryResult",
        &bad,
        "dir without ttlMs",
    );
    let mut bad = dir.clone();
    bad["resources"][0]["uri"] = json!("not a uri");
    s.assert_invalid(
        Doc::Skills,
        "ReadResourceDirectoryResult",
        &bad,
        "uri format",
    );

    // The 2026-07-28 schema requires the cache hints the legacy era never sends.
    let legacy_read = ok(
        &r,
        &request(
            Era::Legacy,
            1,
            "resources/read",
            json!({"uri": "skill://code-review/SKILL.md"}),
        ),
    );
    s.assert_valid(
        Doc::Mcp2025,
        "ReadResourceResult",
        &legacy_read,
        "legacy read",
    );
    s.assert_invalid(
        Doc::Mcp2026,
        "ReadResourceResult",
        &legacy_read,
        "legacy read as modern",
    );
    let legacy_list = ok(&r, &request(Era::Legacy, 1, "skills/list", json!({})));
    s.assert_valid(
        Doc::Skills,
        "ListSkillsResultLegacy",
        &legacy_list,
        "legacy list",
    );
    s.assert_invalid(
        Doc::Skills,
        "ListSkillsResult",
        &legacy_list,
        "legacy list as modern",
    );

    // `id: null` is not an MCP id.
    let null_id = json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "x"}});
    s.assert_invalid(Doc::Mcp2026, "JSONRPCErrorResponse", &null_id, "null id");
    s.assert_invalid(Doc::Mcp2025, "JSONRPCErrorResponse", &null_id, "null id");
}

/// Every reply of the tools and prompts fallback, in both eras, against the official MCP
/// schemas: discovery with the new capabilities, `tools/list`, every `tools/call` (every tool on
/// every skill and file, and tool errors), `prompts/list` and every `prompts/get`. Each call's
/// arguments validate against the tool's `inputSchema`, and each `structuredContent` against its
/// `outputSchema`; misspelt or mistyped arguments do not.
#[test]
fn every_fallback_reply_is_schema_valid_in_both_eras() {
    let mut s = Schemas::new();
    let r = fallback_responder();
    let catalog = embedded();
    let tool_schema = |schema: &Json| {
        jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .should_validate_formats(true)
            .build(schema)
            .expect("a tool schema compiles")
    };
    let mut calls = 0usize;
    for era in ERAS {
        let mcp = mcp_doc(era);
        match era {
            Era::Modern => {
                let d = checked(
                    &mut s,
                    &r,
                    era,
                    "server/discover",
                    json!({}),
                    (mcp, "DiscoverRequest"),
                    (mcp, "DiscoverResult"),
                );
                assert!(
                    d["capabilities"]["tools"].is_object()
                        && d["capabilities"]["prompts"].is_object()
                );
            }
            Era::Legacy => {
                let init = json!({
                    "protocolVersion": LEGACY,
                    "capabilities": {},
                    "clientInfo": {"name": "skills-edge-tests", "version": "0"}
                });
                checked(
                    &mut s,
                    &r,
                    era,
                    "initialize",
                    init,
                    (mcp, "InitializeRequest"),
                    (mcp, "InitializeResult"),
                );
            }
        }
        let list = checked(
            &mut s,
            &r,
            era,
            "tools/list",
            json!({}),
            (mcp, "ListToolsRequest"),
            (mcp, "ListToolsResult"),
        );
        let tools = list["tools"].as_array().expect("tools").clone();
        let schemas = |name: &str| {
            let t = tools.iter().find(|t| t["name"] == name).expect("listed");
            (
                tool_schema(&t["inputSchema"]),
                tool_schema(&t["outputSchema"]),
            )
        };
        let mut args: Vec<(&str, Json)> = vec![("list_skills", json!({}))];
        for sk in catalog.skills() {
            args.push(("read_skill", json!({ "name": sk.name })));
            args.push(("read_skill", json!({ "uri": sk.uri })));
            let root = sk.root();
            for f in catalog.files_under(&format!("{root}/")) {
                args.push(("read_skill_resource", json!({ "uri": f.uri })));
                args.push((
                    "read_skill_resource",
                    json!({ "skill": sk.name, "path": &f.uri[root.len() + 1..] }),
                ));
            }
        }
        for (name, a) in &args {
            let (input, output) = schemas(name);
            assert!(input.is_valid(a), "{name} {a} follows its inputSchema");
            let res = checked(
                &mut s,
                &r,
                era,
                "tools/call",
                json!({"name": name, "arguments": a}),
                (mcp, "CallToolRequest"),
                (mcp, "CallToolResult"),
            );
            assert_eq!(res["isError"], false, "{name} {a}: {res}");
            let errors: Vec<String> = output
                .iter_errors(&res["structuredContent"])
                .map(|e| e.to_string())
                .collect();
            assert!(errors.is_empty(), "{name} {a}: {errors:?}");
            calls += 1;
        }
        // Tool errors are results too; the inputSchema already refuses what they refuse by type.
        for (name, a) in [
            ("read_skill", json!({"name": "no-such-skill"})),
            ("read_skill", json!({"name": 7})),
            ("read_skill", json!({"nmae": "code-review"})),
            ("read_skill_resource", json!({"uri": "file:///etc/passwd"})),
            (
                "read_skill_resource",
                json!({"skill": "code-review", "path": "../x"}),
            ),
            ("list_skills", json!({"x": 1})),
        ] {
            let res = checked(
                &mut s,
                &r,
                era,
                "tools/call",
                json!({"name": name, "arguments": a}),
                (mcp, "CallToolRequest"),
                (mcp, "CallToolResult"),
            );
            assert_eq!(res["isError"], true, "{name} {a}");
        }
        let (input, _) = schemas("read_skill");
        for bad in [json!({"name": 7}), json!({"nmae": "x"}), json!([])] {
            assert!(!input.is_valid(&bad), "inputSchema refuses {bad}");
        }
        let prompts = checked(
            &mut s,
            &r,
            era,
            "prompts/list",
            json!({}),
            (mcp, "ListPromptsRequest"),
            (mcp, "ListPromptsResult"),
        );
        for p in prompts["prompts"].as_array().expect("prompts") {
            checked(
                &mut s,
                &r,
                era,
                "prompts/get",
                json!({"name": p["name"]}),
                (mcp, "GetPromptRequest"),
                (mcp, "GetPromptResult"),
            );
            calls += 1;
        }
        // Unknown names are error responses of the standard shape.
        for (method, name) in [
            ("tools/call", "test_simple_text"),
            ("prompts/get", "test_simple_prompt"),
        ] {
            let rpc = err(&r, &request(era, 1, method, json!({ "name": name })));
            s.assert_envelope(mcp, &rpc, method);
        }
    }
    assert!(calls > 2 * 2 * catalog.file_count());
    // Negative controls: a legacy result lacks what 2026-07-28 requires.
    let legacy = ok(
        &r,
        &request(Era::Legacy, 1, "tools/call", json!({"name": "list_skills"})),
    );
    s.assert_valid(Doc::Mcp2025, "CallToolResult", &legacy, "legacy call");
    s.assert_invalid(
        Doc::Mcp2026,
        "CallToolResult",
        &legacy,
        "legacy call as modern",
    );
    let legacy = ok(&r, &request(Era::Legacy, 1, "tools/list", json!({})));
    s.assert_invalid(
        Doc::Mcp2026,
        "ListToolsResult",
        &legacy,
        "legacy list as modern",
    );
    let mut bad = ok(
        &r,
        &request(
            Era::Modern,
            1,
            "prompts/get",
            json!({"name": "code-review"}),
        ),
    );
    bad["messages"][0]["content"]["type"] = json!("file");
    s.assert_invalid(
        Doc::Mcp2026,
        "GetPromptResult",
        &bad,
        "unknown content type",
    );
}
