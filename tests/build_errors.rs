//! Hostile skills folders, built in temporary directories and compiled with the build's own
//! code (`catalog::walk::walk` + `catalog::compile::compile`). Each case asserts the exact
//! errors: the rule id, the path, the line where there is one, and a phrase of the message or
//! fix. Warnings (duplicate names, reserved metadata keys, stray files, junk files, case
//! collisions) must leave the catalog publishable.

use crate::common;

use common::*;
use skills_edge::catalog::compile::{self, SourceTree};
use skills_edge::catalog::diag::{CompileError, Diagnostic, Severity};
use skills_edge::catalog::Catalog;
use skills_edge::skill::limits::MAX_BYTES_PER_SKILL;

/// One expected diagnostic: rule id, path, line, and a phrase of its message or fix.
type Want<'a> = (&'a str, &'a str, Option<usize>, &'a str);

fn describe(diags: &[Diagnostic]) -> String {
    diags
        .iter()
        .map(|d| format!("  {}\n", d.render("")))
        .collect()
}

/// Asserts that compiling `dir` fails with exactly `want` as its errors (in path order).
fn assert_errors(dir: &TempDir, label: &str, want: &[Want<'_>]) -> CompileError {
    let e = match dir.compile() {
        Ok(_) => panic!("{label}: the folder compiled, expected {want:?}"),
        Err(e) => e,
    };
    let errors: Vec<Diagnostic> = e.errors().cloned().collect();
    assert_eq!(
        errors.len(),
        want.len(),
        "{label}: expected {} error(s), got:\n{}",
        want.len(),
        describe(&errors)
    );
    for (d, (rule, path, line, phrase)) in errors.iter().zip(want) {
        let got = format!("{}\n{}", d.message, d.fix);
        assert!(
            d.rule.id() == *rule && d.path == *path && d.line == *line && got.contains(phrase),
            "{label}: expected {rule} at {path}:{line:?} mentioning {phrase:?}, got:\n{}",
            describe(&errors)
        );
        assert_eq!(d.severity, Severity::Error);
    }
    e
}

/// Asserts that `dir` compiles, returning its warnings as (rule, path) pairs.
fn assert_publishable(dir: &TempDir, label: &str) -> (compile::Compiled, Vec<(String, String)>) {
    match dir.compile() {
        Ok(c) => {
            let w = c
                .warnings
                .iter()
                .map(|d| {
                    assert_eq!(d.severity, Severity::Warning);
                    (d.rule.id().to_owned(), d.path.clone())
                })
                .collect();
            (c, w)
        }
        Err(e) => panic!(
            "{label}: expected a publishable folder, got:\n{}",
            e.render("")
        ),
    }
}

/// A folder with one skill directory `dir` whose SKILL.md is `content`.
fn one_skill(dir: &str, content: impl AsRef<[u8]>) -> TempDir {
    let t = TempDir::new(dir);
    t.write(&format!("{dir}/SKILL.md"), content);
    t
}

// ------------------------------------------------------------------------------------------
// Frontmatter and fields
// ------------------------------------------------------------------------------------------

#[test]
fn frontmatter_delimiters_and_structure() {
    let cases: &[(&str, &str, &str, Option<usize>, &str)] = &[
        (
            "no opening fence",
            "name: a\ndescription: d\n---\n",
            "frontmatter-missing-opening-fence",
            Some(1),
            "---",
        ),
        (
            "blank line before the fence",
            "\n---\nname: a\ndescription: d\n---\n",
            "frontmatter-missing-opening-fence",
            Some(1),
            "---",
        ),
        (
            "no closing fence",
            "---\nname: a\ndescription: d\n\n# Body\n",
            "frontmatter-missing-closing-fence",
            Some(1),
            "never closed",
        ),
        (
            "closing fence with a trailing space",
            "---\nname: a\ndescription: d\n--- \n",
            "frontmatter-ambiguous-fence",
            Some(4),
            "trailing",
        ),
        (
            "byte order mark",
            "\u{feff}---\nname: a\ndescription: d\n---\n",
            "frontmatter-byte-order-mark",
            Some(1),
            "BOM",
        ),
        (
            "empty block",
            "---\n---\n# Body\n",
            "frontmatter-empty-block",
            Some(2),
            "empty",
        ),
        (
            "a list, not a mapping",
            "---\n- name\n- description\n---\n",
            "frontmatter-not-a-mapping",
            Some(2),
            "mapping",
        ),
        (
            "a scalar, not a mapping",
            "---\njust some text\n---\n",
            "frontmatter-not-a-mapping",
            Some(2),
            "mapping",
        ),
        (
            "YAML syntax error",
            "---\nname: a\ndescription: [unclosed\n---\n",
            "frontmatter-yaml-syntax",
            Some(3),
            "invalid YAML",
        ),
    ];
    for (label, content, rule, line, phrase) in cases {
        let t = one_skill("a", content);
        assert_errors(&t, label, &[(rule, "a/SKILL.md", *line, phrase)]);
    }
}

#[test]
fn name_rules() {
    let long = "a".repeat(65);
    let cases: Vec<(&str, String, String, &str, &str)> = vec![
        (
            "missing name",
            "a".into(),
            "---\ndescription: d\n---\n".into(),
            "name-required",
            "name: a",
        ),
        (
            "numeric name",
            "a".into(),
            skill_md("5", ""),
            "name-type",
            "number",
        ),
        (
            "list name",
            "a".into(),
            skill_md("[a]", ""),
            "name-type",
            "is a list, not",
        ),
        (
            "null name",
            "a".into(),
            skill_md("", ""),
            "name-type",
            "null",
        ),
        (
            "empty name",
            "a".into(),
            skill_md("\"\"", ""),
            "name-format",
            "empty",
        ),
        (
            "uppercase",
            "Bad".into(),
            skill_md("Bad", ""),
            "name-format",
            "lowercase",
        ),
        (
            "double hyphen",
            "a--b".into(),
            skill_md("a--b", ""),
            "name-format",
            "two hyphens",
        ),
        (
            "leading hyphen",
            "-ab".into(),
            skill_md("-ab", ""),
            "name-format",
            "start or end with a hyphen",
        ),
        (
            "trailing hyphen",
            "ab-".into(),
            skill_md("ab-", ""),
            "name-format",
            "start or end with a hyphen",
        ),
        (
            "65 characters",
            long.clone(),
            skill_md(&long, ""),
            "name-format",
            "longer than 64",
        ),
        (
            "non-ASCII",
            "cafe".into(),
            skill_md("café", ""),
            "name-format",
            "lowercase ASCII",
        ),
        (
            "underscore",
            "a_b".into(),
            skill_md("a_b", ""),
            "name-format",
            "lowercase ASCII",
        ),
        (
            "name differs from the directory",
            "alpha".into(),
            skill_md("beta", ""),
            "name-matches-directory",
            "set `name: alpha`",
        ),
    ];
    for (label, dir, content, rule, phrase) in &cases {
        let t = one_skill(dir, content);
        let path = format!("{dir}/SKILL.md");
        assert_errors(&t, label, &[(rule, &path, None, phrase)]);
    }
    // The limits themselves are fine.
    let max = "a".repeat(64);
    let t = one_skill(&max, skill_md(&max, ""));
    assert_publishable(&t, "64 characters");
    let t = one_skill("x-1-y", skill_md("x-1-y", ""));
    assert_publishable(&t, "single hyphens");
}

#[test]
fn description_compatibility_license_metadata_and_allowed_tools() {
    let d1025 = "d".repeat(1025);
    let c501 = "c".repeat(501);
    let cases: Vec<(&str, String, &str, &str)> = vec![
        (
            "missing description",
            "---\nname: a\n---\n".into(),
            "description-required",
            "description:",
        ),
        (
            "numeric description",
            "---\nname: a\ndescription: 42\n---\n".into(),
            "description-type",
            "number",
        ),
        (
            "boolean description",
            "---\nname: a\ndescription: true\n---\n".into(),
            "description-type",
            "boolean",
        ),
        (
            "empty description",
            "---\nname: a\ndescription: \"\"\n---\n".into(),
            "description-length",
            "0 characters",
        ),
        (
            "1025-character description",
            format!("---\nname: a\ndescription: {d1025}\n---\n"),
            "description-length",
            "1025 characters",
        ),
        (
            "501-character compatibility",
            skill_md("a", &format!("compatibility: {c501}\n")),
            "compatibility-length",
            "501 characters",
        ),
        (
            "empty compatibility",
            skill_md("a", "compatibility: \"\"\n"),
            "compatibility-length",
            "0 characters",
        ),
        (
            "numeric compatibility",
            skill_md("a", "compatibility: 5\n"),
            "compatibility-type",
            "number",
        ),
        (
            "list compatibility",
            skill_md("a", "compatibility: [linux]\n"),
            "compatibility-type",
            "is a list, not",
        ),
        (
            "numeric license",
            skill_md("a", "license: 2\n"),
            "license-type",
            "number",
        ),
        (
            "map license",
            skill_md("a", "license: {spdx: MIT}\n"),
            "license-type",
            "is a map, not",
        ),
        (
            "metadata is a list",
            skill_md("a", "metadata: [a, b]\n"),
            "metadata-type",
            "not a map",
        ),
        (
            "metadata is a string",
            skill_md("a", "metadata: owner\n"),
            "metadata-type",
            "not a map",
        ),
        (
            "metadata with a number",
            skill_md("a", "metadata:\n  owner: team\n  version: 1.5\n"),
            "metadata-type",
            "metadata.version",
        ),
        (
            "metadata with a boolean",
            skill_md("a", "metadata:\n  beta: true\n"),
            "metadata-type",
            "metadata.beta",
        ),
        (
            "metadata with a map",
            skill_md("a", "metadata:\n  nested: {k: v}\n"),
            "metadata-type",
            "metadata.nested",
        ),
        (
            "allowed-tools is a number",
            skill_md("a", "allowed-tools: 5\n"),
            "allowed-tools-type",
            "list of strings",
        ),
        (
            "allowed-tools with a number",
            skill_md("a", "allowed-tools: [Read, 5]\n"),
            "allowed-tools-type",
            "list of strings",
        ),
        (
            "allowed-tools is a map",
            skill_md("a", "allowed-tools: {Read: yes-please}\n"),
            "allowed-tools-type",
            "list of strings",
        ),
        (
            "allowed-tools is a boolean",
            skill_md("a", "allowed-tools: false\n"),
            "allowed-tools-type",
            "list of strings",
        ),
    ];
    for (label, content, rule, phrase) in &cases {
        let t = one_skill("a", content);
        assert_errors(&t, label, &[(rule, "a/SKILL.md", None, phrase)]);
    }
    // Boundaries that are allowed: lengths count characters, not bytes.
    for (label, extra) in [
        (
            "1024-character description",
            format!("description: {}\n", "d".repeat(1024)),
        ),
        (
            "1024 two-byte characters",
            format!("description: {}\n", "é".repeat(1024)),
        ),
    ] {
        let t = one_skill("a", format!("---\nname: a\n{extra}---\n"));
        assert_publishable(&t, label);
    }
    let t = one_skill(
        "a",
        skill_md(
            "a",
            &format!(
                "compatibility: {}\nlicense: MIT\nmetadata: {{}}\nallowed-tools: []\n",
                "c".repeat(500)
            ),
        ),
    );
    assert_publishable(&t, "500-character compatibility, empty metadata and tools");
}

#[test]
fn yaml_constructs_refused_by_the_parser_carry_their_rule_and_line() {
    // (label, extra frontmatter lines from line 4, rule, line, text the message quotes)
    let cases: &[(&str, &str, &str, usize, &str)] = &[
        (
            "duplicate key",
            "description: again\n",
            "frontmatter-duplicate-key",
            4,
            "description",
        ),
        ("tag", "license: !!str MIT\n", "frontmatter-tag", 4, "!!str"),
        (
            "custom tag",
            "x: !custom value\n",
            "frontmatter-tag",
            4,
            "!custom",
        ),
        (
            "infinity",
            "x: .inf\n",
            "frontmatter-non-finite-number",
            4,
            ".inf",
        ),
        (
            "not a number",
            "x: .nan\n",
            "frontmatter-non-finite-number",
            4,
            ".nan",
        ),
        (
            "2^53 + 1",
            "x: 9007199254740993\n",
            "frontmatter-unsafe-integer",
            4,
            "9007199254740993",
        ),
        (
            "-2^53",
            "x: -9007199254740992\n",
            "frontmatter-unsafe-integer",
            4,
            "-9007199254740992",
        ),
        (
            "leading zero",
            "x: 007\n",
            "frontmatter-leading-zero-integer",
            4,
            "007",
        ),
        ("yes", "x: yes\n", "frontmatter-yaml11-ambiguous", 4, "yes"),
        ("on", "x: on\n", "frontmatter-yaml11-ambiguous", 4, "on"),
        (
            "a date",
            "x: 2024-01-01\n",
            "frontmatter-yaml11-ambiguous",
            4,
            "2024-01-01",
        ),
        (
            "base 60",
            "x: 1:30\n",
            "frontmatter-yaml11-ambiguous",
            4,
            "1:30",
        ),
        (
            "a date deeper in",
            "metadata:\n  owner: team\n  since: 2024-01-01\n",
            "frontmatter-yaml11-ambiguous",
            6,
            "2024-01-01",
        ),
        (
            "merge key",
            "base: &b {x: \"1\"}\nother:\n  <<: *b\n",
            "frontmatter-merge-key",
            6,
            "<<",
        ),
        (
            "non-string key",
            "1: one\n",
            "frontmatter-non-string-key",
            4,
            "1",
        ),
    ];
    for (label, extra, rule, line, quoted) in cases {
        let t = one_skill("a", skill_md("a", extra));
        assert_errors(&t, label, &[(rule, "a/SKILL.md", Some(*line), quoted)]);
    }
    // Line numbers are the same with CRLF line endings, and the bytes are served unaltered.
    let crlf = skill_md("a", "x: yes\n").replace('\n', "\r\n");
    let t = one_skill("a", &crlf);
    assert_errors(
        &t,
        "CRLF",
        &[("frontmatter-yaml11-ambiguous", "a/SKILL.md", Some(4), "yes")],
    );
    let crlf = skill_md("a", "").replace('\n', "\r\n");
    let t = one_skill("a", &crlf);
    let (c, _) = assert_publishable(&t, "CRLF");
    assert_eq!(c.files[0].bytes, crlf.as_bytes());
    // The largest safe integer and quoted look-alikes are fine.
    let t = one_skill(
        "a",
        skill_md(
            "a",
            "big: 9007199254740991\ncode: \"007\"\nflag: \"yes\"\nday: \"2024-01-01\"\n",
        ),
    );
    assert_publishable(&t, "safe values");
}

// ------------------------------------------------------------------------------------------
// Paths and file types
// ------------------------------------------------------------------------------------------

#[test]
fn path_segments_outside_the_unreserved_set_are_errors() {
    for (file, shown) in [
        ("read me.md", "' '"),
        ("résumé.md", "'é'"),
        ("a#b.md", "'#'"),
        ("a%20b.md", "'%'"),
        ("a@b.md", "'@'"),
        ("a+b.md", "'+'"),
        ("a:b.md", "':'"),
        ("a(1).md", "'('"),
        ("a'b.md", "'\\''"),
        ("tab\there.md", "'\\t'"),
    ] {
        let t = one_skill("good", skill_md("good", ""));
        let path = format!("good/{file}");
        t.write(&path, "x");
        assert_errors(&t, file, &[("path-segment", &path, None, shown)]);
    }
    // A bad directory name: the directory and every file below it are reported.
    let t = one_skill("good", skill_md("good", ""));
    t.write("good/my dir/x.md", "x");
    assert_errors(
        &t,
        "directory with a space",
        &[
            ("path-segment", "good/my dir", None, "' '"),
            ("path-segment", "good/my dir/x.md", None, "' '"),
        ],
    );
    // A skill directory with a bad name.
    let t = one_skill("my skill", skill_md("my-skill", ""));
    assert_errors(
        &t,
        "skill directory with a space",
        &[
            ("path-segment", "my skill", None, "no spaces"),
            ("path-segment", "my skill/SKILL.md", None, "no spaces"),
        ],
    );
    // Dot-leading names are legal segments (only `.` and `..` are not).
    let t = one_skill("good", skill_md("good", ""));
    t.write("good/.gitkeep", "");
    let (c, _) = assert_publishable(&t, "dotfile");
    assert!(c.files.iter().any(|f| f.uri == "skill://good/.gitkeep"));
}

#[test]
fn paths_that_no_file_system_produces_are_refused_by_the_compiler_too() {
    for (path, phrase) in [
        ("good/a//b.md", "empty segment"),
        ("good/./b.md", "`.` or `..`"),
        ("good/../b.md", "`.` or `..`"),
        ("good/b.md/", "empty segment"),
    ] {
        let mut tree = SourceTree::default();
        tree.add_file("good/SKILL.md", skill_md("good", "").into_bytes());
        tree.add_file(path, b"x".to_vec());
        let e = compile::compile(tree).expect_err(path);
        let errs: Vec<&Diagnostic> = e.errors().collect();
        assert!(
            errs.iter().any(|d| d.rule.id() == "path-segment"
                && d.path == path
                && d.message.contains(phrase)),
            "{path}: {}",
            e.render("")
        );
    }
}

/// Found by the `compile` fuzz target: a source tree that gives one path twice compiled, and
/// its catalog could not be loaded ("file URIs are not sorted"). A path given twice, or used
/// for both a file and a directory, is now a build error.
#[test]
fn a_path_given_twice_or_as_file_and_directory_is_refused() {
    type Files<'a> = &'a [(&'a str, &'a str)];
    let cases: [(Files, &str, &str); 4] = [
        (
            &[("good/x.md", "1"), ("good/x.md", "2")],
            "good/x.md",
            "more than once",
        ),
        (
            &[("good/x.md", "1"), ("good/x.md", "1"), ("good/x.md", "1")],
            "good/x.md",
            "more than once",
        ),
        (&[("good/SKILL.md", "")], "good/SKILL.md", "more than once"),
        (
            &[("good/x", "1"), ("good/x/y.md", "2")],
            "good/x",
            "both a file and a directory",
        ),
    ];
    for (files, path, phrase) in cases {
        let mut tree = SourceTree::default();
        tree.add_file("good/SKILL.md", skill_md("good", "").into_bytes());
        for (p, b) in files {
            tree.add_file(p, b.as_bytes().to_vec());
        }
        let e = compile::compile(tree).expect_err(path);
        let errs: Vec<&Diagnostic> = e
            .errors()
            .filter(|d| d.rule.id() == "duplicate-path")
            .collect();
        assert_eq!(errs.len(), 1, "{path}: {}", e.render(""));
        assert!(
            errs[0].path == path && errs[0].message.contains(phrase),
            "{}",
            e.render("")
        );
    }
    // A file where a directory is listed explicitly (an empty directory entry).
    let mut tree = SourceTree::default();
    tree.add_file("good/SKILL.md", skill_md("good", "").into_bytes());
    tree.add_file("good/e", b"1".to_vec());
    tree.dirs.push("good/e".to_owned());
    let e = compile::compile(tree).expect_err("file and directory");
    assert!(e
        .errors()
        .any(|d| d.rule.id() == "duplicate-path" && d.path == "good/e"));
}

#[cfg(unix)]
#[test]
fn symbolic_links_are_errors_whether_they_point_at_files_or_directories() {
    use std::os::unix::fs::symlink;
    let outside = TempDir::new("outside");
    outside.write("secret.md", "not for publication");
    let t = one_skill("good", skill_md("good", ""));
    symlink(
        t.path().join("good/SKILL.md"),
        t.path().join("good/link.md"),
    )
    .expect("symlink");
    symlink(outside.path(), t.path().join("good/linked-dir")).expect("symlink");
    symlink(t.path().join("missing"), t.path().join("good/dangling")).expect("symlink");
    assert_errors(
        &t,
        "symlinks",
        &[
            ("no-symlinks", "good/dangling", None, "symbolic link"),
            ("no-symlinks", "good/link.md", None, "symbolic link"),
            ("no-symlinks", "good/linked-dir", None, "copy"),
        ],
    );
}

#[cfg(unix)]
#[test]
fn fifos_and_sockets_are_errors() {
    let t = one_skill("good", skill_md("good", ""));
    let _socket = std::os::unix::net::UnixListener::bind(t.path().join("good/sock"))
        .expect("bind a unix socket");
    match std::process::Command::new("mkfifo")
        .arg(t.path().join("good/pipe"))
        .status()
    {
        Ok(s) if s.success() => assert_errors(
            &t,
            "fifo and socket",
            &[
                ("regular-files-only", "good/pipe", None, "FIFO"),
                ("regular-files-only", "good/sock", None, "socket"),
            ],
        ),
        other => {
            eprintln!("mkfifo is not available ({other:?}); checking the socket only");
            assert_errors(
                &t,
                "socket",
                &[("regular-files-only", "good/sock", None, "socket")],
            )
        }
    };
}

#[test]
fn skill_md_must_be_spelled_exactly_and_live_in_a_directory() {
    for spelling in ["skill.md", "Skill.md", "SKILL.MD", "skill.MD"] {
        let t = TempDir::new("spelling");
        let path = format!("x/{spelling}");
        t.write(&path, skill_md("x", ""));
        assert_errors(
            &t,
            spelling,
            &[("skill-md-filename", &path, None, "SKILL.md")],
        );
    }
    let t = TempDir::new("root");
    t.write("SKILL.md", skill_md("root", ""));
    assert_errors(
        &t,
        "SKILL.md at the root",
        &[("skill-at-root", "SKILL.md", None, "directory")],
    );
    // A lower-case twin next to a real SKILL.md is a case collision: on macOS and Windows it
    // would replace SKILL.md.
    let t = one_skill("x", skill_md("x", ""));
    t.write("x/skill.md", "notes");
    assert_errors(
        &t,
        "twin",
        &[("case-collision", "x/skill.md", None, "x/SKILL.md")],
    );
}

/// The skill's files as its mirror archive would hold them, read back by the host's archive
/// reader: `Err` with the refusal's token when the host refuses the archive.
fn host_reads_archive_of(t: &TempDir, skill: &str) -> Result<Vec<String>, String> {
    use skills_edge::host::archive::{unpack, ArchiveFormat};
    let tree = skills_edge::catalog::walk::walk(t.path()).tree;
    let prefix = format!("{skill}/");
    let mut members: Vec<(String, Vec<u8>)> = tree
        .files
        .into_iter()
        .filter_map(|f| Some((f.path.strip_prefix(&prefix)?.to_owned(), f.bytes)))
        .collect();
    members.sort();
    let built = compile::archive::CompiledArchive::build(
        members.iter().map(|(p, b)| (p.as_str(), b.as_slice())),
    )
    .expect("the archive is written");
    match unpack(ArchiveFormat::TarGz, &built.bytes, "x.tar.gz") {
        Ok(read) => Ok(read.into_iter().map(|m| m.path).collect()),
        Err(e) => Err(e.actual.as_deref().unwrap_or_default().to_owned()),
    }
}

#[test]
fn two_files_differing_only_in_case_are_refused_before_an_installer_loses_one() {
    // (label, files besides a/SKILL.md, the error: path and the other name it gives).
    let cases: &[(&str, &[&str], &str, &str)] = &[
        (
            "two files",
            &["a/Notes.md", "a/notes.md"],
            "a/notes.md",
            "a/Notes.md",
        ),
        // Two directories: one error, not one per file below them.
        (
            "two directories",
            &["a/Refs/x.md", "a/Refs/y.md", "a/refs/x.md", "a/refs/z.md"],
            "a/refs",
            "a/Refs",
        ),
        (
            "a file and a directory",
            &["a/guide", "a/Guide/x.md"],
            "a/Guide",
            "a/guide",
        ),
        // Across a nested skill: each skill alone is fine, but the outer skill's manifest and
        // archive hold both spellings.
        (
            "a nested skill and a directory of its parent",
            &["a/Inner/x.md", "a/inner/SKILL.md", "a/inner/y.md"],
            "a/inner",
            "a/Inner",
        ),
    ];
    for (label, files, path, other) in cases {
        let t = one_skill("a", skill_md("a", ""));
        for f in *files {
            let content = if f.ends_with("inner/SKILL.md") {
                skill_md("inner", "")
            } else {
                format!("{f}\n")
            };
            t.write(f, content);
        }
        let e = assert_errors(&t, label, &[("case-collision", path, None, other)]);
        let d = e.errors().next().expect("one error");
        assert!(
            d.message.contains(path)
                && d.message.contains("macOS")
                && d.message.contains("the skill a")
                && d.fix.contains("rename"),
            "{label}: {}",
            d.render("")
        );
        // The rule is the host's: the archive the mirror would publish is refused by every host.
        assert_eq!(
            host_reads_archive_of(&t, "a"),
            Err("case-collision".to_owned()),
            "{label}"
        );
        // With --skip-invalid the skill is left out whole, never published without one file.
        let left = compile::compile_with(
            skills_edge::catalog::walk::walk(t.path()).tree,
            compile::Options {
                skip_invalid: true,
                ..compile::Options::default()
            },
        );
        let rule = left.map(|c| c.skills.len()).map_err(|e| e.render(""));
        assert_eq!(rule, Ok(0), "{label}: the skill is left out");
    }

    // Names that differ in more than case are published, and the host reads their archive.
    let t = one_skill("a", skill_md("a", ""));
    t.write("a/notes.md", "1");
    t.write("a/notes-2.md", "2");
    t.write("a/Refs/x.md", "3");
    assert_publishable(&t, "distinct names");
    assert_eq!(
        host_reads_archive_of(&t, "a"),
        Ok(vec![
            "Refs/x.md".to_owned(),
            "SKILL.md".to_owned(),
            "notes-2.md".to_owned(),
            "notes.md".to_owned(),
        ])
    );

    // Directories outside every skill that differ only in case hold different skills, each with
    // its own manifest and archive: a warning, not an error.
    let t = TempDir::new("prefixes");
    t.write("Team/one/SKILL.md", skill_md("one", ""));
    t.write("team/two/SKILL.md", skill_md("two", ""));
    let (c, w) = assert_publishable(&t, "prefixes");
    assert_eq!(w, [("case-collision".to_owned(), "team".to_owned())]);
    assert_eq!(c.skills.len(), 2);
}

#[test]
fn skill_md_must_be_utf8() {
    let t = one_skill("a", b"---\nname: a\xff\ndescription: d\n---\n");
    assert_errors(
        &t,
        "not UTF-8",
        &[("skill-md-utf8", "a/SKILL.md", None, "(byte 11)")],
    );
    // Other files may be binary: they are served as blobs.
    let t = one_skill("a", skill_md("a", ""));
    t.write("a/bin.dat", b"\xff\xfe\x00");
    let (c, _) = assert_publishable(&t, "binary asset");
    let f = c
        .files
        .iter()
        .find(|f| f.uri == "skill://a/bin.dat")
        .expect("served");
    assert!(!f.is_text);
    assert_eq!(f.mime, "application/octet-stream");
}

#[cfg(unix)]
#[test]
fn names_that_are_not_utf8_are_errors() {
    use std::os::unix::ffi::OsStrExt;
    let t = one_skill("good", skill_md("good", ""));
    let name = std::ffi::OsStr::from_bytes(b"bad\xffname.md");
    std::fs::write(t.path().join("good").join(name), "x").expect("write");
    let dir = std::ffi::OsStr::from_bytes(b"dir\xfe");
    std::fs::create_dir(t.path().join("good").join(dir)).expect("mkdir");
    assert_errors(
        &t,
        "non-UTF-8 names",
        &[
            ("path-utf8", "good", None, "not valid UTF-8"),
            ("path-utf8", "good", None, "not valid UTF-8"),
        ],
    );
}

// ------------------------------------------------------------------------------------------
// Limits
// ------------------------------------------------------------------------------------------

fn sized_file(t: &TempDir, rel: &str, len: u64) {
    let p = t.write(rel, b"");
    std::fs::OpenOptions::new()
        .write(true)
        .open(&p)
        .and_then(|f| f.set_len(len))
        .expect("size the file");
}

#[test]
fn at_most_512_files_per_skill() {
    let t = one_skill("big", skill_md("big", ""));
    for i in 0..511 {
        t.write(&format!("big/f/{i:03}.txt"), "x");
    }
    let (c, _) = assert_publishable(&t, "512 files");
    assert_eq!(c.skills[0].files.len(), 512);
    t.write("big/f/511.txt", "x");
    assert_errors(
        &t,
        "513 files",
        &[("limit-files", "big", None, "513 files")],
    );
}

#[test]
fn at_most_16_mib_per_skill() {
    let md = skill_md("big", "");
    let t = one_skill("big", &md);
    sized_file(&t, "big/blob.bin", MAX_BYTES_PER_SKILL - md.len() as u64);
    let (c, _) = assert_publishable(&t, "exactly 16 MiB");
    assert_eq!(
        c.files.iter().map(|f| f.size).sum::<u64>(),
        16 * 1024 * 1024
    );
    sized_file(
        &t,
        "big/blob.bin",
        MAX_BYTES_PER_SKILL - md.len() as u64 + 1,
    );
    assert_errors(
        &t,
        "16 MiB + 1",
        &[("limit-size", "big", None, "16777217 bytes")],
    );
}

#[test]
fn limits_count_the_files_of_nested_skills() {
    let t = one_skill("outer", skill_md("outer", ""));
    t.write("outer/inner/SKILL.md", skill_md("inner", ""));
    for i in 0..300 {
        t.write(&format!("outer/f/{i:03}.txt"), "x");
    }
    for i in 0..250 {
        t.write(&format!("outer/inner/f/{i:03}.txt"), "x");
    }
    // outer: 1 + 300 + (1 + 250) = 552 files; inner: 251.
    assert_errors(
        &t,
        "nested count",
        &[("limit-files", "outer", None, "552 files")],
    );

    let t = one_skill("outer", skill_md("outer", ""));
    t.write("outer/inner/SKILL.md", skill_md("inner", ""));
    sized_file(&t, "outer/own.bin", 9 * 1024 * 1024);
    sized_file(&t, "outer/inner/own.bin", 8 * 1024 * 1024);
    // outer: 17 MiB and two SKILL.md files; inner: 8 MiB and its SKILL.md.
    assert_errors(
        &t,
        "nested size",
        &[("limit-size", "outer", None, "nested skills included")],
    );
}

// ------------------------------------------------------------------------------------------
// Warnings
// ------------------------------------------------------------------------------------------

#[test]
fn warnings_leave_the_catalog_publishable() {
    let t = TempDir::new("warnings");
    t.write("a/tool/SKILL.md", skill_md("tool", ""));
    t.write("b/tool/SKILL.md", skill_md("tool", ""));
    t.write(
        "r/SKILL.md",
        skill_md("r", "metadata:\n  io.modelcontextprotocol/origin: \"x\"\n"),
    );
    t.write("README.md", "about this folder");
    t.write("notes/todo.md", "later");
    t.write(".DS_Store", b"\x00\x01");
    t.write("r/.DS_Store", b"\x00\x01");
    t.write("r/._resource", b"\x00");
    t.write("r/Thumbs.db", b"\x00");
    t.write("X/x1/SKILL.md", skill_md("x1", ""));
    t.write("x/x2/SKILL.md", skill_md("x2", ""));
    let (c, warnings) = assert_publishable(&t, "warnings only");
    let want: Vec<(String, String)> = [
        ("junk-file", ".DS_Store"),
        ("file-outside-skill", "README.md"),
        ("duplicate-name", "a/tool/SKILL.md"),
        ("duplicate-name", "b/tool/SKILL.md"),
        ("file-outside-skill", "notes/todo.md"),
        ("junk-file", "r/.DS_Store"),
        ("reserved-metadata-key", "r/SKILL.md"),
        ("junk-file", "r/._resource"),
        ("junk-file", "r/Thumbs.db"),
        ("case-collision", "x"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    let mut got = warnings.clone();
    got.sort_by(|a, b| a.1.cmp(&b.1).then(a.0.cmp(&b.0)));
    let mut want_sorted = want.clone();
    want_sorted.sort_by(|a, b| a.1.cmp(&b.1).then(a.0.cmp(&b.0)));
    assert_eq!(got, want_sorted);

    // What is served: all five skills, both case twins, no junk, nothing outside a skill.
    let served: Vec<&str> = c.files.iter().map(|f| f.uri.as_str()).collect();
    assert_eq!(
        served,
        [
            "skill://X/x1/SKILL.md",
            "skill://a/tool/SKILL.md",
            "skill://b/tool/SKILL.md",
            "skill://r/SKILL.md",
            "skill://x/x2/SKILL.md",
        ]
    );
    assert_eq!(c.skills.len(), 5);
    // The reserved key still passes through to the published frontmatter.
    let r = c.skills.iter().find(|s| s.name == "r").expect("r");
    assert_eq!(
        r.frontmatter.to_json(),
        r#"{"name":"r","description":"A skill used by the tests.","metadata":{"io.modelcontextprotocol/origin":"x"}}"#
    );
    // Messages say what happens.
    let dup = c
        .warnings
        .iter()
        .find(|d| d.path == "a/tool/SKILL.md")
        .expect("duplicate");
    assert!(dup.message.contains("skill://b/tool/SKILL.md"));
    let stray = c
        .warnings
        .iter()
        .find(|d| d.path == "README.md")
        .expect("stray");
    assert!(stray.message.contains("not served"));
    // And the compiled catalog loads and serves both duplicate names.
    let tree = skills_edge::catalog::walk::walk(t.path()).tree;
    let catalog = Catalog::compile(tree, None).expect("loads");
    assert_eq!(catalog.skill_count(), 5);
}

// ------------------------------------------------------------------------------------------
// Many errors at once, and how they read
// ------------------------------------------------------------------------------------------

#[test]
fn every_error_is_reported_in_one_run() {
    let t = TempDir::new("many");
    t.write("a/SKILL.md", "---\ndescription: no name\n---\n");
    t.write("b/SKILL.md", skill_md("not-b", ""));
    t.write("c/SKILL.md", skill_md("c", ""));
    t.write("c/read me.md", "x");
    t.write("d/SKILL.md", skill_md("d", "x: 1\nx: 2\n"));
    t.write("e/SKILL.md", skill_md("e", "license: 3\nmetadata: [x]\n"));
    t.write("SKILL.md", skill_md("root", ""));
    t.write("README.md", "a warning, not an error");
    #[cfg(unix)]
    std::os::unix::fs::symlink(t.path().join("c/SKILL.md"), t.path().join("c/link.md"))
        .expect("symlink");
    let mut want: Vec<Want<'_>> = vec![
        ("skill-at-root", "SKILL.md", None, "directory"),
        ("name-required", "a/SKILL.md", None, "name: a"),
        ("name-matches-directory", "b/SKILL.md", None, "\"not-b\""),
        ("path-segment", "c/read me.md", None, "' '"),
        ("frontmatter-duplicate-key", "d/SKILL.md", Some(5), ""),
        ("license-type", "e/SKILL.md", None, "number"),
        ("metadata-type", "e/SKILL.md", None, "not a map"),
    ];
    if cfg!(unix) {
        want.insert(3, ("no-symlinks", "c/link.md", None, "symbolic link"));
    }
    let e = assert_errors(&t, "many", &want);
    // Warnings ride along with the errors.
    assert!(e
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Warning && d.rule.id() == "file-outside-skill"));
    // The rendered report: one block per diagnostic, then the count.
    let text = e.render("skills");
    assert!(text.contains(
        "error[name-matches-directory]: skills/b/SKILL.md: name \"not-b\" differs from the skill's directory name \"b\""
    ));
    assert!(text.contains("\n  fix: set `name: b`, or rename the directory to not-b"));
    assert!(text.contains("error[frontmatter-duplicate-key]: skills/d/SKILL.md:5: "));
    assert!(text.contains("warning[file-outside-skill]: skills/README.md: "));
    assert!(text.ends_with(&format!(
        "{} errors in the skills folder; nothing was published",
        want.len()
    )));
}

#[test]
fn a_missing_or_non_directory_root_is_an_io_error() {
    let t = TempDir::new("io");
    let missing = t.path().join("nope");
    let e = compile::compile(skills_edge::catalog::walk::walk(&missing).tree).expect_err("missing");
    let errs: Vec<&Diagnostic> = e.errors().collect();
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].rule.id(), "io");
    assert!(errs[0].message.contains("cannot read the skills folder"));
    let file = t.write("file", "x");
    let e = compile::compile(skills_edge::catalog::walk::walk(&file).tree).expect_err("file");
    assert!(e
        .errors()
        .any(|d| d.rule.id() == "io" && d.message.contains("not a directory")));
}

