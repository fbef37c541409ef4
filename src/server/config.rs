//! The responder's settings: page size, cache hints, instructions, the server identity and the
//! opt-in tools and prompts fallback, with their ranges (the settings table,
//! [`crate::settings`], parses them from every source).

use crate::protocol::CacheScope;

/// The name this server reports in `serverInfo` unless [`Config::server_info`] names another.
pub const DEFAULT_SERVER_NAME: &str = "skills-edge";
/// The version this server reports in `serverInfo` unless [`Config::server_info`] names another.
pub const DEFAULT_SERVER_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The opt-in surface for clients without the Skills extension: the catalog also served as
/// MCP tools (`list_skills`, `read_skill`, `read_skill_resource`) and/or as one prompt per
/// skill (see [`crate::server`]'s `fallback` module). It is not part of the extension, whose
/// working group specifies no fallback; off by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Fallback {
    /// Serve `tools/list` and `tools/call`, and declare `tools`.
    pub tools: bool,
    /// Serve `prompts/list` and `prompts/get`, and declare `prompts`.
    pub prompts: bool,
}

impl Fallback {
    /// Off: neither tools nor prompts (the default).
    pub const NONE: Fallback = Fallback {
        tools: false,
        prompts: false,
    };
    /// Tools and prompts.
    pub const ALL: Fallback = Fallback {
        tools: true,
        prompts: true,
    };

    /// Whether anything is served.
    pub fn is_on(self) -> bool {
        self.tools || self.prompts
    }

    /// The setting's form: `none`, `tools`, `prompts` or `tools,prompts`.
    pub fn as_str(self) -> &'static str {
        match (self.tools, self.prompts) {
            (false, false) => "none",
            (true, false) => "tools",
            (false, true) => "prompts",
            (true, true) => "tools,prompts",
        }
    }

    /// Parses the setting: `none` or empty for off, else a comma-separated set of `tools` and
    /// `prompts` in any order (blanks around items are ignored). `Err` says what is wrong.
    ///
    /// ```
    /// use skills_edge::server::Fallback;
    /// assert_eq!(Fallback::parse("prompts, tools"), Ok(Fallback::ALL));
    /// assert_eq!(Fallback::parse(""), Ok(Fallback::NONE));
    /// assert!(Fallback::parse("tools,tools").is_err());
    /// ```
    pub fn parse(s: &str) -> Result<Fallback, String> {
        let t = s.trim();
        if t.is_empty() || t == "none" {
            return Ok(Fallback::NONE);
        }
        let mut f = Fallback::NONE;
        for item in t.split(',').map(str::trim) {
            let slot = match item {
                "tools" => &mut f.tools,
                "prompts" => &mut f.prompts,
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
pub const MAX_PAGE_SIZE: usize = 1000;

/// Largest `ttlMs` accepted: 2^53 − 1, the largest integer every JSON reader keeps exactly.
pub const MAX_TTL_MS: u64 = crate::skill::value::MAX_SAFE_INTEGER as u64;

/// Responder settings. Defaults: 50 items per page, `ttlMs` 300000 (five minutes),
/// `cacheScope` `"public"` (a static, embedded catalog is the same for everyone; open point
/// A17), instructions generated from the catalog (they name every skill's URI), no fallback.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// Items per page of `skills/list`, `resources/list` and `resources/directory/read`
    /// (1–1000).
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
        }
    }
}

/// A setting out of range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

impl Config {
    /// Checks every setting; the message names the setting, the value and the allowed range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(1..=MAX_PAGE_SIZE).contains(&self.page_size) {
            return Err(ConfigError(format!(
                "page size {} is out of range: use 1 to {MAX_PAGE_SIZE}",
                self.page_size
            )));
        }
        if self.ttl_ms > MAX_TTL_MS {
            return Err(ConfigError(format!(
                "ttlMs {} is out of range: use 0 to 9007199254740991",
                self.ttl_ms
            )));
        }
        if let Some((name, version)) = &self.server_info {
            if name.is_empty() || version.is_empty() {
                return Err(ConfigError(format!(
                    "serverInfo needs a non-empty name and version, got {name:?} and {version:?}"
                )));
            }
        }
        Ok(())
    }
}
