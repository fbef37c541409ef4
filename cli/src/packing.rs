//! `skills-edge check` and `skills-edge pack`: compile a skills folder with the same compiler
//! the build uses; print its entries, or write the pack (and, with `--assets`, the files left
//! out of it). The arguments are read by `skills_edge::command::args`.

use skills_edge::catalog::{compile, pack};
use skills_edge::command::args::PackArgs;
use skills_edge::command::publish::compile_folder;
use std::io;
use std::path::Path;
use std::process::ExitCode;

/// `check` and `pack`: compile the folder; print the entries (checking) or write the pack.
/// With a signing key, every skill is signed after the folder compiles; a key that cannot be
/// read or used stops the command first, with a `signing-key` error naming the file.
pub(crate) fn pack_command(a: &PackArgs) -> ExitCode {
    let signer = match a.signing.as_ref().map(|s| s.load()).transpose() {
        Ok(s) => s,
        Err(d) => {
            eprintln!("{}", d.render(""));
            return ExitCode::FAILURE;
        }
    };
    // The scratch folder is the publish run's only: `compile_folder` never uses it.
    let Some(mut c) = compile_folder(a, &crate::publish::native_io("")) else {
        return ExitCode::FAILURE;
    };
    // The line both commands print for a signed catalog: key id and identity, never the key.
    let signed = signer.map(|s| {
        c.sign(&s.key, &s.catalog);
        format!(
            "signed: {} skills, key id {}, catalog {}",
            c.skills.len(),
            s.key.public().key_id(),
            s.catalog
        )
    });
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
        if let Some(line) = &signed {
            eprintln!("{line}");
        }
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
    // The output's folder is made first (`pack -o build/skills.pack` in a fresh checkout).
    let written = match Path::new(output).parent() {
        Some(dir) if !dir.as_os_str().is_empty() && !dir.exists() => std::fs::create_dir_all(dir),
        _ => Ok(()),
    }
    .and_then(|()| std::fs::write(output, &packed.pack));
    if let Err(e) = written {
        eprintln!("error: cannot write {output}: {e}\n  fix: check that its folder can be created and written");
        return ExitCode::FAILURE;
    }
    let Some((assets_dir, policy)) = &a.assets else {
        eprintln!("{summary}: wrote {output} ({} bytes)", packed.pack.len());
        if let Some(line) = &signed {
            eprintln!("{line}");
        }
        return ExitCode::SUCCESS;
    };
    if let Err(e) = write_assets(Path::new(assets_dir), &packed.assets) {
        eprintln!("error: cannot write the assets into {assets_dir}: {e}\n  fix: check that the folder can be created and written");
        return ExitCode::FAILURE;
    }
    eprintln!(
        "{}",
        assets_line(
            &c,
            &packed,
            policy,
            &format!("{summary}: wrote {output}"),
            assets_dir
        )
    );
    if let Some(line) = &signed {
        eprintln!("{line}");
    }
    for w in warnings {
        eprintln!("{w}");
    }
    ExitCode::SUCCESS
}

/// The line `pack --assets` prints after writing: `wrote` (the summary and the pack's
/// file), then what stayed inline and what went into `assets_dir`.
fn assets_line(
    c: &compile::Compiled,
    packed: &pack::Packed,
    policy: &pack::AssetPolicy,
    wrote: &str,
    assets_dir: &str,
) -> String {
    let bytes: u64 = c.files.iter().map(|f| f.size).sum();
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
    format!(
        "{wrote} ({} bytes; {} files, {inline_bytes} bytes inline); {} assets ({} files and {out_archives} mirror archive{} left out, {asset_bytes} bytes) in {assets_dir}",
        packed.pack.len(),
        c.files.len() - out_files.len(),
        packed.assets.len(),
        out_files.len(),
        if out_archives == 1 { "" } else { "s" },
    )
}

/// Writes each asset into `dir` (created if missing) under its name.
fn write_assets(dir: &Path, assets: &[pack::Asset]) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for x in assets {
        std::fs::write(dir.join(&x.name), &x.bytes)?;
    }
    Ok(())
}
