//! Who may see what: `skills-edge.toml` read and checked (every build error with its rule id,
//! file, line and fix), glob semantics through the compiler, nested skills, audience classes,
//! grants, the access sections of a pack (format 6) round-tripped, and a catalog without rules
//! packed byte for byte as before access rules existed.

use skills_edge::catalog::access::{Audience, Grant, ACCESS_FILE};
use skills_edge::catalog::compile::signing::CatalogId;
use skills_edge::catalog::compile::{compile, Compiled, SourceTree};
use skills_edge::catalog::diag::{CompileError, Severity};
use skills_edge::catalog::pack::{self, AssetPolicy, PackErrorKind, PackOptions, VERSION};
use skills_edge::catalog::sign::SigningKey;
use skills_edge::catalog::Catalog;

fn md(name: &str) -> String {
    format!("---\nname: {name}\ndescription: The {name} skill, for the access tests.\n---\n\n# {name}\n")
}

/// A public skill, a private nested pair under `acme/billing/**` (scope `billing`), a skill
/// with scope `review`, and `tools/lint` public under a prefix shared with nothing private.
fn tree(rules: &str) -> SourceTree {
    let mut t = SourceTree::default();
    t.add_file("hello/SKILL.md", md("hello"));
    t.add_file("hello/references/tone.md", "Be kind.\n");
    t.add_file("acme/billing/invoices/SKILL.md", md("invoices"));
    t.add_file("acme/billing/invoices/references/rates.md", "rates\n");
    t.add_file("acme/billing/invoices/refunds/SKILL.md", md("refunds"));
    t.add_file(
        "acme/billing/invoices/refunds/skills-edge.toml",
        "an ordinary file\n",
    );
    t.add_file("code-review/SKILL.md", md("code-review"));
    t.add_file("acme/tools/lint/SKILL.md", md("lint"));
    if !rules.is_empty() {
        t.add_file(ACCESS_FILE, rules);
    }
    t
}

const RULES: &str = "[[access]]\nskills = [\"acme/billing/**\"]\nscopes = [\"billing\"]\n\n[[access]]\nskills = [\"code-review\"]\nscopes = [\"review\"]\n";

fn errors(rules: &str) -> Vec<(String, Option<usize>, String, String)> {
    let e: CompileError = compile(tree(rules)).expect_err("the rules are refused");
    e.errors()
        .map(|d| {
            (
                d.rule.id().to_owned(),
                d.line,
                d.message.clone(),
                d.fix.clone(),
            )
        })
        .inspect(|(_, _, _, fix)| assert!(!fix.is_empty()))
        .collect()
}

fn one_error(rules: &str) -> (String, Option<usize>, String) {
    let e: CompileError = compile(tree(rules)).expect_err("the rules are refused");
    let all: Vec<_> = e.errors().collect();
    assert_eq!(all.len(), 1, "{all:#?}");
    let d = all[0];
    assert_eq!(d.path, ACCESS_FILE);
    assert_eq!(d.severity, Severity::Error);
    assert!(!d.fix.is_empty());
    let rendered = e.render("skills");
    assert!(
        rendered.contains(&format!("error[{}]", d.rule.id())),
        "{rendered}"
    );
    assert!(rendered.contains("skills/skills-edge.toml"), "{rendered}");
    assert!(rendered.contains("fix: "), "{rendered}");
    (d.rule.id().to_owned(), d.line, d.message.clone())
}

#[test]
fn rules_make_classes_and_audiences() {
    let c = compile(tree(RULES)).expect("compiles");
    let a = c.access.as_ref().expect("private skills");
    assert_eq!(
        a.classes,
        [vec!["billing".to_owned()], vec!["review".to_owned()]]
    );
    let by_uri: Vec<(&str, u32)> = c
        .skills
        .iter()
        .enumerate()
        .map(|(i, s)| (s.uri.as_str(), c.skill_class(i)))
        .collect();
    assert_eq!(
        by_uri,
        [
            ("skill://acme/billing/invoices/SKILL.md", 1),
            ("skill://acme/billing/invoices/refunds/SKILL.md", 1),
            ("skill://acme/tools/lint/SKILL.md", 0),
            ("skill://code-review/SKILL.md", 2),
            ("skill://hello/SKILL.md", 0),
        ]
    );
    let w: Vec<&str> = c.warnings.iter().map(|d| d.rule.id()).collect();
    assert_eq!(w, ["access-needs-auth"]);
    assert!(c.warnings[0].message.contains("3 of 5 skills are private"));
    assert!(c.warnings[0].message.contains("to nobody"));
}

