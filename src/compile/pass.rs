//! One compilation of a folder, step by step. Every step is a map lookup or one walk over
//! sorted files, so a pass is n log n in the folder's files and skills: files are sorted by
//! path once, a skill's files are the run of files under its root, and a file's skill is
//! found by walking its parents in the set of skill directories.

use super::archive::{self, CompiledArchive, MAX_ARCHIVE_BYTES};
use super::paths::{check_case_collisions, check_path};
use super::skill_md::check_skill_md;
use super::{
    ancestors, archive_too_large, last_segment, parent_of, uri_of, Compiled, CompiledFile,
    CompiledSkill, Options, SourceFile, SourceTree, MAX_LIST_PAGES, MAX_PAGE_ITEMS, MAX_SKILLS,
};
use crate::access::{self, AccessRule, ACCESS_FILE};
use crate::diag::{CompileError, Diagnostic, Rule, Severity};
use crate::skill::digest::digest_of;
use crate::skill::limits::{MAX_BYTES_PER_SKILL, MAX_FILES_PER_SKILL};
use crate::skill::mime;
use crate::skill::uri::{SCHEME, SKILL_MD};
use std::collections::{BTreeMap, BTreeSet};

const JUNK_FILES: &[&str] = &[".DS_Store", "Thumbs.db", "desktop.ini", "ehthumbs.db"];

