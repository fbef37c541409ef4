//! The error type of the host rules: a stable code, the URI concerned, and the expected and
//! actual values, so a host can act on a refusal and tell the user why. Only what the rules
//! decide has a code here; a failure of the exchange with a server (unreachable, a bad status
//! or reply, a time-out) is the client's ([`crate::client::ClientError`]).

use std::fmt;

/// What went wrong, as a stable kebab-case code ([`ErrorCode::as_str`]).
///
/// The codes are part of the public API: the npm package exposes them as `error.code`
/// ([`crate::client::ClientCode`] maps them and the client's exchange failures to it).
///
/// ```
/// use skills_edge::host::{resolve, ErrorCode};
/// let refused = resolve("skill://a/SKILL.md", "../b/SKILL.md").unwrap_err();
/// assert_eq!(refused.code, ErrorCode::EscapesRoot);
/// // The kebab-case name is what hosts log and the npm package throws as `error.code`.
/// assert_eq!(refused.code.to_string(), "escapes-root");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorCode {
    /// The entry is malformed or breaks a rule a server MUST follow (H7, A6, A11): no
    /// `resources`, a URI that does not end in `/<name>/SKILL.md`, a malformed digest or size,
    /// a file outside the skill, a duplicate URI, no item for the `SKILL.md` itself. An
    /// invalid entry is never loaded.
    InvalidEntry,
    /// More than 512 files or more than 16 MiB in one skill (H8), from the entry alone, or
    /// (for a `"dynamic"` skill) in what was actually retrieved.
    LimitExceeded,
    /// A URI that the held entry does not list (H16): treated like a digest mismatch and
    /// never fetched.
    NotInManifest,
    /// The content's byte length differs from the entry's `size` (H11).
    SizeMismatch,
    /// The content's SHA-256 differs from the entry's `digest` (H11).
    DigestMismatch,
    /// The `SKILL.md` frontmatter differs from the entry's `frontmatter` (H14).
    FrontmatterMismatch,
    /// The `SKILL.md` has no readable frontmatter (no fences, bad YAML, a construct that YAML
    /// readers disagree on, not UTF-8).
    FrontmatterInvalid,
    /// A `resources/read` result that is not exactly one `text` or strict base64 `blob`
    /// item for the requested URI, or that is not complete.
    InvalidReadResult,
    /// A reference that leaves the skill root, or an absolute URI outside it (A3).
    EscapesRoot,
    /// A reference that cannot be resolved at all (empty, backslash, control character, a `:`
    /// in its first segment without a valid scheme before it).
    InvalidReference,
    /// The entry's `resources` is `"dynamic"` and the operation needs a manifest (content
    /// verification, approval binding), or the host does not accept dynamic skills.
    DynamicNotAllowed,
    /// A supporting-file read for a skill that is not loaded: no acting window is open (H15,
    /// H21).
    NoActingWindow,
    /// The host requires an approval for this skill and none matches its current entry (H30).
    NotApproved,
    /// No server with this host-assigned label.
    UnknownServer,
    /// No skill with this URI is registered for this server.
    UnknownSkill,
    /// An argument that is not what the function takes (an unknown option, a label already
    /// in use, JSON that cannot be read).
    InvalidArgument,
    /// A skill archive of a well-known source that is not a well-formed `.tar.gz` or `.zip`
    /// this reader accepts (a bad header, checksum or CRC-32, truncation, data after the end, an
    /// unknown entry type or method, a member name the compiler would refuse, no `SKILL.md` at
    /// the root). `field` names the member, `actual` the rule broken.
    ArchiveInvalid,
    /// A skill archive with something no client may unpack (Agent Skills Discovery RFC v0.2.0
    /// §Archive Safety): `..`, an absolute path, a link, a device, a path given twice,
    /// overlapping zip members. `field` names the member, `actual` the rule broken.
    ArchiveUnsafe,
    /// A well-known index whose `$schema` is not one this reader knows: it is not read (RFC
    /// v0.2.0 §Versioning: warn and do not process).
    UnknownSchema,
    /// A signed skill whose signature does not hold: the envelope is malformed, does not
    /// verify under the signer's key (a changed payload, payload type, signature or key id),
    /// names a key the host cannot check it with, or states other files, digests, another
    /// skill, revision or file count than the entry (or the artifact) it came with. The
    /// skill is refused whatever the policy (`host::signature`).
    SignatureInvalid,
    /// The host's trust list is in force and the skill is unsigned, or signed by no key
    /// the list holds (`actual` names the key ids the envelope gives).
    SignerUntrusted,
    /// The skill's origin is pinned to a signer (trust on first use, or pins the host
    /// imported) and the skill is unsigned, or signed by another key or for another catalog
    /// identity; `expected` and `actual` hold the pinned and the presented signer. Refused
    /// until the host accepts the change ([`crate::host::SkillHost::accept_signer_change`]).
    SignerChanged,
}

