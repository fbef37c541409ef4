//! Skill entries as a host receives them (`skills/list`, `skills/get`), validated before
//! anything else happens (SEP-2640 §Skill Entries; spec notes §2.4 step 2, H7, H8, A6, A11,
//! A15).
//!
//! An [`Entry`] can only be made by [`Entry::parse`], which refuses every entry a host must
//! not load, so holding an `Entry` means holding a valid one. Unknown entry fields (entry-level
//! `_meta`, vendor fields) are ignored: they never reach verification or approval binding. The
//! one exception is a signature: the entry's `_meta` keys [`DSSE_META_KEY`] (the envelope),
//! [`SIGNER_META_KEY`] (the signer's public key) and, beside them, the revision are kept as the
//! server sent them ([`SignatureMeta`]), unverified, for [`crate::host::signature`] to judge.

use std::collections::BTreeSet;
use std::sync::Arc;

use super::error::{ErrorCode, Result, VerifyError};
use crate::skill::digest::is_wire_digest;
use crate::skill::limits::{MAX_BYTES_PER_SKILL, MAX_FILES_PER_SKILL};
use crate::skill::name::check_name;
use crate::skill::revision::{skill_revision, REVISION_META_KEY};
use crate::skill::uri::{final_segment, is_scheme, resolve_reference, skill_root};
use crate::skill::value::{write_json_string, Value, MAX_SAFE_INTEGER};
use crate::json::{self, Node};
use crate::sign::{DSSE_META_KEY, SIGNER_META_KEY};

/// The `resources` marker of a skill whose files cannot be enumerated with stable digests.
pub(crate) const DYNAMIC: &str = "dynamic";

/// One file of a skill's manifest.
///
/// ```
/// use skills_edge::host::Entry;
/// let entry = Entry::parse(r#"{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},
///   "resources":[{"uri":"skill://a/SKILL.md","size":1,
///   "digest":"sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"}]}"#).unwrap();
/// let item = entry.item("skill://a/SKILL.md").unwrap();
/// assert_eq!((item.size, &item.digest[..7]), (1, "sha256:"));
/// // Items are looked up by their exact URI.
/// assert!(entry.item("skill://a/./SKILL.md").is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceItem {
    /// The file's URI: the `SKILL.md` itself or a URI inside the skill root.
    pub uri: String,
    /// `sha256:` + 64 lowercase hex characters.
    pub digest: String,
    /// The file's length in raw bytes (0 to 2^53 − 1).
    pub size: u64,
}

/// An entry's `resources`: a complete manifest, or `"dynamic"`.
///
/// ```
/// use skills_edge::host::{Entry, Resources};
/// let dynamic = Entry::parse(r#"{"uri":"skill://a/SKILL.md",
///   "frontmatter":{"name":"a","description":"d"},"resources":"dynamic"}"#).unwrap();
/// assert_eq!(dynamic.resources(), &Resources::Dynamic);
/// // Nothing to count and no revision: only the frontmatter can be verified.
/// assert_eq!((dynamic.check_limits(), dynamic.revision()), (Ok(None), None));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Resources {
    /// `"dynamic"`: no manifest; only the frontmatter can be verified.
    Dynamic,
    /// Every file of the skill, each exactly once, the `SKILL.md` included.
    Files(Vec<ResourceItem>),
}

