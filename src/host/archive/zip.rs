//! The zip reader of [`super`]: stored and deflate members, read as Python's `zipfile`,
//! Info-ZIP's `unzip` and bsdtar extract them (from the central directory) and as a streaming
//! reader would (walking the local headers from the first byte), or refused.
//!
//! * **The end record** is the last end-of-central-directory record whose comment runs to the
//!   end of the file, or to zeros that run to the end (bsdtar pads a zip written to a pipe;
//!   every reader searches back past them). No end record signature may follow its first byte,
//!   in its fields or comment (`zipfile` and `unzip` take the last signature they find), no
//!   zip64 locator may precede it (`zipfile` and `unzip` would follow it to another central
//!   directory), and the central directory must end where it begins (`trailing-data`: bytes
//!   prepended or hidden after it).
//! * **Headers.** The general-purpose flags are bits 1, 2, 3 and 11 at most, the version
//!   needed to extract at most 4.5, the extra fields filled exactly by their blocks, and the
//!   upper 16 bits of the external attributes, whatever the "made by" system, give no file type
//!   but a regular file or a directory (`unzip` makes a link from them for systems besides
//!   Unix).
//! * **The central directory** is the list of members; its entries fill it exactly
//!   (`unlisted-data`).
//! * **The local walk.** In offset order, the members tile the bytes before the central
//!   directory: the first local header at offset 0, each next one where the previous member's
//!   data (and data descriptor) ends, the last ending where the central directory begins. Bytes
//!   that belong to no member are refused (`unlisted-data`), shared bytes too (`overlap`, which
//!   also stops zip bombs made of overlapping members). A deflate stream must end exactly at
//!   the member's compressed size: a streaming reader takes the next header where the stream
//!   ends.
//! * **Local and central agree.** Each local header has its central record's name
//!   (`name-mismatch`), flags, method, CRC-32 and sizes (`field-mismatch`). With a data
//!   descriptor (flag bit 3) the local CRC-32 and sizes may be zero, and the descriptor that
//!   follows the data (with or without its signature) must hold the central values; a stored
//!   member with a data descriptor needs the signature, and none inside its data (a streaming
//!   reader finds the end of stored data by that signature; `unsupported` otherwise). Neither header may carry an Info-ZIP Unicode Path extra field, a second name
//!   that `unzip`, 7-Zip and `zipfile` (3.12 and later) extract instead (`name-mismatch`).
//! * **Directories** end in `/` and have no data (an empty deflate stream at most, as
//!   `zipfile` writes a directory added with deflate); an entry whose attributes say directory but
//!   whose name does not end in `/` is refused (`zipfile` extracts it as a file).

use super::{
    bound_error, crc32, inflate, invalid, le16, le32, limit, name_text, sums_match, unsafe_,
    Collector, Member, Result, VerifyError, MAX_INFLATED_BYTES,
};
use crate::skill::limits::MAX_FILES_PER_SKILL;

const LOCAL: u32 = 0x0403_4b50;
const CENTRAL: u32 = 0x0201_4b50;
const END: u32 = 0x0605_4b50;
const END64_LOCATOR: u32 = 0x0706_4b50;
const DESCRIPTOR: u32 = 0x0807_4b50;

/// Flag bit 0: encrypted.
const ENCRYPTED: u16 = 1;
/// Flag bit 3: the CRC-32 and sizes follow the data, in a data descriptor.
const DATA_DESCRIPTOR: u16 = 8;

/// Checks a header's extra field: its blocks, walked as APPNOTE 4.5 lays them out (id, size,
/// data), must fill it exactly (bsdtar refuses a block cut short, the others skip it), and
/// none may be an Info-ZIP Unicode Path block (id 0x7075): a second name that Info-ZIP's
/// unzip, 7-Zip and Python's `zipfile` (3.12 and later) put in place of the header's, so the
/// name every check here read would not be the name extracted.
fn check_extra(label: &str, member: &str, extra: Option<&[u8]>) -> Result<()> {
    let mut rest =
        extra.ok_or_else(|| invalid(label, member, "truncated", "its extra field is cut short"))?;
    while !rest.is_empty() {
        let (Some(id), Some(len)) = (le16(rest, 0), le16(rest, 2)) else {
            return Err(extra_cut(label, member));
        };
        if id == 0x7075 {
            return Err(unsafe_(
                label,
                member,
                "name-mismatch",
                "it carries a second name (an Info-ZIP Unicode Path extra field) that some \
                 readers extract instead; readers disagree on its name",
            ));
        }
        rest = rest
            .get(4 + usize::from(len)..)
            .ok_or_else(|| extra_cut(label, member))?;
    }
    Ok(())
}

