//! Frontmatter every host can read: a portability lint for the YAML subset of the official MCP
//! TypeScript SDK 2.4.
//!
//! `@modelcontextprotocol/client` 2.4.0 (`SkillsClient.read`) and `@modelcontextprotocol/server`
//! 2.4.0 (`SkillsExtension.load`) read `SKILL.md` frontmatter with a built-in reader of "the
//! YAML subset real skills use", which refuses everything outside it. A skill that uses such a
//! construct builds here (the publishing reader accepts full YAML 1.2, read as `yaml@2` reads
//! it) and then fails to load in every host built on that SDK. [`check`] finds them, for the
//! compiler to report as warnings (errors in strict mode).
//!
//! Two mechanisms, both needed: `constructs` walks the YAML events and names **every**
//! construct outside the subset (the SDK stops at the first), each with its line and a fix;
//! `reader` is a model of the SDK's reader, step for step, which decides: when it reads the
//! text and gets the published value, there is nothing to report; when it refuses the text at a
//! line no construct was found on, that refusal is reported in the SDK's words
//! ([`SdkRule::Unreadable`]); when it reads another value, that is reported
//! ([`SdkRule::ReadsDifferently`]). `tests/js/sdk-subset.test.mjs` serves every accepted
//! corpus case and reads it back with the real `SkillsClient.read`: no finding must mean the
//! SDK reads exactly the published frontmatter, a finding must mean it fails.
//!
//! ```
//! use skills_edge::skill::frontmatter::{parse_file_strict, split_strict};
//! use skills_edge::skill::frontmatter::sdk_subset::{check, SdkRule};
//!
//! let file = "---\nname: a\ndescription: \"Reads PDFs.\n  Use for forms.\"\nbase: &b [x]\ncopy: *b\n---\n";
//! let published = parse_file_strict(file).unwrap();
//! let found = check(&split_strict(file).unwrap(), &published);
//! let rules: Vec<_> = found.iter().map(|f| (f.rule.id(), f.line)).collect();
//! assert_eq!(rules, [
//!     ("frontmatter-sdk-multiline-quoted", Some(3)),
//!     ("frontmatter-sdk-anchor", Some(5)),
//!     ("frontmatter-sdk-anchor", Some(6)),
//! ]);
//! let plain = "---\nname: a\ndescription: Reads PDFs.\n---\n";
//! assert!(check(&split_strict(plain).unwrap(), &parse_file_strict(plain).unwrap()).is_empty());
//! ```

mod constructs;
mod reader;

use std::collections::HashMap;

use super::Block;
use crate::skill::value::Value;
use reader::{Stop, SDK_MAX_DEPTH};

/// A construct outside the SDK 2.4 reader's subset, as a stable rule
/// (`SdkRule::id`).
///
/// ```
/// use skills_edge::catalog::diag::{Rule, SdkRule, Severity};
/// use skills_edge::catalog::{compile::SourceTree, Catalog, CatalogError};
/// let mut tree = SourceTree::default();
/// tree.add_file("a/SKILL.md", "---\nname: a\ndescription: &d Skill a.\nsummary: *d\n---\n");
/// tree.add_file("b/SKILL.md", "---\nname: b\n---\n");
/// let Err(CatalogError::Compile(e)) = Catalog::compile(tree, None) else { panic!("b has no description") };
/// let warning = e.diagnostics.iter().find(|d| d.severity == Severity::Warning).unwrap();
/// assert_eq!(warning.rule, Rule::SdkSubset(SdkRule::Anchor));
/// assert_eq!(SdkRule::Anchor.id(), "frontmatter-sdk-anchor");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SdkRule {
    /// A single- or double-quoted value that continues on the next line.
    MultilineQuoted,
    /// A block scalar header with an indentation indicator (`|2`, `>-1`).
    IndentIndicator,
    /// An anchor (`&name`) or an alias (`*name`).
    Anchor,
    /// The key `__proto__`.
    ProtoKey,
    /// An explicit key (`? key` / `: value`).
    ExplicitKey,
    /// A flow collection (`[...]`, `{...}`) over several lines.
    MultilineFlow,
    /// A `key: value` pair inside a flow sequence (`[a: 1]`).
    FlowMapping,
    /// A key without a value inside a flow collection (`{a: }`, `{a}`).
    FlowEmptyValue,
    /// Collections nested deeper than the SDK's 32 levels.
    TooDeep,
    /// The whole frontmatter as one flow mapping (a JSON-style `{...}` root).
    FlowRoot,
    /// The document end marker `...`.
    DocumentEnd,
    /// A continuation line of a plain value indented with a tab.
    TabIndent,
    /// White space between a quoted key and its `:` (`"key" : value`).
    KeySpacing,
    /// Anything else the SDK reader refuses (the message quotes it).
    Unreadable,
    /// The SDK reader reads a value other than the published one.
    ReadsDifferently,
}

