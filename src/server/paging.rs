//! Pagination (base protocol `pagination.mdx`; open point A16): opaque cursors naming the list,
//! the snapshot of what the caller sees and the offset into what the caller sees, so a cursor
//! from another list or an earlier catalog is refused with `-32602`, and pages of rendered
//! items.
//!
//! **A cursor says nothing about what its caller may not see.** Every field is a function of
//! the caller's own view: the list's kind, for a directory the digest of its URI (never its
//! position among every directory), the snapshot of the caller's view
//! ([`crate::view::Catalog::view_snapshot`]: precomputed per audience class, so it depends
//! only on the classes the caller holds) and the offset into the list the caller sees (never
//! an index in the whole catalog). A presented cursor is checked against the same: its
//! snapshot against the caller's, its offset against the number of items the caller sees.
//! So two catalogs that differ only in what a grant hides issue that grant the same cursors
//! and answer every cursor, forged ones included, with the same bytes.

use super::Responder;
use crate::access::Grant;
use crate::base64;
use crate::compile::{MAX_LIST_PAGES, MAX_PAGE_ITEMS};
use crate::protocol::envelope::raw_str;
use crate::protocol::{Params, RpcError};
use crate::skill::digest::sha256;
use crate::skill::value::write_json_string;

/// The list a cursor belongs to: its kind, and for directories which one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ListKind {
    Skills,
    Resources,
    Templates,
    /// A directory, by [`ListKind::directory`]'s digest of its URI.
    Directory(u32),
    /// `tools/list` of the fallback (one page).
    Tools,
    /// `prompts/list` of the fallback (one page).
    Prompts,
}

impl ListKind {
    /// The list of the directory whose URI is `uri`: named by the first four bytes of the
    /// SHA-256 of the URI, which the request itself names, so nothing about other directories
    /// (their number, their order) enters the cursor.
    pub(super) fn directory(uri: &str) -> ListKind {
        let d = sha256(uri.as_bytes());
        ListKind::Directory(u32::from_le_bytes([d[0], d[1], d[2], d[3]]))
    }

    /// (tag, scope) as written into a cursor.
    fn key(self) -> (u8, u32) {
        match self {
            ListKind::Skills => (1, 0),
            ListKind::Resources => (2, 0),
            ListKind::Templates => (4, 0),
            ListKind::Directory(d) => (3, d),
            ListKind::Tools => (5, 0),
            ListKind::Prompts => (6, 0),
        }
    }
}

/// The cursor's format: 14 bytes, base64url without padding: this version (1 byte), the
/// list's tag (1), the snapshot of the caller's view (4, little-endian), the list's scope
/// (4: a directory's URI digest, else 0) and the offset of the next page's first item in the
/// list the caller sees (4). The same in catalogs with and without private skills. (Version 1
/// carried the catalog-wide snapshot, version 2 also the grant's class mask and, for skill
/// lists, a catalog-wide index: both are refused as not issued by this server.)
const CURSOR_VERSION: u8 = 3;
const CURSOR_LEN: usize = 14;

impl Responder {
    /// Opens a result object: `{"resultType":"complete",` in the modern era, `{` otherwise.
    pub(super) fn open(modern: bool, capacity: usize) -> String {
        let mut b = String::with_capacity(capacity + 256);
        b.push_str(if modern {
            "{\"resultType\":\"complete\","
        } else {
            "{"
        });
        b
    }

    pub(super) fn page(
        &self,
        params: &Params<'_>,
        kind: ListKind,
        total: usize,
        g: Grant,
    ) -> Result<(usize, usize, Option<String>), RpcError> {
        let start = self.cursor_offset(params, kind, total, g)?;
        let end = (start + self.page_size(total)).min(total);
        let next = (end < total).then(|| self.encode_cursor(kind, end, g));
        Ok((start, end, next))
    }

