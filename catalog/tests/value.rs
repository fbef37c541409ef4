//! Ordered JSON values: numbers and strings printed as JavaScript's `JSON.stringify` prints
//! them, content equality as a host compares frontmatter, and duplicate keys refused.

use skills_edge_catalog::skill::value::{write_json_string, write_number, Number, Value};

fn num(f: f64) -> String {
    let mut s = String::new();
    write_number(Number::Float(f), &mut s);
    s
}

#[test]
fn numbers_print_like_javascript() {
    let cases: &[(f64, &str)] = &[
        (1.0, "1"),
        (-0.0, "0"),
        (0.5, "0.5"),
        (-2.25, "-2.25"),
        (1e21, "1e+21"),
        (1e20, "100000000000000000000"),
        (123456789.125, "123456789.125"),
        (1.5e300, "1.5e+300"),
        (1e-6, "0.000001"),
        (1e-7, "1e-7"),
        (1.2345e-7, "1.2345e-7"),
        (0.1 + 0.2, "0.30000000000000004"),
        (5e-324, "5e-324"),
        (1.7976931348623157e308, "1.7976931348623157e+308"),
    ];
    for (f, want) in cases {
        assert_eq!(num(*f), *want, "{f:e}");
    }
}

#[test]
fn strings_escape_like_javascript() {
    let mut s = String::new();
    write_json_string("a\"b\\c\u{1}\u{8}\u{c}\t\r\n\u{7f}é😀/", &mut s);
    assert_eq!(s, "\"a\\\"b\\\\c\\u0001\\b\\f\\t\\r\\n\u{7f}é😀/\"");
}

#[test]
fn content_equality_ignores_key_order_not_key_sets() {
    let a: Value = serde_json::from_str(r#"{"a":1,"b":{"x":[1,2],"y":null}}"#).unwrap();
    let b: Value = serde_json::from_str(r#"{"b":{"y":null,"x":[1.0,2]},"a":1.0}"#).unwrap();
    let c: Value = serde_json::from_str(r#"{"b":{"x":[1,2]},"a":1}"#).unwrap();
    let d: Value = serde_json::from_str(r#"{"a":1,"b":{"x":[2,1],"y":null}}"#).unwrap();
    assert!(a.same_content(&b));
    assert!(!a.same_content(&c), "missing key is not null");
    assert!(!a.same_content(&d), "array order matters");
    assert_eq!(a.to_json(), r#"{"a":1,"b":{"x":[1,2],"y":null}}"#);
}

#[test]
fn duplicate_keys_are_refused() {
    assert!(serde_json::from_str::<Value>(r#"{"a":1,"a":2}"#).is_err());
}
