//! Signed skills: what a signature covers, and the one implementation of its format, shared by
//! the compiler (which signs at build time) and the host (which verifies).
//!
//! A skill's signature is an [in-toto v1 Statement] whose subjects are the skill's files (`name`
//! = the file's `skill://` URI, `digest.sha256` = the hex of the digest the entry publishes) and
//! whose predicate ([`PREDICATE_TYPE`]) names the skill's URI, its revision and the catalog's
//! identity. The statement is the payload of a [DSSE] envelope (`payloadType`
//! [`PAYLOAD_TYPE`], as the in-toto envelope layer requires) signed with Ed25519 over DSSE's
//! pre-authentication encoding ([`pae`]).
//!
//! Keys are JSON Web Keys of type `OKP`, curve `Ed25519` (RFC 8037): the public key is `x`, the
//! secret `d` (the 32-byte seed). A key's id is its RFC 7638 thumbprint ([`PublicKey::key_id`]);
//! every envelope names its signer by that id in `keyid`.
//!
//! Choices where the specifications leave room (docs/signing.md says the same):
//! * DSSE's `keyid` is an unauthenticated hint. The host uses it as a filter, never as a grant:
//!   only a signature whose `keyid` is the id of the key it checks against is tried, and that
//!   signature must still verify. A changed `keyid` therefore fails like a changed signature.
//! * Both base64 alphabets are read (DSSE: verifiers MUST accept either), with or without
//!   padding; envelopes are written with the standard alphabet, padded.
//! * A known field given twice is refused; fields this version does not know are ignored (DSSE
//!   and in-toto: consumers MUST ignore them), but must be JSON. Envelopes, statements and keys
//!   are read by one record reader (the [`crate::json`] tree below the field rules). DSSE
//!   envelopes, in-toto statements and JWKs (RFC 7517 §4) are JSON objects: an array where one
//!   is expected is refused (serde's derived struct readers read an array with one item per
//!   field, in order; nothing writes that form).
//! * The catalog identity is a name the publisher chooses at build time; without one it is the
//!   signing key's id (one key, one catalog).
//!
//! [in-toto v1 Statement]: https://github.com/in-toto/attestation/blob/main/spec/v1/statement.md
//! [DSSE]: https://github.com/secure-systems-lab/dsse/blob/master/envelope.md

use crate::json::{self, Json, Node};
use crate::skill::digest::sha256;
use crate::skill::value::write_json_string;
use base64::alphabet;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig, URL_SAFE_NO_PAD};
use base64::engine::DecodePaddingMode;
use base64::Engine as _;
use std::collections::HashSet;
use std::fmt;

/// The in-toto Statement type this version writes and reads.
pub const STATEMENT_TYPE: &str = "https://in-toto.io/Statement/v1";
/// The DSSE payload type of an in-toto statement (in-toto envelope layer).
pub const PAYLOAD_TYPE: &str = "application/vnd.in-toto+json";
/// The predicate type of a skill's statement: this project's, version 1.
pub const PREDICATE_TYPE: &str =
    "https://github.com/skills-edge/skills-edge/blob/main/docs/signing.md#predicate-skill-v1";
/// The `_meta` key of a skill entry (and of a `skills/get` result) holding the DSSE envelope.
pub const DSSE_META_KEY: &str = "io.github.skills-edge/dsse";
/// The `_meta` key holding the signer's public key as a JWK (unauthenticated: a host trusts it
/// only through a trust list or a pin, and only when a signature by it verifies).
pub const SIGNER_META_KEY: &str = "io.github.skills-edge/signer";
/// The most bytes an envelope's JSON may have (a skill of 512 files with long URIs needs about
/// a quarter of it).
pub const MAX_ENVELOPE_BYTES: usize = 1 << 20;
/// The most bytes a key's JWK may have.
pub const MAX_JWK_BYTES: usize = 4096;

/// What is wrong with a key, an envelope or a statement. The message never holds secret key
/// material.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureError {
    /// Which check failed.
    pub fault: SignatureFault,
    /// What was wrong, where, and what to do.
    pub message: String,
}

/// The checks a [`SignatureError`] reports, one per way a signature can fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignatureFault {
    /// A key that is not an Ed25519 JWK (or a secret where a public key belongs).
    Key,
    /// An envelope that is not DSSE JSON (bad JSON, a missing field, bad base64, too large).
    Envelope,
    /// An envelope whose `payloadType` is not [`PAYLOAD_TYPE`].
    PayloadType,
    /// No signature in the envelope names the key (by `keyid`) it was checked against.
    NoSignatureByKey,
    /// A signature that names the key but does not verify.
    BadSignature,
    /// A signed payload that is not a statement of this version (type, predicate, fields).
    Statement,
}

impl SignatureFault {
    /// A stable name for logs and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            SignatureFault::Key => "key",
            SignatureFault::Envelope => "envelope",
            SignatureFault::PayloadType => "payload-type",
            SignatureFault::NoSignatureByKey => "no-signature-by-key",
            SignatureFault::BadSignature => "bad-signature",
            SignatureFault::Statement => "statement",
        }
    }
}

