//! JSON read the way the properties need it.

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use std::fmt;

/// The members of a JSON object, in order, with raw values (duplicates kept).
pub struct Members<'a>(pub Vec<(String, &'a RawValue)>);

impl<'de> Deserialize<'de> for Members<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Members<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(k) = map.next_key::<String>()? {
                    let v: &'de RawValue = map.next_value()?;
                    out.push((k, v));
                }
                Ok(Members(out))
            }
        }
        d.deserialize_map(V)
    }
}

impl<'a> Members<'a> {
    /// The members of `text` when it is exactly one JSON object (RFC 8259 syntax; string
    /// escapes inside values are not judged).
    pub fn parse(text: &'a str) -> Option<Members<'a>> {
        serde_json::from_str(text).ok()
    }

    /// How many members are named `key`.
    pub fn count(&self, key: &str) -> usize {
        self.0.iter().filter(|(k, _)| k == key).count()
    }

    /// The raw value of the first member named `key`.
    pub fn get(&self, key: &str) -> Option<&'a RawValue> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| *v)
    }

    /// Whether no key appears twice.
    pub fn unique(&self) -> bool {
        let mut keys: Vec<&str> = self.0.iter().map(|(k, _)| k.as_str()).collect();
        keys.sort_unstable();
        keys.windows(2).all(|w| w[0] != w[1])
    }
}

/// A raw value read as a JSON string (escapes decoded; `None` for any other value, or a
/// string that is not Unicode, such as one with a lone surrogate escape).
pub fn as_string(raw: &RawValue) -> Option<String> {
    if !raw.get().starts_with('"') {
        return None;
    }
    serde_json::from_str::<String>(raw.get()).ok()
}

/// Whether a raw JSON text is a string or an integer (what MCP allows as a request id).
pub fn is_id(raw: &str) -> bool {
    raw.starts_with('"') || {
        let digits = raw.strip_prefix('-').unwrap_or(raw);
        !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
    }
}

/// Parses `text` strictly (every string valid Unicode), panicking with `what` otherwise.
pub fn strict(text: &str, what: &str) -> serde_json::Value {
    match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => panic!("{what} is not valid JSON ({e}): {text:?}"),
    }
}
