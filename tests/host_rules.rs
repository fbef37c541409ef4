//! The host rules of the Skills extension, one test each, through `SkillHost` and
//! `SkillsClient` natively: every test is named after its rule (the spec notes' numbering,
//! H1 to H34, and the `skills/get` argument rule) and quotes it. The client talks to the
//! project's own responder over the embedded `skills/` catalog, through an [`Rpc`] that logs
//! every request and can fail or change one, so a test can say what was sent and what was
//! not. The rules no library can keep for its embedder (execution, permissions, disk caches,
//! how content is presented to a model) are listed in `docs/host-rules.md` with the reason;
//! [`every_host_rule_is_tested_or_left_to_the_embedder`] checks that the table names every
//! rule, and that each test it names is here.

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
    fn call(&self, method: &str, params: Json) -> impl Future<Output = Result<Json, ClientError>> {
        self.log
            .borrow_mut()
            .push((method.to_owned(), params.clone()));
        if let Some(answer) = self
            .fault
            .borrow()
            .as_ref()
            .and_then(|f| f(method, &params))
        {
            return ready(answer);
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
                Ok(result)
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

/// H1: "Issue `skills/list` and `skills/get` only after seeing the server's declaration."
#[test]
fn h01_skills_methods_only_after_the_servers_declaration() {
    let wire = Wire::new();
    for facts in [
        facts_of(json!({"resources": {}})),
        facts_of(json!({"resources": {}, "extensions": {}})),
    ] {
        let c = client_with(&wire, HostOptions::default(), facts);
        let refusals = [
            block_on(c.list(&wire)).map(|_| ()).unwrap_err(),
            block_on(c.get(&wire, CODE_REVIEW)).map(|_| ()).unwrap_err(),
            block_on(c.load(&wire, CODE_REVIEW))
                .map(|_| ())
                .unwrap_err(),
        ];
        for e in refusals {
            assert_eq!(e.code, ErrorCode::InvalidArgument, "{}", e.message);
            assert_eq!(
                e.expected.as_deref(),
                Some(format!("capabilities.extensions[\"{SKILLS_EXT}\"]").as_str())
            );
            assert!(e.message.contains("was not sent"), "{}", e.message);
        }
    }
    // Not even recorded facts: nothing is declared.
    let c = SkillsClient::new(LABEL, HostOptions::default()).unwrap();
    assert_eq!(
        block_on(c.list(&wire)).unwrap_err().code,
        ErrorCode::InvalidArgument
    );
    assert_eq!(wire.methods(), Vec::<String>::new(), "nothing was sent");
    // Declared: the same calls go out.
    let c = client(&wire);
    block_on(c.list(&wire)).unwrap();
    assert_eq!(wire.methods(), ["skills/list"]);
}

/// H2: "MUST NOT call `resources/directory/read` unless the server declared `directoryRead:
/// true`."
#[test]
fn h02_no_directory_read_unless_directory_read_is_true() {
    let wire = Wire::new();
    for ext in [
        json!({}),
        json!({"directoryRead": false}),
        json!({"directoryRead": "true"}),
    ] {
        let c = client_with(
            &wire,
            HostOptions::default(),
            facts_of(json!({"resources": {}, "extensions": {SKILLS_EXT: ext}})),
        );
        let e = block_on(c.read_directory(&wire, "skill://code-review")).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidArgument);
        assert!(e
            .expected
            .as_deref()
            .unwrap()
            .ends_with(".directoryRead: true"));
        assert!(e.message.contains("resources/directory/read was not sent"));
    }
    assert_eq!(wire.count("resources/directory/read"), 0);
    // The project's server declares it, and the read goes out.
    let c = client(&wire);
    let d = block_on(c.read_directory(&wire, "skill://code-review")).unwrap();
    assert!(!d.children.is_empty());
    assert_eq!(wire.count("resources/directory/read"), 1);
}

/// H3: "MUST NOT treat an empty or partial listing as proof that a server has no skills.
/// MUST support loading a skill from its URI alone, via `skills/get` then `resources/read`."
#[test]
fn h03_a_skill_loads_from_its_uri_alone() {
    let wire = Wire::new();
    // A listing that shows nothing does not stop a load by URI.
    wire.set_tamper(|method, _, result| {
        if method == "skills/list" {
            result["skills"] = json!([]);
        }
    });
    let c = client(&wire);
    assert!(block_on(c.list(&wire)).unwrap().skills.is_empty());
    let loaded = block_on(c.load(&wire, CODE_REVIEW)).unwrap();
    assert!(loaded.skill.skill_md.receipt.verified);
    assert_eq!(
        wire.methods(),
        ["skills/list", "skills/get", "resources/read"]
    );
}

/// The `skills/get` argument rule (SEP-2640 §Getting a Skill): "`params.uri` MUST be a
/// `SKILL.md` URI." `get` and `load` refuse anything else before anything is sent.
#[test]
fn skills_get_uri_must_be_a_skill_md_uri() {
    let wire = Wire::new();
    let c = client(&wire);
    for bad in [
        "skill://code-review/references/checklist.md",
        "skill://alpha/x.md",
        "skill://alpha",
        "skill://alpha/",
        "not a uri",
        "skill://SKILL.md",
        "skill://alpha/skill.md",
        "skill://a/../b/SKILL.md",
        "",
    ] {
        let g = block_on(c.get(&wire, bad)).map(|_| ()).unwrap_err();
        let l = block_on(c.load(&wire, bad)).map(|_| ()).unwrap_err();
        for e in [g, l] {
            assert_eq!(e.code, ErrorCode::InvalidArgument, "{bad:?}");
            assert!(
                e.message.contains("is not a skill's SKILL.md URI"),
                "{}",
                e.message
            );
        }
    }
    assert_eq!(wire.methods(), Vec::<String>::new(), "nothing was sent");
    block_on(c.get(&wire, CODE_REVIEW)).unwrap();
}

/// H4: "Decide that a resource is a skill only from a `skills/list` entry or a `skills/get`
/// answer, never from the URI scheme."
#[test]
fn h04_a_skill_only_from_a_listing_or_a_get_answer() {
    let mut host = SkillHost::new(HostOptions::default());
    host.add_server("s").unwrap();
    // A skill:// URI alone is no skill: nothing can be planned for it.
    assert_eq!(
        host.plan_load("s", CODE_REVIEW).unwrap_err().code,
        ErrorCode::UnknownSkill
    );
    // A skills/get answer for another URI does not register anything.
    let wire = Wire::new();
    wire.set_tamper(|method, _, result| {
        if method == "skills/get" {
            result["skill"]["uri"] = json!("skill://other/SKILL.md");
        }
    });
    let c = client(&wire);
    assert_eq!(
        block_on(c.get(&wire, CODE_REVIEW)).unwrap_err().code,
        ErrorCode::InvalidEntry
    );
    assert!(c.host(|h, l| h.entry(l, CODE_REVIEW).is_none()).unwrap());
}

/// H5: "MUST NOT attempt DNS or network resolution of the URI authority." The client has no
/// I/O of its own: every request goes to the one server through its [`Rpc`], whatever the
/// authority of the skill URI.
#[test]
fn h05_no_resolution_of_the_uri_authority() {
    let wire = Wire::new();
    let c = client(&wire);
    block_on(c.list(&wire)).unwrap();
    block_on(c.load(&wire, CODE_REVIEW)).unwrap();
    block_on(c.read(&wire, CODE_REVIEW, "references/checklist.md")).unwrap();
    // Only MCP methods, each to this server, with the URI as a parameter and nothing else.
    for (method, params) in wire.log.borrow().iter() {
        assert!(
            ["skills/list", "resources/read"].contains(&method.as_str()),
            "{method}"
        );
        assert!(params.get("_meta").is_none());
    }
}

/// H6: "A host that builds its registry from `skills/list` does not need `skills/get` for
/// listed entries."
#[test]
fn h06_listed_entries_are_used_without_skills_get() {
    let wire = Wire::new();
    let c = client(&wire);
    let listing = block_on(c.list(&wire)).unwrap();
    for s in &listing.skills {
        if s.entry.is_dynamic() || c.host(|h, l| h.needs_approval(l, &s.summary.uri)).unwrap() {
            continue;
        }
        block_on(c.load(&wire, &s.summary.uri)).unwrap();
    }
    assert_eq!(wire.count("skills/get"), 0);
}

/// H7: "An entry with no `resources`, or with a value other than an array or `"dynamic"`, is
/// invalid. MUST NOT load it."
#[test]
fn h07_an_invalid_entry_is_never_loaded() {
    let mut host = SkillHost::new(HostOptions::default());
    host.add_server("s").unwrap();
    let base =
        json!({"uri": "skill://a/SKILL.md", "frontmatter": {"name": "a", "description": "d"}});
    let mut listing = Vec::new();
    for resources in [
        None,
        Some(json!(null)),
        Some(json!("static")),
        Some(json!({})),
        Some(json!(7)),
    ] {
        let mut e = base.clone();
        if let Some(r) = resources {
            e["resources"] = r;
        }
        listing.push(e);
    }
    let out = host
        .register_listing("s", &json!({ "skills": listing }).to_string())
        .unwrap();
    assert_eq!((out.registered.len(), out.rejected.len()), (0, 5));
    assert!(out
        .rejected
        .iter()
        .all(|r| r.error.code == ErrorCode::InvalidEntry));
    assert_eq!(
        host.plan_load("s", "skill://a/SKILL.md").unwrap_err().code,
        ErrorCode::UnknownSkill
    );
    // "dynamic" is valid, and declined unless allowed (a host MAY decline it).
    let mut e = base.clone();
    e["resources"] = json!("dynamic");
    host.register("s", Entry::parse(&e.to_string()).unwrap())
        .unwrap();
    assert_eq!(
        host.plan_load("s", "skill://a/SKILL.md").unwrap_err().code,
        ErrorCode::DynamicNotAllowed
    );
}

/// H8: "MUST support skills up to and including 512 entries and 16,777,216 total bytes" and
/// "Check the limits from the entry alone, before fetching anything."
#[test]
fn h08_limits_are_checked_from_the_entry_before_fetching() {
    let mut host = SkillHost::new(HostOptions::default());
    host.add_server("s").unwrap();
    for (files, last_size, ok_) in [
        (511, 1, true),
        (512, 1, false),
        (1, 16_777_216 - 100, true),
        (1, 16_777_216, false),
    ] {
        let text = md("big");
        let mut items = vec![
            json!({"uri": "skill://big/SKILL.md", "digest": digest_of(text.as_bytes()), "size": text.len()}),
        ];
        for i in 0..files {
            let size = if i + 1 == files { last_size } else { 1 };
            items.push(json!({"uri": format!("skill://big/f{i}"), "digest": digest_of(b"x"), "size": size}));
        }
        let entry = json!({"uri": "skill://big/SKILL.md", "frontmatter": {"name": "big", "description": "d"}, "resources": items});
        host.register("s", Entry::parse(&entry.to_string()).unwrap())
            .unwrap();
        let planned = host.plan_load("s", "skill://big/SKILL.md");
        match ok_ {
            true => assert!(planned.is_ok(), "{files} files: {planned:?}"),
            false => assert_eq!(
                planned.unwrap_err().code,
                ErrorCode::LimitExceeded,
                "{files} files"
            ),
        }
    }
}

/// H9: "MUST NOT retrieve a skill's files ahead of need: not on connection, not on listing,
/// not at approval. Fetch `SKILL.md` when the skill is loaded and a supporting file when it is
/// read."
#[test]
fn h09_nothing_is_retrieved_ahead_of_need() {
    let wire = Wire::new();
    let c = client(&wire);
    block_on(c.list(&wire)).unwrap();
    c.host(|h, l| h.approve(l, CODE_REVIEW).unwrap()).unwrap();
    assert_eq!(
        wire.count("resources/read"),
        0,
        "not on listing nor at approval"
    );
    block_on(c.load(&wire, CODE_REVIEW)).unwrap();
    assert_eq!(
        (wire.reads_of(CODE_REVIEW), wire.reads_of(CHECKLIST)),
        (1, 0)
    );
    block_on(c.read(&wire, CODE_REVIEW, "references/checklist.md")).unwrap();
    assert_eq!(wire.reads_of(CHECKLIST), 1);
}

/// H10: "SHOULD cache what it retrieves, filling the cache on demand. A cached file whose
/// digest matches the *current* entry can be served without a re-fetch."
#[test]
fn h10_retrieved_files_are_cached_on_demand() {
    let wire = Wire::new();
    let c = client(&wire);
    block_on(c.list(&wire)).unwrap();
    for _ in 0..3 {
        block_on(c.load(&wire, CODE_REVIEW)).unwrap();
        block_on(c.read(&wire, CODE_REVIEW, "references/checklist.md")).unwrap();
    }
    assert_eq!(
        (wire.reads_of(CODE_REVIEW), wire.reads_of(CHECKLIST)),
        (1, 1)
    );
}

/// H11: "On retrieving any file listed in `resources`, the host MUST verify the content
/// against that item's `digest` and `size`."
#[test]
fn h11_every_file_is_verified_by_digest_and_size() {
    let mut host = SkillHost::new(HostOptions::default());
    host.add_server("s").unwrap();
    let text = md("a");
    host.register(
        "s",
        skill("skill://a/SKILL.md", &text, &[("skill://a/x.md", b"xy")]),
    )
    .unwrap();
    let other = text.replace("Body", "Bodi");
    assert_eq!(
        host.load(
            "s",
            "skill://a/SKILL.md",
            Content::Text(other),
            Hashing::Here
        )
        .unwrap_err()
        .code,
        ErrorCode::DigestMismatch
    );
    assert_eq!(
        host.load(
            "s",
            "skill://a/SKILL.md",
            Content::Text(format!("{text} ")),
            Hashing::Here
        )
        .unwrap_err()
        .code,
        ErrorCode::SizeMismatch
    );
    host.load(
        "s",
        "skill://a/SKILL.md",
        Content::Text(text),
        Hashing::Here,
    )
    .unwrap();
    for (bytes, code) in [
        (&b"xz"[..], ErrorCode::DigestMismatch),
        (b"xyz", ErrorCode::SizeMismatch),
    ] {
        let e = host
            .read(
                "s",
                "skill://a/SKILL.md",
                "x.md",
                Content::Bytes(bytes.to_vec()),
                Hashing::Here,
            )
            .unwrap_err();
        assert_eq!(e.code, code);
    }
    host.read(
        "s",
        "skill://a/SKILL.md",
        "x.md",
        Content::Bytes(b"xy".to_vec()),
        Hashing::Here,
    )
    .unwrap();
}

/// H12: "On a mismatch ... the host MUST NOT use the unverified content. To recover: call
/// `skills/get` (or `skills/list`), continue from the new `resources` set, and treat any
/// content-bound approval as revoked."
#[test]
fn h12_a_mismatch_is_not_used_and_the_entry_is_refreshed() {
    let wire = Wire::new();
    wire.set_tamper(|method, _, result| {
        if method == "skills/list" {
            stale(CODE_REVIEW, CHECKLIST)(method, &json!({}), result);
        }
    });
    let c = client(&wire);
    block_on(c.list(&wire)).unwrap();
    c.host(|h, l| h.approve(l, CODE_REVIEW).unwrap()).unwrap();
    block_on(c.load(&wire, CODE_REVIEW)).unwrap();
    let r = block_on(c.read(&wire, CODE_REVIEW, "references/checklist.md")).unwrap();
    assert!(r.refreshed && r.approval_revoked);
    assert_eq!(wire.count("skills/get"), 1);
    assert!(!c.host(|h, l| h.is_approved(l, CODE_REVIEW)).unwrap());
    // Wrong again after the refresh: refused, never returned.
    wire.set_tamper(stale(CODE_REVIEW, CHECKLIST));
    let c = client(&wire);
    block_on(c.list(&wire)).unwrap();
    block_on(c.load(&wire, CODE_REVIEW)).unwrap();
    let e = block_on(c.read(&wire, CODE_REVIEW, "references/checklist.md")).unwrap_err();
    assert_eq!(e.code, ErrorCode::DigestMismatch);
}

/// H14: "After fetching a `SKILL.md` for which it holds an entry, the host MUST parse the YAML
/// frontmatter and compare it field by field with the entry's `frontmatter`."
#[test]
fn h14_frontmatter_is_compared_field_by_field() {
    let mut host = SkillHost::new(HostOptions::default());
    host.add_server("s").unwrap();
    let text = "---\nname: a\ndescription: e\n---\nBody.\n";
    // The entry says description "d"; the file says "e", with a matching digest and size.
    host.register("s", skill("skill://a/SKILL.md", text, &[]))
        .unwrap();
    let e = host
        .load(
            "s",
            "skill://a/SKILL.md",
            Content::Text(text.into()),
            Hashing::Here,
        )
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::FrontmatterMismatch);
    assert_eq!(e.field.as_deref(), Some("description"));
    assert!(!host.is_active("s", "skill://a/SKILL.md"));
}

