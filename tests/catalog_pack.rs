//! The compiled catalog as a pack: the embedded pack is exactly what the compiler makes of the
//! skills folder today (the build is deterministic and current), packs round-trip, the snapshot
//! id follows every byte, instructions name the skills, and hostile packs (truncated, mutated)
//! are refused or served without a panic.

use crate::common;

use common::*;
use serde_json::json;
use skills_edge::catalog::compile::{self, SourceTree};
use skills_edge::catalog::pack::{PackError, PackErrorKind};
use skills_edge::catalog::Grant;
use skills_edge::catalog::{pack, walk, Catalog};
use skills_edge::protocol::Era;
use skills_edge::server::Transport;
use std::path::PathBuf;
use std::sync::Arc;

fn skills_dir() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    root.join(option_env!("SKILLS_DIR").unwrap_or("skills"))
}

fn small_tree(body: &str) -> SourceTree {
    let mut t = SourceTree::default();
    t.add_file("one/SKILL.md", skill_md("one", "").into_bytes());
    t.add_file("one/notes.md", body.as_bytes().to_vec());
    t.add_file("two/SKILL.md", skill_md("two", "").into_bytes());
    t
}

#[test]
fn the_embedded_pack_is_what_the_compiler_makes_of_the_skills_folder() {
    let compiled = compile::compile(walk::walk(&skills_dir()).tree).expect("skills/ compiles");
    assert!(compiled.warnings.is_empty(), "{:?}", compiled.warnings);
    let packed = pack::encode(&compiled, None);
    assert_eq!(
        packed,
        skills_edge::embedded::PACK,
        "the embedded catalog is current and the build is deterministic"
    );
    // Entries rendered by the compiler are the ones the catalog serves.
    let catalog = embedded();
    for (s, view) in compiled.skills.iter().zip(catalog.skills()) {
        assert_eq!(compiled.entry_json(s), view.entry_json);
        assert_eq!(compiled.list_item_json(s), view.list_item_json);
    }
    assert_eq!(compiled.files.len(), catalog.file_count());
    for (f, view) in compiled.files.iter().zip(catalog.files()) {
        assert_eq!(f.uri, view.uri);
        assert_eq!(Some(&f.bytes[..]), view.bytes());
        assert_eq!(f.digest, view.digest);
        assert_eq!(f.size, view.size);
    }
}

#[test]
fn packs_round_trip_and_the_snapshot_follows_every_byte() {
    let a = compile::compile(small_tree("x\n")).expect("compiles");
    let pa = pack::encode(&a, None);
    assert_eq!(pack::encode(&a, None), pa, "encoding is deterministic");
    let ca = Catalog::from_bytes(pa.clone()).expect("loads");
    assert_eq!(pack::snapshot_of(&pa), Some(ca.snapshot()));
    let cb = Catalog::compile(small_tree("y\n"), None).expect("loads");
    let cc = Catalog::compile(small_tree("x\n"), None).expect("loads");
    assert_eq!(ca.snapshot(), cc.snapshot(), "same content, same snapshot");
    assert_ne!(
        ca.snapshot(),
        cb.snapshot(),
        "one byte changed, new snapshot"
    );
    // A cursor of one catalog is refused by the other.
    let ra = responder_over(Arc::new(ca), 1);
    let rb = responder_over(Arc::new(cb), 1);
    let c = ok(&ra, &request(Era::Modern, 1, "skills/list", json!({})))["nextCursor"]
        .as_str()
        .expect("cursor")
        .to_owned();
    let rpc = err(
        &rb,
        &request(Era::Modern, 1, "skills/list", json!({ "cursor": c })),
    );
    assert!(
        rpc.message().contains("catalog has changed"),
        "{}",
        rpc.message()
    );
    // Instructions can be replaced at pack time.
    let custom = Catalog::from_bytes(pack::encode(&a, Some("Only two skills."))).expect("loads");
    assert_eq!(custom.instructions(Grant::PUBLIC), "Only two skills.");
}