/// What an entry's `_meta` says about the skill's signature, as the server sent it: nothing
/// here is verified (`host::signature` does that, and the registry keeps the verified
/// signer beside the entry).
///
/// ```
/// use skills_edge::host::{Entry, ErrorCode, HostOptions, SkillHost};
/// let entry = Entry::parse(r#"{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},
///   "resources":[{"uri":"skill://a/SKILL.md","size":1,
///   "digest":"sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"}],
///   "_meta":{"io.github.skills-edge/dsse":{"payload":"forged"},"io.github.skills-edge/revision":"r1"}}"#).unwrap();
/// let meta = entry.signature().unwrap();
/// assert_eq!(meta.envelope, r#"{"payload":"forged"}"#);
/// assert_eq!((meta.signer.as_deref(), meta.revision.as_deref()), (None, Some("r1")));
/// // Kept as sent, judged on registration: this envelope does not hold.
/// let mut host = SkillHost::new(HostOptions::default());
/// host.add_server("docs").unwrap();
/// assert_eq!(host.register("docs", entry).unwrap_err().code, ErrorCode::SignatureInvalid);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureMeta {
    /// The JSON text of the DSSE envelope (`_meta` key `io.github.skills-edge/dsse`).
    pub envelope: String,
    /// The JSON text of the signer's public JWK (`_meta` key `io.github.skills-edge/signer`), if given.
    pub signer: Option<String>,
    /// The `_meta` revision (`REVISION_META_KEY`), if given as a string: a signed statement
    /// must state it.
    pub revision: Option<String>,
}

/// A validated skill entry.
///
/// Two entries are equal when they have the same URI, the same manifest in the same order and
/// frontmatter of the same content (`Value::same_content`). The signature the entry carries
/// ([`Entry::signature`]) is not compared: what a host trusts is the signer the registry
/// verified for it ([`crate::host::SkillHost::signer`]).
///
/// ```
/// use skills_edge::host::Entry;
/// let entry = Entry::parse(r#"{"uri":"skill://code-review/SKILL.md",
///   "frontmatter":{"name":"code-review","description":"Review code using the team's checklist."},
///   "resources":[{"uri":"skill://code-review/SKILL.md","size":149,
///     "digest":"sha256:d2489d6c182e8df9c178563ff9f2eac7998a0c1bb1278c52a7fd5306e4259160"}]}"#).unwrap();
/// assert_eq!((entry.root(), entry.description()), ("skill://code-review", "Review code using the team's checklist."));
/// assert_eq!(entry.items().unwrap().len(), 1);
/// // Unknown fields and the frontmatter's key order do not make another entry.
/// let same = Entry::parse(&entry.to_json()
///     .replace(r#""name":"code-review","description":"Review code using the team's checklist.""#,
///              r#""description":"Review code using the team's checklist.","name":"code-review""#)
///     .replacen('{', r#"{"vendor":true,"#, 1)).unwrap();
/// assert_eq!(same, entry);
/// ```
#[derive(Debug, Clone)]
pub struct Entry {
    uri: String,
    root_len: usize,
    frontmatter: Value,
    resources: Resources,
    /// Shared, so that the copies an acting window and a listing keep cost nothing.
    signature: Option<Arc<SignatureMeta>>,
}

/// The limit figures of an entry with a manifest (H8).
///
/// ```
/// use skills_edge::host::{Entry, LimitReport};
/// let entry = Entry::parse(r#"{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},"resources":[
///   {"uri":"skill://a/SKILL.md","size":1,"digest":"sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"},
///   {"uri":"skill://a/big.bin","size":2000000,"digest":"sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"}]}"#).unwrap();
/// let report = entry.check_limits().unwrap().unwrap();
/// assert_eq!(report, LimitReport { resource_count: 2, total_size: 2_000_001 });
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LimitReport {
    /// Number of files (`resources` items, `SKILL.md` included).
    pub resource_count: usize,
    /// Sum of the items' `size`.
    pub total_size: u64,
}

