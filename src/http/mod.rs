//! Streamable HTTP rules (MCP 2026-07-28, with 2025-11-25 clients on the same endpoint) as
//! pure functions: no sockets, no platform types. An adapter (the Cloudflare Worker, a
//! `wasi:http` component, a test) does three things:
//!
//! 1. collects the request head into a [`Head`] and asks [`Endpoint::head`] what to do:
//!    answer at once (preflight, 403, 404, 405, 406, 413, 415) or read the body up to a limit;
//! 2. reads the body through a [`BodyReader`], which keeps at most `limit + 1` bytes, and
//!    hands it to [`Endpoint::body`], or calls [`Endpoint::body_too_large`] when the limit was
//!    crossed;
//! 3. writes the [`Response`] (status, headers, body) back.
//!
//! The rules, in the order they are applied:
//!
//! | check | outcome |
//! |---|---|
//! | `Origin` present and not allowed ([`HttpConfig::allowed_origins`]; with [`HttpConfig::inspector`], also allowed when it names the request's own `Host`) | 403, no CORS headers |
//! | `Host` not allowed ([`HttpConfig::allowed_hosts`], DNS-rebinding defence) | 403 |
//! | with [`HttpConfig::inspector`]: a path under `/inspector/` (or `/inspector`) | `GET`/`HEAD` of one of the page's files (the npm package's `inspectorFiles()`): [`Step::Page`] (the adapter sends its static file; 503 when it has none); `/inspector`: 308 to `/inspector/`; another file: 404; another method: 405 with `Allow: GET, HEAD` |
//! | path other than `/mcp` | 404 |
//! | `OPTIONS` | 204, the CORS preflight answer (no authentication) |
//! | method other than `POST` | 405 with `Allow: POST` |
//! | `Accept` not allowing both `application/json` and `text/event-stream` | 406 |
//! | `Content-Type` other than `application/json` | 415 |
//! | `Content-Length` above [`HttpConfig::max_body_bytes`] | 413, body not read |
//! | body longer than the limit (chunked uploads) | 413; nothing past `limit + 1` bytes is kept (the excess is read and dropped, up to 16 MiB, then cancelled) |
//! | the message | the responder's status: 202 without a body for notifications, 200 for results and most errors, 400 for malformed messages, `-32602` envelope errors, `-32020` and `-32022`, 404 for `-32601` |
//!
//! Every refusal is a [`crate::protocol::Refusal`] with a JSON-RPC error body
//! (`{"jsonrpc":"2.0","error":{…}}`, without `id` when the request's id is unknown), and so is
//! every error of `/mcp`. The mirror's own answers are plain HTTP for agents that do not speak
//! MCP: a path under its prefix that names no file is a 404, and a missing asset a 500, each
//! with a `text/plain` body (module `well_known`). Every answer of the mirror is inert in a
//! browser, its preflights and refusals included: `X-Content-Type-Options: nosniff`,
//! `Content-Security-Policy: default-src 'none'; sandbox`, `Content-Disposition: attachment` for a file of a type a browser would run or
//! render as a page (everything but plain text, JSON and raster images), and
//! `Cross-Origin-Resource-Policy: same-origin` for an answer made for a caller's grant
//! (`cross-origin` otherwise). A mirror request a browser sends from a page of another
//! origin outside CORS ([`Head::from_another_origin`]: `Sec-Fetch-Site` anything but exactly
//! one `same-origin` or `none`, not a `cors` request with an `Origin`) is answered with the
//! public grant,
//! whatever grant the adapter gives: such a grant came with the browser (a cookie), not from
//! the page. An answer of `/mcp` made for a grant (in a catalog with private skills) is
//! `Cache-Control: private` and `Cross-Origin-Resource-Policy: same-origin`, as the mirror's
//! are. Every response carries `Vary: Origin`;
//! a request from an allowed origin gets `Access-Control-Allow-Origin` echoing it on every
//! response, errors included. No session id is ever minted or required.
//!
//! ```
//! use skills_edge::catalog::Grant;
//! use skills_edge::http::{Endpoint, Head, HttpConfig, Step};
//! let endpoint = Endpoint::new(skills_edge::embedded::catalog().unwrap(), HttpConfig::default()).unwrap();
//! let head = Head {
//!     method: "POST",
//!     path: "/mcp",
//!     host: Some("127.0.0.1:8787"),
//!     accept: Some("application/json, text/event-stream"),
//!     content_type: Some("application/json"),
//!     protocol_version: Some("2026-07-28"),
//!     mcp_method: Some("skills/list"),
//!     ..Head::default()
//! };
//! let Step::ReadBody { limit } = endpoint.head(&head, Grant::PUBLIC) else { panic!() };
//! assert_eq!(limit, 1 << 20);
//! let response = endpoint.body(&head, br#"{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{"_meta":{
//!     "io.modelcontextprotocol/protocolVersion":"2026-07-28",
//!     "io.modelcontextprotocol/clientCapabilities":{}}}}"#, Grant::PUBLIC);
//! assert_eq!(response.status, 200);
//! assert_eq!(response.header("content-type"), Some("application/json"));
//! ```

