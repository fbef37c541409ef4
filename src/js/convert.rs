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

// ---------------------------------------------------------------------------------------------
// Bytes
// ---------------------------------------------------------------------------------------------

/// The built-in `length`, `buffer` and `byteOffset` getters of typed arrays and `byteLength`
/// getter of `ArrayBuffer`s, which an own property of the value cannot shadow.
struct Getters {
    length: Function,
    buffer: Function,
    byte_offset: Function,
    array_buffer: Function,
}

thread_local! {
    static GETTERS: Option<Getters> = getters();
    /// The fixed buffer large byte arrays are hashed through: allocated once, up to [`CHUNK`]
    /// bytes, and reused by every call.
    static SCRATCH: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The last entry [`entry_from`] read.
    static LAST_ENTRY: RefCell<Option<Kept>> = const { RefCell::new(None) };
    /// Every object [`frozen_entry`] made (frozen all the way down, so it cannot change).
    static FROZEN: WeakSet = WeakSet::new();
}

/// How many bytes of a caller's array are copied into WebAssembly memory at a time to be
/// hashed.
pub(super) const CHUNK: usize = 64 * 1024;

fn getter(prototype: &Object, name: &str) -> Option<Function> {
    let descriptor = Object::get_own_property_descriptor(prototype, &JsValue::from_str(name));
    Reflect::get(&descriptor, &JsValue::from_str("get"))
        .ok()?
        .dyn_into::<Function>()
        .ok()
}

fn getters() -> Option<Getters> {
    // Fresh objects of this module: their prototypes are the built-in ones.
    let uint8 = Object::get_prototype_of(&Uint8Array::new_with_length(0));
    let typed = Object::get_prototype_of(&uint8);
    let buffer = Object::get_prototype_of(&ArrayBuffer::new(0));
    Some(Getters {
        length: getter(&typed, "length")?,
        buffer: getter(&typed, "buffer")?,
        byte_offset: getter(&typed, "byteOffset")?,
        array_buffer: getter(&buffer, "byteLength")?,
    })
}

/// Calls a built-in getter on `value`; `None` when it throws (the value is not what the getter
/// reads) or there are no getters.
fn read_with(value: &JsValue, pick: impl Fn(&Getters) -> &Function) -> Option<JsValue> {
    GETTERS.with(|g| Reflect::apply(pick(g.as_ref()?), value, &Array::new()).ok())
}

/// A genuine `Uint8Array` left where it is, in JavaScript memory: its length is read once with
/// the built-in getter; its bytes are copied only when they are read, whole ([`to_vec`]) or a
/// chunk at a time ([`digest`]), by built-ins only, so the array cannot change while it is read.
/// Code of the caller's that runs after it was measured (a getter of a later argument) may
/// detach or shrink its buffer: reading it then fails with `invalid-argument`, and only the
/// measured length is ever read.
///
/// [`to_vec`]: JsBytes::to_vec
/// [`digest`]: JsBytes::digest
pub(super) struct JsBytes {
    view: JsValue,
    len: usize,
    arg: Arg,
}

/// A `Uint8Array` (or, with `buffers`, an `ArrayBuffer`) argument, measured but not copied;
/// `None` for any other value. A detached buffer has no bytes; a value that only looks like
/// one (a proxy, an object made from the prototype) is refused.
pub(super) fn js_bytes(
    value: &JsValue,
    buffers: bool,
    arg: Arg,
) -> Result<Option<JsBytes>, JsValue> {
    let buffer = if value.is_instance_of::<Uint8Array>() {
        false
    } else if buffers && value.is_instance_of::<ArrayBuffer>() {
        true
    } else {
        return Ok(None);
    };
    let length = if buffer {
        read_with(value, |g| &g.array_buffer)
    } else {
        read_with(value, |g| &g.length)
    };
    let len = length
        .and_then(|n| n.as_f64())
        .ok_or_else(|| arg.error(ErrorCode::InvalidArgument, NOT_BYTES))? as usize;
    let view: JsValue = if buffer && len > 0 {
        // A genuine, attached buffer: the view is made without running any other code.
        Uint8Array::new(value).into()
    } else {
        value.clone()
    };
    Ok(Some(JsBytes { view, len, arg }))
}

