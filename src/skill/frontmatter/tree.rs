//! YAML events → a node tree: the document as written, aliases not yet expanded. Tags,
//! directives and document markers are refused here, nesting is bounded, every plain scalar is
//! resolved (by `scalar`) and every event's text goes through the portability checks (of
//! `portable`).

use saphyr_parser::{Event, Parser, ScalarStyle, ScanError};

use super::error::{FrontmatterError, FrontmatterErrorKind, Result};
use super::portable::Source;
use super::scalar::resolve_plain;
use super::{Mode, MAX_DEPTH};
use crate::skill::value::Value;

/// A node of the document as written (aliases not expanded).
#[derive(Debug)]
pub(super) struct Node {
    pub(super) kind: NodeKind,
    /// Line of the node's start (with the offset added).
    pub(super) line: usize,
    /// Whether an anchor (`&name`) names this node.
    pub(super) anchored: bool,
}

/// What a node is: a resolved scalar, or a collection or alias by index into [`Tree::nodes`].
#[derive(Debug)]
pub(super) enum NodeKind {
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

/// The document as written: its nodes (children before parents) and the root, if any.
pub(super) struct Tree {
    pub(super) nodes: Vec<Node>,
    /// `None` for an empty document.
    pub(super) root: Option<usize>,
}

impl Tree {
    /// Reads the event stream into a node tree; refuses tags, markers, cycles and deep nesting,
    /// and resolves plain scalars.
    ///
    /// `text` is what the event parser reads (line breaks normalised, a final one added);
    /// `original` is the YAML as written, `offset` is added to every line number and
    /// `last_line` caps them; `tail` is a last line of spaces removed from `text` (its file line
    /// and length), for the portability checks; `mode` decides how plain scalars are typed.
    pub(super) fn read(
        text: &str,
        original: &str,
        offset: usize,
        last_line: usize,
        tail: Option<(usize, usize)>,
        mode: Mode,
    ) -> Result<Tree> {
        use FrontmatterErrorKind as K;
        let mut nodes: Vec<Node> = Vec::new();
        let mut stack: Vec<Frame> = Vec::new();
        let mut anchors: Vec<Option<usize>> = Vec::new();
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
                    let target = match anchors.get(id).copied().flatten() {
                        Some(t) => t,
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
                        ScalarStyle::Plain => resolve_plain(&text, is_key, line, mode)?,
                        _ => Value::String(text.into_owned()),
                    };
                    let idx = push_node(&mut nodes, NodeKind::Scalar(value), line, anchor != 0);
                    if anchor != 0 {
                        set_anchor(&mut anchors, anchor, idx);
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
                        set_anchor(&mut anchors, frame.anchor, idx);
                    }
                    attach(&mut stack, &mut root, idx);
                }
            }
        }
        src.finish(offset)?;
        Ok(Tree { nodes, root })
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

pub(super) fn too_deep(line: usize) -> FrontmatterError {
    FrontmatterError::new(
        FrontmatterErrorKind::TooDeep,
        Some(line),
        format!("sequences and mappings nested more than {MAX_DEPTH} levels deep"),
        "flatten the structure",
    )
}

/// Records that anchor `id` names node `idx`: `anchors` holds the node of each anchor by
/// saphyr's anchor id (1, 2, … in the order anchors appear, so the vector stays as long as the
/// text has anchors).
fn set_anchor(anchors: &mut Vec<Option<usize>>, id: usize, idx: usize) {
    if anchors.len() <= id {
        anchors.resize(id + 1, None);
    }
    anchors[id] = Some(idx);
}
