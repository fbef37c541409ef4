//! JavaScript bindings (the npm package `skills-edge`): wasm-bindgen exports only. Every
//! decision is made by [`crate::server`] and [`crate::host`]; this module converts values
//! (JSON text in, plain objects out) and turns [`VerifyError`]s into thrown `Error` objects
//! with `code`, `uri`, `expected`, `actual` and `field` properties.
//!
//! The TypeScript declarations of every type named in a signature are in the custom section
//! below, so the generated `.d.ts` is precise (no `any`).

use js_sys::{Array, Object, Reflect, Uint8Array, JSON};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::catalog::compile::{self, SourceFile, SourceTree};
use crate::catalog::diag::{Diagnostic, Severity, Unreadable};
use crate::catalog::{pack, Catalog};
use crate::host::{
    self, approval_fingerprint, resolve, verify_bytes, verify_read_result, verify_skill_md, Body,
    Content, Entry, ErrorCode, FileReceipt, HostOptions, PlannedRead, RegisterOutcome,
    VerifiedContent, VerifiedSkillMd, VerifyError, VerifyOptions,
};
use crate::server::{CacheScope, Config, HttpHeaders, Responder, Transport};
use crate::skill::digest::digest_of;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** Any JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** One file of a skill's manifest. */
export interface SkillResource {
  /** The file's URI: the skill's SKILL.md or a URI inside the skill root. */
  uri: string;
  /** `sha256:` followed by 64 lowercase hex characters. */
  digest: string;
  /** Length of the raw bytes. */
  size: number;
}

/** A SKILL.md frontmatter as JSON: `name` and `description`, and every other field the author wrote. */
export interface SkillFrontmatter {
  name: string;
  description: string;
  [field: string]: unknown;
}

/** A skill entry of `skills/list` or `skills/get`. Unknown fields are ignored. */
export interface SkillEntry {
  uri: string;
  frontmatter: SkillFrontmatter;
  resources: SkillResource[] | "dynamic";
  [field: string]: unknown;
}

/** A `text` content item of a `resources/read` result. */
export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  [field: string]: unknown;
}

/** A `blob` (base64) content item of a `resources/read` result. */
export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  blob: string;
  [field: string]: unknown;
}

/** The `result` of a `resources/read` response. `resultType` may be absent (legacy servers). */
export interface ReadResourceResult {
  contents: Array<TextResourceContents | BlobResourceContents>;
  resultType?: string;
  [field: string]: unknown;
}

/** The `result` of a `skills/list` response. */
export interface ListSkillsResult {
  skills: SkillEntry[];
  nextCursor?: string;
  resultType?: string;
  [field: string]: unknown;
}

/** The `result` of a `skills/get` response. */
export interface GetSkillResult {
  skill: SkillEntry;
  resultType?: string;
  [field: string]: unknown;
}

/** Content as the caller has it: text (verified over its UTF-8 bytes) or raw bytes. */
export type FileContent = string | Uint8Array;

/** Options of the verifier functions. */
export interface VerifyOptions {
  /** Accept content of a `"dynamic"` skill, which cannot be verified (default false: refused with `dynamic-not-allowed`). */
  allowDynamic?: boolean;
}

/** Proof that content matched its manifest item. */
export interface FileReceipt {
  uri: string;
  size: number;
  digest: string;
  /** false only for a dynamic skill accepted with `allowDynamic`. */
  verified: boolean;
}

/** Verified content of a file. */
export interface VerifiedContent extends FileReceipt {
  /** The raw bytes (the UTF-8 encoding for text). */
  bytes: Uint8Array;
  /** The text, when the content came as text. */
  text?: string;
  mimeType?: string;
}

/** A verified SKILL.md. */
export interface VerifiedSkillMd extends FileReceipt {
  /** The whole file. */
  text: string;
  /** The markdown after the frontmatter. */
  body: string;
  /** The frontmatter read from the file (equal in content to the entry's). */
  frontmatter: SkillFrontmatter;
  mimeType?: string;
}

/** File count and total size of a skill, from its entry alone. */
export type LimitReport =
  | { dynamic: false; resourceCount: number; totalSize: number }
  | { dynamic: true };

/** The stable codes of `SkillsEdgeError`. */
export type ErrorCode =
  | "invalid-entry"
  | "limit-exceeded"
  | "not-in-manifest"
  | "size-mismatch"
  | "digest-mismatch"
  | "frontmatter-mismatch"
  | "frontmatter-invalid"
  | "invalid-read-result"
  | "escapes-root"
  | "invalid-reference"
  | "dynamic-not-allowed"
  | "no-acting-window"
  | "not-approved"
  | "unknown-server"
  | "unknown-skill"
  | "invalid-argument"
  | "catalog-invalid"
  | "pack-invalid";

/** Every failure of this package is thrown as an `Error` with these properties. */
export interface SkillsEdgeError extends Error {
  name: "SkillsEdgeError";
  code: ErrorCode;
  /** The URI concerned. */
  uri?: string;
  /** What the entry or the rule says (a size in decimal, a digest, a frontmatter value as JSON, a limit). */
  expected?: string;
  /** What was found instead. */
  actual?: string;
  /** For frontmatter errors, the path of the first differing field (`description`, `metadata.version`). */
  field?: string;
  /** For `catalog-invalid`: every finding, errors and warnings, in path order. */
  diagnostics?: CatalogDiagnostic[];
}

/**
 * One entry of a skills folder as a reader found it; `path` is relative to the folder and
 * `/`-separated. Files carry their bytes; directories are listed so empty ones are kept; the
 * other kinds report what a reader must not publish, so the compiler names them the same way
 * the native build does.
 */
export type SourceEntry =
  | { path: string; kind?: "file"; bytes: Uint8Array | string }
  | { path: string; kind: "directory" }
  | { path: string; kind: "symlink" }
  | { path: string; kind: "special" }
  | { path: string; kind: "unreadable"; what: "root" | "directory" | "entry" | "file"; error: string }
  | { path: string; kind: "bad-name"; name: Uint8Array }
  /** The folder itself (path "") is not a directory. */
  | { path: string; kind: "not-a-directory" };

