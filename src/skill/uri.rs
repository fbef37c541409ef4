//! Skill URIs (SEP-2640 §Resource Mapping, §Relative References; open points A2–A5).
//!
//! Published URIs have the form `skill://<skill-path>/<file-path>`. Every segment is limited
//! to the RFC 3986 unreserved set `[A-Za-z0-9._~-]` (never `.` or `..`, never empty), so a
//! published URI needs no percent-encoding, its first segment is a valid `reg-name`, and
//! URIs can be compared as exact strings on both sides, with no decoding or case folding.

/// The scheme this server publishes under.
pub const SCHEME: &str = "skill://";

/// The file name that makes a directory a skill.
pub const SKILL_MD: &str = "SKILL.md";

/// Why a path segment cannot be published.
///
/// ```
/// use skills_edge::skill::uri::{check_segment, SegmentError};
/// assert_eq!(check_segment(""), Err(SegmentError::Empty));
/// let e = check_segment("café.md").unwrap_err();
/// assert_eq!(e, SegmentError::BadChar('é'));
/// assert_eq!(e.describe(), "the character 'é' is not allowed in a path segment (only A-Z a-z 0-9 . _ ~ -)");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SegmentError {
    /// An empty segment (`a//b`).
    Empty,
    /// `.` or `..`.
    Dot,
    /// A character outside `[A-Za-z0-9._~-]`.
    BadChar(char),
}

impl SegmentError {
    /// A human sentence: what is wrong.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn describe(self) -> String {
        match self {
            SegmentError::Empty => "the path has an empty segment".into(),
            SegmentError::Dot => "the path has a `.` or `..` segment".into(),
            SegmentError::BadChar(c) => format!(
                "the character {c:?} is not allowed in a path segment (only A-Z a-z 0-9 . _ ~ -)"
            ),
        }
    }
}

/// Checks one path segment against `[A-Za-z0-9._~-]+`, excluding `.` and `..`.
///
/// ```
/// use skills_edge::skill::uri::{check_segment, SegmentError};
/// assert!(check_segment("eu-invoice_v2.md").is_ok());
/// assert_eq!(check_segment(".."), Err(SegmentError::Dot));
/// assert_eq!(check_segment("a b"), Err(SegmentError::BadChar(' ')));
/// ```
pub fn check_segment(seg: &str) -> Result<(), SegmentError> {
    if seg.is_empty() {
        return Err(SegmentError::Empty);
    }
    if seg == "." || seg == ".." {
        return Err(SegmentError::Dot);
    }
    match seg
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '~' | '-')))
    {
        Some(c) => Err(SegmentError::BadChar(c)),
        None => Ok(()),
    }
}

/// The spelling under which two published paths (or two segments) name one file on a
/// case-insensitive file system, such as macOS's and Windows's defaults: the path with its ASCII
/// letters lowercased. Every published segment is ASCII ([`check_segment`]), and those file
/// systems fold ASCII letters alike, so two checked paths are one file there exactly when their
/// folds are equal. The one rule for both sides: the compiler refuses two paths of one skill
/// that fold alike (`case-collision`), and the host's archive reader refuses an archive that
/// holds two.
///
/// ```
/// use skills_edge::skill::uri::fold_case;
/// assert_eq!(fold_case("References/Guide.MD"), fold_case("references/guide.md"));
/// assert_ne!(fold_case("guide-1.md"), fold_case("guide_1.md"));
/// ```
pub fn fold_case(path: &str) -> String {
    path.to_ascii_lowercase()
}

/// The skill root of a `SKILL.md` URI: the URI without `/SKILL.md`, no trailing slash.
/// `None` when `uri` does not end in `/SKILL.md` or nothing precedes it.
///
/// ```
/// use skills_edge::skill::uri::skill_root;
/// assert_eq!(skill_root("skill://acme/billing/refunds/SKILL.md"), Some("skill://acme/billing/refunds"));
/// assert_eq!(skill_root("skill://SKILL.md"), None);
/// ```
pub fn skill_root(skill_md_uri: &str) -> Option<&str> {
    let root = skill_md_uri.strip_suffix("/SKILL.md")?;
    let last = final_segment(root);
    if last.is_empty() || last.ends_with(':') || root.ends_with('/') {
        return None;
    }
    // `skill://SKILL.md` strips to `skill:/`; require something after the scheme separator.
    match root.find("://") {
        Some(i) if root.len() > i + 3 => Some(root),
        Some(_) => None,
        None => Some(root),
    }
}

/// The last `/`-separated segment of `uri` (the whole string when it has no `/`).
pub fn final_segment(uri: &str) -> &str {
    uri.rsplit('/').next().unwrap_or(uri)
}

/// Whether `uri` lies inside the skill directory `root` (`root/…`), compared as exact
/// strings. The separator is part of the test, so `skill://code-review-extra/x` is not
/// inside `skill://code-review`.
#[cfg_attr(feature = "internals", visibility::make(pub))]
pub(crate) fn is_inside(root: &str, uri: &str) -> bool {
    uri.len() > root.len() + 1 && uri.starts_with(root) && uri.as_bytes()[root.len()] == b'/'
}

