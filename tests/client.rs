//! The skills client (`client`) against the responder over an in-memory Streamable HTTP
//! transport: paging, both eras and the fallback between them, headers, JSON and event-stream
//! replies, caching by `ttlMs` and `cacheScope`, the refresh after a stale entry, tampered
//! content, and the `verify` report with its exit statuses.

use std::cell::{Cell, RefCell};
use std::future::{ready, Future};
use std::sync::Arc;

use serde_json::{json, Value as Json};
use skills_edge::catalog::Catalog;
use skills_edge::catalog::Grant;
use skills_edge::client::http::{HttpIo, HttpRequest, HttpResponse, HttpSession, ResponseBody};
use skills_edge::client::{
    block_on, ClientError, ClientInfo, EraChoice, ExchangeKind, Rpc, SkillsClient,
};
use skills_edge::command::args::VerifyArgs;
use skills_edge::command::report::{self, FileStatus, SkillStatus};
use skills_edge::host::{ErrorCode, HostOptions};
use skills_edge::protocol::{CacheScope, Era};
use skills_edge::server::{Config, HttpHeaders, Responder, Transport};
use skills_edge::skill::digest::digest_of;

type Tamper = Box<dyn Fn(&str, &Json, &mut Json)>;
/// A request as the server saw it: the method and the headers.
type Logged = (String, Vec<(String, String)>);

/// An in-memory server: the responder behind the HTTP rules the client sees.
struct Server {
    responder: Responder,
    /// Answer `server/discover` with 404 (a legacy-only server).
    legacy_only: bool,
    /// Answer with an event stream (a notification event first).
    sse: bool,
    /// Hand out a session id on `initialize` and require it afterwards.
    session: Option<String>,
    /// Rewrites a result: (method, params, result).
    tamper: RefCell<Option<Tamper>>,
    /// Every request: (method, headers).
    log: RefCell<Vec<Logged>>,
    clock: Cell<f64>,
}

struct Body(Option<Vec<u8>>);

impl ResponseBody for Body {
    fn next_chunk(&mut self) -> impl Future<Output = skills_edge::client::Result<Option<Vec<u8>>>> {
        // Hand the body out in two pieces, so readers must join chunks.
        let out = match self.0.take() {
            Some(mut b) if b.len() > 7 => {
                let rest = b.split_off(7);
                self.0 = Some(rest);
                Some(b)
            }
            other => other,
        };
        ready(Ok(out))
    }
}

fn catalog() -> Arc<Catalog> {
    skills_edge::embedded::catalog().unwrap()
}

impl Server {
    fn new(config: Config) -> Server {
        Server {
            responder: Responder::new(catalog(), config).unwrap(),
            legacy_only: false,
            sse: false,
            session: None,
            tamper: RefCell::new(None),
            log: RefCell::new(Vec::new()),
            clock: Cell::new(1000.0),
        }
    }

    fn paged(page_size: usize, ttl_ms: u64, scope: CacheScope) -> Server {
        Server::new(Config {
            page_size,
            ttl_ms,
            cache_scope: scope,
            ..Config::default()
        })
    }

    fn count(&self, method: &str) -> usize {
        self.log
            .borrow()
            .iter()
            .filter(|(m, _)| m == method)
            .count()
    }

    fn reads_of(&self, uri: &str) -> usize {
        self.log
            .borrow()
            .iter()
            .filter(|(m, h)| {
                m == "resources/read" && h.iter().any(|(n, v)| n == "mcp-name" && v == uri)
            })
            .count()
    }

    fn set_tamper(&self, f: impl Fn(&str, &Json, &mut Json) + 'static) {
        *self.tamper.borrow_mut() = Some(Box::new(f));
    }

