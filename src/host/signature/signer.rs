//! Who signed a skill and how the host's policy anchors the key: [`SignerTrust`], [`Signer`]
//! and [`SignerPolicy`] (the module above holds the checks and the pins).

use serde::Serialize;

use super::PublicKey;

/// How a verified signer is anchored.
///
/// ```
/// # use skills_edge::catalog::sign::SigningKey;
/// use skills_edge::host::{trusted_key, Entry, HostOptions, SignerPolicy, SignerTrust, SkillHost};
/// # use skills_edge::catalog::sign::{Envelope, Statement, Subject};
/// # let signed = |key: &SigningKey, catalog: &str| {
/// #     let d = skills_edge::catalog::digest_of(b"x");
/// #     let mut e = serde_json::json!({"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},
/// #         "resources":[{"uri":"skill://a/SKILL.md","digest":d,"size":1}]});
/// #     let st = Statement { skill: "skill://a/SKILL.md".into(), revision: Entry::parse(&e.to_string()).unwrap().revision().unwrap(),
/// #         catalog: catalog.into(), subjects: vec![Subject { name: "skill://a/SKILL.md".into(), sha256: d[7..].into() }] };
/// #     let env: serde_json::Value = serde_json::from_str(&Envelope::sign(&st, key).to_json()).unwrap();
/// #     let signer: serde_json::Value = serde_json::from_str(&key.public().to_jwk()).unwrap();
/// #     e["_meta"] = serde_json::json!({"io.github.skills-edge/dsse": env, "io.github.skills-edge/signer": signer});
/// #     Entry::parse(&e.to_string()).unwrap()
/// # };
/// # let key = SigningKey::from_seed([3; 32]);
/// // `signed(&key, catalog)`: an entry a server published, signed with the publisher's key
/// // (`skills-edge keygen`, `pack --sign`).
/// let mut host = SkillHost::new(HostOptions::default());
/// host.add_server("docs").unwrap();
/// host.register("docs", signed(&key, "acme")).unwrap();
/// // Without a trust list, the key the server announced is only reported.
/// assert_eq!(host.signer("docs", "skill://a/SKILL.md").unwrap().trust, SignerTrust::Announced);
/// # let signing_pub = key.public().to_jwk();
/// // `signing_pub`: the publisher's public key file (`signing.pub`).
/// let trusted = trusted_key("acme's key", &signing_pub).unwrap();
/// host.set_signer_policy(SignerPolicy { trusted: vec![trusted], trust_on_first_use: false });
/// host.register("docs", signed(&key, "acme")).unwrap();
/// let trust = host.signer("docs", "skill://a/SKILL.md").unwrap().trust;
/// assert_eq!((trust, trust.as_str()), (SignerTrust::Trusted, "trusted"));
/// ```
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
///
/// ```
/// # use skills_edge::catalog::sign::SigningKey;
/// use skills_edge::host::{Entry, HostOptions, Signer, SignerTrust, SkillHost};
/// # use skills_edge::catalog::sign::{Envelope, Statement, Subject};
/// # let signed = |key: &SigningKey, catalog: &str| {
/// #     let d = skills_edge::catalog::digest_of(b"x");
/// #     let mut e = serde_json::json!({"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},
/// #         "resources":[{"uri":"skill://a/SKILL.md","digest":d,"size":1}]});
/// #     let st = Statement { skill: "skill://a/SKILL.md".into(), revision: Entry::parse(&e.to_string()).unwrap().revision().unwrap(),
/// #         catalog: catalog.into(), subjects: vec![Subject { name: "skill://a/SKILL.md".into(), sha256: d[7..].into() }] };
/// #     let env: serde_json::Value = serde_json::from_str(&Envelope::sign(&st, key).to_json()).unwrap();
/// #     let signer: serde_json::Value = serde_json::from_str(&key.public().to_jwk()).unwrap();
/// #     e["_meta"] = serde_json::json!({"io.github.skills-edge/dsse": env, "io.github.skills-edge/signer": signer});
/// #     Entry::parse(&e.to_string()).unwrap()
/// # };
/// # let key = SigningKey::from_seed([7; 32]);
/// # let key_id = key.public().key_id().to_owned();
/// // `signed(&key, catalog)`: an entry a server published, signed with the publisher's key
/// // (`skills-edge keygen`, `pack --sign`).
/// let mut host = SkillHost::new(HostOptions::default());
/// host.add_server("docs").unwrap();
/// host.register("docs", signed(&key, "acme")).unwrap();
/// let signer = host.signer("docs", "skill://a/SKILL.md").unwrap();
/// assert_eq!(signer, &Signer { key_id: key_id.clone(), catalog: "acme".into(), trust: SignerTrust::Announced });
/// // Every summary names it, so a host can show who signed what.
/// assert_eq!(host.skills()[0].signer.as_ref(), Some(signer));
/// ```
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
///
/// ```
/// # use skills_edge::catalog::sign::SigningKey;
/// use skills_edge::host::{Entry, ErrorCode, HostOptions, SignerPolicy, SignerTrust, SkillHost};
/// # use skills_edge::catalog::sign::{Envelope, Statement, Subject};
/// # let signed = |key: &SigningKey, catalog: &str| {
/// #     let d = skills_edge::catalog::digest_of(b"x");
/// #     let mut e = serde_json::json!({"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},
/// #         "resources":[{"uri":"skill://a/SKILL.md","digest":d,"size":1}]});
/// #     let st = Statement { skill: "skill://a/SKILL.md".into(), revision: Entry::parse(&e.to_string()).unwrap().revision().unwrap(),
/// #         catalog: catalog.into(), subjects: vec![Subject { name: "skill://a/SKILL.md".into(), sha256: d[7..].into() }] };
/// #     let env: serde_json::Value = serde_json::from_str(&Envelope::sign(&st, key).to_json()).unwrap();
/// #     let signer: serde_json::Value = serde_json::from_str(&key.public().to_jwk()).unwrap();
/// #     e["_meta"] = serde_json::json!({"io.github.skills-edge/dsse": env, "io.github.skills-edge/signer": signer});
/// #     Entry::parse(&e.to_string()).unwrap()
/// # };
/// # let (acme, other) = (SigningKey::from_seed([1; 32]), SigningKey::from_seed([2; 32]));
/// // `signed(&key, catalog)`: an entry a server published, signed with the publisher's key
/// // (`skills-edge keygen`, `pack --sign`).
/// let mut host = SkillHost::new(HostOptions::default());
/// host.add_server("docs").unwrap();
/// host.set_origin("docs", "https://skills.example").unwrap();
/// host.set_signer_policy(SignerPolicy { trusted: vec![], trust_on_first_use: true });
/// host.register("docs", signed(&acme, "acme")).unwrap();
/// assert_eq!(host.signer("docs", "skill://a/SKILL.md").unwrap().trust, SignerTrust::FirstUse);
/// // The origin is pinned: another key is refused until the host accepts the change.
/// assert_eq!(host.register("docs", signed(&other, "acme")).unwrap_err().code, ErrorCode::SignerChanged);
/// assert!(host.accept_signer_change("https://skills.example"));
/// assert!(host.register("docs", signed(&other, "acme")).is_ok());
/// ```
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
