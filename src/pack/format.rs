//! The pack's layout: its constants, section tags and records, and the tables a load
//! yields (described in `docs/pack-format.md`).

/// The magic bytes at the start of a pack.
pub(crate) const MAGIC: &[u8; 8] = b"SKEDPACK";
/// Length of the fixed prefix: magic, version, total length, SHA-256.
pub(super) const PREFIX_LEN: usize = 8 + 4 + 4 + 32;

pub(super) const FLAG_TEXT: u32 = 1;
pub(super) const FLAG_EXTERNAL: u32 = 2;
/// Section flag: a reader that does not know the section's tag must refuse the pack (without
/// the flag, it ignores the section).
pub(super) const SECTION_REQUIRED: u32 = 1;

/// Section tag: the default server instructions.
pub(super) const SECTION_INSTRUCTIONS: u32 = 1;
/// Section tag: the mirror's `index.json`, as n_skills + 1 ranges: the index before its first
/// skill, then each skill's item (spliced; empty for a skill the mirror does not publish). The
/// index is assembled per request from them and [`crate::compile::mirror::MIRROR_SUFFIX`].
pub(super) const SECTION_MIRROR_INDEX: u32 = 2;
/// Section tag: the fallback's `tools` array.
pub(super) const SECTION_FALLBACK_TOOLS: u32 = 3;
/// Section tag: each skill's item of the fallback's `prompts` array (n_skills × spliced, in
/// skill order).
pub(super) const SECTION_FALLBACK_PROMPTS: u32 = 4;
/// Section tag: each skill's item of the `list_skills` result's `skills` (n_skills × spliced,
/// in skill order).
pub(super) const SECTION_FALLBACK_LIST_SKILLS: u32 = 5;
/// Section tag: the fallback's instructions (a table of 3 ranges).
pub(super) const SECTION_FALLBACK_INSTRUCTIONS: u32 = 6;
/// Section tag: the fallback's parts of each skill (a table of 3 ranges per skill).
pub(super) const SECTION_FALLBACK_SKILLS: u32 = 7;
/// Section tag: the prompts by name (a table of `{ name: range, skill }`).
pub(super) const SECTION_FALLBACK_PROMPT_INDEX: u32 = 8;
/// Section tag: the skills by name (a table of skill indices).
pub(super) const SECTION_FALLBACK_NAME_INDEX: u32 = 9;
/// Section tag: each skill's envelope and its digest (a table of `{ envelope, digest }`, one
/// record per skill; a signed catalog only).
pub(super) const SECTION_SIGNATURES: u32 = 10;
/// Section tag: the mirror's `keys.json` (a signed catalog only).
pub(super) const SECTION_KEYS: u32 = 11;
/// Section tag: the scopes of each private class (a table of ranges, class 1 first; each
/// range the class's scopes, sorted, separated by one space; access rules only).
pub(super) const SECTION_ACCESS_CLASSES: u32 = 12;
/// Section tag: the class of each skill (n_skills × `u32`; access rules only).
pub(super) const SECTION_ACCESS_SKILLS: u32 = 13;
/// Section tag: the class of each file (n_files × `u32`; access rules only).
pub(super) const SECTION_ACCESS_FILES: u32 = 14;
/// Section tag: the audience of each directory (n_dirs × { flags, lo, hi }; access rules only).
pub(super) const SECTION_ACCESS_DIRS: u32 = 15;
/// Section tag: the audience of each directory child (n_children × { flags, lo, hi };
/// version 6 only).
pub(super) const SECTION_ACCESS_CHILDREN: u32 = 16;
/// Section tag: each skill's line of the default instructions, assembled per caller
/// (n_skills × range; access rules only).
pub(super) const SECTION_ACCESS_LINES: u32 = 17;
/// Section tag: what the assembled replies start with (one { flags, instructions head,
/// mirror index prefix: range } record; flags bit 0: the instructions are the default ones,
/// assembled per caller; access rules only).
pub(super) const SECTION_ACCESS_HEADS: u32 = 18;
/// Section tag: the length of each file's rendered asset (n_files × `u32`, 0 for a file kept
/// in the pack; a pack that leaves a file out only).
pub(super) const SECTION_ASSETS: u32 = 19;
/// Section tag: what each audience class sees (n_classes + 1 × { skills, mirror, prompts:
/// range; snapshot; mirror tag: 8 words }, public first; access rules only).
pub(super) const SECTION_ACCESS_LISTS: u32 = 20;
/// Section tag: the search index ([`crate::search`]; optional: a reader that does not know it
/// serves the pack without search).
pub(super) const SECTION_SEARCH: u32 = 21;
/// Every access section tag, in order.
pub(super) const ACCESS_SECTIONS: [u32; 8] = [
    SECTION_ACCESS_CLASSES,
    SECTION_ACCESS_SKILLS,
    SECTION_ACCESS_FILES,
    SECTION_ACCESS_DIRS,
    SECTION_ACCESS_CHILDREN,
    SECTION_ACCESS_LINES,
    SECTION_ACCESS_HEADS,
    SECTION_ACCESS_LISTS,
];
/// Every fallback section tag.
pub(super) const FALLBACK_SECTIONS: [u32; 7] = [
    SECTION_FALLBACK_TOOLS,
    SECTION_FALLBACK_PROMPTS,
    SECTION_FALLBACK_LIST_SKILLS,
    SECTION_FALLBACK_INSTRUCTIONS,
    SECTION_FALLBACK_SKILLS,
    SECTION_FALLBACK_PROMPT_INDEX,
    SECTION_FALLBACK_NAME_INDEX,
];

