//! Code shared by the integration tests: requests in both protocol eras, strict parsing of
//! replies, paging, the JSON schemas of `tests/schema/`, temporary skills folders and a seeded
//! pseudo-random generator. Every test crate uses a different subset.

#![allow(dead_code)]

pub mod real_like;

use serde_json::value::RawValue;
use serde_json::{json, Value as Json};
use skills_edge::catalog::compile::{self, Compiled};
use skills_edge::catalog::diag::CompileError;
use skills_edge::catalog::Grant;
use skills_edge::catalog::{walk, Catalog};
use skills_edge::protocol::Era;
use skills_edge::server::{Config, Fallback, HttpHeaders, Reply, Responder, Transport};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// The stateless protocol revision.
pub const MODERN: &str = "2026-07-28";
/// The newest legacy (initialize) revision.
pub const LEGACY: &str = "2025-11-25";
/// The Skills extension identifier.
pub const SKILLS_EXT: &str = "io.modelcontextprotocol/skills";
/// The result `_meta` key carrying the server's identity.
pub const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// Both eras, modern first.
pub const ERAS: [Era; 2] = [Era::Modern, Era::Legacy];

// ------------------------------------------------------------------------------------------
// Responders and requests
// ------------------------------------------------------------------------------------------

/// The catalog compiled from `skills/` at build time.
pub fn embedded() -> Arc<Catalog> {
    skills_edge::embedded::catalog().expect("the embedded catalog loads")
}

/// A responder over `catalog` with `page_size` items per page and default settings otherwise.
pub fn responder_over(catalog: Arc<Catalog>, page_size: usize) -> Responder {
    Responder::new(
        catalog,
        Config {
            page_size,
            ..Config::default()
        },
    )
    .expect("valid config")
}

/// A responder over the embedded catalog.
pub fn responder(page_size: usize) -> Responder {
    responder_over(embedded(), page_size)
}

/// A responder over `catalog` with the tools and prompts fallback `fallback` and default
/// settings otherwise.
pub fn fallback_over(catalog: Arc<Catalog>, fallback: Fallback) -> Responder {
    Responder::new(
        catalog,
        Config {
            fallback,
            ..Config::default()
        },
    )
    .expect("valid config")
}

/// A responder over the embedded catalog with tools and prompts on.
pub fn fallback_responder() -> Responder {
    fallback_over(embedded(), Fallback::ALL)
}

/// The 2026-07-28 request `_meta`.
pub fn meta() -> Json {
    json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "skills-edge-tests", "version": "0"}
    })
}

/// A request. `params` must be an object; the modern era adds `_meta` to it, the legacy era
/// leaves `params` out when it is empty.
pub fn request(era: Era, id: impl Into<Json>, method: &str, params: Json) -> Vec<u8> {
    let mut params = params;
    assert!(params.is_object(), "params must be an object");
    if era == Era::Modern {
        params["_meta"] = meta();
    }
    let mut msg = json!({"jsonrpc": "2.0", "id": id.into(), "method": method});
    if params.as_object().is_some_and(|o| !o.is_empty()) {
        msg["params"] = params;
    }
    serde_json::to_vec(&msg).expect("serialisable")
}

/// Headers of a Streamable HTTP POST.
pub fn http<'a>(
    version: Option<&'a str>,
    method: Option<&'a str>,
    name: Option<&'a str>,
) -> Transport<'a> {
    Transport::Http(HttpHeaders {
        protocol_version: version,
        method,
        name,
    })
}

// ------------------------------------------------------------------------------------------
// Replies
// ------------------------------------------------------------------------------------------

/// A JSON-RPC response, checked for shape: a JSON object whose members are `jsonrpc` ("2.0"),
/// optionally `id` (a string or an integer, never `null`) and exactly one of `result` and
/// `error` (`{code: integer, message: string, data?}`), nothing else.
#[derive(Debug)]
pub struct Rpc {
    /// HTTP status of the reply.
    pub status: u16,
    /// The body text.
    pub text: String,
    /// The raw JSON text of each member.
    pub members: BTreeMap<String, Box<RawValue>>,
    /// The body as a value.
    pub json: Json,
}

