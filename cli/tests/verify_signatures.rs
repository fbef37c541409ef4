//! `skills-edge verify --trust KEYFILE --pins FILE` (the native command, run as a process)
//! against a catalog signed by the command itself: `keygen` makes the key, `pack --sign` signs
//! the repository's skills, and a small HTTP/1.1 server on 127.0.0.1 in this test serves the
//! pack through the library's Streamable HTTP endpoint (MCP at `/mcp`, the mirror under
//! `/.well-known/agent-skills/`, the envelopes and `keys.json` included). With the key
//! trusted every skill verifies (exit 0) and the table names the signer; with another key
//! every skill fails (exit 1); `--pins` writes the pins on first use and a server re-signed by
//! another key then fails, the file left as it was; a key or pins file that cannot be read,
//! or a secret key given as trusted, stops the run (exit 2) without the secret in any output.

use crate::common::TempDir;
use serde_json::Value as Json;
use skills_edge::catalog::sign::SigningKey;
use skills_edge::catalog::Catalog;
use skills_edge::catalog::Grant;
use skills_edge::http::{Endpoint, Head, HttpConfig};
use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;

fn skills() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../skills")
}

/// Runs the command without the build variables of the environment.
fn run(args: &[&str]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_skills-edge"));
    for v in [
        "SKILLS_SIGNING_KEY",
        "SKILLS_CATALOG_ID",
        "SKILLS_STRICT",
        "SKILLS_ON_INVALID",
    ] {
        c.env_remove(v);
    }
    c.args(args).output().expect("run skills-edge")
}

fn text(b: &[u8]) -> String {
    String::from_utf8(b.to_vec()).expect("UTF-8")
}

/// Answers one HTTP/1.1 request on `stream` with `endpoint`, then closes the connection.
fn answer(endpoint: &Endpoint, stream: TcpStream) -> std::io::Result<()> {
    let request = crate::raw_http::read_request(&stream)?;
    let (method, path, body) = (&request.method, &request.path, &request.body);
    let header = |n: &str| request.header(n);
    let head = Head {
        method,
        path,
        host: header("host"),
        origin: header("origin"),
        accept: header("accept"),
        content_type: header("content-type"),
        content_length: header("content-length"),
        protocol_version: header("mcp-protocol-version"),
        mcp_method: header("mcp-method"),
        mcp_name: header("mcp-name"),
        if_none_match: header("if-none-match"),
        sec_fetch_site: header("sec-fetch-site"),
        sec_fetch_mode: header("sec-fetch-mode"),
    };
    let r = endpoint.handle(&head, body, Grant::PUBLIC);
    assert!(r.splice.is_none(), "every file is in the pack");
    let mut out = format!("HTTP/1.1 {} X\r\n", r.status).into_bytes();
    for (k, v) in &r.headers {
        out.extend_from_slice(format!("{k}: {v}\r\n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "content-length: {}\r\nconnection: close\r\n\r\n",
            r.body.len()
        )
        .as_bytes(),
    );
    out.extend_from_slice(&r.body);
    let mut stream = stream;
    stream.write_all(&out)?;
    stream.flush()
}

/// Serves the pack at `pack` on a free port of 127.0.0.1; returns the origin. The server
/// thread lives as long as the test process.
fn serve(pack: &Path) -> String {
    let catalog = Catalog::from_bytes(std::fs::read(pack).expect("the pack")).expect("it loads");
    let endpoint = Endpoint::new(Arc::new(catalog), HttpConfig::default()).expect("an endpoint");
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    let origin = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let _ = answer(&endpoint, stream);
        }
    });
    origin
}

/// A key pair made by `keygen` in `dir`, and the repository's skills packed and signed with
/// it for `catalog`: (the public key file, the pack).
fn signed_pack(dir: &Path, name: &str, catalog: &str) -> (PathBuf, PathBuf) {
    let keys = dir.join(name);
    let k = run(&["keygen", "--out", keys.to_str().unwrap()]);
    assert_eq!(k.status.code(), Some(0), "{}", text(&k.stderr));
    let pack = dir.join(format!("{name}.pack"));
    let p = run(&[
        "pack",
        skills().to_str().unwrap(),
        "--sign",
        keys.join("signing.key").to_str().unwrap(),
        "--catalog-id",
        catalog,
        "-o",
        pack.to_str().unwrap(),
    ]);
    assert_eq!(p.status.code(), Some(0), "{}", text(&p.stderr));
    (keys.join("signing.pub"), pack)
}

