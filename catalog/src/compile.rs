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
//! * warnings: duplicate names (allowed by the spec), reserved `io.modelcontextprotocol/`
//!   metadata keys, files outside every skill (not served), OS junk files (not served), names
//!   that differ only by case.
//!
//! Every file's digest and size are computed here, once, from the same bytes the catalog
//! embeds and serves (open point A18: entries and bytes come from one snapshot).

use super::diag::{CompileError, Diagnostic, Rule, Severity};
use crate::skill::digest::digest_of;
use crate::skill::frontmatter;
use crate::skill::limits::{
    MAX_BYTES_PER_SKILL, MAX_COMPATIBILITY_CHARS, MAX_DESCRIPTION_CHARS, MAX_FILES_PER_SKILL,
    MAX_NAME_LEN, RESERVED_METADATA_PREFIX,
};
use crate::skill::mime;
use crate::skill::name::check_name;
use crate::skill::uri::{check_segment, is_inside, SCHEME, SKILL_MD};
use crate::skill::value::{write_json_string, Value};
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

/// Compiles a skills folder into a catalog, or reports every error found.
pub fn compile(tree: SourceTree) -> Result<Compiled, CompileError> {
    let mut diags = tree.diagnostics;

    // Files: drop OS junk (warned), check every path segment.
    let mut files: Vec<SourceFile> = Vec::with_capacity(tree.files.len());
    for f in tree.files {
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
    warn_case_collisions(&files, &dirs, &mut diags);

    // Skills: directories holding SKILL.md.
    let mut skill_dirs: Vec<String> = Vec::new();
    for f in &files {
        let leaf = last_segment(&f.path);
        let dir = parent_of(&f.path);
        if leaf == SKILL_MD {
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

    // Check each skill's SKILL.md.
    let mut skills: Vec<CompiledSkill> = Vec::new();
    for dir in &skill_dirs {
        let path = format!("{dir}/{SKILL_MD}");
        let Some(src) = files.iter().find(|f| f.path == path) else {
            continue;
        };
        if let Some((fm, name, description)) = check_skill_md(dir, &path, &src.bytes, &mut diags) {
            skills.push(CompiledSkill {
                uri: uri_of(&path),
                root: uri_of(dir),
                name,
                description,
                frontmatter: fm,
                files: Vec::new(),
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
    let mut by_name: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for s in &skills {
        by_name.entry(&s.name).or_default().push(&s.uri);
    }
    for (name, uris) in &by_name {
        if uris.len() > 1 {
            for uri in uris {
                let others: Vec<&str> = uris.iter().filter(|u| u != &uri).copied().collect();
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
    diags.sort_by(|a, b| a.path.cmp(&b.path).then(a.line.cmp(&b.line)));

    if diags.iter().any(|d| d.severity == Severity::Error) {
        return Err(CompileError { diagnostics: diags });
    }
    Ok(Compiled {
        files: compiled_files,
        skills,
        dirs: compiled_dirs,
        warnings: diags,
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

fn warn_case_collisions(
    files: &[SourceFile],
    dirs: &BTreeSet<String>,
    diags: &mut Vec<Diagnostic>,
) {
    let mut seen: BTreeMap<String, &str> = BTreeMap::new();
    let all = files
        .iter()
        .map(|f| f.path.as_str())
        .chain(dirs.iter().map(String::as_str));
    for p in all {
        let key = p.to_ascii_lowercase();
        if let Some(prev) = seen.get(&key) {
            if *prev != p {
                diags.push(Diagnostic::warning(
                    Rule::CaseCollision,
                    p,
                    format!("differs from {prev} only by letter case; hosts that cache skills on case-insensitive file systems cannot keep both"),
                    "rename one of them",
                ));
            }
        } else {
            seen.insert(key, p);
        }
    }
}

fn chars(s: &str) -> usize {
    s.chars().count()
}

/// Parses and checks one `SKILL.md`; returns (frontmatter, name, description) when valid.
fn check_skill_md(
    dir: &str,
    path: &str,
    bytes: &[u8],
    diags: &mut Vec<Diagnostic>,
) -> Option<(Value, String, String)> {
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            diags.push(Diagnostic::error(
                Rule::SkillMdUtf8,
                path,
                format!("SKILL.md is not valid UTF-8 (byte {})", e.valid_up_to()),
                "save the file as UTF-8",
            ));
            return None;
        }
    };
    let fm = match frontmatter::parse_file_strict(text) {
        Ok(v) => v,
        Err(e) => {
            diags.push(
                Diagnostic::error(Rule::Frontmatter(e.kind.rule()), path, e.message, e.fix)
                    .at_line(e.line),
            );
            return None;
        }
    };
    let before = diags.len();
    let dir_name = last_segment(dir);
    let err = |rule: Rule, msg: String, fix: &str| Diagnostic::error(rule, path, msg, fix);

    let name = match fm.get("name") {
        None => {
            diags.push(err(
                Rule::NameRequired,
                "the frontmatter has no `name`".into(),
                &format!("add `name: {dir_name}` to the frontmatter"),
            ));
            None
        }
        Some(Value::String(n)) => {
            if let Err(e) = check_name(n) {
                diags.push(err(
                    Rule::NameFormat,
                    format!("name {n:?} is not a valid skill name: {}", e.describe()),
                    &format!("use 1–{MAX_NAME_LEN} characters of a-z, 0-9 and single hyphens, e.g. `name: my-skill`, and name the directory the same"),
                ));
            } else if n != dir_name {
                diags.push(err(
                    Rule::NameMatchesDirectory,
                    format!("name {n:?} differs from the skill's directory name {dir_name:?}; the last segment of the skill's URI must equal its name"),
                    &format!("set `name: {dir_name}`, or rename the directory to {n}"),
                ));
            }
            Some(n.clone())
        }
        Some(other) => {
            diags.push(err(
                Rule::NameType,
                format!("`name` is {}, not a string", other.kind_phrase()),
                &format!("write `name: {dir_name}`"),
            ));
            None
        }
    };

    let description = match fm.get("description") {
        None => {
            diags.push(err(
                Rule::DescriptionRequired,
                "the frontmatter has no `description`".into(),
                "add `description: <what the skill does and when to use it>`",
            ));
            None
        }
        Some(Value::String(d)) => {
            let n = chars(d);
            if n == 0 || n > MAX_DESCRIPTION_CHARS {
                diags.push(err(
                    Rule::DescriptionLength,
                    format!("`description` has {n} characters; it must have 1–{MAX_DESCRIPTION_CHARS}"),
                    "write a description of at most 1024 characters that says what the skill does and when to use it",
                ));
            }
            Some(d.clone())
        }
        Some(other) => {
            diags.push(err(
                Rule::DescriptionType,
                format!("`description` is {}, not a string", other.kind_phrase()),
                "write the description as text (quote it if it looks like a number or boolean)",
            ));
            None
        }
    };

    match fm.get("compatibility") {
        None => {}
        Some(Value::String(c)) => {
            let n = chars(c);
            if n == 0 || n > MAX_COMPATIBILITY_CHARS {
                diags.push(err(
                    Rule::CompatibilityLength,
                    format!("`compatibility` has {n} characters; it must have 1–{MAX_COMPATIBILITY_CHARS}"),
                    "shorten it to at most 500 characters, or remove the field",
                ));
            }
        }
        Some(other) => diags.push(err(
            Rule::CompatibilityType,
            format!("`compatibility` is {}, not a string", other.kind_phrase()),
            "write it as text describing the environment the skill needs",
        )),
    }

    match fm.get("license") {
        None | Some(Value::String(_)) => {}
        Some(other) => diags.push(err(
            Rule::LicenseType,
            format!("`license` is {}, not a string", other.kind_phrase()),
            "write a license name (e.g. `license: Apache-2.0`) or the name of a bundled license file",
        )),
    }

    match fm.get("metadata") {
        None => {}
        Some(Value::Object(pairs)) => {
            for (k, v) in pairs {
                if !matches!(v, Value::String(_)) {
                    diags.push(err(
                        Rule::MetadataType,
                        format!(
                            "`metadata.{k}` is {}; metadata maps strings to strings",
                            v.kind_phrase()
                        ),
                        &format!("quote the value, e.g. `{k}: \"…\"`"),
                    ));
                }
                if k.starts_with(RESERVED_METADATA_PREFIX) {
                    diags.push(Diagnostic::warning(
                        Rule::ReservedMetadataKey,
                        path,
                        format!("`metadata.{k}` uses the prefix {RESERVED_METADATA_PREFIX}, reserved for MCP extensions; hosts ignore keys they do not recognise"),
                        "rename the key unless an MCP extension defines it",
                    ));
                }
            }
        }
        Some(other) => diags.push(err(
            Rule::MetadataType,
            format!("`metadata` is {}, not a map", other.kind_phrase()),
            "write metadata as a map of string keys to string values",
        )),
    }

    match fm.get("allowed-tools") {
        None | Some(Value::String(_)) => {}
        Some(Value::Array(items)) if items.iter().all(|i| matches!(i, Value::String(_))) => {}
        Some(other) => diags.push(err(
            Rule::AllowedToolsType,
            format!("`allowed-tools` is {}, not a string or a list of strings", other.kind_phrase()),
            "write a space-separated string (`allowed-tools: Read Bash(git:*)`) or a list of strings",
        )),
    }

    let failed = diags[before..]
        .iter()
        .any(|d| d.severity == Severity::Error);
    match (name, description) {
        (Some(n), Some(d)) if !failed => Some((fm, n, d)),
        _ => None,
    }
}

impl Compiled {
    /// The skill entry exactly as `skills/list` and `skills/get` publish it:
    /// `{"uri","frontmatter","resources":[{"uri","digest","size"}…]}`.
    pub fn entry_json(&self, skill: &CompiledSkill) -> String {
        let mut out = String::with_capacity(256 + skill.files.len() * 128);
        out.push_str("{\"uri\":");
        write_json_string(&skill.uri, &mut out);
        out.push_str(",\"frontmatter\":");
        skill.frontmatter.write_json(&mut out);
        out.push_str(",\"resources\":[");
        for (i, &fi) in skill.files.iter().enumerate() {
            let f = &self.files[fi];
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"uri\":");
            write_json_string(&f.uri, &mut out);
            out.push_str(",\"digest\":\"");
            out.push_str(&f.digest);
            out.push_str("\",\"size\":");
            out.push_str(&f.size.to_string());
            out.push('}');
        }
        out.push_str("]}");
        out
    }

    /// The `SKILL.md` as a `resources/list` item: name and description from the
    /// frontmatter, `text/markdown`, and its size (SEP-2640 §Resource Metadata, A22).
    pub fn list_item_json(&self, skill: &CompiledSkill) -> String {
        let size = skill
            .files
            .first()
            .map(|&i| self.files[i].size)
            .unwrap_or(0);
        let mut out = String::with_capacity(128 + skill.description.len());
        out.push_str("{\"uri\":");
        write_json_string(&skill.uri, &mut out);
        out.push_str(",\"name\":");
        write_json_string(&skill.name, &mut out);
        out.push_str(",\"description\":");
        write_json_string(&skill.description, &mut out);
        out.push_str(",\"mimeType\":\"text/markdown\",\"size\":");
        out.push_str(&size.to_string());
        out.push('}');
        out
    }

    /// A directory child as a `resources/directory/read` item.
    pub fn child_json(&self, child: &DirChild) -> String {
        let mut out = String::with_capacity(128);
        let (uri, mime, size) = match child {
            DirChild::Dir(uri) => (uri.as_str(), mime::DIRECTORY, None),
            DirChild::File(i) => {
                let f = &self.files[*i];
                (f.uri.as_str(), f.mime, Some(f.size))
            }
        };
        out.push_str("{\"uri\":");
        write_json_string(uri, &mut out);
        out.push_str(",\"name\":");
        write_json_string(last_segment(uri), &mut out);
        out.push_str(",\"mimeType\":");
        write_json_string(mime, &mut out);
        if let Some(size) = size {
            out.push_str(",\"size\":");
            out.push_str(&size.to_string());
        }
        out.push('}');
        out
    }

    /// Server instructions naming the skills (SEP-2640 §Pointer from Server Instructions).
    pub fn default_instructions(&self) -> String {
        const NAMED: usize = 50;
        let mut s = String::from(
            "This server publishes Agent Skills through the io.modelcontextprotocol/skills extension. \
             List them with skills/list, fetch an entry with skills/get, and read files with resources/read; \
             verify every file against the size and sha256 digest in its entry before use.",
        );
        if !self.skills.is_empty() {
            s.push_str(" Skills:");
            for sk in self.skills.iter().take(NAMED) {
                let mut d: String = sk.description.chars().take(160).collect();
                if d.len() < sk.description.len() {
                    d.push('…');
                }
                s.push_str(&format!("\n- {} ({}): {}", sk.uri, sk.name, d.trim()));
            }
            if self.skills.len() > NAMED {
                s.push_str(&format!(
                    "\n- and {} more (see skills/list)",
                    self.skills.len() - NAMED
                ));
            }
        }
        s
    }
}
