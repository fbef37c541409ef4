//! Signer policy and origins: who may sign each server's skills, and the signer verified for each.

use super::*;

impl SkillHost {
    /// Sets the signer policy: a trust list and/or trust on first use. It applies to the
    /// entries registered from now on; the pins stay.
    pub fn set_signer_policy(&mut self, policy: SignerPolicy) {
        self.signers.set_policy(policy);
    }

    /// Sets the origin of server `label`: the name its signer is pinned under (the label until
    /// set; a client sets the server's URL origin, so that pins persist across labels and
    /// runs). 1 to 2048 bytes, no control characters; [`ErrorCode::InvalidArgument`] or
    /// [`ErrorCode::UnknownServer`] otherwise.
    pub fn set_origin(&mut self, label: &str, origin: &str) -> Result<()> {
        if origin.is_empty()
            || origin.len() > crate::host::signature::MAX_ORIGIN_LEN
            || origin.chars().any(char::is_control)
        {
            return Err(VerifyError::new(
                ErrorCode::InvalidArgument,
                format!("the origin {origin:?} must be 1 to 2048 bytes without control characters"),
            ));
        }
        self.server_mut(label)?.origin = crate::host::index::canonical_origin(origin);
        Ok(())
    }

    /// The origin of server `label` ([`SkillHost::set_origin`]).
    pub fn origin(&self, label: &str) -> Option<&str> {
        self.server(label).ok().map(|s| s.origin.as_str())
    }

    /// The signer verified for the registered entry of a skill (`None`: unsigned, or not
    /// registered).
    pub fn signer(&self, label: &str, uri: &str) -> Option<&Signer> {
        self.skill(label, uri)?.signer.as_ref()
    }

    /// The signer policy and the pins, to hand to a check outside the registry (a well-known
    /// source's artifacts).
    #[cfg(feature = "command")]
    pub(crate) fn signers(&self) -> &Signers {
        &self.signers
    }

    /// The signer policy and the pins, mutable ([`SkillHost::signers`]); used by the command
    /// and the npm package, which set them from their options.
    #[cfg(any(feature = "command", feature = "web-verifier"))]
    pub(crate) fn signers_mut(&mut self) -> &mut Signers {
        &mut self.signers
    }
}
