//! Responder benchmarks on a generated catalog of 100 skills (each: a SKILL.md, a 4 KiB
//! markdown reference and a 64 KiB binary asset).
//!
//! Run: `cargo bench --bench responder`. Each case measures one call of
//! `Responder::respond` on a complete 2026-07-28 request, reply bytes included. The group
//! `respond_grant` measures the same catalog with access rules (`skills-edge.toml`: the skills of
//! teams 0 to 4 private, one scope per team) for a caller with the scope `team-2`
//! and for an anonymous one.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use skills_edge::catalog::compile::SourceTree;
use skills_edge::catalog::{Catalog, Grant};
use skills_edge::server::{Config, Responder, Transport};
use std::hint::black_box;
use std::sync::Arc;

const SKILLS: usize = 100;

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

fn catalog() -> Arc<Catalog> {
    catalog_with(false)
}

/// The generated catalog; with `rules`, the skills of teams 0 to 4 are private, each team's to
/// the scope `team-N`.
fn catalog_with(rules: bool) -> Arc<Catalog> {
    let mut tree = SourceTree::default();
    if rules {
        let mut toml = String::new();
        for t in 0..5 {
            toml.push_str(&format!(
                "[[access]]\nskills = [\"team-{t}/**\"]\nscopes = [\"team-{t}\"]\n"
            ));
        }
        tree.add_file("skills-edge.toml", toml);
    }
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let words = [
        "review", "check", "the", "diff", "tests", "deploy", "edge", "skill", "verify", "digest",
    ];
    for i in 0..SKILLS {
        let name = format!("skill-{i:03}");
        let skill_md = format!(
            "---\nname: {name}\ndescription: Generated skill number {i} for benchmarks; it reviews, checks and verifies things.\n\
             license: Apache-2.0\nmetadata:\n  owner: bench\n  version: \"1.{i}\"\nallowed-tools: [Read, Grep]\n---\n\n\
             # Skill {i}\n\nRead `references/guide.md` and use `assets/blob.bin`.\n"
        );
        tree.add_file(&format!("team-{}/{name}/SKILL.md", i % 10), skill_md);
        let mut guide = String::with_capacity(4096);
        while guide.len() < 4096 - 16 {
            guide.push_str(words[(rng.next() % words.len() as u64) as usize]);
            guide.push(if rng.next().is_multiple_of(12) {
                '\n'
            } else {
                ' '
            });
        }
        guide.truncate(4095);
        guide.push('\n');
        tree.add_file(
            &format!("team-{}/{name}/references/guide.md", i % 10),
            guide,
        );
        let blob: Vec<u8> = (0..64 * 1024).map(|_| (rng.next() >> 56) as u8).collect();
        tree.add_file(&format!("team-{}/{name}/assets/blob.bin", i % 10), blob);
    }
    match Catalog::compile(tree, None) {
        Ok(c) => Arc::new(c),
        Err(e) => panic!("the generated catalog must compile: {e}"),
    }
}

fn request(id: u32, method: &str, params: &str) -> Vec<u8> {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{params}"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}},"io.modelcontextprotocol/clientInfo":{{"name":"bench","version":"1"}}}}}}}}"#
    )
    .into_bytes()
}

fn bench(c: &mut Criterion) {
    let responder = match Responder::new(catalog(), Config::default()) {
        Ok(r) => r,
        Err(e) => panic!("default config is valid: {e}"),
    };
    let cases: Vec<(&str, Vec<u8>)> = vec![
        (
            "skills/list page (50 entries)",
            request(1, "skills/list", ""),
        ),
        (
            "skills/get",
            request(
                2,
                "skills/get",
                r#""uri":"skill://team-2/skill-042/SKILL.md","#,
            ),
        ),
        (
            "resources/read 4 KiB text",
            request(
                3,
                "resources/read",
                r#""uri":"skill://team-2/skill-042/references/guide.md","#,
            ),
        ),
        (
            "resources/read 64 KiB binary",
            request(
                4,
                "resources/read",
                r#""uri":"skill://team-2/skill-042/assets/blob.bin","#,
            ),
        ),
        ("server/discover", request(5, "server/discover", "")),
    ];
    let mut group = c.benchmark_group("respond");
    for (name, msg) in &cases {
        let reply = responder.respond(msg, &Transport::Stream, Grant::PUBLIC);
        assert!(
            reply.status == 200 && reply.body_str().contains("\"result\""),
            "{name}: {}",
            reply.body_str()
        );
        group.throughput(Throughput::Bytes(reply.body.map_or(0, |b| b.len()) as u64));
        group.bench_with_input(BenchmarkId::from_parameter(name), msg, |b, msg| {
            b.iter(|| responder.respond(black_box(msg), &Transport::Stream, Grant::PUBLIC))
        });
    }
    group.finish();

    let private = match Responder::new(catalog_with(true), Config::default()) {
        Ok(r) => r,
        Err(e) => panic!("default config is valid: {e}"),
    };
    let grant = private.catalog().grant(&["team-2"]);
    assert!(!grant.is_public());
    let cases: Vec<(&str, Grant, Vec<u8>)> = vec![
        (
            "skills/list page, grant (rules)",
            grant,
            request(1, "skills/list", ""),
        ),
        (
            "skills/list page, anonymous (rules)",
            Grant::PUBLIC,
            request(1, "skills/list", ""),
        ),
        (
            "resources/read 4 KiB text, grant (rules)",
            grant,
            request(
                3,
                "resources/read",
                r#""uri":"skill://team-2/skill-042/references/guide.md","#,
            ),
        ),
    ];
    let mut group = c.benchmark_group("respond_grant");
    for (name, g, msg) in &cases {
        let reply = private.respond(msg, &Transport::Stream, *g);
        assert!(
            reply.status == 200 && reply.body_str().contains("\"result\""),
            "{name}: {}",
            reply.body_str()
        );
        group.throughput(Throughput::Bytes(reply.body.map_or(0, |b| b.len()) as u64));
        group.bench_with_input(BenchmarkId::from_parameter(name), msg, |b, msg| {
            b.iter(|| private.respond(black_box(msg), &Transport::Stream, *g))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
