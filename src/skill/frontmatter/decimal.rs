//! Decimal text to the nearest `f64`, for the floats of plain scalars.
//!
//! The result is the correctly rounded one (round half to even), as JavaScript's `parseFloat`
//! and Rust's `str::parse::<f64>` give: the tests compare it with the latter. It is written out
//! here because the standard library's parser carries a 10 KB table of powers of five, which
//! the verifier module for web pages would ship for the rare float in a frontmatter; this one
//! takes an exact path for the common short numbers and exact big-integer arithmetic for the
//! rest, where speed does not matter.

use std::cmp::Ordering;

/// Significant digits kept. A halfway point between two adjacent doubles has at most 767
/// significant digits, so with more than that kept, the digits dropped (only whether one of
/// them is not zero) never change the rounding.
const MAX_DIGITS: usize = 800;

/// Exact powers of ten as `f64` (10^22 is the largest that is).
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// Reads `[-+]?[0-9]*(\.[0-9]*)?([eE][-+]?[0-9]+)?` with at least one mantissa digit as the
/// nearest `f64`: infinite beyond the largest double, zero (signed) below half the smallest.
/// `None` for any other text.
pub(super) fn parse_f64(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let mut i = 0;
    let negative = b.first() == Some(&b'-');
    if matches!(b.first(), Some(b'-' | b'+')) {
        i = 1;
    }
    // The value is `digits × 10^exp` (plus a little when `sticky`).
    let mut digits: Vec<u8> = Vec::new();
    let mut sticky = false;
    let mut exp: i64 = 0;
    let (mut seen, mut point) = (false, false);
    while let Some(&c) = b.get(i) {
        match c {
            b'0'..=b'9' => {
                seen = true;
                if point {
                    exp -= 1;
                }
                if digits.len() == MAX_DIGITS {
                    sticky |= c != b'0';
                    exp += 1;
                } else if !(digits.is_empty() && c == b'0') {
                    digits.push(c - b'0');
                }
            }
            b'.' if !point => point = true,
            _ => break,
        }
        i += 1;
    }
    if !seen {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        let minus = b.get(i) == Some(&b'-');
        if matches!(b.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        let start = i;
        let mut e: i64 = 0;
        while let Some(c @ b'0'..=b'9') = b.get(i) {
            e = (e * 10 + i64::from(c - b'0')).min(1 << 40);
            i += 1;
        }
        if i == start {
            return None;
        }
        exp += if minus { -e } else { e };
    }
    if i != b.len() {
        return None;
    }
    let value = nearest(&digits, exp, sticky);
    Some(if negative { -value } else { value })
}

/// The `f64` nearest `digits × 10^exp` (a little more when `sticky`).
fn nearest(digits: &[u8], exp: i64, sticky: bool) -> f64 {
    let n = digits.len() as i64;
    if n == 0 {
        return 0.0;
    }
    // The value lies in [10^(n+exp−1), 10^(n+exp)).
    if n + exp > 310 {
        return f64::INFINITY;
    }
    if n + exp < -330 {
        return 0.0;
    }
    if n <= 15 && !sticky && (-22..=22).contains(&exp) {
        // Both operands are exact, so the one rounding is the division's or product's.
        let w = digits.iter().fold(0u64, |w, &d| w * 10 + u64::from(d)) as f64;
        let p = POW10[exp.unsigned_abs() as usize];
        return if exp < 0 { w / p } else { w * p };
    }
    let mut num = Big::default();
    for &d in digits {
        num.mul_add(10, u32::from(d));
    }
    let mut den = Big::default();
    den.mul_add(1, 1);
    if sticky {
        // Any point strictly between `digits` and `digits + 1` rounds alike: take the middle.
        num.mul_add(2, 1);
        den.mul_add(2, 0);
    }
    let scaled = if exp < 0 { &mut den } else { &mut num };
    for _ in 0..exp.unsigned_abs() {
        scaled.mul_add(10, 0);
    }
    ratio_to_f64(&num, &den)
}

/// The `f64` nearest `num / den` (`num` > 0), rounding half to even.
fn ratio_to_f64(num: &Big, den: &Big) -> f64 {
    // The quotient scaled by 2^−e2 lies in [2^52, 2^54); one step brings it below 2^53.
    let mut e2 = num.bits() as i64 - den.bits() as i64 - 53;
    let mut scaled = scale(num, den, e2);
    if scaled.0.cmp(&scaled.1.shl(53)) != Ordering::Less {
        e2 += 1;
        scaled = scale(num, den, e2);
    }
    if e2 < -1074 {
        // Subnormal: fewer significant bits.
        e2 = -1074;
        scaled = scale(num, den, e2);
    }
    let (mut rem, d) = scaled;
    let mut q: u64 = 0;
    for bit in (0..54).rev() {
        let shifted = d.shl(bit);
        if rem.cmp(&shifted) != Ordering::Less {
            rem.sub(&shifted);
            q |= 1 << bit;
        }
    }
    match rem.shl(1).cmp(&d) {
        Ordering::Greater => q += 1,
        Ordering::Equal => q += q & 1,
        Ordering::Less => {}
    }
    if q == 1 << 53 {
        q >>= 1;
        e2 += 1;
    }
    if e2 > 971 {
        return f64::INFINITY;
    }
    if q < 1 << 52 {
        // Subnormal (e2 is −1074) or zero.
        return f64::from_bits(q);
    }
    f64::from_bits(((e2 + 1075) as u64) << 52 | (q & ((1 << 52) - 1)))
}

/// `(num × 2^−e2, den)` or `(num, den × 2^e2)`: the pair whose quotient is `num / den / 2^e2`.
fn scale(num: &Big, den: &Big, e2: i64) -> (Big, Big) {
    if e2 < 0 {
        (num.shl(e2.unsigned_abs() as usize), den.clone())
    } else {
        (num.clone(), den.shl(e2 as usize))
    }
}

/// A non-negative integer, 32-bit limbs, least significant first, no high zero limbs.
#[derive(Clone, Default)]
struct Big(Vec<u32>);

impl Big {
    /// `self = self × m + a`.
    fn mul_add(&mut self, m: u32, a: u32) {
        let mut carry = u64::from(a);
        for limb in &mut self.0 {
            let v = u64::from(*limb) * u64::from(m) + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    fn bits(&self) -> usize {
        self.0
            .last()
            .map_or(0, |top| self.0.len() * 32 - top.leading_zeros() as usize)
    }

    fn shl(&self, n: usize) -> Big {
        let (limbs, bits) = (n / 32, n % 32);
        let mut out = vec![0u32; limbs];
        let mut carry = 0u32;
        for &limb in &self.0 {
            if bits == 0 {
                out.push(limb);
            } else {
                out.push(limb << bits | carry);
                carry = limb >> (32 - bits);
            }
        }
        if carry > 0 {
            out.push(carry);
        }
        Big(out)
    }

    fn cmp(&self, other: &Big) -> Ordering {
        self.0
            .len()
            .cmp(&other.0.len())
            .then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }

    /// `self −= other`, where `other <= self`.
    fn sub(&mut self, other: &Big) {
        let mut borrow = false;
        for (i, limb) in self.0.iter_mut().enumerate() {
            let o = other.0.get(i).copied().unwrap_or(0);
            let (v, b1) = limb.overflowing_sub(o);
            let (v, b2) = v.overflowing_sub(u32::from(borrow));
            *limb = v;
            borrow = b1 || b2;
        }
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::parse_f64;

    fn check(s: &str) {
        let want: f64 = s.parse().unwrap();
        let got = parse_f64(s).unwrap();
        assert_eq!(got.to_bits(), want.to_bits(), "{s}: {got:e} != {want:e}");
    }

    /// Exact decimal expansion of a finite non-negative double: (digits, exponent).
    fn exact(x: f64) -> (String, i64) {
        let s = format!("{x:.1100e}");
        let (m, e) = s.split_once('e').unwrap();
        let digits: String = m.chars().filter(|c| *c != '.').collect();
        (digits, e.parse::<i64>().unwrap() - 1100)
    }

    /// The exact midpoint of two adjacent positive doubles, as decimal text.
    fn midpoint(x: f64) -> String {
        let y = f64::from_bits(x.to_bits() + 1);
        let ((dx, ex), (dy, ey)) = (exact(x), exact(y));
        let e = ex.min(ey);
        let pad = |d: &str, ed: i64| format!("{d}{}", "0".repeat((ed - e) as usize));
        let (a, b) = (pad(&dx, ex), pad(&dy, ey));
        let width = a.len().max(b.len());
        let (a, b) = (format!("{a:0>width$}"), format!("{b:0>width$}"));
        // (a + b) × 5, then the exponent drops by one: the sum halved.
        let mut sum: Vec<u32> = vec![0; width + 1];
        let mut carry = 0;
        for i in (0..width).rev() {
            let v = u32::from(a.as_bytes()[i] - b'0') + u32::from(b.as_bytes()[i] - b'0') + carry;
            sum[i + 1] = v % 10;
            carry = v / 10;
        }
        sum[0] = carry;
        let mut out: Vec<u32> = vec![0; sum.len() + 1];
        let mut carry = 0;
        for i in (0..sum.len()).rev() {
            let v = sum[i] * 5 + carry;
            out[i + 1] = v % 10;
            carry = v / 10;
        }
        out[0] = carry;
        let text: String = out.iter().map(|d| char::from(b'0' + *d as u8)).collect();
        format!("{text}e{}", e - 1)
    }

    #[test]
    fn known_hard_cases_round_as_the_standard_library_does() {
        for s in [
            "0.0",
            "-0.0",
            "1e3",
            "-1.5e3",
            ".5",
            "5.",
            "0.1",
            "0.3",
            "1e23",
            "8.98846567431158e307",
            "1.7976931348623157e308",
            "1.7976931348623158e308",
            "1.7976931348623159e308",
            "1e308",
            "1e309",
            "-1e400",
            "2.2250738585072011e-308",
            "2.2250738585072012e-308",
            "2.2250738585072014e-308",
            "4.9406564584124654e-324",
            "2.4703282292062327e-324",
            "2.4703282292062328e-324",
            "1e-324",
            "1e-400",
            "-1e-400",
            "9007199254740993",
            "9007199254740992.5",
            "123456789012345678901234567890",
            "0.000000000000000000000001",
            "1E+5",
            "+1.25e-2",
            "00000.00001e00005",
            "1e0000000000000000000000000000",
            "1e-99999999999999999999",
            "1e99999999999999999999",
            "3.14159265358979323846264338",
            "1.00000000000000011102230246251565404236316680908203125",
            "1.00000000000000011102230246251565404236316680908203124",
            "1.00000000000000011102230246251565404236316680908203126",
            "7.3177701707893310e+15",
            "1448997445238699",
            "0.1e-307",
            "100000000000000000000000e-350",
        ] {
            check(s);
        }
        let long = format!("1.{}1e-300", "0".repeat(2000));
        check(&long);
        let long = format!("{}e-1000", "9".repeat(1200));
        check(&long);
    }

    #[test]
    fn midpoints_of_adjacent_doubles_round_half_to_even() {
        let mut bits: u64 = 0x1234_5678_9abc_def1;
        let mut xs = vec![
            0.0,
            f64::MIN_POSITIVE,
            1.0,
            9007199254740992.0,
            f64::MAX / 2.0,
        ];
        xs.push(f64::from_bits(1));
        xs.push(f64::from_bits((1 << 52) - 1));
        for _ in 0..300 {
            bits = bits
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            // Any positive double, and a subnormal or small one.
            xs.push(f64::from_bits(bits >> 1));
            xs.push(f64::from_bits(bits >> 11));
        }
        for x in xs {
            if !x.is_finite() || x.to_bits() + 1 >= f64::INFINITY.to_bits() {
                continue;
            }
            let m = midpoint(x);
            check(&m);
            // Just below and just above the midpoint.
            let (d, e) = m.split_once('e').unwrap();
            check(&format!("{d}1e{}", e.parse::<i64>().unwrap() - 1));
            let below = d.trim_end_matches('0');
            let (head, last) = below.split_at(below.len() - 1);
            let last = last.as_bytes()[0] - b'1';
            let e = e.parse::<i64>().unwrap() + (d.len() - below.len()) as i64;
            check(&format!("{head}{}9999e{}", char::from(b'0' + last), e - 4));
            let (digits, e) = exact(x);
            check(&format!("{digits}e{e}"));
        }
    }

    #[test]
    fn random_texts_round_as_the_standard_library_does() {
        let mut state: u64 = 42;
        let mut next = |n: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % n
        };
        for _ in 0..20_000 {
            let int: String = (0..next(25))
                .map(|_| char::from(b'0' + next(10) as u8))
                .collect();
            let frac: String = (0..next(25))
                .map(|_| char::from(b'0' + next(10) as u8))
                .collect();
            let mut s = match (int.is_empty(), frac.is_empty()) {
                (true, true) => "0".to_string(),
                (_, true) => int,
                _ => format!("{int}.{frac}"),
            };
            if next(2) == 0 {
                s = format!("{s}e{}{}", ["", "-", "+"][next(3) as usize], next(700));
            }
            check(&s);
        }
    }

    #[test]
    fn texts_outside_the_grammar_are_refused() {
        for s in [
            "", "-", ".", "e5", "1e", "1e+", "1..2", "1.2.3", "inf", "nan", "1x", " 1", "1 ",
        ] {
            assert_eq!(parse_f64(s), None, "{s}");
        }
    }
}
