//! SHA-256 digests in their wire form: the golden vectors of the spec notes and the strict
//! parsing of `sha256:` + 64 lowercase hex.

use skills_edge_catalog::skill::digest::{digest_of, is_wire_digest, parse_digest, sha256};

/// The golden vectors of the spec notes (§1.9).
#[test]
fn golden_vectors() {
    let skill_md = "---\nname: code-review\ndescription: Review code using the team's checklist.\n---\n\n# Code review\n\nRead `references/checklist.md`, then review the diff.\n";
    assert_eq!(skill_md.len(), 149);
    assert_eq!(
        digest_of(skill_md.as_bytes()),
        "sha256:d2489d6c182e8df9c178563ff9f2eac7998a0c1bb1278c52a7fd5306e4259160"
    );
    let checklist = "# Review checklist\n\nCheck correctness, tests, and compatibility.\n";
    assert_eq!(checklist.len(), 65);
    assert_eq!(
        digest_of(checklist.as_bytes()),
        "sha256:dbab2de7bf7db9cc95cb6ce681c3690b26184db39f75b958a0287ca6d9e24e20"
    );
    assert_eq!(
        digest_of(b""),
        "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
    assert_eq!(
        digest_of(b"a"),
        "sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"
    );
}

#[test]
fn wire_form_is_strict() {
    let d = digest_of(b"a");
    assert!(is_wire_digest(&d));
    assert_eq!(parse_digest(&d), Some(sha256(b"a")));
    assert!(!is_wire_digest(&d.to_uppercase()));
    assert!(!is_wire_digest(&d.replace("sha256:", "sha-256:")));
    assert!(!is_wire_digest(&d[..70]));
    assert!(!is_wire_digest(&format!("{d}0")));
    assert!(!is_wire_digest("sha256:é"));
}
