//! The body of a build script that embeds a skills folder: `skills-edge`'s own `build.rs`
//! and any crate that serves a catalog compiled at build time (for example with
//! `skills-edge-rmcp`, with `skills-edge` as a build-dependency, `default-features = false`)
//! call [`embed`], so every embedded catalog is read, checked, signed and
//! packed the same way.
//!
//! ```text
//! // build.rs
//! fn main() {
//!     skills_edge::build_script::embed("skills");
//! }
//! ```
//!
//! The crate then loads the pack with
//! `include_bytes!(concat!(env!("OUT_DIR"), "/", "catalog.pack"))` (`PACK_FILE`).

use crate::{compile, options, pack, walk};
use std::path::PathBuf;

/// The pack's file name in `OUT_DIR`.
pub(crate) const PACK_FILE: &str = "catalog.pack";

/// Compiles the skills folder `SKILLS_DIR` (default `default_dir`), relative to the package
/// being built, into `OUT_DIR/catalog.pack`, with the options every build reads
/// (`options::from_env`: `SKILLS_STRICT`, `SKILLS_ON_INVALID`, `SKILLS_SIGNING_KEY`,
/// `SKILLS_CATALOG_ID`, and `SKILLS_OMS_KEY`: every skill also gets its OpenSSF Model Signing
/// signature). Tells cargo to run the script again when any file read or any of
/// those variables changes. A folder that breaks a rule stops the build with messages that
/// name the file, the rule and the fix (a build script's way to fail: the messages on
/// stderr, then exit status 1); warnings become `cargo:warning` lines.
pub fn embed(default_dir: &str) {
    println!("cargo:rerun-if-env-changed=SKILLS_DIR");
    println!("cargo:rerun-if-env-changed={}", options::STRICT);
    println!("cargo:rerun-if-env-changed={}", options::ON_INVALID);
    println!("cargo:rerun-if-env-changed={}", options::SIGNING_KEY);
    println!("cargo:rerun-if-env-changed={}", options::CATALOG_ID);
    println!("cargo:rerun-if-env-changed={}", crate::oms::OMS_KEY_VAR);
    if let Err(message) = run(default_dir) {
        eprintln!("{message}");
        std::process::exit(1);
    }
}

fn run(default_dir: &str) -> Result<(), String> {
    let options =
        options::from_env(|v| std::env::var(v).ok()).map_err(|e| format!("error: {e}"))?;
    let signing = options::signing(|v| std::env::var(v).ok(), None, None)
        .map_err(|e| format!("error: {e}"))?;
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    // The key, read before the folder: a path relative to the package, like SKILLS_DIR.
    let signer = match signing {
        None => None,
        Some(s) => {
            let file = manifest_dir.join(&s.key_file);
            println!("cargo:rerun-if-changed={}", file.display());
            let read = std::fs::read(&file).map_err(|e| e.to_string());
            Some(s.signer(read).map_err(|d| d.render(""))?)
        }
    };
    // The OMS key (`SKILLS_OMS_KEY`, as `skills-edge pack --oms-sign` reads it), read before
    // the folder too: every skill then carries `skill.oms.sig` (crate::oms).
    let oms_key = match std::env::var(crate::oms::OMS_KEY_VAR) {
        Ok(v) if !v.is_empty() => {
            let file = manifest_dir.join(&v);
            println!("cargo:rerun-if-changed={}", file.display());
            let read = std::fs::read(&file).map_err(|e| e.to_string());
            Some(crate::oms::load_key(&v, read).map_err(|d| d.render(""))?)
        }
        _ => None,
    };
    let shown = std::env::var("SKILLS_DIR").unwrap_or_else(|_| default_dir.to_owned());
    let root = manifest_dir.join(&shown);
    let walked = walk::walk(&root);
    for p in &walked.read {
        println!("cargo:rerun-if-changed={}", p.display());
    }
    if walked.read.is_empty() {
        // Nothing was read (the folder is missing): rebuild once it appears.
        println!("cargo:rerun-if-changed={}", root.display());
    }
    let compiled = match &oms_key {
        Some(key) => crate::oms::compile_signed(walked.tree, options, key),
        None => compile::compile_with(walked.tree, options),
    };
    let mut compiled = compiled.map_err(|e| e.render(&shown))?;
    for w in &compiled.warnings {
        for line in w.render(&shown).lines() {
            println!("cargo:warning={line}");
        }
    }
    if let Some(s) = &signer {
        compiled.sign(&s.key, &s.catalog);
    }
    let pack = pack::encode(&compiled, None);
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default()).join(PACK_FILE);
    std::fs::write(&out, pack).map_err(|e| format!("error: cannot write {}: {e}", out.display()))
}
