//! OpenSSF Model Signing (OMS) signatures of a skill folder, as the `model-signing` 1.1.1
//! package (PyPI; `sigstore/model-transparency`) writes and checks them in its key mode:
//! `model_signing sign key DIR --private_key oms.key --signature DIR/skill.oms.sig` and
//! `model_signing verify key DIR --public_key oms.pub --signature DIR/skill.oms.sig`.
//!
//! The format, from that package's source (`_signing/signing.py`, `sign_ec_key.py`,
//! `sign_sigstore_pb.py`, `manifest.py`, `_serialization/file.py`, `hashing.py`):
//!
//! - the file is a Sigstore bundle, media type `BUNDLE_MEDIA_TYPE`:
//!   `{"mediaType","verificationMaterial":{"publicKey":{"hint"},"tlogEntries":[]},
//!   "dsseEnvelope":{"payload","payloadType","signatures":[{"sig","keyid":""}]}}`;
//! - the envelope is DSSE: `sig` is the ECDSA (P-256 with SHA-256) DER signature of DSSE's
//!   pre-authentication encoding of `application/vnd.in-toto+json` and the payload;
//! - the payload is an in-toto v1 statement with one subject (the folder's name and a SHA-256
//!   over the resources' digests, in their order) and predicate type [`PREDICATE_TYPE`], whose
//!   predicate lists every file (`resources`: `name` the path relative to the folder, `/`
//!   separated; `algorithm` `sha256`; `digest` hex) in path order, component by component, and
//!   how they were gathered (`serialization`: `method` `files`, `hash_type` `sha256`,
//!   `allow_symlinks`, `ignore_paths`);
//! - the files gathered are every regular file under the folder except the signature file
//!   and, at the folder's root, `.git`, `.gitattributes`, `.github` and `.gitignore`
//!   (`IGNORED_AT_ROOT`; the command's default `--ignore-git-paths`).
//!
//! `model_signing` also reads bundles of its pre-1.0 predicate (`Digests/v0.1`), shard
//! serialization, BLAKE2 and BLAKE3 digests, P-384 and P-521 keys, and certificate chains; this
//! reader refuses each by name rather than pass what it does not check.

mod build;
mod key;

pub use build::{compile_signed, load_key, OMS_KEY_VAR};
pub use key::{OmsPublicKey, OmsSigningKey};

use crate::json::{self, Node};
use crate::sign::pae;
use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use key::hex;
use sha2::{Digest as _, Sha256};
use std::collections::BTreeMap;
use std::fmt;

/// The name of a skill's OMS signature, at its root, as NVIDIA's verified skills ship it.
pub const SIGNATURE_FILE: &str = "skill.oms.sig";
/// The bundle media type `model_signing`'s key mode writes and requires.
pub(crate) const BUNDLE_MEDIA_TYPE: &str = "application/vnd.dev.sigstore.bundle.v0.3+json";
/// The DSSE payload type.
pub const PAYLOAD_TYPE: &str = "application/vnd.in-toto+json";
/// The in-toto statement type.
pub(crate) const STATEMENT_TYPE: &str = "https://in-toto.io/Statement/v1";
/// The model signature predicate, v1.0.
pub const PREDICATE_TYPE: &str = "https://model_signing/signature/v1.0";
/// Paths at a folder's root that `model_signing` leaves out by default (`ignore_git_paths`).
pub(crate) const IGNORED_AT_ROOT: [&str; 4] = [".git", ".gitattributes", ".github", ".gitignore"];
/// The most bytes a bundle may have.
pub(crate) const MAX_BUNDLE_BYTES: usize = 1 << 20;

/// Why an OMS key, bundle or folder does not verify: what, where, and the fix.
///
/// ```
/// use skills_edge::catalog::oms::{verify_folder, Manifest, OmsSigningKey};
/// let key = OmsSigningKey::from_scalar(&[9; 32]).unwrap();
/// let bundle = Manifest::new("hello", vec![("SKILL.md".into(), [1; 32])]).sign(&key);
/// let files = [("SKILL.md", [2; 32])];
/// let e = verify_folder(bundle.as_bytes(), &[key.public().clone()], files).unwrap_err();
/// assert_eq!(e.file.as_deref(), Some("SKILL.md"));
/// assert!(e.message.ends_with("the file was changed after signing"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OmsError {
    /// The message.
    pub message: String,
    /// The file of the folder the failure is about, when it is about one.
    pub file: Option<String>,
}

