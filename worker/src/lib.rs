//! The Cloudflare Worker adapter: Streamable HTTP at `/mcp` (and the
//! `/.well-known/agent-skills/` mirror), serving a skills pack whose large files are Workers
//! Static Assets.
//!
//! It only moves bytes between the platform and [`skills_edge::http::Endpoint`], where every
//! HTTP rule lives (and is tested natively):
//!
//! 1. `configure(env, pack)` runs once when the Worker starts (from `worker/entry.mjs`, which
//!    imports the pack `scripts/build-worker.sh` wrote as a Data module): it loads the pack
//!    (checking it), reads the Worker vars (the settings table, `skills_edge::settings`) and
//!    throws on a bad pack or value, so the Worker fails to start instead of failing each
//!    request;
//! 2. `fetch` collects the request head and asks the endpoint what to do. To answer at once,
//!    it writes the endpoint's response back. To read a body with a `Content-Length` (already
//!    checked against the limit), it parks the head in a slot and returns the promise of
//!    `request.arrayBuffer().then(finish)`, where `finish` is one long-lived function: no
//!    future, waker or closure is made per request, which saves about 20 µs of CPU per
//!    request (see `benches/worker`). A chunked body is read chunk by chunk through a
//!    `BodyReader` in the async handler.
//! 3. A response whose middle is an asset (bytes the pack left out: a `resources/read` at
//!    `/mcp`, a file or an archive of the mirror) is finished in JavaScript, by `splice`: it
//!    fetches the asset from the `ASSETS` binding, buffers it and compares its length with the
//!    one the pack recorded *before* anything is sent (the binding gives no `Content-Length`
//!    to rely on), then answers the endpoint's head, the asset and its tail as one `Blob`, so the
//!    asset's bytes never pass through wasm memory. A missing asset (404), a failed fetch or a
//!    length mismatch answers the endpoint's fault instead (`-32603` naming the URI, status
//!    500; a 500 in the mirror) and logs the reason: wrong bytes are never served, and no
//!    byte is hashed per request.
//!
//! With `AUTH_MODE` `jwt` or `access` (module `auth`, over [`skills_edge::http::Bearer`]),
//! `fetch` first asks the authentication step: the Protected Resource Metadata is answered
//! there, a request with a token has it validated (the key set fetched when the key cache
//! says so, ES256 and RS256 through WebCrypto, Ed25519 in Rust) and gets 401 or 503 when it
//! fails, and the token's scopes become the caller's grant (`Catalog::grant`), which travels
//! with the request to the endpoint (`Endpoint::head`, `Endpoint::body`): the catalog's
//! access rules decide what it sees, on every surface (docs/private.md). An anonymous caller
//! has the public grant; an all-private catalog challenges it on `/mcp`
//! (`Bearer::needs_token`).
//!
//! With `AUTH_MODE` `provider`, the Worker is mounted behind `@cloudflare/workers-oauth-provider`
//! (`OAuthProvider`'s `apiHandler`, or an `OAuthResourceServer`'s `handler`), which validates
//! the token, answers 401 and publishes the Protected Resource Metadata before the Worker is
//! called: `fetch` does no token work and takes the caller's scopes from the `ctx.auth.scope`
//! the host sets (an array of strings; anything else, or no `ctx.auth`, is an anonymous caller
//! with the public grant), then goes on as above with `Catalog::grant`.
//!
//! With `INSPECTOR=on`, the files of the skills inspector page (`/inspector/…`, decided by the
//! endpoint) are the Worker's static assets under `inspector/` (`env.ASSETS`; see
//! `scripts/build-worker.sh`), sent with the endpoint's headers.
//!
//! The handler takes and returns the platform's own `Request` and `Response` (the `worker`
//! crate's event macro accepts both, and the runtime awaits a returned promise), so a request
//! costs a handful of calls into JavaScript.
//!
//! With `CATALOG_SOURCE = "r2"` (module `r2`), `configure` reads the bucket's settings instead
//! of loading `pack`, and each request is answered by the current pack of its catalog
//! (`CATALOGS` picks one by Host), which a refresh swaps only after the release naming it and
//! the pack itself passed every check (docs/serving.md, "Update skills without redeploying").
//! What answers a request, in both modes, is a `serving::Serving`, taken when the request
//! arrives and kept to its end.
//!
//! The parking ring of step 2 (module `parking`) and how `CATALOGS` picks a catalog by host
//! (module `hosts`) are pure code tested on the host (`cargo test -p skills-edge-worker`); the
//! rest, in `platform`, exists only on wasm32 (on the host the crate is otherwise empty).

#[cfg(target_arch = "wasm32")]
mod auth;
#[cfg(any(target_arch = "wasm32", test))]
mod hosts;
#[cfg(any(target_arch = "wasm32", test))]
mod parking;
#[cfg(target_arch = "wasm32")]
mod platform;
#[cfg(target_arch = "wasm32")]
mod r2;
#[cfg(target_arch = "wasm32")]
mod serving;
