//! The `verify` report against servers that try to fool it: an entry listed with a manifest
//! that turns `"dynamic"` on `skills/get` (a downgrade), a catalog of dynamic skills only, a refresh to a new entry in the middle of a skill's check, an entry that
//! changes on every refresh, a skill the server stops serving during its check, text with
//! terminal escape sequences in every place a server
//! controls, and a directory walk that repeats its directories. Each test is named after what
//! the server did; the server is a scripted [`Rpc`] (no transport), so every answer is exact.

use std::cell::{Cell, RefCell};
use std::future::{ready, Future};

use serde_json::{json, Value as Json};
use skills_edge::client::http::{HttpIo, HttpRequest, HttpResponse, ResponseBody};
use skills_edge::client::{block_on, ClientError, ExchangeKind, Rpc, ServerFacts, SkillsClient};
use skills_edge::command::args::VerifyArgs;
use skills_edge::command::report::{
    self, escape_for_terminal, FileStatus, Report, SkillStatus, MAX_DIRECTORIES, MAX_ENTRY_RESTARTS,
};
use skills_edge::host::ErrorCode;
use skills_edge::protocol::Era;
use skills_edge::skill::digest::digest_of;

type Answer = Box<dyn Fn(&str, &Json) -> Result<Json, ClientError>>;

/// A server scripted by one function from (method, params) to the result; every request is
/// logged.
struct Scripted {
    answer: Answer,
    log: RefCell<Vec<(String, Json)>>,
}

impl Scripted {
    fn new(answer: impl Fn(&str, &Json) -> Result<Json, ClientError> + 'static) -> Scripted {
        Scripted {
            answer: Box::new(answer),
            log: RefCell::new(Vec::new()),
        }
    }

    fn reads_of(&self, uri: &str) -> usize {
        self.log
            .borrow()
            .iter()
            .filter(|(m, p)| m == "resources/read" && p["uri"] == uri)
            .count()
    }

    fn count(&self, method: &str) -> usize {
        self.log
            .borrow()
            .iter()
            .filter(|(m, _)| m == method)
            .count()
    }
}

impl Rpc for Scripted {
    fn call(
        &self,
        method: &str,
        params: Json,
    ) -> impl Future<Output = Result<String, ClientError>> {
        let out = (self.answer)(method, &params);
        self.log.borrow_mut().push((method.to_owned(), params));
        ready(out.map(|r| r.to_string()))
    }
    fn now_ms(&self) -> f64 {
        1000.0
    }
}

const ROOT: &str = "skill://acme/demo";
const SKILL_MD: &str = "skill://acme/demo/SKILL.md";

fn skill_md(body: &str) -> String {
    format!("---\nname: demo\ndescription: A demo skill.\n---\n{body}\n")
}

fn frontmatter() -> Json {
    json!({ "name": "demo", "description": "A demo skill." })
}

/// An entry listing the `SKILL.md` (with `body`) and the other files, `(path, text)`.
fn entry(body: &str, files: &[(&str, &str)]) -> Json {
    let md = skill_md(body);
    let mut resources = vec![json!({
        "uri": SKILL_MD, "size": md.len(), "digest": digest_of(md.as_bytes())
    })];
    for (path, text) in files {
        resources.push(json!({
            "uri": format!("{ROOT}/{path}"), "size": text.len(), "digest": digest_of(text.as_bytes())
        }));
    }
    json!({ "uri": SKILL_MD, "frontmatter": frontmatter(), "resources": resources })
}

fn dynamic_entry() -> Json {
    json!({ "uri": SKILL_MD, "frontmatter": frontmatter(), "resources": "dynamic" })
}

fn read_result(uri: &str, text: &str) -> Json {
    json!({ "contents": [{ "uri": uri, "mimeType": "text/markdown", "text": text }] })
}

fn listing(entries: Vec<Json>, ttl_ms: Option<u64>) -> Json {
    match ttl_ms {
        Some(t) => json!({ "skills": entries, "ttlMs": t }),
        None => json!({ "skills": entries }),
    }
}