impl SdkRule {
    /// Every rule, in declaration order.
    #[cfg(test)]
    pub(crate) const ALL: [SdkRule; 15] = [
        SdkRule::MultilineQuoted,
        SdkRule::IndentIndicator,
        SdkRule::Anchor,
        SdkRule::ProtoKey,
        SdkRule::ExplicitKey,
        SdkRule::MultilineFlow,
        SdkRule::FlowMapping,
        SdkRule::FlowEmptyValue,
        SdkRule::TooDeep,
        SdkRule::FlowRoot,
        SdkRule::DocumentEnd,
        SdkRule::TabIndent,
        SdkRule::KeySpacing,
        SdkRule::Unreadable,
        SdkRule::ReadsDifferently,
    ];

    /// The stable kebab-case rule id, e.g. `"frontmatter-sdk-anchor"`.
    pub fn id(self) -> &'static str {
        match self {
            SdkRule::MultilineQuoted => "frontmatter-sdk-multiline-quoted",
            SdkRule::IndentIndicator => "frontmatter-sdk-indent-indicator",
            SdkRule::Anchor => "frontmatter-sdk-anchor",
            SdkRule::ProtoKey => "frontmatter-sdk-proto-key",
            SdkRule::ExplicitKey => "frontmatter-sdk-explicit-key",
            SdkRule::MultilineFlow => "frontmatter-sdk-multiline-flow",
            SdkRule::FlowMapping => "frontmatter-sdk-flow-mapping",
            SdkRule::FlowEmptyValue => "frontmatter-sdk-flow-empty-value",
            SdkRule::TooDeep => "frontmatter-sdk-too-deep",
            SdkRule::FlowRoot => "frontmatter-sdk-flow-root",
            SdkRule::DocumentEnd => "frontmatter-sdk-document-end",
            SdkRule::TabIndent => "frontmatter-sdk-tab-indent",
            SdkRule::KeySpacing => "frontmatter-sdk-key-spacing",
            SdkRule::Unreadable => "frontmatter-sdk-unreadable",
            SdkRule::ReadsDifferently => "frontmatter-sdk-reads-differently",
        }
    }

    /// What to write instead.
    pub(crate) fn fix(self) -> &'static str {
        match self {
            SdkRule::MultilineQuoted => "write the value on one line, or as a folded block scalar (`description: >-` and the text indented on the lines below)",
            SdkRule::IndentIndicator => "remove the digit from the header (`|`, `|-`, `>-`, …) and indent the text evenly; if it must start with spaces, write a double-quoted string with `\\n` escapes",
            SdkRule::Anchor => "write the value out in each place instead of `&name` and `*name`",
            SdkRule::ProtoKey => "rename the key",
            SdkRule::ExplicitKey => "write `key: value` on one line instead of `? key` and `: value`",
            SdkRule::MultilineFlow => "write the `[...]`/`{...}` on one line, or as a block list (`- item` lines) or block mapping",
            SdkRule::FlowMapping => "wrap the pair in braces (`[{key: value}]`), or quote the item if it is text",
            SdkRule::FlowEmptyValue => "write a value after `key: ` (`null` if it is meant to be empty)",
            SdkRule::TooDeep => "nest sequences and mappings at most 32 levels deep",
            SdkRule::FlowRoot => "write the frontmatter as `key: value` lines instead of one `{...}` mapping",
            SdkRule::DocumentEnd => "remove the `...` line",
            SdkRule::TabIndent => "indent the continuation line with spaces only",
            SdkRule::KeySpacing => "remove the white space before the `:` (`\"key\": value`)",
            SdkRule::Unreadable => "rewrite this line in the SDK's subset: block mappings and lists, plain, quoted and block scalars, one-line `[...]`/`{...}`, comments",
            SdkRule::ReadsDifferently => "write the value so that every reader reads it the same: quote it, or write it on one line",
        }
    }
}

