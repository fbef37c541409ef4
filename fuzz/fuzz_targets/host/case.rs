//! The cases of the `host` target: entries (resources, digests, sizes, names, signatures) built from the fuzzer's bytes, or the bytes read as an entry.

use super::*;

pub(super) const SEGMENTS: &[&str] = &[
    "a",
    "pdf",
    "code-review",
    "acme",
    "billing",
    "refs",
    "x.md",
    "SKILL.md",
    "..",
    ".",
    "",
    "A",
    "a b",
];

#[derive(Arbitrary, Debug)]
pub(super) enum Leaf {
    Str(String),
    Int(i32),
    Float(u16),
    Bool(bool),
    Null,
    List(Vec<String>),
    Map(Vec<(String, String)>),
}

impl Leaf {
    fn json(&self) -> Json {
        match self {
            Leaf::Str(s) => json!(s),
            Leaf::Int(i) => json!(i),
            Leaf::Float(f) => json!(*f as f64 / 8.0),
            Leaf::Bool(b) => json!(b),
            Leaf::Null => Json::Null,
            Leaf::List(l) => json!(l),
            Leaf::Map(m) => Json::Object(m.iter().map(|(k, v)| (k.clone(), json!(v))).collect()),
        }
    }
}

#[derive(Arbitrary, Debug)]
pub(super) enum Digest {
    Right,
    Upper,
    Other(u8),
    Short,
    NotAString,
}

#[derive(Arbitrary, Debug)]
pub(super) enum Size {
    Right,
    Plus(u8),
    Huge,
    Negative,
    Float,
    Text,
}

#[derive(Arbitrary, Debug)]
pub(super) enum ItemUri {
    Relative(Vec<u8>),
    Custom(String),
    OtherSkill,
    Dots,
}

#[derive(Arbitrary, Debug)]
pub(super) struct Item {
    pub(super) uri: ItemUri,
    pub(super) content: Vec<u8>,
    pub(super) digest: Digest,
    pub(super) size: Size,
}

#[derive(Arbitrary, Debug)]
pub(super) enum SkillMdItem {
    Right,
    Missing,
    Wrong(Digest, Size),
}

#[derive(Arbitrary, Debug)]
pub(super) enum Resources {
    Files {
        skill_md: SkillMdItem,
        items: Vec<Item>,
        duplicate: bool,
    },
    Dynamic,
    Missing,
    NotAList,
}

#[derive(Arbitrary, Debug)]
pub(super) enum Name {
    Segment,
    Other(String),
    Missing,
}

/// How the signature of a structured case is changed after signing.
#[derive(Arbitrary, Debug)]
pub(super) enum SigMutation {
    /// One bit of the payload.
    PayloadBit(u16, u8),
    /// One bit of the signature.
    SigBit(u8, u8),
    /// Another key id.
    KeyId(String),
    /// Another payload type.
    PayloadType(String),
    /// Signed by the other key instead (announced as such).
    OtherKey,
    /// The announced key replaced by the other key.
    SwapSigner,
    /// No announced key.
    DropSigner,
    /// The statement re-signed with one subject's digest changed.
    StatementDigest(u8, u8),
    /// The statement re-signed with one subject more.
    StatementExtra(String),
    /// The statement re-signed with one subject less.
    StatementFewer,
    /// The statement re-signed for another skill.
    StatementSkill(String),
    /// The statement re-signed with another revision.
    StatementRevision(String),
    /// The statement re-signed for another catalog (still a valid signature).
    Catalog(String),
    /// The envelope replaced by other JSON.
    Envelope(Leaf),
}

#[derive(Arbitrary, Debug)]
pub(super) struct Signature {
    pub(super) mutations: Vec<SigMutation>,
}

#[derive(Arbitrary, Debug)]
pub(super) struct Case {
    pub(super) path: Vec<u8>,
    pub(super) name: Name,
    pub(super) description: String,
    pub(super) extras: Vec<(String, Leaf)>,
    pub(super) body: String,
    pub(super) file_differs: Option<(String, Leaf)>,
    pub(super) resources: Resources,
    pub(super) contents: Vec<Vec<u8>>,
    pub(super) flips: Vec<(u8, u16, u8)>,
    pub(super) references: Vec<String>,
    pub(super) label: String,
    pub(super) entry_fields: bool,
    pub(super) signature: Option<Signature>,
}

/// The key the fuzzed entries are signed with, and the host's trust list holds.
pub(super) fn trusted() -> SigningKey {
    SigningKey::from_seed([7; 32])
}

