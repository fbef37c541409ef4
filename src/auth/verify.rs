//! Signature checks behind a trait, so each platform brings its own: the Worker WebCrypto
//! (`crypto.subtle.verify`, which is asynchronous: it takes a [`super::SignatureCheck`] and
//! hands back the verdict), native code a Rust crate. This module has the Ed25519 one.

use super::jwk::PublicKey;
use super::token::Algorithm;

/// The verifier cannot check this algorithm (or this kind of key).
///
/// ```
/// use skills_edge::auth::{Algorithm, Ed25519Verifier, PublicKey, SignatureVerifier, Unsupported};
/// let p256 = PublicKey::P256 { x: [1; 32], y: [2; 32] };
/// // ES256 is the Worker's to check (WebCrypto), not this verifier's.
/// assert_eq!(Ed25519Verifier.verify(Algorithm::Es256, &p256, b"msg", &[0; 64]), Err(Unsupported));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unsupported;

/// Checks one signature. Implementations answer only whether `signature` is a valid
/// signature of `message` under `key` for `alg`; choosing the key, the algorithm allow-list
/// and every claim are the validator's (`Validator`), which calls this only with a
/// key whose type goes with `alg` (and, for RS256, a signature as long as the modulus).
///
/// ```
/// use skills_edge::auth::{Algorithm, Ed25519Verifier, PublicKey, SignatureVerifier, Unsupported};
/// /// ES256 with the `p256` crate, everything else as `Ed25519Verifier` checks it.
/// struct Native;
/// impl SignatureVerifier for Native {
///     fn verify(&self, alg: Algorithm, key: &PublicKey, message: &[u8], signature: &[u8]) -> Result<bool, Unsupported> {
///         use p256::ecdsa::{signature::Verifier as _, Signature, VerifyingKey};
///         let PublicKey::P256 { x, y } = key else { return Ed25519Verifier.verify(alg, key, message, signature) };
///         let sec1 = [&[4u8][..], x, y].concat();
///         let (Ok(k), Ok(s)) = (VerifyingKey::from_sec1_bytes(&sec1), Signature::from_slice(signature)) else { return Ok(false) };
///         Ok(k.verify(message, &s).is_ok())
///     }
/// }
/// // A point off the curve is no key: refused, not an error.
/// assert_eq!(Native.verify(Algorithm::Es256, &PublicKey::P256 { x: [1; 32], y: [2; 32] }, b"msg", &[1; 64]), Ok(false));
/// ```
pub trait SignatureVerifier {
    /// `Ok(true)` when the signature verifies, `Ok(false)` when it does not (or the key is
    /// not a valid key: a point off the curve, a small-order Ed25519 key), `Err(Unsupported)`
    /// when this verifier does not implement `alg`.
    fn verify(
        &self,
        alg: Algorithm,
        key: &PublicKey,
        message: &[u8],
        signature: &[u8],
    ) -> Result<bool, Unsupported>;
}

/// Ed25519 (`EdDSA`, RFC 8037) in Rust, with `ed25519-compact`: RFC 8032 §5.1.7 verification
/// (an `S` out of range is refused), and the crate refuses small-order keys too. ES256 and
/// RS256 are [`Unsupported`] here: the Worker checks them with WebCrypto.
///
/// ```
/// use skills_edge::auth::{Algorithm, Ed25519Verifier, PublicKey, SignatureVerifier};
/// let pair = ed25519_compact::KeyPair::from_seed(ed25519_compact::Seed::new([7; 32]));
/// let key = PublicKey::Ed25519 { x: *pair.pk };
/// let signature = pair.sk.sign(b"header.payload", None);
/// assert_eq!(Ed25519Verifier.verify(Algorithm::EdDsa, &key, b"header.payload", &signature[..]), Ok(true));
/// assert_eq!(Ed25519Verifier.verify(Algorithm::EdDsa, &key, b"header.payloaf", &signature[..]), Ok(false));
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct Ed25519Verifier;

impl SignatureVerifier for Ed25519Verifier {
    fn verify(
        &self,
        alg: Algorithm,
        key: &PublicKey,
        message: &[u8],
        signature: &[u8],
    ) -> Result<bool, Unsupported> {
        let (Algorithm::EdDsa, PublicKey::Ed25519 { x }) = (alg, key) else {
            return Err(Unsupported);
        };
        let Ok(sig) = ed25519_compact::Signature::from_slice(signature) else {
            return Ok(false);
        };
        Ok(ed25519_compact::PublicKey::new(*x)
            .verify(message, &sig)
            .is_ok())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ed25519_verifies_and_refuses() {
        let pair = ed25519_compact::KeyPair::from_seed(ed25519_compact::Seed::new([7; 32]));
        let key = PublicKey::Ed25519 { x: *pair.pk };
        let sig = pair.sk.sign(b"message", None);
        let v = Ed25519Verifier;
        assert_eq!(
            v.verify(Algorithm::EdDsa, &key, b"message", &sig[..]),
            Ok(true)
        );
        assert_eq!(
            v.verify(Algorithm::EdDsa, &key, b"messagf", &sig[..]),
            Ok(false)
        );
        assert_eq!(
            v.verify(Algorithm::EdDsa, &key, b"message", &sig[..63]),
            Ok(false)
        );
        let mut bad = *sig;
        bad[63] ^= 0x80;
        assert_eq!(
            v.verify(Algorithm::EdDsa, &key, b"message", &bad),
            Ok(false)
        );
        // The identity point, a small-order key: no signature verifies with it.
        let mut identity = [0u8; 32];
        identity[0] = 1;
        let weak = PublicKey::Ed25519 { x: identity };
        assert_eq!(
            v.verify(Algorithm::EdDsa, &weak, b"message", &sig[..]),
            Ok(false)
        );
        let ec = PublicKey::P256 {
            x: [1; 32],
            y: [2; 32],
        };
        assert_eq!(
            v.verify(Algorithm::Es256, &ec, b"m", &[0; 64]),
            Err(Unsupported)
        );
        assert_eq!(
            v.verify(Algorithm::EdDsa, &ec, b"m", &[0; 64]),
            Err(Unsupported)
        );
    }
}
