//! The pack: one versioned binary form of a compiled catalog. `build.rs` writes the embedded
//! catalog as a pack and the runtime reads it back; a pack made elsewhere by the same compiler
//! loads the same way. It holds the raw file bytes once, plus every JSON fragment a reply is
//! made of (entries, `resources/list` items, directory children), rendered at build time so a
//! request only copies bytes.
//!
//! Layout (all integers little-endian `u32`; a "range" is `offset, length` into the heap):
//! ```text
//! "SKEDPACK"  version(=2)  total_len  sha256(32 bytes, over every byte after it)
//! snapshot  n_files  n_skills  n_dirs  n_children
//! instructions: range
//! files:    n_files    × { uri: range, mime: range, data: range, flags (bit 0 = text) }
//! skills:   n_skills   × { uri: range, entry: range, list_item: range }
//! dirs:     n_dirs     × { uri: range, first_child, child_count }
//! children: n_children × { json: range }
//! heap_len, heap
//! ```
//! Decoding first checks the integrity of the whole pack (magic, version, length, then the
//! SHA-256 of the rest), so a truncated or corrupted pack is refused as such before anything
//! else is read. It then checks every range, every UTF-8 string, URI order and JSON
//! well-formedness (strings decoded, as strict JSON readers do) once, so even a pack with a
//! valid checksum but a hostile structure is refused with a message instead of causing a panic
//! or an unreadable reply later. That one digest is the only hashing a load does: no manifest
//! is recomputed and no YAML is read.

use super::compile::{Compiled, DirChild};

/// The magic bytes at the start of a pack.
pub const MAGIC: &[u8; 8] = b"SKEDPACK";
/// The pack format version this build reads and writes.
pub const VERSION: u32 = 2;
/// Length of the fixed prefix: magic, version, total length, SHA-256.
const PREFIX_LEN: usize = 8 + 4 + 4 + 32;

/// A byte range into the heap.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Span {
    /// Offset from the start of the heap.
    pub off: u32,
    /// Length in bytes.
    pub len: u32,
}

/// A served file.
#[derive(Debug, Clone, Copy)]
pub struct FileRec {
    /// URI.
    pub uri: Span,
    /// MIME type.
    pub mime: Span,
    /// Raw bytes.
    pub data: Span,
    /// Whether the bytes are UTF-8 text.
    pub text: bool,
}

/// A served skill.
#[derive(Debug, Clone, Copy)]
pub struct SkillRec {
    /// URI of its `SKILL.md`.
    pub uri: Span,
    /// The entry JSON.
    pub entry: Span,
    /// The `resources/list` item JSON.
    pub list_item: Span,
}

/// A directory of the namespace.
#[derive(Debug, Clone, Copy)]
pub struct DirRec {
    /// URI.
    pub uri: Span,
    /// Index of its first child in the children table.
    pub first_child: u32,
    /// Number of children.
    pub child_count: u32,
}

/// A decoded pack: the tables, with spans into `heap`.
#[derive(Debug, Clone)]
pub struct Tables {
    /// Content snapshot id (changes whenever any entry or file changes).
    pub snapshot: u32,
    /// Default server instructions.
    pub instructions: Span,
    /// Files sorted by URI.
    pub files: Vec<FileRec>,
    /// Skills sorted by URI.
    pub skills: Vec<SkillRec>,
    /// Directories sorted by URI.
    pub dirs: Vec<DirRec>,
    /// Directory children JSON, grouped by directory.
    pub children: Vec<Span>,
    /// Offset of the heap in the pack.
    pub heap_start: usize,
}

/// Why a pack cannot be loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackError(pub String);

impl std::fmt::Display for PackError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "invalid skills pack: {}", self.0)
    }
}

impl std::error::Error for PackError {}

struct Heap {
    bytes: Vec<u8>,
}

impl Heap {
    fn put(&mut self, b: &[u8]) -> Span {
        let off = self.bytes.len() as u32;
        self.bytes.extend_from_slice(b);
        Span {
            off,
            len: b.len() as u32,
        }
    }
}

