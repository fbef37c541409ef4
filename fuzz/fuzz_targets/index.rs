//! The well-known index reader (`skills_edge::host::index::parse_index`) on any bytes, read as
//! if fetched from `https://h.example/.well-known/agent-skills/index.json`.
//!
//! Properties: no panic; every accepted entry has a valid Agent Skills name, unique in the
//! index, a description of 1–1024 characters, wire-form digests, and URLs that are `http` or
//! `https`, without a fragment, that resolve to themselves again; an accepted v0.2.0 index,
//! written back with only the fields the RFC defines, reads back to the same entries.

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::json;
use skills_edge::host::index::{parse_index, resolve_url, Artifact, IndexVersion, SCHEMA_V0_2_0};
use skills_edge::skill::digest::is_wire_digest;
use skills_edge::skill::name::check_name;

const BASE: &str = "https://h.example/.well-known/agent-skills/index.json";

fn url_ok(u: &str) {
    let lower = u.to_ascii_lowercase();
    assert!(
        lower.starts_with("http://") || lower.starts_with("https://"),
        "{u:?} is not http(s)"
    );
    assert!(!u.contains('#'), "{u:?} kept a fragment");
    assert_eq!(
        resolve_url(BASE, u).as_deref(),
        Ok(u),
        "{u:?} does not resolve to itself"
    );
}

fuzz_target!(|data: &[u8]| {
    let Ok(index) = parse_index(BASE, data) else {
        return;
    };
    let mut names = Vec::new();
    let mut written = Vec::new();
    for s in index.skills.iter().flatten() {
        assert!(check_name(&s.name).is_ok(), "bad name {:?}", s.name);
        assert!(!names.contains(&s.name), "name {:?} accepted twice", s.name);
        names.push(s.name.clone());
        let chars = s.description.chars().count();
        assert!(
            (1..=1024).contains(&chars),
            "description of {chars} characters"
        );
        match &s.artifact {
            Artifact::SkillMd { url, digest } | Artifact::Archive { url, digest } => {
                url_ok(url);
                assert!(is_wire_digest(digest));
                let kind = if matches!(s.artifact, Artifact::SkillMd { .. }) {
                    "skill-md"
                } else {
                    "archive"
                };
                written.push(json!({"name": s.name, "type": kind, "description": s.description, "url": url, "digest": digest}));
            }
            Artifact::Files(files) => {
                assert_eq!(index.version, IndexVersion::V0_1_0);
                for (_, u) in files {
                    url_ok(u);
                }
            }
        }
    }
    if index.version == IndexVersion::V0_2_0 {
        let again = json!({"$schema": SCHEMA_V0_2_0, "skills": written}).to_string();
        let back = parse_index(BASE, again.as_bytes()).expect("a written index reads back");
        let a: Vec<_> = index
            .skills
            .iter()
            .flatten()
            .map(|s| (&s.name, &s.description, &s.artifact))
            .collect();
        let b: Vec<_> = back
            .skills
            .iter()
            .flatten()
            .map(|s| (&s.name, &s.description, &s.artifact))
            .collect();
        assert_eq!(a, b, "the index does not round-trip");
    }
});