impl Entry {
    /// Reads and validates an entry from its JSON text.
    ///
    /// Refused with [`ErrorCode::InvalidEntry`]: anything that is not an object; a `uri` that
    /// is not an absolute URI ending in `/<name>/SKILL.md`; a `frontmatter` that is not an
    /// object with string `name` and `description`, or whose `name` breaks the naming rules or
    /// differs from the URI's final segment; `resources` absent or neither an array nor
    /// `"dynamic"`; an item without a string `uri`, a wire-form `digest` (lowercase only,
    /// A6) or a safe-integer `size`; an item outside the skill root, a duplicate URI, or no
    /// item for the `SKILL.md` itself (A11).
    ///
    /// A `_meta` object whose `DSSE_META_KEY` is present and not `null` makes the entry
    /// signed ([`Entry::signature`]); such a `_meta` that repeats a key is refused (which
    /// envelope counts would depend on the reader). A `_meta` without that key is ignored, as
    /// every unknown field is (the entry is then unsigned).
    ///
    /// ```
    /// use skills_edge::host::{Entry, ErrorCode};
    /// let e = Entry::parse(r#"{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},
    ///   "resources":[{"uri":"skill://a/SKILL.md","size":1,
    ///   "digest":"sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"}],"_meta":{}}"#).unwrap();
    /// assert_eq!(e.root(), "skill://a");
    /// let bad = Entry::parse(r#"{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"}}"#);
    /// assert_eq!(bad.unwrap_err().code, ErrorCode::InvalidEntry);
    /// ```
    pub fn parse(json: &str) -> Result<Entry> {
        let doc =
            json::parse(json).map_err(|e| invalid(format!("the entry is not valid JSON: {e}")))?;
        Entry::from_node(&doc)
    }

    /// [`Entry::parse`] for an entry already read as JSON (an item of a listing, the `skill` of
    /// a `skills/get` result).
    pub(crate) fn from_node(doc: &Node) -> Result<Entry> {
        let fields = Fields::of(doc).map_err(|e| invalid(format!("the entry {e}")))?;
        let uri_raw = fields
            .get("uri")
            .ok_or_else(|| invalid("the entry has no `uri`"))?;
        let uri = uri_raw
            .as_str()
            .ok_or_else(|| invalid("the entry's `uri` must be a string"))?
            .to_owned();
        let err = |m: String| invalid(m).with_uri(uri.clone());
        check_uri_text(&uri).map_err(|m| err(format!("the entry's `uri` {uri:?} {m}")))?;
        let root = skill_root(&uri).ok_or_else(|| {
            err(format!(
                "the entry's `uri` {uri:?} must end in `/<name>/SKILL.md`"
            ))
        })?;
        let root_len = root.len();

        let fm_raw = fields
            .get("frontmatter")
            .ok_or_else(|| err("the entry has no `frontmatter`".into()))?;
        let frontmatter = fm_raw
            .to_value()
            .map_err(|e| err(format!("the entry's `frontmatter` cannot be read: {e}")))?;
        if !matches!(frontmatter, Value::Object(_)) {
            return Err(err(format!(
                "the entry's `frontmatter` must be an object, found a {}",
                frontmatter.type_name()
            )));
        }
        let name = match frontmatter.get("name") {
            Some(Value::String(s)) => s.as_str(),
            _ => return Err(err("`frontmatter.name` must be a string".into())),
        };
        if !matches!(frontmatter.get("description"), Some(Value::String(_))) {
            return Err(err("`frontmatter.description` must be a string".into()));
        }
        let segment = final_segment(root);
        if segment != name {
            return Err(err(format!(
                "the final segment of the skill path, {segment:?}, must equal `frontmatter.name` {name:?}"
            ))
            .with_values(name, segment));
        }
        if let Err(e) = check_name(name) {
            return Err(err(format!(
                "`frontmatter.name` {name:?} is not a valid skill name: {}",
                e.describe()
            )));
        }

        let resources =
            match fields.get("resources") {
                None => return Err(err(
                    "the entry has no `resources` (an array of files or \"dynamic\" is required)"
                        .into(),
                )),
                Some(raw) => parse_resources(raw, &uri, root)?,
            };
        let signature = match fields.get("_meta") {
            Some(meta) => signature_meta(meta).map_err(err)?.map(Arc::new),
            None => None,
        };
        Ok(Entry {
            uri,
            root_len,
            frontmatter,
            resources,
            signature,
        })
    }

