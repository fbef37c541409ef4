//! SKILL.md frontmatter: find the YAML block, then read it as ordered JSON.
//!
//! This is the one frontmatter reader of the project: the build-time catalog compiler, the
//! responder and the host verifier all call it, so what is published and what is checked can
//! never disagree.
//!
//! # What it reads, and what it refuses
//!
//! SEP-2640 publishes the frontmatter "rendered verbatim as a JSON object", and hosts re-parse
//! the file and compare field by field. JavaScript hosts and the conformance suite do that with
//! the npm package `yaml` v2 (`YAML.parse`, YAML 1.2 core schema). So:
//!
//! * every value this module **accepts** is exactly the value `JSON.stringify(YAML.parse(text))`
//!   prints (the test corpus in `tests/frontmatter/` proves it against `yaml@2.9.1`), including
//!   the order of object keys (document order, except that keys which are array indices, such as
//!   `"2"` and `"10"`, come first in ascending order, as in every JavaScript object);
//! * every construct that `yaml@2` rejects, that JSON cannot carry faithfully, or that a YAML 1.1
//!   reader (PyYAML, `yaml@2` with `version: "1.1"`, the YAML 1.1 type registry) types
//!   differently is **refused** with an error that names the rule, the line and the fix.
//!
//! Refused: duplicate keys, tags (`!!str`, `!foo`, `!`), non-finite numbers (`.inf`, `.nan`,
//! `1e400`), integers beyond ±(2^53 − 1), integers with a leading zero (`007`), plain scalars that
//! YAML 1.1 types differently (`yes`, `on`, `y`, `0o14`, `1e3`, `1.5e3`, `-.5`, `1_000`, `0b1`,
//! `1:20`, `2024-01-01`, `=`), the merge key `<<`, keys that are not strings, more than one
//! document, `---`/`%` markers inside the block, raw control characters and the YAML 1.1 line
//! breaks U+0085/U+2028/U+2029, alias abuse and nesting deeper than [`MAX_DEPTH`].
//!
//! That is the publishing reading ([`parse_file_strict`], `parse_yaml`).
//! The host verifier checks skills that others published, where the only question is whether
//! the file matches its entry; its reading ([`parse_file_host`], `parse_yaml_host`) accepts,
//! with exactly `yaml@2`'s values, what is only ambiguous across YAML versions (`yes`,
//! `2024-01-01`, `007`, `0o14`, `1e3`, `<<`, …) and refuses everything else the publishing
//! reading refuses. [The two readings](#the-two-readings) lists both sides.
//!
//! # The two readings
//!
//! Both readings read YAML 1.2 core exactly as `yaml@2` (`YAML.parse`) does, and every value
//! either reading accepts is byte for byte what `JSON.stringify(YAML.parse(text))` prints (the
//! corpus in `tests/frontmatter/` proves both against `yaml@2.9.1`). They differ only in what
//! they refuse.
//!
//! The publishing reading refuses everything that *any* reader could type differently, YAML 1.1
//! readers (PyYAML, the YAML 1.1 type registry, `yaml@2` with `version: "1.1"`) included: what
//! this project publishes must read the same everywhere.
//!
//! The host reading verifies a skill somebody else published. The only question there is whether
//! the file matches its entry, and every current server (the official TypeScript SDK's
//! built-in reader, servers on `yaml@2`, rmcp) reads and publishes YAML 1.2. So the host reading
//! **accepts**, with exactly `yaml@2`'s values, the plain scalars that are only ambiguous
//! across YAML versions:
//!
//! * `yes`/`no`/`on`/`off`/`y`/`n` in any YAML 1.1 spelling, as values or keys: strings;
//! * dates and timestamps (`2024-01-01`, `2001-12-14t21:59:43.10-05:00`): strings;
//! * integers with leading zeros (`007` → 7, `-01` → −1, `010` → 10): decimal numbers;
//! * `0o14` → 12 (YAML 1.2 octal), `1e3` → 1000, `1.5e3`, `-.5`, `+.5`: numbers;
//! * `1_000`, `0b1010`, `-0x1F`, `1:20`, `190:20:30.15`, `=`, `<<` as a value: strings;
//! * the merge key `<<` as a plain key whose value is whatever follows it (YAML 1.2 has no
//!   merge key; `<<: *base` is the key `"<<"` holding the aliased node);
//! * the raw characters U+0085, U+2028 and U+2029, which YAML 1.1 reads as line breaks and
//!   YAML 1.2 as text: text.
//!
//! It still **refuses**, with the same rules as the publishing reading: YAML that does not parse;
//! duplicate keys; tags (`!!str`, `!!binary`, `!foo`: values depend on the reader's tag
//! library, and some have no JSON form); keys that are not strings (`1:`, `true:`, `~:`,
//! collections: JSON cannot carry them, readers stringify them differently); `.inf`, `.nan`
//! and overflowing floats; integers beyond ±(2^53 − 1); more than one document, document
//! markers and `%` directives (`%YAML 1.1` switches readers to YAML 1.1); control
//! characters, a byte order mark inside the block and a lone CR (YAML forbids them, or
//! readers split lines differently); alias abuse, recursion and nesting deeper than
//! [`MAX_DEPTH`]; more than `MAX_YAML_BYTES`; and
//! every layout where `yaml@2` and the YAML spec disagree
//! ([`Unportable`](FrontmatterErrorKind::Unportable)), since a host cannot know which
//! reading the publisher used.
//!
//! The compiler reads with the publishing reading ([`parse_file_strict`]), the host with the
//! host reading ([`parse_file_host`]):
//!
//! ```
//! use skills_edge::skill::frontmatter::{parse_file_host, parse_file_strict};
//! let file = "---\nname: a\ndescription: d\nsince: 2024-01-01\n---\n";
//! assert!(parse_file_strict(file).is_err(), "a YAML 1.1 reader makes it a date");
//! let host = parse_file_host(file).unwrap();
//! assert_eq!(host.get("since").and_then(|v| v.as_str()), Some("2024-01-01"));
//! ```
//!
//! # The YAML parser
//!
//! The YAML events come from `saphyr-parser`, which follows the YAML 1.2 spec more closely than
//! `yaml@2`'s lexer does. Where the two disagree on well-formed-looking text, the construct is
//! refused as [`FrontmatterErrorKind::Unportable`]: continuation lines not indented past their
//! key or `-`, tabs in indentation or in blank lines, blank lines of a block scalar holding more
//! spaces than its indentation, an escaped line break before an empty line, an unquoted value
//! starting with an indicator (`[|]`, `[?]`), an anchor glued to a bracket, keys longer than
//! `MAX_KEY_UTF16`. A differential fuzzer found these; the corpus keeps one case of each.
//! Conversely a few things `yaml@2` accepts are refused as syntax errors by the event parser
//! (`{a:[1]}` without a space, surrogate pairs written as two `\u` escapes): stricter, never
//! different.
//!
//! ```
//! use skills_edge::skill::frontmatter::{parse_file_strict, FrontmatterErrorKind};
//!
//! let file = "---\nname: pdf\ndescription: Read PDFs\nmetadata: {b: 1, a: 1.0}\n---\n# Body\n";
//! let fm = parse_file_strict(file).unwrap();
//! assert_eq!(fm.to_json(), r#"{"name":"pdf","description":"Read PDFs","metadata":{"b":1,"a":1}}"#);
//!
//! let err = parse_file_strict("---\nname: pdf\nname: pdf2\n---\n").unwrap_err();
//! assert_eq!(err.kind, FrontmatterErrorKind::DuplicateKey);
//! assert_eq!(err.line, Some(3));
//! ```

