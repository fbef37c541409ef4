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
//!   content (the Cloudflare Worker's Static Assets; see docs/pack-format.md, "Assets").
//! * `--strict` (both): frontmatter that the official MCP TypeScript SDK 2.4 cannot read
//!   (`frontmatter-sdk-*`) is an error instead of a warning, as `SKILLS_STRICT=1` makes it for
//!   the build.
//! * `--skip-invalid` (both): an invalid skill is left out, its errors printed as warnings
//!   naming it, and the rest is published, as `SKILLS_ON_INVALID=skip` makes it for the build.
//! * `--sign PATH` (both) signs every skill with the secret key in PATH, for the catalog
//!   identity `--catalog-id ID` (default: the key's id), as `SKILLS_SIGNING_KEY` and
//!   `SKILLS_CATALOG_ID` make it for the build; `check` then prints the key id and the identity.
//! * `skills-edge keygen --out DIR` makes a signing key: `DIR/signing.key` (secret, mode 0600)
//!   and `DIR/signing.pub`, from the operating system's random source (`getrandom`).
//! * `skills-edge verify <url>` lists every skill of an MCP server over Streamable HTTP and
//!   loads and verifies every file: the run, the table, the JSON lines and the exit status are
//!   `skills_edge::command`'s (`verify`, and its report), shared with the npm package's command; this crate
//!   only supplies the HTTP client (ureq: blocking, rustls for https).
//!
//! * `skills-edge search <url> <query>` asks an MCP server's `search_skills` tool
//!   (docs/search.md) and prints its results, best first; it says so when the server does not
//!   offer the tool.
//!
//! The arguments of every subcommand and the usage text are the library's
//! (`skills_edge::command::args`), read by the same code as the npm package's command; this
//! crate does the I/O: files, stdin and stdout, the network.

#[cfg(not(target_family = "wasm"))]
mod keygen;
#[cfg(not(target_family = "wasm"))]
mod packing;
#[cfg(not(target_family = "wasm"))]
mod publish;
#[cfg(not(target_family = "wasm"))]
mod search;
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

/// The command line: read by the library's one parser (`skills_edge::command::args`, which
/// the npm package's command runs too), then dispatched to the commands.
#[cfg(not(target_family = "wasm"))]
mod native {
    use crate::keygen::keygen;
    use crate::packing::pack_command;
    use crate::stdio::stdio;
    use crate::verify;
    use skills_edge::command::args::{self, Invocation, Program};
    use std::process::ExitCode;

    pub fn main() -> ExitCode {
        let args: Vec<String> = std::env::args().skip(1).collect();
        // `publish` and `gc` (a catalog in an R2 bucket) read their own flags and hand the
        // folder's to the pack command's parser (crate::publish).
        match args.first().map(String::as_str) {
            Some("publish") => return crate::publish::command(&args[1..], false),
            Some("gc") => return crate::publish::command(&args[1..], true),
            Some("search") => return crate::search::command(&args[1..]),
            _ => {}
        }
        // `SKILLS_STRICT`, `SKILLS_ON_INVALID`, `SKILLS_SIGNING_KEY` and `SKILLS_CATALOG_ID` are
        // the defaults of `--strict`, `--skip-invalid`, `--sign` and `--catalog-id`, read as
        // the build reads them, so `scripts/build-worker.sh` and `scripts/serve.sh`, which run
        // `pack`, honour them.
        let invocation = match args::parse(Program::Native, &args, |v| std::env::var(v).ok()) {
            Ok(i) => i,
            Err(e) => return usage_error(&e.message),
        };
        match invocation {
            Invocation::Stdio(config) => stdio(config).unwrap_or_else(|e| usage_error(&e)),
            Invocation::Check(a) | Invocation::Pack(a) => pack_command(&a),
            Invocation::Verify(a) => verify::command(&a),
            Invocation::Keygen(a) => keygen(&a),
            // Not a subcommand of this program: `parse` refuses it.
            Invocation::Worker(_) => usage_error("unknown command \"worker\""),
            Invocation::Version => {
                println!("skills-edge {}", env!("CARGO_PKG_VERSION"));
                ExitCode::SUCCESS
            }
            Invocation::Help(text) => {
                print!("{text}");
                ExitCode::SUCCESS
            }
        }
    }

    /// Prints `msg` and the usage text; exit status 2.
    fn usage_error(msg: &str) -> ExitCode {
        eprintln!("error: {msg}\n\n{}", args::usage(Program::Native));
        ExitCode::from(2)
    }
}
