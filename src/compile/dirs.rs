//! The directory namespace a catalog serves: prefix directories, skill roots and their
//! subdirectories, each with its direct children. One walk over the sorted directories and
//! one over the sorted files, each child put in its parent's list by a map lookup.

use super::{ancestors, parent_of, uri_of, CompiledDir, CompiledFile, DirChild};
use crate::skill::uri::SCHEME;
use std::collections::{BTreeMap, BTreeSet};

/// The served directories of `dirs`, sorted by URI, with their children: directories first,
/// then files, each group by name. A directory is served when it is a skill's, holds a skill
/// or lies inside one.
pub(super) fn served_dirs(
    dirs: BTreeSet<String>,
    skills: &BTreeSet<&str>,
    files: &[CompiledFile],
) -> Vec<CompiledDir> {
    // Every directory above a skill.
    let above: BTreeSet<&str> = skills.iter().flat_map(|s| ancestors(s)).collect();
    let served = |d: &str| {
        skills.contains(d) || above.contains(d) || ancestors(d).any(|a| skills.contains(a))
    };
    let served_dirs: Vec<String> = dirs.into_iter().filter(|d| served(d)).collect();
    let at: BTreeMap<&str, usize> = served_dirs
        .iter()
        .enumerate()
        .map(|(i, d)| (d.as_str(), i))
        .collect();
    let mut compiled: Vec<CompiledDir> = served_dirs
        .iter()
        .map(|d| CompiledDir {
            uri: uri_of(d),
            children: Vec::new(),
        })
        .collect();
    // In path order, the children of one directory come in name order (they share the
    // parent's path and a `/`).
    for d in &served_dirs {
        if let Some(&p) = at.get(parent_of(d)) {
            compiled[p].children.push(DirChild::Dir(uri_of(d)));
        }
    }
    for (i, f) in files.iter().enumerate() {
        let parent = parent_of(&f.uri).strip_prefix(SCHEME);
        if let Some(&p) = parent.and_then(|p| at.get(p)) {
            compiled[p].children.push(DirChild::File(i));
        }
    }
    compiled
}
