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
//! knows a result's `ttlMs` records the deadline with [`SkillHost::set_current_until`], a
//! number on its own clock (the registry has none), and [`SkillHost::plan_load_current`]
//! answers in one call whether the held entry is still current at `now` and, if it is, what
//! to read. Registering an entry again clears its deadline until the caller sets a new one.

use std::cell::OnceCell;
use std::collections::{BTreeMap, BTreeSet};

use crate::skill::value::write_json_string;
use skills_edge_catalog::json;

use super::approval::{signed_approval_fingerprint, ApprovalsExport};
use super::entry::Entry;
use super::error::{ErrorCode, Result, VerifyError};
use super::signature::{Pin, Signer, SignerPolicy, Signers};
use super::verify::{
    manifest_item, resolve_in_root, verify_content, verify_skill_md, Content, Hashing,
    VerifiedContent, VerifiedSkillMd, VerifyOptions,
};
use crate::skill::limits::MAX_BYTES_PER_SKILL;

/// The longest server label accepted, in bytes: the longest origin accepted
/// ([`SkillHost::set_origin`]), since a client's default label is its server's origin.
pub const MAX_LABEL_LEN: usize = super::signature::MAX_ORIGIN_LEN;

/// Host policy.
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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// The skill is activated for a model.
    Use,
    /// The skill is only checked.
    Check,
}

/// One registered skill, as [`SkillHost::skills`] shows it.
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
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejected {
    /// Its position in the listing.
    pub index: usize,
    /// Why.
    pub error: VerifyError,
}

/// What registering a listing did.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ListingOutcome {
    /// The valid entries, registered.
    pub registered: Vec<RegisterOutcome>,
    /// The invalid ones, not registered (a host must not load them, H7).
    pub rejected: Vec<Rejected>,
}

