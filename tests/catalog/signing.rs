//! Signed catalogs at build time: every skill's envelope verifies and states exactly its entry
//! (URI, revision, catalog identity, every file in the entry's order), the entries' `_meta`
//! carry the envelope and the signer's key, the mirror's index names each envelope and the key
//! set, a signed pack (format 5) round-trips all of it, a catalog that is not signed renders
//! byte for byte as before signatures existed (format 4), and the secret key appears in no
//! output.

use serde_json::{json, Value as Json};
use skills_edge::catalog::compile::mirror::{ENVELOPE_SUFFIX, KEYS_META_KEY, KEYS_PATH};
use skills_edge::catalog::compile::signing::CatalogId;
use skills_edge::catalog::compile::{compile, Compiled, SourceTree};
use skills_edge::catalog::pack::{self, AssetPolicy, PackErrorKind, PackOptions, Packed};
use skills_edge::catalog::sign::{
    Envelope, PublicKey, SigningKey, Statement, Subject, DSSE_META_KEY, SIGNER_META_KEY,
};
use skills_edge::catalog::{Catalog, Grant};
use skills_edge::skill::digest::digest_of;
use skills_edge::skill::revision::REVISION_META_KEY;

/// A folder with every shape the mirror and the pack know: a skill that is only a `SKILL.md`,
/// one with supporting files (text, JSON-escaped text and binary), a nested skill, two skills
/// that share a name (left out of the mirror), an organisational prefix, and a file large
/// enough to be an asset.
fn fixture() -> SourceTree {
    let md = |name: &str, extra: &str| {
        format!("---\nname: {name}\ndescription: The {name} skill, for the signing tests.\n---\n\n# {name}\n{extra}")
    };
    let mut t = SourceTree::default();
    t.add_file("solo/SKILL.md", md("solo", ""));
    t.add_file("full/SKILL.md", md("full", "Read `references/a.md`.\n"));
    t.add_file("full/references/a.md", "# A\n\n\"quoted\" \\ text\n");
    t.add_file("full/assets/logo.bin", vec![0u8, 159, 146, 150, 255, 1, 2]);
    t.add_file("full/inner/SKILL.md", md("inner", ""));
    t.add_file("acme/x/twin/SKILL.md", md("twin", ""));
    t.add_file("acme/y/twin/SKILL.md", md("twin", ""));
    t.add_file("acme/y/twin/notes.txt", "y".repeat(10_000));
    t
}

/// The test key: a seed of 32 distinct bytes (so the raw seed cannot occur by chance).
fn seed() -> [u8; 32] {
    std::array::from_fn(|i| (i as u8).wrapping_mul(37).wrapping_add(11))
}

fn key() -> SigningKey {
    SigningKey::from_seed(seed())
}

/// The secret's `d` as the key file carries it.
fn secret_d() -> String {
    let jwk: Json = serde_json::from_str(&key().to_jwk()).unwrap();
    jwk["d"].as_str().unwrap().to_owned()
}

fn unsigned() -> Compiled {
    compile(fixture()).expect("the fixture compiles")
}

fn signed(catalog: &str) -> Compiled {
    let mut c = unsigned();
    c.sign(&key(), &CatalogId::new("--catalog-id", catalog).unwrap());
    c
}

fn with_assets(c: &Compiled) -> Packed {
    pack::encode_with(
        c,
        &PackOptions {
            instructions: None,
            assets: Some(AssetPolicy { inline_max: 0 }),
        },
    )
}

/// Every byte of a pack and its assets, names included.
fn all_bytes(p: &Packed) -> Vec<u8> {
    let mut all = p.pack.clone();
    for a in &p.assets {
        all.extend_from_slice(a.name.as_bytes());
        all.extend_from_slice(&a.bytes);
    }
    all
}

/// The statement an entry calls for, read from the entry's JSON alone (not from the compiler).
fn statement_of_entry(entry: &Json, catalog: &str) -> Statement {
    Statement {
        skill: entry["uri"].as_str().unwrap().to_owned(),
        revision: entry["_meta"][REVISION_META_KEY]
            .as_str()
            .unwrap()
            .to_owned(),
        catalog: catalog.to_owned(),
        subjects: entry["resources"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| Subject {
                name: r["uri"].as_str().unwrap().to_owned(),
                sha256: r["digest"]
                    .as_str()
                    .unwrap()
                    .strip_prefix("sha256:")
                    .unwrap()
                    .to_owned(),
            })
            .collect(),
    }
}

