//! The responder's settings: page size, cache hints, instructions, the server identity and the
//! opt-in tools and prompts fallback, with their ranges (the settings table,
//! [`crate::settings`], parses them from every source).

use crate::protocol::CacheScope;

/// The name this server reports in `serverInfo` unless [`Config::server_info`] names another.
pub(crate) const DEFAULT_SERVER_NAME: &str = "skills-edge";
/// The version this server reports in `serverInfo` unless [`Config::server_info`] names another.
pub(crate) const DEFAULT_SERVER_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The opt-in surface for clients without the Skills extension: the catalog also served as
/// MCP tools (`list_skills`, `read_skill`, `read_skill_resource`) and/or as one prompt per
/// skill (see [`crate::server`]'s `fallback` module). It is not part of the extension, whose
/// working group specifies no fallback; off by default.
///
/// ```
/// use skills_edge::server::{Config, Fallback, Grant, Responder, Transport};
/// let tools = Fallback { tools: true, ..Fallback::default() };
/// assert_eq!((tools.as_str(), Fallback::ALL.as_str()), ("tools", "tools,prompts"));
/// let config = Config { fallback: tools, ..Config::default() };
/// let responder = Responder::new(skills_edge::embedded::catalog().unwrap(), config).unwrap();
/// let reply = responder.respond(br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
///     &Transport::Stream, Grant::PUBLIC);
/// assert!(reply.body_str().contains(r#""name":"read_skill""#));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Fallback {
    /// Serve `tools/list` and `tools/call`, and declare `tools`.
    pub tools: bool,
    /// Serve `prompts/list` and `prompts/get`, and declare `prompts`.
    pub prompts: bool,
    /// Serve the `search_skills` tool (`tools/list`, `tools/call`, and declare `tools`) beside
    /// the Skills extension, without the other tools: for hosts that implement the extension
    /// and want search. With [`Fallback::tools`], `search_skills` is among the tools anyway.
    pub search: bool,
}

impl Fallback {
    /// Off: neither tools nor prompts (the default).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) const NONE: Fallback = Fallback {
        tools: false,
        prompts: false,
        search: false,
    };
    /// Tools (`search_skills` among them) and prompts.
    pub const ALL: Fallback = Fallback {
        tools: true,
        prompts: true,
        search: false,
    };

    /// Whether anything is served.
    pub(crate) fn is_on(self) -> bool {
        self.tools || self.prompts
    }

    /// Whether `tools/list` and `tools/call` are served (the tools fallback, or search alone).
    pub(crate) fn any_tools(self) -> bool {
        self.tools || self.search
    }

    /// The items of the setting, `tools`, `prompts` and `search`, in this order.
    pub(crate) const ITEMS: [&'static str; 3] = ["tools", "prompts", "search"];

    /// The setting's form: `none`, or the items that are on, in the order `tools`, `prompts`, `search`,
    /// separated by commas (`tools,prompts`, `search`, …).
    pub fn as_str(self) -> &'static str {
        match (self.tools, self.prompts, self.search) {
            (false, false, false) => "none",
            (true, false, false) => "tools",
            (false, true, false) => "prompts",
            (true, true, false) => "tools,prompts",
            (false, false, true) => "search",
            (true, false, true) => "tools,search",
            (false, true, true) => "prompts,search",
            (true, true, true) => "tools,prompts,search",
        }
    }

    /// Parses the setting: `none` or empty for off, else a comma-separated set of `tools` and
    /// `prompts` in any order (blanks around items are ignored). `Err` says what is wrong.
    pub(crate) fn parse(s: &str) -> Result<Fallback, String> {
        let t = s.trim();
        if t.is_empty() || t == "none" {
            return Ok(Fallback::NONE);
        }
        let mut f = Fallback::NONE;
        for item in t.split(',').map(str::trim) {
            let slot = match item {
                _ if item == Self::ITEMS[0] => &mut f.tools,
                _ if item == Self::ITEMS[1] => &mut f.prompts,
                _ if item == Self::ITEMS[2] => &mut f.search,
                "" => return Err("an empty item".into()),
                "none" => return Err("`none` cannot be combined with other items".into()),
                other => {
                    return Err(format!(
                        "unknown item {:?}",
                        crate::protocol::error::clip(other)
                    ))
                }
            };
            if *slot {
                return Err(format!("`{item}` is given twice"));
            }
            *slot = true;
        }
        Ok(f)
    }
}

/// Largest page size accepted.
pub(crate) const MAX_PAGE_SIZE: usize = 1000;

/// Largest `ttlMs` accepted: 2^53 − 1, the largest integer every JSON reader keeps exactly.
pub(crate) const MAX_TTL_MS: u64 = crate::skill::value::MAX_SAFE_INTEGER as u64;

