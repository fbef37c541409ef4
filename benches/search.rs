//! Search (docs/search.md#size-and-speed) on generated catalogs of 2,500, 5,000 and 10,000
//! skills: each a `SKILL.md` with a name of two subject words, a description of 20 words drawn
//! from a vocabulary of 400, two tags and three headings; a tenth of the skills private
//! (access rules), so the statistics are summed per caller.
//!
//! Printed once per size: the compile and pack times (build time, expected linear in the
//! catalog), the search section's bytes against the bytes it indexes (the names,
//! descriptions, tags and headings). Measured by criterion: `query/N` (a three-word query
//! for an anonymous caller, through `Catalog::search`) and `query-scoped/N` (the same for a
//! caller holding the private scope).
//!
//! Run: `cargo bench --bench search`; `SEARCH_BENCH_SKILLS` (comma-separated) sets the sizes.
//! With `SEARCH_BENCH_DUMP=FILE`, each size's results for a fixed set of queries (each word
//! of the vocabulary alone, then pairs and triples, with and without a tag, for both callers)
//! are written to FILE, scores as the bits of their `f64`, before the measurements: two
//! builds' files compare their rankings byte for byte.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use skills_edge::catalog::compile::{self, SourceTree};
use skills_edge::catalog::{pack, Catalog, Grant};
use std::hint::black_box;
use std::io::Write;
use std::time::Instant;

/// A deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize
    }
}

/// A vocabulary of 400 made-up words (a Zipf-like draw picks common ones more often).
fn vocabulary() -> Vec<String> {
    let syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "te", "vi", "do", "pe"];
    let mut out = Vec::new();
    for a in syllables {
        for b in syllables {
            for c in ["n", "r", "s", "x"] {
                out.push(format!("{a}{b}{c}"));
            }
        }
    }
    out
}

/// The catalog of `n` skills, and the bytes its index covers.
fn tree(n: usize) -> (SourceTree, usize) {
    let words = vocabulary();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let pick = |rng: &mut Rng| {
        // Zipf-like: the square of a uniform draw favours the low ranks.
        let u = rng.next() % 1000;
        &words[(u * u / 1000) * words.len() / 1000]
    };
    let mut t = SourceTree::default();
    let mut indexed = 0;
    for i in 0..n {
        let name = format!("{}-{}-{i}", pick(&mut rng), pick(&mut rng));
        let description: Vec<&str> = (0..20).map(|_| pick(&mut rng).as_str()).collect();
        let description = description.join(" ");
        let tags = format!("{}, group-{}", pick(&mut rng), i % 50);
        let headings: Vec<String> = (0..3)
            .map(|_| format!("{} {}", pick(&mut rng), pick(&mut rng)))
            .collect();
        indexed += name.len()
            + description.len()
            + tags.len()
            + headings.iter().map(String::len).sum::<usize>();
        let dir = if i % 10 == 0 {
            format!("private/{name}")
        } else {
            name.clone()
        };
        let mut md = format!(
            "---\nname: {name}\ndescription: {description}\nmetadata:\n  tags: \"{tags}\"\n---\n"
        );
        for h in &headings {
            md.push_str(&format!("## {h}\n\nText.\n\n"));
        }
        t.add_file(&format!("{dir}/SKILL.md"), md.as_str());
    }
    t.add_file(
        "skills-edge.toml",
        "[[access]]\nskills = [\"private/**\"]\nscopes = [\"team\"]\n",
    );
    (t, indexed)
}

fn sizes() -> Vec<usize> {
    std::env::var("SEARCH_BENCH_SKILLS")
        .ok()
        .map(|v| v.split(',').filter_map(|s| s.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![2_500, 5_000, 10_000])
}

/// Every result of a fixed set of queries, for both callers, a line each.
fn dump(out: &mut impl Write, catalog: &Catalog, scoped: Grant, n: usize) {
    let words = vocabulary();
    let mut queries: Vec<(String, Vec<&str>)> = words.iter().map(|w| (w.clone(), vec![])).collect();
    for k in 0..words.len() {
        let (a, b, c) = (
            &words[k],
            &words[(k * 7 + 3) % 400],
            &words[(k * 13 + 5) % 400],
        );
        queries.push((format!("{a} {b}"), vec![]));
        queries.push((format!("{a} {b} {c}"), vec![]));
        queries.push((format!("{c} {a} {b} {c}"), vec!["group-7"]));
    }
    for (who, grant) in [("public", Grant::PUBLIC), ("scoped", scoped)] {
        for (q, tags) in &queries {
            let hits = catalog.search(grant, q, tags, 50);
            let line = match hits {
                Ok(hits) => hits
                    .iter()
                    .map(|h| format!("{} {:016x} {}", h.uri, h.score.to_bits(), h.description))
                    .collect::<Vec<_>>()
                    .join(" | "),
                Err(e) => format!("error: {e}"),
            };
            writeln!(out, "{n} {who} {q:?} {tags:?}: {line}").expect("writes");
        }
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    for n in sizes() {
        let (t, indexed) = tree(n);
        let started = Instant::now();
        let compiled = compile::compile(t).expect("the generated catalog compiles");
        let compile_ms = started.elapsed().as_millis();
        let started = Instant::now();
        let bytes = pack::encode(&compiled, None);
        let pack_ms = started.elapsed().as_millis();
        let table = pack::section_table(&bytes).expect("sections");
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        let section = (0..table.count)
            .map(|k| table.start + k * table.record_len)
            .find(|&at| word(at) == 21)
            .map_or(0, |at| word(at + 8));
        eprintln!(
            "{n} skills: compile {compile_ms} ms, pack {pack_ms} ms; search section {section} bytes for {indexed} indexed ({:.2} of them)",
            section as f64 / indexed as f64
        );
        let catalog = Catalog::from_bytes(bytes).expect("loads");
        let scoped = catalog.grant(&["team"]);
        let words = vocabulary();
        let query = format!("{} {} {}", words[3], words[40], words[200]);
        if let Ok(path) = std::env::var("SEARCH_BENCH_DUMP") {
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
                .expect("opens the dump file");
            dump(&mut f, &catalog, scoped, n);
        }
        assert!(!catalog
            .search(Grant::PUBLIC, &query, &[], 10)
            .expect("searches")
            .is_empty());
        group.bench_with_input(BenchmarkId::new("query", n), &query, |b, q| {
            b.iter(|| black_box(catalog.search(Grant::PUBLIC, q, &[], 10)))
        });
        group.bench_with_input(BenchmarkId::new("query-scoped", n), &query, |b, q| {
            b.iter(|| black_box(catalog.search(scoped, q, &[], 10)))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
