//! Plain scalars: the YAML 1.2 core schema as `yaml@2` resolves it (null, booleans, integers,
//! floats, strings, tested in `yaml@2`'s order), and the YAML 1.1 cross-check that refuses the
//! plain scalars a YAML 1.1 reader (the type registry, PyYAML, `yaml@2` with `version: "1.1"`)
//! types differently, as well as numbers JSON or JavaScript cannot carry.
//!
//! Quoted and block scalars are always strings and never come here.

use super::decimal::parse_f64;
use super::error::{truncate, FrontmatterError, FrontmatterErrorKind, Result};
use super::Mode;
use crate::skill::value::{write_number, Number, Value, MAX_SAFE_INTEGER};

/// The YAML 1.2 core-schema type of a plain scalar, tested in `yaml@2`'s order
/// (`null`, `bool`, `intOct`, `int`, `intHex`, `floatNaN`, `floatExp`, `float`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Core {
    Null,
    Bool(bool),
    IntOct,
    IntDec,
    IntHex,
    FloatNonFinite,
    Float,
    Str,
}

fn core_type(s: &str) -> Core {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return Core::Null,
        "true" | "True" | "TRUE" => return Core::Bool(true),
        "false" | "False" | "FALSE" => return Core::Bool(false),
        ".nan" | ".NaN" | ".NAN" => return Core::FloatNonFinite,
        _ => {}
    }
    if let Some(d) = s.strip_prefix("0o")
        && !d.is_empty()
        && d.bytes().all(|b| (b'0'..=b'7').contains(&b))
    {
        return Core::IntOct;
    }
    let unsigned = s.strip_prefix(['-', '+']).unwrap_or(s);
    if all_digits(unsigned) {
        return Core::IntDec;
    }
    if let Some(h) = s.strip_prefix("0x")
        && !h.is_empty()
        && h.bytes().all(|b| b.is_ascii_hexdigit())
    {
        return Core::IntHex;
    }
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") {
        return Core::FloatNonFinite;
    }
    if core_float(unsigned) {
        return Core::Float;
    }
    Core::Str
}

fn all_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// `(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?` with a dot or an exponent: the union of
/// `yaml@2`'s `float` and `floatExp` tests, without the sign.
fn core_float(s: &str) -> bool {
    let (mantissa, exp) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    if let Some(exp) = exp
        && !all_digits(exp.strip_prefix(['-', '+']).unwrap_or(exp))
    {
        return false;
    }

    match mantissa.split_once('.') {
        Some((int, frac)) => {
            (int.is_empty() && all_digits(frac))
                || (all_digits(int) && (frac.is_empty() || all_digits(frac)))
        }
        None => exp.is_some() && all_digits(mantissa),
    }
}

/// A refused scalar: the rule, the message and the fix (the caller adds the line).
type Refusal = (FrontmatterErrorKind, String, String);

/// Resolves a plain scalar to a value, or refuses it. [`Mode::Host`] skips the YAML 1.1
/// cross-check (leading zeros, `0o` octals, floats and strings a YAML 1.1 reader types
/// differently, the merge key); every other refusal stays.
pub(super) fn resolve_plain(s: &str, is_key: bool, line: usize, mode: Mode) -> Result<Value> {
    resolve_plain_inner(s, is_key, mode == Mode::Host)
        .map_err(|(kind, message, fix)| FrontmatterError::new(kind, Some(line), message, fix))
}

