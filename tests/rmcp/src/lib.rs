//! rmcp, the official Rust MCP SDK, as an external judge of a skills-edge server.
//!
//! [`connect_stdio`] starts the native `skills-edge stdio` command as a child process and
//! [`connect_http`] reaches a Streamable HTTP endpoint (the Worker on `wrangler dev`), each in
//! one of the two protocol eras ([`Era`]). [`judge`] then walks the whole catalog through
//! rmcp's own skills client: `list_all_skills` (every page), rmcp's entry validation, every
//! listed file read with `resources/read` and checked with rmcp's `SkillResource::verify` and,
//! independently, by its length and a SHA-256 of its own, `skills/get` of every entry compared
//! with the listed one, and every directory under every skill root walked with
//! `resources/directory/read`, which must reach exactly the files of the entry.
//!
//! Every request is bounded by [`REQUEST_TIMEOUT`]; the stdio server is killed when its
//! transport is dropped.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::future::Future;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use base64::Engine as _;
use http::{HeaderName, HeaderValue};
use rmcp::model::{
    CacheScope, ClientConfig, ErrorCode, GetSkillRequestParams, ProtocolVersion,
    ReadResourceDirectoryRequestParams, ReadResourceRequestParams, ResourceContents, ResultType,
    Skill, SkillResource, SkillResources, SKILL_MD,
};
use rmcp::service::{Peer, RunningService, ServiceError};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{ClientHandler, ClientLifecycleMode, ClientServiceExt, RoleClient};
use sha2::{Digest, Sha256};

/// Longest wait for one request (or for the connection handshake).
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// Most directories one skill may have before the walk is considered runaway.
const MAX_DIRECTORIES: usize = 10_000;

/// The page size the servers run with, so every list is followed through its cursors.
pub const PAGE_SIZE: usize = 3;

/// What went wrong, in words; `Debug` prints the words too, so a failing test shows them as
/// they are.
pub struct Failure(String);

impl Failure {
    /// A failure with this message.
    pub fn new(message: impl Into<String>) -> Self {
        Self(message.into())
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Fails with `message` unless `condition` holds.
fn ensure(condition: bool, message: impl FnOnce() -> String) -> Result<(), Failure> {
    if condition {
        Ok(())
    } else {
        Err(Failure(message()))
    }
}

/// Awaits `future` for at most [`REQUEST_TIMEOUT`]; `what` names the request in the failure.
pub async fn bounded<T, E: fmt::Display>(
    what: &str,
    future: impl Future<Output = Result<T, E>>,
) -> Result<T, Failure> {
    match tokio::time::timeout(REQUEST_TIMEOUT, future).await {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(e)) => Err(Failure(format!("{what}: {e}"))),
        Err(_) => Err(Failure(format!(
            "{what}: no answer within {} s",
            REQUEST_TIMEOUT.as_secs()
        ))),
    }
}

/// The protocol era a connection is made in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// 2026-07-28: `server/discover`, then per-request `_meta`; results carry `resultType`,
    /// `ttlMs` and `cacheScope`.
    Modern,
    /// 2025-11-25: `initialize` and `notifications/initialized`; results carry no cache hints.
    Legacy,
}

impl Era {
    /// The protocol version the connection must end up with.
    pub fn version(self) -> ProtocolVersion {
        match self {
            Era::Modern => ProtocolVersion::V_2026_07_28,
            Era::Legacy => ProtocolVersion::V_2025_11_25,
        }
    }

    /// How rmcp starts the connection: `server/discover` with 2026-07-28 as the only version
    /// (no fallback), or the `initialize` handshake.
    fn lifecycle(self) -> ClientLifecycleMode {
        match self {
            Era::Modern => ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
            Era::Legacy => ClientLifecycleMode::Initialize,
        }
    }
}

/// The client side of the connection: no roots, sampling or elicitation, only the version
/// it offers in `initialize`.
#[derive(Debug, Clone)]
pub struct Host {
    era: Era,
}

impl ClientHandler for Host {
    fn get_info(&self) -> ClientConfig {
        // rmcp's default `protocolVersion` is 2026-07-28, which has no `initialize`: a legacy
        // client must offer 2025-11-25 itself.
        ClientConfig::default().with_protocol_version(self.era.version())
    }
}

/// A connected rmcp client.
pub type Client = RunningService<RoleClient, Host>;

