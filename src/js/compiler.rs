//! The catalog compiler and packs: `compileCatalog` and `inspectPack`.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::convert::{
    arg, array_items, bytes_of, get, is_array, is_record, json_array, options_except, string,
    to_js, uint8array, Arg,
};
use super::{convert, pack_error, CATALOG_INVALID};
use crate::command::keygen::{key_files, KeyFile};
use crate::compile::signing::CatalogId;
use crate::compile::{self, SourceFile, SourceTree};
use crate::diag::{Diagnostic, Severity, Unreadable};
use crate::host::ErrorCode;
use crate::options;
use crate::pack;
use crate::view::Catalog;

/// `CatalogDiagnostic`.
#[derive(Serialize)]
struct DiagnosticJs<'a> {
    severity: &'static str,
    rule: &'a str,
    path: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    message: &'a str,
    fix: &'a str,
    rendered: String,
}

fn diagnostics<'a>(ds: impl Iterator<Item = &'a Diagnostic>, root: &str) -> Vec<DiagnosticJs<'a>> {
    ds.map(|d| DiagnosticJs {
        severity: match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        },
        rule: d.rule.id(),
        path: &d.path,
        line: d.line,
        message: &d.message,
        fix: &d.fix,
        rendered: d.render(root),
    })
    .collect()
}

