//! Pins of OpenSSF Model Signing (OMS) keys: the OMS key an origin's `skill.oms.sig` bundles
//! are held to, beside the DSSE pins of [`Signers`](super::Signers).
//!
//! **What a pin names.** An OMS bundle names its key only by a hint: in `model_signing` 1.1.1
//! (`_signing/sign_ec_key.py`, `Signer._get_verification_material` and
//! `Verifier._verify_bundle`), `verificationMaterial.publicKey.hint` is the SHA-256, in lowercase
//! hex, of the public key's PEM SubjectPublicKeyInfo as `cryptography` writes it, and `verify
//! key` refuses a bundle whose hint is not that of the key it was given. A pin keeps that hint
//! (the key's identity, as `model_signing` and the report's `oms:HINT` key id name it) and the
//! PEM text it is the hash of, so that an imported pin can check the origin's signatures by
//! itself, as a DSSE pin holds its JWK. The hint alone cannot: a bundle carries no key, and an
//! unverified hint is whatever the server wrote.
//!
//! **First use.** Only a signature that verified pins: with a key of the trust list, or the
//! key of a pin. So first use chooses among the trusted OMS keys (a host trusting several
//! publishers' keys, or a publisher's old and new key, holds each origin to the one it was
//! first seen with), and a pins file is a per-origin trust record. The checks are the
//! command's (`crate::command::oms`, which holds the curve arithmetic); this module keeps the
//! state, reads and writes it, and holds nothing the web verifier module would have to check.
//! It also settles a DSSE first-use pin once the OMS check judged the skill
//! ([`Signers::settle_first_use`]).

use std::collections::{BTreeMap, BTreeSet};

use crate::json::Node;

use super::{check_origin, once_per_origin, Pin, Result, Signer, Signers};
use crate::host::error::{ErrorCode, VerifyError};
use crate::host::index::canonical_origin;
use crate::skill::digest::digest_of;
use crate::skill::value::write_json_string;

/// An origin's OMS pin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OmsPin {
    /// The key's hint: the SHA-256 (lowercase hex) of `key`.
    pub hint: String,
    /// The public key, PEM SubjectPublicKeyInfo as `cryptography` writes it.
    pub key: String,
}

/// The OMS pins by origin, and the origins whose change of OMS signer was accepted.
#[derive(Debug, Clone, Default)]
pub(crate) struct OmsPins {
    pins: BTreeMap<String, Box<OmsPin>>,
    accepting: BTreeSet<String>,
}

/// An OMS pin as an export holds it, before its checks.
pub(super) struct OmsPinJson {
    origin: String,
    hint: String,
    key: String,
}

/// The export's `omsPins` (version 2): `[{"origin","hint","key"}]`.
pub(super) fn read_json(doc: &Node<'_>) -> std::result::Result<Vec<OmsPinJson>, String> {
    doc.array_of("omsPins")
        .and_then(|pins| {
            pins.iter()
                .map(|p| {
                    p.expect_object("an OMS pin")?;
                    Ok(OmsPinJson {
                        origin: p.str_of("origin")?.to_owned(),
                        hint: p.str_of("hint")?.to_owned(),
                        key: p.str_of("key")?.to_owned(),
                    })
                })
                .collect()
        })
        .map_err(String::from)
}

/// The hint `model_signing` computes for the PEM text `key`.
fn hint_of(key: &str) -> String {
    let d = digest_of(key.as_bytes());
    d.strip_prefix("sha256:").unwrap_or(&d).to_owned()
}

impl OmsPins {
    /// The pin of `origin` (canonical).
    pub(super) fn get(&self, origin: &str) -> Option<&OmsPin> {
        self.pins.get(origin).map(|p| &**p)
    }

    /// Pins `origin` (canonical) to `hint` and `key` when the next OMS signature from it pins:
    /// it has no pin, and trust on first use is on (`first_use`) or a change was accepted.
    /// Returns whether it pinned.
    pub(super) fn pin_if_first(
        &mut self,
        origin: &str,
        first_use: bool,
        hint: &str,
        key: &str,
    ) -> bool {
        let pins = !self.pins.contains_key(origin)
            && (first_use || self.accepting.contains(origin))
            && check_origin(origin).is_ok();
        if pins {
            self.accepting.remove(origin);
            self.pins.insert(
                origin.to_owned(),
                Box::new(OmsPin {
                    hint: hint.to_owned(),
                    key: key.to_owned(),
                }),
            );
        }
        pins
    }

    /// Accepts a change of OMS signer for `origin` (canonical): the pin is dropped and the
    /// next OMS signature from it that verifies pins it again. Returns whether it had a pin.
    pub(super) fn accept(&mut self, origin: &str) -> bool {
        self.accepting.insert(origin.to_owned());
        self.pins.remove(origin).is_some()
    }

