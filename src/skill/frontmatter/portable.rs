//! The portability checks: raw characters and layouts that `yaml@2`, this event parser and
//! YAML 1.1 readers read differently (or that YAML forbids), refused before or while the tree
//! is read, so that whatever is accepted reads the same everywhere.
//!
//! [`check_characters`] runs on the text before it is parsed; [`Source`] holds the parsed text
//! as lines and is asked about each event's span by `Tree::read`.

use saphyr_parser::{ScalarStyle, Span};

use super::error::{truncate, FrontmatterError, FrontmatterErrorKind, Result};
use super::{Mode, MAX_KEY_UTF16};

/// Refuses raw characters that YAML forbids (C0/C1 controls other than tab and line breaks,
/// DEL, U+FFFE/U+FFFF), a carriage return not followed by a line feed, the byte order mark
/// inside the block, and U+0085/U+2028/U+2029 (line breaks in YAML 1.1, content in 1.2; accepted
/// as content in [`Mode::Host`]).
pub(super) fn check_characters(yaml: &str, offset: usize, mode: Mode) -> Result<()> {
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
            '\u{85}' | '\u{2028}' | '\u{2029}' if mode == Mode::Host => continue,
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

/// The parsed text as lines, for the checks that keep accepted YAML inside what both this
/// event parser and `yaml@2` read the same way.
pub(super) struct Source<'t> {
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
    pub(super) fn new(text: &'t str, tail: Option<(usize, usize)>) -> Self {
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

    pub(super) fn char_before(&self, line: usize, col: usize) -> Option<char> {
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
    pub(super) fn finish(&self, offset: usize) -> Result<()> {
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
    pub(super) fn check_key_length(&self, span: &Span, offset: usize) -> Result<()> {
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
    pub(super) fn check_anchor(&self, span: &Span, offset: usize) -> Result<()> {
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
    pub(super) fn check_scalar(
        &mut self,
        value: &str,
        style: ScalarStyle,
        span: &Span,
        parent_col: Option<usize>,
        offset: usize,
    ) -> Result<()> {
        let (start, end) = (span.start, span.end);
        if !(value.is_empty() && (start.line(), start.col()) == (end.line(), end.col())) {
            // (An empty plain scalar is the implied null of a value-less key.)
            self.last_block = None;
        }
        if let Some(col) = parent_col
            && !matches!(style, ScalarStyle::Literal | ScalarStyle::Folded)
            && end.line() > start.line()
        {
            self.scalar_lines
                .push((start.line() + 1, end.line(), col + 1));
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
    pub(super) fn check_flow_lines(
        &self,
        first: usize,
        end: &Span,
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
