//! The build options, read here and nowhere else: `build.rs` (the embedded catalog), the
//! native and npm `skills-edge check` and `skills-edge pack`, the npm `skills-edge worker`, and
//! `scripts/build-worker.sh` and `scripts/serve.sh` (which run `skills-edge pack`) all take
//! them from these functions, so each means the same everywhere:
//!
//! | environment | flag | meaning |
//! |---|---|---|
//! | `SKILLS_ON_INVALID=skip` | `--skip-invalid` | leave each invalid skill out, publish the rest ([`Options::skip_invalid`]) |
//! | `SKILLS_STRICT=1` | `--strict` | frontmatter the official TypeScript SDK cannot read is an error ([`Options::strict`]) |
//! | | `--inline-max BYTES` | files up to BYTES stay in the pack, larger ones are assets ([`crate::pack::AssetPolicy`]) |
//! | `SKILLS_SIGNING_KEY=PATH` | `--sign PATH` | sign every skill with the secret key in PATH (`signing.key` of `skills-edge keygen`; [`signing`]) |
//! | `SKILLS_CATALOG_ID=ID` | `--catalog-id ID` | the signed catalog's identity (default: the key's id; [`CatalogId`]) |
//!
//! The variables give the defaults; a flag turns its option on whatever the variable says
//! (`--sign` and `--catalog-id` replace their variable's value). The embedded catalog has no
//! assets, so `--inline-max` is for packs only.
//!
//! The signing key is named, never given: its file is read by the caller's I/O and handed to
//! [`Signing::signer`], whose errors name the file and never quote it, so the secret reaches
//! no message, log, pack or reply.
//!
//! ```
//! use skills_edge::catalog::options;
//! let o = options::from_env(|v| (v == "SKILLS_ON_INVALID").then(|| "skip".to_owned())).unwrap();
//! assert!(o.skip_invalid && !o.strict);
//! assert!(options::from_env(|v| (v == "SKILLS_STRICT").then(|| "yes".to_owned())).is_err());
//! assert_eq!(options::inline_max("--inline-max", "16384"), Ok(16384));
//! ```

use crate::compile::signing::CatalogId;
pub use crate::compile::signing::OptionError;
use crate::compile::Options;
use crate::diag::{Diagnostic, Rule};
use crate::sign::SigningKey;

/// The variable that leaves invalid skills out (`skip`) or stops on any error (`fail`).
pub const ON_INVALID: &str = "SKILLS_ON_INVALID";

/// The variable that turns strict mode on (`1`) or off (`0`).
pub const STRICT: &str = "SKILLS_STRICT";

/// The variable naming the file of the secret key to sign with.
pub const SIGNING_KEY: &str = "SKILLS_SIGNING_KEY";

/// The variable giving a signed catalog's identity.
pub const CATALOG_ID: &str = "SKILLS_CATALOG_ID";

/// How to sign a catalog: where the secret key is, and the identity to sign for.
///
/// ```
/// use skills_edge::catalog::{options, sign::SigningKey};
/// let s = options::signing(|_: &str| None, Some("keys/signing.key"), None).unwrap().unwrap();
/// assert_eq!((s.key_file.as_str(), &s.catalog_id), ("keys/signing.key", &None));
/// let e = s.signer(Err("No such file or directory".into())).unwrap_err();
/// assert_eq!((e.rule.id(), e.path.as_str()), ("signing-key", "keys/signing.key"));
/// let jwk = SigningKey::from_seed([7; 32]).to_jwk();
/// assert!(s.signer(Ok(jwk.into_bytes())).is_ok());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signing {
    /// The secret key's file, as given (its path; the key itself is read by `Signing::load`
    /// or the caller, and never kept here).
    pub key_file: String,
    /// The catalog identity; `None`: the key's id.
    pub catalog_id: Option<CatalogId>,
}

/// A signing key read from its file, with the identity to sign for ([`Signing::signer`]).
///
/// ```
/// use skills_edge::catalog::compile::{compile, SourceTree};
/// use skills_edge::catalog::{options, sign::SigningKey};
/// let key = SigningKey::from_seed([7; 32]);
/// let s = options::signing(|_: &str| None, Some("signing.key"), None).unwrap().unwrap();
/// let signer = s.signer(Ok(key.to_jwk().into_bytes())).unwrap();
/// assert_eq!(signer.catalog.as_str(), key.public().key_id(), "no identity given: the key's id");
/// # let mut tree = SourceTree::default();
/// # tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n");
/// let mut compiled = compile(tree).unwrap();
/// compiled.sign(&signer.key, &signer.catalog);
/// assert!(compiled.skills[0].envelope.is_some());
/// ```
#[derive(Debug, Clone)]
pub struct Signer {
    /// The secret key (its `Debug` shows only its id).
    pub key: SigningKey,
    /// The catalog identity: the one given, or the key's id.
    pub catalog: CatalogId,
}