fn unknown(what: &str) -> ClientError {
    ClientError::exchange(ExchangeKind::ServerError, format!("no such {what}"))
        .with_values("", "-32602")
}

fn facts(server_info: Json, directory_read: bool) -> ServerFacts {
    let result = json!({
        "protocolVersion": "2025-11-25",
        "serverInfo": server_info,
        "capabilities": { "extensions": { "io.modelcontextprotocol/skills": {
            "directoryRead": directory_read
        } } },
    });
    ServerFacts::from_result(Era::Legacy, "2025-11-25", &result)
}

fn run(server: &Scripted, directory_read: bool) -> Report {
    let client = report::command_client(&args(false), Default::default()).unwrap();
    client
        .set_facts(facts(
            json!({ "name": "scripted", "version": "1" }),
            directory_read,
        ))
        .unwrap();
    block_on(report::run(&client, server, None))
}

fn run_with(client: &SkillsClient, server: &Scripted) -> Report {
    block_on(report::run(client, server, None))
}

fn args(json: bool) -> VerifyArgs {
    let mut a = vec!["http://127.0.0.1:1/mcp".to_owned()];
    if json {
        a.push("--json".into());
    }
    VerifyArgs::parse(&a).unwrap()
}

/// [`args`] with `--allow-dynamic`.
fn allowing_dynamic(json: bool) -> VerifyArgs {
    VerifyArgs {
        allow_dynamic: true,
        ..args(json)
    }
}

fn check<'r>(r: &'r Report, uri: &str) -> &'r report::FileCheck {
    r.skills[0]
        .checks
        .iter()
        .find(|c| c.uri == uri)
        .unwrap_or_else(|| panic!("no check of {uri} in {:?}", r.skills[0].checks))
}

