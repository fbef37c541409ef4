//! Compiles the skills folder (`SKILLS_DIR`, default `skills/`) into the embedded catalog, when
//! the `embedded` feature is on (a host-only build compiles no skills).
//!
//! The checks and the manifest computation are those of `skills-edge-catalog`, the crate the
//! library itself depends on, so the build, the `check` command and the host verifier share
//! one implementation. A folder that breaks a rule stops the build with messages that name the
//! file, the rule and the fix; `SKILLS_ON_INVALID=skip` leaves each invalid skill out instead,
//! with its errors as warnings, and publishes the rest. `SKILLS_STRICT=1` is strict mode:
//! frontmatter that the official MCP TypeScript SDK 2.4 cannot read (`frontmatter-sdk-*`)
//! stops the build instead of warning. `SKILLS_SIGNING_KEY=PATH` signs every skill with the
//! secret key in PATH (`skills-edge keygen`), for the catalog identity `SKILLS_CATALOG_ID`
//! (default: the key's id); a key that cannot be read or used stops the build with a
//! `signing-key` error naming the file, never its contents.

use skills_edge_catalog::{compile, options, pack, walk};
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=SKILLS_DIR");
    println!("cargo:rerun-if-env-changed={}", options::STRICT);
    println!("cargo:rerun-if-env-changed={}", options::ON_INVALID);
    println!("cargo:rerun-if-env-changed={}", options::SIGNING_KEY);
    println!("cargo:rerun-if-env-changed={}", options::CATALOG_ID);
    if std::env::var_os("CARGO_FEATURE_EMBEDDED").is_none() {
        return;
    }
    // The options as every build reads them (skills_edge_catalog::options).
    let options = match options::from_env(|v| std::env::var(v).ok()) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    let signing = match options::signing(|v| std::env::var(v).ok(), None, None) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    // The key, read before the folder: a path relative to the package, like SKILLS_DIR.
    let signer = signing.map(|s| {
        let file = manifest_dir.join(&s.key_file);
        println!("cargo:rerun-if-changed={}", file.display());
        let read = std::fs::read(&file).map_err(|e| e.to_string());
        match s.signer(read) {
            Ok(signer) => signer,
            Err(d) => {
                eprintln!("{}", d.render(""));
                std::process::exit(1);
            }
        }
    });
    let shown = std::env::var("SKILLS_DIR").unwrap_or_else(|_| "skills".to_owned());
    let root = manifest_dir.join(&shown);
    let walked = walk::walk(&root);
    for p in &walked.read {
        println!("cargo:rerun-if-changed={}", p.display());
    }
    if walked.read.is_empty() {
        // Nothing was read (the folder is missing): rebuild once it appears.
        println!("cargo:rerun-if-changed={}", root.display());
    }
    let mut compiled = match compile::compile_with(walked.tree, options) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{}", e.render(&shown));
            std::process::exit(1);
        }
    };
    for w in &compiled.warnings {
        for line in w.render(&shown).lines() {
            println!("cargo:warning={line}");
        }
    }
    if let Some(s) = &signer {
        compiled.sign(&s.key, &s.catalog);
    }
    let pack = pack::encode(&compiled, None);
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default()).join("catalog.pack");
    if let Err(e) = std::fs::write(&out, pack) {
        eprintln!("error: cannot write {}: {e}", out.display());
        std::process::exit(1);
    }
}