const NOT_BYTES: &str = "is not a genuine Uint8Array or ArrayBuffer";
const CHANGED: &str =
    "could not be read: its buffer was detached or resized while the call read its other arguments";

impl JsBytes {
    /// The byte length.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// The bytes, copied whole into WebAssembly memory.
    pub(super) fn to_vec(&self) -> Result<Vec<u8>, JsValue> {
        let mut out = Vec::new();
        out.try_reserve_exact(self.len).map_err(|_| {
            self.arg.error(
                ErrorCode::InvalidArgument,
                format_args!(
                    "has {} bytes, more than WebAssembly memory can hold",
                    self.len
                ),
            )
        })?;
        out.resize(self.len, 0);
        if self.len > 0 {
            copy_into(&mut out, &self.view)
                .map_err(|_| self.arg.error(ErrorCode::InvalidArgument, NOT_BYTES))?;
        }
        Ok(out)
    }

    /// The SHA-256 of the bytes in wire form, hashed [`CHUNK`] bytes at a time through the
    /// fixed buffer (a fresh one if that is in use), so the array is never copied whole.
    pub(super) fn digest(&self) -> Result<String, VerifyError> {
        SCRATCH.with(|cell| match cell.try_borrow_mut() {
            Ok(mut scratch) => self.digest_through(&mut scratch),
            Err(_) => self.digest_through(&mut Vec::new()),
        })
    }

    fn digest_through(&self, scratch: &mut Vec<u8>) -> Result<String, VerifyError> {
        let not_bytes = || VerifyError::new(ErrorCode::InvalidArgument, self.arg.message(CHANGED));
        let mut stream = Sha256Stream::new();
        if self.len == 0 {
            return Ok(stream.finish_wire());
        }
        let room = self.len.min(CHUNK);
        if scratch.len() < room {
            scratch.resize(room, 0);
        }
        if self.len <= CHUNK {
            // Still as long as measured, so that `set` copies every byte of `dst`.
            let now = read_with(&self.view, |g| &g.length).and_then(|n| n.as_f64());
            if now != Some(self.len as f64) {
                return Err(not_bytes());
            }
            let dst = scratch.get_mut(..self.len).ok_or_else(not_bytes)?;
            copy_into(dst, &self.view).map_err(|_| not_bytes())?;
            stream.update(dst);
            return Ok(stream.finish_wire());
        }
        // Views of successive parts of the array's own buffer, each exactly `n` bytes long (the
        // constructor throws if the buffer no longer holds them).
        let buffer = read_with(&self.view, |g| &g.buffer).ok_or_else(not_bytes)?;
        let start = read_with(&self.view, |g| &g.byte_offset)
            .and_then(|n| n.as_f64())
            .ok_or_else(not_bytes)?;
        let mut offset = 0;
        while offset < self.len {
            let n = (self.len - offset).min(CHUNK);
            let part =
                ByteView::new(&buffer, start + offset as f64, n as f64).map_err(|_| not_bytes())?;
            let dst = scratch.get_mut(..n).ok_or_else(not_bytes)?;
            copy_into(dst, &part).map_err(|_| not_bytes())?;
            stream.update(dst);
            offset += n;
        }
        Ok(stream.finish_wire())
    }
}

/// The bytes of a `Uint8Array` (or, with `buffers`, of an `ArrayBuffer`), copied into
/// WebAssembly memory; `None` for any other value ([`js_bytes`]).
pub(super) fn bytes_of(
    value: &JsValue,
    buffers: bool,
    arg: Arg,
) -> Result<Option<Vec<u8>>, JsValue> {
    js_bytes(value, buffers, arg)?
        .map(|b| b.to_vec())
        .transpose()
}