// ------------------------------------------------------------------------------------------
// What a publishable folder serves
// ------------------------------------------------------------------------------------------

#[test]
fn empty_directories_inside_skills_are_listed_and_empty() {
    use serde_json::json;
    use skills_edge::protocol::Era;
    let t = one_skill("x", skill_md("x", ""));
    t.mkdir("x/assets");
    t.mkdir("x/deep/er");
    t.mkdir("elsewhere/empty");
    let catalog = std::sync::Arc::new(
        Catalog::compile(skills_edge::catalog::walk::walk(t.path()).tree, None).expect("loads"),
    );
    let r = responder_over(catalog.clone(), 50);
    let read = |uri: &str| {
        ok(
            &r,
            &request(
                Era::Modern,
                1,
                "resources/directory/read",
                json!({ "uri": uri }),
            ),
        )["resources"]
            .clone()
    };
    assert_eq!(read("skill://x/assets"), json!([]));
    assert_eq!(
        read("skill://x/deep"),
        json!([{"uri": "skill://x/deep/er", "name": "er", "mimeType": "inode/directory"}])
    );
    assert_eq!(
        read("skill://x"),
        json!([
            {"uri": "skill://x/assets", "name": "assets", "mimeType": "inode/directory"},
            {"uri": "skill://x/deep", "name": "deep", "mimeType": "inode/directory"},
            {"uri": "skill://x/SKILL.md", "name": "SKILL.md", "mimeType": "text/markdown", "size": skill_md("x", "").len()}
        ])
    );
    // Directories outside every skill are not part of the namespace.
    assert!(catalog.dir("skill://elsewhere").is_none());
    assert!(catalog.dir("skill://elsewhere/empty").is_none());
    // Empty directories hold no files, so the manifest is just SKILL.md.
    let e = ok(
        &r,
        &request(
            Era::Modern,
            1,
            "skills/get",
            json!({"uri": "skill://x/SKILL.md"}),
        ),
    );
    assert_eq!(e["skill"]["resources"].as_array().map(Vec::len), Some(1));
}

