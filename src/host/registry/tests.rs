//! The registry's tests.

use super::*;
use crate::host::approval::approval_fingerprint;
use crate::skill::digest::digest_of;
use serde_json::json;

thread_local! {
    /// How often [`SkillHost::display_table`] ran on this thread.
    pub(crate) static TABLE_BUILDS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How often the display table was built on this thread so far.
pub(crate) fn table_builds() -> usize {
    TABLE_BUILDS.with(|c| c.get())
}

struct Skill {
    uri: String,
    md: String,
    files: Vec<(String, Vec<u8>)>,
}

impl Skill {
    fn new(uri: &str, files: &[(&str, &str)]) -> Skill {
        let name = uri
            .trim_end_matches("/SKILL.md")
            .rsplit('/')
            .next()
            .unwrap_or_default();
        Skill {
            uri: uri.into(),
            md: format!("---\nname: {name}\ndescription: about {name}\n---\n# {name}\n"),
            files: files
                .iter()
                .map(|(u, b)| (u.to_string(), b.as_bytes().to_vec()))
                .collect(),
        }
    }
    fn entry_json(&self) -> String {
        let name = self
            .uri
            .trim_end_matches("/SKILL.md")
            .rsplit('/')
            .next()
            .unwrap_or_default();
        let mut res = vec![
            json!({"uri": self.uri, "digest": digest_of(self.md.as_bytes()), "size": self.md.len()}),
        ];
        for (u, b) in &self.files {
            res.push(json!({"uri": u, "digest": digest_of(b), "size": b.len()}));
        }
        json!({"uri": self.uri, "frontmatter": {"name": name, "description": format!("about {name}")}, "resources": res}).to_string()
    }
    fn entry(&self) -> Entry {
        Entry::parse(&self.entry_json()).unwrap()
    }
    fn read_result(&self) -> Content {
        Content::ReadResult(
            json!({"contents":[{"uri": self.uri, "mimeType": "text/markdown", "text": self.md}]})
                .to_string(),
        )
    }
}

fn host() -> SkillHost {
    let mut h = SkillHost::new(HostOptions::default());
    h.add_server("work").unwrap();
    h.add_server("home").unwrap();
    h
}

#[test]
fn innermost_entry_is_the_longest_root() {
    let mut h = host();
    let outer = Skill::new("skill://outer/SKILL.md", &[("skill://outer/a.md", "A")]);
    let inner = Skill::new("skill://outer/inner/SKILL.md", &[]);
    let sibling = Skill::new("skill://outer2/SKILL.md", &[]);
    for s in [&outer, &inner, &sibling] {
        h.register("work", s.entry()).unwrap();
    }
    let innermost = |h: &SkillHost, label: &str, uri: &str| {
        h.innermost_entry(label, uri).map(|e| e.uri().to_owned())
    };
    for (uri, want) in [
        ("skill://outer/a.md", Some(&outer.uri)),
        ("skill://outer/inner/x/y.md", Some(&inner.uri)),
        ("skill://outer/inner", Some(&outer.uri)),
        ("skill://outer/inner/", Some(&inner.uri)),
        ("skill://outer2/a.md", Some(&sibling.uri)),
        ("skill://outer2x/a.md", None),
        ("skill://outer", None),
        ("skill://out/a.md", None),
        ("", None),
        ("/", None),
    ] {
        assert_eq!(innermost(&h, "work", uri).as_ref(), want, "{uri}");
    }
    assert_eq!(innermost(&h, "home", "skill://outer/a.md"), None);
    assert_eq!(innermost(&h, "nope", "skill://outer/a.md"), None);
    // Forgetting the inner skill hands its files back to the outer one.
    h.forget("work", &inner.uri).unwrap();
    assert_eq!(
        innermost(&h, "work", "skill://outer/inner/x/y.md").as_ref(),
        Some(&outer.uri)
    );
    h.remove_server("work").unwrap();
    assert_eq!(innermost(&h, "work", "skill://outer/a.md"), None);
}

#[test]
fn display_names_are_worked_out_once_per_change() {
    let mut h = host();
    let skills: Vec<Skill> = (0..200)
        .map(|i| Skill::new(&format!("skill://p{i}/same/SKILL.md"), &[]))
        .collect();
    for s in &skills {
        h.register("work", s.entry()).unwrap();
    }
    let all = h.skills();
    let before = table_builds();
    for s in &skills {
        let from_all = all.iter().find(|x| x.uri == s.uri);
        assert_eq!(h.summary("work", &s.uri).as_ref(), from_all);
    }
    assert_eq!(table_builds() - before, 1);
    assert_eq!(
        h.summary("work", &skills[7].uri).unwrap().display_name,
        "same (p7)"
    );
    // Registering an entry again, loading and looking up change no name.
    h.register("work", skills[3].entry()).unwrap();
    h.load(
        "work",
        &skills[3].uri,
        skills[3].read_result(),
        Hashing::Here,
    )
    .unwrap();
    assert!(h.lookup("same (p3)").is_some());
    assert_eq!(table_builds() - before, 1);
    // A new skill of the same name, and a forgotten one, do.
    let more = Skill::new("skill://p7/x/same/SKILL.md", &[]);
    h.register("work", more.entry()).unwrap();
    assert_eq!(
        h.summary("work", &more.uri).unwrap().display_name,
        "same (p7/x)"
    );
    h.forget("work", &more.uri).unwrap();
    assert!(h.summary("work", &more.uri).is_none());
    assert_eq!(
        h.summary("work", &skills[7].uri).unwrap().display_name,
        "same (p7)"
    );
    assert_eq!(table_builds() - before, 3);
    // Under another server, where it is the only `same`, it is still qualified: the
    // name is served by two servers, so no bare or prefixed form of it stands alone.
    h.register("home", skills[0].entry()).unwrap();
    assert_eq!(
        h.summary("home", &skills[0].uri).unwrap().display_name,
        "home:same"
    );
    assert_eq!(
        h.summary("work", &skills[3].uri).unwrap().display_name,
        "work:same (p3)"
    );
    assert_eq!(table_builds() - before, 4);
}

#[test]
fn labels_are_checked() {
    let mut h = host();
    for bad in ["", "a\nb", " a", "work", &"x".repeat(2049)] {
        assert_eq!(
            h.add_server(bad).unwrap_err().code,
            ErrorCode::InvalidArgument,
            "{bad:?}"
        );
    }
    assert_eq!(h.servers(), ["work", "home"]);
    let s = Skill::new("skill://a/SKILL.md", &[]);
    assert_eq!(
        h.register("nope", s.entry()).unwrap_err().code,
        ErrorCode::UnknownServer
    );
    h.remove_server("home").unwrap();
    assert_eq!(
        h.remove_server("home").unwrap_err().code,
        ErrorCode::UnknownServer
    );
}

#[test]
fn same_uri_on_two_servers_are_two_skills() {
    let mut h = host();
    let s = Skill::new(
        "skill://code-review/SKILL.md",
        &[("skill://code-review/a.md", "A")],
    );
    h.register("work", s.entry()).unwrap();
    let other = Skill::new(
        "skill://code-review/SKILL.md",
        &[("skill://code-review/a.md", "B")],
    );
    h.register("home", other.entry()).unwrap();
    let names: Vec<_> = h
        .skills()
        .into_iter()
        .map(|s| (s.server_label, s.display_name))
        .collect();
    assert_eq!(
        names,
        [
            ("work".into(), "work:code-review".into()),
            ("home".into(), "home:code-review".into())
        ]
    );
    assert_eq!(
        h.lookup("home:code-review"),
        Some(("home".into(), "skill://code-review/SKILL.md".into()))
    );
    assert_eq!(h.lookup("code-review"), None);
    // Loading on one server does not open a window on the other.
    h.load("work", &s.uri, s.read_result(), Hashing::Here)
        .unwrap();
    assert!(h.is_active("work", &s.uri));
    assert!(!h.is_active("home", &s.uri));
    // The other server's bytes do not verify against this server's entry.
    let err = h
        .read(
            "work",
            &s.uri,
            "a.md",
            Content::Text("B".into()),
            Hashing::Here,
        )
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::DigestMismatch);
}

