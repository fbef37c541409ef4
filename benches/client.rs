//! Skills client benchmarks over an in-memory [`Rpc`] (no transport, no hashing of content):
//!
//! * `list/100000`: one `skills/list` of 100,000 entries in 100 pages of 1,000, registered
//!   into a fresh client (entries parsed, display names worked out, summaries built);
//! * `walk/256x2000`: a walk of 256 `resources/directory/read` replies of 2,000 children each
//!   (one listing budget over the walk), with 2,000 skills registered, every child file
//!   marked with whether its skill lists it.
//!
//! Both grow linearly with what the server sent. Run: `cargo bench --bench client`.
//! `CLIENT_BENCH_ENTRIES`, `CLIENT_BENCH_DIRECTORIES` and `CLIENT_BENCH_CHILDREN` change the
//! sizes (to compare with a build that is slower on them).

use std::future::{ready, Future};
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use serde_json::{json, Value as Json};
use skills_edge::client::Result;
use skills_edge::client::{block_on, Rpc, ServerFacts, SkillsClient};
use skills_edge::host::HostOptions;
use skills_edge::protocol::Era;
use skills_edge::skill::digest::digest_of;

const PAGE: usize = 1000;

fn size(var: &str, default: usize) -> usize {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The entry of skill `i`: a `SKILL.md` and two files.
fn entry(i: usize, digest: &str) -> Json {
    let root = format!("skill://bench/s{i}");
    json!({
        "uri": format!("{root}/SKILL.md"),
        "frontmatter": {"name": format!("s{i}"), "description": "A generated skill for benchmarks."},
        "resources": [
            {"uri": format!("{root}/SKILL.md"), "digest": digest, "size": 120},
            {"uri": format!("{root}/references/guide.md"), "digest": digest, "size": 4096},
            {"uri": format!("{root}/assets/blob.bin"), "digest": digest, "size": 65536},
        ],
    })
}

/// A server whose replies are built once, as the JSON text a transport hands over: the pages
/// of `skills/list`, and one directory page.
struct Server {
    pages: Vec<String>,
    directory: String,
}

impl Server {
    fn new(entries: usize, children: usize) -> Server {
        let digest = digest_of(b"bench");
        let mut pages = Vec::new();
        for (n, start) in (0..entries).step_by(PAGE).enumerate() {
            let skills: Vec<Json> = (start..(start + PAGE).min(entries))
                .map(|i| entry(i, &digest))
                .collect();
            let mut page = json!({"skills": skills, "ttlMs": 0});
            if start + PAGE < entries {
                page["nextCursor"] = json!((n + 1).to_string());
            }
            pages.push(page.to_string());
        }
        // Files of many skills, half of them listed, and subdirectories.
        let resources: Vec<Json> = (0..children)
            .map(|i| match i % 4 {
                0 => json!({"uri": format!("skill://bench/s{}/references/guide.md", i % entries.max(1))}),
                1 => json!({"uri": format!("skill://bench/s{}/references/other.md", i % entries.max(1))}),
                2 => json!({"uri": format!("skill://bench/s{}/d{i}", i % entries.max(1)), "mimeType": "inode/directory"}),
                _ => json!({"uri": format!("skill://elsewhere/f{i}.md"), "size": 3}),
            })
            .collect();
        Server {
            pages,
            directory: json!({"resources": resources, "ttlMs": 0}).to_string(),
        }
    }
}

impl Rpc for Server {
    fn call(&self, method: &str, params: Json) -> impl Future<Output = Result<String>> {
        let result = match method {
            "skills/list" => {
                let n: usize = params["cursor"]
                    .as_str()
                    .and_then(|c| c.parse().ok())
                    .unwrap_or(0);
                self.pages
                    .get(n)
                    .cloned()
                    .unwrap_or_else(|| "{}".to_owned())
            }
            _ => self.directory.clone(),
        };
        ready(Ok(result))
    }
    fn now_ms(&self) -> f64 {
        0.0
    }
}

/// A client that has observed the server's declaration of the Skills extension (with
/// `directoryRead`), as `initialize` or `server/discover` would have shown it: a client sends
/// `skills/list` only after that.
fn client() -> SkillsClient {
    let caps = json!({"capabilities": {"extensions": {"io.modelcontextprotocol/skills": {"directoryRead": true}}}});
    let client = match SkillsClient::new("bench", HostOptions::default()) {
        Ok(c) => c,
        Err(e) => panic!("{e}"),
    };
    if let Err(e) = client.set_facts(ServerFacts::from_result(Era::Modern, "2026-07-28", &caps)) {
        panic!("{e}");
    }
    client
}

fn bench(c: &mut Criterion) {
    let entries = size("CLIENT_BENCH_ENTRIES", 100_000);
    let directories = size("CLIENT_BENCH_DIRECTORIES", 256);
    let children = size("CLIENT_BENCH_CHILDREN", 2000);

    let mut g = c.benchmark_group("list");
    g.sample_size(10);
    g.throughput(Throughput::Elements(entries as u64));
    let server = Server::new(entries, children);
    g.bench_function(BenchmarkId::from_parameter(entries), |b| {
        b.iter(|| {
            let client = client();
            match block_on(client.list(&server)) {
                Ok(l) => assert_eq!(l.skills.len(), entries),
                Err(e) => panic!("{e}"),
            }
            black_box(client)
        })
    });
    g.finish();

    let mut g = c.benchmark_group("walk");
    g.sample_size(10);
    g.throughput(Throughput::Elements((directories * children) as u64));
    let server = Server::new(children, children);
    let walker = client();
    if let Err(e) = block_on(walker.list(&server)) {
        panic!("{e}");
    }
    g.bench_function(
        BenchmarkId::from_parameter(format!("{directories}x{children}")),
        |b| {
            b.iter(|| {
                let _ = walker.begin_walk();
                let mut marked = 0;
                for i in 0..directories {
                    let dir = format!("skill://bench/s{i}");
                    match block_on(walker.read_directory(&server, &dir)) {
                        Ok(d) => marked += d.children.iter().filter(|c| c.listed.is_some()).count(),
                        Err(e) => panic!("{e}"),
                    }
                }
                let _ = walker.end_walk();
                black_box(marked)
            })
        },
    );
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