#[test]
fn a_public_skill_cannot_reveal_the_name_of_a_private_skill_it_shares() {
    let skill = |name: &str| format!("---\nname: {name}\ndescription: Lints.\n---\n# Lint\n");
    let t = TempDir::new("names");
    t.write("tools/lint/SKILL.md", skill("lint"));
    t.write("other/lint/SKILL.md", skill("lint"));
    t.write("zeta/SKILL.md", skill("zeta"));
    t.write(
        "skills-edge.toml",
        "[[access]]\nskills = [\"other/**\"]\nscopes = [\"billing\"]\n",
    );
    assert_errors(
        &t,
        "a public and a private skill named lint",
        &[(
            "access-name",
            "other/lint",
            None,
            "give the private skill a name of its own",
        )],
    );
    // The same name with the same audience is the warning it always was.
    t.write(
        "skills-edge.toml",
        "[[access]]\nskills = [\"other/**\", \"tools/**\"]\nscopes = [\"billing\"]\n",
    );
    let (_, warnings) = assert_publishable(&t, "both private to billing");
    assert!(warnings.iter().any(|(rule, _)| rule == "duplicate-name"));
}

#[test]
fn a_rule_naming_an_access_address_in_capitals_is_refused_at_build() {
    // `AUTH_MODE = "access"` grants `email:` and `email-domain:` lower-cased, so a rule
    // written `email:Alice@Example.com` would match nobody: the skill would stay hidden from
    // the person it names, with no error anywhere. The build refuses it, naming the fix.
    let t = TempDir::new("capitals");
    t.write(
        "team/SKILL.md",
        "---\nname: team\ndescription: For the team.\n---\n# Team\n",
    );
    for (scope, lower) in [
        ("email:Alice@Example.com", "email:alice@example.com"),
        ("email-domain:Example.COM", "email-domain:example.com"),
    ] {
        t.write(
            "skills-edge.toml",
            format!(
                "# rules\n\n[[access]]\nskills = [\"team\"]\nscopes = [\"billing\", \"{scope}\"]\n"
            ),
        );
        assert_errors(
            &t,
            scope,
            &[("access-file", "skills-edge.toml", Some(3), lower)],
        );
    }
    // Lower case builds; other kinds keep their case (groups and scopes are case-sensitive).
    t.write(
        "skills-edge.toml",
        "[[access]]\nskills = [\"team\"]\nscopes = [\"email:alice@example.com\", \"group:Eng\", \"Billing\"]\n",
    );
    assert_publishable(&t, "lower-case addresses");
}
