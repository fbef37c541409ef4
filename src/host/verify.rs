//! Verifying content against a held entry (SEP-2640 §Integrity and Verification; spec notes
//! §2.4 steps 5–6, H11, H14, H16, A3, A7, A14).
//!
//! The order is fixed: the URI must be listed (an unlisted file is never fetched), then the
//! byte length must equal `size` (a mismatch is a failure without hashing), then the SHA-256
//! must equal `digest`, then, for a `SKILL.md`, the frontmatter must equal the entry's field
//! by field. The same digest and frontmatter code as the build-time compiler is used, so what
//! a server built with this crate publishes always verifies here. The frontmatter is read in
//! the reader's host mode ([`Mode::Host`](crate::skill::frontmatter::Mode)): values that are
//! only ambiguous across YAML versions (`yes`, `2024-01-01`, `007`), which the compiler refuses
//! to publish, are read as YAML 1.2 exactly as `yaml@2` reads them, so a third-party skill that
//! uses them verifies when its entry carries that reading.

use skills_edge_catalog::json::{self, Node};

use super::entry::{Entry, ResourceItem};
use super::error::{ErrorCode, Result, VerifyError};
use crate::base64;
use crate::skill::digest::{digest_of, is_wire_digest};
use crate::skill::frontmatter::{parse_file_host, split_lenient};
use crate::skill::uri::{resolve_reference, skill_root, ResolveError};
use crate::skill::value::Value;

/// What the caller allows beyond the defaults.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct VerifyOptions {
    /// Accept content for a `"dynamic"` entry, which cannot be verified (only its URI is
    /// checked to be inside the skill root). Off by default: a dynamic entry is refused with
    /// [`ErrorCode::DynamicNotAllowed`].
    pub allow_dynamic: bool,
}

/// Where the SHA-256 that a check compares with the entry's digest comes from. Every check
/// that hashes ([`verify_bytes`], [`verify_content`], [`verify_skill_md`],
/// [`SkillHost::load`](super::SkillHost::load), [`SkillHost::read`](super::SkillHost::read))
/// takes one, so there is one function per check whichever side hashes; the choice is
/// carried out here ([`Hashing::digest`]) and nowhere else.
///
/// ```
/// use skills_edge::host::{verify_bytes, Entry, Hashing, VerifyOptions};
/// use skills_edge::skill::digest::digest_of;
/// let e = Entry::parse(r#"{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},
///   "resources":[{"uri":"skill://a/SKILL.md","size":1,
///   "digest":"sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"}]}"#).unwrap();
/// let (u, o) = ("skill://a/SKILL.md", VerifyOptions::default());
/// // A digest computed elsewhere (say, by the platform's crypto) gives exactly what hashing here gives.
/// for bytes in [&b"a"[..], b"b", b"ab"] {
///     let given = digest_of(bytes);
///     assert_eq!(verify_bytes(&e, u, bytes, Hashing::Given(&given), o), verify_bytes(&e, u, bytes, Hashing::Here, o));
/// }
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Hashing<'a> {
    /// Hash the content here, with the SHA-256 the build-time compiler uses (the default).
    #[default]
    Here,
    /// The SHA-256 of the content's bytes (the bytes, the text's UTF-8 bytes, or the text or
    /// decoded blob of a result's content item) in wire form, computed by the caller, for
    /// example with a platform digest such as WebCrypto's. The checks, their order and their
    /// errors stay the same; only the hashing is the caller's. A digest not in wire form is
    /// [`ErrorCode::InvalidArgument`], before any other check.
    Given(&'a str),
}

impl Hashing<'_> {
    /// Refuses a given digest that is not in wire form (the first check of every function
    /// that takes a [`Hashing`]).
    fn check(self) -> Result<()> {
        match self {
            Hashing::Here => Ok(()),
            Hashing::Given(digest) => wire_digest(digest),
        }
    }

    /// The SHA-256 of `bytes` in wire form: computed here, or the one given.
    pub fn digest(self, bytes: &[u8]) -> String {
        match self {
            Hashing::Here => digest_of(bytes),
            Hashing::Given(digest) => digest.to_owned(),
        }
    }
}

/// The content of a file: text (verified over its UTF-8 bytes) or binary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Body {
    /// A `text` content item, or text handed over by the caller.
    Text(String),
    /// A base64-decoded `blob` content item, or bytes handed over by the caller.
    Blob(Vec<u8>),
}

impl Body {
    /// The raw bytes (the UTF-8 encoding of text).
    pub fn as_bytes(&self) -> &[u8] {
        match self {
            Body::Text(s) => s.as_bytes(),
            Body::Blob(b) => b,
        }
    }

    /// The text, when the content came as text.
    pub fn text(&self) -> Option<&str> {
        match self {
            Body::Text(s) => Some(s),
            Body::Blob(_) => None,
        }
    }
}

/// A file's content as the caller has it: raw bytes, text, or a whole `resources/read`
/// result (the `result` object of the JSON-RPC response) as its JSON text.
#[derive(Debug, Clone)]
pub enum Content {
    /// Raw bytes.
    Bytes(Vec<u8>),
    /// Text; its UTF-8 bytes are what is verified.
    Text(String),
    /// A `resources/read` result as its JSON text, read once with the strict JSON reader
    /// ([`skills_edge_catalog::json`]) and checked with [`read_content`]'s rules.
    ReadResult(String),
    /// The content item of a `resources/read` result as [`read_content`] extracted it (the
    /// result's shape, and a `blob`'s decoded length, already checked there): verified exactly
    /// as that result is, its `mimeType` kept. A caller that hashes the content elsewhere reads
    /// the result once this way, hashes [`Body::as_bytes`], and hands both over.
    Item {
        /// The text or decoded bytes.
        body: Body,
        /// The item's `mimeType`, if it had one.
        mime_type: Option<String>,
    },
}

/// Proof that content matched its manifest item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileReceipt {
    /// The file's URI.
    pub uri: String,
    /// Its byte length.
    pub size: u64,
    /// Its digest (computed; equal to the entry's when `verified`).
    pub digest: String,
    /// `true` when checked against a manifest item; `false` for a dynamic entry accepted with
    /// [`VerifyOptions::allow_dynamic`].
    pub verified: bool,
}

/// Verified content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifiedContent {
    /// Size, digest and whether they were checked.
    pub receipt: FileReceipt,
    /// The content.
    pub body: Body,
    /// The `mimeType` of the content item, if there was one.
    pub mime_type: Option<String>,
}

/// A verified `SKILL.md`.
#[derive(Debug, Clone)]
pub struct VerifiedSkillMd {
    /// Size, digest and whether they were checked (`false` for a dynamic entry, whose
    /// frontmatter was still verified).
    pub receipt: FileReceipt,
    /// The whole file.
    pub text: String,
    /// Byte offset of the markdown body (just after the closing `---` line).
    pub body_start: usize,
    /// The frontmatter read from the file (equal in content to the entry's).
    pub frontmatter: Value,
    /// The `mimeType` of the content item, if there was one.
    pub mime_type: Option<String>,
}

impl VerifiedSkillMd {
    /// The markdown after the frontmatter.
    pub fn body(&self) -> &str {
        self.text.get(self.body_start..).unwrap_or("")
    }
}

fn not_in_manifest(entry: &Entry, uri: &str) -> VerifyError {
    VerifyError::new(
        ErrorCode::NotInManifest,
        format!(
            "{uri} is not listed in the resources of {}; an unlisted file is a verification failure and must not be read",
            entry.uri()
        ),
    )
    .with_uri(uri)
}

fn dynamic_refused(entry: &Entry, uri: &str) -> VerifyError {
    VerifyError::new(
        ErrorCode::DynamicNotAllowed,
        format!(
            "the skill {} has \"dynamic\" resources, so {uri} cannot be verified; allow dynamic skills explicitly to accept unverified content",
            entry.uri()
        ),
    )
    .with_uri(uri)
}

/// Where a URI may be read from: its manifest item, or `None` for a dynamic entry accepted
/// by `options` (the URI must then be the `SKILL.md` or inside the skill root).
pub(crate) fn manifest_item<'e>(
    entry: &'e Entry,
    uri: &str,
    options: VerifyOptions,
) -> Result<Option<&'e ResourceItem>> {
    if entry.is_dynamic() {
        if !options.allow_dynamic {
            return Err(dynamic_refused(entry, uri));
        }
        return match resolve_reference(entry.root(), uri) {
            Ok(r) if r == uri => Ok(None),
            _ => Err(VerifyError::new(
                ErrorCode::EscapesRoot,
                format!("{uri} is not inside the skill directory {}/", entry.root()),
            )
            .with_uri(uri)),
        };
    }
    entry
        .item(uri)
        .map(Some)
        .ok_or_else(|| not_in_manifest(entry, uri))
}

