//! `skills-edge publish` and `skills-edge gc` (docs/serving.md, "Update skills without
//! redeploying"): the run, its arguments, messages and wrangler commands are the library's
//! (`skills_edge::command::publish`, which the npm package's command runs too); this file
//! supplies the operating system's I/O ([`native_io`]): the files, wrangler's `r2` commands
//! run as `SKILLS_EDGE_WRANGLER` when set, else `npx wrangler`, and the terminal.

use skills_edge::catalog::compile::SourceTree;
use skills_edge::catalog::walk;
use skills_edge::command::publish::{self, Io};
use std::io::Write;
use std::path::Path;
use std::process::{Command, ExitCode};

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

fn read_folder(dir: &str) -> SourceTree {
    walk::walk(Path::new(dir)).tree
}

fn read_file(path: &str) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| e.to_string())
}

fn write_file(path: &str, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|e| e.to_string())
}

fn remove_file(path: &str) {
    let _ = std::fs::remove_file(path);
}

fn make_dir(path: &str) -> Result<(), String> {
    std::fs::create_dir_all(path).map_err(|e| e.to_string())
}

fn remove_dir(path: &str) {
    let _ = std::fs::remove_dir_all(path);
}

fn run(program: &str, args: &[String]) -> Result<(bool, String), String> {
    let out = Command::new(program)
        .args(args)
        .env("WRANGLER_SEND_METRICS", "false")
        .output()
        .map_err(|e| e.to_string())?;
    Ok((
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    ))
}

fn stdout(text: &str) {
    let _ = std::io::stdout().write_all(text.as_bytes());
}

fn stderr(text: &str) {
    let _ = std::io::stderr().write_all(text.as_bytes());
}

/// The operating system's I/O for the library's commands, with `scratch` as the run's
/// scratch folder.
pub(crate) fn native_io(scratch: &str) -> Io<'_> {
    Io {
        env: &env,
        read_folder: &read_folder,
        read_file: &read_file,
        write_file: &write_file,
        remove_file: &remove_file,
        make_dir: &make_dir,
        remove_dir: &remove_dir,
        scratch,
        run: &run,
        stdout: &stdout,
        stderr: &stderr,
    }
}

/// `skills-edge publish …` (`gc` false) or `skills-edge gc …` (`gc` true).
pub(crate) fn command(argv: &[String], gc: bool) -> ExitCode {
    let scratch = std::env::temp_dir().join(format!("skills-edge-publish-{}", std::process::id()));
    let scratch = scratch.to_string_lossy();
    ExitCode::from(publish::command(argv, gc, &native_io(&scratch)))
}
