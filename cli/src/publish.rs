//! `skills-edge publish` and `skills-edge gc`: a skills folder published to an R2 bucket for
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

use crate::packing::compile_folder;
use skills_edge::catalog::pack;
use skills_edge::catalog::release::{self, keys, HistoryEntry as Entry, Release};
use skills_edge::catalog::sign::{Envelope, PublicKey};
use skills_edge::command::args::{self, Invocation, Program};
use std::path::PathBuf;
use std::process::{Command, ExitCode};

/// `s` as a JSON string.
fn json_string(s: &str, out: &mut String) {
    skills_edge::skill::value::write_json_string(s, out);
}

/// Where the objects go: the bucket, the catalog, and how they are reached.
struct Store {
    bucket: String,
    catalog: String,
    io: Io,
}

/// How a [`Store`] reaches the bucket.
enum Io {
    /// wrangler's `r2` commands, on the account's bucket or (`local`) wrangler dev's store.
    Wrangler {
        local: bool,
        persist_to: Option<String>,
        config: Option<String>,
        tmp: PathBuf,
    },
    /// The objects in memory: the unit tests' bucket.
    #[cfg(test)]
    Memory(std::cell::RefCell<std::collections::BTreeMap<String, Vec<u8>>>),
}

/// The flags `publish` and `gc` read themselves; the rest are `pack`'s.
#[derive(Default)]
struct Flags {
    bucket: Option<String>,
    catalog: Option<String>,
    dry_run: bool,
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
                      [--remote | --local [--persist-to DIR]] [--config wrangler.toml]
  skills-edge publish --rollback REVISION --bucket NAME [--catalog ID] [--local ...]
  skills-edge gc --keep N --bucket NAME [--catalog ID] [--trust FILE] [--dry-run] [--local ...]
The signing key is --sign or SKILLS_SIGNING_KEY; wrangler is SKILLS_EDGE_WRANGLER or `npx wrangler`.";

/// `gc --trust FILE`: the keys in FILE (a `signing.pub`, a JWK Set or an array of JWKs, as
/// `CATALOG_TRUST`), and the name a refusal gives their source (`--trust FILE`).
fn read_trust(file: Option<&str>) -> Result<Option<Trust>, String> {
    let Some(file) = file else { return Ok(None) };
    let text = std::fs::read_to_string(file)
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

fn usage_error(msg: &str) -> ExitCode {
    eprintln!("error: {msg}\n\n{USAGE}");
    ExitCode::from(2)
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
            "--local" => f.local = true,
            "--remote" => f.remote = true,
            "--help" | "-h" => return Err(String::new()),
            _ => f.rest.push(a.clone()),
        }
    }
    Ok(f)
}

