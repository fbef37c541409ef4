//! Signed skills, the host's side: whether a skill's signature holds, who signed it, and
//! whether this host accepts that signer. No I/O and no clock: the caller hands over what the
//! server sent (an entry, or a well-known artifact's files and its envelope) and the host's
//! policy decides.
//!
//! The format is the catalog modules' ([`crate::sign`]): an in-toto v1 statement
//! whose subjects are the skill's files (`skill://` URI and the hex of the digest its entry
//! lists), whose predicate names the skill, its revision and the catalog's identity, in a DSSE
//! envelope signed with Ed25519; keys are JWKs named by their RFC 7638 thumbprint.
//!
//! # What a signature must show
//!
//! A skill is signed when its entry's `_meta` carries an envelope ([`DSSE_META_KEY`]). Its
//! signature holds when, for one key the policy lets the host check it with (below):
//!
//! 1. the envelope verifies under that key ([`Envelope::verify`]: the payload type, a
//!    signature whose `keyid` is the key's id, Ed25519 over the DSSE encoding, a statement of
//!    this version), and
//! 2. the statement states exactly the entry: its skill is the
//!    entry's `uri`, its revision the entry's (computed from the manifest, and the `_meta`
//!    revision when the entry gives one), and its subjects the entry's `resources`: the same
//!    URIs with the same digests, as many of them.
//!
//! The host verifies every file's bytes against the entry's digests, so a skill whose
//! signature holds has files whose bytes the signer signed. Anything else is
//! [`ErrorCode::SignatureInvalid`], whatever the policy: a changed byte of a file is
//! `digest-mismatch` when it is read, and a changed digest in the entry, in the statement, the
//! payload type, the signature, the key id, a signer key swapped for another, or an envelope
//! moved from another skill all fail here.
//!
//! # The policy ([`SignerPolicy`])
//!
//! * **A trust list** of public keys given by the host: a key is trusted by its thumbprint.
//!   With a trust list, every skill must be signed by a trusted key: an unsigned skill, or one
//!   signed only by other keys, is [`ErrorCode::SignerUntrusted`]. The signer key a server
//!   announces (`_meta` [`SIGNER_META_KEY`]) is never trusted for being announced.
//! * **Trust on first use** (`trust_on_first_use`), per origin: the first skill from an origin
//!   whose signature holds pins the origin to its signer, the key and the catalog identity
//!   ([`Pin`]); every later skill from that origin must be signed by that key for that catalog.
//!   A skill from a pinned origin that is unsigned, signed by another key or for another
//!   catalog is [`ErrorCode::SignerChanged`], until the host accepts the change
//!   ([`Signers::accept_signer_change`]), which drops the pin and pins again on the next
//!   signature that holds. Pins are kept only as the host wants: [`Signers::export_pins`] and
//!   [`Signers::import_pins`] (a small JSON form). An imported pin is enforced even when trust
//!   on first use is off (it is the host's own record); only new pins need it.
//! * **Both**: the key must be trusted, and the origin sticks to the first trusted key and
//!   catalog it was seen with.
//! * **Neither (the default)**: a signature is checked when a skill has one, against the key the
//!   server announces, and reported ([`SignerTrust::Announced`]); an unsigned skill is
//!   accepted. This tells a host that the files are the ones the announced key signed, not who
//!   holds that key: only a trust list or a pin says that.
//!
//! Which key checks an envelope: a trusted key the envelope names (by `keyid`) first, then the
//! origin's pinned key, then the key the server announces, when the envelope names it. DSSE's
//! `keyid` is only a filter: the signature must still verify under the key.
//!
//! # The outcome
//!
//! A skill whose signature holds has a [`Signer`]: the key's id, the statement's catalog
//! identity, and how the policy anchored it ([`SignerTrust`]). An unsigned skill the policy
//! accepts has none. The registry keeps the signer beside the entry ([`SkillSummary`]), binds
//! approvals to it ([`crate::host::approval`]) and the `verify` report names it.
//!
//! [`SkillSummary`]: crate::host::SkillSummary

