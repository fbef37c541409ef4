//! Invalid skills that need not block the others (`Options::skip_invalid`,
//! `SKILLS_ON_INVALID=skip`, `--skip-invalid`). The fixture is generated in the shape of the
//! public `anthropics/skills` catalog: 17 skills with scripts, references, templates, fonts
//! and images, one of them with a 1068-character description (over the 1024 the Agent Skills
//! rules allow). By default the build fails and lists the problem; with the option that skill
//! is left out, its error printed as a warning naming it, and the other 16 are published.

use crate::common;

use common::real_like::{real_like, TOO_LONG};
use common::skill_md;
use skills_edge::catalog::compile::{compile, compile_with, Options, SourceTree};
use skills_edge::catalog::diag::Severity;
use skills_edge::host::Entry;

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