/// Starts `bin stdio --page-size 3` and connects to it over its stdin and stdout in `era`.
/// The process is killed when the client (and so the transport) is dropped; its stderr is
/// passed through.
pub async fn connect_stdio(bin: &Path, era: Era) -> Result<Client, Failure> {
    ensure(bin.is_file(), || {
        format!(
            "{} is not a file: build the native command with `cargo build -p skills-edge-cli` \
             and give its absolute path",
            bin.display()
        )
    })?;
    let mut command = tokio::process::Command::new(bin);
    command
        .arg("stdio")
        .arg("--page-size")
        .arg(PAGE_SIZE.to_string());
    connect_command(command, &format!("{} stdio", bin.display()), era).await
}

/// Starts `command` (a server on its stdin and stdout, `what` in messages) and connects to it
/// in `era`. The process is killed when the client is dropped; its stderr is passed through.
pub async fn connect_command(
    mut command: tokio::process::Command,
    what: &str,
    era: Era,
) -> Result<Client, Failure> {
    command.kill_on_drop(true);
    let (transport, _) = TokioChildProcess::builder(command)
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| Failure(format!("cannot start {what}: {e}")))?;
    let label = format!("connecting to {what} at {}", era.version());
    bounded(
        &label,
        Host { era }.serve_with_lifecycle(transport, era.lifecycle()),
    )
    .await
}

/// Connects to the Streamable HTTP endpoint `url` in `era`.
pub async fn connect_http(url: &str, era: Era) -> Result<Client, Failure> {
    connect_http_with(url, era, &[]).await
}

/// Connects to the Streamable HTTP endpoint `url` in `era`, sending `headers` (name, value)
/// with every request.
pub async fn connect_http_with(
    url: &str,
    era: Era,
    headers: &[(&str, &str)],
) -> Result<Client, Failure> {
    let mut custom = std::collections::HashMap::new();
    for (name, value) in headers {
        let name = HeaderName::try_from(*name)
            .map_err(|e| Failure(format!("{name:?} is not a header name: {e}")))?;
        let value = HeaderValue::try_from(*value)
            .map_err(|e| Failure(format!("{value:?} is not a header value: {e}")))?;
        custom.insert(name, value);
    }
    let config =
        StreamableHttpClientTransportConfig::with_uri(url.to_owned()).custom_headers(custom);
    let transport = StreamableHttpClientTransport::from_config(config);
    let what = format!("connecting to {url} at {}", era.version());
    bounded(
        &what,
        Host { era }.serve_with_lifecycle(transport, era.lifecycle()),
    )
    .await
}

/// What [`judge`] saw: counts for the test's summary line.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Tally {
    /// Skills listed.
    pub skills: usize,
    /// Files read and verified (a file of a nested skill counts once per skill listing it).
    pub files: usize,
    /// Bytes read and verified.
    pub bytes: u64,
    /// Directories read with `resources/directory/read`.
    pub directories: usize,
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} skills, {} files ({} bytes) verified, {} directories walked",
            self.skills, self.files, self.bytes, self.directories
        )
    }
}

/// Checks that a result's cache hints match the era: both present at 2026-07-28 (the
/// specification requires them on cacheable results; rmcp's types make them optional for
/// every era and do not check), both absent at 2025-11-25.
fn check_cache_hints(
    era: Era,
    what: &str,
    ttl_ms: Option<u64>,
    cache_scope: Option<&CacheScope>,
) -> Result<(), Failure> {
    match era {
        Era::Modern => ensure(ttl_ms.is_some() && cache_scope.is_some(), || {
            format!(
                "{what} at 2026-07-28 has ttlMs {ttl_ms:?} and cacheScope {cache_scope:?}: \
                 both are required"
            )
        }),
        Era::Legacy => ensure(ttl_ms.is_none() && cache_scope.is_none(), || {
            format!(
                "{what} at 2025-11-25 has ttlMs {ttl_ms:?} and cacheScope {cache_scope:?}: \
                 legacy results carry no cache hints"
            )
        }),
    }
}

/// Checks a result's `resultType`: `complete` at 2026-07-28, absent at 2025-11-25.
fn check_result_type(
    era: Era,
    what: &str,
    result_type: Option<&ResultType>,
) -> Result<(), Failure> {
    let expected = match era {
        Era::Modern => Some(ResultType::COMPLETE),
        Era::Legacy => None,
    };
    ensure(result_type == expected.as_ref(), || {
        format!(
            "{what} at {} has resultType {result_type:?}, expected {expected:?}",
            era.version()
        )
    })
}

