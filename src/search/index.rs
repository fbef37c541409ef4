//! The search section's layout (section 21 of a pack, optional): its writer and its one
//! reader. Words are little-endian `u32`s; the codes are those of [`super::codec`].
//!
//! | part | what it holds |
//! |---|---|
//! | header | 9 words: skills, audience classes (the public one and each private one), terms, tags, the bit width of each field's lengths (a byte each, name in the low byte, at most 16), then the bytes of the term dictionary, the term postings, the tag dictionary and the tag postings |
//! | class statistics | per class: its skills, then the summed length (in terms) of each field |
//! | field lengths | per skill, bit-packed: the length of each field (terms, saturating at 65,535) in its width |
//! | term blocks | per block of 16 terms: 2 words, where its first entry starts in the term dictionary (byte) and its postings in the term postings (bit) |
//! | term dictionary | per term, sorted by its bytes, front-coded: varints of the bytes shared with the previous term (0 first in a block), the length of the rest, the rest, the number of postings and their length in bits |
//! | term postings | per term, its postings sorted by skill: the skill's gap to the previous one less one (the first: the skill), Rice-coded with parameter `⌊log2(skills / postings)⌋`, then the term's count in each field (a prefix code) |
//! | tag blocks, tag dictionary, tag postings | the same for the tags, a posting only its skill |
//!
//! Postings of one term or tag are sorted by skill, each skill once. The statistics are per
//! audience class so that a caller's figures are the sums over the classes it holds: those of
//! a catalog of the skills it sees, and of nothing else.

use super::codec::{self, put_varint, rice_k, varint, BitWriter, Bits};
use super::text::{headings, terms};

/// The fields indexed, in their order in the section.
pub(crate) const FIELDS: usize = 4;
/// Words of the header.
const HEADER: usize = 9;
/// Dictionary entries per block (a lookup scans at most one block).
const BLOCK: usize = 16;

