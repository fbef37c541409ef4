//! The command lines of `skills-edge`, read in one place for both commands: the native command
//! (crate `skills-edge-cli`) and the npm package's (`bin/skills-edge.mjs`, through the wasm
//! export `parseCommand`). Both read `check`, `pack` and `verify` with the same code, so they
//! accept and refuse the same arguments with the same messages, and print usage text made
//! here. What differs is said here too ([`Program`]): each command has one subcommand of its
//! own (`stdio` natively, `worker` in the npm package), and only the native `pack` writes a
//! folder of Static Assets (`--assets`, `--inline-max`; the npm package's `worker` writes them
//! into a Worker project).
//!
//! Nothing here reads the process: the environment comes in as a function (`SKILLS_STRICT`,
//! `SKILLS_ON_INVALID`, `SKILLS_SIGNING_KEY` and `SKILLS_CATALOG_ID`, as the build reads them),
//! the arguments as strings. A signing key is only named here (its path); each command reads
//! the file itself and hands the bytes to `options::Signing::signer`.

mod pack;
#[cfg(test)]
mod tests;
mod usage;
mod verify;
mod worker;

pub use pack::PackArgs;
pub(crate) use usage::command_usage;
pub use usage::usage;
#[cfg(feature = "js")]
pub(crate) use usage::verify_usage;
pub use verify::SignerFiles;
pub use verify::VerifyArgs;
#[cfg(any(test, feature = "js"))]
pub(crate) use verify::TOKEN_ENV;
pub use worker::Route;
pub use worker::WorkerArgs;

use crate::server::Config;
use crate::settings::{self, Scope, Source};
use pack::{parse_check, parse_pack};
use worker::parse_worker;

/// The default time allowed for each request of `verify` and of the npm package's
/// `SkillsClient` (`timeoutMs`), in milliseconds.
pub(crate) const DEFAULT_TIMEOUT_MS: u64 = 30_000;

/// The longest `--timeout` (and `timeoutMs`), in milliseconds (one hour).
pub(crate) const MAX_TIMEOUT_MS: u64 = 3_600_000;

/// Which command reads the line: its own subcommands and its usage text.
///
/// ```
/// use skills_edge::command::args::{parse, usage, Invocation, Program};
/// # let line = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
/// let line = line(&["stdio", "--page-size", "5"]);
/// let Ok(Invocation::Stdio(config)) = parse(Program::Native, &line, |_| None) else { panic!("stdio") };
/// assert_eq!(config.page_size, 5);
/// // `stdio` is the native command's own.
/// assert_eq!(parse(Program::Npm, &line, |_| None).unwrap_err(), r#"unknown command "stdio""#);
/// assert!(usage(Program::Npm).contains("worker") && !usage(Program::Npm).contains("stdio"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Program {
    /// The native `skills-edge` (crate `skills-edge-cli`): `stdio`, and `pack --assets`.
    Native,
    /// The npm package's `skills-edge`: `worker`.
    Npm,
}

/// What a command line asks for.
///
/// ```
/// use skills_edge::command::args::{parse, Invocation, Program};
/// # let line = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
/// assert!(matches!(parse(Program::Npm, &line(&["-V"]), |_| None), Ok(Invocation::Version)));
/// let Ok(Invocation::Help(text)) = parse(Program::Native, &line(&["verify", "--help"]), |_| None) else { panic!() };
/// assert!(text.contains("verify"));
/// // The environment is read as the build reads it.
/// let strict = |name: &str| (name == "SKILLS_STRICT").then(|| "1".to_owned());
/// let Ok(Invocation::Check(a)) = parse(Program::Native, &line(&["check", "skills"]), strict) else { panic!() };
/// assert!(format!("{a:?}").contains("strict: true"), "--strict, in the compile options");
/// ```
#[derive(Debug)]
pub enum Invocation {
    /// `stdio [OPTIONS]` (native): serve the embedded catalog with this configuration.
    Stdio(Config),
    /// `check <dir>`: `pack --check` with fewer options.
    Check(PackArgs),
    /// `pack <dir> (-o <file> | --check)`.
    Pack(PackArgs),
    /// `worker <dir> --out <dir>` (npm): write a Cloudflare Worker project.
    Worker(WorkerArgs),
    /// `verify <url>`.
    Verify(VerifyArgs),
    /// `keygen --out <dir>`: make a signing key.
    Keygen(KeygenArgs),
    /// `--version` or `-V`.
    Version,
    /// `--help`, `-h` or `help`: the whole usage; `COMMAND --help` (or `-h`): that
    /// subcommand's (`command_usage`). The text to print on stdout (exit status 0).
    Help(String),
}

/// A command line that does not read: both commands print it as `error: MESSAGE`, then the
/// usage text, and exit with status 2.
///
/// ```
/// use skills_edge::command::args::{parse, Program};
/// let e = parse(Program::Native, &["pack".to_owned()], |_| None).unwrap_err();
/// assert_eq!(e.message, "pack needs a skills folder");
/// assert_eq!(e.to_string(), e.message);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError {
    /// What is wrong with the line, and how to write it.
    pub message: String,
}

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for UsageError {}

impl From<String> for UsageError {
    fn from(message: String) -> Self {
        UsageError { message }
    }
}

/// Compares the message, so a test states the words it expects.
impl PartialEq<&str> for UsageError {
    fn eq(&self, other: &&str) -> bool {
        self.message == *other
    }
}

