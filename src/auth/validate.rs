//! The validator: the checks in order ([`Validator`]), and the caller a valid token stands
//! for ([`Caller`]); its settings are [`ValidatorConfig`] (`config.rs`).

use std::collections::BTreeSet;

use super::claims::{a_type, as_number, shown, strings, ClaimPath};
use super::config::{
    AuthConfigError, Grants, RequiredClaims, TypeCheck, ValidatorConfig, MAX_LEEWAY,
};
use super::error::TokenError;
use super::jwk::{KeySet, PublicKey};
use super::token::{Algorithm, Token};
#[cfg(feature = "internals")]
use super::verify::{SignatureVerifier, Unsupported};
use crate::skill::value::{Number, Value};

/// Who a valid token stands for.
///
/// ```
/// use skills_edge::auth::{Ed25519Verifier, KeySet, SignatureVerifier, Token};
/// # use base64::Engine as _;
/// # let b64 = |b: &[u8]| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(b);
/// # let pair = ed25519_compact::KeyPair::from_seed(ed25519_compact::Seed::new([1; 32]));
/// # let jwks = format!(r#"{{"keys":[{{"kty":"OKP","crv":"Ed25519","kid":"k1","x":"{}"}}]}}"#, b64(&pair.pk[..]));
/// # let input = format!("{}.{}", b64(br#"{"alg":"EdDSA","kid":"k1","typ":"at+jwt"}"#),
/// #     b64(br#"{"iss":"https://as.example","aud":"https://rs.example/mcp","sub":"alice",
/// #             "client_id":"c","jti":"j","iat":1000,"exp":2000,"scope":"skills:read"}"#));
/// # let header = format!("Bearer {input}.{}", b64(&pair.sk.sign(&input, None)[..]));
/// # let bearer = skills_edge::http::Bearer::new(skills_edge::http::BearerConfig {
/// #     mode: skills_edge::http::AuthMode::Jwt, issuer: Some("https://as.example".into()),
/// #     audiences: vec!["https://rs.example/mcp".into()], ..Default::default() }).unwrap().unwrap();
/// let keys = KeySet::parse(jwks.as_bytes()).unwrap();
/// let token = Token::parse(&header).unwrap();
/// let check = bearer.prepare(&token, &keys, 1500, "https://rs.example/mcp").unwrap();
/// let verdict = Ed25519Verifier.verify(check.alg, check.key, check.message, check.signature).unwrap();
/// let caller = check.finish(verdict).unwrap();
/// assert_eq!((caller.subject.as_str(), caller.expires_at), ("alice", 2000));
/// assert_eq!(caller.scopes, ["skills:read"]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    /// `sub` (or, with the Access preset, the fallback claim); empty only with
    /// `RequiredClaims::Minimal` when neither is given.
    pub subject: String,
    /// The grant: the scopes of the scope claims, in token order, each once (with
    /// `Grants::AccessIdentity`, what Access asserts: `email:…`, `email-domain:…`,
    /// `service-token:…`, `group:…`).
    pub scopes: Vec<String>,
    /// `exp`, in seconds since the epoch.
    pub expires_at: u64,
    /// The first second the token is refused: `exp` plus the leeway (for
    /// [`super::TokenCache`]).
    pub(crate) refused_from: u64,
}

