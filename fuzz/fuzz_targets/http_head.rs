//! The Streamable HTTP rules: `OriginList::parse` / `HostList::parse` and `allows`,
//! `Head::from_headers`, `Endpoint::head` and `Endpoint::body` over the embedded catalog.
//!
//! Input: LF-separated fields (a field `~` is absent): the allowed origins, the allowed hosts,
//! the body limit, then the request's method, path, `Host`, `Origin`, `Accept`,
//! `Content-Type`, `Content-Length`, `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`,
//! `If-None-Match`, `Sec-Fetch-Site`, `Sec-Fetch-Mode` (the order of `Head::HEADERS`); the rest
//! of the input is the body.
//!
//! Properties:
//! * a parsed list's `allows` never panics; `*` allows everything; a list of two parts allows
//!   exactly what either part allows; host matching ignores ASCII case;
//! * `from_headers` takes the first occurrence of each header, names in any case, except a
//!   `Sec-Fetch-Site` sent more than once, which reads as another origin's;
//! * an immediate response with status ≥ 400 carries a JSON-RPC error body without `id`
//!   (`jsonrpc`, `error` with an integer `code` and a `message`), as `application/json`; the
//!   403 of a refused `Origin` carries no `access-control-allow-origin`, and that header, when
//!   present, echoes an allowed `Origin` (the documented rule: an allowed origin gets it on
//!   every response, the 403 of a refused `Host` included); every response has `Vary: Origin`; 204 only answers `OPTIONS`;
//!   a refused origin or host is 403; reading the body is asked for only for an allowed `POST`
//!   to the endpoint, with the configured limit; every answer of the mirror carries
//!   `X-Content-Type-Options: nosniff`, the sandbox `Content-Security-Policy` and a
//!   `Cross-Origin-Resource-Policy`, and a file whose type is not shown inline is an
//!   attachment;
//! * `Endpoint::body` answers what the responder answers (same status and body) with the
//!   reply properties of `skills_edge_fuzz::reply::check`, and `handle` equals the two steps.

#![no_main]

use libfuzzer_sys::fuzz_target;
use skills_edge::http::{
    Endpoint, Head, HostList, HttpConfig, OriginList, Response, Step, ENDPOINT_PATH,
};
use skills_edge::server::{Grant, HttpHeaders, Transport};
use skills_edge_fuzz::json::Members;
use std::sync::Arc;

const SAMPLE_ORIGINS: &[&str] = &[
    "http://localhost:8787",
    "https://example.com",
    "null",
    "HTTP://LOCALHOST",
    "http://[::1]:3000",
    "https://a.example.com:443",
];
const SAMPLE_HOSTS: &[&str] = &[
    "localhost",
    "127.0.0.1:8787",
    "[::1]",
    "Example.COM:443",
    "a.b.example.com",
];

fn field(f: Option<&str>) -> Option<&str> {
    f.filter(|v| *v != "~")
}

fn check_lists(origins: Option<&str>, hosts: Option<&str>, probes: &[&str]) {
    if let Some(o) = origins {
        if let Ok(list) = OriginList::parse(o) {
            for p in probes.iter().chain(SAMPLE_ORIGINS) {
                let allowed = list.allows(p);
                if matches!(list, OriginList::Any) {
                    assert!(allowed);
                }
            }
            if o.split(',').any(|i| i.trim() == "*") {
                assert_eq!(list, OriginList::Any);
            }
            if let Some((a, b)) = o.split_once(',') {
                if let (Ok(la), Ok(lb)) = (OriginList::parse(a), OriginList::parse(b)) {
                    for p in probes.iter().chain(SAMPLE_ORIGINS) {
                        assert_eq!(
                            list.allows(p),
                            la.allows(p) || lb.allows(p),
                            "origin lists {a:?} + {b:?} on {p:?}"
                        );
                    }
                }
            }
        }
    }
    if let Some(h) = hosts {
        if let Ok(list) = HostList::parse(h) {
            for p in probes.iter().chain(SAMPLE_HOSTS) {
                let allowed = list.allows(p);
                if matches!(list, HostList::Any) {
                    assert!(allowed);
                }
                assert_eq!(
                    allowed,
                    list.allows(&p.to_ascii_uppercase()),
                    "host matching is case-sensitive for {p:?}"
                );
            }
            if h.split(',').any(|i| i.trim() == "*") {
                assert_eq!(list, HostList::Any);
            }
            if let Some((a, b)) = h.split_once(',') {
                if let (Ok(la), Ok(lb)) = (HostList::parse(a), HostList::parse(b)) {
                    for p in probes.iter().chain(SAMPLE_HOSTS) {
                        assert_eq!(
                            list.allows(p),
                            la.allows(p) || lb.allows(p),
                            "host lists {a:?} + {b:?} on {p:?}"
                        );
                    }
                }
            }
        }
    }
}

