//! Tests of `signature`.

use super::*;
use crate::skill::digest::digest_of;
use serde_json::{json, Value as Json};
use crate::sign::{SigningKey, Subject, PAYLOAD_TYPE};

/// A skill's files, as `(path relative to the root, bytes)`.
pub(crate) type Files<'a> = &'a [(&'a str, &'a [u8])];

/// The entry JSON of the skill `skill://<name>/SKILL.md` with `files`.
pub(crate) fn entry_json(name: &str, files: Files) -> Json {
    let resources: Vec<Json> = files
            .iter()
            .map(|(p, b)| json!({"uri": format!("skill://{name}/{p}"), "digest": digest_of(b), "size": b.len()}))
            .collect();
    json!({"uri": format!("skill://{name}/SKILL.md"),
            "frontmatter": {"name": name, "description": "d"}, "resources": resources})
}

/// The statement `key` signs for the entry `entry` (its files as listed).
pub(crate) fn statement_of(entry: &Json, catalog: &str) -> Statement {
    let parsed = Entry::parse(&entry.to_string()).unwrap();
    Statement {
        skill: parsed.uri().to_owned(),
        revision: parsed.revision().unwrap(),
        catalog: catalog.to_owned(),
        subjects: parsed
            .items()
            .unwrap()
            .iter()
            .map(|i| Subject {
                name: i.uri.clone(),
                sha256: hex(&i.digest).to_owned(),
            })
            .collect(),
    }
}

/// `entry` with `envelope` and `signer` in its `_meta` (beside its revision).
pub(crate) fn with_signature(entry: &Json, envelope: &str, signer: Option<&str>) -> Json {
    let parsed = Entry::parse(&entry.to_string()).unwrap();
    let mut e = entry.clone();
    let mut meta = json!({
        DSSE_META_KEY: serde_json::from_str::<Json>(envelope).unwrap(),
        "io.github.skills-edge/revision": parsed.revision(),
    });
    if let Some(s) = signer {
        meta[SIGNER_META_KEY] = serde_json::from_str(s).unwrap();
    }
    e["_meta"] = meta;
    e
}

/// `entry` signed by `key` for `catalog`, the way the compiler serves it.
pub(crate) fn signed(entry: &Json, key: &SigningKey, catalog: &str) -> Json {
    let env = Envelope::sign(&statement_of(entry, catalog), key).to_json();
    with_signature(entry, &env, Some(&key.public().to_jwk()))
}

fn parse(j: &Json) -> Entry {
    Entry::parse(&j.to_string()).unwrap()
}

fn key(n: u8) -> SigningKey {
    SigningKey::from_seed([n; 32])
}

const FILES: Files = &[("SKILL.md", b"---\nname: a\n---\n"), ("x.md", b"x")];
const ORIGIN: &str = "https://skills.example";

fn code(r: Result<Option<Signer>>) -> ErrorCode {
    r.unwrap_err().code
}

#[test]
fn the_default_reports_a_signature_and_requires_none() {
    let e = entry_json("a", FILES);
    let mut s = Signers::default();
    assert_eq!(s.check_entry(ORIGIN, &parse(&e)), Ok(None));
    let signer = s
        .check_entry(ORIGIN, &parse(&signed(&e, &key(1), "acme")))
        .unwrap()
        .unwrap();
    assert_eq!(
        (
            signer.key_id.as_str(),
            signer.catalog.as_str(),
            signer.trust
        ),
        (key(1).public().key_id(), "acme", SignerTrust::Announced)
    );
    // Nothing was pinned: another signer is announced as well.
    assert!(s.pin(ORIGIN).is_none());
    let other = s
        .check_entry(ORIGIN, &parse(&signed(&e, &key(2), "acme")))
        .unwrap()
        .unwrap();
    assert_eq!(other.key_id, key(2).public().key_id());
}

