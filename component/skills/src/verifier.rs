//! `skills-edge:mcp/verifier`: the functions of [`skills_edge::host`] and its
//! [`SkillHost`](skills_edge::host::SkillHost) registry as the `skill-host` resource.
//! JSON text in (entries, results, listings), WIT records out, [`host::VerifyError`] as the
//! `verify-error` record.

use crate::bindings::exports::skills_edge::mcp::verifier as wit;
use crate::Component;
use skills_edge::client::{ClientCode, ExchangeKind};
use skills_edge::host::{self, ErrorCode, Hashing};
use std::cell::RefCell;

type Result<T> = std::result::Result<T, wit::VerifyError>;

impl wit::Guest for Component {
    type SkillHost = SkillHost;

    fn validate_entry(entry: String) -> Result<String> {
        Ok(entry_from(&entry)?.to_json())
    }

    fn check_limits(entry: String) -> Result<Option<wit::LimitReport>> {
        let report = entry_from(&entry)?.check_limits().map_err(error)?;
        Ok(report.map(|r| wit::LimitReport {
            resource_count: count(r.resource_count),
            total_size: r.total_size,
        }))
    }

    fn verify_file(
        entry: String,
        uri: String,
        content: Vec<u8>,
        options: Option<wit::VerifyOptions>,
    ) -> Result<wit::FileReceipt> {
        let entry = entry_from(&entry)?;
        host::verify_bytes(
            &entry,
            &uri,
            &content,
            Hashing::Here,
            verify_options(options),
        )
        .map(receipt)
        .map_err(error)
    }

    fn verify_read_result(
        entry: String,
        uri: String,
        read_result_json: String,
        options: Option<wit::VerifyOptions>,
    ) -> Result<wit::VerifiedContent> {
        let entry = entry_from(&entry)?;
        host::verify_content(
            &entry,
            &uri,
            &host::Content::ReadResult(read_result_json),
            Hashing::Here,
            verify_options(options),
        )
        .map(verified_content)
        .map_err(error)
    }

    fn verify_skill_md(entry: String, content: wit::Content) -> Result<wit::VerifiedSkillMd> {
        let entry = entry_from(&entry)?;
        host::verify_skill_md(&entry, &content_from(content)?, Hashing::Here)
            .map(skill_md)
            .map_err(error)
    }

    fn resolve_reference(skill_uri: String, reference: String) -> Result<String> {
        host::resolve(&skill_uri, &reference).map_err(error)
    }

    fn approval_fingerprint(server_label: String, entry: String) -> Result<String> {
        host::approval_fingerprint(&server_label, &entry_from(&entry)?).map_err(error)
    }

    fn skill_revision(entry: String) -> Result<Option<String>> {
        Ok(entry_from(&entry)?.revision())
    }

    fn sha256_digest(content: Vec<u8>) -> String {
        skills_edge::catalog::digest_of(&content)
    }
}

/// The `skill-host` resource. The registry mutates through `&self` methods, as every
/// resource method does; a component instance runs one call at a time.
pub struct SkillHost(RefCell<host::SkillHost>);

impl wit::GuestSkillHost for SkillHost {
    fn new(options: wit::HostOptions) -> SkillHost {
        SkillHost(RefCell::new(host::SkillHost::new(host::HostOptions {
            allow_dynamic: options.allow_dynamic,
            require_approval: options.require_approval,
            // The component's host options have no opt-out: a nested skill needs its own
            // approval (H31).
            nested_without_approval: false,
        })))
    }

    fn add_server(&self, label: String) -> Result<()> {
        self.0.borrow_mut().add_server(&label).map_err(error)
    }

    fn remove_server(&self, label: String) -> Result<()> {
        self.0.borrow_mut().remove_server(&label).map_err(error)
    }

    fn servers(&self) -> Vec<String> {
        self.0
            .borrow()
            .servers()
            .into_iter()
            .map(str::to_owned)
            .collect()
    }

    fn register(&self, label: String, entry: String) -> Result<wit::RegisterOutcome> {
        let entry = entry_from(&entry)?;
        self.0
            .borrow_mut()
            .register(&label, entry)
            .map(outcome)
            .map_err(error)
    }

    fn refresh(&self, label: String, entry: String) -> Result<wit::RegisterOutcome> {
        let entry = entry_from(&entry)?;
        self.0
            .borrow_mut()
            .refresh(&label, entry)
            .map(outcome)
            .map_err(error)
    }

    fn register_listing(&self, label: String, listing: String) -> Result<wit::ListingOutcome> {
        let out = self
            .0
            .borrow_mut()
            .register_listing(&label, &listing)
            .map_err(error)?;
        Ok(wit::ListingOutcome {
            registered: out.registered.into_iter().map(outcome).collect(),
            rejected: out
                .rejected
                .into_iter()
                .map(|r| wit::RejectedEntry {
                    index: count(r.index),
                    error: error(r.error),
                })
                .collect(),
        })
    }

