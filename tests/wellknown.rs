//! `skills-edge verify` on a well-known skills source (Agent Skills Discovery RFC v0.2.0)
//! against an in-memory server: the repository's skills folder published as an index with
//! `skill-md` files and `.tar.gz` archives, next to the responder's MCP endpoint; a byte changed
//! in transit, hostile archives, a description that differs, an unknown `$schema`, a v0.1.0
//! index, and the cross-check of both.

use crate::archive_support;

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::future::{ready, Future};
use std::path::Path;

use archive_support::{gz, tar, zip};
use serde_json::{json, Value as Json};
use skills_edge::catalog::compile::{compile, Compiled};
use skills_edge::catalog::walk::walk;
use skills_edge::catalog::Grant;
use skills_edge::client::block_on;
use skills_edge::client::http::{HttpIo, HttpRequest, HttpResponse, ResponseBody};
use skills_edge::client::Result;
use skills_edge::command::args::VerifyArgs;
use skills_edge::command::report::Output;
use skills_edge::command::verify::verify_command;
use skills_edge::host::index::SCHEMA_V0_2_0;
use skills_edge::server::{Config, HttpHeaders, Responder, Transport};
use skills_edge::skill::digest::digest_of;

pub(crate) const ORIGIN: &str = "http://127.0.0.1:8787";
pub(crate) const INDEX: &str = "http://127.0.0.1:8787/.well-known/agent-skills/index.json";

pub(crate) struct Body(pub(crate) Option<Vec<u8>>);

impl ResponseBody for Body {
    fn next_chunk(&mut self) -> impl Future<Output = Result<Option<Vec<u8>>>> {
        ready(Ok(self.0.take()))
    }
}

/// The MCP endpoint (the responder over the embedded catalog) and a mirror: URL → (type, bytes).
/// Shared with the signature tests (`signatures.rs`), which sign what it serves.
pub(crate) struct Server {
    pub(crate) responder: Responder,
    files: RefCell<BTreeMap<String, (String, Vec<u8>)>>,
}

pub(crate) fn compiled() -> Compiled {
    let walked = walk(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("skills")
            .as_path(),
    );
    compile(walked.tree).expect("the skills folder compiles")
}

impl Server {
    /// The skills folder as an RFC v0.2.0 source: a skill with only a SKILL.md as `skill-md`,
    /// the others as `{name}.tar.gz` (SKILL.md first, then the other files in URI order).
    pub(crate) fn new() -> Server {
        let c = compiled();
        let mut files = BTreeMap::new();
        let mut skills = Vec::new();
        for (name, skill) in c.mirrored() {
            let members: Vec<(&str, &[u8])> = skill
                .files
                .iter()
                .map(|&i| &c.files[i])
                .map(|f| (c.relative_path(skill, &f.uri), f.bytes.as_slice()))
                .collect();
            let (kind, url, bytes, ctype) = if members.len() == 1 {
                (
                    "skill-md",
                    format!("/.well-known/agent-skills/{name}/SKILL.md"),
                    members[0].1.to_vec(),
                    "text/markdown",
                )
            } else {
                let entries: Vec<(&str, u8, &[u8])> =
                    members.iter().map(|(p, b)| (*p, b'0', *b)).collect();
                (
                    "archive",
                    format!("/.well-known/agent-skills/{name}.tar.gz"),
                    gz(&tar(&entries)),
                    "application/gzip",
                )
            };
            skills.push(json!({"name": name, "type": kind, "description": skill.description,
                "url": url, "digest": digest_of(&bytes), "_meta": {"io.github.skills-edge/revision": c.revision(skill)}}));
            files.insert(format!("{ORIGIN}{url}"), (ctype.to_owned(), bytes));
        }
        let index = json!({"$schema": SCHEMA_V0_2_0, "skills": skills});
        files.insert(
            INDEX.to_owned(),
            ("application/json".into(), index.to_string().into_bytes()),
        );
        Server {
            responder: Responder::new(skills_edge::embedded::catalog().unwrap(), Config::default())
                .unwrap(),
            files: RefCell::new(files),
        }
    }

