//! `skills-edge gc`: what neither the pointer nor the last N revisions name, deleted (moved
//! out of publish.rs; it shares its store and history).

use super::{read_history, write_history, Store, Trust};
use crate::release::{self, keys, Release};
use crate::sign::Envelope;

/// The pointer's release (its payload; the signature is the Worker's to check), `None` when
/// there is no pointer.
fn read_pointer(store: &Store) -> Result<Option<Release>, String> {
    match store.get(&keys::pointer(&store.catalog))? {
        Some(bytes) => {
            let env = Envelope::parse(&bytes).map_err(|e| format!("the pointer is damaged: {e}; gc deletes nothing until publish or --rollback repairs it"))?;
            Ok(Some(
                Release::parse(&env.payload).map_err(|e| e.to_string())?,
            ))
        }
        None => Ok(None),
    }
}

/// `gc --keep N [--trust KEYS]`: deletes what neither the pointer nor the newest N revisions
/// name ([`release::gc_plan`]; with `trust`, only revisions whose release opens with one of
/// its keys count towards N), and returns what to tell the user (each revision not counted,
/// with why, then the plan). The pointer and the history are read again just before each
/// batch of deletes, and nothing they name then is deleted ([`release::GcPlan::still_doomed`]).
/// gc must still not run beside a publish: a publish that re-uploads a revision gc is
/// deleting, before it writes the history, can lose it (docs/serving.md).
pub(super) fn collect(
    store: &Store,
    keep: usize,
    trust: Option<&Trust>,
    dry_run: bool,
) -> Result<Vec<String>, String> {
    let history = read_history(store)?;
    let pointer = read_pointer(store)?;
    let mut refused = Vec::new();
    let mut failed = None;
    let plan = release::gc_plan(&history, pointer.as_ref(), keep, |e| {
        let Some(trust) = trust else { return true };
        let key = keys::release(&store.catalog, &e.revision);
        match store.get(&key) {
            Ok(Some(bytes)) => {
                match Release::open(&bytes, &trust.keys, &trust.source, &store.catalog) {
                    Ok(_) => true,
                    Err(why) => {
                        refused.push(format!("{}: {why}", &e.revision[..12]));
                        false
                    }
                }
            }
            Ok(None) => {
                refused.push(format!("{}: its release is missing", &e.revision[..12]));
                false
            }
            Err(why) => {
                failed.get_or_insert(why);
                false
            }
        }
    });
    if let Some(why) = failed {
        return Err(format!("{why}; gc deleted nothing"));
    }
    let mut said: Vec<String> = refused
        .iter()
        .map(|r| format!("gc: revision {r} (not counted towards --keep)"))
        .collect();
    said.push(format!(
        "gc {}/{}: keeping {} revisions{}, deleting {} revisions and {} assets",
        store.bucket,
        store.catalog,
        plan.kept.len(),
        pointer
            .as_ref()
            .map(|p| format!(" (the pointer names {})", &p.revision()[..12]))
            .unwrap_or_default(),
        plan.revisions.len(),
        plan.assets.len()
    ));
    if dry_run {
        for r in &plan.revisions {
            said.push(format!("would delete revision {r}"));
        }
        return Ok(said);
    }
    if plan.revisions.is_empty() {
        return Ok(said);
    }
    // Read again just before the deletes: what a publish or a rollback named meanwhile
    // stays. The history first: an interrupted gc leaves objects no revision names, never a
    // history naming an object that is gone.
    let plan = plan.still_doomed(&read_history(store)?, read_pointer(store)?.as_ref(), keep);
    write_history(store, &plan.kept)?;
    for r in &plan.revisions {
        store.delete(&keys::pack(&store.catalog, r))?;
        store.delete(&keys::release(&store.catalog, r))?;
    }
    let plan = plan.still_doomed(&read_history(store)?, read_pointer(store)?.as_ref(), keep);
    for a in &plan.assets {
        store.delete(&format!("{}{a}", keys::assets(&store.catalog)))?;
    }
    Ok(said)
}
