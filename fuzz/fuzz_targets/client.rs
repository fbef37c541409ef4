//! `SkillsClient` and the audit (`report::run`, what `skills-edge verify` prints) against a
//! fake server whose answers the fuzzer chooses: listing pages, `skills/get` answers that
//! change the entry or turn it dynamic, `resources/read` answers (the right bytes, other
//! bytes, errors), directory listings.
//!
//! The server has three skills (`alpha`, `beta`, `gamma`), each with up to four files
//! (`SKILL.md`, `a.md`, `sub/c.md`, `evil.md`) in two versions (`v0`, `v1`: other bytes, the
//! same frontmatter). Answers are queued per request key (the listing; `skills/get` of a
//! skill; `resources/read` of a file; `resources/directory/read` of a directory) and taken in
//! order, so two clients that make the same requests get the same answers. An empty queue
//! answers honestly: every skill with `SKILL.md`, `a.md` and `sub/c.md` at `v0` (`ttlMs`
//! 60000), `v0` bytes, the directories of those files.
//!
//! Input: a flag byte (bit 0: the server declares `directoryRead`; bit 1: the audit checks
//! only `alpha`, fetched with `skills/get`), then at most `MAX_RECORDS` records
//! `[kind] [key] [payload…]` (a missing byte reads as 0):
//! * kind 0, a listing page: key `n` (bit 7: a JSON-RPC error instead), then `n % 4` entries
//!   `[skill] [files] [versions] [dynamic]`, then `[next]` (0: no `nextCursor`, else
//!   `c<next % 4>`) and `[ttl]` (0: no `ttlMs`, so stale at once; else 60000);
//! * kind 1, a `skills/get` answer for skill `key`: `[what]`: 0 an entry (`[files]
//!   [versions] [dynamic] [ttl]`), 1 a JSON-RPC error, 2 a failed exchange, 3 the entry turned
//!   `"dynamic"`, 4 another skill's entry;
//! * kind 2, a `resources/read` answer for file `key` (skill × 4 + file): `[what]`: 0 the
//!   `v0` bytes, 1 the `v1` bytes, 2 a JSON-RPC error, 3 `[len]` raw bytes (`len % 32`), 4 a
//!   failed exchange, 5 the `v0` bytes as a `blob`;
//! * kind 3, a `resources/directory/read` page for directory `key` (skill × 2 + 0 for the root,
//!   1 for `sub`): `[n]`, then `n % 6` children (`CHILDREN`), then `[next]`.
//!
//! `files` is a bit mask over the four files (`SKILL.md` is always listed), `versions` says
//! which are listed at `v1`, bit 0 of `dynamic` turns the entry `"dynamic"`.
//!
//! Properties (in `check_requested`, `check_audit` and `check_agreement`):
//! * no `resources/read` is requested for a URI that the entries the client holds at that
//!   moment (the registered one, and the acting window's) do not list, unless dynamic;
//! * a file the audit reports `verified` is listed by the entry the client holds at the end
//!   with the reported size and digest, and the server served exactly such bytes for it
//!   (SHA-256 recomputed here with `sha2`); a skill reported `verified` has a manifest in the
//!   entry held at the end, the revision of that entry, and every file of it verified that
//!   way. A skill reported `dynamic` in a listed run was listed `"dynamic"` by some page (one
//!   listed only with a manifest and held dynamic is `downgraded`). Any other status asserts
//!   nothing, so new statuses fit;
//! * the audit agrees with `SkillsClient`'s own operations: a second client on the same
//!   answers lists, loads each skill and reads every file of the entry it holds; for every
//!   skill the server showed with one entry only (in listings and `skills/get`, in both runs,
//!   with no refused `skills/get`), a file is `verified` in the audit
//!   exactly when that read succeeded with a verified receipt, and a `verified` skill had
//!   every read verified.

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value as Json};
use sha2::{Digest as _, Sha256};
use skills_edge::client::{
    block_on, ClientError, ExchangeKind, Result, Rpc, ServerFacts, SkillsClient,
};
use skills_edge::command::args::VerifyArgs;
use skills_edge::command::report::{self, FileStatus, Report, SkillStatus};
use skills_edge::host::{Entry, Purpose};
use skills_edge::protocol::{Era, MODERN_VERSION, SKILLS_EXTENSION};
use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet, VecDeque};