#[test]
fn default_instructions_name_the_skills_and_stay_bounded() {
    let mut t = SourceTree::default();
    for i in 0..60 {
        let name = format!("skill-{i:02}");
        t.add_file(
            &format!("{name}/SKILL.md"),
            skill_md(&name, "").into_bytes(),
        );
    }
    let c = Catalog::compile(t, None).expect("loads");
    let text = c.instructions(Grant::PUBLIC);
    assert!(text.contains("skill://skill-00/SKILL.md (skill-00)"));
    assert!(text.contains("skill://skill-49/SKILL.md"));
    assert!(!text.contains("skill://skill-50/SKILL.md"));
    assert!(text.contains("and 10 more (see skills/list)"));
}

/// Whether a pack whose prefix (magic, version, length, checksum) is whole was refused for
/// what its tables or sections hold: as inconsistent, or as naming a required section this
/// build does not know (a mutated section record can mark one required).
fn refused_inside(e: &PackError) -> bool {
    matches!(
        e.kind,
        PackErrorKind::Inconsistent | PackErrorKind::OtherVersion
    )
}

/// Loads `bytes` as a pack (its prefix whole); when it loads, drives every kind of request
/// through a responder over it. Nothing may panic, and every reply must be well formed.
fn exercise(bytes: Vec<u8>) -> bool {
    let catalog = match Catalog::from_bytes(bytes) {
        Ok(c) => c,
        Err(e) => {
            assert!(refused_inside(&e), "{:?}: {e}", e.kind);
            return false;
        }
    };
    serve(catalog, true);
    true
}

/// Drives every kind of request through a responder over `catalog`, for an anonymous caller
/// and one holding every scope. Nothing may panic; with `well_formed`, every reply must be
/// well formed.
fn serve(catalog: Catalog, well_formed: bool) {
    let catalog = Arc::new(catalog);
    let r = responder_over(catalog.clone(), 2);
    let mut msgs = vec![
        request(Era::Modern, 1, "server/discover", json!({})),
        request(Era::Modern, 1, "skills/list", json!({})),
        request(Era::Legacy, 1, "resources/list", json!({})),
        request(
            Era::Legacy,
            1,
            "initialize",
            json!({"protocolVersion": LEGACY}),
        ),
    ];
    for s in catalog.skills() {
        msgs.push(request(Era::Modern, 1, "skills/get", json!({"uri": s.uri})));
    }
    for f in catalog.files() {
        msgs.push(request(
            Era::Modern,
            1,
            "resources/read",
            json!({"uri": f.uri}),
        ));
    }
    for i in 0..catalog.dir_count() {
        let d = catalog.dir_at(i).expect("dir");
        msgs.push(request(
            Era::Legacy,
            1,
            "resources/directory/read",
            json!({"uri": d.uri}),
        ));
    }
    for m in msgs {
        // A pack whose bytes are assets is served with the assets missing: the fault replies
        // must be well formed too.
        let reply = assemble(r.respond(&m, &Transport::Stream, Grant::PUBLIC), |_| None);
        if let Err(e) = check_reply(&reply) {
            assert!(
                !well_formed,
                "malformed reply over a loaded pack ({e}): {}",
                reply.body_str()
            );
        }
        let all = skills_edge::catalog::Grant::from_mask(u64::MAX);
        let _ = r.respond(&m, &Transport::Stream, all);
    }
}

/// A tree with a private skill (access rules) next to [`small_tree`]'s public ones.
fn tree_with_rules() -> SourceTree {
    let mut t = small_tree("notes\n");
    t.add_file("three/SKILL.md", skill_md("three", "").into_bytes());
    t.add_file("three/refs/a.md", b"# A\n".to_vec());
    t.add_file(
        "skills-edge.toml",
        b"[[access]]\nskills = [\"three\"]\nscopes = [\"billing\"]\n".to_vec(),
    );
    t
}

