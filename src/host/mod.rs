//! The host side: everything a host must check before a served skill reaches a model
//! (SEP-2640 §Integrity and Verification, §Security Considerations).
//!
//! | part | what it is |
//! |---|---|
//! | [`Entry`] | validate an entry from `skills/list` / `skills/get`; limits from the entry alone |
//! | [`verify_bytes`], [`verify_content`], [`verify_skill_md`], [`resolve`] | verify bytes, text, `resources/read` results and `SKILL.md` files against an entry, one function per check, hashed here or with a digest computed elsewhere ([`Hashing`]); resolve references |
//! | [`approval_fingerprint`] | approval fingerprints bound to (server label, skill URI, every `{uri, digest}`, the verified signer) |
//! | [`SignerPolicy`] | signed skills: whether a skill's signature holds and states its entry, the signer policy (trust list, trust on first use, pins) |
//! | [`SkillHost`] | skills keyed by (server label, URI), display names, acting windows, approvals, signers |
//! | `index` | read a well-known source's `index.json` (Agent Skills Discovery RFC v0.2.0, and v0.1.0 without `$schema`); resolve its URLs (RFC 3986) |
//! | `archive` | unpack a skill's `.tar.gz` or `.zip` in memory, refusing anything unsafe, within the skill limits |
//! | [`VerifyError`] | the errors, with a stable [`ErrorCode`] |
//!
//! Verification uses the same digest and frontmatter code as the build-time compiler
//! (the catalog modules), so a server and a host built from this crate agree by construction.
//! Nothing here performs I/O: callers fetch (or hand [`crate::client`] a transport), this module
//! decides.
//!
//! ```
//! use skills_edge::host::{verify_skill_md, Content, Entry, Hashing};
//! let entry = Entry::parse(r#"{"uri":"skill://code-review/SKILL.md",
//!   "frontmatter":{"name":"code-review","description":"Review code using the team's checklist."},
//!   "resources":[{"uri":"skill://code-review/SKILL.md","size":149,
//!     "digest":"sha256:d2489d6c182e8df9c178563ff9f2eac7998a0c1bb1278c52a7fd5306e4259160"}]}"#).unwrap();
//! let file = "---\nname: code-review\ndescription: Review code using the team's checklist.\n---\n\n# Code review\n\nRead `references/checklist.md`, then review the diff.\n";
//! assert!(verify_skill_md(&entry, &Content::Text(file.into()), Hashing::Here).is_ok());
//! ```

// The modules are the crate's; the API is what this module re-exports.
internal_mod!(approval, entry, error, index, registry, signature, verify);

// The archive reader is the command's (`verify` of a well-known source).
#[cfg(feature = "internals")]
pub mod archive;
#[cfg(all(any(test, feature = "command"), not(feature = "internals")))]
pub(crate) mod archive;

/// The frontmatter of an entry or a `SKILL.md` as the host reads it: an ordered JSON value.
pub use crate::skill::value::{Number, Value};
pub use approval::approval_fingerprint;
pub use entry::{Entry, LimitReport, ResourceItem, Resources, SignatureMeta};
pub use error::{ErrorCode, Failure, VerifyError};
pub use index::{resolve_reference_uri, same_origin};
pub use registry::{
    HostOptions, ListingOutcome, LoadedSkill, PlannedRead, ReadFile, RegisterOutcome, Rejected,
    SkillHost, SkillSummary,
};
internal_use!(registry::Purpose);
pub use signature::{trusted_key, Signer, SignerPolicy, SignerTrust};
pub use verify::{
    resolve, verify_bytes, verify_content, verify_skill_md, Body, Content, FileReceipt, Hashing,
    VerifiedContent, VerifiedSkillMd, VerifyOptions,
};

internal_use!(approval::signed_approval_fingerprint);
internal_use!(verify::check_file_size);
internal_use!(signature::{Pin, Signers});
internal_use!(verify::{compare_frontmatter, read_content});
