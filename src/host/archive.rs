//! Reading a skill archive a well-known source publishes (Agent Skills Discovery RFC v0.2.0,
//! §Archive Distribution, §Archive Safety), in memory and without I/O: `.tar.gz` (gzip over a
//! ustar, pax or GNU tar) and `.zip` (stored or deflate members).
//!
//! The caller verifies the archive's digest first (the RFC's order: digest, then unpack);
//! this module then refuses, with the member and the rule:
//!
//! * malformed input (`archive-invalid`): a bad gzip header, trailer or CRC-32, a tar header
//!   whose checksum does not add up, a truncated member, bytes after the end of the archive, an
//!   entry type or zip method this reader does not know, encryption, zip64, a member name the
//!   compiler would refuse to publish (`[A-Za-z0-9._~-]` segments), no `SKILL.md` at the root;
//! * anything unsafe (`archive-unsafe`): `..` segments, absolute paths (`/x`, `C:x`),
//!   backslashes, symbolic and hard links (whatever they point at: a skill has no links, so
//!   none is "inside"), devices, FIFOs and sockets, a path given twice (after the leading `./`
//!   is dropped), a path that is both a file and a directory, zip members whose local name
//!   differs from the central directory's or whose data overlap;
//! * sizes (`limit-exceeded`): more than 512 files or 16 MiB in the skill (SEP-2640 §Limits),
//!   checked from the headers before any data is read; more inflated bytes than
//!   [`MAX_INFLATED_BYTES`], or more than [`MAX_RATIO`] times the archive's size once past
//!   [`RATIO_FLOOR`] bytes, checked while inflating, so a bomb stops at the bound, not after.
//!
//! For archive refusals, `field` is the member's path (as the archive spells it) and `actual`
//! a stable token for what broke the rule: `traversal`, `absolute-path`, `backslash`,
//! `symlink`, `hardlink`, `device`, `fifo`, `duplicate-path`, `file-and-directory`,
//! `name-mismatch`, `overlap`, `bad-name`, `checksum`, `crc`, `truncated`, `trailing-data`,
//! `unsupported`, `encrypted`, `zip64`, `gzip-header`, `deflate`, `no-skill-md`, `files`,
//! `bytes`, `inflated`, `ratio`, `header-size`.
//!
//! The format is chosen as the RFC says: from `Content-Type`, then from the URL's extension
//! ([`ArchiveFormat::detect`]); the bytes are never sniffed, so a file is read the one way
//! the publisher declared.

use std::collections::BTreeSet;
use std::io::Read;

use super::error::{ErrorCode, Result, VerifyError};
use crate::skill::limits::{MAX_BYTES_PER_SKILL, MAX_FILES_PER_SKILL};
use crate::skill::uri::{check_segment, SKILL_MD};

/// The most bytes inflated from one archive: the skill's 16 MiB plus room for the tar
/// headers, pax records and padding of 512 files.
pub const MAX_INFLATED_BYTES: u64 = MAX_BYTES_PER_SKILL + (4 << 20);

/// The largest ratio of inflated bytes to archive bytes accepted past [`RATIO_FLOOR`]. Text
/// and tar headers deflate 3–20 times; 250 leaves room for repetitive files and stops a bomb
/// (deflate reaches about 1000) long before the absolute bound.
pub const MAX_RATIO: u64 = 250;

/// Inflated bytes accepted whatever the ratio (a small archive of a few zero-filled files).
pub const RATIO_FLOOR: u64 = 1 << 20;

/// The largest pax extended header or GNU long-name record read.
pub const MAX_TAR_RECORD: u64 = 64 << 10;

/// The two formats a client must read (RFC v0.2.0 §Supported Formats).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArchiveFormat {
    /// gzip-compressed tar.
    TarGz,
    /// zip.
    Zip,
}

