//! The search section's compact codes: LEB128 varints (the dictionaries), Rice codes of
//! skill gaps and a short prefix code of a posting's field counts (the postings), and
//! fixed-width bit fields (the field lengths). Bits are read and written least significant
//! first. Every reader is bounded by the range it is given and returns `None` past it, so a
//! damaged section ends a read, never a panic, and each read step consumes at least one bit.

/// A bit writer.
#[derive(Default)]
pub(crate) struct BitWriter {
    pub(crate) bytes: Vec<u8>,
    pub(crate) bits: u64,
}

impl BitWriter {
    pub(crate) fn bit(&mut self, one: bool) {
        if self.bits.is_multiple_of(8) {
            self.bytes.push(0);
        }
        if one && let Some(last) = self.bytes.last_mut() {
            *last |= 1 << (self.bits % 8);
        }
        self.bits += 1;
    }

    /// The low `n` bits of `v`.
    pub(crate) fn fixed(&mut self, v: u32, n: u32) {
        (0..n).for_each(|j| self.bit(v >> j & 1 == 1));
    }

    /// `v` in unary: `v` zeros, then a one.
    pub(crate) fn unary(&mut self, v: u32) {
        (0..v).for_each(|_| self.bit(false));
        self.bit(true);
    }

    /// `v` Rice-coded with parameter `k`: `v >> k` in unary, then the low `k` bits.
    pub(crate) fn rice(&mut self, v: u32, k: u32) {
        self.unary(v >> k);
        self.fixed(v, k);
    }
}

/// A bit reader over `[pos, end)` bits of `b`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bits<'a> {
    b: &'a [u8],
    pub(crate) pos: u64,
    pub(crate) end: u64,
}

