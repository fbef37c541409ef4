//! The `skills-edge:mcp/skills-http` world: the skills-edge MCP server as a WASI 0.2 HTTP
//! component (`wasi:http/incoming-handler`), for `wasi:http` 0.2 hosts such as wasmtime,
//! Spin, Fastly Compute, wasmCloud and `jco serve`.
//!
//! Bindings only, the same three steps as the Cloudflare Worker: collect the request head,
//! ask [`skills_edge::http::Endpoint`] what to do, read at most `limit + 1` body bytes when
//! told to (through the shared [`BodyReader`]), and write the endpoint's response back. The
//! configuration comes from the environment variables named in
//! [`skills_edge::settings::SETTINGS`] (the Worker's vars), read once per instance; while one
//! is invalid, every request is answered 500 with a JSON-RPC error (`-32603`) naming it
//! ([`Refusal::Misconfigured`]). A body the host cannot deliver is answered 400
//! ([`Refusal::Unreadable`]), as on the Worker.

#![warn(missing_docs)]

mod bindings {
    wit_bindgen::generate!({
        path: "../../wit",
        world: "skills-edge:mcp/skills-http",
        generate_all,
    });
}

use bindings::exports::wasi::http::incoming_handler::Guest;
use bindings::wasi::http::types::{
    ErrorCode, Fields, IncomingBody, IncomingRequest, Method, OutgoingBody, OutgoingResponse,
    ResponseOutparam,
};
use bindings::wasi::io::streams::StreamError;
use skills_edge::http::{BodyReader, Endpoint, Head, Response, Step};
use skills_edge::protocol::Refusal;
use skills_edge::settings::{self, Source};
use std::sync::OnceLock;

/// The component: implements `wasi:http/incoming-handler`.
struct Component;

bindings::export!(Component with_types_in bindings);

static ENDPOINT: OnceLock<Result<Endpoint, String>> = OnceLock::new();

/// The endpoint of this instance, configured from the environment on first use.
fn endpoint() -> &'static Result<Endpoint, String> {
    ENDPOINT.get_or_init(|| {
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
        endpoint_with(config)
    })
}

/// The endpoint over the embedded catalog, configured from named variables (the
/// [`Setting::var`](skills_edge::settings::Setting::var) names of
/// [`skills_edge::settings::SETTINGS`], the Worker's vars). The error names the variable, its
/// value and the accepted form.
/// The endpoint over the embedded catalog with `config`.
fn endpoint_with(config: skills_edge::http::HttpConfig) -> Result<Endpoint, String> {
    let catalog = skills_edge::embedded::catalog()
        .map_err(|e| format!("the embedded skills catalog cannot be read: {e}"))?;
    Endpoint::new(catalog, config).map_err(|e| settings::named_for(Source::Var, e).to_string())
}

impl Guest for Component {
    fn handle(request: IncomingRequest, out: ResponseOutparam) {
        let response = match endpoint() {
            Ok(endpoint) => respond(endpoint, request),
            Err(message) => {
                eprintln!("skills-edge: {message}");
                Response::refused(&Refusal::Misconfigured {
                    message: message.clone(),
                })
            }
        };
        send(out, response);
    }
}

/// The endpoint's response to one request.
fn respond(endpoint: &Endpoint, request: IncomingRequest) -> Response {
    let method = request.method();
    let path_with_query = request.path_with_query().unwrap_or_default();
    let path = path_with_query.split('?').next().unwrap_or_default();
    let headers = joined_headers(&request.headers());
    let authority = request.authority();
    let mut head = Head::from_headers(
        method_name(&method),
        path,
        headers.iter().map(|(n, v)| (*n, v.as_str())),
    );
    head.host = head.host.or(authority.as_deref());
    match endpoint.head(&head) {
        Step::Respond(r) => r,
        // The component has no static files: the inspector page is the Worker's.
        Step::Page { missing, .. } => missing,
        Step::ReadBody { limit } => match read_body(request, limit) {
            Body::Complete(body) => endpoint.body(&head, &body),
            Body::TooLarge => endpoint.body_too_large(&head),
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
    /// The host could not deliver it; why.
    Unreadable(String),
}

/// Reads the body through a [`BodyReader`]: at most `limit + 1` bytes are kept; an oversized
/// body is drained (and dropped) up to the reader's bound, then the stream is left.
fn read_body(request: IncomingRequest, limit: usize) -> Body {
    let Ok(body) = request.consume() else {
        return Body::Unreadable("the request body was already taken".into());
    };
    let mut reader = BodyReader::new(limit);
    {
        let Ok(stream) = body.stream() else {
            return Body::Unreadable("the request body stream was already taken".into());
        };
        loop {
            // While within the limit, ask for no more than is kept; past it, drain in 64 KiB reads.
            let want = match reader.room() {
                0 => 64 * 1024,
                room => room.min(64 * 1024),
            };
            match stream.blocking_read(want as u64) {
                Ok(chunk) => {
                    if !reader.push(&chunk) {
                        break;
                    }
                }
                Err(StreamError::Closed) => break,
                Err(StreamError::LastOperationFailed(e)) => {
                    return Body::Unreadable(format!(
                        "reading the request body failed: {}",
                        e.to_debug_string()
                    ))
                }
            }
        }
    }
    drop(IncomingBody::finish(body));
    match reader.finish() {
        Some(bytes) => Body::Complete(bytes),
        None => Body::TooLarge,
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
