//! Tests of `index`.

use super::*;

const BASE: &str = "http://a/b/c/d;p?q";

#[test]
fn rfc3986_normal_examples() {
    for (r, t) in [
        ("g:h", "g:h"),
        ("g", "http://a/b/c/g"),
        ("./g", "http://a/b/c/g"),
        ("g/", "http://a/b/c/g/"),
        ("/g", "http://a/g"),
        ("//g", "http://g"),
        ("?y", "http://a/b/c/d;p?y"),
        ("g?y", "http://a/b/c/g?y"),
        ("#s", "http://a/b/c/d;p?q#s"),
        ("g#s", "http://a/b/c/g#s"),
        ("g?y#s", "http://a/b/c/g?y#s"),
        (";x", "http://a/b/c/;x"),
        ("g;x", "http://a/b/c/g;x"),
        ("g;x?y#s", "http://a/b/c/g;x?y#s"),
        ("", "http://a/b/c/d;p?q"),
        (".", "http://a/b/c/"),
        ("./", "http://a/b/c/"),
        ("..", "http://a/b/"),
        ("../", "http://a/b/"),
        ("../g", "http://a/b/g"),
        ("../..", "http://a/"),
        ("../../", "http://a/"),
        ("../../g", "http://a/g"),
    ] {
        assert_eq!(resolve_reference_uri(BASE, r), t, "{r}");
    }
}

#[test]
fn rfc3986_abnormal_examples() {
    for (r, t) in [
        ("../../../g", "http://a/g"),
        ("../../../../g", "http://a/g"),
        ("/./g", "http://a/g"),
        ("/../g", "http://a/g"),
        ("g.", "http://a/b/c/g."),
        (".g", "http://a/b/c/.g"),
        ("g..", "http://a/b/c/g.."),
        ("..g", "http://a/b/c/..g"),
        ("./../g", "http://a/b/g"),
        ("./g/.", "http://a/b/c/g/"),
        ("g/./h", "http://a/b/c/g/h"),
        ("g/../h", "http://a/b/c/h"),
        ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
        ("g;x=1/../y", "http://a/b/c/y"),
        ("g?y/./x", "http://a/b/c/g?y/./x"),
        ("g?y/../x", "http://a/b/c/g?y/../x"),
        ("g#s/./x", "http://a/b/c/g#s/./x"),
        ("g#s/../x", "http://a/b/c/g#s/../x"),
        ("http:g", "http:g"),
    ] {
        assert_eq!(resolve_reference_uri(BASE, r), t, "{r}");
    }
}

#[test]
fn resolve_url_for_an_index() {
    let base = "https://h/.well-known/agent-skills/index.json";
    assert_eq!(
        resolve_url(base, "/x/a.tar.gz").unwrap(),
        "https://h/x/a.tar.gz"
    );
    assert_eq!(
        resolve_url(base, "a/SKILL.md#f").unwrap(),
        "https://h/.well-known/agent-skills/a/SKILL.md"
    );
    assert_eq!(
        resolve_url(base, "https://cdn.example/v2/a.zip").unwrap(),
        "https://cdn.example/v2/a.zip"
    );
    assert!(resolve_url(base, "file:///etc/passwd").is_err());
    assert!(resolve_url(base, "http:g").is_err());
    assert!(resolve_url(base, "a b").is_err());
    assert!(resolve_url(base, "").is_err());
}

