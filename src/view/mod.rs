//! The run-time view of a catalog: a pack read in place, looked up by URI with binary
//! searches over its sorted tables, and JSON fragments rendered at build time, so lookups
//! allocate nothing. Each record is read, bounds-checked, when it is used.

use crate::access::{Audience, Grant};
use crate::compile;
use crate::diag;
use crate::pack::{self, AudienceRec, Check, PackError, PackErrorKind, Span, Table, Tables};

mod access;
mod cache;
mod classes;
#[cfg(test)]
mod compiled;
mod fallback;
mod search;
mod spliced;
pub use classes::Merged;
pub use fallback::{FallbackView, SkillFallback};
pub use spliced::Spliced;

enum Bytes {
    Static(&'static [u8]),
    Owned(Box<[u8]>),
}

/// A loaded catalog (a decoded pack).
///
/// ```
/// use skills_edge::catalog::{compile::SourceTree, Catalog, Content};
/// let mut tree = SourceTree::default();
/// tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n# Hello\n");
/// tree.add_file("hello/references/tone.md", "Be kind.\n");
/// let catalog = Catalog::compile(tree, None).unwrap();
/// assert_eq!((catalog.skill_count(), catalog.file_count()), (1, 2));
/// let file = catalog.file("skill://hello/references/tone.md").unwrap();
/// assert_eq!(file.content, Content::Inline(b"Be kind.\n"));
/// assert!(catalog.skill("skill://hello").is_none(), "skills are named by their SKILL.md URI");
/// ```
pub struct Catalog {
    bytes: Bytes,
    t: Tables,
    cache: cache::Cache,
}

/// A served file.
///
/// ```
/// use skills_edge::catalog::{compile::SourceTree, Catalog};
/// let mut tree = SourceTree::default();
/// tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n");
/// tree.add_file("hello/assets/logo.png", vec![0x89, b'P', b'N', b'G', 0xff]);
/// let catalog = Catalog::compile(tree, None).unwrap();
/// let md = catalog.file("skill://hello/SKILL.md").unwrap();
/// assert_eq!((md.mime, md.is_text, md.text()), ("text/markdown", true, Some("---\nname: hello\ndescription: Say hello.\n---\n")));
/// let logo = catalog.file("skill://hello/assets/logo.png").unwrap();
/// assert_eq!((logo.mime, logo.size, logo.is_text), ("image/png", 5, false));
/// assert_eq!(logo.text(), None, "served as a base64 blob");
/// assert!(logo.digest.starts_with("sha256:") && logo.digest.len() == 71);
/// ```
#[derive(Debug, Clone, Copy)]
pub struct FileView<'a> {
    /// Its URI.
    pub uri: &'a str,
    /// Its MIME type.
    pub mime: &'a str,
    /// `sha256:` + 64 lowercase hex of its bytes.
    pub digest: &'a str,
    /// The length of its bytes.
    pub size: u64,
    /// Whether the bytes are UTF-8 (served as `text`; otherwise as base64 `blob`).
    pub is_text: bool,
    /// Where its bytes are.
    pub content: Content<'a>,
}

/// Where a file's bytes are.
///
/// ```
/// use skills_edge::catalog::{Catalog, Content};
/// # use skills_edge::catalog::compile::{compile, SourceTree};
/// # use skills_edge::catalog::pack::{self, AssetPolicy, PackOptions};
/// # let mut tree = SourceTree::default();
/// # tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n");
/// # tree.add_file("hello/data.bin", vec![7u8; 100]);
/// # let assets = Some(AssetPolicy { inline_max: 64 });
/// # let packed = pack::encode_with(&compile(tree).unwrap(), &PackOptions { assets, ..Default::default() });
/// // `packed.pack`: what `skills-edge pack --assets DIR --inline-max 64` writes.
/// let catalog = Catalog::from_bytes(packed.pack).unwrap();
/// assert!(matches!(catalog.file("skill://hello/SKILL.md").unwrap().content, Content::Inline(_)));
/// let data = catalog.file("skill://hello/data.bin").unwrap();
/// assert!(matches!(data.content, Content::External { .. }), "over 64 bytes: an asset");
/// assert_eq!(data.bytes(), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Content<'a> {
    /// In the pack.
    Inline(&'a [u8]),
    /// Outside it, as two assets named by the digest: the raw bytes
    /// (`crate::pack::raw_asset_name`) and the JSON string of a `resources/read` content
    /// item (`crate::pack::rendered_asset_name`), `rendered_len` bytes long.
    External {
        /// The length of the rendered asset.
        rendered_len: u64,
    },
}

