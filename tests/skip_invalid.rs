//! Invalid skills that need not block the others (`Options::skip_invalid`,
//! `SKILLS_ON_INVALID=skip`, `--skip-invalid`). The fixture is generated in the shape of the
//! public `anthropics/skills` catalog: 17 skills with scripts, references, templates, fonts
//! and images, one of them with a 1068-character description (over the 1024 the Agent Skills
//! rules allow). By default the build fails and lists the problem; with the option that skill
//! is left out, its error printed as a warning naming it, and the other 16 are published.

mod common;

use common::*;
use skills_edge::catalog::compile::{compile, compile_with, Options, SourceTree};
use skills_edge::catalog::diag::Severity;
use skills_edge::catalog::walk;
use skills_edge::host::Entry;
use std::process::Command;

/// The names of the skills of the fixture, as the public catalog names its skills.
const NAMES: [&str; 17] = [
    "algorithmic-art",
    "brand-guidelines",
    "canvas-design",
    "doc-coauthoring",
    "docx",
    "frontend-design",
    "internal-comms",
    "mcp-builder",
    "pdf",
    "pptx",
    "skill-creator",
    "slack-gif-creator",
    "template-skill",
    "theme-factory",
    "web-artifacts-builder",
    "webapp-testing",
    "xlsx",
];

/// The skill whose description is too long.
const TOO_LONG: &str = "theme-factory";

/// A catalog shaped like a real one, generated (deterministic bytes).
fn real_like() -> SourceTree {
    let mut t = SourceTree::default();
    let mut rng = Rng(0x5eed_c0de_0f15_5151);
    for (i, name) in NAMES.iter().enumerate() {
        let description = if *name == TOO_LONG {
            let base = "Applies a theme (colours, fonts, spacing) to slides, documents and pages. ";
            let mut d = base.repeat(1068 / base.len() + 1);
            d.truncate(1068);
            d
        } else {
            format!(
                "Use this skill when the task involves {name}: what it does, and when to use it."
            )
        };
        assert!(*name != TOO_LONG || description.chars().count() == 1068);
        t.add_file(
            &format!("{name}/SKILL.md"),
            format!(
                "---\nname: {name}\ndescription: {description:?}\nlicense: Proprietary. LICENSE.txt has complete terms\n---\n\n# {name}\n\nRead `reference.md` first.\n"
            ),
        );
        t.add_file(
            &format!("{name}/LICENSE.txt"),
            "All rights reserved.\n".repeat(20),
        );
        t.add_file(
            &format!("{name}/reference.md"),
            format!(
                "# Reference of {name}\n\n{}",
                "Some guidance. ".repeat(200 + i * 7)
            ),
        );
        t.add_file(
            &format!("{name}/scripts/run.py"),
            format!("#!/usr/bin/env python3\nprint({name:?})\n"),
        );
        // Binary assets: fonts and images, a few KiB each.
        let n = 2 + (rng.next_u64() % 3) as usize;
        for j in 0..n {
            let len = 2048 + (rng.next_u64() % 8192) as usize;
            let bytes: Vec<u8> = (0..len).map(|_| (rng.next_u64() >> 56) as u8).collect();
            let ext = if j % 2 == 0 { "ttf" } else { "png" };
            t.add_file(&format!("{name}/assets/file-{j}.{ext}"), bytes);
        }
    }
    t
}

#[test]
fn by_default_one_invalid_skill_stops_the_build_and_is_named() {
    let e = compile(real_like()).expect_err("the build refuses the folder");
    let errors: Vec<_> = e.errors().collect();
    assert_eq!(errors.len(), 1, "{}", e.render("skills"));
    assert_eq!(errors[0].rule.id(), "description-length");
    assert_eq!(errors[0].path, format!("{TOO_LONG}/SKILL.md"));
    assert!(
        errors[0].message.contains("1068 characters"),
        "{}",
        errors[0].message
    );
    assert!(e
        .render("skills")
        .ends_with("1 error in the skills folder; nothing was published"));
}

