//! The tables a load yields: each a position and a length in the pack, each record read
//! (bounds-checked) when it is used.

use super::format::*;
use super::record::Table;

/// The fallback sections, read in place.
#[derive(Debug, Clone)]
pub(crate) struct FallbackTables {
    pub tools: Span,
    /// Per skill, its item of the `prompts` array (spliced).
    pub prompt_items: Table<Span>,
    /// Per skill, its item of the `list_skills` result (spliced).
    pub list_items: Table<Span>,
    /// Instructions for tools, prompts, both.
    pub instructions: [Span; 3],
    /// Per skill, in skill order.
    pub skills: Table<FallbackSkillRec>,
    /// Sorted by name.
    pub prompts_by_name: Table<PromptRec>,
    /// Skill indices sorted by skill name.
    pub skills_by_name: Table<u32>,
}

/// The signature sections of a signed pack, read in place.
#[derive(Debug, Clone)]
pub(crate) struct SignatureTables {
    /// Per skill, in skill order.
    pub skills: Table<SignatureRec>,
    /// The mirror's `keys.json`.
    pub keys: Span,
}

/// The access sections of a pack with access rules, read in place.
#[derive(Debug, Clone)]
pub(crate) struct AccessTables {
    /// The scopes of each private class (class 1 first), space-separated.
    pub classes: Table<Span>,
    /// Per skill, its class.
    pub skills: Table<u32>,
    /// Per file, its class.
    pub files: Table<u32>,
    /// Per directory, its audience.
    pub dirs: Table<AudienceRec>,
    /// Per directory child, its audience.
    pub children: Table<AudienceRec>,
    /// Per skill, its line of the default instructions.
    pub lines: Table<Span>,
    /// The heads.
    pub heads: HeadsRec,
    /// Per audience class (0 public, then each private class), what it sees.
    pub lists: Table<ClassListRec>,
}

/// A pack's tables, read in place: each a position and a length in the pack, each record
/// read (bounds-checked) when it is used; spans index into the heap.
#[derive(Debug, Clone)]
pub(crate) struct Tables {
    pub snapshot: u32,
    pub instructions: Span,
    /// The mirror index before its first skill.
    pub mirror_prefix: Span,
    /// Per skill, its item of the mirror index (spliced; empty when not mirrored).
    pub mirror_items: Table<Span>,
    /// The fallback sections (`None` in a pack without them).
    pub fallback: Option<FallbackTables>,
    /// The signatures (`Some` exactly in a signed catalog's pack).
    pub signatures: Option<SignatureTables>,
    /// The access sections (`Some` exactly in the pack of a catalog with access rules).
    pub access: Option<AccessTables>,
    /// Per file, the length of its rendered asset, 0 for a file in the pack (`None` when
    /// every file and archive is in the pack).
    pub assets: Option<Table<u32>>,
    /// The search section ([`crate::search::index`]; `None` in a pack without one).
    pub search: Option<Span>,
    pub files: Table<FileRec>,
    pub skills: Table<SkillRec>,
    pub dirs: Table<DirRec>,
    pub children: Table<Span>,
    pub mirror: Table<MirrorRec>,
    /// Offset of the heap in the pack.
    pub heap_start: usize,
}
