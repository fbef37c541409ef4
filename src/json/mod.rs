//! A strict JSON reader (RFC 8259) into a small borrowed tree, for the host's readers of what
//! a server or a caller sent (skill entries, `skills/list` and `skills/get` results, DSSE
//! envelopes and statements, pins and approvals exports).
//!
//! It accepts exactly the texts `serde_json` accepts as a `serde_json::Value`, and reads the same
//! values from them, without serde's generic machinery (a much smaller WebAssembly module):
//!
//! - one value, surrounded by optional whitespace (space, tab, line feed, carriage return);
//! - no trailing commas, no comments, no leading zeros (`01`), no `+1`, `.5`, `1.`, `NaN`;
//! - strings: no unescaped control characters (U+0000 to U+001F); escapes `\" \\ \/ \b \f \n \r
//!   \t \uXXXX`, where a `\u` surrogate must be a leading one followed by a trailing one (no lone
//!   surrogates);
//! - numbers: refused when they are out of the range of an `f64` ("number out of range");
//! - depth: at most [`MAX_DEPTH`] arrays and objects nested, as `serde_json`'s recursion limit.
//!
//! Duplicate object keys are kept, in document order: the tree is what the text says, and each
//! reader decides. [`Node::field`] refuses a repeated key it looks up (as serde's derived readers
//! refuse a repeated field), [`Node::to_value`] refuses any repeated key (frontmatter keys are
//! unique), [`Node::get`] returns the first occurrence.
//!
//! Errors name what is wrong and where, as `serde_json`'s do: `expected value at line 1 column 5`.

use std::borrow::Cow;
use std::fmt;

// The exact decimal reader of frontmatter floats: `str::parse::<f64>`'s value without its
// 10 KB table of powers of five.
use crate::skill::frontmatter::read_decimal_f64;

mod access;
pub use access::{FieldError, FieldErrorKind};

/// The deepest nesting of arrays and objects read (`serde_json`'s recursion limit): 127
/// containers inside one another; one more is refused ("recursion limit exceeded").
pub const MAX_DEPTH: usize = 127;

/// The most members of an object whose keys [`Node::repeated_key`] compares pairwise (at most
/// 28 comparisons, no allocation); a larger object's keys go through an ordered set.
const SMALL_OBJECT: usize = 8;

/// A JSON value and the exact text it was read from.
///
/// ```
/// use skills_edge::catalog::json::parse;
/// let doc = parse(r#"{"name": "hello", "size": 12, "tags": ["a", "b"]}"#).unwrap();
/// assert_eq!(doc.get("name").and_then(|n| n.as_str()), Some("hello"));
/// assert_eq!(doc.get("size").map(|n| n.raw), Some("12"));
/// let tags = doc.get("tags").unwrap();
/// assert_eq!((tags.raw, tags.a_type()), (r#"["a", "b"]"#, "an array"));
/// assert_eq!(parse(r#"{"a": 1, "a": 2}"#).unwrap().repeated_key(), Some("a"), "kept, and found");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Node<'a> {
    /// The value's text in the document, without the whitespace around it.
    pub raw: &'a str,
    /// The value.
    pub value: Json<'a>,
}

/// A JSON value whose strings borrow from the document where they have no escapes.
///
/// ```
/// use skills_edge::catalog::json::{parse, Json};
/// use std::borrow::Cow;
/// let doc = parse(r#"["plain", "esc\u00e9", 1.50, true]"#).unwrap();
/// let Json::Array(items) = &doc.value else { panic!("an array") };
/// assert!(matches!(&items[0].value, Json::String(Cow::Borrowed("plain"))));
/// assert!(matches!(&items[1].value, Json::String(Cow::Owned(s)) if s == "escé"));
/// assert_eq!(items[2].value, Json::Number("1.50"), "numbers as written");
/// assert_eq!(items[3].value, Json::Bool(true));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Json<'a> {
    /// `null`
    Null,
    /// `true` or `false`
    Bool(bool),
    /// A number, as written (valid JSON, within the range of an `f64`).
    Number(&'a str),
    /// A string, unescaped.
    String(Cow<'a, str>),
    /// An array, in order.
    Array(Vec<Node<'a>>),
    /// An object's members in document order, repeated keys included.
    Object(Vec<(Cow<'a, str>, Node<'a>)>),
}

/// Why a text is not JSON, and where.
///
/// ```
/// use skills_edge::catalog::json::parse;
/// let e = parse("{\"a\": 1,\n \"b\": 01}").unwrap_err();
/// assert_eq!((e.line, e.column), (2, 8));
/// assert_eq!(e.to_string(), format!("{} at line 2 column 8", e.message));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// What is wrong, in `serde_json`'s words ("expected value", "trailing comma", ...).
    pub message: &'static str,
    /// The line, from 1.
    pub line: usize,
    /// The column in bytes, from 1 (0 at the end of an empty line, as `serde_json` counts).
    pub column: usize,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at line {} column {}",
            self.message, self.line, self.column
        )
    }
}

