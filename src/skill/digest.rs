//! SHA-256 digests in the wire form `sha256:` + 64 lowercase hex characters (SEP-2640
//! §Skill Entries), computed over a file's raw bytes.
//!
//! There is one SHA-256 here, [`Sha256Stream`] (over the `sha2` crate): [`sha256`] and
//! [`digest_of`] hash a whole slice with it, and callers that hold their bytes elsewhere (the
//! npm package hashes a large `Uint8Array` in chunks through a fixed buffer) feed it piece by
//! piece. Both give the same digest for the same bytes, however they are split.

use sha2::{Digest as _, Sha256};

/// Length of a formatted digest: `sha256:` plus 64 hex characters.
pub(crate) const DIGEST_LEN: usize = 7 + 64;

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Formats 32 raw digest bytes as `sha256:<64 lowercase hex>`.
pub(crate) fn format_digest(raw: &[u8; 32]) -> String {
    let mut s = String::with_capacity(DIGEST_LEN);
    s.push_str("sha256:");
    for b in raw {
        s.push(HEX[(b >> 4) as usize] as char);
        s.push(HEX[(b & 15) as usize] as char);
    }
    s
}

/// Bytes hashed per call into the compression function (see [`Sha256Stream::update`]).
const CHUNK: usize = 64 * 1024;

/// An incremental SHA-256: bytes go in with [`update`](Self::update), in pieces of any
/// length, and [`finish`](Self::finish) gives the digest of everything fed so far.
///
/// ```
/// use skills_edge::skill::digest::{digest_of, Sha256Stream};
/// let mut s = Sha256Stream::new();
/// s.update(b"hello ");
/// s.update(b"world");
/// assert_eq!(s.len(), 11);
/// assert_eq!(s.finish_wire(), digest_of(b"hello world"));
/// ```
#[derive(Clone, Default)]
pub struct Sha256Stream {
    hasher: Sha256,
    len: u64,
}

impl Sha256Stream {
    /// A stream that has hashed nothing yet.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Feeds `bytes` (after everything fed before).
    ///
    /// A large piece is fed to the hasher in chunks of 64 KiB: given one large slice, the
    /// hasher compresses it in a single call, and a WebAssembly engine that compiles a function
    /// quickly first and optimises it on a later call (V8, hence Node, browsers and workerd)
    /// runs that one call in its baseline code throughout, several times slower (a 1.6 MB pack
    /// took 0.18 s to load in the Worker's wasm in Node, 0.04 s in chunks).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn update(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(CHUNK) {
            self.hasher.update(chunk);
        }
        self.len = self.len.saturating_add(bytes.len() as u64);
    }

    /// How many bytes have been fed.
    #[cfg(any(test, feature = "internals"))]
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    /// Whether nothing has been fed yet.
    #[cfg(any(test, feature = "internals"))]
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The SHA-256 of everything fed, as 32 raw bytes.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn finish(self) -> [u8; 32] {
        self.hasher.finalize().into()
    }

    /// The SHA-256 of everything fed, in wire form.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn finish_wire(self) -> String {
        format_digest(&self.finish())
    }
}

impl std::fmt::Debug for Sha256Stream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sha256Stream")
            .field("len", &self.len)
            .finish_non_exhaustive()
    }
}

/// SHA-256 of `bytes`, as 32 raw bytes.
///
/// The bytes are fed in chunks of 64 KiB (see [`Sha256Stream::update`]).
///
/// ```
/// use skills_edge::skill::digest::sha256;
/// // FIPS 180-2's long message: a million times "a", many chunks.
/// let raw = sha256(&vec![b'a'; 1_000_000]);
/// assert_eq!(raw[..4], [0xcd, 0xc7, 0x6e, 0x5c]);
/// assert_eq!(raw[28..], [0xc7, 0x11, 0x2c, 0xd0]);
/// ```
pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    let mut s = Sha256Stream::new();
    s.update(bytes);
    s.finish()
}

/// SHA-256 of `bytes` in wire form.
///
/// ```
/// use skills_edge::catalog::digest_of;
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
