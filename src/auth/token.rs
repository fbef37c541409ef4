//! The JWS compact serialization of a bearer token (RFC 7515 §7.1), read strictly and without
//! trusting anything in it yet: [`Token::parse`].

use std::fmt;

use sha2::{Digest as _, Sha256};

use super::claims::{a_type, as_str, read_object, shown};
use super::error::TokenError;
use crate::base64::decode_url;
use crate::skill::value::Value;

/// The largest header value (or bare token) read, in bytes: 16 KiB. A longer one is refused
/// before anything in it is decoded. Access tokens are a few hundred bytes to a few KiB;
/// Cloudflare Access's are about 1 KiB.
pub const MAX_TOKEN_BYTES: usize = 16 * 1024;

/// The signature algorithms accepted: an allow-list (RFC 8725 §3.1: "libraries MUST enable
/// the caller to specify a supported set of algorithms and MUST NOT use any other
/// algorithms"). `none`, every `HS*` (a public key used as an HMAC secret, RFC 8725 §2.1),
/// every `PS*`, `ES384`/`ES512`, `RS384`/`RS512` and any other name are refused.
///
/// ```
/// use skills_edge::auth::{Algorithm, Token, TokenError};
/// # use base64::Engine as _;
/// # let b64 = |b: &[u8]| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(b);
/// let names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.as_str()).collect();
/// assert_eq!(names, ["ES256", "RS256", "EdDSA"]);
/// // An HMAC token is refused as it is read, before any key is looked at.
/// let hs256 = format!("{}.{}.{}", b64(br#"{"alg":"HS256"}"#), b64(b"{}"), b64(&[0; 32]));
/// let e = Token::parse(&hs256).unwrap_err();
/// assert!(matches!(e, TokenError::Algorithm { .. }) && e.to_string().contains("HS256"), "{e}");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// `ES256`: ECDSA over P-256 with SHA-256; the signature is `r || s`, 64 bytes
    /// (RFC 7518 §3.4).
    Es256,
    /// `RS256`: RSASSA-PKCS1-v1_5 with SHA-256 (RFC 7518 §3.3), keys of 2048 bits or more.
    Rs256,
    /// `EdDSA` with an Ed25519 key (RFC 8037 §3.1), or its fully specified name `Ed25519`
    /// (RFC 9864 §2, which deprecates the polymorphic `EdDSA`); both are the same check.
    EdDsa,
}

impl Algorithm {
    /// Every accepted algorithm.
    pub const ALL: [Algorithm; 3] = [Algorithm::Es256, Algorithm::Rs256, Algorithm::EdDsa];

    /// The algorithm a JOSE `alg` value names, if it is one of the allow-list.
    pub(crate) fn from_name(name: &str) -> Option<Algorithm> {
        match name {
            "ES256" => Some(Algorithm::Es256),
            "RS256" => Some(Algorithm::Rs256),
            "EdDSA" | "Ed25519" => Some(Algorithm::EdDsa),
            _ => None,
        }
    }

