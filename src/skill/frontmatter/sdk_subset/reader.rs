//! A model of the official TypeScript SDK 2.4's built-in frontmatter reader:
//! `core-internal/src/ext/skills/frontmatter.ts` of `@modelcontextprotocol/core` 2.4.0, which
//! `SkillsClient.read` (client 2.4.0) and `SkillsExtension.load` (server 2.4.0) bundle. It is
//! the same line-based algorithm, step for step: the same refusals with the same messages and
//! lines, and the same values. The lint compares its result with the published reading to find
//! what hosts on that SDK cannot read, or would read differently; the differential test
//! (`tests/js/sdk-subset.test.mjs`) keeps it honest against the real client.
//!
//! Text is handled as characters where the original indexes UTF-16 code units; the two agree
//! on everything the algorithm compares (ASCII indicators and white space).

use std::collections::HashSet;

use crate::skill::value::{Number, Value, MAX_SAFE_INTEGER};

/// The SDK's nesting limit: the root mapping is level 0, each nested collection one more.
pub(super) const SDK_MAX_DEPTH: usize = 32;

/// Why the model stops.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Stop {
    /// The SDK throws a `FrontmatterError` with this message, at this file line if it names
    /// one.
    Refused {
        line: Option<usize>,
        message: String,
    },
    /// The SDK reads a value that Rust strings cannot hold (a lone UTF-16 surrogate from a
    /// `\uD800`-style escape), so it differs from any published value.
    Unrepresentable { line: usize },
}

type Read<T> = Result<T, Stop>;

fn refused<T>(line: usize, message: impl Into<String>) -> Read<T> {
    Err(Stop::Refused {
        line: Some(line),
        message: message.into(),
    })
}

const TAB_INDENT: &str = "tabs cannot be used for indentation";
const UNCLOSED_QUOTE: &str =
    "a quoted value must close on the same line (multi-line quoted values are not supported)";
const UNCLOSED_FLOW: &str = "a flow collection must close on the same line";
const FLOW_SEPARATORS: &str = " \t,[]{}";

/// One line of the YAML, as `toLines` makes it.
#[derive(Clone)]
struct Line {
    no: usize,
    /// Leading spaces only: a tab ends the indentation.
    indent: usize,
    /// The line after its leading spaces and tabs.
    text: Vec<char>,
    raw: Vec<char>,
}

/// Reads `yaml` (the text between the fences, line breaks as in the file) as
/// `parseSkillMarkdown` does: CRLF made LF, the line break before the closing fence included,
/// `first_line` the file line of the first YAML line.
pub(super) fn read(yaml: &str, first_line: usize) -> Read<Value> {
    let mut text = yaml.replace("\r\n", "\n");
    if !text.is_empty() {
        // `splitFrontmatter` keeps the line break before the closing fence.
        text.push('\n');
    }
    let mut raws: Vec<&str> = text.split('\n').collect();
    if raws.last() == Some(&"") {
        raws.pop();
    }
    let lines = raws
        .iter()
        .enumerate()
        .map(|(i, raw)| {
            let raw: Vec<char> = raw.chars().collect();
            let indent = raw.iter().take_while(|c| **c == ' ').count();
            Line {
                no: first_line + i,
                indent,
                text: trim_white_start(&raw).to_vec(),
                raw,
            }
        })
        .collect();
    Parser { lines, index: 0 }.parse_document()
}

fn is_skippable(line: &Line) -> bool {
    line.text.is_empty() || line.text.first() == Some(&'#')
}

fn is_tab_indented(line: &Line) -> bool {
    line.raw.get(line.indent) == Some(&'\t')
}

/// `/^-(?:[\t ]|$)/`
fn is_sequence_item(text: &[char]) -> bool {
    text.first() == Some(&'-') && matches!(text.get(1), None | Some(' ' | '\t'))
}

struct Parser {
    lines: Vec<Line>,
    index: usize,
}

impl Parser {
    fn parse_document(&mut self) -> Read<Value> {
        let Some(first) = self.peek()? else {
            return Ok(Value::Object(Vec::new()));
        };
        if first.text.first() == Some(&'\u{feff}') {
            return refused(
                first.no,
                "a byte order mark inside the frontmatter is not supported",
            );
        }
        if is_sequence_item(&first.text) || match_key(&first.text, first.no)?.is_none() {
            return refused(first.no, "frontmatter must be a mapping of keys to values");
        }
        let map = self.parse_mapping(first.indent, 0)?;
        if let Some(extra) = self.peek()? {
            return refused(extra.no, "unexpected content");
        }
        Ok(map)
    }

