//! Tests of `entry`.

use super::*;
use crate::skill::digest::digest_of;

pub(crate) fn entry_json(uri: &str, name: &str, items: &[(&str, &[u8])]) -> String {
    let res: Vec<String> = items
        .iter()
        .map(|(u, b)| {
            format!(
                r#"{{"uri":"{u}","digest":"{}","size":{}}}"#,
                digest_of(b),
                b.len()
            )
        })
        .collect();
    format!(
        r#"{{"uri":"{uri}","frontmatter":{{"name":"{name}","description":"d"}},"resources":[{}]}}"#,
        res.join(",")
    )
}

fn code(json: &str) -> ErrorCode {
    Entry::parse(json).unwrap_err().code
}

#[test]
fn a_valid_entry_reads_back() {
    let j = entry_json(
        "skill://acme/billing/refunds/SKILL.md",
        "refunds",
        &[
            ("skill://acme/billing/refunds/SKILL.md", b"x"),
            ("skill://acme/billing/refunds/templates/a.md", b"yy"),
        ],
    );
    let e = Entry::parse(&j).unwrap();
    assert_eq!(e.root(), "skill://acme/billing/refunds");
    assert_eq!(e.name(), "refunds");
    assert_eq!(e.description(), "d");
    assert_eq!(e.items().unwrap().len(), 2);
    assert_eq!(e.skill_md_item().unwrap().size, 1);
    assert_eq!(Entry::parse(&e.to_json()).unwrap(), e);
    let r = e.check_limits().unwrap().unwrap();
    assert_eq!((r.resource_count, r.total_size), (2, 3));
}