/// One compilation of `tree`; the directories in `demoted` hold a `SKILL.md` that is not a
/// skill (see [`Options::skip_invalid`]).
pub(super) fn compile_pass(
    tree: SourceTree,
    options: Options,
    demoted: &BTreeSet<String>,
) -> Result<Compiled, CompileError> {
    let mut diags = tree.diagnostics;
    let mut tree_files = tree.files;
    let rules = take_access_rules(&mut tree_files, &mut diags);
    let (files, dirs) = checked_paths(tree_files, tree.dirs, &mut diags);
    let skill_dirs = find_skills(&files, demoted, &mut diags);
    check_case_collisions(&files, &dirs, &skill_dirs, &mut diags);
    let mut skills = check_skills(&files, &skill_dirs, options, &mut diags);
    let skill_set: BTreeSet<&str> = skill_dirs.iter().map(String::as_str).collect();
    let compiled_files = served_files(files, &skill_set, &mut diags);
    manifests(&mut skills, &compiled_files, &mut diags);
    let by_name = duplicate_names(&skills, &mut diags);
    archives(&mut skills, &compiled_files, &by_name, &mut diags);
    let compiled_dirs = super::dirs::served_dirs(dirs, &skill_set, &compiled_files);
    skills.sort_by(|a, b| a.uri.cmp(&b.uri));
    if let Some(d) = too_many_skills(skills.len(), MAX_SKILLS) {
        diags.push(d);
    }
    let access = if rules.is_empty() {
        None
    } else {
        super::audience::resolve(&rules, &skills, &by_name, &mut diags)
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

/// The access rules: `skills-edge.toml` at the root is read here, taken out of `files` and
/// never served.
fn take_access_rules(files: &mut Vec<SourceFile>, diags: &mut Vec<Diagnostic>) -> Vec<AccessRule> {
    let Some(i) = files.iter().position(|f| f.path == ACCESS_FILE) else {
        return Vec::new();
    };
    let f = files.remove(i);
    match std::str::from_utf8(&f.bytes) {
        Ok(text) => access::parse_rules(text, diags),
        Err(_) => {
            diags.push(Diagnostic::error(
                Rule::AccessFile,
                ACCESS_FILE,
                "the file is not UTF-8",
                "save it as UTF-8 text",
            ));
            Vec::new()
        }
    }
}

/// The files (sorted by path, each once) and directories (every parent of a file included)
/// whose paths can be published: OS junk dropped (warned), every path segment checked, a path
/// given twice or as both a file and a directory refused.
fn checked_paths(
    tree_files: Vec<SourceFile>,
    tree_dirs: Vec<String>,
    diags: &mut Vec<Diagnostic>,
) -> (Vec<SourceFile>, BTreeSet<String>) {
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
        if check_path(&f.path, diags) {
            files.push(f);
        }
    }
    // A directory may be given more than once (`SourceTree::dirs`): each is checked once.
    let mut tree_dirs = tree_dirs;
    tree_dirs.sort();
    tree_dirs.dedup();
    let mut dirs: BTreeSet<String> = BTreeSet::new();
    for d in tree_dirs {
        if check_path(&d, diags) {
            dirs.insert(d);
        }
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    // A tree built by a program rather than read from disk (`SourceTree` is public, and the npm
    // package's `compileCatalog` takes a list of entries) can give a path twice, or use one
    // path for a file and a directory. No file system can, and a catalog can serve neither.
    // Sorted, a path given twice is a run: reported once.
    let mut unique: Vec<SourceFile> = Vec::with_capacity(files.len());
    let mut reported = false;
    for f in files {
        if unique.last().is_some_and(|u| u.path == f.path) {
            if !reported {
                diags.push(Diagnostic::error(
                    Rule::DuplicatePath,
                    &f.path,
                    "the same path is given more than once",
                    "give each file once",
                ));
                reported = true;
            }
            continue;
        }
        reported = false;
        unique.push(f);
    }
    for f in &unique {
        for p in ancestors(&f.path) {
            if !dirs.contains(p) {
                dirs.insert(p.to_owned());
            }
        }
    }
    for f in &unique {
        if dirs.contains(&f.path) {
            diags.push(Diagnostic::error(
                Rule::DuplicatePath,
                &f.path,
                "the path is both a file and a directory",
                "rename the file or the directory",
            ));
        }
    }
    (unique, dirs)
}

/// Whether `files` (sorted by path) holds `path`.
fn has_file(files: &[SourceFile], path: &str) -> bool {
    files
        .binary_search_by(|f| f.path.as_str().cmp(path))
        .is_ok()
}

/// The skills: directories holding `SKILL.md` (but those in `demoted`), in path order.
fn find_skills(
    files: &[SourceFile],
    demoted: &BTreeSet<String>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<String> {
    let mut skill_dirs: Vec<String> = Vec::new();
    for f in files {
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
            && !has_file(
                files,
                &format!("{dir}{}{SKILL_MD}", if dir.is_empty() { "" } else { "/" }),
            )
        {
            diags.push(Diagnostic::error(
                Rule::SkillMdFilename,
                &f.path,
                format!("{leaf} is not spelled SKILL.md, so this directory is not a skill"),
                "rename the file to SKILL.md (upper case, .md lower case)",
            ));
        }
    }
    skill_dirs
}

/// Each skill's SKILL.md checked: the skills whose frontmatter holds (files not yet listed).
fn check_skills(
    files: &[SourceFile],
    skill_dirs: &[String],
    options: Options,
    diags: &mut Vec<Diagnostic>,
) -> Vec<CompiledSkill> {
    let mut skills: Vec<CompiledSkill> = Vec::new();
    for dir in skill_dirs {
        let path = format!("{dir}/{SKILL_MD}");
        let Ok(at) = files.binary_search_by(|f| f.path.as_str().cmp(&path)) else {
            continue;
        };
        let checked = check_skill_md(dir, &path, &files[at].bytes, options.strict, diags);
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
    skills
}

/// Served files: every file inside at least one skill directory (one of its parents is in
/// `skills`), with its digest, in path order; the others are warned about.
fn served_files(
    files: Vec<SourceFile>,
    skills: &BTreeSet<&str>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<CompiledFile> {
    let mut compiled_files: Vec<CompiledFile> = Vec::new();
    for f in files {
        if !ancestors(&f.path).any(|d| skills.contains(d)) {
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
    compiled_files
}

/// Each skill's manifest (`SKILL.md` first, then every file under its root in URI order: the
/// run of `files`, sorted by URI, that starts with its root and `/`) and the per-skill limits.
fn manifests(skills: &mut [CompiledSkill], files: &[CompiledFile], diags: &mut Vec<Diagnostic>) {
    for skill in skills {
        let prefix = format!("{}/", skill.root);
        let first = files.partition_point(|f| f.uri.as_str() < prefix.as_str());
        let mut idx: Vec<usize> = Vec::new();
        let mut self_idx = None;
        for (i, f) in files.iter().enumerate().skip(first) {
            if !f.uri.starts_with(&prefix) {
                break;
            }
            if f.uri == skill.uri {
                self_idx = Some(i);
            } else {
                idx.push(i);
            }
        }
        if let Some(s) = self_idx {
            idx.insert(0, s);
        }
        let total: u64 = idx.iter().map(|&i| files[i].size).sum();
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
}

/// The skills' URIs by name; a name shared by skills is warned about (allowed by the spec,
/// names are labels, but confusing).
fn duplicate_names(
    skills: &[CompiledSkill],
    diags: &mut Vec<Diagnostic>,
) -> BTreeMap<String, Vec<String>> {
    let mut by_name: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for s in skills {
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
    by_name
}

/// Archives of the mirror: every skill it publishes (its name is unique) with files besides
/// SKILL.md.
fn archives(
    skills: &mut [CompiledSkill],
    files: &[CompiledFile],
    by_name: &BTreeMap<String, Vec<String>>,
    diags: &mut Vec<Diagnostic>,
) {
    for skill in skills {
        if skill.files.len() < 2 || by_name.get(skill.name.as_str()).map(Vec::len) != Some(1) {
            continue;
        }
        let rel = &skill.root[SCHEME.len()..];
        for &i in &skill.files {
            let Some(f) = files.get(i) else {
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
            let f = files.get(i)?;
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
}

/// The `limit-skills` error of a catalog of `n` skills when more than `limit` (the folder
/// itself: no skill is to blame, so `--skip-invalid` cannot leave one out).
pub(super) fn too_many_skills(n: usize, limit: usize) -> Option<Diagnostic> {
    (n > limit).then(|| {
        Diagnostic::error(
            Rule::LimitSkills,
            "",
            format!(
                "the catalog has {n} skills; the limit is {limit}: clients stop a skills/list after {MAX_LIST_PAGES} pages (the official MCP TypeScript SDK's listMaxPages, MCP Inspector) and a page holds at most {MAX_PAGE_ITEMS} skills (the largest page size, PAGE_SIZE / --page-size / pageSize)"
            ),
            format!("split the skills folder into catalogs of at most {limit} skills, each served on its own"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_catalog_over_the_skill_limit_is_a_build_error_naming_the_fix() {
        // 64,001 generated skills take a while to compile in a debug build, so the check is
        // exercised with the limit as a parameter; the constant is the pages times the items.
        assert_eq!(MAX_SKILLS, 64_000);
        assert_eq!(too_many_skills(64_000, MAX_SKILLS), None);
        let d = too_many_skills(64_001, MAX_SKILLS).expect("over the limit");
        assert_eq!((d.rule.id(), d.severity), ("limit-skills", Severity::Error));
        assert!(d.message.contains("64001 skills") && d.message.contains("64 pages"));
        assert!(
            d.message.contains("PAGE_SIZE") && d.fix.contains("split"),
            "{d:?}"
        );
    }
}