/// Checks a byte length against `item` (the check that comes before any hashing).
fn check_size(item: &ResourceItem, size: u64) -> Result<()> {
    if size != item.size {
        return Err(VerifyError::new(
            ErrorCode::SizeMismatch,
            format!(
                "{} is {size} bytes but its entry says {}; the content must not be used",
                item.uri, item.size
            ),
        )
        .with_uri(item.uri.clone())
        .with_values(item.size.to_string(), size.to_string()));
    }
    Ok(())
}

/// Checks content of `size` bytes against `item`: size first (a wrong size is refused without
/// calling `digest`), then the digest `digest` computes.
fn check_item_with(
    item: &ResourceItem,
    size: u64,
    digest: impl FnOnce() -> Result<String>,
) -> Result<FileReceipt> {
    check_size(item, size)?;
    let digest = digest()?;
    if digest != item.digest {
        return Err(VerifyError::new(
            ErrorCode::DigestMismatch,
            format!(
                "the SHA-256 of {} differs from its entry's digest; the content must not be used",
                item.uri
            ),
        )
        .with_uri(item.uri.clone())
        .with_values(item.digest.clone(), digest));
    }
    Ok(FileReceipt {
        uri: item.uri.clone(),
        size,
        digest,
        verified: true,
    })
}

/// The receipt of content accepted without a manifest item (a dynamic entry).
fn unverified_with(
    uri: &str,
    size: u64,
    digest: impl FnOnce() -> Result<String>,
) -> Result<FileReceipt> {
    Ok(FileReceipt {
        uri: uri.to_owned(),
        size,
        digest: digest()?,
        verified: false,
    })
}

/// A digest computed by the caller must be in wire form.
fn wire_digest(digest: &str) -> Result<()> {
    if is_wire_digest(digest) {
        return Ok(());
    }
    Err(VerifyError::new(
        ErrorCode::InvalidArgument,
        format!("the digest {digest:?} is not `sha256:` followed by 64 lowercase hex characters"),
    ))
}

/// The checks of [`verify_bytes`] that come before hashing: the URI must be listed (or, for a
/// dynamic entry accepted by `options`, inside the skill root), then `size` must equal its
/// item's. A caller that hashes content elsewhere calls this first, so that a wrong size is
/// refused without hashing, then [`verify_bytes`] with [`Hashing::Given`].
///
/// ```
/// use skills_edge::host::{check_file_size, Entry, ErrorCode, VerifyOptions};
/// let e = Entry::parse(r#"{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},
///   "resources":[{"uri":"skill://a/SKILL.md","size":1,
///   "digest":"sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"}]}"#).unwrap();
/// let opts = VerifyOptions::default();
/// assert!(check_file_size(&e, "skill://a/SKILL.md", 1, opts).is_ok());
/// assert_eq!(check_file_size(&e, "skill://a/SKILL.md", 2, opts).unwrap_err().code, ErrorCode::SizeMismatch);
/// ```
pub fn check_file_size(entry: &Entry, uri: &str, size: u64, options: VerifyOptions) -> Result<()> {
    match manifest_item(entry, uri, options)? {
        Some(item) => check_size(item, size),
        None => Ok(()),
    }
}

/// Verifies a file known by its byte length, whose SHA-256 `digest` computes (from bytes held
/// elsewhere, hashed in pieces, or a digest in wire form computed elsewhere): the URI must be
/// listed, then `size` must equal its item's (a wrong size is refused without calling
/// `digest`), then the digest. An error `digest` returns is returned as it is.
/// [`verify_bytes`] is this function over a slice; the npm package's exports, whose bytes stay
/// in JavaScript memory, call it with the length alone.
pub(crate) fn verify_file_with(
    entry: &Entry,
    uri: &str,
    size: u64,
    digest: impl FnOnce() -> Result<String>,
    options: VerifyOptions,
) -> Result<FileReceipt> {
    match manifest_item(entry, uri, options)? {
        Some(item) => check_item_with(item, size, digest),
        None => unverified_with(uri, size, digest),
    }
}

/// Verifies a file's raw bytes (for text, its UTF-8 bytes) against the entry: the URI must
/// be listed, then size, then digest, hashed as `hashing` says.
///
/// ```
/// use skills_edge::host::{verify_bytes, Entry, ErrorCode, Hashing, VerifyOptions};
/// let e = Entry::parse(r#"{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},
///   "resources":[{"uri":"skill://a/SKILL.md","size":1,
///   "digest":"sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"}]}"#).unwrap();
/// let (h, opts) = (Hashing::Here, VerifyOptions::default());
/// assert!(verify_bytes(&e, "skill://a/SKILL.md", b"a", h, opts).is_ok());
/// assert_eq!(verify_bytes(&e, "skill://a/SKILL.md", b"b", h, opts).unwrap_err().code, ErrorCode::DigestMismatch);
/// assert_eq!(verify_bytes(&e, "skill://a/SKILL.md", b"ab", h, opts).unwrap_err().code, ErrorCode::SizeMismatch);
/// assert_eq!(verify_bytes(&e, "skill://a/x.md", b"a", h, opts).unwrap_err().code, ErrorCode::NotInManifest);
/// ```
pub fn verify_bytes(
    entry: &Entry,
    uri: &str,
    bytes: &[u8],
    hashing: Hashing<'_>,
    options: VerifyOptions,
) -> Result<FileReceipt> {
    hashing.check()?;
    verify_file_with(
        entry,
        uri,
        bytes.len() as u64,
        || Ok(hashing.digest(bytes)),
        options,
    )
}

fn bad_result(uri: &str, message: impl Into<String>) -> VerifyError {
    VerifyError::new(ErrorCode::InvalidReadResult, message).with_uri(uri)
}

/// Extracts the one content item for `uri` from a `resources/read` result given as its JSON
/// text (A7, A14), read with the strict JSON reader: `resultType` absent (legacy servers) or
/// `"complete"`; exactly one item of `contents` with this exact `uri` (items for other URIs
/// are ignored); exactly one of `text` (a string) or `blob` (strict, padded standard base64).
/// A member the check reads that is given twice (in the result or in a content item) is
/// refused, so the result is never read on one of its spellings. When `expected_size` is
/// given, a `blob`'s decoded length is checked against it before anything is decoded
/// ([`ErrorCode::SizeMismatch`]).
///
/// ```
/// use skills_edge::host::{read_content, Body, ErrorCode};
/// let r = r#"{"contents":[{"uri":"skill://a/SKILL.md","mimeType":"text/markdown","text":"a"}]}"#;
/// let (body, mime) = read_content(r, "skill://a/SKILL.md", None).unwrap();
/// assert_eq!((body, mime.as_deref()), (Body::Text("a".into()), Some("text/markdown")));
/// let twice = r#"{"contents":[{"uri":"skill://a/SKILL.md","text":"a","text":"b"}]}"#;
/// let e = read_content(twice, "skill://a/SKILL.md", None).unwrap_err();
/// assert_eq!(e.code, ErrorCode::InvalidReadResult);
/// ```
pub fn read_content(
    result: &str,
    uri: &str,
    expected_size: Option<u64>,
) -> Result<(Body, Option<String>)> {
    read_item(&parse_result(result, uri)?, uri, expected_size)
}

/// A `resources/read` result given as JSON text, read with the strict reader.
fn parse_result<'a>(text: &'a str, uri: &str) -> Result<Node<'a>> {
    json::parse(text).map_err(|e| {
        bad_result(
            uri,
            format!("the resources/read result for {uri} is not valid JSON: {e}"),
        )
    })
}

/// The member `key` of `node` (`None` when absent or `node` is no object); a key given twice
/// is refused.
fn member<'n, 'a>(node: &'n Node<'a>, key: &str, uri: &str) -> Result<Option<&'n Node<'a>>> {
    node.field(key).map_err(|e| {
        bad_result(
            uri,
            format!(
                "the resources/read result for {uri} has a {e}; a result names each member once"
            ),
        )
    })
}

