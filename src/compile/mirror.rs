//! The `/.well-known/agent-skills/` mirror of a compiled catalog, as the Agent Skills Discovery
//! RFC v0.2.0 publishes it (`cloudflare/agent-skills-discovery-rfc`, main branch: the flat
//! single-artifact index with `$schema`).
//!
//! Each mirrored skill is one artifact: a skill that is only a `SKILL.md` is `type: "skill-md"`
//! with `url` at `/.well-known/agent-skills/{name}/SKILL.md`; a skill with supporting files is
//! `type: "archive"` with `url` at `/.well-known/agent-skills/{name}.tar.gz` (see [`super::archive`]).
//! `digest` is the SHA-256 of the artifact's raw bytes. Every file also stays at
//! `/.well-known/agent-skills/{name}/{path}`, for progressive disclosure and v0.1.0 clients.
//!
//! The RFC addresses a skill by its name alone, while MCP tells skills apart by URI. The rule: a
//! skill is mirrored under its frontmatter `name` when no other skill of the catalog has that
//! name; skills that share a name (possible with organisational prefixes and nested skills, and
//! allowed by SEP-2640) are all left out of the mirror, none preferred over the others. The
//! compiler's `duplicate-name` warning names them; MCP serves every one of them.
//!
//! A signed catalog ([`Compiled::sign`]) adds, beside the artifacts (an unsigned catalog's
//! mirror is unchanged):
//! * each mirrored skill's DSSE envelope at `/.well-known/agent-skills/{name}.dsse.json`
//!   ([`ENVELOPE_SUFFIX`]; a skill name never holds a dot, so this never meets an artifact's
//!   path), named by the index entry's `_meta` under [`crate::sign::DSSE_META_KEY`], a
//!   path-absolute URL like `url`;
//! * the signer's public key as a JWK Set (RFC 7517 §5), `{"keys":[<public JWK>]}`, at
//!   [`KEYS_PATH`], named by the index's top-level `_meta` under [`KEYS_META_KEY`].
//!
//! The RFC defines neither; its clients ignore `_meta` and never ask for these paths.

use super::archive::ARCHIVE_SUFFIX;
use super::{Compiled, CompiledSkill};
use crate::sign::DSSE_META_KEY;
use crate::skill::revision::REVISION_META_KEY;
use crate::skill::uri::SKILL_MD;
use crate::skill::value::write_json_string;
use std::collections::BTreeMap;

/// The `$schema` of the index: the RFC's identifier of its v0.2.0 format (an opaque URI that
/// clients match; an index without it is read as v0.1.0).
pub(crate) const MIRROR_SCHEMA: &str = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";

/// The path prefix of the mirror.
pub const MIRROR_PREFIX: &str = "/.well-known/agent-skills/";

/// The path of the mirror's `index.json` under an origin: what the server serves and what a
/// host reading a well-known source asks for.
pub const INDEX_PATH: &str = "/.well-known/agent-skills/index.json";

/// What follows a mirrored skill's name in the path of its DSSE envelope
/// (`/.well-known/agent-skills/{name}.dsse.json`, signed catalogs only).
pub const ENVELOPE_SUFFIX: &str = ".dsse.json";

/// The path of the JWK Set of the catalog's signing keys (signed catalogs only).
pub const KEYS_PATH: &str = "/.well-known/agent-skills/keys.json";

/// The key of the index's top-level `_meta` whose value is [`KEYS_PATH`] (signed catalogs
/// only): this project's prefix, like the entries' `_meta` keys.
pub const KEYS_META_KEY: &str = "io.github.skills-edge/keys";

/// What closes the index after its last skill.
pub(crate) const MIRROR_SUFFIX: &str = "]}";

impl Compiled {
    /// The skills the mirror publishes, by name (sorted): those whose name no other skill has.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn mirrored(&self) -> BTreeMap<&str, &CompiledSkill> {
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

