//! `skills-edge stdio [options]`: the embedded catalog over MCP's stdio transport
//! (newline-delimited JSON-RPC on stdin/stdout, logs on stderr, exit on end of input).

use skills_edge::catalog::{Catalog, Grant};
use skills_edge::protocol::{reply, Refusal};
use skills_edge::server::{Config, Responder, Transport};
use std::io::{self, BufRead, Write};
use std::process::ExitCode;

/// Largest accepted stdio message (bytes); longer lines are refused and skipped.
const MAX_LINE: usize = 4 * 1024 * 1024;

/// Serves stdin to stdout until end of input, with the configuration the options gave
/// (`skills_edge::command::args`). A configuration the responder refuses comes back as `Err`
/// with its message, a usage error for the caller to print with the usage text.
///
/// The one client is whoever launched the process: it has the scopes `--scopes` names
/// (`Config::scopes`, taken as verified by the launching host; none by default), and every
/// message is answered for the grant of those scopes ([`Catalog::grant`], then
/// [`Responder::respond`]), as the Worker answers a caller whose token carries them.
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
    if let Some(note) = scopes_note(&catalog, &cfg.scopes) {
        eprintln!("{note}");
    }
    let grant = catalog.grant(&cfg.scopes);
    let responder = Responder::new(catalog, cfg).map_err(|e| e.to_string())?;
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    Ok(serve(&responder, grant, &mut stdin.lock(), &mut out))
}

/// What the log says about `--scopes`: the scopes the client has, and those no access rule
/// of the catalog names (most likely a typo: they let the client see nothing more). Nothing
/// without scopes.
fn scopes_note(catalog: &Catalog, scopes: &[String]) -> Option<String> {
    if scopes.is_empty() {
        return None;
    }
    let named = catalog.access_scopes();
    let unknown: Vec<&str> = scopes
        .iter()
        .map(String::as_str)
        .filter(|s| !named.contains(s))
        .collect();
    let mut note = format!(
        "skills-edge: the client has the scopes {}",
        scopes.join(" ")
    );
    if !unknown.is_empty() {
        note.push_str(&format!(
            "\nwarning: no access rule of the catalog names {}: they show the client nothing more",
            unknown.join(" ")
        ));
    }
    Some(note)
}

