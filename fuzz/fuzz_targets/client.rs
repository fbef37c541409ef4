//! `SkillsClient` and the audit (`report::run`, what `skills-edge verify` prints) against a
//! fake server whose answers the fuzzer chooses: listing pages, `skills/get` answers that
//! change the entry or turn it dynamic, `resources/read` answers (the right bytes, other
//! bytes, errors), directory listings.
//!
//! The server has three skills (`alpha`, `beta`, `gamma`), each with up to four files
//! (`SKILL.md`, `a.md`, `sub/c.md`, `evil.md`) in two versions (`v0`, `v1`: other bytes, the
//! same frontmatter). Answers are queued per request key (the listing; `skills/get` of a
//! skill; `resources/read` of a file; `resources/directory/read` of a directory) and taken in
//! order, so two clients that make the same requests get the same answers. An empty queue
//! answers honestly: every skill with `SKILL.md`, `a.md` and `sub/c.md` at `v0` (`ttlMs`
//! 60000), `v0` bytes, the directories of those files.
//!
//! Input: a flag byte (bit 0: the server declares `directoryRead`; bit 1: the audit checks
//! only `alpha`, fetched with `skills/get`), then at most `MAX_RECORDS` records
//! `[kind] [key] [payload…]` (a missing byte reads as 0):
//! * kind 0, a listing page: key `n` (bit 7: a JSON-RPC error instead), then `n % 4` entries
//!   `[skill] [files] [versions] [dynamic]`, then `[next]` (0: no `nextCursor`, else
//!   `c<next % 4>`) and `[ttl]` (0: no `ttlMs`, so stale at once; else 60000);
//! * kind 1, a `skills/get` answer for skill `key`: `[what]`: 0 an entry (`[files]
//!   [versions] [dynamic] [ttl]`), 1 a JSON-RPC error, 2 a failed exchange, 3 the entry turned
//!   `"dynamic"`, 4 another skill's entry;
//! * kind 2, a `resources/read` answer for file `key` (skill × 4 + file): `[what]`: 0 the
//!   `v0` bytes, 1 the `v1` bytes, 2 a JSON-RPC error, 3 `[len]` raw bytes (`len % 32`), 4 a
//!   failed exchange, 5 the `v0` bytes as a `blob`;
//! * kind 3, a `resources/directory/read` page for directory `key` (skill × 2 + 0 for the root,
//!   1 for `sub`): `[n]`, then `n % 6` children (`CHILDREN`), then `[next]`.
//!
//! `files` is a bit mask over the four files (`SKILL.md` is always listed), `versions` says
//! which are listed at `v1`, bit 0 of `dynamic` turns the entry `"dynamic"`.
//!
//! Properties (in `check_requested`, `check_audit` and `check_agreement`):
//! * no `resources/read` is requested for a URI that the entries the client holds at that
//!   moment (the registered one, and the acting window's) do not list, unless dynamic;
//! * a file the audit reports `verified` is listed by the entry the client holds at the end
//!   with the reported size and digest, and the server served exactly such bytes for it
//!   (SHA-256 recomputed here with `sha2`); a skill reported `verified` has a manifest in the
//!   entry held at the end, the revision of that entry, and every file of it verified that
//!   way. A skill reported `dynamic` in a listed run was listed `"dynamic"` by some page (one
//!   listed only with a manifest and held dynamic is `downgraded`). Any other status asserts
//!   nothing, so new statuses fit;
//! * the audit agrees with `SkillsClient`'s own operations: a second client on the same
//!   answers lists, loads each skill and reads every file of the entry it holds; for every
//!   skill the server showed with one entry only (in listings and `skills/get`, in both runs,
//!   with no refused `skills/get`), a file is `verified` in the audit
//!   exactly when that read succeeded with a verified receipt, and a `verified` skill had
//!   every read verified.

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value as Json};
use sha2::{Digest as _, Sha256};
use skills_edge::client::{
    block_on, ClientError, ExchangeKind, Result, Rpc, ServerFacts, SkillsClient,
};
use skills_edge::command::args::VerifyArgs;
use skills_edge::command::report::{self, FileStatus, Report, SkillStatus};
use skills_edge::host::{Entry, Purpose};
use skills_edge::protocol::{Era, MODERN_VERSION, SKILLS_EXTENSION};
use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet, VecDeque};

#[path = "client/server.rs"]
mod server;
use server::*;

