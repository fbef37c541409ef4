//! What a server (or a page spelling URLs) does to get past a host rule, one test each,
//! named after the attempt (see `mod.rs`).

use super::*;
use skills_edge::host::Purpose;

const NESTED_RULES: &str = "skill://release-notes/changelog-lint/references/rules.md";

/// H31 ("Activating it needs fresh, explicit user consent"): a nested skill loaded by its URI
/// alone, before its enclosing skill is known, is not activated as a skill of its own: the
/// client asks for the skills that could enclose it first, and the load needs consent.
#[test]
fn loading_a_nested_skill_by_uri_before_its_parent_is_refused() {
    let wire = Wire::new();
    let c = client(&wire);
    let e = block_on(c.load(&wire, NESTED)).unwrap_err();
    assert_eq!(e.code, ErrorCode::NotApproved, "{}", e.message);
    assert!(e.message.contains(OUTER), "{}", e.message);
    assert_eq!(wire.reads_of(NESTED), 0, "nothing of it fetched");
    assert!(!c.host(|h, l| h.is_active(l, NESTED)).unwrap());
    // Its own consent lets it load; a skill with no enclosing directory asks for nothing.
    c.host(|h, l| h.approve(l, NESTED).unwrap()).unwrap();
    block_on(c.load(&wire, NESTED)).unwrap();
    let gets = wire.count("skills/get");
    block_on(c.load(&wire, CODE_REVIEW)).unwrap();
    assert_eq!(wire.count("skills/get"), gets + 1);
}

/// The same, for a listing that leaves the enclosing skill out: the nested skill loads as a
/// skill of its own, and its window closes as soon as the enclosing skill is registered;
/// reads through it stop and loading it again needs consent.
#[test]
fn listing_a_nested_skill_without_its_parent_keeps_no_window_once_the_parent_arrives() {
    let wire = Wire::new();
    let c = client(&wire);
    wire.set_tamper(|method, _, result| {
        if method == "skills/list" {
            result["skills"]
                .as_array_mut()
                .unwrap()
                .retain(|e| e["uri"] != OUTER);
        }
    });
    block_on(c.list(&wire)).unwrap();
    wire.clear();
    block_on(c.load(&wire, NESTED)).unwrap();
    assert!(c.host(|h, l| h.is_active(l, NESTED)).unwrap());
    // The enclosing skill arrives: the window it lacked consent for closes.
    block_on(c.get(&wire, OUTER)).unwrap();
    assert!(!c.host(|h, l| h.is_active(l, NESTED)).unwrap());
    let reads = wire.count("resources/read");
    let e = block_on(c.read(&wire, NESTED, NESTED_RULES)).unwrap_err();
    assert_eq!(e.code, ErrorCode::NoActingWindow);
    assert_eq!(wire.count("resources/read"), reads, "nothing fetched");
    let e = block_on(c.load(&wire, NESTED)).unwrap_err();
    assert_eq!(e.code, ErrorCode::NotApproved);
    // An approved nested skill keeps its window when its parent arrives.
    let wire = Wire::new();
    let c = client(&wire);
    block_on(c.get(&wire, NESTED)).unwrap();
    c.host(|h, l| h.approve(l, NESTED).unwrap()).unwrap();
    block_on(c.load(&wire, NESTED)).unwrap();
    block_on(c.list(&wire)).unwrap();
    assert!(c.host(|h, l| h.is_active(l, NESTED)).unwrap());
    block_on(c.read(&wire, NESTED, NESTED_RULES)).unwrap();
}

/// A load that only checks a skill (the `verify` run, [`Purpose::Check`]) needs no consent
/// for a nested skill, so it must open no window an ordinary read can use.
#[test]
fn reading_through_a_window_a_check_opened_is_refused() {
    let wire = Wire::new();
    let c = client(&wire);
    block_on(c.list(&wire)).unwrap();
    block_on(c.load_for(&wire, NESTED, Purpose::Check)).unwrap();
    assert!(!c.host(|h, l| h.is_active(l, NESTED)).unwrap());
    let reads = wire.count("resources/read");
    let e = block_on(c.read(&wire, NESTED, NESTED_RULES)).unwrap_err();
    assert_eq!(e.code, ErrorCode::NoActingWindow);
    assert_eq!(wire.count("resources/read"), reads, "nothing fetched");
    // The check itself reads through its own window.
    block_on(c.read_for(&wire, NESTED, NESTED_RULES, Purpose::Check)).unwrap();
    assert!(c.host(|h, l| h.close_check_window(l, NESTED)).unwrap());
    assert!(!c.host(|h, l| h.close_check_window(l, NESTED)).unwrap());
}

