//! `Responder::respond` over the embedded catalog: one message plus the facts of its transport.
//!
//! Input: three flag bytes, then the message.
//! * byte 0, bit 0: 0 = the rest is the message as raw bytes; 1 = the rest drives
//!   `arbitrary` to build a near-valid request (methods from the real list, URIs from the
//!   catalog or mutations of them, real cursors or tampered ones, ids of every kind).
//!   Bits 1–2 choose the responder's settings (page size 50, 1 or 2; private cache, no
//!   instructions). Bit 3 set: the message goes instead to the two catalogs of
//!   tests/fixtures/hidden-views (`one/` and `four/`, which differ only in what is hidden),
//!   with page size 1, 2 or 50 (bits 1–2) for an anonymous caller or a `billing` caller
//!   (bit 4); URIs are those of both catalogs, hidden ones included, cursors the real ones of
//!   every list.
//! * byte 1, bits 0–1: 0 = a stream, else Streamable HTTP; bits 2–4: the
//!   `MCP-Protocol-Version` header; bits 5–7: `Mcp-Method`.
//! * byte 2, bits 0–2: `Mcp-Name`.
//!
//! Header variants: absent, equal to the body, the `=?base64?…?=` form of the body's value,
//! another value, malformed base64, empty.
//!
//! Properties: every reply property of `skills_edge_fuzz::reply::check`; a result is served in
//! the era the request belongs to (`resultType` exactly in 2026-07-28); a `resources/read`
//! result carries the catalog's bytes for that URI; a `skills/get` result carries its entry.
//! With bit 3: hidden is absent, cursors included: the two catalogs give the caller the same
//! reply, byte for byte, whatever the request (a forged cursor, a hidden URI, anything).
//!
//! The hidden-views responders and the fourth embedded one serve the tools and prompts
//! fallback with `search_skills`: `tools/call` requests name a fallback tool (or another
//! name) with arguments drawn from the fixture's words, those only hidden skills carry among
//! them, tags, limits in and out of range, and arbitrary text, so search's scores and errors
//! are held to hidden = absent too.

#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use libfuzzer_sys::fuzz_target;
use serde_json::Value as Json;
use skills_edge::catalog::{Catalog, Grant};
use skills_edge::protocol::{CacheScope, LEGACY_VERSIONS};
use skills_edge::server::{Config, Fallback, HttpHeaders, Responder, Transport};
use skills_edge_fuzz::json::Members;
use skills_edge_fuzz::reply::{check, Checked};
use skills_edge_fuzz::tool_call::ToolCall;
use std::sync::{Arc, OnceLock};

const MODERN: &str = "2026-07-28";

const METHODS: &[&str] = &[
    "server/discover",
    "skills/list",
    "skills/get",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/directory/read",
    "initialize",
    "ping",
    "notifications/initialized",
    "notifications/cancelled",
    "logging/setLevel",
    "resources/subscribe",
    "resources/unsubscribe",
    "tools/list",
    "tools/call",
    "prompts/get",
];

/// Every fallback surface: the three tools, `search_skills` and the prompts.
const FALLBACK: Fallback = Fallback {
    tools: true,
    prompts: true,
    search: true,
};

struct World {
    catalog: Arc<Catalog>,
    responders: Vec<Responder>,
    uris: Vec<String>,
    cursors: Vec<String>,
}