const SKILLS: [&str; 3] = ["alpha", "beta", "gamma"];
const FILES: [&str; 4] = ["SKILL.md", "a.md", "sub/c.md", "evil.md"];
/// Children a directory listing can show: (path under the skill root, is a directory).
const CHILDREN: [(&str, bool); 8] = [
    ("SKILL.md", false),
    ("a.md", false),
    ("sub", true),
    ("sub/c.md", false),
    ("evil.md", false),
    ("x", true),
    ("x/y.md", false),
    ("sub/evil.md", false),
];
/// The honest entry's files (a mask over `FILES`).
const HONEST_FILES: u8 = 0b0111;
/// Most records read from one input.
const MAX_RECORDS: usize = 64;

fn skill_uri(s: usize) -> String {
    format!("skill://{}/SKILL.md", SKILLS[s])
}

fn file_uri(s: usize, f: usize) -> String {
    format!("skill://{}/{}", SKILLS[s], FILES[f])
}

fn content(s: usize, f: usize, v1: bool) -> Vec<u8> {
    let v = u8::from(v1);
    let extra = if v1 { ", other bytes" } else { "" };
    if f == 0 {
        format!(
            "---\nname: {}\ndescription: d\n---\nversion {v}{extra}\n",
            SKILLS[s]
        )
        .into_bytes()
    } else {
        format!("{} of {}, version {v}{extra}\n", FILES[f], SKILLS[s]).into_bytes()
    }
}

