//! Scale benchmark: generated catalogs of 1,000, 10,000 and 50,000 skills, each skill a
//! `SKILL.md` (a name, a 24-word description and `metadata.team`) and one
//! `references/guide.md` of about 2.5 KB, as the catalogs of the issue "Catalogs of ten
//! thousand skills" were measured.
//!
//! Run: `cargo bench --bench scale` (release; one run prints one table, about 3 minutes on
//! two cores). `SCALE_SKILLS=1000,10000` chooses the sizes; `cargo bench --bench scale --
//! --test` runs 200 skills once, as a check that the benchmark still works.
//!
//! Every step goes through the public entry points a deployment uses, so the benchmark
//! follows the pack format wherever it goes: `compile::compile` (the folder's checks, digests
//! and archives), `pack::encode` (every byte in the pack) and `pack::encode_with` with every
//! file an asset (`inline_max` 0, as `scripts/build-worker.sh --inline-max 0`), then
//! `Catalog::from_bytes` on the pack and `Responder::respond` on complete 2026-07-28 requests.
//!
//! Columns: `compile` and `pack` (wall time of one build), `pack MB` and `gzip MB` (the
//! default pack, raw and gzip level 6), `assets pack MB` and `asset files` (every file an
//! asset), `load ms` (the pack's bytes to a `Catalog` by the checked path of a pack from
//! elsewhere, `Catalog::from_bytes`: digest and every record, one run), `first µs` (the first
//! `skills/list` after that load: a new `Responder` and its first answer), `bundled µs` (the
//! path of an embedded or bundled pack, `Catalog::from_bundled` as the Worker opens its pack:
//! a copy of the pack and its shape, then a new `Responder` and its first `skills/list`; the
//! copy is linear in the pack, the rest is not), then the mean time per request over many
//! calls: `list µs` (a `skills/list` page at the default page size), `get µs` (`skills/get`),
//! `read µs` (`resources/read` of a 2.5 KB guide).
//!
//! What a deployment adds (the Worker on workerd: its start, its first request's CPU, its
//! isolate's memory and CPU per request; `wrangler deploy --dry-run`; Node's
//! `new SkillsServer({ pack })`) is `benches/worker/scale.mjs`, which needs workerd and Node.

use skills_edge::catalog::compile::{compile, SourceTree};
use skills_edge::catalog::pack::{encode, encode_with, AssetPolicy, PackOptions};
use skills_edge::catalog::Catalog;
use skills_edge::server::{Config, Grant, Responder, Transport};
use std::hint::black_box;
use std::io::Write as _;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A deterministic generator (xorshift64*), so every run benchmarks the same bytes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn word<'a>(&mut self, words: &[&'a str]) -> &'a str {
        words[(self.next() % words.len() as u64) as usize]
    }
}

const WORDS: &[&str] = &[
    "review", "check", "the", "diff", "tests", "deploy", "edge", "skill", "verify", "digest",
    "release", "notes", "commit", "style", "guide", "team", "catalog", "server", "client",
    "archive", "format", "audit", "trace", "plan",
];

/// The path of skill `i`'s directory.
fn skill_dir(i: usize) -> String {
    format!("skill-{i:05}")
}

/// A folder of `n` skills of the benchmark's shape.
fn generate(n: usize) -> SourceTree {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut tree = SourceTree::default();
    for i in 0..n {
        let dir = skill_dir(i);
        let description: Vec<&str> = (0..24).map(|_| rng.word(WORDS)).collect();
        let skill_md = format!(
            "---\nname: {dir}\ndescription: {}\nmetadata:\n  team: team-{}\n---\n\n# Skill {i}\n\nRead `references/guide.md` first.\n",
            description.join(" "),
            i % 20
        );
        tree.add_file(&format!("{dir}/SKILL.md"), skill_md);
        let mut guide = String::with_capacity(2560);
        while guide.len() < 2500 {
            guide.push_str(rng.word(WORDS));
            guide.push(if rng.next().is_multiple_of(12) {
                '\n'
            } else {
                ' '
            });
        }
        guide.push('\n');
        tree.add_file(&format!("{dir}/references/guide.md"), guide);
    }
    tree
}

fn request(id: u32, method: &str, params: &str) -> Vec<u8> {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{params}"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}},"io.modelcontextprotocol/clientInfo":{{"name":"bench","version":"1"}}}}}}}}"#
    )
    .into_bytes()
}

fn gzip_len(bytes: &[u8]) -> usize {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
    let written = gz.write_all(bytes).and_then(|()| gz.finish());
    match written {
        Ok(out) => out.len(),
        Err(e) => panic!("gzip into memory cannot fail: {e}"),
    }
}