fn word(b: &[u8], at: usize) -> Option<u32> {
    let s = b.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

fn put(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// What the index holds of one skill: its name, description, tags and the text of its
/// `SKILL.md` (for the headings).
pub(crate) struct Doc<'a> {
    /// The skill's name (hyphens cut words).
    pub name: &'a str,
    /// Its description.
    pub description: &'a str,
    /// Its tags (`metadata.tags`).
    pub tags: Vec<String>,
    /// Its `SKILL.md`, whose headings are indexed.
    pub skill_md: &'a str,
}

/// The terms of each field of a skill: name, description, tags, headings.
fn fields(d: &Doc<'_>) -> [Vec<String>; FIELDS] {
    [
        terms(d.name),
        terms(d.description),
        terms(&d.tags.join(" ")),
        terms(&headings(d.skill_md)),
    ]
}

/// The search section of the skills `docs` (in skill order); `class_of` gives each skill's
/// audience class (0 public) and `classes` how many there are, the public one included.
pub(crate) fn encode(
    docs: &[Doc<'_>],
    classes: usize,
    class_of: impl Fn(usize) -> usize,
) -> Vec<u8> {
    let n = docs.len();
    // (term, skill, counts per field), sorted by term then skill.
    let mut occ: Vec<(String, u32, [u8; FIELDS])> = Vec::new();
    let mut lens = Vec::with_capacity(n);
    let mut stats = vec![[0u32; FIELDS + 1]; classes.max(1)];
    let mut tags: Vec<(String, u32)> = Vec::new();
    for (i, doc) in docs.iter().enumerate() {
        let f = fields(doc);
        let mut own: Vec<(&str, usize)> = Vec::new();
        let mut len = [0u16; FIELDS];
        for (k, words) in f.iter().enumerate() {
            len[k] = u16::try_from(words.len()).unwrap_or(u16::MAX);
            own.extend(words.iter().map(|w| (w.as_str(), k)));
        }
        own.sort();
        for (term, field) in own {
            match occ.last_mut() {
                Some((t, s, counts)) if t == term && *s == i as u32 => {
                    counts[field] = counts[field].saturating_add(1)
                }
                _ => {
                    let mut counts = [0u8; FIELDS];
                    counts[field] = 1;
                    occ.push((term.to_owned(), i as u32, counts));
                }
            }
        }
        if let Some(st) = stats.get_mut(class_of(i)) {
            st[0] += 1;
            for k in 0..FIELDS {
                st[k + 1] = st[k + 1].saturating_add(u32::from(len[k]));
            }
        }
        lens.push(len);
        tags.extend(doc.tags.iter().map(|t| (t.clone(), i as u32)));
    }
    occ.sort_by(|a, b| (a.0.as_str(), a.1).cmp(&(b.0.as_str(), b.1)));
    tags.sort();
    tags.dedup();
    let terms = group(occ.into_iter().map(|(t, s, c)| (t, (s, c))));
    let tags = group(tags.into_iter().map(|(t, s)| (t, (s, [0; FIELDS]))));
    layout(n, &stats, &lens, &terms, &tags)
}

/// A dictionary's entries: each text with its postings (skill, counts per field).
type Entries = Vec<(String, Vec<(u32, [u8; FIELDS])>)>;

/// Pairs sorted by text, grouped by text.
fn group(pairs: impl Iterator<Item = (String, (u32, [u8; FIELDS]))>) -> Entries {
    let mut out: Entries = Vec::new();
    for (text, p) in pairs {
        match out.last_mut() {
            Some((t, list)) if *t == text => list.push(p),
            _ => out.push((text, vec![p])),
        }
    }
    out
}

/// A dictionary's three parts: its blocks, its front-coded entries and its postings' bits
/// (with each posting's counts when `with_counts`).
fn dictionary(entries: &Entries, skills: usize, with_counts: bool) -> [Vec<u8>; 3] {
    let (mut blocks, mut dict, mut bits) = (Vec::new(), Vec::new(), BitWriter::default());
    let mut prev = "";
    for (k, (text, list)) in entries.iter().enumerate() {
        let shared = if k.is_multiple_of(BLOCK) {
            put(&mut blocks, dict.len() as u32);
            put(&mut blocks, bits.bits as u32);
            0
        } else {
            prev.bytes()
                .zip(text.bytes())
                .take_while(|(a, b)| a == b)
                .count()
        };
        put_varint(&mut dict, shared as u32);
        put_varint(&mut dict, (text.len() - shared) as u32);
        dict.extend_from_slice(&text.as_bytes()[shared..]);
        put_varint(&mut dict, list.len() as u32);
        let (start, rk) = (bits.bits, rice_k(skills, list.len()));
        let mut last: Option<u32> = None;
        for &(skill, counts) in list {
            bits.rice(last.map_or(skill, |l| skill - l - 1), rk);
            if with_counts {
                codec::put_counts(&mut bits, counts);
            }
            last = Some(skill);
        }
        put_varint(&mut dict, (bits.bits - start) as u32);
        prev = text;
    }
    [blocks, dict, bits.bytes]
}

/// The section's bytes from its parts: the class statistics, each skill's field lengths,
/// and the term and tag dictionaries with their postings.
fn layout(
    n: usize,
    stats: &[[u32; FIELDS + 1]],
    lens: &[[u16; FIELDS]],
    terms: &Entries,
    tags: &Entries,
) -> Vec<u8> {
    let mut widths = [0u32; FIELDS];
    for l in lens {
        for (w, &v) in widths.iter_mut().zip(l) {
            *w = (*w).max(u16::BITS - v.leading_zeros());
        }
    }
    let mut packed = BitWriter::default();
    for l in lens {
        for (&w, &v) in widths.iter().zip(l) {
            packed.fixed(u32::from(v), w);
        }
    }
    let [term_blocks, term_dict, term_bits] = dictionary(terms, n, true);
    let [tag_blocks, tag_dict, tag_bits] = dictionary(tags, n, false);
    let mut out = Vec::new();
    for v in [
        n as u32,
        stats.len() as u32,
        terms.len() as u32,
        tags.len() as u32,
        widths[0] | widths[1] << 8 | widths[2] << 16 | widths[3] << 24,
        term_dict.len() as u32,
        term_bits.len() as u32,
        tag_dict.len() as u32,
        tag_bits.len() as u32,
    ] {
        put(&mut out, v);
    }
    for st in stats {
        st.iter().for_each(|&v| put(&mut out, v));
    }
    for part in [
        &packed.bytes,
        &term_blocks,
        &term_dict,
        &term_bits,
        &tag_blocks,
        &tag_dict,
        &tag_bits,
    ] {
        out.extend_from_slice(part);
    }
    out
}

/// One dictionary of a section (terms or tags), read in place.
#[derive(Debug, Clone, Copy)]
struct Dict<'a> {
    /// Entries.
    n: usize,
    blocks: &'a [u8],
    dict: &'a [u8],
    bits: &'a [u8],
    /// Whether each posting carries its field counts.
    with_counts: bool,
}

/// A dictionary entry: the number of its postings and where their bits lie.
#[derive(Debug, Clone, Copy)]
struct Entry {
    count: usize,
    start: u64,
    bits: u64,
}

impl<'a> Dict<'a> {
    /// Block `j`: where its first entry starts (byte) and its postings (bit).
    fn block(&self, j: usize) -> Option<(usize, u64)> {
        let at = j.checked_mul(8)?;
        Some((
            word(self.blocks, at)? as usize,
            u64::from(word(self.blocks, at + 4)?),
        ))
    }

    /// The entry at `*at` after the text `text` (which becomes its text), `*at` moved past
    /// it: the bytes it shares with `text`, and its postings' count and bit length.
    fn entry(&self, at: &mut usize, text: &mut Vec<u8>) -> Option<(usize, usize, u64)> {
        let shared = varint(self.dict, at)? as usize;
        let rest = varint(self.dict, at)? as usize;
        let suffix = self.dict.get(*at..at.checked_add(rest)?)?;
        *at += rest;
        if shared > text.len() {
            return None;
        }
        text.truncate(shared);
        text.extend_from_slice(suffix);
        let count = varint(self.dict, at)? as usize;
        let bits = u64::from(varint(self.dict, at)?);
        Some((shared, count, bits))
    }

    /// The entry of `key`: a binary search over the blocks' first entries, then a scan of
    /// one block.
    fn find(&self, key: &[u8]) -> Option<Entry> {
        let blocks = self.n.div_ceil(BLOCK);
        let first = |j: usize| {
            let (mut at, mut text) = (self.block(j)?.0, Vec::new());
            self.entry(&mut at, &mut text)?;
            Some(text)
        };
        // The last block whose first entry is at most `key`.
        let (mut lo, mut hi) = (0, blocks);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if first(mid)?.as_slice() <= key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let j = lo.checked_sub(1)?;
        let (mut at, mut start) = self.block(j)?;
        let mut text = Vec::new();
        for _ in 0..BLOCK.min(self.n - j * BLOCK) {
            let (_, count, bits) = self.entry(&mut at, &mut text)?;
            match text.as_slice().cmp(key) {
                std::cmp::Ordering::Less => start = start.checked_add(bits)?,
                std::cmp::Ordering::Equal => return Some(Entry { count, start, bits }),
                std::cmp::Ordering::Greater => return None,
            }
        }
        None
    }

    /// The postings of an entry (of a dictionary of `skills`), decoded in order.
    fn postings(&self, e: Option<Entry>, skills: usize) -> Postings<'a> {
        let e = e.unwrap_or(Entry {
            count: 0,
            start: 0,
            bits: 0,
        });
        Postings {
            r: Bits::new(self.bits, e.start, e.start.saturating_add(e.bits)),
            left: e.count,
            base: 0,
            k: rice_k(skills, e.count),
            with_counts: self.with_counts,
        }
    }

    /// Checks every entry once: blocks where their entries start, texts UTF-8, sorted and
    /// unique, each entry's postings exactly its bits, skills sorted and of the pack, counts
    /// not all zero; the parts used to their end.
    fn check(&self, skills: usize, what: &str) -> Result<(), String> {
        let bad = |why: &str| format!("the search {what} dictionary {why}");
        let (mut at, mut start) = (0usize, 0u64);
        let (mut text, mut prev) = (Vec::new(), Vec::new());
        for k in 0..self.n {
            if k.is_multiple_of(BLOCK) && self.block(k / BLOCK) != Some((at, start)) {
                return Err(bad("has a block that does not start at its entry"));
            }
            let (shared, count, bits) = self
                .entry(&mut at, &mut text)
                .ok_or_else(|| bad("has an entry outside its part"))?;
            std::str::from_utf8(&text).map_err(|_| bad("holds a text that is not UTF-8"))?;
            if (k.is_multiple_of(BLOCK) && shared != 0) || (k > 0 && prev >= text) || count == 0 {
                return Err(bad("is not sorted, unique and front-coded by block"));
            }
            let e = Entry { count, start, bits };
            let mut list = self.postings(Some(e), skills);
            let mut seen = 0;
            for p in list.by_ref() {
                if p.skill as usize >= skills || (self.with_counts && p.counts == [0; FIELDS]) {
                    return Err(bad("has a posting of no skill of the pack or of no count"));
                }
                seen += 1;
            }
            if seen != count || list.r.pos != start.saturating_add(bits) {
                return Err(bad("has postings that are not their count and bits"));
            }
            start += bits;
            prev.clone_from(&text);
        }
        if at != self.dict.len() || start.div_ceil(8) != self.bits.len() as u64 {
            return Err(bad("does not end where its parts end"));
        }
        Ok(())
    }
}

