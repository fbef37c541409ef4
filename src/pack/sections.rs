//! The reader of the optional sections: the fallback, the signatures, the access rules. Each
//! is all there or not at all. Opening a pack reads where each table lies and checks that it
//! fits (work per section, none per skill); the full check ([`super::Check::Full`]) then
//! reads every record once.

use super::check::{sorted, strict_json, HeapCheck};
use super::format::*;
use super::record::Table;
use super::tables::*;
use super::PackError;

/// Where the fallback sections lie: all or none, each table of the expected length.
pub(super) fn fallback(
    found: &[Option<Span>; 7],
    heap: HeapCheck<'_>,
    n_skills: usize,
) -> Result<Option<FallbackTables>, PackError> {
    if found.iter().all(Option::is_none) {
        return Ok(None);
    }
    let [Some(tools), Some(prompts), Some(list_skills), Some(instr), Some(per_skill), Some(prompt_index), Some(name_index)] =
        *found
    else {
        return Err(PackError::inconsistent(
            "the fallback sections are incomplete (a pack has all of them or none)",
        ));
    };
    let FallbackInstructionsRec(instructions) = heap.one(instr, "fallback instructions")?;
    Ok(Some(FallbackTables {
        tools,
        prompt_items: heap.table(prompts, Some(n_skills), "fallback prompt item")?,
        list_items: heap.table(list_skills, Some(n_skills), "list_skills item")?,
        instructions,
        skills: heap.table(per_skill, Some(n_skills), "fallback skill")?,
        prompts_by_name: heap.table(prompt_index, Some(n_skills), "fallback prompt index")?,
        skills_by_name: heap.table(name_index, Some(n_skills), "fallback name index")?,
    }))
}

/// Checks the fallback's contents: JSON where JSON is due, names sorted and unique, skill
/// indices inside the skills table.
pub(super) fn check_fallback(
    f: &FallbackTables,
    heap: HeapCheck<'_>,
    skill_names: &[&str],
) -> Result<(), PackError> {
    let n_skills = skill_names.len();
    let json = |s, what, open| heap.json_kind(s, what, open);
    json(f.tools, "fallback tools", b'[')?;
    for s in f.instructions {
        heap.text(s, "fallback instructions")?;
    }
    let spliced = |s, what: &str, open: u8| -> Result<(), PackError> {
        let text = heap.spliced(s, what)?;
        if text.as_bytes().first() != Some(&open) {
            return Err(PackError::inconsistent(format!(
                "{what} is not a JSON {}",
                kind(open)
            )));
        }
        strict_json(&text, what)
    };
    for s in f.prompt_items.iter(heap.pack) {
        spliced(s, "prompt item", b'{')?;
    }
    for s in f.list_items.iter(heap.pack) {
        spliced(s, "list_skills item", b'{')?;
    }
    for r in f.skills.iter(heap.pack) {
        json(r.description, "fallback skill description", b'"')?;
        spliced(r.links, "fallback prompt links", b'[')?;
        spliced(
            r.read_structured,
            "fallback read_skill structured content",
            b'{',
        )?;
    }
    let mut prev = None;
    for p in f.prompts_by_name.iter(heap.pack) {
        let name = heap.text(p.name, "prompt name")?;
        sorted(&mut prev, name, "prompt names")?;
        if p.skill as usize >= n_skills {
            return Err(PackError::inconsistent(format!(
                "the prompt {name} names a skill outside the skills table"
            )));
        }
    }
    let mut prev: Option<&str> = None;
    for i in f.skills_by_name.iter(heap.pack) {
        let Some(name) = skill_names.get(i as usize) else {
            return Err(PackError::inconsistent(
                "the fallback name index names a skill outside the skills table",
            ));
        };
        if prev.is_some_and(|p| p > *name) {
            return Err(PackError::inconsistent(format!(
                "the fallback name index is not sorted at {name}"
            )));
        }
        prev = Some(name);
    }
    Ok(())
}

/// Where the signature sections (10 and 11) lie: both or neither, one signature per skill.
pub(super) fn signatures(
    signatures: Option<Span>,
    keys: Option<Span>,
    heap: HeapCheck<'_>,
    n_skills: usize,
) -> Result<Option<SignatureTables>, PackError> {
    match (signatures, keys) {
        (Some(table), Some(keys)) => Ok(Some(SignatureTables {
            skills: heap.table(table, Some(n_skills), "signature")?,
            keys,
        })),
        (None, None) => Ok(None),
        _ => Err(PackError::inconsistent(
            "a signed pack has both signature sections (10 and 11), but this one has only one",
        )),
    }
}

/// Checks the signatures: each envelope a JSON object with its digest, and `keys.json` a
/// JSON object.
pub(super) fn check_signatures(s: &SignatureTables, heap: HeapCheck<'_>) -> Result<(), PackError> {
    for (i, r) in s.skills.iter(heap.pack).enumerate() {
        heap.json_kind(r.envelope, &format!("the envelope of skill {i}"), b'{')?;
        heap.digest(r.digest, "envelope digest")?;
    }
    heap.json_kind(s.keys, "keys.json", b'{')
}

/// The lengths of the tables the access sections describe, one record per item.
#[derive(Debug, Clone, Copy)]
pub(super) struct Shape {
    pub(super) files: usize,
    pub(super) skills: usize,
    pub(super) dirs: usize,
    pub(super) children: usize,
}

