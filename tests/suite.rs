//! The library's integration tests, one test binary: each file of `tests/` is a module here,
//! so the tests are linked once instead of once per file (`cargo test --test suite NAME::`
//! runs one file's tests). `common` and `archive_support` are the shared helpers; the
//! modules that test the command's run need the feature `command`, which `cargo test
//! --workspace` turns on through the `skills-edge-cli` crate.

#[macro_use]
extern crate skills_edge;

mod archive_support;
mod common;

mod access;
mod archive;
mod archive_attacks;
mod archive_corpus;
mod auth;
mod bad_input;
mod bearer;
mod browsers;
mod build_errors;
mod catalog;
mod catalog_pack;
#[cfg(feature = "command")]
mod client;
mod client_bounds;
#[cfg(feature = "command")]
mod client_hostile;
mod client_ttl;
mod cursors;
mod embedded_catalog;
mod eras;
mod fallback;
mod frontmatter_corpus;
mod golden_vectors;
mod host_rules;
mod http;
mod mirror;
mod oms;
#[cfg(feature = "command")]
mod oms_attacks;
mod oms_pins;
mod pagination;
mod schema_validation;
mod search;
mod search_eval;
mod settings;
#[cfg(feature = "command")]
mod signatures;
mod signing;
mod skip_invalid;
mod structure;
mod token_attacks;
mod tokens;
#[cfg(feature = "command")]
mod wellknown;
