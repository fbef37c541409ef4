//! The verifier functions: pure checks of entries and content against each other.

use js_sys::Reflect;
use wasm_bindgen::prelude::*;

use super::convert::{
    arg, body_js, byte_count, content_fields, content_from, entry_from, file_input, frozen_entry,
    json_arg, json_array_text, read_result, receipt_js, skill_md_fields, string, verify_options,
    wire_digest, FileInput, JsonObject,
};
use super::{all_codes, throw};
use crate::host::signature::trusted_key;
use crate::host::verify::{read_result_content, verify_file_with};
use crate::host::{
    approval_fingerprint, check_file_size, resolve, verify_bytes, verify_content, verify_skill_md,
    Content, FileReceipt, Hashing,
};
use crate::host::{ErrorCode, VerifyError};
use crate::sign::Envelope;
use crate::skill::digest::digest_of;

/// Validates a skill entry and returns it as the host reads it (`uri`, `frontmatter`,
/// `resources`; unknown fields dropped), as a new, deeply frozen object. Passed to the
/// verifier functions in place of the entry, that object is recognised without being read
/// again (a plain entry is compared by its JSON text on every call). Throws `invalid-entry`.
#[wasm_bindgen(js_name = validateEntry, unchecked_return_type = "Readonly<SkillEntry>")]
pub fn validate_entry(
    #[wasm_bindgen(unchecked_param_type = "SkillEntry")] entry: JsValue,
) -> Result<JsValue, JsValue> {
    frozen_entry(&entry_from(&entry, arg("validateEntry", "entry"))?)
}

/// Counts a skill's files and sums their sizes from the entry alone. Throws
/// `limit-exceeded` above 512 files or 16 MiB, `invalid-entry` for an invalid entry.
#[wasm_bindgen(js_name = checkLimits, unchecked_return_type = "LimitReport")]
pub fn check_limits(
    #[wasm_bindgen(unchecked_param_type = "SkillEntry")] entry: JsValue,
) -> Result<JsValue, JsValue> {
    let entry = entry_from(&entry, arg("checkLimits", "entry"))?;
    let report = throw(entry.check_limits())?;
    // `LimitReport`: `resourceCount` and `totalSize` only for a skill that is not dynamic.
    let mut o = JsonObject::new();
    o.bool("dynamic", report.is_none());
    if let Some(r) = report {
        o.num("resourceCount", r.resource_count as u64);
        o.num("totalSize", r.total_size);
    }
    o.into_js()
}

/// Verifies a file's content (text: its UTF-8 bytes) against the entry: listed, then size,
/// then digest. Throws `not-in-manifest`, `size-mismatch`, `digest-mismatch`,
/// `dynamic-not-allowed`, `invalid-entry`. A `Uint8Array` is hashed where it is, a chunk at a
/// time, after its size has been checked.
#[wasm_bindgen(js_name = verifyFile, unchecked_return_type = "FileReceipt")]
pub fn verify_file(
    #[wasm_bindgen(unchecked_param_type = "SkillEntry")] entry: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    #[wasm_bindgen(unchecked_param_type = "FileContent")] content: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "VerifyOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let a = arg("verifyFile", "entry");
    let entry = entry_from(&entry, a)?;
    let uri = string(&uri, a.with("uri"))?;
    let content = file_input(&content, a.with("content"))?;
    let options = verify_options(&options.unwrap_or(JsValue::UNDEFINED), a.with("options"))?;
    let receipt = throw(match &content {
        FileInput::Text(t) => verify_bytes(&entry, &uri, t.as_bytes(), Hashing::Here, options),
        FileInput::Bytes(b) => {
            verify_file_with(&entry, &uri, b.len() as u64, || b.digest(), options)
        }
    })?;
    receipt_js(&receipt)
}

/// Verifies a file from its byte length and its SHA-256 in wire form, computed elsewhere (for
/// example with `crypto.subtle.digest`): the same checks, order and errors as `verifyFile`
/// over the bytes they were computed from. Throws the codes of `verifyFile`, and
/// `invalid-argument` for a `size` that is not a byte count or a `digest` not in wire form.
#[wasm_bindgen(js_name = verifyFileDigest, unchecked_return_type = "FileReceipt")]
pub fn verify_file_digest_js(
    #[wasm_bindgen(unchecked_param_type = "SkillEntry")] entry: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] size: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] digest: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "VerifyOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let receipt = file_digest("verifyFileDigest", &entry, &uri, &size, &digest, options)?;
    receipt_js(&receipt)
}