    /// The signature the entry's `_meta` carries, unverified (`None`: unsigned).
    pub fn signature(&self) -> Option<&SignatureMeta> {
        self.signature.as_deref()
    }

    /// The `SKILL.md` URI.
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// The skill root: the URI without `/SKILL.md`.
    pub fn root(&self) -> &str {
        self.uri.get(..self.root_len).unwrap_or(&self.uri)
    }

    /// `frontmatter.name`.
    pub(crate) fn name(&self) -> &str {
        self.frontmatter
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
    }

    /// `frontmatter.description`.
    pub fn description(&self) -> &str {
        self.frontmatter
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or_default()
    }

    /// The frontmatter object, keys in the order the server sent them.
    pub fn frontmatter(&self) -> &Value {
        &self.frontmatter
    }

    /// The manifest, or [`Resources::Dynamic`].
    pub fn resources(&self) -> &Resources {
        &self.resources
    }

    /// Whether `resources` is `"dynamic"`.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn is_dynamic(&self) -> bool {
        matches!(self.resources, Resources::Dynamic)
    }

    /// The manifest items (`None` for a dynamic entry).
    pub fn items(&self) -> Option<&[ResourceItem]> {
        match &self.resources {
            Resources::Files(items) => Some(items),
            Resources::Dynamic => None,
        }
    }

    /// The manifest item for `uri`, compared as an exact string.
    pub fn item(&self, uri: &str) -> Option<&ResourceItem> {
        self.items()?.iter().find(|i| i.uri == uri)
    }

    /// The skill's revision, computed from the entry alone: the Agent Skills Discovery RFC's
    /// skill-level digest over every `(path relative to the skill root, digest)` of the
    /// manifest (`crate::skill::revision`). It changes whenever any file changes, so a host
    /// can tell that a skill changed without fetching a file; this server also publishes it in
    /// each entry's `_meta` under `REVISION_META_KEY` (non-normative; like every unknown
    /// entry field it never affects verification, A15). `None` for a dynamic entry.
    ///
    /// ```
    /// use skills_edge::host::Entry;
    /// let e = Entry::parse(r#"{"uri":"skill://hello/SKILL.md","frontmatter":{"name":"hello","description":"d"},
    ///   "resources":[{"uri":"skill://hello/SKILL.md","size":8,
    ///     "digest":"sha256:90f8ec5669cd34183b9b0fdf8b94f5efb4c3672876330f4aa76088c2b4ad17be"},
    ///   {"uri":"skill://hello/scripts/run.sh","size":10,
    ///     "digest":"sha256:a8076d3d28d21e02012b20eaf7dbf75409a6277134439025f282e368e3305abf"}]}"#).unwrap();
    /// assert_eq!(e.revision().as_deref(),
    ///     Some("sha256:34f7a8c484e9991f3e71a309f31332d6335efc01f544105c4185a7c4ab12eb1e"));
    /// ```
    pub fn revision(&self) -> Option<String> {
        let root = self.root();
        let files = self.items()?.iter().map(|i| {
            let rel = i
                .uri
                .strip_prefix(root)
                .and_then(|r| r.strip_prefix('/'))
                .unwrap_or(&i.uri);
            (rel, i.digest.as_str())
        });
        // Entry::parse checked every digest's form.
        skill_revision(files)
    }

    /// The item of the `SKILL.md` itself (`None` for a dynamic entry).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn skill_md_item(&self) -> Option<&ResourceItem> {
        self.item(&self.uri)
    }

    /// Counts the files and sums their sizes, from the entry alone (H8): `Ok(None)` for a
    /// dynamic entry (its limit applies to what is retrieved), [`ErrorCode::LimitExceeded`]
    /// above 512 files or 16 MiB.
    ///
    /// ```
    /// use skills_edge::host::Entry;
    /// let e = Entry::parse(r#"{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},
    ///   "resources":[{"uri":"skill://a/SKILL.md","size":1,
    ///   "digest":"sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"}]}"#).unwrap();
    /// let r = e.check_limits().unwrap().unwrap();
    /// assert_eq!((r.resource_count, r.total_size), (1, 1));
    /// ```
    pub fn check_limits(&self) -> Result<Option<LimitReport>> {
        let Some(items) = self.items() else {
            return Ok(None);
        };
        let count = items.len();
        let total = items.iter().fold(0u64, |a, i| a.saturating_add(i.size));
        if count > MAX_FILES_PER_SKILL {
            return Err(VerifyError::new(
                ErrorCode::LimitExceeded,
                format!(
                    "the skill {} has {count} files; hosts accept up to {MAX_FILES_PER_SKILL}",
                    self.uri
                ),
            )
            .with_uri(self.uri.clone())
            .with_values(MAX_FILES_PER_SKILL.to_string(), count.to_string())
            .with_field("resources.length"));
        }
        if total > MAX_BYTES_PER_SKILL {
            return Err(VerifyError::new(
                ErrorCode::LimitExceeded,
                format!(
                    "the skill {} has {total} bytes in total; hosts accept up to {MAX_BYTES_PER_SKILL} (16 MiB)",
                    self.uri
                ),
            )
            .with_uri(self.uri.clone())
            .with_values(MAX_BYTES_PER_SKILL.to_string(), total.to_string())
            .with_field("resources[].size"));
        }
        Ok(Some(LimitReport {
            resource_count: count,
            total_size: total,
        }))
    }

    /// Whether the two entries list the same set of `(uri, digest)` pairs (what an approval
    /// binds to, H30). Sizes and unknown fields do not count; two dynamic entries are never
    /// the same set (nothing binds them).
    pub(crate) fn same_file_set(&self, other: &Entry) -> bool {
        match (self.items(), other.items()) {
            // One ordered set of `b`'s files: O(n log n), not a scan of `b` for each of `a`.
            // Both manifests list each URI once, so the same length and every file of `a` in
            // that set is the same set.
            (Some(a), Some(b)) => {
                let theirs = file_pairs(b);
                a.len() == b.len()
                    && a.iter()
                        .all(|i| theirs.contains(file_pair(&i.uri, &i.digest).as_str()))
            }
            _ => false,
        }
    }

    /// The entry as JSON: `uri`, `frontmatter` (in the order received) and `resources`, the
    /// fields a host uses, and for a signed entry a `_meta` with the envelope, the signer and
    /// the revision as received ([`SignatureMeta`]). Other fields of the original are not kept.
    pub fn to_json(&self) -> String {
        let mut out = String::from("{\"uri\":");
        write_json_string(&self.uri, &mut out);
        out.push_str(",\"frontmatter\":");
        self.frontmatter.write_json(&mut out);
        out.push_str(",\"resources\":");
        match &self.resources {
            Resources::Dynamic => write_json_string(DYNAMIC, &mut out),
            Resources::Files(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str("{\"uri\":");
                    write_json_string(&item.uri, &mut out);
                    out.push_str(",\"digest\":");
                    write_json_string(&item.digest, &mut out);
                    out.push_str(",\"size\":");
                    out.push_str(&item.size.to_string());
                    out.push('}');
                }
                out.push(']');
            }
        }
        if let Some(sig) = &self.signature {
            out.push_str(",\"_meta\":{");
            write_json_string(DSSE_META_KEY, &mut out);
            out.push(':');
            out.push_str(&sig.envelope);
            if let Some(signer) = &sig.signer {
                out.push(',');
                write_json_string(SIGNER_META_KEY, &mut out);
                out.push(':');
                out.push_str(signer);
            }
            if let Some(revision) = &sig.revision {
                out.push(',');
                write_json_string(REVISION_META_KEY, &mut out);
                out.push(':');
                write_json_string(revision, &mut out);
            }
            out.push('}');
        }
        out.push('}');
        out
    }
}