/// Validates bearer tokens against one configuration. Sans-I/O: the key set and the time are
/// given, and the signature is checked through a [`SignatureVerifier`](super::SignatureVerifier) or, for an
/// asynchronous one, through [`Validator::prepare`] and [`SignatureCheck::finish`].
///
/// The checks, in this order (the first that fails is the reason given):
///
/// 1. the token's form ([`Token::parse`]: size, base64url, JSON, `alg` allow-list, `crit`);
/// 2. `alg` among [`ValidatorConfig::algorithms`];
/// 3. `typ` ([`ValidatorConfig::token_type`]);
/// 4. the key ([`KeySet::select`]: by `kid`, of the type `alg` takes, not ambiguous); for
///    RS256, a signature exactly as long as the modulus (RFC 8017 §8.2.2);
/// 5. `iss` (a string, exactly the issuer), `aud` (a string or an array of strings, one of
///    them accepted), `exp` (a number, required: now < exp + leeway), `nbf` (a number if
///    present: nbf ≤ now + leeway), `iat` (a number, required by RFC 9068: iat ≤ now +
///    leeway), a lifetime (`exp` − `iat`, or `exp` − now) of at most 31 days, no `cnf`, a
///    `typ` claim absent or `Bearer`, with the Access preset `type` `app`, `sub`,
///    `client_id`, `jti` (strings; required and non-empty by RFC 9068), the scope claim (a
///    string or an array of strings; values that are no scope token are left out);
/// 6. the signature.
///
/// The claims are checked before the signature so that an expired or misaddressed token costs
/// no signature work; nothing from an unverified token is returned. NumericDate values may
/// have a fraction (RFC 7519 §2): `exp` is rounded down, `nbf` and `iat` up.
#[derive(Debug, Clone)]
pub struct Validator {
    config: Box<ValidatorConfig>,
    paths: Vec<ClaimPath>,
}

/// The signature left to check for a token whose every other check passed: the algorithm,
/// the key, the signed bytes and the signature. [`SignatureCheck::finish`] takes the verdict;
/// the caller is returned only for `true`.
///
/// ```
/// use skills_edge::auth::{KeySet, Token, TokenError};
/// # use base64::Engine as _;
/// # let b64 = |b: &[u8]| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(b);
/// # let pair = ed25519_compact::KeyPair::from_seed(ed25519_compact::Seed::new([1; 32]));
/// # let jwks = format!(r#"{{"keys":[{{"kty":"OKP","crv":"Ed25519","kid":"k1","x":"{}"}}]}}"#, b64(&pair.pk[..]));
/// # let input = format!("{}.{}", b64(br#"{"alg":"EdDSA","kid":"k1","typ":"at+jwt"}"#),
/// #     b64(br#"{"iss":"https://as.example","aud":"https://rs.example/mcp","sub":"alice",
/// #             "client_id":"c","jti":"j","iat":1000,"exp":2000,"scope":"skills:read"}"#));
/// # let header = format!("Bearer {input}.{}", b64(&pair.sk.sign(&input, None)[..]));
/// # let bearer = skills_edge::http::Bearer::new(skills_edge::http::BearerConfig {
/// #     mode: skills_edge::http::AuthMode::Jwt, issuer: Some("https://as.example".into()),
/// #     audiences: vec!["https://rs.example/mcp".into()], ..Default::default() }).unwrap().unwrap();
/// let keys = KeySet::parse(jwks.as_bytes()).unwrap();
/// let token = Token::parse(&header).unwrap();
/// let check = bearer.prepare(&token, &keys, 1500, "https://rs.example/mcp").unwrap();
/// // What a verifier is handed: the key `kid` named, and the signed `header.payload`.
/// assert_eq!(check.key, &keys.keys()[0].key);
/// assert_eq!(check.message, input.as_bytes());
/// // A signature that does not verify refuses the token.
/// assert_eq!(check.finish(false).unwrap_err(), TokenError::Signature);
/// ```
#[must_use = "the token is not valid until the signature is checked and `finish`ed"]
#[derive(Debug)]
pub struct SignatureCheck<'a> {
    /// The algorithm.
    pub alg: Algorithm,
    /// The key to check with (its type goes with `alg`).
    pub key: &'a PublicKey,
    /// The signed bytes (`header.payload`, ASCII).
    pub message: &'a [u8],
    /// The signature.
    pub signature: &'a [u8],
    caller: Caller,
}

