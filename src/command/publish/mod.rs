//! `skills-edge publish` and `skills-edge gc` (the native command and the npm package's, which
//! supply the I/O: [`Io`]): a skills folder published to an R2 bucket for
//! the Worker's `CATALOG_SOURCE = "r2"` (docs/serving.md, "Update skills without
//! redeploying").
//!
//! * `publish DIR --bucket NAME [--catalog ID] [--sign KEY] [pack's flags]`: compiles and
//!   signs the folder (a key is required: `--sign` or `SKILLS_SIGNING_KEY`), uploads the
//!   assets the bucket does not hold yet, then the pack under its SHA-256, then the signed
//!   release and the history, and moves the pointer (`ID/current.json`) last, so a reader
//!   never finds a pointer to something incomplete. Prints the revision on stdout.
//! * `publish --rollback REVISION --bucket NAME [--catalog ID]`: moves the pointer back to a
//!   release published before (its signed bytes, unchanged: no key needed).
//! * `gc --keep N --bucket NAME [--catalog ID] [--trust FILE]`: deletes the packs, releases
//!   and assets that neither the pointer nor the last N revisions of the history name (with
//!   `--trust`, the last N whose release a key of FILE signed). Never beside a publish.
//! * `--dry-run` says what would be uploaded or deleted; `--local [--persist-to DIR]` works on
//!   wrangler dev's local store instead of the account's bucket (`--remote`, the default, says
//!   the account's bucket explicitly, as the GitHub Actions workflow of docs/serving.md does).
//!
//! The bucket is reached through wrangler's `r2 object get/put/delete` commands (Cloudflare's
//! maintained command line; it works offline against the local store), run as
//! `SKILLS_EDGE_WRANGLER` when set, else `npx wrangler`.

use crate::command::args::{self, Invocation, PackArgs, Program};
use crate::compile::{self, SourceTree};
use crate::oms;
use crate::pack;
use crate::release::{self, keys, HistoryEntry as Entry, Release};
use crate::sign::{Envelope, PublicKey};
use store::{Store, Via, Wrangler};

/// `s` as a JSON string.
fn json_string(s: &str, out: &mut String) {
    crate::skill::value::write_json_string(s, out);
}

/// What `publish`, `gc` (and `check`/`pack`'s `compile_folder`) do outside the library,
/// supplied by the command that runs them: the native command (files, processes and the
/// terminal of the operating system) and the npm package's (Node's `fs`, `child_process`
/// and `process`). Every message and every wrangler command line is made here, so both
/// commands print the same and run the same wrangler commands.
///
/// ```
/// use skills_edge::catalog::compile::SourceTree;
/// use skills_edge::command::publish::{command, Io};
/// use std::cell::RefCell;
/// let stderr = RefCell::new(String::new());
/// let io = Io {
///     env: &|_| None,
///     read_folder: &|_| SourceTree::default(),
///     read_file: &|p| Err(format!("{p}: not found")),
///     write_file: &|_, _| Ok(()),
///     remove_file: &|_| {},
///     make_dir: &|_| Ok(()),
///     remove_dir: &|_| {},
///     scratch: "/tmp/skills-edge-publish-1",
///     run: &|_, _| Err("no wrangler here".into()),
///     stdout: &|_| {},
///     stderr: &|s| stderr.borrow_mut().push_str(s),
/// };
/// assert_eq!(command(&["skills".to_owned()], false, &io), 2);
/// assert!(stderr.borrow().starts_with("error: --bucket NAME is required"));
/// ```
// Closures' types spelled out (type aliases would be more public items for one use each).
#[allow(clippy::type_complexity)]
pub struct Io<'a> {
    /// The environment's variables (`SKILLS_SIGNING_KEY`, `SKILLS_EDGE_WRANGLER`, …).
    pub env: &'a dyn Fn(&str) -> Option<String>,
    /// The skills folder at the path, read as `check` reads it (no link followed).
    pub read_folder: &'a dyn Fn(&str) -> SourceTree,
    /// The file's bytes, or the system's reason it cannot be read (Rust's `io::Error` text).
    pub read_file: &'a dyn Fn(&str) -> Result<Vec<u8>, String>,
    /// Writes the file (replacing it), or the system's reason it cannot.
    pub write_file: &'a dyn Fn(&str, &[u8]) -> Result<(), String>,
    /// Removes the file if it is there.
    pub remove_file: &'a dyn Fn(&str),
    /// Makes the folder (and its parents), or the system's reason it cannot.
    pub make_dir: &'a dyn Fn(&str) -> Result<(), String>,
    /// Removes the folder and what it holds, if it is there.
    pub remove_dir: &'a dyn Fn(&str),
    /// A folder of this run's own for the files handed to wrangler (made, then removed, by
    /// the run), e.g. `skills-edge-publish-PID` in the system's temporary folder.
    pub scratch: &'a str,
    /// Runs the program with the arguments, `WRANGLER_SEND_METRICS=false` added to the
    /// environment, and waits: whether it exited 0, and its standard output then its
    /// standard error; or the system's reason it could not start.
    pub run: &'a dyn Fn(&str, &[String]) -> Result<(bool, String), String>,
    /// Writes to standard output.
    pub stdout: &'a dyn Fn(&str),
    /// Writes to standard error.
    pub stderr: &'a dyn Fn(&str),
}

