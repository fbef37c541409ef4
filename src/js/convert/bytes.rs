//! Bytes: a caller's `Uint8Array` or `ArrayBuffer`, read with the built-in getters, hashed
//! through a fixed buffer or copied whole.

use super::*;

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
}

/// How many bytes of a caller's array are copied into WebAssembly memory at a time to be
/// hashed.
pub(in crate::js) const CHUNK: usize = 64 * 1024;

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
pub(in crate::js) struct JsBytes {
    view: JsValue,
    len: usize,
    arg: Arg,
}

/// A `Uint8Array` (or, with `buffers`, an `ArrayBuffer`) argument, measured but not copied;
/// `None` for any other value. A detached buffer has no bytes; a value that only looks like
/// one (a proxy, an object made from the prototype) is refused.
pub(in crate::js) fn js_bytes(
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
    pub(in crate::js) fn len(&self) -> usize {
        self.len
    }

    /// The bytes, copied whole into WebAssembly memory.
    pub(in crate::js) fn to_vec(&self) -> Result<Vec<u8>, JsValue> {
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
    pub(in crate::js) fn digest(&self) -> Result<String, VerifyError> {
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
pub(in crate::js) fn bytes_of(
    value: &JsValue,
    buffers: bool,
    arg: Arg,
) -> Result<Option<Vec<u8>>, JsValue> {
    js_bytes(value, buffers, arg)?
        .map(|b| b.to_vec())
        .transpose()
}

/// A byte count argument: a non-negative integer number no larger than 2^53 - 1.
pub(in crate::js) fn byte_count(value: &JsValue, arg: Arg) -> Result<u64, JsValue> {
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
pub(in crate::js) fn wire_digest(value: &JsValue, arg: Arg) -> Result<String, JsValue> {
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