impl fmt::Display for SignatureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SignatureError {}

fn fail(fault: SignatureFault, message: impl Into<String>) -> SignatureError {
    SignatureError {
        fault,
        message: message.into(),
    }
}

/// Both base64 alphabets, padding optional (DSSE: verifiers MUST accept either alphabet).
const LENIENT: GeneralPurposeConfig =
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent);
const STANDARD_ANY: GeneralPurpose = GeneralPurpose::new(&alphabet::STANDARD, LENIENT);
const URL_SAFE_ANY: GeneralPurpose = GeneralPurpose::new(&alphabet::URL_SAFE, LENIENT);
const STANDARD_PADDED: GeneralPurpose =
    GeneralPurpose::new(&alphabet::STANDARD, GeneralPurposeConfig::new());

fn decode_any(s: &str) -> Option<Vec<u8>> {
    STANDARD_ANY
        .decode(s)
        .ok()
        .or_else(|| URL_SAFE_ANY.decode(s).ok())
}

/// An Ed25519 public key and its id.
#[derive(Clone, PartialEq, Eq)]
pub struct PublicKey {
    bytes: [u8; 32],
    key_id: String,
}

impl fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PublicKey({})", self.key_id)
    }
}

/// The fields of an OKP JWK this module reads. `kid` and others are ignored: a key's id is
/// always its thumbprint.
struct Jwk {
    kty: Option<String>,
    crv: Option<String>,
    x: Option<String>,
    d: Option<String>,
}

fn read_jwk(text: &str, what: &str) -> Result<Jwk, SignatureError> {
    if text.len() > MAX_JWK_BYTES {
        return Err(fail(
            SignatureFault::Key,
            format!("{what} is {} bytes, more than a JWK's {MAX_JWK_BYTES}: give the key file `skills-edge keygen` wrote", text.len()),
        ));
    }
    // The reader's own message may quote the input, which may be a secret: it is not repeated.
    let read = || -> Result<Jwk, String> {
        let doc = document(text)?;
        let [kty, crv, x, d] = record(&doc, ["kty", "crv", "x", "d"])?;
        Ok(Jwk {
            kty: optional_string(kty)?,
            crv: optional_string(crv)?,
            x: optional_string(x)?,
            d: optional_string(d)?,
        })
    };
    let jwk = read().map_err(|_| {
        fail(
            SignatureFault::Key,
            format!("{what} is not a JSON Web Key (a JSON object with kty, crv and x): give the key file `skills-edge keygen` wrote"),
        )
    })?;
    if jwk.kty.as_deref() != Some("OKP") || jwk.crv.as_deref() != Some("Ed25519") {
        return Err(fail(
            SignatureFault::Key,
            format!("{what} is not an Ed25519 key: a signing key has \"kty\": \"OKP\" and \"crv\": \"Ed25519\" (RFC 8037)"),
        ));
    }
    Ok(jwk)
}

fn key_bytes(field: Option<&str>, name: &str, what: &str) -> Result<[u8; 32], SignatureError> {
    let s = field.ok_or_else(|| {
        fail(
            SignatureFault::Key,
            format!(
                "{what} has no \"{name}\": an Ed25519 JWK carries it as 43 base64url characters"
            ),
        )
    })?;
    URL_SAFE_NO_PAD
        .decode(s)
        .ok()
        .and_then(|v| <[u8; 32]>::try_from(v).ok())
        .ok_or_else(|| {
            fail(
                SignatureFault::Key,
                format!(
                    "{what}'s \"{name}\" is not 32 bytes in base64url without padding (RFC 8037)"
                ),
            )
        })
}

impl PublicKey {
    /// A public key from its 32 bytes.
    pub fn from_bytes(bytes: [u8; 32]) -> PublicKey {
        let x = URL_SAFE_NO_PAD.encode(bytes);
        // RFC 7638 §3: the required members in lexicographic order, no whitespace.
        let members = format!("{{\"crv\":\"Ed25519\",\"kty\":\"OKP\",\"x\":\"{x}\"}}");
        let key_id = URL_SAFE_NO_PAD.encode(sha256(members.as_bytes()));
        PublicKey { bytes, key_id }
    }

    /// Reads a public key from its JWK text (`signing.pub`). A JWK that holds a secret (`d`) is
    /// refused, so a secret key is never published or trusted by mistake.
    pub fn from_jwk(text: &str) -> Result<PublicKey, SignatureError> {
        let jwk = read_jwk(text, "the public key")?;
        if jwk.d.is_some() {
            return Err(fail(
                SignatureFault::Key,
                "the public key holds a secret (\"d\"): give the `.pub` file, and keep the `.key` file private",
            ));
        }
        Ok(PublicKey::from_bytes(key_bytes(
            jwk.x.as_deref(),
            "x",
            "the public key",
        )?))
    }

    /// The key's id: its RFC 7638 JWK thumbprint (SHA-256, base64url without padding).
    pub fn key_id(&self) -> &str {
        &self.key_id
    }