/// A term's or tag's postings, decoded one at a time; a damaged list ends early.
pub(crate) struct Postings<'a> {
    r: Bits<'a>,
    left: usize,
    /// The least skill the next posting can have: 0, then one past the last one.
    base: u64,
    k: u32,
    with_counts: bool,
}

impl Postings<'_> {
    /// The next posting from one 64-bit window, when it lies inside the range and fits in 56
    /// bits (the common case); else `None` and nothing read.
    #[inline(always)]
    fn fast(&mut self) -> Option<Posting> {
        if self.r.end.saturating_sub(self.r.pos) < 56 {
            return None;
        }
        let w = self.r.window();
        let q = w.trailing_zeros();
        let mut used = q + 1 + self.k;
        if used + 4 > 56 {
            return None;
        }
        let v = u64::from(q) << self.k | (w >> (q + 1)) & ((1u64 << self.k) - 1);
        let skill = u32::try_from(self.base + v).ok()?;
        // The counts as one word, a byte a field (built in a register, not byte by byte).
        let mut counts = 0u32;
        if self.with_counts {
            // The leading ones of the count code: 0 to 3 name one field, 4 the explicit form.
            let ones = (!(w >> used)).trailing_zeros();
            if ones < 4 {
                let field = [1, 0, 2, 3][ones as usize & 3];
                counts = 1 << (8 * field);
                used += ones + 1;
            } else {
                // Each field's count in unary, while the window holds it (`used` stays at
                // most 56, so every shift is inside the window).
                used += 4;
                for field in 0..FIELDS as u32 {
                    let zeros = (w >> used).trailing_zeros();
                    if used + zeros + 1 > 56 {
                        return None;
                    }
                    counts |= zeros << (8 * field);
                    used += zeros + 1;
                }
            }
        }
        self.r.pos += u64::from(used);
        Some(Posting {
            skill,
            counts: counts.to_le_bytes(),
        })
    }

    /// The next posting read code by code (near the range's end, or counts in the explicit
    /// form); `None` past the range.
    fn slow(&mut self) -> Option<Posting> {
        let v = self.r.rice(self.k)?;
        let skill = u32::try_from(self.base + u64::from(v)).ok()?;
        let counts = if self.with_counts {
            codec::counts(&mut self.r)?
        } else {
            [0; FIELDS]
        };
        Some(Posting { skill, counts })
    }

    /// How many postings are left to read.
    pub(crate) fn len(&self) -> usize {
        self.left
    }

    /// Calls `f` with each posting, in order: the loop of [`Iterator::next`], the common
    /// case read inline.
    pub(crate) fn each(mut self, mut f: impl FnMut(Posting)) {
        while self.left > 0 {
            let Some(p) = self.fast().or_else(|| self.slow()) else {
                return;
            };
            self.left -= 1;
            self.base = u64::from(p.skill) + 1;
            f(p);
        }
    }
}