/** Options of `compileCatalog`. */
export interface CompileOptions {
  /** How the folder is named in messages (default "skills"). */
  root?: string;
  /** Server instructions stored in the pack; default: generated from the catalog. */
  instructions?: string;
}

/** A finding of the catalog compiler. */
export interface CatalogDiagnostic {
  severity: "error" | "warning";
  /** The stable rule id, e.g. `name-matches-directory`. */
  rule: string;
  /** Relative to the skills folder ("" for the folder itself). */
  path: string;
  line?: number;
  message: string;
  fix: string;
  /** The whole finding as the native build prints it, the folder name in front of the path. */
  rendered: string;
}

/** A compiled skills folder. */
export interface CompiledCatalog {
  /** The pack: load it with `new SkillsServer({ pack })`. */
  pack: Uint8Array;
  /** Every skill's entry, as `skills/list` serves it, in URI order. */
  skills: SkillEntry[];
  /** Number of served files and their total size. */
  files: number;
  bytes: number;
  /** The content snapshot id (changes with any served byte). */
  snapshot: number;
  /** Findings that do not stop publishing. */
  warnings: CatalogDiagnostic[];
}

/** What a pack holds, read without serving it. */
export interface PackSummary {
  version: number;
  snapshot: number;
  skills: SkillEntry[];
  files: number;
  bytes: number;
}

/** Options of `SkillsServer`. */
export interface SkillsServerOptions {
  /** Items per page of `skills/list`, `resources/list` and `resources/directory/read` (1-1000, default 50). */
  pageSize?: number;
  /** `ttlMs` of cacheable results (default 300000). */
  ttlMs?: number;
  /** `cacheScope` of cacheable results (default "public"). */
  cacheScope?: "public" | "private";
  /** Server instructions; default: the pack's (generated from the catalog); "" sends none. */
  instructions?: string;
  /** A pack made by `compileCatalog` or `skills-edge pack`; default: the catalog embedded in this package. */
  pack?: Uint8Array | ArrayBuffer;
  /** The identity sent in `serverInfo` and in every 2026-07-28 result's `_meta` (default: skills-edge and this package's version), for a server that answers other methods too. */
  serverInfo?: { name: string; version: string };
}

/** Anything with the `get` of the Fetch API's `Headers` (which is one). */
export interface HeaderGetter {
  get(name: string): string | null;
}

/** The MCP request headers `handleHttp` reads, by lowercase name (absent: `undefined` or `null`). */
export interface McpHeaders {
  "mcp-protocol-version"?: string | null;
  "mcp-method"?: string | null;
  "mcp-name"?: string | null;
}

/** The answer to a Streamable HTTP POST: the status to send and, unless it is 202, the JSON body. */
export interface HttpReply {
  status: number;
  body?: string;
}

/** A JSON-RPC request or notification. */
export interface JsonRpcMessage {
  jsonrpc: "2.0";
  id?: string | number;
  method: string;
  params?: { [key: string]: unknown };
}

/** A successful JSON-RPC response. */
export interface JsonRpcResultResponse {
  jsonrpc: "2.0";
  id: string | number;
  result: { [key: string]: JsonValue };
}

/** A JSON-RPC error response (`id` is absent when the request's id could not be read). */
export interface JsonRpcErrorResponse {
  jsonrpc: "2.0";
  id?: string | number;
  error: { code: number; message: string; data?: JsonValue };
}

/** A JSON-RPC response. */
export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;

/** Options of `SkillHost`. */
export interface SkillHostOptions {
  /** Load skills with `"dynamic"` resources (frontmatter verified, files not; 16 MiB retrieved at most). Default false. */
  allowDynamic?: boolean;
  /** Refuse to load a skill without a current approval (`not-approved`). Default false. */
  requireApproval?: boolean;
}

/** A registered skill. */
export interface SkillSummary {
  /** The host-assigned label of its server. */
  serverLabel: string;
  uri: string;
  name: string;
  description: string;
  /** Unique among all registered skills: `name`, `name (prefix)`, or `label:name`. */
  displayName: string;
  dynamic: boolean;
  /** A current approval covers its entry. */
  approved: boolean;
  /** An acting window is open. */
  active: boolean;
}

/** A skill's identity: both halves, always. */
export interface SkillRef {
  serverLabel: string;
  uri: string;
}

/** What registering an entry did. */
export interface RegisterOutcome {
  uri: string;
  added: boolean;
  /** The `{uri, digest}` set differs from the previously registered entry. */
  changed: boolean;
  /** A stored approval no longer matched and was revoked. */
  approvalRevoked: boolean;
}

/** What registering a listing did. */
export interface ListingOutcome {
  registered: RegisterOutcome[];
  /** Invalid entries, not registered. */
  rejected: Array<{ index: number; error: SkillsEdgeError }>;
}

/** What to fetch next, from the skill's own server. */
export interface PlannedRead {
  uri: string;
  /** Absent for a dynamic skill. */
  digest?: string;
  /** Absent for a dynamic skill. */
  size?: number;
}

/** A loaded skill: its verified SKILL.md, tagged with its origin. */
export interface LoadedSkill extends VerifiedSkillMd {
  serverLabel: string;
  displayName: string;
}

/** A verified supporting file, tagged with its origin. */
export interface ReadFile extends VerifiedContent {
  serverLabel: string;
  skillUri: string;
}

/** Persisted approvals, as `exportApprovals()` writes them. */
export interface ApprovalsExport {
  format: "skills-edge/approvals";
  version: 1;
  approvals: Array<{ server: string; uri: string; fingerprint: string }>;
}
"#;

// ---------------------------------------------------------------------------------------------
// Conversions
// ---------------------------------------------------------------------------------------------

