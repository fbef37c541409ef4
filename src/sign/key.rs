//! Ed25519 keys: a public key and its JWK (RFC 8037), a signing key and its secret JWK.

use super::*;

/// An Ed25519 public key and its id.
///
/// ```
/// use skills_edge::catalog::sign::PublicKey;
/// // `signing.pub`, as `skills-edge keygen` writes it.
/// let jwk = r#"{"crv":"Ed25519","kid":"kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k","kty":"OKP","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#;
/// let public = PublicKey::from_jwk(jwk).unwrap();
/// assert_eq!(public.key_id(), "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k", "its RFC 7638 thumbprint");
/// ```
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
    pub(crate) fn from_bytes(bytes: [u8; 32]) -> PublicKey {
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
    #[cfg(test)]
    pub(crate) fn as_bytes(&self) -> &[u8; 32] {
        &self.bytes
    }

    /// The public JWK: `{"crv":"Ed25519","kid":…,"kty":"OKP","x":…}` (`kid` is the thumbprint).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn to_jwk(&self) -> String {
        format!(
            "{{\"crv\":\"Ed25519\",\"kid\":\"{}\",\"kty\":\"OKP\",\"x\":\"{}\"}}",
            self.key_id,
            URL_SAFE_NO_PAD.encode(self.bytes)
        )
    }

    /// Whether `signature` is this key's Ed25519 signature of `message` (RFC 8032; small-order
    /// keys and non-canonical signatures are refused).
    pub(crate) fn verifies(&self, message: &[u8], signature: &[u8]) -> bool {
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
///
/// ```
/// use skills_edge::catalog::sign::SigningKey;
/// let key = SigningKey::from_seed([7; 32]);
/// assert_eq!(format!("{key:?}"), format!("SigningKey({})", key.public().key_id()));
/// let again = SigningKey::from_jwk(&key.to_jwk()).unwrap();
/// assert_eq!(again.sign(b"hello"), key.sign(b"hello"), "deterministic (RFC 8032)");
/// assert!(SigningKey::from_jwk(&key.public().to_jwk()).is_err(), "a public key cannot sign");
/// ```
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
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn from_seed(seed: [u8; 32]) -> SigningKey {
        let pair = ed25519_compact::KeyPair::from_seed(ed25519_compact::Seed::new(seed));
        let public = PublicKey::from_bytes(*pair.pk);
        SigningKey { pair, public }
    }

    /// Whether `seed` can be a key: every seed but the all-zero one.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn usable_seed(seed: &[u8; 32]) -> bool {
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
        if let Some(x) = jwk.x.as_deref()
            && key_bytes(Some(x), "x", "the signing key")? != key.public.bytes
        {
            return Err(fail(
                    SignatureFault::Key,
                    "the signing key's \"x\" is not the public key of its \"d\": the file is damaged; make a new key with `skills-edge keygen`",
                ));
        }
        Ok(key)
    }

    /// The secret JWK, with the public key and its id: the text of `signing.key`.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn to_jwk(&self) -> String {
        format!(
            "{{\"crv\":\"Ed25519\",\"d\":\"{}\",\"kid\":\"{}\",\"kty\":\"OKP\",\"x\":\"{}\"}}",
            URL_SAFE_NO_PAD.encode(*self.pair.sk.seed()),
            self.public.key_id,
            URL_SAFE_NO_PAD.encode(self.public.bytes)
        )
    }

    /// The public half.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn public(&self) -> &PublicKey {
        &self.public
    }

    /// The deterministic Ed25519 signature of `message` (RFC 8032).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn sign(&self, message: &[u8]) -> [u8; 64] {
        *self.pair.sk.sign(message, None)
    }
}
