//! The host rules of identity, names and consent: H22 to H34, the decisions of
//! docs/host-rules.md and the defects a review found (see `mod.rs`).

use super::*;

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