fn u32s(out: &mut Vec<u8>, vals: &[u32]) {
    for v in vals {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

/// Encodes a compiled catalog as a pack. `instructions` overrides the default instructions.
pub fn encode(c: &Compiled, instructions: Option<&str>) -> Vec<u8> {
    let mut heap = Heap { bytes: Vec::new() };
    let default_instr = c.default_instructions();
    let instr = heap.put(instructions.unwrap_or(&default_instr).as_bytes());
    let files: Vec<FileRec> = c
        .files
        .iter()
        .map(|f| FileRec {
            uri: heap.put(f.uri.as_bytes()),
            mime: heap.put(f.mime.as_bytes()),
            data: heap.put(&f.bytes),
            text: f.is_text,
        })
        .collect();
    let mut entries = Vec::new();
    let skills: Vec<SkillRec> = c
        .skills
        .iter()
        .map(|s| {
            let entry = c.entry_json(s);
            let rec = SkillRec {
                uri: heap.put(s.uri.as_bytes()),
                entry: heap.put(entry.as_bytes()),
                list_item: heap.put(c.list_item_json(s).as_bytes()),
            };
            entries.push(entry);
            rec
        })
        .collect();
    let mut children = Vec::new();
    let dirs: Vec<DirRec> = c
        .dirs
        .iter()
        .map(|d| {
            let first = children.len() as u32;
            for ch in &d.children {
                children.push(heap.put(c.child_json(ch).as_bytes()));
            }
            DirRec {
                uri: heap.put(d.uri.as_bytes()),
                first_child: first,
                child_count: d.children.len() as u32,
            }
        })
        .collect();
    // The snapshot id covers every entry (hence every digest) and the directory shapes.
    let mut fingerprint = entries.join("\n");
    for d in &c.dirs {
        fingerprint.push('\n');
        fingerprint.push_str(&d.uri);
        for ch in &d.children {
            if let DirChild::Dir(u) = ch {
                fingerprint.push(' ');
                fingerprint.push_str(u);
            }
        }
    }
    let h = crate::skill::digest::sha256(fingerprint.as_bytes());
    let snapshot = u32::from_le_bytes([h[0], h[1], h[2], h[3]]);

    let mut out = Vec::with_capacity(heap.bytes.len() + PREFIX_LEN + 32 + files.len() * 28);
    out.extend_from_slice(MAGIC);
    u32s(&mut out, &[VERSION, 0]);
    out.extend_from_slice(&[0; 32]);
    u32s(
        &mut out,
        &[
            snapshot,
            files.len() as u32,
            skills.len() as u32,
            dirs.len() as u32,
            children.len() as u32,
            instr.off,
            instr.len,
        ],
    );
    for f in &files {
        u32s(
            &mut out,
            &[
                f.uri.off,
                f.uri.len,
                f.mime.off,
                f.mime.len,
                f.data.off,
                f.data.len,
                f.text as u32,
            ],
        );
    }
    for s in &skills {
        u32s(
            &mut out,
            &[
                s.uri.off,
                s.uri.len,
                s.entry.off,
                s.entry.len,
                s.list_item.off,
                s.list_item.len,
            ],
        );
    }
    for d in &dirs {
        u32s(
            &mut out,
            &[d.uri.off, d.uri.len, d.first_child, d.child_count],
        );
    }
    for ch in &children {
        u32s(&mut out, &[ch.off, ch.len]);
    }
    u32s(&mut out, &[heap.bytes.len() as u32]);
    out.extend_from_slice(&heap.bytes);
    seal(&mut out);
    out
}

/// Writes the total length and the SHA-256 into a pack's prefix, over its current bytes.
/// [`encode`] does this; it is public so tests can build structurally hostile packs whose
/// checksum is nevertheless valid. Does nothing to a buffer shorter than the prefix.
pub fn seal(pack: &mut [u8]) {
    if pack.len() < PREFIX_LEN {
        return;
    }
    let len = u32::try_from(pack.len()).unwrap_or(u32::MAX);
    pack[12..16].copy_from_slice(&len.to_le_bytes());
    let digest = crate::skill::digest::sha256(&pack[PREFIX_LEN..]);
    pack[16..PREFIX_LEN].copy_from_slice(&digest);
}

/// The snapshot id recorded in a pack's header, without decoding the pack (for a pack just
/// made by [`encode`]; [`decode`] checks it along with everything else).
pub fn snapshot_of(pack: &[u8]) -> Option<u32> {
    pack.get(PREFIX_LEN..PREFIX_LEN + 4)
        .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

/// Checks magic, version, length and checksum, in that order, so each kind of damage is
/// named: not a pack at all, a pack of another format version, a truncated (or extended)
/// pack, a corrupted one.
fn check_integrity(pack: &[u8]) -> Result<(), PackError> {
    if pack.len() < 8 || &pack[..8] != MAGIC {
        return Err(PackError(
            "it does not start with SKEDPACK: this is not a skills pack (make one with `skills-edge pack <dir> -o <file>`)".into(),
        ));
    }
    let too_short = || {
        PackError(format!(
            "truncated: {} bytes, too short for the header",
            pack.len()
        ))
    };
    let word = |at: usize| {
        pack.get(at..at + 4)
            .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
            .ok_or_else(too_short)
    };
    let version = word(8)?;
    if version != VERSION {
        return Err(PackError(format!(
            "format version {version}; this build reads version {VERSION} (rebuild the pack with this version of skills-edge)"
        )));
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
        return Err(PackError(format!(
            "{how}: {} bytes, the header says {total} (copy the whole file, in binary mode)",
            pack.len()
        )));
    }
    if total < PREFIX_LEN {
        return Err(too_short());
    }
    let digest = crate::skill::digest::sha256(&pack[PREFIX_LEN..]);
    if digest[..] != pack[16..PREFIX_LEN] {
        return Err(PackError(
            "checksum mismatch: the pack is corrupted (rebuild it, and copy it in binary mode)"
                .into(),
        ));
    }
    Ok(())
}

/// A JSON value read only to check it: unlike `serde::de::IgnoredAny`, which skips strings
/// without decoding their escapes, every string and key is decoded, so a fragment that strict
/// JSON readers refuse (a lone surrogate escape such as `"\ud800"`) is refused here, instead of
/// making every reply that embeds it unreadable to them. Nothing is kept.
struct StrictJson;

impl<'de> serde::Deserialize<'de> for StrictJson {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StrictJsonVisitor)
    }
}

struct StrictJsonVisitor;

impl<'de> serde::de::Visitor<'de> for StrictJsonVisitor {
    type Value = StrictJson;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<StrictJson, E> {
        Ok(StrictJson)
    }
    fn visit_i64<E>(self, _: i64) -> Result<StrictJson, E> {
        Ok(StrictJson)
    }
    fn visit_u64<E>(self, _: u64) -> Result<StrictJson, E> {
        Ok(StrictJson)
    }
    fn visit_f64<E>(self, _: f64) -> Result<StrictJson, E> {
        Ok(StrictJson)
    }
    fn visit_str<E>(self, _: &str) -> Result<StrictJson, E> {
        Ok(StrictJson)
    }
    fn visit_unit<E>(self) -> Result<StrictJson, E> {
        Ok(StrictJson)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<StrictJson, A::Error> {
        while seq.next_element::<StrictJson>()?.is_some() {}
        Ok(StrictJson)
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<StrictJson, A::Error> {
        while map.next_key::<StrictJson>()?.is_some() {
            map.next_value::<StrictJson>()?;
        }
        Ok(StrictJson)
    }
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
            .ok_or_else(|| PackError("truncated header or table".into()))?;
        self.pos += 4;
        Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
    }
    fn span(&mut self) -> Result<Span, PackError> {
        Ok(Span {
            off: self.u32()?,
            len: self.u32()?,
        })
    }
    fn count(&mut self, rec_size: usize, what: &str) -> Result<usize, PackError> {
        let n = self.u32()? as usize;
        if n.saturating_mul(rec_size) > self.b.len() {
            return Err(PackError(format!("{what} count {n} exceeds the pack size")));
        }
        Ok(n)
    }
}

/// Decodes and validates a pack. Returns the tables; spans index into
/// `&pack[tables.heap_start..]`.
pub fn decode(pack: &[u8]) -> Result<Tables, PackError> {
    check_integrity(pack)?;
    let mut r = Reader {
        b: pack,
        pos: PREFIX_LEN,
    };
    let snapshot = r.u32()?;
    let n_files = r.count(28, "file")?;
    let n_skills = r.count(24, "skill")?;
    let n_dirs = r.count(16, "directory")?;
    let n_children = r.count(8, "child")?;
    let instructions = r.span()?;
    let mut files = Vec::with_capacity(n_files);
    for _ in 0..n_files {
        let uri = r.span()?;
        let mime = r.span()?;
        let data = r.span()?;
        let flags = r.u32()?;
        files.push(FileRec {
            uri,
            mime,
            data,
            text: flags & 1 == 1,
        });
    }
    let mut skills = Vec::with_capacity(n_skills);
    for _ in 0..n_skills {
        skills.push(SkillRec {
            uri: r.span()?,
            entry: r.span()?,
            list_item: r.span()?,
        });
    }
    let mut dirs = Vec::with_capacity(n_dirs);
    for _ in 0..n_dirs {
        dirs.push(DirRec {
            uri: r.span()?,
            first_child: r.u32()?,
            child_count: r.u32()?,
        });
    }
    let mut children = Vec::with_capacity(n_children);
    for _ in 0..n_children {
        children.push(r.span()?);
    }
    let heap_len = r.u32()? as usize;
    let heap_start = r.pos;
    if pack.len() - heap_start != heap_len {
        return Err(PackError(format!(
            "heap is {} bytes, header says {heap_len}",
            pack.len() - heap_start
        )));
    }
    let heap = &pack[heap_start..];
    let bytes = |s: Span, what: &str| -> Result<&[u8], PackError> {
        let start = s.off as usize;
        start
            .checked_add(s.len as usize)
            .and_then(|end| heap.get(start..end))
            .ok_or_else(|| PackError(format!("{what} lies outside the heap")))
    };
    let text = |s: Span, what: &str| -> Result<&str, PackError> {
        std::str::from_utf8(bytes(s, what)?).map_err(|_| PackError(format!("{what} is not UTF-8")))
    };
    let json = |s: Span, what: &str| -> Result<(), PackError> {
        serde_json::from_str::<StrictJson>(text(s, what)?)
            .map(|_| ())
            .map_err(|e| PackError(format!("{what} is not valid JSON: {e}")))
    };
    text(instructions, "instructions")?;
    let mut prev: Option<&str> = None;
    for f in &files {
        let uri = text(f.uri, "file URI")?;
        if prev.is_some_and(|p| p >= uri) {
            return Err(PackError(format!("file URIs are not sorted at {uri}")));
        }
        prev = Some(uri);
        text(f.mime, "MIME type")?;
        let data = bytes(f.data, "file data")?;
        if f.text && std::str::from_utf8(data).is_err() {
            return Err(PackError(format!("{uri} is marked text but is not UTF-8")));
        }
    }
    prev = None;
    for s in &skills {
        let uri = text(s.uri, "skill URI")?;
        if prev.is_some_and(|p| p >= uri) {
            return Err(PackError(format!("skill URIs are not sorted at {uri}")));
        }
        prev = Some(uri);
        json(s.entry, "skill entry")?;
        json(s.list_item, "resource list item")?;
    }
    prev = None;
    for d in &dirs {
        let uri = text(d.uri, "directory URI")?;
        if prev.is_some_and(|p| p >= uri) {
            return Err(PackError(format!("directory URIs are not sorted at {uri}")));
        }
        prev = Some(uri);
        let end = (d.first_child as usize).checked_add(d.child_count as usize);
        if end.is_none_or(|end| end > children.len()) {
            return Err(PackError(format!(
                "children of {uri} lie outside the table"
            )));
        }
    }
    for c in &children {
        json(*c, "directory child")?;
    }
    Ok(Tables {
        snapshot,
        instructions,
        files,
        skills,
        dirs,
        children,
        heap_start,
    })
}
