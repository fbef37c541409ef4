//! Conversions between JavaScript values and the Rust types of [`crate::host`] and
//! [`crate::server`], and the checks of every argument an export receives.
//!
//! Every export takes its arguments as `JsValue`s and checks them here before anything else:
//! a value of the wrong type is an `invalid-argument` error naming the function, the parameter
//! and the type it got. Strings are taken as strings only (no coercion); bytes are read from a
//! genuine `Uint8Array` (or `ArrayBuffer`) whose length is read with the built-in getter. Bytes
//! that are only hashed stay in JavaScript memory and go through a fixed 64 KiB buffer in
//! WebAssembly memory a chunk at a time ([`JsBytes::digest`]), so hashing a large array neither
//! copies it whole nor grows the memory; bytes the verifier keeps are copied whole.
//!
//! Only calls that cannot run the caller's code, or that catch what it throws, touch a
//! caller's value. A JavaScript exception thrown through the WebAssembly frames leaves them
//! unwound without restoring the module's shadow stack; a few thousand of them exhaust it and
//! every later call traps. So getters, proxies and `toJSON` run inside `Reflect` and `JSON`
//! calls that catch, option objects are copied into fresh plain objects before serde reads
//! them, and output objects are built from Rust values only.
//!
//! Option objects are copied and read key by key with typed getters ([`Record`]), and results
//! are written as JSON text and parsed by one `JSON.parse` ([`JsonObject`]): no serde
//! deserializer or serializer for JavaScript values in the verifier module (the main module's
//! own options and results still go through `serde-wasm-bindgen`). Entries and
//! `resources/read` results stay JSON text, because the host's one validator (shared with the
//! WIT component and native code) reads JSON text.

use std::fmt::Display;

use js_sys::{Array, ArrayBuffer, Function, Object, Reflect, Uint8Array, WeakSet, JSON};
#[cfg(feature = "js")]
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use std::cell::RefCell;
use std::rc::Rc;

use super::{fail, set, throw};
use crate::host::{
    Body, Content, Entry, ErrorCode, FileReceipt, HostOptions, PlannedRead, RegisterOutcome,
    VerifiedContent, VerifiedSkillMd, VerifyError, VerifyOptions,
};
use crate::skill::digest::{is_wire_digest, Sha256Stream};
use crate::skill::value::write_json_string;

#[wasm_bindgen]
extern "C" {
    /// `Array.isArray`, which throws for a revoked proxy.
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn is_array_checked(value: &JsValue) -> Result<bool, JsValue>;

    /// `Uint8Array.prototype.set.call(dst, src)`: copies a typed array into WebAssembly memory
    /// (`dst` must be exactly as long as `src`).
    #[wasm_bindgen(catch, js_namespace = Uint8Array, js_name = "prototype.set.call")]
    fn copy_into(dst: &mut [u8], src: &JsValue) -> Result<(), JsValue>;

    /// A `Uint8Array` made by this module as a view of part of another array's buffer.
    #[wasm_bindgen(js_name = Uint8Array)]
    type ByteView;

    /// `new Uint8Array(buffer, byteOffset, length)`: a view that runs none of the caller's code
    /// (the buffer is a genuine `ArrayBuffer` or `SharedArrayBuffer`, read with the built-in
    /// getter).
    #[wasm_bindgen(catch, constructor, js_class = Uint8Array)]
    fn new(buffer: &JsValue, byte_offset: f64, length: f64) -> Result<ByteView, JsValue>;
}

mod bytes;
mod json;
mod options;
mod output;

pub(super) use bytes::*;
pub(super) use json::*;
pub(super) use options::*;
pub(super) use output::*;

// ---------------------------------------------------------------------------------------------
// Arguments
// ---------------------------------------------------------------------------------------------

/// One parameter of one export, for messages: `SkillHost.addServer: label must be a string,
/// got number`.
#[derive(Clone, Copy)]
pub(super) struct Arg {
    func: &'static str,
    param: &'static str,
}

/// The parameter `param` of the export `func` (`verifyFile`, `SkillHost.addServer`).
pub(super) const fn arg(func: &'static str, param: &'static str) -> Arg {
    Arg { func, param }
}

impl Arg {
    /// The same function's parameter `param`.
    pub(super) const fn with(self, param: &'static str) -> Arg {
        Arg {
            func: self.func,
            param,
        }
    }

    /// A message that starts with the function and the parameter.
    fn message(self, what: impl Display) -> String {
        format!("{}: {} {what}", self.func, self.param)
    }

