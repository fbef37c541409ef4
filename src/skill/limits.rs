//! The limits of one skill: what a server may publish and what a host must accept
//! (SEP-2640 §Limits; Agent Skills specification for the frontmatter fields).
//!
//! The compiler refuses to publish a skill beyond them (open point A8), and the host verifier
//! checks them from an entry alone, before anything is fetched.

/// Most files one skill may have, `SKILL.md` and nested skills' files included. Hosts MUST
/// support skills up to and including this many entries.
pub const MAX_FILES_PER_SKILL: usize = 512;

/// Most bytes one skill may have in total (16 MiB), nested skills' files included. Hosts MUST
/// support skills up to and including this size.
pub const MAX_BYTES_PER_SKILL: u64 = 16 * 1024 * 1024;

/// Longest `description`, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 1024;

/// Longest `compatibility`, in characters.
pub(crate) const MAX_COMPATIBILITY_CHARS: usize = 500;

/// Longest `name`, in characters (see [`super::name`]).
pub(crate) const MAX_NAME_LEN: usize = 64;

/// The reserved `metadata` key prefix (SEP-2640 §Reservations): hosts ignore keys under it that
/// they do not recognise, and authors should not invent them.
pub(crate) const RESERVED_METADATA_PREFIX: &str = "io.modelcontextprotocol/";
