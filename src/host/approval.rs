//! Approval fingerprints (SEP-2640 §Security, H30; open point A9).
//!
//! A persisted per-skill approval is bound to the server's host-assigned label, the skill URI
//! and every `(uri, digest)` pair of the entry's `resources` as observed at approval time. The
//! fingerprint is one SHA-256 over an unambiguous encoding of exactly those values:
//!
//! ```text
//! field(s)    = u64_be(byte length of s) ‖ UTF-8 bytes of s
//! message     = field("skills-edge approval v1")
//!             ‖ field(server label) ‖ field(skill URI)
//!             ‖ u64_be(number of files)
//!             ‖ for each file, sorted by URI (bytewise): field(uri) ‖ field(digest)
//! fingerprint = "sha256:" ‖ 64 lowercase hex of SHA-256(message)
//! ```
//!
//! Sizes are left out (a different size means a different digest), and so are the frontmatter
//! (covered by the `SKILL.md` digest) and any unknown entry field (A15). The order of
//! `resources` does not matter. A `"dynamic"` entry has no content to bind to, so it has no
//! fingerprint.
//!
//! **Signed skills.** An approval is also bound to the skill's verified signer
//! ([`crate::host::signature`]): for a skill whose signature holds, the message goes on with
//!
//! ```text
//!             ‖ field("signer") ‖ field(key id) ‖ field(catalog identity)
//! ```
//!
//! so an approval given under one signer does not carry over to another key, to another
//! catalog identity, or to the same files unsigned, and one given to the unsigned skill does
//! not cover it signed. How the signer was anchored (trusted, pinned, first use) is left out:
//! a pin made on first use is the same signer when it is later pinned. An unsigned skill's
//! fingerprint is the message above without that tail, so approvals stored before signatures
//! existed stay valid for unsigned skills. (Past the files, the file count fixes where the
//! tail starts, so the two forms cannot collide.)

use super::entry::Entry;
use super::error::{ErrorCode, Result, VerifyError};
use super::signature::Signer;
use crate::skill::digest::{digest_of, is_wire_digest};
use crate::skill::value::write_json_string;
use crate::json;

/// The `format` tag of exported approvals.
pub(crate) const APPROVALS_FORMAT: &str = "skills-edge/approvals";

/// The version of the approvals export this build reads and writes.
pub(crate) const APPROVALS_VERSION: u32 = 1;

/// Persisted approvals, as [`crate::host::SkillHost::export_approvals`] writes them and
/// [`crate::host::SkillHost::import_approvals`] reads them:
/// `{"format":"skills-edge/approvals","version":1,"approvals":[{"server","uri","fingerprint"}]}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ApprovalsExport {
    /// Always [`APPROVALS_FORMAT`].
    pub(crate) format: String,
    /// Always [`APPROVALS_VERSION`].
    pub(crate) version: u32,
    /// One per approved skill.
    pub(crate) approvals: Vec<StoredApproval>,
}

/// One persisted approval: the skill, by (server label, URI), and the fingerprint approved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StoredApproval {
    /// The host-assigned label of the skill's server.
    pub(crate) server: String,
    /// The skill's `SKILL.md` URI.
    pub(crate) uri: String,
    /// The fingerprint approved ([`approval_fingerprint`]).
    pub(crate) fingerprint: String,
}

