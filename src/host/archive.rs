//! Reading a skill archive a well-known source publishes (Agent Skills Discovery RFC v0.2.0,
//! §Archive Distribution, §Archive Safety), in memory and without I/O: `.tar.gz` (gzip over a
//! ustar, pax or GNU tar) and `.zip` (stored or deflate members).
//!
//! The caller verifies the archive's digest first (the RFC's order: digest, then unpack);
//! this module then reads the archive **the way extractors read it, or refuses it**: the
//! members returned are the files GNU tar, bsdtar (libarchive), Python's `tarfile` and `zipfile`
//! and Info-ZIP's `unzip` write when they extract the same bytes, and whatever those readers
//! could read differently is refused (`tests/archive_corpus.rs` holds the host to this against
//! the real tools). With the member and the rule, it refuses:
//!
//! * malformed input (`archive-invalid`): a bad gzip header (or header CRC), trailer or
//!   CRC-32, a corrupt deflate stream (a copy from before the start of the output included, as
//!   zlib refuses it), a tar header whose checksum does not add up or whose numeric fields are
//!   not octal numbers, a truncated member, bytes after the end of the archive or between zip
//!   members, an entry type, pax record, zip method, flag or version this reader does not
//!   know, encryption, zip64, a member name the
//!   compiler would refuse to publish (`[A-Za-z0-9._~-]` segments), no `SKILL.md` at the root;
//! * anything unsafe (`archive-unsafe`): `..` segments, absolute paths (`/x`, `C:x`),
//!   backslashes, symbolic and hard links (whatever they point at: a skill has no links, so
//!   none is "inside"), devices, FIFOs and sockets, a path given twice (after the leading `./`
//!   is dropped), two paths that differ only in letter case (one file on macOS and Windows), a
//!   path that is both a file and a directory, tar extended headers that readers apply
//!   differently ([`read_tar`]), zip local headers that differ from the central directory or
//!   members whose data overlap ([`read_zip`]);
//! * sizes (`limit-exceeded`): more than 512 files or 16 MiB in the skill (SEP-2640 §Limits),
//!   checked from the headers before any data is read; more inflated bytes than
//!   [`MAX_INFLATED_BYTES`], checked while inflating, so a bomb stops at the bound, not after.
//!   There is no bound on the ratio of inflated to archive bytes: hosts must accept a skill of
//!   16 MiB (SEP-2640 §Limits), and a repetitive one (a file of zeros, a generated table)
//!   deflates more than a thousand times; the absolute bound already keeps a bomb small.
//!
//! For archive refusals, `field` is the member's path (as the archive spells it) and `actual`
//! a stable token for what broke the rule: `traversal`, `absolute-path`, `backslash`,
//! `symlink`, `hardlink`, `device`, `fifo`, `duplicate-path`, `case-collision`,
//! `file-and-directory`, `header-order`, `name-mismatch`, `field-mismatch`, `overlap`,
//! `unlisted-data`, `bad-name`, `bad-header`, `checksum`, `crc`, `truncated`, `trailing-data`,
//! `unsupported`, `encrypted`, `zip64`, `gzip-header`, `deflate`, `no-skill-md`, `files`,
//! `bytes`, `inflated`, `header-size`.
//!
//! The format comes from the index, never from the response: the artifact's URL, as the index
//! names it, ends in `.tar.gz`, `.tgz` or `.zip` ([`ArchiveFormat::from_url`]). The RFC says a
//! client SHOULD prefer the `Content-Type` header; this reader does not, because the digest
//! covers the bytes but not the header, so a header could make one file read as two different
//! archives. The bytes are never sniffed either.

use std::collections::BTreeMap;

use super::error::{ErrorCode, Result, VerifyError};
use crate::skill::limits::{MAX_BYTES_PER_SKILL, MAX_FILES_PER_SKILL};
use crate::skill::uri::{check_segment, fold_case, SKILL_MD};

mod tar;
mod zip;

pub use tar::read_tar;
pub use zip::read_zip;

/// The most bytes inflated from one archive: the skill's 16 MiB plus room for the tar
/// headers, pax records and padding of 512 files.
pub const MAX_INFLATED_BYTES: u64 = MAX_BYTES_PER_SKILL + (4 << 20);

/// The largest pax extended header or GNU long-name record read.
pub(crate) const MAX_TAR_RECORD: u64 = 64 << 10;