    fn current_no(&self) -> Option<usize> {
        self.lines.get(self.index).map(|l| l.no)
    }

    /// The next line that is not blank or a comment (a tab in its indentation is refused).
    fn peek(&mut self) -> Read<Option<Line>> {
        while self.lines.get(self.index).is_some_and(is_skippable) {
            self.index += 1;
        }
        let line = self.lines.get(self.index).cloned();
        if let Some(line) = &line
            && is_tab_indented(line)
        {
            return refused(line.no, TAB_INDENT);
        }
        Ok(line)
    }

    fn parse_mapping(&mut self, indent: usize, depth: usize) -> Read<Value> {
        assert_depth(depth, self.current_no())?;
        let mut map: Vec<(String, Value)> = Vec::new();
        let mut seen: HashSet<String> = HashSet::new();
        while let Some(line) = self.peek()? {
            if line.indent < indent {
                break;
            }
            if line.indent > indent {
                return refused(line.no, "unexpected indentation");
            }
            if is_sequence_item(&line.text) {
                break;
            }
            let Some((key, rest)) = match_key(&line.text, line.no)? else {
                return refused(line.no, "expected \"key: value\"");
            };
            if !seen.insert(key.clone()) {
                return refused(line.no, format!("duplicate key \"{key}\""));
            }
            self.index += 1;
            let value = self.parse_value(&rest, &line, indent, depth + 1, true)?;
            map.push((key, value));
        }
        Ok(Value::Object(map))
    }

    fn parse_sequence(&mut self, indent: usize, depth: usize) -> Read<Value> {
        assert_depth(depth, self.current_no())?;
        let mut items = Vec::new();
        while let Some(line) = self.peek()? {
            if line.indent < indent {
                break;
            }
            if line.indent > indent {
                return refused(line.no, "unexpected indentation");
            }
            if !is_sequence_item(&line.text) {
                break;
            }
            let after = line.text.get(1..).unwrap_or(&[]);
            let rest = trim_white_start(after);
            let column = line.indent + 1 + (after.len() - rest.len());
            if !rest.is_empty()
                && rest.first() != Some(&'#')
                && (is_sequence_item(rest) || match_key(rest, line.no)?.is_some())
            {
                // `- key: value` or `- - item`: the item is a block node at `column`.
                let spaces = after.iter().take_while(|c| **c == ' ').count();
                if after.get(spaces) == Some(&'\t') {
                    return refused(line.no, TAB_INDENT);
                }
                let nested = is_sequence_item(rest);
                if let Some(slot) = self.lines.get_mut(self.index) {
                    slot.indent = column;
                    slot.text = rest.to_vec();
                }
                items.push(if nested {
                    self.parse_sequence(column, depth + 1)?
                } else {
                    self.parse_mapping(column, depth + 1)?
                });
                continue;
            }
            self.index += 1;
            let rest = rest.to_vec();
            items.push(self.parse_value(&rest, &line, indent, depth + 1, false)?);
        }
        Ok(Value::Array(items))
    }

    fn parse_value(
        &mut self,
        rest: &[char],
        line: &Line,
        parent_indent: usize,
        depth: usize,
        allow_compact_sequence: bool,
    ) -> Read<Value> {
        let Some(&first) = rest.first().filter(|c| **c != '#') else {
            let next = self.peek()?;
            if let Some(next) = &next {
                if next.indent > parent_indent {
                    return self.parse_indented(parent_indent, depth);
                }
                if allow_compact_sequence
                    && next.indent == parent_indent
                    && is_sequence_item(&next.text)
                {
                    return self.parse_sequence(parent_indent, depth);
                }
            }
            return Ok(Value::Null);
        };
        match first {
            '|' | '>' => return self.parse_block_scalar(rest, line, parent_indent),
            '"' | '\'' => {
                let (value, end) = read_quoted(rest, 0, line.no)?;
                expect_only_comment(rest.get(end..).unwrap_or(&[]), line.no)?;
                return Ok(Value::String(value));
            }
            '[' | '{' => {
                let (value, end) = read_flow(rest, 0, line.no, depth)?;
                expect_only_comment(rest.get(end..).unwrap_or(&[]), line.no)?;
                return Ok(value);
            }
            '&' | '*' | '!' => {
                return refused(line.no, "anchors, aliases and tags are not supported")
            }
            '%' | '@' | '`' | ',' | ']' | '}' => {
                return refused(
                    line.no,
                    format!("\"{first}\" cannot start a plain value; quote it"),
                )
            }
            _ => {}
        }
        let question = first == '?' && matches!(rest.get(1), None | Some(' ' | '\t'));
        if is_sequence_item(rest) || question {
            return refused(line.no, "a nested collection must start on its own line");
        }
        self.parse_plain(rest, line, parent_indent)
    }