fn sha256(bytes: &[u8]) -> String {
    let mut out = String::from("sha256:");
    for b in Sha256::digest(bytes).iter() {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

#[derive(Debug, Clone, Copy)]
struct Shape {
    files: u8,
    versions: u8,
    dynamic: bool,
}

impl Shape {
    const HONEST: Shape = Shape {
        files: HONEST_FILES,
        versions: 0,
        dynamic: false,
    };

    fn entry(self, s: usize) -> Json {
        let resources = if self.dynamic {
            json!("dynamic")
        } else {
            let items: Vec<Json> = (0..FILES.len())
                .filter(|f| *f == 0 || self.files & (1 << f) != 0)
                .map(|f| {
                    let bytes = content(s, f, self.versions & (1 << f) != 0);
                    json!({"uri": file_uri(s, f), "digest": sha256(&bytes), "size": bytes.len()})
                })
                .collect();
            Json::Array(items)
        };
        json!({
            "uri": skill_uri(s),
            "frontmatter": {"name": SKILLS[s], "description": "d"},
            "resources": resources,
        })
    }
}

#[derive(Debug, Clone)]
enum ListAnswer {
    Page {
        skills: Vec<(usize, Shape)>,
        next: Option<String>,
        ttl: bool,
    },
    Error,
}

#[derive(Debug, Clone)]
enum GetAnswer {
    Entry(Shape, bool),
    Error,
    Transport,
    Dynamic,
    OtherSkill,
}

#[derive(Debug, Clone)]
enum ReadAnswer {
    Version(bool),
    Error,
    Raw(Vec<u8>),
    Transport,
    Blob,
}

#[derive(Debug, Clone)]
enum DirAnswer {
    Page {
        children: Vec<usize>,
        next: Option<String>,
    },
}

/// The answers of one input, queued per request key.
#[derive(Debug, Clone, Default)]
struct Script {
    directory_read: bool,
    only: bool,
    list: VecDeque<ListAnswer>,
    get: HashMap<usize, VecDeque<GetAnswer>>,
    read: HashMap<(usize, usize), VecDeque<ReadAnswer>>,
    dir: HashMap<(usize, usize), VecDeque<DirAnswer>>,
}

struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn next(&mut self) -> u8 {
        match self.0.split_first() {
            Some((b, rest)) => {
                self.0 = rest;
                *b
            }
            None => 0,
        }
    }

    fn shape(&mut self) -> Shape {
        Shape {
            files: self.next(),
            versions: self.next(),
            dynamic: self.next() & 1 == 1,
        }
    }

    fn cursor(&mut self) -> Option<String> {
        match self.next() {
            0 => None,
            n => Some(format!("c{}", n % 4)),
        }
    }
}

impl Script {
    fn parse(data: &[u8]) -> Script {
        let mut b = Bytes(data);
        let flags = b.next();
        let mut s = Script {
            directory_read: flags & 1 != 0,
            only: flags & 2 != 0,
            ..Script::default()
        };
        for _ in 0..MAX_RECORDS {
            if b.0.is_empty() {
                break;
            }
            let kind = b.next() % 4;
            let key = b.next();
            match kind {
                0 if key & 0x80 != 0 => s.list.push_back(ListAnswer::Error),
                0 => {
                    let skills = (0..key % 4)
                        .map(|_| (usize::from(b.next()) % SKILLS.len(), b.shape()))
                        .collect();
                    let next = b.cursor();
                    let ttl = b.next() != 0;
                    s.list.push_back(ListAnswer::Page { skills, next, ttl });
                }
                1 => {
                    let answer = match b.next() % 5 {
                        0 => {
                            let shape = b.shape();
                            GetAnswer::Entry(shape, b.next() != 0)
                        }
                        1 => GetAnswer::Error,
                        2 => GetAnswer::Transport,
                        3 => GetAnswer::Dynamic,
                        _ => GetAnswer::OtherSkill,
                    };
                    let skill = usize::from(key) % SKILLS.len();
                    s.get.entry(skill).or_default().push_back(answer);
                }
                2 => {
                    let answer = match b.next() % 6 {
                        0 => ReadAnswer::Version(false),
                        1 => ReadAnswer::Version(true),
                        2 => ReadAnswer::Error,
                        3 => {
                            let len = usize::from(b.next() % 32);
                            ReadAnswer::Raw((0..len).map(|_| b.next()).collect())
                        }
                        4 => ReadAnswer::Transport,
                        _ => ReadAnswer::Blob,
                    };
                    let slot = usize::from(key) % (SKILLS.len() * FILES.len());
                    let file = (slot / FILES.len(), slot % FILES.len());
                    s.read.entry(file).or_default().push_back(answer);
                }
                _ => {
                    let children = (0..b.next() % 6)
                        .map(|_| usize::from(b.next()) % CHILDREN.len())
                        .collect();
                    let next = b.cursor();
                    let slot = usize::from(key) % (SKILLS.len() * 2);
                    s.dir
                        .entry((slot / 2, slot % 2))
                        .or_default()
                        .push_back(DirAnswer::Page { children, next });
                }
            }
        }
        s
    }
}

/// What the server saw and served.
#[derive(Default)]
struct Log {
    /// Every byte string served for each URI.
    served: HashMap<String, Vec<Vec<u8>>>,
    /// The JSON text of the entry last shown for each skill (listing or `skills/get`).
    shown: HashMap<usize, String>,
    /// Skills shown with two different entries, or whose `skills/get` was refused or answered
    /// with another skill.
    changed: HashSet<usize>,
    /// Skills some listing page showed as `"dynamic"`.
    listed_dynamic: HashSet<usize>,
}

struct Server<'c> {
    client: &'c SkillsClient,
    script: RefCell<Script>,
    log: RefCell<Log>,
    clock: Cell<f64>,
}

fn rpc_error(method: &str) -> ClientError {
    ClientError::exchange(
        ExchangeKind::ServerError,
        format!("the server answered {method} with JSON-RPC error -32602: refused"),
    )
    .with_actual("-32602")
}

fn transport(method: &str) -> ClientError {
    ClientError::exchange(
        ExchangeKind::ConnectionFailed,
        format!("{method}: the connection was reset"),
    )
}

fn skill_of(uri: &str) -> Option<usize> {
    SKILLS
        .iter()
        .position(|s| uri.starts_with(&format!("skill://{s}/")))
}