    /// The page size of a list of `total` items the caller sees: the configured
    /// [`Config::page_size`](super::Config::page_size), or more when that would take more than
    /// [`MAX_LIST_PAGES`] pages, `⌈total / 64⌉` (at most [`MAX_PAGE_ITEMS`], which the
    /// compiler's `limit-skills` keeps every list within).
    ///
    /// The spec leaves the page size to the server ("Cursors are opaque strings and the server
    /// sets the page size"); clients do not leave it open: the official
    /// TypeScript SDK 2.4 client (`listMaxPages`, default 64) and MCP Inspector refuse a list
    /// that needs more than 64 pages, so a catalog of 3,201 skills at the default 50 could not
    /// be listed. The rule depends only on the list the caller sees (never on what it may not
    /// see), so two catalogs that differ only in what a grant hides page that grant's lists
    /// alike; and on nothing that changes while a cursor lives (the list's length is part of
    /// the view its snapshot names), so every page of one listing has the same size.
    pub(super) fn page_size(&self, total: usize) -> usize {
        let needed = total.div_ceil(MAX_LIST_PAGES).min(MAX_PAGE_ITEMS);
        self.config.page_size.max(needed)
    }

    /// Where the page a request's cursor names starts (0 without a cursor).
    fn cursor_offset(
        &self,
        params: &Params<'_>,
        kind: ListKind,
        total: usize,
        g: Grant,
    ) -> Result<usize, RpcError> {
        match params.cursor {
            None => Ok(0),
            Some(raw) if raw.get() == "null" => Ok(0),
            Some(raw) => {
                let c = raw_str(raw).ok_or(RpcError::InvalidCursor {
                    reason: "the cursor must be a string",
                })?;
                self.decode_cursor(&c, kind, total, g)
            }
        }
    }

    fn encode_cursor(&self, kind: ListKind, offset: usize, g: Grant) -> String {
        let (tag, scope) = kind.key();
        let mut b = [0u8; CURSOR_LEN];
        b[0] = CURSOR_VERSION;
        b[1] = tag;
        b[2..6].copy_from_slice(&self.catalog.view_snapshot(g).to_le_bytes());
        b[6..10].copy_from_slice(&scope.to_le_bytes());
        b[10..14].copy_from_slice(&(offset as u32).to_le_bytes());
        base64::encode_url(&b)
    }

    /// The offset a presented cursor names in the list of `total` items the caller with `g`
    /// sees. Each refusal depends only on the cursor's bytes and on that view: what the
    /// caller may not see changes neither which cursors are accepted nor the message.
    fn decode_cursor(
        &self,
        cursor: &str,
        kind: ListKind,
        total: usize,
        g: Grant,
    ) -> Result<usize, RpcError> {
        let (tag, scope) = kind.key();
        let bad = |reason| RpcError::InvalidCursor { reason };
        let b = base64::decode_url(cursor)
            .filter(|b| b.len() == CURSOR_LEN && b[0] == CURSOR_VERSION)
            .ok_or(bad("it was not issued by this server"))?;
        let u = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        // Another list, another caller's view and an earlier catalog look alike from here
        // (the snapshot is of the view): one message for all three.
        if b[1] != tag || u(6) != scope || u(2) != self.catalog.view_snapshot(g) {
            return Err(bad(
                "it belongs to a different list, or the catalog has changed since it was issued; list again from the start",
            ));
        }
        let offset = u(10) as usize;
        if offset == 0 || offset >= total {
            return Err(bad("it points outside the list"));
        }
        Ok(offset)
    }

    /// One page of a list: `"<field>":[items…]` plus `nextCursor` when more follow.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn list_page<'c, F: Fragment + 'c>(
        &self,
        params: &Params<'_>,
        modern: bool,
        kind: ListKind,
        field: &str,
        total: usize,
        g: Grant,
        item: impl Fn(usize) -> Option<F>,
    ) -> Result<String, RpcError> {
        let (start, end, next) = self.page(params, kind, total, g)?;
        let mut b = Self::open(modern, 0);
        b.push('"');
        b.push_str(field);
        b.push_str("\":[");
        for (n, json) in (start..end).filter_map(&item).enumerate() {
            if n > 0 {
                b.push(',');
            }
            json.push_to(&mut b)?;
        }
        b.push(']');
        push_next(&mut b, next);
        Ok(b)
    }
}

/// A fragment a list page is made of: stored whole in the pack, or spliced, or the error of
/// a damaged record.
pub(super) trait Fragment {
    /// Appends it to `b`; `Err` when the pack is damaged ([`RpcError::PackFault`]).
    fn push_to(&self, b: &mut String) -> Result<(), RpcError>;
}