/// H15: "The host is acting on a skill from the moment it loads the skill's `SKILL.md` into
/// model context until, at the earliest, that `SKILL.md` leaves context. It MAY keep the
/// window open longer, never shorter." A transient failure of the recovery `skills/get`
/// (`-32603`, a lost connection, a timeout) keeps the window; only an answer that the skill
/// is gone (`-32602`) closes it.
#[test]
fn h15_the_acting_window_outlives_a_transient_error() {
    let transient = [
        server_error(-32603),
        ClientError::exchange(ExchangeKind::ConnectionFailed, "connection reset"),
        ClientError::exchange(ExchangeKind::Timeout, "no answer within 30000 ms"),
    ];
    for failure in transient {
        let wire = Wire::new();
        let c = client(&wire);
        block_on(c.list(&wire)).unwrap();
        block_on(c.load(&wire, CODE_REVIEW)).unwrap();
        // The checklist arrives changed once, and the recovery skills/get fails.
        let sent = Cell::new(false);
        let f = failure.clone();
        wire.set_fault(move |method, _| (method == "skills/get").then(|| Err(f.clone())));
        wire.set_tamper(move |method, params, result| {
            if method == "resources/read" && params["uri"] == CHECKLIST && !sent.replace(true) {
                result["contents"][0]["text"] = json!("changed in transit");
            }
        });
        let e = block_on(c.read(&wire, CODE_REVIEW, "references/checklist.md")).unwrap_err();
        assert_eq!(e.code, ErrorCode::SizeMismatch, "{:?}", failure.code);
        assert_eq!(wire.count("skills/get"), 1);
        // The window is still open, holding the entry the skill was loaded from.
        assert!(
            c.host(|h, l| h.is_active(l, CODE_REVIEW)).unwrap(),
            "{:?}",
            failure.code
        );
        wire.clear();
        let r = block_on(c.read(&wire, CODE_REVIEW, "references/checklist.md")).unwrap();
        assert!(r.file.content.receipt.verified && !r.refreshed);
    }
    // The server answers that the skill is gone: it is forgotten and its window closes.
    let wire = Wire::new();
    let c = client(&wire);
    block_on(c.list(&wire)).unwrap();
    block_on(c.load(&wire, CODE_REVIEW)).unwrap();
    wire.set_fault(|method, _| (method == "skills/get").then(|| Err(server_error(-32602))));
    wire.set_tamper(|method, _, result| {
        if method == "resources/read" {
            result["contents"][0]["text"] = json!("changed");
        }
    });
    block_on(c.read(&wire, CODE_REVIEW, "references/checklist.md")).unwrap_err();
    assert!(!c.host(|h, l| h.is_active(l, CODE_REVIEW)).unwrap());
    assert!(c.host(|h, l| h.entry(l, CODE_REVIEW).is_none()).unwrap());
}

