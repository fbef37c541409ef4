//! Reading the index of a well-known skills source, `/.well-known/agent-skills/index.json`
//! (Agent Skills Discovery RFC v0.2.0, §Discovery Index, §URL Resolution, §Backward
//! Compatibility), without I/O.
//!
//! * `$schema` is matched as an opaque string: [`SCHEMA_V0_2_0`] is read as v0.2.0; an index
//!   without `$schema` is read as v0.1.0 (each skill's `files` a list of path strings, served
//!   at `{index directory}/{name}/{path}`, no digests); any other value is refused with
//!   `unknown-schema` and the index is not read (the RFC's "warn and do not process").
//! * Fields this reader does not know are ignored, at every level.
//! * Each skill entry is checked on its own, so one bad entry does not hide the others: `name`
//!   by the Agent Skills rules (the compiler's [`check_name`]), unique in the index;
//!   `description` a string of 1–1024 characters; `type` `"skill-md"` or `"archive"` (any
//!   other type is refused for this entry: the RFC lets clients skip it, a verifier reports
//!   it); `url` a string resolved against the index URL per RFC 3986 §5 ([`resolve_url`]) to
//!   an `http`/`https` URL; `digest` `sha256:` and 64 lowercase hex digits.
//! * A skill's signature: this project's mirror names each signed skill's DSSE envelope in the
//!   entry's `_meta` under [`DSSE_META_KEY`], a URL (path-absolute as served) resolved like
//!   `url` ([`IndexSkill::envelope`]); a value that is not a string resolving to an
//!   `http`/`https` URL rejects the entry. `null` or no such key: unsigned. The signing keys'
//!   JWK Set is named by the index's top-level `_meta` under [`KEYS_META_KEY`] ([`Index::keys`]),
//!   else looked for at [`KEYS_PATH`] of the index's origin.
//!
//! An index that is not a JSON object with a `skills` array is [`IndexError::NotAnIndex`]
//! (nothing can be read; the client reports it as `protocol-error`); a bad entry is
//! `invalid-entry`, naming the entry and the field.


// The index document's reader is the command's (`verify` of a well-known source, also run by
// the npm package); the URL rules are every host's. A build without the command (the Worker)
// compiles the reader unused.
#![cfg_attr(not(any(feature = "command", feature = "internals")), allow(dead_code))]
use serde_json::Value as Json;

use super::error::{ErrorCode, Result, VerifyError};
use crate::compile::mirror::{INDEX_PATH, KEYS_META_KEY, KEYS_PATH};
use crate::skill::digest::is_wire_digest;
use crate::skill::limits::MAX_DESCRIPTION_CHARS;
use crate::skill::name::check_name;
use crate::skill::uri::{check_segment, is_scheme};
use crate::sign::DSSE_META_KEY;

/// The `$schema` of a v0.2.0 index.
pub const SCHEMA_V0_2_0: &str = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";

/// Whether `url` names a well-known index: its path (before any `?` query) ends with
/// [`INDEX_PATH`]. The command and `SkillsClient.verifyWellKnown` decide it here.
///
/// ```
/// use skills_edge::host::index::is_index_url;
/// assert!(is_index_url("https://h/.well-known/agent-skills/index.json?v=2"));
/// assert!(!is_index_url("https://h/mcp"));
/// ```
pub fn is_index_url(url: &str) -> bool {
    url.split('?')
        .next()
        .is_some_and(|p| p.ends_with(INDEX_PATH))
}

/// Most skill entries read from one index.
pub(crate) const MAX_INDEX_SKILLS: usize = 4096;

/// Which rules the index was read by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexVersion {
    /// No `$schema`: `files` lists paths, nothing carries a digest.
    V0_1_0,
    /// `$schema` is [`SCHEMA_V0_2_0`]: one artifact per skill, with its digest.
    V0_2_0,
}

impl IndexVersion {
    /// `0.1.0` or `0.2.0`.
    #[cfg(feature = "internals")]
    pub fn as_str(self) -> &'static str {
        match self {
            IndexVersion::V0_1_0 => "0.1.0",
            IndexVersion::V0_2_0 => "0.2.0",
        }
    }
}

