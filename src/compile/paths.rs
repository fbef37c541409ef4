//! The path rules: every segment publishable, and no two names of one directory that differ
//! only in letter case.

use super::{last_segment, parent_of, SourceFile};
use crate::diag::{Diagnostic, Rule};
use crate::skill::uri::{check_segment, fold_case};
use std::collections::{BTreeMap, BTreeSet};

/// Whether every segment of a relative path can be published (no diagnostics).
pub(super) fn check_path_quiet(path: &str) -> bool {
    path.split('/').all(|seg| check_segment(seg).is_ok())
}

/// Checks every segment of a relative path; reports the first bad one.
pub(super) fn check_path(path: &str, diags: &mut Vec<Diagnostic>) -> bool {
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
pub(super) fn check_case_collisions(
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
