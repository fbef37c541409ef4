//! Bad input for the responder, as a table: each row is the message bytes, the transport, the
//! HTTP status, the JSON-RPC outcome (an error code, a result, or no body at all) and the id the
//! reply must echo (or must not carry). Then a property-style loop: every prefix of several valid
//! messages and thousands of seeded byte mutations never panic and always get either no body or
//! a well-formed, schema-valid JSON-RPC response. The same for the tools and prompts fallback:
//! a table of tool and prompt misuse (wrong argument types, missing arguments, unknown tools and
//! prompts, traversal in a path argument, header mismatches) and its own mutation loop.

use crate::common;

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine as _;
use common::*;
use serde_json::json;
use skills_edge::catalog::Grant;
use skills_edge::protocol::Era;
use skills_edge::server::{Responder, Transport};

/// The transport of a row (owned, so rows can carry computed header values).
#[derive(Debug, Clone)]
enum T {
    Stream,
    Http(Option<String>, Option<String>, Option<String>),
}

impl T {
    fn get(&self) -> Transport<'_> {
        match self {
            T::Stream => Transport::Stream,
            T::Http(v, m, n) => http(v.as_deref(), m.as_deref(), n.as_deref()),
        }
    }
}

/// Headers of a POST: `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`.
fn h(version: Option<&str>, method: Option<&str>, name: Option<&str>) -> T {
    T::Http(
        version.map(str::to_owned),
        method.map(str::to_owned),
        name.map(str::to_owned),
    )
}

/// Correct 2026-07-28 headers for `method`.
fn hm(method: &str) -> T {
    h(Some(MODERN), Some(method), None)
}

/// What the reply must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Out {
    /// No body (status 202).
    NoBody,
    /// A result.
    Result,
    /// An error with this code.
    Error(i64),
}

/// The id the reply must carry.
#[derive(Debug, Clone)]
enum Id {
    /// No `id` member at all.
    Absent,
    /// This raw JSON text, byte for byte.
    Is(String),
    /// Not applicable (no body).
    None,
}

fn is(raw: &str) -> Id {
    Id::Is(raw.to_owned())
}

struct Row {
    name: String,
    msg: Vec<u8>,
    t: T,
    status: u16,
    out: Out,
    id: Id,
}

fn row(name: &str, msg: impl Into<Vec<u8>>, t: T, status: u16, out: Out, id: Id) -> Row {
    Row {
        name: name.to_owned(),
        msg: msg.into(),
        t,
        status,
        out,
        id,
    }
}

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

/// A 2026-07-28 request: `fields` are extra `params` members (raw JSON, without braces).
fn modern(id: &str, method: &str, fields: &str) -> String {
    let sep = if fields.is_empty() { "" } else { "," };
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{fields}{sep}{META}}}}}"#)
}

/// A 2026-07-28 request declaring protocol version `version`.
fn modern_v(id: &str, method: &str, version: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{"_meta":{{"io.modelcontextprotocol/protocolVersion":"{version}","io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#
    )
}

/// A legacy request: `fields` are the `params` members (none: no `params`).
fn legacy(id: &str, method: &str, fields: &str) -> String {
    if fields.is_empty() {
        format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}"}}"#)
    } else {
        format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{fields}}}}}"#)
    }
}

/// The first `nextCursor` of a paginated method (page size 1).
fn first_cursor(r: &Responder, method: &str, params: serde_json::Value) -> String {
    let res = ok(r, &request(Era::Modern, 1, method, params));
    res["nextCursor"]
        .as_str()
        .unwrap_or_else(|| panic!("{method} has a second page"))
        .to_owned()
}

/// A cursor with one byte changed (cursors are 14 bytes: version, kind, snapshot, scope,
/// offset).
fn tamper(cursor: &str, at: usize, value: u8) -> String {
    let mut b = URL_SAFE_NO_PAD
        .decode(cursor)
        .expect("a cursor is URL-safe base64");
    assert_eq!(b.len(), 14);
    b[at] = value;
    URL_SAFE_NO_PAD.encode(&b)
}

