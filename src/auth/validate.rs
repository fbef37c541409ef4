//! The validator: the settings ([`ValidatorConfig`]), the checks in order, and the caller a
//! valid token stands for ([`Caller`]).

use std::collections::BTreeSet;
use std::fmt;

use super::error::{InsufficientScope, TokenError};
use super::json::{shown, Json};
use super::jwk::{KeySet, PublicKey};
use super::token::{Algorithm, Token};
use super::verify::{SignatureVerifier, Unsupported};

/// The default leeway for `exp`, `nbf` and `iat`, in seconds.
pub const DEFAULT_LEEWAY: u64 = 60;

/// The largest leeway accepted, in seconds (RFC 9068 §4: "some small leeway, usually no more
/// than a few minutes, to account for clock skew").
pub const MAX_LEEWAY: u64 = 300;

/// The default name of the claim the scopes are read from (RFC 9068 §2.2.3, RFC 8693 §4.2).
pub const DEFAULT_SCOPE_CLAIM: &str = "scope";

/// What the header's `typ` must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeCheck {
    /// `at+jwt` or `application/at+jwt`, without regard to case (RFC 9068 §4: "The resource
    /// server MUST verify that the "typ" header value is "at+jwt" or "application/at+jwt"
    /// and reject tokens carrying any other value"; RFC 7515 §4.1.9: media types are
    /// case-insensitive and `application/` may be left out). A missing `typ` is refused.
    AccessToken,
    /// Not checked (Cloudflare Access's tokens carry `typ` `JWT`).
    Unchecked,
}

/// Which claims must be present. Every claim read here is refused when present with the
/// wrong JSON type, required or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequiredClaims {
    /// RFC 9068 §2.2: `iss`, `exp`, `aud`, `sub`, `client_id`, `iat` and `jti`, with `sub`,
    /// `client_id` and `jti` non-empty strings.
    Rfc9068,
    /// `iss`, `exp` and `aud` only (Cloudflare Access's tokens have no `client_id` or `jti`,
    /// and a service token's `sub` is empty).
    Minimal,
}

/// The validator's settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidatorConfig {
    /// The issuer; a token's `iss` must equal it exactly (RFC 9068 §4, no normalisation).
    pub issuer: String,
    /// The audiences accepted: a token's `aud` (a string or an array of strings) must contain
    /// one of them, compared exactly (RFC 7519 §4.1.3; RFC 9068 §4; RFC 8707 §2: the
    /// server's canonical URI, or Cloudflare Access's application AUD tag).
    pub audiences: Vec<String>,
    /// The `typ` rule.
    pub token_type: TypeCheck,
    /// The claims that must be present.
    pub required: RequiredClaims,
    /// The claim the scopes are read from: a space-separated string (`scope`, RFC 8693
    /// §4.2) or an array of strings (such as `permissions`, `groups` or `roles`, RFC 9068
    /// §2.2.3.1). Absent: no scopes.
    pub scope_claim: String,
    /// With [`RequiredClaims::Minimal`]: the claim the caller's subject is read from when
    /// `sub` is absent or empty (Cloudflare Access's service tokens name the service token in
    /// `common_name`).
    pub subject_fallback: Option<String>,
    /// Seconds of clock skew allowed on `exp`, `nbf` and `iat` (at most [`MAX_LEEWAY`]).
    pub leeway: u64,
    /// The algorithms accepted, a subset of [`Algorithm::ALL`] (RFC 8725 §3.1: the caller
    /// chooses the set).
    pub algorithms: Vec<Algorithm>,
}

impl ValidatorConfig {
    /// An OAuth 2.1 resource server's settings for RFC 9068 JWT access tokens: `typ`
    /// `at+jwt`, the RFC 9068 claims required, scopes from `scope`, a leeway of
    /// [`DEFAULT_LEEWAY`], every accepted algorithm.
    pub fn rfc9068(issuer: impl Into<String>, audiences: Vec<String>) -> ValidatorConfig {
        ValidatorConfig {
            issuer: issuer.into(),
            audiences,
            token_type: TypeCheck::AccessToken,
            required: RequiredClaims::Rfc9068,
            scope_claim: DEFAULT_SCOPE_CLAIM.to_owned(),
            subject_fallback: None,
            leeway: DEFAULT_LEEWAY,
            algorithms: Algorithm::ALL.to_vec(),
        }
    }

