//! The JSON objects of this module (the JOSE header, the claims set, a JWK, a JWK Set,
//! authorization server metadata), read with the one strict reader of JSON from strangers,
//! [`crate::json`], into ordered values; and the claim paths the scopes are read
//! from.
//!
//! A member named twice, at any depth, is refused (RFC 7515 §4 and RFC 7519 §4: "JWT parsers
//! MUST either reject JWTs with duplicate Claim Names or use a JSON parser that returns only
//! the lexically last duplicate member name"; refusing means no two readers of one token can
//! see different claims), found with an ordered set, so `O(n log n)` whatever the names. A
//! string with a lone surrogate escape (RFC 8259 §8.2) and nesting deeper than
//! [`crate::json::MAX_DEPTH`] are refused by the reader.

use crate::json;
use crate::skill::value::{write_json_string, Number, Value};

/// Reads `bytes` as one JSON object (UTF-8, strict JSON, no member named twice at any depth);
/// the error says what is wrong, without the input (a repeated name is shown escaped and
/// shortened).
pub(crate) fn read_object(bytes: &[u8]) -> Result<Value, String> {
    let text = std::str::from_utf8(bytes).map_err(|_| "is not UTF-8".to_owned())?;
    let node = json::parse(text).map_err(|e| format!("is not JSON ({e})"))?;
    if node.as_object().is_none() {
        return Err("is not a JSON object".to_owned());
    }
    node.to_value().map_err(|e| match (e.kind, &e.key) {
        (json::FieldErrorKind::Duplicate, Some(key)) => {
            let mut name = String::new();
            write_json_string(key, &mut name);
            format!("names the member {} twice", cut(&name))
        }
        _ => e.to_string(),
    })
}

/// The string, if `v` is one.
pub(crate) fn as_str(v: &Value) -> Option<&str> {
    match v {
        Value::String(s) => Some(s),
        _ => None,
    }
}

/// The strings of an array of strings only; `None` for anything else.
pub(crate) fn strings(v: &Value) -> Option<Vec<String>> {
    match v {
        Value::Array(items) => items.iter().map(|i| as_str(i).map(str::to_owned)).collect(),
        _ => None,
    }
}

/// The number, if `v` is one.
pub(crate) fn as_number(v: &Value) -> Option<Number> {
    match v {
        Value::Number(n) => Some(*n),
        _ => None,
    }
}

/// The JSON type of `v` with its article, for a message.
pub(crate) fn a_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Where a scope claim is: a claim name (`scope`, `scp`, `https://example.com/roles`), or,
/// starting with `/`, a JSON Pointer into the claims set (RFC 6901: `/realm_access/roles`,
/// with `~1` for a `/` and `~0` for a `~` in a name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ClaimPath(Vec<String>);

impl ClaimPath {
    /// Reads a claim name or a JSON Pointer; `Err` names what is wrong.
    pub(crate) fn parse(text: &str) -> Result<ClaimPath, String> {
        if text.is_empty() {
            return Err("a claim name is empty".into());
        }
        let Some(pointer) = text.strip_prefix('/') else {
            return Ok(ClaimPath(vec![text.to_owned()]));
        };
        let mut names = Vec::new();
        for raw in pointer.split('/') {
            let mut name = String::new();
            let mut chars = raw.chars();
            while let Some(c) = chars.next() {
                if c != '~' {
                    name.push(c);
                    continue;
                }
                match chars.next() {
                    Some('0') => name.push('~'),
                    Some('1') => name.push('/'),
                    _ => {
                        return Err(format!(
                            "{} is not a JSON Pointer: `~` is written `~0` and `/` in a name `~1` (RFC 6901)",
                            shown(text)
                        ))
                    }
                }
            }
            if name.is_empty() {
                return Err(format!("{} names an empty member", shown(text)));
            }
            names.push(name);
        }
        Ok(ClaimPath(names))
    }

