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

use crate::catalog::{compile, options, pack};
use crate::client::{bearer_header, check_headers, EraChoice};
use crate::host::index::{index_url_of_origin, is_index_url};
use crate::server::Config;
use crate::settings::{self, Scope, Source, SETTINGS};

/// The default time allowed for each request of `verify` and of the npm package's
/// `SkillsClient` (`timeoutMs`), in milliseconds.
pub(crate) const DEFAULT_TIMEOUT_MS: u64 = 30_000;

/// The longest `--timeout` (and `timeoutMs`), in milliseconds (one hour).
pub(crate) const MAX_TIMEOUT_MS: u64 = 3_600_000;

/// Which command reads the line: its own subcommands and its usage text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Program {
    /// The native `skills-edge` (crate `skills-edge-cli`): `stdio`, and `pack --assets`.
    Native,
    /// The npm package's `skills-edge`: `worker`.
    Npm,
}

/// What a command line asks for.
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
    /// subcommand's ([`command_usage`]). The text to print on stdout (exit status 0).
    Help(String),
}

/// Reads a whole command line (without the program name) as `program` reads it; `env` gives
/// the environment's `SKILLS_STRICT` and `SKILLS_ON_INVALID`. The error is the message of a
/// usage error, which both commands print as `error: MESSAGE`, the usage text, exit status 2.
///
/// ```
/// use skills_edge::command::args::{parse, Invocation, Program};
/// let line = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
/// let no_env = |_: &str| None;
/// let Ok(Invocation::Check(a)) = parse(Program::Npm, &line(&["check", "skills", "--strict"]), no_env) else {
///     panic!("a check");
/// };
/// assert_eq!(a.dir, "skills");
/// assert!(a.options.strict);
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
) -> Result<Invocation, String> {
    let rest = args.get(1..).unwrap_or_default();
    let command = args.first().map(String::as_str);
    let parsed = parse_command(program, command, rest, &env);
    // `--help` or `-h` where an option may stand (a value such as `--instructions -h` is
    // read as one): the subcommand's usage, whatever else the line holds.
    match parsed {
        Err(e) if rest.iter().any(|a| a == "--help" || a == "-h") => command
            .and_then(|c| command_usage(program, c))
            .map(Invocation::Help)
            .ok_or(e),
        other => other,
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

/// The arguments of `check` and `pack`; no output means checking only.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct PackArgs {
    /// The skills folder.
    pub dir: String,
    /// Where the pack is written (`-o`); `None`: print the entries instead (`--check`).
    pub output: Option<String>,
    /// The pack's instructions (`--instructions`).
    pub instructions: Option<String>,
    /// Where the files left out of the pack go, and which files those are (`--assets`,
    /// `--inline-max`; native only).
    pub assets: Option<(String, pack::AssetPolicy)>,
    /// `--strict` and `--skip-invalid`, over the environment's.
    pub options: compile::Options,
    /// `--sign PATH` and `--catalog-id ID`, over `SKILLS_SIGNING_KEY` and `SKILLS_CATALOG_ID`:
    /// sign every skill (`None`: the catalog is not signed).
    pub signing: Option<options::Signing>,
    /// `--oms-sign PATH` over `SKILLS_OMS_KEY`: give every skill an OpenSSF Model Signing
    /// signature, `skill.oms.sig` (`catalog::oms`; `None`: none).
    pub oms_key: Option<String>,
}

/// `--sign PATH` and `--catalog-id ID` as they are met on a command line (each at most once).
#[derive(Default)]
struct SignFlags {
    key: Option<String>,
    id: Option<String>,
    oms: Option<String>,
}

impl SignFlags {
    /// Takes `flag` (with its value from `it`) when it is `--sign` or `--catalog-id`; `Ok(false)`
    /// for any other argument.
    fn take<'a>(
        &mut self,
        flag: &str,
        it: &mut impl Iterator<Item = &'a String>,
    ) -> Result<bool, String> {
        let (slot, what) = match flag {
            "--sign" => (&mut self.key, "the path of a signing key file"),
            "--catalog-id" => (&mut self.id, "a catalog identity"),
            "--oms-sign" => (
                &mut self.oms,
                "the path of an OMS signing key file (oms.key)",
            ),
            _ => return Ok(false),
        };
        if slot.is_some() {
            return Err(format!("{flag} is given twice"));
        }
        *slot = Some(
            it.next()
                .ok_or_else(|| format!("{flag} needs {what}"))?
                .clone(),
        );
        Ok(true)
    }

    /// The OMS key file: `--oms-sign` over `SKILLS_OMS_KEY` (an empty variable is unset).
    fn oms_key(&mut self, env: &impl Fn(&str) -> Option<String>) -> Option<String> {
        self.oms
            .take()
            .or_else(|| env(crate::catalog::oms::OMS_KEY_VAR).filter(|v| !v.is_empty()))
    }

    /// The signing options: these flags over the environment's variables.
    fn resolve(
        self,
        env: &impl Fn(&str) -> Option<String>,
    ) -> Result<Option<options::Signing>, String> {
        options::signing(env, self.key.as_deref(), self.id.as_deref())
    }
}

/// `check <dir> [--strict] [--skip-invalid] [--sign PATH [--catalog-id ID]]`.
fn parse_check(args: &[String], env: &impl Fn(&str) -> Option<String>) -> Result<PackArgs, String> {
    const ONE_FOLDER: &str =
        "check takes exactly one folder (and --strict, --skip-invalid, --sign, --catalog-id)";
    let mut a = PackArgs {
        options: options::from_env(env)?,
        ..PackArgs::default()
    };
    let mut dir = None;
    let mut sign = SignFlags::default();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if sign.take(arg, &mut it)? {
            continue;
        }
        match arg.as_str() {
            "--strict" => a.options.strict = true,
            "--skip-invalid" => a.options.skip_invalid = true,
            s if is_option(s) => return Err(format!("unknown option {s:?}")),
            _ if dir.is_some() => return Err(ONE_FOLDER.into()),
            _ => dir = Some(arg.clone()),
        }
    }
    a.dir = dir.ok_or(ONE_FOLDER)?;
    a.oms_key = sign.oms_key(env);
    a.signing = sign.resolve(env)?;
    Ok(a)
}

