//! The one table of settings, from which every adapter's configuration is parsed and
//! documented: the Worker's vars and the HTTP component's environment variables
//! ([`Setting::var`]), the native command's flags ([`Setting::flag`]), the npm package's
//! options ([`Setting::option`]) and the WIT `config` record of the `skills` world
//! ([`Setting::wit`]).
//!
//! Every source hands over text (a JavaScript number or a WIT integer is given as its decimal
//! form), so one parser checks every value and every error reads the same way, naming the
//! setting as that source spells it, the value and the accepted form. Every error is a
//! [`ConfigError`], the one shape of a configuration error; the ranges are checked once, by
//! the typed configuration ([`crate::http::HttpConfig::validate`]), and the error is named as
//! the source spells the setting. Adapters match settings by [`Setting::key`], never by name.
//! What a name that is no setting means depends on the source: see [`check_names`].
//!
//! ```
//! use skills_edge::settings::{http_config, Source};
//! let c = http_config(Source::Var, |s| (s.var == "PAGE_SIZE").then(|| "2".to_owned())).unwrap();
//! assert_eq!(c.server.page_size, 2);
//! let e = http_config(Source::Var, |s| (s.var == "CACHE_SCOPE").then(|| "shared".to_owned())).unwrap_err();
//! assert_eq!(e.to_string(), "configuration variable CACHE_SCOPE = \"shared\" is invalid: use `public` or `private`");
//! let e = http_config(Source::Flag, |s| (s.flag == "--page-size").then(|| "0".to_owned())).unwrap_err();
//! assert_eq!(e.to_string(), "option --page-size = \"0\" is invalid (out of range): use an integer from 1 to 1000");
//! ```

use crate::http::MAX_MAX_BODY_BYTES;
use crate::http::{AuthMode, BearerConfig, WorkerAuth};
use crate::http::{
    HostList, HostPattern, HttpConfig, OriginList, DEFAULT_ALLOWED_HOSTS, DEFAULT_ALLOWED_ORIGINS,
};
use crate::protocol::CacheScope;
use crate::server::{Config, Fallback, MAX_PAGE_SIZE, MAX_TTL_MS};
use crate::server::{ConfigError, SettingKey};

/// Where a setting applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// The responder: every adapter (Worker, component, stdio, npm `SkillsServer`, WIT).
    Responder,
    /// The Streamable HTTP endpoint only (Worker, HTTP component).
    Http,
    /// Who the caller is. The `AUTH_*` settings: only the Worker acts on these; every other
    /// adapter accepts `AUTH_MODE` `none` and refuses anything else, naming the Worker
    /// ([`crate::http::Bearer`], docs/private.md). `SCOPES`: the scopes the host that runs an
    /// adapter without authentication grants its caller (the stdio server, the HTTP
    /// component); the Worker refuses it, its callers' scopes come from their tokens.
    Auth,
}

/// The values a setting accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A decimal integer in `min..=max`.
    Integer {
        /// The smallest value.
        min: u64,
        /// The largest value.
        max: u64,
    },
    /// One of these words.
    Choice(&'static [&'static str]),
    /// A comma-separated set of these words, or `none` (or empty) for the empty set.
    Set(&'static [&'static str]),
    /// Any text.
    Text,
    /// An `Origin` allow-list ([`OriginList::parse`]).
    Origins,
    /// A `Host` allow-list ([`HostList::parse`]).
    Hosts,
}

/// One setting: its names in every source, what it accepts, its default and its meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Setting {
    /// Which setting it is: what the typed configuration and every adapter match on.
    pub key: SettingKey,
    /// The Worker var and the HTTP component's environment variable (`PAGE_SIZE`).
    pub var: &'static str,
    /// The native command's flag (`--page-size`).
    pub flag: &'static str,
    /// The npm package's option (`pageSize`; a dotted path for a nested option).
    pub option: &'static str,
    /// The field of the WIT `config` record (`page-size`); empty when the record has none.
    pub wit: &'static str,
    /// What it accepts.
    pub kind: Kind,
    /// The default, as documented.
    pub default: &'static str,
    /// The accepted form, as documented and repeated in errors, of a value that is not one of
    /// a list of words; empty for [`Kind::Choice`] and [`Kind::Set`], whose form is made from
    /// their words ([`Setting::form`]).
    form: &'static str,
    /// What it does.
    pub doc: &'static str,
    /// Where it applies.
    pub scope: Scope,
}