/// The two formats a client must read (RFC v0.2.0 §Supported Formats).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArchiveFormat {
    /// gzip-compressed tar.
    TarGz,
    /// zip.
    Zip,
}

impl ArchiveFormat {
    /// The format an index names: the extension of the artifact's URL path (`.tar.gz`, `.tgz`,
    /// `.zip`, any letter case; the query and fragment are not part of it). `None` for any
    /// other URL: the index must name the format (module documentation).
    ///
    /// ```
    /// use skills_edge::host::archive::ArchiveFormat;
    /// assert_eq!(ArchiveFormat::from_url("https://x/a.TGZ"), Some(ArchiveFormat::TarGz));
    /// assert_eq!(ArchiveFormat::from_url("https://x/a.zip?v=1#f"), Some(ArchiveFormat::Zip));
    /// assert_eq!(ArchiveFormat::from_url("https://x/a?f=.zip"), None);
    /// assert_eq!(ArchiveFormat::from_url("https://x/a.tar"), None);
    /// ```
    pub fn from_url(url: &str) -> Option<ArchiveFormat> {
        let path = url.split(['?', '#']).next().unwrap_or_default();
        let path = path.to_ascii_lowercase();
        if path.ends_with(".tar.gz") || path.ends_with(".tgz") {
            Some(ArchiveFormat::TarGz)
        } else if path.ends_with(".zip") {
            Some(ArchiveFormat::Zip)
        } else {
            None
        }
    }

    /// `tar.gz` or `zip`.
    #[cfg(feature = "internals")]
    pub fn as_str(self) -> &'static str {
        match self {
            ArchiveFormat::TarGz => "tar.gz",
            ArchiveFormat::Zip => "zip",
        }
    }
}

/// One file of an unpacked archive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// Its path relative to the skill directory, `/`-separated, without a leading `./`.
    pub path: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// Unpacks `bytes` as `format`; `label` (the archive's URL) names it in errors. The members
/// come in archive order; directories are checked and dropped.
pub fn unpack(format: ArchiveFormat, bytes: &[u8], label: &str) -> Result<Vec<Member>> {
    match format {
        ArchiveFormat::TarGz => {
            let tar = gunzip(bytes, label)?;
            read_tar(&tar, label)
        }
        ArchiveFormat::Zip => read_zip(bytes, label),
    }
}

fn refuse(code: ErrorCode, label: &str, member: &str, token: &str, what: String) -> VerifyError {
    let about = if member.is_empty() {
        String::new()
    } else {
        format!(" member {member:?}:")
    };
    let mut e = VerifyError::new(code, format!("the archive {label}:{about} {what}"))
        .with_uri(label)
        .with_actual(token);
    if !member.is_empty() {
        e = e.with_field(member);
    }
    e
}

fn invalid(label: &str, member: &str, token: &str, what: impl Into<String>) -> VerifyError {
    refuse(ErrorCode::ArchiveInvalid, label, member, token, what.into())
}

fn unsafe_(label: &str, member: &str, token: &str, what: impl Into<String>) -> VerifyError {
    refuse(ErrorCode::ArchiveUnsafe, label, member, token, what.into())
}

fn limit(label: &str, member: &str, token: &str, what: impl Into<String>) -> VerifyError {
    refuse(ErrorCode::LimitExceeded, label, member, token, what.into())
}

fn bound_error(label: &str, member: &str) -> VerifyError {
    limit(
        label,
        member,
        "inflated",
        format!("it inflates to more than {MAX_INFLATED_BYTES} bytes; a skill is at most {MAX_BYTES_PER_SKILL} bytes"),
    )
}