fn check_error_body(r: &Response) {
    assert_eq!(
        r.header("content-type"),
        Some("application/json"),
        "an error of status {} without JSON",
        r.status
    );
    let text = r.body_str();
    let m = Members::parse(text)
        .unwrap_or_else(|| panic!("a {} body is not a JSON object: {text:?}", r.status));
    assert!(m.unique());
    let keys: Vec<&str> = m.0.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        keys,
        ["jsonrpc", "error"],
        "a {} body has members {keys:?}",
        r.status
    );
    assert_eq!(m.get("jsonrpc").map(|v| v.get()), Some("\"2.0\""));
    let e: serde_json::Value = serde_json::from_str(m.get("error").map(|v| v.get()).unwrap_or(""))
        .expect("the error is JSON");
    assert!(
        e["code"].is_i64() && e["message"].is_string(),
        "a malformed error: {text:?}"
    );
}

fn check_common(r: &Response, head: &Head<'_>, origins: &OriginList) {
    assert_eq!(
        r.header("vary"),
        Some("Origin"),
        "a response without Vary: Origin"
    );
    if let Some(acao) = r.header("access-control-allow-origin") {
        assert_eq!(
            Some(acao),
            head.origin,
            "access-control-allow-origin echoes another origin"
        );
        assert!(
            origins.allows(acao),
            "access-control-allow-origin for a refused origin"
        );
    }
}

fn run(text: &str) {
    let mut parts = text.splitn(5 + Head::HEADERS.len() + 1, '\n');
    let mut next = || parts.next();
    let (origins, hosts, limit) = (field(next()), field(next()), field(next()));
    let method = next().unwrap_or("POST");
    let path = next().unwrap_or(ENDPOINT_PATH);
    let values: Vec<Option<&str>> = (0..Head::HEADERS.len()).map(|_| field(next())).collect();
    let body = next().unwrap_or("");
    let probes: Vec<&str> = values.iter().take(2).flatten().copied().collect();
    check_lists(origins, hosts, &probes);

    let mut config = HttpConfig::default();
    if let Some(o) = origins.and_then(|o| OriginList::parse(o).ok()) {
        config.allowed_origins = o;
    }
    if let Some(h) = hosts.and_then(|h| HostList::parse(h).ok()) {
        config.allowed_hosts = h;
    }
    if let Some(n) = limit.and_then(|l| l.parse::<usize>().ok()) {
        config.max_body_bytes = n;
    }
    let allowed_origins = config.allowed_origins.clone();
    let allowed_hosts = config.allowed_hosts.clone();
    let max = config.max_body_bytes;
    let Ok(catalog) = skills_edge::embedded::catalog() else {
        panic!("the embedded catalog loads")
    };
    let Ok(endpoint) = Endpoint::new(Arc::clone(&catalog), config) else {
        assert!(max == 0 || max > skills_edge::http::MAX_MAX_BODY_BYTES);
        return;
    };

    let head = head_of(method, path, &values);

    let origin_ok = head.origin.is_none_or(|o| allowed_origins.allows(o));
    let host_ok = head.host.is_some_and(|h| allowed_hosts.allows(h));
    let seen = Seen {
        endpoint: &endpoint,
        head: &head,
        body,
        allowed_origins: &allowed_origins,
        origin_ok,
        host_ok,
    };
    match endpoint.head(&head, Grant::PUBLIC) {
        Step::Respond(r) => seen.immediate(&r, method, path),
        Step::ReadBody { limit } => {
            assert_eq!(limit, max);
            seen.read(max, method, path)
        }
        Step::Page { file, .. } => {
            panic!("the inspector page is off here, yet {file} was to be served for {path}")
        }
    }
}

/// What one run checks its answers against.
struct Seen<'e> {
    endpoint: &'e Endpoint,
    head: &'e Head<'e>,
    body: &'e str,
    allowed_origins: &'e OriginList,
    origin_ok: bool,
    host_ok: bool,
}

/// The head, directly and from a header list with duplicates and mixed-case names: both
/// readings agree, and the first occurrence of a header wins.
fn head_of<'a>(method: &'a str, path: &'a str, values: &[Option<&'a str>]) -> Head<'a> {
    let mut pairs: Vec<(&str, &str)> = Vec::new();
    for (name, v) in Head::HEADERS.iter().zip(values) {
        if let Some(v) = v {
            pairs.push((name, v));
        }
    }
    let upper: Vec<String> = Head::HEADERS
        .iter()
        .map(|n| n.to_ascii_uppercase())
        .collect();
    let mut with_dups: Vec<(&str, &str)> = Vec::new();
    for (name, v) in &pairs {
        with_dups.push((name, v));
    }
    for (i, v) in values.iter().enumerate() {
        with_dups.push((
            upper[i].as_str(),
            if v.is_some() { "late duplicate" } else { "" },
        ));
    }
    let mut in_order = [None; Head::HEADERS.len()];
    for (slot, v) in in_order.iter_mut().zip(values) {
        *slot = *v;
    }
    let head = Head::with_values(method, path, in_order);
    let built = Head::from_headers(method, path, pairs.iter().copied());
    assert_eq!(
        format!("{built:?}"),
        format!("{head:?}"),
        "from_headers differs"
    );
    let first_wins = Head::from_headers(method, path, with_dups.iter().copied());
    for (i, v) in values.iter().enumerate() {
        let got = [
            first_wins.host,
            first_wins.origin,
            first_wins.accept,
            first_wins.content_type,
            first_wins.content_length,
            first_wins.protocol_version,
            first_wins.mcp_method,
            first_wins.mcp_name,
            first_wins.if_none_match,
            first_wins.sec_fetch_site,
            first_wins.sec_fetch_mode,
        ][i];
        if Head::HEADERS[i] == "sec-fetch-site" && v.is_some() {
            // Sent twice (no browser does): a value that is neither `same-origin` nor `none`,
            // so the request counts as another origin's whatever its first line said.
            let site = got.unwrap_or("").trim().to_ascii_lowercase();
            assert!(
                got.is_some() && site != "same-origin" && site != "none",
                "from_headers: a repeated Sec-Fetch-Site must read as another origin's, got {got:?}"
            );
            continue;
        }
        assert_eq!(
            got,
            Some(v.unwrap_or("")),
            "from_headers: the first occurrence must win"
        );
    }
    head
}