impl<'a> FileView<'a> {
    /// The bytes, when they are in the pack (`None` for an asset).
    pub fn bytes(&self) -> Option<&'a [u8]> {
        match self.content {
            Content::Inline(b) => Some(b),
            Content::External { .. } => None,
        }
    }

    /// The bytes as the text a `resources/read` content carries under `text`: in the pack,
    /// marked text and UTF-8. `None` for bytes served as a base64 `blob`, and for an asset.
    pub fn text(&self) -> Option<&'a str> {
        match self.content {
            Content::Inline(b) if self.is_text => std::str::from_utf8(b).ok(),
            _ => None,
        }
    }
}

/// The mirror's archive of a skill (`{name}.tar.gz`, see [`crate::compile::archive`]).
///
/// ```
/// use skills_edge::catalog::{compile::SourceTree, Catalog};
/// let mut tree = SourceTree::default();
/// tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n");
/// tree.add_file("hello/references/tone.md", "Be kind.\n");
/// let catalog = Catalog::compile(tree, None).unwrap();
/// let archive = catalog.mirrored_archive("hello").unwrap();
/// let bytes = archive.bytes.unwrap();
/// assert_eq!(&bytes[..2], b"\x1f\x8b", "a gzip stream");
/// assert_eq!(archive.size, bytes.len() as u64);
/// assert!(archive.digest.starts_with("sha256:"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArchiveView<'a> {
    /// `sha256:` + 64 lowercase hex of its bytes.
    pub digest: &'a str,
    /// The length of its bytes.
    pub size: u64,
    /// Its bytes when they are in the pack; `None` when they are the asset named
    /// [`crate::pack::raw_asset_name`] of the digest.
    pub bytes: Option<&'a [u8]>,
}

/// A skill's signature in a signed catalog (see [`crate::compile::signing`]).
///
/// ```
/// use skills_edge::catalog::compile::{compile, signing::CatalogId, SourceTree};
/// use skills_edge::catalog::sign::{Envelope, SigningKey};
/// use skills_edge::catalog::{pack, Catalog};
/// let mut tree = SourceTree::default();
/// tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n");
/// let mut compiled = compile(tree).unwrap();
/// let key = SigningKey::from_seed([7; 32]);
/// compiled.sign(&key, &CatalogId::new("--catalog-id", "acme.example/skills").unwrap());
/// let catalog = Catalog::from_bytes(pack::encode(&compiled, None)).unwrap();
/// let signature = catalog.signature(0).unwrap();
/// let envelope = Envelope::parse(signature.envelope_json.as_bytes()).unwrap();
/// let statement = envelope.verify(key.public()).unwrap();
/// assert_eq!((statement.skill.as_str(), statement.catalog.as_str()), ("skill://hello/SKILL.md", "acme.example/skills"));
/// assert!(signature.digest.starts_with("sha256:"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SignatureView<'a> {
    /// Its DSSE envelope, a JSON object (the same bytes the entry's `_meta` carries).
    pub envelope_json: &'a str,
    /// `sha256:` + 64 lowercase hex of `envelope_json`'s bytes.
    pub digest: &'a str,
}

/// A served skill.
///
/// ```
/// use skills_edge::catalog::{compile::SourceTree, Catalog};
/// let mut tree = SourceTree::default();
/// tree.add_file("acme/hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n");
/// let catalog = Catalog::compile(tree, None).unwrap();
/// let skill = catalog.skill("skill://acme/hello/SKILL.md").unwrap();
/// assert_eq!(skill.name, "hello");
/// assert!(skill.entry_json.contains(r#""uri":"skill://acme/hello/SKILL.md""#));
/// assert!(skill.list_item_json.to_string().contains(r#""mimeType":"text/markdown""#));
/// assert!(!skill.revision.is_empty());
/// ```
#[derive(Debug, Clone, Copy)]
pub struct SkillView<'a> {
    /// URI of its `SKILL.md`.
    pub uri: &'a str,
    /// `frontmatter.name`.
    pub name: &'a str,
    /// Its revision (`crate::skill::revision`).
    pub revision: &'a str,
    /// The entry, as JSON.
    pub entry_json: &'a str,
    /// The `resources/list` item for its `SKILL.md`, as JSON.
    pub list_item_json: Spliced<'a>,
}

