//! Compiles the skills folder (`SKILLS_DIR`, default `skills/`) into the embedded catalog, when
//! the `embedded` feature is on (a host-only build compiles no skills).
//!
//! The checks and the manifest computation are the library's own: this script compiles its
//! catalog modules (`src/`, by path, at this script's root as at the library's), so the build,
//! the `check` command and the host verifier share one implementation. A folder that breaks a rule stops the build with messages that name the
//! file, the rule and the fix; `SKILLS_ON_INVALID=skip` leaves each invalid skill out instead,
//! with its errors as warnings, and publishes the rest. `SKILLS_STRICT=1` is strict mode:
//! frontmatter that the official MCP TypeScript SDK 2.4 cannot read (`frontmatter-sdk-*`)
//! stops the build instead of warning. `SKILLS_SIGNING_KEY=PATH` signs every skill with the
//! secret key in PATH (`skills-edge keygen`), for the catalog identity `SKILLS_CATALOG_ID`
//! (default: the key's id); a key that cannot be read or used stops the build with a
//! `signing-key` error naming the file, never its contents.

// The library's catalog modules, compiled into this script: it calls `build_script::embed`,
// and what that does not reach is the library's (checked for use there).
#![allow(dead_code, unused_imports)]

#[macro_use]
#[path = "src/refused.rs"]
mod refused;

#[path = "src/access.rs"]
mod access;
#[path = "src/build_script.rs"]
mod build_script;
#[path = "src/compile/mod.rs"]
mod compile;
#[path = "src/diag.rs"]
mod diag;
#[path = "src/json/mod.rs"]
mod json;
#[path = "src/oms/mod.rs"]
mod oms;
#[path = "src/options.rs"]
mod options;
#[path = "src/pack/mod.rs"]
mod pack;
#[path = "src/release.rs"]
mod release;
#[path = "src/search/mod.rs"]
mod search;
#[path = "src/sign/mod.rs"]
mod sign;
#[path = "src/skill/mod.rs"]
mod skill;
#[path = "src/view/mod.rs"]
mod view;
#[path = "src/walk.rs"]
mod walk;

fn main() {
    if std::env::var_os("CARGO_FEATURE_EMBEDDED").is_none() {
        // Nothing to compile, whatever the folder or the options: only this script's own
        // changes run it again (without a rerun line cargo would rerun it on any change to
        // the package, and the SKILLS_* variables would rebuild the library for nothing).
        println!("cargo:rerun-if-changed=build.rs");
        return;
    }
    // The one build-script body every embedded catalog uses (`skills_edge::build_script`).
    build_script::embed("skills");
}