use std::collections::{BTreeMap, BTreeSet};

use crate::sign::{Envelope, SignatureError, Statement, Subject};
pub use crate::sign::{PublicKey, SIGNER_META_KEY};
#[cfg(any(test, feature = "internals"))]
pub use crate::sign::DSSE_META_KEY;

use super::entry::Entry;
use super::error::{ErrorCode, Result, VerifyError};
use super::index::canonical_origin;
use crate::skill::revision::skill_revision;
use crate::skill::uri::{final_segment, skill_root};
use crate::skill::value::write_json_string;
use pins_file::{once_per_origin, PinsExport};

#[cfg(any(feature = "command", test))]
mod oms_pins;
#[cfg(not(any(feature = "command", test)))]
#[path = "signature/oms_pins_off.rs"]
mod oms_pins;
mod pins_file;
mod signer;
mod statement;
pub use signer::{Signer, SignerPolicy, SignerTrust};
#[cfg(test)]
use statement::hex;
pub(crate) use statement::statement_matches_entry;
#[cfg(any(feature = "command", test))]
pub(crate) use statement::statement_matches_files;

/// The `format` tag of exported pins.
pub(crate) const PINS_FORMAT: &str = "skills-edge/pins";

/// The version of the pins export this build writes. Version 2 adds `omsPins` (the OMS key
/// pins, [`oms_pins`]); version 1 (DSSE pins only) is still read. The version changed so that
/// a build that knows only version 1 refuses a file holding OMS pins, rather than read it and
/// write it back without them.
pub(crate) const PINS_VERSION: u32 = 2;

/// The longest origin a pin is kept for, in bytes.
pub(crate) const MAX_ORIGIN_LEN: usize = 2048;

/// Reads a key for a trust list from its public JWK text (`{"kty":"OKP","crv":"Ed25519","x":…}`,
/// `kid` ignored: a key's id is its thumbprint). A JWK that holds a secret (`d`) is refused, so
/// a signing key is never handed around as a trusted one. [`ErrorCode::InvalidArgument`]
/// naming `what` (the option or file it came from).
///
/// ```
/// use skills_edge::host::trusted_key;
/// let key = trusted_key("the key", r#"{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#).unwrap();
/// assert_eq!(key.key_id(), "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k");
/// let secret = r#"{"kty":"OKP","crv":"Ed25519","d":"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#;
/// let e = trusted_key("the key", secret).unwrap_err();
/// assert!(e.message.contains("holds a secret") && !e.message.contains("nWGx"));
/// ```
pub fn trusted_key(what: &str, jwk: &str) -> Result<PublicKey> {
    PublicKey::from_jwk(jwk)
        .map_err(|e| VerifyError::new(ErrorCode::InvalidArgument, format!("{what}: {}", e.message)))
}

/// A pin: the signer an origin is held to.
///
/// Trust on first use pins an origin; [`SkillHost::export_pins`](crate::host::SkillHost::export_pins)
/// writes each pin as its origin, its key (a JWK) with the key's id, and its catalog.
///
/// ```
/// use skills_edge::catalog::sign::SigningKey;
/// use skills_edge::host::{trusted_key, Entry, HostOptions, Pin, SignerPolicy, SkillHost};
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
/// let acme = SigningKey::from_seed([1; 32]);
/// let mut host = SkillHost::new(HostOptions::default());
/// host.add_server("https://skills.example").unwrap();
/// host.set_signer_policy(SignerPolicy { trusted: vec![], trust_on_first_use: true });
/// host.register("https://skills.example", signed(&acme, "acme")).unwrap();
/// let pins: serde_json::Value = serde_json::from_str(&host.export_pins()).unwrap();
/// let p = &pins["pins"][0];
/// let pin = Pin { key: trusted_key("the pins file", &p["key"].to_string()).unwrap(), catalog: p["catalog"].as_str().unwrap().into() };
/// assert_eq!((pin.key.key_id(), pin.catalog.as_str()), (acme.public().key_id(), "acme"));
/// assert_eq!((p["origin"].as_str(), p["keyId"].as_str()), (Some("https://skills.example"), Some(pin.key.key_id())));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pin {
    /// The signer's key (its id is [`PublicKey::key_id`]).
    pub key: PublicKey,
    /// The catalog identity.
    pub catalog: String,
}

