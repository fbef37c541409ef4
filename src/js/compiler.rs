//! The catalog compiler and packs: `compileCatalog` and `inspectPack`.

use js_sys::{Array, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::convert::{get, json_value, object, parse_options, set};
use super::{fail, pack_error, CATALOG_INVALID};
use crate::catalog::compile::{self, SourceFile, SourceTree};
use crate::catalog::diag::{Diagnostic, Severity, Unreadable};
use crate::catalog::{pack, Catalog};
use crate::host::ErrorCode;

pub(super) fn diagnostic_js(d: &Diagnostic, root: &str) -> JsValue {
    let o = object();
    let severity = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    set(&o, "severity", &JsValue::from_str(severity));
    set(&o, "rule", &JsValue::from_str(d.rule.id()));
    set(&o, "path", &JsValue::from_str(&d.path));
    if let Some(l) = d.line {
        set(&o, "line", &JsValue::from_f64(l as f64));
    }
    set(&o, "message", &JsValue::from_str(&d.message));
    set(&o, "fix", &JsValue::from_str(&d.fix));
    set(&o, "rendered", &JsValue::from_str(&d.render(root)));
    o
}

pub(super) fn diagnostics_js<'a>(ds: impl Iterator<Item = &'a Diagnostic>, root: &str) -> JsValue {
    let a = Array::new();
    for d in ds {
        a.push(&diagnostic_js(d, root));
    }
    a.into()
}

/// Reads `compileCatalog`'s entries into a source tree; `invalid-argument` names the index
/// of a malformed entry.
pub(super) fn source_tree(entries: &JsValue) -> Result<SourceTree, JsValue> {
    let entries = entries.dyn_ref::<Array>().ok_or_else(|| {
        fail(
            ErrorCode::InvalidArgument,
            "entries must be an array of { path, bytes } objects",
        )
    })?;
    let mut tree = SourceTree::default();
    for (i, e) in entries.iter().enumerate() {
        let bad = |what: &str| fail(ErrorCode::InvalidArgument, format!("entries[{i}]: {what}"));
        if !e.is_object() {
            return Err(bad("must be an object"));
        }
        let path = get(&e, "path")
            .as_string()
            .ok_or_else(|| bad("path must be a string"))?;
        let kind = get(&e, "kind");
        let kind = if kind.is_undefined() {
            "file".to_owned()
        } else {
            kind.as_string()
                .ok_or_else(|| bad("kind must be a string"))?
        };
        match kind.as_str() {
            "file" => {
                let b = get(&e, "bytes");
                let bytes = if let Some(s) = b.as_string() {
                    s.into_bytes()
                } else if let Some(u) = b.dyn_ref::<Uint8Array>() {
                    u.to_vec()
                } else {
                    return Err(bad("bytes must be a Uint8Array or a string"));
                };
                tree.files.push(SourceFile { path, bytes });
            }
            "directory" => tree.dirs.push(path),
            "symlink" => tree.diagnostics.push(Diagnostic::symlink(&path)),
            "special" => tree.diagnostics.push(Diagnostic::special_file(&path)),
            "not-a-directory" => tree.diagnostics.push(Diagnostic::root_not_a_directory()),
            "bad-name" => {
                let name = get(&e, "name");
                let name = name
                    .dyn_ref::<Uint8Array>()
                    .ok_or_else(|| bad("name must be a Uint8Array (the raw bytes of the name)"))?;
                tree.diagnostics
                    .push(Diagnostic::name_not_utf8(&path, &name.to_vec()));
            }
            "unreadable" => {
                let what = match get(&e, "what").as_string().as_deref() {
                    Some("root") => Unreadable::Root,
                    Some("directory") => Unreadable::Directory,
                    Some("entry") => Unreadable::Entry,
                    Some("file") => Unreadable::File,
                    _ => {
                        return Err(bad(
                            "what must be \"root\", \"directory\", \"entry\" or \"file\"",
                        ))
                    }
                };
                let detail = get(&e, "error")
                    .as_string()
                    .ok_or_else(|| bad("error must be a string"))?;
                tree.diagnostics
                    .push(Diagnostic::unreadable(&path, what, &detail));
            }
            other => {
                return Err(bad(&format!(
                    "unknown kind {other:?} (file, directory, symlink, special, unreadable, bad-name or not-a-directory)"
                )))
            }
        }
    }
    Ok(tree)
}