impl fmt::Display for OmsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for OmsError {}

pub(crate) fn fail(message: impl Into<String>) -> OmsError {
    OmsError {
        message: message.into(),
        file: None,
    }
}

fn fail_file(file: &str, message: String) -> OmsError {
    OmsError {
        message,
        file: Some(file.to_owned()),
    }
}

/// The most characters of a value a bundle or a server gave that a message quotes (and the
/// longest file name a report names a failed check by).
pub(crate) const SHOWN_MAX: usize = 200;

/// `s` as a message quotes it: whole up to [`SHOWN_MAX`] characters, else its first ones and
/// `…` (a bundle's strings can be as long as the bundle, and a message must stay a line).
pub(crate) fn shown(s: &str) -> std::borrow::Cow<'_, str> {
    match s.char_indices().nth(SHOWN_MAX) {
        None => std::borrow::Cow::Borrowed(s),
        Some((end, _)) => std::borrow::Cow::Owned(format!("{}…", &s[..end])),
    }
}

/// What a bundle states: the folder's name and each file's SHA-256, by path.
///
/// ```
/// use skills_edge::catalog::oms::{Manifest, SIGNATURE_FILE};
/// let files = vec![("a-c".to_owned(), [1; 32]), ("a/b".to_owned(), [2; 32]), ("SKILL.md".to_owned(), [3; 32])];
/// let manifest = Manifest::new("hello", files);
/// let paths: Vec<&str> = manifest.files.iter().map(|(p, _)| p.as_str()).collect();
/// assert_eq!(paths, ["SKILL.md", "a/b", "a-c"], "model_signing's order: by path component");
/// assert_eq!(manifest.ignore_paths[0], SIGNATURE_FILE);
/// assert!(manifest.check_covers([("a/b", [2; 32]), ("a-c", [1; 32]), ("SKILL.md", [3; 32])]).is_ok());
/// assert!(manifest.check_covers([("SKILL.md", [3; 32])]).is_err(), "two files are missing");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manifest {
    /// The subject's name (the folder's name when signed; informative only).
    pub name: String,
    /// Every file, by path relative to the folder, in `model_signing`'s order (`path_order`).
    pub files: Vec<(String, [u8; 32])>,
    /// `serialization.ignore_paths` as the bundle gives it.
    pub ignore_paths: Vec<String>,
}

/// `model_signing`'s order of paths: component by component (Python's `PurePosixPath`
/// order), so `a/b` comes before `a-c` although `-` sorts before `/` byte by byte.
pub(crate) fn path_order(a: &str, b: &str) -> std::cmp::Ordering {
    a.split('/').cmp(b.split('/'))
}

