//! The authentication step in front of the endpoint: who the caller is (`AUTH_MODE`), the
//! Protected Resource Metadata (RFC 9728) and the 401 and 503 answers. Sans-I/O like the rest
//! of this module: the adapter reads the credential header ([`Bearer::credential_header`]),
//! asks [`Bearer::gate`], checks a token with its [`super::Authenticator`] (which names the
//! fetches and the signature checks to make) and hands the caller's scopes to the endpoint.
//!
//! | request | answer |
//! |---|---|
//! | `/.well-known/oauth-protected-resource` or `…/mcp` (`GET`, `HEAD`) | the metadata document, after the `Origin` and `Host` rules; `OPTIONS`: the CORS preflight; another method: 405 |
//! | `OPTIONS` anywhere else | the endpoint's preflight: no token is needed (a browser sends none) |
//! | no credential header | anonymous: the endpoint answers as it does without authentication, unless [`Bearer::needs_token`] says the request needs one (401 with the challenge, no error code) |
//! | a credential | the `Origin` and `Host` rules, then the token is parsed and validated: any failure is 401 `error="invalid_token"` (another scheme than `Bearer`, or a bare token in `Authorization`: 401 without an error code, RFC 6750 §3.1), never a downgrade to anonymous; a key set that cannot be had is 503 |
//!
//! Every 401 carries `WWW-Authenticate: Bearer … resource_metadata="<this server>/.well-known/
//! oauth-protected-resource/mcp"` (RFC 9728 §5.1; MCP authorization, Authorization Server
//! Location), `Access-Control-Expose-Headers: WWW-Authenticate` for a browser caller, and an
//! empty body: the reason goes to the adapter's log only (docs/private.md).

use sha2::{Digest as _, Sha256};

use super::auth_settings::{config_error, no_token_settings, AuthMode, BearerConfig, TokenProfile};
use super::endpoint::Endpoint;
use super::head::Head;
use super::response::Response;
use crate::auth::{
    access_certs_url, metadata_urls, KeySet, KeySetError, SignatureCheck, Token, TokenError,
    Validator, ValidatorConfig,
};
use crate::server::{ConfigError, SettingKey};

/// The Protected Resource Metadata at the origin's root (RFC 9728 §3), which MCP clients try
/// second.
pub(crate) const PRM_PATH: &str = "/.well-known/oauth-protected-resource";

/// The Protected Resource Metadata of the resource `/mcp` (RFC 9728 §3.1: the well-known
/// segment inserted before the resource's path), which MCP clients try first and which the
/// 401 challenges name.
pub const PRM_MCP_PATH: &str = "/.well-known/oauth-protected-resource/mcp";

/// `Retry-After` of the 503 sent when no key set can be had, in seconds: the key cache's
/// refetch interval ([`crate::auth::KeyCachePolicy::refetch_interval`]), before which no new
/// fetch is tried.
pub(crate) const UNAVAILABLE_RETRY_AFTER: &str = "60";

/// Where the key set comes from.
///
/// ```
/// use skills_edge::http::{AuthMode, Bearer, BearerConfig, KeySource};
/// let bearer = |config| Bearer::new(config).unwrap().unwrap();
/// let jwt = bearer(BearerConfig { mode: AuthMode::Jwt, issuer: Some("https://auth.example.com".into()),
///     ..BearerConfig::default() });
/// let KeySource::Discover(urls) = jwt.key_source() else { panic!("discovered") };
/// assert_eq!(urls[0], "https://auth.example.com/.well-known/oauth-authorization-server");
/// let access = bearer(BearerConfig { mode: AuthMode::Access, issuer: Some("acme.cloudflareaccess.com".into()),
///     audiences: vec!["aud-tag".into()], ..BearerConfig::default() });
/// assert_eq!(access.key_source(), &KeySource::Url("https://acme.cloudflareaccess.com/cdn-cgi/access/certs".into()));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "internals", visibility::make(pub))]
pub(crate) enum KeySource {
    /// A configured URL (`AUTH_JWKS_URL`, or Access's certificate URL).
    Url(String),
    /// The `jwks_uri` of the issuer's metadata, tried at these URLs in order
    /// (`crate::auth::metadata_urls`; read with [`crate::auth::jwks_uri`]).
    Discover(Vec<String>),
}

