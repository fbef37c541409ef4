//! The constructs of accepted YAML that the SDK 2.4 reader cannot read, found one by one in the
//! event stream and the source lines, so that every one of them is reported (the SDK itself
//! stops at the first).

use saphyr_parser::{Event, Parser, ScalarStyle, Span};

use super::reader::SDK_MAX_DEPTH;
use super::SdkRule;

/// One construct: its rule, its line (of the file) and what it is, in words.
pub(super) struct Construct {
    pub(super) rule: SdkRule,
    pub(super) line: usize,
    pub(super) what: String,
}

/// An open collection while walking the events.
struct Frame {
    is_map: bool,
    flow: bool,
    /// Line of its start (of the parsed text).
    line: usize,
    /// For mappings: whether the next node is a key.
    expect_key: bool,
}

/// The source as lines of characters, for looking around events.
struct Source {
    lines: Vec<Vec<char>>,
}

impl Source {
    fn char_at(&self, line: usize, col: usize) -> Option<char> {
        line.checked_sub(1)
            .and_then(|l| self.lines.get(l))
            .and_then(|l| l.get(col))
            .copied()
    }

    fn line(&self, line: usize) -> &[char] {
        line.checked_sub(1)
            .and_then(|l| self.lines.get(l))
            .map_or(&[], Vec::as_slice)
    }

    /// The block scalar header after (`line`, `col`), the end of the previous event: the first
    /// `|` or `>` outside comments. Returns its line and the header's characters.
    fn block_header(&self, line: usize, col: usize) -> Option<(usize, &[char])> {
        let mut n = line;
        let mut c = col;
        while n <= self.lines.len() {
            let text = self.line(n);
            while let Some(&ch) = text.get(c) {
                let after_blank = c == 0 || matches!(text.get(c - 1), Some(' ' | '\t'));
                if ch == '#' && after_blank {
                    break;
                }
                if ch == '|' || ch == '>' {
                    let end = text
                        .iter()
                        .skip(c)
                        .position(|x| matches!(x, ' ' | '\t'))
                        .map_or(text.len(), |p| c + p);
                    return Some((n, text.get(c..end).unwrap_or(&[])));
                }
                c += 1;
            }
            n += 1;
            c = 0;
        }
        None
    }

    /// Whether the node starting at (`line`, `col`) is an explicit key: a `?` indicator before
    /// it (on its line, or ending an earlier line with only blank lines between; comments
    /// ignored). Returns the line of the `?`.
    fn explicit_key(&self, line: usize, col: usize) -> Option<usize> {
        let mut n = line;
        let mut c = col;
        loop {
            let text = self.line(n);
            let before = text.get(..c).unwrap_or(text);
            let before = before.get(..comment_start(before)).unwrap_or(before);
            let trimmed = before.len()
                - before
                    .iter()
                    .rev()
                    .take_while(|x| matches!(x, ' ' | '\t'))
                    .count();
            if trimmed > 0 {
                let indicator = before.get(trimmed - 1) == Some(&'?')
                    && (trimmed == 1
                        || matches!(
                            before.get(trimmed - 2),
                            Some(' ' | '\t' | '-' | '{' | '[' | ',')
                        ));
                return indicator.then_some(n);
            }
            if n <= 1 {
                return None;
            }
            n -= 1;
            c = self.line(n).len();
        }
    }
}

