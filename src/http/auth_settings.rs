//! The authentication settings (`AUTH_MODE`, `AUTH_TOKEN_PROFILE` and the others the settings
//! table reads into a [`BearerConfig`]), and what the step (`super::bearer`) uses to refuse
//! them: the configuration error of one setting, and the check that no token setting is given
//! without a mode that reads tokens.

use crate::server::{ConfigError, SettingKey};

/// How the caller is known (`AUTH_MODE`).
///
/// ```
/// use skills_edge::http::AuthMode;
/// assert_eq!(AuthMode::default(), AuthMode::None);
/// assert_eq!(AuthMode::parse(" jwt "), Some(AuthMode::Jwt));
/// assert_eq!(AuthMode::Provider.as_str(), "provider");
/// assert_eq!(AuthMode::parse("oauth"), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AuthMode {
    /// No authentication: every caller is anonymous (the default).
    #[default]
    None,
    /// An OAuth 2.1 resource server: RFC 9068 JWT access tokens in `Authorization: Bearer`.
    Jwt,
    /// Cloudflare Access: its application token in `Cf-Access-Jwt-Assertion`.
    Access,
    /// Behind `@cloudflare/workers-oauth-provider` (the Worker is its `OAuthProvider`'s
    /// `apiHandler` or an `OAuthResourceServer`'s `handler`): the host validates the token,
    /// answers 401 and serves the Protected Resource Metadata itself, and calls the Worker
    /// only for a valid token, with the token's scopes in `ctx.auth.scope`
    /// ([`AuthStep::Provider`](super::AuthStep::Provider)).
    Provider,
}

impl AuthMode {
    /// Every mode, in the order of [`AuthMode::NAMES`].
    const ALL: [AuthMode; 4] = [
        AuthMode::None,
        AuthMode::Jwt,
        AuthMode::Access,
        AuthMode::Provider,
    ];

