//! `CATALOGS`'s host patterns, and which one a request's `Host` header picks.

/// A host name pattern of `CATALOGS`: an exact name, or `*.suffix` for any subdomain;
/// lowercase, without a final dot.
#[derive(Debug, PartialEq)]
pub(crate) struct HostPattern(String);

impl HostPattern {
    /// Reads a key of `CATALOGS` (any case; a final dot is the same name): a name of
    /// dot-separated labels of letters, digits and hyphens, `*.` and such a name, or an IPv6
    /// literal in brackets. `None` for anything else, a port included: a request's host is
    /// compared without its port, so a pattern with one could never match.
    pub(crate) fn parse(key: &str) -> Option<Self> {
        let host = key.to_ascii_lowercase();
        let host = host.strip_suffix('.').unwrap_or(&host);
        let valid = match host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
            Some(inner) => {
                !inner.is_empty()
                    && inner
                        .bytes()
                        .all(|b| b.is_ascii_hexdigit() || b == b':' || b == b'.')
            }
            None => is_name(host.strip_prefix("*.").unwrap_or(host)),
        };
        valid.then(|| Self(host.to_owned()))
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

/// Whether `name` is dot-separated labels of letters, digits and hyphens, none empty.
fn is_name(name: &str) -> bool {
    !name.is_empty()
        && name.split('.').all(|label| {
            !label.is_empty()
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
}

/// The tenant of the most specific pattern of `hosts` that names the host of a `Host` header
/// (any case, with or without its port and a final dot), so the answer does not depend on the
/// order of `CATALOGS`'s keys; `None` when no pattern names it, or when it is no host name
/// (`a..example`).
pub(crate) fn pick(hosts: &[(HostPattern, usize)], header: &str) -> Option<usize> {
    let name = host_name(header);
    if !name.starts_with('[') && !is_name(&name) {
        return None;
    }
    hosts
        .iter()
        .filter_map(|(p, i)| Some((p.specificity(&name)?, *i)))
        .max_by_key(|(rank, _)| *rank)
        .map(|(_, i)| i)
}

/// The host name of a `Host` header, lowercase, without its port and a final dot (the fully
/// qualified form, `a.example.`, names the same host).
fn host_name(host: &str) -> String {
    let host = host.trim().to_ascii_lowercase();
    if host.starts_with('[') {
        return host
            .split(']')
            .next()
            .map(|h| format!("{h}]"))
            .unwrap_or(host);
    }
    let name = host.split(':').next().unwrap_or_default();
    name.strip_suffix('.').unwrap_or(name).to_owned()
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
    fn keys_are_names_wildcards_or_ipv6_literals_without_a_port() {
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
        ] {
            assert!(HostPattern::parse(bad).is_none(), "{bad:?}");
        }
        assert_eq!(
            HostPattern::parse("A.Example.").unwrap().as_str(),
            "a.example"
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
        for none in [
            "",
            "..b.example",
            "x..b.example",
            "b.example",
            "a.example..",
            "a.example.evil",
            "xa.example",
        ] {
            assert_eq!(pick(&h, none), None, "{none:?}");
        }
    }
}