impl std::error::Error for Error {}

#[cfg(any(test, feature = "internals"))]
thread_local! {
    /// How many documents [`parse`] has read on this thread (tests and feature `internals`
    /// only): the client's tests count the readings of a reply.
    pub static PARSED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Reads one JSON document.
///
/// ```
/// use skills_edge::catalog::json::{parse, Json};
/// let doc = parse(r#" {"a": [1, "x\n"], "b": null} "#).unwrap();
/// assert_eq!(doc.raw, r#"{"a": [1, "x\n"], "b": null}"#);
/// assert_eq!(doc.get("a").unwrap().raw, r#"[1, "x\n"]"#);
/// assert!(matches!(doc.get("b").unwrap().value, Json::Null));
/// assert_eq!(parse("[1,]").unwrap_err().to_string(), "trailing comma at line 1 column 4");
/// ```
pub fn parse(text: &str) -> Result<Node<'_>, Error> {
    #[cfg(any(test, feature = "internals"))]
    PARSED.with(|n| n.set(n.get() + 1));
    let mut p = Parser::new(text);
    let node = p.value()?;
    p.skip_ws();
    if p.at < p.bytes.len() {
        return Err(p.error_here("trailing characters"));
    }
    Ok(node)
}

/// Reads the JSON value at the start of `text` (after any white space), and the bytes it
/// took: for a reader that needs only the first members of a long document it knows the
/// shape of. What follows the value is not read.
pub(crate) fn parse_prefix(text: &str) -> Result<(Node<'_>, usize), Error> {
    let mut p = Parser::new(text);
    let node = p.value()?;
    Ok((node, p.at))
}

impl<'a> Node<'a> {
    /// The string, if the value is one.
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    /// The items, if the value is an array.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn as_array(&self) -> Option<&[Node<'a>]> {
        match &self.value {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The members, if the value is an object.
    pub fn as_object(&self) -> Option<&[(Cow<'a, str>, Node<'a>)]> {
        match &self.value {
            Json::Object(members) => Some(members),
            _ => None,
        }
    }

    /// Whether the value is `null`.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn is_null(&self) -> bool {
        matches!(self.value, Json::Null)
    }

    /// The number as a `u64`, if it is an integer written without a fraction or an exponent
    /// that fits one (as `serde_json::Number::as_u64`).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn as_u64(&self) -> Option<u64> {
        match self.value {
            Json::Number(n) => n.parse().ok(),
            _ => None,
        }
    }

    /// The number as an `f64` (every number read fits one).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn as_f64(&self) -> Option<f64> {
        match self.value {
            Json::Number(n) => read_decimal_f64(n),
            _ => None,
        }
    }

    /// The first member named `key`, if the value is an object that has one.
    pub fn get(&self, key: &str) -> Option<&Node<'a>> {
        self.as_object()?
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }

    /// The first key an object repeats, if any: the first member, in document order, whose
    /// key an earlier member has. An object of at most 8 members (nearly every
    /// object a server or a caller sends) compares its keys pairwise, allocating nothing; a
    /// larger one keeps an ordered set of the keys seen, so O(n log n) comparisons for n
    /// members (a reply may hold millions), never a comparison with every earlier key. The
    /// set holds `String`s, the one set type the host's readers share, so the WebAssembly
    /// verifier carries one copy of its code.
    pub fn repeated_key(&self) -> Option<&str> {
        let members = self.as_object()?;
        if members.len() <= SMALL_OBJECT {
            return members
                .iter()
                .enumerate()
                .find(|(i, (k, _))| members[..*i].iter().any(|(e, _)| e == k))
                .map(|(_, (k, _))| k.as_ref());
        }
        let mut seen: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
        members
            .iter()
            .map(|(k, _)| k.as_ref())
            .find(|k| !seen.insert((*k).to_owned()))
    }

    /// The JSON type of the value with its article, for messages: `null`, `a boolean`,
    /// `a number`, `a string`, `an array` or `an object`.
    pub fn a_type(&self) -> &'static str {
        match self.value {
            Json::Null => "null",
            Json::Bool(_) => "a boolean",
            Json::Number(_) => "a number",
            Json::String(_) => "a string",
            Json::Array(_) => "an array",
            Json::Object(_) => "an object",
        }
    }
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
    depth: usize,
}

