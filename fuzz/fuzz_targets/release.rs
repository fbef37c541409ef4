//! The readers of what the Cloudflare Worker fetches from R2 before it serves it:
//! `Release::open` (a pointer or release: a DSSE envelope, then its payload) and `parse_trust`
//! (the `CATALOG_TRUST` var), and `parse_history` (a catalog's unsigned history, read by a
//! Worker with no good pack and by gc). Input: bytes read as each.
//!
//! Properties: no panic; a release opens only when a signature by the trusted key verifies
//! and then holds a valid catalog id, 64 hex digits and assets named as assets; the release
//! `Release::sign` writes for what was read opens again to the same release (a round trip);
//! the same bytes under a key that did not sign them are refused; a trust list is never empty
//! and names no secret; a history read back from the text written for it is the same, and
//! names only revisions and asset names (never a path).

#![no_main]

use libfuzzer_sys::fuzz_target;
use skills_edge::catalog::release::{
    check_catalog_id, history_text, parse_history, parse_trust, Release,
};
use skills_edge::catalog::sign::SigningKey;

fuzz_target!(|data: &[u8]| {
    let key = SigningKey::from_seed([7; 32]);
    let stranger = SigningKey::from_seed([9; 32]);
    let trust = [key.public().clone()];
    if let Ok(r) = Release::open(data, &trust, "CATALOG_TRUST", "default") {
        assert!(check_catalog_id(&r.catalog).is_ok());
        assert_eq!(r.pack.len(), 64);
        assert!(r
            .assets
            .iter()
            .all(|(n, _)| !n.is_empty() && !n.contains('/')));
        assert!(Release::open(
            data,
            &[stranger.public().clone()],
            "CATALOG_TRUST",
            "default"
        )
        .is_err());
    }
    if let Ok(r) = Release::parse(data) {
        let signed = r.sign(&key);
        assert_eq!(
            Release::open(signed.as_bytes(), &trust, "CATALOG_TRUST", &r.catalog),
            Ok(r)
        );
    }
    if let Ok(h) = parse_history(data) {
        assert!(h.iter().all(|e| e.revision.len() == 64
            && e.assets.iter().all(|a| !a.is_empty() && !a.contains('/'))));
        assert_eq!(parse_history(history_text(&h).as_bytes()), Ok(h));
    }
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(keys) = parse_trust(text) {
            assert!(!keys.is_empty());
        }
    }
});