    fn respond(&self, request: HttpRequest) -> HttpResponse<Body> {
        let header = |n: &str| crate::wellknown::header_of(&request, n);
        let msg: Json = serde_json::from_str(&request.body).unwrap();
        let method = msg["method"].as_str().unwrap_or_default().to_owned();
        self.log
            .borrow_mut()
            .push((method.clone(), request.headers.clone()));
        let json_reply = |status: u16, body: Vec<u8>| HttpResponse {
            status,
            content_type: Some("application/json".into()),
            session_id: None,
            www_authenticate: None,
            body: Body(Some(body)),
        };
        if self.legacy_only && method == "server/discover" {
            return HttpResponse {
                status: 404,
                content_type: Some("text/plain".into()),
                session_id: None,
                www_authenticate: None,
                body: Body(Some(b"not found".to_vec())),
            };
        }
        if let Some(sid) = &self.session
            && method != "initialize"
            && method != "server/discover"
            && header("mcp-session-id") != Some(sid)
        {
            return json_reply(
                400,
                br#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"no session"}}"#.to_vec(),
            );
        }
        let transport = Transport::Http(HttpHeaders {
            protocol_version: header("mcp-protocol-version"),
            method: header("mcp-method"),
            name: header("mcp-name"),
        });
        let reply = self
            .responder
            .respond(request.body.as_bytes(), &transport, Grant::PUBLIC);
        let Some(body) = reply.body else {
            return HttpResponse {
                status: reply.status,
                content_type: None,
                session_id: None,
                www_authenticate: None,
                body: Body(None),
            };
        };
        let mut value: Json = serde_json::from_slice(&body).unwrap();
        if let (Some(t), Some(result)) = (&*self.tamper.borrow(), value.get_mut("result")) {
            t(&method, &msg["params"], result);
        }
        let body = value.to_string().into_bytes();
        let session_id = if method == "initialize" {
            self.session.clone()
        } else {
            None
        };
        if self.sse && reply.status == 200 {
            let mut s = b": hello\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\n\n".to_vec();
            s.extend_from_slice(b"data: ");
            s.extend_from_slice(&body);
            s.extend_from_slice(b"\r\n\r\n: the stream stays open\n");
            return HttpResponse {
                status: 200,
                content_type: Some("text/event-stream; charset=utf-8".into()),
                session_id: session_id.clone(),
                www_authenticate: None,
                body: Body(Some(s)),
            };
        }
        HttpResponse {
            session_id,
            www_authenticate: None,
            ..json_reply(reply.status, body)
        }
    }
}

impl HttpIo for Server {
    type Body = Body;
    fn post(
        &self,
        request: HttpRequest,
    ) -> impl Future<Output = skills_edge::client::Result<HttpResponse<Body>>> {
        ready(Ok(self.respond(request)))
    }
    fn now_ms(&self) -> f64 {
        self.clock.get()
    }
}

fn connect(server: &Server, era: EraChoice) -> (HttpSession, SkillsClient) {
    let session = HttpSession::new(ClientInfo::default());
    let client = SkillsClient::new(
        "docs",
        // Every skill is loaded, the nested one too: its consent is host_rules.rs's subject.
        HostOptions {
            nested_without_approval: true,
            ..HostOptions::default()
        },
    )
    .unwrap();
    let facts = block_on(session.connect(server, era)).unwrap();
    client.set_facts(facts).unwrap();
    (session, client)
}

/// Every file of every skill, through the client: (skill uri, file uri, size).
fn load_everything(
    server: &Server,
    session: &HttpSession,
    client: &SkillsClient,
) -> Vec<(String, String, u64)> {
    let rpc = session.rpc(server);
    let listing = block_on(client.list(&rpc)).unwrap();
    let mut out = Vec::new();
    for s in &listing.skills {
        let loaded = block_on(client.load(&rpc, &s.summary.uri)).unwrap();
        assert!(loaded.skill.skill_md.receipt.verified);
        for item in s.entry.items().unwrap() {
            if item.uri == s.summary.uri {
                continue;
            }
            let r = block_on(client.read(&rpc, &s.summary.uri, &item.uri)).unwrap();
            assert!(r.file.content.receipt.verified);
            assert_eq!(r.file.content.receipt.digest, item.digest);
            out.push((s.summary.uri.clone(), item.uri.clone(), item.size));
        }
    }
    out
}