impl Rpc {
    /// The raw JSON text of `id`, if present.
    pub fn id_raw(&self) -> Option<&str> {
        self.members.get("id").map(|r| r.get())
    }
    /// The result, if this is a result response.
    pub fn result(&self) -> Option<&Json> {
        self.json.get("result")
    }
    /// The raw text of the result.
    pub fn result_raw(&self) -> Option<&str> {
        self.members.get("result").map(|r| r.get())
    }
    /// The error object, if this is an error response.
    pub fn error(&self) -> Option<&Json> {
        self.json.get("error")
    }
    /// The error code, if this is an error response.
    pub fn code(&self) -> Option<i64> {
        self.error().and_then(|e| e["code"].as_i64())
    }
    /// The error message ("" for results).
    pub fn message(&self) -> &str {
        self.error()
            .and_then(|e| e["message"].as_str())
            .unwrap_or("")
    }
}

/// Parses and checks a reply body. `Ok(None)` for a reply without a body (which must have
/// status 202); `Err` describes the first way the reply is not a well-formed JSON-RPC response.
pub fn check_reply(reply: &Reply) -> Result<Option<Rpc>, String> {
    if reply.splice.is_some() {
        return Err("a spliced reply: assemble it with its asset first (see `assemble`)".into());
    }
    let Some(body) = &reply.body else {
        return if reply.status == 202 {
            Ok(None)
        } else {
            Err(format!("no body but status {}", reply.status))
        };
    };
    let text = std::str::from_utf8(body)
        .map_err(|e| format!("body is not UTF-8: {e}"))?
        .to_owned();
    let members: BTreeMap<String, Box<RawValue>> =
        serde_json::from_str(&text).map_err(|e| format!("body is not a JSON object: {e}"))?;
    let json: Json = serde_json::from_str(&text).map_err(|e| format!("body: {e}"))?;
    let obj = json.as_object().ok_or("body is not an object")?;
    if obj.len() != members.len() {
        return Err("duplicate member in the body".into());
    }
    for k in obj.keys() {
        if !matches!(k.as_str(), "jsonrpc" | "id" | "result" | "error") {
            return Err(format!("unexpected member {k:?}"));
        }
    }
    if obj.get("jsonrpc") != Some(&json!("2.0")) {
        return Err("jsonrpc is not \"2.0\"".into());
    }
    if let Some(id) = members.get("id") {
        let t = id.get();
        let digits = t.strip_prefix('-').unwrap_or(t);
        let is_int = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
        if !(t.starts_with('"') || is_int) {
            return Err(format!("id {t} is neither a string nor an integer"));
        }
    }
    match (obj.get("result"), obj.get("error")) {
        (Some(r), None) => {
            if !r.is_object() {
                return Err("result is not an object".into());
            }
            if reply.status != 200 {
                return Err(format!("a result with status {}", reply.status));
            }
            if !obj.contains_key("id") {
                return Err("a result without id".into());
            }
        }
        (None, Some(e)) => {
            let eo = e.as_object().ok_or("error is not an object")?;
            if !e["code"].is_i64() || !e["message"].is_string() {
                return Err("error needs an integer code and a string message".into());
            }
            if eo
                .keys()
                .any(|k| !matches!(k.as_str(), "code" | "message" | "data"))
            {
                return Err("unexpected member in error".into());
            }
            let internal = e["code"] == json!(-32603);
            let expected =
                matches!(reply.status, 200 | 400 | 404) || (internal && reply.status == 500);
            if !expected {
                return Err(format!("error with status {}", reply.status));
            }
        }
        _ => return Err("exactly one of result and error must be present".into()),
    }
    Ok(Some(Rpc {
        status: reply.status,
        text,
        members,
        json,
    }))
}

/// What an adapter does with a reply whose middle is an asset: fetch the asset with `fetch`,
/// and send the fault reply instead when it is missing or has another length than the
/// splice says. Replies without a splice come back unchanged.
pub fn assemble(reply: Reply, fetch: impl Fn(&str) -> Option<Vec<u8>>) -> Reply {
    let Some(splice) = reply.splice else {
        return reply;
    };
    match fetch(&splice.asset) {
        Some(asset) if asset.len() as u64 == splice.len => Reply {
            status: reply.status,
            body: Some([reply.body.unwrap_or_default(), asset, splice.tail].concat()),
            splice: None,
        },
        _ => splice.fault,
    }
}

