//! `check` and `pack` after their arguments were read: the skills folder compiled with the
//! compiler the build uses; its entries printed (`check`, or `pack` without `-o`), or the pack
//! written (and, with `--assets`, the files left out of it). The files and the terminal are
//! the caller's ([`Io`]); the native command runs it (the npm package's `check` and `pack`
//! run `compileCatalog`).

use super::args::PackArgs;
use super::publish::{compile_folder, Io};
use crate::{compile, pack};

/// Runs `check` or `pack` (`a`) and returns the exit status: 0, or 1 once the error is printed
/// (a folder that breaks a rule, a signing key that cannot be read or used, an output that
/// cannot be written). With a signing key, every skill is signed after the folder compiles;
/// a key that cannot be read or used stops the command first, with a `signing-key` error
/// naming the file.
pub fn run(a: &PackArgs, io: &Io) -> u8 {
    let signer = match a
        .signing
        .as_ref()
        .map(|s| s.signer((io.read_file)(&s.key_file)))
        .transpose()
    {
        Ok(s) => s,
        Err(d) => {
            err!(io, "{}", d.render(""));
            return 1;
        }
    };
    // The scratch folder is the publish run's only: `compile_folder` never uses it.
    let Some(mut c) = compile_folder(a, io) else {
        return 1;
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
        print_entries(io, &c, &summary, signed.as_deref());
        return 0;
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
                err!(io, "{e}");
                return 1;
            }
        },
        None => Vec::new(),
    };
    let written = write_pack(io, output, &packed.pack);
    if let Err(e) = written {
        err!(
            io,
            "error: cannot write {output}: {e}\n  fix: check that its folder can be created and written"
        );
        return 1;
    }
    let Some((assets_dir, policy)) = &a.assets else {
        err!(
            io,
            "{summary}: wrote {output} ({} bytes)",
            packed.pack.len()
        );
        if let Some(line) = &signed {
            err!(io, "{line}");
        }
        return 0;
    };
    if let Err(e) = write_assets(io, assets_dir, &packed.assets) {
        err!(
            io,
            "error: cannot write the assets into {assets_dir}: {e}\n  fix: check that the folder can be created and written"
        );
        return 1;
    }
    let wrote = format!("{summary}: wrote {output}");
    err!(
        io,
        "{}",
        assets_line(&c, &packed, policy, &wrote, assets_dir)
    );
    if let Some(line) = &signed {
        err!(io, "{line}");
    }
    for w in warnings {
        err!(io, "{w}");
    }
    0
}

/// Writes the pack to `output`. A missing folder of the output is made, then the write tried
/// again (`pack -o build/skills.pack` in a fresh checkout); when it cannot be made, the first
/// write's error is the one reported (a folder under a file: "Not a directory").
fn write_pack(io: &Io, output: &str, pack: &[u8]) -> Result<(), String> {
    (io.write_file)(output, pack).or_else(|first| match output.rsplit_once(['/', '\\']) {
        Some((dir, _)) if !dir.is_empty() && (io.make_dir)(dir).is_ok() => {
            (io.write_file)(output, pack)
        }
        _ => Err(first),
    })
}

/// `check` (and `pack` without `-o`): the entries as a JSON array on standard output, then the
/// summary and the signing line on standard error.
fn print_entries(io: &Io, c: &compile::Compiled, summary: &str, signed: Option<&str>) {
    let mut out = String::from("[");
    for (i, s) in c.skills.iter().enumerate() {
        out.push_str(if i == 0 { "\n  " } else { ",\n  " });
        out.push_str(&c.entry_json(s));
    }
    out.push_str(if c.skills.is_empty() { "]\n" } else { "\n]\n" });
    (io.stdout)(&out);
    err!(io, "{summary}: ok");
    if let Some(line) = signed {
        err!(io, "{line}");
    }
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

/// Writes each asset into `dir` (made if missing) under its name.
fn write_assets(io: &Io, dir: &str, assets: &[pack::Asset]) -> Result<(), String> {
    (io.make_dir)(dir)?;
    for x in assets {
        (io.write_file)(
            &format!("{}/{}", dir.trim_end_matches('/'), x.name),
            &x.bytes,
        )?;
    }
    Ok(())
}
