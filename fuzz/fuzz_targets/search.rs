//! The reader of the search section (section 21) and the ranking over it. Input: the first
//! two bytes pick an offset into the section of a fixed catalog's pack (two skills private to
//! a scope), the rest overwrite the section from there; the pack is sealed again and loaded
//! with the full check; then the rest as a query.
//!
//! Properties: no panic; a damaged section either is refused when the pack loads (as an
//! inconsistent pack) or gives answers whose results are skills the caller sees, at most
//! `limit`, best first, with finite scores, and refuses only the query text; and the anonymous
//! caller never gets a private skill.

#![no_main]

use libfuzzer_sys::fuzz_target;
use skills_edge::catalog::compile::SourceTree;
use skills_edge::catalog::pack::PackErrorKind;
use skills_edge::catalog::search::SearchErrorKind;
use skills_edge::catalog::{pack, Catalog, Grant};
use std::sync::OnceLock;

/// The pack, and the section's offset and length in it.
fn base() -> &'static (Vec<u8>, usize, usize) {
    static BASE: OnceLock<(Vec<u8>, usize, usize)> = OnceLock::new();
    BASE.get_or_init(|| {
        let mut tree = SourceTree::default();
        for (name, description, tags) in [
            ("pdf-forms", "Fill in PDF forms.", "pdf, forms"),
            ("csv-clean", "Clean CSV files.", "data"),
            ("secret-pdf", "Merge secret PDF files.", "pdf, vault"),
            ("vault-ops", "Rotate the vault keys.", "vault"),
        ] {
            tree.add_file(
                &format!("{name}/SKILL.md"),
                format!("---\nname: {name}\ndescription: {description}\nmetadata:\n  tags: \"{tags}\"\n---\n# {name}\n## Steps\n").as_str(),
            );
        }
        tree.add_file(
            "skills-edge.toml",
            "[[access]]\nskills = [\"secret-pdf\", \"vault-ops\"]\nscopes = [\"vault\"]\n",
        );
        let compiled = skills_edge::catalog::compile::compile(tree).expect("compiles");
        let bytes = pack::encode(&compiled, None);
        let t = pack::section_table(&bytes).expect("sections");
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        let heap = t.start + t.count * t.record_len + 4;
        let (off, len) = (0..t.count)
            .map(|k| t.start + k * t.record_len)
            .find(|&at| word(at) == 21)
            .map(|at| (word(at + 4), word(at + 8)))
            .expect("a search section");
        (bytes, heap + off, len)
    })
}

fuzz_target!(|data: &[u8]| {
    let (bytes, at, len) = base();
    let (Some(&a), Some(&b)) = (data.first(), data.get(1)) else {
        return;
    };
    let from = (usize::from(a) << 8 | usize::from(b)) % len.max(&1);
    let rest = &data[2..];
    let mut p = bytes.clone();
    for (k, &byte) in rest.iter().enumerate().take(len - from) {
        p[at + from + k] = byte;
    }
    pack::seal(&mut p);
    let query = String::from_utf8_lossy(rest);
    let c = match Catalog::from_bytes(p) {
        Ok(c) => c,
        Err(e) => {
            assert_eq!(e.kind, PackErrorKind::Inconsistent, "{e}");
            return;
        }
    };
    for (grant, limit) in [(Grant::PUBLIC, 3), (c.grant(&["vault"]), 50)] {
        for q in [query.as_ref(), "pdf", "vault keys"] {
            match c.search(grant, q, &[], limit) {
                Ok(hits) => {
                    assert!(hits.len() <= limit);
                    assert!(hits.windows(2).all(|w| w[0].score >= w[1].score));
                    for h in &hits {
                        assert!(h.score.is_finite());
                        assert!(c.skill_visible(h.index, grant), "{}", h.uri);
                    }
                }
                // The limit is in bounds and no tag is given: only the query can be refused.
                Err(e) => assert_eq!(e.kind, SearchErrorKind::Query, "{q:?}: {e}"),
            }
        }
    }
});