    /// The settings' values, in declaration order: the choices of `AUTH_MODE`.
    pub(crate) const NAMES: [&'static str; 4] = ["none", "jwt", "access", "provider"];

    /// The mode a setting's value names (`none`, `jwt`, `access`, `provider`; blanks around
    /// it allowed).
    pub fn parse(value: &str) -> Option<AuthMode> {
        let value = value.trim();
        Self::ALL.into_iter().find(|m| m.as_str() == value)
    }

    /// The setting's value for this mode.
    pub fn as_str(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// Which access tokens `AUTH_MODE = "jwt"` accepts (`AUTH_TOKEN_PROFILE`).
///
/// ```
/// use skills_edge::http::{AuthMode, Bearer, BearerConfig, TokenProfile};
/// assert_eq!((TokenProfile::default().as_str(), TokenProfile::Jwt.as_str()), ("rfc9068", "jwt"));
/// let jwt = BearerConfig {
///     mode: AuthMode::Jwt,
///     issuer: Some("https://tenant.auth0.example/".into()),
///     token_profile: Some(TokenProfile::Jwt),
///     ..BearerConfig::default()
/// };
/// assert!(Bearer::new(jwt.clone()).is_ok());
/// // Cloudflare Access has its own tokens: a profile is refused there.
/// let access = BearerConfig { mode: AuthMode::Access, audiences: vec!["aud-tag".into()], ..jwt };
/// assert!(Bearer::new(access).unwrap_err().to_string().contains("given with AUTH_MODE access"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TokenProfile {
    /// RFC 9068 JWT access tokens (`typ` `at+jwt`; `sub`, `client_id`, `jti`, `iat`
    /// required): `ValidatorConfig::rfc9068`. The default.
    #[default]
    Rfc9068,
    /// The identity provider's own JWT access tokens (Auth0's default profile, Okta's custom
    /// authorization servers, Microsoft Entra ID v1 and v2, Keycloak): `typ` absent, `JWT` or
    /// `at+jwt`, and only `iss`, `aud` and `exp` required besides the signature
    /// (`ValidatorConfig::provider_jwt`; what it gives up: docs/private.md).
    Jwt,
}

impl TokenProfile {
    /// Every profile, in the order of [`TokenProfile::NAMES`].
    const ALL: [TokenProfile; 2] = [TokenProfile::Rfc9068, TokenProfile::Jwt];

    /// The settings' values, in declaration order: the choices of `AUTH_TOKEN_PROFILE`.
    pub(crate) const NAMES: [&'static str; 2] = ["rfc9068", "jwt"];

    /// The profile a setting's value names (blanks around it allowed).
    pub(crate) fn parse(value: &str) -> Option<TokenProfile> {
        TokenProfile::ALL
            .into_iter()
            .find(|p| p.as_str() == value.trim())
    }

    /// The setting's value for this profile.
    pub fn as_str(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// The authentication settings as read from the settings table ([`crate::settings`]), not
/// yet checked together ([`Bearer::new`](super::Bearer::new) does).
///
/// ```
/// use skills_edge::http::{AuthMode, Bearer, BearerConfig};
/// let config = BearerConfig { mode: AuthMode::Jwt, ..BearerConfig::default() };
/// let e = Bearer::new(config).unwrap_err();
/// assert!(e.to_string().starts_with("field issuer is invalid (required with AUTH_MODE jwt)"), "{e}");
/// // Without a mode, no other setting may be given (it would be silently ignored).
/// let stray = BearerConfig { issuer: Some("https://auth.example.com".into()), ..BearerConfig::default() };
/// assert!(Bearer::new(stray).is_err());
/// assert!(Bearer::new(BearerConfig::default()).unwrap().is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BearerConfig {
    /// `AUTH_MODE`.
    pub mode: AuthMode,
    /// `AUTH_ISSUER`: the authorization server's issuer (`jwt`) or the Access team domain
    /// (`access`).
    pub issuer: Option<String>,
    /// `AUTH_AUDIENCE`: the audiences accepted (comma-separated in the setting). Empty: for
    /// `jwt`, this server's canonical `/mcp` URL as each request names it (scheme and
    /// `Host`, which the `Host` allow-list has admitted); `access` needs the AUD tag.
    pub audiences: Vec<String>,
    /// `AUTH_JWKS_URL`: the key set's URL. `None`: for `jwt`, the `jwks_uri` of the issuer's
    /// metadata; for `access`, `<team domain>/cdn-cgi/access/certs`.
    pub jwks_url: Option<String>,
    /// `AUTH_SCOPES_CLAIM`: the claims the scopes are read from, comma-separated, each a claim
    /// name or a JSON Pointer (`None`: `scope` for `jwt`; for `access`, no groups claim).
    /// With `access` each value is a group (`group:<value>`, `auth::Grants`).
    pub scope_claim: Option<String>,
    /// `AUTH_TOKEN_PROFILE` (`jwt` only; `None`: [`TokenProfile::Rfc9068`]).
    pub token_profile: Option<TokenProfile>,
    /// The scopes listed as `scopes_supported` in the metadata (not a setting: the
    /// catalog's access rules name them); empty leaves the member out (RFC 9728 §2:
    /// optional).
    pub scopes_supported: Vec<String>,
}

/// A configuration error about the authentication setting `key` (typed field `name`).
pub(super) fn config_error(
    key: SettingKey,
    name: &'static str,
    value: &str,
    fix: String,
) -> ConfigError {
    ConfigError {
        key: Some(key),
        what: "field",
        name: name.to_owned(),
        value: Some(value.to_owned()),
        problem: None,
        fix,
    }
}

/// With [`AuthMode::None`] or [`AuthMode::Provider`], no other authentication setting may be
/// given: it would be silently ignored.
pub(super) fn no_token_settings(config: &BearerConfig) -> Result<(), ConfigError> {
    let given = [
        (SettingKey::AuthIssuer, "issuer", config.issuer.clone()),
        (
            SettingKey::AuthAudience,
            "audiences",
            (!config.audiences.is_empty()).then(|| config.audiences.join(",")),
        ),
        (SettingKey::AuthJwksUrl, "jwks_url", config.jwks_url.clone()),
        (
            SettingKey::AuthScopesClaim,
            "scope_claim",
            config.scope_claim.clone(),
        ),
        (
            SettingKey::AuthTokenProfile,
            "token_profile",
            config.token_profile.map(|p| p.as_str().to_owned()),
        ),
    ];
    if let Some((key, name, Some(value))) = given.into_iter().find(|g| g.2.is_some()) {
        let (problem, fix) = if config.mode == AuthMode::Provider {
            (
                "given with AUTH_MODE provider, where the host (@cloudflare/workers-oauth-provider) validates the tokens and this Worker reads none",
                "remove it (the host's own options configure the tokens), or set AUTH_MODE to jwt or access",
            )
        } else {
            (
                "given without an AUTH_MODE other than none",
                "set AUTH_MODE to jwt or access, or remove it",
            )
        };
        let mut e = config_error(key, name, &value, fix.into());
        e.problem = Some(problem.into());
        return Err(e);
    }
    Ok(())
}
