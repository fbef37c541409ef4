//! The catalog modules' tests (`src/access.rs`, `src/skill/`, `src/release.rs`, `src/sign/`, …): access rules, digests, frontmatter, names,
//! releases, signing, URIs and values (`cargo test --test suite catalog::NAME::` runs one).

mod access;
mod digest;
mod frontmatter;
mod name;
mod release;
mod signing;
mod uri;
mod value;
