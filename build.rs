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

fn main() {
    if std::env::var_os("CARGO_FEATURE_EMBEDDED").is_none() {
        // Nothing to compile, whatever the folder or the options: only this script's own
        // changes run it again (without a rerun line cargo would rerun it on any change to
        // the package, and the SKILLS_* variables would rebuild the library for nothing).
        println!("cargo:rerun-if-changed=build.rs");
        return;
    }
    // The one build-script body every embedded catalog uses (skills-edge-catalog).
    skills_edge_catalog::build_script::embed("skills");
}
