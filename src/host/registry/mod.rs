//! The host's skill registry: every skill keyed by (host-assigned server label, URI), display
//! names that disambiguate collisions, acting windows that hold the entry a skill was loaded
//! from, and approvals bound to content (SEP-2640 §Hosts; spec notes H9, H15–H16, H21–H23,
//! H30–H31).
//!
//! The registry is sans-I/O: it never fetches. Callers ask it what to read
//! ([`SkillHost::plan_load`], [`SkillHost::plan_read`]), perform the `resources/read`
//! themselves against the same server, and hand the result back ([`SkillHost::load`],
//! [`SkillHost::read`]). Nothing is ever read ahead of need (H9) because nothing is read here
//! at all, and an unlisted file is refused before anyone fetches it.
//!
//! The registry also keeps how long each entry is current (spec notes H34): a caller that
//! knows a result's `ttlMs` records the deadline with `SkillHost::set_current_until`, a
//! number on its own clock (the registry has none), and `SkillHost::plan_load_current_for`
//! answers in one call whether the held entry is still current at `now` and, if it is, what
//! to read. Registering an entry again clears its deadline until the caller sets a new one.

use std::cell::OnceCell;
use std::collections::{BTreeMap, BTreeSet};

use crate::skill::value::write_json_string;
use crate::json;

use super::approval::{signed_approval_fingerprint, ApprovalsExport};
use super::entry::Entry;
use super::error::{ErrorCode, Result, VerifyError};
use super::signature::{Signer, SignerPolicy, Signers};
use super::verify::{
    manifest_item, resolve_in_root, verify_content, verify_skill_md, Content, Hashing,
    VerifiedContent, VerifiedSkillMd, VerifyOptions,
};
use crate::skill::limits::MAX_BYTES_PER_SKILL;

mod approvals;
mod entries;
mod freshness;
mod loads;
mod names;
use names::is_invisible_format;
mod pins;
mod signers;
#[cfg(test)]
pub(crate) mod tests;

/// The longest server label accepted, in bytes: the longest origin accepted
/// ([`SkillHost::set_origin`]), since a client's default label is its server's origin.
pub(crate) const MAX_LABEL_LEN: usize = super::signature::MAX_ORIGIN_LEN;

/// Host policy.
///
/// ```
/// use skills_edge::host::{Entry, ErrorCode, HostOptions, SkillHost};
/// let dynamic = Entry::parse(r#"{"uri":"skill://a/SKILL.md",
///   "frontmatter":{"name":"a","description":"d"},"resources":"dynamic"}"#).unwrap();
/// let host_with = |options: HostOptions| {
///     let mut host = SkillHost::new(options);
///     host.add_server("docs").unwrap();
///     host.register("docs", dynamic.clone()).unwrap();
///     host
/// };
/// // By default a skill whose files cannot be verified is declined...
/// let strict = host_with(HostOptions::default());
/// assert_eq!(strict.plan_load("docs", "skill://a/SKILL.md").unwrap_err().code, ErrorCode::DynamicNotAllowed);
/// // ...unless the host says otherwise, by name.
/// let lenient = host_with(HostOptions { allow_dynamic: true, ..HostOptions::default() });
/// assert_eq!(lenient.plan_load("docs", "skill://a/SKILL.md").unwrap().digest, None);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HostOptions {
    /// Load skills whose `resources` is `"dynamic"` (frontmatter verified, files not, total
    /// retrieved bytes capped at 16 MiB). Off by default: such skills are declined.
    pub allow_dynamic: bool,
    /// Refuse to load a skill unless a current approval covers its entry
    /// ([`ErrorCode::NotApproved`]). Off by default: loading is the host's to gate (spec
    /// notes H29: a host MAY gate loading behind approval); a nested skill needs its own
    /// approval either way (see `nested_without_approval`).
    pub require_approval: bool,
    /// Load a nested skill (one whose root lies inside the root of another skill registered
    /// for the same server) without its own approval. Off by default: activating a nested
    /// skill needs fresh, explicit consent, which the enclosing skill's approval does not
    /// replace (spec notes H31), so [`SkillHost::plan_load`] refuses it with
    /// [`ErrorCode::NotApproved`] until [`SkillHost::approve`] records an approval of the
    /// nested skill itself. A host that asks for that consent another way turns this on, by
    /// name.
    pub nested_without_approval: bool,
}

