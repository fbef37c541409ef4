//! The DSSE envelope: its JSON, its pre-authentication encoding (PAE), signing and verifying.

use super::*;

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

/// One signature of an envelope.
///
/// ```
/// use skills_edge::catalog::sign::{Envelope, SigningKey, Statement};
/// let key = SigningKey::from_seed([7; 32]);
/// # let statement = Statement { skill: "skill://hello/SKILL.md".into(), revision: "1".into(), catalog: "acme".into(), subjects: vec![] };
/// let envelope = Envelope::sign(&statement, &key);
/// let signature = &envelope.signatures[0];
/// assert_eq!(signature.keyid, key.public().key_id(), "names its signer");
/// assert_eq!(signature.sig.len(), 64, "an Ed25519 signature");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnvelopeSignature {
    /// The signer's key id (a hint, see the module's notes); empty when unset.
    pub keyid: String,
    /// The signature's bytes.
    pub sig: Vec<u8>,
}

/// A DSSE envelope: the payload, its type, and its signatures.
///
/// ```
/// use skills_edge::catalog::sign::{Envelope, SigningKey, Statement, PAYLOAD_TYPE};
/// let key = SigningKey::from_seed([7; 32]);
/// let statement = Statement { skill: "skill://hello/SKILL.md".into(), revision: "1".into(), catalog: "acme".into(), subjects: vec![] };
/// let json = Envelope::sign(&statement, &key).to_json();
/// assert!(json.starts_with(r#"{"payloadType":"application/vnd.in-toto+json","payload":""#));
/// let envelope = Envelope::parse(json.as_bytes()).unwrap();
/// assert_eq!(envelope.payload_type, PAYLOAD_TYPE);
/// assert_eq!(envelope.verify(key.public()).unwrap(), statement);
/// assert_eq!(envelope.key_ids().collect::<Vec<_>>(), [key.public().key_id()]);
/// ```
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
    /// one signature over their `pae` naming the key's id.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn sign(statement: &Statement, key: &SigningKey) -> Envelope {
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
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn to_json(&self) -> String {
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
    /// alphabet), at most `MAX_ENVELOPE_BYTES`.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn parse(json: &[u8]) -> Result<Envelope, SignatureError> {
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
    /// `pae` of the type and payload, and the payload must be a [`Statement`] of this
    /// version. Whether the statement matches the skill is the caller's check.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn verify(&self, key: &PublicKey) -> Result<Statement, SignatureError> {
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
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn key_ids(&self) -> impl Iterator<Item = &str> {
        self.signatures.iter().map(|s| s.keyid.as_str())
    }
}
