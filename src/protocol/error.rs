//! Every error of the responder (a message it read and cannot answer with a result), as one
//! typed enum mapped to a JSON-RPC code, message, `data` and the HTTP status a transport should
//! use, in one place. A request refused by its transport before the responder reads it is a
//! [`super::Refusal`] instead; both are written by the one reply writer ([`super::reply`]).

use crate::skill::value::write_json_string;
use std::borrow::Cow;

/// Longest excerpt of a request value repeated in an error message.
pub(crate) const MAX_ECHO_CHARS: usize = 200;

/// `s`, or its first [`MAX_ECHO_CHARS`] characters followed by `…`.
pub(crate) fn clip(s: &str) -> Cow<'_, str> {
    match s.char_indices().nth(MAX_ECHO_CHARS) {
        None => Cow::Borrowed(s),
        Some((i, _)) => Cow::Owned(format!("{}…", &s[..i])),
    }
}

/// A JSON-RPC error this server sends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum RpcError {
    /// `-32700`: the message is not JSON. HTTP 400.
    Parse(String),
    /// `-32600`: JSON, but not a valid JSON-RPC request (batches included). HTTP 400.
    InvalidRequest(String),
    /// `-32601`: unknown, removed or not-advertised method. HTTP 404.
    MethodNotFound {
        /// The method asked for.
        method: String,
        /// Why, when there is more to say than "unknown".
        hint: Option<&'static str>,
    },
    /// `-32602` for a malformed request envelope (2026-07-28 `_meta` missing or wrong).
    /// HTTP 400.
    InvalidEnvelope(String),
    /// `-32602` for bad method parameters (missing `uri`, wrong types). HTTP 200.
    InvalidParams(String),
    /// `-32602`: an opaque cursor this server did not issue or no longer accepts. HTTP 200.
    InvalidCursor {
        /// Why it was refused.
        reason: &'static str,
    },
    /// `-32602`: no resource (file) at this URI. HTTP 200.
    ResourceNotFound {
        /// The URI asked for.
        uri: String,
        /// Extra explanation (e.g. "it is a directory").
        hint: Option<&'static str>,
    },
    /// `-32602`: `skills/get` for a URI that is not a served skill's `SKILL.md`. HTTP 200.
    SkillNotFound {
        /// The URI asked for.
        uri: String,
    },
    /// `-32602`: `resources/directory/read` on a URI that is not a directory. HTTP 200.
    NotADirectory {
        /// The URI asked for.
        uri: String,
        /// Whether the URI names a file (as opposed to nothing at all).
        is_file: bool,
    },
    /// `-32602`: `tools/call` or `prompts/get` of a name this server does not offer. HTTP 200.
    UnknownName {
        /// `tool` or `prompt`.
        kind: &'static str,
        /// The name asked for.
        name: String,
        /// What does exist.
        hint: &'static str,
    },
    /// `-32020`: HTTP headers missing or not matching the body. HTTP 400.
    HeaderMismatch(String),
    /// `-32603`: the bytes of a served file are not where the catalog says (an asset is
    /// missing, or has another length than the manifest). HTTP 500.
    AssetFault {
        /// The URI of the file.
        uri: String,
    },
    /// `-32603`: a record of the catalog's pack that the reply needs is damaged (a pack read
    /// by its shape only, which nothing checked record by record). HTTP 500.
    PackFault(String),
    /// `-32022`: the request's protocol version is not supported. HTTP 400.
    UnsupportedVersion {
        /// The version the request declared.
        requested: String,
        /// The versions that would be served.
        supported: &'static [&'static str],
    },
}

impl RpcError {
    /// The JSON-RPC error code.
    pub(crate) fn code(&self) -> i32 {
        match self {
            RpcError::Parse(_) => -32700,
            RpcError::InvalidRequest(_) => -32600,
            RpcError::MethodNotFound { .. } => -32601,
            RpcError::InvalidEnvelope(_)
            | RpcError::InvalidParams(_)
            | RpcError::InvalidCursor { .. }
            | RpcError::ResourceNotFound { .. }
            | RpcError::SkillNotFound { .. }
            | RpcError::NotADirectory { .. }
            | RpcError::UnknownName { .. } => -32602,
            RpcError::HeaderMismatch(_) => -32020,
            RpcError::AssetFault { .. } | RpcError::PackFault(_) => -32603,
            RpcError::UnsupportedVersion { .. } => -32022,
        }
    }