/// A byte count argument: a non-negative integer number no larger than 2^53 - 1.
pub(super) fn byte_count(value: &JsValue, arg: Arg) -> Result<u64, JsValue> {
    const MAX_SAFE: f64 = 9_007_199_254_740_991.0;
    match value.as_f64() {
        Some(n) if n.fract() == 0.0 && (0.0..=MAX_SAFE).contains(&n) => Ok(n as u64),
        // The number as JavaScript writes it (`String(n)`: `1.5`, `-1`, `NaN`, `Infinity`),
        // which also keeps core's float formatter out of the module.
        Some(n) => Err(arg.error(
            ErrorCode::InvalidArgument,
            format_args!(
                "must be a non-negative integer (a byte count), got {}",
                String::from(
                    js_sys::Number::from(n)
                        .to_string_with_radix(10)
                        .unwrap_or_default()
                )
            ),
        )),
        None => Err(arg.wrong("a non-negative integer (a byte count)", value)),
    }
}

/// A digest argument in wire form, `sha256:` + 64 lowercase hex characters.
pub(super) fn wire_digest(value: &JsValue, arg: Arg) -> Result<String, JsValue> {
    const EXPECTED: &str =
        "a digest in wire form (`sha256:` followed by 64 lowercase hex characters)";
    let s = value
        .as_string()
        .ok_or_else(|| arg.wrong(EXPECTED, value))?;
    if !is_wire_digest(&s) {
        return Err(arg.error(
            ErrorCode::InvalidArgument,
            format_args!(
                "must be {EXPECTED}, got {:?}",
                s.chars().take(80).collect::<String>()
            ),
        ));
    }
    Ok(s)
}

// ---------------------------------------------------------------------------------------------
// JSON text (entries and resources/read results, read by the host's own validator)
// ---------------------------------------------------------------------------------------------

/// `JSON.stringify(value)`, or `None` when the value has no JSON form (undefined, a function,
/// a BigInt, a cycle, a getter or `toJSON` that throws).
pub(super) fn json_text(value: &JsValue) -> Option<String> {
    JSON::stringify(value)
        .ok()
        .and_then(|s| JsValue::from(s).as_string())
}

/// `JSON.parse` of JSON text this module produced.
pub(super) fn json_value(text: &str) -> Result<JsValue, JsValue> {
    JSON::parse(text).map_err(|_| {
        fail(
            ErrorCode::InvalidArgument,
            "internal JSON could not be parsed",
        )
    })
}

/// A JSON array of the given JSON texts, parsed in one call.
#[cfg(feature = "js")]
pub(super) fn json_array<'a>(items: impl Iterator<Item = &'a str>) -> Result<JsValue, JsValue> {
    json_value(&json_array_text(items))
}

/// The JSON text of an array of the given JSON texts.
pub(super) fn json_array_text<S: AsRef<str>>(items: impl IntoIterator<Item = S>) -> String {
    let mut text = String::from("[");
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            text.push(',');
        }
        text.push_str(item.as_ref());
    }
    text.push(']');
    text
}

/// The last entry [`entry_from`] read: the JSON text of the argument (a JavaScript string),
/// the frozen copy `validateEntry` gave back for it, if any, and the entry.
struct Kept {
    text: JsValue,
    frozen: Option<JsValue>,
    entry: Rc<Entry>,
}