impl SignatureCheck<'_> {
    /// The caller when `verified`, else [`TokenError::Signature`].
    #[cfg(any(test, feature = "internals"))]
    pub fn finish(self, verified: bool) -> Result<Caller, TokenError> {
        if verified {
            Ok(self.caller)
        } else {
            Err(TokenError::Signature)
        }
    }

    /// The same check, owning its key and bytes: for a verifier that answers later (the
    /// Worker's WebCrypto) while the key set it was prepared with may be replaced meanwhile.
    pub fn detach(self) -> DetachedCheck {
        DetachedCheck {
            alg: self.alg,
            key: self.key.clone(),
            message: self.message.to_vec(),
            signature: self.signature.to_vec(),
            caller: self.caller,
        }
    }
}

/// A [`SignatureCheck`] that owns its key and bytes ([`SignatureCheck::detach`]).
///
/// ```
/// use skills_edge::auth::{DetachedCheck, Ed25519Verifier, KeySet, SignatureVerifier, Token};
/// # use base64::Engine as _;
/// # let b64 = |b: &[u8]| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(b);
/// # let pair = ed25519_compact::KeyPair::from_seed(ed25519_compact::Seed::new([1; 32]));
/// # let jwks = format!(r#"{{"keys":[{{"kty":"OKP","crv":"Ed25519","kid":"k1","x":"{}"}}]}}"#, b64(&pair.pk[..]));
/// # let input = format!("{}.{}", b64(br#"{"alg":"EdDSA","kid":"k1","typ":"at+jwt"}"#),
/// #     b64(br#"{"iss":"https://as.example","aud":"https://rs.example/mcp","sub":"alice",
/// #             "client_id":"c","jti":"j","iat":1000,"exp":2000,"scope":"skills:read"}"#));
/// # let header = format!("Bearer {input}.{}", b64(&pair.sk.sign(&input, None)[..]));
/// # let bearer = skills_edge::http::Bearer::new(skills_edge::http::BearerConfig {
/// #     mode: skills_edge::http::AuthMode::Jwt, issuer: Some("https://as.example".into()),
/// #     audiences: vec!["https://rs.example/mcp".into()], ..Default::default() }).unwrap().unwrap();
/// let detached: DetachedCheck = {
///     let keys = KeySet::parse(jwks.as_bytes()).unwrap();
///     let token = Token::parse(&header).unwrap();
///     bearer.prepare(&token, &keys, 1500, "https://rs.example/mcp").unwrap().detach()
/// }; // the key set and the token may go now (a rotation, the request's end)
/// let verdict = Ed25519Verifier.verify(detached.alg, &detached.key, &detached.message, &detached.signature);
/// assert_eq!(detached.finish(verdict.unwrap()).unwrap().subject, "alice");
/// ```
#[must_use = "the token is not valid until the signature is checked and `finish`ed"]
#[derive(Debug)]
pub struct DetachedCheck {
    /// The algorithm.
    pub alg: Algorithm,
    /// The key to check with (its type goes with `alg`).
    pub key: PublicKey,
    /// The signed bytes (`header.payload`, ASCII).
    pub message: Vec<u8>,
    /// The signature.
    pub signature: Vec<u8>,
    caller: Caller,
}

impl DetachedCheck {
    /// The caller when `verified`, else [`TokenError::Signature`].
    pub fn finish(self, verified: bool) -> Result<Caller, TokenError> {
        if verified {
            Ok(self.caller)
        } else {
            Err(TokenError::Signature)
        }
    }
}

