//! The frontmatter error: what went wrong as a stable rule id, where, and what to write
//! instead.

use std::fmt;

/// What went wrong, as a stable rule (see [`FrontmatterErrorKind::rule`]).
///
/// ```
/// use skills_edge::skill::frontmatter::{parse_file_strict, FrontmatterErrorKind};
/// let e = parse_file_strict("---\nname: a\nname: b\n---\n").unwrap_err();
/// assert_eq!(e.kind, FrontmatterErrorKind::DuplicateKey);
/// assert_eq!(e.kind.rule(), "frontmatter-duplicate-key");
/// let e = parse_file_strict("name: a\n").unwrap_err();
/// assert_eq!(e.kind, FrontmatterErrorKind::MissingOpeningFence);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FrontmatterErrorKind {
    /// The file does not start with a `---` line.
    MissingOpeningFence,
    /// The file starts with a UTF-8 byte order mark (strict delimiters only).
    ByteOrderMark,
    /// No closing `---` line after the opening fence.
    MissingClosingFence,
    /// The closing fence directly follows the opening fence (strict delimiters only).
    EmptyBlock,
    /// A `---` line with trailing spaces or tabs inside the block: lenient readers end the block
    /// there, strict ones do not (strict delimiters only).
    AmbiguousFence,
    /// The YAML is not well-formed.
    Syntax,
    /// A raw character that YAML forbids, or that YAML 1.1 reads as a line break.
    ForbiddenCharacter,
    /// More than one YAML document.
    MultipleDocuments,
    /// A `---` document marker inside the block.
    DocumentMarker,
    /// A `%YAML` or `%TAG` directive.
    Directive,
    /// The frontmatter is not a mapping (object).
    NotAMapping,
    /// The same key twice in one mapping.
    DuplicateKey,
    /// An explicit tag (`!!str`, `!!binary`, `!foo`, `!`).
    Tag,
    /// A mapping key that is not a string (number, boolean, null, sequence or mapping).
    NonStringKey,
    /// `.inf`, `.nan`, or a float that overflows to infinity.
    NonFiniteNumber,
    /// An integer outside ±(2^53 − 1), which JavaScript cannot hold exactly.
    UnsafeInteger,
    /// A decimal integer with a leading zero (`007`): YAML 1.1 reads octal or a string.
    LeadingZeroInteger,
    /// A plain scalar that YAML 1.1 readers type differently than YAML 1.2.
    Yaml11Ambiguous,
    /// The YAML 1.1 merge key `<<`.
    MergeKey,
    /// Too many aliases, or aliases that expand too much.
    AliasLimit,
    /// An alias inside the very node its anchor names (a cycle).
    RecursiveAlias,
    /// Sequences and mappings nested deeper than [`MAX_DEPTH`](super::MAX_DEPTH).
    TooDeep,
    /// Well-formed (or nearly) YAML that `yaml@2` and the YAML spec read differently: an
    /// under-indented continuation line, a blank line holding a tab or extra spaces in a block
    /// scalar, an escaped line break before an empty line, an unquoted value starting with an
    /// indicator, an anchor glued to a bracket, a key over
    /// `MAX_KEY_UTF16` or on several lines.
    Unportable,
    /// More than `MAX_YAML_BYTES` of YAML.
    TooLarge,
}

