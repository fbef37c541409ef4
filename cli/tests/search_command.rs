//! `skills-edge search <url> <query>` (the native command, run as a process) against the
//! library's endpoint over the embedded catalog on a free port of 127.0.0.1: with
//! `fallback = search` it prints the `search_skills` results, best first, each a `skill://`
//! URI; against a server that does not offer the tool it says so and exits 1; a tool error
//! (an out-of-range `--limit`) is printed with exit status 1; a missing query is a usage error.

use skills_edge::catalog::Grant;
use skills_edge::http::{Endpoint, Head, HttpConfig};
use skills_edge::server::{Config, Fallback};
use std::io::Write;
use std::net::TcpListener;
use std::process::{Command, Output};

/// A server on a free port of 127.0.0.1 over the embedded catalog with `fallback`; its MCP
/// URL. The thread lives as long as the test process.
fn serve(fallback: Fallback) -> String {
    let catalog = skills_edge::embedded::catalog().expect("the embedded catalog");
    let config = HttpConfig {
        server: Config {
            fallback,
            ..Config::default()
        },
        ..HttpConfig::default()
    };
    let endpoint = Endpoint::new(catalog, config).expect("an endpoint");
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let Ok(request) = crate::raw_http::read_request(&stream) else {
                continue;
            };
            let header = |n: &str| request.header(n);
            let head = Head {
                method: &request.method,
                path: &request.path,
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
            let r = endpoint.handle(&head, &request.body, Grant::PUBLIC);
            let mut out = format!("HTTP/1.1 {} X\r\n", r.status).into_bytes();
            for (k, v) in &r.headers {
                out.extend_from_slice(format!("{k}: {v}\r\n").as_bytes());
            }
            out.extend_from_slice(
                format!(
                    "content-length: {}\r\nconnection: close\r\n\r\n",
                    r.body.len()
                )
                .as_bytes(),
            );
            out.extend_from_slice(&r.body);
            let _ = stream.write_all(&out);
        }
    });
    url
}

fn search(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skills-edge"))
        .env_remove("SKILLS_EDGE_TOKEN")
        .arg("search")
        .args(args)
        .output()
        .expect("run skills-edge")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

const SEARCH: Fallback = Fallback {
    tools: false,
    prompts: false,
    search: true,
};

#[test]
fn search_prints_the_servers_results_best_first() {
    let url = serve(SEARCH);
    for era in ["auto", "2025-11-25"] {
        let out = search(&[&url, "write", "a", "commit", "message", "--era", era]);
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let text = stdout(&out);
        let first = text.lines().next().unwrap_or_default();
        assert!(
            first.contains("git-commit-messages")
                && first.contains("skill://git-commit-messages/SKILL.md"),
            "{text}"
        );
    }
    let out = search(&[&url, "review code", "--json", "--limit", "2"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let results = json["results"].as_array().expect("results");
    assert!(!results.is_empty() && results.len() <= 2, "{json}");
    assert!(results
        .iter()
        .all(|r| r["uri"].as_str().unwrap_or("").starts_with("skill://")));
}

#[test]
fn search_says_when_the_server_does_not_offer_the_tool() {
    let url = serve(Fallback::NONE);
    let out = search(&[&url, "review code"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(stdout(&out).contains("does not offer search"), "{out:?}");
}

#[test]
fn a_tool_error_and_a_missing_query_are_reported() {
    let url = serve(SEARCH);
    let out = search(&[&url, "review", "--limit", "500"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        stdout(&out).contains("`limit` must be an integer from 1 to 50 (got 500)"),
        "{out:?}"
    );
    let out = search(&[&url]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("needs a query"),
        "{out:?}"
    );
}