/// Inflates the raw deflate stream at the start of `input`, stopping with `over()` as soon as
/// more than `cap` bytes come out. Returns the bytes and how much of `input` the stream used.
///
/// The output buffer is the whole output, never a window, so a back-reference to a distance
/// before the start of the output is an error (`deflate`), as zlib (GNU tar's gzip, Python,
/// `unzip`) reports it, where a windowed decoder would copy zeros the other readers never
/// write. Incomplete Huffman codes are refused as zlib refuses them. The buffer doubles as it
/// fills, so the work stays linear in the output.
fn inflate(
    input: &[u8],
    cap: u64,
    label: &str,
    member: &str,
    over: impl Fn() -> VerifyError,
) -> Result<(Vec<u8>, usize)> {
    use miniz_oxide::inflate::core::{decompress, inflate_flags, DecompressorOxide};
    use miniz_oxide::inflate::TINFLStatus;
    let corrupt = |what: &str| {
        invalid(
            label,
            member,
            "deflate",
            format!("the deflate stream is corrupt or truncated ({what})"),
        )
    };
    // One byte past the cap, to tell "exactly the cap" from "more".
    let limit = usize::try_from(cap).unwrap_or(usize::MAX).saturating_add(1);
    let mut out = vec![0u8; input.len().saturating_mul(4).clamp(1, limit)];
    let mut decoder = Box::<DecompressorOxide>::default();
    let (mut used, mut written) = (0usize, 0usize);
    let flags = inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF;
    loop {
        let rest = input.get(used..).unwrap_or_default();
        let (status, read, wrote) = decompress(&mut decoder, rest, &mut out, written, flags);
        used = used.saturating_add(read);
        written = written.saturating_add(wrote);
        if written as u64 > cap {
            return Err(over());
        }
        match status {
            TINFLStatus::Done => {
                out.truncate(written);
                return Ok((out, used));
            }
            TINFLStatus::HasMoreOutput if out.len() < limit => {
                let grown = out.len().saturating_mul(2).min(limit);
                out.resize(grown, 0);
            }
            TINFLStatus::HasMoreOutput => return Err(over()),
            TINFLStatus::FailedCannotMakeProgress | TINFLStatus::NeedsMoreInput => {
                return Err(corrupt("it ends before its last block"))
            }
            TINFLStatus::Failed => {
                return Err(corrupt(
                    "a code is invalid or a copy reaches before the start of the output",
                ))
            }
            other => return Err(corrupt(&format!("{other:?}"))),
        }
    }
}

/// Whether a checksum or CRC-32 comparison passes. Fuzzing builds only (`cargo fuzz` sets
/// `--cfg fuzzing`; no other build does) skip the comparison, so the fuzzer reaches the
/// readers behind it instead of stopping at every mutated byte.
fn sums_match(equal: bool) -> bool {
    equal || cfg!(fuzzing)
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = flate2::Crc::new();
    crc.update(bytes);
    crc.sum()
}

// Offsets come from the input (a zip's 32-bit fields), so the end is computed without
// overflow on 32-bit targets too.
fn le16(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(
        b.get(at..at.checked_add(2)?)?.try_into().ok()?,
    ))
}

fn le32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(
        b.get(at..at.checked_add(4)?)?.try_into().ok()?,
    ))
}

/// Decompresses one gzip member (RFC 1952) with the bounds of the module documentation: the
/// header's optional fields skipped, the CRC-32 and length of the trailer checked, nothing
/// accepted after it.
pub fn gunzip(bytes: &[u8], label: &str) -> Result<Vec<u8>> {
    let bad = |what: &str| {
        invalid(
            label,
            "",
            "gzip-header",
            format!("{what}; it is not a gzip file"),
        )
    };
    if bytes.get(..3) != Some(&[0x1f, 0x8b, 8][..]) {
        return Err(bad("it does not start with the gzip magic and method 8"));
    }
    let flags = *bytes.get(3).ok_or_else(|| bad("the header is cut short"))?;
    if flags & 0xe0 != 0 {
        return Err(bad("the header sets reserved flags"));
    }
    let mut at = 10usize;
    if flags & 4 != 0 {
        let xlen = le16(bytes, at).ok_or_else(|| bad("the extra field is cut short"))?;
        at += 2 + usize::from(xlen);
    }
    for flag in [8u8, 16] {
        if flags & flag != 0 {
            let rest = bytes
                .get(at..)
                .ok_or_else(|| bad("the header is cut short"))?;
            let nul = rest
                .iter()
                .position(|&b| b == 0)
                .ok_or_else(|| bad("the file name or comment is not terminated"))?;
            at += nul + 1;
        }
    }
    if flags & 2 != 0 {
        // FHCRC: the low 16 bits of the CRC-32 of the header before it (RFC 1952 2.3.1);
        // gzip, and so GNU tar, refuses a wrong one.
        let stored = le16(bytes, at).ok_or_else(|| bad("the header is cut short"))?;
        let head = bytes.get(..at).unwrap_or_default();
        if !sums_match(u32::from(stored) == crc32(head) & 0xffff) {
            return Err(invalid(
                label,
                "",
                "crc",
                "the gzip header's CRC-16 (flag FHCRC) does not match the header",
            ));
        }
        at += 2;
    }
    let body = bytes
        .get(at..)
        .filter(|b| !b.is_empty())
        .ok_or_else(|| bad("the header is cut short"))?;
    let (out, used) = inflate(body, MAX_INFLATED_BYTES, label, "", || {
        bound_error(label, "")
    })?;
    let trailer = at + used;
    let (crc, isize) = match (le32(bytes, trailer), le32(bytes, trailer + 4)) {
        (Some(c), Some(s)) => (c, s),
        _ => {
            return Err(invalid(
                label,
                "",
                "truncated",
                "the gzip trailer (CRC-32 and length) is missing; the file is truncated",
            ))
        }
    };
    if !sums_match(crc == crc32(&out)) || isize != out.len() as u32 {
        return Err(invalid(
            label,
            "",
            "crc",
            "the gzip trailer's CRC-32 or length does not match the inflated data",
        ));
    }
    if bytes.len() > trailer + 8 {
        return Err(invalid(
            label,
            "",
            "trailing-data",
            format!(
                "{} bytes follow the gzip member; an archive is one gzip member",
                bytes.len() - trailer - 8
            ),
        ));
    }
    Ok(out)
}

