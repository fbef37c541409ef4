//! The writer: a compiled catalog in, a pack (and its assets) out.

use super::assets::{raw_asset_name, rendered_asset_name, rendered_content, AssetPolicy};
use super::format::*;
use super::record::{put, record_len};
use super::splice::{Grams, Splicer};
use super::VERSION;
use crate::compile::{Compiled, DirChild};
use crate::skill::value::write_json_string;

/// How to encode a pack.
///
/// ```
/// use skills_edge::catalog::compile::{compile, SourceTree};
/// use skills_edge::catalog::pack::{encode_with, PackOptions};
/// use skills_edge::catalog::Catalog;
/// let mut tree = SourceTree::default();
/// tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n");
/// let options = PackOptions { instructions: Some("Greet people with the hello skill."), assets: None };
/// let packed = encode_with(&compile(tree).unwrap(), &options);
/// assert!(packed.assets.is_empty());
/// let catalog = Catalog::from_bytes(packed.pack).unwrap();
/// assert_eq!(catalog.instructions(skills_edge::catalog::Grant::PUBLIC), "Greet people with the hello skill.");
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct PackOptions<'a> {
    /// Server instructions to record instead of the generated ones.
    pub instructions: Option<&'a str>,
    /// Leave files out as assets (`None`: every byte in the pack).
    pub assets: Option<AssetPolicy>,
}

/// A file written next to a pack: its name (see [`raw_asset_name`], [`rendered_asset_name`])
/// and its bytes.
///
/// ```
/// use skills_edge::catalog::compile::{compile, SourceTree};
/// use skills_edge::catalog::pack::{encode_with, raw_asset_name, rendered_asset_name, AssetPolicy, PackOptions};
/// let mut tree = SourceTree::default();
/// tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n");
/// let compiled = compile(tree).unwrap();
/// let options = PackOptions { assets: Some(AssetPolicy { inline_max: 0 }), ..PackOptions::default() };
/// let packed = encode_with(&compiled, &options);
/// let digest = &compiled.files[0].digest;
/// let raw = packed.assets.iter().find(|a| a.name == raw_asset_name(digest)).unwrap();
/// assert_eq!(raw.bytes, compiled.files[0].bytes, "the file's own bytes");
/// assert!(packed.assets.iter().any(|a| a.name == rendered_asset_name(digest)), "and its JSON string");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Asset {
    /// The file name, named by content.
    pub name: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// An encoded pack and the assets it refers to (none unless [`PackOptions::assets`]).
///
/// ```
/// use skills_edge::catalog::compile::{compile, SourceTree};
/// use skills_edge::catalog::pack::{encode_with, AssetPolicy, PackOptions};
/// use skills_edge::catalog::Catalog;
/// let mut tree = SourceTree::default();
/// tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n");
/// tree.add_file("hello/data.bin", vec![0u8; 10_000]);
/// let options = PackOptions { assets: Some(AssetPolicy::default()), ..PackOptions::default() };
/// let packed = encode_with(&compile(tree).unwrap(), &options);
/// assert_eq!(packed.assets.len(), 2, "data.bin, raw and rendered; SKILL.md stays in the pack");
/// let catalog = Catalog::from_bytes(packed.pack).unwrap();
/// assert!(catalog.has_assets() && catalog.file("skill://hello/data.bin").unwrap().bytes().is_none());
/// ```
#[derive(Debug, Clone)]
pub struct Packed {
    /// The pack.
    pub pack: Vec<u8>,
    /// The assets, each once (files with equal bytes share theirs).
    pub assets: Vec<Asset>,
}

