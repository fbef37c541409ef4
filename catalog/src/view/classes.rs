//! What a catalog with private skills precomputes per audience class when it loads, and the
//! views of a caller made from it: the merge of its granted classes' lists, a skill found by
//! its rank in that merge, and the snapshot of what the caller sees. No request filters or
//! hashes the whole catalog.

use super::{bytes_at, Catalog};
use crate::access::Grant;
use crate::pack::Tables;
use crate::skill::digest::Sha256Stream;

/// The lists the catalog precomputes per audience class when it loads (index 0 public, `k`
/// private class `k`): a caller's view of a list is the merge of its granted classes' lists,
/// so no request filters the whole catalog.
pub(super) struct ClassLists {
    /// Skill indices (URI order).
    pub(super) skills: Vec<Vec<u32>>,
    /// Mirror record indices (name order).
    pub(super) mirror: Vec<Vec<u32>>,
    /// Indices into the fallback's prompts by name (name order).
    pub(super) prompts: Vec<Vec<u32>>,
    /// The snapshot of each class: the wrapping sum, over its skills, of the first four bytes
    /// of the SHA-256 of each skill's URI, entry and list item. A sum over skills, so the sum
    /// of a caller's classes is the sum over the skills it sees, whatever way they are split
    /// into classes: it depends on those skills only (not on a class's number, nor on which
    /// other scopes also see them, nor on any other skill).
    snapshots: Vec<u32>,
    /// The mirror index's entity tag per class: the wrapping sum, in four 64-bit lanes, of the
    /// SHA-256 of each index item of its mirror records. Like the snapshots, a sum over what a
    /// caller sees, so the tag of a caller's index depends on those items only.
    mirror_tags: Vec<[u64; 4]>,
    /// The SHA-256 of the mirror index's fixed parts (its prefix, then its suffix), in lanes.
    mirror_base: [u64; 4],
}

/// A SHA-256 digest as four 64-bit lanes (big-endian), to be summed.
fn lanes(d: [u8; 32]) -> [u64; 4] {
    let mut out = [0u64; 4];
    for (lane, chunk) in out.iter_mut().zip(d.chunks_exact(8)) {
        let mut b = [0u8; 8];
        b.copy_from_slice(chunk);
        *lane = u64::from_be_bytes(b);
    }
    out
}

/// `a + b`, lane by lane, wrapping.
fn add_lanes(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
    [
        a[0].wrapping_add(b[0]),
        a[1].wrapping_add(b[1]),
        a[2].wrapping_add(b[2]),
        a[3].wrapping_add(b[3]),
    ]
}

/// The items of several sorted lists of indices, merged in order (each index is in one list);
/// or a plain range of indices (a catalog without private skills).
pub struct Merged<'a> {
    pub(super) heads: Vec<&'a [u32]>,
    pub(super) range: Option<std::ops::Range<usize>>,
}

impl Iterator for Merged<'_> {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        if let Some(r) = &mut self.range {
            return r.next();
        }
        let (k, v) = self
            .heads
            .iter()
            .enumerate()
            .filter_map(|(k, h)| Some((k, *h.first()?)))
            .min_by_key(|&(_, v)| v)?;
        if let Some(h) = self.heads.get_mut(k) {
            *h = h.get(1..).unwrap_or(&[]);
        }
        Some(v as usize)
    }
}

/// The per-class lists and snapshots of a pack with access rules (`None` without); `heap`
/// is the pack's heap. Costs one pass over the skills, mirror records and prompts, and one
/// hash of every skill's entry and list item.
pub(super) fn class_lists(t: &Tables, heap: &[u8]) -> Option<ClassLists> {
    let a = t.access.as_ref()?;
    let n = a.classes.len() + 1;
    let class_of = |skill: usize| a.skills.get(skill).copied().unwrap_or(0) as usize;
    let mut skills = vec![Vec::new(); n];
    for i in 0..t.skills.len() {
        if let Some(l) = skills.get_mut(class_of(i)) {
            l.push(i as u32);
        }
    }
    let mut mirror = vec![Vec::new(); n];
    for (m, r) in t.mirror.iter().enumerate() {
        if let Some(l) = mirror.get_mut(class_of(r.skill as usize)) {
            l.push(m as u32);
        }
    }
    let mut prompts = vec![Vec::new(); n];
    for (p, r) in t
        .fallback
        .iter()
        .flat_map(|f| f.prompts_by_name.iter().enumerate())
    {
        if let Some(l) = prompts.get_mut(class_of(r.skill as usize)) {
            l.push(p as u32);
        }
    }
    let skill_snapshot = |i: u32| {
        let mut h = Sha256Stream::new();
        if let Some(r) = t.skills.get(i as usize) {
            for span in [r.uri, r.entry, r.list_item] {
                let bytes = bytes_at(heap, span);
                h.update(&(bytes.len() as u64).to_le_bytes());
                h.update(bytes);
            }
        }
        let d = h.finish();
        u32::from_le_bytes([d[0], d[1], d[2], d[3]])
    };
    let snapshots = skills
        .iter()
        .map(|list| {
            list.iter()
                .fold(0u32, |acc, &i| acc.wrapping_add(skill_snapshot(i)))
        })
        .collect();
    let item_tag = |m: u32| {
        let item = t
            .mirror
            .get(m as usize)
            .and_then(|r| a.fragments.get(r.skill as usize))
            .map_or(&[][..], |f| bytes_at(heap, f.mirror_item));
        // The index leaves an empty item out.
        if item.is_empty() {
            return [0u64; 4];
        }
        let mut h = Sha256Stream::new();
        h.update(item);
        lanes(h.finish())
    };
    let mirror_tags = mirror
        .iter()
        .map(|list| {
            list.iter()
                .fold([0u64; 4], |acc, &m| add_lanes(acc, item_tag(m)))
        })
        .collect();
    let mut base = Sha256Stream::new();
    base.update(bytes_at(heap, a.heads.mirror_prefix));
    base.update(crate::compile::mirror::MIRROR_SUFFIX.as_bytes());
    Some(ClassLists {
        skills,
        mirror,
        prompts,
        snapshots,
        mirror_tags,
        mirror_base: lanes(base.finish()),
    })
}

