//! The text side of search: what a skill's fields and a query are cut into (terms), the
//! headings of a `SKILL.md`, and the tags of a skill (`metadata.tags`). The writer and the
//! query use the same functions, so a word is the same term on both sides.

use crate::skill::value::Value;

/// The longest term kept, in characters; longer runs (hashes, base64) are not words.
const MAX_TERM_CHARS: usize = 32;
/// The most tags one skill may declare.
pub(crate) const MAX_TAGS: usize = 16;
/// The longest tag, in characters (the length of a skill name).
pub(crate) const MAX_TAG_CHARS: usize = 64;
/// The most headings of a `SKILL.md` indexed.
const MAX_HEADINGS: usize = 64;

/// Words too common in how people ask for a skill to tell skills apart. BM25 would weigh
/// them down anyway; leaving them out keeps the postings a query touches short.
const STOP_WORDS: [&str; 60] = [
    "a", "about", "an", "and", "any", "are", "as", "at", "be", "by", "can", "do", "does", "for",
    "from", "get", "help", "how", "i", "if", "in", "into", "is", "it", "its", "me", "my", "need",
    "of", "on", "or", "our", "please", "so", "some", "that", "the", "their", "them", "then",
    "there", "these", "this", "to", "up", "use", "using", "want", "was", "we", "what", "when",
    "which", "while", "who", "will", "with", "would", "you", "your",
];

/// The terms of `text`, in order (repeats kept): runs of letters and digits, lowercased,
/// stop words and single characters left out, each stemmed ([`stem`]).
pub(crate) fn terms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut flush = |word: &mut String| {
        let n = word.chars().count();
        if (2..=MAX_TERM_CHARS).contains(&n) && STOP_WORDS.binary_search(&word.as_str()).is_err() {
            out.push(stem(word));
        }
        word.clear();
    };
    for ch in text.chars() {
        if ch.is_alphanumeric() {
            word.extend(ch.to_lowercase());
        } else {
            flush(&mut word);
        }
    }
    flush(&mut word);
    out
}

/// A light English stemmer: one inflection suffix (`-ies`, `-ing`, `-ed`, `-es`, `-s`), then a
/// final `e`, so that "create", "creates", "created" and "creating" are one term. It only
/// ever removes a suffix, never rewrites a word beyond `-ies` → `-y`; words that are not ASCII
/// are kept as they are.
pub(crate) fn stem(word: &str) -> String {
    if !word.is_ascii() || word.len() <= 3 {
        return word.to_owned();
    }
    let mut w = word;
    let owned;
    if let Some(base) = w.strip_suffix("ies").filter(|b| b.len() >= 2) {
        owned = format!("{base}y");
        return owned;
    }
    if let Some(base) = w.strip_suffix("ing").filter(|b| b.len() >= 3) {
        w = base;
    } else if let Some(base) = w.strip_suffix("ed").filter(|b| b.len() >= 3) {
        w = base;
    } else if let Some(base) = w.strip_suffix("es").filter(|b| {
        b.len() >= 3 && (b.ends_with(['s', 'x', 'z']) || b.ends_with("ch") || b.ends_with("sh"))
    }) {
        w = base;
    } else if let Some(base) = w
        .strip_suffix('s')
        .filter(|b| b.len() >= 3 && !b.ends_with(['s', 'u', 'i']))
    {
        w = base;
    }
    if let Some(base) = w.strip_suffix('e').filter(|b| b.len() >= 3) {
        w = base;
    }
    w.to_owned()
}