/// A thrown `SkillsEdgeError`.
fn js_error(e: &VerifyError) -> JsValue {
    let err = js_sys::Error::new(&e.message);
    err.set_name("SkillsEdgeError");
    let target: &JsValue = err.as_ref();
    set(target, "code", &e.code.as_str().into());
    for (k, v) in [
        ("uri", &e.uri),
        ("expected", &e.expected),
        ("actual", &e.actual),
        ("field", &e.field),
    ] {
        if let Some(v) = v {
            set(target, k, &JsValue::from_str(v));
        }
    }
    err.into()
}

fn fail(code: ErrorCode, message: impl Into<String>) -> JsValue {
    js_error(&VerifyError::new(code, message))
}

fn throw<T>(r: Result<T, VerifyError>) -> Result<T, JsValue> {
    r.map_err(|e| js_error(&e))
}

fn set(target: &JsValue, key: &str, value: &JsValue) {
    // Setting a property on a fresh plain object cannot fail.
    let _ = Reflect::set(target, &JsValue::from_str(key), value);
}

fn object() -> JsValue {
    Object::new().into()
}

/// `JSON.stringify(value)`, or `None` when the value has no JSON form (undefined, a function,
/// a BigInt, a cycle).
fn json_text(value: &JsValue) -> Option<String> {
    JSON::stringify(value)
        .ok()
        .and_then(|s| JsValue::from(s).as_string())
}

fn json_value(text: &str) -> Result<JsValue, JsValue> {
    JSON::parse(text).map_err(|_| {
        fail(
            ErrorCode::InvalidArgument,
            "internal JSON could not be parsed",
        )
    })
}

fn entry_from(value: &JsValue) -> Result<Entry, JsValue> {
    let text = json_text(value).ok_or_else(|| {
        fail(
            ErrorCode::InvalidEntry,
            "the entry is not a JSON object (it cannot be serialised with JSON.stringify)",
        )
    })?;
    throw(Entry::parse(&text))
}

/// A plain options object (or undefined/null) as JSON text.
fn options_text(value: &Option<JsValue>, what: &str) -> Result<Option<String>, JsValue> {
    match value {
        None => Ok(None),
        Some(v) if v.is_undefined() || v.is_null() => Ok(None),
        Some(v) if v.is_object() && !Array::is_array(v) => {
            json_text(v).map(Some).ok_or_else(|| {
                fail(
                    ErrorCode::InvalidArgument,
                    format!("the {what} cannot be serialised as JSON"),
                )
            })
        }
        Some(_) => Err(fail(
            ErrorCode::InvalidArgument,
            format!("the {what} must be an object"),
        )),
    }
}

fn parse_options<T: serde::de::DeserializeOwned + Default>(
    value: &Option<JsValue>,
    what: &str,
) -> Result<T, JsValue> {
    match options_text(value, what)? {
        None => Ok(T::default()),
        Some(text) => serde_json::from_str(&text)
            .map_err(|e| fail(ErrorCode::InvalidArgument, format!("invalid {what}: {e}"))),
    }
}

#[derive(serde::Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct JsVerifyOptions {
    allow_dynamic: Option<bool>,
}

fn verify_options(value: &Option<JsValue>) -> Result<VerifyOptions, JsValue> {
    let o: JsVerifyOptions = parse_options(value, "verify options")?;
    Ok(VerifyOptions {
        allow_dynamic: o.allow_dynamic.unwrap_or(false),
    })
}

/// `string` → text, `Uint8Array` → bytes, and (when allowed) a plain object → a
/// `resources/read` result.
fn content_from(value: &JsValue, allow_result: bool) -> Result<Content, JsValue> {
    if let Some(s) = value.as_string() {
        return Ok(Content::Text(s));
    }
    if let Some(bytes) = value.dyn_ref::<Uint8Array>() {
        return Ok(Content::Bytes(bytes.to_vec()));
    }
    if allow_result && value.is_object() && !Array::is_array(value) {
        let text = json_text(value).ok_or_else(|| {
            fail(
                ErrorCode::InvalidReadResult,
                "the resources/read result cannot be serialised as JSON",
            )
        })?;
        let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
            fail(
                ErrorCode::InvalidReadResult,
                format!("the resources/read result cannot be read: {e}"),
            )
        })?;
        return Ok(Content::ReadResult(json));
    }
    Err(fail(
        ErrorCode::InvalidArgument,
        if allow_result {
            "content must be a string, a Uint8Array or a resources/read result object"
        } else {
            "content must be a string or a Uint8Array"
        },
    ))
}

fn receipt_into(target: &JsValue, r: &FileReceipt) {
    set(target, "uri", &JsValue::from_str(&r.uri));
    set(target, "size", &JsValue::from_f64(r.size as f64));
    set(target, "digest", &JsValue::from_str(&r.digest));
    set(target, "verified", &JsValue::from_bool(r.verified));
}

fn receipt_js(r: &FileReceipt) -> JsValue {
    let o = object();
    receipt_into(&o, r);
    o
}

fn content_js(c: &VerifiedContent) -> JsValue {
    let o = object();
    receipt_into(&o, &c.receipt);
    set(&o, "bytes", &Uint8Array::from(c.body.as_bytes()).into());
    if let Body::Text(t) = &c.body {
        set(&o, "text", &JsValue::from_str(t));
    }
    if let Some(m) = &c.mime_type {
        set(&o, "mimeType", &JsValue::from_str(m));
    }
    o
}

fn skill_md_js(v: &VerifiedSkillMd) -> Result<JsValue, JsValue> {
    let o = object();
    receipt_into(&o, &v.receipt);
    set(&o, "text", &JsValue::from_str(&v.text));
    set(&o, "body", &JsValue::from_str(v.body()));
    set(&o, "frontmatter", &json_value(&v.frontmatter.to_json())?);
    if let Some(m) = &v.mime_type {
        set(&o, "mimeType", &JsValue::from_str(m));
    }
    Ok(o)
}

