//! The tests of the command lines: both programs, every subcommand, the usage text.

use super::*;
use crate::options;
use usage::verify_usage;

fn line(a: &[&str]) -> Vec<String> {
    a.iter().map(|s| s.to_string()).collect()
}

/// [`super::parse`] with the usage error's message, the words these tests state.
fn parse(
    program: Program,
    args: &[String],
    env: impl Fn(&str) -> Option<String>,
) -> Result<Invocation, String> {
    super::parse(program, args, env).map_err(|e| e.message)
}

/// [`VerifyArgs::parse`] with the usage error's message.
fn parse_verify(args: &[String]) -> Result<VerifyArgs, String> {
    VerifyArgs::parse(args).map_err(|e| e.message)
}

#[test]
fn a_token_from_the_flag_or_the_environment_never_repeated() {
    let secret = "s3cret.tok";
    let env = |v: &'static str| move |n: &str| (n == TOKEN_ENV).then(|| v.to_owned());
    let bearer = |t: &str| vec![("authorization".to_owned(), format!("Bearer {t}"))];
    let p = |a: &[&str], e: &dyn Fn(&str) -> Option<String>| {
        VerifyArgs::parse_with_env(&line(a), &|n: &str| e(n))
    };
    // --header authorization wins over the variable; an empty variable is no token.
    let a = p(
        &["https://h/mcp", "-H", "Authorization: Bearer h"],
        &env(secret),
    )
    .unwrap();
    assert_eq!(a.headers, bearer("h"));
    assert!(p(&["https://h/mcp"], &env("")).unwrap().headers.is_empty());
    // A well-known run sends it too (to the index's origin: the transport's rule).
    let a = p(&["--well-known", "https://h"], &env(secret)).unwrap();
    assert_eq!(a.headers, bearer(secret));
    for (args, env_value, why) in [
        (
            vec!["https://h/mcp", "--token", "a", "--token", "b"],
            "",
            "--token is given twice",
        ),
        (
            vec!["https://h/mcp", "--token"],
            "",
            "--token needs a value",
        ),
        (
            vec!["https://h/mcp", "--token", "s3cret tok"],
            "",
            "--token: not a bearer token (not shown)",
        ),
        (
            vec!["https://h/mcp"],
            "Bearer s3cret",
            "SKILLS_EDGE_TOKEN: not a bearer token (not shown)",
        ),
        (
            vec!["https://h/mcp", "--token", secret, "-H", "authorization: x"],
            "",
            "use one of them",
        ),
    ] {
        let e = p(&args, &env(env_value)).unwrap_err();
        assert!(e.contains(why), "{e}");
        assert!(!e.contains("s3cret"), "{e}");
    }
}

#[test]
fn a_header_without_a_name_is_refused_without_repeating_it() {
    let args = |v: &str| ["https://h/mcp", "--header", v].map(String::from).to_vec();
    let err = parse_verify(&args("Bearer s3cret")).unwrap_err();
    assert!(err.contains("use 'Name: value'"), "{err}");
    assert!(!err.contains("s3cret"), "{err}");
    let ok = parse_verify(&args("Authorization: Bearer s3cret")).unwrap();
    assert_eq!(
        ok.headers,
        [("authorization".to_owned(), "Bearer s3cret".to_owned())]
    );
}

#[test]
fn check_pack_and_verify_read_alike_in_both_programs() {
    let env = |v: &str| (v == options::STRICT).then(|| "1".to_owned());
    for args in [
        &["check", "d"][..],
        &["check", "d", "--skip-invalid"],
        &["check"],
        &["check", "a", "b"],
        &["pack", "d", "-o", "f", "--instructions", "hi"],
        &["pack", "d", "--check"],
        &["pack", "d", "-o", "f", "--check"],
        &["pack", "d", "--nope"],
        &["verify", "http://h/mcp", "--timeout", "0"],
        &["verify", "http://h/mcp", "--json"],
        &["frobnicate"],
        &[],
    ] {
        let native = parse(Program::Native, &line(args), env);
        let npm = parse(Program::Npm, &line(args), env);
        assert_eq!(format!("{native:?}"), format!("{npm:?}"), "{args:?}");
    }
}

