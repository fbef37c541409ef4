//! `skills-edge check` and `skills-edge pack`: compile a skills folder with the same compiler
//! the build uses; print its entries, or write the pack (and, with `--assets`, the files left
//! out of it).

use skills_edge::catalog::{compile, options, pack, walk};
use std::io;
use std::path::Path;
use std::process::ExitCode;

/// The defaults of `--strict` and `--skip-invalid`: `SKILLS_STRICT` and `SKILLS_ON_INVALID`,
/// read as the build reads them ([`options::from_env`]), so `scripts/build-worker.sh` and
/// `scripts/serve.sh`, which run `pack`, honour them.
fn build_options_from_env() -> Result<compile::Options, String> {
    options::from_env(|v| std::env::var(v).ok())
}

/// `check <dir> [--strict] [--skip-invalid]`: `pack --check` with fewer options.
pub(crate) fn parse_check_args(args: &[String]) -> Result<PackArgs, String> {
    let mut a = PackArgs {
        options: build_options_from_env()?,
        ..PackArgs::default()
    };
    let mut dir = None;
    for arg in args {
        match arg.as_str() {
            "--strict" => a.options.strict = true,
            "--skip-invalid" => a.options.skip_invalid = true,
            s if s.starts_with('-') && s.len() > 1 => return Err(format!("unknown option {s:?}")),
            _ if dir.is_some() => {
                return Err("check takes exactly one folder (and --strict, --skip-invalid)".into())
            }
            _ => dir = Some(arg.clone()),
        }
    }
    a.dir = dir.ok_or("check takes exactly one folder (and --strict, --skip-invalid)")?;
    Ok(a)
}

/// Arguments of `pack`; no output means `--check`.
#[derive(Default)]
pub(crate) struct PackArgs {
    dir: String,
    output: Option<String>,
    instructions: Option<String>,
    /// Where the files left out go, and which files those are.
    assets: Option<(String, pack::AssetPolicy)>,
    /// `--strict` and `--skip-invalid`.
    options: compile::Options,
}

pub(crate) fn parse_pack_args(args: &[String]) -> Result<PackArgs, String> {
    let mut dir = None;
    let mut output = None;
    let mut check = false;
    let mut options = build_options_from_env()?;
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
                inline_max = Some(options::inline_max("--inline-max", v)?);
            }
            "--check" => check = true,
            "--strict" => options.strict = true,
            "--skip-invalid" => options.skip_invalid = true,
            "--instructions" => {
                instructions = Some(it.next().ok_or("--instructions needs a text")?.clone());
            }
            s if s.starts_with('-') && s.len() > 1 => return Err(format!("unknown option {s:?}")),
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
pub(crate) fn pack_command(a: &PackArgs) -> ExitCode {
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
    let warnings = match a.assets {
        Some(_) => match pack::workers_limits(&c, &packed) {
            Ok(w) => w,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        },
        None => Vec::new(),
    };
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
    let out_archives = c
        .skills
        .iter()
        .filter_map(|s| s.archive.as_ref())
        .filter(|a| a.size > policy.inline_max)
        .count();
    eprintln!(
        "{summary}: wrote {output} ({} bytes; {} files, {inline_bytes} bytes inline); {} assets ({} files and {out_archives} mirror archive{} left out, {asset_bytes} bytes) in {assets_dir}",
        packed.pack.len(),
        c.files.len() - out_files.len(),
        packed.assets.len(),
        out_files.len(),
        if out_archives == 1 { "" } else { "s" },
    );
    for w in warnings {
        eprintln!("{w}");
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
