//! The JavaScript bindings and the host verifier, compiled to wasm32 and run by
//! wasm-bindgen-test in Node and in headless Chromium (the same tests in both).
//!
//! This file is a module of the library's own test build (`src/js/mod.rs` includes it for
//! `cfg(all(test, target_arch = "wasm32"))`), so running it needs no binary target:
//!
//! ```text
//! CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
//!   cargo test --target wasm32-unknown-unknown --features js --lib
//! WASM_BINDGEN_USE_BROWSER=1 CHROMEDRIVER=/usr/bin/chromedriver ... (same command)
//! ```

use crate::host::{self, Content, Entry, ErrorCode, Hashing, HostOptions, VerifyOptions};
use crate::js::{self, SkillHost, SkillsServer};
use crate::skill::digest::digest_of;
use js_sys::{Array, Reflect, Uint8Array, JSON};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

const META: &str = r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

/// A JavaScript string.
fn s(text: &str) -> JsValue {
    JsValue::from_str(text)
}

fn parse(json: &str) -> JsValue {
    JSON::parse(json).expect("test JSON")
}

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(key)).expect("property")
}

fn get_str(v: &JsValue, key: &str) -> String {
    get(v, key).as_string().unwrap_or_default()
}

fn code_of(err: JsValue) -> String {
    assert!(err.is_instance_of::<js_sys::Error>(), "a real Error object");
    assert_eq!(get_str(&err, "name"), "SkillsEdgeError");
    assert!(js::is_skills_edge_error(&err));
    get_str(&err, "code")
}

fn request(server: &SkillsServer, method: &str, params: &str) -> JsValue {
    let msg = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":{{{params}{}"_meta":{META}}}}}"#,
        if params.is_empty() { "" } else { "," }
    );
    let reply = server
        .handle(JsValue::from_str(&msg), None)
        .expect("handled");
    let result = get(&reply, "result");
    assert!(
        !result.is_undefined(),
        "{method}: {:?}",
        JSON::stringify(&reply).ok()
    );
    result
}