fn resolve_plain_inner(s: &str, is_key: bool, yaml12_only: bool) -> Result<Value, Refusal> {
    use FrontmatterErrorKind as K;
    let core = core_type(s);
    let shown = truncate(s, 60);
    if is_key && core != Core::Str {
        let what = match core {
            Core::Null => "null",
            Core::Bool(_) => "a boolean",
            _ => "a number",
        };
        let message = if s.is_empty() {
            "a mapping key that is empty (null); keys must be strings".to_string()
        } else {
            format!("the key `{shown}` is read as {what}, not a string")
        };
        return Err((
            K::NonStringKey,
            message,
            format!("quote the key: `\"{shown}\": ...`"),
        ));
    }
    match core {
        Core::Null => Ok(Value::Null),
        Core::Bool(b) => Ok(Value::Bool(b)),
        Core::IntOct if yaml12_only => match s.strip_prefix("0o").and_then(|d| parse_radix(d, 8)) {
            Some(n) if n <= MAX_SAFE_INTEGER as u64 => Ok(Value::Number(Number::Int(n as i64))),
            _ => Err(unsafe_integer(&shown)),
        },
        Core::IntOct => Err((
            K::Yaml11Ambiguous,
            format!(
                "`{shown}` is an octal integer in YAML 1.2 but the string \"{shown}\" in YAML 1.1"
            ),
            format!(
                "write the number in decimal{}, or quote it if it is text",
                decimal_hint(s, 2, 8)
            ),
        )),
        Core::IntDec => {
            let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
            if !yaml12_only && digits.len() > 1 && digits.starts_with('0') {
                return Err((
                    K::LeadingZeroInteger,
                    format!("the integer `{shown}` has a leading zero: YAML 1.2 reads {}, YAML 1.1 reads an octal number or a string", digits.trim_start_matches('0').parse::<u128>().map(|n| n.to_string()).unwrap_or_else(|_| "a decimal number".into())),
                    format!("quote it if it is text (`\"{shown}\"`), or remove the leading zeros"),
                ));
            }
            let negative = s.starts_with('-');
            match parse_radix(digits, 10) {
                Some(n) if n <= MAX_SAFE_INTEGER as u64 => {
                    let n = n as i64;
                    Ok(Value::Number(Number::Int(if negative { -n } else { n })))
                }
                _ => Err(unsafe_integer(&shown)),
            }
        }
        Core::IntHex => match s.strip_prefix("0x").and_then(|h| parse_radix(h, 16)) {
            Some(n) if n <= MAX_SAFE_INTEGER as u64 => Ok(Value::Number(Number::Int(n as i64))),
            _ => Err(unsafe_integer(&shown)),
        },
        Core::FloatNonFinite => Err(non_finite(&shown)),
        Core::Float => {
            let f = match parse_f64(s) {
                Some(f) => f,
                None => return Ok(Value::String(s.to_string())),
            };
            if !f.is_finite() {
                return Err(non_finite(&shown));
            }
            if let Some(why) = float_yaml11_problem(s).filter(|_| !yaml12_only) {
                return Err((
                    K::Yaml11Ambiguous,
                    format!("`{shown}` is a number in YAML 1.2 but YAML 1.1 readers read it differently ({why})"),
                    format!("write it as `{}` if it is a number, or quote it (`\"{shown}\"`) if it is text", js_number_text(f)),
                ));
            }
            Ok(Value::Number(Number::Float(f)))
        }
        Core::Str => {
            if let Some((kind, why)) = yaml11_typed(s).filter(|_| !yaml12_only) {
                let (kind, fix) = if s == "<<" && is_key {
                    (
                        K::MergeKey,
                        "write the merged keys out in this mapping; YAML 1.2 has no merge key"
                            .to_string(),
                    )
                } else if kind == K::MergeKey {
                    (K::Yaml11Ambiguous, format!("quote it: `\"{shown}\"`"))
                } else {
                    (kind, format!("quote it: `\"{shown}\"`"))
                };
                let place = if is_key { "the key" } else { "the value" };
                return Err((
                    kind,
                    format!("{place} `{shown}` is a string in YAML 1.2 but {why} in YAML 1.1"),
                    fix,
                ));
            }
            Ok(Value::String(s.to_string()))
        }
    }
}

fn unsafe_integer(shown: &str) -> Refusal {
    (
        FrontmatterErrorKind::UnsafeInteger,
        format!("the integer `{shown}` is outside ±(2^53 − 1), so JavaScript hosts cannot hold it exactly"),
        format!("quote it (`\"{shown}\"`) to keep it as text"),
    )
}

fn non_finite(shown: &str) -> Refusal {
    (
        FrontmatterErrorKind::NonFiniteNumber,
        format!(
            "`{shown}` is not a finite number; JSON has no infinity or NaN (it would become null)"
        ),
        format!("quote it (`\"{shown}\"`) if it is text, or write a finite number"),
    )
}

fn decimal_hint(s: &str, skip: usize, radix: u32) -> String {
    match s.get(skip..).and_then(|d| parse_radix(d, radix)) {
        Some(n) => format!(" (`{n}`)"),
        None => String::new(),
    }
}

