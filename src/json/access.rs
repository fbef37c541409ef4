//! The typed accessors of a [`Node`] (the members and values the host's readers require, read
//! as serde's derived readers read them) and their error, [`FieldError`].

use std::fmt;

use super::{Json, Node};
use crate::skill::frontmatter::read_decimal_f64;
use crate::skill::value::{Number, Value, MAX_SAFE_INTEGER};

/// Why one of [`Node`]'s accessors (`Node::field`, `Node::required`, `Node::str_of`,
/// `Node::array_of`, `Node::u32_of`, `Node::expect_object`, `Node::opt_str`,
/// `Node::opt_array`, `Node::to_value`) refused a JSON text's value: what (`kind`), and a
/// message that names the member and what is wrong, in serde's words where serde has some
/// ([`std::fmt::Display`]). The accessors return it boxed, so their success path stays the
/// size of what they read: the verifier module is about 430 bytes (gzipped) smaller than
/// with the error inline.
///
/// ```
/// use skills_edge::catalog::json::{parse, FieldErrorKind};
/// let doc = parse(r#"{"name": 7, "tags": [], "tags": []}"#).unwrap();
/// let e = doc.str_of("name").unwrap_err();
/// assert_eq!(e.kind, FieldErrorKind::WrongType { expected: "a string", found: "a number" });
/// assert_eq!(e.to_string(), "`name` must be a string, found a number");
/// assert_eq!(e.key.as_deref(), Some("name"));
/// assert_eq!(doc.array_of("tags").unwrap_err().kind, FieldErrorKind::Duplicate);
/// assert_eq!(doc.required("id").unwrap_err().to_string(), "missing field `id`");
/// ```
// Reachable only through `From<Box<FieldError>> for String`, which the library's readers use;
// not part of the API.
#[allow(unnameable_types)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// What was refused.
    pub kind: FieldErrorKind,
    /// The member's key, unescaped: the one looked up, or for `Node::to_value` the one
    /// repeated; `None` for `Node::expect_object`, whose caller names the value.
    pub key: Option<String>,
    message: String,
}

/// What a [`FieldError`] refused.
///
/// ```
/// use skills_edge::catalog::json::{parse, FieldErrorKind};
/// let doc = parse(r#"{"size": -1, "id": "a", "id": "b"}"#).unwrap();
/// assert_eq!(doc.u32_of("size").unwrap_err().kind, FieldErrorKind::OutOfRange);
/// assert_eq!(doc.str_of("id").unwrap_err().kind, FieldErrorKind::Duplicate);
/// assert_eq!(doc.required("name").unwrap_err().kind, FieldErrorKind::Missing);
/// let e = doc.array_of("size").unwrap_err();
/// assert_eq!(e.kind, FieldErrorKind::WrongType { expected: "an array", found: "a number" });
/// ```
// Reachable only through `FieldError` (above); not part of the API.
#[allow(unnameable_types)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldErrorKind {
    /// A required member that is absent: "missing field `k`".
    Missing,
    /// A key repeated: the member looked up ("duplicate field `k`"), or any key of any object
    /// `Node::to_value` reads (`duplicate object key "k"`).
    Duplicate,
    /// A value of another JSON type: "`k` must be a string, found a number".
    WrongType {
        /// The type read, with its article, as [`Node::a_type`] writes it ("a string").
        expected: &'static str,
        /// The type found, in the same words ("a number").
        found: &'static str,
    },
    /// A number that is not an integer in the range read (`Node::u32_of`).
    OutOfRange,
}

