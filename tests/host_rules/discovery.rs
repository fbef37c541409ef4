//! The host rules of discovery and loading: H1 to H10 and G1 (see `mod.rs`).

use super::*;

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
