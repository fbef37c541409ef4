//! The tar reader of [`super`]: ustar, pax and GNU tar, read as GNU tar, bsdtar and Python's
//! `tarfile` extract them, or refused.
//!
//! **Extended headers.** A pax `x` header and a GNU long name (`L`) describe the entry that
//! follows them. The readers above hold one until the next header that is not itself an
//! extended header, and when two come before one entry each combines them its own way: after a
//! long name then a pax `path`, GNU tar takes the `path` and bsdtar and `tarfile` the long name;
//! after two long names or two pax headers, `tarfile` takes the first and GNU tar the second. So:
//! * an extended header directly after another one is refused (`header-order`), and a member
//!   given both a pax `path` and a long name is refused by name (`name-mismatch`); an extended
//!   header at the end of the archive is refused (`truncated`);
//! * a pax header may carry `path`, `size` and the records that change no file's name, size,
//!   type or bytes, each once, in the exact record syntax
//!   (`<decimal length> <key>=<value>\n`, nothing after the last record): times (`atime`,
//!   `ctime`, `mtime`, `LIBARCHIVE.creationtime`: `-?digits(.digits)?`), owners (`uid`, `gid`
//!   as decimals, `uname`, `gname` as UTF-8), `comment`, what bsdtar and GNU tar record about
//!   the source file (`SCHILY.dev`, `SCHILY.ino`, `SCHILY.nlink`) and extended attributes
//!   (`SCHILY.xattr.*`, `LIBARCHIVE.xattr.*`: macOS's tar writes them); any other record is
//!   refused (`unsupported`): `GNU.sparse.*` makes GNU tar and `tarfile` rebuild another file,
//!   `linkpath` belongs to links, `hdrcharset` changes how `tarfile` decodes names;
//! * a pax global header (`g`) applies to every later entry, so it may carry only those inert
//!   records (not `path`, not `size`); it describes no single entry, so it may be followed by
//!   an `x` or `L` header, not follow one;
//! * a GNU long link name (`K`) is refused: a skill has no links;
//! * the padding of an `x`, `g` or `L` header's block after its size must be all NUL
//!   (`tarfile` parses the whole padded block of a pax header), and a long name must end in a
//!   NUL within its size (GNU tar and `tarfile` read it to the first NUL of the block);
//! * pax times lie within 8^11 seconds of 1970 and owners within 32 bits (GNU tar fails on
//!   larger ones, `tarfile` cannot set them).
//!
//! **Headers.** The checksum must add up (unsigned or signed, as every reader accepts). Every
//! numeric field (mode, uid, gid, size, mtime, device numbers) must be an octal number, or
//! empty (all NUL) except the size: `tarfile` stops at the first header it cannot parse as if
//! the archive ended there, where GNU tar warns and reads on. The ustar prefix (bytes 345 to
//! 500) must be empty unless the magic is POSIX `ustar\0` `00`, and all NUL after the prefix,
//! an empty one too (`tarfile` joins the prefix whatever the magic, GNU tar only under that
//! magic, and takes a star header's shorter prefix when the padding looks like star's time
//! fields; bsdtar takes an old GNU header's "real size" at byte 483); a name from an extended
//! header replaces the header's name and prefix (all three readers agree). A directory has no
//! data (size 0: `tarfile` skips no data after a directory, GNU tar skips its size). An
//! old-style entry (type NUL) is a directory when its name ends in `/`, but `tarfile` decides that
//! from the header's own name and the others from the full name, so one whose own or full name ends
//! in `/` is refused when an extended name or a prefix sets its name. The end is the first zero
//! block; anything but zeros after it is refused (`trailing-data`).

use super::{
    invalid, limit, name_text, sums_match, unsafe_, Collector, Member, Result, MAX_TAR_RECORD,
};
use std::collections::BTreeSet;

const BLOCK: usize = 512;