    /// Appends `[{"origin","hint","key"}]`.
    pub(super) fn write_json(&self, out: &mut String) {
        out.push('[');
        for (i, (origin, p)) in self.pins.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"origin\":");
            write_json_string(origin, out);
            out.push_str(",\"hint\":");
            write_json_string(&p.hint, out);
            out.push_str(",\"key\":");
            write_json_string(&p.key, out);
            out.push('}');
        }
        out.push(']');
    }

    /// Checks read pins: each origin well formed and pinned once, each hint 64 lowercase hex characters and
    /// the SHA-256 of its key, each key one PEM public key block. Whether the key is a P-256
    /// point is checked where it is used (the command's OMS check). `(canonical origin, pin)`.
    pub(super) fn check(read: Vec<OmsPinJson>) -> Result<Vec<(String, Box<OmsPin>)>> {
        let bad = |m: String| VerifyError::new(ErrorCode::InvalidArgument, m);
        let mut out = Vec::with_capacity(read.len());
        let mut seen = BTreeMap::new();
        for p in read {
            check_origin(&p.origin).map_err(|e| bad(format!("an OMS pin: {}", e.message)))?;
            once_per_origin(&mut seen, &p.origin, "omsPins")?;
            let what = format!("the OMS pin of {}", p.origin);
            let hex = p.hint.len() == 64
                && p.hint
                    .bytes()
                    .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
            if !hex {
                return Err(bad(format!(
                    "{what}: its hint must be 64 lowercase hex characters (the SHA-256 of the key's PEM, as model_signing writes it)"
                )));
            }
            let pem = p.key.starts_with("-----BEGIN PUBLIC KEY-----\n")
                && p.key.ends_with("-----END PUBLIC KEY-----\n")
                && p.key.matches("-----BEGIN ").count() == 1;
            if !pem {
                return Err(bad(format!(
                    "{what}: its key must be one PEM public key (-----BEGIN PUBLIC KEY-----), as oms.pub holds it"
                )));
            }
            let actual = hint_of(&p.key);
            if actual != p.hint {
                return Err(bad(format!(
                    "{what} names the key with hint {} but holds the key with hint {actual}",
                    p.hint
                )));
            }
            out.push((
                canonical_origin(&p.origin),
                Box::new(OmsPin {
                    hint: p.hint,
                    key: p.key,
                }),
            ));
        }
        Ok(out)
    }

    /// Stores checked pins over the held ones.
    pub(super) fn extend(&mut self, read: Vec<(String, Box<OmsPin>)>) {
        self.pins.extend(read);
    }
}

impl Signers {
    /// The OMS pin of `origin`, if it has one.
    pub(crate) fn oms_pin(&self, origin: &str) -> Option<&OmsPin> {
        self.oms.get(&canonical_origin(origin))
    }

    /// Pins `origin` to the OMS key `key` (PEM) whose hint is `hint`, when the next OMS
    /// signature from it pins: it has no OMS pin, and trust on first use is on or a change was
    /// accepted for it. Called only for a signature that verified with `key` and a skill that
    /// passed every check. Returns whether it pinned.
    pub(crate) fn pin_oms(&mut self, origin: &str, hint: &str, key: &str) -> bool {
        let tofu = self.policy.trust_on_first_use;
        self.oms
            .pin_if_first(&canonical_origin(origin), tofu, hint, key)
    }

    /// Settles the pin of `origin` once the skill `signer` signed was judged whole (its
    /// files, its OMS signature): a pin made on first use and not yet confirmed is taken back
    /// when the skill is `refused` (a refused skill pins nothing; a change accepted for the
    /// origin stays accepted), and confirmed when it passed. A passing skill signed by a key
    /// whose pin was taken back in this run pins it again. Returns whether a pin was taken
    /// back.
    pub(crate) fn settle_first_use(
        &mut self,
        origin: &str,
        signer: &Signer,
        refused: bool,
    ) -> bool {
        let origin = canonical_origin(origin);
        let same = |p: &Pin| p.key.key_id() == signer.key_id && p.catalog == signer.catalog;
        match self.pins.get(&origin) {
            Some(p) if same(p) && self.unconfirmed.contains(&origin) => {
                if !refused {
                    self.unconfirmed.remove(&origin);
                    return false;
                }
                if let Some(p) = self.pins.remove(&origin) {
                    self.taken_back.insert(origin.clone(), p);
                }
                self.unconfirmed.remove(&origin);
                if !self.policy.trust_on_first_use {
                    // Only an accepted change pins with trust on first use off.
                    self.accepting.insert(origin);
                }
                true
            }
            None if !refused && self.taken_back.get(&origin).is_some_and(|p| same(p)) => {
                if let Some(p) = self.taken_back.remove(&origin) {
                    self.accepting.remove(&origin);
                    self.pins.insert(origin, p);
                }
                false
            }
            _ => false,
        }
    }
}