/// `pack <dir> (-o <file> | --check) [--instructions TEXT] [--strict] [--skip-invalid]`, and
/// natively `[--assets DIR [--inline-max BYTES]]`.
fn parse_pack(
    program: Program,
    args: &[String],
    env: &impl Fn(&str) -> Option<String>,
) -> Result<PackArgs, String> {
    let mut dir = None;
    let mut output = None;
    let mut check = false;
    let mut options = options::from_env(env)?;
    let mut instructions = None;
    let mut assets_dir = None;
    let mut inline_max = None;
    let native = program == Program::Native;
    let mut sign = SignFlags::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if sign.take(a, &mut it)? {
            continue;
        }
        match a.as_str() {
            "-o" | "--output" => {
                output = Some(it.next().ok_or("-o needs a file name")?.clone());
            }
            "--assets" if native => {
                assets_dir = Some(it.next().ok_or("--assets needs a folder")?.clone());
            }
            "--inline-max" if native => {
                let v = it.next().ok_or("--inline-max needs a number of bytes")?;
                inline_max = Some(options::inline_max("--inline-max", v)?);
            }
            "--check" => check = true,
            "--strict" => options.strict = true,
            "--skip-invalid" => options.skip_invalid = true,
            "--instructions" => {
                instructions = Some(it.next().ok_or("--instructions needs a text")?.clone());
            }
            s if is_option(s) => return Err(format!("unknown option {s:?}")),
            _ if dir.is_some() => return Err("pack takes exactly one folder".into()),
            _ => dir = Some(a.clone()),
        }
    }
    let dir = dir.ok_or("pack needs a skills folder")?;
    let oms_key = sign.oms_key(env);
    let signing = sign.resolve(env)?;
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
            signing,
            oms_key,
        }),
    }
}

/// The arguments of the npm package's `worker`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkerArgs {
    /// The skills folder.
    pub dir: String,
    /// The folder the Worker project is written into (`--out`).
    pub out: String,
    /// The Worker's name (`--name`, default `skills-edge`).
    pub name: String,
    /// Host names accepted besides the defaults (`--allowed-hosts`, comma-separated).
    pub hosts: Vec<String>,
    /// Files larger than this many bytes become Static Assets (`--inline-max`).
    pub inline_max: u64,
    /// Replace the Worker project in a folder that is not empty (`--force`).
    pub force: bool,
    /// `--strict` and `--skip-invalid`, over the environment's.
    pub options: compile::Options,
    /// `--sign PATH` and `--catalog-id ID`, over the environment's: the Worker serves signed
    /// skills.
    pub signing: Option<options::Signing>,
}

/// Whether `name` is a Worker name Cloudflare accepts, which is also the workers.dev host
/// name's first label: lowercase letters, digits and dashes, 1 to 63, no dash first or last.
fn is_worker_name(name: &str) -> bool {
    let b = name.as_bytes();
    let ok = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    (1..=63).contains(&b.len())
        && b.first().is_some_and(ok)
        && b.last().is_some_and(ok)
        && b.iter().all(|c| ok(c) || *c == b'-')
}

/// Whitespace as JavaScript's `String.prototype.trim` sees it (the npm command trimmed each
/// host name so before this parser read it).
fn is_js_space(c: char) -> bool {
    (c.is_whitespace() && c != '\u{85}') || c == '\u{feff}'
}

/// `worker <dir> --out <dir> [--name NAME] [--allowed-hosts H,H] [--inline-max N] [--strict]
/// [--skip-invalid] [--force] [--sign PATH [--catalog-id ID]]`.
fn parse_worker(
    args: &[String],
    env: &impl Fn(&str) -> Option<String>,
) -> Result<WorkerArgs, String> {
    let mut options = options::from_env(env)?;
    let mut dir = None;
    let mut out = None;
    let mut name = "skills-edge".to_owned();
    let mut hosts = Vec::new();
    let mut inline_max = None;
    let mut force = false;
    let mut sign = SignFlags::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if sign.take(a, &mut it)? {
            continue;
        }
        let what = match a.as_str() {
            "--strict" => {
                options.strict = true;
                continue;
            }
            "--skip-invalid" => {
                options.skip_invalid = true;
                continue;
            }
            "--force" => {
                force = true;
                continue;
            }
            "--name" => "a Worker name",
            "--allowed-hosts" => "a comma-separated list of host names",
            "--inline-max" => "a number of bytes",
            "--out" | "-o" => "a folder",
            s if is_option(s) => return Err(format!("unknown option {s:?}")),
            _ if dir.is_some() => return Err("worker takes exactly one folder".into()),
            _ => {
                dir = Some(a.clone());
                continue;
            }
        };
        let v = it
            .next()
            .ok_or_else(|| format!("{a} needs {what}"))?
            .clone();
        match a.as_str() {
            "--name" => name = v,
            "--allowed-hosts" => {
                hosts = v
                    .split(',')
                    .map(|h| h.trim_matches(is_js_space).to_owned())
                    .filter(|h| !h.is_empty())
                    .collect();
            }
            "--inline-max" => inline_max = Some(v),
            _ => out = Some(v),
        }
    }
    let dir = dir.ok_or("worker needs a skills folder")?;
    let out =
        out.ok_or("worker needs --out <dir> (the folder to write the Worker project into)")?;
    if !is_worker_name(&name) {
        return Err(format!(
            "--name {name:?} is not a Worker name: use lowercase letters, digits and dashes (up to 63, not first or last), e.g. team-skills"
        ));
    }
    // The Worker checks every name's form when it starts (ALLOWED_HOSTS); here only what would
    // not stay one TOML string.
    let bad = hosts
        .iter()
        .find(|h| !h.bytes().all(|c| (0x21..=0x7e).contains(&c)) || h.contains(['"', '\\', ',']));
    if let Some(bad) = bad {
        return Err(format!(
            "--allowed-hosts: {bad:?} is not a host name: use names such as skills.example.com or *.example.com, separated by commas"
        ));
    }
    let inline_max = match inline_max {
        Some(v) => options::inline_max("--inline-max", &v)?,
        None => pack::DEFAULT_INLINE_MAX,
    };
    let signing = sign.resolve(env)?;
    Ok(WorkerArgs {
        dir,
        out,
        name,
        hosts,
        inline_max,
        force,
        options,
        signing,
    })
}