/// One construct the SDK 2.4 reader cannot read, or reads differently.
///
/// ```
/// use skills_edge::skill::frontmatter::{parse_file_strict, split_strict};
/// use skills_edge::skill::frontmatter::sdk_subset::{check, SdkRule};
/// let file = "---\nname: a\ndescription: \"Two\n  lines\"\n---\n";
/// let published = parse_file_strict(file).unwrap();
/// let findings = check(&split_strict(file).unwrap(), &published);
/// assert_eq!((findings[0].rule, findings[0].line), (SdkRule::MultilineQuoted, Some(3)));
/// assert!(findings[0].fix.starts_with("write the value on one line"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SdkFinding {
    /// The rule.
    pub rule: SdkRule,
    /// The 1-based line of the file, when the finding has one.
    pub line: Option<usize>,
    /// What it is and why it matters, in one sentence.
    pub message: String,
    /// What to write instead.
    pub fix: String,
}

const WHY: &str = "the frontmatter reader of the official MCP TypeScript SDK 2.4 cannot read it, so hosts and servers built on that SDK refuse this skill";

/// Every construct of `block` that the SDK 2.4 reader cannot read (or reads differently), in
/// line order; `published` is what the publishing reader read from the same block
/// (`parse_file_strict`). Empty when the SDK reads exactly
/// `published`. Meant for blocks the publishing reader accepted; for others the findings say
/// nothing useful.
pub fn check(block: &Block<'_>, published: &Value) -> Vec<SdkFinding> {
    let offset = block.first_line.saturating_sub(1);
    let found = |rule: SdkRule, line: Option<usize>, message: String| SdkFinding {
        rule,
        line,
        message,
        fix: rule.fix().to_owned(),
    };
    let differs = |sdk: &Value| {
        let (path, ours, theirs) = first_difference(published, sdk, String::new());
        let shown = if path.is_empty() {
            "the frontmatter".to_owned()
        } else {
            format!("`{path}`")
        };
        found(
            SdkRule::ReadsDifferently,
            None,
            format!(
                "the frontmatter reader of the official MCP TypeScript SDK 2.4 reads {shown} as {theirs} where this build publishes {ours}, so hosts on that SDK refuse this SKILL.md as not matching its entry"
            ),
        )
    };
    let stop = match reader::read(block.yaml, block.first_line) {
        Ok(sdk) if sdk.same_content(published) => return Vec::new(),
        Ok(sdk) => return vec![differs(&sdk)],
        Err(stop) => stop,
    };
    let mut out: Vec<SdkFinding> = constructs::find(block.yaml, offset)
        .into_iter()
        .map(|c| {
            let message = match c.rule {
                SdkRule::TooDeep => {
                    format!("{} (the SDK reads at most {SDK_MAX_DEPTH}): {WHY}", c.what)
                }
                _ => format!("{}: {WHY}", c.what),
            };
            found(c.rule, Some(c.line), message)
        })
        .collect();
    match stop {
        Stop::Refused { line, message } => {
            if !out.iter().any(|f| f.line == line) {
                out.push(found(
                    SdkRule::Unreadable,
                    line,
                    format!("the frontmatter reader of the official MCP TypeScript SDK 2.4 refuses this line (\"{message}\"), so hosts and servers built on that SDK refuse this skill"),
                ));
            }
        }
        Stop::Unrepresentable { line } => out.push(found(
            SdkRule::ReadsDifferently,
            Some(line),
            "the frontmatter reader of the official MCP TypeScript SDK 2.4 reads an escape on this line as a lone UTF-16 surrogate, which no published value can match".to_owned(),
        )),
    }
    out.sort_by_key(|f| f.line);
    out.dedup();
    out
}