fn js_number_text(f: f64) -> String {
    let mut out = String::new();
    write_number(Number::Float(f), &mut out);
    out
}

/// Parses digits in `radix` without overflow; `None` when it exceeds `u64`.
fn parse_radix(digits: &str, radix: u32) -> Option<u64> {
    let mut n: u64 = 0;
    for c in digits.chars() {
        let d = c.to_digit(radix)?;
        n = n.checked_mul(u64::from(radix))?.checked_add(u64::from(d))?;
    }
    Some(n)
}

/// Why a YAML 1.2 float is read differently by PyYAML, the YAML 1.1 reference reader, whose
/// float pattern is
/// `[-+]?[0-9][0-9_]*\.[0-9_]*([eE][-+][0-9]+)?|\.[0-9][0-9_]*([eE][-+][0-9]+)?`.
fn float_yaml11_problem(s: &str) -> Option<&'static str> {
    let unsigned = s.strip_prefix(['-', '+']).unwrap_or(s);
    let (mantissa, exp) = match unsigned.find(['e', 'E']) {
        Some(i) => (&unsigned[..i], Some(&unsigned[i + 1..])),
        None => (unsigned, None),
    };
    if !mantissa.contains('.') {
        return Some("a YAML 1.1 float needs a `.`, so this is a string there");
    }
    if let Some(exp) = exp
        && !exp.starts_with(['-', '+'])
    {
        return Some(
            "a YAML 1.1 float needs a sign in its exponent (`e+3`), so this is a string there",
        );
    }
    if unsigned.len() != s.len() && mantissa.starts_with('.') {
        return Some(
            "PyYAML does not accept a sign before a leading `.`, so this is a string there",
        );
    }
    None
}

/// Whether a plain scalar that YAML 1.2 reads as a string is typed by a YAML 1.1 reader (the
/// YAML 1.1 type registry, PyYAML, or `yaml@2` with `version: "1.1"`); returns the kind of refusal
/// and what 1.1 reads.
fn yaml11_typed(s: &str) -> Option<(FrontmatterErrorKind, &'static str)> {
    use FrontmatterErrorKind as K;
    match s {
        "y" | "Y" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" => {
            return Some((K::Yaml11Ambiguous, "the boolean true"))
        }
        "n" | "N" | "no" | "No" | "NO" | "off" | "Off" | "OFF" => {
            return Some((K::Yaml11Ambiguous, "the boolean false"))
        }
        "<<" => return Some((K::MergeKey, "the merge key")),
        "=" => return Some((K::Yaml11Ambiguous, "the `value` type (PyYAML refuses it)")),
        _ => {}
    }
    if is_int11(s) {
        return Some((K::Yaml11Ambiguous, "an integer"));
    }
    if is_sexagesimal11(s) {
        return Some((K::Yaml11Ambiguous, "a base-60 number"));
    }
    if is_float11(s) {
        return Some((K::Yaml11Ambiguous, "a float"));
    }
    if is_timestamp11(s) {
        return Some((K::Yaml11Ambiguous, "a timestamp (date)"));
    }
    None
}

/// `[0-9][0-9_]*`
fn digits_underscore(s: &str) -> bool {
    s.bytes().next().is_some_and(|b| b.is_ascii_digit())
        && s.bytes().all(|b| b.is_ascii_digit() || b == b'_')
}

/// YAML 1.1 int: `[-+]?0b[0-1_]+`, `[-+]?0[0-7_]+`, `[-+]?[0-9][0-9_]*` (decimal, `yaml@2`),
/// `[-+]?0x[0-9a-fA-F_]+`.
fn is_int11(s: &str) -> bool {
    let u = s.strip_prefix(['-', '+']).unwrap_or(s);
    if let Some(b) = u.strip_prefix("0b") {
        return !b.is_empty() && b.bytes().all(|c| c == b'0' || c == b'1' || c == b'_');
    }
    if let Some(h) = u.strip_prefix("0x") {
        return !h.is_empty() && h.bytes().all(|c| c.is_ascii_hexdigit() || c == b'_');
    }
    digits_underscore(u)
}

