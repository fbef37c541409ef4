//! `skills_edge::protocol::decode_header_value`, the `=?base64?…?=` header form.
//!
//! Properties: for every UTF-8 text `s`, `=?base64?{STANDARD.encode(s)}?=` decodes to `s`; a
//! value without the form is returned unchanged; a value in the form decodes only to text whose
//! canonical encoding is exactly what was sent (strict base64: one encoding per text).

#![no_main]

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use libfuzzer_sys::fuzz_target;
use skills_edge::protocol::decode_header_value;

fn run(s: &str) {
    let wrapped = format!("=?base64?{}?=", STANDARD.encode(s.as_bytes()));
    assert_eq!(
        decode_header_value(&wrapped).as_deref(),
        Some(s),
        "round trip of {s:?}"
    );
    let inner = s
        .strip_prefix("=?base64?")
        .and_then(|r| r.strip_suffix("?="));
    match (inner, decode_header_value(s)) {
        (None, d) => assert_eq!(d.as_deref(), Some(s), "a plain value changed: {s:?}"),
        (Some(b64), Some(d)) => assert_eq!(
            STANDARD.encode(d.as_bytes()),
            b64,
            "a non-canonical encoding was accepted: {s:?}"
        ),
        (Some(b64), None) => {
            let ok = STANDARD
                .decode(b64)
                .ok()
                .and_then(|b| String::from_utf8(b).ok());
            assert_eq!(ok, None, "a valid encoding was refused: {s:?}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        run(s);
    }
});