/// A byte range into the heap.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Span {
    /// Offset from the start of the heap.
    pub off: u32,
    /// Length in bytes.
    pub len: u32,
}

/// A served file.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct FileRec {
    pub uri: Span,
    pub mime: Span,
    /// `sha256:` + 64 lowercase hex.
    pub digest: Span,
    /// The raw bytes (empty for an external file).
    pub data: Span,
    pub size: u32,
    pub text: bool,
    pub external: bool,
}

/// A served skill.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct SkillRec {
    pub uri: Span,
    pub entry: Span,
    /// Spliced ([`super::splice`]).
    pub list_item: Span,
    pub name: Span,
    pub revision: Span,
}

/// A directory of the namespace.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct DirRec {
    pub uri: Span,
    pub first_child: u32,
    pub child_count: u32,
}

/// A mirrored skill, by name, with its archive (if it has one).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct MirrorRec {
    pub name: Span,
    pub skill: u32,
    /// `sha256:` + 64 lowercase hex of the archive; empty for a skill-md skill.
    pub archive_digest: Span,
    /// The archive's bytes (empty when it is an asset or there is none).
    pub archive_data: Span,
    pub archive_size: u32,
    pub archive_external: bool,
}

/// The signature of one skill (section 10).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct SignatureRec {
    /// Its DSSE envelope, a JSON object.
    pub envelope: Span,
    /// `sha256:` + 64 lowercase hex of the envelope's bytes.
    pub digest: Span,
}

/// The fallback's parts of one skill.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct FallbackSkillRec {
    /// Its description, a JSON string.
    pub description: Span,
    /// The resource-link messages of its prompt, a JSON array (spliced).
    pub links: Span,
    /// The `structuredContent` of its `read_skill` result, a JSON object (spliced; its `text`
    /// content block is the same as a JSON string).
    pub read_structured: Span,
}

/// An audience (sections 15 and 16): flags (bit 0 public), then the private class mask, low
/// word first.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct AudienceRec {
    pub public: bool,
    pub lo: u32,
    pub hi: u32,
}

impl AudienceRec {
    pub(super) fn of(a: crate::access::Audience) -> AudienceRec {
        AudienceRec {
            public: a.public,
            lo: a.private as u32,
            hi: (a.private >> 32) as u32,
        }
    }

    /// The audience.
    pub(crate) fn audience(&self) -> crate::access::Audience {
        crate::access::Audience {
            public: self.public,
            private: u64::from(self.lo) | (u64::from(self.hi) << 32),
        }
    }
}

/// What the assembled instructions start with (section 18).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct HeadsRec {
    /// The instructions are the default ones, assembled per caller.
    pub default_instructions: bool,
    /// The default instructions before the list of skills.
    pub instructions_head: Span,
}

/// A prompt, by name.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct PromptRec {
    pub name: Span,
    pub skill: u32,
}

/// The fallback's instructions for tools, prompts and both (section 6, one record).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct FallbackInstructionsRec(pub [Span; 3]);

/// One entry of the table of sections: a tag, its payload and whether a reader that does not
/// know the tag must refuse the pack.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct SectionRec {
    pub(super) tag: u32,
    pub(super) text: Span,
    pub(super) required: bool,
}

impl SectionRec {
    /// A section a reader may ignore if it does not know it.
    pub(super) fn optional(tag: u32, text: Span) -> SectionRec {
        SectionRec {
            tag,
            text,
            required: false,
        }
    }

    /// A section a reader must know to serve the pack.
    pub(super) fn required(tag: u32, text: Span) -> SectionRec {
        SectionRec {
            tag,
            text,
            required: true,
        }
    }
}

/// The header after the prefix: the snapshot id and the length of each table.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Header {
    pub(super) snapshot: u32,
    pub(super) files: u32,
    pub(super) skills: u32,
    pub(super) dirs: u32,
    pub(super) children: u32,
    pub(super) mirror: u32,
    pub(super) sections: u32,
}

/// What one audience class sees (section 20, one record per class, public first): the
/// sorted lists of its skills (skill indices), mirrored skills (mirror record indices) and
/// prompts (indices into the prompts by name), each a range of `u32`s in the heap, and the
/// class's snapshot.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct ClassListRec {
    pub skills: Span,
    pub mirror: Span,
    pub prompts: Span,
    /// The wrapping sum, over the class's skills, of each skill's snapshot
    /// ([`super::lists::skill_snapshot`]).
    pub snapshot: u32,
    /// The entity tag of the class's part of the mirror index, four 64-bit lanes as eight
    /// words, low word first ([`super::lists::ClassList::mirror_tag`]).
    pub mirror_tag: [u32; 8],
}

impl ClassListRec {
    /// The mirror tag's four 64-bit lanes.
    pub(crate) fn mirror_lanes(&self) -> [u64; 4] {
        let w = |i: usize| u64::from(self.mirror_tag[i]);
        [
            w(0) | (w(1) << 32),
            w(2) | (w(3) << 32),
            w(4) | (w(5) << 32),
            w(6) | (w(7) << 32),
        ]
    }

    /// The words of `lanes`, as [`ClassListRec::mirror_tag`] stores them.
    pub(crate) fn mirror_words(lanes: [u64; 4]) -> [u32; 8] {
        let mut out = [0u32; 8];
        for (i, l) in lanes.into_iter().enumerate() {
            out[2 * i] = l as u32;
            out[2 * i + 1] = (l >> 32) as u32;
        }
        out
    }
}