#[test]
fn both_eras_every_page_every_file() {
    let skills = catalog().skill_count();
    for era in [EraChoice::Auto, EraChoice::Modern, EraChoice::Legacy] {
        for sse in [false, true] {
            let mut server = Server::paged(2, 300_000, CacheScope::Public);
            server.sse = sse;
            let (session, client) = connect(&server, era);
            let facts = session.facts().unwrap();
            assert_eq!(
                facts.era,
                if era == EraChoice::Legacy {
                    Era::Legacy
                } else {
                    Era::Modern
                }
            );
            assert!(facts.declares_skills() && facts.directory_read());
            assert_eq!(
                facts.server_name().as_deref(),
                Some(concat!("skills-edge ", env!("CARGO_PKG_VERSION")))
            );
            let files = load_everything(&server, &session, &client);
            assert!(!files.is_empty());
            assert_eq!(server.count("skills/list"), skills.div_ceil(2), "{era:?}");
            // Modern requests carry the MCP headers; legacy ones the negotiated version only.
            for (method, headers) in server.log.borrow().iter() {
                let h = |n: &str| headers.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
                assert_eq!(
                    h("accept").as_deref(),
                    Some("application/json, text/event-stream")
                );
                match (facts.era, method.as_str()) {
                    (_, "initialize") => assert_eq!(h("mcp-protocol-version"), None),
                    (Era::Modern, m) => {
                        assert_eq!(h("mcp-protocol-version").as_deref(), Some("2026-07-28"));
                        assert_eq!(h("mcp-method").as_deref(), Some(m));
                    }
                    (Era::Legacy, _) => {
                        assert_eq!(h("mcp-protocol-version").as_deref(), Some("2025-11-25"));
                        assert_eq!(h("mcp-method"), None);
                    }
                }
            }
        }
    }
}

#[test]
fn auto_falls_back_to_initialize_and_keeps_the_session() {
    let mut server = Server::paged(50, 300_000, CacheScope::Public);
    server.legacy_only = true;
    server.session = Some("s-123".into());
    let (session, client) = connect(&server, EraChoice::Auto);
    assert_eq!(session.facts().unwrap().era, Era::Legacy);
    assert_eq!(session.facts().unwrap().protocol_version, "2025-11-25");
    let methods: Vec<String> = server.log.borrow().iter().map(|(m, _)| m.clone()).collect();
    assert_eq!(
        methods,
        ["server/discover", "initialize", "notifications/initialized"]
    );
    load_everything(&server, &session, &client);
    // Pinned to 2026-07-28, the same server is refused with the reason.
    let s2 = HttpSession::new(ClientInfo::default());
    let e = block_on(s2.connect(&server, EraChoice::Modern)).unwrap_err();
    assert_eq!(e.code, ExchangeKind::ProtocolError);
    assert!(e.message.contains("HTTP 404"), "{}", e.message);
}

#[test]
fn the_cache_follows_ttl_and_scope() {
    // Cached for five minutes, public: the second round makes no request at all.
    let server = Server::paged(3, 300_000, CacheScope::Public);
    let (session, client) = connect(&server, EraChoice::Modern);
    load_everything(&server, &session, &client);
    let first = server.log.borrow().len();
    assert_eq!(server.count("skills/get"), 0, "listed entries are current");
    load_everything(&server, &session, &client);
    assert_eq!(
        server.log.borrow().len(),
        first,
        "everything came from the cache"
    );
    // Past the TTL, everything is fetched again.
    server.clock.set(1000.0 + 300_001.0);
    load_everything(&server, &session, &client);
    assert_eq!(
        server.log.borrow().len(),
        2 * first - 1,
        "server/discover is not repeated"
    );

    // ttlMs 0: nothing is reused, and an entry is fetched again before each load.
    let server = Server::paged(3, 0, CacheScope::Public);
    let (session, client) = connect(&server, EraChoice::Modern);
    let files = load_everything(&server, &session, &client).len();
    let skills = catalog().skill_count();
    let once = server.log.borrow().len();
    assert_eq!(once, 1 + skills.div_ceil(3) + 2 * skills + files);
    assert_eq!(server.count("skills/get"), skills);
    load_everything(&server, &session, &client);
    assert_eq!(server.log.borrow().len(), 2 * once - 1);

    // Private results are not reused under another authorization context.
    let server = Server::paged(50, 300_000, CacheScope::Private);
    let (session, client) = connect(&server, EraChoice::Modern);
    let rpc = session.rpc(&server);
    block_on(client.list(&rpc)).unwrap();
    block_on(client.list(&rpc)).unwrap();
    assert_eq!(server.count("skills/list"), 1);
    client.set_context("someone else").unwrap();
    block_on(client.list(&rpc)).unwrap();
    assert_eq!(server.count("skills/list"), 2);
}