/// What a skill entry points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Artifact {
    /// `type: "skill-md"`: the `SKILL.md` itself.
    SkillMd {
        /// The resolved URL.
        url: String,
        /// `sha256:…` of the file's bytes.
        digest: String,
    },
    /// `type: "archive"`: a `.tar.gz` or `.zip` of the skill directory.
    Archive {
        /// The resolved URL.
        url: String,
        /// `sha256:…` of the archive's bytes.
        digest: String,
    },
    /// A v0.1.0 entry: the files, each by path and resolved URL, without digests.
    Files(Vec<(String, String)>),
}

/// A readable skill entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexSkill {
    /// Its position in `skills`.
    pub index: usize,
    /// `name`.
    pub name: String,
    /// `description`.
    pub description: String,
    /// Where its content is.
    pub artifact: Artifact,
    /// Where its signature is: the DSSE envelope's URL, from the entry's `_meta`
    /// ([`DSSE_META_KEY`]), resolved against the index URL; `None`: unsigned.
    pub envelope: Option<String>,
}

/// An entry that cannot be read, with why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RejectedEntry {
    /// Its position in `skills`.
    pub index: usize,
    /// Its `name`, when it is a string.
    pub name: Option<String>,
    /// Why (`invalid-entry`).
    pub error: VerifyError,
}

/// A read index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Index {
    /// The rules it was read by.
    pub version: IndexVersion,
    /// Every entry, in index order.
    pub skills: Vec<std::result::Result<IndexSkill, RejectedEntry>>,
    /// The URL of the source's JWK Set of signing keys: the index's top-level `_meta`
    /// [`KEYS_META_KEY`] resolved against the index URL when it is a string that resolves to
    /// an `http`/`https` URL, else [`KEYS_PATH`] of the index's origin.
    pub keys: String,
}

/// Why an index was not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IndexError {
    /// The document is not an index at all (not JSON, not an object, no `skills` array, more
    /// skills than `MAX_INDEX_SKILLS`): the source did not answer with what the protocol
    /// prescribes, a failure of the exchange rather than of a rule (the client reports it as
    /// `protocol-error`).
    NotAnIndex {
        /// The index URL.
        url: String,
        /// What is wrong, in a sentence.
        message: String,
    },
    /// An index the rules refuse to read: an unknown `$schema` (`unknown-schema`).
    Refused(VerifyError),
}

fn not_an_index(url: &str, what: impl Into<String>) -> IndexError {
    IndexError::NotAnIndex {
        url: url.to_owned(),
        message: format!("the index {url} {}", what.into()),
    }
}

/// Reads an index fetched from `index_url` (see the module documentation).
///
/// ```
/// use skills_edge::host::index::{parse_index, Artifact, IndexVersion};
/// let body = br#"{"$schema":"https://schemas.agentskills.io/discovery/0.2.0/schema.json","skills":[
///   {"name":"a","type":"skill-md","description":"A.","url":"a/SKILL.md","x":1,
///    "digest":"sha256:0000000000000000000000000000000000000000000000000000000000000000"}]}"#;
/// let index = parse_index("https://h/.well-known/agent-skills/index.json", body).unwrap();
/// assert_eq!(index.version, IndexVersion::V0_2_0);
/// let skill = index.skills[0].as_ref().unwrap();
/// assert!(matches!(&skill.artifact, Artifact::SkillMd { url, .. }
///     if url == "https://h/.well-known/agent-skills/a/SKILL.md"));
/// ```
pub fn parse_index(index_url: &str, body: &[u8]) -> Result<Index, IndexError> {
    let json: Json = serde_json::from_slice(body)
        .map_err(|e| not_an_index(index_url, format!("is not JSON ({e})")))?;
    let Some(top) = json.as_object() else {
        return Err(not_an_index(index_url, "is not a JSON object"));
    };
    let version = match top.get("$schema") {
        None => IndexVersion::V0_1_0,
        Some(Json::String(s)) if s == SCHEMA_V0_2_0 => IndexVersion::V0_2_0,
        Some(other) => {
            return Err(IndexError::Refused(VerifyError::new(
                ErrorCode::UnknownSchema,
                format!(
                    "the index {index_url} declares $schema {other}, which this reader does not know (it reads {SCHEMA_V0_2_0} and, without $schema, v0.1.0); it was not read"
                ),
            )
            .with_uri(index_url)
            .with_values(SCHEMA_V0_2_0, other.to_string())))
        }
    };
    let Some(list) = top.get("skills").and_then(Json::as_array) else {
        return Err(not_an_index(index_url, "has no `skills` array"));
    };
    if list.len() > MAX_INDEX_SKILLS {
        return Err(not_an_index(
            index_url,
            format!(
                "lists {} skills, more than the {MAX_INDEX_SKILLS} this reader reads",
                list.len()
            ),
        ));
    }
    let mut names: std::collections::BTreeSet<&str> = std::collections::BTreeSet::new();
    let mut skills = Vec::with_capacity(list.len());
    for (index, item) in list.iter().enumerate() {
        let name = item.get("name").and_then(Json::as_str);
        let read = entry(index_url, version, index, item).and_then(|s| {
            if names.contains(&s.name.as_str()) {
                return Err(bad(index, "name", format!("the name {:?} is given to an earlier entry too; a client cannot tell them apart", s.name)));
            }
            Ok(s)
        });
        if let Ok(s) = &read {
            names.insert(list_name(list, s.index));
        }
        skills.push(read.map_err(|error| RejectedEntry {
            index,
            name: name.map(str::to_owned),
            error,
        }));
    }
    let named = top
        .get("_meta")
        .and_then(|m| m.get(KEYS_META_KEY))
        .and_then(Json::as_str)
        .and_then(|u| resolve_url(index_url, u).ok());
    let keys = named
        .or_else(|| resolve_url(index_url, KEYS_PATH).ok())
        .unwrap_or_default();
    Ok(Index {
        version,
        skills,
        keys,
    })
}