/// The mean time of `f` over at least `budget` (and at least 20 calls).
fn mean(budget: Duration, mut f: impl FnMut()) -> Duration {
    let start = Instant::now();
    let mut calls = 0u32;
    while calls < 20 || start.elapsed() < budget {
        f();
        calls += 1;
    }
    start.elapsed() / calls
}

fn answer(responder: &Responder, msg: &[u8]) -> usize {
    let reply = responder.respond(msg, &Transport::Stream, Grant::PUBLIC);
    let body = reply.body_str();
    assert!(
        reply.status == 200 && body.contains("\"result\""),
        "{}",
        &body[..body.len().min(300)]
    );
    body.len()
}

fn mb(bytes: usize) -> String {
    format!("{:.1}", bytes as f64 / 1e6)
}

fn row(n: usize, budget: Duration) -> String {
    let tree = generate(n);
    let t = Instant::now();
    let compiled = match compile(tree) {
        Ok(c) => c,
        Err(e) => panic!("the generated catalog must compile: {e}"),
    };
    let compile_time = t.elapsed();
    assert_eq!(compiled.skills.len(), n);
    let t = Instant::now();
    let pack = encode(&compiled, None);
    let pack_time = t.elapsed();
    let gz = gzip_len(&pack);
    // Every file an asset (five asset files per skill of this shape: each file's bytes and
    // its rendered JSON string, and the mirror's archive).
    let options = PackOptions {
        instructions: None,
        assets: Some(AssetPolicy { inline_max: 0 }),
    };
    let with_assets = encode_with(&compiled, &options);
    let (assets_mb, asset_files) = (
        mb(with_assets.pack.len()),
        with_assets.assets.len().to_string(),
    );
    drop(with_assets);
    drop(compiled);

    let pack_len = pack.len();
    let list = request(1, "skills/list", "");
    let bundled = pack.clone();
    let t = Instant::now();
    let catalog = match Catalog::from_bundled(bundled) {
        Ok(c) => Arc::new(c),
        Err(e) => panic!("the pack must open: {e}"),
    };
    let bundled_responder = match Responder::new(catalog, Config::default()) {
        Ok(r) => r,
        Err(e) => panic!("the default configuration is valid: {e}"),
    };
    answer(&bundled_responder, &list);
    let bundled_first = t.elapsed();
    // Dropped outside the timing: freeing the pack's pages costs in proportion to the pack.
    drop(bundled_responder);
    let t = Instant::now();
    let catalog = match Catalog::from_bytes(pack) {
        Ok(c) => Arc::new(c),
        Err(e) => panic!("the pack must load: {e}"),
    };
    let load = t.elapsed();
    let t = Instant::now();
    let responder = match Responder::new(catalog, Config::default()) {
        Ok(r) => r,
        Err(e) => panic!("the default configuration is valid: {e}"),
    };
    answer(&responder, &list);
    let first = t.elapsed();
    let middle = skill_dir(n / 2);
    let get = request(
        2,
        "skills/get",
        &format!(r#""uri":"skill://{middle}/SKILL.md","#),
    );
    let read = request(
        3,
        "resources/read",
        &format!(r#""uri":"skill://{middle}/references/guide.md","#),
    );
    for msg in [&list, &get, &read] {
        answer(&responder, msg);
    }
    let per = |msg: &[u8]| {
        let d = mean(budget, || {
            black_box(responder.respond(black_box(msg), &Transport::Stream, Grant::PUBLIC));
        });
        format!("{:.1}", d.as_secs_f64() * 1e6)
    };
    format!(
        "| {n} | {:.2} s | {:.2} s | {} | {} | {} | {} | {:.1} | {:.0} | {:.0} | {} | {} | {} |",
        compile_time.as_secs_f64(),
        pack_time.as_secs_f64(),
        mb(pack_len),
        mb(gz),
        assets_mb,
        asset_files,
        load.as_secs_f64() * 1e3,
        first.as_secs_f64() * 1e6,
        bundled_first.as_secs_f64() * 1e6,
        per(&list),
        per(&get),
        per(&read),
    )
}

fn main() {
    let quick = std::env::args().any(|a| a == "--test");
    let sizes: Vec<usize> = if quick {
        vec![200]
    } else {
        match std::env::var("SCALE_SKILLS") {
            Ok(v) => v
                .split(',')
                .map(|s| match s.trim().parse() {
                    Ok(n) => n,
                    Err(e) => panic!("SCALE_SKILLS={v:?}: {s:?} is not a number ({e})"),
                })
                .collect(),
            Err(_) => vec![1_000, 10_000, 50_000],
        }
    };
    let budget = Duration::from_millis(if quick { 10 } else { 500 });
    println!("| skills | compile | pack | pack MB | gzip MB | assets pack MB | asset files | load ms | first µs | bundled µs | list µs | get µs | read µs |");
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for n in sizes {
        println!("{}", row(n, budget));
    }
}
