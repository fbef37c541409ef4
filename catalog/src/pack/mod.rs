//! The pack: the one binary form of a compiled catalog. `build.rs` writes the embedded
//! catalog as a pack and the runtime reads it back; a pack made elsewhere by the same compiler
//! (`skills-edge pack`, `compileCatalog`) loads the same way. The format (one version, a
//! table of optional sections) is described once, in `docs/pack-format.md`.
//!
//! | file | what it holds |
//! |---|---|
//! | `format` | the layout: constants, section tags, records, the tables a load yields |
//! | `record` | each record's fields listed once, for the writer and the reader |
//! | `write` | a compiled catalog in, a pack out |
//! | `read` | the prefix, the header and the tables, checked |
//! | `sections` | the optional sections, checked |
//! | `lists` | what each audience class sees, computed when the pack is written |
//! | `assets` | files left out of the pack, and the Workers limits |

mod assets;
mod check;
mod format;
pub(crate) mod lists;
mod read;
mod record;
mod sections;
#[cfg(test)]
mod size;
pub(crate) mod splice;
mod tables;
mod write;

pub use assets::{
    raw_asset_name, rendered_asset_name, rendered_content, workers_limits, AssetPolicy,
    DEFAULT_INLINE_MAX, MAX_ASSETS_FREE, MAX_ASSET_BYTES, MAX_PACK_UPLOAD,
};
pub(crate) use format::*;
pub(crate) use read::{open, Check};
#[cfg(feature = "internals")]
pub use read::{section_table, SectionTable};
pub(crate) use record::{Record, Table};
pub(crate) use tables::*;
#[cfg(feature = "internals")]
pub use write::seal;
pub use write::{encode, encode_with, snapshot_of, Asset, PackOptions, Packed};

/// The pack format version this build reads and writes (the only one). What a catalog has
/// or has not (signatures, access rules, assets, the fallback) is said by the sections it
/// carries, not by the version.
#[cfg_attr(feature = "internals", visibility::make(pub))]
pub(crate) const VERSION: u32 = 7;

/// Why a pack cannot be loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackError(pub String);

impl std::fmt::Display for PackError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "invalid skills pack: {}", self.0)
    }
}

impl std::error::Error for PackError {}