/// An envelope as a server presented it, with the keys the server offers to check it with (the
/// entry's announced signer, or a well-known source's key set), unverified.
#[derive(Debug, Clone)]
pub(crate) struct Presented {
    /// The envelope.
    pub envelope: Envelope,
    /// The keys offered.
    pub offered: Vec<PublicKey>,
}

/// The signer policy and the pins: the state of the signature checks of one host (see the
/// module documentation).
///
/// ```
/// use skills_edge::host::signature::{SignerPolicy, Signers, SignerTrust};
/// use skills_edge::host::{Entry, ErrorCode};
/// # use skills_edge::catalog::sign::{Envelope, SigningKey, Statement, Subject};
/// # use skills_edge::catalog::digest_of;
/// # let signed = |key: &SigningKey, catalog: &str| {
/// #     let d = digest_of(b"x");
/// #     let mut e = serde_json::json!({"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},
/// #         "resources":[{"uri":"skill://a/SKILL.md","digest":d,"size":1}]});
/// #     let entry = Entry::parse(&e.to_string()).unwrap();
/// #     let st = Statement { skill: "skill://a/SKILL.md".into(), revision: entry.revision().unwrap(),
/// #         catalog: catalog.into(), subjects: vec![Subject { name: "skill://a/SKILL.md".into(), sha256: d[7..].into() }] };
/// #     let env: serde_json::Value = serde_json::from_str(&Envelope::sign(&st, key).to_json()).unwrap();
/// #     let signer: serde_json::Value = serde_json::from_str(&key.public().to_jwk()).unwrap();
/// #     e["_meta"] = serde_json::json!({"io.github.skills-edge/dsse": env, "io.github.skills-edge/signer": signer});
/// #     Entry::parse(&e.to_string()).unwrap()
/// # };
/// let (acme, other) = (SigningKey::from_seed([1; 32]), SigningKey::from_seed([2; 32]));
/// let mut signers = Signers::new(SignerPolicy { trusted: vec![], trust_on_first_use: true });
/// // The first signed skill from an origin pins it...
/// let first = signers.check_entry("https://skills.example", &signed(&acme, "acme")).unwrap().unwrap();
/// assert_eq!((first.catalog.as_str(), first.trust), ("acme", SignerTrust::FirstUse));
/// let again = signers.check_entry("https://skills.example", &signed(&acme, "acme")).unwrap().unwrap();
/// assert_eq!(again.trust, SignerTrust::Pinned);
/// // ...and another signer is refused until the host accepts the change.
/// let e = signers.check_entry("https://skills.example", &signed(&other, "acme")).unwrap_err();
/// assert_eq!(e.code, ErrorCode::SignerChanged);
/// assert!(signers.accept_signer_change("https://skills.example"));
/// let now = signers.check_entry("https://skills.example", &signed(&other, "acme")).unwrap().unwrap();
/// assert_eq!(now.trust, SignerTrust::FirstUse);
/// // Pins persist as JSON, if the host wants them to.
/// let mut later = Signers::default();
/// assert_eq!(later.import_pins(&signers.export_pins()), Ok(1));
/// assert_eq!(later.pin("https://skills.example").unwrap().key.key_id(), other.public().key_id());
/// ```
#[derive(Debug, Clone, Default)]
pub struct Signers {
    policy: SignerPolicy,
    /// The pins by origin, boxed: the same map shape as the registry's (string keys, boxed
    /// values), so the B-tree code is compiled once for both.
    pins: BTreeMap<String, Box<Pin>>,
    /// Origins whose change of signer the host accepted: the next signature that holds pins
    /// them again, even with trust on first use off.
    accepting: BTreeSet<String>,
    /// Origins pinned on first use whose pin no skill has passed every check with yet: a
    /// refusal of the skill it signed takes the pin back ([`Signers::settle_first_use`]).
    unconfirmed: BTreeSet<String>,
    /// Pins taken back, by origin: a later skill of the same listing, signed by that key,
    /// that passes every check pins it again.
    taken_back: BTreeMap<String, Box<Pin>>,
    /// The OMS key pins ([`oms_pins`]).
    oms: oms_pins::OmsPins,
}

