//! The host rules of reading and verifying: H11 to H21 (see `mod.rs`).

use super::*;

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
