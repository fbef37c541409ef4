//! The settings table (`skills_edge::settings`): one parser for Worker vars, environment
//! variables, flags, npm options and the WIT config, with errors naming the setting as each
//! source spells it.

use skills_edge::http::{Endpoint, HostList, HttpConfig};
use skills_edge::protocol::CacheScope;
use skills_edge::server::SettingKey;
use skills_edge::settings::*;

/// The table's row of `key`.
fn row(key: SettingKey) -> &'static Setting {
    SETTINGS
        .iter()
        .find(|s| s.key == key)
        .expect("every key has a row")
}

#[test]
fn config_from_vars() {
    let c = http_config(Source::Var, |_| None).unwrap();
    assert_eq!(c, HttpConfig::default());
    assert_eq!(c.server.page_size, 50);
    assert_eq!(c.server.ttl_ms, 300_000);
    assert_eq!(c.server.cache_scope, CacheScope::Public);
    assert_eq!(c.server.instructions, None);
    assert_eq!(c.max_body_bytes, 1 << 20);

    let vars = [
        ("PAGE_SIZE", "2"),
        ("TTL_MS", "0"),
        ("CACHE_SCOPE", "private"),
        ("INSTRUCTIONS", ""),
        ("ALLOWED_ORIGINS", "https://a.example"),
        ("ALLOWED_HOSTS", "*"),
        ("MAX_BODY_BYTES", "4096"),
    ];
    let get = |s: &Setting| {
        vars.iter()
            .find(|(k, _)| *k == s.var)
            .map(|(_, v)| v.to_string())
    };
    let c = http_config(Source::Var, get).unwrap();
    assert_eq!(c.server.page_size, 2);
    assert_eq!(c.server.ttl_ms, 0);
    assert_eq!(c.server.cache_scope, CacheScope::Private);
    assert_eq!(c.server.instructions.as_deref(), Some(""));
    assert!(c.allowed_origins.allows("https://a.example"));
    assert!(!c.allowed_origins.allows("http://localhost:1"));
    assert_eq!(c.allowed_hosts, HostList::Any);
    assert_eq!(c.max_body_bytes, 4096);
    let catalog = skills_edge::embedded::catalog().unwrap();
    let ep = Endpoint::new(catalog, c).unwrap();
    assert!(ep.responder().config().instructions.is_some());
}

#[test]
fn bad_vars_are_named_with_value_and_form() {
    let cases = [
        ("PAGE_SIZE", "0"),
        ("PAGE_SIZE", "1001"),
        ("PAGE_SIZE", "ten"),
        ("PAGE_SIZE", "-1"),
        ("PAGE_SIZE", ""),
        ("TTL_MS", "9007199254740992"),
        ("TTL_MS", "1.5"),
        ("CACHE_SCOPE", "shared"),
        ("ALLOWED_ORIGINS", "localhost:3000"),
        ("ALLOWED_HOSTS", ""),
        ("MAX_BODY_BYTES", "0"),
        ("MAX_BODY_BYTES", "16777217"),
        ("MAX_BODY_BYTES", "1MiB"),
    ];
    for (name, value) in cases {
        let e =
            http_config(Source::Var, |s| (s.var == name).then(|| value.to_owned())).unwrap_err();
        assert_eq!(e.name, name);
        assert_eq!(e.value.as_deref(), Some(value));
        let setting = SETTINGS.iter().find(|s| Some(s.key) == e.key).unwrap();
        assert_eq!(setting.var, name);
        let msg = e.to_string();
        assert!(
            msg.contains(name) && msg.contains(&*setting.form()),
            "{msg}"
        );
        assert!(msg.contains(&format!("{value:?}")), "{msg}");
    }
    // Surrounding blanks are tolerated in numbers and lists.
    let c = http_config(Source::Var, |s| {
        (s.var == "PAGE_SIZE").then(|| " 7 ".to_owned())
    })
    .unwrap();
    assert_eq!(c.server.page_size, 7);
}

