//! Search over a catalog ([`Catalog::search`]): the ranking of `crate::search` over the
//! section the pack carries, for the skills a caller sees.

use super::Catalog;
use crate::access::Grant;
use crate::search::index::{Index, FIELDS};
use crate::search::{
    checked_arguments, description, grant_stats, merge_sums, tagged_visible, Hit, Memo,
    SearchError, SearchErrorKind,
};

impl Catalog {
    /// Whether the pack carries a search index.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn has_search(&self) -> bool {
        self.search_index().is_some()
    }

    fn search_index(&self) -> Option<Index<'_>> {
        Index::open(self.search_section()?).ok()
    }

    /// The skills a caller with `grant` sees that match `query`, best first (ties in URI
    /// order), at most `limit`; with `tags`, only skills that carry every one of them.
    /// Errors name the argument and its bounds: an empty or too long query, one without a
    /// word, a tag no skill the caller sees carries, a limit outside 1 to 50.
    ///
    /// ```
    /// use skills_edge::catalog::{compile::SourceTree, Catalog, Grant};
    /// let mut tree = SourceTree::default();
    /// tree.add_file("pdf-forms/SKILL.md", "---\nname: pdf-forms\ndescription: Fill in PDF forms.\nmetadata:\n  tags: pdf, forms\n---\n# Filling forms\n");
    /// tree.add_file("csv-clean/SKILL.md", "---\nname: csv-clean\ndescription: Clean CSV files.\n---\n# Cleaning\n");
    /// let catalog = Catalog::compile(tree, None).unwrap();
    /// let hits = catalog.search(Grant::PUBLIC, "fill a form", &[], 5).unwrap();
    /// assert_eq!(hits[0].uri, "skill://pdf-forms/SKILL.md");
    /// assert_eq!(hits.len(), 1);
    /// ```
    pub fn search(
        &self,
        grant: Grant,
        query: &str,
        tags: &[&str],
        limit: usize,
    ) -> Result<Vec<Hit<'_>>, SearchError> {
        let query_terms = checked_arguments(query, tags, limit)?;
        let Some(ix) = self.search_index() else {
            return Err(SearchError::new(
                SearchErrorKind::NoIndex,
                "this catalog was built without a search index",
            ));
        };
        let sees = self.skill_visibility(grant);
        let visible = |skill: u32| sees(skill as usize);
        let tag_lists = tags
            .iter()
            .map(|t| tagged_visible(&ix, t, &visible))
            .collect::<Result<Vec<_>, _>>()?;
        let stats = grant_stats(&ix, grant);
        let n = stats[0] as f64;
        let avg: Vec<f64> = (0..FIELDS)
            .map(|f| {
                if stats[0] == 0 {
                    0.0
                } else {
                    stats[f + 1] as f64 / n
                }
            })
            .collect();
        // Each term's visible postings, read once into one buffer (the terms one after the
        // other, each sorted by skill), then scored in place once its document frequency is
        // known; then merged by skill, each skill's sum adding its terms' contributions in
        // query order, in every catalog.
        let mut found: Vec<(u32, f64)> = Vec::new();
        let mut counts: Vec<[u8; FIELDS]> = Vec::new();
        let mut ends = Vec::with_capacity(query_terms.len());
        for term in &query_terms {
            let start = found.len();
            counts.clear();
            let postings = ix.postings(term);
            found.reserve(postings.len());
            counts.reserve(postings.len());
            postings.each(|p| {
                if visible(p.skill) {
                    found.push((p.skill, 0.0));
                    counts.push(p.counts);
                }
            });
            if found.len() == start {
                continue;
            }
            let df = (found.len() - start) as f64;
            let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
            let mut memo = Memo::new();
            for ((skill, v), c) in found[start..].iter_mut().zip(&counts) {
                *v = memo.score(c, &ix, *skill as usize, &avg, idf);
            }
            ends.push(found.len());
        }
        // Best first, ties in URI (skill) order: the best `limit` kept sorted as the sums come.
        let order = |a: &(u32, f64), b: &(u32, f64)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
        let mut best: Vec<(u32, f64)> = Vec::with_capacity(limit + 1);
        merge_sums(&found, &ends, |hit| {
            if !tag_lists.iter().all(|l| l.binary_search(&hit.0).is_ok()) {
                return;
            }
            if best.len() == limit && best.last().is_some_and(|w| order(&hit, w).is_ge()) {
                return;
            }
            let at = best.partition_point(|b| order(b, &hit).is_lt());
            best.insert(at, hit);
            best.truncate(limit);
        });
        Ok(best
            .into_iter()
            .filter_map(|(s, score)| {
                let view = self.skill_at(s as usize)?;
                Some(Hit {
                    index: s as usize,
                    uri: view.uri,
                    name: view.name,
                    description: description(view.entry_json),
                    score: (score * 10_000.0).round() / 10_000.0,
                })
            })
            .collect())
    }
}