/// Responder settings. Defaults: 50 items per page, `ttlMs` 300000 (five minutes),
/// `cacheScope` `"public"` (a static, embedded catalog is the same for everyone; open point
/// A17), instructions generated from the catalog (they name every skill's URI), no fallback.
///
/// ```
/// use skills_edge::protocol::CacheScope;
/// use skills_edge::server::{Config, Grant, Responder};
/// let config = Config { page_size: 2, ttl_ms: 60_000, ..Config::default() };
/// let responder = Responder::new(skills_edge::embedded::catalog().unwrap(), config).unwrap();
/// assert_eq!(responder.skills_page(None, Grant::PUBLIC).unwrap().skills.len(), 2);
/// assert_eq!(responder.cache_hints(Grant::PUBLIC), (60_000, CacheScope::Public));
/// // Out of range: refused before any responder is made.
/// assert!(Config { page_size: 1001, ..Config::default() }.validate().is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// Items per page of `skills/list`, `resources/list` and `resources/directory/read`
    /// (1–1000). A list longer than 64 such pages gets pages of `⌈items / 64⌉` instead (at
    /// most 1,000), so every list a caller sees ends within the 64 pages the official
    /// TypeScript SDK 2.4 client (`listMaxPages`) and MCP Inspector read; the compiler keeps
    /// a catalog within 64,000 skills (`limit-skills`). The size follows from the list the
    /// caller sees only, never from what it may not see.
    pub page_size: usize,
    /// `ttlMs` of cacheable results (0 to 2^53 − 1).
    pub ttl_ms: u64,
    /// `cacheScope` of cacheable results.
    pub cache_scope: CacheScope,
    /// Server instructions; `None` uses the catalog's own, `Some("")` sends none.
    pub instructions: Option<String>,
    /// The server identity sent in `serverInfo` (`initialize`) and in every 2026-07-28
    /// result's `_meta`: `(name, version)`. `None` is skills-edge and this crate's version;
    /// a server that embeds the responder next to its own methods names itself here.
    pub server_info: Option<(String, String)>,
    /// The tools and prompts fallback for clients without the Skills extension (off by
    /// default; see [`Fallback`]).
    pub fallback: Fallback,
    /// The scopes granted to every caller of an adapter that does not authenticate (the stdio
    /// server, the HTTP component), as the host that runs it decided: the adapter answers with
    /// [`crate::view::Catalog::grant`] of these (`respond`). Taken as verified; empty
    /// (the default) is an anonymous caller, the public skills only. The Worker refuses it
    /// (its callers' scopes come from their tokens), and [`crate::server::Responder::respond`]
    /// does not read it.
    pub scopes: Vec<String>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            page_size: 50,
            ttl_ms: 300_000,
            cache_scope: CacheScope::Public,
            instructions: None,
            server_info: None,
            fallback: Fallback::NONE,
            scopes: Vec::new(),
        }
    }
}

/// Which setting a configuration value belongs to: the identity the typed configuration
/// ([`Config`], `crate::http::HttpConfig`) and the settings table (`crate::settings`, which
/// names each one in every source) share, so no adapter matches settings by their names.
///
/// ```
/// use skills_edge::server::{Config, SettingKey};
/// use skills_edge::settings::from_vars;
/// let e = Config { ttl_ms: u64::MAX, ..Config::default() }.validate().unwrap_err();
/// assert_eq!(e.key, Some(SettingKey::TtlMs));
/// // The same key finds the setting's name in every source.
/// let mut names = None;
/// from_vars(std::iter::empty(), |s| {
///     if Some(s.key) == e.key {
///         names = Some((s.var, s.flag, s.option));
///     }
///     None
/// })
/// .unwrap();
/// assert_eq!(names, Some(("TTL_MS", "--ttl-ms", "ttlMs")));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SettingKey {
    /// [`Config::page_size`].
    PageSize,
    /// [`Config::ttl_ms`].
    TtlMs,
    /// [`Config::cache_scope`].
    CacheScope,
    /// [`Config::instructions`].
    Instructions,
    /// [`Config::fallback`].
    Fallback,
    /// The name of [`Config::server_info`].
    ServerName,
    /// The version of [`Config::server_info`].
    ServerVersion,
    /// `HttpConfig::allowed_origins`.
    AllowedOrigins,
    /// `HttpConfig::allowed_hosts`.
    AllowedHosts,
    /// `HttpConfig::max_body_bytes`.
    MaxBodyBytes,
    /// `HttpConfig::mirror`.
    Mirror,
    /// `HttpConfig::inspector`.
    Inspector,
    /// `BearerConfig::mode` (the Worker only).
    AuthMode,
    /// `BearerConfig::issuer`.
    AuthIssuer,
    /// `BearerConfig::audiences`.
    AuthAudience,
    /// `BearerConfig::jwks_url`.
    AuthJwksUrl,
    /// `BearerConfig::scope_claim`.
    AuthScopesClaim,
    /// `BearerConfig::token_profile`.
    AuthTokenProfile,
    /// [`Config::scopes`] (every adapter but the Worker).
    Scopes,
}