/// H15 ("MAY keep the window open longer, never shorter"): the `verify` run over a client
/// closes only the windows it opened; the embedder's acting window stays open and usable.
#[cfg(feature = "command")]
#[test]
fn running_verify_does_not_close_the_embedders_window() {
    use skills_edge::command::report;
    let wire = Wire::new();
    let c = client(&wire);
    block_on(c.list(&wire)).unwrap();
    block_on(c.load(&wire, CODE_REVIEW)).unwrap();
    let r = block_on(report::run(&c, &wire, None));
    assert!(r.fatal.is_none());
    assert!(!r.skills.is_empty());
    assert!(c.host(|h, l| h.is_active(l, CODE_REVIEW)).unwrap());
    block_on(c.read(&wire, CODE_REVIEW, "references/checklist.md")).unwrap();
    // What verify opened for itself is closed, and nothing else was opened.
    assert!(!c.host(|h, l| h.is_active(l, NESTED)).unwrap());
    assert!(!c.host(|h, l| h.close_check_window(l, CODE_REVIEW)).unwrap());
}

/// Signer pins are kept under the WHATWG origin, so a spelling of the same origin in other
/// case, with the default port, a port with leading zeros or a path does not escape the pin.
#[test]
fn spelling_the_origin_differently_does_not_escape_its_pin() {
    use skills_edge::host::index::{canonical_origin, origin_of};
    let spellings = [
        ("https://good.example", "https://good.example"),
        ("https://good.example/", "https://good.example"),
        ("HTTPS://GOOD.EXAMPLE", "https://good.example"),
        ("https://good.example:443", "https://good.example"),
        ("https://good.example:0443/mcp", "https://good.example"),
        ("http://LOCALHOST:8080", "http://localhost:8080"),
        ("http://localhost:08080/x", "http://localhost:8080"),
        ("http://127.0.0.1:80/", "http://127.0.0.1"),
    ];
    for (written, origin) in spellings {
        assert_eq!(canonical_origin(written), origin, "{written}");
        assert_eq!(origin_of(written).as_deref(), Some(origin), "{written}");
    }
    let mut host = SkillHost::new(HostOptions::default());
    host.add_server("s").unwrap();
    for (written, origin) in spellings {
        host.set_origin("s", written).unwrap();
        assert_eq!(host.origin("s"), Some(origin), "{written}");
    }
}

/// H23 ("MUST resolve names in a per-origin namespace ... MUST NOT silently shadow"): a
/// server that names a skill like another server's, where the other server already tells
/// its own same-named skills apart by prefix, gets no bare name: every skill of a name two
/// servers serve is qualified with its server's label, and the bare name resolves to none.
#[test]
fn naming_a_skill_like_another_servers_prefixed_skill_takes_no_bare_name() {
    let text = md("deploy");
    let mut host = SkillHost::new(HostOptions::default());
    host.add_server("https://good").unwrap();
    host.add_server("https://evil").unwrap();
    host.register(
        "https://good",
        skill("skill://prod/deploy/SKILL.md", &text, &[]),
    )
    .unwrap();
    host.register(
        "https://good",
        skill("skill://staging/deploy/SKILL.md", &text, &[]),
    )
    .unwrap();
    host.register("https://evil", skill("skill://deploy/SKILL.md", &text, &[]))
        .unwrap();
    let names: Vec<(String, String)> = host
        .skills()
        .into_iter()
        .map(|s| (s.server_label, s.display_name))
        .collect();
    assert_eq!(
        names,
        [
            ("https://good".into(), "https://good:deploy (prod)".into()),
            (
                "https://good".into(),
                "https://good:deploy (staging)".into()
            ),
            ("https://evil".into(), "https://evil:deploy".into()),
        ]
    );
    assert_eq!(host.lookup("deploy"), None);
    assert_eq!(host.lookup("deploy (prod)"), None);
    assert_eq!(
        host.lookup("https://evil:deploy"),
        Some(("https://evil".into(), "skill://deploy/SKILL.md".into()))
    );
    // Once only one server serves the name, its skills take their local names again.
    host.remove_server("https://evil").unwrap();
    assert_eq!(
        host.lookup("deploy (prod)"),
        Some(("https://good".into(), "skill://prod/deploy/SKILL.md".into()))
    );
}