/// The flags `publish` and `gc` read themselves; the rest are `pack`'s.
#[derive(Default)]
struct Flags {
    bucket: Option<String>,
    catalog: Option<String>,
    dry_run: bool,
    /// `--reupload`: upload every asset, also those the history says the bucket holds.
    reupload: bool,
    local: bool,
    /// `--remote`: the account's bucket, said explicitly (the default).
    remote: bool,
    persist_to: Option<String>,
    config: Option<String>,
    rollback: Option<String>,
    keep: Option<usize>,
    /// `gc --trust FILE`: the Worker's CATALOG_TRUST, so refused revisions do not count.
    trust: Option<String>,
    rest: Vec<String>,
}

pub(crate) const USAGE: &str = "usage:
  skills-edge publish <dir> --bucket NAME [--catalog ID] [--sign KEY] [--catalog-id ID]
                      [--inline-max BYTES] [--strict] [--skip-invalid] [--dry-run]
                      [--reupload] [--remote | --local [--persist-to DIR]] [--config wrangler.toml]
  skills-edge publish --rollback REVISION --bucket NAME [--catalog ID] [--local ...]
  skills-edge gc --keep N --bucket NAME [--catalog ID] [--trust FILE] [--dry-run] [--local ...]
The signing key is --sign or SKILLS_SIGNING_KEY; wrangler is SKILLS_EDGE_WRANGLER or `npx wrangler`.
publish uploads the assets no earlier release in the history names; --reupload uploads them all,
which repairs an asset changed or deleted in the bucket outside publish.";

/// `gc --trust FILE`: the keys in FILE (a `signing.pub`, a JWK Set or an array of JWKs, as
/// `CATALOG_TRUST`), and the name a refusal gives their source (`--trust FILE`).
fn read_trust(file: Option<&str>, io: &Io) -> Result<Option<Trust>, String> {
    let Some(file) = file else { return Ok(None) };
    // As `std::fs::read_to_string` reads it, with its words for a file that is not UTF-8.
    let text = (io.read_file)(file)
        .and_then(|b| {
            String::from_utf8(b).map_err(|_| "stream did not contain valid UTF-8".to_owned())
        })
        .map_err(|e| format!("--trust {file}: cannot read it: {e}"))?;
    release::parse_trust(&text)
        .map(|keys| {
            Some(Trust {
                keys,
                source: format!("--trust {file}"),
            })
        })
        .map_err(|e| format!("--trust {file}: {e}"))
}

/// The keys `gc` counts revisions by, and where they came from.
struct Trust {
    keys: Vec<PublicKey>,
    source: String,
}

/// Prints `msg` and the usage text; exit status 2.
fn usage_error(msg: &str, io: &Io) -> u8 {
    err!(io, "error: {msg}\n\n{USAGE}");
    2
}

fn read_flags(argv: &[String]) -> Result<Flags, String> {
    let mut f = Flags::default();
    let mut it = argv.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match a.as_str() {
            "--bucket" => f.bucket = Some(value("--bucket")?),
            "--catalog" => f.catalog = Some(value("--catalog")?),
            "--persist-to" => f.persist_to = Some(value("--persist-to")?),
            "--config" | "-c" => f.config = Some(value("--config")?),
            "--rollback" => f.rollback = Some(value("--rollback")?),
            "--trust" => f.trust = Some(value("--trust")?),
            "--keep" => {
                let v = value("--keep")?;
                f.keep = Some(
                    v.parse()
                        .map_err(|_| format!("--keep {v:?} is not a number of revisions"))?,
                );
            }
            "--dry-run" => f.dry_run = true,
            "--reupload" => f.reupload = true,
            "--local" => f.local = true,
            "--remote" => f.remote = true,
            "--help" | "-h" => return Err(String::new()),
            _ => f.rest.push(a.clone()),
        }
    }
    Ok(f)
}