impl Manifest {
    /// The manifest of `files` (path relative to the folder, SHA-256), for the folder `name`,
    /// sorted as `model_signing` sorts them. The signature file and the root paths
    /// `model_signing` ignores are the caller's to leave out (`is_ignored`).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn new(name: &str, mut files: Vec<(String, [u8; 32])>) -> Manifest {
        files.sort_by(|a, b| path_order(&a.0, &b.0));
        let mut ignore_paths = vec![SIGNATURE_FILE.to_owned()];
        ignore_paths.extend(IGNORED_AT_ROOT.iter().map(|s| (*s).to_owned()));
        Manifest {
            name: name.to_owned(),
            files,
            ignore_paths,
        }
    }

    /// The subject's digest: SHA-256 over the files' digests in order.
    fn root_digest(&self) -> [u8; 32] {
        let mut h = Sha256::new();
        for (_, d) in &self.files {
            h.update(d);
        }
        h.finalize().into()
    }

    /// The in-toto statement, compact JSON.
    fn statement_json(&self) -> String {
        let s = |v: &str| serde_json::Value::from(v).to_string();
        let resources: Vec<String> = self
            .files
            .iter()
            .map(|(p, d)| {
                format!(
                    "{{\"name\":{},\"algorithm\":\"sha256\",\"digest\":\"{}\"}}",
                    s(p),
                    hex(d)
                )
            })
            .collect();
        let ignore: Vec<String> = self.ignore_paths.iter().map(|p| s(p)).collect();
        format!(
            "{{\"_type\":\"{STATEMENT_TYPE}\",\"subject\":[{{\"name\":{},\"digest\":{{\"sha256\":\"{}\"}}}}],\"predicateType\":\"{PREDICATE_TYPE}\",\"predicate\":{{\"serialization\":{{\"method\":\"files\",\"hash_type\":\"sha256\",\"allow_symlinks\":false,\"ignore_paths\":[{}]}},\"resources\":[{}]}}}}",
            s(&self.name),
            hex(&self.root_digest()),
            ignore.join(","),
            resources.join(",")
        )
    }

    /// The bundle `model_signing sign key` would write for these files with `key`: the
    /// Sigstore bundle JSON of the signed statement. Deterministic (RFC 6979): the same files
    /// and key give the same bytes.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn sign(&self, key: &OmsSigningKey) -> String {
        let payload = self.statement_json();
        let sig = key.sign_der(&pae(PAYLOAD_TYPE, payload.as_bytes()));
        format!(
            "{{\"mediaType\":\"{BUNDLE_MEDIA_TYPE}\",\"verificationMaterial\":{{\"publicKey\":{{\"hint\":\"{}\"}},\"tlogEntries\":[]}},\"dsseEnvelope\":{{\"payload\":\"{}\",\"payloadType\":\"{PAYLOAD_TYPE}\",\"signatures\":[{{\"sig\":\"{}\",\"keyid\":\"\"}}]}}}}",
            key.public().hint(),
            STANDARD.encode(payload.as_bytes()),
            STANDARD.encode(&sig)
        )
    }

    /// Checks that this manifest covers exactly `files` (path relative to the folder,
    /// SHA-256), the signature file left out: the same paths with the same digests. The error
    /// names the first file that differs ([`OmsError::file`]). Linear after sorting.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn check_covers<'a>(
        &self,
        files: impl IntoIterator<Item = (&'a str, [u8; 32])>,
    ) -> Result<(), OmsError> {
        let mut stated: BTreeMap<&str, &[u8; 32]> =
            self.files.iter().map(|(p, d)| (p.as_str(), d)).collect();
        let mut served: Vec<(&str, [u8; 32])> = files
            .into_iter()
            .filter(|(p, _)| *p != SIGNATURE_FILE)
            .collect();
        served.sort_by(|a, b| path_order(a.0, b.0));
        for (path, digest) in served {
            if is_ignored(path) {
                return Err(fail_file(path, format!("{path} is served with the skill, but model_signing never signs or checks it (it leaves the git paths at a folder's root out): a folder holding it is refused by `model_signing verify`, so it is refused here too; the publisher leaves it out of the skill", path = shown(path))));
            }
            match stated.remove(path) {
                None => return Err(fail_file(path, format!("{path} is not covered by the OMS signature ({SIGNATURE_FILE}): it was added after signing, or the signature is another folder's", path = shown(path)))),
                Some(d) if *d != digest => return Err(fail_file(path, format!("{path} has SHA-256 {}, but the OMS signature states {}: the file was changed after signing", hex(&digest), hex(d), path = shown(path)))),
                Some(_) => {}
            }
        }
        if let Some((path, _)) = stated.into_iter().next() {
            return Err(fail_file(path, format!("{path} is covered by the OMS signature but is not among the skill's files: it was removed after signing, or the signature is another folder's", path = shown(path))));
        }
        Ok(())
    }
}

/// Whether `model_signing`'s default configuration leaves `path` (relative to the folder) out
/// of what it signs and verifies: the signature file and the git paths at the root.
pub(crate) fn is_ignored(path: &str) -> bool {
    let first = path.split('/').next().unwrap_or(path);
    path == SIGNATURE_FILE || IGNORED_AT_ROOT.contains(&first)
}

/// A bundle as read, before any check of its signature.
///
/// ```
/// use skills_edge::catalog::oms::{Bundle, Manifest, OmsSigningKey, PAYLOAD_TYPE};
/// let key = OmsSigningKey::from_scalar(&[9; 32]).unwrap();
/// let manifest = Manifest::new("hello", vec![("SKILL.md".into(), [1; 32])]);
/// let bundle = Bundle::parse(manifest.sign(&key).as_bytes()).unwrap();
/// assert_eq!((bundle.payload_type.as_str(), bundle.signatures), (PAYLOAD_TYPE, 1));
/// assert_eq!(bundle.hint, Some(key.public().hint()));
/// assert_eq!(bundle.verify(key.public()).unwrap(), manifest);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bundle {
    /// `verificationMaterial.publicKey.hint`, when given.
    pub hint: Option<String>,
    /// The envelope's payload type.
    pub payload_type: String,
    /// The envelope's payload, decoded.
    pub payload: Vec<u8>,
    /// The first signature, decoded (the one `model_signing` checks).
    pub sig: Vec<u8>,
    /// How many signatures the envelope holds (`model_signing` key mode writes one).
    pub signatures: usize,
}

