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
//! * `--strict` (both): frontmatter that the official MCP TypeScript SDK 2.4 cannot read
//!   (`frontmatter-sdk-*`) is an error instead of a warning, as `SKILLS_STRICT=1` makes it for
//!   the build.
//! * `--skip-invalid` (both): an invalid skill is left out, its errors printed as warnings
//!   naming it, and the rest is published, as `SKILLS_ON_INVALID=skip` makes it for the build.

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
        Compile a skills folder into a pack (served by the npm package's SkillsServer);
        --check prints the entries instead of writing. Exit status 1 on any error.
    --strict: frontmatter the official MCP TypeScript SDK 2.4 cannot read
        (frontmatter-sdk-* warnings) is an error.
    --skip-invalid: an invalid skill is left out (its errors become warnings naming it)
        and the other skills are published.
    skills-edge --version | --help
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
        USAGE.replace("{stdio_options}\n", &stdio_options())
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
        /// `--strict` and `--skip-invalid`.
        options: compile::Options,
    }

    fn parse_pack_args(args: &[String]) -> Result<PackArgs, String> {
        let mut dir = None;
        let mut output = None;
        let mut check = false;
        let mut options = compile::Options::default();
        let mut instructions = None;
        let mut it = args.iter();
        while let Some(a) = it.next() {
            match a.as_str() {
                "-o" | "--output" => {
                    output = Some(it.next().ok_or("-o needs a file name")?.clone());
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
        match (&output, check) {
            (Some(_), true) => Err("give either -o <file> or --check, not both".into()),
            (None, false) => Err("pack needs -o <file> (or --check to only check)".into()),
            _ => Ok(PackArgs {
                dir,
                output,
                instructions,
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
        let packed = pack::encode(&c, a.instructions.as_deref());
        if let Err(e) = std::fs::write(output, &packed) {
            eprintln!("error: cannot write {output}: {e}\n  fix: check that its folder exists and is writable");
            return ExitCode::FAILURE;
        }
        eprintln!("{summary}: wrote {output} ({} bytes)", packed.len());
        ExitCode::SUCCESS
    }
}
