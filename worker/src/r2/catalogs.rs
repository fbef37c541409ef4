//! `CATALOGS`: many catalogs of the bucket on one Worker, each picked by the request's host
//! (module `hosts`).

use super::{invalid, tenant, Hosts, Tenant};
use crate::hosts::HostPattern;
use skills_edge::catalog::json::{self, Node};
use skills_edge::catalog::release;
use skills_edge::catalog::sign::PublicKey;
use skills_edge::protocol::clip;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// Whether `a` and `b` hold the same keys (in any order).
fn same_keys(a: &[PublicKey], b: &[PublicKey]) -> bool {
    a.iter().all(|k| b.contains(k)) && b.iter().all(|k| a.contains(k))
}

/// Reads `CATALOGS` with the project's strict JSON reader (a key given twice is refused, where
/// `JSON.parse` would keep the last): an object whose keys are host names (`name` or
/// `*.suffix`, any case, no port, a final dot ignored) and whose values are a catalog id or
/// `{"catalog": ID, "trust": KEYS}` (`trust` replaces `CATALOG_TRUST` for that catalog; no
/// other member). Hosts naming one catalog share its pack, so they must give it the same
/// trust: a catalog mapped twice with different keys is refused, as is a host named twice
/// (keys that differ only in case or a final dot, or IPv6 literals of one address).
pub(super) fn read(
    text: &str,
    bucket: &JsValue,
    trust: Option<&[PublicKey]>,
) -> std::result::Result<(Vec<Rc<Tenant>>, Hosts), String> {
    let bad = |problem: String| {
        invalid(
            "CATALOGS",
            None,
            &problem,
            "give a JSON object of host names to catalog ids, such as {\"skills.team-a.example\":\"team-a\",\"*.b.example\":{\"catalog\":\"team-b\",\"trust\":{…}}}",
        )
    };
    let doc = json::parse(text).map_err(|e| bad(format!("it is not JSON ({e})")))?;
    let Some(members) = doc.as_object() else {
        return Err(bad(format!("it is {}, not a JSON object", doc.a_type())));
    };
    if let Some(k) = doc.repeated_key() {
        return Err(bad(format!("the key {:?} is given twice", clip(k))));
    }
    let mut tenants: Vec<Rc<Tenant>> = Vec::new();
    let mut hosts = Vec::new();
    for (key, value) in members {
        let Some(pattern) = HostPattern::parse(key) else {
            return Err(bad(format!(
                "{:?} is not a host name or *.suffix (letters, digits and hyphens in dot-separated labels of at most 63, or an IPv6 address in brackets; no port)",
                clip(key)
            )));
        };
        let host = pattern.as_str().to_owned();
        if hosts
            .iter()
            .any(|(p, _): &(HostPattern, usize)| *p == pattern)
        {
            return Err(bad(format!(
                "{:?} names the host {host} again (keys are compared without case and a final dot, IPv6 addresses as addresses)",
                clip(key)
            )));
        }
        let (catalog, own_trust) = mapping(&host, value).map_err(bad)?;
        release::check_catalog_id(&catalog).map_err(|e| bad(format!("{host}: {e}")))?;
        let (keys, trusted_by) = match own_trust {
            Some(own) => (own, format!("the \"trust\" of {catalog} in CATALOGS")),
            None => (
                trust.map(<[PublicKey]>::to_vec).ok_or_else(|| {
                    bad(format!(
                        "{catalog} has no trusted key: give it a \"trust\", or set CATALOG_TRUST"
                    ))
                })?,
                "CATALOG_TRUST".to_owned(),
            ),
        };
        let index = match tenants.iter().position(|t| t.catalog == catalog) {
            // One pack per catalog, checked against one set of keys.
            Some(i) if same_keys(&tenants[i].trust, &keys) => i,
            Some(i) => {
                let first = hosts
                    .iter()
                    .find(|(_, t)| *t == i)
                    .map(|(p, _)| p.as_str().to_owned())
                    .unwrap_or_default();
                return Err(bad(format!(
                    "{host} maps catalog {catalog} with other trusted keys than {first} does ({trusted_by}, against {}): hosts of one catalog share its pack; give them the same \"trust\", or none to use CATALOG_TRUST",
                    tenants[i].trusted_by
                )));
            }
            None => {
                tenants.push(tenant(bucket, catalog, keys, trusted_by));
                tenants.len() - 1
            }
        };
        hosts.push((pattern, index));
    }
    if hosts.is_empty() {
        return Err(bad("it names no host".into()));
    }
    Ok((tenants, hosts))
}

/// The catalog id and own trusted keys (if any) of the value `CATALOGS` gives `host`: a
/// catalog id, or `{"catalog": ID, "trust": KEYS}` with no other member (a misspelt `"trust"`
/// would otherwise leave the catalog to `CATALOG_TRUST`'s keys). `Err` is the problem, for
/// `CATALOGS`'s message.
fn mapping(host: &str, value: &Node) -> Result<(String, Option<Vec<PublicKey>>), String> {
    if let Some(id) = value.as_str() {
        return Ok((id.to_owned(), None));
    }
    let shape = || {
        format!(
            "the value of {host} is neither a catalog id nor {{\"catalog\": ID, \"trust\": KEYS}}"
        )
    };
    let members = value.as_object().ok_or_else(shape)?;
    if let Some(k) = value.repeated_key() {
        return Err(format!("the value of {host} gives {:?} twice", clip(k)));
    }
    if let Some((k, _)) = members.iter().find(|(k, _)| k != "catalog" && k != "trust") {
        return Err(format!(
            "the value of {host} has a member {:?}: only \"catalog\" and \"trust\" are read",
            clip(k)
        ));
    }
    let id = value
        .get("catalog")
        .and_then(Node::as_str)
        .ok_or_else(shape)?;
    let keys = match value.get("trust") {
        None => None,
        Some(t) => {
            Some(release::parse_trust(t.raw).map_err(|e| format!("the trust of {host}: {e}"))?)
        }
    };
    Ok((id.to_owned(), keys))
}