fn planned_js(p: &PlannedRead) -> JsValue {
    let o = object();
    set(&o, "uri", &JsValue::from_str(&p.uri));
    if let Some(d) = &p.digest {
        set(&o, "digest", &JsValue::from_str(d));
    }
    if let Some(s) = p.size {
        set(&o, "size", &JsValue::from_f64(s as f64));
    }
    o
}

fn outcome_js(r: &RegisterOutcome) -> JsValue {
    let o = object();
    set(&o, "uri", &JsValue::from_str(&r.uri));
    set(&o, "added", &JsValue::from_bool(r.added));
    set(&o, "changed", &JsValue::from_bool(r.changed));
    set(
        &o,
        "approvalRevoked",
        &JsValue::from_bool(r.approval_revoked),
    );
    o
}

// ---------------------------------------------------------------------------------------------
// Pure verifier functions
// ---------------------------------------------------------------------------------------------

/// Validates a skill entry and returns it as the host reads it (`uri`, `frontmatter`,
/// `resources`; unknown fields dropped). Throws `invalid-entry`.
#[wasm_bindgen(js_name = validateEntry, unchecked_return_type = "SkillEntry")]
pub fn validate_entry(
    #[wasm_bindgen(unchecked_param_type = "SkillEntry")] entry: JsValue,
) -> Result<JsValue, JsValue> {
    json_value(&entry_from(&entry)?.to_json())
}

/// Counts a skill's files and sums their sizes from the entry alone. Throws
/// `limit-exceeded` above 512 files or 16 MiB, `invalid-entry` for an invalid entry.
#[wasm_bindgen(js_name = checkLimits, unchecked_return_type = "LimitReport")]
pub fn check_limits(
    #[wasm_bindgen(unchecked_param_type = "SkillEntry")] entry: JsValue,
) -> Result<JsValue, JsValue> {
    let entry = entry_from(&entry)?;
    let o = object();
    match throw(entry.check_limits())? {
        Some(r) => {
            set(&o, "dynamic", &JsValue::FALSE);
            set(
                &o,
                "resourceCount",
                &JsValue::from_f64(r.resource_count as f64),
            );
            set(&o, "totalSize", &JsValue::from_f64(r.total_size as f64));
        }
        None => set(&o, "dynamic", &JsValue::TRUE),
    }
    Ok(o)
}

/// Verifies a file's content (text: its UTF-8 bytes) against the entry: listed, then size,
/// then digest. Throws `not-in-manifest`, `size-mismatch`, `digest-mismatch`,
/// `dynamic-not-allowed`, `invalid-entry`.
#[wasm_bindgen(js_name = verifyFile, unchecked_return_type = "FileReceipt")]
pub fn verify_file(
    #[wasm_bindgen(unchecked_param_type = "SkillEntry")] entry: JsValue,
    uri: &str,
    #[wasm_bindgen(unchecked_param_type = "FileContent")] content: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "VerifyOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let entry = entry_from(&entry)?;
    let options = verify_options(&options)?;
    let receipt = match content_from(&content, false)? {
        Content::Text(t) => verify_bytes(&entry, uri, t.as_bytes(), options),
        Content::Bytes(b) => verify_bytes(&entry, uri, &b, options),
        Content::ReadResult(_) => {
            return Err(fail(ErrorCode::InvalidArgument, "use verifyReadResult"))
        }
    };
    Ok(receipt_js(&throw(receipt)?))
}

/// Verifies a `resources/read` result for `uri`: listed, exactly one content item for the
/// URI with `text` or strict base64 `blob`, then size and digest. Throws
/// `invalid-read-result` and the codes of `verifyFile`.
#[wasm_bindgen(js_name = verifyReadResult, unchecked_return_type = "VerifiedContent")]
pub fn verify_read_result_js(
    #[wasm_bindgen(unchecked_param_type = "SkillEntry")] entry: JsValue,
    uri: &str,
    #[wasm_bindgen(unchecked_param_type = "ReadResourceResult")] result: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "VerifyOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let entry = entry_from(&entry)?;
    let options = verify_options(&options)?;
    let json = match content_from(&result, true)? {
        Content::ReadResult(json) => json,
        _ => {
            return Err(fail(
                ErrorCode::InvalidReadResult,
                "a resources/read result is an object",
            ))
        }
    };
    Ok(content_js(&throw(verify_read_result(
        &entry, uri, &json, options,
    ))?))
}

/// Verifies a SKILL.md (text, bytes or a `resources/read` result) against its entry: size,
/// digest, then the frontmatter field by field. Throws `size-mismatch`, `digest-mismatch`,
/// `frontmatter-mismatch`, `frontmatter-invalid`, `invalid-read-result`, `invalid-entry`.
#[wasm_bindgen(js_name = verifySkillMd, unchecked_return_type = "VerifiedSkillMd")]
pub fn verify_skill_md_js(
    #[wasm_bindgen(unchecked_param_type = "SkillEntry")] entry: JsValue,
    #[wasm_bindgen(unchecked_param_type = "FileContent | ReadResourceResult")] content: JsValue,
) -> Result<JsValue, JsValue> {
    let entry = entry_from(&entry)?;
    let content = content_from(&content, true)?;
    skill_md_js(&throw(verify_skill_md(&entry, &content))?)
}

/// Resolves a reference found in a skill against the root of the skill whose SKILL.md is
/// `skillUri`. Throws `escapes-root`, `invalid-reference`, `invalid-argument`.
#[wasm_bindgen(js_name = resolveReference)]
pub fn resolve_reference(
    #[wasm_bindgen(js_name = skillUri)] skill_uri: &str,
    reference: &str,
) -> Result<String, JsValue> {
    throw(resolve(skill_uri, reference))
}

/// The approval fingerprint of an entry served by the server labelled `serverLabel`:
/// `sha256:` over (label, skill URI, every `{uri, digest}`). Throws `dynamic-not-allowed`,
/// `invalid-entry`.
#[wasm_bindgen(js_name = approvalFingerprint)]
pub fn approval_fingerprint_js(
    #[wasm_bindgen(js_name = serverLabel)] server_label: &str,
    #[wasm_bindgen(unchecked_param_type = "SkillEntry")] entry: JsValue,
) -> Result<String, JsValue> {
    let entry = entry_from(&entry)?;
    throw(approval_fingerprint(server_label, &entry))
}

