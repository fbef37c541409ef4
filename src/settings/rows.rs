//! The rows of the settings table, one per setting, and the table itself.

use super::{Kind, Scope, Setting, ON_OFF};
use crate::http::{
    AuthMode, TokenProfile, DEFAULT_ALLOWED_HOSTS, DEFAULT_ALLOWED_ORIGINS, MAX_MAX_BODY_BYTES,
};
use crate::protocol::CacheScope;
use crate::server::{Fallback, SettingKey, MAX_PAGE_SIZE, MAX_TTL_MS};

/// Items per page of `skills/list`, `resources/list` and `resources/directory/read`.
pub(super) const PAGE_SIZE: Setting = Setting {
    key: SettingKey::PageSize,
    var: "PAGE_SIZE",
    flag: "--page-size",
    option: "pageSize",
    wit: "page-size",
    kind: Kind::Integer {
        min: 1,
        max: MAX_PAGE_SIZE as u64,
    },
    default: "50",
    form: "an integer from 1 to 1000",
    doc: "items per page of `skills/list`, `resources/list` and `resources/directory/read`",
    scope: Scope::Responder,
};

/// `ttlMs` of cacheable results.
pub(super) const TTL_MS: Setting = Setting {
    key: SettingKey::TtlMs,
    var: "TTL_MS",
    flag: "--ttl-ms",
    option: "ttlMs",
    wit: "ttl-ms",
    kind: Kind::Integer {
        min: 0,
        max: MAX_TTL_MS,
    },
    default: "300000",
    form: "an integer from 0 to 9007199254740991 (milliseconds)",
    doc: "`ttlMs` of cacheable results (0 means immediately stale)",
    scope: Scope::Responder,
};

/// `cacheScope` of cacheable results.
pub(super) const CACHE_SCOPE: Setting = Setting {
    key: SettingKey::CacheScope,
    var: "CACHE_SCOPE",
    flag: "--cache-scope",
    option: "cacheScope",
    wit: "cache-scope",
    kind: Kind::Choice(&CacheScope::NAMES),
    default: "public",
    form: "",
    doc: "`cacheScope` of cacheable results; use `private` when content depends on authorization",
    scope: Scope::Responder,
};

/// The server instructions.
pub(super) const INSTRUCTIONS: Setting = Setting {
    key: SettingKey::Instructions,
    var: "INSTRUCTIONS",
    flag: "--instructions",
    option: "instructions",
    wit: "instructions",
    kind: Kind::Text,
    default: "generated: names every skill's URI",
    form: "any text; the empty string sends no instructions",
    doc: "server instructions",
    scope: Scope::Responder,
};

/// The tools and prompts fallback for clients without the Skills extension
/// ([`crate::server::Fallback`]).
pub(super) const FALLBACK: Setting = Setting {
    key: SettingKey::Fallback,
    var: "FALLBACK",
    flag: "--fallback",
    option: "fallback",
    wit: "fallback",
    kind: Kind::Set(&Fallback::ITEMS),
    default: "none",
    form: "",
    doc: "also serve the skills as MCP tools (`list_skills`, `read_skill`, `read_skill_resource`, `search_skills`) and/or as one prompt per skill, for clients without the Skills extension; `search` offers the `search_skills` tool alone, beside the extension (none of them part of the extension)",
    scope: Scope::Responder,
};

/// The name this server reports (`serverInfo`).
pub(super) const SERVER_NAME: Setting = Setting {
    key: SettingKey::ServerName,
    var: "SERVER_NAME",
    flag: "--server-name",
    option: "serverInfo.name",
    wit: "",
    kind: Kind::Text,
    default: "skills-edge",
    form: "a non-empty name, given together with the version",
    doc: "the name in `serverInfo` (initialize) and in every 2026-07-28 result's `_meta`, for a server that embeds the responder",
    scope: Scope::Responder,
};

/// The version this server reports (`serverInfo`).
pub(super) const SERVER_VERSION: Setting = Setting {
    key: SettingKey::ServerVersion,
    var: "SERVER_VERSION",
    flag: "--server-version",
    option: "serverInfo.version",
    wit: "",
    kind: Kind::Text,
    default: "this package's version",
    form: "a non-empty version, given together with the name",
    doc: "the version that goes with the name",
    scope: Scope::Responder,
};

/// Browser origins allowed to call the endpoint.
pub(super) const ALLOWED_ORIGINS: Setting = Setting {
    key: SettingKey::AllowedOrigins,
    var: "ALLOWED_ORIGINS",
    flag: "--allowed-origins",
    option: "allowedOrigins",
    wit: "",
    kind: Kind::Origins,
    default: DEFAULT_ALLOWED_ORIGINS,
    form: "a comma-separated list of origins `scheme://host[:port]` (port `*` for any port, \
           host `*.example.com` for any subdomain), `null`, or `*` for any origin; empty for none",
    doc: "browser origins allowed; requests without `Origin` are always allowed",
    scope: Scope::Http,
};