/// `sha256:` and 64 lowercase hex digits of `bytes`, computed here with the `sha2` crate,
/// apart from rmcp's digest helper.
pub fn own_digest(bytes: &[u8]) -> String {
    let hex: String = Sha256::digest(bytes)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    format!("sha256:{hex}")
}

/// Runs every check against `client`, a skills-edge server (`serverInfo.name`
/// `skills-edge`) connected in `era`. Returns what it saw.
pub async fn judge(client: &Client, era: Era) -> Result<Tally, Failure> {
    judge_server(client, era, "skills-edge").await
}

/// Runs every check against `client`, connected in `era` to the server whose
/// `serverInfo.name` is `server_name`. Returns what it saw.
pub async fn judge_server(client: &Client, era: Era, server_name: &str) -> Result<Tally, Failure> {
    let info = client
        .peer_info()
        .ok_or_else(|| Failure::new("the client has no server information after connecting"))?;
    ensure(info.protocol_version == era.version(), || {
        format!(
            "negotiated protocol version {}, expected {}",
            info.protocol_version,
            era.version()
        )
    })?;
    let name = info.server_info.as_ref().map(|s| s.name.as_str());
    ensure(name == Some(server_name), || {
        format!("serverInfo.name is {name:?}, expected {server_name:?}")
    })?;
    ensure(info.capabilities.supports_skills(), || {
        format!(
            "the server does not declare the skills extension: {:?}",
            info.capabilities
        )
    })?;
    ensure(info.capabilities.supports_directory_read(), || {
        format!(
            "the server does not declare directoryRead: {:?}",
            info.capabilities
        )
    })?;
    let peer = client.peer();

    // The first page alone: the servers run with a small page size, so rmcp's
    // `list_all_skills` below must follow cursors.
    let first = bounded("skills/list (first page)", peer.list_skills(None)).await?;
    ensure(first.skills.len() == PAGE_SIZE, || {
        format!(
            "the first page of skills/list has {} entries, expected the page size {PAGE_SIZE}",
            first.skills.len()
        )
    })?;
    ensure(first.next_cursor.is_some(), || {
        "the first page of skills/list has no nextCursor: the catalog should span pages".into()
    })?;
    check_result_type(era, "skills/list", first.result_type.as_ref())?;
    check_cache_hints(era, "skills/list", first.ttl_ms, first.cache_scope.as_ref())?;

    let merged = bounded(
        "skills/list (every page)",
        peer.list_all_skills_with_cache_hint(),
    )
    .await?;
    check_cache_hints(
        era,
        "skills/list (merged pages)",
        merged.ttl_ms,
        merged.cache_scope.as_ref(),
    )?;
    let skills = merged.items;
    ensure(skills.len() > PAGE_SIZE, || {
        format!(
            "skills/list returned {} skills over all pages",
            skills.len()
        )
    })?;
    ensure(
        skills.get(..PAGE_SIZE) == Some(first.skills.as_slice()),
        || "the first page differs from the start of the merged list".into(),
    )?;
    rmcp::model::validate_skills(&skills)
        .map_err(|e| Failure(format!("rmcp refuses the listed skills: {e}")))?;

    check_resource_list(peer, era, &skills).await?;
    check_not_found(peer).await?;

    let mut tally = Tally {
        skills: skills.len(),
        ..Tally::default()
    };
    for skill in &skills {
        check_skill(peer, era, skill, &mut tally).await?;
    }
    Ok(tally)
}