fn list_name(list: &[Json], index: usize) -> &str {
    list.get(index)
        .and_then(|i| i.get("name"))
        .and_then(Json::as_str)
        .unwrap_or_default()
}

fn bad(index: usize, field: &str, what: String) -> VerifyError {
    let path = if field.is_empty() {
        format!("skills[{index}]")
    } else {
        format!("skills[{index}].{field}")
    };
    VerifyError::new(ErrorCode::InvalidEntry, format!("{path}: {what}")).with_field(path)
}

fn string<'a>(item: &'a Json, index: usize, field: &str) -> Result<&'a str> {
    match item.get(field) {
        Some(Json::String(s)) => Ok(s),
        Some(other) => Err(bad(index, field, format!("must be a string, not {other}"))),
        None => Err(bad(index, field, "is missing".into())),
    }
}

fn entry(index_url: &str, version: IndexVersion, index: usize, item: &Json) -> Result<IndexSkill> {
    if !item.is_object() {
        return Err(bad(index, "", "a skill entry must be a JSON object".into()));
    }
    let name = string(item, index, "name")?;
    check_name(name).map_err(|e| bad(index, "name", format!("{name:?}: {}", e.describe())))?;
    let description = string(item, index, "description")?;
    let chars = description.chars().count();
    if chars == 0 || chars > MAX_DESCRIPTION_CHARS {
        return Err(bad(
            index,
            "description",
            format!("has {chars} characters; it must have 1 to {MAX_DESCRIPTION_CHARS}"),
        ));
    }
    let artifact = match version {
        IndexVersion::V0_2_0 => {
            let kind = string(item, index, "type")?;
            let url = string(item, index, "url")?;
            let url = resolve_url(index_url, url)
                .map_err(|why| bad(index, "url", format!("{url:?} {why}")))?;
            let digest = string(item, index, "digest")?;
            if !is_wire_digest(digest) {
                return Err(bad(
                    index,
                    "digest",
                    format!("{digest:?} is not `sha256:` and 64 lowercase hex digits"),
                ));
            }
            let digest = digest.to_owned();
            match kind {
                "skill-md" => Artifact::SkillMd { url, digest },
                "archive" => Artifact::Archive { url, digest },
                other => {
                    return Err(bad(
                        index,
                        "type",
                        format!(
                        "{other:?} is not \"skill-md\" or \"archive\"; RFC clients skip this skill"
                    ),
                    ))
                }
            }
        }
        IndexVersion::V0_1_0 => {
            let Some(files) = item.get("files").and_then(Json::as_array) else {
                return Err(bad(
                    index,
                    "files",
                    "a v0.1.0 entry needs a `files` array of paths".into(),
                ));
            };
            let mut out = Vec::with_capacity(files.len());
            for (i, f) in files.iter().enumerate() {
                let Some(path) = f.as_str() else {
                    return Err(bad(index, &format!("files[{i}]"), format!("must be a path string in a v0.1.0 index (an index with objects here needs $schema), not {f}")));
                };
                if let Some(e) = path.split('/').find_map(|s| check_segment(s).err()) {
                    return Err(bad(
                        index,
                        &format!("files[{i}]"),
                        format!("{path:?}: {}", e.describe()),
                    ));
                }
                let url = resolve_url(index_url, &format!("{name}/{path}"))
                    .map_err(|why| bad(index, &format!("files[{i}]"), format!("{path:?} {why}")))?;
                out.push((path.to_owned(), url));
            }
            Artifact::Files(out)
        }
    };
    let envelope = match item.get("_meta").and_then(|m| m.get(DSSE_META_KEY)) {
        None | Some(Json::Null) => None,
        Some(Json::String(u)) => Some(resolve_url(index_url, u).map_err(|why| {
            bad(
                index,
                &format!("_meta[{DSSE_META_KEY:?}]"),
                format!("{u:?} {why}"),
            )
        })?),
        Some(other) => {
            return Err(bad(
                index,
                &format!("_meta[{DSSE_META_KEY:?}]"),
                format!("must be the URL of the skill's signature envelope, not {other}"),
            ))
        }
    };
    Ok(IndexSkill {
        index,
        name: name.to_owned(),
        description: description.to_owned(),
        artifact,
        envelope,
    })
}

