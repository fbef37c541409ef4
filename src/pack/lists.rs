//! What each audience class of a catalog with access rules sees (section 20): computed once,
//! when the pack is written, so that loading a pack reads them in place instead of walking
//! the catalog; the checked reader computes them again and compares.

use crate::skill::digest::Sha256Stream;

/// What one audience class sees: sorted indices and its snapshot.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct ClassList {
    /// Skill indices (URI order).
    pub(super) skills: Vec<u32>,
    /// Mirror record indices (name order).
    pub(super) mirror: Vec<u32>,
    /// Indices into the fallback's prompts by name (name order).
    pub(super) prompts: Vec<u32>,
    /// The wrapping sum, over its skills, of [`skill_snapshot`]. A sum over skills, so the
    /// sum of a caller's classes is the sum over the skills it sees, whatever way they are
    /// split into classes: it depends on those skills only (not on a class's number, nor on
    /// which other scopes also see them, nor on any other skill).
    pub(super) snapshot: u32,
    /// The entity tag of its part of the mirror index: the wrapping sum, in four 64-bit lanes,
    /// of the SHA-256 of each index item of its mirror records (the public class's also holds
    /// the index's fixed parts, [`mirror_base`]). Like the snapshot, a sum over what a caller
    /// sees, so the tag of a caller's index depends on those items only.
    pub(super) mirror_tag: [u64; 4],
}

/// A SHA-256 digest of `bytes` as four 64-bit lanes (big-endian), to be summed; an empty
/// item (one the index leaves out) counts as zero.
pub(crate) fn lanes_of(bytes: &[u8]) -> [u64; 4] {
    if bytes.is_empty() {
        return [0; 4];
    }
    let mut h = Sha256Stream::new();
    h.update(bytes);
    let d = h.finish();
    let mut out = [0u64; 4];
    for (lane, chunk) in out.iter_mut().zip(d.chunks_exact(8)) {
        let mut b = [0u8; 8];
        b.copy_from_slice(chunk);
        *lane = u64::from_be_bytes(b);
    }
    out
}

/// `a + b`, lane by lane, wrapping.
pub(crate) fn add_lanes(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
    [
        a[0].wrapping_add(b[0]),
        a[1].wrapping_add(b[1]),
        a[2].wrapping_add(b[2]),
        a[3].wrapping_add(b[3]),
    ]
}

/// `lists` with the tag of the mirror index's fixed parts (its prefix, before the first skill,
/// then its suffix) added to the public class's (index 0), which every caller holds.
pub(super) fn with_mirror_base(mut lists: Vec<ClassList>, prefix: &[u8]) -> Vec<ClassList> {
    let mut fixed = prefix.to_vec();
    fixed.extend_from_slice(crate::compile::mirror::MIRROR_SUFFIX.as_bytes());
    if let Some(public) = lists.first_mut() {
        public.mirror_tag = add_lanes(public.mirror_tag, lanes_of(&fixed));
    }
    lists
}

/// The snapshot of one skill: the first four bytes of the SHA-256 of its URI, entry and
/// `resources/list` item, each preceded by its length.
pub(crate) fn skill_snapshot(uri: &[u8], entry: &[u8], list_item: &[u8]) -> u32 {
    let mut h = Sha256Stream::new();
    for bytes in [uri, entry, list_item] {
        h.update(&(bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    }
    let d = h.finish();
    u32::from_le_bytes([d[0], d[1], d[2], d[3]])
}

/// The lists of `n_classes` private classes and the public one (index 0): `class_of` gives
/// each skill's class, `mirror_skills` and `prompt_skills` the skill of each mirror record
/// and of each prompt (in their tables' order), `snapshot_of` each skill's snapshot,
/// `mirror_item_of` the tag of the mirror index item of each skill (the caller adds the tag of
/// the index's fixed parts, [`mirror_base`], to the public class's). A class number out of range puts the item nowhere (the checked
/// reader refuses such a pack before).
pub(super) fn class_lists(
    n_classes: usize,
    n_skills: usize,
    class_of: impl Fn(usize) -> usize,
    mirror_skills: impl Iterator<Item = u32>,
    prompt_skills: impl Iterator<Item = u32>,
    snapshot_of: impl Fn(usize) -> u32,
    mirror_item_of: impl Fn(usize) -> [u64; 4],
) -> Vec<ClassList> {
    let mut lists = vec![ClassList::default(); n_classes + 1];
    for i in 0..n_skills {
        if let Some(l) = lists.get_mut(class_of(i)) {
            l.skills.push(i as u32);
            l.snapshot = l.snapshot.wrapping_add(snapshot_of(i));
        }
    }
    for (m, skill) in mirror_skills.enumerate() {
        if let Some(l) = lists.get_mut(class_of(skill as usize)) {
            l.mirror.push(m as u32);
            l.mirror_tag = add_lanes(l.mirror_tag, mirror_item_of(skill as usize));
        }
    }
    for (p, skill) in prompt_skills.enumerate() {
        if let Some(l) = lists.get_mut(class_of(skill as usize)) {
            l.prompts.push(p as u32);
        }
    }
    lists
}