/// Answers `msg` and returns the checked response (panics when there is no body).
pub fn call(r: &Responder, msg: &[u8], transport: &Transport<'_>) -> Rpc {
    let reply = r.respond(msg, transport, Grant::PUBLIC);
    match check_reply(&reply) {
        Ok(Some(rpc)) => rpc,
        Ok(None) => panic!("no reply to {}", String::from_utf8_lossy(msg)),
        Err(e) => panic!(
            "malformed reply ({e}) to {}: {}",
            String::from_utf8_lossy(msg),
            reply.body_str()
        ),
    }
}

/// Answers `msg` over a stream and returns the result, asserting success.
pub fn ok(r: &Responder, msg: &[u8]) -> Json {
    ok_rpc(r, msg).json["result"].clone()
}

/// Answers `msg` over a stream, asserting success, and returns the whole response.
pub fn ok_rpc(r: &Responder, msg: &[u8]) -> Rpc {
    let rpc = call(r, msg, &Transport::Stream);
    assert!(
        rpc.result().is_some(),
        "expected a result for {}, got {}",
        String::from_utf8_lossy(msg),
        rpc.text
    );
    rpc
}

/// Answers `msg` over a stream and returns the error response, asserting failure.
pub fn err(r: &Responder, msg: &[u8]) -> Rpc {
    let rpc = call(r, msg, &Transport::Stream);
    assert!(
        rpc.error().is_some(),
        "expected an error for {}, got {}",
        String::from_utf8_lossy(msg),
        rpc.text
    );
    rpc
}

/// Every page of a paginated method, following `nextCursor` to the end (each page's result).
/// Fails on a repeated cursor, an empty cursor or more than 10,000 pages.
pub fn pages(r: &Responder, era: Era, method: &str, params: Json) -> Vec<Json> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut p = params.clone();
        if let Some(c) = &cursor {
            p["cursor"] = json!(c);
        }
        let res = ok(r, &request(era, out.len() + 1, method, p));
        let next = res.get("nextCursor").map(|c| {
            c.as_str()
                .unwrap_or_else(|| panic!("nextCursor must be a string: {c}"))
                .to_owned()
        });
        out.push(res);
        match next {
            None => return out,
            Some(c) => {
                assert!(!c.is_empty(), "{method}: empty nextCursor");
                assert!(seen.insert(c.clone()), "{method}: repeated cursor {c}");
                assert!(out.len() < 10_000, "{method}: too many pages");
                cursor = Some(c);
            }
        }
    }
}

/// The items of every page (`key` is the array member: `skills`, `resources`).
pub fn all_items(r: &Responder, era: Era, method: &str, params: Json, key: &str) -> Vec<Json> {
    pages(r, era, method, params)
        .into_iter()
        .flat_map(|p| {
            p[key]
                .as_array()
                .unwrap_or_else(|| panic!("{method}: {key} must be an array"))
                .clone()
        })
        .collect()
}

