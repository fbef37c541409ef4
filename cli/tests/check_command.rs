//! `skills-edge check <dir>`: on the project's `skills/` folder it exits 0 and prints exactly
//! the entries `skills/list` serves; on a hostile folder it exits 1, prints nothing on stdout and
//! the compiler's rendered diagnostics on stderr. `skills-edge pack <dir> -o <file>` writes
//! exactly the embedded pack for `skills/`, and refuses a hostile folder the same way.

use crate::common;

use common::*;
use serde_json::json;
use skills_edge::protocol::Era;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository (the library's crate, whose `skills/` the command embeds).
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn check(dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skills-edge"))
        .arg("check")
        .arg(dir)
        .output()
        .expect("run skills-edge check")
}

#[test]
fn check_on_the_skills_folder_prints_what_skills_list_serves() {
    let dir = repo().join("skills");
    let out = check(&dir);
    let stdout = String::from_utf8(out.stdout).expect("UTF-8 stdout");
    let stderr = String::from_utf8(out.stderr).expect("UTF-8 stderr");
    assert_eq!(out.status.code(), Some(0), "stderr: {stderr}");
    let printed: Vec<Box<serde_json::value::RawValue>> =
        serde_json::from_str(&stdout).expect("stdout is one JSON array");
    // Every served entry, raw, from every page of skills/list.
    let r = responder(1);
    let mut served = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let params = cursor
            .as_ref()
            .map_or(json!({}), |c| json!({ "cursor": c }));
        let rpc = ok_rpc(&r, &request(Era::Modern, 1, "skills/list", params));
        let skills: Vec<Box<serde_json::value::RawValue>> =
            serde_json::from_str(&raw_member(rpc.result_raw().expect("result"), "skills"))
                .expect("array");
        served.extend(skills.into_iter().map(|s| s.get().to_owned()));
        match rpc.json["result"]["nextCursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => break,
        }
    }
    let printed: Vec<&str> = printed.iter().map(|p| p.get()).collect();
    assert_eq!(printed, served, "byte-equal entries, in the same order");
    assert_eq!(printed.len(), embedded().skill_count());
    assert!(
        stderr.trim_end().ends_with(&format!(
            "{} skills, {} files, {} bytes: ok",
            embedded().skill_count(),
            embedded().file_count(),
            embedded().files().map(|f| f.size as usize).sum::<usize>()
        )),
        "{stderr}"
    );
    assert!(
        !stderr.contains("warning["),
        "the project's skills have no warnings"
    );
}

#[test]
fn check_on_a_hostile_folder_fails_with_the_rendered_errors() {
    let t = TempDir::new("check-hostile");
    t.write("a/SKILL.md", skill_md("b", ""));
    t.write("c/SKILL.md", "no frontmatter\n");
    t.write("c/bad name.md", "x");
    t.write("stray.md", "warned about");
    let out = check(t.path());
    let stderr = String::from_utf8(out.stderr).expect("UTF-8 stderr");
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(out.stdout.is_empty(), "nothing on stdout");
    let expected = t
        .compile()
        .expect_err("hostile")
        .render(&t.path().display().to_string());
    assert_eq!(stderr, format!("{expected}\n"));
    for rule in [
        "error[name-matches-directory]",
        "error[frontmatter-missing-opening-fence]",
        "error[path-segment]",
        "warning[file-outside-skill]",
    ] {
        assert!(stderr.contains(rule), "{rule} in {stderr}");
    }
    assert!(stderr.ends_with("3 errors in the skills folder; nothing was published\n"));
}

#[test]
fn check_reports_warnings_on_stderr_and_still_succeeds() {
    let t = TempDir::new("check-warn");
    t.write("x/SKILL.md", skill_md("x", ""));
    t.write("x/.DS_Store", b"\x00");
    let out = check(t.path());
    let stdout = String::from_utf8(out.stdout).expect("UTF-8");
    let stderr = String::from_utf8(out.stderr).expect("UTF-8");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let entries: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(entries.as_array().map(Vec::len), Some(1));
    assert_eq!(entries[0]["uri"], "skill://x/SKILL.md");
    assert!(stderr.contains("warning[junk-file]"), "{stderr}");

    // An empty folder publishes nothing, successfully.
    let empty = TempDir::new("check-empty");
    let out = check(empty.path());
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "[]\n");
}