/// The signing options: `key_flag` (`--sign PATH`) over `SKILLS_SIGNING_KEY`, `id_flag`
/// (`--catalog-id ID`) over `SKILLS_CATALOG_ID` (an empty variable is unset). `Ok(None)`: no
/// key is named, the catalog is not signed. A catalog identity without a key is an error
/// (the identity is part of what is signed, so it means a signature was wanted), as is an
/// identity that is not [`CatalogId`]'s form; the message names the setting and the fix,
/// without a leading `error: `.
///
/// ```
/// use skills_edge::catalog::options;
/// let env = |v: &str| (v == "SKILLS_SIGNING_KEY").then(|| "keys/signing.key".to_owned());
/// let s = options::signing(env, None, Some("acme")).unwrap().unwrap();
/// assert_eq!((s.key_file.as_str(), s.catalog_id.unwrap().as_str()), ("keys/signing.key", "acme"));
/// assert_eq!(options::signing(|_: &str| None, None, None), Ok(None));
/// assert!(options::signing(|_: &str| None, None, Some("acme")).is_err());
/// ```
pub fn signing(
    get: impl Fn(&str) -> Option<String>,
    key_flag: Option<&str>,
    id_flag: Option<&str>,
) -> Result<Option<Signing>, OptionError> {
    let set = |name: &str| get(name).filter(|v| !v.is_empty());
    let catalog_id = match (id_flag, set(CATALOG_ID)) {
        (Some(id), _) => Some(CatalogId::new("--catalog-id", id)?),
        (None, Some(id)) => Some(CatalogId::new(CATALOG_ID, &id)?),
        (None, None) => None,
    };
    let key_file = key_flag.map(str::to_owned).or_else(|| set(SIGNING_KEY));
    match key_file {
        Some(key_file) if !key_file.is_empty() => Ok(Some(Signing {
            key_file,
            catalog_id,
        })),
        Some(_) => Err(OptionError::from(
            "--sign needs the path of a signing key file (signing.key of `skills-edge keygen`)"
                .to_owned(),
        )),
        None if catalog_id.is_some() => {
            let named = if id_flag.is_some() {
                "--catalog-id"
            } else {
                CATALOG_ID
            };
            Err(OptionError::from(format!("{named} is given but no signing key: the catalog identity is part of what is signed\n  fix: give the key with --sign PATH or {SIGNING_KEY}=PATH (`skills-edge keygen` makes one), or leave out {named}")))
        }
        None => Ok(None),
    }
}

impl Signing {
    /// The signer, from the key file's bytes (`read`: its bytes, or the system's reason it
    /// cannot be read). The error is a `signing-key` [`Diagnostic`] whose path is the file as
    /// given, rendered like every build error (`error[signing-key]: FILE: …` and the fix); it
    /// never quotes the file's contents.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn signer(&self, read: Result<Vec<u8>, String>) -> Result<Signer, Diagnostic> {
        const FIX: &str = "give the signing.key file `skills-edge keygen --out DIR` wrote (signing.pub is its public half), or make a new key with that command";
        let bad =
            |message: String| Diagnostic::error(Rule::SigningKey, &self.key_file, message, FIX);
        let read = match read {
            Err(_) if looks_like_key_text(&self.key_file) => {
                return Err(Diagnostic::error(
                    Rule::SigningKey,
                    KEY_SETTINGS,
                    "the setting holds what looks like a key's text, not the path of a key file (its value is not shown)",
                    "write the key to a file (e.g. `printf '%s' \"$SECRET\" > signing.key` in CI) and give that file's path with --sign PATH or SKILLS_SIGNING_KEY=PATH",
                ))
            }
            read => read,
        };
        let bytes = read.map_err(|why| bad(format!("cannot read the signing key: {why}")))?;
        let text = std::str::from_utf8(&bytes).map_err(|_| {
            bad("the signing key is not a JSON Web Key (the file is not UTF-8 text)".into())
        })?;
        let key = SigningKey::from_jwk(text).map_err(|e| bad(e.message))?;
        let catalog = self
            .catalog_id
            .clone()
            .unwrap_or_else(|| CatalogId::of_key(key.public()));
        Ok(Signer { key, catalog })
    }

    /// Reads the key file from disk ([`Signing::signer`] with the file's bytes).
    #[cfg(not(target_family = "wasm"))]
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn load(&self) -> Result<Signer, Diagnostic> {
        self.signer(std::fs::read(&self.key_file).map_err(|e| e.to_string()))
    }
}