/// `skills-edge publish …` (`gc` false) or `skills-edge gc …` (`gc` true).
pub(crate) fn command(argv: &[String], gc: bool) -> ExitCode {
    let f = match read_flags(argv) {
        Ok(f) => f,
        Err(e) if e.is_empty() => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
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
    let tmp = std::env::temp_dir().join(format!("skills-edge-publish-{}", std::process::id()));
    if let Err(e) = std::fs::create_dir_all(&tmp) {
        eprintln!("error: cannot make {}: {e}", tmp.display());
        return ExitCode::FAILURE;
    }
    let store = Store {
        bucket,
        catalog,
        io: Io::Wrangler {
            local: f.local,
            persist_to: f.persist_to.clone(),
            config: f.config.clone(),
            tmp: tmp.clone(),
        },
    };
    let result = if gc {
        match (f.keep, f.rest.is_empty(), f.rollback.is_none()) {
            (Some(n), true, true) => match read_trust(f.trust.as_deref()) {
                Ok(trust) => collect(&store, n, trust.as_ref(), f.dry_run).map(|said| {
                    for line in said {
                        eprintln!("{line}");
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
            rollback(&store, rev, f.dry_run)
        } else {
            Err(format!(
                "--rollback takes no folder or pack flags ({:?})",
                f.rest[0]
            ))
        }
    } else {
        publish(&store, &f)
    };
    let _ = std::fs::remove_dir_all(&tmp);
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.starts_with("usage: ") => usage_error(&e["usage: ".len()..]),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

impl Store {
    /// wrangler's settings and scratch folder; `None` for a bucket in memory.
    fn wrangler_io(&self) -> Option<(bool, &Option<String>, &Option<String>, &PathBuf)> {
        match &self.io {
            Io::Wrangler {
                local,
                persist_to,
                config,
                tmp,
            } => Some((*local, persist_to, config, tmp)),
            #[cfg(test)]
            Io::Memory(_) => None,
        }
    }

    fn wrangler(&self, args: &[&str]) -> Result<(bool, String), String> {
        let Some((local, persist_to, config, _)) = self.wrangler_io() else {
            return Err("no wrangler for a bucket in memory".into());
        };
        let (program, mut all) = match std::env::var("SKILLS_EDGE_WRANGLER") {
            Ok(p) if !p.is_empty() => (p, Vec::new()),
            _ => ("npx".to_owned(), vec!["wrangler".to_owned()]),
        };
        all.extend(args.iter().map(|s| (*s).to_owned()));
        if local {
            all.push("--local".into());
            if let Some(p) = persist_to {
                all.extend(["--persist-to".into(), p.clone()]);
            }
        } else {
            all.push("--remote".into());
        }
        if let Some(c) = config {
            all.extend(["--config".into(), c.clone()]);
        }
        let out = Command::new(&program)
            .args(&all)
            .env("WRANGLER_SEND_METRICS", "false")
            .output()
            .map_err(|e| {
                format!("cannot run {program}: {e}\n  fix: install wrangler (npm i -D wrangler) or set SKILLS_EDGE_WRANGLER to its path")
            })?;
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        Ok((out.status.success(), text))
    }

    fn path(&self, key: &str) -> String {
        format!("{}/{key}", self.bucket)
    }

    /// Uploads every `(key, bytes)` in one run of wrangler (`r2 bulk put`, which uploads them
    /// concurrently, in no order: only for objects no reader finds before the pointer names
    /// them).
    fn put_all(&self, objects: &[(String, &[u8])]) -> Result<(), String> {
        #[cfg(test)]
        if let Io::Memory(m) = &self.io {
            for (key, bytes) in objects {
                m.borrow_mut().insert(key.clone(), bytes.to_vec());
            }
            return Ok(());
        }
        let tmp = self.tmp();
        let mut manifest = String::from("[");
        for (i, (key, bytes)) in objects.iter().enumerate() {
            let file = tmp.join(format!("bulk-{i}"));
            std::fs::write(&file, bytes)
                .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
            if i > 0 {
                manifest.push(',');
            }
            let mut item = String::from("{\"key\":");
            json_string(key, &mut item);
            item.push_str(",\"file\":");
            json_string(&file.to_string_lossy(), &mut item);
            item.push('}');
            manifest.push_str(&item);
        }
        manifest.push(']');
        let list = tmp.join("bulk.json");
        std::fs::write(&list, manifest)
            .map_err(|e| format!("cannot write {}: {e}", list.display()))?;
        let list = list.to_string_lossy().into_owned();
        let (ok, out) = self.wrangler(&["r2", "bulk", "put", &self.bucket, "--filename", &list])?;
        if ok {
            Ok(())
        } else {
            Err(format!(
                "wrangler could not upload {} objects to {}:\n{}",
                objects.len(),
                self.bucket,
                out.trim()
            ))
        }
    }

    /// wrangler's scratch folder (the system's temporary folder for a bucket in memory, which
    /// never uses it).
    fn tmp(&self) -> PathBuf {
        self.wrangler_io()
            .map_or_else(std::env::temp_dir, |(_, _, _, tmp)| tmp.clone())
    }

    fn put(&self, key: &str, bytes: &[u8], content_type: &str) -> Result<(), String> {
        #[cfg(test)]
        if let Io::Memory(m) = &self.io {
            m.borrow_mut().insert(key.to_owned(), bytes.to_vec());
            return Ok(());
        }
        let file = self.tmp().join("object");
        std::fs::write(&file, bytes)
            .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
        let file = file.to_string_lossy().into_owned();
        let path = self.path(key);
        let (ok, out) = self.wrangler(&[
            "r2",
            "object",
            "put",
            &path,
            "--file",
            &file,
            "--content-type",
            content_type,
        ])?;
        if ok {
            Ok(())
        } else {
            Err(format!("wrangler could not upload {path}:\n{}", out.trim()))
        }
    }

    /// The object's bytes; `None` when the bucket has no such key.
    fn get(&self, key: &str) -> Result<Option<Vec<u8>>, String> {
        #[cfg(test)]
        if let Io::Memory(m) = &self.io {
            return Ok(m.borrow().get(key).cloned());
        }
        let file = self.tmp().join("download");
        let _ = std::fs::remove_file(&file);
        let f = file.to_string_lossy().into_owned();
        let path = self.path(key);
        let (ok, out) = self.wrangler(&["r2", "object", "get", &path, "--file", &f])?;
        if !ok {
            if out.contains("does not exist") || out.contains("not found") {
                return Ok(None);
            }
            return Err(format!("wrangler could not read {path}:\n{}", out.trim()));
        }
        std::fs::read(&file)
            .map(Some)
            .map_err(|e| format!("cannot read what wrangler wrote for {path}: {e}"))
    }

    fn delete(&self, key: &str) -> Result<(), String> {
        #[cfg(test)]
        if let Io::Memory(m) = &self.io {
            m.borrow_mut().remove(key);
            return Ok(());
        }
        let path = self.path(key);
        let (ok, out) = self.wrangler(&["r2", "object", "delete", &path])?;
        if ok {
            Ok(())
        } else {
            Err(format!("wrangler could not delete {path}:\n{}", out.trim()))
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

fn build(store: &Store, f: &Flags) -> Result<Built, String> {
    // The folder and the pack's flags, read by the pack command's own parser.
    let mut argv: Vec<String> = vec!["pack".into()];
    argv.extend(f.rest.iter().cloned());
    argv.extend(["-o".into(), "-".into()]);
    if !f.rest.iter().any(|a| a == "--inline-max") {
        argv.extend(["--inline-max".into(), pack::DEFAULT_INLINE_MAX.to_string()]);
    }
    argv.extend(["--assets".into(), "-".into()]);
    let a = match args::parse(Program::Native, &argv, |v| std::env::var(v).ok()) {
        Ok(Invocation::Pack(a)) => a,
        Ok(_) => return Err("usage: publish takes a skills folder".into()),
        Err(e) => return Err(format!("usage: {e}")),
    };
    let Some(signing) = &a.signing else {
        return Err("publish needs a signing key: --sign PATH or SKILLS_SIGNING_KEY (make one with skills-edge keygen --out DIR); the Worker serves only packs signed by a key of its CATALOG_TRUST".into());
    };
    let signer = signing.load().map_err(|d| d.render(""))?;
    let Some(mut c) = compile_folder(&a) else {
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
        eprintln!("{w}");
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

fn publish(store: &Store, f: &Flags) -> Result<(), String> {
    let Built {
        packed,
        signed,
        rev,
        summary,
    } = build(store, f)?;
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
    let missing: Vec<&pack::Asset> = packed
        .assets
        .iter()
        .filter(|x| !present.contains(x.name.as_str()))
        .collect();
    let missing_bytes: usize = missing.iter().map(|x| x.bytes.len()).sum();
    eprintln!(
        "{summary} ({} to upload, {missing_bytes} bytes)",
        missing.len()
    );
    let target = format!("{}/{}", store.bucket, store.catalog);
    if f.dry_run {
        for x in &missing {
            eprintln!(
                "would upload {target}/assets/{} ({} bytes)",
                x.name,
                x.bytes.len()
            );
        }
        eprintln!(
            "would upload {}/{}",
            store.bucket,
            keys::pack(&store.catalog, &rev)
        );
        eprintln!(
            "would move {}/{} to revision {rev}",
            store.bucket,
            keys::pointer(&store.catalog)
        );
        println!("{rev}");
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
    eprintln!(
        "published {target}: pointer {} -> revision {rev}",
        keys::pointer(&store.catalog)
    );
    println!("{rev}");
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

fn rollback(store: &Store, given: &str, dry_run: bool) -> Result<(), String> {
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
    let r = Release::parse(&env.payload)?;
    if r.catalog != store.catalog || r.revision() != rev {
        return Err(format!(
            "{}/{key} is not the release of revision {rev} of {}",
            store.bucket, store.catalog
        ));
    }
    if dry_run {
        eprintln!(
            "would move {}/{} to revision {rev}",
            store.bucket,
            keys::pointer(&store.catalog)
        );
    } else {
        store.put(&keys::pointer(&store.catalog), &signed, "application/json")?;
        eprintln!(
            "rolled back {}/{}: pointer -> revision {rev}",
            store.bucket, store.catalog
        );
    }
    println!("{rev}");
    Ok(())
}

#[path = "publish_gc.rs"]
mod gc;
use gc::collect;

#[cfg(test)]
#[path = "publish_tests.rs"]
mod tests;
