//! The reader of the optional sections: the fallback, the signatures, the access rules. Each
//! is all there or not at all; each range is checked once.

use super::format::*;
use super::read::{strict_json, HeapCheck};
use super::record::{record_len, table};
use super::PackError;

/// Decodes and checks the fallback sections: all or none, every range inside the heap, JSON
/// where JSON is due, names sorted and unique, skill indices inside the skills table.
pub(super) fn fallback(
    found: &[Option<Span>; 7],
    heap: HeapCheck<'_>,
    skill_names: &[&str],
) -> Result<Option<FallbackTables>, PackError> {
    let n_skills = skill_names.len();
    if found.iter().all(Option::is_none) {
        return Ok(None);
    }
    let [Some(tools), Some(prompts), Some(list_skills), Some(instr), Some(per_skill), Some(prompt_index), Some(name_index)] =
        *found
    else {
        return Err(PackError(
            "the fallback sections are incomplete (a pack has all of them or none)".into(),
        ));
    };
    let bytes = |s, what| heap.bytes(s, what);
    let text = |s, what| heap.text(s, what);
    let json = |s, what, open| heap.json_kind(s, what, open);
    json(tools, "fallback tools", b'[')?;
    json(prompts, "fallback prompts", b'[')?;
    json(list_skills, "fallback list_skills result", b'{')?;
    let [FallbackInstructionsRec(instructions)] = table(
        bytes(instr, "fallback instructions")?,
        Some(1),
        "fallback instructions",
    )?[..] else {
        return Err(PackError(
            "the fallback instructions table is not one record".into(),
        ));
    };
    for s in instructions {
        text(s, "fallback instructions")?;
    }
    let skills: Vec<FallbackSkillRec> = table(
        bytes(per_skill, "fallback skill table")?,
        Some(n_skills),
        "fallback skill",
    )?;
    for r in &skills {
        json(r.description, "fallback skill description", b'"')?;
        json(r.links, "fallback prompt links", b'[')?;
        json(r.read_block, "fallback read_skill block", b'{')?;
        json(
            r.read_structured,
            "fallback read_skill structured content",
            b'{',
        )?;
    }
    let prompts_by_name: Vec<PromptRec> = table(
        bytes(prompt_index, "fallback prompt index")?,
        Some(n_skills),
        "fallback prompt index",
    )?;
    let mut prev: Option<&str> = None;
    for p in &prompts_by_name {
        let name = text(p.name, "prompt name")?;
        if prev.is_some_and(|q| q >= name) {
            return Err(PackError(format!("prompt names are not sorted at {name}")));
        }
        prev = Some(name);
        if p.skill as usize >= n_skills {
            return Err(PackError(format!(
                "the prompt {name} names a skill outside the skills table"
            )));
        }
    }
    let skills_by_name: Vec<u32> = table(
        bytes(name_index, "fallback name index")?,
        Some(n_skills),
        "fallback name index",
    )?;
    let mut prev: Option<&str> = None;
    for &i in &skills_by_name {
        let Some(name) = skill_names.get(i as usize) else {
            return Err(PackError(
                "the fallback name index names a skill outside the skills table".into(),
            ));
        };
        if prev.is_some_and(|p| p > *name) {
            return Err(PackError(format!(
                "the fallback name index is not sorted at {name}"
            )));
        }
        prev = Some(name);
    }
    Ok(Some(FallbackTables {
        tools,
        prompts,
        list_skills,
        instructions,
        skills,
        prompts_by_name,
        skills_by_name,
    }))
}

/// The signature sections (10 and 11): both or neither; each envelope a JSON object with its
/// digest, one per skill, and `keys.json` a JSON object.
pub(super) fn signatures(
    signatures: Option<Span>,
    keys: Option<Span>,
    heap: HeapCheck<'_>,
    n_skills: usize,
) -> Result<Option<SignatureTables>, PackError> {
    let bytes = |s, what| heap.bytes(s, what);
    let text = |s, what| heap.text(s, what);
    let json = |s, what| heap.json(s, what);
    Ok(match (signatures, keys) {
        (Some(signature_table), Some(keys)) => {
            let per_skill: Vec<SignatureRec> = table(
                bytes(signature_table, "signature table")?,
                Some(n_skills),
                "signature",
            )?;
            for (i, s) in per_skill.iter().enumerate() {
                let envelope = text(s.envelope, "skill envelope")?;
                if !envelope.starts_with('{') {
                    return Err(PackError(format!(
                        "the envelope of skill {i} is not a JSON object"
                    )));
                }
                json(s.envelope, "skill envelope")?;
                heap.digest(s.digest, "envelope digest")?;
            }
            let keys_text = text(keys, "keys.json")?;
            if !keys_text.starts_with('{') {
                return Err(PackError("keys.json is not a JSON object".into()));
            }
            json(keys, "keys.json")?;
            Some(SignatureTables {
                skills: per_skill,
                keys,
            })
        }
        (None, None) => None,
        _ => {
            return Err(PackError(
                "a signed pack has both signature sections (10 and 11), but this one has only one"
                    .into(),
            ))
        }
    })
}

