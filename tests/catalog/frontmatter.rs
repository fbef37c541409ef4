//! The frontmatter reader through its public API: delimiters, whole files, YAML values and
//! their order, aliases, every refusal and the bounds. The corpus in the `skills-edge` crate's
//! `tests/frontmatter/` proves the accepted values against `yaml@2` itself.

use std::collections::HashSet;

use skills_edge::skill::frontmatter::{
    parse_file_host, parse_file_lenient, parse_file_strict, parse_yaml, parse_yaml_host,
    split_lenient, split_strict, FrontmatterErrorKind, MAX_DEPTH, MAX_YAML_BYTES,
};
use FrontmatterErrorKind as K;

fn json(yaml: &str) -> String {
    match parse_yaml(yaml) {
        Ok(v) => v.to_json(),
        Err(e) => panic!("{yaml:?} refused: {e}"),
    }
}

fn kind(yaml: &str) -> K {
    match parse_yaml(yaml) {
        Ok(v) => panic!("{yaml:?} accepted as {}", v.to_json()),
        Err(e) => e.kind,
    }
}

// -- splitting ----------------------------------------------------------------------------

#[test]
fn strict_split_lf_and_crlf() {
    let b = split_strict("---\nname: a\ndescription: b\n---\n# Body\n").unwrap();
    assert_eq!(b.yaml, "name: a\ndescription: b");
    assert_eq!(b.first_line, 2);
    assert_eq!(b.body_start, 31);
    let f = "---\r\nname: a\r\n---\r\nbody";
    let b = split_strict(f).unwrap();
    assert_eq!(b.yaml, "name: a");
    assert_eq!(&f[b.body_start..], "body");
    // Closing fence at end of file, with and without a final line break.
    assert_eq!(split_strict("---\na: 1\n---").unwrap().body_start, 12);
    assert_eq!(split_strict("---\na: 1\n---\n").unwrap().body_start, 13);
}

#[test]
fn strict_split_refusals() {
    let e = |f: &str| split_strict(f).unwrap_err();
    assert_eq!(e("\u{feff}---\na: 1\n---\n").kind, K::ByteOrderMark);
    assert_eq!(e("--- \na: 1\n---\n").kind, K::MissingOpeningFence);
    assert_eq!(e("----\na: 1\n---\n").kind, K::MissingOpeningFence);
    assert_eq!(e("a: 1\n---\n").kind, K::MissingOpeningFence);
    assert_eq!(e("\n---\na: 1\n---\n").kind, K::MissingOpeningFence);
    assert_eq!(e("").kind, K::MissingOpeningFence);
    assert_eq!(e("---").kind, K::MissingOpeningFence);
    assert_eq!(e("---\na: 1\n").kind, K::MissingClosingFence);
    assert_eq!(e("---\na: 1\n----\n").kind, K::MissingClosingFence);
    assert_eq!(e("---\na: 1\n---\r").kind, K::MissingClosingFence);
    assert_eq!(e("---\n---\n").kind, K::EmptyBlock);
    let amb = e("---\na: 1\n--- \nb: 2\n---\n");
    assert_eq!((amb.kind, amb.line), (K::AmbiguousFence, Some(3)));
    assert!(amb.to_string().contains("frontmatter-ambiguous-fence"));
}