    fn parse_indented(&mut self, parent_indent: usize, depth: usize) -> Read<Value> {
        let Some(line) = self.peek()? else {
            return Ok(Value::Null);
        };
        if is_sequence_item(&line.text) {
            return self.parse_sequence(line.indent, depth);
        }
        if match_key(&line.text, line.no)?.is_some() {
            return self.parse_mapping(line.indent, depth);
        }
        self.index += 1;
        let text = line.text.clone();
        self.parse_value(&text, &line, parent_indent, depth, false)
    }

    fn parse_plain(&mut self, first: &[char], line: &Line, parent_indent: usize) -> Read<Value> {
        let mut value = strip_comment(first).to_vec();
        assert_plain(&value, line.no)?;
        let mut commented = has_comment(first);
        let mut blanks = 0;
        while let Some(next) = self.lines.get(self.index) {
            if next.text.is_empty() {
                blanks += 1;
                self.index += 1;
                continue;
            }
            if next.indent <= parent_indent || next.text.first() == Some(&'#') {
                break;
            }
            if is_tab_indented(next) {
                return refused(next.no, TAB_INDENT);
            }
            if commented {
                return refused(
                    next.no,
                    "a comment ends a plain value; quote a value that continues past it",
                );
            }
            let part = strip_comment(&next.text);
            assert_plain(part, next.no)?;
            commented = has_comment(&next.text);
            if blanks > 0 {
                value.extend(std::iter::repeat_n('\n', blanks));
            } else {
                value.push(' ');
            }
            value.extend_from_slice(part);
            blanks = 0;
            self.index += 1;
        }
        resolve_plain(&value.iter().collect::<String>(), line.no)
    }

    fn parse_block_scalar(
        &mut self,
        header: &[char],
        line: &Line,
        parent_indent: usize,
    ) -> Read<Value> {
        let Some((folded, chomping)) = block_header(header) else {
            // `/^[>|][+-]?\d|^[>|]\d/`
            let digit = |i: usize| header.get(i).is_some_and(char::is_ascii_digit);
            let indicator = digit(1) || (matches!(header.get(1), Some('+' | '-')) && digit(2));
            return refused(
                line.no,
                if indicator {
                    "block scalar indentation indicators are not supported"
                } else {
                    "invalid block scalar header"
                },
            );
        };
        let mut contents: Vec<Vec<char>> = Vec::new();
        let mut content_indent: Option<usize> = None;
        let mut leading_width = 0;
        while let Some(next) = self.lines.get(self.index) {
            let spaces_only = next.indent == next.raw.len();
            if content_indent.is_none() && !spaces_only && next.indent > parent_indent {
                content_indent = Some(next.indent);
                if leading_width > next.indent {
                    return refused(
                        next.no,
                        "a leading blank line is indented more than the block scalar content",
                    );
                }
            }
            match content_indent {
                Some(ci) if next.indent >= ci => {
                    contents.push(next.raw.get(ci..).unwrap_or(&[]).to_vec())
                }
                _ if spaces_only => {
                    if content_indent.is_none() {
                        leading_width = leading_width.max(next.indent);
                    }
                    contents.push(Vec::new());
                }
                _ if is_tab_indented(next) => return refused(next.no, TAB_INDENT),
                _ => break,
            }
            self.index += 1;
        }
        Ok(Value::String(fold_block(&contents, folded, chomping)))
    }
}

