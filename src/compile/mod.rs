//! The catalog compiler: a skills folder in, a checked catalog (entries, manifests,
//! directory trees) out. Pure: it reads a [`SourceTree`] (see `walk` for the filesystem),
//! so `build.rs`, the `check` command, tests and benchmarks all run the very same checks.
//!
//! Rules enforced (each a [`Rule`] with a stable id):
//! * a directory holding `SKILL.md` is a skill; its path under the root is its `<skill-path>`
//!   and its URI is `skill://<skill-path>/SKILL.md` (SEP-2640 §Resource Mapping);
//! * frontmatter: strict delimiters, a YAML mapping, portable YAML (see `skill::frontmatter`);
//! * `name`: present, a string, `^[a-z0-9]+(-[a-z0-9]+)*$`, ≤ 64, equal to the directory name;
//! * `description`: present, a string, 1–1024 characters; `compatibility`: 1–500 characters;
//!   `license` a string; `metadata` a map of strings; `allowed-tools` a string or list of strings
//!   (Agent Skills specification);
//! * every path segment in `[A-Za-z0-9._~-]`, never `.`, `..` or empty; no symlinks;
//! * at most 512 files and 16 MiB per skill, nested skills' files included (SEP-2640 §Limits;
//!   open point A8 decided as a build error);
//! * no two names in one directory of a skill that differ only in letter case (one file on
//!   macOS and Windows; the host's archive reader refuses them with the same rule,
//!   `skill::uri::fold_case`);
//! * warnings: duplicate names (allowed by the spec), reserved `io.modelcontextprotocol/`
//!   metadata keys, files outside every skill (not served), OS junk files (not served), names
//!   outside every skill that differ only by case, and frontmatter that the official MCP
//!   TypeScript SDK 2.4's reader cannot read (`frontmatter-sdk-*`, see
//!   `skill::frontmatter::sdk_subset`): hosts and servers built on that SDK would refuse the
//!   skill. [`Options::strict`] makes those errors.
//!
//! Every file's digest and size are computed here, once, from the same bytes the catalog
//! embeds and serves (open point A18: entries and bytes come from one snapshot).

// `pass` is one compilation of a folder, step by step (`paths`: the path rules, `skill_md`: the
// rules of one SKILL.md, `dirs`: the directory namespace, `audience`: the access rules applied),
// `skip` leaves invalid skills out, `wire` holds the published JSON forms of a compiled catalog,
// `signing` the step that signs it; this file holds the types and the entry points.
pub mod archive;
mod audience;
mod dirs;
pub mod fallback;
pub mod mirror;
mod pass;
mod paths;
pub mod signing;
mod skill_md;
mod skip;
mod wire;

pub(crate) use wire::{
    instructions_more, INSTRUCTIONS_HEAD, INSTRUCTIONS_NAMED, INSTRUCTIONS_SKILLS,
};

use crate::access::Access;
use crate::diag::{CompileError, Diagnostic, Rule};
use crate::skill::uri::SCHEME;
use crate::skill::value::Value;
use archive::CompiledArchive;
use pass::compile_pass;
use std::collections::BTreeSet;

/// One file of a skills folder.
///
/// ```
/// use skills_edge::catalog::{compile::{SourceFile, SourceTree}, Catalog};
/// let skill_md = SourceFile { path: "hello/SKILL.md".into(), bytes: b"---\nname: hello\ndescription: Say hello.\n---\n".to_vec() };
/// let tree = SourceTree { files: vec![skill_md], dirs: vec!["hello".into()], ..SourceTree::default() };
/// assert_eq!(Catalog::compile(tree, None).unwrap().skill_at(0).unwrap().uri, "skill://hello/SKILL.md");
/// ```
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Path relative to the skills root, `/`-separated.
    pub path: String,
    /// The raw bytes.
    pub bytes: Vec<u8>,
}