impl Iterator for Postings<'_> {
    type Item = Posting;

    fn next(&mut self) -> Option<Posting> {
        if self.left == 0 {
            return None;
        }
        match self.fast().or_else(|| self.slow()) {
            Some(p) => {
                self.left -= 1;
                self.base = u64::from(p.skill) + 1;
                Some(p)
            }
            None => {
                self.left = 0;
                None
            }
        }
    }
}

/// A search section, read in place: where each part lies, checked to fit when it is opened;
/// each record read, bounds-checked, when it is used.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Index<'a> {
    b: &'a [u8],
    pub(crate) skills: usize,
    pub(crate) classes: usize,
    widths: [u32; FIELDS],
    /// The sum of `widths`: the bits of one skill's lengths.
    per_skill: u64,
    at_stats: usize,
    lens: &'a [u8],
    terms: Dict<'a>,
    tags: Dict<'a>,
}

/// One posting: a skill and the term's count in each of its fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Posting {
    pub(crate) skill: u32,
    pub(crate) counts: [u8; FIELDS],
}

impl<'a> Index<'a> {
    /// Opens a section: its header, and every part's place, checked to fit the section
    /// exactly (work independent of its size). An error names what does not fit.
    pub(crate) fn open(b: &'a [u8]) -> Result<Index<'a>, String> {
        let h = |k: usize| {
            word(b, 4 * k)
                .map(|v| v as usize)
                .ok_or("the search section is shorter than its header")
        };
        let (skills, classes, terms, tags, w) = (h(0)?, h(1)?, h(2)?, h(3)?, h(4)?);
        if classes == 0 || classes > crate::access::MAX_PRIVATE_CLASSES + 1 {
            return Err(format!(
                "the search section has {classes} audience classes, not 1 to 65"
            ));
        }
        let widths = [w & 0xff, w >> 8 & 0xff, w >> 16 & 0xff, w >> 24].map(|v| v as u32);
        if widths.iter().any(|&v| v > u16::BITS) {
            return Err("the search section's field length widths are not 0 to 16 bits".into());
        }
        let per_skill: u64 = widths.iter().map(|&v| u64::from(v)).sum();
        // In u64, so that no count a hostile section gives can overflow.
        let parts: [u64; 10] = [
            4 * HEADER as u64,
            4 * (FIELDS as u64 + 1) * classes as u64,
            (skills as u64 * per_skill).div_ceil(8),
            8 * (terms as u64).div_ceil(BLOCK as u64),
            h(5)? as u64,
            h(6)? as u64,
            8 * (tags as u64).div_ceil(BLOCK as u64),
            h(7)? as u64,
            h(8)? as u64,
            0,
        ];
        let mut at = [0usize; 10];
        let mut pos = 0u64;
        for (k, len) in parts.iter().enumerate().take(9) {
            pos += len;
            at[k + 1] = usize::try_from(pos).map_err(|_| "the search section is too large")?;
        }
        if pos != b.len() as u64 {
            return Err(format!(
                "the search section is {} bytes, its header says {pos}",
                b.len()
            ));
        }
        let part = |k: usize| b.get(at[k]..at[k + 1]).unwrap_or_default();
        Ok(Index {
            b,
            skills,
            classes,
            widths,
            per_skill,
            at_stats: at[1],
            lens: part(2),
            terms: Dict {
                n: terms,
                blocks: part(3),
                dict: part(4),
                bits: part(5),
                with_counts: true,
            },
            tags: Dict {
                n: tags,
                blocks: part(6),
                dict: part(7),
                bits: part(8),
                with_counts: false,
            },
        })
    }

    /// Class `k`'s skills and summed field lengths.
    pub(crate) fn class_stats(&self, k: usize) -> [u64; FIELDS + 1] {
        let mut out = [0u64; FIELDS + 1];
        if k < self.classes {
            for (j, slot) in out.iter_mut().enumerate() {
                *slot =
                    word(self.b, self.at_stats + 4 * ((FIELDS + 1) * k + j)).map_or(0, u64::from);
            }
        }
        out
    }

    /// The length of each field of skill `i`.
    #[inline]
    pub(crate) fn lens(&self, i: usize) -> [u32; FIELDS] {
        let per_skill = self.per_skill;
        let start = (i as u64).saturating_mul(per_skill);
        let r = Bits::new(self.lens, start, start.saturating_add(per_skill));
        if per_skill <= 56 && r.end == start.saturating_add(per_skill) {
            // All four in one window.
            let mut w = r.window();
            return self.widths.map(|n| {
                let v = (w & ((1u64 << n) - 1)) as u32;
                w >>= n;
                v
            });
        }
        let mut r = r;
        self.widths.map(|w| r.fixed(w).unwrap_or(0))
    }

    /// The length of field `f` of skill `i`.
    #[inline]
    pub(crate) fn len(&self, i: usize, f: usize) -> u32 {
        let Some(&n) = self.widths.get(f) else {
            return 0;
        };
        let before: u64 = self.widths.iter().take(f).map(|&v| u64::from(v)).sum();
        let start = (i as u64)
            .saturating_mul(self.per_skill)
            .saturating_add(before);
        let mut r = Bits::new(self.lens, start, start.saturating_add(u64::from(n)));
        if r.end == start.saturating_add(u64::from(n)) {
            return (r.window() & ((1u64 << n) - 1)) as u32;
        }
        r.fixed(n).unwrap_or(0)
    }

    /// The postings of `term` (none for a term the index does not hold).
    pub(crate) fn postings(&self, term: &str) -> Postings<'a> {
        self.terms
            .postings(self.terms.find(term.as_bytes()), self.skills)
    }

