//! `SkillsHandler` against rmcp 3.11's own `SkillCatalog` (feature `skills-fs`), side by side,
//! over the same skills folder: 50 generated skills written to a temporary directory (each a
//! SKILL.md and a 4 KiB markdown reference; one of them also a 1 MiB markdown file).
//! rmcp's catalog loads the folder; skills-edge compiles the same folder (at build time in a
//! real server: here once, before measuring).
//!
//! Run: `cargo bench -p skills-edge-rmcp --bench handler`. Each case is one call of the
//! method a `ServerHandler` delegates to, plus `serde_json::to_vec` of the rmcp result (what
//! rmcp writes to the transport): `skills/list` (one page of all 50 skills on both sides), a
//! `resources/read` of a 4 KiB file and of the 1 MiB file, at protocol 2026-07-28.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rmcp::handler::server::skill_catalog::SkillCatalog;
use rmcp::model::ReadResourceRequestParams;
use skills_edge::catalog::{walk, Catalog, Grant};
use skills_edge_rmcp::{Caller, Config, SkillsHandler};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::Arc;

const SKILLS: usize = 50;
const BIG: usize = 1 << 20;

/// A deterministic generator (xorshift64*), so every run benchmarks the same bytes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// Markdown text of exactly `len` bytes, made of words.
fn text(rng: &mut Rng, len: usize) -> String {
    let words = [
        "review", "check", "the", "diff", "tests", "deploy", "edge", "skill", "verify", "digest",
    ];
    let mut s = String::with_capacity(len + 16);
    s.push_str("# Guide\n\n");
    while s.len() < len {
        s.push_str(words[(rng.next() % words.len() as u64) as usize]);
        s.push(if rng.next().is_multiple_of(12) {
            '\n'
        } else {
            ' '
        });
    }
    s.truncate(len);
    s
}

/// Writes the folder and returns its path (under the target directory's temporary space).
fn folder() -> PathBuf {
    let root = std::env::temp_dir().join(format!("skills-edge-rmcp-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for i in 0..SKILLS {
        let dir = root.join(format!("skill-{i:03}"));
        std::fs::create_dir_all(dir.join("references")).expect("create the bench folder");
        let skill_md = format!(
            "---\nname: skill-{i:03}\ndescription: Generated skill number {i} for benchmarks; it reviews, checks and verifies things.\n\
             license: Apache-2.0\n---\n\n# Skill {i}\n\nRead `references/guide.md`.\n"
        );
        std::fs::write(dir.join("SKILL.md"), skill_md).expect("write SKILL.md");
        std::fs::write(dir.join("references/guide.md"), text(&mut rng, 4096))
            .expect("write the 4 KiB file");
        if i == 0 {
            std::fs::write(dir.join("references/big.md"), text(&mut rng, BIG))
                .expect("write the 1 MiB file");
        }
    }
    root
}

fn ours(root: &Path) -> SkillsHandler {
    let walked = walk::walk(root);
    let catalog = Catalog::compile(walked.tree, None).expect("the generated folder compiles");
    let config = Config {
        page_size: SKILLS,
        ..Config::default()
    };
    SkillsHandler::from_catalog(Arc::new(catalog), config).expect("a valid configuration")
}

fn bench(c: &mut Criterion) {
    let root = folder();
    let handler = ours(&root);
    let theirs = SkillCatalog::from_dir(&root).expect("rmcp's catalog loads the folder");
    let caller = Caller {
        grant: Grant::PUBLIC,
        modern: true,
    };

    let ours_list = handler.list_skills(None, caller).expect("skills/list");
    let theirs_list = theirs.list_skills();
    assert_eq!(ours_list.skills.len(), SKILLS);
    assert_eq!(theirs_list.skills.len(), SKILLS);
    // What each side writes per call (ours: each entry's `_meta` with the skill's revision,
    // and the 2026-07-28 cache hints, which rmcp adds to its catalog's results on the wire).
    eprintln!(
        "skills/list reply: skills-edge-rmcp {} bytes, rmcp SkillCatalog {} bytes",
        json_len(&ours_list),
        json_len(&theirs_list)
    );

    let mut g = c.benchmark_group("skills/list (50 skills)");
    g.bench_function("skills-edge-rmcp", |b| {
        b.iter(|| {
            let r = handler.list_skills(None, caller).expect("skills/list");
            black_box(serde_json::to_vec(&r).expect("serializes"))
        })
    });
    g.bench_function("rmcp SkillCatalog", |b| {
        b.iter(|| black_box(serde_json::to_vec(&theirs.list_skills()).expect("serializes")))
    });
    g.finish();

    let mut g = c.benchmark_group("resources/read");
    for (label, uri, len) in [
        ("4 KiB", "skill://skill-007/references/guide.md", 4096),
        ("1 MiB", "skill://skill-000/references/big.md", BIG),
    ] {
        g.throughput(Throughput::Bytes(len as u64));
        // Both serve the same bytes.
        let a = handler
            .read_resource(ReadResourceRequestParams::new(uri), caller)
            .expect("our read");
        let b = theirs.read_resource(uri).expect("their read");
        assert_eq!(
            serde_json::to_value(&a.contents).expect("serializes")[0]["text"],
            serde_json::to_value(&b.contents).expect("serializes")[0]["text"]
        );
        g.bench_with_input(
            BenchmarkId::new("skills-edge-rmcp", label),
            uri,
            |bch, uri| {
                bch.iter(|| {
                    let r = handler
                        .read_resource(ReadResourceRequestParams::new(uri), caller)
                        .expect("read");
                    black_box(serde_json::to_vec(&r).expect("serializes"))
                })
            },
        );
        g.bench_with_input(
            BenchmarkId::new("rmcp SkillCatalog", label),
            uri,
            |bch, uri| {
                bch.iter(|| {
                    let r = theirs.read_resource(uri).expect("read");
                    black_box(serde_json::to_vec(&r).expect("serializes"))
                })
            },
        );
    }
    g.finish();
    let _ = std::fs::remove_dir_all(&root);
}

/// The length of a result's JSON.
fn json_len<T: serde::Serialize>(value: &T) -> usize {
    serde_json::to_vec(value).map_or(0, |v| v.len())
}

criterion_group!(benches, bench);
criterion_main!(benches);
