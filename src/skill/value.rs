//! Ordered JSON values: frontmatter as published, in document order at every depth.
//!
//! `serde_json::Value` sorts object keys (without `preserve_order`), and the published
//! `frontmatter` must keep the author's order (the conformance suite compares nested
//! objects with an order-sensitive `JSON.stringify`). This small type keeps objects as
//! ordered pairs, writes JSON exactly as JavaScript's `JSON.stringify` does, and compares
//! by content the way a host must (keys as sets, numbers by value, arrays in order).

use std::fmt::Write as _;

/// A JSON number. Always finite.
///
/// ```
/// use skills_edge::host::{Number, Value};
/// // `version: 2` and `ratio: 0.5` in a frontmatter.
/// let (version, ratio) = (Value::Number(Number::Int(2)), Value::Number(Number::Float(0.5)));
/// assert_eq!((version.to_json(), ratio.to_json()), ("2".to_owned(), "0.5".to_owned()));
/// assert_eq!(Number::Int(1), Number::Float(1.0), "compared by value, as in JavaScript");
/// ```
#[derive(Debug, Clone, Copy)]
pub enum Number {
    /// An integer within JavaScript's safe range (±(2^53 − 1)).
    Int(i64),
    /// Any other finite number.
    Float(f64),
}

impl Number {
    /// The value as an `f64`, the only number type JSON hosts in JavaScript have.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn as_f64(self) -> f64 {
        match self {
            Number::Int(i) => i as f64,
            Number::Float(f) => f,
        }
    }
}

impl PartialEq for Number {
    fn eq(&self, other: &Self) -> bool {
        self.as_f64() == other.as_f64()
    }
}

/// The largest integer JavaScript represents exactly (`Number.MAX_SAFE_INTEGER`).
pub const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

/// An ordered JSON value.
///
/// ```
/// use skills_edge::host::Value;
/// // A frontmatter as the host reads it (`Entry::frontmatter`): keys in document order.
/// let s = |t: &str| Value::String(t.into());
/// let metadata = Value::Object(vec![("z".into(), s("1")), ("a".into(), s("2"))]);
/// let fm = Value::Object(vec![("name".into(), s("a")), ("description".into(), s("d")), ("metadata".into(), metadata)]);
/// assert_eq!(fm.get("name").map(Value::to_json).as_deref(), Some(r#""a""#));
/// assert_eq!(fm.to_json(), r#"{"name":"a","description":"d","metadata":{"z":"1","a":"2"}}"#);
/// ```
#[derive(Debug, Clone)]
pub enum Value {
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// A finite number.
    Number(Number),
    /// A string.
    String(String),
    /// An array, in order.
    Array(Vec<Value>),
    /// An object, keys in document order. Keys are unique (parsers reject duplicates).
    Object(Vec<(String, Value)>),
}

impl Value {
    /// Looks up `key` in an object; `None` for other values or a missing key.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(pairs) => pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string inside a `Value::String`.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// A short name of the value's JSON type, for messages.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        }
    }

    /// The value's type with its article, in the words of a YAML author: `a string`,
    /// `a number`, `a boolean`, `null`, `a list`, `a map` (for messages).
    pub(crate) fn kind_phrase(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "a list",
            Value::Object(_) => "a map",
        }
    }

    /// Compact JSON text, byte for byte what `JSON.stringify` prints for the same value.
    ///
    /// ```
    /// use skills_edge::host::{Number, Value};
    /// let v = Value::Object(vec![
    ///     ("b".into(), Value::Number(Number::Float(1.0))),
    ///     ("a".into(), Value::String("é\n".into())),
    /// ]);
    /// assert_eq!(v.to_json(), r#"{"b":1,"a":"é\n"}"#);
    /// ```
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        self.write_json(&mut out);
        out
    }

    /// Appends compact JSON text to `out` (see [`Value::to_json`]).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn write_json(&self, out: &mut String) {
        match self {
            Value::Null => out.push_str("null"),
            Value::Bool(true) => out.push_str("true"),
            Value::Bool(false) => out.push_str("false"),
            Value::Number(n) => write_number(*n, out),
            Value::String(s) => write_json_string(s, out),
            Value::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write_json(out);
                }
                out.push(']');
            }
            Value::Object(pairs) => {
                out.push('{');
                for (i, (k, v)) in pairs.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_json_string(k, out);
                    out.push(':');
                    v.write_json(out);
                }
                out.push('}');
            }
        }
    }

    /// Content equality as a host must apply it to frontmatter: the same key set at every
    /// level (a missing key is not `null`), key order ignored, arrays in order, numbers by
    /// value (`1.0 == 1`), strings exactly (no trimming, no Unicode normalisation).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn same_content(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Null, Value::Null) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Number(a), Value::Number(b)) => a == b,
            (Value::String(a), Value::String(b)) => a == b,
            (Value::Array(a), Value::Array(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same_content(y))
            }
            (Value::Object(a), Value::Object(b)) => {
                if a.len() != b.len() {
                    return false;
                }
                if b.len() <= 16 {
                    return a
                        .iter()
                        .all(|(k, v)| other.get(k).is_some_and(|w| v.same_content(w)));
                }
                // Keys are unique: index the other side once instead of a scan per key.
                let mut index = std::collections::BTreeMap::new();
                for (k, v) in b {
                    index.insert(k.as_str(), v);
                }
                a.iter()
                    .all(|(k, v)| index.get(k.as_str()).is_some_and(|w| v.same_content(w)))
            }
            _ => false,
        }
    }
}

