//! Releases (a catalog published to object storage): what the Worker accepts and what it
//! refuses, each way an attacker with write access to the bucket could try to get another pack
//! served.

use skills_edge::catalog::compile::signing::CatalogId;
use skills_edge::catalog::compile::{compile, Compiled, SourceTree};
use skills_edge::catalog::pack::{self, AssetPolicy, PackOptions};
use skills_edge::catalog::release::{
    check_catalog_id, keys, parse_trust, Release, ReleaseErrorKind, RELEASE_TYPE,
};
use skills_edge::catalog::sign::{pae, Envelope, EnvelopeSignature, PublicKey, SigningKey};

fn key(n: u8) -> SigningKey {
    SigningKey::from_seed(std::array::from_fn(|i| {
        (i as u8).wrapping_mul(31).wrapping_add(n)
    }))
}

fn folder(body: &str) -> Compiled {
    let mut t = SourceTree::default();
    t.add_file(
        "one/SKILL.md",
        format!(
            "---\nname: one\ndescription: The one skill, for the release tests.\n---\n\n{body}\n"
        ),
    );
    t.add_file("one/references/big.md", "x".repeat(20_000));
    compile(t).expect("the fixture compiles")
}

/// A signed pack of `body` and its assets (name, length).
fn packed(body: &str, k: &SigningKey) -> (Vec<u8>, Vec<(String, u64)>) {
    let mut c = folder(body);
    c.sign(k, &CatalogId::new("--catalog-id", "test").unwrap());
    let p = pack::encode_with(
        &c,
        &PackOptions {
            instructions: None,
            assets: Some(AssetPolicy::default()),
        },
    );
    let assets = p
        .assets
        .iter()
        .map(|a| (a.name.clone(), a.bytes.len() as u64))
        .collect();
    (p.pack, assets)
}

/// The payload of a signed release.
fn payload(signed: &str) -> String {
    String::from_utf8(Envelope::parse(signed.as_bytes()).unwrap().payload).unwrap()
}

fn trust(k: &SigningKey) -> Vec<PublicKey> {
    vec![k.public().clone()]
}

#[test]
fn a_release_signed_by_a_trusted_key_opens_and_its_pack_loads() {
    let k = key(1);
    let (pack, assets) = packed("v1", &k);
    let r = Release::of("default", &pack, &assets);
    assert!(!r.assets.is_empty(), "the fixture has an asset");
    let signed = r.sign(&k);
    let opened = Release::open(signed.as_bytes(), &trust(&k), "CATALOG_TRUST", "default").unwrap();
    assert_eq!(opened, r);
    assert_eq!(opened.revision().len(), 64);
    let catalog = opened
        .check_pack(pack, &trust(&k), "CATALOG_TRUST")
        .unwrap();
    assert_eq!(catalog.skill_count(), 1);
    // A second trusted key does not get in the way.
    let both = vec![key(9).public().clone(), k.public().clone()];
    assert!(Release::open(signed.as_bytes(), &both, "CATALOG_TRUST", "default").is_ok());
}

#[test]
fn an_attacker_who_signs_a_release_with_another_key_is_refused() {
    let (pack, assets) = packed("v1", &key(2));
    let signed = Release::of("default", &pack, &assets).sign(&key(2));
    let e = refused!(
        Release::open(
            signed.as_bytes(),
            &trust(&key(1)),
            "CATALOG_TRUST",
            "default",
        ),
        ReleaseErrorKind::Untrusted,
    );
    assert!(e.contains("not signed by a trusted key"), "{e}");
    assert!(
        e.contains(key(2).public().key_id()),
        "names the signer: {e}"
    );
}

/// The refusal names where the trusted keys came from, and the fix there: the Worker's
/// `CATALOG_TRUST`, or the file `gc --trust` read (never the Worker's setting for gc's keys).
#[test]
fn a_release_refused_names_where_its_trusted_keys_came_from() {
    let (pack, assets) = packed("v1", &key(2));
    let signed = Release::of("default", &pack, &assets).sign(&key(2));
    for source in ["CATALOG_TRUST", "--trust keys.json"] {
        let e = Release::open(signed.as_bytes(), &trust(&key(1)), source, "default")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(&format!("{source} holds {}", key(1).public().key_id())),
            "{e}"
        );
        assert!(
            e.contains(&format!(
                "add the publisher's public key (signing.pub) to {source}"
            )),
            "{e}"
        );
    }
    let e = Release::open(
        signed.as_bytes(),
        &trust(&key(1)),
        "--trust keys.json",
        "default",
    )
    .unwrap_err()
    .to_string();
    assert!(!e.contains("CATALOG_TRUST"), "{e}");
}

