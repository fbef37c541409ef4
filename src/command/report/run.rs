//! The run itself: every skill listed, loaded, read, its directories walked, and each
//! check settled against the entry the client holds at the end.

use super::*;

/// Verifies every skill of the connected server (or only `only`), with `client` over `rpc`.
/// Each skill is loaded only to be checked ([`Purpose::Check`]): a nested skill needs no
/// consent (nothing reaches a model), and every other option of the client applies. (The
/// command runs [`run_with_oms`]; this is for this repository's tests, feature `internals`.)
#[cfg(feature = "internals")]
pub async fn run<R: Rpc>(client: &SkillsClient, rpc: &R, only: Option<&str>) -> Report {
    run_with_oms(client, rpc, only, &[]).await
}

/// [`run`], checking OpenSSF Model Signing signatures with `oms_keys` (the `--trust` files
/// holding PEM; `super::oms`).
pub(crate) async fn run_with_oms<R: Rpc>(
    client: &SkillsClient,
    rpc: &R,
    only: Option<&str>,
    oms_keys: &[crate::oms::OmsPublicKey],
) -> Report {
    let facts = client.facts();
    let directory_read = facts.as_ref().is_some_and(ServerFacts::directory_read);
    let mut targets: Vec<Result<ListedSkill, (String, ClientError)>> = Vec::new();
    match only {
        Some(uri) => match client.get(rpc, uri).await {
            Ok(g) => targets.push(Ok(g.skill)),
            Err(e) if e.code.is_transport_failure() => return fatal(facts, e),
            Err(e) => targets.push(Err((uri.to_owned(), e))),
        },
        None => match client.list(rpc).await {
            Ok(listing) => {
                let total = listing.skills.len() + listing.rejected.len();
                let mut listed = listing.skills.into_iter();
                let rejected: BTreeMap<usize, &crate::host::Rejected> =
                    listing.rejected.iter().map(|r| (r.index, r)).collect();
                for index in 0..total {
                    match rejected.get(&index) {
                        Some(r) => {
                            let uri = r
                                .error
                                .uri
                                .as_deref()
                                .map(str::to_owned)
                                .unwrap_or_else(|| format!("#{index}"));
                            targets.push(Err((uri, r.error.clone().into())));
                        }
                        None => {
                            if let Some(s) = listed.next() {
                                targets.push(Ok(s));
                            }
                        }
                    }
                }
            }
            Err(e) => return fatal(facts, e),
        },
    }
    let mut skills = Vec::with_capacity(targets.len());
    for t in targets {
        skills.push(match t {
            Ok(skill) => verify_skill(client, rpc, skill, directory_read, oms_keys).await,
            Err((uri, e)) => SkillReport {
                uri: uri.clone(),
                name: None,
                description: None,
                revision: None,
                files: 0,
                bytes: 0,
                status: if e.code.is_transport_failure() {
                    SkillStatus::Error
                } else {
                    SkillStatus::Failed
                },
                checks: vec![failed_check(&uri, e.clone())],
                error: Some(e),
                refreshed: false,
                signer: None,
            },
        });
    }
    Report {
        facts,
        skills,
        fatal: None,
    }
}

fn fatal(facts: Option<ServerFacts>, e: ClientError) -> Report {
    Report::stopped(facts, e)
}

