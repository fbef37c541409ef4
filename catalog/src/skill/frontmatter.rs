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
//! The YAML events come from `saphyr-parser`, which follows the YAML 1.2 spec more closely than
//! `yaml@2`'s lexer does. Where the two disagree on well-formed-looking text, the construct is
//! refused as [`FrontmatterErrorKind::Unportable`]: continuation lines not indented past their
//! key or `-`, tabs in indentation or in blank lines, blank lines of a block scalar holding more
//! spaces than its indentation, an escaped line break before an empty line, an unquoted value
//! starting with an indicator (`[|]`, `[?]`), an anchor glued to a bracket, keys longer than
//! [`MAX_KEY_UTF16`]. A differential fuzzer found these; the corpus keeps one case of each.
//! Conversely a few things `yaml@2` accepts are refused as syntax errors by the event parser
//! (`{a:[1]}` without a space, surrogate pairs written as two `\u` escapes): stricter, never
//! different.
//!
//! ```
//! use skills_edge_catalog::skill::frontmatter::{parse_file_strict, FrontmatterErrorKind};
//!
//! let file = "---\nname: pdf\ndescription: Read PDFs\nmetadata: {b: 1, a: 1.0}\n---\n# Body\n";
//! let fm = parse_file_strict(file).unwrap();
//! assert_eq!(fm.to_json(), r#"{"name":"pdf","description":"Read PDFs","metadata":{"b":1,"a":1}}"#);
//!
//! let err = parse_file_strict("---\nname: pdf\nname: pdf2\n---\n").unwrap_err();
//! assert_eq!(err.kind, FrontmatterErrorKind::DuplicateKey);
//! assert_eq!(err.line, Some(3));
//! ```

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

use saphyr_parser::{Event, Parser, ScalarStyle, ScanError};

use super::value::{Number, Value, MAX_SAFE_INTEGER};

/// Deepest nesting of sequences and mappings accepted (the root mapping is level 1), also after
/// alias expansion. Bounds every recursion over a parsed value.
pub const MAX_DEPTH: usize = 64;

/// Most alias nodes (`*name`) accepted in one frontmatter block.
pub const MAX_ALIASES: usize = 100;

/// Most nodes that alias expansion may add to the result (a "billion laughs" guard).
pub const MAX_ALIAS_NODES: usize = 10_000;

/// Most bytes (of JSON, approximately) that alias expansion may add to the result.
pub const MAX_ALIAS_BYTES: usize = 1 << 20;

/// Largest YAML text accepted, in bytes. Frontmatter is metadata (the Agent Skills format caps
/// `description` at 1024 characters); the cap bounds the work and memory a hostile file costs.
pub const MAX_YAML_BYTES: usize = 1 << 20;

/// Longest mapping key accepted, in UTF-16 code units of its source text (`yaml@2` refuses an
/// implicit key whose `:` comes more than 1024 code units after its start).
pub const MAX_KEY_UTF16: usize = 1000;

/// `yaml@2`'s default `maxAliasCount`; its alias-count rule is reproduced so that nothing it
/// rejects is accepted here.
const YAML2_MAX_ALIAS_COUNT: u64 = 100;

/// Where the YAML block sits in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block<'a> {
    /// The YAML text between the fences: from the line after the opening fence up to, but not
    /// including, the line break that precedes the closing fence (what the SDK's and the
    /// conformance suite's `([\s\S]*?)` group captures).
    pub yaml: &'a str,
    /// 1-based line of the first YAML line in the file (the line after the opening fence).
    pub first_line: usize,
    /// Byte offset just after the closing fence line (after its line break, if any).
    pub body_start: usize,
}

/// What went wrong, as a stable rule (see [`FrontmatterErrorKind::rule`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FrontmatterErrorKind {
    /// The file does not start with a `---` line.
    MissingOpeningFence,
    /// The file starts with a UTF-8 byte order mark (strict delimiters only).
    ByteOrderMark,
    /// No closing `---` line after the opening fence.
    MissingClosingFence,
    /// The closing fence directly follows the opening fence (strict delimiters only).
    EmptyBlock,
    /// A `---` line with trailing spaces or tabs inside the block: lenient readers end the block
    /// there, strict ones do not (strict delimiters only).
    AmbiguousFence,
    /// The YAML is not well-formed.
    Syntax,
    /// A raw character that YAML forbids, or that YAML 1.1 reads as a line break.
    ForbiddenCharacter,
    /// More than one YAML document.
    MultipleDocuments,
    /// A `---` document marker inside the block.
    DocumentMarker,
    /// A `%YAML` or `%TAG` directive.
    Directive,
    /// The frontmatter is not a mapping (object).
    NotAMapping,
    /// The same key twice in one mapping.
    DuplicateKey,
    /// An explicit tag (`!!str`, `!!binary`, `!foo`, `!`).
    Tag,
    /// A mapping key that is not a string (number, boolean, null, sequence or mapping).
    NonStringKey,
    /// `.inf`, `.nan`, or a float that overflows to infinity.
    NonFiniteNumber,
    /// An integer outside ±(2^53 − 1), which JavaScript cannot hold exactly.
    UnsafeInteger,
    /// A decimal integer with a leading zero (`007`): YAML 1.1 reads octal or a string.
    LeadingZeroInteger,
    /// A plain scalar that YAML 1.1 readers type differently than YAML 1.2.
    Yaml11Ambiguous,
    /// The YAML 1.1 merge key `<<`.
    MergeKey,
    /// Too many aliases, or aliases that expand too much.
    AliasLimit,
    /// An alias inside the very node its anchor names (a cycle).
    RecursiveAlias,
    /// Sequences and mappings nested deeper than [`MAX_DEPTH`].
    TooDeep,
    /// Well-formed (or nearly) YAML that `yaml@2` and the YAML spec read differently: an
    /// under-indented continuation line, a blank line holding a tab or extra spaces in a block
    /// scalar, an escaped line break before an empty line, an unquoted value starting with an
    /// indicator, an anchor glued to a bracket, a key over [`MAX_KEY_UTF16`] or on several lines.
    Unportable,
    /// More than [`MAX_YAML_BYTES`] of YAML.
    TooLarge,
}

impl FrontmatterErrorKind {
    /// A stable kebab-case rule id, e.g. `"frontmatter-duplicate-key"`.
    pub fn rule(&self) -> &'static str {
        use FrontmatterErrorKind as K;
        match self {
            K::MissingOpeningFence => "frontmatter-missing-opening-fence",
            K::ByteOrderMark => "frontmatter-byte-order-mark",
            K::MissingClosingFence => "frontmatter-missing-closing-fence",
            K::EmptyBlock => "frontmatter-empty-block",
            K::AmbiguousFence => "frontmatter-ambiguous-fence",
            K::Syntax => "frontmatter-yaml-syntax",
            K::ForbiddenCharacter => "frontmatter-forbidden-character",
            K::MultipleDocuments => "frontmatter-multiple-documents",
            K::DocumentMarker => "frontmatter-document-marker",
            K::Directive => "frontmatter-directive",
            K::NotAMapping => "frontmatter-not-a-mapping",
            K::DuplicateKey => "frontmatter-duplicate-key",
            K::Tag => "frontmatter-tag",
            K::NonStringKey => "frontmatter-non-string-key",
            K::NonFiniteNumber => "frontmatter-non-finite-number",
            K::UnsafeInteger => "frontmatter-unsafe-integer",
            K::LeadingZeroInteger => "frontmatter-leading-zero-integer",
            K::Yaml11Ambiguous => "frontmatter-yaml11-ambiguous",
            K::MergeKey => "frontmatter-merge-key",
            K::AliasLimit => "frontmatter-alias-limit",
            K::RecursiveAlias => "frontmatter-recursive-alias",
            K::TooDeep => "frontmatter-too-deep",
            K::Unportable => "frontmatter-unportable-yaml",
            K::TooLarge => "frontmatter-too-large",
        }
    }

    /// Every kind, in declaration order (for tests and documentation).
    pub const ALL: [FrontmatterErrorKind; 24] = {
        use FrontmatterErrorKind as K;
        [
            K::MissingOpeningFence,
            K::ByteOrderMark,
            K::MissingClosingFence,
            K::EmptyBlock,
            K::AmbiguousFence,
            K::Syntax,
            K::ForbiddenCharacter,
            K::MultipleDocuments,
            K::DocumentMarker,
            K::Directive,
            K::NotAMapping,
            K::DuplicateKey,
            K::Tag,
            K::NonStringKey,
            K::NonFiniteNumber,
            K::UnsafeInteger,
            K::LeadingZeroInteger,
            K::Yaml11Ambiguous,
            K::MergeKey,
            K::AliasLimit,
            K::RecursiveAlias,
            K::TooDeep,
            K::Unportable,
            K::TooLarge,
        ]
    };

    /// The kind whose [`rule`](Self::rule) is `rule`, or whose variant name is `rule`
    /// (`"DuplicateKey"`), if any.
    pub fn from_rule(rule: &str) -> Option<FrontmatterErrorKind> {
        Self::ALL
            .iter()
            .copied()
            .find(|k| k.rule() == rule || format!("{k:?}") == rule)
    }
}

/// A frontmatter that cannot be published or verified: what, where, and what to write instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrontmatterError {
    /// The rule that was broken.
    pub kind: FrontmatterErrorKind,
    /// 1-based line (of the file for `parse_file_*` and `split_*`, of the YAML text for
    /// [`parse_yaml`]), when the problem has one.
    pub line: Option<usize>,
    /// What is wrong, naming the offending text.
    pub message: String,
    /// What to write instead.
    pub fix: String,
}

