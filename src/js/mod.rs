//! JavaScript bindings (the npm package `skills-edge`): wasm-bindgen exports only. Every
//! decision is made by [`crate::server`], [`crate::host`] and the catalog modules; this module
//! converts values (JSON text in, plain objects out) and turns errors (the host rules'
//! [`VerifyError`]s and the client's [`ClientError`]s, one shape: `js_error`) into thrown
//! `Error` objects with `code`, `uri`, `expected`, `actual` and `field` properties.
//!
//! Two features build them. `js` builds every module below: the package's main module.
//! `web-verifier` (which `js` turns on) builds only the host part, `convert`, `verifier` and
//! `host`: the package's second module, `skills-edge/verifier`, for pages that only verify
//! (built with `--no-default-features`, so no embedded catalog either). Each export has one
//! source, compiled into both modules or into the main one only.
//!
//! | module | feature | exports |
//! |---|---|---|
//! | `convert` | `web-verifier` | conversions between JavaScript values and Rust types |
//! | `verifier` | `web-verifier` | `validateEntry`, `checkLimits`, `verifyFile`, `verifyReadResult`, `verifySkillMd`, `resolveReference`, `approvalFingerprint`, `sha256Digest`, `verifyEnvelope`, `errorCodes`, `isSkillsEdgeError`; for digests computed elsewhere (the package's async functions): `verifyFileDigest`, `checkFileDigest`, `checkFileSize`, `readResultContent`, `verifySkillMdDigest` |
//! | `host` | `web-verifier` | `SkillHost` |
//! | `compiler` | `js` | `compileCatalog`, `inspectPack`, `buildOptions`, `signingKeyFiles` |
//! | `server` | `js` | `SkillsServer` |
//! | `client` | `js` | `SkillsClientCore` (the host side of the package's `SkillsClient`), `runVerifyCommand`, `verifyWellKnown` |
//! | `command` | `js` | the package's command line, read by the native command's parser: `parseCommand`, `commandUsage`, `parseVerifyArgs`, `verifyUsage`, `timeoutBounds` |
//!
//! The TypeScript declarations of every type named in a signature are added to the generated
//! declarations, so the `.d.ts` is precise (no `any`): those the host part names in
//! `web-verifier.d.ts` (both modules), the others in `skills-edge.d.ts` (the main module).

use wasm_bindgen::prelude::*;

use crate::client::{ClientCode, ClientError};
use crate::host::{ErrorCode, VerifyError};
#[cfg(feature = "js")]
use crate::pack;

#[cfg(feature = "js")]
mod client;
#[cfg(feature = "js")]
mod command;
#[cfg(feature = "js")]
mod compiler;
mod convert;
mod host;
#[cfg(feature = "js")]
mod publish;
#[cfg(feature = "js")]
mod server;
mod verifier;

#[cfg(feature = "js")]
pub use client::{run_verify_command, verify_well_known, SkillsClientCore};
#[cfg(feature = "js")]
pub use command::{command_usage, parse_command, parse_verify_args, timeout_bounds, verify_usage};
#[cfg(feature = "js")]
pub use compiler::{build_options, compile_catalog, inspect_pack, signing_key_files};
pub use host::SkillHost;
#[cfg(feature = "js")]
pub use publish::run_publish_command;
#[cfg(feature = "js")]
pub use server::{inspector_files, SkillsServer};
pub use verifier::{
    approval_fingerprint_js, check_file_size_js, check_limits, error_codes, is_skills_edge_error,
    read_result_content_js, resolve_reference, sha256_digest, validate_entry, verify_file,
    verify_file_digest_js, verify_read_result_js, verify_skill_md_digest_js, verify_skill_md_js,
};

#[wasm_bindgen(typescript_custom_section)]
const HOST_TYPES: &'static str = concat!("\n", include_str!("web-verifier.d.ts"));

#[cfg(feature = "js")]
#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = concat!("\n", include_str!("skills-edge.d.ts"));

/// Sets a property of an object this module made (a fresh `Error`), which cannot fail.
fn set(target: &JsValue, key: &str, value: &JsValue) {
    let _ = js_sys::Reflect::set(target, &JsValue::from_str(key), value);
}

/// A thrown `SkillsEdgeError` for a [`VerifyError`] or a [`ClientError`]: the one place
/// either takes its npm form.
pub(crate) fn js_error(e: impl Into<ClientError>) -> JsValue {
    let e: ClientError = e.into();
    let err = js_sys::Error::new(&e.message);
    err.set_name("SkillsEdgeError");
    let target: &JsValue = err.as_ref();
    set(target, "code", &e.code.as_str().into());
    for (k, v) in [
        ("uri", &e.uri),
        ("expected", &e.expected),
        ("actual", &e.actual),
        ("field", &e.field),
    ] {
        if let Some(v) = v {
            set(target, k, &JsValue::from_str(v));
        }
    }
    if !e.differences.is_empty() {
        let fields = js_sys::Array::new();
        for f in e.differences.iter() {
            fields.push(&JsValue::from_str(f));
        }
        set(target, "fields", &fields);
    }
    err.into()
}

/// A thrown `SkillsEdgeError` with `code` and `message`.
pub(crate) fn fail(code: ErrorCode, message: impl Into<String>) -> JsValue {
    js_error(VerifyError::new(code, message))
}

/// A host or client result with its error as a thrown `SkillsEdgeError`.
pub(crate) fn throw<T, E: Into<ClientError>>(r: Result<T, E>) -> Result<T, JsValue> {
    r.map_err(js_error)
}

/// A thrown `pack-invalid` error.
#[cfg(feature = "js")]
pub(crate) fn pack_error(e: &pack::PackError) -> JsValue {
    let err = js_sys::Error::new(&e.to_string());
    err.set_name("SkillsEdgeError");
    set(err.as_ref(), "code", &JsValue::from_str(PACK_INVALID));
    err.into()
}

/// Codes of the package's own failures, next to the [`ClientCode`]s: a skills folder
/// that breaks a rule, and a pack that cannot be loaded.
pub(crate) const CATALOG_INVALID: &str = "catalog-invalid";
pub(crate) const PACK_INVALID: &str = "pack-invalid";

/// Every code this package throws: the host's and the client's ([`ClientCode::ALL`]), then
/// its own. The verifier module (`web-verifier` alone) lists them all too, though it throws only
/// the host's: `errorCodes` is the package's one list, and either module's `isSkillsEdgeError`
/// recognises the other's errors.
pub(crate) fn all_codes() -> impl Iterator<Item = &'static str> {
    ClientCode::ALL
        .iter()
        .map(|c| c.as_str())
        .chain([CATALOG_INVALID, PACK_INVALID])
}

#[cfg(all(test, target_arch = "wasm32", feature = "js"))]
#[path = "../../tests/wasm/web.rs"]
mod wasm_tests;