/// A skill entry argument, validated by [`Entry::parse`]. A value that is not an object is an
/// invalid entry (`invalid-entry`), as entries come from servers.
///
/// The last entry read is kept, and an argument that is the same entry is not read again: a
/// host verifies every file of a skill against one entry, and reading it (5 to 8 us for a
/// two-file entry in Node 20, more than hashing a 1 KiB file) would otherwise be repeated with
/// every file. The same entry is
/// * a deeply frozen object [`frozen_entry`] made (`validateEntry`'s result), which cannot
///   change: once read, it is recognised by identity alone, until another entry is read; or
/// * any object with the same JSON text, compared in full, so that a changed entry is always
///   read anew. The kept text stays a JavaScript string and is compared there (`===`); an
///   argument's text is copied into WebAssembly memory only when it differs.
///
/// Only valid entries are kept, one at a time (the largest a skill can have is a few hundred
/// kilobytes of JSON).
pub(super) fn entry_from(value: &JsValue, arg: Arg) -> Result<Rc<Entry>, JsValue> {
    let same_object = LAST_ENTRY.with(|last| {
        let last = last.try_borrow().ok()?;
        let kept = last.as_ref()?;
        (kept.frozen.as_ref()? == value).then(|| Rc::clone(&kept.entry))
    });
    if let Some(entry) = same_object {
        return Ok(entry);
    }
    if !is_record(value) {
        return Err(arg.wrong_with(ErrorCode::InvalidEntry, "a skill entry object", value));
    }
    let not_json = || {
        arg.error(
            ErrorCode::InvalidEntry,
            "is not a JSON object (JSON.stringify cannot serialise it)",
        )
    };
    let text = JsValue::from(JSON::stringify(value).map_err(|_| not_json())?);
    if !text.is_string() {
        return Err(not_json());
    }
    let frozen = value
        .dyn_ref::<Object>()
        .filter(|o| FROZEN.with(|f| f.has(o)))
        .map(|_| value.clone());
    let same_text = LAST_ENTRY.with(|last| {
        let mut last = last.try_borrow_mut().ok()?;
        let kept = last.as_mut().filter(|k| k.text == text)?;
        if frozen.is_some() {
            kept.frozen = frozen.clone();
        }
        Some(Rc::clone(&kept.entry))
    });
    if let Some(entry) = same_text {
        return Ok(entry);
    }
    let json = text.as_string().ok_or_else(not_json)?;
    let entry = Rc::new(throw(Entry::parse(&json))?);
    LAST_ENTRY.with(|last| {
        if let Ok(mut last) = last.try_borrow_mut() {
            *last = Some(Kept {
                text,
                frozen,
                entry: Rc::clone(&entry),
            });
        }
    });
    Ok(entry)
}

/// The entry as the host reads it ([`Entry::to_json`]), as a new, deeply frozen object, which
/// [`entry_from`] recognises by identity once it has read it. When `entry` is the kept one (it
/// is, right after [`entry_from`] gave it), the object is kept with it at once.
pub(super) fn frozen_entry(entry: &Rc<Entry>) -> Result<JsValue, JsValue> {
    let object = json_value(&entry.to_json())?;
    deep_freeze(&object);
    FROZEN.with(|f| f.add(object.unchecked_ref()));
    LAST_ENTRY.with(|last| {
        if let Ok(mut last) = last.try_borrow_mut() {
            if let Some(kept) = last.as_mut().filter(|k| Rc::ptr_eq(&k.entry, entry)) {
                kept.frozen = Some(object.clone());
            }
        }
    });
    Ok(object)
}

/// `Object.freeze` on a value made by `JSON.parse` and on every object and array in it.
fn deep_freeze(value: &JsValue) {
    if let Some(object) = value.dyn_ref::<Object>() {
        for inner in Object::values(object).iter() {
            deep_freeze(&inner);
        }
        Object::freeze(object);
    }
}

/// A JSON argument given as an object (or, with `text`, as JSON text), as JSON text.
pub(super) fn json_arg(
    value: &JsValue,
    arg: Arg,
    code: ErrorCode,
    expected: &str,
    text: bool,
) -> Result<String, JsValue> {
    if text {
        if let Some(s) = value.as_string() {
            return Ok(s);
        }
    }
    if !value.is_object() || value.is_instance_of::<Uint8Array>() {
        return Err(arg.wrong_with(code, expected, value));
    }
    json_text(value).ok_or_else(|| {
        arg.error(
            code,
            "cannot be serialised as JSON (a BigInt, a cycle, or a getter or toJSON that throws)",
        )
    })
}

/// A file's content as the exports that only hash it take it: text, or bytes left in
/// JavaScript memory.
pub(super) enum FileInput {
    /// A string, as its UTF-8 bytes (copied into WebAssembly memory by wasm-bindgen).
    Text(String),
    /// A `Uint8Array`, read in chunks.
    Bytes(JsBytes),
}

/// `string` → text, `Uint8Array` → bytes left where they are.
pub(super) fn file_input(value: &JsValue, arg: Arg) -> Result<FileInput, JsValue> {
    if let Some(s) = value.as_string() {
        return Ok(FileInput::Text(s));
    }
    if let Some(bytes) = js_bytes(value, false, arg)? {
        return Ok(FileInput::Bytes(bytes));
    }
    Err(arg.wrong("a string or a Uint8Array", value))
}