    /// An error with `code` whose message starts with the function and the parameter.
    pub(super) fn error(self, code: ErrorCode, what: impl Display) -> JsValue {
        fail(code, self.message(what))
    }

    /// `invalid-argument` for item `index` of an array parameter: `entries[3]: path must be a
    /// string`.
    #[cfg(feature = "js")]
    pub(super) fn at(self, index: usize, what: impl Display) -> JsValue {
        fail(
            ErrorCode::InvalidArgument,
            format!("{}: {}[{index}]: {what}", self.func, self.param),
        )
    }

    /// `invalid-argument`: the parameter must be `expected` and is not.
    pub(super) fn wrong(self, expected: &str, got: &JsValue) -> JsValue {
        self.wrong_with(ErrorCode::InvalidArgument, expected, got)
    }

    /// `code`: the parameter must be `expected` and is not.
    pub(super) fn wrong_with(self, code: ErrorCode, expected: &str, got: &JsValue) -> JsValue {
        self.error(
            code,
            format_args!("must be {expected}, got {}", type_name(got)),
        )
    }
}

/// `Array.isArray(value)`; false for a revoked proxy (which throws).
pub(super) fn is_array(value: &JsValue) -> bool {
    is_array_checked(value).unwrap_or(false)
}

/// A plain object in the broad sense: an object that is neither an array nor bytes.
pub(super) fn is_record(value: &JsValue) -> bool {
    value.is_object()
        && !is_array(value)
        && !value.is_instance_of::<Uint8Array>()
        && !value.is_instance_of::<ArrayBuffer>()
}

/// The type of a value as messages name it (`typeof`, with `null`, `array`, `Uint8Array` and
/// `ArrayBuffer` told apart).
pub(super) fn type_name(value: &JsValue) -> &'static str {
    if value.is_undefined() {
        "undefined"
    } else if value.is_null() {
        "null"
    } else if value.as_bool().is_some() {
        "boolean"
    } else if value.is_string() {
        "string"
    } else if value.as_f64().is_some() {
        "number"
    } else if value.is_bigint() {
        "bigint"
    } else if value.is_symbol() {
        "symbol"
    } else if value.is_function() {
        "function"
    } else if is_array(value) {
        "array"
    } else if value.is_instance_of::<Uint8Array>() {
        "Uint8Array"
    } else if value.is_instance_of::<ArrayBuffer>() {
        "ArrayBuffer"
    } else {
        "object"
    }
}

/// A string argument, taken as it is (a number or an object is refused, not converted).
pub(super) fn string(value: &JsValue, arg: Arg) -> Result<String, JsValue> {
    value
        .as_string()
        .ok_or_else(|| arg.wrong("a string", value))
}

/// `Reflect.get(object, key)`, with what the getter throws as an `invalid-argument` error.
#[cfg(feature = "js")]
pub(super) fn get(object: &JsValue, key: &str, arg: Arg) -> Result<JsValue, JsValue> {
    Reflect::get(object, &JsValue::from_str(key))
        .map_err(|e| arg.error(ErrorCode::InvalidArgument, unreadable(key, &e)))
}

fn unreadable(key: &str, thrown: &JsValue) -> String {
    let message = Reflect::get(thrown, &JsValue::from_str("message"))
        .ok()
        .and_then(|m| m.as_string())
        .unwrap_or_else(|| type_name(thrown).to_owned());
    format!("could not be read ({key}: {message})")
}

/// The items of an array argument, read one by one with `Reflect.get`.
#[cfg(feature = "js")]
pub(super) fn array_items(
    value: &JsValue,
    arg: Arg,
    expected: &str,
) -> Result<Vec<JsValue>, JsValue> {
    if !is_array(value) {
        return Err(arg.wrong(expected, value));
    }
    let length = get(value, "length", arg)?
        .as_f64()
        .filter(|n| n.fract() == 0.0 && *n >= 0.0)
        .ok_or_else(|| arg.error(ErrorCode::InvalidArgument, "has no valid length"))?;
    let length = length as usize;
    let mut items = Vec::new();
    items
        .try_reserve_exact(length)
        .map_err(|_| arg.error(ErrorCode::InvalidArgument, "is too long"))?;
    for i in 0..length {
        let item = Reflect::get(value, &JsValue::from_f64(i as f64)).map_err(|e| {
            arg.error(
                ErrorCode::InvalidArgument,
                unreadable(&format!("[{i}]"), &e),
            )
        })?;
        items.push(item);
    }
    Ok(items)
}
