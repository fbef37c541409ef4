//! The rules of one skill, shared by the build-time compiler, the responder and the host
//! verifier: names, URIs, limits, frontmatter (YAML → ordered JSON), digests and MIME types.
//!
//! `skills-edge`'s build script and its runtime both use these very modules, so the catalog
//! that is embedded and the checks a host runs can never disagree.

pub mod digest;
pub mod frontmatter;
pub mod limits;
pub mod mime;
pub mod name;
pub mod revision;
pub mod uri;
pub mod value;