/// Every tampering of a signed entry the brief of this module lists, each refused as
/// `signature-invalid` under every policy that would otherwise accept the signer.
#[test]
fn every_tampering_is_refused() {
    let e = entry_json("a", FILES);
    let k = key(1);
    let good = signed(&e, &k, "acme");
    let env = || -> Envelope {
        Envelope::parse(good["_meta"][DSSE_META_KEY].to_string().as_bytes()).unwrap()
    };
    let with_env = |env: &Envelope| with_signature(&e, &env.to_json(), Some(&k.public().to_jwk()));
    let mut cases: Vec<(&str, Json)> = Vec::new();
    // A digest in the statement (re-encoded without re-signing).
    let mut st = statement_of(&e, "acme");
    st.subjects[1].sha256 = hex(&digest_of(b"y")).to_owned();
    let mut t = env();
    t.payload = st.to_json().into_bytes();
    cases.push(("a digest in the statement", with_env(&t)));
    // The payload type.
    let mut t = env();
    t.payload_type = "application/json".into();
    cases.push(("the payload type", with_env(&t)));
    // The signature.
    let mut t = env();
    t.signatures[0].sig[5] ^= 0x20;
    cases.push(("the signature", with_env(&t)));
    // The key id.
    let mut t = env();
    t.signatures[0].keyid = key(2).public().key_id().to_owned();
    cases.push(("the key id", with_env(&t)));
    // Another skill's envelope in this entry (signed by the same key, valid on its own).
    let b = entry_json("b", &[("SKILL.md", b"---\nname: b\n---\n")]);
    let moved = signed(&b, &k, "acme");
    cases.push((
        "another skill's envelope",
        with_signature(
            &e,
            &moved["_meta"][DSSE_META_KEY].to_string(),
            Some(&k.public().to_jwk()),
        ),
    ));
    // The signer JWK swapped for another key (the envelope still names the first).
    cases.push((
        "the signer key swapped",
        with_signature(&e, &env().to_json(), Some(&key(2).public().to_jwk())),
    ));
    // An entry digest changed while the envelope stays.
    let mut changed = good.clone();
    changed["resources"][1]["digest"] = json!(digest_of(b"y"));
    cases.push(("an entry digest", changed));
    // A file added to the entry, the envelope kept.
    let mut grown = good.clone();
    grown["resources"]
        .as_array_mut()
        .unwrap()
        .push(json!({"uri":"skill://a/y.md","digest":digest_of(b"y"),"size":1}));
    cases.push(("a file added", grown));
    // The published revision changed.
    let mut rev = good.clone();
    rev["_meta"]["io.github.skills-edge/revision"] = json!(digest_of(b"r"));
    cases.push(("the _meta revision", rev));
    // Envelopes that are not DSSE, a signer that is a secret key.
    let mut not_dsse = good.clone();
    not_dsse["_meta"][DSSE_META_KEY] = json!("x");
    cases.push(("not an envelope", not_dsse));
    let mut secret = good.clone();
    secret["_meta"][SIGNER_META_KEY] = serde_json::from_str(&k.to_jwk()).unwrap();
    cases.push(("a secret signer key", secret));
    let mut no_signer = good.clone();
    no_signer["_meta"]
        .as_object_mut()
        .unwrap()
        .remove(SIGNER_META_KEY);
    cases.push(("no signer key", no_signer));

    for policy in [
        SignerPolicy::default(),
        SignerPolicy {
            trusted: vec![],
            trust_on_first_use: true,
        },
    ] {
        for (why, json) in &cases {
            let mut s = Signers::new(policy.clone());
            let err = s.check_entry(ORIGIN, &parse(json)).unwrap_err();
            assert_eq!(
                err.code,
                ErrorCode::SignatureInvalid,
                "{why}: {}",
                err.message
            );
            assert!(s.pin(ORIGIN).is_none(), "{why}: a refusal pins nothing");
        }
    }
    // With the key trusted, the swapped signer no longer matters (the trusted key checks),
    // and everything else is still refused.
    for (why, json) in &cases {
        let mut s = Signers::new(SignerPolicy {
            trusted: vec![k.public().clone()],
            trust_on_first_use: false,
        });
        let r = s.check_entry(ORIGIN, &parse(json));
        if matches!(*why, "the signer key swapped" | "no signer key") {
            assert_eq!(r.unwrap().unwrap().trust, SignerTrust::Trusted, "{why}");
        } else {
            assert_eq!(code(r), ErrorCode::SignatureInvalid, "{why}");
        }
    }
    // The untouched entry verifies.
    let mut s = Signers::default();
    assert!(s.check_entry(ORIGIN, &parse(&good)).unwrap().is_some());
    assert_eq!(env().payload_type, PAYLOAD_TYPE);
}