/// Checks one signed entry: its `_meta` has exactly the revision, the envelope and the signer;
/// the signer is `key`'s public JWK; the envelope verifies with it and states the entry.
fn check_signed_entry(entry: &Json, key: &PublicKey, catalog: &str) {
    let uri = entry["uri"].as_str().unwrap();
    let meta = entry["_meta"].as_object().expect("_meta");
    // (serde_json's map is sorted by key: dsse, revision, signer.)
    let keys: Vec<&str> = meta.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [DSSE_META_KEY, REVISION_META_KEY, SIGNER_META_KEY],
        "{uri}"
    );
    let signer = &meta[SIGNER_META_KEY];
    assert_eq!(
        signer,
        &serde_json::from_str::<Json>(&key.to_jwk()).unwrap(),
        "{uri}"
    );
    assert_eq!(
        PublicKey::from_jwk(&signer.to_string()).unwrap(),
        *key,
        "{uri}"
    );
    let envelope = Envelope::parse(meta[DSSE_META_KEY].to_string().as_bytes()).expect("DSSE");
    assert_eq!(envelope.key_ids().collect::<Vec<_>>(), [key.key_id()]);
    let statement = envelope.verify(key).expect("the envelope verifies");
    assert_eq!(statement, statement_of_entry(entry, catalog), "{uri}");
}

/// The envelope and the signer follow the revision in the entry's text.
fn check_meta_order(entry_json: &str) {
    let at = |k: &str| entry_json.find(&format!("\"{k}\":")).expect(k);
    assert!(at(REVISION_META_KEY) < at(DSSE_META_KEY));
    assert!(at(DSSE_META_KEY) < at(SIGNER_META_KEY));
    assert!(
        entry_json.ends_with("}}}"),
        "the signer JWK closes _meta and the entry"
    );
}

#[test]
fn a_catalog_that_is_not_signed_publishes_entries_as_before_signatures() {
    // Digest of the entries of the build before signing existed (commit 65aec93), over the
    // fixture: what hosts see is unchanged (the pack's own bytes may change freely).
    let c = unsigned();
    assert!(!c.is_signed() && c.signed_by.is_none() && c.keys_json().is_none());
    let inline = pack::encode(&c, None);
    let entries: Vec<String> = c.skills.iter().map(|s| c.entry_json(s)).collect();
    assert_eq!(
        digest_of(entries.join("\n").as_bytes()),
        "sha256:560ae70fdb3c566a7ec847946a6397ac478bd8b83d1820c16d0c3ac7b5c755f1"
    );
    assert_eq!(inline[8..12], pack::VERSION.to_le_bytes());
    let loaded = Catalog::from_bytes(inline).unwrap();
    assert_eq!(loaded.format_version(), pack::VERSION);
    assert!(!loaded.is_signed());
    assert_eq!(loaded.keys_json(), None);
    assert!(loaded.signature(0).is_none() && loaded.mirrored_signature("solo").is_none());
    let index: Json = serde_json::from_str(&loaded.mirror_index(Grant::PUBLIC)).unwrap();
    assert!(index.get("_meta").is_none());
    for s in index["skills"].as_array().unwrap() {
        assert_eq!(
            s["_meta"].as_object().unwrap().keys().collect::<Vec<_>>(),
            [REVISION_META_KEY]
        );
    }
}

#[test]
fn every_entry_is_signed_and_states_exactly_its_entry() {
    let c = signed("acme.example/skills");
    assert!(c.is_signed());
    let by = c.signed_by.as_ref().unwrap();
    assert_eq!(by.key, *key().public());
    assert_eq!(by.catalog.as_str(), "acme.example/skills");
    assert_eq!(c.skills.len(), 5);
    for s in &c.skills {
        let text = c.entry_json(s);
        check_meta_order(&text);
        let entry: Json = serde_json::from_str(&text).expect("JSON");
        check_signed_entry(&entry, key().public(), "acme.example/skills");
        // The nested skill's files are the outer skill's too: every one is a subject.
        if s.uri == "skill://full/SKILL.md" {
            let names: Vec<String> = Envelope::parse(s.envelope.as_deref().unwrap().as_bytes())
                .unwrap()
                .verify(key().public())
                .unwrap()
                .subjects
                .into_iter()
                .map(|x| x.name)
                .collect();
            assert_eq!(
                names,
                [
                    "skill://full/SKILL.md",
                    "skill://full/assets/logo.bin",
                    "skill://full/inner/SKILL.md",
                    "skill://full/references/a.md"
                ]
            );
        }
    }
    // Another key does not verify them; a changed entry no longer matches its statement.
    let other = SigningKey::from_seed([9; 32]);
    let first = &c.skills[0];
    let env = Envelope::parse(first.envelope.as_deref().unwrap().as_bytes()).unwrap();
    assert!(env.verify(other.public()).is_err());
    let mut entry: Json = serde_json::from_str(&c.entry_json(first)).unwrap();
    entry["resources"][0]["digest"] = json!(digest_of(b"other bytes"));
    assert_ne!(
        env.verify(key().public()).unwrap(),
        statement_of_entry(&entry, "acme.example/skills")
    );
}