const CODE_REVIEW: &str = "skill://code-review/SKILL.md";
const CHECKLIST: &str = "skill://code-review/references/checklist.md";

/// Changes the digest of `file` in every entry of code-review (listing and get), `times`
/// times (`usize::MAX`: always).
fn stale_entry(server: &Server, file: &'static str, times: usize) {
    let left = Cell::new(times);
    server.set_tamper(move |method, _, result| {
        let entries: Vec<&mut Json> = match method {
            "skills/list" => result["skills"]
                .as_array_mut()
                .unwrap()
                .iter_mut()
                .collect(),
            "skills/get" => vec![&mut result["skill"]],
            _ => return,
        };
        for e in entries {
            if e["uri"] != CODE_REVIEW || left.get() == 0 {
                continue;
            }
            left.set(left.get().saturating_sub(1));
            for r in e["resources"].as_array_mut().unwrap() {
                if r["uri"] == file {
                    r["digest"] = json!(format!("sha256:{}", "0".repeat(64)));
                }
            }
        }
    });
}

#[test]
fn a_stale_entry_is_refreshed_once() {
    let server = Server::paged(50, 300_000, CacheScope::Public);
    stale_entry(&server, CODE_REVIEW, 1);
    let (session, client) = connect(&server, EraChoice::Modern);
    let rpc = session.rpc(&server);
    block_on(client.list(&rpc)).unwrap();
    client
        .host(|h, l| h.approve(l, CODE_REVIEW).unwrap())
        .unwrap();
    let loaded = block_on(client.load(&rpc, CODE_REVIEW)).unwrap();
    assert!(loaded.refreshed && loaded.approval_revoked);
    assert!(!client.host(|h, l| h.is_approved(l, CODE_REVIEW)).unwrap());
    assert_eq!(
        (server.count("skills/get"), server.reads_of(CODE_REVIEW)),
        (1, 2)
    );

    // A supporting file: the skill is loaded again on the refreshed entry.
    let server = Server::paged(50, 300_000, CacheScope::Public);
    stale_entry(&server, CHECKLIST, 1);
    let (session, client) = connect(&server, EraChoice::Modern);
    let rpc = session.rpc(&server);
    block_on(client.list(&rpc)).unwrap();
    block_on(client.load(&rpc, CODE_REVIEW)).unwrap();
    let r = block_on(client.read(&rpc, CODE_REVIEW, "references/checklist.md")).unwrap();
    assert!(r.refreshed);
    assert_eq!(server.count("skills/get"), 1);
    assert_eq!(server.reads_of(CODE_REVIEW), 2);
    assert_eq!(server.reads_of(CHECKLIST), 2);

    // Still wrong after the refresh: refused, and asked for exactly once more.
    let server = Server::paged(50, 300_000, CacheScope::Public);
    stale_entry(&server, CODE_REVIEW, usize::MAX);
    let (session, client) = connect(&server, EraChoice::Modern);
    let rpc = session.rpc(&server);
    let e = block_on(client.load(&rpc, CODE_REVIEW)).unwrap_err();
    assert_eq!(e.code, ErrorCode::DigestMismatch);
    assert_eq!(
        (server.count("skills/get"), server.reads_of(CODE_REVIEW)),
        (2, 2)
    );
    // Nothing bad was cached: the next load asks again.
    let e = block_on(client.load(&rpc, CODE_REVIEW)).unwrap_err();
    assert_eq!(e.code, ErrorCode::DigestMismatch);
    assert_eq!(server.reads_of(CODE_REVIEW), 4);
}

