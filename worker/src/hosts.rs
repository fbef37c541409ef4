//! `CATALOGS`'s host patterns, and which one a request's `Host` header picks.

/// A host name pattern of `CATALOGS`: an exact name, or `*.suffix` for any subdomain;
/// lowercase, without a final dot, an IPv6 address in its canonical form.
#[derive(Debug, PartialEq)]
pub(crate) struct HostPattern(String);

impl HostPattern {
    /// Reads a key of `CATALOGS` (any case; a final dot is the same name): a name of
    /// dot-separated labels of letters, digits and hyphens, `*.` and such a name, or an IPv6
    /// address in brackets. `None` for anything else, a port included: a request's host is
    /// compared without its port, so a pattern with one could never match.
    pub(crate) fn parse(key: &str) -> Option<Self> {
        let host = key.to_ascii_lowercase();
        let host = host.strip_suffix('.').unwrap_or(&host);
        if let Some(inner) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
            return ipv6(inner).map(Self);
        }
        is_name(host.strip_prefix("*.").unwrap_or(host)).then(|| Self(host.to_owned()))
    }

    /// The pattern as `CATALOGS` gives it (lowercase, without a final dot).
    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }

    /// How well the pattern names `host` (a name `host_name` made): `None` when it does not;
    /// an exact name beats every `*.suffix`, and a longer suffix a shorter one.
    fn specificity(&self, host: &str) -> Option<usize> {
        match self.0.strip_prefix('*') {
            Some(suffix) => {
                (host.len() > suffix.len() && host.ends_with(suffix)).then_some(suffix.len())
            }
            None => (self.0 == host).then_some(usize::MAX),
        }
    }
}

/// Whether `name` is dot-separated labels of 1 to 63 letters, digits and hyphens, at most 253
/// bytes in all (RFC 1035's limits).
fn is_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 253
        && name.split('.').all(|label| {
            (1..=63).contains(&label.len())
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
}

/// `[address]` in the canonical form of the IPv6 address `inner` (RFC 5952: `[0:0::1]` is
/// `[::1]`), so two spellings of one address are one host; `None` when it is not one.
fn ipv6(inner: &str) -> Option<String> {
    inner
        .parse::<std::net::Ipv6Addr>()
        .ok()
        .map(|a| format!("[{a}]"))
}

/// The tenant of the most specific pattern of `hosts` that names the host of a `Host` header
/// (any case, with or without its port and a final dot), so the answer does not depend on the
/// order of `CATALOGS`'s keys; `None` when no pattern names it, or when it is neither a host
/// name nor an IPv6 address (`a..example`, `[abc]`).
pub(crate) fn pick(hosts: &[(HostPattern, usize)], header: &str) -> Option<usize> {
    let name = host_name(header)?;
    hosts
        .iter()
        .filter_map(|(p, i)| Some((p.specificity(&name)?, *i)))
        .max_by_key(|(rank, _)| *rank)
        .map(|(_, i)| i)
}

/// The host of a `Host` header as patterns are written: lowercase, without its port and a
/// final dot, an IPv6 address in its canonical form; `None` when it is neither a host name nor
/// an IPv6 address.
fn host_name(host: &str) -> Option<String> {
    let host = host.trim().to_ascii_lowercase();
    if let Some(rest) = host.strip_prefix('[') {
        // `[address]`, then nothing or a port.
        let (inner, after) = rest.split_once(']')?;
        return ipv6(inner).filter(|_| after.is_empty() || after.starts_with(':'));
    }
    let name = host.split(':').next().unwrap_or_default();
    let name = name.strip_suffix('.').unwrap_or(name);
    is_name(name).then(|| name.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hosts(keys: &[&str]) -> Vec<(HostPattern, usize)> {
        keys.iter()
            .enumerate()
            .map(|(i, k)| (HostPattern::parse(k).expect(k), i))
            .collect()
    }

    #[test]
    fn keys_are_names_wildcards_or_ipv6_addresses_without_a_port() {
        for ok in [
            "a.example",
            "A.Example.",
            "*.b.example",
            "x-1.b",
            "[::1]",
            "localhost",
        ] {
            assert!(HostPattern::parse(ok).is_some(), "{ok}");
        }
        let long = format!("{}.example", "a".repeat(64));
        for bad in [
            "",
            ".",
            "a.example:8787",
            "a..example",
            ".a.example",
            "*.",
            "*",
            "a.*.example",
            "*.*.example",
            "a_b.example",
            "[]",
            "[::1]:80",
            "a example",
            "é.example",
            "[abc]",
            "[:]",
            "[...]",
            "::1",
            &long,
        ] {
            assert!(HostPattern::parse(bad).is_none(), "{bad:?}");
        }
        let named = |k: &str| HostPattern::parse(k).map(|p| p.as_str().to_owned());
        assert_eq!(named("A.Example.").as_deref(), Some("a.example"));
        // Two spellings of one IPv6 address are one pattern.
        assert_eq!(named("[0:0::1]"), named("[::1]"));
        assert_eq!(
            named("[::FFFF:1.2.3.4]").as_deref(),
            Some("[::ffff:1.2.3.4]")
        );
    }

    #[test]
    fn the_most_specific_pattern_wins_whatever_the_order() {
        for keys in [
            ["*.b.example", "x.b.example", "*.example"],
            ["x.b.example", "*.example", "*.b.example"],
        ] {
            let h = hosts(&keys);
            let tenant = |k: &str| h.iter().find(|(p, _)| p.as_str() == k).map(|(_, i)| *i);
            assert_eq!(pick(&h, "x.b.example"), tenant("x.b.example"));
            assert_eq!(pick(&h, "y.b.example"), tenant("*.b.example"));
            assert_eq!(pick(&h, "b.example"), tenant("*.example"));
            assert_eq!(
                pick(&h, "example"),
                None,
                "a wildcard needs a label before its suffix"
            );
        }
    }

    #[test]
    fn a_header_is_read_without_case_port_and_final_dot_and_a_non_name_is_none() {
        let h = hosts(&["a.example", "*.b.example", "[::1]"]);
        for same in [
            "a.example",
            "A.EXAMPLE",
            "a.example:8787",
            "a.example.",
            "a.example.:1",
            " a.example ",
        ] {
            assert_eq!(pick(&h, same), Some(0), "{same:?}");
        }
        assert_eq!(pick(&h, "x.B.example."), Some(1));
        assert_eq!(pick(&h, "[::1]:8787"), Some(2));
        assert_eq!(pick(&h, "[0:0:0:0:0:0:0:1]"), Some(2), "the same address");
        for none in [
            "",
            "..b.example",
            "x..b.example",
            "b.example",
            "a.example..",
            "a.example.evil",
            "xa.example",
            "[abc]",
            "[::1",
            "[::1]x",
            "[::2]",
        ] {
            assert_eq!(pick(&h, none), None, "{none:?}");
        }
    }
}
