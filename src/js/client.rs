//! `SkillsClientCore`: the skills client ([`crate::client`]) for the package's
//! `SkillsClient`, plus the `verify` command's run (its arguments: [`super::command`]).
//!
//! The core never does I/O. Every operation takes an `io` object from the JavaScript layer,
//! made per call (so it carries that call's `AbortSignal` and timeout):
//!
//! * over Streamable HTTP, `io.post(body, headers)` POSTs the body with the given headers (and
//!   the caller's own) and resolves to `{ status, contentType, sessionId, wwwAuthenticate,
//!   read }`, where `read()` resolves to the next `Uint8Array` of the body or `undefined` at its
//!   end; the io object's `url` (the endpoint) and `authorized` (whether the caller's headers
//!   carry `Authorization`) let a 401 be explained ([`crate::client::challenge`]);
//! * over an official SDK `Client`, `io.request(method, params)` resolves to the result object;
//! * either way, an optional `io.digest(bytes)` resolves to the SHA-256 of `bytes` in wire form
//!   from the platform (node:crypto, crypto.subtle), for fetched content of at least
//!   `io.digestThreshold` bytes that the verifier would otherwise hash in WebAssembly; the
//!   verifier still checks everything else and makes every decision, and any other outcome of
//!   the call (absent, thrown, rejected, not a wire digest) leaves the hashing to it.
//!
//! A rejection of either is read as a transport failure: its `code` (`connection-failed`,
//! `http-status`, `protocol-error`, `server-error`, `timeout`, `aborted`; anything else is
//! `connection-failed`), `message` and `actual`. Every promise the core returns rejects with a
//! `SkillsEdgeError`; arguments are checked before any promise is made.

use crate::host::SkillHost;
use std::cell::Cell;
use std::future::Future;
use std::rc::Rc;

use js_sys::{Array, Function, Promise, Reflect};
use serde::Serialize;
use serde_json::Value as Json;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{future_to_promise, JsFuture};

use super::command::verify_args;
use super::convert::{
    arg, array_items, bytes_of, content_fields, json_arg, json_array, json_array_text, json_text,
    json_value, option_record, options, options_with_host, skill_md_fields, string, to_js,
    type_name, Arg, JsonObject,
};
use super::host::{signer_json, summary_fields, summary_json, SignerOptionsJs, SIGNER_FIELDS};
use super::{js_error, throw};
use crate::client::http::{HttpIo, HttpRequest, HttpResponse, HttpSession, ResponseBody};
use crate::client::{
    bearer_header, check_headers, context_of, server_label_of_url, ClientInfo, EraChoice,
    ListedSkill, Rpc, ServerFacts, SkillsClient,
};
use crate::client::{ClientCode, ClientError, ExchangeKind, Result as ClientResult};
use crate::command::report::{self, Report};
use crate::command::verify::{after_mcp, output, trust_of, SignerFiles};
use crate::command::wellknown::run_well_known_with;
use crate::host::{ErrorCode, VerifyError};
use crate::protocol::{Era, LEGACY_VERSIONS, MODERN_VERSION};
use crate::skill::digest::is_wire_digest;

mod io;
mod shapes;
mod verify;
use io::*;
use shapes::*;
pub use verify::{run_verify_command, verify_well_known};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Not connected yet.
    None,
    /// Streamable HTTP through `io.post`.
    Http,
    /// An SDK client's `io.request`.
    Sdk,
}

struct Inner {
    client: SkillsClient,
    session: HttpSession,
    mode: Cell<Mode>,
    /// The OMS public keys of `trust` (its PEM items): `skill.oms.sig` is checked with them.
    oms_keys: Vec<crate::oms::OmsPublicKey>,
}

/// The host side of a skills client: the registry, the cache and the protocol, over the
/// `io` objects the package's `SkillsClient` makes (see the module documentation).
#[wasm_bindgen]
pub struct SkillsClientCore {
    inner: Rc<Inner>,
}

fn promise<F>(future: F) -> Promise
where
    F: Future<Output = Result<JsValue, JsValue>> + 'static,
{
    future_to_promise(future)
}