#[test]
fn documented_defaults_parse_to_the_defaults() {
    for s in SETTINGS {
        // Generated or derived defaults are described in words, not given as values.
        let words = [
            SettingKey::Instructions,
            SettingKey::ServerName,
            SettingKey::ServerVersion,
            SettingKey::AuthIssuer,
            SettingKey::AuthAudience,
            SettingKey::AuthJwksUrl,
            SettingKey::Scopes,
        ];
        if words.contains(&s.key) {
            continue;
        }
        if s.key == SettingKey::AuthScopesClaim {
            // The Worker's alone (refused by every other source, tests/bearer.rs), and only
            // with a mode other than `none`.
            let b = skills_edge::settings::worker_config(["AUTH_MODE", s.var], |t| match t.var {
                "AUTH_MODE" => Some("jwt".to_owned()),
                "AUTH_ISSUER" => Some("https://auth.example.com".to_owned()),
                v if v == s.var => Some(s.default.to_owned()),
                _ => None,
            })
            .unwrap()
            .1
            .into_bearer()
            .unwrap();
            assert_eq!(b.validator().config().scope_claims, ["scope"]);
            continue;
        }
        if s.key == SettingKey::AuthTokenProfile {
            // The Worker's alone, with `jwt`: the default is the RFC 9068 profile.
            let b = skills_edge::settings::worker_config(["AUTH_MODE", s.var], |t| match t.var {
                "AUTH_MODE" => Some("jwt".to_owned()),
                "AUTH_ISSUER" => Some("https://auth.example.com".to_owned()),
                v if v == s.var => Some(s.default.to_owned()),
                _ => None,
            })
            .unwrap()
            .1
            .into_bearer()
            .unwrap();
            assert_eq!(
                b.validator().config().token_type,
                skills_edge::auth::TypeCheck::AccessToken
            );
            continue;
        }
        let c = http_config(Source::Var, |t| {
            (t.var == s.var).then(|| s.default.to_owned())
        });
        assert_eq!(c, Ok(HttpConfig::default()), "{}", s.var);
    }
}

#[test]
fn the_fallback_setting_is_a_set_of_tools_and_prompts() {
    use skills_edge::server::Fallback;
    let get =
        |value: &'static str| move |s: &Setting| (s.var == "FALLBACK").then(|| value.to_owned());
    let both = Fallback {
        tools: true,
        prompts: true,
        search: false,
    };
    for (value, want) in [
        ("", Fallback::NONE),
        ("none", Fallback::NONE),
        (" none ", Fallback::NONE),
        (
            "tools",
            Fallback {
                tools: true,
                prompts: false,
                search: false,
            },
        ),
        (
            "prompts",
            Fallback {
                tools: false,
                prompts: true,
                search: false,
            },
        ),
        ("tools,prompts", both),
        ("prompts, tools", both),
    ] {
        let c = http_config(Source::Var, get(value)).unwrap();
        assert_eq!(c.server.fallback, want, "{value:?}");
    }
    for (value, problem) in [
        ("all", "unknown item \"all\""),
        ("tools,", "an empty item"),
        ("tools,tools", "`tools` is given twice"),
        ("none,tools", "`none` cannot be combined"),
        ("Tools", "unknown item \"Tools\""),
    ] {
        let e = http_config(Source::Var, get(value)).unwrap_err();
        assert_eq!(e.name, "FALLBACK");
        let msg = e.to_string();
        assert!(
            msg.contains(problem) && msg.contains(row(SettingKey::Fallback).form().as_ref()),
            "{msg}"
        );
    }
    // Every source names it its own way, through the same table.
    let fallback = row(SettingKey::Fallback);
    assert_eq!(
        (fallback.flag, fallback.option, fallback.wit),
        ("--fallback", "fallback", "fallback")
    );
    let c = server_config(Source::Flag, |s| {
        (s.flag == "--fallback").then(|| "tools".into())
    })
    .unwrap();
    assert!(c.fallback.tools && !c.fallback.prompts);
    let e = server_config(Source::Wit, |s| (s.wit == "fallback").then(|| "x".into())).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("config field fallback = \"x\" is invalid"),
        "{e}"
    );
    let e = server_config(Source::Option, |s| {
        (s.option == "fallback").then(|| "x".into())
    })
    .unwrap_err();
    assert!(
        e.to_string()
            .starts_with("option fallback = \"x\" is invalid"),
        "{e}"
    );
    // A responder setting: the stdio flags and the WIT record have it, like the Worker vars.
    assert_eq!(fallback.scope, Scope::Responder);
}

