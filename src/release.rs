//! A catalog published to object storage (R2): where its objects live, the signed *release*
//! that names one pack, and the check a server runs on a pack before it serves it.
//!
//! `skills-edge publish` compiles and signs a skills folder, uploads the assets the pack leaves
//! out, then the pack under its own SHA-256, then the release, and moves the catalog's pointer
//! to it last. The Cloudflare Worker with `CATALOG_SOURCE = "r2"` reads the pointer, opens the
//! release with the keys it trusts ([`Release::open`]), fetches the pack and installs it only
//! after [`Release::check_pack`] accepted it. docs/serving.md ("Update skills without
//! redeploying") has the layout, the consistency reasoning and the faults.
//!
//! A release is a DSSE envelope (the format of `sign::Envelope`, Ed25519 over DSSE's
//! pre-authentication encoding) whose payload type is `RELEASE_TYPE`, so no skill
//! signature can be taken for a release nor a release for a skill signature. Its payload:
//!
//! ```json
//! {"catalog":"default","pack":"<64 hex: SHA-256 of the pack file>","size":1234,
//!  "assets":[["<asset name>",567]]}
//! ```
//!
//! The pack's digest covers every byte a reply is made of (the skills' own signatures cover
//! only their files), and the catalog id binds the release to one catalog, so one tenant's
//! release cannot be served as another's even under the same key.

use crate::json::{self, Node};
use crate::sign::{pae, Envelope, EnvelopeSignature, PublicKey, SigningKey};
use crate::skill::digest::sha256;
use crate::view::Catalog;

/// The DSSE payload type of a release.
#[cfg_attr(feature = "internals", visibility::make(pub))]
pub(crate) const RELEASE_TYPE: &str = "application/vnd.skills-edge.release+json";

/// The catalog id used when none is given.
pub const DEFAULT_CATALOG: &str = "default";

/// The most bytes a release (or a pointer, which holds one) may have: a catalog of 64,000
/// skills with every file an asset stays well under it.
const MAX_RELEASE_BYTES: usize = 16 << 20;

/// Why a catalog id, a history, a trust list, a release or a pack fetched for a release was
/// refused: what (`kind`), and a message for the operator that names what is wrong and, where
/// there is one, the fix ([`std::fmt::Display`]).
///
/// ```
/// use skills_edge::catalog::release::{check_catalog_id, ReleaseErrorKind};
/// let e = check_catalog_id("Tenant A").unwrap_err();
/// assert_eq!(e.kind, ReleaseErrorKind::CatalogId);
/// assert!(e.to_string().starts_with("catalog id \"Tenant A\" is not 1 to 64 of a-z"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReleaseError {
    /// What was refused.
    pub kind: ReleaseErrorKind,
    message: String,
}

/// What a [`ReleaseError`] refused.
///
/// ```
/// use skills_edge::catalog::release::{Release, ReleaseErrorKind};
/// use skills_edge::catalog::sign::PublicKey;
/// # use skills_edge::catalog::sign::SigningKey;
/// # let (p, s) = (SigningKey::from_seed([7; 32]), SigningKey::from_seed([8; 32]));
/// # let signed = Release::of("default", b"a pack", &[]).sign(&p);
/// # let (publisher, stranger) = (p.public().clone(), s.public().clone());
/// // `signed`: a release of catalog `default` signed by `publisher`'s key.
/// let open = |trust: &PublicKey, catalog| Release::open(signed.as_bytes(), &[trust.clone()], "CATALOG_TRUST", catalog);
/// assert_eq!(open(&stranger, "default").unwrap_err().kind, ReleaseErrorKind::Untrusted);
/// assert_eq!(open(&publisher, "tenant-b").unwrap_err().kind, ReleaseErrorKind::OtherCatalog);
/// let e = Release::open(b"{}", &[publisher.clone()], "CATALOG_TRUST", "default").unwrap_err();
/// assert_eq!(e.kind, ReleaseErrorKind::Malformed);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReleaseErrorKind {
    /// A catalog id that is not one ([`check_catalog_id`]).
    CatalogId,
    /// A history that is not one ([`parse_history`]).
    History,
    /// A trust list that is not one ([`parse_trust`]).
    Trust,
    /// A release that is not one: too large, torn, of another payload type, or whose payload
    /// is not a release ([`Release::open`], `Release::parse`).
    Malformed,
    /// A release that no trusted key signed.
    Untrusted,
    /// A release of another catalog.
    OtherCatalog,
    /// A pack whose length or SHA-256 is not the release's ([`Release::check_pack`]).
    PackMismatch,
    /// A pack that fails the check of a pack from elsewhere, needs an asset the release does
    /// not list, is not signed, or is signed by a key the trust does not hold.
    PackRefused,
}

