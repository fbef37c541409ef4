//! Skill revisions: one digest that changes whenever any file of a skill changes, so one value
//! tracks a skill across MCP, the `/.well-known/agent-skills/` mirror and hosts.
//!
//! The value is the skill-level digest of a draft of the Agent Skills Discovery RFC (commit
//! d484812 of `cloudflare/agent-skills-discovery-rfc`, whose index listed `files` with per-file
//! digests; the published v0.2.0 replaced it with one digest per artifact, see
//! `compile::mirror`):
//!
//! 1. take every file of the skill as `(path relative to the skill root, digest)`;
//! 2. sort them by path, bytewise;
//! 3. for each, write `{path}` `0x00` `{64 lowercase hex of the file's SHA-256}` `0x0A`;
//! 4. the revision is `sha256:` + the lowercase hex SHA-256 of those bytes.
//!
//! It is non-normative for MCP: SEP-2640 defines no entry-level revision. The server publishes
//! it in each entry's `_meta` under [`REVISION_META_KEY`] (the spec lets servers add `_meta`
//! under their own prefix), and the host side computes the same value from an entry, so a host
//! can tell that a skill changed without fetching a file.

use super::digest::{format_digest, DIGEST_LEN};
use sha2::{Digest as _, Sha256};

/// The entry `_meta` key carrying the skill's revision (this project's own reverse-domain
/// prefix, after its repository `github.com/skills-edge/skills-edge`).
pub const REVISION_META_KEY: &str = "io.github.skills-edge/revision";

/// The revision of a skill from its files: `(path relative to the skill root, wire digest)`
/// pairs in any order. `None` when a digest is not in wire form (`sha256:` + 64 lowercase hex).
///
/// The draft's worked example:
/// ```
/// use skills_edge::skill::{digest::digest_of, revision::skill_revision};
/// let files = [
///     ("scripts/run.sh", digest_of(b"#!/bin/sh\n")),
///     ("SKILL.md", digest_of(b"# Hello\n")),
/// ];
/// assert_eq!(
///     skill_revision(files.iter().map(|(p, d)| (*p, d.as_str()))).as_deref(),
///     Some("sha256:34f7a8c484e9991f3e71a309f31332d6335efc01f544105c4185a7c4ab12eb1e")
/// );
/// ```
pub fn skill_revision<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>) -> Option<String> {
    let files: Vec<(&str, &str)> = files.into_iter().collect();
    if !files.iter().all(|(_, d)| super::digest::is_wire_digest(d)) {
        return None;
    }
    let keys: Vec<&[u8]> = files.iter().map(|(p, _)| p.as_bytes()).collect();
    let mut h = Sha256::new();
    for (path, digest) in super::byte_order(&keys)
        .into_iter()
        .filter_map(|i| files.get(i))
    {
        h.update(path.as_bytes());
        h.update([0]);
        h.update(&digest.as_bytes()[DIGEST_LEN - 64..]);
        h.update([b'\n']);
    }
    Some(format_digest(&h.finalize().into()))
}
