//! `skills-edge verify --token TOKEN` and `SKILLS_EDGE_TOKEN` (the native command, run as a
//! process) against a server on 127.0.0.1 that requires a bearer token: the library's endpoint
//! over the embedded catalog behind a gate that answers 401 with a `WWW-Authenticate: Bearer`
//! challenge (RFC 6750 §3, `resource_metadata` of RFC 9728 §5.1) and serves the Protected
//! Resource Metadata document. Without a token, and with a wrong one, the run stops (exit 2)
//! with an error naming the authorization server, `scopes_supported`, whether a token was sent
//! and the fix; with the right one every skill verifies. A second server on another origin
//! records what it receives: a challenge that points there, and a mirror index redirected
//! there, never bring it the token. The token appears in no output.

use serde_json::json;
use skills_edge::catalog::Grant;
use skills_edge::http::{Endpoint, Head, HttpConfig};
use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};

const RIGHT: &str = "right-token.S3CRET";
const WRONG: &str = "wrong-token.S3CRET";

/// One request as a server saw it: its method, path and `Authorization` header.
#[derive(Debug, Clone)]
struct Seen {
    method: String,
    path: String,
    authorization: Option<String>,
}

/// What a server does besides the endpoint.
#[derive(Clone)]
struct Gate {
    /// The origin that serves the skills.
    origin: String,
    /// The URL the 401 challenges name as `resource_metadata` (`None`: no such parameter).
    metadata_url: Option<String>,
    /// Redirect the mirror's index to this URL instead of serving it.
    index_redirect: Option<String>,
    /// `None`: no token is needed (the other origin).
    token: Option<&'static str>,
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

fn metadata(resource: &str) -> Vec<u8> {
    json!({
        "resource": resource,
        "authorization_servers": ["https://auth.example"],
        "scopes_supported": ["skills.read", "team.alpha"],
        "bearer_methods_supported": ["header"],
    })
    .to_string()
    .into_bytes()
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

/// Answers one HTTP/1.1 request, then closes the connection.
fn answer(
    endpoint: &Endpoint,
    gate: &Gate,
    seen: &Mutex<Vec<Seen>>,
    stream: TcpStream,
) -> std::io::Result<()> {
    let request = crate::raw_http::read_request(&stream)?;
    let (method, path, body) = (&request.method, &request.path, &request.body);
    let header = |n: &str| request.header(n);
    seen.lock().unwrap().push(Seen {
        method: method.clone(),
        path: path.clone(),
        authorization: header("authorization").map(str::to_owned),
    });
    let mut stream = stream;
    let json_type = || vec![("content-type".to_owned(), "application/json".to_owned())];
    if path.starts_with("/.well-known/oauth-protected-resource") {
        reply(
            &mut stream,
            200,
            &json_type(),
            &metadata(&format!("{}/mcp", gate.origin)),
        );
        return Ok(());
    }
    if path == "/.well-known/agent-skills/index.json" {
        if let Some(to) = &gate.index_redirect {
            reply(&mut stream, 302, &[("location".into(), to.clone())], b"");
            return Ok(());
        }
    }
    if let Some(token) = gate.token {
        let given = header("authorization");
        if given != Some(&format!("Bearer {token}")) {
            let mut challenge = "Bearer realm=\"skills\"".to_owned();
            if given.is_some() {
                challenge.push_str(", error=\"invalid_token\"");
            }
            if let Some(m) = &gate.metadata_url {
                challenge.push_str(&format!(", resource_metadata=\"{m}\""));
            }
            reply(
                &mut stream,
                401,
                &[("www-authenticate".into(), challenge)],
                b"",
            );
            return Ok(());
        }
    }
    let head = Head {
        method,
        path,
        host: header("host"),
        origin: header("origin"),
        accept: header("accept"),
        content_type: header("content-type"),
        content_length: header("content-length"),
        protocol_version: header("mcp-protocol-version"),
        mcp_method: header("mcp-method"),
        mcp_name: header("mcp-name"),
        if_none_match: header("if-none-match"),
        sec_fetch_site: header("sec-fetch-site"),
        sec_fetch_mode: header("sec-fetch-mode"),
    };
    let r = endpoint.handle(&head, body, Grant::PUBLIC);
    let out: Vec<(String, String)> = r
        .headers
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    reply(&mut stream, r.status, &out, &r.body);
    Ok(())
}

/// A server on a free port of 127.0.0.1 over the embedded catalog; `gate` is made from its
/// origin. The thread lives as long as the test process.
fn serve(gate: impl FnOnce(&str) -> Gate) -> Server {
    let catalog = skills_edge::embedded::catalog().expect("the embedded catalog");
    let endpoint = Endpoint::new(catalog, HttpConfig::default()).expect("an endpoint");
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    let origin = format!("http://{}", listener.local_addr().unwrap());
    let gate = gate(&origin);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let _ = answer(&endpoint, &gate, &log, stream);
        }
    });
    Server { origin, seen }
}