/// Why a skill is loaded: to put its `SKILL.md` in a model's context ([`Purpose::Use`], what
/// [`SkillHost::load`] does), or only to check it against its entry ([`Purpose::Check`], what
/// `skills-edge verify` and `SkillsClient.verify()` do: the content goes nowhere, so a nested
/// skill needs no consent, H31). Every other check is the same.
///
/// `skill://release-notes/changelog-lint` of the embedded catalog is nested in
/// `skill://release-notes`: a client loads it for a model only with its own approval, and
/// checks it without one.
///
/// ```
/// use skills_edge::client::{block_on, SkillsClient};
/// use skills_edge::host::{ErrorCode, HostOptions, Purpose};
/// # use skills_edge::client::{ClientError, ExchangeKind, Rpc, ServerFacts};
/// # use skills_edge::server::{Config, Grant, Responder, Transport};
/// # use serde_json::{json, Value};
/// # struct Local(Responder);
/// # impl Rpc for Local {
/// #     async fn call(&self, method: &str, mut params: Value) -> skills_edge::client::Result<String> {
/// #         params["_meta"] = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
/// #             "io.modelcontextprotocol/clientCapabilities": {}});
/// #         let request = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
/// #         let reply = self.0.respond(request.to_string().as_bytes(), &Transport::Stream, Grant::PUBLIC);
/// #         let mut reply: Value = serde_json::from_str(reply.body_str()).unwrap();
/// #         match reply.get_mut("result") {
/// #             Some(result) => Ok(result.take().to_string()),
/// #             None => Err(ClientError::exchange(ExchangeKind::ServerError, reply["error"]["message"].to_string())
/// #                 .with_actual(reply["error"]["code"].to_string())),
/// #         }
/// #     }
/// #     fn now_ms(&self) -> f64 { 0.0 }
/// # }
/// # let rpc = Local(Responder::new(skills_edge::embedded::catalog().unwrap(), Config::default()).unwrap());
/// # let discovered: Value = serde_json::from_str(&block_on(rpc.call("server/discover", json!({}))).unwrap()).unwrap();
/// # let facts = ServerFacts::from_result(skills_edge::protocol::Era::Modern, "2026-07-28", &discovered);
/// let client = SkillsClient::new("docs", HostOptions::default()).unwrap();
/// # client.set_facts(facts).unwrap();
/// let nested = "skill://release-notes/changelog-lint/SKILL.md";
/// let refused = block_on(client.load_for(&rpc, nested, Purpose::Use)).unwrap_err();
/// assert_eq!(refused.code, ErrorCode::NotApproved);
/// let checked = block_on(client.load_for(&rpc, nested, Purpose::Check)).unwrap();
/// assert!(checked.skill.skill_md.receipt.verified);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// The skill is activated for a model.
    Use,
    /// The skill is only checked.
    Check,
}

/// One registered skill, as [`SkillHost::skills`] shows it.
///
/// ```
/// use skills_edge::host::{Content, Entry, Hashing, HostOptions, SkillHost};
/// use skills_edge::catalog::digest_of;
/// # let md = |name: &str| format!("---\nname: {name}\ndescription: d\n---\nSee [x](x.md).\n");
/// # let entry = |name: &str, x: &[u8]| format!(
/// #     r#"{{"uri":"skill://{name}/SKILL.md","frontmatter":{{"name":"{name}","description":"d"}},"resources":[
/// #         {{"uri":"skill://{name}/SKILL.md","digest":"{}","size":{}}},
/// #         {{"uri":"skill://{name}/x.md","digest":"{}","size":{}}}]}}"#,
/// #     digest_of(md(name).as_bytes()), md(name).len(), digest_of(x), x.len());
/// let mut host = SkillHost::new(HostOptions::default());
/// host.add_server("docs").unwrap();
/// let registered = Entry::parse(&entry("a", b"x")).unwrap();
/// host.register("docs", registered.clone()).unwrap();
/// let s = host.summary("docs", "skill://a/SKILL.md").unwrap();
/// assert_eq!((s.server_label.as_str(), s.name.as_str(), s.display_name.as_str()), ("docs", "a", "a"));
/// assert_eq!((s.description.as_str(), s.revision.clone()), ("d", registered.revision()));
/// assert!(!s.dynamic && !s.approved && !s.active && s.signer.is_none());
/// host.load("docs", &s.uri, Content::Text(md("a")), Hashing::Here).unwrap();
/// assert!(host.summary("docs", &s.uri).unwrap().active);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillSummary {
    /// The host-assigned label of the server it came from.
    pub server_label: String,
    /// Its `SKILL.md` URI.
    pub uri: String,
    /// `frontmatter.name` (not unique).
    pub name: String,
    /// `frontmatter.description`.
    pub description: String,
    /// A name unique among all registered skills: `name`; `name (prefix)` when one server has
    /// several skills of that name; `label:…` when several servers do.
    pub display_name: String,
    /// Whether its `resources` is `"dynamic"`.
    pub dynamic: bool,
    /// Its revision ([`Entry::revision`]; `None` when dynamic): compare it with a later
    /// listing's to tell that the skill changed without fetching a file.
    pub revision: Option<String>,
    /// Whether a current approval covers its entry.
    pub approved: bool,
    /// Whether an acting window is open for it.
    pub active: bool,
    /// The signer verified for its entry ([`SkillHost::signer`]); `None`: unsigned.
    pub signer: Option<Signer>,
}

/// What registering an entry did.
///
/// ```
/// use skills_edge::host::{Entry, HostOptions, SkillHost};
/// # use skills_edge::catalog::digest_of;
/// # let md = |name: &str| format!("---\nname: {name}\ndescription: d\n---\nSee [x](x.md).\n");
/// # let entry = |name: &str, x: &[u8]| format!(
/// #     r#"{{"uri":"skill://{name}/SKILL.md","frontmatter":{{"name":"{name}","description":"d"}},"resources":[
/// #         {{"uri":"skill://{name}/SKILL.md","digest":"{}","size":{}}},
/// #         {{"uri":"skill://{name}/x.md","digest":"{}","size":{}}}]}}"#,
/// #     digest_of(md(name).as_bytes()), md(name).len(), digest_of(x), x.len());
/// let mut host = SkillHost::new(HostOptions::default());
/// host.add_server("docs").unwrap();
/// let first = host.register("docs", Entry::parse(&entry("a", b"x")).unwrap()).unwrap();
/// assert_eq!((first.uri.as_str(), first.added, first.changed), ("skill://a/SKILL.md", true, false));
/// host.approve("docs", "skill://a/SKILL.md").unwrap();
/// let same = host.register("docs", Entry::parse(&entry("a", b"x")).unwrap()).unwrap();
/// assert!(!same.added && !same.changed && !same.approval_revoked);
/// // A changed file: the approval no longer covers the skill.
/// let changed = host.register("docs", Entry::parse(&entry("a", b"y")).unwrap()).unwrap();
/// assert!(changed.changed && changed.approval_revoked);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegisterOutcome {
    /// The skill URI.
    pub uri: String,
    /// The skill was not registered before.
    pub added: bool,
    /// The `(uri, digest)` set differs from the previously registered entry (always `false`
    /// when `added`).
    pub changed: bool,
    /// A stored approval no longer matched and was revoked (H30).
    pub approval_revoked: bool,
}

