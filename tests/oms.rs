//! OpenSSF Model Signing: the `skill.oms.sig` the build publishes in every skill is judged by
//! the tool its users run, `model_signing verify key` (PyPI `model-signing` 1.1.1, pinned by
//! hash in tests/py/requirements.txt, installed by scripts/setup.sh in target/py), on the
//! folder a user gets by unpacking the skill's mirror archive with Python's `tarfile`; and the
//! host accepts what `model_signing sign key` signs, and refuses what it does not cover.

use skills_edge::catalog::compile::{Compiled, Options, SourceTree};
use skills_edge::catalog::oms::{self, OmsPublicKey, OmsSigningKey, SIGNATURE_FILE};
use skills_edge::catalog::walk;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A fresh folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("skills-edge-oms-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The venv's tool: its absence fails the test with the fix (a judge that does not run
/// judges nothing).
fn venv(tool: &str) -> PathBuf {
    let p = Path::new(ROOT).join("target/py/bin").join(tool);
    assert!(
        p.exists(),
        "{} is missing: run `bash scripts/setup.sh` (it installs model-signing from tests/py/requirements.txt)",
        p.display()
    );
    p
}

fn key(n: u8) -> OmsSigningKey {
    OmsSigningKey::from_scalar(&[n; 32]).unwrap()
}

fn write_public(dir: &Path, name: &str, key: &OmsPublicKey) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, key.to_pem()).unwrap();
    p
}

/// `model_signing verify key DIR --signature DIR/skill.oms.sig --public_key PUB`.
fn model_signing_verify(dir: &Path, public: &Path) -> Output {
    Command::new(venv("model_signing"))
        .arg("verify")
        .arg("key")
        .arg(dir)
        .arg("--signature")
        .arg(dir.join(SIGNATURE_FILE))
        .arg("--public_key")
        .arg(public)
        .output()
        .expect("model_signing runs")
}

/// Unpacks `archive` into `into` with Python's `tarfile` and its `data` filter, as an
/// installer does.
fn untar(archive: &[u8], into: &Path) {
    let file = into.with_extension("tar.gz");
    std::fs::write(&file, archive).unwrap();
    let run = Command::new(venv("python"))
        .arg("-c")
        .arg(
            "import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2], filter='data')",
        )
        .arg(&file)
        .arg(into)
        .output()
        .expect("python runs");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
}

fn compiled_with(key: &OmsSigningKey) -> Compiled {
    let walked = walk::walk(&Path::new(ROOT).join("skills"));
    oms::compile_signed(walked.tree, Options::default(), key).unwrap()
}

fn said(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn model_signing_accepts_every_published_skill_and_refuses_a_changed_byte_an_added_file_and_another_key(
) {
    let publisher = key(7);
    let c = compiled_with(&publisher);
    let dir = scratch("publish");
    let public = write_public(&dir, "oms.pub", publisher.public());
    let other = write_public(&dir, "other.pub", key(8).public());
    let mirrored = c.mirrored();
    assert!(
        mirrored.len() >= 5,
        "the example catalog mirrors its skills"
    );
    for (name, skill) in &mirrored {
        // Every skill now has a file besides SKILL.md (its signature), so every one is an
        // archive in the mirror: the `skills` installer installs the signature with the files.
        let archive = skill
            .archive
            .as_ref()
            .expect("a signed skill is an archive");
        let installed = dir.join(name);
        untar(&archive.bytes, &installed);
        assert!(installed.join(SIGNATURE_FILE).is_file(), "{name}");
        let ok = model_signing_verify(&installed, &public);
        assert!(ok.status.success(), "{name}: {}", said(&ok));
        assert!(
            said(&ok).contains("Verification succeeded"),
            "{}",
            said(&ok)
        );
        let wrong = model_signing_verify(&installed, &other);
        assert!(!wrong.status.success(), "{name} verified under another key");
        assert!(said(&wrong).contains("Key mismatch"), "{}", said(&wrong));
    }

    // The skill with a nested skill: a byte of the nested skill's file, then a file added.
    let installed = dir.join("release-notes");
    let target = installed.join("changelog-lint/SKILL.md");
    let original = std::fs::read(&target).unwrap();
    let mut changed = original.clone();
    changed[10] ^= 1;
    std::fs::write(&target, &changed).unwrap();
    let refused = model_signing_verify(&installed, &public);
    assert!(!refused.status.success(), "a changed byte verified");
    assert!(
        said(&refused).contains("Hash mismatch for 'changelog-lint/SKILL.md'"),
        "{}",
        said(&refused)
    );
    std::fs::write(&target, &original).unwrap();
    assert!(model_signing_verify(&installed, &public).status.success());
    std::fs::write(installed.join("extra.md"), "added\n").unwrap();
    let refused = model_signing_verify(&installed, &public);
    assert!(!refused.status.success(), "an added file verified");
    assert!(said(&refused).contains("extra.md"), "{}", said(&refused));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_signature_is_a_file_of_each_skill_covered_by_the_catalog_signature_and_reproducible() {
    let a = compiled_with(&key(7));
    let b = compiled_with(&key(7));
    for (s, t) in a.skills.iter().zip(&b.skills) {
        let sig = format!("{}/{SIGNATURE_FILE}", s.root);
        let file = s
            .files
            .iter()
            .map(|&i| &a.files[i])
            .find(|f| f.uri == sig)
            .unwrap_or_else(|| panic!("{} has no {SIGNATURE_FILE}", s.uri));
        let same = t
            .files
            .iter()
            .map(|&i| &b.files[i])
            .find(|f| f.uri == sig)
            .unwrap();
        assert_eq!(file.bytes, same.bytes, "RFC 6979 signing is deterministic");
        assert!(file.is_text, "a bundle is JSON text, served as text");
        // The DSSE statement (signed after) lists it like every file.
        assert!(a.statement(s, "x").subjects.iter().any(|x| x.name == sig));
    }
}

#[test]
fn a_publishers_own_skill_oms_sig_is_replaced_and_git_files_at_a_root_stop_the_build() {
    let mut tree = SourceTree::default();
    tree.add_file("a/SKILL.md", "---\nname: a\ndescription: A.\n---\n");
    tree.add_file("a/skill.oms.sig", "stale");
    let c = oms::compile_signed(tree, Options::default(), &key(7)).unwrap();
    let sig = c
        .files
        .iter()
        .find(|f| f.uri == "skill://a/skill.oms.sig")
        .unwrap();
    assert!(sig.bytes.starts_with(b"{\"mediaType\""), "replaced");

    let mut tree = SourceTree::default();
    tree.add_file("a/SKILL.md", "---\nname: a\ndescription: A.\n---\n");
    tree.add_file("a/.gitignore", "x\n");
    let e = oms::compile_signed(tree, Options::default(), &key(7)).unwrap_err();
    let d = e.errors().next().unwrap();
    assert_eq!(
        (d.rule.id(), d.path.as_str()),
        ("oms-signature", "a/.gitignore")
    );
}