impl<'a> SkillView<'a> {
    /// The skill root: the URI without `/SKILL.md`.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn root(&self) -> &'a str {
        self.uri.strip_suffix("/SKILL.md").unwrap_or(self.uri)
    }
}

/// A directory of the namespace.
///
/// ```
/// use skills_edge::catalog::{compile::SourceTree, Catalog, Grant};
/// let mut tree = SourceTree::default();
/// tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n");
/// tree.add_file("hello/references/tone.md", "Be kind.\n");
/// let catalog = Catalog::compile(tree, None).unwrap();
/// let dir = catalog.dir("skill://hello").unwrap();
/// assert_eq!(dir.len(), 2, "references/ first, then SKILL.md");
/// assert!(dir.child(0).unwrap().to_string().contains(r#""uri":"skill://hello/references""#));
/// assert!(dir.audience.public && dir.child_visible(1, Grant::PUBLIC));
/// ```
#[derive(Clone, Copy)]
pub struct DirView<'a> {
    /// Its URI.
    pub uri: &'a str,
    /// Its position in URI order among every directory of the catalog, hidden ones included
    /// (stable for one catalog; never shown to a caller).
    pub index: usize,
    /// Who sees it: the union of the audiences of the skills at, under or around it.
    pub audience: Audience,
    children: Table<Span>,
    /// The audience of each child (empty in a catalog without private skills).
    child_audiences: Option<Table<AudienceRec>>,
    pack: &'a [u8],
    heap: &'a [u8],
}

impl std::fmt::Debug for DirView<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DirView")
            .field("uri", &self.uri)
            .field("index", &self.index)
            .field("audience", &self.audience)
            .field("children", &self.children.len())
            .finish_non_exhaustive()
    }
}

impl<'a> DirView<'a> {
    /// Number of direct children.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn len(&self) -> usize {
        self.children.len()
    }
    /// Whether the directory is empty.
    #[cfg(any(test, feature = "internals"))]
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn is_empty(&self) -> bool {
        self.children.len() == 0
    }
    /// The JSON of child `i` (a `Resource`), if any, as its pieces: what a reply copies.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn child(&self, i: usize) -> Option<Spliced<'a>> {
        self.children
            .get(self.pack, i)
            .map(|s| spliced(self.heap, s))
    }

    /// Whether a caller with `grant` sees child `i` (every child of a catalog without private
    /// skills is public).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn child_visible(&self, i: usize, grant: Grant) -> bool {
        match &self.child_audiences {
            None => true,
            Some(t) => t
                .get(self.pack, i)
                .is_some_and(|a| grant.sees(a.audience())),
        }
    }
}

fn bytes_at(heap: &[u8], s: Span) -> &[u8] {
    // Bounds-checked here: a range outside the heap reads as empty.
    let start = s.off as usize;
    heap.get(start..start.saturating_add(s.len as usize))
        .unwrap_or(&[])
}

/// The spliced text whose list of pieces is at `s` (a range outside the heap reads as an
/// empty list).
fn spliced(heap: &[u8], s: Span) -> Spliced<'_> {
    Spliced::new(heap, bytes_at(heap, s))
}

fn str_at(heap: &[u8], s: Span) -> &str {
    // Checked here: bytes that are not UTF-8 read as empty.
    std::str::from_utf8(bytes_at(heap, s)).unwrap_or("")
}

