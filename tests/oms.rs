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
            // The "data" filter where tarfile has it (Python 3.12, and 3.11.4 on), not in
            // Debian 12's 3.11.2.
            "import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2], **({'filter': 'data'} if hasattr(tarfile, 'data_filter') else {}))",
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

// The host side: `skills-edge verify` on a well-known source (the in-memory mirror of
// tests/wellknown.rs) whose `code-review` archive carries a `skill.oms.sig` that
// `model_signing sign key` made over the skill's folder.

use crate::archive_support::{gz, tar};
use crate::wellknown::{compiled, Server, INDEX, ORIGIN};
use serde_json::{json, Value as Json};
use skills_edge::catalog::sign::{Envelope, SigningKey, Statement, Subject};
use skills_edge::client::block_on;
use skills_edge::command::args::VerifyArgs;
use skills_edge::command::report::Output as Report;
use skills_edge::command::verify::{verify_command, SignerFiles};
use skills_edge::skill::digest::digest_of;
use skills_edge::skill::revision::skill_revision;

const ARCHIVE: &str = "http://127.0.0.1:8787/.well-known/agent-skills/code-review.tar.gz";

/// `code-review`'s files, by path relative to its root, SKILL.md first.
fn code_review_files() -> Vec<(String, Vec<u8>)> {
    let c = compiled();
    let s = c.mirrored()["code-review"];
    s.files
        .iter()
        .map(|&i| &c.files[i])
        .map(|f| (c.relative_path(s, &f.uri).to_owned(), f.bytes.clone()))
        .collect()
}

/// `model_signing sign key` over `files` laid out in a folder, with `key`: the bundle it
/// writes.
fn model_signing_sign(dir: &Path, files: &[(String, Vec<u8>)], key: &OmsSigningKey) -> Vec<u8> {
    let folder = dir.join("code-review");
    let _ = std::fs::remove_dir_all(&folder);
    for (path, bytes) in files {
        let p = folder.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
    let private = dir.join("signer.key");
    std::fs::write(&private, key.to_pem()).unwrap();
    let run = Command::new(venv("model_signing"))
        .arg("sign")
        .arg("key")
        .arg(&folder)
        .arg("--private_key")
        .arg(&private)
        .arg("--signature")
        .arg(folder.join(SIGNATURE_FILE))
        .output()
        .expect("model_signing runs");
    assert!(run.status.success(), "{}", said(&run));
    std::fs::read(folder.join(SIGNATURE_FILE)).unwrap()
}

/// Serves `files` (and the signature) as `code-review`'s archive, the index's digest in step.
fn serve(server: &Server, files: &[(String, Vec<u8>)], sig: Option<&[u8]>) {
    let mut members: Vec<(&str, u8, &[u8])> = files
        .iter()
        .map(|(p, b)| (p.as_str(), b'0', b.as_slice()))
        .collect();
    if let Some(sig) = sig {
        members.push((SIGNATURE_FILE, b'0', sig));
    }
    server.replace("code-review", "application/gzip", gz(&tar(&members)), true);
}

fn verify(server: &Server, trust: &[(&str, String)]) -> Vec<Json> {
    let mut args = vec![INDEX.to_owned(), "--json".to_owned()];
    for (name, _) in trust {
        args.push("--trust".into());
        args.push((*name).to_owned());
    }
    let files = SignerFiles {
        trust: trust.iter().map(|(_, t)| t.clone()).collect(),
        pins: None,
    };
    let out: Report = block_on(verify_command(
        &VerifyArgs::parse(&args).unwrap(),
        &files,
        server,
    ));
    assert!(out.exit_code < 2, "{}{}", out.stdout, out.stderr);
    out.stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn line<'a>(lines: &'a [Json], name: &str) -> &'a Json {
    lines.iter().find(|l| l["name"] == name).unwrap()
}