/// A URI reference split into its five parts (RFC 3986 §3, Appendix B).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Parts<'a> {
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

fn split(uri: &str) -> Parts<'_> {
    let mut p = Parts::default();
    let mut rest = uri;
    if let Some((before, after)) = rest.split_once('#') {
        p.fragment = Some(after);
        rest = before;
    }
    if let Some((before, after)) = rest.split_once('?') {
        p.query = Some(after);
        rest = before;
    }
    if let Some(colon) = rest.find(':') {
        let scheme = rest.get(..colon).unwrap_or_default();
        if is_scheme(scheme) {
            p.scheme = Some(scheme);
            rest = rest.get(colon + 1..).unwrap_or_default();
        }
    }
    if let Some(after) = rest.strip_prefix("//") {
        let end = after.find('/').unwrap_or(after.len());
        p.authority = after.get(..end);
        rest = after.get(end..).unwrap_or_default();
    }
    p.path = rest;
    p
}

/// RFC 3986 §5.2.4.
fn remove_dot_segments(path: &str) -> String {
    let mut input = path;
    let mut out = String::with_capacity(path.len());
    while !input.is_empty() {
        if let Some(r) = input
            .strip_prefix("../")
            .or_else(|| input.strip_prefix("./"))
        {
            input = r;
        } else if input.starts_with("/./") {
            input = input.get(2..).unwrap_or_default();
        } else if input == "/." {
            input = "/";
        } else if input.starts_with("/../") || input == "/.." {
            input = if input == "/.." {
                "/"
            } else {
                input.get(3..).unwrap_or_default()
            };
            let cut = out.rfind('/').unwrap_or(0);
            out.truncate(cut);
        } else if input == "." || input == ".." {
            input = "";
        } else {
            let start = usize::from(input.starts_with('/'));
            let end = input
                .get(start..)
                .and_then(|r| r.find('/'))
                .map_or(input.len(), |i| i + start);
            out.push_str(input.get(..end).unwrap_or_default());
            input = input.get(end..).unwrap_or_default();
        }
    }
    out
}

