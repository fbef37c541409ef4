//! `SkillHost`: the host registry of skills, acting windows and approvals.

use js_sys::Array;
use wasm_bindgen::prelude::*;

use super::convert::{
    content_from, content_js, entry_from, json_text, json_value, object, outcome_js, parse_options,
    planned_js, set, skill_md_js,
};
use super::{fail, js_error, throw};
use crate::host::{self, ErrorCode, HostOptions};

#[derive(serde::Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct JsHostOptions {
    allow_dynamic: Option<bool>,
    require_approval: Option<bool>,
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
    /// An empty registry. Throws `invalid-argument` for an unknown option.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "SkillHostOptions")] options: Option<
            JsValue,
        >,
    ) -> Result<SkillHost, JsValue> {
        let o: JsHostOptions = parse_options(&options, "SkillHost options")?;
        Ok(SkillHost {
            inner: host::SkillHost::new(HostOptions {
                allow_dynamic: o.allow_dynamic.unwrap_or(false),
                require_approval: o.require_approval.unwrap_or(false),
            }),
        })
    }

    /// Adds a server under a host-assigned label (1-128 bytes, no `:`). Throws
    /// `invalid-argument` when malformed or already in use.
    #[wasm_bindgen(js_name = addServer)]
    pub fn add_server(&mut self, label: &str) -> Result<(), JsValue> {
        throw(self.inner.add_server(label))
    }

    /// Removes a server with its skills, acting windows and approvals. Throws
    /// `unknown-server`.
    #[wasm_bindgen(js_name = removeServer)]
    pub fn remove_server(&mut self, label: &str) -> Result<(), JsValue> {
        throw(self.inner.remove_server(label))
    }

    /// The server labels, in the order added.
    #[wasm_bindgen(unchecked_return_type = "string[]")]
    pub fn servers(&self) -> JsValue {
        let a = Array::new();
        for s in self.inner.servers() {
            a.push(&JsValue::from_str(s));
        }
        a.into()
    }

    /// Registers (or replaces) an entry of server `label`; revokes an approval whose
    /// `{uri, digest}` set no longer matches. Throws `invalid-entry`, `unknown-server`.
    #[wasm_bindgen(unchecked_return_type = "RegisterOutcome")]
    pub fn register(
        &mut self,
        label: &str,
        #[wasm_bindgen(unchecked_param_type = "SkillEntry")] entry: JsValue,
    ) -> Result<JsValue, JsValue> {
        let entry = entry_from(&entry)?;
        Ok(outcome_js(&throw(self.inner.register(label, entry))?))
    }

    /// `register` for a skill already registered (throws `unknown-skill` otherwise).
    #[wasm_bindgen(unchecked_return_type = "RegisterOutcome")]
    pub fn refresh(
        &mut self,
        label: &str,
        #[wasm_bindgen(unchecked_param_type = "SkillEntry")] entry: JsValue,
    ) -> Result<JsValue, JsValue> {
        let entry = entry_from(&entry)?;
        Ok(outcome_js(&throw(self.inner.refresh(label, entry))?))
    }

    /// Registers every valid entry of a `skills/list` result or an array of entries; the
    /// invalid ones are reported, not registered.
    #[wasm_bindgen(js_name = registerListing, unchecked_return_type = "ListingOutcome")]
    pub fn register_listing(
        &mut self,
        label: &str,
        #[wasm_bindgen(unchecked_param_type = "SkillEntry[] | ListSkillsResult")] listing: JsValue,
    ) -> Result<JsValue, JsValue> {
        let text = json_text(&listing).ok_or_else(|| {
            fail(
                ErrorCode::InvalidArgument,
                "the listing cannot be serialised as JSON",
            )
        })?;
        let out = throw(self.inner.register_listing(label, &text))?;
        let o = object();
        let registered = Array::new();
        for r in &out.registered {
            registered.push(&outcome_js(r));
        }
        let rejected = Array::new();
        for r in &out.rejected {
            let item = object();
            set(&item, "index", &JsValue::from_f64(r.index as f64));
            set(&item, "error", &js_error(&r.error));
            rejected.push(&item);
        }
        set(&o, "registered", &registered.into());
        set(&o, "rejected", &rejected.into());
        Ok(o)
    }

    /// Registers the entry of a `skills/get` result for `uri` (the result's `skill.uri` must
    /// echo it). Throws `invalid-entry`, `unknown-server`.
    #[wasm_bindgen(js_name = registerGetResult, unchecked_return_type = "RegisterOutcome")]
    pub fn register_get_result(
        &mut self,
        label: &str,
        uri: &str,
        #[wasm_bindgen(unchecked_param_type = "GetSkillResult")] result: JsValue,
    ) -> Result<JsValue, JsValue> {
        let text = json_text(&result).ok_or_else(|| {
            fail(
                ErrorCode::InvalidEntry,
                "the skills/get result cannot be serialised as JSON",
            )
        })?;
        Ok(outcome_js(&throw(
            self.inner.register_get_result(label, uri, &text),
        )?))
    }

    /// Forgets a skill and closes its acting window. Returns whether it was registered.
    pub fn forget(&mut self, label: &str, uri: &str) -> Result<bool, JsValue> {
        throw(self.inner.forget(label, uri))
    }

    /// The registered entry (as the host reads it), or `undefined`.
    #[wasm_bindgen(unchecked_return_type = "SkillEntry | undefined")]
    pub fn entry(&self, label: &str, uri: &str) -> Result<JsValue, JsValue> {
        match self.inner.entry(label, uri) {
            Some(e) => json_value(&e.to_json()),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// Every registered skill with a display name unique across servers.
    #[wasm_bindgen(unchecked_return_type = "SkillSummary[]")]
    pub fn skills(&self) -> JsValue {
        let a = Array::new();
        for s in self.inner.skills() {
            let o = object();
            set(&o, "serverLabel", &JsValue::from_str(&s.server_label));
            set(&o, "uri", &JsValue::from_str(&s.uri));
            set(&o, "name", &JsValue::from_str(&s.name));
            set(&o, "description", &JsValue::from_str(&s.description));
            set(&o, "displayName", &JsValue::from_str(&s.display_name));
            set(&o, "dynamic", &JsValue::from_bool(s.dynamic));
            set(&o, "approved", &JsValue::from_bool(s.approved));
            set(&o, "active", &JsValue::from_bool(s.active));
            a.push(&o);
        }
        a.into()
    }

    /// The skill shown under `displayName`, or `undefined`.
    #[wasm_bindgen(unchecked_return_type = "SkillRef | undefined")]
    pub fn lookup(&self, #[wasm_bindgen(js_name = displayName)] display_name: &str) -> JsValue {
        match self.inner.lookup(display_name) {
            Some((label, uri)) => {
                let o = object();
                set(&o, "serverLabel", &JsValue::from_str(&label));
                set(&o, "uri", &JsValue::from_str(&uri));
                o
            }
            None => JsValue::UNDEFINED,
        }
    }

    /// What to read to load a skill, after the checks that need no content (limits, dynamic
    /// policy, approval policy). Throws `unknown-server`, `unknown-skill`, `limit-exceeded`,
    /// `dynamic-not-allowed`, `not-approved`.
    #[wasm_bindgen(js_name = planLoad, unchecked_return_type = "PlannedRead")]
    pub fn plan_load(&self, label: &str, uri: &str) -> Result<JsValue, JsValue> {
        Ok(planned_js(&throw(self.inner.plan_load(label, uri))?))
    }

    /// Loads a skill from its SKILL.md (a `resources/read` result, text or bytes read from the
    /// same server): verified, then the acting window opens holding its entry.
    #[wasm_bindgen(unchecked_return_type = "LoadedSkill")]
    pub fn load(
        &mut self,
        label: &str,
        uri: &str,
        #[wasm_bindgen(unchecked_param_type = "ReadResourceResult | FileContent")] content: JsValue,
    ) -> Result<JsValue, JsValue> {
        let content = content_from(&content, true)?;
        let loaded = throw(self.inner.load(label, uri, content))?;
        let o = skill_md_js(&loaded.skill_md)?;
        set(&o, "serverLabel", &JsValue::from_str(&loaded.server_label));
        set(&o, "displayName", &JsValue::from_str(&loaded.display_name));
        Ok(o)
    }

    /// What to read for a reference (relative to the skill root, or an absolute URI) of a
    /// loaded skill, from the held entry only. Throws `no-acting-window`, `escapes-root`,
    /// `invalid-reference`, `not-in-manifest`.
    #[wasm_bindgen(js_name = planRead, unchecked_return_type = "PlannedRead")]
    pub fn plan_read(
        &self,
        label: &str,
        #[wasm_bindgen(js_name = skillUri)] skill_uri: &str,
        reference: &str,
    ) -> Result<JsValue, JsValue> {
        Ok(planned_js(&throw(
            self.inner.plan_read(label, skill_uri, reference),
        )?))
    }

    /// Verifies a supporting file of a loaded skill against the held entry. A nested SKILL.md
    /// read this way is ordinary content and activates nothing.
    #[wasm_bindgen(unchecked_return_type = "ReadFile")]
    pub fn read(
        &mut self,
        label: &str,
        #[wasm_bindgen(js_name = skillUri)] skill_uri: &str,
        reference: &str,
        #[wasm_bindgen(unchecked_param_type = "ReadResourceResult | FileContent")] content: JsValue,
    ) -> Result<JsValue, JsValue> {
        let content = content_from(&content, true)?;
        let file = throw(self.inner.read(label, skill_uri, reference, content))?;
        let o = content_js(&file.content);
        set(&o, "serverLabel", &JsValue::from_str(&file.server_label));
        set(&o, "skillUri", &JsValue::from_str(&file.skill_uri));
        Ok(o)
    }

    /// Whether an acting window is open for the skill.
    #[wasm_bindgen(js_name = isActive)]
    pub fn is_active(&self, label: &str, uri: &str) -> bool {
        self.inner.is_active(label, uri)
    }

    /// Closes the acting window. Returns whether one was open.
    #[wasm_bindgen(js_name = closeWindow)]
    pub fn close_window(&mut self, label: &str, uri: &str) -> bool {
        self.inner.close_window(label, uri)
    }

    /// Records the user's approval of the skill as its entry stands now; returns the
    /// fingerprint. Throws `dynamic-not-allowed`, `unknown-server`, `unknown-skill`.
    pub fn approve(&mut self, label: &str, uri: &str) -> Result<String, JsValue> {
        throw(self.inner.approve(label, uri))
    }

    /// Withdraws an approval. Returns whether there was one.
    pub fn revoke(&mut self, label: &str, uri: &str) -> bool {
        self.inner.revoke(label, uri)
    }

    /// Whether a stored approval matches the skill's current entry.
    #[wasm_bindgen(js_name = isApproved)]
    pub fn is_approved(&self, label: &str, uri: &str) -> bool {
        self.inner.is_approved(label, uri)
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
        let text = match approvals.as_string() {
            Some(s) => s,
            None => json_text(&approvals).ok_or_else(|| {
                fail(
                    ErrorCode::InvalidArgument,
                    "the approvals cannot be serialised as JSON",
                )
            })?,
        };
        let n = throw(self.inner.import_approvals(&text))?;
        Ok(u32::try_from(n).unwrap_or(u32::MAX))
    }
}