fn world() -> &'static World {
    static W: OnceLock<World> = OnceLock::new();
    W.get_or_init(|| {
        let catalog = skills_edge::embedded::catalog().expect("the embedded catalog loads");
        let config = |page_size| Config {
            page_size,
            ..Config::default()
        };
        let responders: Vec<Responder> = [
            config(50),
            config(1),
            config(2),
            Config {
                cache_scope: CacheScope::Private,
                instructions: Some(String::new()),
                server_info: Some(("fuzz".into(), "0".into())),
                fallback: FALLBACK,
                ..Config::default()
            },
        ]
        .into_iter()
        .map(|c| Responder::new(catalog.clone(), c).expect("valid settings"))
        .collect();
        let uris = skills_edge_fuzz::catalog_uris(&catalog);
        // Real cursors: the second page of every list, from the page-size-1 responder.
        let mut cursors = Vec::new();
        let mut lists: Vec<(&str, String)> = vec![
            ("skills/list", String::new()),
            ("resources/list", String::new()),
        ];
        for i in 0..catalog.dir_count() {
            if let Some(d) = catalog.dir_at(i) {
                lists.push((
                    "resources/directory/read",
                    format!("\"uri\":{},", serde_json::to_string(d.uri).unwrap_or_default()),
                ));
            }
        }
        for (method, fields) in lists {
            let msg = format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":{{{fields}"_meta":{{"io.modelcontextprotocol/protocolVersion":"{MODERN}","io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#
            );
            let reply = responders[1].respond(msg.as_bytes(), &Transport::Stream, Grant::PUBLIC);
            let v: Json = serde_json::from_slice(reply.body.as_deref().unwrap_or(b"{}"))
                .unwrap_or(Json::Null);
            if let Some(c) = v["result"]["nextCursor"].as_str() {
                cursors.push(c.to_owned());
            }
        }
        World {
            catalog,
            responders,
            uris,
            cursors,
        }
    })
}

/// The two catalogs of tests/fixtures/hidden-views, which differ only in what is hidden.
struct Hidden {
    /// Per page size (1, 2, 50): the responder over `one/` and over `four/`.
    responders: Vec<(Responder, Responder)>,
    /// Per caller (anonymous, `billing`): its grant in `one/` and in `four/`.
    grants: [(Grant, Grant); 2],
    /// Every URI of both catalogs, hidden ones included.
    uris: Vec<String>,
    /// The cursors of every page of every list, for both callers and every page size.
    cursors: Vec<String>,
}

fn hidden() -> &'static Hidden {
    static H: OnceLock<Hidden> = OnceLock::new();
    H.get_or_init(|| {
        let load = |name: &str| {
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../tests/fixtures/hidden-views")
                .join(name);
            let walked = skills_edge::catalog::walk::walk(&dir);
            Arc::new(Catalog::compile(walked.tree, None).expect("the fixture compiles"))
        };
        let (one, four) = (load("one"), load("four"));
        let responders: Vec<(Responder, Responder)> = [1, 2, 50]
            .into_iter()
            .map(|page_size| {
                let c = Config {
                    page_size,
                    fallback: FALLBACK,
                    ..Config::default()
                };
                (
                    Responder::new(one.clone(), c.clone()).expect("valid settings"),
                    Responder::new(four.clone(), c).expect("valid settings"),
                )
            })
            .collect();
        let grants = [
            (Grant::PUBLIC, Grant::PUBLIC),
            (one.grant(&["billing"]), four.grant(&["billing"])),
        ];
        let mut uris = skills_edge_fuzz::catalog_uris(&four);
        uris.extend(skills_edge_fuzz::catalog_uris(&one));
        uris.sort();
        uris.dedup();
        let mut cursors = Vec::new();
        let mut lists = vec![
            ("skills/list", String::new()),
            ("resources/list", String::new()),
        ];
        for u in &uris {
            lists.push(("resources/directory/read", format!("\"uri\":{},", s(u))));
        }
        for (r, _) in &responders[..2] {
            for (g, _) in grants {
                for (method, fields) in &lists {
                    let mut cursor = String::new();
                    for _ in 0..20 {
                        let msg = format!(
                            r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":{{{fields}{cursor}"_meta":{{"io.modelcontextprotocol/protocolVersion":"{MODERN}","io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#
                        );
                        let reply = r.respond(msg.as_bytes(), &Transport::Stream, g);
                        let v: Json = serde_json::from_slice(reply.body.as_deref().unwrap_or(b"{}"))
                            .unwrap_or(Json::Null);
                        let Some(c) = v["result"]["nextCursor"].as_str() else {
                            break;
                        };
                        cursors.push(c.to_owned());
                        cursor = format!("\"cursor\":{},", s(c));
                    }
                }
            }
        }
        Hidden {
            responders,
            grants,
            uris,
            cursors,
        }
    })
}

// ---------------------------------------------------------------------------------------------
// Structured requests
// ---------------------------------------------------------------------------------------------

