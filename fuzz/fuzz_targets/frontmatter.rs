//! The frontmatter reader: `split_strict`, `split_lenient`, `parse_yaml`, `parse_file_strict`,
//! `parse_file_lenient` on the same text (as a whole `SKILL.md` and as a YAML block).
//!
//! Properties:
//! * a split's `yaml` is the substring of the file it claims to be (it starts on the line after
//!   the opening fence, and `body_start` is a char boundary just past a closing fence);
//! * strict delimiters accepted ⇒ lenient delimiters accepted with the same block;
//! * `parse_file_*` agree with `split_*` then `parse_yaml` of the block (same value, same error
//!   kind), and a strict value equals the lenient one;
//! * `parse_yaml` accepted ⇒ `to_json()` is valid JSON, and that JSON read back as YAML (JSON is
//!   YAML) gives the same `to_json()`, unless the JSON holds one of the things the reader
//!   refuses on purpose wherever they appear (see `refusal_explained`);
//! * every error has a rule id and, when it has a line, a line within the text.

#![no_main]

use libfuzzer_sys::fuzz_target;
use skills_edge::skill::frontmatter::{
    parse_file_lenient, parse_file_strict, parse_yaml, split_lenient, split_strict, Block,
    FrontmatterError, FrontmatterErrorKind, MAX_KEY_UTF16, MAX_YAML_BYTES,
};
use skills_edge::skill::value::Value;

fn lines(text: &str) -> usize {
    text.split('\n').count().max(1)
}

fn check_error(e: &FrontmatterError, text: &str, what: &str) {
    let rule = e.kind.rule();
    assert!(
        rule.starts_with("frontmatter-") && rule.len() > "frontmatter-".len(),
        "{what}: a bad rule id {rule:?}"
    );
    assert_eq!(FrontmatterErrorKind::from_rule(rule), Some(e.kind));
    assert!(
        !e.message.is_empty() && !e.fix.is_empty(),
        "{what}: {e:?} lacks a message or a fix"
    );
    if let Some(line) = e.line {
        assert!(
            line >= 1 && line <= lines(text),
            "{what}: line {line} of a text of {} lines: {e:?} for {text:?}",
            lines(text)
        );
    }
}

fn check_block(b: &Block<'_>, file: &str, what: &str) {
    let start = b.yaml.as_ptr() as usize - file.as_ptr() as usize;
    assert!(
        start + b.yaml.len() <= file.len(),
        "{what}: yaml outside the file"
    );
    assert_eq!(
        file.get(start..start + b.yaml.len()),
        Some(b.yaml),
        "{what}: yaml is not at its offset"
    );
    assert!(file.is_char_boundary(b.body_start) && b.body_start <= file.len());
    assert!(
        b.body_start >= start + b.yaml.len(),
        "{what}: the body starts inside the yaml"
    );
    // The YAML starts on the line after the opening fence.
    let before = &file[..start];
    assert_eq!(
        b.first_line, 2,
        "{what}: the block starts on line {}",
        b.first_line
    );
    assert!(
        before == "---\n"
            || before == "---\r\n"
            || before == "\u{feff}---\n"
            || before == "\u{feff}---\r\n",
        "{what}: the block follows {before:?}, not an opening fence"
    );
    // Between the YAML and the body: an optional CR, LF, then a fence line.
    let between = &file[start + b.yaml.len()..b.body_start];
    let fence = between
        .strip_prefix("\r\n")
        .or_else(|| between.strip_prefix('\n'))
        .unwrap_or_else(|| panic!("{what}: no line break before the closing fence: {between:?}"));
    let fence = fence
        .strip_suffix('\n')
        .map(|f| f.strip_suffix('\r').unwrap_or(f))
        .unwrap_or(fence);
    assert!(
        fence
            .strip_prefix("---")
            .is_some_and(|t| t.bytes().all(|c| c == b' ' || c == b'\t')),
        "{what}: the closing fence is {fence:?}"
    );
    if b.body_start < file.len() {
        assert!(
            file[..b.body_start].ends_with('\n'),
            "{what}: the body does not start a line"
        );
    }
}

/// Whether the JSON text of an accepted value holds something the reader refuses on purpose
/// wherever it appears, so reading the JSON back as YAML may fail with `kind` without any
/// disagreement: raw characters YAML 1.1 or YAML forbid (JSON leaves U+007F–U+009F and
/// U+2028/U+2029 unescaped), integers beyond 2^53 and exponents (JSON prints `1e+21` and
/// `100000000000000000000`, which YAML 1.1 types differently or JavaScript cannot hold), keys
/// longer than the key limit once quoted and escaped, and JSON larger than the size limit
/// (aliases expand).
fn refusal_explained(v: &Value, json: &str, kind: FrontmatterErrorKind) -> bool {
    use FrontmatterErrorKind as K;
    match kind {
        K::ForbiddenCharacter => json.chars().any(|c| {
            ('\u{7f}'..='\u{9f}').contains(&c)
                || matches!(
                    c,
                    '\u{2028}' | '\u{2029}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}'
                )
        }),
        K::UnsafeInteger | K::Yaml11Ambiguous => has_big_or_exponent_number(v),
        K::Unportable => has_long_key(v),
        // Aliases expand: the JSON of a small block can exceed the size limit.
        K::TooLarge => json.len() > MAX_YAML_BYTES,
        _ => false,
    }
}

