//! The `skills-edge:mcp/skills-http` world: the skills-edge MCP server as a WASI 0.2 HTTP
//! component (`wasi:http/incoming-handler`), for `wasi:http` 0.2 hosts such as wasmtime,
//! Spin, Fastly Compute, wasmCloud and `jco serve`.
//!
//! Bindings only, the same three steps as the Cloudflare Worker: collect the request head,
//! ask [`skills_edge::http::Endpoint`] what to do, read at most `limit + 1` body bytes when
//! told to (through the shared [`BodyReader`]), and write the endpoint's response back. The
//! configuration comes from the environment variables named in
//! the settings table (the Worker's vars: [`skills_edge::settings::from_vars`]), read once per instance. While one
//! is invalid the instance serves nothing: the reason (the variable, its value and the
//! accepted form) goes to its log (stderr), and every caller gets the same 500 with a
//! JSON-RPC error (`-32603`, [`Refusal::Misconfigured`]) that names no variable and no value,
//! since a caller is not the operator (the Worker refuses to start instead).
//!
//! A body is read under a deadline, 10 seconds (`BODY_DEADLINE_SECS`) from the moment reading
//! starts: one that is not whole by then is answered 408 (RFC 9110 §15.5.9) and its stream left, so
//! a client that stops sending holds its request for that long at most. A body the host
//! cannot deliver is answered 400 ([`Refusal::Unreadable`]), one over the limit 413, as on
//! the Worker.
//!
//! The component does not authenticate: every caller of an instance has the scopes of the
//! `SCOPES` variable (none by default: the public skills only), which the host that runs it
//! grants by deciding who may reach it. The requests are answered for the grant of those
//! scopes ([`skills_edge::catalog::Catalog::grant`], then the endpoint's `head` and
//! `body`), as the Worker answers a caller whose token carries them.

#![warn(missing_docs)]

mod bindings {
    wit_bindgen::generate!({
        path: "../../wit",
        world: "skills-edge:mcp/skills-http",
        generate_all,
    });
}

use bindings::exports::wasi::http::incoming_handler::Guest;
use bindings::wasi::clocks::monotonic_clock;
use bindings::wasi::http::types::{
    ErrorCode, Fields, IncomingBody, IncomingRequest, Method, OutgoingBody, OutgoingResponse,
    ResponseOutparam,
};
use bindings::wasi::io::poll;
use bindings::wasi::io::streams::StreamError;
use skills_edge::catalog::{Catalog, Grant};
use skills_edge::http::{BodyReader, Endpoint, Head, HttpConfig, Response, Step};
use skills_edge::protocol::Refusal;
use skills_edge::settings::{self, Source};
use std::sync::{Arc, OnceLock};

/// The component: implements `wasi:http/incoming-handler`.
struct Component;

bindings::export!(Component with_types_in bindings);

/// The endpoint of an instance and the grant of its one caller.
struct Served {
    /// The HTTP rules and the responder over the embedded catalog.
    endpoint: Endpoint,
    /// What every caller sees: the grant of the `SCOPES` variable.
    grant: Grant,
}

static SERVED: OnceLock<Result<Served, String>> = OnceLock::new();

/// How long a request's body may take to arrive whole, from the moment the component starts
/// reading it: 10 seconds, then 408. An MCP message is one JSON-RPC message (at most
/// `MAX_BODY_BYTES`, 1 MiB by default), sent at once by every client; the deadline bounds how
/// long a client that stops half-way holds its request (and, where the runtime runs one
/// request at a time, every other request).
const BODY_DEADLINE_SECS: u64 = 10;

/// What a caller of a misconfigured instance is told: the reason is the operator's, in the log.
const MISCONFIGURED: &str = "see the server's log for the setting to fix";

/// The endpoint of this instance, configured from the environment on first use; an error
/// (the variable, its value and the accepted form) is written to the log once.
fn served() -> &'static Result<Served, String> {
    SERVED.get_or_init(|| {
        let served = configure();
        if let Err(message) = &served {
            eprintln!("skills-edge: refusing every request until this is fixed: {message}");
        }
        served
    })
}

