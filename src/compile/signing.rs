//! Signing a compiled catalog: one [`Statement`] per skill, in a DSSE [`Envelope`] signed at
//! build time ([`crate::sign`] is the format; this is where the compiler uses it).
//!
//! [`Compiled::sign`] is the step: after [`super::compile_with`] (every digest known), it makes
//! each skill's statement (`Compiled::statement`: the entry's `uri`, the revision its `_meta`
//! publishes, the catalog's identity, and every file of the entry, in the entry's order, by
//! URI and SHA-256) and signs it. The envelopes are then part of the compiled catalog, so every
//! form rendered from it carries them: the entries of `skills/list` and `skills/get`
//! (`_meta` [`crate::sign::DSSE_META_KEY`] and [`crate::sign::SIGNER_META_KEY`]), the mirror
//! (`{name}.dsse.json` and `keys.json`, see [`super::mirror`]) and the pack. A catalog that is
//! not signed renders exactly as before signing existed.

use super::{Compiled, CompiledSkill};
use crate::sign::{Envelope, PublicKey, SigningKey, Statement, Subject};
use std::fmt;

/// The longest catalog identity, in bytes.
pub(crate) const MAX_CATALOG_ID: usize = 256;

/// A build option that cannot be used ([`crate::options::from_env`],
/// [`crate::options::inline_max`], [`crate::options::signing`], [`CatalogId::new`]): its `Display` names the variable or flag, the value, what is wrong and
/// the fix, without a leading `error: ` (the command and `build.rs` add it).
///
/// ```
/// use skills_edge::catalog::options;
/// let e = options::inline_max("--inline-max", "16k").unwrap_err();
/// assert_eq!(e.to_string(), r#"--inline-max "16k" is not a number of bytes: use a decimal integer such as 16384"#);
/// ```
// Reachable only through `From<OptionError> for String`, which the command's argument reader
// uses; not part of the API.
#[allow(unnameable_types)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionError {
    message: String,
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for OptionError {}

impl From<String> for OptionError {
    fn from(message: String) -> Self {
        OptionError { message }
    }
}

/// The message, for callers whose errors are text (the command's argument readers).
impl From<OptionError> for String {
    fn from(e: OptionError) -> String {
        e.message
    }
}

/// A catalog's identity: the name every statement of the catalog carries as `catalog`, the
/// same wherever the catalog is served (so a host can tell one publisher's catalog from
/// another's whatever origin serves it). The publisher chooses it at build time
/// (`SKILLS_CATALOG_ID`, `--catalog-id`); without one it is the signing key's id.
///
/// It is 1 to `MAX_CATALOG_ID` visible ASCII characters (`!` to `~`: no spaces, no control
/// characters), so it prints and compares the same everywhere, e.g. `acme.example/skills`.
///
/// ```
/// use skills_edge::catalog::compile::signing::CatalogId;
/// let id = CatalogId::new("--catalog-id", "acme.example/skills").unwrap();
/// assert_eq!(id.as_str(), "acme.example/skills");
/// let e = CatalogId::new("SKILLS_CATALOG_ID", "acme skills").unwrap_err();
/// assert!(e.to_string().starts_with(r#"SKILLS_CATALOG_ID "acme skills" is not a catalog identity"#));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogId(String);

impl CatalogId {
    /// Checks a chosen identity. The error says what is wrong and the form, without a leading
    /// `error: ` (`name` is the variable or flag it came from).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn new(name: &str, id: &str) -> Result<CatalogId, OptionError> {
        if id.is_empty()
            || id.len() > MAX_CATALOG_ID
            || !id.bytes().all(|b| (0x21..=0x7e).contains(&b))
        {
            return Err(OptionError::from(format!(
                "{name} {id:?} is not a catalog identity: use 1 to {MAX_CATALOG_ID} visible ASCII characters without spaces, such as acme.example/skills (or leave it unset: the identity is then the signing key's id)"
            )));
        }
        Ok(CatalogId(id.to_owned()))
    }

    /// The default identity of a catalog signed with `key`: the key's id.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn of_key(key: &PublicKey) -> CatalogId {
        CatalogId(key.key_id().to_owned())
    }

    /// The identity's text.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for CatalogId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Who signed a compiled catalog: the public key and the catalog identity its statements name.
