//! Loading a skill and reading its files: the plans the caller fetches by, and the acting windows that hold the entry a skill was loaded from.

use super::*;

impl SkillHost {
    /// Checks everything that can be checked before the `SKILL.md` is fetched (H8, H30,
    /// H31): the skill is registered, within the limits (from the entry alone), dynamic only
    /// if allowed, approved if approval is required or the skill is nested.
    /// Returns what to read.
    pub fn plan_load(&self, label: &str, uri: &str) -> Result<PlannedRead> {
        self.plan_load_for(label, uri, Purpose::Use)
    }

    /// [`SkillHost::plan_load`] for `purpose`: a load that only checks a skill
    /// ([`Purpose::Check`]) needs no consent for a nested skill, since nothing reaches a model.
    pub(crate) fn plan_load_for(
        &self,
        label: &str,
        uri: &str,
        purpose: Purpose,
    ) -> Result<PlannedRead> {
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

    /// [`SkillHost::load`] for `purpose` (`SkillHost::plan_load_for`).
    pub(crate) fn load_for(
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
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    #[cfg_attr(not(feature = "command"), allow(dead_code))]
    pub(crate) fn close_check_window(&mut self, label: &str, uri: &str) -> bool {
        self.skill_mut(label, uri)
            .and_then(|s| s.check.take())
            .is_some()
    }

    pub(super) fn window(&self, label: &str, skill_uri: &str, purpose: Purpose) -> Result<&Window> {
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
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn plan_read_for(
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
    pub(crate) fn read_for(
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
}

pub(super) fn dynamic_limit(uri: &str, total: u64) -> VerifyError {
    VerifyError::new(
        ErrorCode::LimitExceeded,
        format!("the dynamic skill {uri} has retrieved {total} bytes; hosts stop at {MAX_BYTES_PER_SKILL} (16 MiB)"),
    )
    .with_uri(uri)
    .with_values(MAX_BYTES_PER_SKILL.to_string(), total.to_string())
}
