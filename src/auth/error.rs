//! The errors of token validation and the HTTP answer each maps to.
//!
//! Every problem with the token is a [`TokenError`]: 401 with `error="invalid_token"`
//! (RFC 6750 §3.1; MCP authorization, Token Handling: "Invalid or expired tokens MUST receive
//! a HTTP 401 response"), except a request without a token, which gets 401 without an error
//! code (RFC 6750 §3.1: "If the request lacks any authentication information … the resource
//! server SHOULD NOT include an error code"). A key set that cannot be had is a
//! [`KeySetError`]: 503, the server's problem and not the caller's. No answer is a 403
//! (`insufficient_scope`): a skill the caller's scopes do not open answers as one that does
//! not exist (docs/private.md).
//!
//! Messages are for the operator's log. They never hold the token or its signature; values
//! taken from a token or a fetched document (an `alg`, a `kid`, an issuer) are escaped and
//! shortened. The client sees only the status and the challenge
//! ([`TokenError::challenge`]), whose code does not say which check failed.

use std::fmt;

/// Why a bearer token was refused. Every variant answers 401 ([`TokenError::status`]);
/// [`TokenError::reason`] is a stable kebab-case name for logs and metrics.
///
/// ```
/// use skills_edge::http::TokenError;
/// let e = TokenError::Scheme; // `Authorization: Basic …`
/// assert_eq!((e.status(), e.reason()), (401, "scheme"));
/// assert!(e.to_string().starts_with("bearer token refused: the credential uses another scheme than Bearer"), "{e}");
/// assert_eq!(TokenError::Signature.reason(), "signature");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TokenError {
    /// The request carries no token (the header is absent). Built by the I/O layer.
    Missing,
    /// The credential uses another authentication scheme than `Bearer` (`Basic …`), or, in
    /// the `Authorization` header, none (a bare token): RFC 6750 §2.1 defines `Bearer
    /// <token>` there. Answered without an error code, as an unsupported authentication
    /// method (RFC 6750 §3.1).
    Scheme,
    /// The header value is longer than `MAX_TOKEN_BYTES`; nothing was decoded.
    TooLarge {
        /// Its length in bytes.
        len: usize,
    },
    /// Not a well-formed signed token: not three parts, bad base64url, a
    /// header or claims set that is not a JSON object or names a member twice, a header
    /// member of the wrong type, a signature of the wrong length.
    Malformed {
        /// What is wrong, without the token.
        what: String,
    },
    /// An `alg` outside the allow-list (`none`, `HS256`, `PS256`, …) or outside the
    /// configuration's `ValidatorConfig::algorithms`.
    Algorithm {
        /// The `alg` value, escaped.
        alg: String,
    },
    /// The header has `crit` (RFC 7515 §4.1.11): no extension is understood here.
    Critical,
    /// The header's `typ` is not the one required (RFC 9068 §4: `at+jwt` or
    /// `application/at+jwt`).
    Type {
        /// The `typ` value, escaped, or `None` when absent.
        typ: Option<String>,
    },
    /// The key set has no key with the token's `kid`.
    UnknownKey {
        /// The `kid`, escaped (`None`: the token names no key and the set has no key for
        /// its algorithm).
        kid: Option<String>,
    },
    /// Two or more usable keys of the set share the token's `kid`, or the token names no key
    /// and the set has several for its algorithm: the key is not guessed.
    AmbiguousKey {
        /// The `kid`, escaped, or `None`.
        kid: Option<String>,
    },
    /// The key the token names is in the set but was not read as a usable key (an RSA
    /// modulus under 2048 bits, `use` other than `sig`, …).
    UnusableKey {
        /// The `kid`, escaped.
        kid: String,
        /// Why the key was skipped.
        why: String,
    },
    /// The key named is of a type that does not go with the token's `alg` (an RSA key for an
    /// ES256 token): RFC 8725 §3.1, each key is used with one algorithm only.
    KeyMismatch {
        /// The token's algorithm.
        alg: &'static str,
        /// The key's `kty` (and curve).
        key: &'static str,
    },
    /// A claim is missing, of the wrong JSON type, or empty where a value is needed.
    Claim {
        /// The claim's name.
        name: String,
        /// What is wrong with it.
        problem: String,
    },
    /// `exp` is past (with the leeway).
    Expired {
        /// The `exp` value.
        exp: i64,
        /// The time of the check.
        now: u64,
    },
    /// `nbf` is in the future (beyond the leeway).
    NotYetValid {
        /// The `nbf` value.
        nbf: i64,
        /// The time of the check.
        now: u64,
    },
    /// `iat` is in the future (beyond the leeway).
    IssuedInFuture {
        /// The `iat` value.
        iat: i64,
        /// The time of the check.
        now: u64,
    },
    /// `iss` is not the configured issuer (compared exactly, RFC 9068 §4).
    Issuer {
        /// The token's `iss`, escaped.
        iss: String,
    },
    /// `aud` does not contain any accepted audience (RFC 9068 §4, RFC 8707 §2; MCP: "MCP
    /// servers MUST validate that access tokens were issued specifically for them").
    Audience,
    /// The signature does not verify with the key (or, for RS256, is not as long as the
    /// key's modulus, RFC 8017 §8.2.2).
    Signature,
    /// The signature verifier in use cannot check this algorithm.
    Unverifiable {
        /// The algorithm.
        alg: &'static str,
    },
}

