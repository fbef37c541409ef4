//! `skills_edge::skill::frontmatter::read_decimal_f64`, the exact decimal reader of
//! plain-scalar floats (input: a flag byte, then the text; an odd flag spells the text in the
//! alphabet `0123456789.eE+-` (one byte, one character), so most inputs are near the grammar).
//!
//! Properties: for text of the grammar `[-+]?[0-9]*(\.[0-9]*)?([eE][-+]?[0-9]+)?` with at least
//! one mantissa digit (checked here apart from the reader), the reader gives `str::parse::<f64>`'s
//! value bit for bit (sign of zero and infinities included); for any other text it gives `None`.

#![no_main]

use libfuzzer_sys::fuzz_target;
use skills_edge::skill::frontmatter::read_decimal_f64;

const ALPHABET: &[u8; 15] = b"0123456789.eE+-";

/// Whether `s` is of the reader's grammar, read here independently of the reader.
fn in_grammar(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'-' | b'+')));
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    let mut mantissa = digits(&mut i);
    if b.get(i) == Some(&b'.') {
        i += 1;
        mantissa += digits(&mut i);
    }
    if mantissa == 0 {
        return false;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

fn run(s: &str) {
    let got = read_decimal_f64(s);
    if in_grammar(s) {
        let want: f64 = s
            .parse()
            .unwrap_or_else(|e| panic!("str::parse refuses {s:?} of the grammar: {e}"));
        let got = got.unwrap_or_else(|| panic!("the reader refuses {s:?} of the grammar"));
        assert_eq!(
            got.to_bits(),
            want.to_bits(),
            "{s:?}: the reader gives {got:e}, str::parse {want:e}"
        );
    } else {
        assert_eq!(got, None, "the reader accepts {s:?}, outside the grammar");
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&flag, rest)) = data.split_first() else {
        return;
    };
    if flag % 2 == 1 {
        let text: String = rest
            .iter()
            .map(|&b| char::from(ALPHABET[usize::from(b) % ALPHABET.len()]))
            .collect();
        run(&text);
    } else if let Ok(text) = std::str::from_utf8(rest) {
        run(text);
    }
});
