//! The whole catalog compiler, `skills_edge::catalog::compile::compile`, over a generated
//! skills folder.
//!
//! Input: a flag byte, then the folder.
//! * flag bit 0 = 0: a plain listing: records separated by NUL bytes, each `path`, LF, the
//!   file's bytes (a record without LF whose path ends in `/` is an empty directory). The seeds
//!   are real and hostile folders in this form.
//! * flag bit 0 = 1: `arbitrary` builds a few skill directories with generated `SKILL.md`
//!   frontmatter (valid names often, every field of the Agent Skills format), plus files with
//!   arbitrary bytes and paths.
//!
//! Properties: `Err` ⇒ at least one diagnostic of severity `Error`, each with a rule id and a
//! message; `Ok` ⇒ the catalog packs (`pack::encode`) and loads (`Catalog::from_bytes`); every
//! entry passes `Entry::parse`; every file of every entry is served with the source bytes, and
//! they match the entry's size and digest (`digest_of`, `verify_bytes`, and `verify_content`
//! of what `resources/read` returns); the `SKILL.md` verifies with its frontmatter; a one-byte
//! change to any file, or one byte more, fails verification; every archive the mirror would
//! publish is read by the host's archive reader (`host::archive::unpack`) as exactly the
//! skill's files, so nothing the compiler publishes is refused by a host (such as two names
//! that differ only in letter case).

#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value as Json};
use skills_edge::catalog::compile::{compile, SourceTree};
use skills_edge::catalog::diag::Severity;
use skills_edge::catalog::{pack, Catalog};
use skills_edge::host::archive::{unpack, ArchiveFormat};
use skills_edge::host::{
    verify_bytes, verify_content, verify_skill_md, Content, Entry, ErrorCode, Hashing,
    VerifyOptions,
};
use skills_edge::server::{Config, Grant, Responder, Transport};
use skills_edge::skill::digest::digest_of;
use skills_edge_fuzz::reply::{check, Checked};
use std::collections::HashMap;
use std::sync::Arc;

const SEGMENTS: &[&str] = &[
    "a",
    "b",
    "pdf",
    "code-review",
    "refs",
    "references",
    "x.md",
    "SKILL.md",
    "skill.md",
    "templates",
    "assets",
    "logo.png",
    ".",
    "..",
    "",
    "a b",
    "é",
    ".DS_Store",
    "Thumbs.db",
    "A",
    "CODE-REVIEW",
    "~x",
    "a.b",
    "-",
    "nested",
    "a--b",
    "-a",
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
];

#[derive(Arbitrary, Debug)]
enum Seg {
    Known(u8),
    Custom(String),
}

impl Seg {
    fn text(&self) -> &str {
        match self {
            Seg::Known(i) => SEGMENTS[*i as usize % SEGMENTS.len()],
            Seg::Custom(s) => s,
        }
    }
}

#[derive(Arbitrary, Debug)]
enum NameSpec {
    Dir,
    Other(String),
    Known(u8),
    Missing,
    Number,
}

#[derive(Arbitrary, Debug)]
enum DescSpec {
    Text(String),
    Missing,
    Empty,
    Long(u16),
    Number,
    Folded(String, String),
}

#[derive(Arbitrary, Debug)]
enum Extra {
    License(String),
    Compatibility(String),
    Metadata(Vec<(String, String)>),
    MetadataNumber,
    AllowedTools(Vec<String>),
    AllowedToolsString(String),
    Reserved,
    Raw(String, String),
    Line(String),
}

#[derive(Arbitrary, Debug)]
struct SkillSpec {
    dir: Vec<Seg>,
    name: NameSpec,
    plain: bool,
    description: DescSpec,
    extras: Vec<Extra>,
    body: String,
    raw_frontmatter: Option<String>,
    crlf: bool,
}

#[derive(Arbitrary, Debug)]
struct FileSpec {
    skill: Option<u8>,
    path: Vec<Seg>,
    bytes: Vec<u8>,
}

#[derive(Arbitrary, Debug)]
struct Folder {
    skills: Vec<SkillSpec>,
    files: Vec<FileSpec>,
    dirs: Vec<Vec<Seg>>,
}

fn quote(s: &str, plain: bool) -> String {
    if plain
        && !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == ' ' || c == '-')
    {
        s.to_owned()
    } else {
        serde_json::to_string(s).unwrap_or_default()
    }
}

fn join(segs: &[Seg]) -> String {
    segs.iter().map(Seg::text).collect::<Vec<_>>().join("/")
}

