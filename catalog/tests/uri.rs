//! Skill URIs: skill roots, containment, and resolving relative references inside a skill.

use skills_edge_catalog::skill::uri::{is_inside, resolve_reference, skill_root, ResolveError};

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