impl Validator {
    /// A validator for `config`, refused when the configuration cannot work: no issuer, an
    /// empty audience, no scope claim name, a leeway over `MAX_LEEWAY`, no algorithm. An
    /// empty list of audiences is accepted for a server that names its audience per request
    /// (`Validator::prepare_for`); [`Validator::prepare`] then refuses every token
    /// (`audience`).
    pub fn new(config: ValidatorConfig) -> Result<Validator, AuthConfigError> {
        let fail = |setting, problem: &str| {
            Err(AuthConfigError {
                setting,
                problem: problem.to_owned(),
            })
        };
        if config.issuer.is_empty() {
            return fail(
                "issuer",
                "is empty: give the authorization server's issuer identifier",
            );
        }
        if config.audiences.iter().any(String::is_empty) {
            return fail(
                "audience",
                "is empty: give this server's canonical URI (or the Access application's AUD tag)",
            );
        }
        if config.scope_claims.is_empty() && config.grants == Grants::Scopes {
            return fail("scope claim", "is empty: give a claim name such as scope");
        }
        let paths = config
            .scope_claims
            .iter()
            .map(|c| ClaimPath::parse(c))
            .collect::<Result<Vec<_>, String>>()
            .map_err(|problem| AuthConfigError {
                setting: "scope claim",
                problem: format!(
                    "{problem}: give claim names (scope, scp, roles) or JSON Pointers (/realm_access/roles), separated by commas"
                ),
            })?;
        if config.leeway > MAX_LEEWAY {
            return fail(
                "leeway",
                "is over 300 seconds: clock skew is a few seconds to minutes",
            );
        }
        if config.algorithms.is_empty() {
            return fail("algorithms", "is empty: accept ES256, RS256 or EdDSA");
        }
        Ok(Validator {
            config: Box::new(config),
            paths,
        })
    }

    /// The configuration.
    pub fn config(&self) -> &ValidatorConfig {
        &self.config
    }