    /// The key's 32 bytes.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.bytes
    }

    /// The public JWK: `{"crv":"Ed25519","kid":…,"kty":"OKP","x":…}` (`kid` is the thumbprint).
    pub fn to_jwk(&self) -> String {
        format!(
            "{{\"crv\":\"Ed25519\",\"kid\":\"{}\",\"kty\":\"OKP\",\"x\":\"{}\"}}",
            self.key_id,
            URL_SAFE_NO_PAD.encode(self.bytes)
        )
    }

    /// Whether `signature` is this key's Ed25519 signature of `message` (RFC 8032; small-order
    /// keys and non-canonical signatures are refused).
    pub fn verifies(&self, message: &[u8], signature: &[u8]) -> bool {
        let Ok(sig) = ed25519_compact::Signature::from_slice(signature) else {
            return false;
        };
        ed25519_compact::PublicKey::new(self.bytes)
            .verify(message, &sig)
            .is_ok()
    }
}

/// An Ed25519 signing key. Its `Debug` form names only the public key id; the secret leaves
/// this type only through [`SigningKey::to_jwk`].
#[derive(Clone)]
pub struct SigningKey {
    pair: ed25519_compact::KeyPair,
    public: PublicKey,
}

impl fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SigningKey({})", self.public.key_id)
    }
}

impl SigningKey {
    /// The key of a 32-byte seed (RFC 8032's secret key). `skills-edge keygen` draws the seed
    /// from the operating system's random source.
    ///
    /// # Panics
    ///
    /// On the all-zero seed, which the Ed25519 implementation refuses (check with
    /// [`SigningKey::usable_seed`] first; [`SigningKey::from_jwk`] refuses it with an error).
    pub fn from_seed(seed: [u8; 32]) -> SigningKey {
        let pair = ed25519_compact::KeyPair::from_seed(ed25519_compact::Seed::new(seed));
        let public = PublicKey::from_bytes(*pair.pk);
        SigningKey { pair, public }
    }

    /// Whether `seed` can be a key: every seed but the all-zero one.
    pub fn usable_seed(seed: &[u8; 32]) -> bool {
        seed.iter().any(|&b| b != 0)
    }

    /// Reads a signing key from its JWK text (`signing.key`): `kty` `OKP`, `crv` `Ed25519`, the
    /// seed in `d` and, if given, the matching public key in `x`. Messages never quote the text.
    pub fn from_jwk(text: &str) -> Result<SigningKey, SignatureError> {
        let jwk = read_jwk(text, "the signing key")?;
        if jwk.d.is_none() {
            return Err(fail(
                SignatureFault::Key,
                "the signing key has no secret (\"d\"): this is a public key; sign with the `.key` file `skills-edge keygen` wrote",
            ));
        }
        let seed = key_bytes(jwk.d.as_deref(), "d", "the signing key")?;
        if !SigningKey::usable_seed(&seed) {
            return Err(fail(
                SignatureFault::Key,
                "the signing key's \"d\" is all zeros, which is no Ed25519 secret: make a new key with `skills-edge keygen`",
            ));
        }
        let key = SigningKey::from_seed(seed);
        if let Some(x) = jwk.x.as_deref() {
            if key_bytes(Some(x), "x", "the signing key")? != key.public.bytes {
                return Err(fail(
                    SignatureFault::Key,
                    "the signing key's \"x\" is not the public key of its \"d\": the file is damaged; make a new key with `skills-edge keygen`",
                ));
            }
        }
        Ok(key)
    }

    /// The secret JWK, with the public key and its id: the text of `signing.key`.
    pub fn to_jwk(&self) -> String {
        format!(
            "{{\"crv\":\"Ed25519\",\"d\":\"{}\",\"kid\":\"{}\",\"kty\":\"OKP\",\"x\":\"{}\"}}",
            URL_SAFE_NO_PAD.encode(*self.pair.sk.seed()),
            self.public.key_id,
            URL_SAFE_NO_PAD.encode(self.public.bytes)
        )
    }

    /// The public half.
    pub fn public(&self) -> &PublicKey {
        &self.public
    }

    /// The deterministic Ed25519 signature of `message` (RFC 8032).
    pub fn sign(&self, message: &[u8]) -> [u8; 64] {
        *self.pair.sk.sign(message, None)
    }
}

/// DSSE's pre-authentication encoding: `"DSSEv1" SP LEN(type) SP type SP LEN(body) SP body`,
/// lengths in ASCII decimal. This, not the payload, is what is signed.
pub fn pae(payload_type: &str, body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + payload_type.len() + 32);
    out.extend_from_slice(b"DSSEv1 ");
    out.extend_from_slice(payload_type.len().to_string().as_bytes());
    out.push(b' ');
    out.extend_from_slice(payload_type.as_bytes());
    out.push(b' ');
    out.extend_from_slice(body.len().to_string().as_bytes());
    out.push(b' ');
    out.extend_from_slice(body);
    out
}

/// One subject of a statement: a file of the skill.
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

