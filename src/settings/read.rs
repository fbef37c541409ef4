//! Reading the settings from a source: vars, flags, options or the WIT record, checked by
//! the typed configuration, every error named as the source spells the setting.

use super::*;

/// The responder's and the HTTP endpoint's settings from a set of vars that may hold other
/// things too (a Worker's `env`, a component's environment): `names` are every name the set
/// holds, checked against the settings' names (another binding is left alone, a misspelt
/// setting is refused, naming the setting it resembles), then the responder's and the
/// endpoint's settings are read from the vars.
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
/// which only the Worker acts on), checked together by [`AuthStep::new`].
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
) -> Result<(HttpConfig, AuthStep), ConfigError> {
    check_names(
        Source::Var,
        &[Scope::Responder, Scope::Http, Scope::Auth],
        names,
    )?;
    let mut c = HttpConfig::default();
    let mut auth = BearerConfig::default();
    read(Source::Var, get, |_| true, &mut c, &mut auth, true)?;
    own_audience(&c, &auth)?;
    let auth = AuthStep::new(auth).map_err(|e| named_for(Source::Var, e))?;
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
#[cfg_attr(feature = "internals", visibility::make(pub))]
#[cfg_attr(not(feature = "js"), allow(dead_code))]
pub(crate) fn http_config(
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

/// The responder's settings from `source` (the settings of [`Scope::Responder`]).
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
#[cfg_attr(feature = "internals", visibility::make(pub))]
#[cfg_attr(not(feature = "command"), allow(dead_code))]
pub(crate) fn from_pairs(
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
#[cfg_attr(not(feature = "command"), allow(dead_code))]
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
#[cfg_attr(feature = "internals", visibility::make(pub))]
pub(crate) fn check_names<'a>(
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
                c.allowed_origins =
                    OriginList::parse(&value).map_err(|p| err(Some(p.to_string())))?
            }
            SettingKey::AllowedHosts => {
                c.allowed_hosts = HostList::parse(&value).map_err(|p| err(Some(p.to_string())))?
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
                let claims = value.trim();
                let bad = |c: &str| {
                    c.is_empty() || c.contains(|c: char| c.is_whitespace() || c.is_control())
                };
                if claims.split(',').map(str::trim).any(bad) {
                    return Err(err(Some("not a list of claim names".into())));
                }
                auth.scope_claim = Some(claims.to_owned())
            }
            SettingKey::AuthTokenProfile => {
                auth.token_profile = Some(TokenProfile::parse(&value).ok_or_else(|| err(None))?)
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