/// What the adapter does with a request, before the endpoint sees it.
///
/// ```
/// use skills_edge::catalog::Grant;
/// use skills_edge::http::{AuthMode, Bearer, BearerConfig, Endpoint, Gate, Head, HttpConfig};
/// let endpoint = Endpoint::new(skills_edge::embedded::catalog().unwrap(), HttpConfig::default()).unwrap();
/// let bearer = Bearer::new(BearerConfig { mode: AuthMode::Jwt,
///     issuer: Some("https://auth.example.com".into()), ..BearerConfig::default() }).unwrap().unwrap();
/// let head = Head { method: "POST", path: "/mcp", host: Some("localhost"), ..Head::default() };
/// // No token: the public skills, as without authentication.
/// assert!(matches!(bearer.gate(&endpoint, &head, None, "http"), Gate::Anonymous));
/// let Gate::Validate(credential) = bearer.gate(&endpoint, &head, Some("Bearer eyJ…"), "http") else { panic!() };
/// assert_eq!(credential, "Bearer eyJ…");
/// let prm = Head { method: "GET", path: "/.well-known/oauth-protected-resource/mcp", ..head };
/// let Gate::Respond(r) = bearer.gate(&endpoint, &prm, None, "http") else { panic!() };
/// assert!(r.body_str().contains(r#""authorization_servers":["https://auth.example.com"]"#));
/// ```
#[derive(Debug)]
pub enum Gate<'c> {
    /// Send this response (the metadata document, its preflight, a 403 of the `Origin` or
    /// `Host` rules, the 401 of a request that needs a token and has none).
    Respond(Response),
    /// No token: go on as today (the endpoint decides; the caller is anonymous).
    Anonymous,
    /// A credential was sent (the `Origin` and `Host` rules passed): check it with the
    /// [`super::Authenticator`]; any failure is answered with [`Bearer::refused`] (or
    /// [`Bearer::unavailable`]), never as anonymous.
    Validate(&'c str),
}

/// The authentication step of one configuration (`AUTH_MODE` other than `none`).
///
/// ```
/// use skills_edge::http::{AuthMode, Bearer, BearerConfig, Head};
/// let bearer = Bearer::new(BearerConfig {
///     mode: AuthMode::Jwt,
///     issuer: Some("https://auth.example.com".into()),
///     ..BearerConfig::default()
/// }).unwrap().unwrap();
/// assert_eq!(bearer.credential_header(), "authorization");
/// // Without AUTH_AUDIENCE, the accepted audience is this server's own `/mcp` URL.
/// let head = Head { host: Some("Skills.Example.com"), ..Head::default() };
/// assert_eq!(bearer.resource(&head, "https"), "https://skills.example.com/mcp");
/// ```
#[derive(Debug, Clone)]
pub struct Bearer {
    mode: AuthMode,
    validator: Validator,
    per_request_audience: bool,
    keys: KeySource,
    scopes_supported: Vec<String>,
}

