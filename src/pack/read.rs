//! The reader: a pack's prefix, header and tables, then each section, checked once.

use super::check::{sorted, strict_json, HeapCheck};
use super::format::*;
use super::record::Table;
use super::record::{get, record_len, Record};
use super::tables::*;
use super::{PackError, PackErrorKind, VERSION};

/// How much of a pack [`open`] checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Check {
    /// Everything: the SHA-256 of the whole pack, then every record, range, string, order and
    /// JSON fragment once (a pack from elsewhere: a user's file, bytes from storage). Costs
    /// time linear in the pack.
    Full,
    /// The shape only: magic, version, length, and where each table and section lies, each
    /// checked to fit (a pack the deployment vouches for: the one `build.rs` embeds, the
    /// Worker's bundled pack). Costs time independent of the catalog's size; records are
    /// read, bounds-checked, when they are used, so a damaged record reads as absent, never a
    /// panic.
    Shape,
}

/// Checks magic, version, length and (for [`Check::Full`]) the checksum, in that order, so
/// each kind of damage is named: not a pack at all, a pack of another format version, a
/// truncated (or extended) pack, a corrupted one.
fn check_integrity(pack: &[u8], check: Check) -> Result<(), PackError> {
    let too_short = || {
        PackError::new(
            PackErrorKind::Corrupted,
            format!("truncated: {} bytes, too short for the header", pack.len()),
        )
    };
    // The first bytes of the magic and nothing after them: a pack cut short, not another file.
    if !pack.is_empty() && pack.len() < MAGIC.len() && MAGIC.starts_with(pack) {
        return Err(too_short());
    }
    if pack.len() < 8 || &pack[..8] != MAGIC {
        return Err(PackError::new(
            PackErrorKind::NotAPack,
            "it does not start with SKEDPACK: this is not a skills pack (make one with `skills-edge pack <dir> -o <file>`)",
        ));
    }
    let word = |at: usize| {
        pack.get(at..at + 4)
            .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
            .ok_or_else(too_short)
    };
    let version = word(8)?;
    if version != VERSION {
        return Err(PackError::new(
            PackErrorKind::OtherVersion,
            format!(
                "format version {version}; this build reads version {VERSION} only (rebuild the pack with this version of skills-edge)"
            ),
        ));
    }
    // Fuzzing builds only (`cargo fuzz` compiles with `--cfg fuzzing`; no other build sets it):
    // the length and the SHA-256 are not checked, so that mutated packs reach the structure
    // decoder instead of all stopping at the checksum. Magic and version still are.
    if cfg!(fuzzing) {
        return Ok(());
    }
    let total = word(12)? as usize;
    if pack.len() != total {
        let how = if pack.len() < total {
            "truncated"
        } else {
            "has trailing bytes"
        };
        return Err(PackError::new(
            PackErrorKind::Corrupted,
            format!(
                "{how}: {} bytes, the header says {total} (copy the whole file, in binary mode)",
                pack.len()
            ),
        ));
    }
    if total < PREFIX_LEN {
        return Err(too_short());
    }
    if check == Check::Shape {
        return Ok(());
    }
    let digest = crate::skill::digest::sha256(&pack[PREFIX_LEN..]);
    if digest[..] != pack[16..PREFIX_LEN] {
        return Err(PackError::new(
            PackErrorKind::Corrupted,
            "checksum mismatch: the pack is corrupted (rebuild it, and copy it in binary mode)",
        ));
    }
    Ok(())
}

/// The header's table lengths, each checked against the size of its records.
struct Counts {
    snapshot: u32,
    files: usize,
    skills: usize,
    dirs: usize,
    children: usize,
    mirror: usize,
    sections: usize,
}

impl Counts {
    /// Reads the header at `r` (just after the prefix).
    fn read(r: &mut Reader<'_>) -> Result<Counts, PackError> {
        let h: Header = r.record()?;
        let pack_len = r.b.len();
        let fits = |n: u32, rec: usize, what: &str| {
            let n = n as usize;
            if n.saturating_mul(rec) > pack_len {
                return Err(PackError::inconsistent(format!(
                    "{what} count {n} exceeds the pack size"
                )));
            }
            Ok(n)
        };
        Ok(Counts {
            snapshot: h.snapshot,
            files: fits(h.files, record_len::<FileRec>(), "file")?,
            skills: fits(h.skills, record_len::<SkillRec>(), "skill")?,
            dirs: fits(h.dirs, record_len::<DirRec>(), "directory")?,
            children: fits(h.children, record_len::<Span>(), "child")?,
            mirror: fits(h.mirror, record_len::<MirrorRec>(), "mirror")?,
            sections: fits(h.sections, record_len::<SectionRec>(), "section")?,
        })
    }

