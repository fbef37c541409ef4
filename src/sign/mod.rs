//! Signed skills: what a signature covers, and the one implementation of its format, shared by
//! the compiler (which signs at build time) and the host (which verifies).
//!
//! A skill's signature is an [in-toto v1 Statement] whose subjects are the skill's files (`name`
//! = the file's `skill://` URI, `digest.sha256` = the hex of the digest the entry publishes) and
//! whose predicate ([`PREDICATE_TYPE`]) names the skill's URI, its revision and the catalog's
//! identity. The statement is the payload of a [DSSE] envelope (`payloadType`
//! [`PAYLOAD_TYPE`], as the in-toto envelope layer requires) signed with Ed25519 over DSSE's
//! pre-authentication encoding (`pae`).
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
use std::collections::BTreeSet;
use std::fmt;

mod envelope;
mod key;
mod statement;
#[cfg_attr(feature = "internals", visibility::make(pub))]
pub(crate) use envelope::pae;
pub use envelope::{Envelope, EnvelopeSignature};
pub use key::{PublicKey, SigningKey};
pub use statement::{Statement, Subject};

/// The in-toto Statement type this version writes and reads.
pub(crate) const STATEMENT_TYPE: &str = "https://in-toto.io/Statement/v1";
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
pub(crate) const MAX_ENVELOPE_BYTES: usize = 1 << 20;
/// The most bytes a key's JWK may have.
pub(crate) const MAX_JWK_BYTES: usize = 4096;

/// What is wrong with a key, an envelope or a statement. The message never holds secret key
/// material.
///
/// ```
/// use skills_edge::catalog::sign::{PublicKey, SignatureFault, SigningKey};
/// let secret = SigningKey::from_seed([7; 32]).to_jwk();
/// let e = PublicKey::from_jwk(&secret).unwrap_err();
/// assert_eq!(e.fault, SignatureFault::Key);
/// assert!(e.message.starts_with("the public key holds a secret"));
/// assert!(!e.to_string().contains(&secret[..20]), "never quotes the key");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureError {
    /// Which check failed.
    pub fault: SignatureFault,
    /// What was wrong, where, and what to do.
    pub message: String,
}

/// The checks a [`SignatureError`] reports, one per way a signature can fail.
///
/// ```
/// use skills_edge::catalog::sign::{Envelope, SignatureFault, SigningKey, Statement};
/// let key = SigningKey::from_seed([7; 32]);
/// let statement = Statement { skill: "skill://hello/SKILL.md".into(), revision: "1".into(), catalog: "acme".into(), subjects: vec![] };
/// let mut envelope = Envelope::sign(&statement, &key);
/// let other = SigningKey::from_seed([8; 32]);
/// assert_eq!(envelope.verify(other.public()).unwrap_err().fault, SignatureFault::NoSignatureByKey);
/// envelope.payload[0] ^= 1;
/// let fault = envelope.verify(key.public()).unwrap_err().fault;
/// assert_eq!((fault, fault.as_str()), (SignatureFault::BadSignature, "bad-signature"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignatureFault {
    /// A key that is not an Ed25519 JWK (or a secret where a public key belongs).
    Key,
    /// An envelope that is not DSSE JSON (bad JSON, a missing field, bad base64, too large).
    Envelope,
    /// An envelope whose `payloadType` is not `PAYLOAD_TYPE`.
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
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn as_str(self) -> &'static str {
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
                    && slot.replace(v).is_some()
                {
                    return Err(format!("duplicate field `{k}`"));
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

fn write_str(s: &str, out: &mut String) {
    // The string form serde_json writes too: `\"`, `\\`, the short escapes and `\u00XX` for
    // control characters, nothing else escaped.
    write_json_string(s, out);
}

#[cfg(test)]
mod tests;
