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
//!   `skills_edge::command::report`'s, shared with the npm package's command; this file
//!   only supplies the HTTP client (ureq: blocking, rustls for https).

#[cfg(not(target_family = "wasm"))]
mod packing;
#[cfg(not(target_family = "wasm"))]
mod stdio;
#[cfg(not(target_family = "wasm"))]
mod verify;

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

/// The command line: dispatch to the commands, the usage text.
#[cfg(not(target_family = "wasm"))]
mod native {
    use crate::packing::{pack_command, parse_check_args, parse_pack_args};
    use crate::stdio::{stdio, stdio_options};
    use crate::verify;
    use skills_edge::catalog::pack;
    use skills_edge::command::report::{VerifyArgs, VERIFY_USAGE};
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
    SKILLS_STRICT=1 and SKILLS_ON_INVALID=skip in the environment turn --strict and
        --skip-invalid on for check and pack, as they do for the build.
{verify_usage}    skills-edge --version | --help
";

    pub fn main() -> ExitCode {
        let args: Vec<String> = std::env::args().skip(1).collect();
        match args.first().map(String::as_str) {
            Some("stdio") => stdio(&args[1..]).unwrap_or_else(|e| usage_error(&e)),
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

    /// Prints `msg` and the usage text; exit status 2.
    fn usage_error(msg: &str) -> ExitCode {
        eprintln!("error: {msg}\n\n{}", usage());
        ExitCode::from(2)
    }

    fn usage() -> String {
        USAGE
            .replace("{stdio_options}\n", &stdio_options())
            .replace("{inline_max}", &pack::DEFAULT_INLINE_MAX.to_string())
            .replace("{verify_usage}", VERIFY_USAGE)
    }
}
