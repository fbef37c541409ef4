//! The origin of a URL (`skills_edge::client::server_label_of_url`, and `canonical_origin`,
//! the one spelling signer pins, approvals and labels keep an origin in), on any text, with
//! the URL standard's IPv4 host parser inside it.
//!
//! Properties: no panic; an origin is a fixed point (its own origin, and its own canonical
//! spelling); it is `http` or `https`, lowercase, without path, query, fragment or user
//! information; a host made of digits and dots only, not ending in a dot, is four decimal
//! numbers of 0 to 255 without leading zeros (the standard's serialisation); and the origin of the URL with `/x`
//! appended is the same.

#![no_main]

use libfuzzer_sys::fuzz_target;
use skills_edge::client::server_label_of_url;
use skills_edge::host::index::canonical_origin;

fuzz_target!(|data: &[u8]| {
    let Ok(url) = std::str::from_utf8(data) else {
        return;
    };
    let Some(origin) = server_label_of_url(url) else {
        return;
    };
    assert_eq!(
        server_label_of_url(&origin).as_deref(),
        Some(origin.as_str()),
        "{url:?}: the origin {origin:?} is not its own origin"
    );
    assert_eq!(canonical_origin(&origin), origin, "{url:?}");
    let rest = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
        .unwrap_or_else(|| panic!("{url:?}: {origin:?} is not http(s)"));
    assert!(
        !rest.contains(['/', '?', '#', '@']) && !rest.chars().any(|c| c.is_ascii_uppercase()),
        "{url:?}: {origin:?}"
    );
    if !rest.starts_with('[') {
        let host = rest.rsplit_once(':').map_or(rest, |(h, _)| h);
        // A host of digits and dots that ends in a dot after an empty label (`1.54..`) does
        // not end in a number, so the standard keeps it as a domain (as `new URL` does).
        if !host.is_empty()
            && !host.ends_with('.')
            && host.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        {
            let parts: Vec<&str> = host.split('.').collect();
            assert_eq!(parts.len(), 4, "{url:?}: the IPv4 host {host:?}");
            for p in parts {
                let n: u32 = p.parse().unwrap_or(999);
                assert!(
                    n <= 255 && n.to_string() == p,
                    "{url:?}: the IPv4 host {host:?}"
                );
            }
        }
    }
    if !url.contains(['/', '?', '#', '\\']) || url.ends_with('/') {
        let longer = format!("{}/x", url.trim_end_matches('/'));
        if url.matches("://").count() == 1 {
            assert_eq!(
                server_label_of_url(&longer).as_deref(),
                Some(origin.as_str()),
                "{url:?} and {longer:?}"
            );
        }
    }
});