impl<'c> Server<'c> {
    fn new(client: &'c SkillsClient, script: Script) -> Server<'c> {
        Server {
            client,
            script: RefCell::new(script),
            log: RefCell::new(Log::default()),
            clock: Cell::new(0.0),
        }
    }

    /// Records an entry shown for skill `s`; one that differs from an earlier one is a change.
    fn show(&self, s: usize, entry: &Json) {
        let text = entry.to_string();
        let mut log = self.log.borrow_mut();
        let before = log.shown.insert(s, text.clone());
        if before.is_some_and(|b| b != text) {
            log.changed.insert(s);
        }
    }

    fn list(&self, params: &Json) -> Result<Json> {
        let first = params.get("cursor").is_none();
        let answer = self.script.borrow_mut().list.pop_front();
        let answer = answer.unwrap_or_else(|| ListAnswer::Page {
            skills: if first {
                (0..SKILLS.len()).map(|s| (s, Shape::HONEST)).collect()
            } else {
                Vec::new()
            },
            next: None,
            ttl: true,
        });
        match answer {
            ListAnswer::Error => Err(rpc_error("skills/list")),
            ListAnswer::Page { skills, next, ttl } => {
                let entries: Vec<Json> = skills
                    .iter()
                    .map(|(s, shape)| {
                        let e = shape.entry(*s);
                        self.show(*s, &e);
                        if e["resources"] == "dynamic" {
                            self.log.borrow_mut().listed_dynamic.insert(*s);
                        }
                        e
                    })
                    .collect();
                let mut r = json!({ "skills": entries });
                if let Some(c) = next {
                    r["nextCursor"] = json!(c);
                }
                if ttl {
                    r["ttlMs"] = json!(60000);
                }
                Ok(r)
            }
        }
    }

    fn get(&self, params: &Json) -> Result<Json> {
        let uri = params.get("uri").and_then(Json::as_str).unwrap_or_default();
        let Some(s) = (0..SKILLS.len()).find(|s| skill_uri(*s) == uri) else {
            return Err(rpc_error("skills/get"));
        };
        let answer = self
            .script
            .borrow_mut()
            .get
            .get_mut(&s)
            .and_then(VecDeque::pop_front);
        let (entry, ttl) = match answer.unwrap_or(GetAnswer::Entry(Shape::HONEST, true)) {
            GetAnswer::Entry(shape, ttl) => (shape.entry(s), ttl),
            GetAnswer::Dynamic => (
                Shape {
                    dynamic: true,
                    ..Shape::HONEST
                }
                .entry(s),
                false,
            ),
            GetAnswer::OtherSkill => {
                self.log.borrow_mut().changed.insert(s);
                (Shape::HONEST.entry((s + 1) % SKILLS.len()), true)
            }
            GetAnswer::Error => {
                self.log.borrow_mut().changed.insert(s);
                return Err(rpc_error("skills/get"));
            }
            GetAnswer::Transport => {
                self.log.borrow_mut().changed.insert(s);
                return Err(transport("skills/get"));
            }
        };
        self.show(s, &entry);
        let mut r = json!({ "skill": entry });
        if ttl {
            r["ttlMs"] = json!(60000);
        }
        Ok(r)
    }

    fn read(&self, params: &Json) -> Result<Json> {
        let uri = params.get("uri").and_then(Json::as_str).unwrap_or_default();
        check_requested(self.client, uri);
        let Some(file) = (0..SKILLS.len())
            .flat_map(|s| (0..FILES.len()).map(move |f| (s, f)))
            .find(|(s, f)| file_uri(*s, *f) == uri)
        else {
            return Err(rpc_error("resources/read"));
        };
        let answer = self
            .script
            .borrow_mut()
            .read
            .get_mut(&file)
            .and_then(VecDeque::pop_front);
        let (bytes, blob) = match answer.unwrap_or(ReadAnswer::Version(false)) {
            ReadAnswer::Version(v1) => (content(file.0, file.1, v1), false),
            ReadAnswer::Blob => (content(file.0, file.1, false), true),
            ReadAnswer::Raw(b) => (b, true),
            ReadAnswer::Error => return Err(rpc_error("resources/read")),
            ReadAnswer::Transport => return Err(transport("resources/read")),
        };
        let item = match (blob, std::str::from_utf8(&bytes)) {
            (false, Ok(text)) => json!({"uri": uri, "mimeType": "text/markdown", "text": text}),
            _ => {
                use base64::Engine as _;
                let b64 = base64::engine::general_purpose::STANDARD.encode(&bytes);
                json!({"uri": uri, "mimeType": "application/octet-stream", "blob": b64})
            }
        };
        self.log
            .borrow_mut()
            .served
            .entry(uri.to_owned())
            .or_default()
            .push(bytes);
        Ok(json!({ "contents": [item] }))
    }

    fn directory(&self, params: &Json) -> Result<Json> {
        let uri = params.get("uri").and_then(Json::as_str).unwrap_or_default();
        let place = (0..SKILLS.len())
            .flat_map(|s| [(s, 0), (s, 1)])
            .find(|(s, d)| {
                let root = format!("skill://{}", SKILLS[*s]);
                uri == if *d == 0 { root } else { format!("{root}/sub") }
            });
        let Some((s, d)) = place else {
            return Ok(json!({ "resources": [] }));
        };
        let answer = self
            .script
            .borrow_mut()
            .dir
            .get_mut(&(s, d))
            .and_then(VecDeque::pop_front);
        let root = format!("skill://{}", SKILLS[s]);
        let (children, next) = match answer {
            Some(DirAnswer::Page { children, next }) => (
                children.iter().map(|c| CHILDREN[*c]).collect::<Vec<_>>(),
                next,
            ),
            // The honest listing: the direct children among the honest entry's files.
            None => {
                let prefix = if d == 0 { "" } else { "sub/" };
                let honest: Vec<(&str, bool)> = CHILDREN
                    .iter()
                    .copied()
                    .filter(|(p, dir)| {
                        let Some(rest) = p.strip_prefix(prefix) else {
                            return false;
                        };
                        !rest.is_empty()
                            && !rest.contains('/')
                            && (*dir && *p == "sub"
                                || FILES
                                    .iter()
                                    .enumerate()
                                    .any(|(f, n)| n == p && HONEST_FILES & (1 << f) != 0))
                    })
                    .collect();
                (honest, None)
            }
        };
        let items: Vec<Json> = children
            .iter()
            .map(|(p, dir)| {
                let mut j = json!({"uri": format!("{root}/{p}"), "name": p});
                if *dir {
                    j["mimeType"] = json!("inode/directory");
                }
                j
            })
            .collect();
        let mut r = json!({ "resources": items });
        if let Some(c) = next {
            r["nextCursor"] = json!(c);
        }
        Ok(r)
    }
}

impl Rpc for Server<'_> {
    async fn call(&self, method: &str, params: Json) -> Result<Json> {
        self.clock.set(self.clock.get() + 1.0);
        match method {
            "skills/list" => self.list(&params),
            "skills/get" => self.get(&params),
            "resources/read" => self.read(&params),
            "resources/directory/read" => self.directory(&params),
            _ => Err(rpc_error(method)),
        }
    }

