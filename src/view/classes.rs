//! The views of a caller in a catalog with private skills: the merge of its granted classes'
//! lists (section 20 of the pack, written at build time and read in place), a skill found by
//! its rank in that merge, and the snapshot of what the caller sees. No request filters or
//! hashes the whole catalog, and loading computes nothing per skill.

use super::Catalog;
use crate::access::Grant;
use crate::pack::lists::add_lanes;
use crate::pack::{ClassListRec, Span, Table};

/// The items of several sorted lists of indices, merged in order (each index is in one list);
/// or a plain range of indices (a catalog without private skills).
///
/// ```
/// use skills_edge::catalog::{compile::SourceTree, Catalog, Grant};
/// let mut tree = SourceTree::default();
/// tree.add_file("skills-edge.toml", "[[access]]\nskills = [\"b\"]\nscopes = [\"staff\"]\n");
/// for name in ["a", "b", "c"] {
///     tree.add_file(&format!("{name}/SKILL.md"), format!("---\nname: {name}\ndescription: Skill {name}.\n---\n"));
/// }
/// let catalog = Catalog::compile(tree, None).unwrap();
/// let public: Vec<usize> = catalog.visible_skills(Grant::PUBLIC, 0).collect();
/// assert_eq!(public, [0, 2], "b is private");
/// let staff: Vec<usize> = catalog.visible_skills(catalog.grant(&["staff"]), 1).collect();
/// assert_eq!(staff, [1, 2], "from index 1 on, in URI order");
/// ```
pub struct Merged<'a> {
    heads: Vec<Table<u32>>,
    pack: &'a [u8],
    range: Option<std::ops::Range<usize>>,
}

impl Iterator for Merged<'_> {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        if let Some(r) = &mut self.range {
            return r.next();
        }
        let pack = self.pack;
        let (k, v) = self
            .heads
            .iter()
            .enumerate()
            .filter_map(|(k, h)| Some((k, h.get(pack, 0)?)))
            .min_by_key(|&(_, v)| v)?;
        if let Some(h) = self.heads.get_mut(k) {
            *h = h.slice(1, h.len());
        }
        Some(v as usize)
    }
}

