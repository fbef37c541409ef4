//! The tests of the verify run and its report.

use super::run::{finish, settle};
use super::*;
use crate::host::Entry;
use crate::skill::digest::digest_of;

#[test]
fn why_names_the_code_the_uri_and_both_values() {
    let e = VerifyError::new(ErrorCode::SizeMismatch, "…")
        .with_uri("skill://a/x.md")
        .with_values("5", "6");
    assert_eq!(
        why(&e.into()),
        "size-mismatch: skill://a/x.md is 6 bytes, its entry says 5"
    );
}

fn entry(files: &[(&str, &str)]) -> Entry {
    let items: Vec<serde_json::Value> = files
        .iter()
        .map(|(path, text)| {
            serde_json::json!({ "uri": format!("skill://s/{path}"), "size": text.len(),
                "digest": digest_of(text.as_bytes()) })
        })
        .collect();
    let e = serde_json::json!({ "uri": "skill://s/SKILL.md",
        "frontmatter": { "name": "s", "description": "d" }, "resources": items });
    Entry::parse(&e.to_string()).unwrap()
}

fn verified(path: &str, text: &str) -> FileCheck {
    FileCheck {
        uri: format!("skill://s/{path}"),
        size: Some(text.len() as u64),
        digest: Some(digest_of(text.as_bytes())),
        status: FileStatus::Verified,
        error: None,
    }
}

fn report(checks: Vec<FileCheck>) -> SkillReport {
    SkillReport {
        checks,
        ..SkillReport::start("skill://s/SKILL.md".into(), None, None)
    }
}

#[test]
fn settle_marks_what_the_held_entry_lists_otherwise() {
    let held = entry(&[
        ("SKILL.md", "md"),
        ("a.md", "a, new"),
        ("b.md", "b"),
        ("n.md", "n"),
    ]);
    let mut r = report(vec![
        verified("SKILL.md", "md"),
        verified("a.md", "a, old"),
        verified("b.md", "b"),
        verified("gone.md", "gone"),
    ]);
    settle(&mut r, &held);
    let status: Vec<(&str, FileStatus)> = r
        .checks
        .iter()
        .map(|c| (c.uri.trim_start_matches("skill://s/"), c.status))
        .collect();
    assert_eq!(
        status,
        [
            ("SKILL.md", FileStatus::Verified),
            ("a.md", FileStatus::Changed),
            ("b.md", FileStatus::Verified),
            ("gone.md", FileStatus::Changed),
            ("n.md", FileStatus::Skipped),
        ]
    );
    let code = |i: usize| {
        r.checks[i]
            .error
            .as_ref()
            .and_then(ClientError::verify_code)
    };
    assert_eq!(code(1), Some(ErrorCode::DigestMismatch));
    assert_eq!(code(3), Some(ErrorCode::NotInManifest));
    let done = finish(r, &held, None);
    assert_eq!(done.status, SkillStatus::Failed);
    assert_eq!((done.files, done.bytes), (4, 10));
    assert_eq!(done.revision, held.revision());
}

#[test]
fn settle_changes_nothing_when_the_entry_held_is_the_one_checked() {
    let held = entry(&[("SKILL.md", "md"), ("a.md", "a")]);
    let checks = vec![verified("SKILL.md", "md"), verified("a.md", "a")];
    let mut r = report(checks.clone());
    settle(&mut r, &held);
    assert_eq!(r.checks, checks);
    assert_eq!(finish(r, &held, None).status, SkillStatus::Verified);
}

#[test]
fn a_verified_check_against_a_dynamic_entry_is_changed() {
    let held = Entry::parse(
        r#"{"uri":"skill://s/SKILL.md","frontmatter":{"name":"s","description":"d"},"resources":"dynamic"}"#,
    )
    .unwrap();
    let mut r = report(vec![verified("SKILL.md", "md")]);
    settle(&mut r, &held);
    assert_eq!(r.checks[0].status, FileStatus::Changed);
    // A dynamic read whose bytes the entry held now lists is still not verified.
    let listed = entry(&[("SKILL.md", "md")]);
    let mut d = report(vec![FileCheck {
        status: FileStatus::Dynamic,
        ..verified("SKILL.md", "md")
    }]);
    settle(&mut d, &listed);
    assert_eq!(d.checks[0].status, FileStatus::Changed);
    assert_eq!(
        d.checks[0]
            .error
            .as_ref()
            .and_then(ClientError::verify_code),
        Some(ErrorCode::DynamicNotAllowed)
    );
    let after_restarts = finish(r.clone(), &held, Some(MAX_ENTRY_RESTARTS));
    assert_eq!(after_restarts.status, SkillStatus::Changed);
    assert_eq!(finish(r, &held, None).status, SkillStatus::Failed);
}