    /// Bytes from the end of the header to the table of sections.
    #[cfg(any(test, feature = "internals"))]
    fn before_sections(&self) -> usize {
        self.files * record_len::<FileRec>()
            + self.skills * record_len::<SkillRec>()
            + self.dirs * record_len::<DirRec>()
            + self.children * record_len::<Span>()
            + self.mirror * record_len::<MirrorRec>()
    }
}

/// Where the table of sections lies in a pack, as [`section_table`] finds it.
#[cfg(any(test, feature = "internals"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SectionTable {
    /// Offset of the header's section count (a little-endian `u32`).
    pub count_at: usize,
    /// Offset of the first section record.
    pub start: usize,
    /// Number of section records.
    pub count: usize,
    /// Length of one record: `tag`, then the payload's range (offset, length), three `u32`s;
    /// the tag is the first word.
    pub record_len: usize,
}

/// Finds the table of sections of `pack` with the reader [`crate::view::Catalog::from_bytes`] uses
/// (the same record layouts), without checking anything else: for tests and tools that
/// rewrite a pack's sections, then [`super::seal`] it again. `Err` when the header or the tables
/// before it do not fit in `pack`.
#[cfg(any(test, feature = "internals"))]
pub fn section_table(pack: &[u8]) -> Result<SectionTable, PackError> {
    let mut r = Reader {
        b: pack,
        pos: PREFIX_LEN,
    };
    let counts = Counts::read(&mut r)?;
    let start = r.pos + counts.before_sections();
    let record_len = record_len::<SectionRec>();
    if start.saturating_add(counts.sections.saturating_mul(record_len)) > pack.len() {
        return Err(PackError::inconsistent("truncated header or table"));
    }
    Ok(SectionTable {
        count_at: r.pos - 4,
        start,
        count: counts.sections,
        record_len,
    })
}

struct Reader<'a> {
    b: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn u32(&mut self) -> Result<u32, PackError> {
        let s = self
            .b
            .get(self.pos..self.pos + 4)
            .ok_or_else(|| PackError::inconsistent("truncated header or table"))?;
        self.pos += 4;
        Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
    }
    /// The next record.
    fn record<R: Record>(&mut self) -> Result<R, PackError> {
        let end = self.pos + record_len::<R>();
        let bytes = self
            .b
            .get(self.pos..end)
            .ok_or_else(|| PackError::inconsistent("truncated header or table"))?;
        self.pos = end;
        Ok(get(bytes))
    }
    /// The table of the next `n` records, read in place.
    fn table<R: Record>(&mut self, n: usize) -> Result<Table<R>, PackError> {
        let t = Table::new(self.pos, n);
        match t.end() {
            Some(end) if end <= self.b.len() => {
                self.pos = end;
                Ok(t)
            }
            _ => Err(PackError::inconsistent("truncated header or table")),
        }
    }
}

/// The payloads of the sections this reader knows, as the table of sections gives them.
#[derive(Default)]
pub(super) struct Found {
    pub(super) instructions: Option<Span>,
    pub(super) mirror_index: Option<Span>,
    pub(super) fallback: [Option<Span>; 7],
    pub(super) signatures: Option<Span>,
    pub(super) keys: Option<Span>,
    pub(super) access: [Option<Span>; 8],
    pub(super) assets: Option<Span>,
    pub(super) search: Option<Span>,
}

/// Reads the table of sections: each known tag's payload; an unknown tag is ignored unless
/// it is marked required.
fn read_sections(r: &mut Reader<'_>, n: usize) -> Result<Found, PackError> {
    let mut f = Found::default();
    for _ in 0..n {
        let SectionRec {
            tag,
            text: span,
            required,
        } = r.record()?;
        match tag {
            SECTION_INSTRUCTIONS => f.instructions = Some(span),
            SECTION_MIRROR_INDEX => f.mirror_index = Some(span),
            SECTION_ASSETS => f.assets = Some(span),
            SECTION_SIGNATURES => f.signatures = Some(span),
            SECTION_KEYS => f.keys = Some(span),
            SECTION_SEARCH => f.search = Some(span),
            t if ACCESS_SECTIONS.contains(&t) => {
                let slot = ACCESS_SECTIONS.iter().position(|&a| a == t).unwrap_or(0);
                if let Some(s) = f.access.get_mut(slot) {
                    *s = Some(span);
                }
            }
            t if FALLBACK_SECTIONS.contains(&t) => {
                let slot = FALLBACK_SECTIONS.iter().position(|&a| a == t).unwrap_or(0);
                if let Some(s) = f.fallback.get_mut(slot) {
                    *s = Some(span);
                }
            }
            t if required => {
                return Err(PackError::new(
                    PackErrorKind::OtherVersion,
                    format!(
                        "section {t} is required to serve the pack, and this build does not know it (serve the pack with the version of skills-edge that made it, or rebuild the pack with this one)"
                    ),
                ))
            }
            // A section this reader does not know and may ignore.
            _ => {}
        }
    }
    Ok(f)
}

