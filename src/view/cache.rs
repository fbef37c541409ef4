//! What a catalog assembles on first use and then keeps: the anonymous caller's catalog-wide
//! replies (the mirror index, the fallback's prompts and `list_skills` result). The pack holds
//! each of them as the items of its skills; loading the pack assembles nothing, and each is
//! assembled at most once.

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
}
