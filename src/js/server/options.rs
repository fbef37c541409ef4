//! The options of `SkillsServer` and of each call: the settings table's values, the caller's
//! scopes.

use super::*;

#[derive(serde::Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub(super) struct JsServerOptions {
    page_size: Option<f64>,
    ttl_ms: Option<f64>,
    cache_scope: Option<String>,
    instructions: Option<String>,
    fallback: Option<String>,
    allowed_origins: Option<String>,
    allowed_hosts: Option<String>,
    max_body_bytes: Option<f64>,
    mirror: Option<String>,
    /// The authentication settings: read so that anything but `authMode: "none"` is refused
    /// naming the Worker, the only adapter that authenticates callers.
    auth_mode: Option<String>,
    auth_issuer: Option<String>,
    auth_audience: Option<String>,
    auth_jwks_url: Option<String>,
    auth_scopes_claim: Option<String>,
    auth_token_profile: Option<String>,
    /// Read as a value of its own (a nested object, checked field by field).
    #[serde(default, with = "serde_wasm_bindgen::preserve")]
    server_info: JsValue,
}

#[derive(serde::Deserialize)]
pub(super) struct JsServerInfo {
    name: String,
    version: String,
}

/// Every option of `SkillsServer`, read in one place: the endpoint's [`HttpConfig`] (the
/// responder's settings and the HTTP rules of `fetch`) and the bytes of `options.pack`, if any. `pack` is read on its own (its bytes are copied once, never
/// walked as an object); the other options through serde.
pub(super) fn server_config(options: &JsValue) -> Result<(HttpConfig, Option<Vec<u8>>), JsValue> {
    let a = arg("new SkillsServer", "options");
    let o: JsServerOptions = options_except(options, a, &["pack"])?;
    let pack = if options.is_undefined() || options.is_null() {
        None
    } else {
        let value = get(options, "pack", a)?;
        if value.is_undefined() {
            None
        } else {
            let p = a.with("options.pack");
            let bytes = bytes_of(&value, true, p)?.ok_or_else(|| {
                p.wrong(
                    "a Uint8Array or an ArrayBuffer (the bytes of a .pack file)",
                    &value,
                )
            })?;
            Some(bytes)
        }
    };
    // Every value goes through the one settings table (as text, JavaScript numbers in their
    // decimal form), so the ranges and the messages are those of the Worker and the command.
    let server_info = if o.server_info.is_undefined() {
        None
    } else {
        Some(record::<JsServerInfo>(
            &o.server_info,
            a.with("options.serverInfo"),
            &[],
        )?)
    };
    // The inspector page is the Worker's (this server has no static files): `inspector` is
    // not an option, and stays off.
    let config = settings::http_config(Source::Option, |s| match s.key {
        SettingKey::PageSize => o.page_size.map(|n| n.to_string()),
        SettingKey::TtlMs => o.ttl_ms.map(|n| n.to_string()),
        SettingKey::CacheScope => o.cache_scope.clone(),
        SettingKey::Instructions => o.instructions.clone(),
        SettingKey::Fallback => o.fallback.clone(),
        SettingKey::ServerName => server_info.as_ref().map(|i| i.name.clone()),
        SettingKey::ServerVersion => server_info.as_ref().map(|i| i.version.clone()),
        SettingKey::AllowedOrigins => o.allowed_origins.clone(),
        SettingKey::AllowedHosts => o.allowed_hosts.clone(),
        SettingKey::MaxBodyBytes => o.max_body_bytes.map(|n| n.to_string()),
        SettingKey::Mirror => o.mirror.clone(),
        SettingKey::Inspector => None,
        SettingKey::AuthMode => o.auth_mode.clone(),
        SettingKey::AuthIssuer => o.auth_issuer.clone(),
        SettingKey::AuthAudience => o.auth_audience.clone(),
        SettingKey::AuthJwksUrl => o.auth_jwks_url.clone(),
        SettingKey::AuthScopesClaim => o.auth_scopes_claim.clone(),
        SettingKey::AuthTokenProfile => o.auth_token_profile.clone(),
        // Not an option (`Setting::option` is empty): each request's scopes are given with
        // it (`SkillsServer::fetch`, `handleHttp`, …).
        SettingKey::Scopes => None,
    })
    .map_err(config_error)?;
    Ok((config, pack))
}

/// A configuration error as `new SkillsServer` throws it (`invalid-argument`), the setting
/// named as an option: the one mapping of [`ConfigError`] to this adapter's form.
pub(super) fn config_error(e: ConfigError) -> JsValue {
    let e = settings::named_for(Source::Option, e);
    crate::js::fail(ErrorCode::InvalidArgument, format!("new SkillsServer: {e}"))
}

/// The options of one call of `handle`, `handleText`, `handleHttp` or `fetch` (whose `own`
/// is read on its own): who the caller is.
#[derive(serde::Deserialize, Default)]
pub(super) struct JsCallOptions {
    #[serde(default, with = "serde_wasm_bindgen::preserve")]
    pub(super) scopes: JsValue,
}

/// What `options.scopes` accepts, as its errors say.
pub(super) const SCOPES_EXPECTED: &str = "an array of OAuth scope strings (`[\"billing\"]`) or a space-separated string (`\"billing review\"`): the scopes your host verified for this caller";

/// The scopes of `options.scopes`: an array of strings or a space-separated string (a token's
/// `scope` claim), `undefined` or `null` for none. Each must be an OAuth scope token (RFC 6749
/// §3.3), so a list joined into one item (`["billing review"]`) is refused rather than
/// matching nothing. The scopes are taken as verified: this server does not authenticate.
pub(super) fn scopes_of(value: &JsValue, a: Arg) -> Result<Vec<String>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(Vec::new());
    }
    let scopes: Vec<String> = if let Some(text) = value.as_string() {
        text.split_ascii_whitespace().map(str::to_owned).collect()
    } else if is_array(value) {
        let mut out = Vec::new();
        for (i, item) in array_items(value, a, SCOPES_EXPECTED)?.iter().enumerate() {
            let text = item.as_string().ok_or_else(|| {
                a.at(
                    i,
                    format_args!("must be a string (one scope), got {}", type_name(item)),
                )
            })?;
            out.push(text);
        }
        out
    } else {
        return Err(a.wrong(SCOPES_EXPECTED, value));
    };
    if let Some(bad) = scopes.iter().find(|s| !is_scope_token(s)) {
        return Err(a.error(
            ErrorCode::InvalidArgument,
            format_args!(
                "holds {:?}, which is not an OAuth scope token (RFC 6749 §3.3: printable ASCII without space, `\"` or `\\`): give each scope as an item of its own",
                crate::protocol::error::clip(bad)
            ),
        ));
    }
    Ok(scopes)
}

/// The grant of a caller of `handle`, `handleText` or `handleHttp` from the call's `options`
/// (`{ scopes }`; absent: an anonymous caller).
pub(super) fn call_grant(
    catalog: &Catalog,
    options: Option<JsValue>,
    a: Arg,
) -> Result<Grant, JsValue> {
    let options = options.unwrap_or(JsValue::UNDEFINED);
    let o: JsCallOptions = options_except(&options, a, &[])?;
    let scopes = scopes_of(&o.scopes, a.with("options.scopes"))?;
    Ok(catalog.grant(&scopes))
}