    /// The Cloudflare Access preset: the issuer is the team domain
    /// (`https://<team>.cloudflareaccess.com`; `<team>.cloudflareaccess.com` and a trailing
    /// `/` are read too), the audiences are the application's AUD tags, `typ` is not checked,
    /// only `iss`, `exp` and `aud` are required, the subject falls back to `common_name`, and
    /// only RS256 is accepted (Access signs its application tokens with RS256 keys published
    /// at [`super::access_certs_url`]).
    pub fn cloudflare_access(
        team_domain: &str,
        aud_tags: Vec<String>,
    ) -> Result<ValidatorConfig, AuthConfigError> {
        let issuer = access_issuer(team_domain)?;
        Ok(ValidatorConfig {
            issuer,
            audiences: aud_tags,
            token_type: TypeCheck::Unchecked,
            required: RequiredClaims::Minimal,
            scope_claim: DEFAULT_SCOPE_CLAIM.to_owned(),
            subject_fallback: Some("common_name".to_owned()),
            leeway: DEFAULT_LEEWAY,
            algorithms: vec![Algorithm::Rs256],
        })
    }
}

/// The issuer of a Cloudflare Access team domain: `https://` and the host, no path.
fn access_issuer(team_domain: &str) -> Result<String, AuthConfigError> {
    let host = team_domain
        .strip_prefix("https://")
        .unwrap_or(team_domain)
        .trim_end_matches('/');
    let ok = !host.is_empty()
        && host.contains('.')
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.');
    if !ok {
        return Err(AuthConfigError {
            setting: "team domain",
            problem: format!(
                "{} is not a host name: give the team domain, such as https://<team>.cloudflareaccess.com",
                shown(team_domain)
            ),
        });
    }
    Ok(format!("https://{}", host.to_ascii_lowercase()))
}

/// A validator setting that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthConfigError {
    /// The setting.
    pub setting: &'static str,
    /// What is wrong and how to fix it.
    pub problem: String,
}

impl fmt::Display for AuthConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "authorization setting {}: {}",
            self.setting, self.problem
        )
    }
}

impl std::error::Error for AuthConfigError {}

/// Who a valid token stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    /// `sub` (or, with the Access preset, the fallback claim); empty only with
    /// [`RequiredClaims::Minimal`] when neither is given.
    pub subject: String,
    /// The scopes of the scope claim, in token order, each once.
    pub scopes: Vec<String>,
    /// `exp`, in seconds since the epoch.
    pub expires_at: u64,
    /// The first second the token is refused: `exp` plus the leeway (for
    /// [`super::TokenCache`]).
    pub(crate) refused_from: u64,
}

impl Caller {
    /// Whether the token carries `scope`, compared exactly.
    pub fn has_scope(&self, scope: &str) -> bool {
        self.scopes.iter().any(|s| s == scope)
    }

    /// `Ok` when the token carries every one of `scopes`; otherwise the 403 to answer, which
    /// names all of them (MCP authorization: every scope the operation needs, in one
    /// challenge). Scope hierarchies (a broader scope that implies a narrower one) are the
    /// caller's to expand before asking.
    pub fn require(&self, scopes: &[&str]) -> Result<(), InsufficientScope> {
        if scopes.iter().all(|s| self.has_scope(s)) {
            Ok(())
        } else {
            Err(InsufficientScope {
                required: scopes.iter().map(|s| (*s).to_owned()).collect(),
            })
        }
    }
}

/// Validates bearer tokens against one configuration. Sans-I/O: the key set and the time are
/// given, and the signature is checked through a [`SignatureVerifier`] or, for an
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
///    leeway), `sub`, `client_id`, `jti` (strings; required and non-empty by RFC 9068), the
///    scope claim (a string or an array of strings);
/// 6. the signature.
///
/// The claims are checked before the signature so that an expired or misaddressed token costs
/// no signature work; nothing from an unverified token is returned. NumericDate values may
/// have a fraction (RFC 7519 §2): `exp` is rounded down, `nbf` and `iat` up.
#[derive(Debug, Clone)]
pub struct Validator {
    config: ValidatorConfig,
}