#[test]
fn each_program_has_its_own_subcommand_and_pack_assets_are_native() {
    let none = |_: &str| None;
    let assets = line(&["pack", "d", "-o", "f", "--assets", "a"]);
    assert!(matches!(
        parse(Program::Native, &assets, none),
        Ok(Invocation::Pack(PackArgs {
            assets: Some(_),
            ..
        }))
    ));
    assert_eq!(
        parse(Program::Npm, &assets, none).unwrap_err(),
        "unknown option \"--assets\""
    );
    assert_eq!(
        parse(Program::Npm, &line(&["stdio"]), none).unwrap_err(),
        "unknown command \"stdio\""
    );
    assert_eq!(
        parse(Program::Native, &line(&["worker"]), none).unwrap_err(),
        "unknown command \"worker\""
    );
    assert!(matches!(
        parse(Program::Native, &line(&["stdio"]), none),
        Ok(Invocation::Stdio(_))
    ));
}

#[test]
fn stdio_flags_follow_the_settings_table() {
    let none = |_: &str| None;
    let stdio = |a: &[&str]| {
        let mut all = vec!["stdio"];
        all.extend_from_slice(a);
        match parse(Program::Native, &line(&all), none) {
            Ok(Invocation::Stdio(c)) => Ok(c),
            Ok(other) => panic!("{other:?}"),
            Err(e) => Err(e),
        }
    };
    assert_eq!(stdio(&["--page-size", "7"]).unwrap().page_size, 7);
    let unknown = stdio(&["--page_size", "7"]).unwrap_err();
    assert!(
        unknown.starts_with(
            "option --page_size is invalid (not a setting): use one of --page-size, --ttl-ms,"
        ),
        "{unknown}"
    );
    let twice = stdio(&["--ttl-ms", "1", "--ttl-ms", "2"]).unwrap_err();
    assert_eq!(
        twice,
        "option --ttl-ms = \"2\" is invalid (given twice): give it once"
    );
    assert_eq!(stdio(&["--ttl-ms"]).unwrap_err(), "--ttl-ms needs a value");
    assert!(stdio(&["--page-size", "0"])
        .unwrap_err()
        .contains("--page-size"));
}

#[test]
fn worker_arguments() {
    let none = |_: &str| None;
    let w = |a: &[&str]| {
        let mut all = vec!["worker"];
        all.extend_from_slice(a);
        match parse(Program::Npm, &line(&all), none) {
            Ok(Invocation::Worker(w)) => Ok(w),
            Ok(other) => panic!("{other:?}"),
            Err(e) => Err(e),
        }
    };
    let ok = w(&[
        "d",
        "--out",
        "o",
        "--allowed-hosts",
        " a.example.com,\u{feff}b.example.com ,,",
        "--inline-max",
        "0",
        "--force",
    ])
    .unwrap();
    assert_eq!(ok.hosts, ["a.example.com", "b.example.com"]);
    assert_eq!(
        (ok.inline_max, ok.force, ok.unsigned, ok.name.as_str()),
        (0, true, false, "skills-edge")
    );
    assert!(w(&["d", "--out", "o", "--unsigned"]).unwrap().unsigned);
    assert!(w(&["d", "--out", "o", "--unsigned", "--sign", "k"])
        .unwrap_err()
        .starts_with("--unsigned and a signing key (--sign or SKILLS_SIGNING_KEY) contradict"));
    assert_eq!(
        w(&["d"]).unwrap_err(),
        "worker needs --out <dir> (the folder to write the Worker project into)"
    );
    assert_eq!(
        w(&["d", "--name"]).unwrap_err(),
        "--name needs a Worker name"
    );
    assert_eq!(w(&["d", "-o"]).unwrap_err(), "-o needs a folder");
    for bad in ["-a", "a-", "A", "", &"a".repeat(64)] {
        let e = w(&["d", "--out", "o", "--name", bad]).unwrap_err();
        assert!(e.contains("is not a Worker name"), "{bad:?}: {e}");
    }
    assert!(w(&["d", "--out", "o", "--name", &"a".repeat(63)]).is_ok());
    let e = w(&["d", "--out", "o", "--allowed-hosts", "a\"b"]).unwrap_err();
    assert!(
        e.starts_with("--allowed-hosts: \"a\\\"b\" is not a host name"),
        "{e}"
    );
}

