//! Who may see what: the access rules of a catalog, read from `skills-edge.toml` at the root
//! of the skills folder, and the audience model the catalog and the responder share.
//!
//! The file holds `[[access]]` tables, each with two keys and nothing else:
//!
//! ```toml
//! [[access]]
//! skills = ["acme/billing/**", "code-review"]   # paths under skill://, exactly or by glob
//! scopes = ["billing"]                          # any one of them grants sight
//! ```
//!
//! * A skill no rule names is **public**. A skill one or more rules name is **private**: its
//!   audience is the union of the scopes of every rule naming it, and a caller sees it when
//!   it holds any one of them ("either rule's scopes").
//! * Patterns match a skill's path: its root URI without `skill://`
//!   (`acme/billing/invoices`). `*` matches within one path segment (any characters but `/`),
//!   `**` (a whole segment) any number of segments, including none; no other metacharacter
//!   exists, and `?`, `[`, `]`, `{`, `}` are refused. A pattern that matches no skill is an
//!   error (a typo would otherwise leave a skill public).
//! * A nested skill has its parent's audience: its files are part of the parent's manifest,
//!   archive and signature, so a caller who sees the parent sees them. A rule that makes the
//!   nested skill more visible than its parent, or less, is an error naming both skills.
//! * Scopes are OAuth scope-tokens (RFC 6749 §3.3: `%x21 / %x23-5B / %x5D-7E`, at least one).
//!
//! **Audience classes.** Each distinct set of scopes is a class; class 0 is public, private
//! classes are numbered from 1 in order of their sorted scope sets. At most
//! `MAX_PRIVATE_CLASSES` private classes exist (a `u64` mask). A caller's [`Grant`] is the
//! mask of the private classes whose scope set meets the caller's scopes
//! (`Catalog::grant`: classes × scopes work, nothing per skill). Every skill, file and
//! directory carries an [`Audience`]: a skill and its files their class, a directory the union
//! of the classes of the skills under it (public when any public skill is under it).

use crate::diag::{Diagnostic, Rule};
use std::collections::{BTreeMap, BTreeSet};

/// The name of the access file at the root of the skills folder. At the root it is never a
/// skill file (never in a pack's files, archives or mirror); a file of that name inside a
/// skill is an ordinary file of the skill.
#[cfg_attr(feature = "internals", visibility::make(pub))]
pub(crate) const ACCESS_FILE: &str = "skills-edge.toml";

/// The most private audience classes a catalog may have (the bits of a `u64`).
pub(crate) const MAX_PRIVATE_CLASSES: usize = 64;

/// What a caller may see: the set of private audience classes it holds, as a mask (bit
/// `k - 1` for class `k`). Public skills are seen by every grant.
///
/// ```
/// use skills_edge::catalog::{compile::SourceTree, Catalog, Grant};
/// let mut tree = SourceTree::default();
/// tree.add_file("skills-edge.toml", "[[access]]\nskills = [\"billing\"]\nscopes = [\"finance\"]\n");
/// tree.add_file("billing/SKILL.md", "---\nname: billing\ndescription: Bill customers.\n---\n");
/// tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n");
/// let catalog = Catalog::compile(tree, None).unwrap();
/// let finance = catalog.grant(&["finance", "email"]);
/// assert!(finance != Grant::PUBLIC && catalog.grant(&["email"]) == Grant::PUBLIC);
/// // The responder (`skills_edge::server::Responder::respond`) answers each caller for its
/// // grant: `billing` is listed for `finance` and is absent for `Grant::PUBLIC`.
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Grant(u64);

impl Grant {
    /// An anonymous caller's grant: public skills only.
    pub const PUBLIC: Grant = Grant(0);

    /// The grant of a mask of private classes (bit `k - 1` for class `k`).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) const fn from_mask(mask: u64) -> Grant {
        Grant(mask)
    }

    /// The mask of private classes.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) const fn mask(self) -> u64 {
        self.0
    }

    /// Whether this grant sees public skills only.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) const fn is_public(self) -> bool {
        self.0 == 0
    }

    /// Whether a caller with this grant sees what has `audience`.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) const fn sees(self, audience: Audience) -> bool {
        audience.public || audience.private & self.0 != 0
    }
}

