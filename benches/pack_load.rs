//! Loading a pack, by each path (docs/pack-format.md#reading), on generated catalogs of the
//! shape of the issue "Catalogs of ten thousand skills": N skills, each a `SKILL.md` (name, a
//! 24-word description, `metadata.team`) and one `references/guide.md` of about 2.5 KB; a
//! tenth of the teams private (access rules), so the per-class lists are in the pack.
//!
//! * `shape/N`: `Catalog::from_static`, the embedded path (the Worker's `from_bundled` is the
//!   same after a copy of the pack): magic, version, length and where each table lies; meant
//!   to cost the same at every N;
//! * `full/N`: `Catalog::from_bytes`, a pack from elsewhere: the SHA-256 of the whole pack and
//!   every record checked once, linear in N;
//! * `first/N`: the shape path, then the first `skills/list` page for an anonymous caller:
//!   what a new isolate pays before its first answer.
//!
//! `full` and `first` copy the pack first (their loaders take owned bytes), a memcpy of the
//! pack. Run: `cargo bench --bench pack_load`; `PACK_BENCH_SKILLS` (comma-separated) sets the
//! sizes (default 1000,10000). Setting up 10,000 skills compiles them once, which takes as
//! long as the build does.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use skills_edge::catalog::compile::{self, SourceTree};
use skills_edge::catalog::{pack, Catalog};
use skills_edge::server::{Config, Grant, Responder, Transport};
use std::hint::black_box;
use std::sync::Arc;

/// The generated catalog of `n` skills.
fn tree(n: usize) -> SourceTree {
    let mut t = SourceTree::default();
    let words = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi \
                 omicron pi rho sigma tau upsilon phi chi psi omega";
    let guide = "This guide explains the steps in detail. ".repeat(62);
    let mut rules = String::new();
    for team in 0..10 {
        if team == 7 {
            rules.push_str(&format!(
                "[[access]]\nskills = [\"team-{team}/**\"]\nscopes = [\"team-{team}\"]\n"
            ));
        }
    }
    t.add_file("skills-edge.toml", rules);
    for i in 0..n {
        let (name, team) = (format!("skill-{i:05}"), i % 10);
        t.add_file(
            &format!("team-{team}/{name}/SKILL.md"),
            format!(
                "---\nname: {name}\ndescription: {words}\nmetadata:\n  team: team-{team}\n---\n# {name}\n\nRead references/guide.md.\n"
            ),
        );
        t.add_file(
            &format!("team-{team}/{name}/references/guide.md"),
            guide.clone(),
        );
    }
    t
}

fn sizes() -> Vec<usize> {
    std::env::var("PACK_BENCH_SKILLS")
        .ok()
        .map(|v| v.split(',').filter_map(|s| s.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![1000, 10_000])
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("pack_load");
    g.sample_size(10);
    let list = br#"{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    for n in sizes() {
        let bytes = pack::encode(&compile::compile(tree(n)).expect("compiles"), None);
        eprintln!("pack_load: {n} skills, a pack of {} bytes", bytes.len());
        let embedded: &'static [u8] = Box::leak(bytes.clone().into_boxed_slice());
        g.bench_with_input(BenchmarkId::new("shape", n), &embedded, |b, p| {
            b.iter(|| black_box(Catalog::from_static(p).expect("opens")))
        });
        g.bench_with_input(BenchmarkId::new("full", n), &bytes, |b, p| {
            b.iter(|| black_box(Catalog::from_bytes(p.clone()).expect("loads")))
        });
        g.bench_with_input(BenchmarkId::new("first", n), &bytes, |b, p| {
            b.iter(|| {
                let c = Arc::new(Catalog::from_bundled(p.clone()).expect("opens"));
                let r = Responder::new(c, Config::default()).expect("settings");
                black_box(r.respond(list, &Transport::Stream, Grant::PUBLIC))
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
