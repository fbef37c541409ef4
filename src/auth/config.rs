//! The validator's settings ([`ValidatorConfig`]): the issuer and audiences, the `typ` rule,
//! the required claims, the scope claims and what the grant is made of.

use std::fmt;

use super::claims::shown;
use super::token::Algorithm;

/// The default leeway for `exp`, `nbf` and `iat`, in seconds.
pub const DEFAULT_LEEWAY: u64 = 60;

/// The largest leeway accepted, in seconds (RFC 9068 §4: "some small leeway, usually no more
/// than a few minutes, to account for clock skew").
pub(crate) const MAX_LEEWAY: u64 = 300;

/// The default name of the claim the scopes are read from (RFC 9068 §2.2.3, RFC 8693 §4.2).
pub(crate) const DEFAULT_SCOPE_CLAIM: &str = "scope";

/// What the header's `typ` must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeCheck {
    /// `at+jwt` or `application/at+jwt`, without regard to case (RFC 9068 §4: "The resource
    /// server MUST verify that the "typ" header value is "at+jwt" or "application/at+jwt"
    /// and reject tokens carrying any other value"; RFC 7515 §4.1.9: media types are
    /// case-insensitive and `application/` may be left out). A missing `typ` is refused.
    AccessToken,
    /// Absent, `JWT` (RFC 7519 §5.1) or an access token's (`at+jwt`), each also with
    /// `application/` and in any case: the identity providers' own access token formats
    /// (Auth0's default profile, Okta, Microsoft Entra ID, Keycloak send `JWT` or nothing).
    /// Any other `typ` names another kind of JWT (`dpop+jwt`, `logout+jwt`,
    /// `secevent+jwt`, an issuer's private type such as Okta's
    /// `application/okta-internal-at+jwt`), which is never an access token for this server:
    /// refused (RFC 8725 §3.11, explicit typing). What it gives up against
    /// [`TypeCheck::AccessToken`]: an ID token (`typ` `JWT`) is no longer told apart by its
    /// type, only by its `aud` (an ID token names the client, so an audience that is no
    /// client's ID keeps it out: docs/private.md).
    Jwt,
    /// Not checked (Cloudflare Access's tokens carry `typ` `JWT`).
    Unchecked,
}

/// What the caller's grant is made of ([`super::Caller::scopes`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grants {
    /// The values of the scope claims ([`ValidatorConfig::scope_claims`]) that are scope
    /// tokens (RFC 6749 §3.3); others are left out, as no access rule can name them.
    Scopes,
    /// What Cloudflare Access asserts, each as a token of its own kind, so that no value of one
    /// kind can pass for another: `email:<email>` and `email-domain:<domain>` for an `email`
    /// claim that is one address (`local@domain`, lower-cased), `service-token:<common_name>`
    /// for a service token (`sub` empty, `common_name` its client ID), and `group:<value>`
    /// for each value of the scope claims (a groups claim the Access application passes,
    /// such as `/custom/groups`). A value with a space, `"` or `\\` in it is no scope token
    /// (RFC 6749 §3.3) and is left out: no access rule can name it. Only an application
    /// token asserts these: its `type` claim must be `app` (the team domain's own token is
    /// `org`).
    AccessIdentity,
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
    /// The claims the scopes are read from, their values joined: each a claim name (`scope`,
    /// `scp`, `roles`, `permissions`, a namespaced `https://example.com/roles`) or, starting
    /// with `/`, a JSON Pointer into the claims set (RFC 6901: `/realm_access/roles`). Each
    /// value is a space-separated string (`scope`, RFC 8693 §4.2; Entra ID's `scp`) or an
    /// array of strings (`permissions`, `groups`, `roles`, RFC 9068 §2.2.3.1; Okta's `scp`).
    /// An absent claim gives no scopes; one of another type refuses the token.
    pub scope_claims: Vec<String>,
    /// What the caller's grant is made of.
    pub grants: Grants,
    /// With [`RequiredClaims::Minimal`]: the claim the caller's subject is read from when
    /// `sub` is absent or empty (Cloudflare Access's service tokens name the service token in
    /// `common_name`).
    pub subject_fallback: Option<String>,
    /// Seconds of clock skew allowed on `exp`, `nbf` and `iat` (at most `MAX_LEEWAY`).
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
            scope_claims: vec![DEFAULT_SCOPE_CLAIM.to_owned()],
            grants: Grants::Scopes,
            subject_fallback: None,
            leeway: DEFAULT_LEEWAY,
            algorithms: Algorithm::ALL.to_vec(),
        }
    }

    /// The settings for an identity provider's own JWT access tokens, which are not RFC 9068
    /// profile tokens: the signature, the exact `iss`, `aud` and `exp` are required as with
    /// [`ValidatorConfig::rfc9068`], `nbf` and `iat` checked when present; `typ` may be
    /// absent or `JWT` ([`TypeCheck::Jwt`]); `sub`, `client_id`, `jti` and `iat` are not
    /// required ([`RequiredClaims::Minimal`]). Scopes from `scope` until
    /// [`ValidatorConfig::scope_claims`] says otherwise.
    pub fn provider_jwt(issuer: impl Into<String>, audiences: Vec<String>) -> ValidatorConfig {
        ValidatorConfig {
            token_type: TypeCheck::Jwt,
            required: RequiredClaims::Minimal,
            ..ValidatorConfig::rfc9068(issuer, audiences)
        }
    }

    /// The Cloudflare Access preset: the issuer is the team domain
    /// (`https://<team>.cloudflareaccess.com`; `<team>.cloudflareaccess.com` and a trailing
    /// `/` are read too), the audiences are the application's AUD tags, `typ` is not checked,
    /// only `iss`, `exp` and `aud` are required, the subject falls back to `common_name`, the
    /// grant is what Access asserts ([`Grants::AccessIdentity`]; no groups claim until
    /// [`ValidatorConfig::scope_claims`] names one), and only RS256 is accepted (Access signs its application tokens with RS256 keys published
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
            scope_claims: Vec::new(),
            grants: Grants::AccessIdentity,
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
}
