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

/// The name of the child mode of [`build_script_with_an_oms_key_embeds_the_native_oms_signed_pack`].
const EMBED_CHILD: &str = "SKILLS_EDGE_TEST_EMBED_CHILD";

/// `build.rs`'s body (`build_script::embed`, what the library's and any embedding crate's
/// build script runs) with `SKILLS_OMS_KEY`: the embedded pack is, byte for byte, the native
/// `pack --oms-sign` pack, with the key named relative to the package as `SKILLS_DIR` is. The
/// build script runs as cargo runs one, in a process of its own with its own environment
/// (this test binary again, in child mode); a key that cannot sign stops it (exit status 1)
/// with the `oms-signature` error.
#[test]
fn build_script_with_an_oms_key_embeds_the_native_oms_signed_pack() {
    if std::env::var_os(EMBED_CHILD).is_some() {
        skills_edge::build_script::embed("skills");
        return;
    }
    let dir = TempDir::new("oms-embed");
    let package = dir.path().join("package");
    let out_dir = dir.path().join("out");
    std::fs::create_dir_all(&out_dir).unwrap();
    copy_tree(&skills(), &package.join("skills"));
    let key = OmsSigningKey::from_scalar(&[5; 32]).unwrap();
    std::fs::create_dir_all(package.join("keys")).unwrap();
    std::fs::write(package.join("keys/oms.key"), key.to_pem()).unwrap();
    std::fs::write(package.join("keys/oms.pub"), key.public().to_pem()).unwrap();
    let embed = |key_var: &str| {
        let mut c = Command::new(std::env::current_exe().unwrap());
        for v in [
            "SKILLS_SIGNING_KEY",
            "SKILLS_CATALOG_ID",
            "SKILLS_STRICT",
            "SKILLS_ON_INVALID",
            "SKILLS_DIR",
        ] {
            c.env_remove(v);
        }
        c.args([
            "--exact",
            "oms_command::build_script_with_an_oms_key_embeds_the_native_oms_signed_pack",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(EMBED_CHILD, "1")
        .env("CARGO_MANIFEST_DIR", &package)
        .env("OUT_DIR", &out_dir)
        .env("SKILLS_OMS_KEY", key_var)
        .output()
        .expect("run the build script")
    };
    let built = embed("keys/oms.key");
    assert!(built.status.success(), "{}", text(&built.stderr));
    assert!(
        text(&built.stdout).contains("cargo:rerun-if-env-changed=SKILLS_OMS_KEY"),
        "{}",
        text(&built.stdout)
    );
    let embedded = std::fs::read(out_dir.join("catalog.pack")).unwrap();
    let native_pack = dir.path().join("native.pack");
    let native = run(
        &[
            "pack",
            package.join("skills").to_str().unwrap(),
            "-o",
            native_pack.to_str().unwrap(),
            "--oms-sign",
            package.join("keys/oms.key").to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(native.status.code(), Some(0), "{}", text(&native.stderr));
    assert!(
        std::fs::read(&native_pack).unwrap() == embedded,
        "the embedded pack is the native OMS-signed pack"
    );
    // A public key where the secret belongs stops the build, naming the file as given.
    let refused = embed("keys/oms.pub");
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        text(&refused.stderr).contains("error[oms-signature]: keys/oms.pub"),
        "{}",
        text(&refused.stderr)
    );
}

/// Copies the folder `from` into `to`, recursively.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}
