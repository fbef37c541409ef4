//! The published forms of a compiled catalog: skill entries, `resources/list` items, directory
//! children and the default server instructions.

use super::{last_segment, Compiled, CompiledSkill, DirChild};
use crate::sign::{DSSE_META_KEY, SIGNER_META_KEY};
use crate::skill::mime;
use crate::skill::revision::{skill_revision, REVISION_META_KEY};
use crate::skill::value::write_json_string;

impl Compiled {
    /// The skill's revision ([`crate::skill::revision`]): the skill-level digest of a
    /// draft of the Agent Skills Discovery RFC, over its files, by path relative to the skill root.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn revision(&self, skill: &CompiledSkill) -> String {
        let files = skill.files.iter().filter_map(|&fi| {
            let f = self.files.get(fi)?;
            Some((self.relative_path(skill, &f.uri), f.digest.as_str()))
        });
        // Every digest was computed by the compiler, so it is in wire form.
        skill_revision(files).unwrap_or_default()
    }

    /// A file's path relative to the skill root (`SKILL.md`, `references/a.md`).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn relative_path<'a>(&self, skill: &CompiledSkill, file_uri: &'a str) -> &'a str {
        file_uri
            .strip_prefix(skill.root.as_str())
            .and_then(|r| r.strip_prefix('/'))
            .unwrap_or(file_uri)
    }

    /// The skill entry exactly as `skills/list` and `skills/get` publish it:
    /// `{"uri","frontmatter","resources":[{"uri","digest","size"}…],"_meta":{REVISION_META_KEY: revision}}`.
    ///
    /// In a signed catalog ([`Compiled::sign`]) the `_meta` also carries, after the revision,
    /// the skill's DSSE envelope as a JSON object under [`DSSE_META_KEY`] and the signer's
    /// public key as a JWK object under [`SIGNER_META_KEY`]: `{REVISION_META_KEY: revision,
    /// DSSE_META_KEY: {"payloadType","payload","signatures"}, SIGNER_META_KEY:
    /// {"crv","kid","kty","x"}}`. SEP-2640 lets a server add `_meta` keys under its own prefix;
    /// hosts that do not know them ignore them. An unsigned catalog's entries are unchanged.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn entry_json(&self, skill: &CompiledSkill) -> String {
        let mut out = String::with_capacity(256 + skill.files.len() * 128);
        out.push_str("{\"uri\":");
        write_json_string(&skill.uri, &mut out);
        out.push_str(",\"frontmatter\":");
        skill.frontmatter.write_json(&mut out);
        out.push_str(",\"resources\":[");
        for (i, &fi) in skill.files.iter().enumerate() {
            let f = &self.files[fi];
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"uri\":");
            write_json_string(&f.uri, &mut out);
            out.push_str(",\"digest\":\"");
            out.push_str(&f.digest);
            out.push_str("\",\"size\":");
            out.push_str(&f.size.to_string());
            out.push('}');
        }
        out.push_str("],\"_meta\":{");
        write_json_string(REVISION_META_KEY, &mut out);
        out.push_str(":\"");
        out.push_str(&self.revision(skill));
        out.push('"');
        if let (Some(envelope), Some(by)) = (&skill.envelope, &self.signed_by) {
            out.push(',');
            write_json_string(DSSE_META_KEY, &mut out);
            out.push(':');
            out.push_str(envelope);
            out.push(',');
            write_json_string(SIGNER_META_KEY, &mut out);
            out.push(':');
            out.push_str(&by.key.to_jwk());
        }
        out.push_str("}}");
        out
    }

    /// The `SKILL.md` as a `resources/list` item: name and description from the
    /// frontmatter, `text/markdown`, and its size (SEP-2640 §Resource Metadata, A22).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn list_item_json(&self, skill: &CompiledSkill) -> String {
        let size = skill
            .files
            .first()
            .map(|&i| self.files[i].size)
            .unwrap_or(0);
        let mut out = String::with_capacity(128 + skill.description.len());
        out.push_str("{\"uri\":");
        write_json_string(&skill.uri, &mut out);
        out.push_str(",\"name\":");
        write_json_string(&skill.name, &mut out);
        out.push_str(",\"description\":");
        write_json_string(&skill.description, &mut out);
        out.push_str(",\"mimeType\":\"text/markdown\",\"size\":");
        out.push_str(&size.to_string());
        out.push('}');
        out
    }

    /// A directory child as a `resources/directory/read` item.
    pub(crate) fn child_json(&self, child: &DirChild) -> String {
        let mut out = String::with_capacity(128);
        let (uri, mime, size) = match child {
            DirChild::Dir(uri) => (uri.as_str(), mime::DIRECTORY, None),
            DirChild::File(i) => {
                let f = &self.files[*i];
                (f.uri.as_str(), f.mime, Some(f.size))
            }
        };
        out.push_str("{\"uri\":");
        write_json_string(uri, &mut out);
        out.push_str(",\"name\":");
        write_json_string(last_segment(uri), &mut out);
        out.push_str(",\"mimeType\":");
        write_json_string(mime, &mut out);
        if let Some(size) = size {
            out.push_str(",\"size\":");
            out.push_str(&size.to_string());
        }
        out.push('}');
        out
    }

    /// Server instructions naming the skills (SEP-2640 §Pointer from Server Instructions): the
    /// public ones, in a catalog with access rules (the responder assembles a caller's own
    /// from [`Compiled::instruction_line`]s).
    pub(crate) fn default_instructions(&self) -> String {
        let public: Vec<&CompiledSkill> = (0..self.skills.len())
            .filter(|&i| self.is_public(i))
            .filter_map(|i| self.skills.get(i))
            .collect();
        let mut s = String::from(INSTRUCTIONS_HEAD);
        if !public.is_empty() {
            s.push_str(INSTRUCTIONS_SKILLS);
            for sk in public.iter().take(INSTRUCTIONS_NAMED) {
                s.push_str(&Self::instruction_line(sk));
            }
            if public.len() > INSTRUCTIONS_NAMED {
                s.push_str(&instructions_more(public.len() - INSTRUCTIONS_NAMED));
            }
        }
        s
    }

    /// The line of the instructions naming `sk`: `\n- <uri> (<name>): <description, cut at
    /// 160 characters>`.
    pub(crate) fn instruction_line(sk: &CompiledSkill) -> String {
        let mut d: String = sk.description.chars().take(160).collect();
        if d.len() < sk.description.len() {
            d.push('…');
        }
        format!("\n- {} ({}): {}", sk.uri, sk.name, d.trim())
    }
}

/// The default instructions before the list of skills.
pub(crate) const INSTRUCTIONS_HEAD: &str = "This server publishes Agent Skills through the io.modelcontextprotocol/skills extension. \
     List them with skills/list, fetch an entry with skills/get, and read files with resources/read; \
     verify every file against the size and sha256 digest in its entry before use.";

/// What precedes the lines naming skills, when there are any.
pub(crate) const INSTRUCTIONS_SKILLS: &str = " Skills:";

/// The most skills the default instructions name.
pub(crate) const INSTRUCTIONS_NAMED: usize = 50;

/// The last line of the instructions when `more` skills are not named.
pub(crate) fn instructions_more(more: usize) -> String {
    format!("\n- and {more} more (see skills/list)")
}
