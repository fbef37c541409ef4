//! The pins export as a file holds it ([`PinsExport`]): its fields as JSON requires them, and
//! the rules of one file that no single pin breaks (one pin per origin and list; version 1
//! holds its own fields only). The checks of each pin's values are
//! [`Signers::import_pins`](super::Signers::import_pins)'s.

use std::collections::BTreeMap;

use crate::json;

use super::oms_pins;
use super::{canonical_origin, ErrorCode, Result, VerifyError};

/// Exported pins: `{"format":"skills-edge/pins","version":2,"pins":[{"origin","keyId","catalog","key"}],
/// "omsPins":[{"origin","hint","key"}]}` (read; [`Signers::export_pins`](super::Signers::export_pins) writes the same
/// shape; version 1 has no `omsPins`).
pub(super) struct PinsExport {
    pub(super) format: String,
    pub(super) version: u32,
    pub(super) pins: Vec<PinJson>,
    pub(super) oms: Vec<oms_pins::OmsPinJson>,
}

pub(super) struct PinJson {
    pub(super) origin: String,
    pub(super) key_id: String,
    pub(super) catalog: String,
    /// The public JWK, as its JSON text (read by [`trusted_key`](super::trusted_key)).
    pub(super) key: String,
}

impl PinsExport {
    /// The export's fields, as JSON requires them (the checks of their values are
    /// [`Signers::import_pins`](super::Signers::import_pins)'s).
    pub(super) fn read(json: &str) -> std::result::Result<PinsExport, String> {
        let doc = json::parse(json).map_err(|e| e.to_string())?;
        doc.expect_object("the export")?;
        let pins = doc
            .array_of("pins")
            ?
            .iter()
            .map(|p| {
                p.expect_object("a pin")?;
                Ok(PinJson {
                    origin: p.str_of("origin")?.to_owned(),
                    key_id: p.str_of("keyId")?.to_owned(),
                    catalog: p.str_of("catalog")?.to_owned(),
                    key: p.required("key")?.raw.to_owned(),
                })
            })
            .collect::<std::result::Result<_, Box<json::FieldError>>>()
            ?;
        let version = doc.u32_of("version")?;
        if version == 1 {
            // Version 1 defines these fields only: a member it does not define (omsPins above
            // all) is not dropped, or one edit of the version would erase every OMS pin.
            let defined = ["format", "version", "pins"];
            let members = doc.as_object().unwrap_or_default();
            if let Some((k, _)) = members.iter().find(|(k, _)| !defined.contains(&k.as_ref())) {
                let k: String = k.chars().take(40).collect();
                return Err(format!(
                    "version 1 has no field {k:?} (it holds format, version and pins only), so the file is damaged or was edited; a file with omsPins is version 2: set \"version\": 2 to keep them, or remove the field"
                ));
            }
        }
        let oms = if version == 2 {
            oms_pins::read_json(&doc)?
        } else {
            Vec::new()
        };
        Ok(PinsExport {
            format: doc.str_of("format")?.to_owned(),
            version,
            pins,
            oms,
        })
    }
}

/// Refuses a second pin of one origin in the list `list` of an export (`seen`: the
/// canonical origins read so far, with their spelling): which of two pins of one origin
/// holds must not depend on their order, so a file holding both is refused, naming the origin.
pub(super) fn once_per_origin(
    seen: &mut BTreeMap<String, String>,
    origin: &str,
    list: &str,
) -> Result<()> {
    let canonical = canonical_origin(origin);
    if let Some(first) = seen.get(&canonical) {
        return Err(VerifyError::new(
            ErrorCode::InvalidArgument,
            format!(
                "the pins' {list} list pins the origin {canonical} twice (as {first:?} and {origin:?}), and only one pin of an origin can hold: remove the entry whose key is not the publisher's (if unsure, remove both and let the next run pin the origin again)"
            ),
        ));
    }
    seen.insert(canonical, origin.to_owned());
    Ok(())
}
