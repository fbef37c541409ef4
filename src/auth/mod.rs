//! Bearer token validation for private catalogs, sans-I/O: the rules an OAuth 2.1 resource
//! server applies to a JWT access token (RFC 9068) and the Cloudflare Access preset of the
//! same, with no network, no clock (the caller passes `now` in seconds) and no panics on any
//! input.
//!
//! | step | what | refused as |
//! |---|---|---|
//! | [`Token::parse`] | `Bearer` credential or bare token, at most 16 KiB; JWS compact form, strict base64url; header and claims JSON objects without duplicate members; `alg` in {ES256, RS256, EdDSA}; no `crit` | [`TokenError`] (401) |
//! | [`KeySet::parse`] | a JWK Set of at most 256 KiB and 64 keys: EC P-256, RSA ≥ 2048 bits, OKP Ed25519; others skipped; a shared `kid` ambiguous | [`KeySetError`] (503) |
//! | `Validator` | `alg` allowed, `typ`, the key by `kid` and type, `iss`, `aud`, `exp`, `nbf`, `iat`, the claims' types, then the signature ([`SignatureVerifier`], or [`SignatureCheck::finish`] for WebCrypto) | [`TokenError`] (401) |
//! | [`KeyCache`] | when to fetch the key set (age, unknown `kid`, at most one attempt per interval) | [`KeySetError`] (503) |
//! | [`TokenCache`] | tokens already verified, by SHA-256, until `exp` | - |
//! | `metadata_urls`, [`jwks_uri`], `access_certs_url` | where the keys are | [`KeySetError`] (503) |
//!
//! docs/private.md states each rule with its source.
//!
//! The Worker reaches the validator through [`crate::http::Bearer`], which holds it with the
//! settings; a verifier that answers later (WebCrypto) takes the [`SignatureCheck`]:
//!
//! ```
//! use skills_edge::auth::{Ed25519Verifier, KeySet, SignatureVerifier, Token};
//! use skills_edge::http::{AuthMode, Bearer, BearerConfig};
//! # use base64::Engine as _;
//! # let b64 = |b: &[u8]| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(b);
//! # let pair = ed25519_compact::KeyPair::from_seed(ed25519_compact::Seed::new([1; 32]));
//! # let jwks = format!(r#"{{"keys":[{{"kty":"OKP","crv":"Ed25519","kid":"k1","x":"{}"}}]}}"#, b64(&pair.pk[..]));
//! # let input = format!("{}.{}", b64(br#"{"alg":"EdDSA","kid":"k1","typ":"at+jwt"}"#),
//! #     b64(br#"{"iss":"https://as.example","aud":"https://rs.example/mcp","sub":"alice",
//! #             "client_id":"c","jti":"j","iat":1000,"exp":2000,"scope":"skills:read"}"#));
//! # let header = format!("Bearer {input}.{}", b64(&pair.sk.sign(&input, None)[..]));
//! let bearer = Bearer::new(BearerConfig {
//!     mode: AuthMode::Jwt,
//!     issuer: Some("https://as.example".into()),
//!     audiences: vec!["https://rs.example/mcp".into()],
//!     ..BearerConfig::default()
//! })
//! .unwrap()
//! .unwrap();
//! let keys = KeySet::parse(jwks.as_bytes()).unwrap();
//! let token = Token::parse(&header).unwrap();
//! let resource = "https://rs.example/mcp";
//! let check = bearer.prepare(&token, &keys, 1500, resource).unwrap();
//! let verified = Ed25519Verifier.verify(check.alg, check.key, check.message, check.signature);
//! let caller = check.finish(verified.unwrap()).unwrap();
//! assert_eq!((caller.subject.as_str(), caller.scopes.as_slice()), ("alice", &["skills:read".to_owned()][..]));
//! let expired = bearer.prepare(&token, &keys, 2100, resource).unwrap_err();
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

internal_use!(cache::{KeyCache, KeyCachePolicy, Plan});
internal_use!(cache::{TokenCache, DEFAULT_TOKEN_CACHE_ENTRIES});
internal_use!(discovery::{jwks_uri, MAX_METADATA_BYTES});
pub use error::{KeySetError, TokenError};
internal_use!(jwk::{Key, KeySet, PublicKey});
internal_use!(jwk::SkippedKey);
internal_use!(token::{Algorithm, Token});
internal_use!(validate::{Caller, DetachedCheck, SignatureCheck});
internal_use!(verify::{Ed25519Verifier, SignatureVerifier, Unsupported});

// What the Worker does not reach: the validator (behind `http::Bearer`), its configuration and
// the parsers' bounds.
internal_use!(config::{AuthConfigError, Grants, RequiredClaims, TypeCheck, ValidatorConfig});
internal_use!(config::DEFAULT_LEEWAY);
pub(crate) use discovery::metadata_urls;
internal_use!(discovery::access_certs_url);
internal_use!(jwk::{MAX_KEYS, MAX_KEY_SET_BYTES, MAX_RSA_BITS, MIN_RSA_BITS});
internal_use!(token::MAX_TOKEN_BYTES);
internal_use!(validate::Validator);
