//! # skills-edge-catalog
//!
//! The part of [skills-edge](https://github.com/skills-edge/skills-edge) that both its build
//! script and its runtime need: the rules of one skill, the catalog compiler and the pack
//! format. `skills-edge`'s `build.rs` uses this crate as a build-dependency to compile the
//! embedded catalog, and `skills-edge` uses it as a dependency to serve that catalog and to
//! verify skills on the host side, so what is published and what is checked come from one
//! implementation. Use it through `skills-edge`, which re-exports what applications need; the
//! API of this crate follows `skills-edge`'s version.
//!
//! | module | what it is |
//! |---|---|
//! | [`access`] | who may see what: `skills-edge.toml`, audiences, grants |
//! | [`skill`] | the rules of one skill: names, URIs, limits, frontmatter (YAML → ordered JSON), digests, MIME types |
//! | [`compile`] | a skills folder in ([`compile::SourceTree`]), a checked catalog out, or every problem found |
//! | [`diag`] | the compiler's findings: rule ids, paths, lines, fixes |
//! | [`json`] | a strict JSON reader (RFC 8259, what `serde_json` accepts) into a small borrowed tree |
//! | `walk` | reading a skills folder from disk (native targets only) |
//! | `build_script` | the body of a build script that embeds a skills folder (native targets only) |
//! | [`pack`] | the versioned binary form of a compiled catalog |
//! | [`search`] | the search index compiled into a pack, and its ranking per caller |
//! | [`oms`] | OpenSSF Model Signing bundles of a skill folder (`skill.oms.sig`): P-256 keys, sign, verify |
//! | [`sign`] | signed skills: keys, the in-toto statement of a skill's files, DSSE envelopes |
//! | [`Catalog`] | the run-time view of a pack: lookups by URI that allocate nothing |
//!
//! ```
//! use skills_edge_catalog::{compile::SourceTree, Catalog};
//! let mut tree = SourceTree::default();
//! tree.add_file("code-review/SKILL.md", "---\nname: code-review\ndescription: Review code using the team's checklist.\n---\n\n# Code review\n\nRead `references/checklist.md`, then review the diff.\n");
//! let catalog = Catalog::compile(tree, None).unwrap();
//! let skill = catalog.skill("skill://code-review/SKILL.md").unwrap();
//! assert!(skill.entry_json.contains("sha256:d2489d6c182e8df9c178563ff9f2eac7998a0c1bb1278c52a7fd5306e4259160"));
//! ```

#![warn(missing_docs)]

#[cfg(any(test, feature = "internals"))]
#[macro_export]
/// The refusal a `Result` holds, checked to be of `kind` (the `kind` field of the typed
/// errors, such as [`pack::PackError`]): its message. The one reader of a typed refusal for
/// the tests of this crate and of skills-edge (unit tests, and with the feature `internals`).
macro_rules! refused {
    ($result:expr, $kind:expr $(,)?) => {
        match $result {
            Ok(_) => panic!("accepted where a refusal ({:?}) was expected", $kind),
            Err(e) => {
                assert_eq!(e.kind, $kind, "{e}");
                e.to_string()
            }
        }
    };
}

pub mod access;
#[cfg(not(target_family = "wasm"))]
pub mod build_script;
pub mod compile;
pub mod diag;
pub mod json;
pub mod oms;
pub mod options;
pub mod pack;
pub mod release;
pub mod search;
pub mod sign;
pub mod skill;
mod view;
#[cfg(not(target_family = "wasm"))]
pub mod walk;

pub use access::{Audience, Grant};
pub use view::{
    ArchiveView, Catalog, CatalogError, Content, DirView, FallbackView, FileView, Merged,
    SignatureView, SkillFallback, SkillView, Spliced,
};