/// The arguments of `verifyFileDigest` and `checkFileDigest` (errors named after `name`), and
/// the receipt of the file's length and given digest (the bytes stay in JavaScript memory).
fn file_digest(
    name: &'static str,
    entry: &JsValue,
    uri: &JsValue,
    size: &JsValue,
    digest: &JsValue,
    options: Option<JsValue>,
) -> Result<FileReceipt, JsValue> {
    let a = arg(name, "entry");
    let entry = entry_from(entry, a)?;
    let uri = string(uri, a.with("uri"))?;
    let size = byte_count(size, a.with("size"))?;
    let digest = wire_digest(digest, a.with("digest"))?;
    let options = verify_options(&options.unwrap_or(JsValue::UNDEFINED), a.with("options"))?;
    throw(verify_file_with(&entry, &uri, size, || Ok(digest), options))
}

/// `verifyFileDigest` without the receipt, for callers that already hold its fields (the
/// URI, the size and the digest they passed): the same checks, order and errors, and whether
/// the file was verified against its manifest item (`true`) or only read from a dynamic skill
/// that `options` allow (`false`). The package's `verifyFileAsync` builds its receipt from this,
/// which saves making and parsing the receipt's JSON in every call (about 2 us in Node 20).
#[wasm_bindgen(js_name = checkFileDigest)]
pub fn check_file_digest_js(
    #[wasm_bindgen(unchecked_param_type = "SkillEntry")] entry: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] size: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] digest: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "VerifyOptions")] options: Option<JsValue>,
) -> Result<bool, JsValue> {
    Ok(file_digest("checkFileDigest", &entry, &uri, &size, &digest, options)?.verified)
}

/// The checks of `verifyFile` that come before hashing: the URI is listed and `size` is its
/// entry's. Call it before hashing content elsewhere, so that a wrong size is refused without
/// hashing; then `verifyFileDigest`. Throws `not-in-manifest`, `size-mismatch`,
/// `dynamic-not-allowed`, `escapes-root`, `invalid-entry`.
#[wasm_bindgen(js_name = checkFileSize)]
pub fn check_file_size_js(
    #[wasm_bindgen(unchecked_param_type = "SkillEntry")] entry: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] size: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "VerifyOptions")] options: Option<JsValue>,
) -> Result<(), JsValue> {
    let a = arg("checkFileSize", "entry");
    let entry = entry_from(&entry, a)?;
    let uri = string(&uri, a.with("uri"))?;
    let size = byte_count(&size, a.with("size"))?;
    let options = verify_options(&options.unwrap_or(JsValue::UNDEFINED), a.with("options"))?;
    throw(check_file_size(&entry, &uri, size, options))
}

/// The content item for `uri` of a `resources/read` result, after every check of
/// `verifyReadResult` that comes before hashing (listed, the result's shape, the size): its
/// bytes (text: its UTF-8 bytes), `text` for a text item and `mimeType` if it has one. Hash
/// `bytes` elsewhere, then `verifyFileDigest`. Throws `invalid-read-result`,
/// `not-in-manifest`, `size-mismatch`, `dynamic-not-allowed`, `invalid-entry`.
#[wasm_bindgen(js_name = readResultContent, unchecked_return_type = "ReadResultContent")]
pub fn read_result_content_js(
    #[wasm_bindgen(unchecked_param_type = "SkillEntry")] entry: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ReadResourceResult")] result: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "VerifyOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let a = arg("readResultContent", "entry");
    let entry = entry_from(&entry, a)?;
    let uri = string(&uri, a.with("uri"))?;
    let text = read_result(&result, a.with("result"))?;
    let options = verify_options(&options.unwrap_or(JsValue::UNDEFINED), a.with("options"))?;
    let (body, mime_type) = throw(read_result_content(&entry, &uri, &text, options))?;
    body_js(&body, mime_type.as_deref())
}