    pub(crate) fn put(&self, url: &str, ctype: &str, bytes: Vec<u8>) {
        self.files
            .borrow_mut()
            .insert(url.to_owned(), (ctype.to_owned(), bytes));
    }

    pub(crate) fn bytes(&self, url: &str) -> Vec<u8> {
        self.files.borrow()[url].1.clone()
    }

    /// Rewrites the index.
    pub(crate) fn edit_index(&self, f: impl FnOnce(&mut Json)) {
        let mut index: Json = serde_json::from_slice(&self.bytes(INDEX)).unwrap();
        f(&mut index);
        self.put(INDEX, "application/json", index.to_string().into_bytes());
    }

    /// Replaces a skill's artifact, keeping the index's digest in step when `sync`.
    pub(crate) fn replace(&self, name: &str, ctype: &str, bytes: Vec<u8>, sync: bool) {
        let digest = digest_of(&bytes);
        let mut url = String::new();
        self.edit_index(|i| {
            for s in i["skills"].as_array_mut().unwrap() {
                if s["name"] == name {
                    url = format!("{ORIGIN}{}", s["url"].as_str().unwrap());
                    if sync {
                        s["digest"] = digest.clone().into();
                    }
                }
            }
        });
        self.put(&url, ctype, bytes);
    }

    /// Replaces a skill's artifact with `bytes` at a new URL path (its extension names the
    /// format in the index), served as `ctype`, the index's digest in step.
    pub(crate) fn replace_at(&self, name: &str, path: &str, ctype: &str, bytes: Vec<u8>) {
        let digest = digest_of(&bytes);
        self.edit_index(|i| {
            for s in i["skills"].as_array_mut().unwrap() {
                if s["name"] == name {
                    s["url"] = path.into();
                    s["digest"] = digest.clone().into();
                }
            }
        });
        self.put(&format!("{ORIGIN}{path}"), ctype, bytes);
    }
}

/// The value of a request's header `name` (the client sends names in lowercase).
pub(crate) fn header_of<'r>(request: &'r HttpRequest, name: &str) -> Option<&'r str> {
    request
        .headers
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// The transport facts of a POST as the responder reads them (its MCP headers).
pub(crate) fn transport_of(request: &HttpRequest) -> Transport<'_> {
    let header = |n: &str| header_of(request, n);
    Transport::Http(HttpHeaders {
        protocol_version: header("mcp-protocol-version"),
        method: header("mcp-method"),
        name: header("mcp-name"),
    })
}

impl HttpIo for Server {
    type Body = Body;

    fn post(&self, request: HttpRequest) -> impl Future<Output = Result<HttpResponse<Body>>> {
        let transport = transport_of(&request);
        let reply = self
            .responder
            .respond(request.body.as_bytes(), &transport, Grant::PUBLIC);
        ready(Ok(HttpResponse {
            status: reply.status,
            content_type: reply.body.as_ref().map(|_| "application/json".to_owned()),
            session_id: None,
            www_authenticate: None,
            body: Body(reply.body),
        }))
    }

    fn get(&self, url: &str) -> impl Future<Output = Result<HttpResponse<Body>>> {
        let found = self.files.borrow().get(url).cloned();
        ready(Ok(match found {
            Some((ctype, bytes)) => HttpResponse {
                status: 200,
                content_type: Some(ctype),
                session_id: None,
                www_authenticate: None,
                body: Body(Some(bytes)),
            },
            None => HttpResponse {
                status: 404,
                content_type: None,
                session_id: None,
                www_authenticate: None,
                body: Body(None),
            },
        }))
    }

    fn now_ms(&self) -> f64 {
        0.0
    }
}