impl ApprovalsExport {
    /// An export of `(server, uri, fingerprint)` triples.
    pub(crate) fn of<'a>(approvals: impl Iterator<Item = (&'a str, &'a str, &'a str)>) -> Self {
        ApprovalsExport {
            format: APPROVALS_FORMAT.to_owned(),
            version: APPROVALS_VERSION,
            approvals: approvals
                .map(|(server, uri, fingerprint)| StoredApproval {
                    server: server.to_owned(),
                    uri: uri.to_owned(),
                    fingerprint: fingerprint.to_owned(),
                })
                .collect(),
        }
    }

    /// The export as JSON text.
    pub(crate) fn to_json(&self) -> String {
        // Written directly (strings and an integer), in the field order `parse` reads.
        let mut out = String::from("{\"format\":");
        write_json_string(&self.format, &mut out);
        out.push_str(",\"version\":");
        out.push_str(&self.version.to_string());
        out.push_str(",\"approvals\":[");
        for (i, a) in self.approvals.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"server\":");
            write_json_string(&a.server, &mut out);
            out.push_str(",\"uri\":");
            write_json_string(&a.uri, &mut out);
            out.push_str(",\"fingerprint\":");
            write_json_string(&a.fingerprint, &mut out);
            out.push('}');
        }
        out.push_str("]}");
        out
    }

    /// The export's fields, as JSON requires them (the checks of their values are `parse`'s).
    fn read(doc: &json::Node) -> std::result::Result<ApprovalsExport, Box<json::FieldError>> {
        doc.expect_object("the export")?;
        let approvals = doc
            .array_of("approvals")?
            .iter()
            .map(|a| {
                a.expect_object("an approval")?;
                Ok(StoredApproval {
                    server: a.str_of("server")?.to_owned(),
                    uri: a.str_of("uri")?.to_owned(),
                    fingerprint: a.str_of("fingerprint")?.to_owned(),
                })
            })
            .collect::<std::result::Result<_, Box<json::FieldError>>>()?;
        Ok(ApprovalsExport {
            format: doc.str_of("format")?.to_owned(),
            version: doc.u32_of("version")?,
            approvals,
        })
    }

    /// Reads an export, checking its format, version and every fingerprint's form.
    /// [`ErrorCode::InvalidArgument`] names what is wrong.
    pub(crate) fn parse(json: &str) -> Result<ApprovalsExport> {
        let bad = |m: String| VerifyError::new(ErrorCode::InvalidArgument, m);
        let unreadable = |e: &dyn std::fmt::Display| bad(format!("the approvals cannot be read: {e}"));
        let doc = json::parse(json).map_err(|e| unreadable(&e))?;
        let export = Self::read(&doc).map_err(|e| unreadable(&e))?;
        if export.format != APPROVALS_FORMAT || export.version != APPROVALS_VERSION {
            return Err(bad(format!(
                "the approvals are in the format {:?} version {}; expected {APPROVALS_FORMAT:?} version {APPROVALS_VERSION}",
                export.format, export.version
            )));
        }
        if let Some(a) = export
            .approvals
            .iter()
            .find(|a| !is_wire_digest(&a.fingerprint))
        {
            return Err(bad(format!(
                "the approval of {} has the malformed fingerprint {:?}",
                a.uri, a.fingerprint
            )));
        }
        Ok(export)
    }
}

/// The domain-separation tag that opens every fingerprinted message.
pub(crate) const FINGERPRINT_TAG: &str = "skills-edge approval v1";

fn field(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&(s.len() as u64).to_be_bytes());
    out.extend_from_slice(s.as_bytes());
}

/// The approval fingerprint of `entry` as served by the server labelled `server_label`, as an
/// unsigned skill (`signed_approval_fingerprint` with no signer).
/// [`ErrorCode::DynamicNotAllowed`] for a `"dynamic"` entry.
///
/// ```
/// use skills_edge::host::{approval_fingerprint, Entry};
/// let e = Entry::parse(r#"{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},
///   "resources":[{"uri":"skill://a/SKILL.md","size":1,
///   "digest":"sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"}]}"#).unwrap();
/// let f = approval_fingerprint("work", &e).unwrap();
/// assert!(f.starts_with("sha256:") && f.len() == 71);
/// assert_ne!(f, approval_fingerprint("home", &e).unwrap());
/// ```
pub fn approval_fingerprint(server_label: &str, entry: &Entry) -> Result<String> {
    signed_approval_fingerprint(server_label, entry, None)
}