/// Who sees something: everybody (`public`), and the holders of the private classes in
/// `private` (bit `k - 1` for class `k`).
///
/// ```
/// use skills_edge::catalog::{compile::SourceTree, Audience, Catalog, Grant};
/// let mut tree = SourceTree::default();
/// tree.add_file("skills-edge.toml", "[[access]]\nskills = [\"acme/**\"]\nscopes = [\"staff\"]\n");
/// tree.add_file("acme/billing/SKILL.md", "---\nname: billing\ndescription: Bill customers.\n---\n");
/// tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n");
/// let catalog = Catalog::compile(tree, None).unwrap();
/// let acme = catalog.dir("skill://acme").unwrap().audience;
/// assert_eq!(acme, Audience { public: false, private: 0b1 }, "private class 1 only");
/// assert!(catalog.grant(&["staff"]).sees(acme) && !Grant::PUBLIC.sees(acme));
/// assert!(catalog.dir("skill://hello").unwrap().audience.public);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Audience {
    /// Every caller sees it.
    pub public: bool,
    /// The private classes that see it.
    pub private: u64,
}

impl Audience {
    /// Seen by every caller.
    pub(crate) const PUBLIC: Audience = Audience {
        public: true,
        private: 0,
    };

    /// The audience of class `class` (0 public, `k` ≥ 1 private class `k`).
    pub(crate) const fn of_class(class: u32) -> Audience {
        if class == 0 {
            Audience::PUBLIC
        } else if class as usize <= MAX_PRIVATE_CLASSES {
            Audience {
                public: false,
                private: 1u64 << (class - 1),
            }
        } else {
            Audience {
                public: false,
                private: 0,
            }
        }
    }

    /// Seen by whoever sees `self` or `other`.
    pub(crate) const fn union(self, other: Audience) -> Audience {
        Audience {
            public: self.public || other.public,
            private: self.private | other.private,
        }
    }
}

/// One `[[access]]` table.
///
/// ```
/// use skills_edge::catalog::access::{resolve, AccessRule};
/// let rule = AccessRule { skills: vec!["acme/*".into()], scopes: vec!["staff".into()], line: 1 };
/// let mut diags = Vec::new();
/// let access = resolve(&[rule], &["acme/billing", "hello"], &mut diags);
/// assert!(diags.is_empty());
/// assert_eq!(access.skill_class, [1, 0], "acme/billing is private, hello public");
/// let typo = AccessRule { skills: vec!["acme/bilingg".into()], scopes: vec!["staff".into()], line: 4 };
/// resolve(&[typo], &["acme/billing"], &mut diags);
/// assert_eq!((diags[0].rule.id(), diags[0].line), ("access-pattern", Some(4)));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccessRule {
    /// The patterns, as written.
    pub skills: Vec<String>,
    /// The scopes, as written.
    pub scopes: Vec<String>,
    /// The line of the table's `[[access]]` header (1-based).
    pub line: usize,
}

/// The access of a compiled catalog: its private classes and each skill's class.
///
/// ```
/// use skills_edge::catalog::compile::{compile, SourceTree};
/// let mut tree = SourceTree::default();
/// tree.add_file("skills-edge.toml", "[[access]]\nskills = [\"billing\"]\nscopes = [\"finance\", \"admin\"]\n");
/// tree.add_file("billing/SKILL.md", "---\nname: billing\ndescription: Bill customers.\n---\n");
/// tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n");
/// let access = compile(tree).unwrap().access.unwrap();
/// assert_eq!(access.classes, [["admin", "finance"]], "one class, its scopes sorted");
/// assert_eq!(access.skill_class, [1, 0], "billing private, hello public");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Access {
    /// The scope set of each private class, class 1 first; each set sorted, without
    /// duplicates.
    pub classes: Vec<Vec<String>>,
    /// The class of each skill, in skill (URI) order: 0 public, `k` private class `k`.
    pub skill_class: Vec<u32>,
}

