//! `skills-edge`: the native command.
//!
//! * `skills-edge stdio [options]` serves the embedded catalog over MCP's stdio transport:
//!   newline-delimited JSON-RPC on stdin/stdout, logs on stderr, exit on end of input.
//! * `skills-edge check <dir>` checks a skills folder with the same compiler the build uses and
//!   prints the entries it would publish as JSON; problems go to stderr and exit status 1.
//! * `skills-edge pack <dir> -o <file>` compiles a skills folder into a pack (the format the
//!   embedded catalog uses, loadable by the npm package's `SkillsServer`); `--check` prints
//!   the entries instead of writing. The npm package's `skills-edge` command takes the same
//!   arguments and prints the same messages.
//! * `skills-edge pack <dir> -o <file> --assets <out> [--inline-max BYTES]` leaves the files
//!   larger than `BYTES` out of the pack and writes them into `<out>` as assets named by
//!   content (the Cloudflare Worker's Static Assets; see `skills_edge::catalog::pack`).
//! * `--strict` (both): frontmatter that the official MCP TypeScript SDK 2.4 cannot read
//!   (`frontmatter-sdk-*`) is an error instead of a warning, as `SKILLS_STRICT=1` makes it for
//!   the build.
//! * `--skip-invalid` (both): an invalid skill is left out, its errors printed as warnings
//!   naming it, and the rest is published, as `SKILLS_ON_INVALID=skip` makes it for the build.
//! * `skills-edge verify <url>` lists every skill of an MCP server over Streamable HTTP and
//!   loads and verifies every file: the run, the table, the JSON lines and the exit status are
//!   `skills_edge::host::client::report`'s, shared with the npm package's command; this file
//!   only supplies the HTTP client (ureq: blocking, rustls for https).

#[cfg(not(target_family = "wasm"))]
fn main() -> std::process::ExitCode {
    native::main()
}

/// On WebAssembly targets the library is used through the npm package, the Worker or the
/// component; the command needs a file system and a terminal.
#[cfg(target_family = "wasm")]
fn main() {
    eprintln!("skills-edge: the command runs natively only");
    std::process::exit(2);
}

#[cfg(not(target_family = "wasm"))]
mod native {
    use skills_edge::catalog::{compile, pack, walk};
    use skills_edge::host::client::report::{VerifyArgs, VERIFY_USAGE};
    use skills_edge::protocol::{reply, Refusal};
    use skills_edge::server::{Config, Responder, Transport};
    use skills_edge::settings::{self, Scope, Setting, Source, SETTINGS};
    use std::io::{self, BufRead, Write};
    use std::path::Path;
    use std::process::ExitCode;