/// The authentication step `AUTH_MODE` puts in front of the endpoint (only the Worker acts on
/// it; every other adapter accepts `none` alone), checked with the other authentication
/// settings ([`AuthStep::new`]).
///
/// ```
/// use skills_edge::http::{AuthMode, AuthStep, BearerConfig};
/// let anonymous = AuthStep::new(BearerConfig::default()).unwrap();
/// assert!(matches!(anonymous, AuthStep::Anonymous));
/// let provider = AuthStep::new(BearerConfig { mode: AuthMode::Provider, ..BearerConfig::default() }).unwrap();
/// assert_eq!(provider.mode(), AuthMode::Provider);
/// assert!(provider.bearer().is_none());
/// ```
#[derive(Debug, Clone)]
pub enum AuthStep {
    /// `none`: every caller is anonymous (the public grant).
    Anonymous,
    /// `jwt` or `access`: the Worker validates tokens itself ([`Bearer`]).
    Bearer(Bearer),
    /// `provider`: the Worker is mounted behind `@cloudflare/workers-oauth-provider`, which
    /// validates the token, answers 401 and serves the Protected Resource Metadata, and calls
    /// the Worker only for a valid token, with what it verified in `ctx.auth`. The Worker does
    /// no token work; the caller's scopes are `ctx.auth.scope` (an array of strings), and a
    /// request without that (no `ctx.auth`, or another shape) is an anonymous caller: the
    /// public grant, never more (docs/private.md).
    Provider,
}

impl AuthStep {
    /// The step for `config` (see [`Bearer::new`] for the checks).
    pub fn new(config: BearerConfig) -> Result<AuthStep, ConfigError> {
        let mode = config.mode;
        Ok(match (Bearer::new(config)?, mode) {
            (Some(bearer), _) => AuthStep::Bearer(bearer),
            (None, AuthMode::Provider) => AuthStep::Provider,
            (None, _) => AuthStep::Anonymous,
        })
    }

    /// The token step of `jwt` and `access`; `None` for the other modes.
    pub fn bearer(&self) -> Option<&Bearer> {
        match self {
            AuthStep::Bearer(b) => Some(b),
            _ => None,
        }
    }

    /// The token step of `jwt` and `access`, taken; `None` for the other modes.
    #[cfg(feature = "internals")]
    pub fn into_bearer(self) -> Option<Bearer> {
        match self {
            AuthStep::Bearer(b) => Some(b),
            _ => None,
        }
    }

    /// The mode.
    pub fn mode(&self) -> AuthMode {
        match self {
            AuthStep::Anonymous => AuthMode::None,
            AuthStep::Bearer(b) => b.mode(),
            AuthStep::Provider => AuthMode::Provider,
        }
    }
}