/// The approval fingerprint of `entry` as served by the server labelled `server_label`, signed
/// by `signer` (the signer the host verified for it; `None`: unsigned): see the module
/// documentation. [`ErrorCode::DynamicNotAllowed`] for a `"dynamic"` entry.
pub fn signed_approval_fingerprint(
    server_label: &str,
    entry: &Entry,
    signer: Option<&Signer>,
) -> Result<String> {
    let Some(items) = entry.items() else {
        return Err(VerifyError::new(
            ErrorCode::DynamicNotAllowed,
            format!(
                "the skill {} has \"dynamic\" resources: an approval cannot be bound to content that is not enumerated",
                entry.uri()
            ),
        )
        .with_uri(entry.uri()));
    };
    let pairs: Vec<(&str, &str)> = items
        .iter()
        .map(|i| (i.uri.as_str(), i.digest.as_str()))
        .collect();
    let keys: Vec<&[u8]> = pairs.iter().map(|(u, _)| u.as_bytes()).collect();
    let pairs: Vec<(&str, &str)> = crate::skill::byte_order(&keys)
        .into_iter()
        .filter_map(|i| pairs.get(i).copied())
        .collect();
    let mut msg = Vec::with_capacity(64 + pairs.len() * 128);
    field(&mut msg, FINGERPRINT_TAG);
    field(&mut msg, server_label);
    field(&mut msg, entry.uri());
    msg.extend_from_slice(&(pairs.len() as u64).to_be_bytes());
    for (uri, digest) in pairs {
        field(&mut msg, uri);
        field(&mut msg, digest);
    }
    if let Some(s) = signer {
        field(&mut msg, "signer");
        field(&mut msg, &s.key_id);
        field(&mut msg, &s.catalog);
    }
    Ok(digest_of(&msg))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skill::digest::{digest_of, is_wire_digest};

    fn entry(items: &[(&str, &[u8], u64)], extra: &str) -> Entry {
        let res: Vec<String> = items
            .iter()
            .map(|(u, b, size)| {
                format!(
                    r#"{{"uri":"{u}","digest":"{}","size":{size}}}"#,
                    digest_of(b)
                )
            })
            .collect();
        Entry::parse(&format!(
            r#"{{"uri":"skill://p/a/SKILL.md","frontmatter":{{"name":"a","description":"d"}},"resources":[{}]{extra}}}"#,
            res.join(",")
        ))
        .unwrap()
    }

    #[test]
    fn the_export_is_json_text_in_the_field_order_it_is_read_back() {
        let (f1, f2) = (digest_of(b"1"), digest_of(b"2"));
        let export = ApprovalsExport::of(
            [
                ("s\"1", "skill://a/SKILL.md", f1.as_str()),
                ("s2", "skill://b/SKILL.md", f2.as_str()),
            ]
            .into_iter(),
        );
        let text = export.to_json();
        assert_eq!(
            text,
            format!(
                r#"{{"format":"skills-edge/approvals","version":1,"approvals":[{{"server":"s\"1","uri":"skill://a/SKILL.md","fingerprint":"{f1}"}},{{"server":"s2","uri":"skill://b/SKILL.md","fingerprint":"{f2}"}}]}}"#
            )
        );
        assert_eq!(ApprovalsExport::parse(&text), Ok(export));
        assert_eq!(
            ApprovalsExport::of(std::iter::empty()).to_json(),
            r#"{"format":"skills-edge/approvals","version":1,"approvals":[]}"#
        );
    }

    #[test]
    fn binds_label_uri_and_every_uri_digest_pair() {
        let base = entry(
            &[
                ("skill://p/a/SKILL.md", b"x", 1),
                ("skill://p/a/b", b"y", 1),
            ],
            "",
        );
        let f = approval_fingerprint("s1", &base).unwrap();
        assert!(is_wire_digest(&f));
        // Deterministic, order-independent, blind to sizes and unknown fields.
        let same = entry(
            &[
                ("skill://p/a/b", b"y", 7),
                ("skill://p/a/SKILL.md", b"x", 1),
            ],
            r#","_meta":{"k":1}"#,
        );
        assert_eq!(approval_fingerprint("s1", &same).unwrap(), f);
        // Label, a digest, an added file each change it.
        assert_ne!(approval_fingerprint("s2", &base).unwrap(), f);
        let rotated = entry(
            &[
                ("skill://p/a/SKILL.md", b"x", 1),
                ("skill://p/a/b", b"z", 1),
            ],
            "",
        );
        assert_ne!(approval_fingerprint("s1", &rotated).unwrap(), f);
        let added = entry(
            &[
                ("skill://p/a/SKILL.md", b"x", 1),
                ("skill://p/a/b", b"y", 1),
                ("skill://p/a/c", b"", 0),
            ],
            "",
        );
        assert_ne!(approval_fingerprint("s1", &added).unwrap(), f);
    }

    #[test]
    fn encoding_is_unambiguous_and_documented() {
        let e = entry(&[("skill://p/a/SKILL.md", b"x", 1)], "");
        let mut msg = Vec::new();
        for s in [FINGERPRINT_TAG, "lab", "skill://p/a/SKILL.md"] {
            msg.extend_from_slice(&(s.len() as u64).to_be_bytes());
            msg.extend_from_slice(s.as_bytes());
        }
        msg.extend_from_slice(&1u64.to_be_bytes());
        for s in ["skill://p/a/SKILL.md", &digest_of(b"x")] {
            msg.extend_from_slice(&(s.len() as u64).to_be_bytes());
            msg.extend_from_slice(s.as_bytes());
        }
        assert_eq!(approval_fingerprint("lab", &e).unwrap(), digest_of(&msg));
    }

    #[test]
    fn signed_fingerprints_bind_the_signer_and_leave_unsigned_ones_alone() {
        use crate::host::signature::{Signer, SignerTrust};
        let e = entry(&[("skill://p/a/SKILL.md", b"x", 1)], "");
        // The unsigned form is the one of the encoding test above.
        assert_eq!(
            signed_approval_fingerprint("lab", &e, None).unwrap(),
            approval_fingerprint("lab", &e).unwrap()
        );
        let signer = |key: &str, catalog: &str, trust| Signer {
            key_id: key.into(),
            catalog: catalog.into(),
            trust,
        };
        let a = signer("k1", "acme", SignerTrust::FirstUse);
        let f = signed_approval_fingerprint("lab", &e, Some(&a)).unwrap();
        assert_ne!(f, approval_fingerprint("lab", &e).unwrap());
        // The documented tail.
        let mut msg = Vec::new();
        for s in [FINGERPRINT_TAG, "lab", "skill://p/a/SKILL.md"] {
            field(&mut msg, s);
        }
        msg.extend_from_slice(&1u64.to_be_bytes());
        for s in [
            "skill://p/a/SKILL.md",
            &digest_of(b"x"),
            "signer",
            "k1",
            "acme",
        ] {
            field(&mut msg, s);
        }
        assert_eq!(f, digest_of(&msg));
        // The same signer anchored another way is the same approval; another key or catalog is not.
        let pinned = signer("k1", "acme", SignerTrust::Pinned);
        assert_eq!(
            signed_approval_fingerprint("lab", &e, Some(&pinned)).unwrap(),
            f
        );
        for other in [
            signer("k2", "acme", SignerTrust::FirstUse),
            signer("k1", "evil", SignerTrust::FirstUse),
        ] {
            assert_ne!(
                signed_approval_fingerprint("lab", &e, Some(&other)).unwrap(),
                f
            );
        }
    }

    #[test]
    fn dynamic_entries_have_no_fingerprint() {
        let e = Entry::parse(r#"{"uri":"skill://d/SKILL.md","frontmatter":{"name":"d","description":"x"},"resources":"dynamic"}"#).unwrap();
        assert_eq!(
            approval_fingerprint("s", &e).unwrap_err().code,
            ErrorCode::DynamicNotAllowed
        );
    }
}