/// Every construct of `text` (YAML the publishing reader accepted, line breaks LF) that the
/// SDK 2.4 reader cannot read; `offset` is added to every line. Text the event parser refuses
/// yields nothing (the caller only passes accepted text).
pub(super) fn find(text: &str, offset: usize) -> Vec<Construct> {
    let mut text = text.replace("\r\n", "\n");
    if !text.ends_with('\n') {
        text.push('\n');
    }
    let src = Source {
        lines: text.split('\n').map(|l| l.chars().collect()).collect(),
    };
    let mut out: Vec<Construct> = Vec::new();
    let mut push = |rule: SdkRule, line: usize, what: String| {
        out.push(Construct {
            rule,
            line: line + offset,
            what,
        })
    };
    let mut stack: Vec<Frame> = Vec::new();
    let mut prev_end: (usize, usize) = (1, 0);
    let mut parser = Parser::new_from_str(&text);
    while let Some(Ok((event, span))) = parser.next_event() {
        let (start, end) = (span.start, span.end);
        let in_flow = stack.iter().any(|f| f.flow);
        // Whether this node is a mapping key; the parent mapping expects a value next.
        let node = matches!(
            event,
            Event::Scalar(..)
                | Event::Alias(_)
                | Event::SequenceStart(..)
                | Event::MappingStart(..)
        );
        let mut is_key = false;
        if node && let Some(top) = stack.last_mut().filter(|f| f.is_map) {
            is_key = top.expect_key;
            top.expect_key = !top.expect_key;
        }
        if is_key && let Some(q) = src.explicit_key(start.line(), start.col()) {
            push(
                SdkRule::ExplicitKey,
                q,
                "an explicit key (`? key`)".to_owned(),
            );
        }
        match &event {
            Event::Alias(_) => push(
                SdkRule::Anchor,
                start.line(),
                "an alias (`*name`)".to_owned(),
            ),
            Event::Scalar(value, style, anchor, _) => {
                if *anchor != 0 {
                    push(
                        SdkRule::Anchor,
                        start.line(),
                        "an anchor (`&name`)".to_owned(),
                    );
                }
                scalar(
                    &src, &mut push, value, *style, &span, prev_end, is_key, in_flow,
                );
            }
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                if *anchor != 0 {
                    push(
                        SdkRule::Anchor,
                        start.line(),
                        "an anchor (`&name`)".to_owned(),
                    );
                }
                let is_map = matches!(event, Event::MappingStart(..));
                let flow = (start.line(), start.col()) != (end.line(), end.col())
                    && end
                        .col()
                        .checked_sub(1)
                        .and_then(|c| src.char_at(end.line(), c))
                        .is_some_and(|c| c == '[' || c == '{');
                if stack.is_empty() && flow {
                    push(
                        SdkRule::FlowRoot,
                        start.line(),
                        "the whole frontmatter written as one flow mapping (`{...}`)".to_owned(),
                    );
                }
                if is_map
                    && (start.line(), start.col()) == (end.line(), end.col())
                    && stack.last().is_some_and(|f| f.flow && !f.is_map)
                {
                    push(
                        SdkRule::FlowMapping,
                        start.line(),
                        "a `key: value` pair inside a flow sequence (`[key: value]`)".to_owned(),
                    );
                }
                if stack.len() == SDK_MAX_DEPTH + 1 {
                    push(
                        SdkRule::TooDeep,
                        start.line(),
                        format!("a collection nested {} levels deep", stack.len()),
                    );
                }
                stack.push(Frame {
                    is_map,
                    flow,
                    line: start.line(),
                    expect_key: true,
                });
            }
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some(frame) = stack.pop() {
                    let outermost = !stack.iter().any(|f| f.flow);
                    if frame.flow && outermost && !stack.is_empty() && start.line() > frame.line {
                        push(
                            SdkRule::MultilineFlow,
                            frame.line,
                            format!(
                                "a flow collection (`[...]`/`{{...}}`) over lines {}–{}",
                                frame.line + offset,
                                start.line() + offset
                            ),
                        );
                    }
                }
            }
            _ => {}
        }
        prev_end = (end.line(), end.col());
    }
    for (i, line) in src.lines.iter().enumerate() {
        let marker =
            line.starts_with(&['.', '.', '.']) && matches!(line.get(3), None | Some(' ' | '\t'));
        if marker {
            push(
                SdkRule::DocumentEnd,
                i + 1,
                "the document end marker `...`".to_owned(),
            );
        }
    }
    out.sort_by_key(|c| c.line);
    out
}

/// The checks of one scalar event.
#[allow(clippy::too_many_arguments)]
fn scalar(
    src: &Source,
    push: &mut impl FnMut(SdkRule, usize, String),
    value: &str,
    style: ScalarStyle,
    span: &Span,
    prev_end: (usize, usize),
    is_key: bool,
    in_flow: bool,
) {
    let (start, end) = (span.start, span.end);
    match style {
        ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => {
            if end.line() > start.line() {
                push(
                    SdkRule::MultilineQuoted,
                    start.line(),
                    "a quoted value that continues on the next line".to_owned(),
                );
            }
            // The event parser's span of a quoted key ends at its `:`, white space included.
            let blank = |col: Option<usize>| {
                col.and_then(|c| src.char_at(end.line(), c))
                    .is_some_and(|c| c == ' ' || c == '\t')
            };
            if is_key && !in_flow && (blank(end.col().checked_sub(1)) || blank(Some(end.col()))) {
                push(
                    SdkRule::KeySpacing,
                    start.line(),
                    "white space between a quoted key and its `:`".to_owned(),
                );
            }
        }
        ScalarStyle::Literal | ScalarStyle::Folded => {
            if let Some((line, header)) = src.block_header(prev_end.0, prev_end.1)
                && header.iter().any(char::is_ascii_digit)
            {
                let shown: String = header.iter().collect();
                push(
                    SdkRule::IndentIndicator,
                    line,
                    format!("the block scalar header `{shown}` with an indentation indicator"),
                );
            }
        }
        ScalarStyle::Plain => {
            if value.is_empty() && in_flow {
                push(
                    SdkRule::FlowEmptyValue,
                    start.line(),
                    "a key without a value in a flow collection (`{a: }`, `{a}`)".to_owned(),
                );
            }
            if !in_flow {
                for n in start.line() + 1..=end.line() {
                    let line = src.line(n);
                    let spaces = line.iter().take_while(|c| **c == ' ').count();
                    if line.get(spaces) == Some(&'\t') {
                        push(
                            SdkRule::TabIndent,
                            n,
                            "a continuation line indented with a tab".to_owned(),
                        );
                    }
                }
            }
        }
    }
    if is_key && value == "__proto__" {
        push(
            SdkRule::ProtoKey,
            start.line(),
            "the key `__proto__`".to_owned(),
        );
    }
}

/// Where a comment starts in `text` (a `#` at its start or after white space), or its length.
fn comment_start(text: &[char]) -> usize {
    text.iter()
        .enumerate()
        .position(|(i, c)| *c == '#' && (i == 0 || matches!(text.get(i - 1), Some(' ' | '\t'))))
        .unwrap_or(text.len())
}
