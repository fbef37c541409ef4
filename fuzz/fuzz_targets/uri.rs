//! `skills_edge::skill::uri::resolve_reference`: a skill root and a reference (input: the root,
//! a NUL byte, the reference; without a NUL, the root is `skill://acme/billing/refunds`).
//!
//! Properties: a resolved reference never leaves the root: it is the root itself or
//! `is_inside(root, r)`, and after the root it has no `.`, `..` or empty segment; it never keeps
//! a `?query` or `#fragment`; resolving it again (as an absolute URI) gives itself; the host's
//! `resolve` agrees for a `SKILL.md` URI with that root.

#![no_main]

use libfuzzer_sys::fuzz_target;
use skills_edge::host::resolve;
use skills_edge::skill::uri::{is_inside, resolve_reference, skill_root};

fn run(root: &str, reference: &str) {
    let result = resolve_reference(root, reference);
    if let Ok(r) = &result {
        assert!(
            r == root || is_inside(root, r),
            "{reference:?} resolved to {r:?}, outside {root:?}"
        );
        if r != root {
            let tail = &r[root.len() + 1..];
            assert!(
                tail.split('/')
                    .all(|s| !s.is_empty() && s != "." && s != ".."),
                "{reference:?} resolved to {r:?} with a dot or empty segment"
            );
            assert!(!tail.contains(['?', '#']), "{r:?} kept a query or fragment");
            let plain_root = root.strip_prefix("skill://").is_some_and(|p| {
                !p.is_empty() && !p.ends_with('/') && !p.contains(['?', '#', '\\'])
            }) && !root.chars().any(char::is_control);
            if plain_root {
                assert_eq!(
                    resolve_reference(root, r).as_ref(),
                    Ok(r),
                    "a resolved URI does not resolve to itself"
                );
            }
        }
    }
    let md = format!("{root}/SKILL.md");
    if skill_root(&md) == Some(root) {
        assert_eq!(
            resolve(&md, reference).ok(),
            result.ok(),
            "host::resolve and resolve_reference disagree"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match text.split_once('\0') {
        Some((root, reference)) => run(root, reference),
        None => run("skill://acme/billing/refunds", text),
    }
});
