//! Near-valid `tools/call` requests for the tools and prompts fallback (`respond` target): a
//! tool's name and its `arguments` members, drawn from the fallback's tools, the
//! hidden-views fixture's words (`audits`, `operations`, `runbook` and `deep` only its hidden
//! skills carry), tags, limits in and out of range, arbitrary text, and the catalog's URIs.

use arbitrary::Arbitrary;

/// The fallback's tools; an index past them names no tool.
const TOOLS: &[&str] = &[
    "search_skills",
    "list_skills",
    "read_skill",
    "read_skill_resource",
];
/// Words of the hidden-views skills and of the embedded catalog.
const WORDS: &[&str] = &[
    "acme",
    "invoices",
    "issues",
    "lints",
    "code",
    "greets",
    "people",
    "starts",
    "things",
    "ends",
    "audits",
    "tools",
    "runs",
    "operations",
    "deep",
    "runbook",
    "private",
    "scope",
    "public",
    "skill",
    "hidden",
    "billing",
    "review",
    "checklist",
    "release",
    "changelog",
];
/// Tags, none of which the fixtures carry but the search tool must refuse alike.
const TAGS: &[&str] = &["billing", "ops", "audit", "pdf", "docs"];

/// A `tools/call`'s `name` and `arguments`: the search's query as words of [`WORDS`] and any
/// text, its limit and tags, and `read_skill`'s and `read_skill_resource`'s skill and path
/// taken from the catalog's URIs.
#[derive(Arbitrary, Debug)]
pub struct ToolCall {
    name: u8,
    words: Vec<u8>,
    text: Option<String>,
    limit: Option<i32>,
    tags: Option<Vec<u8>>,
    skill: Option<u16>,
    path: Option<u16>,
}

fn s(v: &str) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

impl ToolCall {
    /// The tool's name: one of the fallback's, or `search` (no tool).
    pub fn name(&self) -> &'static str {
        TOOLS.get(self.name as usize).copied().unwrap_or("search")
    }

    /// The members of `arguments`, each value as JSON text.
    pub fn arguments(&self, uris: &[String]) -> Vec<(String, String)> {
        let mut a: Vec<(String, String)> = Vec::new();
        let words: Vec<&str> = self
            .words
            .iter()
            .map(|&w| WORDS[w as usize % WORDS.len()])
            .collect();
        match &self.text {
            Some(text) => a.push(("query".into(), s(&format!("{} {text}", words.join(" "))))),
            None if !words.is_empty() => a.push(("query".into(), s(&words.join(" ")))),
            None => {}
        }
        if let Some(l) = self.limit {
            a.push(("limit".into(), (l % 64).to_string()));
        }
        if let Some(tags) = &self.tags {
            let list: Vec<String> = tags
                .iter()
                .map(|&i| s(TAGS[i as usize % TAGS.len()]))
                .collect();
            a.push(("tags".into(), format!("[{}]", list.join(","))));
        }
        // A skill's name and a file's path below the URI's first segment.
        let rest = |i: u16| -> String {
            let uri = if uris.is_empty() {
                ""
            } else {
                &uris[i as usize % uris.len()]
            };
            uri.trim_start_matches("skill://").to_owned()
        };
        if let Some(i) = self.skill {
            let r = rest(i);
            let name = r
                .trim_end_matches("/SKILL.md")
                .rsplit('/')
                .next()
                .unwrap_or_default()
                .to_owned();
            a.push(("name".into(), s(&name)));
            a.push(("skill".into(), s(&name)));
        }
        if let Some(i) = self.path {
            let r = rest(i);
            a.push((
                "path".into(),
                s(r.split_once('/').map_or(&r[..], |(_, p)| p)),
            ));
        }
        a
    }
}