#[test]
fn an_attacker_who_changes_a_signed_release_is_refused() {
    let k = key(1);
    let (pack, assets) = packed("v1", &k);
    let (other, _) = packed("evil", &k);
    let signed = Release::of("default", &pack, &assets).sign(&k);
    // Point the signed release at another pack: the payload changes, the signature does not.
    let forged = payload(&Release::of("default", &other, &assets).sign(&k));
    let env = Envelope::parse(signed.as_bytes()).unwrap();
    let tampered = Envelope {
        payload: forged.into_bytes(),
        ..env
    }
    .to_json();
    let e = Release::open(tampered.as_bytes(), &trust(&k), "CATALOG_TRUST", "default")
        .unwrap_err()
        .to_string();
    assert!(e.contains("not signed by a trusted key"), "{e}");
}

#[test]
fn an_attacker_who_serves_an_unsigned_or_torn_pointer_is_refused() {
    let k = key(1);
    let (pack, assets) = packed("v1", &k);
    let signed = Release::of("default", &pack, &assets).sign(&k);
    let unsigned = Envelope {
        signatures: vec![],
        ..Envelope::parse(signed.as_bytes()).unwrap()
    }
    .to_json();
    assert!(
        Release::open(unsigned.as_bytes(), &trust(&k), "CATALOG_TRUST", "default")
            .unwrap_err()
            .to_string()
            .contains("names no key")
    );
    for cut in [0, 1, signed.len() / 2, signed.len() - 1] {
        let cut = &signed.as_bytes()[..cut];
        let e = refused!(
            Release::open(cut, &trust(&k), "CATALOG_TRUST", "default"),
            ReleaseErrorKind::Malformed,
        );
        assert!(e.contains("torn"), "{}: {e}", cut.len());
    }
    assert!(Release::open(b"\xff\xfe", &trust(&k), "CATALOG_TRUST", "default").is_err());
}

#[test]
fn an_attacker_who_passes_a_skill_signature_off_as_a_release_is_refused() {
    let k = key(1);
    let (pack, assets) = packed("v1", &k);
    let payload = payload(&Release::of("default", &pack, &assets).sign(&k)).into_bytes();
    let ty = "application/vnd.in-toto+json";
    let sig = k.sign(&pae(ty, &payload)).to_vec();
    let env = Envelope {
        payload_type: ty.into(),
        payload,
        signatures: vec![EnvelopeSignature {
            keyid: k.public().key_id().into(),
            sig,
        }],
    }
    .to_json();
    let e = refused!(
        Release::open(env.as_bytes(), &trust(&k), "CATALOG_TRUST", "default"),
        ReleaseErrorKind::Malformed,
    );
    assert!(e.contains(RELEASE_TYPE), "{e}");
}

#[test]
fn an_attacker_who_moves_one_tenants_release_to_another_is_refused() {
    let k = key(1);
    let (pack, assets) = packed("v1", &k);
    let signed = Release::of("team-a", &pack, &assets).sign(&k);
    let e = refused!(
        Release::open(signed.as_bytes(), &trust(&k), "CATALOG_TRUST", "team-b"),
        ReleaseErrorKind::OtherCatalog,
    );
    assert!(e.contains("\"team-a\""), "{e}");
}

#[test]
fn an_attacker_who_replaces_or_truncates_the_pack_is_refused() {
    let k = key(1);
    let (pack, assets) = packed("v1", &k);
    let (other, _) = packed("evil", &k);
    let r = Release::of("default", &pack, &assets);
    let e = refused!(
        r.check_pack(pack[..pack.len() - 1].to_vec(), &trust(&k), "CATALOG_TRUST"),
        ReleaseErrorKind::PackMismatch,
    );
    assert!(e.contains("truncated"), "{e}");
    let mut same_len = other.clone();
    same_len.resize(pack.len(), 0);
    let e = refused!(
        r.check_pack(same_len, &trust(&k), "CATALOG_TRUST"),
        ReleaseErrorKind::PackMismatch,
    );
    assert!(e.contains("SHA-256"), "{e}");
}

