//! A JSON object read member by member, each member's value kept as raw JSON text: the JOSE
//! header, the claims set, a JWK, a JWK Set and authorization server metadata are all read
//! through it.
//!
//! A member named twice is refused (RFC 7515 §4 and RFC 7519 §4: "Claim Names within a JWT
//! Claims Set MUST be unique; JWT parsers MUST either reject JWTs with duplicate Claim Names
//! or use a JSON parser that returns only the lexically last duplicate member name"; this
//! reader takes the first way, so no two readers of one token can see different claims).
//! Only the object's own members are checked for duplicates (a claim whose value is an object
//! is refused by its type wherever a claim is read). Duplicates are found with an ordered set,
//! so a large object costs `O(n log n)` whatever its member names. Every member's value must
//! be JSON text a strict reader accepts: a string with a lone surrogate escape (RFC 8259
//! §8.2: receivers' behaviour is unpredictable) or nesting past 128 levels is refused.

use std::collections::BTreeSet;
use std::fmt;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

/// Why some bytes are not a JSON object this reader accepts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum JsonProblem {
    /// Not JSON text (or not UTF-8); the detail is serde_json's, without the input.
    NotJson(String),
    /// JSON, but not an object.
    NotObject,
    /// A member named twice (the name, escaped and shortened for a message).
    Duplicate(String),
}

impl fmt::Display for JsonProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JsonProblem::NotJson(detail) => write!(f, "is not JSON ({detail})"),
            JsonProblem::NotObject => f.write_str("is not a JSON object"),
            JsonProblem::Duplicate(name) => write!(f, "names the member {name} twice"),
        }
    }
}

/// The members of one JSON object, in document order, each value as raw JSON text.
#[derive(Debug, Clone)]
pub(crate) struct Object(Vec<(String, Box<RawValue>)>);

impl Object {
    /// Reads `bytes` as one JSON object with unique member names.
    pub(crate) fn parse(bytes: &[u8]) -> Result<Object, JsonProblem> {
        match serde_json::from_slice::<Object>(bytes) {
            Ok(o) => {
                // serde_json skips a raw value without checking its string escapes or its
                // depth; reading each one whole refuses both.
                for (k, v) in &o.0 {
                    if serde_json::from_str::<serde_json::Value>(v.get()).is_err() {
                        return Err(JsonProblem::NotJson(format!(
                            "the member {} holds a string with a lone surrogate escape, or nesting deeper than 128 levels",
                            shown(k)
                        )));
                    }
                }
                Ok(o)
            }
            Err(e) => {
                let text = e.to_string();
                if let Some(name) = text.strip_prefix(DUPLICATE) {
                    let name = name.split(" at line ").next().unwrap_or_default();
                    return Err(JsonProblem::Duplicate(name.to_owned()));
                }
                if text.starts_with(NOT_OBJECT) {
                    return Err(JsonProblem::NotObject);
                }
                // serde_json's messages name the problem and a position, never the input.
                Err(JsonProblem::NotJson(text))
            }
        }
    }

    /// The raw value of member `name`, if present.
    pub(crate) fn get(&self, name: &str) -> Option<&RawValue> {
        self.0.iter().find(|(k, _)| k == name).map(|(_, v)| &**v)
    }

    /// Whether member `name` is present.
    pub(crate) fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// The member names, in document order.
    #[cfg(test)]
    pub(crate) fn names(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(k, _)| k.as_str())
    }
}

/// The start of the message of a duplicate member.
const DUPLICATE: &str = "duplicate member ";
/// The start of the message of a value that is not an object.
const NOT_OBJECT: &str = "not an object";

/// A string or a name, escaped and shortened for a message (`{:?}`, at most 64 characters):
/// values that come from a token or a fetched document never reach a log unescaped.
pub(crate) fn shown(s: &str) -> String {
    const MAX: usize = 64;
    let mut out: String = s.chars().take(MAX).collect();
    if s.chars().nth(MAX).is_some() {
        out.push('…');
    }
    format!("{out:?}")
}

