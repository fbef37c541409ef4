//! Who may see what ([`crate::access`]): a catalog's classes and grants, and the replies
//! assembled per caller from the fragments of the skills it sees.

use std::borrow::Cow;
use std::sync::OnceLock;

use super::Catalog;
use crate::access::{Audience, Grant};
use crate::compile;

impl Catalog {
    /// Whether any skill is private (the pack has access rules).
    pub fn has_private(&self) -> bool {
        self.t.access.is_some()
    }

    /// The number of private audience classes.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn class_count(&self) -> usize {
        self.t.access.as_ref().map_or(0, |a| a.classes.len())
    }

    /// The scopes of private class `class` (1-based); empty for class 0 (public) or one the
    /// catalog does not have.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn class_scopes(&self, class: u32) -> Vec<&str> {
        let Some(a) = &self.t.access else {
            return Vec::new();
        };
        match class
            .checked_sub(1)
            .and_then(|k| a.classes.get(self.pack(), k as usize))
        {
            Some(span) => self.s(span).split(' ').collect(),
            None => Vec::new(),
        }
    }

    /// Every scope the access rules name, sorted, each once: what a token may carry to see
    /// more than the public skills (the Protected Resource Metadata's `scopes_supported`).
    /// Empty in a catalog without private skills.
    pub fn access_scopes(&self) -> Vec<&str> {
        let mut all: Vec<&str> = (1..=self.class_count() as u32)
            .flat_map(|k| self.class_scopes(k))
            .collect();
        all.sort_unstable();
        all.dedup();
        all
    }

    /// The grant of a caller holding `scopes`: every private class whose scopes include one
    /// of them ("either rule's scopes": a class is the union of the scopes of the rules
    /// naming its skills, and any one of them grants sight). Costs classes × scopes; no work
    /// per skill. [`Grant::PUBLIC`] in a catalog without private skills.
    pub fn grant<S: AsRef<str>>(&self, scopes: &[S]) -> Grant {
        let Some(a) = &self.t.access else {
            return Grant::PUBLIC;
        };
        let mut mask = 0u64;
        for (k, span) in a.classes.iter(self.pack()).enumerate() {
            let held = self
                .s(span)
                .split(' ')
                .any(|c| scopes.iter().any(|s| s.as_ref() == c));
            if held {
                mask |= 1u64 << k;
            }
        }
        Grant::from_mask(mask)
    }

    /// The audience class of skill `i` (0 public).
    pub(crate) fn skill_class(&self, i: usize) -> u32 {
        self.t
            .access
            .as_ref()
            .and_then(|a| a.skills.get(self.pack(), i))
            .unwrap_or(0)
    }

    /// Whether a caller with `grant` sees skill `i`.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn skill_visible(&self, i: usize, grant: Grant) -> bool {
        grant.sees(Audience::of_class(self.skill_class(i)))
    }

    /// [`Catalog::skill_visible`] for one caller, the table of audiences found once: the
    /// check the search makes for every posting it reads.
    pub(crate) fn skill_visibility(&self, grant: Grant) -> impl Fn(usize) -> bool + '_ {
        let access = self.t.access.as_ref();
        let classes = access.and_then(|a| a.skills.bytes(self.pack()));
        move |i| match classes {
            // No access rules: every skill is public.
            _ if access.is_none() => true,
            Some(words) => {
                let class = i
                    .checked_mul(4)
                    .and_then(|at| words.get(at..at.checked_add(4)?))
                    .map_or(0, |w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]));
                grant.sees(Audience::of_class(class))
            }
            None => self.skill_visible(i, grant),
        }
    }

    /// Whether a caller with `grant` sees file `i` (its skill's audience).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn file_visible(&self, i: usize, grant: Grant) -> bool {
        let class = self
            .t
            .access
            .as_ref()
            .and_then(|a| a.files.get(self.pack(), i))
            .unwrap_or(0);
        grant.sees(Audience::of_class(class))
    }

    /// The index (in URI order) of the file whose URI is exactly `uri`.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn file_index(&self, uri: &str) -> Option<usize> {
        self.find(&self.t.files, uri)
    }

    /// The default instructions assembled from the skills a caller with `grant` sees; `None`
    /// when they are the same for everybody (a catalog without private skills, or
    /// instructions given when it was packed). For [`Grant::PUBLIC`] they equal the pack's
    /// own, which [`Catalog::instructions`] answers without assembling.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn assembled_instructions(&self, grant: Grant) -> Option<String> {
        let a = self.t.access.as_ref()?;
        if !a.heads.default_instructions {
            return None;
        }
        let mut s = self.s(a.heads.instructions_head).to_owned();
        let count = self.visible_skill_count(grant);
        if count > 0 {
            s.push_str(compile::INSTRUCTIONS_SKILLS);
            for i in self
                .visible_skills(grant, 0)
                .take(compile::INSTRUCTIONS_NAMED)
            {
                if let Some(line) = a.lines.get(self.pack(), i) {
                    s.push_str(self.s(line));
                }
            }
            if count > compile::INSTRUCTIONS_NAMED {
                s.push_str(&compile::instructions_more(
                    count - compile::INSTRUCTIONS_NAMED,
                ));
            }
        }
        Some(s)
    }

    /// The mirror's `index.json` for a caller with `grant`, assembled.
    pub(super) fn assemble_mirror_index(&self, grant: Grant) -> String {
        let mut s = self.s(self.t.mirror_prefix).to_owned();
        let mut first = true;
        for m in self.merged_or_all(|l| l.mirror, grant, self.t.mirror.len()) {
            let Some(item) = self
                .t
                .mirror
                .get(self.pack(), m)
                .and_then(|r| self.t.mirror_items.get(self.pack(), r.skill as usize))
                .map(|s| super::spliced(self.heap(), s))
            else {
                continue;
            };
            if item.is_empty() {
                continue;
            }
            if !first {
                s.push(',');
            }
            first = false;
            let _ = item.push_to(&mut s);
        }
        s.push_str(compile::mirror::MIRROR_SUFFIX);
        s
    }

    /// The index (in URI order) of the skill the mirror publishes under `name`.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn mirrored_index(&self, name: &str) -> Option<usize> {
        Some(self.mirror_rec(name)?.skill as usize)
    }

    /// The `prompts` array of `prompts/list` for a caller with `grant`; `None` in a catalog
    /// without the fallback. The anonymous caller's ([`Grant::PUBLIC`]) is assembled on
    /// first use, then kept; another caller's is assembled per call.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn prompts_json(&self, grant: Grant) -> Option<Cow<'_, str>> {
        self.fallback_reply(grant, &self.cache.prompts, Catalog::assemble_prompts_json)
    }

    /// A catalog-wide reply of the fallback for a caller with `grant`: the anonymous caller's
    /// kept in `kept` once assembled, another caller's assembled per call; `None` in a
    /// catalog without the fallback.
    fn fallback_reply<'c>(
        &'c self,
        grant: Grant,
        kept: &'c OnceLock<String>,
        assemble: fn(&Catalog, Grant) -> Option<String>,
    ) -> Option<Cow<'c, str>> {
        if grant.is_public() {
            self.t.fallback.as_ref()?;
            let json = kept.get_or_init(|| assemble(self, Grant::PUBLIC).unwrap_or_default());
            return Some(Cow::Borrowed(json));
        }
        assemble(self, grant).map(Cow::Owned)
    }

    /// The `prompts` array for a caller with `grant`, assembled.
    fn assemble_prompts_json(&self, grant: Grant) -> Option<String> {
        let f = self.t.fallback.as_ref()?;
        let mut s = String::from("[");
        let all = f.prompts_by_name.len();
        for (n, p) in self.merged_or_all(|l| l.prompts, grant, all).enumerate() {
            if n > 0 {
                s.push(',');
            }
            if let Some(item) = f
                .prompts_by_name
                .get(self.pack(), p)
                .and_then(|r| f.prompt_items.get(self.pack(), r.skill as usize))
            {
                let _ = super::spliced(self.heap(), item).push_to(&mut s);
            }
        }
        s.push(']');
        Some(s)
    }

    /// The members of the `list_skills` result for a caller with `grant`, a JSON object
    /// (`{"content":[…],"structuredContent":{…}}`); `None` in a catalog without the
    /// fallback. The anonymous caller's ([`Grant::PUBLIC`]) is assembled on first use, then
    /// kept; another caller's is assembled per call.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn list_skills_json(&self, grant: Grant) -> Option<Cow<'_, str>> {
        self.fallback_reply(
            grant,
            &self.cache.list_skills,
            Catalog::assemble_list_skills_json,
        )
    }

    /// The members of the `list_skills` result for a caller with `grant`, assembled.
    fn assemble_list_skills_json(&self, grant: Grant) -> Option<String> {
        let f = self.t.fallback.as_ref()?;
        let mut structured = String::from("{\"skills\":[");
        for (n, i) in self.visible_skills(grant, 0).enumerate() {
            if n > 0 {
                structured.push(',');
            }
            if let Some(item) = f.list_items.get(self.pack(), i) {
                let _ = super::spliced(self.heap(), item).push_to(&mut structured);
            }
        }
        structured.push_str("]}");
        let mut s = String::with_capacity(structured.len() * 2 + 64);
        s.push_str("{\"content\":[{\"type\":\"text\",\"text\":");
        crate::skill::value::write_json_string(&structured, &mut s);
        s.push_str("}],\"structuredContent\":");
        s.push_str(&structured);
        s.push('}');
        Some(s)
    }
}