/// Opens a pack: its integrity, then where each table and section lies, each checked to fit;
/// with [`Check::Full`], every record's contents too. Returns the tables, read in place.
pub(crate) fn open(pack: &[u8], check: Check) -> Result<Tables, PackError> {
    check_integrity(pack, check)?;
    let mut r = Reader {
        b: pack,
        pos: PREFIX_LEN,
    };
    let h = Counts::read(&mut r)?;
    let files: Table<FileRec> = r.table(h.files)?;
    let skills: Table<SkillRec> = r.table(h.skills)?;
    let dirs: Table<DirRec> = r.table(h.dirs)?;
    let children: Table<Span> = r.table(h.children)?;
    let mirror: Table<MirrorRec> = r.table(h.mirror)?;
    let found = read_sections(&mut r, h.sections)?;
    let heap_len = r.u32()? as usize;
    let heap_start = r.pos;
    if pack.len() - heap_start != heap_len {
        return Err(PackError::inconsistent(format!(
            "heap is {} bytes, header says {heap_len}",
            pack.len() - heap_start
        )));
    }
    let budget = std::cell::Cell::new(super::check::expansion_budget(pack.len()));
    let heap = HeapCheck {
        pack,
        start: heap_start,
        budget: &budget,
    };
    let shape = super::sections::Shape {
        files: files.len(),
        skills: skills.len(),
        dirs: dirs.len(),
        children: children.len(),
    };
    let mirror_index: Table<Span> = heap.table(
        found
            .mirror_index
            .ok_or_else(|| PackError::inconsistent("the mirror index section (2) is missing"))?,
        Some(skills.len() + 1),
        "mirror index",
    )?;
    let t = Tables {
        snapshot: h.snapshot,
        instructions: found
            .instructions
            .ok_or_else(|| PackError::inconsistent("the instructions section is missing"))?,
        mirror_prefix: mirror_index.get(pack, 0).unwrap_or_default(),
        mirror_items: mirror_index.slice(1, skills.len()),
        assets: match found.assets {
            Some(s) => Some(heap.table(s, Some(files.len()), "asset length")?),
            None => None,
        },
        fallback: super::sections::fallback(&found.fallback, heap, skills.len())?,
        signatures: super::sections::signatures(found.signatures, found.keys, heap, skills.len())?,
        access: super::sections::access(&found.access, heap, shape)?,
        search: match found.search {
            Some(s) => {
                crate::search::index::Index::open(heap.bytes(s, "the search section")?)
                    .map_err(PackError::inconsistent)?;
                Some(s)
            }
            None => None,
        },
        files,
        skills,
        dirs,
        children,
        mirror,
        heap_start,
    };
    if check == Check::Full {
        check_contents(&t, heap)?;
    }
    Ok(t)
}

/// Reads every record of an opened pack once: ranges, UTF-8, order, digests, JSON.
fn check_contents(t: &Tables, heap: HeapCheck<'_>) -> Result<(), PackError> {
    let pack = heap.pack;
    heap.text(t.instructions, "instructions")?;
    super::sections::check_items(t, heap)?;
    let assets: Option<Vec<u32>> = t.assets.map(|a| a.iter(pack).collect());
    let files: Vec<FileRec> = t.files.iter(pack).collect();
    let mirror: Vec<MirrorRec> = t.mirror.iter(pack).collect();
    check_files(heap, &files, assets.as_deref())?;
    check_skills(heap, t.skills)?;
    check_dirs(heap, t.dirs, t.children.len())?;
    for c in t.children.iter(pack) {
        strict_json(&heap.spliced(c, "directory child")?, "directory child")?;
    }
    check_mirror(heap, &mirror, t.skills.len())?;
    let external = files.iter().any(|f| f.external) || mirror.iter().any(|m| m.archive_external);
    if assets.is_none() == external {
        return Err(PackError::inconsistent(if external {
            "a file or archive is an asset, but the pack has no asset section (19)"
        } else {
            "the pack has an asset section (19), but no file or archive is an asset"
        }));
    }
    let skill_names: Vec<&str> = t
        .skills
        .iter(pack)
        .map(|s| heap.text(s.name, "skill name"))
        .collect::<Result<_, _>>()?;
    if let Some(f) = &t.fallback {
        super::sections::check_fallback(f, heap, &skill_names)?;
    }
    if let Some(s) = &t.signatures {
        super::sections::check_signatures(s, heap)?;
    }
    if let Some(a) = &t.access {
        super::sections::check_access(a, heap)?;
        super::sections::check_lists(t, a, heap)?;
    }
    if let Some(s) = t.search {
        let classes = t.access.as_ref().map_or(1, |a| a.classes.len() + 1);
        let class_of = |i: usize| {
            t.access
                .as_ref()
                .and_then(|a| a.skills.get(pack, i))
                .unwrap_or(0) as usize
        };
        crate::search::index::Index::open(heap.bytes(s, "the search section")?)
            .and_then(|ix| ix.check(t.skills.len(), classes, class_of))
            .map_err(PackError::inconsistent)?;
    }
    Ok(())
}