#[test]
fn lenient_split() {
    let f = "\u{feff}---\r\na: 1\r\n---\t \r\nbody";
    let b = split_lenient(f).unwrap();
    assert_eq!(b.yaml, "a: 1");
    assert_eq!(&f[b.body_start..], "body");
    // `----` is not a fence; the next `---` is.
    let b = split_lenient("---\na: 1\n----\nb: 2\n---\n").unwrap();
    assert_eq!(b.yaml, "a: 1\n----\nb: 2");
    // As in the regex, a `---` right after the opening fence is not a fence.
    let b = split_lenient("---\n---\na: 1\n---\n").unwrap();
    assert_eq!(b.yaml, "---\na: 1");
    assert_eq!(
        split_lenient("---\n---\n").unwrap_err().kind,
        K::MissingClosingFence
    );
    // An empty line between the fences is an empty block.
    assert_eq!(split_lenient("---\n\n---\n").unwrap().yaml, "");
    assert_eq!(
        split_lenient("--- \na: 1\n---\n").unwrap_err().kind,
        K::MissingOpeningFence
    );
    assert_eq!(
        split_lenient("---\na: 1\n").unwrap_err().kind,
        K::MissingClosingFence
    );
    // Strict and lenient agree where strict accepts.
    for f in [
        "---\na: 1\n---\nx",
        "---\r\na: 1\r\n\r\n---",
        "---\na: |\n  x\n---\n",
    ] {
        assert_eq!(split_strict(f).unwrap(), split_lenient(f).unwrap());
    }
}