/// `/^([>|])([+-]?)(?:[\t ]+#.*)?[\t ]*$/`: (folded, chomping) of a valid header.
fn block_header(header: &[char]) -> Option<(bool, Option<char>)> {
    let folded = match header.first() {
        Some('>') => true,
        Some('|') => false,
        _ => return None,
    };
    let mut i = 1;
    let chomping = match header.get(1) {
        Some(c @ ('+' | '-')) => {
            i = 2;
            Some(*c)
        }
        _ => None,
    };
    let rest = header.get(i..).unwrap_or(&[]);
    let blanks = rest.iter().take_while(|c| matches!(c, ' ' | '\t')).count();
    let after = rest.get(blanks..).unwrap_or(&[]);
    let valid = if blanks > 0 && after.first() == Some(&'#') {
        // `.` matches no line terminator (LF, CR, U+2028, U+2029).
        !after
            .iter()
            .any(|c| matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}'))
    } else {
        after.is_empty()
    };
    valid.then_some((folded, chomping))
}

fn assert_depth(depth: usize, line: Option<usize>) -> Read<()> {
    if depth > SDK_MAX_DEPTH {
        return Err(Stop::Refused {
            line,
            message: format!("nesting deeper than {SDK_MAX_DEPTH} levels is not supported"),
        });
    }
    Ok(())
}

/// `matchKey`: the key and the rest of the line when `text` starts with `key:`.
fn match_key(text: &[char], no: usize) -> Read<Option<(String, Vec<char>)>> {
    let Some(&first) = text.first() else {
        return Ok(None);
    };
    if first == '"' || first == '\'' {
        let (value, end) = read_quoted(text, 0, no)?;
        let after = text.get(end..).unwrap_or(&[]);
        if after.first() == Some(&':') && matches!(after.get(1), None | Some('\t' | ' ')) {
            let key = check_key(value, no)?;
            let rest = after.get(1..).unwrap_or(&[]);
            return Ok(Some((key, trim_white_start(rest).to_vec())));
        }
        return Ok(None);
    }
    if first == '?' {
        return refused(no, "complex keys (\"?\") are not supported");
    }
    if "[]{}&*!|>%@`#,".contains(first) {
        return Ok(None);
    }
    for (index, &c) in text.iter().enumerate() {
        let previous = index.checked_sub(1).and_then(|i| text.get(i));
        if c == '#' && matches!(previous, Some(' ' | '\t')) {
            return Ok(None);
        }
        if c == ':' && matches!(text.get(index + 1), None | Some(' ' | '\t')) {
            let key = trim_white_end(text.get(..index).unwrap_or(&[]));
            if key.is_empty() {
                return Ok(None);
            }
            let key = resolve_key(&key.iter().collect::<String>(), no)?;
            let rest = text.get(index + 1..).unwrap_or(&[]);
            return Ok(Some((key, trim_white_start(rest).to_vec())));
        }
    }
    Ok(None)
}

fn check_key(key: String, no: usize) -> Read<String> {
    if key == "__proto__" {
        return refused(no, "the key \"__proto__\" is not supported");
    }
    Ok(key)
}

fn resolve_key(raw: &str, no: usize) -> Read<String> {
    if !matches!(resolve_plain(raw, no)?, Value::String(_)) {
        return refused(no, format!("key \"{raw}\" must be a string; quote it"));
    }
    check_key(raw.to_owned(), no)
}

/// `/:(?:[\t ]|$)/`
fn assert_plain(text: &[char], no: usize) -> Read<()> {
    let bad = text
        .iter()
        .enumerate()
        .any(|(i, c)| *c == ':' && matches!(text.get(i + 1), None | Some('\t' | ' ')));
    if bad {
        return refused(no, "a plain value cannot contain \": \"; quote the value");
    }
    Ok(())
}

/// `COMMENT = /[\t ]#/`: where a comment starts, if anywhere.
fn comment_start(text: &[char]) -> Option<usize> {
    text.windows(2).position(|w| matches!(w, [' ' | '\t', '#']))
}

fn has_comment(text: &[char]) -> bool {
    comment_start(text).is_some()
}

fn strip_comment(text: &[char]) -> &[char] {
    trim_white_end(
        text.get(..comment_start(text).unwrap_or(text.len()))
            .unwrap_or(text),
    )
}