/// What to fetch next: the exact URI, and the manifest item it must match.
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
/// use skills_edge::skill::digest::digest_of;
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
/// [`SkillHost::register_listing`] (a `skills/list` result), [`SkillHost::register_entries`]
/// (its items one by one), [`SkillHost::register_get_result`] (a `skills/get` result),
/// [`SkillHost::register`] and [`SkillHost::refresh`] (one parsed [`Entry`]),
/// [`SkillHost::forget`], and [`SkillHost::entry`] to read one back.
///
/// ```
/// use skills_edge::host::{Entry, ErrorCode, HostOptions, SkillHost};
/// # use skills_edge::skill::digest::digest_of;
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
/// let out = host.register_entries("docs", [entry("b", b"x")]).unwrap();
/// assert!(out.registered[0].added);
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
/// to (server label, URI), and [`SkillHost::innermost_entry`] finds the skill a URI lies in.
///
/// ```
/// use skills_edge::host::{Entry, HostOptions, SkillHost};
/// # use skills_edge::skill::digest::digest_of;
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
/// let inner = host.innermost_entry("work", "skill://b/x.md").unwrap();
/// assert_eq!(inner.uri(), "skill://b/SKILL.md");
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
/// use skills_edge::skill::digest::digest_of;
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
/// # use skills_edge::skill::digest::digest_of;
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
/// ([`signed_approval_fingerprint`]); [`SkillHost::is_approved`] tells whether it still covers the
/// registered entry, [`SkillHost::revoke`] withdraws it, and [`SkillHost::export_approvals`]
/// and [`SkillHost::import_approvals`] persist them.
///
/// ```
/// use skills_edge::host::{approval_fingerprint, Entry, ErrorCode, HostOptions, SkillHost};
/// # use skills_edge::skill::digest::digest_of;
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
/// see [`crate::host::signature`]). Registering an entry checks its signature under that
/// policy and the pins of the server's origin ([`SkillHost::set_origin`]; the label until
/// set); [`SkillHost::signer`] and every summary name the verified signer; approvals are
/// bound to it. [`SkillHost::export_pins`], [`SkillHost::import_pins`] and
/// [`SkillHost::accept_signer_change`] manage the pins.
///
/// ```
/// use skills_edge::host::signature::trusted_key;
/// use skills_edge::host::{Entry, ErrorCode, HostOptions, SignerPolicy, SkillHost};
/// # use skills_edge::skill::digest::digest_of;
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

    /// Adds a server under a host-assigned label (H23, H28): 1 to [`MAX_LABEL_LEN`] bytes, no
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

    /// Registers (or replaces) the entry of a skill of server `label`, after checking its
    /// signature under the signer policy and the pins of the server's origin
    /// ([`Signers::check_entry`]): [`ErrorCode::SignatureInvalid`],
    /// [`ErrorCode::SignerUntrusted`] or [`ErrorCode::SignerChanged`] refuse the entry, and
    /// the entry registered before (if any) stays as it was, with its signer. When a stored
    /// approval does not match the new entry's `(uri, digest)` set and signer, it is revoked
    /// (H30). An open acting window keeps the entry it was loaded from (H15); load again to
    /// use the new one.
    pub fn register(&mut self, label: &str, entry: Entry) -> Result<RegisterOutcome> {
        let origin = self.server(label)?.origin.clone();
        let signer = self.signers.check_entry(&origin, &entry)?;
        self.register_signed(label, entry, signer)
    }

    /// [`SkillHost::register`] once the signature was checked.
    fn register_signed(
        &mut self,
        label: &str,
        entry: Entry,
        signer: Option<Signer>,
    ) -> Result<RegisterOutcome> {
        let uri = entry.uri().to_owned();
        let revoke = match get2(&self.approvals, label, &uri) {
            Some(stored) => {
                signed_approval_fingerprint(label, &entry, signer.as_ref())
                    .ok()
                    .as_ref()
                    != Some(stored)
            }
            None => false,
        };
        let server = self.server_mut(label)?;
        let (added, changed) = match server.skills.get_mut(&uri) {
            Some(skill) => {
                let changed = !skill.entry.same_file_set(&entry);
                skill.entry = entry;
                skill.current_until = None;
                skill.signer = signer;
                (false, changed)
            }
            None => {
                let skill = Skill {
                    entry,
                    current_until: None,
                    signer,
                    window: None,
                    check: None,
                };
                server.skills.insert(uri.clone(), Box::new(skill));
                self.names.take();
                (true, false)
            }
        };
        if added {
            self.close_unconsented_windows(label, &uri);
        }
        if revoke {
            if let Some(uris) = self.approvals.get_mut(label) {
                uris.remove(&uri);
            }
            self.close_gated_window(label, &uri);
        }
        Ok(RegisterOutcome {
            uri,
            added,
            changed,
            approval_revoked: revoke,
        })
    }

    /// [`SkillHost::register`] for a skill that is already registered
    /// ([`ErrorCode::UnknownSkill`] otherwise): the path a host takes after a verification
    /// failure or when a TTL runs out (H12).
    pub fn refresh(&mut self, label: &str, entry: Entry) -> Result<RegisterOutcome> {
        let known = self.server(label)?.skills.contains_key(entry.uri());
        if !known {
            return Err(unknown_skill(label, entry.uri()));
        }
        self.register(label, entry)
    }

    /// Registers every valid entry of a `skills/list` result (an object with a `skills`
    /// array, `resultType` absent or `"complete"`) or of a plain array of entries, given as
    /// JSON. Invalid entries, and a second entry for a URI already in this listing, are
    /// reported, not registered, and do not stop the others.
    pub fn register_listing(&mut self, label: &str, json: &str) -> Result<ListingOutcome> {
        self.server(label)?;
        let raw = listing_entries(json)?;
        self.register_entries(label, raw)
    }

    /// [`SkillHost::register_listing`] for entries given one by one (each the JSON text of
    /// one entry, in listing order), so a caller holding a listing's items never joins them
    /// into one text. An entry whose signature the policy refuses is reported as rejected
    /// with that code ([`SkillHost::register`]).
    ///
    /// When the server's origin has no pin yet and would be pinned (trust on first use, or a
    /// change accepted), the first signed entry of the listing whose signature holds pins it
    /// before any other is registered, so a listing is judged as a whole whatever its order: an
    /// unsigned skill listed before it is refused as it would be in the next listing.
    pub fn register_entries<I>(&mut self, label: &str, entries: I) -> Result<ListingOutcome>
    where
        I: IntoIterator,
        I::Item: AsRef<str>,
    {
        let origin = self.server(label)?.origin.clone();
        let entries: Vec<I::Item> = entries.into_iter().collect();
        let first_use = self.pin_from_listing(&origin, &entries);
        let mut out = ListingOutcome::default();
        let mut seen: Map<usize> = Map::new();
        for (index, raw_entry) in entries.iter().enumerate() {
            match Entry::parse(raw_entry.as_ref()) {
                Ok(entry) => {
                    if let Some(first) = seen.get(entry.uri()) {
                        let error = VerifyError::new(
                            ErrorCode::InvalidEntry,
                            format!(
                                "the listing has the skill {} twice (entries {first} and {index}); the first was kept",
                                entry.uri()
                            ),
                        )
                        .with_uri(entry.uri());
                        out.rejected.push(Rejected { index, error });
                        continue;
                    }
                    seen.insert(entry.uri().to_owned(), Box::new(index));
                    let checked = match &first_use {
                        Some((at, signer)) if *at == index => Ok(Some(signer.clone())),
                        _ => self.signers.check_entry(&origin, &entry),
                    };
                    match checked {
                        Ok(signer) => out
                            .registered
                            .push(self.register_signed(label, entry, signer)?),
                        Err(error) => out.rejected.push(Rejected { index, error }),
                    }
                }
                Err(error) => out.rejected.push(Rejected { index, error }),
            }
        }
        Ok(out)
    }

    /// The pre-pass of [`SkillHost::register_entries`]: when `origin` has no pin and would be
    /// pinned, the first signed entry whose signature holds pins it now. Returns its position
    /// and signer (a first use), to register it with.
    fn pin_from_listing<T: AsRef<str>>(
        &mut self,
        origin: &str,
        entries: &[T],
    ) -> Option<(usize, Signer)> {
        if !self.signers.would_pin(origin) {
            return None;
        }
        for (index, raw) in entries.iter().enumerate() {
            let Ok(entry) = Entry::parse(raw.as_ref()) else {
                continue;
            };
            if entry.signature().is_none() {
                continue;
            }
            if let Ok(Some(signer)) = self.signers.check_entry(origin, &entry) {
                // The origin is pinned now (unless the origin is one no pin is kept for).
                return self
                    .signers
                    .pin(origin)
                    .is_some()
                    .then_some((index, signer));
            }
        }
        None
    }

    /// Registers the entry of a `skills/get` result for `requested_uri` (given as JSON):
    /// `resultType` absent or `"complete"`, and `skill.uri` must echo the requested URI
    /// ([`ErrorCode::InvalidEntry`] otherwise).
    pub fn register_get_result(
        &mut self,
        label: &str,
        requested_uri: &str,
        json: &str,
    ) -> Result<RegisterOutcome> {
        self.server(label)?;
        let invalid =
            |m: String| VerifyError::new(ErrorCode::InvalidEntry, m).with_uri(requested_uri);
        let read = |m: String| invalid(format!("the skills/get result cannot be read: {m}"));
        let doc = json::parse(json).map_err(|e| read(e.to_string()))?;
        if doc.as_object().is_none() {
            return Err(read(format!("it is {}, not an object", doc.a_type())));
        }
        if let Some(t) = doc.opt_str("resultType").map_err(read)? {
            if t != "complete" {
                let mut m = String::from("the skills/get result is not complete (resultType ");
                write_json_string(t, &mut m);
                m.push(')');
                return Err(invalid(m).with_values("complete", t));
            }
        }
        let raw = doc
            .field("skill")
            .map_err(read)?
            .filter(|n| !n.is_null())
            .ok_or_else(|| invalid("the skills/get result has no `skill`".into()))?;
        let entry = Entry::from_node(raw)?;
        if entry.uri() != requested_uri {
            return Err(invalid(format!(
                "skills/get for {requested_uri} answered with the skill {}",
                entry.uri()
            ))
            .with_values(requested_uri, entry.uri()));
        }
        self.register(label, entry)
    }

    /// Forgets a skill (for example after `skills/get` says it is no longer served) and
    /// closes its acting window. Its approval stays stored and still only counts for an
    /// identical entry. Returns whether it was registered.
    pub fn forget(&mut self, label: &str, uri: &str) -> Result<bool> {
        let server = self.server_mut(label)?;
        let removed = server.skills.remove(uri).is_some();
        if removed {
            self.names.take();
        }
        Ok(removed)
    }

    /// The registered entry of a skill.
    pub fn entry(&self, label: &str, uri: &str) -> Option<&Entry> {
        self.skill(label, uri).map(|s| &s.entry)
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

    /// Every registered skill, servers in the order added, skills by URI, with display names
    /// that are unique across the registry (H23): a name that only one skill has is shown
    /// as is; skills of one server that share a name are told apart by their path prefix
    /// (`refunds (acme/billing)`) or, failing that, their root URI; a display name that
    /// several servers have is prefixed with the server label (`work:refunds`). No skill is
    /// dropped or shadowed.
    pub fn skills(&self) -> Vec<SkillSummary> {
        self.display_table()
            .into_iter()
            .map(|(label, entry, display_name)| self.summary_of(label, entry, display_name))
            .collect()
    }

    /// The summary of one registered skill, as [`SkillHost::skills`] shows it. The display
    /// names are worked out once after the set of registered skills changes and then looked
    /// up, so asking for every skill of a listing in turn stays linear in the listing.
    pub fn summary(&self, label: &str, uri: &str) -> Option<SkillSummary> {
        let entry = self.entry(label, uri)?;
        let display_name = self.display_name(label, uri);
        Some(self.summary_of(label, entry, display_name))
    }

    fn summary_of(&self, label: &str, entry: &Entry, display_name: String) -> SkillSummary {
        SkillSummary {
            server_label: label.to_owned(),
            uri: entry.uri().to_owned(),
            name: entry.name().to_owned(),
            description: entry.description().to_owned(),
            display_name,
            dynamic: entry.is_dynamic(),
            revision: entry.revision(),
            approved: self.is_approved(label, entry.uri()),
            active: self.is_active(label, entry.uri()),
            signer: self.signer(label, entry.uri()).cloned(),
        }
    }

    /// Every registered skill with its display name (see [`SkillHost::skills`]), in
    /// O(skills) (the names are grouped with maps).
    fn display_table(&self) -> Vec<(&str, &Entry, String)> {
        #[cfg(test)]
        tests::TABLE_BUILDS.with(|c| c.set(c.get() + 1));
        let locals: Vec<Vec<String>> = self.servers.iter().map(local_display_names).collect();
        // H23: a skill name served by more than one server is qualified with the label on
        // every server that serves it, whatever prefixes a server adds, so no bare name (or
        // `name (prefix)`) stands for one server's skill while another's has the same name.
        let mut servers_of_name: Map<usize> = Map::new();
        for server in self.servers.iter() {
            let names: BTreeSet<&str> = server.skills.values().map(|s| s.entry.name()).collect();
            for n in names {
                **servers_of_name.entry(n.to_owned()).or_default() += 1;
            }
        }
        let mut out = Vec::new();
        for (server, names) in self.servers.iter().zip(&locals) {
            for (skill, local) in server.skills.values().zip(names) {
                let entry = &skill.entry;
                let shared = servers_of_name.get(entry.name()).is_some_and(|n| **n > 1);
                let display_name = if shared {
                    format!("{}:{local}", server.label)
                } else {
                    local.clone()
                };
                out.push((server.label.as_str(), entry, display_name));
            }
        }
        // A last guard: should two display names still coincide, spell both out in full.
        let mut seen: Map<usize> = Map::new();
        for (_, _, name) in &out {
            **seen.entry(name.clone()).or_default() += 1;
        }
        for (label, entry, name) in &mut out {
            if seen.get(name.as_str()).is_some_and(|n| **n > 1) {
                *name = format!("{label}:{}", entry.uri());
            }
        }
        out
    }

    /// The display names by (label, URI), built from [`SkillHost::display_table`] once per
    /// change of the registered set.
    fn names(&self) -> &Map<Map<String>> {
        self.names.get_or_init(|| {
            let mut names: Map<Map<String>> = Map::new();
            for (label, entry, name) in self.display_table() {
                names
                    .entry(label.to_owned())
                    .or_default()
                    .insert(entry.uri().to_owned(), Box::new(name));
            }
            names
        })
    }

    /// The `(server label, URI)` of the skill shown as `display_name`.
    pub fn lookup(&self, display_name: &str) -> Option<(String, String)> {
        self.names().iter().find_map(|(label, names)| {
            let (uri, _) = names.iter().find(|(_, name)| ***name == display_name)?;
            Some((label.clone(), uri.clone()))
        })
    }

    fn display_name(&self, label: &str, uri: &str) -> String {
        get2(self.names(), label, uri).cloned().unwrap_or_default()
    }

    /// The registered entry of server `label` with the longest root that contains `uri` (a
    /// URI that starts with the root and a `/`): each prefix of `uri` up to a `/` is looked up
    /// as a root, longest first (the skill of root `r` is registered under `r/SKILL.md`), so no
    /// skill is scanned (O(depth × log skills)).
    pub fn innermost_entry(&self, label: &str, uri: &str) -> Option<&Entry> {
        let server = self.server(label).ok()?;
        let ends: Vec<usize> = uri.match_indices('/').map(|(i, _)| i).collect();
        let mut skill_md = String::new();
        ends.iter().rev().find_map(|end| {
            let prefix = uri.get(..*end)?;
            skill_md.clear();
            skill_md.push_str(prefix);
            skill_md.push_str("/SKILL.md");
            let entry = &server.skills.get(skill_md.as_str())?.entry;
            (entry.root() == prefix).then_some(entry)
        })
    }

    /// The innermost skill of the same server whose root encloses the root of the registered
    /// skill `uri`, when `uri` is a nested skill (U10, H31). Nesting is known from the
    /// registered entries only: nothing in a listing marks it.
    pub fn enclosing_skill(&self, label: &str, uri: &str) -> Option<&Entry> {
        let entry = self.entry(label, uri)?;
        self.innermost_entry(label, entry.root())
    }

    /// Whether loading the skill needs a current approval: `require_approval` is on, or it is
    /// a nested skill ([`SkillHost::enclosing_skill`]) and `nested_without_approval` is off.
    pub fn needs_approval(&self, label: &str, uri: &str) -> bool {
        self.options.require_approval
            || (!self.options.nested_without_approval && self.enclosing_skill(label, uri).is_some())
    }

    /// Checks everything that can be checked before the `SKILL.md` is fetched (H8, H30,
    /// H31): the skill is registered, within the limits (from the entry alone), dynamic only
    /// if allowed, approved if approval is required or the skill is nested
    /// ([`SkillHost::needs_approval`]). Returns what to read.
    pub fn plan_load(&self, label: &str, uri: &str) -> Result<PlannedRead> {
        self.plan_load_for(label, uri, Purpose::Use)
    }

    /// [`SkillHost::plan_load`] for `purpose`: a load that only checks a skill
    /// ([`Purpose::Check`]) needs no consent for a nested skill, since nothing reaches a model.
    pub fn plan_load_for(&self, label: &str, uri: &str, purpose: Purpose) -> Result<PlannedRead> {
        let entry = self.entry_or_err(label, uri)?;
        if entry.is_dynamic() && !self.options.allow_dynamic {
            return Err(VerifyError::new(
                ErrorCode::DynamicNotAllowed,
                format!("the skill {uri} has \"dynamic\" resources, which this host does not load (its files cannot be verified)"),
            )
            .with_uri(uri));
        }
        entry.check_limits()?;
        let enclosing = if self.options.nested_without_approval || purpose == Purpose::Check {
            None
        } else {
            self.enclosing_skill(label, uri)
        };
        if self.options.require_approval || enclosing.is_some() {
            // H31: a nested skill needs its own consent, whatever the policy.
            let nested = enclosing.map(|outer| {
                format!(
                    "; it is nested in the skill {} and activating a nested skill needs its own, explicit consent (the enclosing skill's approval does not count): approve it, or set nested_without_approval (npm: nestedWithoutApproval) when the host asks for that consent itself",
                    outer.uri()
                )
            });
            let nested = nested.unwrap_or_default();
            if entry.is_dynamic() {
                return Err(VerifyError::new(
                    ErrorCode::DynamicNotAllowed,
                    format!("the skill {uri} has \"dynamic\" resources, and approvals cannot cover content that is not enumerated{nested}"),
                )
                .with_uri(uri));
            }
            if !self.is_approved(label, uri) {
                return Err(VerifyError::new(
                    ErrorCode::NotApproved,
                    format!("the skill {uri} of {label:?} is not approved in its current form; ask the user before loading it{nested}"),
                )
                .with_uri(uri));
            }
        }
        let item = entry.skill_md_item();
        Ok(PlannedRead {
            uri: uri.to_owned(),
            digest: item.map(|i| i.digest.clone()),
            size: item.map(|i| i.size),
        })
    }

    /// Records that the registered entry of a skill is current until `deadline` (for
    /// example the time a `skills/list` or `skills/get` result arrived plus its `ttlMs`), in
    /// milliseconds on the caller's clock: the registry keeps no clock of its own, so every
    /// question about freshness brings its `now`. Returns whether the skill is registered
    /// (nothing is recorded otherwise). Registering the skill again clears the deadline.
    pub fn set_current_until(&mut self, label: &str, uri: &str, deadline: f64) -> bool {
        let Some(skill) = self.skill_mut(label, uri) else {
            return false;
        };
        skill.current_until = Some(deadline);
        true
    }

    /// Whether the skill is registered and its entry still current at `now` (before the
    /// deadline last set with [`SkillHost::set_current_until`]; without one, it is not).
    pub fn is_current(&self, label: &str, uri: &str, now: f64) -> bool {
        self.skill(label, uri)
            .and_then(|s| s.current_until)
            .is_some_and(|t| t > now)
    }

    /// [`SkillHost::plan_load`] for a skill whose entry is current at `now` (H34), in one
    /// call: `Ok(None)` when the skill is unknown or its entry no longer current (fetch it
    /// with `skills/get`, register it and set its deadline first), else what
    /// [`SkillHost::plan_load`] answers.
    pub fn plan_load_current(
        &self,
        label: &str,
        uri: &str,
        now: f64,
    ) -> Result<Option<PlannedRead>> {
        self.plan_load_current_for(label, uri, now, Purpose::Use)
    }

    /// [`SkillHost::plan_load_current`] for `purpose` ([`SkillHost::plan_load_for`]).
    pub fn plan_load_current_for(
        &self,
        label: &str,
        uri: &str,
        now: f64,
        purpose: Purpose,
    ) -> Result<Option<PlannedRead>> {
        if !self.is_current(label, uri, now) {
            return Ok(None);
        }
        self.plan_load_for(label, uri, purpose).map(Some)
    }

    /// Loads a skill: [`SkillHost::plan_load`]'s checks, then the `SKILL.md` content (read
    /// from the same server) verified against the registered entry (size, digest hashed as
    /// `hashing` says, frontmatter: [`verify_skill_md`]). On success the acting window opens
    /// (or is reopened) holding that entry (H15); on failure nothing changes and the content
    /// must not be used.
    pub fn load(
        &mut self,
        label: &str,
        uri: &str,
        content: Content,
        hashing: Hashing<'_>,
    ) -> Result<LoadedSkill> {
        self.load_for(label, uri, content, hashing, Purpose::Use)
    }

    /// [`SkillHost::load`] for `purpose` ([`SkillHost::plan_load_for`]).
    pub fn load_for(
        &mut self,
        label: &str,
        uri: &str,
        content: Content,
        hashing: Hashing<'_>,
        purpose: Purpose,
    ) -> Result<LoadedSkill> {
        self.plan_load_for(label, uri, purpose)?;
        let entry = self.entry_or_err(label, uri)?.clone();
        let skill_md = verify_skill_md(&entry, &content, hashing)?;
        let retrieved = skill_md.receipt.size;
        if entry.is_dynamic() && retrieved > MAX_BYTES_PER_SKILL {
            return Err(dynamic_limit(uri, retrieved));
        }
        if let Some(skill) = self.skill_mut(label, uri) {
            let window = Some(Window { entry, retrieved });
            match purpose {
                Purpose::Use => skill.window = window,
                Purpose::Check => skill.check = window,
            }
        }
        Ok(LoadedSkill {
            server_label: label.to_owned(),
            display_name: self.display_name(label, uri),
            skill_md,
        })
    }

    /// Whether an acting window is open for the skill.
    pub fn is_active(&self, label: &str, uri: &str) -> bool {
        self.skill(label, uri).is_some_and(|s| s.window.is_some())
    }

    /// Closes the acting window (when the `SKILL.md` leaves the model's context). Returns
    /// whether one was open.
    pub fn close_window(&mut self, label: &str, uri: &str) -> bool {
        self.skill_mut(label, uri)
            .and_then(|s| s.window.take())
            .is_some()
    }

    /// Closes the window a check opened ([`Purpose::Check`]), leaving the acting window as
    /// it was. Returns whether one was open.
    pub fn close_check_window(&mut self, label: &str, uri: &str) -> bool {
        self.skill_mut(label, uri)
            .and_then(|s| s.check.take())
            .is_some()
    }

    fn window(&self, label: &str, skill_uri: &str, purpose: Purpose) -> Result<&Window> {
        self.server(label)?;
        let window = self.skill(label, skill_uri).and_then(|s| match purpose {
            Purpose::Use => s.window.as_ref(),
            Purpose::Check => s.check.as_ref(),
        });
        window.ok_or_else(|| {
            VerifyError::new(
                ErrorCode::NoActingWindow,
                format!("the skill {skill_uri} of {label:?} is not loaded, so its files cannot be read; load it first (reading a SKILL.md does not activate a skill)"),
            )
            .with_uri(skill_uri)
        })
    }

    /// Resolves a reference (relative to the skill root, or an absolute URI) to the file to
    /// fetch, using only the entry held by the skill's acting window (H16): a reference that
    /// leaves the root is [`ErrorCode::EscapesRoot`], an unlisted file
    /// [`ErrorCode::NotInManifest`], both before anything is fetched.
    pub fn plan_read(&self, label: &str, skill_uri: &str, reference: &str) -> Result<PlannedRead> {
        self.plan_read_for(label, skill_uri, reference, Purpose::Use)
    }

    /// [`SkillHost::plan_read`] through the window of `purpose`: a check reads only through
    /// the window its own load opened, an ordinary read only through the acting window.
    pub fn plan_read_for(
        &self,
        label: &str,
        skill_uri: &str,
        reference: &str,
        purpose: Purpose,
    ) -> Result<PlannedRead> {
        let window = self.window(label, skill_uri, purpose)?;
        let uri = resolve_in_root(window.entry.root(), reference)?;
        let item = manifest_item(&window.entry, &uri, self.verify_options())?;
        Ok(PlannedRead {
            digest: item.map(|i| i.digest.clone()),
            size: item.map(|i| i.size),
            uri,
        })
    }

    /// Verifies a supporting file of a loaded skill: [`SkillHost::plan_read`]'s checks, then
    /// size and digest (hashed as `hashing` says) against the held entry
    /// ([`verify_content`]). A nested `SKILL.md` read this way is ordinary content (H21, H31):
    /// it activates nothing; its own skill needs its own entry, approval and
    /// [`SkillHost::load`].
    pub fn read(
        &mut self,
        label: &str,
        skill_uri: &str,
        reference: &str,
        content: Content,
        hashing: Hashing<'_>,
    ) -> Result<ReadFile> {
        self.read_for(label, skill_uri, reference, content, hashing, Purpose::Use)
    }

    /// [`SkillHost::read`] through the window of `purpose` ([`SkillHost::plan_read_for`]).
    pub fn read_for(
        &mut self,
        label: &str,
        skill_uri: &str,
        reference: &str,
        content: Content,
        hashing: Hashing<'_>,
        purpose: Purpose,
    ) -> Result<ReadFile> {
        let plan = self.plan_read_for(label, skill_uri, reference, purpose)?;
        let options = self.verify_options();
        let window = self
            .skill_mut(label, skill_uri)
            .and_then(|s| match purpose {
                Purpose::Use => s.window.as_mut(),
                Purpose::Check => s.check.as_mut(),
            })
            .ok_or_else(|| VerifyError::new(ErrorCode::NoActingWindow, "no acting window"))?;
        let verified = verify_content(&window.entry, &plan.uri, &content, hashing, options)?;
        if window.entry.is_dynamic() {
            let total = window.retrieved.saturating_add(verified.receipt.size);
            if total > MAX_BYTES_PER_SKILL {
                return Err(dynamic_limit(skill_uri, total));
            }
            window.retrieved = total;
        }
        Ok(ReadFile {
            server_label: label.to_owned(),
            skill_uri: skill_uri.to_owned(),
            content: verified,
        })
    }

    fn verify_options(&self) -> VerifyOptions {
        VerifyOptions {
            allow_dynamic: self.options.allow_dynamic,
        }
    }

    /// Records the user's approval of the skill as its entry stands now (H30), under its
    /// verified signer ([`signed_approval_fingerprint`]: the approval does not carry over to
    /// another signer or to the skill unsigned), and returns the fingerprint stored.
    /// [`ErrorCode::DynamicNotAllowed`] for a dynamic skill.
    pub fn approve(&mut self, label: &str, uri: &str) -> Result<String> {
        let entry = self.entry_or_err(label, uri)?;
        let fingerprint = signed_approval_fingerprint(label, entry, self.signer(label, uri))?;
        self.approvals
            .entry(label.to_owned())
            .or_default()
            .insert(uri.to_owned(), Box::new(fingerprint.clone()));
        Ok(fingerprint)
    }

    /// Withdraws an approval. Returns whether there was one. When loading the skill needs an
    /// approval ([`SkillHost::needs_approval`]), its acting window closes too: the consent it
    /// was opened under is gone, so no more of its files are read (load it again after a new
    /// approval).
    pub fn revoke(&mut self, label: &str, uri: &str) -> bool {
        let had = self
            .approvals
            .get_mut(label)
            .and_then(|uris| uris.remove(uri))
            .is_some();
        if had {
            self.close_gated_window(label, uri);
        }
        had
    }

    /// Closes the acting windows of the skills nested in the skill `uri`, just registered,
    /// that now need a consent they lack (H31: "Activating it needs fresh, explicit user
    /// consent"). A nested skill loaded from its URI before its enclosing skill was known
    /// was loaded as a skill of its own; once the enclosing skill is registered, its window
    /// stays open only if it is approved (or the host opted out with
    /// `nested_without_approval`). The registered skills under the root are a range of the
    /// map, so only they are visited.
    fn close_unconsented_windows(&mut self, label: &str, uri: &str) {
        let Some(root) = uri.strip_suffix("/SKILL.md") else {
            return;
        };
        let prefix = format!("{root}/");
        let open: Vec<String> = match self.server(label) {
            Ok(server) => server
                .skills
                .range(prefix.clone()..)
                .take_while(|(k, _)| k.starts_with(&prefix))
                .filter(|(_, s)| s.window.is_some())
                .map(|(k, _)| k.clone())
                .collect(),
            Err(_) => return,
        };
        for nested in open {
            if self.needs_approval(label, &nested) && !self.is_approved(label, &nested) {
                self.close_window(label, &nested);
            }
        }
    }

    /// Closes the acting window of a skill whose approval was just revoked, when loading it
    /// needs one (an explicit revocation, a changed entry, an import that no longer matches).
    fn close_gated_window(&mut self, label: &str, uri: &str) {
        if self.needs_approval(label, uri) {
            self.close_window(label, uri);
        }
    }

    /// Whether a stored approval matches the skill's current entry and signer.
    pub fn is_approved(&self, label: &str, uri: &str) -> bool {
        let Some(stored) = get2(&self.approvals, label, uri) else {
            return false;
        };
        self.current_fingerprint(label, uri)
            .is_some_and(|f| &f == stored)
    }

    /// The fingerprint of the skill's registered entry under its verified signer (`None` when
    /// it is not registered or dynamic).
    fn current_fingerprint(&self, label: &str, uri: &str) -> Option<String> {
        let entry = self.entry(label, uri)?;
        signed_approval_fingerprint(label, entry, self.signer(label, uri)).ok()
    }

    /// The stored approvals as JSON, for persisting:
    /// `{"format":"skills-edge/approvals","version":1,"approvals":[{"server","uri","fingerprint"}]}`,
    /// one item per approved skill: its server's label, its `SKILL.md` URI and the fingerprint
    /// approved ([`signed_approval_fingerprint`]).
    pub fn export_approvals(&self) -> String {
        ApprovalsExport::of(self.approvals.iter().flat_map(|(server, uris)| {
            uris.iter()
                .map(|(uri, fingerprint)| (server.as_str(), uri.as_str(), fingerprint.as_str()))
        }))
        .to_json()
    }

    /// Restores approvals exported by [`SkillHost::export_approvals`] (merged over the stored
    /// ones). An approval whose skill is registered with a different entry is revoked at once
    /// instead of stored. Returns how many were stored. [`ErrorCode::InvalidArgument`] when the
    /// JSON is not such an export (nothing is stored then).
    pub fn import_approvals(&mut self, json: &str) -> Result<usize> {
        let export = ApprovalsExport::parse(json)?;
        let mut stored = 0;
        for a in export.approvals {
            let current = self
                .entry(&a.server, &a.uri)
                .map(|_| self.current_fingerprint(&a.server, &a.uri));
            match current {
                Some(f) if f.as_ref() != Some(&a.fingerprint) => {
                    if let Some(uris) = self.approvals.get_mut(&a.server) {
                        if uris.remove(&a.uri).is_some() {
                            self.close_gated_window(&a.server, &a.uri);
                        }
                    }
                }
                _ => {
                    self.approvals
                        .entry(a.server)
                        .or_default()
                        .insert(a.uri, Box::new(a.fingerprint));
                    stored += 1;
                }
            }
        }
        Ok(stored)
    }

    /// The signer policy in force (none until set: signatures are checked when present and
    /// reported, nothing is required; see [`crate::host::signature`]).
    pub fn signer_policy(&self) -> &SignerPolicy {
        self.signers.policy()
    }

    /// Sets the signer policy: a trust list and/or trust on first use. It applies to the
    /// entries registered from now on; the pins stay.
    pub fn set_signer_policy(&mut self, policy: SignerPolicy) {
        self.signers.set_policy(policy);
    }

    /// Sets the origin of server `label`: the name its signer is pinned under (the label until
    /// set; a client sets the server's URL origin, so that pins persist across labels and
    /// runs). 1 to 2048 bytes, no control characters; [`ErrorCode::InvalidArgument`] or
    /// [`ErrorCode::UnknownServer`] otherwise.
    pub fn set_origin(&mut self, label: &str, origin: &str) -> Result<()> {
        if origin.is_empty()
            || origin.len() > super::signature::MAX_ORIGIN_LEN
            || origin.chars().any(char::is_control)
        {
            return Err(VerifyError::new(
                ErrorCode::InvalidArgument,
                format!("the origin {origin:?} must be 1 to 2048 bytes without control characters"),
            ));
        }
        self.server_mut(label)?.origin = super::index::canonical_origin(origin);
        Ok(())
    }

    /// The origin of server `label` ([`SkillHost::set_origin`]).
    pub fn origin(&self, label: &str) -> Option<&str> {
        self.server(label).ok().map(|s| s.origin.as_str())
    }

    /// The signer verified for the registered entry of a skill (`None`: unsigned, or not
    /// registered).
    pub fn signer(&self, label: &str, uri: &str) -> Option<&Signer> {
        self.skill(label, uri)?.signer.as_ref()
    }

    /// The pin of `origin`, if it has one.
    pub fn pin(&self, origin: &str) -> Option<&Pin> {
        self.signers.pin(origin)
    }

    /// Accepts a change of signer for `origin` ([`Signers::accept_signer_change`]): its pin
    /// is dropped and the next signature from it that holds pins it again. Entries refused
    /// before must be registered again (listed or fetched anew). Returns whether it had a pin.
    pub fn accept_signer_change(&mut self, origin: &str) -> bool {
        self.signers.accept_signer_change(origin)
    }

    /// The pins as JSON, for persisting ([`Signers::export_pins`]).
    pub fn export_pins(&self) -> String {
        self.signers.export_pins()
    }

    /// Restores exported pins ([`Signers::import_pins`]); they apply to the entries
    /// registered from now on. Returns how many were read. [`ErrorCode::InvalidArgument`]
    /// when the JSON is not such an export (nothing is stored then).
    pub fn import_pins(&mut self, json: &str) -> Result<usize> {
        self.signers.import_pins(json)
    }

    /// The signer policy and the pins, to hand to a check outside the registry (a well-known
    /// source's artifacts).
    pub fn signers(&self) -> &Signers {
        &self.signers
    }

    /// The signer policy and the pins, mutable ([`SkillHost::signers`]).
    pub fn signers_mut(&mut self) -> &mut Signers {
        &mut self.signers
    }
}