/// `wrangler.toml` (copied into every project `skills-edge worker` writes) lists the default
/// of every Worker var in its comments.
/// A choice's words are its enum's: each word the table lists is accepted by the setting's
/// parser, and the form an error gives names every one of them.
#[test]
fn every_listed_choice_parses_and_the_form_names_them_all() {
    for s in SETTINGS {
        let Kind::Choice(words) = s.kind else {
            continue;
        };
        assert!(!words.is_empty(), "{}", s.var);
        for w in words {
            assert!(
                s.form().contains(&format!("`{w}`")),
                "{}: {}",
                s.var,
                s.form()
            );
            if s.scope == Scope::Auth && *w != "none" {
                continue; // only the Worker acts on the other modes
            }
            let r = http_config(Source::Var, |t| (t.key == s.key).then(|| w.to_string()));
            assert!(r.is_ok(), "{} = {w}: {:?}", s.var, r.err());
        }
        let e = http_config(Source::Var, |t| {
            (t.key == s.key).then(|| "neither".to_owned())
        })
        .unwrap_err();
        assert_eq!(e.fix, format!("use {}", s.form()), "{}", s.var);
    }
}

#[test]
fn wrangler_toml_lists_every_var() {
    let toml = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/wrangler.toml"))
        .expect("wrangler.toml");
    // `SCOPES` is the stdio server's and the HTTP component's: the Worker refuses it.
    for s in SETTINGS.iter().filter(|s| s.key != SettingKey::Scopes) {
        let line = format!("#   {:<15} =", s.var);
        assert!(
            toml.contains(&line),
            "wrangler.toml's list of var defaults lacks {} (a line starting {line:?})",
            s.var
        );
    }
}

/// Every key has exactly one row, so matching on [`SettingKey`] reaches every setting and
/// nothing matches settings by name.
#[test]
fn every_setting_key_has_one_row() {
    for (i, s) in SETTINGS.iter().enumerate() {
        assert!(
            SETTINGS[..i].iter().all(|t| t.key != s.key),
            "{} repeats a key",
            s.var
        );
    }
    assert_eq!(SETTINGS.len(), 19);
}

/// Every configuration error has one shape, whatever its source: the typed configuration's
/// range check is the one check, and the settings table names its error as the source
/// spells the setting.
#[test]
fn one_error_shape_and_one_range_check() {
    use skills_edge::server::{Config, ConfigError};
    let typed = Config {
        page_size: 0,
        ..Config::default()
    }
    .validate()
    .unwrap_err();
    assert_eq!(typed.key, Some(SettingKey::PageSize));
    assert_eq!(
        typed.to_string(),
        "field page_size = \"0\" is invalid (out of range): use an integer from 1 to 1000"
    );
    for (source, name, what) in [
        (Source::Var, "PAGE_SIZE", "configuration variable"),
        (Source::Flag, "--page-size", "option"),
        (Source::Option, "pageSize", "option"),
        (Source::Wit, "page-size", "config field"),
    ] {
        let e: ConfigError = server_config(source, |s| {
            (s.key == SettingKey::PageSize).then(|| "0".into())
        })
        .unwrap_err();
        assert_eq!((e.key, e.what, e.name.as_str()), (typed.key, what, name));
        assert_eq!(e.problem, typed.problem);
        assert_eq!(e.fix, format!("use {}", row(SettingKey::PageSize).form()));
    }
    let e = HttpConfig {
        max_body_bytes: 0,
        ..HttpConfig::default()
    }
    .validate()
    .unwrap_err();
    assert_eq!(e.key, Some(SettingKey::MaxBodyBytes));
    let catalog = skills_edge::embedded::catalog().unwrap();
    assert_eq!(
        Endpoint::new(
            catalog,
            HttpConfig {
                max_body_bytes: 0,
                ..HttpConfig::default()
            }
        )
        .err(),
        Some(e)
    );
}