fn expect_only_comment(after: &[char], no: usize) -> Read<()> {
    let blanks = after.iter().take_while(|c| matches!(c, ' ' | '\t')).count();
    if blanks == after.len() || (blanks > 0 && after.get(blanks) == Some(&'#')) {
        return Ok(());
    }
    refused(no, "unexpected text after the value")
}

fn trim_white_start(text: &[char]) -> &[char] {
    text.get(skip_spaces(text, 0)..).unwrap_or(&[])
}

fn trim_white_end(text: &[char]) -> &[char] {
    let mut end = text.len();
    while end > 0 && matches!(text.get(end - 1), Some(' ' | '\t')) {
        end -= 1;
    }
    text.get(..end).unwrap_or(text)
}

fn skip_spaces(text: &[char], index: usize) -> usize {
    let mut position = index;
    while matches!(text.get(position), Some(' ' | '\t')) {
        position += 1;
    }
    position
}

/// `^[+-]?\d+$`
fn is_integer(s: &str) -> bool {
    let u = s.strip_prefix(['+', '-']).unwrap_or(s);
    !u.is_empty() && u.bytes().all(|b| b.is_ascii_digit())
}

/// `^[+-]?(?:\.\d+|\d+(?:\.\d*)?)(?:[Ee][+-]?\d+)?$`
fn is_float(s: &str) -> bool {
    let u = s.strip_prefix(['+', '-']).unwrap_or(s);
    let (mantissa, exp) = match u.find(['e', 'E']) {
        Some(i) => (&u[..i], Some(&u[i + 1..])),
        None => (u, None),
    };
    let digits = |d: &str| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit());
    if let Some(exp) = exp
        && !digits(exp.strip_prefix(['+', '-']).unwrap_or(exp))
    {
        return false;
    }
    match mantissa.split_once('.') {
        Some(("", frac)) => digits(frac),
        Some((int, frac)) => digits(int) && (frac.is_empty() || digits(frac)),
        None => digits(mantissa),
    }
}

/// `parseInt(digits, radix)` for digits already checked against the radix.
fn parse_int(digits: &str, radix: u32) -> f64 {
    digits.chars().fold(0.0, |n, c| {
        n * f64::from(radix) + f64::from(c.to_digit(radix).unwrap_or(0))
    })
}

/// `resolvePlain`: YAML 1.2 core-schema typing of a plain scalar.
fn resolve_plain(text: &str, no: usize) -> Read<Value> {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Ok(Value::Null),
        "true" | "True" | "TRUE" => return Ok(Value::Bool(true)),
        "false" | "False" | "FALSE" => return Ok(Value::Bool(false)),
        _ => {}
    }
    let hex = |h: &str| !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit());
    let octal = |o: &str| !o.is_empty() && o.bytes().all(|b| (b'0'..=b'7').contains(&b));
    let special = matches!(
        text.strip_prefix(['+', '-']).unwrap_or(text),
        ".inf" | ".Inf" | ".INF"
    ) || matches!(text, ".nan" | ".NaN" | ".NAN");
    let number = if is_integer(text) || is_float(text) {
        text.parse::<f64>().unwrap_or(f64::NAN)
    } else if let Some(o) = text.strip_prefix("0o").filter(|o| octal(o)) {
        parse_int(o, 8)
    } else if let Some(h) = text.strip_prefix("0x").filter(|h| hex(h)) {
        parse_int(h, 16)
    } else if special {
        f64::NAN
    } else {
        return Ok(Value::String(text.to_owned()));
    };
    if !number.is_finite() {
        return refused(
            no,
            format!("\"{text}\" cannot be represented in JSON; quote it"),
        );
    }
    // JavaScript has one number type; keep exact integers as integers.
    Ok(Value::Number(
        if number.fract() == 0.0 && number.abs() <= MAX_SAFE_INTEGER as f64 {
            Number::Int(number as i64)
        } else {
            Number::Float(number)
        },
    ))
}

