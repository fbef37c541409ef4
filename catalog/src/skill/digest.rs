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

/// SHA-256 of `bytes`, as 32 raw bytes.
pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The golden vectors of the spec notes (§1.9).
    #[test]
    fn golden_vectors() {
        let skill_md = "---\nname: code-review\ndescription: Review code using the team's checklist.\n---\n\n# Code review\n\nRead `references/checklist.md`, then review the diff.\n";
        assert_eq!(skill_md.len(), 149);
        assert_eq!(
            digest_of(skill_md.as_bytes()),
            "sha256:d2489d6c182e8df9c178563ff9f2eac7998a0c1bb1278c52a7fd5306e4259160"
        );
        let checklist = "# Review checklist\n\nCheck correctness, tests, and compatibility.\n";
        assert_eq!(checklist.len(), 65);
        assert_eq!(
            digest_of(checklist.as_bytes()),
            "sha256:dbab2de7bf7db9cc95cb6ce681c3690b26184db39f75b958a0287ca6d9e24e20"
        );
        assert_eq!(
            digest_of(b""),
            "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            digest_of(b"a"),
            "sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"
        );
    }

    #[test]
    fn wire_form_is_strict() {
        let d = digest_of(b"a");
        assert!(is_wire_digest(&d));
        assert_eq!(parse_digest(&d), Some(sha256(b"a")));
        assert!(!is_wire_digest(&d.to_uppercase()));
        assert!(!is_wire_digest(&d.replace("sha256:", "sha-256:")));
        assert!(!is_wire_digest(&d[..70]));
        assert!(!is_wire_digest(&format!("{d}0")));
        assert!(!is_wire_digest("sha256:é"));
    }
}