/// The endpoint over the embedded catalog, configured from the environment.
fn configure() -> Result<Served, String> {
    // The environment may hold other variables (jco hands the host's whole process
    // environment over): a name that is no setting is ignored unless it misspells one.
    let names: Vec<String> = std::env::vars_os()
        .map(|(k, _)| k.to_string_lossy().into_owned())
        .collect();
    // A value that is not UTF-8 keeps its valid parts, so the error names the variable.
    let config = settings::from_vars(names.iter().map(String::as_str), |s| {
        std::env::var_os(s.var).map(|v| v.to_string_lossy().into_owned())
    })
    .map_err(|e| e.to_string())?;
    let catalog = skills_edge::embedded::catalog()
        .map_err(|e| format!("the embedded skills catalog cannot be read: {e}"))?;
    serve(catalog, config)
}

/// The endpoint over `catalog` with `config` (read from the variables named in
/// the settings table, the Worker's vars), and the grant of the scopes
/// `SCOPES` gave. The error names the variable, its value and the accepted form.
fn serve(catalog: Arc<Catalog>, config: HttpConfig) -> Result<Served, String> {
    let grant = catalog.grant(&config.server.scopes);
    let endpoint = Endpoint::new(catalog, config)
        .map_err(|e| settings::named_for(Source::Var, e).to_string())?;
    Ok(Served { endpoint, grant })
}

impl Guest for Component {
    fn handle(request: IncomingRequest, out: ResponseOutparam) {
        let response = match served() {
            Ok(served) => respond(served, request),
            // Before the Host and Origin rules, which come from the configuration: the answer
            // is the same for every request and says nothing of the settings.
            Err(_) => Response::refused(&Refusal::Misconfigured {
                message: MISCONFIGURED.into(),
            }),
        };
        send(out, response);
    }
}

/// The endpoint's response to one request, for the instance's caller.
fn respond(served: &Served, request: IncomingRequest) -> Response {
    let Served { endpoint, grant } = served;
    let method = request.method();
    let path_with_query = request.path_with_query().unwrap_or_default();
    let path = path_with_query.split('?').next().unwrap_or_default();
    let mut headers = joined_headers(&request.headers());
    let host = host_value(&mut headers, request.authority());
    let mut head = Head::from_headers(
        method_name(&method),
        path,
        headers.iter().map(|(n, v)| (*n, v.as_str())),
    );
    head.host = host.as_deref();
    match endpoint.head(&head, *grant) {
        Step::Respond(r) => r,
        // The component has no static files: the inspector page is the Worker's.
        Step::Page { missing, .. } => missing,
        Step::ReadBody { limit } => match read_body(request, limit) {
            Body::Complete(body) => endpoint.body(&head, &body, *grant),
            Body::TooLarge => endpoint.body_too_large(&head),
            Body::TimedOut => timed_out(endpoint, &head),
            Body::Unreadable(message) => {
                eprintln!("skills-edge: {message}");
                endpoint.body_unreadable(&head)
            }
        },
    }
}

/// The values of each header the HTTP rules read (see [`Head::HEADERS`]), a header sent more
/// than once joined with `", "` as the Fetch API (and so the Worker) presents it. Bytes that
/// are not UTF-8 become U+FFFD, so such a value never matches an allow-list.
fn joined_headers(fields: &Fields) -> Vec<(&'static str, String)> {
    let entries = fields.entries();
    Head::HEADERS
        .iter()
        .filter_map(|name| {
            let values: Vec<_> = entries
                .iter()
                .filter(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| String::from_utf8_lossy(v))
                .collect();
            (!values.is_empty()).then(|| (*name, values.join(", ")))
        })
        .collect()
}