#[test]
fn a_dynamic_entry_cannot_be_signed() {
    let e = json!({"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},"resources":"dynamic"});
    let env = Envelope::sign(&statement_of(&entry_json("a", FILES), "acme"), &key(1)).to_json();
    let j = with_signature(&e, &env, Some(&key(1).public().to_jwk()));
    let err = Signers::default()
        .check_entry(ORIGIN, &parse(&j))
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::SignatureInvalid);
    assert!(err.message.contains("dynamic"), "{}", err.message);
}

#[test]
fn a_trust_list_requires_a_trusted_signer() {
    let e = entry_json("a", FILES);
    let mut s = Signers::new(SignerPolicy {
        trusted: vec![key(1).public().clone(), key(3).public().clone()],
        trust_on_first_use: false,
    });
    let ok = s
        .check_entry(ORIGIN, &parse(&signed(&e, &key(1), "acme")))
        .unwrap()
        .unwrap();
    assert_eq!(ok.trust, SignerTrust::Trusted);
    // Unsigned, or signed by a key the list does not hold (announced or not).
    let unsigned = s.check_entry(ORIGIN, &parse(&e)).unwrap_err();
    assert_eq!(
        (unsigned.code, unsigned.actual.as_deref()),
        (ErrorCode::SignerUntrusted, Some("unsigned"))
    );
    let other = s
        .check_entry(ORIGIN, &parse(&signed(&e, &key(2), "acme")))
        .unwrap_err();
    assert_eq!(other.code, ErrorCode::SignerUntrusted);
    assert!(other.message.contains(key(2).public().key_id()));
    // No pin without trust on first use: a second trusted key is as good as the first.
    assert!(s.pin(ORIGIN).is_none());
    let third = s
        .check_entry(ORIGIN, &parse(&signed(&e, &key(3), "other")))
        .unwrap()
        .unwrap();
    assert_eq!(
        (third.trust, third.catalog.as_str()),
        (SignerTrust::Trusted, "other")
    );
    // An envelope with a trusted key's signature beside an untrusted one verifies by the
    // trusted one.
    let mut env = Envelope::sign(&statement_of(&e, "acme"), &key(2));
    env.signatures
        .push(Envelope::sign(&statement_of(&e, "acme"), &key(1)).signatures[0].clone());
    let both = with_signature(&e, &env.to_json(), Some(&key(2).public().to_jwk()));
    assert_eq!(
        s.check_entry(ORIGIN, &parse(&both))
            .unwrap()
            .unwrap()
            .key_id,
        key(1).public().key_id()
    );
}

#[test]
fn first_use_pins_the_origin_and_changes_are_refused_until_accepted() {
    let e = entry_json("a", FILES);
    let b = entry_json("b", &[("SKILL.md", b"b")]);
    let mut s = Signers::new(SignerPolicy {
        trusted: vec![],
        trust_on_first_use: true,
    });
    // Unsigned before any pin: accepted.
    assert_eq!(s.check_entry(ORIGIN, &parse(&e)), Ok(None));
    assert!(s.would_pin(ORIGIN));
    assert!(!Signers::default().would_pin(ORIGIN));
    let first = s
        .check_entry(ORIGIN, &parse(&signed(&e, &key(1), "acme")))
        .unwrap()
        .unwrap();
    assert_eq!(first.trust, SignerTrust::FirstUse);
    assert!(!s.would_pin(ORIGIN));
    let pinned = s
        .check_entry(ORIGIN, &parse(&signed(&b, &key(1), "acme")))
        .unwrap()
        .unwrap();
    assert_eq!(pinned.trust, SignerTrust::Pinned);
    // Another origin is pinned on its own.
    let elsewhere = s
        .check_entry("https://other.example", &parse(&signed(&e, &key(2), "x")))
        .unwrap()
        .unwrap();
    assert_eq!(elsewhere.trust, SignerTrust::FirstUse);
    // Unsigned, another key, another catalog: refused, naming both signers.
    let pin = format!("{} acme", key(1).public().key_id());
    for (why, json, actual) in [
        ("unsigned", e.clone(), "unsigned".to_owned()),
        (
            "another key",
            signed(&e, &key(2), "acme"),
            format!("{} acme", key(2).public().key_id()),
        ),
        (
            "another catalog",
            signed(&e, &key(1), "evil"),
            format!("{} evil", key(1).public().key_id()),
        ),
    ] {
        let err = s.check_entry(ORIGIN, &parse(&json)).unwrap_err();
        assert_eq!(err.code, ErrorCode::SignerChanged, "{why}");
        assert_eq!(
            (err.expected.as_deref(), err.actual.as_deref()),
            (Some(pin.as_str()), Some(actual.as_str())),
            "{why}"
        );
    }
    // A tampered envelope under the pinned key is invalid, not a change.
    let mut tampered = signed(&e, &key(1), "acme");
    tampered["resources"][1]["digest"] = json!(digest_of(b"y"));
    assert_eq!(
        code(s.check_entry(ORIGIN, &parse(&tampered))),
        ErrorCode::SignatureInvalid
    );
    // Accepting the change re-pins on the next signature that holds.
    assert!(s.accept_signer_change(ORIGIN));
    assert!(s.would_pin(ORIGIN));
    assert!(s.pin(ORIGIN).is_none());
    let repinned = s
        .check_entry(ORIGIN, &parse(&signed(&e, &key(2), "acme")))
        .unwrap()
        .unwrap();
    assert_eq!(repinned.trust, SignerTrust::FirstUse);
    assert_eq!(s.pin(ORIGIN).unwrap().key, *key(2).public());
    assert_eq!(
        code(s.check_entry(ORIGIN, &parse(&signed(&e, &key(1), "acme")))),
        ErrorCode::SignerChanged
    );
}

#[test]
fn trust_list_and_first_use_together() {
    let e = entry_json("a", FILES);
    let mut s = Signers::new(SignerPolicy {
        trusted: vec![key(1).public().clone(), key(2).public().clone()],
        trust_on_first_use: true,
    });
    let first = s
        .check_entry(ORIGIN, &parse(&signed(&e, &key(1), "acme")))
        .unwrap()
        .unwrap();
    assert_eq!(first.trust, SignerTrust::Trusted);
    assert_eq!(s.pin(ORIGIN).unwrap().catalog, "acme");
    // A second trusted key is a change for this origin.
    assert_eq!(
        code(s.check_entry(ORIGIN, &parse(&signed(&e, &key(2), "acme")))),
        ErrorCode::SignerChanged
    );
    // An untrusted key is untrusted, pinned or not.
    assert_eq!(
        code(s.check_entry(ORIGIN, &parse(&signed(&e, &key(3), "acme")))),
        ErrorCode::SignerUntrusted
    );
}

#[test]
fn imported_pins_are_enforced_and_checked() {
    let e = entry_json("a", FILES);
    let mut first = Signers::new(SignerPolicy {
        trusted: vec![],
        trust_on_first_use: true,
    });
    first
        .check_entry(ORIGIN, &parse(&signed(&e, &key(1), "acme")))
        .unwrap();
    let saved = first.export_pins();
    assert!(!saved.contains("\"d\""), "{saved}");
    let signing = key(1);
    let k = signing.public();
    assert_eq!(
        saved,
        format!(
            r#"{{"format":"skills-edge/pins","version":2,"pins":[{{"origin":"{ORIGIN}","keyId":"{}","catalog":"acme","key":{}}}],"omsPins":[]}}"#,
            k.key_id(),
            k.to_jwk()
        )
    );
    // Trust on first use off: the imported pin still holds.
    let mut later = Signers::default();
    assert_eq!(later.import_pins(&saved), Ok(1));
    assert_eq!(later.export_pins(), saved);
    assert_eq!(
        later
            .check_entry(ORIGIN, &parse(&signed(&e, &key(1), "acme")))
            .unwrap()
            .unwrap()
            .trust,
        SignerTrust::Pinned
    );
    assert_eq!(
        code(later.check_entry(ORIGIN, &parse(&signed(&e, &key(2), "acme")))),
        ErrorCode::SignerChanged
    );
    // The pinned key checks the envelope even when the server announces no key.
    let mut bare = signed(&e, &key(1), "acme");
    bare["_meta"]
        .as_object_mut()
        .unwrap()
        .remove(SIGNER_META_KEY);
    assert!(later.check_entry(ORIGIN, &parse(&bare)).unwrap().is_some());
    // Accepting a change without trust on first use still pins the next signer.
    later.accept_signer_change(ORIGIN);
    later
        .check_entry(ORIGIN, &parse(&signed(&e, &key(2), "acme")))
        .unwrap();
    assert_eq!(later.pin(ORIGIN).unwrap().key, *key(2).public());
    let swapped = saved.replace(
        &format!("\"keyId\":\"{}\"", key(1).public().key_id()),
        &format!("\"keyId\":\"{}\"", key(2).public().key_id()),
    );
    let secret: Json = serde_json::from_str(&key(1).to_jwk()).unwrap();
    let with_secret = saved.replace(&key(1).public().to_jwk(), &secret.to_string());
    for bad in [
        "{}".to_owned(),
        r#"{"format":"skills-edge/approvals","version":1,"pins":[]}"#.to_owned(),
        r#"{"format":"skills-edge/pins","version":2,"pins":[]}"#.to_owned(),
        r#"{"format":"skills-edge/pins","version":3,"pins":[],"omsPins":[]}"#.to_owned(),
        swapped,
        with_secret,
        saved.replace(ORIGIN, ""),
    ] {
        let mut s = Signers::default();
        let err = s.import_pins(&bad).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidArgument, "{bad}");
        assert!(!err.message.contains("\"d\":"), "{}", err.message);
        assert_eq!(s.pins().count(), 0, "{bad}");
    }
}