/// The files: sorted URIs, MIME types, digests, and bytes in the pack or an asset's length.
fn check_files(
    heap: HeapCheck<'_>,
    files: &[FileRec],
    assets: Option<&[u32]>,
) -> Result<(), PackError> {
    let mut prev = None;
    for (i, f) in files.iter().enumerate() {
        let rendered_len = assets.and_then(|r| r.get(i).copied()).unwrap_or(0);
        let uri = heap.text(f.uri, "file URI")?;
        sorted(&mut prev, uri, "file URIs")?;
        heap.text(f.mime, "MIME type")?;
        heap.digest(f.digest, "file digest")?;
        let data = heap.bytes(f.data, "file data")?;
        if f.external {
            if !data.is_empty() || rendered_len < 2 {
                return Err(PackError::inconsistent(format!(
                    "{uri} is external but has inline bytes or no rendered length"
                )));
            }
        } else {
            if data.len() != f.size as usize || rendered_len != 0 {
                return Err(PackError::inconsistent(format!(
                    "{uri} has {} bytes, its record says {}",
                    data.len(),
                    f.size
                )));
            }
            if f.text && std::str::from_utf8(data).is_err() {
                return Err(PackError::inconsistent(format!(
                    "{uri} is marked text but is not UTF-8"
                )));
            }
        }
    }
    Ok(())
}

/// The skills: sorted URIs, entries and list items as JSON, names, revisions.
fn check_skills(heap: HeapCheck<'_>, skills: Table<SkillRec>) -> Result<(), PackError> {
    let mut prev = None;
    for s in skills.iter(heap.pack) {
        let uri = heap.text(s.uri, "skill URI")?;
        sorted(&mut prev, uri, "skill URIs")?;
        heap.json(s.entry, "skill entry")?;
        strict_json(
            &heap.spliced(s.list_item, "resource list item")?,
            "resource list item",
        )?;
        heap.text(s.name, "skill name")?;
        heap.digest(s.revision, "skill revision")?;
    }
    Ok(())
}

/// The directories: sorted URIs, each run of children inside the children table.
fn check_dirs(
    heap: HeapCheck<'_>,
    dirs: Table<DirRec>,
    n_children: usize,
) -> Result<(), PackError> {
    let mut prev = None;
    for d in dirs.iter(heap.pack) {
        let uri = heap.text(d.uri, "directory URI")?;
        sorted(&mut prev, uri, "directory URIs")?;
        let end = (d.first_child as usize).checked_add(d.child_count as usize);
        if end.is_none_or(|end| end > n_children) {
            return Err(PackError::inconsistent(format!(
                "children of {uri} lie outside the table"
            )));
        }
    }
    Ok(())
}

/// The mirror: sorted names, skills inside the skills table, archives in the pack or assets.
fn check_mirror(
    heap: HeapCheck<'_>,
    mirror: &[MirrorRec],
    n_skills: usize,
) -> Result<(), PackError> {
    let mut prev = None;
    for m in mirror {
        let name = heap.text(m.name, "mirrored name")?;
        sorted(&mut prev, name, "mirrored names")?;
        if m.skill as usize >= n_skills {
            return Err(PackError::inconsistent(format!(
                "the mirrored skill {name} lies outside the skills table"
            )));
        }
        let data = heap.bytes(m.archive_data, "archive data")?;
        if m.archive_digest.len == 0 {
            if m.archive_size != 0 || !data.is_empty() || m.archive_external {
                return Err(PackError::inconsistent(format!(
                    "the mirrored skill {name} has archive bytes but no archive digest"
                )));
            }
            continue;
        }
        heap.digest(m.archive_digest, "archive digest")?;
        let inline_ok = !m.archive_external && data.len() == m.archive_size as usize;
        let external_ok = m.archive_external && data.is_empty();
        if m.archive_size == 0 || !(inline_ok || external_ok) {
            return Err(PackError::inconsistent(format!(
                "the archive of {name} has {} bytes in the pack, its record says {}{}",
                data.len(),
                m.archive_size,
                if m.archive_external {
                    " and that it is an asset"
                } else {
                    ""
                }
            )));
        }
    }
    Ok(())
}