/// The arguments of `keygen`.
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
pub const SECRET_KEY_FILE: &str = "signing.key";
/// The file of the public key `keygen` writes into its folder.
pub const PUBLIC_KEY_FILE: &str = "signing.pub";

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

/// The environment variable holding the bearer token `verify` sends when `--token` is not
/// given.
pub const TOKEN_ENV: &str = "SKILLS_EDGE_TOKEN";

/// The arguments of `verify`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyArgs {
    /// The MCP endpoint (`http://` or `https://`).
    pub url: String,
    /// The protocol revision to speak.
    pub era: EraChoice,
    /// Extra request headers, checked ([`check_headers`]), names in lowercase.
    pub headers: Vec<(String, String)>,
    /// Only this skill (its `SKILL.md` URI).
    pub skill: Option<String>,
    /// One JSON object per skill instead of the table.
    pub json: bool,
    /// Time allowed for each request, in milliseconds.
    pub timeout_ms: u64,
    /// `url` is a well-known index (it ends in `/.well-known/agent-skills/index.json`, or
    /// `--well-known` turned an origin into one): read it instead of speaking MCP.
    pub well_known: bool,
    /// `--cross-check`: after the MCP run, verify the index of the same origin and compare.
    pub cross_check: bool,
    /// `--trust FILE` (repeatable): files holding a public JWK each, the trust list. The
    /// command's I/O reads them ([`crate::command::verify::SignerFiles`]).
    pub trust: Vec<String>,
    /// `--pins FILE`: pins read before the run when the file exists and written back after
    /// it; it turns trust on first use on.
    pub pins: Option<String>,
    /// `--allow-dynamic`: a `dynamic` skill (its files cannot be verified) does not fail the
    /// run. Without it the exit status is 1, as a `SkillHost` declines such skills by default.
    /// A skill `downgraded` from a manifest to `"dynamic"` fails either way.
    pub allow_dynamic: bool,
}

impl VerifyArgs {
    /// Reads the arguments after `verify`. The error is the message of a usage error.
    ///
    /// ```
    /// use skills_edge::command::args::VerifyArgs;
    /// let a = VerifyArgs::parse(&["http://127.0.0.1:8787/mcp".into(), "--json".into(),
    ///     "--header".into(), "Authorization: Bearer t".into()]).unwrap();
    /// assert!(a.json);
    /// assert_eq!(a.headers, [("authorization".to_owned(), "Bearer t".to_owned())]);
    /// assert!(VerifyArgs::parse(&["ftp://x".into()]).is_err());
    /// ```
    pub fn parse(args: &[String]) -> Result<VerifyArgs, String> {
        VerifyArgs::parse_with_env(args, &|_: &str| None)
    }