// The pipeline, one file per step: `fence` finds the YAML block in the file; `portable` refuses
// characters and layouts that readers disagree on; `tree` reads the parser's events into a node
// tree (refusing tags, markers and deep nesting) and has `scalar` resolve every plain scalar
// (YAML 1.2 core schema, cross-checked against YAML 1.1); `builder` turns the tree into a
// `Value`, checking keys and expanding aliases under `yaml@2`'s accounting. `error` holds the
// error type and its stable rule ids. This file holds the limits, the public entry points and
// the glue between the steps.

mod builder;
mod decimal;
mod error;
mod fence;
mod mode;
mod portable;
mod scalar;
pub mod sdk_subset;
mod tree;

use std::borrow::Cow;

use super::value::Value;
use builder::Builder;
use error::Result;
use portable::check_characters;
use tree::Tree;

pub use error::{FrontmatterError, FrontmatterErrorKind};
pub use fence::{split_lenient, split_strict, Block};
pub(crate) use mode::Mode;

/// Deepest nesting of sequences and mappings accepted (the root mapping is level 1), also after
/// alias expansion. Bounds every recursion over a parsed value.
pub const MAX_DEPTH: usize = 64;

/// Most alias nodes (`*name`) accepted in one frontmatter block.
pub(crate) const MAX_ALIASES: usize = 100;