impl Catalog {
    /// Loads a pack that lives for the whole program and that the build vouches for: the
    /// pack a build script embedded (`include_bytes!`). Its shape only is checked (magic,
    /// version, length, where each table lies), in time independent of the catalog's size:
    /// no digest of the whole pack, no table decoded. Each record is read, bounds-checked,
    /// when it is used; a damaged one reads as absent, never a panic. A pack from elsewhere
    /// goes through [`Catalog::from_bytes`].
    pub fn from_static(pack: &'static [u8]) -> Result<Self, PackError> {
        Ok(Catalog {
            t: pack::open(pack, Check::Shape)?,
            bytes: Bytes::Static(pack),
            cache: cache::Cache::default(),
        })
    }

    /// Loads a pack the deployment vouches for, from owned bytes: the pack bundled with a
    /// Cloudflare Worker's code, which the same upload delivers. Checked as
    /// [`Catalog::from_static`] checks (the shape only, in time independent of the catalog's
    /// size).
    pub fn from_bundled(pack: Vec<u8>) -> Result<Self, PackError> {
        Ok(Catalog {
            t: pack::open(&pack, Check::Shape)?,
            bytes: Bytes::Owned(pack.into_boxed_slice()),
            cache: cache::Cache::default(),
        })
    }

    /// Loads a pack from owned bytes that come from elsewhere (a user's file, object
    /// storage): the whole pack is checked first, its SHA-256 then every record, range,
    /// string, order and JSON fragment, in time linear in the pack, so a corrupted or
    /// hostile pack is refused with a message naming what is wrong.
    pub fn from_bytes(pack: Vec<u8>) -> Result<Self, PackError> {
        Ok(Catalog {
            t: pack::open(&pack, Check::Full)?,
            bytes: Bytes::Owned(pack.into_boxed_slice()),
            cache: cache::Cache::default(),
        })
    }

    /// Compiles a source tree and loads the result (tests, benchmarks, tools).
    pub fn compile(
        tree: compile::SourceTree,
        instructions: Option<&str>,
    ) -> Result<Self, CatalogError> {
        let compiled = compile::compile(tree).map_err(CatalogError::Compile)?;
        Catalog::from_bytes(pack::encode(&compiled, instructions)).map_err(CatalogError::Pack)
    }

    /// The bytes of the search section, when the pack has one (checked to fit when the pack
    /// was opened).
    pub(crate) fn search_section(&self) -> Option<&[u8]> {
        let s = self.t.search?;
        let start = self.t.heap_start.checked_add(s.off as usize)?;
        self.pack().get(start..start.checked_add(s.len as usize)?)
    }

    /// The whole pack.
    fn pack(&self) -> &[u8] {
        match &self.bytes {
            Bytes::Static(b) => b,
            Bytes::Owned(b) => b,
        }
    }

    fn heap(&self) -> &[u8] {
        self.pack().get(self.t.heap_start..).unwrap_or(&[])
    }

    fn s(&self, span: Span) -> &str {
        str_at(self.heap(), span)
    }

    /// Binary search of a table sorted by URI.
    fn find<R: pack::Keyed>(&self, table: &Table<R>, uri: &str) -> Option<usize> {
        table.find(self.pack(), uri, |s| self.s(s))
    }