impl Access {
    /// The scopes of skill `i` (empty when it is public).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn scopes_of(&self, i: usize) -> &[String] {
        match self.skill_class.get(i) {
            Some(&c) if c > 0 => self.classes.get(c as usize - 1).map_or(&[], Vec::as_slice),
            _ => &[],
        }
    }

    /// Whether any skill is private.
    pub(crate) fn has_private(&self) -> bool {
        !self.classes.is_empty()
    }
}

/// Whether `scope` is an OAuth scope-token (RFC 6749 §3.3: one or more of `%x21 / %x23-5B /
/// %x5D-7E`: printable ASCII but space, `"` and `\`).
pub fn is_scope_token(scope: &str) -> bool {
    !scope.is_empty()
        && scope
            .bytes()
            .all(|b| b == 0x21 || (0x23..=0x5B).contains(&b) || (0x5D..=0x7E).contains(&b))
}

/// Whether the glob `pattern` matches the skill path `path` (both `/`-separated): `*` within
/// one segment, `**` (a whole segment) any number of segments, including none.
#[cfg_attr(feature = "internals", visibility::make(pub))]
pub(crate) fn glob_matches(pattern: &str, path: &str) -> bool {
    let pat: Vec<&str> = pattern.split('/').collect();
    let segs: Vec<&str> = path.split('/').collect();
    match_segments(&pat, &segs)
}

fn match_segments(pat: &[&str], segs: &[&str]) -> bool {
    match pat.split_first() {
        None => segs.is_empty(),
        Some((&"**", rest)) => (0..=segs.len()).any(|k| match_segments(rest, &segs[k..])),
        Some((p, rest)) => match segs.split_first() {
            Some((s, more)) => {
                match_segment(p.as_bytes(), s.as_bytes()) && match_segments(rest, more)
            }
            None => false,
        },
    }
}

/// `*` matches any run of characters within the segment.
fn match_segment(p: &[u8], s: &[u8]) -> bool {
    match p.split_first() {
        None => s.is_empty(),
        Some((b'*', rest)) => (0..=s.len()).any(|k| match_segment(rest, &s[k..])),
        Some((c, rest)) => s
            .split_first()
            .is_some_and(|(d, more)| c == d && match_segment(rest, more)),
    }
}

/// What is wrong with a pattern's syntax, if anything.
fn pattern_problem(pattern: &str) -> Option<String> {
    if pattern.is_empty() {
        return Some("an empty pattern".into());
    }
    if let Some(c) = pattern
        .chars()
        .find(|c| matches!(c, '?' | '[' | ']' | '{' | '}'))
    {
        return Some(format!(
            "the pattern {pattern:?} uses {c:?}, which is not a pattern character here (only * within a segment and ** as a whole segment are)"
        ));
    }
    if pattern.starts_with("skill://") {
        return Some(format!(
            "the pattern {pattern:?} starts with skill://; patterns are skill paths without it"
        ));
    }
    for seg in pattern.split('/') {
        if seg.is_empty() || seg == "." || seg == ".." {
            return Some(format!(
                "the pattern {pattern:?} has an empty, . or .. segment"
            ));
        }
        if seg.contains("**") && seg != "**" {
            return Some(format!(
                "the pattern {pattern:?} has ** inside a segment ({seg:?}); ** stands alone between slashes"
            ));
        }
    }
    None
}

/// The 1-based line of byte offset `at` in `text`.
fn line_of(text: &str, at: usize) -> usize {
    text.get(..at)
        .map_or(1, |t| t.bytes().filter(|&b| b == b'\n').count() + 1)
}