/// Parses JSON keeping object keys in document order (the project's ordered value).
pub fn ordered(text: &str) -> skills_edge::skill::value::Value {
    skills_edge::catalog::json::parse(text)
        .map_err(|e| e.to_string())
        .and_then(|n| n.to_value().map_err(|e| e.to_string()))
        .unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// The raw JSON text of member `key` of the object `text`.
pub fn raw_member(text: &str, key: &str) -> String {
    let m: BTreeMap<String, Box<RawValue>> =
        serde_json::from_str(text).unwrap_or_else(|e| panic!("not an object ({e}): {text}"));
    m.get(key)
        .unwrap_or_else(|| panic!("no member {key:?} in {text}"))
        .get()
        .to_owned()
}

// ------------------------------------------------------------------------------------------
// Bytes: digests and base64, computed here independently of the crate under test
// ------------------------------------------------------------------------------------------

/// `sha256:` + 64 lowercase hex of `bytes`.
pub fn sha256_wire(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    let d = sha2::Sha256::digest(bytes);
    let mut s = String::from("sha256:");
    for b in d.iter() {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

/// Strict RFC 4648 base64 (standard alphabet, padded), written independently of the crate.
pub fn base64_decode(s: &str) -> Option<Vec<u8>> {
    fn val(c: u8) -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    }
    let b = s.as_bytes();
    if !b.len().is_multiple_of(4) {
        return None;
    }
    let mut out = Vec::with_capacity(b.len() / 4 * 3);
    for (i, chunk) in b.chunks(4).enumerate() {
        let last = i == b.len() / 4 - 1;
        let pad = chunk.iter().rev().take_while(|&&c| c == b'=').count();
        if pad > 2 || (pad > 0 && !last) {
            return None;
        }
        let mut n = 0u32;
        for &c in &chunk[..4 - pad] {
            n = (n << 6) | val(c)?;
        }
        n <<= 6 * pad as u32;
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        // Unused low bits must be zero (canonical encoding).
        if (pad == 1 && bytes[2] != 0) || (pad == 2 && (bytes[1] != 0 || bytes[2] != 0)) {
            return None;
        }
        out.extend_from_slice(&bytes[..3 - pad]);
    }
    Some(out)
}

/// The raw bytes of a `resources/read` contents item: UTF-8 of `text`, or decoded `blob`.
/// Fails unless exactly one of the two is present.
pub fn content_bytes(item: &Json) -> Vec<u8> {
    match (item.get("text"), item.get("blob")) {
        (Some(Json::String(t)), None) => t.as_bytes().to_vec(),
        (None, Some(Json::String(b))) => {
            base64_decode(b).unwrap_or_else(|| panic!("blob is not strict base64: {item}"))
        }
        _ => panic!("exactly one of text and blob must be a string: {item}"),
    }
}

// ------------------------------------------------------------------------------------------
// JSON schemas (tests/schema)
// ------------------------------------------------------------------------------------------

/// One of the schema documents in `tests/schema`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Doc {
    /// `schema-2026-07-28.json`.
    Mcp2026,
    /// `schema-2025-11-25.json`.
    Mcp2025,
    /// `skills-extension.json`.
    Skills,
}

/// The MCP schema of an era.
pub fn mcp_doc(era: Era) -> Doc {
    match era {
        Era::Modern => Doc::Mcp2026,
        Era::Legacy => Doc::Mcp2025,
    }
}

/// The extension definition name of an era (`ListSkillsResult` / `ListSkillsResultLegacy`).
pub fn ext_def(era: Era, base: &str) -> String {
    match era {
        Era::Modern => base.to_owned(),
        Era::Legacy => format!("{base}Legacy"),
    }
}

/// A base URI for the relative references between the files of `tests/schema`. Nothing is
/// fetched: every document is registered in memory and no retriever is configured.
const SCHEMA_BASE: &str = "https://skills-edge.invalid/tests/schema/";

const MCP_2026: &str = include_str!("../schema/schema-2026-07-28.json");
const MCP_2025: &str = include_str!("../schema/schema-2025-11-25.json");
const SKILLS: &str = include_str!("../schema/skills-extension.json");

/// Compiled validators, one per (document, definition), built on first use.
pub struct Schemas {
    docs: HashMap<Doc, Json>,
    cache: HashMap<(Doc, String), jsonschema::Validator>,
}

impl Schemas {
    /// Loads the three documents.
    pub fn new() -> Schemas {
        let parse = |t: &str| serde_json::from_str::<Json>(t).expect("schema is JSON");
        let docs = HashMap::from([
            (Doc::Mcp2026, parse(MCP_2026)),
            (Doc::Mcp2025, parse(MCP_2025)),
            (Doc::Skills, parse(SKILLS)),
        ]);
        Schemas {
            docs,
            cache: HashMap::new(),
        }
    }

    fn file(doc: Doc) -> &'static str {
        match doc {
            Doc::Mcp2026 => "schema-2026-07-28.json",
            Doc::Mcp2025 => "schema-2025-11-25.json",
            Doc::Skills => "skills-extension.json",
        }
    }

    /// The validator for `#/$defs/<def>` of `doc` (formats checked).
    pub fn validator(&mut self, doc: Doc, def: &str) -> &jsonschema::Validator {
        let key = (doc, def.to_owned());
        if !self.cache.contains_key(&key) {
            let mut schema = self.docs[&doc].clone();
            assert!(
                schema["$defs"].get(def).is_some(),
                "{} has no definition {def}",
                Self::file(doc)
            );
            schema["$ref"] = json!(format!("#/$defs/{def}"));
            let mut opts = jsonschema::options()
                .with_draft(jsonschema::Draft::Draft202012)
                .should_validate_formats(true)
                .with_base_uri(format!("{SCHEMA_BASE}{}", Self::file(doc)));
            for other in [Doc::Mcp2026, Doc::Mcp2025] {
                let res = jsonschema::Resource::from_contents(self.docs[&other].clone())
                    .expect("schema resource");
                opts = opts.with_resource(format!("{SCHEMA_BASE}{}", Self::file(other)), res);
            }
            let v = opts
                .build(&schema)
                .unwrap_or_else(|e| panic!("{}#{def} does not compile: {e}", Self::file(doc)));
            self.cache.insert(key.clone(), v);
        }
        &self.cache[&key]
    }

    /// The validation errors of `instance` against `doc#/$defs/def` (empty when valid).
    pub fn errors(&mut self, doc: Doc, def: &str, instance: &Json) -> Vec<String> {
        self.validator(doc, def)
            .iter_errors(instance)
            .map(|e| format!("{} at {}", e, e.instance_path))
            .collect()
    }

    /// Asserts that `instance` is valid against `doc#/$defs/def`.
    pub fn assert_valid(&mut self, doc: Doc, def: &str, instance: &Json, context: &str) {
        let errors = self.errors(doc, def, instance);
        assert!(
            errors.is_empty(),
            "{context}: not a valid {}#{def}: {errors:#?}\n{instance}",
            Self::file(doc)
        );
    }

    /// Asserts that `instance` is rejected by `doc#/$defs/def` (negative controls).
    pub fn assert_invalid(&mut self, doc: Doc, def: &str, instance: &Json, context: &str) {
        assert!(
            !self.validator(doc, def).is_valid(instance),
            "{context}: {}#{def} accepted {instance}",
            Self::file(doc)
        );
    }

    /// Validates any response whatever its era: an error response against both MCP schemas, a
    /// result response against 2025-11-25, and also against 2026-07-28 when it carries
    /// `resultType`. Returns whether the result (if any) is a 2026-07-28 result.
    pub fn assert_any_envelope(&mut self, rpc: &Rpc, context: &str) -> bool {
        let modern = rpc.result().is_some_and(|r| r.get("resultType").is_some());
        if rpc.result().is_none() || modern {
            self.assert_envelope(Doc::Mcp2026, rpc, context);
        }
        self.assert_envelope(Doc::Mcp2025, rpc, context);
        modern
    }

    /// Validates a response envelope: `JSONRPCResultResponse` or `JSONRPCErrorResponse`.
    pub fn assert_envelope(&mut self, doc: Doc, rpc: &Rpc, context: &str) {
        let def = if rpc.result().is_some() {
            "JSONRPCResultResponse"
        } else {
            "JSONRPCErrorResponse"
        };
        self.assert_valid(doc, def, &rpc.json, context);
    }
}

