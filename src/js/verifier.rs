//! The verifier functions: pure checks of entries and content against each other.

use js_sys::{Array, Reflect};
use wasm_bindgen::prelude::*;

use super::convert::{
    content_from, content_js, entry_from, json_value, object, receipt_js, set, skill_md_js,
    verify_options,
};
use super::{all_codes, fail, throw};
use crate::host::{
    approval_fingerprint, resolve, verify_bytes, verify_read_result, verify_skill_md, Content,
    ErrorCode,
};
use crate::skill::digest::digest_of;

/// Validates a skill entry and returns it as the host reads it (`uri`, `frontmatter`,
/// `resources`; unknown fields dropped). Throws `invalid-entry`.
#[wasm_bindgen(js_name = validateEntry, unchecked_return_type = "SkillEntry")]
pub fn validate_entry(
    #[wasm_bindgen(unchecked_param_type = "SkillEntry")] entry: JsValue,
) -> Result<JsValue, JsValue> {
    json_value(&entry_from(&entry)?.to_json())
}

/// Counts a skill's files and sums their sizes from the entry alone. Throws
/// `limit-exceeded` above 512 files or 16 MiB, `invalid-entry` for an invalid entry.
#[wasm_bindgen(js_name = checkLimits, unchecked_return_type = "LimitReport")]
pub fn check_limits(
    #[wasm_bindgen(unchecked_param_type = "SkillEntry")] entry: JsValue,
) -> Result<JsValue, JsValue> {
    let entry = entry_from(&entry)?;
    let o = object();
    match throw(entry.check_limits())? {
        Some(r) => {
            set(&o, "dynamic", &JsValue::FALSE);
            set(
                &o,
                "resourceCount",
                &JsValue::from_f64(r.resource_count as f64),
            );
            set(&o, "totalSize", &JsValue::from_f64(r.total_size as f64));
        }
        None => set(&o, "dynamic", &JsValue::TRUE),
    }
    Ok(o)
}

/// Verifies a file's content (text: its UTF-8 bytes) against the entry: listed, then size,
/// then digest. Throws `not-in-manifest`, `size-mismatch`, `digest-mismatch`,
/// `dynamic-not-allowed`, `invalid-entry`.
#[wasm_bindgen(js_name = verifyFile, unchecked_return_type = "FileReceipt")]
pub fn verify_file(
    #[wasm_bindgen(unchecked_param_type = "SkillEntry")] entry: JsValue,
    uri: &str,
    #[wasm_bindgen(unchecked_param_type = "FileContent")] content: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "VerifyOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let entry = entry_from(&entry)?;
    let options = verify_options(&options)?;
    let receipt = match content_from(&content, false)? {
        Content::Text(t) => verify_bytes(&entry, uri, t.as_bytes(), options),
        Content::Bytes(b) => verify_bytes(&entry, uri, &b, options),
        Content::ReadResult(_) => {
            return Err(fail(ErrorCode::InvalidArgument, "use verifyReadResult"))
        }
    };
    Ok(receipt_js(&throw(receipt)?))
}

/// Verifies a `resources/read` result for `uri`: listed, exactly one content item for the
/// URI with `text` or strict base64 `blob`, then size and digest. Throws
/// `invalid-read-result` and the codes of `verifyFile`.
#[wasm_bindgen(js_name = verifyReadResult, unchecked_return_type = "VerifiedContent")]
pub fn verify_read_result_js(
    #[wasm_bindgen(unchecked_param_type = "SkillEntry")] entry: JsValue,
    uri: &str,
    #[wasm_bindgen(unchecked_param_type = "ReadResourceResult")] result: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "VerifyOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let entry = entry_from(&entry)?;
    let options = verify_options(&options)?;
    let json = match content_from(&result, true)? {
        Content::ReadResult(json) => json,
        _ => {
            return Err(fail(
                ErrorCode::InvalidReadResult,
                "a resources/read result is an object",
            ))
        }
    };
    Ok(content_js(&throw(verify_read_result(
        &entry, uri, &json, options,
    ))?))
}

/// Verifies a SKILL.md (text, bytes or a `resources/read` result) against its entry: size,
/// digest, then the frontmatter field by field. Throws `size-mismatch`, `digest-mismatch`,
/// `frontmatter-mismatch`, `frontmatter-invalid`, `invalid-read-result`, `invalid-entry`.
#[wasm_bindgen(js_name = verifySkillMd, unchecked_return_type = "VerifiedSkillMd")]
pub fn verify_skill_md_js(
    #[wasm_bindgen(unchecked_param_type = "SkillEntry")] entry: JsValue,
    #[wasm_bindgen(unchecked_param_type = "FileContent | ReadResourceResult")] content: JsValue,
) -> Result<JsValue, JsValue> {
    let entry = entry_from(&entry)?;
    let content = content_from(&content, true)?;
    skill_md_js(&throw(verify_skill_md(&entry, &content))?)
}

/// Resolves a reference found in a skill against the root of the skill whose SKILL.md is
/// `skillUri`. Throws `escapes-root`, `invalid-reference`, `invalid-argument`.
#[wasm_bindgen(js_name = resolveReference)]
pub fn resolve_reference(
    #[wasm_bindgen(js_name = skillUri)] skill_uri: &str,
    reference: &str,
) -> Result<String, JsValue> {
    throw(resolve(skill_uri, reference))
}

/// The approval fingerprint of an entry served by the server labelled `serverLabel`:
/// `sha256:` over (label, skill URI, every `{uri, digest}`). Throws `dynamic-not-allowed`,
/// `invalid-entry`.
#[wasm_bindgen(js_name = approvalFingerprint)]
pub fn approval_fingerprint_js(
    #[wasm_bindgen(js_name = serverLabel)] server_label: &str,
    #[wasm_bindgen(unchecked_param_type = "SkillEntry")] entry: JsValue,
) -> Result<String, JsValue> {
    let entry = entry_from(&entry)?;
    throw(approval_fingerprint(server_label, &entry))
}

/// The SHA-256 of content (text: its UTF-8 bytes) in wire form, `sha256:` + 64 hex.
#[wasm_bindgen(js_name = sha256Digest)]
pub fn sha256_digest(
    #[wasm_bindgen(unchecked_param_type = "FileContent")] content: JsValue,
) -> Result<String, JsValue> {
    Ok(match content_from(&content, false)? {
        Content::Text(t) => digest_of(t.as_bytes()),
        Content::Bytes(b) => digest_of(&b),
        Content::ReadResult(_) => String::new(),
    })
}

/// Every error code this package throws.
#[wasm_bindgen(js_name = errorCodes, unchecked_return_type = "ErrorCode[]")]
pub fn error_codes() -> JsValue {
    let a = Array::new();
    for c in all_codes() {
        a.push(&JsValue::from_str(c));
    }
    a.into()
}

/// Whether `value` is an error thrown by this package.
#[wasm_bindgen(js_name = isSkillsEdgeError, unchecked_return_type = "value is SkillsEdgeError")]
pub fn is_skills_edge_error(
    #[wasm_bindgen(unchecked_param_type = "unknown")] value: &JsValue,
) -> bool {
    value.is_instance_of::<js_sys::Error>()
        && Reflect::get(value, &JsValue::from_str("name"))
            .ok()
            .and_then(|n| n.as_string())
            .is_some_and(|n| n == "SkillsEdgeError")
        && Reflect::get(value, &JsValue::from_str("code"))
            .ok()
            .and_then(|c| c.as_string())
            .is_some_and(|c| all_codes().any(|k| k == c))
}