/// Reads a whole command line (without the program name) as `program` reads it; `env` gives
/// the environment's `SKILLS_STRICT` and `SKILLS_ON_INVALID`.
///
/// ```
/// use skills_edge::command::args::{parse, Invocation, Program};
/// let line = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
/// let no_env = |_: &str| None;
/// let Ok(Invocation::Check(a)) = parse(Program::Npm, &line(&["check", "skills", "--strict"]), no_env) else {
///     panic!("a check");
/// };
/// assert_eq!(a.dir, "skills");
/// assert!(format!("{a:?}").contains("strict: true"), "--strict, in the compile options");
/// // The same refusal, with the same words, for both commands.
/// for p in [Program::Native, Program::Npm] {
///     let e = parse(p, &line(&["pack", "skills"]), no_env).unwrap_err();
///     assert_eq!(e, "pack needs -o <file> (or --check to only check)");
/// }
/// // Each command's own subcommand is unknown to the other.
/// assert!(parse(Program::Npm, &line(&["stdio"]), no_env).is_err());
/// assert!(parse(Program::Native, &line(&["worker", "skills", "--out", "w"]), no_env).is_err());
/// ```
pub fn parse(
    program: Program,
    args: &[String],
    env: impl Fn(&str) -> Option<String>,
) -> Result<Invocation, UsageError> {
    let rest = args.get(1..).unwrap_or_default();
    let command = args.first().map(String::as_str);
    let parsed = parse_command(program, command, rest, &env);
    // `--help` or `-h` where an option may stand (a value such as `--instructions -h` is
    // read as one): the subcommand's usage, whatever else the line holds.
    match parsed {
        Err(e) if rest.iter().any(|a| a == "--help" || a == "-h") => command
            .and_then(|c| command_usage(program, c))
            .map(Invocation::Help)
            .ok_or(e.into()),
        other => other.map_err(UsageError::from),
    }
}

/// [`parse`] without its `--help` rule: `command` and the arguments after it.
fn parse_command(
    program: Program,
    command: Option<&str>,
    rest: &[String],
    env: &impl Fn(&str) -> Option<String>,
) -> Result<Invocation, String> {
    match command {
        Some("stdio") if program == Program::Native => parse_stdio(rest).map(Invocation::Stdio),
        Some("check") => parse_check(rest, env).map(Invocation::Check),
        Some("pack") => parse_pack(program, rest, env).map(Invocation::Pack),
        Some("worker") if program == Program::Npm => {
            parse_worker(rest, env).map(Invocation::Worker)
        }
        Some("verify") => VerifyArgs::parse_with_env(rest, env).map(Invocation::Verify),
        Some("keygen") => parse_keygen(rest).map(Invocation::Keygen),
        Some("--version" | "-V") => Ok(Invocation::Version),
        Some("--help" | "-h" | "help") => Ok(Invocation::Help(usage(program))),
        Some(other) => Err(format!("unknown command {other:?}")),
        None => Err("missing command".into()),
    }
}

/// The options of `stdio`: the responder's settings, by their flags. The settings table owns
/// the rules ([`settings::from_pairs`]): a flag that is no responder setting, or one given
/// twice, is refused naming the known ones; a value out of range names the fix.
fn parse_stdio(args: &[String]) -> Result<Config, String> {
    let mut pairs: Vec<(&str, &str)> = Vec::new();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        pairs.push((flag, value));
    }
    settings::from_pairs(Source::Flag, &[Scope::Responder, Scope::Auth], &pairs)
        .map(|c| c.server)
        .map_err(|e| e.to_string())
}

/// The arguments of `keygen`.
///
/// ```
/// use skills_edge::command::args::{parse, Invocation, KeygenArgs, Program};
/// # let line = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
/// let Ok(Invocation::Keygen(a)) = parse(Program::Npm, &line(&["keygen", "--out", "keys", "--oms"]), |_| None) else { panic!() };
/// assert_eq!(a, KeygenArgs { out: "keys".into(), oms: true });
/// let e = parse(Program::Npm, &line(&["keygen"]), |_| None).unwrap_err();
/// assert!(e.message.starts_with("keygen needs --out <dir>"), "{e}");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeygenArgs {
    /// The folder `signing.key` and `signing.pub` are written into (`--out`; created if
    /// missing).
    pub out: String,
    /// `--oms`: an ECDSA P-256 key for OpenSSF Model Signing instead (`oms.key`, `oms.pub`,
    /// PEM: the key type `model_signing`'s key mode verifies).
    pub oms: bool,
}

/// The file of the secret key `keygen` writes into its folder.
pub(crate) const SECRET_KEY_FILE: &str = "signing.key";
/// The file of the public key `keygen` writes into its folder.
pub(crate) const PUBLIC_KEY_FILE: &str = "signing.pub";

/// `keygen --out <dir>`.
fn parse_keygen(args: &[String]) -> Result<KeygenArgs, String> {
    const NEEDS_OUT: &str =
        "keygen needs --out <dir> (the folder to write signing.key and signing.pub into)";
    let mut out = None;
    let mut oms = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--oms" => oms = true,
            "--out" | "-o" => {
                if out.is_some() {
                    return Err("--out is given twice".into());
                }
                out = Some(it.next().ok_or("--out needs a folder")?.clone());
            }
            s if is_option(s) => return Err(format!("unknown option {s:?}")),
            _ => {
                return Err(format!(
                    "keygen takes only --out <dir> and --oms, not {a:?}"
                ))
            }
        }
    }
    Ok(KeygenArgs {
        out: out.filter(|o| !o.is_empty()).ok_or(NEEDS_OUT)?,
        oms,
    })
}

/// Whether an argument is an option (`-x`, `--x`) rather than a value (`-` alone is a value).
fn is_option(s: &str) -> bool {
    s.starts_with('-') && s.len() > 1
}