fn dynamic_limit(uri: &str, total: u64) -> VerifyError {
    VerifyError::new(
        ErrorCode::LimitExceeded,
        format!("the dynamic skill {uri} has retrieved {total} bytes; hosts stop at {MAX_BYTES_PER_SKILL} (16 MiB)"),
    )
    .with_uri(uri)
    .with_values(MAX_BYTES_PER_SKILL.to_string(), total.to_string())
}

/// The entries of a listing: a JSON array, or an object with a `skills` array and a
/// `resultType` that is absent or `"complete"`.
fn listing_entries(json: &str) -> Result<Vec<&str>> {
    let bad = |m: String| VerifyError::new(ErrorCode::InvalidArgument, m);
    let doc = json::parse(json).map_err(|e| bad(format!("the listing cannot be read: {e}")))?;
    if let Some(items) = doc.as_array() {
        return Ok(items.iter().map(|n| n.raw).collect());
    }
    let shape = |m: String| {
        bad(format!("a listing is a skills/list result or an array of entries; this one cannot be read: {m}"))
    };
    if doc.as_object().is_none() {
        return Err(shape(format!("it is {}", doc.a_type())));
    }
    if let Some(t) = doc.opt_str("resultType").map_err(shape)? {
        if t != "complete" {
            let mut m = String::from("the skills/list result is not complete (resultType ");
            write_json_string(t, &mut m);
            m.push(')');
            return Err(bad(m));
        }
    }
    let skills = doc.opt_array("skills").map_err(shape)?;
    skills
        .map(|items| items.iter().map(|n| n.raw).collect())
        .ok_or_else(|| bad("the skills/list result has no `skills` array".into()))
}