/// The `Host` the rules check, taken out of `headers`: the request's authority, which is
/// what the runtime made of the `Host` line(s) (wasmtime 48 and jco 1.35 both pass the first
/// `Host` as the authority and strip every `Host` from the fields, so a second line never
/// reaches the component: see docs/serving.md), joined with any `Host` the fields still carry
/// when they differ, so a runtime that keeps repeated lines has them refused as the Worker
/// refuses its joined value.
fn host_value(
    headers: &mut Vec<(&'static str, String)>,
    authority: Option<String>,
) -> Option<String> {
    let fields = headers
        .iter()
        .position(|(n, _)| *n == "host")
        .map(|i| headers.remove(i).1);
    match (authority, fields) {
        (Some(a), Some(f)) if !a.eq_ignore_ascii_case(&f) => Some(format!("{a}, {f}")),
        (Some(a), _) => Some(a),
        (None, f) => f,
    }
}

/// The 408 answer to a body that did not arrive in time: a JSON-RPC error (`-32600`, no
/// `id`) with the headers every answer carries.
fn timed_out(endpoint: &Endpoint, head: &Head<'_>) -> Response {
    // Worded as the refusals are: the status text, then what to do.
    let message = format!(
        "Request Timeout: the request body did not arrive whole within {BODY_DEADLINE_SECS} \
         seconds; send the message at once"
    );
    let body = format!(r#"{{"jsonrpc":"2.0","error":{{"code":-32600,"message":"{message}"}}}}"#);
    let r = Response {
        status: 408,
        headers: vec![("content-type", "application/json".to_owned())],
        body: body.into_bytes(),
        splice: None,
    };
    endpoint.framed(head, r)
}

/// The method as it appears on the request line.
fn method_name(method: &Method) -> &str {
    match method {
        Method::Get => "GET",
        Method::Head => "HEAD",
        Method::Post => "POST",
        Method::Put => "PUT",
        Method::Delete => "DELETE",
        Method::Connect => "CONNECT",
        Method::Options => "OPTIONS",
        Method::Trace => "TRACE",
        Method::Patch => "PATCH",
        Method::Other(other) => other,
    }
}

/// A request body, as read.
enum Body {
    /// All of it, within the limit.
    Complete(Vec<u8>),
    /// Longer than the limit (at most `limit + 1` bytes were kept).
    TooLarge,
    /// Not whole within [`BODY_DEADLINE_SECS`].
    TimedOut,
    /// The host could not deliver it; why.
    Unreadable(String),
}

/// Reads the body through a [`BodyReader`]: at most `limit + 1` bytes are kept; an oversized
/// body is drained (and dropped) up to the reader's bound, then the stream is left. Each read
/// waits for the stream or the deadline ([`BODY_DEADLINE_SECS`] from now), whichever is first:
/// at the deadline a body within the limit so far is [`Body::TimedOut`], one over it
/// [`Body::TooLarge`].
fn read_body(request: IncomingRequest, limit: usize) -> Body {
    let Ok(body) = request.consume() else {
        return Body::Unreadable("the request body was already taken".into());
    };
    let mut reader = BodyReader::new(limit);
    let deadline = monotonic_clock::subscribe_duration(BODY_DEADLINE_SECS * 1_000_000_000);
    let late = {
        let Ok(stream) = body.stream() else {
            return Body::Unreadable("the request body stream was already taken".into());
        };
        // Dropped before the stream it belongs to.
        let input = stream.subscribe();
        loop {
            // Index 1 is the deadline: past it, nothing more is read.
            if poll::poll(&[&input, &deadline]).contains(&1) {
                break true;
            }
            // While within the limit, ask for no more than is kept; past it, drain in 64 KiB reads.
            let want = match reader.room() {
                0 => 64 * 1024,
                room => room.min(64 * 1024),
            };
            match stream.read(want as u64) {
                Ok(chunk) => {
                    if !reader.push(&chunk) {
                        break false;
                    }
                }
                Err(StreamError::Closed) => break false,
                Err(StreamError::LastOperationFailed(e)) => {
                    return Body::Unreadable(format!(
                        "reading the request body failed: {}",
                        e.to_debug_string()
                    ))
                }
            }
        }
    };
    drop(IncomingBody::finish(body));
    match (late, reader.finish()) {
        (_, None) => Body::TooLarge,
        (true, Some(_)) => Body::TimedOut,
        (false, Some(bytes)) => Body::Complete(bytes),
    }
}

/// Writes the response: status, headers, then the body in the 4096-byte writes that
/// `blocking-write-and-flush` accepts.
fn send(out: ResponseOutparam, r: Response) {
    // The component serves the embedded catalog, which keeps every byte in the pack; a response
    // that needs an asset (a pack built for Workers Static Assets) gets its fault answer.
    let r = match r.splice {
        Some(splice) => splice.fault,
        None => r,
    };
    let headers = Fields::new();
    for (name, value) in &r.headers {
        // Only fixed, valid header names and values are produced by the rules.
        let _ = headers.append(name, value.as_bytes());
    }
    let response = OutgoingResponse::new(headers);
    let _ = response.set_status_code(r.status);
    let Ok(body) = response.body() else {
        // Unreachable: the body of a new response is taken once.
        ResponseOutparam::set(out, Err(ErrorCode::InternalError(None)));
        return;
    };
    ResponseOutparam::set(out, Ok(response));
    if let Ok(stream) = body.write() {
        for chunk in r.body.chunks(4096) {
            if stream.blocking_write_and_flush(chunk).is_err() {
                break;
            }
        }
    }
    let _ = OutgoingBody::finish(body, None);
}

#[cfg(test)]
mod tests {
    use super::*;
    use skills_edge::catalog::compile::SourceTree;

    /// A public skill and a private one (scope `team`).
    fn catalog() -> Arc<Catalog> {
        let mut t = SourceTree::default();
        for n in ["hello", "secret"] {
            t.add_file(
                &format!("{n}/SKILL.md"),
                format!("---\nname: {n}\ndescription: The {n} skill, described.\n---\n\n# {n}\n"),
            );
        }
        t.add_file(
            "skills-edge.toml",
            "[[access]]\nskills = [\"secret\"]\nscopes = [\"team\"]\n",
        );
        Arc::new(Catalog::compile(t, None).expect("compiles"))
    }

    /// An instance configured with `SCOPES` (when given), as the environment configures it.
    fn instance(scopes: Option<&str>) -> Served {
        let config = settings::from_vars(["SCOPES"], |s| {
            (s.var == "SCOPES")
                .then(|| scopes.map(str::to_owned))
                .flatten()
        })
        .expect("valid settings");
        serve(catalog(), config).expect("serves")
    }

    /// The body of a POST to `/mcp` of `message` (2026-07-28), and the mirror's index.
    fn answers(served: &Served, method: &str, params: &str) -> (String, String) {
        let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"0"}}"#;
        let sep = if params.is_empty() { "" } else { "," };
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":{{{params}{sep}{meta}}}}}"#
        );
        let post = Head {
            method: "POST",
            path: "/mcp",
            host: Some("localhost"),
            accept: Some("application/json, text/event-stream"),
            content_type: Some("application/json"),
            protocol_version: Some("2026-07-28"),
            mcp_method: Some(method),
            mcp_name: (method == "resources/read").then_some("skill://secret/SKILL.md"),
            ..Head::default()
        };
        let Step::ReadBody { .. } = served.endpoint.head(&post, served.grant) else {
            panic!("a POST to /mcp reads its body");
        };
        let r = served.endpoint.body(&post, body.as_bytes(), served.grant);
        let index = Head {
            method: "GET",
            path: "/.well-known/agent-skills/index.json",
            host: Some("localhost"),
            ..Head::default()
        };
        let Step::Respond(i) = served.endpoint.head(&index, served.grant) else {
            panic!("the mirror answers from the head");
        };
        (
            String::from_utf8(r.body).expect("UTF-8"),
            String::from_utf8(i.body).expect("UTF-8"),
        )
    }

    #[test]
    fn the_scopes_variable_is_the_grant_of_every_caller() {
        let uri = r#""uri":"skill://secret/SKILL.md""#;
        for scopes in [None, Some(""), Some("other")] {
            let s = instance(scopes);
            let (list, index) = answers(&s, "skills/list", "");
            assert!(list.contains("skill://hello/SKILL.md"), "{list}");
            assert!(!list.contains("secret"), "{scopes:?}: {list}");
            assert!(list.contains(r#""cacheScope":"public""#), "{list}");
            assert!(!index.contains("secret"), "{index}");
            for method in ["skills/get", "resources/read"] {
                let (r, _) = answers(&s, method, uri);
                assert!(r.contains(r#""code":-32602"#), "{scopes:?} {method}: {r}");
            }
        }
        let s = instance(Some("team"));
        for method in ["skills/list", "skills/get", "resources/read"] {
            let params = if method == "skills/list" { "" } else { uri };
            let (r, index) = answers(&s, method, params);
            assert!(r.contains("skill://secret/SKILL.md"), "{method}: {r}");
            assert!(r.contains(r#""cacheScope":"private""#), "{method}: {r}");
            assert!(index.contains("secret"), "{index}");
        }
        let (read, _) = answers(&s, "resources/read", uri);
        assert!(read.contains("The secret skill, described."), "{read}");
    }

    #[test]
    fn a_host_the_fields_repeat_or_contradict_is_refused() {
        let s = instance(None);
        let cases = [
            (Some("localhost"), None, 200),
            (Some("localhost"), Some("LOCALHOST"), 200),
            (None, Some("localhost"), 200),
            // Two Host lines, joined by `joined_headers`, as a runtime that keeps them gives them.
            (Some("localhost"), Some("localhost, attacker.example"), 403),
            (Some("localhost"), Some("attacker.example"), 403),
            (Some("attacker.example"), Some("localhost"), 403),
            (None, None, 403),
        ];
        for (authority, field, status) in cases {
            let mut headers = vec![("origin", "x".to_owned())];
            if let Some(f) = field {
                headers.push(("host", f.to_owned()));
            }
            let host = host_value(&mut headers, authority.map(str::to_owned));
            assert_eq!(
                headers,
                [("origin", "x".to_owned())],
                "Host leaves the fields"
            );
            let head = Head {
                method: "GET",
                path: "/.well-known/agent-skills/index.json",
                host: host.as_deref(),
                ..Head::default()
            };
            let Step::Respond(r) = s.endpoint.head(&head, s.grant) else {
                panic!("the mirror answers from the head");
            };
            assert_eq!(
                r.status,
                status,
                "{authority:?} {field:?}: {}",
                r.body_str()
            );
        }
    }

    #[test]
    fn a_body_past_the_deadline_gets_408_with_the_usual_headers() {
        let s = instance(None);
        let head = Head {
            method: "POST",
            path: "/mcp",
            host: Some("localhost"),
            origin: Some("http://localhost:3000"),
            ..Head::default()
        };
        let r = timed_out(&s.endpoint, &head);
        assert_eq!(r.status, 408);
        assert_eq!(r.header("content-type"), Some("application/json"));
        assert_eq!(r.header("vary"), Some("Origin"));
        assert_eq!(
            r.header("access-control-allow-origin"),
            Some("http://localhost:3000")
        );
        assert_eq!(
            r.body_str(),
            r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Request Timeout: the request body did not arrive whole within 10 seconds; send the message at once"}}"#
        );
    }

    #[test]
    fn a_scope_that_is_no_scope_token_stops_the_instance() {
        let e = settings::from_vars(["SCOPES"], |s| (s.var == "SCOPES").then(|| "a\\b".into()))
            .unwrap_err();
        assert!(
            e.to_string()
                .starts_with("configuration variable SCOPES = \"a\\\\b\" is invalid"),
            "{e}"
        );
    }
}