/// Checks one skill: [`check_skill`] until the entry held at the end of a check is the one it
/// started on (at most [`MAX_ENTRY_RESTARTS`] restarts), then settles every status against the
/// entry held.
async fn verify_skill<R: Rpc>(
    client: &SkillsClient,
    rpc: &R,
    skill: ListedSkill,
    directory_read: bool,
    oms_keys: &[crate::oms::OmsPublicKey],
) -> SkillReport {
    let uri = skill.entry.uri().to_owned();
    let mut refreshed = false;
    let mut restarts = 0;
    let (mut report, held) = loop {
        let (report, started) = check_skill(client, rpc, &skill.entry, directory_read).await;
        refreshed |= report.refreshed;
        let held = held_entry(client, &uri);
        let changed = match (&started, &held) {
            (Some(a), Some(b)) => a != b,
            // The load failed (no check ran on an entry) or the skill was forgotten.
            _ => false,
        };
        if !changed {
            break (report, held);
        }
        if restarts == MAX_ENTRY_RESTARTS {
            let mut report = report;
            report.status = SkillStatus::Changed;
            break (report, held);
        }
        restarts += 1;
    };
    report.refreshed = refreshed;
    // The OMS signature among the files (skill.oms.sig), checked while the window is open.
    let keys = crate::command::oms::keys_of(client, oms_keys);
    let oms = match &held {
        Some(e) => crate::command::oms::check_mcp(client, rpc, e, &keys, &mut report).await,
        None => crate::command::oms::OmsOutcome::Absent,
    };
    // Only the window this check opened closes: the embedder's acting window, if any, stays
    // as it was (H15: a window is kept open longer, never shorter).
    let _ = client.host(|h, label| h.close_check_window(label, &uri));
    let entry = match held {
        Some(e) => e,
        None => {
            // The server stopped serving the skill during its check (a refresh answered with
            // an error, so the client forgot it): no entry backs what was read.
            withdrawn(&mut report, &uri);
            skill.entry.clone()
        }
    };
    settle(&mut report, &entry);
    report.signer = client
        .host(|h, label| h.signer(label, &uri).cloned())
        .ok()
        .flatten();
    let sig_uri = format!(
        "{}{}",
        uri.strip_suffix("SKILL.md").unwrap_or(&uri),
        crate::oms::SIGNATURE_FILE
    );
    let trust_given = client
        .host(|h, _| h.signers().policy().has_trust())
        .unwrap_or(true)
        || !oms_keys.is_empty();
    crate::command::oms::finish_client(client, oms, &keys, trust_given, &sig_uri, &mut report);
    let changed = report.status == SkillStatus::Changed;
    let report = finish(report, &entry, changed.then_some(restarts));
    downgrade(report, &skill.entry, &entry)
}

/// A skill the listing gave a manifest whose entry held is `"dynamic"` is `downgraded`: a
/// server that lists files and digests, then answers `skills/get` with `"dynamic"`, would
/// otherwise serve other bytes as a `dynamic` skill that only fails without
/// `--allow-dynamic`. An `error` stays an `error` (the exchange failed first).
fn downgrade(
    mut report: SkillReport,
    listed: &crate::host::Entry,
    held: &crate::host::Entry,
) -> SkillReport {
    if listed.is_dynamic() || !held.is_dynamic() || report.status == SkillStatus::Error {
        return report;
    }
    let files = listed.items().map_or(0, <[_]>::len);
    report.status = SkillStatus::Downgraded;
    report.error = Some(
        VerifyError::new(
            ErrorCode::DynamicNotAllowed,
            format!(
                "{} was listed with a manifest of {files} files (revision {}), then served as \"dynamic\": its files can no longer be verified against anything (a downgrade, refused even when dynamic skills are accepted)",
                listed.uri(),
                listed.revision().unwrap_or_default()
            ),
        )
        .with_uri(listed.uri())
        .with_field("resources")
        .with_values("a manifest", "\"dynamic\"")
        .into(),
    );
    report
}

/// Marks every check of a skill whose entry the client no longer holds as `changed`: what was
/// read matched an entry the server has since withdrawn, so none of it is `verified` (or
/// `dynamic`) against anything the host holds.
fn withdrawn(report: &mut SkillReport, uri: &str) {
    for c in &mut report.checks {
        if matches!(c.status, FileStatus::Verified | FileStatus::Dynamic) {
            c.status = FileStatus::Changed;
            c.error = Some(
                VerifyError::new(
                    ErrorCode::UnknownSkill,
                    format!(
                        "{} was read for {uri}, which the server stopped serving during its check (its skills/get answered with an error); no entry the host holds lists it",
                        c.uri
                    ),
                )
                .with_uri(c.uri.clone())
                .into(),
            );
        }
    }
}

/// The entry the client holds for `uri`.
fn held_entry(client: &SkillsClient, uri: &str) -> Option<crate::host::Entry> {
    client
        .host(|h, label| h.entry(label, uri).cloned())
        .ok()
        .flatten()
}

