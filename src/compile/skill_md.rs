//! The rules of one `SKILL.md`: UTF-8, its frontmatter (strict delimiters, portable YAML, a
//! mapping, readable by the official TypeScript SDK 2.4), and the Agent Skills fields `name`,
//! `description`, `compatibility`, `license`, `metadata` and `allowed-tools`.

use super::last_segment;
use crate::diag::{Diagnostic, Rule, Severity};
use crate::skill::frontmatter;
use crate::skill::frontmatter::sdk_subset;
use crate::skill::limits::{
    MAX_COMPATIBILITY_CHARS, MAX_DESCRIPTION_CHARS, MAX_NAME_LEN, RESERVED_METADATA_PREFIX,
};
use crate::skill::name::check_name;
use crate::skill::value::Value;

/// Parses and checks one `SKILL.md`; returns (frontmatter, name, description) when valid.
/// `strict`: what the official TypeScript SDK 2.4 cannot read is an error, not a warning.
pub(super) fn check_skill_md(
    dir: &str,
    path: &str,
    bytes: &[u8],
    strict: bool,
    diags: &mut Vec<Diagnostic>,
) -> Option<(Value, String, String)> {
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            diags.push(Diagnostic::error(
                Rule::SkillMdUtf8,
                path,
                format!("SKILL.md is not valid UTF-8 (byte {})", e.valid_up_to()),
                "save the file as UTF-8",
            ));
            return None;
        }
    };
    let fm = match frontmatter::parse_file_strict(text) {
        Ok(v) => v,
        Err(e) => {
            diags.push(
                Diagnostic::error(Rule::Frontmatter(e.kind.rule()), path, e.message, e.fix)
                    .at_line(e.line),
            );
            return None;
        }
    };
    let before = diags.len();
    if let Ok(block) = frontmatter::split_strict(text) {
        for f in sdk_subset::check(&block, &fm) {
            let make = if strict {
                Diagnostic::error
            } else {
                Diagnostic::warning
            };
            diags.push(make(Rule::SdkSubset(f.rule), path, f.message, f.fix).at_line(f.line));
        }
    }
    let dir_name = last_segment(dir);
    let err = |rule: Rule, msg: String, fix: &str| Diagnostic::error(rule, path, msg, fix);

    let name = match fm.get("name") {
        None => {
            diags.push(err(
                Rule::NameRequired,
                "the frontmatter has no `name`".into(),
                &format!("add `name: {dir_name}` to the frontmatter"),
            ));
            None
        }
        Some(Value::String(n)) => {
            if let Err(e) = check_name(n) {
                diags.push(err(
                    Rule::NameFormat,
                    format!("name {n:?} is not a valid skill name: {}", e.describe()),
                    &format!("use 1–{MAX_NAME_LEN} characters of a-z, 0-9 and single hyphens, e.g. `name: my-skill`, and name the directory the same"),
                ));
            } else if n != dir_name {
                diags.push(err(
                    Rule::NameMatchesDirectory,
                    format!("name {n:?} differs from the skill's directory name {dir_name:?}; the last segment of the skill's URI must equal its name"),
                    &format!("set `name: {dir_name}`, or rename the directory to {n}"),
                ));
            }
            Some(n.clone())
        }
        Some(other) => {
            diags.push(err(
                Rule::NameType,
                format!("`name` is {}, not a string", other.kind_phrase()),
                &format!("write `name: {dir_name}`"),
            ));
            None
        }
    };

    let description = match fm.get("description") {
        None => {
            diags.push(err(
                Rule::DescriptionRequired,
                "the frontmatter has no `description`".into(),
                "add `description: <what the skill does and when to use it>`",
            ));
            None
        }
        Some(Value::String(d)) => {
            let n = chars(d);
            if n == 0 || n > MAX_DESCRIPTION_CHARS {
                diags.push(err(
                    Rule::DescriptionLength,
                    format!("`description` has {n} characters; it must have 1–{MAX_DESCRIPTION_CHARS}"),
                    "write a description of at most 1024 characters that says what the skill does and when to use it",
                ));
            }
            Some(d.clone())
        }
        Some(other) => {
            diags.push(err(
                Rule::DescriptionType,
                format!("`description` is {}, not a string", other.kind_phrase()),
                "write the description as text (quote it if it looks like a number or boolean)",
            ));
            None
        }
    };

    match fm.get("compatibility") {
        None => {}
        Some(Value::String(c)) => {
            let n = chars(c);
            if n == 0 || n > MAX_COMPATIBILITY_CHARS {
                diags.push(err(
                    Rule::CompatibilityLength,
                    format!("`compatibility` has {n} characters; it must have 1–{MAX_COMPATIBILITY_CHARS}"),
                    "shorten it to at most 500 characters, or remove the field",
                ));
            }
        }
        Some(other) => diags.push(err(
            Rule::CompatibilityType,
            format!("`compatibility` is {}, not a string", other.kind_phrase()),
            "write it as text describing the environment the skill needs",
        )),
    }

    match fm.get("license") {
        None | Some(Value::String(_)) => {}
        Some(other) => diags.push(err(
            Rule::LicenseType,
            format!("`license` is {}, not a string", other.kind_phrase()),
            "write a license name (e.g. `license: Apache-2.0`) or the name of a bundled license file",
        )),
    }

    match fm.get("metadata") {
        None => {}
        Some(Value::Object(pairs)) => {
            for (k, v) in pairs {
                metadata_key(path, text, k, v, diags);
            }
        }
        Some(other) => diags.push(err(
            Rule::MetadataType,
            format!("`metadata` is {}, not a map", other.kind_phrase()),
            "write metadata as a map of string keys to string values",
        )),
    }

    match fm.get("allowed-tools") {
        None | Some(Value::String(_)) => {}
        Some(Value::Array(items)) if items.iter().all(|i| matches!(i, Value::String(_))) => {}
        Some(other) => diags.push(err(
            Rule::AllowedToolsType,
            format!("`allowed-tools` is {}, not a string or a list of strings", other.kind_phrase()),
            "write a space-separated string (`allowed-tools: Read Bash(git:*)`) or a list of strings",
        )),
    }

    let failed = diags[before..]
        .iter()
        .any(|d| d.severity == Severity::Error);
    match (name, description) {
        (Some(n), Some(d)) if !failed => Some((fm, n, d)),
        _ => None,
    }
}