/// [`read_content`] over the parsed result.
fn read_item(
    result: &Node<'_>,
    uri: &str,
    expected_size: Option<u64>,
) -> Result<(Body, Option<String>)> {
    if result.as_object().is_none() {
        return Err(bad_result(uri, "a resources/read result must be an object"));
    }
    if let Some(other) = member(result, "resultType", uri)? {
        if other.as_str() != Some("complete") {
            let other = other.raw;
            return Err(bad_result(
                uri,
                format!("the resources/read result for {uri} is not complete (resultType {other}); skill files are never read incrementally"),
            )
            .with_values("complete", other));
        }
    }
    let contents = member(result, "contents", uri)?
        .and_then(Node::as_array)
        .ok_or_else(|| bad_result(uri, "the resources/read result has no `contents` array"))?;
    let mut matching = Vec::new();
    for c in contents {
        if member(c, "uri", uri)?.and_then(Node::as_str) == Some(uri) {
            matching.push(c);
        }
    }
    let item = *matching.first().ok_or_else(|| {
        bad_result(
            uri,
            format!(
                "the resources/read result has no content item for {uri} ({} item(s) for other URIs)",
                contents.len()
            ),
        )
        .with_values("1", "0")
    })?;
    let extra = matching.len() - 1;
    if extra > 0 {
        return Err(bad_result(
            uri,
            format!(
                "the resources/read result has {} content items for {uri}; exactly one is allowed",
                extra + 1
            ),
        )
        .with_values("1", (extra + 1).to_string()));
    }
    let mime_type = member(item, "mimeType", uri)?
        .and_then(Node::as_str)
        .map(str::to_owned);
    match (
        member(item, "text", uri)?.map(Node::as_str),
        member(item, "blob", uri)?.map(Node::as_str),
    ) {
        (Some(Some(text)), None) => Ok((Body::Text(text.to_owned()), mime_type)),
        (None, Some(Some(blob))) => {
            let padding = blob.bytes().rev().take_while(|&c| c == b'=').count();
            if blob.len() % 4 != 0 || padding > 2 {
                return Err(bad_result(
                    uri,
                    format!(
                        "the blob of {uri} is not valid base64 (its length or padding is wrong)"
                    ),
                ));
            }
            let decoded_len = base64::decoded_len(blob.len(), padding) as u64;
            if let Some(size) = expected_size {
                if decoded_len != size {
                    return Err(VerifyError::new(
                        ErrorCode::SizeMismatch,
                        format!("{uri} is {decoded_len} bytes (base64-decoded) but its entry says {size}; the content must not be used"),
                    )
                    .with_uri(uri)
                    .with_values(size.to_string(), decoded_len.to_string()));
                }
            }
            let bytes = base64::decode(blob).ok_or_else(|| {
                bad_result(
                    uri,
                    format!("the blob of {uri} is not strict base64 (RFC 4648 standard alphabet, padded, no whitespace)"),
                )
            })?;
            Ok((Body::Blob(bytes), mime_type))
        }
        (Some(_), Some(_)) => Err(bad_result(
            uri,
            format!(
                "the content item for {uri} has both `text` and `blob`; exactly one is allowed"
            ),
        )),
        _ => Err(bad_result(
            uri,
            format!("the content item for {uri} has neither a string `text` nor a string `blob`"),
        )),
    }
}

/// The content item of a `resources/read` result (its JSON text) for `uri` after every check
/// of [`verify_content`] over a `resources/read` result that comes before hashing: the URI
/// must be listed, the result well-formed ([`read_content`]), and the content's byte length
/// equal to its item's. A caller that hashes the content elsewhere then hands the content
/// item to [`verify_content`] with [`Hashing::Given`].
pub fn read_result_content(
    entry: &Entry,
    uri: &str,
    result: &str,
    options: VerifyOptions,
) -> Result<(Body, Option<String>)> {
    let item = manifest_item(entry, uri, options)?;
    let (body, mime_type) = read_content(result, uri, item.map(|i| i.size))?;
    if let Some(item) = item {
        check_size(item, body.as_bytes().len() as u64)?;
    }
    Ok((body, mime_type))
}

/// Verifies content for `uri` in any form ([`Content`]), hashed as `hashing` says: the URI
/// must be listed (checked first, as the file should not have been fetched otherwise); a
/// `resources/read` result must be well-formed ([`read_content`]); then the size and the
/// digest of the bytes (a text's UTF-8 bytes, a decoded blob).
///
/// ```
/// use skills_edge::host::{verify_content, Content, Entry, ErrorCode, Hashing, VerifyOptions};
/// let entry = Entry::parse(r#"{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},
///   "resources":[{"uri":"skill://a/SKILL.md","size":1,
///     "digest":"sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"}]}"#).unwrap();
/// let (h, o) = (Hashing::Here, VerifyOptions::default());
/// assert!(verify_content(&entry, "skill://a/SKILL.md", &Content::Bytes(b"a".to_vec()), h, o).is_ok());
/// let e = verify_content(&entry, "skill://a/SKILL.md", &Content::Text("ab".into()), h, o);
/// assert_eq!(e.unwrap_err().code, ErrorCode::SizeMismatch);
/// let e = verify_content(&entry, "skill://a/other.md", &Content::Text("a".into()), h, o);
/// assert_eq!(e.unwrap_err().code, ErrorCode::NotInManifest);
///
/// // A `resources/read` result: one content item for the URI, `text` or strict base64 `blob`.
/// let ok = r#"{"contents":[{"uri":"skill://a/SKILL.md","mimeType":"text/markdown","text":"a"}]}"#;
/// let v = verify_content(&entry, "skill://a/SKILL.md", &Content::ReadResult(ok.into()), h, o).unwrap();
/// assert_eq!((v.receipt.size, v.mime_type.as_deref()), (1, Some("text/markdown")));
/// let tampered = ok.replace(r#""text":"a""#, r#""text":"b""#);
/// let e = verify_content(&entry, "skill://a/SKILL.md", &Content::ReadResult(tampered), h, o);
/// assert_eq!(e.unwrap_err().code, ErrorCode::DigestMismatch);
/// ```
pub fn verify_content(
    entry: &Entry,
    uri: &str,
    content: &Content,
    hashing: Hashing<'_>,
    options: VerifyOptions,
) -> Result<VerifiedContent> {
    hashing.check()?;
    let (body, mime_type) = match content {
        Content::ReadResult(text) => read_result_content(entry, uri, text, options)?,
        Content::Item { body, mime_type } => (body.clone(), mime_type.clone()),
        Content::Bytes(b) => (Body::Blob(b.clone()), None),
        Content::Text(t) => (Body::Text(t.clone()), None),
    };
    let bytes = body.as_bytes();
    let receipt = verify_file_with(
        entry,
        uri,
        bytes.len() as u64,
        || Ok(hashing.digest(bytes)),
        options,
    )?;
    Ok(VerifiedContent {
        receipt,
        body,
        mime_type,
    })
}

