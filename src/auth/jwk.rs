//! The issuer's public keys: a JWK Set (RFC 7517 §5) read into the keys a token may name,
//! [`KeySet::parse`].

use std::collections::BTreeMap;
use std::fmt;

use super::claims::{a_type, as_str, read_object, shown, strings};
use super::error::{KeySetError, TokenError};
use super::token::Algorithm;
use crate::base64::{decode_url, encode_url};
use crate::skill::value::Value;

/// The largest key set read, in bytes: 256 KiB. A key set of 64 RSA-4096 keys with
/// certificates is about 150 KiB; real ones are a few KiB.
pub const MAX_KEY_SET_BYTES: usize = 256 * 1024;

/// The most keys a set may list (usable or not). Issuers publish two or three (the current
/// key and the previous one during a rotation).
pub const MAX_KEYS: usize = 64;

/// The smallest RSA modulus accepted, in bits (RFC 7518 §3.3: "A key of size 2048 bits or
/// larger MUST be used with these algorithms").
pub const MIN_RSA_BITS: usize = 2048;

/// The largest RSA modulus accepted, in bits: 8192 bounds the work of one verification.
pub const MAX_RSA_BITS: usize = 8192;

/// A public key of one of the three accepted kinds, as raw bytes.
///
/// ```
/// use skills_edge::auth::{Algorithm, KeySet};
/// # let jwks = br#"{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"k1","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}]}"#;
/// let keys = KeySet::parse(jwks).unwrap();
/// let key = &keys.keys()[0].key;
/// assert_eq!((key.kind(), key.algorithm()), ("OKP Ed25519", Algorithm::EdDsa));
/// // The minimal JWK WebCrypto's `importKey` takes: no `kid`.
/// assert_eq!(key.to_jwk(), r#"{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#);
/// ```
#[derive(Clone, PartialEq, Eq)]
pub enum PublicKey {
    /// An EC key on P-256 (`kty` `EC`, `crv` `P-256`): the affine coordinates, 32 bytes each
    /// (RFC 7518 §6.2.1: the full size of a coordinate). Whether the point is on the curve is
    /// the verifier's check (WebCrypto's `importKey`, or the native crate's).
    P256 {
        /// The x coordinate, big-endian.
        x: [u8; 32],
        /// The y coordinate, big-endian.
        y: [u8; 32],
    },
    /// An RSA key (`kty` `RSA`): modulus and public exponent, big-endian without leading
    /// zeros.
    Rsa {
        /// The modulus `n`, 2048 to 8192 bits.
        n: Vec<u8>,
        /// The public exponent `e`: odd, at least 3, at most 4 bytes.
        e: Vec<u8>,
    },
    /// An Ed25519 key (`kty` `OKP`, `crv` `Ed25519`, RFC 8037 §2): the 32-byte public key.
    Ed25519 {
        /// The public key.
        x: [u8; 32],
    },
}

impl fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PublicKey::Rsa { n, .. } => write!(f, "Rsa({} bits)", bits(n)),
            other => f.write_str(other.kind()),
        }
    }
}

impl PublicKey {
    /// The one algorithm this key is used with (RFC 8725 §3.1).
    pub fn algorithm(&self) -> Algorithm {
        match self {
            PublicKey::P256 { .. } => Algorithm::Es256,
            PublicKey::Rsa { .. } => Algorithm::Rs256,
            PublicKey::Ed25519 { .. } => Algorithm::EdDsa,
        }
    }