/// The Worker's bundled pack is opened by its shape only (`Catalog::from_bundled`: no digest
/// of the whole pack, no table decoded). An attacker who changes bytes of such a pack after
/// the build (the checksum no longer matches, and nothing checks it) gets a refusal, or a
/// catalog whose damaged records read as absent: never a panic, whatever is asked.
#[test]
fn an_attacker_who_damages_a_bundled_pack_gets_a_refusal_or_answers_without_a_panic() {
    let good = pack::encode(
        &compile::compile(tree_with_rules()).expect("compiles"),
        None,
    );
    let bundled = |b: Vec<u8>| match std::panic::catch_unwind(|| match Catalog::from_bundled(b) {
        Ok(c) => {
            serve(c, false);
            true
        }
        Err(e) => {
            assert!(refused_inside(&e), "{:?}: {e}", e.kind);
            false
        }
    }) {
        Ok(loaded) => loaded,
        Err(_) => panic!("a damaged bundled pack panicked"),
    };
    assert!(bundled(good.clone()), "the good pack opens");
    // Its shape only: a flipped byte of a file's contents is not noticed (no digest).
    let mut flipped = good.clone();
    let at = flipped
        .windows(6)
        .position(|w| w == b"notes\n")
        .expect("the notes");
    flipped[at] ^= 1;
    let c = Catalog::from_bundled(flipped.clone()).expect("opens by its shape");
    assert_eq!(
        c.file("skill://one/notes.md").and_then(|f| f.bytes()),
        Some(&b"ootes\n"[..])
    );
    let e = refused!(Catalog::from_bytes(flipped), PackErrorKind::Corrupted);
    assert!(
        e.contains("checksum mismatch"),
        "the full check refuses it: {e}"
    );
    // Truncations, other versions and trailing bytes are refused by their shape.
    for n in (0..good.len()).step_by(7) {
        // Nothing at all is not a pack; the first bytes of one are a pack cut short.
        let kind = if n == 0 {
            PackErrorKind::NotAPack
        } else {
            PackErrorKind::Corrupted
        };
        refused!(Catalog::from_bundled(good[..n].to_vec()), kind);
    }
    let mut v6 = good.clone();
    v6[8] = 6;
    let e = refused!(Catalog::from_bundled(v6), PackErrorKind::OtherVersion);
    assert!(
        e.contains("format version 6; this build reads version 7 only"),
        "{e}"
    );
    // One byte in five after the prefix changed in turn, then seeded mutations of 1 to 3
    // bytes.
    let mut loaded = 0;
    for at in (48..good.len()).step_by(5) {
        let mut b = good.clone();
        b[at] = b[at].wrapping_add(0x41);
        loaded += usize::from(bundled(b));
    }
    let mut rng = Rng(0x5eed_b0b0_cafe_f00d);
    for _ in 0..400 {
        let mut b = good.clone();
        for _ in 0..1 + rng.below(3) {
            let at = 48 + rng.below(b.len() - 48);
            b[at] = (rng.next_u64() >> 56) as u8;
        }
        loaded += usize::from(bundled(b));
    }
    assert!(loaded > 0);
}

