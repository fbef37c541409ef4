//! The delimiters: where the YAML block starts and ends in a `SKILL.md`, strictly (for
//! publishing) or leniently (as hosts and the conformance suite read it).

use super::error::{truncate, FrontmatterError, FrontmatterErrorKind, Result};

/// Where the YAML block sits in the file.
///
/// ```
/// use skills_edge::skill::frontmatter::{split_lenient, split_strict};
/// let file = "---\nname: hello\ndescription: Say hello.\n---\n# Hello\n";
/// let block = split_strict(file).unwrap();
/// assert_eq!((block.yaml, block.first_line), ("name: hello\ndescription: Say hello.", 2));
/// assert_eq!(&file[block.body_start..], "# Hello\n");
/// assert_eq!(split_lenient(file).unwrap(), block);
/// ```
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
/// use skills_edge::skill::frontmatter::split_strict;
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
        if let Some(tail) = content.strip_prefix("---")
            && !tail.is_empty()
            && tail.bytes().all(|b| b == b' ' || b == b'\t')
        {
            return Err(FrontmatterError::new(
                    K::AmbiguousFence,
                    Some(line_no),
                    "a `---` line with trailing spaces or tabs inside the frontmatter: lenient readers end the block here, strict ones do not",
                    "remove the trailing whitespace so the line is exactly `---` (if it closes the frontmatter), or remove the line",
                ));
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
/// use skills_edge::skill::frontmatter::split_lenient;
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
