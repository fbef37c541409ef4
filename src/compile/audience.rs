//! Who sees each skill, file and directory of a compiled catalog ([`crate::access`]): the
//! rules applied at compile time, and the audiences the pack records.

use super::{Compiled, CompiledSkill};
use crate::access::{self, Access, AccessRule, Audience, ACCESS_FILE};
use crate::diag::{Diagnostic, Rule};
use crate::skill::uri::SCHEME;
use std::collections::BTreeMap;

/// Applies `rules` (not empty) to `skills` (sorted by URI): their classes, or `None` when every
/// skill stays public; errors and the `access-needs-auth` warning pushed to `diags`.
pub(super) fn resolve(
    rules: &[AccessRule],
    skills: &[CompiledSkill],
    by_name: &BTreeMap<String, Vec<String>>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Access> {
    let paths: Vec<&str> = skills
        .iter()
        .map(|s| s.root.strip_prefix(SCHEME).unwrap_or(&s.root))
        .collect();
    let a = access::resolve(rules, &paths, diags);
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
}

impl Compiled {
    /// The audience class of skill `i` (0 public; [`crate::access`]).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn skill_class(&self, i: usize) -> u32 {
        self.access
            .as_ref()
            .and_then(|a| a.skill_class.get(i).copied())
            .unwrap_or(0)
    }

    /// Whether skill `i` is public (every skill of a catalog without access rules is).
    pub(crate) fn is_public(&self, i: usize) -> bool {
        self.skill_class(i) == 0
    }

    /// What `skills-edge check` prints of a catalog with access rules: one line per skill,
    /// `audience: <skill path>: public` or `audience: <skill path>: scopes <s1> <s2>` (any one
    /// of them grants sight); `None` when every skill is public and there are no rules.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn audience_report(&self) -> Option<String> {
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
    /// under or around it. Skills are sorted by URI, so those at or under it are the run whose
    /// URIs start with `uri/`; those around it are found by their `SKILL.md` above it.
    pub(crate) fn dir_audience(&self, uri: &str) -> Audience {
        let mut a = Audience::default();
        let prefix = format!("{uri}/");
        let first = self
            .skills
            .partition_point(|s| s.uri.as_str() < prefix.as_str());
        for (i, sk) in self.skills.iter().enumerate().skip(first) {
            if !sk.uri.starts_with(&prefix) {
                break;
            }
            a = a.union(Audience::of_class(self.skill_class(i)));
        }
        for above in super::ancestors(uri).take_while(|p| p.len() > SCHEME.len()) {
            let md = format!("{above}/{}", crate::skill::uri::SKILL_MD);
            if let Ok(i) = self.skills.binary_search_by(|s| s.uri.cmp(&md)) {
                a = a.union(Audience::of_class(self.skill_class(i)));
            }
        }
        a
    }
}
