//! The scripted server of the `client` target: the skills and files it serves, how each answer is spoiled, and the log of what the client asked for.

use super::*;

pub(super) const SKILLS: [&str; 3] = ["alpha", "beta", "gamma"];
pub(super) const FILES: [&str; 4] = ["SKILL.md", "a.md", "sub/c.md", "evil.md"];
/// Children a directory listing can show: (path under the skill root, is a directory).
pub(super) const CHILDREN: [(&str, bool); 8] = [
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
pub(super) const HONEST_FILES: u8 = 0b0111;
/// Most records read from one input.
pub(super) const MAX_RECORDS: usize = 64;

pub(super) fn skill_uri(s: usize) -> String {
    format!("skill://{}/SKILL.md", SKILLS[s])
}

pub(super) fn file_uri(s: usize, f: usize) -> String {
    format!("skill://{}/{}", SKILLS[s], FILES[f])
}

pub(super) fn content(s: usize, f: usize, v1: bool) -> Vec<u8> {
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

pub(super) fn sha256(bytes: &[u8]) -> String {
    let mut out = String::from("sha256:");
    for b in Sha256::digest(bytes).iter() {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

#[derive(Debug, Clone, Copy)]
pub(super) struct Shape {
    pub(super) files: u8,
    pub(super) versions: u8,
    pub(super) dynamic: bool,
}

impl Shape {
    const HONEST: Shape = Shape {
        files: HONEST_FILES,
        versions: 0,
        dynamic: false,
    };

    pub(super) fn entry(self, s: usize) -> Json {
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
pub(super) enum ListAnswer {
    Page {
        skills: Vec<(usize, Shape)>,
        next: Option<String>,
        ttl: bool,
    },
    Error,
}

#[derive(Debug, Clone)]
pub(super) enum GetAnswer {
    Entry(Shape, bool),
    Error,
    Transport,
    Dynamic,
    OtherSkill,
}

#[derive(Debug, Clone)]
pub(super) enum ReadAnswer {
    Version(bool),
    Error,
    Raw(Vec<u8>),
    Transport,
    Blob,
}

#[derive(Debug, Clone)]
pub(super) enum DirAnswer {
    Page {
        children: Vec<usize>,
        next: Option<String>,
    },
}

/// The answers of one input, queued per request key.
#[derive(Debug, Clone, Default)]
pub(super) struct Script {
    pub(super) directory_read: bool,
    pub(super) only: bool,
    pub(super) list: VecDeque<ListAnswer>,
    pub(super) get: HashMap<usize, VecDeque<GetAnswer>>,
    pub(super) read: HashMap<(usize, usize), VecDeque<ReadAnswer>>,
    pub(super) dir: HashMap<(usize, usize), VecDeque<DirAnswer>>,
}

pub(super) struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    pub(super) fn next(&mut self) -> u8 {
        match self.0.split_first() {
            Some((b, rest)) => {
                self.0 = rest;
                *b
            }
            None => 0,
        }
    }

    pub(super) fn shape(&mut self) -> Shape {
        Shape {
            files: self.next(),
            versions: self.next(),
            dynamic: self.next() & 1 == 1,
        }
    }

    pub(super) fn cursor(&mut self) -> Option<String> {
        match self.next() {
            0 => None,
            n => Some(format!("c{}", n % 4)),
        }
    }
}

impl Script {
    pub(super) fn parse(data: &[u8]) -> Script {
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
pub(super) struct Log {
    /// Every byte string served for each URI.
    pub(super) served: HashMap<String, Vec<Vec<u8>>>,
    /// The JSON text of the entry last shown for each skill (listing or `skills/get`).
    pub(super) shown: HashMap<usize, String>,
    /// Skills shown with two different entries, or whose `skills/get` was refused or answered
    /// with another skill.
    pub(super) changed: HashSet<usize>,
    /// Skills some listing page showed as `"dynamic"`.
    pub(super) listed_dynamic: HashSet<usize>,
}

pub(super) struct Server<'c> {
    pub(super) client: &'c SkillsClient,
    pub(super) script: RefCell<Script>,
    pub(super) log: RefCell<Log>,
    pub(super) clock: Cell<f64>,
}

pub(super) fn rpc_error(method: &str) -> ClientError {
    ClientError::exchange(
        ExchangeKind::ServerError,
        format!("the server answered {method} with JSON-RPC error -32602: refused"),
    )
    .with_actual("-32602")
}

pub(super) fn transport(method: &str) -> ClientError {
    ClientError::exchange(
        ExchangeKind::ConnectionFailed,
        format!("{method}: the connection was reset"),
    )
}

pub(super) fn skill_of(uri: &str) -> Option<usize> {
    SKILLS
        .iter()
        .position(|s| uri.starts_with(&format!("skill://{s}/")))
}

impl<'c> Server<'c> {
    pub(super) fn new(client: &'c SkillsClient, script: Script) -> Server<'c> {
        Server {
            client,
            script: RefCell::new(script),
            log: RefCell::new(Log::default()),
            clock: Cell::new(0.0),
        }
    }

    /// Records an entry shown for skill `s`; one that differs from an earlier one is a change.
    pub(super) fn show(&self, s: usize, entry: &Json) {
        let text = entry.to_string();
        let mut log = self.log.borrow_mut();
        let before = log.shown.insert(s, text.clone());
        if before.is_some_and(|b| b != text) {
            log.changed.insert(s);
        }
    }

    pub(super) fn list(&self, params: &Json) -> Result<Json> {
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

    pub(super) fn get(&self, params: &Json) -> Result<Json> {
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

    pub(super) fn read(&self, params: &Json) -> Result<Json> {
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

    pub(super) fn directory(&self, params: &Json) -> Result<Json> {
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
    async fn call(&self, method: &str, params: Json) -> Result<String> {
        self.clock.set(self.clock.get() + 1.0);
        let result = match method {
            "skills/list" => self.list(&params),
            "skills/get" => self.get(&params),
            "resources/read" => self.read(&params),
            "resources/directory/read" => self.directory(&params),
            _ => Err(rpc_error(method)),
        };
        result.map(|r| r.to_string())
    }

    fn now_ms(&self) -> f64 {
        self.clock.get()
    }
}
