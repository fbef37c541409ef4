//! The frontmatter corpus, read by the Rust parser (`skill::frontmatter`).
//!
//! Layout (shared with `tests/js/yaml-parity.test.mjs`, which proves every expectation against
//! `yaml@2`; see `tests/js/regen-frontmatter-expected.mjs`):
//!
//! * `tests/frontmatter/corpus/NNN-slug.yaml`: the YAML text of one frontmatter block, as it sits
//!   between the fences. A name ending in `.crlf.yaml` is read with every LF turned into CRLF.
//! * `tests/frontmatter/expected/NNN-slug.json`: accepted case; `JSON.stringify(YAML.parse(text))`
//!   from `yaml@2` plus one `\n`, written by the regen script only.
//! * `tests/frontmatter/expected/NNN-slug.error.json`: refused case; `kind` is the
//!   `FrontmatterErrorKind` variant the parser must return, `claim` why JS hosts would differ,
//!   and `"host": "accepted"` when the host mode (the verifier's reading) accepts it anyway.
//! * `tests/frontmatter/expected/NNN-slug.host.json`: the host mode's value of a host-accepted
//!   case, `JSON.stringify(YAML.parse(text))` from `yaml@2` plus one `\n` (regen script only).
//!
//! For every accepted case `parse_yaml(text).to_json()` must equal the stored JSON exactly, and
//! the same text wrapped in `---` fences must read the same through `parse_file_strict` and
//! `parse_file_lenient` (objects only). For every refused case the error kind must match, carry
//! a line inside the text, and the fenced file must be refused too. The host mode
//! (`parse_yaml_host`, `parse_file_host`) must read every accepted case the same, every
//! host-accepted case as its `.host.json`, and refuse every other case with the same kind.

use std::fs;
use std::path::{Path, PathBuf};

use skills_edge::skill::frontmatter::{
    parse_file_host, parse_file_lenient, parse_file_strict, parse_yaml, parse_yaml_host,
    split_lenient, split_strict, FrontmatterErrorKind,
};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/frontmatter")
}

struct Case {
    name: String,
    text: String,
}