/// `skills-edge publish …` (`gc` false) or `skills-edge gc …` (`gc` true): `argv` is the
/// arguments after the subcommand, `io` everything the run does outside the library. Returns
/// the exit status: 0 done, 1 failed (the error printed), 2 bad arguments (the error and the
/// usage printed). The native command and the npm package's run it alike.
pub fn command(argv: &[String], gc: bool, io: &Io) -> u8 {
    let usage_error = |msg: &str| usage_error(msg, io);
    let f = match read_flags(argv) {
        Ok(f) => f,
        Err(e) if e.is_empty() => {
            out!(io, "{USAGE}");
            return 0;
        }
        Err(e) => return usage_error(&e),
    };
    let Some(bucket) = f.bucket.clone() else {
        return usage_error(
            "--bucket NAME is required (the R2 bucket the Worker's CATALOG_BUCKET binding names)",
        );
    };
    let catalog = f
        .catalog
        .clone()
        .unwrap_or_else(|| release::DEFAULT_CATALOG.to_owned());
    if let Err(e) = release::check_catalog_id(&catalog) {
        return usage_error(&format!("--catalog: {e}"));
    }
    if f.persist_to.is_some() && !f.local {
        return usage_error("--persist-to goes with --local");
    }
    if f.local && f.remote {
        return usage_error("--local and --remote name different stores: give one");
    }
    let tmp = io.scratch;
    if let Err(e) = (io.make_dir)(tmp) {
        err!(io, "error: cannot make {tmp}: {e}");
        return 1;
    }
    let store = Store {
        bucket,
        catalog,
        io: Via::Wrangler(Wrangler {
            local: f.local,
            persist_to: f.persist_to.clone(),
            config: f.config.clone(),
            tmp: tmp.to_owned(),
            io,
        }),
    };
    let result = if f.reupload && (gc || f.rollback.is_some()) {
        Err(format!(
            "{} takes no --reupload (it uploads nothing): publish the folder with --reupload",
            if gc { "gc" } else { "--rollback" }
        ))
    } else if gc {
        match (f.keep, f.rest.is_empty(), f.rollback.is_none()) {
            (Some(n), true, true) => match read_trust(f.trust.as_deref(), io) {
                Ok(trust) => collect(&store, n, trust.as_ref(), f.dry_run).map(|said| {
                    for line in said {
                        err!(io, "{line}");
                    }
                }),
                Err(e) => Err(e),
            },
            (None, _, _) => Err("gc needs --keep N".into()),
            _ => Err(format!(
                "gc takes no {:?}",
                f.rest.first().map_or("--rollback", |s| s)
            )),
        }
    } else if let Some(rev) = &f.rollback {
        if f.rest.is_empty() {
            rollback(&store, rev, f.dry_run, io)
        } else {
            Err(format!(
                "--rollback takes no folder or pack flags ({:?})",
                f.rest[0]
            ))
        }
    } else {
        publish(&store, &f, io)
    };
    (io.remove_dir)(tmp);
    match result {
        Ok(()) => 0,
        Err(e) if e.starts_with("usage: ") => usage_error(&e["usage: ".len()..]),
        Err(e) => {
            err!(io, "error: {e}");
            1
        }
    }
}

fn read_history(store: &Store) -> Result<Vec<Entry>, String> {
    let key = keys::history(&store.catalog);
    let Some(bytes) = store.get(&key)? else {
        return Ok(Vec::new());
    };
    release::parse_history(&bytes).map_err(|e| {
        format!(
            "{}/{key} is damaged ({e}); delete it to start a new history",
            store.bucket
        )
    })
}

fn write_history(store: &Store, h: &[Entry]) -> Result<(), String> {
    let text = release::history_text(h);
    store.put(
        &keys::history(&store.catalog),
        text.as_bytes(),
        "text/plain",
    )
}

/// The folder compiled, signed and packed for `store`'s catalog: the pack with its assets,
/// the signed release, and the line describing them (without the upload counts).
struct Built {
    packed: pack::Packed,
    signed: String,
    rev: String,
    summary: String,
}