/// YAML 1.1 base 60: `[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?`.
fn is_sexagesimal11(s: &str) -> bool {
    let u = s.strip_prefix(['-', '+']).unwrap_or(s);
    let mut parts = u.split(':');
    let Some(first) = parts.next() else {
        return false;
    };
    if !digits_underscore(first) {
        return false;
    }
    let rest: Vec<&str> = parts.collect();
    if rest.is_empty() {
        return false;
    }
    let last = rest.len() - 1;
    rest.iter().enumerate().all(|(i, part)| {
        let (digits, frac) = match part.split_once('.') {
            Some((d, f)) if i == last => (d, Some(f)),
            _ => (*part, None),
        };
        let base60 = match digits.as_bytes() {
            [d] => d.is_ascii_digit(),
            [a, b] => (b'0'..=b'5').contains(a) && b.is_ascii_digit(),
            _ => false,
        };
        base60 && frac.is_none_or(|f| f.bytes().all(|c| c.is_ascii_digit() || c == b'_'))
    })
}

/// YAML 1.1 float, the union of `yaml@2` 1.1 (`[-+]?([0-9][0-9_]*)?\.[0-9_]*` and
/// `[-+]?([0-9][0-9_]*)?(\.[0-9_]*)?[eE][-+]?[0-9]+`), PyYAML and the type registry (whose
/// `[0-9.]*` is read as `[0-9_]*`: no 1.1 reader types `1.2.3` as a number).
fn is_float11(s: &str) -> bool {
    let u = s.strip_prefix(['-', '+']).unwrap_or(s);
    let (mantissa, exp) = match u.find(['e', 'E']) {
        Some(i) => (&u[..i], Some(&u[i + 1..])),
        None => (u, None),
    };
    if let Some(exp) = exp
        && !all_digits(exp.strip_prefix(['-', '+']).unwrap_or(exp))
    {
        return false;
    }
    let (int, frac) = match mantissa.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (mantissa, None),
    };
    if frac.is_none() && exp.is_none() {
        return false;
    }
    (int.is_empty() || digits_underscore(int))
        && frac.is_none_or(|f| f.bytes().all(|c| c.is_ascii_digit() || c == b'_'))
}

/// YAML 1.1 timestamp (union of the type registry, PyYAML and `yaml@2` 1.1):
/// `[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}` optionally followed by `([Tt]|[ \t]+)` `HH:MM:SS(.f*)?` and
/// `[ \t]*(Z|[-+]H(H)?(:MM)?)`.
fn is_timestamp11(s: &str) -> bool {
    let mut c = Cursor {
        bytes: s.as_bytes(),
        at: 0,
    };
    if !(c.digits(4, 4) && c.byte(b'-') && c.digits(1, 2) && c.byte(b'-') && c.digits(1, 2)) {
        return false;
    }
    if c.done() {
        return true;
    }
    // The time part, after `T`, `t` or white space.
    if !(c.byte(b'T') || c.byte(b't') || c.blanks() > 0) {
        return false;
    }
    if !(c.digits(1, 2) && c.byte(b':') && c.digits(1, 2) && c.byte(b':') && c.digits(1, 2)) {
        return false;
    }
    if c.byte(b'.') {
        c.digits(0, usize::MAX);
    }
    c.blanks();
    if c.done() {
        return true;
    }
    if c.byte(b'Z') {
        return c.done();
    }
    if !((c.byte(b'-') || c.byte(b'+')) && c.digits(1, 2)) {
        return false;
    }
    if c.byte(b':') && !c.digits(2, 2) {
        return false;
    }
    c.done()
}

/// A byte cursor for the timestamp pattern.
struct Cursor<'b> {
    bytes: &'b [u8],
    at: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn done(&self) -> bool {
        self.at >= self.bytes.len()
    }

    /// Consumes `c` if it is next.
    fn byte(&mut self, c: u8) -> bool {
        let hit = self.peek() == Some(c);
        if hit {
            self.at += 1;
        }
        hit
    }

    /// Consumes up to `max` ASCII digits; true if at least `min` were there.
    fn digits(&mut self, min: usize, max: usize) -> bool {
        let mut n = 0;
        while n < max && self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.at += 1;
            n += 1;
        }
        n >= min
    }

    /// Consumes spaces and tabs; returns how many.
    fn blanks(&mut self) -> usize {
        let mut n = 0;
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.at += 1;
            n += 1;
        }
        n
    }
}