#[derive(serde::Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct JsCompileOptions {
    root: Option<String>,
    instructions: Option<String>,
}

pub(super) fn entries_js<'a>(entries: impl Iterator<Item = &'a str>) -> Result<JsValue, JsValue> {
    let a = Array::new();
    for e in entries {
        a.push(&json_value(e)?);
    }
    Ok(a.into())
}

/// Compiles a skills folder into a pack, with the same checks, manifests and messages as the
/// native build (`build.rs`) and `skills-edge check`: the folder's entries in (paths and
/// bytes, as `skills-edge pack` reads them), the pack and every skill's entry out. Throws
/// `catalog-invalid` (message: every finding as the build prints it; `diagnostics`: the same
/// as objects) when a rule is broken, `invalid-argument` for malformed entries.
#[wasm_bindgen(js_name = compileCatalog, unchecked_return_type = "CompiledCatalog")]
pub fn compile_catalog(
    #[wasm_bindgen(unchecked_param_type = "SourceEntry[]")] entries: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "CompileOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let o: JsCompileOptions = parse_options(&options, "compile options")?;
    let root = o.root.unwrap_or_else(|| "skills".to_owned());
    let tree = source_tree(&entries)?;
    let compiled = compile::compile(tree).map_err(|e| {
        let err = js_sys::Error::new(&e.render(&root));
        err.set_name("SkillsEdgeError");
        set(err.as_ref(), "code", &JsValue::from_str(CATALOG_INVALID));
        set(
            err.as_ref(),
            "diagnostics",
            &diagnostics_js(e.diagnostics.iter(), &root),
        );
        JsValue::from(err)
    })?;
    let packed = pack::encode(&compiled, o.instructions.as_deref());
    let snapshot = pack::snapshot_of(&packed).unwrap_or_default();
    let out = object();
    let entries: Vec<String> = compiled
        .skills
        .iter()
        .map(|s| compiled.entry_json(s))
        .collect();
    set(&out, "pack", &Uint8Array::from(&packed[..]).into());
    set(
        &out,
        "skills",
        &entries_js(entries.iter().map(String::as_str))?,
    );
    set(
        &out,
        "files",
        &JsValue::from_f64(compiled.files.len() as f64),
    );
    let bytes: u64 = compiled.files.iter().map(|f| f.size).sum();
    set(&out, "bytes", &JsValue::from_f64(bytes as f64));
    set(&out, "snapshot", &JsValue::from_f64(snapshot as f64));
    set(
        &out,
        "warnings",
        &diagnostics_js(compiled.warnings.iter(), &root),
    );
    Ok(out)
}

/// Reads a pack without serving it: its format version, snapshot id, entries and file
/// totals. Throws `pack-invalid` for a pack that is truncated, corrupted or of another format
/// version.
#[wasm_bindgen(js_name = inspectPack, unchecked_return_type = "PackSummary")]
pub fn inspect_pack(
    #[wasm_bindgen(unchecked_param_type = "Uint8Array")] pack: &Uint8Array,
) -> Result<JsValue, JsValue> {
    let catalog = Catalog::from_bytes(pack.to_vec()).map_err(|e| pack_error(&e))?;
    let out = object();
    set(&out, "version", &JsValue::from_f64(pack::VERSION as f64));
    set(
        &out,
        "snapshot",
        &JsValue::from_f64(catalog.snapshot() as f64),
    );
    set(
        &out,
        "skills",
        &entries_js(catalog.skills().map(|s| s.entry_json))?,
    );
    set(
        &out,
        "files",
        &JsValue::from_f64(catalog.file_count() as f64),
    );
    let bytes: usize = catalog.files().map(|f| f.bytes.len()).sum();
    set(&out, "bytes", &JsValue::from_f64(bytes as f64));
    Ok(out)
}