impl FieldError {
    fn new(kind: FieldErrorKind, key: Option<&str>, message: String) -> Box<FieldError> {
        Box::new(FieldError {
            kind,
            key: key.map(str::to_owned),
            message,
        })
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for FieldError {}

/// The message alone (what [`std::fmt::Display`] writes), for a caller whose own errors are
/// strings: moved out, not formatted again.
impl From<Box<FieldError>> for String {
    fn from(e: Box<FieldError>) -> String {
        e.message
    }
}

impl<'a> Node<'a> {
    /// The member named `key` of an object, refused when the key is repeated (as serde's
    /// derived readers refuse a repeated field): "duplicate field `key`"
    /// ([`FieldErrorKind::Duplicate`]).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn field(&self, key: &str) -> Result<Option<&Node<'a>>, Box<FieldError>> {
        let mut found = None;
        for (k, v) in self.as_object().unwrap_or_default() {
            if k == key {
                if found.is_some() {
                    return Err(FieldError::new(
                        FieldErrorKind::Duplicate,
                        Some(key),
                        format!("duplicate field `{key}`"),
                    ));
                }
                found = Some(v);
            }
        }
        Ok(found)
    }

    /// A required member of an object, refused as serde refuses a missing or repeated field:
    /// "missing field `key`" ([`FieldErrorKind::Missing`]), "duplicate field `key`"
    /// ([`FieldErrorKind::Duplicate`]).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn required(&self, key: &str) -> Result<&Node<'a>, Box<FieldError>> {
        self.field(key)?.ok_or_else(|| {
            FieldError::new(
                FieldErrorKind::Missing,
                Some(key),
                format!("missing field `{key}`"),
            )
        })
    }

    /// A required string member of an object ([`Node::required`], then the type:
    /// "`key` must be a string, found ..." ([`FieldErrorKind::WrongType`])).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn str_of(&self, key: &str) -> Result<&str, Box<FieldError>> {
        let n = self.required(key)?;
        n.as_str().ok_or_else(|| n.wrong_type(key, "a string"))
    }

    /// A required array member of an object ([`Node::required`], then the type:
    /// "`key` must be an array, found ..." ([`FieldErrorKind::WrongType`])).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn array_of(&self, key: &str) -> Result<&[Node<'a>], Box<FieldError>> {
        let n = self.required(key)?;
        n.as_array().ok_or_else(|| n.wrong_type(key, "an array"))
    }

    /// A required member of an object that is an integer from 0 to `u32::MAX` written without
    /// a fraction or an exponent, as serde reads a `u32` field ([`Node::required`], then
    /// "`key` must be an integer from 0 to 4294967295, found ...": [`FieldErrorKind::WrongType`]
    /// for a value that is not a number, [`FieldErrorKind::OutOfRange`] for a number that is
    /// not such an integer).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn u32_of(&self, key: &str) -> Result<u32, Box<FieldError>> {
        let n = self.required(key)?;
        n.as_u64()
            .and_then(|u| u32::try_from(u).ok())
            .ok_or_else(|| {
                let kind = match n.value {
                    Json::Number(_) => FieldErrorKind::OutOfRange,
                    _ => FieldErrorKind::WrongType {
                        expected: "a number",
                        found: n.a_type(),
                    },
                };
                FieldError::new(
                    kind,
                    Some(key),
                    format!(
                        "`{key}` must be an integer from 0 to 4294967295, found {}",
                        n.raw
                    ),
                )
            })
    }

    /// `Ok` for an object; for anything else "`what` must be an object, found ..."
    /// ([`FieldErrorKind::WrongType`]).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn expect_object(&self, what: &str) -> Result<(), Box<FieldError>> {
        match self.value {
            Json::Object(_) => Ok(()),
            _ => Err(FieldError::new(
                FieldErrorKind::WrongType {
                    expected: "an object",
                    found: self.a_type(),
                },
                None,
                format!("{what} must be an object, found {}", self.a_type()),
            )),
        }
    }

    /// An optional string member of an object (absent or `null`: `None`), read as serde reads
    /// an `Option<String>` field: another type ([`FieldErrorKind::WrongType`]), or the key
    /// repeated ([`FieldErrorKind::Duplicate`]), is refused.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn opt_str(&self, key: &str) -> Result<Option<&str>, Box<FieldError>> {
        match self.field(key)? {
            Some(n) if !n.is_null() => n
                .as_str()
                .map(Some)
                .ok_or_else(|| n.wrong_type(key, "a string")),
            _ => Ok(None),
        }
    }

    /// An optional array member of an object (absent or `null`: `None`), read as serde reads
    /// an `Option<Vec<_>>` field: another type ([`FieldErrorKind::WrongType`]), or the key
    /// repeated ([`FieldErrorKind::Duplicate`]), is refused.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn opt_array(&self, key: &str) -> Result<Option<&[Node<'a>]>, Box<FieldError>> {
        match self.field(key)? {
            Some(n) if !n.is_null() => n
                .as_array()
                .map(Some)
                .ok_or_else(|| n.wrong_type(key, "an array")),
            _ => Ok(None),
        }
    }

    /// The refusal of this value, member `key`, for not being `expected` (a JSON type with
    /// its article, as [`Node::a_type`] writes it): "`key` must be `expected`, found ...".
    fn wrong_type(&self, key: &str, expected: &'static str) -> Box<FieldError> {
        let found = self.a_type();
        FieldError::new(
            FieldErrorKind::WrongType { expected, found },
            Some(key),
            format!("`{key}` must be {expected}, found {found}"),
        )
    }

    /// The value as an ordered [`Value`]: integers within JavaScript's safe range stay
    /// integers, other numbers become `f64`s; a repeated key in any object is refused
    /// (`duplicate object key "k"`, [`FieldErrorKind::Duplicate`]).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn to_value(&self) -> Result<Value, Box<FieldError>> {
        Ok(match &self.value {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => Value::Number(number(n)),
            Json::String(s) => Value::String(s.to_string()),
            Json::Array(items) => {
                Value::Array(items.iter().map(Node::to_value).collect::<Result<_, _>>()?)
            }
            Json::Object(members) => {
                if let Some(k) = self.repeated_key() {
                    let mut m = String::from("duplicate object key ");
                    crate::skill::value::write_json_string(k, &mut m);
                    return Err(FieldError::new(FieldErrorKind::Duplicate, Some(k), m));
                }
                Value::Object(
                    members
                        .iter()
                        .map(|(k, v)| Ok((k.to_string(), v.to_value()?)))
                        .collect::<Result<_, Box<FieldError>>>()?,
                )
            }
        })
    }
}