impl ReleaseError {
    fn new(kind: ReleaseErrorKind, message: impl Into<String>) -> ReleaseError {
        ReleaseError {
            kind,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for ReleaseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ReleaseError {}

/// What a release says: this pack, with these assets, is catalog `catalog`.
///
/// ```
/// use skills_edge::catalog::release::Release;
/// # use skills_edge::catalog::compile::{compile, signing::CatalogId, SourceTree};
/// # use skills_edge::catalog::{pack, sign::SigningKey};
/// # let key = SigningKey::from_seed([7; 32]);
/// # let mut tree = SourceTree::default();
/// # tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n");
/// # let mut compiled = compile(tree).unwrap();
/// # compiled.sign(&key, &CatalogId::new("--catalog-id", "default").unwrap());
/// # let pack = pack::encode(&compiled, None);
/// # let signed = Release::of("default", &pack, &[]).sign(&key);
/// # let trust = [key.public().clone()];
/// // What `skills-edge publish` put in the bucket: the release `signed`, its pack `pack`;
/// // `trust`: the publisher's public keys (`CATALOG_TRUST`).
/// let release = Release::open(signed.as_bytes(), &trust, "CATALOG_TRUST", "default").unwrap();
/// assert_eq!((release.size, release.revision().len()), (pack.len() as u64, 64));
/// let catalog = release.check_pack(pack, &trust, "CATALOG_TRUST").unwrap();
/// assert_eq!(catalog.skill_count(), 1);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Release {
    /// The catalog id ([`check_catalog_id`]).
    pub catalog: String,
    /// The SHA-256 of the whole pack file, 64 lowercase hex characters: the pack's object
    /// name and the catalog's revision.
    pub pack: String,
    /// The pack's length in bytes.
    pub size: u64,
    /// The assets the pack needs (object names under the catalog's `assets/`), each with its
    /// length, sorted by name.
    pub assets: Vec<(String, u64)>,
}

/// Whether `id` is a catalog id: 1 to 64 of `a-z`, `0-9`, `-`, `_`, `.`, starting with a
/// letter or digit (it is the first segment of every object name of the catalog).
pub fn check_catalog_id(id: &str) -> Result<(), ReleaseError> {
    let ok = !id.is_empty()
        && id.len() <= 64
        && id.as_bytes()[0].is_ascii_alphanumeric()
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-_.".contains(&b));
    if ok {
        Ok(())
    } else {
        Err(ReleaseError::new(
            ReleaseErrorKind::CatalogId,
            format!("catalog id {id:?} is not 1 to 64 of a-z, 0-9, '-', '_' and '.', starting with a letter or digit"),
        ))
    }
}

/// The object names of catalog `id` in the bucket.
pub mod keys {
    /// The pointer: a copy of the current release (moved last by a publish).
    pub fn pointer(id: &str) -> String {
        format!("{id}/current.json")
    }
    /// The release of revision `rev` (kept for rollbacks).
    pub fn release(id: &str, rev: &str) -> String {
        format!("{id}/releases/{rev}.json")
    }
    /// The pack of revision `rev`.
    pub fn pack(id: &str, rev: &str) -> String {
        format!("{id}/packs/{rev}.pack")
    }
    /// The prefix of the catalog's assets.
    pub fn assets(id: &str) -> String {
        format!("{id}/assets/")
    }
    /// The publish history (revisions in publish order, for `--rollback` and `gc`).
    pub fn history(id: &str) -> String {
        format!("{id}/history")
    }
}

/// One published revision in a catalog's history (`ID/history`): its pack's digest and the
/// names of the assets it needs.
///
/// ```
/// use skills_edge::catalog::release::{parse_history, HistoryEntry};
/// let entry = HistoryEntry { revision: "ab".repeat(32), assets: vec!["cd".repeat(32)] };
/// let text = format!("skills-edge history 1\n{} {}\n", "ab".repeat(32), "cd".repeat(32));
/// assert_eq!(parse_history(text.as_bytes()).unwrap(), [entry]);
/// assert!(parse_history(b"skills-edge history 1\nnot-a-revision\n").is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryEntry {
    /// The revision (64 lowercase hex: the pack's SHA-256).
    pub revision: String,
    /// The assets its pack needs (object names under the catalog's `assets/`).
    pub assets: Vec<String>,
}

/// The first line of a history.
const HISTORY_HEAD: &str = "skills-edge history 1";

/// The most bytes a history may have (its reader is linear; `gc` keeps it short).
const MAX_HISTORY_BYTES: usize = 64 << 20;

/// Reads a catalog's history: the line `skills-edge history 1`, then one line per revision,
/// oldest first, the revision and its assets' names separated by spaces. The history is not signed: it
/// only says where to look (`publish --rollback`, `gc`, and a Worker with no good pack that
/// looks for the newest release it can serve); every release found through it is opened
/// and checked like the pointer's. Linear in its length; the error says what is wrong.
pub fn parse_history(bytes: &[u8]) -> Result<Vec<HistoryEntry>, ReleaseError> {
    history(bytes).map_err(|m| ReleaseError::new(ReleaseErrorKind::History, m))
}

fn history(bytes: &[u8]) -> Result<Vec<HistoryEntry>, String> {
    if bytes.len() > MAX_HISTORY_BYTES {
        return Err(format!("it is more than {MAX_HISTORY_BYTES} bytes"));
    }
    let text = std::str::from_utf8(bytes).map_err(|_| "not UTF-8".to_owned())?;
    let mut lines = text.split('\n');
    if lines.next() != Some(HISTORY_HEAD) {
        return Err("its first line is not the history's".into());
    }
    let mut out = Vec::new();
    for line in lines.filter(|l| !l.is_empty()) {
        let mut words = line.split(' ');
        let revision = words.next().unwrap_or_default().to_owned();
        if !is_hex64(&revision) {
            return Err("a line does not start with a revision".into());
        }
        let assets: Vec<String> = words.map(str::to_owned).collect();
        // Asset names as a release's (gc deletes `ID/assets/{name}`: never another path).
        if let Some(bad) = assets.iter().find(|a| !is_asset_name(a)) {
            return Err(format!("{bad:?} is not an asset's name"));
        }
        out.push(HistoryEntry { revision, assets });
    }
    Ok(out)
}

/// The text of a history ([`parse_history`] reads it back).
pub fn history_text(h: &[HistoryEntry]) -> String {
    let mut out = format!("{HISTORY_HEAD}\n");
    for e in h {
        out.push_str(&e.revision);
        for a in &e.assets {
            out.push(' ');
            out.push_str(a);
        }
        out.push('\n');
    }
    out
}

/// What `gc --keep N` deletes and what it keeps ([`gc_plan`]).
///
/// ```
/// use skills_edge::catalog::release::{gc_plan, HistoryEntry};
/// let entry = |c: &str, assets: &[&str]| HistoryEntry {
///     revision: c.repeat(64),
///     assets: assets.iter().map(|a| a.to_string()).collect(),
/// };
/// let history = [entry("a", &["old.bin", "shared.bin"]), entry("b", &["shared.bin"]), entry("c", &[])];
/// let plan = gc_plan(&history, None, 2, |_| true);
/// assert_eq!(plan.revisions, ["a".repeat(64)], "the two newest are kept");
/// assert_eq!(plan.assets, ["old.bin"], "shared.bin is still needed by b");
/// assert_eq!(plan.kept.len(), 2);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GcPlan {
    /// The history the plan was made from.
    pub read: Vec<HistoryEntry>,
    /// The history without the deleted revisions, in its order.
    pub kept: Vec<HistoryEntry>,
    /// The revisions whose pack and release are deleted.
    pub revisions: Vec<String>,
    /// The assets no kept revision (nor the pointer's release) needs, sorted.
    pub assets: Vec<String>,
}

