//! The build step that gives every skill its OMS signature: `{skill root}/skill.oms.sig`
//! becomes a file of the skill, so it is served, listed, archived, installed and covered by the
//! catalog's own signature like any other file, and `model_signing verify key` accepts the
//! folder a user installs.
//!
//! A skill's OMS signature covers the files `model_signing` would find in its folder: every
//! file of its manifest (nested skills' files included, their `skill.oms.sig` too) except its
//! own `skill.oms.sig`. So nested skills are signed before the skills around them, and the
//! folder is compiled twice: once to learn each skill's files, once with the signatures
//! added. A `skill.oms.sig` already at a skill's root is replaced: the build signs what it
//! publishes.

use super::{is_ignored, Manifest, OmsSigningKey, SIGNATURE_FILE};
use crate::compile::{compile_with, Compiled, Options, SourceTree};
use crate::diag::{CompileError, Diagnostic, Rule};
use crate::skill::uri::SCHEME;
use std::collections::BTreeMap;

/// The variable naming the OMS signing key's file (`--oms-sign PATH` replaces it).
pub const OMS_KEY_VAR: &str = "SKILLS_OMS_KEY";

/// Reads the OMS signing key from `read` (the file's bytes, or why it cannot be read); the
/// error is an `oms-signature` diagnostic naming `file`, never quoting the file.
pub fn load_key(file: &str, read: Result<Vec<u8>, String>) -> Result<OmsSigningKey, Diagnostic> {
    const FIX: &str = "give the oms.key file `skills-edge keygen --oms --out DIR` wrote (oms.pub is its public half)";
    let bad = |message: String| Diagnostic::error(Rule::OmsSignature, file, message, FIX);
    let bytes = read.map_err(|why| bad(format!("cannot read the OMS signing key: {why}")))?;
    let text = std::str::from_utf8(&bytes)
        .map_err(|_| bad("the OMS signing key is not PEM text (the file is not UTF-8)".into()))?;
    OmsSigningKey::from_pem(text, "the OMS signing key").map_err(|e| bad(e.message))
}

/// Compiles `tree` with `options`, every skill carrying its OMS signature by `key` at
/// `{root}/skill.oms.sig` (see the module's documentation).
pub fn compile_signed(
    mut tree: SourceTree,
    options: Options,
    key: &OmsSigningKey,
) -> Result<Compiled, CompileError> {
    let sig_of = |root: &str| format!("{root}/{SIGNATURE_FILE}");
    let roots: std::collections::BTreeSet<String> = tree
        .files
        .iter()
        .filter_map(|f| f.path.strip_suffix("/SKILL.md"))
        .map(sig_of)
        .collect();
    tree.files.retain(|f| !roots.contains(&f.path));
    let first = compile_with(tree.clone(), options)?;
    let mut skills: Vec<_> = first.skills.iter().collect();
    // Deepest first: a nested skill's signature is a file of the skills around it.
    skills.sort_by_key(|s| std::cmp::Reverse(s.root.matches('/').count()));
    let mut added: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    let mut errors = Vec::new();
    for s in skills {
        let root = s.root.strip_prefix(SCHEME).unwrap_or(&s.root);
        let mut files: Vec<(String, [u8; 32])> = Vec::new();
        for f in s.files.iter().filter_map(|&i| first.files.get(i)) {
            let Some(rel) = f.uri.strip_prefix(SCHEME).and_then(|p| inside(root, p)) else {
                continue;
            };
            if is_ignored(rel) {
                errors.push(Diagnostic::error(
                    Rule::OmsSignature,
                    &format!("{root}/{rel}"),
                    format!("`model_signing` never signs {rel} at a skill's root (a git path), so the skill's OMS signature could not cover it and hosts would refuse the skill"),
                    "remove or rename the file, or build without --oms-sign",
                ));
                continue;
            }
            files.push((rel.to_owned(), sha256(&f.bytes)));
        }
        for (path, bytes) in &added {
            if let Some(rel) = inside(root, path) {
                files.push((rel.to_owned(), sha256(bytes)));
            }
        }
        let name = root.rsplit('/').next().unwrap_or(root);
        added.insert(
            sig_of(root),
            Manifest::new(name, files).sign(key).into_bytes(),
        );
    }
    if !errors.is_empty() {
        return Err(CompileError {
            diagnostics: errors,
        });
    }
    for (path, bytes) in added {
        tree.add_file(&path, bytes);
    }
    compile_with(tree, options)
}

fn sha256(bytes: &[u8]) -> [u8; 32] {
    use sha2::Digest as _;
    sha2::Sha256::digest(bytes).into()
}

/// `path` relative to the folder `root`, when it is inside it.
fn inside<'a>(root: &str, path: &'a str) -> Option<&'a str> {
    path.strip_prefix(root)?.strip_prefix('/')
}
