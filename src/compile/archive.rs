//! The mirror's archives: a skill with supporting files is published as one `{name}.tar.gz`
//! (Agent Skills Discovery RFC v0.2.0, "Archive Distribution": `type: "archive"`, the skill's
//! files at the archive root, `SKILL.md` among them, no `..` and no absolute paths), built here
//! at compile time from the bytes the catalog serves, so its digest is known to the index.
//!
//! The bytes depend on the skill's files and nothing else (not the machine, the umask, the
//! checkout time or the order a directory is read in), so two builds of one folder publish one
//! digest and hosts that cache by digest keep their copy:
//! * members: the skill's manifest in its order (`SKILL.md` first, then every other file under
//!   the skill root in URI order, nested skills' files included), each by its path relative to
//!   the skill root; regular files only, no directory entries (every reader makes the parents),
//!   no links;
//! * each header is POSIX ustar with mode `0644`, uid and gid 0, empty user and group names,
//!   mtime 0 and device numbers 0; a path longer than ustar's 100 + 155 bytes is written with
//!   a GNU `././@LongLink` entry first (same fixed fields), which every reader of the formats
//!   above knows; the archive ends with two zero blocks (no padding to a 10 KiB record);
//! * gzip (RFC 1952) with a fixed header (mtime 0, no file name, no comment, OS byte 255
//!   "unknown", XFL 0) and DEFLATE at level 6 from `miniz_oxide` (pure Rust, so the npm
//!   package's WebAssembly compiler makes the same bytes). The compressed bytes are those of
//!   the `miniz_oxide` version in `Cargo.lock`: a new version of it may change an archive's
//!   bytes (never its members), and so its digest.
//!
//! Only `.tar.gz` is made: the RFC says archives SHOULD be `.tar.gz` or `.zip` and every client
//! MUST read both, and the clients checked (the `skills` installer 1.7.4, this project's host)
//! read `.tar.gz`; a second copy of every skill as `.zip` would double the assets for no reader.

use crate::skill::digest::digest_of;
use std::io::Write as _;

/// The file name suffix of a skill's archive in the mirror (`{name}.tar.gz`).
pub const ARCHIVE_SUFFIX: &str = ".tar.gz";

/// The `Content-Type` the mirror serves archives with (the RFC's "HTTP Considerations").
pub const ARCHIVE_MIME: &str = "application/gzip";

/// The DEFLATE level of the archives (zlib's default level: a fixed value, so the bytes are).
pub(crate) const GZIP_LEVEL: u32 = 6;

/// The largest archive a build publishes: 25 MiB, the per-file limit of Cloudflare Workers
/// Static Assets, where the Worker keeps large archives. The spec's 16 MiB per skill keeps
/// every archive below it; the check names the skill if that ever stops being so.
pub(crate) const MAX_ARCHIVE_BYTES: u64 = 25 * 1024 * 1024;

/// Whether `path` fits a plain ustar header (a name of up to 100 bytes, or a prefix of up to
/// 155 bytes and a name of up to 100 split at a `/`). A longer path is written with a GNU
/// long-name entry, which tar readers that know only ustar (the `skills` installer 1.7.4's own
/// reader among them) skip, keeping the truncated name (the compiler warns:
/// `archive-long-path`).
pub(crate) fn fits_ustar(path: &str) -> bool {
    let b = path.as_bytes();
    b.len() <= 100
        || b.iter()
            .enumerate()
            .any(|(i, &c)| c == b'/' && i <= 155 && (1..=100).contains(&(b.len() - i - 1)))
}

/// A skill's archive, as published.
///
/// ```
/// use skills_edge::catalog::compile::archive::CompiledArchive;
/// let archive = CompiledArchive::build([("SKILL.md", &b"# Hello\n"[..]), ("a.md", &b"a"[..])]).unwrap();
/// assert_eq!(&archive.bytes[..2], b"\x1f\x8b", "gzip");
/// assert_eq!(archive.size, archive.bytes.len() as u64);
/// let again = CompiledArchive::build([("SKILL.md", &b"# Hello\n"[..]), ("a.md", &b"a"[..])]).unwrap();
/// assert_eq!(archive.digest, again.digest, "the same files, the same bytes");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompiledArchive {
    /// The `.tar.gz` bytes.
    pub bytes: Vec<u8>,
    /// `sha256:` + 64 lowercase hex of `bytes` (the index's `digest`).
    pub digest: String,
    /// `bytes.len()`.
    pub size: u64,
}

impl CompiledArchive {
    /// The archive of `members` (`(path relative to the skill root, bytes)`, in archive order).
    /// Fails only if a path cannot be put in a tar header (the compiler's path rules make
    /// every path it publishes representable).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn build<'a>(
        members: impl IntoIterator<Item = (&'a str, &'a [u8])>,
    ) -> std::io::Result<CompiledArchive> {
        let bytes = tar_gz(members)?;
        Ok(CompiledArchive {
            digest: digest_of(&bytes),
            size: bytes.len() as u64,
            bytes,
        })
    }
}