/// The format characters that show nothing or reorder text: the soft hyphen, the Arabic
/// letter mark, the Mongolian vowel separator, the zero-width characters and marks
/// (U+200B to U+200F), the bidirectional embeddings and overrides (U+202A to U+202E), the
/// word joiner, invisible operators and isolates (U+2060 to U+206F), the byte order mark and
/// the interlinear annotation characters. A label holding one looks like another label.
fn is_invisible_format(c: char) -> bool {
    matches!(c,
        '\u{ad}'
        | '\u{61c}'
        | '\u{180e}'
        | '\u{200b}'..='\u{200f}'
        | '\u{202a}'..='\u{202e}'
        | '\u{2060}'..='\u{206f}'
        | '\u{feff}'
        | '\u{fff9}'..='\u{fffb}')
}

/// The per-server display names, in the server's URI order: the name when it is unique in the
/// server, else `name (prefix)` when the colliding skills' prefixes are distinct and
/// non-empty, else `name (root URI)`.
fn local_display_names(server: &Server) -> Vec<String> {
    /// The skills of one name, and whether their prefixes tell them apart.
    struct Group<'a> {
        skills: Vec<&'a Entry>,
        by_prefix: bool,
    }
    let mut groups: Map<Group> = Map::new();
    for s in server.skills.values() {
        let group = groups.entry(s.entry.name().to_owned()).or_insert_with(|| {
            Box::new(Group {
                skills: Vec::new(),
                by_prefix: false,
            })
        });
        group.skills.push(&s.entry);
    }
    // Each group of a name shared by several skills is looked at once, with a set.
    for group in groups.values_mut().filter(|g| g.skills.len() > 1) {
        let mut prefixes: Map<()> = Map::new();
        group.by_prefix = group.skills.iter().all(|e| {
            let prefix = prefix_of(e);
            !prefix.is_empty() && prefixes.insert(prefix.to_owned(), Box::new(())).is_none()
        });
    }
    server
        .skills
        .values()
        .map(|s| {
            let e = &s.entry;
            match groups.get(e.name()) {
                Some(g) if g.skills.len() > 1 && g.by_prefix => {
                    format!("{} ({})", e.name(), prefix_of(e))
                }
                Some(g) if g.skills.len() > 1 => format!("{} ({})", e.name(), e.root()),
                _ => e.name().to_owned(),
            }
        })
        .collect()
}

