//! `skills-edge verify <url>`: the report's run (`skills_edge::command::report`, shared
//! with the npm package's command) over a blocking HTTP client (ureq: rustls for https).
//! Only the report's output is printed: its table, summary and error line, where everything
//! the server said is already escaped for the terminal (`report::escape_for_terminal`), or
//! its JSON lines. The `--trust` key files and the `--pins` file are read here (a pins file
//! that does not exist yet is no pins) and the pins written back after the run.

use skills_edge::client::http::{HttpIo, HttpRequest, HttpResponse, ResponseBody};
use skills_edge::client::{block_on, ClientError, ExchangeKind};
use skills_edge::command::args::VerifyArgs;
use skills_edge::command::verify::{verify_command, SignerFiles};
use skills_edge::host::index::same_origin;
use std::future::{ready, Future};
use std::io::{self, Read, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

type Result<T> = std::result::Result<T, ClientError>;

/// POSTs to the URL with the caller's headers, every request bounded by the timeout
/// (body included), redirects not followed (MCP endpoints answer in place; a 3xx is
/// reported as `http-status`). GETs (a well-known index and its artifacts) follow up to five
/// redirects, as the Agent Skills Discovery RFC asks of clients.
struct Ureq {
    agent: ureq::Agent,
    get_agent: ureq::Agent,
    url: String,
    headers: Vec<(String, String)>,
    started: Instant,
    timeout_ms: u64,
}

struct Body(ureq::BodyReader<'static>, u64);

fn failure(e: &ureq::Error, timeout_ms: u64) -> ClientError {
    match e {
        ureq::Error::Timeout(_) => ClientError::exchange(
            ExchangeKind::Timeout,
            format!("the request did not complete within {timeout_ms} ms"),
        ),
        ureq::Error::Io(io) if io.kind() != io::ErrorKind::TimedOut => ClientError::exchange(
            ExchangeKind::ConnectionFailed,
            format!("the server could not be reached: {io}"),
        ),
        ureq::Error::Io(io) => io_failure(io, timeout_ms),
        other => ClientError::exchange(
            ExchangeKind::ConnectionFailed,
            format!("the server could not be reached: {other}"),
        ),
    }
}

fn io_failure(e: &io::Error, timeout_ms: u64) -> ClientError {
    let inner = e.get_ref().and_then(|i| i.downcast_ref::<ureq::Error>());
    match inner {
        Some(u) if !matches!(u, ureq::Error::Io(_)) => failure(u, timeout_ms),
        _ if e.kind() == io::ErrorKind::TimedOut => ClientError::exchange(
            ExchangeKind::Timeout,
            format!("the request did not complete within {timeout_ms} ms"),
        ),
        _ => ClientError::exchange(
            ExchangeKind::ConnectionFailed,
            format!("the connection failed: {e}"),
        ),
    }
}

/// The parts of a response the client reads: status, `Content-Type`, `WWW-Authenticate` and,
/// when `session` (a POST to the MCP endpoint), `Mcp-Session-Id`; the body streams.
fn response(
    resp: ureq::http::Response<ureq::Body>,
    session: bool,
    timeout_ms: u64,
) -> HttpResponse<Body> {
    let header = |n: &str| {
        resp.headers()
            .get(n)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let content_type = header("content-type");
    let session_id = if session {
        header("mcp-session-id")
    } else {
        None
    };
    let www_authenticate = header("www-authenticate");
    HttpResponse {
        status: resp.status().as_u16(),
        content_type,
        session_id,
        www_authenticate,
        body: Body(resp.into_body().into_reader(), timeout_ms),
    }
}

impl ResponseBody for Body {
    fn next_chunk(&mut self) -> impl Future<Output = Result<Option<Vec<u8>>>> {
        let mut buf = vec![0u8; 64 * 1024];
        ready(match self.0.read(&mut buf) {
            Ok(0) => Ok(None),
            Ok(n) => {
                buf.truncate(n);
                Ok(Some(buf))
            }
            Err(e) => Err(io_failure(&e, self.1)),
        })
    }
}

impl HttpIo for Ureq {
    type Body = Body;

    fn post(&self, request: HttpRequest) -> impl Future<Output = Result<HttpResponse<Body>>> {
        let mut req = self.agent.post(&self.url);
        for (k, v) in self.headers.iter().chain(&request.headers) {
            req = req.header(k.as_str(), v.as_str());
        }
        ready(match req.send(request.body.as_bytes()) {
            Ok(resp) => Ok(response(resp, true, self.timeout_ms)),
            Err(e) => Err(failure(&e, self.timeout_ms)),
        })
    }

    fn get(&self, url: &str) -> impl Future<Output = Result<HttpResponse<Body>>> {
        let mut req = self.get_agent.get(url);
        // The caller's headers go to the origin they named only (an index names artifacts
        // on any host).
        if same_origin(&self.url, url) {
            for (k, v) in &self.headers {
                req = req.header(k.as_str(), v.as_str());
            }
        }
        // The challenge of a 401 is read too (a well-known source's index, explained as the
        // MCP endpoint's is); a GET has no MCP session.
        ready(match req.call() {
            Ok(resp) => Ok(response(resp, false, self.timeout_ms)),
            Err(e) => Err(failure(&e, self.timeout_ms)),
        })
    }

    fn now_ms(&self) -> f64 {
        self.started.elapsed().as_secs_f64() * 1000.0
    }

    fn endpoint(&self) -> Option<&str> {
        Some(&self.url)
    }

    fn sends_authorization(&self) -> bool {
        self.headers.iter().any(|(k, _)| k == "authorization")
    }
}

/// The `--trust` and `--pins` files' texts; the message of a usage error (exit status 2) when
/// one cannot be read. A pins file that does not exist is no pins yet.
fn signer_files(args: &VerifyArgs) -> std::result::Result<SignerFiles, String> {
    let mut files = SignerFiles::default();
    for path in &args.trust {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("--trust {path}: cannot be read: {e}"))?;
        files.trust.push(text);
    }
    if let Some(path) = &args.pins {
        files.pins = match std::fs::read_to_string(path) {
            Ok(text) => Some(text),
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(format!("--pins {path}: cannot be read: {e}")),
        };
    }
    Ok(files)
}

/// Runs `verify` with `args` and prints its output; the exit status is the report's (2 when a
/// `--trust` or `--pins` file cannot be read or written).
pub(crate) fn command(args: &VerifyArgs) -> ExitCode {
    let files = match signer_files(args) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let config = |redirects: u32| {
        ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_redirects(redirects)
            .timeout_global(Some(Duration::from_millis(args.timeout_ms)))
            .user_agent(concat!("skills-edge/", env!("CARGO_PKG_VERSION")))
            .build()
    };
    let io = Ureq {
        agent: config(0).into(),
        get_agent: config(5).into(),
        url: args.url.clone(),
        headers: args.headers.clone(),
        started: Instant::now(),
        timeout_ms: args.timeout_ms,
    };
    let out = block_on(verify_command(args, &files, &io));
    // A closed stdout (a pipe to `head`) is not an error of the run.
    let _ = io::stdout().write_all(out.stdout.as_bytes());
    let _ = io::stdout().flush();
    let _ = io::stderr().write_all(out.stderr.as_bytes());
    if let (Some(path), Some(pins)) = (&args.pins, &out.pins) {
        if let Err(e) = std::fs::write(path, format!("{pins}\n")) {
            eprintln!("error: --pins {path}: cannot be written: {e}");
            return ExitCode::from(2);
        }
    }
    ExitCode::from(out.exit_code)
}