#[test]
fn unlisted_files_are_never_fetched() {
    let server = Server::paged(50, 300_000, CacheScope::Public);
    let (session, client) = connect(&server, EraChoice::Modern);
    let rpc = session.rpc(&server);
    let e = block_on(client.read(&rpc, CODE_REVIEW, "references/checklist.md")).unwrap_err();
    assert_eq!(e.code, ErrorCode::NoActingWindow);
    block_on(client.load(&rpc, CODE_REVIEW)).unwrap();
    let e = block_on(client.read(&rpc, CODE_REVIEW, "references/secret.md")).unwrap_err();
    assert_eq!(e.code, ErrorCode::NotInManifest);
    let e = block_on(client.read(&rpc, CODE_REVIEW, "../other/SKILL.md")).unwrap_err();
    assert_eq!(e.code, ErrorCode::EscapesRoot);
    assert_eq!(
        server.count("resources/read"),
        1,
        "only the SKILL.md was fetched"
    );
    let d = block_on(client.read_directory(&rpc, "skill://code-review")).unwrap();
    assert!(d
        .children
        .iter()
        .any(|c| c.directory && c.uri == "skill://code-review/references"));
    assert!(d
        .children
        .iter()
        .any(|c| c.uri == CODE_REVIEW && c.listed == Some(true)));
}

fn verify(server: &Server, json: bool) -> report::Output {
    let args = VerifyArgs {
        url: "http://127.0.0.1/mcp".into(),
        era: EraChoice::Auto,
        headers: Vec::new(),
        skill: None,
        json,
        timeout_ms: 1000,
        well_known: false,
        cross_check: false,
        trust: Vec::new(),
        pins: None,
        allow_dynamic: false,
    };
    block_on(skills_edge::command::verify::verify_command(
        &args,
        &Default::default(),
        server,
    ))
}

