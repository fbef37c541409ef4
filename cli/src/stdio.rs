//! `skills-edge stdio [options]`: the embedded catalog over MCP's stdio transport
//! (newline-delimited JSON-RPC on stdin/stdout, logs on stderr, exit on end of input).

use skills_edge::protocol::{reply, Refusal};
use skills_edge::server::{Config, Responder, Transport};
use std::io::{self, BufRead, Write};
use std::process::ExitCode;

/// Largest accepted stdio message (bytes); longer lines are refused and skipped.
const MAX_LINE: usize = 4 * 1024 * 1024;

/// Serves stdin to stdout until end of input, with the configuration the options gave
/// (`skills_edge::command::args`). A configuration the responder refuses comes back as `Err`
/// with its message, a usage error for the caller to print with the usage text.
pub(crate) fn stdio(cfg: Config) -> Result<ExitCode, String> {
    let catalog = match skills_edge::embedded::catalog() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(ExitCode::FAILURE);
        }
    };
    eprintln!(
        "skills-edge {}: serving {} skills ({} files) over stdio",
        env!("CARGO_PKG_VERSION"),
        catalog.skill_count(),
        catalog.file_count()
    );
    let responder = Responder::new(catalog, cfg).map_err(|e| e.to_string())?;
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut line = Vec::new();
    loop {
        line.clear();
        let (ended, too_long) = match read_line(&mut input, &mut line) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("error: reading stdin: {e}");
                return Ok(ExitCode::FAILURE);
            }
        };
        let msg = trim_line(&line);
        let reply = if too_long {
            eprintln!("warning: refused a message longer than {MAX_LINE} bytes");
            Some(reply::refusal(&Refusal::TooLarge { limit: MAX_LINE }))
        } else if msg.is_empty() {
            None
        } else {
            responder.respond(msg, &Transport::Stream).body
        };
        if let Some(body) = reply {
            if out
                .write_all(&body)
                .and_then(|_| out.write_all(b"\n"))
                .and_then(|_| out.flush())
                .is_err()
            {
                // The client closed its end; nothing more can be delivered.
                return Ok(ExitCode::SUCCESS);
            }
        }
        if ended {
            return Ok(ExitCode::SUCCESS);
        }
    }
}

/// Reads one line (without keeping more than [`MAX_LINE`] bytes). Returns (end of input,
/// line too long).
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<(bool, bool)> {
    let mut too_long = false;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok((true, too_long));
        }
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if line.len() + chunk.len() > MAX_LINE {
            too_long = true;
            line.clear();
        } else if !too_long {
            line.extend_from_slice(chunk);
        }
        let consumed = done.unwrap_or(buf.len());
        input.consume(consumed);
        if done.is_some() {
            return Ok((false, too_long));
        }
    }
}

fn trim_line(line: &[u8]) -> &[u8] {
    let mut l = line;
    while let [rest @ .., b'\r' | b' ' | b'\t'] = l {
        l = rest;
    }
    l
}