/// An entry of a listing that was not registered.
///
/// ```
/// use skills_edge::host::{ErrorCode, HostOptions, SkillHost};
/// # use skills_edge::catalog::digest_of;
/// # let md = |name: &str| format!("---\nname: {name}\ndescription: d\n---\nSee [x](x.md).\n");
/// # let entry = |name: &str, x: &[u8]| format!(
/// #     r#"{{"uri":"skill://{name}/SKILL.md","frontmatter":{{"name":"{name}","description":"d"}},"resources":[
/// #         {{"uri":"skill://{name}/SKILL.md","digest":"{}","size":{}}},
/// #         {{"uri":"skill://{name}/x.md","digest":"{}","size":{}}}]}}"#,
/// #     digest_of(md(name).as_bytes()), md(name).len(), digest_of(x), x.len());
/// let mut host = SkillHost::new(HostOptions::default());
/// host.add_server("docs").unwrap();
/// let listing = format!(r#"{{"skills":[{{"uri":"skill://a/SKILL.md"}},{}]}}"#, entry("b", b"x"));
/// let out = host.register_listing("docs", &listing).unwrap();
/// let rejected = &out.rejected[0];
/// assert_eq!((rejected.index, rejected.error.code), (0, ErrorCode::InvalidEntry));
/// assert!(rejected.error.message.contains("no `frontmatter`"));
/// assert!(host.entry("docs", "skill://a/SKILL.md").is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejected {
    /// Its position in the listing.
    pub index: usize,
    /// Why.
    pub error: VerifyError,
}

/// What registering a listing did.
///
/// ```
/// use skills_edge::host::{HostOptions, SkillHost};
/// # use skills_edge::catalog::digest_of;
/// # let md = |name: &str| format!("---\nname: {name}\ndescription: d\n---\nSee [x](x.md).\n");
/// # let entry = |name: &str, x: &[u8]| format!(
/// #     r#"{{"uri":"skill://{name}/SKILL.md","frontmatter":{{"name":"{name}","description":"d"}},"resources":[
/// #         {{"uri":"skill://{name}/SKILL.md","digest":"{}","size":{}}},
/// #         {{"uri":"skill://{name}/x.md","digest":"{}","size":{}}}]}}"#,
/// #     digest_of(md(name).as_bytes()), md(name).len(), digest_of(x), x.len());
/// let mut host = SkillHost::new(HostOptions::default());
/// host.add_server("docs").unwrap();
/// let listing = format!(r#"{{"skills":[{},{},{{"uri":"skill://broken"}}]}}"#, entry("a", b"x"), entry("b", b"x"));
/// let out = host.register_listing("docs", &listing).unwrap();
/// let registered: Vec<&str> = out.registered.iter().map(|r| r.uri.as_str()).collect();
/// assert_eq!(registered, ["skill://a/SKILL.md", "skill://b/SKILL.md"]);
/// let rejected: Vec<usize> = out.rejected.iter().map(|r| r.index).collect();
/// assert_eq!(rejected, [2]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ListingOutcome {
    /// The valid entries, registered.
    pub registered: Vec<RegisterOutcome>,
    /// The invalid ones, not registered (a host must not load them, H7).
    pub rejected: Vec<Rejected>,
}

/// What to fetch next: the exact URI, and the manifest item it must match.
///
/// ```
/// use skills_edge::host::{Content, Entry, Hashing, HostOptions, PlannedRead, SkillHost};
/// # use skills_edge::catalog::digest_of;
/// # let md = |name: &str| format!("---\nname: {name}\ndescription: d\n---\nSee [x](x.md).\n");
/// # let entry = |name: &str, x: &[u8]| format!(
/// #     r#"{{"uri":"skill://{name}/SKILL.md","frontmatter":{{"name":"{name}","description":"d"}},"resources":[
/// #         {{"uri":"skill://{name}/SKILL.md","digest":"{}","size":{}}},
/// #         {{"uri":"skill://{name}/x.md","digest":"{}","size":{}}}]}}"#,
/// #     digest_of(md(name).as_bytes()), md(name).len(), digest_of(x), x.len());
/// let mut host = SkillHost::new(HostOptions::default());
/// host.add_server("docs").unwrap();
/// host.register("docs", Entry::parse(&entry("a", b"x")).unwrap()).unwrap();
/// let plan = host.plan_load("docs", "skill://a/SKILL.md").unwrap();
/// // The manifest's item of the `SKILL.md`: what the fetched bytes must match.
/// let (uri, bytes) = ("skill://a/SKILL.md".to_owned(), md("a"));
/// assert_eq!(plan, PlannedRead { uri, digest: Some(digest_of(bytes.as_bytes())), size: Some(bytes.len() as u64) });
/// host.load("docs", &plan.uri, Content::Text(md("a")), Hashing::Here).unwrap();
/// // A reference is resolved before anything is fetched.
/// let next = host.plan_read("docs", &plan.uri, "./x.md#top").unwrap();
/// assert_eq!((next.uri.as_str(), next.size), ("skill://a/x.md", Some(1)));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedRead {
    /// The URI to pass to `resources/read`, on the skill's own server.
    pub uri: String,
    /// The expected digest (`None` for a dynamic skill).
    pub digest: Option<String>,
    /// The expected size (`None` for a dynamic skill).
    pub size: Option<u64>,
}

