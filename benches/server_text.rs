//! Readers of what a server sends, at the sizes a hostile server can send (no transport):
//!
//! * `entry/1000000`: [`Entry::parse`] of a skill entry with 1,000,000 members besides its
//!   own (unknown members are allowed, and every key is checked against repeats);
//! * `reply/64MiB`: a 64 MiB JSON-RPC reply to `skills/get` read as the client reads it
//!   ([`read_answer`], in 64 KiB chunks), then its entry (millions of members in one object)
//!   registered by a [`SkillsClient`] through `get`.
//!
//! Both grow as n log n at worst with the bytes and the members received (before, each key of
//! an object was compared with every key before it: 20,000 members took seconds). Run:
//! `cargo bench --bench server_text`. `TEXT_BENCH_MEMBERS` and `TEXT_BENCH_REPLY_MIB` change
//! the sizes (to compare with a build that is slower on them).

use std::cell::RefCell;
use std::future::{ready, Future};
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use serde_json::{json, Value as Json};
use skills_edge::client::http::{read_answer, Answer, HttpResponse, ResponseBody};
use skills_edge::client::{block_on, Result, Rpc, ServerFacts, SkillsClient};
use skills_edge::host::{Entry, HostOptions};
use skills_edge::protocol::Era;
use skills_edge::skill::digest::digest_of;

const URI: &str = "skill://bench/SKILL.md";

fn size(var: &str, default: usize) -> usize {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A valid entry of one file, then `members` more members (`"m0": 0`, `"m1": 0`, …), or as
/// many as fit in `bytes` when that is given.
fn entry_text(members: usize, bytes: Option<usize>) -> String {
    let digest = digest_of(b"bench");
    let mut out = format!(
        r#"{{"uri":"{URI}","frontmatter":{{"name":"bench","description":"A generated skill."}},"resources":[{{"uri":"{URI}","size":5,"digest":"{digest}"}}]"#
    );
    let mut i = 0;
    while i < members && bytes.is_none_or(|b| out.len() + 32 < b) {
        out.push_str(&format!(r#","m{i}":0"#));
        i += 1;
    }
    out.push('}');
    out
}

/// A body handed over in 64 KiB chunks.
struct Chunks<'a>(&'a [u8]);

impl ResponseBody for Chunks<'_> {
    fn next_chunk(&mut self) -> impl Future<Output = Result<Option<Vec<u8>>>> {
        let n = self.0.len().min(64 << 10);
        let (chunk, rest) = self.0.split_at(n);
        self.0 = rest;
        ready(Ok((n > 0).then(|| chunk.to_vec())))
    }
}

/// A server whose `skills/get` answers the result it holds.
struct Held(RefCell<Option<String>>);

impl Rpc for Held {
    fn call(&self, _method: &str, _params: Json) -> impl Future<Output = Result<String>> {
        ready(Ok(self
            .0
            .borrow_mut()
            .take()
            .unwrap_or_else(|| "null".to_owned())))
    }
    fn now_ms(&self) -> f64 {
        0.0
    }
}

fn bench(c: &mut Criterion) {
    let members = size("TEXT_BENCH_MEMBERS", 1_000_000);
    let reply_bytes = size("TEXT_BENCH_REPLY_MIB", 64) << 20;

    let mut g = c.benchmark_group("entry");
    g.sample_size(10);
    g.throughput(Throughput::Elements(members as u64));
    let text = entry_text(members, None);
    g.bench_function(BenchmarkId::from_parameter(members), |b| {
        b.iter(|| match Entry::parse(black_box(&text)) {
            Ok(e) => black_box(e),
            Err(e) => panic!("{e}"),
        })
    });
    g.finish();

    let mut g = c.benchmark_group("reply");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(reply_bytes as u64));
    let head = r#"{"jsonrpc":"2.0","id":1,"result":{"skill":"#;
    let entry = entry_text(usize::MAX, Some(reply_bytes - head.len() - 2));
    let reply = format!("{head}{entry}}}}}");
    g.bench_function(
        BenchmarkId::from_parameter(format!("{}MiB", reply_bytes >> 20)),
        |b| {
            b.iter(|| {
                let response = HttpResponse {
                    status: 200,
                    content_type: Some("application/json".into()),
                    session_id: None,
                    www_authenticate: None,
                    body: Chunks(reply.as_bytes()),
                };
                let result = match block_on(read_answer(response, 1, "skills/get")) {
                    Ok(Answer::Result(r)) => r,
                    other => panic!("{other:?}"),
                };
                let client = match SkillsClient::new("bench", HostOptions::default()) {
                    Ok(c) => c,
                    Err(e) => panic!("{e}"),
                };
                // A client sends skills/get only to a server that declared the extension.
                let caps =
                    json!({"capabilities": {"extensions": {"io.modelcontextprotocol/skills": {}}}});
                if let Err(e) =
                    client.set_facts(ServerFacts::from_result(Era::Modern, "2026-07-28", &caps))
                {
                    panic!("{e}");
                }
                let server = Held(RefCell::new(Some(result)));
                match block_on(client.get(&server, URI)) {
                    Ok(got) => black_box(got),
                    Err(e) => panic!("{e}"),
                }
            })
        },
    );
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