/// The prefixes of the inert extended-attribute records (GNU tar's and bsdtar's; macOS's tar
/// writes them for every file).
const INERT_PREFIXES: [&str; 2] = ["SCHILY.xattr.", "LIBARCHIVE.xattr."];

/// A NUL-terminated header field.
fn field(h: &[u8], at: usize, len: usize) -> &[u8] {
    let f = h.get(at..at + len).unwrap_or_default();
    let end = f.iter().position(|&b| b == 0).unwrap_or(f.len());
    f.get(..end).unwrap_or_default()
}

/// An octal header number (leading blanks, digits, then NUL or blanks); `None` when it is not
/// one (base-256 numbers included: they only serve values beyond every limit here).
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

fn digits(v: &[u8]) -> bool {
    !v.is_empty() && v.iter().all(u8::is_ascii_digit)
}

/// The largest pax time accepted, in seconds either side of 1970: the largest a ustar header's
/// 11 octal digits hold. GNU tar refuses a time beyond its `time_t` and `tarfile` fails to set
/// one beyond the platform's, so the bound stays far inside both.
const MAX_PAX_SECONDS: u64 = 0o77777777777;

/// Whether `v` is a decimal number (digits only) no larger than `max`.
fn decimal_at_most(v: &[u8], max: u64) -> bool {
    digits(v)
        && std::str::from_utf8(v)
            .ok()
            .and_then(|t| t.parse::<u64>().ok())
            .is_some_and(|n| n <= max)
}

/// Whether `v` is a pax time: `-?digits(.digits)?`, at most [`MAX_PAX_SECONDS`] either side.
fn pax_time(v: &[u8]) -> bool {
    let v = v.strip_prefix(b"-").unwrap_or(v);
    match v.iter().position(|&b| b == b'.') {
        Some(dot) => {
            decimal_at_most(v.get(..dot).unwrap_or_default(), MAX_PAX_SECONDS)
                && digits(v.get(dot + 1..).unwrap_or_default())
        }
        None => decimal_at_most(v, MAX_PAX_SECONDS),
    }
}

/// What a pax header says of the entry that follows it.
#[derive(Default)]
struct Pax {
    path: Option<String>,
    size: Option<u64>,
}