/// Most nodes that alias expansion may add to the result (a "billion laughs" guard).
pub(crate) const MAX_ALIAS_NODES: usize = 10_000;

/// Most bytes (of JSON, approximately) that alias expansion may add to the result.
pub(crate) const MAX_ALIAS_BYTES: usize = 1 << 20;

/// Largest YAML text accepted, in bytes. Frontmatter is metadata (the Agent Skills format caps
/// `description` at 1024 characters); the cap bounds the work and memory a hostile file costs.
#[cfg_attr(feature = "internals", visibility::make(pub))]
pub(crate) const MAX_YAML_BYTES: usize = 1 << 20;

/// Longest mapping key accepted, in UTF-16 code units of its source text (`yaml@2` refuses an
/// implicit key whose `:` comes more than 1024 code units after its start).
#[cfg_attr(feature = "internals", visibility::make(pub))]
pub(crate) const MAX_KEY_UTF16: usize = 1000;

/// The exact decimal reader of plain-scalar floats, for the `decimal` fuzz target (`fuzz/`),
/// which compares it with `str::parse::<f64>`; not part of the API.
#[doc(hidden)]
#[cfg_attr(feature = "internals", visibility::make(pub))]
pub(crate) fn read_decimal_f64(text: &str) -> Option<f64> {
    decimal::parse_f64(text)
}

// ---------------------------------------------------------------------------------------------
// Entry points
// ---------------------------------------------------------------------------------------------

/// [`split_strict`] + `parse_yaml` + the root must be a mapping. Line numbers in errors are
/// lines of the FILE.
pub fn parse_file_strict(file: &str) -> Result<Value> {
    let block = split_strict(file)?;
    parse_block(&block, Mode::Publish)
}

/// [`split_lenient`] + `parse_yaml` + the root must be a mapping. Line numbers in errors are
/// lines of the FILE.
#[cfg(any(test, feature = "internals"))]
pub fn parse_file_lenient(file: &str) -> Result<Value> {
    let block = split_lenient(file)?;
    parse_block(&block, Mode::Publish)
}

/// The host verifier's reading: [`split_lenient`] + `parse_yaml_host` + the root must be a
/// mapping. Line numbers in errors are lines of the FILE.
///
/// ```
/// use skills_edge::skill::frontmatter::{parse_file_host, parse_file_strict};
/// let file = "---\nname: a\ndescription: d\nreviewed: yes\nsince: 2024-01-01\nbuild: 007\n---\n";
/// assert_eq!(
///     parse_file_host(file).unwrap().to_json(),
///     r#"{"name":"a","description":"d","reviewed":"yes","since":"2024-01-01","build":7}"#
/// );
/// assert!(parse_file_strict(file).is_err());
/// ```
pub fn parse_file_host(file: &str) -> Result<Value> {
    let block = split_lenient(file)?;
    parse_block(&block, Mode::Host)
}

/// Parses the YAML of `block` (line numbers of the file) in `mode` and requires a mapping at
/// its root.
fn parse_block(block: &Block<'_>, mode: Mode) -> Result<Value> {
    let offset = block.first_line.saturating_sub(1);
    let value = parse_yaml_at(block.yaml, offset, mode)?;
    match value {
        Value::Object(_) => Ok(value),
        other => {
            let what = match &other {
                Value::Null => "empty (no keys, only comments or nothing)".to_string(),
                v => format!("a {} instead of a mapping", v.type_name()),
            };
            Err(FrontmatterError::new(
                FrontmatterErrorKind::NotAMapping,
                Some(block.first_line),
                format!("the frontmatter is {what}"),
                "write the frontmatter as `key: value` lines starting at column 0, e.g. `name: my-skill` and `description: ...`",
            ))
        }
    }
}