/// H16: "While acting on a skill, the host MUST resolve reads of the skill's files only to
/// URIs listed in the held entry's `resources`. A read of an unlisted file within the skill
/// MUST be treated as a verification failure equal to a digest mismatch."
#[test]
fn h16_reads_resolve_only_to_files_the_held_entry_lists() {
    let wire = Wire::new();
    let c = client(&wire);
    block_on(c.list(&wire)).unwrap();
    block_on(c.load(&wire, CODE_REVIEW)).unwrap();
    let before = wire.log.borrow().len();
    for (reference, code) in [
        ("references/other.md", ErrorCode::NotInManifest),
        (
            "skill://code-review/references/other.md",
            ErrorCode::NotInManifest,
        ),
        ("../git-commit-messages/SKILL.md", ErrorCode::EscapesRoot),
    ] {
        assert_eq!(
            block_on(c.read(&wire, CODE_REVIEW, reference))
                .unwrap_err()
                .code,
            code
        );
    }
    assert_eq!(wire.log.borrow().len(), before, "nothing was fetched");
}

/// H17: "For a skill with a manifest, the host MAY answer "what's in `templates/`" from the
/// entry alone."
#[test]
fn h17_a_directory_is_answered_from_the_entry() {
    let wire = Wire::new();
    let c = client(&wire);
    block_on(c.list(&wire)).unwrap();
    let entry = c
        .host(|h, l| h.entry(l, "skill://acme/billing/refunds/SKILL.md").cloned())
        .unwrap()
        .unwrap();
    let templates: Vec<&str> = entry
        .items()
        .unwrap()
        .iter()
        .map(|i| i.uri.as_str())
        .filter(|u| u.starts_with("skill://acme/billing/refunds/templates/"))
        .collect();
    assert_eq!(templates.len(), 3);
    assert_eq!(wire.methods(), ["skills/list"]);
}

