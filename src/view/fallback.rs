//! The tools and prompts fallback of a catalog, read from its pack.

use super::{spliced, str_at, Spliced};
use crate::pack::FallbackTables;

/// The tools and prompts fallback of a catalog ([`crate::compile::fallback`]): JSON fragments
/// rendered at build time, and lookups by prompt name and by skill name. Its catalog-wide
/// replies are assembled per caller ([`crate::view::Catalog::prompts_json`],
/// [`crate::view::Catalog::list_skills_json`]).
///
/// ```
/// use skills_edge::catalog::{compile::SourceTree, Catalog};
/// let mut tree = SourceTree::default();
/// tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n");
/// let catalog = Catalog::compile(tree, None).unwrap();
/// let fallback = catalog.fallback().unwrap();
/// assert!(fallback.tools_json().contains(r#""name":"read_skill""#));
/// assert_eq!(fallback.prompt("hello"), Some(0), "one prompt per skill, named after it");
/// assert_eq!(fallback.instructions(false, false), "");
/// assert_eq!(fallback.skill(0).unwrap().description_json, r#""Say hello.""#);
/// ```
#[derive(Clone, Copy)]
pub struct FallbackView<'a> {
    t: &'a FallbackTables,
    pack: &'a [u8],
    heap: &'a [u8],
}

/// The fallback's parts of one skill (see [`FallbackView::skill`]).
///
/// ```
/// use skills_edge::catalog::{compile::SourceTree, Catalog, SkillFallback};
/// let mut tree = SourceTree::default();
/// tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n");
/// tree.add_file("hello/references/tone.md", "Be kind.\n");
/// let catalog = Catalog::compile(tree, None).unwrap();
/// let skill = catalog.fallback().unwrap().skill(0).unwrap();
/// assert!(skill.links_json.to_string().contains("skill://hello/references/tone.md"));
/// let structured = skill.read_structured_json.to_string();
/// let mut block = String::new();
/// SkillFallback::push_read_block(&structured, &mut block);
/// assert!(block.starts_with(r#"{"type":"text","text":"{\"#));
/// ```
#[derive(Debug, Clone, Copy)]
pub struct SkillFallback<'a> {
    /// The skill's description, as a JSON string (quotes included).
    pub description_json: &'a str,
    /// The messages of its prompt after the `SKILL.md`: a JSON array of resource links.
    pub links_json: Spliced<'a>,
    /// The `structuredContent` of its `read_skill` result, a JSON object (its `text` content
    /// block carries the same as a JSON string: [`SkillFallback::push_read_block`]).
    pub read_structured_json: Spliced<'a>,
}

impl SkillFallback<'_> {
    /// Appends the `text` content block of a `read_skill` result whose structured content is
    /// `structured` (the text of [`SkillFallback::read_structured_json`]), a JSON object:
    /// `{"type":"text","text":…}`, the text being the structured content as a JSON string.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn push_read_block(structured: &str, out: &mut String) {
        out.push_str("{\"type\":\"text\",\"text\":");
        crate::skill::value::write_json_string(structured, out);
        out.push('}');
    }
}

impl std::fmt::Debug for FallbackView<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FallbackView")
            .field("skills", &self.t.skills.len())
            .finish_non_exhaustive()
    }
}

impl<'a> FallbackView<'a> {
    /// The view of `t`, the fallback tables of a catalog of `pack` and its `heap`.
    pub(super) fn new(t: &'a FallbackTables, pack: &'a [u8], heap: &'a [u8]) -> FallbackView<'a> {
        FallbackView { t, pack, heap }
    }

    /// The `tools` array of `tools/list`.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn tools_json(&self) -> &'a str {
        str_at(self.heap, self.t.tools)
    }

    /// The lines the instructions start with for this surface (`""` when neither is on).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn instructions(&self, tools: bool, prompts: bool) -> &'a str {
        let i = match (tools, prompts) {
            (true, false) => 0,
            (false, true) => 1,
            (true, true) => 2,
            (false, false) => return "",
        };
        self.t
            .instructions
            .get(i)
            .map_or("", |s| str_at(self.heap, *s))
    }

    /// The parts of skill `i` (in skill order, as [`crate::view::Catalog::skill_at`]).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn skill(&self, i: usize) -> Option<SkillFallback<'a>> {
        let r = self.t.skills.get(self.pack, i)?;
        Some(SkillFallback {
            description_json: str_at(self.heap, r.description),
            links_json: spliced(self.heap, r.links),
            read_structured_json: spliced(self.heap, r.read_structured),
        })
    }

    /// The skill (its index) whose prompt is named `name`.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn prompt(&self, name: &str) -> Option<usize> {
        let p = &self.t.prompts_by_name;
        let i = p.find(self.pack, name, |s| str_at(self.heap, s))?;
        p.get(self.pack, i).map(|r| r.skill as usize)
    }

    /// The name of the prompt of skill `i`.
    #[cfg(any(test, feature = "internals"))]
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn prompt_name(&self, skill: usize) -> Option<&'a str> {
        self.t
            .prompts_by_name
            .iter(self.pack)
            .find(|r| r.skill as usize == skill)
            .map(|r| str_at(self.heap, r.name))
    }

    /// The skills (indices, in URI order) whose `name` is `name`, found in the name index
    /// with `name_of` (the catalog's skill name of an index).
    pub(super) fn named<'n>(&self, name: &str, name_of: impl Fn(usize) -> &'n str) -> Vec<usize> {
        let idx = &self.t.skills_by_name;
        let start = idx.partition_point(self.pack, |&i| name_of(i as usize) < name);
        let end = idx.partition_point(self.pack, |&i| name_of(i as usize) <= name);
        idx.slice(start, end.saturating_sub(start))
            .iter(self.pack)
            .map(|i| i as usize)
            .collect()
    }
}