/// Another key.
pub(super) fn other() -> SigningKey {
    SigningKey::from_seed([8; 32])
}

/// Signs `entry` (when it is a valid entry with a manifest) with the fixed key as a signing
/// server publishes it, then applies the mutations.
pub(super) fn sign(entry: &mut Json, sig: &Signature) {
    let Ok(parsed) = Entry::parse(&entry.to_string()) else {
        return;
    };
    let Some(items) = parsed.items() else {
        return;
    };
    let mut statement = Statement {
        skill: parsed.uri().to_owned(),
        revision: parsed.revision().unwrap_or_default(),
        catalog: "fuzz".to_owned(),
        subjects: items
            .iter()
            .map(|i| Subject {
                name: i.uri.clone(),
                sha256: i.digest["sha256:".len()..].to_owned(),
            })
            .collect(),
    };
    let mut key = trusted();
    for m in &sig.mutations {
        match m {
            SigMutation::StatementDigest(which, byte) => {
                if !statement.subjects.is_empty() {
                    let n = statement.subjects.len();
                    statement.subjects[*which as usize % n].sha256 =
                        digest_of(&[*byte])["sha256:".len()..].to_owned();
                }
            }
            SigMutation::StatementExtra(name) => {
                statement.subjects.push(Subject {
                    name: name.clone(),
                    sha256: "0".repeat(64),
                });
            }
            SigMutation::StatementFewer => {
                statement.subjects.pop();
            }
            SigMutation::StatementSkill(s) => {
                statement.skill = s.clone();
            }
            SigMutation::StatementRevision(r) => {
                statement.revision = r.clone();
            }
            SigMutation::Catalog(c) => statement.catalog = c.clone(),
            SigMutation::OtherKey => key = other(),
            _ => {}
        }
    }
    let mut envelope = Envelope::sign(&statement, &key);
    let mut signer = Some(key.public().to_jwk());
    let mut replaced = None;
    for m in &sig.mutations {
        match m {
            SigMutation::PayloadBit(at, bit) if !envelope.payload.is_empty() => {
                let n = envelope.payload.len();
                envelope.payload[*at as usize % n] ^= 1 << (bit % 8);
            }
            SigMutation::SigBit(at, bit) => {
                if let Some(s) = envelope.signatures.first_mut() {
                    let n = s.sig.len();
                    s.sig[*at as usize % n] ^= 1 << (bit % 8);
                }
            }
            SigMutation::KeyId(k) => {
                if let Some(s) = envelope.signatures.first_mut() {
                    s.keyid = k.clone();
                }
            }
            SigMutation::PayloadType(t) => envelope.payload_type = t.clone(),
            SigMutation::SwapSigner => signer = Some(other().public().to_jwk()),
            SigMutation::DropSigner => signer = None,
            SigMutation::Envelope(leaf) => replaced = Some(leaf.json()),
            _ => {}
        }
    }
    let envelope: Json = replaced
        .unwrap_or_else(|| serde_json::from_str(&envelope.to_json()).expect("an envelope is JSON"));
    let mut meta = serde_json::Map::new();
    meta.insert(DSSE_META_KEY.into(), envelope);
    if let Some(jwk) = signer {
        meta.insert(
            SIGNER_META_KEY.into(),
            serde_json::from_str(&jwk).expect("a JWK is JSON"),
        );
    }
    meta.insert(
        "io.github.skills-edge/revision".into(),
        json!(parsed.revision()),
    );
    entry["_meta"] = Json::Object(meta);
}

pub(super) fn seg(i: u8) -> &'static str {
    SEGMENTS[i as usize % SEGMENTS.len()]
}

pub(super) fn digest(d: &Digest, bytes: &[u8]) -> Json {
    let right = digest_of(bytes);
    match d {
        Digest::Right => json!(right),
        Digest::Upper => json!(right.to_uppercase()),
        Digest::Other(b) => json!(digest_of(&[*b])),
        Digest::Short => json!(&right[..right.len() - 1]),
        Digest::NotAString => json!(1),
    }
}

pub(super) fn size(s: &Size, bytes: &[u8]) -> Json {
    let n = bytes.len() as u64;
    match s {
        Size::Right => json!(n),
        Size::Plus(k) => json!(n + *k as u64),
        Size::Huge => json!(MAX_BYTES_PER_SKILL + 1),
        Size::Negative => json!(-1),
        Size::Float => json!(n as f64 + 0.5),
        Size::Text => json!(n.to_string()),
    }
}