    /// The value at this path in `claims`: `Ok(None)` when a member on the way is absent,
    /// `Err` with the type found when a member on the way is not an object.
    pub(crate) fn find<'v>(&self, claims: &'v Value) -> Result<Option<&'v Value>, &'static str> {
        let mut at = claims;
        for (i, name) in self.0.iter().enumerate() {
            if i > 0 && !matches!(at, Value::Object(_)) {
                return Err(a_type(at));
            }
            match at.get(name) {
                Some(v) => at = v,
                None => return Ok(None),
            }
        }
        Ok(Some(at))
    }
}

/// A string or a name, escaped and shortened for a message (`{:?}`, at most 64 characters):
/// values that come from a token or a fetched document never reach a log unescaped.
pub(crate) fn shown(s: &str) -> String {
    format!("{:?}", cut(s))
}

/// `s` cut at 64 characters.
fn cut(s: &str) -> String {
    const MAX: usize = 64;
    let mut out: String = s.chars().take(MAX).collect();
    if s.chars().nth(MAX).is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_are_read_strictly() {
        let o = read_object(br#"{"b":1,"a":[1,{"x":2}],"c":"s"}"#).unwrap();
        let Value::Object(members) = &o else {
            panic!("{o:?}")
        };
        let names: Vec<&str> = members.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, ["b", "a", "c"]);
        for (bad, why) in [
            (
                &br#"{"a":1,"b":2,"a":3}"#[..],
                "names the member \"a\" twice",
            ),
            (br#"{"a":1,"\u0061":2}"#, "names the member \"a\" twice"),
            (br#"{"a":{"k":1,"k":2}}"#, "names the member \"k\" twice"),
            (b"[]", "is not a JSON object"),
            (b"\"s\"", "is not a JSON object"),
            (b"{\"a\":\"\xff\"}", "is not UTF-8"),
        ] {
            assert_eq!(read_object(bad).unwrap_err(), why, "{bad:?}");
        }
        for bad in [&b""[..], b"{", b"{\"a\":1} x", br#"{"a":"\ud800"}"#] {
            assert!(read_object(bad).unwrap_err().starts_with("is not JSON ("));
        }
        let deep = format!("{{\"a\":{}{}}}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(read_object(deep.as_bytes()).is_err());
        let long = format!(r#"{{"{0}":1,"{0}":2}}"#, "k".repeat(500));
        assert!(read_object(long.as_bytes()).unwrap_err().len() < 100);
    }

    #[test]
    fn claim_paths() {
        let claims = read_object(
            br#"{"scp":"a b","realm_access":{"roles":["r"]},"https://x.example/roles":["y"],"a/b":{"~c":1},"s":"t"}"#,
        )
        .unwrap();
        let find = |p: &str| {
            ClaimPath::parse(p)
                .unwrap()
                .find(&claims)
                .map(|v| v.cloned())
        };
        assert_eq!(
            find("scp")
                .unwrap()
                .and_then(|v| as_str(&v).map(str::to_owned)),
            Some("a b".into())
        );
        assert_eq!(
            find("/realm_access/roles")
                .unwrap()
                .and_then(|v| strings(&v)),
            Some(vec!["r".into()])
        );
        assert!(find("https://x.example/roles").unwrap().is_some());
        assert!(find("/a~1b/~0c").unwrap().is_some());
        assert!(find("/realm_access/missing").unwrap().is_none());
        assert!(find("/missing/roles").unwrap().is_none());
        assert_eq!(find("/s/x").unwrap_err(), "a string");
        for bad in ["", "/", "/a//b", "/a~2", "/a~"] {
            assert!(ClaimPath::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn shown_escapes_and_shortens() {
        assert_eq!(shown("a\"b\n"), r#""a\"b\n""#);
        assert_eq!(
            shown(&"x".repeat(100)),
            format!("{:?}", format!("{}…", "x".repeat(64)))
        );
    }
}