/// Runs `verify` with `SKILLS_EDGE_TOKEN` set to `env_token` (or unset).
fn run(args: &[&str], env_token: Option<&str>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_skills-edge"));
    c.env_remove("SKILLS_EDGE_TOKEN");
    if let Some(t) = env_token {
        c.env("SKILLS_EDGE_TOKEN", t);
    }
    c.arg("verify")
        .args(args)
        .output()
        .expect("run skills-edge")
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The output of a run, checked not to hold either token anywhere.
fn no_token(out: &Output) -> String {
    let all = text(out);
    for secret in [RIGHT, WRONG, "S3CRET"] {
        assert!(!all.contains(secret), "the token leaked: {all}");
    }
    all
}

fn skills_server() -> Server {
    serve(|origin| Gate {
        origin: origin.to_owned(),
        metadata_url: Some(format!("{origin}/.well-known/oauth-protected-resource/mcp")),
        index_redirect: None,
        token: Some(RIGHT),
    })
}

#[test]
fn verify_sends_the_token_and_explains_a_401() {
    let s = skills_server();
    let url = format!("{}/mcp", s.origin);

    // No token: stopped, with the server's metadata and the fix.
    let out = run(&[&url], None);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let all = no_token(&out);
    for part in [
        "HTTP 401",
        "no token was sent",
        "authorization server(s) https://auth.example",
        "scopes_supported skills.read, team.alpha",
        "pass --token or set SKILLS_EDGE_TOKEN",
        "[http-status]",
    ] {
        assert!(all.contains(part), "{part:?} missing: {all}");
    }

    // A wrong token, on the command line and then in the environment: refused, said so.
    for (args, env) in [
        (vec![url.as_str(), "--token", WRONG], None),
        (vec![url.as_str(), "--json"], Some(WRONG)),
    ] {
        let out = run(&args, env);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out));
        let all = no_token(&out);
        assert!(
            all.contains("a token was sent and refused (error=\"invalid_token\")"),
            "{all}"
        );
        assert!(all.contains("https://auth.example"), "{all}");
    }
    // A token in Cloudflare Access's header (AUTH_MODE access) is a token sent too.
    let header = format!("Cf-Access-Jwt-Assertion: {WRONG}");
    let out = run(&[url.as_str(), "--header", &header], None);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let all = no_token(&out);
    assert!(all.contains("a token was sent and refused"), "{all}");
    let sent: Vec<Seen> = s.seen();
    assert!(sent
        .iter()
        .any(|r| r.authorization.as_deref() == Some(&format!("Bearer {WRONG}"))));

    // The right token, from the environment and from --token (which wins over it).
    for (args, env) in [
        (vec![url.as_str()], Some(RIGHT)),
        (vec![url.as_str(), "--token", RIGHT], Some(WRONG)),
    ] {
        let out = run(&args, env);
        let all = no_token(&out);
        assert_eq!(out.status.code(), Some(0), "{all}");
        assert!(all.contains("verified"), "{all}");
    }
    // Every POST to the endpoint of those runs carried it.
    let posts: Vec<Seen> = s
        .seen()
        .into_iter()
        .filter(|r| r.method == "POST")
        .collect();
    assert!(
        posts
            .iter()
            .filter(|r| r.authorization.as_deref() == Some(&format!("Bearer {RIGHT}")))
            .count()
            >= 4
    );

    // A bad token or a clash with --header is a usage error that does not repeat it.
    let out = run(&[&url, "--token", "Bearer S3CRET"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(no_token(&out).contains("--token: not a bearer token (not shown)"));
    let out = run(
        &[
            &url,
            "--token",
            RIGHT,
            "--header",
            "Authorization: Bearer x",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(no_token(&out).contains("use one of them"));
}

#[test]
fn the_token_never_goes_to_another_origin() {
    let other = serve(|origin| Gate {
        origin: origin.to_owned(),
        metadata_url: None,
        index_redirect: None,
        token: None,
    });
    let other_origin = other.origin.clone();
    let s = serve(move |origin| Gate {
        origin: origin.to_owned(),
        // The challenge names metadata on another origin; the mirror's index moved there.
        metadata_url: Some(format!(
            "{other_origin}/.well-known/oauth-protected-resource/mcp"
        )),
        index_redirect: Some(format!(
            "{other_origin}/.well-known/agent-skills/index.json"
        )),
        token: Some(RIGHT),
    });
    let url = format!("{}/mcp", s.origin);
    let out = run(&[&url, "--token", WRONG], None);
    assert_eq!(out.status.code(), Some(2));
    let all = no_token(&out);
    // The metadata on the other origin names another resource: not used, and said so.
    assert!(all.contains("no usable resource metadata"), "{all}");
    let out = run(&["--well-known", &s.origin, "--token", RIGHT], None);
    no_token(&out);
    let seen = other.seen();
    assert!(
        seen.iter()
            .any(|r| r.path == "/.well-known/oauth-protected-resource/mcp"),
        "{seen:?}"
    );
    assert!(
        seen.iter()
            .any(|r| r.path == "/.well-known/agent-skills/index.json"),
        "{seen:?}"
    );
    assert!(
        seen.iter().all(|r| r.authorization.is_none()),
        "a token went to another origin: {seen:?}"
    );
    // The index request to the server's own origin did carry it.
    assert!(s
        .seen()
        .iter()
        .any(|r| r.path == "/.well-known/agent-skills/index.json"
            && r.authorization.as_deref() == Some(&format!("Bearer {RIGHT}"))));
}

#[test]
fn a_401_of_a_well_known_index_is_explained_as_an_endpoints() {
    let s = skills_server();
    let index = format!("{}/.well-known/agent-skills/index.json", s.origin);

    // No token: stopped, with the challenge, the origin's metadata (its resource is the MCP
    // endpoint's URL on the index's origin) and the fix.
    let out = run(&["--well-known", &s.origin], None);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let all = no_token(&out);
    for part in [
        format!("the server answered GET {index} with HTTP 401"),
        "no token was sent".into(),
        format!(
            "its metadata ({}/.well-known/oauth-protected-resource/mcp) names the authorization server(s) https://auth.example and scopes_supported skills.read, team.alpha",
            s.origin
        ),
        "pass --token or set SKILLS_EDGE_TOKEN".into(),
        "[http-status]".into(),
    ] {
        assert!(all.contains(&part), "{part:?} missing: {all}");
    }

    // A wrong token: refused, said so, and the metadata was fetched with it (same origin).
    let out = run(&["--well-known", &s.origin], Some(WRONG));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let all = no_token(&out);
    assert!(
        all.contains("a token was sent and refused (error=\"invalid_token\")"),
        "{all}"
    );
    assert!(all.contains("https://auth.example"), "{all}");
    assert!(all.contains("get a valid token"), "{all}");

    // The right token passes the gate: no 401 to explain.
    let out = run(&["--well-known", &s.origin, "--token", RIGHT], None);
    let all = no_token(&out);
    assert!(!all.contains("HTTP 401"), "{all}");
    assert!(s
        .seen()
        .iter()
        .any(|r| r.path == "/.well-known/agent-skills/index.json"
            && r.authorization.as_deref() == Some(&format!("Bearer {RIGHT}"))));
}

#[test]
fn a_well_known_401_does_not_use_another_origins_metadata() {
    let other = serve(|origin| Gate {
        origin: origin.to_owned(),
        metadata_url: None,
        index_redirect: None,
        token: None,
    });
    let other_origin = other.origin.clone();
    let s = serve(move |origin| Gate {
        origin: origin.to_owned(),
        metadata_url: Some(format!(
            "{other_origin}/.well-known/oauth-protected-resource/mcp"
        )),
        index_redirect: None,
        token: Some(RIGHT),
    });
    let out = run(&["--well-known", &s.origin, "--token", WRONG], None);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let all = no_token(&out);
    // The challenge's document is on another origin: not used, said so, and the token did
    // not go there.
    assert!(
        all.contains("no usable resource metadata") && all.contains("another origin"),
        "{all}"
    );
    assert!(!all.contains("https://auth.example"), "{all}");
    assert!(other.seen().iter().all(|r| r.authorization.is_none()));
    assert!(!other.seen().is_empty());
}