#[test]
fn verify_reports_every_skill() {
    let server = Server::paged(2, 300_000, CacheScope::Public);
    let out = verify(&server, false);
    assert_eq!(out.exit_code, 0, "{}{}", out.stdout, out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert!(
        lines[0].starts_with("SKILL ") && lines[0].ends_with(" WHY"),
        "{}",
        lines[0]
    );
    assert_eq!(lines.len(), 1 + catalog().skill_count());
    // Unsigned skills: the SIGNER column shows `-`.
    assert!(
        lines[1..].iter().all(|l| l.ends_with("verified  -")),
        "{}",
        out.stdout
    );
    assert!(out.stderr.contains("every file verified"), "{}", out.stderr);
    let json = verify(&server, true);
    for line in json.stdout.lines() {
        let v: Json = serde_json::from_str(line).unwrap();
        assert_eq!(v["status"], "verified");
        assert!(v["checks"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["status"] == "verified"));
    }
}

/// Tampers with four skills of `server`: a flipped byte in the first's `SKILL.md`, a wrong
/// size in the second's entry, a changed description in the third's, an unlisted file in the
/// fourth's directory listing. Returns the URIs of every skill, in catalog order.
fn tamper_four(server: &Server) -> Vec<String> {
    let catalog = catalog();
    let uris: Vec<String> = catalog.skills().map(|s| s.uri.to_owned()).collect();
    let (byte, size, front, extra) = (&uris[0], &uris[1], &uris[2], &uris[3]);
    let root = |u: &str| u.trim_end_matches("/SKILL.md").to_owned();
    let (b2, s2, f2, x2) = (byte.clone(), size.clone(), front.clone(), root(extra));
    server.set_tamper(move |method, params, result| match method {
        "resources/read" if params["uri"] == b2.as_str() => {
            let t = result["contents"][0]["text"].as_str().unwrap().to_owned();
            let mut b = t.into_bytes();
            let last = b.len() - 2;
            b[last] ^= 0x01;
            result["contents"][0]["text"] = json!(String::from_utf8(b).unwrap());
        }
        "skills/list" | "skills/get" => {
            let entries: Vec<&mut Json> = match method {
                "skills/list" => result["skills"].as_array_mut().unwrap().iter_mut().collect(),
                _ => vec![&mut result["skill"]],
            };
            for e in entries {
                if e["uri"] == s2.as_str() {
                    let n = e["resources"][0]["size"].as_u64().unwrap();
                    e["resources"][0]["size"] = json!(n + 1);
                }
                if e["uri"] == f2.as_str() {
                    e["frontmatter"]["description"] = json!("Exfiltrate credentials");
                }
            }
        }
        "resources/directory/read" if params["uri"] == x2.as_str() => {
            result["resources"].as_array_mut().unwrap().push(json!({
                "uri": format!("{x2}/EXTRA.md"), "name": "EXTRA.md", "mimeType": "text/markdown", "size": 3
            }));
        }
        _ => {}
    });
    uris
}

#[test]
fn verify_reports_each_tampering_with_its_code() {
    let server = Server::paged(50, 300_000, CacheScope::Public);
    let uris = tamper_four(&server);
    let root = |u: &str| u.trim_end_matches("/SKILL.md").to_owned();
    let (byte, size, front, extra) = (
        uris[0].clone(),
        uris[1].clone(),
        uris[2].clone(),
        uris[3].clone(),
    );
    let out = verify(&server, true);
    assert_eq!(out.exit_code, 1, "{}", out.stderr);
    let reports: Vec<Json> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let of = |u: &str| reports.iter().find(|r| r["skill"] == u).unwrap().clone();
    let r = of(&byte);
    assert_eq!(
        (r["status"].as_str(), r["code"].as_str()),
        (Some("failed"), Some("digest-mismatch"))
    );
    assert_eq!(r["refreshed"], true);
    assert_eq!(r["checks"][1]["status"], "skipped");
    let r = of(&size);
    assert_eq!(r["code"], "size-mismatch");
    assert_eq!(
        r["checks"][0]["actual"]
            .as_str()
            .unwrap()
            .parse::<u64>()
            .unwrap()
            + 1,
        r["checks"][0]["expected"]
            .as_str()
            .unwrap()
            .parse::<u64>()
            .unwrap()
    );
    let r = of(&front);
    assert_eq!(r["code"], "frontmatter-mismatch");
    assert_eq!(r["checks"][0]["field"], "description");
    assert_eq!(r["checks"][0]["expected"], "\"Exfiltrate credentials\"");
    let r = of(&extra);
    assert_eq!(r["code"], "not-in-manifest");
    let unlisted = r["checks"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(unlisted["status"], "unlisted");
    assert_eq!(unlisted["uri"], format!("{}/EXTRA.md", root(&extra)));
    for other in &uris[4..] {
        assert_eq!(of(other)["status"], "verified");
    }
    assert_eq!(server.reads_of(&format!("{}/EXTRA.md", root(&extra))), 0);
    // The table says the same.
    let table = verify(&server, false);
    assert_eq!(table.exit_code, 1);
    for (u, code) in [
        (&byte, "digest-mismatch"),
        (&size, "size-mismatch"),
        (&front, "frontmatter-mismatch"),
        (&extra, "not-in-manifest"),
    ] {
        let line = table
            .stdout
            .lines()
            .find(|l| l.starts_with(u.as_str()))
            .unwrap();
        let cols: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(
            (cols[3], cols[4], cols[5]),
            ("failed", "-", format!("{code}:").as_str()),
            "{line}"
        );
    }
    // One skill, by URI.
    let args = VerifyArgs::parse(&[
        "http://x/mcp".into(),
        "--skill".into(),
        front.clone(),
        "--json".into(),
    ])
    .unwrap();
    let one = block_on(skills_edge::command::verify::verify_command(
        &args,
        &Default::default(),
        &server,
    ));
    assert_eq!((one.exit_code, one.stdout.lines().count()), (1, 1));
    let _ = FileStatus::Verified;
    let _ = SkillStatus::Verified;
}

/// An [`Rpc`] whose `digest` is a platform digest stand-in: `digest_of` itself, a digest of
/// other bytes, or one that is not in wire form; it counts the calls.
struct Digesting<'a, R> {
    rpc: &'a R,
    give: fn(&[u8]) -> String,
    calls: Cell<usize>,
}

impl<R: Rpc> Rpc for Digesting<'_, R> {
    fn call(
        &self,
        method: &str,
        params: Json,
    ) -> impl Future<Output = Result<String, ClientError>> {
        self.rpc.call(method, params)
    }
    fn now_ms(&self) -> f64 {
        self.rpc.now_ms()
    }
    fn digest(&self, bytes: &[u8]) -> impl Future<Output = Option<String>> {
        self.calls.set(self.calls.get() + 1);
        ready(Some((self.give)(bytes)))
    }
}