impl Catalog {
    /// The records of section 20 of the classes `grant` holds, public first (none in a
    /// catalog without private skills).
    fn granted_classes(&self, grant: Grant) -> impl Iterator<Item = ClassListRec> + '_ {
        self.t
            .access
            .iter()
            .flat_map(|a| a.lists.iter(self.pack()))
            .enumerate()
            .filter(move |(k, _)| *k == 0 || grant.mask() & (1u64 << (k - 1)) != 0)
            .map(|(_, l)| l)
    }

    /// The lists `which` picks of the classes `grant` holds, public first, read in place.
    pub(super) fn granted(
        &self,
        which: fn(&ClassListRec) -> Span,
        grant: Grant,
    ) -> Vec<Table<u32>> {
        self.granted_classes(grant)
            .map(|l| {
                let s = which(&l);
                Table::new(
                    self.t.heap_start.saturating_add(s.off as usize),
                    s.len as usize / 4,
                )
            })
            .collect()
    }

    /// The merge of the lists `which` picks of the classes `grant` holds.
    pub(super) fn merged(&self, which: fn(&ClassListRec) -> Span, grant: Grant) -> Merged<'_> {
        Merged {
            heads: self.granted(which, grant),
            pack: self.pack(),
            range: None,
        }
    }

    /// The merge of the lists `which` picks of the classes `grant` holds; in a catalog
    /// without private skills, every index below `all`.
    pub(super) fn merged_or_all(
        &self,
        which: fn(&ClassListRec) -> Span,
        grant: Grant,
        all: usize,
    ) -> Merged<'_> {
        if self.t.access.is_none() {
            return Merged {
                heads: Vec::new(),
                pack: self.pack(),
                range: Some(0..all),
            };
        }
        self.merged(which, grant)
    }

    /// The skills a caller with `grant` sees, from index `from` on, in URI order: the merge of
    /// its classes' precomputed lists (a binary search per class, then the items taken). In a
    /// catalog without private skills, every skill from `from` on.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn visible_skills(&self, grant: Grant, from: usize) -> Merged<'_> {
        if self.t.access.is_none() {
            return Merged {
                heads: Vec::new(),
                pack: self.pack(),
                range: Some(from..self.skill_count()),
            };
        }
        let pack = self.pack();
        let heads = self
            .granted(|l| l.skills, grant)
            .into_iter()
            .map(|l| {
                let start = l.partition_point(pack, |&i| (i as usize) < from);
                l.slice(start, l.len())
            })
            .collect();
        Merged {
            heads,
            pack,
            range: None,
        }
    }

    /// How many skills a caller with `grant` sees.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn visible_skill_count(&self, grant: Grant) -> usize {
        match &self.t.access {
            Some(_) => self
                .granted(|l| l.skills, grant)
                .iter()
                .map(|l| l.len())
                .sum(),
            None => self.skill_count(),
        }
    }

    /// The index, in the whole catalog, of the skill at position `rank` (from 0) of the list
    /// a caller with `grant` sees; `None` past its end. With one granted class (an anonymous
    /// caller's), a lookup; with more, a binary search over the catalog's indices, each step
    /// a binary search per granted class, so no list is walked from its start.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn visible_skill_at(&self, grant: Grant, rank: usize) -> Option<usize> {
        if self.t.access.is_none() {
            return (rank < self.skill_count()).then_some(rank);
        }
        let pack = self.pack();
        let lists = self.granted(|l| l.skills, grant);
        if let [only] = lists.as_slice() {
            return only.get(pack, rank).map(|i| i as usize);
        }
        // How many skills the grant sees below catalog index `x`.
        let below = |x: usize| -> usize {
            lists
                .iter()
                .map(|l| l.partition_point(pack, |&i| (i as usize) < x))
                .sum()
        };
        // The first `x` with more than `rank` visible skills below it: the skill at `x - 1`
        // is the one of rank `rank`.
        let (mut lo, mut hi) = (0, self.skill_count() + 1);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if below(mid) > rank {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        lo.checked_sub(1).filter(|_| lo <= self.skill_count())
    }

    /// The strong entity tag (64 lowercase hex digits, unquoted) of
    /// [`Catalog::mirror_index`] `grant`, made without hashing anything per request: the
    /// wrapping sum of the tags of the classes the grant holds, written into the pack
    /// (section 20; the public class's holds the index's fixed parts too). It changes when an
    /// item of that index changes, and depends on nothing the caller does not see (a sum over
    /// its items, as [`Catalog::view_snapshot`]). `None` in a catalog without private skills,
    /// whose one index is hashed once ([`Catalog::mirror_index`]).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn mirror_index_tag_for(&self, grant: Grant) -> Option<String> {
        self.t.access.as_ref()?;
        let sum = self
            .granted_classes(grant)
            .fold([0u64; 4], |acc, l| add_lanes(acc, l.mirror_lanes()));
        let mut hex = String::with_capacity(64);
        for lane in sum {
            hex.push_str(&format!("{lane:016x}"));
        }
        Some(hex)
    }

    /// The snapshot of what a caller with `grant` sees: a value that changes when anything
    /// it sees changes, and only then. In a catalog with private skills, the wrapping sum of
    /// the snapshots of the classes it holds, which is the sum over the skills it sees of each
    /// skill's own snapshot (summed per class when the pack was written), so it depends on
    /// nothing the caller does not see: not on how many classes there are, how they are
    /// numbered, or which other scopes also see its skills. In a catalog without private
    /// skills, [`Catalog::snapshot`]. Costs the number of private classes.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn view_snapshot(&self, grant: Grant) -> u32 {
        if self.t.access.is_none() {
            return self.snapshot();
        }
        self.granted_classes(grant)
            .fold(0u32, |acc, l| acc.wrapping_add(l.snapshot))
    }
}

#[cfg(test)]
mod tests {
    use crate::compile::SourceTree;
    use crate::{access::Grant, view::Catalog};

    /// Skills `s0`…`s9`; `hidden` of them private, each listed with its scope.
    fn catalog(hidden: &[(&str, &str)]) -> Catalog {
        let mut t = SourceTree::default();
        let mut rules = String::new();
        for i in 0..10 {
            let name = format!("s{i}");
            t.add_file(
                &format!("{name}/SKILL.md"),
                format!("---\nname: {name}\ndescription: Skill {i}.\n---\n# {name}\n"),
            );
        }
        for (skill, scope) in hidden {
            rules.push_str(&format!(
                "[[access]]\nskills = [\"{skill}\"]\nscopes = [\"{scope}\"]\n"
            ));
        }
        t.add_file("skills-edge.toml", rules);
        Catalog::compile(t, None).expect("compiles")
    }