#[test]
fn with_skip_invalid_the_other_skills_are_published() {
    let c = compile_with(
        real_like(),
        Options {
            skip_invalid: true,
            ..Options::default()
        },
    )
    .expect("the rest is published");
    assert_eq!(c.skills.len(), 16);
    assert!(c.skills.iter().all(|s| s.name != TOO_LONG));
    assert!(c
        .files
        .iter()
        .all(|f| !f.uri.starts_with(&format!("skill://{TOO_LONG}/"))));
    // Its error is now a warning naming the skill, next to a warning that it was left out.
    let about: Vec<_> = c
        .warnings
        .iter()
        .filter(|w| w.path.starts_with(TOO_LONG))
        .collect();
    assert_eq!(about.len(), 2, "{:?}", c.warnings);
    assert!(about.iter().all(|w| w.severity == Severity::Warning));
    assert_eq!(about[0].rule.id(), "skill-left-out");
    assert!(about[0]
        .message
        .contains(&format!("the skill {TOO_LONG} is left out")));
    assert_eq!(about[1].rule.id(), "description-length");
    assert!(about[1]
        .message
        .contains(&format!("(skill {TOO_LONG} left out)")));
    // No noise about its files, which simply are not served.
    assert!(c
        .warnings
        .iter()
        .all(|w| w.rule.id() != "file-outside-skill"));
    // The published entries are complete and valid.
    for s in &c.skills {
        let e = Entry::parse(&c.entry_json(s)).expect("valid");
        assert_eq!(e.items().map(<[_]>::len), Some(s.files.len()));
    }
    // With nothing invalid, the option changes nothing.
    let mut valid = real_like();
    valid.files.retain(|f| !f.path.starts_with(TOO_LONG));
    let a = compile(valid.clone()).expect("valid");
    let b = compile_with(
        valid,
        Options {
            skip_invalid: true,
            ..Options::default()
        },
    )
    .expect("valid");
    assert_eq!(
        a.skills.iter().map(|s| a.entry_json(s)).collect::<Vec<_>>(),
        b.skills.iter().map(|s| b.entry_json(s)).collect::<Vec<_>>()
    );
}

#[test]
fn a_left_out_nested_skill_stays_a_directory_of_the_skill_around_it() {
    let mut t = SourceTree::default();
    t.add_file("outer/SKILL.md", skill_md("outer", ""));
    t.add_file("outer/notes.md", "notes\n");
    t.add_file(
        "outer/inner/SKILL.md",
        "---\nname: wrong-name\ndescription: d\n---\n",
    );
    t.add_file("outer/inner/helper.md", "help\n");
    let skip = Options {
        skip_invalid: true,
        ..Options::default()
    };
    let c = compile_with(t, skip).expect("outer is published");
    assert_eq!(c.skills.len(), 1);
    let outer = &c.skills[0];
    let uris: Vec<&str> = outer
        .files
        .iter()
        .map(|&i| c.files[i].uri.as_str())
        .collect();
    assert_eq!(
        uris,
        [
            "skill://outer/SKILL.md",
            "skill://outer/inner/SKILL.md",
            "skill://outer/inner/helper.md",
            "skill://outer/notes.md"
        ]
    );
    assert!(c
        .warnings
        .iter()
        .any(|w| w.rule.id() == "skill-left-out" && w.path == "outer/inner"));

    // An invalid outer skill is left out; a valid skill nested in it is published.
    let mut t = SourceTree::default();
    t.add_file("outer/SKILL.md", "---\nname: outer\n---\n");
    t.add_file("outer/notes.md", "notes\n");
    t.add_file("outer/inner/SKILL.md", skill_md("inner", ""));
    let c = compile_with(t, skip).expect("inner is published");
    assert_eq!(
        c.skills.iter().map(|s| s.uri.as_str()).collect::<Vec<_>>(),
        ["skill://outer/inner/SKILL.md"]
    );
    assert_eq!(
        c.files.iter().map(|f| f.uri.as_str()).collect::<Vec<_>>(),
        ["skill://outer/inner/SKILL.md"]
    );
}

#[test]
fn errors_of_the_folder_itself_still_fail() {
    let mut t = SourceTree::default();
    t.add_file("good/SKILL.md", skill_md("good", ""));
    t.add_file(
        "bad name.md",
        "outside every skill, and not a publishable name\n",
    );
    let e = compile_with(
        t,
        Options {
            skip_invalid: true,
            ..Options::default()
        },
    )
    .expect_err("a path error outside every skill is the folder's");
    assert_eq!(e.errors().count(), 1);
    assert_eq!(e.errors().next().unwrap().rule.id(), "path-segment");
}

#[test]
fn the_check_and_pack_commands_skip_as_the_option_does() {
    let dir = TempDir::new("skip-invalid");
    let tree = real_like();
    for f in &tree.files {
        dir.write(&f.path, &f.bytes);
    }
    let bin = env!("CARGO_BIN_EXE_skills-edge");
    let refused = Command::new(bin)
        .arg("check")
        .arg(dir.path())
        .output()
        .expect("runs");
    assert_eq!(refused.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("error[description-length]"), "{stderr}");
    let d = dir.path().to_str().expect("a UTF-8 temp path");
    for args in [
        vec!["check", "--skip-invalid", d],
        vec!["pack", d, "--check", "--skip-invalid"],
    ] {
        let out = Command::new(bin).args(&args).output().expect("runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(stderr.contains("warning[skill-left-out]"), "{stderr}");
        assert!(stderr.contains("warning[description-length]"), "{stderr}");
        assert!(stderr.contains(": 16 skills,"), "{stderr}");
        let entries: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        assert_eq!(entries.as_array().map(Vec::len), Some(16));
    }
    // The walker reads the same tree as the fixture.
    assert_eq!(walk::walk(dir.path()).tree.files.len(), tree.files.len());
}