/// The SHA-256 of content (text: its UTF-8 bytes) in wire form, `sha256:` + 64 hex.
#[wasm_bindgen(js_name = sha256Digest)]
pub fn sha256_digest(
    #[wasm_bindgen(unchecked_param_type = "FileContent")] content: JsValue,
) -> Result<String, JsValue> {
    Ok(match content_from(&content, false)? {
        Content::Text(t) => digest_of(t.as_bytes()),
        Content::Bytes(b) => digest_of(&b),
        Content::ReadResult(_) => String::new(),
    })
}

/// Codes of the package's own failures, next to the host's [`ErrorCode`]s: a skills folder
/// that breaks a rule, and a pack that cannot be loaded.
const CATALOG_INVALID: &str = "catalog-invalid";
const PACK_INVALID: &str = "pack-invalid";

fn all_codes() -> impl Iterator<Item = &'static str> {
    ErrorCode::ALL
        .iter()
        .map(|c| c.as_str())
        .chain([CATALOG_INVALID, PACK_INVALID])
}

/// Every error code this package throws.
#[wasm_bindgen(js_name = errorCodes, unchecked_return_type = "ErrorCode[]")]
pub fn error_codes() -> JsValue {
    let a = Array::new();
    for c in all_codes() {
        a.push(&JsValue::from_str(c));
    }
    a.into()
}

/// Whether `value` is an error thrown by this package.
#[wasm_bindgen(js_name = isSkillsEdgeError, unchecked_return_type = "value is SkillsEdgeError")]
pub fn is_skills_edge_error(
    #[wasm_bindgen(unchecked_param_type = "unknown")] value: &JsValue,
) -> bool {
    value.is_instance_of::<js_sys::Error>()
        && Reflect::get(value, &JsValue::from_str("name"))
            .ok()
            .and_then(|n| n.as_string())
            .is_some_and(|n| n == "SkillsEdgeError")
        && Reflect::get(value, &JsValue::from_str("code"))
            .ok()
            .and_then(|c| c.as_string())
            .is_some_and(|c| all_codes().any(|k| k == c))
}

// ---------------------------------------------------------------------------------------------
// Catalog compiler and packs
// ---------------------------------------------------------------------------------------------

fn diagnostic_js(d: &Diagnostic, root: &str) -> JsValue {
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

fn diagnostics_js<'a>(ds: impl Iterator<Item = &'a Diagnostic>, root: &str) -> JsValue {
    let a = Array::new();
    for d in ds {
        a.push(&diagnostic_js(d, root));
    }
    a.into()
}