/// A loaded skill: its verified `SKILL.md`, tagged with its origin (H24).
///
/// ```
/// use skills_edge::host::{Content, Entry, Hashing, HostOptions, SkillHost};
/// # use skills_edge::catalog::digest_of;
/// # let md = |name: &str| format!("---\nname: {name}\ndescription: d\n---\nSee [x](x.md).\n");
/// # let entry = |name: &str, x: &[u8]| format!(
/// #     r#"{{"uri":"skill://{name}/SKILL.md","frontmatter":{{"name":"{name}","description":"d"}},"resources":[
/// #         {{"uri":"skill://{name}/SKILL.md","digest":"{}","size":{}}},
/// #         {{"uri":"skill://{name}/x.md","digest":"{}","size":{}}}]}}"#,
/// #     digest_of(md(name).as_bytes()), md(name).len(), digest_of(x), x.len());
/// let mut host = SkillHost::new(HostOptions::default());
/// for label in ["work", "home"] {
///     host.add_server(label).unwrap();
///     host.register(label, Entry::parse(&entry("a", b"x")).unwrap()).unwrap();
/// }
/// let loaded = host.load("home", "skill://a/SKILL.md", Content::Text(md("a")), Hashing::Here).unwrap();
/// // Two servers serve a skill `a`: the loaded one says which it is.
/// assert_eq!((loaded.server_label.as_str(), loaded.display_name.as_str()), ("home", "home:a"));
/// assert_eq!(loaded.skill_md.body(), "See [x](x.md).\n");
/// ```
#[derive(Debug, Clone)]
pub struct LoadedSkill {
    /// The server it came from.
    pub server_label: String,
    /// The display name at load time.
    pub display_name: String,
    /// The verified file.
    pub skill_md: VerifiedSkillMd,
}

/// A verified supporting file, tagged with its origin.
///
/// ```
/// use skills_edge::host::{Content, Entry, Hashing, HostOptions, SkillHost};
/// # use skills_edge::catalog::digest_of;
/// # let md = |name: &str| format!("---\nname: {name}\ndescription: d\n---\nSee [x](x.md).\n");
/// # let entry = |name: &str, x: &[u8]| format!(
/// #     r#"{{"uri":"skill://{name}/SKILL.md","frontmatter":{{"name":"{name}","description":"d"}},"resources":[
/// #         {{"uri":"skill://{name}/SKILL.md","digest":"{}","size":{}}},
/// #         {{"uri":"skill://{name}/x.md","digest":"{}","size":{}}}]}}"#,
/// #     digest_of(md(name).as_bytes()), md(name).len(), digest_of(x), x.len());
/// let mut host = SkillHost::new(HostOptions::default());
/// host.add_server("docs").unwrap();
/// host.register("docs", Entry::parse(&entry("a", b"x")).unwrap()).unwrap();
/// host.load("docs", "skill://a/SKILL.md", Content::Text(md("a")), Hashing::Here).unwrap();
/// let file = host.read("docs", "skill://a/SKILL.md", "x.md", Content::Bytes(b"x".to_vec()), Hashing::Here).unwrap();
/// assert_eq!((file.server_label.as_str(), file.skill_uri.as_str()), ("docs", "skill://a/SKILL.md"));
/// assert_eq!((file.content.receipt.uri.as_str(), file.content.body.as_bytes()), ("skill://a/x.md", &b"x"[..]));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadFile {
    /// The server it came from.
    pub server_label: String,
    /// The skill whose acting window allowed the read.
    pub skill_uri: String,
    /// The content.
    pub content: VerifiedContent,
}

/// The registry's one kind of map: ordered by a string key, each value boxed.
///
/// Ordered maps, not hash maps: on `wasm32-unknown-unknown` the standard hasher's keys are
/// fixed, so a server could choose URIs that collide and make every lookup a scan. Boxed values,
/// so that every map of the registry and of [`Signers`] has the same layout: the B-tree code is
/// compiled once per layout, not once per value type, which keeps the npm package's verifier
/// module small. Two-part keys (server label, URI) are a map of maps.
type Map<T> = BTreeMap<String, Box<T>>;

struct Server {
    label: String,
    /// The registered skills by URI. A skill's root is its URI without `/SKILL.md`, so
    /// [`SkillHost::innermost_entry`] finds a skill by its root with one lookup.
    skills: Map<Skill>,
    /// The origin its skills' signers are pinned under ([`SkillHost::set_origin`]; the label
    /// until set).
    origin: String,
}

/// A registered skill and what the registry holds for it.
struct Skill {
    entry: Entry,
    /// Until when the entry is current, in milliseconds on the caller's clock
    /// ([`SkillHost::set_current_until`]); without a deadline it is not known to be.
    current_until: Option<f64>,
    /// The signer verified for the entry (`None`: unsigned).
    signer: Option<Signer>,
    /// The acting window, when the skill is loaded: it keeps the entry it was loaded from
    /// when a newer one is registered (H15), and goes when the skill is forgotten.
    window: Option<Window>,
    /// The window of a load that only checks the skill ([`Purpose::Check`]): apart from the
    /// acting window, so ordinary reads never pass through it, and closing it never closes
    /// the embedder's acting window ([`SkillHost::close_check_window`]).
    check: Option<Window>,
}

struct Window {
    entry: Entry,
    /// Bytes retrieved so far (the limit of a dynamic skill applies to them, H8).
    retrieved: u64,
}