#[test]
fn colliding_names_are_disambiguated_never_dropped() {
    let mut h = host();
    for uri in [
        "skill://acme/billing/refunds/SKILL.md",
        "skill://other/refunds/SKILL.md",
        "skill://solo/SKILL.md",
    ] {
        h.register("work", Skill::new(uri, &[]).entry()).unwrap();
    }
    for uri in [
        "skill://refunds/SKILL.md",
        "github://refunds/SKILL.md",
        "skill://solo/SKILL.md",
    ] {
        h.register("home", Skill::new(uri, &[]).entry()).unwrap();
    }
    let names: Vec<String> = h.skills().into_iter().map(|s| s.display_name).collect();
    assert_eq!(
        names,
        [
            "work:refunds (acme/billing)",
            "work:refunds (other)",
            "work:solo",
            "home:refunds (github://refunds)",
            "home:refunds (skill://refunds)",
            "home:solo",
        ]
    );
    let mut unique = names.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), names.len());
    for n in &names {
        assert!(h.lookup(n).is_some(), "{n}");
    }
}

#[test]
fn acting_window_holds_the_loaded_entry() {
    let mut h = host();
    let s = Skill::new(
        "skill://r/SKILL.md",
        &[
            ("skill://r/ref/a.md", "A"),
            ("skill://r/b.bin", "\u{0}\u{1}"),
        ],
    );
    h.register("work", s.entry()).unwrap();
    // No window yet: reads are refused, not fetched.
    assert_eq!(
        h.plan_read("work", &s.uri, "ref/a.md").unwrap_err().code,
        ErrorCode::NoActingWindow
    );
    let loaded = h
        .load("work", &s.uri, s.read_result(), Hashing::Here)
        .unwrap();
    assert_eq!(loaded.server_label, "work");
    assert_eq!(loaded.skill_md.body(), "# r\n");
    assert_eq!(loaded.display_name, "r");
    let plan = h.plan_read("work", &s.uri, "ref/a.md").unwrap();
    assert_eq!(
        (plan.uri.as_str(), plan.size),
        ("skill://r/ref/a.md", Some(1))
    );
    assert_eq!(
        h.plan_read("work", &s.uri, "ref/secret.md")
            .unwrap_err()
            .code,
        ErrorCode::NotInManifest
    );
    assert_eq!(
        h.plan_read("work", &s.uri, "../x/SKILL.md")
            .unwrap_err()
            .code,
        ErrorCode::EscapesRoot
    );
    let blob =
        Content::ReadResult(r#"{"contents":[{"uri":"skill://r/b.bin","blob":"AAE="}]}"#.into());
    let f = h
        .read("work", &s.uri, "skill://r/b.bin", blob, Hashing::Here)
        .unwrap();
    assert_eq!(f.content.body.as_bytes(), [0, 1]);
    assert_eq!(
        (f.server_label.as_str(), f.skill_uri.as_str()),
        ("work", s.uri.as_str())
    );
    // A refreshed entry with a new file does not widen the open window.
    let grown = Skill::new(
        "skill://r/SKILL.md",
        &[
            ("skill://r/ref/a.md", "A"),
            ("skill://r/b.bin", "\u{0}\u{1}"),
            ("skill://r/new.md", "N"),
        ],
    );
    let out = h.refresh("work", grown.entry()).unwrap();
    assert!(out.changed && !out.added);
    assert_eq!(
        h.plan_read("work", &s.uri, "new.md").unwrap_err().code,
        ErrorCode::NotInManifest
    );
    h.load("work", &s.uri, grown.read_result(), Hashing::Here)
        .unwrap();
    assert!(h.plan_read("work", &s.uri, "new.md").is_ok());
    assert!(h.close_window("work", &s.uri));
    assert!(!h.close_window("work", &s.uri));
    assert_eq!(
        h.read(
            "work",
            &s.uri,
            "new.md",
            Content::Text("N".into()),
            Hashing::Here
        )
        .unwrap_err()
        .code,
        ErrorCode::NoActingWindow
    );
}

#[test]
fn failed_loads_change_nothing() {
    let mut h = host();
    let s = Skill::new("skill://r/SKILL.md", &[]);
    h.register("work", s.entry()).unwrap();
    let tampered = s.md.replace("# r", "# x");
    assert_eq!(
        h.load("work", &s.uri, Content::Text(tampered), Hashing::Here)
            .unwrap_err()
            .code,
        ErrorCode::DigestMismatch
    );
    assert!(!h.is_active("work", &s.uri));
    assert_eq!(
        h.load(
            "work",
            "skill://nope/SKILL.md",
            s.read_result(),
            Hashing::Here
        )
        .unwrap_err()
        .code,
        ErrorCode::UnknownSkill
    );
    assert_eq!(
        h.load("nope", &s.uri, s.read_result(), Hashing::Here)
            .unwrap_err()
            .code,
        ErrorCode::UnknownServer
    );
}

#[test]
fn third_party_frontmatter_loads_as_yaml2_reads_it() {
    // What a peer on yaml@2 publishes for values the compiler refuses to publish.
    let md = "---\nname: r\ndescription: \"Two\n  lines\"\nreviewed: yes\nsince: 2024-01-01\nbuild: 007\n---\n# r\n";
    let entry = |frontmatter: serde_json::Value| {
        Entry::parse(
                &json!({"uri": "skill://r/SKILL.md", "frontmatter": frontmatter,
                    "resources": [{"uri": "skill://r/SKILL.md", "digest": digest_of(md.as_bytes()), "size": md.len()}]})
                .to_string(),
            )
            .unwrap()
    };
    let read = json!({"name": "r", "description": "Two lines", "reviewed": "yes", "since": "2024-01-01", "build": 7});
    let mut h = host();
    h.register("work", entry(read.clone())).unwrap();
    let loaded = h
        .load(
            "work",
            "skill://r/SKILL.md",
            Content::Text(md.into()),
            Hashing::Here,
        )
        .unwrap();
    assert_eq!(
        loaded.skill_md.frontmatter.to_json(),
        r#"{"name":"r","description":"Two lines","reviewed":"yes","since":"2024-01-01","build":7}"#
    );
    // A YAML 1.1 reading in the entry is a mismatch, and nothing is loaded.
    let mut yaml11 = read;
    yaml11["reviewed"] = json!(true);
    h.register("home", entry(yaml11)).unwrap();
    let err = h
        .load(
            "home",
            "skill://r/SKILL.md",
            Content::Text(md.into()),
            Hashing::Here,
        )
        .unwrap_err();
    assert_eq!(
        (err.code, err.field.as_deref()),
        (ErrorCode::FrontmatterMismatch, Some("reviewed"))
    );
    assert!(!h.is_active("home", "skill://r/SKILL.md"));
}

#[test]
fn nested_skill_md_is_ordinary_content() {
    let mut h = host();
    let nested_md = "---\nname: inner\ndescription: about inner\n---\n# inner\n";
    let outer = Skill::new(
        "skill://outer/SKILL.md",
        &[("skill://outer/inner/SKILL.md", nested_md)],
    );
    let inner = Skill::new("skill://outer/inner/SKILL.md", &[]);
    assert_eq!(inner.md, nested_md);
    h.register("work", outer.entry()).unwrap();
    h.register("work", inner.entry()).unwrap();
    h.approve("work", &outer.uri).unwrap();
    h.load("work", &outer.uri, outer.read_result(), Hashing::Here)
        .unwrap();
    let f = h
        .read(
            "work",
            &outer.uri,
            "inner/SKILL.md",
            Content::Text(nested_md.into()),
            Hashing::Here,
        )
        .unwrap();
    assert_eq!(f.content.body.text(), Some(nested_md));
    // Reading it activated nothing, and the outer approval does not cover it.
    assert!(!h.is_active("work", &inner.uri));
    assert!(!h.is_approved("work", &inner.uri));
    assert_eq!(
        h.plan_read("work", &inner.uri, "x").unwrap_err().code,
        ErrorCode::NoActingWindow
    );
    // Activating it is its own load, with its own approval and root.
    assert_eq!(
        h.plan_load("work", &inner.uri).unwrap_err().code,
        ErrorCode::NotApproved
    );
    h.approve("work", &inner.uri).unwrap();
    h.load("work", &inner.uri, inner.read_result(), Hashing::Here)
        .unwrap();
    assert_eq!(
        h.plan_read("work", &inner.uri, "../SKILL.md")
            .unwrap_err()
            .code,
        ErrorCode::EscapesRoot
    );
}

#[test]
fn approvals_bind_to_content_and_survive_export() {
    let mut h = SkillHost::new(HostOptions {
        allow_dynamic: false,
        require_approval: true,
        nested_without_approval: false,
    });
    h.add_server("work").unwrap();
    let s = Skill::new("skill://r/SKILL.md", &[("skill://r/a.md", "A")]);
    h.register("work", s.entry()).unwrap();
    assert_eq!(
        h.plan_load("work", &s.uri).unwrap_err().code,
        ErrorCode::NotApproved
    );
    let f = h.approve("work", &s.uri).unwrap();
    assert_eq!(f, approval_fingerprint("work", &s.entry()).unwrap());
    assert!(h.is_approved("work", &s.uri));
    h.load("work", &s.uri, s.read_result(), Hashing::Here)
        .unwrap();
    // Same set (sizes and unknown fields aside): still approved.
    let same = s.entry_json().replacen('{', r#"{"_meta":{"x":1},"#, 1);
    let out = h.refresh("work", Entry::parse(&same).unwrap()).unwrap();
    assert!(!out.changed && !out.approval_revoked);
    let saved = h.export_approvals();
    assert!(saved.contains(&f));
    // A rotated file revokes it (H30).
    let rotated = Skill::new("skill://r/SKILL.md", &[("skill://r/a.md", "B")]);
    let out = h.refresh("work", rotated.entry()).unwrap();
    assert!(out.changed && out.approval_revoked);
    assert!(!h.is_approved("work", &s.uri));
    assert_eq!(
        h.plan_load("work", &s.uri).unwrap_err().code,
        ErrorCode::NotApproved
    );
    // Restoring the old approval does not cover the new entry.
    assert_eq!(h.import_approvals(&saved).unwrap(), 0);
    assert!(!h.is_approved("work", &s.uri));
    // A new host restores approvals before the servers are known.
    let mut h2 = SkillHost::new(HostOptions::default());
    assert_eq!(h2.import_approvals(&saved).unwrap(), 1);
    h2.add_server("work").unwrap();
    h2.register("work", s.entry()).unwrap();
    assert!(h2.is_approved("work", &s.uri));
    assert_eq!(h2.export_approvals(), saved);
    // Under another label the approval does not apply.
    h2.add_server("other").unwrap();
    h2.register("other", s.entry()).unwrap();
    assert!(!h2.is_approved("other", &s.uri));
    assert!(h2.revoke("work", &s.uri));
    assert!(!h2.is_approved("work", &s.uri));
    for bad in [
        "{}",
        "[]",
        r#"{"format":"x","version":1,"approvals":[]}"#,
        r#"{"format":"skills-edge/approvals","version":1,"approvals":[{"server":"a","uri":"u","fingerprint":"sha256:x"}]}"#,
    ] {
        assert_eq!(
            h2.import_approvals(bad).unwrap_err().code,
            ErrorCode::InvalidArgument,
            "{bad}"
        );
    }
}

#[test]
fn dynamic_skills_follow_the_policy() {
    let dynamic = r#"{"uri":"skill://d/SKILL.md","frontmatter":{"name":"d","description":"about d"},"resources":"dynamic"}"#;
    let md = "---\nname: d\ndescription: about d\n---\n";
    let mut strict = host();
    strict
        .register("work", Entry::parse(dynamic).unwrap())
        .unwrap();
    assert_eq!(
        strict
            .plan_load("work", "skill://d/SKILL.md")
            .unwrap_err()
            .code,
        ErrorCode::DynamicNotAllowed
    );
    assert_eq!(
        strict
            .approve("work", "skill://d/SKILL.md")
            .unwrap_err()
            .code,
        ErrorCode::DynamicNotAllowed
    );
    let mut open = SkillHost::new(HostOptions {
        allow_dynamic: true,
        require_approval: false,
        nested_without_approval: false,
    });
    open.add_server("work").unwrap();
    open.register("work", Entry::parse(dynamic).unwrap())
        .unwrap();
    let l = open
        .load(
            "work",
            "skill://d/SKILL.md",
            Content::Text(md.into()),
            Hashing::Here,
        )
        .unwrap();
    assert!(!l.skill_md.receipt.verified);
    assert_eq!(
        open.load(
            "work",
            "skill://d/SKILL.md",
            Content::Text(md.replace("about", "not")),
            Hashing::Here
        )
        .unwrap_err()
        .code,
        ErrorCode::FrontmatterMismatch
    );
    let p = open
        .plan_read("work", "skill://d/SKILL.md", "any/file.md")
        .unwrap();
    assert_eq!((p.digest, p.size), (None, None));
    let big = vec![0u8; 16 * 1024 * 1024];
    let e = open
        .read(
            "work",
            "skill://d/SKILL.md",
            "big",
            Content::Bytes(big),
            Hashing::Here,
        )
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::LimitExceeded);
    assert!(open
        .read(
            "work",
            "skill://d/SKILL.md",
            "small",
            Content::Bytes(vec![1; 10]),
            Hashing::Here
        )
        .is_ok());
}

#[test]
fn listings_and_get_results() {
    let mut h = host();
    let a = Skill::new("skill://a/SKILL.md", &[]);
    let b = Skill::new("skill://b/SKILL.md", &[]);
    let list = format!(
        r#"{{"skills":[{},{{"uri":"skill://bad/SKILL.md"}},{}],"ttlMs":0,"cacheScope":"private"}}"#,
        a.entry_json(),
        b.entry_json()
    );
    let out = h.register_listing("work", &list).unwrap();
    assert_eq!(out.registered.len(), 2);
    assert_eq!(out.rejected.len(), 1);
    assert_eq!(
        (out.rejected[0].index, out.rejected[0].error.code),
        (1, ErrorCode::InvalidEntry)
    );
    let twice = format!("[{},{}]", a.entry_json(), a.entry_json());
    let out = h.register_listing("work", &twice).unwrap();
    assert_eq!((out.registered.len(), out.rejected.len()), (1, 1));
    assert_eq!(out.rejected[0].index, 1);
    let arr = format!("[{}]", a.entry_json());
    let out = h.register_listing("home", &arr).unwrap();
    assert!(out.registered[0].added);
    for bad in ["{}", "1", r#"{"resultType":"input_required","skills":[]}"#] {
        assert_eq!(
            h.register_listing("work", bad).unwrap_err().code,
            ErrorCode::InvalidArgument,
            "{bad}"
        );
    }
    let get = format!(r#"{{"resultType":"complete","skill":{}}}"#, b.entry_json());
    assert!(!h.register_get_result("work", &b.uri, &get).unwrap().added);
    let e = h.register_get_result("work", &a.uri, &get).unwrap_err();
    assert_eq!(
        (e.code, e.expected.as_deref()),
        (ErrorCode::InvalidEntry, Some(a.uri.as_str()))
    );
    assert_eq!(
        h.register_get_result("work", &a.uri, "{}")
            .unwrap_err()
            .code,
        ErrorCode::InvalidEntry
    );
    assert_eq!(
        h.refresh("work", Skill::new("skill://c/SKILL.md", &[]).entry())
            .unwrap_err()
            .code,
        ErrorCode::UnknownSkill
    );
    assert!(h.forget("work", &a.uri).unwrap());
    assert!(!h.forget("work", &a.uri).unwrap());
    assert!(h.entry("work", &a.uri).is_none());
    assert!(h.entry("home", &a.uri).is_some());
}

#[test]
fn entries_are_current_until_the_deadline_the_caller_sets() {
    let mut h = host();
    let s = Skill::new("skill://r/SKILL.md", &[]);
    // Unknown, then registered without a deadline: not current, nothing planned.
    assert_eq!(
        h.plan_load_current_for("work", &s.uri, 0.0, Purpose::Use)
            .unwrap(),
        None
    );
    assert!(!h.set_current_until("work", &s.uri, 10.0));
    h.register("work", s.entry()).unwrap();
    assert_eq!(
        h.plan_load_current_for("work", &s.uri, 0.0, Purpose::Use)
            .unwrap(),
        None
    );
    assert!(h.set_current_until("work", &s.uri, 10.0));
    assert!(h.is_current("work", &s.uri, 9.0));
    let plan = h
        .plan_load_current_for("work", &s.uri, 9.0, Purpose::Use)
        .unwrap()
        .unwrap();
    assert_eq!(plan, h.plan_load("work", &s.uri).unwrap());
    // The deadline itself is past; registering again or forgetting clears it.
    assert_eq!(
        h.plan_load_current_for("work", &s.uri, 10.0, Purpose::Use)
            .unwrap(),
        None
    );
    h.register("work", s.entry()).unwrap();
    assert!(!h.is_current("work", &s.uri, 0.0));
    h.set_current_until("work", &s.uri, 10.0);
    h.forget("work", &s.uri).unwrap();
    h.register("work", s.entry()).unwrap();
    assert!(!h.is_current("work", &s.uri, 0.0));
    // A current entry still gets every check of plan_load.
    let mut strict = SkillHost::new(HostOptions {
        allow_dynamic: false,
        require_approval: true,
        nested_without_approval: false,
    });
    strict.add_server("work").unwrap();
    strict.register("work", s.entry()).unwrap();
    strict.set_current_until("work", &s.uri, 10.0);
    assert_eq!(
        strict
            .plan_load_current_for("work", &s.uri, 0.0, Purpose::Use)
            .unwrap_err()
            .code,
        ErrorCode::NotApproved
    );
}

mod signed {
    use super::*;
    use crate::host::signature::tests::{entry_json, signed};
    use crate::host::signature::{SignerPolicy, SignerTrust};
    use crate::sign::SigningKey;

    fn key(n: u8) -> SigningKey {
        SigningKey::from_seed([n; 32])
    }

    fn md(name: &str) -> String {
        format!("---\nname: {name}\ndescription: d\n---\n# {name}\n")
    }

    fn skill(name: &str) -> serde_json::Value {
        let text = md(name);
        entry_json(name, &[("SKILL.md", text.as_bytes()), ("x.md", b"x")])
    }

    fn tofu() -> SkillHost {
        let mut h = host();
        h.set_signer_policy(SignerPolicy {
            trusted: vec![],
            trust_on_first_use: true,
        });
        h
    }

    #[test]
    fn registering_checks_the_signature_and_keeps_the_signer() {
        let mut h = tofu();
        h.set_origin("work", "https://skills.example").unwrap();
        assert_eq!(h.origin("work"), Some("https://skills.example"));
        let a = signed(&skill("a"), &key(1), "acme");
        h.register_listing("work", &format!("[{a}]")).unwrap();
        let s = h.summary("work", "skill://a/SKILL.md").unwrap();
        let signer = s.signer.unwrap();
        assert_eq!(
            (signer.catalog.as_str(), signer.trust),
            ("acme", SignerTrust::FirstUse)
        );
        assert_eq!(
            h.signers.pin("https://skills.example").unwrap().key,
            *key(1).public()
        );
        // Loading verifies the files against the entry the signature states.
        let uri = "skill://a/SKILL.md";
        h.load("work", uri, Content::Text(md("a")), Hashing::Here)
            .unwrap();
        // A changed byte of a file is the digest check's.
        let tampered = md("a").replace("# a", "# b");
        assert_eq!(
            h.load("work", uri, Content::Text(tampered), Hashing::Here)
                .unwrap_err()
                .code,
            ErrorCode::DigestMismatch
        );
        // Another signer is refused, and the entry registered before stays with its signer.
        let other = Entry::parse(&signed(&skill("a"), &key(2), "acme").to_string()).unwrap();
        assert_eq!(
            h.register("work", other.clone()).unwrap_err().code,
            ErrorCode::SignerChanged
        );
        assert_eq!(
            h.signer("work", uri).unwrap().key_id,
            key(1).public().key_id()
        );
        // Another server (its own origin, the label) is pinned on its own.
        h.register("home", other).unwrap();
        assert_eq!(h.signer("home", uri).unwrap().trust, SignerTrust::FirstUse);
        // Accepted, the change registers and pins again.
        assert!(h.accept_signer_change("https://skills.example"));
        let again = Entry::parse(&signed(&skill("a"), &key(2), "acme").to_string()).unwrap();
        h.register("work", again).unwrap();
        assert_eq!(
            h.signer("work", uri).unwrap().key_id,
            key(2).public().key_id()
        );
        // Forgetting a skill forgets its signer; the pins survive export.
        h.forget("work", uri).unwrap();
        assert!(h.signer("work", uri).is_none());
        let mut later = SkillHost::new(HostOptions::default());
        assert_eq!(later.import_pins(&h.export_pins()), Ok(2));
        assert!(later.signers.pin("home").is_some());
        assert_eq!(
            h.set_origin("work", "").unwrap_err().code,
            ErrorCode::InvalidArgument
        );
        assert_eq!(
            h.set_origin("nope", "o").unwrap_err().code,
            ErrorCode::UnknownServer
        );
    }

    #[test]
    fn a_listing_is_judged_as_a_whole() {
        // An unsigned skill listed before the first signed one is refused on first use as
        // it would be on every later listing.
        let list = format!(
            "[{},{},{}]",
            skill("u"),
            signed(&skill("a"), &key(1), "acme"),
            signed(&skill("b"), &key(2), "acme")
        );
        for _ in 0..2 {
            let mut h = tofu();
            let out = h.register_listing("work", &list).unwrap();
            let rejected: Vec<(usize, ErrorCode)> = out
                .rejected
                .iter()
                .map(|r| (r.index, r.error.code))
                .collect();
            assert_eq!(
                rejected,
                [(0, ErrorCode::SignerChanged), (2, ErrorCode::SignerChanged)]
            );
            assert_eq!(out.registered.len(), 1);
            assert_eq!(
                h.signer("work", "skill://a/SKILL.md").unwrap().trust,
                SignerTrust::FirstUse
            );
        }
        // Without trust on first use nothing pins, and every signature is reported.
        let mut h = host();
        let out = h.register_listing("work", &list).unwrap();
        assert!(out.rejected.is_empty());
        assert!(h.signer("work", "skill://u/SKILL.md").is_none());
        assert_eq!(
            h.signer("work", "skill://b/SKILL.md").unwrap().trust,
            SignerTrust::Announced
        );
        // A trust list refuses the unsigned and the untrusted, by position.
        let mut strict = host();
        strict.set_signer_policy(SignerPolicy {
            trusted: vec![key(2).public().clone()],
            trust_on_first_use: false,
        });
        let out = strict.register_listing("work", &list).unwrap();
        let rejected: Vec<(usize, ErrorCode)> = out
            .rejected
            .iter()
            .map(|r| (r.index, r.error.code))
            .collect();
        assert_eq!(
            rejected,
            [
                (0, ErrorCode::SignerUntrusted),
                (1, ErrorCode::SignerUntrusted)
            ]
        );
        assert_eq!(out.registered[0].uri, "skill://b/SKILL.md");
    }

    #[test]
    fn approvals_do_not_carry_over_to_another_signer_or_to_unsigned() {
        let uri = "skill://a/SKILL.md";
        let plain = Entry::parse(&skill("a").to_string()).unwrap();
        let by = |n: u8, catalog: &str| {
            Entry::parse(&signed(&skill("a"), &key(n), catalog).to_string()).unwrap()
        };
        let mut h = SkillHost::new(HostOptions {
            allow_dynamic: false,
            require_approval: true,
            nested_without_approval: false,
        });
        h.add_server("work").unwrap();
        // An unsigned skill keeps the fingerprint it always had.
        h.register("work", plain.clone()).unwrap();
        let f = h.approve("work", uri).unwrap();
        assert_eq!(f, approval_fingerprint("work", &plain).unwrap());
        // The same files signed: not the approved skill any more.
        let out = h.register("work", by(1, "acme")).unwrap();
        assert!(out.approval_revoked && !out.changed);
        assert_eq!(
            h.plan_load("work", uri).unwrap_err().code,
            ErrorCode::NotApproved
        );
        h.approve("work", uri).unwrap();
        assert!(h.is_approved("work", uri));
        let saved = h.export_approvals();
        // Another key, another catalog, unsigned: each revokes it.
        for other in [by(2, "acme"), by(1, "other"), plain.clone()] {
            let mut h2 = SkillHost::new(HostOptions::default());
            h2.add_server("work").unwrap();
            h2.import_approvals(&saved).unwrap();
            h2.register("work", by(1, "acme")).unwrap();
            assert!(h2.is_approved("work", uri));
            assert!(h2.register("work", other).unwrap().approval_revoked);
            assert!(!h2.is_approved("work", uri));
        }
        // Restored approvals check the signer as well.
        let mut h3 = SkillHost::new(HostOptions::default());
        h3.add_server("work").unwrap();
        h3.register("work", by(2, "acme")).unwrap();
        assert_eq!(h3.import_approvals(&saved), Ok(0));
    }
}

#[test]
fn limits_are_checked_before_loading() {
    let mut h = host();
    let big = Skill::new("skill://big/SKILL.md", &[])
        .entry_json()
        .replacen(r#""size":"#, r#""size":16777217,"x":"#, 1);
    h.register("work", Entry::parse(&big).unwrap()).unwrap();
    assert_eq!(
        h.plan_load("work", "skill://big/SKILL.md")
            .unwrap_err()
            .code,
        ErrorCode::LimitExceeded
    );
}
