//! A JSON fragment the pack holds as a spliced text ([`crate::pack`], docs/pack-format.md):
//! the ranges of bytes the pack already holds (a skill's entry, its archive digest, fixed
//! parts written once) that, one after the other, are the fragment. Writing it copies those
//! ranges: nothing is parsed or rendered.

use crate::pack::splice::{expanded_len, pieces};
use crate::pack::{PackError, PackErrorKind};

/// A JSON fragment of the pack, read in place as its pieces (see the module).
///
/// ```
/// use skills_edge::catalog::{compile::SourceTree, Catalog};
/// let mut tree = SourceTree::default();
/// tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n");
/// let catalog = Catalog::compile(tree, None).unwrap();
/// let item = catalog.skill_at(0).unwrap().list_item_json;
/// assert!(item.to_string().starts_with(r#"{"uri":"skill://hello/SKILL.md""#));
/// assert!(item == item.to_string(), "compares as the text it stands for");
/// ```
#[derive(Clone, Copy)]
pub struct Spliced<'a> {
    heap: &'a [u8],
    /// The list of pieces.
    list: &'a [u8],
}

impl<'a> Spliced<'a> {
    /// The fragment whose list of pieces is `list`, its pieces in `heap`.
    pub(crate) fn new(heap: &'a [u8], list: &'a [u8]) -> Spliced<'a> {
        Spliced { heap, list }
    }

    /// The length of the fragment in bytes.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn len(&self) -> usize {
        usize::try_from(expanded_len(self.list)).unwrap_or(usize::MAX)
    }

    /// Whether the fragment is empty.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Appends the fragment to `out`. `Err` when the pack is damaged: a piece lies outside
    /// it or is not UTF-8, or the pieces stand for more bytes than a pack of its size holds
    /// (`out` then holds a part of the fragment): [`PackErrorKind::DamagedRecord`].
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn push_to(&self, out: &mut String) -> Result<(), PackError> {
        let damaged = |why: &str| Err(PackError::new(PackErrorKind::DamagedRecord, why));
        if !self
            .list
            .len()
            .is_multiple_of(crate::pack::splice::PIECE_LEN)
        {
            return damaged("its list of pieces is not whole");
        }
        let len = expanded_len(self.list);
        let most = (self.heap.len() as u64)
            .saturating_mul(16)
            .saturating_add(1 << 20);
        if len > most {
            return damaged("its pieces stand for more bytes than the pack holds");
        }
        out.reserve(len as usize);
        for p in pieces(self.list) {
            let start = p.off as usize;
            let Some(bytes) = start
                .checked_add(p.len as usize)
                .and_then(|end| self.heap.get(start..end))
            else {
                return damaged("a piece lies outside the pack");
            };
            match std::str::from_utf8(bytes) {
                Ok(s) => out.push_str(s),
                Err(_) => return damaged("a piece is not UTF-8"),
            }
        }
        Ok(())
    }

    /// The fragment as a string; `Err` as [`Spliced::push_to`].
    pub(crate) fn assembled(&self) -> Result<String, PackError> {
        let mut s = String::new();
        self.push_to(&mut s)?;
        Ok(s)
    }
}

impl std::fmt::Display for Spliced<'_> {
    /// The fragment (a damaged pack's as far as it reads).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut s = String::new();
        let _ = self.push_to(&mut s);
        f.write_str(&s)
    }
}

impl std::fmt::Debug for Spliced<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.to_string())
    }
}

impl PartialEq<str> for Spliced<'_> {
    fn eq(&self, other: &str) -> bool {
        self.assembled().is_ok_and(|s| s == other)
    }
}

impl PartialEq<&str> for Spliced<'_> {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

impl PartialEq<String> for Spliced<'_> {
    fn eq(&self, other: &String) -> bool {
        *self == **other
    }
}

impl PartialEq<Spliced<'_>> for String {
    fn eq(&self, other: &Spliced<'_>) -> bool {
        *other == **self
    }
}

impl PartialEq<Spliced<'_>> for &str {
    fn eq(&self, other: &Spliced<'_>) -> bool {
        *other == **self
    }
}

impl PartialEq for Spliced<'_> {
    fn eq(&self, other: &Spliced<'_>) -> bool {
        self.assembled().ok() == other.assembled().ok()
    }
}
