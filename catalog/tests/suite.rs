//! The catalog crate's integration tests, one test binary: each file of `tests/` is a
//! module here, so they are linked once (`cargo test -p skills-edge-catalog --test suite
//! NAME::` runs one file's tests).

#[macro_use]
extern crate skills_edge_catalog;

mod access;
mod digest;
mod frontmatter;
mod name;
mod release;
mod signing;
mod uri;
mod value;
