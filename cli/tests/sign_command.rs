//! `skills-edge keygen` and signing with `check`/`pack --sign` (the native command, run as a
//! process): keygen writes a secret (mode 0600) and a public JWK that round-trip, prints the key
//! id and never replaces a file; `pack --sign` writes a signed pack (format 5) whose envelopes
//! verify against the public file; `check --sign` prints the key id and the catalog identity;
//! a missing, public or damaged key file stops the command with a `signing-key` error naming
//! the file; and the secret (`d`) appears in no byte of any output.

use crate::common::TempDir;
use serde_json::Value as Json;
use skills_edge::catalog::pack;
use skills_edge::catalog::sign::{Envelope, PublicKey, SigningKey, DSSE_META_KEY};
use skills_edge::catalog::Catalog;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn skills() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../skills")
}

/// Runs the command without the build variables of the environment, plus `env`.
fn run(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_skills-edge"));
    for v in [
        "SKILLS_SIGNING_KEY",
        "SKILLS_CATALOG_ID",
        "SKILLS_STRICT",
        "SKILLS_ON_INVALID",
    ] {
        c.env_remove(v);
    }
    c.args(args)
        .envs(env.iter().copied())
        .output()
        .expect("run skills-edge")
}

fn text(b: &[u8]) -> String {
    String::from_utf8(b.to_vec()).expect("UTF-8")
}

/// `keygen --out DIR`: the key id printed, the secret key and its `d`.
fn keygen(dir: &Path) -> (String, SigningKey, String) {
    let out = run(&["keygen", "--out", dir.to_str().unwrap()], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let id = text(&out.stdout).trim_end().to_owned();
    let secret = std::fs::read_to_string(dir.join("signing.key")).unwrap();
    let d = serde_json::from_str::<Json>(&secret).unwrap()["d"]
        .as_str()
        .unwrap()
        .to_owned();
    (id, SigningKey::from_jwk(&secret).unwrap(), d)
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w == needle.as_bytes())
}