/// The signature of an entry's `_meta` (see [`Entry::parse`]): the envelope and the signer as
/// raw JSON text (a `null` is absent), the revision when it is a string. A `_meta` that names
/// the envelope is read strictly: one that repeats a key is refused, since which envelope or
/// signer counts would depend on the reader. Any other `_meta` is an unknown field.
fn signature_meta(meta: &Node) -> std::result::Result<Option<SignatureMeta>, String> {
    if meta.get(DSSE_META_KEY).is_none() {
        return Ok(None);
    }
    let fields = Fields::of(meta).map_err(|e| format!("the entry's `_meta` {e}"))?;
    let present = |key: &str| {
        fields
            .get(key)
            .filter(|n| !n.is_null())
            .map(|n| n.raw.to_owned())
    };
    let Some(envelope) = present(DSSE_META_KEY) else {
        return Ok(None);
    };
    Ok(Some(SignatureMeta {
        envelope,
        signer: present(SIGNER_META_KEY),
        revision: fields
            .get(REVISION_META_KEY)
            .and_then(Node::as_str)
            .map(str::to_owned),
    }))
}

impl PartialEq for Entry {
    fn eq(&self, other: &Entry) -> bool {
        self.uri == other.uri
            && self.resources == other.resources
            && self.frontmatter.same_content(&other.frontmatter)
    }
}

