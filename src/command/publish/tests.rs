//! `gc` over a bucket in memory holding real signed releases: with `--trust`, only revisions
//! a trusted key signed count towards `--keep`, and a refusal names `--trust FILE`, where
//! gc's keys come from. (wrangler's side of gc runs in tests/e2e/r2.test.mjs.)

use super::*;
use crate::sign::SigningKey;
use std::collections::BTreeMap;

fn key(n: u8) -> SigningKey {
    SigningKey::from_seed(std::array::from_fn(|i| (i as u8).wrapping_mul(7) ^ n))
}

fn memory() -> Store<'static> {
    Store {
        bucket: "skills-catalogs".into(),
        catalog: "default".into(),
        io: Via::Memory(Default::default()),
    }
}

fn objects(store: &Store) -> BTreeMap<String, Vec<u8>> {
    match &store.io {
        Via::Memory(m) => m.borrow().clone(),
        Via::Wrangler(_) => unreachable!("the tests' store is in memory"),
    }
}

/// Publishes a revision as `publish` does (assets, pack and release, then the history, then
/// the pointer), signed by `signer`; returns its revision.
fn publish_signed(store: &Store, body: &str, assets: &[&str], signer: &SigningKey) -> String {
    let pack = format!("the pack of {body}").into_bytes();
    let listed: Vec<(String, u64)> = assets.iter().map(|a| ((*a).to_owned(), 1)).collect();
    let r = Release::of(&store.catalog, &pack, &listed);
    let rev = r.revision().to_owned();
    let signed = r.sign(signer);
    let mut all: Vec<(String, &[u8])> = assets
        .iter()
        .map(|a| (format!("{}{a}", keys::assets(&store.catalog)), &b"x"[..]))
        .collect();
    all.push((keys::pack(&store.catalog, &rev), &pack));
    all.push((keys::release(&store.catalog, &rev), signed.as_bytes()));
    store.put_all(&all).unwrap();
    let mut history = read_history(store).unwrap();
    history.push(Entry {
        revision: rev.clone(),
        assets: assets.iter().map(|a| (*a).to_owned()).collect(),
    });
    write_history(store, &history).unwrap();
    store
        .put(&keys::pointer(&store.catalog), signed.as_bytes(), "")
        .unwrap();
    rev
}

fn trust_of(k: &SigningKey) -> Trust {
    Trust {
        keys: vec![k.public().clone()],
        source: "--trust keys.json".into(),
    }
}

fn has_revision(store: &Store, rev: &str) -> bool {
    let o = objects(store);
    let pack = o.contains_key(&keys::pack("default", rev));
    assert_eq!(
        pack,
        o.contains_key(&keys::release("default", rev)),
        "a revision's pack and release go together"
    );
    pack
}

fn has_asset(store: &Store, name: &str) -> bool {
    objects(store).contains_key(&format!("default/assets/{name}"))
}

/// Two revisions signed by the Worker's key, then one signed by another key (the Worker
/// refuses it and keeps serving the second). `gc --keep 1 --trust` keeps the refused one
/// (the pointer names it) and the second (the newest a trusted key signed, still served),
/// deletes only the first, and says why the third did not count, naming `--trust FILE`.
#[test]
fn gc_with_trust_counts_only_revisions_a_trusted_key_signed() {
    let (ours, stranger) = (key(1), key(2));
    let store = memory();
    let r1 = publish_signed(&store, "v1", &["x1", "shared"], &ours);
    let r2 = publish_signed(&store, "v2", &["x2", "shared"], &ours);
    let r3 = publish_signed(&store, "v3", &["x3"], &stranger);

    let said = collect(&store, 1, Some(&trust_of(&ours)), false).unwrap();
    assert!(!has_revision(&store, &r1) && !has_asset(&store, "x1"));
    assert!(has_revision(&store, &r2) && has_asset(&store, "x2"));
    assert!(has_revision(&store, &r3) && has_asset(&store, "x3"));
    assert!(has_asset(&store, "shared"));
    let history = read_history(&store).unwrap();
    let kept: Vec<&str> = history.iter().map(|e| e.revision.as_str()).collect();
    assert_eq!(kept, [r2.as_str(), r3.as_str()]);

    let refused = format!(
        "gc: revision {}: the release is not signed by a trusted key (it names {}; --trust keys.json holds {})",
        &r3[..12],
        stranger.public().key_id(),
        ours.public().key_id()
    );
    assert!(said[0].starts_with(&refused), "{said:?}");
    assert!(
        said[0].contains("add the publisher's public key (signing.pub) to --trust keys.json"),
        "{said:?}"
    );
    assert!(
        said[0].ends_with("(not counted towards --keep)"),
        "{said:?}"
    );
    assert!(
        said.iter().all(|l| !l.contains("CATALOG_TRUST")),
        "gc's keys are --trust's, not the Worker's setting: {said:?}"
    );
}

