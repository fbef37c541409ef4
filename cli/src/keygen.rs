//! `skills-edge keygen --out DIR`: a new Ed25519 signing key from the operating system's random
//! source, written as `DIR/signing.key` (the secret JWK, mode 0600 on Unix) and
//! `DIR/signing.pub` (the public JWK). DIR is created if needed; neither file is ever replaced.
//! The files and messages are the library's (`skills_edge::command::keygen`), shared with the
//! npm package's command.

use skills_edge::command::args::KeygenArgs;
use skills_edge::command::keygen::{key_files, oms_key_files, write_error, KeyFile};
use std::fs::{self, OpenOptions};
use std::io::{self, Write as _};
use std::process::ExitCode;

/// Creates `f` (never replacing a file), with mode `mode` on Unix.
fn create(f: &KeyFile, mode: u32) -> io::Result<()> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt as _, PermissionsExt as _};
        options.mode(mode);
        let mut file = options.open(&f.path)?;
        // The umask may have taken bits off: set exactly `mode`.
        file.set_permissions(fs::Permissions::from_mode(mode))?;
        file.write_all(f.text.as_bytes())?;
        file.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = mode;
        let mut file = options.open(&f.path)?;
        file.write_all(f.text.as_bytes())?;
        file.sync_all()
    }
}

/// `keygen`: exit status 0 with both files written and the key id on stdout, 1 otherwise.
pub(crate) fn keygen(a: &KeygenArgs) -> ExitCode {
    let mut seed = [0u8; 32];
    let drawn = getrandom::getrandom(&mut seed).map_err(|e| e.to_string());
    let files = drawn.and_then(|()| match a.oms {
        // A scalar at or above the P-256 group order has odds below 2^-32: no retry loop.
        true => oms_key_files(&a.out, seed)
            .ok_or_else(|| "it gave bytes that are no P-256 key".to_owned()),
        false => key_files(&a.out, seed).ok_or_else(|| "it gave 32 zero bytes".to_owned()),
    });
    let files = match files {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: the operating system's random source failed: {e}\n  fix: run keygen again on a machine with a working random source");
            return ExitCode::FAILURE;
        }
    };
    for f in [&files.secret, &files.public] {
        // A link, even a dangling one, is a file that is there.
        if fs::symlink_metadata(&f.path).is_ok() {
            eprintln!("{}", f.exists);
            return ExitCode::FAILURE;
        }
    }
    if let Err(e) = fs::create_dir_all(&a.out) {
        eprintln!("{}", write_error(&a.out, &e.to_string()));
        return ExitCode::FAILURE;
    }
    let failed = |f: &KeyFile, e: io::Error| {
        if e.kind() == io::ErrorKind::AlreadyExists {
            eprintln!("{}", f.exists);
        } else {
            eprintln!("{}", write_error(&f.path, &e.to_string()));
        }
        ExitCode::FAILURE
    };
    if let Err(e) = create(&files.secret, 0o600) {
        // A secret half written is removed (one that was already there is not this run's).
        if e.kind() != io::ErrorKind::AlreadyExists {
            let _ = fs::remove_file(&files.secret.path);
        }
        return failed(&files.secret, e);
    }
    if let Err(e) = create(&files.public, 0o644) {
        // No secret without its public half: the next run starts clean.
        let _ = fs::remove_file(&files.secret.path);
        return failed(&files.public, e);
    }
    println!("{}", files.key_id);
    eprintln!("{}", files.written);
    ExitCode::SUCCESS
}
