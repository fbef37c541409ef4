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

// `skill_md` holds the rules of one SKILL.md (its frontmatter fields), `wire` the published JSON
// forms of a compiled catalog, `signing` the step that signs it; this file holds the types and
// the pipeline over a whole folder.
pub mod archive;
pub mod fallback;
pub mod mirror;
pub mod signing;
mod skill_md;
mod wire;

pub(crate) use wire::{
    instructions_more, INSTRUCTIONS_HEAD, INSTRUCTIONS_NAMED, INSTRUCTIONS_SKILLS,
};

use crate::access::{self, Access, ACCESS_FILE};
use crate::diag::{CompileError, Diagnostic, Rule, Severity};
use crate::skill::digest::digest_of;
use crate::skill::limits::{MAX_BYTES_PER_SKILL, MAX_FILES_PER_SKILL};
use crate::skill::mime;
use crate::skill::uri::{check_segment, fold_case, is_inside, SCHEME, SKILL_MD};
use crate::skill::value::Value;
use archive::{CompiledArchive, MAX_ARCHIVE_BYTES};
use skill_md::check_skill_md;
use std::collections::{BTreeMap, BTreeSet};

/// One file of a skills folder.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Path relative to the skills root, `/`-separated.
    pub path: String,
    /// The raw bytes.
    pub bytes: Vec<u8>,
}

/// A skills folder as read from disk (or built in memory by tests and benchmarks).
#[derive(Debug, Clone, Default)]
pub struct SourceTree {
    /// Every regular file.
    pub files: Vec<SourceFile>,
    /// Every directory below the root (relative, `/`-separated), including empty ones.
    pub dirs: Vec<String>,
    /// Findings made while reading (symlinks, unreadable entries, non-UTF-8 names).
    pub diagnostics: Vec<Diagnostic>,
}

impl SourceTree {
    /// Adds a file (and its parent directories).
    pub fn add_file(&mut self, path: &str, bytes: impl Into<Vec<u8>>) {
        let mut dir = path;
        while let Some((parent, _)) = dir.rsplit_once('/') {
            if !self.dirs.iter().any(|d| d == parent) {
                self.dirs.push(parent.to_owned());
            }
            dir = parent;
        }
        self.files.push(SourceFile {
            path: path.to_owned(),
            bytes: bytes.into(),
        });
    }
}

/// A file the catalog serves.
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
    /// The JSON of its DSSE envelope (its [`Compiled::statement`], signed) once
    /// [`Compiled::sign`] signed the catalog; `None` in a catalog that is not signed.
    pub envelope: Option<String>,
}

/// A child in a directory listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DirChild {
    /// A subdirectory, by URI.
    Dir(String),
    /// A file, by index into [`Compiled::files`].
    File(usize),
}

/// A directory of the served namespace: an organisational prefix, a skill root or a
/// subdirectory of a skill.
#[derive(Debug, Clone)]
pub struct CompiledDir {
    /// URI, no trailing slash.
    pub uri: String,
    /// Direct children: directories first, then files, each group by name.
    pub children: Vec<DirChild>,
}

/// A checked catalog, ready to be packed.
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

const JUNK_FILES: &[&str] = &[".DS_Store", "Thumbs.db", "desktop.ini", "ehthumbs.db"];