    /// The content snapshot id: equal for equal catalogs, different after any change.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn snapshot(&self) -> u32 {
        self.t.snapshot
    }

    /// The instructions for a caller with `grant` (they name the skills it sees). They are
    /// borrowed from the pack exactly when they are the ones every caller without a grant
    /// gets: always in a catalog without private skills or with instructions given when it
    /// was packed, and for [`Grant::PUBLIC`]. A caller with a grant in a catalog with
    /// private skills gets its own, assembled per call.
    ///
    /// ```
    /// use skills_edge::catalog::{compile::SourceTree, Catalog, Grant};
    /// use std::borrow::Cow;
    /// let mut tree = SourceTree::default();
    /// tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n# Hello\n");
    /// let catalog = Catalog::compile(tree, None).unwrap();
    /// let text = catalog.instructions(Grant::PUBLIC);
    /// assert!(matches!(text, Cow::Borrowed(_)) && text.contains("skill://hello/SKILL.md"));
    /// ```
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn instructions(&self, grant: Grant) -> std::borrow::Cow<'_, str> {
        if !grant.is_public()
            && let Some(own) = self.assembled_instructions(grant)
        {
            return std::borrow::Cow::Owned(own);
        }
        std::borrow::Cow::Borrowed(self.s(self.t.instructions))
    }

    /// The `/.well-known/agent-skills/index.json` of the catalog (see
    /// [`crate::compile::mirror`]) for a caller with `grant`: assembled from its prefix and
    /// the items of the skills that caller sees. The anonymous caller's ([`Grant::PUBLIC`])
    /// is assembled on first use, then kept; another caller's is assembled per call.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn mirror_index(&self, grant: Grant) -> std::borrow::Cow<'_, str> {
        if grant.is_public() {
            return self.public_mirror_index().into();
        }
        self.assemble_mirror_index(grant).into()
    }

    /// The anonymous caller's mirror index, assembled on first use, then kept.
    fn public_mirror_index(&self) -> &str {
        self.cache
            .mirror_index
            .get_or_init(|| self.assemble_mirror_index(Grant::PUBLIC))
    }

    /// The skill the mirror publishes under `name`, if any.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn mirrored_skill(&self, name: &str) -> Option<SkillView<'_>> {
        self.skill_at(self.mirror_rec(name)?.skill as usize)
    }

    /// The mirror record of `name` (the table is sorted by name).
    fn mirror_rec(&self, name: &str) -> Option<pack::MirrorRec> {
        let i = self.find(&self.t.mirror, name)?;
        self.t.mirror.get(self.pack(), i)
    }

    /// The archive the mirror publishes for the skill mirrored under `name`: `None` when no
    /// skill is mirrored under it, or when that skill is only a `SKILL.md` (`type:
    /// "skill-md"`).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn mirrored_archive(&self, name: &str) -> Option<ArchiveView<'_>> {
        let m = self.mirror_rec(name)?;
        if m.archive_digest.len == 0 {
            return None;
        }
        Some(ArchiveView {
            digest: self.s(m.archive_digest),
            size: u64::from(m.archive_size),
            bytes: (!m.archive_external).then(|| bytes_at(self.heap(), m.archive_data)),
        })
    }

    /// The pack's format version: `pack::VERSION`, the only one this build reads.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn format_version(&self) -> u32 {
        pack::VERSION
    }

    /// Whether the catalog is signed (every skill has a signature).
    #[cfg(any(test, feature = "internals"))]
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn is_signed(&self) -> bool {
        self.t.signatures.is_some()
    }

    /// The signature of skill `i` (in URI order, as [`Catalog::skill_at`]); `None` in a
    /// catalog that is not signed.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn signature(&self, i: usize) -> Option<SignatureView<'_>> {
        let r = self.t.signatures.as_ref()?.skills.get(self.pack(), i)?;
        Some(SignatureView {
            envelope_json: self.s(r.envelope),
            digest: self.s(r.digest),
        })
    }

    /// The signature of the skill the mirror publishes under `name` (its `{name}.dsse.json`);
    /// `None` when no skill is mirrored under it or the catalog is not signed.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn mirrored_signature(&self, name: &str) -> Option<SignatureView<'_>> {
        self.signature(self.mirror_rec(name)?.skill as usize)
    }

    /// The mirror's `keys.json` (the JWK Set of the signer's public key); `None` in a catalog
    /// that is not signed.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn keys_json(&self) -> Option<&str> {
        Some(self.s(self.t.signatures.as_ref()?.keys))
    }

    /// The tools and prompts fallback, when the pack has it (a pack made before it existed
    /// has not).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn fallback(&self) -> Option<FallbackView<'_>> {
        Some(FallbackView::new(
            self.t.fallback.as_ref()?,
            self.pack(),
            self.heap(),
        ))
    }

    /// The skills (their indices, in URI order) whose frontmatter `name` is `name`: none, one,
    /// or several (names need not be unique). Uses the fallback's name index; empty for a pack
    /// without the fallback.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn skills_named(&self, name: &str) -> Vec<usize> {
        let Some(f) = self.fallback() else {
            return Vec::new();
        };
        f.named(name, |i| self.skill_at(i).map_or("", |s| s.name))
    }

    /// The files whose URI starts with `prefix`, in URI order (the files of a skill are those
    /// under its root and a `/`).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn files_under<'p>(
        &'p self,
        prefix: &'p str,
    ) -> impl Iterator<Item = FileView<'p>> + 'p {
        let t = &self.t.files;
        let start = t.partition_point(self.pack(), |r| self.s(r.uri) < prefix);
        (start..t.len()).map_while(move |i| self.file_at(i).filter(|f| f.uri.starts_with(prefix)))
    }

    /// Whether any file or mirror archive of the catalog is an asset (outside the pack): the
    /// pack has the assets section.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn has_assets(&self) -> bool {
        self.t.assets.is_some()
    }

    /// Every asset the catalog's files and mirror archives name, with its length (in no
    /// order, possibly repeated): what must lie next to the pack for every read to succeed.
    pub(crate) fn needed_assets(&self) -> Vec<(String, u64)> {
        let mut out = Vec::new();
        for f in self.files() {
            if let Content::External { rendered_len } = f.content {
                out.push((pack::raw_asset_name(f.digest).to_owned(), f.size));
                out.push((pack::rendered_asset_name(f.digest), rendered_len));
            }
        }
        for i in 0..self.t.mirror.len() {
            let Some(m) = self.t.mirror.get(self.pack(), i) else {
                continue;
            };
            if m.archive_digest.len != 0 && m.archive_external {
                let name = pack::raw_asset_name(self.s(m.archive_digest)).to_owned();
                out.push((name, u64::from(m.archive_size)));
            }
        }
        out
    }

    /// Number of skills.
    pub fn skill_count(&self) -> usize {
        self.t.skills.len()
    }

    /// Number of served files.
    pub fn file_count(&self) -> usize {
        self.t.files.len()
    }

    /// Skill `i` in URI order (`None` past the last one, or when its record is damaged:
    /// `Catalog::try_skill_at` says which).
    pub fn skill_at(&self, i: usize) -> Option<SkillView<'_>> {
        self.try_skill_at(i).ok().flatten()
    }

    /// Skill `i` in URI order, `None` past the last one; `Err` naming the record when it is
    /// damaged (a range outside the pack, or text that is not UTF-8:
    /// [`pack::PackErrorKind::DamagedRecord`]), which only a pack read by its shape
    /// ([`Catalog::from_static`], [`Catalog::from_bundled`]) can hold. Its
    /// `resources/list` item is read when it is written ([`Spliced::push_to`]).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn try_skill_at(&self, i: usize) -> Result<Option<SkillView<'_>>, PackError> {
        let Some(r) = self.t.skills.get(self.pack(), i) else {
            return Ok(None);
        };
        let field = |s: Span, what: &str| self.checked(s, || format!("the {what} of skill {i}"));
        Ok(Some(SkillView {
            uri: field(r.uri, "URI")?,
            name: field(r.name, "name")?,
            revision: field(r.revision, "revision")?,
            entry_json: field(r.entry, "entry")?,
            list_item_json: spliced(self.heap(), r.list_item),
        }))
    }

    /// The text of `s`, or an error naming `what` (a damaged record).
    fn checked(&self, s: Span, what: impl Fn() -> String) -> Result<&str, PackError> {
        let start = s.off as usize;
        start
            .checked_add(s.len as usize)
            .and_then(|end| self.heap().get(start..end))
            .and_then(|b| std::str::from_utf8(b).ok())
            .ok_or_else(|| {
                PackError::new(
                    PackErrorKind::DamagedRecord,
                    format!(
                        "{} is damaged: it lies outside the pack or is not UTF-8 (rebuild the pack)",
                        what()
                    ),
                )
            })
    }

    /// All skills in URI order.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn skills(&self) -> impl Iterator<Item = SkillView<'_>> {
        (0..self.skill_count()).filter_map(|i| self.skill_at(i))
    }

    /// The index (in URI order) of the skill whose `SKILL.md` URI is exactly `uri`.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn skill_index(&self, uri: &str) -> Option<usize> {
        self.find(&self.t.skills, uri)
    }

    /// The skill whose `SKILL.md` URI is exactly `uri`.
    pub fn skill(&self, uri: &str) -> Option<SkillView<'_>> {
        self.skill_at(self.find(&self.t.skills, uri)?)
    }

    /// File `i` in URI order (`None` past the last one, or when its record is damaged:
    /// [`Catalog::try_file_at`] says which).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn file_at(&self, i: usize) -> Option<FileView<'_>> {
        self.try_file_at(i).ok().flatten()
    }

    /// File `i` in URI order, `None` past the last one; `Err` naming the record when it is
    /// damaged (a range outside the pack, or text that is not UTF-8:
    /// [`pack::PackErrorKind::DamagedRecord`]), which only a pack read by its shape can hold.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn try_file_at(&self, i: usize) -> Result<Option<FileView<'_>>, PackError> {
        let Some(r) = self.t.files.get(self.pack(), i) else {
            return Ok(None);
        };
        let field = |s: Span, what: &str| self.checked(s, || format!("the {what} of file {i}"));
        let data = r.data;
        let start = data.off as usize;
        let bytes = start
            .checked_add(data.len as usize)
            .and_then(|end| self.heap().get(start..end))
            .filter(|b| r.external || b.len() == r.size as usize);
        let uri = field(r.uri, "URI")?;
        let Some(bytes) = bytes else {
            return Err(PackError::new(
                PackErrorKind::DamagedRecord,
                format!(
                    "the bytes of file {i} ({uri}) are damaged: they lie outside the pack or are not as long as its record says (rebuild the pack)"
                ),
            ));
        };
        Ok(Some(FileView {
            uri,
            mime: field(r.mime, "MIME type")?,
            digest: field(r.digest, "digest")?,
            size: u64::from(r.size),
            is_text: r.text,
            content: if r.external {
                Content::External {
                    rendered_len: self
                        .t
                        .assets
                        .and_then(|a| a.get(self.pack(), i))
                        .map_or(0, u64::from),
                }
            } else {
                Content::Inline(bytes)
            },
        }))
    }

    /// All served files in URI order.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn files(&self) -> impl Iterator<Item = FileView<'_>> {
        (0..self.file_count()).filter_map(|i| self.file_at(i))
    }

    /// The file whose URI is exactly `uri`.
    pub fn file(&self, uri: &str) -> Option<FileView<'_>> {
        self.file_at(self.find(&self.t.files, uri)?)
    }

    /// Number of directories.
    #[cfg(any(test, feature = "internals"))]
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn dir_count(&self) -> usize {
        self.t.dirs.len()
    }

    /// The directory whose URI is exactly `uri`.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn dir(&self, uri: &str) -> Option<DirView<'_>> {
        self.dir_at(self.find(&self.t.dirs, uri)?)
    }

    /// Directory `i` in URI order.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn dir_at(&self, i: usize) -> Option<DirView<'_>> {
        let pack = self.pack();
        let r = self.t.dirs.get(pack, i)?;
        let (start, count) = (r.first_child as usize, r.child_count as usize);
        let (audience, child_audiences) = match &self.t.access {
            Some(a) => (
                a.dirs
                    .get(pack, i)
                    .map_or(Audience::default(), |d| d.audience()),
                Some(a.children.slice(start, count)),
            ),
            None => (Audience::PUBLIC, None),
        };
        Some(DirView {
            uri: self.s(r.uri),
            index: i,
            audience,
            children: self.t.children.slice(start, count),
            child_audiences,
            pack,
            heap: self.heap(),
        })
    }
}

/// Why a catalog could not be built in memory.
///
/// ```
/// use skills_edge::catalog::{compile::SourceTree, Catalog, CatalogError};
/// let mut tree = SourceTree::default();
/// tree.add_file("hello/SKILL.md", "---\nname: Hello\ndescription: Say hello.\n---\n");
/// let Err(CatalogError::Compile(e)) = Catalog::compile(tree, None) else { panic!() };
/// assert_eq!(e.errors().next().unwrap().rule.id(), "name-format");
/// ```
#[derive(Debug)]
pub enum CatalogError {
    /// The folder breaks a rule.
    Compile(diag::CompileError),
    /// The pack could not be read back (a bug if it happens).
    Pack(PackError),
}

impl std::fmt::Display for CatalogError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CatalogError::Compile(e) => e.fmt(f),
            CatalogError::Pack(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for CatalogError {}
