//! Spliced texts: a JSON fragment stored as the list of heap ranges whose bytes, one after
//! the other, are the fragment (docs/pack-format.md#spliced-texts). The writer renders each
//! fragment with the compiler's own functions, then finds its bytes in what the pack already
//! holds (the skill's entry, its archive digest, earlier fixed parts), so a reply made of
//! them is the same bytes as before, written by copying ranges: no JSON parsed or written at
//! request time. The writer checks that the pieces give the fragment back before it keeps
//! them.

use super::format::Span;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The length of one piece in the heap: its range, offset then length (two `u32`s).
pub(crate) const PIECE_LEN: usize = 8;

/// The shortest match worth a piece of its own (shorter runs stay in a literal).
const MIN_MATCH: usize = 4;

/// The most positions kept per 4-byte gram (the first ones): bounds the work per byte.
const MAX_CANDIDATES: usize = 8;

/// A fragment spliced into more pieces than this is written whole for later ones to match.
const WHOLE_AFTER: usize = 3;

/// The most bytes of whole fragments kept per kind for later ones to match: bounds the
/// writer's memory and the pack's cost of them, whatever the catalog.
const MAX_TEMPLATE: usize = 4 * 1024;

/// Where 4-byte grams occur in the heap.
#[derive(Default)]
pub(super) struct Grams {
    at: HashMap<[u8; 4], Candidates, BuildHasherDefault<GramHasher>>,
    indexed: usize,
}

/// The first [`MAX_CANDIDATES`] positions of one gram, inline (no allocation per gram).
#[derive(Default)]
struct Candidates {
    at: [u32; MAX_CANDIDATES],
    len: u8,
}

/// The hash of a 4-byte gram: its bytes as a number, multiplied by an odd constant and folded
/// (Fibonacci hashing). The grams are the catalog's own bytes, read at build time from the
/// publisher's folder, so a keyed hash's resistance to chosen collisions buys nothing here,
/// and SipHash was most of the pack writer's time.
#[derive(Default)]
struct GramHasher(u64);

impl Hasher for GramHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0 << 8 | u64::from(b);
        }
    }

    fn finish(&self) -> u64 {
        let h = self.0.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^ (h >> 29)
    }
}

impl Grams {
    /// Indexes the bytes `heap[s]`.
    pub(super) fn add(&mut self, heap: &[u8], s: Span) {
        let start = s.off as usize;
        let Some(bytes) = heap.get(start..start + s.len as usize) else {
            return;
        };
        self.indexed += bytes.len();
        for (k, w) in bytes.windows(4).enumerate() {
            let list = self.at.entry([w[0], w[1], w[2], w[3]]).or_default();
            if usize::from(list.len) < MAX_CANDIDATES {
                list.at[usize::from(list.len)] = (start + k) as u32;
                list.len += 1;
            }
        }
    }

    fn candidates(&self, gram: &[u8]) -> &[u32] {
        match <[u8; 4]>::try_from(gram) {
            Ok(g) => self.at.get(&g).map_or(&[], |c| &c.at[..usize::from(c.len)]),
            Err(_) => &[],
        }
    }
}

/// What the writer keeps across fragments: the literal runs written so far (each once), and
/// per kind of fragment (a `resources/list` item, a directory child, …) an index of a few
/// whole fragments of that kind, for later ones to find their fixed parts in.
#[derive(Default)]
pub(super) struct Splicer {
    literals: HashMap<Vec<u8>, Span>,
    templates: HashMap<&'static str, Grams>,
}