/// H18: "If a live directory read shows a child the held entry doesn't have, the host: MUST
/// NOT read it; MUST NOT show it to the model as a file of the skill."
#[test]
fn h18_a_directory_child_the_entry_does_not_list_is_not_a_file_of_the_skill() {
    let wire = Wire::new();
    wire.set_tamper(|method, _, result| {
        if method == "resources/directory/read" {
            result["resources"].as_array_mut().unwrap().push(json!({
                "uri": "skill://code-review/references/injected.md", "name": "injected.md"
            }));
        }
    });
    let c = client(&wire);
    block_on(c.list(&wire)).unwrap();
    block_on(c.load(&wire, CODE_REVIEW)).unwrap();
    let d = block_on(c.read_directory(&wire, "skill://code-review/references")).unwrap();
    let listed = |u: &str| d.children.iter().find(|ch| ch.uri == u).unwrap().listed;
    assert_eq!(
        listed("skill://code-review/references/injected.md"),
        Some(false)
    );
    assert_eq!(listed(CHECKLIST), Some(true));
    let e = block_on(c.read(&wire, CODE_REVIEW, "references/injected.md")).unwrap_err();
    assert_eq!(e.code, ErrorCode::NotInManifest);
    assert_eq!(
        wire.reads_of("skill://code-review/references/injected.md"),
        0
    );
}

