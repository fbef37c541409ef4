//! The requests of a [`SkillsClient`]: fetching with the cache, every page of a listing, `skills/get` and its recovery, loads, reads and directory reads.

use super::*;

impl SkillsClient {
    /// Sends a request, or takes a still-fresh result from the cache (`use_cache`), and hands
    /// the result, read once by the strict reader and checked ([`checked`]), to `read`. A
    /// method the server did not declare is refused first ([`check_declared`]): nothing is
    /// sent, nothing taken from the cache.
    pub(super) async fn fetch<R: Rpc, T>(
        &self,
        rpc: &R,
        method: &str,
        params: Json,
        use_cache: bool,
        read: impl FnOnce(&Fetched, &Node<'_>) -> Result<T>,
    ) -> Result<(Fetched, T)> {
        self.with(|s| check_declared(s.facts.as_ref(), method))??;
        let key = Key::new(method, &params);
        let now = rpc.now_ms();
        let (context, hit) = self.with(|s| {
            let hit = if use_cache {
                s.cache
                    .get(&key, &s.context, now)
                    .map(|(text, until)| (text.clone(), until))
            } else {
                None
            };
            (s.context.clone(), hit)
        })?;
        if let Some((text, until)) = hit {
            let f = Fetched {
                key,
                context,
                text,
                cached_until: Some(until),
            };
            let result = read_result(method, &f.text)?;
            checked(method, &result)?;
            let t = read(&f, &result)?;
            return Ok((f, t));
        }
        rpc.call_read(method, params, |result| {
            checked(method, result)?;
            // The cache keeps the result's text as received.
            let f = Fetched {
                key,
                context,
                text: result.raw.into(),
                cached_until: None,
            };
            let t = read(&f, result)?;
            Ok((f, t))
        })
        .await
    }

    /// Keeps a checked result (with its `hints`) for its TTL.
    pub(super) fn remember(&self, f: &Fetched, hints: Hints, now: f64) -> Result<()> {
        self.with(|s| Self::keep(s, f, hints, now))
    }

    /// [`SkillsClient::remember`] inside a borrow of the state.
    pub(super) fn keep(s: &mut State, f: &Fetched, hints: Hints, now: f64) {
        if f.cached_until.is_none() {
            s.cache
                .store(f.key.clone(), &f.context, f.text.clone(), hints, now);
        }
    }

    /// Drops a result that did not pass its checks.
    pub(super) fn evict(&self, f: &Fetched) -> Result<()> {
        self.with(|s| s.cache.evict(&f.key, &f.context))
    }

    /// Reads every page of a paginated method: each item of `field` on each page, as `item`
    /// reads it while its page is read (a page is read once, and dropped once its items are).
    /// Returns the items, the pages' hints (the smallest `ttlMs`), the number of pages and
    /// when what they say stops being current: the earliest end of a page's `ttlMs`, counted
    /// from when that page was received (for a page from the cache, its expiry there).
    pub(super) async fn pages<R: Rpc, T>(
        &self,
        rpc: &R,
        method: &str,
        base: Json,
        field: &str,
        mut item: impl FnMut(&Node<'_>) -> T,
    ) -> Result<(Vec<T>, Hints, usize, f64)> {
        let mut items: Vec<T> = Vec::new();
        let mut current_until = f64::INFINITY;
        let mut cursor: Option<String> = None;
        let mut seen: BTreeSet<String> = BTreeSet::new();
        let mut hints: Option<Hints> = None;
        let mut pages = 0;
        loop {
            if pages == MAX_PAGES {
                return Err(ClientError::exchange(
                    ExchangeKind::ProtocolError,
                    format!("{method} did not end after {MAX_PAGES} pages"),
                ));
            }
            let mut params = base.clone();
            if let (Some(c), Some(obj)) = (&cursor, params.as_object_mut()) {
                obj.insert("cursor".into(), Json::String(c.clone()));
            }
            let next = self
                .fetch(rpc, method, params, true, |f, result| {
                    self.spend(method, f.text.len() as u64)?;
                    let page = member(result, field)
                        .and_then(Node::as_array)
                        .ok_or_else(|| {
                            ClientError::exchange(
                                ExchangeKind::ProtocolError,
                                format!("a {method} result has no `{field}` array"),
                            )
                        })?;
                    if items.len() + page.len() > MAX_LISTED {
                        return Err(ClientError::exchange(
                            ExchangeKind::ProtocolError,
                            format!("{method} lists more than {MAX_LISTED} items"),
                        ));
                    }
                    pages += 1;
                    let page_hints = Hints::of(result);
                    let h = hints.get_or_insert(page_hints);
                    h.ttl_ms = h.ttl_ms.min(page_hints.ttl_ms);
                    let received = rpc.now_ms();
                    current_until = current_until.min(
                        f.cached_until
                            .unwrap_or(received + page_hints.ttl_ms as f64),
                    );
                    let next = match member(result, "nextCursor") {
                        None => None,
                        Some(c) if c.is_null() => None,
                        Some(c) => match c.as_str() {
                            Some(c) => Some(c.to_owned()),
                            None => {
                                return Err(ClientError::exchange(
                                    ExchangeKind::ProtocolError,
                                    format!(
                                    "a {method} result has a nextCursor that is not a string: {}",
                                    quoted(c)
                                ),
                                ))
                            }
                        },
                    };
                    self.remember(f, page_hints, received)?;
                    items.extend(page.iter().map(&mut item));
                    Ok(next)
                })
                .await?
                .1;
            match next {
                None => break,
                Some(c) => {
                    if !seen.insert(c.clone()) {
                        return Err(ClientError::exchange(
                            ExchangeKind::ProtocolError,
                            format!(
                                "{method} repeated the cursor {c:?}; its pagination does not end"
                            ),
                        ));
                    }
                    cursor = Some(c);
                }
            }
        }
        let hints = hints.unwrap_or(Hints {
            ttl_ms: 0,
            scope: crate::protocol::CacheScope::Private,
        });
        Ok((items, hints, pages, current_until))
    }

    pub(super) fn listed(s: &State, uri: &str) -> Option<ListedSkill> {
        let entry = s.host.entry(&s.label, uri)?.clone();
        let summary = s.host.summary(&s.label, uri)?;
        let (files, bytes) = match entry.items() {
            Some(items) => (
                items.len(),
                items.iter().fold(0u64, |a, i| a.saturating_add(i.size)),
            ),
            None => (0, 0),
        };
        Some(ListedSkill {
            summary,
            entry,
            files,
            bytes,
        })
    }

    /// Every page of `skills/list`, registered in one go (an entry listed twice is rejected
    /// the second time). The entries are current until the earliest end of a page's `ttlMs`,
    /// counted from when the server sent that page: a page served from the cache does not
    /// make them current for longer.
    pub async fn list<R: Rpc>(&self, rpc: &R) -> Result<Listing> {
        self.begin_listing()?;
        // Each entry is read by the registry's reader as its page is read; the listing is
        // registered as a whole once every page is in.
        let (entries, hints, pages, until) = self
            .pages(rpc, "skills/list", json!({}), "skills", Entry::from_node)
            .await?;
        self.with(|s| {
            let outcome = s.host.register_entries(&s.label, entries)?;
            let mut skills = Vec::with_capacity(outcome.registered.len());
            for r in &outcome.registered {
                s.host.set_current_until(&s.label, &r.uri, until);
                if let Some(l) = Self::listed(s, &r.uri) {
                    skills.push(l);
                }
            }
            Ok(Listing {
                skills,
                rejected: outcome.rejected,
                hints,
                pages,
            })
        })?
    }

    /// `skills/get` for `uri`, registered (replacing the entry held for it; an approval whose
    /// files changed is revoked). `uri` must be a `SKILL.md` URI (`check_skill_md_uri`) and
    /// the server must declare the extension (`check_declared`); otherwise nothing is sent.
    pub async fn get<R: Rpc>(&self, rpc: &R, uri: &str) -> Result<FetchedSkill> {
        check_skill_md_uri(uri)?;
        self.get_with(rpc, uri, true).await
    }

    pub(super) async fn get_with<R: Rpc>(
        &self,
        rpc: &R,
        uri: &str,
        use_cache: bool,
    ) -> Result<FetchedSkill> {
        let read = |f: &Fetched, result: &Node<'_>| {
            let now = rpc.now_ms();
            let hints = Hints::of(result);
            self.with(|s| {
                let outcome = match s.host.register_get_node(&s.label, uri, result) {
                    Ok(o) => o,
                    Err(e) => {
                        s.cache.evict(&f.key, &f.context);
                        return Err(e.into());
                    }
                };
                Self::keep(s, f, hints, now);
                let until = f.cached_until.unwrap_or(now + hints.ttl_ms as f64);
                s.host.set_current_until(&s.label, uri, until);
                let skill = Self::listed(s, uri).ok_or_else(|| {
                    ClientError::from(VerifyError::new(
                        ErrorCode::UnknownSkill,
                        format!("{uri} is not registered"),
                    ))
                })?;
                Ok(FetchedSkill {
                    skill,
                    outcome,
                    hints,
                })
            })?
        };
        let (_, fetched) = self
            .fetch(rpc, "skills/get", json!({ "uri": uri }), use_cache, read)
            .await?;
        Ok(fetched)
    }

    /// The recovery fetch of an entry: `skills/get` past the cache. A skill the server says it
    /// no longer serves ([`says_gone`]) is forgotten, and its acting window closes; any other
    /// failure leaves the skill and its window as they were.
    pub(super) async fn refresh<R: Rpc>(&self, rpc: &R, uri: &str) -> Result<FetchedSkill> {
        match self.get_with(rpc, uri, false).await {
            Ok(g) => Ok(g),
            Err(e) => {
                if says_gone(&e) {
                    self.with(|s| {
                        let _ = s.host.forget(&s.label, uri);
                    })?;
                }
                Err(e)
            }
        }
    }

    /// Loads a skill: its entry (fetched with `skills/get` when unknown or no longer current),
    /// the limit, dynamic and approval checks, then its `SKILL.md` fetched and verified
    /// against the entry; on success the acting window opens holding that entry. On a
    /// verification failure the entry is refreshed once and the `SKILL.md` verified again.
    ///
    /// `uri` must be a `SKILL.md` URI (`check_skill_md_uri`): anything else is refused before
    /// anything is sent.
    pub async fn load<R: Rpc>(&self, rpc: &R, uri: &str) -> Result<Loaded> {
        self.load_for(rpc, uri, Purpose::Use).await
    }

    /// [`SkillsClient::load`] for `purpose`: [`Purpose::Check`] loads a skill only to check
    /// it (the `verify` run), so a nested skill needs no consent (`SkillHost::plan_load_for`).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) async fn load_for<R: Rpc>(
        &self,
        rpc: &R,
        uri: &str,
        purpose: Purpose,
    ) -> Result<Loaded> {
        check_skill_md_uri(uri)?;
        let now = rpc.now_ms();
        // The registry says at once whether the held entry is current and what to read.
        let mut plan =
            self.with(|s| s.host.plan_load_current_for(&s.label, uri, now, purpose))??;
        let mut approval_revoked = false;
        // A skill known from a listing (or an earlier get) is loaded from that entry (H6);
        // one known from its URI alone has its enclosing skills looked for first.
        let known = self.with(|s| s.host.entry(&s.label, uri).is_some())?;
        if plan.is_none() {
            approval_revoked |= self.get(rpc, uri).await?.outcome.approval_revoked;
        }
        if purpose == Purpose::Use && !known && self.learn_enclosing(rpc, uri).await? {
            // An enclosing skill is now registered: the plan is made again under it.
            plan = None;
        }
        let mut refreshed = false;
        loop {
            match self
                .load_skill_md(rpc, uri, plan.take(), !refreshed, purpose)
                .await?
            {
                Ok(skill) => {
                    return Ok(Loaded {
                        skill,
                        refreshed,
                        approval_revoked,
                    })
                }
                Err(e) if refreshable(e.code) && !refreshed => {
                    refreshed = true;
                    match self.refresh(rpc, uri).await {
                        Ok(g) => approval_revoked |= g.outcome.approval_revoked,
                        Err(_) => return Err(e),
                    }
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// Before a skill loaded from its URI alone is activated, learns whether it is nested
    /// (H31: "Activating it needs fresh, explicit user consent"), so that it is not
    /// activated as a skill of its own: each enclosing
    /// directory of its root that could be a skill (its last segment a valid skill name) and
    /// is not registered is asked for with `skills/get`, outermost first, until one answers.
    /// An answer that the server serves no such skill (`-32602`, `-32002`) moves on; any
    /// other failure stops the load, since whether the skill is nested is then unknown.
    /// Returns whether an enclosing skill was registered. Nothing is asked when the host lets
    /// nested skills load without their own approval, or the skill is already known to be
    /// nested. At most one request per enclosing directory (the skill path's depth).
    pub(super) async fn learn_enclosing<R: Rpc>(&self, rpc: &R, uri: &str) -> Result<bool> {
        let candidates = self.with(|s| {
            if s.host.options().nested_without_approval
                || s.host.enclosing_skill(&s.label, uri).is_some()
            {
                return Vec::new();
            }
            let Some(root) = s.host.entry(&s.label, uri).map(|e| e.root().to_owned()) else {
                return Vec::new();
            };
            let start = root.find("://").map_or(0, |i| i + 3);
            root.match_indices('/')
                .map(|(i, _)| i)
                .filter(|i| *i > start)
                .map(|i| format!("{}/SKILL.md", &root[..i]))
                .filter(|c| check_skill_md_uri(c).is_ok() && s.host.entry(&s.label, c).is_none())
                .collect()
        })?;
        for candidate in candidates {
            match self.get(rpc, &candidate).await {
                Ok(_) => return Ok(true),
                Err(e) if says_gone(&e) => continue,
                Err(e) => return Err(e),
            }
        }
        Ok(false)
    }

    /// One attempt at loading, with the registry's plan when the caller has it already:
    /// `Ok(Err(e))` is a verification failure of the content, `Err` anything else.
    pub(super) async fn load_skill_md<R: Rpc>(
        &self,
        rpc: &R,
        uri: &str,
        plan: Option<PlannedRead>,
        use_cache: bool,
        purpose: Purpose,
    ) -> Result<Result<LoadedSkill>> {
        let plan = match plan {
            Some(p) => p,
            None => self.with(|s| s.host.plan_load_for(&s.label, uri, purpose))??,
        };
        let (f, (content, hints)) = self
            .fetch(
                rpc,
                "resources/read",
                json!({ "uri": plan.uri }),
                use_cache,
                |f, result| Ok((content_of(f, result, &plan), Hints::of(result))),
            )
            .await?;
        let digest = platform_digest(rpc, &content, &plan).await;
        let loaded = self.with(|s| {
            s.host
                .load_for(&s.label, uri, content, hashing(&digest), purpose)
        })?;
        match loaded {
            Ok(skill) => {
                self.remember(&f, hints, rpc.now_ms())?;
                Ok(Ok(skill))
            }
            Err(e) => {
                self.evict(&f)?;
                Ok(Err(e.into()))
            }
        }
    }

    /// Reads a file of a loaded skill: `reference` (relative to the skill root, or an absolute
    /// URI) must resolve to a file the held entry lists (else `not-in-manifest` or
    /// `escapes-root`, and nothing is fetched); the file is fetched and verified against the
    /// held entry. On a verification failure the entry is refreshed once, the skill loaded
    /// again on it, and the file fetched and verified again.
    pub async fn read<R: Rpc>(
        &self,
        rpc: &R,
        skill_uri: &str,
        reference: &str,
    ) -> Result<ReadOutcome> {
        self.read_for(rpc, skill_uri, reference, Purpose::Use).await
    }

    /// [`SkillsClient::read`] for `purpose`: the skill loaded again after a refresh is loaded
    /// for it ([`SkillsClient::load_for`]).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) async fn read_for<R: Rpc>(
        &self,
        rpc: &R,
        skill_uri: &str,
        reference: &str,
        purpose: Purpose,
    ) -> Result<ReadOutcome> {
        let mut refreshed = false;
        let mut approval_revoked = false;
        loop {
            let plan = self.with(|s| {
                s.host
                    .plan_read_for(&s.label, skill_uri, reference, purpose)
            })??;
            let (f, (content, hints)) = self
                .fetch(
                    rpc,
                    "resources/read",
                    json!({ "uri": plan.uri }),
                    !refreshed,
                    |f, result| Ok((content_of(f, result, &plan), Hints::of(result))),
                )
                .await?;
            let digest = platform_digest(rpc, &content, &plan).await;
            let read = self.with(|s| {
                s.host.read_for(
                    &s.label,
                    skill_uri,
                    &plan.uri,
                    content,
                    hashing(&digest),
                    purpose,
                )
            })?;
            match read {
                Ok(file) => {
                    self.remember(&f, hints, rpc.now_ms())?;
                    return Ok(ReadOutcome {
                        file,
                        refreshed,
                        approval_revoked,
                    });
                }
                Err(e) => {
                    self.evict(&f)?;
                    if !refreshable(e.code) || refreshed {
                        return Err(e.into());
                    }
                    refreshed = true;
                    match self.refresh(rpc, skill_uri).await {
                        Ok(g) => approval_revoked |= g.outcome.approval_revoked,
                        Err(_) => return Err(e.into()),
                    }
                    // The acting window must hold the new entry: load the skill again.
                    self.load_skill_md(rpc, skill_uri, None, false, purpose)
                        .await??;
                }
            }
        }
    }

    /// Every page of `resources/directory/read` for `uri` (a directory: a skill root, a
    /// directory inside one, or a prefix). A child file inside a registered skill is marked
    /// with whether its entry lists it; the listing never extends a manifest (H20).
    pub async fn read_directory<R: Rpc>(&self, rpc: &R, uri: &str) -> Result<Directory> {
        self.begin_listing()?;
        // Each child is read as its page is read; the first item that cannot be read fails the
        // directory once every page is in.
        let (read, hints, pages, _) = self
            .pages(
                rpc,
                "resources/directory/read",
                json!({ "uri": uri }),
                "resources",
                |item| child(uri, item),
            )
            .await?;
        let mut children = read.into_iter().collect::<Result<Vec<_>>>()?;
        self.with(|s| {
            // The files each skill lists, as a set, built once per skill met in this directory.
            let mut listed: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
            for c in children.iter_mut().filter(|c| !c.directory) {
                let Some(entry) = s.host.innermost_entry(&s.label, &c.uri) else {
                    continue;
                };
                let Some(items) = entry.items() else {
                    continue;
                };
                let files = listed
                    .entry(entry.uri())
                    .or_insert_with(|| items.iter().map(|i| i.uri.as_str()).collect());
                c.listed = Some(files.contains(c.uri.as_str()));
            }
        })?;
        Ok(Directory {
            uri: uri.to_owned(),
            children,
            hints,
            pages,
        })
    }
}

/// An item of a `resources/directory/read` page for `uri`, its members as `serde_json` reads
/// them (a repeated key, the last one); `listed` is worked out once every page is in.
fn child(uri: &str, item: &Node<'_>) -> Result<DirectoryChild> {
    let text = |key: &str| member(item, key).and_then(Node::as_str).map(str::to_owned);
    let child_uri = text("uri").ok_or_else(|| {
        ClientError::exchange(
            ExchangeKind::ProtocolError,
            format!("an item of resources/directory/read for {uri} has no string `uri`"),
        )
    })?;
    let mime_type = text("mimeType");
    let directory = mime_type.as_deref() == Some("inode/directory");
    Ok(DirectoryChild {
        uri: child_uri,
        name: text("name"),
        size: member(item, "size").and_then(Node::as_u64),
        directory,
        listed: None,
        mime_type,
    })
}

/// Checks that a result is a complete result object (`protocol-error` otherwise).
fn checked(method: &str, result: &Node<'_>) -> Result<()> {
    if result.as_object().is_none() {
        return Err(ClientError::exchange(
            ExchangeKind::ProtocolError,
            format!("the result of {method} is not an object"),
        ));
    }
    match member(result, "resultType") {
        None => Ok(()),
        Some(t) if t.as_str() == Some("complete") => Ok(()),
        Some(other) => {
            let other = quoted(other);
            Err(ClientError::exchange(ExchangeKind::ProtocolError,
                format!("the result of {method} has resultType {other}; this client takes complete results only"),
            )
            .with_values("complete", other))
        }
    }
}