    /// The key's kind, for messages: `EC P-256`, `RSA` or `OKP Ed25519`.
    pub fn kind(&self) -> &'static str {
        match self {
            PublicKey::P256 { .. } => "EC P-256",
            PublicKey::Rsa { .. } => "RSA",
            PublicKey::Ed25519 { .. } => "OKP Ed25519",
        }
    }

    /// The key as a minimal public JWK (`kty` and its members, no `kid`, `alg` or `use`):
    /// what WebCrypto's `importKey("jwk", …)` takes.
    pub fn to_jwk(&self) -> String {
        match self {
            PublicKey::P256 { x, y } => format!(
                r#"{{"kty":"EC","crv":"P-256","x":"{}","y":"{}"}}"#,
                encode_url(x),
                encode_url(y)
            ),
            PublicKey::Rsa { n, e } => format!(
                r#"{{"kty":"RSA","n":"{}","e":"{}"}}"#,
                encode_url(n),
                encode_url(e)
            ),
            PublicKey::Ed25519 { x } => {
                format!(r#"{{"kty":"OKP","crv":"Ed25519","x":"{}"}}"#, encode_url(x))
            }
        }
    }
}

/// One usable key of a set: its `kid` (if any) and the key.
///
/// ```
/// use skills_edge::auth::{Algorithm, KeySet};
/// # let jwks = br#"{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"k1","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}]}"#;
/// let keys = KeySet::parse(jwks).unwrap();
/// let key = keys.select(Some("k1"), Algorithm::EdDsa).unwrap();
/// assert_eq!(key.kid.as_deref(), Some("k1"));
/// assert_eq!(key.key.algorithm(), Algorithm::EdDsa);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key {
    /// The key id, if the set gives one.
    pub kid: Option<String>,
    /// The key.
    pub key: PublicKey,
}

/// A key of the set that was not read as usable, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "internals", visibility::make(pub))]
pub(crate) struct SkippedKey {
    /// Its `kid`, if it had a string one.
    pub kid: Option<String>,
    /// Why it was skipped.
    pub why: String,
}

/// The usable keys of a JWK Set, and what was left out.
///
/// ```
/// use skills_edge::auth::{Algorithm, KeySet, TokenError};
/// let keys = KeySet::parse(br#"{"keys":[
///     {"kty":"OKP","crv":"Ed25519","kid":"k1","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"},
///     {"kty":"oct","kid":"shared-secret","k":"c2VjcmV0"}]}"#).unwrap();
/// assert_eq!(keys.keys().len(), 1); // a symmetric key never verifies a token
/// assert!(keys.select(Some("k1"), Algorithm::EdDsa).is_ok());
/// let e = keys.select(Some("k1"), Algorithm::Es256).unwrap_err();
/// assert_eq!(e.reason(), "key-mismatch");
/// assert!(matches!(keys.select(Some("shared-secret"), Algorithm::EdDsa), Err(TokenError::UnusableKey { .. })));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeySet {
    keys: Vec<Key>,
    /// `kid`s that two or more usable keys share; those keys are not used.
    ambiguous: Vec<String>,
    skipped: Vec<SkippedKey>,
}

