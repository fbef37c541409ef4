//! Verifying content against a held entry (SEP-2640 §Integrity and Verification; spec notes
//! §2.4 steps 5–6, H11, H14, H16, A3, A7, A14).
//!
//! The order is fixed: the URI must be listed (an unlisted file is never fetched), then the
//! byte length must equal `size` (a mismatch is a failure without hashing), then the SHA-256
//! must equal `digest`, then, for a `SKILL.md`, the frontmatter must equal the entry's field
//! by field. The same digest and frontmatter code as the build-time compiler is used, so what
//! a server built with this crate publishes always verifies here. The frontmatter is read in
//! the reader's host reading ([`parse_file_host`](crate::skill::frontmatter::parse_file_host)): values that are
//! only ambiguous across YAML versions (`yes`, `2024-01-01`, `007`), which the compiler refuses
//! to publish, are read as YAML 1.2 exactly as `yaml@2` reads them, so a third-party skill that
//! uses them verifies when its entry carries that reading.

use crate::json::{self, Node};

use super::entry::{Entry, ResourceItem};
use super::error::{ErrorCode, Result, VerifyError};
use crate::base64;
use crate::skill::digest::{digest_of, is_wire_digest};
use crate::skill::frontmatter::{parse_file_host, split_lenient};
use crate::skill::uri::{resolve_reference, skill_root, ResolveError};
use crate::skill::value::Value;

mod frontmatter;
mod read_result;
pub use frontmatter::compare_frontmatter;
pub use read_result::read_content;
pub(crate) use read_result::read_result_content;
use read_result::{bad_result, parse_result};