/// Reads the access file's text into its rules; every problem is an `access-file` error
/// pushed to `diags` (the rules that do read are still returned, so one run reports all).
#[cfg_attr(feature = "internals", visibility::make(pub))]
pub(crate) fn parse_rules(text: &str, diags: &mut Vec<Diagnostic>) -> Vec<AccessRule> {
    use toml::de::{DeTable, DeValue};
    let err = |diags: &mut Vec<Diagnostic>, line: usize, msg: String, fix: &str| {
        let mut d = Diagnostic::error(Rule::AccessFile, ACCESS_FILE, msg, fix);
        d.line = Some(line);
        diags.push(d);
    };
    let doc = match DeTable::parse(text) {
        Ok(d) => d,
        Err(e) => {
            let line = e.span().map_or(1, |s| line_of(text, s.start));
            err(
                diags,
                line,
                format!("the file is not valid TOML: {}", e.message().trim()),
                "write [[access]] tables with skills = [...] and scopes = [...] (docs/private.md)",
            );
            return Vec::new();
        }
    };
    let mut rules = Vec::new();
    for (key, value) in doc.get_ref().iter() {
        let line = line_of(text, key.span().start);
        if key.get_ref().as_ref() != "access" {
            err(
                diags,
                line,
                format!("unknown key {:?} at the top level", key.get_ref().as_ref()),
                "the file holds only [[access]] tables",
            );
            continue;
        }
        let DeValue::Array(tables) = value.get_ref() else {
            err(
                diags,
                line,
                "`access` is not an array of tables".into(),
                "write each rule as an [[access]] table (two brackets)",
            );
            continue;
        };
        for t in tables.iter() {
            let line = line_of(text, t.span().start);
            let DeValue::Table(table) = t.get_ref() else {
                err(
                    diags,
                    line,
                    "an `access` entry is not a table".into(),
                    "write each rule as an [[access]] table with skills and scopes",
                );
                continue;
            };
            let mut skills = None;
            let mut scopes = None;
            for (k, v) in table.iter() {
                let kline = line_of(text, k.span().start);
                let name = k.get_ref().as_ref();
                let slot = match name {
                    "skills" => &mut skills,
                    "scopes" => &mut scopes,
                    _ => {
                        err(
                            diags,
                            kline,
                            format!("unknown key {name:?} in an [[access]] table"),
                            "an [[access]] table has exactly two keys: skills and scopes",
                        );
                        continue;
                    }
                };
                let strings = match v.get_ref() {
                    DeValue::Array(items) => items
                        .iter()
                        .map(|i| match i.get_ref() {
                            DeValue::String(s) => Some(s.to_string()),
                            _ => None,
                        })
                        .collect::<Option<Vec<String>>>(),
                    _ => None,
                };
                match strings {
                    Some(list) if !list.is_empty() => *slot = Some(list),
                    Some(_) => err(
                        diags,
                        kline,
                        format!("`{name}` is empty"),
                        "list at least one entry",
                    ),
                    None => err(
                        diags,
                        kline,
                        format!("`{name}` is not an array of strings"),
                        "write it as an array of strings, e.g. [\"billing\"]",
                    ),
                }
            }
            let present = |k: &str| table.iter().any(|(n, _)| n.get_ref().as_ref() == k);
            for key in ["skills", "scopes"] {
                if !present(key) {
                    err(
                        diags,
                        line,
                        format!("the [[access]] table has no `{key}`"),
                        "give both skills (patterns) and scopes (at least one each)",
                    );
                }
            }
            let mut ok = true;
            for p in skills.iter().flatten() {
                if let Some(problem) = pattern_problem(p) {
                    ok = false;
                    err(
                        diags,
                        line,
                        problem,
                        "write a skill path (acme/billing/invoices) with * within a segment or ** as a whole segment",
                    );
                }
            }
            for s in scopes.iter().flatten() {
                if let Some((problem, fix)) = scope_problem(s) {
                    ok = false;
                    err(diags, line, problem, &fix);
                }
            }
            if let (Some(skills), Some(scopes), true) = (skills, scopes, ok) {
                rules.push(AccessRule {
                    skills,
                    scopes,
                    line,
                });
            }
        }
    }
    rules
}

