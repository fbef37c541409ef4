//! The `/.well-known/agent-skills/` mirror of a compiled catalog (Agent Skills Discovery RFC,
//! version 0.2.0, the text that lists each skill's `files` with per-file digests and a
//! skill-level `digest`).
//!
//! The RFC addresses a skill by its name alone (`/.well-known/agent-skills/{name}/{path}`, the
//! name equal to the skill's directory), while MCP tells skills apart by URI. The rule: a skill
//! is mirrored under its frontmatter `name` when no other skill of the catalog has that name;
//! skills that share a name (possible with organisational prefixes and nested skills, and
//! allowed by SEP-2640) are all left out of the mirror, none preferred over the others. The
//! compiler's `duplicate-name` warning names them; MCP serves every one of them.

use super::{Compiled, CompiledSkill};
use crate::skill::value::write_json_string;
use std::collections::BTreeMap;

/// The version the index declares.
pub const MIRROR_VERSION: &str = "0.2.0";

/// The path prefix of the mirror.
pub const MIRROR_PREFIX: &str = "/.well-known/agent-skills/";

impl Compiled {
    /// The skills the mirror publishes, by name (sorted): those whose name no other skill has.
    pub fn mirrored(&self) -> BTreeMap<&str, &CompiledSkill> {
        let mut count: BTreeMap<&str, usize> = BTreeMap::new();
        for s in &self.skills {
            *count.entry(s.name.as_str()).or_default() += 1;
        }
        self.skills
            .iter()
            .filter(|s| count.get(s.name.as_str()) == Some(&1))
            .map(|s| (s.name.as_str(), s))
            .collect()
    }

    /// `index.json` of the mirror: `{"version":"0.2.0","skills":[{"name","description",
    /// "digest","files":[{"path","digest"}…]}…]}`, skills sorted by name, each skill's
    /// `SKILL.md` first and its other files in URI order; `digest` is the skill's revision.
    pub fn mirror_index_json(&self) -> String {
        let mut out = String::from("{\"version\":");
        write_json_string(MIRROR_VERSION, &mut out);
        out.push_str(",\"skills\":[");
        for (i, (name, skill)) in self.mirrored().into_iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"name\":");
            write_json_string(name, &mut out);
            out.push_str(",\"description\":");
            write_json_string(&skill.description, &mut out);
            out.push_str(",\"digest\":\"");
            out.push_str(&self.revision(skill));
            out.push_str("\",\"files\":[");
            for (j, f) in skill
                .files
                .iter()
                .filter_map(|&fi| self.files.get(fi))
                .enumerate()
            {
                if j > 0 {
                    out.push(',');
                }
                out.push_str("{\"path\":");
                write_json_string(self.relative_path(skill, &f.uri), &mut out);
                out.push_str(",\"digest\":\"");
                out.push_str(&f.digest);
                out.push_str("\"}");
            }
            out.push_str("]}");
        }
        out.push_str("]}");
        out
    }
}