#[test]
fn hostile_packs_are_refused_or_served_without_a_panic() {
    let good = pack::encode(
        &compile::compile(small_tree("notes\n")).expect("compiles"),
        None,
    );
    assert!(exercise(good.clone()), "the good pack loads");
    let refusal = |b: Vec<u8>, kind: PackErrorKind| -> String {
        match std::panic::catch_unwind(|| Catalog::from_bytes(b).map(|_| ())) {
            Ok(r) => refused!(r, kind),
            Err(_) => panic!("loading a damaged pack panicked"),
        }
    };
    // Every truncation is refused, and named as one once the header is there.
    for n in 0..good.len() {
        let kind = if n == 0 {
            PackErrorKind::NotAPack
        } else {
            PackErrorKind::Corrupted
        };
        let e = refusal(good[..n].to_vec(), kind);
        if n > 0 {
            assert!(e.contains("truncated"), "cut to {n} bytes: {e}");
        }
    }
    let mut longer = good.clone();
    longer.push(0);
    assert!(refusal(longer, PackErrorKind::Corrupted).contains("trailing bytes"));
    // Wrong magic and version.
    let mut bad = good.clone();
    bad[0] = b'X';
    assert!(refusal(bad, PackErrorKind::NotAPack).contains("not a skills pack"));
    // Every other version, the earlier ones included (4 plain, 5 signed, 6 with access
    // rules), is refused naming both, with the fix.
    for v in [1u8, 2, 3, 4, 5, 6, 8] {
        let mut bad = good.clone();
        bad[8] = v;
        let e = refusal(bad, PackErrorKind::OtherVersion);
        assert!(
            e.contains(&format!(
                "format version {v}; this build reads version {} only",
                pack::VERSION
            )),
            "{e}"
        );
        assert!(e.contains("rebuild the pack"), "{e}");
    }
    assert_eq!(pack::VERSION, 7);
    // Every flipped bit after the header is caught by the checksum.
    for at in 16..good.len() {
        let mut b = good.clone();
        b[at] ^= 1 << (at % 8);
        let e = refusal(b, PackErrorKind::Corrupted);
        assert!(
            e.contains("checksum mismatch") || e.contains("truncated"),
            "byte {at}: {e}"
        );
    }
    // Seeded mutations behind a valid checksum (as a hostile producer would make them):
    // refused by the structural checks, or loaded and served without a panic.
    let mut rng = Rng(0x0bad_cafe_5eed_d00d);
    let mut loaded = 0;
    for i in 0..3000 {
        let mut b = good.clone();
        for _ in 0..1 + rng.below(3) {
            let at = 48 + rng.below(b.len() - 48);
            b[at] = match rng.below(3) {
                0 => (rng.next_u64() >> 56) as u8,
                1 => b[at].wrapping_add(1),
                _ => 0xff,
            };
        }
        pack::seal(&mut b);
        match std::panic::catch_unwind(|| exercise(b)) {
            Ok(true) => loaded += 1,
            Ok(false) => {}
            Err(_) => panic!("mutation {i} panicked"),
        }
    }
    // Most single-byte changes land in file contents and still load.
    assert!(loaded > 0);
}

/// A tree with small and large files, text (with characters JSON escapes) and binary, and two
/// large files with equal bytes.
fn mixed_tree() -> SourceTree {
    let mut t = SourceTree::default();
    t.add_file("big/SKILL.md", skill_md("big", "").into_bytes());
    t.add_file("big/small.txt", b"tiny\n".to_vec());
    let text: String = (0..400)
        .map(|i| {
            format!(
                "line {i}: \"quoted\" \\ tab\t é \u{2028} {}\n",
                "x".repeat(i % 7)
            )
        })
        .collect();
    t.add_file("big/references/long.md", text.into_bytes());
    let binary: Vec<u8> = (0..5000u32).map(|i| (i * 7 % 256) as u8).collect();
    t.add_file("big/assets/one.bin", binary.clone());
    t.add_file("big/assets/same.bin", binary);
    t
}

