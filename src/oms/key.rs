//! The keys of OpenSSF Model Signing's key mode: ECDSA on NIST P-256, in the PEM files
//! `model_signing sign key --private_key` and `model_signing verify key --public_key` read.
//!
//! `model_signing` 1.1.1 (`_signing/sign_ec_key.py`) accepts elliptic-curve keys only, on
//! `secp256r1`, `secp384r1` or `secp521r1`, loaded with `cryptography`'s
//! `load_pem_private_key` / `load_pem_public_key`. Ed25519 keys are refused there (they have no
//! curve), so the catalog's Ed25519 key cannot sign an OMS bundle. This module makes and reads
//! P-256 keys, the smallest of the three, signed with SHA-256 as `model_signing` pairs them:
//!
//! - the secret: PKCS#8 (`-----BEGIN PRIVATE KEY-----`), with its public key, as OpenSSL and
//!   `cryptography` write it; SEC 1 (`-----BEGIN EC PRIVATE KEY-----`, `openssl ecparam
//!   -genkey`) is read too;
//! - the public key: X.509 SubjectPublicKeyInfo (`-----BEGIN PUBLIC KEY-----`), base64 in lines
//!   of 64 characters, as `cryptography` writes it. The SHA-256 of exactly that text, in hex,
//!   is the bundle's key hint ([`OmsPublicKey::hint`]).
//!
//! The DER forms of one curve are fixed byte strings around the key material, so they are
//! matched whole: anything else (another curve, an RSA key, a certificate) is refused by name.

use super::{fail, OmsError};
use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use p256::ecdsa::signature::{Signer as _, Verifier as _};
use p256::ecdsa::{Signature, SigningKey, VerifyingKey};
use sha2::{Digest as _, Sha256};

/// SubjectPublicKeyInfo of an id-ecPublicKey on prime256v1, before the 65-byte point.
const SPKI_PREFIX: [u8; 26] = [
    0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a,
    0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
];
/// PKCS#8 PrivateKeyInfo of a P-256 key with its public key, before the 32-byte scalar.
const PKCS8_PREFIX: [u8; 36] = [
    0x30, 0x81, 0x87, 0x02, 0x01, 0x00, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02,
    0x01, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x04, 0x6d, 0x30, 0x6b, 0x02,
    0x01, 0x01, 0x04, 0x20,
];
/// PKCS#8 PrivateKeyInfo of a P-256 key without its public key, before the scalar.
const PKCS8_BARE_PREFIX: [u8; 35] = [
    0x30, 0x41, 0x02, 0x01, 0x00, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01,
    0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x04, 0x27, 0x30, 0x25, 0x02, 0x01,
    0x01, 0x04, 0x20,
];
/// Between the scalar and the point in PKCS#8 (`[1] BIT STRING`).
const PKCS8_PUBLIC: [u8; 5] = [0xa1, 0x44, 0x03, 0x42, 0x00];
/// SEC 1 ECPrivateKey with the named curve and the public key, before the scalar.
const SEC1_PREFIX: [u8; 7] = [0x30, 0x77, 0x02, 0x01, 0x01, 0x04, 0x20];
/// Between the scalar and the point in SEC 1 (`[0] prime256v1`, `[1] BIT STRING`).
const SEC1_MIDDLE: [u8; 17] = [
    0xa0, 0x0a, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0xa1, 0x44, 0x03, 0x42,
    0x00,
];

/// The most bytes a PEM key file may have (a P-256 key is under 300).
pub(crate) const MAX_PEM_BYTES: usize = 16 * 1024;