/// Answers each line of `input` on `out` for a client with `grant`, until end of input (or
/// until `out` is closed). A line that cannot be read ends it with a failure.
fn serve(
    responder: &Responder,
    grant: Grant,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> ExitCode {
    let mut line = Vec::new();
    loop {
        line.clear();
        let (ended, too_long) = match read_line(input, &mut line) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("error: reading stdin: {e}");
                return ExitCode::FAILURE;
            }
        };
        let msg = trim_line(&line);
        let reply = if too_long {
            eprintln!("warning: refused a message longer than {MAX_LINE} bytes");
            Some(reply::refusal(&Refusal::TooLarge { limit: MAX_LINE }))
        } else if msg.is_empty() {
            None
        } else {
            responder.respond(msg, &Transport::Stream, grant).body
        };
        if let Some(body) = reply {
            if out
                .write_all(&body)
                .and_then(|_| out.write_all(b"\n"))
                .and_then(|_| out.flush())
                .is_err()
            {
                // The client closed its end; nothing more can be delivered.
                return ExitCode::SUCCESS;
            }
        }
        if ended {
            return ExitCode::SUCCESS;
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value as Json};
    use skills_edge::catalog::compile::{compile, SourceTree};
    use skills_edge::catalog::pack;
    use skills_edge::command::args::{parse, Invocation, Program};
    use std::sync::Arc;

    /// A public skill and a private one (scope `team`).
    fn catalog() -> Arc<Catalog> {
        let mut t = SourceTree::default();
        let md = |n: &str| {
            format!("---\nname: {n}\ndescription: The {n} skill, described.\n---\n\n# {n}\n")
        };
        t.add_file("hello/SKILL.md", md("hello"));
        t.add_file("secret/SKILL.md", md("secret"));
        t.add_file(
            "skills-edge.toml",
            "[[access]]\nskills = [\"secret\"]\nscopes = [\"team\"]\n",
        );
        let c = compile(t).expect("compiles");
        Arc::new(Catalog::from_bytes(pack::encode(&c, None)).expect("loads"))
    }

    fn line(id: u32, method: &str, mut params: Json) -> String {
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "stdio-test", "version": "0"}
        });
        json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
    }

    /// The replies of the stdio loop to a list, a `skills/get` and a `resources/read` of the
    /// private skill, for a client launched with `flags`.
    fn session(flags: &[&str]) -> Vec<Json> {
        let args: Vec<String> = ["stdio"]
            .iter()
            .chain(flags)
            .map(|s| s.to_string())
            .collect();
        let Ok(Invocation::Stdio(cfg)) = parse(Program::Native, &args, |_| None) else {
            panic!("the stdio flags {flags:?} parse");
        };
        let catalog = catalog();
        let grant = catalog.grant(&cfg.scopes);
        let responder = Responder::new(catalog, cfg).expect("valid settings");
        let uri = "skill://secret/SKILL.md";
        let input = [
            line(1, "skills/list", json!({})),
            line(2, "skills/get", json!({"uri": uri})),
            line(3, "resources/read", json!({"uri": uri})),
        ]
        .join("\n");
        let mut out = Vec::new();
        let code = serve(&responder, grant, &mut input.as_bytes(), &mut out);
        assert_eq!(code, ExitCode::SUCCESS);
        String::from_utf8(out)
            .expect("UTF-8")
            .lines()
            .map(|l| serde_json::from_str(l).expect("one JSON reply a line"))
            .collect()
    }

    fn listed(list: &Json) -> Vec<&str> {
        list["result"]["skills"]
            .as_array()
            .expect("a list")
            .iter()
            .map(|s| s["uri"].as_str().expect("a URI"))
            .collect()
    }

    #[test]
    fn without_scopes_the_private_skill_is_absent() {
        for flags in [&[][..], &["--scopes", "other"], &["--scopes", ""]] {
            let r = session(flags);
            assert_eq!(listed(&r[0]), ["skill://hello/SKILL.md"], "{flags:?}");
            assert_eq!(r[0]["result"]["cacheScope"], "public", "{flags:?}");
            for reply in &r[1..] {
                assert_eq!(reply["error"]["code"], -32602, "{flags:?}: {reply}");
                assert!(!reply.to_string().contains("The secret skill"), "{reply}");
            }
        }
    }

    #[test]
    fn with_the_right_scope_the_private_skill_is_listed_and_readable() {
        let uri = "skill://secret/SKILL.md";
        for flags in [&["--scopes", "team"][..], &["--scopes", "other  team"]] {
            let r = session(flags);
            assert_eq!(listed(&r[0]), ["skill://hello/SKILL.md", uri], "{flags:?}");
            for reply in &r {
                assert_eq!(
                    reply["result"]["cacheScope"], "private",
                    "{flags:?}: {reply}"
                );
            }
            assert_eq!(r[1]["result"]["skill"]["uri"], uri);
            let text = r[2]["result"]["contents"][0]["text"]
                .as_str()
                .expect("text");
            assert!(text.contains("The secret skill, described."), "{text}");
        }
    }

    #[test]
    fn a_scope_that_is_no_scope_token_is_a_usage_error() {
        let args: Vec<String> = ["stdio", "--scopes", "team \"x\""]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let e = parse(Program::Native, &args, |_| None).expect_err("refused");
        assert!(
            e.message.starts_with("option --scopes = \"team \\\"x\\\"\" is invalid (\"\\\"x\\\"\" is not an OAuth scope token): use OAuth scope tokens"),
            "{e}"
        );
    }

    #[test]
    fn the_log_names_the_scopes_and_warns_of_unknown_ones() {
        let c = catalog();
        assert_eq!(scopes_note(&c, &[]), None);
        assert_eq!(
            scopes_note(&c, &["team".into()]).as_deref(),
            Some("skills-edge: the client has the scopes team")
        );
        let note = scopes_note(&c, &["team".into(), "tema".into()]).expect("a note");
        assert!(note.ends_with("warning: no access rule of the catalog names tema: they show the client nothing more"), "{note}");
    }
}