impl Seen<'_> {
    /// An answer from the head alone.
    fn immediate(&self, r: &Response, method: &str, path: &str) {
        let Seen {
            endpoint,
            head,
            body,
            allowed_origins,
            origin_ok,
            host_ok,
        } = *self;
        check_common(&r, &head, &allowed_origins);
        // The skills mirror answers GET and HEAD under its prefix itself: files, 304s, and
        // 404s as plain text. Everything else is a refusal with a JSON-RPC error body.
        let mirror = path.starts_with(skills_edge::catalog::compile::mirror::MIRROR_PREFIX)
            && (method.eq_ignore_ascii_case("GET") || method.eq_ignore_ascii_case("HEAD"))
            && origin_ok
            && host_ok;
        assert!(
            r.splice.is_none(),
            "the embedded catalog keeps every byte in the pack"
        );
        if mirror {
            assert!(
                matches!(r.status, 200 | 304 | 404),
                "the mirror answered {}",
                r.status
            );
            if r.status == 200 {
                assert!(
                    r.header("etag").is_some(),
                    "a mirrored file without an ETag"
                );
            }
            assert_eq!(r.header("x-content-type-options"), Some("nosniff"));
            assert!(r
                .header("content-security-policy")
                .is_some_and(|p| p.contains("sandbox")));
            assert_eq!(
                r.header("cross-origin-resource-policy"),
                Some("cross-origin"),
                "an anonymous answer of the mirror is public"
            );
            let active = r.header("content-type").is_some_and(|t| {
                ["text/html", "image/svg+xml", "javascript", "xml"]
                    .iter()
                    .any(|a| t.contains(a))
            });
            if r.status == 200 && active {
                assert_eq!(r.header("content-disposition"), Some("attachment"));
            }
        } else if r.status >= 400 {
            check_error_body(&r);
        }
        if !origin_ok || !host_ok {
            assert_eq!(r.status, 403, "a refused origin or host got {}", r.status);
        }
        if !origin_ok {
            assert_eq!(
                r.header("access-control-allow-origin"),
                None,
                "a refused origin can read its 403"
            );
        }
        if r.status == 204 {
            assert!(method.eq_ignore_ascii_case("OPTIONS") && r.body.is_empty());
        }
        assert!(
            mirror || r.status == 204 || r.status >= 400,
            "an immediate response of status {}",
            r.status
        );
        assert_eq!(
            &endpoint.handle(head, body.as_bytes(), Grant::PUBLIC),
            r,
            "handle differs from head"
        );
    }

    /// A body read and answered.
    fn read(&self, max: usize, method: &str, path: &str) {
        let Seen {
            endpoint,
            head,
            body,
            allowed_origins,
            origin_ok,
            host_ok,
        } = *self;
        assert!(
            origin_ok && host_ok,
            "a body is read from a refused origin or host"
        );
        assert!(method.eq_ignore_ascii_case("POST") && path == ENDPOINT_PATH);
        let r = endpoint.body(&head, body.as_bytes(), Grant::PUBLIC);
        check_common(&r, &head, &allowed_origins);
        assert_eq!(
            endpoint.handle(&head, body.as_bytes(), Grant::PUBLIC),
            r,
            "handle differs from head + body"
        );
        if body.len() > max {
            assert_eq!(r.status, 413);
            return;
        }
        let transport = Transport::Http(HttpHeaders {
            protocol_version: head.protocol_version,
            method: head.mcp_method,
            name: head.mcp_name,
        });
        let reply = endpoint
            .responder()
            .respond(body.as_bytes(), &transport, Grant::PUBLIC);
        assert_eq!(
            r.status, reply.status,
            "the endpoint's status differs from the responder's"
        );
        assert_eq!(r.body, reply.body.clone().unwrap_or_default());
        skills_edge_fuzz::reply::check(body.as_bytes(), &reply);
    }
}

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        run(text);
    }
});