    fn now_ms(&self) -> f64 {
        self.clock.get()
    }
}

/// The entry the client holds for `skill_uri`.
fn held(client: &SkillsClient, skill_uri: &str) -> Option<Entry> {
    client
        .host(|h, label| h.entry(label, skill_uri).cloned())
        .ok()
        .flatten()
}

/// Property: a `resources/read` goes only to a file that the held entry lists (or to any file
/// of a dynamic entry): the registered entry (what loading reads from), or the one the acting
/// window holds (what reads during the window go by, H16; asked with `plan_read_for`), or the
/// one a check's own window holds (what an audit's reads go by).
fn check_requested(client: &SkillsClient, uri: &str) {
    let Some(s) = skill_of(uri) else {
        panic!("resources/read was requested for {uri}, which is in no skill");
    };
    let skill = skill_uri(s);
    let window = client
        .host(|h, label| {
            [Purpose::Use, Purpose::Check].into_iter().any(|purpose| {
                h.plan_read_for(label, &skill, uri, purpose)
                    .is_ok_and(|p| p.uri == uri)
            })
        })
        .unwrap_or(false);
    if window {
        return;
    }
    let Some(entry) = held(client, &skill) else {
        panic!("resources/read was requested for {uri} while no entry of its skill is held");
    };
    assert!(
        entry.is_dynamic() || entry.item(uri).is_some(),
        "resources/read was requested for {uri}, which the held entry of {} does not list: {}",
        entry.uri(),
        entry.to_json()
    );
}