fn invalid(uri: &str, message: impl Into<String>) -> VerifyError {
    VerifyError::new(ErrorCode::SignatureInvalid, message).with_uri(uri)
}

fn invalid_because(uri: &str, e: SignatureError) -> VerifyError {
    invalid(
        uri,
        format!(
            "the signature of {uri} does not hold: {} (check {})",
            e.message,
            e.fault.as_str()
        ),
    )
    .with_actual(e.fault.as_str())
}

/// `key id / catalog` as `expected` and `actual` of a `signer-changed` refusal (`unsigned`
/// for no signer).
fn signer_text(key_id: &str, catalog: &str) -> String {
    format!("{key_id} {catalog}")
}

fn check_origin(origin: &str) -> Result<()> {
    if origin.is_empty() || origin.len() > MAX_ORIGIN_LEN || origin.chars().any(char::is_control) {
        return Err(VerifyError::new(
            ErrorCode::InvalidArgument,
            format!("the origin {origin:?} must be 1 to {MAX_ORIGIN_LEN} bytes without control characters"),
        ));
    }
    Ok(())
}

impl Signers {
    /// No pins yet, `policy` in force.
    #[cfg(any(feature = "command", feature = "web-verifier", feature = "internals"))]
    pub fn new(policy: SignerPolicy) -> Signers {
        Signers {
            policy,
            ..Signers::default()
        }
    }

    /// The policy in force.
    #[cfg(any(feature = "command", feature = "internals"))]
    pub fn policy(&self) -> &SignerPolicy {
        &self.policy
    }

    /// Replaces the policy; the pins stay.
    pub(crate) fn set_policy(&mut self, policy: SignerPolicy) {
        self.policy = policy;
    }

    /// The pin of `origin`, if it has one.
    pub fn pin(&self, origin: &str) -> Option<&Pin> {
        self.pins.get(&canonical_origin(origin)).map(|p| &**p)
    }

    /// Whether the next signature from `origin` that holds would pin it: it has no pin, and
    /// trust on first use is on or a change was accepted for it.
    pub(crate) fn would_pin(&self, origin: &str) -> bool {
        let origin = canonical_origin(origin);
        let origin = origin.as_str();
        !self.pins.contains_key(origin)
            && (self.policy.trust_on_first_use || self.accepting.contains(origin))
    }

    /// Every pin, by origin.
    #[cfg(any(test, feature = "internals"))]
    pub fn pins(&self) -> impl Iterator<Item = (&str, &Pin)> {
        self.pins.iter().map(|(o, p)| (o.as_str(), &**p))
    }

    /// Accepts a change of signer for `origin`: its pin is dropped, and the next signature
    /// from it that holds pins it again (with trust on first use off too). Until then its
    /// skills are checked as an unpinned origin's. Returns whether it had a pin.
    ///
    /// It accepts a change of both the DSSE and the OMS signer (an origin's OMS pin is dropped
    /// too, and the next OMS signature from it that verifies pins it again).
    pub fn accept_signer_change(&mut self, origin: &str) -> bool {
        let origin = canonical_origin(origin);
        let origin = origin.as_str();
        self.accepting.insert(origin.to_owned());
        let oms = self.oms.accept(origin);
        self.unconfirmed.remove(origin);
        self.taken_back.remove(origin);
        self.pins.remove(origin).is_some() || oms
    }

