//! Approvals bound to content (spec notes H21–H23): granting, revoking, their windows, export and import.

use super::*;

impl SkillHost {
    /// Whether loading the skill needs a current approval: `require_approval` is on, or it is
    /// a nested skill (`SkillHost::enclosing_skill`) and `nested_without_approval` is off.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn needs_approval(&self, label: &str, uri: &str) -> bool {
        self.options.require_approval
            || (!self.options.nested_without_approval && self.enclosing_skill(label, uri).is_some())
    }

    /// Records the user's approval of the skill as its entry stands now (H30), under its
    /// verified signer (`signed_approval_fingerprint`: the approval does not carry over to
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
    /// approval (approval is required, or the skill is nested), its acting window closes too: the consent it
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
    pub(super) fn close_unconsented_windows(&mut self, label: &str, uri: &str) {
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
    pub(super) fn close_gated_window(&mut self, label: &str, uri: &str) {
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
    pub(super) fn current_fingerprint(&self, label: &str, uri: &str) -> Option<String> {
        let entry = self.entry(label, uri)?;
        signed_approval_fingerprint(label, entry, self.signer(label, uri)).ok()
    }

    /// The stored approvals as JSON, for persisting:
    /// `{"format":"skills-edge/approvals","version":1,"approvals":[{"server","uri","fingerprint"}]}`,
    /// one item per approved skill: its server's label, its `SKILL.md` URI and the fingerprint
    /// approved (`signed_approval_fingerprint`).
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
                    if let Some(uris) = self.approvals.get_mut(&a.server)
                        && uris.remove(&a.uri).is_some()
                    {
                        self.close_gated_window(&a.server, &a.uri);
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
}