    /// Every check but the signature's (steps 2 to 5 of [`Validator`]); the signature is left
    /// in the [`SignatureCheck`]. (The Worker goes through `http::Bearer::prepare`; this is for
    /// this repository's tests, feature `internals`.)
    #[cfg(feature = "internals")]
    pub fn prepare<'a>(
        &self,
        token: &'a Token,
        keys: &'a KeySet,
        now: u64,
    ) -> Result<SignatureCheck<'a>, TokenError> {
        self.prepare_for(token, keys, now, None)
    }

    /// As [`Validator::prepare`], also accepting the audience `resource` when given: this
    /// server's canonical URI as the request names it (RFC 8707 §2), for a server whose
    /// configuration names no audience because it learns its own URL from each request.
    pub(crate) fn prepare_for<'a>(
        &self,
        token: &'a Token,
        keys: &'a KeySet,
        now: u64,
        resource: Option<&str>,
    ) -> Result<SignatureCheck<'a>, TokenError> {
        let c = &self.config;
        let alg = token.alg();
        if !c.algorithms.contains(&alg) {
            return Err(TokenError::Algorithm {
                alg: shown(alg.as_str()),
            });
        }
        let typ_ok = |accepted: &[&str]| {
            token.typ().is_some_and(|t| {
                let t = match t.get(..12) {
                    Some(p) if p.eq_ignore_ascii_case("application/") => &t[12..],
                    _ => t,
                };
                accepted.iter().any(|a| t.eq_ignore_ascii_case(a))
            })
        };
        let ok = match c.token_type {
            TypeCheck::AccessToken => typ_ok(&["at+jwt"]),
            TypeCheck::Jwt => token.typ().is_none() || typ_ok(&["at+jwt", "jwt"]),
            TypeCheck::Unchecked => true,
        };
        if !ok {
            return Err(TokenError::Type {
                typ: token.typ().map(shown),
            });
        }
        let key = keys.select(token.kid(), alg)?;
        if let PublicKey::Rsa { n, .. } = &key.key
            && token.signature().len() != n.len()
        {
            return Err(TokenError::Signature);
        }
        let caller = self.claims(token, now, resource)?;
        Ok(SignatureCheck {
            alg,
            key: &key.key,
            message: token.signing_input(),
            signature: token.signature(),
            caller,
        })
    }

    /// Validates `token` with `keys` at `now` (seconds since the epoch), checking the
    /// signature with `verifier`. (The Worker goes through `http::Bearer`; this is for this
    /// repository's tests, feature `internals`.)
    #[cfg(feature = "internals")]
    pub fn validate(
        &self,
        token: &Token,
        keys: &KeySet,
        now: u64,
        verifier: &dyn SignatureVerifier,
    ) -> Result<Caller, TokenError> {
        let check = self.prepare(token, keys, now)?;
        match verifier.verify(check.alg, check.key, check.message, check.signature) {
            Ok(verified) => check.finish(verified),
            Err(Unsupported) => Err(TokenError::Unverifiable {
                alg: check.alg.as_str(),
            }),
        }
    }

    /// Step 5: the claims, into the caller.
    fn claims(
        &self,
        token: &Token,
        now: u64,
        resource: Option<&str>,
    ) -> Result<Caller, TokenError> {
        let c = &self.config;
        let strict = c.required == RequiredClaims::Rfc9068;
        let claims = &token.claims;
        let get = |name: &str| claims.get(name);
        let now_i = i128::from(now);
        let leeway = i128::from(c.leeway);

        match get("iss") {
            None => return Err(missing("iss")),
            Some(Value::String(iss)) if *iss == c.issuer => {}
            Some(Value::String(iss)) => return Err(TokenError::Issuer { iss: shown(iss) }),
            Some(other) => return Err(wrong_type("iss", other, "a string")),
        }
        let audiences = match get("aud") {
            None => return Err(missing("aud")),
            Some(Value::String(a)) => vec![a.clone()],
            Some(other) => strings(other)
                .ok_or_else(|| wrong_type("aud", other, "a string or an array of strings"))?,
        };
        if !audiences
            .iter()
            .any(|a| c.audiences.contains(a) || resource == Some(a.as_str()))
        {
            return Err(TokenError::Audience);
        }
        let date = |name: &str, round_up: bool| -> Result<Option<i64>, TokenError> {
            match get(name) {
                None => Ok(None),
                Some(v) => as_number(v)
                    .map(|n| Some(numeric_date(n, round_up)))
                    .ok_or_else(|| wrong_type(name, v, "a number (NumericDate)")),
            }
        };
        let exp = date("exp", false)?.ok_or_else(|| missing("exp"))?;
        if now_i >= i128::from(exp) + leeway {
            return Err(TokenError::Expired { exp, now });
        }
        if let Some(nbf) = date("nbf", true)?
            && i128::from(nbf) > now_i + leeway
        {
            return Err(TokenError::NotYetValid { nbf, now });
        }
        let iat = date("iat", true)?;
        match iat {
            None if strict => return Err(missing("iat")),
            Some(iat) if i128::from(iat) > now_i + leeway => {
                return Err(TokenError::IssuedInFuture { iat, now })
            }
            _ => {}
        }
        lifetime(exp, iat, now_i, leeway)?;
        kind_of_token(claims, c.grants)?;
        let sub = self.string_claim(token, "sub", strict)?;
        self.string_claim(token, "client_id", strict)?;
        self.string_claim(token, "jti", strict)?;
        let subject = match &sub {
            Some(s) if !s.is_empty() => s.clone(),
            _ => match &c.subject_fallback {
                Some(name) => self.string_claim(token, name, false)?.unwrap_or_default(),
                None => String::new(),
            },
        };
        let values = self.claim_values(claims)?;
        let scopes = match c.grants {
            Grants::Scopes => values,
            Grants::AccessIdentity => {
                let service = sub.as_deref().is_none_or(str::is_empty);
                let email = self.string_claim(token, "email", false)?;
                let name = self.string_claim(token, "common_name", false)?;
                access_identity(email.as_deref(), service.then_some(name).flatten(), values)
            }
        };
        // Only scope tokens (RFC 6749 §3.3) reach the grant: an access rule can name no other
        // value (the build refuses it), so nothing else may stand in the caller's scopes.
        let mut seen = BTreeSet::new();
        let scopes = scopes
            .into_iter()
            .filter(|s| is_scope_token(s) && seen.insert(s.clone()))
            .collect();
        let expires_at = u64::try_from(exp).unwrap_or(0);
        let refused_from = u64::try_from(i128::from(exp) + leeway).unwrap_or(0);
        Ok(Caller {
            subject,
            scopes,
            expires_at,
            refused_from,
        })
    }

    /// The values of the scope claims (`AUTH_SCOPES_CLAIM`) in `claims`, in their order: each
    /// string split on spaces for scopes, kept whole for Access's groups.
    fn claim_values(&self, claims: &Value) -> Result<Vec<String>, TokenError> {
        let c = &self.config;
        let mut values = Vec::new();
        for (path, name) in self.paths.iter().zip(&c.scope_claims) {
            let found = path.find(claims).map_err(|t| TokenError::Claim {
                name: name.clone(),
                problem: format!("passes through {t}; each member on the way must be an object"),
            })?;
            values.extend(match c.grants {
                Grants::Scopes => scopes(found, name)?,
                // A group's name is the claim's value whole: "Platform eng" is one group (no
                // scope token, so left out), never the groups "Platform" and "eng".
                Grants::AccessIdentity => groups(found, name)?,
            });
        }
        Ok(values)
    }

    /// A claim that must be a string if present; with `required`, present and non-empty.
    fn string_claim(
        &self,
        token: &Token,
        name: &str,
        required: bool,
    ) -> Result<Option<String>, TokenError> {
        match token.claims.get(name) {
            None if required => Err(missing(name)),
            None => Ok(None),
            Some(Value::String(s)) if required && s.is_empty() => Err(TokenError::Claim {
                name: name.to_owned(),
                problem: "is empty (RFC 9068 §2.2)".to_owned(),
            }),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => Err(wrong_type(name, other, "a string")),
        }
    }
}

