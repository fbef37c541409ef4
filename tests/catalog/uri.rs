//! Skill URIs: skill roots, containment, RFC 3986 schemes, and resolving relative references
//! inside a skill.

use skills_edge::skill::uri::{is_inside, is_scheme, resolve_reference, skill_root, ResolveError};

#[test]
fn roots_and_containment() {
    assert_eq!(
        skill_root("skill://code-review/SKILL.md"),
        Some("skill://code-review")
    );
    assert_eq!(
        skill_root("github://o/r/skills/refunds/SKILL.md"),
        Some("github://o/r/skills/refunds")
    );
    assert_eq!(skill_root("skill://code-review/skill.md"), None);
    assert_eq!(skill_root("skill://a//SKILL.md"), None);
    assert_eq!(skill_root("/SKILL.md"), None);
    assert!(is_inside("skill://code-review", "skill://code-review/a.md"));
    assert!(!is_inside(
        "skill://code-review",
        "skill://code-review-extra/a.md"
    ));
    assert!(!is_inside("skill://code-review", "skill://code-review"));
    assert!(!is_inside("skill://code-review", "skill://code-review/"));
}

#[test]
fn references_resolve_inside_the_root_only() {
    let root = "skill://code-review";
    let ok = |r: &str| resolve_reference(root, r);
    assert_eq!(
        ok("references/checklist.md").unwrap(),
        "skill://code-review/references/checklist.md"
    );
    assert_eq!(
        ok("a//b/./c.md?x=1").unwrap(),
        "skill://code-review/a/b/c.md"
    );
    assert_eq!(ok("templates/").unwrap(), "skill://code-review/templates");
    assert_eq!(ok("a/.."), Ok("skill://code-review".to_owned()));
    assert_eq!(ok("../x"), Err(ResolveError::EscapesRoot));
    assert_eq!(ok("a/../../x"), Err(ResolveError::EscapesRoot));
    assert_eq!(ok("/etc/passwd"), Err(ResolveError::EscapesRoot));
    assert_eq!(ok("#frag"), Err(ResolveError::Empty));
    assert_eq!(ok("a\\b"), Err(ResolveError::BadChar));
    assert_eq!(
        ok("skill://code-review/references/checklist.md").unwrap(),
        "skill://code-review/references/checklist.md"
    );
    assert_eq!(
        ok("skill://code-review-extra/x.md"),
        Err(ResolveError::OutsideRoot)
    );
    assert_eq!(
        ok("skill://code-review/../other/SKILL.md"),
        Err(ResolveError::OutsideRoot)
    );
    assert_eq!(ok("https://evil.example/x"), Err(ResolveError::OutsideRoot));
    assert_eq!(ok("file:x"), Err(ResolveError::OutsideRoot));
    assert_eq!(ok("c:x").unwrap_err(), ResolveError::OutsideRoot);
}

#[test]
fn schemes_start_with_a_letter() {
    for ok in [
        "a", "Z", "skill", "https", "git+ssh", "a+-.", "x-1.2+y", "A1",
    ] {
        assert!(is_scheme(ok), "{ok:?}");
    }
    for bad in [
        "", "1ab", "0", "9x", "+a", "-a", ".a", "+-.", "a_b", "a b", "a:b", "a/b", "é", "aé",
        "a\u{0}",
    ] {
        assert!(!is_scheme(bad), "{bad:?}");
    }
}

#[test]
fn a_colon_in_the_first_segment_needs_a_scheme_before_it() {
    let root = "skill://code-review";
    let r = |reference: &str| resolve_reference(root, reference);
    // Not a scheme before the colon: neither an absolute URI nor a relative-path reference.
    assert_eq!(r("1ab:x"), Err(ResolveError::BadChar));
    assert_eq!(r(":x"), Err(ResolveError::BadChar));
    assert_eq!(r("+a:x"), Err(ResolveError::BadChar));
    assert_eq!(r("a b:x"), Err(ResolveError::BadChar));
    assert_eq!(r("1ab:x/y.md#top"), Err(ResolveError::BadChar));
    // A scheme with `+ - .` after its first letter: an absolute URI, outside this root.
    assert_eq!(r("a+-.:x"), Err(ResolveError::OutsideRoot));
    assert_eq!(r("git+ssh://host/x"), Err(ResolveError::OutsideRoot));
    // A colon in a later segment is a path character.
    assert_eq!(r("./1ab:x").unwrap(), "skill://code-review/1ab:x");
    assert_eq!(r("a/1ab:x").unwrap(), "skill://code-review/a/1ab:x");
    assert_eq!(r("a/:x").unwrap(), "skill://code-review/a/:x");
    // A colon only in the query or fragment is dropped with them.
    assert_eq!(r("x.md?a:b").unwrap(), "skill://code-review/x.md");
    assert_eq!(r("x.md#1:2").unwrap(), "skill://code-review/x.md");
}
