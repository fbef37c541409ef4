//! Tests of `http`.

use super::reply::parse_response;
use super::*;

/// `parse_response`, keeping the result's text as `read_answer` does.
fn parse_text(body: &[u8], id: u64, method: &str, lenient_id: bool) -> Result<Answer> {
    let mut text = String::new();
    let answer = parse_response(body, id, method, lenient_id, &mut |r| {
        text = r.raw.to_owned()
    })?;
    Ok(answer.with_result(text))
}

#[test]
fn sse_line_endings_and_fields() {
    let mut s = Sse::default();
    let mut got = s.feed(b"data: a\rdata:b\r\n\r\nevent: ping\ndata: x\n\n");
    got.extend(s.feed(b"id: 3\ndata: {\"x\":1}\n\ndata: tail"));
    got.extend(s.finish());
    assert_eq!(got, ["a\nb", "{\"x\":1}", "tail"]);
    // A CR at a chunk boundary followed by LF is one line ending.
    let mut s = Sse::default();
    assert!(s.feed(b"data: 1\r").is_empty());
    assert_eq!(s.feed(b"\n\r\n"), ["1"]);
}

#[test]
fn sse_skips_one_leading_byte_order_mark_however_split() {
    let stream = b"\xEF\xBB\xBFdata: a\n\ndata: b\n\n";
    for i in 0..=stream.len() {
        for j in i..=stream.len() {
            let mut s = Sse::default();
            let mut got = s.feed(&stream[..i]);
            got.extend(s.feed(&stream[i..j]));
            got.extend(s.feed(&stream[j..]));
            got.extend(s.finish());
            assert_eq!(got, ["a", "b"], "split at {i}, {j}");
        }
    }
    // Only one: a second mark is part of the first field's name.
    let mut s = Sse::default();
    assert!(s.feed(b"\xEF\xBB\xBF\xEF\xBB\xBFdata: a\n\n").is_empty());
    // A stream that only starts like a mark keeps its bytes.
    let mut s = Sse::default();
    assert!(s.feed(b"\xEF\xBB").is_empty());
    assert!(s.feed(b"data: a\n\n").is_empty());
    let mut s = Sse::default();
    assert!(s.feed(b"\xEF").is_empty());
    assert_eq!(s.finish(), Vec::<String>::new());
    assert!(s.line.is_empty() && s.data.is_empty());
}

#[test]
fn frames_carry_the_mcp_headers() {
    let s = HttpSession::new(ClientInfo::default());
    let m = json!({"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"skill://café/SKILL.md"}});
    let r = s.frame(Framing::Modern, "resources/read", m).unwrap();
    let h = |n: &str| {
        r.headers
            .iter()
            .find(|(k, _)| k == n)
            .map(|(_, v)| v.as_str())
    };
    assert_eq!(
        h("mcp-name"),
        Some("=?base64?c2tpbGw6Ly9jYWbDqS9TS0lMTC5tZA==?=")
    );
    assert_eq!(h("mcp-method"), Some("resources/read"));
    assert_eq!(h("mcp-protocol-version"), Some("2026-07-28"));
    let body: Json = serde_json::from_str(&r.body).unwrap();
    assert_eq!(body["params"]["_meta"][META_PROTOCOL_VERSION], "2026-07-28");
    assert_eq!(body["params"]["uri"], "skill://café/SKILL.md");
    let m = json!({"jsonrpc":"2.0","id":2,"method":"skills/list","params":{}});
    let r = s
        .frame(Framing::Legacy("2025-06-18"), "skills/list", m)
        .unwrap();
    assert_eq!(
        r.headers
            .iter()
            .filter(|(k, _)| k.starts_with("mcp-"))
            .count(),
        1
    );
    assert!(!r.body.contains("_meta"));
}

#[test]
fn a_result_is_handed_over_as_the_text_it_was_read_from() {
    let body = br#"{"jsonrpc":"2.0","id":7,"result": {"a": [1, 2.50], "b": "\u00e9"} }"#;
    assert_eq!(
        parse_text(body, 7, "m", false).unwrap(),
        Answer::Result(r#"{"a": [1, 2.50], "b": "\u00e9"}"#.into())
    );
}

#[test]
fn responses_are_checked() {
    let ok = br#"{"jsonrpc":"2.0","id":7,"result":{"a":1}}"#;
    assert_eq!(
        parse_text(ok, 7, "m", false).unwrap(),
        Answer::Result(r#"{"a":1}"#.into())
    );
    for (bad, why) in [
        (&br#"{"jsonrpc":"2.0","id":8,"result":{}}"#[..], "id"),
        (br#"{"id":7,"result":{}}"#, "2.0"),
        (br#"{"jsonrpc":"2.0","id":7,"result":[]}"#, "either"),
        (
            br#"{"jsonrpc":"2.0","id":7,"error":{"code":"x"}}"#,
            "integer",
        ),
        // `-0` is a float as `serde_json` reads JSON, which the client has always followed.
        (
            br#"{"jsonrpc":"2.0","id":7,"error":{"code":-0,"message":"m"}}"#,
            "integer",
        ),
        (
            br#"{"jsonrpc":"2.0","id":7,"error":{"code":1.0,"message":"m"}}"#,
            "integer",
        ),
        (b"<html>", "not JSON"),
    ] {
        let e = parse_text(bad, 7, "m", false).unwrap_err();
        assert_eq!(e.code, ExchangeKind::ProtocolError, "{why}");
        assert!(e.message.contains(why), "{}", e.message);
    }
    for dup in [
            &br#"{"jsonrpc":"2.0","id":0,"id":7,"result":{}}"#[..],
            br#"{"jsonrpc":"2.0","id":7,"result":{},"result":{}}"#,
            br#"{"jsonrpc":"2.0","id":7,"error":{"code":1,"message":"m"},"error":{"code":1,"message":"m"}}"#,
            br#"{"jsonrpc":"2.0","jsonrpc":"2.0","id":7,"result":{}}"#,
        ] {
            let e = parse_text(dup, 7, "m", false).unwrap_err();
            assert!(e.message.contains("duplicate member"), "{}", e.message);
        }
    let null = br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}"#;
    assert!(matches!(
        parse_text(null, 7, "m", false).unwrap(),
        Answer::Error { code: -32700, .. }
    ));
    let err = br#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"bad"}}"#;
    assert!(matches!(
        parse_text(err, 7, "m", false).unwrap(),
        Answer::Error { code: -32600, .. }
    ));
}