/// Parses the records of a pax header (`x`, or `g` when `global`), with the rules of the module
/// documentation; `member` (the header's own name) names it in errors.
fn pax(label: &str, member: &str, data: &[u8], global: bool) -> Result<Pax> {
    let bad = |what: &str| {
        invalid(
            label,
            member,
            "bad-header",
            format!("a pax extended header is malformed: {what}"),
        )
    };
    let mut out = Pax::default();
    let mut seen: BTreeSet<&[u8]> = BTreeSet::new();
    let mut rest = data;
    while !rest.is_empty() {
        let sp = rest
            .iter()
            .position(|&b| b == b' ')
            .ok_or_else(|| bad("a record has no length"))?;
        let len_text = rest.get(..sp).unwrap_or_default();
        let len = std::str::from_utf8(len_text)
            .ok()
            .filter(|t| digits(t.as_bytes()))
            .and_then(|t| t.parse::<usize>().ok())
            .ok_or_else(|| bad("a record's length is not a decimal number"))?;
        let record = rest
            .get(..len)
            .filter(|r| r.len() > sp + 1 && r.last() == Some(&b'\n'))
            .ok_or_else(|| bad("a record's length does not end it at a newline"))?;
        let kv = record.get(sp + 1..len - 1).unwrap_or_default();
        let eq = kv
            .iter()
            .position(|&b| b == b'=')
            .ok_or_else(|| bad("a record has no `=`"))?;
        let (key, value) = (
            kv.get(..eq).unwrap_or_default(),
            kv.get(eq + 1..).unwrap_or_default(),
        );
        let key_text = String::from_utf8_lossy(key);
        if !seen.insert(key) {
            return Err(unsafe_(
                label,
                member,
                "name-mismatch",
                format!("the pax record {key_text:?} is given twice; readers disagree on which one counts"),
            ));
        }
        let ok = match key {
            b"path" if !global => {
                if value.is_empty() {
                    return Err(bad(
                        "`path` is empty (an empty record cancels a global one)",
                    ));
                }
                out.path = Some(name_text(label, value)?);
                true
            }
            b"size" if !global => {
                out.size = Some(
                    std::str::from_utf8(value)
                        .ok()
                        .filter(|v| digits(v.as_bytes()))
                        .and_then(|v| v.parse().ok())
                        .ok_or_else(|| bad("`size` is not a decimal number"))?,
                );
                true
            }
            b"atime" | b"ctime" | b"mtime" | b"LIBARCHIVE.creationtime" => pax_time(value),
            // GNU tar refuses an owner beyond its 32-bit `uid_t` and a number beyond 64 bits.
            b"uid" | b"gid" => decimal_at_most(value, u64::from(u32::MAX)),
            b"SCHILY.dev" | b"SCHILY.ino" | b"SCHILY.nlink" => {
                decimal_at_most(value, i64::MAX as u64)
            }
            b"uname" | b"gname" | b"comment" => std::str::from_utf8(value).is_ok(),
            _ if INERT_PREFIXES.iter().any(|p| key.starts_with(p.as_bytes())) => true,
            _ => {
                let why = if global && (key == b"path" || key == b"size") {
                    "a global header would set it for every entry"
                } else {
                    "it may change what an extractor writes, and this reader does not apply it"
                };
                return Err(invalid(
                    label,
                    member,
                    "unsupported",
                    format!("the pax record {key_text:?} is refused: {why}"),
                ));
            }
        };
        if !ok {
            return Err(bad(&format!(
                "the value of {key_text:?} is not well formed"
            )));
        }
        rest = rest.get(len..).unwrap_or_default();
    }
    Ok(out)
}

/// The numeric header fields besides the size and the checksum: mode, uid, gid, mtime and the
/// device numbers, as (offset, length, name).
const NUMBERS: [(usize, usize, &str); 6] = [
    (100, 8, "mode"),
    (108, 8, "uid"),
    (116, 8, "gid"),
    (136, 12, "mtime"),
    (329, 8, "device major"),
    (337, 8, "device minor"),
];

/// An extended header waiting for its entry: its type, and the path and size it gives.
struct Pending {
    kind: u8,
    path: Option<String>,
    size: Option<u64>,
}