/// H19: "A child that is in the manifest but missing from the directory read is no longer
/// served. The read will fail; refresh."
#[test]
fn h19_a_listed_file_that_is_gone_fails_its_read_and_refreshes() {
    let wire = Wire::new();
    let c = client(&wire);
    block_on(c.list(&wire)).unwrap();
    block_on(c.load(&wire, CODE_REVIEW)).unwrap();
    // The file is no longer served as listed: the read fails verification, the entry is
    // fetched again, and the file is refused while it still does not match.
    wire.set_tamper(|method, params, result| {
        if method == "resources/read" && params["uri"] == CHECKLIST {
            result["contents"][0]["text"] = json!("");
        }
    });
    let e = block_on(c.read(&wire, CODE_REVIEW, "references/checklist.md")).unwrap_err();
    assert_eq!(e.code, ErrorCode::SizeMismatch);
    assert_eq!(wire.count("skills/get"), 1);
}

/// H20: "MUST NOT treat a directory result as extending the manifest."
#[test]
fn h20_a_directory_result_never_extends_the_manifest() {
    let wire = Wire::new();
    wire.set_tamper(|method, _, result| {
        if method == "resources/directory/read" {
            result["resources"] = json!([{"uri": "skill://code-review/new.md", "name": "new.md"}]);
        }
    });
    let c = client(&wire);
    block_on(c.list(&wire)).unwrap();
    let before = c
        .host(|h, l| h.entry(l, CODE_REVIEW).cloned())
        .unwrap()
        .unwrap();
    block_on(c.read_directory(&wire, "skill://code-review")).unwrap();
    let after = c
        .host(|h, l| h.entry(l, CODE_REVIEW).cloned())
        .unwrap()
        .unwrap();
    assert_eq!(before, after);
    block_on(c.load(&wire, CODE_REVIEW)).unwrap();
    assert_eq!(
        block_on(c.read(&wire, CODE_REVIEW, "new.md"))
            .unwrap_err()
            .code,
        ErrorCode::NotInManifest
    );
}

/// H21: "A `resources/read` of a `SKILL.md` does not activate the skill. ... Such a read
/// grants no approval, opens no window, and gives the skill's supporting files no standing."
#[test]
fn h21_reading_a_skill_md_does_not_activate_it() {
    let wire = Wire::new();
    let c = client(&wire);
    block_on(c.list(&wire)).unwrap();
    block_on(c.load(&wire, OUTER)).unwrap();
    let r = block_on(c.read(&wire, OUTER, "changelog-lint/SKILL.md")).unwrap();
    assert!(r
        .file
        .content
        .body
        .text()
        .unwrap()
        .starts_with("---\nname: changelog-lint"));
    assert!(!c.host(|h, l| h.is_active(l, NESTED)).unwrap());
    assert!(!c.host(|h, l| h.is_approved(l, NESTED)).unwrap());
    assert_eq!(
        block_on(c.read(&wire, NESTED, "references/rules.md"))
            .unwrap_err()
            .code,
        ErrorCode::NoActingWindow
    );
}