    /// [`VerifyArgs::parse`], with the environment: `SKILLS_EDGE_TOKEN` ([`TOKEN_ENV`]) is the
    /// token when `--token` is not given and no `--header authorization` either. `--token TOKEN`
    /// (or the variable) adds `authorization: Bearer TOKEN` to the headers ([`bearer_header`]);
    /// `--token` with `--header authorization` is refused, as is `--token` given twice. The token
    /// is never repeated in a message.
    ///
    /// ```
    /// use skills_edge::command::args::VerifyArgs;
    /// let env = |n: &str| (n == "SKILLS_EDGE_TOKEN").then(|| "from-env".to_owned());
    /// let a = VerifyArgs::parse_with_env(&["https://h/mcp".into()], &env).unwrap();
    /// assert_eq!(a.headers, [("authorization".to_owned(), "Bearer from-env".to_owned())]);
    /// let a = VerifyArgs::parse_with_env(&["https://h/mcp".into(), "--token".into(), "t".into()], &env).unwrap();
    /// assert_eq!(a.headers, [("authorization".to_owned(), "Bearer t".to_owned())]);
    /// ```
    pub fn parse_with_env(
        args: &[String],
        env: &impl Fn(&str) -> Option<String>,
    ) -> Result<VerifyArgs, String> {
        let mut token = None;
        let mut url = None;
        let mut era = None;
        let mut headers = Vec::new();
        let mut skill = None;
        let mut json = false;
        let mut timeout = None;
        let mut origin = false;
        let mut cross_check = false;
        let mut trust = Vec::new();
        let mut pins = None;
        let mut allow_dynamic = false;
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let mut value = |flag: &str| {
                it.next()
                    .cloned()
                    .ok_or_else(|| format!("{flag} needs a value"))
            };
            match a.as_str() {
                "--era" => {
                    if era.is_some() {
                        return Err("--era is given twice".into());
                    }
                    let v = value("--era")?;
                    era = Some(EraChoice::parse(&v).ok_or_else(|| {
                        format!("--era {v:?} is invalid: use auto, 2026-07-28 or 2025-11-25")
                    })?);
                }
                "--header" | "-H" => {
                    let v = value("--header")?;
                    // The value is not repeated: a header given without its name is often
                    // a credential.
                    let (name, val) = v.split_once(':').ok_or_else(|| {
                        "a --header value has no ':' (not shown: it may be a credential): \
                         use 'Name: value'"
                            .to_owned()
                    })?;
                    headers.push((name.trim().to_owned(), val.trim().to_owned()));
                }
                "--token" => {
                    if token.is_some() {
                        return Err("--token is given twice".into());
                    }
                    token = Some(value("--token")?);
                }
                "--skill" => {
                    if skill.is_some() {
                        return Err("--skill is given twice".into());
                    }
                    skill = Some(value("--skill")?);
                }
                "--trust" => trust.push(value("--trust")?),
                "--pins" => {
                    if pins.is_some() {
                        return Err("--pins is given twice".into());
                    }
                    pins = Some(value("--pins")?);
                }
                "--json" => json = true,
                "--allow-dynamic" => allow_dynamic = true,
                "--well-known" => origin = true,
                "--cross-check" => cross_check = true,
                "--timeout" => {
                    if timeout.is_some() {
                        return Err("--timeout is given twice".into());
                    }
                    let v = value("--timeout")?;
                    let ms = v
                        .parse::<u64>()
                        .ok()
                        .filter(|ms| (1..=MAX_TIMEOUT_MS).contains(ms))
                        .ok_or_else(|| {
                            format!("--timeout {v:?} is invalid: use milliseconds from 1 to {MAX_TIMEOUT_MS}")
                        })?;
                    timeout = Some(ms);
                }
                s if is_option(s) => return Err(format!("unknown option {s:?}")),
                _ if url.is_some() => return Err("verify takes exactly one URL".into()),
                _ => url = Some(a.clone()),
            }
        }
        let mut url = url.ok_or("verify needs the server's URL (http://… or https://…)")?;
        check_url(&url)?;
        if origin {
            url = index_url_of_origin(&url).ok_or_else(|| {
                format!("--well-known takes an origin (https://host[:port]), not {url:?}")
            })?;
        }
        let well_known = is_index_url(&url);
        if well_known && (cross_check || skill.is_some() || era.is_some()) {
            return Err(
                "--cross-check, --skill and --era apply to an MCP server, not to a well-known index"
                    .into(),
            );
        }
        let mut headers =
            check_headers(&headers).map_err(|e| format!("--header: {}", e.message))?;
        let has_authorization = headers.iter().any(|(k, _)| k == "authorization");
        match token {
            Some(_) if has_authorization => {
                return Err(
                    "--token and --header authorization are both given: use one of them".into(),
                )
            }
            Some(t) => headers.push(bearer_header("--token", &t).map_err(|e| e.message)?),
            None if has_authorization => {}
            None => {
                if let Some(t) = env(TOKEN_ENV).filter(|t| !t.is_empty()) {
                    headers.push(bearer_header(TOKEN_ENV, &t).map_err(|e| e.message)?);
                }
            }
        }
        Ok(VerifyArgs {
            url,
            era: era.unwrap_or_default(),
            headers,
            skill,
            json,
            timeout_ms: timeout.unwrap_or(DEFAULT_TIMEOUT_MS),
            well_known,
            cross_check,
            trust,
            pins,
            allow_dynamic,
        })
    }
}

/// A URL the commands accept: `http://` or `https://`, a host, no whitespace or control
/// characters, no fragment.
fn check_url(url: &str) -> Result<(), String> {
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"))
        .ok_or_else(|| format!("the URL {url:?} must start with http:// or https://"))?;
    let host = rest.split(['/', '?']).next().unwrap_or_default();
    if host.is_empty() || host.starts_with(':') {
        return Err(format!("the URL {url:?} has no host"));
    }
    if url.chars().any(|c| c.is_whitespace() || c.is_control()) || url.contains('#') {
        return Err(format!(
            "the URL {url:?} must not contain whitespace, control characters or a fragment"
        ));
    }
    Ok(())
}