    /// The JOSE name (`EdDSA` for Ed25519).
    pub fn as_str(self) -> &'static str {
        match self {
            Algorithm::Es256 => "ES256",
            Algorithm::Rs256 => "RS256",
            Algorithm::EdDsa => "EdDSA",
        }
    }

    /// The signature's fixed length in bytes, for the algorithms that have one (RS256's is
    /// the key's modulus length).
    pub(crate) fn signature_len(self) -> Option<usize> {
        match self {
            Algorithm::Es256 | Algorithm::EdDsa => Some(64),
            Algorithm::Rs256 => None,
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A bearer token read from its compact form: the protected header's `alg`, `kid` and
/// `typ`, the claims set (read by `Validator`), the signing input and the signature.
/// Nothing in it is trusted until the validator has checked it.
///
/// Its `Debug` form names the algorithm, key id and type, never the token, claims or
/// signature.
///
/// ```
/// use skills_edge::auth::{Algorithm, Token};
/// # use base64::Engine as _;
/// # let b64 = |b: &[u8]| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(b);
/// let compact = format!("{}.{}.{}", b64(br#"{"alg":"EdDSA","kid":"k1","typ":"at+jwt"}"#),
///     b64(br#"{"sub":"alice"}"#), b64(&[0; 64]));
/// let token = Token::parse(&format!("Bearer {compact}")).unwrap();
/// assert_eq!((token.alg(), token.kid()), (Algorithm::EdDsa, Some("k1")));
/// // The same token bare (Cloudflare Access's header) is the same token.
/// assert_eq!(Token::parse(&compact).unwrap().digest(), token.digest());
/// assert_eq!(format!("{token:?}"), r#"Token { alg: EdDsa, kid: Some("k1"), typ: Some("at+jwt"), .. }"#);
/// ```
#[derive(Clone)]
pub struct Token {
    alg: Algorithm,
    kid: Option<String>,
    typ: Option<String>,
    pub(crate) claims: Value,
    /// `BASE64URL(header) || '.' || BASE64URL(payload)`, the bytes signed (RFC 7515 §5.1).
    signing_input: String,
    signature: Vec<u8>,
    #[cfg_attr(not(any(test, feature = "internals")), allow(dead_code))]
    digest: [u8; 32],
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Token")
            .field("alg", &self.alg)
            .field("kid", &self.kid)
            .field("typ", &self.typ)
            .finish_non_exhaustive()
    }
}

impl Token {
    /// Reads a token from an `Authorization` header value (`Bearer <token>`, the scheme
    /// matched without regard to case, RFC 6750 §2.1 and RFC 9110 §11.1) or from a bare token
    /// (Cloudflare Access's `Cf-Access-Jwt-Assertion` header).
    ///
    /// Refused, in this order:
    /// - a value longer than `MAX_TOKEN_BYTES` (before anything is decoded);
    /// - another scheme ([`TokenError::Scheme`]), an empty token, a token with whitespace in it;
    /// - not three parts separated by `.` (five parts: an encrypted JWE, never accepted);
    /// - a part that is not strict base64url without padding (RFC 7515 §2: no `=`, no `+` or
    ///   `/`, no whitespace; RFC 4648 §3.5: no non-zero unused bits, so one token has one
    ///   spelling);
    /// - a header that is not a JSON object or names a member twice;
    /// - an `alg` that is missing, not a string or not in the allow-list ([`Algorithm`]);
    /// - a `crit` member (RFC 7515 §4.1.11: a recipient that does not understand a listed
    ///   extension MUST refuse the JWS, and none is understood here);
    /// - a `kid` or `typ` that is not a string;
    /// - a payload that is not a JSON object or names a member twice (RFC 7519 §4);
    /// - an empty signature, or an ES256 or EdDSA signature that is not 64 bytes.
    ///
    /// The header members `jku`, `x5u`, `jwk`, `x5c` and `x5t` are never used: keys come only
    /// from the configured key set (RFC 8725 §3.10). `typ` is checked by the validator.
    pub fn parse(value: &str) -> Result<Token, TokenError> {
        if value.len() > MAX_TOKEN_BYTES {
            return Err(TokenError::TooLarge { len: value.len() });
        }
        let compact = bearer(value)?;
        let mut parts = compact.split('.');
        let (Some(h), Some(p), Some(s)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(malformed(
                "has fewer than three parts: a signed token is header.payload.signature",
            ));
        };
        let rest = parts.count();
        if rest > 0 {
            return Err(malformed(if rest == 2 {
                "has five parts: an encrypted token (JWE) is not accepted, only a signed one (JWS)"
            } else {
                "has more than three parts: a signed token is header.payload.signature"
            }));
        }
        let header_bytes = decode_url(h).ok_or_else(|| not_base64("header"))?;
        let header = read_object(&header_bytes).map_err(|e| json(e, "header"))?;
        let alg = match header.get("alg") {
            None => return Err(malformed("header has no \"alg\"")),
            Some(Value::String(name)) => match Algorithm::from_name(name) {
                Some(a) => a,
                None => return Err(TokenError::Algorithm { alg: shown(name) }),
            },
            Some(other) => {
                return Err(malformed(format!(
                    "header's \"alg\" is {}, not a string",
                    a_type(other)
                )))
            }
        };
        if header.get("crit").is_some() {
            return Err(TokenError::Critical);
        }
        let kid = optional_string(&header, "kid")?;
        let typ = optional_string(&header, "typ")?;
        let payload = decode_url(p).ok_or_else(|| not_base64("payload"))?;
        let claims = read_object(&payload).map_err(|e| json(e, "claims set"))?;
        if s.is_empty() {
            return Err(malformed("has an empty signature"));
        }
        let signature = decode_url(s).ok_or_else(|| not_base64("signature"))?;
        if let Some(n) = alg.signature_len()
            && signature.len() != n
        {
            return Err(malformed(format!(
                "has a {} signature of {} bytes; {} signatures are {n} bytes",
                alg,
                signature.len(),
                alg
            )));
        }
        let signing_input = compact[..h.len() + 1 + p.len()].to_owned();
        let digest = Sha256::digest(compact.as_bytes()).into();
        Ok(Token {
            alg,
            kid,
            typ,
            claims,
            signing_input,
            signature,
            digest,
        })
    }

    /// The SHA-256 of the compact token in `value` (a `Bearer` credential or a bare token),
    /// without reading it: for a value [`Token::parse`] accepts, the same as
    /// [`Token::digest`]; `None` for a value it refuses before any decoding (too large,
    /// another scheme). A cache of tokens already validated ([`super::TokenCache`]) is looked
    /// up with it before any parsing, so a repeated request decodes nothing.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn compact_digest(value: &str) -> Option<[u8; 32]> {
        if value.len() > MAX_TOKEN_BYTES {
            return None;
        }
        let compact = bearer(value).ok()?;
        Some(Sha256::digest(compact.as_bytes()).into())
    }

    /// The signature algorithm the header names.
    pub fn alg(&self) -> Algorithm {
        self.alg
    }

    /// The header's `kid`, if any.
    pub fn kid(&self) -> Option<&str> {
        self.kid.as_deref()
    }

    /// The header's `typ`, if any.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn typ(&self) -> Option<&str> {
        self.typ.as_deref()
    }

    /// The bytes the signature covers: `BASE64URL(header) || '.' || BASE64URL(payload)`.
    pub(crate) fn signing_input(&self) -> &[u8] {
        self.signing_input.as_bytes()
    }

    /// The decoded signature.
    pub(crate) fn signature(&self) -> &[u8] {
        &self.signature
    }

    /// The SHA-256 of the compact token (without the `Bearer` scheme): the key of
    /// [`super::TokenCache`].
    #[cfg(any(test, feature = "internals"))]
    pub fn digest(&self) -> &[u8; 32] {
        &self.digest
    }
}

