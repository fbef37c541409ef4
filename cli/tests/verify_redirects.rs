//! Redirects against `skills-edge verify` (the native command, run as a process): the
//! caller's headers (`--header`, `--token`, `CF-Access-*`) go only to the origin of the URL
//! given, however a GET is redirected. A server on 127.0.0.1 serves a catalog signed by the
//! command (`keygen`, `pack --sign`) through the library's endpoint: MCP at `/mcp`, the mirror
//! (index, archives, envelopes, `keys.json`) under `/.well-known/agent-skills/`. For each kind
//! of GET (index, artifact, envelope, keys, protected resource metadata) it answers 302 to the
//! same path on another origin (another port, serving the same catalog), which records every
//! header it receives: it must see none of the caller's. Redirects within the origin keep the
//! headers, five are followed, and a sixth is an error naming the limit.

use crate::common::TempDir;
use skills_edge::catalog::Catalog;
use skills_edge::catalog::Grant;
use skills_edge::http::{Endpoint, Head, HttpConfig};
use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

const API_KEY: &str = "k3y-S3CRET";
const ACCESS_ID: &str = "access-id-S3CRET";
const ACCESS_SECRET: &str = "access-secret-S3CRET";
const TOKEN: &str = "t0ken-S3CRET";

/// The kinds of GET the command makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Index,
    Artifact,
    Envelope,
    Keys,
    Metadata,
}

const KINDS: [Kind; 5] = [
    Kind::Index,
    Kind::Artifact,
    Kind::Envelope,
    Kind::Keys,
    Kind::Metadata,
];

fn kind_of(path: &str) -> Option<Kind> {
    let p = path.split('?').next().unwrap_or_default();
    if p.starts_with("/.well-known/oauth-protected-resource") {
        Some(Kind::Metadata)
    } else if p == "/.well-known/agent-skills/index.json" {
        Some(Kind::Index)
    } else if p == "/.well-known/agent-skills/keys.json" {
        Some(Kind::Keys)
    } else if p.ends_with(".dsse.json") {
        Some(Kind::Envelope)
    } else if p.starts_with("/.well-known/agent-skills/") {
        Some(Kind::Artifact)
    } else {
        None
    }
}

/// One request as a server saw it.
#[derive(Debug, Clone)]
struct Seen {
    method: String,
    path: String,
    headers: Vec<(String, String)>,
}

impl Seen {
    /// The caller's headers this request carried (any of their names or values).
    fn callers(&self) -> Vec<&(String, String)> {
        self.headers
            .iter()
            .filter(|(k, v)| {
                matches!(
                    k.as_str(),
                    "x-api-key"
                        | "cf-access-client-id"
                        | "cf-access-client-secret"
                        | "authorization"
                ) || v.contains("S3CRET")
            })
            .collect()
    }
}

/// What the server does besides serving the catalog.
#[derive(Clone, Default)]
struct Plan {
    /// GETs of this kind are answered 302 to the same path on this origin.
    redirect: Option<(Kind, String)>,
    /// POSTs to `/mcp` are answered 401 (so the metadata is fetched).
    unauthorized: bool,
    /// The first GET of the index goes through `/hop/1` … `/hop/{hops}` back to it: one
    /// redirect more than `hops`, all within the origin.
    hops: usize,
    /// Whether the index was redirected already (the next GET of it is served).
    hopped: Arc<AtomicBool>,
}

