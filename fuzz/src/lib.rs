//! Code shared by the fuzz targets: JSON objects read member by member (raw values, so
//! duplicate keys and byte-exact ids are visible), the properties every reply of the responder
//! must have, a reference reader of event streams, near-valid `tools/call` requests, and the
//! URIs of a catalog to build near-valid requests from.
//!
//! Every check panics with a message naming the property, which libFuzzer reports as a crash.

pub mod archive;
pub mod json;
pub mod reply;
pub mod sse;
pub mod tool_call;

use skills_edge::catalog::Catalog;

/// Every URI a catalog answers for: its files, its skills and its directories, in that order.
pub fn catalog_uris(c: &Catalog) -> Vec<String> {
    let mut out: Vec<String> = c.files().map(|f| f.uri.to_owned()).collect();
    out.extend(c.skills().map(|s| s.uri.to_owned()));
    out.extend((0..c.dir_count()).filter_map(|i| c.dir_at(i).map(|d| d.uri.to_owned())));
    out
}

/// A byte cursor over fuzzer input for the hand-made (non-`arbitrary`) input formats: a few
/// leading bytes of flags, then the rest.
pub fn split_flags<const N: usize>(data: &[u8]) -> ([u8; N], &[u8]) {
    let mut flags = [0u8; N];
    for (i, f) in flags.iter_mut().enumerate() {
        *f = data.get(i).copied().unwrap_or(0);
    }
    (flags, data.get(N..).unwrap_or(&[]))
}