pub(super) struct Heap {
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

pub(super) fn u32s(out: &mut Vec<u8>, vals: &[u32]) {
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
    let mut w = Writer {
        heap: Heap { bytes: Vec::new() },
        assets: Vec::new(),
        asset_names: std::collections::BTreeSet::new(),
        policy: o.assets,
        splicer: Splicer::default(),
        mimes: std::collections::HashMap::new(),
    };
    let default_instr = c.default_instructions();
    let instr = w
        .heap
        .put(o.instructions.unwrap_or(&default_instr).as_bytes());
    let (skills, entries, inside) = w.skills(c);
    let (files, rendered_lens) = w.files(c, &inside);
    let (dirs, children) = w.dirs(c, &skills);
    let mirror = w.mirror(c, &skills);
    let mirror_index = w.mirror_index(c, &skills, &mirror);
    let mut sections = vec![
        SectionRec::required(SECTION_INSTRUCTIONS, instr),
        SectionRec::required(SECTION_MIRROR_INDEX, mirror_index),
    ];
    if files.iter().any(|f| f.external) || mirror.iter().any(|m| m.archive_external) {
        let mut table = Vec::new();
        u32s(&mut table, &rendered_lens);
        sections.push(SectionRec::required(SECTION_ASSETS, w.heap.put(&table)));
    }
    sections.extend(w.fallback(c, &skills));
    let heap = &mut w.heap;
    if let Some(a) = &c.access {
        sections.extend(encode_access(c, a, o.instructions.is_none(), heap));
        sections.push(encode_lists(c, a, heap, &skills, &mirror));
    }
    let classes = c.access.as_ref().map_or(1, |a| a.classes.len() + 1);
    let search =
        crate::search::index::encode(&c.search_docs(), classes, |i| c.skill_class(i) as usize);
    sections.push(SectionRec::optional(SECTION_SEARCH, heap.put(&search)));
    if c.is_signed() {
        let entry_spans: Vec<Span> = skills.iter().map(|r| r.entry).collect();
        sections.extend(encode_signatures(c, heap, &entries, &entry_spans));
    }
    let header = Header {
        snapshot: snapshot_id(c, &entries),
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
    Packed {
        pack: out,
        assets: w.assets,
    }
}

/// The snapshot id: it covers every entry (hence every digest) and the directory shapes.
fn snapshot_id(c: &Compiled, entries: &[String]) -> u32 {
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
    u32::from_le_bytes([h[0], h[1], h[2], h[3]])
}

/// A pack being written: its heap and the assets it leaves out, each once.
struct Writer {
    heap: Heap,
    assets: Vec<Asset>,
    /// The names in `assets` (a set, so that adding one costs a lookup, not a scan).
    asset_names: std::collections::BTreeSet<String>,
    policy: Option<AssetPolicy>,
    /// What the spliced texts are made of so far.
    splicer: Splicer,
    /// Each MIME type, written once.
    mimes: std::collections::HashMap<&'static str, Span>,
}

impl Writer {
    /// Whether bytes of `size` are left out as an asset.
    fn external(&self, size: u64) -> bool {
        self.policy.is_some_and(|p| size > p.inline_max)
    }

    /// Adds the asset `name` unless it is there already (files with equal bytes share it).
    fn asset(&mut self, name: String, bytes: impl FnOnce() -> Vec<u8>) {
        if self.asset_names.insert(name.clone()) {
            self.assets.push(Asset {
                name,
                bytes: bytes(),
            });
        }
    }

    /// The range of `bytes` inside the stored range `within` when it holds them (a skill's
    /// entry holds its name, its directories' URIs, …), else of a copy of them.
    fn stored_within(&mut self, within: Span, bytes: &[u8]) -> Span {
        let start = within.off as usize;
        let found = self
            .heap
            .bytes
            .get(start..start + within.len as usize)
            .and_then(|h| {
                if bytes.is_empty() {
                    return None;
                }
                h.windows(bytes.len()).position(|w| w == bytes)
            });
        match found {
            Some(k) => Span {
                off: within.off + k as u32,
                len: bytes.len() as u32,
            },
            None => self.heap.put(bytes),
        }
    }

    /// `text` as a spliced text ([`super::splice`]) made of the bytes of `sources` (stored
    /// ranges of the same skill) and the literal runs written before.
    fn splice(&mut self, kind: &'static str, sources: &[Span], text: &str) -> Span {
        let mut local = Grams::default();
        for &s in sources {
            local.add(&self.heap.bytes, s);
        }
        self.splicer
            .splice(&mut self.heap.bytes, kind, &local, text)
    }

    /// The file records, and the length of each file's rendered asset (0 in the pack). A
    /// file's URI and digest are the ranges `inside` gives (inside an entry), when it does.
    fn files(&mut self, c: &Compiled, inside: &[Option<(Span, Span)>]) -> (Vec<FileRec>, Vec<u32>) {
        let mut rendered_lens = Vec::with_capacity(c.files.len());
        let mut files = Vec::with_capacity(c.files.len());
        for (i, f) in c.files.iter().enumerate() {
            let external = self.external(f.size);
            let mut rendered_len = 0;
            if external {
                let rendered = rendered_content(&f.bytes, f.is_text);
                rendered_len = rendered.len() as u32;
                self.asset(raw_asset_name(&f.digest).to_owned(), || f.bytes.clone());
                self.asset(rendered_asset_name(&f.digest), || rendered.into_bytes());
            }
            rendered_lens.push(rendered_len);
            let mime = match self.mimes.get(f.mime) {
                Some(&s) => s,
                None => {
                    let s = self.heap.put(f.mime.as_bytes());
                    self.mimes.insert(f.mime, s);
                    s
                }
            };
            let heap = &mut self.heap;
            let (uri, digest) = match inside.get(i).copied().flatten() {
                Some(spans) => spans,
                None => (heap.put(f.uri.as_bytes()), heap.put(f.digest.as_bytes())),
            };
            files.push(FileRec {
                uri,
                mime,
                digest,
                data: if external {
                    Span::default()
                } else {
                    heap.put(&f.bytes)
                },
                size: f.size as u32,
                text: f.is_text,
                external,
            });
        }
        (files, rendered_lens)
    }

    /// The skill records, each skill's entry, and per file the ranges of its URI and digest
    /// inside the first entry that lists it. The skill's URI, name and revision, and its
    /// files' URIs and digests, are stored once: as ranges inside the entry, which holds the
    /// same bytes; its `resources/list` item is spliced from the entry.
    #[allow(clippy::type_complexity)]
    fn skills(&mut self, c: &Compiled) -> (Vec<SkillRec>, Vec<String>, Vec<Option<(Span, Span)>>) {
        let mut entries = Vec::with_capacity(c.skills.len());
        let mut inside = vec![None; c.files.len()];
        let mut skills = Vec::with_capacity(c.skills.len());
        for s in &c.skills {
            let entry = c.entry_json(s);
            let at = self.heap.put(entry.as_bytes());
            let within = |from: usize, value: &str| -> Option<(usize, Span)> {
                let k = from + entry.get(from..)?.find(value)?;
                let span = Span {
                    off: at.off + k as u32,
                    len: value.len() as u32,
                };
                Some((k + value.len(), span))
            };
            // The entry lists the skill's files in order, each `{"uri":…,"digest":…`: one
            // walk through it finds them all.
            let mut pos = entry.find(",\"resources\":[").unwrap_or(entry.len());
            for &fi in &s.files {
                let Some(f) = c.files.get(fi) else { continue };
                let found = within(pos, &format!("{{\"uri\":\"{}\",\"digest\":\"", f.uri))
                    .and_then(|(end, pattern)| {
                        // The URI starts after `{"uri":"`.
                        let uri = Span {
                            off: pattern.off + 8,
                            len: f.uri.len() as u32,
                        };
                        let (next, digest) = within(end, &f.digest)?;
                        (next == end + f.digest.len()).then_some((next, uri, digest))
                    });
                if let Some((next, uri, digest)) = found {
                    pos = next;
                    if let Some(slot @ None) = inside.get_mut(fi) {
                        *slot = Some((uri, digest));
                    }
                }
            }
            let revision = c.revision(s);
            let rec = SkillRec {
                uri: self.stored_within(at, s.uri.as_bytes()),
                entry: at,
                list_item: self.splice("list item", &[at], &c.list_item_json(s)),
                name: self.stored_within(at, s.name.as_bytes()),
                revision: self.stored_within(at, revision.as_bytes()),
            };
            entries.push(entry);
            skills.push(rec);
        }
        (skills, entries, inside)
    }

    /// The directory records and their children, each child spliced from the entry of the
    /// skill it belongs to (or, for a directory of several skills, of its first skill).
    fn dirs(&mut self, c: &Compiled, skills: &[SkillRec]) -> (Vec<DirRec>, Vec<Span>) {
        let mut skill_of_file = vec![0usize; c.files.len()];
        for (k, s) in c.skills.iter().enumerate() {
            for &fi in &s.files {
                if let Some(slot) = skill_of_file.get_mut(fi) {
                    *slot = k;
                }
            }
        }
        // The entry of the skill of the first file under `uri` (files are sorted by URI).
        let entry_under = |uri: &str| -> Span {
            let prefix = format!("{uri}/");
            let i = c
                .files
                .partition_point(|f| f.uri.as_str() < prefix.as_str());
            let k = skill_of_file.get(i).copied().unwrap_or(0);
            skills.get(k).map_or(Span::default(), |r| r.entry)
        };
        let mut children = Vec::new();
        let mut dirs = Vec::with_capacity(c.dirs.len());
        for d in &c.dirs {
            let first = children.len() as u32;
            let source = entry_under(&d.uri);
            for ch in &d.children {
                let json = c.child_json(ch);
                children.push(self.splice("child", &[source], &json));
            }
            dirs.push(DirRec {
                uri: self.stored_within(source, d.uri.as_bytes()),
                first_child: first,
                child_count: d.children.len() as u32,
            });
        }
        (dirs, children)
    }

    /// The mirror records, by name, with their archives (assets by the same rule as files).
    fn mirror(&mut self, c: &Compiled, skills: &[SkillRec]) -> Vec<MirrorRec> {
        let index: std::collections::HashMap<&str, usize> = c
            .skills
            .iter()
            .enumerate()
            .map(|(i, s)| (s.uri.as_str(), i))
            .collect();
        let mut out = Vec::new();
        for (name, skill) in c.mirrored() {
            let Some(&i) = index.get(skill.uri.as_str()) else {
                continue;
            };
            let entry = skills.get(i).map_or(Span::default(), |r| r.entry);
            let mut rec = MirrorRec {
                name: self.stored_within(entry, name.as_bytes()),
                skill: i as u32,
                ..MirrorRec::default()
            };
            if let Some(a) = &skill.archive {
                rec.archive_external = self.external(a.size);
                rec.archive_digest = self.heap.put(a.digest.as_bytes());
                rec.archive_size = a.size as u32;
                if rec.archive_external {
                    self.asset(raw_asset_name(&a.digest).to_owned(), || a.bytes.clone());
                } else {
                    rec.archive_data = self.heap.put(&a.bytes);
                }
            }
            out.push(rec);
        }
        out
    }

    /// Section 2: the mirror index's prefix, then each skill's item of it, spliced from its
    /// entry and archive digest (empty for a skill the mirror does not publish).
    fn mirror_index(&mut self, c: &Compiled, skills: &[SkillRec], mirror: &[MirrorRec]) -> Span {
        let mirrored = c.mirrored();
        let mut digest_of = vec![None; c.skills.len()];
        for m in mirror {
            if let Some(slot) = digest_of.get_mut(m.skill as usize) {
                *slot = Some(m.archive_digest);
            }
        }
        let mut table = Vec::new();
        put(&mut table, &self.heap.put(c.mirror_prefix().as_bytes()));
        for (i, sk) in c.skills.iter().enumerate() {
            let entry = skills.get(i).map_or(Span::default(), |r| r.entry);
            let mut sources = vec![entry];
            sources.extend(digest_of.get(i).copied().flatten());
            let item = mirrored
                .get(sk.name.as_str())
                .filter(|m| m.uri == sk.uri)
                .map(|m| c.mirror_item_json(&sk.name, m))
                .unwrap_or_default();
            put(&mut table, &self.splice("mirror item", &sources, &item));
        }
        self.heap.put(&table)
    }

    /// The fallback sections ([`crate::compile::fallback`]), their payloads written to the
    /// heap. Each skill's description is the range of its entry that holds the same JSON
    /// string; its prompt links and `read_skill` content are spliced from its entry.
    fn fallback(&mut self, c: &Compiled, skills: &[SkillRec]) -> Vec<SectionRec> {
        let names = c.prompt_names();
        let tools = self.heap.put(c.fallback_tools_json().as_bytes());
        let mut rec = FallbackInstructionsRec::default();
        for (slot, (t, p)) in rec
            .0
            .iter_mut()
            .zip([(true, false), (false, true), (true, true)])
        {
            *slot = self
                .heap
                .put(Compiled::fallback_instructions(t, p).as_bytes());
        }
        let mut table = Vec::new();
        put(&mut table, &rec);
        let instructions = self.heap.put(&table);
        let (mut prompt_items, mut list_items) = (Vec::new(), Vec::new());
        let mut table = Vec::new();
        for (i, sk) in c.skills.iter().enumerate() {
            let entry = skills.get(i).map_or(Span::default(), |r| r.entry);
            let name = names.get(i).map_or("", String::as_str);
            put(
                &mut prompt_items,
                &self.splice("prompt item", &[entry], &c.prompt_item_json(name, i)),
            );
            put(
                &mut list_items,
                &self.splice("list_skills item", &[entry], &c.list_skills_item_json(sk)),
            );
            let mut description = String::new();
            write_json_string(&sk.description, &mut description);
            let (_, structured) = c.read_skill_parts(sk);
            let rec = FallbackSkillRec {
                description: self.stored_within(entry, description.as_bytes()),
                links: self.splice("prompt links", &[entry], &c.prompt_links_json(sk)),
                read_structured: self.splice("read_skill content", &[entry], &structured),
            };
            put(&mut table, &rec);
        }
        let per_skill = self.heap.put(&table);
        let prompt_items = self.heap.put(&prompt_items);
        let list_items = self.heap.put(&list_items);
        let mut by_name: Vec<(&str, usize)> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.as_str(), i))
            .collect();
        by_name.sort();
        let mut table = Vec::new();
        for (name, i) in by_name {
            let entry = skills.get(i).map_or(Span::default(), |r| r.entry);
            let rec = PromptRec {
                name: self.stored_within(entry, name.as_bytes()),
                skill: i as u32,
            };
            put(&mut table, &rec);
        }
        let prompt_index = self.heap.put(&table);
        let mut table = Vec::new();
        for i in c.skills_by_name() {
            put(&mut table, &(i as u32));
        }
        let name_index = self.heap.put(&table);
        [
            (SECTION_FALLBACK_TOOLS, tools),
            (SECTION_FALLBACK_PROMPTS, prompt_items),
            (SECTION_FALLBACK_LIST_SKILLS, list_items),
            (SECTION_FALLBACK_INSTRUCTIONS, instructions),
            (SECTION_FALLBACK_SKILLS, per_skill),
            (SECTION_FALLBACK_PROMPT_INDEX, prompt_index),
            (SECTION_FALLBACK_NAME_INDEX, name_index),
        ]
        .into_iter()
        .map(|(tag, text)| SectionRec::optional(tag, text))
        .collect()
    }
}

