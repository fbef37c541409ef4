//! What answers a request: the endpoint over one pack, how the caller is known, and where
//! the pack's assets are read. The Worker's `platform` holds one for the embedded pack; the
//! `r2` module one per catalog of the bucket.

use skills_edge::catalog::Catalog;
use skills_edge::http::{AuthStep, Bearer, Endpoint, HostList, HttpConfig};
use skills_edge::settings::{self, Source};
use std::rc::Rc;
use std::sync::Arc;
use wasm_bindgen::prelude::*;

/// What the Worker serves: the endpoint over one pack and how the caller is known
/// (`AUTH_MODE`; its Protected Resource Metadata names the pack's scopes). A request takes
/// the current one when it arrives and keeps it to its end, so it is answered from exactly one
/// pack even when a catalog from R2 switches meanwhile (module `r2`).
pub(crate) struct Serving {
    pub(crate) endpoint: Endpoint,
    pub(crate) auth: AuthStep,
    /// The authentication step of `jwt` and `access` (shared with the key set's refresh,
    /// which may outlive the request).
    bearer: Option<Rc<Bearer>>,
    /// Where the bytes the pack leaves out are fetched (`fetch(url)` answering 200 with
    /// them): the `ASSETS` binding, or in r2 mode the catalog's assets in the bucket.
    pub(crate) assets: JsValue,
}

impl Serving {
    /// The authentication step of `jwt` and `access`.
    pub(crate) fn bearer(&self) -> Option<&Rc<Bearer>> {
        self.bearer.as_ref()
    }

    /// Whether the Worker runs behind `@cloudflare/workers-oauth-provider` (`AUTH_MODE`
    /// `provider`).
    pub(crate) fn behind_provider(&self) -> bool {
        matches!(self.auth, AuthStep::Provider)
    }
}

/// Reads a Worker var: strings as they are, other JSON values (numbers from
/// `wrangler.toml`) as their JSON text; `None` when unset.
pub(crate) fn read_var(env: &JsValue, name: &str) -> Option<String> {
    let v = js_sys::Reflect::get(env, &JsValue::from_str(name)).ok()?;
    if v.is_undefined() || v.is_null() {
        return None;
    }
    if let Some(s) = v.as_string() {
        return Some(s);
    }
    js_sys::JSON::stringify(&v).ok().and_then(|s| s.as_string())
}

/// The Worker's settings from `env`'s vars, checked.
fn settings_of(env: &JsValue) -> std::result::Result<(HttpConfig, AuthStep), String> {
    // `env` holds the Worker's bindings, secrets and other vars too: a name that is no setting
    // is theirs, unless it misspells one (see `settings::check_names`).
    let names: Vec<String> = js_sys::Object::keys(&js_sys::Object::from(env.clone()))
        .iter()
        .filter_map(|k| k.as_string())
        .collect();
    settings::worker_config(names.iter().map(String::as_str), |s| read_var(env, s.var))
        .map_err(|e| e.to_string())
}

/// The hosts `ALLOWED_HOSTS` lets in (r2 mode checks them before it picks a catalog).
pub(crate) fn allowed_hosts(env: &JsValue) -> std::result::Result<HostList, String> {
    settings_of(env).map(|(config, _)| config.allowed_hosts)
}

/// The endpoint serving `catalog` with the settings in `env`'s vars, its assets fetched from
/// `assets`.
pub(crate) fn serve(
    env: &JsValue,
    catalog: Catalog,
    assets: JsValue,
) -> std::result::Result<Serving, String> {
    let (config, auth) = settings_of(env)?;
    let auth = match auth {
        AuthStep::Bearer(b) => {
            let scopes = catalog
                .access_scopes()
                .into_iter()
                .map(str::to_owned)
                .collect();
            AuthStep::Bearer(b.with_scopes_supported(scopes))
        }
        other => other,
    };
    let endpoint = Endpoint::new(Arc::new(catalog), config)
        .map_err(|e| settings::named_for(Source::Var, e).to_string())?;
    let bearer = auth.bearer().cloned().map(Rc::new);
    Ok(Serving {
        endpoint,
        auth,
        bearer,
        assets,
    })
}