#[test]
fn the_access_file_at_the_root_is_never_served_and_one_in_a_skill_is() {
    let c = compile(tree(RULES)).unwrap();
    let uris: Vec<&str> = c.files.iter().map(|f| f.uri.as_str()).collect();
    assert!(!uris.contains(&"skill://skills-edge.toml"));
    assert!(uris.contains(&"skill://acme/billing/invoices/refunds/skills-edge.toml"));
    // No file-outside-skill warning for it either.
    assert!(c
        .warnings
        .iter()
        .all(|d| d.path != ACCESS_FILE || d.rule.id() == "access-needs-auth"));
}

#[test]
fn a_file_without_rules_or_with_every_skill_public_changes_nothing() {
    let plain = compile(tree("")).unwrap();
    let empty = compile(tree("# nothing yet\n")).unwrap();
    assert!(empty.access.is_none());
    assert!(empty.warnings.is_empty(), "{:?}", empty.warnings);
    assert_eq!(pack::encode(&plain, None), pack::encode(&empty, None));
    let cat = Catalog::compile(tree(""), None).unwrap();
    let all: Vec<usize> = cat.visible_skills(Grant::PUBLIC, 1).collect();
    assert_eq!(all, [1, 2, 3, 4], "every skill from the index on");
    assert_eq!(cat.visible_skill_count(Grant::from_mask(3)), 5);
}

#[test]
fn either_rules_scopes_grant_sight() {
    let rules = "[[access]]\nskills = [\"code-review\"]\nscopes = [\"review\"]\n[[access]]\nskills = [\"code-*\"]\nscopes = [\"audit\", \"review\"]\n";
    let c = compile(tree(rules)).unwrap();
    let a = c.access.unwrap();
    assert_eq!(a.classes, [vec!["audit".to_owned(), "review".to_owned()]]);
    let cat = Catalog::compile(tree(rules), None).unwrap();
    let i = cat.skill_index("skill://code-review/SKILL.md").unwrap();
    for scopes in [&["audit"][..], &["review"], &["x", "review"]] {
        assert!(cat.skill_visible(i, cat.grant(scopes)), "{scopes:?}");
    }
    assert!(!cat.skill_visible(i, cat.grant(&["reviews"])));
    assert!(!cat.skill_visible(i, Grant::PUBLIC));
}