/// The organisational prefix of a skill: its root without the final segment, and without
/// the `skill://` scheme (other schemes are kept, so they stay distinguishable).
fn prefix_of(entry: &Entry) -> &str {
    let root = entry.root();
    let path = root.strip_prefix(crate::skill::uri::SCHEME).unwrap_or(root);
    match path.rfind('/') {
        Some(i) => &path[..i],
        None => "",
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::host::approval::approval_fingerprint;
    use crate::skill::digest::digest_of;
    use serde_json::json;

    thread_local! {
        /// How often [`SkillHost::display_table`] ran on this thread.
        pub(crate) static TABLE_BUILDS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    /// How often the display table was built on this thread so far.
    pub(crate) fn table_builds() -> usize {
        TABLE_BUILDS.with(|c| c.get())
    }

    struct Skill {
        uri: String,
        md: String,
        files: Vec<(String, Vec<u8>)>,
    }

    impl Skill {
        fn new(uri: &str, files: &[(&str, &str)]) -> Skill {
            let name = uri
                .trim_end_matches("/SKILL.md")
                .rsplit('/')
                .next()
                .unwrap_or_default();
            Skill {
                uri: uri.into(),
                md: format!("---\nname: {name}\ndescription: about {name}\n---\n# {name}\n"),
                files: files
                    .iter()
                    .map(|(u, b)| (u.to_string(), b.as_bytes().to_vec()))
                    .collect(),
            }
        }
        fn entry_json(&self) -> String {
            let name = self
                .uri
                .trim_end_matches("/SKILL.md")
                .rsplit('/')
                .next()
                .unwrap_or_default();
            let mut res = vec![
                json!({"uri": self.uri, "digest": digest_of(self.md.as_bytes()), "size": self.md.len()}),
            ];
            for (u, b) in &self.files {
                res.push(json!({"uri": u, "digest": digest_of(b), "size": b.len()}));
            }
            json!({"uri": self.uri, "frontmatter": {"name": name, "description": format!("about {name}")}, "resources": res}).to_string()
        }
        fn entry(&self) -> Entry {
            Entry::parse(&self.entry_json()).unwrap()
        }
        fn read_result(&self) -> Content {
            Content::ReadResult(
                json!({"contents":[{"uri": self.uri, "mimeType": "text/markdown", "text": self.md}]})
                    .to_string(),
            )
        }
    }

    fn host() -> SkillHost {
        let mut h = SkillHost::new(HostOptions::default());
        h.add_server("work").unwrap();
        h.add_server("home").unwrap();
        h
    }

    #[test]
    fn innermost_entry_is_the_longest_root() {
        let mut h = host();
        let outer = Skill::new("skill://outer/SKILL.md", &[("skill://outer/a.md", "A")]);
        let inner = Skill::new("skill://outer/inner/SKILL.md", &[]);
        let sibling = Skill::new("skill://outer2/SKILL.md", &[]);
        for s in [&outer, &inner, &sibling] {
            h.register("work", s.entry()).unwrap();
        }
        let innermost = |h: &SkillHost, label: &str, uri: &str| {
            h.innermost_entry(label, uri).map(|e| e.uri().to_owned())
        };
        for (uri, want) in [
            ("skill://outer/a.md", Some(&outer.uri)),
            ("skill://outer/inner/x/y.md", Some(&inner.uri)),
            ("skill://outer/inner", Some(&outer.uri)),
            ("skill://outer/inner/", Some(&inner.uri)),
            ("skill://outer2/a.md", Some(&sibling.uri)),
            ("skill://outer2x/a.md", None),
            ("skill://outer", None),
            ("skill://out/a.md", None),
            ("", None),
            ("/", None),
        ] {
            assert_eq!(innermost(&h, "work", uri).as_ref(), want, "{uri}");
        }
        assert_eq!(innermost(&h, "home", "skill://outer/a.md"), None);
        assert_eq!(innermost(&h, "nope", "skill://outer/a.md"), None);
        // Forgetting the inner skill hands its files back to the outer one.
        h.forget("work", &inner.uri).unwrap();
        assert_eq!(
            innermost(&h, "work", "skill://outer/inner/x/y.md").as_ref(),
            Some(&outer.uri)
        );
        h.remove_server("work").unwrap();
        assert_eq!(innermost(&h, "work", "skill://outer/a.md"), None);
    }

    #[test]
    fn display_names_are_worked_out_once_per_change() {
        let mut h = host();
        let skills: Vec<Skill> = (0..200)
            .map(|i| Skill::new(&format!("skill://p{i}/same/SKILL.md"), &[]))
            .collect();
        for s in &skills {
            h.register("work", s.entry()).unwrap();
        }
        let all = h.skills();
        let before = table_builds();
        for s in &skills {
            let from_all = all.iter().find(|x| x.uri == s.uri);
            assert_eq!(h.summary("work", &s.uri).as_ref(), from_all);
        }
        assert_eq!(table_builds() - before, 1);
        assert_eq!(
            h.summary("work", &skills[7].uri).unwrap().display_name,
            "same (p7)"
        );
        // Registering an entry again, loading and looking up change no name.
        h.register("work", skills[3].entry()).unwrap();
        h.load(
            "work",
            &skills[3].uri,
            skills[3].read_result(),
            Hashing::Here,
        )
        .unwrap();
        assert!(h.lookup("same (p3)").is_some());
        assert_eq!(table_builds() - before, 1);
        // A new skill of the same name, and a forgotten one, do.
        let more = Skill::new("skill://p7/x/same/SKILL.md", &[]);
        h.register("work", more.entry()).unwrap();
        assert_eq!(
            h.summary("work", &more.uri).unwrap().display_name,
            "same (p7/x)"
        );
        h.forget("work", &more.uri).unwrap();
        assert!(h.summary("work", &more.uri).is_none());
        assert_eq!(
            h.summary("work", &skills[7].uri).unwrap().display_name,
            "same (p7)"
        );
        assert_eq!(table_builds() - before, 3);
        // Under another server, where it is the only `same`, it is still qualified: the
        // name is served by two servers, so no bare or prefixed form of it stands alone.
        h.register("home", skills[0].entry()).unwrap();
        assert_eq!(
            h.summary("home", &skills[0].uri).unwrap().display_name,
            "home:same"
        );
        assert_eq!(
            h.summary("work", &skills[3].uri).unwrap().display_name,
            "work:same (p3)"
        );
        assert_eq!(table_builds() - before, 4);
    }

    #[test]
    fn labels_are_checked() {
        let mut h = host();
        for bad in ["", "a\nb", " a", "work", &"x".repeat(2049)] {
            assert_eq!(
                h.add_server(bad).unwrap_err().code,
                ErrorCode::InvalidArgument,
                "{bad:?}"
            );
        }
        assert_eq!(h.servers(), ["work", "home"]);
        let s = Skill::new("skill://a/SKILL.md", &[]);
        assert_eq!(
            h.register("nope", s.entry()).unwrap_err().code,
            ErrorCode::UnknownServer
        );
        h.remove_server("home").unwrap();
        assert_eq!(
            h.remove_server("home").unwrap_err().code,
            ErrorCode::UnknownServer
        );
    }

    #[test]
    fn same_uri_on_two_servers_are_two_skills() {
        let mut h = host();
        let s = Skill::new(
            "skill://code-review/SKILL.md",
            &[("skill://code-review/a.md", "A")],
        );
        h.register("work", s.entry()).unwrap();
        let other = Skill::new(
            "skill://code-review/SKILL.md",
            &[("skill://code-review/a.md", "B")],
        );
        h.register("home", other.entry()).unwrap();
        let names: Vec<_> = h
            .skills()
            .into_iter()
            .map(|s| (s.server_label, s.display_name))
            .collect();
        assert_eq!(
            names,
            [
                ("work".into(), "work:code-review".into()),
                ("home".into(), "home:code-review".into())
            ]
        );
        assert_eq!(
            h.lookup("home:code-review"),
            Some(("home".into(), "skill://code-review/SKILL.md".into()))
        );
        assert_eq!(h.lookup("code-review"), None);
        // Loading on one server does not open a window on the other.
        h.load("work", &s.uri, s.read_result(), Hashing::Here)
            .unwrap();
        assert!(h.is_active("work", &s.uri));
        assert!(!h.is_active("home", &s.uri));
        // The other server's bytes do not verify against this server's entry.
        let err = h
            .read(
                "work",
                &s.uri,
                "a.md",
                Content::Text("B".into()),
                Hashing::Here,
            )
            .unwrap_err();
        assert_eq!(err.code, ErrorCode::DigestMismatch);
    }

    #[test]
    fn colliding_names_are_disambiguated_never_dropped() {
        let mut h = host();
        for uri in [
            "skill://acme/billing/refunds/SKILL.md",
            "skill://other/refunds/SKILL.md",
            "skill://solo/SKILL.md",
        ] {
            h.register("work", Skill::new(uri, &[]).entry()).unwrap();
        }
        for uri in [
            "skill://refunds/SKILL.md",
            "github://refunds/SKILL.md",
            "skill://solo/SKILL.md",
        ] {
            h.register("home", Skill::new(uri, &[]).entry()).unwrap();
        }
        let names: Vec<String> = h.skills().into_iter().map(|s| s.display_name).collect();
        assert_eq!(
            names,
            [
                "work:refunds (acme/billing)",
                "work:refunds (other)",
                "work:solo",
                "home:refunds (github://refunds)",
                "home:refunds (skill://refunds)",
                "home:solo",
            ]
        );
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len());
        for n in &names {
            assert!(h.lookup(n).is_some(), "{n}");
        }
    }

    #[test]
    fn acting_window_holds_the_loaded_entry() {
        let mut h = host();
        let s = Skill::new(
            "skill://r/SKILL.md",
            &[
                ("skill://r/ref/a.md", "A"),
                ("skill://r/b.bin", "\u{0}\u{1}"),
            ],
        );
        h.register("work", s.entry()).unwrap();
        // No window yet: reads are refused, not fetched.
        assert_eq!(
            h.plan_read("work", &s.uri, "ref/a.md").unwrap_err().code,
            ErrorCode::NoActingWindow
        );
        let loaded = h
            .load("work", &s.uri, s.read_result(), Hashing::Here)
            .unwrap();
        assert_eq!(loaded.server_label, "work");
        assert_eq!(loaded.skill_md.body(), "# r\n");
        assert_eq!(loaded.display_name, "r");
        let plan = h.plan_read("work", &s.uri, "ref/a.md").unwrap();
        assert_eq!(
            (plan.uri.as_str(), plan.size),
            ("skill://r/ref/a.md", Some(1))
        );
        assert_eq!(
            h.plan_read("work", &s.uri, "ref/secret.md")
                .unwrap_err()
                .code,
            ErrorCode::NotInManifest
        );
        assert_eq!(
            h.plan_read("work", &s.uri, "../x/SKILL.md")
                .unwrap_err()
                .code,
            ErrorCode::EscapesRoot
        );
        let blob =
            Content::ReadResult(r#"{"contents":[{"uri":"skill://r/b.bin","blob":"AAE="}]}"#.into());
        let f = h
            .read("work", &s.uri, "skill://r/b.bin", blob, Hashing::Here)
            .unwrap();
        assert_eq!(f.content.body.as_bytes(), [0, 1]);
        assert_eq!(
            (f.server_label.as_str(), f.skill_uri.as_str()),
            ("work", s.uri.as_str())
        );
        // A refreshed entry with a new file does not widen the open window.
        let grown = Skill::new(
            "skill://r/SKILL.md",
            &[
                ("skill://r/ref/a.md", "A"),
                ("skill://r/b.bin", "\u{0}\u{1}"),
                ("skill://r/new.md", "N"),
            ],
        );
        let out = h.refresh("work", grown.entry()).unwrap();
        assert!(out.changed && !out.added);
        assert_eq!(
            h.plan_read("work", &s.uri, "new.md").unwrap_err().code,
            ErrorCode::NotInManifest
        );
        h.load("work", &s.uri, grown.read_result(), Hashing::Here)
            .unwrap();
        assert!(h.plan_read("work", &s.uri, "new.md").is_ok());
        assert!(h.close_window("work", &s.uri));
        assert!(!h.close_window("work", &s.uri));
        assert_eq!(
            h.read(
                "work",
                &s.uri,
                "new.md",
                Content::Text("N".into()),
                Hashing::Here
            )
            .unwrap_err()
            .code,
            ErrorCode::NoActingWindow
        );
    }

    #[test]
    fn failed_loads_change_nothing() {
        let mut h = host();
        let s = Skill::new("skill://r/SKILL.md", &[]);
        h.register("work", s.entry()).unwrap();
        let tampered = s.md.replace("# r", "# x");
        assert_eq!(
            h.load("work", &s.uri, Content::Text(tampered), Hashing::Here)
                .unwrap_err()
                .code,
            ErrorCode::DigestMismatch
        );
        assert!(!h.is_active("work", &s.uri));
        assert_eq!(
            h.load(
                "work",
                "skill://nope/SKILL.md",
                s.read_result(),
                Hashing::Here
            )
            .unwrap_err()
            .code,
            ErrorCode::UnknownSkill
        );
        assert_eq!(
            h.load("nope", &s.uri, s.read_result(), Hashing::Here)
                .unwrap_err()
                .code,
            ErrorCode::UnknownServer
        );
    }

    #[test]
    fn third_party_frontmatter_loads_as_yaml2_reads_it() {
        // What a peer on yaml@2 publishes for values the compiler refuses to publish.
        let md = "---\nname: r\ndescription: \"Two\n  lines\"\nreviewed: yes\nsince: 2024-01-01\nbuild: 007\n---\n# r\n";
        let entry = |frontmatter: serde_json::Value| {
            Entry::parse(
                &json!({"uri": "skill://r/SKILL.md", "frontmatter": frontmatter,
                    "resources": [{"uri": "skill://r/SKILL.md", "digest": digest_of(md.as_bytes()), "size": md.len()}]})
                .to_string(),
            )
            .unwrap()
        };
        let read = json!({"name": "r", "description": "Two lines", "reviewed": "yes", "since": "2024-01-01", "build": 7});
        let mut h = host();
        h.register("work", entry(read.clone())).unwrap();
        let loaded = h
            .load(
                "work",
                "skill://r/SKILL.md",
                Content::Text(md.into()),
                Hashing::Here,
            )
            .unwrap();
        assert_eq!(
            loaded.skill_md.frontmatter.to_json(),
            r#"{"name":"r","description":"Two lines","reviewed":"yes","since":"2024-01-01","build":7}"#
        );
        // A YAML 1.1 reading in the entry is a mismatch, and nothing is loaded.
        let mut yaml11 = read;
        yaml11["reviewed"] = json!(true);
        h.register("home", entry(yaml11)).unwrap();
        let err = h
            .load(
                "home",
                "skill://r/SKILL.md",
                Content::Text(md.into()),
                Hashing::Here,
            )
            .unwrap_err();
        assert_eq!(
            (err.code, err.field.as_deref()),
            (ErrorCode::FrontmatterMismatch, Some("reviewed"))
        );
        assert!(!h.is_active("home", "skill://r/SKILL.md"));
    }

    #[test]
    fn nested_skill_md_is_ordinary_content() {
        let mut h = host();
        let nested_md = "---\nname: inner\ndescription: about inner\n---\n# inner\n";
        let outer = Skill::new(
            "skill://outer/SKILL.md",
            &[("skill://outer/inner/SKILL.md", nested_md)],
        );
        let inner = Skill::new("skill://outer/inner/SKILL.md", &[]);
        assert_eq!(inner.md, nested_md);
        h.register("work", outer.entry()).unwrap();
        h.register("work", inner.entry()).unwrap();
        h.approve("work", &outer.uri).unwrap();
        h.load("work", &outer.uri, outer.read_result(), Hashing::Here)
            .unwrap();
        let f = h
            .read(
                "work",
                &outer.uri,
                "inner/SKILL.md",
                Content::Text(nested_md.into()),
                Hashing::Here,
            )
            .unwrap();
        assert_eq!(f.content.body.text(), Some(nested_md));
        // Reading it activated nothing, and the outer approval does not cover it.
        assert!(!h.is_active("work", &inner.uri));
        assert!(!h.is_approved("work", &inner.uri));
        assert_eq!(
            h.plan_read("work", &inner.uri, "x").unwrap_err().code,
            ErrorCode::NoActingWindow
        );
        // Activating it is its own load, with its own approval and root.
        assert_eq!(
            h.plan_load("work", &inner.uri).unwrap_err().code,
            ErrorCode::NotApproved
        );
        h.approve("work", &inner.uri).unwrap();
        h.load("work", &inner.uri, inner.read_result(), Hashing::Here)
            .unwrap();
        assert_eq!(
            h.plan_read("work", &inner.uri, "../SKILL.md")
                .unwrap_err()
                .code,
            ErrorCode::EscapesRoot
        );
    }

    #[test]
    fn approvals_bind_to_content_and_survive_export() {
        let mut h = SkillHost::new(HostOptions {
            allow_dynamic: false,
            require_approval: true,
            nested_without_approval: false,
        });
        h.add_server("work").unwrap();
        let s = Skill::new("skill://r/SKILL.md", &[("skill://r/a.md", "A")]);
        h.register("work", s.entry()).unwrap();
        assert_eq!(
            h.plan_load("work", &s.uri).unwrap_err().code,
            ErrorCode::NotApproved
        );
        let f = h.approve("work", &s.uri).unwrap();
        assert_eq!(f, approval_fingerprint("work", &s.entry()).unwrap());
        assert!(h.is_approved("work", &s.uri));
        h.load("work", &s.uri, s.read_result(), Hashing::Here)
            .unwrap();
        // Same set (sizes and unknown fields aside): still approved.
        let same = s.entry_json().replacen('{', r#"{"_meta":{"x":1},"#, 1);
        let out = h.refresh("work", Entry::parse(&same).unwrap()).unwrap();
        assert!(!out.changed && !out.approval_revoked);
        let saved = h.export_approvals();
        assert!(saved.contains(&f));
        // A rotated file revokes it (H30).
        let rotated = Skill::new("skill://r/SKILL.md", &[("skill://r/a.md", "B")]);
        let out = h.refresh("work", rotated.entry()).unwrap();
        assert!(out.changed && out.approval_revoked);
        assert!(!h.is_approved("work", &s.uri));
        assert_eq!(
            h.plan_load("work", &s.uri).unwrap_err().code,
            ErrorCode::NotApproved
        );
        // Restoring the old approval does not cover the new entry.
        assert_eq!(h.import_approvals(&saved).unwrap(), 0);
        assert!(!h.is_approved("work", &s.uri));
        // A new host restores approvals before the servers are known.
        let mut h2 = SkillHost::new(HostOptions::default());
        assert_eq!(h2.import_approvals(&saved).unwrap(), 1);
        h2.add_server("work").unwrap();
        h2.register("work", s.entry()).unwrap();
        assert!(h2.is_approved("work", &s.uri));
        assert_eq!(h2.export_approvals(), saved);
        // Under another label the approval does not apply.
        h2.add_server("other").unwrap();
        h2.register("other", s.entry()).unwrap();
        assert!(!h2.is_approved("other", &s.uri));
        assert!(h2.revoke("work", &s.uri));
        assert!(!h2.is_approved("work", &s.uri));
        for bad in [
            "{}",
            "[]",
            r#"{"format":"x","version":1,"approvals":[]}"#,
            r#"{"format":"skills-edge/approvals","version":1,"approvals":[{"server":"a","uri":"u","fingerprint":"sha256:x"}]}"#,
        ] {
            assert_eq!(
                h2.import_approvals(bad).unwrap_err().code,
                ErrorCode::InvalidArgument,
                "{bad}"
            );
        }
    }

    #[test]
    fn dynamic_skills_follow_the_policy() {
        let dynamic = r#"{"uri":"skill://d/SKILL.md","frontmatter":{"name":"d","description":"about d"},"resources":"dynamic"}"#;
        let md = "---\nname: d\ndescription: about d\n---\n";
        let mut strict = host();
        strict
            .register("work", Entry::parse(dynamic).unwrap())
            .unwrap();
        assert_eq!(
            strict
                .plan_load("work", "skill://d/SKILL.md")
                .unwrap_err()
                .code,
            ErrorCode::DynamicNotAllowed
        );
        assert_eq!(
            strict
                .approve("work", "skill://d/SKILL.md")
                .unwrap_err()
                .code,
            ErrorCode::DynamicNotAllowed
        );
        let mut open = SkillHost::new(HostOptions {
            allow_dynamic: true,
            require_approval: false,
            nested_without_approval: false,
        });
        open.add_server("work").unwrap();
        open.register("work", Entry::parse(dynamic).unwrap())
            .unwrap();
        let l = open
            .load(
                "work",
                "skill://d/SKILL.md",
                Content::Text(md.into()),
                Hashing::Here,
            )
            .unwrap();
        assert!(!l.skill_md.receipt.verified);
        assert_eq!(
            open.load(
                "work",
                "skill://d/SKILL.md",
                Content::Text(md.replace("about", "not")),
                Hashing::Here
            )
            .unwrap_err()
            .code,
            ErrorCode::FrontmatterMismatch
        );
        let p = open
            .plan_read("work", "skill://d/SKILL.md", "any/file.md")
            .unwrap();
        assert_eq!((p.digest, p.size), (None, None));
        let big = vec![0u8; 16 * 1024 * 1024];
        let e = open
            .read(
                "work",
                "skill://d/SKILL.md",
                "big",
                Content::Bytes(big),
                Hashing::Here,
            )
            .unwrap_err();
        assert_eq!(e.code, ErrorCode::LimitExceeded);
        assert!(open
            .read(
                "work",
                "skill://d/SKILL.md",
                "small",
                Content::Bytes(vec![1; 10]),
                Hashing::Here
            )
            .is_ok());
    }

    #[test]
    fn listings_and_get_results() {
        let mut h = host();
        let a = Skill::new("skill://a/SKILL.md", &[]);
        let b = Skill::new("skill://b/SKILL.md", &[]);
        let list = format!(
            r#"{{"skills":[{},{{"uri":"skill://bad/SKILL.md"}},{}],"ttlMs":0,"cacheScope":"private"}}"#,
            a.entry_json(),
            b.entry_json()
        );
        let out = h.register_listing("work", &list).unwrap();
        assert_eq!(out.registered.len(), 2);
        assert_eq!(out.rejected.len(), 1);
        assert_eq!(
            (out.rejected[0].index, out.rejected[0].error.code),
            (1, ErrorCode::InvalidEntry)
        );
        let twice = format!("[{},{}]", a.entry_json(), a.entry_json());
        let out = h.register_listing("work", &twice).unwrap();
        assert_eq!((out.registered.len(), out.rejected.len()), (1, 1));
        assert_eq!(out.rejected[0].index, 1);
        let arr = format!("[{}]", a.entry_json());
        let out = h.register_listing("home", &arr).unwrap();
        assert!(out.registered[0].added);
        for bad in ["{}", "1", r#"{"resultType":"input_required","skills":[]}"#] {
            assert_eq!(
                h.register_listing("work", bad).unwrap_err().code,
                ErrorCode::InvalidArgument,
                "{bad}"
            );
        }
        let get = format!(r#"{{"resultType":"complete","skill":{}}}"#, b.entry_json());
        assert!(!h.register_get_result("work", &b.uri, &get).unwrap().added);
        let e = h.register_get_result("work", &a.uri, &get).unwrap_err();
        assert_eq!(
            (e.code, e.expected.as_deref()),
            (ErrorCode::InvalidEntry, Some(a.uri.as_str()))
        );
        assert_eq!(
            h.register_get_result("work", &a.uri, "{}")
                .unwrap_err()
                .code,
            ErrorCode::InvalidEntry
        );
        assert_eq!(
            h.refresh("work", Skill::new("skill://c/SKILL.md", &[]).entry())
                .unwrap_err()
                .code,
            ErrorCode::UnknownSkill
        );
        assert!(h.forget("work", &a.uri).unwrap());
        assert!(!h.forget("work", &a.uri).unwrap());
        assert!(h.entry("work", &a.uri).is_none());
        assert!(h.entry("home", &a.uri).is_some());
    }

    #[test]
    fn entries_are_current_until_the_deadline_the_caller_sets() {
        let mut h = host();
        let s = Skill::new("skill://r/SKILL.md", &[]);
        // Unknown, then registered without a deadline: not current, nothing planned.
        assert_eq!(h.plan_load_current("work", &s.uri, 0.0).unwrap(), None);
        assert!(!h.set_current_until("work", &s.uri, 10.0));
        h.register("work", s.entry()).unwrap();
        assert_eq!(h.plan_load_current("work", &s.uri, 0.0).unwrap(), None);
        assert!(h.set_current_until("work", &s.uri, 10.0));
        assert!(h.is_current("work", &s.uri, 9.0));
        let plan = h.plan_load_current("work", &s.uri, 9.0).unwrap().unwrap();
        assert_eq!(plan, h.plan_load("work", &s.uri).unwrap());
        // The deadline itself is past; registering again or forgetting clears it.
        assert_eq!(h.plan_load_current("work", &s.uri, 10.0).unwrap(), None);
        h.register("work", s.entry()).unwrap();
        assert!(!h.is_current("work", &s.uri, 0.0));
        h.set_current_until("work", &s.uri, 10.0);
        h.forget("work", &s.uri).unwrap();
        h.register("work", s.entry()).unwrap();
        assert!(!h.is_current("work", &s.uri, 0.0));
        // A current entry still gets every check of plan_load.
        let mut strict = SkillHost::new(HostOptions {
            allow_dynamic: false,
            require_approval: true,
            nested_without_approval: false,
        });
        strict.add_server("work").unwrap();
        strict.register("work", s.entry()).unwrap();
        strict.set_current_until("work", &s.uri, 10.0);
        assert_eq!(
            strict
                .plan_load_current("work", &s.uri, 0.0)
                .unwrap_err()
                .code,
            ErrorCode::NotApproved
        );
    }

    mod signed {
        use super::*;
        use crate::host::signature::tests::{entry_json, signed};
        use crate::host::signature::{SignerPolicy, SignerTrust};
        use skills_edge_catalog::sign::SigningKey;

        fn key(n: u8) -> SigningKey {
            SigningKey::from_seed([n; 32])
        }

        fn md(name: &str) -> String {
            format!("---\nname: {name}\ndescription: d\n---\n# {name}\n")
        }

        fn skill(name: &str) -> serde_json::Value {
            let text = md(name);
            entry_json(name, &[("SKILL.md", text.as_bytes()), ("x.md", b"x")])
        }

        fn tofu() -> SkillHost {
            let mut h = host();
            h.set_signer_policy(SignerPolicy {
                trusted: vec![],
                trust_on_first_use: true,
            });
            h
        }

        #[test]
        fn registering_checks_the_signature_and_keeps_the_signer() {
            let mut h = tofu();
            h.set_origin("work", "https://skills.example").unwrap();
            assert_eq!(h.origin("work"), Some("https://skills.example"));
            let a = signed(&skill("a"), &key(1), "acme");
            h.register_listing("work", &format!("[{a}]")).unwrap();
            let s = h.summary("work", "skill://a/SKILL.md").unwrap();
            let signer = s.signer.unwrap();
            assert_eq!(
                (signer.catalog.as_str(), signer.trust),
                ("acme", SignerTrust::FirstUse)
            );
            assert_eq!(
                h.pin("https://skills.example").unwrap().key,
                *key(1).public()
            );
            // Loading verifies the files against the entry the signature states.
            let uri = "skill://a/SKILL.md";
            h.load("work", uri, Content::Text(md("a")), Hashing::Here)
                .unwrap();
            // A changed byte of a file is the digest check's.
            let tampered = md("a").replace("# a", "# b");
            assert_eq!(
                h.load("work", uri, Content::Text(tampered), Hashing::Here)
                    .unwrap_err()
                    .code,
                ErrorCode::DigestMismatch
            );
            // Another signer is refused, and the entry registered before stays with its signer.
            let other = Entry::parse(&signed(&skill("a"), &key(2), "acme").to_string()).unwrap();
            assert_eq!(
                h.register("work", other.clone()).unwrap_err().code,
                ErrorCode::SignerChanged
            );
            assert_eq!(
                h.signer("work", uri).unwrap().key_id,
                key(1).public().key_id()
            );
            // Another server (its own origin, the label) is pinned on its own.
            h.register("home", other).unwrap();
            assert_eq!(h.signer("home", uri).unwrap().trust, SignerTrust::FirstUse);
            // Accepted, the change registers and pins again.
            assert!(h.accept_signer_change("https://skills.example"));
            let again = Entry::parse(&signed(&skill("a"), &key(2), "acme").to_string()).unwrap();
            h.register("work", again).unwrap();
            assert_eq!(
                h.signer("work", uri).unwrap().key_id,
                key(2).public().key_id()
            );
            // Forgetting a skill forgets its signer; the pins survive export.
            h.forget("work", uri).unwrap();
            assert!(h.signer("work", uri).is_none());
            let mut later = SkillHost::new(HostOptions::default());
            assert_eq!(later.import_pins(&h.export_pins()), Ok(2));
            assert!(later.pin("home").is_some());
            assert_eq!(
                h.set_origin("work", "").unwrap_err().code,
                ErrorCode::InvalidArgument
            );
            assert_eq!(
                h.set_origin("nope", "o").unwrap_err().code,
                ErrorCode::UnknownServer
            );
        }

        #[test]
        fn a_listing_is_judged_as_a_whole() {
            // An unsigned skill listed before the first signed one is refused on first use as
            // it would be on every later listing.
            let list = format!(
                "[{},{},{}]",
                skill("u"),
                signed(&skill("a"), &key(1), "acme"),
                signed(&skill("b"), &key(2), "acme")
            );
            for _ in 0..2 {
                let mut h = tofu();
                let out = h.register_listing("work", &list).unwrap();
                let rejected: Vec<(usize, ErrorCode)> = out
                    .rejected
                    .iter()
                    .map(|r| (r.index, r.error.code))
                    .collect();
                assert_eq!(
                    rejected,
                    [(0, ErrorCode::SignerChanged), (2, ErrorCode::SignerChanged)]
                );
                assert_eq!(out.registered.len(), 1);
                assert_eq!(
                    h.signer("work", "skill://a/SKILL.md").unwrap().trust,
                    SignerTrust::FirstUse
                );
            }
            // Without trust on first use nothing pins, and every signature is reported.
            let mut h = host();
            let out = h.register_listing("work", &list).unwrap();
            assert!(out.rejected.is_empty());
            assert!(h.signer("work", "skill://u/SKILL.md").is_none());
            assert_eq!(
                h.signer("work", "skill://b/SKILL.md").unwrap().trust,
                SignerTrust::Announced
            );
            // A trust list refuses the unsigned and the untrusted, by position.
            let mut strict = host();
            strict.set_signer_policy(SignerPolicy {
                trusted: vec![key(2).public().clone()],
                trust_on_first_use: false,
            });
            let out = strict.register_listing("work", &list).unwrap();
            let rejected: Vec<(usize, ErrorCode)> = out
                .rejected
                .iter()
                .map(|r| (r.index, r.error.code))
                .collect();
            assert_eq!(
                rejected,
                [
                    (0, ErrorCode::SignerUntrusted),
                    (1, ErrorCode::SignerUntrusted)
                ]
            );
            assert_eq!(out.registered[0].uri, "skill://b/SKILL.md");
        }

        #[test]
        fn approvals_do_not_carry_over_to_another_signer_or_to_unsigned() {
            let uri = "skill://a/SKILL.md";
            let plain = Entry::parse(&skill("a").to_string()).unwrap();
            let by = |n: u8, catalog: &str| {
                Entry::parse(&signed(&skill("a"), &key(n), catalog).to_string()).unwrap()
            };
            let mut h = SkillHost::new(HostOptions {
                allow_dynamic: false,
                require_approval: true,
                nested_without_approval: false,
            });
            h.add_server("work").unwrap();
            // An unsigned skill keeps the fingerprint it always had.
            h.register("work", plain.clone()).unwrap();
            let f = h.approve("work", uri).unwrap();
            assert_eq!(f, approval_fingerprint("work", &plain).unwrap());
            // The same files signed: not the approved skill any more.
            let out = h.register("work", by(1, "acme")).unwrap();
            assert!(out.approval_revoked && !out.changed);
            assert_eq!(
                h.plan_load("work", uri).unwrap_err().code,
                ErrorCode::NotApproved
            );
            h.approve("work", uri).unwrap();
            assert!(h.is_approved("work", uri));
            let saved = h.export_approvals();
            // Another key, another catalog, unsigned: each revokes it.
            for other in [by(2, "acme"), by(1, "other"), plain.clone()] {
                let mut h2 = SkillHost::new(HostOptions::default());
                h2.add_server("work").unwrap();
                h2.import_approvals(&saved).unwrap();
                h2.register("work", by(1, "acme")).unwrap();
                assert!(h2.is_approved("work", uri));
                assert!(h2.register("work", other).unwrap().approval_revoked);
                assert!(!h2.is_approved("work", uri));
            }
            // Restored approvals check the signer as well.
            let mut h3 = SkillHost::new(HostOptions::default());
            h3.add_server("work").unwrap();
            h3.register("work", by(2, "acme")).unwrap();
            assert_eq!(h3.import_approvals(&saved), Ok(0));
        }
    }

    #[test]
    fn limits_are_checked_before_loading() {
        let mut h = host();
        let big = Skill::new("skill://big/SKILL.md", &[])
            .entry_json()
            .replacen(r#""size":"#, r#""size":16777217,"x":"#, 1);
        h.register("work", Entry::parse(&big).unwrap()).unwrap();
        assert_eq!(
            h.plan_load("work", "skill://big/SKILL.md")
                .unwrap_err()
                .code,
            ErrorCode::LimitExceeded
        );
    }
}