/// A skills folder as read from disk (or built in memory by tests and benchmarks).
///
/// ```
/// use skills_edge::catalog::{compile::SourceTree, Catalog};
/// let mut tree = SourceTree::default();
/// tree.add_file("tools/hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n");
/// tree.add_file("tools/hello/references/tone.md", "Be kind.\n");
/// assert_eq!(tree.dirs, ["tools/hello", "tools", "tools/hello/references"], "parents added once");
/// let catalog = Catalog::compile(tree, None).unwrap();
/// assert_eq!((catalog.skill_count(), catalog.file_count()), (1, 2));
/// ```
#[derive(Debug, Clone, Default)]
pub struct SourceTree {
    /// Every regular file.
    pub files: Vec<SourceFile>,
    /// Every directory below the root (relative, `/`-separated), including empty ones. A
    /// directory may be given more than once; the compiler reads the list as a set.
    pub dirs: Vec<String>,
    /// Findings made while reading (symlinks, unreadable entries, non-UTF-8 names).
    pub diagnostics: Vec<Diagnostic>,
}

impl SourceTree {
    /// Adds a file (and its parent directories). Constant time in the size of the tree: the
    /// parents the previously added file shares are not added again (files added out of
    /// order may repeat a directory in [`SourceTree::dirs`], which the compiler reads as a set).
    pub fn add_file(&mut self, path: &str, bytes: impl Into<Vec<u8>>) {
        let previous = self.files.last().map_or("", |f| f.path.as_str());
        for parent in ancestors(path) {
            let shared = previous.len() > parent.len()
                && previous.starts_with(parent)
                && previous.as_bytes()[parent.len()] == b'/';
            if shared {
                break;
            }
            self.dirs.push(parent.to_owned());
        }
        self.files.push(SourceFile {
            path: path.to_owned(),
            bytes: bytes.into(),
        });
    }
}

/// A file the catalog serves.
///
/// ```
/// use skills_edge::catalog::compile::{compile, SourceTree};
/// let mut tree = SourceTree::default();
/// tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n");
/// tree.add_file("hello/scripts/run.py", "print('hello')\n");
/// let compiled = compile(tree).unwrap();
/// let script = compiled.files.iter().find(|f| f.uri.ends_with("run.py")).unwrap();
/// assert_eq!((script.uri.as_str(), script.mime, script.size), ("skill://hello/scripts/run.py", "text/x-python", 15));
/// assert!(script.is_text && script.digest.starts_with("sha256:"));
/// ```
#[derive(Debug, Clone)]
pub struct CompiledFile {
    /// `skill://…` URI.
    pub uri: String,
    /// The raw bytes served.
    pub bytes: Vec<u8>,
    /// `sha256:` + 64 lowercase hex of `bytes`.
    pub digest: String,
    /// `bytes.len()`.
    pub size: u64,
    /// MIME type by extension.
    pub mime: &'static str,
    /// Whether the bytes are valid UTF-8 (served as `text`, else as base64 `blob`).
    pub is_text: bool,
}

/// A skill the catalog serves.
///
/// ```
/// use skills_edge::catalog::compile::{compile, SourceTree};
/// let mut tree = SourceTree::default();
/// tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\nlicense: MIT\n---\n");
/// tree.add_file("hello/references/tone.md", "Be kind.\n");
/// let compiled = compile(tree).unwrap();
/// let skill = &compiled.skills[0];
/// assert_eq!((skill.root.as_str(), skill.name.as_str()), ("skill://hello", "hello"));
/// assert_eq!(skill.frontmatter.get("license").and_then(|v| v.as_str()), Some("MIT"));
/// let files: Vec<&str> = skill.files.iter().map(|&i| compiled.files[i].uri.as_str()).collect();
/// assert_eq!(files, ["skill://hello/SKILL.md", "skill://hello/references/tone.md"]);
/// assert!(skill.archive.is_some() && skill.envelope.is_none(), "mirrored as hello.tar.gz, not signed");
/// ```
#[derive(Debug, Clone)]
pub struct CompiledSkill {
    /// URI of its `SKILL.md`.
    pub uri: String,
    /// The skill root directory URI (no trailing slash).
    pub root: String,
    /// `frontmatter.name`.
    pub name: String,
    /// `frontmatter.description`.
    pub description: String,
    /// The whole frontmatter, in document order.
    pub frontmatter: Value,
    /// Indices into [`Compiled::files`]: `SKILL.md` first, then every other file under the
    /// root (nested skills' files included) in URI order.
    pub files: Vec<usize>,
    /// Its `{name}.tar.gz` in the mirror ([`archive`]): for a skill the mirror publishes
    /// (its name is unique, see [`mirror`]) that has files besides `SKILL.md`; `None` for
    /// every other skill.
    pub archive: Option<CompiledArchive>,
    /// The JSON of its DSSE envelope (its `Compiled::statement`, signed) once
    /// [`Compiled::sign`] signed the catalog; `None` in a catalog that is not signed.
    pub envelope: Option<String>,
}

