//! Tests of `verify`.

use super::*;
use serde_json::{json, Value as Json};

/// A `resources/read` result as the JSON text a server sends.
fn rr(result: Json) -> Content {
    Content::ReadResult(result.to_string())
}

const SKILL_MD: &str =
        "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\n---\n\nSkill body.\n";
const FORMS: &str = "Supporting content.\n";

fn entry_for(skill_md: &str, frontmatter: &str) -> Entry {
    Entry::parse(&format!(
        r#"{{"uri":"skill://pdf-processing/SKILL.md","frontmatter":{frontmatter},"resources":[
              {{"uri":"skill://pdf-processing/SKILL.md","digest":"{}","size":{}}},
              {{"uri":"skill://pdf-processing/references/FORMS.md","digest":"{}","size":{}}},
              {{"uri":"skill://pdf-processing/assets/x.bin","digest":"{}","size":3}}]}}"#,
        digest_of(skill_md.as_bytes()),
        skill_md.len(),
        digest_of(FORMS.as_bytes()),
        FORMS.len(),
        digest_of(&[0, 255, 7]),
    ))
    .unwrap()
}

fn entry() -> Entry {
    entry_for(
        SKILL_MD,
        r#"{"name":"pdf-processing","description":"Extract, fill, and assemble PDF documents"}"#,
    )
}

fn read(uri: &str, item: Json) -> Json {
    let mut item = item;
    item["uri"] = json!(uri);
    json!({"contents":[item],"resultType":"complete","ttlMs":0,"cacheScope":"private"})
}

const NONE: VerifyOptions = VerifyOptions {
    allow_dynamic: false,
};

/// Found by the `host` fuzz target (its property read the file back in the compiler's
/// lenient mode): a raw U+2029 in a value is only ambiguous across YAML versions, so the
/// host reads it as text, as yaml@2 does, and verifies the file; the compiler refuses to
/// publish it.
#[test]
fn a_raw_paragraph_separator_in_a_value_verifies_in_host_mode() {
    let md = "---\nname: pdf-processing\ndescription: \"Extract\"\nnote: a\u{2029}b\n---\n";
    let e = entry_for(
        md,
        r#"{"name":"pdf-processing","description":"Extract","note":"a\u2029b"}"#,
    );
    let v = verify_skill_md(&e, &Content::Text(md.to_owned()), Hashing::Here).expect("verifies");
    assert!(v.receipt.verified);
    let fm = parse_file_host(md).expect("host mode reads it");
    assert!(fm.same_content(e.frontmatter()));
    assert!(crate::skill::frontmatter::parse_file_lenient(md).is_err());
}

