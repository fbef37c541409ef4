//! Reading a skills folder from disk into a [`SourceTree`] (native only).
//!
//! Symbolic links are never followed: each one is an error (a link could pull files from
//! outside the folder into a published skill). Entries are visited in name order so the
//! result does not depend on the file system.

use super::compile::SourceTree;
use super::diag::{Diagnostic, Rule};
use std::fs;
use std::path::{Path, PathBuf};

/// A folder read from disk: the tree, and every file and directory that was read (for
/// `cargo:rerun-if-changed`).
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
        Ok(_) => w.tree.diagnostics.push(Diagnostic::error(
            Rule::Io,
            "",
            "the skills folder is not a directory",
            "point SKILLS_DIR (or the check command) at a directory of skills",
        )),
        Err(e) => w.tree.diagnostics.push(Diagnostic::error(
            Rule::Io,
            "",
            format!("cannot read the skills folder: {e}"),
            "create the folder or point SKILLS_DIR at an existing one",
        )),
    }
    w
}

fn visit(dir: &Path, rel: &str, w: &mut Walked) {
    let entries = match fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) => {
            w.tree.diagnostics.push(Diagnostic::error(
                Rule::Io,
                rel,
                format!("cannot list this directory: {e}"),
                "check its permissions",
            ));
            return;
        }
    };
    let mut names: Vec<(std::ffi::OsString, PathBuf)> = Vec::new();
    for e in entries {
        match e {
            Ok(e) => names.push((e.file_name(), e.path())),
            Err(e) => w.tree.diagnostics.push(Diagnostic::error(
                Rule::Io,
                rel,
                format!("cannot read a directory entry: {e}"),
                "check the directory's permissions",
            )),
        }
    }
    names.sort();
    for (name, path) in names {
        let Some(name) = name.to_str() else {
            w.tree.diagnostics.push(Diagnostic::error(
                Rule::PathUtf8,
                rel,
                format!("the name {:?} is not valid UTF-8", name),
                "rename it using only letters, digits and . _ ~ -",
            ));
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
                w.tree.diagnostics.push(Diagnostic::error(
                    Rule::Io,
                    &child_rel,
                    format!("cannot read it: {e}"),
                    "check its permissions",
                ));
                continue;
            }
        };
        let ft = meta.file_type();
        if ft.is_symlink() {
            w.tree.diagnostics.push(Diagnostic::error(
                Rule::NoSymlinks,
                &child_rel,
                "this is a symbolic link; links are not followed, so its target would not be published",
                "replace the link with a copy of the file or directory it points to",
            ));
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
                Err(e) => w.tree.diagnostics.push(Diagnostic::error(
                    Rule::Io,
                    &child_rel,
                    format!("cannot read the file: {e}"),
                    "check its permissions",
                )),
            }
        } else {
            w.tree.diagnostics.push(Diagnostic::error(
                Rule::RegularFilesOnly,
                &child_rel,
                "this is neither a regular file nor a directory (a socket, FIFO or device)",
                "remove it from the skills folder",
            ));
        }
    }
}