impl TokenError {
    /// The HTTP status: always 401.
    pub fn status(&self) -> u16 {
        401
    }

    /// The RFC 6750 error code: `invalid_token`, or `None` for [`TokenError::Missing`] and
    /// [`TokenError::Scheme`] (RFC 6750 §3.1: a request without authentication information,
    /// or with an unsupported authentication method, gets no error code).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn error_code(&self) -> Option<&'static str> {
        match self {
            TokenError::Missing | TokenError::Scheme => None,
            _ => Some("invalid_token"),
        }
    }

    /// A stable kebab-case name of the reason, for logs and metrics.
    pub fn reason(&self) -> &'static str {
        match self {
            TokenError::Missing => "missing",
            TokenError::Scheme => "scheme",
            TokenError::TooLarge { .. } => "too-large",
            TokenError::Malformed { .. } => "malformed",
            TokenError::Algorithm { .. } => "algorithm",
            TokenError::Critical => "crit",
            TokenError::Type { .. } => "typ",
            TokenError::UnknownKey { .. } => "unknown-key",
            TokenError::AmbiguousKey { .. } => "ambiguous-key",
            TokenError::UnusableKey { .. } => "unusable-key",
            TokenError::KeyMismatch { .. } => "key-mismatch",
            TokenError::Claim { .. } => "claim",
            TokenError::Expired { .. } => "expired",
            TokenError::NotYetValid { .. } => "not-yet-valid",
            TokenError::IssuedInFuture { .. } => "issued-in-future",
            TokenError::Issuer { .. } => "issuer",
            TokenError::Audience => "audience",
            TokenError::Signature => "signature",
            TokenError::Unverifiable { .. } => "unverifiable",
        }
    }

    /// The `WWW-Authenticate` value of the 401 (RFC 6750 §3): `Bearer`, the error code when
    /// there is one, and `resource_metadata` when given (RFC 9728 §5.1, which MCP servers use
    /// to point clients at their Protected Resource Metadata). The reason is not told to the
    /// client.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn challenge(&self, resource_metadata: Option<&str>) -> String {
        challenge(self.error_code(), resource_metadata)
    }
}