fn decode(field: &str, v: &str) -> Result<Vec<u8>, OmsError> {
    STANDARD
        .decode(v)
        .map_err(|_| fail(format!("the OMS bundle's {field} is not base64")))
}

impl Bundle {
    /// Reads a bundle's JSON (at most `MAX_BUNDLE_BYTES`). A bundle signed with a
    /// certificate chain, or by Sigstore's keyless signing, is refused here: key mode checks
    /// keys only.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn parse(bytes: &[u8]) -> Result<Bundle, OmsError> {
        if bytes.len() > MAX_BUNDLE_BYTES {
            return Err(fail(format!(
                "the OMS bundle is {} bytes, more than {MAX_BUNDLE_BYTES}",
                bytes.len()
            )));
        }
        let text = std::str::from_utf8(bytes)
            .map_err(|_| fail("the OMS bundle is not UTF-8 text (a Sigstore bundle is JSON)"))?;
        let doc = json::parse(text).map_err(|e| {
            fail(format!(
                "the OMS bundle is not JSON ({e}): it is truncated or not a Sigstore bundle"
            ))
        })?;
        let bad = |e: Box<json::FieldError>| {
            fail(format!("the OMS bundle is not a Sigstore bundle: {e}"))
        };
        once_each(&doc, "the bundle")?;
        let media = doc.str_of("mediaType").map_err(bad)?;
        if media != BUNDLE_MEDIA_TYPE {
            return Err(fail(format!("the OMS bundle's mediaType is {media:?}, not {BUNDLE_MEDIA_TYPE:?} (what `model_signing` key mode writes)", media = shown(media))));
        }
        let material = doc.required("verificationMaterial").map_err(bad)?;
        material
            .expect_object("verificationMaterial")
            .map_err(bad)?;
        once_each(material, "verificationMaterial")?;
        for chain in ["certificate", "x509CertificateChain"] {
            if material.field(chain).map_err(bad)?.is_some() {
                return Err(fail(format!("the OMS bundle is signed with a certificate ({chain}), not a key: `model_signing verify certificate` checks such a bundle; this verifier checks key-signed bundles against keys it trusts")));
            }
        }
        let hint = match material.field("publicKey").map_err(bad)? {
            // An empty hint names no key, as `model_signing` reads it: the signature is then
            // checked against every trusted key.
            Some(pk) => once_each(pk, "publicKey")?
                .opt_str("hint")
                .map_err(bad)?
                .filter(|h| !h.is_empty())
                .map(str::to_owned),
            None => None,
        };
        if let Some(h) = hint
            .as_deref()
            .filter(|h| parse_hex(h).is_none() || h.bytes().any(|b| b.is_ascii_uppercase()))
        {
            // `model_signing` compares the hint with the SHA-256 hex of the key it is given, so
            // such a hint names no key and it refuses the bundle with every key. Refused here
            // before any message quotes it: a hint is only ever shown as 64 hex characters.
            let start: String = h.chars().take(16).collect();
            return Err(fail(format!("the OMS bundle's key hint ({start:?}…, {} bytes) is not a SHA-256 in lowercase hex, so it names no key: `model_signing verify key` refuses it with every key", h.len())));
        }
        let env = once_each(doc.required("dsseEnvelope").map_err(bad)?, "dsseEnvelope")?;
        let payload = decode("payload", env.str_of("payload").map_err(bad)?)?;
        let payload_type = env.str_of("payloadType").map_err(bad)?.to_owned();
        let sigs = env.array_of("signatures").map_err(bad)?;
        for s in sigs {
            once_each(s, "signature")?;
        }
        let first = sigs
            .first()
            .ok_or_else(|| fail("the OMS bundle's envelope has no signature"))?;
        let sig = decode("signature", first.str_of("sig").map_err(bad)?)?;
        Ok(Bundle {
            hint,
            payload_type,
            payload,
            sig,
            signatures: sigs.len(),
        })
    }

    /// Verifies the bundle with `key` and reads its manifest, as `model_signing verify key`
    /// does: the hint (when given) must be `key`'s, the signature must verify over the
    /// envelope, and the payload must be a statement of the v1.0 predicate whose subject
    /// digest is the one of its resources.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn verify(&self, key: &OmsPublicKey) -> Result<Manifest, OmsError> {
        if let Some(hint) = &self.hint
            && *hint != key.hint()
        {
            return Err(fail(format!("the OMS bundle was signed by another key (hint {hint}, the key given has {}): the skill is not signed by a key trusted here", key.hint())));
        }
        if self.payload_type != PAYLOAD_TYPE {
            return Err(fail(format!(
                "the OMS bundle's payloadType is {:?}, not {PAYLOAD_TYPE:?}",
                shown(&self.payload_type)
            )));
        }
        if !key.verifies(&pae(PAYLOAD_TYPE, &self.payload), &self.sig) {
            let only_first = if self.signatures > 1 {
                format!(" (the bundle holds {} signatures; `model_signing` key mode writes one and checks only the first)", self.signatures)
            } else {
                String::new()
            };
            return Err(fail(format!("the OMS signature does not verify with the key {}: it is another key's, or the bundle was changed after signing{only_first}", key.hint())));
        }
        read_statement(&self.payload)
    }
}