#[test]
fn worker_vars_and_routes_for_the_settings_users_edit_by_hand() {
    let none = |_: &str| None;
    let w = |a: &[&str]| {
        let mut all = vec!["worker", "d", "--out", "o"];
        all.extend_from_slice(a);
        match parse(Program::Npm, &line(&all), none) {
            Ok(Invocation::Worker(w)) => Ok(w),
            Ok(other) => panic!("{other:?}"),
            Err(e) => Err(e),
        }
    };
    let ok = w(&[
        "--var",
        "FALLBACK=tools",
        "--var",
        "AUTH_MODE=jwt",
        "--var",
        "FALLBACK=tools,prompts",
        "--var",
        "API_NOTE=a = b",
        "--route",
        "skills.example.com",
        "--route",
        "example.com/skills/*@example.com",
        "--route",
        "skills.example.com",
    ])
    .unwrap();
    // The last value of a var wins; a name that is not a setting is another binding's.
    assert_eq!(
        ok.vars,
        [
            ("AUTH_MODE".to_owned(), "jwt".to_owned()),
            ("FALLBACK".to_owned(), "tools,prompts".to_owned()),
            ("API_NOTE".to_owned(), "a = b".to_owned()),
        ]
    );
    assert_eq!(
        ok.routes,
        [
            Route {
                pattern: "skills.example.com".into(),
                zone: None
            },
            Route {
                pattern: "example.com/skills/*".into(),
                zone: Some("example.com".into())
            },
        ]
    );
    assert_eq!(ok.routes[1].host(), "example.com");
    // A misspelt setting is refused naming the right one, as the Worker would.
    let e = w(&["--var", "FALL_BACK=tools"]).unwrap_err();
    assert!(e.starts_with("--var: ") && e.contains("FALLBACK"), "{e}");
    for bad in ["FALLBACK", "=x", "1A=x", "A-B=x"] {
        assert!(w(&["--var", bad]).is_err(), "{bad}");
    }
    let e = w(&["--route", "example.com/*"]).unwrap_err();
    assert!(e.contains("without its zone"), "{e}");
    for bad in ["", "a\"b", "a b", "x@", "@z", "a@b@c"] {
        assert!(w(&["--route", bad]).is_err(), "{bad:?}");
    }
}

#[test]
fn trust_is_repeatable_and_pins_given_once() {
    let a = parse_verify(&line(&[
        "https://h/mcp",
        "--trust",
        "a.pub",
        "--trust",
        "b.pub",
        "--pins",
        "pins.json",
    ]))
    .unwrap();
    assert_eq!(
        (a.trust.as_slice(), a.pins.as_deref()),
        (
            &["a.pub".to_owned(), "b.pub".to_owned()][..],
            Some("pins.json")
        )
    );
    let plain = parse_verify(&line(&["https://h/mcp"])).unwrap();
    assert!(plain.trust.is_empty() && plain.pins.is_none());
    // The scheme is case-insensitive (RFC 3986 §3.1), as docs/host-rules.md says.
    let upper = parse_verify(&line(&["HTTPS://h/mcp"])).unwrap();
    assert_eq!(upper.url, "https://h/mcp");
    let mixed = parse_verify(&line(&["--well-known", "Http://h"])).unwrap();
    assert!(mixed.url.starts_with("http://h/"), "{}", mixed.url);
    assert!(parse_verify(&line(&["FTP://h/mcp"]))
        .unwrap_err()
        .contains("must start with http:// or https://"));
    // A well-known source takes them too.
    let wk = parse_verify(&line(&["--well-known", "https://h", "--trust", "k"])).unwrap();
    assert!(wk.well_known && wk.trust == ["k"]);
    for (bad, why) in [
        (&["https://h/mcp", "--trust"][..], "--trust needs a value"),
        (&["https://h/mcp", "--pins"], "--pins needs a value"),
        (
            &["https://h/mcp", "--pins", "a", "--pins", "b"],
            "--pins is given twice",
        ),
    ] {
        assert_eq!(parse_verify(&line(bad)).unwrap_err(), why);
    }
    assert!(verify_usage().contains("[--trust KEYFILE]... [--pins FILE]"));
}