    fn register_get_result(
        &self,
        label: String,
        uri: String,
        get_result: String,
    ) -> Result<wit::RegisterOutcome> {
        self.0
            .borrow_mut()
            .register_get_result(&label, &uri, &get_result)
            .map(outcome)
            .map_err(error)
    }

    fn forget(&self, label: String, uri: String) -> Result<bool> {
        self.0.borrow_mut().forget(&label, &uri).map_err(error)
    }

    fn entry(&self, label: String, uri: String) -> Option<String> {
        self.0
            .borrow()
            .entry(&label, &uri)
            .map(host::Entry::to_json)
    }

    fn skills(&self) -> Vec<wit::SkillSummary> {
        self.0
            .borrow()
            .skills()
            .into_iter()
            .map(|s| wit::SkillSummary {
                server_label: s.server_label,
                uri: s.uri,
                name: s.name,
                description: s.description,
                display_name: s.display_name,
                dynamic: s.dynamic,
                approved: s.approved,
                active: s.active,
            })
            .collect()
    }

    fn lookup(&self, display_name: String) -> Option<wit::SkillRef> {
        self.0
            .borrow()
            .lookup(&display_name)
            .map(|(server_label, uri)| wit::SkillRef { server_label, uri })
    }

    fn plan_load(&self, label: String, uri: String) -> Result<wit::PlannedRead> {
        self.0
            .borrow()
            .plan_load(&label, &uri)
            .map(planned)
            .map_err(error)
    }

    fn load(&self, label: String, uri: String, content: wit::Content) -> Result<wit::LoadedSkill> {
        let content = content_from(content)?;
        let loaded = self
            .0
            .borrow_mut()
            .load(&label, &uri, content, Hashing::Here)
            .map_err(error)?;
        Ok(wit::LoadedSkill {
            server_label: loaded.server_label,
            display_name: loaded.display_name,
            skill_md: skill_md(loaded.skill_md),
        })
    }

    fn plan_read(
        &self,
        label: String,
        skill_uri: String,
        reference: String,
    ) -> Result<wit::PlannedRead> {
        self.0
            .borrow()
            .plan_read(&label, &skill_uri, &reference)
            .map(planned)
            .map_err(error)
    }

    fn read(
        &self,
        label: String,
        skill_uri: String,
        reference: String,
        content: wit::Content,
    ) -> Result<wit::ReadFile> {
        let content = content_from(content)?;
        let file = self
            .0
            .borrow_mut()
            .read(&label, &skill_uri, &reference, content, Hashing::Here)
            .map_err(error)?;
        Ok(wit::ReadFile {
            server_label: file.server_label,
            skill_uri: file.skill_uri,
            content: verified_content(file.content),
        })
    }

    fn is_active(&self, label: String, uri: String) -> bool {
        self.0.borrow().is_active(&label, &uri)
    }

    fn close_window(&self, label: String, uri: String) -> bool {
        self.0.borrow_mut().close_window(&label, &uri)
    }

    fn approve(&self, label: String, uri: String) -> Result<String> {
        self.0.borrow_mut().approve(&label, &uri).map_err(error)
    }

    fn revoke(&self, label: String, uri: String) -> bool {
        self.0.borrow_mut().revoke(&label, &uri)
    }

    fn is_approved(&self, label: String, uri: String) -> bool {
        self.0.borrow().is_approved(&label, &uri)
    }

    fn export_approvals(&self) -> String {
        self.0.borrow().export_approvals()
    }

    fn import_approvals(&self, approvals: String) -> Result<u32> {
        self.0
            .borrow_mut()
            .import_approvals(&approvals)
            .map(count)
            .map_err(error)
    }
}

// ---------------------------------------------------------------------------------------------
// Conversions
// ---------------------------------------------------------------------------------------------