#[derive(Arbitrary, Debug)]
enum Id {
    Int(i64),
    Small(u8),
    Str(String),
    Absent,
    Null,
    Float,
    Huge,
    Object,
    Escaped,
}

#[derive(Arbitrary, Debug)]
enum Method {
    Known(u8),
    Custom(String),
    Absent,
    Number,
    Null,
}

#[derive(Arbitrary, Debug)]
enum Version {
    Modern,
    Legacy(u8),
    Other(String),
    NotAString,
}

#[derive(Arbitrary, Debug)]
enum Caps {
    Object,
    Absent,
    NotAnObject,
}

#[derive(Arbitrary, Debug)]
enum MetaSpec {
    Absent,
    NotAnObject,
    Object {
        version: Option<Version>,
        caps: Caps,
        duplicate_version: bool,
    },
}

#[derive(Arbitrary, Debug)]
enum Mutation {
    TrailingSlash,
    DoubleSlash,
    DropLast,
    Upper,
    Percent,
    Append(String),
    Replace(u8, char),
    DotSegment,
    StripScheme,
}

#[derive(Arbitrary, Debug)]
enum UriSpec {
    Real(u16),
    Mutated(u16, Mutation),
    Custom(String),
    NotAString,
    Escaped(u16),
}

#[derive(Arbitrary, Debug)]
enum CursorSpec {
    Real(u8),
    Tampered(u8, u8, char),
    Custom(String),
    Null,
    NotAString,
}

#[derive(Arbitrary, Debug)]
enum ParamsSpec {
    Absent,
    NotAnObject,
    Object {
        meta: MetaSpec,
        uri: Option<UriSpec>,
        cursor: Option<CursorSpec>,
        protocol_version: Option<Version>,
        extra: Option<(String, String)>,
        duplicate_uri: bool,
        tool: Option<ToolCall>,
    },
}

#[derive(Arbitrary, Debug)]
struct Msg {
    jsonrpc: u8,
    id: Id,
    method: Method,
    params: ParamsSpec,
    result_member: bool,
    spaced: bool,
}

fn s(v: &str) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

fn version(v: &Version) -> String {
    match v {
        Version::Modern => s(MODERN),
        Version::Legacy(i) => s(LEGACY_VERSIONS[*i as usize % LEGACY_VERSIONS.len()]),
        Version::Other(o) => s(o),
        Version::NotAString => "20260728".into(),
    }
}

fn mutate(uri: &str, m: &Mutation) -> String {
    match m {
        Mutation::TrailingSlash => format!("{uri}/"),
        Mutation::DoubleSlash => uri.replacen("://", ":///", 1),
        Mutation::DropLast => {
            let mut u = uri.to_owned();
            u.pop();
            u
        }
        Mutation::Upper => uri.to_uppercase(),
        Mutation::Percent => uri.replacen('-', "%2D", 1),
        Mutation::Append(a) => format!("{uri}/{a}"),
        Mutation::Replace(at, c) => {
            let mut chars: Vec<char> = uri.chars().collect();
            if !chars.is_empty() {
                let i = *at as usize % chars.len();
                chars[i] = *c;
            }
            chars.into_iter().collect()
        }
        Mutation::DotSegment => uri.replacen("://", "://./", 1),
        Mutation::StripScheme => uri.trim_start_matches("skill://").to_owned(),
    }
}

/// A JSON string with every character escaped as `\uXXXX`.
fn escaped(v: &str) -> String {
    let mut out = String::from("\"");
    for u in v.encode_utf16() {
        out.push_str(&format!("\\u{u:04x}"));
    }
    out.push('"');
    out
}

fn pick(list: &[String], i: usize) -> &str {
    if list.is_empty() {
        ""
    } else {
        &list[i % list.len()]
    }
}

