//! `check` and `pack`: their arguments, and the signing flags they share with `worker`.

use super::{is_option, Program};
use crate::compile;
use crate::options;
use crate::pack;

/// The arguments of `check` and `pack`; no output means checking only.
///
/// ```
/// use skills_edge::command::args::{parse, Invocation, Program};
/// # let line = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
/// let args = line(&["pack", "skills", "-o", "catalog.pack", "--instructions", "Use the skills."]);
/// let Ok(Invocation::Pack(a)) = parse(Program::Native, &args, |_| None) else { panic!("a pack") };
/// assert_eq!((a.dir.as_str(), a.output.as_deref()), ("skills", Some("catalog.pack")));
/// assert_eq!(a.instructions.as_deref(), Some("Use the skills."));
/// assert!(a.oms_key.is_none() && format!("{a:?}").contains("signing: None"), "no key given");
/// ```
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
    pub(crate) assets: Option<(String, pack::AssetPolicy)>,
    /// `--strict` and `--skip-invalid`, over the environment's.
    pub(crate) options: compile::Options,
    /// `--sign PATH` and `--catalog-id ID`, over `SKILLS_SIGNING_KEY` and `SKILLS_CATALOG_ID`:
    /// sign every skill (`None`: the catalog is not signed).
    pub(crate) signing: Option<options::Signing>,
    /// `--oms-sign PATH` over `SKILLS_OMS_KEY`: give every skill an OpenSSF Model Signing
    /// signature, `skill.oms.sig` (`catalog::oms`; `None`: none).
    pub oms_key: Option<String>,
}

/// `--sign PATH` and `--catalog-id ID` as they are met on a command line (each at most once).
#[derive(Default)]
pub(super) struct SignFlags {
    key: Option<String>,
    id: Option<String>,
    oms: Option<String>,
}

impl SignFlags {
    /// Takes `flag` (with its value from `it`) when it is `--sign` or `--catalog-id`; `Ok(false)`
    /// for any other argument.
    pub(super) fn take<'a>(
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
    pub(super) fn oms_key(&mut self, env: &impl Fn(&str) -> Option<String>) -> Option<String> {
        self.oms
            .take()
            .or_else(|| env(crate::oms::OMS_KEY_VAR).filter(|v| !v.is_empty()))
    }

    /// The signing options: these flags over the environment's variables.
    pub(super) fn resolve(
        self,
        env: &impl Fn(&str) -> Option<String>,
    ) -> Result<Option<options::Signing>, String> {
        Ok(options::signing(
            env,
            self.key.as_deref(),
            self.id.as_deref(),
        )?)
    }
}

/// `check <dir> [--strict] [--skip-invalid] [--sign PATH [--catalog-id ID]]`.
pub(super) fn parse_check(
    args: &[String],
    env: &impl Fn(&str) -> Option<String>,
) -> Result<PackArgs, String> {
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
pub(super) fn parse_pack(
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