/// Verifies a `resources/read` result for `uri`: listed, exactly one content item for the
/// URI with `text` or strict base64 `blob`, then size and digest. Throws
/// `invalid-read-result` and the codes of `verifyFile`.
#[wasm_bindgen(js_name = verifyReadResult, unchecked_return_type = "VerifiedContent")]
pub fn verify_read_result_js(
    #[wasm_bindgen(unchecked_param_type = "SkillEntry")] entry: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ReadResourceResult")] result: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "VerifyOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let a = arg("verifyReadResult", "entry");
    let entry = entry_from(&entry, a)?;
    let uri = string(&uri, a.with("uri"))?;
    let text = read_result(&result, a.with("result"))?;
    let options = verify_options(&options.unwrap_or(JsValue::UNDEFINED), a.with("options"))?;
    let content = Content::ReadResult(text);
    let content = throw(verify_content(
        &entry,
        &uri,
        &content,
        Hashing::Here,
        options,
    ))?;
    let mut o = JsonObject::new();
    content_fields(&mut o, &content);
    o.into_js()
}

/// Verifies a SKILL.md (text, bytes or a `resources/read` result) against its entry: size,
/// digest, then the frontmatter field by field. Throws `size-mismatch`, `digest-mismatch`,
/// `frontmatter-mismatch`, `frontmatter-invalid`, `invalid-read-result`, `invalid-entry`.
#[wasm_bindgen(js_name = verifySkillMd, unchecked_return_type = "VerifiedSkillMd")]
pub fn verify_skill_md_js(
    #[wasm_bindgen(unchecked_param_type = "SkillEntry")] entry: JsValue,
    #[wasm_bindgen(unchecked_param_type = "FileContent | ReadResourceResult")] content: JsValue,
) -> Result<JsValue, JsValue> {
    let a = arg("verifySkillMd", "entry");
    let entry = entry_from(&entry, a)?;
    let content = content_from(&content, a.with("content"), true)?;
    let verified = throw(verify_skill_md(&entry, &content, Hashing::Here))?;
    let mut o = JsonObject::new();
    skill_md_fields(&mut o, &verified);
    o.into_js()
}

/// `verifySkillMd` with the SHA-256 of the file in wire form computed elsewhere (over the
/// text's UTF-8 bytes, the bytes, or the text of the result's content item): the same checks,
/// order and errors. Throws the codes of `verifySkillMd`, and `invalid-argument` for a
/// `digest` not in wire form.
#[wasm_bindgen(js_name = verifySkillMdDigest, unchecked_return_type = "VerifiedSkillMd")]
pub fn verify_skill_md_digest_js(
    #[wasm_bindgen(unchecked_param_type = "SkillEntry")] entry: JsValue,
    #[wasm_bindgen(unchecked_param_type = "FileContent | ReadResourceResult")] content: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] digest: JsValue,
) -> Result<JsValue, JsValue> {
    let a = arg("verifySkillMdDigest", "entry");
    let entry = entry_from(&entry, a)?;
    let content = content_from(&content, a.with("content"), true)?;
    let digest = wire_digest(&digest, a.with("digest"))?;
    let verified = throw(verify_skill_md(&entry, &content, Hashing::Given(&digest)))?;
    let mut o = JsonObject::new();
    skill_md_fields(&mut o, &verified);
    o.into_js()
}

/// Resolves a reference found in a skill against the root of the skill whose SKILL.md is
/// `skillUri`. Throws `escapes-root`, `invalid-reference`, `invalid-argument`.
#[wasm_bindgen(js_name = resolveReference)]
pub fn resolve_reference(
    #[wasm_bindgen(js_name = skillUri, unchecked_param_type = "string")] skill_uri: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] reference: JsValue,
) -> Result<String, JsValue> {
    let a = arg("resolveReference", "skillUri");
    let skill_uri = string(&skill_uri, a)?;
    let reference = string(&reference, a.with("reference"))?;
    throw(resolve(&skill_uri, &reference))
}

/// The approval fingerprint of an entry served by the server labelled `serverLabel`:
/// `sha256:` over (label, skill URI, every `{uri, digest}`). Throws `dynamic-not-allowed`,
/// `invalid-entry`.
#[wasm_bindgen(js_name = approvalFingerprint)]
pub fn approval_fingerprint_js(
    #[wasm_bindgen(js_name = serverLabel, unchecked_param_type = "string")] server_label: JsValue,
    #[wasm_bindgen(unchecked_param_type = "SkillEntry")] entry: JsValue,
) -> Result<String, JsValue> {
    let a = arg("approvalFingerprint", "serverLabel");
    let label = string(&server_label, a)?;
    let entry = entry_from(&entry, a.with("entry"))?;
    throw(approval_fingerprint(&label, &entry))
}

