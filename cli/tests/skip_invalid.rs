//! `skills-edge check --skip-invalid` and `pack --check --skip-invalid` over the generated
//! catalog shaped like a real one (`tests/common/real_like.rs`): by default the folder is
//! refused, naming the skill; with the option that skill is left out, its error printed as a
//! warning, and the other 16 are published (the library's side: `tests/skip_invalid.rs`).

use crate::common;

use common::real_like::real_like;
use common::TempDir;
use skills_edge::catalog::walk;
use std::process::Command;

#[test]
fn the_check_and_pack_commands_skip_as_the_option_does() {
    let dir = TempDir::new("skip-invalid");
    let tree = real_like();
    for f in &tree.files {
        dir.write(&f.path, &f.bytes);
    }
    let bin = env!("CARGO_BIN_EXE_skills-edge");
    let refused = Command::new(bin)
        .arg("check")
        .arg(dir.path())
        .output()
        .expect("runs");
    assert_eq!(refused.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("error[description-length]"), "{stderr}");
    let d = dir.path().to_str().expect("a UTF-8 temp path");
    for args in [
        vec!["check", "--skip-invalid", d],
        vec!["pack", d, "--check", "--skip-invalid"],
    ] {
        let out = Command::new(bin).args(&args).output().expect("runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(stderr.contains("warning[skill-left-out]"), "{stderr}");
        assert!(stderr.contains("warning[description-length]"), "{stderr}");
        assert!(stderr.contains(": 16 skills,"), "{stderr}");
        let entries: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        assert_eq!(entries.as_array().map(Vec::len), Some(16));
    }
    // The walker reads the same tree as the fixture.
    assert_eq!(walk::walk(dir.path()).tree.files.len(), tree.files.len());
}
