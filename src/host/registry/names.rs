//! Summaries and display names: what the user sees of the registered skills, and the skill a URI belongs to.

use super::*;

impl SkillHost {
    /// Every registered skill, servers in the order added, skills by URI, with display names
    /// that are unique across the registry (H23): a name that only one skill has is shown
    /// as is; skills of one server that share a name are told apart by their path prefix
    /// (`refunds (acme/billing)`) or, failing that, their root URI; a display name that
    /// several servers have is prefixed with the server label (`work:refunds`). No skill is
    /// dropped or shadowed.
    pub fn skills(&self) -> Vec<SkillSummary> {
        self.display_table()
            .into_iter()
            .map(|(label, entry, display_name)| self.summary_of(label, entry, display_name))
            .collect()
    }

    /// The summary of one registered skill, as [`SkillHost::skills`] shows it. The display
    /// names are worked out once after the set of registered skills changes and then looked
    /// up, so asking for every skill of a listing in turn stays linear in the listing.
    pub fn summary(&self, label: &str, uri: &str) -> Option<SkillSummary> {
        let entry = self.entry(label, uri)?;
        let display_name = self.display_name(label, uri);
        Some(self.summary_of(label, entry, display_name))
    }

    pub(super) fn summary_of(
        &self,
        label: &str,
        entry: &Entry,
        display_name: String,
    ) -> SkillSummary {
        SkillSummary {
            server_label: label.to_owned(),
            uri: entry.uri().to_owned(),
            name: entry.name().to_owned(),
            description: entry.description().to_owned(),
            display_name,
            dynamic: entry.is_dynamic(),
            revision: entry.revision(),
            approved: self.is_approved(label, entry.uri()),
            active: self.is_active(label, entry.uri()),
            signer: self.signer(label, entry.uri()).cloned(),
        }
    }

    /// Every registered skill with its display name (see [`SkillHost::skills`]), in
    /// O(skills) (the names are grouped with maps).
    pub(super) fn display_table(&self) -> Vec<(&str, &Entry, String)> {
        #[cfg(test)]
        tests::TABLE_BUILDS.with(|c| c.set(c.get() + 1));
        let locals: Vec<Vec<String>> = self.servers.iter().map(local_display_names).collect();
        // H23: a skill name served by more than one server is qualified with the label on
        // every server that serves it, whatever prefixes a server adds, so no bare name (or
        // `name (prefix)`) stands for one server's skill while another's has the same name.
        let mut servers_of_name: Map<usize> = Map::new();
        for server in self.servers.iter() {
            let mut names: BTreeSet<&str> = BTreeSet::new();
            for skill in server.skills.values() {
                names.insert(skill.entry.name());
            }
            for n in names {
                **servers_of_name.entry(n.to_owned()).or_default() += 1;
            }
        }
        let mut out = Vec::new();
        for (server, names) in self.servers.iter().zip(&locals) {
            for (skill, local) in server.skills.values().zip(names) {
                let entry = &skill.entry;
                let shared = servers_of_name.get(entry.name()).is_some_and(|n| **n > 1);
                let display_name = if shared {
                    format!("{}:{local}", server.label)
                } else {
                    local.clone()
                };
                out.push((server.label.as_str(), entry, display_name));
            }
        }
        // A last guard: should two display names still coincide, spell both out in full.
        let mut seen: Map<usize> = Map::new();
        for (_, _, name) in &out {
            **seen.entry(name.clone()).or_default() += 1;
        }
        for (label, entry, name) in &mut out {
            if seen.get(name.as_str()).is_some_and(|n| **n > 1) {
                *name = format!("{label}:{}", entry.uri());
            }
        }
        out
    }

    /// The display names by (label, URI), built from [`SkillHost::display_table`] once per
    /// change of the registered set.
    pub(super) fn names(&self) -> &Map<Map<String>> {
        self.names.get_or_init(|| {
            let mut names: Map<Map<String>> = Map::new();
            for (label, entry, name) in self.display_table() {
                names
                    .entry(label.to_owned())
                    .or_default()
                    .insert(entry.uri().to_owned(), Box::new(name));
            }
            names
        })
    }

    /// The `(server label, URI)` of the skill shown as `display_name`.
    pub fn lookup(&self, display_name: &str) -> Option<(String, String)> {
        self.names().iter().find_map(|(label, names)| {
            let (uri, _) = names.iter().find(|(_, name)| ***name == display_name)?;
            Some((label.clone(), uri.clone()))
        })
    }

