//! Record layouts: each record's fields are listed once, in [`Record::layout`], and the writer
//! ([`put`]), the reader ([`get`], [`table`]) and the size check ([`record_len`]) all follow
//! that one list, so they cannot disagree.

use super::format::*;

// ---------------------------------------------------------------------------------------------

/// What walks a record's fields in order: each field is one little-endian `u32` word, a
/// [`Span`] two (offset, length), a set of flags one (the bits of the booleans that are set).
pub(crate) trait Fields {
    /// One `u32` field.
    fn word(&mut self, v: &mut u32);
    /// One range field: its offset, then its length.
    #[inline(always)]
    fn span(&mut self, s: &mut Span) {
        self.word(&mut s.off);
        self.word(&mut s.len);
    }
    /// One word of flags: each boolean is its bit.
    #[inline(always)]
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
pub(crate) trait Record: Default {
    /// Visits every field, in the pack's order.
    fn layout(&mut self, f: &mut impl Fields);
}

impl Record for u32 {
    #[inline(always)]
    fn layout(&mut self, f: &mut impl Fields) {
        f.word(self);
    }
}

impl Record for Span {
    #[inline(always)]
    fn layout(&mut self, f: &mut impl Fields) {
        f.span(self);
    }
}

impl Record for FileRec {
    #[inline(always)]
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
    #[inline(always)]
    fn layout(&mut self, f: &mut impl Fields) {
        f.span(&mut self.uri);
        f.span(&mut self.entry);
        f.span(&mut self.list_item);
        f.span(&mut self.name);
        f.span(&mut self.revision);
    }
}

/// A record looked up by binary search on its key: the span of its URI (files, skills,
/// directories) or of its name (the mirror's skills, the fallback's prompts). Its layout lists
/// the key first, so a probe reads that span alone ([`Table::find`]) rather than decoding the
/// whole record; debug builds (the tests, the fuzz targets) check every probe against the
/// record decoded whole.
pub(crate) trait Keyed: Record {
    /// The key's span of a decoded record.
    fn key(&self) -> Span;
}

/// `impl Keyed` for each record type, naming its key field.
macro_rules! keyed {
    ($($rec:ty: $field:ident),* $(,)?) => {$(
        impl Keyed for $rec {
            fn key(&self) -> Span {
                self.$field
            }
        }
    )*};
}

keyed!(FileRec: uri, SkillRec: uri, DirRec: uri, MirrorRec: name, PromptRec: name);

impl Record for DirRec {
    #[inline(always)]
    fn layout(&mut self, f: &mut impl Fields) {
        f.span(&mut self.uri);
        f.word(&mut self.first_child);
        f.word(&mut self.child_count);
    }
}

impl Record for MirrorRec {
    #[inline(always)]
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
    #[inline(always)]
    fn layout(&mut self, f: &mut impl Fields) {
        f.word(&mut self.tag);
        f.span(&mut self.text);
        f.flags(&mut [(&mut self.required, SECTION_REQUIRED)]);
    }
}

impl Record for FallbackInstructionsRec {
    #[inline(always)]
    fn layout(&mut self, f: &mut impl Fields) {
        for s in &mut self.0 {
            f.span(s);
        }
    }
}

impl Record for FallbackSkillRec {
    #[inline(always)]
    fn layout(&mut self, f: &mut impl Fields) {
        f.span(&mut self.description);
        f.span(&mut self.links);
        f.span(&mut self.read_structured);
    }
}

impl Record for SignatureRec {
    #[inline(always)]
    fn layout(&mut self, f: &mut impl Fields) {
        f.span(&mut self.envelope);
        f.span(&mut self.digest);
    }
}

impl Record for AudienceRec {
    #[inline(always)]
    fn layout(&mut self, f: &mut impl Fields) {
        f.flags(&mut [(&mut self.public, 1)]);
        f.word(&mut self.lo);
        f.word(&mut self.hi);
    }
}

impl Record for HeadsRec {
    #[inline(always)]
    fn layout(&mut self, f: &mut impl Fields) {
        f.flags(&mut [(&mut self.default_instructions, 1)]);
        f.span(&mut self.instructions_head);
    }
}

impl Record for PromptRec {
    #[inline(always)]
    fn layout(&mut self, f: &mut impl Fields) {
        f.span(&mut self.name);
        f.word(&mut self.skill);
    }
}

/// The length in bytes of one `R` record.
#[inline(always)]
pub(super) fn record_len<R: Record>() -> usize {
    struct Count(usize);
    impl Fields for Count {
        #[inline(always)]
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
#[inline(always)]
pub(super) fn get<R: Record>(bytes: &[u8]) -> R {
    struct Read<'a>(std::slice::ChunksExact<'a, u8>);
    impl Fields for Read<'_> {
        #[inline(always)]
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
    #[inline(always)]
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

impl Record for ClassListRec {
    #[inline(always)]
    fn layout(&mut self, f: &mut impl Fields) {
        f.span(&mut self.skills);
        f.span(&mut self.mirror);
        f.span(&mut self.prompts);
        f.word(&mut self.snapshot);
        for w in &mut self.mirror_tag {
            f.word(w);
        }
    }
}

/// A table of `R` records read in place: its position in the pack and its number of records.
/// A record is read when it is used, bounds-checked: a table that does not fit in the pack
/// yields no record past its end, never a panic.
pub(crate) struct Table<R> {
    at: usize,
    len: usize,
    _r: std::marker::PhantomData<fn() -> R>,
}

impl<R> Clone for Table<R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R> Copy for Table<R> {}

impl<R> std::fmt::Debug for Table<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Table {{ at: {}, len: {} }}", self.at, self.len)
    }
}

impl<R> Default for Table<R> {
    fn default() -> Self {
        Table::new(0, 0)
    }
}

impl<R> Table<R> {
    /// The table of `len` records at offset `at` of the pack.
    pub(crate) fn new(at: usize, len: usize) -> Self {
        Table {
            at,
            len,
            _r: std::marker::PhantomData,
        }
    }