/// The entry the client holds for `skill_uri`.
fn held(client: &SkillsClient, skill_uri: &str) -> Option<Entry> {
    client
        .host(|h, label| h.entry(label, skill_uri).cloned())
        .ok()
        .flatten()
}

/// Property: a `resources/read` goes only to a file that the held entry lists (or to any file
/// of a dynamic entry): the registered entry (what loading reads from), or the one the acting
/// window holds (what reads during the window go by, H16; asked with `plan_read_for`), or the
/// one a check's own window holds (what an audit's reads go by).
fn check_requested(client: &SkillsClient, uri: &str) {
    let Some(s) = skill_of(uri) else {
        panic!("resources/read was requested for {uri}, which is in no skill");
    };
    let skill = skill_uri(s);
    let window = client
        .host(|h, label| {
            [Purpose::Use, Purpose::Check].into_iter().any(|purpose| {
                h.plan_read_for(label, &skill, uri, purpose)
                    .is_ok_and(|p| p.uri == uri)
            })
        })
        .unwrap_or(false);
    if window {
        return;
    }
    let Some(entry) = held(client, &skill) else {
        panic!("resources/read was requested for {uri} while no entry of its skill is held");
    };
    assert!(
        entry.is_dynamic() || entry.item(uri).is_some(),
        "resources/read was requested for {uri}, which the held entry of {} does not list: {}",
        entry.uri(),
        entry.to_json()
    );
}

/// Whether the server served, for `uri`, bytes of exactly this size and SHA-256.
fn served_as(log: &Log, uri: &str, size: u64, digest: &str) -> bool {
    log.served.get(uri).is_some_and(|all| {
        all.iter()
            .any(|b| b.len() as u64 == size && sha256(b) == digest)
    })
}

/// Properties of the audit: what it calls `verified` matches the entry held at the end and
/// the bytes served.
fn check_audit(report: &Report, client: &SkillsClient, log: &Log, listed: bool) {
    for s in &report.skills {
        // No pass for a downgrade: a skill the listing only ever gave a manifest is never
        // reported `dynamic` (the audit started from a listed manifest, so a dynamic entry
        // held at the end is `downgraded`, which fails).
        if listed && s.status == SkillStatus::Dynamic {
            let k = skill_of(&s.uri);
            assert!(
                k.is_some_and(|k| log.listed_dynamic.contains(&k)),
                "{} is reported dynamic, but every listing gave it a manifest (a downgrade)",
                s.uri
            );
        }
        let entry = held(client, &s.uri);
        for c in s.checks.iter().filter(|c| c.status == FileStatus::Verified) {
            let Some(entry) = &entry else {
                panic!(
                    "{} is reported verified but no entry of {} is held",
                    c.uri, s.uri
                );
            };
            let Some(item) = entry.item(&c.uri) else {
                panic!(
                    "{} is reported verified but the entry held at the end ({}) lists no such file: {}",
                    c.uri,
                    if entry.is_dynamic() { "dynamic" } else { "with a manifest" },
                    entry.to_json()
                );
            };
            assert!(
                c.size == Some(item.size) && c.digest.as_deref() == Some(item.digest.as_str()),
                "{} is reported verified with size {:?} and digest {:?}, but the entry held at the end says {} and {}",
                c.uri, c.size, c.digest, item.size, item.digest
            );
            assert!(
                served_as(log, &c.uri, item.size, &item.digest),
                "{} is reported verified, but the server never served bytes with the digest the held entry lists ({})",
                c.uri,
                item.digest
            );
        }
        if s.status != SkillStatus::Verified {
            continue;
        }
        let Some(entry) = &entry else {
            panic!("{} is reported verified but no entry of it is held", s.uri);
        };
        let Some(items) = entry.items() else {
            panic!(
                "{} is reported verified but the entry held at the end is dynamic",
                s.uri
            );
        };
        for item in items {
            let checked = s
                .checks
                .iter()
                .any(|c| c.uri == item.uri && c.status == FileStatus::Verified);
            assert!(
                checked && served_as(log, &item.uri, item.size, &item.digest),
                "{} is reported verified, but {} of the entry held at the end was {}",
                s.uri,
                item.uri,
                if log.served.contains_key(&item.uri) {
                    "never served with the digest that entry lists"
                } else {
                    "never requested"
                }
            );
        }
        assert_eq!(
            s.revision,
            entry.revision(),
            "{} is reported verified at a revision that is not the held entry's",
            s.uri
        );
    }
}