/// The compact token of a header value: after `Bearer` and one or more spaces, or the whole
/// value when it has no space (a bare token).
fn bearer(value: &str) -> Result<&str, TokenError> {
    let token = match value.split_once(' ') {
        Some((scheme, rest)) => {
            if !scheme.eq_ignore_ascii_case("bearer") {
                return Err(TokenError::Scheme);
            }
            rest.trim_start_matches(' ')
        }
        None if value.eq_ignore_ascii_case("bearer") => "",
        None => value,
    };
    if token.is_empty() {
        return Err(malformed("is empty"));
    }
    if token.bytes().any(|b| b.is_ascii_whitespace()) {
        return Err(malformed("has whitespace in it"));
    }
    Ok(token)
}

fn optional_string(header: &Value, name: &str) -> Result<Option<String>, TokenError> {
    match header.get(name) {
        None => Ok(None),
        Some(v) => as_str(v)
            .map(|s| Some(s.to_owned()))
            .ok_or_else(|| malformed(format!("header's {name:?} is {}, not a string", a_type(v)))),
    }
}

fn malformed(what: impl Into<String>) -> TokenError {
    TokenError::Malformed { what: what.into() }
}

fn not_base64(part: &str) -> TokenError {
    malformed(format!(
        "has a {part} that is not base64url without padding (RFC 7515 §2: no '=', '+', '/' or whitespace)"
    ))
}

fn json(e: String, part: &str) -> TokenError {
    malformed(format!("has a {part} that {e}"))
}