impl FrontmatterErrorKind {
    /// A stable kebab-case rule id, e.g. `"frontmatter-duplicate-key"`.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn rule(&self) -> &'static str {
        use FrontmatterErrorKind as K;
        match self {
            K::MissingOpeningFence => "frontmatter-missing-opening-fence",
            K::ByteOrderMark => "frontmatter-byte-order-mark",
            K::MissingClosingFence => "frontmatter-missing-closing-fence",
            K::EmptyBlock => "frontmatter-empty-block",
            K::AmbiguousFence => "frontmatter-ambiguous-fence",
            K::Syntax => "frontmatter-yaml-syntax",
            K::ForbiddenCharacter => "frontmatter-forbidden-character",
            K::MultipleDocuments => "frontmatter-multiple-documents",
            K::DocumentMarker => "frontmatter-document-marker",
            K::Directive => "frontmatter-directive",
            K::NotAMapping => "frontmatter-not-a-mapping",
            K::DuplicateKey => "frontmatter-duplicate-key",
            K::Tag => "frontmatter-tag",
            K::NonStringKey => "frontmatter-non-string-key",
            K::NonFiniteNumber => "frontmatter-non-finite-number",
            K::UnsafeInteger => "frontmatter-unsafe-integer",
            K::LeadingZeroInteger => "frontmatter-leading-zero-integer",
            K::Yaml11Ambiguous => "frontmatter-yaml11-ambiguous",
            K::MergeKey => "frontmatter-merge-key",
            K::AliasLimit => "frontmatter-alias-limit",
            K::RecursiveAlias => "frontmatter-recursive-alias",
            K::TooDeep => "frontmatter-too-deep",
            K::Unportable => "frontmatter-unportable-yaml",
            K::TooLarge => "frontmatter-too-large",
        }
    }

    /// Every kind, in declaration order (for tests and documentation).
    #[cfg(any(test, feature = "internals"))]
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) const ALL: [FrontmatterErrorKind; 24] = {
        use FrontmatterErrorKind as K;
        [
            K::MissingOpeningFence,
            K::ByteOrderMark,
            K::MissingClosingFence,
            K::EmptyBlock,
            K::AmbiguousFence,
            K::Syntax,
            K::ForbiddenCharacter,
            K::MultipleDocuments,
            K::DocumentMarker,
            K::Directive,
            K::NotAMapping,
            K::DuplicateKey,
            K::Tag,
            K::NonStringKey,
            K::NonFiniteNumber,
            K::UnsafeInteger,
            K::LeadingZeroInteger,
            K::Yaml11Ambiguous,
            K::MergeKey,
            K::AliasLimit,
            K::RecursiveAlias,
            K::TooDeep,
            K::Unportable,
            K::TooLarge,
        ]
    };

    /// The kind whose [`rule`](Self::rule) is `rule`, or whose variant name is `rule`
    /// (`"DuplicateKey"`), if any.
    #[cfg(any(test, feature = "internals"))]
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn from_rule(rule: &str) -> Option<FrontmatterErrorKind> {
        Self::ALL
            .iter()
            .copied()
            .find(|k| k.rule() == rule || format!("{k:?}") == rule)
    }
}

/// A frontmatter that cannot be published or verified: what, where, and what to write instead.
///
/// ```
/// use skills_edge::skill::frontmatter::{parse_file_strict, FrontmatterErrorKind};
/// let e = parse_file_strict("---\nname: hello\nenabled: yes\n---\n").unwrap_err();
/// assert_eq!((e.kind, e.line), (FrontmatterErrorKind::Yaml11Ambiguous, Some(3)));
/// assert!(e.to_string().starts_with("line 3: "));
/// assert!(e.to_string().contains("[frontmatter-yaml11-ambiguous] (fix: "));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrontmatterError {
    /// The rule that was broken.
    pub kind: FrontmatterErrorKind,
    /// 1-based line (of the file for `parse_file_*` and `split_*`, of the YAML text for
    /// `parse_yaml`), when the problem has one.
    pub line: Option<usize>,
    /// What is wrong, naming the offending text.
    pub message: String,
    /// What to write instead.
    pub fix: String,
}

impl FrontmatterError {
    /// An error of `kind` at `line` (1-based, if any): what is wrong and what to write instead.
    pub(super) fn new(
        kind: FrontmatterErrorKind,
        line: Option<usize>,
        message: impl Into<String>,
        fix: impl Into<String>,
    ) -> Self {
        FrontmatterError {
            kind,
            line,
            message: message.into(),
            fix: fix.into(),
        }
    }
}

impl fmt::Display for FrontmatterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(line) = self.line {
            write!(f, "line {line}: ")?;
        }
        write!(
            f,
            "{} [{}] (fix: {})",
            self.message,
            self.kind.rule(),
            self.fix
        )
    }
}

impl std::error::Error for FrontmatterError {}

/// The result of every step of the reader.
pub(super) type Result<T, E = FrontmatterError> = std::result::Result<T, E>;

/// `s` cut to at most `max` characters (`…` marks a cut), for quoting input in messages.
pub(super) fn truncate(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}