/// The longest lifetime accepted, in seconds: 31 days, from `iat` (or from now when the token
/// has none) to `exp`. RFC 7519 §4.1.4 sets no bound and RFC 9068 none either, but a token
/// that never expires stays usable wherever it leaks (RFC 6819 §5.1.5.3: "use short
/// expiration time"; RFC 8725 §2.1 lists leaked tokens' replay among the threats). The bound
/// is above the longest lifetime each supported issuer documents, so no genuine token is
/// refused: Auth0's "Maximum Access Token Lifetime" (30 days), Okta's and Microsoft Entra
/// ID's (one day), Keycloak's realm setting (minutes by default), Cloudflare Access's longest
/// application session (one month).
pub(crate) const MAX_LIFETIME: i128 = 31 * 24 * 3600;

/// Refuses a token whose lifetime, `exp` minus `iat` (or minus `now` without `iat`), is over
/// [`MAX_LIFETIME`] plus the leeway.
fn lifetime(exp: i64, iat: Option<i64>, now: i128, leeway: i128) -> Result<(), TokenError> {
    let from = iat.map_or(now, i128::from);
    let span = i128::from(exp) - from;
    if span <= MAX_LIFETIME + leeway {
        return Ok(());
    }
    Err(TokenError::Claim {
        name: "exp".to_owned(),
        problem: format!(
            "is {span} seconds after {}; at most {MAX_LIFETIME} (31 days) are accepted: have the issuer give access tokens a shorter lifetime (docs/private.md, Token lifetime)",
            if iat.is_some() { "iat" } else { "now" }
        ),
    })
}