/// The usage of `verify`, as both commands print it (inside [`usage`]).
pub(crate) fn verify_usage() -> String {
    format!(
        "    skills-edge verify <url> [--era auto|2026-07-28|2025-11-25] [--header 'Name: value']...
                       [--token TOKEN] [--skill URI] [--json] [--timeout MS]
                       [--trust KEYFILE]... [--pins FILE] [--allow-dynamic]
        List every skill of the MCP server at <url> (Streamable HTTP), load and verify every
        file (size, SHA-256, frontmatter; refreshing a stale entry once), check each signed
        skill's signature, list every directory when the server supports it, and print a
        table, or with --json one JSON object per skill. --era picks the protocol revision
        (default auto: 2026-07-28, else 2025-11-25); --header adds a request header
        (repeatable); --token sends `Authorization: Bearer TOKEN` to the server's origin
        only (default: the {TOKEN_ENV} environment variable; a 401 names the server's
        authorization server and scopes); --skill checks one skill (its SKILL.md URI);
        --timeout bounds each request (milliseconds, default {DEFAULT_TIMEOUT_MS}). --trust
        names a public key file (a JWK, repeatable): every skill must then be signed by one
        of them. --pins keeps the signer each origin was first seen with in FILE (read if it
        exists, written after the run): a skill signed by another key, for another catalog,
        or unsigned from a pinned origin fails. Without either, signatures are checked when
        present and reported. --header and --token go only to the origin of <url>: GETs
        follow at most 5 redirects, and a hop to another origin gets neither. A dynamic
        skill (no manifest: only its frontmatter can be checked) fails the run unless
        --allow-dynamic accepts unverifiable skills; a skill listed with a manifest and then
        served as dynamic is downgraded and always fails. Exit status 0 when everything
        verifies, 1 when something does not (a signature check and a dynamic skill
        included), 2 for usage or connection errors.
    skills-edge verify <url>/.well-known/agent-skills/index.json [--json] [--header …] [--timeout MS]
                       [--trust KEYFILE]... [--pins FILE] [--allow-dynamic]
    skills-edge verify --well-known <origin> [--json] [--header …] [--timeout MS] [--trust …] [--pins …]
        Read the Agent Skills Discovery index (RFC v0.2.0, or v0.1.0 without $schema) instead
        of speaking MCP: check every artifact's SHA-256, unpack archives safely, run the
        compiler's checks on every file, compare the index's name and description with the
        frontmatter, and check the signature the index names against the files. --well-known
        takes an origin (https://host) and reads its index.
    skills-edge verify <mcp url> --cross-check [...]
        Verify the MCP server, then the index of the same origin, and check that both publish
        the same bytes (every archived file's digest equals the MCP entry's).
"
    )
}

/// The `stdio` options for the usage text, from the settings table.
fn stdio_options() -> String {
    let mut out = String::new();
    let shown = |s: &&settings::Setting| {
        s.scope == Scope::Responder || s.key == crate::server::SettingKey::Scopes
    };
    for s in SETTINGS.iter().filter(shown) {
        out.push_str(&format!(
            "        {} VALUE\n            {}; default: {}; {}\n",
            s.flag, s.doc, s.default, s.form
        ));
    }
    out
}

/// The parts of the usage text of `program`: each subcommand's own text, and the options
/// `check`, `pack` and `worker` share.
struct Usage {
    head: &'static str,
    /// `(subcommand, its text)`, in the order the whole usage lists them.
    commands: Vec<(&'static str, String)>,
    /// `--strict`, `--skip-invalid`, `--sign` and the environment, for `check`, `pack` and
    /// `worker`.
    shared: String,
}

fn usage_parts(program: Program) -> Usage {
    const CHECK: &str =
        "    skills-edge check <dir> [--strict] [--skip-invalid] [--sign PATH [--catalog-id ID]]
        Check a skills folder; print the entries it would publish (JSON) on stdout,
        problems on stderr; exit status 1 when the folder cannot be published. With
        --sign, also the signing key's id and the catalog identity (stderr).
";
    const PACK: &str = "    skills-edge pack <dir> (-o <file> | --check) [--instructions TEXT] [--strict] [--skip-invalid]
                     [--sign PATH [--catalog-id ID]]\n";
    const KEYGEN: &str = "    skills-edge keygen --out <dir>
        Make an Ed25519 signing key: <dir>/signing.key (the secret, a JWK; keep it private,
        mode 0600) and <dir>/signing.pub (the public key, a JWK), creating <dir> if needed
        and never replacing either file. Prints the key's id (its RFC 7638 thumbprint).
";
    const KEYGEN_OMS: &str = "    skills-edge keygen --out <dir> --oms
        Make an ECDSA P-256 key for OpenSSF Model Signing instead: <dir>/oms.key and
        <dir>/oms.pub (PEM, the files model_signing's key mode reads). Prints its hint.
";
    const SIGN: &str =
        "    --sign PATH: sign every skill with the secret key in PATH (signing.key of keygen):
        each entry, the mirror and the pack carry a DSSE envelope over the skill's files.
        --catalog-id ID: the identity the signatures name (1 to 256 visible ASCII
        characters; default: the key's id).
";
    const PACK_CHECK: &str =
        "        --check prints the entries instead of writing. Exit status 1 on any error.\n";
    let inline_max = pack::DEFAULT_INLINE_MAX;
    let (head, mut commands, env_applies) = match program {
        Program::Native => (
            "skills-edge: serve and verify Agent Skills over MCP\n",
            vec![
                (
                    "stdio",
                    format!(
                        "    skills-edge stdio [OPTIONS]
        Serve the embedded skills over stdio (newline-delimited JSON-RPC). Exits on end of input.
        OPTIONS (each at most once):
{stdio}",
                        stdio = stdio_options()
                    ),
                ),
                ("check", CHECK.to_owned()),
                (
                    "pack",
                    format!(
                        "{PACK}                     [--assets DIR [--inline-max BYTES]] [--oms-sign PATH]
        Compile a skills folder into a pack (served by the npm package's SkillsServer);
{PACK_CHECK}        --assets DIR leaves every file larger than BYTES (default {inline_max}) out of the
        pack and writes it into DIR as two files named by its SHA-256: <hex> (its bytes) and
        <hex>.json (its resources/read JSON string), for the Cloudflare Worker's Static
        Assets. DIR is created if missing; files already in it are overwritten or left as
        they are, so give a fresh folder.
        --oms-sign PATH (or SKILLS_OMS_KEY=PATH; check takes it too): every skill gets an
        OpenSSF Model Signing signature, <skill>/skill.oms.sig, with the P-256 key in PATH
        (oms.key of keygen --oms); model_signing verify key checks an installed skill.
"
                    ),
                ),
            ],
            "check and pack",
        ),
        Program::Npm => (
            "skills-edge: compile Agent Skills into a pack for skills-edge's SkillsServer, and verify
the skills an MCP server serves
",
            vec![
                (
                    "pack",
                    format!(
                        "{PACK}        Compile a skills folder into a pack (load it with new SkillsServer({{ pack }}));
{PACK_CHECK}"
                    ),
                ),
                ("check", CHECK.to_owned()),
                (
                    "worker",
                    format!(
                        "    skills-edge worker <dir> --out <dir> [--name NAME] [--allowed-hosts HOST,HOST]
                       [--inline-max BYTES] [--strict] [--skip-invalid] [--force]
                       [--sign PATH [--catalog-id ID]]
        Write a Cloudflare Worker project serving the folder into --out (refused when it
        is not empty, unless --force): wrangler.toml, package.json (wrangler pinned), the
        prebuilt Worker and the folder's pack, with every file larger than BYTES (default
        {inline_max}; 0: every non-empty file) as a Static Asset. Then: cd <out> && npm install &&
        npx wrangler dev (local), or npx wrangler login && npx wrangler deploy.
        --name: the Worker's name (default skills-edge), its URL
        https://NAME.SUBDOMAIN.workers.dev/mcp. --allowed-hosts: Host names accepted besides
        localhost, 127.0.0.1, [::1] and *.workers.dev (your custom domains). --sign: the
        Worker serves signed skills (the key itself is not copied into the project).
"
                    ),
                ),
            ],
            "check, pack and worker",
        ),
    };
    commands.push((
        "keygen",
        match program {
            Program::Native => format!("{KEYGEN}{KEYGEN_OMS}"),
            Program::Npm => KEYGEN.to_owned(),
        },
    ));
    commands.push(("verify", verify_usage()));
    let shared = format!(
        "    --strict: frontmatter the official MCP TypeScript SDK 2.4 cannot read
        (frontmatter-sdk-* warnings) is an error.
    --skip-invalid: an invalid skill is left out (its errors become warnings naming it)
        and the other skills are published.
{SIGN}    SKILLS_STRICT=1 and SKILLS_ON_INVALID=skip in the environment turn --strict and
        --skip-invalid on for {env_applies}, as they do for the build;
        SKILLS_SIGNING_KEY=PATH and SKILLS_CATALOG_ID=ID give --sign and --catalog-id.
"
    );
    Usage {
        head,
        commands,
        shared,
    }
}

/// The usage text `program` prints for `--help` and after a usage error.
pub fn usage(program: Program) -> String {
    let u = usage_parts(program);
    let text = |name: &str| {
        u.commands
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| t.as_str())
            .unwrap_or_default()
    };
    // The subcommands that build a catalog, then their shared options, then the others.
    let building: String = u
        .commands
        .iter()
        .filter(|(n, _)| !matches!(*n, "keygen" | "verify"))
        .map(|(_, t)| t.as_str())
        .collect();
    format!(
        "{head}
USAGE:
{building}{shared}{keygen}{verify}    skills-edge --version | --help
",
        head = u.head,
        shared = u.shared,
        keygen = text("keygen"),
        verify = text("verify"),
    )
}

/// The usage of one subcommand of `program` (what `skills-edge COMMAND --help` prints): its
/// own text, and for `check`, `pack` and `worker` the options they share. `None` for a name
/// that is not one of `program`'s subcommands.
pub fn command_usage(program: Program, command: &str) -> Option<String> {
    let u = usage_parts(program);
    let (name, own) = u.commands.iter().find(|(n, _)| *n == command)?;
    let shared = if matches!(*name, "check" | "pack" | "worker") {
        u.shared.as_str()
    } else {
        ""
    };
    Some(format!("USAGE:\n{own}{shared}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_token_from_the_flag_or_the_environment_never_repeated() {
        let secret = "s3cret.tok";
        let env = |v: &'static str| move |n: &str| (n == TOKEN_ENV).then(|| v.to_owned());
        let bearer = |t: &str| vec![("authorization".to_owned(), format!("Bearer {t}"))];
        let p = |a: &[&str], e: &dyn Fn(&str) -> Option<String>| {
            VerifyArgs::parse_with_env(&line(a), &|n: &str| e(n))
        };
        // --header authorization wins over the variable; an empty variable is no token.
        let a = p(
            &["https://h/mcp", "-H", "Authorization: Bearer h"],
            &env(secret),
        )
        .unwrap();
        assert_eq!(a.headers, bearer("h"));
        assert!(p(&["https://h/mcp"], &env("")).unwrap().headers.is_empty());
        // A well-known run sends it too (to the index's origin: the transport's rule).
        let a = p(&["--well-known", "https://h"], &env(secret)).unwrap();
        assert_eq!(a.headers, bearer(secret));
        for (args, env_value, why) in [
            (
                vec!["https://h/mcp", "--token", "a", "--token", "b"],
                "",
                "--token is given twice",
            ),
            (
                vec!["https://h/mcp", "--token"],
                "",
                "--token needs a value",
            ),
            (
                vec!["https://h/mcp", "--token", "s3cret tok"],
                "",
                "--token: not a bearer token (not shown)",
            ),
            (
                vec!["https://h/mcp"],
                "Bearer s3cret",
                "SKILLS_EDGE_TOKEN: not a bearer token (not shown)",
            ),
            (
                vec!["https://h/mcp", "--token", secret, "-H", "authorization: x"],
                "",
                "use one of them",
            ),
        ] {
            let e = p(&args, &env(env_value)).unwrap_err();
            assert!(e.contains(why), "{e}");
            assert!(!e.contains("s3cret"), "{e}");
        }
    }

    #[test]
    fn a_header_without_a_name_is_refused_without_repeating_it() {
        let args = |v: &str| ["https://h/mcp", "--header", v].map(String::from).to_vec();
        let err = VerifyArgs::parse(&args("Bearer s3cret")).unwrap_err();
        assert!(err.contains("use 'Name: value'"), "{err}");
        assert!(!err.contains("s3cret"), "{err}");
        let ok = VerifyArgs::parse(&args("Authorization: Bearer s3cret")).unwrap();
        assert_eq!(
            ok.headers,
            [("authorization".to_owned(), "Bearer s3cret".to_owned())]
        );
    }

    #[test]
    fn check_pack_and_verify_read_alike_in_both_programs() {
        let env = |v: &str| (v == options::STRICT).then(|| "1".to_owned());
        for args in [
            &["check", "d"][..],
            &["check", "d", "--skip-invalid"],
            &["check"],
            &["check", "a", "b"],
            &["pack", "d", "-o", "f", "--instructions", "hi"],
            &["pack", "d", "--check"],
            &["pack", "d", "-o", "f", "--check"],
            &["pack", "d", "--nope"],
            &["verify", "http://h/mcp", "--timeout", "0"],
            &["verify", "http://h/mcp", "--json"],
            &["frobnicate"],
            &[],
        ] {
            let native = parse(Program::Native, &line(args), env);
            let npm = parse(Program::Npm, &line(args), env);
            assert_eq!(format!("{native:?}"), format!("{npm:?}"), "{args:?}");
        }
    }

    #[test]
    fn each_program_has_its_own_subcommand_and_pack_assets_are_native() {
        let none = |_: &str| None;
        let assets = line(&["pack", "d", "-o", "f", "--assets", "a"]);
        assert!(matches!(
            parse(Program::Native, &assets, none),
            Ok(Invocation::Pack(PackArgs {
                assets: Some(_),
                ..
            }))
        ));
        assert_eq!(
            parse(Program::Npm, &assets, none).unwrap_err(),
            "unknown option \"--assets\""
        );
        assert_eq!(
            parse(Program::Npm, &line(&["stdio"]), none).unwrap_err(),
            "unknown command \"stdio\""
        );
        assert_eq!(
            parse(Program::Native, &line(&["worker"]), none).unwrap_err(),
            "unknown command \"worker\""
        );
        assert!(matches!(
            parse(Program::Native, &line(&["stdio"]), none),
            Ok(Invocation::Stdio(_))
        ));
    }

    #[test]
    fn stdio_flags_follow_the_settings_table() {
        let none = |_: &str| None;
        let stdio = |a: &[&str]| {
            let mut all = vec!["stdio"];
            all.extend_from_slice(a);
            match parse(Program::Native, &line(&all), none) {
                Ok(Invocation::Stdio(c)) => Ok(c),
                Ok(other) => panic!("{other:?}"),
                Err(e) => Err(e),
            }
        };
        assert_eq!(stdio(&["--page-size", "7"]).unwrap().page_size, 7);
        let unknown = stdio(&["--page_size", "7"]).unwrap_err();
        assert!(
            unknown.starts_with(
                "option --page_size is invalid (not a setting): use one of --page-size, --ttl-ms,"
            ),
            "{unknown}"
        );
        let twice = stdio(&["--ttl-ms", "1", "--ttl-ms", "2"]).unwrap_err();
        assert_eq!(
            twice,
            "option --ttl-ms = \"2\" is invalid (given twice): give it once"
        );
        assert_eq!(stdio(&["--ttl-ms"]).unwrap_err(), "--ttl-ms needs a value");
        assert!(stdio(&["--page-size", "0"])
            .unwrap_err()
            .contains("--page-size"));
    }

    #[test]
    fn worker_arguments() {
        let none = |_: &str| None;
        let w = |a: &[&str]| {
            let mut all = vec!["worker"];
            all.extend_from_slice(a);
            match parse(Program::Npm, &line(&all), none) {
                Ok(Invocation::Worker(w)) => Ok(w),
                Ok(other) => panic!("{other:?}"),
                Err(e) => Err(e),
            }
        };
        let ok = w(&[
            "d",
            "--out",
            "o",
            "--allowed-hosts",
            " a.example.com,\u{feff}b.example.com ,,",
            "--inline-max",
            "0",
            "--force",
        ])
        .unwrap();
        assert_eq!(ok.hosts, ["a.example.com", "b.example.com"]);
        assert_eq!(
            (ok.inline_max, ok.force, ok.name.as_str()),
            (0, true, "skills-edge")
        );
        assert_eq!(
            w(&["d"]).unwrap_err(),
            "worker needs --out <dir> (the folder to write the Worker project into)"
        );
        assert_eq!(
            w(&["d", "--name"]).unwrap_err(),
            "--name needs a Worker name"
        );
        assert_eq!(w(&["d", "-o"]).unwrap_err(), "-o needs a folder");
        for bad in ["-a", "a-", "A", "", &"a".repeat(64)] {
            let e = w(&["d", "--out", "o", "--name", bad]).unwrap_err();
            assert!(e.contains("is not a Worker name"), "{bad:?}: {e}");
        }
        assert!(w(&["d", "--out", "o", "--name", &"a".repeat(63)]).is_ok());
        let e = w(&["d", "--out", "o", "--allowed-hosts", "a\"b"]).unwrap_err();
        assert!(
            e.starts_with("--allowed-hosts: \"a\\\"b\" is not a host name"),
            "{e}"
        );
    }

    #[test]
    fn trust_is_repeatable_and_pins_given_once() {
        let a = VerifyArgs::parse(&line(&[
            "https://h/mcp",
            "--trust",
            "a.pub",
            "--trust",
            "b.pub",
            "--pins",
            "pins.json",
        ]))
        .unwrap();
        assert_eq!(
            (a.trust.as_slice(), a.pins.as_deref()),
            (
                &["a.pub".to_owned(), "b.pub".to_owned()][..],
                Some("pins.json")
            )
        );
        let plain = VerifyArgs::parse(&line(&["https://h/mcp"])).unwrap();
        assert!(plain.trust.is_empty() && plain.pins.is_none());
        // A well-known source takes them too.
        let wk = VerifyArgs::parse(&line(&["--well-known", "https://h", "--trust", "k"])).unwrap();
        assert!(wk.well_known && wk.trust == ["k"]);
        for (bad, why) in [
            (&["https://h/mcp", "--trust"][..], "--trust needs a value"),
            (&["https://h/mcp", "--pins"], "--pins needs a value"),
            (
                &["https://h/mcp", "--pins", "a", "--pins", "b"],
                "--pins is given twice",
            ),
        ] {
            assert_eq!(VerifyArgs::parse(&line(bad)).unwrap_err(), why);
        }
        assert!(verify_usage().contains("[--trust KEYFILE]... [--pins FILE]"));
    }

    #[test]
    fn sign_and_catalog_id_for_check_pack_and_worker_over_the_environment() {
        let env = |v: &str| match v {
            options::SIGNING_KEY => Some("env.key".to_owned()),
            options::CATALOG_ID => Some("env-id".to_owned()),
            _ => None,
        };
        let none = |_: &str| None;
        let signing = |p: Program, a: &[&str], e: &dyn Fn(&str) -> Option<String>| match parse(
            p,
            &line(a),
            e,
        )? {
            Invocation::Check(a) | Invocation::Pack(a) => Ok(a.signing),
            Invocation::Worker(w) => Ok(w.signing),
            other => panic!("{other:?}"),
        };
        let pair = |s: Option<options::Signing>| {
            s.map(|s| (s.key_file, s.catalog_id.map(|c| c.to_string())))
        };
        for (p, head) in [
            (Program::Native, &["check", "d"][..]),
            (Program::Npm, &["check", "d"]),
            (Program::Native, &["pack", "d", "-o", "f"]),
            (Program::Npm, &["pack", "d", "--check"]),
            (Program::Npm, &["worker", "d", "--out", "o"]),
        ] {
            let with = |extra: &[&str], e: &dyn Fn(&str) -> Option<String>| {
                let mut a = head.to_vec();
                a.extend_from_slice(extra);
                signing(p, &a, e).map(pair)
            };
            assert_eq!(with(&[], &none), Ok(None), "{head:?}");
            assert_eq!(
                with(&[], &env),
                Ok(Some(("env.key".into(), Some("env-id".into()))))
            );
            assert_eq!(
                with(&["--sign", "k", "--catalog-id", "acme"], &env),
                Ok(Some(("k".into(), Some("acme".into()))))
            );
            assert_eq!(with(&["--sign", "k"], &none), Ok(Some(("k".into(), None))));
            assert_eq!(
                with(&["--sign", "a", "--sign", "b"], &none),
                Err("--sign is given twice".into())
            );
            assert_eq!(
                with(&["--sign"], &none),
                Err("--sign needs the path of a signing key file".into())
            );
            assert_eq!(
                with(&["--sign", "k", "--catalog-id"], &none),
                Err("--catalog-id needs a catalog identity".into())
            );
            let e: String = with(&["--catalog-id", "acme"], &none).unwrap_err();
            assert!(
                e.starts_with("--catalog-id is given but no signing key"),
                "{e}"
            );
            let e: String = with(&["--sign", "k", "--catalog-id", "a b"], &none).unwrap_err();
            assert!(e.contains("is not a catalog identity"), "{e}");
        }
    }

    #[test]
    fn keygen_takes_one_folder() {
        for p in [Program::Native, Program::Npm] {
            let k = |a: &[&str]| match parse(p, &line(a), |_: &str| None) {
                Ok(Invocation::Keygen(k)) => Ok(k.out),
                Ok(other) => panic!("{other:?}"),
                Err(e) => Err(e),
            };
            assert_eq!(k(&["keygen", "--out", "keys"]), Ok("keys".into()));
            assert_eq!(k(&["keygen", "-o", "keys/"]), Ok("keys/".into()));
            let needs =
                "keygen needs --out <dir> (the folder to write signing.key and signing.pub into)";
            assert_eq!(k(&["keygen"]), Err(needs.into()));
            assert_eq!(k(&["keygen", "--out", ""]), Err(needs.into()));
            assert_eq!(k(&["keygen", "--out"]), Err("--out needs a folder".into()));
            assert_eq!(
                k(&["keygen", "--out", "a", "--out", "b"]),
                Err("--out is given twice".into())
            );
            assert_eq!(
                k(&["keygen", "keys"]),
                Err("keygen takes only --out <dir> and --oms, not \"keys\"".into())
            );
            let oms = parse(p, &line(&["keygen", "--oms", "--out", "k"]), |_: &str| None);
            assert!(matches!(
                oms,
                Ok(Invocation::Keygen(KeygenArgs { oms: true, .. }))
            ));
            assert_eq!(
                k(&["keygen", "--force"]),
                Err("unknown option \"--force\"".into())
            );
        }
    }

    #[test]
    fn every_subcommand_answers_help_with_its_own_usage() {
        let none = |_: &str| None;
        for (program, commands) in [
            (
                Program::Native,
                &["stdio", "check", "pack", "keygen", "verify"][..],
            ),
            (
                Program::Npm,
                &["pack", "check", "worker", "keygen", "verify"],
            ),
        ] {
            let whole = usage(program);
            for command in commands {
                let own = command_usage(program, command).unwrap();
                // Each part is the whole usage's, word for word.
                let body = own.strip_prefix("USAGE:\n").unwrap();
                let first = body.lines().next().unwrap();
                assert!(whole.contains(first), "{command}: {first}");
                assert!(first.contains(&format!("skills-edge {command}")), "{first}");
                for help in ["--help", "-h"] {
                    for line in [
                        vec![*command, help],
                        vec![*command, "x", help],
                        vec![*command, help, "--nope"],
                    ] {
                        match parse(program, &line_of(&line), none) {
                            Ok(Invocation::Help(text)) => assert_eq!(text, own, "{line:?}"),
                            other => panic!("{line:?}: {other:?}"),
                        }
                    }
                }
            }
            // A value that happens to be `-h` stays a value.
            assert!(matches!(
                parse(program, &line_of(&["keygen", "--out", "-h"]), none),
                Ok(Invocation::Keygen(k)) if k.out == "-h"
            ));
            assert!(matches!(
                parse(program, &line_of(&["--help"]), none),
                Ok(Invocation::Help(text)) if text == whole
            ));
            // Another program's subcommand has no usage here.
            let other = if program == Program::Native {
                "worker"
            } else {
                "stdio"
            };
            assert!(command_usage(program, other).is_none());
            assert!(parse(program, &line_of(&[other, "--help"]), none).is_err());
        }
        assert!(verify_usage().contains("[--allow-dynamic]"));
    }

    fn line_of(a: &[&str]) -> Vec<String> {
        line(a)
    }

    #[test]
    fn the_timeout_bounds_are_the_usage_texts() {
        assert!(verify_usage().contains(&format!("default {DEFAULT_TIMEOUT_MS})")));
        let e = VerifyArgs::parse(&line(&["http://h/mcp", "--timeout", "3600001"])).unwrap_err();
        assert!(e.ends_with(&format!("from 1 to {MAX_TIMEOUT_MS}")), "{e}");
    }
}