/// The signature left to check for a token whose every other check passed: the algorithm,
/// the key, the signed bytes and the signature. [`SignatureCheck::finish`] takes the verdict;
/// the caller is returned only for `true`.
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
    /// empty audience, no scope claim name, a leeway over [`MAX_LEEWAY`], no algorithm. An
    /// empty list of audiences is accepted for a server that names its audience per request
    /// ([`Validator::prepare_for`]); [`Validator::prepare`] then refuses every token
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
        if config.scope_claim.is_empty() {
            return fail("scope claim", "is empty: give a claim name such as scope");
        }
        if config.leeway > MAX_LEEWAY {
            return fail(
                "leeway",
                "is over 300 seconds: clock skew is a few seconds to minutes",
            );
        }
        if config.algorithms.is_empty() {
            return fail("algorithms", "is empty: accept ES256, RS256 or EdDSA");
        }
        Ok(Validator { config })
    }

    /// The configuration.
    pub fn config(&self) -> &ValidatorConfig {
        &self.config
    }

    /// Every check but the signature's (steps 2 to 5 of [`Validator`]); the signature is left
    /// in the [`SignatureCheck`].
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
    pub fn prepare_for<'a>(
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
        if c.token_type == TypeCheck::AccessToken {
            let ok = token.typ().is_some_and(|t| {
                let t = match t.get(..12) {
                    Some(p) if p.eq_ignore_ascii_case("application/") => &t[12..],
                    _ => t,
                };
                t.eq_ignore_ascii_case("at+jwt")
            });
            if !ok {
                return Err(TokenError::Type {
                    typ: token.typ().map(shown),
                });
            }
        }
        let key = keys.select(token.kid(), alg)?;
        if let PublicKey::Rsa { n, .. } = &key.key {
            if token.signature().len() != n.len() {
                return Err(TokenError::Signature);
            }
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
    /// signature with `verifier`.
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
        let get = |name: &str| claims.get(name).map(Json::of);
        let now_i = i128::from(now);
        let leeway = i128::from(c.leeway);

        match get("iss") {
            None => return Err(missing("iss")),
            Some(Json::Str(iss)) if iss == c.issuer => {}
            Some(Json::Str(iss)) => return Err(TokenError::Issuer { iss: shown(&iss) }),
            Some(other) => return Err(wrong_type("iss", &other, "a string")),
        }
        let audiences = match get("aud") {
            None => return Err(missing("aud")),
            Some(Json::Str(a)) => vec![a],
            Some(Json::Strings(a)) => a,
            Some(other) => {
                return Err(wrong_type("aud", &other, "a string or an array of strings"))
            }
        };
        if !audiences
            .iter()
            .any(|a| c.audiences.contains(a) || resource == Some(a.as_str()))
        {
            return Err(TokenError::Audience);
        }
        let exp = match get("exp") {
            None => return Err(missing("exp")),
            Some(Json::Num(n)) => numeric_date(&n, false),
            Some(other) => return Err(wrong_type("exp", &other, "a number (NumericDate)")),
        };
        if now_i >= i128::from(exp) + leeway {
            return Err(TokenError::Expired { exp, now });
        }
        match get("nbf") {
            None => {}
            Some(Json::Num(n)) => {
                let nbf = numeric_date(&n, true);
                if i128::from(nbf) > now_i + leeway {
                    return Err(TokenError::NotYetValid { nbf, now });
                }
            }
            Some(other) => return Err(wrong_type("nbf", &other, "a number (NumericDate)")),
        }
        match get("iat") {
            None if strict => return Err(missing("iat")),
            None => {}
            Some(Json::Num(n)) => {
                let iat = numeric_date(&n, true);
                if i128::from(iat) > now_i + leeway {
                    return Err(TokenError::IssuedInFuture { iat, now });
                }
            }
            Some(other) => return Err(wrong_type("iat", &other, "a number (NumericDate)")),
        }
        let sub = self.string_claim(token, "sub", strict)?;
        self.string_claim(token, "client_id", strict)?;
        self.string_claim(token, "jti", strict)?;
        let subject = match sub {
            Some(s) if !s.is_empty() => s,
            _ => match &c.subject_fallback {
                Some(name) => self.string_claim(token, name, false)?.unwrap_or_default(),
                None => String::new(),
            },
        };
        let scopes = scopes(get(&c.scope_claim), &c.scope_claim)?;
        let expires_at = u64::try_from(exp).unwrap_or(0);
        let refused_from = u64::try_from(i128::from(exp) + leeway).unwrap_or(0);
        Ok(Caller {
            subject,
            scopes,
            expires_at,
            refused_from,
        })
    }

    /// A claim that must be a string if present; with `required`, present and non-empty.
    fn string_claim(
        &self,
        token: &Token,
        name: &str,
        required: bool,
    ) -> Result<Option<String>, TokenError> {
        match token.claims.get(name).map(Json::of) {
            None if required => Err(missing(name)),
            None => Ok(None),
            Some(Json::Str(s)) if required && s.is_empty() => Err(TokenError::Claim {
                name: name.to_owned(),
                problem: "is empty (RFC 9068 §2.2)".to_owned(),
            }),
            Some(Json::Str(s)) => Ok(Some(s)),
            Some(other) => Err(wrong_type(name, &other, "a string")),
        }
    }
}

