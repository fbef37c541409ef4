//! Pinned signer keys (trust on first use): looking one up, accepting a change, export and import.

use super::*;

impl SkillHost {
    /// Accepts a change of signer for `origin` (`Signers::accept_signer_change`): its pin
    /// is dropped and the next signature from it that holds pins it again. Entries refused
    /// before must be registered again (listed or fetched anew). Returns whether it had a pin.
    pub fn accept_signer_change(&mut self, origin: &str) -> bool {
        self.signers.accept_signer_change(origin)
    }

    /// The pins as JSON, for persisting (`Signers::export_pins`).
    pub fn export_pins(&self) -> String {
        self.signers.export_pins()
    }

    /// Restores exported pins (`Signers::import_pins`); they apply to the entries
    /// registered from now on. Returns how many were read. [`ErrorCode::InvalidArgument`]
    /// when the JSON is not such an export (nothing is stored then).
    pub fn import_pins(&mut self, json: &str) -> Result<usize> {
        self.signers.import_pins(json)
    }
}