#[test]
fn unknown_fields_are_ignored() {
    let j = entry_json("skill://a/SKILL.md", "a", &[("skill://a/SKILL.md", b"x")]);
    let with_meta = j.replacen('{', r#"{"_meta":{"x":1},"vendor":[1,2],"#, 1);
    let with_item_meta = j.replace(r#""size":1}"#, r#""size":1,"_meta":{"y":true}}"#);
    let plain = Entry::parse(&j).unwrap();
    assert_eq!(Entry::parse(&with_meta).unwrap(), plain);
    assert_eq!(Entry::parse(&with_item_meta).unwrap(), plain);
}

/// A `_meta` that names a signature is read strictly: a repeated key there is refused (which
/// envelope counts would depend on the reader); one without a signature stays an unknown
/// field, whatever it repeats.
#[test]
fn a_signature_meta_that_repeats_a_key_is_refused() {
    let j = entry_json("skill://a/SKILL.md", "a", &[("skill://a/SKILL.md", b"x")]);
    let plain = Entry::parse(&j).unwrap();
    let unsigned = j.replacen('{', r#"{"_meta":{"x":1,"x":2},"#, 1);
    assert_eq!(Entry::parse(&unsigned).unwrap(), plain);
    assert!(Entry::parse(&unsigned).unwrap().signature().is_none());
    let dsse = r#""io.github.skills-edge/dsse":{"payload":"e30=","payloadType":"t","signatures":[]}"#;
    let signed = j.replacen('{', &format!(r#"{{"_meta":{{{dsse}}},"#), 1);
    assert!(Entry::parse(&signed).unwrap().signature().is_some());
    for repeated in [
        format!(r#"{{"_meta":{{"x":1,"x":2,{dsse}}},"#),
        format!(r#"{{"_meta":{{{dsse},{dsse}}},"#),
    ] {
        let e = Entry::parse(&j.replacen('{', &repeated, 1)).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidEntry, "{e}");
        assert!(e.message.contains("`_meta` is not valid JSON: duplicate key"), "{e}");
    }
}

#[test]
fn dynamic_entries() {
    let j = r#"{"uri":"skill://r/d/SKILL.md","frontmatter":{"name":"d","description":"x"},"resources":"dynamic"}"#;
    let e = Entry::parse(j).unwrap();
    assert!(e.is_dynamic());
    assert_eq!(e.check_limits().unwrap(), None);
    assert!(!e.same_file_set(&e));
    assert_eq!(Entry::parse(&e.to_json()).unwrap(), e);
    assert_eq!(
        code(&j.replace("\"dynamic\"", "\"static\"")),
        ErrorCode::InvalidEntry
    );
    assert_eq!(
        code(&j.replace("\"dynamic\"", "null")),
        ErrorCode::InvalidEntry
    );
    assert_eq!(
        code(&j.replace("\"dynamic\"", "{}")),
        ErrorCode::InvalidEntry
    );
    assert_eq!(
        code(&j.replace(",\"resources\":\"dynamic\"", "")),
        ErrorCode::InvalidEntry
    );
}

#[test]
fn invalid_entries_are_refused() {
    let good = entry_json(
        "skill://a/SKILL.md",
        "a",
        &[("skill://a/SKILL.md", b"x"), ("skill://a/r/b.md", b"y")],
    );
    assert!(Entry::parse(&good).is_ok());
    let d = digest_of(b"x");
    let cases: Vec<(String, &str)> = vec![
        ("[]".into(), "not an object"),
        ("{".into(), "not JSON"),
        (
            good.replace(
                "\"uri\":\"skill://a/SKILL.md\",\"frontmatter\"",
                "\"frontmatter\"",
            ),
            "no uri",
        ),
        (
            good.replacen("skill://a/SKILL.md", "skill://a/skill.md", 1),
            "not SKILL.md",
        ),
        (
            good.replace("skill://a/", "skill://b/"),
            "name differs from segment",
        ),
        (
            good.replace("\"name\":\"a\"", "\"name\":1"),
            "name not a string",
        ),
        (
            good.replace("\"description\":\"d\"", "\"description\":null"),
            "description not a string",
        ),
        (
            good.replace("{\"name\":\"a\",\"description\":\"d\"}", "[]"),
            "frontmatter not an object",
        ),
        (
            good.replace("skill://a/", "skill://A/")
                .replace("\"name\":\"a\"", "\"name\":\"A\""),
            "bad name",
        ),
        (
            good.replace(&d, &d.to_uppercase().replace("SHA256", "sha256")),
            "uppercase digest (A6)",
        ),
        (good.replace(&d, "sha256:abc"), "short digest"),
        (good.replace("\"size\":1", "\"size\":-1"), "negative size"),
        (
            good.replace("\"size\":1", "\"size\":1.5"),
            "fractional size",
        ),
        (
            good.replace("\"size\":1", "\"size\":9007199254740992"),
            "unsafe size",
        ),
        (good.replace("\"size\":1", "\"size\":\"1\""), "string size"),
        (
            good.replace("skill://a/r/b.md", "skill://a-extra/b.md"),
            "sibling prefix",
        ),
        (
            good.replace("skill://a/r/b.md", "skill://a/../b.md"),
            "dot segment",
        ),
        (
            good.replace("skill://a/r/b.md", "skill://a//b.md"),
            "empty segment",
        ),
        (
            good.replace("skill://a/r/b.md", "skill://a"),
            "the root itself",
        ),
        (
            good.replace("skill://a/r/b.md", "skill://a/SKILL.md"),
            "duplicate",
        ),
        (
            good.replace(
                "\"uri\":\"skill://a/SKILL.md\",\"digest\"",
                "\"uri\":\"skill://a/x.md\",\"digest\"",
            ),
            "no self item",
        ),
        (
            good.replacen(
                "\"uri\":\"skill://a/SKILL.md\"",
                "\"uri\":\"skill://a/SKILL.md\",\"uri\":\"skill://a/SKILL.md\"",
                1,
            ),
            "duplicate key",
        ),
        (
            good.replace("{\"name\":\"a\",", "{\"name\":\"a\",\"name\":\"a\","),
            "duplicate frontmatter key",
        ),
    ];
    for (json, why) in cases {
        assert_eq!(code(&json), ErrorCode::InvalidEntry, "{why}: {json}");
    }
    for uri in [
        "a/SKILL.md",
        "1x://a/SKILL.md",
        "skill://a b/a/SKILL.md",
        "skill://x/./a/SKILL.md",
        "skill://a/SKILL.md?x",
    ] {
        let j = entry_json(uri, "a", &[(uri, b"x")]);
        assert_eq!(code(&j), ErrorCode::InvalidEntry, "{uri}");
    }
    let e = Entry::parse(&good.replace("\"size\":1", "\"size\":1.0")).unwrap();
    assert_eq!(e.skill_md_item().unwrap().size, 1);
}

#[test]
fn other_schemes_are_accepted() {
    let uri = "github://o/r/skills/refunds/SKILL.md";
    let j = entry_json(
        uri,
        "refunds",
        &[(uri, b"x"), ("github://o/r/skills/refunds/a.md", b"y")],
    );
    assert_eq!(
        Entry::parse(&j).unwrap().root(),
        "github://o/r/skills/refunds"
    );
}

#[test]
fn limits_are_checked_from_the_entry() {
    let uri = "skill://a/SKILL.md";
    let names: Vec<String> = (0..512).map(|i| format!("skill://a/f{i}")).collect();
    let mut items: Vec<(&str, &[u8])> = vec![(uri, b"x")];
    items.extend(names.iter().map(|n| (n.as_str(), &b""[..])));
    let over = Entry::parse(&entry_json(uri, "a", &items)).unwrap();
    let e = over.check_limits().unwrap_err();
    assert_eq!(e.code, ErrorCode::LimitExceeded);
    assert_eq!(
        (e.expected.as_deref(), e.actual.as_deref()),
        (Some("512"), Some("513"))
    );
    items.pop();
    assert!(Entry::parse(&entry_json(uri, "a", &items))
        .unwrap()
        .check_limits()
        .is_ok());

    let big = entry_json(uri, "a", &[(uri, b"x")]).replace("\"size\":1", "\"size\":16777217");
    let e = Entry::parse(&big).unwrap().check_limits().unwrap_err();
    assert_eq!(e.code, ErrorCode::LimitExceeded);
    let exact = entry_json(uri, "a", &[(uri, b"x")]).replace("\"size\":1", "\"size\":16777216");
    assert!(Entry::parse(&exact).unwrap().check_limits().is_ok());
}

#[test]
fn file_sets_compare_uri_and_digest_only() {
    let a = Entry::parse(&entry_json(
        "skill://a/SKILL.md",
        "a",
        &[("skill://a/SKILL.md", b"x"), ("skill://a/b", b"y")],
    ))
    .unwrap();
    let reordered = Entry::parse(&entry_json(
        "skill://a/SKILL.md",
        "a",
        &[("skill://a/b", b"y"), ("skill://a/SKILL.md", b"x")],
    ))
    .unwrap();
    let changed = Entry::parse(&entry_json(
        "skill://a/SKILL.md",
        "a",
        &[("skill://a/SKILL.md", b"x"), ("skill://a/b", b"z")],
    ))
    .unwrap();
    let added = Entry::parse(&entry_json(
        "skill://a/SKILL.md",
        "a",
        &[
            ("skill://a/SKILL.md", b"x"),
            ("skill://a/b", b"y"),
            ("skill://a/c", b""),
        ],
    ))
    .unwrap();
    assert!(a.same_file_set(&reordered));
    assert!(!a.same_file_set(&changed));
    assert!(!a.same_file_set(&added));
    assert!(!added.same_file_set(&a));
}