/// Resolves `reference` against `base` (RFC 3986 §5.2.2, strict), and recomposes it
/// (§5.3).
///
/// ```
/// use skills_edge::host::resolve_reference_uri;
/// assert_eq!(resolve_reference_uri("http://a/b/c/d;p?q", "../g"), "http://a/b/g");
/// ```
pub fn resolve_reference_uri(base: &str, reference: &str) -> String {
    let b = split(base);
    let r = split(reference);
    let (scheme, authority, path, query);
    if r.scheme.is_some() {
        scheme = r.scheme;
        authority = r.authority;
        path = remove_dot_segments(r.path);
        query = r.query;
    } else {
        scheme = b.scheme;
        if r.authority.is_some() {
            authority = r.authority;
            path = remove_dot_segments(r.path);
            query = r.query;
        } else {
            authority = b.authority;
            if r.path.is_empty() {
                path = b.path.to_owned();
                query = r.query.or(b.query);
            } else {
                path = if r.path.starts_with('/') {
                    remove_dot_segments(r.path)
                } else {
                    let merged = if b.authority.is_some() && b.path.is_empty() {
                        format!("/{}", r.path)
                    } else {
                        let dir = b
                            .path
                            .rfind('/')
                            .map_or("", |i| b.path.get(..=i).unwrap_or_default());
                        format!("{dir}{}", r.path)
                    };
                    remove_dot_segments(&merged)
                };
                query = r.query;
            }
        }
    }
    let mut out = String::new();
    if let Some(s) = scheme {
        out.push_str(s);
        out.push(':');
    }
    if let Some(a) = authority {
        out.push_str("//");
        out.push_str(a);
    }
    out.push_str(&path);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    if let Some(f) = r.fragment {
        out.push('#');
        out.push_str(f);
    }
    out
}

/// Resolves an entry's `url` against the index URL and checks that the result can be
/// fetched: `http` or `https` with a host, no whitespace or control characters. The fragment
/// is dropped (it is never sent). The error completes a sentence about the value.
pub fn resolve_url(index_url: &str, url: &str) -> std::result::Result<String, String> {
    if url.is_empty() {
        return Err("is empty".into());
    }
    if url
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || c == '\\')
    {
        return Err("contains whitespace, a control character or a backslash".into());
    }
    let resolved = resolve_reference_uri(index_url, url);
    let resolved = resolved.split('#').next().unwrap_or_default().to_owned();
    let p = split(&resolved);
    let scheme = p.scheme.map(str::to_ascii_lowercase);
    if !matches!(scheme.as_deref(), Some("http" | "https")) {
        return Err(format!(
            "resolves to {resolved:?}, which is not an http or https URL"
        ));
    }
    if p.authority.is_none_or(|a| a.is_empty()) {
        return Err(format!("resolves to {resolved:?}, which has no host"));
    }
    Ok(resolved)
}

/// The index URL of an origin (`https://host[:port]`, a trailing `/` allowed):
/// `{origin}/.well-known/agent-skills/index.json`. `None` when `origin` has a path, query or
/// fragment.
///
/// ```
/// use skills_edge::host::index::index_url_of_origin;
/// assert_eq!(index_url_of_origin("https://h:8787/").as_deref(),
///     Some("https://h:8787/.well-known/agent-skills/index.json"));
/// assert_eq!(index_url_of_origin("https://h/mcp"), None);
/// ```
pub fn index_url_of_origin(origin: &str) -> Option<String> {
    let p = split(origin);
    if p.scheme.is_none()
        || p.authority.is_none_or(str::is_empty)
        || !matches!(p.path, "" | "/")
        || p.query.is_some()
        || p.fragment.is_some()
    {
        return None;
    }
    Some(format!("{}{INDEX_PATH}", origin.trim_end_matches('/')))
}