/// The headings of a `SKILL.md` (its ATX headings, `#` to `######`, outside fenced code),
/// after the frontmatter, at most [`MAX_HEADINGS`], joined by newlines.
pub(crate) fn headings(skill_md: &str) -> String {
    let body = crate::skill::frontmatter::split_strict(skill_md)
        .ok()
        .and_then(|b| skill_md.get(b.body_start..))
        .unwrap_or(skill_md);
    let mut out = String::new();
    let mut fence: Option<&str> = None;
    let mut n = 0;
    for line in body.lines() {
        let t = line.trim_start();
        if let Some(f) = fence {
            if t.starts_with(f) {
                fence = None;
            }
            continue;
        }
        if t.starts_with("```") || t.starts_with("~~~") {
            fence = Some(if t.starts_with('`') { "```" } else { "~~~" });
            continue;
        }
        let hashes = t.len() - t.trim_start_matches('#').len();
        let rest = &t[hashes..];
        if (1..=6).contains(&hashes) && (rest.is_empty() || rest.starts_with([' ', '\t'])) {
            out.push_str(rest.trim().trim_end_matches('#').trim());
            out.push('\n');
            n += 1;
            if n == MAX_HEADINGS {
                break;
            }
        }
    }
    out
}

/// The tags of a skill: `metadata.tags`, a string of tags separated by commas (the Agent
/// Skills format makes `metadata` a map of strings to strings, so a list is written as one
/// string). Each tag trimmed; empty items left out. The compiler checks them
/// ([`check_tags`]) before an index is written.
pub(crate) fn tags_of(frontmatter: &Value) -> Vec<String> {
    match frontmatter.get("metadata").and_then(|m| m.get("tags")) {
        Some(Value::String(s)) => split_tags(s),
        _ => Vec::new(),
    }
}

fn split_tags(s: &str) -> Vec<String> {
    s.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
        .collect()
}

/// What is wrong with `metadata.tags` (its value `s`), if anything: each tag 1 to
/// [`MAX_TAG_CHARS`] characters of `a-z`, `0-9` and single inner hyphens (the grammar of a
/// skill name), at most [`MAX_TAGS`] of them, none twice.
pub(crate) fn check_tags(s: &str) -> Option<String> {
    let tags = split_tags(s);
    if tags.is_empty() {
        return Some("`metadata.tags` names no tag".into());
    }
    // An empty tag between commas (`pdf,,forms`) is a typo, not a tag left out on purpose.
    if s.split(',').any(|t| t.trim().is_empty()) {
        return Some(
            "`metadata.tags` has an empty tag (two commas in a row, or one at an end): separate the tags by single commas".into(),
        );
    }
    if tags.len() > MAX_TAGS {
        return Some(format!(
            "`metadata.tags` names {} tags; a skill has at most {MAX_TAGS}",
            tags.len()
        ));
    }
    for (k, t) in tags.iter().enumerate() {
        let ok = t.len() <= MAX_TAG_CHARS
            && t.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            && !t.starts_with('-')
            && !t.ends_with('-')
            && !t.contains("--");
        if !ok {
            return Some(format!(
                "the tag {t:?} of `metadata.tags` is not 1–{MAX_TAG_CHARS} characters of a-z, 0-9 and single inner hyphens"
            ));
        }
        if tags[..k].contains(t) {
            return Some(format!("`metadata.tags` names the tag {t:?} twice"));
        }
    }
    None
}

/// The 1-based line of `metadata.tags` in a `SKILL.md`: the first line of its frontmatter, from
/// the line of `metadata` on, where `tags` (plain, or in single or double quotes) is a key (at
/// the line's start, or after `{`, `,` or `? ` in a flow mapping), else the line of `metadata`.
/// A key written with escapes (`"ta\u0067s"`) is found at `metadata`'s line.
pub(crate) fn tags_line(skill_md: &str) -> Option<usize> {
    let block = crate::skill::frontmatter::split_strict(skill_md).ok()?;
    let lines: Vec<&str> = block.yaml.lines().collect();
    let from = lines.iter().position(|l| has_key(l, "metadata"))?;
    let at = lines[from..]
        .iter()
        .position(|l| has_key(l, "tags"))
        .map_or(from, |k| from + k);
    Some(block.first_line + at)
}