/// Reads `compileCatalog`'s entries into a source tree; `invalid-argument` names the index
/// of a malformed entry.
pub(super) fn source_tree(entries: &JsValue, a: Arg) -> Result<SourceTree, JsValue> {
    let items = array_items(entries, a, "an array of { path, bytes } objects")?;
    let mut tree = SourceTree::default();
    for (i, e) in items.iter().enumerate() {
        let bad = |what: &str| a.at(i, what);
        if !e.is_object() || is_array(e) {
            return Err(bad(&format!(
                "must be an object, got {}",
                convert::type_name(e)
            )));
        }
        let field = |key: &str| get(e, key, a);
        let path = field("path")?
            .as_string()
            .ok_or_else(|| bad("path must be a string"))?;
        let kind = field("kind")?;
        let kind = if kind.is_undefined() {
            "file".to_owned()
        } else {
            kind.as_string()
                .ok_or_else(|| bad("kind must be a string"))?
        };
        match kind.as_str() {
            "file" => {
                let b = field("bytes")?;
                let bytes = match b.as_string() {
                    Some(s) => s.into_bytes(),
                    None => bytes_of(&b, false, a)?
                        .ok_or_else(|| bad("bytes must be a Uint8Array or a string"))?,
                };
                tree.files.push(SourceFile { path, bytes });
            }
            "directory" => tree.dirs.push(path),
            "symlink" => tree.diagnostics.push(Diagnostic::symlink(&path)),
            "special" => tree.diagnostics.push(Diagnostic::special_file(&path)),
            "not-a-directory" => tree.diagnostics.push(Diagnostic::root_not_a_directory()),
            "bad-name" => {
                let name = bytes_of(&field("name")?, false, a)?
                    .ok_or_else(|| bad("name must be a Uint8Array (the raw bytes of the name)"))?;
                tree.diagnostics.push(Diagnostic::name_not_utf8(&path, &name));
            }
            "unreadable" => {
                let what = match field("what")?.as_string().as_deref() {
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
                let detail = field("error")?
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
#[serde(rename_all = "camelCase")]
struct JsCompileOptions {
    root: Option<String>,
    instructions: Option<String>,
    strict: Option<bool>,
    skip_invalid: Option<bool>,
    inline_max: Option<u64>,
    catalog_id: Option<String>,
}

/// `CompileOptions.signingKey`, read into the build options' signer: `{ file, bytes }` (the
/// key file's path and bytes, as read) or `{ file, error }` (why it could not be read). The
/// signer's errors name the file, never its contents, as the native command's do.
fn signer(
    o: &JsValue,
    catalog_id: Option<&str>,
    a: Arg,
) -> Result<Option<Result<options::Signer, Diagnostic>>, JsValue> {
    let key = get(o, "signingKey", a)?;
    if key.is_undefined() || key.is_null() {
        return match catalog_id {
            Some(_) => Err(super::fail(
                ErrorCode::InvalidArgument,
                "compileCatalog: options.catalogId needs options.signingKey (the identity is part of what is signed)",
            )),
            None => Ok(None),
        };
    }
    let (file, read) = key_file(&key, a.with("signingKey"))?;
    let catalog_id = catalog_id
        .map(|id| CatalogId::new("catalogId", id))
        .transpose()
        .map_err(|m| super::fail(ErrorCode::InvalidArgument, m))?;
    let signing = options::Signing {
        key_file: file,
        catalog_id,
    };
    Ok(Some(signing.signer(read)))
}

/// A key option, `{ file, bytes }` (the key file's path and bytes, as read) or `{ file, error }`
/// (why it could not be read): the file's name and what reading it gave.
fn key_file(key: &JsValue, a: Arg) -> Result<(String, Result<Vec<u8>, String>), JsValue> {
    if !is_record(key) {
        return Err(a.wrong("an object { file, bytes } or { file, error }", key));
    }
    let file = get(key, "file", a)?
        .as_string()
        .filter(|f| !f.is_empty())
        .ok_or_else(|| {
            a.error(
                ErrorCode::InvalidArgument,
                "file must be the key file's path",
            )
        })?;
    let bytes = get(key, "bytes", a)?;
    let read = if bytes.is_undefined() {
        let why = get(key, "error", a)?.as_string().ok_or_else(|| {
            a.error(
                ErrorCode::InvalidArgument,
                "give bytes (a Uint8Array: the key file as read) or error (a string: why it could not be read)",
            )
        })?;
        Err(why)
    } else {
        Ok(bytes_of(&bytes, false, a)?
            .ok_or_else(|| a.wrong("a Uint8Array (the key file as read)", &bytes))?)
    };
    Ok((file, read))
}

/// `CompileOptions.omsKey`, read as `skills-edge pack --oms-sign` reads its file: the
/// OpenSSF Model Signing key every skill's `skill.oms.sig` is signed with
/// ([`crate::oms`]); an unusable key is an `oms-signature` diagnostic naming the file.
fn oms_key(
    o: &JsValue,
    a: Arg,
) -> Result<Option<Result<crate::oms::OmsSigningKey, Diagnostic>>, JsValue> {
    let key = get(o, "omsKey", a)?;
    if key.is_undefined() || key.is_null() {
        return Ok(None);
    }
    let (file, read) = key_file(&key, a.with("omsKey"))?;
    Ok(Some(crate::oms::load_key(&file, read)))
}

/// A key's diagnostic as `compileCatalog` throws it (`catalog-invalid`).
fn key_error(d: &Diagnostic) -> JsValue {
    let err = js_sys::Error::new(&d.render(""));
    err.set_name("SkillsEdgeError");
    let found = to_js(&diagnostics([d].into_iter(), "")).unwrap_or_default();
    super::set(err.as_ref(), "code", &JsValue::from_str(CATALOG_INVALID));
    super::set(err.as_ref(), "diagnostics", &found);
    err.into()
}

/// An asset of `CompiledCatalog`.
#[derive(Serialize)]
struct AssetJs<'a> {
    name: &'a str,
    #[serde(serialize_with = "uint8array")]
    bytes: &'a [u8],
}

/// `CompiledCatalog`.
#[derive(Serialize)]
struct CompiledJs<'a> {
    #[serde(serialize_with = "uint8array")]
    pack: &'a [u8],
    #[serde(serialize_with = "serde_wasm_bindgen::preserve::serialize")]
    skills: JsValue,
    files: usize,
    bytes: u64,
    snapshot: u32,
    warnings: Vec<DiagnosticJs<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    assets: Option<Vec<AssetJs<'a>>>,
    #[serde(rename = "uploadWarnings", skip_serializing_if = "Option::is_none")]
    upload_warnings: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    signer: Option<SignerJs>,
    #[serde(skip_serializing_if = "Option::is_none")]
    audience: Option<String>,
    /// With `omsKey`: the hint (SHA-256 of the public key's PEM) of the key every
    /// `skill.oms.sig` is signed with.
    #[serde(rename = "omsHint", skip_serializing_if = "Option::is_none")]
    oms_hint: Option<String>,
}

/// `CompiledCatalog.signer`: who signed it (never the key itself).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SignerJs {
    key_id: String,
    catalog: String,
}

/// `PackSummary`.
#[derive(Serialize)]
struct PackSummaryJs {
    version: u32,
    snapshot: u32,
    #[serde(serialize_with = "serde_wasm_bindgen::preserve::serialize")]
    skills: JsValue,
    files: usize,
    bytes: usize,
}

/// Compiles a skills folder into a pack, with the same checks, manifests and messages as the
/// native build (`build.rs`) and `skills-edge check`: the folder's entries in (paths and
/// bytes, as `skills-edge pack` reads them), the pack and every skill's entry out. Throws
/// `catalog-invalid` (message: every finding as the build prints it; `diagnostics`: the same
/// as objects) when a rule is broken, `invalid-argument` for malformed entries.
///
/// With `inlineMax`, every file larger than that many bytes is left out of the pack and
/// returned in `assets` (named as `skills-edge pack --assets` names them), for the Worker's
/// Static Assets; an asset above the Workers limit throws `catalog-invalid`, and
/// `uploadWarnings` holds the free plan's limits the Worker would pass
/// (`pack::workers_limits`).
///
/// A folder with access rules (`skills-edge.toml`) also gives `audience`: who may see each
/// skill, the lines `skills-edge check` prints (`compile::Compiled::audience_report`).
#[wasm_bindgen(js_name = compileCatalog, unchecked_return_type = "CompiledCatalog")]
pub fn compile_catalog(
    #[wasm_bindgen(unchecked_param_type = "SourceEntry[]")] entries: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "CompileOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let a = arg("compileCatalog", "entries");
    let raw = options.unwrap_or(JsValue::UNDEFINED);
    let o: JsCompileOptions = options_except(&raw, a.with("options"), &["signingKey", "omsKey"])?;
    let (signer, oms) = if raw.is_undefined() || raw.is_null() {
        (None, None)
    } else {
        (
            signer(&raw, o.catalog_id.as_deref(), a.with("options"))?,
            oms_key(&raw, a.with("options"))?,
        )
    };
    let root = o.root.unwrap_or_else(|| "skills".to_owned());
    let tree = source_tree(&entries, a)?;
    // The key is read before the folder, as the native command reads it.
    let signer = signer.transpose().map_err(|d| key_error(&d))?;
    let oms = oms.transpose().map_err(|d| key_error(&d))?;
    let options = compile::Options {
        strict: o.strict.unwrap_or(false),
        skip_invalid: o.skip_invalid.unwrap_or(false),
    };
    // An OMS key makes `skill.oms.sig` a file of every skill before the catalog's own
    // signatures, which then cover it (as `skills-edge pack --oms-sign` does).
    let compiled = match &oms {
        Some(key) => crate::oms::compile_signed(tree, options, key),
        None => compile::compile_with(tree, options),
    };
    let mut compiled = compiled.map_err(|e| {
        let err = js_sys::Error::new(&e.render(&root));
        err.set_name("SkillsEdgeError");
        let found = to_js(&diagnostics(e.diagnostics.iter(), &root)).unwrap_or_default();
        super::set(err.as_ref(), "code", &JsValue::from_str(CATALOG_INVALID));
        super::set(err.as_ref(), "diagnostics", &found);
        JsValue::from(err)
    })?;
    if let Some(s) = &signer {
        compiled.sign(&s.key, &s.catalog);
    }
    let packed = pack::encode_with(
        &compiled,
        &pack::PackOptions {
            instructions: o.instructions.as_deref(),
            assets: o
                .inline_max
                .map(|inline_max| pack::AssetPolicy { inline_max }),
        },
    );
    let upload_warnings = match o.inline_max {
        Some(_) => Some(pack::workers_limits(&compiled, &packed).map_err(|m| {
            let err = js_sys::Error::new(&m);
            err.set_name("SkillsEdgeError");
            super::set(err.as_ref(), "code", &JsValue::from_str(CATALOG_INVALID));
            JsValue::from(err)
        })?),
        None => None,
    };
    let entries: Vec<String> = compiled
        .skills
        .iter()
        .map(|s| compiled.entry_json(s))
        .collect();
    to_js(&CompiledJs {
        pack: &packed.pack,
        skills: json_array(entries.iter().map(String::as_str))?,
        files: compiled.files.len(),
        bytes: compiled.files.iter().map(|f| f.size).sum(),
        snapshot: pack::snapshot_of(&packed.pack).unwrap_or_default(),
        warnings: diagnostics(compiled.warnings.iter(), &root),
        assets: o.inline_max.map(|_| {
            packed
                .assets
                .iter()
                .map(|x| AssetJs {
                    name: &x.name,
                    bytes: &x.bytes,
                })
                .collect()
        }),
        upload_warnings,
        signer: signer.map(|s| SignerJs {
            key_id: s.key.public().key_id().to_owned(),
            catalog: s.catalog.to_string(),
        }),
        audience: compiled.audience_report(),
        oms_hint: oms.map(|k| k.public().hint()),
    })
}

/// One file of `SigningKeyFiles`.
#[derive(Serialize)]
struct KeyFileJs<'a> {
    path: &'a str,
    text: &'a str,
    exists: &'a str,
}

impl<'a> From<&'a KeyFile> for KeyFileJs<'a> {
    fn from(f: &'a KeyFile) -> Self {
        KeyFileJs {
            path: &f.path,
            text: &f.text,
            exists: &f.exists,
        }
    }
}