    /// The skills of `tag`, sorted (none for a tag the index does not hold).
    pub(crate) fn tagged(&self, tag: &str) -> Vec<u32> {
        self.tags
            .postings(self.tags.find(tag.as_bytes()), self.skills)
            .map(|p| p.skill)
            .collect()
    }

    /// Checks every record once (a pack from elsewhere): `skills` and `classes` as the pack's
    /// tables give them, each class's statistics the sums of its skills' lengths
    /// (`class_of` gives a skill's class), dictionaries sorted, unique, UTF-8 and exactly
    /// covering their postings, postings sorted by skill and inside the skills table.
    pub(crate) fn check(
        &self,
        skills: usize,
        classes: usize,
        class_of: impl Fn(usize) -> usize,
    ) -> Result<(), String> {
        if self.skills != skills || self.classes != classes {
            return Err(format!(
                "the search section describes {} skills in {} audience classes; the pack has {skills} in {classes}",
                self.skills, self.classes
            ));
        }
        let mut want = vec![[0u64; FIELDS + 1]; classes];
        for i in 0..skills {
            let st = want
                .get_mut(class_of(i))
                .ok_or("a skill's audience class is out of range")?;
            st[0] += 1;
            for (k, l) in self.lens(i).iter().enumerate() {
                st[k + 1] += u64::from(*l);
            }
        }
        if (0..classes).any(|k| Some(&self.class_stats(k)) != want.get(k)) {
            return Err("the search section's class statistics are not the sums of its skills' field lengths".into());
        }
        self.terms.check(skills, "term")?;
        self.tags.check(skills, "tag")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every posting, count and length the writer was given is read back as it was (the
    /// ranking's inputs, so its scores, are those of the fixed-width layout), across blocks,
    /// with saturated counts and lengths, and the full check accepts the section.
    #[test]
    fn the_compact_section_reads_back_every_posting_count_and_length() {
        let skills = 300usize;
        let lens: Vec<[u16; FIELDS]> = (0..skills)
            .map(|i| {
                [
                    i as u16 % 4,
                    (i * 7) as u16 % 300,
                    0,
                    if i == 5 { u16::MAX } else { 3 },
                ]
            })
            .collect();
        let mut stats = vec![[0u32; FIELDS + 1]; 2];
        for (i, l) in lens.iter().enumerate() {
            let st = &mut stats[usize::from(i % 3 == 0)];
            st[0] += 1;
            for k in 0..FIELDS {
                st[k + 1] += u32::from(l[k]);
            }
        }
        let mut terms: Entries = Vec::new();
        for t in 0..40usize {
            let list = (0..skills)
                .filter(|s| (s * 31 + t) % (t + 2) == 0)
                .map(|s| {
                    let c = match s % 6 {
                        0 => [0, 1, 0, 0],
                        1 => [1, 0, 0, 0],
                        2 => [0, 0, 1, 0],
                        3 => [0, 0, 0, 1],
                        // The explicit form, within one window and beyond it.
                        4 => [0, 2, (t % 2) as u8, 1],
                        _ => [2, 255, 0, (t % 3) as u8],
                    };
                    (s as u32, c)
                })
                .collect::<Vec<_>>();
            if !list.is_empty() {
                terms.push((format!("term{t:03}"), list));
            }
        }
        let tags: Entries = vec![
            ("alpha".into(), vec![(0, [0; FIELDS]), (299, [0; FIELDS])]),
            ("beta".into(), (0..300).map(|s| (s, [0; FIELDS])).collect()),
        ];
        let bytes = layout(skills, &stats, &lens, &terms, &tags);
        let ix = Index::open(&bytes).expect("opens");
        for (text, list) in &terms {
            let read: Vec<(u32, [u8; FIELDS])> =
                ix.postings(text).map(|p| (p.skill, p.counts)).collect();
            assert_eq!(&read, list, "{text}");
        }
        assert_eq!(ix.postings("term040").count(), 0);
        assert_eq!(ix.postings("a").count(), 0);
        assert_eq!(ix.tagged("alpha"), vec![0, 299]);
        assert_eq!(ix.tagged("beta").len(), 300);
        assert!(ix.tagged("gamma").is_empty());
        for (i, l) in lens.iter().enumerate() {
            assert_eq!(ix.lens(i), l.map(u32::from));
        }
        ix.check(skills, 2, |i| usize::from(i % 3 == 0))
            .expect("the full check accepts it");
    }
}