/// Without `--trust` every revision counts: the same bucket loses the revision the Worker
/// still serves. This is what `--trust` is for.
#[test]
fn gc_without_trust_counts_a_refused_revision_and_deletes_the_one_still_served() {
    let (ours, stranger) = (key(1), key(2));
    let store = memory();
    let r1 = publish_signed(&store, "v1", &["x1"], &ours);
    let r2 = publish_signed(&store, "v2", &["x2"], &ours);
    let r3 = publish_signed(&store, "v3", &["x3"], &stranger);
    collect(&store, 1, None, false).unwrap();
    assert!(!has_revision(&store, &r1) && !has_revision(&store, &r2));
    assert!(has_revision(&store, &r3));
}

/// A release that is torn, of another catalog, or missing never counts towards `--keep`
/// under `--trust`: the older trusted revisions it would have pushed out stay.
#[test]
fn gc_with_trust_never_counts_a_torn_foreign_or_missing_release() {
    let ours = key(1);
    type Damage = fn(&Store, &str);
    let damages: [(&str, Damage); 3] = [
        ("torn", |s, rev| {
            s.put(&keys::release("default", rev), b"{\"payloadType\":", "")
                .unwrap()
        }),
        ("of another catalog", |s, rev| {
            let other = Release::of("team-b", b"the pack of v3", &[]).sign(&key(1));
            s.put(&keys::release("default", rev), other.as_bytes(), "")
                .unwrap()
        }),
        ("missing", |s, rev| {
            s.delete(&keys::release("default", rev)).unwrap();
            s.delete(&keys::pack("default", rev)).unwrap();
        }),
    ];
    for (what, damage) in damages {
        let store = memory();
        let r1 = publish_signed(&store, "v1", &[], &ours);
        let r2 = publish_signed(&store, "v2", &[], &ours);
        let r3 = publish_signed(&store, "v3", &[], &ours);
        damage(&store, &r3);
        let said = collect(&store, 1, Some(&trust_of(&ours)), false).unwrap();
        assert!(!has_revision(&store, &r1), "{what}: {said:?}");
        assert!(has_revision(&store, &r2), "{what}: {said:?}");
        assert!(
            said[0].starts_with(&format!("gc: revision {}: ", &r3[..12])),
            "{what}: {said:?}"
        );
    }
}

/// `gc --dry-run --trust` says what it would delete and deletes nothing.
#[test]
fn gc_dry_run_with_trust_changes_nothing() {
    let (ours, stranger) = (key(1), key(2));
    let store = memory();
    let r1 = publish_signed(&store, "v1", &["x1"], &ours);
    publish_signed(&store, "v2", &["x2"], &ours);
    publish_signed(&store, "v3", &["x3"], &stranger);
    let before = objects(&store);
    let said = collect(&store, 1, Some(&trust_of(&ours)), true).unwrap();
    assert_eq!(objects(&store), before);
    assert_eq!(said.last().unwrap(), &format!("would delete revision {r1}"));
}