/// `string` → text, `Uint8Array` → bytes, and (with `result`) an object → a `resources/read`
/// result.
pub(super) fn content_from(value: &JsValue, arg: Arg, result: bool) -> Result<Content, JsValue> {
    if let Some(s) = value.as_string() {
        return Ok(Content::Text(s));
    }
    if let Some(bytes) = bytes_of(value, false, arg)? {
        return Ok(Content::Bytes(bytes));
    }
    if result && is_record(value) {
        return read_result(value, arg).map(Content::ReadResult);
    }
    Err(arg.wrong(
        if result {
            "a string, a Uint8Array or a resources/read result object"
        } else {
            "a string or a Uint8Array"
        },
        value,
    ))
}

/// A `resources/read` result object as JSON text (read by the host with the strict JSON
/// reader, [`Content::ReadResult`]).
pub(super) fn read_result(value: &JsValue, arg: Arg) -> Result<String, JsValue> {
    if !is_record(value) {
        return Err(arg.wrong_with(
            ErrorCode::InvalidReadResult,
            "a resources/read result object",
            value,
        ));
    }
    json_arg(
        value,
        arg,
        ErrorCode::InvalidReadResult,
        "a resources/read result object",
        false,
    )
}

// ---------------------------------------------------------------------------------------------
// Option objects (a safe copy, read key by key)
// ---------------------------------------------------------------------------------------------

/// How deep an option object may nest.
const OPTION_DEPTH: usize = 8;

/// A copy of an option object, made with catching reads (so reading it runs none of the
/// caller's code), whose every key is known; read key by key with typed getters. Only the
/// copy's own properties are read, so a property added to `Object.prototype` is not an option.
pub(super) struct Record {
    copy: Object,
    arg: Arg,
}

/// An optional options argument whose keys are `fields`: `None` for `undefined` and `null`
/// (the defaults), `invalid-argument` for any other value that is not an object or for an
/// unknown key (naming the known ones).
pub(super) fn option_record(
    value: &JsValue,
    arg: Arg,
    fields: &[&str],
) -> Result<Option<Record>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    let copy = checked_copy(value, arg, &[], fields)?;
    Ok(Some(Record {
        copy: copy.unchecked_into(),
        arg,
    }))
}

impl Record {
    /// The option `key` as given, `undefined` when absent.
    pub(super) fn value(&self, key: &str) -> JsValue {
        let key = JsValue::from_str(key);
        if !Object::has_own(&self.copy, &key) {
            return JsValue::UNDEFINED;
        }
        // A data property of a fresh plain object: reading it cannot throw.
        Reflect::get(&self.copy, &key).unwrap_or(JsValue::UNDEFINED)
    }

    /// A boolean option: `None` when absent, `undefined` or `null`; `invalid-argument` naming
    /// the option for any other value that is not a boolean.
    pub(super) fn bool(&self, key: &str) -> Result<Option<bool>, JsValue> {
        let value = self.value(key);
        if value.is_undefined() || value.is_null() {
            return Ok(None);
        }
        value.as_bool().map(Some).ok_or_else(|| {
            self.arg.error(
                ErrorCode::InvalidArgument,
                format_args!(
                    "property {key:?} must be a boolean (true or false), got {}",
                    type_name(&value)
                ),
            )
        })
    }
}