/// Verifies a `SKILL.md` against its entry (H11, H14): size, then digest (skipped only for a
/// `"dynamic"` entry, which has none), then the frontmatter, read with the same YAML 1.2
/// reader the compiler uses in its host mode
/// ([`parse_file_host`]: lenient fences, an optional
/// BOM and trailing blanks on the closing fence; `yes`, dates, `007`, `0o14`, `1e3` and `<<`
/// read as `yaml@2` reads them), compared with the entry's `frontmatter` by content: the same
/// keys at every level, arrays in order, numbers by value, strings exactly. YAML that does not
/// parse, or that no host can compare safely (duplicate keys, tags, non-string keys,
/// non-finite or unsafe numbers, alias abuse), is [`ErrorCode::FrontmatterInvalid`]; any
/// difference from the entry is [`ErrorCode::FrontmatterMismatch`].
///
/// A `resources/read` result must carry the `SKILL.md` as `text`.
///
/// ```
/// use skills_edge::host::{verify_skill_md, Content, Entry, ErrorCode, Hashing};
/// use skills_edge::skill::digest::digest_of;
/// let file = "---\nname: a\ndescription: d\n---\nBody\n";
/// let entry = |desc: &str| Entry::parse(&format!(
///     r#"{{"uri":"skill://a/SKILL.md","frontmatter":{{"name":"a","description":"{desc}"}},
///         "resources":[{{"uri":"skill://a/SKILL.md","size":{},"digest":"{}"}}]}}"#,
///     file.len(), digest_of(file.as_bytes()))).unwrap();
/// let ok = verify_skill_md(&entry("d"), &Content::Text(file.into()), Hashing::Here).unwrap();
/// assert_eq!(ok.body(), "Body\n");
/// let err = verify_skill_md(&entry("other"), &Content::Text(file.into()), Hashing::Here).unwrap_err();
/// assert_eq!((err.code, err.field.as_deref()), (ErrorCode::FrontmatterMismatch, Some("description")));
/// // With the file's digest computed elsewhere: the same outcome.
/// let given = digest_of(file.as_bytes());
/// let err = verify_skill_md(&entry("other"), &Content::Text(file.into()), Hashing::Given(&given)).unwrap_err();
/// assert_eq!(err.field.as_deref(), Some("description"));
/// ```
pub fn verify_skill_md(
    entry: &Entry,
    content: &Content,
    hashing: Hashing<'_>,
) -> Result<VerifiedSkillMd> {
    hashing.check()?;
    let uri = entry.uri();
    let item = entry.skill_md_item();
    let receipt_of = |bytes: &[u8]| {
        let size = bytes.len() as u64;
        let digest = || Ok(hashing.digest(bytes));
        match item {
            Some(item) => check_item_with(item, size, digest),
            None => unverified_with(uri, size, digest),
        }
    };
    // A content item must be text.
    let item_text = |body: Body, mime: Option<String>| match body {
        Body::Text(text) => Ok((text, mime)),
        Body::Blob(_) => Err(bad_result(
            uri,
            format!("{uri} came as a `blob`; a SKILL.md is markdown and must come as `text`"),
        )),
    };
    // A `resources/read` result's one content item, as text.
    let from_result = |result: &str| -> Result<(String, Option<String>, FileReceipt)> {
        let node = parse_result(result, uri)?;
        let (body, mime) = read_item(&node, uri, item.map(|i| i.size))?;
        let (text, mime) = item_text(body, mime)?;
        let receipt = receipt_of(text.as_bytes())?;
        Ok((text, mime, receipt))
    };
    let (text, mime_type, receipt) = match content {
        Content::ReadResult(result) => from_result(result)?,
        Content::Item { body, mime_type } => {
            let (text, mime) = item_text(body.clone(), mime_type.clone())?;
            let receipt = receipt_of(text.as_bytes())?;
            (text, mime, receipt)
        }
        Content::Text(t) => {
            let receipt = receipt_of(t.as_bytes())?;
            (t.clone(), None, receipt)
        }
        Content::Bytes(b) => {
            let receipt = receipt_of(b)?;
            let text = String::from_utf8(b.clone()).map_err(|_| {
                VerifyError::new(
                    ErrorCode::FrontmatterInvalid,
                    format!("{uri} is not UTF-8 text, so it has no readable frontmatter"),
                )
                .with_uri(uri)
            })?;
            (text, None, receipt)
        }
    };
    let frontmatter = parse_file_host(&text).map_err(|e| {
        VerifyError::new(
            ErrorCode::FrontmatterInvalid,
            format!("the frontmatter of {uri} cannot be read: {e}"),
        )
        .with_uri(uri)
        .with_actual(e.kind.rule())
    })?;
    compare_frontmatter(uri, entry.frontmatter(), &frontmatter)?;
    let body_start = split_lenient(&text)
        .map(|b| b.body_start)
        .unwrap_or(text.len());
    Ok(VerifiedSkillMd {
        receipt,
        text,
        body_start,
        frontmatter,
        mime_type,
    })
}

/// Compares the entry's frontmatter (`expected`) with the file's (`actual`) by content
/// ([`Value::same_content`]); on a difference, names the first differing field.
///
/// ```
/// use skills_edge::host::{compare_frontmatter, ErrorCode};
/// use skills_edge::skill::value::Value;
/// use skills_edge_catalog::json;
/// let value = |t: &str| -> Value { json::parse(t).unwrap().to_value().unwrap() };
/// let entry = value(r#"{"name":"a","description":"d","metadata":{"v":"1"}}"#);
/// let file = value(r#"{"description":"d","name":"a","metadata":{"v":"2"}}"#);
/// let e = compare_frontmatter("skill://a/SKILL.md", &entry, &file).unwrap_err();
/// assert_eq!((e.code, e.field.as_deref()), (ErrorCode::FrontmatterMismatch, Some("metadata.v")));
/// assert!(compare_frontmatter("skill://a/SKILL.md", &entry, &entry).is_ok());
/// ```
pub fn compare_frontmatter(uri: &str, expected: &Value, actual: &Value) -> Result<()> {
    if expected.same_content(actual) {
        return Ok(());
    }
    let mut found = Vec::new();
    differences(expected, actual, String::new(), &mut found);
    let shown_path = |p: &str| {
        if p.is_empty() {
            "frontmatter".to_owned()
        } else {
            p.to_owned()
        }
    };
    let fields: Vec<String> = found.iter().map(|(p, _, _)| shown_path(p)).collect();
    let (path, exp, act) = found
        .into_iter()
        .next()
        .unwrap_or_else(|| (String::new(), Some(expected.clone()), Some(actual.clone())));
    let shown = shown_path(&path);
    let mut message = match (&exp, &act) {
        (Some(_), None) => format!("the frontmatter of {uri} lacks `{shown}`, which the entry has"),
        (None, Some(_)) => format!("the frontmatter of {uri} has `{shown}`, which the entry lacks"),
        _ => format!("`{shown}` in the frontmatter of {uri} differs from the entry"),
    };
    if fields.len() > 1 {
        let others: Vec<String> = fields.iter().skip(1).map(|f| format!("`{f}`")).collect();
        message.push_str(&format!("; so do {}", others.join(", ")));
    }
    let mut err = VerifyError::new(ErrorCode::FrontmatterMismatch, message)
        .with_uri(uri)
        .with_field(shown);
    err.expected = exp.map(|v| v.to_json().into_boxed_str());
    err.actual = act.map(|v| v.to_json().into_boxed_str());
    err.differences = fields.into_boxed_slice();
    Err(err)
}

type Difference = (String, Option<Value>, Option<Value>);

/// Appends `key` to a field path: `.key` (bare at the top level) when the key is non-empty and
/// has no `.`, `[`, `]`, `"`, `\`, whitespace or control character; `["key"]` (a JSON string)
/// otherwise.
fn join_key(path: &str, key: &str) -> String {
    let plain = !key.is_empty()
        && !key.chars().any(|c| {
            matches!(c, '.' | '[' | ']' | '"' | '\\') || c.is_whitespace() || c.is_control()
        });
    match (path.is_empty(), plain) {
        (true, true) => key.to_owned(),
        (false, true) => format!("{path}.{key}"),
        (_, false) => {
            let mut s = path.to_owned();
            s.push('[');
            crate::skill::value::write_json_string(key, &mut s);
            s.push(']');
            s
        }
    }
}

/// Most differing fields one refusal names.
pub(crate) const MAX_DIFFERENCES: usize = 32;

/// Every place where two values differ (at most [`MAX_DIFFERENCES`]), as (path, expected part,
/// actual part), in the order of the entry's keys, then the keys only the file has. Depth is
/// bounded by the frontmatter reader's nesting limit on one side; the recursion stops where
/// the other side's shape differs.
fn differences(expected: &Value, actual: &Value, path: String, out: &mut Vec<Difference>) {
    if out.len() >= MAX_DIFFERENCES {
        return;
    }
    match (expected, actual) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in a {
                let p = join_key(&path, k);
                match actual.get(k) {
                    None => out.push((p, Some(v.clone()), None)),
                    Some(w) => differences(v, w, p, out),
                }
                if out.len() >= MAX_DIFFERENCES {
                    return;
                }
            }
            for (k, w) in b.iter().filter(|(k, _)| expected.get(k).is_none()) {
                if out.len() >= MAX_DIFFERENCES {
                    return;
                }
                out.push((join_key(&path, k), None, Some(w.clone())));
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (v, w)) in a.iter().zip(b).enumerate() {
                differences(v, w, format!("{path}[{i}]"), out);
            }
        }
        _ if expected.same_content(actual) => {}
        _ => out.push((path, Some(expected.clone()), Some(actual.clone()))),
    }
}

/// Resolves a reference found in a skill (a relative path or an absolute URI) against the
/// root of the skill whose `SKILL.md` is `skill_uri` (U12, A3): `?query`/`#fragment`
/// dropped, dot segments removed, and a result outside the root refused with
/// [`ErrorCode::EscapesRoot`] ([`ErrorCode::InvalidReference`] for an empty reference, one
/// with a backslash or control character, or one whose first segment has a `:` without a
/// valid scheme before it, such as `1ab:x`; [`ErrorCode::InvalidArgument`] when `skill_uri`
/// does not end in `/SKILL.md`).
///
/// ```
/// use skills_edge::host::{resolve, ErrorCode};
/// assert_eq!(resolve("skill://a/b/SKILL.md", "ref/x.md#top").unwrap(), "skill://a/b/ref/x.md");
/// assert_eq!(resolve("skill://a/b/SKILL.md", "../c/SKILL.md").unwrap_err().code, ErrorCode::EscapesRoot);
/// ```
pub fn resolve(skill_uri: &str, reference: &str) -> Result<String> {
    let root = skill_root(skill_uri).ok_or_else(|| {
        VerifyError::new(
            ErrorCode::InvalidArgument,
            format!("{skill_uri:?} is not a SKILL.md URI (it must end in `/<name>/SKILL.md`)"),
        )
        .with_uri(skill_uri)
    })?;
    resolve_in_root(root, reference)
}

