//! Output objects: plain objects, `Uint8Array`s and JSON text built from Rust values.

use super::*;

// ---------------------------------------------------------------------------------------------
// Output objects
// ---------------------------------------------------------------------------------------------

/// Plain objects for structs, `Uint8Array`s for bytes, numbers for integers, and absent
/// properties for `None` (every optional field is skipped when `None`): the main module's
/// serde-wasm-bindgen output (the verifier module writes its results with [`JsonObject`]).
#[cfg(feature = "js")]
const SERIALIZER: serde_wasm_bindgen::Serializer =
    serde_wasm_bindgen::Serializer::new().serialize_maps_as_objects(true);

/// A Rust value as the plain object the declarations describe (the main module's results).
#[cfg(feature = "js")]
pub(in crate::js) fn to_js<T: serde::Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value.serialize(&SERIALIZER).map_err(|e| {
        fail(
            ErrorCode::InvalidArgument,
            format!("internal: a result could not be converted: {e}"),
        )
    })
}

/// Serialises bytes as a `Uint8Array`.
#[cfg(feature = "js")]
pub(in crate::js) fn uint8array<S: serde::Serializer>(
    bytes: &&[u8],
    s: S,
) -> Result<S::Ok, S::Error> {
    s.serialize_bytes(bytes)
}

/// A result object written as JSON text field by field, from Rust values only, and made a
/// plain object by one `JSON.parse` ([`JsonObject::into_js`]): one crossing into JavaScript,
/// where setting its properties one by one makes one per property and per string. For the
/// `FileReceipt` the per-file verifier functions return with every call (Node 20, CPU time),
/// the receipt and the digest argument took about 1.7 us this way against 2.5 us property by
/// property; the object is the same. Bytes (one `Uint8Array` property at most) are set on the
/// parsed object, in the place the JSON text kept for them.
pub(in crate::js) struct JsonObject<'a> {
    text: String,
    bytes: Option<(&'static str, &'a [u8])>,
}

impl<'a> JsonObject<'a> {
    /// An empty object.
    pub(in crate::js) fn new() -> Self {
        JsonObject {
            text: String::from("{"),
            bytes: None,
        }
    }

    fn key(&mut self, key: &str) {
        if self.text.len() > 1 {
            self.text.push(',');
        }
        // Keys are the declarations' property names, which need no escaping.
        self.text.push('"');
        self.text.push_str(key);
        self.text.push_str("\":");
    }

    /// A string property.
    pub(in crate::js) fn str(&mut self, key: &str, value: &str) {
        self.key(key);
        write_json_string(value, &mut self.text);
    }

    /// A string property, absent for `None`.
    pub(in crate::js) fn opt_str(&mut self, key: &str, value: Option<&str>) {
        if let Some(v) = value {
            self.str(key, v);
        }
    }

    /// An integer property (sizes and counts, which JavaScript numbers hold exactly).
    pub(in crate::js) fn num(&mut self, key: &str, value: u64) {
        use std::fmt::Write;
        self.key(key);
        let _ = write!(self.text, "{value}");
    }

    /// A boolean property.
    pub(in crate::js) fn bool(&mut self, key: &str, value: bool) {
        self.key(key);
        self.text.push_str(if value { "true" } else { "false" });
    }

    /// A property whose value is JSON text this crate wrote (an object, an array).
    pub(in crate::js) fn raw(&mut self, key: &str, json: &str) {
        self.key(key);
        self.text.push_str(json);
    }

    /// A `Uint8Array` property (its place is kept in the text; the bytes are set after parsing).
    pub(in crate::js) fn bytes(&mut self, key: &'static str, bytes: &'a [u8]) {
        self.raw(key, "null");
        self.bytes = Some((key, bytes));
    }

    /// The JSON text (only for an object without bytes).
    pub(in crate::js) fn text(mut self) -> String {
        self.text.push('}');
        self.text
    }

    /// The plain object.
    pub(in crate::js) fn into_js(self) -> Result<JsValue, JsValue> {
        let bytes = self.bytes;
        let object = json_value(&self.text())?;
        if let Some((key, b)) = bytes {
            set(&object, key, &Uint8Array::from(b).into());
        }
        Ok(object)
    }
}

/// `FileReceipt`'s properties.
fn receipt_fields(o: &mut JsonObject, r: &FileReceipt) {
    o.str("uri", &r.uri);
    o.num("size", r.size);
    o.str("digest", &r.digest);
    o.bool("verified", r.verified);
}

/// `FileReceipt`.
pub(in crate::js) fn receipt_js(r: &FileReceipt) -> Result<JsValue, JsValue> {
    let mut o = JsonObject::new();
    receipt_fields(&mut o, r);
    o.into_js()
}

/// `ReadResultContent`'s properties: the content item of a `resources/read` result, before its
/// digest is checked (`bytes`, `text` for a text item, `mimeType` if it has one).
fn body_fields<'a>(o: &mut JsonObject<'a>, body: &'a Body, mime_type: Option<&str>) {
    o.bytes("bytes", body.as_bytes());
    o.opt_str("text", body.text());
    o.opt_str("mimeType", mime_type);
}

/// `ReadResultContent`.
pub(in crate::js) fn body_js(body: &Body, mime_type: Option<&str>) -> Result<JsValue, JsValue> {
    let mut o = JsonObject::new();
    body_fields(&mut o, body, mime_type);
    o.into_js()
}

/// `VerifiedContent`'s properties (a receipt's figures and the body they describe); `ReadFile`
/// adds `serverLabel` and `skillUri`.
pub(in crate::js) fn content_fields<'a>(o: &mut JsonObject<'a>, c: &'a VerifiedContent) {
    receipt_fields(o, &c.receipt);
    body_fields(o, &c.body, c.mime_type.as_deref());
}

/// `VerifiedSkillMd`'s properties (the frontmatter is the host's own JSON text of it, its key
/// order kept); `LoadedSkill` adds `serverLabel` and `displayName`.
pub(in crate::js) fn skill_md_fields(o: &mut JsonObject, v: &VerifiedSkillMd) {
    receipt_fields(o, &v.receipt);
    o.str("text", &v.text);
    o.str("body", v.body());
    o.raw("frontmatter", &v.frontmatter.to_json());
    o.opt_str("mimeType", v.mime_type.as_deref());
}

/// `PlannedRead`.
pub(in crate::js) fn planned_js(p: &PlannedRead) -> Result<JsValue, JsValue> {
    let mut o = JsonObject::new();
    o.str("uri", &p.uri);
    o.opt_str("digest", p.digest.as_deref());
    if let Some(size) = p.size {
        o.num("size", size);
    }
    o.into_js()
}

/// `RegisterOutcome`, as JSON text.
pub(in crate::js) fn outcome_json(r: &RegisterOutcome) -> String {
    let mut o = JsonObject::new();
    o.str("uri", &r.uri);
    o.bool("added", r.added);
    o.bool("changed", r.changed);
    o.bool("approvalRevoked", r.approval_revoked);
    o.text()
}