/// `resources/list` (every page): exactly the skills' `SKILL.md` files, each with the
/// entry's name and description, `text/markdown` and the manifest's size.
async fn check_resource_list(
    peer: &Peer<RoleClient>,
    era: Era,
    skills: &[Skill],
) -> Result<(), Failure> {
    let merged = bounded(
        "resources/list (every page)",
        peer.list_all_resources_with_cache_hint(),
    )
    .await?;
    check_cache_hints(
        era,
        "resources/list (merged pages)",
        merged.ttl_ms,
        merged.cache_scope.as_ref(),
    )?;
    let listed: BTreeMap<&str, _> = merged.items.iter().map(|r| (r.uri.as_str(), r)).collect();
    ensure(listed.len() == merged.items.len(), || {
        "resources/list lists a URI twice".into()
    })?;
    let entries: BTreeSet<&str> = skills.iter().map(|s| s.uri.as_str()).collect();
    let keys: BTreeSet<&str> = listed.keys().copied().collect();
    ensure(keys == entries, || {
        format!("resources/list gives {keys:?}, skills/list the SKILL.md files {entries:?}")
    })?;
    for skill in skills {
        let Some(resource) = listed.get(skill.uri.as_str()) else {
            continue;
        };
        let skill_md_size = match &skill.resources {
            SkillResources::Files(files) => {
                files.iter().find(|f| f.uri == skill.uri).map(|f| f.size)
            }
            _ => None,
        };
        let expected = (
            skill.frontmatter.name.as_str(),
            Some(skill.frontmatter.description.as_str()),
            Some("text/markdown"),
            skill_md_size,
        );
        let got = (
            resource.name.as_str(),
            resource.description.as_deref(),
            resource.mime_type.as_deref(),
            resource.size,
        );
        ensure(got == expected, || {
            format!(
                "resources/list gives {} (name, description, mimeType, size) {got:?}, the entry \
                 says {expected:?}",
                skill.uri
            )
        })?;
    }
    Ok(())
}

/// `skills/get` and `resources/read` of a skill that does not exist: JSON-RPC errors with
/// code -32602 that rmcp reads as such.
async fn check_not_found(peer: &Peer<RoleClient>) -> Result<(), Failure> {
    const MISSING: &str = "skill://no-such-skill/SKILL.md";
    let got = tokio::time::timeout(
        REQUEST_TIMEOUT,
        peer.get_skill(GetSkillRequestParams::new(MISSING)),
    )
    .await;
    expect_invalid_params(&format!("skills/get {MISSING}"), got)?;
    let read = tokio::time::timeout(
        REQUEST_TIMEOUT,
        peer.read_resource(ReadResourceRequestParams::new(MISSING)),
    )
    .await;
    expect_invalid_params(&format!("resources/read {MISSING}"), read)
}

/// Fails unless `outcome` is a JSON-RPC error with code -32602 (invalid params).
fn expect_invalid_params<T: fmt::Debug>(
    what: &str,
    outcome: Result<Result<T, ServiceError>, tokio::time::error::Elapsed>,
) -> Result<(), Failure> {
    match outcome {
        Ok(Err(ServiceError::McpError(e))) if e.code == ErrorCode::INVALID_PARAMS => Ok(()),
        Ok(other) => Err(Failure(format!(
            "{what}: expected a -32602 error, got {other:?}"
        ))),
        Err(_) => Err(Failure(format!(
            "{what}: no answer within {} s",
            REQUEST_TIMEOUT.as_secs()
        ))),
    }
}

/// `skills/get`, every file read and verified, and the directory walk, for one listed entry.
async fn check_skill(
    peer: &Peer<RoleClient>,
    era: Era,
    skill: &Skill,
    tally: &mut Tally,
) -> Result<(), Failure> {
    let uri = &skill.uri;
    skill
        .validate()
        .map_err(|e| Failure(format!("rmcp refuses the entry {uri}: {e}")))?;
    let got = bounded(
        &format!("skills/get {uri}"),
        peer.get_skill(GetSkillRequestParams::new(uri.clone())),
    )
    .await?;
    ensure(&got.skill == skill, || {
        format!(
            "skills/get {uri} differs from its skills/list entry:\n  get:  {:?}\n  list: {skill:?}",
            got.skill
        )
    })?;
    check_result_type(era, &format!("skills/get {uri}"), got.result_type.as_ref())?;
    check_cache_hints(
        era,
        &format!("skills/get {uri}"),
        got.ttl_ms,
        got.cache_scope.as_ref(),
    )?;

    let SkillResources::Files(files) = &skill.resources else {
        return Err(Failure(format!(
            "{uri} lists its resources as \"dynamic\"; skills-edge publishes full manifests"
        )));
    };
    let mut manifest = BTreeMap::new();
    for file in files {
        manifest.insert(file.uri.clone(), file.size);
        let bytes = read_file(peer, era, file).await?;
        tally.bytes += check_bytes(file, &bytes)?;
        tally.files += 1;
    }

    let root = uri.strip_suffix(SKILL_MD).and_then(|r| r.strip_suffix('/'));
    let root = root.ok_or_else(|| Failure(format!("{uri} does not end in /{SKILL_MD}")))?;
    let walked = walk(peer, era, root, tally).await?;
    compare_walk(root, &manifest, &walked)
}

