//! Whether a verified statement matches the skill: the entry it signs (its URI, revision, catalog and every file with its digest), or the files of an archive.

use super::*;

fn mismatch(
    uri: &str,
    field: &str,
    expected: impl Into<String>,
    actual: impl Into<String>,
    what: String,
) -> VerifyError {
    invalid(
        uri,
        format!("{what}: the entry or the signature was changed after signing"),
    )
    .with_field(field)
    .with_values(expected, actual)
}

/// The hex of a wire digest (`sha256:` and 64 hex), as statements carry it.
pub(super) fn hex(digest: &str) -> &str {
    digest.strip_prefix("sha256:").unwrap_or(digest)
}

/// Whether `statement` states exactly `entry` (see the module documentation):
/// [`ErrorCode::SignatureInvalid`] for the skill (`uri`), naming the first difference, in
/// this order (`field`: `predicate.skill`, `subject` for the count, `subject[FILE URI]` for a
/// file, then `predicate.revision`), `expected` the entry's value and `actual` the
/// statement's.
pub(crate) fn statement_matches_entry(statement: &Statement, entry: &Entry) -> Result<()> {
    let uri = entry.uri();
    if statement.skill != uri {
        return Err(mismatch(
            uri,
            "predicate.skill",
            uri,
            &statement.skill,
            format!(
                "the signature given with {uri} is the signature of {}",
                statement.skill
            ),
        ));
    }
    let Some(items) = entry.items() else {
        return Err(invalid(
            uri,
            format!(
                "{uri} has \"dynamic\" resources: there are no files its signature could state"
            ),
        ));
    };
    if statement.subjects.len() != items.len() {
        return Err(mismatch(
            uri,
            "subject",
            items.len().to_string(),
            statement.subjects.len().to_string(),
            format!(
                "the signature of {uri} states {} files, its entry lists {}",
                statement.subjects.len(),
                items.len()
            ),
        ));
    }
    let subjects = subject_set(statement);
    for item in items {
        if subjects.contains(subject_key(&item.uri, hex(&item.digest)).as_str()) {
            continue;
        }
        let field = format!("subject[{}]", item.uri);
        match subject_named(statement, &item.uri) {
            None => {
                return Err(mismatch(
                    uri,
                    &field,
                    hex(&item.digest),
                    "absent",
                    format!("the signature of {uri} does not state {}", item.uri),
                ))
            }
            Some(s) if s.sha256 != hex(&item.digest) => {
                return Err(mismatch(
                    uri,
                    &field,
                    hex(&item.digest),
                    &s.sha256,
                    format!(
                        "the signature of {uri} states {} with the digest {}, its entry lists {}",
                        item.uri, s.sha256, item.digest
                    ),
                ))
            }
            Some(_) => {}
        }
    }
    let revision = entry.revision().unwrap_or_default();
    let published = entry.signature().and_then(|s| s.revision.as_deref());
    for (field, expected) in [
        ("_meta revision", published),
        ("revision", Some(&*revision)),
    ] {
        if let Some(expected) = expected.filter(|e| *e != statement.revision) {
            return Err(mismatch(
                uri,
                "predicate.revision",
                expected,
                &statement.revision,
                format!(
                    "the signature of {uri} states the revision {}, its entry's {field} is {expected}",
                    statement.revision
                ),
            ));
        }
    }
    Ok(())
}

/// Whether `statement` states exactly the files of the skill `name` (`files`: each path
/// relative to the skill root with its wire digest, as unpacked from a well-known artifact;
/// `what` names the artifact): the statement's skill is a `SKILL.md` in a directory named
/// `name`, each subject's name minus that directory is a path of `files` with its digest, as
/// many of them, and the revision is the files' ([`skill_revision`]).
/// [`ErrorCode::SignatureInvalid`] naming the first difference, as
/// [`statement_matches_entry`].
#[cfg_attr(not(feature = "command"), allow(dead_code))]
pub(crate) fn statement_matches_files(
    statement: &Statement,
    what: &str,
    name: &str,
    files: &[(String, String)],
) -> Result<()> {
    let root = skill_root(&statement.skill).unwrap_or_default();
    if root.is_empty() || final_segment(root) != name {
        return Err(mismatch(
            what,
            "predicate.skill",
            format!(".../{name}/SKILL.md"),
            &statement.skill,
            format!(
                "the signature given with the skill {name} is the signature of {}",
                statement.skill
            ),
        ));
    }
    if statement.subjects.len() != files.len() {
        return Err(mismatch(
            what,
            "subject",
            files.len().to_string(),
            statement.subjects.len().to_string(),
            format!(
                "the signature of {name} states {} files, {what} holds {}",
                statement.subjects.len(),
                files.len()
            ),
        ));
    }
    let subjects = subject_set(statement);
    for (path, digest) in files {
        let subject_name = format!("{root}/{path}");
        if subjects.contains(subject_key(&subject_name, hex(digest)).as_str()) {
            continue;
        }
        let field = format!("subject[{subject_name}]");
        match subject_named(statement, &subject_name) {
            None => {
                return Err(mismatch(
                    what,
                    &field,
                    hex(digest),
                    "absent",
                    format!("the signature of {name} does not state {path}"),
                ))
            }
            Some(s) if s.sha256 != hex(digest) => {
                return Err(mismatch(
                    what,
                    &field,
                    hex(digest),
                    &s.sha256,
                    format!(
                        "the signature of {name} states {path} with the digest {}, {what} holds {digest}",
                        s.sha256
                    ),
                ))
            }
            Some(_) => {}
        }
    }
    let revision =
        skill_revision(files.iter().map(|(p, d)| (p.as_str(), d.as_str()))).unwrap_or_default();
    if statement.revision != revision {
        return Err(mismatch(
            what,
            "predicate.revision",
            &revision,
            &statement.revision,
            format!(
                "the signature of {name} states the revision {}, its files make {revision}",
                statement.revision
            ),
        ));
    }
    Ok(())
}

/// The statement's subjects as an ordered set of `name\nsha256` ([`subject_key`]): one
/// lookup per file, so checking n files is O(n log n), not a scan of every subject for each.
fn subject_set(statement: &Statement) -> BTreeSet<String> {
    let mut set = BTreeSet::new();
    for s in &statement.subjects {
        set.insert(subject_key(&s.name, &s.sha256));
    }
    set
}

/// A subject's name and digest as one string (a name holds no line feed).
fn subject_key(name: &str, sha256: &str) -> String {
    format!("{name}\n{sha256}")
}

/// The subject stated for `name` when the statement does not state the file's digest for it:
/// the first of that name, or `None`. Only on the way to a refusal, so one scan.
fn subject_named<'s>(statement: &'s Statement, name: &str) -> Option<&'s Subject> {
    statement.subjects.iter().find(|s| s.name == name)
}