    /// The HTTP status a transport should answer with (Streamable HTTP, 2026-07-28):
    /// 400 for malformed messages, envelope errors, `-32020` and `-32022`; 404 for `-32601`;
    /// 500 for `-32603` (a fault of the server); 200 for every other JSON-RPC error.
    pub(crate) fn http_status(&self) -> u16 {
        match self {
            RpcError::Parse(_)
            | RpcError::InvalidRequest(_)
            | RpcError::InvalidEnvelope(_)
            | RpcError::HeaderMismatch(_)
            | RpcError::UnsupportedVersion { .. } => 400,
            RpcError::MethodNotFound { .. } => 404,
            RpcError::AssetFault { .. } | RpcError::PackFault(_) => 500,
            _ => 200,
        }
    }

    /// The human message. Values echoed from the request are clipped to
    /// [`MAX_ECHO_CHARS`] characters, so a hostile request cannot make the message large
    /// (`data` keeps the exact values).
    pub(crate) fn message(&self) -> String {
        let uri = |u: &str| clip(u).into_owned();
        match self {
            RpcError::Parse(m) => format!("Parse error: {m}"),
            RpcError::InvalidRequest(m) => format!("Invalid Request: {m}"),
            RpcError::MethodNotFound { method, hint } => match hint {
                Some(h) => format!("Method not found: {} ({h})", clip(method)),
                None => format!("Method not found: {}", clip(method)),
            },
            RpcError::InvalidEnvelope(m) | RpcError::InvalidParams(m) => {
                format!("Invalid params: {m}")
            }
            RpcError::InvalidCursor { reason } => format!("Invalid cursor: {reason}"),
            RpcError::ResourceNotFound { uri: u, hint } => match hint {
                Some(h) => format!("Resource not found: {} ({h})", uri(u)),
                None => format!("Resource not found: {}", uri(u)),
            },
            RpcError::SkillNotFound { uri: u } => format!("No skill is served at {}", uri(u)),
            RpcError::NotADirectory { uri: u, is_file } => {
                if *is_file {
                    format!("{} is not a directory resource", uri(u))
                } else {
                    format!("No directory resource at {}", uri(u))
                }
            }
            RpcError::UnknownName { kind, name, hint } => {
                format!("Unknown {kind}: {} ({hint})", clip(name))
            }
            RpcError::HeaderMismatch(m) => format!("Header mismatch: {m}"),
            RpcError::AssetFault { uri: u } => format!(
                "Internal error: the bytes of {} are missing or damaged on this server (its deployment is incomplete); nothing was served",
                uri(u)
            ),
            RpcError::PackFault(what) => format!(
                "Internal error: this server's catalog pack is damaged: {what}; nothing was served (rebuild the pack with skills-edge pack and deploy it again)"
            ),
            RpcError::UnsupportedVersion { requested, .. } => {
                format!("Unsupported protocol version: {}", clip(requested))
            }
        }
    }

    /// Writes the `error` object: `{"code":…,"message":…[,"data":…]}`.
    pub(crate) fn write_json(&self, out: &mut String) {
        out.push_str("{\"code\":");
        out.push_str(&self.code().to_string());
        out.push_str(",\"message\":");
        write_json_string(&self.message(), out);
        match self {
            RpcError::ResourceNotFound { uri, .. }
            | RpcError::SkillNotFound { uri }
            | RpcError::NotADirectory { uri, .. }
            | RpcError::AssetFault { uri } => {
                out.push_str(",\"data\":{\"uri\":");
                write_json_string(uri, out);
                out.push('}');
            }
            RpcError::UnknownName { name, .. } => {
                out.push_str(",\"data\":{\"name\":");
                write_json_string(name, out);
                out.push('}');
            }
            RpcError::MethodNotFound { method, .. } => {
                out.push_str(",\"data\":{\"method\":");
                write_json_string(method, out);
                out.push('}');
            }
            RpcError::UnsupportedVersion {
                requested,
                supported,
            } => {
                out.push_str(",\"data\":{\"supported\":[");
                for (i, v) in supported.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_json_string(v, out);
                }
                out.push_str("],\"requested\":");
                write_json_string(requested, out);
                out.push('}');
            }
            _ => {}
        }
        out.push('}');
    }
}
