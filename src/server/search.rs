//! The `search_skills` tool: the catalog's search index ([`crate::search`]) as an MCP
//! tool (MCP 2026-07-28, Tools: `tools/list` gives its `inputSchema` and `outputSchema`,
//! `tools/call` returns `structuredContent` conforming to it and the same JSON as a text
//! block). Offered with the tools fallback ([`super::Fallback::tools`]) and, alone, beside
//! the Skills extension ([`super::Fallback::search`]).
//!
//! Every result is a `skill://` URI of a `SKILL.md`: the host fetches it through
//! `skills/get` (or `read_skill`), which verifies it, so search never hands over a skill's
//! content. Results and scores are those of a catalog of the skills the caller sees
//! ([`crate::view::Catalog::search`]). Errors about the arguments (missing, of the wrong
//! type, out of bounds, an unknown tag) are tool results with `isError: true` naming the
//! argument and its bounds, as for the other tools.

use super::arguments::{kind, takes_text, Arguments};
use super::{Rendered, Responder};
use crate::access::Grant;
use crate::search::{DEFAULT_LIMIT, MAX_LIMIT};
use crate::skill::value::write_json_string;
use serde_json::Value;

/// The tool's name.
pub(crate) const TOOL_SEARCH_SKILLS: &str = "search_skills";

/// The tool's arguments, each with what its value must be (the words of its refusals).
pub(crate) const SEARCH_ARGS: [(&str, &str); 3] = [
    (
        "query",
        "a string of 1 to 1000 bytes saying what the skill should do",
    ),
    (
        "tags",
        "an array of strings (tags of the skills' metadata.tags)",
    ),
    ("limit", "an integer from 1 to 50"),
];

/// The tool's definition, an item of `tools/list`'s `tools`.
pub(crate) const SEARCH_TOOL_JSON: &str = r#"{"name":"search_skills","title":"Search skills","description":"Find the Agent Skills that fit a task: give the task in a few words (e.g. \"fill in a PDF form\"). Returns the best matches first, each with its SKILL.md URI (skill://…), name, description and a relevance score (BM25F; higher is better, comparable within one answer only). Fetch a result's SKILL.md by its URI (skills/get with the Skills extension, or read_skill) before following it. An addition beside the io.modelcontextprotocol/skills extension; not part of that extension.","inputSchema":{"type":"object","properties":{"query":{"type":"string","minLength":1,"maxLength":250,"description":"What the skill should do, in a few words (up to 1000 bytes of UTF-8; 250 characters always fit)."},"tags":{"type":"array","items":{"type":"string"},"maxItems":16,"description":"Only skills carrying every one of these tags (their metadata.tags)."},"limit":{"type":"integer","minimum":1,"maximum":50,"default":10,"description":"The most results (1 to 50, default 10)."}},"required":["query"],"additionalProperties":false},"outputSchema":{"type":"object","properties":{"results":{"type":"array","items":{"type":"object","properties":{"uri":{"type":"string"},"name":{"type":"string"},"description":{"type":"string"},"score":{"type":"number"}},"required":["uri","name","description","score"]}}},"required":["results"]},"annotations":{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false}}"#;

impl Responder {
    /// `search_skills`: the arguments checked, the search run for the caller's grant.
    pub(super) fn search_skills_call(
        &self,
        arguments: &Arguments,
        modern: bool,
        g: Grant,
    ) -> Result<Rendered, String> {
        let args = &arguments.values;
        if let Some(k) = args
            .keys()
            .find(|k| !SEARCH_ARGS.iter().any(|(a, _)| a == k))
        {
            return Err(format!(
                "{}; `{}` is not one of its arguments",
                takes_text(TOOL_SEARCH_SKILLS, SEARCH_ARGS.iter().map(|(a, _)| *a)),
                crate::protocol::error::clip(k)
            ));
        }
        let must = |i: usize| format!("`{}` must be {}", SEARCH_ARGS[i].0, SEARCH_ARGS[i].1);
        // `tags` and `limit` may be left out; given, each must be of its type (`null` is not:
        // the input schema's types do not include it).
        let query = match args.get("query") {
            Some(Value::String(q)) => q.as_str(),
            None => {
                return Err(format!(
                    "{TOOL_SEARCH_SKILLS} needs `query`: a string of 1 to 1000 bytes saying what the skill should do"
                ))
            }
            Some(other) => return Err(format!("{}, not {}", must(0), kind(other))),
        };
        let tags: Vec<&str> = match args.get("tags") {
            None => Vec::new(),
            Some(Value::Array(items)) => items
                .iter()
                .map(|t| t.as_str())
                .collect::<Option<_>>()
                .ok_or_else(|| format!("{}; one of them is not a string", must(1)))?,
            Some(other) => return Err(format!("{}, not {}", must(1), kind(other))),
        };
        let limit = match args.get("limit") {
            None => DEFAULT_LIMIT,
            Some(Value::Number(n)) => match whole_number(n) {
                Some(v) if (1..=MAX_LIMIT as u64).contains(&v) => v as usize,
                _ => {
                    let sent = arguments.numbers.get("limit").cloned();
                    return Err(format!(
                        "{} (got {})",
                        must(2),
                        sent.unwrap_or(n.to_string())
                    ));
                }
            },
            Some(other) => return Err(format!("{}, not {}", must(2), kind(other))),
        };
        let hits = self
            .catalog
            .search(g, query, &tags, limit)
            // Every refusal (the query, the limit, the tags, a tag the caller's skills do not
            // carry, a catalog without an index) is a tool error, its message word for word.
            .map_err(|e| e.to_string())?;
        let mut structured = String::with_capacity(64 + hits.len() * 256);
        structured.push_str("{\"results\":[");
        for (k, h) in hits.iter().enumerate() {
            if k > 0 {
                structured.push(',');
            }
            structured.push_str("{\"uri\":");
            write_json_string(h.uri, &mut structured);
            structured.push_str(",\"name\":");
            write_json_string(h.name, &mut structured);
            structured.push_str(",\"description\":");
            write_json_string(&h.description, &mut structured);
            structured.push_str(",\"score\":");
            structured.push_str(&format_score(h.score));
            structured.push('}');
        }
        structured.push_str("]}");
        let mut b = Self::open(modern, structured.len() * 2 + 96);
        b.push_str("\"content\":[{\"type\":\"text\",\"text\":");
        write_json_string(&structured, &mut b);
        b.push_str("}],\"structuredContent\":");
        b.push_str(&structured);
        b.push_str(",\"isError\":false");
        Ok(Rendered::Whole(b))
    }
}

/// `n` when it is a whole number not below 0 (JSON Schema's `integer` is any number without a
/// fraction, so `10.0` and `1e1` are 10), saturating at `u64::MAX`.
fn whole_number(n: &serde_json::Number) -> Option<u64> {
    if let Some(v) = n.as_u64() {
        return Some(v);
    }
    let f = n.as_f64()?;
    // `as` saturates: a whole number past u64::MAX is u64::MAX, out of range all the same.
    (f >= 0.0 && f.fract() == 0.0).then_some(f as u64)
}

/// A score as JSON: the shortest decimal that reads back as the same `f64` (scores are
/// finite: sums of finite products of counts and logarithms of ratios above 1). Written by
/// serde_json's float writer, which every module that writes JSON links already; core's
/// float formatting (`format!("{score}")`) would add about 11 KB to the Worker's wasm.
fn format_score(score: f64) -> String {
    serde_json::Number::from_f64(score).map_or_else(|| "0".to_owned(), |n| n.to_string())
}