/// A count or an index as `u32` (every one the library reports is far below 2^32).
fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The WIT case of an error code: the host rules' codes and the client's exchange failures,
/// one `error-code` enum (the component raises only the first; the WIT lists every code the
/// library has a name for, as the npm package does).
fn code(c: ClientCode) -> wit::ErrorCode {
    match c {
        ClientCode::Verify(c) => match c {
            ErrorCode::InvalidEntry => wit::ErrorCode::InvalidEntry,
            ErrorCode::LimitExceeded => wit::ErrorCode::LimitExceeded,
            ErrorCode::NotInManifest => wit::ErrorCode::NotInManifest,
            ErrorCode::SizeMismatch => wit::ErrorCode::SizeMismatch,
            ErrorCode::DigestMismatch => wit::ErrorCode::DigestMismatch,
            ErrorCode::FrontmatterMismatch => wit::ErrorCode::FrontmatterMismatch,
            ErrorCode::FrontmatterInvalid => wit::ErrorCode::FrontmatterInvalid,
            ErrorCode::InvalidReadResult => wit::ErrorCode::InvalidReadResult,
            ErrorCode::EscapesRoot => wit::ErrorCode::EscapesRoot,
            ErrorCode::InvalidReference => wit::ErrorCode::InvalidReference,
            ErrorCode::DynamicNotAllowed => wit::ErrorCode::DynamicNotAllowed,
            ErrorCode::NoActingWindow => wit::ErrorCode::NoActingWindow,
            ErrorCode::NotApproved => wit::ErrorCode::NotApproved,
            ErrorCode::UnknownServer => wit::ErrorCode::UnknownServer,
            ErrorCode::UnknownSkill => wit::ErrorCode::UnknownSkill,
            ErrorCode::InvalidArgument => wit::ErrorCode::InvalidArgument,
            ErrorCode::ArchiveInvalid => wit::ErrorCode::ArchiveInvalid,
            ErrorCode::ArchiveUnsafe => wit::ErrorCode::ArchiveUnsafe,
            ErrorCode::UnknownSchema => wit::ErrorCode::UnknownSchema,
            ErrorCode::SignatureInvalid => wit::ErrorCode::SignatureInvalid,
            ErrorCode::SignerUntrusted => wit::ErrorCode::SignerUntrusted,
            ErrorCode::SignerChanged => wit::ErrorCode::SignerChanged,
            // `ErrorCode` is non-exhaustive; `every_code_has_its_wit_case` fails when a code
            // is added to the library without a case here and in wit/skills-edge.wit.
            _ => wit::ErrorCode::InvalidArgument,
        },
        ClientCode::Exchange(k) => match k {
            ExchangeKind::ConnectionFailed => wit::ErrorCode::ConnectionFailed,
            ExchangeKind::HttpStatus => wit::ErrorCode::HttpStatus,
            ExchangeKind::ProtocolError => wit::ErrorCode::ProtocolError,
            ExchangeKind::ServerError => wit::ErrorCode::ServerError,
            ExchangeKind::Timeout => wit::ErrorCode::Timeout,
            ExchangeKind::Aborted => wit::ErrorCode::Aborted,
            _ => wit::ErrorCode::InvalidArgument,
        },
    }
}

fn error(e: host::VerifyError) -> wit::VerifyError {
    wit::VerifyError {
        code: code(ClientCode::Verify(e.code)),
        uri: e.uri.map(String::from),
        expected: e.expected.map(String::from),
        actual: e.actual.map(String::from),
        field: e.field.map(String::from),
        message: e.message,
    }
}

fn entry_from(json: &str) -> Result<host::Entry> {
    host::Entry::parse(json).map_err(error)
}

fn content_from(content: wit::Content) -> Result<host::Content> {
    Ok(match content {
        wit::Content::Text(t) => host::Content::Text(t),
        wit::Content::Bytes(b) => host::Content::Bytes(b),
        wit::Content::ReadResult(json) => host::Content::ReadResult(json),
    })
}

fn verify_options(options: Option<wit::VerifyOptions>) -> host::VerifyOptions {
    host::VerifyOptions {
        allow_dynamic: options.is_some_and(|o| o.allow_dynamic),
    }
}

fn receipt(r: host::FileReceipt) -> wit::FileReceipt {
    wit::FileReceipt {
        uri: r.uri,
        size: r.size,
        digest: r.digest,
        verified: r.verified,
    }
}

fn verified_content(c: host::VerifiedContent) -> wit::VerifiedContent {
    wit::VerifiedContent {
        receipt: receipt(c.receipt),
        body: match c.body {
            host::Body::Text(t) => wit::Body::Text(t),
            host::Body::Blob(b) => wit::Body::Blob(b),
        },
        mime_type: c.mime_type,
    }
}

fn skill_md(v: host::VerifiedSkillMd) -> wit::VerifiedSkillMd {
    wit::VerifiedSkillMd {
        body: v.body().to_owned(),
        frontmatter: v.frontmatter.to_json(),
        receipt: receipt(v.receipt),
        text: v.text,
        mime_type: v.mime_type,
    }
}

fn outcome(r: host::RegisterOutcome) -> wit::RegisterOutcome {
    wit::RegisterOutcome {
        uri: r.uri,
        added: r.added,
        changed: r.changed,
        approval_revoked: r.approval_revoked,
    }
}

fn planned(p: host::PlannedRead) -> wit::PlannedRead {
    wit::PlannedRead {
        uri: p.uri,
        digest: p.digest,
        size: p.size,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The case names of `enum error-code` in wit/skills-edge.wit, in order.
    fn wit_case_names() -> Vec<String> {
        let wit = include_str!("../../../wit/skills-edge.wit");
        let start = wit.find("enum error-code {").expect("the enum is declared");
        let body = &wit[start..];
        let end = body.find('}').expect("the enum is closed");
        body[..end]
            .lines()
            .skip(1)
            .map(str::trim)
            .filter(|l| !l.starts_with("///") && !l.is_empty())
            .map(|l| l.trim_end_matches(',').to_owned())
            .collect()
    }

    #[test]
    fn every_code_has_its_wit_case() {
        let names = wit_case_names();
        assert_eq!(names.len(), ClientCode::ALL.len());
        for c in ClientCode::ALL {
            assert_eq!(names[code(c) as usize], c.as_str());
        }
    }
}