impl Default for Schemas {
    fn default() -> Self {
        Schemas::new()
    }
}

// ------------------------------------------------------------------------------------------
// Temporary skills folders
// ------------------------------------------------------------------------------------------

/// A directory under the system's temporary directory, unique to this process and call,
/// removed (with everything in it) when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    /// Creates an empty directory; `tag` makes the name readable.
    pub fn new(tag: &str) -> TempDir {
        static N: AtomicUsize = AtomicUsize::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let safe: String = tag
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        let path = std::env::temp_dir().join(format!(
            "skills-edge-test-{}-{n}-{safe}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("create temp dir");
        TempDir(path)
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// Writes a file (creating its parent directories).
    pub fn write(&self, rel: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let p = self.0.join(rel);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).expect("create parent");
        }
        std::fs::write(&p, bytes).expect("write file");
        p
    }

    /// Creates a directory (and its parents).
    pub fn mkdir(&self, rel: &str) -> PathBuf {
        let p = self.0.join(rel);
        std::fs::create_dir_all(&p).expect("create dir");
        p
    }

    /// Walks and compiles the folder with the build's own code.
    pub fn compile(&self) -> Result<Compiled, CompileError> {
        compile::compile(walk::walk(&self.0).tree)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A minimal valid `SKILL.md` for `name`, with `extra` frontmatter lines (each ending in `\n`)
/// after `name` (line 2) and `description` (line 3); `extra` starts on line 4.
pub fn skill_md(name: &str, extra: &str) -> String {
    format!("---\nname: {name}\ndescription: A skill used by the tests.\n{extra}---\n\n# {name}\n\nBody.\n")
}

// ------------------------------------------------------------------------------------------
// Deterministic pseudo-random numbers
// ------------------------------------------------------------------------------------------

/// xorshift64*: a small seeded generator, so every run tests the same inputs.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}