fn invalid(message: impl Into<String>) -> VerifyError {
    VerifyError::new(ErrorCode::InvalidEntry, message)
}

fn parse_resources(raw: &Node, uri: &str, root: &str) -> Result<Resources> {
    let err = |m: String| invalid(m).with_uri(uri.to_owned());
    if let Some(s) = raw.as_str() {
        if s == DYNAMIC {
            return Ok(Resources::Dynamic);
        }
        return Err(err(format!(
            "`resources` must be an array of files or exactly \"dynamic\", found the string {s:?}"
        )));
    }
    let Some(raw_items) = raw.as_array() else {
        return Err(err(
            "`resources` must be an array of files or exactly \"dynamic\"".into(),
        ));
    };
    let mut items = Vec::with_capacity(raw_items.len());
    // An ordered set: O(n log n) whatever the URIs (a hash set's cost depends on the hasher's
    // keys, which are fixed on wasm32); of `String`s, the set type the host's readers share.
    let mut seen: BTreeSet<String> = BTreeSet::new();
    for (i, raw_item) in raw_items.iter().enumerate() {
        let item = parse_item(raw_item, i, root).map_err(|e| match e.uri {
            Some(_) => e,
            None => e.with_uri(uri.to_owned()),
        })?;
        items.push(item);
    }
    for item in &items {
        if !seen.insert(item.uri.clone()) {
            return Err(invalid(format!(
                "the file {} is listed more than once in `resources`",
                item.uri
            ))
            .with_uri(item.uri.clone()));
        }
    }
    if !seen.contains(uri) {
        return Err(err(format!(
            "`resources` has no item for the skill's own SKILL.md ({uri})"
        )));
    }
    Ok(Resources::Files(items))
}