/// Whether `s` is a URI scheme as RFC 3986 §3.1 defines it:
/// `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`, so a letter first and at least one character.
/// Only the syntax is checked (schemes compare case-insensitively; none is looked up).
///
/// ```
/// use skills_edge::skill::uri::is_scheme;
/// assert!(is_scheme("skill"));
/// assert!(is_scheme("git+ssh"));
/// assert!(is_scheme("C"));
/// assert!(!is_scheme("1ab")); // a digit first
/// assert!(!is_scheme(""));
/// assert!(!is_scheme("-x"));
/// assert!(!is_scheme("a_b"));
/// ```
pub fn is_scheme(s: &str) -> bool {
    let mut bytes = s.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
}

/// Why a relative reference cannot be resolved inside a skill.
///
/// ```
/// use skills_edge::skill::uri::{resolve_reference, ResolveError};
/// let root = "skill://hello";
/// assert_eq!(resolve_reference(root, "#top"), Err(ResolveError::Empty));
/// assert_eq!(resolve_reference(root, "/etc/passwd"), Err(ResolveError::EscapesRoot));
/// assert_eq!(resolve_reference(root, "skill://other/SKILL.md"), Err(ResolveError::OutsideRoot));
/// assert_eq!(resolve_reference(root, "a\\b.md"), Err(ResolveError::BadChar));
/// assert_eq!(resolve_reference(root, "skill://hello/a.md").unwrap(), "skill://hello/a.md");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResolveError {
    /// The reference is empty (after removing `?query` and `#fragment`).
    Empty,
    /// The reference is absolute (another scheme or another skill) and not inside the root.
    OutsideRoot,
    /// `..` segments climb above the skill root, or the reference starts with `/`.
    EscapesRoot,
    /// The reference contains a backslash or a control character, or a `:` in its first
    /// segment that does not end a scheme (`1ab:x`, `:x`), which RFC 3986 §4.2 allows in
    /// neither an absolute URI nor a relative-path reference.
    BadChar,
}

/// Resolves a relative reference found in a skill (for example a markdown link in `SKILL.md`)
/// against the skill root, as a filesystem path would (SEP-2640 §Relative References, A3):
/// `?query` and `#fragment` are dropped, empty and `.` segments are skipped, `..` climbs one
/// level, and a result that leaves the root is refused. An absolute URI (one that starts with
/// a scheme, see [`is_scheme`], and `:`) is accepted only when it already lies inside the root.
/// Nothing is percent-decoded.
///
/// A `:` in the first segment of a reference that is not preceded by a valid scheme (`1ab:x`,
/// `:x`, `a b:x`) is refused as [`ResolveError::BadChar`]: RFC 3986 §4.2 does not allow such a
/// segment at the start of a relative-path reference either, since readers would take what
/// precedes the colon for a scheme. Written after a `./` (`./1ab:x`), the colon is in a later
/// segment and the reference resolves as a path.
///
/// ```
/// use skills_edge::skill::uri::{resolve_reference, ResolveError};
/// let root = "skill://acme/billing/refunds";
/// assert_eq!(resolve_reference(root, "references/GUIDE.md#top").unwrap(),
///            "skill://acme/billing/refunds/references/GUIDE.md");
/// assert_eq!(resolve_reference(root, "./a/../b.md").unwrap(), "skill://acme/billing/refunds/b.md");
/// assert_eq!(resolve_reference(root, "../chargebacks/SKILL.md"), Err(ResolveError::EscapesRoot));
/// assert_eq!(resolve_reference(root, "https://example.com/x"), Err(ResolveError::OutsideRoot));
/// assert_eq!(resolve_reference(root, "1ab:x"), Err(ResolveError::BadChar));
/// ```
pub fn resolve_reference(root: &str, reference: &str) -> Result<String, ResolveError> {
    let cut = reference.find(['?', '#']).unwrap_or(reference.len());
    let reference = &reference[..cut];
    if reference.is_empty() {
        return Err(ResolveError::Empty);
    }
    if reference.chars().any(|c| c == '\\' || c.is_control()) {
        return Err(ResolveError::BadChar);
    }
    if let Some(colon) = reference.find(':') {
        // A `:` in the first segment: after a scheme it makes an absolute URI; after anything
        // else it is neither an absolute URI nor a relative-path reference (RFC 3986 §4.2).
        let before = &reference[..colon];
        if !before.contains('/') {
            if !is_scheme(before) {
                return Err(ResolveError::BadChar);
            }
            return if is_inside(root, reference) && !has_dot_segments(&reference[root.len()..]) {
                Ok(reference.to_owned())
            } else {
                Err(ResolveError::OutsideRoot)
            };
        }
    }
    if reference.starts_with('/') {
        return Err(ResolveError::EscapesRoot);
    }
    let mut stack: Vec<&str> = Vec::new();
    for seg in reference.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if stack.pop().is_none() {
                    return Err(ResolveError::EscapesRoot);
                }
            }
            s => stack.push(s),
        }
    }
    let mut out = String::with_capacity(root.len() + reference.len() + 1);
    out.push_str(root);
    for seg in stack {
        out.push('/');
        out.push_str(seg);
    }
    Ok(out)
}

fn has_dot_segments(path: &str) -> bool {
    path.split('/')
        .skip(1)
        .any(|s| s.is_empty() || s == "." || s == "..")
}