/// A child in a directory listing.
///
/// ```
/// use skills_edge::catalog::compile::{compile, DirChild, SourceTree};
/// let mut tree = SourceTree::default();
/// tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n");
/// tree.add_file("hello/references/tone.md", "Be kind.\n");
/// let compiled = compile(tree).unwrap();
/// let hello = compiled.dirs.iter().find(|d| d.uri == "skill://hello").unwrap();
/// let DirChild::File(i) = hello.children[1] else { panic!() };
/// assert_eq!(hello.children[0], DirChild::Dir("skill://hello/references".into()));
/// assert_eq!(compiled.files[i].uri, "skill://hello/SKILL.md");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DirChild {
    /// A subdirectory, by URI.
    Dir(String),
    /// A file, by index into [`Compiled::files`].
    File(usize),
}

/// A directory of the served namespace: an organisational prefix, a skill root or a
/// subdirectory of a skill.
///
/// ```
/// use skills_edge::catalog::compile::{compile, SourceTree};
/// let mut tree = SourceTree::default();
/// tree.add_file("acme/hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n");
/// let compiled = compile(tree).unwrap();
/// let uris: Vec<&str> = compiled.dirs.iter().map(|d| d.uri.as_str()).collect();
/// assert_eq!(uris, ["skill://acme", "skill://acme/hello"], "a prefix, then the skill root");
/// assert_eq!(compiled.dirs[0].children.len(), 1);
/// ```
#[derive(Debug, Clone)]
pub struct CompiledDir {
    /// URI, no trailing slash.
    pub uri: String,
    /// Direct children: directories first, then files, each group by name.
    pub children: Vec<DirChild>,
}

/// A checked catalog, ready to be packed.
///
/// ```
/// use skills_edge::catalog::compile::{compile, SourceTree};
/// use skills_edge::catalog::{pack, Catalog};
/// let mut tree = SourceTree::default();
/// tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n");
/// tree.add_file("notes.txt", "not in any skill");
/// let compiled = compile(tree).unwrap();
/// assert_eq!(compiled.warnings[0].rule.id(), "file-outside-skill");
/// assert!(compiled.signed_by.is_none() && compiled.access.is_none());
/// assert!(compiled.entry_json(&compiled.skills[0]).contains(r#""name":"hello""#));
/// let catalog = Catalog::from_bytes(pack::encode(&compiled, None)).unwrap();
/// assert_eq!(catalog.file_count(), 1, "notes.txt is not served");
/// ```
#[derive(Debug, Clone)]
pub struct Compiled {
    /// Served files, sorted by URI.
    pub files: Vec<CompiledFile>,
    /// Skills, sorted by URI.
    pub skills: Vec<CompiledSkill>,
    /// Directories, sorted by URI.
    pub dirs: Vec<CompiledDir>,
    /// Warnings (the catalog is publishable).
    pub warnings: Vec<Diagnostic>,
    /// The key and the catalog identity it was signed with ([`Compiled::sign`]); `None` until
    /// then.
    pub signed_by: Option<signing::SignedBy>,
    /// Who may see what ([`crate::access`]): `Some` when `skills-edge.toml` at the root makes
    /// any skill private; `None` when every skill is public (no file, or no rule).
    pub access: Option<Access>,
}