/// The copy an option object is read from: `value` copied with catching reads, every key one
/// of `fields` (or skipped); an unknown key is refused naming the known ones.
fn checked_copy(
    value: &JsValue,
    arg: Arg,
    skip: &[&str],
    fields: &[&str],
) -> Result<JsValue, JsValue> {
    if !is_record(value) {
        return Err(arg.wrong("an object", value));
    }
    let copy = snapshot(value, 0, skip).map_err(|m| arg.error(ErrorCode::InvalidArgument, m))?;
    for key in Object::keys(copy.unchecked_ref::<Object>()).iter() {
        let key = key.as_string().unwrap_or_default();
        if !fields.contains(&key.as_str()) {
            let mut known: Vec<&str> = fields.iter().chain(skip).copied().collect();
            // A handful of names: sorted in place by insertion, so that this error needs no
            // sort routine of its own in the WebAssembly module.
            for i in 1..known.len() {
                let mut j = i;
                while j > 0 && known[j - 1] > known[j] {
                    known.swap(j - 1, j);
                    j -= 1;
                }
            }
            return Err(arg.error(
                ErrorCode::InvalidArgument,
                format_args!(
                    "has an unknown property {key:?} (known: {})",
                    known.join(", ")
                ),
            ));
        }
    }
    Ok(copy)
}

/// The host's options as the package names them: `allowDynamic`, `requireApproval` and
/// `nestedWithoutApproval` (absent: `false`). `new SkillHost` and `new SkillsClientCore` take
/// them beside their own (the signer options, the client's).
pub(super) const HOST_FIELDS: [&str; 3] =
    ["allowDynamic", "requireApproval", "nestedWithoutApproval"];

/// The host's options ([`HOST_FIELDS`]) of an option object; the defaults without one.
pub(super) fn host_options(record: Option<&Record>) -> Result<HostOptions, JsValue> {
    let Some(r) = record else {
        return Ok(HostOptions::default());
    };
    Ok(HostOptions {
        allow_dynamic: r.bool("allowDynamic")?.unwrap_or(false),
        require_approval: r.bool("requireApproval")?.unwrap_or(false),
        nested_without_approval: r.bool("nestedWithoutApproval")?.unwrap_or(false),
    })
}

/// The options of the verifier functions: `allowDynamic` (absent: `false`).
pub(super) fn verify_options(value: &JsValue, arg: Arg) -> Result<VerifyOptions, JsValue> {
    let record = option_record(value, arg, &["allowDynamic"])?;
    let allow_dynamic = match &record {
        Some(r) => r.bool("allowDynamic")?.unwrap_or(false),
        None => false,
    };
    Ok(VerifyOptions { allow_dynamic })
}

/// A copy of a caller's value made of primitives, fresh plain objects and fresh arrays only;
/// functions and bytes are refused (no option takes them), as is nesting deeper than
/// [`OPTION_DEPTH`].
fn snapshot(value: &JsValue, depth: usize, skip: &[&str]) -> Result<JsValue, String> {
    if value.is_function() {
        return Err("must not hold a function".into());
    }
    if !value.is_object() {
        return Ok(value.clone());
    }
    if value.is_instance_of::<Uint8Array>() || value.is_instance_of::<ArrayBuffer>() {
        return Err(format!("must not hold a {}", type_name(value)));
    }
    if depth >= OPTION_DEPTH {
        return Err("is nested too deeply".into());
    }
    let fail = |key: &str, e: JsValue| unreadable(key, &e);
    if is_array(value) {
        let length = Reflect::get(value, &JsValue::from_str("length"))
            .map_err(|e| fail("length", e))?
            .as_f64()
            .unwrap_or(0.0);
        let out = Array::new();
        let mut i = 0.0;
        while i < length && i < 1024.0 {
            let item = Reflect::get(value, &JsValue::from_f64(i)).map_err(|e| fail("item", e))?;
            out.push(&snapshot(&item, depth + 1, &[])?);
            i += 1.0;
        }
        return Ok(out.into());
    }
    let out = Object::new();
    for key in Reflect::own_keys(value.unchecked_ref())
        .map_err(|e| fail("keys", e))?
        .iter()
    {
        let Some(name) = key.as_string() else {
            continue; // symbol keys are not options
        };
        if skip.contains(&name.as_str()) {
            continue;
        }
        let item = Reflect::get(value, &key).map_err(|e| fail(&name, e))?;
        let item = snapshot(&item, depth + 1, &[]).map_err(|m| format!("property {name:?} {m}"))?;
        // Setting a property of a fresh plain object cannot fail.
        let _ = Reflect::set(&out, &key, &item);
    }
    Ok(out.into())
}