/// The plan of `gc --keep N` over `history`, with `pointer` the release the catalog's pointer
/// holds. Walking the history newest first, every entry is kept until `keep` entries that
/// `counts` accepted were seen (with a trust list, `counts` opens the entry's release with
/// it, so a revision a Worker refused does not take a good one's place; entries it refuses
/// are kept while the walk lasts, never deleted early); every older entry is deleted, except
/// the one the pointer names. No asset the pointer's release or a kept entry lists is
/// deleted. `counts` is called at most until `keep` entries counted.
pub fn gc_plan(
    history: &[HistoryEntry],
    pointer: Option<&Release>,
    keep: usize,
    mut counts: impl FnMut(&HistoryEntry) -> bool,
) -> GcPlan {
    let mut kept = vec![false; history.len()];
    let mut counted = 0;
    for (i, e) in history.iter().enumerate().rev() {
        if counted < keep {
            kept[i] = true;
            if counts(e) {
                counted += 1;
            }
        }
        if pointer.is_some_and(|p| p.revision() == e.revision) {
            kept[i] = true;
        }
    }
    let mut used: std::collections::HashSet<&str> = history
        .iter()
        .zip(&kept)
        .filter(|(_, k)| **k)
        .flat_map(|(e, _)| e.assets.iter().map(String::as_str))
        .collect();
    if let Some(p) = pointer {
        used.extend(p.assets.iter().map(|(n, _)| n.as_str()));
    }
    let mut plan = GcPlan {
        read: history.to_vec(),
        ..GcPlan::default()
    };
    for (e, k) in history.iter().zip(&kept) {
        if *k {
            plan.kept.push(e.clone());
        } else {
            plan.revisions.push(e.revision.clone());
            plan.assets.extend(
                e.assets
                    .iter()
                    .filter(|a| !used.contains(a.as_str()))
                    .cloned(),
            );
        }
    }
    // A revision kept (or named by the pointer) is never deleted, even when the history
    // lists it twice.
    plan.revisions.retain(|r| {
        !plan.kept.iter().any(|e| &e.revision == r) && pointer.is_none_or(|p| p.revision() != r)
    });
    plan.assets.sort();
    plan.assets.dedup();
    plan
}