fn extra_cut(label: &str, member: &str) -> VerifyError {
    invalid(
        label,
        member,
        "bad-header",
        "its extra field ends inside a block; bsdtar refuses it where other readers skip it",
    )
}

/// The general-purpose flag bits this reader accepts: 1 and 2 (deflate options), 3 (data
/// descriptor) and 11 (UTF-8 names). Bit 0 (encryption) has its own refusal; the others
/// (patched data, strong encryption, an encrypted central directory, reserved bits) make
/// `zipfile` or `unzip` refuse or read the member their own way.
const KNOWN_FLAGS: u16 = 0b0000_1000_0000_1111;

/// The highest "version needed to extract" accepted: 4.5 (zip64, which this reader refuses
/// anyway). `unzip` 6.0 skips a member that needs more, `zipfile` refuses above 6.3.
const MAX_VERSION_NEEDED: u16 = 45;

/// One central directory entry, as far as this reader needs it.
struct ZipEntry {
    name: String,
    method: u16,
    flags: u16,
    crc: u32,
    compressed: u32,
    size: u32,
    offset: u32,
    unix_mode: Option<u32>,
    /// The upper 16 bits of the external attributes, whatever system made the archive:
    /// `unzip` applies a Unix file type from them for several systems besides Unix.
    upper_mode: u32,
    dos_directory: bool,
}

