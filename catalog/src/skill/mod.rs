//! The rules of one skill, shared by the build-time compiler, the responder and the host
//! verifier: names, URIs, limits, frontmatter (YAML → ordered JSON), digests and MIME types.
//!
//! `skills-edge`'s build script and its runtime both use these very modules, so the catalog
//! that is embedded and the checks a host runs can never disagree.

pub mod digest;
pub mod frontmatter;
pub mod limits;
pub mod mime;
pub mod name;
pub mod revision;
pub mod uri;
pub mod value;

/// The order of `keys` sorted bytewise, as indices into `keys` (equal keys keep their order).
/// The one sort of the host's rules (file paths and URIs of a revision or a fingerprint, array
/// indices among frontmatter keys): one sort routine in a WebAssembly module, not one per
/// element type.
///
/// ```
/// use skills_edge_catalog::skill::byte_order;
/// assert_eq!(byte_order(&[b"b".as_slice(), b"a", b"ab", b"a"]), [1, 3, 2, 0]);
/// ```
pub fn byte_order(keys: &[&[u8]]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_unstable_by(|&a, &b| keys[a].cmp(keys[b]).then(a.cmp(&b)));
    order
}