fn get(o: &JsValue, key: &str) -> JsValue {
    Reflect::get(o, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// Reads `compileCatalog`'s entries into a source tree; `invalid-argument` names the index
/// of a malformed entry.
fn source_tree(entries: &JsValue) -> Result<SourceTree, JsValue> {
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
struct JsCompileOptions {
    root: Option<String>,
    instructions: Option<String>,
}

fn entries_js<'a>(entries: impl Iterator<Item = &'a str>) -> Result<JsValue, JsValue> {
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
    let bytes: usize = catalog.files().map(|f| f.size as usize).sum();
    set(&out, "bytes", &JsValue::from_f64(bytes as f64));
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// SkillsServer
// ---------------------------------------------------------------------------------------------

#[derive(serde::Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct JsServerOptions {
    page_size: Option<f64>,
    ttl_ms: Option<f64>,
    cache_scope: Option<String>,
    instructions: Option<String>,
    server_info: Option<JsServerInfo>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct JsServerInfo {
    name: String,
    version: String,
}

/// The MCP request headers `handleHttp` reads, by their lowercase names.
const MCP_HEADERS: [&str; 3] = ["mcp-protocol-version", "mcp-method", "mcp-name"];

/// Reads the MCP headers from a `Headers` object (anything with a `get` method) or a plain
/// record keyed by lowercase names; absent, `null` and `undefined` values are `None`.
fn mcp_headers(headers: &JsValue) -> Result<[Option<String>; 3], JsValue> {
    if headers.is_undefined() || headers.is_null() {
        return Ok([None, None, None]);
    }
    if !headers.is_object() {
        return Err(fail(
            ErrorCode::InvalidArgument,
            "headers must be a Headers object or a record of lowercase header names",
        ));
    }
    let getter = get(headers, "get").dyn_into::<js_sys::Function>().ok();
    let mut out = [None, None, None];
    for (slot, name) in out.iter_mut().zip(MCP_HEADERS) {
        let key = JsValue::from_str(name);
        let v = match &getter {
            Some(f) => f.call1(headers, &key)?,
            None => Reflect::get(headers, &key).unwrap_or(JsValue::UNDEFINED),
        };
        if v.is_undefined() || v.is_null() {
            continue;
        }
        *slot = Some(v.as_string().ok_or_else(|| {
            fail(
                ErrorCode::InvalidArgument,
                format!("the {name} header must be a string"),
            )
        })?);
    }
    Ok(out)
}

/// Splits `pack` off a `SkillsServer` options object: its bytes, and the other options (so a
/// large pack is never serialised to JSON).
fn take_pack(o: JsValue) -> Result<(Option<Vec<u8>>, Option<JsValue>), JsValue> {
    let key = JsValue::from_str("pack");
    let value = Reflect::get(&o, &key).unwrap_or(JsValue::UNDEFINED);
    if value.is_undefined() {
        return Ok((None, Some(o)));
    }
    let bytes = if let Some(b) = value.dyn_ref::<Uint8Array>() {
        b.to_vec()
    } else if let Some(b) = value.dyn_ref::<js_sys::ArrayBuffer>() {
        Uint8Array::new(b).to_vec()
    } else {
        return Err(fail(
            ErrorCode::InvalidArgument,
            "pack must be a Uint8Array or an ArrayBuffer (the bytes of a .pack file)",
        ));
    };
    let rest = Object::assign(&Object::new(), o.unchecked_ref());
    let _ = Reflect::delete_property(&rest, &key);
    Ok((Some(bytes), Some(rest.into())))
}

fn pack_error(e: &pack::PackError) -> JsValue {
    let err = js_sys::Error::new(&e.to_string());
    err.set_name("SkillsEdgeError");
    set(err.as_ref(), "code", &JsValue::from_str(PACK_INVALID));
    err.into()
}

/// Serves a skills catalog in-page: JSON-RPC messages in, responses out, on both protocol
/// eras (2026-07-28 `server/discover` with `_meta`, 2025-11-25 `initialize`). The catalog is a
/// pack (`options.pack`) or, by default, the one embedded in this package.
#[wasm_bindgen]
pub struct SkillsServer {
    responder: Responder,
}

#[wasm_bindgen]
impl SkillsServer {
    /// A server over `options.pack`, or over the embedded catalog. Throws `invalid-argument`
    /// for an unknown option or a value out of range, `pack-invalid` for a pack that is
    /// truncated, corrupted or of another format version.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "SkillsServerOptions")] options: Option<
            JsValue,
        >,
    ) -> Result<SkillsServer, JsValue> {
        let (pack, options) = match options {
            Some(o) if o.is_object() && !Array::is_array(&o) => take_pack(o)?,
            other => (None, other),
        };
        let o: JsServerOptions = parse_options(&options, "SkillsServer options")?;
        let bad = |m: String| fail(ErrorCode::InvalidArgument, m);
        let int = |v: f64, what: &str| -> Result<u64, JsValue> {
            if v.fract() == 0.0 && (0.0..=9_007_199_254_740_991.0).contains(&v) {
                Ok(v as u64)
            } else {
                Err(bad(format!(
                    "{what} must be a non-negative integer, got {v}"
                )))
            }
        };
        let mut config = Config::default();
        if let Some(p) = o.page_size {
            config.page_size = usize::try_from(int(p, "pageSize")?).unwrap_or(usize::MAX);
        }
        if let Some(t) = o.ttl_ms {
            config.ttl_ms = int(t, "ttlMs")?;
        }
        if let Some(s) = o.cache_scope {
            config.cache_scope = CacheScope::parse(&s).ok_or_else(|| {
                bad(format!(
                    "cacheScope must be \"public\" or \"private\", got {s:?}"
                ))
            })?;
        }
        config.instructions = o.instructions;
        config.server_info = o.server_info.map(|i| (i.name, i.version));
        let catalog = match pack {
            Some(bytes) => {
                std::sync::Arc::new(Catalog::from_bytes(bytes).map_err(|e| pack_error(&e))?)
            }
            None => crate::embedded::catalog().map_err(|e| pack_error(&e))?,
        };
        let responder = Responder::new(catalog, config).map_err(|e| bad(e.0))?;
        Ok(SkillsServer { responder })
    }

    /// Answers one JSON-RPC message (a string, or an object that is serialised with
    /// `JSON.stringify`): the response object, or `undefined` for a notification.
    #[wasm_bindgen(unchecked_return_type = "JsonRpcResponse | undefined")]
    pub fn handle(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | JsonRpcMessage")] message: JsValue,
    ) -> Result<JsValue, JsValue> {
        let text = match message.as_string() {
            Some(s) => s,
            None => json_text(&message).ok_or_else(|| {
                fail(
                    ErrorCode::InvalidArgument,
                    "the message cannot be serialised as JSON",
                )
            })?,
        };
        match self.handle_text(&text) {
            Some(body) => json_value(&body),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// `handle` on JSON text: the response as JSON text, or `undefined` for a notification.
    #[wasm_bindgen(js_name = handleText)]
    pub fn handle_text(&self, message: &str) -> Option<String> {
        let reply = self
            .responder
            .respond(message.as_bytes(), &Transport::Stream);
        reply.body.map(|b| String::from_utf8_lossy(&b).into_owned())
    }

    /// Answers one message received as a Streamable HTTP POST body, with the request's MCP
    /// headers: `MCP-Protocol-Version` is checked against the body's `_meta`, `Mcp-Method` and
    /// `Mcp-Name` against the body (`-32020`), a 2026-07-28 header without `_meta` is refused,
    /// and the reply carries the HTTP status the transport rules give it (202 and no body for
    /// a notification, 400 for envelope errors, 404 for an unknown method, 200 otherwise).
    /// `headers` is the platform's `Headers` or a record keyed by lowercase names. The
    /// transport-level rules (method, `Accept`, `Content-Type`, `Origin`, body size) stay
    /// with the caller's HTTP layer.
    #[wasm_bindgen(js_name = handleHttp, unchecked_return_type = "HttpReply")]
    pub fn handle_http(
        &self,
        message: &str,
        #[wasm_bindgen(unchecked_optional_param_type = "HeaderGetter | McpHeaders")]
        headers: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let [protocol_version, method, name] = mcp_headers(&headers.unwrap_or(JsValue::UNDEFINED))?;
        let transport = Transport::Http(HttpHeaders {
            protocol_version: protocol_version.as_deref(),
            method: method.as_deref(),
            name: name.as_deref(),
        });
        let reply = self.responder.respond(message.as_bytes(), &transport);
        let out = object();
        set(&out, "status", &JsValue::from_f64(f64::from(reply.status)));
        if let Some(b) = reply.body {
            set(
                &out,
                "body",
                &JsValue::from_str(&String::from_utf8_lossy(&b)),
            );
        }
        Ok(out)
    }
}

// ---------------------------------------------------------------------------------------------
// SkillHost
// ---------------------------------------------------------------------------------------------

#[derive(serde::Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct JsHostOptions {
    allow_dynamic: Option<bool>,
    require_approval: Option<bool>,
}

/// The host registry: skills keyed by (host-assigned server label, URI), display names that
/// disambiguate collisions, acting windows holding the entry a skill was loaded from, and
/// approvals bound to content. It never fetches: `planLoad`/`planRead` say what to read, the
/// caller reads it from the same server, and `load`/`read` verify it.
#[wasm_bindgen]
pub struct SkillHost {
    inner: host::SkillHost,
}

#[wasm_bindgen]
impl SkillHost {
    /// An empty registry. Throws `invalid-argument` for an unknown option.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "SkillHostOptions")] options: Option<
            JsValue,
        >,
    ) -> Result<SkillHost, JsValue> {
        let o: JsHostOptions = parse_options(&options, "SkillHost options")?;
        Ok(SkillHost {
            inner: host::SkillHost::new(HostOptions {
                allow_dynamic: o.allow_dynamic.unwrap_or(false),
                require_approval: o.require_approval.unwrap_or(false),
            }),
        })
    }

    /// Adds a server under a host-assigned label (1-128 bytes, no `:`). Throws
    /// `invalid-argument` when malformed or already in use.
    #[wasm_bindgen(js_name = addServer)]
    pub fn add_server(&mut self, label: &str) -> Result<(), JsValue> {
        throw(self.inner.add_server(label))
    }

    /// Removes a server with its skills, acting windows and approvals. Throws
    /// `unknown-server`.
    #[wasm_bindgen(js_name = removeServer)]
    pub fn remove_server(&mut self, label: &str) -> Result<(), JsValue> {
        throw(self.inner.remove_server(label))
    }

    /// The server labels, in the order added.
    #[wasm_bindgen(unchecked_return_type = "string[]")]
    pub fn servers(&self) -> JsValue {
        let a = Array::new();
        for s in self.inner.servers() {
            a.push(&JsValue::from_str(s));
        }
        a.into()
    }

    /// Registers (or replaces) an entry of server `label`; revokes an approval whose
    /// `{uri, digest}` set no longer matches. Throws `invalid-entry`, `unknown-server`.
    #[wasm_bindgen(unchecked_return_type = "RegisterOutcome")]
    pub fn register(
        &mut self,
        label: &str,
        #[wasm_bindgen(unchecked_param_type = "SkillEntry")] entry: JsValue,
    ) -> Result<JsValue, JsValue> {
        let entry = entry_from(&entry)?;
        Ok(outcome_js(&throw(self.inner.register(label, entry))?))
    }

    /// `register` for a skill already registered (throws `unknown-skill` otherwise).
    #[wasm_bindgen(unchecked_return_type = "RegisterOutcome")]
    pub fn refresh(
        &mut self,
        label: &str,
        #[wasm_bindgen(unchecked_param_type = "SkillEntry")] entry: JsValue,
    ) -> Result<JsValue, JsValue> {
        let entry = entry_from(&entry)?;
        Ok(outcome_js(&throw(self.inner.refresh(label, entry))?))
    }

    /// Registers every valid entry of a `skills/list` result or an array of entries; the
    /// invalid ones are reported, not registered.
    #[wasm_bindgen(js_name = registerListing, unchecked_return_type = "ListingOutcome")]
    pub fn register_listing(
        &mut self,
        label: &str,
        #[wasm_bindgen(unchecked_param_type = "SkillEntry[] | ListSkillsResult")] listing: JsValue,
    ) -> Result<JsValue, JsValue> {
        let text = json_text(&listing).ok_or_else(|| {
            fail(
                ErrorCode::InvalidArgument,
                "the listing cannot be serialised as JSON",
            )
        })?;
        let out = throw(self.inner.register_listing(label, &text))?;
        let o = object();
        let registered = Array::new();
        for r in &out.registered {
            registered.push(&outcome_js(r));
        }
        let rejected = Array::new();
        for r in &out.rejected {
            let item = object();
            set(&item, "index", &JsValue::from_f64(r.index as f64));
            set(&item, "error", &js_error(&r.error));
            rejected.push(&item);
        }
        set(&o, "registered", &registered.into());
        set(&o, "rejected", &rejected.into());
        Ok(o)
    }

    /// Registers the entry of a `skills/get` result for `uri` (the result's `skill.uri` must
    /// echo it). Throws `invalid-entry`, `unknown-server`.
    #[wasm_bindgen(js_name = registerGetResult, unchecked_return_type = "RegisterOutcome")]
    pub fn register_get_result(
        &mut self,
        label: &str,
        uri: &str,
        #[wasm_bindgen(unchecked_param_type = "GetSkillResult")] result: JsValue,
    ) -> Result<JsValue, JsValue> {
        let text = json_text(&result).ok_or_else(|| {
            fail(
                ErrorCode::InvalidEntry,
                "the skills/get result cannot be serialised as JSON",
            )
        })?;
        Ok(outcome_js(&throw(
            self.inner.register_get_result(label, uri, &text),
        )?))
    }

    /// Forgets a skill and closes its acting window. Returns whether it was registered.
    pub fn forget(&mut self, label: &str, uri: &str) -> Result<bool, JsValue> {
        throw(self.inner.forget(label, uri))
    }

    /// The registered entry (as the host reads it), or `undefined`.
    #[wasm_bindgen(unchecked_return_type = "SkillEntry | undefined")]
    pub fn entry(&self, label: &str, uri: &str) -> Result<JsValue, JsValue> {
        match self.inner.entry(label, uri) {
            Some(e) => json_value(&e.to_json()),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// Every registered skill with a display name unique across servers.
    #[wasm_bindgen(unchecked_return_type = "SkillSummary[]")]
    pub fn skills(&self) -> JsValue {
        let a = Array::new();
        for s in self.inner.skills() {
            let o = object();
            set(&o, "serverLabel", &JsValue::from_str(&s.server_label));
            set(&o, "uri", &JsValue::from_str(&s.uri));
            set(&o, "name", &JsValue::from_str(&s.name));
            set(&o, "description", &JsValue::from_str(&s.description));
            set(&o, "displayName", &JsValue::from_str(&s.display_name));
            set(&o, "dynamic", &JsValue::from_bool(s.dynamic));
            set(&o, "approved", &JsValue::from_bool(s.approved));
            set(&o, "active", &JsValue::from_bool(s.active));
            a.push(&o);
        }
        a.into()
    }

    /// The skill shown under `displayName`, or `undefined`.
    #[wasm_bindgen(unchecked_return_type = "SkillRef | undefined")]
    pub fn lookup(&self, #[wasm_bindgen(js_name = displayName)] display_name: &str) -> JsValue {
        match self.inner.lookup(display_name) {
            Some((label, uri)) => {
                let o = object();
                set(&o, "serverLabel", &JsValue::from_str(&label));
                set(&o, "uri", &JsValue::from_str(&uri));
                o
            }
            None => JsValue::UNDEFINED,
        }
    }

    /// What to read to load a skill, after the checks that need no content (limits, dynamic
    /// policy, approval policy). Throws `unknown-server`, `unknown-skill`, `limit-exceeded`,
    /// `dynamic-not-allowed`, `not-approved`.
    #[wasm_bindgen(js_name = planLoad, unchecked_return_type = "PlannedRead")]
    pub fn plan_load(&self, label: &str, uri: &str) -> Result<JsValue, JsValue> {
        Ok(planned_js(&throw(self.inner.plan_load(label, uri))?))
    }

    /// Loads a skill from its SKILL.md (a `resources/read` result, text or bytes read from the
    /// same server): verified, then the acting window opens holding its entry.
    #[wasm_bindgen(unchecked_return_type = "LoadedSkill")]
    pub fn load(
        &mut self,
        label: &str,
        uri: &str,
        #[wasm_bindgen(unchecked_param_type = "ReadResourceResult | FileContent")] content: JsValue,
    ) -> Result<JsValue, JsValue> {
        let content = content_from(&content, true)?;
        let loaded = throw(self.inner.load(label, uri, content))?;
        let o = skill_md_js(&loaded.skill_md)?;
        set(&o, "serverLabel", &JsValue::from_str(&loaded.server_label));
        set(&o, "displayName", &JsValue::from_str(&loaded.display_name));
        Ok(o)
    }

    /// What to read for a reference (relative to the skill root, or an absolute URI) of a
    /// loaded skill, from the held entry only. Throws `no-acting-window`, `escapes-root`,
    /// `invalid-reference`, `not-in-manifest`.
    #[wasm_bindgen(js_name = planRead, unchecked_return_type = "PlannedRead")]
    pub fn plan_read(
        &self,
        label: &str,
        #[wasm_bindgen(js_name = skillUri)] skill_uri: &str,
        reference: &str,
    ) -> Result<JsValue, JsValue> {
        Ok(planned_js(&throw(
            self.inner.plan_read(label, skill_uri, reference),
        )?))
    }

    /// Verifies a supporting file of a loaded skill against the held entry. A nested SKILL.md
    /// read this way is ordinary content and activates nothing.
    #[wasm_bindgen(unchecked_return_type = "ReadFile")]
    pub fn read(
        &mut self,
        label: &str,
        #[wasm_bindgen(js_name = skillUri)] skill_uri: &str,
        reference: &str,
        #[wasm_bindgen(unchecked_param_type = "ReadResourceResult | FileContent")] content: JsValue,
    ) -> Result<JsValue, JsValue> {
        let content = content_from(&content, true)?;
        let file = throw(self.inner.read(label, skill_uri, reference, content))?;
        let o = content_js(&file.content);
        set(&o, "serverLabel", &JsValue::from_str(&file.server_label));
        set(&o, "skillUri", &JsValue::from_str(&file.skill_uri));
        Ok(o)
    }

    /// Whether an acting window is open for the skill.
    #[wasm_bindgen(js_name = isActive)]
    pub fn is_active(&self, label: &str, uri: &str) -> bool {
        self.inner.is_active(label, uri)
    }

    /// Closes the acting window. Returns whether one was open.
    #[wasm_bindgen(js_name = closeWindow)]
    pub fn close_window(&mut self, label: &str, uri: &str) -> bool {
        self.inner.close_window(label, uri)
    }

    /// Records the user's approval of the skill as its entry stands now; returns the
    /// fingerprint. Throws `dynamic-not-allowed`, `unknown-server`, `unknown-skill`.
    pub fn approve(&mut self, label: &str, uri: &str) -> Result<String, JsValue> {
        throw(self.inner.approve(label, uri))
    }

    /// Withdraws an approval. Returns whether there was one.
    pub fn revoke(&mut self, label: &str, uri: &str) -> bool {
        self.inner.revoke(label, uri)
    }

    /// Whether a stored approval matches the skill's current entry.
    #[wasm_bindgen(js_name = isApproved)]
    pub fn is_approved(&self, label: &str, uri: &str) -> bool {
        self.inner.is_approved(label, uri)
    }

    /// The stored approvals as JSON text (an `ApprovalsExport`), for persisting.
    #[wasm_bindgen(js_name = exportApprovals)]
    pub fn export_approvals(&self) -> String {
        self.inner.export_approvals()
    }

    /// Restores exported approvals (JSON text or the parsed object); an approval that does
    /// not match a registered entry is revoked. Returns how many were stored. Throws
    /// `invalid-argument`.
    #[wasm_bindgen(js_name = importApprovals)]
    pub fn import_approvals(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string | ApprovalsExport")] approvals: JsValue,
    ) -> Result<u32, JsValue> {
        let text = match approvals.as_string() {
            Some(s) => s,
            None => json_text(&approvals).ok_or_else(|| {
                fail(
                    ErrorCode::InvalidArgument,
                    "the approvals cannot be serialised as JSON",
                )
            })?,
        };
        let n = throw(self.inner.import_approvals(&text))?;
        Ok(u32::try_from(n).unwrap_or(u32::MAX))
    }
}

#[cfg(all(test, target_arch = "wasm32"))]
#[path = "../tests/wasm/web.rs"]
mod wasm_tests;
