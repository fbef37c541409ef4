//! Reading a skills folder from disk into a [`SourceTree`] (native only).
//!
//! Symbolic links are never followed: each one is an error (a link could pull files from
//! outside the folder into a published skill). Entries are visited in name order so the
//! result does not depend on the file system.

use super::compile::SourceTree;
use super::diag::{Diagnostic, Unreadable};
use std::fs;
use std::path::{Path, PathBuf};

/// A folder read from disk: the tree, and every file and directory that was read (for
/// `cargo:rerun-if-changed`).
///
/// ```
/// use skills_edge::catalog::{walk::walk, Catalog};
/// # let root = std::env::temp_dir().join(format!("walked-doc-{}", std::process::id()));
/// # std::fs::create_dir_all(root.join("hello")).unwrap();
/// # std::fs::write(root.join("hello/SKILL.md"), "---\nname: hello\ndescription: Say hello.\n---\n").unwrap();
/// let walked = walk(&root);
/// assert_eq!(walked.tree.files[0].path, "hello/SKILL.md");
/// assert_eq!(walked.read.len(), 3, "the root, hello/ and hello/SKILL.md");
/// assert_eq!(Catalog::compile(walked.tree, None).unwrap().skill_at(0).unwrap().name, "hello");
/// let missing = walk(&root.join("no-such-folder"));
/// assert_eq!(missing.tree.diagnostics[0].rule.id(), "io");
/// # std::fs::remove_dir_all(&root).unwrap();
/// ```
#[derive(Debug, Default)]
pub struct Walked {
    /// The files and directories found.
    pub tree: SourceTree,
    /// Every path read, the root included.
    pub read: Vec<PathBuf>,
}

/// Reads `root` recursively.
pub fn walk(root: &Path) -> Walked {
    let mut w = Walked::default();
    match fs::symlink_metadata(root) {
        Ok(m) if m.is_dir() => {
            w.read.push(root.to_path_buf());
            visit(root, "", &mut w);
        }
        Ok(_) => w.tree.diagnostics.push(Diagnostic::root_not_a_directory()),
        Err(e) => {
            w.tree
                .diagnostics
                .push(Diagnostic::unreadable("", Unreadable::Root, &e.to_string()))
        }
    }
    w
}

fn visit(dir: &Path, rel: &str, w: &mut Walked) {
    let entries = match fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) => {
            w.tree.diagnostics.push(Diagnostic::unreadable(
                rel,
                Unreadable::Directory,
                &e.to_string(),
            ));
            return;
        }
    };
    let mut names: Vec<(std::ffi::OsString, PathBuf)> = Vec::new();
    for e in entries {
        match e {
            Ok(e) => names.push((e.file_name(), e.path())),
            Err(e) => w.tree.diagnostics.push(Diagnostic::unreadable(
                rel,
                Unreadable::Directory,
                &e.to_string(),
            )),
        }
    }
    names.sort();
    for (name, path) in names {
        let Some(name) = name.to_str() else {
            w.tree
                .diagnostics
                .push(Diagnostic::name_not_utf8(rel, name.as_encoded_bytes()));
            continue;
        };
        let child_rel = if rel.is_empty() {
            name.to_owned()
        } else {
            format!("{rel}/{name}")
        };
        let meta = match fs::symlink_metadata(&path) {
            Ok(m) => m,
            Err(e) => {
                w.tree.diagnostics.push(Diagnostic::unreadable(
                    &child_rel,
                    Unreadable::Entry,
                    &e.to_string(),
                ));
                continue;
            }
        };
        let ft = meta.file_type();
        if ft.is_symlink() {
            w.tree.diagnostics.push(Diagnostic::symlink(&child_rel));
        } else if ft.is_dir() {
            w.read.push(path.clone());
            w.tree.dirs.push(child_rel.clone());
            visit(&path, &child_rel, w);
        } else if ft.is_file() {
            w.read.push(path.clone());
            match fs::read(&path) {
                Ok(bytes) => w.tree.files.push(super::compile::SourceFile {
                    path: child_rel,
                    bytes,
                }),
                Err(e) => w.tree.diagnostics.push(Diagnostic::unreadable(
                    &child_rel,
                    Unreadable::File,
                    &e.to_string(),
                )),
            }
        } else {
            w.tree
                .diagnostics
                .push(Diagnostic::special_file(&child_rel));
        }
    }
}