impl KeySet {
    /// Reads a JWK Set document (RFC 7517 §5): a JSON object with a `keys` array (other
    /// members, such as Cloudflare Access's `public_cert`, are ignored).
    ///
    /// Refused as a whole ([`KeySetError`]): more than `MAX_KEY_SET_BYTES` (before
    /// parsing), not a JSON object or a member named twice, no `keys` array, more than
    /// `MAX_KEYS` entries, or no usable key at all.
    ///
    /// Each key is read or skipped (with its reason, `KeySet::skipped`); a key is skipped
    /// when it:
    /// - is not a JSON object, names a member twice, or has a `kid` that is not a string;
    /// - has a `kty` other than `EC`, `RSA` and `OKP` (`oct` included: a symmetric key never
    ///   verifies a token, RFC 8725 §2.1 and §3.1), or an `EC` curve other than `P-256`, or an
    ///   `OKP` curve other than `Ed25519`;
    /// - has `use` other than `sig`, or `key_ops` without `verify` (RFC 7517 §4.2, §4.3);
    /// - has an `alg` that is not the one algorithm of its type (`ES256` for P-256, `RS256`
    ///   for RSA, `EdDSA` or `Ed25519` for Ed25519), so a key is used with one algorithm
    ///   only (RFC 8725 §3.1);
    /// - holds private key members (`d`, `p`, `q`, `dp`, `dq`, `qi`, `oth`, `k`): a set that
    ///   publishes a secret is misconfigured, and the secret is not kept;
    /// - has coordinates or an `x` that are not strict base64url of exactly 32 bytes, an RSA
    ///   modulus under `MIN_RSA_BITS` or over `MAX_RSA_BITS`, or an RSA exponent that is
    ///   not odd, at least 3 and at most 4 bytes.
    ///
    /// Two or more usable keys with one `kid` make that `kid` ambiguous: none of them is used,
    /// and a token naming it is refused ([`TokenError::AmbiguousKey`]). RSA `n` and `e` with
    /// leading zero bytes are read (RFC 7518 §6.3.1 asks issuers for the minimal form; some
    /// libraries have published a leading zero), the zeros dropped before counting bits.
    pub fn parse(bytes: &[u8]) -> Result<KeySet, KeySetError> {
        if bytes.len() > MAX_KEY_SET_BYTES {
            return Err(KeySetError::TooLarge {
                what: "key set",
                len: bytes.len(),
                max: MAX_KEY_SET_BYTES,
            });
        }
        let doc = read_object(bytes).map_err(invalid)?;
        let Some(raw) = doc.get("keys") else {
            return Err(invalid("has no \"keys\" member (RFC 7517 §5)"));
        };
        let Value::Array(entries) = raw else {
            return Err(invalid("has a \"keys\" member that is not an array"));
        };
        if entries.len() > MAX_KEYS {
            return Err(KeySetError::TooManyKeys {
                count: entries.len(),
            });
        }
        let mut keys = Vec::new();
        let mut skipped = Vec::new();
        for (i, entry) in entries.iter().enumerate() {
            match read_key(entry) {
                Ok(k) => keys.push(k),
                Err((kid, why)) => skipped.push(SkippedKey {
                    kid,
                    why: format!("key {i}: {why}"),
                }),
            }
        }
        let mut count: BTreeMap<&str, usize> = BTreeMap::new();
        for k in &keys {
            if let Some(kid) = &k.kid {
                *count.entry(kid).or_default() += 1;
            }
        }
        let ambiguous: Vec<String> = count
            .into_iter()
            .filter(|(_, n)| *n > 1)
            .map(|(k, _)| k.to_owned())
            .collect();
        keys.retain(|k| k.kid.as_ref().is_none_or(|kid| !ambiguous.contains(kid)));
        if keys.is_empty() {
            let mut why: Vec<String> = skipped.iter().map(|s| s.why.clone()).collect();
            why.extend(
                ambiguous
                    .iter()
                    .map(|k| format!("kid {} is shared by several keys", shown(k))),
            );
            if why.is_empty() {
                why.push("the \"keys\" array is empty".into());
            }
            return Err(KeySetError::NoUsableKey { skipped: why });
        }
        Ok(KeySet {
            keys,
            ambiguous,
            skipped,
        })
    }

    /// The usable keys, in document order.
    #[cfg(any(test, feature = "internals"))]
    pub fn keys(&self) -> &[Key] {
        &self.keys
    }

    /// The keys that were skipped, each with its reason (for the operator's log).
    #[cfg(feature = "internals")]
    pub fn skipped(&self) -> &[SkippedKey] {
        &self.skipped
    }

    /// The `kid`s shared by several usable keys (none of those keys is used).
    #[cfg(feature = "internals")]
    pub fn ambiguous(&self) -> &[String] {
        &self.ambiguous
    }