impl ErrorCode {
    /// Every code, in declaration order.
    pub const ALL: [ErrorCode; 22] = [
        ErrorCode::InvalidEntry,
        ErrorCode::LimitExceeded,
        ErrorCode::NotInManifest,
        ErrorCode::SizeMismatch,
        ErrorCode::DigestMismatch,
        ErrorCode::FrontmatterMismatch,
        ErrorCode::FrontmatterInvalid,
        ErrorCode::InvalidReadResult,
        ErrorCode::EscapesRoot,
        ErrorCode::InvalidReference,
        ErrorCode::DynamicNotAllowed,
        ErrorCode::NoActingWindow,
        ErrorCode::NotApproved,
        ErrorCode::UnknownServer,
        ErrorCode::UnknownSkill,
        ErrorCode::InvalidArgument,
        ErrorCode::ArchiveInvalid,
        ErrorCode::ArchiveUnsafe,
        ErrorCode::UnknownSchema,
        ErrorCode::SignatureInvalid,
        ErrorCode::SignerUntrusted,
        ErrorCode::SignerChanged,
    ];

    /// The stable kebab-case code.
    ///
    /// ```
    /// use skills_edge::host::ErrorCode;
    /// assert_eq!(ErrorCode::DigestMismatch.as_str(), "digest-mismatch");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidEntry => "invalid-entry",
            ErrorCode::LimitExceeded => "limit-exceeded",
            ErrorCode::NotInManifest => "not-in-manifest",
            ErrorCode::SizeMismatch => "size-mismatch",
            ErrorCode::DigestMismatch => "digest-mismatch",
            ErrorCode::FrontmatterMismatch => "frontmatter-mismatch",
            ErrorCode::FrontmatterInvalid => "frontmatter-invalid",
            ErrorCode::InvalidReadResult => "invalid-read-result",
            ErrorCode::EscapesRoot => "escapes-root",
            ErrorCode::InvalidReference => "invalid-reference",
            ErrorCode::DynamicNotAllowed => "dynamic-not-allowed",
            ErrorCode::NoActingWindow => "no-acting-window",
            ErrorCode::NotApproved => "not-approved",
            ErrorCode::UnknownServer => "unknown-server",
            ErrorCode::UnknownSkill => "unknown-skill",
            ErrorCode::InvalidArgument => "invalid-argument",
            ErrorCode::ArchiveInvalid => "archive-invalid",
            ErrorCode::ArchiveUnsafe => "archive-unsafe",
            ErrorCode::UnknownSchema => "unknown-schema",
            ErrorCode::SignatureInvalid => "signature-invalid",
            ErrorCode::SignerUntrusted => "signer-untrusted",
            ErrorCode::SignerChanged => "signer-changed",
        }
    }
}