/// An OMS signing key: ECDSA P-256 (its `Debug` shows only the public key's hint).
///
/// ```
/// use skills_edge::catalog::oms::OmsSigningKey;
/// let key = OmsSigningKey::from_scalar(&[9; 32]).unwrap();
/// let pem = key.to_pem();
/// assert!(pem.starts_with("-----BEGIN PRIVATE KEY-----"));
/// let again = OmsSigningKey::from_pem(&pem, "oms.key").unwrap();
/// assert_eq!(again.public(), key.public());
/// assert_eq!(format!("{key:?}"), format!("OmsSigningKey({})", key.public().hint()));
/// assert!(OmsSigningKey::from_scalar(&[0; 32]).is_none(), "zero is no P-256 secret");
/// ```
#[derive(Clone)]
pub struct OmsSigningKey {
    secret: SigningKey,
    public: OmsPublicKey,
}

impl std::fmt::Debug for OmsSigningKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "OmsSigningKey({})", self.public.hint())
    }
}

/// An OMS public key: ECDSA P-256.
///
/// ```
/// use skills_edge::catalog::oms::{OmsPublicKey, OmsSigningKey};
/// let key = OmsSigningKey::from_scalar(&[9; 32]).unwrap();
/// let pem = key.public().to_pem();
/// assert!(pem.starts_with("-----BEGIN PUBLIC KEY-----"));
/// let public = OmsPublicKey::from_pem(&pem, "oms.pub").unwrap();
/// assert_eq!(public.hint().len(), 64, "the SHA-256 of the PEM, in hex");
/// assert!(OmsPublicKey::from_pem(&key.to_pem(), "oms.pub").is_err(), "a secret is refused");
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct OmsPublicKey {
    key: VerifyingKey,
}

impl std::fmt::Debug for OmsPublicKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "OmsPublicKey({})", self.hint())
    }
}

/// The base64 text of a PEM block labelled `label`, as lines of 64 characters.
fn pem(label: &str, der: &[u8]) -> String {
    let b64 = STANDARD.encode(der);
    let mut out = format!("-----BEGIN {label}-----\n");
    for line in b64.as_bytes().chunks(64) {
        out.push_str(std::str::from_utf8(line).unwrap_or_default());
        out.push('\n');
    }
    out.push_str(&format!("-----END {label}-----\n"));
    out
}

/// The one PEM block of `text`: its label and its bytes. Text around the block is refused,
/// like a second block: a key file holds one key.
fn read_pem(text: &str, what: &str) -> Result<(String, Vec<u8>), OmsError> {
    let bad = |why: &str| fail(format!("{what} is not a PEM key: {why}"));
    if text.len() > MAX_PEM_BYTES {
        return Err(bad(&format!("it has more than {MAX_PEM_BYTES} bytes")));
    }
    let text = text.trim();
    let rest = text
        .strip_prefix("-----BEGIN ")
        .ok_or_else(|| bad("it does not start with -----BEGIN"))?;
    let (label, rest) = rest
        .split_once("-----")
        .ok_or_else(|| bad("its BEGIN line is not closed by -----"))?;
    let end = format!("-----END {label}-----");
    let body = rest.strip_suffix(end.as_str()).ok_or_else(|| {
        bad(&format!(
            "it does not end with {end}, or holds more than one block"
        ))
    })?;
    let b64: String = body.split_ascii_whitespace().collect();
    let der = STANDARD
        .decode(b64)
        .map_err(|_| bad("its body is not base64"))?;
    Ok((label.to_owned(), der))
}

fn not_a_key(label: &str, what: &str, want: &str) -> OmsError {
    if label == "CERTIFICATE" || label == "TRUSTED CERTIFICATE" {
        return fail(format!("{what} is a certificate, not a key: OMS key mode checks a {want} (`model_signing verify key --public_key`); a certificate chain is `model_signing verify certificate`, which this verifier does not implement\n  fix: give the signer's public key, e.g. `openssl x509 -in CERT -pubkey -noout`"));
    }
    fail(format!(
        "{what} is a PEM {label:?} block, not a {want}\n  fix: give the {want} (`skills-edge keygen --oms` writes oms.key and oms.pub)"
    ))
}

