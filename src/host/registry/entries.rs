//! Registering entries: one entry, a listing, a `skills/get` result; forgetting one.

use super::*;
use std::collections::btree_map;

impl SkillHost {
    /// Registers (or replaces) the entry of a skill of server `label`, after checking its
    /// signature under the signer policy and the pins of the server's origin
    /// (`Signers::check_entry`): [`ErrorCode::SignatureInvalid`],
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
    pub(super) fn register_signed(
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
        // One search of the server's skills, whether the skill is new or registered again.
        let (added, changed) = match server.skills.entry(uri.clone()) {
            btree_map::Entry::Occupied(mut held) => {
                let skill = held.get_mut();
                let changed = !skill.entry.same_file_set(&entry);
                skill.entry = entry;
                skill.current_until = None;
                skill.signer = signer;
                (false, changed)
            }
            btree_map::Entry::Vacant(slot) => {
                slot.insert(Box::new(Skill {
                    entry,
                    current_until: None,
                    signer,
                    window: None,
                    check: None,
                }));
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
        let doc = json::parse(json).map_err(|e| {
            VerifyError::new(
                ErrorCode::InvalidArgument,
                format!("the listing cannot be read: {e}"),
            )
        })?;
        let entries = listing_entries(&doc)?.iter().map(Entry::from_node).collect();
        self.register_entries(label, entries)
    }

    /// [`SkillHost::register_listing`] for entries already read, in listing order (each
    /// item of the listing as [`Entry::from_node`] read it, or why it could not be), so a
    /// caller that has read a listing's pages never writes their items back to text or reads
    /// them again. An entry whose signature the policy refuses is reported as rejected with
    /// that code ([`SkillHost::register`]).
    ///
    /// When the server's origin has no pin yet and would be pinned (trust on first use, or a
    /// change accepted), the first signed entry of the listing whose signature holds pins it
    /// before any other is registered, so a listing is judged as a whole whatever its order: an
    /// unsigned skill listed before it is refused as it would be in the next listing.
    pub(crate) fn register_entries(
        &mut self,
        label: &str,
        entries: Vec<Result<Entry>>,
    ) -> Result<ListingOutcome> {
        let origin = self.server(label)?.origin.clone();
        let first_use = self.pin_from_listing(&origin, &entries);
        let mut out = ListingOutcome::default();
        let mut seen: Map<usize> = Map::new();
        for (index, read) in entries.into_iter().enumerate() {
            match read {
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
    pub(super) fn pin_from_listing(
        &mut self,
        origin: &str,
        entries: &[Result<Entry>],
    ) -> Option<(usize, Signer)> {
        if !self.signers.would_pin(origin) {
            return None;
        }
        for (index, read) in entries.iter().enumerate() {
            let Ok(entry) = read else {
                continue;
            };
            if entry.signature().is_none() {
                continue;
            }
            if let Ok(Some(signer)) = self.signers.check_entry(origin, entry) {
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
        // An unknown server is named before an unreadable result.
        self.server(label)?;
        let doc = json::parse(json).map_err(|e| unreadable_get(requested_uri, e.to_string()))?;
        self.register_get_node(label, requested_uri, &doc)
    }

    /// [`SkillHost::register_get_result`] for a result already read with the strict JSON
    /// reader (the client's one reading of the reply).
    pub(crate) fn register_get_node(
        &mut self,
        label: &str,
        requested_uri: &str,
        doc: &json::Node<'_>,
    ) -> Result<RegisterOutcome> {
        self.server(label)?;
        let invalid =
            |m: String| VerifyError::new(ErrorCode::InvalidEntry, m).with_uri(requested_uri);
        let read = |m: String| unreadable_get(requested_uri, m);
        if doc.as_object().is_none() {
            return Err(read(format!("it is {}, not an object", doc.a_type())));
        }
        if let Some(t) = doc.opt_str("resultType").map_err(|e| read(e.into()))?
            && t != "complete"
        {
            let mut m = String::from("the skills/get result is not complete (resultType ");
            write_json_string(t, &mut m);
            m.push(')');
            return Err(invalid(m).with_values("complete", t));
        }
        let raw = doc
            .field("skill")
            .map_err(|e| read(e.into()))?
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
}

/// The refusal of a `skills/get` result for `requested_uri` that cannot be read, and why.
fn unreadable_get(requested_uri: &str, why: String) -> VerifyError {
    VerifyError::new(
        ErrorCode::InvalidEntry,
        format!("the skills/get result cannot be read: {why}"),
    )
    .with_uri(requested_uri)
}

/// The entries of a listing: a JSON array, or an object with a `skills` array and a
/// `resultType` that is absent or `"complete"`.
fn listing_entries<'n, 'a>(doc: &'n json::Node<'a>) -> Result<&'n [json::Node<'a>]> {
    let bad = |m: String| VerifyError::new(ErrorCode::InvalidArgument, m);
    if let Some(items) = doc.as_array() {
        return Ok(items);
    }
    let shape = |m: String| {
        bad(format!("a listing is a skills/list result or an array of entries; this one cannot be read: {m}"))
    };
    if doc.as_object().is_none() {
        return Err(shape(format!("it is {}", doc.a_type())));
    }
    if let Some(t) = doc.opt_str("resultType").map_err(|e| shape(e.into()))?
        && t != "complete"
    {
        let mut m = String::from("the skills/list result is not complete (resultType ");
        write_json_string(t, &mut m);
        m.push(')');
        return Err(bad(m));
    }
    let skills = doc.opt_array("skills").map_err(|e| shape(e.into()))?;
    skills.ok_or_else(|| bad("the skills/list result has no `skills` array".into()))
}
