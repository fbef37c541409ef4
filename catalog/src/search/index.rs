//! The search section's layout (section 21 of a pack, optional): its writer and its one
//! reader. Every number is a little-endian `u32`.
//!
//! | part | what it holds |
//! |---|---|
//! | header | 7 words: skills, audience classes (the public one and each private one), terms, tags, postings, tag postings, string bytes |
//! | class statistics | per class: its skills, then the summed length (in terms) of each field |
//! | field lengths | per skill: 2 words, the length of each field as a `u16` (saturating), name first |
//! | terms | per term, sorted by its bytes: its text (offset, length into the strings) and its postings (first, count) |
//! | tags | per tag, sorted: its text (offset, length) and its tag postings (first, count) |
//! | postings | per posting: the skill, then the term's count in each field as a byte (saturating), name in the low byte |
//! | tag postings | per tag posting: the skill |
//! | strings | the terms' and the tags' bytes |
//!
//! Postings and tag postings of one term or tag are sorted by skill, each skill once. The
//! statistics are per audience class so that a caller's figures are the sums over the classes
//! it holds: those of a catalog of the skills it sees, and of nothing else.

use super::text::{headings, tags_of, terms};
use crate::compile::Compiled;

/// The fields indexed, in their order in the section.
pub(crate) const FIELDS: usize = 4;
/// Words of the header.
const HEADER: usize = 7;

fn word(b: &[u8], at: usize) -> Option<u32> {
    let s = b.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

fn put(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// The text of each field of a skill: its name (hyphens cut words), description, tags and
/// the headings of its `SKILL.md`.
fn fields(c: &Compiled, i: usize) -> [Vec<String>; FIELDS] {
    let Some(s) = c.skills.get(i) else {
        return Default::default();
    };
    // Files are sorted by URI.
    let skill_md = c
        .files
        .binary_search_by(|f| f.uri.as_str().cmp(s.uri.as_str()))
        .ok()
        .and_then(|f| c.files.get(f))
        .and_then(|f| std::str::from_utf8(&f.bytes).ok())
        .unwrap_or("");
    [
        terms(&s.name),
        terms(&s.description),
        terms(&tags_of(&s.frontmatter).join(" ")),
        terms(&headings(skill_md)),
    ]
}

/// The search section of a compiled catalog; `class_of` gives each skill's audience class
/// (0 public) and `classes` how many there are, the public one included.
pub(crate) fn encode(c: &Compiled, classes: usize, class_of: impl Fn(usize) -> usize) -> Vec<u8> {
    let n = c.skills.len();
    // (term, skill, counts per field), sorted by term then skill.
    let mut occ: Vec<(String, u32, [u8; FIELDS])> = Vec::new();
    let mut lens = Vec::with_capacity(n);
    let mut stats = vec![[0u32; FIELDS + 1]; classes.max(1)];
    let mut tags: Vec<(String, u32)> = Vec::new();
    for i in 0..n {
        let f = fields(c, i);
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
        if let Some(s) = c.skills.get(i) {
            tags.extend(tags_of(&s.frontmatter).into_iter().map(|t| (t, i as u32)));
        }
    }
    occ.sort_by(|a, b| (a.0.as_str(), a.1).cmp(&(b.0.as_str(), b.1)));
    tags.sort();
    tags.dedup();
    layout(n, &stats, &lens, &occ, &tags)
}

/// The section's bytes from its parts: each term's occurrences (sorted by term, then skill)
/// and each tag's skills (sorted), each dictionary written with its postings.
fn layout(
    n: usize,
    stats: &[[u32; FIELDS + 1]],
    lens: &[[u16; FIELDS]],
    occ: &[(String, u32, [u8; FIELDS])],
    tags: &[(String, u32)],
) -> Vec<u8> {
    let mut strings = Vec::new();
    let mut term_recs = Vec::new();
    let mut postings = Vec::new();
    for (k, (term, skill, counts)) in occ.iter().enumerate() {
        if k == 0 || occ[k - 1].0 != *term {
            term_recs.push([
                strings.len() as u32,
                term.len() as u32,
                (postings.len() / 8) as u32,
                0,
            ]);
            strings.extend_from_slice(term.as_bytes());
        }
        if let Some(r) = term_recs.last_mut() {
            r[3] += 1;
        }
        put(&mut postings, *skill);
        postings.extend_from_slice(counts);
    }
    let mut tag_recs = Vec::new();
    let mut tag_postings = Vec::new();
    for (k, (tag, skill)) in tags.iter().enumerate() {
        if k == 0 || tags[k - 1].0 != *tag {
            tag_recs.push([
                strings.len() as u32,
                tag.len() as u32,
                (tag_postings.len() / 4) as u32,
                0,
            ]);
            strings.extend_from_slice(tag.as_bytes());
        }
        if let Some(r) = tag_recs.last_mut() {
            r[3] += 1;
        }
        put(&mut tag_postings, *skill);
    }
    let mut out = Vec::new();
    for v in [
        n as u32,
        stats.len() as u32,
        term_recs.len() as u32,
        tag_recs.len() as u32,
        (postings.len() / 8) as u32,
        (tag_postings.len() / 4) as u32,
        strings.len() as u32,
    ] {
        put(&mut out, v);
    }
    for st in stats {
        st.iter().for_each(|&v| put(&mut out, v));
    }
    for l in lens {
        put(&mut out, u32::from(l[0]) | (u32::from(l[1]) << 16));
        put(&mut out, u32::from(l[2]) | (u32::from(l[3]) << 16));
    }
    for r in term_recs.iter().chain(&tag_recs) {
        r.iter().for_each(|&v| put(&mut out, v));
    }
    out.extend_from_slice(&postings);
    out.extend_from_slice(&tag_postings);
    out.extend_from_slice(&strings);
    out
}

/// A search section, read in place: where each part lies, checked to fit when it is opened;
/// each record read, bounds-checked, when it is used.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Index<'a> {
    b: &'a [u8],
    pub(crate) skills: usize,
    pub(crate) classes: usize,
    terms: usize,
    tags: usize,
    postings: usize,
    tag_postings: usize,
    at_stats: usize,
    at_lens: usize,
    at_terms: usize,
    at_tags: usize,
    at_postings: usize,
    at_tag_postings: usize,
    at_strings: usize,
}

/// One posting: a skill and the term's count in each of its fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Posting {
    pub(crate) skill: u32,
    pub(crate) counts: [u8; FIELDS],
}