/// [`resolve`] against a skill root (the `SKILL.md` URI without `/SKILL.md`).
pub(crate) fn resolve_in_root(root: &str, reference: &str) -> Result<String> {
    resolve_reference(root, reference).map_err(|e| {
        let (code, why) = match e {
            ResolveError::EscapesRoot => (ErrorCode::EscapesRoot, "climbs above the skill root"),
            ResolveError::OutsideRoot => (
                ErrorCode::EscapesRoot,
                "is an absolute URI outside the skill root",
            ),
            ResolveError::Empty => (ErrorCode::InvalidReference, "is empty"),
            ResolveError::BadChar => (
                ErrorCode::InvalidReference,
                "contains a backslash or a control character, or a `:` in its first segment that does not end a scheme",
            ),
        };
        VerifyError::new(
            code,
            format!("the reference {reference:?} {why} ({root}/); it is not a file of this skill"),
        )
        .with_uri(reference)
        .with_expected(format!("{root}/…"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value as Json};

    /// A `resources/read` result as the JSON text a server sends.
    fn rr(result: Json) -> Content {
        Content::ReadResult(result.to_string())
    }

    const SKILL_MD: &str =
        "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\n---\n\nSkill body.\n";
    const FORMS: &str = "Supporting content.\n";

    fn entry_for(skill_md: &str, frontmatter: &str) -> Entry {
        Entry::parse(&format!(
            r#"{{"uri":"skill://pdf-processing/SKILL.md","frontmatter":{frontmatter},"resources":[
              {{"uri":"skill://pdf-processing/SKILL.md","digest":"{}","size":{}}},
              {{"uri":"skill://pdf-processing/references/FORMS.md","digest":"{}","size":{}}},
              {{"uri":"skill://pdf-processing/assets/x.bin","digest":"{}","size":3}}]}}"#,
            digest_of(skill_md.as_bytes()),
            skill_md.len(),
            digest_of(FORMS.as_bytes()),
            FORMS.len(),
            digest_of(&[0, 255, 7]),
        ))
        .unwrap()
    }

    fn entry() -> Entry {
        entry_for(
            SKILL_MD,
            r#"{"name":"pdf-processing","description":"Extract, fill, and assemble PDF documents"}"#,
        )
    }

    fn read(uri: &str, item: Json) -> Json {
        let mut item = item;
        item["uri"] = json!(uri);
        json!({"contents":[item],"resultType":"complete","ttlMs":0,"cacheScope":"private"})
    }

    const NONE: VerifyOptions = VerifyOptions {
        allow_dynamic: false,
    };

    /// Found by the `host` fuzz target (its property read the file back in the compiler's
    /// lenient mode): a raw U+2029 in a value is only ambiguous across YAML versions, so the
    /// host reads it as text, as yaml@2 does, and verifies the file; the compiler refuses to
    /// publish it.
    #[test]
    fn a_raw_paragraph_separator_in_a_value_verifies_in_host_mode() {
        let md = "---\nname: pdf-processing\ndescription: \"Extract\"\nnote: a\u{2029}b\n---\n";
        let e = entry_for(
            md,
            r#"{"name":"pdf-processing","description":"Extract","note":"a\u2029b"}"#,
        );
        let v =
            verify_skill_md(&e, &Content::Text(md.to_owned()), Hashing::Here).expect("verifies");
        assert!(v.receipt.verified);
        let fm = parse_file_host(md).expect("host mode reads it");
        assert!(fm.same_content(e.frontmatter()));
        assert!(crate::skill::frontmatter::parse_file_lenient(md).is_err());
    }

    #[test]
    fn every_differing_field_is_named() {
        let entry =
            json::parse(r#"{"name":"a","description":"d","license":"MIT","tags":["x","y"]}"#)
                .unwrap()
                .to_value()
                .unwrap();
        let file = json::parse(r#"{"name":"a","description":"e","tags":["x","z"],"extra":1}"#)
            .unwrap()
            .to_value()
            .unwrap();
        let e = compare_frontmatter("skill://a/SKILL.md", &entry, &file).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("description"));
        assert_eq!(
            &*e.differences,
            ["description", "license", "tags[1]", "extra"]
        );
        assert!(
            e.message.ends_with("; so do `license`, `tags[1]`, `extra`"),
            "{}",
            e.message
        );
        let one =
            json::parse(r#"{"name":"a","description":"d","license":"MIT","tags":["x","y"],"z":2}"#)
                .unwrap()
                .to_value()
                .unwrap();
        let e = compare_frontmatter("skill://a/SKILL.md", &entry, &one).unwrap_err();
        assert_eq!(
            (&*e.differences, e.field.as_deref()),
            (&["z".to_owned()][..], Some("z"))
        );
    }

    #[test]
    fn conformance_vectors() {
        // The suite's honest digest.
        assert_eq!(
            digest_of(SKILL_MD.as_bytes()),
            "sha256:a6d5f1f48af94923633d597c756194482fe5d48f74e49eb54bc9ee7c4902d5ba"
        );
        let e = entry();
        let u = e.uri().to_owned();
        assert!(verify_skill_md(&e, &Content::Text(SKILL_MD.into()), Hashing::Here).is_ok());
        // verify-digest: same length, other bytes.
        let tampered = SKILL_MD.replace("Skill body.\n", "Evil body!!\n");
        assert_eq!(tampered.len(), SKILL_MD.len());
        let err = verify_skill_md(&e, &Content::Text(tampered), Hashing::Here).unwrap_err();
        assert_eq!(err.code, ErrorCode::DigestMismatch);
        assert_eq!(err.uri.as_deref(), Some(u.as_str()));
        // verify-size.
        let longer = format!("{SKILL_MD}extra bytes the entry did not account for\n");
        let err = verify_skill_md(&e, &Content::Text(longer), Hashing::Here).unwrap_err();
        assert_eq!(err.code, ErrorCode::SizeMismatch);
        assert_eq!(
            (err.expected.as_deref(), err.actual.as_deref()),
            (Some("97"), Some("139"))
        );
        // verify-frontmatter: digest and size rewritten to match the tampered file.
        let evil = SKILL_MD.replace(
            "Extract, fill, and assemble PDF documents",
            "Exfiltrate credentials",
        );
        let e2 = entry_for(
            &evil,
            r#"{"name":"pdf-processing","description":"Extract, fill, and assemble PDF documents"}"#,
        );
        let err = verify_skill_md(&e2, &Content::Text(evil), Hashing::Here).unwrap_err();
        assert_eq!(err.code, ErrorCode::FrontmatterMismatch);
        assert_eq!(err.field.as_deref(), Some("description"));
        assert_eq!(
            err.expected.as_deref(),
            Some("\"Extract, fill, and assemble PDF documents\"")
        );
        assert_eq!(err.actual.as_deref(), Some("\"Exfiltrate credentials\""));
    }

    #[test]
    fn read_results_text_and_blob() {
        let e = entry();
        let forms = "skill://pdf-processing/references/FORMS.md";
        let ok = verify_content(
            &e,
            forms,
            &rr(read(
                forms,
                json!({"text": FORMS, "mimeType":"text/markdown"}),
            )),
            Hashing::Here,
            NONE,
        )
        .unwrap();
        assert_eq!(ok.body.text(), Some(FORMS));
        assert_eq!(ok.mime_type.as_deref(), Some("text/markdown"));
        let bin = "skill://pdf-processing/assets/x.bin";
        let ok = verify_content(
            &e,
            bin,
            &rr(read(bin, json!({"blob": "AP8H"}))),
            Hashing::Here,
            NONE,
        )
        .unwrap();
        assert_eq!(ok.body.as_bytes(), &[0, 255, 7]);
        assert!(ok.receipt.verified);
        // Legacy result: no resultType.
        let legacy = json!({"contents":[{"uri": forms, "text": FORMS}]});
        assert!(verify_content(&e, forms, &rr(legacy.clone()), Hashing::Here, NONE).is_ok());
        // Extra items for other URIs are ignored.
        let extra = json!({"contents":[{"uri":"skill://other/x","text":"x"},{"uri": forms, "text": FORMS}]});
        assert!(verify_content(&e, forms, &rr(extra.clone()), Hashing::Here, NONE).is_ok());

        let code = |uri: &str, r: Json| {
            let err = verify_content(&e, uri, &rr(r.clone()), Hashing::Here, NONE).unwrap_err();
            // The content item alone: the same refusal, word for word.
            let again = read_content(&r.to_string(), uri, None).map(|_| ());
            if err.code == ErrorCode::InvalidReadResult {
                assert_eq!(again.unwrap_err(), err, "{r}");
            }
            err.code
        };
        use ErrorCode::*;
        assert_eq!(
            code(bin, read(bin, json!({"blob": "AP8-"}))),
            InvalidReadResult,
            "URL-safe alphabet"
        );
        assert_eq!(
            code(bin, read(bin, json!({"blob": "AP8"}))),
            InvalidReadResult,
            "bad length"
        );
        assert_eq!(
            code(bin, read(bin, json!({"blob": "AP8HAA=="}))),
            SizeMismatch,
            "size before decoding"
        );
        assert_eq!(
            code(bin, read(bin, json!({"blob": "AP8G"}))),
            DigestMismatch
        );
        assert_eq!(
            code(bin, read(bin, json!({"blob": "AP 8H"}))),
            InvalidReadResult
        );
        assert_eq!(
            code(forms, read(forms, json!({"text": FORMS, "blob": "AA=="}))),
            InvalidReadResult
        );
        assert_eq!(code(forms, read(forms, json!({}))), InvalidReadResult);
        assert_eq!(
            code(forms, read(forms, json!({"text": 5}))),
            InvalidReadResult
        );
        assert_eq!(code(forms, json!({"contents": []})), InvalidReadResult);
        assert_eq!(
            code(
                forms,
                json!({"contents": [{"uri": forms, "text": FORMS}, {"uri": forms, "text": FORMS}]})
            ),
            InvalidReadResult
        );
        assert_eq!(
            code(
                forms,
                json!({"resultType":"input_required","contents": [{"uri": forms, "text": FORMS}]})
            ),
            InvalidReadResult
        );
        assert_eq!(code(forms, json!([1])), InvalidReadResult);
        assert_eq!(
            code(forms, read(forms, json!({"text": "Supporting content!\n"}))),
            DigestMismatch
        );
        assert_eq!(
            code(
                "skill://pdf-processing/secret.md",
                read("skill://pdf-processing/secret.md", json!({"text": ""}))
            ),
            NotInManifest
        );
        // SKILL.md must be text.
        let blob = read(
            e.uri(),
            json!({"blob": base64::encode(SKILL_MD.as_bytes())}),
        );
        assert_eq!(
            verify_skill_md(&e, &rr(blob), Hashing::Here)
                .unwrap_err()
                .code,
            InvalidReadResult
        );
        let text = read(e.uri(), json!({"text": SKILL_MD}));
        assert_eq!(
            verify_skill_md(&e, &rr(text), Hashing::Here)
                .unwrap()
                .body(),
            "\nSkill body.\n"
        );
    }

    #[test]
    fn frontmatter_is_compared_by_content() {
        let file =
            "\u{feff}---\nname: a\ndescription: d\nmetadata: {b: 1.0, a: [x, {z: 2}]}\n--- \nBody";
        let mk = |fm: &str| {
            Entry::parse(&format!(
                r#"{{"uri":"skill://a/SKILL.md","frontmatter":{fm},"resources":[{{"uri":"skill://a/SKILL.md","digest":"{}","size":{}}}]}}"#,
                digest_of(file.as_bytes()),
                file.len()
            ))
            .unwrap()
        };
        let check = |fm: &str| {
            verify_skill_md(
                &mk(fm),
                &Content::Bytes(file.as_bytes().to_vec()),
                Hashing::Here,
            )
        };
        let ok = check(r#"{"description":"d","name":"a","metadata":{"a":["x",{"z":2.0}],"b":1}}"#)
            .unwrap();
        assert_eq!(ok.body(), "Body");
        let diff = |fm: &str| {
            let e = check(fm).unwrap_err();
            assert_eq!(e.code, ErrorCode::FrontmatterMismatch);
            (
                e.field.map(String::from).unwrap_or_default(),
                e.expected.map(String::from),
                e.actual.map(String::from),
            )
        };
        assert_eq!(
            diff(r#"{"name":"a","description":"d","metadata":{"b":1,"a":["x",{"z":3}]}}"#),
            ("metadata.a[1].z".into(), Some("3".into()), Some("2".into()))
        );
        assert_eq!(
            diff(r#"{"name":"a","description":"d"}"#),
            (
                "metadata".into(),
                None,
                Some(r#"{"b":1,"a":["x",{"z":2}]}"#.into())
            )
        );
        assert_eq!(
            diff(
                r#"{"name":"a","description":"d","metadata":{"b":1,"a":["x",{"z":2}]},"license":"MIT"}"#
            ),
            ("license".into(), Some("\"MIT\"".into()), None)
        );
        assert_eq!(
            diff(r#"{"name":"a","description":"d","metadata":{"b":1,"a":["x"]}}"#).0,
            "metadata.a"
        );
        assert_eq!(
            diff(r#"{"name":"a","description":"d","metadata":{"b":null,"a":["x",{"z":2}]}}"#),
            ("metadata.b".into(), Some("null".into()), Some("1".into()))
        );
        assert_eq!(
            diff(r#"{"name":"a","description":"d","metadata":{"b":1,"a":["x",{"z":2}],"io.x/k":"v"}}"#).0,
            "metadata[\"io.x/k\"]"
        );
    }

    #[test]
    fn unreadable_frontmatter_is_refused() {
        for file in [
            "no fences\n",
            "---\nname: a\n",
            "---\nname: a\nname: b\n---\n",
            "---\n- a\n---\n",
            "---\nname: a\ndescription: d\nx: !!str yes\n---\n",
            "---\nname: a\ndescription: d\n1: x\n---\n",
            "---\nname: a\ndescription: d\nx: .inf\n---\n",
            "---\nname: a\ndescription: d\nx: [a\n---\n",
        ] {
            let e = Entry::parse(&format!(
                r#"{{"uri":"skill://a/SKILL.md","frontmatter":{{"name":"a","description":"d"}},"resources":[{{"uri":"skill://a/SKILL.md","digest":"{}","size":{}}}]}}"#,
                digest_of(file.as_bytes()),
                file.len()
            ))
            .unwrap();
            let err = verify_skill_md(&e, &Content::Text(file.into()), Hashing::Here).unwrap_err();
            assert_eq!(err.code, ErrorCode::FrontmatterInvalid, "{file:?}");
            assert!(err.actual.unwrap().starts_with("frontmatter-"));
        }
        let bytes = vec![0xff, 0xfe];
        let e = Entry::parse(&format!(
            r#"{{"uri":"skill://a/SKILL.md","frontmatter":{{"name":"a","description":"d"}},"resources":[{{"uri":"skill://a/SKILL.md","digest":"{}","size":2}}]}}"#,
            digest_of(&bytes)
        ))
        .unwrap();
        assert_eq!(
            verify_skill_md(&e, &Content::Bytes(bytes), Hashing::Here)
                .unwrap_err()
                .code,
            ErrorCode::FrontmatterInvalid
        );
    }

    #[test]
    fn values_only_ambiguous_across_yaml_versions_verify_as_yaml2_reads_them() {
        let file = "---\nname: a\ndescription: d\nreviewed: yes\nsince: 2024-01-01\nbuild: 007\nmode: 0o14\nscale: 1e3\n---\nBody\n";
        let mk = |fm: &str| {
            Entry::parse(&format!(
                r#"{{"uri":"skill://a/SKILL.md","frontmatter":{fm},"resources":[{{"uri":"skill://a/SKILL.md","digest":"{}","size":{}}}]}}"#,
                digest_of(file.as_bytes()),
                file.len()
            ))
            .unwrap()
        };
        let yaml2 = r#"{"name":"a","description":"d","reviewed":"yes","since":"2024-01-01","build":7,"mode":12,"scale":1000}"#;
        let ok = verify_skill_md(&mk(yaml2), &Content::Text(file.into()), Hashing::Here).unwrap();
        assert_eq!(ok.frontmatter.to_json(), yaml2);
        assert_eq!(ok.body(), "Body\n");
        // Any other reading is a mismatch, naming the field: YAML 1.1's boolean, the string
        // as written, a YAML 1.1 octal, a date object's JSON form.
        for (fm, field, actual) in [
            (yaml2.replace(r#""yes""#, "true"), "reviewed", r#""yes""#),
            (yaml2.replace(":7,", r#":"007","#), "build", "7"),
            (yaml2.replace(":12,", ":14,"), "mode", "12"),
            (
                yaml2.replace(r#""2024-01-01""#, r#""2024-01-01T00:00:00.000Z""#),
                "since",
                r#""2024-01-01""#,
            ),
        ] {
            let err =
                verify_skill_md(&mk(&fm), &Content::Text(file.into()), Hashing::Here).unwrap_err();
            assert_eq!(err.code, ErrorCode::FrontmatterMismatch, "{fm}");
            assert_eq!(err.field.as_deref(), Some(field), "{fm}");
            assert_eq!(err.actual.as_deref(), Some(actual), "{fm}");
        }
    }

    #[test]
    fn dynamic_entries_need_an_opt_in() {
        let file = "---\nname: d\ndescription: x\n---\n";
        let e = Entry::parse(r#"{"uri":"skill://r/d/SKILL.md","frontmatter":{"name":"d","description":"x"},"resources":"dynamic"}"#).unwrap();
        let err = verify_bytes(&e, "skill://r/d/a.md", b"x", Hashing::Here, NONE).unwrap_err();
        assert_eq!(err.code, ErrorCode::DynamicNotAllowed);
        let yes = VerifyOptions {
            allow_dynamic: true,
        };
        let r = verify_bytes(&e, "skill://r/d/a.md", b"x", Hashing::Here, yes).unwrap();
        assert!(!r.verified);
        assert_eq!(
            verify_bytes(&e, "skill://r/other.md", b"x", Hashing::Here, yes)
                .unwrap_err()
                .code,
            ErrorCode::EscapesRoot
        );
        // The frontmatter is still verified.
        let ok = verify_skill_md(&e, &Content::Text(file.into()), Hashing::Here).unwrap();
        assert!(!ok.receipt.verified);
        let bad = verify_skill_md(
            &e,
            &Content::Text(file.replace("x\n", "w\n")),
            Hashing::Here,
        )
        .unwrap_err();
        assert_eq!(bad.code, ErrorCode::FrontmatterMismatch);
    }

    /// A digest computed elsewhere gives exactly what hashing here gives (receipts and errors,
    /// fields included), with the bytes or with their length alone, and the size is checked
    /// before the digest is needed.
    #[test]
    fn precomputed_digests_verify_like_bytes() {
        let e = entry();
        let dynamic = Entry::parse(r#"{"uri":"skill://r/d/SKILL.md","frontmatter":{"name":"d","description":"x"},"resources":"dynamic"}"#).unwrap();
        let yes = VerifyOptions {
            allow_dynamic: true,
        };
        let forms = "skill://pdf-processing/references/FORMS.md";
        let cases: Vec<(&Entry, &str, Vec<u8>, VerifyOptions)> = vec![
            (&e, forms, FORMS.as_bytes().to_vec(), NONE),
            (&e, forms, b"Supporting content!\n".to_vec(), NONE),
            (&e, forms, b"short".to_vec(), NONE),
            (&e, "skill://pdf-processing/secret.md", b"x".to_vec(), NONE),
            (
                &e,
                "skill://pdf-processing/assets/x.bin",
                vec![0, 255, 7],
                NONE,
            ),
            (&dynamic, "skill://r/d/a.md", b"x".to_vec(), NONE),
            (&dynamic, "skill://r/d/a.md", b"x".to_vec(), yes),
            (&dynamic, "skill://r/other.md", b"x".to_vec(), yes),
        ];
        for (entry, uri, bytes, opts) in cases {
            let size = bytes.len() as u64;
            let expected = verify_bytes(entry, uri, &bytes, Hashing::Here, opts);
            let given = digest_of(&bytes);
            assert_eq!(
                verify_bytes(entry, uri, &bytes, Hashing::Given(&given), opts),
                expected,
                "{uri}"
            );
            assert_eq!(
                verify_file_with(entry, uri, size, || Ok(given.clone()), opts),
                expected,
                "{uri}"
            );
            let mut hashed = false;
            let with = verify_file_with(
                entry,
                uri,
                size,
                || {
                    hashed = true;
                    Ok(digest_of(&bytes))
                },
                opts,
            );
            assert_eq!(with, expected, "{uri}");
            // The digest is computed only when listing and size pass.
            let pre = check_file_size(entry, uri, size, opts);
            assert_eq!(hashed, pre.is_ok(), "{uri}");
            match (&pre, &expected) {
                (Ok(()), _) => {}
                (Err(p), Err(x)) => assert_eq!(p, x, "{uri}"),
                (Err(p), Ok(_)) => panic!("{uri}: refused before hashing: {p:?}"),
            }
        }
        // A wrong size is refused whatever the digest says, without calling for it.
        let err = verify_file_with(&e, forms, 1, || panic!("hashed despite a wrong size"), NONE)
            .unwrap_err();
        assert_eq!(err.code, ErrorCode::SizeMismatch);
        // A digest that is not in wire form is an argument error.
        for bad in ["", "sha256:", &digest_of(b"x").to_uppercase(), "md5:00"] {
            let err =
                verify_bytes(&e, forms, FORMS.as_bytes(), Hashing::Given(bad), NONE).unwrap_err();
            assert_eq!(err.code, ErrorCode::InvalidArgument, "{bad:?}");
            let text = Content::Text(FORMS.into());
            let err = verify_content(&e, forms, &text, Hashing::Given(bad), NONE).unwrap_err();
            assert_eq!(err.code, ErrorCode::InvalidArgument, "{bad:?}");
            let err = verify_skill_md(&e, &Content::Text(SKILL_MD.into()), Hashing::Given(bad))
                .unwrap_err();
            assert_eq!(err.code, ErrorCode::InvalidArgument, "{bad:?}");
        }
    }

    #[test]
    fn a_server_that_repeats_a_member_of_a_read_result_is_refused() {
        // A member given twice would let two readers see two different results; each
        // member the check reads is refused when repeated, wherever it is.
        let e = entry();
        let forms = "skill://pdf-processing/references/FORMS.md";
        let item = format!(
            r#""uri":"{forms}","text":{}"#,
            serde_json::to_string(FORMS).unwrap()
        );
        let good = format!(r#"{{"contents":[{{{item}}}]}}"#);
        assert!(verify_content(&e, forms, &Content::ReadResult(good), Hashing::Here, NONE).is_ok());
        for twice in [
            format!(r#"{{"contents":[{{{item},"text":"x"}}]}}"#),
            format!(r#"{{"contents":[{{{item},"uri":"skill://pdf-processing/x"}}]}}"#),
            format!(r#"{{"contents":[{{{item},"mimeType":"a","mimeType":"b"}}]}}"#),
            format!(r#"{{"contents":[{{{item}}}],"contents":[]}}"#),
            format!(r#"{{"resultType":"complete","resultType":"x","contents":[{{{item}}}]}}"#),
            format!(r#"{{"contents":[{{"uri":"skill://o/x","uri":"skill://o/y"}},{{{item}}}]}}"#),
        ] {
            let err = verify_content(
                &e,
                forms,
                &Content::ReadResult(twice.clone()),
                Hashing::Here,
                NONE,
            )
            .unwrap_err();
            assert_eq!(err.code, ErrorCode::InvalidReadResult, "{twice}");
            assert!(err.message.contains("duplicate field"), "{}", err.message);
        }
    }

    #[test]
    fn a_read_result_and_its_item_verify_alike() {
        // The same outcome as the content item read from it, for a good result and a tampered one.
        let e = entry();
        let forms = "skill://pdf-processing/references/FORMS.md";
        let good = read(forms, json!({"text": FORMS, "mimeType": "text/markdown"}));
        for content in [
            rr(good.clone()),
            Content::Item {
                body: Body::Text(FORMS.into()),
                mime_type: None,
            },
        ] {
            let v = verify_content(&e, forms, &content, Hashing::Here, NONE).unwrap();
            assert_eq!(v.body.text(), Some(FORMS));
        }
        let bad = read(forms, json!({"text": format!("{FORMS}!")}));
        for content in [
            rr(bad.clone()),
            Content::Item {
                body: Body::Text(format!("{FORMS}!")),
                mime_type: None,
            },
        ] {
            let err = verify_content(&e, forms, &content, Hashing::Here, NONE).unwrap_err();
            assert_eq!(err.code, ErrorCode::SizeMismatch);
        }
        // A value nested deeper than any JSON text serde_json reads (128 levels) is refused
        // as a malformed result, not read past its depth.
        let mut deep = json!(0);
        for _ in 0..200 {
            deep = json!([deep]);
        }
        let mut nested = good;
        nested["_meta"] = deep;
        let err = verify_content(&e, forms, &rr(nested), Hashing::Here, NONE).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidReadResult);
    }

    #[test]
    fn read_result_content_checks_everything_before_the_digest() {
        let e = entry();
        let forms = "skill://pdf-processing/references/FORMS.md";
        let bin = "skill://pdf-processing/assets/x.bin";
        let (body, mime) = read_result_content(
            &e,
            forms,
            &read(forms, json!({"text": FORMS, "mimeType": "text/markdown"})).to_string(),
            NONE,
        )
        .unwrap();
        assert_eq!(body.text(), Some(FORMS));
        assert_eq!(mime.as_deref(), Some("text/markdown"));
        // A wrong digest is not its business; a wrong size, an unlisted file and a bad
        // result are.
        let (body, _) = read_result_content(
            &e,
            bin,
            &read(bin, json!({"blob": "AP8G"})).to_string(),
            NONE,
        )
        .unwrap();
        assert_eq!(body.as_bytes(), &[0, 255, 6]);
        let code = |uri: &str, r: Json| {
            read_result_content(&e, uri, &r.to_string(), NONE)
                .unwrap_err()
                .code
        };
        assert_eq!(
            code(forms, read(forms, json!({"text": "short"}))),
            ErrorCode::SizeMismatch
        );
        assert_eq!(
            code(bin, read(bin, json!({"blob": "AP8HAA=="}))),
            ErrorCode::SizeMismatch
        );
        assert_eq!(
            code(forms, json!({"contents": []})),
            ErrorCode::InvalidReadResult
        );
        assert_eq!(
            code("skill://pdf-processing/secret.md", json!({"contents": []})),
            ErrorCode::NotInManifest
        );
    }

    #[test]
    fn skill_md_with_a_precomputed_digest_verifies_like_hashing() {
        let e = entry();
        let tampered = SKILL_MD.replace("Skill body.\n", "Evil body!!\n");
        let longer = format!("{SKILL_MD}x");
        let dynamic = Entry::parse(r#"{"uri":"skill://r/d/SKILL.md","frontmatter":{"name":"d","description":"x"},"resources":"dynamic"}"#).unwrap();
        let dyn_md = "---\nname: d\ndescription: x\n---\n";
        let cases: Vec<(&Entry, Content)> = vec![
            (&e, Content::Text(SKILL_MD.into())),
            (&e, Content::Bytes(SKILL_MD.as_bytes().to_vec())),
            (&e, Content::Text(tampered.clone())),
            (&e, Content::Text(longer.clone())),
            (&e, Content::Bytes(vec![0xff; SKILL_MD.len()])),
            (
                &e,
                rr(read(
                    e.uri(),
                    json!({"text": SKILL_MD, "mimeType": "text/markdown"}),
                )),
            ),
            (&e, rr(read(e.uri(), json!({"text": tampered})))),
            (
                &e,
                Content::Item {
                    body: Body::Text(SKILL_MD.into()),
                    mime_type: Some("text/markdown".into()),
                },
            ),
            (
                &e,
                Content::Item {
                    body: Body::Text(tampered.clone()),
                    mime_type: Some("text/markdown".into()),
                },
            ),
            (&dynamic, Content::Text(dyn_md.into())),
            (&dynamic, Content::Text(dyn_md.replace("x\n", "w\n"))),
            (
                &e,
                Content::Item {
                    body: Body::Text(tampered.clone()),
                    mime_type: None,
                },
            ),
            (
                &e,
                Content::Item {
                    body: Body::Blob(SKILL_MD.as_bytes().to_vec()),
                    mime_type: None,
                },
            ),
        ];
        for (entry, content) in cases {
            let bytes: Vec<u8> = match &content {
                Content::Text(t) => t.as_bytes().to_vec(),
                Content::Bytes(b) => b.clone(),
                Content::ReadResult(r) => serde_json::from_str::<Json>(r).unwrap()["contents"][0]
                    ["text"]
                    .as_str()
                    .unwrap()
                    .as_bytes()
                    .to_vec(),
                Content::Item { body, .. } => body.as_bytes().to_vec(),
            };
            let expected = verify_skill_md(entry, &content, Hashing::Here);
            let got = verify_skill_md(entry, &content, Hashing::Given(&digest_of(&bytes)));
            match (expected, got) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(a.receipt, b.receipt);
                    assert_eq!(
                        (a.text, a.body_start, a.mime_type),
                        (b.text, b.body_start, b.mime_type)
                    );
                    assert!(a.frontmatter.same_content(&b.frontmatter));
                }
                (Err(a), Err(b)) => assert_eq!(a, b),
                (a, b) => panic!("{:?} vs {:?}", a.map(|v| v.receipt), b.map(|v| v.receipt)),
            }
        }
    }

    /// Every `resources/read` result as a whole and as the content item [`read_content`]
    /// extracts, hashed here and with the digest given: the same outcome all four ways.
    #[test]
    fn content_items_and_given_digests_verify_like_read_results() {
        let e = entry();
        let forms = "skill://pdf-processing/references/FORMS.md";
        let bin = "skill://pdf-processing/assets/x.bin";
        let tampered = FORMS.replacen('a', "b", 1);
        let cases = [
            (
                forms,
                read(forms, json!({"text": FORMS, "mimeType": "text/markdown"})),
            ),
            (forms, read(forms, json!({"text": tampered}))),
            (forms, read(forms, json!({"text": format!("{FORMS}x")}))),
            (
                bin,
                read(
                    bin,
                    json!({"blob": "AP8H", "mimeType": "application/octet-stream"}),
                ),
            ),
            (bin, read(bin, json!({"blob": "AP8G"}))),
            (bin, read(bin, json!({"blob": "AP8HAA=="}))),
            (e.uri(), read(e.uri(), json!({"text": SKILL_MD}))),
        ];
        for (uri, result) in cases {
            let expected = verify_content(&e, uri, &rr(result.clone()), Hashing::Here, NONE);
            // As the client reads it: with the size its plan expects, and when that fails the
            // whole result goes to the verifier.
            let size = e.item(uri).map(|i| i.size);
            let item = match read_content(&result.to_string(), uri, size) {
                Ok((body, mime_type)) => Content::Item { body, mime_type },
                Err(err) => {
                    assert_eq!(Err(err), expected, "{uri}");
                    continue;
                }
            };
            let Content::Item { body, .. } = &item else {
                panic!("not an item");
            };
            let digest = digest_of(body.as_bytes());
            assert_eq!(
                verify_content(&e, uri, &item, Hashing::Here, NONE),
                expected,
                "{uri}"
            );
            assert_eq!(
                verify_content(&e, uri, &item, Hashing::Given(&digest), NONE),
                expected,
                "{uri}"
            );
            assert_eq!(
                verify_content(&e, uri, &rr(result), Hashing::Given(&digest), NONE),
                expected,
                "{uri}"
            );
        }
        // The digest is the caller's: one of other bytes is a digest mismatch, one not in
        // wire form is refused before anything is compared.
        let item = Content::Item {
            body: Body::Text(FORMS.into()),
            mime_type: None,
        };
        let other = digest_of(b"other");
        let err = verify_content(&e, forms, &item, Hashing::Given(&other), NONE).unwrap_err();
        assert_eq!(
            (err.code, err.actual.as_deref()),
            (ErrorCode::DigestMismatch, Some(other.as_str()))
        );
        let err = verify_content(&e, forms, &item, Hashing::Given("sha256:x"), NONE).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidArgument);
    }

    #[test]
    fn references_resolve_inside_the_root() {
        let u = "skill://acme/billing/refunds/SKILL.md";
        assert_eq!(
            resolve(u, "references/GUIDE.md").unwrap(),
            "skill://acme/billing/refunds/references/GUIDE.md"
        );
        assert_eq!(
            resolve(u, "./a/../b.md?x#y").unwrap(),
            "skill://acme/billing/refunds/b.md"
        );
        assert_eq!(
            resolve(u, "skill://acme/billing/refunds/x").unwrap(),
            "skill://acme/billing/refunds/x"
        );
        let code = |r: &str| resolve(u, r).unwrap_err().code;
        assert_eq!(code("../chargebacks/SKILL.md"), ErrorCode::EscapesRoot);
        assert_eq!(code("/etc/passwd"), ErrorCode::EscapesRoot);
        assert_eq!(
            code("skill://acme/billing/refunds-extra/x"),
            ErrorCode::EscapesRoot
        );
        assert_eq!(code("https://example.com/x"), ErrorCode::EscapesRoot);
        assert_eq!(code(""), ErrorCode::InvalidReference);
        assert_eq!(code("a\\b"), ErrorCode::InvalidReference);
        assert_eq!(code("1ab:x"), ErrorCode::InvalidReference);
        assert_eq!(
            resolve("skill://x", "a").unwrap_err().code,
            ErrorCode::InvalidArgument
        );
    }
}