/// Reads a tar stream (ustar, pax and GNU long names) into its files, with the checks of the
/// module documentation and of [`super`].
pub fn read_tar(tar: &[u8], label: &str) -> Result<Vec<Member>> {
    let mut c = Collector::new(label);
    let mut at = 0usize;
    let mut pending: Option<Pending> = None;
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
            if pending.is_some() {
                return Err(invalid(
                    label,
                    "",
                    "truncated",
                    "an extended header is not followed by a member",
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
        for (off, len, what) in NUMBERS {
            let f = h.get(off..off + len).unwrap_or_default();
            if !f.iter().all(|&b| b == 0) && octal(h, off, len).is_none() {
                return Err(invalid(
                    label,
                    &raw_name,
                    "bad-header",
                    format!("the {what} field is not an octal number; some readers stop at this header, others read on"),
                ));
            }
        }
        let header_size = octal(h, 124, 12).ok_or_else(|| {
            limit(
                label,
                &raw_name,
                "header-size",
                "the size field is not an octal number (a base-256 size is beyond every limit)",
            )
        })?;
        let prefix_field = h.get(345..500).unwrap_or_default();
        let prefix = field(h, 345, 155);
        // All of bytes 345 to 500 after the prefix, even an empty one: under GNU magic they
        // hold times and a "real size" that bsdtar applies to the file.
        let padded = prefix_field
            .get(prefix.len()..)
            .unwrap_or_default()
            .iter()
            .all(|&b| b == 0);
        let posix = h.get(257..265) == Some(&b"ustar\x0000"[..]);
        if !padded || !(prefix.is_empty() || posix) {
            return Err(invalid(
                label,
                &raw_name,
                "bad-header",
                "bytes 345 to 500 are not empty or a NUL-padded POSIX ustar name prefix; readers disagree on whether they are part of the name or the size",
            ));
        }
        let kind = h.get(156).copied().unwrap_or(0);
        let data_at = at + BLOCK;
        let data = |len: u64, name: &str| -> Result<&[u8]> {
            let end = usize::try_from(len)
                .ok()
                .and_then(|l| data_at.checked_add(l));
            end.and_then(|e| tar.get(data_at..e)).ok_or_else(|| {
                invalid(
                    label,
                    name,
                    "truncated",
                    "the member's data is cut short; the archive is truncated",
                )
            })
        };
        let mut size = header_size;
        match kind {
            b'x' | b'g' | b'L' | b'K' => {
                if header_size > MAX_TAR_RECORD {
                    return Err(limit(
                        label,
                        &raw_name,
                        "header-size",
                        format!(
                            "an extended header of {header_size} bytes is larger than {MAX_TAR_RECORD}"
                        ),
                    ));
                }
                let record = data(header_size, &raw_name)?;
                // `tarfile` parses a pax header's whole padded block, and GNU tar and
                // `tarfile` read a long name up to the first NUL of its block: the padding
                // must say nothing.
                let block_end = usize::try_from(header_size.div_ceil(BLOCK as u64))
                    .unwrap_or(usize::MAX)
                    .saturating_mul(BLOCK);
                let padding = tar
                    .get(data_at + record.len()..data_at.saturating_add(block_end))
                    .unwrap_or_default();
                if padding.iter().any(|&b| b != 0) {
                    return Err(invalid(
                        label,
                        &raw_name,
                        "bad-header",
                        "an extended header's block padding is not all NUL; some readers read it as more records or more of the name",
                    ));
                }
                let (path, ext_size) = match kind {
                    b'K' => {
                        return Err(invalid(
                            label,
                            &raw_name,
                            "unsupported",
                            "a GNU long link name (type K) names a link's target; a skill archive has no links",
                        ))
                    }
                    b'L' => {
                        if !record.contains(&0) {
                            return Err(invalid(
                                label,
                                &raw_name,
                                "bad-name",
                                "a GNU long name does not end in NUL within its size; GNU tar and tarfile read on into its padding",
                            ));
                        }
                        let name = name_text(label, field(record, 0, record.len()))?;
                        if name.is_empty() {
                            return Err(invalid(
                                label,
                                &raw_name,
                                "bad-name",
                                "a GNU long name is empty",
                            ));
                        }
                        (Some(name), None)
                    }
                    _ => {
                        let p = pax(label, &raw_name, record, kind == b'g')?;
                        (p.path, p.size)
                    }
                };
                if let Some(before) = pending.take() {
                    let named_twice =
                        path.is_some() && before.path.is_some() && before.kind != kind;
                    return Err(if named_twice {
                        unsafe_(
                            label,
                            path.as_deref().unwrap_or_default(),
                            "name-mismatch",
                            format!(
                                "one member is given both a pax path and a GNU long name ({:?} and {:?}); readers disagree on which names it",
                                before.path.as_deref().unwrap_or_default(),
                                path.as_deref().unwrap_or_default()
                            ),
                        )
                    } else {
                        unsafe_(
                            label,
                            &raw_name,
                            "header-order",
                            format!(
                                "an extended header (type {}) follows another (type {}) before the member they describe; readers combine the two differently",
                                kind as char, before.kind as char
                            ),
                        )
                    });
                }
                if kind != b'g' {
                    pending = Some(Pending {
                        kind,
                        path,
                        size: ext_size,
                    });
                }
            }
            _ => {
                let ext = pending.take();
                let (ext_path, ext_size) = ext.map(|p| (p.path, p.size)).unwrap_or_default();
                if kind == 0 {
                    let final_slash = match &ext_path {
                        Some(p) => p.ends_with('/'),
                        None => raw_name.ends_with('/') || raw_name.is_empty(),
                    };
                    let renamed = ext_path.is_some() || !prefix.is_empty();
                    if (raw_name.ends_with('/') || final_slash) && renamed {
                        return Err(unsafe_(
                            label,
                            &raw_name,
                            "name-mismatch",
                            "an old-style (type NUL) entry is a directory by its name, and an extended name or a prefix changes that name; tarfile decides from the header's own name, the others from the full name",
                        ));
                    }
                }
                // An extended header's name replaces the header's name and prefix in every reader.
                let name = match ext_path {
                    Some(p) => p,
                    None if prefix.is_empty() => raw_name,
                    None => format!("{}/{raw_name}", name_text(label, prefix)?),
                };
                size = ext_size.unwrap_or(header_size);
                entry(&mut c, kind, &name, size, |len| data(len, &name))?;
            }
        }
        let padded = size.div_ceil(BLOCK as u64).saturating_mul(BLOCK as u64);
        at = u64::try_from(data_at)
            .unwrap_or(u64::MAX)
            .checked_add(padded)
            .and_then(|n| usize::try_from(n).ok())
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
    c.finish()
}

/// Reads one entry that is not an extended header: a file into `c`, a directory checked, any
/// other type refused.
fn entry<'t>(
    c: &mut Collector<'_>,
    kind: u8,
    name: &str,
    size: u64,
    data: impl Fn(u64) -> Result<&'t [u8]>,
) -> Result<()> {
    let label = c.label;
    let refused = |token: &str, what: &str| {
        unsafe_(
            label,
            name,
            token,
            format!("it is {what}; a skill archive holds regular files only"),
        )
    };
    let directory = kind == b'5' || (kind == 0 && name.ends_with('/'));
    match kind {
        _ if directory => {
            if size != 0 {
                return Err(invalid(
                    label,
                    name,
                    "unsupported",
                    "a directory entry has data; readers disagree on whether to skip it",
                ));
            }
            c.directory(name)
        }
        b'0' | 0 | b'7' => {
            let path = c.announce(name, size)?;
            let bytes = data(size)?.to_vec();
            c.add(path, bytes);
            Ok(())
        }
        b'1' => Err(refused("hardlink", "a hard link")),
        b'2' => Err(refused("symlink", "a symbolic link")),
        b'3' | b'4' => Err(refused("device", "a device file")),
        b'6' => Err(refused("fifo", "a FIFO")),
        other => Err(invalid(
            label,
            name,
            "unsupported",
            format!(
                "its entry type {:?} is not a file or a directory",
                other as char
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn octal_fields() {
        assert_eq!(octal(b"0000644\0", 0, 8), Some(0o644));
        assert_eq!(octal(b"  17 \0\0\0", 0, 8), Some(0o17));
        assert_eq!(octal(b"\0\0\0\0\0\0\0\0", 0, 8), None);
        assert_eq!(octal(b"\x80\0\0\0\0\0\0\x01", 0, 8), None);
        assert_eq!(octal(b"12 3\0\0\0\0", 0, 8), None);
    }

    #[test]
    fn pax_times() {
        assert!(pax_time(b"1700000000"));
        assert!(pax_time(b"-1.5"));
        assert!(!pax_time(b"1."));
        assert!(!pax_time(b"+1"));
        assert!(!pax_time(b""));
        assert!(pax_time(b"8589934591"));
        assert!(!pax_time(b"8589934592"));
        assert!(!pax_time(&[b'9'; 30]));
    }
}