impl FrontmatterError {
    fn new(
        kind: FrontmatterErrorKind,
        line: Option<usize>,
        message: impl Into<String>,
        fix: impl Into<String>,
    ) -> Self {
        FrontmatterError {
            kind,
            line,
            message: message.into(),
            fix: fix.into(),
        }
    }
}

impl fmt::Display for FrontmatterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(line) = self.line {
            write!(f, "line {line}: ")?;
        }
        write!(
            f,
            "{} [{}] (fix: {})",
            self.message,
            self.kind.rule(),
            self.fix
        )
    }
}

impl std::error::Error for FrontmatterError {}

type Result<T, E = FrontmatterError> = std::result::Result<T, E>;

// ---------------------------------------------------------------------------------------------
// Delimiters
// ---------------------------------------------------------------------------------------------

/// Strict delimiters (publishing): the file starts with `---` + LF or CRLF (no BOM, nothing else
/// on the line); the block ends at the first line that is exactly `---` (followed by LF, CRLF or
/// end of file). Errors name the rule and the fix.
///
/// Everything strict accepts, the SDK (`^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)`) and the
/// conformance suite (the lenient form, [`split_lenient`]) cut at the same place: a `---` line
/// with trailing spaces inside the block ([`FrontmatterErrorKind::AmbiguousFence`]) and a closing
/// fence on line 2 ([`FrontmatterErrorKind::EmptyBlock`], which those regexes do not see as a
/// fence) are refused.
///
/// ```
/// use skills_edge_catalog::skill::frontmatter::split_strict;
/// let b = split_strict("---\r\nname: x\r\n---\r\nbody").unwrap();
/// assert_eq!((b.yaml, b.first_line, b.body_start), ("name: x", 2, 19));
/// ```
pub fn split_strict(file: &str) -> Result<Block<'_>> {
    use FrontmatterErrorKind as K;
    if file.starts_with('\u{feff}') {
        return Err(FrontmatterError::new(
            K::ByteOrderMark,
            Some(1),
            "the file starts with a UTF-8 byte order mark (U+FEFF) before the opening `---`",
            "save SKILL.md as UTF-8 without a BOM, so that the file's first bytes are `---`",
        ));
    }
    let start = opening_fence(file, 0)?;
    let mut pos = start;
    let mut line_no = 2;
    while pos < file.len() {
        let rest = &file[pos..];
        let (content, next, has_break) = match rest.find('\n') {
            Some(i) => (&rest[..i], pos + i + 1, true),
            None => (rest, file.len(), false),
        };
        let content = if has_break {
            content.strip_suffix('\r').unwrap_or(content)
        } else {
            content
        };
        if content == "---" {
            if line_no == 2 {
                return Err(FrontmatterError::new(
                    K::EmptyBlock,
                    Some(2),
                    "the frontmatter block is empty: the closing `---` directly follows the opening `---`",
                    "write the frontmatter between the fences, at least `name:` and `description:`",
                ));
            }
            let end = yaml_end(file, pos);
            return Ok(Block {
                yaml: &file[start..end],
                first_line: 2,
                body_start: next,
            });
        }
        if let Some(tail) = content.strip_prefix("---") {
            if !tail.is_empty() && tail.bytes().all(|b| b == b' ' || b == b'\t') {
                return Err(FrontmatterError::new(
                    K::AmbiguousFence,
                    Some(line_no),
                    "a `---` line with trailing spaces or tabs inside the frontmatter: lenient readers end the block here, strict ones do not",
                    "remove the trailing whitespace so the line is exactly `---` (if it closes the frontmatter), or remove the line",
                ));
            }
        }
        pos = next;
        line_no += 1;
    }
    Err(FrontmatterError::new(
        K::MissingClosingFence,
        Some(1),
        "the frontmatter opened on line 1 is never closed: no line after it is exactly `---`",
        "end the frontmatter with a line containing only `---` (no spaces after it), before the markdown body",
    ))
}

/// Lenient delimiters (host side, as the conformance suite reads them): optional UTF-8 BOM, and
/// spaces/tabs allowed after `---` on the closing fence.
///
/// This is exactly the regular expression
/// `^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)`: the closing fence needs its own line
/// break before it, so a `---` on line 2 is not a fence (the search goes on to later lines).
///
/// ```
/// use skills_edge_catalog::skill::frontmatter::split_lenient;
/// let b = split_lenient("\u{feff}---\nname: x\n--- \t\nbody").unwrap();
/// assert_eq!((b.yaml, &"\u{feff}---\nname: x\n--- \t\nbody"[b.body_start..]), ("name: x", "body"));
/// ```
pub fn split_lenient(file: &str) -> Result<Block<'_>> {
    let bom = if file.starts_with('\u{feff}') {
        '\u{feff}'.len_utf8()
    } else {
        0
    };
    let start = opening_fence(file, bom)?;
    let bytes = file.as_bytes();
    let mut j = start;
    while let Some(i) = file[j..].find('\n') {
        let nl = j + i;
        let after = nl + 1;
        if let Some(rest) = file[after..].strip_prefix("---") {
            let ws = rest
                .bytes()
                .take_while(|b| *b == b' ' || *b == b'\t')
                .count();
            let rest = &rest[ws..];
            let fence_end = after + 3 + ws;
            let body_start = if rest.is_empty() {
                Some(file.len())
            } else if rest.starts_with('\n') {
                Some(fence_end + 1)
            } else if rest.starts_with("\r\n") {
                Some(fence_end + 2)
            } else {
                None
            };
            if let Some(body_start) = body_start {
                let end = if nl > start && bytes.get(nl - 1) == Some(&b'\r') {
                    nl - 1
                } else {
                    nl
                };
                return Ok(Block {
                    yaml: &file[start..end],
                    first_line: 2,
                    body_start,
                });
            }
        }
        j = after;
    }
    Err(FrontmatterError::new(
        FrontmatterErrorKind::MissingClosingFence,
        Some(1),
        "the frontmatter opened on line 1 is never closed: no later line is `---` (optionally followed by spaces or tabs)",
        "end the frontmatter with a line containing only `---`, before the markdown body",
    ))
}

/// Checks the opening fence at `at`; returns the byte offset of the first YAML line.
fn opening_fence(file: &str, at: usize) -> Result<usize> {
    let rest = &file[at..];
    if rest.starts_with("---\n") {
        return Ok(at + 4);
    }
    if rest.starts_with("---\r\n") {
        return Ok(at + 5);
    }
    let first_line = rest.split('\n').next().unwrap_or("");
    let first_line = first_line.strip_suffix('\r').unwrap_or(first_line);
    let message = if first_line == "---" {
        "the file is only an opening `---`: there is no frontmatter after it".to_string()
    } else if first_line.starts_with("---")
        && first_line[3..].bytes().all(|b| b == b' ' || b == b'\t')
    {
        "the opening `---` line has trailing spaces or tabs".to_string()
    } else if first_line.starts_with("---") {
        format!(
            "the first line must be exactly `---`, found {:?}",
            truncate(first_line, 40)
        )
    } else if first_line.trim().is_empty() && rest.len() > first_line.len() {
        "the file starts with a blank line instead of the opening `---`".to_string()
    } else {
        format!(
            "the file must start with a `---` line, found {:?}",
            truncate(first_line, 40)
        )
    };
    Err(FrontmatterError::new(
        FrontmatterErrorKind::MissingOpeningFence,
        Some(1),
        message,
        "start SKILL.md with a line that is exactly `---`, then the YAML frontmatter, then a line `---`",
    ))
}

/// End of the YAML text for a closing fence that starts at byte `fence`: the line break before
/// the fence (LF or CRLF) is not part of the YAML.
fn yaml_end(file: &str, fence: usize) -> usize {
    let bytes = file.as_bytes();
    let mut end = fence.saturating_sub(1); // the '\n'
    if end > 0 && bytes.get(end - 1) == Some(&b'\r') {
        end -= 1;
    }
    end
}