/// One check of a skill: load it, then read every file of the entry held after loading, then
/// (with `directory_read`) walk its directories. Returns the checks and the entry the reads
/// started on (`None` when the `SKILL.md` did not load).
async fn check_skill<R: Rpc>(
    client: &SkillsClient,
    rpc: &R,
    listed: &crate::host::Entry,
    directory_read: bool,
) -> (SkillReport, Option<crate::host::Entry>) {
    let uri = listed.uri().to_owned();
    let mut report = SkillReport::start(
        uri.clone(),
        Some(listed.name().to_owned()),
        Some(listed.description().to_owned()),
    );
    match client.load_for(rpc, &uri, Purpose::Check).await {
        Ok(l) => {
            report.refreshed |= l.refreshed;
            let r = &l.skill.skill_md.receipt;
            report.checks.push(FileCheck {
                uri: r.uri.clone(),
                size: Some(r.size),
                digest: Some(r.digest.clone()),
                status: FileStatus::of(r),
                error: None,
            });
        }
        Err(e) => {
            report.refreshed |= crate::client::refreshable(e.code);
            report.checks.push(failed_check(&uri, e));
            // The other files are `skipped` (settle lists those of the entry held).
            return (report, None);
        }
    }
    // The entry the acting window holds (refreshed, if loading had to).
    let Some(started) = held_entry(client, &uri) else {
        return (report, None);
    };
    for item in started.items().unwrap_or_default() {
        if item.uri == uri {
            continue;
        }
        match client.read_for(rpc, &uri, &item.uri, Purpose::Check).await {
            Ok(r) => {
                report.refreshed |= r.refreshed;
                let receipt = &r.file.content.receipt;
                report.checks.push(FileCheck {
                    uri: receipt.uri.clone(),
                    size: Some(receipt.size),
                    digest: Some(receipt.digest.clone()),
                    status: FileStatus::of(receipt),
                    error: None,
                });
            }
            Err(e) => {
                report.refreshed |= crate::client::refreshable(e.code);
                let mut c = failed_check(&item.uri, e);
                c.size = Some(item.size);
                c.digest = Some(item.digest.clone());
                report.checks.push(c);
            }
        }
    }
    if directory_read && !started.is_dynamic() {
        walk(client, rpc, &started, &mut report).await;
    }
    (report, Some(started))
}

/// Settles every check against `held`, the entry held at the end: a `verified` check whose
/// item `held` lists with another size or digest (or does not list) is `changed`; a
/// `dynamic` one is `changed` when `held` is not dynamic; every file of `held` that no check
/// covers is `skipped`. After a check that ended on the entry it started on, this changes
/// nothing.
pub(super) fn settle(report: &mut SkillReport, held: &crate::host::Entry) {
    let items: BTreeMap<&str, &crate::host::ResourceItem> = held
        .items()
        .unwrap_or_default()
        .iter()
        .map(|i| (i.uri.as_str(), i))
        .collect();
    for c in &mut report.checks {
        let item = items.get(c.uri.as_str());
        let differs = match c.status {
            FileStatus::Verified => {
                item.is_none_or(|i| Some(i.size) != c.size || Some(&i.digest) != c.digest.as_ref())
            }
            FileStatus::Dynamic => !held.is_dynamic(),
            _ => false,
        };
        if !differs {
            continue;
        }
        let why = |what: &str| {
            format!(
                "{} was read for an entry of {} that the server then replaced; the entry held {what}",
                c.uri,
                held.uri()
            )
        };
        let error = match item {
            Some(i) if Some(i.size) != c.size => {
                VerifyError::new(ErrorCode::SizeMismatch, why("gives another size")).with_values(
                    i.size.to_string(),
                    c.size.map(|s| s.to_string()).unwrap_or_default(),
                )
            }
            Some(i) if Some(&i.digest) != c.digest.as_ref() => {
                VerifyError::new(ErrorCode::DigestMismatch, why("gives another digest"))
                    .with_values(i.digest.clone(), c.digest.clone().unwrap_or_default())
            }
            // Read (unverified) while the entry was dynamic; the entry held has a manifest.
            Some(_) => VerifyError::new(
                ErrorCode::DynamicNotAllowed,
                why("has a manifest, and the file was read without one, unverified"),
            ),
            None => VerifyError::new(ErrorCode::NotInManifest, why("does not list it")),
        }
        .with_uri(c.uri.clone());
        c.status = FileStatus::Changed;
        c.error = Some(error.into());
    }
    let checked: BTreeSet<String> = report.checks.iter().map(|c| c.uri.clone()).collect();
    for item in held.items().unwrap_or_default() {
        if !checked.contains(&item.uri) {
            report.checks.push(FileCheck {
                uri: item.uri.clone(),
                size: Some(item.size),
                digest: Some(item.digest.clone()),
                status: FileStatus::Skipped,
                error: None,
            });
        }
    }
}