fn has_big_or_exponent_number(v: &Value) -> bool {
    match v {
        Value::Number(n) => {
            let mut t = String::new();
            skills_edge::skill::value::write_number(*n, &mut t);
            t.contains(['e', 'E']) || n.as_f64().abs() >= 9007199254740992.0
        }
        Value::Array(items) => items.iter().any(has_big_or_exponent_number),
        Value::Object(pairs) => pairs.iter().any(|(_, v)| has_big_or_exponent_number(v)),
        _ => false,
    }
}

fn has_long_key(v: &Value) -> bool {
    match v {
        Value::Object(pairs) => pairs.iter().any(|(k, v)| {
            let mut quoted = String::new();
            skills_edge::skill::value::write_json_string(k, &mut quoted);
            quoted.encode_utf16().count() > MAX_KEY_UTF16 || has_long_key(v)
        }),
        Value::Array(items) => items.iter().any(has_long_key),
        _ => false,
    }
}

fn same(a: &Value, b: &Value) -> bool {
    a.to_json() == b.to_json()
}

fn run(text: &str) {
    // As a whole file.
    let strict = split_strict(text);
    let lenient = split_lenient(text);
    match &strict {
        Ok(b) => {
            check_block(b, text, "split_strict");
            let l = lenient.as_ref().unwrap_or_else(|e| {
                panic!("strict delimiters accepted but lenient ones refused ({e:?}): {text:?}")
            });
            assert_eq!(
                b, l,
                "strict and lenient delimiters cut differently: {text:?}"
            );
        }
        Err(e) => check_error(e, text, "split_strict"),
    }
    match &lenient {
        Ok(b) => check_block(b, text, "split_lenient"),
        Err(e) => check_error(e, text, "split_lenient"),
    }
    let fs = parse_file_strict(text);
    let fl = parse_file_lenient(text);
    for (name, split, parsed) in [("strict", &strict, &fs), ("lenient", &lenient, &fl)] {
        match (split, parsed) {
            (Err(e), Err(f)) => assert_eq!(e, f, "parse_file_{name} and split_{name} disagree"),
            (Err(e), Ok(_)) => {
                panic!("parse_file_{name} accepted what split_{name} refused: {e:?}")
            }
            (Ok(b), r) => {
                let direct = parse_yaml(b.yaml);
                match (direct, r) {
                    (Ok(v), Ok(w)) => {
                        assert!(same(&v, w), "parse_file_{name} reads the block differently");
                        assert!(
                            matches!(w, Value::Object(_)),
                            "parse_file_{name} returned a non-mapping"
                        );
                    }
                    (Ok(v), Err(e)) => {
                        assert_eq!(
                            e.kind,
                            FrontmatterErrorKind::NotAMapping,
                            "parse_file_{name}: {e:?}"
                        );
                        assert!(!matches!(v, Value::Object(_)));
                    }
                    (Err(d), Err(e)) => {
                        assert_eq!(d.kind, e.kind, "parse_file_{name} and parse_yaml disagree")
                    }
                    (Err(d), Ok(_)) => {
                        panic!("parse_file_{name} accepted a block parse_yaml refuses: {d:?}")
                    }
                }
            }
        }
        if let Err(e) = parsed {
            check_error(e, text, &format!("parse_file_{name}"));
        }
    }
    if let (Ok(a), Ok(b)) = (&fs, &fl) {
        assert!(
            same(a, b),
            "strict and lenient read different values: {text:?}"
        );
    }

    // As a YAML block.
    match parse_yaml(text) {
        Ok(v) => {
            let json = v.to_json();
            let reparsed: serde_json::Value = serde_json::from_str(&json)
                .unwrap_or_else(|e| panic!("to_json() is not JSON ({e}): {json:?} from {text:?}"));
            drop(reparsed);
            match parse_yaml(&json) {
                Ok(w) => assert_eq!(
                    w.to_json(),
                    json,
                    "JSON read back as YAML differs, from {text:?}"
                ),
                Err(e) => assert!(
                    refusal_explained(&v, &json, e.kind),
                    "the JSON of an accepted value is refused as YAML ({e:?}): {json:?} from {text:?}"
                ),
            }
        }
        Err(e) => check_error(&e, text, "parse_yaml"),
    }
}

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        run(text);
    }
});