    /// The number of records.
    pub(crate) fn len(&self) -> usize {
        self.len
    }
}

impl<R: Record> Table<R> {
    /// Where the table ends in the pack (`None` on overflow).
    pub(crate) fn end(&self) -> Option<usize> {
        self.at
            .checked_add(self.len.checked_mul(record_len::<R>())?)
    }

    /// Record `i`, read from `pack`; `None` past the end of the table or of the pack.
    #[inline]
    pub(crate) fn get(&self, pack: &[u8], i: usize) -> Option<R> {
        if i >= self.len {
            return None;
        }
        let n = record_len::<R>();
        let start = self.at.checked_add(i.checked_mul(n)?)?;
        pack.get(start..start.checked_add(n)?).map(get)
    }

    /// The table's bytes in `pack`; `None` when they do not all fit in it.
    pub(crate) fn bytes<'a>(&self, pack: &'a [u8]) -> Option<&'a [u8]> {
        pack.get(self.at..self.end()?)
    }

    /// Every record, in order (stops at the first that does not fit in `pack`).
    pub(crate) fn iter<'a>(&self, pack: &'a [u8]) -> impl Iterator<Item = R> + 'a
    where
        R: 'a,
    {
        let t = *self;
        (0..t.len).map_while(move |i| t.get(pack, i))
    }

    /// The records `start..start + count` (clipped to the table).
    pub(crate) fn slice(&self, start: usize, count: usize) -> Table<R> {
        let start = start.min(self.len);
        let count = count.min(self.len - start);
        // Saturating: a table whose position came from a damaged pack reads nothing, even on
        // a 32-bit target.
        Table::new(
            self.at
                .saturating_add(start.saturating_mul(record_len::<R>())),
            count,
        )
    }

    /// The first index whose record does not satisfy `pred`, for a table ordered so that
    /// every record satisfying it comes first (a binary search). A record that cannot be
    /// read counts as not satisfying it.
    pub(crate) fn partition_point(&self, pack: &[u8], pred: impl Fn(&R) -> bool) -> usize {
        let (mut lo, mut hi) = (0, self.len);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.get(pack, mid).is_some_and(|r| pred(&r)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }
}

impl<R: Keyed> Table<R> {
    /// The key of record `i`, read alone (the record's first two words); `None` where
    /// [`Table::get`] reads no record.
    #[inline(always)]
    fn key_at(&self, pack: &[u8], i: usize) -> Option<Span> {
        if i >= self.len {
            return None;
        }
        let n = record_len::<R>();
        let start = self.at.checked_add(i.checked_mul(n)?)?;
        let rec = pack.get(start..start.checked_add(n)?)?;
        let word = |at: usize| u32::from_le_bytes([rec[at], rec[at + 1], rec[at + 2], rec[at + 3]]);
        let key = Span {
            off: word(0),
            len: word(4),
        };
        // The layout lists the key first (Keyed): the whole record, decoded, says the same.
        debug_assert_eq!(get::<R>(rec).key(), key);
        Some(key)
    }

    /// The index of the record whose key's text (`text` of its span) is `key`, by binary
    /// search over a table sorted by that text. A record that cannot be read sorts last.
    pub(crate) fn find<'t>(
        &self,
        pack: &[u8],
        key: &str,
        text: impl Fn(Span) -> &'t str,
    ) -> Option<usize> {
        let (mut lo, mut hi) = (0, self.len);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.key_at(pack, mid).is_some_and(|k| text(k) < key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        self.key_at(pack, lo)
            .filter(|k| text(*k) == key)
            .map(|_| lo)
    }
}