impl fmt::Display for TokenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("bearer token refused: ")?;
        match self {
            TokenError::Missing => f.write_str("the request carries no token"),
            TokenError::Scheme => f.write_str(
                "the credential uses another scheme than Bearer, or none in Authorization (RFC 6750 §2.1): send `Authorization: Bearer <token>` (with AUTH_MODE access, the token alone in Cf-Access-Jwt-Assertion)",
            ),
            TokenError::TooLarge { len } => write!(
                f,
                "the header value is {len} bytes; at most {} are read",
                super::MAX_TOKEN_BYTES
            ),
            TokenError::Malformed { what } => write!(f, "the token {what}"),
            TokenError::Algorithm { alg } => write!(
                f,
                "its alg {alg} is not accepted (accepted: the configured ones of ES256, RS256, EdDSA; never none, HS* or PS*)"
            ),
            TokenError::Critical => f.write_str(
                "its header has \"crit\": no JWS extension is understood here (RFC 7515 §4.1.11)",
            ),
            // `t` is shown quoted: `"JWT"`. A `JWT` (or no) typ is refused only by the RFC
            // 9068 profile, so the fix for a provider's own tokens is named.
            TokenError::Type { typ: Some(t) } if t.trim_matches('"').eq_ignore_ascii_case("jwt") || t.trim_matches('"').eq_ignore_ascii_case("application/jwt") => write!(
                f,
                "its typ {t} is not an access token's: at+jwt or application/at+jwt (RFC 9068 §4); if the issuer is an identity provider whose access tokens are plain JWTs (Auth0's default profile, Microsoft Entra ID, Keycloak), set AUTH_TOKEN_PROFILE = \"jwt\" (docs/private.md, The jwt profile)"
            ),
            TokenError::Type { typ: Some(t) } => write!(
                f,
                "its typ {t} is not an access token's: at+jwt or application/at+jwt (RFC 9068 §4), nor, with AUTH_TOKEN_PROFILE = \"jwt\", JWT: it names another kind of JWT"
            ),
            TokenError::Type { typ: None } => f.write_str(
                "its header has no typ; an access token's is at+jwt (RFC 9068 §4); if the issuer's access tokens have none (Okta), set AUTH_TOKEN_PROFILE = \"jwt\" (docs/private.md, The jwt profile)",
            ),
            TokenError::UnknownKey { kid: Some(k) } => write!(
                f,
                "the key set has no usable key {k}; the issuer's keys may have rotated, or the token is from another issuer"
            ),
            TokenError::UnknownKey { kid: None } => f.write_str(
                "it names no key (no kid) and the key set has no key for its algorithm",
            ),
            TokenError::AmbiguousKey { kid: Some(k) } => write!(
                f,
                "the key set has several keys {k}; the key is not guessed (fix the issuer's key set)"
            ),
            TokenError::AmbiguousKey { kid: None } => f.write_str(
                "it names no key (no kid) and the key set has several for its algorithm; the key is not guessed",
            ),
            TokenError::UnusableKey { kid, why } => {
                write!(f, "the key set's key {kid} is not used: {why}")
            }
            TokenError::KeyMismatch { alg, key } => write!(
                f,
                "its alg {alg} does not go with the key it names, a {key} key (RFC 8725 §3.1)"
            ),
            TokenError::Claim { name, problem } => write!(f, "its claim {name:?} {problem}"),
            TokenError::Expired { exp, now } => {
                write!(f, "it expired (exp {exp}, now {now}, with the leeway)")
            }
            TokenError::NotYetValid { nbf, now } => {
                write!(f, "it is not valid yet (nbf {nbf}, now {now}, with the leeway)")
            }
            TokenError::IssuedInFuture { iat, now } => write!(
                f,
                "it was issued in the future (iat {iat}, now {now}, with the leeway): check the clocks"
            ),
            TokenError::Issuer { iss } => {
                write!(f, "its iss {iss} is not the configured issuer")
            }
            TokenError::Audience => f.write_str(
                "its aud does not name this server (RFC 8707: the token was issued for another resource)",
            ),
            TokenError::Signature => f.write_str("its signature does not verify with the key"),
            TokenError::Unverifiable { alg } => write!(
                f,
                "the signature verifier in use cannot check {alg}; configure the algorithms it supports"
            ),
        }
    }
}

impl std::error::Error for TokenError {}

