//! Attacks on the host's check of `skill.oms.sig` (OpenSSF Model Signing bundles): bundles
//! forged with a trusted key whose statement, envelope or JSON is hostile, served as the
//! `code-review` skill of the in-memory well-known mirror (tests/wellknown.rs) and over an MCP
//! endpoint. Each must end in a failed check, never in `verified`.

use crate::archive_support::{gz, tar};
use crate::oms::Mcp;
use crate::wellknown::{compiled, Server, INDEX, ORIGIN};
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde_json::{json, Value as Json};
use sha2::{Digest, Sha256};
use skills_edge::catalog::compile::SourceTree;
use skills_edge::catalog::oms::{OmsSigningKey, SIGNATURE_FILE};
use skills_edge::client::block_on;
use skills_edge::command::args::VerifyArgs;
use skills_edge::command::report::Output as Report;
use skills_edge::command::verify::{verify_command, SignerFiles};

const PAYLOAD_TYPE: &str = "application/vnd.in-toto+json";

pub(crate) fn key(n: u8) -> OmsSigningKey {
    OmsSigningKey::from_scalar(&[n; 32]).unwrap()
}

fn sha(b: &[u8]) -> [u8; 32] {
    Sha256::digest(b).into()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// `code-review`'s files, by path relative to its root.
pub(crate) fn files() -> Vec<(String, Vec<u8>)> {
    let c = compiled();
    let s = c.mirrored()["code-review"];
    s.files
        .iter()
        .map(|&i| &c.files[i])
        .map(|f| (c.relative_path(s, &f.uri).to_owned(), f.bytes.clone()))
        .collect()
}

/// `model_signing`'s order: component by component.
fn sorted(mut v: Vec<(String, String)>) -> Vec<(String, String)> {
    v.sort_by(|a, b| {
        let x: Vec<&str> = a.0.split('/').collect();
        let y: Vec<&str> = b.0.split('/').collect();
        x.cmp(&y)
    });
    v
}

/// The statement `model_signing sign key` writes for `files` (name, hex digest).
pub(crate) fn statement(resources: &[(String, String)]) -> Json {
    let mut all = Vec::new();
    for (_, d) in resources {
        all.extend(hex_bytes(d));
    }
    json!({
        "_type": "https://in-toto.io/Statement/v1",
        "subject": [{"name": "code-review", "digest": {"sha256": hex(&sha(&all))}}],
        "predicateType": "https://model_signing/signature/v1.0",
        "predicate": {
            "resources": resources.iter().map(|(n, d)| json!({"name": n, "digest": d, "algorithm": "sha256"})).collect::<Vec<_>>(),
            "serialization": {
                "allow_symlinks": false,
                "hash_type": "sha256",
                "ignore_paths": [".github", ".gitattributes", SIGNATURE_FILE, ".gitignore", ".git"],
                "method": "files"
            }
        }
    })
}

fn hex_bytes(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .filter_map(|i| u8::from_str_radix(s.get(2 * i..2 * i + 2)?, 16).ok())
        .collect()
}

pub(crate) fn resources_of(files: &[(String, Vec<u8>)]) -> Vec<(String, String)> {
    sorted(
        files
            .iter()
            .map(|(p, b)| (p.clone(), hex(&sha(b))))
            .collect(),
    )
}

fn pae(t: &str, p: &[u8]) -> Vec<u8> {
    let mut m = format!("DSSEv1 {} {} {} ", t.len(), t, p.len()).into_bytes();
    m.extend_from_slice(p);
    m
}

/// A bundle of `payload` (raw bytes) of `ptype`, signed by `signer`, with the hint of `hint`.
pub(crate) fn bundle_raw(payload: &[u8], ptype: &str, signer: &OmsSigningKey) -> Json {
    let sig = signer.sign_der(&pae(ptype, payload));
    json!({
        "mediaType": "application/vnd.dev.sigstore.bundle.v0.3+json",
        "verificationMaterial": {"publicKey": {"hint": signer.public().hint()}, "tlogEntries": []},
        "dsseEnvelope": {
            "payload": STANDARD.encode(payload),
            "payloadType": ptype,
            "signatures": [{"sig": STANDARD.encode(&sig), "keyid": ""}]
        }
    })
}

pub(crate) fn bundle(st: &Json, signer: &OmsSigningKey) -> Vec<u8> {
    let payload = serde_json::to_vec_pretty(st).unwrap();
    serde_json::to_vec(&bundle_raw(&payload, PAYLOAD_TYPE, signer)).unwrap()
}

pub(crate) fn serve(server: &Server, files: &[(String, Vec<u8>)], sig: Option<&[u8]>) {
    let mut members: Vec<(&str, u8, &[u8])> = files
        .iter()
        .map(|(p, b)| (p.as_str(), b'0', b.as_slice()))
        .collect();
    if let Some(sig) = sig {
        members.push((SIGNATURE_FILE, b'0', sig));
    }
    server.replace("code-review", "application/gzip", gz(&tar(&members)), true);
}

fn run(server: &Server, trust: &[(&str, String)]) -> Json {
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
        .map(|l| serde_json::from_str::<Json>(l).unwrap())
        .find(|l| l["name"] == "code-review")
        .unwrap()
}

const SIGNER: u8 = 51;

fn trusted() -> Vec<(&'static str, String)> {
    vec![("oms.pub", key(SIGNER).public().to_pem())]
}

/// Serves `files` with `sig` and returns code-review's report line under the trusted key.
fn judge(files: &[(String, Vec<u8>)], sig: &[u8]) -> Json {
    let server = Server::new();
    serve(&server, files, Some(sig));
    run(&server, &trusted())
}

#[track_caller]
fn refused(l: &Json, what: &str) {
    eprintln!("{what}: {} {}", l["status"], why(l));
    assert_ne!(l["status"], "verified", "{what}: passed: {l}");
    let failed = l["checks"]
        .as_array()
        .map(|c| c.iter().any(|c| c["status"] == "failed"))
        .unwrap_or(false);
    assert!(failed, "{what}: no failed check: {l}");
}

fn why(l: &Json) -> String {
    l["checks"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c["status"] == "failed")
        .map(|c| format!("{} {} {}", c["uri"], c["code"], c["why"]))
        .collect::<Vec<_>>()
        .join(" | ")
}

#[test]
fn a_forged_bundle_shaped_like_model_signings_verifies_so_the_probes_below_are_meaningful() {
    let f = files();
    let l = judge(&f, &bundle(&statement(&resources_of(&f)), &key(SIGNER)));
    assert_eq!(l["status"], "verified", "{l}");
}

#[test]
fn a_manifest_listing_a_file_that_is_not_served_is_refused_naming_it() {
    let f = files();
    let mut r = resources_of(&f);
    r.push(("references/ghost.md".into(), hex(&sha(b"ghost"))));
    let l = judge(&f, &bundle(&statement(&sorted(r)), &key(SIGNER)));
    refused(&l, "ghost file");
    assert!(why(&l).contains("ghost.md"), "{}", why(&l));
}

/// Renames SKILL.md's resource (or adds a second entry) in otherwise exact manifests.
#[test]
fn manifest_paths_with_traversal_absolute_backslash_case_or_dot_segments_are_refused() {
    let f = files();
    let base = resources_of(&f);
    let skill = base
        .iter()
        .find(|(n, _)| n == "SKILL.md")
        .unwrap()
        .1
        .clone();
    let mut passed = Vec::new();
    for bad in [
        "../code-review/SKILL.md",
        "/SKILL.md",
        "./SKILL.md",
        ".\\SKILL.md",
        "skill.md",
        "SKILL.md/",
        "SKILL.md\u{0}",
        "x/../SKILL.md",
    ] {
        // replaced
        let r: Vec<_> = base
            .iter()
            .map(|(n, d)| {
                if n == "SKILL.md" {
                    (bad.to_owned(), d.clone())
                } else {
                    (n.clone(), d.clone())
                }
            })
            .collect();
        let l = judge(&f, &bundle(&statement(&r), &key(SIGNER)));
        if l["status"] == "verified" {
            passed.push(format!("replaced by {bad:?}"));
        }
        // added beside the real one
        let mut r = base.clone();
        r.push((bad.to_owned(), skill.clone()));
        let l = judge(&f, &bundle(&statement(&r), &key(SIGNER)));
        if l["status"] == "verified" {
            passed.push(format!("added {bad:?}"));
        }
    }
    assert!(passed.is_empty(), "passed: {passed:?}");
}

#[test]
fn a_manifest_listing_skill_md_twice_with_two_digests_is_refused() {
    let f = files();
    let mut r = resources_of(&f);
    let mut passed = Vec::new();
    r.push(("SKILL.md".into(), hex(&[0u8; 32])));
    let l = judge(&f, &bundle(&statement(&r), &key(SIGNER)));
    if l["status"] == "verified" {
        passed.push("wrong digest last");
    }
    let mut r = resources_of(&f);
    r.insert(0, ("SKILL.md".into(), hex(&[0u8; 32])));
    let l = judge(&f, &bundle(&statement(&r), &key(SIGNER)));
    if l["status"] == "verified" {
        passed.push("wrong digest first");
    }
    // The same entry twice, same digest: model_signing builds a dict, so it is one file there.
    let mut r = resources_of(&f);
    let first = r[0].clone();
    r.push(first);
    let l = judge(&f, &bundle(&statement(&r), &key(SIGNER)));
    if l["status"] == "verified" {
        passed.push("same entry twice");
    }
    assert!(passed.is_empty(), "passed: {passed:?}");
}

#[test]
fn ignore_paths_naming_a_served_file_does_not_hide_it() {
    let f = files();
    let victim = f.iter().find(|(n, _)| n != "SKILL.md").unwrap().0.clone();
    let r: Vec<_> = resources_of(&f)
        .into_iter()
        .filter(|(n, _)| *n != victim)
        .collect();
    let mut st = statement(&r);
    st["predicate"]["serialization"]["ignore_paths"]
        .as_array_mut()
        .unwrap()
        .push(json!(victim));
    let l = judge(&f, &bundle(&st, &key(SIGNER)));
    refused(&l, "ignore_paths hid a file");
    assert!(why(&l).contains(&victim), "{}", why(&l));
    // and with its folder only
    let dir = victim.split('/').next().unwrap().to_owned();
    let mut st = statement(&r);
    st["predicate"]["serialization"]["ignore_paths"] = json!([dir, SIGNATURE_FILE]);
    let l = judge(&f, &bundle(&st, &key(SIGNER)));
    refused(&l, "ignore_paths hid a folder");
}

#[test]
fn a_statement_whose_subject_digest_does_not_match_its_resources_is_refused() {
    let f = files();
    let mut st = statement(&resources_of(&f));
    st["subject"][0]["digest"]["sha256"] = json!(hex(&[0u8; 32]));
    let l = judge(&f, &bundle(&st, &key(SIGNER)));
    refused(&l, "subject digest zero");
    let mut st = statement(&resources_of(&f));
    st["subject"] = json!([]);
    let l = judge(&f, &bundle(&st, &key(SIGNER)));
    refused(&l, "no subject");
    let mut st = statement(&resources_of(&f));
    let s = st["subject"][0].clone();
    st["subject"] = json!([s.clone(), {"name": "other", "digest": {"sha256": hex(&[1u8; 32])}}]);
    let l = judge(&f, &bundle(&st, &key(SIGNER)));
    refused(&l, "two subjects");
}

#[test]
fn a_dsse_payload_type_other_than_in_toto_is_refused_though_signed() {
    let f = files();
    let payload = serde_json::to_vec(&statement(&resources_of(&f))).unwrap();
    for t in [
        "application/json",
        "application/vnd.in-toto+json ",
        "APPLICATION/VND.IN-TOTO+JSON",
    ] {
        let b = serde_json::to_vec(&bundle_raw(&payload, t, &key(SIGNER))).unwrap();
        refused(&judge(&f, &b), t);
    }
}

#[test]
fn duplicate_json_keys_in_the_statement_or_the_bundle_are_refused() {
    let f = files();
    let good = statement(&resources_of(&f));
    let mut other = resources_of(&f);
    other.push(("references/ghost.md".into(), hex(&[2u8; 32])));
    let bad = statement(&sorted(other));
    // Two `predicate` members: serde_json takes one, Python's json the last.
    let text = serde_json::to_string(&good).unwrap();
    let dup_last = format!(
        "{},\"predicate\":{}}}",
        &text[..text.len() - 1],
        serde_json::to_string(&bad["predicate"]).unwrap()
    );
    let dup_first = {
        let g = serde_json::to_string(&good["predicate"]).unwrap();
        let b = serde_json::to_string(&bad["predicate"]).unwrap();
        text.replacen(
            &format!("\"predicate\":{g}"),
            &format!("\"predicate\":{b},\"predicate\":{g}"),
            1,
        )
    };
    assert_ne!(dup_first, text);
    let mut passed = Vec::new();
    for (name, p) in [
        ("predicate twice, served last", dup_first),
        ("predicate twice, served first", dup_last),
    ] {
        let b = serde_json::to_vec(&bundle_raw(p.as_bytes(), PAYLOAD_TYPE, &key(SIGNER))).unwrap();
        let l = judge(&f, &b);
        if l["status"] == "verified" {
            passed.push(name);
        }
    }
    // Two `dsseEnvelope` members in the bundle: a good one and one of another key.
    let g = String::from_utf8(bundle(&good, &key(SIGNER))).unwrap();
    let o: Json = serde_json::from_slice(&bundle(&good, &key(52))).unwrap();
    let env = serde_json::to_string(&o["dsseEnvelope"]).unwrap();
    let twice = format!("{},\"dsseEnvelope\":{env}}}", &g[..g.len() - 1]);
    if judge(&f, twice.as_bytes())["status"] == "verified" {
        passed.push("dsseEnvelope twice");
    }
    // Two `payload` members inside one envelope.
    let bad_payload = STANDARD.encode(serde_json::to_vec(&bad).unwrap());
    let twice = g.replacen(
        "\"payload\":",
        &format!("\"payload\":\"{bad_payload}\",\"payload\":"),
        1,
    );
    if judge(&f, twice.as_bytes())["status"] == "verified" {
        passed.push("payload twice");
    }
    assert!(passed.is_empty(), "passed: {passed:?}");
}

#[test]
fn non_canonical_base64_in_payload_or_signature_is_refused() {
    let f = files();
    let g: Json =
        serde_json::from_slice(&bundle(&statement(&resources_of(&f)), &key(SIGNER))).unwrap();
    let payload = g["dsseEnvelope"]["payload"].as_str().unwrap().to_owned();
    let sig = g["dsseEnvelope"]["signatures"][0]["sig"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut passed = Vec::new();
    let variants: Vec<(&str, String, String)> = vec![
        (
            "payload without padding",
            payload.trim_end_matches('=').to_owned(),
            sig.clone(),
        ),
        (
            "sig without padding",
            payload.clone(),
            sig.trim_end_matches('=').to_owned(),
        ),
        (
            "payload with a newline",
            format!("{}\n{}", &payload[..8], &payload[8..]),
            sig.clone(),
        ),
        (
            "payload url-safe",
            payload.replace('+', "-").replace('/', "_"),
            sig.clone(),
        ),
        (
            "sig url-safe",
            payload.clone(),
            sig.replace('+', "-").replace('/', "_"),
        ),
        (
            "payload with a space",
            format!("{} {}", &payload[..8], &payload[8..]),
            sig.clone(),
        ),
    ];
    for (name, p, s) in variants {
        if p == payload && s == sig {
            continue; // no such character in this encoding
        }
        let mut b = g.clone();
        b["dsseEnvelope"]["payload"] = json!(p);
        b["dsseEnvelope"]["signatures"][0]["sig"] = json!(s);
        let l = judge(&f, &serde_json::to_vec(&b).unwrap());
        if l["status"] == "verified" {
            passed.push(name);
        }
    }
    assert!(passed.is_empty(), "passed: {passed:?}");
}

#[test]
fn huge_and_deeply_nested_bundles_are_refused_without_crashing() {
    let f = files();
    let g = String::from_utf8(bundle(&statement(&resources_of(&f)), &key(SIGNER))).unwrap();
    let deep = format!(
        "{},\"x\":{}{}}}",
        &g[..g.len() - 1],
        "[".repeat(200_000),
        "]".repeat(200_000)
    );
    let l = judge(&f, deep.as_bytes());
    refused(&l, "deep nesting");
    let huge = format!("{},\"x\":\"{}\"}}", &g[..g.len() - 1], "a".repeat(3 << 20));
    let l = judge(&f, huge.as_bytes());
    refused(&l, "huge bundle");
    // Deep nesting inside the signed payload.
    let st = serde_json::to_string(&statement(&resources_of(&f))).unwrap();
    let p = format!(
        "{},\"x\":{}{}}}",
        &st[..st.len() - 1],
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let b = serde_json::to_vec(&bundle_raw(p.as_bytes(), PAYLOAD_TYPE, &key(SIGNER))).unwrap();
    refused(&judge(&f, &b), "deep payload");
}

#[test]
fn a_certificate_beside_the_public_key_or_a_tlog_entry_is_refused() {
    let f = files();
    let g: Json =
        serde_json::from_slice(&bundle(&statement(&resources_of(&f)), &key(SIGNER))).unwrap();
    let mut passed = Vec::new();
    let mut b = g.clone();
    b["verificationMaterial"]["certificate"] = json!({"rawBytes": "MIIB"});
    if judge(&f, &serde_json::to_vec(&b).unwrap())["status"] == "verified" {
        passed.push("certificate beside publicKey");
    }
    let mut b = g.clone();
    b["verificationMaterial"]
        .as_object_mut()
        .unwrap()
        .remove("publicKey");
    b["verificationMaterial"]["certificate"] = json!({"rawBytes": "MIIB"});
    if judge(&f, &serde_json::to_vec(&b).unwrap())["status"] == "verified" {
        passed.push("certificate instead of publicKey");
    }
    let mut b = g.clone();
    b["mediaType"] = json!("application/vnd.dev.sigstore.bundle+json;version=0.1");
    if judge(&f, &serde_json::to_vec(&b).unwrap())["status"] == "verified" {
        passed.push("another media type");
    }
    assert!(passed.is_empty(), "passed: {passed:?}");
}

/// `model_signing` 1.1.1 judges the first DSSE signature only: [good, junk] verifies there,
/// [junk, good] fails ("Verification failed with error:"). The host must not accept what the
/// tool refuses.
#[test]
fn two_dsse_signatures_junk_first_are_refused_like_model_signing() {
    let f = files();
    let st = statement(&resources_of(&f));
    let payload = serde_json::to_vec(&st).unwrap();
    let mut b = bundle_raw(&payload, PAYLOAD_TYPE, &key(SIGNER));
    let good = b["dsseEnvelope"]["signatures"][0].clone();
    let junk = json!({"sig": STANDARD.encode([0u8; 70]), "keyid": ""});
    b["dsseEnvelope"]["signatures"] = json!([junk, good]);
    let l = judge(&f, &serde_json::to_vec(&b).unwrap());
    refused(&l, "two signatures, junk first");
    // And a second signature by an untrusted key after the trusted one.
    let other = bundle_raw(&payload, PAYLOAD_TYPE, &key(61));
    b["dsseEnvelope"]["signatures"] = json!([other["dsseEnvelope"]["signatures"][0], good]);
    refused(
        &judge(&f, &serde_json::to_vec(&b).unwrap()),
        "untrusted first, trusted second",
    );
}

/// `model_signing` reads a resource digest with `bytes.fromhex`, so upper-case hex is the same
/// digest to the tool; the host may refuse it, but must not read it as another digest that
/// passes for changed bytes.
#[test]
fn an_upper_case_hex_digest_of_a_changed_file_is_refused() {
    let mut f = files();
    let r: Vec<_> = resources_of(&f)
        .into_iter()
        .map(|(n, d)| (n, d.to_uppercase()))
        .collect();
    let l = judge(&f, &bundle(&statement(&r), &key(SIGNER)));
    eprintln!(
        "upper-case digests, same bytes: {} {}",
        l["status"],
        why(&l)
    );
    let last = f.len() - 1;
    f[last].1.push(b'x');
    refused(
        &judge(&f, &bundle(&statement(&r), &key(SIGNER))),
        "upper-case, changed",
    );
}

#[test]
fn a_resource_algorithm_other_than_sha256_is_refused() {
    let f = files();
    let mut st = statement(&resources_of(&f));
    st["predicate"]["resources"][0]["algorithm"] = json!("sha512");
    refused(&judge(&f, &bundle(&st, &key(SIGNER))), "sha512 resource");
    let mut st = statement(&resources_of(&f));
    st["predicate"]["serialization"]["method"] = json!("shards");
    refused(&judge(&f, &bundle(&st, &key(SIGNER))), "shards");
}

#[test]
fn a_resource_listing_the_signature_file_itself_is_refused_like_model_signing() {
    let f = files();
    let mut r = resources_of(&f);
    r.push((SIGNATURE_FILE.into(), hex(&[3u8; 32])));
    refused(
        &judge(&f, &bundle(&statement(&sorted(r)), &key(SIGNER))),
        "sig file listed",
    );
}

/// `model_signing` never hashes `.gitignore` at a root: a served `.gitignore` the manifest does
/// not cover must be refused (the docs: stricter than the tool), and one it covers is a
/// manifest the tool would refuse (the signed manifest lists a file the tool does not hash).
#[test]
fn git_paths_served_in_a_skill_are_refused_whether_the_manifest_lists_them_or_not() {
    let mut f = files();
    f.push((".gitignore".into(), b"secret\n".to_vec()));
    let not_listed: Vec<_> = resources_of(&f)
        .into_iter()
        .filter(|(n, _)| n != ".gitignore")
        .collect();
    let l = judge(&f, &bundle(&statement(&not_listed), &key(SIGNER)));
    refused(&l, ".gitignore not covered");
    let l = judge(&f, &bundle(&statement(&resources_of(&f)), &key(SIGNER)));
    refused(&l, ".gitignore covered (model_signing refuses it)");
}

/// A nested `skill.oms.sig` (not at the root) is a file like any other: it must be covered.
#[test]
fn a_nested_skill_oms_sig_not_covered_is_refused() {
    let mut f = files();
    f.push((format!("references/{SIGNATURE_FILE}"), b"{}".to_vec()));
    let r: Vec<_> = resources_of(&f)
        .into_iter()
        .filter(|(n, _)| !n.ends_with(SIGNATURE_FILE))
        .collect();
    refused(
        &judge(&f, &bundle(&statement(&r), &key(SIGNER))),
        "nested sig uncovered",
    );
}

#[test]
fn the_bundle_hint_naming_another_key_or_in_upper_case_does_not_change_the_verdict_to_a_pass_for_an_untrusted_signer(
) {
    let f = files();
    // Signed by an untrusted key, hint claiming the trusted one.
    let mut b = bundle_raw(
        &serde_json::to_vec(&statement(&resources_of(&f))).unwrap(),
        PAYLOAD_TYPE,
        &key(60),
    );
    b["verificationMaterial"]["publicKey"]["hint"] = json!(key(SIGNER).public().hint());
    refused(&judge(&f, &serde_json::to_vec(&b).unwrap()), "lying hint");
}

// Over MCP: the same hostile bundle as a file of the skill.

fn judge_mcp(files: &[(String, Vec<u8>)], sig: &[u8]) -> Json {
    let args = vec![
        format!("{ORIGIN}/mcp"),
        "--json".to_owned(),
        "--trust".to_owned(),
        "oms.pub".to_owned(),
    ];
    let sf = SignerFiles {
        trust: vec![key(SIGNER).public().to_pem()],
        pins: None,
    };
    let out = block_on(verify_command(
        &VerifyArgs::parse(&args).unwrap(),
        &sf,
        &Mcp::new(files, Some(sig)),
    ));
    assert!(out.exit_code < 2, "{}{}", out.stdout, out.stderr);
    out.stdout
        .lines()
        .map(|l| serde_json::from_str::<Json>(l).unwrap())
        .find(|l| l["name"] == "code-review")
        .unwrap()
}

#[test]
fn over_mcp_a_forged_good_bundle_verifies_and_hostile_manifests_are_refused() {
    let f = files();
    let l = judge_mcp(&f, &bundle(&statement(&resources_of(&f)), &key(SIGNER)));
    assert_eq!(l["status"], "verified", "{l}");
    let mut passed = Vec::new();
    // Missing file.
    let mut r = resources_of(&f);
    r.push(("references/ghost.md".into(), hex(&[4u8; 32])));
    if judge_mcp(&f, &bundle(&statement(&sorted(r)), &key(SIGNER)))["status"] == "verified" {
        passed.push("ghost file");
    }
    // Traversal replacing SKILL.md.
    let r: Vec<_> = resources_of(&f)
        .into_iter()
        .map(|(n, d)| {
            if n == "SKILL.md" {
                ("../code-review/SKILL.md".to_owned(), d)
            } else {
                (n, d)
            }
        })
        .collect();
    if judge_mcp(&f, &bundle(&statement(&r), &key(SIGNER)))["status"] == "verified" {
        passed.push("traversal");
    }
    // ignore_paths hiding a file.
    let victim = f.iter().find(|(n, _)| n != "SKILL.md").unwrap().0.clone();
    let r: Vec<_> = resources_of(&f)
        .into_iter()
        .filter(|(n, _)| *n != victim)
        .collect();
    let mut st = statement(&r);
    st["predicate"]["serialization"]["ignore_paths"] = json!([victim, SIGNATURE_FILE]);
    if judge_mcp(&f, &bundle(&st, &key(SIGNER)))["status"] == "verified" {
        passed.push("ignore_paths");
    }
    assert!(passed.is_empty(), "passed: {passed:?}");
}

/// `--cross-check`: MCP serves code-review with a bundle by the trusted key; the mirror serves
/// the same files with another `skill.oms.sig` (another key's, valid in form and coverage).
/// The two publications differ in a file of the skill: the mirror's row must fail.
#[test]
fn a_mirror_serving_another_skill_oms_sig_than_mcp_fails_the_cross_check() {
    let f = files();
    let good = bundle(&statement(&resources_of(&f)), &key(SIGNER));
    let stranger = bundle(&statement(&resources_of(&f)), &key(62));
    let mut server = Server::new();
    let mut tree = SourceTree::default();
    for (p, b) in &f {
        tree.add_file(&format!("code-review/{p}"), b.clone());
    }
    tree.add_file(&format!("code-review/{SIGNATURE_FILE}"), good.clone());
    let catalog = skills_edge::catalog::Catalog::compile(tree, None).unwrap();
    server.responder = crate::common::responder_over(std::sync::Arc::new(catalog), 50);
    serve(&server, &f, Some(&stranger));
    let args = vec![
        format!("{ORIGIN}/mcp"),
        "--json".to_owned(),
        "--cross-check".to_owned(),
        "--trust".to_owned(),
        "oms.pub".to_owned(),
    ];
    let sf = SignerFiles {
        trust: vec![key(SIGNER).public().to_pem()],
        pins: None,
    };
    let out = block_on(verify_command(
        &VerifyArgs::parse(&args).unwrap(),
        &sf,
        &server,
    ));
    let lines: Vec<Json> = out
        .stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Json>(l).ok())
        .filter(|l| l["name"] == "code-review")
        .collect();
    eprintln!("{}\n{}", out.stdout, out.stderr);
    let mcp = lines
        .iter()
        .find(|l| l["skill"].as_str().unwrap_or("").starts_with("skill://"))
        .unwrap_or_else(|| panic!("no MCP row: {}", out.stdout));
    assert_eq!(mcp["status"], "verified", "{mcp}");
    let mirror = lines
        .iter()
        .find(|l| l["skill"].as_str().unwrap_or("").starts_with("http"))
        .unwrap_or_else(|| panic!("no mirror row: {}", out.stdout));
    assert_ne!(
        mirror["status"], "verified",
        "the mirror's other skill.oms.sig passed: {mirror}"
    );
}

/// `--cross-check` with a trust list: the docs say a skill must be signed by a key on the list
/// ("the trust list is one list"); an unsigned skill on the mirror must not be `verified`, with
/// an OMS key trusted or a JWK trusted.
#[test]
fn an_unsigned_mirror_skill_is_not_verified_in_a_cross_check_with_a_trust_list() {
    // MCP serves only code-review (OMS-signed by the trusted key); the mirror publishes the
    // example catalog's other skills too, unsigned.
    let f = files();
    let mut server = Server::new();
    let mut tree = SourceTree::default();
    for (p, b) in &f {
        tree.add_file(&format!("code-review/{p}"), b.clone());
    }
    let good = bundle(&statement(&resources_of(&f)), &key(SIGNER));
    tree.add_file(&format!("code-review/{SIGNATURE_FILE}"), good.clone());
    let catalog = skills_edge::catalog::Catalog::compile(tree, None).unwrap();
    server.responder = crate::common::responder_over(std::sync::Arc::new(catalog), 50);
    serve(&server, &f, Some(&good));
    let dsse = skills_edge::catalog::sign::SigningKey::from_seed([70; 32]);
    let mut passed = Vec::new();
    for (name, trust) in [
        ("oms.pub", key(SIGNER).public().to_pem()),
        ("signing.pub", dsse.public().to_jwk()),
    ] {
        let args = vec![
            format!("{ORIGIN}/mcp"),
            "--json".to_owned(),
            "--cross-check".to_owned(),
            "--trust".to_owned(),
            name.to_owned(),
        ];
        let sf = SignerFiles {
            trust: vec![trust],
            pins: None,
        };
        let out = block_on(verify_command(
            &VerifyArgs::parse(&args).unwrap(),
            &sf,
            &server,
        ));
        for l in out
            .stdout
            .lines()
            .filter_map(|l| serde_json::from_str::<Json>(l).ok())
        {
            if l["status"] == "verified" && l["name"] != "code-review" {
                passed.push(format!("{name}: {} {}", l["skill"], l["signer"]));
            }
        }
    }
    assert!(passed.is_empty(), "unsigned skills verified: {passed:#?}");
}

/// Both formats present: the OMS bundle by the trusted key, the DSSE envelope by a key nobody
/// trusts. "Each present signature must hold on its own": the DSSE one does not hold under the
/// trust list, so the two disagree about who signed: refused. And the converse: DSSE by the
/// trusted JWK, the OMS bundle by a stranger, with only the JWK trusted.
#[test]
fn both_formats_with_one_signed_by_a_stranger_are_refused() {
    use skills_edge::catalog::sign::{Envelope, SigningKey, Statement, Subject};
    use skills_edge::skill::digest::digest_of;
    use skills_edge::skill::revision::skill_revision;
    let f = files();
    let publish = |server: &Server, sig: &[u8], dsse_key: &SigningKey| {
        serve(server, &f, Some(sig));
        let mut all = f.clone();
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
        let env = Envelope::sign(&statement, dsse_key).to_json();
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
    let trusted_jwk = SigningKey::from_seed([80; 32]);
    let stranger_jwk = SigningKey::from_seed([81; 32]);
    let good_oms = bundle(&statement(&resources_of(&f)), &key(SIGNER));
    let stranger_oms = bundle(&statement(&resources_of(&f)), &key(82));
    let mut passed = Vec::new();

    let server = Server::new();
    publish(&server, &good_oms, &stranger_jwk);
    // The stranger's key announced by the server (as this project's mirror does), so the
    // envelope holds in form and is judged on trust alone.
    server.put(
        &format!("{ORIGIN}/.well-known/agent-skills/keys.json"),
        "application/json",
        format!("{{\"keys\":[{}]}}", stranger_jwk.public().to_jwk()).into_bytes(),
    );
    let l = run(&server, &[("oms.pub", key(SIGNER).public().to_pem())]);
    eprintln!("OMS trusted, DSSE stranger: {} {}", l["status"], why(&l));
    if l["status"] == "verified" {
        passed.push(format!(
            "trusted OMS + stranger DSSE, OMS key trusted: {}",
            l["signer"]
        ));
    }

    let server = Server::new();
    publish(&server, &stranger_oms, &trusted_jwk);
    let l = run(&server, &[("signing.pub", trusted_jwk.public().to_jwk())]);
    eprintln!("DSSE trusted, OMS stranger: {} {}", l["status"], why(&l));
    if l["status"] == "verified" {
        passed.push(format!(
            "trusted DSSE + stranger OMS, JWK trusted: {}",
            l["signer"]
        ));
    }
    assert!(passed.is_empty(), "passed: {passed:#?}");
}

/// `model_signing` 1.1.1 compares a non-empty hint with the SHA-256 of the key's PEM and fails
/// "Key mismatch" otherwise (a zero or upper-case hint); a bundle without a hint, or with an
/// empty one, it verifies with the key given. The host must not accept the first kind.
#[test]
fn a_bundle_whose_hint_is_wrong_is_refused_like_model_signing() {
    let f = files();
    let g: Json =
        serde_json::from_slice(&bundle(&statement(&resources_of(&f)), &key(SIGNER))).unwrap();
    let mut passed = Vec::new();
    for (name, hint) in [
        ("zero hint", json!(hex(&[0u8; 32]))),
        (
            "upper-case hint",
            json!(key(SIGNER).public().hint().to_uppercase()),
        ),
    ] {
        let mut b = g.clone();
        b["verificationMaterial"]["publicKey"]["hint"] = hint;
        let l = judge(&f, &serde_json::to_vec(&b).unwrap());
        eprintln!("{name}: {} {}", l["status"], why(&l));
        if l["status"] == "verified" {
            passed.push(name);
        }
    }
    assert!(passed.is_empty(), "passed: {passed:?}");
}

/// Consistency with the tool: `model_signing verify key` accepts a bundle whose hint is absent
/// or empty ("Verification succeeded" for both, with bundles of this shape).
#[test]
fn a_bundle_without_a_hint_or_with_an_empty_one_is_judged_like_model_signing() {
    let f = files();
    let g: Json =
        serde_json::from_slice(&bundle(&statement(&resources_of(&f)), &key(SIGNER))).unwrap();
    let mut differ = Vec::new();
    for (name, pk) in [("no hint", json!({})), ("empty hint", json!({"hint": ""}))] {
        let mut b = g.clone();
        b["verificationMaterial"]["publicKey"] = pk;
        let l = judge(&f, &serde_json::to_vec(&b).unwrap());
        eprintln!("{name}: {} {}", l["status"], why(&l));
        if l["status"] != "verified" {
            differ.push(format!("{name}: {}", why(&l)));
        }
    }
    assert!(
        differ.is_empty(),
        "model_signing verifies these: {differ:#?}"
    );
}

#[test]
fn trailing_data_after_the_bundle_and_a_duplicate_digest_inside_a_resource_are_refused() {
    let f = files();
    let g = bundle(&statement(&resources_of(&f)), &key(SIGNER));
    let mut passed = Vec::new();
    for (name, tail) in [
        ("a second object", g.clone()),
        ("garbage", b"garbage".to_vec()),
    ] {
        let mut b = g.clone();
        b.extend(tail);
        let l = judge(&f, &b);
        eprintln!("{name}: {} {}", l["status"], why(&l));
        if l["status"] == "verified" {
            passed.push(name);
        }
    }
    // {"name": "references/checklist.md", "digest": WRONG, ..., "digest": RIGHT}: Python's
    // json keeps the last, a first-wins reader the first.
    let st = serde_json::to_string(&statement(&resources_of(&f))).unwrap();
    let (victim, right) = resources_of(&f)
        .into_iter()
        .find(|(n, _)| n != "SKILL.md")
        .unwrap();
    let entry =
        format!("{{\"algorithm\":\"sha256\",\"digest\":\"{right}\",\"name\":\"{victim}\"}}");
    assert!(st.contains(&entry), "{st}");
    for (name, dup) in [
        (
            "wrong digest first",
            format!("{{\"algorithm\":\"sha256\",\"digest\":\"{}\",\"digest\":\"{right}\",\"name\":\"{victim}\"}}", hex(&[5u8; 32])),
        ),
        (
            "wrong digest last",
            format!("{{\"algorithm\":\"sha256\",\"digest\":\"{right}\",\"digest\":\"{}\",\"name\":\"{victim}\"}}", hex(&[5u8; 32])),
        ),
        (
            "name twice",
            format!("{{\"algorithm\":\"sha256\",\"digest\":\"{right}\",\"name\":\"{victim}\",\"name\":\"{victim}\"}}"),
        ),
    ] {
        let p = st.replacen(&entry, &dup, 1);
        let b = serde_json::to_vec(&bundle_raw(p.as_bytes(), PAYLOAD_TYPE, &key(SIGNER))).unwrap();
        let l = judge(&f, &b);
        eprintln!("{name}: {} {}", l["status"], why(&l));
        if l["status"] == "verified" {
            passed.push(name);
        }
    }
    assert!(passed.is_empty(), "passed: {passed:?}");
}

/// The bundle's `publicKey` without a `hint`, signed by a key nobody trusts (or not signed at
/// all): with an OMS key trusted, a skill must be signed by a key on the list.
#[test]
fn a_bundle_without_a_hint_signed_by_a_stranger_is_refused_under_an_oms_trust_list() {
    let f = files();
    let mut passed = Vec::new();
    let mut b: Json =
        serde_json::from_slice(&bundle(&statement(&resources_of(&f)), &key(63))).unwrap();
    b["verificationMaterial"]["publicKey"] = json!({});
    let l = judge(&f, &serde_json::to_vec(&b).unwrap());
    eprintln!(
        "no hint, stranger: {} signer {} {}",
        l["status"],
        l["signer"],
        why(&l)
    );
    if l["status"] == "verified" {
        passed.push(format!("stranger's signature, signer {}", l["signer"]));
    }
    b["dsseEnvelope"]["signatures"][0]["sig"] = json!(STANDARD.encode([0u8; 70]));
    let l = judge(&f, &serde_json::to_vec(&b).unwrap());
    eprintln!(
        "no hint, junk: {} signer {} {}",
        l["status"],
        l["signer"],
        why(&l)
    );
    if l["status"] == "verified" {
        passed.push(format!("junk signature, signer {}", l["signer"]));
    }
    assert!(passed.is_empty(), "passed: {passed:#?}");
}

/// Over MCP, both formats: code-review's entry carries a DSSE envelope by a stranger's key
/// (announced in `_meta`, as this project's server does) and its files hold an OMS bundle by
/// the trusted key. With only the OMS key trusted, the DSSE signature does not hold under the
/// trust list: the two formats name different signers, refused.
#[test]
fn over_mcp_a_stranger_dsse_envelope_beside_a_trusted_oms_bundle_is_refused() {
    use skills_edge::catalog::sign::{
        Envelope, SigningKey, Statement, Subject, DSSE_META_KEY, SIGNER_META_KEY,
    };
    struct Both {
        mcp: Mcp,
        envelope: String,
        jwk: String,
    }
    impl skills_edge::client::http::HttpIo for Both {
        type Body = crate::wellknown::Body;
        fn post(
            &self,
            request: skills_edge::client::http::HttpRequest,
        ) -> impl std::future::Future<
            Output = skills_edge::client::Result<
                skills_edge::client::http::HttpResponse<Self::Body>,
            >,
        > {
            let reply = self.mcp.0.respond(
                request.body.as_bytes(),
                &crate::wellknown::transport_of(&request),
                skills_edge::server::Grant::PUBLIC,
            );
            let sign = |e: &mut Json| {
                if e["uri"] == "skill://code-review/SKILL.md" {
                    let meta = e["_meta"].as_object_mut().unwrap();
                    meta.insert(
                        DSSE_META_KEY.into(),
                        serde_json::from_str(&self.envelope).unwrap(),
                    );
                    meta.insert(
                        SIGNER_META_KEY.into(),
                        serde_json::from_str(&self.jwk).unwrap(),
                    );
                }
            };
            let body = reply.body.map(|b| {
                let mut v: Json = serde_json::from_slice(&b).unwrap();
                if let Some(result) = v.get_mut("result") {
                    if let Some(skills) = result.get_mut("skills").and_then(Json::as_array_mut) {
                        skills.iter_mut().for_each(sign);
                    }
                    if let Some(skill) = result.get_mut("skill") {
                        sign(skill);
                    }
                }
                v.to_string().into_bytes()
            });
            std::future::ready(Ok(skills_edge::client::http::HttpResponse {
                status: reply.status,
                content_type: body.as_ref().map(|_| "application/json".to_owned()),
                session_id: None,
                www_authenticate: None,
                body: crate::wellknown::Body(body),
            }))
        }
        fn get(
            &self,
            url: &str,
        ) -> impl std::future::Future<
            Output = skills_edge::client::Result<
                skills_edge::client::http::HttpResponse<Self::Body>,
            >,
        > {
            self.mcp.get(url)
        }
        fn now_ms(&self) -> f64 {
            0.0
        }
    }
    let f = files();
    let good = bundle(&statement(&resources_of(&f)), &key(SIGNER));
    let mcp = Mcp::new(&f, Some(&good));
    let c = {
        let mut tree = SourceTree::default();
        for (p, b) in &f {
            tree.add_file(&format!("code-review/{p}"), b.clone());
        }
        tree.add_file(&format!("code-review/{SIGNATURE_FILE}"), good.clone());
        skills_edge::catalog::compile::compile(tree).unwrap()
    };
    let s = &c.skills[0];
    let statement = Statement {
        skill: s.uri.clone(),
        revision: c.revision(s),
        catalog: "acme".into(),
        subjects: s
            .files
            .iter()
            .map(|&i| Subject {
                name: c.files[i].uri.clone(),
                sha256: c.files[i].digest["sha256:".len()..].to_owned(),
            })
            .collect(),
    };
    let stranger = SigningKey::from_seed([90; 32]);
    let both = Both {
        mcp,
        envelope: Envelope::sign(&statement, &stranger).to_json(),
        jwk: stranger.public().to_jwk(),
    };
    let args = vec![
        format!("{ORIGIN}/mcp"),
        "--json".to_owned(),
        "--trust".to_owned(),
        "oms.pub".to_owned(),
    ];
    let sf = SignerFiles {
        trust: vec![key(SIGNER).public().to_pem()],
        pins: None,
    };
    let out = block_on(verify_command(
        &VerifyArgs::parse(&args).unwrap(),
        &sf,
        &both,
    ));
    let l = out
        .stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Json>(l).ok())
        .find(|l| l["name"] == "code-review")
        .unwrap_or_else(|| panic!("{}{}", out.stdout, out.stderr));
    eprintln!("{} signer {} {}", l["status"], l["signer"], why(&l));
    refused(&l, "stranger DSSE + trusted OMS over MCP");
}

/// The build: a `.gitignore` at a nested skill's root is hashed by `model_signing` for the outer
/// skill but never for the nested one, so the nested skill could not be covered whole: the
/// build must stop, as for a root.
#[test]
fn a_git_file_at_a_nested_skills_root_stops_the_build() {
    let mut tree = SourceTree::default();
    tree.add_file("a/SKILL.md", "---\nname: a\ndescription: A.\n---\n");
    tree.add_file("a/b/SKILL.md", "---\nname: b\ndescription: B.\n---\n");
    tree.add_file("a/b/.gitignore", "x\n");
    let r = skills_edge::catalog::oms::compile_signed(
        tree,
        skills_edge::catalog::compile::Options::default(),
        &key(7),
    );
    match r {
        Ok(c) => panic!(
            "built: {:?}",
            c.files.iter().map(|f| f.uri.clone()).collect::<Vec<_>>()
        ),
        Err(e) => {
            let d = e.errors().next().unwrap();
            assert_eq!(d.rule.id(), "oms-signature", "{}", d.path);
            assert_eq!(d.path.as_str(), "a/b/.gitignore");
        }
    }
}

/// `--trust` files that hold more than one PEM key, or a key then a certificate: the run must
/// stop with a clear error, or trust exactly what the file holds; never trust one block
/// silently and ignore the rest.
#[test]
fn a_trust_file_with_several_pem_blocks_is_refused_or_trusts_each() {
    let server = Server::new();
    let run = |trust: String| {
        let args = vec![
            INDEX.to_owned(),
            "--json".into(),
            "--trust".into(),
            "t.pem".into(),
        ];
        block_on(verify_command(
            &VerifyArgs::parse(&args).unwrap(),
            &SignerFiles {
                trust: vec![trust],
                pins: None,
            },
            &server,
        ))
    };
    let f = files();
    // code-review signed by the SECOND key of the file.
    serve(
        &server,
        &f,
        Some(&bundle(&statement(&resources_of(&f)), &key(SIGNER))),
    );
    let two = format!(
        "{}{}",
        key(64).public().to_pem(),
        key(SIGNER).public().to_pem()
    );
    let out = run(two);
    let l = out
        .stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Json>(l).ok())
        .find(|l| l["name"] == "code-review");
    eprintln!(
        "two keys: exit {} {:?} {}",
        out.exit_code,
        l.as_ref().map(why),
        out.stderr
    );
    let silently_dropped = out.exit_code != 2
        && l.as_ref()
            .map(|l| l["status"] != "verified")
            .unwrap_or(false);
    let key_then_cert = format!(
        "{}-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n",
        key(SIGNER).public().to_pem()
    );
    let out = run(key_then_cert);
    eprintln!(
        "key then certificate: exit {} {}",
        out.exit_code, out.stderr
    );
    let cert_ignored = out.exit_code != 2;
    assert!(
        !silently_dropped && !cert_ignored,
        "second key silently dropped: {silently_dropped}; certificate after a key ignored: {cert_ignored}"
    );
}

/// `oms.pub` saved with CRLF line ends (as on Windows): `model_signing` (cryptography's PEM
/// loader) reads it; the host should read it too, or say what is wrong.
#[test]
fn a_crlf_trust_file_is_read_like_model_signing_reads_it() {
    let server = Server::new();
    let f = files();
    serve(
        &server,
        &f,
        Some(&bundle(&statement(&resources_of(&f)), &key(SIGNER))),
    );
    let pem = key(SIGNER).public().to_pem().replace('\n', "\r\n");
    let l = run(&server, &[("oms.pub", pem)]);
    assert_eq!(l["status"], "verified", "{l}");
}

/// The DSSE signature must be the DER ECDSA signature `model_signing` (OpenSSL through
/// `cryptography`) checks: a raw r||s signature, DER with a byte appended, or an integer with a
/// needless leading zero are refused there; the host must not accept them either.
#[test]
fn a_signature_that_is_not_strict_der_is_refused() {
    let f = files();
    let g: Json =
        serde_json::from_slice(&bundle(&statement(&resources_of(&f)), &key(SIGNER))).unwrap();
    let der = STANDARD
        .decode(g["dsseEnvelope"]["signatures"][0]["sig"].as_str().unwrap())
        .unwrap();
    // SEQUENCE { INTEGER r, INTEGER s }, short lengths (a P-256 signature is < 128 bytes).
    assert_eq!(der[0], 0x30);
    let rl = der[3] as usize;
    let r = der[4..4 + rl].to_vec();
    let sl = der[5 + rl] as usize;
    let s = der[6 + rl..6 + rl + sl].to_vec();
    let fixed = |x: &[u8]| {
        let x = if x.len() == 33 { &x[1..] } else { x };
        let mut v = vec![0u8; 32 - x.len()];
        v.extend_from_slice(x);
        v
    };
    let mut raw = fixed(&r);
    raw.extend(fixed(&s));
    let mut trailing = der.clone();
    trailing.push(0);
    let padded = {
        let mut r2 = vec![0u8];
        r2.extend_from_slice(&r);
        let mut v = vec![0x30, (r2.len() + s.len() + 4) as u8, 0x02, r2.len() as u8];
        v.extend(&r2);
        v.extend([0x02, s.len() as u8]);
        v.extend(&s);
        v
    };
    let long_form = {
        let mut v = vec![0x30, 0x81, der[1]];
        v.extend_from_slice(&der[2..]);
        v
    };
    let mut passed = Vec::new();
    for (name, sig) in [
        ("raw r||s", raw),
        ("DER and a byte", trailing),
        ("r with a needless zero", padded),
        ("long-form length", long_form),
    ] {
        let mut b = g.clone();
        b["dsseEnvelope"]["signatures"][0]["sig"] = json!(STANDARD.encode(&sig));
        let l = judge(&f, &serde_json::to_vec(&b).unwrap());
        eprintln!("{name}: {} {}", l["status"], why(&l));
        if l["status"] == "verified" {
            passed.push(name);
        }
    }
    assert!(passed.is_empty(), "passed: {passed:?}");
}