/// Items per page of `skills/list`, `resources/list` and `resources/directory/read`.
const PAGE_SIZE: Setting = Setting {
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
const TTL_MS: Setting = Setting {
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
const CACHE_SCOPE: Setting = Setting {
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
const INSTRUCTIONS: Setting = Setting {
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
const FALLBACK: Setting = Setting {
    key: SettingKey::Fallback,
    var: "FALLBACK",
    flag: "--fallback",
    option: "fallback",
    wit: "fallback",
    kind: Kind::Set(&Fallback::ITEMS),
    default: "none",
    form: "",
    doc: "also serve the skills as MCP tools (`list_skills`, `read_skill`, `read_skill_resource`) and/or as one prompt per skill, for clients without the Skills extension (not part of the extension)",
    scope: Scope::Responder,
};

/// The name this server reports (`serverInfo`).
const SERVER_NAME: Setting = Setting {
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
const SERVER_VERSION: Setting = Setting {
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
const ALLOWED_ORIGINS: Setting = Setting {
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
const ALLOWED_HOSTS: Setting = Setting {
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
const MAX_BODY_BYTES: Setting = Setting {
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
const MIRROR: Setting = Setting {
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
const INSPECTOR: Setting = Setting {
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
const AUTH_MODE: Setting = Setting {
    key: SettingKey::AuthMode,
    var: "AUTH_MODE",
    flag: "--auth-mode",
    option: "authMode",
    wit: "",
    kind: Kind::Choice(&AuthMode::NAMES),
    default: "none",
    form: "",
    doc: "who the caller is (the Worker only; elsewhere only `none`): `none`, every caller is anonymous; `jwt`, the Worker validates OAuth access tokens (RFC 9068 JWTs) sent as `Authorization: Bearer` and serves its Protected Resource Metadata; `access`, the same for Cloudflare Access's `Cf-Access-Jwt-Assertion`; `provider`, the Worker is mounted behind `@cloudflare/workers-oauth-provider`, which validates the tokens, and takes the caller's scopes from the `ctx.auth.scope` it hands over (no other `AUTH_*` setting applies) ([private catalogs](private.md))",
    scope: Scope::Auth,
};

/// The issuer (`jwt`) or the Access team domain (`access`).
const AUTH_ISSUER: Setting = Setting {
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
const AUTH_AUDIENCE: Setting = Setting {
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
const AUTH_JWKS_URL: Setting = Setting {
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
const AUTH_SCOPES_CLAIM: Setting = Setting {
    key: SettingKey::AuthScopesClaim,
    var: "AUTH_SCOPES_CLAIM",
    flag: "--auth-scopes-claim",
    option: "authScopesClaim",
    wit: "",
    kind: Kind::Text,
    default: "scope",
    form: "a claim name; its value is a space-separated string or an array of strings (such as `permissions`, `groups` or `roles`)",
    doc: "the token claim the caller's scopes are read from",
    scope: Scope::Auth,
};

/// The scopes granted to every caller of an adapter that does not authenticate.
const SCOPES: Setting = Setting {
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
pub const SETTINGS: &[Setting] = &[
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
    SCOPES,
];

/// Where values come from, which decides how a setting is named in errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Worker vars and environment variables ([`Setting::var`]).
    Var,
    /// Command-line flags ([`Setting::flag`]).
    Flag,
    /// npm package options ([`Setting::option`]).
    Option,
    /// The WIT `config` record ([`Setting::wit`]).
    Wit,
}

impl Source {
    /// How this source calls its names in errors.
    fn label(self) -> &'static str {
        match self {
            Source::Var => "configuration variable",
            Source::Flag | Source::Option => "option",
            Source::Wit => "config field",
        }
    }
}

impl Setting {
    /// The setting's name in `source`.
    pub fn name(&self, source: Source) -> &'static str {
        match source {
            Source::Var => self.var,
            Source::Flag => self.flag,
            Source::Option => self.option,
            Source::Wit => self.wit,
        }
    }

    /// Whether `source` can set it (the WIT record has no field for HTTP settings).
    fn in_source(&self, source: Source) -> bool {
        !self.name(source).is_empty()
    }
}

/// The words of `MIRROR` and `INSPECTOR`: on, then off.
const ON_OFF: [&str; 2] = ["on", "off"];

/// `words` as a list in prose, each in backticks: "`a`, `b` or `c`" (`last` is "or", "and").
fn prose_list(words: &[&str], last: &str) -> String {
    let mut out = String::new();
    for (i, w) in words.iter().enumerate() {
        if i > 0 {
            out.push_str(if i + 1 == words.len() { last } else { ", " });
        }
        out.push('`');
        out.push_str(w);
        out.push('`');
    }
    out
}

impl Setting {
    /// The accepted form, as documented and repeated in errors: for a choice of words, or a
    /// set of them, made from the words the setting's enum names.
    pub fn form(&self) -> std::borrow::Cow<'static, str> {
        match self.kind {
            Kind::Choice(words) => prose_list(words, " or ").into(),
            Kind::Set(words) => format!(
                "`none`, or a comma-separated set of {} (e.g. `{}`); empty is `none`",
                prose_list(words, " and "),
                words.join(",")
            )
            .into(),
            _ => self.form.into(),
        }
    }

    /// The error for `value` of this setting from `source`: its name as `source` spells it,
    /// the value, `problem` when more precise than the form, and the form as the fix.
    fn error(&self, source: Source, value: &str, problem: Option<String>) -> ConfigError {
        ConfigError {
            key: Some(self.key),
            what: source.label(),
            name: self.name(source).to_owned(),
            value: Some(value.to_owned()),
            problem,
            fix: format!("use {}", self.form()),
        }
    }
}

/// The responder's and the HTTP endpoint's settings from a set of vars that may hold other
/// things too (a Worker's `env`, a component's environment): `names` are every name the set
/// holds, checked as [`check_names`] checks [`Source::Var`] (another binding is left alone, a
/// misspelt setting is refused), then the settings are read as [`http_config`] reads them.
///
/// ```
/// use skills_edge::settings::from_vars;
/// let c = from_vars(["PAGE_SIZE", "ASSETS"], |s| (s.var == "PAGE_SIZE").then(|| "5".into())).unwrap();
/// assert_eq!(c.server.page_size, 5);
/// assert!(from_vars(["page_size"], |_| None).unwrap_err().to_string().contains("PAGE_SIZE"));
/// ```
pub fn from_vars<'a>(
    names: impl IntoIterator<Item = &'a str>,
    get: impl FnMut(&'static Setting) -> Option<String>,
) -> Result<HttpConfig, ConfigError> {
    check_names(
        Source::Var,
        &[Scope::Responder, Scope::Http, Scope::Auth],
        names,
    )?;
    http_config(Source::Var, get)
}

/// The Worker's settings: as [`from_vars`], plus the authentication settings ([`Scope::Auth`],
/// which only the Worker acts on), checked together by [`WorkerAuth::new`].
///
/// ```
/// use skills_edge::settings::worker_config;
/// let get = |v: &[(&str, &str)]| {
///     let v: Vec<(String, String)> = v.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
///     move |s: &skills_edge::settings::Setting| v.iter().find(|(n, _)| n == s.var).map(|(_, x)| x.clone())
/// };
/// let (_, bearer) = worker_config(["AUTH_MODE", "AUTH_ISSUER"],
///     get(&[("AUTH_MODE", "jwt"), ("AUTH_ISSUER", "https://auth.example.com")])).unwrap();
/// assert_eq!(bearer.bearer().unwrap().credential_header(), "authorization");
/// let (_, provider) = worker_config(["AUTH_MODE"], get(&[("AUTH_MODE", "provider")])).unwrap();
/// assert!(provider.bearer().is_none());
/// let e = worker_config(["AUTH_MODE"], get(&[("AUTH_MODE", "access")])).unwrap_err();
/// assert!(e.to_string().starts_with("configuration variable AUTH_ISSUER is invalid (required with AUTH_MODE access)"), "{e}");
/// ```
pub fn worker_config<'a>(
    names: impl IntoIterator<Item = &'a str>,
    get: impl FnMut(&'static Setting) -> Option<String>,
) -> Result<(HttpConfig, WorkerAuth), ConfigError> {
    check_names(
        Source::Var,
        &[Scope::Responder, Scope::Http, Scope::Auth],
        names,
    )?;
    let mut c = HttpConfig::default();
    let mut auth = BearerConfig::default();
    read(Source::Var, get, |_| true, &mut c, &mut auth, true)?;
    own_audience(&c, &auth)?;
    let auth = WorkerAuth::new(auth).map_err(|e| named_for(Source::Var, e))?;
    Ok((c, auth))
}

/// Refuses `AUTH_MODE` `jwt` without `AUTH_AUDIENCE` when `ALLOWED_HOSTS` holds a wildcard
/// (`*`, or a subdomain pattern such as the shipped `*.workers.dev` or `*.com`): the accepted
/// audience is then this server's `/mcp` URL as each request names it, and with a wildcard
/// admitting hosts that are not this server's a caller would choose it, so a token the issuer
/// minted for another resource (`https://other.acct.workers.dev/mcp`) would be taken here
/// with `Host: other.acct.workers.dev` (RFC 8707 §2: a token is for the resource it names).
/// Only a list of exact host names keeps the default audience this server's own. `access`
/// always needs `AUTH_AUDIENCE` (the application's AUD tag), so the question does not arise
/// there.
fn own_audience(c: &HttpConfig, auth: &BearerConfig) -> Result<(), ConfigError> {
    let wildcard = match &c.allowed_hosts {
        HostList::Any => Some("*".to_owned()),
        HostList::Only(list) => list.iter().find_map(|(h, _)| match h {
            HostPattern::Subdomain(suffix) => Some(format!("*{suffix}")),
            HostPattern::Exact(_) => None,
        }),
    };
    let Some(wildcard) =
        wildcard.filter(|_| auth.mode == AuthMode::Jwt && auth.audiences.is_empty())
    else {
        return Ok(());
    };
    Err(ConfigError {
        key: Some(SettingKey::AuthAudience),
        what: Source::Var.label(),
        name: AUTH_AUDIENCE.var.to_owned(),
        value: None,
        problem: Some(format!(
            "required with AUTH_MODE jwt when ALLOWED_HOSTS holds a wildcard ({wildcard}): the audience would be whatever Host a request names, so a token minted for another server under that wildcard would be accepted"
        )),
        fix: "set AUTH_AUDIENCE to this server's MCP URL (https://<your host>/mcp), or list only this server's exact host names in ALLOWED_HOSTS (no `*`)".into(),
    })
}

/// Refuses authentication settings where only the Worker acts on them: `AUTH_MODE` other
/// than `none`, or any other `AUTH_*` setting (which would be silently ignored).
fn worker_only(
    source: Source,
    given: &[(&'static Setting, String)],
    auth: &BearerConfig,
) -> Result<(), ConfigError> {
    let Some((s, value)) = given.iter().find(|(s, _)| {
        s.scope == Scope::Auth
            && s.key != SettingKey::Scopes
            && (s.key != SettingKey::AuthMode || auth.mode != AuthMode::None)
    }) else {
        return Ok(());
    };
    let mut e = s.error(
        source,
        value,
        Some("supported by the Cloudflare Worker only".into()),
    );
    e.fix = match s.key {
        SettingKey::AuthMode => "use `none` here (the default), or serve private skills from the Worker (docs/private.md)".into(),
        _ => "remove it: only the Worker authenticates callers (docs/private.md)".into(),
    };
    Err(e)
}

/// Refuses `SCOPES` on the Worker: it authenticates its callers, and each one's scopes come
/// from its token (`AUTH_MODE`); scopes granted to every caller would make private skills
/// public.
fn not_on_the_worker(
    source: Source,
    given: &[(&'static Setting, String)],
) -> Result<(), ConfigError> {
    let Some((s, value)) = given.iter().find(|(s, _)| s.key == SettingKey::Scopes) else {
        return Ok(());
    };
    let mut e = s.error(
        source,
        value,
        Some("not a setting of the Worker, which takes each caller's scopes from its token".into()),
    );
    e.fix = "remove it, and give callers tokens with their scopes (AUTH_MODE `jwt` or `access`, docs/private.md)".into();
    Err(e)
}

/// The scopes of a space-separated list (an OAuth `scope` string): the items in order, each
/// once, blanks around and between them dropped. Whether each is a scope token is the typed
/// configuration's check ([`Config::validate`]).
fn scope_list(value: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for item in value.split_ascii_whitespace() {
        if !out.iter().any(|s| s == item) {
            out.push(item.to_owned());
        }
    }
    out
}

/// The responder's and the HTTP endpoint's settings from `source`: `get` returns a setting's
/// value, or `None` when it is not set (it keeps its default). The first invalid value, in
/// the table's order, is the error.
pub fn http_config(
    source: Source,
    get: impl FnMut(&'static Setting) -> Option<String>,
) -> Result<HttpConfig, ConfigError> {
    let mut c = HttpConfig::default();
    read(
        source,
        get,
        |_| true,
        &mut c,
        &mut BearerConfig::default(),
        false,
    )?;
    Ok(c)
}

/// The responder's settings from `source` (the settings of [`Scope::Responder`]; see
/// [`http_config`]).
///
/// ```
/// use skills_edge::settings::{server_config, Source};
/// let c = server_config(Source::Flag, |s| (s.flag == "--ttl-ms").then(|| "0".to_owned())).unwrap();
/// assert_eq!(c.ttl_ms, 0);
/// ```
pub fn server_config(
    source: Source,
    get: impl FnMut(&'static Setting) -> Option<String>,
) -> Result<Config, ConfigError> {
    let mut c = HttpConfig::default();
    read(
        source,
        get,
        |s| matches!(s.scope, Scope::Responder | Scope::Auth),
        &mut c,
        &mut BearerConfig::default(),
        false,
    )?;
    Ok(c.server)
}

/// The settings of `scopes` given as `(name, value)` pairs by a source where only settings
/// are expected (the command's flags, a list of options): a name that is no setting of
/// `scopes`, or one given twice, is an error naming the known ones; then as
/// [`http_config`] (the settings outside `scopes` keep their defaults).
///
/// ```
/// use skills_edge::settings::{from_pairs, Scope, Source};
/// let c = from_pairs(Source::Flag, &[Scope::Responder], &[("--page-size", "7")]).unwrap();
/// assert_eq!(c.server.page_size, 7);
/// let e = from_pairs(Source::Flag, &[Scope::Responder], &[("--page", "7")]).unwrap_err();
/// assert!(e.to_string().starts_with("option --page is invalid (not a setting): use one of --page-size, --ttl-ms,"), "{e}");
/// ```
pub fn from_pairs(
    source: Source,
    scopes: &[Scope],
    pairs: &[(&str, &str)],
) -> Result<HttpConfig, ConfigError> {
    check_names(source, scopes, pairs.iter().map(|(n, _)| *n))?;
    for (i, (name, value)) in pairs.iter().enumerate() {
        let twice = pairs[..i].iter().any(|(n, _)| n == name);
        if let Some(s) = setting_named(source, name).filter(|_| twice) {
            let mut e = s.error(source, value, Some("given twice".into()));
            e.fix = "give it once".into();
            return Err(e);
        }
    }
    let mut c = HttpConfig::default();
    read(
        source,
        |s| {
            pairs
                .iter()
                .find(|(n, _)| *n == s.name(source))
                .map(|(_, v)| (*v).to_owned())
        },
        |s| scopes.contains(&s.scope),
        &mut c,
        &mut BearerConfig::default(),
        false,
    )?;
    Ok(c)
}

/// The setting `source` names `name`, if any.
fn setting_named(source: Source, name: &str) -> Option<&'static Setting> {
    SETTINGS
        .iter()
        .find(|s| s.in_source(source) && s.name(source) == name)
}

/// Checks the names a source holds against the settings of `scopes`. What a name that is no
/// setting means depends on the source:
///
/// * [`Source::Flag`] and [`Source::Option`] hold settings only: such a name is an error
///   naming the known ones.
/// * [`Source::Var`] is shared: a Worker's `env` also holds its bindings (`ASSETS`), secrets
///   and the project's own vars, and a component's environment may hold the host's whole
///   process environment (`jco serve` hands it over). A name that is no setting is left to
///   them and ignored, unless it differs from a setting's only in case or in `_` and `-`
///   (`page_size`, `PAGESIZE`, `Page-Size`): that is taken for a misspelt setting, and is an
///   error naming the setting meant and the known ones.
/// * [`Source::Wit`] is a typed record: every name is a setting.
///
/// ```
/// use skills_edge::settings::{check_names, Scope, Source};
/// let all = [Scope::Responder, Scope::Http];
/// assert!(check_names(Source::Var, &all, ["PAGE_SIZE", "ASSETS", "API_TOKEN"]).is_ok());
/// let e = check_names(Source::Var, &all, ["PAGESIZE"]).unwrap_err();
/// assert!(e.to_string().starts_with("configuration variable PAGESIZE is invalid (not a setting; PAGE_SIZE is): rename it PAGE_SIZE"), "{e}");
/// assert!(check_names(Source::Option, &all, ["pagesize"]).is_err());
/// ```
pub fn check_names<'a>(
    source: Source,
    scopes: &[Scope],
    names: impl IntoIterator<Item = &'a str>,
) -> Result<(), ConfigError> {
    let known: Vec<&'static str> = SETTINGS
        .iter()
        .filter(|s| scopes.contains(&s.scope) && s.in_source(source))
        .map(|s| s.name(source))
        .collect();
    let fold = |n: &str| -> String {
        n.chars()
            .filter(|c| !matches!(c, '_' | '-'))
            .map(|c| c.to_ascii_lowercase())
            .collect()
    };
    for name in names {
        if known.contains(&name) {
            continue;
        }
        let error = |problem: String, fix: String| ConfigError {
            key: None,
            what: source.label(),
            name: name.to_owned(),
            value: None,
            problem: Some(problem),
            fix,
        };
        match source {
            Source::Flag | Source::Option => {
                return Err(error(
                    "not a setting".into(),
                    format!("use one of {}", known.join(", ")),
                ))
            }
            Source::Var => {
                if let Some(meant) = known.iter().find(|k| fold(k) == fold(name)) {
                    return Err(error(
                        format!("not a setting; {meant} is"),
                        format!("rename it {meant} (the settings: {})", known.join(", ")),
                    ));
                }
            }
            Source::Wit => {}
        }
    }
    Ok(())
}

/// Reads the settings `wanted` from `source` into `c` and `auth` (checked by the caller).
fn read(
    source: Source,
    mut get: impl FnMut(&'static Setting) -> Option<String>,
    wanted: impl Fn(&Setting) -> bool,
    c: &mut HttpConfig,
    auth: &mut BearerConfig,
    worker: bool,
) -> Result<(), ConfigError> {
    let mut given: Vec<(&'static Setting, String)> = Vec::new();
    let mut name = None;
    let mut version = None;
    for s in SETTINGS {
        if !wanted(s) || !s.in_source(source) {
            continue;
        }
        let Some(value) = get(s) else { continue };
        let err = |problem: Option<String>| s.error(source, &value, problem);
        let on_off = |v: &str| match ON_OFF.iter().position(|w| *w == v.trim()) {
            Some(i) => Ok(i == 0),
            None => Err(err(None)),
        };
        match s.key {
            SettingKey::PageSize => c.server.page_size = integer(&value).map_err(err)?,
            SettingKey::TtlMs => c.server.ttl_ms = integer(&value).map_err(err)?,
            SettingKey::CacheScope => {
                c.server.cache_scope = CacheScope::parse(value.trim()).ok_or_else(|| err(None))?
            }
            SettingKey::Instructions => c.server.instructions = Some(value.clone()),
            SettingKey::Fallback => {
                c.server.fallback = Fallback::parse(&value).map_err(|p| err(Some(p)))?
            }
            SettingKey::ServerName => name = Some((s, value.clone())),
            SettingKey::ServerVersion => version = Some((s, value.clone())),
            SettingKey::AllowedOrigins => {
                c.allowed_origins = OriginList::parse(&value).map_err(|p| err(Some(p)))?
            }
            SettingKey::AllowedHosts => {
                c.allowed_hosts = HostList::parse(&value).map_err(|p| err(Some(p)))?
            }
            SettingKey::MaxBodyBytes => c.max_body_bytes = integer(&value).map_err(err)?,
            SettingKey::Mirror => c.mirror = on_off(&value)?,
            SettingKey::Inspector => c.inspector = on_off(&value)?,
            SettingKey::AuthMode => auth.mode = AuthMode::parse(&value).ok_or_else(|| err(None))?,
            SettingKey::AuthIssuer => auth.issuer = non_empty(&value),
            SettingKey::AuthAudience => {
                auth.audiences = value
                    .split(',')
                    .map(str::trim)
                    .filter(|a| !a.is_empty())
                    .map(str::to_owned)
                    .collect()
            }
            SettingKey::AuthJwksUrl => auth.jwks_url = non_empty(&value),
            SettingKey::AuthScopesClaim => {
                let claim = value.trim();
                if claim.is_empty() || claim.contains(|c: char| c.is_whitespace() || c.is_control())
                {
                    return Err(err(Some("not a claim name".into())));
                }
                auth.scope_claim = Some(claim.to_owned())
            }
            SettingKey::Scopes => c.server.scopes = scope_list(&value),
        }
        given.push((s, value));
        // The ranges are checked by the typed configuration's one check, after each value,
        // so the first invalid value in the table's order is the error; it is named as the
        // source spells it.
        c.validate().map_err(|e| in_source(e, source, &given))?;
    }
    if worker {
        not_on_the_worker(source, &given)?;
    } else {
        worker_only(source, &given, auth)?;
    }
    match (name, version) {
        (None, None) => {}
        (Some((_, n)), Some((_, v))) => {
            c.server.server_info = Some((n, v));
            c.validate().map_err(|e| in_source(e, source, &given))?;
        }
        (Some((s, value)), None) | (None, Some((s, value))) => {
            let other = match s.key {
                SettingKey::ServerName => SERVER_VERSION.name(source),
                _ => SERVER_NAME.name(source),
            };
            return Err(s.error(source, &value, Some(format!("given without {other}"))));
        }
    }
    Ok(())
}

/// The typed configuration's error `e` about a value `source` gave, named as `source` names
/// it, with the value as given and the form the table documents.
fn in_source(e: ConfigError, source: Source, given: &[(&'static Setting, String)]) -> ConfigError {
    match given.iter().find(|(s, _)| Some(s.key) == e.key) {
        Some((s, value)) => s.error(source, value, e.problem),
        None => named_for(source, e),
    }
}

/// `e`, an error of the typed configuration ([`crate::server::Responder::new`],
/// [`crate::http::Endpoint::new`]), with its setting named as `source` names it: what an
/// adapter reports when the configuration it read is refused as a whole (the fallback asked
/// of a pack made without it).
///
/// ```
/// use skills_edge::server::{Config, Fallback};
/// use skills_edge::settings::{named_for, Source};
/// let e = Config { page_size: 0, ..Config::default() }.validate().unwrap_err();
/// assert!(named_for(Source::Option, e).to_string().starts_with("option pageSize = \"0\""));
/// ```
pub fn named_for(source: Source, mut e: ConfigError) -> ConfigError {
    if let Some(s) = SETTINGS
        .iter()
        .find(|s| Some(s.key) == e.key && s.in_source(source))
    {
        e.what = source.label();
        e.name = s.name(source).to_owned();
    }
    e
}

/// The text of a setting, blanks around it removed; `None` when nothing is left (an empty
/// var is an unset one).
fn non_empty(value: &str) -> Option<String> {
    let t = value.trim();
    (!t.is_empty()).then(|| t.to_owned())
}

/// A decimal integer (blanks around it allowed); its range is the typed configuration's
/// check. A number too large for the field is out of range.
fn integer<T: TryFrom<u64>>(value: &str) -> Result<T, Option<String>> {
    let t = value.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Some("not an integer".into()));
    }
    t.parse::<u64>()
        .ok()
        .and_then(|n| T::try_from(n).ok())
        .ok_or_else(|| Some("out of range".into()))
}

/// The settings of `scope` as a Markdown table for `source` (name, default, meaning): the
/// configuration tables of docs/settings.md and pkg/README.md are these, and a test keeps them
/// equal.
#[cfg(test)]
fn markdown_table(source: Source, scopes: &[Scope]) -> String {
    let head = match source {
        Source::Var => "var",
        Source::Flag => "flag",
        Source::Option => "option",
        Source::Wit => "field",
    };
    let mut out = format!("| {head} | default | meaning |\n|---|---|---|\n");
    for s in SETTINGS {
        if !scopes.contains(&s.scope) || !s.in_source(source) {
            continue;
        }
        out.push_str(&markdown_row(source, s));
    }
    out
}

/// The row of `s` in a Markdown table of settings for `source`.
#[cfg(test)]
fn markdown_row(source: Source, s: &Setting) -> String {
    // A default described in words is not a value to type.
    let default = if s.default.contains(' ') {
        s.default.to_owned()
    } else {
        format!("`{}`", s.default)
    };
    format!(
        "| `{}` | {default} | {}; {} |\n",
        s.name(source),
        s.doc,
        s.form()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tables of settings in docs/settings.md and pkg/README.md are generated from the table
    /// (run the tests with `SKILLS_EDGE_WRITE_README=1` to rewrite them after changing a setting),
    /// so the documentation cannot drift from what the parser accepts.
    #[test]
    fn the_docs_document_every_setting_as_the_table_says() {
        for readme in ["docs/settings.md", "pkg/README.md"] {
            check_readme(&format!("{}/{readme}", env!("CARGO_MANIFEST_DIR")));
        }
    }

    fn check_readme(path: &str) {
        let readme = std::fs::read_to_string(path).expect("the settings document");
        let mut out = String::new();
        let mut rest = readme.as_str();
        let mut sections = 0;
        while let Some(i) = rest.find("<!-- settings:") {
            let (before, from) = rest.split_at(i);
            out.push_str(before);
            let open_end = from.find(" -->").expect("a closed marker") + 4;
            let source = match &from["<!-- settings:".len()..open_end - 4] {
                "var" => Source::Var,
                "flag" => Source::Flag,
                "option" => Source::Option,
                other => panic!("unknown settings section {other:?}"),
            };
            let scopes: &[Scope] = match source {
                Source::Var => &[Scope::Responder, Scope::Http, Scope::Auth],
                _ => &[Scope::Responder],
            };
            let close = from.find("<!-- /settings -->").expect("a closing marker");
            out.push_str(&from[..open_end]);
            out.push('\n');
            let mut table = markdown_table(source, scopes);
            if source == Source::Flag {
                // The stdio server's one setting of who the caller is.
                table.push_str(&markdown_row(source, &SCOPES));
            }
            out.push_str(&table);
            out.push_str("<!-- /settings -->");
            rest = &from[close + "<!-- /settings -->".len()..];
            sections += 1;
        }
        out.push_str(rest);
        assert!(sections > 0, "{path} has a settings table");
        if std::env::var_os("SKILLS_EDGE_WRITE_README").is_some() {
            std::fs::write(path, &out).expect("the settings document written");
        } else {
            assert!(
                out == readme,
                "the settings tables of {path} differ from src/settings.rs; rewrite them with SKILLS_EDGE_WRITE_README=1 cargo test --lib settings::"
            );
        }
    }

    #[test]
    fn scopes_are_a_setting_of_the_adapters_without_authentication_only() {
        let vars = |v: &'static str| move |s: &Setting| (s.var == "SCOPES").then(|| v.to_owned());
        // The HTTP component's variable and the stdio flag: a space-separated scope string.
        let c = from_vars(["SCOPES"], vars(" billing  review billing ")).unwrap();
        assert_eq!(c.server.scopes, ["billing", "review"]);
        assert!(from_vars(["SCOPES"], vars(""))
            .unwrap()
            .server
            .scopes
            .is_empty());
        let c = from_pairs(
            Source::Flag,
            &[Scope::Responder, Scope::Auth],
            &[("--scopes", "a b")],
        );
        assert_eq!(c.unwrap().server.scopes, ["a", "b"]);
        let e = from_vars(["SCOPES"], vars("billing,\"x\"")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "configuration variable SCOPES = \"billing,\\\"x\\\"\" is invalid (\"billing,\\\"x\\\"\" is not an OAuth scope token): use OAuth scope tokens separated by spaces, like a token's `scope` claim (`\"billing review\"`); empty for none"
        );
        // The Worker reads each caller's scopes from its token: granting them to everyone is
        // refused, with or without AUTH_MODE.
        for names in [&["SCOPES"][..], &["SCOPES", "AUTH_MODE"]] {
            let e = worker_config(names.iter().copied(), |s| match s.var {
                "SCOPES" => Some("billing".into()),
                "AUTH_MODE" if names.len() > 1 => Some("none".into()),
                _ => None,
            })
            .unwrap_err();
            assert_eq!(e.key, Some(SettingKey::Scopes));
            assert!(
                e.to_string().starts_with("configuration variable SCOPES = \"billing\" is invalid (not a setting of the Worker, which takes each caller's scopes from its token): remove it"),
                "{e}"
            );
        }
        // Not an npm option, nor a field of the WIT record: those take scopes per call.
        assert_eq!(SCOPES.option, "");
        assert_eq!(SCOPES.wit, "");
        assert!(check_names(Source::Option, &[Scope::Responder, Scope::Auth], ["scopes"]).is_err());
    }

    #[test]
    fn the_fallback_flag_is_documented_with_the_responder_flags() {
        assert!(markdown_table(Source::Flag, &[Scope::Responder]).contains("`--fallback`"));
    }
}
