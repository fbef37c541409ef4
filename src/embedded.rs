//! The catalog compiled by `build.rs` from `skills/` (or `SKILLS_DIR`) and embedded in this
//! binary. The bytes served and the digests published come from the same build-time read.

use crate::pack::PackError;
use crate::view::Catalog;
use std::sync::{Arc, OnceLock};

/// The embedded pack, as written by `build.rs`.
#[cfg_attr(feature = "internals", visibility::make(pub))]
pub(crate) static PACK: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/catalog.pack"));

static CATALOG: OnceLock<Result<Arc<Catalog>, PackError>> = OnceLock::new();

/// The embedded catalog, decoded on first use.
pub fn catalog() -> Result<Arc<Catalog>, PackError> {
    CATALOG
        .get_or_init(|| Catalog::from_static(PACK).map(Arc::new))
        .clone()
}