fn build(store: &Store, f: &Flags, io: &Io) -> Result<Built, String> {
    // The folder and the pack's flags, read by the pack command's own parser.
    let mut argv: Vec<String> = vec!["pack".into()];
    argv.extend(f.rest.iter().cloned());
    argv.extend(["-o".into(), "-".into()]);
    if !f.rest.iter().any(|a| a == "--inline-max") {
        argv.extend(["--inline-max".into(), pack::DEFAULT_INLINE_MAX.to_string()]);
    }
    argv.extend(["--assets".into(), "-".into()]);
    let a = match args::parse(Program::Native, &argv, io.env) {
        Ok(Invocation::Pack(a)) => a,
        Ok(_) => return Err("usage: publish takes a skills folder".into()),
        Err(e) => return Err(format!("usage: {e}")),
    };
    let Some(signing) = &a.signing else {
        return Err("publish needs a signing key: --sign PATH or SKILLS_SIGNING_KEY (make one with skills-edge keygen --out DIR); the Worker serves only packs signed by a key of its CATALOG_TRUST".into());
    };
    let signer = signing
        .signer((io.read_file)(&signing.key_file))
        .map_err(|d| d.render(""))?;
    let Some(mut c) = compile_folder(&a, io) else {
        return Err(format!("{} does not compile (see above)", a.dir));
    };
    c.sign(&signer.key, &signer.catalog);
    let policy = a.assets.as_ref().map(|(_, p)| *p);
    let packed = pack::encode_with(
        &c,
        &pack::PackOptions {
            instructions: a.instructions.as_deref(),
            assets: policy,
        },
    );
    for w in pack::workers_limits(&c, &packed)? {
        err!(io, "{w}");
    }
    let assets: Vec<(String, u64)> = packed
        .assets
        .iter()
        .map(|x| (x.name.clone(), x.bytes.len() as u64))
        .collect();
    let r = Release::of(&store.catalog, &packed.pack, &assets);
    let rev = r.revision().to_owned();
    let summary = format!(
        "{}: {} skills, key id {}; revision {rev}: pack {} bytes, {} assets",
        a.dir,
        c.skills.len(),
        signer.key.public().key_id(),
        packed.pack.len(),
        packed.assets.len(),
    );
    Ok(Built {
        signed: r.sign(&signer.key),
        rev,
        packed,
        summary,
    })
}

fn publish(store: &Store, f: &Flags, io: &Io) -> Result<(), String> {
    let Built {
        packed,
        signed,
        rev,
        summary,
    } = build(store, f, io)?;
    let assets: Vec<(String, u64)> = packed
        .assets
        .iter()
        .map(|x| (x.name.clone(), x.bytes.len() as u64))
        .collect();
    let mut history = read_history(store)?;
    let present: std::collections::HashSet<&str> = history
        .iter()
        .flat_map(|e| e.assets.iter().map(String::as_str))
        .collect();
    // What the history names is in the bucket unless something outside publish changed it;
    // `--reupload` does not trust that (R2 cannot be listed through wrangler's commands).
    let missing: Vec<&pack::Asset> = packed
        .assets
        .iter()
        .filter(|x| f.reupload || !present.contains(x.name.as_str()))
        .collect();
    let missing_bytes: usize = missing.iter().map(|x| x.bytes.len()).sum();
    err!(
        io,
        "{summary} ({} to upload, {missing_bytes} bytes)",
        missing.len()
    );
    let target = format!("{}/{}", store.bucket, store.catalog);
    if f.dry_run {
        for x in &missing {
            err!(
                io,
                "would upload {target}/assets/{} ({} bytes)",
                x.name,
                x.bytes.len()
            );
        }
        err!(
            io,
            "would upload {}/{}",
            store.bucket,
            keys::pack(&store.catalog, &rev)
        );
        err!(
            io,
            "would move {}/{} to revision {rev}",
            store.bucket,
            keys::pointer(&store.catalog)
        );
        out!(io, "{rev}");
        return Ok(());
    }
    // The assets, the pack and the release in one upload: nothing names them until the
    // pointer moves.
    let mut objects: Vec<(String, &[u8])> = missing
        .iter()
        .map(|x| {
            (
                format!("{}{}", keys::assets(&store.catalog), x.name),
                x.bytes.as_slice(),
            )
        })
        .collect();
    objects.push((keys::pack(&store.catalog, &rev), &packed.pack));
    objects.push((keys::release(&store.catalog, &rev), signed.as_bytes()));
    store.put_all(&objects)?;
    history.retain(|e| e.revision != rev);
    history.push(Entry {
        revision: rev.clone(),
        assets: assets.into_iter().map(|(n, _)| n).collect(),
    });
    write_history(store, &history)?;
    // Last: the pointer, so a reader never finds it naming an object not uploaded yet.
    store.put(
        &keys::pointer(&store.catalog),
        signed.as_bytes(),
        "application/json",
    )?;
    err!(
        io,
        "published {target}: pointer {} -> revision {rev}",
        keys::pointer(&store.catalog)
    );
    out!(io, "{rev}");
    Ok(())
}