fn last_segment(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn parent_of(path: &str) -> &str {
    path.rsplit_once('/').map(|(p, _)| p).unwrap_or("")
}

fn uri_of(path: &str) -> String {
    format!("{SCHEME}{path}")
}

/// How the compiler judges a folder.
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
/// use skills_edge_catalog::compile::{compile, compile_with, Options, SourceTree};
/// let mut tree = SourceTree::default();
/// tree.add_file("a/SKILL.md", "---\nname: a\ndescription: \"Two\n  lines\"\n---\n");
/// let ok = compile(tree.clone()).unwrap();
/// assert_eq!(ok.warnings[0].rule.id(), "frontmatter-sdk-multiline-quoted");
/// let err = compile_with(tree, Options { strict: true, ..Options::default() }).unwrap_err();
/// assert_eq!(err.errors().next().map(|d| d.rule.id()), Some("frontmatter-sdk-multiline-quoted"));
/// ```
pub fn compile_with(tree: SourceTree, options: Options) -> Result<Compiled, CompileError> {
    if !options.skip_invalid {
        return compile_pass(tree, options, &BTreeSet::new());
    }
    let mut tree = tree;
    // Skill directories whose SKILL.md is no longer a skill (left-out nested skills).
    let mut demoted: BTreeSet<String> = BTreeSet::new();
    let mut left_out: Vec<Diagnostic> = Vec::new();
    loop {
        let err = match compile_pass(tree.clone(), options, &demoted) {
            Ok(mut compiled) => {
                compiled.warnings.append(&mut left_out);
                compiled
                    .warnings
                    .sort_by(|a, b| a.path.cmp(&b.path).then(a.line.cmp(&b.line)));
                return Ok(compiled);
            }
            Err(e) => e,
        };
        let skills: Vec<String> = tree
            .files
            .iter()
            .filter_map(|f| f.path.strip_suffix("/SKILL.md"))
            .filter(|d| !demoted.contains(*d) && check_path_quiet(d))
            .map(str::to_owned)
            .collect();
        let mut invalid: BTreeMap<String, Vec<Diagnostic>> = BTreeMap::new();
        let mut unowned = false;
        for d in err.errors() {
            let owner = skills
                .iter()
                .filter(|s| d.path == **s || is_inside(s, &d.path))
                .max_by_key(|s| s.len());
            match owner {
                Some(s) => invalid.entry(s.clone()).or_default().push(d.clone()),
                None => unowned = true,
            }
        }
        if unowned || invalid.is_empty() {
            // An error of the folder itself: nothing to leave out.
            let mut diagnostics = err.diagnostics;
            diagnostics.append(&mut left_out);
            diagnostics.sort_by(|a, b| a.path.cmp(&b.path).then(a.line.cmp(&b.line)));
            return Err(CompileError { diagnostics });
        }
        for (dir, errors) in &invalid {
            left_out.push(Diagnostic::warning(
                Rule::SkillLeftOut,
                dir,
                format!(
                    "the skill {dir} is left out of the catalog: {} error{} (below, as warnings)",
                    errors.len(),
                    if errors.len() == 1 { "" } else { "s" }
                ),
                "fix the errors to publish it; the other skills are published",
            ));
            for e in errors {
                left_out.push(Diagnostic {
                    severity: Severity::Warning,
                    message: format!("{} (skill {dir} left out)", e.message),
                    ..e.clone()
                });
            }
        }
        // The skills that stay: their files and directories are kept whatever happens around them.
        let kept: Vec<&String> = skills
            .iter()
            .filter(|s| !invalid.contains_key(*s))
            .collect();
        let in_kept = |p: &str| kept.iter().any(|k| p == k.as_str() || is_inside(k, p));
        let above_kept = |p: &str| kept.iter().any(|k| is_inside(p, k));
        for dir in invalid.into_keys() {
            if kept.iter().any(|k| is_inside(k, &dir)) {
                // Nested in a skill that stays: its SKILL.md is a file of that skill.
                demoted.insert(dir);
                continue;
            }
            // Not served by any skill that stays: take its files out, except those of the
            // skills nested in it that stay.
            let gone = |p: &str| (p == dir || is_inside(&dir, p)) && !in_kept(p);
            tree.files.retain(|f| !gone(&f.path));
            tree.dirs.retain(|d| !gone(d) || above_kept(d));
            tree.diagnostics.retain(|d| !gone(&d.path));
            demoted.insert(dir);
        }
    }
}

/// Whether every segment of a relative path can be published (no diagnostics).
fn check_path_quiet(path: &str) -> bool {
    path.split('/').all(|seg| check_segment(seg).is_ok())
}

/// One compilation of `tree`; the directories in `demoted` hold a `SKILL.md` that is not a
/// skill (see [`Options::skip_invalid`]).
fn compile_pass(
    tree: SourceTree,
    options: Options,
    demoted: &BTreeSet<String>,
) -> Result<Compiled, CompileError> {
    let mut diags = tree.diagnostics;

    // The access rules: `skills-edge.toml` at the root is read here and never served.
    let mut rules = Vec::new();
    let mut tree_files = tree.files;
    if let Some(i) = tree_files.iter().position(|f| f.path == ACCESS_FILE) {
        let f = tree_files.remove(i);
        match std::str::from_utf8(&f.bytes) {
            Ok(text) => rules = access::parse_rules(text, &mut diags),
            Err(_) => diags.push(Diagnostic::error(
                Rule::AccessFile,
                ACCESS_FILE,
                "the file is not UTF-8",
                "save it as UTF-8 text",
            )),
        }
    }

    // Files: drop OS junk (warned), check every path segment.
    let mut files: Vec<SourceFile> = Vec::with_capacity(tree_files.len());
    for f in tree_files {
        let leaf = last_segment(&f.path);
        if JUNK_FILES.contains(&leaf) || leaf.starts_with("._") {
            diags.push(Diagnostic::warning(
                Rule::JunkFile,
                &f.path,
                "operating-system junk file; it is not served",
                "delete it from the skills folder",
            ));
            continue;
        }
        if check_path(&f.path, &mut diags) {
            files.push(f);
        }
    }
    let mut dirs: BTreeSet<String> = BTreeSet::new();
    for d in tree.dirs {
        if check_path(&d, &mut diags) {
            dirs.insert(d);
        }
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    // A tree built by a program rather than read from disk (`SourceTree` is public, and the npm
    // package's `compileCatalog` takes a list of entries) can give a path twice, or use one
    // path for a file and a directory. No file system can, and a catalog can serve neither.
    let mut unique: Vec<SourceFile> = Vec::with_capacity(files.len());
    for f in files {
        if unique.last().is_some_and(|u| u.path == f.path) {
            if !diags
                .iter()
                .any(|d| d.rule == Rule::DuplicatePath && d.path == f.path)
            {
                diags.push(Diagnostic::error(
                    Rule::DuplicatePath,
                    &f.path,
                    "the same path is given more than once",
                    "give each file once",
                ));
            }
            continue;
        }
        unique.push(f);
    }
    files = unique;
    for f in &files {
        let mut p = parent_of(&f.path);
        while !p.is_empty() {
            dirs.insert(p.to_owned());
            p = parent_of(p);
        }
    }
    for f in &files {
        if dirs.contains(&f.path) {
            diags.push(Diagnostic::error(
                Rule::DuplicatePath,
                &f.path,
                "the path is both a file and a directory",
                "rename the file or the directory",
            ));
        }
    }

    // Skills: directories holding SKILL.md.
    let mut skill_dirs: Vec<String> = Vec::new();
    for f in &files {
        let leaf = last_segment(&f.path);
        let dir = parent_of(&f.path);
        if leaf == SKILL_MD && demoted.contains(dir) {
            // A nested skill left out: its SKILL.md is a file of the skill around it.
        } else if leaf == SKILL_MD {
            if dir.is_empty() {
                diags.push(Diagnostic::error(
                    Rule::SkillAtRoot,
                    &f.path,
                    "SKILL.md sits directly in the skills root, so the skill has no directory name",
                    "move it into a directory named after the skill (e.g. my-skill/SKILL.md)",
                ));
            } else {
                skill_dirs.push(dir.to_owned());
            }
        } else if leaf.eq_ignore_ascii_case(SKILL_MD)
            && !files.iter().any(|g| {
                g.path == format!("{dir}{}{SKILL_MD}", if dir.is_empty() { "" } else { "/" })
            })
        {
            diags.push(Diagnostic::error(
                Rule::SkillMdFilename,
                &f.path,
                format!("{leaf} is not spelled SKILL.md, so this directory is not a skill"),
                "rename the file to SKILL.md (upper case, .md lower case)",
            ));
        }
    }

    check_case_collisions(&files, &dirs, &skill_dirs, &mut diags);

    // Check each skill's SKILL.md.
    let mut skills: Vec<CompiledSkill> = Vec::new();
    for dir in &skill_dirs {
        let path = format!("{dir}/{SKILL_MD}");
        let Some(src) = files.iter().find(|f| f.path == path) else {
            continue;
        };
        let checked = check_skill_md(dir, &path, &src.bytes, options.strict, &mut diags);
        if let Some((fm, name, description)) = checked {
            skills.push(CompiledSkill {
                uri: uri_of(&path),
                root: uri_of(dir),
                name,
                description,
                frontmatter: fm,
                files: Vec::new(),
                archive: None,
                envelope: None,
            });
        }
    }

    // Served files: every file inside at least one skill directory.
    // `is_inside(dir, path)`: `path` lies under `dir/` (relative paths compare like URIs).
    let inside = |path: &str, dir: &str| is_inside(dir, path);
    let mut compiled_files: Vec<CompiledFile> = Vec::new();
    for f in files {
        if !skill_dirs.iter().any(|d| inside(&f.path, d)) {
            diags.push(Diagnostic::warning(
                Rule::FileOutsideSkill,
                &f.path,
                "this file is outside every skill directory, so it is not served",
                "move it into a skill directory, or out of the skills folder",
            ));
            continue;
        }
        let is_text = std::str::from_utf8(&f.bytes).is_ok();
        compiled_files.push(CompiledFile {
            uri: uri_of(&f.path),
            digest: digest_of(&f.bytes),
            size: f.bytes.len() as u64,
            mime: mime::mime_for(last_segment(&f.path), is_text),
            is_text,
            bytes: f.bytes,
        });
    }
    // `files` was sorted by path, so `compiled_files` is sorted by URI.

    // Manifests and limits.
    for skill in &mut skills {
        let mut idx: Vec<usize> = Vec::new();
        let mut self_idx = None;
        for (i, f) in compiled_files.iter().enumerate() {
            if f.uri == skill.uri {
                self_idx = Some(i);
            } else if is_inside(&skill.root, &f.uri) {
                idx.push(i);
            }
        }
        if let Some(s) = self_idx {
            idx.insert(0, s);
        }
        let total: u64 = idx.iter().map(|&i| compiled_files[i].size).sum();
        let rel = &skill.root[SCHEME.len()..];
        if idx.len() > MAX_FILES_PER_SKILL {
            diags.push(Diagnostic::error(
                Rule::LimitFiles,
                rel,
                format!(
                    "the skill has {} files (SKILL.md and nested skills included); the limit is {MAX_FILES_PER_SKILL}",
                    idx.len()
                ),
                "split it into smaller skills or remove files hosts do not need",
            ));
        }
        if total > MAX_BYTES_PER_SKILL {
            diags.push(Diagnostic::error(
                Rule::LimitSize,
                rel,
                format!(
                    "the skill's files total {total} bytes (nested skills included); the limit is {MAX_BYTES_PER_SKILL} (16 MiB)"
                ),
                "move large assets out of the skill or split it into smaller skills",
            ));
        }
        skill.files = idx;
    }

    // Duplicate names: allowed by the spec (names are labels), but confusing.
    let mut by_name: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for s in &skills {
        by_name
            .entry(s.name.clone())
            .or_default()
            .push(s.uri.clone());
    }
    for (name, uris) in &by_name {
        if uris.len() > 1 {
            for uri in uris {
                let others: Vec<&str> = uris
                    .iter()
                    .filter(|u| u != &uri)
                    .map(String::as_str)
                    .collect();
                diags.push(Diagnostic::warning(
                    Rule::DuplicateName,
                    &uri[SCHEME.len()..],
                    format!(
                        "the name {name:?} is also used by {}; hosts must tell them apart by URI",
                        others.join(", ")
                    ),
                    "give each skill a distinct name unless the duplication is intended",
                ));
            }
        }
    }

    // Archives of the mirror: every skill it publishes with files besides SKILL.md.
    for skill in &mut skills {
        if skill.files.len() < 2 || by_name.get(skill.name.as_str()).map(Vec::len) != Some(1) {
            continue;
        }
        let rel = &skill.root[SCHEME.len()..];
        for &i in &skill.files {
            let Some(f) = compiled_files.get(i) else {
                continue;
            };
            let path = f.uri.get(skill.root.len() + 1..).unwrap_or_default();
            if !archive::fits_ustar(path) {
                diags.push(Diagnostic::warning(
                    Rule::ArchiveLongPath,
                    &f.uri[SCHEME.len()..],
                    format!(
                        "the path {path:?} is too long for a ustar header ({} bytes; 100, or 155 + 100 split at a /) in the mirror's {}{}; it is written with a GNU long-name entry, which tar readers that know only ustar (the skills installer 1.7.4) read as a truncated name",
                        path.len(),
                        skill.name,
                        archive::ARCHIVE_SUFFIX
                    ),
                    "shorten the path (directory names up to 155 bytes in all, file names up to 100)",
                ));
            }
        }
        let members = skill.files.iter().filter_map(|&i| {
            let f = compiled_files.get(i)?;
            let path = f.uri.strip_prefix(skill.root.as_str())?.strip_prefix('/')?;
            Some((path, f.bytes.as_slice()))
        });
        match CompiledArchive::build(members) {
            Ok(a) => {
                if let Some(d) = archive_too_large(rel, &skill.name, a.size, MAX_ARCHIVE_BYTES) {
                    diags.push(d);
                }
                skill.archive = Some(a);
            }
            Err(e) => diags.push(Diagnostic::error(
                Rule::LimitArchive,
                rel,
                format!("the skill's archive for the mirror cannot be written: {e}"),
                "shorten the skill's file paths",
            )),
        }
    }

    // The directory namespace: prefix directories, skill roots and their subdirectories.
    let served_dir = |d: &str| {
        skill_dirs
            .iter()
            .any(|s| s == d || inside(d, s) || inside(s, d))
    };
    let served_dirs: Vec<String> = dirs.into_iter().filter(|d| served_dir(d)).collect();
    let mut compiled_dirs: Vec<CompiledDir> = served_dirs
        .iter()
        .map(|d| CompiledDir {
            uri: uri_of(d),
            children: Vec::new(),
        })
        .collect();
    for (di, d) in served_dirs.iter().enumerate() {
        let mut sub: Vec<&String> = served_dirs.iter().filter(|c| parent_of(c) == d).collect();
        sub.sort_by_key(|c| last_segment(c));
        let mut children: Vec<DirChild> =
            sub.into_iter().map(|c| DirChild::Dir(uri_of(c))).collect();
        let prefix = uri_of(d);
        let mut own: Vec<usize> = compiled_files
            .iter()
            .enumerate()
            .filter(|(_, f)| parent_of(&f.uri) == prefix)
            .map(|(i, _)| i)
            .collect();
        own.sort_by_key(|&i| last_segment(&compiled_files[i].uri));
        children.extend(own.into_iter().map(DirChild::File));
        compiled_dirs[di].children = children;
    }

    skills.sort_by(|a, b| a.uri.cmp(&b.uri));
    compiled_dirs.sort_by(|a, b| a.uri.cmp(&b.uri));
    let access = if rules.is_empty() {
        None
    } else {
        let paths: Vec<&str> = skills
            .iter()
            .map(|s| s.root.strip_prefix(SCHEME).unwrap_or(&s.root))
            .collect();
        let a = access::resolve(&rules, &paths, &mut diags);
        // A name shared by skills of different audiences: the name's handling is the
        // catalog's (mirror, prompt names), so the visible skill would show the hidden one.
        for uris in by_name.values().filter(|u| u.len() > 1) {
            let at = |uri: &String| skills.binary_search_by(|s| s.uri.cmp(uri)).ok();
            let classes: Vec<(usize, u32)> = uris
                .iter()
                .filter_map(at)
                .map(|i| (i, a.skill_class.get(i).copied().unwrap_or(0)))
                .collect();
            if classes.windows(2).all(|w| w[0].1 == w[1].1) {
                continue;
            }
            let path = |i: usize| paths.get(i).copied().unwrap_or_default();
            let (first, rest) = (classes[0].0, &classes[1..]);
            let others: Vec<&str> = rest.iter().map(|&(i, _)| path(i)).collect();
            diags.push(Diagnostic::error(
                Rule::AccessName,
                path(first),
                format!(
                    "the skill {} shares its name {:?} with {}, which another audience sees: a caller who sees one would learn the other's name (a shared name is left out of the mirror and gets a path-based prompt name for every caller)",
                    path(first),
                    skills[first].name,
                    others.join(", ")
                ),
                "give the private skill a name of its own, or give the skills the same scopes",
            ));
        }
        let private = a.skill_class.iter().filter(|&&c| c > 0).count();
        if private > 0 {
            diags.push(Diagnostic::warning(
                Rule::AccessNeedsAuth,
                ACCESS_FILE,
                format!(
                    "{private} of {} skills are private: they are served only to callers whose token carries one of their scopes, and to nobody when the server has no authentication mode (anonymous callers see the public skills only)",
                    skills.len()
                ),
                "configure authentication where the catalog is served (docs/private.md), or remove the rules to publish every skill",
            ));
        }
        a.has_private().then_some(a)
    };
    diags.sort_by(|a, b| a.path.cmp(&b.path).then(a.line.cmp(&b.line)));

    if diags.iter().any(|d| d.severity == Severity::Error) {
        return Err(CompileError { diagnostics: diags });
    }
    Ok(Compiled {
        files: compiled_files,
        skills,
        dirs: compiled_dirs,
        warnings: diags,
        signed_by: None,
        access,
    })
}

impl Compiled {
    /// The audience class of skill `i` (0 public; [`crate::access`]).
    pub fn skill_class(&self, i: usize) -> u32 {
        self.access
            .as_ref()
            .and_then(|a| a.skill_class.get(i).copied())
            .unwrap_or(0)
    }

    /// Whether skill `i` is public (every skill of a catalog without access rules is).
    pub fn is_public(&self, i: usize) -> bool {
        self.skill_class(i) == 0
    }

    /// What `skills-edge check` prints of a catalog with access rules: one line per skill,
    /// `audience: <skill path>: public` or `audience: <skill path>: scopes <s1> <s2>` (any one
    /// of them grants sight); `None` when every skill is public and there are no rules.
    pub fn audience_report(&self) -> Option<String> {
        let a = self.access.as_ref()?;
        let mut out = String::new();
        for (i, sk) in self.skills.iter().enumerate() {
            let path = sk.root.strip_prefix(SCHEME).unwrap_or(&sk.root);
            let scopes = a.scopes_of(i);
            if scopes.is_empty() {
                out.push_str(&format!("audience: {path}: public\n"));
            } else {
                out.push_str(&format!("audience: {path}: scopes {}\n", scopes.join(" ")));
            }
        }
        Some(out)
    }

    /// The audience class of each file (in file order): its skill's (a nested skill has its
    /// parent's audience, so every skill holding the file gives the same).
    pub(crate) fn file_classes(&self) -> Vec<u32> {
        let mut out = vec![0; self.files.len()];
        for (i, sk) in self.skills.iter().enumerate() {
            for &fi in &sk.files {
                if let Some(c) = out.get_mut(fi) {
                    *c = self.skill_class(i);
                }
            }
        }
        out
    }

    /// The audience of the directory `uri`: the union of the classes of the skills at,
    /// under or around it.
    pub(crate) fn dir_audience(&self, uri: &str) -> crate::access::Audience {
        let mut a = crate::access::Audience::default();
        for (i, sk) in self.skills.iter().enumerate() {
            let r = sk.root.as_str();
            if r == uri || is_inside(uri, r) || is_inside(r, uri) {
                a = a.union(crate::access::Audience::of_class(self.skill_class(i)));
            }
        }
        a
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

/// Checks every segment of a relative path; reports the first bad one.
fn check_path(path: &str, diags: &mut Vec<Diagnostic>) -> bool {
    for seg in path.split('/') {
        if let Err(e) = check_segment(seg) {
            diags.push(Diagnostic::error(
                Rule::PathSegment,
                path,
                format!("{} (segment {seg:?})", e.describe()),
                "rename it using only letters, digits and . _ ~ - (no spaces or non-ASCII), so its skill:// URI needs no encoding",
            ));
            return false;
        }
    }
    true
}

/// Two names in one directory that differ only in letter case ([`fold_case`], the rule of the
/// host's archive reader): on a case-insensitive file system (macOS, Windows) they are one file
/// or directory. Inside a skill both would be in its manifest and its mirror archive, where an
/// installer on such a disk keeps one and silently loses the other and every host refuses the
/// archive, so that is an error; between organisational directories that hold different skills,
/// a warning. Linear: one map keyed by the exact parent and the folded name, so a name is only
/// compared with its own directory's (two directories that differ only in case are reported
/// once, not once per file below them).
fn check_case_collisions(
    files: &[SourceFile],
    dirs: &BTreeSet<String>,
    skill_dirs: &[String],
    diags: &mut Vec<Diagnostic>,
) {
    let skills: BTreeSet<&str> = skill_dirs.iter().map(String::as_str).collect();
    // The innermost skill whose directory is `dir` or holds it.
    let skill_holding = |dir: &str| -> Option<String> {
        let mut d = dir;
        while !d.is_empty() {
            if skills.contains(d) {
                return Some(d.to_owned());
            }
            d = parent_of(d);
        }
        None
    };
    let mut seen: BTreeMap<(&str, String), &str> = BTreeMap::new();
    let all = files
        .iter()
        .map(|f| f.path.as_str())
        .chain(dirs.iter().map(String::as_str));
    for p in all {
        let key = (parent_of(p), fold_case(last_segment(p)));
        let Some(&prev) = seen.get(&key) else {
            seen.insert(key, p);
            continue;
        };
        if prev == p {
            continue;
        }
        diags.push(match skill_holding(parent_of(p)) {
            Some(skill) => Diagnostic::error(
                Rule::CaseCollision,
                p,
                format!("{p} and {prev} differ only in letter case and are both in the skill {skill}: on a case-insensitive file system (macOS, Windows) they are one file or directory, so an installer would keep one and lose the other, and hosts refuse the skill's archive"),
                format!("rename {p} or {prev} so that their names differ in more than letter case"),
            ),
            None => Diagnostic::warning(
                Rule::CaseCollision,
                p,
                format!("differs from {prev} only by letter case; hosts that cache skills on case-insensitive file systems cannot keep both"),
                "rename one of them",
            ),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