fn render(m: &Msg, uris: &[String], cursors: &[String]) -> String {
    let mut members: Vec<(String, String)> = Vec::new();
    match m.jsonrpc % 8 {
        0 => {}
        1 => members.push(("jsonrpc".into(), "\"1.0\"".into())),
        2 => members.push(("jsonrpc".into(), "2.0".into())),
        3 => members.push(("jsonrpc".into(), "\"\\u0032.0\"".into())),
        _ => members.push(("jsonrpc".into(), "\"2.0\"".into())),
    }
    match &m.id {
        Id::Int(i) => members.push(("id".into(), i.to_string())),
        Id::Small(i) => members.push(("id".into(), i.to_string())),
        Id::Str(v) => members.push(("id".into(), s(v))),
        Id::Absent => {}
        Id::Null => members.push(("id".into(), "null".into())),
        Id::Float => members.push(("id".into(), "1.5".into())),
        Id::Huge => members.push(("id".into(), "123456789012345678901234567890".into())),
        Id::Object => members.push(("id".into(), "{\"a\":1}".into())),
        Id::Escaped => members.push(("id".into(), "\"a\\\"b\\u00e9\\ud83d\\ude00\"".into())),
    }
    match &m.method {
        Method::Known(i) => {
            members.push(("method".into(), s(METHODS[*i as usize % METHODS.len()])))
        }
        Method::Custom(v) => members.push(("method".into(), s(v))),
        Method::Absent => {}
        Method::Number => members.push(("method".into(), "7".into())),
        Method::Null => members.push(("method".into(), "null".into())),
    }
    match &m.params {
        ParamsSpec::Absent => {}
        ParamsSpec::NotAnObject => members.push(("params".into(), "[]".into())),
        ParamsSpec::Object { .. } => members.push((
            "params".into(),
            params_object(&m.params, uris, cursors, m.spaced),
        )),
    }
    if m.result_member {
        members.push(("result".into(), "{}".into()));
    }
    object(&members, m.spaced)
}

/// The `params` object of a request whose params are an object.
fn params_object(spec: &ParamsSpec, uris: &[String], cursors: &[String], spaced: bool) -> String {
    let ParamsSpec::Object {
        meta,
        uri,
        cursor,
        protocol_version,
        extra,
        duplicate_uri,
        tool,
    } = spec
    else {
        return "{}".into();
    };
    let mut p: Vec<(String, String)> = Vec::new();
    if let Some(t) = tool {
        p.push(("name".into(), s(t.name())));
        p.push(("arguments".into(), object(&t.arguments(uris), spaced)));
    }
    if let Some(u) = uri {
        let text = match u {
            UriSpec::Real(i) => s(pick(uris, *i as usize)),
            UriSpec::Mutated(i, how) => s(&mutate(pick(uris, *i as usize), how)),
            UriSpec::Custom(c) => s(c),
            UriSpec::NotAString => "[\"skill://code-review/SKILL.md\"]".into(),
            UriSpec::Escaped(i) => escaped(pick(uris, *i as usize)),
        };
        p.push(("uri".into(), text.clone()));
        if *duplicate_uri {
            p.push(("uri".into(), text));
        }
    }
    if let Some(c) = cursor {
        let text = match c {
            CursorSpec::Real(i) => s(pick(cursors, *i as usize)),
            CursorSpec::Tampered(i, at, ch) => {
                let mut chars: Vec<char> = pick(cursors, *i as usize).chars().collect();
                if !chars.is_empty() {
                    let k = *at as usize % chars.len();
                    chars[k] = *ch;
                }
                s(&chars.into_iter().collect::<String>())
            }
            CursorSpec::Custom(c) => s(c),
            CursorSpec::Null => "null".into(),
            CursorSpec::NotAString => "1".into(),
        };
        p.push(("cursor".into(), text));
    }
    if let Some(v) = protocol_version {
        p.push(("protocolVersion".into(), version(v)));
    }
    if let Some((k, v)) = extra {
        p.push((s(k)[1..s(k).len() - 1].to_owned(), s(v)));
    }
    match meta {
        MetaSpec::Absent => {}
        MetaSpec::NotAnObject => p.push(("_meta".into(), "\"meta\"".into())),
        MetaSpec::Object {
            version: v,
            caps,
            duplicate_version,
        } => {
            let mut mm: Vec<(String, String)> = Vec::new();
            if let Some(v) = v {
                mm.push(("io.modelcontextprotocol/protocolVersion".into(), version(v)));
                if *duplicate_version {
                    mm.push(("io.modelcontextprotocol/protocolVersion".into(), version(v)));
                }
            }
            match caps {
                Caps::Object => mm.push((
                    "io.modelcontextprotocol/clientCapabilities".into(),
                    "{}".into(),
                )),
                Caps::Absent => {}
                Caps::NotAnObject => mm.push((
                    "io.modelcontextprotocol/clientCapabilities".into(),
                    "true".into(),
                )),
            }
            p.push(("_meta".into(), object(&mm, spaced)));
        }
    }
    object(&p, spaced)
}

