//! How long what the client fetched stays current: the end of the result's own `ttlMs`,
//! counted from when the server sent it (like `Cache-Control: max-age`, as the base
//! protocol's caching hints describe `ttlMs`: 2026-07-28, `caching.mdx`), whether the result is used fresh or from the client's cache. A cache
//! hit never makes an entry current for longer.

use std::cell::{Cell, RefCell};
use std::future::{ready, Future};

use serde_json::{json, Value as Json};
use skills_edge::client::{block_on, Result, Rpc, ServerFacts, SkillsClient};
use skills_edge::host::HostOptions;
use skills_edge::protocol::Era;
use skills_edge::skill::digest::digest_of;

/// An [`Rpc`] answering with result texts from a function of the method, on a clock the test
/// sets; every call is logged.
struct Clocked<F> {
    answer: F,
    now: Cell<f64>,
    log: RefCell<Vec<String>>,
}

impl<F: Fn(&str) -> String> Clocked<F> {
    fn new(answer: F) -> Self {
        Clocked {
            answer,
            now: Cell::new(0.0),
            log: RefCell::new(Vec::new()),
        }
    }
    fn count(&self, method: &str) -> usize {
        self.log.borrow().iter().filter(|m| *m == method).count()
    }
}

impl<F: Fn(&str) -> String> Rpc for Clocked<F> {
    fn call(&self, method: &str, _params: Json) -> impl Future<Output = Result<String>> {
        self.log.borrow_mut().push(method.to_owned());
        ready(Ok((self.answer)(method)))
    }
    fn now_ms(&self) -> f64 {
        self.now.get()
    }
}

const MD: &str = "---\nname: a\ndescription: d\n---\nbody\n";

fn entry() -> String {
    format!(
        r#"{{"uri":"skill://a/SKILL.md","frontmatter":{{"name":"a","description":"d"}},"resources":[{{"uri":"skill://a/SKILL.md","digest":"{}","size":{}}}]}}"#,
        digest_of(MD.as_bytes()),
        MD.len()
    )
}

/// A server whose `skills/list` and `skills/get` results are current for 1,000 ms and may be
/// shared (so the client caches them), and whose `SKILL.md` is not cached.
fn server() -> Clocked<impl Fn(&str) -> String> {
    let e = entry();
    Clocked::new(move |method| match method {
        "skills/list" => format!(r#"{{"skills":[{e}],"ttlMs":1000,"cacheScope":"public"}}"#),
        "skills/get" => format!(r#"{{"skill":{e},"ttlMs":1000,"cacheScope":"public"}}"#),
        _ => json!({"contents":[{"uri":"skill://a/SKILL.md","text":MD}],"ttlMs":0}).to_string(),
    })
}

fn client() -> SkillsClient {
    let c = SkillsClient::new("docs", HostOptions::default()).unwrap();
    let caps = json!({"capabilities": {"extensions": {"io.modelcontextprotocol/skills": {}}}});
    c.set_facts(ServerFacts::from_result(Era::Modern, "2026-07-28", &caps))
        .unwrap();
    c.host(|h, l| h.approve(l, "skill://a/SKILL.md"))
        .unwrap()
        .ok();
    c
}

/// Runs `fetch` at 0 and again at 900, when the cache answers it (`method` is sent once), then
/// approves the skill so that it can be loaded.
fn twice_then_approve<F: Fn(&str) -> String>(
    rpc: &Clocked<F>,
    c: &SkillsClient,
    method: &str,
    fetch: impl Fn(),
) {
    fetch();
    rpc.now.set(900.0);
    fetch();
    assert_eq!(
        rpc.count(method),
        1,
        "the second {method} came from the cache"
    );
    c.host(|h, l| h.approve(l, "skill://a/SKILL.md"))
        .unwrap()
        .unwrap();
}

#[test]
fn a_listing_from_the_cache_is_current_until_the_end_of_its_own_ttl() {
    let rpc = server();
    let c = client();
    twice_then_approve(&rpc, &c, "skills/list", || {
        block_on(c.list(&rpc)).unwrap();
    });
    // Still inside the listing's 1,000 ms: the entry is used as listed.
    rpc.now.set(950.0);
    block_on(c.load(&rpc, "skill://a/SKILL.md")).unwrap();
    assert_eq!(rpc.count("skills/get"), 0);
    // Received at 0 with ttlMs 1000: at 1,500 it is no longer current, although the cache
    // served it at 900.
    rpc.now.set(1500.0);
    block_on(c.load(&rpc, "skill://a/SKILL.md")).unwrap();
    assert_eq!(rpc.count("skills/get"), 1, "a stale entry is fetched again");
}

#[test]
fn a_get_from_the_cache_is_current_until_the_end_of_its_own_ttl() {
    let rpc = server();
    let c = client();
    twice_then_approve(&rpc, &c, "skills/get", || {
        block_on(c.get(&rpc, "skill://a/SKILL.md")).unwrap();
    });
    rpc.now.set(1500.0);
    block_on(c.load(&rpc, "skill://a/SKILL.md")).unwrap();
    assert_eq!(
        rpc.count("skills/get"),
        2,
        "the entry received at 0 (ttlMs 1000) is fetched again at 1,500"
    );
}
