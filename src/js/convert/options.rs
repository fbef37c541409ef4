//! Option objects: a safe copy, read key by key.

use super::*;

// ---------------------------------------------------------------------------------------------
// Option objects (a safe copy, read key by key)
// ---------------------------------------------------------------------------------------------

/// How deep an option object may nest.
const OPTION_DEPTH: usize = 8;

/// A copy of an option object, made with catching reads (so reading it runs none of the
/// caller's code), whose every key is known; read key by key with typed getters. Only the
/// copy's own properties are read, so a property added to `Object.prototype` is not an option.
pub(in crate::js) struct Record {
    copy: Object,
    arg: Arg,
}

/// An optional options argument whose keys are `fields`: `None` for `undefined` and `null`
/// (the defaults), `invalid-argument` for any other value that is not an object or for an
/// unknown key (naming the known ones).
pub(in crate::js) fn option_record(
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
    pub(in crate::js) fn value(&self, key: &str) -> JsValue {
        let key = JsValue::from_str(key);
        if !Object::has_own(&self.copy, &key) {
            return JsValue::UNDEFINED;
        }
        // A data property of a fresh plain object: reading it cannot throw.
        Reflect::get(&self.copy, &key).unwrap_or(JsValue::UNDEFINED)
    }

    /// A boolean option: `None` when absent, `undefined` or `null`; `invalid-argument` naming
    /// the option for any other value that is not a boolean.
    pub(in crate::js) fn bool(&self, key: &str) -> Result<Option<bool>, JsValue> {
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
pub(in crate::js) const HOST_FIELDS: [&str; 3] =
    ["allowDynamic", "requireApproval", "nestedWithoutApproval"];

/// The host's options ([`HOST_FIELDS`]) of an option object; the defaults without one.
pub(in crate::js) fn host_options(record: Option<&Record>) -> Result<HostOptions, JsValue> {
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
pub(in crate::js) fn verify_options(value: &JsValue, arg: Arg) -> Result<VerifyOptions, JsValue> {
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
pub(in crate::js) fn options<T: DeserializeOwned + Default>(
    value: &JsValue,
    arg: Arg,
) -> Result<T, JsValue> {
    options_except(value, arg, &[])
}

/// [`options`], leaving the keys in `skip` to the caller (read with [`get`]).
#[cfg(feature = "js")]
pub(in crate::js) fn options_except<T: DeserializeOwned + Default>(
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
pub(in crate::js) fn record<T: DeserializeOwned>(
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
pub(in crate::js) fn options_with_host<T: DeserializeOwned + Default>(
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