    pub(super) fn display_name(&self, label: &str, uri: &str) -> String {
        get2(self.names(), label, uri).cloned().unwrap_or_default()
    }

    /// The registered entry of server `label` with the longest root that contains `uri` (a
    /// URI that starts with the root and a `/`): each prefix of `uri` up to a `/` is looked up
    /// as a root, longest first (the skill of root `r` is registered under `r/SKILL.md`), so no
    /// skill is scanned (O(depth × log skills)).
    pub(crate) fn innermost_entry(&self, label: &str, uri: &str) -> Option<&Entry> {
        let server = self.server(label).ok()?;
        let ends: Vec<usize> = uri.match_indices('/').map(|(i, _)| i).collect();
        let mut skill_md = String::new();
        ends.iter().rev().find_map(|end| {
            let prefix = uri.get(..*end)?;
            skill_md.clear();
            skill_md.push_str(prefix);
            skill_md.push_str("/SKILL.md");
            let entry = &server.skills.get(skill_md.as_str())?.entry;
            (entry.root() == prefix).then_some(entry)
        })
    }

    /// The innermost skill of the same server whose root encloses the root of the registered
    /// skill `uri`, when `uri` is a nested skill (U10, H31). Nesting is known from the
    /// registered entries only: nothing in a listing marks it.
    pub(crate) fn enclosing_skill(&self, label: &str, uri: &str) -> Option<&Entry> {
        let entry = self.entry(label, uri)?;
        self.innermost_entry(label, entry.root())
    }
}

/// The format characters that show nothing or reorder text: the soft hyphen, the Arabic
/// letter mark, the Mongolian vowel separator, the zero-width characters and marks
/// (U+200B to U+200F), the bidirectional embeddings and overrides (U+202A to U+202E), the
/// word joiner, invisible operators and isolates (U+2060 to U+206F), the byte order mark and
/// the interlinear annotation characters. A label holding one looks like another label.
pub(super) fn is_invisible_format(c: char) -> bool {
    matches!(c,
        '\u{ad}'
        | '\u{61c}'
        | '\u{180e}'
        | '\u{200b}'..='\u{200f}'
        | '\u{202a}'..='\u{202e}'
        | '\u{2060}'..='\u{206f}'
        | '\u{feff}'
        | '\u{fff9}'..='\u{fffb}')
}

/// The per-server display names, in the server's URI order: the name when it is unique in the
/// server, else `name (prefix)` when the colliding skills' prefixes are distinct and
/// non-empty, else `name (root URI)`.
pub(super) fn local_display_names(server: &Server) -> Vec<String> {
    /// The skills of one name, and whether their prefixes tell them apart.
    struct Group<'a> {
        skills: Vec<&'a Entry>,
        by_prefix: bool,
    }
    let mut groups: Map<Group> = Map::new();
    for s in server.skills.values() {
        let group = groups.entry(s.entry.name().to_owned()).or_insert_with(|| {
            Box::new(Group {
                skills: Vec::new(),
                by_prefix: false,
            })
        });
        group.skills.push(&s.entry);
    }
    // Each group of a name shared by several skills is looked at once, with a set.
    for group in groups.values_mut().filter(|g| g.skills.len() > 1) {
        let mut prefixes: Map<()> = Map::new();
        group.by_prefix = group.skills.iter().all(|e| {
            let prefix = prefix_of(e);
            !prefix.is_empty() && prefixes.insert(prefix.to_owned(), Box::new(())).is_none()
        });
    }
    server
        .skills
        .values()
        .map(|s| {
            let e = &s.entry;
            match groups.get(e.name()) {
                Some(g) if g.skills.len() > 1 && g.by_prefix => {
                    format!("{} ({})", e.name(), prefix_of(e))
                }
                Some(g) if g.skills.len() > 1 => format!("{} ({})", e.name(), e.root()),
                _ => e.name().to_owned(),
            }
        })
        .collect()
}

/// The organisational prefix of a skill: its root without the final segment, and without
/// the `skill://` scheme (other schemes are kept, so they stay distinguishable).
pub(super) fn prefix_of(entry: &Entry) -> &str {
    let root = entry.root();
    let path = root.strip_prefix(crate::skill::uri::SCHEME).unwrap_or(root);
    match path.rfind('/') {
        Some(i) => &path[..i],
        None => "",
    }
}