/// A member name as text: UTF-8 (the compiler's rules then allow ASCII only).
fn name_text(label: &str, bytes: &[u8]) -> Result<String> {
    String::from_utf8(bytes.to_vec()).map_err(|_| {
        invalid(
            label,
            &String::from_utf8_lossy(bytes),
            "bad-name",
            "the name is not UTF-8",
        )
    })
}

/// One name in the tree of an archive's paths.
struct Node {
    /// The directory it is in (`0`, the root, for a top-level name; the root is its own).
    parent: usize,
    /// The segment as the archive spells it.
    spelling: String,
    /// A file, else a directory.
    file: bool,
}

/// What is being collected: the files, their total size, and the tree of every path seen,
/// each segment keyed by its directory and its folded spelling ([`fold_case`], the rule the
/// compiler's `case-collision` applies), so a path given twice, two spellings of one path and a
/// file under a file are all found in one walk of the path (linear in its length, whatever its
/// depth).
struct Collector<'a> {
    label: &'a str,
    members: Vec<Member>,
    nodes: Vec<Node>,
    tree: BTreeMap<(usize, String), usize>,
    skill_md: bool,
    bytes: u64,
}

impl<'a> Collector<'a> {
    fn new(label: &'a str) -> Collector<'a> {
        Collector {
            label,
            members: Vec::new(),
            nodes: vec![Node {
                parent: 0,
                spelling: String::new(),
                file: false,
            }],
            tree: BTreeMap::new(),
            skill_md: false,
            bytes: 0,
        }
    }

    /// Checks a member's path (see the module documentation) and returns it normalised
    /// (without leading `./` and, for a directory, without the trailing `/`).
    fn path(&self, raw: &str, directory: bool) -> Result<String> {
        let label = self.label;
        if raw.contains('\\') {
            return Err(unsafe_(
                label,
                raw,
                "backslash",
                "the name contains a backslash, which some readers take as a separator",
            ));
        }
        if raw.starts_with('/') || raw.as_bytes().get(1) == Some(&b':') {
            return Err(unsafe_(
                label,
                raw,
                "absolute-path",
                "the name is an absolute path; an archive holds the skill's files at its root",
            ));
        }
        if raw.split('/').any(|s| s == "..") {
            return Err(unsafe_(
                label,
                raw,
                "traversal",
                "the name has a `..` segment, which leaves the skill directory",
            ));
        }
        let mut p = raw;
        while let Some(rest) = p.strip_prefix("./") {
            p = rest;
        }
        if directory {
            p = p.trim_end_matches('/');
        }
        if p.is_empty() || p == "." {
            return Ok(String::new());
        }
        for seg in p.split('/') {
            if let Err(e) = check_segment(seg) {
                return Err(invalid(
                    label,
                    raw,
                    "bad-name",
                    format!("{} (the compiler's rule for published paths)", e.describe()),
                ));
            }
        }
        Ok(p.to_owned())
    }

    /// The path of node `id`, as spelled (for messages).
    fn spelled(&self, mut id: usize) -> String {
        let mut segs = Vec::new();
        while id != 0 {
            let Some(n) = self.nodes.get(id) else { break };
            segs.push(n.spelling.as_str());
            id = n.parent;
        }
        segs.reverse();
        segs.join("/")
    }

    /// Puts `path` (checked and normalised) in the tree as a file or a directory, refusing a
    /// path given twice, one that differs from another only in letter case, and a path both a
    /// file and a directory.
    fn place(&mut self, raw: &str, path: &str, file: bool) -> Result<()> {
        let label = self.label;
        let mut parent = 0usize;
        let mut segs = path.split('/').peekable();
        let mut walked = 0usize;
        while let Some(seg) = segs.next() {
            let last = segs.peek().is_none();
            walked += seg.len() + usize::from(walked > 0);
            let here = path.get(..walked).unwrap_or(path);
            let key = (parent, fold_case(seg));
            let Some(&id) = self.tree.get(&key) else {
                let id = self.nodes.len();
                self.nodes.push(Node {
                    parent,
                    spelling: seg.to_owned(),
                    file: file && last,
                });
                self.tree.insert(key, id);
                parent = id;
                continue;
            };
            let (spelling_differs, was_file) = self
                .nodes
                .get(id)
                .map(|n| (n.spelling != seg, n.file))
                .unwrap_or_default();
            if spelling_differs {
                let other = self.spelled(id);
                return Err(unsafe_(
                    label,
                    raw,
                    "case-collision",
                    format!("{here} and {other} differ only in letter case; on macOS and Windows they are one file or directory"),
                ));
            }
            if last && file && was_file {
                return Err(unsafe_(
                    label,
                    raw,
                    "duplicate-path",
                    format!("{path} is in the archive twice; readers disagree on which copy wins"),
                ));
            }
            if was_file || (last && file) {
                return Err(unsafe_(
                    label,
                    raw,
                    "file-and-directory",
                    format!("{here} is both a file and a directory"),
                ));
            }
            parent = id;
        }
        Ok(())
    }

    fn directory(&mut self, raw: &str) -> Result<()> {
        let path = self.path(raw, true)?;
        if path.is_empty() {
            return Ok(());
        }
        self.place(raw, &path, false)
    }

    /// Checks a file's path and declared size before its data is read, and places it.
    fn announce(&mut self, raw: &str, size: u64) -> Result<String> {
        let label = self.label;
        let path = self.path(raw, false)?;
        if path.is_empty() {
            return Err(invalid(label, raw, "bad-name", "a file has an empty name"));
        }
        self.place(raw, &path, true)?;
        if self.members.len() >= MAX_FILES_PER_SKILL {
            return Err(limit(label, raw, "files", format!("the archive has more than {MAX_FILES_PER_SKILL} files, the most a skill may have")));
        }
        if self.bytes.saturating_add(size) > MAX_BYTES_PER_SKILL {
            return Err(limit(label, raw, "bytes", format!("the files add up to more than {MAX_BYTES_PER_SKILL} bytes, the most a skill may have")));
        }
        Ok(path)
    }

    fn add(&mut self, path: String, bytes: Vec<u8>) {
        self.bytes += bytes.len() as u64;
        self.skill_md |= path == SKILL_MD;
        self.members.push(Member { path, bytes });
    }

    fn finish(self) -> Result<Vec<Member>> {
        if !self.skill_md {
            return Err(invalid(self.label, "", "no-skill-md", "there is no SKILL.md at the archive root (files go at the root, not in a wrapper folder)"));
        }
        Ok(self.members)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_format_comes_from_the_url_alone() {
        assert_eq!(
            ArchiveFormat::from_url("https://x/a.tar.gz"),
            Some(ArchiveFormat::TarGz)
        );
        assert_eq!(
            ArchiveFormat::from_url("https://x/A.Tar.Gz?x=1"),
            Some(ArchiveFormat::TarGz)
        );
        assert_eq!(
            ArchiveFormat::from_url("https://x/a.zip#f"),
            Some(ArchiveFormat::Zip)
        );
        assert_eq!(ArchiveFormat::from_url("https://x/a"), None);
        assert_eq!(ArchiveFormat::from_url("https://x/a.gz"), None);
        assert_eq!(ArchiveFormat::from_url("https://x/a.md"), None);
    }
}