#[test]
fn the_files_of_an_artifact_are_matched_by_path() {
    let e = entry_json("a", FILES);
    let st = statement_of(&e, "acme");
    let files: Vec<(String, String)> = FILES
        .iter()
        .map(|(p, b)| (p.to_string(), digest_of(b)))
        .collect();
    assert_eq!(statement_matches_files(&st, "u", "a", &files), Ok(()));
    let mut other = files.clone();
    other[1].1 = digest_of(b"y");
    let err = statement_matches_files(&st, "u", "a", &other).unwrap_err();
    assert_eq!(
        (err.code, err.field.as_deref()),
        (ErrorCode::SignatureInvalid, Some("subject[skill://a/x.md]"))
    );
    // The files as signed, under another revision: the revision is the last check.
    let mut restated = st.clone();
    restated.revision = digest_of(b"r");
    assert_eq!(
        statement_matches_files(&restated, "u", "a", &files)
            .unwrap_err()
            .field
            .as_deref(),
        Some("predicate.revision")
    );
    assert_eq!(
        statement_matches_files(&st, "u", "b", &files)
            .unwrap_err()
            .field
            .as_deref(),
        Some("predicate.skill")
    );
    let mut fewer = files.clone();
    fewer.pop();
    assert_eq!(
        statement_matches_files(&st, "u", "a", &fewer)
            .unwrap_err()
            .code,
        ErrorCode::SignatureInvalid
    );
    // Through the policy: the envelope and the keys a source offers.
    let env = Envelope::sign(&st, &key(1));
    let mut s = Signers::default();
    let signer = s
        .check_files(
            ORIGIN,
            "u",
            "a",
            &files,
            Some(Presented {
                envelope: env.clone(),
                offered: vec![key(2).public().clone(), key(1).public().clone()],
            }),
        )
        .unwrap()
        .unwrap();
    assert_eq!(signer.key_id, key(1).public().key_id());
    assert_eq!(
        s.check_files(
            ORIGIN,
            "u",
            "a",
            &other,
            Some(Presented {
                envelope: env,
                offered: vec![key(1).public().clone()]
            })
        )
        .unwrap_err()
        .code,
        ErrorCode::SignatureInvalid
    );
}