/// What the caller allows beyond the defaults.
///
/// ```
/// use skills_edge::host::{verify_bytes, Entry, ErrorCode, Hashing, VerifyOptions};
/// let dynamic = Entry::parse(r#"{"uri":"skill://a/SKILL.md",
///   "frontmatter":{"name":"a","description":"d"},"resources":"dynamic"}"#).unwrap();
/// let strict = VerifyOptions::default();
/// let e = verify_bytes(&dynamic, "skill://a/x.md", b"x", Hashing::Here, strict).unwrap_err();
/// assert_eq!(e.code, ErrorCode::DynamicNotAllowed);
/// let lenient = VerifyOptions { allow_dynamic: true };
/// let receipt = verify_bytes(&dynamic, "skill://a/x.md", b"x", Hashing::Here, lenient).unwrap();
/// assert!(!receipt.verified); // accepted, not verified
/// // Even then, only files inside the skill root.
/// let e = verify_bytes(&dynamic, "skill://b/x.md", b"x", Hashing::Here, lenient).unwrap_err();
/// assert_eq!(e.code, ErrorCode::EscapesRoot);
/// ```
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
/// use skills_edge::catalog::digest_of;
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
///
/// ```
/// use skills_edge::host::{verify_content, Body, Content, Entry, Hashing, VerifyOptions};
/// # let entry = Entry::parse(r#"{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},
/// #   "resources":[{"uri":"skill://a/SKILL.md","size":1,
/// #   "digest":"sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"}]}"#).unwrap();
/// let blob = r#"{"contents":[{"uri":"skill://a/SKILL.md","blob":"YQ=="}]}"#;
/// let (h, o) = (Hashing::Here, VerifyOptions::default());
/// let v = verify_content(&entry, "skill://a/SKILL.md", &Content::ReadResult(blob.into()), h, o).unwrap();
/// assert_eq!(v.body, Body::Blob(b"a".to_vec()));
/// assert_eq!((v.body.as_bytes(), v.body.text()), (&b"a"[..], None));
/// // The same bytes as text: the same digest, and the text is kept.
/// assert_eq!(Body::Text("a".into()).text(), Some("a"));
/// ```
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
///
/// ```
/// use skills_edge::host::{verify_content, Body, Content, Entry, Hashing, VerifyOptions};
/// # let entry = Entry::parse(r#"{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},
/// #   "resources":[{"uri":"skill://a/SKILL.md","size":1,
/// #   "digest":"sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"}]}"#).unwrap();
/// let result = r#"{"contents":[{"uri":"skill://a/SKILL.md","mimeType":"text/markdown","text":"a"}]}"#;
/// let item = Content::Item { body: Body::Text("a".into()), mime_type: Some("text/markdown".into()) };
/// // Every form of the same file verifies to the same receipt.
/// for content in [Content::Bytes(b"a".to_vec()), Content::Text("a".into()), Content::ReadResult(result.into()), item] {
///     let v = verify_content(&entry, "skill://a/SKILL.md", &content, Hashing::Here, VerifyOptions::default()).unwrap();
///     assert_eq!((v.receipt.size, v.receipt.verified), (1, true));
/// }
/// ```
#[derive(Debug, Clone)]
pub enum Content {
    /// Raw bytes.
    Bytes(Vec<u8>),
    /// Text; its UTF-8 bytes are what is verified.
    Text(String),
    /// A `resources/read` result as its JSON text, read once with the strict JSON reader
    /// (`crate::json`) and checked with `read_content`'s rules.
    ReadResult(String),
    /// The content item of a `resources/read` result as `read_content` extracted it (the
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
///
/// ```
/// use skills_edge::host::{verify_bytes, Entry, FileReceipt, Hashing, VerifyOptions};
/// # let entry = Entry::parse(r#"{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},
/// #   "resources":[{"uri":"skill://a/SKILL.md","size":1,
/// #   "digest":"sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"}]}"#).unwrap();
/// let receipt = verify_bytes(&entry, "skill://a/SKILL.md", b"a", Hashing::Here, VerifyOptions::default()).unwrap();
/// assert_eq!(receipt, FileReceipt {
///     uri: "skill://a/SKILL.md".into(),
///     size: 1,
///     digest: entry.item("skill://a/SKILL.md").unwrap().digest.clone(),
///     verified: true,
/// });
/// ```
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
///
/// ```
/// use skills_edge::host::{verify_content, Content, Entry, Hashing, VerifyOptions};
/// # let entry = Entry::parse(r#"{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},
/// #   "resources":[{"uri":"skill://a/SKILL.md","size":1,
/// #   "digest":"sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"}]}"#).unwrap();
/// let result = r#"{"contents":[{"uri":"skill://a/SKILL.md","mimeType":"text/markdown","text":"a"}]}"#;
/// let v = verify_content(&entry, "skill://a/SKILL.md", &Content::ReadResult(result.into()),
///     Hashing::Here, VerifyOptions::default()).unwrap();
/// assert_eq!((v.body.text(), v.mime_type.as_deref()), (Some("a"), Some("text/markdown")));
/// assert!(v.receipt.verified);
/// ```
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
///
/// ```
/// use skills_edge::host::{verify_skill_md, Content, Entry, Hashing};
/// let file = "---\nname: code-review\ndescription: Review code using the team's checklist.\n---\n\n# Code review\n\nRead `references/checklist.md`, then review the diff.\n";
/// let entry = Entry::parse(r#"{"uri":"skill://code-review/SKILL.md",
///   "frontmatter":{"name":"code-review","description":"Review code using the team's checklist."},
///   "resources":[{"uri":"skill://code-review/SKILL.md","size":149,
///     "digest":"sha256:d2489d6c182e8df9c178563ff9f2eac7998a0c1bb1278c52a7fd5306e4259160"}]}"#).unwrap();
/// let md = verify_skill_md(&entry, &Content::Text(file.into()), Hashing::Here).unwrap();
/// assert!(md.body().starts_with("\n# Code review\n"));
/// assert_eq!(&md.text[md.body_start..], md.body());
/// assert_eq!(md.frontmatter.get("name").and_then(|v| v.as_str()), Some("code-review"));
/// assert_eq!((md.receipt.size, md.receipt.verified), (149, true));
/// ```
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
#[cfg_attr(feature = "internals", visibility::make(pub))]
#[cfg_attr(not(feature = "web-verifier"), allow(dead_code))]
pub(crate) fn check_file_size(entry: &Entry, uri: &str, size: u64, options: VerifyOptions) -> Result<()> {
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

/// Verifies content for `uri` in any form ([`Content`]), hashed as `hashing` says: the URI
/// must be listed (checked first, as the file should not have been fetched otherwise); a
/// `resources/read` result must be well-formed (`read_content`); then the size and the
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
/// (`parse_file_host`: lenient fences, an optional
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
/// use skills_edge::catalog::digest_of;
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
        let (body, mime) = read_content(&node, uri, item.map(|i| i.size))?;
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
mod tests;
