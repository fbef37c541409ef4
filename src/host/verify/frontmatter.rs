//! The frontmatter difference: an entry's frontmatter compared with the file's by content, every differing field named.

use super::*;

/// Compares the entry's frontmatter (`expected`) with the file's (`actual`) by content
/// ([`Value::same_content`]); on a difference, names the first differing field.
///
/// ```
/// use skills_edge::host::{compare_frontmatter, ErrorCode};
/// use skills_edge::host::Value;
/// use skills_edge::catalog::json;
/// let value = |t: &str| -> Value { json::parse(t).unwrap().to_value().unwrap() };
/// let entry = value(r#"{"name":"a","description":"d","metadata":{"v":"1"}}"#);
/// let file = value(r#"{"description":"d","name":"a","metadata":{"v":"2"}}"#);
/// let e = compare_frontmatter("skill://a/SKILL.md", &entry, &file).unwrap_err();
/// assert_eq!((e.code, e.field.as_deref()), (ErrorCode::FrontmatterMismatch, Some("metadata.v")));
/// assert!(compare_frontmatter("skill://a/SKILL.md", &entry, &entry).is_ok());
/// ```
pub fn compare_frontmatter(uri: &str, expected: &Value, actual: &Value) -> Result<()> {
    if expected.same_content(actual) {
        return Ok(());
    }
    let mut found = Vec::new();
    differences(expected, actual, String::new(), &mut found);
    let shown_path = |p: &str| {
        if p.is_empty() {
            "frontmatter".to_owned()
        } else {
            p.to_owned()
        }
    };
    let fields: Vec<String> = found.iter().map(|(p, _, _)| shown_path(p)).collect();
    let (path, exp, act) = found
        .into_iter()
        .next()
        .unwrap_or_else(|| (String::new(), Some(expected.clone()), Some(actual.clone())));
    let shown = shown_path(&path);
    let mut message = match (&exp, &act) {
        (Some(_), None) => format!("the frontmatter of {uri} lacks `{shown}`, which the entry has"),
        (None, Some(_)) => format!("the frontmatter of {uri} has `{shown}`, which the entry lacks"),
        _ => format!("`{shown}` in the frontmatter of {uri} differs from the entry"),
    };
    if fields.len() > 1 {
        let others: Vec<String> = fields.iter().skip(1).map(|f| format!("`{f}`")).collect();
        message.push_str(&format!("; so do {}", others.join(", ")));
    }
    let mut err = VerifyError::new(ErrorCode::FrontmatterMismatch, message)
        .with_uri(uri)
        .with_field(shown);
    err.expected = exp.map(|v| v.to_json().into_boxed_str());
    err.actual = act.map(|v| v.to_json().into_boxed_str());
    err.differences = fields.into_boxed_slice();
    Err(err)
}

type Difference = (String, Option<Value>, Option<Value>);

/// Appends `key` to a field path: `.key` (bare at the top level) when the key is non-empty and
/// has no `.`, `[`, `]`, `"`, `\`, whitespace or control character; `["key"]` (a JSON string)
/// otherwise.
fn join_key(path: &str, key: &str) -> String {
    let plain = !key.is_empty()
        && !key.chars().any(|c| {
            matches!(c, '.' | '[' | ']' | '"' | '\\') || c.is_whitespace() || c.is_control()
        });
    match (path.is_empty(), plain) {
        (true, true) => key.to_owned(),
        (false, true) => format!("{path}.{key}"),
        (_, false) => {
            let mut s = path.to_owned();
            s.push('[');
            crate::skill::value::write_json_string(key, &mut s);
            s.push(']');
            s
        }
    }
}

/// Most differing fields one refusal names.
const MAX_DIFFERENCES: usize = 32;

/// Every place where two values differ (at most [`MAX_DIFFERENCES`]), as (path, expected part,
/// actual part), in the order of the entry's keys, then the keys only the file has. Depth is
/// bounded by the frontmatter reader's nesting limit on one side; the recursion stops where
/// the other side's shape differs.
fn differences(expected: &Value, actual: &Value, path: String, out: &mut Vec<Difference>) {
    if out.len() >= MAX_DIFFERENCES {
        return;
    }
    match (expected, actual) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in a {
                let p = join_key(&path, k);
                match actual.get(k) {
                    None => out.push((p, Some(v.clone()), None)),
                    Some(w) => differences(v, w, p, out),
                }
                if out.len() >= MAX_DIFFERENCES {
                    return;
                }
            }
            for (k, w) in b.iter().filter(|(k, _)| expected.get(k).is_none()) {
                if out.len() >= MAX_DIFFERENCES {
                    return;
                }
                out.push((join_key(&path, k), None, Some(w.clone())));
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (v, w)) in a.iter().zip(b).enumerate() {
                differences(v, w, format!("{path}[{i}]"), out);
            }
        }
        _ if expected.same_content(actual) => {}
        _ => out.push((path, Some(expected.clone()), Some(actual.clone()))),
    }
}
