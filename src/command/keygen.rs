//! `skills-edge keygen`, without its I/O: the files both commands write and every message they
//! print, made here once. The native command draws the seed from the operating system's random
//! source (`getrandom`), the npm package's from Node's `crypto.randomBytes`; each writes the
//! files itself (the secret with mode 0600 on Unix), never replacing one that exists.

use super::args::{PUBLIC_KEY_FILE, SECRET_KEY_FILE};
use crate::sign::SigningKey;

/// One file `keygen` writes.
///
/// ```
/// use skills_edge::command::keygen::key_files;
/// let files = key_files("keys/", [7; 32]).unwrap();
/// let secret = &files.secret;
/// assert_eq!(secret.path, "keys/signing.key");
/// assert!(secret.text.starts_with('{') && secret.text.ends_with("}\n"));
/// // Printed instead of writing when the file is already there.
/// assert!(secret.exists.starts_with("error: keys/signing.key already exists"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyFile {
    /// Its path: the `--out` folder as given, then the file's name.
    pub path: String,
    /// Its text: a JWK and a newline.
    pub text: String,
    /// What is printed when the file already exists (`error: …` and its fix).
    pub exists: String,
}

/// What `keygen --out <out>` writes for a seed, and what it prints.
///
/// ```
/// use skills_edge::command::keygen::key_files;
/// let files = key_files("keys", [7; 32]).unwrap();
/// for f in [&files.secret, &files.public] {
///     assert!(f.text.contains(r#""kty":"OKP""#)); // written to `f.path` by the command's I/O
/// }
/// assert_eq!(files.key_id, key_files("elsewhere", [7; 32]).unwrap().key_id);
/// assert!(files.written.starts_with("wrote keys/signing.key"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyFiles {
    /// The key's id (RFC 7638 thumbprint), printed on stdout.
    pub key_id: String,
    /// `signing.key`: the secret JWK (`SigningKey::to_jwk`).
    pub secret: KeyFile,
    /// `signing.pub`: the public JWK.
    pub public: KeyFile,
    /// The stderr line after both are written (stdout has the key id alone).
    pub written: String,
}

/// `out` joined with `name` as the user wrote `out` (no normalisation, so both commands print
/// the same path).
fn join(out: &str, name: &str) -> String {
    if out.ends_with('/') || out.ends_with(std::path::MAIN_SEPARATOR) {
        format!("{out}{name}")
    } else {
        format!("{out}/{name}")
    }
}

fn file(out: &str, name: &str, jwk: String) -> KeyFile {
    let path = join(out, name);
    KeyFile {
        exists: format!(
            "error: {path} already exists\n  fix: delete it, or choose another --out folder (keygen never replaces a key)"
        ),
        text: format!("{jwk}\n"),
        path,
    }
}

/// The files of the key with `seed`, in the folder `out`; `None` for the all-zero seed, which
/// is no Ed25519 key (a random source that gives it is broken).
///
/// ```
/// use skills_edge::command::keygen::key_files;
/// let f = key_files("keys", [7; 32]).unwrap();
/// assert!(key_files("keys", [0; 32]).is_none());
/// assert_eq!((f.secret.path.as_str(), f.public.path.as_str()), ("keys/signing.key", "keys/signing.pub"));
/// assert!(f.secret.text.contains("\"d\":") && !f.public.text.contains("\"d\":"));
/// assert!(f.public.text.contains(&f.key_id));
/// ```
pub fn key_files(out: &str, seed: [u8; 32]) -> Option<KeyFiles> {
    if !SigningKey::usable_seed(&seed) {
        return None;
    }
    let key = SigningKey::from_seed(seed);
    let secret = file(out, SECRET_KEY_FILE, key.to_jwk());
    let public = file(out, PUBLIC_KEY_FILE, key.public().to_jwk());
    let written = format!(
        "wrote {} (the secret key: keep it private; sign with --sign {} or SKILLS_SIGNING_KEY={}) and {} (the public key, for hosts that verify)",
        secret.path, secret.path, secret.path, public.path
    );
    Some(KeyFiles {
        key_id: key.public().key_id().to_owned(),
        secret,
        public,
        written,
    })
}

/// The message when the folder cannot be made or a file cannot be written (`what`: the path;
/// `why`: the system's reason).
pub fn write_error(what: &str, why: &str) -> String {
    format!(
        "error: cannot write {what}: {why}\n  fix: check that the folder can be created and written"
    )
}

/// The file of the OMS secret key `keygen --oms` writes into its folder.
pub(crate) const OMS_SECRET_KEY_FILE: &str = "oms.key";
/// The file of the OMS public key `keygen --oms` writes into its folder.
pub(crate) const OMS_PUBLIC_KEY_FILE: &str = "oms.pub";

/// What `keygen --oms --out <out>` writes for a 32-byte secret scalar: `oms.key` (PKCS#8
/// PEM) and `oms.pub` (SubjectPublicKeyInfo PEM), the ECDSA P-256 key files
/// `model_signing sign key` and `model_signing verify key` read; `key_id` is the key's hint
/// in a bundle. `None` when the scalar is no P-256 key (draw again).
///
/// ```
/// use skills_edge::command::keygen::oms_key_files;
/// let f = oms_key_files("keys", [7; 32]).unwrap();
/// assert!(oms_key_files("keys", [0; 32]).is_none());
/// assert_eq!((f.secret.path.as_str(), f.public.path.as_str()), ("keys/oms.key", "keys/oms.pub"));
/// assert!(f.secret.text.starts_with("-----BEGIN PRIVATE KEY-----\n"));
/// assert!(f.public.text.starts_with("-----BEGIN PUBLIC KEY-----\n"));
/// ```
pub fn oms_key_files(out: &str, scalar: [u8; 32]) -> Option<KeyFiles> {
    let key = crate::oms::OmsSigningKey::from_scalar(&scalar)?;
    let pem_file = |name: &str, text: String| KeyFile {
        text,
        ..file(out, name, String::new())
    };
    let secret = pem_file(OMS_SECRET_KEY_FILE, key.to_pem());
    let public = pem_file(OMS_PUBLIC_KEY_FILE, key.public().to_pem());
    let written = format!(
        "wrote {} (the OMS secret key, ECDSA P-256: keep it private; sign with --oms-sign {} or SKILLS_OMS_KEY={}) and {} (the public key: model_signing verify key --public_key {})",
        secret.path, secret.path, secret.path, public.path, public.path
    );
    Some(KeyFiles {
        key_id: key.public().hint(),
        secret,
        public,
        written,
    })
}
