//! Pagination (base protocol `pagination.mdx`; open point A16): opaque cursors naming the list,
//! the catalog snapshot and the offset, so a cursor from another list or an earlier catalog is
//! refused with `-32602`, and pages of rendered items.

use super::Responder;
use crate::base64;
use crate::catalog::Grant;
use crate::protocol::envelope::raw_str;
use crate::protocol::{Params, RpcError};
use crate::skill::value::write_json_string;

/// The list a cursor belongs to: its kind, and for directories which one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ListKind {
    Skills,
    Resources,
    Templates,
    /// A directory, by its index in the catalog.
    Directory(u32),
    /// `tools/list` of the fallback (one page).
    Tools,
    /// `prompts/list` of the fallback (one page).
    Prompts,
}

impl ListKind {
    /// (tag, scope) as written into a cursor.
    fn key(self) -> (u8, u32) {
        match self {
            ListKind::Skills => (1, 0),
            ListKind::Resources => (2, 0),
            ListKind::Templates => (4, 0),
            ListKind::Directory(i) => (3, i),
            ListKind::Tools => (5, 0),
            ListKind::Prompts => (6, 0),
        }
    }
}

const CURSOR_VERSION: u8 = 1;

/// The cursors of a catalog with private skills: version 1's fields, then the grant's mask
/// (8 bytes), so a cursor issued to one grant is refused, as belonging to a different list,
/// when another presents it. The offset of a merged list ([`Responder::skill_page_at`]) is the
/// index, in the whole catalog, of the first skill of the next page: no earlier item is
/// scanned to resume.
const GRANT_CURSOR_VERSION: u8 = 2;

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
        let end = (start + self.config.page_size).min(total);
        let next = (end < total).then(|| self.encode_cursor(kind, end, g));
        Ok((start, end, next))
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
        let mut b = [0u8; 22];
        b[0] = CURSOR_VERSION;
        b[1] = tag;
        b[2..6].copy_from_slice(&self.catalog.snapshot().to_le_bytes());
        b[6..10].copy_from_slice(&scope.to_le_bytes());
        b[10..14].copy_from_slice(&(offset as u32).to_le_bytes());
        if !self.catalog.has_private() {
            return base64::encode_url(&b[..14]);
        }
        b[0] = GRANT_CURSOR_VERSION;
        b[14..22].copy_from_slice(&g.mask().to_le_bytes());
        base64::encode_url(&b)
    }

    fn decode_cursor(
        &self,
        cursor: &str,
        kind: ListKind,
        total: usize,
        g: Grant,
    ) -> Result<usize, RpcError> {
        let (tag, scope) = kind.key();
        let bad = |reason| RpcError::InvalidCursor { reason };
        let (version, len) = if self.catalog.has_private() {
            (GRANT_CURSOR_VERSION, 22)
        } else {
            (CURSOR_VERSION, 14)
        };
        let b = base64::decode_url(cursor)
            .filter(|b| b.len() == len && b[0] == version)
            .ok_or(bad("it was not issued by this server"))?;
        let u = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let grant_differs = len == 22 && b.get(14..22) != Some(&g.mask().to_le_bytes()[..]);
        if b[1] != tag || u(6) != scope || grant_differs {
            return Err(bad("it belongs to a different list"));
        }
        if u(2) != self.catalog.snapshot() {
            return Err(bad(
                "the catalog has changed since it was issued; list again from the start",
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
    pub(super) fn list_page<'c>(
        &self,
        params: &Params<'_>,
        modern: bool,
        kind: ListKind,
        field: &str,
        total: usize,
        g: Grant,
        item: impl Fn(usize) -> Option<&'c str>,
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
            b.push_str(json);
        }
        b.push(']');
        push_next(&mut b, next);
        Ok(b)
    }
}

impl Responder {
    /// One page of a list with one item per skill the caller with `g` sees (`skills/list`,
    /// `resources/list`): `"<field>":[items…]` plus `nextCursor` when more follow.
    pub(super) fn skills_page_of<'c>(
        &self,
        params: &Params<'_>,
        modern: bool,
        kind: ListKind,
        field: &str,
        g: Grant,
        item: impl Fn(usize) -> Option<&'c str>,
    ) -> Result<String, RpcError> {
        let start = self.cursor_offset(params, kind, self.catalog.skill_count(), g)?;
        let (skills, next) = self.skill_page_at(start, kind, g);
        let mut b = Self::open(modern, 0);
        b.push('"');
        b.push_str(field);
        b.push_str("\":[");
        for (n, &i) in skills.iter().enumerate() {
            if n > 0 {
                b.push(',');
            }
            b.push_str(item(i).unwrap_or("null"));
        }
        b.push(']');
        push_next(&mut b, next);
        Ok(b)
    }

    /// Where the page of a list of skills that `cursor` names starts (0 without one).
    pub(super) fn skill_cursor(
        &self,
        cursor: Option<&str>,
        kind: ListKind,
        g: Grant,
    ) -> Result<usize, RpcError> {
        match cursor {
            None => Ok(0),
            Some(c) => self.decode_cursor(c, kind, self.catalog.skill_count(), g),
        }
    }

    /// The skills of the page starting at the catalog index `start` for `g`: their indices
    /// and the next page's cursor. Without private skills, the page is the index range. With
    /// them, the merge of the grant's classes' lists from `start` on, `page_size` items and
    /// one more to know whether a next page starts (and where): the cost is the page's, times
    /// the number of classes the grant holds, and the next cursor's offset is the index, in
    /// the whole catalog, of the first skill of the next page, so no earlier item is scanned
    /// to resume.
    pub(super) fn skill_page_at(
        &self,
        start: usize,
        kind: ListKind,
        g: Grant,
    ) -> (Vec<usize>, Option<String>) {
        let c = &*self.catalog;
        if !c.has_private() {
            let total = c.skill_count();
            let end = (start + self.config.page_size).min(total);
            let next = (end < total).then(|| self.encode_cursor(kind, end, g));
            return ((start..end).collect(), next);
        }
        let mut skills = Vec::with_capacity(self.config.page_size);
        let mut next = None;
        for (n, i) in c.visible_skills(g, start).enumerate() {
            if n == self.config.page_size {
                next = Some(self.encode_cursor(kind, i, g));
                break;
            }
            skills.push(i);
        }
        (skills, next)
    }
}

fn push_next(b: &mut String, next: Option<String>) {
    if let Some(c) = next {
        b.push_str(",\"nextCursor\":");
        write_json_string(&c, b);
    }
}
