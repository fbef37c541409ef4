//! The arguments of the fallback's `tools/call` and `prompts/get` (MCP 2026-07-28, Tools and
//! Prompts): `name` and `arguments` read from `params`, each argument's value read on its own,
//! and the tool errors that name a bad argument and what it must be.

use crate::protocol::envelope::raw_str;
use crate::protocol::error::clip;
use crate::protocol::{NamedParams, Params, RpcError};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// The arguments of a `tools/call` or `prompts/get`: every member serde_json reads, and the
/// first one it cannot, though JSON's grammar allows it (a number past `f64`'s range, a
/// string with a lone UTF-16 surrogate escape, RFC 8259 §6 and §8.2), for the tool to refuse
/// by the argument's name and what it must be.
pub(super) struct Arguments {
    pub(super) values: Map<String, Value>,
    /// The text of each number as sent (at most 64 characters), for a refusal to show it:
    /// `f64` has no room for every JSON number (`1e-400`, `18446744073709551617`, `-0`).
    pub(super) numbers: BTreeMap<String, String>,
    pub(super) unreadable: Option<Unreadable>,
}

/// A member of `arguments` whose value cannot be read.
pub(super) struct Unreadable {
    pub(super) name: String,
    /// At most 64 characters of the value as sent.
    text: String,
    /// serde_json's reason, without its position.
    reason: String,
}

impl Unreadable {
    /// The tool error for this argument of `tool`, which takes `takes` (each an argument's
    /// name and what its value must be).
    pub(super) fn refusal(&self, tool: &str, takes: &[(&str, &str)]) -> String {
        match takes.iter().find(|(a, _)| *a == self.name) {
            Some((a, what)) => format!(
                "`{a}` must be {what}; the value given ({}) cannot be read: {}",
                self.text, self.reason
            ),
            None => format!(
                "{}; `{}` is not one of its arguments",
                takes_text(tool, takes.iter().map(|(a, _)| *a)),
                clip(&self.name)
            ),
        }
    }
}

/// The arguments of `list_skills`, `read_skill` and `read_skill_resource`, with what each
/// must be.
pub(super) const READ_SKILL_ARGS: [(&str, &str); 2] = [("name", "a string"), ("uri", "a string")];
pub(super) const READ_RESOURCE_ARGS: [(&str, &str); 3] = [
    ("uri", "a string"),
    ("skill", "a string"),
    ("path", "a string"),
];

/// "TOOL takes `a`, `b`" (or "takes no arguments").
pub(super) fn takes_text<'a>(tool: &str, names: impl Iterator<Item = &'a str>) -> String {
    let names: Vec<String> = names.map(|a| format!("`{a}`")).collect();
    if names.is_empty() {
        format!("{tool} takes no arguments")
    } else {
        format!("{tool} takes {}", names.join(", "))
    }
}

/// Why serde_json could not read a value JSON's grammar allows, in words a caller can act on.
fn unreadable_reason(serde_message: &str) -> String {
    if serde_message.contains("number out of range") {
        "the number is beyond the range of a 64-bit float".to_owned()
    } else if serde_message.contains("escape") || serde_message.contains("surrogate") {
        "a string must be Unicode text, with a UTF-16 surrogate escape (\\uD800 to \\uDFFF) only as half of a pair".to_owned()
    } else {
        let at = serde_message
            .find(" at line ")
            .unwrap_or(serde_message.len());
        serde_message[..at].to_owned()
    }
}

/// `name` and `arguments` of a `tools/call` or `prompts/get`: `name` a string, `arguments`
/// absent, `null` or an object (protocol errors otherwise).
pub(super) fn named<'a>(
    params: &Params<'a>,
    what: &str,
) -> Result<(Cow<'a, str>, Arguments), RpcError> {
    let np = NamedParams::parse(params.raw).map_err(RpcError::InvalidParams)?;
    let name = match np.name {
        None => {
            return Err(RpcError::InvalidParams(format!(
                "`name` (a string: the {what}'s name) is required"
            )))
        }
        Some(raw) => raw_str(raw).ok_or_else(|| {
            RpcError::InvalidParams(format!("`name` must be a string (the {what}'s name)"))
        })?,
    };
    let mut args = Arguments {
        values: Map::new(),
        numbers: BTreeMap::new(),
        unreadable: None,
    };
    match np.arguments {
        None => {}
        Some(raw) if raw.get() == "null" => {}
        Some(raw) => {
            // Members first, their values one by one: a value JSON's grammar allows but
            // serde_json cannot hold is kept aside with its argument's name, not refused as
            // `arguments` not being an object.
            let members = serde_json::from_str::<BTreeMap<String, &RawValue>>(raw.get());
            let Ok(members) = members else {
                return Err(RpcError::InvalidParams(format!(
                    "`arguments` must be an object (the {what}'s arguments by name)"
                )));
            };
            for (k, v) in members {
                match serde_json::from_str::<Value>(v.get()) {
                    Ok(value) => {
                        if value.is_number() {
                            args.numbers.insert(k.clone(), clip(v.get()).into_owned());
                        }
                        args.values.insert(k, value);
                    }
                    Err(e) if args.unreadable.is_none() => {
                        let reason = unreadable_reason(&e.to_string());
                        args.unreadable = Some(Unreadable {
                            text: clip(v.get()).into_owned(),
                            name: k,
                            reason,
                        });
                    }
                    Err(_) => {}
                }
            }
        }
    }
    Ok((name, args))
}

/// The string arguments `allowed` of a tool call, in that order (`None` when absent or
/// `null`); a tool error for an argument of another name or a value that is not a string.
pub(super) fn tool_args<'m>(
    tool: &str,
    args: &'m Map<String, Value>,
    allowed: &[(&str, &str)],
) -> Result<Vec<Option<&'m str>>, String> {
    let takes = || takes_text(tool, allowed.iter().map(|(a, _)| *a));
    if let Some(k) = args.keys().find(|k| !allowed.iter().any(|(a, _)| a == k)) {
        return Err(format!(
            "{}; `{}` is not one of its arguments",
            takes(),
            clip(k)
        ));
    }
    allowed
        .iter()
        .map(|(a, _)| match args.get(*a) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.as_str())),
            Some(other) => Err(format!("`{a}` must be a string, not {}", kind(other))),
        })
        .collect()
}

/// What a JSON value is, for a refusal: "a number", "null", ….
pub(super) fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