    /// The pins as JSON, for persisting:
    /// `{"format":"skills-edge/pins","version":2,"pins":[{"origin","keyId","catalog","key"}],"omsPins":[{"origin","hint","key"}]}`,
    /// `key` the public JWK (no secret: a pin only ever holds a public key); an OMS pin's
    /// `hint` is the key's hint as `model_signing` computes it and `key` its PEM text.
    pub fn export_pins(&self) -> String {
        // Written directly (strings, an integer and the key's own JWK text), in the field
        // order `PinsExport` reads.
        let mut out = String::from("{\"format\":");
        write_json_string(PINS_FORMAT, &mut out);
        out.push_str(",\"version\":");
        out.push_str(&PINS_VERSION.to_string());
        out.push_str(",\"pins\":[");
        for (i, (origin, p)) in self.pins.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"origin\":");
            write_json_string(origin, &mut out);
            out.push_str(",\"keyId\":");
            write_json_string(p.key.key_id(), &mut out);
            out.push_str(",\"catalog\":");
            write_json_string(&p.catalog, &mut out);
            out.push_str(",\"key\":");
            out.push_str(&p.key.to_jwk());
            out.push('}');
        }
        out.push_str("],\"omsPins\":");
        self.oms.write_json(&mut out);
        out.push('}');
        out
    }

    /// Restores pins exported by [`Signers::export_pins`], merged over the pins held (an
    /// imported pin replaces the held one of its origin). Returns how many were read.
    /// [`ErrorCode::InvalidArgument`] when the JSON is not such an export, a key is not a
    /// public Ed25519 JWK or not the key its `keyId` names, an OMS pin's key is not one PEM
    /// public key whose SHA-256 is its `hint`, an origin is malformed, or one list pins an
    /// origin twice (two spellings of it included); nothing is stored then. Version 1 exports
    /// (DSSE pins only) are read too, and refused when they hold a field version 1 does not
    /// define (`omsPins`).
    pub fn import_pins(&mut self, json: &str) -> Result<usize> {
        let bad = |m: String| VerifyError::new(ErrorCode::InvalidArgument, m);
        let export =
            PinsExport::read(json).map_err(|e| bad(format!("the pins cannot be read: {e}")))?;
        if export.format != PINS_FORMAT || !(1..=PINS_VERSION).contains(&export.version) {
            return Err(bad(format!(
                "the pins are in the format {:?} version {}; expected {PINS_FORMAT:?} version 1 to {PINS_VERSION}",
                export.format, export.version
            )));
        }
        let oms = oms_pins::OmsPins::check(export.oms)?;
        let mut read = Vec::with_capacity(export.pins.len());
        let mut seen = BTreeMap::new();
        for p in export.pins {
            check_origin(&p.origin).map_err(|e| bad(format!("a pin: {}", e.message)))?;
            once_per_origin(&mut seen, &p.origin, "pins")?;
            let key = trusted_key(&format!("the pin of {}", p.origin), &p.key)?;
            if key.key_id() != p.key_id {
                return Err(bad(format!(
                    "the pin of {} names the key {} but holds the key {}",
                    p.origin,
                    p.key_id,
                    key.key_id()
                )));
            }
            read.push((
                canonical_origin(&p.origin),
                Box::new(Pin {
                    key,
                    catalog: p.catalog,
                }),
            ));
        }
        let n = read.len() + oms.len();
        self.pins.extend(read);
        self.oms.extend(oms);
        Ok(n)
    }

    /// Checks the signature of `entry`, served from `origin`, under the policy and the pins
    /// (see the module documentation), pinning the origin on first use. `Ok(None)`: unsigned,
    /// and the policy accepts it. [`ErrorCode::SignatureInvalid`],
    /// [`ErrorCode::SignerUntrusted`] or [`ErrorCode::SignerChanged`] otherwise; a refusal
    /// changes no pin.
    pub fn check_entry(&mut self, origin: &str, entry: &Entry) -> Result<Option<Signer>> {
        let uri = entry.uri();
        let presented = match entry.signature() {
            None => None,
            Some(meta) => {
                let envelope = Envelope::parse(meta.envelope.as_bytes())
                    .map_err(|e| invalid_because(uri, e))?;
                let offered = match &meta.signer {
                    Some(jwk) => vec![PublicKey::from_jwk(jwk).map_err(|e| {
                        invalid(
                            uri,
                            format!(
                                "the signer key {uri} announces ({SIGNER_META_KEY}) cannot be read: {}",
                                e.message
                            ),
                        )
                        .with_field(SIGNER_META_KEY)
                    })?],
                    None => Vec::new(),
                };
                Some(Presented { envelope, offered })
            }
        };
        self.decide(origin, uri, presented, |st| {
            statement_matches_entry(st, entry)
        })
    }

    /// Checks the signature of a skill whose files were fetched some other way (a well-known
    /// source's artifact): `name` is the skill's name, `files` its `(path relative to the skill
    /// root, wire digest)` pairs, `presented` its envelope and the keys the source offers
    /// (`None`: unsigned), `what` names the skill in messages (its artifact's URL). The same
    /// policy and pins as [`Signers::check_entry`], the statement checked by
    /// [`statement_matches_files`]. Used by the command's well-known check.
    #[cfg(any(feature = "command", test))]
    pub(crate) fn check_files(
        &mut self,
        origin: &str,
        what: &str,
        name: &str,
        files: &[(String, String)],
        presented: Option<Presented>,
    ) -> Result<Option<Signer>> {
        self.decide(origin, what, presented, |st| {
            statement_matches_files(st, what, name, files)
        })
    }

    /// The decision (see the module documentation): which key checks the envelope, whether it
    /// holds and states what `matches` expects, and whether the policy and the origin's pin
    /// accept the signer.
    fn decide(
        &mut self,
        origin: &str,
        uri: &str,
        presented: Option<Presented>,
        matches: impl FnOnce(&Statement) -> Result<()>,
    ) -> Result<Option<Signer>> {
        let origin = canonical_origin(origin);
        let origin = origin.as_str();
        let Some(Presented { envelope, offered }) = presented else {
            return self.unsigned(origin, uri).map(|()| None);
        };
        let (key, source, statement) = self.verified_by(origin, uri, &envelope, &offered)?;
        matches(&statement)?;
        self.accept(origin, uri, key, source, statement).map(Some)
    }

    /// An unsigned entry: refused when its origin is pinned or the policy requires a signature.
    fn unsigned(&self, origin: &str, uri: &str) -> Result<()> {
        if let Some(p) = self.pins.get(origin) {
            return Err(VerifyError::new(
                ErrorCode::SignerChanged,
                format!(
                    "{uri} is unsigned, but its origin {origin} is pinned to the signer {} of {:?}; accept the change (accept_signer_change) if the publisher stopped signing",
                    p.key.key_id(),
                    p.catalog
                ),
            )
            .with_uri(uri)
            .with_values(signer_text(p.key.key_id(), &p.catalog), "unsigned"));
        }
        if self.policy.requires_signature() {
            return Err(VerifyError::new(
                ErrorCode::SignerUntrusted,
                format!("{uri} is unsigned, and this host requires a signature by a key of its trust list"),
            )
            .with_uri(uri)
            .with_actual("unsigned"));
        }
        Ok(())
    }

    /// The key among the trusted, the pinned and the offered ones that the envelope names and
    /// that verifies it (the first that does), where it came from, and the statement.
    fn verified_by(
        &self,
        origin: &str,
        uri: &str,
        envelope: &Envelope,
        offered: &[PublicKey],
    ) -> Result<(PublicKey, Source, Statement)> {
        let pin = self.pins.get(origin);
        let named: Vec<&str> = envelope.key_ids().collect();
        let mut candidates: Vec<(&PublicKey, Source)> = Vec::new();
        for k in &self.policy.trusted {
            if named.contains(&k.key_id()) {
                candidates.push((k, Source::Trusted));
            }
        }
        if let Some(p) = pin
            && named.contains(&p.key.key_id())
        {
            candidates.push((&p.key, Source::Pinned));
        }
        for k in offered {
            if named.contains(&k.key_id()) {
                candidates.push((k, Source::Offered));
            }
        }
        let shown = if named.is_empty() {
            "no key".to_owned()
        } else {
            named.join(", ")
        };
        if candidates.is_empty() {
            return Err(invalid(
                uri,
                format!(
                    "the signature of {uri} names {shown}, and neither the trust list, the pins nor the server gives that key to check it with"
                ),
            )
            .with_actual(shown));
        }
        let mut first_error = None;
        let mut verified = None;
        for (key, source) in candidates {
            match envelope.verify(key) {
                Ok(statement) => {
                    verified = Some((key.clone(), source, statement));
                    break;
                }
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        let Some((key, source, statement)) = verified else {
            // Each candidate failed: `first_error` holds the first failure.
            return Err(match first_error {
                Some(e) => invalid_because(uri, e),
                None => invalid(uri, format!("the signature of {uri} does not verify")),
            });
        };
        Ok((key, source, statement))
    }

    /// A verified signer checked against the policy and the origin's pin, and pinned when
    /// trust on first use (or an accepted change) says so.
    fn accept(
        &mut self,
        origin: &str,
        uri: &str,
        key: PublicKey,
        source: Source,
        statement: Statement,
    ) -> Result<Signer> {
        let pin = self.pins.get(origin);
        let key_id = key.key_id().to_owned();
        if self.policy.requires_signature() && source != Source::Trusted {
            return Err(VerifyError::new(
                ErrorCode::SignerUntrusted,
                format!(
                    "{uri} is signed by the key {key_id} (catalog {:?}), which is not in this host's trust list",
                    statement.catalog
                ),
            )
            .with_uri(uri)
            .with_actual(signer_text(&key_id, &statement.catalog)));
        }
        if let Some(p) = pin
            && (p.key.key_id() != key_id || p.catalog != statement.catalog)
        {
            let what = if p.key.key_id() != key_id {
                format!("by the key {key_id}")
            } else {
                format!("for the catalog {:?}", statement.catalog)
            };
            return Err(VerifyError::new(
                ErrorCode::SignerChanged,
                format!(
                    "{uri} is signed {what}, but its origin {origin} is pinned to the key {} of the catalog {:?}; accept the change (accept_signer_change) only if the publisher changed its key",
                    p.key.key_id(),
                    p.catalog
                ),
            )
            .with_uri(uri)
            .with_values(
                signer_text(p.key.key_id(), &p.catalog),
                signer_text(&key_id, &statement.catalog),
            ));
        }
        let pinned = pin.is_some();
        let pins_now = !pinned
            && (self.policy.trust_on_first_use || self.accepting.contains(origin))
            && check_origin(origin).is_ok();
        let trust = match source {
            Source::Trusted => SignerTrust::Trusted,
            _ if pinned => SignerTrust::Pinned,
            _ if pins_now => SignerTrust::FirstUse,
            _ => SignerTrust::Announced,
        };
        if pins_now {
            self.accepting.remove(origin);
            self.unconfirmed.insert(origin.to_owned());
            self.pins.insert(
                origin.to_owned(),
                Box::new(Pin {
                    key,
                    catalog: statement.catalog.clone(),
                }),
            );
        }
        Ok(Signer {
            key_id,
            catalog: statement.catalog,
            trust,
        })
    }
}

/// Where the key that verified an envelope came from.
#[derive(PartialEq)]
enum Source {
    Trusted,
    Pinned,
    Offered,
}

#[cfg(test)]
pub(crate) mod tests;