fn last_segment(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn parent_of(path: &str) -> &str {
    path.rsplit_once('/').map(|(p, _)| p).unwrap_or("")
}

/// The directories above `path` (relative, or a URI), nearest first, the root (`""`) left
/// out.
fn ancestors(path: &str) -> impl Iterator<Item = &str> {
    std::iter::successors(Some(parent_of(path)), |p| Some(parent_of(p)))
        .take_while(|p| !p.is_empty())
}

fn uri_of(path: &str) -> String {
    format!("{SCHEME}{path}")
}

/// The most pages a client reads of one list: the official MCP TypeScript SDK 2.4 client
/// (`listMaxPages`, default 64) and MCP Inspector stop a `skills/list` or `resources/list`
/// that needs more. The responder sizes its pages so that every list a caller sees ends within
/// this many (`skills_edge::server::Config::page_size`).
pub const MAX_LIST_PAGES: usize = 64;

/// The most items a page holds, whatever the catalog: a reply of 1,000 entries is a few
/// hundred kilobytes, a size every host handles (the largest `page_size` setting too).
pub const MAX_PAGE_ITEMS: usize = 1000;

/// The most skills a catalog holds (`limit-skills`): [`MAX_LIST_PAGES`] pages of
/// [`MAX_PAGE_ITEMS`], so that `skills/list` and `resources/list` end within the clients'
/// page cap for every caller. Beyond it, a folder is split into catalogs.
pub(crate) const MAX_SKILLS: usize = MAX_LIST_PAGES * MAX_PAGE_ITEMS;

/// How the compiler judges a folder.
///
/// ```
/// use skills_edge::catalog::compile::{compile_with, Options, SourceTree};
/// let mut tree = SourceTree::default();
/// tree.add_file("bad/SKILL.md", "---\nname: Bad\ndescription: Broken name.\n---\n");
/// tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n");
/// assert!(compile_with(tree.clone(), Options::default()).is_err());
/// let compiled = compile_with(tree, Options { skip_invalid: true, ..Options::default() }).unwrap();
/// assert_eq!(compiled.skills.len(), 1);
/// assert_eq!(compiled.warnings[0].rule.id(), "skill-left-out");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Strict mode: frontmatter that the official MCP TypeScript SDK 2.4 cannot read
    /// (`frontmatter-sdk-*`) is an error instead of a warning, so nothing is published that
    /// hosts on that SDK would refuse. Off by default. `SKILLS_STRICT=1` turns it on for the
    /// build, `--strict` for `skills-edge check` and `skills-edge pack`.
    pub strict: bool,
    /// Leave invalid skills out instead of failing: each skill an error belongs to (the
    /// innermost skill directory holding the file it names) is left out, its errors reported
    /// as warnings naming it, and the rest is published. A nested skill that is left out stays
    /// a plain directory of the skill around it, so that skill's manifest does not change.
    /// Errors that belong to no skill (the folder itself, files outside every skill) still
    /// fail. Off by default. `SKILLS_ON_INVALID=skip` turns it on for the build,
    /// `--skip-invalid` for `skills-edge check` and `skills-edge pack`.
    pub skip_invalid: bool,
}

/// Compiles a skills folder into a catalog, or reports every error found
/// ([`compile_with`] and the default [`Options`]).
pub fn compile(tree: SourceTree) -> Result<Compiled, CompileError> {
    compile_with(tree, Options::default())
}

/// Compiles a skills folder into a catalog with `options`, or reports every error found.
///
/// ```
/// use skills_edge::catalog::compile::{compile, compile_with, Options, SourceTree};
/// let mut tree = SourceTree::default();
/// tree.add_file("a/SKILL.md", "---\nname: a\ndescription: \"Two\n  lines\"\n---\n");
/// let ok = compile(tree.clone()).unwrap();
/// assert_eq!(ok.warnings[0].rule.id(), "frontmatter-sdk-multiline-quoted");
/// let err = compile_with(tree, Options { strict: true, ..Options::default() }).unwrap_err();
/// assert_eq!(err.errors().next().map(|d| d.rule.id()), Some("frontmatter-sdk-multiline-quoted"));
/// ```
pub fn compile_with(tree: SourceTree, options: Options) -> Result<Compiled, CompileError> {
    if options.skip_invalid {
        skip::compile_skipping(tree, options)
    } else {
        compile_pass(tree, options, &BTreeSet::new())
    }
}