impl ArchiveFormat {
    /// The format from the response's `Content-Type` (`application/gzip`, `application/zip`
    /// and their `x-` aliases), falling back to the URL's extension (`.tar.gz`, `.tgz`,
    /// `.zip`) when the header is absent or generic (RFC v0.2.0 §URL Resolution).
    ///
    /// ```
    /// use skills_edge::host::archive::ArchiveFormat;
    /// assert_eq!(ArchiveFormat::detect(Some("application/gzip"), "https://x/a"), Some(ArchiveFormat::TarGz));
    /// assert_eq!(ArchiveFormat::detect(Some("application/octet-stream"), "https://x/a.zip?v=1"), Some(ArchiveFormat::Zip));
    /// assert_eq!(ArchiveFormat::detect(None, "https://x/a.tar"), None);
    /// ```
    pub fn detect(content_type: Option<&str>, url: &str) -> Option<ArchiveFormat> {
        let essence = content_type
            .and_then(|c| c.split(';').next())
            .map(|c| c.trim().to_ascii_lowercase())
            .unwrap_or_default();
        match essence.as_str() {
            "application/gzip"
            | "application/x-gzip"
            | "application/x-gtar"
            | "application/x-tgz"
            | "application/x-compressed-tar" => return Some(ArchiveFormat::TarGz),
            "application/zip" | "application/x-zip-compressed" | "application/x-zip" => {
                return Some(ArchiveFormat::Zip)
            }
            _ => {}
        }
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

/// Whether a zip header's extra field carries an Info-ZIP Unicode Path block (id 0x7075):
/// a second name that Info-ZIP's unzip, 7-Zip and Python's `zipfile` (3.12 and later) put in
/// place of the header's, so the name every check here read would not be the name extracted.
/// The blocks are walked as APPNOTE 4.5 lays them out (id, size, data); a field cut short
/// ends the walk (its truncation is the header's own error).
fn second_name(extra: Option<&[u8]>) -> bool {
    let mut rest = extra.unwrap_or_default();
    while let (Some(id), Some(len)) = (le16(rest, 0), le16(rest, 2)) {
        if id == 0x7075 {
            return true;
        }
        let Some(next) = rest.get(4 + usize::from(len)..) else {
            return false;
        };
        rest = next;
    }
    false
}

fn second_name_refused(label: &str, member: &str) -> VerifyError {
    unsafe_(
        label,
        member,
        "name-mismatch",
        "it carries a second name (an Info-ZIP Unicode Path extra field) that some readers \
         extract instead; readers disagree on its name",
    )
}

fn limit(label: &str, member: &str, token: &str, what: impl Into<String>) -> VerifyError {
    refuse(ErrorCode::LimitExceeded, label, member, token, what.into())
}

/// The bound on inflated bytes for an archive of `archive_len` bytes: the absolute bound, and
/// the ratio bound past the floor.
fn inflate_bound(archive_len: usize) -> u64 {
    let by_ratio = (archive_len as u64)
        .saturating_mul(MAX_RATIO)
        .max(RATIO_FLOOR);
    by_ratio.min(MAX_INFLATED_BYTES)
}

fn bound_error(label: &str, member: &str, bound: u64) -> VerifyError {
    if bound >= MAX_INFLATED_BYTES {
        limit(
            label,
            member,
            "inflated",
            format!("it inflates to more than {bound} bytes; a skill is at most {MAX_BYTES_PER_SKILL} bytes"),
        )
    } else {
        limit(
            label,
            member,
            "ratio",
            format!("it inflates to more than {bound} bytes, over {MAX_RATIO} times its size; refused as a decompression bomb"),
        )
    }
}

/// Inflates the raw deflate stream at the start of `input`, stopping with `over()` as soon as
/// more than `cap` bytes come out. Returns the bytes and
/// how much of `input` the stream used.
fn inflate(
    input: &[u8],
    cap: u64,
    label: &str,
    member: &str,
    over: impl Fn() -> VerifyError,
) -> Result<(Vec<u8>, usize)> {
    let mut decoder = flate2::bufread::DeflateDecoder::new(input);
    let mut out = Vec::new();
    let mut chunk = vec![0u8; 64 << 10];
    loop {
        let n = decoder.read(&mut chunk).map_err(|e| {
            invalid(
                label,
                member,
                "deflate",
                format!("the deflate stream is corrupt or truncated ({e})"),
            )
        })?;
        if n == 0 {
            break;
        }
        if out.len() as u64 + n as u64 > cap {
            return Err(over());
        }
        out.extend_from_slice(chunk.get(..n).unwrap_or_default());
    }
    let used = usize::try_from(decoder.total_in()).unwrap_or(usize::MAX);
    Ok((out, used))
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
        at += 2;
    }
    let body = bytes
        .get(at..)
        .filter(|b| !b.is_empty())
        .ok_or_else(|| bad("the header is cut short"))?;
    let bound = inflate_bound(bytes.len());
    let (out, used) = inflate(body, bound, label, "", || bound_error(label, "", bound))?;
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

/// What is being collected: the files, their total size, the directories seen.
struct Collector<'a> {
    label: &'a str,
    members: Vec<Member>,
    paths: BTreeSet<String>,
    dirs: BTreeSet<String>,
    bytes: u64,
}

impl<'a> Collector<'a> {
    fn new(label: &'a str) -> Collector<'a> {
        Collector {
            label,
            members: Vec::new(),
            paths: BTreeSet::new(),
            dirs: BTreeSet::new(),
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

    fn conflict(&self, raw: &str, path: &str, directory: bool) -> Result<()> {
        let label = self.label;
        let parents = {
            let mut v = Vec::new();
            let mut d = path;
            while let Some((parent, _)) = d.rsplit_once('/') {
                v.push(parent);
                d = parent;
            }
            v
        };
        if parents.iter().any(|p| self.paths.contains(*p))
            || (directory && self.paths.contains(path))
            || (!directory && self.dirs.contains(path))
            || (!directory
                && self
                    .paths
                    .range(format!("{path}/")..)
                    .next()
                    .is_some_and(|q| q.starts_with(&format!("{path}/"))))
        {
            return Err(unsafe_(
                label,
                raw,
                "file-and-directory",
                format!("{path} is both a file and a directory"),
            ));
        }
        Ok(())
    }

    fn directory(&mut self, raw: &str) -> Result<()> {
        let path = self.path(raw, true)?;
        if path.is_empty() {
            return Ok(());
        }
        self.conflict(raw, &path, true)?;
        self.dirs.insert(path);
        Ok(())
    }

    /// Checks a file's path and declared size before its data is read.
    fn announce(&self, raw: &str, size: u64) -> Result<String> {
        let label = self.label;
        let path = self.path(raw, false)?;
        if path.is_empty() {
            return Err(invalid(label, raw, "bad-name", "a file has an empty name"));
        }
        if self.paths.contains(&path) {
            return Err(unsafe_(
                label,
                raw,
                "duplicate-path",
                format!("{path} is in the archive twice; readers disagree on which copy wins"),
            ));
        }
        self.conflict(raw, &path, false)?;
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
        self.paths.insert(path.clone());
        self.members.push(Member { path, bytes });
    }

    fn finish(self) -> Result<Vec<Member>> {
        if !self.paths.contains(SKILL_MD) {
            return Err(invalid(self.label, "", "no-skill-md", "there is no SKILL.md at the archive root (files go at the root, not in a wrapper folder)"));
        }
        Ok(self.members)
    }
}

const BLOCK: usize = 512;

/// A NUL-terminated header field as text.
fn field(h: &[u8], at: usize, len: usize) -> &[u8] {
    let f = h.get(at..at + len).unwrap_or_default();
    let end = f.iter().position(|&b| b == 0).unwrap_or(f.len());
    f.get(..end).unwrap_or_default()
}

/// An octal header number (leading blanks, digits, then NUL or blanks); `None` when it is not
/// one (base-256 numbers included: they only serve sizes beyond every limit here).
fn octal(h: &[u8], at: usize, len: usize) -> Option<u64> {
    let f = h.get(at..at + len)?;
    let s = f.iter().skip_while(|&&b| b == b' ');
    let mut n: u64 = 0;
    let mut digits = 0;
    let mut ended = false;
    for &b in s {
        match b {
            b'0'..=b'7' if !ended => {
                n = n.checked_mul(8)?.checked_add(u64::from(b - b'0'))?;
                digits += 1;
            }
            0 | b' ' => ended = true,
            _ => return None,
        }
    }
    (digits > 0).then_some(n)
}

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

/// Parses pax records (`<len> <key>=<value>\n`) and returns `path` and `size` if present.
fn pax(label: &str, data: &[u8]) -> Result<(Option<String>, Option<u64>)> {
    let bad = || invalid(label, "", "checksum", "a pax extended header is malformed");
    let (mut path, mut size) = (None, None);
    let mut rest = data;
    while !rest.is_empty() {
        let sp = rest.iter().position(|&b| b == b' ').ok_or_else(bad)?;
        let len: usize = std::str::from_utf8(rest.get(..sp).ok_or_else(bad)?)
            .ok()
            .and_then(|s| s.parse().ok())
            .ok_or_else(bad)?;
        let record = rest
            .get(..len)
            .filter(|r| r.len() > sp + 1)
            .ok_or_else(bad)?;
        if record.last() != Some(&b'\n') {
            return Err(bad());
        }
        let kv = record.get(sp + 1..len - 1).ok_or_else(bad)?;
        let eq = kv.iter().position(|&b| b == b'=').ok_or_else(bad)?;
        let (key, value) = (
            kv.get(..eq).unwrap_or_default(),
            kv.get(eq + 1..).unwrap_or_default(),
        );
        match key {
            b"path" => path = Some(name_text(label, value)?),
            b"size" => {
                size = Some(
                    std::str::from_utf8(value)
                        .ok()
                        .and_then(|s| s.parse().ok())
                        .ok_or_else(bad)?,
                )
            }
            _ => {}
        }
        rest = rest.get(len..).unwrap_or_default();
    }
    Ok((path, size))
}

/// Reads a tar stream (ustar, pax and GNU long names) into its files, with the checks of the
/// module documentation.
pub fn read_tar(tar: &[u8], label: &str) -> Result<Vec<Member>> {
    let mut c = Collector::new(label);
    let mut at = 0usize;
    let mut long_name: Option<String> = None;
    let mut pax_path: Option<String> = None;
    let mut pax_size: Option<u64> = None;
    loop {
        let Some(h) = tar.get(at..at + BLOCK) else {
            return Err(invalid(
                label,
                "",
                "truncated",
                "the tar stream ends without its end-of-archive block; it is truncated",
            ));
        };
        if h.iter().all(|&b| b == 0) {
            if tar.get(at..).unwrap_or_default().iter().any(|&b| b != 0) {
                return Err(invalid(
                    label,
                    "",
                    "trailing-data",
                    "data follows the tar end-of-archive block; other readers may read it",
                ));
            }
            break;
        }
        let raw_name = name_text(label, field(h, 0, 100))?;
        let stored = octal(h, 148, 8).ok_or_else(|| {
            invalid(
                label,
                &raw_name,
                "checksum",
                "the header's checksum field is not a number",
            )
        })?;
        // The checksum field counts as eight spaces; old writers summed signed bytes.
        let (mut unsigned, mut signed) = (0u64, 0i64);
        for (i, &b) in h.iter().enumerate() {
            let b = if (148..156).contains(&i) { b' ' } else { b };
            unsigned += u64::from(b);
            signed += i64::from(b as i8);
        }
        if !sums_match(stored == unsigned || i64::try_from(stored).ok() == Some(signed)) {
            return Err(invalid(
                label,
                &raw_name,
                "checksum",
                "the header's checksum does not match; the archive is corrupt",
            ));
        }
        let ustar = h.get(257..263) == Some(&b"ustar\0"[..]);
        let name = match (pax_path.take(), long_name.take()) {
            (Some(p), _) | (None, Some(p)) => p,
            (None, None) => {
                let prefix = if ustar { field(h, 345, 155) } else { &[][..] };
                if prefix.is_empty() {
                    raw_name
                } else {
                    format!("{}/{raw_name}", name_text(label, prefix)?)
                }
            }
        };
        let size = match pax_size.take() {
            Some(s) => s,
            None => octal(h, 124, 12).ok_or_else(|| {
                limit(
                    label,
                    &name,
                    "header-size",
                    "the size field is not an octal number (a base-256 size is beyond every limit)",
                )
            })?,
        };
        let kind = h.get(156).copied().unwrap_or(0);
        let data_at = at + BLOCK;
        let padded = size.div_ceil(BLOCK as u64).saturating_mul(BLOCK as u64);
        let next = u64::try_from(data_at)
            .unwrap_or(u64::MAX)
            .saturating_add(padded);
        let data = |len: u64| -> Result<&[u8]> {
            let end = usize::try_from(len)
                .ok()
                .and_then(|l| data_at.checked_add(l));
            end.and_then(|e| tar.get(data_at..e)).ok_or_else(|| {
                invalid(
                    label,
                    &name,
                    "truncated",
                    "the member's data is cut short; the archive is truncated",
                )
            })
        };
        match kind {
            b'0' | 0 | b'7' => {
                if name.ends_with('/') && kind == 0 {
                    c.directory(&name)?;
                } else {
                    let path = c.announce(&name, size)?;
                    let bytes = data(size)?.to_vec();
                    c.add(path, bytes);
                }
            }
            b'5' => c.directory(&name)?,
            b'1' => {
                return Err(unsafe_(
                    label,
                    &name,
                    "hardlink",
                    "it is a hard link; a skill archive holds regular files only",
                ))
            }
            b'2' => {
                return Err(unsafe_(
                    label,
                    &name,
                    "symlink",
                    "it is a symbolic link; a skill archive holds regular files only",
                ))
            }
            b'3' | b'4' => {
                return Err(unsafe_(
                    label,
                    &name,
                    "device",
                    "it is a device file; a skill archive holds regular files only",
                ))
            }
            b'6' => {
                return Err(unsafe_(
                    label,
                    &name,
                    "fifo",
                    "it is a FIFO; a skill archive holds regular files only",
                ))
            }
            b'x' | b'g' | b'L' | b'K' => {
                if size > MAX_TAR_RECORD {
                    return Err(limit(
                        label,
                        &name,
                        "header-size",
                        format!(
                            "an extended header of {size} bytes is larger than {MAX_TAR_RECORD}"
                        ),
                    ));
                }
                let record = data(size)?;
                match kind {
                    b'x' => {
                        let (p, s) = pax(label, record)?;
                        pax_path = p;
                        pax_size = s;
                    }
                    b'L' => long_name = Some(name_text(label, field(record, 0, record.len()))?),
                    // A global header applies to the whole archive; only path and size matter
                    // here, and a global path would name every file the same.
                    b'g' if pax(label, record)?.0.is_some() => {
                        return Err(unsafe_(
                            label,
                            &name,
                            "duplicate-path",
                            "a global pax header sets a path for every member",
                        ));
                    }
                    // Other global records, and the link name of a link entry that follows
                    // (which is refused).
                    _ => {}
                }
            }
            other => {
                return Err(invalid(
                    label,
                    &name,
                    "unsupported",
                    format!(
                        "its entry type {:?} is not a file or a directory",
                        other as char
                    ),
                ))
            }
        }
        at = usize::try_from(next)
            .ok()
            .filter(|n| *n <= tar.len())
            .ok_or_else(|| {
                invalid(
                    label,
                    "",
                    "truncated",
                    "the last member's data is cut short; the archive is truncated",
                )
            })?;
    }
    if pax_path.is_some() || long_name.is_some() || pax_size.is_some() {
        return Err(invalid(
            label,
            "",
            "truncated",
            "an extended header is not followed by a member",
        ));
    }
    c.finish()
}

/// One central directory entry of a zip archive, as far as this reader needs it.
struct ZipEntry {
    name: String,
    method: u16,
    flags: u16,
    crc: u32,
    compressed: u64,
    size: u64,
    offset: u64,
    unix_mode: Option<u32>,
    dos_directory: bool,
}

/// Reads a zip archive (stored and deflate members) into its files, with the checks of the
/// module documentation. The central directory is the authority; each local header must agree
/// with it, and no two members' data may overlap.
pub fn read_zip(zip: &[u8], label: &str) -> Result<Vec<Member>> {
    let bad = |token: &str, what: &str| invalid(label, "", token, what.to_owned());
    // The end-of-central-directory record: the last signature whose comment ends the file.
    let min = zip.len().saturating_sub(22 + 0xffff);
    let eocd = (min..=zip.len().saturating_sub(22))
        .rev()
        .find(|&i| {
            le32(zip, i) == Some(0x0605_4b50)
                && le16(zip, i + 20).map(|c| i + 22 + usize::from(c)) == Some(zip.len())
        })
        .ok_or_else(|| bad("truncated", "there is no end-of-central-directory record; it is not a zip file or it is truncated"))?;
    let n16 = |at| le16(zip, eocd + at).unwrap_or(0);
    let n32 = |at| le32(zip, eocd + at).unwrap_or(0);
    let (disk, cd_disk, here, total) = (n16(4), n16(6), n16(8), n16(10));
    let (cd_size, cd_offset) = (n32(12), n32(16));
    if total == 0xffff || cd_size == u32::MAX || cd_offset == u32::MAX {
        return Err(bad(
            "zip64",
            "it is a zip64 archive; a skill (at most 16 MiB and 512 files) needs no zip64",
        ));
    }
    if disk != 0 || cd_disk != 0 || here != total {
        return Err(bad("unsupported", "it spans several disks"));
    }
    if u64::from(cd_offset) + u64::from(cd_size) != eocd as u64 {
        return Err(bad("trailing-data", "the central directory does not end where the end record begins (data is prepended, appended or hidden)"));
    }
    if usize::from(total) > MAX_FILES_PER_SKILL * 2 + 64 {
        return Err(limit(label, "", "files", format!("the archive lists {total} entries; a skill has at most {MAX_FILES_PER_SKILL} files")));
    }
    let mut entries = Vec::with_capacity(usize::from(total));
    let mut at = cd_offset as usize;
    for _ in 0..total {
        if le32(zip, at) != Some(0x0201_4b50) {
            return Err(bad(
                "truncated",
                "a central directory entry is missing or corrupt",
            ));
        }
        let f16 = |o| le16(zip, at + o).unwrap_or(0);
        let f32 = |o| le32(zip, at + o).unwrap_or(0);
        let (name_len, extra_len, comment_len) = (
            usize::from(f16(28)),
            usize::from(f16(30)),
            usize::from(f16(32)),
        );
        let name_bytes = zip
            .get(at + 46..at + 46 + name_len)
            .ok_or_else(|| bad("truncated", "a central directory entry is cut short"))?;
        let name = name_text(label, name_bytes)?;
        if second_name(zip.get(at + 46 + name_len..at + 46 + name_len + extra_len)) {
            return Err(second_name_refused(label, &name));
        }
        let made_by_unix = f16(4) >> 8 == 3;
        let external = f32(38);
        entries.push(ZipEntry {
            name,
            method: f16(10),
            flags: f16(8),
            crc: f32(16),
            compressed: u64::from(f32(20)),
            size: u64::from(f32(24)),
            offset: u64::from(f32(42)),
            unix_mode: made_by_unix.then_some(external >> 16),
            dos_directory: external & 0x10 != 0,
        });
        at += 46 + name_len + extra_len + comment_len;
        if at > eocd {
            return Err(bad(
                "truncated",
                "the central directory overruns its declared size",
            ));
        }
    }
    let mut c = Collector::new(label);
    let bound = inflate_bound(zip.len());
    let mut inflated = 0u64;
    let mut spans: Vec<(u64, u64, String)> = Vec::new();
    for e in entries {
        let name = e.name.as_str();
        if e.flags & 1 != 0 {
            return Err(invalid(label, name, "encrypted", "it is encrypted"));
        }
        if e.compressed == u64::from(u32::MAX)
            || e.size == u64::from(u32::MAX)
            || e.offset == u64::from(u32::MAX)
        {
            return Err(invalid(
                label,
                name,
                "zip64",
                "its sizes are in a zip64 field; a skill needs no zip64",
            ));
        }
        let kind = e.unix_mode.map(|m| m & 0o170000).unwrap_or(0);
        match kind {
            0o120000 => {
                return Err(unsafe_(
                    label,
                    name,
                    "symlink",
                    "it is a symbolic link; a skill archive holds regular files only",
                ))
            }
            0o020000 | 0o060000 => {
                return Err(unsafe_(
                    label,
                    name,
                    "device",
                    "it is a device file; a skill archive holds regular files only",
                ))
            }
            0o010000 | 0o140000 => {
                return Err(unsafe_(
                    label,
                    name,
                    "fifo",
                    "it is a FIFO or socket; a skill archive holds regular files only",
                ))
            }
            _ => {}
        }
        let directory =
            name.ends_with('/') || kind == 0o040000 || (e.unix_mode.is_none() && e.dos_directory);
        if directory {
            if e.size != 0 {
                return Err(invalid(
                    label,
                    name,
                    "unsupported",
                    "a directory entry has data",
                ));
            }
            c.directory(name)?;
            continue;
        }
        let path = c.announce(name, e.size)?;
        // The local header: its name must be the central directory's.
        let lh = usize::try_from(e.offset).unwrap_or(usize::MAX);
        if le32(zip, lh) != Some(0x0403_4b50) {
            return Err(invalid(
                label,
                name,
                "truncated",
                "its local header is missing",
            ));
        }
        let (lname, lextra) = match (le16(zip, lh + 26), le16(zip, lh + 28)) {
            (Some(n), Some(x)) => (usize::from(n), usize::from(x)),
            _ => {
                return Err(invalid(
                    label,
                    name,
                    "truncated",
                    "its local header is cut short",
                ))
            }
        };
        if zip.get(lh + 30..lh + 30 + lname) != Some(e.name.as_bytes()) {
            return Err(unsafe_(label, name, "name-mismatch", "its local header names another file than the central directory; readers disagree on its name"));
        }
        if second_name(zip.get(lh + 30 + lname..lh + 30 + lname + lextra)) {
            return Err(second_name_refused(label, name));
        }
        let start = lh + 30 + lname + lextra;
        let end = u64::try_from(start)
            .unwrap_or(u64::MAX)
            .saturating_add(e.compressed);
        if end > u64::from(cd_offset) {
            return Err(invalid(
                label,
                name,
                "truncated",
                "its data runs past the central directory",
            ));
        }
        spans.push((e.offset, end, e.name.clone()));
        let data = zip.get(start..end as usize).unwrap_or_default();
        let bytes = match e.method {
            0 => {
                if e.compressed != e.size {
                    return Err(invalid(
                        label,
                        name,
                        "unsupported",
                        "a stored member's two sizes differ",
                    ));
                }
                data.to_vec()
            }
            8 => {
                if e.size > bound.saturating_sub(inflated) {
                    return Err(bound_error(label, name, bound));
                }
                let over = || {
                    invalid(
                        label,
                        name,
                        "crc",
                        "it inflates to more than its declared size",
                    )
                };
                inflate(data, e.size, label, name, over)?.0
            }
            m => {
                return Err(invalid(
                    label,
                    name,
                    "unsupported",
                    format!("compression method {m} is not stored (0) or deflate (8)"),
                ))
            }
        };
        inflated += bytes.len() as u64;
        if bytes.len() as u64 != e.size || !sums_match(crc32(&bytes) == e.crc) {
            return Err(invalid(
                label,
                name,
                "crc",
                "its CRC-32 or size does not match the central directory",
            ));
        }
        c.add(path, bytes);
    }
    spans.sort();
    for pair in spans.windows(2) {
        if let [a, b] = pair {
            if b.0 < a.1 {
                return Err(unsafe_(
                    label,
                    &b.2,
                    "overlap",
                    format!(
                        "its data overlaps the data of {:?}; refused as a zip bomb",
                        a.2
                    ),
                ));
            }
        }
    }
    c.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detect_prefers_the_content_type() {
        assert_eq!(
            ArchiveFormat::detect(Some("application/zip"), "https://x/a.tar.gz"),
            Some(ArchiveFormat::Zip)
        );
        assert_eq!(
            ArchiveFormat::detect(Some("Application/GZIP; q=1"), "https://x/a"),
            Some(ArchiveFormat::TarGz)
        );
        assert_eq!(
            ArchiveFormat::detect(None, "https://x/a.TGZ"),
            Some(ArchiveFormat::TarGz)
        );
        assert_eq!(
            ArchiveFormat::detect(Some("text/plain"), "https://x/a.zip#f"),
            Some(ArchiveFormat::Zip)
        );
        assert_eq!(
            ArchiveFormat::detect(Some("text/plain"), "https://x/a.md"),
            None
        );
    }

    #[test]
    fn octal_fields() {
        assert_eq!(octal(b"0000644\0", 0, 8), Some(0o644));
        assert_eq!(octal(b"  17 \0\0\0", 0, 8), Some(0o17));
        assert_eq!(octal(b"\0\0\0\0\0\0\0\0", 0, 8), None);
        assert_eq!(octal(b"\x80\0\0\0\0\0\0\x01", 0, 8), None);
        assert_eq!(octal(b"12 3\0\0\0\0", 0, 8), None);
    }
}