/// The revision of a skill from its entry alone: the Agent Skills Discovery RFC's skill-level
/// digest over every (path relative to the skill root, digest) of the manifest, which
/// changes whenever any file does (this server also publishes it in each entry's `_meta`
/// under `io.github.skills-edge/revision`; non-normative). `undefined` for a dynamic entry.
/// Throws `invalid-entry`.
#[wasm_bindgen(js_name = skillRevision)]
pub fn skill_revision(
    #[wasm_bindgen(unchecked_param_type = "SkillEntry")] entry: JsValue,
) -> Result<Option<String>, JsValue> {
    Ok(entry_from(&entry, arg("skillRevision", "entry"))?.revision())
}

/// The SHA-256 of content (text: its UTF-8 bytes) in wire form, `sha256:` + 64 hex. A
/// `Uint8Array` is hashed where it is, a chunk at a time.
#[wasm_bindgen(js_name = sha256Digest)]
pub fn sha256_digest(
    #[wasm_bindgen(unchecked_param_type = "FileContent")] content: JsValue,
) -> Result<String, JsValue> {
    match file_input(&content, arg("sha256Digest", "content"))? {
        FileInput::Text(t) => Ok(digest_of(t.as_bytes())),
        FileInput::Bytes(b) => throw(b.digest()),
    }
}

/// Every error code this package throws.
#[wasm_bindgen(js_name = errorCodes, unchecked_return_type = "ErrorCode[]")]
pub fn error_codes() -> JsValue {
    all_codes()
        .map(JsValue::from_str)
        .collect::<js_sys::Array>()
        .into()
}

/// Whether `value` is an error thrown by this package. Any value is accepted: `instanceof` and
/// the property reads catch what a proxy or a getter throws.
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

/// Verifies a signed skill's DSSE envelope (as an object or its JSON text) under one public
/// key (a JWK, object or text) and returns the statement it signs: the key id, the skill's
/// URI, revision and catalog identity, and every signed file (`name`, `sha256`). This is the
/// signature alone (`sign::Envelope::verify`): comparing the statement with an entry or with
/// files is the caller's (`SkillHost` does it on registration), and which key to trust is the
/// caller's policy. Throws `invalid-argument` for a key that is not an Ed25519 public JWK and
/// `signature-invalid` for an envelope that does not verify under it.
#[wasm_bindgen(js_name = verifyEnvelope, unchecked_return_type = "SignedStatement")]
pub fn verify_envelope(
    #[wasm_bindgen(unchecked_param_type = "object | string")] envelope: JsValue,
    #[wasm_bindgen(unchecked_param_type = "PublicJwk | string")] key: JsValue,
) -> Result<JsValue, JsValue> {
    let expected = "a JSON object or its JSON text";
    let text = json_arg(
        &envelope,
        arg("verifyEnvelope", "envelope"),
        ErrorCode::InvalidArgument,
        expected,
        true,
    )?;
    let key_text = json_arg(
        &key,
        arg("verifyEnvelope", "key"),
        ErrorCode::InvalidArgument,
        expected,
        true,
    )?;
    let key = throw(trusted_key("verifyEnvelope: key", &key_text))?;
    let invalid = |message: String| VerifyError::new(ErrorCode::SignatureInvalid, message);
    let statement = throw(
        Envelope::parse(text.as_bytes())
            .and_then(|e| e.verify(&key))
            .map_err(|e| invalid(e.message)),
    )?;
    // `SignedStatement`.
    let subjects = json_array_text(statement.subjects.iter().map(|s| {
        let mut o = JsonObject::new();
        o.str("name", &s.name);
        o.str("sha256", &s.sha256);
        o.text()
    }));
    let mut o = JsonObject::new();
    o.str("keyId", key.key_id());
    o.str("skill", &statement.skill);
    o.str("revision", &statement.revision);
    o.str("catalog", &statement.catalog);
    o.raw("subjects", &subjects);
    o.into_js()
}