/// Whether the server served, for `uri`, bytes of exactly this size and SHA-256.
fn served_as(log: &Log, uri: &str, size: u64, digest: &str) -> bool {
    log.served.get(uri).is_some_and(|all| {
        all.iter()
            .any(|b| b.len() as u64 == size && sha256(b) == digest)
    })
}

/// Properties of the audit: what it calls `verified` matches the entry held at the end and
/// the bytes served.
fn check_audit(report: &Report, client: &SkillsClient, log: &Log, listed: bool) {
    for s in &report.skills {
        // No pass for a downgrade: a skill the listing only ever gave a manifest is never
        // reported `dynamic` (the audit started from a listed manifest, so a dynamic entry
        // held at the end is `downgraded`, which fails).
        if listed && s.status == SkillStatus::Dynamic {
            let k = skill_of(&s.uri);
            assert!(
                k.is_some_and(|k| log.listed_dynamic.contains(&k)),
                "{} is reported dynamic, but every listing gave it a manifest (a downgrade)",
                s.uri
            );
        }
        let entry = held(client, &s.uri);
        for c in s.checks.iter().filter(|c| c.status == FileStatus::Verified) {
            let Some(entry) = &entry else {
                panic!(
                    "{} is reported verified but no entry of {} is held",
                    c.uri, s.uri
                );
            };
            let Some(item) = entry.item(&c.uri) else {
                panic!(
                    "{} is reported verified but the entry held at the end ({}) lists no such file: {}",
                    c.uri,
                    if entry.is_dynamic() { "dynamic" } else { "with a manifest" },
                    entry.to_json()
                );
            };
            assert!(
                c.size == Some(item.size) && c.digest.as_deref() == Some(item.digest.as_str()),
                "{} is reported verified with size {:?} and digest {:?}, but the entry held at the end says {} and {}",
                c.uri, c.size, c.digest, item.size, item.digest
            );
            assert!(
                served_as(log, &c.uri, item.size, &item.digest),
                "{} is reported verified, but the server never served bytes with the digest the held entry lists ({})",
                c.uri,
                item.digest
            );
        }
        if s.status != SkillStatus::Verified {
            continue;
        }
        let Some(entry) = &entry else {
            panic!("{} is reported verified but no entry of it is held", s.uri);
        };
        let Some(items) = entry.items() else {
            panic!(
                "{} is reported verified but the entry held at the end is dynamic",
                s.uri
            );
        };
        for item in items {
            let checked = s
                .checks
                .iter()
                .any(|c| c.uri == item.uri && c.status == FileStatus::Verified);
            assert!(
                checked && served_as(log, &item.uri, item.size, &item.digest),
                "{} is reported verified, but {} of the entry held at the end was {}",
                s.uri,
                item.uri,
                if log.served.contains_key(&item.uri) {
                    "never served with the digest that entry lists"
                } else {
                    "never requested"
                }
            );
        }
        assert_eq!(
            s.revision,
            entry.revision(),
            "{} is reported verified at a revision that is not the held entry's",
            s.uri
        );
    }
}

