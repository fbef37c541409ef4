//! Skill names against the Agent Skills rule `^[a-z0-9]+(-[a-z0-9]+)*$`, at most 64 characters.

use skills_edge::skill::name::{check_name, NameError};

#[test]
fn conformance_vectors() {
    for ok in ["a", "a1", "code-review", "x-1-y", &"a".repeat(64)] {
        assert_eq!(check_name(ok), Ok(()), "{ok}");
    }
    let bad: &[(&str, NameError)] = &[
        ("", NameError::Empty),
        ("pdf--processing", NameError::BadHyphen),
        ("-pdf", NameError::BadHyphen),
        ("pdf-", NameError::BadHyphen),
        ("PDF", NameError::BadChar),
        ("pdf_processing", NameError::BadChar),
        ("café", NameError::BadChar),
    ];
    for (name, err) in bad {
        assert_eq!(check_name(name), Err(*err), "{name}");
    }
    assert_eq!(check_name(&"a".repeat(65)), Err(NameError::TooLong));
}