/// Why no key set can be had: the key set could not be fetched or read, or the issuer's
/// metadata could not. Answers 503 ([`KeySetError::status`]): the token was not judged.
///
/// ```
/// use skills_edge::http::KeySetError;
/// // What the Worker reports when the issuer does not answer.
/// let e = KeySetError::Fetch { what: "https://as.example/jwks.json: HTTP status 502".into() };
/// assert_eq!((e.status(), e.reason()), (503, "fetch"));
/// assert!(e.to_string().ends_with("fetching it failed: https://as.example/jwks.json: HTTP status 502"), "{e}");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum KeySetError {
    /// The document is larger than the bound (the key set's
    /// `MAX_KEY_SET_BYTES`, the metadata's `super::MAX_METADATA_BYTES`).
    TooLarge {
        /// Which document.
        what: &'static str,
        /// Its length in bytes.
        len: usize,
        /// The bound.
        max: usize,
    },
    /// The document is not what it must be (not a JSON object, no `keys` array, no
    /// `jwks_uri`, an `issuer` other than the configured one, …).
    Invalid {
        /// Which document.
        what: &'static str,
        /// What is wrong.
        problem: String,
    },
    /// The key set has more keys than `MAX_KEYS`.
    TooManyKeys {
        /// How many it has.
        count: usize,
    },
    /// The key set has no key that can be used (each skipped key with its reason).
    NoUsableKey {
        /// Why each key was skipped.
        skipped: Vec<String>,
    },
    /// The I/O layer could not fetch the document (an HTTP status, a time-out, a network
    /// error); built by the I/O layer.
    Fetch {
        /// What happened.
        what: String,
    },
    /// No key set is held and the last attempt to fetch one failed less than the refetch
    /// interval ago (`super::KeyCachePolicy::refetch_interval`).
    NotYet,
}

impl KeySetError {
    /// The HTTP status: always 503.
    pub fn status(&self) -> u16 {
        503
    }

    /// A stable kebab-case name of the reason, for logs and metrics.
    pub fn reason(&self) -> &'static str {
        match self {
            KeySetError::TooLarge { .. } => "too-large",
            KeySetError::Invalid { .. } => "invalid",
            KeySetError::TooManyKeys { .. } => "too-many-keys",
            KeySetError::NoUsableKey { .. } => "no-usable-key",
            KeySetError::Fetch { .. } => "fetch",
            KeySetError::NotYet => "not-yet",
        }
    }
}

impl fmt::Display for KeySetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("no key set: ")?;
        match self {
            KeySetError::TooLarge { what, len, max } => {
                write!(f, "the {what} is {len} bytes; at most {max} are read")
            }
            KeySetError::Invalid { what, problem } => write!(f, "the {what} {problem}"),
            KeySetError::TooManyKeys { count } => write!(
                f,
                "the key set has {count} keys; at most {} are read",
                super::MAX_KEYS
            ),
            KeySetError::NoUsableKey { skipped } => {
                f.write_str("the key set has no usable key")?;
                if !skipped.is_empty() {
                    write!(f, " ({})", skipped.join("; "))?;
                }
                Ok(())
            }
            KeySetError::Fetch { what } => write!(f, "fetching it failed: {what}"),
            KeySetError::NotYet => f.write_str(
                "the last fetch failed and the next is not due yet (the refetch interval)",
            ),
        }
    }
}

impl std::error::Error for KeySetError {}

/// `Bearer` with its parameters as quoted strings (RFC 6750 §3; `"` and `\` escaped as
/// quoted pairs, RFC 9110 §5.6.4).
fn challenge(error: Option<&str>, resource_metadata: Option<&str>) -> String {
    let mut out = String::from("Bearer");
    let mut sep = " ";
    for (name, value) in [("error", error), ("resource_metadata", resource_metadata)] {
        let Some(value) = value else { continue };
        out.push_str(sep);
        out.push_str(name);
        out.push_str("=\"");
        for c in value.chars().filter(|c| !c.is_control()) {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        }
        out.push('"');
        sep = ", ";
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn challenges() {
        assert_eq!(TokenError::Missing.challenge(None), "Bearer");
        assert_eq!(
            TokenError::Missing.challenge(Some("https://x/.well-known/oauth-protected-resource")),
            "Bearer resource_metadata=\"https://x/.well-known/oauth-protected-resource\""
        );
        assert_eq!(
            TokenError::Signature.challenge(Some("https://x/a\"b")),
            "Bearer error=\"invalid_token\", resource_metadata=\"https://x/a\\\"b\""
        );
    }

    #[test]
    fn statuses_and_reasons() {
        assert_eq!(TokenError::Audience.status(), 401);
        assert_eq!(TokenError::Audience.error_code(), Some("invalid_token"));
        assert_eq!(TokenError::Missing.error_code(), None);
        assert_eq!(KeySetError::NotYet.status(), 503);
        assert_eq!(
            KeySetError::NoUsableKey {
                skipped: vec!["a".into(), "b".into()]
            }
            .to_string(),
            "no key set: the key set has no usable key (a; b)"
        );
    }
}
