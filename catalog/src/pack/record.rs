//! Record layouts: each record's fields are listed once, in [`Record::layout`], and the writer
//! ([`put`]), the reader ([`get`], [`table`]) and the size check ([`record_len`]) all follow
//! that one list, so they cannot disagree.

use super::format::*;
use super::PackError;

// ---------------------------------------------------------------------------------------------

/// What walks a record's fields in order: each field is one little-endian `u32` word, a
/// [`Span`] two (offset, length), a set of flags one (the bits of the booleans that are set).
pub(super) trait Fields {
    /// One `u32` field.
    fn word(&mut self, v: &mut u32);
    /// One range field: its offset, then its length.
    fn span(&mut self, s: &mut Span) {
        self.word(&mut s.off);
        self.word(&mut s.len);
    }
    /// One word of flags: each boolean is its bit.
    fn flags(&mut self, bits: &mut [(&mut bool, u32)]) {
        let mut w = bits
            .iter()
            .fold(0, |w, (on, bit)| if **on { w | *bit } else { w });
        self.word(&mut w);
        for (on, bit) in bits.iter_mut() {
            **on = w & *bit != 0;
        }
    }
}

/// A fixed-size record of the pack: the one description of its layout.
pub(super) trait Record: Default {
    /// Visits every field, in the pack's order.
    fn layout(&mut self, f: &mut impl Fields);
}

impl Record for u32 {
    fn layout(&mut self, f: &mut impl Fields) {
        f.word(self);
    }
}

impl Record for Span {
    fn layout(&mut self, f: &mut impl Fields) {
        f.span(self);
    }
}

impl Record for FileRec {
    fn layout(&mut self, f: &mut impl Fields) {
        f.span(&mut self.uri);
        f.span(&mut self.mime);
        f.span(&mut self.digest);
        f.span(&mut self.data);
        f.word(&mut self.size);
        f.flags(&mut [
            (&mut self.text, FLAG_TEXT),
            (&mut self.external, FLAG_EXTERNAL),
        ]);
    }
}

impl Record for SkillRec {
    fn layout(&mut self, f: &mut impl Fields) {
        f.span(&mut self.uri);
        f.span(&mut self.entry);
        f.span(&mut self.list_item);
        f.span(&mut self.name);
        f.span(&mut self.revision);
    }
}

impl Record for DirRec {
    fn layout(&mut self, f: &mut impl Fields) {
        f.span(&mut self.uri);
        f.word(&mut self.first_child);
        f.word(&mut self.child_count);
    }
}

impl Record for MirrorRec {
    fn layout(&mut self, f: &mut impl Fields) {
        f.span(&mut self.name);
        f.word(&mut self.skill);
        f.span(&mut self.archive_digest);
        f.span(&mut self.archive_data);
        f.word(&mut self.archive_size);
        f.flags(&mut [(&mut self.archive_external, FLAG_EXTERNAL)]);
    }
}

impl Record for SectionRec {
    fn layout(&mut self, f: &mut impl Fields) {
        f.word(&mut self.tag);
        f.span(&mut self.text);
        f.flags(&mut [(&mut self.required, SECTION_REQUIRED)]);
    }
}

impl Record for FallbackInstructionsRec {
    fn layout(&mut self, f: &mut impl Fields) {
        for s in &mut self.0 {
            f.span(s);
        }
    }
}

impl Record for FallbackSkillRec {
    fn layout(&mut self, f: &mut impl Fields) {
        f.span(&mut self.description);
        f.span(&mut self.links);
        f.span(&mut self.read_block);
        f.span(&mut self.read_structured);
    }
}

impl Record for SignatureRec {
    fn layout(&mut self, f: &mut impl Fields) {
        f.span(&mut self.envelope);
        f.span(&mut self.digest);
    }
}

impl Record for AudienceRec {
    fn layout(&mut self, f: &mut impl Fields) {
        f.flags(&mut [(&mut self.public, 1)]);
        f.word(&mut self.lo);
        f.word(&mut self.hi);
    }
}

impl Record for FragmentRec {
    fn layout(&mut self, f: &mut impl Fields) {
        f.span(&mut self.instructions_line);
        f.span(&mut self.mirror_item);
        f.span(&mut self.prompt_item);
        f.span(&mut self.list_item);
    }
}

impl Record for HeadsRec {
    fn layout(&mut self, f: &mut impl Fields) {
        f.flags(&mut [(&mut self.default_instructions, 1)]);
        f.span(&mut self.instructions_head);
        f.span(&mut self.mirror_prefix);
    }
}

impl Record for PromptRec {
    fn layout(&mut self, f: &mut impl Fields) {
        f.span(&mut self.name);
        f.word(&mut self.skill);
    }
}

/// The length in bytes of one `R` record.
pub(super) fn record_len<R: Record>() -> usize {
    struct Count(usize);
    impl Fields for Count {
        fn word(&mut self, _: &mut u32) {
            self.0 += 4;
        }
    }
    let mut c = Count(0);
    R::default().layout(&mut c);
    c.0
}

/// Appends `rec` to `out`.
pub(super) fn put<R: Record + Copy>(out: &mut Vec<u8>, rec: &R) {
    struct Write<'a>(&'a mut Vec<u8>);
    impl Fields for Write<'_> {
        fn word(&mut self, v: &mut u32) {
            self.0.extend_from_slice(&v.to_le_bytes());
        }
    }
    let mut rec = *rec;
    rec.layout(&mut Write(out));
}

/// Reads one record from exactly its bytes (`bytes.len() == record_len::<R>()`).
pub(super) fn get<R: Record>(bytes: &[u8]) -> R {
    struct Read<'a>(std::slice::ChunksExact<'a, u8>);
    impl Fields for Read<'_> {
        fn word(&mut self, v: &mut u32) {
            *v = self
                .0
                .next()
                .map_or(0, |w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]));
        }
    }
    let mut rec = R::default();
    rec.layout(&mut Read(bytes.chunks_exact(4)));
    rec
}

impl Record for Header {
    fn layout(&mut self, f: &mut impl Fields) {
        f.word(&mut self.snapshot);
        f.word(&mut self.files);
        f.word(&mut self.skills);
        f.word(&mut self.dirs);
        f.word(&mut self.children);
        f.word(&mut self.mirror);
        f.word(&mut self.sections);
    }
}

/// The records of a table section, `n` of them expected (`None`: any number).
pub(super) fn table<R: Record>(
    payload: &[u8],
    n: Option<usize>,
    what: &str,
) -> Result<Vec<R>, PackError> {
    let rec = record_len::<R>();
    let count = payload.len() / rec;
    if !payload.len().is_multiple_of(rec) || n.is_some_and(|n| n != count) {
        return Err(PackError(format!(
            "the {what} table is {} bytes, not {} records of {rec}",
            payload.len(),
            n.map_or_else(|| "whole".to_owned(), |n| n.to_string())
        )));
    }
    Ok(payload.chunks_exact(rec).map(get).collect())
}
