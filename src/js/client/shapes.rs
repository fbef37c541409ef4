//! The shapes the npm client hands to and takes from JavaScript: options, facts, listings, fetched skills, directories, reports and arguments.

use super::*;

/// The options of the package's `SkillsClient` that configure the client, checked here and only
/// here (`SkillsClient.connect` and `wrap` pass them through as given); the host's own
/// (`allowDynamic`, `requireApproval`) are read beside them by `options_with_host`. `trust`,
/// `trustOnFirstUse` and `pins` are the signer options ([`SignerOptionsJs`]); `origin` the
/// name the server's signer is pinned under (`connect` gives its URL's origin; default: the
/// label).
#[derive(serde::Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub(super) struct CoreOptions {
    pub(super) label: Option<String>,
    pub(super) origin: Option<String>,
    #[serde(default, with = "serde_wasm_bindgen::preserve")]
    pub(super) trust: JsValue,
    pub(super) trust_on_first_use: Option<bool>,
    #[serde(default, with = "serde_wasm_bindgen::preserve")]
    pub(super) pins: JsValue,
    /// Any number, so its range is checked (and named) here; JavaScript numbers are exact
    /// integers up to `Number.MAX_SAFE_INTEGER`.
    pub(super) listing_budget: Option<f64>,
    pub(super) client_name: Option<String>,
    pub(super) client_version: Option<String>,
}

/// `ServerFacts`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct FactsJs<'a> {
    pub(super) protocol_version: &'a str,
    #[serde(serialize_with = "serde_wasm_bindgen::preserve::serialize")]
    pub(super) capabilities: JsValue,
    #[serde(
        skip_serializing_if = "JsValue::is_undefined",
        serialize_with = "serde_wasm_bindgen::preserve::serialize"
    )]
    pub(super) server_info: JsValue,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) instructions: Option<&'a str>,
    pub(super) skills: bool,
    pub(super) directory_read: bool,
}

pub(super) fn facts_js(f: &ServerFacts) -> Result<JsValue, JsValue> {
    to_js(&FactsJs {
        protocol_version: &f.protocol_version,
        capabilities: json_value(&f.capabilities.to_string())?,
        server_info: match &f.server_info {
            Some(i) => json_value(&i.to_string())?,
            None => JsValue::UNDEFINED,
        },
        instructions: f.instructions.as_deref(),
        skills: f.declares_skills(),
        directory_read: f.directory_read(),
    })
}

/// `ListedSkill`: the registry's `SkillSummary` and the figures of its manifest, as JSON text.
pub(super) fn listed_json(l: &ListedSkill) -> String {
    let mut o = JsonObject::new();
    summary_fields(&mut o, &l.summary);
    o.num("files", l.files as u64);
    o.num("bytes", l.bytes);
    o.raw("entry", &l.entry.to_json());
    o.text()
}

#[derive(Serialize)]
pub(super) struct RejectedJs {
    pub(super) index: usize,
    #[serde(serialize_with = "serde_wasm_bindgen::preserve::serialize")]
    pub(super) error: JsValue,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct ListingJs<'a> {
    #[serde(serialize_with = "serde_wasm_bindgen::preserve::serialize")]
    pub(super) skills: JsValue,
    pub(super) rejected: Vec<RejectedJs>,
    pub(super) ttl_ms: u64,
    pub(super) cache_scope: &'a str,
    pub(super) pages: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct FetchedJs<'a> {
    #[serde(serialize_with = "serde_wasm_bindgen::preserve::serialize")]
    pub(super) skill: JsValue,
    pub(super) changed: bool,
    pub(super) approval_revoked: bool,
    pub(super) ttl_ms: u64,
    pub(super) cache_scope: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct ChildJs<'a> {
    pub(super) uri: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) name: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) mime_type: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) size: Option<u64>,
    pub(super) directory: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) listed: Option<bool>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct DirectoryJs<'a> {
    pub(super) uri: &'a str,
    pub(super) resources: Vec<ChildJs<'a>>,
    pub(super) ttl_ms: u64,
    pub(super) cache_scope: &'a str,
    pub(super) pages: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct ReportJs<'a> {
    #[serde(serialize_with = "serde_wasm_bindgen::preserve::serialize")]
    pub(super) skills: JsValue,
    pub(super) exit_code: u8,
    pub(super) table: String,
    pub(super) summary: String,
    #[serde(
        skip_serializing_if = "JsValue::is_undefined",
        serialize_with = "serde_wasm_bindgen::preserve::serialize"
    )]
    pub(super) error: JsValue,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) protocol_version: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) pins: Option<String>,
}