#[test]
fn a_signed_entry_survives_to_json() {
    let good = signed(&entry_json("a", FILES), &key(1), "acme");
    let e = parse(&good);
    let again = Entry::parse(&e.to_json()).unwrap();
    assert_eq!(again.signature(), e.signature());
    assert!(Signers::default()
        .check_entry(ORIGIN, &again)
        .unwrap()
        .is_some());
    // An unsigned entry's JSON has no `_meta`.
    assert!(!parse(&entry_json("a", FILES)).to_json().contains("_meta"));
    // A `null` envelope, or a `_meta` that is not an object, is unsigned.
    let mut null = good.clone();
    null["_meta"][DSSE_META_KEY] = Json::Null;
    assert!(parse(&null).signature().is_none());
    let mut text = good.clone();
    text["_meta"] = json!("x");
    assert!(parse(&text).signature().is_none());
}

#[test]
fn describe_is_short() {
    let s = Signer {
        key_id: "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k".into(),
        catalog: "acme".into(),
        trust: SignerTrust::Pinned,
    };
    assert_eq!(s.describe(), "acme (key kPrK_qmx…, pinned)");
    let unnamed = Signer {
        catalog: s.key_id.clone(),
        ..s
    };
    assert_eq!(unnamed.describe(), "key kPrK_qmx… (pinned)");
}