/// The host registry (see the module documentation): what a host holds of every server's
/// skills, and the only way to their content. Its methods come in groups, each shown below:
/// servers and policy, registering entries, summaries and display names, loading and acting
/// windows, reading files, approvals. It never fetches: the caller performs each
/// `resources/read` the registry plans, on the skill's own server, and hands the result back.
///
/// The whole path of one skill, from its entry to a supporting file:
///
/// ```
/// use skills_edge::host::{Content, Entry, Hashing, HostOptions, SkillHost};
/// use skills_edge::catalog::digest_of;
/// let md = "---\nname: a\ndescription: d\n---\nSee [x](x.md).\n";
/// let entry = Entry::parse(&format!(
///     r#"{{"uri":"skill://a/SKILL.md","frontmatter":{{"name":"a","description":"d"}},"resources":[
///         {{"uri":"skill://a/SKILL.md","digest":"{}","size":{}}},
///         {{"uri":"skill://a/x.md","digest":"{}","size":1}}]}}"#,
///     digest_of(md.as_bytes()), md.len(), digest_of(b"x"))).unwrap();
/// let mut host = SkillHost::new(HostOptions::default());
/// host.add_server("docs").unwrap();
/// host.register("docs", entry).unwrap();
/// let plan = host.plan_load("docs", "skill://a/SKILL.md").unwrap();
/// host.load("docs", &plan.uri, Content::Text(md.into()), Hashing::Here).unwrap();
/// let next = host.plan_read("docs", "skill://a/SKILL.md", "x.md").unwrap();
/// assert_eq!(next.uri, "skill://a/x.md");
/// let file = host.read("docs", "skill://a/SKILL.md", "x.md", Content::Bytes(b"x".to_vec()), Hashing::Here).unwrap();
/// assert_eq!(file.content.body.as_bytes(), b"x");
/// assert!(host.plan_read("docs", "skill://a/SKILL.md", "y.md").is_err());
/// ```
///
/// The examples below build entries with a helper, `entry(name, x)`: the JSON of the skill
/// `skill://<name>/SKILL.md` (the file `md(name)`) with one supporting file `x.md` holding `x`,
/// as in the example above.
///
/// # Servers and policy
///
/// [`SkillHost::new`] takes the policy ([`HostOptions`], read back with
/// [`SkillHost::options`]); [`SkillHost::add_server`], [`SkillHost::remove_server`] and
/// [`SkillHost::servers`] manage the host-assigned labels every other method is keyed by.
///
/// ```
/// use skills_edge::host::{ErrorCode, HostOptions, SkillHost};
/// let mut host = SkillHost::new(HostOptions { require_approval: true, ..HostOptions::default() });
/// assert!(host.options().require_approval && !host.options().allow_dynamic);
/// host.add_server("work").unwrap();
/// host.add_server("home").unwrap();
/// assert_eq!(host.servers(), ["work", "home"]);
/// // A label is the host's own name for a server (a client's default: the server's origin):
/// // unique, without control characters.
/// assert_eq!(host.add_server("work").unwrap_err().code, ErrorCode::InvalidArgument);
/// assert_eq!(host.add_server("a\nb").unwrap_err().code, ErrorCode::InvalidArgument);
/// host.add_server("https://skills.example").unwrap();
/// host.remove_server("https://skills.example").unwrap();
/// // Removing a server leaves nothing of it behind.
/// host.remove_server("home").unwrap();
/// assert_eq!(host.servers(), ["work"]);
/// assert_eq!(host.remove_server("home").unwrap_err().code, ErrorCode::UnknownServer);
/// ```
///
/// # Registering entries
///
/// [`SkillHost::register_listing`] (a `skills/list` result), `SkillHost::register_entries`
/// (its items, each already read), [`SkillHost::register_get_result`] (a `skills/get` result),
/// [`SkillHost::register`] and [`SkillHost::refresh`] (one parsed [`Entry`]),
/// [`SkillHost::forget`], and [`SkillHost::entry`] to read one back.
///
/// ```
/// use skills_edge::host::{Entry, ErrorCode, HostOptions, SkillHost};
/// # use skills_edge::catalog::digest_of;
/// # let md = |name: &str| format!("---\nname: {name}\ndescription: d\n---\nSee [x](x.md).\n");
/// # let entry = |name: &str, x: &[u8]| format!(
/// #     r#"{{"uri":"skill://{name}/SKILL.md","frontmatter":{{"name":"{name}","description":"d"}},"resources":[
/// #         {{"uri":"skill://{name}/SKILL.md","digest":"{}","size":{}}},
/// #         {{"uri":"skill://{name}/x.md","digest":"{}","size":{}}}]}}"#,
/// #     digest_of(md(name).as_bytes()), md(name).len(), digest_of(x), x.len());
/// let mut host = SkillHost::new(HostOptions::default());
/// host.add_server("docs").unwrap();
/// // Valid entries of a listing are registered; the others are reported by position.
/// let listing = format!(r#"{{"skills":[{},{{"uri":"skill://broken"}}]}}"#, entry("a", b"x"));
/// let out = host.register_listing("docs", &listing).unwrap();
/// assert_eq!((out.registered.len(), out.rejected[0].index), (1, 1));
/// assert!(host.entry("docs", "skill://a/SKILL.md").is_some());
/// assert!(host.register("docs", Entry::parse(&entry("b", b"x")).unwrap()).unwrap().added);
/// // skills/get must answer for the URI asked for.
/// let got = format!(r#"{{"skill":{}}}"#, entry("c", b"x"));
/// assert!(host.register_get_result("docs", "skill://c/SKILL.md", &got).unwrap().added);
/// let err = host.register_get_result("docs", "skill://d/SKILL.md", &got).unwrap_err();
/// assert_eq!(err.code, ErrorCode::InvalidEntry);
/// // A newer entry replaces the old one; `refresh` only for a skill already registered.
/// let newer = Entry::parse(&entry("a", b"y")).unwrap();
/// assert!(host.refresh("docs", newer).unwrap().changed);
/// let unknown = Entry::parse(&entry("e", b"x")).unwrap();
/// assert_eq!(host.refresh("docs", unknown.clone()).unwrap_err().code, ErrorCode::UnknownSkill);
/// assert!(host.register("docs", unknown).unwrap().added);
/// assert!(host.forget("docs", "skill://e/SKILL.md").unwrap());
/// assert!(host.entry("docs", "skill://e/SKILL.md").is_none());
/// ```
///
/// # Summaries and display names
///
/// [`SkillHost::skills`] lists every registered skill with a display name unique across
/// servers, [`SkillHost::summary`] gives one, [`SkillHost::lookup`] maps a display name back
/// to (server label, URI), and `SkillHost::innermost_entry` finds the skill a URI lies in.
///
/// ```
/// use skills_edge::host::{Entry, HostOptions, SkillHost};
/// # use skills_edge::catalog::digest_of;
/// # let md = |name: &str| format!("---\nname: {name}\ndescription: d\n---\nSee [x](x.md).\n");
/// # let entry = |name: &str, x: &[u8]| format!(
/// #     r#"{{"uri":"skill://{name}/SKILL.md","frontmatter":{{"name":"{name}","description":"d"}},"resources":[
/// #         {{"uri":"skill://{name}/SKILL.md","digest":"{}","size":{}}},
/// #         {{"uri":"skill://{name}/x.md","digest":"{}","size":{}}}]}}"#,
/// #     digest_of(md(name).as_bytes()), md(name).len(), digest_of(x), x.len());
/// let mut host = SkillHost::new(HostOptions::default());
/// for label in ["work", "home"] {
///     host.add_server(label).unwrap();
///     host.register(label, Entry::parse(&entry("a", b"x")).unwrap()).unwrap();
/// }
/// host.register("work", Entry::parse(&entry("b", b"x")).unwrap()).unwrap();
/// // Two servers serve a skill named `a`: each is shown with its server's label.
/// let names: Vec<String> = host.skills().into_iter().map(|s| s.display_name).collect();
/// assert_eq!(names, ["work:a", "b", "home:a"]);
/// assert_eq!(host.lookup("home:a"), Some(("home".into(), "skill://a/SKILL.md".into())));
/// let s = host.summary("work", "skill://b/SKILL.md").unwrap();
/// assert_eq!((s.name.as_str(), s.display_name.as_str(), s.approved, s.active), ("b", "b", false, false));
/// ```
///
/// # Loading and acting windows
///
/// [`SkillHost::plan_load`] checks what can be checked before the `SKILL.md` is fetched and
/// says what to fetch; [`SkillHost::load`] verifies it and opens the skill's acting window,
/// which [`SkillHost::is_active`] reports and [`SkillHost::close_window`] closes. The digest
/// may be computed here or by the platform ([`Hashing`]); the verdict is the same.
///
/// ```
/// use skills_edge::host::{Content, Entry, ErrorCode, Hashing, HostOptions, SkillHost};
/// use skills_edge::catalog::digest_of;
/// # let md = |name: &str| format!("---\nname: {name}\ndescription: d\n---\nSee [x](x.md).\n");
/// # let entry = |name: &str, x: &[u8]| format!(
/// #     r#"{{"uri":"skill://{name}/SKILL.md","frontmatter":{{"name":"{name}","description":"d"}},"resources":[
/// #         {{"uri":"skill://{name}/SKILL.md","digest":"{}","size":{}}},
/// #         {{"uri":"skill://{name}/x.md","digest":"{}","size":{}}}]}}"#,
/// #     digest_of(md(name).as_bytes()), md(name).len(), digest_of(x), x.len());
/// let mut host = SkillHost::new(HostOptions::default());
/// host.add_server("docs").unwrap();
/// host.register("docs", Entry::parse(&entry("a", b"x")).unwrap()).unwrap();
/// let plan = host.plan_load("docs", "skill://a/SKILL.md").unwrap();
/// assert_eq!(plan.size, Some(md("a").len() as u64));
/// // The caller sends resources/read for plan.uri to the same server and hands back the result.
/// let result = serde_json::json!({"contents":[{"uri": plan.uri, "mimeType": "text/markdown", "text": md("a")}]});
/// let loaded = host.load("docs", &plan.uri, Content::ReadResult(result.to_string()), Hashing::Here).unwrap();
/// assert_eq!((loaded.display_name.as_str(), loaded.skill_md.body()), ("a", "See [x](x.md).\n"));
/// assert!(host.is_active("docs", &plan.uri));
/// // A changed file fails whichever side hashed it, and the content must not be used.
/// let tampered = md("a").replace("See", "Run");
/// let given = digest_of(tampered.as_bytes());
/// let err = host.load("docs", &plan.uri, Content::Text(tampered), Hashing::Given(&given)).unwrap_err();
/// assert_eq!(err.code, ErrorCode::DigestMismatch);
/// assert!(host.close_window("docs", &plan.uri));
/// assert!(!host.is_active("docs", &plan.uri));
/// ```
///
/// # Reading files
///
/// [`SkillHost::plan_read`] resolves a reference against the entry the acting window holds,
/// refusing an escape or an unlisted file before anything is fetched; [`SkillHost::read`]
/// verifies what was fetched.
///
/// ```
/// use skills_edge::host::{Content, Entry, ErrorCode, Hashing, HostOptions, SkillHost};
/// # use skills_edge::catalog::digest_of;
/// # let md = |name: &str| format!("---\nname: {name}\ndescription: d\n---\nSee [x](x.md).\n");
/// # let entry = |name: &str, x: &[u8]| format!(
/// #     r#"{{"uri":"skill://{name}/SKILL.md","frontmatter":{{"name":"{name}","description":"d"}},"resources":[
/// #         {{"uri":"skill://{name}/SKILL.md","digest":"{}","size":{}}},
/// #         {{"uri":"skill://{name}/x.md","digest":"{}","size":{}}}]}}"#,
/// #     digest_of(md(name).as_bytes()), md(name).len(), digest_of(x), x.len());
/// let mut host = SkillHost::new(HostOptions::default());
/// host.add_server("docs").unwrap();
/// host.register("docs", Entry::parse(&entry("a", b"x")).unwrap()).unwrap();
/// let skill = "skill://a/SKILL.md";
/// // Files are read only while the skill is loaded.
/// assert_eq!(host.plan_read("docs", skill, "x.md").unwrap_err().code, ErrorCode::NoActingWindow);
/// host.load("docs", skill, Content::Text(md("a")), Hashing::Here).unwrap();
/// assert_eq!(host.plan_read("docs", skill, "x.md").unwrap().uri, "skill://a/x.md");
/// assert_eq!(host.plan_read("docs", skill, "../b/SKILL.md").unwrap_err().code, ErrorCode::EscapesRoot);
/// assert_eq!(host.plan_read("docs", skill, "y.md").unwrap_err().code, ErrorCode::NotInManifest);
/// let file = host.read("docs", skill, "x.md", Content::Bytes(b"x".to_vec()), Hashing::Here).unwrap();
/// assert!(file.content.receipt.verified);
/// let err = host.read("docs", skill, "x.md", Content::Bytes(b"y".to_vec()), Hashing::Here).unwrap_err();
/// assert_eq!(err.code, ErrorCode::DigestMismatch);
/// ```
///
/// # Approvals
///
/// [`SkillHost::approve`] binds the user's approval to the skill's entry as it stands
/// (`signed_approval_fingerprint`); [`SkillHost::is_approved`] tells whether it still covers the
/// registered entry, [`SkillHost::revoke`] withdraws it, and [`SkillHost::export_approvals`]
/// and [`SkillHost::import_approvals`] persist them.
///
/// ```
/// use skills_edge::host::{approval_fingerprint, Entry, ErrorCode, HostOptions, SkillHost};
/// # use skills_edge::catalog::digest_of;
/// # let md = |name: &str| format!("---\nname: {name}\ndescription: d\n---\nSee [x](x.md).\n");
/// # let entry = |name: &str, x: &[u8]| format!(
/// #     r#"{{"uri":"skill://{name}/SKILL.md","frontmatter":{{"name":"{name}","description":"d"}},"resources":[
/// #         {{"uri":"skill://{name}/SKILL.md","digest":"{}","size":{}}},
/// #         {{"uri":"skill://{name}/x.md","digest":"{}","size":{}}}]}}"#,
/// #     digest_of(md(name).as_bytes()), md(name).len(), digest_of(x), x.len());
/// let policy = HostOptions { require_approval: true, ..HostOptions::default() };
/// let fresh = || {
///     let mut host = SkillHost::new(policy);
///     host.add_server("docs").unwrap();
///     host.register("docs", Entry::parse(&entry("a", b"x")).unwrap()).unwrap();
///     host
/// };
/// let (mut host, skill) = (fresh(), "skill://a/SKILL.md");
/// assert_eq!(host.plan_load("docs", skill).unwrap_err().code, ErrorCode::NotApproved);
/// let fingerprint = host.approve("docs", skill).unwrap();
/// assert_eq!(Ok(fingerprint), approval_fingerprint("docs", host.entry("docs", skill).unwrap()));
/// assert!(host.is_approved("docs", skill) && host.plan_load("docs", skill).is_ok());
/// // Persisted and restored in another registry.
/// let mut later = fresh();
/// assert_eq!(later.import_approvals(&host.export_approvals()), Ok(1));
/// assert!(later.is_approved("docs", skill));
/// // A changed file revokes the approval.
/// let changed = Entry::parse(&entry("a", b"y")).unwrap();
/// assert!(later.register("docs", changed).unwrap().approval_revoked);
/// assert!(!later.is_approved("docs", skill));
/// assert!(host.revoke("docs", skill) && !host.is_approved("docs", skill));
/// ```
///
/// # Signatures
///
/// [`SkillHost::set_signer_policy`] sets a trust list and/or trust on first use (none by
/// default: a signature is checked when a skill has one and reported, nothing is required;
/// see `host::signature`). Registering an entry checks its signature under that
/// policy and the pins of the server's origin ([`SkillHost::set_origin`]; the label until
/// set); [`SkillHost::signer`] and every summary name the verified signer; approvals are
/// bound to it. [`SkillHost::export_pins`], [`SkillHost::import_pins`] and
/// [`SkillHost::accept_signer_change`] manage the pins.
///
/// ```
/// use skills_edge::host::{trusted_key, Entry, ErrorCode, HostOptions, SignerPolicy, SkillHost};
/// # use skills_edge::catalog::digest_of;
/// # let md = |name: &str| format!("---\nname: {name}\ndescription: d\n---\nSee [x](x.md).\n");
/// # let entry = |name: &str, x: &[u8]| format!(
/// #     r#"{{"uri":"skill://{name}/SKILL.md","frontmatter":{{"name":"{name}","description":"d"}},"resources":[
/// #         {{"uri":"skill://{name}/SKILL.md","digest":"{}","size":{}}},
/// #         {{"uri":"skill://{name}/x.md","digest":"{}","size":{}}}]}}"#,
/// #     digest_of(md(name).as_bytes()), md(name).len(), digest_of(x), x.len());
/// let mut host = SkillHost::new(HostOptions::default());
/// host.add_server("docs").unwrap();
/// host.set_origin("docs", "https://skills.example").unwrap();
/// // The default policy: an unsigned skill is accepted, and has no signer.
/// host.register("docs", Entry::parse(&entry("a", b"x")).unwrap()).unwrap();
/// assert!(host.signer("docs", "skill://a/SKILL.md").is_none());
/// // A trust list requires every skill to be signed by one of its keys.
/// let jwk = r#"{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#;
/// host.set_signer_policy(SignerPolicy {
///     trusted: vec![trusted_key("the trusted key", jwk).unwrap()],
///     trust_on_first_use: false,
/// });
/// let refused = host.register("docs", Entry::parse(&entry("b", b"x")).unwrap()).unwrap_err();
/// assert_eq!(refused.code, ErrorCode::SignerUntrusted);
/// assert!(host.entry("docs", "skill://b/SKILL.md").is_none());
/// ```
pub struct SkillHost {
    options: HostOptions,
    signers: Signers,
    servers: Vec<Server>,
    /// The approved fingerprints by server label and URI: kept when a skill is forgotten,
    /// dropped with its server ([`SkillHost::remove_server`]).
    approvals: Map<Map<String>>,
    /// The display names of [`SkillHost::display_table`] by server label and URI, built once
    /// after the set of registered skills last changed (a skill added or forgotten, a server
    /// added or removed).
    names: OnceCell<Map<Map<String>>>,
}

