//! SHA-256 digests in the wire form `sha256:` + 64 lowercase hex characters (SEP-2640
//! §Skill Entries), computed over a file's raw bytes.

use sha2::{Digest as _, Sha256};

/// Length of a formatted digest: `sha256:` plus 64 hex characters.
pub const DIGEST_LEN: usize = 7 + 64;

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Formats 32 raw digest bytes as `sha256:<64 lowercase hex>`.
pub fn format_digest(raw: &[u8; 32]) -> String {
    let mut s = String::with_capacity(DIGEST_LEN);
    s.push_str("sha256:");
    for b in raw {
        s.push(HEX[(b >> 4) as usize] as char);
        s.push(HEX[(b & 15) as usize] as char);
    }
    s
}

/// Bytes hashed per call into the compression function (see [`sha256`]).
const CHUNK: usize = 64 * 1024;

/// SHA-256 of `bytes`, as 32 raw bytes.
///
/// The bytes are fed in chunks of 64 KiB: given one large slice, the hasher compresses it in a
/// single call, and a WebAssembly engine that compiles a function quickly first and optimises
/// it on a later call (V8, hence Node, browsers and workerd) runs that one call in its baseline
/// code throughout, several times slower (a 1.6 MB pack took 0.18 s to load in the Worker's
/// wasm in Node, 0.04 s in chunks).
///
/// ```
/// use skills_edge_catalog::skill::digest::{format_digest, sha256};
/// // FIPS 180-2's long message: a million times "a", many chunks.
/// assert_eq!(
///     format_digest(&sha256(&vec![b'a'; 1_000_000])),
///     "sha256:cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
/// );
/// ```
pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    let mut h = Sha256::new();
    for chunk in bytes.chunks(CHUNK) {
        h.update(chunk);
    }
    h.finalize().into()
}

/// SHA-256 of `bytes` in wire form.
///
/// ```
/// use skills_edge_catalog::skill::digest::digest_of;
/// assert_eq!(
///     digest_of(b"a"),
///     "sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"
/// );
/// ```
pub fn digest_of(bytes: &[u8]) -> String {
    format_digest(&sha256(bytes))
}

/// Whether `s` is exactly `sha256:` followed by 64 lowercase hex characters.
/// Uppercase hex is refused (open point A6: the host treats it as an invalid entry).
pub fn is_wire_digest(s: &str) -> bool {
    s.len() == DIGEST_LEN
        && s.starts_with("sha256:")
        && s.as_bytes()[7..]
            .iter()
            .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(c))
}

/// Parses a wire digest into its 32 raw bytes (`None` unless [`is_wire_digest`]).
pub fn parse_digest(s: &str) -> Option<[u8; 32]> {
    if !is_wire_digest(s) {
        return None;
    }
    let hex = &s.as_bytes()[7..];
    let mut out = [0u8; 32];
    for (i, pair) in hex.chunks_exact(2).enumerate() {
        let v = |c: u8| {
            if c.is_ascii_digit() {
                c - b'0'
            } else {
                c - b'a' + 10
            }
        };
        out[i] = (v(pair[0]) << 4) | v(pair[1]);
    }
    Some(out)
}
