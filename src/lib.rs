//! # skills-edge
//!
//! Serve and verify [Agent Skills](https://agentskills.io) over MCP
//! (`io.modelcontextprotocol/skills`, SEP-2640, on protocol revision 2026-07-28 and the legacy
//! 2025-11-25) from anywhere WebAssembly runs.
//!
//! The map of the crate:
//!
//! | module | what it is |
//! |---|---|
//! | [`catalog`] | a catalog: compiled from a skills folder ([`catalog::Catalog::compile`]) or loaded from a pack, looked up by URI; what the adapters use of the compiler, the pack format, releases and signatures. The catalog modules behind it (the rules of one skill, the compiler, the pack format, the strict JSON reader, signatures, search) are crate-private, and compiled into `build.rs` too |
//! | `build_script` | the body of a build script that embeds a skills folder (native targets only) |
//! | [`protocol`] | JSON-RPC envelope parsing, protocol versions, the responder's errors (`RpcError`), the transport's refusals (`Refusal`) and the one writer of replies |
//! | [`server`] | the sans-I/O responder: message bytes + transport facts → reply bytes + HTTP status |
//! | [`http`] | Streamable HTTP rules as pure functions (headers, Origin/Host, CORS, status codes), shared by the Worker and the component |
//! | `auth` | crate-private: bearer token validation for private catalogs (RFC 9068 JWT access tokens, the Cloudflare Access preset): token and key set parsing, the validator, the key and token caches, discovery; no I/O, no clock. Adapters drive it through [`http::Authenticator`] |
//! | [`settings`] | the one table of settings: Worker vars, environment variables, command-line flags, npm options, WIT config |
//! | [`host`] | the rules a host applies to what a server sent (entries, sizes, digests, frontmatter, references, approvals, the `SkillHost` registry); no I/O, no clock |
//! | [`client`] | the connected client over the host rules: pages, cache, refresh, Streamable HTTP and event-stream replies, over a transport the caller supplies |
//! | `command` | the `skills-edge` command without its I/O: its arguments and usage, the `check`/`pack` run, `publish`/`gc`, the `verify` run and its report, shared by the native command (crate `skills-edge-cli`) and the npm package's; feature `command` (off by default) |
//! | `js` | wasm-bindgen exports for the npm package (feature `js`; feature `web-verifier` alone builds only its host part, the exports of the package's small `skills-edge/verifier` module): they read JavaScript arguments and shape results and thrown errors; every rule they apply is another module's |
//! | `embedded` | the catalog `build.rs` compiled from `skills/` (or `SKILLS_DIR`); feature `embedded` (on by default) |
//!
//! ```
//! use skills_edge::server::{Config, Grant, Responder, Transport};
//! let responder = Responder::new(skills_edge::embedded::catalog().unwrap(), Config::default()).unwrap();
//! let reply = responder.respond(
//!     br#"{"jsonrpc":"2.0","id":1,"method":"skills/get","params":{"uri":"skill://code-review/SKILL.md",
//!         "_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",
//!                  "io.modelcontextprotocol/clientCapabilities":{}}}}"#,
//!     &Transport::Stream,
//!     Grant::PUBLIC,
//! );
//! assert_eq!(reply.status, 200);
//! assert!(reply.body_str().contains("sha256:d2489d6c182e8df9c178563ff9f2eac7998a0c1bb1278c52a7fd5306e4259160"));
//! ```

#![warn(missing_docs)]
#![warn(unnameable_types)]

/// A `pub use` of items that are not part of the API: public with the feature `internals`,
/// which only this repository's tests, benches and fuzz targets turn on, crate-private
/// otherwise. The items keep their doc comments; no semver promise covers them.
macro_rules! internal_use {
    ($($tree:tt)*) => {
        #[cfg(feature = "internals")]
        pub use $($tree)*;
        #[cfg(not(feature = "internals"))]
        #[allow(unused_imports)]
        pub(crate) use $($tree)*;
    };
}

