//! The pack: the one binary form of a compiled catalog. `build.rs` writes the embedded
//! catalog as a pack and the runtime reads it back; a pack made elsewhere by the same compiler
//! (`skills-edge pack`, `compileCatalog`) loads the same way. The format (one version, a
//! table of optional sections) is described once, in `docs/pack-format.md`; the record
//! layouts below are its one description in code, followed by the writer and the reader.

use crate::compile::{Compiled, DirChild};
use crate::skill::digest::is_wire_digest;
use crate::skill::value::write_json_string;
use base64::Engine as _;

/// The magic bytes at the start of a pack.
pub(crate) const MAGIC: &[u8; 8] = b"SKEDPACK";
/// The pack format version this build reads and writes (the only one). What a catalog has
/// or has not (signatures, access rules, assets, the fallback) is said by the sections it
/// carries, not by the version.
pub const VERSION: u32 = 7;
/// Length of the fixed prefix: magic, version, total length, SHA-256.
const PREFIX_LEN: usize = 8 + 4 + 4 + 32;

const FLAG_TEXT: u32 = 1;
const FLAG_EXTERNAL: u32 = 2;
/// Section flag: a reader that does not know the section's tag must refuse the pack (without
/// the flag, it ignores the section).
const SECTION_REQUIRED: u32 = 1;

/// Section tag: the default server instructions.
const SECTION_INSTRUCTIONS: u32 = 1;
/// Section tag: the mirror's `index.json`.
const SECTION_MIRROR_INDEX: u32 = 2;
/// Section tag: the fallback's `tools` array.
const SECTION_FALLBACK_TOOLS: u32 = 3;
/// Section tag: the fallback's `prompts` array.
const SECTION_FALLBACK_PROMPTS: u32 = 4;
/// Section tag: the members of the `list_skills` result.
const SECTION_FALLBACK_LIST_SKILLS: u32 = 5;
/// Section tag: the fallback's instructions (a table of 3 ranges).
const SECTION_FALLBACK_INSTRUCTIONS: u32 = 6;
/// Section tag: the fallback's parts of each skill (a table of 4 ranges per skill).
const SECTION_FALLBACK_SKILLS: u32 = 7;
/// Section tag: the prompts by name (a table of `{ name: range, skill }`).
const SECTION_FALLBACK_PROMPT_INDEX: u32 = 8;
/// Section tag: the skills by name (a table of skill indices).
const SECTION_FALLBACK_NAME_INDEX: u32 = 9;
/// Section tag: each skill's envelope and its digest (a table of `{ envelope, digest }`, one
/// record per skill; a signed catalog only).
const SECTION_SIGNATURES: u32 = 10;
/// Section tag: the mirror's `keys.json` (a signed catalog only).
const SECTION_KEYS: u32 = 11;
/// Section tag: the scopes of each private class (a table of ranges, class 1 first; each
/// range the class's scopes, sorted, separated by one space; access rules only).
const SECTION_ACCESS_CLASSES: u32 = 12;
/// Section tag: the class of each skill (n_skills × `u32`; access rules only).
const SECTION_ACCESS_SKILLS: u32 = 13;
/// Section tag: the class of each file (n_files × `u32`; access rules only).
const SECTION_ACCESS_FILES: u32 = 14;
/// Section tag: the audience of each directory (n_dirs × { flags, lo, hi }; access rules only).
const SECTION_ACCESS_DIRS: u32 = 15;
/// Section tag: the audience of each directory child (n_children × { flags, lo, hi };
/// version 6 only).
const SECTION_ACCESS_CHILDREN: u32 = 16;
/// Section tag: each skill's fragments of the replies assembled per caller (n_skills × {
/// instructions line, mirror index item, prompt item, list_skills item: range }; access rules only).
const SECTION_ACCESS_FRAGMENTS: u32 = 17;
/// Section tag: what the assembled replies start with (one { flags, instructions head,
/// mirror index prefix: range } record; flags bit 0: the instructions are the default ones,
/// assembled per caller; access rules only).
const SECTION_ACCESS_HEADS: u32 = 18;
/// Section tag: the length of each file's rendered asset (n_files × `u32`, 0 for a file kept
/// in the pack; a pack that leaves a file out only).
const SECTION_ASSETS: u32 = 19;
/// Every access section tag, in order.
const ACCESS_SECTIONS: [u32; 7] = [
    SECTION_ACCESS_CLASSES,
    SECTION_ACCESS_SKILLS,
    SECTION_ACCESS_FILES,
    SECTION_ACCESS_DIRS,
    SECTION_ACCESS_CHILDREN,
    SECTION_ACCESS_FRAGMENTS,
    SECTION_ACCESS_HEADS,
];
/// Every fallback section tag.
const FALLBACK_SECTIONS: [u32; 7] = [
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
    /// The resource-link messages of its prompt, a JSON array.
    pub links: Span,
    /// The `text` content block of its `read_skill` result, a JSON object.
    pub read_block: Span,
    /// The `structuredContent` of its `read_skill` result, a JSON object.
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
    fn of(a: crate::access::Audience) -> AudienceRec {
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

/// A skill's fragments of the replies assembled per caller (section 17).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct FragmentRec {
    /// Its line of the default instructions.
    pub instructions_line: Span,
    /// Its item of the mirror's index (empty when it is not mirrored).
    pub mirror_item: Span,
    /// Its item of `prompts/list`.
    pub prompt_item: Span,
    /// Its item of the `list_skills` result.
    pub list_item: Span,
}

/// What the assembled replies start with (section 18).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct HeadsRec {
    /// The instructions are the default ones, assembled per caller.
    pub default_instructions: bool,
    /// The default instructions before the list of skills.
    pub instructions_head: Span,
    /// The mirror's index before its first skill.
    pub mirror_prefix: Span,
}

/// A prompt, by name.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct PromptRec {
    pub name: Span,
    pub skill: u32,
}

/// The fallback's instructions for tools, prompts and both (section 6, one record).
#[derive(Debug, Clone, Copy, Default)]
struct FallbackInstructionsRec([Span; 3]);

/// One entry of the table of sections: a tag, its payload and whether a reader that does not
/// know the tag must refuse the pack.
#[derive(Debug, Clone, Copy, Default)]
struct SectionRec {
    tag: u32,
    text: Span,
    required: bool,
}

impl SectionRec {
    /// A section a reader may ignore if it does not know it.
    fn optional(tag: u32, text: Span) -> SectionRec {
        SectionRec {
            tag,
            text,
            required: false,
        }
    }