/// The scopes of the scope claim: split on spaces when a string, each element when an array
/// of strings; empty entries dropped, each scope once, in token order.
fn scopes(value: Option<Json>, name: &str) -> Result<Vec<String>, TokenError> {
    let items: Vec<String> = match value {
        None => return Ok(Vec::new()),
        Some(Json::Str(s)) => s.split(' ').map(str::to_owned).collect(),
        Some(Json::Strings(v)) => v,
        Some(other) => {
            return Err(wrong_type(
                name,
                &other,
                "a space-separated string or an array of strings",
            ))
        }
    };
    let mut seen = BTreeSet::new();
    Ok(items
        .into_iter()
        .filter(|s| !s.is_empty() && seen.insert(s.clone()))
        .collect())
}

/// A NumericDate (RFC 7519 §2: seconds, possibly with a fraction) as whole seconds, rounded
/// down (`exp`) or up (`nbf`, `iat`) so the fraction never widens the window; values beyond
/// `i64` saturate.
fn numeric_date(n: &serde_json::Number, round_up: bool) -> i64 {
    if let Some(i) = n.as_i64() {
        return i;
    }
    if n.as_u64().is_some() {
        return i64::MAX;
    }
    let f = n.as_f64().unwrap_or(0.0);
    // `as` saturates at the bounds of i64.
    (if round_up { f.ceil() } else { f.floor() }) as i64
}

fn missing(name: &str) -> TokenError {
    TokenError::Claim {
        name: name.to_owned(),
        problem: "is missing".to_owned(),
    }
}

fn wrong_type(name: &str, value: &Json, expected: &str) -> TokenError {
    TokenError::Claim {
        name: name.to_owned(),
        problem: format!("is {}; it must be {expected}", value.type_name()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn access_issuer_forms() {
        for ok in [
            "https://acme.cloudflareaccess.com",
            "acme.cloudflareaccess.com",
            "https://ACME.cloudflareaccess.com/",
        ] {
            assert_eq!(
                access_issuer(ok).unwrap(),
                "https://acme.cloudflareaccess.com"
            );
        }
        for bad in [
            "",
            "https://",
            "acme",
            "https://acme.cloudflareaccess.com/x",
            "http://a.b c",
        ] {
            assert!(access_issuer(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn configurations_that_cannot_work_are_refused() {
        let ok = ValidatorConfig::rfc9068("https://as", vec!["https://rs/mcp".into()]);
        assert!(Validator::new(ok.clone()).is_ok());
        type Edit = fn(&mut ValidatorConfig);
        let cases: [(Edit, &str); 6] = [
            (|c| c.issuer.clear(), "issuer"),
            (|c| c.audiences.push(String::new()), "audience"),
            (|c| c.audiences = vec![String::new()], "audience"),
            (|c| c.scope_claim.clear(), "scope claim"),
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
        let n = |s: &str| serde_json::from_str::<serde_json::Number>(s).unwrap();
        assert_eq!(numeric_date(&n("10"), false), 10);
        assert_eq!(numeric_date(&n("10.5"), false), 10);
        assert_eq!(numeric_date(&n("10.5"), true), 11);
        assert_eq!(numeric_date(&n("-1.5"), false), -2);
        assert_eq!(numeric_date(&n("18446744073709551615"), false), i64::MAX);
        assert_eq!(numeric_date(&n("1e300"), false), i64::MAX);
        assert_eq!(numeric_date(&n("-1e300"), true), i64::MIN);
    }

    #[test]
    fn scopes_are_split_and_deduplicated() {
        let s = |v: Json| scopes(Some(v), "scope");
        assert_eq!(
            s(Json::Str("a  b a c".into())).unwrap(),
            ["a", "b", "c"].map(String::from)
        );
        assert_eq!(
            s(Json::Strings(vec!["g 1".into(), "".into(), "g 1".into()])).unwrap(),
            ["g 1"].map(String::from)
        );
        assert!(s(Json::MixedArray).is_err());
        assert!(s(Json::Other).is_err());
        assert_eq!(scopes(None, "scope").unwrap(), Vec::<String>::new());
    }

    #[test]
    fn callers_require_every_scope() {
        let c = Caller {
            subject: "u".into(),
            scopes: vec!["a".into(), "b".into()],
            expires_at: 1,
            refused_from: 1,
        };
        assert!(c.require(&["a", "b"]).is_ok());
        let e = c.require(&["a", "z"]).unwrap_err();
        assert_eq!(e.required, ["a", "z"]);
        assert!(c.has_scope("b") && !c.has_scope("B"));
    }
}