/// `SigningKeyFiles`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct KeyFilesJs<'a> {
    key_id: &'a str,
    secret: KeyFileJs<'a>,
    public: KeyFileJs<'a>,
    written: &'a str,
}

/// What `skills-edge keygen --out <out>` writes for a 32-byte `seed` (drawn by the caller from
/// a cryptographic random source, e.g. `crypto.randomBytes(32)`), and what it prints: the
/// key's id, `signing.key` (the secret JWK; write it with mode 0600) and `signing.pub` (the
/// public JWK), each with its path and the message printed when it already exists, and the
/// line printed once both are written. The native command's files and messages, from the same
/// code. Throws `invalid-argument` unless `seed` is 32 bytes, not all zeros (no Ed25519 key).
#[wasm_bindgen(js_name = signingKeyFiles, unchecked_return_type = "SigningKeyFiles")]
pub fn signing_key_files(
    #[wasm_bindgen(unchecked_param_type = "string")] out: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Uint8Array")] seed: JsValue,
) -> Result<JsValue, JsValue> {
    let out = string(&out, arg("signingKeyFiles", "out"))?;
    let a = arg("signingKeyFiles", "seed");
    let seed: [u8; 32] = bytes_of(&seed, false, a)?
        .and_then(|b| <[u8; 32]>::try_from(b).ok())
        .ok_or_else(|| a.wrong("a Uint8Array of 32 random bytes", &seed))?;
    let f = key_files(&out, seed).ok_or_else(|| {
        a.error(
            ErrorCode::InvalidArgument,
            "is all zeros: give 32 bytes from a cryptographic random source",
        )
    })?;
    to_js(&KeyFilesJs {
        key_id: &f.key_id,
        secret: (&f.secret).into(),
        public: (&f.public).into(),
        written: &f.written,
    })
}

