//! Base64 (RFC 4648) through the `base64` crate: the standard alphabet with padding for `blob`
//! contents and the `=?base64?…?=` header form, the URL-safe alphabet without padding for
//! cursors.
//!
//! Decoding is strict (the crate's `STANDARD` and `URL_SAFE_NO_PAD` engines): no whitespace,
//! no missing or extra padding, and the unused low bits of the last character must be zero, so
//! every byte string has exactly one encoding (a host comparing sizes before decoding can rely
//! on that; spec notes A7). The tests below are the vectors that strictness is held to.

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine as _;

/// Appends the standard, padded encoding of `bytes` to `out`.
pub(crate) fn encode_into(bytes: &[u8], out: &mut String) {
    STANDARD.encode_string(bytes, out);
}

/// The standard, padded encoding of `bytes`.
#[cfg(test)]
pub(crate) fn encode(bytes: &[u8]) -> String {
    STANDARD.encode(bytes)
}

/// The URL-safe encoding without padding (used for opaque cursors).
pub(crate) fn encode_url(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

/// Strictly decodes the standard, padded alphabet. `None` on any deviation.
pub(crate) fn decode(s: &str) -> Option<Vec<u8>> {
    STANDARD.decode(s).ok()
}

/// Strictly decodes the URL-safe alphabet without padding.
pub(crate) fn decode_url(s: &str) -> Option<Vec<u8>> {
    URL_SAFE_NO_PAD.decode(s).ok()
}

/// The decoded length of a padded standard encoding of `len` characters ending in
/// `padding` `=` signs, without decoding (for checking a `blob` against `size` first).
pub(crate) fn decoded_len(len: usize, padding: usize) -> usize {
    (len / 4 * 3).saturating_sub(padding)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_rfc_vectors() {
        let v: &[(&str, &str)] = &[
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, enc) in v {
            assert_eq!(encode(plain.as_bytes()), *enc);
            assert_eq!(decode(enc).as_deref(), Some(plain.as_bytes()));
        }
        let bytes: Vec<u8> = (0..=255).collect();
        for n in 0..bytes.len() {
            assert_eq!(decode(&encode(&bytes[..n])).as_deref(), Some(&bytes[..n]));
            assert_eq!(
                decode_url(&encode_url(&bytes[..n])).as_deref(),
                Some(&bytes[..n])
            );
            let e = encode(&bytes[..n]);
            let pad = e.bytes().rev().take_while(|&c| c == b'=').count();
            assert_eq!(decoded_len(e.len(), pad), n);
        }
    }

    #[test]
    fn decoding_is_strict() {
        for bad in [
            "Zg", "Zg=", "Zg===", "Z===", "Zh==", "Zm9=", "Zm 9v", "Zm9v\n", "====", "Zm9v=",
            "Zg==Zg==", "Zm-v",
        ] {
            assert_eq!(decode(bad), None, "{bad:?}");
        }
        assert_eq!(decode_url("Zm9v+"), None);
        assert_eq!(decode_url("Z"), None);
    }
}
