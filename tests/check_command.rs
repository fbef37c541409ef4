//! `skills-edge check <dir>`: on the project's `skills/` folder it exits 0 and prints exactly
//! the entries `skills/list` serves; on a hostile folder it exits 1, prints nothing on stdout and
//! the compiler's rendered diagnostics on stderr.

mod common;

use common::*;
use serde_json::json;
use skills_edge::protocol::Era;
use std::path::Path;
use std::process::{Command, Output};

fn check(dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skills-edge"))
        .arg("check")
        .arg(dir)
        .output()
        .expect("run skills-edge check")
}

#[test]
fn check_on_the_skills_folder_prints_what_skills_list_serves() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("skills");
    let out = check(&dir);
    let stdout = String::from_utf8(out.stdout).expect("UTF-8 stdout");
    let stderr = String::from_utf8(out.stderr).expect("UTF-8 stderr");
    assert_eq!(out.status.code(), Some(0), "stderr: {stderr}");
    let printed: Vec<Box<serde_json::value::RawValue>> =
        serde_json::from_str(&stdout).expect("stdout is one JSON array");
    // Every served entry, raw, from every page of skills/list.
    let r = responder(1);
    let mut served = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let params = cursor
            .as_ref()
            .map_or(json!({}), |c| json!({ "cursor": c }));
        let rpc = ok_rpc(&r, &request(Era::Modern, 1, "skills/list", params));
        let skills: Vec<Box<serde_json::value::RawValue>> =
            serde_json::from_str(&raw_member(rpc.result_raw().expect("result"), "skills"))
                .expect("array");
        served.extend(skills.into_iter().map(|s| s.get().to_owned()));
        match rpc.json["result"]["nextCursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => break,
        }
    }
    let printed: Vec<&str> = printed.iter().map(|p| p.get()).collect();
    assert_eq!(printed, served, "byte-equal entries, in the same order");
    assert_eq!(printed.len(), embedded().skill_count());
    assert!(
        stderr.trim_end().ends_with(&format!(
            "{} skills, {} files: ok",
            embedded().skill_count(),
            embedded().file_count()
        )),
        "{stderr}"
    );
    assert!(
        !stderr.contains("warning["),
        "the project's skills have no warnings"
    );
}

#[test]
fn check_on_a_hostile_folder_fails_with_the_rendered_errors() {
    let t = TempDir::new("check-hostile");
    t.write("a/SKILL.md", skill_md("b", ""));
    t.write("c/SKILL.md", "no frontmatter\n");
    t.write("c/bad name.md", "x");
    t.write("stray.md", "warned about");
    let out = check(t.path());
    let stderr = String::from_utf8(out.stderr).expect("UTF-8 stderr");
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(out.stdout.is_empty(), "nothing on stdout");
    let expected = t
        .compile()
        .expect_err("hostile")
        .render(&t.path().display().to_string());
    assert_eq!(stderr, format!("{expected}\n"));
    for rule in [
        "error[name-matches-directory]",
        "error[frontmatter-missing-opening-fence]",
        "error[path-segment]",
        "warning[file-outside-skill]",
    ] {
        assert!(stderr.contains(rule), "{rule} in {stderr}");
    }
    assert!(stderr.ends_with("3 errors in the skills folder; nothing was published\n"));
}

#[test]
fn check_reports_warnings_on_stderr_and_still_succeeds() {
    let t = TempDir::new("check-warn");
    t.write("x/SKILL.md", skill_md("x", ""));
    t.write("x/.DS_Store", b"\x00");
    let out = check(t.path());
    let stdout = String::from_utf8(out.stdout).expect("UTF-8");
    let stderr = String::from_utf8(out.stderr).expect("UTF-8");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let entries: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(entries.as_array().map(Vec::len), Some(1));
    assert_eq!(entries[0]["uri"], "skill://x/SKILL.md");
    assert!(stderr.contains("warning[junk-file]"), "{stderr}");

    // An empty folder publishes nothing, successfully.
    let empty = TempDir::new("check-empty");
    let out = check(empty.path());
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "[]\n");
}

#[test]
fn check_usage_errors() {
    let missing = TempDir::new("check-missing");
    let out = check(&missing.path().join("nope"));
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("error[io]"));

    let out = Command::new(env!("CARGO_BIN_EXE_skills-edge"))
        .arg("check")
        .output()
        .expect("run");
    assert_eq!(
        out.status.code(),
        Some(2),
        "check without a folder is a usage error"
    );
    assert!(out.stdout.is_empty());
}