/// What is wrong with a rule's scope, and the fix: not an OAuth scope token, or an `email:`
/// or `email-domain:` scope with an ASCII capital letter. `AUTH_MODE = "access"` grants those
/// lower-cased (domain names compare without regard to case, RFC 5321 §2.4, and Access
/// reports addresses as the user typed them), so a rule written with a capital letter would
/// match nobody and leave the skill hidden from the people it names.
fn scope_problem(scope: &str) -> Option<(String, String)> {
    let email = ["email:", "email-domain:"]
        .into_iter()
        .any(|k| scope.starts_with(k));
    if email && scope.bytes().any(|b| b.is_ascii_uppercase()) {
        return Some((
            format!("the scope {scope:?} has capital letters, but Cloudflare Access's email grants are lower case, so it would match no caller"),
            format!("write it in lower case: {:?}", scope.to_ascii_lowercase()),
        ));
    }
    (!is_scope_token(scope)).then(|| {
        (
            format!("the scope {scope:?} is not an OAuth scope token (RFC 6749 §3.3: printable ASCII without space, \" or \\)"),
            "use the scope exactly as your authorization server issues it".to_owned(),
        )
    })
}

/// Applies `rules` to the skills (their paths, in skill order): each skill's scope set, or
/// errors (`access-pattern`, `access-nested`, `access-classes`) pushed to `diags`.
pub fn resolve(rules: &[AccessRule], skill_paths: &[&str], diags: &mut Vec<Diagnostic>) -> Access {
    let err = |diags: &mut Vec<Diagnostic>, rule: Rule, line: usize, msg: String, fix: &str| {
        let mut d = Diagnostic::error(rule, ACCESS_FILE, msg, fix);
        d.line = Some(line);
        diags.push(d);
    };
    let mut scopes: Vec<BTreeSet<String>> = vec![BTreeSet::new(); skill_paths.len()];
    let mut named_by: Vec<Option<usize>> = vec![None; skill_paths.len()];
    for rule in rules {
        for p in &rule.skills {
            let mut any = false;
            for (i, path) in skill_paths.iter().enumerate() {
                if glob_matches(p, path) {
                    any = true;
                    scopes[i].extend(rule.scopes.iter().cloned());
                    named_by[i].get_or_insert(rule.line);
                }
            }
            if !any {
                err(
                    diags,
                    Rule::AccessPattern,
                    rule.line,
                    format!("the pattern {p:?} matches no skill"),
                    "correct the path (a skill's path is its directory under the skills folder, e.g. acme/billing/invoices), or remove the pattern",
                );
            }
        }
    }
    check_nested(skill_paths, &scopes, &named_by, diags);
    let mut sets: Vec<Vec<String>> = scopes
        .iter()
        .filter(|s| !s.is_empty())
        .map(|s| s.iter().cloned().collect())
        .collect();
    sets.sort();
    sets.dedup();
    if sets.len() > MAX_PRIVATE_CLASSES {
        err(
            diags,
            Rule::AccessClasses,
            1,
            format!(
                "the rules make {} distinct scope sets (audience classes); the limit is {MAX_PRIVATE_CLASSES}",
                sets.len()
            ),
            "give skills that share readers the same scopes, so fewer distinct sets remain",
        );
    }
    let class_of: BTreeMap<&[String], u32> = sets
        .iter()
        .enumerate()
        .map(|(k, c)| (c.as_slice(), k as u32 + 1))
        .collect();
    let skill_class = scopes
        .iter()
        .map(|s| {
            if s.is_empty() {
                return 0;
            }
            let v: Vec<String> = s.iter().cloned().collect();
            class_of.get(v.as_slice()).copied().unwrap_or(0)
        })
        .collect();
    Access {
        classes: sets,
        skill_class,
    }
}