fn object(members: &[(String, String)], spaced: bool) -> String {
    let sep = if spaced { ", " } else { "," };
    let colon = if spaced { " : " } else { ":" };
    let inner: Vec<String> = members
        .iter()
        .map(|(k, v)| format!("\"{k}\"{colon}{v}"))
        .collect();
    if spaced {
        format!("{{ {} }}\n", inner.join(sep))
    } else {
        format!("{{{}}}", inner.join(sep))
    }
}

// ---------------------------------------------------------------------------------------------
// Headers
// ---------------------------------------------------------------------------------------------

/// What the body says, for headers that mirror it.
struct Body {
    method: Option<String>,
    uri: Option<String>,
    version: Option<String>,
}

fn body_facts(msg: &[u8]) -> Body {
    let v: Json = serde_json::from_slice(msg).unwrap_or(Json::Null);
    let str_of = |v: &Json| v.as_str().map(str::to_owned);
    Body {
        method: str_of(&v["method"]),
        uri: str_of(&v["params"]["uri"]),
        version: str_of(&v["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"]),
    }
}

fn b64(v: &str) -> String {
    format!("=?base64?{}?=", STANDARD.encode(v.as_bytes()))
}

fn mirror(choice: u8, body: Option<&str>, other: &str) -> Option<String> {
    let body = body.unwrap_or(other);
    match choice % 8 {
        0 => None,
        1 => Some(body.to_owned()),
        2 => Some(b64(body)),
        3 => Some(other.to_owned()),
        4 => Some(b64(other)),
        5 => Some("=?base64?not base64?=".into()),
        6 => Some(String::new()),
        _ => Some(body.to_uppercase()),
    }
}

// ---------------------------------------------------------------------------------------------
// The target
// ---------------------------------------------------------------------------------------------

/// Whether the request belongs to the 2026-07-28 era, worked out from its text.
fn is_modern(msg: &[u8], headers: Option<&HttpHeaders<'_>>) -> bool {
    let by_body = std::str::from_utf8(msg)
        .ok()
        .and_then(Members::parse)
        .and_then(|m| m.get("params"))
        .and_then(|p| Members::parse(p.get()))
        .filter(|p| {
            ["_meta", "cursor", "uri", "protocolVersion"]
                .iter()
                .all(|k| p.count(k) <= 1)
        })
        .and_then(|p| p.get("_meta"))
        .and_then(|meta| Members::parse(meta.get()))
        .filter(|m| {
            m.count("io.modelcontextprotocol/protocolVersion") == 1
                && m.count("io.modelcontextprotocol/clientCapabilities") <= 1
        })
        .is_some();
    by_body
        || headers
            .and_then(|h| h.protocol_version)
            .is_some_and(|v| !LEGACY_VERSIONS.contains(&v))
}

