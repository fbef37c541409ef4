//! Skill names (Agent Skills rules, SEP-2640 §Frontmatter; open point A12 decided as ASCII).
//!
//! A name is 1–64 characters of ASCII `a-z`, `0-9` and single hyphens, neither leading nor
//! trailing: `^[a-z0-9]+(-[a-z0-9]+)*$`. The Agent Skills text says "unicode lowercase
//! alphanumeric (`a-z`)"; the conformance suite and the reference SDK use ASCII, and an ASCII
//! name is always a valid URI path segment and `reg-name`, so this project uses ASCII.

use super::limits::MAX_NAME_LEN;

/// Why a name is not a valid skill name.
///
/// ```
/// use skills_edge::skill::name::{check_name, NameError};
/// assert_eq!(check_name(""), Err(NameError::Empty));
/// assert_eq!(check_name(&"a".repeat(65)), Err(NameError::TooLong));
/// let e = check_name("-pdf").unwrap_err();
/// assert_eq!(e, NameError::BadHyphen);
/// assert_eq!(e.describe(), "the name must not start or end with a hyphen or contain two hyphens in a row");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameError {
    /// The name is empty.
    Empty,
    /// Longer than `MAX_NAME_LEN` bytes.
    TooLong,
    /// A character outside `a-z`, `0-9`, `-`.
    BadChar,
    /// Starts or ends with `-`, or contains `--`.
    BadHyphen,
}

impl NameError {
    /// A human sentence: what is wrong.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn describe(self) -> &'static str {
        match self {
            NameError::Empty => "the name is empty",
            NameError::TooLong => "the name is longer than 64 characters",
            NameError::BadChar => {
                "the name may only contain lowercase ASCII letters a-z, digits 0-9 and hyphens"
            }
            NameError::BadHyphen => {
                "the name must not start or end with a hyphen or contain two hyphens in a row"
            }
        }
    }
}

/// Checks a skill name against `^[a-z0-9]+(-[a-z0-9]+)*$` and the 64-character limit.
///
/// ```
/// use skills_edge::skill::name::{check_name, NameError};
/// assert!(check_name("pdf-processing").is_ok());
/// assert_eq!(check_name("pdf--processing"), Err(NameError::BadHyphen));
/// assert_eq!(check_name("Pdf"), Err(NameError::BadChar));
/// ```
pub fn check_name(name: &str) -> Result<(), NameError> {
    let b = name.as_bytes();
    if b.is_empty() {
        return Err(NameError::Empty);
    }
    if !b
        .iter()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
    {
        return Err(NameError::BadChar);
    }
    if b.len() > MAX_NAME_LEN {
        return Err(NameError::TooLong);
    }
    if b[0] == b'-' || b[b.len() - 1] == b'-' || name.contains("--") {
        return Err(NameError::BadHyphen);
    }
    Ok(())
}