    /// `index.json` of the mirror: `{"$schema":MIRROR_SCHEMA,"skills":[{"name","type",
    /// "description","url","digest","_meta":{REVISION_META_KEY:revision}}…]}`, skills sorted
    /// by name; `url` is path-absolute (resolved against the index's origin, as in the RFC's
    /// examples). The RFC has no extension point but says clients MUST ignore fields they do
    /// not know, so the skill's revision ([`crate::skill::revision`], the value of the MCP
    /// entry's `_meta`) goes under a `_meta` object of the same shape, keyed by this project's
    /// own prefix.
    ///
    /// A signed catalog's index also has a top-level `"_meta":{KEYS_META_KEY:KEYS_PATH}` after
    /// `$schema`, and each skill's `_meta` names its envelope after the revision:
    /// `{REVISION_META_KEY:revision,DSSE_META_KEY:"/.well-known/agent-skills/{name}.dsse.json"}`.
    #[cfg(test)]
    pub(crate) fn mirror_index_json(&self) -> String {
        let mut out = self.mirror_prefix();
        let mirrored = self.mirrored();
        let public = mirrored.iter().filter(|(_, sk)| {
            self.skills
                .binary_search_by(|s| s.uri.cmp(&sk.uri))
                .is_ok_and(|i| self.is_public(i))
        });
        for (i, (name, skill)) in public.enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&self.mirror_item_json(name, skill));
        }
        out.push_str(MIRROR_SUFFIX);
        out
    }

    /// The index up to its first skill: `{"$schema":…,("_meta":{…},)"skills":[`.
    pub(crate) fn mirror_prefix(&self) -> String {
        let mut out = String::from("{\"$schema\":");
        write_json_string(MIRROR_SCHEMA, &mut out);
        if self.is_signed() {
            out.push_str(",\"_meta\":{");
            write_json_string(KEYS_META_KEY, &mut out);
            out.push(':');
            write_json_string(KEYS_PATH, &mut out);
            out.push('}');
        }
        out.push_str(",\"skills\":[");
        out
    }

    /// The index's item of `skill`, mirrored as `name`.
    pub(crate) fn mirror_item_json(&self, name: &str, skill: &CompiledSkill) -> String {
        let mut out = String::with_capacity(256);
        let (kind, url, digest) = match &skill.archive {
            Some(a) => (
                "archive",
                format!("{MIRROR_PREFIX}{name}{ARCHIVE_SUFFIX}"),
                a.digest.as_str(),
            ),
            None => (
                "skill-md",
                format!("{MIRROR_PREFIX}{name}/{SKILL_MD}"),
                skill
                    .files
                    .first()
                    .and_then(|&fi| self.files.get(fi))
                    .map_or("", |f| f.digest.as_str()),
            ),
        };
        out.push_str("{\"name\":");
        write_json_string(name, &mut out);
        out.push_str(",\"type\":");
        write_json_string(kind, &mut out);
        out.push_str(",\"description\":");
        write_json_string(&skill.description, &mut out);
        out.push_str(",\"url\":");
        write_json_string(&url, &mut out);
        out.push_str(",\"digest\":");
        write_json_string(digest, &mut out);
        out.push_str(",\"_meta\":{");
        write_json_string(REVISION_META_KEY, &mut out);
        out.push(':');
        write_json_string(&self.revision(skill), &mut out);
        if self.is_signed() {
            out.push(',');
            write_json_string(DSSE_META_KEY, &mut out);
            out.push(':');
            write_json_string(&format!("{MIRROR_PREFIX}{name}{ENVELOPE_SUFFIX}"), &mut out);
        }
        out.push_str("}}");
        out
    }

    /// `keys.json` of a signed catalog's mirror: the JWK Set `{"keys":[<the signer's public
    /// JWK>]}` (RFC 7517 §5); `None` for a catalog that is not signed.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn keys_json(&self) -> Option<String> {
        let by = self.signed_by.as_ref().filter(|_| self.is_signed())?;
        Some(format!("{{\"keys\":[{}]}}", by.key.to_jwk()))
    }
}