/// The report of `verify`: `allow_dynamic` (the client's `allowDynamic`, as its `SkillHost`
/// has it) says whether a `dynamic` skill passes (`Report::exit_code`).
pub(super) fn report_js(r: &Report, url: &str, allow_dynamic: bool) -> Result<JsValue, JsValue> {
    report_with_pins(r, url, None, allow_dynamic)
}

/// [`report_js`] with the pins to hand back (`verifyWellKnown` with trust on first use or
/// pins).
pub(super) fn report_with_pins(
    r: &Report,
    url: &str,
    pins: Option<String>,
    allow_dynamic: bool,
) -> Result<JsValue, JsValue> {
    let lines: Vec<String> = r.skills.iter().map(|s| s.to_json()).collect();
    to_js(&ReportJs {
        pins,
        skills: json_array(lines.iter().map(String::as_str))?,
        exit_code: r.exit_code(allow_dynamic),
        table: r.table(),
        summary: r.summary(url),
        error: match &r.fatal {
            Some(e) => js_error(e.clone()),
            None => JsValue::UNDEFINED,
        },
        protocol_version: r.facts.as_ref().map(|f| f.protocol_version.as_str()),
    })
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct OutputJs {
    pub(super) stdout: String,
    pub(super) stderr: String,
    pub(super) exit_code: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) pins: Option<String>,
}

/// A checked `io` argument (an object; its functions are looked up when used).
pub(super) fn io_arg(io: &JsValue, a: Arg) -> Result<JsIo, JsValue> {
    if !io.is_object() || io.is_function() {
        return Err(a.wrong("an io object", io));
    }
    let field = |k: &str| Reflect::get(io, &JsValue::from_str(k)).ok();
    let url = field("url").and_then(|v| v.as_string());
    let authorized = field("authorized").and_then(|v| v.as_bool()) == Some(true);
    Ok(JsIo(io.clone(), url, authorized))
}

/// Headers given as `[name, value]` pairs or a record of names to values.
pub(super) fn headers_arg(value: &JsValue, a: Arg) -> Result<Vec<(String, String)>, JsValue> {
    let text = json_arg(
        value,
        a,
        ErrorCode::InvalidArgument,
        "an array of [name, value] pairs or an object of names to values",
        false,
    )?;
    let parsed: Json = serde_json::from_str(&text).map_err(|e| {
        a.error(
            ErrorCode::InvalidArgument,
            format_args!("cannot be read: {e}"),
        )
    })?;
    let pairs: Option<Vec<(String, String)>> = match &parsed {
        Json::Array(items) => items
            .iter()
            .map(|p| match p.as_array().map(Vec::as_slice) {
                Some([Json::String(k), Json::String(v)]) => Some((k.clone(), v.clone())),
                _ => None,
            })
            .collect(),
        Json::Object(map) => map
            .iter()
            .map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_owned())))
            .collect(),
        _ => None,
    };
    let pairs = pairs.ok_or_else(|| {
        a.error(
            ErrorCode::InvalidArgument,
            "must be [name, value] string pairs or an object of string values",
        )
    })?;
    throw(check_headers(&pairs).map_err(|e| {
        VerifyError::new(
            ErrorCode::InvalidArgument,
            format!("{}: {}", "headers", e.message),
        )
    }))
}

pub(super) fn scope_str(h: crate::client::Hints) -> &'static str {
    h.scope.as_str()
}

/// The most exact integer of a JavaScript number, `Number.MAX_SAFE_INTEGER`.
pub(super) const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// A `listingBudget` option: an integer from 1 to `Number.MAX_SAFE_INTEGER` (bytes).
pub(super) fn listing_budget(bytes: f64, a: Arg) -> Result<u64, JsValue> {
    if bytes.fract() != 0.0 || !(1.0..=MAX_SAFE_INTEGER).contains(&bytes) {
        return Err(a.with("listingBudget").error(
            ErrorCode::InvalidArgument,
            format_args!("must be an integer from 1 to 9007199254740991 (bytes), got {bytes}"),
        ));
    }
    // An integer within 2^53: exact.
    Ok(bytes as u64)
}