/// A dictionary entry: its text and the range of its postings.
#[derive(Debug, Clone, Copy)]
struct Entry<'a> {
    text: &'a [u8],
    first: usize,
    count: usize,
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
        let (skills, classes, terms, tags, postings, tag_postings, strings) =
            (h(0)?, h(1)?, h(2)?, h(3)?, h(4)?, h(5)?, h(6)?);
        if classes == 0 || classes > crate::access::MAX_PRIVATE_CLASSES + 1 {
            return Err(format!(
                "the search section has {classes} audience classes, not 1 to 65"
            ));
        }
        // In u64, so that no count a hostile section gives can overflow.
        let parts: [u64; 7] = [
            4 * HEADER as u64,
            4 * (FIELDS as u64 + 1) * classes as u64,
            8 * skills as u64,
            16 * terms as u64,
            16 * tags as u64,
            8 * postings as u64,
            4 * tag_postings as u64,
        ];
        let mut at = [0usize; 8];
        let mut pos = 0u64;
        for (k, len) in parts.iter().enumerate() {
            pos += len;
            at[k + 1] = usize::try_from(pos).map_err(|_| "the search section is too large")?;
        }
        if pos + strings as u64 != b.len() as u64 {
            return Err(format!(
                "the search section is {} bytes, its header says {}",
                b.len(),
                pos + strings as u64
            ));
        }
        Ok(Index {
            b,
            skills,
            classes,
            terms,
            tags,
            postings,
            tag_postings,
            at_stats: at[1],
            at_lens: at[2],
            at_terms: at[3],
            at_tags: at[4],
            at_postings: at[5],
            at_tag_postings: at[6],
            at_strings: at[7],
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
    pub(crate) fn lens(&self, i: usize) -> [u32; FIELDS] {
        let w = |j: usize| word(self.b, self.at_lens + 8 * i + 4 * j).unwrap_or(0);
        let (a, b) = (w(0), w(1));
        [a & 0xffff, a >> 16, b & 0xffff, b >> 16]
    }

    fn entry(&self, at: usize, k: usize, postings: usize) -> Option<Entry<'a>> {
        let w = |j: usize| word(self.b, at + 16 * k + 4 * j).map(|v| v as usize);
        let (off, len, first, count) = (w(0)?, w(1)?, w(2)?, w(3)?);
        let start = self.at_strings.checked_add(off)?;
        let text = self.b.get(start..start.checked_add(len)?)?;
        (first.checked_add(count)? <= postings).then_some(Entry { text, first, count })
    }

    /// Binary search of a dictionary of `n` entries at `at` for `key`.
    fn find(&self, at: usize, n: usize, postings: usize, key: &[u8]) -> Option<Entry<'a>> {
        let (mut lo, mut hi) = (0, n);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let e = self.entry(at, mid, postings)?;
            match e.text.cmp(key) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(e),
            }
        }
        None
    }

    fn posting(&self, k: usize) -> Option<Posting> {
        let at = self.at_postings + 8 * k;
        let skill = word(self.b, at)?;
        let c = self.b.get(at + 4..at + 8)?;
        Some(Posting {
            skill,
            counts: [c[0], c[1], c[2], c[3]],
        })
    }

    /// The postings of `term` (none for a term the index does not hold).
    pub(crate) fn postings(&self, term: &str) -> impl Iterator<Item = Posting> + '_ {
        let e = self.find(self.at_terms, self.terms, self.postings, term.as_bytes());
        let range = e.map_or(0..0, |e| e.first..e.first + e.count);
        range.map_while(|k| self.posting(k))
    }

    /// The skills of `tag`, sorted (none for a tag the index does not hold).
    pub(crate) fn tagged(&self, tag: &str) -> Vec<u32> {
        let e = self.find(self.at_tags, self.tags, self.tag_postings, tag.as_bytes());
        let range = e.map_or(0..0, |e| e.first..e.first + e.count);
        range
            .map_while(|k| word(self.b, self.at_tag_postings + 4 * k))
            .collect()
    }

    /// Checks every record once (a pack from elsewhere): `skills` and `classes` as the pack's
    /// tables give them, each class's statistics the sums of its skills' lengths
    /// (`class_of` gives a skill's class), dictionaries sorted, unique, UTF-8 and covering
    /// their postings in order, postings sorted by skill and inside the skills table.
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
        let dict = |at: usize,
                    n: usize,
                    postings: usize,
                    what: &str|
         -> Result<Vec<(usize, usize)>, String> {
            let mut prev: Option<&[u8]> = None;
            let mut next = 0;
            let mut out = Vec::with_capacity(n);
            for k in 0..n {
                let e = self
                    .entry(at, k, postings)
                    .ok_or(format!("a search {what} lies outside the section"))?;
                std::str::from_utf8(e.text).map_err(|_| format!("a search {what} is not UTF-8"))?;
                if prev.is_some_and(|p| p >= e.text) || e.first != next || e.count == 0 {
                    return Err(format!("the search {what}s are not sorted, unique and in the order of their postings"));
                }
                prev = Some(e.text);
                next = e.first + e.count;
                out.push((e.first, e.count));
            }
            if next != postings {
                return Err(format!("the search {what}s do not cover their postings"));
            }
            Ok(out)
        };
        for (first, count) in dict(self.at_terms, self.terms, self.postings, "term")? {
            let mut prev = None;
            for k in first..first + count {
                let p = self
                    .posting(k)
                    .ok_or("a search posting lies outside the section")?;
                if p.skill as usize >= skills || prev.is_some_and(|q| q >= p.skill) {
                    return Err("a term's postings are not sorted skills of the pack".into());
                }
                prev = Some(p.skill);
            }
        }
        for (first, count) in dict(self.at_tags, self.tags, self.tag_postings, "tag")? {
            let mut prev = None;
            for k in first..first + count {
                let s = word(self.b, self.at_tag_postings + 4 * k)
                    .ok_or("a tag posting lies outside the section")?;
                if s as usize >= skills || prev.is_some_and(|q| q >= s) {
                    return Err("a tag's postings are not sorted skills of the pack".into());
                }
                prev = Some(s);
            }
        }
        Ok(())
    }
}
