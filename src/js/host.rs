//! `SkillHost`: the host registry of skills, acting windows, approvals and signers; and the
//! signer options (`trust`, `trustOnFirstUse`, `pins`) it shares with `SkillsClientCore`.

use std::rc::Rc;

use wasm_bindgen::prelude::*;

use super::convert::{
    arg, content_fields, content_from, entry_from, host_options, is_array, json_arg,
    json_array_text, json_text, json_value, option_record, outcome_json, planned_js,
    skill_md_fields, string, Arg, JsonObject, Record, HOST_FIELDS,
};
use super::{js_error, set, throw};
use crate::host::signature::{trusted_key, SignerPolicy, Signers};
use crate::host::{self, ErrorCode, Hashing};
use wasm_bindgen::JsCast;

/// The signer options of `new SkillHost` and `new SkillsClientCore`: `trust` (public JWKs, as
/// objects or JSON text: the trust list), `trustOnFirstUse`, `pins` (exported pins, as JSON
/// text or the parsed object). The JWKs and pins are kept as JavaScript values and read as
/// JSON text (no JSON tree is built in WebAssembly).
pub(super) struct SignerOptionsJs {
    pub(super) trust: JsValue,
    pub(super) trust_on_first_use: Option<bool>,
    pub(super) pins: JsValue,
    /// Whether PEM items of `trust` (OMS keys) are read by the caller (`oms_keys`, the main
    /// module's) rather than refused.
    #[cfg_attr(not(feature = "js"), allow(dead_code))]
    pub(super) oms_read: bool,
}

/// Whether a `trust` item is PEM text (an OpenSSF Model Signing public key) rather than a JWK.
#[cfg(feature = "js")]
fn is_pem_item(k: &JsValue) -> bool {
    k.as_string()
        .is_some_and(|s| s.trim_start().starts_with("-----BEGIN "))
}

/// The signer options' names ([`SignerOptionsJs`]).
pub(super) const SIGNER_FIELDS: [&str; 3] = ["trust", "trustOnFirstUse", "pins"];

/// A JSON object given as itself or as its text (a JWK, exported pins).
fn object_text(value: &JsValue) -> Option<String> {
    if let Some(s) = value.as_string() {
        return Some(s);
    }
    if value.is_object() && !is_array(value) {
        return json_text(value);
    }
    None
}

impl SignerOptionsJs {
    /// The signer options of an option object ([`SIGNER_FIELDS`]); none without one.
    pub(super) fn read(record: Option<&Record>) -> Result<SignerOptionsJs, JsValue> {
        Ok(match record {
            Some(r) => SignerOptionsJs {
                trust: r.value("trust"),
                trust_on_first_use: r.bool("trustOnFirstUse")?,
                pins: r.value("pins"),
                oms_read: false,
            },
            None => SignerOptionsJs {
                trust: JsValue::UNDEFINED,
                trust_on_first_use: None,
                pins: JsValue::UNDEFINED,
                oms_read: false,
            },
        })
    }

    /// Whether `trustOnFirstUse` or `pins` was given (the caller then hands the pins back).
    /// `verifyWellKnown`'s (the main module's).
    #[cfg(feature = "js")]
    pub(super) fn pins_given(&self) -> bool {
        self.trust_on_first_use.is_some() || !(self.pins.is_undefined() || self.pins.is_null())
    }

    /// The OMS public keys among `trust` (its PEM items, each a P-256 `oms.pub`), which
    /// [`SignerOptionsJs::signers`] then leaves to the caller: `SkillsClientCore` and
    /// `verifyWellKnown` (the main module's), which check `skill.oms.sig`. `invalid-argument`
    /// naming the item for a PEM text that is no P-256 public key.
    #[cfg(feature = "js")]
    pub(super) fn oms_keys(&mut self, a: Arg) -> Result<Vec<crate::oms::OmsPublicKey>, JsValue> {
        self.oms_read = true;
        let mut keys = Vec::new();
        if !is_array(&self.trust) {
            return Ok(keys);
        }
        let items: &js_sys::Array = self.trust.unchecked_ref();
        for (i, k) in items.iter().enumerate() {
            if let Some(text) = k.as_string().filter(|_| is_pem_item(&k)) {
                let key = crate::oms::OmsPublicKey::from_pem(&text, &format!("[{i}]"))
                    .map_err(|e| a.with("trust").error(ErrorCode::InvalidArgument, e.message))?;
                keys.push(key);
            }
        }
        Ok(keys)
    }