#[test]
fn sign_and_catalog_id_for_check_pack_and_worker_over_the_environment() {
    let env = |v: &str| match v {
        options::SIGNING_KEY => Some("env.key".to_owned()),
        options::CATALOG_ID => Some("env-id".to_owned()),
        _ => None,
    };
    let none = |_: &str| None;
    let signing =
        |p: Program, a: &[&str], e: &dyn Fn(&str) -> Option<String>| match parse(p, &line(a), e)? {
            Invocation::Check(a) | Invocation::Pack(a) => Ok(a.signing),
            Invocation::Worker(w) => Ok(w.signing),
            other => panic!("{other:?}"),
        };
    let pair =
        |s: Option<options::Signing>| s.map(|s| (s.key_file, s.catalog_id.map(|c| c.to_string())));
    for (p, head) in [
        (Program::Native, &["check", "d"][..]),
        (Program::Npm, &["check", "d"]),
        (Program::Native, &["pack", "d", "-o", "f"]),
        (Program::Npm, &["pack", "d", "--check"]),
        (Program::Npm, &["worker", "d", "--out", "o"]),
    ] {
        let with = |extra: &[&str], e: &dyn Fn(&str) -> Option<String>| {
            let mut a = head.to_vec();
            a.extend_from_slice(extra);
            signing(p, &a, e).map(pair)
        };
        assert_eq!(with(&[], &none), Ok(None), "{head:?}");
        assert_eq!(
            with(&[], &env),
            Ok(Some(("env.key".into(), Some("env-id".into()))))
        );
        assert_eq!(
            with(&["--sign", "k", "--catalog-id", "acme"], &env),
            Ok(Some(("k".into(), Some("acme".into()))))
        );
        assert_eq!(with(&["--sign", "k"], &none), Ok(Some(("k".into(), None))));
        assert_eq!(
            with(&["--sign", "a", "--sign", "b"], &none),
            Err("--sign is given twice".into())
        );
        assert_eq!(
            with(&["--sign"], &none),
            Err("--sign needs the path of a signing key file".into())
        );
        assert_eq!(
            with(&["--sign", "k", "--catalog-id"], &none),
            Err("--catalog-id needs a catalog identity".into())
        );
        let e: String = with(&["--catalog-id", "acme"], &none).unwrap_err();
        assert!(
            e.starts_with("--catalog-id is given but no signing key"),
            "{e}"
        );
        let e: String = with(&["--sign", "k", "--catalog-id", "a b"], &none).unwrap_err();
        assert!(e.contains("is not a catalog identity"), "{e}");
    }
}