/// What a `signing-key` error names instead of a value that looks like a key's text.
const KEY_SETTINGS: &str = "--sign or SKILLS_SIGNING_KEY";

/// Whether a signing-key setting that is not a readable file looks like key material rather
/// than a path: JSON or PEM text (a brace, a quote, a line break or another control
/// character), or one base64url token of a secret's length (32 to 64 bytes' worth, no `/`
/// or `.`). Such a value is never echoed: it may be the secret itself, e.g. a CI secret put
/// in `SKILLS_SIGNING_KEY` where its file's path belongs.
fn looks_like_key_text(value: &str) -> bool {
    let token = (43..=88).contains(&value.len())
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'=' | b'+'));
    token
        || value.len() > 4096
        || value
            .chars()
            .any(|c| matches!(c, '{' | '}' | '"') || c.is_control())
}

/// The compile options from the environment: `get` returns a variable's value, `None` when
/// it is unset. An unknown value is an error naming the variable, the value and the fix
/// (without a leading `error: `, which the caller adds).
pub fn from_env(get: impl Fn(&str) -> Option<String>) -> Result<Options, OptionError> {
    let strict = match get(STRICT).as_deref() {
        None | Some("" | "0") => false,
        Some("1") => true,
        Some(other) => {
            return Err(OptionError::from(format!("{STRICT} is {other:?}\n  fix: set {STRICT}=1 for strict mode (frontmatter every host can read), or 0 or nothing for the default")));
        }
    };
    let skip_invalid = match get(ON_INVALID).as_deref() {
        None | Some("" | "fail") => false,
        Some("skip") => true,
        Some(other) => {
            return Err(OptionError::from(format!("{ON_INVALID} is {other:?}\n  fix: set {ON_INVALID}=skip to leave invalid skills out and publish the rest, or fail (or nothing) to stop the build on any error")));
        }
    };
    Ok(Options {
        strict,
        skip_invalid,
    })
}