#[test]
fn server_downgrades_a_listed_manifest_to_dynamic_on_get_fails_even_with_allow_dynamic() {
    // Listed with a manifest and no ttlMs (stale at once); skills/get says "dynamic"; the
    // SKILL.md served has the listed frontmatter but other bytes. Before, this was `dynamic`
    // with exit status 0: a `verify URL && deploy` step passed.
    let listed = entry("the listed body", &[("notes.md", "notes")]);
    let server = Scripted::new(move |method, params| match method {
        "skills/list" => Ok(listing(vec![listed.clone()], None)),
        "skills/get" => Ok(json!({ "skill": dynamic_entry() })),
        "resources/read" if params["uri"] == SKILL_MD => {
            Ok(read_result(SKILL_MD, &skill_md("other bytes entirely")))
        }
        _ => Err(unknown("method")),
    });
    let r = run(&server, false);
    let s = &r.skills[0];
    assert_eq!(s.status, SkillStatus::Downgraded, "{s:?}");
    let why = s.error.as_ref().expect("a reason");
    assert_eq!(why.verify_code(), Some(ErrorCode::DynamicNotAllowed));
    assert!(why.message.contains("a downgrade"), "{}", why.message);
    assert_eq!(check(&r, SKILL_MD).status, FileStatus::Dynamic);
    assert!(s.checks.iter().all(|c| c.status != FileStatus::Verified));
    // The figures are those of the entry held (dynamic: no files, no revision).
    assert_eq!((s.files, s.bytes, s.revision.as_deref()), (0, 0, None));
    assert_eq!(server.reads_of(&format!("{ROOT}/notes.md")), 0);
    let out = r.render(&args(true));
    assert!(
        !out.stdout.contains(r#""status":"verified""#),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains(r#""status":"downgraded""#),
        "{}",
        out.stdout
    );
    let table = r.render(&args(false));
    assert!(
        !table.stderr.contains("every file verified"),
        "{}",
        table.stderr
    );
    assert!(
        table.stderr.contains("1 downgraded to dynamic"),
        "{}",
        table.stderr
    );
    assert!(table.stdout.contains("downgraded"), "{}", table.stdout);
    // Refused whether or not dynamic skills are accepted.
    assert_eq!(out.exit_code, 1);
    assert_eq!(r.render(&allowing_dynamic(true)).exit_code, 1);
    assert_eq!((r.exit_code(false), r.exit_code(true)), (1, 1));
}

#[test]
fn server_downgrades_a_listed_manifest_to_dynamic_for_a_host_that_declines_dynamic_skills() {
    // SkillsClient.verify() with its default SkillHost (no allowDynamic): the load is refused,
    // and the skill is still reported as what the server did, a downgrade.
    let listed = entry("the listed body", &[("notes.md", "notes")]);
    let server = Scripted::new(move |method, params| match method {
        "skills/list" => Ok(listing(vec![listed.clone()], None)),
        "skills/get" => Ok(json!({ "skill": dynamic_entry() })),
        "resources/read" if params["uri"] == SKILL_MD => {
            Ok(read_result(SKILL_MD, &skill_md("other bytes entirely")))
        }
        _ => Err(unknown("method")),
    });
    let client = SkillsClient::new("server", skills_edge::host::HostOptions::default()).unwrap();
    client
        .set_facts(facts(json!({ "name": "scripted" }), false))
        .unwrap();
    let r = run_with(&client, &server);
    let s = &r.skills[0];
    assert_eq!(s.status, SkillStatus::Downgraded, "{s:?}");
    assert_eq!((r.exit_code(false), r.exit_code(true)), (1, 1));
    assert!(s.checks.iter().all(|c| c.status != FileStatus::Verified));
}

#[test]
fn server_serves_only_dynamic_skills_verify_fails_without_allow_dynamic() {
    let server = Scripted::new(|method, params| match method {
        "skills/list" => Ok(listing(vec![dynamic_entry()], Some(60_000))),
        "resources/read" if params["uri"] == SKILL_MD => {
            Ok(read_result(SKILL_MD, &skill_md("anything")))
        }
        _ => Err(unknown("method")),
    });
    let r = run(&server, true);
    assert_eq!(r.skills[0].status, SkillStatus::Dynamic);
    assert_eq!(check(&r, SKILL_MD).status, FileStatus::Dynamic);
    assert_eq!(r.skills[0].checks.len(), 1);
    // Nothing verified: a failure, unless the user accepts unverifiable skills (before, exit
    // status 0 either way).
    let strict = r.render(&args(false));
    assert_eq!(strict.exit_code, 1, "{}", strict.stderr);
    assert!(
        strict
            .stderr
            .contains("error: 1 skill is dynamic: its files cannot be verified (only the frontmatter was checked); pass --allow-dynamic"),
        "{}",
        strict.stderr
    );
    let allowed = r.render(&allowing_dynamic(false));
    assert_eq!(allowed.exit_code, 0, "{}", allowed.stderr);
    assert!(!allowed.stderr.contains("error:"), "{}", allowed.stderr);
    assert_eq!((r.exit_code(false), r.exit_code(true)), (1, 0));
    // Nothing of a dynamic skill is listed as a directory either (there is no manifest).
    assert_eq!(server.count("resources/directory/read"), 0);
}

#[test]
fn server_refreshes_to_new_entry_mid_read() {
    // Listed: entry A (SKILL.md, a.md). Reading a.md serves other bytes, so the client
    // refreshes and skills/get answers entry B, which lists a.md as served and adds evil.md,
    // served as other bytes of the size B says.
    let a = entry("body", &[("a.md", "a, first")]);
    let b = entry(
        "body",
        &[("a.md", "a, second"), ("evil.md", "the listed evil")],
    );
    let b_revision = skills_edge::host::Entry::parse(&b.to_string())
        .unwrap()
        .revision();
    let server = Scripted::new(move |method, params| {
        let uri = params["uri"].as_str().unwrap_or_default().to_owned();
        match method {
            "skills/list" => Ok(listing(vec![a.clone()], Some(60_000))),
            "skills/get" => Ok(json!({ "skill": b.clone(), "ttlMs": 60_000 })),
            "resources/read" if uri == SKILL_MD => Ok(read_result(&uri, &skill_md("body"))),
            "resources/read" if uri.ends_with("/a.md") => Ok(read_result(&uri, "a, second")),
            "resources/read" if uri.ends_with("/evil.md") => {
                Ok(read_result(&uri, "THE LISTED EVIL"))
            }
            _ => Err(unknown("resource")),
        }
    });
    let r = run(&server, false);
    let s = &r.skills[0];
    let evil = format!("{ROOT}/evil.md");
    assert!(server.reads_of(&evil) > 0, "evil.md was never requested");
    assert_eq!(s.status, SkillStatus::Failed, "{s:?}");
    assert_eq!(check(&r, &evil).status, FileStatus::Failed);
    assert_eq!(
        check(&r, &evil)
            .error
            .as_ref()
            .and_then(ClientError::verify_code),
        Some(ErrorCode::DigestMismatch)
    );
    assert_eq!(
        check(&r, &format!("{ROOT}/a.md")).status,
        FileStatus::Verified
    );
    // The report describes entry B, the one held.
    assert_eq!(s.revision, b_revision);
    assert_eq!(s.files, 3);
    assert!(s.refreshed);
    assert_eq!(r.exit_code(false), 1);
    assert!(!r.summary("x").contains("every file verified"));
}

#[test]
fn server_stops_serving_the_skill_mid_check_nothing_is_verified() {
    // Listed with SKILL.md, a.md and b.md. SKILL.md and a.md verify; b.md is served as other
    // bytes, so the client refreshes, and skills/get says the skill is not served: the client
    // forgets it. Nothing the host holds backs what was read, so nothing stays `verified`.
    let listed = entry("body", &[("a.md", "a"), ("b.md", "b")]);
    let server = Scripted::new(move |method, params| {
        let uri = params["uri"].as_str().unwrap_or_default().to_owned();
        match method {
            "skills/list" => Ok(listing(vec![listed.clone()], Some(60_000))),
            "skills/get" => Err(unknown("skill")),
            "resources/read" if uri == SKILL_MD => Ok(read_result(&uri, &skill_md("body"))),
            "resources/read" if uri.ends_with("/a.md") => Ok(read_result(&uri, "a")),
            "resources/read" if uri.ends_with("/b.md") => Ok(read_result(&uri, "B")),
            _ => Err(unknown("resource")),
        }
    });
    let r = run(&server, false);
    let s = &r.skills[0];
    assert!(
        server.count("skills/get") > 0,
        "the client tried to refresh"
    );
    assert_eq!(s.status, SkillStatus::Failed, "{s:?}");
    assert!(
        s.checks
            .iter()
            .all(|c| !matches!(c.status, FileStatus::Verified | FileStatus::Dynamic)),
        "{:?}",
        s.checks
    );
    assert_eq!(check(&r, SKILL_MD).status, FileStatus::Changed);
    assert_eq!(
        check(&r, SKILL_MD)
            .error
            .as_ref()
            .and_then(ClientError::verify_code),
        Some(ErrorCode::UnknownSkill)
    );
    assert_eq!(r.exit_code(false), 1);
    assert!(!r.summary("x").contains("every file verified"));
}

#[test]
fn server_refreshes_to_new_entry_mid_read_and_serves_it_verifies() {
    // The same refresh to B, but evil.md is served as B lists it: after the restart every file
    // of B is verified, and the report is B's.
    let a = entry("body", &[("a.md", "a, first")]);
    let b = entry("body", &[("a.md", "a, second"), ("new.md", "new")]);
    let server = Scripted::new(move |method, params| {
        let uri = params["uri"].as_str().unwrap_or_default().to_owned();
        match method {
            "skills/list" => Ok(listing(vec![a.clone()], Some(60_000))),
            "skills/get" => Ok(json!({ "skill": b.clone(), "ttlMs": 60_000 })),
            "resources/read" if uri == SKILL_MD => Ok(read_result(&uri, &skill_md("body"))),
            "resources/read" if uri.ends_with("/a.md") => Ok(read_result(&uri, "a, second")),
            "resources/read" if uri.ends_with("/new.md") => Ok(read_result(&uri, "new")),
            _ => Err(unknown("resource")),
        }
    });
    let r = run(&server, false);
    let s = &r.skills[0];
    assert_eq!(s.status, SkillStatus::Verified, "{s:?}");
    assert_eq!(s.checks.len(), 3);
    assert!(s.checks.iter().all(|c| c.status == FileStatus::Verified));
    assert_eq!(server.reads_of(&format!("{ROOT}/new.md")), 1);
    assert_eq!(r.exit_code(false), 0);
}

#[test]
fn server_changes_entry_on_every_refresh_is_changed() {
    // Each skills/get answers a new entry, and a.md is always served as the next one: every
    // check ends on another entry than it started on.
    let version = std::rc::Rc::new(Cell::new(1u32));
    let v = version.clone();
    let text = |k: u32| format!("a, version {k}");
    let server = Scripted::new(move |method, params| {
        let uri = params["uri"].as_str().unwrap_or_default().to_owned();
        match method {
            "skills/list" => Ok(listing(
                vec![entry("body", &[("a.md", &text(0))])],
                Some(60_000),
            )),
            "skills/get" => {
                let k = v.get();
                v.set(k + 1);
                Ok(json!({ "skill": entry("body", &[("a.md", &text(k))]), "ttlMs": 60_000 }))
            }
            "resources/read" if uri == SKILL_MD => Ok(read_result(&uri, &skill_md("body"))),
            "resources/read" => Ok(read_result(&uri, &text(v.get()))),
            _ => Err(unknown("method")),
        }
    });
    let r = run(&server, false);
    let s = &r.skills[0];
    assert_eq!(s.status, SkillStatus::Changed, "{s:?}");
    assert!(s
        .checks
        .iter()
        .all(|c| c.status != FileStatus::Verified || c.uri == SKILL_MD));
    // One check per attempt, each refreshing once: the bound holds.
    assert_eq!(server.count("skills/get"), MAX_ENTRY_RESTARTS + 1);
    assert_eq!(r.exit_code(false), 1);
    let out = r.render(&args(false));
    assert!(out.stdout.contains("changed"), "{}", out.stdout);
    assert!(out.stderr.contains("1 changed"), "{}", out.stderr);
    assert!(r.json_lines().contains(r#""status":"changed""#));
}

/// Every character a terminal may act on: C0 (tab and newline included), DEL, C1, the bidi
/// controls.
fn is_dangerous(c: char) -> bool {
    matches!(c, '\0'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{202a}'..='\u{202e}'
        | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{61c}')
}

const HOSTILE: &str = "\u{1b}]0;owned\u{7}\u{1b}[2J\u{9b}31m\u{202e}desrever\u{2066}\t\n\r\u{7f}";

#[test]
fn server_name_with_escape_sequences_is_escaped() {
    // The server's name and version, a JSON-RPC error message on a read and on skills/get
    // (`--skill`), all carry escape sequences.
    let server = Scripted::new(|method, params| {
        let uri = params["uri"].as_str().unwrap_or_default().to_owned();
        match method {
            "skills/list" => Ok(listing(vec![entry("body", &[("a.md", "a")])], Some(60_000))),
            "resources/read" if uri == SKILL_MD => Ok(read_result(&uri, &skill_md("body"))),
            _ => Err(ClientError::exchange(
                ExchangeKind::ServerError,
                format!("refused {HOSTILE}"),
            )
            .with_values("", "-32603")),
        }
    });
    let client = report::command_client(&args(false), Default::default()).unwrap();
    let info = json!({ "name": format!("evil{HOSTILE}"), "version": HOSTILE });
    client.set_facts(facts(info, false)).unwrap();
    let r = run_with(&client, &server);
    assert_eq!(r.skills[0].status, SkillStatus::Failed);
    let out = r.render(&args(false));
    for text in [&out.stdout, &out.stderr] {
        // Only the newlines that end lines remain.
        let clean: String = text.lines().collect();
        assert!(!clean.chars().any(is_dangerous), "{clean:?}");
    }
    assert!(out
        .stderr
        .contains(r"evil\u{1b}]0;owned\u{7}\u{1b}[2J\u{9b}31m\u{202e}"));
    assert!(
        out.stdout.contains(r"refused \u{1b}]0;owned"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains(r"\u{9}\u{a}\u{d}\u{7f}"),
        "{}",
        out.stdout
    );
    assert_eq!(
        out.stdout.lines().count(),
        2,
        "one row per skill: {}",
        out.stdout
    );
    // JSON stays JSON: the reason is there, C0 escaped the JSON way.
    let json = r.render(&args(true));
    let line: Json = serde_json::from_str(json.stdout.trim_end()).unwrap();
    assert!(line["why"].as_str().unwrap().contains(HOSTILE));
}

#[test]
fn server_error_with_escape_sequences_stops_the_run_escaped() {
    // The listing itself is refused with a message that would clear the screen: the fatal
    // line is escaped.
    let server = Scripted::new(|_, _| {
        Err(ClientError::exchange(
            ExchangeKind::ProtocolError,
            format!("bad reply: {HOSTILE}"),
        ))
    });
    let r = run(&server, false);
    let out = r.render(&args(false));
    assert_eq!(out.exit_code, 2);
    let line = out.stderr.strip_suffix('\n').unwrap();
    assert!(!line.chars().any(is_dangerous), "{line:?}");
    assert!(
        line.starts_with(r"error: bad reply: \u{1b}]0;owned"),
        "{line}"
    );
}

#[test]
fn escape_for_terminal_makes_every_control_visible() {
    assert_eq!(
        escape_for_terminal("plain text, é, 漢字"),
        "plain text, é, 漢字"
    );
    assert!(matches!(
        escape_for_terminal("plain"),
        std::borrow::Cow::Borrowed(_)
    ));
    let all: String = ('\0'..='\u{9f}')
        .chain([
            '\u{202a}', '\u{202e}', '\u{2066}', '\u{2069}', '\u{200e}', '\u{200f}',
        ])
        .chain(['\u{61c}', '\u{2028}', '\u{2029}'])
        .collect();
    let out = escape_for_terminal(&all);
    assert!(!out.chars().any(is_dangerous), "{out}");
    assert!(out.starts_with(r"\u{0}\u{1}"));
    assert!(out.contains(r"\u{1b}"));
    assert!(out.contains(r" !"));
    assert!(out.contains(r"~\u{7f}\u{80}"));
    assert!(out.ends_with(r"\u{61c}\u{2028}\u{2029}"));
}

#[test]
fn server_repeats_directories_in_every_reply_each_is_listed_once() {
    // Every reply lists the same subdirectories again (with and without a trailing slash),
    // and one file the entry does not list: each directory is listed once, the walk ends,
    // and the unlisted file is reported once per directory it appears in, never read.
    let server = Scripted::new(|method, params| {
        let uri = params["uri"].as_str().unwrap_or_default().to_owned();
        match method {
            "skills/list" => Ok(listing(vec![entry("body", &[])], Some(60_000))),
            "resources/read" if uri == SKILL_MD => Ok(read_result(&uri, &skill_md("body"))),
            "resources/directory/read" => {
                let mut items: Vec<Json> = (0..40)
                    .flat_map(|i| {
                        [
                            json!({ "uri": format!("{ROOT}/d{i}"), "mimeType": "inode/directory" }),
                            json!({ "uri": format!("{ROOT}/d{i}/"), "mimeType": "inode/directory" }),
                        ]
                    })
                    .collect();
                if uri == ROOT {
                    items.push(json!({ "uri": format!("{ROOT}/extra.md"), "size": 3 }));
                }
                Ok(json!({ "resources": items }))
            }
            _ => Err(unknown("method")),
        }
    });
    let r = run(&server, true);
    // The root and the 40 directories.
    assert_eq!(server.count("resources/directory/read"), 41);
    let listed: std::collections::HashSet<String> = server
        .log
        .borrow()
        .iter()
        .filter(|(m, _)| m == "resources/directory/read")
        .map(|(_, p)| p["uri"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(listed.len(), 41);
    let s = &r.skills[0];
    assert_eq!(s.status, SkillStatus::Failed);
    assert_eq!(
        check(&r, &format!("{ROOT}/extra.md")).status,
        FileStatus::Unlisted
    );
    assert_eq!(server.reads_of(&format!("{ROOT}/extra.md")), 0);
    const { assert!(MAX_DIRECTORIES > 41) };
}

#[test]
fn server_with_more_directories_than_the_bound_is_listed_up_to_it() {
    // Every directory has two new subdirectories: the walk stops at MAX_DIRECTORIES.
    let server = Scripted::new(|method, params| {
        let uri = params["uri"].as_str().unwrap_or_default().to_owned();
        match method {
            "skills/list" => Ok(listing(vec![entry("body", &[])], Some(60_000))),
            "resources/read" if uri == SKILL_MD => Ok(read_result(&uri, &skill_md("body"))),
            "resources/directory/read" => Ok(json!({ "resources": [
                { "uri": format!("{uri}/x"), "mimeType": "inode/directory" },
                { "uri": format!("{uri}/y"), "mimeType": "inode/directory" },
            ] })),
            _ => Err(unknown("method")),
        }
    });
    let r = run(&server, true);
    assert_eq!(server.count("resources/directory/read"), MAX_DIRECTORIES);
    assert_eq!(r.skills[0].status, SkillStatus::Verified);
}

/// A server that answers every POST with a JSON content type and a body that is not JSON.
struct NotJson;

struct Once(Option<Vec<u8>>);

impl ResponseBody for Once {
    fn next_chunk(&mut self) -> impl Future<Output = Result<Option<Vec<u8>>, ClientError>> {
        ready(Ok(self.0.take()))
    }
}

impl HttpIo for NotJson {
    type Body = Once;
    fn post(
        &self,
        _: HttpRequest,
    ) -> impl Future<Output = Result<HttpResponse<Once>, ClientError>> {
        ready(Ok(HttpResponse {
            status: 200,
            content_type: Some("application/json".into()),
            session_id: None,
            www_authenticate: None,
            body: Once(Some(format!("<html>{HOSTILE}</html>").into_bytes())),
        }))
    }
    fn now_ms(&self) -> f64 {
        0.0
    }
}

#[test]
fn server_replies_not_json_with_escape_sequences_the_excerpt_is_escaped() {
    // The whole command, as the native and npm commands run it: the excerpt of the reply in
    // the error line is escaped.
    let a = VerifyArgs::parse(&[
        "http://127.0.0.1:1/mcp".to_owned(),
        "--era".into(),
        "2026-07-28".into(),
    ])
    .unwrap();
    let out = block_on(skills_edge::command::verify::verify_command(
        &a,
        &Default::default(),
        &NotJson,
    ));
    assert_eq!(out.exit_code, 2);
    assert_eq!(out.stdout, "");
    let line = out.stderr.strip_suffix('\n').unwrap();
    assert!(!line.chars().any(is_dangerous), "{line:?}");
    assert!(
        line.contains(r"<html>\u{1b}]0;owned\u{7}\u{1b}[2J"),
        "{line}"
    );
    assert!(line.ends_with("[protocol-error]"), "{line}");
}