impl Bearer {
    /// The authentication step for `config`, `None` for [`AuthMode::None`] and
    /// [`AuthMode::Provider`] (no token work of this server's own; see [`AuthStep`]); refused
    /// when the settings do not go together: `jwt` and `access` need `AUTH_ISSUER`, `access`
    /// needs `AUTH_AUDIENCE` (the application's AUD tag), the issuer of `jwt` and a key set URL
    /// are `https` URLs (`http` for loopback hosts, for local testing), and with `none` or
    /// `provider` no other authentication setting is given (it would be silently ignored).
    pub fn new(config: BearerConfig) -> Result<Option<Bearer>, ConfigError> {
        let mode_value = config.mode.as_str();
        if matches!(config.mode, AuthMode::None | AuthMode::Provider) {
            no_token_settings(&config)?;
            return Ok(None);
        }
        let issuer = config.issuer.clone().unwrap_or_default();
        if issuer.trim().is_empty() {
            let mut e = config_error(
                SettingKey::AuthIssuer,
                "issuer",
                "",
                match config.mode {
                    AuthMode::Access => "give the Access team domain, such as https://<team>.cloudflareaccess.com".into(),
                    _ => "give the authorization server's issuer identifier, such as https://auth.example.com".into(),
                },
            );
            e.value = None;
            e.problem = Some(format!("required with AUTH_MODE {mode_value}"));
            return Err(e);
        }
        if let (AuthMode::Access, Some(p)) = (config.mode, config.token_profile) {
            let mut e = config_error(
                SettingKey::AuthTokenProfile,
                "token_profile",
                p.as_str(),
                "remove it: with AUTH_MODE access the tokens are Access's application tokens, whatever the identity provider behind Access".into(),
            );
            e.problem = Some("given with AUTH_MODE access".into());
            return Err(e);
        }
        let mut validator_config = match config.mode {
            AuthMode::Access => {
                if config.audiences.is_empty() {
                    let mut e = config_error(
                        SettingKey::AuthAudience,
                        "audiences",
                        "",
                        "give the Access application's AUD tag (Zero Trust → Access → Applications → the application → Overview)".into(),
                    );
                    e.value = None;
                    e.problem = Some("required with AUTH_MODE access".into());
                    return Err(e);
                }
                ValidatorConfig::cloudflare_access(&issuer, config.audiences.clone()).map_err(
                    |e| config_error(SettingKey::AuthIssuer, "issuer", &issuer, e.problem.clone()),
                )?
            }
            _ => match config.token_profile.unwrap_or_default() {
                TokenProfile::Rfc9068 => {
                    ValidatorConfig::rfc9068(issuer.clone(), config.audiences.clone())
                }
                TokenProfile::Jwt => {
                    ValidatorConfig::provider_jwt(issuer.clone(), config.audiences.clone())
                }
            },
        };
        if let Some(claims) = &config.scope_claim {
            validator_config.scope_claims = claims
                .split(',')
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .map(str::to_owned)
                .collect();
        }
        let keys = match (&config.jwks_url, config.mode) {
            (Some(url), _) => {
                // The key set URL follows the discovery rule for URLs (https, or http on a
                // loopback host): the same check `metadata_urls` applies to an issuer.
                metadata_urls(url).map_err(|e| {
                    config_error(
                        SettingKey::AuthJwksUrl,
                        "jwks_url",
                        url,
                        format!(
                            "use an https URL without query or fragment ({})",
                            e.to_string().trim_start_matches("no key set: the issuer ")
                        ),
                    )
                })?;
                KeySource::Url(url.clone())
            }
            (None, AuthMode::Access) => KeySource::Url(access_certs_url(&validator_config.issuer)),
            (None, _) => KeySource::Discover(metadata_urls(&issuer).map_err(|e| {
                config_error(
                    SettingKey::AuthIssuer,
                    "issuer",
                    &issuer,
                    format!(
                        "use the issuer's https URL without query or fragment, or set AUTH_JWKS_URL ({})",
                        e.to_string().trim_start_matches("no key set: the issuer ")
                    ),
                )
            })?),
        };
        let per_request_audience = validator_config.audiences.is_empty();
        let validator = Validator::new(validator_config).map_err(|e| {
            let (key, name, value) = match e.setting {
                "audience" => (SettingKey::AuthAudience, "audiences", String::new()),
                "scope claim" => (
                    SettingKey::AuthScopesClaim,
                    "scope_claim",
                    config.scope_claim.clone().unwrap_or_default(),
                ),
                _ => (SettingKey::AuthIssuer, "issuer", String::new()),
            };
            config_error(key, name, &value, e.problem.clone())
        })?;
        Ok(Some(Bearer {
            mode: config.mode,
            validator,
            per_request_audience,
            keys,
            scopes_supported: config.scopes_supported,
        }))
    }

    /// The mode.
    pub(crate) fn mode(&self) -> AuthMode {
        self.mode
    }

    /// The validator (for this repository's tests: feature `internals`).
    #[cfg(feature = "internals")]
    pub fn validator(&self) -> &Validator {
        &self.validator
    }