/// The `verify` run over a fresh connection, with `rpc` made from the session's.
fn run_with(server: &Server, give: Option<fn(&[u8]) -> String>) -> (Vec<String>, usize) {
    let (session, client) = connect(server, EraChoice::Auto);
    let plain = session.rpc(server);
    match give {
        None => {
            let r = block_on(report::run(&client, &plain, None));
            (r.skills.iter().map(|s| s.to_json()).collect(), 0)
        }
        Some(give) => {
            let rpc = Digesting {
                rpc: &plain,
                give,
                calls: Cell::new(0),
            };
            let r = block_on(report::run(&client, &rpc, None));
            (
                r.skills.iter().map(|s| s.to_json()).collect(),
                rpc.calls.get(),
            )
        }
    }
}

#[test]
fn a_platform_digest_gives_the_same_reports_and_errors() {
    let server = Server::paged(50, 300_000, CacheScope::Public);
    let uris = tamper_four(&server);
    let (hashed, _) = run_with(&server, None);
    let (given, calls) = run_with(&server, Some(digest_of));
    assert_eq!(hashed, given);
    // Every fetched file of the right size went through the platform digest: not the one
    // whose entry has the wrong size, nor the unlisted file, which is never fetched.
    assert!(calls >= uris.len(), "{calls}");
    let codes: Vec<Json> = given
        .iter()
        .take(4)
        .map(|l| serde_json::from_str::<Json>(l).unwrap()["code"].clone())
        .collect();
    assert_eq!(
        codes,
        [
            "digest-mismatch",
            "size-mismatch",
            "frontmatter-mismatch",
            "not-in-manifest"
        ]
    );
    // The digest is the platform's: one of other bytes fails every skill whose size is right,
    // as a digest mismatch named by the verifier.
    let (lied, _) = run_with(&server, Some(|b| digest_of(&[b, b"x"].concat())));
    for (line, uri) in lied.iter().zip(&uris) {
        let r: Json = serde_json::from_str(line).unwrap();
        let expected = if uri == &uris[1] {
            "size-mismatch"
        } else {
            "digest-mismatch"
        };
        assert_eq!(r["code"], expected, "{line}");
    }
    // One not in wire form is refused, never compared.
    let (odd, _) = run_with(&server, Some(|_| "sha256:XYZ".to_owned()));
    let r: Json = serde_json::from_str(&odd[4]).unwrap();
    assert_eq!(r["code"], "invalid-argument", "{}", odd[4]);
}

#[test]
fn verify_exit_statuses_for_connection_errors() {
    struct Down;
    struct Never;
    impl ResponseBody for Never {
        fn next_chunk(
            &mut self,
        ) -> impl Future<Output = skills_edge::client::Result<Option<Vec<u8>>>> {
            ready(Ok(None))
        }
    }
    impl HttpIo for Down {
        type Body = Never;
        fn post(
            &self,
            _: HttpRequest,
        ) -> impl Future<Output = skills_edge::client::Result<HttpResponse<Never>>> {
            ready(Err(ClientError::exchange(
                ExchangeKind::ConnectionFailed,
                "connection refused",
            )))
        }
        fn now_ms(&self) -> f64 {
            0.0
        }
    }
    let args = VerifyArgs::parse(&["http://127.0.0.1:9/mcp".into()]).unwrap();
    let out = block_on(skills_edge::command::verify::verify_command(
        &args,
        &Default::default(),
        &Down,
    ));
    assert_eq!(out.exit_code, 2);
    assert_eq!(out.stdout, "");
    assert_eq!(
        out.stderr,
        "error: connection refused [connection-failed]\n"
    );
    for bad in [
        &[][..],
        &["x".to_owned()][..],
        &["http://a".into(), "--era".into(), "modern".into()][..],
        &["http://a".into(), "--header".into(), "Mcp-Method: x".into()][..],
        &["http://a".into(), "--timeout".into(), "0".into()][..],
    ] {
        assert!(VerifyArgs::parse(bad).is_err(), "{bad:?}");
    }
}