impl OmsSigningKey {
    /// The key of a 32-byte secret scalar; `None` when it is not one (zero, or not below the
    /// group order): draw again.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn from_scalar(scalar: &[u8; 32]) -> Option<OmsSigningKey> {
        let secret = SigningKey::from_slice(scalar).ok()?;
        let public = OmsPublicKey {
            key: *secret.verifying_key(),
        };
        Some(OmsSigningKey { secret, public })
    }

    /// Reads a PEM secret key: PKCS#8 or SEC 1, P-256, with or without (PKCS#8) its public
    /// key; a public key given is checked against the secret. `what` names the file.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn from_pem(text: &str, what: &str) -> Result<OmsSigningKey, OmsError> {
        let (label, der) = read_pem(text, what)?;
        let want = "P-256 private key (PKCS#8 PEM)";
        let (scalar, point) = match label.as_str() {
            "PRIVATE KEY" => {
                if let Some(rest) = der.strip_prefix(&PKCS8_PREFIX[..]) {
                    let (scalar, point) = rest.split_at_checked(32).unwrap_or((rest, &[]));
                    (scalar, point.strip_prefix(&PKCS8_PUBLIC[..]))
                } else if let Some(rest) = der.strip_prefix(&PKCS8_BARE_PREFIX[..]) {
                    (rest, Some(&[][..]))
                } else {
                    return Err(fail(format!("{what} is a private key, but not ECDSA P-256 (the curve `model_signing` verifies that skills-edge signs with)\n  fix: make one with `skills-edge keygen --oms` or `openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256`")));
                }
            }
            "EC PRIVATE KEY" => {
                let rest = der.strip_prefix(&SEC1_PREFIX[..]).ok_or_else(|| {
                    fail(format!("{what} is an EC private key, but not on P-256 with its named curve and public key"))
                })?;
                let (scalar, point) = rest.split_at_checked(32).unwrap_or((rest, &[]));
                (scalar, point.strip_prefix(&SEC1_MIDDLE[..]))
            }
            "PUBLIC KEY" => {
                return Err(fail(format!("{what} is a public key: signing needs the private key\n  fix: give oms.key (oms.pub is its public half)")))
            }
            "ENCRYPTED PRIVATE KEY" => {
                return Err(fail(format!("{what} is encrypted: the build signs without a password\n  fix: give an unencrypted key file, kept as a secret of the build")))
            }
            other => return Err(not_a_key(other, what, want)),
        };
        let (Ok(scalar), Some(point)) = (<[u8; 32]>::try_from(scalar), point) else {
            return Err(fail(format!(
                "{what}: the P-256 private key is truncated or has bytes after it"
            )));
        };
        let key = OmsSigningKey::from_scalar(&scalar)
            .ok_or_else(|| fail(format!("{what}: the private scalar is not a P-256 key")))?;
        if !point.is_empty() && point != key.public.point().as_slice() {
            return Err(fail(format!(
                "{what}: the public key in the file is not the private key's: the file is damaged"
            )));
        }
        Ok(key)
    }

    /// The secret as PKCS#8 PEM, with its public key (what OpenSSL and `cryptography` write).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn to_pem(&self) -> String {
        let mut der = PKCS8_PREFIX.to_vec();
        der.extend_from_slice(&self.secret.to_bytes());
        der.extend_from_slice(&PKCS8_PUBLIC);
        der.extend_from_slice(&self.public.point());
        pem("PRIVATE KEY", &der)
    }

    /// The public half.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn public(&self) -> &OmsPublicKey {
        &self.public
    }

    /// The ASN.1 DER ECDSA signature (SHA-256, RFC 6979 deterministic) of `message`, the form
    /// `cryptography` verifies.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn sign_der(&self, message: &[u8]) -> Vec<u8> {
        let sig: Signature = self.secret.sign(message);
        sig.to_der().as_bytes().to_vec()
    }
}