//!
//! | module (private) | what it is | public as |
//! |---|---|---|
//! | `origin` | the `Origin` and `Host` allow-lists | [`OriginList`], [`HostList`] |
//! | `head` | the request head; `Accept` and `Content-Type` matching | [`Head`] |
//! | `body` | reading a body within a limit | [`BodyReader`] |
//! | `response` | the response an adapter writes back, and an asset spliced into it | [`Response`] |
//! | `endpoint` | the endpoint: configuration, responder, the decision on each request | [`Endpoint`], [`HttpConfig`], [`Step`] |
//! | `well_known` | the routes under `/.well-known/agent-skills/`, which serve the catalog's mirror | (through [`Endpoint`]) |
//! | `bearer` | the authentication step in front of the endpoint (`AUTH_MODE`): the Protected Resource Metadata, the token's gate, the 401 and 503 answers | [`Bearer`], [`Gate`], [`AuthStep`] |
//! | `tokens` | the token path of `jwt` and `access`, sans-I/O: the key set, the tokens already verified, the refreshes and the signatures left to the platform | [`Authenticator`], [`TokenCheck`], [`TokenStep`], [`TokenOutcome`], [`KeyFetch`], [`PendingSignature`]; the refusals [`TokenError`] and [`KeySetError`] |
//! | `auth_settings` | the authentication settings (`AUTH_MODE`, `AUTH_TOKEN_PROFILE`, …) and the check that none is given without a token mode | [`BearerConfig`], [`AuthMode`], [`TokenProfile`] |
//!
//! Every public item is named once, here: what an adapter needs to drive the endpoint. The
//! configuration comes from the settings table, [`crate::settings`].

mod auth_settings;
mod bearer;
mod body;
mod endpoint;
mod head;
mod origin;
mod response;
mod tokens;
mod well_known;

pub use auth_settings::{AuthMode, BearerConfig, TokenProfile};
pub use bearer::{AuthStep, Bearer, Gate};
internal_use!(bearer::KeySource);
pub use crate::auth::{KeySetError, TokenError};
pub use body::BodyReader;
#[cfg(feature = "js")]
pub(crate) use endpoint::INSPECTOR_FILES;
pub use endpoint::{Endpoint, HttpConfig, Step};
pub use head::Head;
pub use origin::{AllowListError, HostList, HostPattern, OriginList, OriginPattern, PortPattern};
pub(crate) use origin::{DEFAULT_ALLOWED_HOSTS, DEFAULT_ALLOWED_ORIGINS};
pub use response::Response;
pub use tokens::{Authenticator, KeyFetch, PendingSignature, TokenCheck, TokenOutcome, TokenStep};

internal_use!(bearer::PRM_MCP_PATH);
internal_use!(body::MAX_MAX_BODY_BYTES);
internal_use!(endpoint::{ENDPOINT_PATH, INSPECTOR_PREFIX});