fn skill_md(s: &SkillSpec) -> String {
    let dir = join(&s.dir);
    let last = dir.rsplit('/').next().unwrap_or("");
    let mut y = String::new();
    match &s.name {
        NameSpec::Dir => y.push_str(&format!("name: {}\n", quote(last, s.plain))),
        NameSpec::Other(n) => y.push_str(&format!("name: {}\n", quote(n, s.plain))),
        NameSpec::Known(i) => y.push_str(&format!(
            "name: {}\n",
            quote(SEGMENTS[*i as usize % SEGMENTS.len()], s.plain)
        )),
        NameSpec::Missing => {}
        NameSpec::Number => y.push_str("name: 12\n"),
    }
    match &s.description {
        DescSpec::Text(t) => y.push_str(&format!("description: {}\n", quote(t, s.plain))),
        DescSpec::Missing => {}
        DescSpec::Empty => y.push_str("description: \"\"\n"),
        DescSpec::Long(n) => y.push_str(&format!(
            "description: {}\n",
            "d".repeat(*n as usize % 1100 + 1)
        )),
        DescSpec::Number => y.push_str("description: 1.5\n"),
        DescSpec::Folded(a, b) => y.push_str(&format!("description: >\n  {a}\n  {b}\n")),
    }
    for e in &s.extras {
        match e {
            Extra::License(l) => y.push_str(&format!("license: {}\n", quote(l, s.plain))),
            Extra::Compatibility(c) => {
                y.push_str(&format!("compatibility: {}\n", quote(c, s.plain)))
            }
            Extra::Metadata(pairs) => {
                y.push_str("metadata:\n");
                for (k, v) in pairs {
                    y.push_str(&format!("  {}: {}\n", quote(k, s.plain), quote(v, s.plain)));
                }
            }
            Extra::MetadataNumber => y.push_str("metadata:\n  version: 2\n"),
            Extra::AllowedTools(tools) => {
                y.push_str("allowed-tools:\n");
                for t in tools {
                    y.push_str(&format!("  - {}\n", quote(t, s.plain)));
                }
            }
            Extra::AllowedToolsString(t) => {
                y.push_str(&format!("allowed-tools: {}\n", quote(t, s.plain)))
            }
            Extra::Reserved => y.push_str("metadata:\n  io.modelcontextprotocol/x: \"1\"\n"),
            Extra::Raw(k, v) => {
                y.push_str(&format!("{}: {}\n", quote(k, s.plain), quote(v, s.plain)))
            }
            Extra::Line(l) => {
                y.push_str(l);
                y.push('\n');
            }
        }
    }
    let yaml = s.raw_frontmatter.clone().unwrap_or(y);
    let text = format!("---\n{yaml}---\n{}", s.body);
    if s.crlf {
        text.replace('\n', "\r\n")
    } else {
        text
    }
}

fn structured(f: &Folder) -> SourceTree {
    let mut tree = SourceTree::default();
    for s in &f.skills {
        let dir = join(&s.dir);
        tree.add_file(&format!("{dir}/SKILL.md"), skill_md(s).into_bytes());
    }
    for file in &f.files {
        let rel = join(&file.path);
        let path = match file
            .skill
            .and_then(|i| f.skills.get(i as usize % f.skills.len().max(1)))
        {
            Some(s) => format!("{}/{rel}", join(&s.dir)),
            None => rel,
        };
        tree.add_file(&path, file.bytes.clone());
    }
    for d in &f.dirs {
        let d = join(d);
        if !tree.dirs.contains(&d) {
            tree.dirs.push(d);
        }
    }
    tree
}

fn listing(data: &[u8]) -> SourceTree {
    let mut tree = SourceTree::default();
    for record in data.split(|b| *b == 0) {
        match record.iter().position(|b| *b == b'\n') {
            Some(i) => {
                let path = String::from_utf8_lossy(&record[..i]).into_owned();
                tree.add_file(&path, record[i + 1..].to_vec());
            }
            None => {
                let path = String::from_utf8_lossy(record).into_owned();
                if let Some(d) = path.strip_suffix('/') {
                    if !tree.dirs.iter().any(|x| x == d) {
                        tree.dirs.push(d.to_owned());
                    }
                }
            }
        }
    }
    tree
}

fn read(r: &Responder, uri: &str) -> Json {
    let msg = serde_json::to_vec(
        &json!({"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":uri}}),
    )
    .unwrap_or_default();
    let reply = r.respond(&msg, &Transport::Stream, Grant::PUBLIC);
    match check(&msg, &reply) {
        Checked::Result(v) => v,
        other => panic!(
            "resources/read of {uri} failed: {other:?} {}",
            reply.body_str()
        ),
    }
}