#[wasm_bindgen]
impl SkillsClientCore {
    /// A client core: `label` (the host's name for the server; default: its `origin`'s, see
    /// `client::server_label_of_url`; one of the two is required),
    /// `listingBudget` (the most result bytes one listing or walk may read, default 256 MiB),
    /// `allowDynamic`, `requireApproval`, `trust`, `trustOnFirstUse`, `pins` (as for
    /// `SkillHost`), `origin` (what the server's signer is pinned under, default the label),
    /// `clientName` and `clientVersion` (its `clientInfo`). Throws `invalid-argument`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "SkillsClientCoreOptions")] options: Option<
            JsValue,
        >,
    ) -> Result<SkillsClientCore, JsValue> {
        let a = arg("new SkillsClientCore", "options");
        let (o, host): (CoreOptions, _) =
            options_with_host(&options.unwrap_or(JsValue::UNDEFINED), a)?;
        let listing_budget = o.listing_budget.map(|b| listing_budget(b, a)).transpose()?;
        let mut signer_options = SignerOptionsJs {
            trust: o.trust,
            trust_on_first_use: o.trust_on_first_use,
            pins: o.pins,
            oms_read: false,
        };
        let oms_keys = signer_options.oms_keys(a)?;
        let signers = signer_options.signers(a)?;
        // The server's identity: the label given, else its origin's (the URL's origin for
        // `connect`; `wrap` needs one of them).
        let label = match (&o.label, &o.origin) {
            (Some(l), _) => l.clone(),
            (None, Some(origin)) => server_label_of_url(origin).unwrap_or_else(|| origin.clone()),
            (None, None) => {
                return Err(a.with("label").error(
                    ErrorCode::InvalidArgument,
                    "is required when no origin is given: the host's name for the server, its identity wherever its skills and approvals are kept (SkillsClient.connect uses the URL's origin)",
                ))
            }
        };
        let client = throw(SkillsClient::new(&label, host))?;
        if let Some(origin) = &o.origin {
            throw(client.set_origin(origin)).map_err(|_| {
                a.with("origin").error(
                    ErrorCode::InvalidArgument,
                    "must be 1 to 2048 bytes without control characters",
                )
            })?;
        }
        throw(client.host(|h, _| *h.signers_mut() = signers))?;
        if let Some(bytes) = listing_budget {
            throw(client.set_listing_budget(bytes))?;
        }
        let default = ClientInfo::default();
        let info = ClientInfo {
            name: o.client_name.unwrap_or(default.name),
            version: o.client_version.unwrap_or(default.version),
        };
        Ok(SkillsClientCore {
            inner: Rc::new(Inner {
                client,
                session: HttpSession::new(info),
                mode: Cell::new(Mode::None),
                oms_keys,
            }),
        })
    }

    /// Checks the caller's own request headers and makes them the authorization context of
    /// the cache (private results of another context are never reused). With `token` (a bearer
    /// token, RFC 6750 §2.1; `undefined` or `null`: none), `authorization: Bearer TOKEN` is
    /// added; `token` with an `authorization` header is refused. Returns them as `[name, value]`
    /// pairs with lowercase names. Throws `invalid-argument`, never repeating the token.
    #[wasm_bindgen(js_name = setHeaders, unchecked_return_type = "[string, string][]")]
    pub fn set_headers(
        &self,
        #[wasm_bindgen(unchecked_param_type = "[string, string][] | Record<string, string>")]
        headers: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "string")] token: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let a = arg("SkillsClientCore.setHeaders", "headers");
        let mut checked = headers_arg(&headers, a)?;
        if let Some(token) = token.filter(|t| !t.is_undefined() && !t.is_null()) {
            let t = a.with("token");
            let text = token.as_string().ok_or_else(|| {
                t.error(
                    ErrorCode::InvalidArgument,
                    "must be a string (not shown: it may be a credential)",
                )
            })?;
            if checked.iter().any(|(k, _)| k == "authorization") {
                return Err(t.error(
                    ErrorCode::InvalidArgument,
                    "and an authorization header are both given: use one of them",
                ));
            }
            checked.push(throw(bearer_header("token", &text))?);
        }
        throw(self.inner.client.set_context(&context_of(&checked)))?;
        let out = Array::new();
        for (k, v) in &checked {
            let pair = Array::new();
            pair.push(&JsValue::from_str(k));
            pair.push(&JsValue::from_str(v));
            out.push(&pair);
        }
        Ok(out.into())
    }

    /// Connects over Streamable HTTP through `io.post`: `era` is `auto` (2026-07-28, else
    /// 2025-11-25), `2026-07-28` or `2025-11-25`. Resolves to what the server says about
    /// itself.
    #[wasm_bindgen(unchecked_return_type = "Promise<ServerFacts>")]
    pub fn connect(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SkillsClientIo")] io: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] era: JsValue,
    ) -> Result<Promise, JsValue> {
        let a = arg("SkillsClientCore.connect", "io");
        let rpc = self.rpc(&io, a)?;
        let era = string(&era, a.with("era"))?;
        let choice = EraChoice::parse(&era).ok_or_else(|| {
            a.with("era").error(
                ErrorCode::InvalidArgument,
                format_args!("{era:?} is not auto, 2026-07-28 or 2025-11-25"),
            )
        })?;
        Ok(promise(async move {
            let inner = &rpc.inner;
            let facts = match inner.session.connect(&rpc.io, choice).await {
                Ok(f) => f,
                Err(e) => {
                    // The facts of an earlier connection describe no connection any more.
                    let _ = inner.client.clear_facts();
                    return throw(Err(e));
                }
            };
            throw(inner.client.set_facts(facts.clone()))?;
            inner.mode.set(Mode::Http);
            facts_js(&facts)
        }))
    }

    /// Uses an SDK client's connection (through `io.request`): `facts` is what it
    /// negotiated, `{ protocolVersion, capabilities, serverInfo?, instructions? }`.
    #[wasm_bindgen(unchecked_return_type = "ServerFacts")]
    pub fn attach(
        &self,
        #[wasm_bindgen(unchecked_param_type = "AttachedFacts")] facts: JsValue,
    ) -> Result<JsValue, JsValue> {
        let a = arg("SkillsClientCore.attach", "facts");
        let text = json_arg(&facts, a, ErrorCode::InvalidArgument, "an object", false)?;
        let v: Json = serde_json::from_str(&text).map_err(|e| {
            a.error(
                ErrorCode::InvalidArgument,
                format_args!("cannot be read: {e}"),
            )
        })?;
        let version = v
            .get("protocolVersion")
            .and_then(Json::as_str)
            .unwrap_or_default()
            .to_owned();
        let era = if version == MODERN_VERSION {
            Era::Modern
        } else if LEGACY_VERSIONS.contains(&version.as_str()) {
            Era::Legacy
        } else {
            return Err(a.error(
                ErrorCode::InvalidArgument,
                format_args!("has protocolVersion {version:?}, which this client does not speak"),
            ));
        };
        let mut f = ServerFacts::from_result(era, &version, &v);
        if era == Era::Modern {
            // The SDK hands serverInfo over directly.
            f.server_info = v.get("serverInfo").filter(|i| i.is_object()).cloned();
        }
        throw(self.inner.client.set_facts(f.clone()))?;
        self.inner.mode.set(Mode::Sdk);
        facts_js(&f)
    }

    /// What the connected server says about itself, or `undefined`.
    #[wasm_bindgen(unchecked_return_type = "ServerFacts | undefined")]
    pub fn facts(&self) -> Result<JsValue, JsValue> {
        match self.inner.client.facts() {
            Some(f) => facts_js(&f),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// Every page of `skills/list`, registered.
    #[wasm_bindgen(unchecked_return_type = "Promise<SkillListing>")]
    pub fn list(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SkillsClientIo")] io: JsValue,
    ) -> Result<Promise, JsValue> {
        let rpc = self.rpc(&io, arg("SkillsClientCore.list", "io"))?;
        Ok(promise(async move {
            let l = throw(rpc.client().list(&rpc).await)?;
            let skills = json_value(&json_array_text(l.skills.iter().map(listed_json)))?;
            to_js(&ListingJs {
                skills,
                rejected: l
                    .rejected
                    .iter()
                    .map(|r| RejectedJs {
                        index: r.index,
                        error: js_error(r.error.clone()),
                    })
                    .collect(),
                ttl_ms: l.hints.ttl_ms,
                cache_scope: scope_str(l.hints),
                pages: l.pages,
            })
        }))
    }

    /// `skills/get`, registered.
    #[wasm_bindgen(unchecked_return_type = "Promise<FetchedSkill>")]
    pub fn get(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SkillsClientIo")] io: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    ) -> Result<Promise, JsValue> {
        let a = arg("SkillsClientCore.get", "io");
        let rpc = self.rpc(&io, a)?;
        let uri = string(&uri, a.with("uri"))?;
        Ok(promise(async move {
            let g = throw(rpc.client().get(&rpc, &uri).await)?;
            to_js(&FetchedJs {
                skill: json_value(&listed_json(&g.skill))?,
                changed: g.outcome.changed,
                approval_revoked: g.outcome.approval_revoked,
                ttl_ms: g.hints.ttl_ms,
                cache_scope: scope_str(g.hints),
            })
        }))
    }

    /// Loads a skill: its verified `SKILL.md`, the acting window open.
    #[wasm_bindgen(unchecked_return_type = "Promise<ClientLoadedSkill>")]
    pub fn load(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SkillsClientIo")] io: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    ) -> Result<Promise, JsValue> {
        let a = arg("SkillsClientCore.load", "io");
        let rpc = self.rpc(&io, a)?;
        let uri = string(&uri, a.with("uri"))?;
        Ok(promise(async move {
            let l = throw(rpc.client().load(&rpc, &uri).await)?;
            // With OMS keys trusted, skill.oms.sig holds as `verify` requires, or the skill is
            // refused.
            let keys = &rpc.inner.oms_keys;
            throw(crate::command::oms::check_loaded(rpc.client(), &rpc, &uri, keys).await)?;
            // `ClientLoadedSkill`: a `LoadedSkill` and what the refresh did.
            let mut o = JsonObject::new();
            skill_md_fields(&mut o, &l.skill.skill_md);
            o.str("serverLabel", &l.skill.server_label);
            o.str("displayName", &l.skill.display_name);
            o.bool("refreshed", l.refreshed);
            o.bool("approvalRevoked", l.approval_revoked);
            o.into_js()
        }))
    }

    /// Reads a file of a loaded skill (only files its held entry lists), verified. After a
    /// refresh (the skill loaded again on a new entry), the OMS check of `load` runs again.
    #[wasm_bindgen(unchecked_return_type = "Promise<ClientReadFile>")]
    pub fn read(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SkillsClientIo")] io: JsValue,
        #[wasm_bindgen(js_name = skillUri, unchecked_param_type = "string")] skill_uri: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] reference: JsValue,
    ) -> Result<Promise, JsValue> {
        let a = arg("SkillsClientCore.read", "io");
        let rpc = self.rpc(&io, a)?;
        let skill_uri = string(&skill_uri, a.with("skillUri"))?;
        let reference = string(&reference, a.with("reference"))?;
        Ok(promise(async move {
            let r = throw(rpc.client().read(&rpc, &skill_uri, &reference).await)?;
            // A refresh loaded the skill again on a new entry: its OMS signature is checked as
            // `load` checks it, so a file is never served on an entry `load` would refuse.
            if r.refreshed {
                let keys = &rpc.inner.oms_keys;
                throw(
                    crate::command::oms::check_loaded(rpc.client(), &rpc, &skill_uri, keys).await,
                )?;
            }
            // `ClientReadFile`: a `ReadFile` and what the refresh did.
            let mut o = JsonObject::new();
            content_fields(&mut o, &r.file.content);
            o.str("serverLabel", &r.file.server_label);
            o.str("skillUri", &r.file.skill_uri);
            o.bool("refreshed", r.refreshed);
            o.bool("approvalRevoked", r.approval_revoked);
            o.into_js()
        }))
    }

    /// Every page of `resources/directory/read` for a directory URI.
    #[wasm_bindgen(js_name = readDirectory, unchecked_return_type = "Promise<DirectoryListing>")]
    pub fn read_directory(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SkillsClientIo")] io: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    ) -> Result<Promise, JsValue> {
        let a = arg("SkillsClientCore.readDirectory", "io");
        let rpc = self.rpc(&io, a)?;
        let uri = string(&uri, a.with("uri"))?;
        Ok(promise(async move {
            let d = throw(rpc.client().read_directory(&rpc, &uri).await)?;
            to_js(&DirectoryJs {
                uri: &d.uri,
                resources: d
                    .children
                    .iter()
                    .map(|c| ChildJs {
                        uri: &c.uri,
                        name: c.name.as_deref(),
                        mime_type: c.mime_type.as_deref(),
                        size: c.size,
                        directory: c.directory,
                        listed: c.listed,
                    })
                    .collect(),
                ttl_ms: d.hints.ttl_ms,
                cache_scope: scope_str(d.hints),
                pages: d.pages,
            })
        }))
    }

    /// Searches through the server's `search_skills` tool ([`crate::client::search`]):
    /// `query` a string, `tags` an array of strings or `undefined`, `limit` a positive integer
    /// or `undefined`. Resolves to the results, best first, each `{ uri, name, description,
    /// score }` with `uri` a `skill://` URI of a `SKILL.md` to load (and so verify). A server
    /// that does not offer the tool, or that refuses the arguments, rejects with
    /// `invalid-argument` (the tool's absence: `expected` the tool, `actual` what is offered).
    #[wasm_bindgen(unchecked_return_type = "Promise<SearchResult[]>")]
    pub fn search(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SkillsClientIo")] io: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] query: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string[] | undefined")] tags: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number | undefined")] limit: JsValue,
    ) -> Result<Promise, JsValue> {
        let a = arg("SkillsClientCore.search", "io");
        let rpc = self.rpc(&io, a)?;
        let query = string(&query, a.with("query"))?;
        let tags = if tags.is_undefined() {
            Vec::new()
        } else {
            let t = a.with("tags");
            array_items(&tags, t, "an array of strings")?
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    v.as_string().ok_or_else(|| {
                        t.error(
                            ErrorCode::InvalidArgument,
                            format_args!(
                                "must be an array of strings; item {i} is {}",
                                type_name(v)
                            ),
                        )
                    })
                })
                .collect::<Result<Vec<_>, _>>()?
        };
        let limit = if limit.is_undefined() {
            None
        } else {
            let n = limit
                .as_f64()
                .filter(|n| n.fract() == 0.0 && *n >= 1.0 && *n <= 9_007_199_254_740_991.0)
                .ok_or_else(|| a.with("limit").wrong("a positive integer", &limit))?;
            Some(n as u64)
        };
        Ok(promise(async move {
            let facts = rpc.client().facts();
            let server = rpc.client().label();
            let q = crate::client::search::SearchQuery { query, tags, limit };
            let hits =
                throw(crate::client::search::search(&rpc, facts.as_ref(), &server, &q).await)?;
            to_js(&hits)
        }))
    }

    /// The `verify` run over this client (every skill, or only `skill`): resolves to
    /// `{ skills, exitCode, table, summary, error?, protocolVersion? }`, where `skills` are the
    /// objects `skills-edge verify --json` prints and `url` labels the summary.
    #[wasm_bindgen(unchecked_return_type = "Promise<VerifyReport>")]
    pub fn verify(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SkillsClientIo")] io: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] url: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "string")] skill: Option<JsValue>,
    ) -> Result<Promise, JsValue> {
        let a = arg("SkillsClientCore.verify", "io");
        let rpc = self.rpc(&io, a)?;
        let url = string(&url, a.with("url"))?;
        let skill = match skill {
            Some(s) if !s.is_undefined() && !s.is_null() => Some(string(&s, a.with("skill"))?),
            _ => None,
        };
        Ok(promise(async move {
            let keys = &rpc.inner.oms_keys;
            let r = report::run_with_oms(rpc.client(), &rpc, skill.as_deref(), keys).await;
            // A dynamic skill passes only when the client accepts them (`allowDynamic`, as
            // its SkillHost does); a downgraded one never does.
            let allow_dynamic = rpc
                .client()
                .host(|h, _| h.options().allow_dynamic)
                .unwrap_or(false);
            report_js(&r, &url, allow_dynamic)
        }))
    }

    /// The skills registered so far (summaries with display names).
    #[wasm_bindgen(unchecked_return_type = "SkillSummary[]")]
    pub fn skills(&self) -> Result<JsValue, JsValue> {
        let rows = throw(self.inner.client.host(|h, l| {
            h.skills()
                .into_iter()
                .filter(|s| s.server_label == l)
                .collect::<Vec<_>>()
        }))?;
        json_value(&json_array_text(rows.iter().map(summary_json)))
    }

    /// The registered entry of a skill, or `undefined`.
    #[wasm_bindgen(unchecked_return_type = "SkillEntry | undefined")]
    pub fn entry(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    ) -> Result<JsValue, JsValue> {
        let uri = string(&uri, arg("SkillsClientCore.entry", "uri"))?;
        match throw(
            self.inner
                .client
                .host(|h, l| h.entry(l, &uri).map(|e| e.to_json())),
        )? {
            Some(j) => json_value(&j),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// Records the user's approval of a skill as its entry stands; returns the fingerprint.
    pub fn approve(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    ) -> Result<String, JsValue> {
        let uri = string(&uri, arg("SkillsClientCore.approve", "uri"))?;
        throw(throw(self.inner.client.host(|h, l| h.approve(l, &uri)))?)
    }

    /// Whether a stored approval matches the skill's current entry.
    #[wasm_bindgen(js_name = isApproved)]
    pub fn is_approved(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    ) -> Result<bool, JsValue> {
        self.on_skill("SkillsClientCore.isApproved", &uri, |h, l, u| {
            h.is_approved(l, u)
        })
    }

    /// Withdraws an approval; returns whether there was one.
    pub fn revoke(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    ) -> Result<bool, JsValue> {
        self.on_skill("SkillsClientCore.revoke", &uri, |h, l, u| h.revoke(l, u))
    }

    /// Whether an acting window is open for the skill.
    #[wasm_bindgen(js_name = isActive)]
    pub fn is_active(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    ) -> Result<bool, JsValue> {
        self.on_skill("SkillsClientCore.isActive", &uri, |h, l, u| {
            h.is_active(l, u)
        })
    }

    /// Closes the acting window; returns whether one was open.
    #[wasm_bindgen(js_name = closeWindow)]
    pub fn close_window(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    ) -> Result<bool, JsValue> {
        self.on_skill("SkillsClientCore.closeWindow", &uri, |h, l, u| {
            h.close_window(l, u)
        })
    }

    /// The signer verified for a registered skill, or `undefined`.
    #[wasm_bindgen(unchecked_return_type = "SignerInfo | undefined")]
    pub fn signer(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    ) -> Result<JsValue, JsValue> {
        let uri = string(&uri, arg("SkillsClientCore.signer", "uri"))?;
        let signer = throw(self.inner.client.host(|h, l| h.signer(l, &uri).cloned()))?;
        match &signer {
            Some(s) => json_value(&signer_json(s)),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// The origin the server's signer is pinned under.
    pub fn origin(&self) -> String {
        self.inner.client.origin()
    }

    /// The pins as JSON text (a `PinsExport`), for persisting.
    #[wasm_bindgen(js_name = exportPins)]
    pub fn export_pins(&self) -> Result<String, JsValue> {
        throw(self.inner.client.export_pins())
    }

    /// Restores exported pins (JSON text or the parsed object); returns how many were read.
    #[wasm_bindgen(js_name = importPins)]
    pub fn import_pins(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | PinsExport")] pins: JsValue,
    ) -> Result<u32, JsValue> {
        let text = json_arg(
            &pins,
            arg("SkillsClientCore.importPins", "pins"),
            ErrorCode::InvalidArgument,
            "JSON text or a PinsExport object",
            true,
        )?;
        let n = throw(self.inner.client.import_pins(&text))?;
        Ok(u32::try_from(n).unwrap_or(u32::MAX))
    }

    /// Accepts a change of the server's signer: the pin of its origin is dropped, and the next
    /// signature that holds pins it again (list or get the skills again). Returns whether there
    /// was a pin.
    #[wasm_bindgen(js_name = acceptSignerChange)]
    pub fn accept_signer_change(&self) -> Result<bool, JsValue> {
        throw(self.inner.client.accept_signer_change())
    }

    /// The stored approvals as JSON text, for persisting.
    #[wasm_bindgen(js_name = exportApprovals)]
    pub fn export_approvals(&self) -> Result<String, JsValue> {
        throw(self.inner.client.export_approvals())
    }

    /// Restores approvals exported by a client of the same server; returns how many were
    /// stored. An export with an approval of another server is refused (`invalid-argument`).
    #[wasm_bindgen(js_name = importApprovals)]
    pub fn import_approvals(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | ApprovalsExport")] approvals: JsValue,
    ) -> Result<u32, JsValue> {
        let text = json_arg(
            &approvals,
            arg("SkillsClientCore.importApprovals", "approvals"),
            ErrorCode::InvalidArgument,
            "JSON text or an ApprovalsExport object",
            true,
        )?;
        let n = throw(self.inner.client.import_approvals(&text))?;
        Ok(u32::try_from(n).unwrap_or(u32::MAX))
    }
}