impl ErrorCode {
    /// The code of its kebab-case name ([`ErrorCode::as_str`]).
    ///
    /// ```
    /// use skills_edge::host::ErrorCode;
    /// assert_eq!(ErrorCode::from_name("not-approved"), Some(ErrorCode::NotApproved));
    /// // An exchange failure is the client's (`skills_edge::client::ExchangeKind`).
    /// assert_eq!(ErrorCode::from_name("timeout"), None);
    /// assert_eq!(ErrorCode::from_name("nope"), None);
    /// ```
    #[cfg(any(test, feature = "internals"))]
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn from_name(name: &str) -> Option<ErrorCode> {
        ErrorCode::ALL.into_iter().find(|c| c.as_str() == name)
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A refusal of the host rules: [`ErrorCode`] and the details of [`Failure`].
///
/// ```
/// use skills_edge::host::{Entry, ErrorCode, VerifyError};
/// fn description(json: &str) -> Result<String, VerifyError> {
///     Ok(Entry::parse(json)?.description().to_owned())
/// }
/// let e = description(r#"{"uri":"skill://a/SKILL.md","frontmatter":{"name":"b","description":"d"},"resources":"dynamic"}"#).unwrap_err();
/// assert_eq!(e.code, ErrorCode::InvalidEntry);
/// assert_eq!((e.expected.as_deref(), e.actual.as_deref()), (Some("b"), Some("a")));
/// assert!(e.to_string().ends_with("must equal `frontmatter.name` \"b\" [invalid-entry]"));
/// ```
pub type VerifyError = Failure<ErrorCode>;

/// A failure with its details: the code, the URI it concerns, the expected and actual values
/// (as text), and a sentence for people. (The optional details are boxed strings to keep
/// `Result`s small.) The host rules' refusal is [`VerifyError`] (`Failure<ErrorCode>`); the
/// client's error, which also carries exchange failures, is
/// [`ClientError`](crate::client::ClientError) (`Failure<ClientCode>`): one shape of details
/// and one set of builders for both.
///
/// ```
/// use skills_edge::host::{verify_bytes, Entry, ErrorCode, Failure, Hashing, VerifyOptions};
/// use skills_edge::client::{ClientCode, ClientError};
/// # let entry = Entry::parse(r#"{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},
/// #   "resources":[{"uri":"skill://a/SKILL.md","size":1,
/// #   "digest":"sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"}]}"#).unwrap();
/// let refused: Failure<ErrorCode> =
///     verify_bytes(&entry, "skill://a/SKILL.md", b"ab", Hashing::Here, VerifyOptions::default()).unwrap_err();
/// assert_eq!((refused.code, refused.uri.as_deref()), (ErrorCode::SizeMismatch, Some("skill://a/SKILL.md")));
/// assert_eq!((refused.expected.as_deref(), refused.actual.as_deref()), (Some("1"), Some("2")));
/// // The client's error keeps every detail under its own code.
/// let client: Failure<ClientCode> = ClientError::from(refused.clone());
/// assert_eq!((client.code.as_str(), client.message), ("size-mismatch", refused.message));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure<C> {
    /// The stable code.
    pub code: C,
    /// The URI concerned (a file, a skill, or a reference), when there is one.
    pub uri: Option<Box<str>>,
    /// What the entry (or the rule, or the exchange) says: a size in decimal, a digest, a
    /// frontmatter value as JSON, a limit, an HTTP status.
    pub expected: Option<Box<str>>,
    /// What was found instead, in the same form as `expected`.
    pub actual: Option<Box<str>>,
    /// For frontmatter errors, the path of the first differing field (`description`,
    /// `metadata.version`, `allowed-tools[1]`; a key with `.`, `[`, `]`, `"`, `\`, blanks or
    /// control characters is written as a JSON string in brackets: `metadata["io.x/k"]`). For
    /// limit errors, what was counted.
    pub field: Option<Box<str>>,
    /// For frontmatter errors, the path of every differing field, in the order found (the
    /// first is `field`; at most 32). Empty otherwise.
    pub differences: Box<[String]>,
    /// What is wrong, in a sentence.
    pub message: String,
}

impl<C> Failure<C> {
    /// A failure with a code and a message, and nothing else yet.
    pub fn new(code: C, message: impl Into<String>) -> Failure<C> {
        Failure {
            code,
            uri: None,
            expected: None,
            actual: None,
            field: None,
            differences: Box::default(),
            message: message.into(),
        }
    }

    /// The same details under another code (a refusal of the host rules passed on as the
    /// client's error keeps everything).
    pub(crate) fn recode<D>(self, code: impl FnOnce(C) -> D) -> Failure<D> {
        Failure {
            code: code(self.code),
            uri: self.uri,
            expected: self.expected,
            actual: self.actual,
            field: self.field,
            differences: self.differences,
            message: self.message,
        }
    }

    /// Sets the URI.
    pub(crate) fn with_uri(mut self, uri: impl Into<String>) -> Failure<C> {
        self.uri = Some(uri.into().into_boxed_str());
        self
    }

    /// Sets the expected and actual values.
    pub fn with_values(self, expected: impl Into<String>, actual: impl Into<String>) -> Failure<C> {
        self.with_expected(expected).with_actual(actual)
    }

    /// Sets the expected value.
    pub(crate) fn with_expected(mut self, expected: impl Into<String>) -> Failure<C> {
        self.expected = Some(expected.into().into_boxed_str());
        self
    }

    /// Sets the actual value.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn with_actual(mut self, actual: impl Into<String>) -> Failure<C> {
        self.actual = Some(actual.into().into_boxed_str());
        self
    }

    /// Sets the field path.
    pub(crate) fn with_field(mut self, field: impl Into<String>) -> Failure<C> {
        self.field = Some(field.into().into_boxed_str());
        self
    }
}

impl<C: fmt::Display> fmt::Display for Failure<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} [{}]", self.message, self.code)
    }
}

impl<C: fmt::Debug + fmt::Display> std::error::Error for Failure<C> {}

/// Shorthand for results of this module.
pub type Result<T, E = VerifyError> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_kebab_case() {
        let mut seen = std::collections::HashSet::new();
        for c in ErrorCode::ALL {
            let s = c.as_str();
            assert!(seen.insert(s), "{s}");
            assert!(s
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'));
            assert_eq!(c.to_string(), s);
        }
    }

    #[test]
    fn display_names_the_code() {
        let e = VerifyError::new(ErrorCode::SizeMismatch, "size differs")
            .with_uri("skill://a/SKILL.md")
            .with_values("1", "2");
        assert_eq!(e.to_string(), "size differs [size-mismatch]");
        assert_eq!(e.expected.as_deref(), Some("1"));
    }
}