/// Checks the bytes read for `file`: rmcp's own `SkillResource::verify`, then, apart from
/// rmcp, the length and a SHA-256 computed here. Returns the size.
pub fn check_bytes(file: &SkillResource, bytes: &[u8]) -> Result<u64, Failure> {
    file.verify(bytes)
        .map_err(|e| Failure(format!("rmcp's SkillResource::verify refuses {e}")))?;
    let size = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
    ensure(size == file.size, || {
        format!(
            "{} is {size} bytes, the manifest says {}",
            file.uri, file.size
        )
    })?;
    let digest = own_digest(bytes);
    ensure(digest == file.digest, || {
        format!(
            "{} hashes to {digest}, the manifest says {}",
            file.uri, file.digest
        )
    })?;
    Ok(size)
}

/// Compares the files a directory walk from `root` reached (with the size each listing gave,
/// if any) with a skill's manifest (URI to size): the same set of URIs, and no listed size
/// that differs from the manifest.
pub fn compare_walk(
    root: &str,
    manifest: &BTreeMap<String, u64>,
    walked: &BTreeMap<String, Option<u64>>,
) -> Result<(), Failure> {
    let listed: BTreeSet<&String> = manifest.keys().collect();
    let reached: BTreeSet<&String> = walked.keys().collect();
    let unreached: Vec<_> = listed.difference(&reached).collect();
    let unlisted: Vec<_> = reached.difference(&listed).collect();
    ensure(unreached.is_empty() && unlisted.is_empty(), || {
        format!(
            "the directory walk from {root} does not match the manifest: in the manifest but \
             not reached {unreached:?}, reached but not in the manifest {unlisted:?}"
        )
    })?;
    for (file, size) in walked {
        let listed_size = manifest.get(file).copied();
        ensure(size.is_none() || *size == listed_size, || {
            format!(
                "resources/directory/read gives {file} size {size:?}, the manifest says \
                 {listed_size:?}"
            )
        })?;
    }
    Ok(())
}

/// `resources/read` of one listed file: exactly one content item with the requested URI,
/// `text` taken byte for byte, `blob` decoded as strict standard base64.
async fn read_file(
    peer: &Peer<RoleClient>,
    era: Era,
    file: &SkillResource,
) -> Result<Vec<u8>, Failure> {
    let uri = &file.uri;
    let read = bounded(
        &format!("resources/read {uri}"),
        peer.read_resource(ReadResourceRequestParams::new(uri.clone())),
    )
    .await?;
    check_result_type(
        era,
        &format!("resources/read {uri}"),
        read.result_type.as_ref(),
    )?;
    check_cache_hints(
        era,
        &format!("resources/read {uri}"),
        read.ttl_ms,
        read.cache_scope.as_ref(),
    )?;
    let [content] = read.contents.as_slice() else {
        return Err(Failure(format!(
            "resources/read {uri} returned {} content items, expected one",
            read.contents.len()
        )));
    };
    match content {
        ResourceContents::TextResourceContents { uri: got, text, .. } => {
            ensure(got == uri, || {
                format!("resources/read {uri} answered for {got}")
            })?;
            Ok(text.clone().into_bytes())
        }
        ResourceContents::BlobResourceContents { uri: got, blob, .. } => {
            ensure(got == uri, || {
                format!("resources/read {uri} answered for {got}")
            })?;
            base64::engine::general_purpose::STANDARD
                .decode(blob)
                .map_err(|e| Failure(format!("resources/read {uri}: blob is not base64: {e}")))
        }
        other => Err(Failure(format!(
            "resources/read {uri} returned contents rmcp does not know: {other:?}"
        ))),
    }
}