/// Where the access sections (12 to 18, and 20) lie: all or none, each table of the
/// expected length, 1 to 64 private classes.
pub(super) fn access(
    found: &[Option<Span>; 8],
    heap: HeapCheck<'_>,
    n: Shape,
) -> Result<Option<AccessTables>, PackError> {
    let [Some(cl), Some(sk), Some(fi), Some(di), Some(ch), Some(fr), Some(he), Some(li)] = *found
    else {
        if found.iter().all(Option::is_none) {
            return Ok(None);
        }
        return Err(PackError::inconsistent(
            "a pack with access rules has all of its access sections (12 to 18 and 20), but this one lacks some",
        ));
    };
    let classes: Table<Span> = heap.table(cl, None, "access class")?;
    if classes.len() == 0 || classes.len() > crate::access::MAX_PRIVATE_CLASSES {
        return Err(PackError::inconsistent(format!(
            "the pack has {} private audience classes; a pack with access rules has 1 to {}",
            classes.len(),
            crate::access::MAX_PRIVATE_CLASSES
        )));
    }
    Ok(Some(AccessTables {
        classes,
        skills: heap.table(sk, Some(n.skills), "skill class")?,
        files: heap.table(fi, Some(n.files), "file class")?,
        dirs: heap.table(di, Some(n.dirs), "directory audience")?,
        children: heap.table(ch, Some(n.children), "child audience")?,
        lines: heap.table(fr, Some(n.skills), "instructions line")?,
        heads: heap.one(he, "access heads")?,
        lists: heap.table(li, Some(classes.len() + 1), "access list")?,
    }))
}

/// Checks the access sections' contents: classes of scope tokens, every class named by a
/// skill, file or directory among them, fragments as JSON.
pub(super) fn check_access(a: &AccessTables, heap: HeapCheck<'_>) -> Result<(), PackError> {
    let pack = heap.pack;
    for c in a.classes.iter(pack) {
        let scopes = heap.text(c, "access class scopes")?;
        if !scopes.split(' ').all(crate::access::is_scope_token) {
            return Err(PackError::inconsistent(format!(
                "the access class {scopes:?} is not a list of scope tokens"
            )));
        }
    }
    let n = a.classes.len();
    if !a
        .skills
        .iter(pack)
        .chain(a.files.iter(pack))
        .all(|c| c as usize <= n)
    {
        return Err(PackError::inconsistent(
            "a skill or file names an audience class the pack does not have",
        ));
    }
    let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    if !a
        .dirs
        .iter(pack)
        .chain(a.children.iter(pack))
        .all(|d| d.audience().private & !all == 0)
    {
        return Err(PackError::inconsistent(
            "a directory names an audience class the pack does not have",
        ));
    }
    for line in a.lines.iter(pack) {
        heap.text(line, "instructions line")?;
    }
    heap.text(a.heads.instructions_head, "instructions head")?;
    Ok(())
}

/// The name of a JSON value's kind by its first byte.
fn kind(open: u8) -> &'static str {
    match open {
        b'[' => "array",
        b'{' => "object",
        _ => "string",
    }
}

/// Checks the mirror index's prefix and each skill's item of it (section 2):
/// each a JSON object, or empty for a skill that is not mirrored.
pub(super) fn check_items(t: &Tables, heap: HeapCheck<'_>) -> Result<(), PackError> {
    let prefix = heap.text(t.mirror_prefix, "mirror index prefix")?;
    let closed = format!("{prefix}{}", crate::compile::mirror::MIRROR_SUFFIX);
    strict_json(&closed, "the mirror index prefix")?;
    for s in t.mirror_items.iter(heap.pack) {
        let text = heap.spliced(s, "mirror index item")?;
        if text.is_empty() {
            continue;
        }
        if !text.starts_with('{') {
            return Err(PackError::inconsistent(
                "a mirror index item is not a JSON object",
            ));
        }
        strict_json(&text, "mirror index item")?;
    }
    Ok(())
}

/// Checks section 20 against the lists the pack's own tables give: the same lists and
/// snapshots the writer computed.
pub(super) fn check_lists(
    t: &Tables,
    a: &AccessTables,
    heap: HeapCheck<'_>,
) -> Result<(), PackError> {
    let pack = heap.pack;
    let at = |s: Span| heap.bytes(s, "skill record").unwrap_or(&[]);
    let spliced = |s: Span| super::splice::expand(heap.heap(), at(s)).unwrap_or_default();
    let want = super::lists::class_lists(
        a.classes.len(),
        t.skills.len(),
        |i| a.skills.get(pack, i).unwrap_or(0) as usize,
        t.mirror.iter(pack).map(|m| m.skill),
        t.fallback
            .iter()
            .flat_map(|f| f.prompts_by_name.iter(pack))
            .map(|p| p.skill),
        |i| {
            t.skills.get(pack, i).map_or(0, |r| {
                super::lists::skill_snapshot(at(r.uri), at(r.entry), &spliced(r.list_item))
            })
        },
        |i| {
            let item = t.mirror_items.get(pack, i).map_or_else(Vec::new, spliced);
            super::lists::lanes_of(&item)
        },
    );
    let want = super::lists::with_mirror_base(want, at(t.mirror_prefix));
    for (k, (rec, want)) in a.lists.iter(pack).zip(&want).enumerate() {
        let ids = |s: Span| -> Result<Vec<u32>, PackError> {
            Ok(heap
                .table::<u32>(s, None, "access list")?
                .iter(pack)
                .collect())
        };
        if ids(rec.skills)? != want.skills
            || ids(rec.mirror)? != want.mirror
            || ids(rec.prompts)? != want.prompts
            || rec.snapshot != want.snapshot
            || rec.mirror_lanes() != want.mirror_tag
        {
            return Err(PackError::inconsistent(format!(
                "the list of audience class {k} (section 20) is not what the pack's tables give"
            )));
        }
    }
    Ok(())
}
