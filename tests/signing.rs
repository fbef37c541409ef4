//! A signed catalog as hosts receive it: the repository's skills folder signed at build time
//! and served by the responder and the mirror. Every `skills/list` entry and every
//! `skills/get` result (both protocol eras) carries the skill's envelope and the signer's key
//! in its `_meta`, byte for byte the compiled entry; each envelope verifies and states exactly
//! its entry; the mirror serves each envelope at `{name}.dsse.json` and the key set at
//! `keys.json` with the artifacts' ETag, 304, HEAD and Cache-Control rules; an unsigned
//! catalog's mirror has neither.

use crate::common::{all_items, ok, request, responder_over, ERAS};
use serde_json::{json, Value as Json};
use skills_edge::catalog::compile::mirror::{KEYS_META_KEY, KEYS_PATH};
use skills_edge::catalog::compile::signing::CatalogId;
use skills_edge::catalog::compile::{compile, Compiled};
use skills_edge::catalog::sign::{
    Envelope, PublicKey, SigningKey, Statement, Subject, DSSE_META_KEY, SIGNER_META_KEY,
};
use skills_edge::catalog::Grant;
use skills_edge::catalog::{pack, walk, Catalog};
use skills_edge::http::{Endpoint, Head, HttpConfig, Response, Step};
use skills_edge::skill::digest::digest_of;
use skills_edge::skill::revision::REVISION_META_KEY;
use std::path::Path;
use std::sync::Arc;

const CATALOG: &str = "skills-edge.example/tests";

fn key() -> SigningKey {
    SigningKey::from_seed(std::array::from_fn(|i| (i as u8).wrapping_mul(29) ^ 0xa5))
}

fn compiled() -> Compiled {
    let walked = walk::walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("skills"));
    compile(walked.tree).expect("the skills folder compiles")
}

fn signed_catalog() -> (Compiled, Arc<Catalog>) {
    let mut c = compiled();
    c.sign(&key(), &CatalogId::new("--catalog-id", CATALOG).unwrap());
    let catalog = Catalog::from_bytes(pack::encode(&c, None)).expect("the signed pack loads");
    (c, Arc::new(catalog))
}

/// The statement an entry calls for, read from the entry alone.
fn statement_of_entry(entry: &Json) -> Statement {
    Statement {
        skill: entry["uri"].as_str().unwrap().to_owned(),
        revision: entry["_meta"][REVISION_META_KEY]
            .as_str()
            .unwrap()
            .to_owned(),
        catalog: CATALOG.to_owned(),
        subjects: entry["resources"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| Subject {
                name: r["uri"].as_str().unwrap().to_owned(),
                sha256: r["digest"].as_str().unwrap()["sha256:".len()..].to_owned(),
            })
            .collect(),
    }
}

/// The entry's envelope verifies with the signer its `_meta` names, which is the test key, and
/// states exactly the entry.
fn check_entry(entry: &Json) {
    let uri = entry["uri"].as_str().unwrap();
    let signer = PublicKey::from_jwk(&entry["_meta"][SIGNER_META_KEY].to_string())
        .unwrap_or_else(|e| panic!("{uri}: {e}"));
    assert_eq!(signer, *key().public(), "{uri}");
    let envelope = Envelope::parse(entry["_meta"][DSSE_META_KEY].to_string().as_bytes())
        .unwrap_or_else(|e| panic!("{uri}: {e}"));
    let statement = envelope
        .verify(&signer)
        .unwrap_or_else(|e| panic!("{uri}: {e}"));
    assert_eq!(statement, statement_of_entry(entry), "{uri}");
}

#[test]
fn skills_list_and_skills_get_carry_each_envelope_in_both_eras() {
    let (c, catalog) = signed_catalog();
    let r = responder_over(catalog.clone(), 2);
    let compiled: Vec<Json> = c
        .skills
        .iter()
        .map(|s| serde_json::from_str(&c.entry_json(s)).unwrap())
        .collect();
    assert!(compiled.len() > 2, "several pages");
    for era in ERAS {
        let listed = all_items(&r, era, "skills/list", json!({}), "skills");
        assert_eq!(
            listed, compiled,
            "{era:?}: skills/list serves the entries as compiled"
        );
        for entry in &listed {
            check_entry(entry);
            let uri = entry["uri"].as_str().unwrap();
            let got = ok(&r, &request(era, 1, "skills/get", json!({ "uri": uri })));
            assert_eq!(&got["skill"], entry, "{era:?}: skills/get {uri}");
            check_entry(&got["skill"]);
        }
    }
}

fn get(path: &str) -> Head<'_> {
    Head {
        method: "GET",
        path,
        host: Some("127.0.0.1:8787"),
        ..Head::default()
    }
}

fn respond(ep: &Endpoint, head: &Head<'_>) -> Response {
    match ep.head(head, Grant::PUBLIC) {
        Step::Respond(r) => r,
        _ => panic!("the mirror answers at once"),
    }
}