fn parse_item(raw: &Node, index: usize, root: &str) -> Result<ResourceItem> {
    let at = |m: &str| invalid(format!("`resources[{index}]` {m}"));
    let fields = Fields::of(raw).map_err(|e| at(&e))?;
    let uri: String = fields
        .get("uri")
        .and_then(Node::as_str)
        .map(str::to_owned)
        .ok_or_else(|| at("has no string `uri`"))?;
    let err =
        |m: String| invalid(format!("`resources[{index}]` ({uri}) {m}")).with_uri(uri.clone());
    check_uri_text(&uri).map_err(|m| err(m.to_owned()))?;
    match resolve_reference(root, &uri) {
        Ok(resolved) if resolved == uri => {}
        _ => {
            return Err(err(format!(
                "is not inside the skill directory {root}/ (or is not a plain URI there)"
            )))
        }
    }
    let digest: String = fields
        .get("digest")
        .and_then(Node::as_str)
        .map(str::to_owned)
        .ok_or_else(|| err("has no string `digest`".into()))?;
    if !is_wire_digest(&digest) {
        return Err(err(format!(
            "has the digest {digest:?}; a digest is `sha256:` followed by 64 lowercase hex characters"
        ))
        .with_values("sha256:<64 lowercase hex>", digest.clone()));
    }
    let size_raw = fields
        .get("size")
        .ok_or_else(|| err("has no `size`".into()))?;
    let size = parse_size(size_raw).ok_or_else(|| {
        err(format!(
            "has the size {}; a size is an integer from 0 to 9007199254740991",
            size_raw.raw
        ))
        .with_values("an integer from 0 to 9007199254740991", size_raw.raw)
    })?;
    Ok(ResourceItem { uri, digest, size })
}

/// A JSON number that is an integer in `0..=2^53-1` (`5.0` counts, as `Number.isInteger`).
fn parse_size(n: &Node) -> Option<u64> {
    if let Some(u) = n.as_u64() {
        return (u <= MAX_SAFE_INTEGER as u64).then_some(u);
    }
    let f = n.as_f64()?;
    (f.fract() == 0.0 && (0.0..=MAX_SAFE_INTEGER as f64).contains(&f)).then_some(f as u64)
}

/// Checks that `uri` is a skill's `SKILL.md` URI, the only URI `skills/get` takes (SEP-2640
/// §Getting a Skill: "`params.uri` MUST be a `SKILL.md` URI"): an absolute URI without
/// whitespace, control characters, `\\`, `?`, `#` or empty, `.` or `..` segments, ending in
/// `/<name>/SKILL.md` where `<name>` meets the Agent Skills naming rules. A client checks this
/// before it sends anything. [`ErrorCode::InvalidArgument`] names what is wrong.
///
/// ```
/// use skills_edge::host::entry::check_skill_md_uri;
/// assert!(check_skill_md_uri("skill://acme/billing/refunds/SKILL.md").is_ok());
/// for bad in ["skill://alpha/x.md", "skill://alpha", "not a uri", "skill://SKILL.md", "skill://Alpha/SKILL.md"] {
///     assert!(check_skill_md_uri(bad).is_err(), "{bad}");
/// }
/// ```
pub fn check_skill_md_uri(uri: &str) -> Result<()> {
    let bad = |why: &str| {
        VerifyError::new(
            ErrorCode::InvalidArgument,
            format!(
                "{uri:?} is not a skill's SKILL.md URI ({why}); skills/get and a load take the URI of a SKILL.md, `<scheme>://<skill-path>/SKILL.md`, and nothing was sent"
            ),
        )
        .with_uri(uri)
    };
    check_uri_text(uri).map_err(bad)?;
    let root = skill_root(uri).ok_or_else(|| bad("it does not end in `/<name>/SKILL.md`"))?;
    check_name(final_segment(root))
        .map_err(|_| bad("the segment before `/SKILL.md` is not a valid skill name"))?;
    Ok(())
}

