//! The npm package's `worker`: its arguments.

use super::is_option;
use super::pack::SignFlags;
use crate::compile;
use crate::options;
use crate::pack;
use crate::settings::{self, Scope, Source};

/// The arguments of the npm package's `worker`.
///
/// ```
/// use skills_edge::command::args::{parse, Invocation, Program};
/// # let line = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
/// let args = line(&["worker", "skills", "--out", "w", "--var", "FALLBACK=tools", "--route", "skills.example.com"]);
/// let Ok(Invocation::Worker(a)) = parse(Program::Npm, &args, |_| None) else { panic!("a worker") };
/// assert_eq!((a.name.as_str(), a.out.as_str()), ("skills-edge", "w"));
/// assert_eq!(a.vars, [("FALLBACK".to_owned(), "tools".to_owned())]);
/// // A misspelt setting is refused as the Worker would refuse it.
/// assert!(parse(Program::Npm, &line(&["worker", "skills", "--out", "w", "--var", "PAGESIZE=5"]), |_| None).is_err());
/// ```
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
    /// Write the Worker project into a folder that is not empty and was not made by this
    /// command (`--force`).
    pub force: bool,
    /// Rebuild a Worker whose skills were signed without a key, so that it serves them
    /// unsigned (`--unsigned`); without it such a rebuild is refused.
    pub unsigned: bool,
    /// `--var NAME=VALUE` (repeatable, last one wins): Worker vars set in the project's
    /// `wrangler.toml` `[vars]` table, a new one's or the one the user edited.
    pub vars: Vec<(String, String)>,
    /// `--route PATTERN[@ZONE]` (repeatable): routes added to the project's `wrangler.toml`;
    /// their host names are accepted (`ALLOWED_HOSTS`).
    pub routes: Vec<Route>,
    /// `--strict` and `--skip-invalid`, over the environment's.
    pub(crate) options: compile::Options,
    /// `--sign PATH` and `--catalog-id ID`, over the environment's: the Worker serves signed
    /// skills.
    pub(crate) signing: Option<options::Signing>,
    /// `--oms-sign PATH` over `SKILLS_OMS_KEY`: every skill carries an OpenSSF Model Signing
    /// signature, `skill.oms.sig` (`catalog::oms`; `None`: none).
    pub oms_key: Option<String>,
}

/// A route of `--route`: a custom domain (a host name alone, `skills.example.com`: the Worker
/// is that host's origin) or a route on a zone (`PATTERN@ZONE`: `example.com/skills/*` on the
/// zone `example.com`), as wrangler's `routes` spell them.
///
/// ```
/// use skills_edge::command::args::{parse, Invocation, Program};
/// # let line = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
/// let args = line(&["worker", "skills", "--out", "w", "--route", "example.com/skills/*@example.com"]);
/// let Ok(Invocation::Worker(a)) = parse(Program::Npm, &args, |_| None) else { panic!() };
/// let route = &a.routes[0];
/// assert_eq!((route.pattern.as_str(), route.zone.as_deref()), ("example.com/skills/*", Some("example.com")));
/// assert_eq!(route.host(), "example.com");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Route {
    /// The route's pattern (a host name for a custom domain).
    pub pattern: String,
    /// The zone of a route by pattern; `None`: a custom domain.
    pub zone: Option<String>,
}

impl Route {
    /// The host name the route serves (its pattern up to the first `/`;
    /// `*.example.com` stays a wildcard), which `ALLOWED_HOSTS` must accept.
    pub fn host(&self) -> &str {
        self.pattern.split('/').next().unwrap_or_default()
    }
}

/// `--route PATTERN[@ZONE]`: a host name alone is a custom domain; a pattern with a path or a
/// wildcard needs its zone. Only what stays one TOML string without escapes is accepted.
fn parse_route(v: &str) -> Result<Route, String> {
    let plain = |t: &str| {
        !t.is_empty()
            && t.bytes().all(|c| (0x21..=0x7e).contains(&c))
            && !t.contains(['"', '\\', ',', '@', '\''])
    };
    let (pattern, zone) = match v.split_once('@') {
        Some((p, z)) => (p, Some(z)),
        None => (v, None),
    };
    if !plain(pattern) || !zone.is_none_or(plain) {
        return Err(format!(
            "--route {v:?} is not a route: use a custom domain (skills.example.com) or PATTERN@ZONE (example.com/skills/*@example.com)"
        ));
    }
    if zone.is_none() && pattern.contains(['/', '*']) {
        return Err(format!(
            "--route {v:?} is a pattern without its zone: add @ZONE (e.g. {pattern}@example.com), or give a host name alone for a custom domain"
        ));
    }
    Ok(Route {
        pattern: pattern.to_owned(),
        zone: zone.map(str::to_owned),
    })
}