/// Lists every directory under the skill root; a file the entry does not list is `unlisted`.
async fn walk<R: Rpc>(
    client: &SkillsClient,
    rpc: &R,
    entry: &crate::host::Entry,
    report: &mut SkillReport,
) {
    let root = entry.root().to_owned();
    let mut queue = vec![root.clone()];
    let mut seen: BTreeSet<String> = BTreeSet::from([root.clone()]);
    let files: BTreeSet<&str> = entry
        .items()
        .unwrap_or_default()
        .iter()
        .map(|i| i.uri.as_str())
        .collect();
    let mut listed = 0;
    // One listing budget covers the whole walk, not each directory on its own.
    let _ = client.begin_walk();
    while let Some(dir) = queue.pop() {
        if listed == MAX_DIRECTORIES {
            break;
        }
        listed += 1;
        match client.read_directory(rpc, &dir).await {
            Ok(d) => {
                for c in d.children {
                    let inside = c
                        .uri
                        .strip_prefix(root.as_str())
                        .is_some_and(|r| r.starts_with('/') && r.len() > 1);
                    if !inside {
                        continue;
                    }
                    if c.directory {
                        let u = c.uri.trim_end_matches('/').to_owned();
                        if seen.insert(u.clone()) {
                            queue.push(u);
                        }
                    } else if !files.contains(c.uri.as_str()) {
                        let e = VerifyError::new(
                            ErrorCode::NotInManifest,
                            format!(
                                "{} is served in the directory of {} but its entry does not list it; it was not read",
                                c.uri,
                                entry.uri()
                            ),
                        )
                        .with_uri(c.uri.clone());
                        report.checks.push(FileCheck {
                            uri: c.uri.clone(),
                            size: c.size,
                            digest: None,
                            status: FileStatus::Unlisted,
                            error: Some(e.into()),
                        });
                    }
                }
            }
            Err(e) => {
                // Past the walk's budget every further directory would fail the same way.
                let spent = client.listing_bytes() >= client.listing_budget();
                report.checks.push(failed_check(&dir, e));
                if spent {
                    break;
                }
            }
        }
    }
    let _ = client.end_walk();
    // Queue order is a stack; report unlisted files in URI order for stable output.
    report.checks.sort_by(|a, b| {
        let rank = |c: &FileCheck| u8::from(c.status == FileStatus::Unlisted);
        rank(a).cmp(&rank(b)).then_with(|| {
            if rank(a) == 1 {
                a.uri.cmp(&b.uri)
            } else {
                std::cmp::Ordering::Equal
            }
        })
    });
}

/// The skill's figures from `held` (the entry held at the end), its first reason and its
/// status from the checks alone (`restarts` is `Some` when the entry kept changing).
pub(super) fn finish(
    mut report: SkillReport,
    held: &crate::host::Entry,
    restarts: Option<usize>,
) -> SkillReport {
    report.name = Some(held.name().to_owned());
    report.description = Some(held.description().to_owned());
    report.revision = held.revision();
    let items = held.items().unwrap_or_default();
    report.files = items.len();
    report.bytes = items.iter().fold(0u64, |a, i| a.saturating_add(i.size));
    let changed = restarts.map(|n| {
        ClientError::exchange(ExchangeKind::ProtocolError,
            format!(
                "the entry of {} changed during each of {} checks (the check restarts at most {MAX_ENTRY_RESTARTS} times); its files are not all verified against the entry now held",
                held.uri(),
                n + 1
            ),
        )
        .with_uri(held.uri())
    });
    status_from_checks(report, held.is_dynamic(), changed)
}

/// A skill's status and first error from its checks alone, `dynamic` when what it was checked
/// against has no manifest (shared with [`super::wellknown`]).
pub(crate) fn finish_skill(report: SkillReport, dynamic: bool) -> SkillReport {
    status_from_checks(report, dynamic, None)
}

/// The status of a skill from its checks: `error` before everything, then `changed` (with
/// `changed` as its reason), `failed`, `dynamic`, and `verified` only when every check is.
fn status_from_checks(
    mut report: SkillReport,
    dynamic_entry: bool,
    changed: Option<ClientError>,
) -> SkillReport {
    let first = report.checks.iter().find(|c| {
        matches!(
            c.status,
            FileStatus::Failed | FileStatus::Error | FileStatus::Unlisted | FileStatus::Changed
        )
    });
    let failed = first.is_some();
    report.error = first.and_then(|c| c.error.clone());
    let has = |st: FileStatus| report.checks.iter().any(|c| c.status == st);
    let (error, skipped, dynamic) = (
        has(FileStatus::Error),
        has(FileStatus::Skipped),
        has(FileStatus::Dynamic),
    );
    report.status = if error {
        SkillStatus::Error
    } else if let Some(e) = changed {
        report.error = Some(e);
        SkillStatus::Changed
    } else if failed || skipped {
        SkillStatus::Failed
    } else if dynamic_entry || dynamic {
        SkillStatus::Dynamic
    } else {
        SkillStatus::Verified
    };
    report
}