/// Length in characters (Unicode scalar values), as the Agent Skills limits count.
fn chars(s: &str) -> usize {
    s.chars().count()
}

/// How to write `metadata.tags` (docs/search.md#tags).
const TAGS_FIX: &str = "write the tags as one string of lowercase tags separated by commas, e.g. `tags: \"pdf, forms\"` under `metadata` (at most 16, each 1–64 characters of a-z, 0-9 and hyphens)";

/// The findings about one key `k` of `metadata` (its value `v`): a value that is not a string,
/// a key under the reserved prefix, and `tags` that break the rules of
/// [`crate::search::text::check_tags`] (docs/search.md#tags), at the line of `tags:`.
fn metadata_key(path: &str, text: &str, k: &str, v: &Value, diags: &mut Vec<Diagnostic>) {
    if k == "tags" && !matches!(v, Value::String(_)) {
        // Quoting a list would give a string the tags' grammar refuses: the fix says the one
        // form tags take, at the line of `tags:`.
        diags.push(
            Diagnostic::error(
                Rule::MetadataType,
                path,
                format!(
                    "`metadata.tags` is {}; metadata maps strings to strings, and tags are one string",
                    v.kind_phrase()
                ),
                TAGS_FIX,
            )
            .at_line(crate::search::text::tags_line(text)),
        );
    } else if !matches!(v, Value::String(_)) {
        diags.push(Diagnostic::error(
            Rule::MetadataType,
            path,
            format!(
                "`metadata.{k}` is {}; metadata maps strings to strings",
                v.kind_phrase()
            ),
            format!("quote the value, e.g. `{k}: \"…\"`"),
        ));
    }
    if k.starts_with(RESERVED_METADATA_PREFIX) {
        diags.push(Diagnostic::warning(
            Rule::ReservedMetadataKey,
            path,
            format!("`metadata.{k}` uses the prefix {RESERVED_METADATA_PREFIX}, reserved for MCP extensions; hosts ignore keys they do not recognise"),
            "rename the key unless an MCP extension defines it",
        ));
    }
    let (Value::String(tags), "tags") = (v, k) else {
        return;
    };
    if let Some(problem) = crate::search::text::check_tags(tags) {
        diags.push(
            Diagnostic::error(Rule::MetadataTags, path, problem, TAGS_FIX)
                .at_line(crate::search::text::tags_line(text)),
        );
    }
}