impl<'a> Parser<'a> {
    /// A reader at the start of `text`.
    fn new(text: &'a str) -> Self {
        Parser {
            text,
            bytes: text.as_bytes(),
            at: 0,
            depth: 0,
        }
    }

    /// An error at byte `at` (the offending byte; the end of the text for an early end).
    fn error_at(&self, message: &'static str, at: usize) -> Error {
        let before = self.bytes.get(..at).unwrap_or(self.bytes);
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let column = if at >= self.bytes.len() {
            at - line_start
        } else {
            at - line_start + 1
        };
        Error {
            message,
            line: 1 + before.iter().filter(|&&b| b == b'\n').count(),
            column,
        }
    }

    fn error_here(&self, message: &'static str) -> Error {
        self.error_at(message, self.at)
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn value(&mut self) -> Result<Node<'a>, Error> {
        self.skip_ws();
        let start = self.at;
        let value = match self.peek() {
            None => return Err(self.error_here("EOF while parsing a value")),
            Some(b'n') => self.literal("null", Json::Null)?,
            Some(b't') => self.literal("true", Json::Bool(true))?,
            Some(b'f') => self.literal("false", Json::Bool(false))?,
            Some(b'"') => {
                self.at += 1;
                Json::String(self.string()?)
            }
            Some(b'-' | b'0'..=b'9') => self.number()?,
            Some(open @ (b'[' | b'{')) => {
                if self.depth == MAX_DEPTH {
                    return Err(self.error_here("recursion limit exceeded"));
                }
                self.depth += 1;
                self.at += 1;
                let v = if open == b'[' {
                    self.array()?
                } else {
                    self.object()?
                };
                self.depth -= 1;
                v
            }
            Some(_) => return Err(self.error_here("expected value")),
        };
        Ok(Node {
            raw: self.text.get(start..self.at).unwrap_or_default(),
            value,
        })
    }