/// Reads `node` (one JSON value) as an object of the fields `names`: fields in any order,
/// unknown fields ignored, a known field given twice refused; anything else than an object
/// (an array too) is refused. Each field's value, `None` where the object lacks it.
fn record<'n, 'a, const N: usize>(
    node: &'n Node<'a>,
    names: [&'static str; N],
) -> Result<[Option<&'n Node<'a>>; N], String> {
    let mut out: [Option<&'n Node<'a>>; N] = [None; N];
    record_into(node, &names, &mut out)?;
    Ok(out)
}

/// [`record`] without the array size in its type (one copy in a binary).
fn record_into<'n, 'a>(
    node: &'n Node<'a>,
    names: &[&'static str],
    out: &mut [Option<&'n Node<'a>>],
) -> Result<(), String> {
    match &node.value {
        Json::Object(members) => {
            for (k, v) in members {
                if let Some(slot) = names
                    .iter()
                    .position(|n| *n == k)
                    .and_then(|i| out.get_mut(i))
                {
                    if slot.replace(v).is_some() {
                        return Err(format!("duplicate field `{k}`"));
                    }
                }
            }
        }
        _ => return Err(format!("{}, not an object", node.a_type())),
    }
    Ok(())
}

/// A required string field of a [`record`].
fn string(field: Option<&Node>, name: &str) -> Result<String, String> {
    let n = field.ok_or_else(|| format!("missing field `{name}`"))?;
    n.as_str()
        .map(str::to_owned)
        .ok_or_else(|| format!("`{name}` is not a string ({})", n.a_type()))
}

/// An optional string field of a [`record`]: absent or `null` is `None`.
fn optional_string(field: Option<&Node>) -> Result<Option<String>, String> {
    match field {
        Some(n) if !n.is_null() => n
            .as_str()
            .map(|s| Some(s.to_owned()))
            .ok_or_else(|| format!("a field is not a string ({})", n.a_type())),
        _ => Ok(None),
    }
}

/// A required array field of a [`record`]: its items.
fn array<'n, 'a>(field: Option<&'n Node<'a>>, name: &str) -> Result<&'n [Node<'a>], String> {
    let n = field.ok_or_else(|| format!("missing field `{name}`"))?;
    n.as_array()
        .ok_or_else(|| format!("`{name}` is not an array ({})", n.a_type()))
}

/// One JSON document.
fn document(text: &str) -> Result<Node<'_>, String> {
    json::parse(text).map_err(|e| e.to_string())
}

