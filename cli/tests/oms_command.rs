//! `skills-edge keygen --oms` and `check`/`pack --oms-sign` (the native command, run as a
//! process): keygen writes a P-256 key pair in PEM (the secret mode 0600) that round-trips and
//! prints its hint, never replacing a file; `check --oms-sign` (or `SKILLS_OMS_KEY`) lists
//! `skill.oms.sig` in every skill and prints the hint; a public key given to sign stops the
//! command with an `oms-signature` error naming the file; the secret reaches no output.

use crate::common::TempDir;
use skills_edge::catalog::oms::{OmsPublicKey, OmsSigningKey};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn skills() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../skills")
}

fn run(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_skills-edge"));
    for v in ["SKILLS_SIGNING_KEY", "SKILLS_CATALOG_ID", "SKILLS_OMS_KEY"] {
        c.env_remove(v);
    }
    c.args(args)
        .envs(env.iter().copied())
        .output()
        .expect("run skills-edge")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn keygen_oms_writes_a_p256_pair_and_check_oms_sign_gives_every_skill_its_signature() {
    let dir = TempDir::new("oms-keygen");
    let out_dir = dir.path().join("keys");
    let out_arg = out_dir.to_str().unwrap();
    let out = run(&["keygen", "--oms", "--out", out_arg], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let secret = std::fs::read_to_string(out_dir.join("oms.key")).unwrap();
    let public = std::fs::read_to_string(out_dir.join("oms.pub")).unwrap();
    let key = OmsSigningKey::from_pem(&secret, "oms.key").unwrap();
    assert_eq!(
        key.public(),
        &OmsPublicKey::from_pem(&public, "oms.pub").unwrap()
    );
    assert_eq!(text(&out.stdout).trim_end(), key.public().hint());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(out_dir.join("oms.key"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let again = run(&["keygen", "--oms", "--out", out_arg], &[]);
    assert_eq!(again.status.code(), Some(1));
    assert!(
        text(&again.stderr).contains("already exists"),
        "{}",
        text(&again.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(out_dir.join("oms.key")).unwrap(),
        secret
    );

    let key_file = out_dir.join("oms.key");
    let skills = skills();
    let by_flag = run(
        &[
            "check",
            skills.to_str().unwrap(),
            "--oms-sign",
            key_file.to_str().unwrap(),
        ],
        &[],
    );
    let by_env = run(
        &["check", skills.to_str().unwrap()],
        &[("SKILLS_OMS_KEY", key_file.to_str().unwrap())],
    );
    for out in [&by_flag, &by_env] {
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let entries: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        for e in entries.as_array().unwrap() {
            let root = e["uri"].as_str().unwrap().trim_end_matches("SKILL.md");
            let sig = format!("{root}skill.oms.sig");
            assert!(e.to_string().contains(&sig), "{sig} not in {e}");
        }
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains(&format!("key hint {}", key.public().hint())),
            "{stderr}"
        );
        // The secret's base64 body is in no output.
        let body = secret.lines().nth(1).unwrap();
        assert!(!stderr.contains(body) && !text(&out.stdout).contains(body));
    }

    let public_file = out_dir.join("oms.pub");
    let refused = run(
        &[
            "check",
            skills.to_str().unwrap(),
            "--oms-sign",
            public_file.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(refused.status.code(), Some(1));
    let stderr = text(&refused.stderr);
    assert!(
        stderr.contains(&format!("error[oms-signature]: {}", public_file.display()))
            && stderr.contains("is a public key"),
        "{stderr}"
    );
}