fn truncate(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

// ---------------------------------------------------------------------------------------------
// Whole files
// ---------------------------------------------------------------------------------------------

/// [`split_strict`] + [`parse_yaml`] + the root must be a mapping. Line numbers in errors are
/// lines of the FILE.
pub fn parse_file_strict(file: &str) -> Result<Value> {
    let block = split_strict(file)?;
    parse_block(&block)
}

/// [`split_lenient`] + [`parse_yaml`] + the root must be a mapping. Line numbers in errors are
/// lines of the FILE.
pub fn parse_file_lenient(file: &str) -> Result<Value> {
    let block = split_lenient(file)?;
    parse_block(&block)
}

fn parse_block(block: &Block<'_>) -> Result<Value> {
    let offset = block.first_line.saturating_sub(1);
    let value = parse_yaml_at(block.yaml, offset)?;
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

// ---------------------------------------------------------------------------------------------
// YAML → Value
// ---------------------------------------------------------------------------------------------

/// YAML 1.2 core schema → ordered JSON, read exactly as `yaml@2` `YAML.parse` reads it, refusing
/// every construct that JS hosts and this parser (or YAML 1.1 readers) could read differently.
///
/// Any root is returned (`null` for an empty text). Line numbers in errors are lines of `yaml`.
///
/// ```
/// use skills_edge_catalog::skill::frontmatter::{parse_yaml, FrontmatterErrorKind};
/// let v = parse_yaml("tools: [Read, 'Bash(git:*)']\nhex: 0x1F\nf: 1.50\nz: ~\n").unwrap();
/// assert_eq!(v.to_json(), r#"{"tools":["Read","Bash(git:*)"],"hex":31,"f":1.5,"z":null}"#);
/// let e = parse_yaml("enabled: yes\n").unwrap_err();
/// assert_eq!(e.kind, FrontmatterErrorKind::Yaml11Ambiguous);
/// ```
pub fn parse_yaml(yaml: &str) -> Result<Value> {
    parse_yaml_at(yaml, 0)
}

/// [`parse_yaml`] with `offset` added to every line number.
fn parse_yaml_at(yaml: &str, offset: usize) -> Result<Value> {
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
    check_characters(yaml, offset)?;
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
    let tree = Tree::read(&text, yaml, offset, last_line, tail)?;
    match tree.root {
        None => Ok(Value::Null),
        Some(root) => Builder::new(&tree.nodes).build_root(root),
    }
}

/// Refuses raw characters that YAML forbids (C0/C1 controls other than tab and line breaks,
/// DEL, U+FFFE/U+FFFF), a carriage return not followed by a line feed, the byte order mark
/// inside the block, and U+0085/U+2028/U+2029 (line breaks in YAML 1.1, content in 1.2).
fn check_characters(yaml: &str, offset: usize) -> Result<()> {
    let mut line = 1 + offset;
    let mut chars = yaml.chars().peekable();
    while let Some(c) = chars.next() {
        let bad = match c {
            '\n' => {
                line += 1;
                continue;
            }
            '\t' => continue,
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    continue;
                }
                Some((
                    "a carriage return (CR) that is not followed by a line feed".to_string(),
                    "use LF or CRLF line endings only".to_string(),
                ))
            }
            '\u{85}' | '\u{2028}' | '\u{2029}' => Some((
                format!("the raw character U+{:04X}, which YAML 1.1 readers treat as a line break and YAML 1.2 readers as text", c as u32),
                format!("remove it, or write it as an escape inside a double-quoted string (\"\\{}\")", match c { '\u{85}' => 'N', '\u{2028}' => 'L', _ => 'P' }),
            )),
            '\u{feff}' => Some((
                "a byte order mark (U+FEFF) inside the frontmatter".to_string(),
                "remove it (it is invisible; retype the line)".to_string(),
            )),
            c if (c as u32) < 0x20 || ('\u{7f}'..='\u{9f}').contains(&c) || c == '\u{fffe}' || c == '\u{ffff}' => Some((
                format!("the control character U+{:04X}, which YAML does not allow in a document", c as u32),
                format!("remove it, or write it as an escape inside a double-quoted string (\"\\x{:02X}\" or \"\\u{:04X}\")", c as u32 & 0xff, c as u32),
            )),
            _ => continue,
        };
        if let Some((message, fix)) = bad {
            return Err(FrontmatterError::new(
                FrontmatterErrorKind::ForbiddenCharacter,
                Some(line),
                message,
                fix,
            ));
        }
    }
    Ok(())
}

/// A node of the document as written (aliases not expanded).
#[derive(Debug)]
struct Node {
    kind: NodeKind,
    line: usize,
    anchored: bool,
}

#[derive(Debug)]
enum NodeKind {
    Scalar(Value),
    Seq(Vec<usize>),
    Map(Vec<(usize, usize)>),
    Alias(usize),
}

/// An open sequence or mapping while reading events.
struct Frame {
    line: usize,
    anchor: usize,
    is_map: bool,
    items: Vec<usize>,
    pairs: Vec<(usize, usize)>,
    key: Option<usize>,
    /// A flow collection (`[...]`, `{...}`) rather than a block one.
    flow: bool,
    /// Block collections: the column of their entries (first key or `-`).
    col: usize,
    /// Line of the collection's start in the parsed text (no offset).
    raw_line: usize,
    /// Outermost flow collections in block context: the column of the enclosing block
    /// collection, whose lines this collection's continuation lines must be indented past.
    parent_col: Option<usize>,
}

/// Where a node sits, for the portability checks: `None` inside a flow collection or at the
/// root, else the column of the innermost block collection.
fn block_parent_col(stack: &[Frame]) -> Option<usize> {
    if stack.iter().any(|f| f.flow) {
        return None;
    }
    stack.last().map(|f| f.col)
}

struct Tree {
    nodes: Vec<Node>,
    root: Option<usize>,
}

impl Tree {
    /// Reads the event stream into a node tree; refuses tags, markers, cycles and deep nesting,
    /// and resolves plain scalars.
    fn read(
        text: &str,
        original: &str,
        offset: usize,
        last_line: usize,
        tail: Option<(usize, usize)>,
    ) -> Result<Tree> {
        use FrontmatterErrorKind as K;
        let mut nodes: Vec<Node> = Vec::new();
        let mut stack: Vec<Frame> = Vec::new();
        let mut anchors: HashMap<usize, usize> = HashMap::new();
        let mut root: Option<usize> = None;
        let mut documents = 0usize;
        let mut src = Source::new(text, tail);
        let mut parser = Parser::new_from_str(text);
        loop {
            let (event, span) = match parser.next_event() {
                None => break,
                Some(Err(e)) => return Err(syntax_error(&e, offset, last_line)),
                Some(Ok(x)) => x,
            };
            let line = (span.start.line() + offset).min(last_line);
            match event {
                Event::StreamStart | Event::Nothing | Event::DocumentEnd => {}
                Event::StreamEnd => break,
                Event::DocumentStart(explicit) => {
                    documents += 1;
                    if documents > 1 {
                        return Err(FrontmatterError::new(
                            K::MultipleDocuments,
                            Some(line),
                            "a second YAML document starts here (after `...` or `---`)",
                            "keep a single YAML document between the fences: remove the `...`/`---` marker and what follows it, or merge it into the mapping",
                        ));
                    }
                    if explicit {
                        return Err(marker_error(original, line, offset));
                    }
                }
                Event::Alias(id) => {
                    if stack.last().is_some_and(|f| f.is_map && f.key.is_none()) {
                        src.check_key_length(&span, offset)?;
                    }
                    let target = match anchors.get(&id) {
                        Some(t) => *t,
                        None => {
                            if stack.iter().any(|f| f.anchor == id) {
                                return Err(FrontmatterError::new(
                                    K::RecursiveAlias,
                                    Some(line),
                                    "this alias refers to a node that contains it (a cycle), which JSON cannot represent",
                                    "move the alias out of the anchored node, or write the value out",
                                ));
                            }
                            return Err(FrontmatterError::new(
                                K::Syntax,
                                Some(line),
                                "this alias refers to an anchor that is not defined before it",
                                "define the anchor (`&name`) before the alias (`*name`), or write the value out",
                            ));
                        }
                    };
                    let idx = push_node(&mut nodes, NodeKind::Alias(target), line, false);
                    attach(&mut stack, &mut root, idx);
                }
                Event::Scalar(text, style, anchor, tag) => {
                    if let Some(tag) = tag {
                        return Err(tag_error(&tag, line));
                    }
                    src.check_scalar(&text, style, &span, block_parent_col(&stack), offset)?;
                    if anchor != 0 {
                        src.check_anchor(&span, offset)?;
                    }
                    let is_key = stack.last().is_some_and(|f| f.is_map && f.key.is_none());
                    if is_key {
                        src.check_key_length(&span, offset)?;
                    }
                    let value = match style {
                        ScalarStyle::Plain => resolve_plain(&text, is_key, line)?,
                        _ => Value::String(text.into_owned()),
                    };
                    let idx = push_node(&mut nodes, NodeKind::Scalar(value), line, anchor != 0);
                    if anchor != 0 {
                        anchors.insert(anchor, idx);
                    }
                    attach(&mut stack, &mut root, idx);
                }
                Event::SequenceStart(anchor, ref tag) | Event::MappingStart(anchor, ref tag) => {
                    if let Some(tag) = tag {
                        return Err(tag_error(tag, line));
                    }
                    if stack.len() >= MAX_DEPTH {
                        return Err(too_deep(line));
                    }
                    let is_map = matches!(event, Event::MappingStart(..));
                    if anchor != 0 {
                        src.check_anchor(&span, offset)?;
                    }
                    let (start, end) = (span.start, span.end);
                    let flow = (start.line(), start.col()) != (end.line(), end.col())
                        && matches!(
                            src.char_before(end.line(), end.col()),
                            Some('[') | Some('{')
                        );
                    let parent_col = if flow { block_parent_col(&stack) } else { None };
                    stack.push(Frame {
                        line,
                        anchor,
                        is_map,
                        items: Vec::new(),
                        pairs: Vec::new(),
                        key: None,
                        flow,
                        col: end.col(),
                        raw_line: start.line(),
                        parent_col,
                    });
                }
                Event::SequenceEnd | Event::MappingEnd => {
                    let Some(frame) = stack.pop() else {
                        return Err(FrontmatterError::new(
                            K::Syntax,
                            Some(line),
                            "unbalanced end of a collection",
                            "check the indentation and brackets",
                        ));
                    };
                    if let Some(col) = frame.parent_col {
                        src.check_flow_lines(frame.raw_line, &span, col, offset)?;
                    }
                    let kind = if frame.is_map {
                        NodeKind::Map(frame.pairs)
                    } else {
                        NodeKind::Seq(frame.items)
                    };
                    let idx = push_node(&mut nodes, kind, frame.line, frame.anchor != 0);
                    if frame.anchor != 0 {
                        anchors.insert(frame.anchor, idx);
                    }
                    attach(&mut stack, &mut root, idx);
                }
            }
        }
        src.finish(offset)?;
        Ok(Tree { nodes, root })
    }
}

