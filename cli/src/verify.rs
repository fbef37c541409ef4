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
use skills_edge::host::{resolve_reference_uri, same_origin};
use std::future::{ready, Future};
use std::io::{self, Read, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

type Result<T> = std::result::Result<T, ClientError>;

/// The most redirects one GET follows; the next one is an error naming the limit (the npm
/// package's transport has the same limit and the same message).
const MAX_REDIRECTS: usize = 5;

/// POSTs to the URL with the caller's headers, every request bounded by the timeout
/// (body included), redirects not followed (MCP endpoints answer in place; a 3xx is
/// reported as `http-status`). GETs (a well-known index, its artifacts, envelopes and keys,
/// protected resource metadata) follow up to [`MAX_REDIRECTS`] redirects, as the Agent Skills
/// Discovery RFC asks of clients, hop by hop here (ureq's own following is off), so that the
/// caller's headers go with a hop only when its origin is the origin of the URL given.
pub(crate) struct Ureq {
    agent: ureq::Agent,
    url: String,
    headers: Vec<(String, String)>,
    started: Instant,
    timeout_ms: u64,
}

pub(crate) struct Body(ureq::BodyReader<'static>, u64);

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
        ready(self.get_following(url))
    }

    fn now_ms(&self) -> f64 {
        self.started.elapsed().as_secs_f64() * 1000.0
    }

    fn endpoint(&self) -> Option<&str> {
        Some(&self.url)
    }

    fn sends_authorization(&self) -> bool {
        // A bearer token, or the token Cloudflare Access's header carries (AUTH_MODE access).
        self.headers
            .iter()
            .any(|(k, _)| k == "authorization" || k == "cf-access-jwt-assertion")
    }
}

impl Ureq {
    /// GETs `url`, following up to [`MAX_REDIRECTS`] redirects (301, 302, 303, 307, 308 with a
    /// `Location`, resolved against the hop that sent it, to `http` or `https` only). The
    /// caller's headers (`--header`, `--token`) go with a hop only when its origin is the
    /// origin of the URL given ([`same_origin`]): an index names artifacts on any host, and a
    /// redirect may point anywhere; neither ever sees the caller's headers. The whole GET, its
    /// hops and the final body, is bounded by the timeout. The challenge of a 401 is read too
    /// (a well-known source's index, explained as the MCP endpoint's is); a GET has no MCP
    /// session.
    fn get_following(&self, url: &str) -> Result<HttpResponse<Body>> {
        let deadline = Instant::now() + Duration::from_millis(self.timeout_ms);
        let mut hop = url.to_owned();
        let mut redirects = 0;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let mut req = self
                .agent
                .get(&hop)
                .config()
                .timeout_global(Some(left))
                .build();
            if same_origin(&self.url, &hop) {
                for (k, v) in &self.headers {
                    req = req.header(k.as_str(), v.as_str());
                }
            }
            let resp = req.call().map_err(|e| failure(&e, self.timeout_ms))?;
            let status = resp.status().as_u16();
            let location = resp
                .headers()
                .get("location")
                .and_then(|v| v.to_str().ok())
                .filter(|_| matches!(status, 301 | 302 | 303 | 307 | 308));
            let Some(location) = location else {
                return Ok(response(resp, false, self.timeout_ms));
            };
            let next = resolve_reference_uri(&hop, location.trim());
            if redirects == MAX_REDIRECTS {
                return Err(too_many_redirects(url, status, &next));
            }
            if !(next.starts_with("http://") || next.starts_with("https://")) {
                return Err(ClientError::exchange(
                    ExchangeKind::HttpStatus,
                    format!("GET {url} was redirected (HTTP {status}) to {next}, which is not an http(s) URL"),
                )
                .with_values("200", status.to_string()));
            }
            hop = next;
            redirects += 1;
        }
    }
}

/// A GET redirected once more than [`MAX_REDIRECTS`] allows: `http-status`, naming the limit.
fn too_many_redirects(url: &str, status: u16, next: &str) -> ClientError {
    ClientError::exchange(
        ExchangeKind::HttpStatus,
        format!(
            "GET {url} was redirected more than {MAX_REDIRECTS} times (the limit); the last answer was HTTP {status} to {next}"
        ),
    )
    .with_values("200", status.to_string())
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

/// The HTTP client of a run to `args.url` with `args.headers`, each request bounded by
/// `args.timeout_ms`. No request follows a redirect on its own: POSTs never do, GETs hop by
/// hop (`Ureq::get_following`).
pub(crate) fn ureq_io(args: &VerifyArgs) -> Ureq {
    let config = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .timeout_global(Some(Duration::from_millis(args.timeout_ms)))
        .user_agent(concat!("skills-edge/", env!("CARGO_PKG_VERSION")))
        .build();
    Ureq {
        agent: config.into(),
        url: args.url.clone(),
        headers: args.headers.clone(),
        started: Instant::now(),
        timeout_ms: args.timeout_ms,
    }
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
    let io = ureq_io(args);
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