/// A number's value: an integer (no fraction, no exponent) within the safe range as
/// [`Number::Int`], anything else as the nearest `f64`.
fn number(text: &str) -> Number {
    if !text.contains(['.', 'e', 'E'])
        && let Ok(i) = text.parse::<i64>()
        && (-MAX_SAFE_INTEGER..=MAX_SAFE_INTEGER).contains(&i)
    {
        return Number::Int(i);
    }
    Number::Float(read_decimal_f64(text).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;

    #[test]
    fn repeated_keys_are_kept_and_judged_by_the_reader() {
        let doc = parse(r#"{"a":1,"b":2,"a":3}"#).unwrap();
        assert_eq!(doc.get("a").unwrap().raw, "1");
        assert_eq!(doc.repeated_key(), Some("a"));
        assert_eq!(
            refused!(doc.field("a"), FieldErrorKind::Duplicate),
            "duplicate field `a`"
        );
        assert_eq!(doc.field("b").unwrap().unwrap().raw, "2");
        assert_eq!(doc.field("c").unwrap(), None);
        assert_eq!(
            refused!(doc.to_value(), FieldErrorKind::Duplicate),
            "duplicate object key \"a\""
        );
        let inner = parse(r#"{"x":{"k\n":1,"k\n":1}}"#).unwrap().to_value();
        assert_eq!(inner.as_ref().unwrap_err().key.as_deref(), Some("k\n"));
        assert_eq!(
            refused!(inner, FieldErrorKind::Duplicate),
            "duplicate object key \"k\\n\""
        );
    }

    #[test]
    fn accessors_refuse_with_a_kind_and_serde_words() {
        use FieldErrorKind::*;
        let wrong = |expected, found| WrongType { expected, found };
        let doc = parse(
            r#"{"s":"x","n":1.5,"a":[],"o":{},"z":null,"t":true,"d":1,"d":2,"big":4294967296,"neg":-1}"#,
        )
        .unwrap();
        type Case<'t> = (Result<(), Box<FieldError>>, FieldErrorKind, &'t str);
        let cases: Vec<Case> = vec![
            (doc.required("m").map(drop), Missing, "missing field `m`"),
            (
                doc.required("d").map(drop),
                Duplicate,
                "duplicate field `d`",
            ),
            (doc.str_of("m").map(drop), Missing, "missing field `m`"),
            (doc.str_of("d").map(drop), Duplicate, "duplicate field `d`"),
            (
                doc.str_of("n").map(drop),
                wrong("a string", "a number"),
                "`n` must be a string, found a number",
            ),
            (
                doc.str_of("z").map(drop),
                wrong("a string", "null"),
                "`z` must be a string, found null",
            ),
            (doc.array_of("m").map(drop), Missing, "missing field `m`"),
            (
                doc.array_of("o").map(drop),
                wrong("an array", "an object"),
                "`o` must be an array, found an object",
            ),
            (doc.u32_of("m").map(drop), Missing, "missing field `m`"),
            (doc.u32_of("d").map(drop), Duplicate, "duplicate field `d`"),
            (
                doc.u32_of("s").map(drop),
                wrong("a number", "a string"),
                "`s` must be an integer from 0 to 4294967295, found \"x\"",
            ),
            (
                doc.u32_of("n").map(drop),
                OutOfRange,
                "`n` must be an integer from 0 to 4294967295, found 1.5",
            ),
            (
                doc.u32_of("big").map(drop),
                OutOfRange,
                "`big` must be an integer from 0 to 4294967295, found 4294967296",
            ),
            (
                doc.u32_of("neg").map(drop),
                OutOfRange,
                "`neg` must be an integer from 0 to 4294967295, found -1",
            ),
            (
                doc.get("a").unwrap().expect_object("the list"),
                wrong("an object", "an array"),
                "the list must be an object, found an array",
            ),
            (doc.opt_str("d").map(drop), Duplicate, "duplicate field `d`"),
            (
                doc.opt_str("t").map(drop),
                wrong("a string", "a boolean"),
                "`t` must be a string, found a boolean",
            ),
            (
                doc.opt_array("d").map(drop),
                Duplicate,
                "duplicate field `d`",
            ),
            (
                doc.opt_array("s").map(drop),
                wrong("an array", "a string"),
                "`s` must be an array, found a string",
            ),
        ];
        for (r, kind, message) in cases {
            assert_eq!(refused!(r, kind), message);
        }
        // The key is the member's, except for `expect_object`, whose caller names the value.
        assert_eq!(doc.str_of("n").unwrap_err().key.as_deref(), Some("n"));
        assert_eq!(doc.required("m").unwrap_err().key.as_deref(), Some("m"));
        assert_eq!(doc.expect_object("x").map(drop), Ok(()));
        assert_eq!(
            doc.get("s").unwrap().expect_object("x").unwrap_err().key,
            None
        );
        // What they accept.
        assert_eq!(doc.str_of("s"), Ok("x"));
        assert_eq!(doc.opt_str("z"), Ok(None));
        assert_eq!(doc.opt_str("m"), Ok(None));
        assert_eq!(doc.opt_array("a").map(|a| a.map(<[_]>::len)), Ok(Some(0)));
        assert_eq!(
            parse(r#"{"v":4294967295}"#).unwrap().u32_of("v"),
            Ok(u32::MAX)
        );
    }
}