fn lines(out: &Output) -> Vec<Json> {
    text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

#[test]
fn verify_trusts_the_key_file_and_refuses_another() {
    let dir = TempDir::new("verify-trust");
    let (public, pack) = signed_pack(dir.path(), "keys", "acme");
    let origin = serve(&pack);
    let mcp = format!("{origin}/mcp");
    let public = public.to_str().unwrap();
    let key_id: String = serde_json::from_str::<Json>(&std::fs::read_to_string(public).unwrap())
        .unwrap()["kid"]
        .as_str()
        .unwrap()
        .to_owned();

    let table = run(&["verify", &mcp, "--trust", public]);
    assert_eq!(table.status.code(), Some(0), "{}", text(&table.stderr));
    let stdout = text(&table.stdout);
    let short: String = key_id.chars().take(8).collect();
    let rows: Vec<&str> = stdout.lines().skip(1).collect();
    assert_eq!(rows.len(), 7, "{stdout}");
    assert!(
        rows.iter()
            .all(|r| r.ends_with(&format!("verified  acme (key {short}…, trusted)"))),
        "{stdout}"
    );
    assert!(
        text(&table.stderr).ends_with("every file verified, 7 signed\n"),
        "{}",
        text(&table.stderr)
    );
    // The mirror of the same origin, against the same key.
    let mirror = run(&[
        "verify",
        "--well-known",
        &origin,
        "--json",
        "--trust",
        public,
    ]);
    assert_eq!(mirror.status.code(), Some(0), "{}", text(&mirror.stdout));
    assert!(lines(&mirror)
        .iter()
        .all(|l| l["signer"]["keyId"] == key_id.as_str() && l["signer"]["trust"] == "trusted"));

    // Another key trusted: every skill fails, on both.
    let other = dir.path().join("other.pub");
    std::fs::write(&other, SigningKey::from_seed([5; 32]).public().to_jwk()).unwrap();
    for target in [vec![mcp.as_str()], vec!["--well-known", origin.as_str()]] {
        let mut args = vec!["verify"];
        args.extend(&target);
        args.extend(["--json", "--trust", other.to_str().unwrap()]);
        let refused = run(&args);
        assert_eq!(refused.status.code(), Some(1), "{target:?}");
        assert!(lines(&refused)
            .iter()
            .all(|l| l["status"] == "failed" && l["code"] == "signer-untrusted"));
    }
}

#[test]
fn pins_are_written_on_first_use_and_a_new_key_fails() {
    let dir = TempDir::new("verify-pins");
    let (_, first) = signed_pack(dir.path(), "first", "acme");
    let (_, second) = signed_pack(dir.path(), "second", "acme");
    let pins = dir.path().join("pins.json");
    let pins_arg = pins.to_str().unwrap();
    let origin = serve(&first);
    let out = run(&[
        "verify",
        &format!("{origin}/mcp"),
        "--json",
        "--pins",
        pins_arg,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let saved = std::fs::read_to_string(&pins).expect("the pins were written");
    let parsed: Json = serde_json::from_str(&saved).unwrap();
    assert_eq!(parsed["pins"][0]["origin"], origin.as_str());
    assert_eq!(parsed["pins"][0]["catalog"], "acme");
    // The pins are the origin's: another server on another port is another origin. The same
    // skills re-signed with another key, served at the pinned origin, are refused.
    let again = run(&[
        "verify",
        &format!("{origin}/mcp"),
        "--json",
        "--pins",
        pins_arg,
    ]);
    assert_eq!(again.status.code(), Some(0));
    assert!(lines(&again)
        .iter()
        .all(|l| l["signer"]["trust"] == "pinned"));
    let other_origin = serve(&second);
    let moved = saved.replace(&origin, &other_origin);
    std::fs::write(&pins, &moved).unwrap();
    let changed = run(&[
        "verify",
        &format!("{other_origin}/mcp"),
        "--json",
        "--pins",
        pins_arg,
    ]);
    assert_eq!(changed.status.code(), Some(1), "{}", text(&changed.stdout));
    assert!(lines(&changed)
        .iter()
        .all(|l| l["code"] == "signer-changed"));
    assert_eq!(
        std::fs::read_to_string(&pins).unwrap().trim_end(),
        moved.trim_end()
    );
}

#[test]
fn unreadable_or_secret_key_files_stop_the_run() {
    let dir = TempDir::new("verify-files");
    let (_, pack) = signed_pack(dir.path(), "keys", "acme");
    let origin = serve(&pack);
    let mcp = format!("{origin}/mcp");
    let secret_file = dir.path().join("keys").join("signing.key");
    let secret: Json =
        serde_json::from_str(&std::fs::read_to_string(&secret_file).unwrap()).unwrap();
    let d = secret["d"].as_str().unwrap().to_owned();
    let out = run(&["verify", &mcp, "--trust", secret_file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("holds a secret"), "{err}");
    assert!(!err.contains(&d) && !text(&out.stdout).contains(&d));
    let missing = dir.path().join("nope.pub");
    let out = run(&["verify", &mcp, "--trust", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).starts_with(&format!(
            "error: --trust {}: cannot be read: ",
            missing.display()
        )),
        "{}",
        text(&out.stderr)
    );
    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, "{").unwrap();
    let out = run(&["verify", &mcp, "--pins", broken.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--pins"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&broken).unwrap(), "{");
}
