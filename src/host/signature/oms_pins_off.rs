//! OMS key pins where no OMS check is compiled (the npm package's verifier module,
//! `skills-edge/verifier`, and the library without its `command` feature): none are held, so
//! an export holding any is refused rather than read and written back without them. The
//! pins' format and rules: `oms_pins.rs`, compiled where the OMS check is.

use crate::json::Node;

use super::Result;

/// No OMS pins.
#[derive(Debug, Clone, Default)]
pub(crate) struct OmsPins;

/// An OMS pin of an export: none is ever read here.
pub(super) enum OmsPinJson {}

/// The export's `omsPins`, which must be empty here.
pub(super) fn read_json(doc: &Node<'_>) -> std::result::Result<Vec<OmsPinJson>, String> {
    if doc.array_of("omsPins")?.is_empty() {
        return Ok(Vec::new());
    }
    Err("they hold OMS key pins (omsPins), which this build cannot enforce: it checks no OpenSSF Model Signing signature (skills-edge/verifier checks DSSE signers only); import them into SkillsClient (skills-edge/client), the main module's SkillHost or skills-edge verify --pins".into())
}

impl OmsPins {
    /// Nothing to accept.
    pub(super) fn accept(&mut self, _origin: &str) -> bool {
        false
    }

    /// `[]`.
    pub(super) fn write_json(&self, out: &mut String) {
        out.push_str("[]");
    }

    /// Nothing to check.
    pub(super) fn check(read: Vec<OmsPinJson>) -> Result<Vec<OmsPinJson>> {
        Ok(read)
    }

    /// Nothing to store.
    pub(super) fn extend(&mut self, _read: Vec<OmsPinJson>) {}
}