// The main module's option structs (the server's, the compiler's, the client's) are read by
// serde-wasm-bindgen from the same copy; the verifier module has no serde-wasm-bindgen.

/// An optional options argument: `undefined` and `null` give the defaults.
#[cfg(feature = "js")]
pub(super) fn options<T: DeserializeOwned + Default>(
    value: &JsValue,
    arg: Arg,
) -> Result<T, JsValue> {
    options_except(value, arg, &[])
}

/// [`options`], leaving the keys in `skip` to the caller (read with [`get`]).
#[cfg(feature = "js")]
pub(super) fn options_except<T: DeserializeOwned + Default>(
    value: &JsValue,
    arg: Arg,
    skip: &[&str],
) -> Result<T, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(T::default());
    }
    record(value, arg, skip)
}

/// An object argument read into `T`: it is copied into a fresh plain object with catching
/// reads (so serde runs none of the caller's code), its keys are checked against `T`'s fields,
/// and serde-wasm-bindgen reads the copy.
#[cfg(feature = "js")]
pub(super) fn record<T: DeserializeOwned>(
    value: &JsValue,
    arg: Arg,
    skip: &[&str],
) -> Result<T, JsValue> {
    let copy = checked_copy(value, arg, skip, fields_of::<T>())?;
    from_copy(copy, arg)
}

/// `T` read by serde-wasm-bindgen from a [`checked_copy`] (a field it does not name is left
/// alone).
#[cfg(feature = "js")]
fn from_copy<T: DeserializeOwned>(copy: JsValue, arg: Arg) -> Result<T, JsValue> {
    serde_wasm_bindgen::from_value(copy).map_err(|e| {
        let e = JsValue::from(e);
        let message = Reflect::get(&e, &JsValue::from_str("message"))
            .ok()
            .and_then(|m| m.as_string())
            .unwrap_or_default();
        arg.error(
            ErrorCode::InvalidArgument,
            format_args!("is invalid: {message}"),
        )
    })
}

/// An optional argument holding `T`'s options and the host's ([`HOST_FIELDS`]), from one copy
/// of it: a key neither names is refused naming both sets; `T`'s fields are read first.
#[cfg(feature = "js")]
pub(super) fn options_with_host<T: DeserializeOwned + Default>(
    value: &JsValue,
    arg: Arg,
) -> Result<(T, HostOptions), JsValue> {
    let fields: Vec<&str> = fields_of::<T>()
        .iter()
        .chain(&HOST_FIELDS)
        .copied()
        .collect();
    let Some(record) = option_record(value, arg, &fields)? else {
        return Ok((T::default(), HostOptions::default()));
    };
    let own: T = from_copy(record.copy.clone().into(), arg)?;
    Ok((own, host_options(Some(&record))?))
}

/// The field names serde reads for the struct `T` (after renaming).
#[cfg(feature = "js")]
fn fields_of<T: DeserializeOwned>() -> &'static [&'static str] {
    use serde::de::{Error, Visitor};

    struct Probe<'a>(&'a mut &'static [&'static str]);

    impl<'de> serde::Deserializer<'de> for Probe<'_> {
        type Error = serde::de::value::Error;

        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
            Err(Self::Error::custom("not a struct"))
        }

        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Self::Error> {
            *self.0 = fields;
            Err(Self::Error::custom("fields read"))
        }

        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
            byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map enum
            identifier ignored_any
        }
    }

    let mut fields: &'static [&'static str] = &[];
    let _ = T::deserialize(Probe(&mut fields));
    fields
}

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
pub(super) fn to_js<T: serde::Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value.serialize(&SERIALIZER).map_err(|e| {
        fail(
            ErrorCode::InvalidArgument,
            format!("internal: a result could not be converted: {e}"),
        )
    })
}

/// Serialises bytes as a `Uint8Array`.
#[cfg(feature = "js")]
pub(super) fn uint8array<S: serde::Serializer>(bytes: &&[u8], s: S) -> Result<S::Ok, S::Error> {
    s.serialize_bytes(bytes)
}

