//! The host verifier: `Entry::parse` on fuzzed JSON, then on a valid entry every verifier
//! operation on fuzzed contents and references, and the `SkillHost` registry flow.
//!
//! Input: a flag byte, then the case.
//! * flag bit 0 = 0: NUL-separated fields: the entry JSON, then contents (each tried for every
//!   URI), then references, then a server label (seeds: real entries with their `SKILL.md`).
//! * flag bit 0 = 1: `arbitrary` builds an entry (URI, frontmatter, manifest items whose digests
//!   and sizes are right or wrong on purpose), a matching `SKILL.md`, contents (the right bytes,
//!   one byte changed, anything) and references, and optionally a signature: the entry's
//!   statement signed with a fixed key, then mutated (a payload or signature bit, the key id,
//!   the payload type, another key, the announced key swapped or dropped, a statement re-signed
//!   with a digest, a file, the skill or the revision changed, the envelope replaced by fuzzed
//!   JSON), put in the entry's `_meta` as a signing server publishes it.
//!   Flag bits 1–2: host options (`allow_dynamic`, `require_approval`).
//!
//! Properties: a refused entry is `InvalidEntry`; a valid entry survives `to_json` and parsing
//! again (same URI, manifest, frontmatter content, fingerprint); `check_limits` counts and sums
//! exactly; a content that verifies (bytes, text, `resources/read` result, `SKILL.md`) has
//! exactly the entry's size and digest for that URI (recomputed with `digest_of`), and the
//! forms agree with each other; a resolved reference lies inside the skill root (or is the
//! root) with no dot or empty segments; fingerprints are deterministic and bound to the label;
//! the registry loads only what `verify_skill_md` accepts, reads only listed files inside the
//! root with their manifest size and digest, and `approve` stores the entry's fingerprint under
//! its verified signer. Signatures, under a trust list holding the fixed key (with and without
//! trust on first use) and under the default policy: a skill whose envelope does not verify
//! under the trusted key, or whose verified statement does not state exactly the entry (checked
//! here independently of the host's code), is never registered as signed, let alone trusted;
//! one whose envelope does (and whose announced key, if any, is a public key) is registered as
//! trusted; by default a skill is registered as signed only by a key that verifies its envelope
//! and is the one it announces; a refusal is always one of the three signature codes. The
//! first field is also read as exported pins (`Signers::import_pins`, DSSE and OMS pins).

#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value as Json};
use skills_edge::catalog::sign::{
    Envelope, PublicKey, SigningKey, Statement, Subject, DSSE_META_KEY, SIGNER_META_KEY,
};
use skills_edge::host::{
    approval_fingerprint, compare_frontmatter, resolve, signed_approval_fingerprint, verify_bytes,
    verify_content, verify_skill_md, Content, Entry, ErrorCode, Hashing, HostOptions, SignerPolicy,
    SignerTrust, SkillHost, VerifiedSkillMd, VerifyError, VerifyOptions,
};
use skills_edge::skill::digest::digest_of;
use skills_edge::skill::frontmatter::parse_file_host;
use skills_edge::skill::limits::{MAX_BYTES_PER_SKILL, MAX_FILES_PER_SKILL};
use skills_edge::skill::uri::is_inside;

#[path = "host/case.rs"]
mod case;
use case::*;

// ---------------------------------------------------------------------------------------------
// Structured cases
// ---------------------------------------------------------------------------------------------

/// A receipt for `uri` that verified must carry exactly the entry's size and digest, and those
/// of the bytes.
fn assert_matches_item(entry: &Entry, uri: &str, bytes: &[u8], what: &str) {
    let item = entry
        .item(uri)
        .unwrap_or_else(|| panic!("{what}: {uri} verified but is not in the manifest"));
    assert_eq!(
        item.size,
        bytes.len() as u64,
        "{what}: {uri} verified with another size"
    );
    assert_eq!(
        item.digest,
        digest_of(bytes),
        "{what}: {uri} verified with another digest"
    );
}

fn no_dot_segments(root: &str, uri: &str) -> bool {
    uri == root
        || uri[root.len() + 1..]
            .split('/')
            .all(|s| !s.is_empty() && s != "." && s != "..")
}