/// Where only settings are expected (the command's flags, the npm options), a name that is
/// no setting is an error naming the known ones; a name given twice too.
#[test]
fn an_unknown_name_where_only_settings_are_expected_is_an_error() {
    let e = from_pairs(Source::Flag, &[Scope::Responder], &[("--pagesize", "5")]).unwrap_err();
    assert_eq!(
        (e.key, e.name.as_str(), e.what),
        (None, "--pagesize", "option")
    );
    let msg = e.to_string();
    for s in SETTINGS.iter().filter(|s| s.scope == Scope::Responder) {
        assert!(msg.contains(s.flag), "{msg} names {}", s.flag);
    }
    // An HTTP setting is no flag of the responder's scope.
    assert!(from_pairs(Source::Flag, &[Scope::Responder], &[("--mirror", "on")]).is_err());
    let e = check_names(
        Source::Option,
        &[Scope::Responder, Scope::Http],
        ["pagesize"],
    )
    .unwrap_err();
    assert!(e.to_string().contains("pageSize, ttlMs"), "{e}");
    let e = from_pairs(
        Source::Flag,
        &[Scope::Responder],
        &[("--ttl-ms", "1"), ("--ttl-ms", "2")],
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "option --ttl-ms = \"2\" is invalid (given twice): give it once"
    );
    let c = from_pairs(
        Source::Flag,
        &[Scope::Responder],
        &[("--ttl-ms", "1"), ("--cache-scope", "private")],
    )
    .unwrap();
    assert_eq!(
        (c.server.ttl_ms, c.server.cache_scope),
        (1, CacheScope::Private)
    );
    // The WIT record is typed: every name it has is a setting.
    assert!(check_names(Source::Wit, &[Scope::Responder], ["anything"]).is_ok());
}

/// A Worker's `env` holds its bindings (`ASSETS`), secrets and the project's own vars beside
/// the settings, and a component's environment may hold the host's whole process
/// environment: there a name that is no setting is ignored, unless it is a setting's name
/// misspelt in case or separators, which is an error naming the setting meant.
#[test]
fn an_unknown_var_is_another_binding_unless_it_misspells_a_setting() {
    let all = [Scope::Responder, Scope::Http];
    let env = [
        "ASSETS",
        "API_TOKEN",
        "PATH",
        "PAGE_SIZE",
        "MIRRORS",
        "SERVER",
    ];
    assert_eq!(check_names(Source::Var, &all, env), Ok(()));
    for (name, meant) in [
        ("page_size", "PAGE_SIZE"),
        ("PAGESIZE", "PAGE_SIZE"),
        ("Max-Body-Bytes", "MAX_BODY_BYTES"),
        ("mirror", "MIRROR"),
    ] {
        let e = check_names(Source::Var, &all, ["ASSETS", name]).unwrap_err();
        assert_eq!((e.key, e.name.as_str()), (None, name));
        let msg = e.to_string();
        assert!(
            msg.starts_with(&format!(
                "configuration variable {name} is invalid (not a setting; {meant} is): rename it {meant}"
            )),
            "{msg}"
        );
        assert!(msg.contains("PAGE_SIZE, TTL_MS"), "{msg}");
    }
    // The vars read are the settings' only: an unknown one changes nothing.
    let c = http_config(Source::Var, |s| (s.var == "PAGE_SIZE").then(|| "3".into())).unwrap();
    assert_eq!(c.server.page_size, 3);
}

/// The Worker's settings from `vars` (name, value), as its `env` gives them.
fn worker_vars(
    vars: &[(&str, &str)],
) -> Result<(HttpConfig, skills_edge::http::AuthStep), skills_edge::server::ConfigError> {
    worker_config(vars.iter().map(|(n, _)| *n), |s| {
        vars.iter()
            .find(|(n, _)| *n == s.var)
            .map(|(_, v)| (*v).to_owned())
    })
}