/// A result object written as JSON text field by field, from Rust values only, and made a
/// plain object by one `JSON.parse` ([`JsonObject::into_js`]): one crossing into JavaScript,
/// where setting its properties one by one makes one per property and per string. For the
/// `FileReceipt` the per-file verifier functions return with every call (Node 20, CPU time),
/// the receipt and the digest argument took about 1.7 us this way against 2.5 us property by
/// property; the object is the same. Bytes (one `Uint8Array` property at most) are set on the
/// parsed object, in the place the JSON text kept for them.
pub(super) struct JsonObject<'a> {
    text: String,
    bytes: Option<(&'static str, &'a [u8])>,
}

impl<'a> JsonObject<'a> {
    /// An empty object.
    pub(super) fn new() -> Self {
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
    pub(super) fn str(&mut self, key: &str, value: &str) {
        self.key(key);
        write_json_string(value, &mut self.text);
    }

    /// A string property, absent for `None`.
    pub(super) fn opt_str(&mut self, key: &str, value: Option<&str>) {
        if let Some(v) = value {
            self.str(key, v);
        }
    }

    /// An integer property (sizes and counts, which JavaScript numbers hold exactly).
    pub(super) fn num(&mut self, key: &str, value: u64) {
        use std::fmt::Write;
        self.key(key);
        let _ = write!(self.text, "{value}");
    }

    /// A boolean property.
    pub(super) fn bool(&mut self, key: &str, value: bool) {
        self.key(key);
        self.text.push_str(if value { "true" } else { "false" });
    }

    /// A property whose value is JSON text this crate wrote (an object, an array).
    pub(super) fn raw(&mut self, key: &str, json: &str) {
        self.key(key);
        self.text.push_str(json);
    }

    /// A `Uint8Array` property (its place is kept in the text; the bytes are set after parsing).
    pub(super) fn bytes(&mut self, key: &'static str, bytes: &'a [u8]) {
        self.raw(key, "null");
        self.bytes = Some((key, bytes));
    }

    /// The JSON text (only for an object without bytes).
    pub(super) fn text(mut self) -> String {
        self.text.push('}');
        self.text
    }

    /// The plain object.
    pub(super) fn into_js(self) -> Result<JsValue, JsValue> {
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
pub(super) fn receipt_js(r: &FileReceipt) -> Result<JsValue, JsValue> {
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
pub(super) fn body_js(body: &Body, mime_type: Option<&str>) -> Result<JsValue, JsValue> {
    let mut o = JsonObject::new();
    body_fields(&mut o, body, mime_type);
    o.into_js()
}

/// `VerifiedContent`'s properties (a receipt's figures and the body they describe); `ReadFile`
/// adds `serverLabel` and `skillUri`.
pub(super) fn content_fields<'a>(o: &mut JsonObject<'a>, c: &'a VerifiedContent) {
    receipt_fields(o, &c.receipt);
    body_fields(o, &c.body, c.mime_type.as_deref());
}

/// `VerifiedSkillMd`'s properties (the frontmatter is the host's own JSON text of it, its key
/// order kept); `LoadedSkill` adds `serverLabel` and `displayName`.
pub(super) fn skill_md_fields(o: &mut JsonObject, v: &VerifiedSkillMd) {
    receipt_fields(o, &v.receipt);
    o.str("text", &v.text);
    o.str("body", v.body());
    o.raw("frontmatter", &v.frontmatter.to_json());
    o.opt_str("mimeType", v.mime_type.as_deref());
}

/// `PlannedRead`.
pub(super) fn planned_js(p: &PlannedRead) -> Result<JsValue, JsValue> {
    let mut o = JsonObject::new();
    o.str("uri", &p.uri);
    o.opt_str("digest", p.digest.as_deref());
    if let Some(size) = p.size {
        o.num("size", size);
    }
    o.into_js()
}

/// `RegisterOutcome`, as JSON text.
pub(super) fn outcome_json(r: &RegisterOutcome) -> String {
    let mut o = JsonObject::new();
    o.str("uri", &r.uri);
    o.bool("added", r.added);
    o.bool("changed", r.changed);
    o.bool("approvalRevoked", r.approval_revoked);
    o.text()
}