    /// A section a reader must know to serve the pack.
    fn required(tag: u32, text: Span) -> SectionRec {
        SectionRec {
            tag,
            text,
            required: true,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Record layouts: each record's fields are listed once, in [`Record::layout`], and the writer
// ([`put`]), the reader ([`WordReader::record`], [`table`]) and the size check
// ([`record_len`]) all follow that one list, so they cannot disagree.
// ---------------------------------------------------------------------------------------------

/// What walks a record's fields in order: each field is one little-endian `u32` word, a
/// [`Span`] two (offset, length), a set of flags one (the bits of the booleans that are set).
trait Fields {
    /// One `u32` field.
    fn word(&mut self, v: &mut u32);
    /// One range field: its offset, then its length.
    fn span(&mut self, s: &mut Span) {
        self.word(&mut s.off);
        self.word(&mut s.len);
    }
    /// One word of flags: each boolean is its bit.
    fn flags(&mut self, bits: &mut [(&mut bool, u32)]) {
        let mut w = bits
            .iter()
            .fold(0, |w, (on, bit)| if **on { w | *bit } else { w });
        self.word(&mut w);
        for (on, bit) in bits.iter_mut() {
            **on = w & *bit != 0;
        }
    }
}

/// A fixed-size record of the pack: the one description of its layout.
trait Record: Default {
    /// Visits every field, in the pack's order.
    fn layout(&mut self, f: &mut impl Fields);
}

impl Record for u32 {
    fn layout(&mut self, f: &mut impl Fields) {
        f.word(self);
    }
}

impl Record for Span {
    fn layout(&mut self, f: &mut impl Fields) {
        f.span(self);
    }
}

impl Record for FileRec {
    fn layout(&mut self, f: &mut impl Fields) {
        f.span(&mut self.uri);
        f.span(&mut self.mime);
        f.span(&mut self.digest);
        f.span(&mut self.data);
        f.word(&mut self.size);
        f.flags(&mut [
            (&mut self.text, FLAG_TEXT),
            (&mut self.external, FLAG_EXTERNAL),
        ]);
    }
}

impl Record for SkillRec {
    fn layout(&mut self, f: &mut impl Fields) {
        f.span(&mut self.uri);
        f.span(&mut self.entry);
        f.span(&mut self.list_item);
        f.span(&mut self.name);
        f.span(&mut self.revision);
    }
}

impl Record for DirRec {
    fn layout(&mut self, f: &mut impl Fields) {
        f.span(&mut self.uri);
        f.word(&mut self.first_child);
        f.word(&mut self.child_count);
    }
}

impl Record for MirrorRec {
    fn layout(&mut self, f: &mut impl Fields) {
        f.span(&mut self.name);
        f.word(&mut self.skill);
        f.span(&mut self.archive_digest);
        f.span(&mut self.archive_data);
        f.word(&mut self.archive_size);
        f.flags(&mut [(&mut self.archive_external, FLAG_EXTERNAL)]);
    }
}

impl Record for SectionRec {
    fn layout(&mut self, f: &mut impl Fields) {
        f.word(&mut self.tag);
        f.span(&mut self.text);
        f.flags(&mut [(&mut self.required, SECTION_REQUIRED)]);
    }
}

impl Record for FallbackInstructionsRec {
    fn layout(&mut self, f: &mut impl Fields) {
        for s in &mut self.0 {
            f.span(s);
        }
    }
}

impl Record for FallbackSkillRec {
    fn layout(&mut self, f: &mut impl Fields) {
        f.span(&mut self.description);
        f.span(&mut self.links);
        f.span(&mut self.read_block);
        f.span(&mut self.read_structured);
    }
}

impl Record for SignatureRec {
    fn layout(&mut self, f: &mut impl Fields) {
        f.span(&mut self.envelope);
        f.span(&mut self.digest);
    }
}

impl Record for AudienceRec {
    fn layout(&mut self, f: &mut impl Fields) {
        f.flags(&mut [(&mut self.public, 1)]);
        f.word(&mut self.lo);
        f.word(&mut self.hi);
    }
}

impl Record for FragmentRec {
    fn layout(&mut self, f: &mut impl Fields) {
        f.span(&mut self.instructions_line);
        f.span(&mut self.mirror_item);
        f.span(&mut self.prompt_item);
        f.span(&mut self.list_item);
    }
}

impl Record for HeadsRec {
    fn layout(&mut self, f: &mut impl Fields) {
        f.flags(&mut [(&mut self.default_instructions, 1)]);
        f.span(&mut self.instructions_head);
        f.span(&mut self.mirror_prefix);
    }
}

impl Record for PromptRec {
    fn layout(&mut self, f: &mut impl Fields) {
        f.span(&mut self.name);
        f.word(&mut self.skill);
    }
}

/// The length in bytes of one `R` record.
fn record_len<R: Record>() -> usize {
    struct Count(usize);
    impl Fields for Count {
        fn word(&mut self, _: &mut u32) {
            self.0 += 4;
        }
    }
    let mut c = Count(0);
    R::default().layout(&mut c);
    c.0
}

/// Appends `rec` to `out`.
fn put<R: Record + Copy>(out: &mut Vec<u8>, rec: &R) {
    struct Write<'a>(&'a mut Vec<u8>);
    impl Fields for Write<'_> {
        fn word(&mut self, v: &mut u32) {
            self.0.extend_from_slice(&v.to_le_bytes());
        }
    }
    let mut rec = *rec;
    rec.layout(&mut Write(out));
}

/// Reads one record from exactly its bytes (`bytes.len() == record_len::<R>()`).
fn get<R: Record>(bytes: &[u8]) -> R {
    struct Read<'a>(std::slice::ChunksExact<'a, u8>);
    impl Fields for Read<'_> {
        fn word(&mut self, v: &mut u32) {
            *v = self
                .0
                .next()
                .map_or(0, |w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]));
        }
    }
    let mut rec = R::default();
    rec.layout(&mut Read(bytes.chunks_exact(4)));
    rec
}

/// The decoded fallback sections.
#[derive(Debug, Clone)]
pub(crate) struct FallbackTables {
    pub tools: Span,
    pub prompts: Span,
    pub list_skills: Span,
    /// Instructions for tools, prompts, both.
    pub instructions: [Span; 3],
    /// Per skill, in skill order.
    pub skills: Vec<FallbackSkillRec>,
    /// Sorted by name.
    pub prompts_by_name: Vec<PromptRec>,
    /// Skill indices sorted by skill name.
    pub skills_by_name: Vec<u32>,
}

/// The decoded signature sections of a signed pack.
#[derive(Debug, Clone)]
pub(crate) struct SignatureTables {
    /// Per skill, in skill order.
    pub skills: Vec<SignatureRec>,
    /// The mirror's `keys.json`.
    pub keys: Span,
}

/// The decoded access sections of a pack with access rules.
#[derive(Debug, Clone)]
pub(crate) struct AccessTables {
    /// The scopes of each private class (class 1 first), space-separated.
    pub classes: Vec<Span>,
    /// Per skill, its class.
    pub skills: Vec<u32>,
    /// Per file, its class.
    pub files: Vec<u32>,
    /// Per directory, its audience.
    pub dirs: Vec<AudienceRec>,
    /// Per directory child, its audience.
    pub children: Vec<AudienceRec>,
    /// Per skill, its fragments.
    pub fragments: Vec<FragmentRec>,
    /// The heads.
    pub heads: HeadsRec,
}

/// A decoded pack: the tables, with spans into the heap.
#[derive(Debug, Clone)]
pub(crate) struct Tables {
    pub snapshot: u32,
    pub instructions: Span,
    pub mirror_index: Span,
    /// The fallback sections (`None` for a pack made before they existed).
    pub fallback: Option<FallbackTables>,
    /// The signatures (`Some` exactly in a signed catalog's pack).
    pub signatures: Option<SignatureTables>,
    /// The access sections (`Some` exactly in the pack of a catalog with access rules).
    pub access: Option<AccessTables>,
    /// Per file, the length of its rendered asset, 0 for a file in the pack (`None` when
    /// every file and archive is in the pack).
    pub assets: Option<Vec<u32>>,
    pub files: Vec<FileRec>,
    pub skills: Vec<SkillRec>,
    pub dirs: Vec<DirRec>,
    pub children: Vec<Span>,
    pub mirror: Vec<MirrorRec>,
    /// Offset of the heap in the pack.
    pub heap_start: usize,
}

/// Why a pack cannot be loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackError(pub String);

impl std::fmt::Display for PackError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "invalid skills pack: {}", self.0)
    }
}

impl std::error::Error for PackError {}

/// Which files a pack leaves out, as assets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AssetPolicy {
    /// Files larger than this many bytes are assets; smaller ones stay in the pack.
    pub inline_max: u64,
}