#[test]
fn the_mirror_serves_each_envelope_and_the_key_set() {
    let (_, catalog) = signed_catalog();
    let ep = Endpoint::new(catalog.clone(), HttpConfig::default()).unwrap();
    let index_r = respond(&ep, &get("/.well-known/agent-skills/index.json"));
    let index: Json = serde_json::from_slice(&index_r.body).unwrap();
    assert_eq!(index["_meta"], json!({ KEYS_META_KEY: KEYS_PATH }));

    // keys.json: the JWK Set of the signer's public key.
    let keys_r = respond(&ep, &get(KEYS_PATH));
    assert_eq!(keys_r.status, 200);
    assert_eq!(keys_r.header("content-type"), Some("application/json"));
    let keys: Json = serde_json::from_slice(&keys_r.body).unwrap();
    assert_eq!(keys["keys"].as_array().unwrap().len(), 1);
    assert_eq!(
        PublicKey::from_jwk(&keys["keys"][0].to_string()).unwrap(),
        *key().public()
    );
    let digest = digest_of(&keys_r.body);
    assert_eq!(
        keys_r.header("etag"),
        Some(format!("\"{}\"", &digest["sha256:".len()..]).as_str())
    );

    let skills = index["skills"].as_array().unwrap();
    assert_eq!(skills.len(), catalog.skill_count());
    for s in skills {
        let name = s["name"].as_str().unwrap();
        let path = s["_meta"][DSSE_META_KEY].as_str().unwrap();
        assert_eq!(path, format!("/.well-known/agent-skills/{name}.dsse.json"));
        let r = respond(&ep, &get(path));
        assert_eq!(r.status, 200, "{path}");
        assert_eq!(r.header("content-type"), Some("application/json"));
        assert_eq!(r.header("cache-control"), Some("public, max-age=300"));
        let tag = format!("\"{}\"", &digest_of(&r.body)["sha256:".len()..]);
        assert_eq!(r.header("etag"), Some(tag.as_str()), "{path}");
        // The envelope of the MCP entry, and it verifies against the entry.
        let view = catalog.mirrored_skill(name).unwrap();
        let entry: Json = serde_json::from_str(view.entry_json).unwrap();
        assert_eq!(
            serde_json::from_slice::<Json>(&r.body).unwrap(),
            entry["_meta"][DSSE_META_KEY]
        );
        let statement = Envelope::parse(&r.body)
            .unwrap()
            .verify(key().public())
            .unwrap();
        assert_eq!(statement, statement_of_entry(&entry));
        assert_eq!(s["_meta"][REVISION_META_KEY].as_str(), Some(view.revision));
    }

    // The artifacts' conditional and HEAD rules, for an envelope and for keys.json.
    let first = skills[0]["_meta"][DSSE_META_KEY]
        .as_str()
        .unwrap()
        .to_owned();
    for path in [first.as_str(), KEYS_PATH] {
        let full = respond(&ep, &get(path));
        let tag = full.header("etag").unwrap().to_owned();
        let weak = format!("W/{tag}");
        for inm in [tag.as_str(), weak.as_str(), "*"] {
            let r = respond(
                &ep,
                &Head {
                    if_none_match: Some(inm),
                    ..get(path)
                },
            );
            assert_eq!(r.status, 304, "{path} {inm}");
            assert!(r.body.is_empty());
            assert_eq!(r.header("etag"), Some(tag.as_str()));
        }
        let r = respond(
            &ep,
            &Head {
                if_none_match: Some("\"other\""),
                ..get(path)
            },
        );
        assert_eq!((r.status, r.body.len()), (200, full.body.len()));
        let r = respond(
            &ep,
            &Head {
                method: "HEAD",
                ..get(path)
            },
        );
        assert_eq!(r.status, 200);
        assert!(r.body.is_empty());
        assert_eq!(r.header("etag"), Some(tag.as_str()));
        assert_eq!(r.header("content-type"), Some("application/json"));
    }
    // No envelope for a name that is not mirrored, nor an envelope path with a folder.
    for path in [
        "/.well-known/agent-skills/no-such-skill.dsse.json",
        "/.well-known/agent-skills/.dsse.json",
        "/.well-known/agent-skills/code-review/x.dsse.json",
    ] {
        assert_eq!(respond(&ep, &get(path)).status, 404, "{path}");
    }
}

#[test]
fn an_unsigned_catalog_serves_no_envelope_and_no_key_set() {
    let c = compiled();
    let catalog = Arc::new(Catalog::from_bytes(pack::encode(&c, None)).unwrap());
    let ep = Endpoint::new(catalog, HttpConfig::default()).unwrap();
    let index: Json =
        serde_json::from_slice(&respond(&ep, &get("/.well-known/agent-skills/index.json")).body)
            .unwrap();
    assert!(index.get("_meta").is_none());
    let name = index["skills"][0]["name"].as_str().unwrap().to_owned();
    for path in [
        KEYS_PATH.to_owned(),
        format!("/.well-known/agent-skills/{name}.dsse.json"),
    ] {
        let r = respond(&ep, &get(&path));
        assert_eq!(r.status, 404, "{path}");
    }
    // And its entries carry only the revision.
    for s in &c.skills {
        let entry: Json = serde_json::from_str(&c.entry_json(s)).unwrap();
        assert_eq!(
            entry["_meta"]
                .as_object()
                .unwrap()
                .keys()
                .collect::<Vec<_>>(),
            [REVISION_META_KEY]
        );
    }
}