/// Walks every directory under `root` with `resources/directory/read` (every page, recursing
/// into `inode/directory` children). Returns the files reached, each with the size the
/// listing gave, if any.
async fn walk(
    peer: &Peer<RoleClient>,
    era: Era,
    root: &str,
    tally: &mut Tally,
) -> Result<BTreeMap<String, Option<u64>>, Failure> {
    let mut files = BTreeMap::new();
    let mut pending = vec![root.to_owned()];
    let mut seen = BTreeSet::new();
    while let Some(dir) = pending.pop() {
        ensure(seen.insert(dir.clone()), || {
            format!("the walk from {root} reached the directory {dir} twice")
        })?;
        ensure(seen.len() <= MAX_DIRECTORIES, || {
            format!("the walk from {root} passed {MAX_DIRECTORIES} directories")
        })?;
        tally.directories += 1;
        let prefix = format!("{dir}/");
        let mut cursor = None;
        loop {
            let mut params = ReadResourceDirectoryRequestParams::new(dir.clone());
            if let Some(c) = cursor.take() {
                params = params.with_cursor(c);
            }
            let what = format!("resources/directory/read {dir}");
            let page = bounded(&what, peer.read_resource_directory(params)).await?;
            check_result_type(era, &what, page.result_type.as_ref())?;
            check_cache_hints(era, &what, page.ttl_ms, page.cache_scope.as_ref())?;
            ensure(page.resources.len() <= PAGE_SIZE, || {
                format!(
                    "{what}: a page of {} items, over the page size {PAGE_SIZE}",
                    page.resources.len()
                )
            })?;
            for child in page.resources {
                let name = child.uri.strip_prefix(&prefix).unwrap_or_default();
                ensure(!name.is_empty() && !name.contains('/'), || {
                    format!("{what} lists {}, which is not a direct child", child.uri)
                })?;
                if child.is_directory() {
                    pending.push(child.uri);
                } else {
                    let uri = child.uri;
                    ensure(!files.contains_key(&uri), || {
                        format!("{what} lists {uri} twice")
                    })?;
                    files.insert(uri, child.size);
                }
            }
            match page.next_cursor {
                Some(next) => cursor = Some(next),
                None => break,
            }
        }
    }
    Ok(files)
}

/// A request about one URI, for comparing how a server refuses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ask {
    /// `skills/get`.
    Get,
    /// `resources/read`.
    Read,
    /// `resources/directory/read`.
    Directory,
}

/// How `peer` refuses `ask` of `uri`: the error's code and its message and `data` (as
/// debug text) with every occurrence of `uri` replaced by `<uri>`, so the refusals of two
/// URIs compare equal when they differ only in the URI they name. Fails when the server
/// answers with a result.
pub async fn refusal(
    peer: &Peer<RoleClient>,
    ask: Ask,
    uri: &str,
) -> Result<(ErrorCode, String, String), Failure> {
    let what = format!("{ask:?} {uri}");
    let outcome = match ask {
        Ask::Get => tokio::time::timeout(
            REQUEST_TIMEOUT,
            peer.get_skill(GetSkillRequestParams::new(uri)),
        )
        .await
        .map(|r| r.map(|ok| format!("{ok:?}"))),
        Ask::Read => tokio::time::timeout(
            REQUEST_TIMEOUT,
            peer.read_resource(ReadResourceRequestParams::new(uri)),
        )
        .await
        .map(|r| r.map(|ok| format!("{ok:?}"))),
        Ask::Directory => tokio::time::timeout(
            REQUEST_TIMEOUT,
            peer.read_resource_directory(ReadResourceDirectoryRequestParams::new(uri)),
        )
        .await
        .map(|r| r.map(|ok| format!("{ok:?}"))),
    };
    match outcome {
        Ok(Err(ServiceError::McpError(e))) => Ok((
            e.code,
            e.message.replace(uri, "<uri>"),
            format!("{:?}", e.data).replace(uri, "<uri>"),
        )),
        Ok(Ok(result)) => Err(Failure(format!(
            "{what}: expected an error, got the result {result}"
        ))),
        Ok(Err(other)) => Err(Failure(format!(
            "{what}: expected a JSON-RPC error, got {other}"
        ))),
        Err(_) => Err(Failure(format!(
            "{what}: no answer within {} s",
            REQUEST_TIMEOUT.as_secs()
        ))),
    }
}

/// Fails unless `peer` refuses `ask` of `hidden` exactly as it refuses `ask` of `absent` (a
/// URI that exists nowhere): the same code (-32602), and the same message and `data` but for
/// the URI they name.
pub async fn refused_as_absent(
    peer: &Peer<RoleClient>,
    ask: Ask,
    hidden: &str,
    absent: &str,
) -> Result<(), Failure> {
    let h = refusal(peer, ask, hidden).await?;
    let a = refusal(peer, ask, absent).await?;
    ensure(h.0 == ErrorCode::INVALID_PARAMS, || {
        format!("{ask:?} {hidden}: code {:?}, expected -32602", h.0)
    })?;
    ensure(h == a, || {
        format!("{ask:?} {hidden} is refused as {h:?}, but {absent} (absent) as {a:?}")
    })
}