/// The `.tar.gz` of `members`, as described in the module documentation (the test
/// `the_gzip_header_is_fixed_and_the_bytes_repeat`).
pub(crate) fn tar_gz<'a>(
    members: impl IntoIterator<Item = (&'a str, &'a [u8])>,
) -> std::io::Result<Vec<u8>> {
    let mut tar = tar::Builder::new(Vec::new());
    for (path, bytes) in members {
        let mut h = tar::Header::new_ustar();
        h.set_entry_type(tar::EntryType::Regular);
        h.set_mode(0o644);
        h.set_uid(0);
        h.set_gid(0);
        h.set_mtime(0);
        h.set_size(bytes.len() as u64);
        // `append_data` writes the path (ustar name and prefix, or a GNU long-name entry) and
        // the checksum.
        tar.append_data(&mut h, path, bytes)?;
    }
    let tar = tar.into_inner()?;
    let mut gz = flate2::GzBuilder::new()
        .mtime(0)
        .operating_system(255)
        .write(
            Vec::with_capacity(tar.len() / 2 + 64),
            flate2::Compression::new(GZIP_LEVEL),
        );
    gz.write_all(&tar)?;
    gz.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tar stream inside an archive (an independent gzip reader: flate2's decoder).
    fn gunzip(gz: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(gz), &mut out).unwrap();
        out
    }

    #[test]
    fn the_gzip_header_is_fixed_and_the_bytes_repeat() {
        let a = tar_gz([
            ("SKILL.md", &b"---\nname: a\n---\n"[..]),
            ("b/c.txt", &b"c"[..]),
        ])
        .unwrap();
        // A fixed gzip header: magic, deflate, no flags, mtime 0, XFL 0, OS 255.
        assert_eq!(a[..10], [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255]);
        assert_eq!(
            a,
            tar_gz([
                ("SKILL.md", &b"---\nname: a\n---\n"[..]),
                ("b/c.txt", &b"c"[..])
            ])
            .unwrap()
        );
    }

    #[test]
    fn headers_carry_fixed_fields_and_members_keep_their_order() {
        let gz = tar_gz([("SKILL.md", &b"hello"[..]), ("a/b.txt", &b""[..])]).unwrap();
        let tar = gunzip(&gz);
        // Two members of one block each (the empty file has no data block), two zero blocks.
        assert_eq!(tar.len(), 512 * 2 + 512 + 1024);
        let h = &tar[..512];
        assert_eq!(&h[..9], b"SKILL.md\0");
        assert_eq!(&h[100..108], b"0000644\0", "mode");
        assert_eq!(&h[108..116], b"0000000\0", "uid");
        assert_eq!(&h[116..124], b"0000000\0", "gid");
        assert_eq!(&h[124..136], b"00000000005\0", "size");
        assert_eq!(&h[136..148], b"00000000000\0", "mtime");
        assert_eq!(h[156], b'0', "a regular file");
        assert_eq!(&h[257..265], b"ustar\x0000", "ustar magic and version");
        assert!(
            h[265..329].iter().all(|&b| b == 0),
            "empty user and group names"
        );
        assert_eq!(&tar[512..517], b"hello");
        assert_eq!(&tar[1024..1032], b"a/b.txt\0");
        assert!(tar[1536..].iter().all(|&b| b == 0));
    }

    #[test]
    fn ustar_fits_paths_up_to_its_name_and_prefix_fields() {
        assert!(fits_ustar(&"n".repeat(100)));
        assert!(!fits_ustar(&"n".repeat(101)));
        assert!(fits_ustar(&format!(
            "{}/{}",
            "p".repeat(155),
            "n".repeat(100)
        )));
        assert!(!fits_ustar(&format!(
            "{}/{}",
            "p".repeat(156),
            "n".repeat(100)
        )));
        assert!(!fits_ustar(&format!(
            "{}/{}",
            "p".repeat(10),
            "n".repeat(101)
        )));
        assert!(fits_ustar(&format!(
            "{}/{}/{}",
            "a".repeat(100),
            "b".repeat(50),
            "n".repeat(90)
        )));
    }

    #[test]
    fn a_long_path_is_kept_whole() {
        let long = format!("{}/{}", "d".repeat(150), "f".repeat(120));
        let gz = tar_gz([("SKILL.md", &b"x"[..]), (long.as_str(), &b"y"[..])]).unwrap();
        let tar = gunzip(&gz);
        let mut archive = tar::Archive::new(&tar[..]);
        let paths: Vec<String> = archive
            .entries()
            .unwrap()
            .map(|e| e.unwrap().path().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(paths, ["SKILL.md".to_owned(), long]);
    }
}