/// The value of a two-part key (server label, URI) in a map of maps.
fn get2<'a, T>(map: &'a Map<Map<T>>, label: &str, uri: &str) -> Option<&'a T> {
    map.get(label)?.get(uri).map(|v| &**v)
}

fn unknown_skill(label: &str, uri: &str) -> VerifyError {
    VerifyError::new(
        ErrorCode::UnknownSkill,
        format!("no skill {uri} is registered for the server {label:?}; register its entry from skills/list or skills/get first"),
    )
    .with_uri(uri)
}

impl SkillHost {
    /// An empty registry with `options`.
    pub fn new(options: HostOptions) -> SkillHost {
        SkillHost {
            options,
            signers: Signers::default(),
            servers: Vec::new(),
            approvals: Map::new(),
            names: OnceCell::new(),
        }
    }

    /// The policy in force.
    pub fn options(&self) -> HostOptions {
        self.options
    }

    /// Adds a server under a host-assigned label (H23, H28): 1 to `MAX_LABEL_LEN` bytes, no
    /// control characters, no leading or trailing whitespace. Never the server's
    /// self-reported name; a client's default is the server's origin (`https://host:port`),
    /// so a label may hold `:` (display names qualify a name with `label:`, and stay unique:
    /// a skill name never holds `:`). [`ErrorCode::InvalidArgument`] when the label is
    /// malformed or already in use.
    pub fn add_server(&mut self, label: &str) -> Result<()> {
        let bad = |m: &str| {
            VerifyError::new(
                ErrorCode::InvalidArgument,
                format!("the server label {label:?} {m}"),
            )
        };
        if label.is_empty() || label.len() > MAX_LABEL_LEN {
            return Err(bad("must be 1 to 2048 bytes long"));
        }
        if label.chars().any(char::is_control) {
            return Err(bad("must not contain control characters"));
        }
        if label.chars().any(is_invisible_format) {
            return Err(bad(
                "must not contain invisible or bidirectional format characters (U+00AD, U+061C, U+180E, U+200B to U+200F, U+202A to U+202E, U+2060 to U+206F, U+FEFF, U+FFF9 to U+FFFB): a label is shown to people, and two labels that look alike would pass for one server",
            ));
        }
        if label.trim() != label {
            return Err(bad("must not start or end with whitespace"));
        }
        if self.server(label).is_ok() {
            return Err(bad("is already in use"));
        }
        self.servers.push(Server {
            label: label.to_owned(),
            skills: Map::new(),
            origin: super::index::canonical_origin(label),
        });
        self.names.take();
        Ok(())
    }

