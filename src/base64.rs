//! Base64 (RFC 4648): the standard alphabet with padding for `blob` contents and the
//! `=?base64?…?=` header form, the URL-safe alphabet without padding for cursors.
//!
//! Decoding is strict: no whitespace, no missing or extra padding, and the unused low bits of
//! the last character must be zero, so every byte string has exactly one encoding (a host
//! comparing sizes before decoding can rely on that; spec notes A7).

const STD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn encode_with(bytes: &[u8], alphabet: &[u8; 64], pad: bool, out: &mut String) {
    out.reserve(bytes.len().div_ceil(3) * 4);
    // Encode 768 input bytes at a time into a stack buffer of 1024 ASCII characters.
    let mut buf = [0u8; 1024];
    let mut chunks = bytes.chunks_exact(3);
    loop {
        let mut n = 0;
        for c in chunks.by_ref().take(256) {
            let v = (c[0] as u32) << 16 | (c[1] as u32) << 8 | c[2] as u32;
            buf[n] = alphabet[(v >> 18 & 63) as usize];
            buf[n + 1] = alphabet[(v >> 12 & 63) as usize];
            buf[n + 2] = alphabet[(v >> 6 & 63) as usize];
            buf[n + 3] = alphabet[(v & 63) as usize];
            n += 4;
        }
        if n == 0 {
            break;
        }
        // The alphabet is ASCII, so this never fails.
        out.push_str(std::str::from_utf8(&buf[..n]).unwrap_or_default());
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let n = (rest[0] as u32) << 16 | rest.get(1).map_or(0, |b| (*b as u32) << 8);
        out.push(alphabet[(n >> 18 & 63) as usize] as char);
        out.push(alphabet[(n >> 12 & 63) as usize] as char);
        if rest.len() == 2 {
            out.push(alphabet[(n >> 6 & 63) as usize] as char);
        }
        if pad {
            out.push_str(if rest.len() == 1 { "==" } else { "=" });
        }
    }
}

/// Appends the standard, padded encoding of `bytes` to `out`.
pub fn encode_into(bytes: &[u8], out: &mut String) {
    encode_with(bytes, STD, true, out);
}

/// The standard, padded encoding of `bytes`.
///
/// ```
/// assert_eq!(skills_edge::base64::encode(b"hi!?"), "aGkhPw==");
/// ```
pub fn encode(bytes: &[u8]) -> String {
    let mut s = String::new();
    encode_into(bytes, &mut s);
    s
}

/// The URL-safe encoding without padding (used for opaque cursors).
pub fn encode_url(bytes: &[u8]) -> String {
    let mut s = String::new();
    encode_with(bytes, URL, false, &mut s);
    s
}

/// Reverse lookup tables: the 6-bit value of each byte, or 0xff when not in the alphabet.
const fn reverse(alphabet: &[u8; 64]) -> [u8; 256] {
    let mut t = [0xffu8; 256];
    let mut i = 0;
    while i < 64 {
        t[alphabet[i] as usize] = i as u8;
        i += 1;
    }
    t
}
static STD_REV: [u8; 256] = reverse(STD);
static URL_REV: [u8; 256] = reverse(URL);

fn value(alphabet: &[u8; 64], c: u8) -> Option<u32> {
    let table = if alphabet == STD { &STD_REV } else { &URL_REV };
    match table[c as usize] {
        0xff => None,
        v => Some(v as u32),
    }
}

fn decode_with(s: &str, alphabet: &[u8; 64], pad: bool) -> Option<Vec<u8>> {
    let b = s.as_bytes();
    let body = if pad {
        if !b.len().is_multiple_of(4) {
            return None;
        }
        let trailing = b.iter().rev().take_while(|&&c| c == b'=').count();
        if trailing > 2 {
            return None;
        }
        &b[..b.len() - trailing]
    } else {
        if b.len() % 4 == 1 {
            return None;
        }
        b
    };
    let mut out = Vec::with_capacity(body.len() / 4 * 3 + 2);
    let mut chunks = body.chunks_exact(4);
    for c in &mut chunks {
        let mut n = 0u32;
        for &ch in c {
            n = n << 6 | value(alphabet, ch)?;
        }
        out.extend_from_slice(&[(n >> 16) as u8, (n >> 8) as u8, n as u8]);
    }
    let rest = chunks.remainder();
    match rest.len() {
        0 => {}
        2 | 3 => {
            let mut n = 0u32;
            for &ch in rest {
                n = n << 6 | value(alphabet, ch)?;
            }
            if rest.len() == 2 {
                if n & 0xf != 0 {
                    return None;
                }
                out.push((n >> 4) as u8);
            } else {
                if n & 0x3 != 0 {
                    return None;
                }
                out.extend_from_slice(&[(n >> 10) as u8, (n >> 2) as u8]);
            }
        }
        _ => return None,
    }
    if pad && (b.len() - body.len()) != (4 - rest.len()) % 4 {
        return None;
    }
    Some(out)
}

/// Strictly decodes the standard, padded alphabet. `None` on any deviation.
///
/// ```
/// use skills_edge::base64::decode;
/// assert_eq!(decode("aGkhPw==").as_deref(), Some(&b"hi!?"[..]));
/// assert_eq!(decode("aGkhPw="), None);   // wrong padding
/// assert_eq!(decode("aGkhPx=="), None);  // non-zero unused bits
/// ```
pub fn decode(s: &str) -> Option<Vec<u8>> {
    decode_with(s, STD, true)
}

/// Strictly decodes the URL-safe alphabet without padding.
pub fn decode_url(s: &str) -> Option<Vec<u8>> {
    decode_with(s, URL, false)
}

/// The decoded length of a padded standard encoding of `len` characters ending in
/// `padding` `=` signs, without decoding (for checking a `blob` against `size` first).
pub fn decoded_len(len: usize, padding: usize) -> usize {
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