    fn literal(&mut self, word: &'static str, value: Json<'a>) -> Result<Json<'a>, Error> {
        for &b in word.as_bytes() {
            match self.peek() {
                None => return Err(self.error_here("EOF while parsing a value")),
                Some(c) if c == b => self.at += 1,
                Some(_) => return Err(self.error_here("expected ident")),
            }
        }
        Ok(value)
    }

    /// `[` read; the items up to and with the `]`.
    fn array(&mut self) -> Result<Json<'a>, Error> {
        let mut items = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Json::Array(items));
        }
        loop {
            items.push(self.value()?);
            self.skip_ws();
            match self.peek() {
                Some(b',') => {
                    self.at += 1;
                    self.skip_ws();
                    if self.peek() == Some(b']') {
                        return Err(self.error_here("trailing comma"));
                    }
                }
                Some(b']') => {
                    self.at += 1;
                    return Ok(Json::Array(items));
                }
                None => return Err(self.error_here("EOF while parsing a list")),
                Some(_) => return Err(self.error_here("expected `,` or `]`")),
            }
        }
    }

    /// `{` read; the members up to and with the `}`.
    fn object(&mut self) -> Result<Json<'a>, Error> {
        let mut members = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(Json::Object(members));
        }
        loop {
            match self.peek() {
                Some(b'"') => self.at += 1,
                None => return Err(self.error_here("EOF while parsing an object")),
                Some(_) => return Err(self.error_here("key must be a string")),
            }
            let key = self.string()?;
            self.skip_ws();
            match self.peek() {
                Some(b':') => self.at += 1,
                None => return Err(self.error_here("EOF while parsing an object")),
                Some(_) => return Err(self.error_here("expected `:`")),
            }
            members.push((key, self.value()?));
            self.skip_ws();
            match self.peek() {
                Some(b',') => {
                    self.at += 1;
                    self.skip_ws();
                    if self.peek() == Some(b'}') {
                        return Err(self.error_here("trailing comma"));
                    }
                }
                Some(b'}') => {
                    self.at += 1;
                    return Ok(Json::Object(members));
                }
                None => return Err(self.error_here("EOF while parsing an object")),
                Some(_) => return Err(self.error_here("expected `,` or `}`")),
            }
        }
    }

    /// The opening `"` read; the string up to and with the closing one, unescaped.
    fn string(&mut self) -> Result<Cow<'a, str>, Error> {
        let mut owned: Option<String> = None;
        let mut run = self.at;
        loop {
            let Some(b) = self.peek() else {
                return Err(self.error_here("EOF while parsing a string"));
            };
            match b {
                b'"' => {
                    let tail = self.text.get(run..self.at).unwrap_or_default();
                    self.at += 1;
                    return Ok(match owned {
                        None => Cow::Borrowed(tail),
                        Some(mut s) => {
                            s.push_str(tail);
                            Cow::Owned(s)
                        }
                    });
                }
                b'\\' => {
                    let s = owned.get_or_insert_with(String::new);
                    s.push_str(self.text.get(run..self.at).unwrap_or_default());
                    self.at += 1;
                    let c = self.escape()?;
                    owned.get_or_insert_with(String::new).push(c);
                    run = self.at;
                }
                0..=0x1f => {
                    return Err(self.error_here(
                        "control character (\\u0000-\\u001F) found while parsing a string",
                    ))
                }
                _ => self.at += 1,
            }
        }
    }

    /// The `\` read; the escaped character.
    fn escape(&mut self) -> Result<char, Error> {
        let Some(b) = self.peek() else {
            return Err(self.error_here("EOF while parsing a string"));
        };
        self.at += 1;
        Ok(match b {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let n = self.hex4()?;
                if (0xDC00..=0xDFFF).contains(&n) {
                    return Err(self.error_at("lone leading surrogate in hex escape", self.at - 1));
                }
                if !(0xD800..=0xDBFF).contains(&n) {
                    return char::from_u32(n)
                        .ok_or_else(|| self.error_here("invalid unicode code point"));
                }
                if self.bytes.get(self.at..self.at + 2) != Some(b"\\u") {
                    let at = (self.at + 1).min(self.bytes.len());
                    return Err(self.error_at("unexpected end of hex escape", at));
                }
                self.at += 2;
                let low = self.hex4()?;
                if !(0xDC00..=0xDFFF).contains(&low) {
                    return Err(self.error_at("lone leading surrogate in hex escape", self.at - 1));
                }
                let c = 0x1_0000 + ((n - 0xD800) << 10) + (low - 0xDC00);
                char::from_u32(c).ok_or_else(|| self.error_here("invalid unicode code point"))?
            }
            _ => return Err(self.error_at("invalid escape", self.at - 1)),
        })
    }

    fn hex4(&mut self) -> Result<u32, Error> {
        let mut n = 0;
        for _ in 0..4 {
            let Some(b) = self.peek() else {
                return Err(self.error_here("EOF while parsing a string"));
            };
            let d = (b as char)
                .to_digit(16)
                .ok_or_else(|| self.error_here("invalid escape"))?;
            n = n * 16 + d;
            self.at += 1;
        }
        Ok(n)
    }

    /// A number: `-`? (`0` | [1-9][0-9]*) (`.` [0-9]+)? ([eE] [+-]? [0-9]+)?, within the
    /// range of an `f64`.
    fn number(&mut self) -> Result<Json<'a>, Error> {
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        match self.peek() {
            Some(b'0') => {
                self.at += 1;
                if matches!(self.peek(), Some(b'0'..=b'9')) {
                    return Err(self.error_here("invalid number"));
                }
            }
            Some(b'1'..=b'9') => self.digits(),
            None => return Err(self.error_here("EOF while parsing a value")),
            Some(_) => return Err(self.error_here("invalid number")),
        }
        let mut integer = true;
        if self.peek() == Some(b'.') {
            integer = false;
            self.at += 1;
            self.required_digits()?;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            integer = false;
            self.at += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            self.required_digits()?;
        }
        let text = self.text.get(start..self.at).unwrap_or_default();
        // An integer of up to 18 digits always fits; anything longer, or with a fraction or an
        // exponent, must be a finite f64.
        let fits =
            (integer && text.len() <= 19) || read_decimal_f64(text).is_some_and(f64::is_finite);
        if !fits {
            return Err(self.error_at("number out of range", start));
        }
        Ok(Json::Number(text))
    }

    fn digits(&mut self) {
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
    }

    fn required_digits(&mut self) -> Result<(), Error> {
        match self.peek() {
            Some(b'0'..=b'9') => {
                self.digits();
                Ok(())
            }
            None => Err(self.error_here("EOF while parsing a value")),
            Some(_) => Err(self.error_here("invalid number")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skill::value::{Number, Value};

    fn err(text: &str) -> String {
        parse(text).unwrap_err().to_string()
    }

    /// Ours accepts iff serde_json accepts, with the same value.
    fn same_as_serde(text: &str) {
        let ours = parse(text);
        let theirs = serde_json::from_str::<serde_json::Value>(text);
        match (&ours, &theirs) {
            (Ok(a), Ok(b)) => assert_eq!(&to_serde(a), b, "{text:?}"),
            (Err(_), Err(_)) => {}
            _ => panic!("{text:?}: ours {ours:?}, serde_json {theirs:?}"),
        }
    }

    fn to_serde(n: &Node) -> serde_json::Value {
        match &n.value {
            Json::Null => serde_json::Value::Null,
            Json::Bool(b) => (*b).into(),
            Json::Number(t) => serde_json::from_str(t).unwrap(),
            Json::String(s) => s.to_string().into(),
            Json::Array(items) => items.iter().map(to_serde).collect(),
            Json::Object(m) => m
                .iter()
                .map(|(k, v)| (k.to_string(), to_serde(v)))
                .collect(),
        }
    }

    #[test]
    fn accepts_json_and_keeps_raw_text() {
        let doc =
            parse(" { \"a\" : [ 1 , -2.5e3 , \"\\u00e9\\ud83d\\ude00\" ] , \"b\":{} }\n").unwrap();
        assert_eq!(
            doc.raw,
            "{ \"a\" : [ 1 , -2.5e3 , \"\\u00e9\\ud83d\\ude00\" ] , \"b\":{} }"
        );
        let a = doc.get("a").unwrap().as_array().unwrap();
        assert_eq!(a[0].as_u64(), Some(1));
        assert_eq!(a[1].as_f64(), Some(-2500.0));
        assert_eq!(a[1].raw, "-2.5e3");
        assert_eq!(a[2].as_str(), Some("é😀"));
        assert!(matches!(doc.get("b").unwrap().value, Json::Object(ref m) if m.is_empty()));
        assert!(matches!(
            parse("\"plain\"").unwrap().value,
            Json::String(Cow::Borrowed("plain"))
        ));
        for text in [
            "null",
            "true",
            "false",
            "0",
            "-0",
            "1e5",
            "1E+5",
            "1e-5",
            "0.5",
            "-0.0",
            "[]",
            "{}",
            "[[],{}]",
            "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"",
            "\"\u{7f}é\u{10ffff}\"",
            "123456789012345678901234567890",
            "1e-400",
            "18446744073709551616",
        ] {
            same_as_serde(text);
        }
    }

    #[test]
    fn refuses_what_serde_json_refuses() {
        for text in [
            "",
            " ",
            "[1,]",
            "{\"a\":1,}",
            "[1 2]",
            "{\"a\" 1}",
            "{1:2}",
            "// c\n1",
            "/* c */1",
            "01",
            "-01",
            "+1",
            ".5",
            "1.",
            "1.e5",
            "1e",
            "1e+",
            "-",
            "NaN",
            "Infinity",
            "nul",
            "truex",
            "[",
            "{",
            "{\"a\":",
            "\"abc",
            "\"\\x\"",
            "\"\\u12\"",
            "\"\\u12g4\"",
            "\"\u{1}\"",
            "\"a\nb\"",
            "1 2",
            "[]]",
            "1e400",
            "-1e400",
            "\"\\ud800\"",
            "\"\\udc00\"",
            "\"\\ud800\\u0041\"",
            "\"\\ud800x\"",
            "\"\\ud800\\n\"",
            "\u{feff}1",
            "[\u{a0}1]",
            "'a'",
        ] {
            assert!(parse(text).is_err(), "{text:?} accepted");
            same_as_serde(text);
        }
    }

    #[test]
    fn messages_name_the_place() {
        assert_eq!(err(""), "EOF while parsing a value at line 1 column 0");
        assert_eq!(err("[1,]"), "trailing comma at line 1 column 4");
        assert_eq!(
            err("{\"a\":1,\n \"b\" 2}"),
            "expected `:` at line 2 column 6"
        );
        assert_eq!(
            err("{\"a\":1"),
            "EOF while parsing an object at line 1 column 6"
        );
        assert_eq!(err("[1 2]"), "expected `,` or `]` at line 1 column 4");
        assert_eq!(err("01"), "invalid number at line 1 column 2");
        assert_eq!(err("1 x"), "trailing characters at line 1 column 3");
        assert_eq!(err("{1:2}"), "key must be a string at line 1 column 2");
        assert_eq!(
            err("\"\\ud800\""),
            "unexpected end of hex escape at line 1 column 8"
        );
        assert_eq!(
            err("\"\\udc00\""),
            "lone leading surrogate in hex escape at line 1 column 7"
        );
        assert_eq!(err("1e400"), "number out of range at line 1 column 1");
        // The same words as serde_json's, at the same place, for the common mistakes.
        for text in [
            "",
            "[1,]",
            "{\"a\":1",
            "[1 2]",
            "1 x",
            "{1:2}",
            "tru",
            "[\"a\u{1}\"]",
        ] {
            let theirs = serde_json::from_str::<serde_json::Value>(text)
                .unwrap_err()
                .to_string();
            assert_eq!(err(text), theirs, "{text:?}");
        }
    }

    #[test]
    fn depth_is_bounded_like_serde_json() {
        let nested = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(parse(&nested(MAX_DEPTH)).is_ok());
        assert_eq!(
            parse(&nested(MAX_DEPTH + 1)).unwrap_err().message,
            "recursion limit exceeded"
        );
        same_as_serde(&nested(MAX_DEPTH));
        same_as_serde(&nested(MAX_DEPTH + 1));
        let objects = format!(
            "{}1{}",
            "{\"a\":".repeat(MAX_DEPTH + 1),
            "}".repeat(MAX_DEPTH + 1)
        );
        assert!(parse(&objects).is_err());
        same_as_serde(&objects);
        // Deep input far past the bound is refused without exhausting the stack.
        assert!(parse(&"[".repeat(100_000)).is_err());
    }

    #[test]
    fn numbers_and_values() {
        let v = parse(r#"{"i":9007199254740991,"big":9007199254740992,"f":1.5,"neg":-3,"e":1e2}"#)
            .unwrap()
            .to_value()
            .unwrap();
        assert!(matches!(
            v.get("i"),
            Some(Value::Number(Number::Int(9007199254740991)))
        ));
        assert!(
            matches!(v.get("big"), Some(Value::Number(Number::Float(f))) if *f == 9007199254740992.0)
        );
        assert!(matches!(v.get("f"), Some(Value::Number(Number::Float(f))) if *f == 1.5));
        assert!(matches!(v.get("neg"), Some(Value::Number(Number::Int(-3)))));
        assert!(matches!(v.get("e"), Some(Value::Number(Number::Float(f))) if *f == 100.0));
        assert_eq!(parse("5").unwrap().as_u64(), Some(5));
        assert_eq!(parse("5.0").unwrap().as_u64(), None);
        assert_eq!(parse("-5").unwrap().as_u64(), None);
        assert_eq!(parse("18446744073709551616").unwrap().as_u64(), None);
        assert_eq!(parse("\"5\"").unwrap().as_u64(), None);
    }

    /// Objects on both sides of the pairwise limit answer as the definition says: the first
    /// member, in document order, whose key an earlier member has.
    #[test]
    fn repeated_key_is_the_first_repeat_at_every_size() {
        for n in 1..=SMALL_OBJECT + 3 {
            for first in 0..n {
                for second in first + 1..n {
                    let keys: Vec<String> = (0..n)
                        .map(|i| {
                            if i == second {
                                format!("k{first}")
                            } else {
                                format!("k{i}")
                            }
                        })
                        .collect();
                    let text = keys
                        .iter()
                        .map(|k| format!("\"{k}\":0"))
                        .collect::<Vec<_>>()
                        .join(",");
                    let object = format!("{{{text}}}");
                    let doc = parse(&object).unwrap();
                    let expected = format!("k{first}");
                    assert_eq!(doc.repeated_key(), Some(expected.as_str()), "{text}");
                }
            }
            let distinct = (0..n)
                .map(|i| format!("\"k{i}\":0"))
                .collect::<Vec<_>>()
                .join(",");
            assert_eq!(
                parse(&format!("{{{distinct}}}")).unwrap().repeated_key(),
                None
            );
        }
        // Two repeats: the one whose second member comes first is named.
        let large = r#"{"a":0,"b":0,"c":0,"d":0,"e":0,"f":0,"g":0,"h":0,"i":0,"b":0,"a":0}"#;
        assert_eq!(parse(large).unwrap().repeated_key(), Some("b"));
        let small = r#"{"a":0,"b":0,"b":0,"a":0}"#;
        assert_eq!(parse(small).unwrap().repeated_key(), Some("b"));
    }
}
