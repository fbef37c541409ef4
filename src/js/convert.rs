//! Conversions between JavaScript values and the Rust types of [`crate::host`] and
//! [`crate::server`]: arguments in, plain objects out.

use js_sys::{Array, Object, Reflect, Uint8Array, JSON};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::{fail, throw};
use crate::host::{
    Body, Content, Entry, ErrorCode, FileReceipt, PlannedRead, RegisterOutcome, VerifiedContent,
    VerifiedSkillMd, VerifyOptions,
};

pub(super) fn set(target: &JsValue, key: &str, value: &JsValue) {
    // Setting a property on a fresh plain object cannot fail.
    let _ = Reflect::set(target, &JsValue::from_str(key), value);
}

pub(super) fn object() -> JsValue {
    Object::new().into()
}

/// `JSON.stringify(value)`, or `None` when the value has no JSON form (undefined, a function,
/// a BigInt, a cycle).
pub(super) fn json_text(value: &JsValue) -> Option<String> {
    JSON::stringify(value)
        .ok()
        .and_then(|s| JsValue::from(s).as_string())
}

pub(super) fn json_value(text: &str) -> Result<JsValue, JsValue> {
    JSON::parse(text).map_err(|_| {
        fail(
            ErrorCode::InvalidArgument,
            "internal JSON could not be parsed",
        )
    })
}

pub(super) fn entry_from(value: &JsValue) -> Result<Entry, JsValue> {
    let text = json_text(value).ok_or_else(|| {
        fail(
            ErrorCode::InvalidEntry,
            "the entry is not a JSON object (it cannot be serialised with JSON.stringify)",
        )
    })?;
    throw(Entry::parse(&text))
}

/// A plain options object (or undefined/null) as JSON text.
pub(super) fn options_text(value: &Option<JsValue>, what: &str) -> Result<Option<String>, JsValue> {
    match value {
        None => Ok(None),
        Some(v) if v.is_undefined() || v.is_null() => Ok(None),
        Some(v) if v.is_object() && !Array::is_array(v) => {
            json_text(v).map(Some).ok_or_else(|| {
                fail(
                    ErrorCode::InvalidArgument,
                    format!("the {what} cannot be serialised as JSON"),
                )
            })
        }
        Some(_) => Err(fail(
            ErrorCode::InvalidArgument,
            format!("the {what} must be an object"),
        )),
    }
}

pub(super) fn parse_options<T: serde::de::DeserializeOwned + Default>(
    value: &Option<JsValue>,
    what: &str,
) -> Result<T, JsValue> {
    match options_text(value, what)? {
        None => Ok(T::default()),
        Some(text) => serde_json::from_str(&text)
            .map_err(|e| fail(ErrorCode::InvalidArgument, format!("invalid {what}: {e}"))),
    }
}

pub(super) fn get(o: &JsValue, key: &str) -> JsValue {
    Reflect::get(o, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

#[derive(serde::Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct JsVerifyOptions {
    allow_dynamic: Option<bool>,
}

pub(super) fn verify_options(value: &Option<JsValue>) -> Result<VerifyOptions, JsValue> {
    let o: JsVerifyOptions = parse_options(value, "verify options")?;
    Ok(VerifyOptions {
        allow_dynamic: o.allow_dynamic.unwrap_or(false),
    })
}

/// `string` → text, `Uint8Array` → bytes, and (when allowed) a plain object → a
/// `resources/read` result.
pub(super) fn content_from(value: &JsValue, allow_result: bool) -> Result<Content, JsValue> {
    if let Some(s) = value.as_string() {
        return Ok(Content::Text(s));
    }
    if let Some(bytes) = value.dyn_ref::<Uint8Array>() {
        return Ok(Content::Bytes(bytes.to_vec()));
    }
    if allow_result && value.is_object() && !Array::is_array(value) {
        let text = json_text(value).ok_or_else(|| {
            fail(
                ErrorCode::InvalidReadResult,
                "the resources/read result cannot be serialised as JSON",
            )
        })?;
        let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
            fail(
                ErrorCode::InvalidReadResult,
                format!("the resources/read result cannot be read: {e}"),
            )
        })?;
        return Ok(Content::ReadResult(json));
    }
    Err(fail(
        ErrorCode::InvalidArgument,
        if allow_result {
            "content must be a string, a Uint8Array or a resources/read result object"
        } else {
            "content must be a string or a Uint8Array"
        },
    ))
}

pub(super) fn receipt_into(target: &JsValue, r: &FileReceipt) {
    set(target, "uri", &JsValue::from_str(&r.uri));
    set(target, "size", &JsValue::from_f64(r.size as f64));
    set(target, "digest", &JsValue::from_str(&r.digest));
    set(target, "verified", &JsValue::from_bool(r.verified));
}

pub(super) fn receipt_js(r: &FileReceipt) -> JsValue {
    let o = object();
    receipt_into(&o, r);
    o
}

pub(super) fn content_js(c: &VerifiedContent) -> JsValue {
    let o = object();
    receipt_into(&o, &c.receipt);
    set(&o, "bytes", &Uint8Array::from(c.body.as_bytes()).into());
    if let Body::Text(t) = &c.body {
        set(&o, "text", &JsValue::from_str(t));
    }
    if let Some(m) = &c.mime_type {
        set(&o, "mimeType", &JsValue::from_str(m));
    }
    o
}

pub(super) fn skill_md_js(v: &VerifiedSkillMd) -> Result<JsValue, JsValue> {
    let o = object();
    receipt_into(&o, &v.receipt);
    set(&o, "text", &JsValue::from_str(&v.text));
    set(&o, "body", &JsValue::from_str(v.body()));
    set(&o, "frontmatter", &json_value(&v.frontmatter.to_json())?);
    if let Some(m) = &v.mime_type {
        set(&o, "mimeType", &JsValue::from_str(m));
    }
    Ok(o)
}

pub(super) fn planned_js(p: &PlannedRead) -> JsValue {
    let o = object();
    set(&o, "uri", &JsValue::from_str(&p.uri));
    if let Some(d) = &p.digest {
        set(&o, "digest", &JsValue::from_str(d));
    }
    if let Some(s) = p.size {
        set(&o, "size", &JsValue::from_f64(s as f64));
    }
    o
}

pub(super) fn outcome_js(r: &RegisterOutcome) -> JsValue {
    let o = object();
    set(&o, "uri", &JsValue::from_str(&r.uri));
    set(&o, "added", &JsValue::from_bool(r.added));
    set(&o, "changed", &JsValue::from_bool(r.changed));
    set(
        &o,
        "approvalRevoked",
        &JsValue::from_bool(r.approval_revoked),
    );
    o
}