/// `Host` header values accepted (DNS-rebinding defence).
pub(super) const ALLOWED_HOSTS: Setting = Setting {
    key: SettingKey::AllowedHosts,
    var: "ALLOWED_HOSTS",
    flag: "--allowed-hosts",
    option: "allowedHosts",
    wit: "",
    kind: Kind::Hosts,
    default: DEFAULT_ALLOWED_HOSTS,
    form: "a comma-separated list of host names `name` (any port) or `name:port`, \
           `*.example.com` for any subdomain, IPv6 in brackets (`[::1]`), or `*` for any host",
    doc: "`Host` values accepted (DNS-rebinding defence)",
    scope: Scope::Http,
};

/// The largest request body read.
pub(super) const MAX_BODY_BYTES: Setting = Setting {
    key: SettingKey::MaxBodyBytes,
    var: "MAX_BODY_BYTES",
    flag: "--max-body-bytes",
    option: "maxBodyBytes",
    wit: "",
    kind: Kind::Integer {
        min: 1,
        max: MAX_MAX_BODY_BYTES as u64,
    },
    default: "1048576",
    form: "an integer from 1 to 16777216 (bytes)",
    doc: "largest request body; larger ones get 413 without being read whole",
    scope: Scope::Http,
};

/// Whether the catalog is also served as the `/.well-known/agent-skills/` mirror.
pub(super) const MIRROR: Setting = Setting {
    key: SettingKey::Mirror,
    var: "MIRROR",
    flag: "--mirror",
    option: "mirror",
    wit: "",
    kind: Kind::Choice(&ON_OFF),
    default: "on",
    form: "",
    doc: "serve the catalog under `/.well-known/agent-skills/` too (Agent Skills Discovery RFC v0.2.0: `index.json`, each skill's archive and every file), for agents that do not speak MCP",
    scope: Scope::Http,
};

/// Whether the Worker serves the skills inspector page.
pub(super) const INSPECTOR: Setting = Setting {
    key: SettingKey::Inspector,
    var: "INSPECTOR",
    flag: "--inspector",
    option: "inspector",
    wit: "",
    kind: Kind::Choice(&ON_OFF),
    default: "off",
    form: "",
    doc: "serve the skills inspector page (the npm package's `inspector/`, from the Worker's static assets) at `/inspector/`: it lists and verifies the skills of the server its form names (this Worker's `/mcp`, or any server that allows the page's origin); `on` also admits requests whose `Origin` is this server's own (the `Host` rule still applies); the HTTP component has no page files and answers 503 there",
    scope: Scope::Http,
};

/// Who the caller is: `none`, `jwt`, `access` or `provider` ([`crate::http::AuthMode`]).
pub(super) const AUTH_MODE: Setting = Setting {
    key: SettingKey::AuthMode,
    var: "AUTH_MODE",
    flag: "--auth-mode",
    option: "authMode",
    wit: "",
    kind: Kind::Choice(&AuthMode::NAMES),
    default: "none",
    form: "",
    doc: "who the caller is (the Worker only; elsewhere only `none`): `none`, every caller is anonymous; `jwt`, the Worker validates OAuth JWT access tokens (RFC 9068 profile tokens, or the identity provider's own with `AUTH_TOKEN_PROFILE` `jwt`) sent as `Authorization: Bearer` and serves its Protected Resource Metadata; `access`, the same for Cloudflare Access's `Cf-Access-Jwt-Assertion`; `provider`, the Worker is mounted behind `@cloudflare/workers-oauth-provider`, which validates the tokens, and takes the caller's scopes from the `ctx.auth.scope` it hands over (no other `AUTH_*` setting applies) ([private catalogs](private.md))",
    scope: Scope::Auth,
};

/// The issuer (`jwt`) or the Access team domain (`access`).
pub(super) const AUTH_ISSUER: Setting = Setting {
    key: SettingKey::AuthIssuer,
    var: "AUTH_ISSUER",
    flag: "--auth-issuer",
    option: "authIssuer",
    wit: "",
    kind: Kind::Text,
    default: "none: required with `jwt` and `access`",
    form: "for `jwt` the issuer identifier, an `https` URL compared exactly with each token's `iss`; for `access` the team domain `https://<team>.cloudflareaccess.com`",
    doc: "the authorization server whose tokens are accepted",
    scope: Scope::Auth,
};