fn listing(server: &SkillsServer) -> Vec<JsValue> {
    let mut out = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let params = cursor
            .as_ref()
            .map(|c| format!(r#""cursor":"{c}""#))
            .unwrap_or_default();
        let result = request(server, "skills/list", &params);
        let skills: Array = get(&result, "skills").unchecked_into();
        out.extend(skills.iter());
        cursor = get(&result, "nextCursor").as_string();
        if cursor.is_none() {
            return out;
        }
    }
}

fn read(server: &SkillsServer, uri: &str) -> JsValue {
    request(server, "resources/read", &format!(r#""uri":"{uri}""#))
}

#[wasm_bindgen_test]
fn digests_match_the_golden_vectors() {
    assert_eq!(
        digest_of(b"a"),
        "sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"
    );
    let bytes = Uint8Array::from(&b""[..]);
    assert_eq!(
        js::sha256_digest(bytes.into()).unwrap(),
        "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
    // Text is hashed over its UTF-8 bytes, not UTF-16 code units.
    assert_eq!(
        js::sha256_digest(JsValue::from_str("é")).unwrap(),
        digest_of("é".as_bytes())
    );
    // Multi-block input (the padding crosses a block boundary at 56 bytes).
    let long: Vec<u8> = (0..1000u32).map(|i| (i * 7 % 251) as u8).collect();
    assert_eq!(
        js::sha256_digest(Uint8Array::from(&long[..]).into()).unwrap(),
        digest_of(&long)
    );
}

/// The byte length of the module's memory.
fn memory_len() -> f64 {
    let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
    get(&memory.buffer(), "byteLength").as_f64().unwrap_or(0.0)
}

/// A JavaScript array of `n` bytes (byte `i` is `i % 251`), filled from a 1 MiB pattern so
/// that little WebAssembly memory is used to make it.
fn js_pattern(n: usize) -> Uint8Array {
    let pattern: Vec<u8> = (0..1 << 20).map(|i| (i % 251) as u8).collect();
    let out = Uint8Array::new_with_length(n as u32);
    let mut at = 0;
    while at < n {
        // 1 MiB is a multiple of 251 plus 128, so each copy starts where the pattern stands.
        let len = (n - at).min(pattern.len() - pattern.len() % 251);
        out.set(&Uint8Array::from(&pattern[..len]), at as u32);
        at += len;
    }
    out
}

#[wasm_bindgen_test]
fn large_arrays_are_hashed_in_chunks_without_growing_memory() {
    use crate::skill::digest::Sha256Stream;
    let expected = |n: usize| {
        let mut s = Sha256Stream::new();
        let pattern: Vec<u8> = (0..251u32).map(|i| i as u8).collect();
        let mut left = n;
        while left > 0 {
            let take = left.min(pattern.len());
            s.update(&pattern[..take]);
            left -= take;
        }
        s.finish_wire()
    };
    const CHUNK: usize = 64 * 1024;
    for n in [CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK, 3 * CHUNK + 7] {
        let bytes = js_pattern(n);
        assert_eq!(
            js::sha256_digest(bytes.into()).unwrap(),
            expected(n),
            "{n} bytes"
        );
    }
    // A view into the middle of a larger buffer: only its own bytes are hashed.
    let outer = js_pattern(3 * CHUNK + 400);
    let view = outer.subarray(251, (251 + 3 * CHUNK + 7) as u32);
    assert_eq!(
        js::sha256_digest(view.into()).unwrap(),
        expected(3 * CHUNK + 7)
    );

    // 8 MiB (128 chunks; 8 MiB keeps the unoptimised test build within the browser runner's
    // time limit): hashed and verified without being copied whole (a whole copy would grow the
    // module's memory by the array's size) and, after the first call, with no growth at all.
    let n = 8 * 1024 * 1024;
    let big = js_pattern(n);
    let digest = expected(n);
    let uri = "skill://big/SKILL.md";
    let entry = parse(&format!(
        r#"{{"uri":"{uri}","frontmatter":{{"name":"big","description":"d"}},"resources":[{{"uri":"{uri}","digest":"{digest}","size":{n}}}]}}"#
    ));
    let first = memory_len();
    assert_eq!(js::sha256_digest(big.clone().into()).unwrap(), digest);
    assert!(
        memory_len() - first < (n / 2) as f64,
        "memory grew by {} bytes",
        memory_len() - first
    );
    let before = memory_len();
    assert_eq!(js::sha256_digest(big.clone().into()).unwrap(), digest);
    let receipt = js::verify_file(entry.clone(), s(uri), big.clone().into(), None).unwrap();
    assert_eq!(get_str(&receipt, "digest"), digest);
    assert_eq!(get(&receipt, "verified").as_bool(), Some(true));
    assert_eq!(memory_len(), before, "memory grew");
    // A wrong size is refused before hashing; a changed byte after.
    let short = big.subarray(0, n as u32 - 1);
    let err = js::verify_file(entry.clone(), s(uri), short.into(), None).unwrap_err();
    assert_eq!(code_of(err), "size-mismatch");
    big.set_index(n as u32 - 1, 0);
    let err = js::verify_file(entry, s(uri), big.into(), None).unwrap_err();
    assert_eq!(code_of(err), "digest-mismatch");
}

#[wasm_bindgen_test]
fn server_serves_and_every_file_verifies() {
    let server = SkillsServer::new(Some(parse(
        r#"{"pageSize":2,"ttlMs":0,"cacheScope":"private"}"#,
    )))
    .expect("server");
    let discover = request(&server, "server/discover", "");
    assert_eq!(get_str(&discover, "cacheScope"), "private");
    let skills = listing(&server);
    assert!(skills.len() >= 2);
    let mut files = 0;
    for entry in &skills {
        js::validate_entry(entry.clone()).expect("valid entry");
        let limits = js::check_limits(entry.clone()).expect("within limits");
        assert_eq!(get(&limits, "dynamic"), JsValue::FALSE);
        let uri = get_str(entry, "uri");
        let md =
            js::verify_skill_md_js(entry.clone(), read(&server, &uri)).expect("SKILL.md verifies");
        assert!(get(&md, "frontmatter").is_object());
        let resources: Array = get(entry, "resources").unchecked_into();
        for item in resources.iter() {
            let file = get_str(&item, "uri");
            let v = js::verify_read_result_js(entry.clone(), s(&file), read(&server, &file), None)
                .expect("file verifies");
            assert_eq!(get(&v, "verified"), JsValue::TRUE);
            let bytes: Uint8Array = get(&v, "bytes").unchecked_into();
            js::verify_file(entry.clone(), s(&file), bytes.into(), None).expect("bytes verify");
            files += 1;
        }
    }
    assert!(files > skills.len());
    // A notification has no response; a string and an object are both accepted.
    let n = server
        .handle(
            parse(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
            None,
        )
        .unwrap();
    assert!(n.is_undefined());
    let legacy = server
        .handle(JsValue::from_str(
            r#"{"jsonrpc":"2.0","id":"x","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
            ),
            None,
        )
        .unwrap();
    assert_eq!(
        get_str(&get(&legacy, "result"), "protocolVersion"),
        "2025-11-25"
    );
    assert!(server
        .handle_text(s("{"), None)
        .unwrap()
        .unwrap()
        .contains("-32700"));
    let err = SkillsServer::new(Some(parse(r#"{"pageSize":0}"#)))
        .err()
        .expect("refused");
    assert_eq!(code_of(err), "invalid-argument");
    let err = SkillsServer::new(Some(parse(r#"{"page_size":5}"#)))
        .err()
        .expect("refused");
    assert_eq!(code_of(err), "invalid-argument");
}

fn entry_js(uri: &str, name: &str, files: &[(&str, &[u8])]) -> JsValue {
    parse(&crate::host::entry::tests::entry_json(uri, name, files))
}

#[wasm_bindgen_test]
fn errors_carry_code_uri_expected_actual() {
    let md = "---\nname: a\ndescription: d\n---\nbody\n";
    let entry = entry_js(
        "skill://a/SKILL.md",
        "a",
        &[
            ("skill://a/SKILL.md", md.as_bytes()),
            ("skill://a/x.md", b"x"),
        ],
    );
    let err = js::verify_file(
        entry.clone(),
        s("skill://a/x.md"),
        JsValue::from_str("y"),
        None,
    )
    .unwrap_err();
    assert_eq!(get_str(&err, "uri"), "skill://a/x.md");
    assert_eq!(get_str(&err, "expected"), digest_of(b"x"));
    assert_eq!(get_str(&err, "actual"), digest_of(b"y"));
    assert_eq!(code_of(err), "digest-mismatch");
    let err = js::verify_file(
        entry.clone(),
        s("skill://a/x.md"),
        JsValue::from_str("xx"),
        None,
    )
    .unwrap_err();
    assert_eq!(
        (get_str(&err, "expected"), get_str(&err, "actual")),
        ("1".into(), "2".into())
    );
    assert_eq!(code_of(err), "size-mismatch");
    let err = js::verify_file(
        entry.clone(),
        s("skill://a/y.md"),
        JsValue::from_str("x"),
        None,
    )
    .unwrap_err();
    assert_eq!(code_of(err), "not-in-manifest");
    let err = js::verify_file(
        entry.clone(),
        s("skill://a/x.md"),
        JsValue::from_f64(1.0),
        None,
    )
    .unwrap_err();
    assert_eq!(code_of(err), "invalid-argument");
    let err = js::verify_file(
        entry.clone(),
        s("skill://a/x.md"),
        JsValue::from_str("x"),
        Some(parse(r#"{"allowDynamc":true}"#)),
    )
    .unwrap_err();
    assert_eq!(code_of(err), "invalid-argument");
    let changed = md.replace("description: d", "description: e");
    let e2 = entry_js(
        "skill://a/SKILL.md",
        "a",
        &[("skill://a/SKILL.md", changed.as_bytes())],
    );
    let err = js::verify_skill_md_js(e2, JsValue::from_str(&changed)).unwrap_err();
    assert_eq!(get_str(&err, "field"), "description");
    assert_eq!(get_str(&err, "expected"), "\"d\"");
    assert_eq!(code_of(err), "frontmatter-mismatch");
    let err = js::validate_entry(parse(r#"{"uri":"skill://a/SKILL.md"}"#)).unwrap_err();
    assert_eq!(code_of(err), "invalid-entry");
    let err = js::validate_entry(JsValue::UNDEFINED).unwrap_err();
    assert_eq!(code_of(err), "invalid-entry");
    let err = js::resolve_reference(s("skill://a/SKILL.md"), s("../b/SKILL.md")).unwrap_err();
    assert_eq!(code_of(err), "escapes-root");
    assert_eq!(
        js::resolve_reference(s("skill://a/SKILL.md"), s("x.md#y")).unwrap(),
        "skill://a/x.md"
    );
    let codes: Array = js::error_codes().unchecked_into();
    // The host's and the client's codes plus catalog-invalid and pack-invalid.
    assert_eq!(
        codes.length() as usize,
        crate::client::ClientCode::ALL.len() + 2
    );
    assert!(!js::is_skills_edge_error(
        &js_sys::Error::new("plain").into()
    ));
}

#[wasm_bindgen_test]
fn skill_host_flow_in_js() {
    let server = SkillsServer::new(None).expect("server");
    let mut host = SkillHost::new(Some(parse(r#"{"requireApproval":true}"#))).expect("host");
    host.add_server(s("local")).unwrap();
    host.add_server(s("mirror")).unwrap();
    let skills = listing(&server);
    let arr = Array::new();
    for s in &skills {
        arr.push(s);
    }
    let out = host
        .register_listing(s("local"), arr.clone().into())
        .unwrap();
    let rejected: Array = get(&out, "rejected").unchecked_into();
    assert_eq!(rejected.length(), 0);
    host.register_listing(s("mirror"), arr.into()).unwrap();
    // Same URIs on two servers: every display name is unique and none is dropped.
    let summaries: Array = host.skills().unwrap().unchecked_into();
    assert_eq!(summaries.length() as usize, 2 * skills.len());
    let names: Vec<String> = summaries
        .iter()
        .map(|s| get_str(&s, "displayName"))
        .collect();
    let mut unique = names.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), names.len());
    assert!(names
        .iter()
        .all(|n| n.starts_with("local:") || n.starts_with("mirror:")));

    let uri = "skill://code-review/SKILL.md";
    assert_eq!(
        code_of(host.plan_load(s("local"), s(&uri)).unwrap_err()),
        "not-approved"
    );
    let fingerprint = host.approve(s("local"), s(&uri)).unwrap();
    let entry = host.entry(s("local"), s(&uri)).unwrap();
    assert_eq!(
        js::approval_fingerprint_js(s("local"), entry.clone()).unwrap(),
        fingerprint
    );
    let plan = host.plan_load(s("local"), s(&uri)).unwrap();
    let loaded = host
        .load(s("local"), s(&uri), read(&server, &get_str(&plan, "uri")))
        .unwrap();
    assert_eq!(get_str(&loaded, "serverLabel"), "local");
    assert!(host.is_active(s("local"), s(uri)).unwrap());
    assert!(!host.is_active(s("mirror"), s(uri)).unwrap());
    let plan = host
        .plan_read(s("local"), s(&uri), s("references/checklist.md"))
        .unwrap();
    let file = host
        .read(
            s("local"),
            s(&uri),
            s("references/checklist.md"),
            read(&server, &get_str(&plan, "uri")),
        )
        .unwrap();
    assert_eq!(get_str(&file, "skillUri"), uri);
    assert_eq!(
        code_of(
            host.plan_read(s("local"), s(&uri), s("references/other.md"))
                .unwrap_err()
        ),
        "not-in-manifest"
    );
    assert_eq!(
        code_of(
            host.plan_read(s("mirror"), s(&uri), s("references/checklist.md"))
                .unwrap_err()
        ),
        "no-acting-window"
    );
    let saved = host.export_approvals();
    assert!(saved.contains(&fingerprint));
    let mut other = SkillHost::new(None).unwrap();
    assert_eq!(
        other.import_approvals(JsValue::from_str(&saved)).unwrap(),
        1
    );
    assert_eq!(
        code_of(other.import_approvals(parse("{}")).unwrap_err()),
        "invalid-argument"
    );
    assert!(host.close_window(s("local"), s(uri)).unwrap());
    assert_eq!(
        code_of(
            SkillHost::new(Some(parse(r#"{"x":1}"#)))
                .err()
                .expect("refused")
        ),
        "invalid-argument"
    );
}

#[wasm_bindgen_test]
fn the_rust_host_agrees_in_wasm() {
    let md = "---\nname: a\ndescription: d\n---\n";
    let entry = Entry::parse(&format!(
        r#"{{"uri":"skill://a/SKILL.md","frontmatter":{{"name":"a","description":"d"}},"resources":[{{"uri":"skill://a/SKILL.md","digest":"{}","size":{}}}]}}"#,
        digest_of(md.as_bytes()),
        md.len()
    ))
    .unwrap();
    assert!(host::verify_skill_md(&entry, &Content::Text(md.into()), Hashing::Here).is_ok());
    let err = host::verify_bytes(
        &entry,
        "skill://a/SKILL.md",
        b"x",
        Hashing::Here,
        VerifyOptions::default(),
    )
    .unwrap_err();
    assert_eq!(err.code, ErrorCode::SizeMismatch);
    let mut h = host::SkillHost::new(HostOptions::default());
    h.add_server("s").unwrap();
    h.register("s", entry).unwrap();
    h.load(
        "s",
        "skill://a/SKILL.md",
        Content::Bytes(md.as_bytes().to_vec()),
        Hashing::Here,
    )
    .unwrap();
    assert!(h.is_active("s", "skill://a/SKILL.md"));
}