impl Catalog {
    /// The lists of the classes `grant` holds, public first.
    pub(super) fn granted<'a>(&'a self, lists: &'a [Vec<u32>], grant: Grant) -> Vec<&'a [u32]> {
        lists
            .iter()
            .enumerate()
            .filter(|(k, _)| *k == 0 || grant.mask() & (1u64 << (k - 1)) != 0)
            .map(|(_, l)| l.as_slice())
            .collect()
    }

    /// The skills a caller with `grant` sees, from index `from` on, in URI order: the merge of
    /// its classes' precomputed lists (a binary search per class, then the items taken). In a
    /// catalog without private skills, every skill from `from` on.
    pub fn visible_skills(&self, grant: Grant, from: usize) -> Merged<'_> {
        let Some(ix) = &self.ix else {
            return Merged {
                heads: Vec::new(),
                range: Some(from..self.skill_count()),
            };
        };
        let heads = self
            .granted(&ix.skills, grant)
            .into_iter()
            .map(|l| &l[l.partition_point(|&i| (i as usize) < from)..])
            .collect();
        Merged { heads, range: None }
    }

    /// How many skills a caller with `grant` sees.
    pub fn visible_skill_count(&self, grant: Grant) -> usize {
        match &self.ix {
            Some(ix) => self
                .granted(&ix.skills, grant)
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
    pub fn visible_skill_at(&self, grant: Grant, rank: usize) -> Option<usize> {
        let Some(ix) = &self.ix else {
            return (rank < self.skill_count()).then_some(rank);
        };
        let lists = self.granted(&ix.skills, grant);
        if let [only] = lists.as_slice() {
            return only.get(rank).map(|&i| i as usize);
        }
        // How many skills the grant sees below catalog index `x`.
        let below = |x: usize| -> usize {
            lists
                .iter()
                .map(|l| l.partition_point(|&i| (i as usize) < x))
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
    /// [`Catalog::mirror_index_for`] `grant`, made without hashing anything per request: the
    /// wrapping sum of the precomputed tags of the classes the grant holds and of the
    /// index's fixed parts. It changes when an item of that index changes, and depends on
    /// nothing the caller does not see (a sum over its items, as [`Catalog::view_snapshot`]).
    /// `None` in a catalog without private skills, whose one index is hashed once
    /// ([`Catalog::mirror_index`]).
    pub fn mirror_index_tag_for(&self, grant: Grant) -> Option<String> {
        let ix = self.ix.as_ref()?;
        let sum = ix
            .mirror_tags
            .iter()
            .enumerate()
            .filter(|(k, _)| *k == 0 || grant.mask() & (1u64 << (k - 1)) != 0)
            .fold(ix.mirror_base, |acc, (_, t)| add_lanes(acc, *t));
        let mut hex = String::with_capacity(64);
        for lane in sum {
            hex.push_str(&format!("{lane:016x}"));
        }
        Some(hex)
    }

    /// The snapshot of what a caller with `grant` sees: a value that changes when anything
    /// it sees changes, and only then. In a catalog with private skills, the wrapping sum of
    /// the snapshots of the classes it holds, which is the sum over the skills it sees of each
    /// skill's own snapshot (computed when the catalog loads), so it depends on nothing the
    /// caller does not see: not on how many classes there are, how they are numbered, or
    /// which other scopes also see its skills. In a catalog without private skills,
    /// [`Catalog::snapshot`]. Costs the number of private classes.
    pub fn view_snapshot(&self, grant: Grant) -> u32 {
        let Some(ix) = &self.ix else {
            return self.snapshot();
        };
        ix.snapshots
            .iter()
            .enumerate()
            .filter(|(k, _)| *k == 0 || grant.mask() & (1u64 << (k - 1)) != 0)
            .fold(0u32, |acc, (_, s)| acc.wrapping_add(*s))
    }
}

#[cfg(test)]
mod tests {
    use crate::compile::SourceTree;
    use crate::{Catalog, Grant};

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
        assert_eq!(few.mirror_index_for(gf), many.mirror_index_for(gm));
        assert_eq!(few.mirror_index_tag_for(gf), many.mirror_index_tag_for(gm));
        let mut seen: Vec<(String, String)> = Vec::new();
        for mask in 0..8u64 {
            let g = Grant::from_mask(mask);
            let index = many.mirror_index_for(g).into_owned();
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
