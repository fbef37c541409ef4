//! JSON-RPC 2.0 and MCP wire basics: protocol versions, the one error type every failure
//! maps through, and the parsing of an incoming message's envelope.

pub mod envelope;
pub mod error;

pub use envelope::{parse_message, Incoming, Params, RawId};
pub use error::RpcError;

/// The protocol revision of the stateless, per-request `_meta` era.
pub const MODERN_VERSION: &str = "2026-07-28";

/// Revisions served with the 2026-07-28 rules (per-request `_meta`, `server/discover`).
/// This list is `supportedVersions` in `server/discover` and `data.supported` in `-32022`.
///
/// Legacy revisions are deliberately not listed: they are negotiated with `initialize`, not
/// per request, so naming them here would invite a client to send `_meta` with a version this
/// server can only speak through the handshake (spec notes §6, "Open question").
pub const MODERN_VERSIONS: &[&str] = &[MODERN_VERSION];

/// Revisions served with the legacy (`initialize`) rules, newest first. The first is what
/// `initialize` answers when the client asks for a version this server does not know.
pub const LEGACY_VERSIONS: &[&str] = &["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/// The `_meta` key carrying the protocol version of a request.
pub const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// The `_meta` key carrying the client's capabilities.
pub const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// The result `_meta` key carrying the server's identity.
pub const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
/// The Skills extension identifier.
pub const SKILLS_EXTENSION: &str = "io.modelcontextprotocol/skills";

/// Which rules a request is served under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// 2026-07-28: stateless, `_meta` on every request, `resultType` and cache hints.
    Modern,
    /// 2025-11-25 and earlier: `initialize` handshake (served statelessly here).
    Legacy,
}
