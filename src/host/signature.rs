//! Signed skills, the host's side: whether a skill's signature holds, who signed it, and
//! whether this host accepts that signer. No I/O and no clock: the caller hands over what the
//! server sent (an entry, or a well-known artifact's files and its envelope) and the host's
//! policy decides.
//!
//! The format is the catalog crate's ([`skills_edge_catalog::sign`]): an in-toto v1 statement
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
//! 2. the statement states exactly the entry ([`statement_matches_entry`]): its skill is the
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

use serde::Serialize;
use skills_edge_catalog::json;
use skills_edge_catalog::sign::{Envelope, SignatureError, Statement, Subject};
pub use skills_edge_catalog::sign::{PublicKey, DSSE_META_KEY, SIGNER_META_KEY};

use super::entry::Entry;
use super::error::{ErrorCode, Result, VerifyError};
use super::index::canonical_origin;
use crate::skill::revision::skill_revision;
use crate::skill::uri::{final_segment, skill_root};
use crate::skill::value::write_json_string;

/// The `format` tag of exported pins.
pub(crate) const PINS_FORMAT: &str = "skills-edge/pins";

/// The version of the pins export this build reads and writes.
pub(crate) const PINS_VERSION: u32 = 1;

/// The longest origin a pin is kept for, in bytes.
pub const MAX_ORIGIN_LEN: usize = 2048;

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
    pub fn describe(&self) -> String {
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
    pub fn requires_signature(&self) -> bool {
        !self.trusted.is_empty()
    }
}

/// Reads a key for a trust list from its public JWK text (`{"kty":"OKP","crv":"Ed25519","x":…}`,
/// `kid` ignored: a key's id is its thumbprint). A JWK that holds a secret (`d`) is refused, so
/// a signing key is never handed around as a trusted one. [`ErrorCode::InvalidArgument`]
/// naming `what` (the option or file it came from).
///
/// ```
/// use skills_edge::host::signature::trusted_key;
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
pub struct Presented {
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
/// # use skills_edge_catalog::sign::{Envelope, SigningKey, Statement, Subject};
/// # use skills_edge::skill::digest::digest_of;
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
}

/// Exported pins: `{"format":"skills-edge/pins","version":1,"pins":[{"origin","keyId","catalog","key"}]}`
/// (read; [`Signers::export_pins`] writes the same shape).
struct PinsExport {
    format: String,
    version: u32,
    pins: Vec<PinJson>,
}

struct PinJson {
    origin: String,
    key_id: String,
    catalog: String,
    /// The public JWK, as its JSON text (read by [`trusted_key`]).
    key: String,
}

impl PinsExport {
    /// The export's fields, as JSON requires them (the checks of their values are
    /// [`Signers::import_pins`]'s).
    fn read(json: &str) -> std::result::Result<PinsExport, String> {
        let doc = json::parse(json).map_err(|e| e.to_string())?;
        doc.expect_object("the export")?;
        let pins = doc
            .array_of("pins")?
            .iter()
            .map(|p| {
                p.expect_object("a pin")?;
                Ok(PinJson {
                    origin: p.str_of("origin")?.to_owned(),
                    key_id: p.str_of("keyId")?.to_owned(),
                    catalog: p.str_of("catalog")?.to_owned(),
                    key: p.required("key")?.raw.to_owned(),
                })
            })
            .collect::<std::result::Result<_, String>>()?;
        Ok(PinsExport {
            format: doc.str_of("format")?.to_owned(),
            version: doc.u32_of("version")?,
            pins,
        })
    }
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
    pub fn new(policy: SignerPolicy) -> Signers {
        Signers {
            policy,
            ..Signers::default()
        }
    }

    /// The policy in force.
    pub fn policy(&self) -> &SignerPolicy {
        &self.policy
    }

    /// Replaces the policy; the pins stay.
    pub fn set_policy(&mut self, policy: SignerPolicy) {
        self.policy = policy;
    }

    /// The pin of `origin`, if it has one.
    pub fn pin(&self, origin: &str) -> Option<&Pin> {
        self.pins.get(&canonical_origin(origin)).map(|p| &**p)
    }

    /// Whether the next signature from `origin` that holds would pin it: it has no pin, and
    /// trust on first use is on or a change was accepted for it.
    pub fn would_pin(&self, origin: &str) -> bool {
        let origin = canonical_origin(origin);
        let origin = origin.as_str();
        !self.pins.contains_key(origin)
            && (self.policy.trust_on_first_use || self.accepting.contains(origin))
    }