    /// Whether a token naming `kid` finds a usable key by that name here (`None`, a token
    /// that names no key, is always known: refetching would not help it).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn knows(&self, kid: Option<&str>) -> bool {
        match kid {
            None => true,
            Some(kid) => self.keys.iter().any(|k| k.kid.as_deref() == Some(kid)),
        }
    }

    /// The key for a token with this `kid` and algorithm.
    ///
    /// With a `kid`: the usable key with that `kid`, refused when there is none
    /// ([`TokenError::UnknownKey`], or [`TokenError::UnusableKey`] when the set had it but
    /// skipped it), when several share it ([`TokenError::AmbiguousKey`]) or when its type does
    /// not go with `alg` ([`TokenError::KeyMismatch`]). Without a `kid` (RFC 7515 §4.1.4
    /// makes it optional): the one usable key of the set for `alg`; none is
    /// [`TokenError::UnknownKey`], several are [`TokenError::AmbiguousKey`] (the key is not
    /// guessed, and no key is tried in turn).
    pub fn select(&self, kid: Option<&str>, alg: Algorithm) -> Result<&Key, TokenError> {
        let Some(kid) = kid else {
            let mut fit = self.keys.iter().filter(|k| k.key.algorithm() == alg);
            return match (fit.next(), fit.next()) {
                (Some(k), None) => Ok(k),
                (None, _) => Err(TokenError::UnknownKey { kid: None }),
                (Some(_), Some(_)) => Err(TokenError::AmbiguousKey { kid: None }),
            };
        };
        if self.ambiguous.iter().any(|a| a == kid) {
            return Err(TokenError::AmbiguousKey {
                kid: Some(shown(kid)),
            });
        }
        let Some(key) = self.keys.iter().find(|k| k.kid.as_deref() == Some(kid)) else {
            if let Some(s) = self.skipped.iter().find(|s| s.kid.as_deref() == Some(kid)) {
                return Err(TokenError::UnusableKey {
                    kid: shown(kid),
                    why: s.why.clone(),
                });
            }
            return Err(TokenError::UnknownKey {
                kid: Some(shown(kid)),
            });
        };
        if key.key.algorithm() != alg {
            return Err(TokenError::KeyMismatch {
                alg: alg.as_str(),
                key: key.key.kind(),
            });
        }
        Ok(key)
    }
}

fn invalid(problem: impl Into<String>) -> KeySetError {
    KeySetError::Invalid {
        what: "key set",
        problem: problem.into(),
    }
}

/// Members that only a private (or symmetric) key has (RFC 7518 §6.2.2, §6.3.2, §6.4; RFC
/// 8037 §2).
const PRIVATE_MEMBERS: [&str; 8] = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"];