#[test]
fn every_syntax_error_names_the_rule_file_line_and_fix() {
    let cases: &[(&str, &str, usize, &str)] = &[
        ("[[access]\n", "access-file", 1, "not valid TOML"),
        ("owner = \"x\"\n", "access-file", 1, "unknown key \"owner\""),
        ("access = 3\n", "access-file", 1, "not an array of tables"),
        (
            "[[access]]\nskills = [\"hello\"]\nscopes = [\"a\"]\nreaders = [\"b\"]\n",
            "access-file",
            4,
            "unknown key \"readers\"",
        ),
        (
            "[[access]]\nscopes = [\"a\"]\n",
            "access-file",
            1,
            "no `skills`",
        ),
        (
            "[[access]]\nskills = [\"hello\"]\n",
            "access-file",
            1,
            "no `scopes`",
        ),
        (
            "[[access]]\nskills = []\nscopes = [\"a\"]\n",
            "access-file",
            2,
            "`skills` is empty",
        ),
        (
            "[[access]]\nskills = [\"hello\"]\nscopes = []\n",
            "access-file",
            3,
            "`scopes` is empty",
        ),
        (
            "[[access]]\nskills = \"hello\"\nscopes = [\"a\"]\n",
            "access-file",
            2,
            "not an array of strings",
        ),
        (
            "[[access]]\nskills = [\"hello\"]\nscopes = [1]\n",
            "access-file",
            3,
            "not an array of strings",
        ),
        (
            "[[access]]\nskills = [\"hell?\"]\nscopes = [\"a\"]\n",
            "access-file",
            1,
            "\"hell?\" uses '?'",
        ),
        (
            "[[access]]\nskills = [\"[hello]\"]\nscopes = [\"a\"]\n",
            "access-file",
            1,
            "uses '['",
        ),
        (
            "[[access]]\nskills = [\"{a,b}\"]\nscopes = [\"a\"]\n",
            "access-file",
            1,
            "uses '{'",
        ),
        (
            "[[access]]\nskills = [\"acme/**x\"]\nscopes = [\"a\"]\n",
            "access-file",
            1,
            "** inside a segment",
        ),
        (
            "[[access]]\nskills = [\"skill://hello\"]\nscopes = [\"a\"]\n",
            "access-file",
            1,
            "starts with skill://",
        ),
        (
            "[[access]]\nskills = [\"hello\"]\nscopes = [\"two words\"]\n",
            "access-file",
            1,
            "\"two words\" is not an OAuth scope token",
        ),
        (
            "[[access]]\nskills = [\"hello\"]\nscopes = [\"q\\\"\"]\n",
            "access-file",
            1,
            "not an OAuth scope token",
        ),
        (
            "\n\n[[access]]\nskills = [\"helo\"]\nscopes = [\"a\"]\n",
            "access-pattern",
            3,
            "\"helo\" matches no skill",
        ),
        (
            "[[access]]\nskills = [\"acme/*\"]\nscopes = [\"a\"]\n",
            "access-pattern",
            1,
            "\"acme/*\" matches no skill",
        ),
    ];
    for (rules, rule, line, message) in cases {
        let (r, l, m) = one_error(rules);
        assert_eq!((r.as_str(), l), (*rule, Some(*line)), "{rules:?}: {m}");
        assert!(m.contains(message), "{rules:?}: {m}");
    }
}

#[test]
fn a_nested_skill_has_its_parents_audience() {
    // More visible than its parent: the nested skill public, or with another scope.
    let (r, line, m) =
        one_error("[[access]]\nskills = [\"acme/billing/invoices\"]\nscopes = [\"billing\"]\n");
    assert_eq!((r.as_str(), line), ("access-nested", Some(1)));
    assert!(m.contains("acme/billing/invoices/refunds (public)"), "{m}");
    assert!(
        m.contains("nested in the skill acme/billing/invoices (scopes billing)"),
        "{m}"
    );
    assert!(m.contains("would see the nested one"), "{m}");
    let (r, _, m) = one_error(
        "[[access]]\nskills = [\"acme/billing/**\"]\nscopes = [\"billing\"]\n[[access]]\nskills = [\"acme/billing/invoices/refunds\"]\nscopes = [\"refunds\"]\n",
    );
    assert_eq!(r, "access-nested");
    assert!(m.contains("(scopes billing refunds)"), "{m}");
    // Narrower than its parent: its files would be in the parent's manifest.
    let (r, _, m) = one_error(
        "[[access]]\nskills = [\"acme/billing/invoices/refunds\"]\nscopes = [\"billing\"]\n",
    );
    assert_eq!(r, "access-nested");
    assert!(m.contains("in the outer skill's manifest"), "{m}");
    let e = errors(
        "[[access]]\nskills = [\"acme/billing/invoices/refunds\"]\nscopes = [\"billing\"]\n",
    );
    assert!(
        e[0].3.contains(
            "give acme/billing/invoices/refunds the same scopes as acme/billing/invoices"
        ),
        "{}",
        e[0].3
    );
}

