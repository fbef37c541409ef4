//! The responder's settings: page size, cache hints, instructions and the server identity,
//! with their ranges (the settings table, [`crate::settings`], parses them from every source).

/// The name this server reports in `serverInfo`.
pub const SERVER_NAME: &str = "skills-edge";
/// The version this server reports in `serverInfo`.
pub const SERVER_VERSION: &str = env!("CARGO_PKG_VERSION");

/// `cacheScope` of cacheable results.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheScope {
    /// Any cache may share the result (the embedded catalog is the same for every caller).
    Public,
    /// Only the requesting client may cache it (use when content depends on authorization).
    Private,
}

impl CacheScope {
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            CacheScope::Public => "public",
            CacheScope::Private => "private",
        }
    }

    /// Parses `"public"` or `"private"`.
    pub fn parse(s: &str) -> Option<CacheScope> {
        match s {
            "public" => Some(CacheScope::Public),
            "private" => Some(CacheScope::Private),
            _ => None,
        }
    }
}

/// Largest page size accepted.
pub const MAX_PAGE_SIZE: usize = 1000;

/// Largest `ttlMs` accepted: 2^53 − 1, the largest integer every JSON reader keeps exactly.
pub const MAX_TTL_MS: u64 = crate::skill::value::MAX_SAFE_INTEGER as u64;

/// Responder settings. Defaults: 50 items per page, `ttlMs` 300000 (five minutes),
/// `cacheScope` `"public"` (a static, embedded catalog is the same for everyone; open point
/// A17), instructions generated from the catalog (they name every skill's URI).
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
}

impl Default for Config {
    fn default() -> Self {
        Config {
            page_size: 50,
            ttl_ms: 300_000,
            cache_scope: CacheScope::Public,
            instructions: None,
            server_info: None,
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