/// The parsed text as lines, for the checks that keep accepted YAML inside what both this
/// event parser and `yaml@2` read the same way.
struct Source<'t> {
    lines: Vec<&'t str>,
    /// A last line of spaces without a line break, removed from the text: (file line, length).
    tail: Option<(usize, usize)>,
    /// Lines of block scalars with content (first, last, indentation), where tabs after the
    /// indentation are content.
    block_lines: Vec<(usize, usize, usize)>,
    /// Continuation lines of multi-line flow scalars in block context (first, last,
    /// required indentation).
    scalar_lines: Vec<(usize, usize, usize)>,
    /// The last scalar, if it was a block scalar: its indentation and whether it has no
    /// content at all.
    last_block: Option<(usize, bool)>,
}

fn leading_spaces(line: &str) -> usize {
    line.bytes().take_while(|b| *b == b' ').count()
}

/// Whether a tab occurs in the indentation of `line`: its leading spaces, tabs and block
/// indicators (`-`, `?`, `:` followed by white space).
fn tab_in_indentation(line: &str) -> bool {
    let b = line.as_bytes();
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        match c {
            b'\t' => return true,
            b' ' => i += 1,
            b'-' | b'?' | b':' if matches!(b.get(i + 1), Some(b' ' | b'\t')) => i += 1,
            _ => return false,
        }
    }
    false
}

fn is_blank(line: &str) -> bool {
    line.bytes().all(|b| b == b' ' || b == b'\t')
}

fn unportable(line: usize, message: impl Into<String>, fix: impl Into<String>) -> FrontmatterError {
    FrontmatterError::new(FrontmatterErrorKind::Unportable, Some(line), message, fix)
}

impl<'t> Source<'t> {
    fn new(text: &'t str, tail: Option<(usize, usize)>) -> Self {
        Source {
            lines: text.split('\n').collect(),
            tail,
            block_lines: Vec::new(),
            scalar_lines: Vec::new(),
            last_block: None,
        }
    }

    /// Line `n` (1-based), without its line break; `""` past the end.
    fn line(&self, n: usize) -> &'t str {
        n.checked_sub(1)
            .and_then(|i| self.lines.get(i))
            .copied()
            .unwrap_or("")
    }

    fn char_before(&self, line: usize, col: usize) -> Option<char> {
        col.checked_sub(1)
            .and_then(|c| self.line(line).chars().nth(c))
    }

    /// Tabs where readers disagree: in a blank line, which `yaml@2` reads as content or bad
    /// indentation (depending on what precedes it) where the YAML spec sees an empty line; and
    /// in the indentation of other lines (before or between `-`, `?`, `:` indicators), except
    /// after the indentation of block scalar content and multi-line flow scalars.
    fn check_tabs(&self, offset: usize) -> Result<()> {
        // Ranges are in document order and do not overlap within one list.
        let inside = |ranges: &[(usize, usize, usize)], n: usize, line: &str| {
            let i = ranges.partition_point(|(first, _, _)| *first <= n);
            i.checked_sub(1)
                .and_then(|i| ranges.get(i))
                .is_some_and(|(_, last, indent)| n <= *last && leading_spaces(line) >= *indent)
        };
        for (i, line) in self.lines.iter().enumerate() {
            let n = i + 1;
            if is_blank(line) {
                if line.contains('\t') {
                    return Err(unportable(
                        n + offset,
                        "a blank line that contains a tab: YAML readers disagree on whether it is indentation, content or an empty line",
                        "delete the tab (leave the line empty)",
                    ));
                }
                continue;
            }
            if tab_in_indentation(line)
                && !inside(&self.block_lines, n, line)
                && !inside(&self.scalar_lines, n, line)
            {
                return Err(unportable(
                    n + offset,
                    "a tab in the indentation of a line (before or between `-`, `?`, `:` indicators): YAML indentation is spaces only, and readers disagree on such lines",
                    "indent with spaces",
                ));
            }
        }
        Ok(())
    }

    /// Nothing but comments may follow a `...` line: `yaml@2` starts a new document there
    /// even when nothing came before the marker.
    fn check_document_end(&self, offset: usize) -> Result<()> {
        let Some(marker) = self.lines.iter().position(|l| {
            l.strip_prefix("...")
                .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t']))
        }) else {
            return Ok(());
        };
        for (i, line) in self.lines.iter().enumerate().skip(marker + 1) {
            let t = line.trim_start_matches([' ', '\t']);
            if !t.is_empty() && !t.starts_with('#') {
                return Err(FrontmatterError::new(
                    FrontmatterErrorKind::MultipleDocuments,
                    Some(i + 1 + offset),
                    format!(
                        "content after the document end marker `...` on line {}: readers start a second YAML document here",
                        marker + 1 + offset
                    ),
                    "remove the `...` line (or move this content before it)",
                ));
            }
        }
        Ok(())
    }

    /// Checks that need the whole document: tabs, and a last line of spaces ending a block
    /// scalar (`yaml@2` reads it as content or not depending on its length and chomping).
    fn finish(&self, offset: usize) -> Result<()> {
        self.check_tabs(offset)?;
        self.check_document_end(offset)?;
        match (self.tail, self.last_block) {
            (Some((n, len)), Some((indent, empty))) if empty || len > indent => Err(unportable(
                n,
                "the last line of the frontmatter holds only spaces and ends a block scalar (`|` or `>`): readers disagree on whether it is content",
                "remove the spaces from the last line",
            )),
            _ => Ok(()),
        }
    }

    /// `yaml@2` refuses an implicit key whose `:` is more than 1024 UTF-16 code units after its
    /// start (the event parser counts characters), or that spans lines in a flow sequence; keys
    /// are capped below that length and kept on one line.
    fn check_key_length(&self, span: &saphyr_parser::Span, offset: usize) -> Result<()> {
        let (start, end) = (span.start, span.end);
        if end.line() > start.line() {
            return Err(unportable(
                start.line() + offset,
                "a mapping key that spans several lines: yaml@2 refuses multi-line implicit keys in flow collections",
                "write the key on one line",
            ));
        }
        let mut units = 0usize;
        for n in start.line()..=end.line() {
            let line = self.line(n);
            let from = if n == start.line() { start.col() } else { 0 };
            let chars = line.chars().skip(from);
            units += if n == end.line() {
                chars
                    .take(end.col().saturating_sub(from))
                    .map(char::len_utf16)
                    .sum::<usize>()
            } else {
                chars.map(char::len_utf16).sum::<usize>() + 1
            };
        }
        if units > MAX_KEY_UTF16 {
            return Err(unportable(
                start.line() + offset,
                format!("a mapping key of {units} UTF-16 code units: yaml@2 refuses keys longer than 1024"),
                format!("shorten the key to at most {MAX_KEY_UTF16} UTF-16 code units"),
            ));
        }
        Ok(())
    }

    /// An anchor (`&name`) must be followed by white space: `yaml@2` refuses `&a[1]`, the event
    /// parser reads it.
    fn check_anchor(&self, span: &saphyr_parser::Span, offset: usize) -> Result<()> {
        let line = self.line(span.start.line());
        let rest: String = line.chars().skip(span.start.col()).collect();
        let Some(name) = rest.strip_prefix('&') else {
            return Ok(());
        };
        let next = name
            .chars()
            .find(|c| matches!(c, ' ' | '\t' | ',' | '[' | ']' | '{' | '}'));
        if matches!(next, Some(',' | '[' | ']' | '{' | '}')) {
            return Err(unportable(
                span.start.line() + offset,
                "an anchor (`&name`) directly followed by a bracket or comma: yaml@2 needs white space after it",
                "put a space after the anchor name",
            ));
        }
        Ok(())
    }

    /// Checks one scalar event; `parent_col` is the column of the enclosing block collection
    /// (None inside flow collections, which are checked as a whole, and at the root).
    fn check_scalar(
        &mut self,
        value: &str,
        style: ScalarStyle,
        span: &saphyr_parser::Span,
        parent_col: Option<usize>,
        offset: usize,
    ) -> Result<()> {
        let (start, end) = (span.start, span.end);
        if !(value.is_empty() && (start.line(), start.col()) == (end.line(), end.col())) {
            // (An empty plain scalar is the implied null of a value-less key.)
            self.last_block = None;
        }
        if let Some(col) = parent_col {
            if !matches!(style, ScalarStyle::Literal | ScalarStyle::Folded)
                && end.line() > start.line()
            {
                self.scalar_lines
                    .push((start.line() + 1, end.line(), col + 1));
            }
        }
        match style {
            ScalarStyle::Plain => {
                let mut chars = value.chars();
                let first = chars.next();
                let second = chars.next();
                let bad_first = matches!(
                    first,
                    Some(',' | '[' | ']' | '{' | '}' | '#' | '&' | '*' | '!' | '|' | '>')
                        | Some('\'' | '"' | '%' | '@' | '`')
                );
                let bad_indicator = matches!(first, Some('-' | '?' | ':'))
                    && matches!(
                        second,
                        None | Some(' ' | '\t' | ',' | '[' | ']' | '{' | '}')
                    );
                if bad_first || bad_indicator {
                    return Err(unportable(
                        start.line() + offset,
                        format!(
                            "the unquoted value {:?} starts with the YAML indicator `{}`, which yaml@2 reads differently or refuses",
                            truncate(value, 40),
                            first.unwrap_or(' ')
                        ),
                        format!("quote it: `\"{}\"`", truncate(value, 40)),
                    ));
                }
                self.check_continuation(start.line(), end.line(), parent_col, offset)
            }
            ScalarStyle::SingleQuoted => {
                self.check_continuation(start.line(), end.line(), parent_col, offset)
            }
            ScalarStyle::DoubleQuoted => {
                self.check_escaped_breaks(start.line(), end.line(), offset)?;
                self.check_continuation(start.line(), end.line(), parent_col, offset)
            }
            _ => {
                let empty = value.bytes().all(|b| b == b'\n');
                if !empty {
                    self.block_lines.push((
                        start.line(),
                        end.line().saturating_sub(1).max(start.line()),
                        start.col(),
                    ));
                }
                self.last_block = Some((start.col(), empty));
                self.check_block_scalar(start.line(), start.col(), end.line(), offset)
            }
        }
    }

    /// Continuation lines of a multi-line scalar in block context must be indented past the
    /// enclosing block collection (`yaml@2` refuses or cuts them otherwise, the event parser
    /// sometimes accepts them).
    fn check_continuation(
        &self,
        first: usize,
        last: usize,
        parent_col: Option<usize>,
        offset: usize,
    ) -> Result<()> {
        let Some(col) = parent_col else {
            return Ok(());
        };
        for n in first + 1..=last {
            let line = self.line(n);
            if !is_blank(line) && leading_spaces(line) <= col {
                return Err(unportable(
                    n + offset,
                    format!(
                        "this continuation line of a multi-line value is indented {} spaces; it must be indented more than its key or `-` (column {})",
                        leading_spaces(line),
                        col + 1
                    ),
                    "indent the continuation lines further, or write the value on one line, or use a block scalar (`|` or `>`)",
                ));
            }
        }
        Ok(())
    }

    /// In a double-quoted scalar, an escaped line break (`\` at the end of a line) followed by
    /// an empty line: the YAML spec keeps a line feed, `yaml@2` a space.
    fn check_escaped_breaks(&self, first: usize, last: usize, offset: usize) -> Result<()> {
        for n in first..last {
            let line = self.line(n);
            let trailing = line.bytes().rev().take_while(|b| *b == b'\\').count();
            if trailing % 2 == 1 && is_blank(self.line(n + 1)) {
                return Err(unportable(
                    n + 1 + offset,
                    "an escaped line break (`\\` at the end of the line) followed by an empty line in a double-quoted string: yaml@2 and the YAML spec read it differently",
                    "remove the `\\` at the end of the previous line, or the empty line, or use a block scalar (`|`)",
                ));
            }
        }
        Ok(())
    }

    /// Blank lines of a block scalar must not hold more spaces than its indentation: the YAML
    /// spec reads the extra spaces as content, `yaml@2` sometimes drops the line.
    fn check_block_scalar(
        &self,
        first: usize,
        indent: usize,
        end: usize,
        offset: usize,
    ) -> Result<()> {
        let bad = |n: usize| {
            unportable(
                n + offset,
                format!("a blank line inside a block scalar (`|` or `>`) has more spaces than the block's indentation ({indent}): readers disagree on whether the extra spaces are content"),
                "remove the trailing spaces from the blank line",
            )
        };
        // Leading blank lines, between the header and the first content line.
        let mut n = first;
        while n > 1 && is_blank(self.line(n - 1)) {
            n -= 1;
            if self.line(n).len() > indent {
                return Err(bad(n));
            }
        }
        for n in first..end.max(first + 1) {
            let line = self.line(n);
            if is_blank(line) {
                if line.len() > indent {
                    return Err(bad(n));
                }
            } else if leading_spaces(line) < indent {
                return Ok(());
            }
        }
        Ok(())
    }

    /// Lines of an outermost flow collection in block context after its first line must be
    /// indented past the enclosing block collection; only its closing bracket may sit at that
    /// column (as `yaml@2` allows).
    fn check_flow_lines(
        &self,
        first: usize,
        end: &saphyr_parser::Span,
        col: usize,
        offset: usize,
    ) -> Result<()> {
        let last = end.start.line();
        for n in first + 1..=last {
            let line = self.line(n);
            if is_blank(line) {
                continue;
            }
            let sp = leading_spaces(line);
            if sp > col || (sp == col && n == last && end.start.col() == sp) {
                continue;
            }
            return Err(unportable(
                n + offset,
                format!("this line of a flow collection (`[...]`/`{{...}}`) is indented {sp} spaces; it must be indented more than its key or `-` (column {})", col + 1),
                "indent the continuation lines of the `[...]`/`{...}` further, or write it on one line",
            ));
        }
        Ok(())
    }
}