fn read_result(uri: &str, bytes: &[u8], as_text: bool) -> Json {
    let item = match (as_text, std::str::from_utf8(bytes)) {
        (true, Ok(t)) => json!({"uri": uri, "text": t}),
        _ => json!({"uri": uri, "blob": STANDARD.encode(bytes)}),
    };
    json!({"contents": [item], "resultType": "complete"})
}

fn verify_all(
    entry: &Entry,
    contents: &[Vec<u8>],
    refs: &[String],
    label: &str,
    options: HostOptions,
) {
    let root = entry.root().to_owned();
    let uri = entry.uri().to_owned();
    assert_eq!(uri, format!("{root}/SKILL.md"));

    // to_json and back.
    let again = Entry::parse(&entry.to_json())
        .unwrap_or_else(|e| panic!("to_json of a valid entry is refused: {e:?}"));
    assert_eq!(again.uri(), entry.uri());
    assert_eq!(again.resources(), entry.resources());
    assert!(again.frontmatter().same_content(entry.frontmatter()));

    // Limits.
    match entry.check_limits() {
        Ok(Some(r)) => {
            let items = entry.items().expect("a report means a manifest");
            assert_eq!(r.resource_count, items.len());
            assert_eq!(r.total_size, items.iter().map(|i| i.size).sum::<u64>());
            assert!(r.resource_count <= MAX_FILES_PER_SKILL && r.total_size <= MAX_BYTES_PER_SKILL);
        }
        Ok(None) => assert!(entry.is_dynamic()),
        Err(e) => {
            assert_eq!(e.code, ErrorCode::LimitExceeded);
            let items = entry.items().expect("only a manifest exceeds limits");
            let total = items.iter().fold(0u64, |a, i| a.saturating_add(i.size));
            assert!(items.len() > MAX_FILES_PER_SKILL || total > MAX_BYTES_PER_SKILL);
        }
    }

    // Fingerprints.
    for l in [label, "other"] {
        match (
            approval_fingerprint(l, entry),
            approval_fingerprint(l, entry),
            approval_fingerprint(l, &again),
        ) {
            (Ok(a), Ok(b), Ok(c)) => {
                assert!(a == b && b == c, "fingerprints are not deterministic");
                assert!(a.starts_with("sha256:") && a.len() == 71);
                assert!(!entry.is_dynamic());
            }
            (Err(a), Err(_), Err(_)) => {
                assert_eq!(a.code, ErrorCode::DynamicNotAllowed);
                assert!(entry.is_dynamic());
            }
            _ => panic!("fingerprints are not deterministic"),
        }
    }
    if label != "other" && !entry.is_dynamic() {
        assert_ne!(
            approval_fingerprint(label, entry).ok(),
            approval_fingerprint("other", entry).ok(),
            "a fingerprint must bind the label"
        );
    }

    // References.
    let mut uris: Vec<String> = vec![uri.clone()];
    uris.extend(
        entry
            .items()
            .unwrap_or_default()
            .iter()
            .filter(|i| i.uri != uri)
            .map(|i| i.uri.clone()),
    );
    for r in refs {
        match resolve(&uri, r) {
            Ok(x) => {
                assert!(
                    x == root || is_inside(&root, &x),
                    "{r:?} resolved to {x:?}, outside {root}"
                );
                assert!(
                    no_dot_segments(&root, &x),
                    "{r:?} resolved to {x:?} with dot or empty segments"
                );
                uris.push(x);
            }
            Err(e) => assert!(
                matches!(e.code, ErrorCode::EscapesRoot | ErrorCode::InvalidReference),
                "{e:?}"
            ),
        }
        uris.push(r.clone());
    }

    // Contents against URIs: content i (in a structured case, the bytes of manifest item i)
    // against URI i and one other, in every form, with dynamic entries allowed as the host's
    // options say. (Every pair would make the target quadratic.)
    let opts = VerifyOptions {
        allow_dynamic: options.allow_dynamic,
    };
    for (i, bytes) in contents.iter().enumerate() {
        let others = [i, i.wrapping_mul(7).wrapping_add(bytes.len())];
        for u in others.iter().map(|k| &uris[k % uris.len()]) {
            let b = verify_bytes(entry, u, bytes, Hashing::Here, opts);
            if let Ok(r) = &b {
                assert_eq!(r.size, bytes.len() as u64);
                assert_eq!(r.digest, digest_of(bytes));
                if entry.is_dynamic() {
                    assert!(opts.allow_dynamic && !r.verified);
                    assert!(is_inside(&root, u), "a dynamic read outside the root: {u}");
                } else {
                    assert!(r.verified);
                    assert_matches_item(entry, u, bytes, "verify_bytes");
                }
            }
            let as_bytes = verify_content(
                entry,
                u,
                &Content::Bytes(bytes.clone()),
                Hashing::Here,
                opts,
            );
            assert_eq!(
                as_bytes.as_ref().map(|v| &v.receipt).ok(),
                b.as_ref().ok(),
                "Content::Bytes and verify_bytes disagree"
            );
            if let Ok(t) = std::str::from_utf8(bytes) {
                let as_text =
                    verify_content(entry, u, &Content::Text(t.to_owned()), Hashing::Here, opts);
                assert_eq!(
                    as_text.as_ref().map(|v| &v.receipt).ok(),
                    b.as_ref().ok(),
                    "Content::Text and verify_bytes disagree"
                );
            }
            let res = read_result(u, bytes, i % 2 == 0);
            let via = verify_content(
                entry,
                u,
                &Content::ReadResult(res.to_string()),
                Hashing::Here,
                opts,
            );
            assert_eq!(
                via.as_ref().map(|v| &v.receipt).ok(),
                b.as_ref().ok(),
                "Content::ReadResult and verify_bytes disagree for {u}"
            );
            if let Ok(v) = via {
                assert_eq!(v.body.as_bytes(), &bytes[..]);
            }
        }
    }

    // SKILL.md. The results are kept for the registry, which must load exactly these (the
    // same call again would only double the target's cost: YAML reading dominates it).
    let direct: Vec<_> = contents
        .iter()
        .map(|bytes| verify_skill_md(entry, &Content::Bytes(bytes.clone()), Hashing::Here))
        .collect();
    for (bytes, v) in contents.iter().zip(&direct) {
        let Ok(v) = v else {
            continue;
        };
        if entry.is_dynamic() {
            assert!(!v.receipt.verified);
        } else {
            assert!(v.receipt.verified);
            assert_matches_item(entry, &uri, bytes, "verify_skill_md");
        }
        let text = std::str::from_utf8(bytes).expect("a verified SKILL.md is UTF-8");
        // Read back in the host mode verify_skill_md reads with: it accepts what is only
        // ambiguous across YAML versions (a raw U+2029 in a value), which the compiler's modes
        // refuse to publish.
        let fm = parse_file_host(text).expect("a verified SKILL.md has frontmatter");
        assert!(
            fm.same_content(entry.frontmatter()),
            "verify_skill_md accepted other frontmatter"
        );
        compare_frontmatter(&uri, entry.frontmatter(), &fm).expect("compare_frontmatter agrees");
        assert!(v.body_start <= text.len() && text.is_char_boundary(v.body_start));
    }

    registry(entry, contents, &direct, refs, label, options);
    signatures(entry, label);
}

