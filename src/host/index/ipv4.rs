//! The WHATWG URL standard's IPv4 host parser (URL Standard, "host parsing": the
//! ends-in-a-number checker and the IPv4 parser), so that an origin whose host is an IPv4
//! address in another spelling (`127.1`, `0x7f.0.0.1`, `2130706433`, `127.000.000.001`) is
//! kept as `new URL(u).origin` keeps it: dotted decimal.

/// What the IPv4 parser makes of a host (lowercase ASCII, as a special URL's host is after
/// domain-to-ASCII): `Ok(None)` when the host does not end in a number (a domain, kept as
/// written), `Ok(Some(dotted))` for an IPv4 address, `Err(())` when it ends in a number but
/// is no IPv4 address (the standard's failure: such a URL is invalid).
pub(super) fn parse(host: &str) -> Result<Option<String>, ()> {
    if !ends_in_a_number(host) {
        return Ok(None);
    }
    let mut parts: Vec<&str> = host.split('.').collect();
    if parts.len() > 1 && parts.last() == Some(&"") {
        parts.pop();
    }
    if parts.len() > 4 {
        return Err(());
    }
    let numbers = parts
        .iter()
        .map(|p| number(p))
        .collect::<Result<Vec<u64>, ()>>()?;
    let (last, first) = numbers.split_last().ok_or(())?;
    if first.iter().any(|n| *n > 255) || *last >= 256u64.pow(5 - numbers.len() as u32) {
        return Err(());
    }
    let mut ipv4 = *last;
    for (i, n) in first.iter().enumerate() {
        ipv4 += n << (8 * (3 - i));
    }
    let b = (ipv4 as u32).to_be_bytes();
    Ok(Some(format!("{}.{}.{}.{}", b[0], b[1], b[2], b[3])))
}

/// The standard's "ends in a number checker".
fn ends_in_a_number(host: &str) -> bool {
    let mut parts: Vec<&str> = host.split('.').collect();
    if parts.last() == Some(&"") {
        if parts.len() == 1 {
            return false;
        }
        parts.pop();
    }
    let last = parts.last().copied().unwrap_or_default();
    (!last.is_empty() && last.bytes().all(|b| b.is_ascii_digit())) || number(last).is_ok()
}

/// The standard's "IPv4 number parser": decimal, `0x` hexadecimal or `0` octal. A value past
/// `u64` is refused (any past 2^32 fails the address anyway).
fn number(part: &str) -> Result<u64, ()> {
    if part.is_empty() {
        return Err(());
    }
    let (digits, radix) = if part.len() >= 2 && (part.starts_with("0x") || part.starts_with("0X")) {
        (&part[2..], 16)
    } else if part.len() >= 2 && part.starts_with('0') {
        (&part[1..], 8)
    } else {
        (part, 10)
    };
    if digits.is_empty() {
        return Ok(0);
    }
    digits.chars().try_fold(0u64, |acc, c| {
        let d = c.to_digit(radix).ok_or(())?;
        acc.checked_mul(radix as u64)
            .and_then(|a| a.checked_add(d as u64))
            .ok_or(())
    })
}