/// The lengths of the tables the access sections describe, one record per item.
#[derive(Debug, Clone, Copy)]
pub(super) struct Shape {
    pub(super) files: usize,
    pub(super) skills: usize,
    pub(super) dirs: usize,
    pub(super) children: usize,
}

/// The access sections (12 to 18): all or none; classes of scope tokens, every class named
/// by a skill, file or directory among them, fragments as JSON.
pub(super) fn access(
    found: &[Option<Span>; 7],
    heap: HeapCheck<'_>,
    n: Shape,
) -> Result<Option<AccessTables>, PackError> {
    let bytes = |s, what| heap.bytes(s, what);
    let text = |s, what| heap.text(s, what);
    let json = |s, what| heap.json(s, what);
    Ok(match *found {
        [Some(cl), Some(sk), Some(fi), Some(di), Some(ch), Some(fr), Some(he)] => {
            let n_classes = bytes(cl, "access classes")?.len() / record_len::<Span>();
            let classes: Vec<Span> = table(bytes(cl, "access classes")?, None, "access class")?;
            if classes.is_empty() || n_classes > crate::access::MAX_PRIVATE_CLASSES {
                return Err(PackError(format!(
                    "the pack has {n_classes} private audience classes; a pack with access rules has 1 to {}",
                    crate::access::MAX_PRIVATE_CLASSES
                )));
            }
            for c in &classes {
                let scopes = text(*c, "access class scopes")?;
                if !scopes.split(' ').all(crate::access::is_scope_token) {
                    return Err(PackError(format!(
                        "the access class {scopes:?} is not a list of scope tokens"
                    )));
                }
            }
            let class_ok = |c: u32| c as usize <= classes.len();
            let skill_classes: Vec<u32> =
                table(bytes(sk, "skill classes")?, Some(n.skills), "skill class")?;
            let file_classes: Vec<u32> =
                table(bytes(fi, "file classes")?, Some(n.files), "file class")?;
            if !skill_classes.iter().chain(&file_classes).all(|&c| class_ok(c)) {
                return Err(PackError(
                    "a skill or file names an audience class the pack does not have".into(),
                ));
            }
            let all = if classes.len() == 64 {
                u64::MAX
            } else {
                (1u64 << classes.len()) - 1
            };
            let dir_aud: Vec<AudienceRec> =
                table(bytes(di, "directory audiences")?, Some(n.dirs), "directory audience")?;
            let child_aud: Vec<AudienceRec> = table(
                bytes(ch, "child audiences")?,
                Some(n.children),
                "child audience",
            )?;
            if !dir_aud.iter().chain(&child_aud).all(|a| a.audience().private & !all == 0) {
                return Err(PackError(
                    "a directory names an audience class the pack does not have".into(),
                ));
            }
            let fragments: Vec<FragmentRec> =
                table(bytes(fr, "access fragments")?, Some(n.skills), "access fragment")?;
            for f in &fragments {
                text(f.instructions_line, "instructions line")?;
                if f.mirror_item.len > 0 {
                    json(f.mirror_item, "mirror index item")?;
                }
                json(f.prompt_item, "prompt item")?;
                json(f.list_item, "list_skills item")?;
            }
            let [heads]: [HeadsRec; 1] = table(bytes(he, "access heads")?, Some(1), "access heads")?
                .try_into()
                .map_err(|_| PackError("the access heads table is not one record".into()))?;
            text(heads.instructions_head, "instructions head")?;
            let prefix = text(heads.mirror_prefix, "mirror index prefix")?;
            let closed = format!("{prefix}{}", crate::compile::mirror::MIRROR_SUFFIX);
            strict_json(&closed, "the mirror index prefix")?;
            Some(AccessTables {
                classes,
                skills: skill_classes,
                files: file_classes,
                dirs: dir_aud,
                children: child_aud,
                fragments,
                heads,
            })
        }
        found if found.iter().all(Option::is_none) => None,
        _ => {
            return Err(PackError(
                "a pack with access rules has all of its access sections (12 to 18), but this one lacks some".into(),
            ))
        }
    })
}