    /// Where the key set comes from.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn key_source(&self) -> &KeySource {
        &self.keys
    }

    /// The issuer (for Access, `https://<team domain>`).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn issuer(&self) -> &str {
        &self.validator.config().issuer
    }

    /// Whether the credential must be `Bearer <token>`: in the `Authorization` header (`jwt`),
    /// where RFC 6750 §2.1 defines that form; Access's own header holds a bare token.
    pub(crate) fn scheme_required(&self) -> bool {
        self.mode != AuthMode::Access
    }

    /// The request header the credential is read from (lower case): `authorization` for
    /// `jwt` (RFC 6750 §2.1; MCP authorization, Token Requirements), `cf-access-jwt-assertion`
    /// for `access` (Cloudflare, Validate JWTs). Only this header is read: a token elsewhere
    /// (a query parameter, RFC 6750 §2.3, which MCP forbids) is not looked at.
    pub fn credential_header(&self) -> &'static str {
        match self.mode {
            AuthMode::Access => "cf-access-jwt-assertion",
            _ => "authorization",
        }
    }

    /// This server's canonical URI for the request: `scheme://host/mcp`, the host as the
    /// request names it (admitted by the `Host` allow-list) in lower case (RFC 8707 §2,
    /// RFC 3986 §6.2.2.1).
    pub fn resource(&self, head: &Head<'_>, scheme: &str) -> String {
        format!(
            "{scheme}://{}/mcp",
            head.host.unwrap_or_default().to_ascii_lowercase()
        )
    }

    /// The metadata URL the challenges name: `scheme://host/.well-known/oauth-protected-resource/mcp`.
    pub(crate) fn metadata_url(&self, head: &Head<'_>, scheme: &str) -> String {
        format!(
            "{scheme}://{}{PRM_MCP_PATH}",
            head.host.unwrap_or_default().to_ascii_lowercase()
        )
    }

    /// The first decision on a request (see the table in the module documentation).
    /// `credential` is the value of [`Bearer::credential_header`]; `scheme` the request URL's
    /// (`https`, or `http` on a local server).
    pub fn gate<'c>(
        &self,
        endpoint: &Endpoint,
        head: &Head<'_>,
        credential: Option<&'c str>,
        scheme: &str,
    ) -> Gate<'c> {
        if head.path == PRM_PATH || head.path == PRM_MCP_PATH {
            if let Err(r) = endpoint.admit(head) {
                return Gate::Respond(r);
            }
            return Gate::Respond(self.metadata(endpoint, head, scheme));
        }
        if head.method.eq_ignore_ascii_case("OPTIONS") {
            return Gate::Anonymous;
        }
        let Some(value) = credential else {
            if self.needs_token(endpoint, head) {
                if let Err(r) = endpoint.admit(head) {
                    return Gate::Respond(r);
                }
                return Gate::Respond(self.refused(endpoint, head, scheme, &TokenError::Missing));
            }
            return Gate::Anonymous;
        };
        if let Err(r) = endpoint.admit(head) {
            return Gate::Respond(r);
        }
        Gate::Validate(value)
    }

    /// Whether an anonymous request (no credential) needs a token, and so gets 401 with the
    /// challenge (no error code: RFC 6750 §3.1) instead of the endpoint's answer.
    ///
    /// The rule: an anonymous caller gets the anonymous view of the catalog (the public
    /// skills), and a 401 challenge only where the request itself cannot be answered without
    /// a token: a request to the MCP endpoint when the catalog has private skills and no
    /// public one (anonymous, the server would have nothing to offer). A server that answered
    /// every anonymous request with 401 would hide its public skills from the clients that
    /// only read (the purpose of a public skill), and an MCP client that gets 401 on
    /// `initialize` starts an authorization flow it may not need; one that never challenged
    /// would leave a client of an all-private catalog no way to learn that it needs a token.
    /// The challenge never depends on which skill a request names (a 401 for a hidden skill's
    /// URI and -32602 for an absent one would tell them apart), only on the catalog as a
    /// whole, which the metadata document discloses anyway. The mirror answers its anonymous
    /// view (an index of the public skills, possibly empty) without a challenge: its clients
    /// send no tokens. Cost: a few comparisons and the count of public skills (one per class
    /// list, precomputed).
    pub fn needs_token(&self, endpoint: &Endpoint, head: &Head<'_>) -> bool {
        if head.path != crate::http::ENDPOINT_PATH {
            return false;
        }
        let catalog = endpoint.responder().catalog();
        catalog.has_private() && catalog.visible_skill_count(crate::access::Grant::PUBLIC) == 0
    }

    /// This step with `scopes` as the metadata's `scopes_supported`: the scopes the catalog's
    /// access rules name ([`crate::view::Catalog::access_scopes`]), so that a client can ask the
    /// authorization server for them (RFC 9728 §2, MCP authorization, Scope Selection
    /// Strategy).
    ///
    /// With `access` the list stays empty: its callers' grants are what Access asserts
    /// (`email:…`, `group:…`), no scope a client asks for, and the rules naming people's
    /// addresses are not published.
    pub fn with_scopes_supported(mut self, scopes: Vec<String>) -> Bearer {
        if self.mode != AuthMode::Access {
            self.scopes_supported = scopes;
        }
        self
    }

    /// Every check of `token` but the signature's, with `keys` at `now` (seconds), for a
    /// request to `resource` ([`Bearer::resource`], the accepted audience when
    /// `AUTH_AUDIENCE` is not set).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn prepare<'a>(
        &self,
        token: &'a Token,
        keys: &'a KeySet,
        now: u64,
        resource: &str,
    ) -> Result<SignatureCheck<'a>, TokenError> {
        let audience = self.per_request_audience.then_some(resource);
        self.validator.prepare_for(token, keys, now, audience)
    }

    /// The key under which a verified token is remembered ([`crate::auth::TokenCache`]),
    /// from the credential as sent, before it is read (`Token::compact_digest`): the
    /// token's SHA-256, and, when the audience is the request's own URL, that URL too (a
    /// token verified for one host name is not taken for another). `None` for a credential
    /// [`Token::parse`] refuses before decoding anything.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn cache_key(&self, credential: &str, resource: &str) -> Option<[u8; 32]> {
        let digest = Token::compact_digest(credential)?;
        if !self.per_request_audience {
            return Some(digest);
        }
        let mut h = Sha256::new();
        h.update(digest);
        h.update(resource.as_bytes());
        Some(h.finalize().into())
    }

    /// The endpoint's answer `r` with this mode's cache rule for answers made for a caller's
    /// grant (those marked `Cache-Control: private`: the mirror's, in a catalog with private
    /// skills). With `access`, such an answer becomes `Cache-Control: private, no-store`:
    /// Access's identity travels in its `CF_Authorization` cookie, which a browser sends and
    /// no `Vary` of the answer names, so a browser's cache could hand one user's private index
    /// to the next user of the same browser; it must keep nothing. With `jwt`, the identity is
    /// the `Authorization` header the answer's `Vary` names, and `r` is unchanged. The adapter
    /// applies it to every answer it sends for a request this step let through.
    ///
    /// ```
    /// use skills_edge::http::{AuthMode, Bearer, BearerConfig, Response};
    /// let access = Bearer::new(BearerConfig {
    ///     mode: AuthMode::Access,
    ///     issuer: Some("acme.cloudflareaccess.com".into()),
    ///     audiences: vec!["aud-tag".into()],
    ///     ..BearerConfig::default()
    /// }).unwrap().unwrap();
    /// let granted = Response { status: 200, headers: vec![("cache-control", "private, max-age=300".into())], body: vec![], splice: None };
    /// assert_eq!(access.cache_rule(granted).header("cache-control"), Some("private, no-store"));
    /// ```
    pub fn cache_rule(&self, mut r: Response) -> Response {
        if self.mode != AuthMode::Access {
            return r;
        }
        for (name, value) in r.headers.iter_mut() {
            let private = value
                .split(',')
                .any(|d| d.trim().eq_ignore_ascii_case("private"));
            if *name == "cache-control" && private {
                *value = "private, no-store".to_owned();
            }
        }
        r
    }

    /// The 401 for a request whose token was refused (or that needs one and has none):
    /// `WWW-Authenticate` with the error code (none for [`TokenError::Missing`] and
    /// [`TokenError::Scheme`]) and
    /// `resource_metadata`, `Access-Control-Expose-Headers` for a browser caller,
    /// `Cache-Control: no-store`, the endpoint's `Vary` and CORS headers, and an empty body.
    /// The reason is not told: the adapter logs `error`.
    pub fn refused(
        &self,
        endpoint: &Endpoint,
        head: &Head<'_>,
        scheme: &str,
        error: &TokenError,
    ) -> Response {
        let mut headers = vec![
            (
                "www-authenticate",
                error.challenge(Some(&self.metadata_url(head, scheme))),
            ),
            ("cache-control", "no-store".to_owned()),
        ];
        if head.origin.is_some() {
            headers.push((
                "access-control-expose-headers",
                "www-authenticate".to_owned(),
            ));
        }
        endpoint.framed(
            head,
            Response {
                status: 401,
                headers,
                body: Vec::new(),
                splice: None,
            },
        )
    }

    /// The 503 for a request with a token when no key set can be had: `Retry-After`
    /// (60 seconds), `Cache-Control: no-store`, `Access-Control-Expose-Headers: Retry-After`
    /// for a browser caller, the endpoint's `Vary` and CORS headers, an empty body. The
    /// adapter logs `error`.
    pub fn unavailable(
        &self,
        endpoint: &Endpoint,
        head: &Head<'_>,
        error: &KeySetError,
    ) -> Response {
        let _ = error;
        let mut headers = vec![
            ("retry-after", UNAVAILABLE_RETRY_AFTER.to_owned()),
            ("cache-control", "no-store".to_owned()),
        ];
        if head.origin.is_some() {
            headers.push(("access-control-expose-headers", "retry-after".to_owned()));
        }
        endpoint.framed(
            head,
            Response {
                status: 503,
                headers,
                body: Vec::new(),
                splice: None,
            },
        )
    }

    /// The Protected Resource Metadata (RFC 9728 §2), the same document at `/.well-known/oauth-protected-resource` and
    /// [`PRM_MCP_PATH`]: `resource` (this server's `/mcp` URL: the one protected resource,
    /// which MCP clients check against the URL they connect to), `authorization_servers`
    /// (the issuer), `bearer_methods_supported` (`header` only: RFC 6750 §2.1, MCP forbids
    /// query strings), `scopes_supported` when known. `GET` and `HEAD` only; `OPTIONS` is the
    /// CORS preflight.
    fn metadata(&self, endpoint: &Endpoint, head: &Head<'_>, scheme: &str) -> Response {
        let m = head.method;
        if m.eq_ignore_ascii_case("OPTIONS") {
            return endpoint.preflight(head, "GET, HEAD, OPTIONS", "mcp-protocol-version");
        }
        let head_only = m.eq_ignore_ascii_case("HEAD");
        if !head_only && !m.eq_ignore_ascii_case("GET") {
            return endpoint.framed(
                head,
                Response {
                    status: 405,
                    headers: vec![("allow", "GET, HEAD, OPTIONS".to_owned())],
                    body: Vec::new(),
                    splice: None,
                },
            );
        }
        let mut doc = serde_json::Map::new();
        doc.insert("resource".into(), self.resource(head, scheme).into());
        doc.insert(
            "authorization_servers".into(),
            vec![serde_json::Value::from(self.issuer())].into(),
        );
        doc.insert(
            "bearer_methods_supported".into(),
            vec![serde_json::Value::from("header")].into(),
        );
        if !self.scopes_supported.is_empty() {
            doc.insert(
                "scopes_supported".into(),
                self.scopes_supported.clone().into(),
            );
        }
        let body = serde_json::Value::Object(doc).to_string().into_bytes();
        endpoint.framed(
            head,
            Response {
                status: 200,
                headers: vec![
                    ("content-type", "application/json".to_owned()),
                    ("cache-control", "max-age=300".to_owned()),
                ],
                body: if head_only { Vec::new() } else { body },
                splice: None,
            },
        )
    }
}
