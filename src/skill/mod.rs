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
/// use skills_edge::skill::byte_order;
/// assert_eq!(byte_order(&[b"b".as_slice(), b"a", b"ab", b"a"]), [1, 3, 2, 0]);
/// ```
///
/// A bottom-up merge sort (stable, n log n comparisons, one scratch vector) rather than the
/// standard library's: its sorts are generic code of several kilobytes each in the
/// WebAssembly modules, this one a few hundred bytes, and the lists it sorts are short (at
/// most a skill's 512 files).
pub fn byte_order(keys: &[&[u8]]) -> Vec<usize> {
    let n = keys.len();
    let mut order: Vec<usize> = (0..n).collect();
    let mut merged = vec![0; n];
    let mut width = 1;
    while width < n {
        let mut start = 0;
        while start < n {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (mut i, mut j) = (start, mid);
            for slot in &mut merged[start..end] {
                // The left run's key first when equal: equal keys keep their order.
                if j == end || (i < mid && keys[order[i]] <= keys[order[j]]) {
                    *slot = order[i];
                    i += 1;
                } else {
                    *slot = order[j];
                    j += 1;
                }
            }
            start = end;
        }
        std::mem::swap(&mut order, &mut merged);
        width *= 2;
    }
    order
}

#[cfg(test)]
mod tests {
    use super::byte_order;

    /// The standard library's sort of the same indices, by key then index.
    fn reference(keys: &[&[u8]]) -> Vec<usize> {
        let mut order: Vec<usize> = (0..keys.len()).collect();
        order.sort_by(|&a, &b| keys[a].cmp(keys[b]).then(a.cmp(&b)));
        order
    }

    #[test]
    fn byte_order_is_the_standard_sort_by_key_then_index() {
        assert_eq!(byte_order(&[]), Vec::<usize>::new());
        assert_eq!(byte_order(&[b"x".as_slice()]), [0]);
        // Every length up to 600 (runs of every parity, a skill's 512 files and more), keys
        // from a small alphabet so that many are equal or prefixes of each other.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for n in 0..600 {
            let owned: Vec<Vec<u8>> = (0..n)
                .map(|_| {
                    let len = (next() % 4) as usize;
                    (0..len).map(|_| b"ab\xff"[(next() % 3) as usize]).collect()
                })
                .collect();
            let keys: Vec<&[u8]> = owned.iter().map(Vec::as_slice).collect();
            assert_eq!(byte_order(&keys), reference(&keys), "{n} keys");
        }
    }
}