/// The audiences accepted.
pub(super) const AUTH_AUDIENCE: Setting = Setting {
    key: SettingKey::AuthAudience,
    var: "AUTH_AUDIENCE",
    flag: "--auth-audience",
    option: "authAudience",
    wit: "",
    kind: Kind::Text,
    default: "for `jwt`: this server's `/mcp` URL as each request names it",
    form: "a comma-separated list of audiences, compared exactly with each token's `aud`; for `jwt` required when `ALLOWED_HOSTS` holds a wildcard (`*`, `*.workers.dev`); for `access` the application's AUD tag (required)",
    doc: "the audiences a token must name (RFC 8707: this server's canonical URI)",
    scope: Scope::Auth,
};

/// The key set's URL.
pub(super) const AUTH_JWKS_URL: Setting = Setting {
    key: SettingKey::AuthJwksUrl,
    var: "AUTH_JWKS_URL",
    flag: "--auth-jwks-url",
    option: "authJwksUrl",
    wit: "",
    kind: Kind::Text,
    default: "for `jwt`: the issuer metadata's `jwks_uri`; for `access`: `<team domain>/cdn-cgi/access/certs`",
    form: "an `https` URL without query or fragment (`http` on a loopback host, for testing)",
    doc: "where the issuer's signing keys (a JWK Set) are fetched",
    scope: Scope::Auth,
};

/// The claim the scopes are read from.
pub(super) const AUTH_SCOPES_CLAIM: Setting = Setting {
    key: SettingKey::AuthScopesClaim,
    var: "AUTH_SCOPES_CLAIM",
    flag: "--auth-scopes-claim",
    option: "authScopesClaim",
    wit: "",
    kind: Kind::Text,
    default: "scope",
    form: "claim names or JSON Pointers (`/realm_access/roles`), separated by commas; each value is a space-separated string or an array of strings (such as `scp`, `permissions`, `groups` or `roles`); with `access`, a string is one group",
    doc: "the token claims the caller's scopes are read from, their values joined; with `access`, the claim the Access application passes groups in (each value grants `group:<value>`; default none)",
    scope: Scope::Auth,
};

/// Which JWT access tokens `jwt` accepts ([`crate::http::TokenProfile`]).
pub(super) const AUTH_TOKEN_PROFILE: Setting = Setting {
    key: SettingKey::AuthTokenProfile,
    var: "AUTH_TOKEN_PROFILE",
    flag: "--auth-token-profile",
    option: "authTokenProfile",
    wit: "",
    kind: Kind::Choice(&TokenProfile::NAMES),
    default: "rfc9068",
    form: "",
    doc: "which access tokens `jwt` accepts (with `AUTH_MODE` `jwt` only): `rfc9068`, RFC 9068 profile tokens (`typ` `at+jwt`, `client_id`, `jti`); `jwt`, the identity provider's own JWT access tokens (Auth0's default profile, Okta, Microsoft Entra ID, Keycloak), still signed, with the exact `iss`, an accepted `aud` and `exp`, but `typ` `at+jwt`, `JWT` or none, so an ID token is kept out by its `aud` (and a Keycloak one by its `typ` claim) ([private catalogs](private.md))",
    scope: Scope::Auth,
};

/// The scopes granted to every caller of an adapter that does not authenticate.
pub(super) const SCOPES: Setting = Setting {
    key: SettingKey::Scopes,
    var: "SCOPES",
    flag: "--scopes",
    option: "",
    wit: "",
    kind: Kind::Text,
    default: "none: public skills only",
    form: "OAuth scope tokens separated by spaces, like a token's `scope` claim (`\"billing review\"`); empty for none",
    doc: "the scopes every caller has, as the host that runs the server decided (the stdio server and the HTTP component, which do not authenticate; the Worker refuses it and reads each caller's token): the caller sees the public skills and the private ones whose `[[access]]` rules name one of them; taken as verified ([private catalogs](private.md))",
    scope: Scope::Auth,
};

/// Every setting, in documentation order.
#[cfg_attr(feature = "internals", visibility::make(pub))]
pub(crate) const SETTINGS: &[Setting] = &[
    PAGE_SIZE,
    TTL_MS,
    CACHE_SCOPE,
    INSTRUCTIONS,
    FALLBACK,
    SERVER_NAME,
    SERVER_VERSION,
    ALLOWED_ORIGINS,
    ALLOWED_HOSTS,
    MAX_BODY_BYTES,
    MIRROR,
    INSPECTOR,
    AUTH_MODE,
    AUTH_ISSUER,
    AUTH_AUDIENCE,
    AUTH_JWKS_URL,
    AUTH_SCOPES_CLAIM,
    AUTH_TOKEN_PROFILE,
    SCOPES,
];