struct Server {
    origin: String,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl Server {
    fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

fn reply(stream: &mut TcpStream, status: u16, headers: &[(String, String)], body: &[u8]) {
    let mut out = format!("HTTP/1.1 {status} X\r\n").into_bytes();
    for (k, v) in headers {
        out.extend_from_slice(format!("{k}: {v}\r\n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "content-length: {}\r\nconnection: close\r\n\r\n",
            body.len()
        )
        .as_bytes(),
    );
    out.extend_from_slice(body);
    let _ = stream.write_all(&out);
    let _ = stream.flush();
}

fn answer(
    endpoint: &Endpoint,
    plan: &Plan,
    seen: &Mutex<Vec<Seen>>,
    stream: TcpStream,
) -> std::io::Result<()> {
    let request = crate::raw_http::read_request(&stream)?;
    let (method, path, body) = (&request.method, &request.path, &request.body);
    seen.lock().unwrap().push(Seen {
        method: method.clone(),
        path: path.clone(),
        headers: request.headers.clone(),
    });
    let mut stream = stream;
    let location = |to: String| vec![("location".to_owned(), to)];
    if let Some(n) = path.strip_prefix("/hop/") {
        let n: usize = n.parse().unwrap_or(usize::MAX);
        // A path-absolute Location: resolved against the hop that sent it.
        let to = if n >= plan.hops {
            "/.well-known/agent-skills/index.json".to_owned()
        } else {
            format!("/hop/{}", n + 1)
        };
        reply(&mut stream, 302, &location(to), b"");
        return Ok(());
    }
    let kind = kind_of(path);
    if method == "GET" {
        if let (Some((k, to)), Some(kind)) = (&plan.redirect, kind) {
            if *k == kind {
                reply(&mut stream, 302, &location(format!("{to}{path}")), b"");
                return Ok(());
            }
        }
        if kind == Some(Kind::Index) && plan.hops > 0 && !plan.hopped.swap(true, Ordering::SeqCst) {
            reply(&mut stream, 302, &location("/hop/1".into()), b"");
            return Ok(());
        }
        if kind == Some(Kind::Metadata) {
            reply(&mut stream, 404, &[], b"");
            return Ok(());
        }
    }
    if plan.unauthorized && method == "POST" {
        let challenge = vec![(
            "www-authenticate".to_owned(),
            "Bearer realm=\"skills\"".to_owned(),
        )];
        reply(&mut stream, 401, &challenge, b"");
        return Ok(());
    }
    let header = |n: &str| request.header(n);
    let head = Head::from_headers(
        method,
        path,
        Head::HEADERS
            .iter()
            .filter_map(|&n| header(n).map(|v| (n, v))),
    );
    let r = endpoint.handle(&head, body, Grant::PUBLIC);
    let out: Vec<(String, String)> = r
        .headers
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    reply(&mut stream, r.status, &out, &r.body);
    Ok(())
}

/// Serves the pack on a free port of 127.0.0.1 as `plan(origin)` says. The thread lives as
/// long as the test process.
fn serve(pack: &Path, plan: impl FnOnce(&str) -> Plan) -> Server {
    let catalog = Catalog::from_bytes(std::fs::read(pack).expect("the pack")).expect("it loads");
    let endpoint = Endpoint::new(Arc::new(catalog), HttpConfig::default()).expect("an endpoint");
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    let origin = format!("http://{}", listener.local_addr().unwrap());
    let plan = plan(&origin);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let _ = answer(&endpoint, &plan, &log, stream);
        }
    });
    Server { origin, seen }
}

