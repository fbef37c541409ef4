//! The one table of settings, from which every adapter's configuration is parsed and
//! documented: the Worker's vars and the HTTP component's environment variables
//! ([`Setting::var`]), the native command's flags ([`Setting::flag`]), the npm package's
//! options ([`Setting::option`]) and the WIT `config` record of the `skills` world
//! ([`Setting::wit`]).
//!
//! Every source hands over text (a JavaScript number or a WIT integer is given as its decimal
//! form), so one parser checks every value and every error reads the same way, naming the
//! setting as that source spells it, the value and the accepted form:
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
use crate::http::{
    HostList, HttpConfig, OriginList, DEFAULT_ALLOWED_HOSTS, DEFAULT_ALLOWED_ORIGINS,
};
use crate::protocol::CacheScope;
use crate::server::{Config, Fallback, MAX_PAGE_SIZE, MAX_TTL_MS};
use std::fmt;

/// Where a setting applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// The responder: every adapter (Worker, component, stdio, npm `SkillsServer`, WIT).
    Responder,
    /// The Streamable HTTP endpoint only (Worker, HTTP component).
    Http,
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
    /// The accepted form, as documented and repeated in errors.
    pub form: &'static str,
    /// What it does.
    pub doc: &'static str,
    /// Where it applies.
    pub scope: Scope,
}