    /// Removes a server with its skills, acting windows and approvals (H33: a removed
    /// server leaves nothing behind). [`ErrorCode::UnknownServer`] if there is none.
    pub fn remove_server(&mut self, label: &str) -> Result<()> {
        self.server(label)?;
        self.servers.retain(|s| s.label != label);
        self.approvals.remove(label);
        self.names.take();
        Ok(())
    }

    /// The labels, in the order they were added.
    pub fn servers(&self) -> Vec<&str> {
        self.servers.iter().map(|s| s.label.as_str()).collect()
    }

    fn server(&self, label: &str) -> Result<&Server> {
        self.servers
            .iter()
            .find(|s| s.label == label)
            .ok_or_else(|| {
                VerifyError::new(
                    ErrorCode::UnknownServer,
                    format!("no server is labelled {label:?}; add it first"),
                )
            })
    }

    fn server_mut(&mut self, label: &str) -> Result<&mut Server> {
        self.server(label)?;
        self.servers
            .iter_mut()
            .find(|s| s.label == label)
            .ok_or_else(|| VerifyError::new(ErrorCode::UnknownServer, "unknown server"))
    }

    fn skill(&self, label: &str, uri: &str) -> Option<&Skill> {
        self.server(label).ok()?.skills.get(uri).map(|s| &**s)
    }

    fn skill_mut(&mut self, label: &str, uri: &str) -> Option<&mut Skill> {
        let server = self.server_mut(label).ok()?;
        server.skills.get_mut(uri).map(|s| &mut **s)
    }

    fn entry_or_err(&self, label: &str, uri: &str) -> Result<&Entry> {
        self.server(label)?
            .skills
            .get(uri)
            .map(|s| &s.entry)
            .ok_or_else(|| unknown_skill(label, uri))
    }

    fn verify_options(&self) -> VerifyOptions {
        VerifyOptions {
            allow_dynamic: self.options.allow_dynamic,
        }
    }
}