/// Whether the entry's envelope verifies under `key` and its statement states exactly the
/// entry: the same skill, revision (the entry's, and its `_meta` one), and `(URI, digest)`
/// set. Written here from the format, independently of the host's checks.
fn holds_under(entry: &Entry, key: &PublicKey) -> bool {
    let Some(meta) = entry.signature() else {
        return false;
    };
    let Ok(envelope) = Envelope::parse(meta.envelope.as_bytes()) else {
        return false;
    };
    let Ok(statement) = envelope.verify(key) else {
        return false;
    };
    let Some(items) = entry.items() else {
        return false;
    };
    let revision = entry.revision();
    statement.skill == entry.uri()
        && Some(&statement.revision) == revision.as_ref()
        && meta
            .revision
            .as_ref()
            .is_none_or(|r| *r == statement.revision)
        && statement.subjects.len() == items.len()
        && items.iter().all(|i| {
            statement
                .subjects
                .iter()
                .any(|s| s.name == i.uri && format!("sha256:{}", s.sha256) == i.digest)
        })
}

/// The signature properties (see the module documentation).
fn signatures(entry: &Entry, label: &str) {
    let uri = entry.uri();
    let key = trusted();
    let announced = entry
        .signature()
        .and_then(|m| m.signer.as_deref())
        .map(PublicKey::from_jwk);
    let announced_ok = !matches!(announced, Some(Err(_)));
    let holds = holds_under(entry, key.public());
    for tofu in [false, true] {
        let mut host = SkillHost::new(HostOptions::default());
        if host.add_server(label).is_err() {
            return;
        }
        host.set_signer_policy(SignerPolicy {
            trusted: vec![key.public().clone()],
            trust_on_first_use: tofu,
        });
        match host.register(label, entry.clone()) {
            Ok(_) => {
                let s = host
                    .signer(label, uri)
                    .expect("a trust list registers signed skills only");
                assert_eq!(s.trust, SignerTrust::Trusted);
                assert_eq!(s.key_id, key.public().key_id());
                assert!(
                    holds,
                    "registered as trusted, but its envelope does not hold under the trusted key"
                );
            }
            Err(e) => {
                assert!(
                    matches!(
                        e.code,
                        ErrorCode::SignatureInvalid | ErrorCode::SignerUntrusted
                    ),
                    "{e:?}"
                );
                assert!(
                    !(holds && announced_ok),
                    "a signature that holds under the trusted key was refused: {e:?}"
                );
                assert!(host.signer(label, uri).is_none());
            }
        }
    }
    // The default policy: signed only by a key that verifies the envelope, the one announced.
    let mut host = SkillHost::new(HostOptions::default());
    if host.add_server(label).is_err() {
        return;
    }
    match host.register(label, entry.clone()) {
        Ok(_) => match host.signer(label, uri).cloned() {
            None => assert!(
                entry.signature().is_none(),
                "a signed entry without a signer"
            ),
            Some(s) => {
                assert_eq!(s.trust, SignerTrust::Announced);
                let Some(Ok(k)) = &announced else {
                    panic!("reported as signed without an announced key");
                };
                assert_eq!(s.key_id, k.key_id());
                assert!(
                    holds_under(entry, k),
                    "reported as signed by a key its envelope does not hold under"
                );
                assert_eq!(
                    host.approve(label, uri).ok(),
                    signed_approval_fingerprint(label, entry, Some(&s)).ok()
                );
            }
        },
        Err(e) => {
            assert!(
                entry.signature().is_some(),
                "an unsigned entry refused: {e:?}"
            );
            assert_eq!(e.code, ErrorCode::SignatureInvalid, "{e:?}");
        }
    }
}