#[test]
fn large_files_can_live_outside_the_pack_as_assets_and_read_back_byte_for_byte() {
    let compiled = compile::compile(mixed_tree()).expect("compiles");
    let inline = Arc::new(Catalog::from_bytes(pack::encode(&compiled, None)).expect("loads"));
    let packed = pack::encode_with(
        &compiled,
        &pack::PackOptions {
            instructions: None,
            assets: Some(pack::AssetPolicy { inline_max: 64 }),
        },
    );
    let external = Arc::new(Catalog::from_bytes(packed.pack.clone()).expect("loads"));
    assert!(external.has_assets() && !inline.has_assets());
    assert!(packed.pack.len() < pack::encode(&compiled, None).len());
    // Two assets per large file, and equal bytes share theirs (one.bin and same.bin).
    let large: std::collections::BTreeSet<&str> = compiled
        .files
        .iter()
        .filter(|f| f.size > 64)
        .map(|f| f.digest.as_str())
        .collect();
    assert_eq!(large.len(), 3);
    // And one for the mirror's archive of the skill, above the limit too (raw bytes only: no
    // MCP read carries it).
    let archive = compiled.skills[0].archive.as_ref().expect("an archive");
    assert!(archive.size > 64);
    assert_eq!(packed.assets.len(), 2 * large.len() + 1);
    let view = external.mirrored_archive("big").expect("mirrored");
    assert_eq!(
        (view.digest, view.size, view.bytes),
        (archive.digest.as_str(), archive.size, None)
    );
    assert_eq!(
        inline.mirrored_archive("big").and_then(|v| v.bytes),
        Some(&archive.bytes[..])
    );
    let asset = |name: &str| {
        packed
            .assets
            .iter()
            .find(|a| a.name == name)
            .map(|a| a.bytes.clone())
    };
    for f in &compiled.files {
        let view = external.file(&f.uri).expect("listed");
        assert_eq!((view.digest, view.size), (f.digest.as_str(), f.size));
        if f.size > 64 {
            assert_eq!(view.bytes(), None, "{}", f.uri);
            assert_eq!(
                asset(pack::raw_asset_name(&f.digest)),
                Some(f.bytes.clone())
            );
            assert_eq!(
                asset(&pack::rendered_asset_name(&f.digest)),
                Some(pack::rendered_content(&f.bytes, f.is_text).into_bytes())
            );
        } else {
            assert_eq!(view.bytes(), Some(&f.bytes[..]), "{}", f.uri);
        }
    }
    // Entries, listings and the snapshot do not depend on where the bytes are.
    assert_eq!(external.snapshot(), inline.snapshot());
    for (a, b) in external.skills().zip(inline.skills()) {
        assert_eq!(a.entry_json, b.entry_json);
    }
    // A read spliced around its asset is the very reply the inline pack gives, in both eras.
    let (ri, re) = (responder_over(inline, 50), responder_over(external, 50));
    for f in &compiled.files {
        for era in ERAS {
            let m = request(era, "r-1", "resources/read", json!({"uri": f.uri}));
            let whole = ri.respond(&m, &Transport::Stream, Grant::PUBLIC);
            let spliced = re.respond(&m, &Transport::Stream, Grant::PUBLIC);
            assert_eq!(spliced.splice.is_some(), f.size > 64, "{}", f.uri);
            assert_eq!(assemble(spliced, asset), whole, "{}", f.uri);
        }
    }
    // A missing or truncated asset is a loud -32603 naming the URI, never other bytes.
    let big = "skill://big/references/long.md";
    let m = request(Era::Modern, 7, "resources/read", json!({"uri": big}));
    for damage in [
        None,
        asset(&pack::rendered_asset_name(
            &compiled.files.iter().find(|f| f.uri == big).unwrap().digest,
        ))
        .map(|mut b| {
            b.pop();
            b
        }),
    ] {
        let r = assemble(re.respond(&m, &Transport::Stream, Grant::PUBLIC), |_| {
            damage.clone()
        });
        let rpc = check_reply(&r).expect("well formed").expect("a body");
        assert_eq!(rpc.status, 500);
        assert_eq!(rpc.json["id"], 7);
        assert_eq!(rpc.json["error"]["code"], -32603);
        assert_eq!(rpc.json["error"]["data"]["uri"], big);
        assert!(rpc.json["error"]["message"].as_str().unwrap().contains(big));
    }
}

