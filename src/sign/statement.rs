//! The in-toto v1 Statement a skill's signature carries: its subjects (the files with their digests) and this project's predicate.

use super::*;

/// One subject of a statement: a file of the skill.
///
/// ```
/// use skills_edge::catalog::compile::{compile, SourceTree};
/// let mut tree = SourceTree::default();
/// tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n");
/// let compiled = compile(tree).unwrap();
/// let statement = compiled.statement(&compiled.skills[0], "acme");
/// let subject = &statement.subjects[0];
/// assert_eq!(subject.name, "skill://hello/SKILL.md");
/// assert_eq!(format!("sha256:{}", subject.sha256), compiled.files[0].digest);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subject {
    /// The file's `skill://` URI, as its entry lists it.
    pub name: String,
    /// The SHA-256 of its bytes, 64 lowercase hex characters (the entry's digest without the
    /// `sha256:` prefix).
    pub sha256: String,
}

/// What a skill's signature states: these files, with these digests, make up this skill at
/// this revision, in this catalog.
///
/// ```
/// use skills_edge::catalog::compile::{compile, SourceTree};
/// let mut tree = SourceTree::default();
/// tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n");
/// tree.add_file("hello/references/tone.md", "Be kind.\n");
/// let compiled = compile(tree).unwrap();
/// let skill = &compiled.skills[0];
/// let statement = compiled.statement(skill, "acme.example/skills");
/// assert_eq!((statement.skill.as_str(), statement.catalog.as_str()), ("skill://hello/SKILL.md", "acme.example/skills"));
/// assert_eq!(statement.revision, compiled.revision(skill));
/// assert_eq!(statement.subjects.len(), 2);
/// assert!(statement.to_json().starts_with(r#"{"_type":"https://in-toto.io/Statement/v1""#));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    /// The skill's URI (its entry's `uri`, the `SKILL.md`).
    pub skill: String,
    /// The skill's revision, as its entry's `_meta` publishes it.
    pub revision: String,
    /// The catalog's identity, the same wherever the catalog is served.
    pub catalog: String,
    /// Every file of the skill, in its entry's order.
    pub subjects: Vec<Subject>,
}

/// A statement's fields as read (before its checks).
struct StatementJson {
    kind: String,
    subject: Vec<(String, Option<String>)>,
    predicate_type: String,
    skill: String,
    revision: String,
    catalog: String,
}

fn read_statement(bytes: &[u8]) -> Result<StatementJson, String> {
    let doc = document(json_text(bytes)?)?;
    let [kind, subject, predicate_type, predicate] =
        record(&doc, ["_type", "subject", "predicateType", "predicate"])?;
    let kind = string(kind, "_type")?;
    let mut subjects = Vec::new();
    for item in array(subject, "subject")? {
        let [name, digest] = record(item, ["name", "digest"])?;
        let name = string(name, "name")?;
        let digest = digest.ok_or("missing field `digest`")?;
        let [sha256] = record(digest, ["sha256"])?;
        subjects.push((name, optional_string(sha256)?));
    }
    let predicate_type = string(predicate_type, "predicateType")?;
    let predicate = predicate.ok_or("missing field `predicate`")?;
    let [skill, revision, catalog] = record(predicate, ["skill", "revision", "catalog"])?;
    Ok(StatementJson {
        kind,
        subject: subjects,
        predicate_type,
        skill: string(skill, "skill")?,
        revision: string(revision, "revision")?,
        catalog: string(catalog, "catalog")?,
    })
}

fn is_hex_digest(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

impl Statement {
    /// The statement's JSON: the bytes that are signed. Field order is fixed, so the same
    /// statement always gives the same bytes (verifiers never rely on it: they verify the bytes
    /// they received).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn to_json(&self) -> String {
        let mut out = String::with_capacity(256 + self.subjects.len() * 128);
        out.push_str("{\"_type\":");
        write_str(STATEMENT_TYPE, &mut out);
        out.push_str(",\"subject\":[");
        for (i, s) in self.subjects.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"name\":");
            write_str(&s.name, &mut out);
            out.push_str(",\"digest\":{\"sha256\":");
            write_str(&s.sha256, &mut out);
            out.push_str("}}");
        }
        out.push_str("],\"predicateType\":");
        write_str(PREDICATE_TYPE, &mut out);
        out.push_str(",\"predicate\":{\"skill\":");
        write_str(&self.skill, &mut out);
        out.push_str(",\"revision\":");
        write_str(&self.revision, &mut out);
        out.push_str(",\"catalog\":");
        write_str(&self.catalog, &mut out);
        out.push_str("}}");
        out
    }

    /// Reads a statement of this version: `_type` `STATEMENT_TYPE`, `predicateType`
    /// [`PREDICATE_TYPE`], every subject with a `name` and a `digest.sha256` of 64 lowercase
    /// hex characters, no two subjects with one name, and the predicate's three strings.
    pub(crate) fn parse(bytes: &[u8]) -> Result<Statement, SignatureError> {
        let bad = |what: String| fail(SignatureFault::Statement, what);
        let json = read_statement(bytes).map_err(|e| {
            bad(format!(
                "the signed statement is not an in-toto statement: {e}"
            ))
        })?;
        if json.kind != STATEMENT_TYPE {
            return Err(bad(format!(
                "the signed statement's _type is {:?}, not {STATEMENT_TYPE:?}",
                json.kind
            )));
        }
        if json.predicate_type != PREDICATE_TYPE {
            return Err(bad(format!(
                "the signed statement's predicateType is {:?}, not this project's {PREDICATE_TYPE:?}",
                json.predicate_type
            )));
        }
        let mut names: BTreeSet<&str> = BTreeSet::new();
        for (name, sha256) in &json.subject {
            if !sha256.as_deref().is_some_and(is_hex_digest) {
                return Err(bad(format!(
                    "the signed subject {name:?} has no digest.sha256 of 64 lowercase hex characters"
                )));
            }
            if !names.insert(name.as_str()) {
                return Err(bad(format!("the signed statement names {name:?} twice")));
            }
        }
        let subjects = json
            .subject
            .into_iter()
            .map(|(name, sha256)| Subject {
                name,
                sha256: sha256.unwrap_or_default(),
            })
            .collect();
        Ok(Statement {
            skill: json.skill,
            revision: json.revision,
            catalog: json.catalog,
            subjects,
        })
    }
}