impl GcPlan {
    /// What of this plan may still be deleted now that the history reads `history` and the
    /// pointer holds `pointer` (both read again just before a delete batch): nothing the
    /// pointer names, nothing the newest `keep` entries of the history name, nothing an
    /// entry not among the plan's revisions names, and nothing from the first line where
    /// the history differs from the one the plan was made from on (a publish that ran
    /// meanwhile moves its revision last, before it moves the pointer).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn still_doomed(
        &self,
        history: &[HistoryEntry],
        pointer: Option<&Release>,
        keep: usize,
    ) -> GcPlan {
        let doomed: std::collections::HashSet<&str> =
            self.revisions.iter().map(String::as_str).collect();
        let same = history
            .iter()
            .zip(&self.read)
            .take_while(|(a, b)| a == b)
            .count();
        let recent = history.len().saturating_sub(keep).min(same);
        let mut protected: std::collections::HashSet<&str> = std::collections::HashSet::new();
        let mut used: std::collections::HashSet<&str> = std::collections::HashSet::new();
        for (i, e) in history.iter().enumerate() {
            if i >= recent || !doomed.contains(e.revision.as_str()) {
                protected.insert(&e.revision);
                used.extend(e.assets.iter().map(String::as_str));
            }
        }
        if let Some(p) = pointer {
            protected.insert(p.revision());
            used.extend(p.assets.iter().map(|(n, _)| n.as_str()));
        }
        GcPlan {
            kept: history
                .iter()
                .filter(|e| protected.contains(e.revision.as_str()))
                .cloned()
                .collect(),
            read: history.to_vec(),
            revisions: self
                .revisions
                .iter()
                .filter(|r| !protected.contains(r.as_str()))
                .cloned()
                .collect(),
            assets: self
                .assets
                .iter()
                .filter(|a| !used.contains(a.as_str()))
                .cloned()
                .collect(),
        }
    }
}