/// What a second client's own operations gave: per skill URI, whether its `SKILL.md` and each
/// file of the held entry were read with a verified receipt.
fn own_reads(
    client: &SkillsClient,
    server: &Server<'_>,
    only: bool,
) -> HashMap<String, Vec<(String, bool)>> {
    let targets: Vec<String> = if only {
        match block_on(client.get(server, &skill_uri(0))) {
            Ok(g) => vec![g.skill.entry.uri().to_owned()],
            Err(_) => Vec::new(),
        }
    } else {
        match block_on(client.list(server)) {
            Ok(l) => l.skills.iter().map(|s| s.entry.uri().to_owned()).collect(),
            Err(_) => Vec::new(),
        }
    };
    let mut out = HashMap::new();
    for uri in targets {
        let mut reads = Vec::new();
        match block_on(client.load(server, &uri)) {
            Ok(l) => {
                reads.push((uri.clone(), l.skill.skill_md.receipt.verified));
                let items: Vec<String> = held(client, &uri)
                    .and_then(|e| e.items().map(|i| i.iter().map(|i| i.uri.clone()).collect()))
                    .unwrap_or_default();
                for item in items.into_iter().filter(|i| *i != uri) {
                    let ok = block_on(client.read(server, &uri, &item))
                        .is_ok_and(|r| r.file.content.receipt.verified);
                    reads.push((item, ok));
                }
            }
            Err(_) => reads.push((uri.clone(), false)),
        }
        let _ = client.host(|h, label| h.close_window(label, &uri));
        out.insert(uri, reads);
    }
    out
}

/// Property: the audit and `SkillsClient`'s own reads agree, for skills whose entry no
/// `skills/get` answer changed in either run.
fn check_agreement(
    report: &Report,
    own: &HashMap<String, Vec<(String, bool)>>,
    changed: &HashSet<usize>,
) {
    for s in report.skills.iter().filter(|s| s.name.is_some()) {
        if skill_of(&s.uri).is_none_or(|i| changed.contains(&i)) {
            continue;
        }
        let Some(reads) = own.get(&s.uri) else {
            continue;
        };
        for (uri, ok) in reads {
            let Some(c) = s.checks.iter().find(|c| c.uri == *uri) else {
                panic!(
                    "SkillsClient read {uri} of {}, but the audit has no check for it",
                    s.uri
                );
            };
            assert_eq!(
                c.status == FileStatus::Verified,
                *ok,
                "the audit says {uri} is {:?}, SkillsClient's own read says verified = {ok}",
                c.status
            );
        }
        if s.status == SkillStatus::Verified {
            assert!(
                reads.iter().all(|(_, ok)| *ok),
                "the audit says {} is verified, SkillsClient's own reads do not all verify: {reads:?}",
                s.uri
            );
        }
    }
}

fn new_client(script: &Script) -> SkillsClient {
    let args = VerifyArgs::parse(&["http://127.0.0.1/mcp".to_owned()]).expect("fixed arguments");
    let client = report::command_client(&args, Default::default()).expect("a fixed label");
    let capability = if script.directory_read {
        json!({"directoryRead": true})
    } else {
        json!({})
    };
    let result = json!({
        "supportedVersions": [MODERN_VERSION],
        "capabilities": {"extensions": {SKILLS_EXTENSION: capability}},
    });
    client
        .set_facts(ServerFacts::from_result(
            Era::Modern,
            MODERN_VERSION,
            &result,
        ))
        .expect("the client state is free");
    client
}

fuzz_target!(|data: &[u8]| {
    let script = Script::parse(data);
    let only = script.only.then(|| skill_uri(0));

    let audited = new_client(&script);
    let server = Server::new(&audited, script.clone());
    let report = block_on(report::run(&audited, &server, only.as_deref()));
    check_audit(&report, &audited, &server.log.borrow(), only.is_none());

    let own_client = new_client(&script);
    let own_server = Server::new(&own_client, script.clone());
    let own = own_reads(&own_client, &own_server, script.only);
    let mut changed = server.log.borrow().changed.clone();
    changed.extend(own_server.log.borrow().changed.iter().copied());
    check_agreement(&report, &own, &changed);

    // Rendering any report does not panic, and the exit status is one of the documented three.
    let out = report
        .render(&VerifyArgs::parse(&["http://127.0.0.1/mcp".to_owned()]).expect("fixed arguments"));
    assert!(out.exit_code <= 2);
});