impl Fragment for &str {
    fn push_to(&self, b: &mut String) -> Result<(), RpcError> {
        b.push_str(self);
        Ok(())
    }
}

/// A spliced fragment of the pack, with what names it in an error: `what` of `of`.
pub(super) struct Part<'a> {
    pub(super) piece: crate::view::Spliced<'a>,
    pub(super) what: &'static str,
    pub(super) of: &'a str,
}

impl Fragment for Part<'_> {
    fn push_to(&self, b: &mut String) -> Result<(), RpcError> {
        self.piece.push_to(b).map_err(|e| {
            RpcError::PackFault(format!("{} of {}: {}", self.what, self.of, e.reason()))
        })
    }
}

impl<T: Fragment> Fragment for Result<T, RpcError> {
    fn push_to(&self, b: &mut String) -> Result<(), RpcError> {
        match self {
            Ok(t) => t.push_to(b),
            Err(e) => Err(e.clone()),
        }
    }
}

/// The error of a damaged record of the pack.
pub(super) fn pack_fault(e: crate::pack::PackError) -> RpcError {
    RpcError::PackFault(e.reason().to_owned())
}

impl Responder {
    /// One page of a list with one item per skill the caller with `g` sees (`skills/list`,
    /// `resources/list`): `"<field>":[items…]` plus `nextCursor` when more follow.
    pub(super) fn skills_page_of<'c, F: Fragment + 'c>(
        &self,
        params: &Params<'_>,
        modern: bool,
        kind: ListKind,
        field: &str,
        g: Grant,
        item: impl Fn(usize) -> Option<F>,
    ) -> Result<String, RpcError> {
        let total = self.catalog.visible_skill_count(g);
        let start = self.cursor_offset(params, kind, total, g)?;
        let (skills, next) = self.skill_page_at(start, kind, g);
        let mut b = Self::open(modern, 0);
        b.push('"');
        b.push_str(field);
        b.push_str("\":[");
        for (n, &i) in skills.iter().enumerate() {
            if n > 0 {
                b.push(',');
            }
            match item(i) {
                Some(json) => json.push_to(&mut b)?,
                None => b.push_str("null"),
            }
        }
        b.push(']');
        push_next(&mut b, next);
        Ok(b)
    }

    /// Where, in the list of skills the caller with `g` sees, the page `cursor` names
    /// starts (0 without one).
    pub(super) fn skill_cursor(
        &self,
        cursor: Option<&str>,
        kind: ListKind,
        g: Grant,
    ) -> Result<usize, RpcError> {
        match cursor {
            None => Ok(0),
            Some(c) => self.decode_cursor(c, kind, self.catalog.visible_skill_count(g), g),
        }
    }

    /// The skills of the page starting at position `start` of the list the caller with `g`
    /// sees: their indices in the catalog and the next page's cursor. The first is found by
    /// its rank ([`crate::view::Catalog::visible_skill_at`]), then the merge of the
    /// grant's classes' lists gives a page's items ([`Responder::page_size`] of the caller's
    /// list) and one more to know whether a next page starts: the cost is the page's, times
    /// the number of classes the grant holds, plus the rank's binary searches. The next
    /// cursor's offset is `start` plus the page size, a position in the caller's own list.
    pub(super) fn skill_page_at(
        &self,
        start: usize,
        kind: ListKind,
        g: Grant,
    ) -> (Vec<usize>, Option<String>) {
        let c = &*self.catalog;
        let size = self.page_size(c.visible_skill_count(g));
        let Some(first) = c.visible_skill_at(g, start) else {
            return (Vec::new(), None);
        };
        let mut skills = Vec::with_capacity(size);
        let mut more = false;
        for i in c.visible_skills(g, first) {
            if skills.len() == size {
                more = true;
                break;
            }
            skills.push(i);
        }
        let next = more.then(|| self.encode_cursor(kind, start + size, g));
        (skills, next)
    }
}

fn push_next(b: &mut String, next: Option<String>) {
    if let Some(c) = next {
        b.push_str(",\"nextCursor\":");
        write_json_string(&c, b);
    }
}