/// Whether `line` holds `key` as a YAML mapping key: `key`, `"key"` or `'key'`, then optional
/// spaces and `:`, at the line's start (after indentation, `- ` or `? `) or after `{` or `,`.
fn has_key(line: &str, key: &str) -> bool {
    let mut from = 0;
    while let Some(k) = line[from..].find(key) {
        let i = from + k;
        from = i + key.len();
        // The key may be quoted: step back over one quote before it.
        let (start, quote) = match line[..i].chars().next_back() {
            Some(q @ ('"' | '\'')) => (i - 1, Some(q)),
            _ => (i, None),
        };
        let before = line[..start].trim_end_matches([' ', '\t']);
        let at_key = match before.chars().next_back() {
            None => true,
            Some('{' | ',') => true,
            Some('-' | '?') => before[..before.len() - 1].trim().is_empty(),
            _ => false,
        };
        let mut after = &line[from..];
        if let Some(q) = quote {
            match after.strip_prefix(q) {
                Some(rest) => after = rest,
                None => continue,
            }
        }
        if at_key && after.trim_start_matches([' ', '\t']).starts_with(':') {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inflections_of_a_word_are_one_term() {
        for group in [
            ["create", "creates", "created", "creating"],
            ["image", "images", "imaged", "imaging"],
        ] {
            let stems: Vec<String> = group.iter().map(|w| stem(w)).collect();
            assert!(
                stems.windows(2).all(|p| p[0] == p[1]),
                "{group:?} → {stems:?}"
            );
        }
        assert_eq!(stem("queries"), "query");
        assert_eq!(stem("class"), "class");
        assert_eq!(stem("status"), "status");
    }

    #[test]
    fn terms_drop_stop_words_and_punctuation() {
        assert_eq!(
            terms("How do I merge two PDF files?"),
            vec!["merg", "two", "pdf", "fil"]
        );
        assert!(terms("?!... -- ,,").is_empty());
        assert_eq!(terms("Übersetzung DE→EN"), vec!["übersetzung", "de", "en"]);
    }

    #[test]
    fn stop_words_are_sorted_for_binary_search() {
        assert!(STOP_WORDS.windows(2).all(|p| p[0] < p[1]));
    }

    #[test]
    fn headings_skip_fenced_code() {
        let md = "---\nname: a\ndescription: b\n---\n# Title\n```sh\n# not a heading\n```\n## Step two ##\n#nospace\n";
        assert_eq!(headings(md), "Title\nStep two\n");
    }

    #[test]
    fn the_line_of_tags_is_found_in_every_key_form() {
        for (yaml, line) in [
            ("metadata:\n  owner: x\n  tags: a\n", 6),
            ("metadata:\n  owner: x\n  \"tags\": [a]\n", 6),
            ("metadata:\n  owner: x\n  'tags': [a]\n", 6),
            ("metadata:\n  owner: x\n  tags : [a]\n", 6),
            ("metadata: {owner: x, tags: [a]}\n", 4),
            ("metadata:\n  {owner: x,\n   tags: [a]}\n", 6),
            ("metadata:\n  - x\n  ? tags\n  : a\n", 4),
            ("metadata:\n  owner: \"tags: no\"\n  tags: a\n", 6),
            ("metadata:\n  owner: x\n  \"ta\\u0067s\": a\n", 4),
        ] {
            let md = format!("---\nname: a\ndescription: b tags: c\n{yaml}---\n");
            assert_eq!(tags_line(&md), Some(line), "{yaml}");
        }
    }

    #[test]
    fn tags_follow_the_name_grammar() {
        assert_eq!(check_tags("pdf, forms"), None);
        assert!(check_tags("PDF").unwrap().contains("\"PDF\""));
        assert!(check_tags("a, a").unwrap().contains("twice"));
        assert!(check_tags(" , ").unwrap().contains("no tag"));
        assert!(check_tags("pdf,,forms").unwrap().contains("empty tag"));
        assert!(check_tags("pdf, forms,").unwrap().contains("empty tag"));
        let many = (0..17)
            .map(|i| format!("t{i}"))
            .collect::<Vec<_>>()
            .join(",");
        assert!(check_tags(&many).unwrap().contains("at most 16"));
    }
}