impl<'de> serde::Deserialize<'de> for Object {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Object;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Object, A::Error> {
                let mut out: Vec<(String, Box<RawValue>)> = Vec::new();
                let mut seen: BTreeSet<String> = BTreeSet::new();
                while let Some(k) = map.next_key::<String>()? {
                    if !seen.insert(k.clone()) {
                        return Err(de::Error::custom(format_args!("{DUPLICATE}{}", shown(&k))));
                    }
                    let v: Box<RawValue> = map.next_value()?;
                    out.push((k, v));
                }
                Ok(Object(out))
            }
            // Any other JSON value: the one message `parse` recognises.
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Object, E> {
                Err(E::custom(NOT_OBJECT))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Object, E> {
                Err(E::custom(NOT_OBJECT))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Object, E> {
                Err(E::custom(NOT_OBJECT))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Object, E> {
                Err(E::custom(NOT_OBJECT))
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Object, E> {
                Err(E::custom(NOT_OBJECT))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Object, E> {
                Err(E::custom(NOT_OBJECT))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, _: A) -> Result<Object, A::Error> {
                Err(de::Error::custom(NOT_OBJECT))
            }
        }
        d.deserialize_any(V)
    }
}

/// A JSON value read from a raw member: what the checks of this module need to know of it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Json {
    /// A string (escapes resolved).
    Str(String),
    /// A number, as serde_json reads it.
    Num(serde_json::Number),
    /// An array of strings only.
    Strings(Vec<String>),
    /// An array with some element that is not a string.
    MixedArray,
    /// `true`, `false`, `null` or an object.
    Other,
}

impl Json {
    /// Reads a raw value.
    pub(crate) fn of(raw: &RawValue) -> Json {
        let text = raw.get();
        match text.as_bytes().first() {
            Some(b'"') => match serde_json::from_str::<String>(text) {
                Ok(s) => Json::Str(s),
                Err(_) => Json::Other,
            },
            Some(b'[') => match serde_json::from_str::<Vec<String>>(text) {
                Ok(v) => Json::Strings(v),
                Err(_) => Json::MixedArray,
            },
            Some(b'-' | b'0'..=b'9') => match serde_json::from_str::<serde_json::Number>(text) {
                Ok(n) => Json::Num(n),
                Err(_) => Json::Other,
            },
            _ => Json::Other,
        }
    }

    /// The JSON type's name, for a message.
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            Json::Str(_) => "a string",
            Json::Num(_) => "a number",
            Json::Strings(_) | Json::MixedArray => "an array",
            Json::Other => "not a string, number or array",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_are_read_in_order_and_duplicates_refused() {
        let o = Object::parse(br#"{"b":1,"a":[1,{"x":2}],"c":"s"}"#).unwrap();
        assert_eq!(o.names().collect::<Vec<_>>(), ["b", "a", "c"]);
        assert_eq!(o.get("a").unwrap().get(), r#"[1,{"x":2}]"#);
        assert!(o.has("c") && !o.has("d"));
        assert_eq!(
            Object::parse(br#"{"a":1,"b":2,"a":3}"#).unwrap_err(),
            JsonProblem::Duplicate("\"a\"".into())
        );
        // Escapes name the same member: "\u0061" is "a".
        assert_eq!(
            Object::parse(br#"{"a":1,"\u0061":2}"#).unwrap_err(),
            JsonProblem::Duplicate("\"a\"".into())
        );
        // Nested duplicates are not this reader's concern.
        assert!(Object::parse(br#"{"a":{"k":1,"k":2}}"#).is_ok());
    }

    #[test]
    fn other_values_and_bad_text_are_refused() {
        for bad in [&b"[]"[..], b"1", b"\"s\"", b"null", b"true", b"-1.5"] {
            assert_eq!(
                Object::parse(bad).unwrap_err(),
                JsonProblem::NotObject,
                "{bad:?}"
            );
        }
        for bad in [
            &b""[..],
            b"{",
            b"{\"a\":}",
            b"{\"a\":1} x",
            b"{\"a\":\"\xff\"}",
        ] {
            assert!(
                matches!(Object::parse(bad), Err(JsonProblem::NotJson(_))),
                "{bad:?}"
            );
        }
        // Deep nesting stops at serde_json's recursion limit, not the stack.
        let deep = format!("{{\"a\":{}{}}}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(matches!(
            Object::parse(deep.as_bytes()),
            Err(JsonProblem::NotJson(_))
        ));
        let ok = format!("{{\"a\":{}{}}}", "[".repeat(100), "]".repeat(100));
        assert!(Object::parse(ok.as_bytes()).is_ok());
        let unbalanced = format!("{{\"a\":{}}}", "[".repeat(100_000));
        assert!(matches!(
            Object::parse(unbalanced.as_bytes()),
            Err(JsonProblem::NotJson(_))
        ));
        // A lone surrogate escape anywhere in a member.
        for bad in [&br#"{"a":"\ud800"}"#[..], br#"{"a":["x",{"b":"\udc00y"}]}"#] {
            assert!(
                matches!(Object::parse(bad), Err(JsonProblem::NotJson(_))),
                "{bad:?}"
            );
        }
        assert!(Object::parse(br#"{"a":"\ud83d\ude00"}"#).is_ok());
    }

    #[test]
    fn values_are_typed() {
        let o = Object::parse(
            br#"{"s":"x\u00e9","n":-3,"f":1.5,"a":["a","b"],"m":["a",1],"o":{},"b":true,"z":null}"#,
        )
        .unwrap();
        let j = |k| Json::of(o.get(k).unwrap());
        assert_eq!(j("s"), Json::Str("xé".into()));
        assert!(matches!(j("n"), Json::Num(n) if n.as_i64() == Some(-3)));
        assert!(matches!(j("f"), Json::Num(n) if n.as_f64() == Some(1.5)));
        assert_eq!(j("a"), Json::Strings(vec!["a".into(), "b".into()]));
        assert_eq!(j("m"), Json::MixedArray);
        assert_eq!(j("o"), Json::Other);
        assert_eq!(j("b"), Json::Other);
        assert_eq!(j("z"), Json::Other);
    }

    #[test]
    fn shown_escapes_and_shortens() {
        assert_eq!(shown("a\"b\n"), r#""a\"b\n""#);
        let long = "x".repeat(100);
        assert_eq!(
            shown(&long),
            format!("{:?}", format!("{}…", "x".repeat(64)))
        );
    }
}