/// An OMS pin of `origin` as an export holds it: a PEM block and its hint.
fn oms_pin_json(origin: &str, body: &str) -> String {
    let pem = format!("-----BEGIN PUBLIC KEY-----\n{body}\n-----END PUBLIC KEY-----\n");
    let hint = digest_of(pem.as_bytes())["sha256:".len()..].to_owned();
    json!({"origin": origin, "hint": hint, "key": pem}).to_string()
}

#[test]
fn a_pins_file_pinning_one_origin_twice_is_refused_whatever_the_order() {
    let dsse = |origin: &str, n: u8| {
        let signing = key(n);
        let k = signing.public();
        format!(
            r#"{{"origin":"{origin}","keyId":"{}","catalog":"acme","key":{}}}"#,
            k.key_id(),
            k.to_jwk()
        )
    };
    let file = |pins: &[String], oms: &[String]| {
        format!(
            r#"{{"format":"skills-edge/pins","version":2,"pins":[{}],"omsPins":[{}]}}"#,
            pins.join(","),
            oms.join(",")
        )
    };
    // One origin, spelt as written, with a trailing slash, in capitals, with a padded port.
    let spellings = [
        "http://127.0.0.1:18081",
        "http://127.0.0.1:18081/",
        "HTTP://127.0.0.1:18081",
        "http://127.0.0.1:018081",
    ];
    for other in spellings {
        for (a, b) in [(spellings[0], other), (other, spellings[0])] {
            let twice_dsse = file(&[dsse(a, 1), dsse(b, 2)], &[]);
            let twice_oms = file(&[], &[oms_pin_json(a, "AAAA"), oms_pin_json(b, "BBBB")]);
            for (list, bad) in [("pins", twice_dsse), ("omsPins", twice_oms)] {
                let mut s = Signers::default();
                let err = s.import_pins(&bad).unwrap_err();
                assert_eq!(err.code, ErrorCode::InvalidArgument, "{bad}");
                assert!(
                    err.message.contains("http://127.0.0.1:18081 twice")
                        && err.message.contains(list)
                        && err.message.contains("remove"),
                    "{}",
                    err.message
                );
                assert_eq!(s.export_pins(), Signers::default().export_pins());
            }
        }
    }
    // One pin per origin in each list, and one origin in both lists: read.
    let fine = file(
        &[dsse(spellings[0], 1), dsse("http://127.0.0.1:18082", 2)],
        &[oms_pin_json(spellings[1], "AAAA")],
    );
    assert_eq!(Signers::default().import_pins(&fine), Ok(3));
}

