//! Who signed a skill and how the host's policy anchors the key: [`SignerTrust`], [`Signer`]
//! and [`SignerPolicy`] (the module above holds the checks and the pins).

use serde::Serialize;

use super::PublicKey;

/// How a verified signer is anchored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SignerTrust {
    /// The key is in the host's trust list.
    Trusted,
    /// The origin was pinned to this key and catalog before (by trust on first use, or a pin
    /// the host imported).
    Pinned,
    /// This signature pinned the origin: the first signature from it that held (or the first
    /// after the host accepted a change).
    FirstUse,
    /// The signature holds under the key the server announced, which no trust list or pin
    /// vouches for (the default policy: reported, not required).
    Announced,
}

impl SignerTrust {
    /// `trusted`, `pinned`, `first-use` or `announced`.
    pub fn as_str(self) -> &'static str {
        match self {
            SignerTrust::Trusted => "trusted",
            SignerTrust::Pinned => "pinned",
            SignerTrust::FirstUse => "first-use",
            SignerTrust::Announced => "announced",
        }
    }
}

/// The signer of a skill whose signature holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signer {
    /// The key's id: its RFC 7638 thumbprint.
    pub key_id: String,
    /// The catalog identity the statement gives.
    pub catalog: String,
    /// How the policy anchored the key.
    pub trust: SignerTrust,
}

impl Signer {
    /// `catalog (key XXXXXXXX…, trust)`, or `key XXXXXXXX… (trust)` when the catalog identity is
    /// the key's id (a catalog built without a name): a short form for tables and messages.
    #[cfg_attr(not(feature = "command"), allow(dead_code))]
    pub(crate) fn describe(&self) -> String {
        let short: String = self.key_id.chars().take(8).collect();
        if self.catalog == self.key_id {
            format!("key {short}… ({})", self.trust.as_str())
        } else {
            format!("{} (key {short}…, {})", self.catalog, self.trust.as_str())
        }
    }
}

/// The host's signer policy (see the module documentation).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SignerPolicy {
    /// The trust list: with any key here, every skill must be signed by one of them.
    pub trusted: Vec<PublicKey>,
    /// Pin each origin to the first signer seen from it.
    pub trust_on_first_use: bool,
}

impl SignerPolicy {
    /// Whether the policy requires every skill to be signed (a trust list is given).
    pub(crate) fn requires_signature(&self) -> bool {
        !self.trusted.is_empty()
    }

    /// Whether the run has a trust list at all: keys to trust, or pins on first use.
    #[cfg(feature = "command")]
    pub(crate) fn has_trust(&self) -> bool {
        self.requires_signature() || self.trust_on_first_use
    }
}