/// One JWK of the set, or why it is skipped (with its `kid` when it had a string one).
fn read_key(jwk: &Value) -> Result<Key, (Option<String>, String)> {
    if !matches!(jwk, Value::Object(_)) {
        return Err((
            None,
            format!("the entry is {}, not a JSON object", a_type(jwk)),
        ));
    }
    let kid = match jwk.get("kid") {
        None => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => return Err((None, format!("its kid is {}", a_type(other)))),
    };
    let fail = |why: String| (kid.clone(), why);
    let text = |name: &str| -> Result<Option<String>, (Option<String>, String)> {
        match jwk.get(name) {
            None => Ok(None),
            Some(v) => as_str(v)
                .map(|s| Some(s.to_owned()))
                .ok_or_else(|| fail(format!("its {name:?} is {}", a_type(v)))),
        }
    };
    let kty = text("kty")?.ok_or_else(|| fail("it has no kty".into()))?;
    check_purpose(jwk, &kty, text("use")?).map_err(&fail)?;
    let alg = text("alg")?;
    let coordinate = |name: &str| -> Result<[u8; 32], (Option<String>, String)> {
        let s = text(name)?.ok_or_else(|| fail(format!("it has no {name:?}")))?;
        let bytes = decode_url(&s)
            .ok_or_else(|| fail(format!("its {name:?} is not base64url without padding")))?;
        <[u8; 32]>::try_from(bytes.as_slice())
            .map_err(|_| fail(format!("its {name:?} is {} bytes, not 32", bytes.len())))
    };
    let key = match kty.as_str() {
        "EC" => {
            let crv = text("crv")?.unwrap_or_default();
            if crv != "P-256" {
                return Err(fail(format!(
                    "its curve is {}: only P-256 (ES256) is read",
                    shown(&crv)
                )));
            }
            PublicKey::P256 {
                x: coordinate("x")?,
                y: coordinate("y")?,
            }
        }
        "OKP" => {
            let crv = text("crv")?.unwrap_or_default();
            if crv != "Ed25519" {
                return Err(fail(format!(
                    "its curve is {}: only Ed25519 (EdDSA) is read",
                    shown(&crv)
                )));
            }
            PublicKey::Ed25519 {
                x: coordinate("x")?,
            }
        }
        "RSA" => {
            let uint = |name: &str| -> Result<Vec<u8>, (Option<String>, String)> {
                let s = text(name)?.ok_or_else(|| fail(format!("it has no {name:?}")))?;
                let bytes = decode_url(&s).ok_or_else(|| {
                    fail(format!("its {name:?} is not base64url without padding"))
                })?;
                let start = bytes.iter().position(|&b| b != 0).unwrap_or(bytes.len());
                Ok(bytes[start..].to_vec())
            };
            let n = uint("n")?;
            let e = uint("e")?;
            check_rsa(&n, &e).map_err(&fail)?;
            PublicKey::Rsa { n, e }
        }
        other => {
            return Err(fail(format!(
                "its kty {} is not EC, RSA or OKP",
                shown(other)
            )))
        }
    };
    if let Some(a) = alg
        && Algorithm::from_name(&a) != Some(key.algorithm())
    {
        return Err(fail(format!(
            "its alg {} does not go with a {} key ({} is the one read)",
            shown(&a),
            key.kind(),
            key.algorithm()
        )));
    }
    Ok(Key { kid, key })
}

/// The checks of what a key is for, before its material is read: `use` "sig" if present,
/// `key_ops` listing "verify" if present, never a symmetric key, never private members.
fn check_purpose(jwk: &Value, kty: &str, use_: Option<String>) -> Result<(), String> {
    if let Some(u) = use_
        && u != "sig"
    {
        return Err(format!(
            "its use is {}, not \"sig\" (RFC 7517 §4.2)",
            shown(&u)
        ));
    }
    match jwk.get("key_ops").map(strings) {
        None => {}
        Some(Some(ops)) if ops.iter().any(|o| o == "verify") => {}
        Some(_) => return Err("its key_ops does not list \"verify\" (RFC 7517 §4.3)".into()),
    }
    if kty == "oct" {
        return Err(
            "it is a symmetric key (kty oct), never used to verify tokens (RFC 8725 §3.1)".into(),
        );
    }
    if let Some(m) = PRIVATE_MEMBERS.iter().find(|m| jwk.get(m).is_some()) {
        return Err(format!(
            "it holds private key material ({m:?}): publish public keys only"
        ));
    }
    Ok(())
}

/// The bounds of an RSA public key: its modulus size and its exponent.
fn check_rsa(n: &[u8], e: &[u8]) -> Result<(), String> {
    let b = bits(n);
    if b < MIN_RSA_BITS {
        return Err(format!(
            "its RSA modulus has {b} bits; at least {MIN_RSA_BITS} are required (RFC 7518 §3.3)"
        ));
    }
    if b > MAX_RSA_BITS {
        return Err(format!(
            "its RSA modulus has {b} bits; at most {MAX_RSA_BITS} are read"
        ));
    }
    let odd = e.last().is_some_and(|l| l & 1 == 1);
    if e.len() > 4 || !odd || (e.len() == 1 && e[0] < 3) {
        return Err("its RSA exponent is not an odd number from 3 to 2^32-1".into());
    }
    Ok(())
}

/// The bit length of a big-endian unsigned integer without leading zeros.
fn bits(n: &[u8]) -> usize {
    match n.first() {
        None => 0,
        Some(&top) => (n.len() - 1) * 8 + (8 - top.leading_zeros() as usize),
    }
}
