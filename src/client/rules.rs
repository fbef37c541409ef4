//! What the client may send, and to whom (SEP-2640's host rules H1, H2, H12, H15, H22): the
//! declarations a request needs, the answers that say a skill is gone, and the default label
//! of a server at a URL.

use super::error::{ClientError, ExchangeKind, Result};
use super::ServerFacts;
use crate::host::error::{ErrorCode, VerifyError};
use crate::protocol::SKILLS_EXTENSION;

/// Refuses `method` unless the server declared what it needs (spec notes H1: "issue
/// `skills/list` and `skills/get` only after seeing the server's declaration"; H2: "MUST NOT
/// call `resources/directory/read` unless the server declared `directoryRead: true`").
/// `facts` is what the server said about itself (`None`: nothing observed yet, so nothing is
/// declared). Other methods pass. The refusal is `invalid-argument`, its `expected` the
/// declaration that is missing and its `actual` what was observed.
///
/// ```
/// use skills_edge::client::{check_declared, ServerFacts};
/// use skills_edge::protocol::Era;
/// let bare = ServerFacts::from_result(Era::Modern, "2026-07-28", &serde_json::json!({"capabilities": {"resources": {}}}));
/// let e = check_declared(Some(&bare), "skills/list").unwrap_err();
/// assert_eq!(e.expected.as_deref(), Some(r#"capabilities.extensions["io.modelcontextprotocol/skills"]"#));
/// let skills = ServerFacts::from_result(Era::Modern, "2026-07-28", &serde_json::json!({
///     "capabilities": {"extensions": {"io.modelcontextprotocol/skills": {}}}}));
/// assert!(check_declared(Some(&skills), "skills/get").is_ok());
/// assert!(check_declared(Some(&skills), "resources/directory/read").is_err());
/// assert!(check_declared(None, "skills/list").is_err());
/// assert!(check_declared(None, "resources/read").is_ok());
/// ```
pub fn check_declared(facts: Option<&ServerFacts>, method: &str) -> Result<()> {
    let skills = format!("capabilities.extensions[\"{SKILLS_EXTENSION}\"]");
    let (needed, rule) = match method {
        "skills/list" | "skills/get" => {
            if facts.is_some_and(ServerFacts::declares_skills) {
                return Ok(());
            }
            (
                skills,
                "a client issues skills/list and skills/get only after observing the server's declaration of the Skills extension",
            )
        }
        "resources/directory/read" => {
            if facts.is_some_and(ServerFacts::directory_read) {
                return Ok(());
            }
            (
                format!("{skills}.directoryRead: true"),
                "a client must not call resources/directory/read unless the server declared directoryRead: true; the skill's entry (its resources) lists its files",
            )
        }
        _ => return Ok(()),
    };
    let observed = if facts.is_some() {
        "not declared"
    } else {
        "no capabilities observed (connect first)"
    };
    Err(VerifyError::new(
        ErrorCode::InvalidArgument,
        format!("{method} was not sent: the server does not declare {needed} ({observed}); {rule}"),
    )
    .with_values(needed, observed)
    .into())
}

/// Whether the answer to a recovery `skills/get` says the skill is gone: a JSON-RPC error
/// `-32602` (SEP-2640 §Error Handling: `skills/get` for a skill the server does not serve) or
/// the legacy resource-not-found `-32002`. Anything else (`-32603`, a lost connection, a
/// timeout) says nothing about the skill, and its acting window stays open.
pub(crate) fn says_gone(e: &ClientError) -> bool {
    e.code == ExchangeKind::ServerError && matches!(e.actual.as_deref(), Some("-32602" | "-32002"))
}

pub use crate::host::index::server_label_of_url;