///
/// ```
/// use skills_edge::catalog::compile::{compile, signing::CatalogId, SourceTree};
/// use skills_edge::catalog::sign::SigningKey;
/// let mut tree = SourceTree::default();
/// tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n");
/// let mut compiled = compile(tree).unwrap();
/// let key = SigningKey::from_seed([7; 32]);
/// compiled.sign(&key, &CatalogId::new("--catalog-id", "acme").unwrap());
/// let signed_by = compiled.signed_by.unwrap();
/// assert_eq!(&signed_by.key, key.public());
/// assert_eq!(signed_by.catalog.as_str(), "acme");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedBy {
    /// The signer's public key (its id names every envelope's signature).
    pub key: PublicKey,
    /// The identity every statement carries.
    pub catalog: CatalogId,
}

impl Compiled {
    /// Signs every skill with `key` for the catalog `catalog`: each skill's
    /// [`CompiledSkill::envelope`] becomes the JSON of the DSSE envelope of its
    /// `Compiled::statement`, and [`Compiled::signed_by`] names the key and the identity.
    /// Signing is deterministic (Ed25519, RFC 8032): the same catalog and key give the same
    /// bytes. Sign last: a change to the skills or files after this leaves stale envelopes.
    ///
    /// ```
    /// use skills_edge::catalog::compile::{compile, signing::CatalogId, SourceTree};
    /// use skills_edge::catalog::sign::{Envelope, SigningKey};
    /// let mut tree = SourceTree::default();
    /// tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n");
    /// let mut c = compile(tree).unwrap();
    /// let key = SigningKey::from_seed([7; 32]);
    /// c.sign(&key, &CatalogId::new("--catalog-id", "acme.example/skills").unwrap());
    /// let envelope = Envelope::parse(c.skills[0].envelope.as_deref().unwrap().as_bytes()).unwrap();
    /// let statement = envelope.verify(key.public()).unwrap();
    /// assert_eq!(statement, c.statement(&c.skills[0], "acme.example/skills"));
    /// assert!(c.entry_json(&c.skills[0]).contains("\"io.github.skills-edge/dsse\":{"));
    /// ```
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn sign(&mut self, key: &SigningKey, catalog: &CatalogId) {
        let envelopes: Vec<String> = self
            .skills
            .iter()
            .map(|s| Envelope::sign(&self.statement(s, catalog.as_str()), key).to_json())
            .collect();
        for (skill, envelope) in self.skills.iter_mut().zip(envelopes) {
            skill.envelope = Some(envelope);
        }
        self.signed_by = Some(SignedBy {
            key: key.public().clone(),
            catalog: catalog.clone(),
        });
    }

    /// What `skill`'s signature states in the catalog `catalog`: its entry's `uri`, the
    /// revision its entry's `_meta` publishes, and every file of its entry, in the entry's
    /// order, by URI and SHA-256 (the hex of the entry's digest).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn statement(&self, skill: &CompiledSkill, catalog: &str) -> Statement {
        Statement {
            skill: skill.uri.clone(),
            revision: self.revision(skill),
            catalog: catalog.to_owned(),
            subjects: skill
                .files
                .iter()
                .filter_map(|&i| self.files.get(i))
                .map(|f| Subject {
                    name: f.uri.clone(),
                    sha256: f
                        .digest
                        .strip_prefix("sha256:")
                        .unwrap_or(&f.digest)
                        .to_owned(),
                })
                .collect(),
        }
    }

    /// Whether every skill is signed ([`Compiled::sign`]): the catalog is then published with
    /// its signatures (entries, mirror, a signed pack).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn is_signed(&self) -> bool {
        self.signed_by.is_some() && self.skills.iter().all(|s| s.envelope.is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalog_identities() {
        for ok in [
            "a",
            "acme.example/skills",
            "https://skills.acme.example/",
            "~!",
        ] {
            assert_eq!(CatalogId::new("--catalog-id", ok).unwrap().as_str(), ok);
        }
        let long = "a".repeat(MAX_CATALOG_ID);
        assert!(CatalogId::new("--catalog-id", &long).is_ok());
        for bad in [
            "",
            "acme skills",
            "tab\there",
            "line\n",
            "é",
            "\u{202e}x",
            &"a".repeat(MAX_CATALOG_ID + 1),
        ] {
            let e = CatalogId::new("SKILLS_CATALOG_ID", bad)
                .unwrap_err()
                .to_string();
            assert!(
                e.starts_with(&format!("SKILLS_CATALOG_ID {bad:?} is not a catalog identity: use 1 to 256 visible ASCII characters")),
                "{e}"
            );
        }
        let key = SigningKey::from_seed([1; 32]);
        assert_eq!(
            CatalogId::of_key(key.public()).as_str(),
            key.public().key_id()
        );
    }
}