/// The one revision of the history `given` names (in full, or a prefix of at least 8
/// characters that only it starts with).
fn resolve(history: &[Entry], given: &str) -> Result<String, String> {
    if given.len() < 8 {
        return Err(format!("usage: --rollback {given:?}: give the revision publish printed (at least its first 8 characters)"));
    }
    let found: Vec<&Entry> = history
        .iter()
        .filter(|e| e.revision.starts_with(given))
        .collect();
    match found.as_slice() {
        [one] => Ok(one.revision.clone()),
        [] => Err(format!(
            "no published revision starts with {given:?} (the history holds {})",
            if history.is_empty() {
                "none".to_owned()
            } else {
                history
                    .iter()
                    .map(|e| &e.revision[..12])
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        )),
        _ => Err(format!(
            "more than one revision starts with {given:?}: give more of it"
        )),
    }
}

fn rollback(store: &Store, given: &str, dry_run: bool, io: &Io) -> Result<(), String> {
    let history = read_history(store)?;
    let rev = resolve(&history, given)?;
    let key = keys::release(&store.catalog, &rev);
    let signed = store.get(&key)?.ok_or_else(|| {
        format!(
            "{}/{key} is missing: that revision was collected by gc",
            store.bucket
        )
    })?;
    let env =
        Envelope::parse(&signed).map_err(|e| format!("{}/{key} is damaged: {e}", store.bucket))?;
    let r = Release::parse(&env.payload).map_err(|e| e.to_string())?;
    if r.catalog != store.catalog || r.revision() != rev {
        return Err(format!(
            "{}/{key} is not the release of revision {rev} of {}",
            store.bucket, store.catalog
        ));
    }
    if dry_run {
        err!(
            io,
            "would move {}/{} to revision {rev}",
            store.bucket,
            keys::pointer(&store.catalog)
        );
    } else {
        store.put(&keys::pointer(&store.catalog), &signed, "application/json")?;
        err!(
            io,
            "rolled back {}/{}: pointer -> revision {rev}",
            store.bucket,
            store.catalog
        );
    }
    out!(io, "{rev}");
    Ok(())
}

/// `check`, `pack` and `publish`'s first step (the native command's; the npm package's `check`
/// and `pack` run `compileCatalog`): the folder compiled, its warnings and audience report printed; with `--oms-sign`, the
/// OpenSSF Model Signing step: the key is read first and every skill gets its signature
/// file. `None` once the error is printed.
pub(crate) fn compile_folder(a: &PackArgs, io: &Io) -> Option<compile::Compiled> {
    // An OMS key makes `skill.oms.sig` a file of every skill (catalog::oms), before the
    // catalog's own signatures, which then cover it.
    let oms = a.oms_key.as_ref().map(|f| {
        let key = oms::load_key(f, (io.read_file)(f))?;
        Ok::<_, crate::diag::Diagnostic>((f, key))
    });
    let oms = match oms.transpose() {
        Ok(k) => k,
        Err(d) => {
            err!(io, "{}", d.render(""));
            return None;
        }
    };
    let walked = (io.read_folder)(&a.dir);
    let compiled = match &oms {
        Some((_, key)) => oms::compile_signed(walked, a.options, key),
        None => compile::compile_with(walked, a.options),
    };
    let c = match compiled {
        Ok(c) => c,
        Err(e) => {
            err!(io, "{}", e.render(&a.dir));
            return None;
        }
    };
    for w in &c.warnings {
        err!(io, "{}", w.render(&a.dir));
    }
    // Who may see what, skill by skill (a catalog with access rules only).
    if let Some(report) = c.audience_report() {
        (io.stderr)(&report);
    }
    if let Some((_, key)) = &oms {
        err!(
            io,
            "OMS-signed: {} skills ({} in each), key hint {}",
            c.skills.len(),
            oms::SIGNATURE_FILE,
            key.public().hint()
        );
    }
    Some(c)
}

mod gc;
mod store;
use gc::collect;

#[cfg(test)]
mod tests;
