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
//! What a name that is no setting means depends on the source: see `check_names`.
//!
//! ```
//! use skills_edge::settings::{from_vars, server_config, Source};
//! let c = from_vars(["PAGE_SIZE"], |s| (s.var == "PAGE_SIZE").then(|| "2".to_owned())).unwrap();
//! assert_eq!(c.server.page_size, 2);
//! let e = from_vars(["CACHE_SCOPE"], |s| (s.var == "CACHE_SCOPE").then(|| "shared".to_owned())).unwrap_err();
//! assert_eq!(e.to_string(), "configuration variable CACHE_SCOPE = \"shared\" is invalid: use `public` or `private`");
//! let e = server_config(Source::Flag, |s| (s.flag == "--page-size").then(|| "0".to_owned())).unwrap_err();
//! assert_eq!(e.to_string(), "option --page-size = \"0\" is invalid (out of range): use an integer from 1 to 1000");
//! ```

use crate::http::{AuthMode, AuthStep, BearerConfig, TokenProfile};
use crate::http::{HostList, HostPattern, HttpConfig, OriginList};
use crate::protocol::CacheScope;
use crate::server::{Config, Fallback};
use crate::server::{ConfigError, SettingKey};

/// Where a setting applies.
///
/// ```
/// use skills_edge::settings::{worker_config, Scope};
/// // The Worker reads every setting of its scopes: those of the HTTP endpoint among them.
/// let mut http = Vec::new();
/// worker_config(std::iter::empty(), |s| {
///     if s.scope == Scope::Http {
///         http.push(s.var);
///     }
///     None
/// })
/// .unwrap();
/// assert!(http.contains(&"ALLOWED_HOSTS") && !http.contains(&"PAGE_SIZE"));
/// ```
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
///
/// ```
/// use skills_edge::server::SettingKey;
/// use skills_edge::settings::{from_vars, Kind};
/// let mut kinds = Vec::new();
/// from_vars(std::iter::empty(), |s| {
///     kinds.push((s.key, s.kind));
///     None
/// })
/// .unwrap();
/// let kind = |key| kinds.iter().find(|(k, _)| *k == key).unwrap().1;
/// assert_eq!(kind(SettingKey::PageSize), Kind::Integer { min: 1, max: 1000 });
/// assert_eq!(kind(SettingKey::CacheScope), Kind::Choice(&["public", "private"]));
/// ```
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
///
/// ```
/// use skills_edge::server::SettingKey;
/// use skills_edge::settings::{from_vars, Scope, Setting};
/// let mut page_size: Option<&'static Setting> = None;
/// from_vars(std::iter::empty(), |s| {
///     if s.key == SettingKey::PageSize {
///         page_size = Some(s);
///     }
///     None
/// })
/// .unwrap();
/// let page_size = page_size.unwrap();
/// assert_eq!((page_size.var, page_size.flag, page_size.option, page_size.wit),
///     ("PAGE_SIZE", "--page-size", "pageSize", "page-size"));
/// assert_eq!((page_size.default, page_size.scope), ("50", Scope::Responder));
/// ```
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

mod read;
mod rows;

pub use read::*;
internal_use!(rows::SETTINGS);
use rows::*;

/// Where values come from, which decides how a setting is named in errors.
///
/// ```
/// use skills_edge::settings::{server_config, Source};
/// let zero = |s: &skills_edge::settings::Setting| (s.key == skills_edge::server::SettingKey::PageSize).then(|| "0".to_owned());
/// let e = server_config(Source::Wit, zero).unwrap_err();
/// assert!(e.to_string().starts_with("config field page-size = \"0\""), "{e}");
/// let e = server_config(Source::Option, zero).unwrap_err();
/// assert!(e.to_string().starts_with("option pageSize = \"0\""), "{e}");
/// ```
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
    pub(crate) fn name(&self, source: Source) -> &'static str {
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
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn form(&self) -> std::borrow::Cow<'static, str> {
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
                "the settings tables of {path} differ from src/settings/rows.rs; rewrite them with SKILLS_EDGE_WRITE_README=1 cargo test --lib settings::"
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