/// `n` itself, refused when it is an object that repeats a key (`what` names it): a bundle
/// names each field once, whether this reader uses the field or not, so which of two values
/// counts never depends on the reader.
fn once_each<'n, 'a>(n: &'n Node<'a>, what: &str) -> Result<&'n Node<'a>, OmsError> {
    match n.repeated_key() {
        Some(k) => Err(fail(format!(
            "the OMS bundle's {what} repeats the key {:?}: a Sigstore bundle names each field once",
            shown(k)
        ))),
        None => Ok(n),
    }
}

/// The manifest of a statement (`model_signing`'s `dsse_payload_to_manifest`): the payload
/// of a [`Bundle`], read without checking its signature (that is [`Bundle::verify`]'s), so what
/// it says is only what the bundle claims.
pub fn read_statement(payload: &[u8]) -> Result<Manifest, OmsError> {
    let text =
        std::str::from_utf8(payload).map_err(|_| fail("the OMS statement is not UTF-8 JSON"))?;
    let doc = json::parse(text).map_err(|e| fail(format!("the OMS statement is not JSON: {e}")))?;
    let bad =
        |e: Box<json::FieldError>| fail(format!("the OMS statement is not a model signature: {e}"));
    let t = doc.str_of("_type").map_err(bad)?;
    if t != STATEMENT_TYPE {
        return Err(fail(format!(
            "the OMS statement's _type is {t:?}, not {STATEMENT_TYPE:?}",
            t = shown(t)
        )));
    }
    let pt = doc.str_of("predicateType").map_err(bad)?;
    if pt != PREDICATE_TYPE {
        return Err(fail(format!("the OMS statement's predicateType is {pt:?}: this verifier reads {PREDICATE_TYPE:?} only (what model_signing 1.x writes)", pt = shown(pt))));
    }
    let subjects = doc.array_of("subject").map_err(bad)?;
    let [subject] = subjects else {
        return Err(fail(format!(
            "the OMS statement has {} subjects, not one",
            subjects.len()
        )));
    };
    let name = subject.str_of("name").map_err(bad)?.to_owned();
    let root = subject
        .required("digest")
        .and_then(|d| d.str_of("sha256").map(str::to_owned))
        .map_err(bad)?;
    let predicate = doc.required("predicate").map_err(bad)?;
    let ser = predicate.required("serialization").map_err(bad)?;
    let method = ser.str_of("method").map_err(bad)?;
    if method != "files" {
        return Err(fail(format!("the OMS signature serializes the folder by {method:?}: this verifier reads \"files\" only (one digest per file, model_signing's default)", method = shown(method))));
    }
    let hash = ser.str_of("hash_type").map_err(bad)?;
    if hash != "sha256" {
        return Err(fail(format!("the OMS signature digests files with {hash:?}: this verifier reads \"sha256\" only (model_signing's default)", hash = shown(hash))));
    }
    let mut ignore_paths = Vec::new();
    for p in ser
        .opt_array("ignore_paths")
        .map_err(bad)?
        .unwrap_or_default()
    {
        ignore_paths.push(string(p, "ignore_paths[]")?.to_owned());
    }
    let mut files: Vec<(String, [u8; 32])> = Vec::new();
    let mut seen: std::collections::BTreeSet<&str> = std::collections::BTreeSet::new();
    let mut h = Sha256::new();
    for r in predicate.array_of("resources").map_err(bad)? {
        let path = r.str_of("name").map_err(bad)?;
        let algorithm = r.str_of("algorithm").map_err(bad)?;
        if algorithm != "sha256" {
            return Err(fail_file(
                path,
                format!(
                    "the OMS signature digests {path} with {algorithm:?}, not \"sha256\"",
                    path = shown(path),
                    algorithm = shown(algorithm)
                ),
            ));
        }
        let digest = parse_hex(r.str_of("digest").map_err(bad)?).ok_or_else(|| {
            fail_file(
                path,
                format!(
                    "the OMS signature's digest of {path} is not 64 hex characters",
                    path = shown(path)
                ),
            )
        })?;
        if !seen.insert(path) {
            return Err(fail_file(
                path,
                format!("the OMS signature lists {path} twice", path = shown(path)),
            ));
        }
        h.update(digest);
        files.push((path.to_owned(), digest));
    }
    let computed = hex(&h.finalize());
    if computed != root {
        return Err(fail(format!("the OMS statement is inconsistent: its subject digest is {root}, but its resources hash to {computed}", root = shown(&root))));
    }
    Ok(Manifest {
        name,
        files,
        ignore_paths,
    })
}