/// The value of `--inline-max` (named `name` in the error): a decimal number of bytes.
pub fn inline_max(name: &str, value: &str) -> Result<u64, OptionError> {
    value
        .parse::<u64>()
        .ok()
        .filter(|_| value.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| {
            OptionError::from(format!(
                "{name} {value:?} is not a number of bytes: use a decimal integer such as 16384"
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| (*v).to_owned())
        }
    }

    #[test]
    fn variables_give_the_options() {
        assert_eq!(from_env(env(&[])), Ok(Options::default()));
        let o = from_env(env(&[(STRICT, "1"), (ON_INVALID, "skip")])).unwrap();
        assert!(o.strict && o.skip_invalid);
        let o = from_env(env(&[(STRICT, "0"), (ON_INVALID, "fail")])).unwrap();
        assert!(!o.strict && !o.skip_invalid);
        assert_eq!(
            from_env(env(&[(STRICT, ""), (ON_INVALID, "")])),
            Ok(Options::default())
        );
    }

    #[test]
    fn unknown_values_are_refused_with_the_fix() {
        let e = from_env(env(&[(STRICT, "true")])).unwrap_err().to_string();
        assert!(
            e.starts_with("SKILLS_STRICT is \"true\"\n  fix: set SKILLS_STRICT=1"),
            "{e}"
        );
        let e = from_env(env(&[(ON_INVALID, "ignore")]))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("SKILLS_ON_INVALID is \"ignore\"\n  fix: set SKILLS_ON_INVALID=skip"),
            "{e}"
        );
    }

    #[test]
    fn signing_flags_over_variables() {
        assert_eq!(signing(env(&[]), None, None), Ok(None));
        assert_eq!(
            signing(env(&[(SIGNING_KEY, ""), (CATALOG_ID, "")]), None, None),
            Ok(None)
        );
        let s = signing(env(&[(SIGNING_KEY, "k"), (CATALOG_ID, "env")]), None, None)
            .unwrap()
            .unwrap();
        assert_eq!(s.key_file, "k");
        assert_eq!(s.catalog_id.unwrap().as_str(), "env");
        let s = signing(
            env(&[(SIGNING_KEY, "k"), (CATALOG_ID, "env")]),
            Some("flag.key"),
            Some("flag"),
        )
        .unwrap()
        .unwrap();
        assert_eq!(
            (s.key_file.as_str(), s.catalog_id.unwrap().as_str()),
            ("flag.key", "flag")
        );
        let s = signing(env(&[]), Some("f"), None).unwrap().unwrap();
        assert_eq!(s.catalog_id, None);
        let e = signing(env(&[(CATALOG_ID, "acme")]), None, None)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("SKILLS_CATALOG_ID is given but no signing key"),
            "{e}"
        );
        assert!(e.contains("fix: give the key with --sign PATH"), "{e}");
        let e = signing(env(&[]), None, Some("acme"))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("--catalog-id is given but no signing key"),
            "{e}"
        );
        let e = signing(env(&[(SIGNING_KEY, "k"), (CATALOG_ID, "a b")]), None, None)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("SKILLS_CATALOG_ID \"a b\" is not a catalog identity"),
            "{e}"
        );
        let e = signing(env(&[]), Some("k"), Some(""))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("--catalog-id \"\" is not a catalog identity"),
            "{e}"
        );
        assert!(signing(env(&[]), Some(""), None).is_err());
    }

    /// The secret `d` of a JWK the tests made, to check that no message quotes it.
    fn secret_d(jwk: &str) -> String {
        let after = jwk.split("\"d\":\"").nth(1).expect("a secret JWK");
        after.split('"').next().unwrap_or_default().to_owned()
    }

    #[test]
    fn a_bad_key_file_is_a_build_error_naming_the_file_never_its_contents() {
        let s = Signing {
            key_file: "keys/signing.key".into(),
            catalog_id: None,
        };
        let key = SigningKey::from_seed([5; 32]);
        let secret = key.to_jwk();
        let d = &secret_d(&secret);
        let ok = s.signer(Ok(secret.clone().into_bytes())).unwrap();
        assert_eq!(ok.key.public(), key.public());
        assert_eq!(ok.catalog.as_str(), key.public().key_id());
        let damaged = secret.replace(&d[..4], "AAAA");
        for (read, says) in [
            (
                Err("No such file or directory (os error 2)".to_owned()),
                "cannot read the signing key: No such file or directory (os error 2)",
            ),
            (
                Ok(key.public().to_jwk().into_bytes()),
                "the signing key has no secret (\"d\")",
            ),
            (
                Ok(damaged.into_bytes()),
                "is not the public key of its \"d\": the file is damaged",
            ),
            (
                Ok(secret.as_bytes()[..secret.len() - 1].to_vec()),
                "the signing key is not a JSON Web Key",
            ),
            (Ok(vec![0xff, 0xfe]), "not UTF-8"),
            (
                Ok(br#"{"kty":"OKP","crv":"Ed25519","d":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}"#.to_vec()),
                "is all zeros",
            ),
        ] {
            let e = s.signer(read).unwrap_err();
            let text = e.render("");
            assert!(
                text.starts_with("error[signing-key]: keys/signing.key: "),
                "{text}"
            );
            assert!(text.contains(says), "{text}");
            assert!(
                text.contains("\n  fix: give the signing.key file"),
                "{text}"
            );
            assert!(!text.contains(d), "{text}");
        }
    }

    #[test]
    fn a_key_given_as_the_settings_text_instead_of_a_path_is_never_echoed() {
        let key = SigningKey::from_seed([6; 32]);
        let secret = key.to_jwk();
        let d = secret_d(&secret);
        let pretty = secret.replace(',', ",\n  ");
        for given in [secret.clone(), pretty, d.clone(), format!("{secret}\n")] {
            let s = Signing {
                key_file: given,
                catalog_id: None,
            };
            // What reading a "file" named by the key's text gives.
            let e = s
                .signer(Err("No such file or directory (os error 2)".into()))
                .unwrap_err();
            let text = e.render("");
            assert!(
                text.starts_with("error[signing-key]: --sign or SKILLS_SIGNING_KEY: "),
                "{text}"
            );
            assert!(text.contains("not the path of a key file"), "{text}");
            assert!(text.contains("fix: write the key to a file"), "{text}");
            for part in [&d[..8], &d[d.len() - 8..]] {
                assert!(!text.contains(part), "{text}");
            }
        }
        // A path that cannot be read is still named.
        let s = Signing {
            key_file: "keys/missing.key".into(),
            catalog_id: None,
        };
        let text = s
            .signer(Err("No such file or directory (os error 2)".into()))
            .unwrap_err()
            .render("");
        assert!(
            text.starts_with("error[signing-key]: keys/missing.key: cannot read"),
            "{text}"
        );
    }

    #[test]
    fn inline_max_is_a_decimal_number_of_bytes() {
        assert_eq!(inline_max("--inline-max", "0"), Ok(0));
        for bad in ["", "-1", "+5", "1e3", " 5", "0x10", "99999999999999999999"] {
            let e = inline_max("--inline-max", bad).unwrap_err().to_string();
            assert_eq!(e, format!("--inline-max {bad:?} is not a number of bytes: use a decimal integer such as 16384"));
        }
    }
}