#[test]
fn more_than_64_classes_is_an_error_naming_the_count() {
    let mut t = SourceTree::default();
    let mut rules = String::new();
    for i in 0..65 {
        t.add_file(&format!("s{i}/SKILL.md"), md(&format!("s{i}")));
        rules.push_str(&format!(
            "[[access]]\nskills = [\"s{i}\"]\nscopes = [\"scope{i}\"]\n"
        ));
    }
    t.add_file(ACCESS_FILE, rules.clone());
    let e = compile(t).expect_err("65 classes");
    let d: Vec<_> = e.errors().collect();
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].rule.id(), "access-classes");
    assert!(
        d[0].message.contains("65 distinct scope sets"),
        "{}",
        d[0].message
    );
    assert!(d[0].message.contains("limit is 64"));
    // 64 is fine, and the last class works through a grant.
    let mut t = SourceTree::default();
    let mut rules = String::new();
    for i in 0..64 {
        t.add_file(&format!("s{i:02}/SKILL.md"), md(&format!("s{i:02}")));
        rules.push_str(&format!(
            "[[access]]\nskills = [\"s{i:02}\"]\nscopes = [\"scope{i:02}\"]\n"
        ));
    }
    t.add_file(ACCESS_FILE, rules);
    let cat = Catalog::compile(t, None).expect("64 classes");
    assert_eq!(cat.class_count(), 64);
    let g = cat.grant(&["scope63"]);
    assert_eq!(g.mask(), 1 << 63);
    let visible: Vec<usize> = cat.visible_skills(g, 0).collect();
    assert_eq!(visible, [63]);
}