/// The `limit-archive` error of the skill at `rel` (named `name`) when its archive of `size`
/// bytes is over `limit`.
fn archive_too_large(rel: &str, name: &str, size: u64, limit: u64) -> Option<Diagnostic> {
    (size > limit).then(|| {
        Diagnostic::error(
            Rule::LimitArchive,
            rel,
            format!(
                "the mirror's archive of the skill {name} ({name}{}) is {size} bytes; the limit is {limit} (25 MiB, the largest file Workers Static Assets take)",
                archive::ARCHIVE_SUFFIX
            ),
            "move large assets out of the skill or split it into smaller skills",
        )
    })
}

impl Compiled {
    /// What the search index reads of each skill, in skill order: name, description, tags
    /// and `SKILL.md`.
    pub(crate) fn search_docs(&self) -> Vec<crate::search::index::Doc<'_>> {
        self.skills
            .iter()
            .map(|s| {
                // Files are sorted by URI.
                let skill_md = self
                    .files
                    .binary_search_by(|f| f.uri.as_str().cmp(s.uri.as_str()))
                    .ok()
                    .and_then(|f| self.files.get(f))
                    .and_then(|f| std::str::from_utf8(&f.bytes).ok())
                    .unwrap_or("");
                crate::search::index::Doc {
                    name: &s.name,
                    description: &s.description,
                    tags: crate::search::text::tags_of(&s.frontmatter),
                    skill_md,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Severity;

    #[test]
    fn an_archive_over_the_limit_is_a_build_error_naming_the_skill() {
        // The spec's 16 MiB per skill keeps real archives far below 25 MiB, so the check is
        // exercised with a lower limit.
        assert_eq!(archive_too_large("tools/big", "big", 100, 100), None);
        let d = archive_too_large("tools/big", "big", 101, 100).expect("over the limit");
        assert_eq!(
            (d.rule.id(), d.severity, d.path.as_str()),
            ("limit-archive", Severity::Error, "tools/big")
        );
        assert!(d.message.contains("big.tar.gz") && d.message.contains("101 bytes"));
        assert!(d.fix.contains("split"), "{}", d.fix);
    }

    #[test]
    fn only_mirrored_skills_with_supporting_files_get_an_archive() {
        let mut t = SourceTree::default();
        let md = |n: &str| format!("---\nname: {n}\ndescription: Skill {n}.\n---\n");
        t.add_file("solo/SKILL.md", md("solo"));
        t.add_file("full/SKILL.md", md("full"));
        t.add_file("full/references/a.md", "a");
        t.add_file("x/twin/SKILL.md", md("twin"));
        t.add_file("x/twin/a.md", "a");
        t.add_file("y/twin/SKILL.md", md("twin"));
        t.add_file("y/twin/a.md", "a");
        let c = compile(t).expect("compiles");
        let archived: Vec<&str> = c
            .skills
            .iter()
            .filter(|s| s.archive.is_some())
            .map(|s| s.root.as_str())
            .collect();
        assert_eq!(archived, ["skill://full"]);
    }

    #[test]
    fn a_path_too_long_for_ustar_is_warned_and_still_archived_whole() {
        let mut t = SourceTree::default();
        t.add_file(
            "long/SKILL.md",
            "---\nname: long\ndescription: Long paths.\n---\n",
        );
        let name = format!("references/{}.md", "n".repeat(120));
        t.add_file(&format!("long/{name}"), "x");
        let c = compile(t).expect("a warning, not an error");
        let w: Vec<(&str, &str)> = c
            .warnings
            .iter()
            .map(|d| (d.rule.id(), d.path.as_str()))
            .collect();
        let path = format!("long/{name}");
        assert_eq!(w, [("archive-long-path", path.as_str())]);
        assert!(c.warnings[0].message.contains("long.tar.gz"));
        assert!(c.skills[0].archive.is_some());
    }
}