#[test]
fn a_pins_file_set_back_to_version_1_does_not_drop_its_oms_pins() {
    let oms = oms_pin_json(ORIGIN, "AAAA");
    let v2 = format!(r#"{{"format":"skills-edge/pins","version":2,"pins":[],"omsPins":[{oms}]}}"#);
    assert_eq!(Signers::default().import_pins(&v2), Ok(1));
    // The version edited to 1, its OMS pins still there: refused, not read without them.
    let v1 = v2.replace("\"version\":2", "\"version\":1");
    let mut s = Signers::default();
    let err = s.import_pins(&v1).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidArgument);
    assert!(
        err.message.contains("\"omsPins\"") && err.message.contains("\"version\": 2"),
        "{}",
        err.message
    );
    assert_eq!(s.export_pins(), Signers::default().export_pins());
    // Any field version 1 does not define, wherever it is.
    let other = r#"{"extra":1,"format":"skills-edge/pins","version":1,"pins":[]}"#;
    let err = Signers::default().import_pins(other).unwrap_err();
    assert!(err.message.contains("\"extra\""), "{}", err.message);
    // A version 1 file as version 1 wrote it: read.
    let plain = r#"{"format":"skills-edge/pins","version":1,"pins":[]}"#;
    assert_eq!(Signers::default().import_pins(plain), Ok(0));
}

#[test]
fn a_first_use_pin_of_a_skill_refused_later_is_taken_back_and_a_passing_skill_pins_it_again() {
    let e = entry_json("a", FILES);
    let mut s = Signers::new(SignerPolicy {
        trusted: vec![],
        trust_on_first_use: true,
    });
    let first = s
        .check_entry(ORIGIN, &parse(&signed(&e, &key(1), "acme")))
        .unwrap()
        .unwrap();
    // Another skill of the listing, checked against the pin the first one made.
    let second = s
        .check_entry(ORIGIN, &parse(&signed(&e, &key(1), "acme")))
        .unwrap()
        .unwrap();
    assert_eq!(second.trust, SignerTrust::Pinned);
    // The first skill is refused by a later check: its pin goes.
    assert!(s.settle_first_use(ORIGIN, &first, true));
    assert!(s.pin(ORIGIN).is_none());
    // The second passes every check: the key it was checked against is pinned again.
    assert!(!s.settle_first_use(ORIGIN, &second, false));
    assert_eq!(s.pin(ORIGIN).unwrap().key, *key(1).public());
    // Confirmed: a refusal of another skill signed by that key no longer takes it back.
    assert!(!s.settle_first_use(ORIGIN, &first, true));
    assert!(s.pin(ORIGIN).is_some());
    // An imported pin is never taken back.
    let mut later = Signers::default();
    later.import_pins(&s.export_pins()).unwrap();
    assert!(!later.settle_first_use(ORIGIN, &first, true));
    assert!(later.pin(ORIGIN).is_some());
}