/// `direct[i]`: what `verify_skill_md` gave for `contents[i]`.
fn registry(
    entry: &Entry,
    contents: &[Vec<u8>],
    direct: &[Result<VerifiedSkillMd, VerifyError>],
    refs: &[String],
    label: &str,
    options: HostOptions,
) {
    let uri = entry.uri();
    let mut host = SkillHost::new(options);
    if host.add_server(label).is_err() {
        return;
    }
    let out = match host.register(label, entry.clone()) {
        Ok(out) => out,
        Err(e) => {
            // Only a signature can stop a valid entry (checked in `signatures`).
            assert!(
                entry.signature().is_some(),
                "a valid entry is refused: {e:?}"
            );
            return;
        }
    };
    assert!(out.added && !out.changed && !out.approval_revoked);
    if let Ok(f) = host.approve(label, uri) {
        assert_eq!(
            Some(f),
            signed_approval_fingerprint(label, entry, host.signer(label, uri)).ok()
        );
        assert!(host.is_approved(label, uri));
        let again = host
            .register(label, entry.clone())
            .expect("registers again");
        assert!(
            !again.added && !again.changed && !again.approval_revoked,
            "the same entry revoked its approval"
        );
        assert!(host.is_approved(label, uri));
    } else {
        assert!(entry.is_dynamic());
    }
    let plan = host.plan_load(label, uri);
    if let Ok(p) = &plan {
        assert_eq!(p.uri, uri);
        if let Some(item) = entry.skill_md_item() {
            assert_eq!(
                (p.size, p.digest.as_deref()),
                (Some(item.size), Some(item.digest.as_str()))
            );
        }
    }
    let mut loaded = false;
    for (bytes, direct) in contents.iter().zip(direct) {
        match host.load(label, uri, Content::Bytes(bytes.clone()), Hashing::Here) {
            Ok(l) => {
                assert!(plan.is_ok(), "loaded what plan_load refuses");
                let d = direct.as_ref().unwrap_or_else(|e| {
                    panic!("the host loaded a SKILL.md that does not verify: {e:?}")
                });
                assert_eq!(l.skill_md.receipt, d.receipt);
                loaded = true;
            }
            Err(_) => assert!(!loaded || host.is_active(label, uri)),
        }
    }
    if !loaded {
        assert!(!host.is_active(label, uri));
        for r in refs {
            assert!(
                host.plan_read(label, uri, r).is_err(),
                "a read planned without a loaded skill"
            );
        }
        return;
    }
    for (k, r) in refs.iter().enumerate() {
        let Ok(p) = host.plan_read(label, uri, r) else {
            continue;
        };
        assert!(
            is_inside(entry.root(), &p.uri) || p.uri == entry.root(),
            "a planned read outside the root: {}",
            p.uri
        );
        if !entry.is_dynamic() {
            let item = entry
                .item(&p.uri)
                .unwrap_or_else(|| panic!("a planned read of an unlisted file {}", p.uri));
            assert_eq!(
                (p.size, p.digest.as_deref()),
                (Some(item.size), Some(item.digest.as_str()))
            );
        }
        let tries = [(k + 1) % contents.len().max(1), k % contents.len().max(1)];
        for bytes in tries.iter().filter_map(|t| contents.get(*t)) {
            if let Ok(f) = host.read(label, uri, r, Content::Bytes(bytes.clone()), Hashing::Here) {
                assert_eq!(f.content.receipt.uri, p.uri);
                assert_eq!(f.content.body.as_bytes(), &bytes[..]);
                if !entry.is_dynamic() {
                    assert_matches_item(entry, &p.uri, bytes, "SkillHost::read");
                }
            }
        }
    }
}