impl<'a> Bits<'a> {
    pub(crate) fn new(b: &'a [u8], pos: u64, end: u64) -> Bits<'a> {
        Bits {
            b,
            pos,
            end: end.min(b.len() as u64 * 8),
        }
    }

    /// The next bits from `pos` (at least 56 of them, zeros past the bytes), not consumed.
    #[inline(always)]
    pub(crate) fn window(&self) -> u64 {
        let at = usize::try_from(self.pos / 8).unwrap_or(usize::MAX);
        if let Some(w) = self.b.get(at..at.saturating_add(8))
            && let Ok(w) = <[u8; 8]>::try_from(w)
        {
            return u64::from_le_bytes(w) >> (self.pos % 8);
        }
        let mut w = [0u8; 8];
        if let Some(rest) = self.b.get(at..) {
            let n = rest.len().min(8);
            w[..n].copy_from_slice(&rest[..n]);
        }
        u64::from_le_bytes(w) >> (self.pos % 8)
    }

    /// `n` bits (at most 32) as a number, the first the lowest.
    pub(crate) fn fixed(&mut self, n: u32) -> Option<u32> {
        let n = n.min(32);
        if self.end.saturating_sub(self.pos) < u64::from(n) {
            return None;
        }
        let v = self.window() & ((1u64 << n) - 1);
        self.pos += u64::from(n);
        u32::try_from(v).ok()
    }

    /// A unary number at most `max`.
    pub(crate) fn unary(&mut self, max: u32) -> Option<u32> {
        let mut v = 0u64;
        loop {
            let left = self.end.saturating_sub(self.pos).min(56);
            if left == 0 {
                return None;
            }
            let zeros = u64::from(self.window().trailing_zeros()).min(left);
            v += zeros;
            if v > u64::from(max) {
                return None;
            }
            if zeros < left {
                self.pos += zeros + 1;
                return u32::try_from(v).ok();
            }
            self.pos += zeros;
        }
    }

    /// A Rice-coded number with parameter `k` (at most 31), within `u32`.
    pub(crate) fn rice(&mut self, k: u32) -> Option<u32> {
        let q = self.unary(u32::MAX >> k)?;
        Some(q << k | self.fixed(k)?)
    }
}

/// The Rice parameter of a list of `count` sorted skills among `skills`: about the
/// logarithm of the mean gap.
pub(crate) fn rice_k(skills: usize, count: usize) -> u32 {
    (skills / count.max(1)).max(1).ilog2().min(31)
}

/// A posting's field counts (fields name, description, tags, headings), bits in order of
/// writing: `0` for a count of one in the description alone, `10`, `110` and `1110` for a
/// count of one in the name, the tags or the headings alone, else `1111` then each field's
/// count in unary.
pub(crate) fn put_counts(w: &mut BitWriter, counts: [u8; 4]) {
    let single = |f: usize| (0..4).all(|j| counts[j] == u8::from(j == f));
    if single(1) {
        w.bit(false);
    } else if single(0) {
        w.fixed(0b01, 2);
    } else if single(2) {
        w.fixed(0b011, 3);
    } else if single(3) {
        w.fixed(0b0111, 4);
    } else {
        w.fixed(0b1111, 4);
        counts.iter().for_each(|&c| w.unary(u32::from(c)));
    }
}

/// Reads what [`put_counts`] wrote; `None` past the range or for a count above 255.
pub(crate) fn counts(r: &mut Bits<'_>) -> Option<[u8; 4]> {
    let one = |f: usize| {
        let mut c = [0u8; 4];
        c[f] = 1;
        Some(c)
    };
    // The code's leading ones (at most 4), read in one step.
    let left = r.end.saturating_sub(r.pos).min(4) as u32;
    let ones = (!r.window() & ((1 << left) - 1) | 1 << left).trailing_zeros();
    r.pos += u64::from(ones.min(3)) + 1;
    if ones >= left && left < 4 {
        // The range ends inside the code.
        return None;
    }
    match ones {
        0 => return one(1),
        1 => return one(0),
        2 => return one(2),
        3 => return one(3),
        _ => {}
    }
    let mut c = [0u8; 4];
    for slot in &mut c {
        *slot = u8::try_from(r.unary(255)?).ok()?;
    }
    Some(c)
}

/// Appends `v` as a LEB128 varint.
pub(crate) fn put_varint(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// A LEB128 varint at `*at` of `b` (at most 5 bytes, within `u32`), `*at` moved past it.
pub(crate) fn varint(b: &[u8], at: &mut usize) -> Option<u32> {
    let mut v = 0u64;
    for j in 0..5 {
        let byte = *b.get(*at)?;
        *at += 1;
        v |= u64::from(byte & 0x7f) << (7 * j);
        if byte & 0x80 == 0 {
            return u32::try_from(v).ok();
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_reads_back_what_was_written() {
        let mut w = BitWriter::default();
        let counts_list = [
            [0, 1, 0, 0],
            [1, 0, 0, 0],
            [0, 0, 1, 0],
            [0, 0, 0, 1],
            [2, 0, 255, 1],
        ];
        for c in counts_list {
            w.rice(1000, 3);
            w.unary(130);
            put_counts(&mut w, c);
            w.fixed(0x1234, 16);
        }
        let mut r = Bits::new(&w.bytes, 0, w.bits);
        for c in counts_list {
            assert_eq!(r.rice(3), Some(1000));
            assert_eq!(r.clone().unary(129), None);
            assert_eq!(r.unary(130), Some(130));
            assert_eq!(counts(&mut r), Some(c));
            assert_eq!(r.fixed(16), Some(0x1234));
        }
        assert_eq!(r.fixed(1), None);
        let mut v = Vec::new();
        for x in [0, 127, 128, 300, u32::MAX] {
            put_varint(&mut v, x);
        }
        let mut at = 0;
        for x in [0, 127, 128, 300, u32::MAX] {
            assert_eq!(varint(&v, &mut at), Some(x));
        }
        assert_eq!(varint(&[0xff; 6], &mut 0), None);
    }
}
