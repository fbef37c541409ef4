//! The host rules of the Skills extension, one test each, through `SkillHost` and
//! `SkillsClient` natively: every test is named after its rule (the spec notes' numbering,
//! H1 to H34, and the `skills/get` argument rule) and quotes it. The client talks to the
//! project's own responder over the embedded `skills/` catalog, through an [`Rpc`] that logs
//! every request and can fail or change one, so a test can say what was sent and what was
//! not. The rules no library can keep for its embedder (execution, permissions, disk caches,
//! how content is presented to a model) are listed in `docs/host-rules.md` with the reason;
//! [`every_host_rule_is_tested_or_left_to_the_embedder`] checks that the table names every
//! rule, and that each test it names is here. The tests are in three files: discovery and
//! loading (H1 to H10, G1), reading and verifying (H11 to H21), identity, names and consent
//! (H22 to H34, with the decisions and the defects a review found).

use std::cell::{Cell, RefCell};
use std::future::{ready, Future};

use serde_json::{json, Value as Json};
use skills_edge::client::{
    block_on, server_label_of_url, ClientError, ExchangeKind, Rpc, ServerFacts, SkillsClient,
};
use skills_edge::host::{Content, Entry, ErrorCode, Hashing, HostOptions, SkillHost};
use skills_edge::protocol::Era;
use skills_edge::server::{Responder, Transport};
use skills_edge::skill::digest::digest_of;

use crate::common::{call, ok, request, responder, MODERN, SKILLS_EXT};

mod attacks;
mod discovery;
mod identity;
mod reading;

const CODE_REVIEW: &str = "skill://code-review/SKILL.md";
const CHECKLIST: &str = "skill://code-review/references/checklist.md";
const OUTER: &str = "skill://release-notes/SKILL.md";
const NESTED: &str = "skill://release-notes/changelog-lint/SKILL.md";
const LABEL: &str = "https://skills.example";

type Fault = Box<dyn Fn(&str, &Json) -> Option<Result<Json, ClientError>>>;
type Tamper = Box<dyn Fn(&str, &Json, &mut Json)>;

/// The project's responder behind an [`Rpc`] that logs each request (method, params) and can
/// answer one instead of the server (`fault`) or change a result (`tamper`).
struct Wire {
    responder: Responder,
    log: RefCell<Vec<(String, Json)>>,
    fault: RefCell<Option<Fault>>,
    tamper: RefCell<Option<Tamper>>,
    clock: Cell<f64>,
}

impl Wire {
    fn new() -> Wire {
        Wire {
            responder: responder(50),
            log: RefCell::new(Vec::new()),
            fault: RefCell::new(None),
            tamper: RefCell::new(None),
            clock: Cell::new(1000.0),
        }
    }

    /// What the server declares in its `server/discover` result.
    fn facts(&self) -> ServerFacts {
        let result = ok(
            &self.responder,
            &request(Era::Modern, 1, "server/discover", json!({})),
        );
        ServerFacts::from_result(Era::Modern, MODERN, &result)
    }

    fn methods(&self) -> Vec<String> {
        self.log.borrow().iter().map(|(m, _)| m.clone()).collect()
    }

    fn count(&self, method: &str) -> usize {
        self.log
            .borrow()
            .iter()
            .filter(|(m, _)| m == method)
            .count()
    }

    fn reads_of(&self, uri: &str) -> usize {
        self.log
            .borrow()
            .iter()
            .filter(|(m, p)| m == "resources/read" && p["uri"] == uri)
            .count()
    }

    fn set_fault(&self, f: impl Fn(&str, &Json) -> Option<Result<Json, ClientError>> + 'static) {
        *self.fault.borrow_mut() = Some(Box::new(f));
    }

    fn set_tamper(&self, f: impl Fn(&str, &Json, &mut Json) + 'static) {
        *self.tamper.borrow_mut() = Some(Box::new(f));
    }

    fn clear(&self) {
        self.fault.borrow_mut().take();
        self.tamper.borrow_mut().take();
    }
}

impl Rpc for Wire {
    fn call(
        &self,
        method: &str,
        params: Json,
    ) -> impl Future<Output = Result<String, ClientError>> {
        self.log
            .borrow_mut()
            .push((method.to_owned(), params.clone()));
        if let Some(answer) = self
            .fault
            .borrow()
            .as_ref()
            .and_then(|f| f(method, &params))
        {
            return ready(answer.map(|r| r.to_string()));
        }
        let reply = call(
            &self.responder,
            &request(Era::Modern, 1, method, params.clone()),
            &Transport::Stream,
        );
        let out = match reply.error() {
            Some(e) => Err(server_error(e["code"].as_i64().unwrap_or(0))),
            None => {
                let mut result = reply.json["result"].clone();
                if let Some(t) = self.tamper.borrow().as_ref() {
                    t(method, &params, &mut result);
                }
                Ok(result.to_string())
            }
        };
        ready(out)
    }

    fn now_ms(&self) -> f64 {
        self.clock.get()
    }
}

fn server_error(code: i64) -> ClientError {
    ClientError::exchange(ExchangeKind::ServerError, format!("JSON-RPC error {code}"))
        .with_actual(code.to_string())
}

/// A client of `wire`'s server with `options`, labelled [`LABEL`], that observed `facts`.
fn client_with(wire: &Wire, options: HostOptions, facts: ServerFacts) -> SkillsClient {
    let c = SkillsClient::new(LABEL, options).unwrap();
    c.set_facts(facts).unwrap();
    let _ = wire;
    c
}