#[test]
fn every_differing_field_is_named() {
    let entry = json::parse(r#"{"name":"a","description":"d","license":"MIT","tags":["x","y"]}"#)
        .unwrap()
        .to_value()
        .unwrap();
    let file = json::parse(r#"{"name":"a","description":"e","tags":["x","z"],"extra":1}"#)
        .unwrap()
        .to_value()
        .unwrap();
    let e = compare_frontmatter("skill://a/SKILL.md", &entry, &file).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("description"));
    assert_eq!(
        &*e.differences,
        ["description", "license", "tags[1]", "extra"]
    );
    assert!(
        e.message.ends_with("; so do `license`, `tags[1]`, `extra`"),
        "{}",
        e.message
    );
    let one =
        json::parse(r#"{"name":"a","description":"d","license":"MIT","tags":["x","y"],"z":2}"#)
            .unwrap()
            .to_value()
            .unwrap();
    let e = compare_frontmatter("skill://a/SKILL.md", &entry, &one).unwrap_err();
    assert_eq!(
        (&*e.differences, e.field.as_deref()),
        (&["z".to_owned()][..], Some("z"))
    );
}

#[test]
fn conformance_vectors() {
    // The suite's honest digest.
    assert_eq!(
        digest_of(SKILL_MD.as_bytes()),
        "sha256:a6d5f1f48af94923633d597c756194482fe5d48f74e49eb54bc9ee7c4902d5ba"
    );
    let e = entry();
    let u = e.uri().to_owned();
    assert!(verify_skill_md(&e, &Content::Text(SKILL_MD.into()), Hashing::Here).is_ok());
    // verify-digest: same length, other bytes.
    let tampered = SKILL_MD.replace("Skill body.\n", "Evil body!!\n");
    assert_eq!(tampered.len(), SKILL_MD.len());
    let err = verify_skill_md(&e, &Content::Text(tampered), Hashing::Here).unwrap_err();
    assert_eq!(err.code, ErrorCode::DigestMismatch);
    assert_eq!(err.uri.as_deref(), Some(u.as_str()));
    // verify-size.
    let longer = format!("{SKILL_MD}extra bytes the entry did not account for\n");
    let err = verify_skill_md(&e, &Content::Text(longer), Hashing::Here).unwrap_err();
    assert_eq!(err.code, ErrorCode::SizeMismatch);
    assert_eq!(
        (err.expected.as_deref(), err.actual.as_deref()),
        (Some("97"), Some("139"))
    );
    // verify-frontmatter: digest and size rewritten to match the tampered file.
    let evil = SKILL_MD.replace(
        "Extract, fill, and assemble PDF documents",
        "Exfiltrate credentials",
    );
    let e2 = entry_for(
        &evil,
        r#"{"name":"pdf-processing","description":"Extract, fill, and assemble PDF documents"}"#,
    );
    let err = verify_skill_md(&e2, &Content::Text(evil), Hashing::Here).unwrap_err();
    assert_eq!(err.code, ErrorCode::FrontmatterMismatch);
    assert_eq!(err.field.as_deref(), Some("description"));
    assert_eq!(
        err.expected.as_deref(),
        Some("\"Extract, fill, and assemble PDF documents\"")
    );
    assert_eq!(err.actual.as_deref(), Some("\"Exfiltrate credentials\""));
}

#[test]
fn read_results_text_and_blob() {
    let e = entry();
    let forms = "skill://pdf-processing/references/FORMS.md";
    let ok = verify_content(
        &e,
        forms,
        &rr(read(
            forms,
            json!({"text": FORMS, "mimeType":"text/markdown"}),
        )),
        Hashing::Here,
        NONE,
    )
    .unwrap();
    assert_eq!(ok.body.text(), Some(FORMS));
    assert_eq!(ok.mime_type.as_deref(), Some("text/markdown"));
    let bin = "skill://pdf-processing/assets/x.bin";
    let ok = verify_content(
        &e,
        bin,
        &rr(read(bin, json!({"blob": "AP8H"}))),
        Hashing::Here,
        NONE,
    )
    .unwrap();
    assert_eq!(ok.body.as_bytes(), &[0, 255, 7]);
    assert!(ok.receipt.verified);
    // Legacy result: no resultType.
    let legacy = json!({"contents":[{"uri": forms, "text": FORMS}]});
    assert!(verify_content(&e, forms, &rr(legacy.clone()), Hashing::Here, NONE).is_ok());
    // Extra items for other URIs are ignored.
    let extra =
        json!({"contents":[{"uri":"skill://other/x","text":"x"},{"uri": forms, "text": FORMS}]});
    assert!(verify_content(&e, forms, &rr(extra.clone()), Hashing::Here, NONE).is_ok());

    let code = |uri: &str, r: Json| {
        let err = verify_content(&e, uri, &rr(r.clone()), Hashing::Here, NONE).unwrap_err();
        // The content item alone: the same refusal, word for word.
        let text = r.to_string();
        let again = read_content(&json::parse(&text).unwrap(), uri, None).map(|_| ());
        if err.code == ErrorCode::InvalidReadResult {
            assert_eq!(again.unwrap_err(), err, "{r}");
        }
        err.code
    };
    use ErrorCode::*;
    assert_eq!(
        code(bin, read(bin, json!({"blob": "AP8-"}))),
        InvalidReadResult,
        "URL-safe alphabet"
    );
    assert_eq!(
        code(bin, read(bin, json!({"blob": "AP8"}))),
        InvalidReadResult,
        "bad length"
    );
    assert_eq!(
        code(bin, read(bin, json!({"blob": "AP8HAA=="}))),
        SizeMismatch,
        "size before decoding"
    );
    assert_eq!(
        code(bin, read(bin, json!({"blob": "AP8G"}))),
        DigestMismatch
    );
    assert_eq!(
        code(bin, read(bin, json!({"blob": "AP 8H"}))),
        InvalidReadResult
    );
    assert_eq!(
        code(forms, read(forms, json!({"text": FORMS, "blob": "AA=="}))),
        InvalidReadResult
    );
    assert_eq!(code(forms, read(forms, json!({}))), InvalidReadResult);
    assert_eq!(
        code(forms, read(forms, json!({"text": 5}))),
        InvalidReadResult
    );
    assert_eq!(code(forms, json!({"contents": []})), InvalidReadResult);
    assert_eq!(
        code(
            forms,
            json!({"contents": [{"uri": forms, "text": FORMS}, {"uri": forms, "text": FORMS}]})
        ),
        InvalidReadResult
    );
    assert_eq!(
        code(
            forms,
            json!({"resultType":"input_required","contents": [{"uri": forms, "text": FORMS}]})
        ),
        InvalidReadResult
    );
    assert_eq!(code(forms, json!([1])), InvalidReadResult);
    assert_eq!(
        code(forms, read(forms, json!({"text": "Supporting content!\n"}))),
        DigestMismatch
    );
    assert_eq!(
        code(
            "skill://pdf-processing/secret.md",
            read("skill://pdf-processing/secret.md", json!({"text": ""}))
        ),
        NotInManifest
    );
    // SKILL.md must be text.
    let blob = read(
        e.uri(),
        json!({"blob": base64::encode(SKILL_MD.as_bytes())}),
    );
    assert_eq!(
        verify_skill_md(&e, &rr(blob), Hashing::Here)
            .unwrap_err()
            .code,
        InvalidReadResult
    );
    let text = read(e.uri(), json!({"text": SKILL_MD}));
    assert_eq!(
        verify_skill_md(&e, &rr(text), Hashing::Here)
            .unwrap()
            .body(),
        "\nSkill body.\n"
    );
}

#[test]
fn frontmatter_is_compared_by_content() {
    let file =
        "\u{feff}---\nname: a\ndescription: d\nmetadata: {b: 1.0, a: [x, {z: 2}]}\n--- \nBody";
    let mk = |fm: &str| {
        Entry::parse(&format!(
                r#"{{"uri":"skill://a/SKILL.md","frontmatter":{fm},"resources":[{{"uri":"skill://a/SKILL.md","digest":"{}","size":{}}}]}}"#,
                digest_of(file.as_bytes()),
                file.len()
            ))
            .unwrap()
    };
    let check = |fm: &str| {
        verify_skill_md(
            &mk(fm),
            &Content::Bytes(file.as_bytes().to_vec()),
            Hashing::Here,
        )
    };
    let ok =
        check(r#"{"description":"d","name":"a","metadata":{"a":["x",{"z":2.0}],"b":1}}"#).unwrap();
    assert_eq!(ok.body(), "Body");
    let diff = |fm: &str| {
        let e = check(fm).unwrap_err();
        assert_eq!(e.code, ErrorCode::FrontmatterMismatch);
        (
            e.field.map(String::from).unwrap_or_default(),
            e.expected.map(String::from),
            e.actual.map(String::from),
        )
    };
    assert_eq!(
        diff(r#"{"name":"a","description":"d","metadata":{"b":1,"a":["x",{"z":3}]}}"#),
        ("metadata.a[1].z".into(), Some("3".into()), Some("2".into()))
    );
    assert_eq!(
        diff(r#"{"name":"a","description":"d"}"#),
        (
            "metadata".into(),
            None,
            Some(r#"{"b":1,"a":["x",{"z":2}]}"#.into())
        )
    );
    assert_eq!(
        diff(
            r#"{"name":"a","description":"d","metadata":{"b":1,"a":["x",{"z":2}]},"license":"MIT"}"#
        ),
        ("license".into(), Some("\"MIT\"".into()), None)
    );
    assert_eq!(
        diff(r#"{"name":"a","description":"d","metadata":{"b":1,"a":["x"]}}"#).0,
        "metadata.a"
    );
    assert_eq!(
        diff(r#"{"name":"a","description":"d","metadata":{"b":null,"a":["x",{"z":2}]}}"#),
        ("metadata.b".into(), Some("null".into()), Some("1".into()))
    );
    assert_eq!(
        diff(r#"{"name":"a","description":"d","metadata":{"b":1,"a":["x",{"z":2}],"io.x/k":"v"}}"#)
            .0,
        "metadata[\"io.x/k\"]"
    );
}

#[test]
fn unreadable_frontmatter_is_refused() {
    for file in [
        "no fences\n",
        "---\nname: a\n",
        "---\nname: a\nname: b\n---\n",
        "---\n- a\n---\n",
        "---\nname: a\ndescription: d\nx: !!str yes\n---\n",
        "---\nname: a\ndescription: d\n1: x\n---\n",
        "---\nname: a\ndescription: d\nx: .inf\n---\n",
        "---\nname: a\ndescription: d\nx: [a\n---\n",
    ] {
        let e = Entry::parse(&format!(
                r#"{{"uri":"skill://a/SKILL.md","frontmatter":{{"name":"a","description":"d"}},"resources":[{{"uri":"skill://a/SKILL.md","digest":"{}","size":{}}}]}}"#,
                digest_of(file.as_bytes()),
                file.len()
            ))
            .unwrap();
        let err = verify_skill_md(&e, &Content::Text(file.into()), Hashing::Here).unwrap_err();
        assert_eq!(err.code, ErrorCode::FrontmatterInvalid, "{file:?}");
        assert!(err.actual.unwrap().starts_with("frontmatter-"));
    }
    let bytes = vec![0xff, 0xfe];
    let e = Entry::parse(&format!(
            r#"{{"uri":"skill://a/SKILL.md","frontmatter":{{"name":"a","description":"d"}},"resources":[{{"uri":"skill://a/SKILL.md","digest":"{}","size":2}}]}}"#,
            digest_of(&bytes)
        ))
        .unwrap();
    assert_eq!(
        verify_skill_md(&e, &Content::Bytes(bytes), Hashing::Here)
            .unwrap_err()
            .code,
        ErrorCode::FrontmatterInvalid
    );
}

#[test]
fn values_only_ambiguous_across_yaml_versions_verify_as_yaml2_reads_them() {
    let file = "---\nname: a\ndescription: d\nreviewed: yes\nsince: 2024-01-01\nbuild: 007\nmode: 0o14\nscale: 1e3\n---\nBody\n";
    let mk = |fm: &str| {
        Entry::parse(&format!(
                r#"{{"uri":"skill://a/SKILL.md","frontmatter":{fm},"resources":[{{"uri":"skill://a/SKILL.md","digest":"{}","size":{}}}]}}"#,
                digest_of(file.as_bytes()),
                file.len()
            ))
            .unwrap()
    };
    let yaml2 = r#"{"name":"a","description":"d","reviewed":"yes","since":"2024-01-01","build":7,"mode":12,"scale":1000}"#;
    let ok = verify_skill_md(&mk(yaml2), &Content::Text(file.into()), Hashing::Here).unwrap();
    assert_eq!(ok.frontmatter.to_json(), yaml2);
    assert_eq!(ok.body(), "Body\n");
    // Any other reading is a mismatch, naming the field: YAML 1.1's boolean, the string
    // as written, a YAML 1.1 octal, a date object's JSON form.
    for (fm, field, actual) in [
        (yaml2.replace(r#""yes""#, "true"), "reviewed", r#""yes""#),
        (yaml2.replace(":7,", r#":"007","#), "build", "7"),
        (yaml2.replace(":12,", ":14,"), "mode", "12"),
        (
            yaml2.replace(r#""2024-01-01""#, r#""2024-01-01T00:00:00.000Z""#),
            "since",
            r#""2024-01-01""#,
        ),
    ] {
        let err =
            verify_skill_md(&mk(&fm), &Content::Text(file.into()), Hashing::Here).unwrap_err();
        assert_eq!(err.code, ErrorCode::FrontmatterMismatch, "{fm}");
        assert_eq!(err.field.as_deref(), Some(field), "{fm}");
        assert_eq!(err.actual.as_deref(), Some(actual), "{fm}");
    }
}

#[test]
fn dynamic_entries_need_an_opt_in() {
    let file = "---\nname: d\ndescription: x\n---\n";
    let e = Entry::parse(r#"{"uri":"skill://r/d/SKILL.md","frontmatter":{"name":"d","description":"x"},"resources":"dynamic"}"#).unwrap();
    let err = verify_bytes(&e, "skill://r/d/a.md", b"x", Hashing::Here, NONE).unwrap_err();
    assert_eq!(err.code, ErrorCode::DynamicNotAllowed);
    let yes = VerifyOptions {
        allow_dynamic: true,
    };
    let r = verify_bytes(&e, "skill://r/d/a.md", b"x", Hashing::Here, yes).unwrap();
    assert!(!r.verified);
    assert_eq!(
        verify_bytes(&e, "skill://r/other.md", b"x", Hashing::Here, yes)
            .unwrap_err()
            .code,
        ErrorCode::EscapesRoot
    );
    // The frontmatter is still verified.
    let ok = verify_skill_md(&e, &Content::Text(file.into()), Hashing::Here).unwrap();
    assert!(!ok.receipt.verified);
    let bad = verify_skill_md(
        &e,
        &Content::Text(file.replace("x\n", "w\n")),
        Hashing::Here,
    )
    .unwrap_err();
    assert_eq!(bad.code, ErrorCode::FrontmatterMismatch);
}

/// A digest computed elsewhere gives exactly what hashing here gives (receipts and errors,
/// fields included), with the bytes or with their length alone, and the size is checked
/// before the digest is needed.
#[test]
fn precomputed_digests_verify_like_bytes() {
    let e = entry();
    let dynamic = Entry::parse(r#"{"uri":"skill://r/d/SKILL.md","frontmatter":{"name":"d","description":"x"},"resources":"dynamic"}"#).unwrap();
    let yes = VerifyOptions {
        allow_dynamic: true,
    };
    let forms = "skill://pdf-processing/references/FORMS.md";
    let cases: Vec<(&Entry, &str, Vec<u8>, VerifyOptions)> = vec![
        (&e, forms, FORMS.as_bytes().to_vec(), NONE),
        (&e, forms, b"Supporting content!\n".to_vec(), NONE),
        (&e, forms, b"short".to_vec(), NONE),
        (&e, "skill://pdf-processing/secret.md", b"x".to_vec(), NONE),
        (
            &e,
            "skill://pdf-processing/assets/x.bin",
            vec![0, 255, 7],
            NONE,
        ),
        (&dynamic, "skill://r/d/a.md", b"x".to_vec(), NONE),
        (&dynamic, "skill://r/d/a.md", b"x".to_vec(), yes),
        (&dynamic, "skill://r/other.md", b"x".to_vec(), yes),
    ];
    for (entry, uri, bytes, opts) in cases {
        let size = bytes.len() as u64;
        let expected = verify_bytes(entry, uri, &bytes, Hashing::Here, opts);
        let given = digest_of(&bytes);
        assert_eq!(
            verify_bytes(entry, uri, &bytes, Hashing::Given(&given), opts),
            expected,
            "{uri}"
        );
        assert_eq!(
            verify_file_with(entry, uri, size, || Ok(given.clone()), opts),
            expected,
            "{uri}"
        );
        let mut hashed = false;
        let with = verify_file_with(
            entry,
            uri,
            size,
            || {
                hashed = true;
                Ok(digest_of(&bytes))
            },
            opts,
        );
        assert_eq!(with, expected, "{uri}");
        // The digest is computed only when listing and size pass.
        let pre = check_file_size(entry, uri, size, opts);
        assert_eq!(hashed, pre.is_ok(), "{uri}");
        match (&pre, &expected) {
            (Ok(()), _) => {}
            (Err(p), Err(x)) => assert_eq!(p, x, "{uri}"),
            (Err(p), Ok(_)) => panic!("{uri}: refused before hashing: {p:?}"),
        }
    }
    // A wrong size is refused whatever the digest says, without calling for it.
    let err =
        verify_file_with(&e, forms, 1, || panic!("hashed despite a wrong size"), NONE).unwrap_err();
    assert_eq!(err.code, ErrorCode::SizeMismatch);
    // A digest that is not in wire form is an argument error.
    for bad in ["", "sha256:", &digest_of(b"x").to_uppercase(), "md5:00"] {
        let err = verify_bytes(&e, forms, FORMS.as_bytes(), Hashing::Given(bad), NONE).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidArgument, "{bad:?}");
        let text = Content::Text(FORMS.into());
        let err = verify_content(&e, forms, &text, Hashing::Given(bad), NONE).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidArgument, "{bad:?}");
        let err =
            verify_skill_md(&e, &Content::Text(SKILL_MD.into()), Hashing::Given(bad)).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidArgument, "{bad:?}");
    }
}

#[test]
fn a_server_that_repeats_a_member_of_a_read_result_is_refused() {
    // A member given twice would let two readers see two different results; each
    // member the check reads is refused when repeated, wherever it is.
    let e = entry();
    let forms = "skill://pdf-processing/references/FORMS.md";
    let item = format!(
        r#""uri":"{forms}","text":{}"#,
        serde_json::to_string(FORMS).unwrap()
    );
    let good = format!(r#"{{"contents":[{{{item}}}]}}"#);
    assert!(verify_content(&e, forms, &Content::ReadResult(good), Hashing::Here, NONE).is_ok());
    for twice in [
        format!(r#"{{"contents":[{{{item},"text":"x"}}]}}"#),
        format!(r#"{{"contents":[{{{item},"uri":"skill://pdf-processing/x"}}]}}"#),
        format!(r#"{{"contents":[{{{item},"mimeType":"a","mimeType":"b"}}]}}"#),
        format!(r#"{{"contents":[{{{item}}}],"contents":[]}}"#),
        format!(r#"{{"resultType":"complete","resultType":"x","contents":[{{{item}}}]}}"#),
        format!(r#"{{"contents":[{{"uri":"skill://o/x","uri":"skill://o/y"}},{{{item}}}]}}"#),
    ] {
        let err = verify_content(
            &e,
            forms,
            &Content::ReadResult(twice.clone()),
            Hashing::Here,
            NONE,
        )
        .unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidReadResult, "{twice}");
        assert!(err.message.contains("duplicate field"), "{}", err.message);
    }
}

#[test]
fn a_read_result_and_its_item_verify_alike() {
    // The same outcome as the content item read from it, for a good result and a tampered one.
    let e = entry();
    let forms = "skill://pdf-processing/references/FORMS.md";
    let good = read(forms, json!({"text": FORMS, "mimeType": "text/markdown"}));
    for content in [
        rr(good.clone()),
        Content::Item {
            body: Body::Text(FORMS.into()),
            mime_type: None,
        },
    ] {
        let v = verify_content(&e, forms, &content, Hashing::Here, NONE).unwrap();
        assert_eq!(v.body.text(), Some(FORMS));
    }
    let bad = read(forms, json!({"text": format!("{FORMS}!")}));
    for content in [
        rr(bad.clone()),
        Content::Item {
            body: Body::Text(format!("{FORMS}!")),
            mime_type: None,
        },
    ] {
        let err = verify_content(&e, forms, &content, Hashing::Here, NONE).unwrap_err();
        assert_eq!(err.code, ErrorCode::SizeMismatch);
    }
    // A value nested deeper than any JSON text serde_json reads (128 levels) is refused
    // as a malformed result, not read past its depth.
    let mut deep = json!(0);
    for _ in 0..200 {
        deep = json!([deep]);
    }
    let mut nested = good;
    nested["_meta"] = deep;
    let err = verify_content(&e, forms, &rr(nested), Hashing::Here, NONE).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidReadResult);
}

#[test]
fn read_result_content_checks_everything_before_the_digest() {
    let e = entry();
    let forms = "skill://pdf-processing/references/FORMS.md";
    let bin = "skill://pdf-processing/assets/x.bin";
    let (body, mime) = read_result_content(
        &e,
        forms,
        &read(forms, json!({"text": FORMS, "mimeType": "text/markdown"})).to_string(),
        NONE,
    )
    .unwrap();
    assert_eq!(body.text(), Some(FORMS));
    assert_eq!(mime.as_deref(), Some("text/markdown"));
    // A wrong digest is not its business; a wrong size, an unlisted file and a bad
    // result are.
    let (body, _) = read_result_content(
        &e,
        bin,
        &read(bin, json!({"blob": "AP8G"})).to_string(),
        NONE,
    )
    .unwrap();
    assert_eq!(body.as_bytes(), &[0, 255, 6]);
    let code = |uri: &str, r: Json| {
        read_result_content(&e, uri, &r.to_string(), NONE)
            .unwrap_err()
            .code
    };
    assert_eq!(
        code(forms, read(forms, json!({"text": "short"}))),
        ErrorCode::SizeMismatch
    );
    assert_eq!(
        code(bin, read(bin, json!({"blob": "AP8HAA=="}))),
        ErrorCode::SizeMismatch
    );
    assert_eq!(
        code(forms, json!({"contents": []})),
        ErrorCode::InvalidReadResult
    );
    assert_eq!(
        code("skill://pdf-processing/secret.md", json!({"contents": []})),
        ErrorCode::NotInManifest
    );
}

#[test]
fn skill_md_with_a_precomputed_digest_verifies_like_hashing() {
    let e = entry();
    let tampered = SKILL_MD.replace("Skill body.\n", "Evil body!!\n");
    let longer = format!("{SKILL_MD}x");
    let dynamic = Entry::parse(r#"{"uri":"skill://r/d/SKILL.md","frontmatter":{"name":"d","description":"x"},"resources":"dynamic"}"#).unwrap();
    let dyn_md = "---\nname: d\ndescription: x\n---\n";
    let cases: Vec<(&Entry, Content)> = vec![
        (&e, Content::Text(SKILL_MD.into())),
        (&e, Content::Bytes(SKILL_MD.as_bytes().to_vec())),
        (&e, Content::Text(tampered.clone())),
        (&e, Content::Text(longer.clone())),
        (&e, Content::Bytes(vec![0xff; SKILL_MD.len()])),
        (
            &e,
            rr(read(
                e.uri(),
                json!({"text": SKILL_MD, "mimeType": "text/markdown"}),
            )),
        ),
        (&e, rr(read(e.uri(), json!({"text": tampered})))),
        (
            &e,
            Content::Item {
                body: Body::Text(SKILL_MD.into()),
                mime_type: Some("text/markdown".into()),
            },
        ),
        (
            &e,
            Content::Item {
                body: Body::Text(tampered.clone()),
                mime_type: Some("text/markdown".into()),
            },
        ),
        (&dynamic, Content::Text(dyn_md.into())),
        (&dynamic, Content::Text(dyn_md.replace("x\n", "w\n"))),
        (
            &e,
            Content::Item {
                body: Body::Text(tampered.clone()),
                mime_type: None,
            },
        ),
        (
            &e,
            Content::Item {
                body: Body::Blob(SKILL_MD.as_bytes().to_vec()),
                mime_type: None,
            },
        ),
    ];
    for (entry, content) in cases {
        let bytes: Vec<u8> = match &content {
            Content::Text(t) => t.as_bytes().to_vec(),
            Content::Bytes(b) => b.clone(),
            Content::ReadResult(r) => serde_json::from_str::<Json>(r).unwrap()["contents"][0]
                ["text"]
                .as_str()
                .unwrap()
                .as_bytes()
                .to_vec(),
            Content::Item { body, .. } => body.as_bytes().to_vec(),
        };
        let expected = verify_skill_md(entry, &content, Hashing::Here);
        let got = verify_skill_md(entry, &content, Hashing::Given(&digest_of(&bytes)));
        match (expected, got) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a.receipt, b.receipt);
                assert_eq!(
                    (a.text, a.body_start, a.mime_type),
                    (b.text, b.body_start, b.mime_type)
                );
                assert!(a.frontmatter.same_content(&b.frontmatter));
            }
            (Err(a), Err(b)) => assert_eq!(a, b),
            (a, b) => panic!("{:?} vs {:?}", a.map(|v| v.receipt), b.map(|v| v.receipt)),
        }
    }
}

/// Every `resources/read` result as a whole and as the content item [`read_content`]
/// extracts, hashed here and with the digest given: the same outcome all four ways.
#[test]
fn content_items_and_given_digests_verify_like_read_results() {
    let e = entry();
    let forms = "skill://pdf-processing/references/FORMS.md";
    let bin = "skill://pdf-processing/assets/x.bin";
    let tampered = FORMS.replacen('a', "b", 1);
    let cases = [
        (
            forms,
            read(forms, json!({"text": FORMS, "mimeType": "text/markdown"})),
        ),
        (forms, read(forms, json!({"text": tampered}))),
        (forms, read(forms, json!({"text": format!("{FORMS}x")}))),
        (
            bin,
            read(
                bin,
                json!({"blob": "AP8H", "mimeType": "application/octet-stream"}),
            ),
        ),
        (bin, read(bin, json!({"blob": "AP8G"}))),
        (bin, read(bin, json!({"blob": "AP8HAA=="}))),
        (e.uri(), read(e.uri(), json!({"text": SKILL_MD}))),
    ];
    for (uri, result) in cases {
        let expected = verify_content(&e, uri, &rr(result.clone()), Hashing::Here, NONE);
        // As the client reads it: with the size its plan expects, and when that fails the
        // whole result goes to the verifier.
        let size = e.item(uri).map(|i| i.size);
        let text = result.to_string();
        let item = match read_content(&json::parse(&text).unwrap(), uri, size) {
            Ok((body, mime_type)) => Content::Item { body, mime_type },
            Err(err) => {
                assert_eq!(Err(err), expected, "{uri}");
                continue;
            }
        };
        let Content::Item { body, .. } = &item else {
            panic!("not an item");
        };
        let digest = digest_of(body.as_bytes());
        assert_eq!(
            verify_content(&e, uri, &item, Hashing::Here, NONE),
            expected,
            "{uri}"
        );
        assert_eq!(
            verify_content(&e, uri, &item, Hashing::Given(&digest), NONE),
            expected,
            "{uri}"
        );
        assert_eq!(
            verify_content(&e, uri, &rr(result), Hashing::Given(&digest), NONE),
            expected,
            "{uri}"
        );
    }
    // The digest is the caller's: one of other bytes is a digest mismatch, one not in
    // wire form is refused before anything is compared.
    let item = Content::Item {
        body: Body::Text(FORMS.into()),
        mime_type: None,
    };
    let other = digest_of(b"other");
    let err = verify_content(&e, forms, &item, Hashing::Given(&other), NONE).unwrap_err();
    assert_eq!(
        (err.code, err.actual.as_deref()),
        (ErrorCode::DigestMismatch, Some(other.as_str()))
    );
    let err = verify_content(&e, forms, &item, Hashing::Given("sha256:x"), NONE).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidArgument);
}

#[test]
fn references_resolve_inside_the_root() {
    let u = "skill://acme/billing/refunds/SKILL.md";
    assert_eq!(
        resolve(u, "references/GUIDE.md").unwrap(),
        "skill://acme/billing/refunds/references/GUIDE.md"
    );
    assert_eq!(
        resolve(u, "./a/../b.md?x#y").unwrap(),
        "skill://acme/billing/refunds/b.md"
    );
    assert_eq!(
        resolve(u, "skill://acme/billing/refunds/x").unwrap(),
        "skill://acme/billing/refunds/x"
    );
    let code = |r: &str| resolve(u, r).unwrap_err().code;
    assert_eq!(code("../chargebacks/SKILL.md"), ErrorCode::EscapesRoot);
    assert_eq!(code("/etc/passwd"), ErrorCode::EscapesRoot);
    assert_eq!(
        code("skill://acme/billing/refunds-extra/x"),
        ErrorCode::EscapesRoot
    );
    assert_eq!(code("https://example.com/x"), ErrorCode::EscapesRoot);
    assert_eq!(code(""), ErrorCode::InvalidReference);
    assert_eq!(code("a\\b"), ErrorCode::InvalidReference);
    assert_eq!(code("1ab:x"), ErrorCode::InvalidReference);
    assert_eq!(
        resolve("skill://x", "a").unwrap_err().code,
        ErrorCode::InvalidArgument
    );
}