/// YAML 1.2 core schema → ordered JSON, read exactly as `yaml@2` `YAML.parse` reads it, refusing
/// every construct that JS hosts and this parser (or YAML 1.1 readers) could read differently.
///
/// Any root is returned (`null` for an empty text). Line numbers in errors are lines of `yaml`.
///
/// ```
/// use skills_edge::skill::frontmatter::{parse_yaml, FrontmatterErrorKind};
/// let v = parse_yaml("tools: [Read, 'Bash(git:*)']\nhex: 0x1F\nf: 1.50\nz: ~\n").unwrap();
/// assert_eq!(v.to_json(), r#"{"tools":["Read","Bash(git:*)"],"hex":31,"f":1.5,"z":null}"#);
/// let e = parse_yaml("enabled: yes\n").unwrap_err();
/// assert_eq!(e.kind, FrontmatterErrorKind::Yaml11Ambiguous);
/// ```
#[cfg(any(test, feature = "internals"))]
pub fn parse_yaml(yaml: &str) -> Result<Value> {
    parse_yaml_at(yaml, 0, Mode::Publish)
}

/// [`parse_yaml`] in the host reading: YAML 1.2 core exactly as `yaml@2` reads it, accepting the
/// plain scalars that only YAML 1.1 readers type differently (the module documentation, [The
/// two readings](self#the-two-readings), lists them).
///
/// ```
/// use skills_edge::skill::frontmatter::{parse_yaml_host, FrontmatterErrorKind};
/// let v = parse_yaml_host("on: yes\nv: 0o14\nf: 1e3\n<<: x\n").unwrap();
/// assert_eq!(v.to_json(), r#"{"on":"yes","v":12,"f":1000,"<<":"x"}"#);
/// let e = parse_yaml_host("a: 1\na: 2\n").unwrap_err();
/// assert_eq!(e.kind, FrontmatterErrorKind::DuplicateKey);
/// ```
#[cfg(any(test, feature = "internals"))]
pub fn parse_yaml_host(yaml: &str) -> Result<Value> {
    parse_yaml_at(yaml, 0, Mode::Host)
}

/// [`parse_yaml`] in `mode`, with `offset` added to every line number.
fn parse_yaml_at(yaml: &str, offset: usize, mode: Mode) -> Result<Value> {
    if yaml.len() > MAX_YAML_BYTES {
        return Err(FrontmatterError::new(
            FrontmatterErrorKind::TooLarge,
            Some(1 + offset),
            format!(
                "the frontmatter is {} bytes; at most {MAX_YAML_BYTES} are accepted",
                yaml.len()
            ),
            "keep the frontmatter to metadata; move long text into the SKILL.md body or a reference file",
        ));
    }
    check_characters(yaml, offset, mode)?;
    // YAML normalises line breaks. `yaml@2` reads a text without a final line break as if it
    // had one (`|+` keeps it) and ignores a last line of spaces, so give the event parser the
    // same.
    let mut text: Cow<'_, str> = if yaml.contains('\r') {
        Cow::Owned(yaml.replace("\r\n", "\n"))
    } else {
        Cow::Borrowed(yaml)
    };
    let mut tail = None;
    if !text.ends_with('\n') {
        let last = text.rfind('\n').map_or(0, |i| i + 1);
        if text[last..].bytes().all(|b| b == b' ') {
            tail = Some((
                text[..last].matches('\n').count() + 1 + offset,
                text.len() - last,
            ));
            match &mut text {
                Cow::Borrowed(s) => *s = &s[..last],
                Cow::Owned(s) => s.truncate(last),
            }
        } else {
            text.to_mut().push('\n');
        }
    }
    let last_line = yaml.split('\n').count().max(1) + offset;
    let tree = Tree::read(&text, yaml, offset, last_line, tail, mode)?;
    match tree.root {
        None => Ok(Value::Null),
        Some(root) => Builder::new(&tree.nodes).build_root(root),
    }
}