/// The characters and segments an entry URI may not have: it must be an absolute URI
/// (`scheme:`), without whitespace, control characters, backslashes, `?` or `#`, and without
/// empty, `.` or `..` path segments. Skill URIs are compared as exact strings (A2), so these
/// would only make two spellings of one file.
fn check_uri_text(uri: &str) -> std::result::Result<(), &'static str> {
    let colon = uri.find(':').ok_or("is not an absolute URI (no scheme)")?;
    let scheme_ok = is_scheme(&uri[..colon]);
    if !scheme_ok {
        return Err("is not an absolute URI (no valid scheme)");
    }
    if uri
        .chars()
        .any(|c| c.is_control() || c.is_whitespace() || matches!(c, '\\' | '?' | '#'))
    {
        return Err("contains whitespace, a control character, `\\`, `?` or `#`");
    }
    if uri[..colon].bytes().any(|b| b.is_ascii_uppercase()) {
        return Err("has a scheme in capitals; a skill URI is written in its canonical form, the scheme in lowercase (RFC 3986 §6.2.2.1)");
    }
    check_percent_escapes(uri)?;
    let rest = &uri[colon + 1..];
    if rest.starts_with("///") {
        return Err("has an empty authority (`scheme:///`); a skill URI is `<scheme>://<skill-path>/SKILL.md`, its skill path right after `://` (a file on disk is not a skill URI)");
    }
    let path = rest.strip_prefix("//").unwrap_or(rest);
    if path
        .split('/')
        .any(|s| s.is_empty() || s == "." || s == "..")
    {
        return Err("has an empty, `.` or `..` path segment");
    }
    Ok(())
}

/// Every `%` of `uri` starts an escape in its one canonical spelling (RFC 3986 §2.1, §6.2.2):
/// two uppercase hex digits, for a byte that is not an unreserved character (`A`–`Z`,
/// `a`–`z`, `0`–`9`, `-`, `.`, `_`, `~`, which are written as themselves). Otherwise one file
/// would have two spellings, and `%2e%2e` a `..` segment that string checks of nesting and
/// containment do not see.
fn check_percent_escapes(uri: &str) -> std::result::Result<(), &'static str> {
    let b = uri.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = |x: u8| matches!(x, b'0'..=b'9' | b'A'..=b'F');
            let (Some(&h), Some(&l)) = (b.get(i + 1), b.get(i + 2)) else {
                return Err("has a `%` without two hex digits after it");
            };
            if !hex(h) || !hex(l) {
                return Err(
                    "has a `%` escape that is not two uppercase hex digits (RFC 3986 §2.1)",
                );
            }
            let byte =
                (h as char).to_digit(16).unwrap_or(0) * 16 + (l as char).to_digit(16).unwrap_or(0);
            let byte = byte as u8;
            if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
                return Err("has a `%` escape of an unreserved character (such as `%2E` for `.` or `%61` for `a`), which a skill URI writes as itself (RFC 3986 §6.2.2.2)");
            }
            i += 3;
        } else {
            i += 1;
        }
    }
    Ok(())
}

/// A file's `(uri, digest)` as one string (a URI holds no line feed).
fn file_pair(uri: &str, digest: &str) -> String {
    format!("{uri}\n{digest}")
}

/// The `(uri, digest)` pairs of a manifest, in an ordered set ([`file_pair`]).
fn file_pairs(items: &[ResourceItem]) -> BTreeSet<String> {
    let mut pairs = BTreeSet::new();
    for i in items {
        pairs.insert(file_pair(&i.uri, &i.digest));
    }
    pairs
}

/// The members of an entry, an item or a `_meta` object, read by the catalog's JSON reader.
/// Anything but an object is refused, and so is a key given twice (a reader that keeps the
/// first and one that keeps the last would see different entries).
struct Fields<'n, 'a>(&'n Node<'a>);

impl<'n, 'a> Fields<'n, 'a> {
    fn of(node: &'n Node<'a>) -> std::result::Result<Fields<'n, 'a>, String> {
        if node.as_object().is_none() {
            return Err("must be a JSON object".to_owned());
        }
        if let Some(k) = node.repeated_key() {
            let mut m = String::from("is not valid JSON: duplicate key ");
            write_json_string(k, &mut m);
            return Err(m);
        }
        Ok(Fields(node))
    }

    fn get(&self, key: &str) -> Option<&'n Node<'a>> {
        self.0.get(key)
    }
}

#[cfg(test)]
pub(crate) mod tests;