fn run(server: &Server, args: &[&str]) -> Output {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let args = VerifyArgs::parse(&args).unwrap();
    block_on(verify_command(&args, &Default::default(), server))
}

fn lines(out: &Output) -> Vec<Json> {
    out.stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn skill<'a>(lines: &'a [Json], name: &str) -> &'a Json {
    lines
        .iter()
        .find(|l| l["name"] == name)
        .unwrap_or_else(|| panic!("{name} in {lines:?}"))
}

#[test]
fn the_published_source_verifies() {
    let server = Server::new();
    let out = run(&server, &[INDEX, "--json"]);
    assert_eq!(out.exit_code, 0, "{}{}", out.stdout, out.stderr);
    let lines = lines(&out);
    let c = compiled();
    assert_eq!(lines.len(), c.mirrored().len());
    for l in &lines {
        assert_eq!(l["status"], "verified", "{l}");
        // The revision computed from the unpacked files is the MCP entry's.
        let s = c.mirrored()[l["name"].as_str().unwrap()];
        assert_eq!(l["revision"], c.revision(s), "{l}");
        assert_eq!(l["files"], s.files.len());
    }
    assert!(out.stderr.contains("every file verified"), "{}", out.stderr);
    // The table, and the origin form of the command.
    let table = run(&server, &["--well-known", ORIGIN]);
    assert_eq!(table.exit_code, 0, "{}", table.stderr);
    assert!(table.stdout.starts_with("SKILL "), "{}", table.stdout);
}

#[test]
fn one_byte_changed_in_transit_names_the_digest() {
    let server = Server::new();
    let url = format!("{ORIGIN}/.well-known/agent-skills/code-review.tar.gz");
    let mut bytes = server.bytes(&url);
    let n = bytes.len() / 2;
    bytes[n] ^= 1;
    server.put(&url, "application/gzip", bytes);
    let out = run(&server, &[INDEX]);
    assert_eq!(out.exit_code, 1, "{}{}", out.stdout, out.stderr);
    let row = out
        .stdout
        .lines()
        .find(|l| l.contains("code-review"))
        .unwrap();
    assert!(
        row.contains("failed") && row.contains("digest-mismatch") && row.contains("sha256:"),
        "{row}"
    );
    let json = lines(&run(&server, &[INDEX, "--json"]));
    let s = skill(&json, "code-review");
    assert_eq!(s["code"], "digest-mismatch");
    // Nothing of it was unpacked: the artifact is the one check.
    assert_eq!(s["checks"].as_array().unwrap().len(), 1);
    assert_eq!(skill(&json, "diagram-style")["status"], "verified");
}

#[test]
fn hostile_archives_fail_with_their_rule() {
    let skill_md = {
        let c = compiled();
        let s = c.mirrored()["code-review"];
        c.files[s.files[0]].bytes.clone()
    };
    let cases: Vec<(&str, Vec<u8>, &str, &str)> = vec![
        (
            "traversal",
            gz(&tar(&[
                ("SKILL.md", b'0', &skill_md),
                ("../evil.md", b'0', b"x"),
            ])),
            "application/gzip",
            "archive-unsafe",
        ),
        (
            "symlink",
            gz(&tar(&[("SKILL.md", b'0', &skill_md), ("l", b'2', b"")])),
            "application/gzip",
            "archive-unsafe",
        ),
        (
            "wrapper folder",
            gz(&tar(&[("code-review/SKILL.md", b'0', &skill_md)])),
            "application/gzip",
            "archive-invalid",
        ),
        (
            "zip symlink",
            zip(&[
                ("SKILL.md", 0o100644, &skill_md, true),
                ("l", 0o120777, b"/etc", false),
            ]),
            "application/zip",
            "archive-unsafe",
        ),
        (
            "zip named .tar.gz and served as gzip",
            zip(&[("SKILL.md", 0o100644, &skill_md, true)]),
            "application/gzip",
            "archive-invalid",
        ),
        (
            "bad file name",
            gz(&tar(&[
                ("SKILL.md", b'0', &skill_md),
                ("a b.md", b'0', b"x"),
            ])),
            "application/gzip",
            "archive-invalid",
        ),
    ];
    for (what, bytes, ctype, code) in cases {
        let server = Server::new();
        if what.starts_with("zip symlink") {
            let path = "/.well-known/agent-skills/code-review.zip";
            server.replace_at("code-review", path, ctype, bytes);
        } else {
            server.replace("code-review", ctype, bytes, true);
        }
        let out = run(&server, &[INDEX, "--json"]);
        assert_eq!(out.exit_code, 1, "{what}: {}", out.stderr);
        assert_eq!(skill(&lines(&out), "code-review")["code"], code, "{what}");
    }
}