/// `BuildOptions`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct BuildOptionsJs {
    strict: bool,
    skip_invalid: bool,
    inline_max: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    signing_key: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    catalog_id: Option<String>,
}

/// The build options as every build reads them (`crate::options`): `env`'s
/// `SKILLS_STRICT` and `SKILLS_ON_INVALID` (e.g. `process.env`) give `strict` and
/// `skipInvalid`, `SKILLS_SIGNING_KEY` and `SKILLS_CATALOG_ID` give `signingKey` (the key
/// file's path, never its contents) and `catalogId`, and `inlineMax`, the text of `--inline-max`, a number of bytes (default:
/// `skills-edge pack --assets`'s, `pack::DEFAULT_INLINE_MAX`). Throws
/// `invalid-argument` with the build's message for a value it does not accept.
#[wasm_bindgen(js_name = buildOptions, unchecked_return_type = "BuildOptions")]
pub fn build_options(
    #[wasm_bindgen(unchecked_param_type = "Record<string, string | undefined>")] env: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "string")] inline_max: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let vars = build_env(&env, arg("buildOptions", "env"))?;
    let invalid = |m: options::OptionError| super::fail(ErrorCode::InvalidArgument, m);
    let compile = options::from_env(|n| vars.get(n)).map_err(invalid)?;
    let signing = options::signing(|n| vars.get(n), None, None).map_err(invalid)?;
    let inline_max = match inline_max {
        None => pack::DEFAULT_INLINE_MAX,
        Some(v) if v.is_undefined() || v.is_null() => pack::DEFAULT_INLINE_MAX,
        Some(v) => {
            let text = v.as_string().ok_or_else(|| {
                arg("buildOptions", "inlineMax").wrong("a string (the text of --inline-max)", &v)
            })?;
            options::inline_max("--inline-max", &text).map_err(invalid)?
        }
    };
    to_js(&BuildOptionsJs {
        strict: compile.strict,
        skip_invalid: compile.skip_invalid,
        inline_max,
        signing_key: signing.as_ref().map(|s| s.key_file.clone()),
        catalog_id: signing.and_then(|s| s.catalog_id).map(|id| id.to_string()),
    })
}