fn run(data: &[u8]) {
    let w = world();
    let (flags, rest) = skills_edge_fuzz::split_flags::<3>(data);
    let hidden_views = flags[0] & 8 != 0;
    let (uris, cursors) = if hidden_views {
        (&hidden().uris, &hidden().cursors)
    } else {
        (&w.uris, &w.cursors)
    };
    let msg: Vec<u8> = if flags[0] & 1 == 0 {
        rest.to_vec()
    } else {
        let mut u = Unstructured::new(rest);
        match Msg::arbitrary(&mut u) {
            Ok(m) => render(&m, uris, cursors).into_bytes(),
            Err(_) => return,
        }
    };
    let responder = &w.responders[((flags[0] >> 1) & 3) as usize];
    let facts = body_facts(&msg);
    let version = match (flags[1] >> 2) % 8 {
        0 => None,
        1 => Some(facts.version.clone().unwrap_or_else(|| MODERN.into())),
        2 => Some(MODERN.to_owned()),
        3 => Some("2025-11-25".to_owned()),
        4 => Some("2025-06-18".to_owned()),
        5 => Some(String::new()),
        6 => Some(format!("{MODERN} ")),
        _ => Some("1.0".to_owned()),
    };
    let method = mirror(flags[1] >> 5, facts.method.as_deref(), "skills/list");
    let name = mirror(
        flags[2],
        facts.uri.as_deref(),
        "skill://code-review/SKILL.md",
    );
    let headers = HttpHeaders {
        protocol_version: version.as_deref(),
        method: method.as_deref(),
        name: name.as_deref(),
    };
    let transport = if flags[1] & 3 == 0 {
        Transport::Stream
    } else {
        Transport::Http(headers)
    };
    if hidden_views {
        let h = hidden();
        let (one, four) = &h.responders[((flags[0] >> 1) & 3) as usize % h.responders.len()];
        let (g_one, g_four) = h.grants[((flags[0] >> 4) & 1) as usize];
        let a = one.respond(&msg, &transport, g_one);
        let b = four.respond(&msg, &transport, g_four);
        assert!(
            a.status == b.status && a.body == b.body && a.splice.is_none() && b.splice.is_none(),
            "catalogs that differ only in what is hidden answered {:?} differently:\n{}\n{}",
            String::from_utf8_lossy(&msg),
            String::from_utf8_lossy(a.body.as_deref().unwrap_or(b"")),
            String::from_utf8_lossy(b.body.as_deref().unwrap_or(b"")),
        );
        return;
    }
    let reply = responder.respond(&msg, &transport, Grant::PUBLIC);
    let Checked::Result(result) = check(&msg, &reply) else {
        return;
    };
    let hdrs = match &transport {
        Transport::Http(h) => Some(h),
        Transport::Stream => None,
    };
    let modern = is_modern(&msg, hdrs);
    assert_eq!(
        result.get("resultType").is_some(),
        modern,
        "a result in the wrong era: {:?} to {:?}",
        result,
        String::from_utf8_lossy(&msg)
    );
    if modern {
        assert_eq!(result["resultType"], "complete");
        assert!(
            result["_meta"]["io.modelcontextprotocol/serverInfo"].is_object(),
            "a 2026-07-28 result without serverInfo: {result:?}"
        );
    }
    check_content(&w.catalog, &msg, &result);
}

/// A successful `resources/read` or `skills/get` serves exactly what the catalog holds.
fn check_content(catalog: &Catalog, msg: &[u8], result: &Json) {
    let req: Json = serde_json::from_slice(msg).unwrap_or(Json::Null);
    let uri = req["params"]["uri"].as_str().unwrap_or_default();
    match req["method"].as_str() {
        Some("resources/read") => {
            let file = catalog.file(uri).unwrap_or_else(|| {
                panic!("resources/read succeeded for {uri:?}, which is no file")
            });
            let item = &result["contents"][0];
            assert_eq!(item["uri"], uri, "resources/read served another URI");
            assert_eq!(item["mimeType"], file.mime);
            let served = match (item["text"].as_str(), item["blob"].as_str()) {
                (Some(t), None) => t.as_bytes().to_vec(),
                (None, Some(b)) => STANDARD.decode(b).expect("a blob is strict base64"),
                _ => panic!("a content item needs exactly one of text and blob: {item:?}"),
            };
            // The embedded catalog keeps every byte in the pack.
            assert_eq!(
                Some(&served[..]),
                file.bytes(),
                "resources/read served other bytes for {uri}"
            );
        }
        Some("skills/get") => {
            let skill = catalog
                .skill(uri)
                .unwrap_or_else(|| panic!("skills/get succeeded for {uri:?}, which is no skill"));
            let entry: Json = serde_json::from_str(skill.entry_json).expect("entries are JSON");
            assert_eq!(result["skill"], entry, "skills/get served another entry");
        }
        _ => {}
    }
}

fuzz_target!(|data: &[u8]| run(data));