/// The default label of the server at `url` (an `http:` or `https:` URL): its origin, as the
/// WHATWG URL standard serializes it (`URL.origin`): the scheme and host in lowercase, the
/// port unless it is the scheme's default (80, 443), no user information, path or query. The
/// npm `SkillsClient.connect`, the inspector page and `skills-edge verify` label a server
/// with it, so one server has one label everywhere, and two servers two. `None` for
/// anything else, and for a host with characters outside ASCII (whose WHATWG origin is its
/// IDNA form, which this function does not compute). An IPv4 host is read by the standard's
/// IPv4 parser (`127.1`, `0x7f.0.0.1` and `2130706433` are `127.0.0.1`); a host ending in a
/// number that is no IPv4 address (`1.2.3.4.5`, `256.1.1.1`) gives `None`, as `new URL`
/// refuses it.
///
/// ```
/// use skills_edge::client::server_label_of_url;
/// assert_eq!(server_label_of_url("HTTPS://Skills.Example:443/mcp?x#y").as_deref(), Some("https://skills.example"));
/// assert_eq!(server_label_of_url("http://user:pw@127.0.0.1:8080/mcp").as_deref(), Some("http://127.0.0.1:8080"));
/// assert_eq!(server_label_of_url("http://[::1]:80/").as_deref(), Some("http://[::1]"));
/// assert_eq!(server_label_of_url("http://0x7f.1:8080/").as_deref(), Some("http://127.0.0.1:8080"));
/// assert_eq!(server_label_of_url("ftp://h/"), None);
/// assert_eq!(server_label_of_url("HTTP://GO:+P://0/"), None);
/// ```
pub fn server_label_of_url(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    let default_port = match scheme.as_str() {
        "http" => 80,
        "https" => 443,
        _ => return None,
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let (host, port) = match host_port.strip_prefix('[') {
        Some(v6) => {
            let (inner, after) = v6.split_once(']')?;
            (format!("[{inner}]"), after.strip_prefix(':'))
        }
        None => match host_port.rsplit_once(':') {
            Some((h, p)) => (h.to_owned(), Some(p)),
            None => (host_port.to_owned(), None),
        },
    };
    // The standard's forbidden host code points make the URL invalid (`go:+p` is no host);
    // a backslash, which it reads as a path separator in these schemes, is refused too.
    if host.is_empty()
        || !host.is_ascii()
        || host.chars().any(|c| c.is_ascii_control() || c == ' ')
        || (!host.starts_with('[') && host.contains([':', '<', '>', '[', '\\', ']', '^', '|']))
    {
        return None;
    }
    let port = match port {
        None | Some("") => None,
        Some(p) if p.bytes().all(|b| b.is_ascii_digit()) => {
            let n: u32 = p.trim_start_matches('0').parse().unwrap_or(0);
            if n > 65535 {
                return None;
            }
            (n != default_port).then_some(n)
        }
        Some(_) => return None,
    };
    let mut host = host.to_ascii_lowercase();
    if !host.starts_with('[') {
        // An IPv4 address in any spelling the standard reads is kept dotted decimal; a host
        // that ends in a number but is no address makes the URL invalid, as `new URL` has it.
        if let Some(dotted) = ipv4::parse(&host).ok()? {
            host = dotted;
        }
    }
    Some(match port {
        Some(n) => format!("{scheme}://{host}:{n}"),
        None => format!("{scheme}://{host}"),
    })
}

/// The origin of a URL (`scheme://authority`).
pub fn origin_of(url: &str) -> Option<String> {
    if let Some(origin) = server_label_of_url(url) {
        return Some(origin);
    }
    let p = split(url);
    Some(format!("{}://{}", p.scheme?, p.authority?))
}

/// `origin` in the one spelling every origin is kept and compared in: an `http:` or
/// `https:` URL becomes its WHATWG serialization ([`server_label_of_url`]:
/// scheme and host in lowercase, an IPv4 host in dotted decimal, the default port dropped, a
/// port without leading zeros, no path); anything else stays as written. Signer pins, approvals and labels use it, so
/// `HTTPS://Good.Example:443/` and `https://good.example` are one origin everywhere.
pub fn canonical_origin(origin: &str) -> String {
    server_label_of_url(origin).unwrap_or_else(|| origin.to_owned())
}

/// Whether `url` has the origin of `given`, the URL the caller named. A GET carries the
/// caller's own headers (`--header`, the npm `headers`) only then: an index may name its
/// artifacts on any host (a CDN, or an attacker's), and those hosts never see the caller's
/// credentials. Origins are compared as written; a difference of case only withholds the
/// headers.
///
/// ```
/// use skills_edge::host::same_origin;
/// let given = "https://h/.well-known/agent-skills/index.json";
/// assert!(same_origin(given, "https://h/x/a.tar.gz"));
/// assert!(!same_origin(given, "https://cdn.example/a.tar.gz"));
/// assert!(!same_origin(given, "http://h/x/a.tar.gz"));
/// ```
pub fn same_origin(given: &str, url: &str) -> bool {
    matches!((origin_of(given), origin_of(url)), (Some(a), Some(b)) if a == b)
}

mod ipv4;
#[cfg(test)]
mod tests;