impl OmsPublicKey {
    /// Reads a PEM public key (SubjectPublicKeyInfo, P-256). A certificate, a secret key or
    /// another curve is refused by name. `what` names the file.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn from_pem(text: &str, what: &str) -> Result<OmsPublicKey, OmsError> {
        let (label, der) = read_pem(text, what)?;
        match label.as_str() {
            "PUBLIC KEY" => {}
            "PRIVATE KEY" | "EC PRIVATE KEY" => {
                return Err(fail(format!("{what} is a private key where a public key belongs: never hand the secret to a verifier\n  fix: give oms.pub")))
            }
            other => return Err(not_a_key(other, what, "P-256 public key (PEM SubjectPublicKeyInfo)")),
        }
        let point = der.strip_prefix(&SPKI_PREFIX[..]).ok_or_else(|| {
            fail(format!("{what} is a public key, but not ECDSA P-256 (OMS key mode as skills-edge reads it: P-256 only)"))
        })?;
        let key = VerifyingKey::from_sec1_bytes(point)
            .ok()
            .filter(|_| point.len() == 65)
            .ok_or_else(|| {
                fail(format!(
                    "{what}: the P-256 point is not on the curve or not uncompressed"
                ))
            })?;
        Ok(OmsPublicKey { key })
    }

    /// The uncompressed SEC 1 point (65 bytes).
    fn point(&self) -> Vec<u8> {
        self.key.to_sec1_point(false).as_bytes().to_vec()
    }

    /// The public key as PEM SubjectPublicKeyInfo, as `cryptography` writes it.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn to_pem(&self) -> String {
        let mut der = SPKI_PREFIX.to_vec();
        der.extend_from_slice(&self.point());
        pem("PUBLIC KEY", &der)
    }

    /// The key's hint in a bundle (`verificationMaterial.publicKey.hint`): the SHA-256 of
    /// [`OmsPublicKey::to_pem`], 64 lowercase hex characters, as `model_signing` computes it.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn hint(&self) -> String {
        hex(&Sha256::digest(self.to_pem().as_bytes()))
    }

    /// Whether `der` is a valid ASN.1 DER ECDSA signature (SHA-256) of `message` by this key.
    pub(crate) fn verifies(&self, message: &[u8], der: &[u8]) -> bool {
        match Signature::from_der(der) {
            Ok(sig) => self.key.verify(message, &sig).is_ok(),
            Err(_) => false,
        }
    }
}

/// Lowercase hex.
pub(crate) fn hex(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(HEX[usize::from(b >> 4)] as char);
        out.push(HEX[usize::from(b & 15)] as char);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pem_round_trips_and_refuses_what_is_not_a_p256_key() {
        let key = OmsSigningKey::from_scalar(&[7; 32]).unwrap();
        let again = OmsSigningKey::from_pem(&key.to_pem(), "oms.key").unwrap();
        assert_eq!(again.public(), key.public());
        let public = OmsPublicKey::from_pem(&key.public().to_pem(), "oms.pub").unwrap();
        assert_eq!(&public, key.public());
        let sig = key.sign_der(b"m");
        assert!(public.verifies(b"m", &sig) && !public.verifies(b"n", &sig));
        let cert = pem("CERTIFICATE", b"x");
        let e = OmsPublicKey::from_pem(&cert, "ca.pem").unwrap_err();
        assert!(e.message.contains("is a certificate, not a key"), "{e}");
        let e = OmsPublicKey::from_pem(&key.to_pem(), "oms.key").unwrap_err();
        assert!(e.message.contains("private key where a public key"), "{e}");
        let e = OmsSigningKey::from_pem(&key.public().to_pem(), "oms.pub").unwrap_err();
        assert!(e.message.contains("is a public key"), "{e}");
        let truncated = key.to_pem().replace("-----END PRIVATE KEY-----\n", "");
        assert!(OmsSigningKey::from_pem(&truncated, "k").is_err());
        assert!(OmsSigningKey::from_scalar(&[0; 32]).is_none());
    }
}