#[test]
fn strict_mode_makes_sdk_unreadable_frontmatter_an_error() {
    let t = TempDir::new("check-strict");
    t.write(
        "x/SKILL.md",
        "---\nname: x\ndescription: \"Reads PDFs.\n  Use for forms.\"\nbase: &b [1]\ncopy: *b\n---\nBody\n",
    );
    let dir = t.path().as_os_str();
    let lenient = run(&["check".as_ref(), dir]);
    let stderr = String::from_utf8_lossy(&lenient.stderr).into_owned();
    assert_eq!(lenient.status.code(), Some(0), "{stderr}");
    let shown = t.path().display().to_string();
    for (rule, line) in [
        ("frontmatter-sdk-multiline-quoted", 3),
        ("frontmatter-sdk-anchor", 5),
        ("frontmatter-sdk-anchor", 6),
    ] {
        let place = format!("warning[{rule}]: {shown}/x/SKILL.md:{line}: ");
        assert!(stderr.contains(&place), "{place} in {stderr}");
    }
    assert!(
        stderr.contains("  fix: write the value on one line"),
        "{stderr}"
    );

    for args in [
        vec!["check".as_ref(), dir, "--strict".as_ref()],
        vec!["check".as_ref(), "--strict".as_ref(), dir],
        vec![
            "pack".as_ref(),
            dir,
            "--check".as_ref(),
            "--strict".as_ref(),
        ],
    ] {
        let strict = run(&args);
        let stderr = String::from_utf8_lossy(&strict.stderr).into_owned();
        assert_eq!(strict.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(strict.stdout.is_empty(), "{args:?}");
        assert!(
            stderr.contains(&format!(
                "error[frontmatter-sdk-multiline-quoted]: {shown}/x/SKILL.md:3: "
            )),
            "{stderr}"
        );
        assert!(
            stderr.ends_with("3 errors in the skills folder; nothing was published\n"),
            "{stderr}"
        );
    }
    let out_dir = TempDir::new("check-strict-out");
    let file = out_dir.path().join("x.pack");
    let packed = run(&[
        "pack".as_ref(),
        dir,
        "-o".as_ref(),
        file.as_os_str(),
        "--strict".as_ref(),
    ]);
    assert_eq!(packed.status.code(), Some(1));
    assert!(!file.exists(), "nothing is written in strict mode");
    let packed = run(&["pack".as_ref(), dir, "-o".as_ref(), file.as_os_str()]);
    assert_eq!(packed.status.code(), Some(0));
    assert!(
        file.exists(),
        "the default mode writes the pack, with the warnings"
    );
}

#[test]
fn check_usage_errors() {
    let missing = TempDir::new("check-missing");
    let out = check(&missing.path().join("nope"));
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("error[io]"));

    let out = Command::new(env!("CARGO_BIN_EXE_skills-edge"))
        .arg("check")
        .output()
        .expect("run");
    assert_eq!(
        out.status.code(),
        Some(2),
        "check without a folder is a usage error"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn every_subcommand_answers_help_with_its_usage() {
    // `verify --help` was refused as an unknown option (exit 2, the usage on stderr).
    for (command, extra) in [
        ("verify", &[][..]),
        ("verify", &["http://127.0.0.1:1/mcp"][..]),
        ("check", &[]),
        ("pack", &["-h"]),
        ("keygen", &[]),
        ("stdio", &[]),
    ] {
        let mut args = vec![command];
        args.extend_from_slice(extra);
        if !extra.contains(&"-h") {
            args.push("--help");
        }
        let out = Command::new(env!("CARGO_BIN_EXE_skills-edge"))
            .args(&args)
            .output()
            .expect("run");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stdout}");
        assert!(out.stderr.is_empty(), "{args:?}");
        assert!(stdout.starts_with("USAGE:\n"), "{args:?}: {stdout}");
        assert!(
            stdout.contains(&format!("skills-edge {command}")),
            "{args:?}: {stdout}"
        );
    }
}

#[test]
fn the_whole_programs_help_names_publish_and_gc_and_each_answers_help() {
    let help = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_skills-edge"))
            .args(args)
            .output()
            .expect("run");
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let whole = help(&["--help"]);
    assert!(whole.contains("USAGE:\n"), "{whole}");
    for line in [
        "skills-edge publish <dir> --bucket NAME",
        "skills-edge gc --keep N",
    ] {
        assert!(whole.contains(line), "{line}: {whole}");
    }
    for command in ["publish", "gc"] {
        let own = help(&[command, "--help"]);
        assert!(own.contains(&format!("skills-edge {command} ")), "{own}");
    }
}

fn run(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skills-edge"))
        .args(args)
        .output()
        .expect("run skills-edge")
}

#[test]
fn pack_writes_the_embedded_pack_for_the_skills_folder() {
    let out_dir = TempDir::new("pack-out");
    let file = out_dir.path().join("skills.pack");
    let skills = repo().join(option_env!("SKILLS_DIR").unwrap_or("skills"));
    let out = run(&[
        "pack".as_ref(),
        skills.as_os_str(),
        "-o".as_ref(),
        file.as_os_str(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(out.stdout.is_empty());
    assert!(stderr.contains(": wrote "), "{stderr}");
    let written = std::fs::read(&file).expect("the pack was written");
    assert_eq!(
        written,
        skills_edge::embedded::PACK,
        "the command and build.rs make the same pack"
    );

    // --check prints what check prints and writes nothing.
    let checked = run(&["pack".as_ref(), skills.as_os_str(), "--check".as_ref()]);
    let plain = check(&skills);
    assert_eq!(checked.status.code(), Some(0));
    assert_eq!(checked.stdout, plain.stdout);
    assert_eq!(checked.stderr, plain.stderr);
}

#[test]
fn pack_refuses_a_hostile_folder_and_writes_nothing() {
    let t = TempDir::new("pack-hostile");
    t.write("a/SKILL.md", skill_md("b", ""));
    let out_dir = TempDir::new("pack-hostile-out");
    let file = out_dir.path().join("x.pack");
    let out = run(&[
        "pack".as_ref(),
        t.path().as_os_str(),
        "-o".as_ref(),
        file.as_os_str(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        !file.exists(),
        "nothing is written for a folder with errors"
    );
    assert_eq!(
        out.stderr,
        check(t.path()).stderr,
        "the same messages as check"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("error[name-matches-directory]"));

    // An unwritable destination (a folder under a file) is an error naming the file.
    let good = TempDir::new("pack-good");
    good.write("x/SKILL.md", skill_md("x", ""));
    out_dir.write("a-file", "x");
    let nowhere = out_dir.path().join("a-file").join("x.pack");
    let out = run(&[
        "pack".as_ref(),
        good.path().as_os_str(),
        "-o".as_ref(),
        nowhere.as_os_str(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with(&format!(
            "error: cannot write {}: Not a directory (os error 20)",
            nowhere.display()
        )),
        "{stderr}"
    );
}

/// `pack -o build/skills.pack` in a fresh checkout, where `build/` does not exist yet: the
/// folders on the way are made, as the quick starts expect.
#[test]
fn pack_into_a_folder_that_does_not_exist_yet_makes_it() {
    let good = TempDir::new("pack-parent");
    good.write("skills/x/SKILL.md", skill_md("x", ""));
    let output = good.path().join("build").join("deep").join("skills.pack");
    let out = run(&[
        "pack".as_ref(),
        good.path().join("skills").as_os_str(),
        "-o".as_ref(),
        output.as_os_str(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&output).expect("the pack was written");
    assert!(!bytes.is_empty());
}

#[test]
fn pack_usage_errors() {
    for args in [
        vec!["pack"],
        vec!["pack", "dir"],
        vec!["pack", "dir", "-o"],
        vec!["pack", "dir", "-o", "f", "--check"],
        vec!["pack", "a", "b", "--check"],
        vec!["pack", "dir", "--frobnicate"],
    ] {
        let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_ref()).collect();
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?} is a usage error");
        assert!(out.stdout.is_empty());
    }
}

/// A folder with a small text file, a text file above the default inline limit and a binary
/// file above it.
fn mixed_folder(tag: &str) -> TempDir {
    let t = TempDir::new(tag);
    t.write("big/SKILL.md", skill_md("big", ""));
    t.write("big/small.md", "small\n");
    let limit = skills_edge::catalog::pack::DEFAULT_INLINE_MAX as usize;
    t.write("big/large.md", "line \"quoted\" \\ é\n".repeat(limit / 8));
    let blob: Vec<u8> = (0..limit + 1)
        .map(|i| (i * 131 % 251) as u8 | 0x80)
        .collect();
    t.write("big/image.png", blob);
    t
}

#[test]
fn pack_with_assets_writes_what_encode_with_makes() {
    use skills_edge::catalog::{compile, pack, walk, Catalog, Content};
    let src = mixed_folder("pack-assets");
    let out = TempDir::new("pack-assets-out");
    let compiled = compile::compile(walk::walk(src.path()).tree).expect("compiles");
    for inline_max in [None, Some(0u64), Some(1 << 30)] {
        let file = out.path().join("x.pack");
        let assets = out.path().join(format!("assets-{inline_max:?}"));
        let mut args: Vec<std::ffi::OsString> = vec![
            "pack".into(),
            src.path().into(),
            "--assets".into(),
            assets.clone().into(),
            "-o".into(),
            file.clone().into(),
        ];
        if let Some(n) = inline_max {
            args.extend(["--inline-max".into(), n.to_string().into()]);
        }
        let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
        let run_out = run(&args);
        let stderr = String::from_utf8_lossy(&run_out.stderr);
        assert_eq!(run_out.status.code(), Some(0), "{stderr}");
        let policy = inline_max.map_or_else(pack::AssetPolicy::default, |inline_max| {
            pack::AssetPolicy { inline_max }
        });
        let expected = pack::encode_with(
            &compiled,
            &pack::PackOptions {
                instructions: None,
                assets: Some(policy),
            },
        );
        assert_eq!(std::fs::read(&file).expect("pack"), expected.pack);
        let mut names: Vec<String> = std::fs::read_dir(&assets)
            .expect("the assets folder exists")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        let mut want: Vec<String> = expected.assets.iter().map(|a| a.name.clone()).collect();
        want.sort();
        assert_eq!(names, want, "exactly the pack's assets, {inline_max:?}");
        for a in &expected.assets {
            assert_eq!(std::fs::read(assets.join(&a.name)).expect("asset"), a.bytes);
        }
        // Every file left out has both assets: its bytes and its rendered JSON string.
        let catalog = Catalog::from_bytes(expected.pack.clone()).expect("loads");
        let out_files: Vec<_> = catalog
            .files()
            .filter(|f| matches!(f.content, Content::External { .. }))
            .collect();
        for f in &out_files {
            let source = compiled
                .files
                .iter()
                .find(|c| c.uri == f.uri)
                .expect("file");
            assert_eq!(
                std::fs::read(assets.join(pack::raw_asset_name(f.digest))).expect("raw"),
                source.bytes
            );
            assert_eq!(
                std::fs::read(assets.join(pack::rendered_asset_name(f.digest))).expect("json"),
                pack::rendered_content(&source.bytes, source.is_text).into_bytes()
            );
        }
        let expected_out = match inline_max {
            None => 2,    // large.md and image.png
            Some(0) => 4, // every file
            Some(_) => 0, // none
        };
        assert_eq!(out_files.len(), expected_out, "{inline_max:?}");
        // The skill's archive for the mirror follows the same rule.
        let archive = compiled.skills[0].archive.as_ref().expect("an archive");
        let archive_out = usize::from(policy.inline_max < archive.size);
        let archive_view = catalog
            .mirrored_archive(&compiled.skills[0].name)
            .expect("mirrored");
        assert_eq!(
            archive_view.bytes.is_none(),
            archive_out == 1,
            "{inline_max:?}"
        );
        if archive_out == 1 {
            assert_eq!(
                std::fs::read(assets.join(pack::raw_asset_name(&archive.digest))).expect("archive"),
                archive.bytes
            );
        }
        assert!(
            stderr.contains(&format!(
                "{} assets ({expected_out} files and {archive_out} mirror archive{} left out, ",
                2 * expected_out + archive_out,
                if archive_out == 1 { "" } else { "s" }
            )),
            "{stderr}"
        );
        assert!(
            stderr.contains(&format!("; {} files, ", 4 - expected_out)),
            "{stderr}"
        );
    }
}

#[test]
fn pack_asset_option_errors() {
    for args in [
        vec!["pack", "dir", "-o", "f", "--inline-max", "10"],
        vec![
            "pack",
            "dir",
            "-o",
            "f",
            "--assets",
            "a",
            "--inline-max",
            "ten",
        ],
        vec![
            "pack",
            "dir",
            "-o",
            "f",
            "--assets",
            "a",
            "--inline-max",
            "-1",
        ],
        vec![
            "pack",
            "dir",
            "-o",
            "f",
            "--assets",
            "a",
            "--inline-max",
            "+1",
        ],
        vec!["pack", "dir", "-o", "f", "--assets"],
        vec!["pack", "dir", "--check", "--assets", "a"],
    ] {
        let osargs: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_ref()).collect();
        let out = run(&osargs);
        assert_eq!(out.status.code(), Some(2), "{args:?} is a usage error");
        assert!(out.stdout.is_empty());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("--inline-max") || stderr.contains("--assets"),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn pack_refuses_an_asset_above_the_static_assets_limit() {
    // A text file of control characters escapes to six bytes a byte: 5 MiB of them render to
    // 30 MiB of JSON, above the 25 MiB Workers Static Assets take per file.
    let t = TempDir::new("pack-huge-asset");
    t.write("huge/SKILL.md", skill_md("huge", ""));
    t.write("huge/controls.txt", vec![0x01u8; 5 * 1024 * 1024]);
    let out = TempDir::new("pack-huge-asset-out");
    let file = out.path().join("x.pack");
    let assets = out.path().join("assets");
    let run_out = run(&[
        "pack".as_ref(),
        t.path().as_os_str(),
        "--assets".as_ref(),
        assets.as_os_str(),
        "-o".as_ref(),
        file.as_os_str(),
    ]);
    let stderr = String::from_utf8_lossy(&run_out.stderr);
    assert_eq!(run_out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("skill://huge/controls.txt") && stderr.contains("25 MiB"),
        "{stderr}"
    );
    assert!(!file.exists() && !assets.exists(), "nothing is written");
}

#[test]
fn pack_with_assets_does_not_warn_of_the_old_compressed_limit() {
    // 400 binary files of 8000 bytes: each below the default limit, so all stay in the pack,
    // which grows past the 3 MB after compression the free plan once took. Workers now take an
    // upload of up to 64 MiB on every plan, so nothing is said (the warning past that size is
    // tested with the limit itself, `pack::assets`).
    let t = TempDir::new("pack-fat");
    t.write("fat/SKILL.md", skill_md("fat", ""));
    let mut rng = Rng(2640);
    for i in 0..400 {
        let bytes: Vec<u8> = (0..8000).map(|_| (rng.next_u64() as u8) | 0x80).collect();
        t.write(&format!("fat/assets/f{i}.bin"), bytes);
    }
    let out = TempDir::new("pack-fat-out");
    let file = out.path().join("x.pack");
    let assets = out.path().join("assets");
    let args: [&std::ffi::OsStr; 6] = [
        "pack".as_ref(),
        t.path().as_os_str(),
        "--assets".as_ref(),
        assets.as_os_str(),
        "-o".as_ref(),
        file.as_os_str(),
    ];
    let run_out = run(&args);
    let stderr = String::from_utf8_lossy(&run_out.stderr);
    assert_eq!(run_out.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("warning"), "{stderr}");
    // With every file out, the pack is small and nothing is said either.
    let args: Vec<&std::ffi::OsStr> = args
        .iter()
        .copied()
        .chain(["--inline-max".as_ref(), "0".as_ref()])
        .collect();
    let run_out = run(&args);
    let stderr = String::from_utf8_lossy(&run_out.stderr);
    assert_eq!(run_out.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("warning"), "{stderr}");
}
