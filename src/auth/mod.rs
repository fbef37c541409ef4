//! Bearer token validation for private catalogs, sans-I/O: the rules an OAuth 2.1 resource
//! server applies to a JWT access token (RFC 9068) and the Cloudflare Access preset of the
//! same, with no network, no clock (the caller passes `now` in seconds) and no panics on any
//! input.
//!
//! | step | what | refused as |
//! |---|---|---|
//! | [`Token::parse`] | `Bearer` credential or bare token, at most [`MAX_TOKEN_BYTES`]; JWS compact form, strict base64url; header and claims JSON objects without duplicate members; `alg` in {ES256, RS256, EdDSA}; no `crit` | [`TokenError`] (401) |
//! | [`KeySet::parse`] | a JWK Set of at most [`MAX_KEY_SET_BYTES`] and [`MAX_KEYS`] keys: EC P-256, RSA ≥ 2048 bits, OKP Ed25519; others skipped; a shared `kid` ambiguous | [`KeySetError`] (503) |
//! | [`Validator`] | `alg` allowed, `typ`, the key by `kid` and type, `iss`, `aud`, `exp`, `nbf`, `iat`, the claims' types, then the signature ([`SignatureVerifier`], or [`Validator::prepare`] and [`SignatureCheck::finish`] for WebCrypto) | [`TokenError`] (401) |
//! | [`Caller::require`] | the scopes an operation needs | [`InsufficientScope`] (403) |
//! | [`KeyCache`] | when to fetch the key set (age, unknown `kid`, at most one attempt per interval) | [`KeySetError`] (503) |
//! | [`TokenCache`] | tokens already verified, by SHA-256, until `exp` | - |
//! | `metadata_urls`, [`jwks_uri`], [`access_certs_url`] | where the keys are | [`KeySetError`] (503) |
//!
//! docs/private.md states each rule with its source.
//!
//! ```
//! use skills_edge::auth::{Ed25519Verifier, KeySet, Token, Validator, ValidatorConfig};
//! # use base64::Engine as _;
//! # let b64 = |b: &[u8]| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(b);
//! # let pair = ed25519_compact::KeyPair::from_seed(ed25519_compact::Seed::new([1; 32]));
//! # let jwks = format!(r#"{{"keys":[{{"kty":"OKP","crv":"Ed25519","kid":"k1","x":"{}"}}]}}"#, b64(&pair.pk[..]));
//! # let input = format!("{}.{}", b64(br#"{"alg":"EdDSA","kid":"k1","typ":"at+jwt"}"#),
//! #     b64(br#"{"iss":"https://as.example","aud":"https://rs.example/mcp","sub":"alice",
//! #             "client_id":"c","jti":"j","iat":1000,"exp":2000,"scope":"skills:read"}"#));
//! # let header = format!("Bearer {input}.{}", b64(&pair.sk.sign(&input, None)[..]));
//! let keys = KeySet::parse(jwks.as_bytes()).unwrap();
//! let validator = Validator::new(ValidatorConfig::rfc9068(
//!     "https://as.example",
//!     vec!["https://rs.example/mcp".into()],
//! ))
//! .unwrap();
//! let token = Token::parse(&header).unwrap();
//! let caller = validator.validate(&token, &keys, 1500, &Ed25519Verifier).unwrap();
//! assert_eq!(caller.subject, "alice");
//! assert!(caller.has_scope("skills:read"));
//! let expired = validator.validate(&token, &keys, 2100, &Ed25519Verifier).unwrap_err();
//! assert_eq!((expired.status(), expired.reason()), (401, "expired"));
//! ```

mod cache;
mod claims;
mod config;
mod discovery;
mod error;
mod jwk;
mod token;
mod validate;
mod verify;

pub use cache::{KeyCache, KeyCachePolicy, Plan};
pub use cache::{TokenCache, DEFAULT_TOKEN_CACHE_ENTRIES};
pub use config::AuthConfigError;
pub use config::{Grants, RequiredClaims, TypeCheck, ValidatorConfig, DEFAULT_LEEWAY};
pub use discovery::access_certs_url;
pub(crate) use discovery::metadata_urls;
pub use discovery::{jwks_uri, MAX_METADATA_BYTES};
pub use error::InsufficientScope;
pub use error::{KeySetError, TokenError};
pub use jwk::Key;
pub use jwk::{KeySet, PublicKey, MAX_KEYS, MAX_RSA_BITS, MIN_RSA_BITS};
pub use jwk::{SkippedKey, MAX_KEY_SET_BYTES};
pub use token::{Algorithm, Token, MAX_TOKEN_BYTES};
pub use validate::DetachedCheck;
pub use validate::SignatureCheck;
pub use validate::{Caller, Validator};
pub use verify::{Ed25519Verifier, SignatureVerifier, Unsupported};