/// `--var NAME=VALUE`: a name as wrangler.toml keys and Worker vars spell them; a misspelt
/// setting of the Worker is refused as the Worker would refuse it
/// ([`settings::check_names`]). The value is the Worker's to check when it starts.
fn parse_var(v: &str) -> Result<(String, String), String> {
    let (name, value) = v
        .split_once('=')
        .ok_or_else(|| format!("--var {v:?} has no '=': use NAME=VALUE, e.g. FALLBACK=tools"))?;
    let ok = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    if name.is_empty() || !name.bytes().all(ok) || name.as_bytes()[0].is_ascii_digit() {
        return Err(format!(
            "--var {name:?} is not a variable name: use letters, digits and '_', e.g. FALLBACK=tools"
        ));
    }
    settings::check_names(
        Source::Var,
        &[Scope::Responder, Scope::Http, Scope::Auth],
        [name],
    )
    .map_err(|e| format!("--var: {e}"))?;
    Ok((name.to_owned(), value.to_owned()))
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
/// [--skip-invalid] [--force] [--unsigned] [--sign PATH [--catalog-id ID]]`.
pub(super) fn parse_worker(
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
    let mut unsigned = false;
    let mut vars: Vec<(String, String)> = Vec::new();
    let mut routes: Vec<Route> = Vec::new();
    let mut sign = SignFlags::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if sign.take(a, &mut it)? {
            continue;
        }
        let what = match a.as_str() {
            "--strict" | "--skip-invalid" | "--force" | "--unsigned" => {
                match a.as_str() {
                    "--strict" => options.strict = true,
                    "--skip-invalid" => options.skip_invalid = true,
                    "--force" => force = true,
                    _ => unsigned = true,
                }
                continue;
            }
            "--name" => "a Worker name",
            "--allowed-hosts" => "a comma-separated list of host names",
            "--inline-max" => "a number of bytes",
            "--var" => "NAME=VALUE",
            "--route" => "a custom domain or PATTERN@ZONE",
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
            "--var" => {
                let (name, value) = parse_var(&v)?;
                vars.retain(|(n, _)| *n != name);
                vars.push((name, value));
            }
            "--route" => {
                let route = parse_route(&v)?;
                if !routes.contains(&route) {
                    routes.push(route);
                }
            }
            _ => out = Some(v),
        }
    }
    let dir = dir.ok_or("worker needs a skills folder")?;
    let out =
        out.ok_or("worker needs --out <dir> (the folder to write the Worker project into)")?;
    check_name(&name)?;
    check_hosts(&hosts)?;
    let inline_max = match inline_max {
        Some(v) => options::inline_max("--inline-max", &v)?,
        None => pack::DEFAULT_INLINE_MAX,
    };
    let oms_key = sign.oms_key(env);
    let signing = sign.resolve(env)?;
    if unsigned && signing.is_some() {
        return Err("--unsigned and a signing key (--sign or SKILLS_SIGNING_KEY) contradict each other: give one of them".into());
    }
    Ok(WorkerArgs {
        dir,
        out,
        name,
        hosts,
        inline_max,
        force,
        unsigned,
        vars,
        routes,
        options,
        signing,
        oms_key,
    })
}

/// `--name`: a Worker name (lowercase letters, digits and dashes).
fn check_name(name: &str) -> Result<(), String> {
    if !is_worker_name(name) {
        return Err(format!(
            "--name {name:?} is not a Worker name: use lowercase letters, digits and dashes (up to 63, not first or last), e.g. team-skills"
        ));
    }
    Ok(())
}

/// `--allowed-hosts`: each name one TOML string.
fn check_hosts(hosts: &[String]) -> Result<(), String> {
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
    Ok(())
}