impl Splicer {
    /// Writes `text` as a spliced text: its pieces, found in `local` (the ranges of this
    /// skill's own stored bytes), the literal runs already written, or new literal runs, and
    /// returns the range of the list of pieces. Appends to `heap` only.
    /// Every piece starts and ends on a character boundary of `text`, so each piece is UTF-8
    /// on its own.
    pub(super) fn splice(
        &mut self,
        heap: &mut Vec<u8>,
        kind: &'static str,
        local: &Grams,
        text: &str,
    ) -> Span {
        let shared = self.templates.remove(kind).unwrap_or_default();
        let mut pieces: Vec<Span> = Vec::new();
        let mut literal_from = 0;
        let mut p = 0;
        let bytes = text.as_bytes();
        while p < text.len() {
            let (at, mut len) = if text.is_char_boundary(p) {
                longest(heap, local, &shared, &bytes[p..])
            } else {
                (0, 0)
            };
            while len > 0 && !text.is_char_boundary(p + len) {
                len -= 1;
            }
            if len < MIN_MATCH {
                p += 1;
                continue;
            }
            if literal_from < p {
                let lit = self.literal(heap, &bytes[literal_from..p]);
                push_piece(&mut pieces, lit);
            }
            push_piece(
                &mut pieces,
                Span {
                    off: at,
                    len: len as u32,
                },
            );
            p += len;
            literal_from = p;
        }
        if literal_from < text.len() {
            let lit = self.literal(heap, &bytes[literal_from..]);
            push_piece(&mut pieces, lit);
        }
        // A fragment of a shape not seen before (many pieces) is written whole once more, so
        // that the next fragments of its shape find their fixed parts in one run.
        let mut shared = shared;
        if pieces.len() > WHOLE_AFTER && shared.indexed < MAX_TEMPLATE {
            let s = Span {
                off: heap.len() as u32,
                len: bytes.len() as u32,
            };
            heap.extend_from_slice(bytes);
            shared.add(heap, s);
        }
        self.templates.insert(kind, shared);
        let mut list = Vec::with_capacity(pieces.len() * PIECE_LEN);
        for s in &pieces {
            list.extend_from_slice(&s.off.to_le_bytes());
            list.extend_from_slice(&s.len.to_le_bytes());
        }
        debug_assert_eq!(expand(heap, &list).as_deref(), Some(bytes));
        let off = heap.len() as u32;
        heap.extend_from_slice(&list);
        Span {
            off,
            len: list.len() as u32,
        }
    }

    /// The range of the literal `bytes`: the one written before, or a new one.
    fn literal(&mut self, heap: &mut Vec<u8>, bytes: &[u8]) -> Span {
        if let Some(&s) = self.literals.get(bytes) {
            return s;
        }
        let s = Span {
            off: heap.len() as u32,
            len: bytes.len() as u32,
        };
        heap.extend_from_slice(bytes);
        self.literals.insert(bytes.to_vec(), s);
        s
    }
}

/// The longest match of a prefix of `rest` in the heap, among the positions the indexes give
/// for its first 4 bytes: (offset, length).
fn longest(heap: &[u8], local: &Grams, shared: &Grams, rest: &[u8]) -> (u32, usize) {
    let Some(gram) = rest.get(..4) else {
        return (0, 0);
    };
    let mut best = (0, 0);
    for &at in local.candidates(gram).iter().chain(shared.candidates(gram)) {
        let from = heap.get(at as usize..).unwrap_or(&[]);
        let len = from.iter().zip(rest).take_while(|(a, b)| a == b).count();
        if len > best.1 {
            best = (at, len);
        }
    }
    best
}

/// Appends `s` to `pieces`, joined to the last piece when it continues it in the heap.
fn push_piece(pieces: &mut Vec<Span>, s: Span) {
    if let Some(last) = pieces.last_mut()
        && last.off.checked_add(last.len) == Some(s.off)
    {
        last.len += s.len;
        return;
    }
    pieces.push(s);
}

/// The pieces of a list of pieces (`list`, its bytes), in order; a trailing part shorter than
/// a piece is not one.
pub(crate) fn pieces(list: &[u8]) -> impl Iterator<Item = Span> + '_ {
    list.chunks_exact(PIECE_LEN).map(|p| Span {
        off: u32::from_le_bytes([p[0], p[1], p[2], p[3]]),
        len: u32::from_le_bytes([p[4], p[5], p[6], p[7]]),
    })
}

/// The bytes a spliced text stands for, its pieces read from `heap`: `None` when its list is
/// not whole pieces or a piece lies outside the heap.
pub(crate) fn expand(heap: &[u8], list: &[u8]) -> Option<Vec<u8>> {
    if !list.len().is_multiple_of(PIECE_LEN) {
        return None;
    }
    let mut out = Vec::with_capacity(expanded_len(list) as usize);
    for s in pieces(list) {
        let start = s.off as usize;
        out.extend_from_slice(heap.get(start..start.checked_add(s.len as usize)?)?);
    }
    Some(out)
}

/// The length of the text a list of pieces stands for (the sum of its pieces' lengths).
pub(crate) fn expanded_len(list: &[u8]) -> u64 {
    pieces(list).map(|s| u64::from(s.len)).sum()
}