/// Decision (docs/host-rules.md): two MCP endpoints on one origin are one server by default,
/// since the origin is the web's security principal (whoever answers one path of it can
/// answer the other); an embedder that runs separate servers behind one origin labels them.
#[cfg(feature = "command")]
#[test]
fn serving_two_endpoints_on_one_origin_shares_one_label_by_default() {
    use skills_edge::command::args::VerifyArgs;
    use skills_edge::command::report::command_client;
    let label = |url: &str| {
        let args = VerifyArgs::parse(&[url.to_owned()]).unwrap();
        command_client(&args, Default::default()).unwrap().label()
    };
    assert_eq!(
        label("http://127.0.0.1:8787/mcp/good"),
        label("http://127.0.0.1:8787/mcp/evil")
    );
    assert_ne!(
        label("http://127.0.0.1:8787/mcp"),
        label("http://127.0.0.1:8788/mcp")
    );
}

/// An entry whose item URIs spell a dot segment in escapes (`%2e%2e`), an unreserved
/// character in an escape (`%61`) or the scheme in capitals is refused: skill URIs are
/// compared as strings, so a second spelling of a path would get past the checks of
/// containment and nesting.
#[test]
fn spelling_a_uri_in_escapes_or_capitals_is_refused() {
    let text = md("a");
    let entry = |uri: &str, item: &str| {
        json!({
            "uri": uri,
            "frontmatter": {"name": "a", "description": "d"},
            "resources": [
                {"uri": uri, "digest": digest_of(text.as_bytes()), "size": text.len()},
                {"uri": item, "digest": digest_of(b"x"), "size": 1},
            ],
        })
        .to_string()
    };
    for (uri, item) in [
        ("skill://a/SKILL.md", "skill://a/%2e%2e/b/x.md"),
        ("skill://a/SKILL.md", "skill://a/%2E%2E/b/x.md"),
        ("skill://a/SKILL.md", "skill://a/%61.md"),
        ("skill://a/SKILL.md", "skill://a/x%2fy.md"),
        ("skill://a/SKILL.md", "SKILL://a/x.md"),
        ("Skill://a/SKILL.md", "Skill://a/x.md"),
        ("skill://%61/SKILL.md", "skill://%61/x.md"),
    ] {
        let e = Entry::parse(&entry(uri, item)).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidEntry, "{item}: {}", e.message);
    }
    // An escape of a reserved or non-ASCII byte, in capitals, is the one spelling it has.
    Entry::parse(&entry("skill://a/SKILL.md", "skill://a/caf%C3%A9.md")).unwrap();
    // A file on disk is named as such, not as an empty path segment.
    let e = skills_edge::host::entry::check_skill_md_uri("file:///etc/SKILL.md").unwrap_err();
    assert!(e.message.contains("empty authority"), "{}", e.message);
}

/// A label with an invisible or bidirectional format character would read like another
/// server's label: it is refused.
#[test]
fn a_label_that_looks_like_another_servers_is_refused() {
    let mut host = SkillHost::new(HostOptions::default());
    host.add_server("https://good.example").unwrap();
    for label in [
        "https://good\u{200b}.example",
        "https://\u{202e}elpmaxe.doog",
        "https://good.example\u{feff}",
        "https://go\u{ad}od.example",
        "https://good.example\u{2066}",
    ] {
        let e = host.add_server(label).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidArgument, "{label:?}");
    }
    assert_eq!(host.servers(), ["https://good.example"]);
}