fn run(args: &[&str]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_skills-edge"));
    for v in [
        "SKILLS_SIGNING_KEY",
        "SKILLS_CATALOG_ID",
        "SKILLS_STRICT",
        "SKILLS_ON_INVALID",
        "SKILLS_EDGE_TOKEN",
    ] {
        c.env_remove(v);
    }
    c.args(args).output().expect("run skills-edge")
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The repository's skills, signed by a key `keygen` made: (the public key file, the pack).
fn signed_pack(dir: &Path) -> (PathBuf, PathBuf) {
    let keys = dir.join("keys");
    let k = run(&["keygen", "--out", keys.to_str().unwrap()]);
    assert_eq!(k.status.code(), Some(0), "{}", text(&k));
    let pack = dir.join("signed.pack");
    let skills = Path::new(env!("CARGO_MANIFEST_DIR")).join("../skills");
    let p = run(&[
        "pack",
        skills.to_str().unwrap(),
        "--sign",
        keys.join("signing.key").to_str().unwrap(),
        "-o",
        pack.to_str().unwrap(),
    ]);
    assert_eq!(p.status.code(), Some(0), "{}", text(&p));
    (keys.join("signing.pub"), pack)
}

/// `verify` with every kind of caller header.
fn verify_with_headers(target: &[&str], trust: &Path) -> Output {
    let mut args = vec!["verify"];
    args.extend_from_slice(target);
    let api = format!("X-Api-Key: {API_KEY}");
    let id = format!("CF-Access-Client-Id: {ACCESS_ID}");
    let secret = format!("CF-Access-Client-Secret: {ACCESS_SECRET}");
    args.extend_from_slice(&[
        "--header",
        &api,
        "--header",
        &id,
        "--header",
        &secret,
        "--token",
        TOKEN,
        "--trust",
        trust.to_str().unwrap(),
    ]);
    run(&args)
}

#[test]
fn server_redirects_each_get_to_another_origin_which_sees_no_caller_header() {
    let dir = TempDir::new("verify-redirects");
    let (public, pack) = signed_pack(dir.path());
    for kind in KINDS {
        let elsewhere = serve(&pack, |_| Plan::default());
        let to = elsewhere.origin.clone();
        let home = serve(&pack, |_| Plan {
            redirect: Some((kind, to)),
            unauthorized: kind == Kind::Metadata,
            ..Plan::default()
        });
        let target: Vec<String> = if kind == Kind::Metadata {
            vec![format!("{}/mcp", home.origin)]
        } else {
            vec!["--well-known".into(), home.origin.clone()]
        };
        let target: Vec<&str> = target.iter().map(String::as_str).collect();
        let out = verify_with_headers(&target, &public);
        let all = text(&out);
        assert!(
            !all.contains("S3CRET"),
            "{kind:?}: a secret in the output: {all}"
        );
        if kind == Kind::Metadata {
            // The 401 is explained without the metadata the other origin served.
            assert_eq!(out.status.code(), Some(2), "{kind:?}: {all}");
            assert!(all.contains("HTTP 401"), "{kind:?}: {all}");
        } else {
            // The other origin serves the same catalog: everything verifies.
            assert_eq!(out.status.code(), Some(0), "{kind:?}: {all}");
        }
        let there = elsewhere.seen();
        assert!(
            there.iter().any(|s| kind_of(&s.path) == Some(kind)),
            "{kind:?}: the redirect was not followed: {there:?}"
        );
        for s in &there {
            assert!(
                s.callers().is_empty(),
                "{kind:?}: {} {} reached another origin with the caller's headers {:?}",
                s.method,
                s.path,
                s.callers()
            );
        }
        // The origin named got every header on every request.
        let here = home.seen();
        assert!(!here.is_empty());
        for s in &here {
            let names: Vec<&str> = s.callers().iter().map(|(k, _)| k.as_str()).collect();
            for name in [
                "x-api-key",
                "cf-access-client-id",
                "cf-access-client-secret",
                "authorization",
            ] {
                assert!(names.contains(&name), "{kind:?}: {} lacks {name}", s.path);
            }
        }
    }
}

#[test]
fn server_redirects_within_its_origin_five_times_and_a_sixth_is_refused() {
    let dir = TempDir::new("verify-redirect-limit");
    let (public, pack) = signed_pack(dir.path());
    // Five redirects: /index.json -> /hop/1 -> ... -> /hop/4 -> /index.json, served then.
    let five = serve(&pack, |_| Plan {
        hops: 4,
        ..Plan::default()
    });
    let out = run(&[
        "verify",
        "--well-known",
        &five.origin,
        "--header",
        "X-Hopped: 1",
        "--trust",
        public.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let seen = five.seen();
    let hops: Vec<&Seen> = seen
        .iter()
        .filter(|s| s.path.starts_with("/hop/"))
        .collect();
    assert_eq!(hops.len(), 4, "{seen:?}");
    // Every hop within the origin carried the caller's header, the index served after them too.
    let index = "/.well-known/agent-skills/index.json";
    assert_eq!(seen.iter().filter(|s| s.path == index).count(), 2);
    for s in seen
        .iter()
        .filter(|s| s.path.starts_with("/hop/") || s.path == index)
    {
        assert!(
            s.headers.iter().any(|(k, v)| k == "x-hopped" && v == "1"),
            "{} lost the caller's header",
            s.path
        );
    }

    let six = serve(&pack, |_| Plan {
        hops: 5,
        ..Plan::default()
    });
    let out = run(&["verify", "--well-known", &six.origin]);
    let all = text(&out);
    assert_eq!(out.status.code(), Some(2), "{all}");
    assert!(
        all.contains("was redirected more than 5 times (the limit)"),
        "{all}"
    );
    assert!(all.contains("[http-status]"), "{all}");
}