fn client(wire: &Wire) -> SkillsClient {
    client_with(wire, HostOptions::default(), wire.facts())
}

/// Facts with the given `capabilities`.
fn facts_of(capabilities: Json) -> ServerFacts {
    ServerFacts::from_result(
        Era::Modern,
        MODERN,
        &json!({ "capabilities": capabilities }),
    )
}

/// The text of the `SKILL.md` of `name` (`description` as given) and a registry entry for it
/// with `files` beside it.
fn skill(uri: &str, md: &str, files: &[(&str, &[u8])]) -> Entry {
    let name = uri
        .trim_end_matches("/SKILL.md")
        .rsplit('/')
        .next()
        .unwrap();
    let mut items = vec![json!({"uri": uri, "digest": digest_of(md.as_bytes()), "size": md.len()})];
    for (u, b) in files {
        items.push(json!({"uri": u, "digest": digest_of(b), "size": b.len()}));
    }
    Entry::parse(
        &json!({
            "uri": uri,
            "frontmatter": {"name": name, "description": "d"},
            "resources": items,
        })
        .to_string(),
    )
    .unwrap()
}

fn md(name: &str) -> String {
    format!("---\nname: {name}\ndescription: d\n---\nBody.\n")
}

/// Replaces the digest of `file` in every entry of `skill` listed or fetched.
fn stale(skill: &'static str, file: &'static str) -> impl Fn(&str, &Json, &mut Json) {
    move |method, _, result| {
        let entries: Vec<&mut Json> = match method {
            "skills/list" => result["skills"]
                .as_array_mut()
                .unwrap()
                .iter_mut()
                .collect(),
            "skills/get" => vec![&mut result["skill"]],
            _ => return,
        };
        for e in entries.into_iter().filter(|e| e["uri"] == skill) {
            for r in e["resources"].as_array_mut().unwrap() {
                if r["uri"] == file {
                    r["digest"] = json!(format!("sha256:{}", "0".repeat(64)));
                }
            }
        }
    }
}

/// The default label of a server at a URL is its WHATWG origin, the label the npm
/// `SkillsClient.connect`, the inspector page and `skills-edge verify` give it.
#[test]
fn the_default_label_is_the_urls_origin() {
    for (url, label) in [
        ("http://127.0.0.1:8787/mcp", Some("http://127.0.0.1:8787")),
        ("HTTP://LOCALHOST:80/mcp", Some("http://localhost")),
        ("https://Skills.Example:443", Some("https://skills.example")),
        (
            "https://skills.example:0443/a?b#c",
            Some("https://skills.example"),
        ),
        (
            "https://u:p@skills.example:8443/",
            Some("https://skills.example:8443"),
        ),
        ("https://[::1]:8443/mcp", Some("https://[::1]:8443")),
        ("https://skills.example:99999/", None),
        ("https://skills.example:x/", None),
        ("file:///etc/passwd", None),
        ("skill://code-review/SKILL.md", None),
    ] {
        assert_eq!(server_label_of_url(url).as_deref(), label, "{url}");
    }
    // Two servers, two labels; the same server spelled two ways, one.
    assert_ne!(
        server_label_of_url("https://a.example"),
        server_label_of_url("https://b.example")
    );
    assert_eq!(
        server_label_of_url("https://A.example:443/x"),
        server_label_of_url("https://a.example/y")
    );
}

/// `skills-edge verify` labels the server as `SkillsClient.connect` does: with its URL's
/// origin.
#[cfg(feature = "command")]
#[test]
fn the_verify_command_labels_the_server_with_its_origin() {
    use skills_edge::command::args::VerifyArgs;
    use skills_edge::command::report::command_client;
    for (url, label) in [
        ("http://127.0.0.1:8787/mcp", "http://127.0.0.1:8787"),
        ("https://Skills.Example:443/mcp", "https://skills.example"),
    ] {
        let args = VerifyArgs::parse(&[url.to_owned()]).unwrap();
        let client = command_client(&args, Default::default()).unwrap();
        assert_eq!(client.label(), label);
    }
}

/// The table of `docs/host-rules.md` names every host rule (H1 to H34 and the `skills/get`
/// argument rule) once, and each row either names a test of this file that exists or says
/// why the rule is the embedder's.
#[test]
fn every_host_rule_is_tested_or_left_to_the_embedder() {
    let doc = include_str!("../../docs/host-rules.md");
    let me = [
        include_str!("mod.rs"),
        include_str!("attacks.rs"),
        include_str!("discovery.rs"),
        include_str!("reading.rs"),
        include_str!("identity.rs"),
    ]
    .concat();
    let rows: Vec<&str> = doc
        .lines()
        .filter(|l| l.starts_with("| H") || l.starts_with("| G1"))
        .collect();
    let mut ids: Vec<String> = rows
        .iter()
        .map(|r| r.split('|').nth(1).unwrap().trim().to_owned())
        .collect();
    let want: Vec<String> = (1..=34)
        .map(|n| format!("H{n}"))
        .chain(["G1".to_owned()])
        .collect();
    ids.sort();
    let mut sorted = want.clone();
    sorted.sort();
    assert_eq!(ids, sorted, "one row per rule");
    for row in rows {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let native = cells[cells.len() - 3];
        if let Some(name) = native.strip_prefix('`').and_then(|n| n.strip_suffix('`')) {
            assert!(
                me.contains(&format!("fn {name}()")),
                "{}: no test {name}",
                cells[1]
            );
        } else {
            assert!(
                native.starts_with("embedder's"),
                "{}: neither a test nor the embedder's: {native}",
                cells[1]
            );
        }
    }
}
