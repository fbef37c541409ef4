//! Ordered JSON values: numbers and strings printed as JavaScript's `JSON.stringify` prints
//! them, content equality as a host compares frontmatter, and duplicate keys refused.

use skills_edge::catalog::json;
use skills_edge::skill::value::{write_json_string, write_number, Number, Value};

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

/// A JSON text as an ordered value, with the one strict reader.
fn value(text: &str) -> Value {
    json::parse(text).unwrap().to_value().unwrap()
}

#[test]
fn content_equality_ignores_key_order_not_key_sets() {
    let a = value(r#"{"a":1,"b":{"x":[1,2],"y":null}}"#);
    let b = value(r#"{"b":{"y":null,"x":[1.0,2]},"a":1.0}"#);
    let c = value(r#"{"b":{"x":[1,2]},"a":1}"#);
    let d = value(r#"{"a":1,"b":{"x":[2,1],"y":null}}"#);
    assert!(a.same_content(&b));
    assert!(!a.same_content(&c), "missing key is not null");
    assert!(!a.same_content(&d), "array order matters");
    assert_eq!(a.to_json(), r#"{"a":1,"b":{"x":[1,2],"y":null}}"#);
}

#[test]
fn duplicate_keys_are_refused() {
    assert!(json::parse(r#"{"a":1,"a":2}"#).unwrap().to_value().is_err());
}

/// ECMA-262 Number::toString laid out from Rust's `{:e}` digits: the shortest digits that
/// round-trip, the closest of them to the value; a reference for `write_number`, except that
/// where two candidates are equally close `{:e}` rounds the last digit up and ECMA-262 (and V8)
/// take the even one.
fn reference(f: f64) -> String {
    if f == 0.0 {
        return "0".into();
    }
    let sci = format!("{:e}", f.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap();
    let exp: i32 = exp.parse().unwrap();
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let (k, n) = (digits.len() as i32, exp + 1);
    let sign = if f < 0.0 { "-" } else { "" };
    let body = if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        format!("{}.{}", &digits[..n as usize], &digits[n as usize..])
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat((-n) as usize))
    } else {
        let e = n - 1;
        let frac = if k > 1 {
            format!(".{}", &digits[1..])
        } else {
            String::new()
        };
        format!(
            "{}{frac}e{}{}",
            &digits[..1],
            if e < 0 { '-' } else { '+' },
            e.abs()
        )
    };
    format!("{sign}{body}")
}

#[test]
fn numbers_print_as_the_shortest_closest_digits_over_the_whole_range() {
    // A tie, as JavaScript prints it: `(-1485038013007472.25).toString()`.
    let tie = -1_485_038_013_007_472.0 - 0.25;
    assert_eq!(num(tie), "-1485038013007472.2");
    assert_eq!(reference(tie), "-1485038013007472.3");
    let mut state: u64 = 7;
    let mut values = vec![f64::MAX, f64::MIN_POSITIVE, f64::from_bits(1), 1e21, 1e-7];
    for _ in 0..150_000 {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        values.push(f64::from_bits(state));
        // Short decimals and values with few fraction bits, where ties are likeliest.
        values.push((state >> 40) as f64 / 10f64.powi((state % 30) as i32 - 8));
        values.push((state >> 11) as f64 / 4.0);
    }
    let mut ties = 0;
    for f in values.into_iter().filter(|f| f.is_finite()) {
        let (got, want) = (num(f), reference(f));
        assert_eq!(got.parse::<f64>().unwrap(), f, "{got} reads back as {f:e}");
        if got != want {
            // Only a tie: the same digits but the last, which is even here and one up there.
            let (g, w) = (got.as_bytes(), want.as_bytes());
            let last = g.iter().rposition(|c| c.is_ascii_digit()).unwrap();
            assert!(
                g.len() == w.len()
                    && g[..last] == w[..last]
                    && g[last + 1..] == w[last + 1..]
                    && g[last] % 2 == 0
                    && w[last] == g[last] + 1,
                "{got} against {want}"
            );
            ties += 1;
        }
    }
    assert!(ties > 0, "the values include ties");
}