/// Refuses what is not an access token for this server by its claims (RFC 8725 §3.12:
/// mutually exclusive validation rules for different kinds of JWTs):
///
/// * `cnf` (RFC 7800 §3): the token is bound to a key its holder must prove, by DPoP (RFC
///   9449 §7.2: a resource server "MUST reject a DPoP-bound access token received as a
///   bearer token") or a client certificate (RFC 8705 §3). This server checks neither
///   proof, so a sender-constrained token is never taken as a bearer token.
/// * `typ` (Keycloak's own claim: `Bearer` for access tokens, `ID`, `Refresh`, `Logout`,
///   `Serialized-ID` for the others): present and not `Bearer` (any case), the token is an ID
///   or refresh token, refused even when its `aud` names this server.
/// * with [`Grants::AccessIdentity`], `type` (Cloudflare Access: `app` for an application
///   token, `org` for the team domain's own token): required and exactly `app`.
fn kind_of_token(claims: &Value, grants: Grants) -> Result<(), TokenError> {
    let refuse = |name: &str, problem: String| {
        Err(TokenError::Claim {
            name: name.to_owned(),
            problem,
        })
    };
    if claims.get("cnf").is_some() {
        return refuse(
            "cnf",
            "binds the token to a key (DPoP, RFC 9449 §7.2, or a client certificate, RFC 8705 §3) whose proof this server does not check: a sender-constrained token is not accepted as a bearer token; have the client request a bearer token for this server".to_owned(),
        );
    }
    match claims.get("typ") {
        None => {}
        Some(Value::String(t)) if t.eq_ignore_ascii_case("bearer") => {}
        Some(Value::String(t)) => {
            return refuse(
                "typ",
                format!(
                    "is {}: the issuer marks it as no access token (Keycloak: Bearer for access tokens, ID for ID tokens); send the access token",
                    shown(t)
                ),
            )
        }
        Some(other) => return Err(wrong_type("typ", other, "a string")),
    }
    if grants == Grants::AccessIdentity {
        match claims.get("type") {
            Some(Value::String(t)) if t == "app" => {}
            Some(Value::String(t)) => {
                return refuse(
                    "type",
                    format!(
                        "is {}: only an Access application token (type \"app\") grants access to this application",
                        shown(t)
                    ),
                )
            }
            Some(other) => return Err(wrong_type("type", other, "a string")),
            None => return Err(missing("type")),
        }
    }
    Ok(())
}

/// The grant of what Access asserts ([`Grants::AccessIdentity`]): `email:` and
/// `email-domain:` of one address, `service-token:` of a service token's client ID, `group:`
/// of each group; values that are no scope token are left out.
fn access_identity(
    email: Option<&str>,
    service: Option<String>,
    groups: Vec<String>,
) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(email) = email {
        let email = email.to_ascii_lowercase();
        if let Some((local, domain)) = email.split_once('@') {
            let address = format!("email:{email}");
            if !local.is_empty()
                && !domain.is_empty()
                && !domain.contains('@')
                && is_scope_token(&address)
            {
                out.push(address);
                out.push(format!("email-domain:{domain}"));
            }
        }
    }
    if let Some(name) = service {
        out.push(format!("service-token:{name}"));
    }
    out.extend(groups.into_iter().map(|g| format!("group:{g}")));
    out.retain(|t| is_scope_token(t));
    out
}

/// RFC 6749 §3.3: `1*( %x21 / %x23-5B / %x5D-7E )`.
fn is_scope_token(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b == 0x21 || (0x23..=0x5B).contains(&b) || (0x5D..=0x7E).contains(&b))
}

/// The scopes of one scope claim's value: split on spaces when a string, each element when an
/// array of strings (empty entries dropped by the caller).
fn scopes(value: Option<&Value>, name: &str) -> Result<Vec<String>, TokenError> {
    match value {
        None => Ok(Vec::new()),
        Some(Value::String(s)) => Ok(s.split(' ').map(str::to_owned).collect()),
        Some(other) => strings(other).ok_or_else(|| {
            wrong_type(
                name,
                other,
                "a space-separated string or an array of strings",
            )
        }),
    }
}

/// The groups of the groups claim's value in `access` mode: a string is one group, an array
/// of strings one group per element.
fn groups(value: Option<&Value>, name: &str) -> Result<Vec<String>, TokenError> {
    match value {
        None => Ok(Vec::new()),
        Some(Value::String(s)) => Ok(vec![s.clone()]),
        Some(other) => {
            strings(other).ok_or_else(|| wrong_type(name, other, "a string or an array of strings"))
        }
    }
}