/// Items per page of `skills/list`, `resources/list` and `resources/directory/read`.
pub const PAGE_SIZE: Setting = Setting {
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
pub const TTL_MS: Setting = Setting {
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
pub const CACHE_SCOPE: Setting = Setting {
    var: "CACHE_SCOPE",
    flag: "--cache-scope",
    option: "cacheScope",
    wit: "cache-scope",
    kind: Kind::Choice(&["public", "private"]),
    default: "public",
    form: "`public` or `private`",
    doc: "`cacheScope` of cacheable results; use `private` when content depends on authorization",
    scope: Scope::Responder,
};

/// The server instructions.
pub const INSTRUCTIONS: Setting = Setting {
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
pub const FALLBACK: Setting = Setting {
    var: "FALLBACK",
    flag: "--fallback",
    option: "fallback",
    wit: "fallback",
    kind: Kind::Set(&["tools", "prompts"]),
    default: "none",
    form: "`none`, or a comma-separated set of `tools` and `prompts` (e.g. `tools,prompts`); empty is `none`",
    doc: "also serve the skills as MCP tools (`list_skills`, `read_skill`, `read_skill_resource`) and/or as one prompt per skill, for clients without the Skills extension (not part of the extension)",
    scope: Scope::Responder,
};

/// The name this server reports (`serverInfo`).
pub const SERVER_NAME: Setting = Setting {
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
pub const SERVER_VERSION: Setting = Setting {
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
pub const ALLOWED_ORIGINS: Setting = Setting {
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
pub const ALLOWED_HOSTS: Setting = Setting {
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
pub const MAX_BODY_BYTES: Setting = Setting {
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
pub const MIRROR: Setting = Setting {
    var: "MIRROR",
    flag: "--mirror",
    option: "mirror",
    wit: "",
    kind: Kind::Choice(&["on", "off"]),
    default: "on",
    form: "`on` or `off`",
    doc: "serve the catalog under `/.well-known/agent-skills/` too (Agent Skills Discovery RFC v0.2.0: `index.json`, each skill's archive and every file), for agents that do not speak MCP",
    scope: Scope::Http,
};

/// Whether the Worker serves the skills inspector page.
pub const INSPECTOR: Setting = Setting {
    var: "INSPECTOR",
    flag: "--inspector",
    option: "inspector",
    wit: "",
    kind: Kind::Choice(&["on", "off"]),
    default: "off",
    form: "`on` or `off`",
    doc: "serve the skills inspector page (the npm package's `inspector/`, from the Worker's static assets) at `/inspector/`: it lists and verifies the skills of the server its form names (this Worker's `/mcp`, or any server that allows the page's origin); `on` also admits requests whose `Origin` is this server's own (the `Host` rule still applies); the HTTP component has no page files and answers 503 there",
    scope: Scope::Http,
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
    pub fn in_source(&self, source: Source) -> bool {
        !self.name(source).is_empty()
    }
}

/// A setting with a value outside its accepted form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingError {
    /// The setting.
    pub setting: &'static Setting,
    /// Where the value came from.
    pub source: Source,
    /// The value it had.
    pub value: String,
    /// What was wrong, when more precise than the form.
    pub problem: Option<String>,
}

impl SettingError {
    /// The setting's name as its source spells it.
    pub fn name(&self) -> &'static str {
        self.setting.name(self.source)
    }
}

impl fmt::Display for SettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.source {
            Source::Var => "configuration variable",
            Source::Flag | Source::Option => "option",
            Source::Wit => "config field",
        };
        write!(f, "{what} {} = {:?} is invalid", self.name(), self.value)?;
        if let Some(p) = &self.problem {
            write!(f, " ({p})")?;
        }
        write!(f, ": use {}", self.setting.form)
    }
}

impl std::error::Error for SettingError {}

/// The responder's and the HTTP endpoint's settings from `source`: `get` returns a setting's
/// value, or `None` when it is not set (it keeps its default). The first invalid value is
/// the error.
pub fn http_config(
    source: Source,
    get: impl FnMut(&'static Setting) -> Option<String>,
) -> Result<HttpConfig, SettingError> {
    let mut c = HttpConfig::default();
    read(source, get, |_| true, &mut c)?;
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
) -> Result<Config, SettingError> {
    let mut c = HttpConfig::default();
    read(source, get, |s| s.scope == Scope::Responder, &mut c)?;
    Ok(c.server)
}

fn read(
    source: Source,
    mut get: impl FnMut(&'static Setting) -> Option<String>,
    wanted: impl Fn(&Setting) -> bool,
    c: &mut HttpConfig,
) -> Result<(), SettingError> {
    let mut name = None;
    let mut version = None;
    for s in SETTINGS {
        if !wanted(s) || !s.in_source(source) {
            continue;
        }
        let Some(value) = get(s) else { continue };
        let err = |problem: Option<String>| SettingError {
            setting: s,
            source,
            value: value.clone(),
            problem,
        };
        match s.var {
            "PAGE_SIZE" => c.server.page_size = integer(s, &value).map_err(err)? as usize,
            "TTL_MS" => c.server.ttl_ms = integer(s, &value).map_err(err)?,
            "CACHE_SCOPE" => {
                c.server.cache_scope = CacheScope::parse(value.trim()).ok_or_else(|| err(None))?
            }
            "INSTRUCTIONS" => c.server.instructions = Some(value.clone()),
            "FALLBACK" => c.server.fallback = Fallback::parse(&value).map_err(|p| err(Some(p)))?,
            "SERVER_NAME" | "SERVER_VERSION" => {
                if value.is_empty() {
                    return Err(err(Some("empty".into())));
                }
                let slot = if s.var == "SERVER_NAME" {
                    &mut name
                } else {
                    &mut version
                };
                *slot = Some((s, value.clone()));
            }
            "ALLOWED_ORIGINS" => {
                c.allowed_origins = OriginList::parse(&value).map_err(|p| err(Some(p)))?
            }
            "ALLOWED_HOSTS" => {
                c.allowed_hosts = HostList::parse(&value).map_err(|p| err(Some(p)))?
            }
            "MAX_BODY_BYTES" => c.max_body_bytes = integer(s, &value).map_err(err)? as usize,
            "MIRROR" => {
                c.mirror = match value.trim() {
                    "on" => true,
                    "off" => false,
                    _ => return Err(err(None)),
                }
            }
            "INSPECTOR" => {
                c.inspector = match value.trim() {
                    "on" => true,
                    "off" => false,
                    _ => return Err(err(None)),
                }
            }
            _ => {}
        }
    }
    match (name, version) {
        (None, None) => {}
        (Some((_, n)), Some((_, v))) => c.server.server_info = Some((n, v)),
        (Some((s, value)), None) | (None, Some((s, value))) => {
            let other = if s.var == "SERVER_NAME" {
                SERVER_VERSION.name(source)
            } else {
                SERVER_NAME.name(source)
            };
            return Err(SettingError {
                setting: s,
                source,
                value,
                problem: Some(format!("given without {other}")),
            });
        }
    }
    Ok(())
}

/// A decimal integer within the setting's range.
fn integer(s: &Setting, value: &str) -> Result<u64, Option<String>> {
    let Kind::Integer { min, max } = s.kind else {
        return Err(None);
    };
    let t = value.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Some("not an integer".into()));
    }
    match t.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(Some("out of range".into())),
    }
}

/// The settings of `scope` as a Markdown table for `source` (name, default, meaning): the
/// configuration tables of docs/settings.md and pkg/README.md are these, and a test keeps them
/// equal.
pub fn markdown_table(source: Source, scopes: &[Scope]) -> String {
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
        // A default described in words is not a value to type.
        let default = if s.default.contains(' ') {
            s.default.to_owned()
        } else {
            format!("`{}`", s.default)
        };
        out.push_str(&format!(
            "| `{}` | {default} | {}; {} |\n",
            s.name(source),
            s.doc,
            s.form
        ));
    }
    out
}