/// The archive of issue 37: with the right digest, `verify` said "every file verified" for
/// the files it read, while GNU tar writes the last member's text over `SKILL.md`.
#[test]
fn verify_fails_an_archive_whose_skill_md_tar_extracts_differently() {
    let skill_md = {
        let c = compiled();
        let s = c.mirrored()["code-review"];
        c.files[s.files[0]].bytes.clone()
    };
    let entry = |name: &str, kind: u8, data: &[u8]| {
        let mut e = archive_support::header(name, data.len() as u64, kind, "");
        e.extend(data);
        e.resize(e.len().div_ceil(512) * 512, 0);
        e
    };
    let mut t = entry("SKILL.md", b'0', &skill_md);
    t.extend(entry(
        "PaxHeaders/x",
        b'x',
        &archive_support::pax_record("path", "SKILL.md"),
    ));
    t.extend(entry("././@LongLink", b'L', b"notes.md\0"));
    t.extend(entry(
        "other.md",
        b'0',
        b"---\nname: code-review\ndescription: Other.\n---\n",
    ));
    t.extend([0u8; 1024]);
    let server = Server::new();
    server.replace("code-review", "application/gzip", gz(&t), true);
    let out = run(&server, &[INDEX, "--json"]);
    assert_eq!(out.exit_code, 1, "{}", out.stdout);
    let json = lines(&out);
    let row = skill(&json, "code-review");
    assert_eq!(row["code"], "archive-unsafe", "{row}");
    assert!(
        !out.stderr.contains("every file verified"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_zip_archive_verifies_too() {
    let c = compiled();
    let s = c.mirrored()["code-review"];
    let members: Vec<(&str, u32, &[u8], bool)> = s
        .files
        .iter()
        .map(|&i| {
            (
                c.relative_path(s, &c.files[i].uri),
                0o100644,
                c.files[i].bytes.as_slice(),
                true,
            )
        })
        .collect();
    let server = Server::new();
    let path = "/.well-known/agent-skills/code-review.zip";
    server.replace_at("code-review", path, "application/zip", zip(&members));
    let out = run(&server, &[INDEX, "--json"]);
    assert_eq!(out.exit_code, 0, "{}", out.stdout);
}

/// The digest covers an artifact's bytes, not its `Content-Type`; if the header chose the
/// format, a server could make one verified file read as two different archives. The format is
/// the one the index's URL names, whatever the header says.
#[test]
fn content_type_cannot_make_an_archive_read_as_another_format() {
    let c = compiled();
    let s = c.mirrored()["code-review"];
    let files: Vec<(&str, &[u8])> = s
        .files
        .iter()
        .map(|&i| {
            (
                c.relative_path(s, &c.files[i].uri),
                c.files[i].bytes.as_slice(),
            )
        })
        .collect();
    let zipped: Vec<(&str, u32, &[u8], bool)> = files
        .iter()
        .map(|(p, b)| (*p, 0o100644, *b, true))
        .collect();
    let tarred: Vec<(&str, u8, &[u8])> = files.iter().map(|(p, b)| (*p, b'0', *b)).collect();
    // A zip named .zip but served as gzip, and a tar.gz named .tar.gz but served as zip: each
    // is read as its name says, and verifies.
    let server = Server::new();
    let path = "/.well-known/agent-skills/code-review.zip";
    server.replace_at("code-review", path, "application/gzip", zip(&zipped));
    let out = run(&server, &[INDEX, "--json"]);
    assert_eq!(out.exit_code, 0, "{}", out.stdout);
    let server = Server::new();
    server.replace("code-review", "application/zip", gz(&tar(&tarred)), true);
    let out = run(&server, &[INDEX, "--json"]);
    assert_eq!(out.exit_code, 0, "{}", out.stdout);
    // A URL that names no format is refused, whatever the header says.
    let server = Server::new();
    let path = "/.well-known/agent-skills/code-review.bin";
    server.replace_at("code-review", path, "application/zip", zip(&zipped));
    let out = run(&server, &[INDEX, "--json"]);
    assert_eq!(out.exit_code, 1, "{}", out.stdout);
    let json = lines(&out);
    let row = skill(&json, "code-review");
    assert_eq!(row["code"], "archive-invalid", "{row}");
    assert!(
        row["why"]
            .as_str()
            .unwrap()
            .contains(".tar.gz, .tgz or .zip"),
        "{row}"
    );
}

#[test]
fn the_compiler_checks_run_on_the_files() {
    let server = Server::new();
    // A description that differs from the frontmatter's.
    server.edit_index(|i| {
        for s in i["skills"].as_array_mut().unwrap() {
            if s["name"] == "code-review" {
                s["description"] = "Something else.".into();
            }
        }
    });
    let json = lines(&run(&server, &[INDEX, "--json"]));
    let s = skill(&json, "code-review");
    assert_eq!(s["code"], "frontmatter-mismatch", "{s}");
    // A SKILL.md whose frontmatter names another skill.
    let server = Server::new();
    let md =
        b"---\nname: other\ndescription: Review code using the team's checklist.\n---\n".to_vec();
    server.replace(
        "code-review",
        "application/gzip",
        gz(&tar(&[("SKILL.md", b'0', &md)])),
        true,
    );
    let json = lines(&run(&server, &[INDEX, "--json"]));
    let s = skill(&json, "code-review");
    assert_eq!(s["code"], "frontmatter-invalid", "{s}");
    assert!(
        s["why"]
            .as_str()
            .unwrap()
            .contains("name-matches-directory"),
        "{s}"
    );
}

#[test]
fn schema_and_entries() {
    let server = Server::new();
    server.edit_index(|i| {
        i["$schema"] = "https://schemas.agentskills.io/discovery/9.0.0/schema.json".into()
    });
    let out = run(&server, &[INDEX]);
    assert_eq!(out.exit_code, 2);
    assert!(out.stderr.contains("unknown-schema"), "{}", out.stderr);

    let server = Server::new();
    server.edit_index(|i| {
        i["skills"]
            .as_array_mut()
            .unwrap()
            .push(json!({"name": "Bad Name", "type": "skill-md"}));
    });
    let out = run(&server, &[INDEX, "--json"]);
    assert_eq!(out.exit_code, 1);
    let bad = lines(&out)
        .into_iter()
        .find(|l| l["name"] == "Bad Name")
        .unwrap();
    assert_eq!(bad["code"], "invalid-entry");

    let server = Server::new();
    server.put(INDEX, "application/json", b"not json".to_vec());
    assert_eq!(run(&server, &[INDEX]).exit_code, 2);
    let server = Server::new();
    server.files.borrow_mut().remove(INDEX);
    let out = run(&server, &["--well-known", ORIGIN]);
    assert_eq!(out.exit_code, 2);
    assert!(out.stderr.contains("http-status"), "{}", out.stderr);
}

#[test]
fn a_v0_1_0_index_is_read_without_digests() {
    let server = Server::new();
    let c = compiled();
    let s = c.mirrored()["code-review"];
    let paths: Vec<&str> = s
        .files
        .iter()
        .map(|&i| c.relative_path(s, &c.files[i].uri))
        .collect();
    for (&i, p) in s.files.iter().zip(&paths) {
        server.put(
            &format!("{ORIGIN}/.well-known/agent-skills/code-review/{p}"),
            "text/markdown",
            c.files[i].bytes.clone(),
        );
    }
    let index =
        json!({"skills": [{"name": "code-review", "description": s.description, "files": paths}]});
    server.put(INDEX, "application/json", index.to_string().into_bytes());
    // Nothing can be verified: a failure, unless the user accepts unverifiable skills.
    let strict = run(&server, &[INDEX, "--json"]);
    assert_eq!(strict.exit_code, 1, "{}{}", strict.stdout, strict.stderr);
    assert!(
        strict.stderr.contains("pass --allow-dynamic"),
        "{}",
        strict.stderr
    );
    let out = run(&server, &[INDEX, "--json", "--allow-dynamic"]);
    assert_eq!(out.exit_code, 0, "{}{}", out.stdout, out.stderr);
    assert_eq!(out.stdout, strict.stdout);
    let l = &lines(&out)[0];
    assert_eq!(l["status"], "dynamic", "{l}");
    assert_eq!(l["revision"], c.revision(s));
    // Nothing was compared with a digest, so no file is `verified` either.
    let checks = l["checks"].as_array().expect("checks");
    assert!(!checks.is_empty(), "{l}");
    for check in checks {
        assert_eq!(check["status"], "dynamic", "{check}");
    }
}

#[test]
fn cross_check_compares_both_publications() {
    let server = Server::new();
    let out = run(
        &server,
        &[&format!("{ORIGIN}/mcp"), "--cross-check", "--json"],
    );
    assert_eq!(out.exit_code, 0, "{}{}", out.stdout, out.stderr);
    let c = compiled();
    assert_eq!(lines(&out).len(), c.skills.len() + c.mirrored().len());
    // The mirror publishes other (consistent) bytes for one file: the index and archive agree,
    // MCP does not.
    let s = c.mirrored()["code-review"];
    let mut entries: Vec<(String, Vec<u8>)> = s
        .files
        .iter()
        .map(|&i| {
            (
                c.relative_path(s, &c.files[i].uri).to_owned(),
                c.files[i].bytes.clone(),
            )
        })
        .collect();
    entries[1].1.extend(b"\nextra\n");
    let e: Vec<(&str, u8, &[u8])> = entries
        .iter()
        .map(|(p, b)| (p.as_str(), b'0', b.as_slice()))
        .collect();
    server.replace("code-review", "application/gzip", gz(&tar(&e)), true);
    let out = run(
        &server,
        &[&format!("{ORIGIN}/mcp"), "--cross-check", "--json"],
    );
    assert_eq!(out.exit_code, 1, "{}", out.stdout);
    let mirror = lines(&out)
        .into_iter()
        .find(|l| l["name"] == "code-review" && l["skill"].as_str().unwrap().starts_with("http"))
        .unwrap();
    assert_eq!(mirror["code"], "digest-mismatch", "{mirror}");
    assert!(
        mirror["why"].as_str().unwrap().contains(&entries[1].0),
        "{mirror}"
    );
}

#[test]
fn arguments() {
    let parse =
        |a: &[&str]| VerifyArgs::parse(&a.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    assert!(parse(&[INDEX]).unwrap().well_known);
    assert!(!parse(&[&format!("{ORIGIN}/mcp")]).unwrap().well_known);
    assert_eq!(parse(&["--well-known", ORIGIN]).unwrap().url, INDEX);
    assert!(parse(&["--well-known", &format!("{ORIGIN}/mcp")]).is_err());
    assert!(parse(&[INDEX, "--cross-check"]).is_err());
    assert!(parse(&[INDEX, "--era", "2025-11-25"]).is_err());
}