/// `readQuoted`: a single- or double-quoted scalar starting at `start`; (value, index after
/// the closing quote).
fn read_quoted(text: &[char], start: usize, no: usize) -> Read<(String, usize)> {
    let quote = text.get(start).copied();
    let mut value = String::new();
    let mut index = start + 1;
    while let Some(&c) = text.get(index) {
        if quote == Some('\'') {
            if c == '\'' {
                if text.get(index + 1) == Some(&'\'') {
                    value.push('\'');
                    index += 2;
                    continue;
                }
                return Ok((value, index + 1));
            }
            value.push(c);
            index += 1;
            continue;
        }
        if c == '"' {
            return Ok((value, index + 1));
        }
        if c == '\\' {
            let (decoded, length) = decode_escape(text, index, no)?;
            value.push(decoded);
            index += length;
            continue;
        }
        value.push(c);
        index += 1;
    }
    refused(no, UNCLOSED_QUOTE)
}

fn decode_escape(text: &[char], index: usize, no: usize) -> Read<(char, usize)> {
    let Some(&code) = text.get(index + 1) else {
        return refused(no, UNCLOSED_QUOTE);
    };
    let simple = match code {
        '0' => Some('\0'),
        'a' => Some('\u{7}'),
        'b' => Some('\u{8}'),
        't' | '\t' => Some('\t'),
        'n' => Some('\n'),
        'v' => Some('\u{b}'),
        'f' => Some('\u{c}'),
        'r' => Some('\r'),
        'e' => Some('\u{1b}'),
        ' ' => Some(' '),
        '"' => Some('"'),
        '/' => Some('/'),
        '\\' => Some('\\'),
        'N' => Some('\u{85}'),
        '_' => Some('\u{a0}'),
        'L' => Some('\u{2028}'),
        'P' => Some('\u{2029}'),
        _ => None,
    };
    if let Some(c) = simple {
        return Ok((c, 2));
    }
    let width = match code {
        'x' => 2,
        'u' => 4,
        'U' => 8,
        _ => return refused(no, format!("unknown escape \"\\{code}\"")),
    };
    let hex: String = text.iter().skip(index + 2).take(width).collect();
    let value = (hex.chars().count() == width && hex.chars().all(|c| c.is_ascii_hexdigit()))
        .then(|| u32::from_str_radix(&hex, 16).ok())
        .flatten()
        .filter(|v| *v <= 0x10_ffff);
    let Some(value) = value else {
        return refused(no, format!("invalid escape \"\\{code}{hex}\""));
    };
    match char::from_u32(value) {
        Some(c) => Ok((c, 2 + width)),
        None => Err(Stop::Unrepresentable { line: no }),
    }
}

/// `readFlow`: a one-line flow collection starting at `start`; (value, index after it).
fn read_flow(text: &[char], start: usize, no: usize, depth: usize) -> Read<(Value, usize)> {
    assert_depth(depth, Some(no))?;
    let open = text.get(start).copied();
    let close = if open == Some('[') { ']' } else { '}' };
    let mut list = Vec::new();
    let mut map: Vec<(String, Value)> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    let done = |list: Vec<Value>, map: Vec<(String, Value)>| {
        if open == Some('[') {
            Value::Array(list)
        } else {
            Value::Object(map)
        }
    };
    let mut index = skip_spaces(text, start + 1);
    if text.get(index) == Some(&close) {
        return Ok((done(list, map), index + 1));
    }
    loop {
        if open == Some('[') {
            let (value, end) = read_flow_value(text, index, no, depth)?;
            list.push(value);
            index = skip_spaces(text, end);
        } else {
            let (key, key_end) = read_flow_key(text, index, no)?;
            let (value, end) = read_flow_value(text, key_end + 1, no, depth)?;
            if !seen.insert(key.clone()) {
                return refused(no, format!("duplicate key \"{key}\""));
            }
            map.push((key, value));
            index = skip_spaces(text, end);
        }
        match text.get(index) {
            Some(',') => {
                index = skip_spaces(text, index + 1);
                if text.get(index) == Some(&close) {
                    return Ok((done(list, map), index + 1));
                }
            }
            Some(c) if *c == close => return Ok((done(list, map), index + 1)),
            None => return refused(no, UNCLOSED_FLOW),
            Some(c) => return refused(no, format!("unexpected \"{c}\" in a flow collection")),
        }
    }
}