#[test]
fn grants_and_visible_lists_come_from_the_pack() {
    let cat = Catalog::compile(tree(RULES), None).unwrap();
    assert_eq!(cat.format_version(), VERSION);
    assert!(cat.has_private());
    assert_eq!(cat.class_scopes(1), ["billing"]);
    assert_eq!(cat.class_scopes(2), ["review"]);
    assert!(cat.class_scopes(0).is_empty() && cat.class_scopes(3).is_empty());
    let anon = Grant::PUBLIC;
    let billing = cat.grant(&["billing"]);
    let both = cat.grant(&["review", "billing", "other"]);
    assert_eq!((billing.mask(), both.mask()), (0b01, 0b11));
    assert_eq!(cat.grant(&["other"]), Grant::PUBLIC);
    let names = |g: Grant, from: usize| -> Vec<&str> {
        cat.visible_skills(g, from)
            .map(|i| cat.skill_at(i).unwrap().name)
            .collect()
    };
    assert_eq!(names(anon, 0), ["lint", "hello"]);
    assert_eq!(names(billing, 0), ["invoices", "refunds", "lint", "hello"]);
    assert_eq!(
        names(both, 0),
        ["invoices", "refunds", "lint", "code-review", "hello"]
    );
    assert_eq!(names(both, 2), ["lint", "code-review", "hello"]);
    assert_eq!(cat.visible_skill_count(billing), 4);
    // Files: a private skill's files are its class's.
    let f = cat
        .file_index("skill://acme/billing/invoices/references/rates.md")
        .unwrap();
    assert!(!cat.file_visible(f, anon) && cat.file_visible(f, billing));
    let f = cat.file_index("skill://hello/references/tone.md").unwrap();
    assert!(cat.file_visible(f, anon));
    // Directories: public when any public skill is under them.
    let acme = cat.dir("skill://acme").unwrap();
    assert_eq!(
        acme.audience,
        Audience {
            public: true,
            private: 0b01
        }
    );
    let billing_dir = cat.dir("skill://acme/billing").unwrap();
    assert!(!anon.sees(billing_dir.audience) && billing.sees(billing_dir.audience));
    let children: Vec<(String, bool)> = (0..acme.len())
        .map(|i| {
            let j = acme.child(i).unwrap().to_string();
            (
                j.split('"').nth(3).unwrap().to_owned(),
                acme.child_visible(i, anon),
            )
        })
        .collect();
    assert_eq!(
        children,
        [
            ("skill://acme/billing".to_owned(), false),
            ("skill://acme/tools".to_owned(), true)
        ]
    );
    // Assembled replies name only what the grant sees.
    let i_anon = cat.assembled_instructions(anon).unwrap();
    assert_eq!(
        i_anon,
        cat.instructions(anon),
        "the pack's own instructions are the anonymous ones"
    );
    assert!(!i_anon.contains("invoices") && !i_anon.contains("code-review"));
    let i_billing = cat.instructions(billing);
    assert!(matches!(i_billing, std::borrow::Cow::Owned(_)));
    assert!(i_billing.contains("skill://acme/billing/invoices/SKILL.md (invoices)"));
    assert!(!i_billing.contains("code-review"));
    // The anonymous caller's replies are kept after their first use: the same text on a
    // second call, and still without the private skills.
    let m_anon = cat.mirror_index(anon);
    assert_eq!(m_anon, cat.mirror_index(anon));
    assert!(!m_anon.contains("invoices"));
    let m: serde_json::Value = serde_json::from_str(&cat.mirror_index(both)).unwrap();
    let mirrored: Vec<&str> = m["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        mirrored,
        ["code-review", "hello", "invoices", "lint", "refunds"]
    );
    let f = cat.fallback().unwrap();
    for _ in 0..2 {
        let prompts = cat.prompts_json(anon).unwrap();
        let listed = cat.list_skills_json(anon).unwrap();
        for json in [&prompts, &listed] {
            assert!(json.contains("hello") && json.contains("lint"), "{json}");
            assert!(
                !json.contains("invoices") && !json.contains("code-review"),
                "{json}"
            );
        }
    }
    assert!(!f.tools_json().contains("invoices") && !f.tools_json().contains("in all"));
    let p: serde_json::Value = serde_json::from_str(&cat.prompts_json(billing).unwrap()).unwrap();
    let prompts: Vec<&str> = p
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["name"].as_str().unwrap())
        .collect();
    assert_eq!(prompts, ["hello", "invoices", "lint", "refunds"]);
    let l: serde_json::Value =
        serde_json::from_str(&cat.list_skills_json(billing).unwrap()).unwrap();
    let text: serde_json::Value =
        serde_json::from_str(l["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(text, l["structuredContent"]);
    assert_eq!(
        l["structuredContent"]["skills"].as_array().unwrap().len(),
        4
    );
}

#[test]
fn instructions_given_at_pack_time_are_the_same_for_everybody() {
    let c = compile(tree(RULES)).unwrap();
    let cat = Catalog::from_bytes(pack::encode(&c, Some("Ask the team."))).unwrap();
    assert_eq!(cat.instructions(Grant::PUBLIC), "Ask the team.");
    let billing = cat.instructions(cat.grant(&["billing"]));
    assert!(matches!(
        billing,
        std::borrow::Cow::Borrowed("Ask the team.")
    ));
}

#[test]
fn a_signed_catalog_with_rules_round_trips() {
    let mut c = compile(tree(RULES)).unwrap();
    c.sign(
        &SigningKey::from_seed([9; 32]),
        &CatalogId::new("--catalog-id", "urn:example:access").unwrap(),
    );
    let p = pack::encode_with(
        &c,
        &PackOptions {
            instructions: None,
            assets: Some(AssetPolicy { inline_max: 0 }),
        },
    );
    let cat = Catalog::from_bytes(p.pack).unwrap();
    assert_eq!(cat.format_version(), VERSION);
    assert!(cat.is_signed() && cat.has_private());
    let m: serde_json::Value =
        serde_json::from_str(&cat.mirror_index(cat.grant(&["review"]))).unwrap();
    assert!(
        m["_meta"].is_object(),
        "the signed index keeps its _meta: {m}"
    );
    let item = &m["skills"][0];
    assert_eq!(item["name"], "code-review");
    assert_eq!(
        item["_meta"][skills_edge::catalog::sign::DSSE_META_KEY],
        "/.well-known/agent-skills/code-review.dsse.json"
    );
    assert!(cat.mirrored_signature("code-review").is_some());
}

#[test]
fn the_pack_reader_refuses_access_sections_out_of_place() {
    let with = pack::encode(&compile(tree(RULES)).unwrap(), None);
    // Section 13 under a tag this build does not know: still marked required, it is refused
    // as such; marked optional, it is ignored and the access sections are incomplete.
    let renamed = |required: bool, kind: PackErrorKind| {
        let mut b = with.clone();
        let t = pack::section_table(&b).unwrap();
        for k in 0..t.count {
            let at = t.start + k * t.record_len;
            if b[at..at + 4] == 13u32.to_le_bytes() {
                b[at..at + 4].copy_from_slice(&99u32.to_le_bytes());
                b[at + 12..at + 16].copy_from_slice(&u32::from(required).to_le_bytes());
            }
        }
        pack::seal(&mut b);
        refused!(Catalog::from_bytes(b), kind)
    };
    let e = renamed(true, PackErrorKind::OtherVersion);
    assert!(
        e.contains("section 99 is required to serve the pack, and this build does not know it"),
        "{e}"
    );
    let e = renamed(false, PackErrorKind::Inconsistent);
    assert!(
        e.contains("a pack with access rules has all of its access sections (12 to 18 and 20), but this one lacks some"),
        "{e}"
    );
}

/// The fixture of the entries' golden digests (the same tree as before access rules existed,
/// with a `skills-edge.toml` inside a skill, which stays an ordinary file).
fn golden_fixture() -> SourceTree {
    let md = |name: &str, extra: &str| {
        format!("---\nname: {name}\ndescription: The {name} skill, for the pack tests.\n---\n\n# {name}\n{extra}")
    };
    let mut t = SourceTree::default();
    t.add_file("solo/SKILL.md", md("solo", ""));
    t.add_file("full/SKILL.md", md("full", "Read `references/a.md`.\n"));
    t.add_file("full/references/a.md", "# A\n\n\"quoted\" \\ text\n");
    t.add_file("full/assets/logo.bin", vec![0u8, 159, 146, 150, 255, 1, 2]);
    t.add_file("full/inner/SKILL.md", md("inner", ""));
    t.add_file(
        "full/inner/skills-edge.toml",
        "an ordinary file of a skill\n",
    );
    t.add_file("acme/x/twin/SKILL.md", md("twin", ""));
    t.add_file("acme/y/twin/SKILL.md", md("twin", ""));
    t.add_file("acme/y/twin/notes.txt", "y".repeat(10_000));
    t
}

/// A catalog without rules has no access section, and an unsigned one no signature section:
/// what a catalog has is said by its sections, in the one format version.
#[test]
fn packs_without_rules_have_no_access_sections() {
    let c: Compiled = compile(golden_fixture()).unwrap();
    assert!(c.access.is_none());
    let tags = |b: &[u8]| -> Vec<u32> {
        let t = pack::section_table(b).unwrap();
        (0..t.count)
            .map(|k| {
                let at = t.start + k * t.record_len;
                u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
            })
            .collect()
    };
    let plain = pack::encode(&c, None);
    assert_eq!(
        u32::from_le_bytes(plain[8..12].try_into().unwrap()),
        VERSION
    );
    // Section 21, the search index, is in every pack (docs/search.md).
    assert_eq!(tags(&plain), [1, 2, 3, 4, 5, 6, 7, 8, 9, 21]);
    let assets = pack::encode_with(
        &c,
        &PackOptions {
            instructions: None,
            assets: Some(AssetPolicy { inline_max: 0 }),
        },
    );
    assert_eq!(tags(&assets.pack), [1, 2, 19, 3, 4, 5, 6, 7, 8, 9, 21]);
    let mut s = c.clone();
    let seed: [u8; 32] = std::array::from_fn(|i| (i as u8).wrapping_mul(37).wrapping_add(11));
    s.sign(
        &SigningKey::from_seed(seed),
        &CatalogId::new("--catalog-id", "urn:example:golden").unwrap(),
    );
    let signed = pack::encode(&s, None);
    assert_eq!(tags(&signed), [1, 2, 3, 4, 5, 6, 7, 8, 9, 21, 10, 11]);
    let with_rules = pack::encode(&compile(tree(RULES)).unwrap(), None);
    assert_eq!(
        tags(&with_rules),
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 14, 15, 16, 17, 18, 20, 21]
    );
}

#[test]
fn check_prints_each_skills_audience() {
    let c = compile(tree(RULES)).unwrap();
    assert_eq!(
        c.audience_report().unwrap(),
        "audience: acme/billing/invoices: scopes billing\n\
         audience: acme/billing/invoices/refunds: scopes billing\n\
         audience: acme/tools/lint: public\n\
         audience: code-review: scopes review\n\
         audience: hello: public\n"
    );
    assert_eq!(compile(tree("")).unwrap().audience_report(), None);
}