/// H22: "The host MUST keep both halves of (server identity, `uri`) wherever a skill is
/// recorded or addressed: registry, persisted approvals, cache ... MUST NOT key any of these
/// on `uri` alone." Two clients of two URLs are two servers by default, and an approval
/// exported from one is refused by the other.
#[test]
fn h22_identity_is_the_server_and_the_uri() {
    let (a, b) = (
        server_label_of_url("https://a.example/mcp").unwrap(),
        server_label_of_url("https://b.example:8443/mcp").unwrap(),
    );
    assert_eq!(
        (a.as_str(), b.as_str()),
        ("https://a.example", "https://b.example:8443")
    );
    let wire = Wire::new();
    let clients: Vec<SkillsClient> = [&a, &b]
        .iter()
        .map(|label| {
            let c = SkillsClient::new(label, HostOptions::default()).unwrap();
            c.set_facts(wire.facts()).unwrap();
            block_on(c.list(&wire)).unwrap();
            c
        })
        .collect();
    clients[0]
        .host(|h, l| h.approve(l, CODE_REVIEW).unwrap())
        .unwrap();
    let export = clients[0].export_approvals().unwrap();
    assert!(
        export.contains("\"server\":\"https://a.example\""),
        "{export}"
    );
    let e = clients[1].import_approvals(&export).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidArgument);
    assert!(
        e.message.contains("https://a.example") && e.message.contains("https://b.example:8443")
    );
    assert!(!clients[1]
        .host(|h, l| h.is_approved(l, CODE_REVIEW))
        .unwrap());
    // A client of the same server takes it.
    let again = SkillsClient::new(&a, HostOptions::default()).unwrap();
    again.set_facts(wire.facts()).unwrap();
    block_on(again.list(&wire)).unwrap();
    assert_eq!(again.import_approvals(&export).unwrap(), 1);
    assert!(again.host(|h, l| h.is_approved(l, CODE_REVIEW)).unwrap());
    // One registry, two servers, one URI: two skills, approved apart.
    let mut host = SkillHost::new(HostOptions::default());
    for label in [&a, &b] {
        host.add_server(label).unwrap();
        host.register(label, skill(CODE_REVIEW, &md("code-review"), &[]))
            .unwrap();
    }
    host.approve(&a, CODE_REVIEW).unwrap();
    assert!(host.is_approved(&a, CODE_REVIEW) && !host.is_approved(&b, CODE_REVIEW));
}

/// H23: "Names are labels: MUST NOT assume names are unique. Within one listing, MUST
/// disambiguate colliding names ... Across origins, MUST resolve names in a per-origin
/// namespace, with servers identified by a host-assigned label, not the self-reported
/// `serverInfo.name`."
#[test]
fn h23_names_resolve_per_origin_and_never_shadow() {
    let mut host = SkillHost::new(HostOptions::default());
    for label in ["https://a.example", "https://b.example"] {
        host.add_server(label).unwrap();
        host.register(label, skill("skill://x/alpha/SKILL.md", &md("alpha"), &[]))
            .unwrap();
    }
    host.register(
        "https://a.example",
        skill("skill://y/alpha/SKILL.md", &md("alpha"), &[]),
    )
    .unwrap();
    let names: Vec<(String, String)> = host
        .skills()
        .into_iter()
        .map(|s| (s.server_label, s.display_name))
        .collect();
    assert_eq!(names.len(), 3, "nothing dropped");
    let mut shown: Vec<&str> = names.iter().map(|(_, n)| n.as_str()).collect();
    shown.sort_unstable();
    shown.dedup();
    assert_eq!(shown.len(), 3, "every display name is unique: {names:?}");
    for (label, name) in &names {
        let (l, _) = host.lookup(name).unwrap();
        assert_eq!(&l, label);
    }
}

/// H24: "the host MUST tag MCP-served skill content with its originating server identity at
/// the point it enters model context."
#[test]
fn h24_loaded_content_carries_its_server() {
    let wire = Wire::new();
    let c = client(&wire);
    block_on(c.list(&wire)).unwrap();
    let loaded = block_on(c.load(&wire, CODE_REVIEW)).unwrap();
    assert_eq!(loaded.skill.server_label, LABEL);
    let file = block_on(c.read(&wire, CODE_REVIEW, "references/checklist.md")).unwrap();
    assert_eq!(
        (
            file.file.server_label.as_str(),
            file.file.skill_uri.as_str()
        ),
        (LABEL, CODE_REVIEW)
    );
}

/// H28: "A model-callable resource-read surface MUST be bound to the skill's originating
/// server. A skill from server A MUST NOT cause a `resources/read` against server B."
#[test]
fn h28_reads_are_bound_to_the_skills_own_server() {
    let mut host = SkillHost::new(HostOptions::default());
    host.add_server("a").unwrap();
    host.add_server("b").unwrap();
    let text = md("code-review");
    host.register("a", skill(CODE_REVIEW, &text, &[(CHECKLIST, b"c")]))
        .unwrap();
    host.load("a", CODE_REVIEW, Content::Text(text), Hashing::Here)
        .unwrap();
    assert_eq!(
        host.plan_read("b", CODE_REVIEW, "references/checklist.md")
            .unwrap_err()
            .code,
        ErrorCode::NoActingWindow
    );
    assert_eq!(
        host.plan_read("c", CODE_REVIEW, "references/checklist.md")
            .unwrap_err()
            .code,
        ErrorCode::UnknownServer
    );
    // A skill's reference to another server's URI is outside its root.
    assert_eq!(
        host.plan_read("a", CODE_REVIEW, "skill://other/x.md")
            .unwrap_err()
            .code,
        ErrorCode::EscapesRoot
    );
}

/// H29: "The host SHOULD let users inspect a skill's content before it is loaded into
/// context. It MAY gate loading behind per-skill or per-server approval."
#[test]
fn h29_a_skill_can_be_inspected_and_gated_before_loading() {
    let wire = Wire::new();
    let options = HostOptions {
        require_approval: true,
        ..HostOptions::default()
    };
    let c = client_with(&wire, options, wire.facts());
    block_on(c.list(&wire)).unwrap();
    let summary = c.host(|h, l| h.summary(l, CODE_REVIEW)).unwrap().unwrap();
    assert_eq!(summary.name, "code-review");
    assert!(!summary.description.is_empty());
    assert_eq!(
        block_on(c.load(&wire, CODE_REVIEW)).unwrap_err().code,
        ErrorCode::NotApproved
    );
    assert_eq!(wire.count("resources/read"), 0);
    c.host(|h, l| h.approve(l, CODE_REVIEW).unwrap()).unwrap();
    block_on(c.load(&wire, CODE_REVIEW)).unwrap();
}