#[test]
fn keygen_writes_a_key_pair_that_round_trips_and_never_replaces_a_file() {
    let t = TempDir::new("keygen");
    let dir = t.path().join("new/keys");
    let out = run(&["keygen", "--out", dir.to_str().unwrap()], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let id = text(&out.stdout);
    let secret_text = std::fs::read_to_string(dir.join("signing.key")).unwrap();
    let public_text = std::fs::read_to_string(dir.join("signing.pub")).unwrap();
    let key = SigningKey::from_jwk(&secret_text).expect("the secret JWK reads back");
    let public = PublicKey::from_jwk(&public_text).expect("the public JWK reads back");
    assert_eq!(key.public(), &public);
    assert_eq!(id, format!("{}\n", public.key_id()));
    assert_eq!(secret_text, format!("{}\n", key.to_jwk()));
    assert_eq!(public_text, format!("{}\n", public.to_jwk()));
    assert!(
        PublicKey::from_jwk(&secret_text).is_err(),
        "the secret has d"
    );
    let d = serde_json::from_str::<Json>(&secret_text).unwrap()["d"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(!contains(&out.stdout, &d) && !contains(&out.stderr, &d));
    let shown = dir.to_str().unwrap();
    assert_eq!(
        text(&out.stderr),
        format!("wrote {shown}/signing.key (the secret key: keep it private; sign with --sign {shown}/signing.key or SKILLS_SIGNING_KEY={shown}/signing.key) and {shown}/signing.pub (the public key, for hosts that verify)\n")
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = |f: &str| std::fs::metadata(dir.join(f)).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode("signing.key"), 0o600);
        assert_eq!(mode("signing.pub"), 0o644);
    }

    // Again into the same folder: refused, naming the file; nothing changes.
    let again = run(&["keygen", "--out", shown], &[]);
    assert_eq!(again.status.code(), Some(1));
    assert!(again.stdout.is_empty());
    assert_eq!(
        text(&again.stderr),
        format!("error: {shown}/signing.key already exists\n  fix: delete it, or choose another --out folder (keygen never replaces a key)\n")
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("signing.key")).unwrap(),
        secret_text
    );
    // Only the public file there: refused too, and no secret is written beside it.
    std::fs::remove_file(dir.join("signing.key")).unwrap();
    let again = run(&["keygen", "--out", shown], &[]);
    assert_eq!(again.status.code(), Some(1));
    assert!(
        text(&again.stderr).starts_with(&format!("error: {shown}/signing.pub already exists\n"))
    );
    assert!(!dir.join("signing.key").exists());
    assert_eq!(
        std::fs::read_to_string(dir.join("signing.pub")).unwrap(),
        public_text
    );
    // Two runs make two different keys.
    let other = t.path().join("other");
    let (other_id, _, _) = keygen(&other);
    assert_ne!(other_id, public.key_id());
    // A file where the folder should be: the system's reason, and the fix.
    let file = t.write("plain", "x");
    let bad = run(&["keygen", "--out", file.to_str().unwrap()], &[]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(
        text(&bad.stderr).starts_with(&format!("error: cannot write {}: ", file.display())),
        "{}",
        text(&bad.stderr)
    );
    // Usage errors: exit status 2.
    assert_eq!(run(&["keygen"], &[]).status.code(), Some(2));
}

#[test]
fn pack_and_check_sign_every_skill_and_never_print_the_secret() {
    let t = TempDir::new("pack-sign");
    let keys = t.path().join("keys");
    let (id, key, d) = keygen(&keys);
    let key_file = keys.join("signing.key");
    let key_file = key_file.to_str().unwrap();
    let dir = skills();
    let dir = dir.to_str().unwrap();

    // pack --sign, inline and with assets.
    let file = t.path().join("signed.pack");
    let assets = t.path().join("assets");
    let out = run(
        &[
            "pack",
            dir,
            "-o",
            file.to_str().unwrap(),
            "--sign",
            key_file,
            "--catalog-id",
            "acme.example/skills",
            "--assets",
            assets.to_str().unwrap(),
            "--inline-max",
            "0",
        ],
        &[],
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let bytes = std::fs::read(&file).unwrap();
    let n = Catalog::from_bytes(bytes.clone()).unwrap().skill_count();
    assert!(n > 1);
    assert!(
        stderr.contains(&format!(
            "\nsigned: {n} skills, key id {id}, catalog acme.example/skills\n"
        )),
        "{stderr}"
    );
    assert_eq!(bytes[8..12], pack::VERSION.to_le_bytes());
    let mut every_output = vec![bytes.clone(), out.stdout.clone(), out.stderr.clone()];
    for a in std::fs::read_dir(&assets).unwrap() {
        every_output.push(std::fs::read(a.unwrap().path()).unwrap());
    }
    let catalog = Catalog::from_bytes(bytes).unwrap();
    assert!(catalog.is_signed());
    for s in catalog.skills() {
        let entry: Json = serde_json::from_str(s.entry_json).unwrap();
        let env = Envelope::parse(entry["_meta"][DSSE_META_KEY].to_string().as_bytes()).unwrap();
        let st = env.verify(key.public()).expect("verifies with signing.pub");
        assert_eq!(
            (st.skill.as_str(), st.revision.as_str(), st.catalog.as_str()),
            (s.uri, s.revision, "acme.example/skills")
        );
    }

    // The environment's variables sign the same way; the default identity is the key id.
    let file2 = t.path().join("env.pack");
    let out = run(
        &["pack", dir, "-o", file2.to_str().unwrap()],
        &[("SKILLS_SIGNING_KEY", key_file)],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).ends_with(&format!("signed: {n} skills, key id {id}, catalog {id}\n"))
    );
    every_output.extend([std::fs::read(&file2).unwrap(), out.stdout, out.stderr]);

    // check --sign: the entries with their envelopes on stdout; key id and identity on stderr.
    let out = run(
        &["check", dir, "--sign", key_file, "--catalog-id", "acme"],
        &[],
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.ends_with(&format!(
            ": ok\nsigned: {n} skills, key id {id}, catalog acme\n"
        )),
        "{stderr}"
    );
    let entries: Vec<Json> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(entries.len(), n);
    assert!(entries
        .iter()
        .all(|e| e["_meta"][DSSE_META_KEY].is_object()));
    every_output.extend([out.stdout, out.stderr]);

    for (i, o) in every_output.iter().enumerate() {
        assert!(!contains(o, &d), "output {i} holds the secret");
    }
}

#[test]
fn a_key_file_that_cannot_sign_stops_the_command_naming_the_file() {
    let t = TempDir::new("bad-key");
    let keys = t.path().join("keys");
    let (_, _, d) = keygen(&keys);
    let secret = std::fs::read_to_string(keys.join("signing.key")).unwrap();
    let damaged = t.write("damaged.key", secret.replacen(&d[..6], "AAAAAA", 1));
    let truncated = t.write("truncated.key", &secret[..secret.len() / 2]);
    let missing = t.path().join("missing.key");
    let public = keys.join("signing.pub");
    let dir = skills();
    let out_file = t.path().join("x.pack");
    for (file, says) in [
        (
            missing.clone(),
            "cannot read the signing key: No such file or directory (os error 2)",
        ),
        (
            public.clone(),
            "the signing key has no secret (\"d\"): this is a public key",
        ),
        (
            damaged.clone(),
            "the signing key's \"x\" is not the public key of its \"d\": the file is damaged",
        ),
        (truncated.clone(), "the signing key is not a JSON Web Key"),
        (keys.clone(), "cannot read the signing key: Is a directory"),
    ] {
        let shown = file.to_str().unwrap();
        for cmd in [
            vec![
                "pack",
                dir.to_str().unwrap(),
                "-o",
                out_file.to_str().unwrap(),
                "--sign",
                shown,
            ],
            vec!["check", dir.to_str().unwrap(), "--sign", shown],
        ] {
            let out = run(&cmd, &[]);
            let stderr = text(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{stderr}");
            assert!(out.stdout.is_empty());
            assert!(
                stderr.starts_with(&format!("error[signing-key]: {shown}: {says}")),
                "{stderr}"
            );
            assert!(
                stderr.ends_with("\n  fix: give the signing.key file `skills-edge keygen --out DIR` wrote (signing.pub is its public half), or make a new key with that command\n"),
                "{stderr}"
            );
            assert!(!contains(&out.stderr, &d), "{stderr}");
            assert!(!out_file.exists(), "no pack is written");
        }
    }
    // The same from the environment; and a catalog identity without a key is a usage error.
    let out = run(
        &["check", dir.to_str().unwrap()],
        &[("SKILLS_SIGNING_KEY", public.to_str().unwrap())],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).starts_with("error[signing-key]: "));
    let out = run(
        &["check", dir.to_str().unwrap()],
        &[("SKILLS_CATALOG_ID", "acme")],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).starts_with("error: SKILLS_CATALOG_ID is given but no signing key"));
}