#[test]
fn the_default_identity_is_the_key_id_and_signing_is_deterministic() {
    let key_id = key().public().key_id().to_owned();
    let mut c = unsigned();
    c.sign(&key(), &CatalogId::of_key(key().public()));
    for s in &c.skills {
        let entry: Json = serde_json::from_str(&c.entry_json(s)).unwrap();
        check_signed_entry(&entry, key().public(), &key_id);
    }
    // The same catalog and key, the same bytes; another identity, other envelopes.
    let a = pack::encode(&signed("one"), None);
    assert_eq!(a, pack::encode(&signed("one"), None));
    assert_ne!(a, pack::encode(&signed("two"), None));
}

#[test]
fn the_mirror_index_names_each_envelope_and_the_key_set() {
    let c = signed("acme");
    let keys: Json = serde_json::from_str(&c.keys_json().unwrap()).unwrap();
    assert_eq!(
        keys,
        json!({"keys": [serde_json::from_str::<Json>(&key().public().to_jwk()).unwrap()]})
    );
    let loaded = Catalog::from_bytes(pack::encode(&c, None)).unwrap();
    let index: Json = serde_json::from_str(&loaded.mirror_index(Grant::PUBLIC)).unwrap();
    let top: Vec<&String> = index.as_object().unwrap().keys().collect();
    assert_eq!(top, ["$schema", "_meta", "skills"]);
    assert_eq!(index["_meta"], json!({ KEYS_META_KEY: KEYS_PATH }));
    assert_eq!(KEYS_PATH, "/.well-known/agent-skills/keys.json");
    let names: Vec<&str> = index["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    // The twins share a name: neither is mirrored.
    assert_eq!(names, ["full", "inner", "solo"]);
    for s in index["skills"].as_array().unwrap() {
        let name = s["name"].as_str().unwrap();
        let view = loaded.mirrored_skill(name).unwrap();
        assert_eq!(
            s["_meta"],
            json!({
                REVISION_META_KEY: view.revision,
                DSSE_META_KEY: format!("/.well-known/agent-skills/{name}{ENVELOPE_SUFFIX}"),
            }),
            "{name}"
        );
        let sig = loaded.mirrored_signature(name).unwrap();
        let i = loaded.skill_index(view.uri).unwrap();
        assert_eq!(loaded.signature(i), Some(sig));
        // The envelope file holds the very envelope of the MCP entry.
        let entry: Json = serde_json::from_str(view.entry_json).unwrap();
        assert_eq!(
            serde_json::from_str::<Json>(sig.envelope_json).unwrap(),
            entry["_meta"][DSSE_META_KEY]
        );
        assert_eq!(sig.digest, digest_of(sig.envelope_json.as_bytes()));
    }
    assert!(loaded.mirrored_signature("twin").is_none());
    assert!(loaded.mirrored_signature("keys").is_none());
}

#[test]
fn a_signed_pack_round_trips_in_the_one_format_version() {
    let c = signed("acme");
    for packed in [
        Packed {
            pack: pack::encode(&c, None),
            assets: Vec::new(),
        },
        with_assets(&c),
    ] {
        assert_eq!(packed.pack[8..12], pack::VERSION.to_le_bytes());
        let loaded = Catalog::from_bytes(packed.pack.clone()).unwrap();
        assert_eq!(loaded.format_version(), pack::VERSION);
        assert!(loaded.is_signed());
        assert_eq!(loaded.keys_json(), c.keys_json().as_deref());
        assert_eq!(loaded.skill_count(), c.skills.len());
        for (i, s) in c.skills.iter().enumerate() {
            let view = loaded.skill_at(i).unwrap();
            assert_eq!(view.entry_json, c.entry_json(s));
            let sig = loaded.signature(i).unwrap();
            assert_eq!(Some(sig.envelope_json), s.envelope.as_deref());
            let entry: Json = serde_json::from_str(view.entry_json).unwrap();
            check_signed_entry(&entry, key().public(), "acme");
        }
        assert!(loaded.signature(c.skills.len()).is_none());
        // Each envelope is stored once: the signature table points into the entry.
        let entries: usize = c.skills.iter().map(|s| c.entry_json(s).len()).sum();
        let envelopes: usize = c
            .skills
            .iter()
            .map(|s| s.envelope.as_ref().unwrap().len())
            .sum();
        let unsigned_pack = pack::encode(&unsigned(), None).len();
        let unsigned_entries: usize = unsigned()
            .skills
            .iter()
            .map(|s| unsigned().entry_json(s).len())
            .sum();
        if packed.assets.is_empty() {
            assert!(
                packed.pack.len() - unsigned_pack < entries - unsigned_entries + envelopes / 2,
                "the envelopes are not stored twice"
            );
        }
        // Assets are file bytes and archives only: the same with and without signatures.
        let unsigned_assets = with_assets(&unsigned()).assets;
        if !packed.assets.is_empty() {
            assert_eq!(packed.assets, unsigned_assets);
        }
    }
}

#[test]
fn a_pack_with_one_signature_section_or_another_version_is_refused() {
    // Section 11 renamed to a tag no reader knows, marked optional: ignored, so only the
    // signatures (10) are left.
    let mut b = pack::encode(&signed("acme"), None);
    let t = pack::section_table(&b).unwrap();
    for k in 0..t.count {
        let at = t.start + k * t.record_len;
        if b[at..at + 4] == 11u32.to_le_bytes() {
            b[at..at + 4].copy_from_slice(&97u32.to_le_bytes());
            b[at + 12..at + 16].copy_from_slice(&0u32.to_le_bytes());
        }
    }
    pack::seal(&mut b);
    assert_eq!(
        refused!(Catalog::from_bytes(b), PackErrorKind::Inconsistent),
        "invalid skills pack: a signed pack has both signature sections (10 and 11), but this one has only one"
    );
    // Any other version, the earlier signed one (5) included, is refused naming both.
    for v in [4u32, 5, 6, 8] {
        let mut b = pack::encode(&signed("acme"), None);
        b[8..12].copy_from_slice(&v.to_le_bytes());
        pack::seal(&mut b);
        let e = refused!(Catalog::from_bytes(b), PackErrorKind::OtherVersion);
        assert!(
            e.contains(&format!(
                "format version {v}; this build reads version {} only",
                pack::VERSION
            )),
            "{e}"
        );
    }
}

#[test]
fn a_signature_table_of_the_wrong_length_is_refused() {
    // Section 10 of a signed pack cut by one record (16 bytes): its range ends earlier.
    let mut b = pack::encode(&signed("acme"), None);
    let t = pack::section_table(&b).unwrap();
    let rec = (0..t.count)
        .map(|i| t.start + i * t.record_len)
        .find(|&at| b[at..at + 4] == 10u32.to_le_bytes())
        .expect("the signature section");
    let len = u32::from_le_bytes(b[rec + 8..rec + 12].try_into().unwrap());
    b[rec + 8..rec + 12].copy_from_slice(&(len - 16).to_le_bytes());
    pack::seal(&mut b);
    let e = refused!(Catalog::from_bytes(b), PackErrorKind::Inconsistent);
    assert!(e.contains("the signature table is"), "{e}");
}

#[test]
fn the_secret_key_appears_in_no_output() {
    let d = secret_d();
    let seed = seed();
    let c = signed("acme");
    let mut outputs: Vec<Vec<u8>> = vec![
        pack::encode(&c, None),
        all_bytes(&with_assets(&c)),
        c.keys_json().unwrap().into_bytes(),
    ];
    for s in &c.skills {
        outputs.push(c.entry_json(s).into_bytes());
    }
    let loaded = Catalog::from_bytes(pack::encode(&c, None)).unwrap();
    outputs.push(loaded.mirror_index(Grant::PUBLIC).as_bytes().to_vec());
    outputs.push(format!("{c:?}").into_bytes());
    let standard_b64 = {
        use base64::Engine as _;
        base64::engine::general_purpose::STANDARD.encode(seed)
    };
    for out in &outputs {
        for needle in [d.as_bytes(), &seed[..], standard_b64.as_bytes()] {
            assert!(
                !out.windows(needle.len()).any(|w| w == needle),
                "the secret is in an output"
            );
        }
    }
}