/// H30: "Any persisted per-skill approval MUST be bound to the entry's `resources` set as
/// observed at approval time: every `uri` and `digest`. If a later entry ... shows a different
/// set ..., the host MUST treat the approval as revoked and re-prompt before loading."
#[test]
fn h30_an_approval_is_bound_to_every_uri_and_digest() {
    let options = HostOptions {
        require_approval: true,
        ..HostOptions::default()
    };
    let mut host = SkillHost::new(options);
    host.add_server("s").unwrap();
    let text = md("a");
    let v1 = skill("skill://a/SKILL.md", &text, &[("skill://a/x.md", b"1")]);
    host.register("s", v1.clone()).unwrap();
    host.approve("s", "skill://a/SKILL.md").unwrap();
    for changed in [
        skill("skill://a/SKILL.md", &text, &[("skill://a/x.md", b"2")]),
        skill("skill://a/SKILL.md", &text, &[("skill://a/y.md", b"1")]),
        skill(
            "skill://a/SKILL.md",
            &text,
            &[("skill://a/x.md", b"1"), ("skill://a/z.md", b"")],
        ),
        skill("skill://a/SKILL.md", &text, &[]),
    ] {
        host.register("s", v1.clone()).unwrap();
        host.approve("s", "skill://a/SKILL.md").unwrap();
        assert!(host.register("s", changed).unwrap().approval_revoked);
        assert_eq!(
            host.plan_load("s", "skill://a/SKILL.md").unwrap_err().code,
            ErrorCode::NotApproved
        );
    }
    // A dynamic skill cannot be content-bound.
    let dynamic = Entry::parse(r#"{"uri":"skill://d/SKILL.md","frontmatter":{"name":"d","description":"x"},"resources":"dynamic"}"#).unwrap();
    host.register("s", dynamic).unwrap();
    assert_eq!(
        host.approve("s", "skill://d/SKILL.md").unwrap_err().code,
        ErrorCode::DynamicNotAllowed
    );
}

/// H31: "A nested `SKILL.md` read as supporting content is ordinary markdown, and the host
/// MUST NOT act on its frontmatter. Activating it needs fresh, explicit user consent; approval
/// of the enclosing skill does not count." With the default options too.
#[test]
fn h31_a_nested_skill_needs_its_own_consent() {
    let wire = Wire::new();
    let c = client(&wire);
    block_on(c.list(&wire)).unwrap();
    c.host(|h, l| h.approve(l, OUTER).unwrap()).unwrap();
    block_on(c.load(&wire, OUTER)).unwrap();
    let e = block_on(c.load(&wire, NESTED)).unwrap_err();
    assert_eq!(e.code, ErrorCode::NotApproved);
    assert!(
        e.message.contains(OUTER) && e.message.contains("nested"),
        "{}",
        e.message
    );
    assert_eq!(wire.reads_of(NESTED), 0, "nothing fetched");
    c.host(|h, l| h.approve(l, NESTED).unwrap()).unwrap();
    block_on(c.load(&wire, NESTED)).unwrap();
    // The embedder that asks for consent itself says so, by name.
    let wire = Wire::new();
    let options = HostOptions {
        nested_without_approval: true,
        ..HostOptions::default()
    };
    let c = client_with(&wire, options, wire.facts());
    block_on(c.list(&wire)).unwrap();
    block_on(c.load(&wire, NESTED)).unwrap();
}

/// H34: "`ttlMs`/`cacheScope` on `skills/list` and `skills/get` are freshness and sharing
/// hints, not integrity. ... The held entry governs reads during the acting window whatever
/// the TTL."
#[test]
fn h34_the_ttl_is_freshness_and_the_held_entry_governs_reads() {
    let wire = Wire::new();
    let c = client(&wire);
    block_on(c.list(&wire)).unwrap();
    block_on(c.load(&wire, CODE_REVIEW)).unwrap();
    assert_eq!(wire.count("skills/get"), 0);
    // Past the TTL: reads still go by the held entry, a new load fetches the entry again.
    wire.clock.set(1000.0 + 300_001.0);
    block_on(c.read(&wire, CODE_REVIEW, "references/checklist.md")).unwrap();
    assert_eq!(wire.count("skills/get"), 0);
    block_on(c.load(&wire, CODE_REVIEW)).unwrap();
    assert_eq!(wire.count("skills/get"), 1);
}

/// Decision (docs/host-rules.md): an approval the user withdraws closes the acting window it
/// was opened under, when loading the skill needs one; without a gate, the window stays (H15).
#[test]
fn a_revoked_approval_closes_the_window_it_gated() {
    let text = md("a");
    let e = skill("skill://a/SKILL.md", &text, &[("skill://a/x.md", b"x")]);
    for (require_approval, closes) in [(true, true), (false, false)] {
        let mut host = SkillHost::new(HostOptions {
            require_approval,
            ..HostOptions::default()
        });
        host.add_server("s").unwrap();
        host.register("s", e.clone()).unwrap();
        host.approve("s", "skill://a/SKILL.md").unwrap();
        host.load(
            "s",
            "skill://a/SKILL.md",
            Content::Text(text.clone()),
            Hashing::Here,
        )
        .unwrap();
        assert!(host.revoke("s", "skill://a/SKILL.md"));
        assert_eq!(host.is_active("s", "skill://a/SKILL.md"), !closes);
        let planned = host.plan_read("s", "skill://a/SKILL.md", "x.md");
        assert_eq!(planned.is_err(), closes);
    }
    // A nested skill is gated by default: its window closes too, and so on a changed entry.
    let mut host = SkillHost::new(HostOptions::default());
    host.add_server("s").unwrap();
    let inner_md = md("b");
    host.register(
        "s",
        skill(
            "skill://a/SKILL.md",
            &text,
            &[("skill://a/b/SKILL.md", inner_md.as_bytes())],
        ),
    )
    .unwrap();
    host.register(
        "s",
        skill(
            "skill://a/b/SKILL.md",
            &inner_md,
            &[("skill://a/b/y.md", b"y")],
        ),
    )
    .unwrap();
    host.approve("s", "skill://a/b/SKILL.md").unwrap();
    host.load(
        "s",
        "skill://a/b/SKILL.md",
        Content::Text(inner_md.clone()),
        Hashing::Here,
    )
    .unwrap();
    let changed = skill(
        "skill://a/b/SKILL.md",
        &inner_md,
        &[("skill://a/b/y.md", b"z")],
    );
    assert!(host.register("s", changed).unwrap().approval_revoked);
    assert!(!host.is_active("s", "skill://a/b/SKILL.md"));
}

// The defects a review found (each failed before these fixes), named after what the other side
// does.

/// Two clients of two servers: server B's client is handed the approvals exported by server
/// A's client, and must not count them.
#[test]
fn server_b_is_handed_approvals_exported_for_server_a() {
    let wire = Wire::new();
    let client_of = |url: &str| {
        let c =
            SkillsClient::new(&server_label_of_url(url).unwrap(), HostOptions::default()).unwrap();
        c.set_facts(wire.facts()).unwrap();
        block_on(c.list(&wire)).unwrap();
        c
    };
    let (a, b) = (
        client_of("https://a.example/mcp"),
        client_of("https://b.example/mcp"),
    );
    assert_ne!(a.label(), b.label());
    a.host(|h, l| h.approve(l, CODE_REVIEW).unwrap()).unwrap();
    assert!(b.import_approvals(&a.export_approvals().unwrap()).is_err());
    assert!(!b.host(|h, l| h.is_approved(l, CODE_REVIEW)).unwrap());
}

/// A server that never declared the extension, or `directoryRead`, is sent no `skills/*` and
/// no `resources/directory/read`.
#[test]
fn server_without_the_declarations_is_sent_no_undeclared_request() {
    let wire = Wire::new();
    let bare = client_with(
        &wire,
        HostOptions::default(),
        facts_of(json!({"resources": {}})),
    );
    assert!(block_on(bare.list(&wire)).is_err());
    assert!(block_on(bare.load(&wire, CODE_REVIEW)).is_err());
    let skills_only = client_with(
        &wire,
        HostOptions::default(),
        facts_of(json!({"resources": {}, "extensions": {SKILLS_EXT: {}}})),
    );
    assert!(block_on(skills_only.read_directory(&wire, "skill://code-review")).is_err());
    assert!(wire.log.borrow().is_empty(), "{:?}", wire.methods());
}

/// A caller asks `get` or `load` for a file, a directory or something that is no URI: no
/// `skills/get` goes out.
#[test]
fn caller_asks_skills_get_for_what_is_no_skill_md() {
    let wire = Wire::new();
    let c = client(&wire);
    for bad in ["skill://alpha/x.md", "skill://alpha", "not a uri"] {
        assert!(block_on(c.get(&wire, bad)).is_err());
        assert!(block_on(c.load(&wire, bad)).is_err());
    }
    assert!(wire.log.borrow().is_empty());
}

/// A server publishes a skill inside another one: under the default options it is not
/// activated without its own approval.
#[test]
fn server_nests_a_skill_to_have_it_activated_without_consent() {
    let wire = Wire::new();
    let c = client(&wire);
    block_on(c.list(&wire)).unwrap();
    block_on(c.load(&wire, OUTER)).unwrap();
    assert_eq!(
        block_on(c.load(&wire, NESTED)).unwrap_err().code,
        ErrorCode::NotApproved
    );
    assert!(!c.host(|h, l| h.is_active(l, NESTED)).unwrap());
}

/// A server (or the network) fails the recovery `skills/get` once with `-32603`: the skill's
/// acting window stays open and a listed file is still read.
#[test]
fn server_fails_the_recovery_get_once_to_end_the_window() {
    let wire = Wire::new();
    let c = client(&wire);
    block_on(c.list(&wire)).unwrap();
    block_on(c.load(&wire, CODE_REVIEW)).unwrap();
    wire.set_fault(|method, _| (method == "skills/get").then(|| Err(server_error(-32603))));
    wire.set_tamper(|method, _, result| {
        if method == "resources/read" {
            result["contents"][0]["text"] = json!("x");
        }
    });
    assert!(block_on(c.read(&wire, CODE_REVIEW, "references/checklist.md")).is_err());
    wire.clear();
    block_on(c.read(&wire, CODE_REVIEW, "references/checklist.md")).unwrap();
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

/// The table of `docs/host-rules.md` names every host rule (H1 to H34 and the `skills/get`
/// argument rule) once, and each row either names a test of this file that exists or says
/// why the rule is the embedder's.
#[test]
fn every_host_rule_is_tested_or_left_to_the_embedder() {
    let doc = include_str!("../docs/host-rules.md");
    let me = include_str!("host_rules.rs");
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