    /// The policy and pins they give; `invalid-argument` naming the option (a secret key in
    /// `trust` is refused without quoting it).
    pub(super) fn signers(&self, a: Arg) -> Result<Signers, JsValue> {
        let mut trusted = Vec::new();
        if !(self.trust.is_undefined() || self.trust.is_null()) {
            if !is_array(&self.trust) {
                return Err(a
                    .with("trust")
                    .wrong("an array of public JWKs", &self.trust));
            }
            let items: &js_sys::Array = self.trust.unchecked_ref();
            for (i, k) in items.iter().enumerate() {
                // The verifier module reads no PEM (a PEM text is refused as no JWK there).
                #[cfg(feature = "js")]
                if is_pem_item(&k) {
                    if self.oms_read {
                        continue;
                    }
                    return Err(a.with("trust").error(
                        ErrorCode::InvalidArgument,
                        format_args!("[{i}] is a PEM key (an OpenSSF Model Signing public key, oms.pub), which SkillHost cannot enforce: the check needs skill.oms.sig read at each load and refresh, and SkillHost verifies only the files its caller fetches; pass the key in the trust of SkillsClient (skills-edge/client) or to skills-edge verify --trust, which read skill.oms.sig and check it (docs/verifying.md, OpenSSF Model Signing in the npm package)"),
                    ));
                }
                let text = object_text(&k).ok_or_else(|| {
                    a.with("trust").error(
                        ErrorCode::InvalidArgument,
                        format_args!("[{i}] must be a public JWK object or its JSON text"),
                    )
                })?;
                trusted.push(
                    trusted_key(&format!("trust[{i}]"), &text).map_err(|e| {
                        a.with("trust").error(ErrorCode::InvalidArgument, e.message)
                    })?,
                );
            }
        }
        let mut signers = Signers::new(SignerPolicy {
            trusted,
            trust_on_first_use: self.trust_on_first_use.unwrap_or(false),
        });
        if !(self.pins.is_undefined() || self.pins.is_null()) {
            let text = object_text(&self.pins).ok_or_else(|| {
                a.with("pins").error(
                    ErrorCode::InvalidArgument,
                    "must be exported pins (JSON text or a PinsExport object)",
                )
            })?;
            import(&mut signers, &text, a)?;
        }
        Ok(signers)
    }
}

fn import(signers: &mut Signers, text: &str, a: Arg) -> Result<(), JsValue> {
    signers
        .import_pins(text)
        .map(|_| ())
        .map_err(|e| a.with("pins").error(ErrorCode::InvalidArgument, e.message))
}

/// `SignerInfo`: a verified signer, as JSON text.
pub(super) fn signer_json(s: &host::Signer) -> String {
    let mut o = JsonObject::new();
    o.str("keyId", &s.key_id);
    o.str("catalog", &s.catalog);
    o.str("trust", s.trust.as_str());
    o.text()
}

/// `SkillSummary`'s properties (`ListedSkill` adds the figures of its manifest).
pub(super) fn summary_fields(o: &mut JsonObject, s: &host::SkillSummary) {
    o.str("serverLabel", &s.server_label);
    o.str("uri", &s.uri);
    o.str("name", &s.name);
    o.str("description", &s.description);
    o.str("displayName", &s.display_name);
    o.bool("dynamic", s.dynamic);
    o.opt_str("revision", s.revision.as_deref());
    o.bool("approved", s.approved);
    o.bool("active", s.active);
    if let Some(signer) = &s.signer {
        o.raw("signer", &signer_json(signer));
    }
}

/// `SkillSummary`, as JSON text.
pub(super) fn summary_json(s: &host::SkillSummary) -> String {
    let mut o = JsonObject::new();
    summary_fields(&mut o, s);
    o.text()
}

/// The `SkillHost` method `method`'s first parameter, `label`.
const fn label_of(method: &'static str) -> Arg {
    arg(method, "label")
}

/// `(label, uri)`, the two strings most methods take.
fn label_uri(
    method: &'static str,
    label: &JsValue,
    uri: &JsValue,
) -> Result<(String, String), JsValue> {
    let a = label_of(method);
    Ok((string(label, a)?, string(uri, a.with("uri"))?))
}