/// A NumericDate (RFC 7519 §2: seconds, possibly with a fraction) as whole seconds, rounded
/// down (`exp`) or up (`nbf`, `iat`) so the fraction never widens the window; values beyond
/// `i64` saturate.
fn numeric_date(n: Number, round_up: bool) -> i64 {
    match n {
        Number::Int(i) => i,
        // `as` saturates at the bounds of i64.
        Number::Float(f) => (if round_up { f.ceil() } else { f.floor() }) as i64,
    }
}

fn missing(name: &str) -> TokenError {
    TokenError::Claim {
        name: name.to_owned(),
        problem: "is missing".to_owned(),
    }
}

fn wrong_type(name: &str, value: &Value, expected: &str) -> TokenError {
    TokenError::Claim {
        name: name.to_owned(),
        problem: format!("is {}; it must be {expected}", a_type(value)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configurations_that_cannot_work_are_refused() {
        let ok = ValidatorConfig::rfc9068("https://as", vec!["https://rs/mcp".into()]);
        assert!(Validator::new(ok.clone()).is_ok());
        type Edit = fn(&mut ValidatorConfig);
        let cases: [(Edit, &str); 6] = [
            (|c| c.issuer.clear(), "issuer"),
            (|c| c.audiences.push(String::new()), "audience"),
            (|c| c.audiences = vec![String::new()], "audience"),
            (|c| c.scope_claims.clear(), "scope claim"),
            (|c| c.leeway = 301, "leeway"),
            (|c| c.algorithms.clear(), "algorithms"),
        ];
        for (edit, setting) in cases {
            let mut c = ok.clone();
            edit(&mut c);
            assert_eq!(Validator::new(c).unwrap_err().setting, setting);
        }
    }

    #[test]
    fn numeric_dates_round_toward_refusal() {
        let n =
            |s: &str| match crate::auth::claims::read_object(format!("{{\"n\":{s}}}").as_bytes())
                .unwrap()
                .get("n")
            {
                Some(Value::Number(n)) => *n,
                _ => unreachable!(),
            };
        assert_eq!(numeric_date(n("10"), false), 10);
        assert_eq!(numeric_date(n("10.5"), false), 10);
        assert_eq!(numeric_date(n("10.5"), true), 11);
        assert_eq!(numeric_date(n("-1.5"), false), -2);
        assert_eq!(numeric_date(n("18446744073709551615"), false), i64::MAX);
        assert_eq!(numeric_date(n("1e300"), false), i64::MAX);
        assert_eq!(numeric_date(n("-1e300"), true), i64::MIN);
    }

    #[test]
    fn scopes_are_split() {
        let s = |v: Value| scopes(Some(&v), "scope");
        assert_eq!(
            s(Value::String("a  b".into())).unwrap(),
            ["a", "", "b"].map(String::from)
        );
        assert_eq!(
            s(Value::Array(vec![Value::String("g 1".into())])).unwrap(),
            ["g 1"].map(String::from)
        );
        assert!(s(Value::Array(vec![Value::String("a".into()), Value::Null])).is_err());
        assert!(s(Value::Bool(true)).is_err());
        assert_eq!(scopes(None, "scope").unwrap(), Vec::<String>::new());
    }

    #[test]
    fn access_identities_are_kinds_of_their_own() {
        assert_eq!(
            access_identity(
                Some("Alice@Example.COM"),
                None,
                vec!["eng".into(), "a b".into()]
            ),
            [
                "email:alice@example.com",
                "email-domain:example.com",
                "group:eng"
            ]
        );
        // Not one address: no email grant at all.
        for bad in [
            "alice",
            "@example.com",
            "alice@",
            "a@b@example.com",
            "a b@example.com",
        ] {
            assert!(
                access_identity(Some(bad), None, vec![]).is_empty(),
                "{bad:?}"
            );
        }
        assert_eq!(
            access_identity(None, Some("abc.access".into()), vec![]),
            ["service-token:abc.access"]
        );
    }
}
