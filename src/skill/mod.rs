//! The rules of one skill, shared by the build-time compiler, the responder and the host
//! verifier: names, URIs, frontmatter (YAML → ordered JSON), digests and MIME types.
//!
//! `build.rs` compiles these very files (through `#[path]`), so the catalog that is embedded
//! and the checks a host runs can never disagree.

pub mod digest;
pub mod frontmatter;
pub mod mime;
pub mod name;
pub mod uri;
pub mod value;