/// A configuration that cannot be used: the one shape of every configuration error, whatever
/// its source (a Worker var, an environment variable, a flag, an npm option, a WIT field, or a
/// field of the typed [`Config`]). It names the setting as its source spells it, the value,
/// what is wrong and the fix:
///
/// ```
/// use skills_edge::server::{Config, ConfigError};
/// let e = Config { page_size: 0, ..Config::default() }.validate().unwrap_err();
/// assert_eq!(e.to_string(), "field page_size = \"0\" is invalid (out of range): use an integer from 1 to 1000");
/// ```
///
/// Each adapter turns it into its own form in one place (the Worker's start error, the
/// component's `-32603` refusal, the npm package's `invalid-argument` error, the command's
/// usage error), always through its [`Display`](std::fmt::Display) text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    /// The setting, when the error is about one (`None`: a name that is no setting).
    pub key: Option<SettingKey>,
    /// How the source calls its names: `configuration variable`, `option`, `config field`,
    /// `field`.
    pub what: &'static str,
    /// The setting's name as its source spells it (`PAGE_SIZE`, `--page-size`, `pageSize`,
    /// `page-size`, `page_size`).
    pub name: String,
    /// The value it had, when there is one.
    pub value: Option<String>,
    /// What is wrong, when more precise than the fix (`out of range`, `not an integer`).
    pub problem: Option<String>,
    /// What to do instead (`use an integer from 1 to 1000`).
    pub fix: String,
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.what, self.name)?;
        if let Some(v) = &self.value {
            write!(f, " = {v:?}")?;
        }
        f.write_str(" is invalid")?;
        if let Some(p) = &self.problem {
            write!(f, " ({p})")?;
        }
        write!(f, ": {}", self.fix)
    }
}

impl std::error::Error for ConfigError {}

impl ConfigError {
    /// An error about the typed field `name` of [`Config`] or `HttpConfig`.
    pub(crate) fn field(
        key: SettingKey,
        name: &'static str,
        value: impl std::fmt::Display,
        problem: &str,
        fix: impl Into<String>,
    ) -> ConfigError {
        ConfigError {
            key: Some(key),
            what: "field",
            name: name.to_owned(),
            value: Some(value.to_string()),
            problem: Some(problem.to_owned()),
            fix: fix.into(),
        }
    }
}

impl Config {
    /// Checks every setting: the one check of the ranges, which the settings table applies
    /// to every source too. The error names the field, the value and the accepted range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(1..=MAX_PAGE_SIZE).contains(&self.page_size) {
            return Err(ConfigError::field(
                SettingKey::PageSize,
                "page_size",
                self.page_size,
                "out of range",
                format!("use an integer from 1 to {MAX_PAGE_SIZE}"),
            ));
        }
        if self.ttl_ms > MAX_TTL_MS {
            return Err(ConfigError::field(
                SettingKey::TtlMs,
                "ttl_ms",
                self.ttl_ms,
                "out of range",
                format!("use an integer from 0 to {MAX_TTL_MS}"),
            ));
        }
        if let Some((name, version)) = &self.server_info {
            for (key, field, v) in [
                (SettingKey::ServerName, "server_info.0", name),
                (SettingKey::ServerVersion, "server_info.1", version),
            ] {
                if v.is_empty() {
                    return Err(ConfigError::field(
                        key,
                        field,
                        "",
                        "empty",
                        "use a non-empty name and version",
                    ));
                }
            }
        }
        if let Some(bad) = self
            .scopes
            .iter()
            .find(|s| !crate::access::is_scope_token(s))
        {
            return Err(ConfigError::field(
                SettingKey::Scopes,
                "scopes",
                self.scopes.join(" "),
                &format!(
                    "{:?} is not an OAuth scope token",
                    crate::protocol::error::clip(bad)
                ),
                "use OAuth scope tokens (RFC 6749 §3.3: printable ASCII without space, `\"` or `\\`), separated by spaces",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::Fallback;

    #[test]
    fn the_fallback_setting_parses_a_set_in_any_order() {
        assert_eq!(Fallback::parse("prompts, tools"), Ok(Fallback::ALL));
        assert_eq!(Fallback::parse(""), Ok(Fallback::NONE));
        assert!(Fallback::parse("tools,tools").is_err());
    }

    #[test]
    fn the_fallback_setting_form_round_trips() {
        let tools = Fallback {
            tools: true,
            ..Fallback::NONE
        };
        let prompts = Fallback {
            prompts: true,
            ..Fallback::NONE
        };
        let search = Fallback {
            search: true,
            ..Fallback::NONE
        };
        let every = Fallback {
            search: true,
            ..Fallback::ALL
        };
        for want in [Fallback::NONE, tools, prompts, search, every, Fallback::ALL] {
            assert_eq!(
                Fallback::parse(want.as_str()),
                Ok(want),
                "as_str round-trips"
            );
        }
    }
}