fn push_node(nodes: &mut Vec<Node>, kind: NodeKind, line: usize, anchored: bool) -> usize {
    nodes.push(Node {
        kind,
        line,
        anchored,
    });
    nodes.len() - 1
}

fn attach(stack: &mut [Frame], root: &mut Option<usize>, idx: usize) {
    match stack.last_mut() {
        None => *root = Some(idx),
        Some(frame) if frame.is_map => match frame.key.take() {
            None => frame.key = Some(idx),
            Some(key) => frame.pairs.push((key, idx)),
        },
        Some(frame) => frame.items.push(idx),
    }
}

fn syntax_error(e: &ScanError, offset: usize, last_line: usize) -> FrontmatterError {
    let line = (e.marker().line().max(1) + offset).min(last_line);
    FrontmatterError::new(
        FrontmatterErrorKind::Syntax,
        Some(line),
        format!(
            "invalid YAML: {} (column {})",
            e.info(),
            e.marker().col() + 1
        ),
        "fix the YAML at this line: indent nested keys consistently with spaces (not tabs), and quote values that contain `: `, ` #` or start with one of `[]{}*&!|>'\"%@` or a backtick",
    )
}

fn marker_error(original: &str, line: usize, offset: usize) -> FrontmatterError {
    let directive = original
        .split('\n')
        .take(line.saturating_sub(offset))
        .any(|l| l.starts_with('%'));
    if directive {
        FrontmatterError::new(
            FrontmatterErrorKind::Directive,
            Some(line),
            "a `%YAML`/`%TAG` directive and `---` marker inside the frontmatter (`%YAML 1.1` switches some readers to YAML 1.1 typing)",
            "remove the directive and the `---` line; the frontmatter is plain YAML 1.2",
        )
    } else {
        FrontmatterError::new(
            FrontmatterErrorKind::DocumentMarker,
            Some(line),
            "a `---` document marker inside the frontmatter: readers disagree on whether it ends the block",
            "remove this line; the frontmatter is one YAML document between the opening and closing `---`",
        )
    }
}

fn tag_error(tag: &saphyr_parser::Tag, line: usize) -> FrontmatterError {
    let tag = match (tag.handle.as_str(), tag.suffix.as_str()) {
        ("tag:yaml.org,2002:", s) => format!("!!{s}"),
        ("", "!") => "!".to_string(),
        ("", s) => format!("!<{s}>"),
        (h, s) => format!("{h}{s}"),
    };
    FrontmatterError::new(
        FrontmatterErrorKind::Tag,
        Some(line),
        format!("the tag `{tag}`: tags are typed differently (or not at all) by JSON hosts"),
        "remove the tag and write the value itself; quote it if it must stay a string (e.g. `\"123\"` instead of `!!str 123`)",
    )
}

fn too_deep(line: usize) -> FrontmatterError {
    FrontmatterError::new(
        FrontmatterErrorKind::TooDeep,
        Some(line),
        format!("sequences and mappings nested more than {MAX_DEPTH} levels deep"),
        "flatten the structure",
    )
}

// ---------------------------------------------------------------------------------------------
// Plain scalars: YAML 1.2 core schema as `yaml@2` resolves it, with the YAML 1.1 cross-check
// ---------------------------------------------------------------------------------------------

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
    if let Some(d) = s.strip_prefix("0o") {
        if !d.is_empty() && d.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
            return Core::IntOct;
        }
    }
    let unsigned = s.strip_prefix(['-', '+']).unwrap_or(s);
    if all_digits(unsigned) {
        return Core::IntDec;
    }
    if let Some(h) = s.strip_prefix("0x") {
        if !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Core::IntHex;
        }
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
    if let Some(exp) = exp {
        if !all_digits(exp.strip_prefix(['-', '+']).unwrap_or(exp)) {
            return false;
        }
    }
    let mantissa_ok = match mantissa.split_once('.') {
        Some((int, frac)) => {
            (int.is_empty() && all_digits(frac))
                || (all_digits(int) && (frac.is_empty() || all_digits(frac)))
        }
        None => exp.is_some() && all_digits(mantissa),
    };
    mantissa_ok
}

type Refusal = (FrontmatterErrorKind, String, String);

/// Resolves a plain scalar to a value, or refuses it.
fn resolve_plain(s: &str, is_key: bool, line: usize) -> Result<Value> {
    resolve_plain_inner(s, is_key)
        .map_err(|(kind, message, fix)| FrontmatterError::new(kind, Some(line), message, fix))
}