fn read_flow_key(text: &[char], start: usize, no: usize) -> Read<(String, usize)> {
    let index = skip_spaces(text, start);
    let Some(&c) = text.get(index) else {
        return refused(no, UNCLOSED_FLOW);
    };
    if c == '"' || c == '\'' {
        let (value, end) = read_quoted(text, index, no)?;
        let colon = skip_spaces(text, end);
        if text.get(colon) != Some(&':') {
            return refused(no, "expected \": \" after a key in a flow mapping");
        }
        return Ok((check_key(value, no)?, colon));
    }
    if c == '[' || c == '{' {
        return refused(
            no,
            "complex keys (flow collections as keys) are not supported",
        );
    }
    assert_flow_plain_start(text, index, no)?;
    let end = scan_flow_plain(text, index);
    let raw = trim_white_end(text.get(index..end).unwrap_or(&[]));
    if raw.is_empty()
        || text.get(end) != Some(&':')
        || !matches!(text.get(end + 1), Some(' ' | '\t'))
    {
        return refused(no, "expected \"key: value\" in a flow mapping");
    }
    Ok((resolve_key(&raw.iter().collect::<String>(), no)?, end))
}

fn assert_flow_plain_start(text: &[char], index: usize, no: usize) -> Read<()> {
    let c = text.get(index).copied().unwrap_or(' ');
    if "&*!".contains(c) {
        return refused(no, "anchors, aliases and tags are not supported");
    }
    let next = text.get(index + 1).copied().unwrap_or(' ');
    if "|>%@`#".contains(c) || ("-?:".contains(c) && FLOW_SEPARATORS.contains(next)) {
        return refused(
            no,
            format!("\"{c}\" cannot start a plain value in a flow collection; quote it"),
        );
    }
    Ok(())
}

/// The end of a plain flow scalar: a flow indicator, a comment or a `:` indicator.
fn scan_flow_plain(text: &[char], index: usize) -> usize {
    let mut end = index;
    while let Some(&c) = text.get(end) {
        if ",[]{}".contains(c) {
            break;
        }
        let previous = end.checked_sub(1).and_then(|i| text.get(i));
        if c == '#' && matches!(previous, Some(' ' | '\t')) {
            break;
        }
        let next = text.get(end + 1).copied().unwrap_or(' ');
        if c == ':' && FLOW_SEPARATORS.contains(next) {
            break;
        }
        end += 1;
    }
    end
}

fn read_flow_value(text: &[char], start: usize, no: usize, depth: usize) -> Read<(Value, usize)> {
    let index = skip_spaces(text, start);
    let Some(&c) = text.get(index) else {
        return refused(no, UNCLOSED_FLOW);
    };
    if c == '[' || c == '{' {
        return read_flow(text, index, no, depth + 1);
    }
    if c == '"' || c == '\'' {
        let (value, end) = read_quoted(text, index, no)?;
        return Ok((Value::String(value), end));
    }
    assert_flow_plain_start(text, index, no)?;
    let end = scan_flow_plain(text, index);
    if text.get(end) == Some(&':') {
        return refused(
            no,
            "mappings inside flow collections are not supported; quote the value",
        );
    }
    let raw = trim_white_end(text.get(index..end).unwrap_or(&[]));
    if raw.is_empty() {
        return refused(no, "empty value in a flow collection");
    }
    Ok((resolve_plain(&raw.iter().collect::<String>(), no)?, end))
}