fn cases() -> Vec<Case> {
    let dir = root().join("corpus");
    let mut names: Vec<String> = fs::read_dir(&dir)
        .expect("tests/frontmatter/corpus exists")
        .map(|e| {
            e.expect("readable entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.ends_with(".yaml"))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|file| {
            let raw = fs::read_to_string(dir.join(&file)).expect("corpus files are UTF-8");
            let (name, text) = match file.strip_suffix(".crlf.yaml") {
                Some(name) => (name.to_string(), raw.replace('\n', "\r\n")),
                None => (file.trim_end_matches(".yaml").to_string(), raw),
            };
            Case { name, text }
        })
        .collect()
}

/// The file a skill author would write around this frontmatter.
fn wrap(text: &str) -> String {
    let nl = if text.contains("\r\n") { "\r\n" } else { "\n" };
    format!("---{nl}{text}{nl}---{nl}# Body{nl}")
}

#[test]
fn corpus_is_complete() {
    let cases = cases();
    assert!(cases.len() >= 70, "only {} cases", cases.len());
    let expected = root().join("expected");
    for case in &cases {
        let ok = expected.join(format!("{}.json", case.name)).exists();
        let err = expected.join(format!("{}.error.json", case.name)).exists();
        assert!(
            ok != err,
            "{}: needs exactly one of .json / .error.json",
            case.name
        );
    }
}

#[test]
fn accepted_cases_match_yaml2_byte_for_byte() {
    let mut checked = 0;
    for case in cases() {
        let path = root().join("expected").join(format!("{}.json", case.name));
        let Ok(expected) = fs::read_to_string(&path) else {
            continue;
        };
        let want = expected.strip_suffix('\n').unwrap_or(&expected);
        let got = match parse_yaml(&case.text) {
            Ok(v) => v.to_json(),
            Err(e) => panic!("{}: refused: {e}", case.name),
        };
        assert_eq!(got, want, "{}", case.name);
        if want.starts_with('{') {
            let file = wrap(&case.text);
            assert_eq!(split_strict(&file).map(|b| b.yaml), Ok(case.text.as_str()));
            assert_eq!(split_lenient(&file).map(|b| b.yaml), Ok(case.text.as_str()));
            for (how, parsed) in [
                ("strict", parse_file_strict(&file)),
                ("lenient", parse_file_lenient(&file)),
            ] {
                match parsed {
                    Ok(v) => assert_eq!(v.to_json(), want, "{} ({how})", case.name),
                    Err(e) => panic!("{} ({how}): refused: {e}", case.name),
                }
            }
        }
        checked += 1;
    }
    assert!(checked >= 50, "only {checked} accepted cases");
}

#[test]
fn refused_cases_fail_with_the_stored_kind() {
    let mut checked = 0;
    for case in cases() {
        let path = root()
            .join("expected")
            .join(format!("{}.error.json", case.name));
        let Ok(meta) = fs::read_to_string(&path) else {
            continue;
        };
        let meta: serde_json::Value = serde_json::from_str(&meta).expect("valid .error.json");
        let kind_name = meta["kind"].as_str().expect("`kind` is a string");
        let want = FrontmatterErrorKind::from_rule(kind_name)
            .unwrap_or_else(|| panic!("{}: unknown kind {kind_name}", case.name));
        let err = match parse_yaml(&case.text) {
            Ok(v) => panic!("{}: accepted as {}", case.name, v.to_json()),
            Err(e) => e,
        };
        assert_eq!(err.kind, want, "{}: {err}", case.name);
        let lines = case.text.split('\n').count();
        assert!(
            err.line.is_some_and(|l| (1..=lines).contains(&l)),
            "{}: line {:?} outside 1..={lines}: {err}",
            case.name,
            err.line
        );
        let shown = err.to_string();
        assert!(shown.contains(want.rule()), "{}: {shown}", case.name);
        assert!(!err.fix.is_empty(), "{}: no fix", case.name);
        assert!(
            parse_file_strict(&wrap(&case.text)).is_err(),
            "{}: the fenced file is accepted",
            case.name
        );
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} refused cases");
}

/// The `kind` and whether the host mode accepts a refused case, from its `.error.json`.
fn refusal(name: &str) -> Option<(FrontmatterErrorKind, bool)> {
    let meta =
        fs::read_to_string(root().join("expected").join(format!("{name}.error.json"))).ok()?;
    let meta: serde_json::Value = serde_json::from_str(&meta).expect("valid .error.json");
    let kind_name = meta["kind"].as_str().expect("`kind` is a string");
    let kind = FrontmatterErrorKind::from_rule(kind_name)
        .unwrap_or_else(|| panic!("{name}: unknown kind {kind_name}"));
    let host = match meta.get("host") {
        None => false,
        Some(v) if v == "accepted" => true,
        Some(v) => panic!("{name}: \"host\" must be \"accepted\" or absent, not {v}"),
    };
    Some((kind, host))
}

#[test]
fn host_mode_reads_the_corpus_as_yaml2() {
    let (mut same, mut accepted, mut refused) = (0, 0, 0);
    for case in cases() {
        let expected = root().join("expected");
        let host_json = fs::read_to_string(expected.join(format!("{}.host.json", case.name))).ok();
        let want = match refusal(&case.name) {
            None => {
                assert!(
                    host_json.is_none(),
                    "{}: an accepted case has no .host.json",
                    case.name
                );
                same += 1;
                fs::read_to_string(expected.join(format!("{}.json", case.name)))
                    .unwrap_or_else(|_| panic!("{}: no .json", case.name))
            }
            Some((_, true)) => {
                accepted += 1;
                host_json.unwrap_or_else(|| {
                    panic!(
                        "{}: host-accepted but no .host.json (run the regen script)",
                        case.name
                    )
                })
            }
            Some((kind, false)) => {
                assert!(
                    host_json.is_none(),
                    "{}: a .host.json for a case the host mode refuses",
                    case.name
                );
                match parse_yaml_host(&case.text) {
                    Ok(v) => panic!("{}: the host mode accepts it as {}", case.name, v.to_json()),
                    Err(e) => assert_eq!(e.kind, kind, "{}: {e}", case.name),
                }
                assert!(
                    parse_file_host(&wrap(&case.text)).is_err(),
                    "{}: the fenced file is accepted",
                    case.name
                );
                refused += 1;
                continue;
            }
        };
        let want = want.strip_suffix('\n').unwrap_or(&want);
        match parse_yaml_host(&case.text) {
            Ok(v) => assert_eq!(v.to_json(), want, "{}", case.name),
            Err(e) => panic!("{}: the host mode refuses it: {e}", case.name),
        }
        if want.starts_with('{') {
            match parse_file_host(&wrap(&case.text)) {
                Ok(v) => assert_eq!(v.to_json(), want, "{} (fenced)", case.name),
                Err(e) => panic!("{} (fenced): the host mode refuses it: {e}", case.name),
            }
        }
    }
    assert!(
        same >= 50 && accepted >= 30 && refused >= 20,
        "{same} / {accepted} / {refused}"
    );
}