/// Bytes that need escaping in a JSON string: `"`, `\\` and the C0 controls.
const fn escape_table() -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = true;
        i += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
}
static NEEDS_ESCAPE: [bool; 256] = escape_table();

/// Writes `s` as a JSON string literal, escaping exactly as `JSON.stringify` does
/// (`"`, `\`, and control characters; `\b \f \n \r \t` by name, others as `\u00XX`).
/// Runs of plain characters are copied at once, so large texts cost little more than a copy.
pub fn write_json_string(s: &str, out: &mut String) {
    out.reserve(s.len() + 2);
    out.push('"');
    let bytes = s.as_bytes();
    let mut start = 0;
    while let Some(off) = bytes[start..]
        .iter()
        .position(|&b| NEEDS_ESCAPE[b as usize])
    {
        let i = start + off;
        out.push_str(&s[start..i]);
        match bytes[i] {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0x08 => out.push_str("\\b"),
            0x0c => out.push_str("\\f"),
            b => {
                let _ = write!(out, "\\u{:04x}", b);
            }
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// Writes a finite number the way JavaScript's `Number.prototype.toString` does
/// (ECMA-262 Number::toString): integers without a fraction, shortest round-trip digits,
/// exponent form below 1e-6 and from 1e21 up (`1e+21`, `1.5e-7`). `-0` prints as `0`.
#[cfg_attr(feature = "internals", visibility::make(pub))]
pub(crate) fn write_number(n: Number, out: &mut String) {
    let f = match n {
        Number::Int(i) => {
            let _ = write!(out, "{i}");
            return;
        }
        Number::Float(f) => f,
    };
    if f == 0.0 || !f.is_finite() {
        // Non-finite values never reach a `Value` (parsers reject them); JSON has no
        // spelling for them, and JSON.stringify would print `null`.
        out.push_str(if f == 0.0 { "0" } else { "null" });
        return;
    }
    if f < 0.0 {
        out.push('-');
    }
    // zmij (serde_json's float writer) prints the shortest digits that round-trip, the closest
    // of them to the value, as Rust's `{:e}` and ECMA-262 do ("123.0", "0.001234", "1e+21",
    // "1.5e-7"); the layout is redone here from its digits and exponent. Not `{:e}`: that
    // would link core's exponent formatting beside zmij in every wasm module that writes a
    // frontmatter.
    let mut buffer = zmij::Buffer::new();
    let text = buffer.format_finite(f.abs());
    let (mantissa, exp) = text.split_once(['e', 'E']).unwrap_or((text, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all = format!("{int}{frac}");
    let digits = all.trim_start_matches('0');
    // The decimal point sits after `n` of the significant digits.
    let n = int.len() as i32 - (all.len() - digits.len()) as i32 + exp;
    let digits = digits.trim_end_matches('0');
    let k = digits.len() as i32;
    if k <= n && n <= 21 {
        out.push_str(digits);
        out.extend(std::iter::repeat_n('0', (n - k) as usize));
    } else if 0 < n && n <= 21 {
        out.push_str(&digits[..n as usize]);
        out.push('.');
        out.push_str(&digits[n as usize..]);
    } else if -6 < n && n <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-n) as usize));
        out.push_str(digits);
    } else {
        out.push_str(&digits[..1]);
        if k > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let e = n - 1;
        let _ = write!(out, "e{}{}", if e < 0 { '-' } else { '+' }, e.abs());
    }
}
