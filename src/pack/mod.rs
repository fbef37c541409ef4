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
pub(crate) mod size;
pub(crate) mod splice;
mod tables;
mod write;

pub use assets::{
    raw_asset_name, rendered_asset_name, workers_limits, AssetPolicy, DEFAULT_INLINE_MAX,
};
#[cfg(any(test, feature = "internals"))]
pub use assets::{rendered_content, MAX_ASSETS_FREE, MAX_ASSET_BYTES, MAX_PACK_UPLOAD};
pub(crate) use format::*;
pub(crate) use read::{open, Check};
#[cfg(any(test, feature = "internals"))]
pub use read::{section_table, SectionTable};
pub(crate) use record::{Keyed, Table};
pub(crate) use tables::*;
#[cfg(any(test, feature = "internals"))]
pub use write::seal;
pub use write::{encode, encode_with, snapshot_of, Asset, PackOptions, Packed};

/// The pack format version this build reads and writes (the only one). What a catalog has
/// or has not (signatures, access rules, assets, the fallback) is said by the sections it
/// carries, not by the version.
#[cfg_attr(feature = "internals", visibility::make(pub))]
pub(crate) const VERSION: u32 = 7;

/// Why a pack cannot be loaded, or why a record of a pack loaded by its shape only cannot be
/// read: what is wrong (`kind`), and a message that names it and the fix
/// ([`std::fmt::Display`], which starts `invalid skills pack: `).
///
/// ```
/// use skills_edge::catalog::{pack::PackErrorKind, Catalog};
/// let e = Catalog::from_bytes(b"PK\x03\x04 a zip file".to_vec()).err().unwrap();
/// assert_eq!(e.kind, PackErrorKind::NotAPack);
/// assert!(e.to_string().starts_with("invalid skills pack: it does not start with SKEDPACK"));
/// assert!(e.reason().starts_with("it does not start with SKEDPACK"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackError {
    /// What is wrong.
    pub kind: PackErrorKind,
    message: String,
}

/// What a [`PackError`] found wrong, by what a caller would do about it.
///
/// ```
/// use skills_edge::catalog::{pack::PackErrorKind, Catalog};
/// # use skills_edge::catalog::compile::{compile, SourceTree};
/// # let mut tree = SourceTree::default();
/// # tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n");
/// # let mut bytes = skills_edge::catalog::pack::encode(&compile(tree).unwrap(), None);
/// // `bytes`: a pack, as `skills-edge pack` writes it.
/// let last = bytes.len() - 1;
/// bytes[last] ^= 1;
/// let e = Catalog::from_bytes(bytes.clone()).err().unwrap();
/// assert_eq!(e.kind, PackErrorKind::Corrupted, "its SHA-256 no longer matches: fetch it again");
/// bytes.truncate(4);
/// assert_eq!(Catalog::from_bytes(bytes).err().unwrap().kind, PackErrorKind::Corrupted);
/// assert_eq!(Catalog::from_bytes(Vec::new()).err().unwrap().kind, PackErrorKind::NotAPack);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PackErrorKind {
    /// The bytes are not a pack at all: none, or they do not start with the magic
    /// `SKEDPACK` (another file given where a pack was meant). Given by every load. (The first
    /// bytes of the magic alone are a pack cut short: [`PackErrorKind::Corrupted`].)
    NotAPack,
    /// A pack made by another version of skills-edge: of another format version, or holding
    /// a section marked required that this build does not know. Rebuild the pack with this
    /// version (or serve it with the one that made it). Given by every load. The checksum
    /// does not cover the header it sits in (magic, version, length), so a pack damaged there
    /// is named by where the damage lands: a changed version word reads as this kind, a
    /// changed magic as [`PackErrorKind::NotAPack`].
    OtherVersion,
    /// The bytes are not the ones the compiler wrote: shorter or longer than the length the
    /// header gives, too short for the header, or (a full check, [`crate::view::Catalog::from_bytes`])
    /// their SHA-256 is not the one the pack carries: damaged in transit or in storage.
    /// Copy or fetch the whole file again, in binary mode.
    Corrupted,
    /// A pack whose bytes are whole (its length, and with a full check its SHA-256, are its
    /// own) but whose tables, records or sections are inconsistent: a count or a range
    /// outside the pack, a table of the wrong length, a section without its companions,
    /// text that is not UTF-8, JSON that is not valid, a table out of order, a search index
    /// that does not fit. A bug of the compiler that wrote it, or bytes changed on purpose
    /// (the checksum rewritten). Given by every load; a load by the shape only
    /// ([`crate::view::Catalog::from_static`], [`crate::view::Catalog::from_bundled`]) reads no checksum,
    /// so damage in transit can show as this there too. A table the header places past the
    /// end of a pack whose length is its own is this kind, though its message says
    /// "truncated header or table".
    Inconsistent,
    /// A record of a pack loaded by its shape only is damaged: it lies outside the pack, is
    /// not UTF-8, or its pieces stand for more than the pack holds. Given only when a record
    /// is read (`crate::view::Catalog::try_skill_at`, `crate::view::Catalog::try_file_at`,
    /// `crate::view::Spliced::push_to`), never by a load: the catalog stays loaded and its other
    /// records readable. Rebuild the pack and deploy it again.
    DamagedRecord,
}

impl PackError {
    /// A [`PackError`] of `kind`; `message` follows the prefix `invalid skills pack: `.
    pub(crate) fn new(kind: PackErrorKind, message: impl Into<String>) -> PackError {
        PackError {
            kind,
            message: message.into(),
        }
    }

    /// A [`PackErrorKind::Inconsistent`] pack.
    pub(crate) fn inconsistent(message: impl Into<String>) -> PackError {
        PackError::new(PackErrorKind::Inconsistent, message)
    }

    /// What is wrong, without the prefix `invalid skills pack: ` (for a message that says it
    /// is about a pack in its own words).
    pub fn reason(&self) -> &str {
        &self.message
    }
}

impl std::fmt::Display for PackError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "invalid skills pack: {}", self.message)
    }
}

impl std::error::Error for PackError {}
