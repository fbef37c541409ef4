//! [`Options::skip_invalid`]: compile, leave out each skill an error belongs to, compile again,
//! until the rest compiles or an error belongs to no skill. Each round is n log n in the
//! folder's files and skills: owners and kept skills are found by walking a path's parents
//! in sets, never by comparing every skill with every file.

use super::paths::check_path_quiet;
use super::{ancestors, compile_pass, Compiled, Options, SourceTree};
use crate::diag::{CompileError, Diagnostic, Rule, Severity};
use std::collections::{BTreeMap, BTreeSet};

/// The innermost of `skills` that is `path` or holds it.
fn innermost<'a>(skills: &'a BTreeSet<String>, path: &str) -> Option<&'a str> {
    std::iter::once(path)
        .chain(ancestors(path))
        .find_map(|p| skills.get(p).map(String::as_str))
}

/// [`super::compile_with`] with [`Options::skip_invalid`] on.
pub(super) fn compile_skipping(
    tree: SourceTree,
    options: Options,
) -> Result<Compiled, CompileError> {
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
        let skills: BTreeSet<String> = tree
            .files
            .iter()
            .filter_map(|f| f.path.strip_suffix("/SKILL.md"))
            .filter(|d| !demoted.contains(*d) && check_path_quiet(d))
            .map(str::to_owned)
            .collect();
        let mut invalid: BTreeMap<String, Vec<Diagnostic>> = BTreeMap::new();
        let mut unowned = false;
        for d in err.errors() {
            match innermost(&skills, &d.path) {
                Some(s) => invalid.entry(s.to_owned()).or_default().push(d.clone()),
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
        let kept: BTreeSet<String> = skills
            .into_iter()
            .filter(|s| !invalid.contains_key(s))
            .collect();
        let above: BTreeSet<&str> = kept.iter().flat_map(|k| ancestors(k)).collect();
        let in_kept = |p: &str| innermost(&kept, p).is_some();
        let above_kept = |p: &str| above.contains(p);
        // Left-out skills not nested in a skill that stays: their files go, except those of
        // the skills nested in them that stay.
        let mut removed: BTreeSet<String> = BTreeSet::new();
        for dir in invalid.into_keys() {
            if ancestors(&dir).any(|a| kept.contains(a)) {
                // Nested in a skill that stays: its SKILL.md is a file of that skill.
                demoted.insert(dir);
                continue;
            }
            removed.insert(dir.clone());
            demoted.insert(dir);
        }
        let gone = |p: &str| innermost(&removed, p).is_some() && !in_kept(p);
        tree.files.retain(|f| !gone(&f.path));
        tree.dirs.retain(|d| !gone(d) || above_kept(d));
        tree.diagnostics.retain(|d| !gone(&d.path));
    }
}