/// The entry JSON, the contents to try (each item's bytes, then the case's), the references.
pub(super) fn build(c: &Case) -> (String, Vec<Vec<u8>>, Vec<String>, String) {
    let segs: Vec<&str> = c.path.iter().take(4).map(|b| seg(*b)).collect();
    let last = segs.last().copied().unwrap_or("a");
    let root = if segs.is_empty() {
        "skill://a".to_owned()
    } else {
        format!("skill://{}", segs.join("/"))
    };
    let uri = format!("{root}/SKILL.md");
    let name = match &c.name {
        Name::Segment => Some(last.to_owned()),
        Name::Other(n) => Some(n.clone()),
        Name::Missing => None,
    };
    let mut fm = serde_json::Map::new();
    let mut yaml = String::new();
    if let Some(n) = &name {
        fm.insert("name".into(), json!(n));
        yaml.push_str(&format!("name: {}\n", json!(n)));
    }
    fm.insert("description".into(), json!(c.description));
    yaml.push_str(&format!("description: {}\n", json!(c.description)));
    for (k, v) in &c.extras {
        fm.insert(k.clone(), v.json());
        yaml.push_str(&format!("{}: {}\n", json!(k), v.json()));
    }
    if let Some((k, v)) = &c.file_differs {
        yaml.push_str(&format!("{}: {}\n", json!(k), v.json()));
    }
    let md = format!("---\n{yaml}---\n{}", c.body).into_bytes();
    let mut contents = vec![md.clone()];
    let mut refs = Vec::new();
    let resources = match &c.resources {
        Resources::Dynamic => json!("dynamic"),
        Resources::Missing => Json::Null,
        Resources::NotAList => json!({"uri": uri}),
        Resources::Files {
            skill_md,
            items,
            duplicate,
        } => {
            let mut list = Vec::new();
            match skill_md {
                SkillMdItem::Right => {
                    list.push(json!({"uri": uri, "digest": digest_of(&md), "size": md.len()}))
                }
                SkillMdItem::Missing => {}
                SkillMdItem::Wrong(d, s) => {
                    list.push(json!({"uri": uri, "digest": digest(d, &md), "size": size(s, &md)}))
                }
            }
            for it in items {
                let u = match &it.uri {
                    ItemUri::Relative(p) => {
                        let rel: Vec<&str> = p.iter().take(3).map(|b| seg(*b)).collect();
                        refs.push(rel.join("/"));
                        format!("{root}/{}", rel.join("/"))
                    }
                    ItemUri::Custom(s) => s.clone(),
                    ItemUri::OtherSkill => "skill://other/x.md".to_owned(),
                    ItemUri::Dots => format!("{root}/../x.md"),
                };
                list.push(json!({"uri": u, "digest": digest(&it.digest, &it.content), "size": size(&it.size, &it.content)}));
                contents.push(it.content.clone());
            }
            if *duplicate {
                if let Some(first) = list.first().cloned() {
                    list.push(first);
                }
            }
            Json::Array(list)
        }
    };
    for (which, at, bit) in &c.flips {
        let i = *which as usize % contents.len();
        let mut b = contents[i].clone();
        if b.is_empty() {
            b.push(*bit);
        } else {
            let k = *at as usize % b.len();
            b[k] ^= 1 << (bit % 8);
        }
        contents.push(b);
    }
    contents.extend(c.contents.iter().cloned());
    refs.extend(c.references.iter().cloned());
    let mut entry = json!({"uri": uri, "frontmatter": fm});
    if !matches!(c.resources, Resources::Missing) {
        entry["resources"] = resources;
    }
    if c.entry_fields {
        entry["_meta"] = json!({"x": 1});
        entry["vendor"] = json!([1, 2]);
    }
    if let Some(sig) = &c.signature {
        sign(&mut entry, sig);
    }
    (entry.to_string(), contents, refs, c.label.clone())
}

pub(super) fn raw(data: &[u8]) -> (String, Vec<Vec<u8>>, Vec<String>, String) {
    let mut fields = data.split(|b| *b == 0);
    let entry = String::from_utf8_lossy(fields.next().unwrap_or(&[])).into_owned();
    let mut contents = Vec::new();
    let mut refs = Vec::new();
    let mut label = "server".to_owned();
    for (i, f) in fields.enumerate() {
        match i % 3 {
            0 => contents.push(f.to_vec()),
            1 => refs.push(String::from_utf8_lossy(f).into_owned()),
            _ => label = String::from_utf8_lossy(f).into_owned(),
        }
    }
    (entry, contents, refs, label)
}

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------