fn run(data: &[u8]) {
    let (flags, rest) = skills_edge_fuzz::split_flags::<1>(data);
    let (json, contents, refs, label) = if flags[0] & 1 == 0 {
        raw(rest)
    } else {
        match Case::arbitrary(&mut Unstructured::new(rest)) {
            Ok(c) => build(&c),
            Err(_) => return,
        }
    };
    let (contents, refs) = (
        &contents[..contents.len().min(8)],
        &refs[..refs.len().min(8)],
    );
    let options = HostOptions {
        allow_dynamic: flags[0] & 2 != 0,
        require_approval: flags[0] & 4 != 0,
        nested_without_approval: flags[0] & 8 != 0,
    };
    match Entry::parse(&json) {
        Ok(entry) => verify_all(&entry, contents, refs, &label, options),
        Err(e) => assert_eq!(e.code, ErrorCode::InvalidEntry, "{e:?}"),
    }
    pins(&json);
}

/// The pins reader on the same text: it never panics; a refusal is `InvalidArgument` and stores
/// nothing; what it accepts exports to a text that reads back to the same export, in which every
/// OMS pin's hint is the SHA-256 of its key.
fn pins(text: &str) {
    let mut signers = skills_edge::host::Signers::default();
    let empty = signers.export_pins();
    match signers.import_pins(text) {
        Err(e) => {
            assert_eq!(e.code, ErrorCode::InvalidArgument, "{e:?}");
            assert_eq!(signers.export_pins(), empty, "a refused import stored pins");
        }
        Ok(_) => {
            let out = signers.export_pins();
            let mut again = skills_edge::host::Signers::default();
            again.import_pins(&out).expect("an export reads back");
            assert_eq!(again.export_pins(), out, "export, import, export differ");
            let v: Json = serde_json::from_str(&out).expect("an export is JSON");
            for p in v["omsPins"].as_array().expect("omsPins") {
                let key = p["key"].as_str().expect("key");
                let hint = digest_of(key.as_bytes());
                assert_eq!(
                    Some(&hint[7..]),
                    p["hint"].as_str(),
                    "a hint not of its key"
                );
            }
        }
    }
}

fuzz_target!(|data: &[u8]| run(data));