/// What a second client's own operations gave: per skill URI, whether its `SKILL.md` and each
/// file of the held entry were read with a verified receipt.
fn own_reads(
    client: &SkillsClient,
    server: &Server<'_>,
    only: bool,
) -> HashMap<String, Vec<(String, bool)>> {
    let targets: Vec<String> = if only {
        match block_on(client.get(server, &skill_uri(0))) {
            Ok(g) => vec![g.skill.entry.uri().to_owned()],
            Err(_) => Vec::new(),
        }
    } else {
        match block_on(client.list(server)) {
            Ok(l) => l.skills.iter().map(|s| s.entry.uri().to_owned()).collect(),
            Err(_) => Vec::new(),
        }
    };
    let mut out = HashMap::new();
    for uri in targets {
        let mut reads = Vec::new();
        match block_on(client.load(server, &uri)) {
            Ok(l) => {
                reads.push((uri.clone(), l.skill.skill_md.receipt.verified));
                let items: Vec<String> = held(client, &uri)
                    .and_then(|e| e.items().map(|i| i.iter().map(|i| i.uri.clone()).collect()))
                    .unwrap_or_default();
                for item in items.into_iter().filter(|i| *i != uri) {
                    let ok = block_on(client.read(server, &uri, &item))
                        .is_ok_and(|r| r.file.content.receipt.verified);
                    reads.push((item, ok));
                }
            }
            Err(_) => reads.push((uri.clone(), false)),
        }
        let _ = client.host(|h, label| h.close_window(label, &uri));
        out.insert(uri, reads);
    }
    out
}

/// Property: the audit and `SkillsClient`'s own reads agree, for skills whose entry no
/// `skills/get` answer changed in either run.
fn check_agreement(
    report: &Report,
    own: &HashMap<String, Vec<(String, bool)>>,
    changed: &HashSet<usize>,
) {
    for s in report.skills.iter().filter(|s| s.name.is_some()) {
        if skill_of(&s.uri).is_none_or(|i| changed.contains(&i)) {
            continue;
        }
        let Some(reads) = own.get(&s.uri) else {
            continue;
        };
        for (uri, ok) in reads {
            let Some(c) = s.checks.iter().find(|c| c.uri == *uri) else {
                panic!(
                    "SkillsClient read {uri} of {}, but the audit has no check for it",
                    s.uri
                );
            };
            assert_eq!(
                c.status == FileStatus::Verified,
                *ok,
                "the audit says {uri} is {:?}, SkillsClient's own read says verified = {ok}",
                c.status
            );
        }
        if s.status == SkillStatus::Verified {
            assert!(
                reads.iter().all(|(_, ok)| *ok),
                "the audit says {} is verified, SkillsClient's own reads do not all verify: {reads:?}",
                s.uri
            );
        }
    }
}

fn new_client(script: &Script) -> SkillsClient {
    let args = VerifyArgs::parse(&["http://127.0.0.1/mcp".to_owned()]).expect("fixed arguments");
    let client = report::command_client(&args, Default::default()).expect("a fixed label");
    let capability = if script.directory_read {
        json!({"directoryRead": true})
    } else {
        json!({})
    };
    let result = json!({
        "supportedVersions": [MODERN_VERSION],
        "capabilities": {"extensions": {SKILLS_EXTENSION: capability}},
    });
    client
        .set_facts(ServerFacts::from_result(
            Era::Modern,
            MODERN_VERSION,
            &result,
        ))
        .expect("the client state is free");
    client
}

fuzz_target!(|data: &[u8]| {
    let script = Script::parse(data);
    let only = script.only.then(|| skill_uri(0));

    let audited = new_client(&script);
    let server = Server::new(&audited, script.clone());
    let report = block_on(report::run(&audited, &server, only.as_deref()));
    check_audit(&report, &audited, &server.log.borrow(), only.is_none());

    let own_client = new_client(&script);
    let own_server = Server::new(&own_client, script.clone());
    let own = own_reads(&own_client, &own_server, script.only);
    let mut changed = server.log.borrow().changed.clone();
    changed.extend(own_server.log.borrow().changed.iter().copied());
    check_agreement(&report, &own, &changed);

    // Rendering any report does not panic, and the exit status is one of the documented three.
    let out = report
        .render(&VerifyArgs::parse(&["http://127.0.0.1/mcp".to_owned()]).expect("fixed arguments"));
    assert!(out.exit_code <= 2);
});