/// With `ALLOWED_HOSTS = "*"` and no `AUTH_AUDIENCE`, `AUTH_MODE` `jwt` would accept as
/// audience whatever `Host` a request names: a token the issuer minted for another server
/// (`aud` `https://other.example/mcp`) would be taken with `Host: other.example`. The Worker
/// refuses to start, naming the fix.
#[test]
fn a_wildcard_host_cannot_choose_the_jwt_audience() {
    const ISSUER: (&str, &str) = ("AUTH_ISSUER", "https://auth.example.com");
    let e = worker_vars(&[("AUTH_MODE", "jwt"), ISSUER, ("ALLOWED_HOSTS", "*")]).unwrap_err();
    assert_eq!(e.key, Some(SettingKey::AuthAudience));
    let msg = e.to_string();
    assert!(
        msg.starts_with("configuration variable AUTH_AUDIENCE is invalid (required with AUTH_MODE jwt when ALLOWED_HOSTS holds a wildcard (*)"),
        "{msg}"
    );
    assert!(
        msg.contains("set AUTH_AUDIENCE to this server's MCP URL"),
        "{msg}"
    );
    assert!(
        msg.contains("list only this server's exact host names in ALLOWED_HOSTS"),
        "{msg}"
    );
    // Either fix starts it; so do the default hosts, and `*` without jwt.
    for good in [
        &[
            ("AUTH_MODE", "jwt"),
            ISSUER,
            ("ALLOWED_HOSTS", "*"),
            ("AUTH_AUDIENCE", "https://skills.example.com/mcp"),
        ][..],
        &[
            ("AUTH_MODE", "jwt"),
            ISSUER,
            ("ALLOWED_HOSTS", "skills.example.com"),
        ][..],
        &[("AUTH_MODE", "jwt"), ISSUER][..],
        &[("ALLOWED_HOSTS", "*")][..],
    ] {
        assert!(worker_vars(good).is_ok(), "{good:?}");
    }
}

/// A subdomain wildcard in `ALLOWED_HOSTS` (the shipped `*.workers.dev`, or `*.com`) admits
/// hosts that are other servers: without `AUTH_AUDIENCE`, `AUTH_MODE` `jwt` would take a
/// token the issuer minted for `https://other-service.acct.workers.dev/mcp` when a request
/// names that `Host`. The Worker refuses to start, naming the wildcard and the fix.
#[test]
fn a_token_minted_for_another_service_under_the_host_wildcard_is_refused_at_start() {
    const ISSUER: (&str, &str) = ("AUTH_ISSUER", "https://auth.example.com");
    for (hosts, named) in [
        ("localhost,127.0.0.1,[::1],*.workers.dev", "*.workers.dev"),
        ("*.com", "*.com"),
        ("skills.example.com, *.Example.com:443", "*.example.com"),
    ] {
        let e = worker_vars(&[("AUTH_MODE", "jwt"), ISSUER, ("ALLOWED_HOSTS", hosts)]).unwrap_err();
        assert_eq!(e.key, Some(SettingKey::AuthAudience), "{hosts}");
        let msg = e.to_string();
        assert!(
            msg.starts_with(&format!("configuration variable AUTH_AUDIENCE is invalid (required with AUTH_MODE jwt when ALLOWED_HOSTS holds a wildcard ({named})")),
            "{msg}"
        );
        assert!(
            msg.contains("set AUTH_AUDIENCE to this server's MCP URL"),
            "{msg}"
        );
        // Either fix starts it.
        let with_audience = [
            ("AUTH_MODE", "jwt"),
            ISSUER,
            ("ALLOWED_HOSTS", hosts),
            ("AUTH_AUDIENCE", "https://skills.acct.workers.dev/mcp"),
        ];
        assert!(worker_vars(&with_audience).is_ok(), "{hosts}");
        // The wildcard without jwt is fine: no audience is chosen by a Host.
        assert!(worker_vars(&[("ALLOWED_HOSTS", hosts)]).is_ok(), "{hosts}");
    }
    let exact = [
        ("AUTH_MODE", "jwt"),
        ISSUER,
        ("ALLOWED_HOSTS", "skills.acct.workers.dev,localhost:8787"),
    ];
    assert!(worker_vars(&exact).is_ok());
}
