//! The checks of what a range of a pack holds (bounds, UTF-8, JSON, digests) and of table
//! order, shared by the reader of the tables and the readers of the sections.

use super::format::*;
use super::record::{record_len, Record, Table};
use super::splice::{expanded_len, pieces, PIECE_LEN};
use super::PackError;
use crate::skill::digest::is_wire_digest;

/// A pack and where its heap starts, with the checks of what a range holds; each error names
/// the record.
#[derive(Clone, Copy)]
pub(super) struct HeapCheck<'a> {
    /// The whole pack.
    pub(super) pack: &'a [u8],
    /// Offset of the heap in the pack.
    pub(super) start: usize,
    /// How many more bytes the spliced texts of the pack may stand for
    /// ([`expansion_budget`]): what keeps the full check linear in the pack.
    pub(super) budget: &'a std::cell::Cell<u64>,
}

/// The most bytes the spliced texts of a pack of `len` bytes may stand for, all together: far
/// above what the writer makes (each stored byte is in a few fragments at most), so that a
/// hostile pack whose pieces name the same bytes over and over is refused instead of read in
/// time quadratic in its size.
pub(super) fn expansion_budget(len: usize) -> u64 {
    (len as u64).saturating_mul(16).saturating_add(1 << 20)
}

impl<'a> HeapCheck<'a> {
    /// The heap.
    pub(super) fn heap(&self) -> &'a [u8] {
        self.pack.get(self.start..).unwrap_or(&[])
    }

    /// The bytes of `s`, inside the heap.
    pub(super) fn bytes(&self, s: Span, what: &str) -> Result<&'a [u8], PackError> {
        let heap = self.pack.get(self.start..).unwrap_or(&[]);
        let start = s.off as usize;
        start
            .checked_add(s.len as usize)
            .and_then(|end| heap.get(start..end))
            .ok_or_else(|| PackError::inconsistent(format!("{what} lies outside the heap")))
    }

    /// The table of `R` records a section's payload `s` holds, read in place: `n` of them
    /// (`None`: any number).
    pub(super) fn table<R: Record>(
        &self,
        s: Span,
        n: Option<usize>,
        what: &str,
    ) -> Result<Table<R>, PackError> {
        let payload = self.bytes(s, &format!("the {what} table"))?;
        let rec = record_len::<R>();
        let count = payload.len() / rec;
        if !payload.len().is_multiple_of(rec) || n.is_some_and(|n| n != count) {
            return Err(PackError::inconsistent(format!(
                "the {what} table is {} bytes, not {} records of {rec}",
                payload.len(),
                n.map_or_else(|| "whole".to_owned(), |n| n.to_string())
            )));
        }
        Ok(Table::new(self.start + s.off as usize, count))
    }

    /// The one record a section's payload `s` holds.
    pub(super) fn one<R: Record>(&self, s: Span, what: &str) -> Result<R, PackError> {
        let t: Table<R> = self.table(s, Some(1), what)?;
        t.get(self.pack, 0)
            .ok_or_else(|| PackError::inconsistent(format!("the {what} table is not one record")))
    }

    /// The text the spliced text `s` stands for ([`super::splice`]): a list of whole pieces in
    /// the heap, each piece inside the heap and UTF-8, within the pack's expansion budget.
    pub(super) fn spliced(&self, s: Span, what: &str) -> Result<String, PackError> {
        let list = self.bytes(s, what)?;
        if !list.len().is_multiple_of(PIECE_LEN) {
            return Err(PackError::inconsistent(format!(
                "{what} is {} bytes, not a list of pieces of {PIECE_LEN}",
                list.len()
            )));
        }
        let total = expanded_len(list);
        let left = self.budget.get();
        if total > left {
            return Err(PackError::inconsistent(format!(
                "{what} stands for more bytes than a pack of this size holds"
            )));
        }
        self.budget.set(left - total);
        let mut out = String::with_capacity(total as usize);
        for p in pieces(list) {
            out.push_str(self.text(p, what)?);
        }
        Ok(out)
    }

    /// The text of `s`: UTF-8.
    pub(super) fn text(&self, s: Span, what: &str) -> Result<&'a str, PackError> {
        std::str::from_utf8(self.bytes(s, what)?)
            .map_err(|_| PackError::inconsistent(format!("{what} is not UTF-8")))
    }

    /// `s` holds one JSON value that the project's strict reader accepts (every string
    /// decoded, so a fragment strict JSON readers refuse, such as a lone surrogate escape
    /// `"\ud800"`, is refused here instead of making every reply that embeds it unreadable).
    pub(super) fn json(&self, s: Span, what: &str) -> Result<(), PackError> {
        strict_json(self.text(s, what)?, what)
    }

    /// `s` holds one JSON value that starts with `open` (`[`, `{` or `"`).
    pub(super) fn json_kind(&self, s: Span, what: &str, open: u8) -> Result<(), PackError> {
        let t = self.text(s, what)?;
        if t.as_bytes().first() != Some(&open) {
            let kind = match open {
                b'[' => "array",
                b'{' => "object",
                _ => "string",
            };
            return Err(PackError::inconsistent(format!(
                "{what} is not a JSON {kind}"
            )));
        }
        strict_json(t, what)
    }

    /// `s` holds `sha256:` and 64 lowercase hex digits.
    pub(super) fn digest(&self, s: Span, what: &str) -> Result<(), PackError> {
        if is_wire_digest(self.text(s, what)?) {
            Ok(())
        } else {
            Err(PackError::inconsistent(format!(
                "{what} is not a sha256 digest"
            )))
        }
    }
}

/// `text` is one JSON value the project's strict reader ([`crate::json`]) accepts.
pub(super) fn strict_json(text: &str, what: &str) -> Result<(), PackError> {
    crate::json::parse(text)
        .map(|_| ())
        .map_err(|e| PackError::inconsistent(format!("{what} is not valid JSON: {e}")))
}

/// Whether `next` comes after `prev` (a table sorted by `what`, each key once).
pub(super) fn sorted<'a>(
    prev: &mut Option<&'a str>,
    next: &'a str,
    what: &str,
) -> Result<(), PackError> {
    if prev.is_some_and(|p| p >= next) {
        return Err(PackError::inconsistent(format!(
            "{what} are not sorted at {next}"
        )));
    }
    *prev = Some(next);
    Ok(())
}