fn string<'a>(n: &'a Node<'_>, what: &str) -> Result<&'a str, OmsError> {
    n.as_str().ok_or_else(|| {
        fail(format!(
            "the OMS statement's {what} must be a string, found {}",
            n.a_type()
        ))
    })
}

/// 32 bytes from 64 hex characters (either case, as Python's `bytes.fromhex` reads).
fn parse_hex(s: &str) -> Option<[u8; 32]> {
    let b = s.as_bytes();
    if b.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, pair) in b.chunks(2).enumerate() {
        let v = |c: u8| (c as char).to_digit(16);
        out[i] = u8::try_from(v(pair[0])? * 16 + v(pair[1])?).ok()?;
    }
    Some(out)
}

/// Verifies the bundle `bytes` of a folder whose files are `files` (path relative to the
/// folder, SHA-256; the signature file may be among them and is left out) with the first of
/// `keys` whose hint it names (every key when it names none): the signature holds and covers
/// exactly those files. Returns the key that verified it.
pub fn verify_folder<'k, 'a>(
    bytes: &[u8],
    keys: &'k [OmsPublicKey],
    files: impl IntoIterator<Item = (&'a str, [u8; 32])>,
) -> Result<&'k OmsPublicKey, OmsError> {
    let bundle = Bundle::parse(bytes)?;
    let mut last = None;
    for key in keys {
        if bundle.hint.as_ref().is_some_and(|h| *h != key.hint()) {
            continue;
        }
        match bundle.verify(key) {
            Ok(manifest) => {
                manifest.check_covers(files)?;
                return Ok(key);
            }
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| match &bundle.hint {
        Some(h) => fail(format!("the OMS signature is by the key with hint {h}, which is not trusted here\n  fix: trust the publisher's OMS public key (--trust oms.pub) if it is theirs")),
        None => fail("no OMS public key is trusted here to check the signature\n  fix: trust the publisher's OMS public key (--trust oms.pub)"),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sha(b: &[u8]) -> [u8; 32] {
        Sha256::digest(b).into()
    }

    #[test]
    fn a_signed_manifest_verifies_and_covers_exactly_its_files() {
        let key = OmsSigningKey::from_scalar(&[9; 32]).unwrap();
        let files = vec![
            ("a-c".to_owned(), sha(b"1")),
            ("a/b".to_owned(), sha(b"2")),
            ("SKILL.md".to_owned(), sha(b"3")),
        ];
        let m = Manifest::new("skill", files.clone());
        assert_eq!(
            m.files.iter().map(|f| f.0.as_str()).collect::<Vec<_>>(),
            ["SKILL.md", "a/b", "a-c"]
        );
        let bundle = m.sign(&key);
        let got = Bundle::parse(bundle.as_bytes())
            .unwrap()
            .verify(key.public())
            .unwrap();
        assert_eq!(got.files, m.files);
        let served = |extra: Option<(&'static str, [u8; 32])>| {
            let mut v: Vec<(&str, [u8; 32])> =
                files.iter().map(|(p, d)| (p.as_str(), *d)).collect();
            v.push((SIGNATURE_FILE, sha(b"sig")));
            v.extend(extra);
            v
        };
        let keys = [key.public().clone()];
        verify_folder(bundle.as_bytes(), &keys, served(None)).unwrap();
        let e = verify_folder(bundle.as_bytes(), &keys, served(Some(("new.md", sha(b"")))))
            .unwrap_err();
        assert_eq!(e.file.as_deref(), Some("new.md"));
        let mut changed = served(None);
        changed[1].1 = sha(b"x");
        let e = verify_folder(bundle.as_bytes(), &keys, changed).unwrap_err();
        assert_eq!(e.file.as_deref(), Some("a/b"), "{e}");
        let other = [OmsSigningKey::from_scalar(&[8; 32])
            .unwrap()
            .public()
            .clone()];
        let e = verify_folder(bundle.as_bytes(), &other, served(None)).unwrap_err();
        assert!(e.message.contains("not trusted here"), "{e}");
        for cut in [0, 10, bundle.len() / 2, bundle.len() - 1] {
            assert!(verify_folder(&bundle.as_bytes()[..cut], &keys, served(None)).is_err());
        }
    }

    #[test]
    fn a_bundle_repeating_a_key_in_any_of_its_objects_is_refused() {
        let key = OmsSigningKey::from_scalar(&[9; 32]).unwrap();
        let bundle = Manifest::new("skill", vec![("SKILL.md".to_owned(), sha(b"3"))]).sign(&key);
        let hint = key.public().hint();
        assert!(Bundle::parse(bundle.as_bytes()).is_ok());
        let repeated = [
            (
                format!("\"hint\":\"{hint}\""),
                format!("\"hint\":\"{}\",\"hint\":\"{hint}\"", "0".repeat(64)),
            ),
            (
                "\"tlogEntries\"".to_owned(),
                "\"publicKey\":{},\"tlogEntries\"".to_owned(),
            ),
            (
                "\"payloadType\"".to_owned(),
                "\"payloadType\":\"x\",\"payloadType\"".to_owned(),
            ),
            (
                "\"keyid\"".to_owned(),
                "\"keyid\":\"a\",\"keyid\"".to_owned(),
            ),
            (
                "\"mediaType\"".to_owned(),
                "\"mediaType\":\"x\",\"mediaType\"".to_owned(),
            ),
        ];
        for (from, to) in repeated {
            assert!(bundle.contains(&from), "{from}");
            let twice = bundle.replacen(&from, &to, 1);
            let e = Bundle::parse(twice.as_bytes()).expect_err(&to);
            assert!(e.message.contains("repeats the key"), "{to}: {e}");
        }
    }

    #[test]
    fn a_bundle_with_a_strangers_signature_first_is_refused_naming_the_count() {
        let key = OmsSigningKey::from_scalar(&[9; 32]).unwrap();
        let stranger = OmsSigningKey::from_scalar(&[8; 32]).unwrap();
        let m = Manifest::new("skill", vec![("SKILL.md".to_owned(), sha(b"3"))]);
        let sig_of = |b: &str| -> String {
            let at = b.find("\"signatures\":[").unwrap();
            b[at + "\"signatures\":[".len()..b.rfind(']').unwrap()].to_owned()
        };
        let own = m.sign(&key);
        let theirs = sig_of(&m.sign(&stranger));
        let two = own.replacen("\"signatures\":[", &format!("\"signatures\":[{theirs},"), 1);
        let b = Bundle::parse(two.as_bytes()).unwrap();
        assert_eq!(b.signatures, 2);
        let e = b.verify(key.public()).unwrap_err();
        assert!(e.message.contains("holds 2 signatures"), "{e}");
        let e = Bundle::parse(own.as_bytes())
            .unwrap()
            .verify(stranger.public())
            .unwrap_err();
        assert!(!e.message.contains("signatures"), "{e}");
    }
}
