//! `skills_edge::catalog::oms`, the OpenSSF Model Signing bundle reader and folder check
//! (input: any bytes as a bundle, and a folder with a key to sign it).
//!
//! Properties:
//! - `Bundle::parse` and `Bundle::verify` never panic, whatever the bytes;
//! - a bundle signed over a folder's files verifies with the signer's key and covers exactly
//!   those files (`verify_folder` accepts them); a folder that also serves a path
//!   `model_signing` leaves out (a git path at its root) is refused, naming that path;
//! - the bundle with one byte changed never passes for anything else: it fails, or it still
//!   reads as the very manifest that was signed (a change in a member the reader ignores);
//! - the folder with one byte of one file changed fails naming that file; with a file added,
//!   naming the added file; under another key, it fails.

#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use sha2::{Digest as _, Sha256};
use skills_edge::catalog::oms::{verify_folder, Bundle, Manifest, OmsSigningKey, SIGNATURE_FILE};
use std::collections::BTreeMap;

#[derive(Arbitrary, Debug)]
struct Input {
    raw: Vec<u8>,
    files: Vec<(String, Vec<u8>)>,
    scalar: [u8; 32],
    flip_at: u16,
    flip_with: u8,
}

fn sha(b: &[u8]) -> [u8; 32] {
    Sha256::digest(b).into()
}

/// Whether `model_signing`'s default configuration leaves `path` out of what it signs and
/// checks (its `--ignore-git-paths`), stated here apart from the library's own rule.
fn ignored_by_model_signing(path: &str) -> bool {
    let first = path.split('/').next().unwrap_or(path);
    [".git", ".gitattributes", ".github", ".gitignore"].contains(&first)
}

fuzz_target!(|input: Input| {
    let Some(key) = OmsSigningKey::from_scalar(&input.scalar) else {
        return;
    };
    let public = key.public().clone();
    if let Ok(b) = Bundle::parse(&input.raw) {
        let _ = b.verify(&public);
    }

    let (git, files): (BTreeMap<String, Vec<u8>>, BTreeMap<String, Vec<u8>>) = input
        .files
        .into_iter()
        .filter(|(p, _)| p != SIGNATURE_FILE)
        .take(16)
        .partition(|(p, _)| ignored_by_model_signing(p));
    let digests: Vec<(String, [u8; 32])> = files.iter().map(|(p, b)| (p.clone(), sha(b))).collect();
    let served = || digests.iter().map(|(p, d)| (p.as_str(), *d));
    let manifest = Manifest::new("folder", digests.clone());
    let bundle = manifest.sign(&key).into_bytes();
    let keys = [public.clone()];
    verify_folder(&bundle, &keys, served()).expect("a signed folder verifies");
    if let Some(path) = git.keys().next() {
        let with_git = served().chain([(path.as_str(), sha(&git[path]))]);
        let e = verify_folder(&bundle, &keys, with_git).unwrap_err();
        assert_eq!(e.file.as_deref(), Some(path.as_str()), "{e}");
    }

    let mut changed = bundle.clone();
    let at = usize::from(input.flip_at) % changed.len();
    changed[at] ^= input.flip_with | 1;
    if verify_folder(&changed, &keys, served()).is_ok() {
        let read = Bundle::parse(&changed).unwrap().verify(&public).unwrap();
        assert_eq!(
            read.files, manifest.files,
            "a changed bundle passed for other files"
        );
    }

    if let Some((path, bytes)) = files.iter().next() {
        let mut other = bytes.clone();
        other.push(input.flip_with);
        let d = sha(&other);
        let altered = served().map(|(p, old)| (p, if p == path.as_str() { d } else { old }));
        let e = verify_folder(&bundle, &keys, altered).unwrap_err();
        assert_eq!(e.file.as_deref(), Some(path.as_str()));
    }
    let added = format!("{}-added", files.keys().last().map_or("", String::as_str));
    if !files.contains_key(&added) && added != SIGNATURE_FILE {
        let more = served().chain([(added.as_str(), sha(b""))]);
        let e = verify_folder(&bundle, &keys, more).unwrap_err();
        assert_eq!(e.file.as_deref(), Some(added.as_str()));
    }
    let mut s = input.scalar;
    s[31] ^= 1;
    if let Some(other) = OmsSigningKey::from_scalar(&s) {
        assert!(verify_folder(&bundle, &[other.public().clone()], served()).is_err());
    }
});