#[test]
fn served_bytes_are_exactly_the_source_bytes() {
    let files: Vec<(&str, Vec<u8>)> = vec![
        (
            "tricky/SKILL.md",
            b"---\r\nname: tricky\r\ndescription: \"CRLF, \\u00e9 and a tab\\there\"\r\n---\r\n\r\n# Tricky\r\n".to_vec(),
        ),
        ("tricky/empty.txt", Vec::new()),
        ("tricky/bom.md", "\u{feff}# With a byte order mark\n".into()),
        (
            "tricky/controls.txt",
            b"nul \x00 bell \x07 esc \x1b del \x7f cr-only \r quote \" backslash \\ slash / \xe2\x80\xa8 \xf0\x9f\x98\x80\n".to_vec(),
        ),
        ("tricky/latin1.txt", b"caf\xe9 is not UTF-8\n".to_vec()),
        ("tricky/assets/Logo.PNG", b"\x89PNG\r\n\x1a\n\x00\x00".to_vec()),
        ("tricky/one-byte.bin", vec![0xff]),
        ("tricky/two-bytes.bin", vec![0xff, 0xfe]),
        ("tricky/LICENSE", b"MIT\n".to_vec()),
    ];
    let mut tree = SourceTree::default();
    for (p, b) in &files {
        tree.add_file(p, b.clone());
    }
    let catalog = Arc::new(Catalog::compile(tree, None).expect("compiles"));
    let r = responder_over(catalog, 50);
    for era in ERAS {
        let entry = ok(
            &r,
            &request(
                era,
                1,
                "skills/get",
                json!({"uri": "skill://tricky/SKILL.md"}),
            ),
        );
        let manifest = entry["skill"]["resources"]
            .as_array()
            .expect("manifest")
            .clone();
        assert_eq!(manifest.len(), files.len());
        for (path, bytes) in &files {
            let uri = format!("skill://{path}");
            let res = ok(
                &r,
                &request(era, 1, "resources/read", json!({ "uri": uri })),
            );
            let item = &res["contents"][0];
            let served = content_bytes(item);
            assert_eq!(&served, bytes, "{uri}: served unaltered");
            assert_eq!(
                item.get("text").is_some(),
                std::str::from_utf8(bytes).is_ok(),
                "{uri}: text exactly when UTF-8"
            );
            let m = manifest.iter().find(|m| m["uri"] == uri).expect("listed");
            assert_eq!(m["size"], bytes.len(), "{uri}");
            assert_eq!(m["digest"], sha256_wire(bytes), "{uri}");
        }
        let mime = |uri: &str| {
            ok(
                &r,
                &request(era, 1, "resources/read", json!({ "uri": uri })),
            )["contents"][0]["mimeType"]
                .clone()
        };
        assert_eq!(mime("skill://tricky/assets/Logo.PNG"), "image/png");
        assert_eq!(mime("skill://tricky/LICENSE"), "text/plain");
        assert_eq!(
            mime("skill://tricky/one-byte.bin"),
            "application/octet-stream"
        );
        assert_eq!(mime("skill://tricky/empty.txt"), "text/plain");
        assert_eq!(mime("skill://tricky/SKILL.md"), "text/markdown");
    }
    // The empty file has the empty digest.
    assert_eq!(
        sha256_wire(b""),
        "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
}

/// A pack whose JSON fragments hold `needle` (12 bytes) replaced by `with` everywhere, sealed
/// again (as a hostile producer would).
fn pack_with(needle: &[u8], with: &[u8]) -> Vec<u8> {
    assert_eq!(needle.len(), with.len());
    let desc = String::from_utf8_lossy(needle).into_owned();
    let mut t = SourceTree::default();
    t.add_file(
        "s/SKILL.md",
        format!("---\nname: s\ndescription: d{desc}\n---\nBody\n").into_bytes(),
    );
    let mut b = pack::encode(&compile::compile(t).expect("compiles"), None);
    let mut at = 0;
    while let Some(i) = b[at..].windows(needle.len()).position(|w| w == needle) {
        b[at + i..at + i + with.len()].copy_from_slice(with);
        at += i + with.len();
    }
    assert!(at > 0, "the needle is in the pack");
    pack::seal(&mut b);
    b
}

/// Found by the `pack` fuzz target: a fragment with a lone surrogate escape (`"\ud83d\ud100"`)
/// passed the JSON check (which skipped strings without decoding them), so every reply that
/// embeds the entry was unreadable to strict JSON readers. Such a fragment is refused; a valid
/// surrogate pair still loads.
#[test]
fn fragments_with_lone_surrogate_escapes_are_refused() {
    let lone = pack_with(b"xxxxxxxxxxxx", br"\ud83d\ud100");
    let e = refused!(Catalog::from_bytes(lone), PackErrorKind::Inconsistent);
    assert!(e.contains("is not valid JSON"), "{e}");
    let pair = pack_with(b"xxxxxxxxxxxx", br"\ud83d\ude00");
    let c = Catalog::from_bytes(pair).expect("a surrogate pair is valid JSON");
    let entry: serde_json::Value =
        serde_json::from_str(c.skill_at(0).expect("one skill").entry_json).expect("strict JSON");
    assert_eq!(entry["frontmatter"]["description"], "d\u{1f600}");
}

/// Sets word `k` of record `i` of the table of `rec_len`-byte records at `at` in `pack`.
fn set_word(pack: &mut [u8], at: usize, rec_len: usize, i: usize, k: usize, v: u32) {
    let w = at + i * rec_len + 4 * k;
    pack[w..w + 4].copy_from_slice(&v.to_le_bytes());
}

#[test]
fn an_attacker_who_damages_a_record_of_a_bundled_pack_gets_an_error_naming_it_and_the_fix() {
    let good = pack::encode(
        &compile::compile(small_tree("notes\n")).expect("compiles"),
        None,
    );
    let word = |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    // After the prefix (48 bytes): the header's seven words, then the files (40 bytes each),
    // then the skills (40 bytes each: URI, entry, list item, name, revision).
    let n_files = word(&good, 52) as usize;
    let (files_at, skills_at) = (76, 76 + n_files * 40);
    // Skill 0's entry made to run past the end of the pack; file 1's bytes (one/notes.md) too.
    let mut bad = good.clone();
    set_word(&mut bad, skills_at, 40, 0, 3, u32::MAX - 8);
    set_word(&mut bad, files_at, 40, 1, 7, u32::MAX - 8);
    // The full check refuses it: by its checksum, and sealed again, by its records.
    refused!(Catalog::from_bytes(bad.clone()), PackErrorKind::Corrupted);
    let mut sealed = bad.clone();
    pack::seal(&mut sealed);
    refused!(Catalog::from_bytes(sealed), PackErrorKind::Inconsistent);
    let c = Arc::new(Catalog::from_bundled(bad).expect("its shape is whole"));
    let e = refused!(c.try_skill_at(0), PackErrorKind::DamagedRecord);
    assert!(
        e.contains("the entry of skill 0 is damaged") && e.contains("rebuild the pack"),
        "{e}"
    );
    assert!(c.try_skill_at(1).expect("skill 1 is whole").is_some());
    let e = refused!(c.try_file_at(1), PackErrorKind::DamagedRecord);
    assert!(
        e.contains("the bytes of file 1 (skill://one/notes.md) are damaged"),
        "{e}"
    );
    // Through the responder, each reply that needs the record is an internal error naming it
    // and the fix, in both eras; what does not need it is answered as before.
    let r = responder_over(c.clone(), 50);
    let fixed = responder_over(Arc::new(Catalog::from_bundled(good).expect("opens")), 50);
    for era in [Era::Modern, Era::Legacy] {
        for (method, params, what) in [
            ("skills/list", json!({}), "the entry of skill 0"),
            (
                "skills/get",
                json!({"uri": "skill://one/SKILL.md"}),
                "the entry of skill 0",
            ),
            ("resources/list", json!({}), "the entry of skill 0"),
            (
                "resources/read",
                json!({"uri": "skill://one/notes.md"}),
                "the bytes of file 1",
            ),
        ] {
            let rpc = err(&r, &request(era, 1, method, params.clone()));
            assert_eq!(rpc.code(), Some(-32603), "{method}: {}", rpc.message());
            let m = rpc.message();
            assert!(
                m.contains("catalog pack is damaged")
                    && m.contains(what)
                    && m.contains("rebuild the pack"),
                "{method}: {m}"
            );
            // The reply embeds the pack error's reason, not its `Display` (which says
            // "invalid skills pack: " in the middle of the server's own sentence).
            assert!(!m.contains("invalid skills pack"), "{method}: {m}");
            ok(&fixed, &request(era, 1, method, params));
        }
        let two = ok(
            &r,
            &request(era, 2, "skills/get", json!({"uri": "skill://two/SKILL.md"})),
        );
        assert_eq!(two["skill"]["uri"], "skill://two/SKILL.md");
    }
}