/// A CI secret put in `SKILLS_SIGNING_KEY` (or `--sign`) where its file's path belongs: pack,
/// check and publish stop with a `signing-key` error that says to give a path, and no part
/// of the secret's `d` reaches stdout or stderr.
#[test]
fn a_key_given_as_its_text_in_the_variable_is_never_echoed() {
    let tmp = TempDir::new("sign-key-text");
    let (_, _, d) = keygen(&tmp.path().join("keys"));
    let secret = std::fs::read_to_string(tmp.path().join("keys/signing.key")).unwrap();
    let dir = skills();
    let out_file = tmp.path().join("out.pack");
    let dir = dir.to_str().unwrap();
    let out_path = out_file.to_str().unwrap();
    for given in [secret.trim_end(), secret.as_str(), d.as_str()] {
        for cmd in [
            vec!["pack", dir, "-o", out_path],
            vec!["check", dir],
            vec!["publish", dir, "--bucket", "b", "--dry-run"],
        ] {
            for out in [
                run(&cmd, &[("SKILLS_SIGNING_KEY", given)]),
                run(&[cmd.clone(), vec!["--sign", given]].concat(), &[]),
            ] {
                let stderr = text(&out.stderr);
                assert_ne!(out.status.code(), Some(0), "{cmd:?}: {stderr}");
                assert!(
                    stderr.contains("error[signing-key]: --sign or SKILLS_SIGNING_KEY: the setting holds what looks like a key's text"),
                    "{cmd:?}: {stderr}"
                );
                assert!(stderr.contains("fix: write the key to a file"), "{stderr}");
                for part in [&d[..8], &d[d.len() / 2..d.len() / 2 + 8], &d[d.len() - 8..]] {
                    assert!(!contains(&out.stderr, part), "{cmd:?}: {stderr}");
                    assert!(!contains(&out.stdout, part), "{cmd:?}");
                }
                assert!(!out_file.exists(), "no pack is written");
            }
        }
    }
}