fn resolve_plain_inner(s: &str, is_key: bool) -> Result<Value, Refusal> {
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
            if digits.len() > 1 && digits.starts_with('0') {
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
            let f: f64 = match s.parse() {
                Ok(f) => f,
                Err(_) => return Ok(Value::String(s.to_string())),
            };
            if !f.is_finite() {
                return Err(non_finite(&shown));
            }
            if let Some(why) = float_yaml11_problem(s) {
                return Err((
                    K::Yaml11Ambiguous,
                    format!("`{shown}` is a number in YAML 1.2 but YAML 1.1 readers read it differently ({why})"),
                    format!("write it as `{}` if it is a number, or quote it (`\"{shown}\"`) if it is text", js_number_text(f)),
                ));
            }
            Ok(Value::Number(Number::Float(f)))
        }
        Core::Str => {
            if let Some((kind, why)) = yaml11_typed(s) {
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
    super::value::write_number(Number::Float(f), &mut out);
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
    if let Some(exp) = exp {
        if !exp.starts_with(['-', '+']) {
            return Some(
                "a YAML 1.1 float needs a sign in its exponent (`e+3`), so this is a string there",
            );
        }
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
    if let Some(exp) = exp {
        if !all_digits(exp.strip_prefix(['-', '+']).unwrap_or(exp)) {
            return false;
        }
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

// ---------------------------------------------------------------------------------------------
// Node tree → Value, with yaml@2's alias accounting
// ---------------------------------------------------------------------------------------------

/// The shape of a built value: collection height (0 for a scalar), node count and approximate
/// JSON size in bytes.
#[derive(Clone, Copy, Default)]
struct Shape {
    height: usize,
    size: usize,
    bytes: usize,
}

impl Shape {
    fn scalar(v: &Value) -> Shape {
        let bytes = match v {
            Value::String(s) => s.len() + 2,
            _ => 8,
        };
        Shape {
            height: 0,
            size: 1,
            bytes,
        }
    }

    /// Adds a child (an item, or a value under a key of `key_len` bytes).
    fn add(&mut self, child: Shape, key_len: usize) {
        self.height = self.height.max(child.height);
        self.size = self.size.saturating_add(child.size);
        self.bytes = self
            .bytes
            .saturating_add(child.bytes)
            .saturating_add(key_len + 1);
    }

    fn close(mut self) -> Shape {
        self.height += 1;
        self.size = self.size.saturating_add(1);
        self.bytes = self.bytes.saturating_add(2);
        self
    }
}

/// Per-anchored-node alias accounting, as `yaml@2` keeps it (`count` starts at 1).
#[derive(Clone, Copy)]
struct AliasData {
    count: u64,
    alias_count: u64,
}

/// Turns the node tree into a `Value`: checks keys, applies `yaml@2`'s alias accounting and
/// expands aliases by rebuilding their target (nothing is cached, so memory stays bounded by the
/// input plus the expansion caps).
struct Builder<'n> {
    nodes: &'n [Node],
    /// Shapes of completed anchored nodes.
    shapes: HashMap<usize, Shape>,
    data: HashMap<usize, AliasData>,
    aliases: usize,
    expanded_nodes: usize,
    expanded_bytes: usize,
}

fn internal_error() -> FrontmatterError {
    FrontmatterError::new(
        FrontmatterErrorKind::Syntax,
        None,
        "internal error: inconsistent YAML node tree",
        "report this bug with the frontmatter that caused it",
    )
}

impl<'n> Builder<'n> {
    fn new(nodes: &'n [Node]) -> Self {
        Builder {
            nodes,
            shapes: HashMap::new(),
            data: HashMap::new(),
            aliases: 0,
            expanded_nodes: 0,
            expanded_bytes: 0,
        }
    }

    fn build_root(mut self, root: usize) -> Result<Value> {
        Ok(self.build(root, 0)?.0)
    }

    fn node(&self, idx: usize) -> Result<&'n Node> {
        self.nodes.get(idx).ok_or_else(internal_error)
    }

    /// Builds node `idx`, whose parent collection is at nesting level `parent_level` (0 for the
    /// root). Recursion follows the document tree, whose depth `Tree::read` bounds.
    fn build(&mut self, idx: usize, parent_level: usize) -> Result<(Value, Shape)> {
        let node = self.node(idx)?;
        if node.anchored {
            self.data.insert(
                idx,
                AliasData {
                    count: 1,
                    alias_count: 0,
                },
            );
        }
        let built = match &node.kind {
            NodeKind::Scalar(v) => (v.clone(), Shape::scalar(v)),
            NodeKind::Alias(target) => return self.alias(*target, parent_level, node.line),
            NodeKind::Seq(items) => {
                let mut values = Vec::with_capacity(items.len());
                let mut shape = Shape::default();
                for item in items {
                    let (value, child) = self.build(*item, parent_level + 1)?;
                    shape.add(child, 0);
                    values.push(value);
                }
                (Value::Array(values), shape.close())
            }
            NodeKind::Map(pairs) => {
                let mut out: Vec<(String, Value)> = Vec::with_capacity(pairs.len());
                let mut seen: HashMap<String, usize> = HashMap::with_capacity(pairs.len());
                let mut shape = Shape::default();
                for (k, v) in pairs {
                    let key_line = self.node(*k)?.line;
                    let key = match self.build(*k, parent_level + 1)?.0 {
                        Value::String(s) => s,
                        other => {
                            return Err(FrontmatterError::new(
                                FrontmatterErrorKind::NonStringKey,
                                Some(key_line),
                                format!(
                                    "a mapping key that is {} {}, not a string",
                                    article(other.type_name()),
                                    other.type_name()
                                ),
                                "use a plain or quoted string as the key",
                            ))
                        }
                    };
                    if let Some(first) = seen.get(&key) {
                        return Err(FrontmatterError::new(
                            FrontmatterErrorKind::DuplicateKey,
                            Some(key_line),
                            format!(
                                "duplicate key {:?} (first defined on line {first})",
                                truncate(&key, 60)
                            ),
                            "keep one of the two entries (YAML 1.2 and yaml@2 refuse duplicates; other readers keep the last)",
                        ));
                    }
                    seen.insert(key.clone(), key_line);
                    let (value, child) = self.build(*v, parent_level + 1)?;
                    shape.add(child, key.len() + 2);
                    out.push((key, value));
                }
                (Value::Object(js_property_order(out)), shape.close())
            }
        };
        if node.anchored {
            self.shapes.insert(idx, built.1);
        }
        Ok(built)
    }

    fn alias(&mut self, target: usize, parent_level: usize, line: usize) -> Result<(Value, Shape)> {
        use FrontmatterErrorKind as K;
        self.aliases += 1;
        if self.aliases > MAX_ALIASES {
            return Err(FrontmatterError::new(
                K::AliasLimit,
                Some(line),
                format!("more than {MAX_ALIASES} aliases (`*name`)"),
                "write the values out instead of repeating aliases",
            ));
        }
        let (Some(mut data), Some(shape)) = (
            self.data.get(&target).copied(),
            self.shapes.get(&target).copied(),
        ) else {
            return Err(FrontmatterError::new(
                K::RecursiveAlias,
                Some(line),
                "this alias refers to a node that contains it (a cycle), which JSON cannot represent",
                "move the alias out of the anchored node, or write the value out",
            ));
        };
        data.count += 1;
        if data.alias_count == 0 {
            data.alias_count = self.alias_count(target, 0);
        }
        self.data.insert(target, data);
        if data.count.saturating_mul(data.alias_count) > YAML2_MAX_ALIAS_COUNT {
            return Err(FrontmatterError::new(
                K::AliasLimit,
                Some(line),
                format!("this alias pushes the anchor's weighted alias count past {YAML2_MAX_ALIAS_COUNT}, which yaml@2 refuses as a resource exhaustion attack"),
                "use fewer (or less nested) aliases; write the values out",
            ));
        }
        if parent_level + shape.height > MAX_DEPTH {
            return Err(too_deep(line));
        }
        self.expanded_nodes = self.expanded_nodes.saturating_add(shape.size);
        self.expanded_bytes = self.expanded_bytes.saturating_add(shape.bytes);
        if self.expanded_nodes > MAX_ALIAS_NODES || self.expanded_bytes > MAX_ALIAS_BYTES {
            return Err(FrontmatterError::new(
                K::AliasLimit,
                Some(line),
                format!("aliases expand to more than {MAX_ALIAS_NODES} nodes or {MAX_ALIAS_BYTES} bytes"),
                "write the values out instead of repeating large aliased nodes",
            ));
        }
        Ok((self.materialize(target, 0)?, shape))
    }

    /// The value of an already built node, aliases expanded, without accounting or checks (they
    /// passed when the node was built). `depth` bounds the recursion defensively.
    fn materialize(&self, idx: usize, depth: usize) -> Result<Value> {
        if depth > 2 * MAX_DEPTH + 2 {
            return Err(internal_error());
        }
        Ok(match &self.node(idx)?.kind {
            NodeKind::Scalar(v) => v.clone(),
            NodeKind::Alias(target) => self.materialize(*target, depth + 1)?,
            NodeKind::Seq(items) => Value::Array(
                items
                    .iter()
                    .map(|i| self.materialize(*i, depth + 1))
                    .collect::<Result<_>>()?,
            ),
            NodeKind::Map(pairs) => {
                let mut out = Vec::with_capacity(pairs.len());
                for (k, v) in pairs {
                    let Value::String(key) = self.materialize(*k, depth + 1)? else {
                        return Err(internal_error());
                    };
                    out.push((key, self.materialize(*v, depth + 1)?));
                }
                Value::Object(js_property_order(out))
            }
        })
    }

    /// `yaml@2`'s `getAliasCount`: 1 for a scalar, the maximum over the items of a collection
    /// (0 if empty), and `count × aliasCount` of an alias's anchor.
    fn alias_count(&self, idx: usize, depth: usize) -> u64 {
        let Some(node) = self.nodes.get(idx) else {
            return 0;
        };
        if depth > MAX_DEPTH + 1 {
            return 0;
        }
        match &node.kind {
            NodeKind::Scalar(_) => 1,
            NodeKind::Alias(t) => self
                .data
                .get(t)
                .map_or(0, |d| d.count.saturating_mul(d.alias_count)),
            NodeKind::Seq(items) => items
                .iter()
                .map(|i| self.alias_count(*i, depth + 1))
                .max()
                .unwrap_or(0),
            NodeKind::Map(pairs) => pairs
                .iter()
                .map(|(k, v)| {
                    self.alias_count(*k, depth + 1)
                        .max(self.alias_count(*v, depth + 1))
                })
                .max()
                .unwrap_or(0),
        }
    }
}

fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// The property order of a JavaScript object built by inserting `pairs` in order: keys that are
/// array indices (canonical decimal integers up to 2^32 − 2) first, ascending, then the others
/// in insertion order. `JSON.stringify(YAML.parse(text))` prints objects in this order.
fn js_property_order(pairs: Vec<(String, Value)>) -> Vec<(String, Value)> {
    if !pairs.iter().any(|(k, _)| array_index(k).is_some()) {
        return pairs;
    }
    let (mut indices, others): (Vec<_>, Vec<_>) = pairs
        .into_iter()
        .partition(|(k, _)| array_index(k).is_some());
    indices.sort_by_key(|(k, _)| array_index(k).unwrap_or(u32::MAX));
    indices.extend(others);
    indices
}

/// `Some(n)` when `key` is the canonical decimal form of an array index `n` (0 ≤ n ≤ 2^32 − 2).
fn array_index(key: &str) -> Option<u32> {
    if key.is_empty() || key.len() > 10 || !key.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if key.len() > 1 && key.starts_with('0') {
        return None;
    }
    let n: u64 = key.parse().ok()?;
    u32::try_from(n).ok().filter(|n| *n != u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use FrontmatterErrorKind as K;

    fn json(yaml: &str) -> String {
        match parse_yaml(yaml) {
            Ok(v) => v.to_json(),
            Err(e) => panic!("{yaml:?} refused: {e}"),
        }
    }

    fn kind(yaml: &str) -> K {
        match parse_yaml(yaml) {
            Ok(v) => panic!("{yaml:?} accepted as {}", v.to_json()),
            Err(e) => e.kind,
        }
    }

    // -- splitting ------------------------------------------------------------------------

    #[test]
    fn strict_split_lf_and_crlf() {
        let b = split_strict("---\nname: a\ndescription: b\n---\n# Body\n").unwrap();
        assert_eq!(b.yaml, "name: a\ndescription: b");
        assert_eq!(b.first_line, 2);
        assert_eq!(b.body_start, 31);
        let f = "---\r\nname: a\r\n---\r\nbody";
        let b = split_strict(f).unwrap();
        assert_eq!(b.yaml, "name: a");
        assert_eq!(&f[b.body_start..], "body");
        // Closing fence at end of file, with and without a final line break.
        assert_eq!(split_strict("---\na: 1\n---").unwrap().body_start, 12);
        assert_eq!(split_strict("---\na: 1\n---\n").unwrap().body_start, 13);
    }

    #[test]
    fn strict_split_refusals() {
        let e = |f: &str| split_strict(f).unwrap_err();
        assert_eq!(e("\u{feff}---\na: 1\n---\n").kind, K::ByteOrderMark);
        assert_eq!(e("--- \na: 1\n---\n").kind, K::MissingOpeningFence);
        assert_eq!(e("----\na: 1\n---\n").kind, K::MissingOpeningFence);
        assert_eq!(e("a: 1\n---\n").kind, K::MissingOpeningFence);
        assert_eq!(e("\n---\na: 1\n---\n").kind, K::MissingOpeningFence);
        assert_eq!(e("").kind, K::MissingOpeningFence);
        assert_eq!(e("---").kind, K::MissingOpeningFence);
        assert_eq!(e("---\na: 1\n").kind, K::MissingClosingFence);
        assert_eq!(e("---\na: 1\n----\n").kind, K::MissingClosingFence);
        assert_eq!(e("---\na: 1\n---\r").kind, K::MissingClosingFence);
        assert_eq!(e("---\n---\n").kind, K::EmptyBlock);
        let amb = e("---\na: 1\n--- \nb: 2\n---\n");
        assert_eq!((amb.kind, amb.line), (K::AmbiguousFence, Some(3)));
        assert!(amb.to_string().contains("frontmatter-ambiguous-fence"));
    }

    #[test]
    fn lenient_split() {
        let f = "\u{feff}---\r\na: 1\r\n---\t \r\nbody";
        let b = split_lenient(f).unwrap();
        assert_eq!(b.yaml, "a: 1");
        assert_eq!(&f[b.body_start..], "body");
        // `----` is not a fence; the next `---` is.
        let b = split_lenient("---\na: 1\n----\nb: 2\n---\n").unwrap();
        assert_eq!(b.yaml, "a: 1\n----\nb: 2");
        // As in the regex, a `---` right after the opening fence is not a fence.
        let b = split_lenient("---\n---\na: 1\n---\n").unwrap();
        assert_eq!(b.yaml, "---\na: 1");
        assert_eq!(
            split_lenient("---\n---\n").unwrap_err().kind,
            K::MissingClosingFence
        );
        // An empty line between the fences is an empty block.
        assert_eq!(split_lenient("---\n\n---\n").unwrap().yaml, "");
        assert_eq!(
            split_lenient("--- \na: 1\n---\n").unwrap_err().kind,
            K::MissingOpeningFence
        );
        assert_eq!(
            split_lenient("---\na: 1\n").unwrap_err().kind,
            K::MissingClosingFence
        );
        // Strict and lenient agree where strict accepts.
        for f in [
            "---\na: 1\n---\nx",
            "---\r\na: 1\r\n\r\n---",
            "---\na: |\n  x\n---\n",
        ] {
            assert_eq!(split_strict(f).unwrap(), split_lenient(f).unwrap());
        }
    }

    #[test]
    fn file_parsing_and_lines() {
        let v = parse_file_strict("---\nname: x\ndescription: d\n---\n").unwrap();
        assert_eq!(v.to_json(), r#"{"name":"x","description":"d"}"#);
        let e = parse_file_strict("---\nname: x\nv: yes\n---\n").unwrap_err();
        assert_eq!((e.kind, e.line), (K::Yaml11Ambiguous, Some(3)));
        let e = parse_file_lenient("\u{feff}---\nname: x\n\nname: z\n--- \n").unwrap_err();
        assert_eq!((e.kind, e.line), (K::DuplicateKey, Some(4)));
        assert!(e.message.contains("line 2"), "{}", e.message);
        let e = parse_file_strict("---\n# only a comment\n---\n").unwrap_err();
        assert_eq!(e.kind, K::NotAMapping);
        let e = parse_file_strict("---\n- a\n---\n").unwrap_err();
        assert_eq!(e.kind, K::NotAMapping);
        let e = parse_file_strict("---\nname: x\n  bad: [\n---\n").unwrap_err();
        assert_eq!(e.kind, K::Syntax);
        assert!(e.line.is_some_and(|l| (2..=4).contains(&l)), "{e}");
    }

    // -- values ---------------------------------------------------------------------------

    #[test]
    fn core_schema_scalars() {
        assert_eq!(
            json("a: ~\nb: null\nc: NULL\nd:\ne: true\nf: False\ng: TRUE\n"),
            r#"{"a":null,"b":null,"c":null,"d":null,"e":true,"f":false,"g":true}"#
        );
        assert_eq!(
            json("a: 0\nb: -0\nc: +12\nd: 0x1F\ne: 1.0\nf: 1.\ng: .5\nh: 1.5e+3\ni: -2.5E-3\nj: 9007199254740991\n"),
            r#"{"a":0,"b":0,"c":12,"d":31,"e":1,"f":1,"g":0.5,"h":1500,"i":-0.0025,"j":9007199254740991}"#
        );
        assert_eq!(
            json("a: 0X1F\nb: 1.2.3\nd: 0o\nf: 10:60\n"),
            r#"{"a":"0X1F","b":"1.2.3","d":"0o","f":"10:60"}"#
        );
    }

    #[test]
    fn quoted_and_block_scalars_are_strings() {
        assert_eq!(
            json("a: 'yes'\nb: \"007\"\nc: |\n  1e3\nd: >-\n  x\n  y\n"),
            r#"{"a":"yes","b":"007","c":"1e3\n","d":"x y"}"#
        );
        assert_eq!(json("\"1\": a\n'true': b\n"), r#"{"1":"a","true":"b"}"#);
    }

    #[test]
    fn order_and_js_property_order() {
        assert_eq!(
            json("z: 1\na: {x: 1, b: [2, {d: 1, c: 2}]}\n"),
            r#"{"z":1,"a":{"x":1,"b":[2,{"d":1,"c":2}]}}"#
        );
        assert_eq!(
            json("b: 1\n\"10\": 2\n\"2\": 3\n\"01\": 4\n\"4294967295\": 5\n\"4294967294\": 6\n"),
            r#"{"2":3,"10":2,"4294967294":6,"b":1,"01":4,"4294967295":5}"#
        );
    }

    #[test]
    fn crlf_and_missing_final_newline() {
        assert_eq!(
            json("a: |\r\n  x\r\n  y\r\nb: 1\r\n"),
            json("a: |\n  x\n  y\nb: 1\n")
        );
        assert_eq!(json("a: |+\n  x"), r#"{"a":"x\n"}"#);
        assert_eq!(json("a: |\n  x"), r#"{"a":"x\n"}"#);
        assert_eq!(json(""), "null");
        assert_eq!(json("# c"), "null");
        assert_eq!(json("a: 1\n...\n"), r#"{"a":1}"#);
    }

    #[test]
    fn anchors_and_aliases() {
        assert_eq!(
            json("a: &x {k: [1, 2]}\nb: *x\nc: &s str\n*s : v\n"),
            r#"{"a":{"k":[1,2]},"b":{"k":[1,2]},"c":"str","str":"v"}"#
        );
        assert_eq!(kind("a: &x [*x]\n"), K::RecursiveAlias);
        // yaml@2 allows 99 aliases of one scalar anchor (count starts at 1, limit 100).
        let mut ok = String::from("a: &x 1\nl: [");
        ok.push_str(&vec!["*x"; 99].join(", "));
        ok.push_str("]\n");
        assert!(parse_yaml(&ok).is_ok());
        let too_many = ok.replace("*x]", "*x, *x]");
        assert_eq!(kind(&too_many), K::AliasLimit);
        // Nested aliases multiply (yaml@2's getAliasCount).
        let nested = format!(
            "a: &a 1\nb: &b [{}]\nc: [{}]\n",
            ["*a"; 10].join(", "),
            ["*b"; 9].join(", ")
        );
        assert_eq!(kind(&nested), K::AliasLimit);
    }

    #[test]
    fn refusals() {
        let cases: &[(&str, K)] = &[
            ("a: 1\na: 2\n", K::DuplicateKey),
            ("a: 1\n'a': 2\n", K::DuplicateKey),
            ("a: !!str 1\n", K::Tag),
            ("a: !foo x\n", K::Tag),
            ("a: ! x\n", K::Tag),
            ("a: !!binary aGk=\n", K::Tag),
            ("a: !!map {}\n", K::Tag),
            ("a: .inf\n", K::NonFiniteNumber),
            ("a: -.Inf\n", K::NonFiniteNumber),
            ("a: .NaN\n", K::NonFiniteNumber),
            ("a: 1.0e+400\n", K::NonFiniteNumber),
            ("a: 9007199254740992\n", K::UnsafeInteger),
            ("a: -9007199254740992\n", K::UnsafeInteger),
            ("a: 0x20000000000000\n", K::UnsafeInteger),
            ("a: 99999999999999999999999999\n", K::UnsafeInteger),
            ("a: 007\n", K::LeadingZeroInteger),
            ("a: -01\n", K::LeadingZeroInteger),
            ("a: 00\n", K::LeadingZeroInteger),
            ("a: yes\n", K::Yaml11Ambiguous),
            ("a: Off\n", K::Yaml11Ambiguous),
            ("a: y\n", K::Yaml11Ambiguous),
            ("a: N\n", K::Yaml11Ambiguous),
            ("a: 0o14\n", K::Yaml11Ambiguous),
            ("a: 1e3\n", K::Yaml11Ambiguous),
            ("a: 1.5e3\n", K::Yaml11Ambiguous),
            ("a: -.5\n", K::Yaml11Ambiguous),
            ("a: 1_000\n", K::Yaml11Ambiguous),
            ("a: 0b101\n", K::Yaml11Ambiguous),
            ("a: -0x1F\n", K::Yaml11Ambiguous),
            ("a: 1:20\n", K::Yaml11Ambiguous),
            ("a: 1:20.5\n", K::Yaml11Ambiguous),
            ("a: 2024-01-01\n", K::Yaml11Ambiguous),
            ("a: 2001-12-14t21:59:43.10-05:00\n", K::Yaml11Ambiguous),
            ("a: 2001-12-14 21:59:43.10 -5\n", K::Yaml11Ambiguous),
            ("a: =\n", K::Yaml11Ambiguous),
            ("a: e5\n", K::Yaml11Ambiguous),
            ("a: 1_0.5\n", K::Yaml11Ambiguous),
            ("on: 1\n", K::Yaml11Ambiguous),
            ("<<: {a: 1}\n", K::MergeKey),
            ("a: <<\n", K::Yaml11Ambiguous),
            ("1: a\n", K::NonStringKey),
            ("true: a\n", K::NonStringKey),
            ("~: a\n", K::NonStringKey),
            (": a\n", K::NonStringKey),
            ("1.5: a\n", K::NonStringKey),
            ("? [a]\n: b\n", K::NonStringKey),
            ("? {a: 1}\n: b\n", K::NonStringKey),
            ("x: &n 1\n*n : b\n", K::NonStringKey),
            ("a: 1\n---\nb: 2\n", K::MultipleDocuments),
            ("a: 1\n...\nb: 2\n", K::MultipleDocuments),
            ("--- \na: 1\n", K::DocumentMarker),
            ("%YAML 1.1\n---\na: yes\n", K::Directive),
            ("a: b\u{1}c\n", K::ForbiddenCharacter),
            ("a: b\rc: d\n", K::ForbiddenCharacter),
            ("a: b\u{2028}c\n", K::ForbiddenCharacter),
            ("a: b\u{85}c\n", K::ForbiddenCharacter),
            ("\u{feff}a: 1\n", K::ForbiddenCharacter),
            ("a:\n  - 'x\n  y'\n", K::Unportable),
            ("a: [|]\n", K::Unportable),
            ("a: [?]\n", K::Unportable),
            ("a: &x[1]\n", K::Unportable),
            ("a: \"x\\\n\n  y\"\n", K::Unportable),
            ("e: |2\n\n    x\n  \n   \nf: 1\n", K::Unportable),
            ("a:\n\t\nb: 1\n", K::Unportable),
            ("a:\n-\tk: v\n", K::Unportable),
            ("a: [? x, '\n   k': v]\n", K::Unportable),
            ("a: >+\n  ", K::Unportable),
            ("...\nx\n", K::MultipleDocuments),
            ("a: [\n", K::Syntax),
            ("a: *nope\n", K::Syntax),
            ("a: 'x\n", K::Syntax),
        ];
        for (yaml, want) in cases {
            let got = parse_yaml(yaml);
            match got {
                Ok(v) => panic!("{yaml:?} accepted as {}", v.to_json()),
                Err(e) => {
                    assert_eq!(e.kind, *want, "{yaml:?}: {e}");
                    assert!(e.line.is_some(), "{yaml:?}: {e}");
                    assert!(!e.fix.is_empty());
                }
            }
        }
    }

    #[test]
    fn accepted_lookalikes() {
        // Strings in both YAML 1.1 and 1.2.
        assert_eq!(
            json("a: 1.2.3\nb: 10:60\nc: 2024-01-01x\nd: yess\ne: 0X1F\nf: 1,000\ng: v1.0\n"),
            r#"{"a":"1.2.3","b":"10:60","c":"2024-01-01x","d":"yess","e":"0X1F","f":"1,000","g":"v1.0"}"#
        );
        assert_eq!(json("\"<<\": a\n"), r#"{"<<":"a"}"#);
    }

    #[test]
    fn depth_is_bounded() {
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse_yaml(&ok).is_ok());
        let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        assert_eq!(kind(&deep), K::TooDeep);
        let hostile = "[".repeat(1_000_000);
        assert!(parse_yaml(&hostile).is_err());
        // Alias expansion cannot exceed the depth either.
        let inner = format!("{}1{}", "[".repeat(40), "]".repeat(40));
        let aliased = format!("a: &a {inner}\nb: {}*a{}\n", "[".repeat(30), "]".repeat(30));
        assert_eq!(kind(&aliased), K::TooDeep);
    }

    #[test]
    fn alias_expansion_is_bounded_in_bytes() {
        let big = "x".repeat(600_000);
        let ok = format!("a: &x {big}\nb: *x\n");
        assert_eq!(
            parse_yaml(&ok).map(|v| v.to_json().len()).ok(),
            Some(1_200_015)
        );
        let twice = format!("{ok}c: *x\n");
        assert_eq!(kind(&twice), K::AliasLimit);
    }

    #[test]
    fn size_is_bounded() {
        let big = format!("a: {}\n", "x".repeat(MAX_YAML_BYTES));
        assert_eq!(kind(&big), K::TooLarge);
        let file = format!("---\n{big}---\n");
        let e = parse_file_strict(&file).unwrap_err();
        assert_eq!((e.kind, e.line), (K::TooLarge, Some(2)));
    }

    #[test]
    fn rules_are_unique_and_round_trip() {
        let mut seen = HashSet::new();
        for k in FrontmatterErrorKind::ALL {
            assert!(k.rule().starts_with("frontmatter-"));
            assert!(seen.insert(k.rule()));
            assert_eq!(FrontmatterErrorKind::from_rule(k.rule()), Some(k));
            assert_eq!(FrontmatterErrorKind::from_rule(&format!("{k:?}")), Some(k));
        }
    }

    #[test]
    fn display_names_line_rule_and_fix() {
        let e = parse_yaml("a: 1\nb: yes\n").unwrap_err();
        let s = e.to_string();
        assert!(s.starts_with("line 2: "), "{s}");
        assert!(s.contains("[frontmatter-yaml11-ambiguous]"), "{s}");
        assert!(s.contains("fix: quote it"), "{s}");
    }
}