/// The host registry: skills keyed by (host-assigned server label, URI), display names that
/// disambiguate collisions, acting windows holding the entry a skill was loaded from, and
/// approvals bound to content. It never fetches: `planLoad`/`planRead` say what to read, the
/// caller reads it from the same server, and `load`/`read` verify it.
#[wasm_bindgen]
pub struct SkillHost {
    inner: host::SkillHost,
}

#[wasm_bindgen]
impl SkillHost {
    /// An empty registry: `allowDynamic`, `requireApproval`, `nestedWithoutApproval` (a nested
    /// skill needs its own approval unless it is set), and the signer policy (`trust`,
    /// `trustOnFirstUse`, `pins`; none by default: signatures are checked when present and
    /// reported). Throws `invalid-argument` for an unknown or malformed option.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "SkillHostOptions")] options: Option<
            JsValue,
        >,
    ) -> Result<SkillHost, JsValue> {
        let a = arg("new SkillHost", "options");
        let fields = [
            SIGNER_FIELDS[0],
            SIGNER_FIELDS[1],
            SIGNER_FIELDS[2],
            HOST_FIELDS[0],
            HOST_FIELDS[1],
            HOST_FIELDS[2],
        ];
        let record = option_record(&options.unwrap_or(JsValue::UNDEFINED), a, &fields)?;
        let signer_options = SignerOptionsJs::read(record.as_ref())?;
        let mut inner = host::SkillHost::new(host_options(record.as_ref())?);
        *inner.signers_mut() = signer_options.signers(a)?;
        Ok(SkillHost { inner })
    }

    /// Sets the origin of server `label`: the name its signer is pinned under (the label until
    /// set). Throws `invalid-argument`, `unknown-server`.
    #[wasm_bindgen(js_name = setOrigin)]
    pub fn set_origin(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] label: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] origin: JsValue,
    ) -> Result<(), JsValue> {
        let a = label_of("SkillHost.setOrigin");
        let label = string(&label, a)?;
        let origin = string(&origin, a.with("origin"))?;
        throw(self.inner.set_origin(&label, &origin))
    }

    /// The signer verified for a registered skill, or `undefined` (unsigned, or not
    /// registered).
    #[wasm_bindgen(unchecked_return_type = "SignerInfo | undefined")]
    pub fn signer(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] label: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    ) -> Result<JsValue, JsValue> {
        let (label, uri) = label_uri("SkillHost.signer", &label, &uri)?;
        match self.inner.signer(&label, &uri) {
            Some(s) => json_value(&signer_json(s)),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// The pins as JSON text (a `PinsExport`), for persisting.
    #[wasm_bindgen(js_name = exportPins)]
    pub fn export_pins(&self) -> String {
        self.inner.export_pins()
    }

    /// Restores exported pins (JSON text or the parsed object); returns how many were read.
    /// Throws `invalid-argument`.
    #[wasm_bindgen(js_name = importPins)]
    pub fn import_pins(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string | PinsExport")] pins: JsValue,
    ) -> Result<u32, JsValue> {
        let text = json_arg(
            &pins,
            arg("SkillHost.importPins", "pins"),
            ErrorCode::InvalidArgument,
            "JSON text or a PinsExport object",
            true,
        )?;
        let n = throw(self.inner.import_pins(&text))?;
        Ok(u32::try_from(n).unwrap_or(u32::MAX))
    }

    /// Accepts a change of signer for `origin`: its pin is dropped, and the next signature
    /// from it that holds pins it again. Returns whether it had a pin.
    #[wasm_bindgen(js_name = acceptSignerChange)]
    pub fn accept_signer_change(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] origin: JsValue,
    ) -> Result<bool, JsValue> {
        let origin = string(&origin, arg("SkillHost.acceptSignerChange", "origin"))?;
        Ok(self.inner.accept_signer_change(&origin))
    }

    /// Adds a server under a host-assigned label (1-2048 bytes, no control characters; an
    /// origin such as `https://skills.example` is one). Throws
    /// `invalid-argument` when malformed or already in use.
    #[wasm_bindgen(js_name = addServer)]
    pub fn add_server(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] label: JsValue,
    ) -> Result<(), JsValue> {
        let label = string(&label, label_of("SkillHost.addServer"))?;
        throw(self.inner.add_server(&label))
    }

    /// Removes a server with its skills, acting windows and approvals. Throws
    /// `unknown-server`.
    #[wasm_bindgen(js_name = removeServer)]
    pub fn remove_server(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] label: JsValue,
    ) -> Result<(), JsValue> {
        let label = string(&label, label_of("SkillHost.removeServer"))?;
        throw(self.inner.remove_server(&label))
    }

    /// The server labels, in the order added.
    #[wasm_bindgen(unchecked_return_type = "string[]")]
    pub fn servers(&self) -> Result<JsValue, JsValue> {
        Ok(self
            .inner
            .servers()
            .iter()
            .map(|s| JsValue::from_str(s))
            .collect::<js_sys::Array>()
            .into())
    }

    /// Registers (or replaces) an entry of server `label`; revokes an approval whose
    /// `{uri, digest}` set no longer matches. Throws `invalid-entry`, `unknown-server`.
    #[wasm_bindgen(unchecked_return_type = "RegisterOutcome")]
    pub fn register(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] label: JsValue,
        #[wasm_bindgen(unchecked_param_type = "SkillEntry")] entry: JsValue,
    ) -> Result<JsValue, JsValue> {
        let a = label_of("SkillHost.register");
        let label = string(&label, a)?;
        let entry = entry_from(&entry, a.with("entry"))?;
        let outcome = throw(self.inner.register(&label, Rc::unwrap_or_clone(entry)))?;
        json_value(&outcome_json(&outcome))
    }

    /// `register` for a skill already registered (throws `unknown-skill` otherwise).
    #[wasm_bindgen(unchecked_return_type = "RegisterOutcome")]
    pub fn refresh(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] label: JsValue,
        #[wasm_bindgen(unchecked_param_type = "SkillEntry")] entry: JsValue,
    ) -> Result<JsValue, JsValue> {
        let a = label_of("SkillHost.refresh");
        let label = string(&label, a)?;
        let entry = entry_from(&entry, a.with("entry"))?;
        let outcome = throw(self.inner.refresh(&label, Rc::unwrap_or_clone(entry)))?;
        json_value(&outcome_json(&outcome))
    }

    /// Registers every valid entry of a `skills/list` result or an array of entries; the
    /// invalid ones are reported, not registered.
    #[wasm_bindgen(js_name = registerListing, unchecked_return_type = "ListingOutcome")]
    pub fn register_listing(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] label: JsValue,
        #[wasm_bindgen(unchecked_param_type = "SkillEntry[] | ListSkillsResult")] listing: JsValue,
    ) -> Result<JsValue, JsValue> {
        let a = label_of("SkillHost.registerListing");
        let label = string(&label, a)?;
        let text = json_arg(
            &listing,
            a.with("listing"),
            ErrorCode::InvalidArgument,
            "an array of skill entries or a skills/list result object",
            false,
        )?;
        let out = throw(self.inner.register_listing(&label, &text))?;
        // `ListingOutcome`: each rejected entry with its error as a thrown-style
        // `SkillsEdgeError`, set on the parsed objects.
        let mut o = JsonObject::new();
        o.raw(
            "registered",
            &json_array_text(out.registered.iter().map(outcome_json)),
        );
        o.raw(
            "rejected",
            &json_array_text(out.rejected.iter().map(|r| {
                let mut o = JsonObject::new();
                o.num("index", r.index as u64);
                o.raw("error", "null");
                o.text()
            })),
        );
        let listing = o.into_js()?;
        if !out.rejected.is_empty() {
            let rejected = js_sys::Reflect::get(&listing, &JsValue::from_str("rejected"))?;
            let rejected: &js_sys::Array = rejected.unchecked_ref();
            for (i, r) in out.rejected.iter().enumerate() {
                set(&rejected.get(i as u32), "error", &js_error(r.error.clone()));
            }
        }
        Ok(listing)
    }

    /// Registers the entry of a `skills/get` result for `uri` (the result's `skill.uri` must
    /// echo it). Throws `invalid-entry`, `unknown-server`.
    #[wasm_bindgen(js_name = registerGetResult, unchecked_return_type = "RegisterOutcome")]
    pub fn register_get_result(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] label: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
        #[wasm_bindgen(unchecked_param_type = "GetSkillResult")] result: JsValue,
    ) -> Result<JsValue, JsValue> {
        let (label, uri) = label_uri("SkillHost.registerGetResult", &label, &uri)?;
        let text = json_arg(
            &result,
            arg("SkillHost.registerGetResult", "result"),
            ErrorCode::InvalidEntry,
            "a skills/get result object",
            false,
        )?;
        let outcome = throw(self.inner.register_get_result(&label, &uri, &text))?;
        json_value(&outcome_json(&outcome))
    }

    /// Forgets a skill and closes its acting window. Returns whether it was registered.
    pub fn forget(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] label: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    ) -> Result<bool, JsValue> {
        let (label, uri) = label_uri("SkillHost.forget", &label, &uri)?;
        throw(self.inner.forget(&label, &uri))
    }

    /// The registered entry (as the host reads it), or `undefined`.
    #[wasm_bindgen(unchecked_return_type = "SkillEntry | undefined")]
    pub fn entry(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] label: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    ) -> Result<JsValue, JsValue> {
        let (label, uri) = label_uri("SkillHost.entry", &label, &uri)?;
        match self.inner.entry(&label, &uri) {
            Some(e) => json_value(&e.to_json()),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// Every registered skill with a display name unique across servers.
    #[wasm_bindgen(unchecked_return_type = "SkillSummary[]")]
    pub fn skills(&self) -> Result<JsValue, JsValue> {
        json_value(&json_array_text(
            self.inner.skills().iter().map(summary_json),
        ))
    }

    /// The skill shown under `displayName`, or `undefined`.
    #[wasm_bindgen(unchecked_return_type = "SkillRef | undefined")]
    pub fn lookup(
        &self,
        #[wasm_bindgen(js_name = displayName, unchecked_param_type = "string")]
        display_name: JsValue,
    ) -> Result<JsValue, JsValue> {
        let name = string(&display_name, arg("SkillHost.lookup", "displayName"))?;
        match self.inner.lookup(&name) {
            Some((server_label, uri)) => {
                // `SkillRef`.
                let mut o = JsonObject::new();
                o.str("serverLabel", &server_label);
                o.str("uri", &uri);
                o.into_js()
            }
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// What to read to load a skill, after the checks that need no content (limits, dynamic
    /// policy, approval policy). Throws `unknown-server`, `unknown-skill`, `limit-exceeded`,
    /// `dynamic-not-allowed`, `not-approved`.
    #[wasm_bindgen(js_name = planLoad, unchecked_return_type = "PlannedRead")]
    pub fn plan_load(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] label: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    ) -> Result<JsValue, JsValue> {
        let (label, uri) = label_uri("SkillHost.planLoad", &label, &uri)?;
        planned_js(&throw(self.inner.plan_load(&label, &uri))?)
    }

    /// Loads a skill from its SKILL.md (a `resources/read` result, text or bytes read from the
    /// same server): verified, then the acting window opens holding its entry.
    #[wasm_bindgen(unchecked_return_type = "LoadedSkill")]
    pub fn load(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] label: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
        #[wasm_bindgen(unchecked_param_type = "ReadResourceResult | FileContent")] content: JsValue,
    ) -> Result<JsValue, JsValue> {
        let (label, uri) = label_uri("SkillHost.load", &label, &uri)?;
        let content = content_from(&content, arg("SkillHost.load", "content"), true)?;
        let loaded = throw(self.inner.load(&label, &uri, content, Hashing::Here))?;
        let mut o = JsonObject::new();
        skill_md_fields(&mut o, &loaded.skill_md);
        o.str("serverLabel", &loaded.server_label);
        o.str("displayName", &loaded.display_name);
        o.into_js()
    }

    /// What to read for a reference (relative to the skill root, or an absolute URI) of a
    /// loaded skill, from the held entry only. Throws `no-acting-window`, `escapes-root`,
    /// `invalid-reference`, `not-in-manifest`.
    #[wasm_bindgen(js_name = planRead, unchecked_return_type = "PlannedRead")]
    pub fn plan_read(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] label: JsValue,
        #[wasm_bindgen(js_name = skillUri, unchecked_param_type = "string")] skill_uri: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] reference: JsValue,
    ) -> Result<JsValue, JsValue> {
        let a = label_of("SkillHost.planRead");
        let label = string(&label, a)?;
        let skill_uri = string(&skill_uri, a.with("skillUri"))?;
        let reference = string(&reference, a.with("reference"))?;
        let plan = throw(self.inner.plan_read(&label, &skill_uri, &reference))?;
        planned_js(&plan)
    }

    /// Verifies a supporting file of a loaded skill against the held entry. A nested SKILL.md
    /// read this way is ordinary content and activates nothing.
    #[wasm_bindgen(unchecked_return_type = "ReadFile")]
    pub fn read(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] label: JsValue,
        #[wasm_bindgen(js_name = skillUri, unchecked_param_type = "string")] skill_uri: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] reference: JsValue,
        #[wasm_bindgen(unchecked_param_type = "ReadResourceResult | FileContent")] content: JsValue,
    ) -> Result<JsValue, JsValue> {
        let a = label_of("SkillHost.read");
        let label = string(&label, a)?;
        let skill_uri = string(&skill_uri, a.with("skillUri"))?;
        let reference = string(&reference, a.with("reference"))?;
        let content = content_from(&content, a.with("content"), true)?;
        let file = throw(
            self.inner
                .read(&label, &skill_uri, &reference, content, Hashing::Here),
        )?;
        let mut o = JsonObject::new();
        content_fields(&mut o, &file.content);
        o.str("serverLabel", &file.server_label);
        o.str("skillUri", &file.skill_uri);
        o.into_js()
    }

    /// Whether an acting window is open for the skill.
    #[wasm_bindgen(js_name = isActive)]
    pub fn is_active(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] label: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    ) -> Result<bool, JsValue> {
        let (label, uri) = label_uri("SkillHost.isActive", &label, &uri)?;
        Ok(self.inner.is_active(&label, &uri))
    }

    /// Closes the acting window. Returns whether one was open.
    #[wasm_bindgen(js_name = closeWindow)]
    pub fn close_window(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] label: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    ) -> Result<bool, JsValue> {
        let (label, uri) = label_uri("SkillHost.closeWindow", &label, &uri)?;
        Ok(self.inner.close_window(&label, &uri))
    }

    /// Records the user's approval of the skill as its entry stands now; returns the
    /// fingerprint. Throws `dynamic-not-allowed`, `unknown-server`, `unknown-skill`.
    pub fn approve(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] label: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    ) -> Result<String, JsValue> {
        let (label, uri) = label_uri("SkillHost.approve", &label, &uri)?;
        throw(self.inner.approve(&label, &uri))
    }

    /// Withdraws an approval. Returns whether there was one.
    pub fn revoke(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] label: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    ) -> Result<bool, JsValue> {
        let (label, uri) = label_uri("SkillHost.revoke", &label, &uri)?;
        Ok(self.inner.revoke(&label, &uri))
    }

    /// Whether a stored approval matches the skill's current entry.
    #[wasm_bindgen(js_name = isApproved)]
    pub fn is_approved(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] label: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    ) -> Result<bool, JsValue> {
        let (label, uri) = label_uri("SkillHost.isApproved", &label, &uri)?;
        Ok(self.inner.is_approved(&label, &uri))
    }

    /// The stored approvals as JSON text (an `ApprovalsExport`), for persisting.
    #[wasm_bindgen(js_name = exportApprovals)]
    pub fn export_approvals(&self) -> String {
        self.inner.export_approvals()
    }

    /// Restores exported approvals (JSON text or the parsed object); an approval that does
    /// not match a registered entry is revoked. Returns how many were stored. Throws
    /// `invalid-argument`.
    #[wasm_bindgen(js_name = importApprovals)]
    pub fn import_approvals(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string | ApprovalsExport")] approvals: JsValue,
    ) -> Result<u32, JsValue> {
        let text = json_arg(
            &approvals,
            arg("SkillHost.importApprovals", "approvals"),
            ErrorCode::InvalidArgument,
            "JSON text or an ApprovalsExport object",
            true,
        )?;
        let n = throw(self.inner.import_approvals(&text))?;
        Ok(u32::try_from(n).unwrap_or(u32::MAX))
    }
}