fn run(data: &[u8]) {
    let (flags, rest) = skills_edge_fuzz::split_flags::<1>(data);
    let tree = if flags[0] & 1 == 0 {
        listing(rest)
    } else {
        match Folder::arbitrary(&mut Unstructured::new(rest)) {
            Ok(f) => structured(&f),
            Err(_) => return,
        }
    };
    // The bytes of each path; when a path repeats, the compiler must refuse or keep one.
    let mut source: HashMap<String, Vec<Vec<u8>>> = HashMap::new();
    for f in &tree.files {
        source
            .entry(format!("skill://{}", f.path))
            .or_default()
            .push(f.bytes.clone());
    }
    let compiled = match compile(tree) {
        Ok(c) => c,
        Err(e) => {
            let errors: Vec<_> = e.errors().collect();
            assert!(
                !errors.is_empty(),
                "a refused folder without an error: {e:?}"
            );
            for d in errors {
                assert_eq!(d.severity, Severity::Error);
                assert!(
                    !d.rule.id().is_empty() && !d.message.is_empty(),
                    "an error without a rule or message: {d:?}"
                );
            }
            return;
        }
    };
    for w in &compiled.warnings {
        assert_eq!(
            w.severity,
            Severity::Warning,
            "a publishable catalog with an error: {w:?}"
        );
    }
    let packed = pack::encode(&compiled, None);
    let catalog = Arc::new(
        Catalog::from_bytes(packed)
            .unwrap_or_else(|e| panic!("a compiled catalog does not load: {e}")),
    );
    let r = Responder::new(catalog.clone(), Config::default()).expect("valid settings");
    let opts = VerifyOptions::default();
    for skill in &compiled.skills {
        let json = compiled.entry_json(skill);
        let entry = Entry::parse(&json)
            .unwrap_or_else(|e| panic!("a compiled entry is refused by hosts: {e:?}\n{json}"));
        assert_eq!(entry.uri(), skill.uri);
        let items = entry.items().expect("compiled entries list their files");
        assert_eq!(items.len(), skill.files.len());
        assert_eq!(
            items.first().map(|i| i.uri.as_str()),
            Some(skill.uri.as_str()),
            "SKILL.md comes first"
        );
        for item in items {
            let file = catalog
                .file(&item.uri)
                .unwrap_or_else(|| panic!("{} is listed but not served", item.uri));
            let bytes = file
                .bytes()
                .expect("a compiled catalog keeps every byte in the pack");
            let sources = source
                .get(&item.uri)
                .unwrap_or_else(|| panic!("{} served without a source file", item.uri));
            assert!(
                sources.iter().any(|s| s == bytes),
                "{} served other bytes than its source",
                item.uri
            );
            assert_eq!(item.size, bytes.len() as u64, "size of {}", item.uri);
            assert_eq!(item.digest, digest_of(bytes), "digest of {}", item.uri);
            let receipt = verify_bytes(&entry, &item.uri, bytes, Hashing::Here, opts)
                .unwrap_or_else(|e| panic!("served bytes of {} do not verify: {e:?}", item.uri));
            assert!(receipt.verified);
            let result = read(&r, &item.uri);
            let v = verify_content(
                &entry,
                &item.uri,
                &Content::ReadResult(result.to_string()),
                Hashing::Here,
                opts,
            )
            .unwrap_or_else(|e| panic!("resources/read of {} does not verify: {e:?}", item.uri));
            assert_eq!(v.body.as_bytes(), bytes);
            // One byte changed, or one more: refused.
            let mut changed = bytes.to_vec();
            if changed.is_empty() {
                changed.push(0);
            } else {
                let at = (data.len() + item.uri.len()) % changed.len();
                changed[at] ^= 1 << (data.len() % 8);
            }
            let e = verify_bytes(&entry, &item.uri, &changed, Hashing::Here, opts)
                .expect_err("a changed file verifies");
            assert!(
                matches!(e.code, ErrorCode::DigestMismatch | ErrorCode::SizeMismatch),
                "{e:?}"
            );
            let mut longer = bytes.to_vec();
            longer.push(b'\n');
            let e = verify_bytes(&entry, &item.uri, &longer, Hashing::Here, opts)
                .expect_err("a longer file verifies");
            assert_eq!(e.code, ErrorCode::SizeMismatch);
        }
        if let Some(archive) = &skill.archive {
            let members = unpack(ArchiveFormat::TarGz, &archive.bytes, "f.tar.gz")
                .unwrap_or_else(|e| panic!("hosts refuse the archive of {}: {e:?}", skill.uri));
            let got: Vec<(&str, &[u8])> = members
                .iter()
                .map(|m| (m.path.as_str(), m.bytes.as_slice()))
                .collect();
            let want: Vec<(&str, &[u8])> = skill
                .files
                .iter()
                .filter_map(|&i| {
                    let f = compiled.files.get(i)?;
                    let path = f.uri.strip_prefix(skill.root.as_str())?.strip_prefix('/')?;
                    Some((path, f.bytes.as_slice()))
                })
                .collect();
            assert_eq!(got, want, "the archive of {} holds other files", skill.uri);
        }
        let md = catalog.file(&skill.uri).expect("SKILL.md is served");
        verify_skill_md(
            &entry,
            &Content::Bytes(md.bytes().unwrap_or_default().to_vec()),
            Hashing::Here,
        )
        .unwrap_or_else(|e| {
            panic!("a compiled SKILL.md does not verify against its entry: {e:?}\n{json}")
        });
    }
}

fuzz_target!(|data: &[u8]| run(data));
