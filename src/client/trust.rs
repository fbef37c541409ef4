//! What a [`SkillsClient`] keeps of its server's signer and of the user's approvals: its
//! registry's origin, pins and approvals, for this client's server. A Rust host reaches
//! the registry with [`SkillsClient::host`]; the npm package and the command use the
//! shorthands below.

use super::{Result, SkillsClient};
use crate::host::approval::ApprovalsExport;
use crate::host::error::{ErrorCode, VerifyError};
#[cfg(doc)]
use crate::host::SkillHost;

impl SkillsClient {
    /// Sets the origin the server's signer is pinned under ([`SkillHost::set_origin`]; the
    /// label until set). A client connected to a URL sets the URL's origin.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    #[cfg_attr(not(feature = "command"), allow(dead_code))]
    pub(crate) fn set_origin(&self, origin: &str) -> Result<()> {
        self.with(|s| s.host.set_origin(&s.label, origin))??;
        Ok(())
    }

    /// The origin the server's signer is pinned under.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    #[cfg_attr(not(feature = "js"), allow(dead_code))]
    pub(crate) fn origin(&self) -> String {
        self.with(|s| s.host.origin(&s.label).map(str::to_owned))
            .ok()
            .flatten()
            .unwrap_or_default()
    }

    /// The pins as JSON, for persisting ([`SkillHost::export_pins`]).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    #[cfg_attr(not(feature = "js"), allow(dead_code))]
    pub(crate) fn export_pins(&self) -> Result<String> {
        self.with(|s| s.host.export_pins())
    }

    /// Restores exported pins ([`SkillHost::import_pins`]); returns how many were read.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    #[cfg_attr(not(feature = "js"), allow(dead_code))]
    pub(crate) fn import_pins(&self, json: &str) -> Result<usize> {
        Ok(self.with(|s| s.host.import_pins(json))??)
    }

    /// Accepts a change of the server's signer ([`SkillHost::accept_signer_change`] for its
    /// origin): list or get the skills again to register them under the new signer (cached
    /// results are registered again too, and checked anew). Returns whether the origin had a
    /// pin.
    pub fn accept_signer_change(&self) -> Result<bool> {
        self.with(|s| {
            let origin = s.host.origin(&s.label).unwrap_or(&s.label).to_owned();
            s.host.accept_signer_change(&origin)
        })
    }

    /// The approvals of this client's registry as JSON text, for persisting
    /// ([`SkillHost::export_approvals`]): each carries the server's label, its identity.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    #[cfg_attr(not(feature = "js"), allow(dead_code))]
    pub(crate) fn export_approvals(&self) -> Result<String> {
        self.with(|s| s.host.export_approvals())
    }

    /// Restores approvals exported by a client of the same server
    /// ([`SkillHost::import_approvals`]); returns how many were stored. An export holding an
    /// approval of another server (another label) is refused whole with `invalid-argument`
    /// and nothing is stored: an approval is the user's consent to one server's skill (H22,
    /// H30), and a client of another server must not count it.
    pub fn import_approvals(&self, json: &str) -> Result<usize> {
        let export = ApprovalsExport::parse(json)?;
        self.with(|s| {
            if let Some(other) = export.approvals.iter().find(|a| a.server != s.label) {
                return Err(VerifyError::new(
                    ErrorCode::InvalidArgument,
                    format!(
                        "the approvals were exported for the server {:?} ({}), and this client's server is {:?}: an approval holds for the server it was given for only, so nothing was imported",
                        other.server, other.uri, s.label
                    ),
                )
                .with_values(s.label.clone(), other.server.clone())
                .into());
            }
            Ok(s.host.import_approvals(json)?)
        })?
    }
}