fn table(r: &Responder) -> Vec<Row> {
    use Out::*;
    let ok_list = modern("1", "skills/list", "");
    let mib = "a".repeat(1 << 20);
    let deep_open = "[".repeat(10_000);
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let deep_obj = format!("{}1{}", r#"{"a":"#.repeat(10_000), "}".repeat(10_000));
    let skills_cursor = first_cursor(r, "skills/list", json!({}));
    let resources_cursor = first_cursor(r, "resources/list", json!({}));
    let dir_cursor = first_cursor(
        r,
        "resources/directory/read",
        json!({"uri": "skill://code-review"}),
    );
    let b64 = |s: &str| format!("=?base64?{}?=", STANDARD.encode(s.as_bytes()));
    let read_md = modern(
        "1",
        "resources/read",
        r#""uri":"skill://code-review/SKILL.md""#,
    );
    let escaped_id = r#""a\"b\\c\u00e9\n\ud83d\ude00/""#;
    let big_id = "123456789012345678901234567890";
    let big_neg_id = "-9223372036854775809";
    let s = || T::Stream;
    let cur = |c: &str| format!(r#""cursor":"{c}""#);

    vec![
        // --- Bytes and JSON syntax ---------------------------------------------------------
        row(
            "invalid UTF-8 in a string",
            &b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}"[..],
            s(),
            400,
            Error(-32700),
            Id::Absent,
        ),
        row(
            "invalid UTF-8 alone",
            &b"\xc3\x28"[..],
            s(),
            400,
            Error(-32700),
            Id::Absent,
        ),
        row(
            "overlong UTF-8",
            &b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xc0\xaf\"}"[..],
            s(),
            400,
            Error(-32700),
            Id::Absent,
        ),
        row("empty message", "", s(), 400, Error(-32700), Id::Absent),
        row(
            "whitespace only",
            " \t\r\n ",
            s(),
            400,
            Error(-32700),
            Id::Absent,
        ),
        row("empty array", "[]", s(), 400, Error(-32600), Id::Absent),
        row(
            "batch of one request",
            format!("[{ok_list}]"),
            s(),
            400,
            Error(-32600),
            Id::Absent,
        ),
        row("number", "1", s(), 400, Error(-32600), Id::Absent),
        row(
            "string",
            "\"skills/list\"",
            s(),
            400,
            Error(-32600),
            Id::Absent,
        ),
        row("true", "true", s(), 400, Error(-32600), Id::Absent),
        row("null", "null", s(), 400, Error(-32600), Id::Absent),
        row(
            "truncated",
            r#"{"jsonrpc":"2.0","id":1,"method":"skills/li"#,
            s(),
            400,
            Error(-32700),
            Id::Absent,
        ),
        row(
            "truncated after a comma",
            r#"{"jsonrpc":"2.0","id":1,"#,
            s(),
            400,
            Error(-32700),
            Id::Absent,
        ),
        row(
            "trailing garbage",
            format!("{ok_list} x"),
            s(),
            400,
            Error(-32700),
            Id::Absent,
        ),
        row(
            "two messages in one",
            format!("{ok_list}{ok_list}"),
            s(),
            400,
            Error(-32700),
            Id::Absent,
        ),
        row(
            "single quotes",
            "{'jsonrpc':'2.0'}",
            s(),
            400,
            Error(-32700),
            Id::Absent,
        ),
        row(
            "10,000 unclosed [",
            deep_open,
            s(),
            400,
            Error(-32700),
            Id::Absent,
        ),
        row(
            "10,000 nested arrays",
            deep.clone(),
            s(),
            400,
            Error(-32600),
            Id::Absent,
        ),
        row(
            "10,000 nested objects",
            deep_obj,
            s(),
            400,
            Error(-32600),
            Id::Absent,
        ),
        row(
            "10,000 nested arrays as the id",
            format!(r#"{{"jsonrpc":"2.0","id":{deep},"method":"ping"}}"#),
            s(),
            400,
            Error(-32600),
            Id::Absent,
        ),
        row(
            "10,000 nested arrays in an unknown param",
            legacy("1", "skills/list", &format!(r#""x":{deep}"#)),
            s(),
            200,
            Result,
            is("1"),
        ),
        row(
            "1 MiB method name",
            legacy("1", &mib, ""),
            s(),
            404,
            Error(-32601),
            is("1"),
        ),
        row(
            "1 MiB uri",
            legacy("1", "resources/read", &format!(r#""uri":"skill://{mib}""#)),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "1 MiB string id",
            legacy(&format!("\"{mib}\""), "ping", ""),
            s(),
            200,
            Result,
            is(&format!("\"{mib}\"")),
        ),
        // --- The envelope --------------------------------------------------------------------
        row(
            "duplicate id",
            r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}"#,
            s(),
            400,
            Error(-32600),
            Id::Absent,
        ),
        row(
            "duplicate method",
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","method":"x"}"#,
            s(),
            400,
            Error(-32600),
            Id::Absent,
        ),
        row(
            "duplicate jsonrpc",
            r#"{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"method":"ping"}"#,
            s(),
            400,
            Error(-32600),
            Id::Absent,
        ),
        row(
            "duplicate params member",
            legacy(
                "1",
                "skills/get",
                r#""uri":"skill://code-review/SKILL.md","uri":"x""#,
            ),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "duplicate _meta member over HTTP",
            r#"{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#,
            hm("skills/list"),
            400,
            Error(-32602),
            is("1"),
        ),
        row(
            "missing jsonrpc",
            r#"{"id":1,"method":"ping"}"#,
            s(),
            400,
            Error(-32600),
            is("1"),
        ),
        row(
            "jsonrpc 1.0",
            r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#,
            s(),
            400,
            Error(-32600),
            is("1"),
        ),
        row(
            "jsonrpc as a number",
            r#"{"jsonrpc":2.0,"id":1,"method":"ping"}"#,
            s(),
            400,
            Error(-32600),
            is("1"),
        ),
        row(
            "method is a number",
            r#"{"jsonrpc":"2.0","id":1,"method":5}"#,
            s(),
            400,
            Error(-32600),
            is("1"),
        ),
        row(
            "method is null",
            r#"{"jsonrpc":"2.0","id":"m","method":null}"#,
            s(),
            400,
            Error(-32600),
            is("\"m\""),
        ),
        row(
            "no method, no result",
            r#"{"jsonrpc":"2.0","id":1}"#,
            s(),
            400,
            Error(-32600),
            is("1"),
        ),
        row(
            "id null",
            r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
            s(),
            400,
            Error(-32600),
            Id::Absent,
        ),
        row(
            "id 1.5",
            r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
            s(),
            400,
            Error(-32600),
            Id::Absent,
        ),
        row(
            "id 1.0",
            r#"{"jsonrpc":"2.0","id":1.0,"method":"ping"}"#,
            s(),
            400,
            Error(-32600),
            Id::Absent,
        ),
        row(
            "id 1e3",
            r#"{"jsonrpc":"2.0","id":1e3,"method":"ping"}"#,
            s(),
            400,
            Error(-32600),
            Id::Absent,
        ),
        row(
            "id true",
            r#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#,
            s(),
            400,
            Error(-32600),
            Id::Absent,
        ),
        row(
            "id object",
            r#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#,
            s(),
            400,
            Error(-32600),
            Id::Absent,
        ),
        row(
            "id array",
            r#"{"jsonrpc":"2.0","id":[1],"method":"ping"}"#,
            s(),
            400,
            Error(-32600),
            Id::Absent,
        ),
        row(
            "id string with escapes",
            legacy(escaped_id, "ping", ""),
            s(),
            200,
            Result,
            is(escaped_id),
        ),
        row(
            "id string with escapes, error",
            modern(escaped_id, "nope", ""),
            s(),
            404,
            Error(-32601),
            is(escaped_id),
        ),
        row(
            "negative id",
            legacy("-7", "ping", ""),
            s(),
            200,
            Result,
            is("-7"),
        ),
        row(
            "id zero",
            legacy("0", "ping", ""),
            s(),
            200,
            Result,
            is("0"),
        ),
        row(
            "empty string id",
            legacy("\"\"", "ping", ""),
            s(),
            200,
            Result,
            is("\"\""),
        ),
        row(
            "integer id beyond 2^64",
            legacy(big_id, "ping", ""),
            s(),
            200,
            Result,
            is(big_id),
        ),
        row(
            "integer id below -2^63",
            modern(big_neg_id, "nope", ""),
            s(),
            404,
            Error(-32601),
            is(big_neg_id),
        ),
        // --- params ---------------------------------------------------------------------------
        row(
            "params is an array",
            r#"{"jsonrpc":"2.0","id":1,"method":"skills/list","params":[]}"#,
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "params is a string",
            r#"{"jsonrpc":"2.0","id":1,"method":"skills/list","params":"x"}"#,
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "params is null",
            r#"{"jsonrpc":"2.0","id":1,"method":"skills/list","params":null}"#,
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "params is an array over HTTP",
            r#"{"jsonrpc":"2.0","id":1,"method":"skills/list","params":[]}"#,
            hm("skills/list"),
            400,
            Error(-32602),
            is("1"),
        ),
        row(
            "no params over HTTP",
            r#"{"jsonrpc":"2.0","id":1,"method":"skills/list"}"#,
            hm("skills/list"),
            400,
            Error(-32602),
            is("1"),
        ),
        // --- _meta ------------------------------------------------------------------------------
        row(
            "_meta missing over HTTP",
            legacy("1", "skills/list", r#""cursor":null"#),
            hm("skills/list"),
            400,
            Error(-32602),
            is("1"),
        ),
        row(
            "_meta is a string over HTTP",
            legacy("1", "skills/list", r#""_meta":"x""#),
            hm("skills/list"),
            400,
            Error(-32602),
            is("1"),
        ),
        row(
            "_meta without protocolVersion over HTTP",
            legacy(
                "1",
                "skills/list",
                r#""_meta":{"io.modelcontextprotocol/clientCapabilities":{}}"#,
            ),
            hm("skills/list"),
            400,
            Error(-32602),
            is("1"),
        ),
        row(
            "_meta without protocolVersion over a stream is legacy",
            legacy(
                "1",
                "skills/list",
                r#""_meta":{"io.modelcontextprotocol/clientCapabilities":{}}"#,
            ),
            s(),
            200,
            Result,
            is("1"),
        ),
        row(
            "_meta without clientCapabilities",
            legacy(
                "1",
                "skills/list",
                r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}"#,
            ),
            s(),
            400,
            Error(-32602),
            is("1"),
        ),
        row(
            "clientCapabilities is not an object",
            legacy(
                "1",
                "skills/list",
                r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":[]}"#,
            ),
            s(),
            400,
            Error(-32602),
            is("1"),
        ),
        row(
            "clientCapabilities is null",
            legacy(
                "1",
                "skills/list",
                r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":null}"#,
            ),
            s(),
            400,
            Error(-32602),
            is("1"),
        ),
        row(
            "protocolVersion is a number",
            legacy(
                "1",
                "skills/list",
                r#""_meta":{"io.modelcontextprotocol/protocolVersion":2026,"io.modelcontextprotocol/clientCapabilities":{}}"#,
            ),
            s(),
            400,
            Error(-32602),
            is("1"),
        ),
        // --- HTTP headers and versions ----------------------------------------------------------
        row(
            "MCP-Protocol-Version header missing",
            modern("1", "skills/list", ""),
            h(None, Some("skills/list"), None),
            400,
            Error(-32020),
            is("1"),
        ),
        row(
            "header differs from _meta (checked before the version)",
            modern_v("1", "skills/list", "v999.0.0"),
            hm("skills/list"),
            400,
            Error(-32020),
            is("1"),
        ),
        row(
            "legacy header with a modern body",
            modern("1", "skills/list", ""),
            h(Some(LEGACY), Some("skills/list"), None),
            400,
            Error(-32020),
            is("1"),
        ),
        row(
            "unsupported version, header = body",
            modern_v("1", "skills/list", "v999.0.0"),
            h(Some("v999.0.0"), Some("skills/list"), None),
            400,
            Error(-32022),
            is("1"),
        ),
        row(
            "unsupported version over a stream",
            modern_v("1", "skills/list", "1900-01-01"),
            s(),
            400,
            Error(-32022),
            is("1"),
        ),
        row(
            "legacy version in modern _meta",
            modern_v("1", "skills/list", LEGACY),
            s(),
            400,
            Error(-32022),
            is("1"),
        ),
        row(
            "Mcp-Method missing",
            modern("1", "skills/list", ""),
            h(Some(MODERN), None, None),
            400,
            Error(-32020),
            is("1"),
        ),
        row(
            "Mcp-Method differs",
            modern("1", "skills/list", ""),
            hm("skills/get"),
            400,
            Error(-32020),
            is("1"),
        ),
        row(
            "Mcp-Method differs in case",
            modern("1", "skills/list", ""),
            hm("Skills/List"),
            400,
            Error(-32020),
            is("1"),
        ),
        row(
            "Mcp-Method in the base64 form",
            modern("1", "skills/list", ""),
            h(Some(MODERN), Some(&b64("skills/list")), None),
            200,
            Result,
            is("1"),
        ),
        row(
            "Mcp-Name missing on resources/read",
            read_md.clone(),
            hm("resources/read"),
            400,
            Error(-32020),
            is("1"),
        ),
        row(
            "Mcp-Name differs",
            read_md.clone(),
            h(
                Some(MODERN),
                Some("resources/read"),
                Some("skill://code-review/references/checklist.md"),
            ),
            400,
            Error(-32020),
            is("1"),
        ),
        row(
            "Mcp-Name matches",
            read_md.clone(),
            h(
                Some(MODERN),
                Some("resources/read"),
                Some("skill://code-review/SKILL.md"),
            ),
            200,
            Result,
            is("1"),
        ),
        row(
            "Mcp-Name in the base64 form",
            read_md.clone(),
            h(
                Some(MODERN),
                Some("resources/read"),
                Some(&b64("skill://code-review/SKILL.md")),
            ),
            200,
            Result,
            is("1"),
        ),
        row(
            "Mcp-Name in a malformed base64 form",
            read_md.clone(),
            h(Some(MODERN), Some("resources/read"), Some("=?base64?%%%?=")),
            400,
            Error(-32020),
            is("1"),
        ),
        row(
            "Mcp-Name not required on skills/get",
            modern("1", "skills/get", r#""uri":"skill://code-review/SKILL.md""#),
            hm("skills/get"),
            200,
            Result,
            is("1"),
        ),
        // --- Methods ------------------------------------------------------------------------------
        row(
            "initialize with modern _meta",
            modern(
                "1",
                "initialize",
                r#""protocolVersion":"2026-07-28","capabilities":{},"clientInfo":{"name":"c","version":"1"}"#,
            ),
            s(),
            404,
            Error(-32601),
            is("1"),
        ),
        row(
            "initialize with modern headers",
            modern("1", "initialize", ""),
            hm("initialize"),
            404,
            Error(-32601),
            is("1"),
        ),
        row(
            "ping, modern",
            modern("1", "ping", ""),
            s(),
            404,
            Error(-32601),
            is("1"),
        ),
        row(
            "logging/setLevel, modern",
            modern("1", "logging/setLevel", r#""level":"info""#),
            s(),
            404,
            Error(-32601),
            is("1"),
        ),
        row(
            "resources/subscribe, modern",
            modern(
                "1",
                "resources/subscribe",
                r#""uri":"skill://code-review/SKILL.md""#,
            ),
            s(),
            404,
            Error(-32601),
            is("1"),
        ),
        row(
            "resources/unsubscribe, modern",
            modern(
                "1",
                "resources/unsubscribe",
                r#""uri":"skill://code-review/SKILL.md""#,
            ),
            s(),
            404,
            Error(-32601),
            is("1"),
        ),
        row(
            "unknown method, modern",
            modern("1", "unknown/method", ""),
            s(),
            404,
            Error(-32601),
            is("1"),
        ),
        row(
            "unknown method, legacy",
            legacy("1", "unknown/method", ""),
            s(),
            404,
            Error(-32601),
            is("1"),
        ),
        row(
            "empty method name",
            legacy("1", "", ""),
            s(),
            404,
            Error(-32601),
            is("1"),
        ),
        row(
            "tools/list, modern",
            modern("1", "tools/list", ""),
            s(),
            404,
            Error(-32601),
            is("1"),
        ),
        row(
            "prompts/list, modern",
            modern("1", "prompts/list", ""),
            s(),
            404,
            Error(-32601),
            is("1"),
        ),
        row(
            "tools/list, legacy",
            legacy("1", "tools/list", ""),
            s(),
            404,
            Error(-32601),
            is("1"),
        ),
        row(
            "prompts/list, legacy",
            legacy("1", "prompts/list", ""),
            s(),
            404,
            Error(-32601),
            is("1"),
        ),
        row(
            "completion/complete, modern",
            modern("1", "completion/complete", ""),
            s(),
            404,
            Error(-32601),
            is("1"),
        ),
        row(
            "subscriptions/listen, modern",
            modern("1", "subscriptions/listen", r#""notifications":{}"#),
            s(),
            404,
            Error(-32601),
            is("1"),
        ),
        // --- Notifications and responses: never answered ----------------------------------------
        row(
            "notifications/initialized",
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            s(),
            202,
            NoBody,
            Id::None,
        ),
        row(
            "notifications/cancelled",
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#,
            s(),
            202,
            NoBody,
            Id::None,
        ),
        row(
            "unknown notification",
            r#"{"jsonrpc":"2.0","method":"no/such/thing"}"#,
            s(),
            202,
            NoBody,
            Id::None,
        ),
        row(
            "notification with params not an object",
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":5}"#,
            s(),
            202,
            NoBody,
            Id::None,
        ),
        row(
            "notification with a bad _meta over HTTP",
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"_meta":7}}"#,
            hm("notifications/cancelled"),
            202,
            NoBody,
            Id::None,
        ),
        row(
            "notification with mismatched headers",
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled"}"#,
            h(Some("v1"), Some("other"), Some("x")),
            202,
            NoBody,
            Id::None,
        ),
        row(
            "result response",
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
            s(),
            202,
            NoBody,
            Id::None,
        ),
        row(
            "error response",
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"x"}}"#,
            s(),
            202,
            NoBody,
            Id::None,
        ),
        row(
            "error response without id",
            r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"x"}}"#,
            s(),
            202,
            NoBody,
            Id::None,
        ),
        // --- skills/get -----------------------------------------------------------------------------
        row(
            "skills/get without uri",
            modern("1", "skills/get", ""),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "skills/get with a numeric uri",
            modern("1", "skills/get", r#""uri":5"#),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "skills/get of an unknown skill",
            modern("1", "skills/get", r#""uri":"skill://nope/SKILL.md""#),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "skills/get of a skill root",
            modern("1", "skills/get", r#""uri":"skill://code-review""#),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "skills/get of a supporting file",
            modern(
                "1",
                "skills/get",
                r#""uri":"skill://code-review/references/checklist.md""#,
            ),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "skills/get of skill.md",
            modern("1", "skills/get", r#""uri":"skill://code-review/skill.md""#),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "skills/get with a trailing slash",
            modern(
                "1",
                "skills/get",
                r#""uri":"skill://code-review/SKILL.md/""#,
            ),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "skills/get, legacy, unknown",
            legacy("1", "skills/get", r#""uri":"skill://nope/SKILL.md""#),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        // --- resources/read -------------------------------------------------------------------------
        row(
            "resources/read of an unknown file",
            modern(
                "1",
                "resources/read",
                r#""uri":"skill://code-review/nope.md""#,
            ),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "resources/read of a directory",
            modern("1", "resources/read", r#""uri":"skill://code-review""#),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "resources/read of skill://",
            modern("1", "resources/read", r#""uri":"skill://""#),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "resources/read, percent-encoded",
            modern(
                "1",
                "resources/read",
                r#""uri":"skill://code-review/SKILL%2Emd""#,
            ),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "resources/read with ..",
            modern(
                "1",
                "resources/read",
                r#""uri":"skill://code-review/references/../SKILL.md""#,
            ),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "resources/read with .",
            modern(
                "1",
                "resources/read",
                r#""uri":"skill://code-review/./SKILL.md""#,
            ),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "resources/read, upper-case scheme",
            modern(
                "1",
                "resources/read",
                r#""uri":"SKILL://code-review/SKILL.md""#,
            ),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "resources/read with a null uri",
            modern("1", "resources/read", r#""uri":null"#),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        // --- resources/directory/read ---------------------------------------------------------------
        row(
            "directory/read of a file",
            modern(
                "1",
                "resources/directory/read",
                r#""uri":"skill://code-review/SKILL.md""#,
            ),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "directory/read of an unknown directory",
            modern("1", "resources/directory/read", r#""uri":"skill://nope""#),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "directory/read of skill://",
            modern("1", "resources/directory/read", r#""uri":"skill://""#),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "directory/read with one trailing slash",
            modern(
                "1",
                "resources/directory/read",
                r#""uri":"skill://code-review/""#,
            ),
            s(),
            200,
            Result,
            is("1"),
        ),
        row(
            "directory/read of a prefix with a trailing slash",
            modern("1", "resources/directory/read", r#""uri":"skill://acme/""#),
            s(),
            200,
            Result,
            is("1"),
        ),
        row(
            "directory/read with two trailing slashes",
            modern(
                "1",
                "resources/directory/read",
                r#""uri":"skill://code-review//""#,
            ),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "directory/read without uri",
            modern("1", "resources/directory/read", ""),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        // --- Cursors ----------------------------------------------------------------------------------
        row(
            "cursor is a number",
            modern("1", "skills/list", r#""cursor":5"#),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "cursor is garbage",
            modern("1", "skills/list", &cur("!!not-a-cursor!!")),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "cursor is valid base64 of the wrong length",
            modern("1", "skills/list", &cur("AAAA")),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "cursor is an empty string",
            modern("1", "skills/list", &cur("")),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "cursor is null (first page)",
            modern("1", "skills/list", r#""cursor":null"#),
            s(),
            200,
            Result,
            is("1"),
        ),
        row(
            "cursor of resources/list on skills/list",
            modern("1", "skills/list", &cur(&resources_cursor)),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "cursor of skills/list on resources/list",
            modern("1", "resources/list", &cur(&skills_cursor)),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "cursor of skills/list on templates/list",
            modern("1", "resources/templates/list", &cur(&skills_cursor)),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "cursor of one directory on another",
            modern(
                "1",
                "resources/directory/read",
                &format!(
                    r#""uri":"skill://acme/billing/refunds",{}"#,
                    cur(&dir_cursor)
                ),
            ),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "cursor offset tampered beyond the end",
            modern("1", "skills/list", &cur(&tamper(&skills_cursor, 10, 200))),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "cursor offset tampered to zero",
            modern("1", "skills/list", &cur(&tamper(&skills_cursor, 10, 0))),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "cursor version tampered",
            modern("1", "skills/list", &cur(&tamper(&skills_cursor, 0, 9))),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "cursor snapshot tampered",
            modern("1", "skills/list", &cur(&tamper(&skills_cursor, 3, 0x5a))),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "a real cursor",
            modern("1", "skills/list", &cur(&skills_cursor)),
            s(),
            200,
            Result,
            is("1"),
        ),
        // --- Legacy era -----------------------------------------------------------------------------
        row(
            "initialize with an unknown version",
            legacy(
                "1",
                "initialize",
                r#""protocolVersion":"1999-01-01","capabilities":{},"clientInfo":{"name":"c","version":"1"}"#,
            ),
            s(),
            200,
            Result,
            is("1"),
        ),
        row(
            "initialize without protocolVersion",
            legacy("1", "initialize", r#""capabilities":{}"#),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "initialize with a numeric protocolVersion",
            legacy("1", "initialize", r#""protocolVersion":20251125"#),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "initialize without params",
            legacy("1", "initialize", ""),
            s(),
            200,
            Error(-32602),
            is("1"),
        ),
        row(
            "legacy ping",
            legacy("1", "ping", ""),
            s(),
            200,
            Result,
            is("1"),
        ),
        row(
            "legacy initialize over HTTP",
            legacy(
                "1",
                "initialize",
                r#""protocolVersion":"2025-11-25","capabilities":{}"#,
            ),
            h(Some(LEGACY), Some("initialize"), None),
            200,
            Result,
            is("1"),
        ),
        row(
            "legacy request over HTTP, legacy header",
            legacy("1", "skills/list", ""),
            h(Some(LEGACY), Some("skills/list"), None),
            200,
            Result,
            is("1"),
        ),
        row(
            "legacy request over HTTP, no headers",
            legacy("1", "skills/list", ""),
            h(None, None, None),
            200,
            Result,
            is("1"),
        ),
    ]
}

fn check_row(s: &mut Schemas, r: &Responder, row: &Row) {
    let label = &row.name;
    let reply = r.respond(&row.msg, &row.t.get(), Grant::PUBLIC);
    assert_eq!(
        reply.status,
        row.status,
        "{label}: status ({})",
        reply.body_str()
    );
    let rpc = match check_reply(&reply) {
        Ok(rpc) => rpc,
        Err(e) => panic!("{label}: malformed reply: {e}: {}", reply.body_str()),
    };
    match (row.out, &rpc) {
        (Out::NoBody, None) => return,
        (Out::NoBody, Some(rpc)) => panic!("{label}: expected no body, got {}", rpc.text),
        (_, None) => panic!("{label}: expected a body"),
        (Out::Result, Some(rpc)) => {
            assert!(
                rpc.result().is_some(),
                "{label}: expected a result, got {}",
                rpc.text
            )
        }
        (Out::Error(code), Some(rpc)) => {
            assert_eq!(rpc.code(), Some(code), "{label}: code ({})", rpc.text)
        }
    }
    let rpc = rpc.expect("a body");
    match &row.id {
        Id::Absent => {
            assert_eq!(rpc.id_raw(), None, "{label}: no id member");
            assert!(!rpc.text.contains("\"id\":null"), "{label}: never id null");
        }
        Id::Is(raw) => assert_eq!(rpc.id_raw(), Some(raw.as_str()), "{label}: id echo"),
        Id::None => unreachable!("{label}: rows with a body name their id"),
    }
    // Integer ids beyond 64 bits are exact in the reply text (checked above), but the JSON
    // value the validators see holds them as floats; validate a copy with the id as a number
    // the value can hold.
    let mut rpc = rpc;
    if rpc.json["id"].is_f64() {
        rpc.json["id"] = json!(1);
    }
    let modern_result = s.assert_any_envelope(&rpc, label);
    if rpc.result().is_some() {
        // A request that declared 2026-07-28 gets a 2026-07-28 result, and only such a request.
        let declared = String::from_utf8_lossy(&row.msg)
            .contains(r#""io.modelcontextprotocol/protocolVersion":"2026-07-28""#);
        assert_eq!(modern_result, declared, "{label}: the era of the result");
    }
}

/// A tool result that must be a tool error (`isError: true`), not a protocol error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tool {
    Ok,
    Error,
    /// Not a tool result (a protocol error, or another method).
    Other,
}

/// The fallback's bad input: tools/call and prompts/get misuse on a responder with tools and
/// prompts on. Each row: name, message, transport, status, outcome, and what the tool result
/// must be.
fn fallback_table() -> Vec<(Row, Tool)> {
    use Out::*;
    let s = || T::Stream;
    let call = |args: &str| modern("1", "tools/call", args);
    let read = |args: &str| call(&format!(r#""name":"read_skill","arguments":{{{args}}}"#));
    let res = |args: &str| {
        call(&format!(
            r#""name":"read_skill_resource","arguments":{{{args}}}"#
        ))
    };
    let get = |fields: &str| modern("1", "prompts/get", fields);
    let b64 = |s: &str| format!("=?base64?{}?=", STANDARD.encode(s.as_bytes()));
    let hn = |method: &str, name: Option<&str>| h(Some(MODERN), Some(method), name);
    let r = |name: &str, msg: String, t: T, status: u16, out: Out, tool: Tool| {
        (row(name, msg, t, status, out, is("1")), tool)
    };
    let b64_name = b64("list_skills");
    vec![
        // --- tools/call: protocol errors ---------------------------------------------------
        r(
            "tools/call without name",
            call(""),
            s(),
            200,
            Error(-32602),
            Tool::Other,
        ),
        r(
            "tools/call with a numeric name",
            call(r#""name":3"#),
            s(),
            200,
            Error(-32602),
            Tool::Other,
        ),
        r(
            "tools/call with a null name",
            call(r#""name":null"#),
            s(),
            200,
            Error(-32602),
            Tool::Other,
        ),
        r(
            "tools/call of an unknown tool",
            call(r#""name":"load_skill""#),
            s(),
            200,
            Error(-32602),
            Tool::Other,
        ),
        r(
            "tools/call of a conformance fixture tool",
            call(r#""name":"test_simple_text","arguments":{}"#),
            s(),
            200,
            Error(-32602),
            Tool::Other,
        ),
        r(
            "tools/call with string arguments",
            call(r#""name":"read_skill","arguments":"code-review""#),
            s(),
            200,
            Error(-32602),
            Tool::Other,
        ),
        r(
            "tools/call with array arguments",
            call(r#""name":"read_skill","arguments":["code-review"]"#),
            s(),
            200,
            Error(-32602),
            Tool::Other,
        ),
        r(
            "tools/call with numeric arguments",
            call(r#""name":"list_skills","arguments":0"#),
            s(),
            200,
            Error(-32602),
            Tool::Other,
        ),
        r(
            "tools/call with a repeated name",
            call(r#""name":"list_skills","name":"read_skill""#),
            s(),
            200,
            Error(-32602),
            Tool::Other,
        ),
        r(
            "legacy tools/call without params",
            legacy("1", "tools/call", ""),
            s(),
            200,
            Error(-32602),
            Tool::Other,
        ),
        // --- tools/call: tool errors -------------------------------------------------------
        r(
            "read_skill without arguments",
            call(r#""name":"read_skill""#),
            s(),
            200,
            Result,
            Tool::Error,
        ),
        r(
            "read_skill with empty arguments",
            read(""),
            s(),
            200,
            Result,
            Tool::Error,
        ),
        r(
            "read_skill with a numeric name",
            read(r#""name":42"#),
            s(),
            200,
            Result,
            Tool::Error,
        ),
        r(
            "read_skill with a boolean uri",
            read(r#""uri":true"#),
            s(),
            200,
            Result,
            Tool::Error,
        ),
        r(
            "read_skill with an object name",
            read(r#""name":{"name":"code-review"}"#),
            s(),
            200,
            Result,
            Tool::Error,
        ),
        r(
            "read_skill with name and uri",
            read(r#""name":"code-review","uri":"skill://code-review/SKILL.md""#),
            s(),
            200,
            Result,
            Tool::Error,
        ),
        r(
            "read_skill with an unknown argument",
            read(r#""skill":"code-review""#),
            s(),
            200,
            Result,
            Tool::Error,
        ),
        r(
            "read_skill of an unknown skill",
            read(r#""name":"nope""#),
            s(),
            200,
            Result,
            Tool::Error,
        ),
        r(
            "read_skill with an empty name",
            read(r#""name":"""#),
            s(),
            200,
            Result,
            Tool::Error,
        ),
        r(
            "read_skill of a URI outside the catalog",
            read(r#""uri":"https://example.com/SKILL.md""#),
            s(),
            200,
            Result,
            Tool::Error,
        ),
        r(
            "read_skill of a traversing URI",
            read(r#""uri":"skill://code-review/../diagram-style/SKILL.md""#),
            s(),
            200,
            Result,
            Tool::Error,
        ),
        r(
            "list_skills with an argument",
            call(r#""name":"list_skills","arguments":{"limit":5}"#),
            s(),
            200,
            Result,
            Tool::Error,
        ),
        r(
            "read_skill_resource without arguments",
            res(""),
            s(),
            200,
            Result,
            Tool::Error,
        ),
        r(
            "read_skill_resource with skill only",
            res(r#""skill":"code-review""#),
            s(),
            200,
            Result,
            Tool::Error,
        ),
        r(
            "read_skill_resource with path only",
            res(r#""path":"SKILL.md""#),
            s(),
            200,
            Result,
            Tool::Error,
        ),
        r(
            "read_skill_resource with uri and path",
            res(r#""uri":"skill://code-review/SKILL.md","path":"SKILL.md""#),
            s(),
            200,
            Result,
            Tool::Error,
        ),
        r(
            "read_skill_resource with a numeric uri",
            res(r#""uri":1"#),
            s(),
            200,
            Result,
            Tool::Error,
        ),
        r(
            "read_skill_resource with an array path",
            res(r#""skill":"code-review","path":["SKILL.md"]"#),
            s(),
            200,
            Result,
            Tool::Error,
        ),
        r(
            "read_skill_resource: .. in the path",
            res(r#""skill":"code-review","path":"../diagram-style/SKILL.md""#),
            s(),
            200,
            Result,
            Tool::Error,
        ),
        r(
            "read_skill_resource: .. deeper in the path",
            res(r#""skill":"code-review","path":"references/../../x""#),
            s(),
            200,
            Result,
            Tool::Error,
        ),
        r(
            "read_skill_resource: absolute path",
            res(r#""skill":"code-review","path":"/etc/passwd""#),
            s(),
            200,
            Result,
            Tool::Error,
        ),
        r(
            "read_skill_resource: backslash path",
            res(r#""skill":"code-review","path":"..\\..\\x""#),
            s(),
            200,
            Result,
            Tool::Error,
        ),
        r(
            "read_skill_resource: encoded traversal",
            res(r#""skill":"code-review","path":"%2e%2e/diagram-style/SKILL.md""#),
            s(),
            200,
            Result,
            Tool::Error,
        ),
        r(
            "read_skill_resource: a URI as the path",
            res(r#""skill":"code-review","path":"skill://diagram-style/SKILL.md""#),
            s(),
            200,
            Result,
            Tool::Error,
        ),
        r(
            "read_skill_resource: a query in the path",
            res(r#""skill":"code-review","path":"SKILL.md?x=1""#),
            s(),
            200,
            Result,
            Tool::Error,
        ),
        r(
            "read_skill_resource: a directory path",
            res(r#""skill":"code-review","path":"references""#),
            s(),
            200,
            Result,
            Tool::Error,
        ),
        r(
            "read_skill_resource: traversal in the uri",
            res(r#""uri":"skill://code-review/references/../SKILL.md""#),
            s(),
            200,
            Result,
            Tool::Error,
        ),
        r(
            "read_skill_resource: a file: uri",
            res(r#""uri":"file:///etc/passwd""#),
            s(),
            200,
            Result,
            Tool::Error,
        ),
        r(
            "read_skill_resource: a directory uri",
            res(r#""uri":"skill://code-review/references""#),
            s(),
            200,
            Result,
            Tool::Error,
        ),
        r(
            "read_skill_resource: an unknown skill",
            res(r#""skill":"nope","path":"SKILL.md""#),
            s(),
            200,
            Result,
            Tool::Error,
        ),
        r(
            "read_skill_resource: a file of another skill",
            res(r#""skill":"code-review","path":"references/palette.md""#),
            s(),
            200,
            Result,
            Tool::Error,
        ),
        r(
            "read_skill_resource: a real file",
            res(r#""skill":"diagram-style","path":"assets/palette.png""#),
            s(),
            200,
            Result,
            Tool::Ok,
        ),
        r(
            "read_skill: null for the other argument",
            read(r#""name":"code-review","uri":null"#),
            s(),
            200,
            Result,
            Tool::Ok,
        ),
        // --- prompts -------------------------------------------------------------------------
        r(
            "prompts/get without name",
            get(""),
            s(),
            200,
            Error(-32602),
            Tool::Other,
        ),
        r(
            "prompts/get with a numeric name",
            get(r#""name":1"#),
            s(),
            200,
            Error(-32602),
            Tool::Other,
        ),
        r(
            "prompts/get of an unknown prompt",
            get(r#""name":"nope""#),
            s(),
            200,
            Error(-32602),
            Tool::Other,
        ),
        r(
            "prompts/get of a conformance fixture prompt",
            get(r#""name":"test_simple_prompt""#),
            s(),
            200,
            Error(-32602),
            Tool::Other,
        ),
        r(
            "prompts/get with an argument",
            get(r#""name":"code-review","arguments":{"topic":"x"}"#),
            s(),
            200,
            Error(-32602),
            Tool::Other,
        ),
        r(
            "prompts/get with a numeric argument",
            get(r#""name":"code-review","arguments":{"n":1}"#),
            s(),
            200,
            Error(-32602),
            Tool::Other,
        ),
        r(
            "prompts/get with string arguments",
            get(r#""name":"code-review","arguments":"x""#),
            s(),
            200,
            Error(-32602),
            Tool::Other,
        ),
        r(
            "prompts/get with empty arguments",
            get(r#""name":"code-review","arguments":{}"#),
            s(),
            200,
            Result,
            Tool::Other,
        ),
        r(
            "prompts/list with a cursor",
            modern("1", "prompts/list", r#""cursor":"AAAA""#),
            s(),
            200,
            Error(-32602),
            Tool::Other,
        ),
        r(
            "tools/list with a cursor",
            modern("1", "tools/list", r#""cursor":"AAAA""#),
            s(),
            200,
            Error(-32602),
            Tool::Other,
        ),
        // --- Mcp-Name over HTTP --------------------------------------------------------------
        r(
            "tools/call without Mcp-Name",
            call(r#""name":"list_skills""#),
            hn("tools/call", None),
            400,
            Error(-32020),
            Tool::Other,
        ),
        r(
            "tools/call with another Mcp-Name",
            call(r#""name":"list_skills""#),
            hn("tools/call", Some("read_skill")),
            400,
            Error(-32020),
            Tool::Other,
        ),
        r(
            "tools/call with a garbled base64 Mcp-Name",
            call(r#""name":"list_skills""#),
            hn("tools/call", Some("=?base64?***?=")),
            400,
            Error(-32020),
            Tool::Other,
        ),
        r(
            "tools/call with a base64 Mcp-Name",
            call(r#""name":"list_skills""#),
            hn("tools/call", Some(&b64_name)),
            200,
            Result,
            Tool::Ok,
        ),
        r(
            "tools/call with Mcp-Name",
            call(r#""name":"list_skills""#),
            hn("tools/call", Some("list_skills")),
            200,
            Result,
            Tool::Ok,
        ),
        r(
            "prompts/get without Mcp-Name",
            get(r#""name":"code-review""#),
            hn("prompts/get", None),
            400,
            Error(-32020),
            Tool::Other,
        ),
        r(
            "prompts/get with another Mcp-Name",
            get(r#""name":"code-review""#),
            hn("prompts/get", Some("diagram-style")),
            400,
            Error(-32020),
            Tool::Other,
        ),
        r(
            "prompts/get with Mcp-Name",
            get(r#""name":"code-review""#),
            hn("prompts/get", Some("code-review")),
            200,
            Result,
            Tool::Other,
        ),
        r(
            "tools/call under Mcp-Method prompts/get",
            call(r#""name":"list_skills""#),
            hn("prompts/get", Some("list_skills")),
            400,
            Error(-32020),
            Tool::Other,
        ),
    ]
}

#[test]
fn the_fallback_bad_input_table() {
    let r = fallback_responder();
    let rows = fallback_table();
    assert!(rows.len() >= 50, "{} rows", rows.len());
    let mut s = Schemas::new();
    for (row, tool) in &rows {
        check_row(&mut s, &r, row);
        let rpc = check_reply(&r.respond(&row.msg, &row.t.get(), Grant::PUBLIC))
            .expect("well formed")
            .expect("a body");
        let is_error = rpc.result().and_then(|res| res.get("isError")).cloned();
        match tool {
            Tool::Ok => assert_eq!(is_error, Some(json!(false)), "{}: {}", row.name, rpc.text),
            Tool::Error => {
                assert_eq!(is_error, Some(json!(true)), "{}: {}", row.name, rpc.text);
                let text = rpc.json["result"]["content"][0]["text"]
                    .as_str()
                    .unwrap_or("");
                assert!(
                    text.len() > 20,
                    "{}: the error says what exists: {text}",
                    row.name
                );
            }
            Tool::Other => assert_eq!(is_error, None, "{}: {}", row.name, rpc.text),
        }
    }
    let names: std::collections::BTreeSet<&str> =
        rows.iter().map(|(r, _)| r.name.as_str()).collect();
    assert_eq!(names.len(), rows.len(), "row names are unique");
    // With the fallback off, every one of these is what it was: -32601 (whatever the
    // headers say), except the one whose Mcp-Method header contradicts the body.
    let off = responder(1);
    for (row, _) in &rows {
        let rpc = check_reply(&off.respond(&row.msg, &row.t.get(), Grant::PUBLIC))
            .expect("well formed")
            .expect("a body");
        let want = if row.name.contains("under Mcp-Method") {
            -32020
        } else {
            -32601
        };
        assert_eq!(
            rpc.code(),
            Some(want),
            "{} with the fallback off: {}",
            row.name,
            rpc.text
        );
    }
}

#[test]
fn fallback_prefixes_and_mutations_never_panic_and_always_get_a_well_formed_reply() {
    let r = fallback_responder();
    let mut s = Schemas::new();
    let seeds: Vec<(String, T)> = vec![
        (modern("1", "tools/list", ""), T::Stream),
        (
            modern(
                "2",
                "tools/call",
                r#""name":"read_skill","arguments":{"name":"code-review"}"#,
            ),
            h(Some(MODERN), Some("tools/call"), Some("read_skill")),
        ),
        (
            modern(
                "3",
                "tools/call",
                r#""name":"read_skill_resource","arguments":{"skill":"diagram-style","path":"assets/palette.png"}"#,
            ),
            T::Stream,
        ),
        (
            modern(
                "4",
                "tools/call",
                r#""name":"read_skill_resource","arguments":{"uri":"skill://acme/billing/refunds/templates/regional/eu-refund.md"}"#,
            ),
            T::Stream,
        ),
        (
            modern("5", "tools/call", r#""name":"list_skills","arguments":{}"#),
            T::Stream,
        ),
        (
            modern("6", "prompts/get", r#""name":"release-notes""#),
            h(Some(MODERN), Some("prompts/get"), Some("release-notes")),
        ),
        (modern("7", "prompts/list", ""), T::Stream),
        (
            legacy(
                "8",
                "tools/call",
                r#""name":"read_skill","arguments":{"uri":"skill://code-review/SKILL.md"}"#,
            ),
            T::Stream,
        ),
    ];
    let mut checked = 0usize;
    for (msg, t) in &seeds {
        let b = msg.as_bytes();
        for n in 0..=b.len() {
            if let Err(e) = probe(&mut s, &r, &b[..n], &t.get()) {
                panic!("prefix {:?}: {e}", String::from_utf8_lossy(&b[..n]));
            }
            checked += 1;
        }
    }
    const SPECIAL: &[u8] = b"{}[]\",:\\ ./0123456789-eEtrufalsn\x00\xc3\xa9\xff";
    let mut rng = Rng(0xfa11_bac4_0000_0001);
    for i in 0..3000 {
        let (msg, t) = &seeds[rng.below(seeds.len())];
        let mut b = msg.as_bytes().to_vec();
        for _ in 0..1 + rng.below(3) {
            let pos = rng.below(b.len() + 1);
            match rng.below(4) {
                0 if pos < b.len() => b[pos] = SPECIAL[rng.below(SPECIAL.len())],
                1 => b.insert(pos, SPECIAL[rng.below(SPECIAL.len())]),
                2 if pos < b.len() => {
                    b.remove(pos);
                }
                _ => {
                    let end = (pos + 1 + rng.below(12)).min(b.len());
                    let chunk = b[pos.min(end)..end].to_vec();
                    let at = rng.below(b.len() + 1);
                    b.splice(at..at, chunk);
                }
            }
        }
        if let Err(e) = probe(&mut s, &r, &b, &t.get()) {
            panic!(
                "mutant {i} {:?} over {t:?}: {e}",
                String::from_utf8_lossy(&b)
            );
        }
        checked += 1;
    }
    assert!(checked > 3500, "{checked} messages checked");
}

#[test]
fn the_bad_input_table() {
    let r = responder(1);
    let rows = table(&r);
    assert!(rows.len() >= 60, "{} rows", rows.len());
    let mut s = Schemas::new();
    for row in &rows {
        check_row(&mut s, &r, row);
    }
    let names: std::collections::BTreeSet<&str> = rows.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names.len(), rows.len(), "row names are unique");
}

#[test]
fn error_details_name_what_was_wrong() {
    let r = responder(1);
    // -32022 carries the supported versions and echoes the requested one.
    for (t, v) in [
        (h(Some("v999.0.0"), Some("skills/list"), None), "v999.0.0"),
        (T::Stream, "1900-01-01"),
    ] {
        let rpc = call(&r, modern_v("\"v\"", "skills/list", v).as_bytes(), &t.get());
        assert_eq!(rpc.code(), Some(-32022));
        assert_eq!(
            rpc.json["error"]["data"],
            json!({"supported": ["2026-07-28"], "requested": v})
        );
    }
    // The discover result lists exactly the versions -32022 names.
    let d = ok(&r, &request(Era::Modern, 1, "server/discover", json!({})));
    assert_eq!(d["supportedVersions"], json!(["2026-07-28"]));
    // Not-found errors carry the uri; method errors the method.
    let rpc = err(
        &r,
        modern(
            "1",
            "skills/get",
            r#""uri":"skill://acme/billing/chargebacks/SKILL.md""#,
        )
        .as_bytes(),
    );
    assert_eq!(
        rpc.message(),
        "No skill is served at skill://acme/billing/chargebacks/SKILL.md"
    );
    assert_eq!(
        rpc.json["error"]["data"],
        json!({"uri": "skill://acme/billing/chargebacks/SKILL.md"})
    );
    let rpc = err(&r, modern("1", "ping", "").as_bytes());
    assert_eq!(rpc.json["error"]["data"], json!({"method": "ping"}));
    assert!(rpc.message().contains("2026-07-28"), "{}", rpc.message());
    let rpc = err(
        &r,
        modern("1", "skills/list", &format!(r#""cursor":"{}""#, "AAAA")).as_bytes(),
    );
    assert!(
        rpc.message().starts_with("Invalid cursor"),
        "{}",
        rpc.message()
    );
    // A cursor from another list says so.
    let c = first_cursor(&r, "resources/list", json!({}));
    let rpc = err(
        &r,
        modern("1", "skills/list", &format!(r#""cursor":"{c}""#)).as_bytes(),
    );
    assert!(
        rpc.message().contains("different list"),
        "{}",
        rpc.message()
    );
}

#[test]
fn legacy_initialize_negotiates_and_ping_is_empty() {
    let r = responder(50);
    for (asked, answered) in [
        ("1999-01-01", "2025-11-25"),
        ("2026-07-28", "2025-11-25"),
        ("2025-11-25", "2025-11-25"),
        ("2025-06-18", "2025-06-18"),
        ("2025-03-26", "2025-03-26"),
        ("2024-11-05", "2024-11-05"),
    ] {
        let res = ok(
            &r,
            legacy(
                "1",
                "initialize",
                &format!(r#""protocolVersion":"{asked}","capabilities":{{}}"#),
            )
            .as_bytes(),
        );
        assert_eq!(res["protocolVersion"], answered, "asked {asked}");
    }
    let rpc = ok_rpc(&r, legacy("\"p\"", "ping", "").as_bytes());
    assert_eq!(rpc.text, r#"{"jsonrpc":"2.0","id":"p","result":{}}"#);
}

#[test]
fn the_trailing_slash_is_accepted_once_and_never_emitted() {
    let r = responder(50);
    let with = ok(
        &r,
        modern(
            "1",
            "resources/directory/read",
            r#""uri":"skill://code-review/""#,
        )
        .as_bytes(),
    );
    let without = ok(
        &r,
        modern(
            "1",
            "resources/directory/read",
            r#""uri":"skill://code-review""#,
        )
        .as_bytes(),
    );
    assert_eq!(with, without);
    assert!(!with.to_string().contains("review/\""));
}

// ------------------------------------------------------------------------------------------
// Property-style loop
// ------------------------------------------------------------------------------------------

/// Answers `msg` without letting a panic escape; returns a description of any problem.
fn probe(s: &mut Schemas, r: &Responder, msg: &[u8], t: &Transport<'_>) -> Result<(), String> {
    let reply = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        r.respond(msg, t, Grant::PUBLIC)
    }))
    .map_err(|_| "the responder panicked".to_owned())?;
    let Some(rpc) = check_reply(&reply)? else {
        return Ok(());
    };
    if let Some(code) = rpc.code() {
        let want = match code {
            -32700 | -32600 | -32020 | -32022 => 400,
            -32601 => 404,
            -32602 => {
                if reply.status == 400 {
                    400
                } else {
                    200
                }
            }
            other => return Err(format!("unexpected error code {other}")),
        };
        if reply.status != want {
            return Err(format!("code {code} with status {}", reply.status));
        }
    }
    let (def, docs): (&str, &[Doc]) = match rpc.result() {
        None => ("JSONRPCErrorResponse", &[Doc::Mcp2026, Doc::Mcp2025]),
        Some(res) if res.get("resultType").is_some() => {
            ("JSONRPCResultResponse", &[Doc::Mcp2026, Doc::Mcp2025])
        }
        Some(_) => ("JSONRPCResultResponse", &[Doc::Mcp2025]),
    };
    for doc in docs {
        let errors = s.errors(*doc, def, &rpc.json);
        if !errors.is_empty() {
            return Err(format!("schema {doc:?}: {errors:?}"));
        }
    }
    Ok(())
}

#[test]
fn prefixes_and_mutations_never_panic_and_always_get_a_well_formed_reply() {
    let r = responder(2);
    let mut s = Schemas::new();
    let cursor = first_cursor(&r, "skills/list", json!({}));
    let seeds: Vec<(String, T)> = vec![
        (modern("1", "skills/list", ""), T::Stream),
        (
            modern("\"x\"", "skills/list", &format!(r#""cursor":"{cursor}""#)),
            T::Stream,
        ),
        (
            modern(
                "2",
                "skills/get",
                r#""uri":"skill://acme/billing/refunds/SKILL.md""#,
            ),
            hm("skills/get"),
        ),
        (
            modern(
                "3",
                "resources/read",
                r#""uri":"skill://diagram-style/assets/palette.png""#,
            ),
            h(
                Some(MODERN),
                Some("resources/read"),
                Some("skill://diagram-style/assets/palette.png"),
            ),
        ),
        (
            modern(
                "4",
                "resources/directory/read",
                r#""uri":"skill://acme/billing/refunds/templates""#,
            ),
            T::Stream,
        ),
        (modern("5", "server/discover", ""), hm("server/discover")),
        (
            legacy(
                "6",
                "initialize",
                r#""protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}"#,
            ),
            T::Stream,
        ),
        (
            legacy("7", "resources/list", ""),
            h(Some(LEGACY), None, None),
        ),
        (
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(),
            T::Stream,
        ),
        (
            r#"{"jsonrpc":"2.0","id":8,"result":{"ok":true}}"#.to_owned(),
            T::Stream,
        ),
    ];
    let mut checked = 0usize;
    // Every prefix of every seed.
    for (msg, t) in &seeds {
        let b = msg.as_bytes();
        for n in 0..=b.len() {
            if let Err(e) = probe(&mut s, &r, &b[..n], &t.get()) {
                panic!("prefix {:?}: {e}", String::from_utf8_lossy(&b[..n]));
            }
            checked += 1;
        }
    }
    // Seeded mutations.
    const SPECIAL: &[u8] = b"{}[]\",:\\ 0123456789-.eEtrufalsn\x00\x7f\xc3\xa9\xff\n";
    let mut rng = Rng(0x5eed_0f5c_a1ab_1e00);
    for i in 0..5000 {
        let (msg, t) = &seeds[rng.below(seeds.len())];
        let mut b = msg.as_bytes().to_vec();
        for _ in 0..1 + rng.below(4) {
            let pos = rng.below(b.len() + 1);
            match rng.below(6) {
                0 if pos < b.len() => b[pos] = (rng.next_u64() >> 56) as u8,
                1 if pos < b.len() => b[pos] = SPECIAL[rng.below(SPECIAL.len())],
                2 => b.insert(pos, SPECIAL[rng.below(SPECIAL.len())]),
                3 if pos < b.len() => {
                    b.remove(pos);
                }
                4 => {
                    let end = (pos + 1 + rng.below(16)).min(b.len());
                    let chunk = b[pos.min(end)..end].to_vec();
                    let at = rng.below(b.len() + 1);
                    b.splice(at..at, chunk);
                }
                _ => {
                    let end = (pos + rng.below(8)).min(b.len());
                    b.drain(pos.min(end)..end);
                }
            }
        }
        // Half of the mutants also lose or garble a header.
        let t = match (t, rng.below(4)) {
            (T::Http(_, m, n), 0) => T::Http(None, m.clone(), n.clone()),
            (T::Http(v, _, n), 1) => T::Http(v.clone(), Some("x".into()), n.clone()),
            (t, _) => t.clone(),
        };
        if let Err(e) = probe(&mut s, &r, &b, &t.get()) {
            panic!(
                "mutant {i} {:?} over {t:?}: {e}",
                String::from_utf8_lossy(&b)
            );
        }
        checked += 1;
    }
    assert!(checked > 6000, "{checked} messages checked");
}
