//! JSON text: entries and `resources/read` results, read by the host's own validator.

use super::*;

thread_local! {
    /// The last entry [`entry_from`] read.
    static LAST_ENTRY: RefCell<Option<Kept>> = const { RefCell::new(None) };
    /// Every object [`frozen_entry`] made (frozen all the way down, so it cannot change).
    static FROZEN: WeakSet = WeakSet::new();
}

// ---------------------------------------------------------------------------------------------
// JSON text (entries and resources/read results, read by the host's own validator)
// ---------------------------------------------------------------------------------------------

/// `JSON.stringify(value)`, or `None` when the value has no JSON form (undefined, a function,
/// a BigInt, a cycle, a getter or `toJSON` that throws).
pub(in crate::js) fn json_text(value: &JsValue) -> Option<String> {
    JSON::stringify(value)
        .ok()
        .and_then(|s| JsValue::from(s).as_string())
}

/// `JSON.parse` of JSON text this module produced.
pub(in crate::js) fn json_value(text: &str) -> Result<JsValue, JsValue> {
    JSON::parse(text).map_err(|_| {
        fail(
            ErrorCode::InvalidArgument,
            "internal JSON could not be parsed",
        )
    })
}

/// A JSON array of the given JSON texts, parsed in one call.
#[cfg(feature = "js")]
pub(in crate::js) fn json_array<'a>(
    items: impl Iterator<Item = &'a str>,
) -> Result<JsValue, JsValue> {
    json_value(&json_array_text(items))
}

/// The JSON text of an array of the given JSON texts.
pub(in crate::js) fn json_array_text<S: AsRef<str>>(items: impl IntoIterator<Item = S>) -> String {
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
pub(in crate::js) fn entry_from(value: &JsValue, arg: Arg) -> Result<Rc<Entry>, JsValue> {
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
pub(in crate::js) fn frozen_entry(entry: &Rc<Entry>) -> Result<JsValue, JsValue> {
    let object = json_value(&entry.to_json())?;
    deep_freeze(&object);
    FROZEN.with(|f| f.add(object.unchecked_ref()));
    LAST_ENTRY.with(|last| {
        if let Ok(mut last) = last.try_borrow_mut()
            && let Some(kept) = last.as_mut().filter(|k| Rc::ptr_eq(&k.entry, entry))
        {
            kept.frozen = Some(object.clone());
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
pub(in crate::js) fn json_arg(
    value: &JsValue,
    arg: Arg,
    code: ErrorCode,
    expected: &str,
    text: bool,
) -> Result<String, JsValue> {
    if text && let Some(s) = value.as_string() {
        return Ok(s);
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
pub(in crate::js) enum FileInput {
    /// A string, as its UTF-8 bytes (copied into WebAssembly memory by wasm-bindgen).
    Text(String),
    /// A `Uint8Array`, read in chunks.
    Bytes(JsBytes),
}

/// `string` → text, `Uint8Array` → bytes left where they are.
pub(in crate::js) fn file_input(value: &JsValue, arg: Arg) -> Result<FileInput, JsValue> {
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
pub(in crate::js) fn content_from(
    value: &JsValue,
    arg: Arg,
    result: bool,
) -> Result<Content, JsValue> {
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
pub(in crate::js) fn read_result(value: &JsValue, arg: Arg) -> Result<String, JsValue> {
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