impl Default for AssetPolicy {
    /// Files above [`DEFAULT_INLINE_MAX`] are assets.
    fn default() -> Self {
        AssetPolicy {
            inline_max: DEFAULT_INLINE_MAX,
        }
    }
}

/// The default [`AssetPolicy::inline_max`]: files up to 8 KiB stay in the pack, larger ones
/// become assets (`skills-edge pack --assets DIR` without `--inline-max`).
///
/// Chosen from measurements (docs/performance.md has the figures and the commands). On
/// workerd, a read of a file kept in the pack costs less CPU than a read of the same file as
/// an asset up to about 64 KiB (an asset read pays for a subrequest to the
/// binding, whatever its size; a read from the pack copies, and escapes or base64-encodes,
/// bytes per request), so for CPU alone the limit would be higher. But every byte kept in
/// the pack is a byte of the Worker's upload, which the Workers plans cap (3 MB compressed on
/// the free plan): a generated catalog shaped like a real one with a skill at the spec's
/// limits (512 files, 16 MiB) makes a pack of 0.59 MB gzip at 8 KiB and 1.06 MB at 16 KiB,
/// so 8 KiB is the largest power of two that keeps such a Worker under 1 MB. Most `SKILL.md`
/// files, the file every host reads first, are below it.
pub const DEFAULT_INLINE_MAX: u64 = 8 * 1024;

/// How to encode a pack.
#[derive(Debug, Clone, Copy, Default)]
pub struct PackOptions<'a> {
    /// Server instructions to record instead of the generated ones.
    pub instructions: Option<&'a str>,
    /// Leave files out as assets (`None`: every byte in the pack).
    pub assets: Option<AssetPolicy>,
}

/// A file written next to a pack: its name (see [`raw_asset_name`], [`rendered_asset_name`])
/// and its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Asset {
    /// The file name, named by content.
    pub name: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// An encoded pack and the assets it refers to (none unless [`PackOptions::assets`]).
#[derive(Debug, Clone)]
pub struct Packed {
    /// The pack.
    pub pack: Vec<u8>,
    /// The assets, each once (files with equal bytes share theirs).
    pub assets: Vec<Asset>,
}

/// The largest file Workers Static Assets accept (25 MiB, per file).
pub const MAX_ASSET_BYTES: usize = 25 * 1024 * 1024;

/// Pack size above which the Worker's upload may exceed the Workers free plan's 3 MB
/// compressed limit (a pack of binary files hardly compresses).
pub const MAX_PACK_FREE: usize = 3 * 1000 * 1000 - 200 * 1000;

/// Most Static Assets files per Worker version on the Workers free plan.
pub const MAX_ASSETS_FREE: usize = 20_000;

/// Checks a pack made for a Worker (with assets) against the Workers limits: an asset larger
/// than [`MAX_ASSET_BYTES`] is an error naming the file and the fix (the deployment would be
/// refused); a pack above [`MAX_PACK_FREE`] or more than [`MAX_ASSETS_FREE`] assets are
/// warnings (the free plan may refuse it, a paid one takes it). Every command that writes a
/// Worker's pack (`skills-edge pack --assets`, the npm `skills-edge worker`) reports these.
pub fn workers_limits(c: &Compiled, p: &Packed) -> Result<Vec<String>, String> {
    if let Some(big) = p.assets.iter().find(|x| x.bytes.len() > MAX_ASSET_BYTES) {
        let hex = big.name.strip_suffix(".json").unwrap_or(&big.name);
        let archive = c.skills.iter().find(|s| {
            s.archive
                .as_ref()
                .is_some_and(|a| raw_asset_name(&a.digest) == hex)
        });
        let uri = c
            .files
            .iter()
            .find(|f| raw_asset_name(&f.digest) == hex)
            .map(|f| f.uri.clone())
            .or_else(|| archive.map(|s| format!("the mirror's archive of {}", s.uri)))
            .unwrap_or_else(|| "a file".to_owned());
        return Err(format!(
            "error: the asset {} of {uri} is {} bytes; Workers Static Assets take files up to {MAX_ASSET_BYTES} bytes (25 MiB)\n  fix: split the file, or store it compressed (a text file with many control characters grows up to six times when escaped as JSON)",
            big.name,
            big.bytes.len()
        ));
    }
    let mut warnings = Vec::new();
    if p.pack.len() > MAX_PACK_FREE {
        warnings.push(format!(
            "warning: the pack is {} bytes: with the Worker's wasm its upload may exceed the Workers free plan's 3 MB compressed limit (`npx wrangler deploy --dry-run` prints the gzip size)\n  fix: lower --inline-max (0 keeps every non-empty file out of the pack)",
            p.pack.len()
        ));
    }
    if p.assets.len() > MAX_ASSETS_FREE {
        warnings.push(format!(
            "warning: {} assets: a Worker version takes up to {MAX_ASSETS_FREE} Static Assets files on the Workers free plan (100000 on paid plans)\n  fix: raise --inline-max, or deploy on a paid plan",
            p.assets.len()
        ));
    }
    Ok(warnings)
}

/// The asset holding the raw bytes of the file with `digest` (`sha256:…`): its 64 hex digits.
pub fn raw_asset_name(digest: &str) -> &str {
    digest.strip_prefix("sha256:").unwrap_or(digest)
}

/// The asset holding the rendered JSON string (`"…"`, escaped text or base64) that a
/// `resources/read` result of the file with `digest` carries: `{hex}.json`.
pub fn rendered_asset_name(digest: &str) -> String {
    format!("{}.json", raw_asset_name(digest))
}

/// The JSON string a `resources/read` content item carries for `bytes`: the escaped text when
/// they are UTF-8 text served as `text`, else the base64 `blob`, quotes included.
pub fn rendered_content(bytes: &[u8], is_text: bool) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) if is_text => {
            let mut out = String::with_capacity(text.len() + text.len() / 8 + 2);
            write_json_string(text, &mut out);
            out
        }
        _ => {
            let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4 + 2);
            out.push('"');
            base64::engine::general_purpose::STANDARD.encode_string(bytes, &mut out);
            out.push('"');
            out
        }
    }
}

struct Heap {
    bytes: Vec<u8>,
}

impl Heap {
    fn put(&mut self, b: &[u8]) -> Span {
        let off = self.bytes.len() as u32;
        self.bytes.extend_from_slice(b);
        Span {
            off,
            len: b.len() as u32,
        }
    }
}