/// Whether `name` is an asset's object name: 1 to 128 of `A-Z`, `a-z`, `0-9` and `.`.
fn is_asset_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 128
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'.')
}

fn is_hex64(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

fn hex(raw: &[u8; 32]) -> String {
    raw.iter().map(|b| format!("{b:02x}")).collect()
}

/// Reads one `CATALOG_TRUST` value: one or more Ed25519 public keys, as a JWK (the
/// `signing.pub` `skills-edge keygen` writes), a JWK Set (`{"keys":[…]}`, the mirror's
/// `keys.json`) or a JSON array of JWKs. A secret key is refused (it never belongs in a
/// Worker's vars), and so is an empty list. So that every JSON reader takes it for the same
/// keys, a member given twice (where readers differ on which one counts) is refused, and so is
/// an object that is both a key and a set (`kty` beside `keys`).
pub fn parse_trust(text: &str) -> Result<Vec<PublicKey>, ReleaseError> {
    trust(text).map_err(|m| ReleaseError::new(ReleaseErrorKind::Trust, m))
}

fn trust(text: &str) -> Result<Vec<PublicKey>, String> {
    let doc = json::parse(text.trim())
        .map_err(|_| "it is not JSON: give the signing.pub file skills-edge keygen wrote, a JWK Set {\"keys\":[...]} or an array of such keys".to_owned())?;
    if let Some(k) = doc.repeated_key() {
        return Err(format!(
            "it gives the member {k:?} twice (JSON readers differ on which one counts): give it once"
        ));
    }
    let items: Vec<&Node> = if let Some(a) = doc.as_array() {
        a.iter().collect()
    } else if let Some(k) = doc.get("keys") {
        if doc.get("kty").is_some() {
            return Err(
                "it has both `keys` (a JWK Set) and `kty` (a JWK): give one key, or a set of keys"
                    .into(),
            );
        }
        k.as_array()
            .ok_or("its `keys` is not an array")?
            .iter()
            .collect()
    } else {
        vec![&doc]
    };
    if items.is_empty() {
        return Err("it names no key: give at least one public key".into());
    }
    let mut keys = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        if item.get("d").is_some() {
            return Err(format!(
                "key {} is a secret key: give its public half (signing.pub), never signing.key",
                i + 1
            ));
        }
        let key = PublicKey::from_jwk(item.raw).map_err(|e| format!("key {}: {e}", i + 1))?;
        keys.push(key);
    }
    Ok(keys)
}