#[test]
fn an_unsigned_pack_or_one_signed_by_another_key_is_refused_even_under_a_trusted_release() {
    let k = key(1);
    let c = folder("v1");
    let unsigned = pack::encode_with(&c, &PackOptions::default()).pack;
    let e = refused!(
        Release::of("default", &unsigned, &[]).check_pack(unsigned, &trust(&k), "CATALOG_TRUST"),
        ReleaseErrorKind::PackRefused,
    );
    assert!(e.contains("not signed"), "{e}");
    let (other, assets) = packed("v1", &key(3));
    let e = refused!(
        Release::of("default", &other, &assets).check_pack(other, &trust(&k), "CATALOG_TRUST"),
        ReleaseErrorKind::PackRefused,
    );
    assert!(e.contains("CATALOG_TRUST does not hold"), "{e}");
}

#[test]
fn trust_lists_take_a_key_a_set_or_an_array_and_never_a_secret() {
    let a = key(1).public().to_jwk();
    let b = key(2).public().to_jwk();
    assert_eq!(parse_trust(&a).unwrap().len(), 1);
    assert_eq!(
        parse_trust(&format!("{{\"keys\":[{a},{b}]}}"))
            .unwrap()
            .len(),
        2
    );
    assert_eq!(parse_trust(&format!("[{a},{b}]")).unwrap().len(), 2);
    assert!(parse_trust("[]")
        .unwrap_err()
        .to_string()
        .contains("no key"));
    assert_eq!(parse_trust("[]").unwrap_err().kind, ReleaseErrorKind::Trust);
    assert!(parse_trust("nope").is_err());
    let secret = key(1).to_jwk();
    let e = parse_trust(&secret).unwrap_err().to_string();
    assert!(e.contains("secret"), "{e}");
    assert!(
        !e.contains(&secret[10..30]),
        "the message never quotes the key"
    );
}