/// The signature sections of a signed catalog, their payloads written to the heap. Each
/// envelope's range points into its skill's entry (`entries`, written at `entry_spans`), which
/// carries the same bytes in its `_meta`, so the pack holds every envelope once.
pub(super) fn encode_signatures(
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
pub(super) fn encode_access(
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
    let mut table = Vec::new();
    for sk in &c.skills {
        put(
            &mut table,
            &heap.put(Compiled::instruction_line(sk).as_bytes()),
        );
    }
    let lines = heap.put(&table);
    let heads_rec = HeadsRec {
        default_instructions,
        instructions_head: heap.put(crate::compile::INSTRUCTIONS_HEAD.as_bytes()),
    };
    let mut table = Vec::new();
    put(&mut table, &heads_rec);
    let heads = heap.put(&table);
    ACCESS_SECTIONS
        .into_iter()
        .zip([classes, skills, files, dirs, children, lines, heads])
        .map(|(tag, text)| SectionRec::required(tag, text))
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

/// Section 20: what each audience class sees, in the order of the tables the pack holds.
fn encode_lists(
    c: &Compiled,
    a: &crate::access::Access,
    heap: &mut Heap,
    skills: &[SkillRec],
    mirror: &[MirrorRec],
) -> SectionRec {
    let names = c.prompt_names();
    let mut by_name: Vec<(&str, usize)> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    by_name.sort();
    let snapshot_of = |i: usize| {
        let at = |s: Span| {
            let start = s.off as usize;
            heap.bytes.get(start..start + s.len as usize).unwrap_or(&[])
        };
        let list_item = c
            .skills
            .get(i)
            .map(|s| c.list_item_json(s))
            .unwrap_or_default();
        skills.get(i).map_or(0, |r| {
            super::lists::skill_snapshot(at(r.uri), at(r.entry), list_item.as_bytes())
        })
    };
    let mirrored = c.mirrored();
    let mirror_item_of = |i: usize| {
        let item = c.skills.get(i).and_then(|sk| {
            mirrored
                .get(sk.name.as_str())
                .filter(|m| m.uri == sk.uri)
                .map(|m| c.mirror_item_json(&sk.name, m))
        });
        super::lists::lanes_of(item.unwrap_or_default().as_bytes())
    };
    let lists = super::lists::class_lists(
        a.classes.len(),
        c.skills.len(),
        |i| c.skill_class(i) as usize,
        mirror.iter().map(|m| m.skill),
        by_name.iter().map(|&(_, i)| i as u32),
        snapshot_of,
        mirror_item_of,
    );
    let lists = super::lists::with_mirror_base(lists, c.mirror_prefix().as_bytes());
    let mut table = Vec::new();
    for l in &lists {
        let mut ids = |v: &[u32]| {
            let mut b = Vec::with_capacity(v.len() * 4);
            u32s(&mut b, v);
            heap.put(&b)
        };
        let rec = ClassListRec {
            skills: ids(&l.skills),
            mirror: ids(&l.mirror),
            prompts: ids(&l.prompts),
            snapshot: l.snapshot,
            mirror_tag: ClassListRec::mirror_words(l.mirror_tag),
        };
        put(&mut table, &rec);
    }
    SectionRec::required(SECTION_ACCESS_LISTS, heap.put(&table))
}