/// The UTF-8 text of JSON bytes; bytes that are not UTF-8 are refused, naming where the text
/// stops being UTF-8.
fn json_text(bytes: &[u8]) -> Result<&str, String> {
    std::str::from_utf8(bytes).map_err(|e| {
        format!(
            "it is not UTF-8 text (byte {} is not valid UTF-8)",
            e.valid_up_to()
        )
    })
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

fn write_str(s: &str, out: &mut String) {
    // The string form serde_json writes too: `\"`, `\\`, the short escapes and `\u00XX` for
    // control characters, nothing else escaped.
    write_json_string(s, out);
}

fn is_hex_digest(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

impl Statement {
    /// The statement's JSON: the bytes that are signed. Field order is fixed, so the same
    /// statement always gives the same bytes (verifiers never rely on it: they verify the bytes
    /// they received).
    pub fn to_json(&self) -> String {
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

    /// Reads a statement of this version: `_type` [`STATEMENT_TYPE`], `predicateType`
    /// [`PREDICATE_TYPE`], every subject with a `name` and a `digest.sha256` of 64 lowercase
    /// hex characters, no two subjects with one name, and the predicate's three strings.
    pub fn parse(bytes: &[u8]) -> Result<Statement, SignatureError> {
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
        // A hash set of borrowed names, the shape the host's entry reader uses for its URIs.
        let mut names: HashSet<&str> = HashSet::with_capacity(json.subject.len());
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

/// One signature of an envelope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnvelopeSignature {
    /// The signer's key id (a hint, see the module's notes); empty when unset.
    pub keyid: String,
    /// The signature's bytes.
    pub sig: Vec<u8>,
}

/// A DSSE envelope: the payload, its type, and its signatures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Envelope {
    /// The payload's type (authenticated: it is part of what is signed).
    pub payload_type: String,
    /// The serialized body.
    pub payload: Vec<u8>,
    /// The signatures, in order.
    pub signatures: Vec<EnvelopeSignature>,
}

/// An envelope's fields as read (before base64 decoding): payload, payloadType, and each
/// signature's keyid and sig.
struct EnvelopeJson {
    payload: String,
    payload_type: String,
    signatures: Vec<(Option<String>, String)>,
}

fn read_envelope(bytes: &[u8]) -> Result<EnvelopeJson, String> {
    let doc = document(json_text(bytes)?)?;
    let [payload, payload_type, signatures] =
        record(&doc, ["payload", "payloadType", "signatures"])?;
    let payload = string(payload, "payload")?;
    let payload_type = string(payload_type, "payloadType")?;
    let mut sigs = Vec::new();
    for item in array(signatures, "signatures")? {
        let [keyid, sig] = record(item, ["keyid", "sig"])?;
        sigs.push((optional_string(keyid)?, string(sig, "sig")?));
    }
    Ok(EnvelopeJson {
        payload,
        payload_type,
        signatures: sigs,
    })
}

impl Envelope {
    /// Signs `statement` with `key`: the statement's JSON as the payload, [`PAYLOAD_TYPE`], and
    /// one signature over their [`pae`] naming the key's id.
    pub fn sign(statement: &Statement, key: &SigningKey) -> Envelope {
        let payload = statement.to_json().into_bytes();
        let sig = key.sign(&pae(PAYLOAD_TYPE, &payload)).to_vec();
        Envelope {
            payload_type: PAYLOAD_TYPE.to_owned(),
            payload,
            signatures: vec![EnvelopeSignature {
                keyid: key.public().key_id().to_owned(),
                sig,
            }],
        }
    }

    /// The envelope's JSON: `{"payloadType":…,"payload":…,"signatures":[{"keyid":…,"sig":…}]}`,
    /// base64 in the standard alphabet with padding.
    pub fn to_json(&self) -> String {
        let mut out = String::with_capacity(self.payload.len() * 4 / 3 + 256);
        out.push_str("{\"payloadType\":");
        write_str(&self.payload_type, &mut out);
        out.push_str(",\"payload\":\"");
        STANDARD_PADDED.encode_string(&self.payload, &mut out);
        out.push_str("\",\"signatures\":[");
        for (i, s) in self.signatures.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"keyid\":");
            write_str(&s.keyid, &mut out);
            out.push_str(",\"sig\":\"");
            STANDARD_PADDED.encode_string(&s.sig, &mut out);
            out.push_str("\"}");
        }
        out.push_str("]}");
        out
    }

    /// Reads an envelope's JSON (DSSE's parsing rules: `payload`, `payloadType`, `signatures`
    /// and each `sig` required, `keyid` optional, unknown fields ignored, either base64
    /// alphabet), at most [`MAX_ENVELOPE_BYTES`].
    pub fn parse(json: &[u8]) -> Result<Envelope, SignatureError> {
        let bad = |what: String| fail(SignatureFault::Envelope, what);
        if json.len() > MAX_ENVELOPE_BYTES {
            return Err(bad(format!(
                "the signature envelope is {} bytes, more than {MAX_ENVELOPE_BYTES}",
                json.len()
            )));
        }
        let e = read_envelope(json)
            .map_err(|e| bad(format!("the signature envelope is not DSSE JSON: {e}")))?;
        let payload = decode_any(&e.payload)
            .ok_or_else(|| bad("the signature envelope's payload is not base64".into()))?;
        let mut signatures = Vec::with_capacity(e.signatures.len());
        for (i, (keyid, sig)) in e.signatures.into_iter().enumerate() {
            let sig = decode_any(&sig).ok_or_else(|| {
                bad(format!(
                    "the signature envelope's signatures[{i}].sig is not base64"
                ))
            })?;
            signatures.push(EnvelopeSignature {
                keyid: keyid.unwrap_or_default(),
                sig,
            });
        }
        Ok(Envelope {
            payload_type: e.payload_type,
            payload,
            signatures,
        })
    }

    /// Verifies the envelope against `key` and reads its statement: the payload type must be
    /// [`PAYLOAD_TYPE`], a signature whose `keyid` is `key`'s id must verify over the
    /// [`pae`] of the type and payload, and the payload must be a [`Statement`] of this
    /// version. Whether the statement matches the skill is the caller's check.
    pub fn verify(&self, key: &PublicKey) -> Result<Statement, SignatureError> {
        if self.payload_type != PAYLOAD_TYPE {
            return Err(fail(
                SignatureFault::PayloadType,
                format!(
                    "the signature envelope's payloadType is {:?}, not {PAYLOAD_TYPE:?}",
                    self.payload_type
                ),
            ));
        }
        let mut named = self
            .signatures
            .iter()
            .filter(|s| s.keyid == key.key_id())
            .peekable();
        if named.peek().is_none() {
            return Err(fail(
                SignatureFault::NoSignatureByKey,
                format!(
                    "the signature envelope has no signature by key {}",
                    key.key_id()
                ),
            ));
        }
        let message = pae(&self.payload_type, &self.payload);
        if !named.any(|s| key.verifies(&message, &s.sig)) {
            return Err(fail(
                SignatureFault::BadSignature,
                format!(
                    "the signature by key {} does not verify: the envelope was changed after signing",
                    key.key_id()
                ),
            ));
        }
        Statement::parse(&self.payload)
    }

    /// The key ids the envelope's signatures name, in order (hints: see the module's notes).
    pub fn key_ids(&self) -> impl Iterator<Item = &str> {
        self.signatures.iter().map(|s| s.keyid.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // RFC 8037 Appendix A.1–A.3: the Ed25519 key, and its thumbprint.
    const RFC8037_SECRET: &str = r#"{"kty":"OKP","crv":"Ed25519","d":"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#;
    const RFC8037_PUBLIC: &str =
        r#"{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#;

    #[test]
    fn rfc8037_key_thumbprint_and_signature() {
        let key = SigningKey::from_jwk(RFC8037_SECRET).unwrap();
        let public = PublicKey::from_jwk(RFC8037_PUBLIC).unwrap();
        assert_eq!(key.public(), &public);
        assert_eq!(
            public.key_id(),
            "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k"
        );
        // A.4: the JWS signing input and its signature.
        let input = b"eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc";
        let sig = URL_SAFE_NO_PAD
            .decode("hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg")
            .unwrap();
        assert_eq!(key.sign(input).to_vec(), sig);
        assert!(public.verifies(input, &sig));
        assert!(!public.verifies(
            b"eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmC",
            &sig
        ));
    }

    #[test]
    fn jwk_round_trip_and_refusals() {
        let key = SigningKey::from_seed([7; 32]);
        let again = SigningKey::from_jwk(&key.to_jwk()).unwrap();
        assert_eq!(again.public(), key.public());
        assert_eq!(
            PublicKey::from_jwk(&key.public().to_jwk()).unwrap(),
            *key.public()
        );
        let secret_as_public = PublicKey::from_jwk(&key.to_jwk()).unwrap_err();
        assert!(secret_as_public.message.contains("holds a secret"));
        let public_as_secret = SigningKey::from_jwk(&key.public().to_jwk()).unwrap_err();
        assert!(public_as_secret.message.contains("no secret"));
        for bad in [
            "",
            "[]",
            r#"{"kty":"EC","crv":"P-256","x":"AA"}"#,
            r#"{"kty":"OKP","crv":"X25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#,
            r#"{"kty":"OKP","crv":"Ed25519","x":"short"}"#,
            r#"{"kty":"OKP","crv":"Ed25519"}"#,
            r#"{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo=="}"#,
        ] {
            assert_eq!(
                PublicKey::from_jwk(bad).unwrap_err().fault,
                SignatureFault::Key,
                "{bad}"
            );
        }
        // A damaged secret file: x that is not d's public key.
        let mismatched = format!(
            "{{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"d\":\"{}\",\"x\":\"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo\"}}",
            URL_SAFE_NO_PAD.encode([9u8; 32])
        );
        assert!(SigningKey::from_jwk(&mismatched)
            .unwrap_err()
            .message
            .contains("damaged"));
        // The all-zero seed is refused, not a panic.
        let zero = format!(
            "{{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"d\":\"{}\"}}",
            URL_SAFE_NO_PAD.encode([0u8; 32])
        );
        let e = SigningKey::from_jwk(&zero).unwrap_err();
        assert_eq!(e.fault, SignatureFault::Key);
        assert!(e.message.contains("all zeros"), "{}", e.message);
        assert!(
            !SigningKey::usable_seed(&[0; 32])
                && SigningKey::usable_seed(
                    &[0; 31]
                        .into_iter()
                        .chain([1])
                        .collect::<Vec<_>>()
                        .try_into()
                        .unwrap()
                )
        );
    }

    #[test]
    fn messages_never_quote_a_secret() {
        let d = URL_SAFE_NO_PAD.encode([42u8; 32]);
        for text in [
            format!("{{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"d\":\"{d}\",\"x\":1}}"),
            format!("{{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"d\":\"{d}\""),
            format!("{{\"kty\":\"RSA\",\"d\":\"{d}\"}}"),
            format!("{{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"d\":\"{d}x\"}}"),
        ] {
            let e = SigningKey::from_jwk(&text).unwrap_err();
            assert!(!e.message.contains(&d), "{}", e.message);
            assert!(!format!("{e:?}").contains(&d));
        }
        let key = SigningKey::from_seed([42; 32]);
        assert!(!format!("{key:?}").contains(&d));
    }

    #[test]
    fn pae_matches_the_dsse_test_vector() {
        assert_eq!(
            pae("http://example.com/HelloWorld", b"hello world"),
            b"DSSEv1 29 http://example.com/HelloWorld 11 hello world".to_vec()
        );
        assert_eq!(pae("", b""), b"DSSEv1 0  0 ".to_vec());
    }

    fn statement() -> Statement {
        Statement {
            skill: "skill://code-review/SKILL.md".into(),
            revision: "sha256:00".into(),
            catalog: "acme".into(),
            subjects: vec![
                Subject {
                    name: "skill://code-review/SKILL.md".into(),
                    sha256: "ab".repeat(32),
                },
                Subject {
                    name: "skill://code-review/references/\"q\".md".into(),
                    sha256: "cd".repeat(32),
                },
            ],
        }
    }

    #[test]
    fn sign_then_verify_and_every_tampering_fails() {
        let key = SigningKey::from_seed([1; 32]);
        let env = Envelope::sign(&statement(), &key);
        let parsed = Envelope::parse(env.to_json().as_bytes()).unwrap();
        assert_eq!(parsed, env);
        assert_eq!(parsed.verify(key.public()).unwrap(), statement());

        let other = SigningKey::from_seed([2; 32]);
        assert_eq!(
            parsed.verify(other.public()).unwrap_err().fault,
            SignatureFault::NoSignatureByKey
        );
        let mut t = parsed.clone();
        t.payload_type = "application/json".into();
        assert_eq!(
            t.verify(key.public()).unwrap_err().fault,
            SignatureFault::PayloadType
        );
        let mut t = parsed.clone();
        let at = t.payload.len() / 2;
        t.payload[at] ^= 1;
        assert_eq!(
            t.verify(key.public()).unwrap_err().fault,
            SignatureFault::BadSignature
        );
        let mut t = parsed.clone();
        t.signatures[0].sig[0] ^= 1;
        assert_eq!(
            t.verify(key.public()).unwrap_err().fault,
            SignatureFault::BadSignature
        );
        let mut t = parsed.clone();
        t.signatures[0].keyid.clear();
        assert_eq!(
            t.verify(key.public()).unwrap_err().fault,
            SignatureFault::NoSignatureByKey
        );
        // Another key's valid signature beside the right one does not hide it.
        let mut t = parsed.clone();
        t.signatures.insert(
            0,
            Envelope::sign(&statement(), &other).signatures[0].clone(),
        );
        assert!(t.verify(key.public()).is_ok());
    }

    #[test]
    fn either_base64_alphabet_is_read() {
        let key = SigningKey::from_seed([3; 32]);
        let env = Envelope::sign(&statement(), &key);
        let url = format!(
            "{{\"payload\":\"{}\",\"payloadType\":\"{}\",\"signatures\":[{{\"keyid\":\"{}\",\"sig\":\"{}\"}}],\"extra\":1}}",
            URL_SAFE_NO_PAD.encode(&env.payload),
            PAYLOAD_TYPE,
            key.public().key_id(),
            URL_SAFE_NO_PAD.encode(&env.signatures[0].sig)
        );
        assert_eq!(Envelope::parse(url.as_bytes()).unwrap(), env);
    }

    /// The record reader: unknown fields ignored (also when given twice) but checked as JSON,
    /// a known field given twice refused, `null` for an optional field; an array where an
    /// envelope, a statement or a key is expected is refused.
    #[test]
    fn records_are_objects_with_each_known_field_once() {
        let key = SigningKey::from_seed([3; 32]);
        let env = Envelope::sign(&statement(), &key);
        let (payload, sig) = (
            STANDARD_PADDED.encode(&env.payload),
            STANDARD_PADDED.encode(&env.signatures[0].sig),
        );
        let id = key.public().key_id();
        let read = |text: String| Envelope::parse(text.as_bytes());
        let object = read(format!(
            r#"{{"x":1,"signatures":[{{"sig":"{sig}","keyid":"{id}","x":[]}}],"x":{{}},"payloadType":"{PAYLOAD_TYPE}","payload":"{payload}"}}"#
        ));
        assert_eq!(object.unwrap(), env);
        let no_keyid = read(format!(
            r#"{{"payload":"{payload}","payloadType":"{PAYLOAD_TYPE}","signatures":[{{"keyid":null,"sig":"{sig}"}}]}}"#
        ))
        .unwrap();
        assert_eq!(no_keyid.signatures[0].keyid, "");
        for bad in [
            format!(r#"["{payload}","{PAYLOAD_TYPE}",[["{id}","{sig}"]]]"#),
            format!(
                r#"{{"payload":"{payload}","payloadType":"{PAYLOAD_TYPE}","signatures":[["{id}","{sig}"]]}}"#
            ),
            format!(r#"["{payload}","{PAYLOAD_TYPE}"]"#),
            format!(r#"["{payload}","{PAYLOAD_TYPE}",[],1]"#),
            format!(r#"["{payload}","{PAYLOAD_TYPE}",[["{sig}"]]]"#),
            format!(
                r#"{{"payload":"{payload}","payloadType":"{PAYLOAD_TYPE}","signatures":[],"x":[1,]}}"#
            ),
            format!(
                r#"{{"payload":"{payload}","payloadType":"{PAYLOAD_TYPE}","signatures":[{{"sig":"{sig}","sig":"{sig}"}}]}}"#
            ),
            format!(
                r#"{{"payload":"{payload}","payloadType":"{PAYLOAD_TYPE}","signatures":{{}}}}"#
            ),
            format!(r#"{{"payload":1,"payloadType":"{PAYLOAD_TYPE}","signatures":[]}}"#),
            format!(r#""{payload}""#),
        ] {
            let e = read(bad.clone()).unwrap_err();
            assert_eq!(e.fault, SignatureFault::Envelope, "{bad}");
            assert!(
                e.message
                    .starts_with("the signature envelope is not DSSE JSON: "),
                "{}",
                e.message
            );
        }
        let e = read(format!(
            r#"{{"payload":"{payload}","payloadType":"{PAYLOAD_TYPE}","signatures":[{{"keyid":"{id}","sig":"{sig}"}}],"payload":"{payload}"}}"#
        ))
        .unwrap_err();
        assert!(
            e.message.contains("duplicate field `payload`"),
            "{}",
            e.message
        );

        // Keys: the same rules; a JWK is an object (RFC 7517 §4), never an array.
        let public = key.public().to_jwk();
        let x = URL_SAFE_NO_PAD.encode(key.public().as_bytes());
        assert_eq!(
            PublicKey::from_jwk(&public.replace("{", r#"{"use":1,"use":2,"#)).unwrap(),
            *key.public()
        );
        for bad in [
            format!(r#"["OKP","Ed25519","{x}",null]"#),
            format!(r#"["OKP","Ed25519","{x}"]"#),
            public.replace("{", r#"{"kty":"OKP","#),
            public.replace("\"kty\":\"OKP\"", "\"kty\":1"),
        ] {
            assert_eq!(
                PublicKey::from_jwk(&bad).unwrap_err().fault,
                SignatureFault::Key,
                "{bad}"
            );
        }
    }

    /// A signer who writes an in-toto statement in serde's array form (one item per field)
    /// and signs it: the signature verifies, the statement is refused.
    #[test]
    fn a_signer_that_signs_a_statement_written_as_an_array_is_refused() {
        let key = SigningKey::from_seed([4; 32]);
        let object = statement().to_json();
        let good = Envelope::sign(&statement(), &key);
        assert_eq!(good.verify(key.public()).unwrap(), statement());
        let array = format!(
            r#"["{STATEMENT_TYPE}",[["skill://code-review/SKILL.md",["{}"]]],"{PREDICATE_TYPE}",["skill://code-review/SKILL.md","sha256:00","acme"]]"#,
            "ab".repeat(32)
        );
        let nested = object.replace(
            r#"{"sha256":"abababababababababababababababababababababababababababababababab"}"#,
            &format!(r#"["{}"]"#, "ab".repeat(32)),
        );
        assert_ne!(nested, object);
        for payload in [array, nested] {
            let signed = Envelope {
                payload_type: PAYLOAD_TYPE.into(),
                signatures: vec![EnvelopeSignature {
                    keyid: key.public().key_id().into(),
                    sig: key.sign(&pae(PAYLOAD_TYPE, payload.as_bytes())).to_vec(),
                }],
                payload: payload.into_bytes(),
            };
            let e = signed.verify(key.public()).unwrap_err();
            assert_eq!(e.fault, SignatureFault::Statement, "{}", e.message);
            assert!(e.message.contains("not an object"), "{}", e.message);
        }
    }

    #[test]
    fn malformed_envelopes_and_statements_are_refused() {
        for bad in [
            &b"{}"[..],
            b"null",
            b"{\"payload\":\"e30=\",\"payloadType\":\"x\"}",
            b"{\"payload\":\"e30=\",\"payloadType\":\"x\",\"signatures\":[{}]}",
            b"{\"payload\":\"!!\",\"payloadType\":\"x\",\"signatures\":[]}",
            b"{\"payload\":\"e30=\",\"payload\":\"e30=\",\"payloadType\":\"x\",\"signatures\":[]}",
        ] {
            assert_eq!(
                Envelope::parse(bad).unwrap_err().fault,
                SignatureFault::Envelope
            );
        }
        let huge = vec![b' '; MAX_ENVELOPE_BYTES + 1];
        assert_eq!(
            Envelope::parse(&huge).unwrap_err().fault,
            SignatureFault::Envelope
        );

        let good = statement().to_json();
        assert_eq!(Statement::parse(good.as_bytes()).unwrap(), statement());
        for bad in [
            good.replace(STATEMENT_TYPE, "https://in-toto.io/Statement/v0.1"),
            good.replace(PREDICATE_TYPE, "https://slsa.dev/provenance/v1"),
            good.replace(&"ab".repeat(32), &"AB".repeat(32)),
            good.replace("\"sha256\":", "\"sha512\":"),
            good.replace("references/\\\"q\\\".md", "SKILL.md"),
            good.replace("\"catalog\":\"acme\"", "\"catalog\":1"),
            good.replace("{\"skill\":", "{\"skill\":\"x\",\"skill\":"),
        ] {
            assert_eq!(
                Statement::parse(bad.as_bytes()).unwrap_err().fault,
                SignatureFault::Statement,
                "{bad}"
            );
        }

        // Bytes that are not UTF-8 (inside a string or outside one) are refused, naming where.
        let mut latin1 = good.clone().into_bytes();
        let at = good.find("acme").unwrap();
        latin1[at] = 0xe9;
        let e = Statement::parse(&latin1).unwrap_err();
        assert_eq!(e.fault, SignatureFault::Statement);
        assert!(
            e.message.contains(&format!("byte {at} is not valid UTF-8")),
            "{}",
            e.message
        );
        let e = Envelope::parse(b"{\"payload\":\"e30=\"\xff}").unwrap_err();
        assert_eq!(e.fault, SignatureFault::Envelope);
        assert!(
            e.message.contains("not UTF-8 text (byte 17"),
            "{}",
            e.message
        );
    }
}