/// A trust list every JSON reader takes for the same keys: `JSON.parse` keeps the last of a
/// repeated member where this reader would see the first, and an object that is both a key
/// and a set reads as one or the other depending on the reader.
#[test]
fn trust_lists_that_readers_could_take_for_other_keys_are_refused() {
    let a = key(1).public().to_jwk();
    let b = key(2).public().to_jwk();
    let e = parse_trust(&format!("{{\"keys\":[{b}],\"keys\":[{a}]}}"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("\"keys\" twice"), "{e}");
    let both = format!("{}, \"keys\":[{b}]}}", a.trim_end_matches('}'));
    let e = parse_trust(&both).unwrap_err().to_string();
    assert!(e.contains("both `keys`"), "{e}");
    let twice = format!("{}, \"x\":\"AAAA\"}}", a.trim_end_matches('}'));
    assert!(parse_trust(&twice)
        .unwrap_err()
        .to_string()
        .contains("\"x\" twice"));
}

#[test]
fn catalog_ids_are_one_safe_path_segment() {
    for ok in ["default", "team-a", "a.b_c", "0"] {
        assert!(check_catalog_id(ok).is_ok(), "{ok}");
    }
    for bad in ["", "A", "../x", "a/b", "-a", ".a", &"a".repeat(65)] {
        assert!(check_catalog_id(bad).is_err(), "{bad}");
    }
    assert_eq!(keys::pointer("default"), "default/current.json");
    assert_eq!(keys::pack("t", "ab"), "t/packs/ab.pack");
}

/// A publisher (or anyone holding the trusted key) signs a release whose asset list leaves
/// out an asset the pack needs, or gives it another length: the Worker checks only the
/// listed assets in the bucket, so the pack is refused before it is served (else the file
/// would answer 500).
#[test]
fn an_attacker_who_signs_a_release_that_leaves_out_an_asset_the_pack_needs_is_refused() {
    let k = key(1);
    let (pack, assets) = packed("v1", &k);
    assert!(
        assets.len() >= 2,
        "the fixture has a raw and a rendered asset"
    );
    for i in 0..assets.len() {
        let mut fewer = assets.clone();
        let (gone, _) = fewer.remove(i);
        let signed = Release::of("default", &pack, &fewer).sign(&k);
        let r = Release::open(signed.as_bytes(), &trust(&k), "CATALOG_TRUST", "default").unwrap();
        let e = refused!(
            r.check_pack(pack.clone(), &trust(&k), "CATALOG_TRUST"),
            ReleaseErrorKind::PackRefused,
        );
        assert!(e.contains(&gone) && e.contains("does not list"), "{e}");
        let mut longer = assets.clone();
        longer[i].1 += 1;
        let e = refused!(
            Release::of("default", &pack, &longer).check_pack(
                pack.clone(),
                &trust(&k),
                "CATALOG_TRUST",
            ),
            ReleaseErrorKind::PackRefused,
        );
        assert!(e.contains(&assets[i].0) && e.contains("lists as"), "{e}");
    }
    // Listed in another order than publish writes, the same release is accepted.
    let mut reversed = assets.clone();
    reversed.sort();
    reversed.reverse();
    let mut body = format!(
        "{{\"catalog\":\"default\",\"pack\":\"{}\",\"size\":{},\"assets\":[",
        Release::of("default", &pack, &[]).pack,
        pack.len()
    );
    let listed: Vec<String> = reversed
        .iter()
        .map(|(n, l)| format!("[\"{n}\",{l}]"))
        .collect();
    body.push_str(&listed.join(","));
    body.push_str("]}");
    let payload = body.into_bytes();
    let sig = k.sign(&pae(RELEASE_TYPE, &payload)).to_vec();
    let env = Envelope {
        payload_type: RELEASE_TYPE.into(),
        payload,
        signatures: vec![EnvelopeSignature {
            keyid: k.public().key_id().into(),
            sig,
        }],
    }
    .to_json();
    let r = Release::open(env.as_bytes(), &trust(&k), "CATALOG_TRUST", "default").unwrap();
    assert!(r.check_pack(pack, &trust(&k), "CATALOG_TRUST").is_ok());
}

/// The history (unsigned: it only says where a Worker with no good pack, `--rollback` and
/// `gc` look) reads back what was written, and a damaged one is refused, not half read.
#[test]
fn an_attacker_who_damages_the_history_gets_it_refused_not_half_read() {
    use skills_edge::catalog::release::{history_text, parse_history, HistoryEntry};
    let h = vec![
        HistoryEntry {
            revision: "a".repeat(64),
            assets: vec!["b".repeat(64), format!("{}.json", "b".repeat(64))],
        },
        HistoryEntry {
            revision: "c".repeat(64),
            assets: vec![],
        },
    ];
    let text = history_text(&h);
    assert_eq!(parse_history(text.as_bytes()).unwrap(), h);
    assert_eq!(parse_history(b"skills-edge history 1\n").unwrap(), vec![]);
    for bad in [
        &b""[..],
        b"\xff\xfe",
        b"skills-edge history 2\n",
        b"{\"history\":[]}",
    ] {
        assert!(parse_history(bad).is_err());
    }
    let upper = text.replace(&"c".repeat(64), &"C".repeat(64));
    assert!(parse_history(upper.as_bytes()).is_err());
    // gc deletes ID/assets/{name}: a name that leaves the folder is refused.
    for name in ["../../other/packs/x", "a/b", "", "a\r"] {
        let t = format!("skills-edge history 1\n{} ok {name}\n", "a".repeat(64));
        assert!(parse_history(t.as_bytes()).is_err(), "{name:?}");
    }
    let short = text.replace(&"c".repeat(64), "cccc");
    let e = parse_history(short.as_bytes()).unwrap_err();
    assert_eq!(e.kind, ReleaseErrorKind::History);
    assert!(e.to_string().contains("revision"), "{e}");
}

fn entry(rev: char, assets: &[&str]) -> skills_edge::catalog::release::HistoryEntry {
    skills_edge::catalog::release::HistoryEntry {
        revision: rev.to_string().repeat(64),
        assets: assets.iter().map(|a| a.to_string()).collect(),
    }
}

fn pointer_to(rev: char, assets: &[&str]) -> Release {
    Release {
        catalog: "default".into(),
        pack: rev.to_string().repeat(64),
        size: 1,
        assets: assets.iter().map(|a| (a.to_string(), 1)).collect(),
    }
}

/// A publisher signs with a key the Worker does not trust (the Worker keeps serving the
/// revision before), then runs `gc --keep 1`: counting the refused revision, gc would keep
/// only it and delete the pack still being served. With the trust list, the refused
/// revision does not count, and the served one is kept with its assets.
#[test]
fn gc_after_a_refused_publish_keeps_the_revision_still_served() {
    use skills_edge::catalog::release::gc_plan;
    let history = vec![
        entry('1', &["x1"]),
        entry('2', &["x2", "shared"]),
        entry('3', &["x3", "shared"]),
    ];
    let pointer = pointer_to('3', &["x3", "shared"]);
    let refused = '3'.to_string().repeat(64);
    // Without a trust list every revision counts: the served revision 2 would go.
    let blind = gc_plan(&history, Some(&pointer), 1, |_| true);
    assert_eq!(blind.revisions, vec!["1".repeat(64), "2".repeat(64)]);
    // With it, revision 3 (refused) does not count: 2 is kept, only 1 goes.
    let mut asked = Vec::new();
    let plan = gc_plan(&history, Some(&pointer), 1, |e| {
        asked.push(e.revision.clone());
        e.revision != refused
    });
    assert_eq!(plan.revisions, vec!["1".repeat(64)]);
    assert_eq!(plan.assets, vec!["x1".to_owned()]);
    assert_eq!(plan.kept, history[1..].to_vec());
    assert_eq!(
        asked,
        vec!["3".repeat(64), "2".repeat(64)],
        "only until one counted"
    );
    // keep 0 still keeps what the pointer names, and its assets.
    let none = gc_plan(&history, Some(&pointer), 0, |_| true);
    assert_eq!(none.kept, history[2..].to_vec());
    assert_eq!(none.assets, vec!["x1".to_owned(), "x2".to_owned()]);
}

/// gc plans from the history and pointer it read first; meanwhile a publish re-points the
/// catalog to an older revision gc planned to delete (re-uploaded, added last to the
/// history, the pointer moved or about to move). Read again before the deletes, the plan
/// leaves that revision and its assets alone.
#[test]
fn gc_beside_a_publish_that_re_points_to_an_older_revision_leaves_it_alone() {
    use skills_edge::catalog::release::gc_plan;
    let history = vec![
        entry('1', &["a1"]),
        entry('2', &["a2"]),
        entry('3', &["a3"]),
    ];
    for keep in [0, 1] {
        let plan = gc_plan(&history, Some(&pointer_to('3', &["a3"])), keep, |_| true);
        assert!(plan.revisions.contains(&"1".repeat(64)));
        // The publish of revision 1 again: the history has it last.
        let after = vec![
            entry('2', &["a2"]),
            entry('3', &["a3"]),
            entry('1', &["a1"]),
        ];
        for pointer in [pointer_to('3', &["a3"]), pointer_to('1', &["a1"])] {
            let now = plan.still_doomed(&after, Some(&pointer), keep);
            assert!(
                !now.revisions.contains(&"1".repeat(64)),
                "keep {keep}: {now:?}"
            );
            assert!(
                !now.assets.contains(&"a1".to_owned()),
                "keep {keep}: {now:?}"
            );
            assert!(now.kept.iter().any(|e| e.revision == "1".repeat(64)));
            assert!(!now.revisions.contains(&pointer.pack));
        }
        // Nothing changed meanwhile: the plan stands as it was.
        let now = plan.still_doomed(&history, Some(&pointer_to('3', &["a3"])), keep);
        assert_eq!(
            (now.revisions, now.assets),
            (plan.revisions.clone(), plan.assets.clone())
        );
        // A rollback to revision 2 meanwhile (the history unchanged).
        let now = plan.still_doomed(&history, Some(&pointer_to('2', &["a2"])), keep);
        assert!(!now.revisions.contains(&"2".repeat(64)) && !now.assets.contains(&"a2".to_owned()));
    }
}