/// Modules that are not part of the API, as [`internal_use`] makes items: public with the
/// feature `internals`, crate-private otherwise. What the API needs of them is re-exported.
/// A leading `#![…]` applies to every module, a `#[…]` before a name to that one.
macro_rules! internal_mod {
    (#![$all:meta] $($(#[$attr:meta])* $name:ident),* $(,)?) => { $(
        $(#[$attr])*
        #[$all]
        #[cfg(feature = "internals")]
        pub mod $name;
        $(#[$attr])*
        #[$all]
        #[cfg(not(feature = "internals"))]
        pub(crate) mod $name;
    )* };
    ($($(#[$attr:meta])* $name:ident),* $(,)?) => {
        internal_mod!(#![cfg(all())] $($(#[$attr])* $name),*);
    };
}

internal_mod!(auth);
mod base64;
pub mod client;
#[cfg(feature = "command")]
pub mod command;
#[cfg(feature = "embedded")]
pub mod embedded;
pub mod host;
pub mod http;
#[cfg(feature = "web-verifier")]
pub mod js;
pub mod protocol;
pub mod server;
pub mod settings;

#[macro_use]
mod refused;

// The catalog modules: the rules of one skill, the compiler, the pack format and its reader,
// the strict JSON reader, signatures, search. `build.rs` compiles them too (by path), so the
// embedded catalog is built by this code; they import nothing else of the crate.
// What the API needs of them is re-exported by `catalog`.
#[cfg(not(target_family = "wasm"))]
pub mod build_script;
// Dead code among them is found in the npm package's build (feature `js`, with `command`),
// where each has its users.
internal_mod!(
    #![cfg_attr(not(feature = "js"), allow(dead_code, unused_imports))]
    access,
    compile,
    diag,
    json,
    oms,
    options,
    pack,
    release,
    search,
    sign,
    skill,
    view,
    #[cfg(not(target_family = "wasm"))]
    walk,
);

// The verifier module (`skills-edge/verifier`: `web-verifier` without `js`, single-threaded
// wasm) allocates with Talc instead of the standard library's dlmalloc: the same allocations,
// in about 5 KB less code. The main module and every other build keep the standard allocator.
#[cfg(all(
    feature = "web-verifier",
    not(feature = "js"),
    target_family = "wasm",
    not(target_feature = "atomics")
))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// Declares a module of [`catalog`] that re-exports the API items of a catalog module: those
/// listed, or every item with the feature `internals` (the repository's tests, benches and
/// fuzz targets).
macro_rules! api_mod {
    ($(#[$attr:meta])* $name:ident: $($item:ident),* $(,)?) => {
        $(#[$attr])*
        pub mod $name {
            #[cfg(feature = "internals")]
            pub use crate::$name::*;
            #[cfg(not(feature = "internals"))]
            pub use crate::$name::{$($item),*};
        }
    };
}

/// Catalogs: compile a skills folder (build time), the pack format, and look things up by URI
/// (run time).
pub mod catalog {
    pub use crate::access::Grant;
    pub use crate::pack::PackError;
    pub use crate::skill::digest::digest_of;
    pub use crate::view::{Catalog, CatalogError, Content, FileView, SkillView, Spliced};
    internal_use!(crate::access::Audience);
    internal_use!(crate::view::{
        ArchiveView, DirView, FallbackView, Merged, SignatureView, SkillFallback,
    });
    internal_use!(crate::{access, oms, options});

    api_mod! {
        /// The compiler's input: a skills folder's files ([`Catalog::compile`]).
        compile: SourceFile, SourceTree
    }
    api_mod! {
        /// The compiler's findings ([`CatalogError::Compile`]): rule ids, paths, lines, fixes.
        diag: CompileError, Diagnostic, Rule, SdkRule, Severity, Unreadable
    }
    api_mod! {
        /// The strict JSON reader (RFC 8259, what `serde_json` accepts) into a borrowed tree.
        json: parse, Error, Json, Node
    }
    api_mod! {
        /// Why a pack was refused.
        pack: PackError, PackErrorKind
    }
    api_mod! {
        /// Releases: a pack published to R2 under a signed pointer.
        release: check_catalog_id, keys, parse_history, parse_trust, HistoryEntry, Release, ReleaseError, ReleaseErrorKind, DEFAULT_CATALOG
    }
    api_mod! {
        /// Search over a catalog ([`Catalog::search`], for the caller's grant).
        search: Hit, SearchError, SearchErrorKind
    }
    api_mod! {
        /// Signed skills: keys, the in-toto statement of a skill's files, DSSE envelopes.
        sign: PublicKey, SignatureError, SignatureFault
    }
    api_mod! {
        /// Reading a skills folder from disk (native targets only).
        #[cfg(not(target_family = "wasm"))]
        walk: walk, Walked
    }
}