/// `foldBlock`: joins block scalar lines (the algorithm of js-yaml's `readBlockScalar`).
fn fold_block(contents: &[Vec<char>], folded: bool, chomping: Option<char>) -> String {
    let mut result = String::new();
    let mut empty_lines = 0;
    let mut did_read_content = false;
    let mut at_more_indented = false;
    let newlines = |n: usize, out: &mut String| out.extend(std::iter::repeat_n('\n', n));
    for content in contents {
        if content.is_empty() {
            empty_lines += 1;
            continue;
        }
        if folded {
            if matches!(content.first(), Some(' ' | '\t')) {
                at_more_indented = true;
                let n = if did_read_content {
                    1 + empty_lines
                } else {
                    empty_lines
                };
                newlines(n, &mut result);
            } else if at_more_indented {
                at_more_indented = false;
                newlines(empty_lines + 1, &mut result);
            } else if empty_lines == 0 {
                if did_read_content {
                    result.push(' ');
                }
            } else {
                newlines(empty_lines, &mut result);
            }
        } else {
            let n = if did_read_content {
                1 + empty_lines
            } else {
                empty_lines
            };
            newlines(n, &mut result);
        }
        result.extend(content.iter());
        did_read_content = true;
        empty_lines = 0;
    }
    match chomping {
        Some('+') => {
            let n = if did_read_content {
                1 + empty_lines
            } else {
                empty_lines
            };
            newlines(n, &mut result);
        }
        None if did_read_content => result.push('\n'),
        _ => {}
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(yaml: &str) -> String {
        match read(yaml, 2) {
            Ok(v) => v.to_json(),
            Err(e) => panic!("{yaml:?}: {e:?}"),
        }
    }

    fn err(yaml: &str) -> (Option<usize>, String) {
        match read(yaml, 2) {
            Ok(v) => panic!("{yaml:?} read as {}", v.to_json()),
            Err(Stop::Refused { line, message }) => (line, message),
            Err(e) => panic!("{yaml:?}: {e:?}"),
        }
    }

    #[test]
    fn reads_the_subset() {
        assert_eq!(ok(""), "{}");
        assert_eq!(
            ok("name: a\ndescription: >-\n  x\n  y\nl:\n- 1\n- k: v\n  w: [a, 'b', {c: 1.0}]\n"),
            r#"{"name":"a","description":"x y","l":[1,{"k":"v","w":["a","b",{"c":1}]}]}"#
        );
        // The line break before the closing fence is part of a final `|+` block.
        assert_eq!(ok("a: |+\n  x\n\n"), r#"{"a":"x\n\n\n"}"#);
        assert_eq!(ok("a: x\n  y\n\n  z # c\n"), r#"{"a":"x y\nz"}"#);
        assert_eq!(ok("\"q\\u00e9\": 'it''s'\n"), r#"{"qé":"it's"}"#);
        assert_eq!(
            ok("a: 0x1F\nb: 0o17\nc: 1e3\nd: yes\ne: ~\n"),
            r#"{"a":31,"b":15,"c":1000,"d":"yes","e":null}"#
        );
    }

    #[test]
    fn refuses_what_the_sdk_refuses_with_its_messages() {
        let cases: &[(&str, usize, &str)] = &[
            ("a: \"x\n  y\"\n", 2, UNCLOSED_QUOTE),
            (
                "a: |2\n   x\n",
                2,
                "block scalar indentation indicators are not supported",
            ),
            (
                "a: &x 1\n",
                2,
                "anchors, aliases and tags are not supported",
            ),
            (
                "__proto__: 1\n",
                2,
                "the key \"__proto__\" is not supported",
            ),
            ("a: 1\n? b\n", 3, "complex keys (\"?\") are not supported"),
            ("a: [1,\n  2]\n", 2, UNCLOSED_FLOW),
            (
                "a: [b: 1]\n",
                2,
                "mappings inside flow collections are not supported; quote the value",
            ),
            (
                "{\"a\": 1}\n",
                2,
                "frontmatter must be a mapping of keys to values",
            ),
            ("a: 1\n...\n", 3, "expected \"key: value\""),
            ("a: x\n  \ty\n", 3, TAB_INDENT),
            (
                "\"a\" : 1\n",
                2,
                "frontmatter must be a mapping of keys to values",
            ),
            ("1: x\n", 2, "key \"1\" must be a string; quote it"),
            ("a: {b: }\n", 2, "empty value in a flow collection"),
            (
                "a: .inf\n",
                2,
                "\".inf\" cannot be represented in JSON; quote it",
            ),
        ];
        for (yaml, line, message) in cases {
            assert_eq!(err(yaml), (Some(*line), (*message).to_owned()), "{yaml:?}");
        }
        let deep = format!("a: {}{}\n", "[".repeat(33), "]".repeat(33));
        assert_eq!(
            err(&deep).1,
            "nesting deeper than 32 levels is not supported"
        );
        let ok32 = format!("a: {}{}\n", "[".repeat(32), "]".repeat(32));
        assert!(read(&ok32, 2).is_ok());
        assert_eq!(
            read("a: \"\\ud800\"\n", 2).err(),
            Some(Stop::Unrepresentable { line: 2 })
        );
    }
}