/// The failed check of a skill's line: (its URI, its code, its message).
fn failure(l: &Json) -> (String, String, String) {
    let c = l["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["status"] == "failed")
        .unwrap_or_else(|| panic!("no failed check in {l}"));
    let s = |v: &Json| v.as_str().unwrap_or_default().to_owned();
    (s(&c["uri"]), s(&c["code"]), s(&c["why"]))
}

#[test]
fn a_skill_model_signing_signed_verifies_with_its_trusted_key_and_not_with_another() {
    let dir = scratch("host");
    let signer = key(21);
    let files = code_review_files();
    let sig = model_signing_sign(&dir, &files, &signer);
    let server = Server::new();
    serve(&server, &files, Some(&sig));
    let trusted = [("oms.pub", signer.public().to_pem())];
    let lines = verify(&server, &trusted);
    let l = line(&lines, "code-review");
    assert_eq!(l["status"], "verified", "{l}");
    assert_eq!(
        l["signer"]["keyId"],
        format!("oms:{}", signer.public().hint())
    );
    assert_eq!(l["signer"]["trust"], "trusted");
    // The trust list is one list: a skill signed in neither format by a key on it fails.
    let (uri, code, _) = failure(line(&lines, "diagram-style"));
    assert!(
        uri.ends_with(&format!("diagram-style.tar.gz#{SIGNATURE_FILE}")),
        "{uri}"
    );
    assert_eq!(code, "signer-untrusted");

    // Another key trusted: refused, the signature's file named.
    let other = [("other.pub", key(22).public().to_pem())];
    let l = verify(&server, &other);
    let (uri, code, why) = failure(line(&l, "code-review"));
    assert_eq!(
        (uri.as_str(), code.as_str()),
        (
            format!("{ARCHIVE}#{SIGNATURE_FILE}").as_str(),
            "signer-untrusted"
        ),
        "{why}"
    );

    // Without any key trusted the bundle's coverage is still checked (it holds here).
    let l = verify(&server, &[]);
    assert_eq!(line(&l, "code-review")["status"], "verified");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_signature_that_does_not_cover_exactly_the_served_files_fails_naming_the_file() {
    let dir = scratch("cover");
    let signer = key(23);
    let files = code_review_files();
    let sig = model_signing_sign(&dir, &files, &signer);
    let trusted = [("oms.pub", signer.public().to_pem())];
    let server = Server::new();

    // A byte of one file changed (the index's digest kept in step, as a mirror that rebuilt
    // the archive would): the file is named.
    let mut changed = files.clone();
    let last = changed.len() - 1;
    changed[last].1[0] ^= 1;
    serve(&server, &changed, Some(&sig));
    for trust in [&trusted[..], &[]] {
        let (uri, code, why) = failure(line(&verify(&server, trust), "code-review"));
        assert_eq!(uri, format!("{ARCHIVE}#{}", files[last].0), "{why}");
        assert_eq!(code, "signature-invalid");
        assert!(why.contains("changed after signing"), "{why}");
    }

    // A file added.
    let mut added = files.clone();
    added.push(("references/added.md".into(), b"new\n".to_vec()));
    serve(&server, &added, Some(&sig));
    let (uri, _, why) = failure(line(&verify(&server, &trusted), "code-review"));
    assert_eq!(uri, format!("{ARCHIVE}#references/added.md"), "{why}");

    // The bundle of another folder (diagram-style's files, signed by the same key).
    let c = compiled();
    let ds = c.mirrored()["diagram-style"];
    let other: Vec<(String, Vec<u8>)> = ds
        .files
        .iter()
        .map(|&i| &c.files[i])
        .map(|f| (c.relative_path(ds, &f.uri).to_owned(), f.bytes.clone()))
        .collect();
    let foreign = model_signing_sign(&dir, &other, &signer);
    serve(&server, &files, Some(&foreign));
    let (_, code, why) = failure(line(&verify(&server, &trusted), "code-review"));
    assert_eq!(code, "signature-invalid", "{why}");

    // A truncated bundle, and a certificate chain's bundle: clear errors, never a pass.
    serve(&server, &files, Some(&sig[..sig.len() / 2]));
    let (_, code, why) = failure(line(&verify(&server, &trusted), "code-review"));
    assert_eq!(code, "signature-invalid");
    assert!(why.contains("truncated"), "{why}");
    let text = String::from_utf8(sig.clone()).unwrap();
    let chain = text.replace(
        "\"publicKey\":",
        "\"x509CertificateChain\":{\"certificates\":[]},\"publicKey\":",
    );
    serve(&server, &files, Some(chain.as_bytes()));
    let (_, _, why) = failure(line(&verify(&server, &trusted), "code-review"));
    assert!(why.contains("signed with a certificate"), "{why}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_pem_trust_file_that_is_no_p256_public_key_stops_the_run() {
    let server = Server::new();
    let run = |args: &[&str], trust: Vec<String>| {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        block_on(verify_command(
            &VerifyArgs::parse(&args).unwrap(),
            &SignerFiles { trust, pins: None },
            &server,
        ))
    };
    let cert = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n".to_owned();
    let out = run(&[INDEX, "--trust", "ca.pem"], vec![cert]);
    assert_eq!(out.exit_code, 2, "{}", out.stdout);
    assert!(
        out.stderr
            .contains("--trust ca.pem is a certificate, not a key"),
        "{}",
        out.stderr
    );
    // Key types model_signing's key mode may take (P-384) or not (Ed25519), which this
    // verifier does not read: named, never passed.
    const P384: &str = "-----BEGIN PUBLIC KEY-----\nMHYwEAYHKoZIzj0CAQYFK4EEACIDYgAEYbVVa/BduLpCslCuAZ60sEcDpqSpbd2T\nPwrBOknCJZ5dBlIYevxhm9ll8yJOJTmV7CfW2G0Mbs5+uOHm45Lal283KXfZkcDJ\n7pSSPQVuH6R4HsvUDN9OCpXeH51Y/mIu\n-----END PUBLIC KEY-----\n";
    const ED25519: &str = "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEACHaWSPDTX6ckz3SUBZiAP41yjgriMDi/MnT8yDMpApw=\n-----END PUBLIC KEY-----\n";
    for (name, pem) in [("p384.pub", P384), ("ed25519.pub", ED25519)] {
        let out = run(&[INDEX, "--trust", name], vec![pem.to_owned()]);
        assert_eq!(out.exit_code, 2, "{}", out.stdout);
        assert!(
            out.stderr.contains(&format!(
                "--trust {name} is a public key, but not ECDSA P-256"
            )),
            "{}",
            out.stderr
        );
    }
    let secret = key(1).to_pem();
    let out = run(&[INDEX, "--trust", "oms.key"], vec![secret.clone()]);
    assert_eq!(out.exit_code, 2);
    assert!(
        out.stderr
            .contains("private key where a public key belongs"),
        "{}",
        out.stderr
    );
    assert!(
        !out.stderr.contains(secret.lines().nth(1).unwrap()),
        "the secret is never printed"
    );
}

#[test]
fn both_formats_present_must_both_hold() {
    let dir = scratch("both");
    let oms_key = key(31);
    let dsse_key = SigningKey::from_seed([32; 32]);
    let files = code_review_files();
    let server = Server::new();
    // DSSE over every served file, the OMS bundle included, as the build signs.
    let publish = |sig: &[u8]| {
        serve(&server, &files, Some(sig));
        let mut all = files.clone();
        all.push((SIGNATURE_FILE.into(), sig.to_vec()));
        let digests: Vec<(&str, String)> = all
            .iter()
            .map(|(p, b)| (p.as_str(), digest_of(b)))
            .collect();
        let statement = Statement {
            skill: "skill://code-review/SKILL.md".into(),
            revision: skill_revision(digests.iter().map(|(p, d)| (*p, d.as_str()))).unwrap(),
            catalog: "acme".into(),
            subjects: digests
                .iter()
                .map(|(p, d)| Subject {
                    name: format!("skill://code-review/{p}"),
                    sha256: d["sha256:".len()..].to_owned(),
                })
                .collect(),
        };
        let env = Envelope::sign(&statement, &dsse_key).to_json();
        server.put(
            &format!("{ORIGIN}/.well-known/agent-skills/code-review.dsse.json"),
            "application/json",
            env.into_bytes(),
        );
        server.edit_index(|i| {
            for s in i["skills"].as_array_mut().unwrap() {
                if s["name"] == "code-review" {
                    s["_meta"]["io.github.skills-edge/dsse"] =
                        json!("/.well-known/agent-skills/code-review.dsse.json");
                }
            }
        });
    };
    let trust = [
        ("signing.pub", dsse_key.public().to_jwk()),
        ("oms.pub", oms_key.public().to_pem()),
    ];
    let good = model_signing_sign(&dir, &files, &oms_key);
    publish(&good);
    let lines = verify(&server, &trust);
    let l = line(&lines, "code-review");
    assert_eq!(l["status"], "verified", "{l}");
    assert_eq!(l["signer"]["keyId"], dsse_key.public().key_id());
    // The DSSE envelope holds, the OMS bundle is another key's: they disagree, refused.
    let stranger = model_signing_sign(&dir, &files, &key(33));
    publish(&stranger);
    let l = verify(&server, &trust);
    let (uri, code, _) = failure(line(&l, "code-review"));
    assert_eq!(
        (uri, code.as_str()),
        (format!("{ARCHIVE}#{SIGNATURE_FILE}"), "signer-untrusted")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// An MCP endpoint over a catalog compiled from `files` (the `code-review` skill, with
/// `skill.oms.sig` when `sig` is given): the responder, no mirror.
pub(crate) struct Mcp(pub(crate) skills_edge::server::Responder);

impl Mcp {
    pub(crate) fn new(files: &[(String, Vec<u8>)], sig: Option<&[u8]>) -> Mcp {
        let mut tree = SourceTree::default();
        for (p, b) in files {
            tree.add_file(&format!("code-review/{p}"), b.clone());
        }
        if let Some(sig) = sig {
            tree.add_file(&format!("code-review/{SIGNATURE_FILE}"), sig.to_vec());
        }
        let catalog = skills_edge::catalog::Catalog::compile(tree, None).unwrap();
        Mcp(crate::common::responder_over(
            std::sync::Arc::new(catalog),
            50,
        ))
    }
}

impl skills_edge::client::http::HttpIo for Mcp {
    type Body = crate::wellknown::Body;

    fn post(
        &self,
        request: skills_edge::client::http::HttpRequest,
    ) -> impl std::future::Future<
        Output = skills_edge::client::Result<skills_edge::client::http::HttpResponse<Self::Body>>,
    > {
        let reply = self.0.respond(
            request.body.as_bytes(),
            &crate::wellknown::transport_of(&request),
            skills_edge::server::Grant::PUBLIC,
        );
        std::future::ready(Ok(skills_edge::client::http::HttpResponse {
            status: reply.status,
            content_type: reply.body.as_ref().map(|_| "application/json".to_owned()),
            session_id: None,
            www_authenticate: None,
            body: crate::wellknown::Body(reply.body),
        }))
    }

    fn get(
        &self,
        _url: &str,
    ) -> impl std::future::Future<
        Output = skills_edge::client::Result<skills_edge::client::http::HttpResponse<Self::Body>>,
    > {
        std::future::ready(Ok(skills_edge::client::http::HttpResponse {
            status: 404,
            content_type: None,
            session_id: None,
            www_authenticate: None,
            body: crate::wellknown::Body(None),
        }))
    }

    fn now_ms(&self) -> f64 {
        0.0
    }
}

fn verify_mcp(server: &Mcp, trust: &[(&str, String)]) -> Json {
    let mut args = vec![format!("{ORIGIN}/mcp"), "--json".to_owned()];
    for (name, _) in trust {
        args.push("--trust".into());
        args.push((*name).to_owned());
    }
    let files = SignerFiles {
        trust: trust.iter().map(|(_, t)| t.clone()).collect(),
        pins: None,
    };
    let out = block_on(verify_command(
        &VerifyArgs::parse(&args).unwrap(),
        &files,
        server,
    ));
    assert!(out.exit_code < 2, "{}{}", out.stdout, out.stderr);
    let lines: Vec<Json> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    line(&lines, "code-review").clone()
}

#[test]
fn over_mcp_a_model_signing_signed_skill_verifies_with_its_key_and_an_uncovered_file_is_named() {
    let dir = scratch("mcp");
    let signer = key(41);
    let files = code_review_files();
    let sig = model_signing_sign(&dir, &files, &signer);
    let trusted = [("oms.pub", signer.public().to_pem())];
    let l = verify_mcp(&Mcp::new(&files, Some(&sig)), &trusted);
    assert_eq!(l["status"], "verified", "{l}");
    assert_eq!(
        l["signer"]["keyId"],
        format!("oms:{}", signer.public().hint())
    );
    // Without a trusted key the coverage holds; with another key, refused.
    let l = verify_mcp(&Mcp::new(&files, Some(&sig)), &[]);
    assert_eq!(l["status"], "verified", "{l}");
    let other = [("other.pub", key(42).public().to_pem())];
    let l = verify_mcp(&Mcp::new(&files, Some(&sig)), &other);
    let (uri, code, _) = failure(&l);
    assert_eq!(
        (uri.as_str(), code.as_str()),
        ("skill://code-review/skill.oms.sig", "signer-untrusted")
    );
    // A file the signature does not cover, served and listed: named.
    let mut more = files.clone();
    more.push(("references/extra.md".into(), b"extra\n".to_vec()));
    let l = verify_mcp(&Mcp::new(&more, Some(&sig)), &trusted);
    let (uri, code, _) = failure(&l);
    assert_eq!(
        (uri.as_str(), code.as_str()),
        (
            "skill://code-review/references/extra.md",
            "signature-invalid"
        )
    );
    // Trusting an OMS key, a skill signed in neither format fails.
    let l = verify_mcp(&Mcp::new(&files, None), &trusted);
    let (uri, code, _) = failure(&l);
    assert_eq!(
        (uri.as_str(), code.as_str()),
        ("skill://code-review/skill.oms.sig", "signer-untrusted")
    );
    let _ = std::fs::remove_dir_all(&dir);
}