/// The first place where the published value and the SDK's differ: (path, ours, theirs) as
/// JSON. Objects compare by key, arrays in order.
fn first_difference(ours: &Value, theirs: &Value, path: String) -> (String, String, String) {
    match (ours, theirs) {
        (Value::Object(a), Value::Object(b)) => {
            let join = |k: &str| {
                if path.is_empty() {
                    k.to_owned()
                } else {
                    format!("{path}.{k}")
                }
            };
            // Keys are unique: index each side once instead of a scan per key.
            let index = |pairs: &[(String, Value)]| -> HashMap<String, usize> {
                pairs
                    .iter()
                    .enumerate()
                    .map(|(i, (k, _))| (k.clone(), i))
                    .collect()
            };
            let (in_a, in_b) = (index(a), index(b));
            for (k, v) in a {
                match in_b.get(k).and_then(|i| b.get(*i)) {
                    None => return (join(k), v.to_json(), "missing".to_owned()),
                    Some((_, w)) if !v.same_content(w) => return first_difference(v, w, join(k)),
                    Some(_) => {}
                }
            }
            if let Some((k, w)) = b.iter().find(|(k, _)| !in_a.contains_key(k)) {
                return (join(k), "nothing".to_owned(), w.to_json());
            }
            (path, ours.to_json(), theirs.to_json())
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => a
            .iter()
            .zip(b)
            .enumerate()
            .find(|(_, (v, w))| !v.same_content(w))
            .map(|(i, (v, w))| first_difference(v, w, format!("{path}[{i}]")))
            .unwrap_or((path, ours.to_json(), theirs.to_json())),
        _ => (path, ours.to_json(), theirs.to_json()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skill::frontmatter::{parse_file_strict, split_strict};

    fn findings(yaml: &str) -> Vec<(&'static str, Option<usize>)> {
        let file = format!("---\n{yaml}\n---\n");
        let published = parse_file_strict(&file).unwrap_or_else(|e| panic!("{yaml:?}: {e}"));
        let block = split_strict(&file).unwrap_or_else(|e| panic!("{yaml:?}: {e}"));
        check(&block, &published)
            .into_iter()
            .map(|f| (f.rule.id(), f.line))
            .collect()
    }

    #[test]
    fn each_construct_has_its_rule_and_line() {
        use SdkRule as R;
        let cases: &[(&str, &[(SdkRule, usize)])] = &[
            ("a: \"x\n  y\"", &[(R::MultilineQuoted, 2)]),
            (
                "a: 'x\n\n  y'\nb: \"z\n  w\"",
                &[(R::MultilineQuoted, 2), (R::MultilineQuoted, 5)],
            ),
            (
                "a: |2\n    x\nb: >-1\n  y",
                &[(R::IndentIndicator, 2), (R::IndentIndicator, 4)],
            ),
            (
                "a: &x 1\nb: *x\nc: &y\n  k: v",
                &[(R::Anchor, 2), (R::Anchor, 3), (R::Anchor, 4)],
            ),
            (
                "__proto__: 1\nm: {\"__proto__\": 2}",
                &[(R::ProtoKey, 2), (R::ProtoKey, 3)],
            ),
            (
                "? a\n: 1\nb: 2\n? c",
                &[(R::ExplicitKey, 2), (R::ExplicitKey, 5)],
            ),
            (
                "l: [a,\n  b]\nm: {x: 1,\n  z: [2,\n  3]}",
                &[(R::MultilineFlow, 2), (R::MultilineFlow, 4)],
            ),
            (
                "l: [a: 1, \"b\": 2, {c: 3}]",
                &[(R::FlowMapping, 2), (R::FlowMapping, 2)],
            ),
            (
                "m: {a: , b: 1, c}",
                &[(R::FlowEmptyValue, 2), (R::FlowEmptyValue, 2)],
            ),
            ("{\"name\": \"a\", \"n\": [1]}", &[(R::FlowRoot, 2)]),
            ("a: 1\n...\n# end", &[(R::DocumentEnd, 3)]),
            ("a: x\n  \ty", &[(R::TabIndent, 3)]),
            ("\"a\" : 1", &[(R::KeySpacing, 2)]),
        ];
        for (yaml, want) in cases {
            let mut want: Vec<_> = want.iter().map(|(r, l)| (r.id(), Some(*l))).collect();
            want.dedup();
            assert_eq!(findings(yaml), want, "{yaml:?}");
        }
        let deep = format!("d: {}x{}", "[".repeat(40), "]".repeat(40));
        assert_eq!(findings(&deep), [(R::TooDeep.id(), Some(2))]);
        let ok = format!("d: {}x{}", "[".repeat(32), "]".repeat(32));
        assert_eq!(findings(&ok), []);
    }

    #[test]
    fn the_subset_gives_no_findings() {
        for yaml in [
            "name: a\ndescription: Reads PDFs. Use when: forms",
            "name: a\ndescription: >-\n  Two\n  lines\nallowed-tools: [Read, 'Bash(git:*)']",
            "a: |\n  x\n\n  y\nb:\n- 1\n- k: v\n  w: {c: [1, {d: e}]}\nc: \"q \\u00e9\"",
            "# c\na: x # c\n  y\nb: ''\nc:\nd: 1.0",
            "a: x\n\ty: 1",
        ] {
            if parse_file_strict(&format!("---\n{yaml}\n---\n")).is_err() {
                continue;
            }
            assert_eq!(findings(yaml), [], "{yaml:?}");
        }
    }

    #[test]
    fn other_refusals_are_reported_in_the_sdks_words() {
        let file = "---\nname: a\n?x: 1\n---\n";
        let published = parse_file_strict(file).unwrap();
        let found = check(&split_strict(file).unwrap(), &published);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            (found[0].rule, found[0].line),
            (SdkRule::Unreadable, Some(3))
        );
        assert!(
            found[0].message.contains("complex keys"),
            "{}",
            found[0].message
        );
    }

    #[test]
    fn large_frontmatter_is_checked_in_linear_time() {
        // 20 000 keys: a quadratic scan would take seconds here.
        let keys: String = (0..20_000).map(|i| format!("k{i}: v{i}\n")).collect();
        let file = format!("---\nname: a\n{keys}---\n");
        let published = parse_file_strict(&file).unwrap();
        let block = split_strict(&file).unwrap();
        let started = std::time::Instant::now();
        assert!(check(&block, &published).is_empty());
        // A different published value is found without a scan per key either.
        let mut other = published.clone();
        if let Value::Object(pairs) = &mut other
            && let Some((_, v)) = pairs.last_mut()
        {
            *v = Value::Null;
        }
        let found = check(&block, &other);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].rule, SdkRule::ReadsDifferently);
        assert!(
            found[0].message.contains("`k19999`"),
            "{}",
            found[0].message
        );
        assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
    }

    #[test]
    fn rules_are_unique() {
        let mut ids: Vec<_> = SdkRule::ALL.iter().map(|r| r.id()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), SdkRule::ALL.len());
        assert!(ids.iter().all(|i| i.starts_with("frontmatter-sdk-")));
    }
}