/// Reads a zip archive (stored and deflate members) into its files, in the order of their
/// data, with the checks of the module documentation and of [`super`].
pub fn read_zip(zip: &[u8], label: &str) -> Result<Vec<Member>> {
    let bad = |token: &str, what: &str| invalid(label, "", token, what.to_owned());
    // The end-of-central-directory record: the last signature whose comment ends the file,
    // or is followed by zeros only (bsdtar pads a zip it writes to a pipe to a whole block;
    // every reader searches back past them).
    let zeros_from = zip.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
    let min = zip.len().saturating_sub(22 + 0xffff);
    let eocd = (min..=zip.len().saturating_sub(22))
        .rev()
        .find(|&i| {
            le32(zip, i) == Some(END)
                && le16(zip, i + 20)
                    .map(|c| i + 22 + usize::from(c))
                    .is_some_and(|end| end <= zip.len() && end >= zeros_from)
        })
        .ok_or_else(|| bad("truncated", "there is no end-of-central-directory record; it is not a zip file or it is truncated"))?;
    // Any signature after this one's first byte (in its own fields or its comment) is an end
    // record for readers that search backwards from the end and take the first they find.
    let after = zip.get(eocd + 1..).unwrap_or_default();
    if after.windows(4).any(|w| w == END.to_le_bytes()) {
        return Err(bad("trailing-data", "an end-of-central-directory signature lies inside the end record or its comment; readers that take the last signature read another archive"));
    }
    if eocd >= 20 && le32(zip, eocd - 20) == Some(END64_LOCATOR) {
        return Err(bad(
            "zip64",
            "a zip64 end locator precedes the end record; a skill (at most 16 MiB and 512 files) needs no zip64",
        ));
    }
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
        if le32(zip, at) != Some(CENTRAL) {
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
        check_extra(
            label,
            &name,
            zip.get(at + 46 + name_len..at + 46 + name_len + extra_len),
        )?;
        let made_by_unix = f16(4) >> 8 == 3;
        if f16(6) > MAX_VERSION_NEEDED {
            return Err(invalid(
                label,
                &name,
                "unsupported",
                format!("it needs zip version {} to extract; unzip skips a member above 4.6 and zipfile refuses above 6.3", f16(6)),
            ));
        }
        let external = f32(38);
        entries.push(ZipEntry {
            name,
            method: f16(10),
            flags: f16(8),
            crc: f32(16),
            compressed: f32(20),
            size: f32(24),
            offset: f32(42),
            unix_mode: made_by_unix.then_some(external >> 16),
            upper_mode: external >> 16,
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
    if at != eocd {
        return Err(bad(
            "unlisted-data",
            "the central directory has bytes after its last entry that belong to no entry",
        ));
    }
    entries.sort_by_key(|e| e.offset);
    let mut c = Collector::new(label);
    let bound = MAX_INFLATED_BYTES;
    let mut inflated = 0u64;
    // Where the next local header must begin: the walk's position.
    let mut expected = 0usize;
    for e in &entries {
        let next = member(
            zip,
            label,
            &mut c,
            e,
            expected,
            cd_offset as usize,
            |size| {
                if u64::from(size) > bound.saturating_sub(inflated) {
                    return Err(bound_error(label, &e.name));
                }
                inflated += u64::from(size);
                Ok(())
            },
        )?;
        expected = next;
    }
    if expected != cd_offset as usize {
        return Err(bad(
            "unlisted-data",
            "bytes between the last member and the central directory belong to no member; a streaming reader may read them as more members",
        ));
    }
    c.finish()
}

/// Reads the member `e` whose local header must begin at `expected`, before `cd_offset`:
/// checks it, adds a file to `c` (`reserve` is told each inflated size first), and returns
/// where the next local header must begin.
fn member(
    zip: &[u8],
    label: &str,
    c: &mut Collector<'_>,
    e: &ZipEntry,
    expected: usize,
    cd_offset: usize,
    mut reserve: impl FnMut(u32) -> Result<()>,
) -> Result<usize> {
    let name = e.name.as_str();
    if e.flags & ENCRYPTED != 0 {
        return Err(invalid(label, name, "encrypted", "it is encrypted"));
    }
    if e.flags & !KNOWN_FLAGS != 0 {
        return Err(invalid(
            label,
            name,
            "unsupported",
            format!(
                "it sets general-purpose flags {:#06x}; readers refuse or apply them differently",
                e.flags & !KNOWN_FLAGS
            ),
        ));
    }
    if e.compressed == u32::MAX || e.size == u32::MAX || e.offset == u32::MAX {
        return Err(invalid(
            label,
            name,
            "zip64",
            "its sizes are in a zip64 field; a skill needs no zip64",
        ));
    }
    // The file type of the upper attribute bits, whatever the "made by" system says.
    let kind = e.upper_mode & 0o170000;
    let regular_only = |token: &str, what: &str| {
        unsafe_(
            label,
            name,
            token,
            format!("it is {what}; a skill archive holds regular files only"),
        )
    };
    match kind {
        0o120000 => return Err(regular_only("symlink", "a symbolic link")),
        0o020000 | 0o060000 => return Err(regular_only("device", "a device file")),
        0o010000 | 0o140000 => return Err(regular_only("fifo", "a FIFO or socket")),
        0 | 0o100000 | 0o040000 => {}
        other => {
            return Err(invalid(
                label,
                name,
                "unsupported",
                format!("its attributes give the unknown file type {other:#o}"),
            ))
        }
    }
    let directory = name.ends_with('/');
    if !directory && (kind == 0o040000 || (e.unix_mode.is_none() && e.dos_directory)) {
        return Err(invalid(
            label,
            name,
            "unsupported",
            "its attributes say directory but its name does not end in `/`; readers disagree on whether it is a file",
        ));
    }
    // The walk: this member's local header is where the previous one ended.
    let lh = e.offset as usize;
    if lh != expected {
        return Err(if lh < expected {
            unsafe_(
                label,
                name,
                "overlap",
                "its local header lies inside the previous member; refused as a zip bomb",
            )
        } else {
            invalid(
                label,
                name,
                "unlisted-data",
                format!(
                    "{} bytes before its local header belong to no member; a streaming reader may read them as more members",
                    lh - expected
                ),
            )
        });
    }
    if le32(zip, lh) != Some(LOCAL) {
        return Err(invalid(
            label,
            name,
            "truncated",
            "its local header is missing",
        ));
    }
    let l16 = |o| le16(zip, lh + o);
    let l32 = |o| le32(zip, lh + o);
    let (
        Some(flags),
        Some(method),
        Some(crc),
        Some(compressed),
        Some(size),
        Some(lname),
        Some(lextra),
    ) = (l16(6), l16(8), l32(14), l32(18), l32(22), l16(26), l16(28))
    else {
        return Err(invalid(
            label,
            name,
            "truncated",
            "its local header is cut short",
        ));
    };
    let (lname, lextra) = (usize::from(lname), usize::from(lextra));
    if zip.get(lh + 30..lh + 30 + lname) != Some(e.name.as_bytes()) {
        return Err(unsafe_(label, name, "name-mismatch", "its local header names another file than the central directory; readers disagree on its name"));
    }
    check_extra(
        label,
        name,
        zip.get(lh + 30 + lname..lh + 30 + lname + lextra),
    )?;
    if l16(4).unwrap_or(0) > MAX_VERSION_NEEDED {
        return Err(invalid(
            label,
            name,
            "unsupported",
            "its local header needs a zip version above 4.5 to extract",
        ));
    }
    let described = e.flags & DATA_DESCRIPTOR != 0;
    let agrees = |local: u32, central: u32| local == central || (described && local == 0);
    let differs = if flags != e.flags {
        Some("flags")
    } else if method != e.method {
        Some("compression method")
    } else if !agrees(crc, e.crc) {
        Some("CRC-32")
    } else if !agrees(compressed, e.compressed) {
        Some("compressed size")
    } else if !agrees(size, e.size) {
        Some("size")
    } else {
        None
    };
    if let Some(what) = differs {
        return Err(unsafe_(
            label,
            name,
            "field-mismatch",
            format!("its local header's {what} differs from the central directory's; readers that walk the local headers read another member"),
        ));
    }
    let start = lh + 30 + lname + lextra;
    let end = start.saturating_add(e.compressed as usize);
    if end > cd_offset {
        return Err(invalid(
            label,
            name,
            "truncated",
            "its data runs past the central directory",
        ));
    }
    let data = zip.get(start..end).unwrap_or_default();
    if directory {
        // Python's zipfile deflates a directory written with deflate: an empty stream.
        let empty = |d: &[u8]| -> bool {
            let none = || invalid(label, name, "unsupported", "");
            e.method == 8
                && inflate(d, 0, label, name, none)
                    .is_ok_and(|(b, used)| b.is_empty() && used == d.len())
        };
        if e.size != 0 || (e.compressed != 0 && !empty(data)) {
            return Err(invalid(
                label,
                name,
                "unsupported",
                "a directory entry has data",
            ));
        }
        c.directory(name)?;
    } else {
        let path = c.announce(name, u64::from(e.size))?;
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
                // A streaming reader finds the end of stored data by the descriptor's signature.
                let signed = le32(zip, end) == Some(DESCRIPTOR);
                if described && (!signed || data.windows(4).any(|w| w == DESCRIPTOR.to_le_bytes()))
                {
                    return Err(invalid(
                        label,
                        name,
                        "unsupported",
                        "a stored member has a data descriptor without its signature or with the signature inside its data; a streaming reader cannot find where its data ends",
                    ));
                }
                data.to_vec()
            }
            8 => {
                reserve(e.size)?;
                let over = || {
                    invalid(
                        label,
                        name,
                        "crc",
                        "it inflates to more than its declared size",
                    )
                };
                let (bytes, used) = inflate(data, u64::from(e.size), label, name, over)?;
                if used != data.len() {
                    return Err(invalid(
                        label,
                        name,
                        "unlisted-data",
                        format!(
                            "its deflate stream ends {} bytes before its compressed size; a streaming reader reads those bytes as the next member",
                            data.len().saturating_sub(used)
                        ),
                    ));
                }
                bytes
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
        if bytes.len() as u64 != u64::from(e.size) || !sums_match(crc32(&bytes) == e.crc) {
            return Err(invalid(
                label,
                name,
                "crc",
                "its CRC-32 or size does not match the central directory",
            ));
        }
        c.add(path, bytes);
    }
    if !described {
        return Ok(end);
    }
    // The data descriptor: CRC-32, compressed size, size, after an optional signature. Four
    // bytes equal to the signature are the signature (as a streaming reader takes them), even
    // where they could be a CRC-32.
    let d = |o: usize| le32(zip, end + o);
    let values = [Some(e.crc), Some(e.compressed), Some(e.size)];
    let signed = d(0) == Some(DESCRIPTOR);
    let next = if signed && [d(4), d(8), d(12)] == values {
        end + 16
    } else if !signed && [d(0), d(4), d(8)] == values {
        end + 12
    } else {
        return Err(unsafe_(
            label,
            name,
            "field-mismatch",
            "its data descriptor is missing or differs from the central directory",
        ));
    };
    if next > cd_offset {
        return Err(invalid(
            label,
            name,
            "truncated",
            "its data descriptor runs past the central directory",
        ));
    }
    Ok(next)
}