fn v2(skills: &str) -> String {
    format!(r#"{{"$schema":"{SCHEMA_V0_2_0}","extra":true,"skills":[{skills}]}}"#)
}

const D: &str = "sha256:0000000000000000000000000000000000000000000000000000000000000000";
const URL: &str = "https://h/.well-known/agent-skills/index.json";

#[test]
fn schema_rules() {
    let refused = |body: &[u8]| match parse_index(URL, body) {
        Err(IndexError::Refused(e)) => Some(e.code),
        _ => None,
    };
    assert_eq!(
            refused(br#"{"$schema":"https://schemas.agentskills.io/discovery/0.3.0/schema.json","skills":[]}"#),
            Some(ErrorCode::UnknownSchema)
        );
    assert_eq!(
        refused(br#"{"$schema":7,"skills":[]}"#),
        Some(ErrorCode::UnknownSchema)
    );
    for body in [&b"[]"[..], b"{", br#"{"skills":{}}"#] {
        assert!(
            matches!(parse_index(URL, body), Err(IndexError::NotAnIndex { url, .. }) if url == URL),
            "{body:?}"
        );
    }
    let old = parse_index(
        URL,
        br#"{"skills":[{"name":"a","description":"A.","files":["SKILL.md","references/x.md"]}]}"#,
    )
    .unwrap();
    assert_eq!(old.version, IndexVersion::V0_1_0);
    let Ok(IndexSkill {
        artifact: Artifact::Files(files),
        ..
    }) = &old.skills[0]
    else {
        panic!("{old:?}")
    };
    assert_eq!(
        files[1].1,
        "https://h/.well-known/agent-skills/a/references/x.md"
    );
    // A v0.2.0 entry read without $schema: its files are not path strings.
    let wrong = parse_index(
        URL,
        br#"{"skills":[{"name":"a","description":"A.","files":[{"path":"SKILL.md"}]}]}"#,
    )
    .unwrap();
    assert_eq!(
        wrong.skills[0].as_ref().unwrap_err().error.field.as_deref(),
        Some("skills[0].files[0]")
    );
    let up = parse_index(
        URL,
        br#"{"skills":[{"name":"a","description":"A.","files":["../x"]}]}"#,
    )
    .unwrap();
    assert!(up.skills[0].is_err());
}

#[test]
fn a_signature_envelope_is_resolved_from_meta() {
    let entry = |meta: &str| {
        let body = v2(&format!(
            r#"{{"name":"a","type":"skill-md","description":"A.","url":"a/SKILL.md","digest":"{D}","_meta":{meta}}}"#
        ));
        parse_index(URL, body.as_bytes())
            .unwrap()
            .skills
            .remove(0)
            .map_err(|r| r.error.field)
    };
    let signed = entry(r#"{"io.github.skills-edge/dsse":"/.well-known/agent-skills/a.dsse.json"}"#);
    assert_eq!(
        signed.unwrap().envelope.as_deref(),
        Some("https://h/.well-known/agent-skills/a.dsse.json")
    );
    for unsigned in [r#"{}"#, r#"{"io.github.skills-edge/dsse":null}"#, "7"] {
        assert_eq!(entry(unsigned).unwrap().envelope, None, "{unsigned}");
    }
    for bad in [
        r#"{"io.github.skills-edge/dsse":{"payload":"x"}}"#,
        r#"{"io.github.skills-edge/dsse":"ftp://h/a.dsse.json"}"#,
    ] {
        assert_eq!(
            entry(bad).unwrap_err().as_deref(),
            Some("skills[0]._meta[\"io.github.skills-edge/dsse\"]"),
            "{bad}"
        );
    }
}

#[test]
fn the_key_set_is_named_by_the_index_or_at_its_usual_path() {
    let keys = |top: &str| {
        let body = format!(r#"{{"$schema":"{SCHEMA_V0_2_0}",{top}"skills":[]}}"#);
        parse_index(URL, body.as_bytes()).unwrap().keys
    };
    assert_eq!(keys(""), "https://h/.well-known/agent-skills/keys.json");
    assert_eq!(
        keys(r#""_meta":{"io.github.skills-edge/keys":"signing/keys.json"},"#),
        "https://h/.well-known/agent-skills/signing/keys.json"
    );
    assert_eq!(
        keys(r#""_meta":{"io.github.skills-edge/keys":7},"#),
        "https://h/.well-known/agent-skills/keys.json"
    );
}

#[test]
fn entries_are_checked_one_by_one() {
    let body = v2(&[
            format!(r#"{{"name":"ok","type":"archive","description":"Fine.","url":"/ok.tar.gz","digest":"{D}","_meta":{{"x":1}}}}"#),
            format!(r#"{{"name":"Bad","type":"skill-md","description":"D.","url":"b","digest":"{D}"}}"#),
            format!(r#"{{"name":"long","type":"skill-md","description":"{}","url":"b","digest":"{D}"}}"#, "x".repeat(1025)),
            format!(r#"{{"name":"ty","type":"tarball","description":"D.","url":"b","digest":"{D}"}}"#),
            r#"{"name":"dg","type":"skill-md","description":"D.","url":"b","digest":"sha256:ABC"}"#.to_owned(),
            format!(r#"{{"name":"ok","type":"skill-md","description":"Again.","url":"c","digest":"{D}"}}"#),
            format!(r#"{{"name":"u","type":"skill-md","description":"D.","url":"ftp://x/y","digest":"{D}"}}"#),
            "7".to_owned(),
        ].join(","));
    let index = parse_index(URL, body.as_bytes()).unwrap();
    assert!(index.skills[0].is_ok());
    let fields: Vec<Option<&str>> = index.skills[1..]
        .iter()
        .map(|s| s.as_ref().unwrap_err().error.field.as_deref())
        .collect();
    assert_eq!(
        fields,
        [
            Some("skills[1].name"),
            Some("skills[2].description"),
            Some("skills[3].type"),
            Some("skills[4].digest"),
            Some("skills[5].name"),
            Some("skills[6].url"),
            Some("skills[7]")
        ]
    );
    for s in &index.skills[1..] {
        assert_eq!(s.as_ref().unwrap_err().error.code, ErrorCode::InvalidEntry);
    }
}

#[test]
fn origins() {
    assert_eq!(
        index_url_of_origin("http://127.0.0.1:8787").as_deref(),
        Some("http://127.0.0.1:8787/.well-known/agent-skills/index.json")
    );
    assert_eq!(index_url_of_origin("http://h?x"), None);
    assert_eq!(
        origin_of("https://h:1/mcp?x").as_deref(),
        Some("https://h:1")
    );
}

#[test]
fn an_ipv4_host_spelt_another_way_has_the_origin_new_url_gives_it() {
    // Node's `new URL(u).origin` for each (checked against Node 20).
    for (url, origin) in [
        ("http://127.1:18181/mcp", Some("http://127.0.0.1:18181")),
        ("http://0x7f.0.0.1:18181/", Some("http://127.0.0.1:18181")),
        ("http://2130706433:18181", Some("http://127.0.0.1:18181")),
        (
            "http://127.000.000.001:18181",
            Some("http://127.0.0.1:18181"),
        ),
        ("http://0X7F.1/", Some("http://127.0.0.1")),
        ("http://0177.0.0.1/", Some("http://127.0.0.1")),
        ("http://127.0.0.1./", Some("http://127.0.0.1")),
        ("http://10.5/", Some("http://10.0.0.5")),
        ("http://0x/", Some("http://0.0.0.0")),
        ("https://1.2.3/", Some("https://1.2.0.3")),
        ("http://4294967295/", Some("http://255.255.255.255")),
        // Ends in a number but is no address: new URL throws.
        ("http://4294967296/", None),
        ("http://256.1.1.1/", None),
        ("http://1.2.3.4.5/", None),
        ("http://99999999999999999999999/", None),
        ("http://example.123/", None),
        ("http://1..2/", None),
        // Not a number at its end: a domain, kept.
        (
            "http://127.0.0.1.example/",
            Some("http://127.0.0.1.example"),
        ),
        ("http://0x7g.example/", Some("http://0x7g.example")),
        ("http://example.0x1g/", Some("http://example.0x1g")),
        ("http://[::1]:8080/", Some("http://[::1]:8080")),
    ] {
        assert_eq!(server_label_of_url(url).as_deref(), origin, "{url}");
    }
    assert_eq!(
        canonical_origin("http://127.1:18181"),
        "http://127.0.0.1:18181"
    );
}