/// Nested skills: the audience of a skill's innermost enclosing skill must be the same
/// (`access-nested`). The enclosing skill is found by walking the path's parents in a map of
/// the skills' paths.
fn check_nested(
    skill_paths: &[&str],
    scopes: &[BTreeSet<String>],
    named_by: &[Option<usize>],
    diags: &mut Vec<Diagnostic>,
) {
    let at: BTreeMap<&str, usize> = skill_paths
        .iter()
        .enumerate()
        .map(|(i, p)| (*p, i))
        .collect();
    for (i, path) in skill_paths.iter().enumerate() {
        let parent = std::iter::successors(path.rsplit_once('/'), |(p, _)| p.rsplit_once('/'))
            .find_map(|(p, _)| at.get_key_value(p));
        let Some((&ppath, &pi)) = parent else {
            continue;
        };
        if scopes[i] == scopes[pi] {
            continue;
        }
        let show = |s: &BTreeSet<String>| {
            if s.is_empty() {
                "public".to_owned()
            } else {
                format!("scopes {}", s.iter().cloned().collect::<Vec<_>>().join(" "))
            }
        };
        let wider =
            scopes[i].is_empty() || (!scopes[pi].is_empty() && !scopes[i].is_subset(&scopes[pi]));
        let line = named_by[i].or(named_by[pi]).unwrap_or(1);
        let mut d = Diagnostic::error(
            Rule::AccessNested,
            ACCESS_FILE,
            format!(
                "the skill {path} ({}) is nested in the skill {ppath} ({}), so {}",
                show(&scopes[i]),
                show(&scopes[pi]),
                if wider {
                    "a caller who may not see the outer skill would see the nested one"
                } else {
                    "a caller who may not see the nested skill would still see its files in the outer skill's manifest"
                }
            ),
            format!("give {path} the same scopes as {ppath} (e.g. a pattern {ppath}/** in the rule that names {ppath}), or move it out of {ppath}"),
        );
        d.line = Some(line);
        diags.push(d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_within_a_segment_and_across_segments() {
        assert!(glob_matches("acme/billing/**", "acme/billing"));
        assert!(glob_matches("acme/billing/**", "acme/billing/invoices"));
        assert!(glob_matches(
            "acme/billing/**",
            "acme/billing/invoices/refunds"
        ));
        assert!(!glob_matches("acme/billing/**", "acme/billingx"));
        assert!(glob_matches("acme/*/refunds", "acme/billing/refunds"));
        assert!(!glob_matches("acme/*/refunds", "acme/a/b/refunds"));
        assert!(glob_matches("code-*", "code-review"));
        assert!(!glob_matches("code-*", "tools/code-review"));
        assert!(glob_matches("**/refunds", "refunds"));
        assert!(glob_matches("**/refunds", "a/b/refunds"));
        assert!(glob_matches("code-review", "code-review"));
        assert!(!glob_matches("code-review", "code-review/nested"));
        assert!(glob_matches("**", "anything/at/all"));
    }

    #[test]
    fn scope_tokens_follow_rfc_6749() {
        for ok in ["billing", "read:skills", "a!#[]~", "https://api.example/x"] {
            assert!(is_scope_token(ok), "{ok}");
        }
        for bad in ["", "two words", "quo\"te", "back\\slash", "tab\t", "é"] {
            assert!(!is_scope_token(bad), "{bad}");
        }
    }

    #[test]
    fn grants_see_public_and_their_classes_only() {
        let c2 = Audience::of_class(2);
        assert!(Grant::PUBLIC.sees(Audience::PUBLIC));
        assert!(!Grant::PUBLIC.sees(c2));
        assert!(Grant::from_mask(0b10).sees(c2));
        assert!(!Grant::from_mask(0b01).sees(c2));
        assert!(Grant::from_mask(1 << 63).sees(Audience::of_class(64)));
        assert_eq!(
            Audience::of_class(65).private,
            0,
            "out of range sees nobody"
        );
        assert!(Grant::from_mask(0b01).sees(c2.union(Audience::of_class(1))));
    }
}