#[test]
fn file_parsing_and_lines() {
    let v = parse_file_strict("---\nname: x\ndescription: d\n---\n").unwrap();
    assert_eq!(v.to_json(), r#"{"name":"x","description":"d"}"#);
    let e = parse_file_strict("---\nname: x\nv: yes\n---\n").unwrap_err();
    assert_eq!((e.kind, e.line), (K::Yaml11Ambiguous, Some(3)));
    let e = parse_file_lenient("\u{feff}---\nname: x\n\nname: z\n--- \n").unwrap_err();
    assert_eq!((e.kind, e.line), (K::DuplicateKey, Some(4)));
    assert!(e.message.contains("line 2"), "{}", e.message);
    let e = parse_file_strict("---\n# only a comment\n---\n").unwrap_err();
    assert_eq!(e.kind, K::NotAMapping);
    let e = parse_file_strict("---\n- a\n---\n").unwrap_err();
    assert_eq!(e.kind, K::NotAMapping);
    let e = parse_file_strict("---\nname: x\n  bad: [\n---\n").unwrap_err();
    assert_eq!(e.kind, K::Syntax);
    assert!(e.line.is_some_and(|l| (2..=4).contains(&l)), "{e}");
}

// -- values -------------------------------------------------------------------------------

#[test]
fn core_schema_scalars() {
    assert_eq!(
        json("a: ~\nb: null\nc: NULL\nd:\ne: true\nf: False\ng: TRUE\n"),
        r#"{"a":null,"b":null,"c":null,"d":null,"e":true,"f":false,"g":true}"#
    );
    assert_eq!(
        json("a: 0\nb: -0\nc: +12\nd: 0x1F\ne: 1.0\nf: 1.\ng: .5\nh: 1.5e+3\ni: -2.5E-3\nj: 9007199254740991\n"),
        r#"{"a":0,"b":0,"c":12,"d":31,"e":1,"f":1,"g":0.5,"h":1500,"i":-0.0025,"j":9007199254740991}"#
    );
    assert_eq!(
        json("a: 0X1F\nb: 1.2.3\nd: 0o\nf: 10:60\n"),
        r#"{"a":"0X1F","b":"1.2.3","d":"0o","f":"10:60"}"#
    );
}

#[test]
fn quoted_and_block_scalars_are_strings() {
    assert_eq!(
        json("a: 'yes'\nb: \"007\"\nc: |\n  1e3\nd: >-\n  x\n  y\n"),
        r#"{"a":"yes","b":"007","c":"1e3\n","d":"x y"}"#
    );
    assert_eq!(json("\"1\": a\n'true': b\n"), r#"{"1":"a","true":"b"}"#);
}

#[test]
fn order_and_js_property_order() {
    assert_eq!(
        json("z: 1\na: {x: 1, b: [2, {d: 1, c: 2}]}\n"),
        r#"{"z":1,"a":{"x":1,"b":[2,{"d":1,"c":2}]}}"#
    );
    assert_eq!(
        json("b: 1\n\"10\": 2\n\"2\": 3\n\"01\": 4\n\"4294967295\": 5\n\"4294967294\": 6\n"),
        r#"{"2":3,"10":2,"4294967294":6,"b":1,"01":4,"4294967295":5}"#
    );
}

#[test]
fn crlf_and_missing_final_newline() {
    assert_eq!(
        json("a: |\r\n  x\r\n  y\r\nb: 1\r\n"),
        json("a: |\n  x\n  y\nb: 1\n")
    );
    assert_eq!(json("a: |+\n  x"), r#"{"a":"x\n"}"#);
    assert_eq!(json("a: |\n  x"), r#"{"a":"x\n"}"#);
    assert_eq!(json(""), "null");
    assert_eq!(json("# c"), "null");
    assert_eq!(json("a: 1\n...\n"), r#"{"a":1}"#);
}

#[test]
fn anchors_and_aliases() {
    assert_eq!(
        json("a: &x {k: [1, 2]}\nb: *x\nc: &s str\n*s : v\n"),
        r#"{"a":{"k":[1,2]},"b":{"k":[1,2]},"c":"str","str":"v"}"#
    );
    assert_eq!(kind("a: &x [*x]\n"), K::RecursiveAlias);
    // yaml@2 allows 99 aliases of one scalar anchor (count starts at 1, limit 100).
    let mut ok = String::from("a: &x 1\nl: [");
    ok.push_str(&vec!["*x"; 99].join(", "));
    ok.push_str("]\n");
    assert!(parse_yaml(&ok).is_ok());
    let too_many = ok.replace("*x]", "*x, *x]");
    assert_eq!(kind(&too_many), K::AliasLimit);
    // Nested aliases multiply (yaml@2's getAliasCount).
    let nested = format!(
        "a: &a 1\nb: &b [{}]\nc: [{}]\n",
        ["*a"; 10].join(", "),
        ["*b"; 9].join(", ")
    );
    assert_eq!(kind(&nested), K::AliasLimit);
}

/// Every refusal of the publishing reader, with its kind.
const REFUSALS: &[(&str, K)] = &[
    ("a: 1\na: 2\n", K::DuplicateKey),
    ("a: 1\n'a': 2\n", K::DuplicateKey),
    ("a: !!str 1\n", K::Tag),
    ("a: !foo x\n", K::Tag),
    ("a: ! x\n", K::Tag),
    ("a: !!binary aGk=\n", K::Tag),
    ("a: !!map {}\n", K::Tag),
    ("a: .inf\n", K::NonFiniteNumber),
    ("a: -.Inf\n", K::NonFiniteNumber),
    ("a: .NaN\n", K::NonFiniteNumber),
    ("a: 1.0e+400\n", K::NonFiniteNumber),
    ("a: 9007199254740992\n", K::UnsafeInteger),
    ("a: -9007199254740992\n", K::UnsafeInteger),
    ("a: 0x20000000000000\n", K::UnsafeInteger),
    ("a: 99999999999999999999999999\n", K::UnsafeInteger),
    ("a: 007\n", K::LeadingZeroInteger),
    ("a: -01\n", K::LeadingZeroInteger),
    ("a: 00\n", K::LeadingZeroInteger),
    ("a: yes\n", K::Yaml11Ambiguous),
    ("a: Off\n", K::Yaml11Ambiguous),
    ("a: y\n", K::Yaml11Ambiguous),
    ("a: N\n", K::Yaml11Ambiguous),
    ("a: 0o14\n", K::Yaml11Ambiguous),
    ("a: 1e3\n", K::Yaml11Ambiguous),
    ("a: 1.5e3\n", K::Yaml11Ambiguous),
    ("a: -.5\n", K::Yaml11Ambiguous),
    ("a: 1_000\n", K::Yaml11Ambiguous),
    ("a: 0b101\n", K::Yaml11Ambiguous),
    ("a: -0x1F\n", K::Yaml11Ambiguous),
    ("a: 1:20\n", K::Yaml11Ambiguous),
    ("a: 1:20.5\n", K::Yaml11Ambiguous),
    ("a: 2024-01-01\n", K::Yaml11Ambiguous),
    ("a: 2001-12-14t21:59:43.10-05:00\n", K::Yaml11Ambiguous),
    ("a: 2001-12-14 21:59:43.10 -5\n", K::Yaml11Ambiguous),
    ("a: =\n", K::Yaml11Ambiguous),
    ("a: e5\n", K::Yaml11Ambiguous),
    ("a: 1_0.5\n", K::Yaml11Ambiguous),
    ("on: 1\n", K::Yaml11Ambiguous),
    ("<<: {a: 1}\n", K::MergeKey),
    ("a: <<\n", K::Yaml11Ambiguous),
    ("1: a\n", K::NonStringKey),
    ("true: a\n", K::NonStringKey),
    ("~: a\n", K::NonStringKey),
    (": a\n", K::NonStringKey),
    ("1.5: a\n", K::NonStringKey),
    ("? [a]\n: b\n", K::NonStringKey),
    ("? {a: 1}\n: b\n", K::NonStringKey),
    ("x: &n 1\n*n : b\n", K::NonStringKey),
    ("a: 1\n---\nb: 2\n", K::MultipleDocuments),
    ("a: 1\n...\nb: 2\n", K::MultipleDocuments),
    ("--- \na: 1\n", K::DocumentMarker),
    ("%YAML 1.1\n---\na: yes\n", K::Directive),
    ("a: b\u{1}c\n", K::ForbiddenCharacter),
    ("a: b\rc: d\n", K::ForbiddenCharacter),
    ("a: b\u{2028}c\n", K::ForbiddenCharacter),
    ("a: b\u{85}c\n", K::ForbiddenCharacter),
    ("\u{feff}a: 1\n", K::ForbiddenCharacter),
    ("a:\n  - 'x\n  y'\n", K::Unportable),
    ("a: [|]\n", K::Unportable),
    ("a: [?]\n", K::Unportable),
    ("a: &x[1]\n", K::Unportable),
    ("a: \"x\\\n\n  y\"\n", K::Unportable),
    ("e: |2\n\n    x\n  \n   \nf: 1\n", K::Unportable),
    ("a:\n\t\nb: 1\n", K::Unportable),
    ("a:\n-\tk: v\n", K::Unportable),
    ("a: [? x, '\n   k': v]\n", K::Unportable),
    ("a: >+\n  ", K::Unportable),
    ("...\nx\n", K::MultipleDocuments),
    ("a: [\n", K::Syntax),
    ("a: *nope\n", K::Syntax),
    ("a: 'x\n", K::Syntax),
];

#[test]
fn refusals() {
    for (yaml, want) in REFUSALS {
        let got = parse_yaml(yaml);
        match got {
            Ok(v) => panic!("{yaml:?} accepted as {}", v.to_json()),
            Err(e) => {
                assert_eq!(e.kind, *want, "{yaml:?}: {e}");
                assert!(e.line.is_some(), "{yaml:?}: {e}");
                assert!(!e.fix.is_empty());
            }
        }
    }
}

// -- host mode ----------------------------------------------------------------------------

/// The refusals that are only ambiguous across YAML versions, and what the host mode reads
/// instead: each value is what `yaml@2` 2.9.1 prints (`JSON.stringify(YAML.parse(yaml))`).
const HOST_ACCEPTED: &[(&str, &str)] = &[
    ("a: 007\n", r#"{"a":7}"#),
    ("a: -01\n", r#"{"a":-1}"#),
    ("a: 00\n", r#"{"a":0}"#),
    ("a: +007\n", r#"{"a":7}"#),
    ("a: 0009\n", r#"{"a":9}"#),
    ("a: yes\n", r#"{"a":"yes"}"#),
    ("a: Off\n", r#"{"a":"Off"}"#),
    ("a: y\n", r#"{"a":"y"}"#),
    ("a: N\n", r#"{"a":"N"}"#),
    ("a: 0o14\n", r#"{"a":12}"#),
    ("a: 0o0\n", r#"{"a":0}"#),
    ("a: 1e3\n", r#"{"a":1000}"#),
    ("a: 1E+3\n", r#"{"a":1000}"#),
    ("a: 1.5e3\n", r#"{"a":1500}"#),
    ("a: -.5\n", r#"{"a":-0.5}"#),
    ("a: 1_000\n", r#"{"a":"1_000"}"#),
    ("a: 0b101\n", r#"{"a":"0b101"}"#),
    ("a: -0x1F\n", r#"{"a":"-0x1F"}"#),
    ("a: 1:20\n", r#"{"a":"1:20"}"#),
    ("a: 1:20.5\n", r#"{"a":"1:20.5"}"#),
    ("a: 2024-01-01\n", r#"{"a":"2024-01-01"}"#),
    (
        "a: 2001-12-14t21:59:43.10-05:00\n",
        r#"{"a":"2001-12-14t21:59:43.10-05:00"}"#,
    ),
    (
        "a: 2001-12-14 21:59:43.10 -5\n",
        r#"{"a":"2001-12-14 21:59:43.10 -5"}"#,
    ),
    ("a: =\n", r#"{"a":"="}"#),
    ("a: e5\n", r#"{"a":"e5"}"#),
    ("a: 1_0.5\n", r#"{"a":"1_0.5"}"#),
    ("on: 1\n", r#"{"on":1}"#),
    ("{y: n}\n", r#"{"y":"n"}"#),
    ("<<: {a: 1}\n", r#"{"<<":{"a":1}}"#),
    ("a: <<\n", r#"{"a":"<<"}"#),
    ("a: [yes, 007, 0o7]\n", r#"{"a":["yes",7,7]}"#),
    ("a: b\u{2028}c\n", "{\"a\":\"b\u{2028}c\"}"),
    ("a: b\u{85}c\n", "{\"a\":\"b\u{85}c\"}"),
];

#[test]
fn host_mode_accepts_what_is_only_ambiguous_across_yaml_versions() {
    for (yaml, want) in HOST_ACCEPTED {
        assert!(parse_yaml(yaml).is_err(), "{yaml:?}: publishing accepts it");
        match parse_yaml_host(yaml) {
            Ok(v) => assert_eq!(v.to_json(), *want, "{yaml:?}"),
            Err(e) => panic!("{yaml:?} refused by the host mode: {e}"),
        }
    }
    // The verifier's whole-file reading: lenient fences, host typing.
    let file = "\u{feff}---\nname: a\ndescription: d\nreviewed: yes\nsince: 2024-01-01\nbuild: 007\n--- \nBody";
    assert_eq!(
        parse_file_host(file).map(|v| v.to_json()),
        Ok(
            r#"{"name":"a","description":"d","reviewed":"yes","since":"2024-01-01","build":7}"#
                .to_owned()
        )
    );
    assert_eq!(
        parse_file_lenient(file).unwrap_err().kind,
        K::Yaml11Ambiguous
    );
}

#[test]
fn host_mode_refuses_everything_else() {
    let mut refused = 0;
    for (yaml, want) in REFUSALS {
        if HOST_ACCEPTED.iter().any(|(y, _)| y == yaml) {
            continue;
        }
        match parse_yaml_host(yaml) {
            Ok(v) => panic!("{yaml:?} accepted by the host mode as {}", v.to_json()),
            Err(e) => assert_eq!(e.kind, *want, "{yaml:?}: {e}"),
        }
        refused += 1;
    }
    assert!(refused >= 40, "only {refused}");
    // Bounds and the rules around the relaxed scalars stay.
    let cases: &[(&str, K)] = &[
        ("x: &b {k: 1}\ny:\n  <<: *b\n  <<: 2\n", K::DuplicateKey),
        ("yes: 1\n'yes': 2\n", K::DuplicateKey),
        ("007: a\n", K::NonStringKey),
        ("0o14: a\n", K::NonStringKey),
        ("1e3: a\n", K::NonStringKey),
        ("a: 0o400000000000000000\n", K::UnsafeInteger),
        ("a: 0009007199254740992\n", K::UnsafeInteger),
        ("a: 1e400\n", K::NonFiniteNumber),
        ("a: !!str yes\n", K::Tag),
        ("%YAML 1.1\n---\na: yes\n", K::Directive),
        ("a: b\u{2029}\u{1}\n", K::ForbiddenCharacter),
    ];
    for (yaml, want) in cases {
        match parse_yaml_host(yaml) {
            Ok(v) => panic!("{yaml:?} accepted by the host mode as {}", v.to_json()),
            Err(e) => assert_eq!(e.kind, *want, "{yaml:?}: {e}"),
        }
    }
    let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
    assert_eq!(parse_yaml_host(&deep).unwrap_err().kind, K::TooDeep);
    assert_eq!(
        parse_file_host("---\na: 1\n").unwrap_err().kind,
        K::MissingClosingFence
    );
}

#[test]
fn accepted_lookalikes() {
    // Strings in both YAML 1.1 and 1.2.
    assert_eq!(
        json("a: 1.2.3\nb: 10:60\nc: 2024-01-01x\nd: yess\ne: 0X1F\nf: 1,000\ng: v1.0\n"),
        r#"{"a":"1.2.3","b":"10:60","c":"2024-01-01x","d":"yess","e":"0X1F","f":"1,000","g":"v1.0"}"#
    );
    assert_eq!(json("\"<<\": a\n"), r#"{"<<":"a"}"#);
}

#[test]
fn depth_is_bounded() {
    let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
    assert!(parse_yaml(&ok).is_ok());
    let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
    assert_eq!(kind(&deep), K::TooDeep);
    let hostile = "[".repeat(1_000_000);
    assert!(parse_yaml(&hostile).is_err());
    // Alias expansion cannot exceed the depth either.
    let inner = format!("{}1{}", "[".repeat(40), "]".repeat(40));
    let aliased = format!("a: &a {inner}\nb: {}*a{}\n", "[".repeat(30), "]".repeat(30));
    assert_eq!(kind(&aliased), K::TooDeep);
}

#[test]
fn alias_expansion_is_bounded_in_bytes() {
    let big = "x".repeat(600_000);
    let ok = format!("a: &x {big}\nb: *x\n");
    assert_eq!(
        parse_yaml(&ok).map(|v| v.to_json().len()).ok(),
        Some(1_200_015)
    );
    let twice = format!("{ok}c: *x\n");
    assert_eq!(kind(&twice), K::AliasLimit);
}

#[test]
fn size_is_bounded() {
    let big = format!("a: {}\n", "x".repeat(MAX_YAML_BYTES));
    assert_eq!(kind(&big), K::TooLarge);
    let file = format!("---\n{big}---\n");
    let e = parse_file_strict(&file).unwrap_err();
    assert_eq!((e.kind, e.line), (K::TooLarge, Some(2)));
}

#[test]
fn rules_are_unique_and_round_trip() {
    let mut seen = HashSet::new();
    for k in FrontmatterErrorKind::ALL {
        assert!(k.rule().starts_with("frontmatter-"));
        assert!(seen.insert(k.rule()));
        assert_eq!(FrontmatterErrorKind::from_rule(k.rule()), Some(k));
        assert_eq!(FrontmatterErrorKind::from_rule(&format!("{k:?}")), Some(k));
    }
}

#[test]
fn display_names_line_rule_and_fix() {
    let e = parse_yaml("a: 1\nb: yes\n").unwrap_err();
    let s = e.to_string();
    assert!(s.starts_with("line 2: "), "{s}");
    assert!(s.contains("[frontmatter-yaml11-ambiguous]"), "{s}");
    assert!(s.contains("fix: quote it"), "{s}");
}