#[test]
fn keygen_takes_one_folder() {
    for p in [Program::Native, Program::Npm] {
        let k = |a: &[&str]| match parse(p, &line(a), |_: &str| None) {
            Ok(Invocation::Keygen(k)) => Ok(k.out),
            Ok(other) => panic!("{other:?}"),
            Err(e) => Err(e),
        };
        assert_eq!(k(&["keygen", "--out", "keys"]), Ok("keys".into()));
        assert_eq!(k(&["keygen", "-o", "keys/"]), Ok("keys/".into()));
        let needs =
            "keygen needs --out <dir> (the folder to write signing.key and signing.pub into)";
        assert_eq!(k(&["keygen"]), Err(needs.into()));
        assert_eq!(k(&["keygen", "--out", ""]), Err(needs.into()));
        assert_eq!(k(&["keygen", "--out"]), Err("--out needs a folder".into()));
        assert_eq!(
            k(&["keygen", "--out", "a", "--out", "b"]),
            Err("--out is given twice".into())
        );
        assert_eq!(
            k(&["keygen", "keys"]),
            Err("keygen takes only --out <dir> and --oms, not \"keys\"".into())
        );
        let oms = parse(p, &line(&["keygen", "--oms", "--out", "k"]), |_: &str| None);
        assert!(matches!(
            oms,
            Ok(Invocation::Keygen(KeygenArgs { oms: true, .. }))
        ));
        assert_eq!(
            k(&["keygen", "--force"]),
            Err("unknown option \"--force\"".into())
        );
    }
}

#[test]
fn every_subcommand_answers_help_with_its_own_usage() {
    let none = |_: &str| None;
    for (program, commands) in [
        (
            Program::Native,
            &["stdio", "check", "pack", "keygen", "verify"][..],
        ),
        (
            Program::Npm,
            &["pack", "check", "worker", "keygen", "verify"],
        ),
    ] {
        let whole = usage(program);
        for command in commands {
            let own = command_usage(program, command).unwrap();
            // Each part is the whole usage's, word for word.
            let body = own.strip_prefix("USAGE:\n").unwrap();
            let first = body.lines().next().unwrap();
            assert!(whole.contains(first), "{command}: {first}");
            assert!(first.contains(&format!("skills-edge {command}")), "{first}");
            for help in ["--help", "-h"] {
                for line in [
                    vec![*command, help],
                    vec![*command, "x", help],
                    vec![*command, help, "--nope"],
                ] {
                    match parse(program, &line_of(&line), none) {
                        Ok(Invocation::Help(text)) => assert_eq!(text, own, "{line:?}"),
                        other => panic!("{line:?}: {other:?}"),
                    }
                }
            }
        }
        // A value that happens to be `-h` stays a value.
        assert!(matches!(
            parse(program, &line_of(&["keygen", "--out", "-h"]), none),
            Ok(Invocation::Keygen(k)) if k.out == "-h"
        ));
        assert!(matches!(
            parse(program, &line_of(&["--help"]), none),
            Ok(Invocation::Help(text)) if text == whole
        ));
        // Another program's subcommand has no usage here.
        let other = if program == Program::Native {
            "worker"
        } else {
            "stdio"
        };
        assert!(command_usage(program, other).is_none());
        assert!(parse(program, &line_of(&[other, "--help"]), none).is_err());
    }
    assert!(verify_usage().contains("[--allow-dynamic]"));
}

fn line_of(a: &[&str]) -> Vec<String> {
    line(a)
}

#[test]
fn the_timeout_bounds_are_the_usage_texts() {
    assert!(verify_usage().contains(&format!("default {DEFAULT_TIMEOUT_MS})")));
    let e = parse_verify(&line(&["http://h/mcp", "--timeout", "3600001"])).unwrap_err();
    assert!(e.ends_with(&format!("from 1 to {MAX_TIMEOUT_MS}")), "{e}");
}

#[test]
fn the_token_variable_and_flag_become_an_authorization_header() {
    let env = |n: &str| (n == "SKILLS_EDGE_TOKEN").then(|| "from-env".to_owned());
    let a = VerifyArgs::parse_with_env(&["https://h/mcp".into()], &env).unwrap();
    assert_eq!(
        a.headers,
        [("authorization".to_owned(), "Bearer from-env".to_owned())]
    );
    let a = VerifyArgs::parse_with_env(
        &["https://h/mcp".into(), "--token".into(), "t".into()],
        &env,
    )
    .unwrap();
    assert_eq!(
        a.headers,
        [("authorization".to_owned(), "Bearer t".to_owned())]
    );
}