    /// Every pin, by origin.
    pub fn pins(&self) -> impl Iterator<Item = (&str, &Pin)> {
        self.pins.iter().map(|(o, p)| (o.as_str(), &**p))
    }

    /// Accepts a change of signer for `origin`: its pin is dropped, and the next signature
    /// from it that holds pins it again (with trust on first use off too). Until then its
    /// skills are checked as an unpinned origin's. Returns whether it had a pin.
    pub fn accept_signer_change(&mut self, origin: &str) -> bool {
        let origin = canonical_origin(origin);
        let origin = origin.as_str();
        self.accepting.insert(origin.to_owned());
        self.pins.remove(origin).is_some()
    }

    /// The pins as JSON, for persisting:
    /// `{"format":"skills-edge/pins","version":1,"pins":[{"origin","keyId","catalog","key"}]}`,
    /// `key` the public JWK (no secret: a pin only ever holds a public key).
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
        out.push_str("]}");
        out
    }

    /// Restores pins exported by [`Signers::export_pins`], merged over the pins held (an
    /// imported pin replaces the held one of its origin). Returns how many were read.
    /// [`ErrorCode::InvalidArgument`] when the JSON is not such an export, a key is not a
    /// public Ed25519 JWK or not the key its `keyId` names, or an origin is malformed; nothing
    /// is stored then.
    pub fn import_pins(&mut self, json: &str) -> Result<usize> {
        let bad = |m: String| VerifyError::new(ErrorCode::InvalidArgument, m);
        let export =
            PinsExport::read(json).map_err(|e| bad(format!("the pins cannot be read: {e}")))?;
        if export.format != PINS_FORMAT || export.version != PINS_VERSION {
            return Err(bad(format!(
                "the pins are in the format {:?} version {}; expected {PINS_FORMAT:?} version {PINS_VERSION}",
                export.format, export.version
            )));
        }
        let mut read = Vec::with_capacity(export.pins.len());
        for p in export.pins {
            check_origin(&p.origin).map_err(|e| bad(format!("a pin: {}", e.message)))?;
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
        let n = read.len();
        self.pins.extend(read);
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
    /// [`statement_matches_files`].
    pub fn check_files(
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
        let pin = self.pins.get(origin);
        let Some(Presented { envelope, offered }) = presented else {
            if let Some(p) = pin {
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
            return Ok(None);
        };
        let named: Vec<&str> = envelope.key_ids().collect();
        #[derive(PartialEq)]
        enum Source {
            Trusted,
            Pinned,
            Offered,
        }
        let mut candidates: Vec<(&PublicKey, Source)> = Vec::new();
        for k in &self.policy.trusted {
            if named.contains(&k.key_id()) {
                candidates.push((k, Source::Trusted));
            }
        }
        if let Some(p) = pin {
            if named.contains(&p.key.key_id()) {
                candidates.push((&p.key, Source::Pinned));
            }
        }
        for k in &offered {
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
        matches(&statement)?;
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
        if let Some(p) = pin {
            if p.key.key_id() != key_id || p.catalog != statement.catalog {
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
            self.pins.insert(
                origin.to_owned(),
                Box::new(Pin {
                    key,
                    catalog: statement.catalog.clone(),
                }),
            );
        }
        Ok(Some(Signer {
            key_id,
            catalog: statement.catalog,
            trust,
        }))
    }
}

fn mismatch(
    uri: &str,
    field: &str,
    expected: impl Into<String>,
    actual: impl Into<String>,
    what: String,
) -> VerifyError {
    invalid(
        uri,
        format!("{what}: the entry or the signature was changed after signing"),
    )
    .with_field(field)
    .with_values(expected, actual)
}

/// The hex of a wire digest (`sha256:` and 64 hex), as statements carry it.
fn hex(digest: &str) -> &str {
    digest.strip_prefix("sha256:").unwrap_or(digest)
}

/// Whether `statement` states exactly `entry` (see the module documentation):
/// [`ErrorCode::SignatureInvalid`] for the skill (`uri`), naming the first difference, in
/// this order (`field`: `predicate.skill`, `subject` for the count, `subject[FILE URI]` for a
/// file, then `predicate.revision`), `expected` the entry's value and `actual` the
/// statement's.
pub fn statement_matches_entry(statement: &Statement, entry: &Entry) -> Result<()> {
    let uri = entry.uri();
    if statement.skill != uri {
        return Err(mismatch(
            uri,
            "predicate.skill",
            uri,
            &statement.skill,
            format!(
                "the signature given with {uri} is the signature of {}",
                statement.skill
            ),
        ));
    }
    let Some(items) = entry.items() else {
        return Err(invalid(
            uri,
            format!(
                "{uri} has \"dynamic\" resources: there are no files its signature could state"
            ),
        ));
    };
    if statement.subjects.len() != items.len() {
        return Err(mismatch(
            uri,
            "subject",
            items.len().to_string(),
            statement.subjects.len().to_string(),
            format!(
                "the signature of {uri} states {} files, its entry lists {}",
                statement.subjects.len(),
                items.len()
            ),
        ));
    }
    let subjects = subject_set(statement);
    for item in items {
        if subjects.contains(subject_key(&item.uri, hex(&item.digest)).as_str()) {
            continue;
        }
        let field = format!("subject[{}]", item.uri);
        match subject_named(statement, &item.uri) {
            None => {
                return Err(mismatch(
                    uri,
                    &field,
                    hex(&item.digest),
                    "absent",
                    format!("the signature of {uri} does not state {}", item.uri),
                ))
            }
            Some(s) if s.sha256 != hex(&item.digest) => {
                return Err(mismatch(
                    uri,
                    &field,
                    hex(&item.digest),
                    &s.sha256,
                    format!(
                        "the signature of {uri} states {} with the digest {}, its entry lists {}",
                        item.uri, s.sha256, item.digest
                    ),
                ))
            }
            Some(_) => {}
        }
    }
    let revision = entry.revision().unwrap_or_default();
    let published = entry.signature().and_then(|s| s.revision.as_deref());
    for (field, expected) in [
        ("_meta revision", published),
        ("revision", Some(&*revision)),
    ] {
        if let Some(expected) = expected.filter(|e| *e != statement.revision) {
            return Err(mismatch(
                uri,
                "predicate.revision",
                expected,
                &statement.revision,
                format!(
                    "the signature of {uri} states the revision {}, its entry's {field} is {expected}",
                    statement.revision
                ),
            ));
        }
    }
    Ok(())
}

/// Whether `statement` states exactly the files of the skill `name` (`files`: each path
/// relative to the skill root with its wire digest, as unpacked from a well-known artifact;
/// `what` names the artifact): the statement's skill is a `SKILL.md` in a directory named
/// `name`, each subject's name minus that directory is a path of `files` with its digest, as
/// many of them, and the revision is the files' ([`skill_revision`]).
/// [`ErrorCode::SignatureInvalid`] naming the first difference, as
/// [`statement_matches_entry`].
pub fn statement_matches_files(
    statement: &Statement,
    what: &str,
    name: &str,
    files: &[(String, String)],
) -> Result<()> {
    let root = skill_root(&statement.skill).unwrap_or_default();
    if root.is_empty() || final_segment(root) != name {
        return Err(mismatch(
            what,
            "predicate.skill",
            format!(".../{name}/SKILL.md"),
            &statement.skill,
            format!(
                "the signature given with the skill {name} is the signature of {}",
                statement.skill
            ),
        ));
    }
    if statement.subjects.len() != files.len() {
        return Err(mismatch(
            what,
            "subject",
            files.len().to_string(),
            statement.subjects.len().to_string(),
            format!(
                "the signature of {name} states {} files, {what} holds {}",
                statement.subjects.len(),
                files.len()
            ),
        ));
    }
    let subjects = subject_set(statement);
    for (path, digest) in files {
        let subject_name = format!("{root}/{path}");
        if subjects.contains(subject_key(&subject_name, hex(digest)).as_str()) {
            continue;
        }
        let field = format!("subject[{subject_name}]");
        match subject_named(statement, &subject_name) {
            None => {
                return Err(mismatch(
                    what,
                    &field,
                    hex(digest),
                    "absent",
                    format!("the signature of {name} does not state {path}"),
                ))
            }
            Some(s) if s.sha256 != hex(digest) => {
                return Err(mismatch(
                    what,
                    &field,
                    hex(digest),
                    &s.sha256,
                    format!(
                        "the signature of {name} states {path} with the digest {}, {what} holds {digest}",
                        s.sha256
                    ),
                ))
            }
            Some(_) => {}
        }
    }
    let revision =
        skill_revision(files.iter().map(|(p, d)| (p.as_str(), d.as_str()))).unwrap_or_default();
    if statement.revision != revision {
        return Err(mismatch(
            what,
            "predicate.revision",
            &revision,
            &statement.revision,
            format!(
                "the signature of {name} states the revision {}, its files make {revision}",
                statement.revision
            ),
        ));
    }
    Ok(())
}

/// The statement's subjects as an ordered set of `name\nsha256` ([`subject_key`]): one
/// lookup per file, so checking n files is O(n log n), not a scan of every subject for each.
fn subject_set(statement: &Statement) -> BTreeSet<String> {
    let mut set = BTreeSet::new();
    for s in &statement.subjects {
        set.insert(subject_key(&s.name, &s.sha256));
    }
    set
}

/// A subject's name and digest as one string (a name holds no line feed).
fn subject_key(name: &str, sha256: &str) -> String {
    format!("{name}\n{sha256}")
}

/// The subject stated for `name` when the statement does not state the file's digest for it:
/// the first of that name, or `None`. Only on the way to a refusal, so one scan.
fn subject_named<'s>(statement: &'s Statement, name: &str) -> Option<&'s Subject> {
    statement.subjects.iter().find(|s| s.name == name)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::skill::digest::digest_of;
    use serde_json::{json, Value as Json};
    use skills_edge_catalog::sign::{SigningKey, Subject, PAYLOAD_TYPE};

    /// A skill's files, as `(path relative to the root, bytes)`.
    pub(crate) type Files<'a> = &'a [(&'a str, &'a [u8])];

    /// The entry JSON of the skill `skill://<name>/SKILL.md` with `files`.
    pub(crate) fn entry_json(name: &str, files: Files) -> Json {
        let resources: Vec<Json> = files
            .iter()
            .map(|(p, b)| json!({"uri": format!("skill://{name}/{p}"), "digest": digest_of(b), "size": b.len()}))
            .collect();
        json!({"uri": format!("skill://{name}/SKILL.md"),
            "frontmatter": {"name": name, "description": "d"}, "resources": resources})
    }

    /// The statement `key` signs for the entry `entry` (its files as listed).
    pub(crate) fn statement_of(entry: &Json, catalog: &str) -> Statement {
        let parsed = Entry::parse(&entry.to_string()).unwrap();
        Statement {
            skill: parsed.uri().to_owned(),
            revision: parsed.revision().unwrap(),
            catalog: catalog.to_owned(),
            subjects: parsed
                .items()
                .unwrap()
                .iter()
                .map(|i| Subject {
                    name: i.uri.clone(),
                    sha256: hex(&i.digest).to_owned(),
                })
                .collect(),
        }
    }

    /// `entry` with `envelope` and `signer` in its `_meta` (beside its revision).
    pub(crate) fn with_signature(entry: &Json, envelope: &str, signer: Option<&str>) -> Json {
        let parsed = Entry::parse(&entry.to_string()).unwrap();
        let mut e = entry.clone();
        let mut meta = json!({
            DSSE_META_KEY: serde_json::from_str::<Json>(envelope).unwrap(),
            "io.github.skills-edge/revision": parsed.revision(),
        });
        if let Some(s) = signer {
            meta[SIGNER_META_KEY] = serde_json::from_str(s).unwrap();
        }
        e["_meta"] = meta;
        e
    }

    /// `entry` signed by `key` for `catalog`, the way the compiler serves it.
    pub(crate) fn signed(entry: &Json, key: &SigningKey, catalog: &str) -> Json {
        let env = Envelope::sign(&statement_of(entry, catalog), key).to_json();
        with_signature(entry, &env, Some(&key.public().to_jwk()))
    }

    fn parse(j: &Json) -> Entry {
        Entry::parse(&j.to_string()).unwrap()
    }

    fn key(n: u8) -> SigningKey {
        SigningKey::from_seed([n; 32])
    }

    const FILES: Files = &[("SKILL.md", b"---\nname: a\n---\n"), ("x.md", b"x")];
    const ORIGIN: &str = "https://skills.example";

    fn code(r: Result<Option<Signer>>) -> ErrorCode {
        r.unwrap_err().code
    }

    #[test]
    fn the_default_reports_a_signature_and_requires_none() {
        let e = entry_json("a", FILES);
        let mut s = Signers::default();
        assert_eq!(s.check_entry(ORIGIN, &parse(&e)), Ok(None));
        let signer = s
            .check_entry(ORIGIN, &parse(&signed(&e, &key(1), "acme")))
            .unwrap()
            .unwrap();
        assert_eq!(
            (
                signer.key_id.as_str(),
                signer.catalog.as_str(),
                signer.trust
            ),
            (key(1).public().key_id(), "acme", SignerTrust::Announced)
        );
        // Nothing was pinned: another signer is announced as well.
        assert!(s.pin(ORIGIN).is_none());
        let other = s
            .check_entry(ORIGIN, &parse(&signed(&e, &key(2), "acme")))
            .unwrap()
            .unwrap();
        assert_eq!(other.key_id, key(2).public().key_id());
    }

    /// Every tampering of a signed entry the brief of this module lists, each refused as
    /// `signature-invalid` under every policy that would otherwise accept the signer.
    #[test]
    fn every_tampering_is_refused() {
        let e = entry_json("a", FILES);
        let k = key(1);
        let good = signed(&e, &k, "acme");
        let env = || -> Envelope {
            Envelope::parse(good["_meta"][DSSE_META_KEY].to_string().as_bytes()).unwrap()
        };
        let with_env =
            |env: &Envelope| with_signature(&e, &env.to_json(), Some(&k.public().to_jwk()));
        let mut cases: Vec<(&str, Json)> = Vec::new();
        // A digest in the statement (re-encoded without re-signing).
        let mut st = statement_of(&e, "acme");
        st.subjects[1].sha256 = hex(&digest_of(b"y")).to_owned();
        let mut t = env();
        t.payload = st.to_json().into_bytes();
        cases.push(("a digest in the statement", with_env(&t)));
        // The payload type.
        let mut t = env();
        t.payload_type = "application/json".into();
        cases.push(("the payload type", with_env(&t)));
        // The signature.
        let mut t = env();
        t.signatures[0].sig[5] ^= 0x20;
        cases.push(("the signature", with_env(&t)));
        // The key id.
        let mut t = env();
        t.signatures[0].keyid = key(2).public().key_id().to_owned();
        cases.push(("the key id", with_env(&t)));
        // Another skill's envelope in this entry (signed by the same key, valid on its own).
        let b = entry_json("b", &[("SKILL.md", b"---\nname: b\n---\n")]);
        let moved = signed(&b, &k, "acme");
        cases.push((
            "another skill's envelope",
            with_signature(
                &e,
                &moved["_meta"][DSSE_META_KEY].to_string(),
                Some(&k.public().to_jwk()),
            ),
        ));
        // The signer JWK swapped for another key (the envelope still names the first).
        cases.push((
            "the signer key swapped",
            with_signature(&e, &env().to_json(), Some(&key(2).public().to_jwk())),
        ));
        // An entry digest changed while the envelope stays.
        let mut changed = good.clone();
        changed["resources"][1]["digest"] = json!(digest_of(b"y"));
        cases.push(("an entry digest", changed));
        // A file added to the entry, the envelope kept.
        let mut grown = good.clone();
        grown["resources"]
            .as_array_mut()
            .unwrap()
            .push(json!({"uri":"skill://a/y.md","digest":digest_of(b"y"),"size":1}));
        cases.push(("a file added", grown));
        // The published revision changed.
        let mut rev = good.clone();
        rev["_meta"]["io.github.skills-edge/revision"] = json!(digest_of(b"r"));
        cases.push(("the _meta revision", rev));
        // Envelopes that are not DSSE, a signer that is a secret key.
        let mut not_dsse = good.clone();
        not_dsse["_meta"][DSSE_META_KEY] = json!("x");
        cases.push(("not an envelope", not_dsse));
        let mut secret = good.clone();
        secret["_meta"][SIGNER_META_KEY] = serde_json::from_str(&k.to_jwk()).unwrap();
        cases.push(("a secret signer key", secret));
        let mut no_signer = good.clone();
        no_signer["_meta"]
            .as_object_mut()
            .unwrap()
            .remove(SIGNER_META_KEY);
        cases.push(("no signer key", no_signer));

        for policy in [
            SignerPolicy::default(),
            SignerPolicy {
                trusted: vec![],
                trust_on_first_use: true,
            },
        ] {
            for (why, json) in &cases {
                let mut s = Signers::new(policy.clone());
                let err = s.check_entry(ORIGIN, &parse(json)).unwrap_err();
                assert_eq!(
                    err.code,
                    ErrorCode::SignatureInvalid,
                    "{why}: {}",
                    err.message
                );
                assert!(s.pin(ORIGIN).is_none(), "{why}: a refusal pins nothing");
            }
        }
        // With the key trusted, the swapped signer no longer matters (the trusted key checks),
        // and everything else is still refused.
        for (why, json) in &cases {
            let mut s = Signers::new(SignerPolicy {
                trusted: vec![k.public().clone()],
                trust_on_first_use: false,
            });
            let r = s.check_entry(ORIGIN, &parse(json));
            if matches!(*why, "the signer key swapped" | "no signer key") {
                assert_eq!(r.unwrap().unwrap().trust, SignerTrust::Trusted, "{why}");
            } else {
                assert_eq!(code(r), ErrorCode::SignatureInvalid, "{why}");
            }
        }
        // The untouched entry verifies.
        let mut s = Signers::default();
        assert!(s.check_entry(ORIGIN, &parse(&good)).unwrap().is_some());
        assert_eq!(env().payload_type, PAYLOAD_TYPE);
    }

    #[test]
    fn a_dynamic_entry_cannot_be_signed() {
        let e = json!({"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},"resources":"dynamic"});
        let env = Envelope::sign(&statement_of(&entry_json("a", FILES), "acme"), &key(1)).to_json();
        let j = with_signature(&e, &env, Some(&key(1).public().to_jwk()));
        let err = Signers::default()
            .check_entry(ORIGIN, &parse(&j))
            .unwrap_err();
        assert_eq!(err.code, ErrorCode::SignatureInvalid);
        assert!(err.message.contains("dynamic"), "{}", err.message);
    }

    #[test]
    fn a_trust_list_requires_a_trusted_signer() {
        let e = entry_json("a", FILES);
        let mut s = Signers::new(SignerPolicy {
            trusted: vec![key(1).public().clone(), key(3).public().clone()],
            trust_on_first_use: false,
        });
        let ok = s
            .check_entry(ORIGIN, &parse(&signed(&e, &key(1), "acme")))
            .unwrap()
            .unwrap();
        assert_eq!(ok.trust, SignerTrust::Trusted);
        // Unsigned, or signed by a key the list does not hold (announced or not).
        let unsigned = s.check_entry(ORIGIN, &parse(&e)).unwrap_err();
        assert_eq!(
            (unsigned.code, unsigned.actual.as_deref()),
            (ErrorCode::SignerUntrusted, Some("unsigned"))
        );
        let other = s
            .check_entry(ORIGIN, &parse(&signed(&e, &key(2), "acme")))
            .unwrap_err();
        assert_eq!(other.code, ErrorCode::SignerUntrusted);
        assert!(other.message.contains(key(2).public().key_id()));
        // No pin without trust on first use: a second trusted key is as good as the first.
        assert!(s.pin(ORIGIN).is_none());
        let third = s
            .check_entry(ORIGIN, &parse(&signed(&e, &key(3), "other")))
            .unwrap()
            .unwrap();
        assert_eq!(
            (third.trust, third.catalog.as_str()),
            (SignerTrust::Trusted, "other")
        );
        // An envelope with a trusted key's signature beside an untrusted one verifies by the
        // trusted one.
        let mut env = Envelope::sign(&statement_of(&e, "acme"), &key(2));
        env.signatures
            .push(Envelope::sign(&statement_of(&e, "acme"), &key(1)).signatures[0].clone());
        let both = with_signature(&e, &env.to_json(), Some(&key(2).public().to_jwk()));
        assert_eq!(
            s.check_entry(ORIGIN, &parse(&both))
                .unwrap()
                .unwrap()
                .key_id,
            key(1).public().key_id()
        );
    }

    #[test]
    fn first_use_pins_the_origin_and_changes_are_refused_until_accepted() {
        let e = entry_json("a", FILES);
        let b = entry_json("b", &[("SKILL.md", b"b")]);
        let mut s = Signers::new(SignerPolicy {
            trusted: vec![],
            trust_on_first_use: true,
        });
        // Unsigned before any pin: accepted.
        assert_eq!(s.check_entry(ORIGIN, &parse(&e)), Ok(None));
        assert!(s.would_pin(ORIGIN));
        assert!(!Signers::default().would_pin(ORIGIN));
        let first = s
            .check_entry(ORIGIN, &parse(&signed(&e, &key(1), "acme")))
            .unwrap()
            .unwrap();
        assert_eq!(first.trust, SignerTrust::FirstUse);
        assert!(!s.would_pin(ORIGIN));
        let pinned = s
            .check_entry(ORIGIN, &parse(&signed(&b, &key(1), "acme")))
            .unwrap()
            .unwrap();
        assert_eq!(pinned.trust, SignerTrust::Pinned);
        // Another origin is pinned on its own.
        let elsewhere = s
            .check_entry("https://other.example", &parse(&signed(&e, &key(2), "x")))
            .unwrap()
            .unwrap();
        assert_eq!(elsewhere.trust, SignerTrust::FirstUse);
        // Unsigned, another key, another catalog: refused, naming both signers.
        let pin = format!("{} acme", key(1).public().key_id());
        for (why, json, actual) in [
            ("unsigned", e.clone(), "unsigned".to_owned()),
            (
                "another key",
                signed(&e, &key(2), "acme"),
                format!("{} acme", key(2).public().key_id()),
            ),
            (
                "another catalog",
                signed(&e, &key(1), "evil"),
                format!("{} evil", key(1).public().key_id()),
            ),
        ] {
            let err = s.check_entry(ORIGIN, &parse(&json)).unwrap_err();
            assert_eq!(err.code, ErrorCode::SignerChanged, "{why}");
            assert_eq!(
                (err.expected.as_deref(), err.actual.as_deref()),
                (Some(pin.as_str()), Some(actual.as_str())),
                "{why}"
            );
        }
        // A tampered envelope under the pinned key is invalid, not a change.
        let mut tampered = signed(&e, &key(1), "acme");
        tampered["resources"][1]["digest"] = json!(digest_of(b"y"));
        assert_eq!(
            code(s.check_entry(ORIGIN, &parse(&tampered))),
            ErrorCode::SignatureInvalid
        );
        // Accepting the change re-pins on the next signature that holds.
        assert!(s.accept_signer_change(ORIGIN));
        assert!(s.would_pin(ORIGIN));
        assert!(s.pin(ORIGIN).is_none());
        let repinned = s
            .check_entry(ORIGIN, &parse(&signed(&e, &key(2), "acme")))
            .unwrap()
            .unwrap();
        assert_eq!(repinned.trust, SignerTrust::FirstUse);
        assert_eq!(s.pin(ORIGIN).unwrap().key, *key(2).public());
        assert_eq!(
            code(s.check_entry(ORIGIN, &parse(&signed(&e, &key(1), "acme")))),
            ErrorCode::SignerChanged
        );
    }

    #[test]
    fn trust_list_and_first_use_together() {
        let e = entry_json("a", FILES);
        let mut s = Signers::new(SignerPolicy {
            trusted: vec![key(1).public().clone(), key(2).public().clone()],
            trust_on_first_use: true,
        });
        let first = s
            .check_entry(ORIGIN, &parse(&signed(&e, &key(1), "acme")))
            .unwrap()
            .unwrap();
        assert_eq!(first.trust, SignerTrust::Trusted);
        assert_eq!(s.pin(ORIGIN).unwrap().catalog, "acme");
        // A second trusted key is a change for this origin.
        assert_eq!(
            code(s.check_entry(ORIGIN, &parse(&signed(&e, &key(2), "acme")))),
            ErrorCode::SignerChanged
        );
        // An untrusted key is untrusted, pinned or not.
        assert_eq!(
            code(s.check_entry(ORIGIN, &parse(&signed(&e, &key(3), "acme")))),
            ErrorCode::SignerUntrusted
        );
    }

    #[test]
    fn imported_pins_are_enforced_and_checked() {
        let e = entry_json("a", FILES);
        let mut first = Signers::new(SignerPolicy {
            trusted: vec![],
            trust_on_first_use: true,
        });
        first
            .check_entry(ORIGIN, &parse(&signed(&e, &key(1), "acme")))
            .unwrap();
        let saved = first.export_pins();
        assert!(!saved.contains("\"d\""), "{saved}");
        let signing = key(1);
        let k = signing.public();
        assert_eq!(
            saved,
            format!(
                r#"{{"format":"skills-edge/pins","version":1,"pins":[{{"origin":"{ORIGIN}","keyId":"{}","catalog":"acme","key":{}}}]}}"#,
                k.key_id(),
                k.to_jwk()
            )
        );
        // Trust on first use off: the imported pin still holds.
        let mut later = Signers::default();
        assert_eq!(later.import_pins(&saved), Ok(1));
        assert_eq!(later.export_pins(), saved);
        assert_eq!(
            later
                .check_entry(ORIGIN, &parse(&signed(&e, &key(1), "acme")))
                .unwrap()
                .unwrap()
                .trust,
            SignerTrust::Pinned
        );
        assert_eq!(
            code(later.check_entry(ORIGIN, &parse(&signed(&e, &key(2), "acme")))),
            ErrorCode::SignerChanged
        );
        // The pinned key checks the envelope even when the server announces no key.
        let mut bare = signed(&e, &key(1), "acme");
        bare["_meta"]
            .as_object_mut()
            .unwrap()
            .remove(SIGNER_META_KEY);
        assert!(later.check_entry(ORIGIN, &parse(&bare)).unwrap().is_some());
        // Accepting a change without trust on first use still pins the next signer.
        later.accept_signer_change(ORIGIN);
        later
            .check_entry(ORIGIN, &parse(&signed(&e, &key(2), "acme")))
            .unwrap();
        assert_eq!(later.pin(ORIGIN).unwrap().key, *key(2).public());
        let swapped = saved.replace(
            &format!("\"keyId\":\"{}\"", key(1).public().key_id()),
            &format!("\"keyId\":\"{}\"", key(2).public().key_id()),
        );
        let secret: Json = serde_json::from_str(&key(1).to_jwk()).unwrap();
        let with_secret = saved.replace(&key(1).public().to_jwk(), &secret.to_string());
        for bad in [
            "{}".to_owned(),
            r#"{"format":"skills-edge/approvals","version":1,"pins":[]}"#.to_owned(),
            r#"{"format":"skills-edge/pins","version":2,"pins":[]}"#.to_owned(),
            swapped,
            with_secret,
            saved.replace(ORIGIN, ""),
        ] {
            let mut s = Signers::default();
            let err = s.import_pins(&bad).unwrap_err();
            assert_eq!(err.code, ErrorCode::InvalidArgument, "{bad}");
            assert!(!err.message.contains("\"d\":"), "{}", err.message);
            assert_eq!(s.pins().count(), 0, "{bad}");
        }
    }

    #[test]
    fn the_files_of_an_artifact_are_matched_by_path() {
        let e = entry_json("a", FILES);
        let st = statement_of(&e, "acme");
        let files: Vec<(String, String)> = FILES
            .iter()
            .map(|(p, b)| (p.to_string(), digest_of(b)))
            .collect();
        assert_eq!(statement_matches_files(&st, "u", "a", &files), Ok(()));
        let mut other = files.clone();
        other[1].1 = digest_of(b"y");
        let err = statement_matches_files(&st, "u", "a", &other).unwrap_err();
        assert_eq!(
            (err.code, err.field.as_deref()),
            (ErrorCode::SignatureInvalid, Some("subject[skill://a/x.md]"))
        );
        // The files as signed, under another revision: the revision is the last check.
        let mut restated = st.clone();
        restated.revision = digest_of(b"r");
        assert_eq!(
            statement_matches_files(&restated, "u", "a", &files)
                .unwrap_err()
                .field
                .as_deref(),
            Some("predicate.revision")
        );
        assert_eq!(
            statement_matches_files(&st, "u", "b", &files)
                .unwrap_err()
                .field
                .as_deref(),
            Some("predicate.skill")
        );
        let mut fewer = files.clone();
        fewer.pop();
        assert_eq!(
            statement_matches_files(&st, "u", "a", &fewer)
                .unwrap_err()
                .code,
            ErrorCode::SignatureInvalid
        );
        // Through the policy: the envelope and the keys a source offers.
        let env = Envelope::sign(&st, &key(1));
        let mut s = Signers::default();
        let signer = s
            .check_files(
                ORIGIN,
                "u",
                "a",
                &files,
                Some(Presented {
                    envelope: env.clone(),
                    offered: vec![key(2).public().clone(), key(1).public().clone()],
                }),
            )
            .unwrap()
            .unwrap();
        assert_eq!(signer.key_id, key(1).public().key_id());
        assert_eq!(
            s.check_files(
                ORIGIN,
                "u",
                "a",
                &other,
                Some(Presented {
                    envelope: env,
                    offered: vec![key(1).public().clone()]
                })
            )
            .unwrap_err()
            .code,
            ErrorCode::SignatureInvalid
        );
    }

    #[test]
    fn a_signed_entry_survives_to_json() {
        let good = signed(&entry_json("a", FILES), &key(1), "acme");
        let e = parse(&good);
        let again = Entry::parse(&e.to_json()).unwrap();
        assert_eq!(again.signature(), e.signature());
        assert!(Signers::default()
            .check_entry(ORIGIN, &again)
            .unwrap()
            .is_some());
        // An unsigned entry's JSON has no `_meta`.
        assert!(!parse(&entry_json("a", FILES)).to_json().contains("_meta"));
        // A `null` envelope, or a `_meta` that is not an object, is unsigned.
        let mut null = good.clone();
        null["_meta"][DSSE_META_KEY] = Json::Null;
        assert!(parse(&null).signature().is_none());
        let mut text = good.clone();
        text["_meta"] = json!("x");
        assert!(parse(&text).signature().is_none());
    }

    #[test]
    fn describe_is_short() {
        let s = Signer {
            key_id: "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k".into(),
            catalog: "acme".into(),
            trust: SignerTrust::Pinned,
        };
        assert_eq!(s.describe(), "acme (key kPrK_qmx…, pinned)");
        let unnamed = Signer {
            catalog: s.key_id.clone(),
            ..s
        };
        assert_eq!(unnamed.describe(), "key kPrK_qmx… (pinned)");
    }
}