    #[test]
    fn the_skill_at_a_rank_is_that_item_of_the_merged_list() {
        let c = catalog(&[
            ("s1", "a"),
            ("s2", "b"),
            ("s5", "a"),
            ("s6", "c"),
            ("s9", "b"),
        ]);
        for mask in 0..8u64 {
            let g = Grant::from_mask(mask);
            let all: Vec<usize> = c.visible_skills(g, 0).collect();
            assert_eq!(all.len(), c.visible_skill_count(g));
            for (rank, &i) in all.iter().enumerate() {
                assert_eq!(
                    c.visible_skill_at(g, rank),
                    Some(i),
                    "mask {mask} rank {rank}"
                );
            }
            assert_eq!(c.visible_skill_at(g, all.len()), None);
            assert_eq!(c.visible_skill_at(g, usize::MAX), None);
        }
    }

    /// The entity tag of a caller's mirror index, precomputed per class: equal for equal
    /// indexes (whatever is hidden from the caller, and however it is split into classes),
    /// different for different ones.
    #[test]
    fn a_mirror_index_tag_follows_the_index_the_caller_sees_only() {
        let few = catalog(&[("s1", "x"), ("s3", "billing"), ("s7", "x")]);
        let many = catalog(&[("s1", "audit"), ("s3", "billing"), ("s7", "ops")]);
        let (gf, gm) = (few.grant(&["billing"]), many.grant(&["billing"]));
        assert_eq!(few.mirror_index(gf), many.mirror_index(gm));
        assert_eq!(few.mirror_index_tag_for(gf), many.mirror_index_tag_for(gm));
        let mut seen: Vec<(String, String)> = Vec::new();
        for mask in 0..8u64 {
            let g = Grant::from_mask(mask);
            let index = many.mirror_index(g).into_owned();
            let tag = many
                .mirror_index_tag_for(g)
                .expect("a catalog with private skills");
            assert_eq!(tag.len(), 64);
            for (i, t) in &seen {
                assert_eq!(i == &index, t == &tag, "mask {mask}");
            }
            seen.push((index, tag));
        }
        let public = catalog(&[]);
        assert_eq!(public.mirror_index_tag_for(Grant::PUBLIC), None);
    }

    #[test]
    fn a_view_snapshot_changes_with_what_the_caller_sees_only() {
        let few = catalog(&[("s3", "billing")]);
        let many = catalog(&[("s1", "audit"), ("s3", "billing"), ("s7", "ops")]);
        // The public view is the same when s1 and s7 are private in both, whoever sees them.
        let few_public = catalog(&[("s1", "x"), ("s3", "billing"), ("s7", "x")]);
        assert_eq!(
            few_public.view_snapshot(Grant::PUBLIC),
            many.view_snapshot(Grant::PUBLIC)
        );
        assert_ne!(
            few.view_snapshot(Grant::PUBLIC),
            many.view_snapshot(Grant::PUBLIC),
            "s1 and s7 are public in one of them"
        );
        // Billing's class is 1 in one catalog and 2 in the other: the same view, the same
        // snapshot.
        let (gb_few, gb_many) = (few_public.grant(&["billing"]), many.grant(&["billing"]));
        assert_ne!(gb_few, gb_many);
        assert_eq!(
            few_public.view_snapshot(gb_few),
            many.view_snapshot(gb_many)
        );
        assert_ne!(
            many.view_snapshot(gb_many),
            many.view_snapshot(Grant::PUBLIC)
        );
    }

    #[test]
    fn a_scoped_caller_cannot_tell_which_other_scopes_share_its_skills() {
        // Billing sees every skill in both; in the second s2 is also granted to ops, so
        // billing's private skills are one class in the first and two in the second.
        let alone = catalog(&[("s1", "billing"), ("s2", "billing")]);
        let shared = catalog(&[("s1", "billing"), ("s2", "billing"), ("s2", "ops")]);
        let (ga, gs) = (alone.grant(&["billing"]), shared.grant(&["billing"]));
        let seen = |c: &Catalog, g| c.visible_skills(g, 0).collect::<Vec<_>>();
        assert_eq!(seen(&alone, ga), seen(&shared, gs));
        assert_eq!(alone.view_snapshot(ga), shared.view_snapshot(gs));
        assert_eq!(
            alone.view_snapshot(Grant::PUBLIC),
            shared.view_snapshot(Grant::PUBLIC)
        );
    }
}