    const USAGE: &str = "skills-edge: serve and verify Agent Skills over MCP

USAGE:
    skills-edge stdio [OPTIONS]
        Serve the embedded skills over stdio (newline-delimited JSON-RPC). Exits on end of input.
        OPTIONS (each at most once):
{stdio_options}
    skills-edge check <dir> [--strict] [--skip-invalid]
        Check a skills folder; print the entries it would publish (JSON) on stdout,
        problems on stderr; exit status 1 when the folder cannot be published.
    skills-edge pack <dir> (-o <file> | --check) [--instructions TEXT] [--strict] [--skip-invalid]
                     [--assets DIR [--inline-max BYTES]]
        Compile a skills folder into a pack (served by the npm package's SkillsServer);
        --check prints the entries instead of writing. Exit status 1 on any error.
        --assets DIR leaves every file larger than BYTES (default {inline_max}) out of the
        pack and writes it into DIR as two files named by its SHA-256: <hex> (its bytes) and
        <hex>.json (its resources/read JSON string), for the Cloudflare Worker's Static
        Assets. DIR is created if missing; files already in it are overwritten or left as
        they are, so give a fresh folder.
    --strict: frontmatter the official MCP TypeScript SDK 2.4 cannot read
        (frontmatter-sdk-* warnings) is an error.
    --skip-invalid: an invalid skill is left out (its errors become warnings naming it)
        and the other skills are published.
{verify_usage}    skills-edge --version | --help
";

    /// Largest accepted stdio message (bytes); longer lines are refused and skipped.
    const MAX_LINE: usize = 4 * 1024 * 1024;

    pub fn main() -> ExitCode {
        let args: Vec<String> = std::env::args().skip(1).collect();
        match args.first().map(String::as_str) {
            Some("stdio") => stdio(&args[1..]),
            Some("check") => match parse_check_args(&args[1..]) {
                Ok(a) => pack_command(&a),
                Err(e) => usage_error(&e),
            },
            Some("pack") => match parse_pack_args(&args[1..]) {
                Ok(a) => pack_command(&a),
                Err(e) => usage_error(&e),
            },
            Some("verify") => match VerifyArgs::parse(&args[1..]) {
                Ok(a) => verify::command(&a),
                Err(e) => usage_error(&e),
            },
            Some("--version" | "-V") => {
                println!("skills-edge {}", env!("CARGO_PKG_VERSION"));
                ExitCode::SUCCESS
            }
            Some("--help" | "-h" | "help") => {
                print!("{}", usage());
                ExitCode::SUCCESS
            }
            Some(other) => usage_error(&format!("unknown command {other:?}")),
            None => usage_error("missing command"),
        }
    }

    fn usage_error(msg: &str) -> ExitCode {
        eprintln!("error: {msg}\n\n{}", usage());
        ExitCode::from(2)
    }

    /// The options of `stdio`: the responder's settings, by their flags (see
    /// `skills_edge::settings`), each at most once.
    fn parse_config(args: &[String]) -> Result<Config, String> {
        let mut given: Vec<(&'static Setting, String)> = Vec::new();
        let mut it = args.iter();
        while let Some(flag) = it.next() {
            let Some(setting) = SETTINGS
                .iter()
                .find(|s| s.scope == Scope::Responder && s.flag == flag)
            else {
                return Err(format!("unknown option {flag:?}"));
            };
            let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
            if given.iter().any(|(s, _)| s.flag == setting.flag) {
                return Err(format!("{flag} is given twice"));
            }
            given.push((setting, value.clone()));
        }
        settings::server_config(Source::Flag, |s| {
            given
                .iter()
                .find(|(g, _)| g.flag == s.flag)
                .map(|(_, v)| v.clone())
        })
        .map_err(|e| e.to_string())
    }

    fn usage() -> String {
        USAGE
            .replace("{stdio_options}\n", &stdio_options())
            .replace("{inline_max}", &pack::DEFAULT_INLINE_MAX.to_string())
            .replace("{verify_usage}", VERIFY_USAGE)
    }

    /// The `stdio` options for the usage text, from the settings table.
    fn stdio_options() -> String {
        let mut out = String::new();
        for s in SETTINGS.iter().filter(|s| s.scope == Scope::Responder) {
            out.push_str(&format!(
                "        {} VALUE\n            {}; default: {}; {}\n",
                s.flag, s.doc, s.default, s.form
            ));
        }
        out
    }

    fn stdio(args: &[String]) -> ExitCode {
        let cfg = match parse_config(args) {
            Ok(c) => c,
            Err(e) => return usage_error(&e),
        };
        let catalog = match skills_edge::embedded::catalog() {
            Ok(c) => c,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        };
        eprintln!(
            "skills-edge {}: serving {} skills ({} files) over stdio",
            env!("CARGO_PKG_VERSION"),
            catalog.skill_count(),
            catalog.file_count()
        );
        let responder = match Responder::new(catalog, cfg) {
            Ok(r) => r,
            Err(e) => return usage_error(&e.to_string()),
        };
        let stdin = io::stdin();
        let mut input = stdin.lock();
        let stdout = io::stdout();
        let mut out = io::BufWriter::new(stdout.lock());
        let mut line = Vec::new();
        loop {
            line.clear();
            let (ended, too_long) = match read_line(&mut input, &mut line) {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("error: reading stdin: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let msg = trim_line(&line);
            let reply = if too_long {
                eprintln!("warning: refused a message longer than {MAX_LINE} bytes");
                Some(reply::refusal(&Refusal::TooLarge { limit: MAX_LINE }))
            } else if msg.is_empty() {
                None
            } else {
                responder.respond(msg, &Transport::Stream).body
            };
            if let Some(body) = reply {
                if out
                    .write_all(&body)
                    .and_then(|_| out.write_all(b"\n"))
                    .and_then(|_| out.flush())
                    .is_err()
                {
                    // The client closed its end; nothing more can be delivered.
                    return ExitCode::SUCCESS;
                }
            }
            if ended {
                return ExitCode::SUCCESS;
            }
        }
    }

    /// Reads one line (without keeping more than [`MAX_LINE`] bytes). Returns (end of input,
    /// line too long).
    fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<(bool, bool)> {
        let mut too_long = false;
        loop {
            let buf = input.fill_buf()?;
            if buf.is_empty() {
                return Ok((true, too_long));
            }
            let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (&buf[..i], Some(i + 1)),
                None => (buf, None),
            };
            if line.len() + chunk.len() > MAX_LINE {
                too_long = true;
                line.clear();
            } else if !too_long {
                line.extend_from_slice(chunk);
            }
            let consumed = done.unwrap_or(buf.len());
            input.consume(consumed);
            if done.is_some() {
                return Ok((false, too_long));
            }
        }
    }

    fn trim_line(line: &[u8]) -> &[u8] {
        let mut l = line;
        while let [rest @ .., b'\r' | b' ' | b'\t'] = l {
            l = rest;
        }
        l
    }

    /// `check <dir> [--strict] [--skip-invalid]`: `pack --check` with fewer options.
    fn parse_check_args(args: &[String]) -> Result<PackArgs, String> {
        let mut a = PackArgs::default();
        let mut dir = None;
        for arg in args {
            match arg.as_str() {
                "--strict" => a.options.strict = true,
                "--skip-invalid" => a.options.skip_invalid = true,
                s if s.starts_with('-') && s.len() > 1 => {
                    return Err(format!("unknown option {s:?}"))
                }
                _ if dir.is_some() => {
                    return Err(
                        "check takes exactly one folder (and --strict, --skip-invalid)".into(),
                    )
                }
                _ => dir = Some(arg.clone()),
            }
        }
        a.dir = dir.ok_or("check takes exactly one folder (and --strict, --skip-invalid)")?;
        Ok(a)
    }

    /// Arguments of `pack`; no output means `--check`.
    #[derive(Default)]
    struct PackArgs {
        dir: String,
        output: Option<String>,
        instructions: Option<String>,
        /// Where the files left out go, and which files those are.
        assets: Option<(String, pack::AssetPolicy)>,
        /// `--strict` and `--skip-invalid`.
        options: compile::Options,
    }

    /// The largest file Workers Static Assets accept (25 MiB, per file).
    const MAX_ASSET_BYTES: usize = 25 * 1024 * 1024;

    /// Pack size above which the Worker's upload may exceed the free plan's 3 MB compressed
    /// limit (a pack of binary files hardly compresses).
    const MAX_PACK_FREE: usize = 3 * 1000 * 1000 - 200 * 1000;

    /// Most Static Assets files per Worker version on the Workers free plan.
    const MAX_ASSETS_FREE: usize = 20_000;

    fn parse_pack_args(args: &[String]) -> Result<PackArgs, String> {
        let mut dir = None;
        let mut output = None;
        let mut check = false;
        let mut options = compile::Options::default();
        let mut instructions = None;
        let mut assets_dir = None;
        let mut inline_max = None;
        let mut it = args.iter();
        while let Some(a) = it.next() {
            match a.as_str() {
                "-o" | "--output" => {
                    output = Some(it.next().ok_or("-o needs a file name")?.clone());
                }
                "--assets" => {
                    assets_dir = Some(it.next().ok_or("--assets needs a folder")?.clone());
                }
                "--inline-max" => {
                    let v = it.next().ok_or("--inline-max needs a number of bytes")?;
                    let n = v
                        .parse::<u64>()
                        .ok()
                        .filter(|_| v.bytes().all(|b| b.is_ascii_digit()))
                        .ok_or_else(|| {
                            format!("--inline-max {v:?} is not a number of bytes: use a decimal integer such as 16384")
                        })?;
                    inline_max = Some(n);
                }
                "--check" => check = true,
                "--strict" => options.strict = true,
                "--skip-invalid" => options.skip_invalid = true,
                "--instructions" => {
                    instructions = Some(it.next().ok_or("--instructions needs a text")?.clone());
                }
                s if s.starts_with('-') && s.len() > 1 => {
                    return Err(format!("unknown option {s:?}"))
                }
                _ if dir.is_some() => return Err("pack takes exactly one folder".into()),
                _ => dir = Some(a.clone()),
            }
        }
        let dir = dir.ok_or("pack needs a skills folder")?;
        let assets = match (assets_dir, inline_max) {
            (Some(d), n) => Some((
                d,
                n.map_or_else(pack::AssetPolicy::default, |inline_max| pack::AssetPolicy {
                    inline_max,
                }),
            )),
            (None, Some(_)) => {
                return Err("--inline-max needs --assets DIR (where the files left out go)".into())
            }
            (None, None) => None,
        };
        match (&output, check) {
            (Some(_), true) => Err("give either -o <file> or --check, not both".into()),
            (None, false) => Err("pack needs -o <file> (or --check to only check)".into()),
            (None, true) if assets.is_some() => {
                Err("--assets writes files: give -o <file>, not --check".into())
            }
            _ => Ok(PackArgs {
                dir,
                output,
                instructions,
                assets,
                options,
            }),
        }
    }

    /// `check` and `pack`: compile the folder; print the entries (checking) or write the pack.
    fn pack_command(a: &PackArgs) -> ExitCode {
        let walked = walk::walk(Path::new(&a.dir));
        let c = match compile::compile_with(walked.tree, a.options) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("{}", e.render(&a.dir));
                return ExitCode::FAILURE;
            }
        };
        for w in &c.warnings {
            eprintln!("{}", w.render(&a.dir));
        }
        let bytes: u64 = c.files.iter().map(|f| f.size).sum();
        let summary = format!(
            "{}: {} skills, {} files, {bytes} bytes",
            a.dir,
            c.skills.len(),
            c.files.len()
        );
        let Some(output) = &a.output else {
            let mut out = String::from("[");
            for (i, s) in c.skills.iter().enumerate() {
                out.push_str(if i == 0 { "\n  " } else { ",\n  " });
                out.push_str(&c.entry_json(s));
            }
            out.push_str(if c.skills.is_empty() { "]\n" } else { "\n]\n" });
            print!("{out}");
            eprintln!("{summary}: ok");
            return ExitCode::SUCCESS;
        };
        let packed = pack::encode_with(
            &c,
            &pack::PackOptions {
                instructions: a.instructions.as_deref(),
                assets: a.assets.as_ref().map(|(_, policy)| *policy),
            },
        );
        if let Some(big) = packed
            .assets
            .iter()
            .find(|x| x.bytes.len() > MAX_ASSET_BYTES)
        {
            let hex = big.name.strip_suffix(".json").unwrap_or(&big.name);
            let uri = c
                .files
                .iter()
                .find(|f| pack::raw_asset_name(&f.digest) == hex)
                .map_or("a file", |f| f.uri.as_str());
            eprintln!(
                "error: the asset {} of {uri} is {} bytes; Workers Static Assets take files up to {MAX_ASSET_BYTES} bytes (25 MiB)\n  fix: split the file, or store it compressed (a text file with many control characters grows up to six times when escaped as JSON)",
                big.name,
                big.bytes.len()
            );
            return ExitCode::FAILURE;
        }
        if let Err(e) = std::fs::write(output, &packed.pack) {
            eprintln!("error: cannot write {output}: {e}\n  fix: check that its folder exists and is writable");
            return ExitCode::FAILURE;
        }
        let Some((assets_dir, policy)) = &a.assets else {
            eprintln!("{summary}: wrote {output} ({} bytes)", packed.pack.len());
            return ExitCode::SUCCESS;
        };
        if let Err(e) = write_assets(Path::new(assets_dir), &packed.assets) {
            eprintln!("error: cannot write the assets into {assets_dir}: {e}\n  fix: check that the folder can be created and written");
            return ExitCode::FAILURE;
        }
        let out_files: Vec<_> = c
            .files
            .iter()
            .filter(|f| f.size > policy.inline_max)
            .collect();
        let inline_bytes = bytes - out_files.iter().map(|f| f.size).sum::<u64>();
        let asset_bytes: usize = packed.assets.iter().map(|x| x.bytes.len()).sum();
        eprintln!(
            "{summary}: wrote {output} ({} bytes; {} files, {inline_bytes} bytes inline); {} assets ({} files left out, {asset_bytes} bytes) in {assets_dir}",
            packed.pack.len(),
            c.files.len() - out_files.len(),
            packed.assets.len(),
            out_files.len(),
        );
        if packed.pack.len() > MAX_PACK_FREE {
            eprintln!(
                "warning: the pack is {} bytes: with the Worker's wasm its upload may exceed the Workers free plan's 3 MB compressed limit (`npx wrangler deploy --dry-run` prints the gzip size)\n  fix: lower --inline-max (0 keeps every non-empty file out of the pack)",
                packed.pack.len()
            );
        }
        if packed.assets.len() > MAX_ASSETS_FREE {
            eprintln!(
                "warning: {} assets: a Worker version takes up to {MAX_ASSETS_FREE} Static Assets files on the Workers free plan (100000 on paid plans)\n  fix: raise --inline-max, or deploy on a paid plan",
                packed.assets.len()
            );
        }
        ExitCode::SUCCESS
    }

    /// Writes each asset into `dir` (created if missing) under its name.
    fn write_assets(dir: &Path, assets: &[pack::Asset]) -> io::Result<()> {
        std::fs::create_dir_all(dir)?;
        for x in assets {
            std::fs::write(dir.join(&x.name), &x.bytes)?;
        }
        Ok(())
    }

    /// `verify`: the report's run over a blocking HTTP client.
    mod verify {
        use skills_edge::host::client::block_on;
        use skills_edge::host::client::http::{HttpIo, HttpRequest, HttpResponse, ResponseBody};
        use skills_edge::host::client::report::{verify_command, VerifyArgs};
        use skills_edge::host::{ErrorCode, VerifyError};
        use std::future::{ready, Future};
        use std::io::{self, Read, Write};
        use std::process::ExitCode;
        use std::time::{Duration, Instant};

        type Result<T> = std::result::Result<T, VerifyError>;

        /// POSTs to the URL with the caller's headers, every request bounded by the timeout
        /// (body included), redirects not followed (MCP endpoints answer in place; a 3xx is
        /// reported as `http-status`).
        struct Ureq {
            agent: ureq::Agent,
            url: String,
            headers: Vec<(String, String)>,
            started: Instant,
            timeout_ms: u64,
        }

        struct Body(ureq::BodyReader<'static>, u64);

        fn failure(e: &ureq::Error, timeout_ms: u64) -> VerifyError {
            match e {
                ureq::Error::Timeout(_) => VerifyError::new(
                    ErrorCode::Timeout,
                    format!("the request did not complete within {timeout_ms} ms"),
                ),
                ureq::Error::Io(io) if io.kind() != io::ErrorKind::TimedOut => VerifyError::new(
                    ErrorCode::ConnectionFailed,
                    format!("the server could not be reached: {io}"),
                ),
                ureq::Error::Io(io) => io_failure(io, timeout_ms),
                other => VerifyError::new(
                    ErrorCode::ConnectionFailed,
                    format!("the server could not be reached: {other}"),
                ),
            }
        }

        fn io_failure(e: &io::Error, timeout_ms: u64) -> VerifyError {
            let inner = e.get_ref().and_then(|i| i.downcast_ref::<ureq::Error>());
            match inner {
                Some(u) if !matches!(u, ureq::Error::Io(_)) => failure(u, timeout_ms),
                _ if e.kind() == io::ErrorKind::TimedOut => VerifyError::new(
                    ErrorCode::Timeout,
                    format!("the request did not complete within {timeout_ms} ms"),
                ),
                _ => VerifyError::new(
                    ErrorCode::ConnectionFailed,
                    format!("the connection failed: {e}"),
                ),
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

            fn post(
                &self,
                request: HttpRequest,
            ) -> impl Future<Output = Result<HttpResponse<Body>>> {
                let mut req = self.agent.post(&self.url);
                for (k, v) in self.headers.iter().chain(&request.headers) {
                    req = req.header(k.as_str(), v.as_str());
                }
                ready(match req.send(request.body.as_bytes()) {
                    Ok(resp) => {
                        let header = |n: &str| {
                            resp.headers()
                                .get(n)
                                .and_then(|v| v.to_str().ok())
                                .map(str::to_owned)
                        };
                        let status = resp.status().as_u16();
                        let content_type = header("content-type");
                        let session_id = header("mcp-session-id");
                        Ok(HttpResponse {
                            status,
                            content_type,
                            session_id,
                            body: Body(resp.into_body().into_reader(), self.timeout_ms),
                        })
                    }
                    Err(e) => Err(failure(&e, self.timeout_ms)),
                })
            }

            fn now_ms(&self) -> f64 {
                self.started.elapsed().as_secs_f64() * 1000.0
            }
        }

        pub fn command(args: &VerifyArgs) -> ExitCode {
            let config = ureq::Agent::config_builder()
                .http_status_as_error(false)
                .max_redirects(0)
                .timeout_global(Some(Duration::from_millis(args.timeout_ms)))
                .user_agent(concat!("skills-edge/", env!("CARGO_PKG_VERSION")))
                .build();
            let io = Ureq {
                agent: config.into(),
                url: args.url.clone(),
                headers: args.headers.clone(),
                started: Instant::now(),
                timeout_ms: args.timeout_ms,
            };
            let out = block_on(verify_command(args, &io));
            // A closed stdout (a pipe to `head`) is not an error of the run.
            let _ = io::stdout().write_all(out.stdout.as_bytes());
            let _ = io::stdout().flush();
            let _ = io::stderr().write_all(out.stderr.as_bytes());
            ExitCode::from(out.exit_code)
        }
    }
}