fn u32s(out: &mut Vec<u8>, vals: &[u32]) {
    for v in vals {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

/// Encodes a compiled catalog as a pack with every byte inside. `instructions` overrides the
/// default instructions.
pub fn encode(c: &Compiled, instructions: Option<&str>) -> Vec<u8> {
    encode_with(
        c,
        &PackOptions {
            instructions,
            assets: None,
        },
    )
    .pack
}

/// Encodes a compiled catalog as a pack, leaving files out as assets when the options say so.
/// Sizes fit the format's 32-bit fields: the compiler caps a skill at 16 MiB.
pub fn encode_with(c: &Compiled, o: &PackOptions<'_>) -> Packed {
    let mut heap = Heap { bytes: Vec::new() };
    let default_instr = c.default_instructions();
    let instr = heap.put(o.instructions.unwrap_or(&default_instr).as_bytes());
    let mirror_index = heap.put(c.mirror_index_json().as_bytes());
    let mut assets: Vec<Asset> = Vec::new();
    let mut rendered_lens: Vec<u32> = Vec::new();
    let files: Vec<FileRec> = c
        .files
        .iter()
        .map(|f| {
            let external = o.assets.is_some_and(|p| f.size > p.inline_max);
            let mut rendered_len = 0;
            if external {
                let rendered = rendered_content(&f.bytes, f.is_text);
                rendered_len = rendered.len() as u32;
                let raw = raw_asset_name(&f.digest);
                if !assets.iter().any(|a| a.name == raw) {
                    assets.push(Asset {
                        name: raw.to_owned(),
                        bytes: f.bytes.clone(),
                    });
                    assets.push(Asset {
                        name: rendered_asset_name(&f.digest),
                        bytes: rendered.into_bytes(),
                    });
                }
            }
            FileRec {
                uri: heap.put(f.uri.as_bytes()),
                mime: heap.put(f.mime.as_bytes()),
                digest: heap.put(f.digest.as_bytes()),
                data: if external {
                    Span::default()
                } else {
                    heap.put(&f.bytes)
                },
                size: {
                    rendered_lens.push(rendered_len);
                    f.size as u32
                },
                text: f.is_text,
                external,
            }
        })
        .collect();
    let mut entries = Vec::new();
    let skills: Vec<SkillRec> = c
        .skills
        .iter()
        .map(|s| {
            let entry = c.entry_json(s);
            let rec = SkillRec {
                uri: heap.put(s.uri.as_bytes()),
                entry: heap.put(entry.as_bytes()),
                list_item: heap.put(c.list_item_json(s).as_bytes()),
                name: heap.put(s.name.as_bytes()),
                revision: heap.put(c.revision(s).as_bytes()),
            };
            entries.push(entry);
            rec
        })
        .collect();
    let mut children = Vec::new();
    let dirs: Vec<DirRec> = c
        .dirs
        .iter()
        .map(|d| {
            let first = children.len() as u32;
            for ch in &d.children {
                children.push(heap.put(c.child_json(ch).as_bytes()));
            }
            DirRec {
                uri: heap.put(d.uri.as_bytes()),
                first_child: first,
                child_count: d.children.len() as u32,
            }
        })
        .collect();
    let mirror: Vec<MirrorRec> = c
        .mirrored()
        .into_iter()
        .filter_map(|(name, skill)| {
            let i = c.skills.iter().position(|s| s.uri == skill.uri)?;
            let mut rec = MirrorRec {
                name: heap.put(name.as_bytes()),
                skill: i as u32,
                archive_digest: Span::default(),
                archive_data: Span::default(),
                archive_size: 0,
                archive_external: false,
            };
            if let Some(a) = &skill.archive {
                // The same rule as files: above the policy's size, the archive is an asset.
                rec.archive_external = o.assets.is_some_and(|p| a.size > p.inline_max);
                rec.archive_digest = heap.put(a.digest.as_bytes());
                rec.archive_size = a.size as u32;
                if rec.archive_external {
                    let raw = raw_asset_name(&a.digest);
                    if !assets.iter().any(|x| x.name == raw) {
                        assets.push(Asset {
                            name: raw.to_owned(),
                            bytes: a.bytes.clone(),
                        });
                    }
                } else {
                    rec.archive_data = heap.put(&a.bytes);
                }
            }
            Some(rec)
        })
        .collect();
    let mut sections = vec![
        SectionRec::required(SECTION_INSTRUCTIONS, instr),
        SectionRec::required(SECTION_MIRROR_INDEX, mirror_index),
    ];
    if files.iter().any(|f| f.external) || mirror.iter().any(|m| m.archive_external) {
        let mut table = Vec::new();
        u32s(&mut table, &rendered_lens);
        sections.push(SectionRec::required(SECTION_ASSETS, heap.put(&table)));
    }
    sections.extend(encode_fallback(c, &mut heap));
    if let Some(a) = &c.access {
        sections.extend(encode_access(c, a, o.instructions.is_none(), &mut heap));
    }
    let signed = c.is_signed();
    if signed {
        let entry_spans: Vec<Span> = skills.iter().map(|r| r.entry).collect();
        sections.extend(encode_signatures(c, &mut heap, &entries, &entry_spans));
    }
    // The snapshot id covers every entry (hence every digest) and the directory shapes.
    let mut fingerprint = entries.join("\n");
    for d in &c.dirs {
        fingerprint.push('\n');
        fingerprint.push_str(&d.uri);
        for ch in &d.children {
            if let DirChild::Dir(u) = ch {
                fingerprint.push(' ');
                fingerprint.push_str(u);
            }
        }
    }
    let h = crate::skill::digest::sha256(fingerprint.as_bytes());
    let snapshot = u32::from_le_bytes([h[0], h[1], h[2], h[3]]);

    let header = Header {
        snapshot,
        files: files.len() as u32,
        skills: skills.len() as u32,
        dirs: dirs.len() as u32,
        children: children.len() as u32,
        mirror: mirror.len() as u32,
        sections: sections.len() as u32,
    };
    let mut out = Vec::with_capacity(
        heap.bytes.len() + PREFIX_LEN + 64 + files.len() * record_len::<FileRec>(),
    );
    out.extend_from_slice(MAGIC);
    u32s(&mut out, &[VERSION, 0]);
    out.extend_from_slice(&[0; 32]);
    put(&mut out, &header);
    files.iter().for_each(|r| put(&mut out, r));
    skills.iter().for_each(|r| put(&mut out, r));
    dirs.iter().for_each(|r| put(&mut out, r));
    children.iter().for_each(|r| put(&mut out, r));
    mirror.iter().for_each(|r| put(&mut out, r));
    sections.iter().for_each(|r| put(&mut out, r));
    u32s(&mut out, &[heap.bytes.len() as u32]);
    out.extend_from_slice(&heap.bytes);
    seal(&mut out);
    Packed { pack: out, assets }
}

/// The signature sections of a signed catalog, their payloads written to the heap. Each
/// envelope's range points into its skill's entry (`entries`, written at `entry_spans`), which
/// carries the same bytes in its `_meta`, so the pack holds every envelope once.
fn encode_signatures(
    c: &Compiled,
    heap: &mut Heap,
    entries: &[String],
    entry_spans: &[Span],
) -> Vec<SectionRec> {
    let mut table = Vec::new();
    for (i, sk) in c.skills.iter().enumerate() {
        let envelope = sk.envelope.as_deref().unwrap_or_default();
        let inside = entries
            .get(i)
            .zip(entry_spans.get(i))
            .and_then(|(text, span)| Some(span.off + text.find(envelope)? as u32));
        let rec = SignatureRec {
            envelope: match inside {
                Some(off) if !envelope.is_empty() => Span {
                    off,
                    len: envelope.len() as u32,
                },
                _ => heap.put(envelope.as_bytes()),
            },
            digest: heap.put(crate::skill::digest::digest_of(envelope.as_bytes()).as_bytes()),
        };
        put(&mut table, &rec);
    }
    let signatures = heap.put(&table);
    let keys = heap.put(c.keys_json().unwrap_or_default().as_bytes());
    vec![
        SectionRec::required(SECTION_SIGNATURES, signatures),
        SectionRec::required(SECTION_KEYS, keys),
    ]
}

/// The access sections ([`crate::access`]), their payloads written to the heap.
fn encode_access(
    c: &Compiled,
    a: &crate::access::Access,
    default_instructions: bool,
    heap: &mut Heap,
) -> Vec<SectionRec> {
    use crate::access::Audience;
    let mut table = Vec::new();
    for class in &a.classes {
        put(&mut table, &heap.put(class.join(" ").as_bytes()));
    }
    let classes = heap.put(&table);
    let mut table = Vec::new();
    for i in 0..c.skills.len() {
        put(&mut table, &c.skill_class(i));
    }
    let skills = heap.put(&table);
    let mut table = Vec::new();
    let file_classes = c.file_classes();
    for class in &file_classes {
        put(&mut table, class);
    }
    let files = heap.put(&table);
    let mut dirs = Vec::new();
    let mut children = Vec::new();
    for d in &c.dirs {
        put(&mut dirs, &AudienceRec::of(c.dir_audience(&d.uri)));
        for ch in &d.children {
            let audience = match ch {
                DirChild::Dir(uri) => c.dir_audience(uri),
                DirChild::File(i) => Audience::of_class(file_classes.get(*i).copied().unwrap_or(0)),
            };
            put(&mut children, &AudienceRec::of(audience));
        }
    }
    let dirs = heap.put(&dirs);
    let children = heap.put(&children);
    let names = c.prompt_names();
    let mirrored = c.mirrored();
    let mut table = Vec::new();
    for (i, sk) in c.skills.iter().enumerate() {
        let mirror_item = mirrored
            .get(sk.name.as_str())
            .filter(|m| m.uri == sk.uri)
            .map(|m| c.mirror_item_json(&sk.name, m))
            .unwrap_or_default();
        let rec = FragmentRec {
            instructions_line: heap.put(Compiled::instruction_line(sk).as_bytes()),
            mirror_item: heap.put(mirror_item.as_bytes()),
            prompt_item: heap.put(
                c.prompt_item_json(names.get(i).map_or("", String::as_str), i)
                    .as_bytes(),
            ),
            list_item: heap.put(c.list_skills_item_json(sk).as_bytes()),
        };
        put(&mut table, &rec);
    }
    let fragments = heap.put(&table);
    let heads_rec = HeadsRec {
        default_instructions,
        instructions_head: heap.put(crate::compile::INSTRUCTIONS_HEAD.as_bytes()),
        mirror_prefix: heap.put(c.mirror_prefix().as_bytes()),
    };
    let mut table = Vec::new();
    put(&mut table, &heads_rec);
    let heads = heap.put(&table);
    ACCESS_SECTIONS
        .into_iter()
        .zip([classes, skills, files, dirs, children, fragments, heads])
        .map(|(tag, text)| SectionRec::required(tag, text))
        .collect()
}

/// The fallback sections ([`crate::compile::fallback`]), their payloads written to the heap.
fn encode_fallback(c: &Compiled, heap: &mut Heap) -> Vec<SectionRec> {
    let names = c.prompt_names();
    let tools = heap.put(c.fallback_tools_json().as_bytes());
    let prompts = heap.put(c.fallback_prompts_json(&names).as_bytes());
    let list_skills = heap.put(c.list_skills_result_json().as_bytes());
    let mut rec = FallbackInstructionsRec::default();
    for (slot, (t, p)) in rec
        .0
        .iter_mut()
        .zip([(true, false), (false, true), (true, true)])
    {
        *slot = heap.put(Compiled::fallback_instructions(t, p).as_bytes());
    }
    let mut table = Vec::new();
    put(&mut table, &rec);
    let instructions = heap.put(&table);
    let mut table = Vec::new();
    for sk in &c.skills {
        let mut description = String::new();
        write_json_string(&sk.description, &mut description);
        let description = heap.put(description.as_bytes());
        let links = heap.put(c.prompt_links_json(sk).as_bytes());
        let (block, structured) = c.read_skill_parts(sk);
        let rec = FallbackSkillRec {
            description,
            links,
            read_block: heap.put(block.as_bytes()),
            read_structured: heap.put(structured.as_bytes()),
        };
        put(&mut table, &rec);
    }
    let skills = heap.put(&table);
    let mut by_name: Vec<(&str, usize)> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    by_name.sort();
    let mut table = Vec::new();
    for (name, i) in by_name {
        let rec = PromptRec {
            name: heap.put(name.as_bytes()),
            skill: i as u32,
        };
        put(&mut table, &rec);
    }
    let prompt_index = heap.put(&table);
    let mut table = Vec::new();
    for i in c.skills_by_name() {
        put(&mut table, &(i as u32));
    }
    let name_index = heap.put(&table);
    [
        (SECTION_FALLBACK_TOOLS, tools),
        (SECTION_FALLBACK_PROMPTS, prompts),
        (SECTION_FALLBACK_LIST_SKILLS, list_skills),
        (SECTION_FALLBACK_INSTRUCTIONS, instructions),
        (SECTION_FALLBACK_SKILLS, skills),
        (SECTION_FALLBACK_PROMPT_INDEX, prompt_index),
        (SECTION_FALLBACK_NAME_INDEX, name_index),
    ]
    .into_iter()
    .map(|(tag, text)| SectionRec::optional(tag, text))
    .collect()
}

/// Writes the total length and the SHA-256 into a pack's prefix, over its current bytes.
/// [`encode`] does this; it is public so tests can build structurally hostile packs whose
/// checksum is nevertheless valid. Does nothing to a buffer shorter than the prefix.
pub fn seal(pack: &mut [u8]) {
    if pack.len() < PREFIX_LEN {
        return;
    }
    let len = u32::try_from(pack.len()).unwrap_or(u32::MAX);
    pack[12..16].copy_from_slice(&len.to_le_bytes());
    let digest = crate::skill::digest::sha256(&pack[PREFIX_LEN..]);
    pack[16..PREFIX_LEN].copy_from_slice(&digest);
}

/// The snapshot id recorded in a pack's header, without decoding the pack (for a pack just
/// made by [`encode`]; loading the pack checks it along with everything else).
pub fn snapshot_of(pack: &[u8]) -> Option<u32> {
    pack.get(PREFIX_LEN..PREFIX_LEN + 4)
        .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

/// Checks magic, version, length and checksum, in that order, so each kind of damage is
/// named: not a pack at all, a pack of another format version, a truncated (or extended)
/// pack, a corrupted one.
fn check_integrity(pack: &[u8]) -> Result<(), PackError> {
    if pack.len() < 8 || &pack[..8] != MAGIC {
        return Err(PackError(
            "it does not start with SKEDPACK: this is not a skills pack (make one with `skills-edge pack <dir> -o <file>`)".into(),
        ));
    }
    let too_short = || {
        PackError(format!(
            "truncated: {} bytes, too short for the header",
            pack.len()
        ))
    };
    let word = |at: usize| {
        pack.get(at..at + 4)
            .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
            .ok_or_else(too_short)
    };
    let version = word(8)?;
    if version != VERSION {
        return Err(PackError(format!(
            "format version {version}; this build reads version {VERSION} only (rebuild the pack with this version of skills-edge)"
        )));
    }
    // Fuzzing builds only (`cargo fuzz` compiles with `--cfg fuzzing`; no other build sets it):
    // the length and the SHA-256 are not checked, so that mutated packs reach the structure
    // decoder instead of all stopping at the checksum. Magic and version still are.
    if cfg!(fuzzing) {
        return Ok(());
    }
    let total = word(12)? as usize;
    if pack.len() != total {
        let how = if pack.len() < total {
            "truncated"
        } else {
            "has trailing bytes"
        };
        return Err(PackError(format!(
            "{how}: {} bytes, the header says {total} (copy the whole file, in binary mode)",
            pack.len()
        )));
    }
    if total < PREFIX_LEN {
        return Err(too_short());
    }
    let digest = crate::skill::digest::sha256(&pack[PREFIX_LEN..]);
    if digest[..] != pack[16..PREFIX_LEN] {
        return Err(PackError(
            "checksum mismatch: the pack is corrupted (rebuild it, and copy it in binary mode)"
                .into(),
        ));
    }
    Ok(())
}

/// A JSON value read only to check it: unlike `serde::de::IgnoredAny`, which skips strings
/// without decoding their escapes, every string and key is decoded, so a fragment that strict
/// JSON readers refuse (a lone surrogate escape such as `"\ud800"`) is refused here, instead of
/// making every reply that embeds it unreadable to them. Nothing is kept.
struct StrictJson;

impl<'de> serde::Deserialize<'de> for StrictJson {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StrictJsonVisitor)
    }
}

struct StrictJsonVisitor;

impl<'de> serde::de::Visitor<'de> for StrictJsonVisitor {
    type Value = StrictJson;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<StrictJson, E> {
        Ok(StrictJson)
    }
    fn visit_i64<E>(self, _: i64) -> Result<StrictJson, E> {
        Ok(StrictJson)
    }
    fn visit_u64<E>(self, _: u64) -> Result<StrictJson, E> {
        Ok(StrictJson)
    }
    fn visit_f64<E>(self, _: f64) -> Result<StrictJson, E> {
        Ok(StrictJson)
    }
    fn visit_str<E>(self, _: &str) -> Result<StrictJson, E> {
        Ok(StrictJson)
    }
    fn visit_unit<E>(self) -> Result<StrictJson, E> {
        Ok(StrictJson)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<StrictJson, A::Error> {
        while seq.next_element::<StrictJson>()?.is_some() {}
        Ok(StrictJson)
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<StrictJson, A::Error> {
        while map.next_key::<StrictJson>()?.is_some() {
            map.next_value::<StrictJson>()?;
        }
        Ok(StrictJson)
    }
}

/// The header after the prefix: the snapshot id and the length of each table.
#[derive(Debug, Clone, Copy, Default)]
struct Header {
    snapshot: u32,
    files: u32,
    skills: u32,
    dirs: u32,
    children: u32,
    mirror: u32,
    sections: u32,
}

impl Record for Header {
    fn layout(&mut self, f: &mut impl Fields) {
        f.word(&mut self.snapshot);
        f.word(&mut self.files);
        f.word(&mut self.skills);
        f.word(&mut self.dirs);
        f.word(&mut self.children);
        f.word(&mut self.mirror);
        f.word(&mut self.sections);
    }
}

/// The header's table lengths, each checked against the size of its records.
struct Counts {
    snapshot: u32,
    files: usize,
    skills: usize,
    dirs: usize,
    children: usize,
    mirror: usize,
    sections: usize,
}

impl Counts {
    /// Reads the header at `r` (just after the prefix).
    fn read(r: &mut Reader<'_>) -> Result<Counts, PackError> {
        let h: Header = r.record()?;
        let pack_len = r.b.len();
        let fits = |n: u32, rec: usize, what: &str| {
            let n = n as usize;
            if n.saturating_mul(rec) > pack_len {
                return Err(PackError(format!("{what} count {n} exceeds the pack size")));
            }
            Ok(n)
        };
        Ok(Counts {
            snapshot: h.snapshot,
            files: fits(h.files, record_len::<FileRec>(), "file")?,
            skills: fits(h.skills, record_len::<SkillRec>(), "skill")?,
            dirs: fits(h.dirs, record_len::<DirRec>(), "directory")?,
            children: fits(h.children, record_len::<Span>(), "child")?,
            mirror: fits(h.mirror, record_len::<MirrorRec>(), "mirror")?,
            sections: fits(h.sections, record_len::<SectionRec>(), "section")?,
        })
    }

    /// Bytes from the end of the header to the table of sections.
    fn before_sections(&self) -> usize {
        self.files * record_len::<FileRec>()
            + self.skills * record_len::<SkillRec>()
            + self.dirs * record_len::<DirRec>()
            + self.children * record_len::<Span>()
            + self.mirror * record_len::<MirrorRec>()
    }
}

/// Where the table of sections lies in a pack, as [`section_table`] finds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SectionTable {
    /// Offset of the header's section count (a little-endian `u32`).
    pub count_at: usize,
    /// Offset of the first section record.
    pub start: usize,
    /// Number of section records.
    pub count: usize,
    /// Length of one record: `tag`, then the payload's range (offset, length), three `u32`s;
    /// the tag is the first word.
    pub record_len: usize,
}

/// Finds the table of sections of `pack` with the reader [`crate::Catalog::from_bytes`] uses
/// (the same record layouts), without checking anything else: for tests and tools that
/// rewrite a pack's sections, then [`seal`] it again. `Err` when the header or the tables
/// before it do not fit in `pack`.
pub fn section_table(pack: &[u8]) -> Result<SectionTable, PackError> {
    let mut r = Reader {
        b: pack,
        pos: PREFIX_LEN,
    };
    let counts = Counts::read(&mut r)?;
    let start = r.pos + counts.before_sections();
    let record_len = record_len::<SectionRec>();
    if start.saturating_add(counts.sections.saturating_mul(record_len)) > pack.len() {
        return Err(PackError("truncated header or table".into()));
    }
    Ok(SectionTable {
        count_at: r.pos - 4,
        start,
        count: counts.sections,
        record_len,
    })
}

struct Reader<'a> {
    b: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn u32(&mut self) -> Result<u32, PackError> {
        let s = self
            .b
            .get(self.pos..self.pos + 4)
            .ok_or_else(|| PackError("truncated header or table".into()))?;
        self.pos += 4;
        Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
    }
    /// The next record.
    fn record<R: Record>(&mut self) -> Result<R, PackError> {
        let end = self.pos + record_len::<R>();
        let bytes = self
            .b
            .get(self.pos..end)
            .ok_or_else(|| PackError("truncated header or table".into()))?;
        self.pos = end;
        Ok(get(bytes))
    }
    /// The next `n` records.
    fn records<R: Record>(&mut self, n: usize) -> Result<Vec<R>, PackError> {
        (0..n).map(|_| self.record()).collect()
    }
}

/// Decodes and validates a pack. Returns the tables; spans index into
/// `&pack[tables.heap_start..]`.
pub(crate) fn decode(pack: &[u8]) -> Result<Tables, PackError> {
    check_integrity(pack)?;
    let mut r = Reader {
        b: pack,
        pos: PREFIX_LEN,
    };
    let h = Counts::read(&mut r)?;
    let snapshot = h.snapshot;
    let files: Vec<FileRec> = r.records(h.files)?;
    let skills: Vec<SkillRec> = r.records(h.skills)?;
    let dirs: Vec<DirRec> = r.records(h.dirs)?;
    let children: Vec<Span> = r.records(h.children)?;
    let mirror: Vec<MirrorRec> = r.records(h.mirror)?;
    let mut instructions = None;
    let mut mirror_index = None;
    let mut fallback: [Option<Span>; 7] = [None; 7];
    let mut signatures = None;
    let mut keys = None;
    let mut access: [Option<Span>; 7] = [None; 7];
    let mut assets = None;
    for _ in 0..h.sections {
        let SectionRec {
            tag,
            text: span,
            required,
        } = r.record()?;
        match tag {
            SECTION_INSTRUCTIONS => instructions = Some(span),
            SECTION_ASSETS => assets = Some(span),
            SECTION_MIRROR_INDEX => mirror_index = Some(span),
            SECTION_SIGNATURES => signatures = Some(span),
            SECTION_KEYS => keys = Some(span),
            t if ACCESS_SECTIONS.contains(&t) => {
                let slot = (t - SECTION_ACCESS_CLASSES) as usize;
                if let Some(s) = access.get_mut(slot) {
                    *s = Some(span);
                }
            }
            t if FALLBACK_SECTIONS.contains(&t) => {
                let slot = (t - SECTION_FALLBACK_TOOLS) as usize;
                if let Some(s) = fallback.get_mut(slot) {
                    *s = Some(span);
                }
            }
            t if required => {
                return Err(PackError(format!(
                    "section {t} is required to serve the pack, and this build does not know it (serve the pack with the version of skills-edge that made it, or rebuild the pack with this one)"
                )))
            }
            // A section this reader does not know and may ignore.
            _ => {}
        }
    }
    let heap_len = r.u32()? as usize;
    let heap_start = r.pos;
    if pack.len() - heap_start != heap_len {
        return Err(PackError(format!(
            "heap is {} bytes, header says {heap_len}",
            pack.len() - heap_start
        )));
    }
    let heap = &pack[heap_start..];
    let bytes = |s: Span, what: &str| -> Result<&[u8], PackError> {
        let start = s.off as usize;
        start
            .checked_add(s.len as usize)
            .and_then(|end| heap.get(start..end))
            .ok_or_else(|| PackError(format!("{what} lies outside the heap")))
    };
    let text = |s: Span, what: &str| -> Result<&str, PackError> {
        std::str::from_utf8(bytes(s, what)?).map_err(|_| PackError(format!("{what} is not UTF-8")))
    };
    let json = |s: Span, what: &str| -> Result<(), PackError> {
        serde_json::from_str::<StrictJson>(text(s, what)?)
            .map(|_| ())
            .map_err(|e| PackError(format!("{what} is not valid JSON: {e}")))
    };
    let digest = |s: Span, what: &str| -> Result<(), PackError> {
        if is_wire_digest(text(s, what)?) {
            Ok(())
        } else {
            Err(PackError(format!("{what} is not a sha256 digest")))
        }
    };
    let instructions =
        instructions.ok_or_else(|| PackError("the instructions section is missing".into()))?;
    text(instructions, "instructions")?;
    let mirror_index =
        mirror_index.ok_or_else(|| PackError("the mirror index section is missing".into()))?;
    json(mirror_index, "mirror index")?;
    let rendered: Option<Vec<u32>> = match assets {
        Some(s) => Some(table(
            bytes(s, "asset lengths")?,
            Some(files.len()),
            "asset length",
        )?),
        None => None,
    };
    let mut prev: Option<&str> = None;
    for (i, f) in files.iter().enumerate() {
        let rendered_len = rendered
            .as_ref()
            .and_then(|r| r.get(i).copied())
            .unwrap_or(0);
        let uri = text(f.uri, "file URI")?;
        if prev.is_some_and(|p| p >= uri) {
            return Err(PackError(format!("file URIs are not sorted at {uri}")));
        }
        prev = Some(uri);
        text(f.mime, "MIME type")?;
        digest(f.digest, "file digest")?;
        let data = bytes(f.data, "file data")?;
        if f.external {
            if !data.is_empty() || rendered_len < 2 {
                return Err(PackError(format!(
                    "{uri} is external but has inline bytes or no rendered length"
                )));
            }
        } else {
            if data.len() != f.size as usize || rendered_len != 0 {
                return Err(PackError(format!(
                    "{uri} has {} bytes, its record says {}",
                    data.len(),
                    f.size
                )));
            }
            if f.text && std::str::from_utf8(data).is_err() {
                return Err(PackError(format!("{uri} is marked text but is not UTF-8")));
            }
        }
    }
    prev = None;
    for s in &skills {
        let uri = text(s.uri, "skill URI")?;
        if prev.is_some_and(|p| p >= uri) {
            return Err(PackError(format!("skill URIs are not sorted at {uri}")));
        }
        prev = Some(uri);
        json(s.entry, "skill entry")?;
        json(s.list_item, "resource list item")?;
        text(s.name, "skill name")?;
        digest(s.revision, "skill revision")?;
    }
    prev = None;
    for d in &dirs {
        let uri = text(d.uri, "directory URI")?;
        if prev.is_some_and(|p| p >= uri) {
            return Err(PackError(format!("directory URIs are not sorted at {uri}")));
        }
        prev = Some(uri);
        let end = (d.first_child as usize).checked_add(d.child_count as usize);
        if end.is_none_or(|end| end > children.len()) {
            return Err(PackError(format!(
                "children of {uri} lie outside the table"
            )));
        }
    }
    for c in &children {
        json(*c, "directory child")?;
    }
    prev = None;
    for m in &mirror {
        let name = text(m.name, "mirrored name")?;
        if prev.is_some_and(|p| p >= name) {
            return Err(PackError(format!(
                "mirrored names are not sorted at {name}"
            )));
        }
        prev = Some(name);
        if m.skill as usize >= skills.len() {
            return Err(PackError(format!(
                "the mirrored skill {name} lies outside the skills table"
            )));
        }
        let data = bytes(m.archive_data, "archive data")?;
        if m.archive_digest.len == 0 {
            if m.archive_size != 0 || !data.is_empty() || m.archive_external {
                return Err(PackError(format!(
                    "the mirrored skill {name} has archive bytes but no archive digest"
                )));
            }
        } else {
            digest(m.archive_digest, "archive digest")?;
            let inline_ok = !m.archive_external && data.len() == m.archive_size as usize;
            let external_ok = m.archive_external && data.is_empty();
            if m.archive_size == 0 || !(inline_ok || external_ok) {
                return Err(PackError(format!(
                    "the archive of {name} has {} bytes in the pack, its record says {}{}",
                    data.len(),
                    m.archive_size,
                    if m.archive_external {
                        " and that it is an asset"
                    } else {
                        ""
                    }
                )));
            }
        }
    }
    let skill_names: Vec<&str> = skills
        .iter()
        .map(|s| text(s.name, "skill name"))
        .collect::<Result<_, _>>()?;
    let fallback = decode_fallback(&fallback, heap, &skill_names)?;
    let signatures =
        match (signatures, keys) {
            (Some(signature_table), Some(keys)) => {
                let per_skill: Vec<SignatureRec> = table(
                    bytes(signature_table, "signature table")?,
                    Some(skills.len()),
                    "signature",
                )?;
                for (i, s) in per_skill.iter().enumerate() {
                    let envelope = text(s.envelope, "skill envelope")?;
                    if !envelope.starts_with('{') {
                        return Err(PackError(format!(
                            "the envelope of skill {i} is not a JSON object"
                        )));
                    }
                    json(s.envelope, "skill envelope")?;
                    digest(s.digest, "envelope digest")?;
                }
                let keys_text = text(keys, "keys.json")?;
                if !keys_text.starts_with('{') {
                    return Err(PackError("keys.json is not a JSON object".into()));
                }
                json(keys, "keys.json")?;
                Some(SignatureTables {
                    skills: per_skill,
                    keys,
                })
            }
            (None, None) => None,
            _ => return Err(PackError(
                "a signed pack has both signature sections (10 and 11), but this one has only one"
                    .into(),
            )),
        };
    let access = match access {
        [Some(cl), Some(sk), Some(fi), Some(di), Some(ch), Some(fr), Some(he)] => {
            let n_classes = bytes(cl, "access classes")?.len() / record_len::<Span>();
            let classes: Vec<Span> = table(bytes(cl, "access classes")?, None, "access class")?;
            if classes.is_empty() || n_classes > crate::access::MAX_PRIVATE_CLASSES {
                return Err(PackError(format!(
                    "the pack has {n_classes} private audience classes; a pack with access rules has 1 to {}",
                    crate::access::MAX_PRIVATE_CLASSES
                )));
            }
            for c in &classes {
                let scopes = text(*c, "access class scopes")?;
                if !scopes.split(' ').all(crate::access::is_scope_token) {
                    return Err(PackError(format!(
                        "the access class {scopes:?} is not a list of scope tokens"
                    )));
                }
            }
            let class_ok = |c: u32| c as usize <= classes.len();
            let skill_classes: Vec<u32> =
                table(bytes(sk, "skill classes")?, Some(skills.len()), "skill class")?;
            let file_classes: Vec<u32> =
                table(bytes(fi, "file classes")?, Some(files.len()), "file class")?;
            if !skill_classes.iter().chain(&file_classes).all(|&c| class_ok(c)) {
                return Err(PackError(
                    "a skill or file names an audience class the pack does not have".into(),
                ));
            }
            let all = if classes.len() == 64 {
                u64::MAX
            } else {
                (1u64 << classes.len()) - 1
            };
            let dir_aud: Vec<AudienceRec> =
                table(bytes(di, "directory audiences")?, Some(dirs.len()), "directory audience")?;
            let child_aud: Vec<AudienceRec> = table(
                bytes(ch, "child audiences")?,
                Some(children.len()),
                "child audience",
            )?;
            if !dir_aud.iter().chain(&child_aud).all(|a| a.audience().private & !all == 0) {
                return Err(PackError(
                    "a directory names an audience class the pack does not have".into(),
                ));
            }
            let fragments: Vec<FragmentRec> =
                table(bytes(fr, "access fragments")?, Some(skills.len()), "access fragment")?;
            for f in &fragments {
                text(f.instructions_line, "instructions line")?;
                if f.mirror_item.len > 0 {
                    json(f.mirror_item, "mirror index item")?;
                }
                json(f.prompt_item, "prompt item")?;
                json(f.list_item, "list_skills item")?;
            }
            let [heads]: [HeadsRec; 1] = table(bytes(he, "access heads")?, Some(1), "access heads")?
                .try_into()
                .map_err(|_| PackError("the access heads table is not one record".into()))?;
            text(heads.instructions_head, "instructions head")?;
            let prefix = text(heads.mirror_prefix, "mirror index prefix")?;
            let closed = format!("{prefix}{}", crate::compile::mirror::MIRROR_SUFFIX);
            serde_json::from_str::<StrictJson>(&closed)
                .map_err(|e| PackError(format!("the mirror index prefix is not valid JSON: {e}")))?;
            Some(AccessTables {
                classes,
                skills: skill_classes,
                files: file_classes,
                dirs: dir_aud,
                children: child_aud,
                fragments,
                heads,
            })
        }
        found if found.iter().all(Option::is_none) => None,
        _ => {
            return Err(PackError(
                "a pack with access rules has all of its access sections (12 to 18), but this one lacks some".into(),
            ))
        }
    };
    if rendered.is_none()
        && (files.iter().any(|f| f.external) || mirror.iter().any(|m| m.archive_external))
    {
        return Err(PackError(
            "a file or archive is an asset, but the pack has no asset section (19)".into(),
        ));
    }
    Ok(Tables {
        assets: rendered,
        snapshot,
        instructions,
        mirror_index,
        fallback,
        signatures,
        access,
        files,
        skills,
        dirs,
        children,
        mirror,
        heap_start,
    })
}

/// The records of a table section, `n` of them expected (`None`: any number).
fn table<R: Record>(payload: &[u8], n: Option<usize>, what: &str) -> Result<Vec<R>, PackError> {
    let rec = record_len::<R>();
    let count = payload.len() / rec;
    if !payload.len().is_multiple_of(rec) || n.is_some_and(|n| n != count) {
        return Err(PackError(format!(
            "the {what} table is {} bytes, not {} records of {rec}",
            payload.len(),
            n.map_or_else(|| "whole".to_owned(), |n| n.to_string())
        )));
    }
    Ok(payload.chunks_exact(rec).map(get).collect())
}

/// Decodes and checks the fallback sections: all or none, every range inside the heap, JSON
/// where JSON is due, names sorted and unique, skill indices inside the skills table.
fn decode_fallback(
    found: &[Option<Span>; 7],
    heap: &[u8],
    skill_names: &[&str],
) -> Result<Option<FallbackTables>, PackError> {
    let n_skills = skill_names.len();
    if found.iter().all(Option::is_none) {
        return Ok(None);
    }
    let [Some(tools), Some(prompts), Some(list_skills), Some(instr), Some(per_skill), Some(prompt_index), Some(name_index)] =
        *found
    else {
        return Err(PackError(
            "the fallback sections are incomplete (a pack has all of them or none)".into(),
        ));
    };
    let bytes = |s: Span, what: &str| -> Result<&[u8], PackError> {
        let start = s.off as usize;
        start
            .checked_add(s.len as usize)
            .and_then(|end| heap.get(start..end))
            .ok_or_else(|| PackError(format!("{what} lies outside the heap")))
    };
    let text = |s: Span, what: &str| -> Result<&str, PackError> {
        std::str::from_utf8(bytes(s, what)?).map_err(|_| PackError(format!("{what} is not UTF-8")))
    };
    let json = |s: Span, what: &str, open: u8| -> Result<(), PackError> {
        let t = text(s, what)?;
        if t.as_bytes().first() != Some(&open) {
            return Err(PackError(format!("{what} is not a JSON {}", kind(open))));
        }
        serde_json::from_str::<serde::de::IgnoredAny>(t)
            .map(|_| ())
            .map_err(|e| PackError(format!("{what} is not valid JSON: {e}")))
    };
    fn kind(open: u8) -> &'static str {
        match open {
            b'[' => "array",
            b'{' => "object",
            _ => "string",
        }
    }
    json(tools, "fallback tools", b'[')?;
    json(prompts, "fallback prompts", b'[')?;
    json(list_skills, "fallback list_skills result", b'{')?;
    let [FallbackInstructionsRec(instructions)] = table(
        bytes(instr, "fallback instructions")?,
        Some(1),
        "fallback instructions",
    )?[..] else {
        return Err(PackError(
            "the fallback instructions table is not one record".into(),
        ));
    };
    for s in instructions {
        text(s, "fallback instructions")?;
    }
    let skills: Vec<FallbackSkillRec> = table(
        bytes(per_skill, "fallback skill table")?,
        Some(n_skills),
        "fallback skill",
    )?;
    for r in &skills {
        json(r.description, "fallback skill description", b'"')?;
        json(r.links, "fallback prompt links", b'[')?;
        json(r.read_block, "fallback read_skill block", b'{')?;
        json(
            r.read_structured,
            "fallback read_skill structured content",
            b'{',
        )?;
    }
    let prompts_by_name: Vec<PromptRec> = table(
        bytes(prompt_index, "fallback prompt index")?,
        Some(n_skills),
        "fallback prompt index",
    )?;
    let mut prev: Option<&str> = None;
    for p in &prompts_by_name {
        let name = text(p.name, "prompt name")?;
        if prev.is_some_and(|q| q >= name) {
            return Err(PackError(format!("prompt names are not sorted at {name}")));
        }
        prev = Some(name);
        if p.skill as usize >= n_skills {
            return Err(PackError(format!(
                "the prompt {name} names a skill outside the skills table"
            )));
        }
    }
    let skills_by_name: Vec<u32> = table(
        bytes(name_index, "fallback name index")?,
        Some(n_skills),
        "fallback name index",
    )?;
    let mut prev: Option<&str> = None;
    for &i in &skills_by_name {
        let Some(name) = skill_names.get(i as usize) else {
            return Err(PackError(
                "the fallback name index names a skill outside the skills table".into(),
            ));
        };
        if prev.is_some_and(|p| p > *name) {
            return Err(PackError(format!(
                "the fallback name index is not sorted at {name}"
            )));
        }
        prev = Some(name);
    }
    Ok(Some(FallbackTables {
        tools,
        prompts,
        list_skills,
        instructions,
        skills,
        prompts_by_name,
        skills_by_name,
    }))
}