/// The variables of the build options (`SKILLS_STRICT`, `SKILLS_ON_INVALID`,
/// `SKILLS_SIGNING_KEY`, `SKILLS_CATALOG_ID`) read from an object of environment variables
/// (e.g. `process.env`); nothing else of it is read.
pub(super) struct BuildEnv(Vec<(&'static str, String)>);

impl BuildEnv {
    /// The value of `name`, if set.
    pub(super) fn get(&self, name: &str) -> Option<String> {
        self.0
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.clone())
    }
}

/// Reads `env` (the parameter `a`): an object whose build variables are strings when set.
/// Throws `invalid-argument` otherwise.
pub(super) fn build_env(env: &JsValue, a: Arg) -> Result<BuildEnv, JsValue> {
    if !is_record(env) {
        return Err(a.wrong("an object of environment variables", env));
    }
    let mut vars = Vec::new();
    for name in [
        options::STRICT,
        options::ON_INVALID,
        options::SIGNING_KEY,
        options::CATALOG_ID,
        crate::oms::OMS_KEY_VAR,
        crate::command::args::TOKEN_ENV,
    ] {
        let v = get(env, name, a)?;
        if v.is_undefined() || v.is_null() {
            continue;
        }
        let text = v.as_string().ok_or_else(|| {
            a.error(
                ErrorCode::InvalidArgument,
                format!("{name} must be a string"),
            )
        })?;
        vars.push((name, text));
    }
    Ok(BuildEnv(vars))
}

/// Reads a pack without serving it: its format version, snapshot id, entries and file
/// totals. Throws `pack-invalid` for a pack that is truncated, corrupted or of another format
/// version.
#[wasm_bindgen(js_name = inspectPack, unchecked_return_type = "PackSummary")]
pub fn inspect_pack(
    #[wasm_bindgen(unchecked_param_type = "Uint8Array")] pack: JsValue,
) -> Result<JsValue, JsValue> {
    let a = arg("inspectPack", "pack");
    let bytes = bytes_of(&pack, false, a)?.ok_or_else(|| a.wrong("a Uint8Array", &pack))?;
    let catalog = Catalog::from_bytes(bytes).map_err(|e| pack_error(&e))?;
    to_js(&PackSummaryJs {
        version: catalog.format_version(),
        snapshot: catalog.snapshot(),
        skills: json_array(catalog.skills().map(|s| s.entry_json))?,
        files: catalog.file_count(),
        bytes: catalog.files().map(|f| f.size as usize).sum(),
    })
}
