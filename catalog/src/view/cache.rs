//! What a catalog assembles on first use and then keeps: the anonymous caller's catalog-wide
//! replies (the mirror index, the fallback's prompts and `list_skills` result) and directory
//! children as text. The pack holds each of them as the items of its skills; loading the pack
//! assembles nothing, and each is assembled at most once.

use std::sync::OnceLock;

/// The texts a [`super::Catalog`] keeps once assembled.
#[derive(Default)]
pub(super) struct Cache {
    /// The anonymous caller's `index.json`.
    pub(super) mirror_index: OnceLock<String>,
    /// The anonymous caller's `prompts` array.
    pub(super) prompts: OnceLock<String>,
    /// The anonymous caller's `list_skills` members.
    pub(super) list_skills: OnceLock<String>,
    /// Each directory child's JSON, by its index in the children table (the table of slots is
    /// made on the first use of one).
    pub(super) children: OnceLock<Box<[OnceLock<Box<str>>]>>,
}

impl Cache {
    /// The text of child `i` of `n`, assembled by `make` on first use.
    pub(super) fn child(&self, i: usize, n: usize, make: impl FnOnce() -> String) -> Option<&str> {
        let slots = self
            .children
            .get_or_init(|| (0..n).map(|_| OnceLock::new()).collect());
        Some(slots.get(i)?.get_or_init(|| make().into_boxed_str()))
    }
}