impl Release {
    /// The release of a pack and its assets for catalog `catalog`.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn of(catalog: &str, pack: &[u8], assets: &[(String, u64)]) -> Release {
        let mut assets = assets.to_vec();
        assets.sort();
        assets.dedup();
        Release {
            catalog: catalog.to_owned(),
            pack: hex(&sha256(pack)),
            size: pack.len() as u64,
            assets,
        }
    }

    /// The payload's JSON (the bytes that are signed).
    fn to_json(&self) -> String {
        let mut out = String::new();
        out.push_str("{\"catalog\":");
        crate::skill::value::write_json_string(&self.catalog, &mut out);
        out.push_str(",\"pack\":\"");
        out.push_str(&self.pack);
        out.push_str("\",\"size\":");
        out.push_str(&self.size.to_string());
        out.push_str(",\"assets\":[");
        for (i, (name, len)) in self.assets.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push('[');
            crate::skill::value::write_json_string(name, &mut out);
            out.push(',');
            out.push_str(&len.to_string());
            out.push(']');
        }
        out.push_str("]}");
        out
    }

    /// The signed release: a DSSE envelope of `RELEASE_TYPE` signed by `key`.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn sign(&self, key: &SigningKey) -> String {
        let payload = self.to_json().into_bytes();
        let sig = key.sign(&pae(RELEASE_TYPE, &payload)).to_vec();
        Envelope {
            payload_type: RELEASE_TYPE.to_owned(),
            payload,
            signatures: vec![EnvelopeSignature {
                keyid: key.public().key_id().to_owned(),
                sig,
            }],
        }
        .to_json()
    }

    /// Opens a signed release read from storage: an envelope of `RELEASE_TYPE` with a
    /// signature by one of `trust` (matched by key id, then verified), whose payload is a
    /// release of catalog `catalog`. `trusted_by` names where `trust` came from (the Worker's
    /// `CATALOG_TRUST`, `gc --trust FILE`), for the refusal's fix. Linear in the envelope's
    /// length; every error names what is wrong.
    pub fn open(
        bytes: &[u8],
        trust: &[PublicKey],
        trusted_by: &str,
        catalog: &str,
    ) -> Result<Release, ReleaseError> {
        use ReleaseErrorKind::*;
        if bytes.len() > MAX_RELEASE_BYTES {
            return Err(ReleaseError::new(
                Malformed,
                format!(
                    "the release is {} bytes, more than {MAX_RELEASE_BYTES}",
                    bytes.len()
                ),
            ));
        }
        let env = Envelope::parse(bytes)
            .map_err(|e| ReleaseError::new(Malformed, format!("the release is torn: {e}")))?;
        if env.payload_type != RELEASE_TYPE {
            return Err(ReleaseError::new(
                Malformed,
                format!(
                    "the release's payloadType is {:?}, not {RELEASE_TYPE:?}",
                    env.payload_type
                ),
            ));
        }
        let message = pae(&env.payload_type, &env.payload);
        let signed = trust.iter().any(|k| {
            env.signatures
                .iter()
                .any(|s| s.keyid == k.key_id() && k.verifies(&message, &s.sig))
        });
        if !signed {
            let named: Vec<&str> = env.key_ids().collect();
            return Err(ReleaseError::new(Untrusted, format!(
                "the release is not signed by a trusted key (it names {}; {trusted_by} holds {}): publish with a key {trusted_by} holds, or add the publisher's public key (signing.pub) to {trusted_by}",
                if named.is_empty() {
                    "no key".to_owned()
                } else {
                    named.join(", ")
                },
                trust
                    .iter()
                    .map(|k| k.key_id())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        let r = Release::parse(&env.payload)?;
        if r.catalog != catalog {
            return Err(ReleaseError::new(
                OtherCatalog,
                format!("the release is of catalog {:?}, not {catalog:?}", r.catalog),
            ));
        }
        Ok(r)
    }

    /// Reads a release's payload (without its signature: see [`Release::open`]).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn parse(payload: &[u8]) -> Result<Release, ReleaseError> {
        Release::payload(payload).map_err(|e| {
            ReleaseError::new(
                ReleaseErrorKind::Malformed,
                format!("the release's payload is not a release: {e}"),
            )
        })
    }

    fn payload(payload: &[u8]) -> Result<Release, String> {
        let text = std::str::from_utf8(payload).map_err(|_| "not UTF-8")?;
        let doc = json::parse(text).map_err(|e| e.to_string())?;
        doc.expect_object("the payload")?;
        let catalog = doc.str_of("catalog")?.to_owned();
        check_catalog_id(&catalog).map_err(|e| e.to_string())?;
        let pack = doc.str_of("pack")?.to_owned();
        if !is_hex64(&pack) {
            return Err("`pack` is not 64 lowercase hex characters".into());
        }
        let size = doc
            .required("size")?
            .as_u64()
            .ok_or("`size` is not an integer")?;
        let mut assets = Vec::new();
        for a in doc.array_of("assets")? {
            let (name, len) = match a.as_array() {
                Some([n, l]) => (n.as_str(), l.as_u64()),
                _ => (None, None),
            };
            let (Some(name), Some(len)) = (name, len) else {
                return Err("an asset is not [name, length]".into());
            };
            if !is_asset_name(name) {
                return Err(format!("the asset name {name:?} is not an asset's"));
            }
            assets.push((name.to_owned(), len));
        }
        assets.sort();
        Ok(Release {
            catalog,
            pack,
            size,
            assets,
        })
    }

    /// The revision: the pack's digest.
    pub fn revision(&self) -> &str {
        &self.pack
    }

    /// Checks a pack fetched for this release and loads it: its length and SHA-256 are the
    /// release's, it passes the full check of a pack from elsewhere ([`Catalog::from_bytes`]:
    /// every record once), and it is signed by one of `trust` (which came from `trusted_by`, as
    /// for [`Release::open`]). One hash and one decode, linear in the pack.
    pub fn check_pack(
        &self,
        pack: Vec<u8>,
        trust: &[PublicKey],
        trusted_by: &str,
    ) -> Result<Catalog, ReleaseError> {
        use ReleaseErrorKind::*;
        if pack.len() as u64 != self.size {
            return Err(ReleaseError::new(
                PackMismatch,
                format!(
                    "the pack {} is {} bytes, the release says {} (truncated or replaced)",
                    self.pack,
                    pack.len(),
                    self.size
                ),
            ));
        }
        let digest = hex(&sha256(&pack));
        if digest != self.pack {
            return Err(ReleaseError::new(
                PackMismatch,
                format!(
                    "the pack's SHA-256 is {digest}, the release names {} (replaced or corrupted)",
                    self.pack
                ),
            ));
        }
        self.load_pack(pack, trust, trusted_by)
            .map_err(|m| ReleaseError::new(PackRefused, m))
    }

    /// The rest of [`Release::check_pack`], once the pack is the release's: the full check,
    /// the assets the release lists, and the signer.
    fn load_pack(
        &self,
        pack: Vec<u8>,
        trust: &[PublicKey],
        trusted_by: &str,
    ) -> Result<Catalog, String> {
        let catalog = Catalog::from_bytes(pack).map_err(|e| e.to_string())?;
        for (name, len) in catalog.needed_assets() {
            let listed = self
                .assets
                .binary_search_by(|(n, _)| n.as_str().cmp(&name))
                .ok()
                .map(|i| self.assets[i].1);
            if listed != Some(len) {
                return Err(format!(
                    "the pack needs the asset {name} ({len} bytes), which the release {} (so it was not checked present; publish again)",
                    match listed {
                        None => "does not list".to_owned(),
                        Some(l) => format!("lists as {l} bytes"),
                    }
                ));
            }
        }
        let signer = catalog
            .keys_json()
            .ok_or("the pack is not signed (publish signs it: skills-edge publish --sign KEY)")?;
        let keys = parse_trust(signer).map_err(|e| format!("the pack's keys.json: {e}"))?;
        if !keys
            .iter()
            .any(|k| trust.iter().any(|t| t.key_id() == k.key_id()))
        {
            return Err(format!(
                "the pack's skills are signed by {}, which {trusted_by} does not hold: sign the pack with the key that signs the release",
                keys.iter()
                    .map(|k| k.key_id())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        Ok(catalog)
    }
}
