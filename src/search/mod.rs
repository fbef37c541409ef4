//! Search: an index of the skills compiled into the pack (section 21, `index`) and the
//! ranking of a query over the skills a caller sees (`Catalog::search`, in `crate::view`).
//!
//! Ranking is BM25F (Robertson and Zaragoza, "The Probabilistic Relevance Framework: BM25 and
//! Beyond", 2009): per skill, each query term's counts in the four fields (name, description,
//! tags, headings of `SKILL.md`) are weighted and normalised by the field's length against the
//! average, summed, saturated by `k1`, and multiplied by the term's inverse document
//! frequency. `docs/search.md` says why, and gives the measured quality.
//!
//! Every statistic (the number of skills, each term's document frequency, each field's
//! average length) is that of the skills the caller sees: the sums over the audience classes
//! it holds, of figures the pack stores per class, and document frequencies counted over the
//! postings of the query's terms. So a caller's results and scores are exactly those of a
//! catalog without the skills it may not see. Per query: a binary search per term, then the
//! postings of the query's terms, each decoded once into one buffer (those the caller sees),
//! scored in place, and merged by skill into the best `limit`; no YAML, no hashing, nothing
//! per skill of the catalog.

mod codec;
pub(crate) mod index;
pub(crate) mod text;

use crate::access::Grant;
use index::{Index, FIELDS};

/// The most bytes a query may have.
pub(crate) const MAX_QUERY_BYTES: usize = 1000;
/// The most distinct terms a query may have (a query with more is refused, naming the bound).
pub(crate) const MAX_QUERY_TERMS: usize = 32;
/// The most results a search returns.
#[cfg_attr(feature = "internals", visibility::make(pub))]
pub(crate) const MAX_LIMIT: usize = 50;
/// The results a search returns when the caller does not say.
#[cfg_attr(feature = "internals", visibility::make(pub))]
pub(crate) const DEFAULT_LIMIT: usize = 10;
/// The most tags a query may filter by.
pub(crate) const MAX_QUERY_TAGS: usize = 16;

/// The weight of each field (name, description, tags, headings): a term in a skill's name or
/// tags says more about what the skill is for than one in its description, and one in a
/// heading of its instructions least.
const WEIGHTS: [f64; FIELDS] = [3.0, 1.5, 2.5, 1.0];
/// How much each field's length normalises its counts (BM25's `b`), per field. Names and tags
/// are short and of similar lengths: little normalisation.
const B: [f64; FIELDS] = [0.3, 0.75, 0.3, 0.75];
/// BM25's saturation of the weighted count.
const K1: f64 = 1.2;

/// One result of `Catalog::search`.
///
/// ```
/// use skills_edge::catalog::{compile::SourceTree, Catalog, Grant};
/// let mut tree = SourceTree::default();
/// tree.add_file("pdf-forms/SKILL.md", "---\nname: pdf-forms\ndescription: Fill in PDF forms.\n---\n# Forms\n");
/// tree.add_file("csv-clean/SKILL.md", "---\nname: csv-clean\ndescription: Clean CSV files.\n---\n");
/// let catalog = Catalog::compile(tree, None).unwrap();
/// let hit = &catalog.search(Grant::PUBLIC, "pdf", &[], 5).unwrap()[0];
/// assert_eq!((hit.name, hit.uri), ("pdf-forms", "skill://pdf-forms/SKILL.md"));
/// assert_eq!(hit.description, "Fill in PDF forms.");
/// assert_eq!(catalog.skill_at(hit.index).unwrap().name, "pdf-forms");
/// assert!(hit.score > 0.0);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Hit<'a> {
    /// The skill's index in the catalog.
    pub index: usize,
    /// The URI of its `SKILL.md`.
    pub uri: &'a str,
    /// Its name.
    pub name: &'a str,
    /// Its description.
    pub description: String,
    /// Its BM25F score, rounded to 4 decimals (higher is better).
    pub score: f64,
}

/// Why a search cannot run: the argument at fault (`kind`), and a message that names it and
/// its bounds in words a model can act on ([`std::fmt::Display`]).
///
/// ```
/// use skills_edge::catalog::{compile::SourceTree, search::SearchErrorKind, Catalog, Grant};
/// let mut tree = SourceTree::default();
/// tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n# Hello\n");
/// let catalog = Catalog::compile(tree, None).unwrap();
/// let e = catalog.search(Grant::PUBLIC, "greet", &[], 500).unwrap_err();
/// assert_eq!(e.kind, SearchErrorKind::Limit);
/// assert_eq!(e.to_string(), "`limit` must be from 1 to 50 (got 500)");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchError {
    /// What is at fault.
    pub kind: SearchErrorKind,
    message: String,
}

/// What a [`SearchError`] refused: the argument to change, or the catalog.
///
/// ```
/// use skills_edge::catalog::{compile::SourceTree, search::SearchErrorKind, Catalog, Grant};
/// let mut tree = SourceTree::default();
/// tree.add_file("pdf-forms/SKILL.md", "---\nname: pdf-forms\ndescription: Fill in PDF forms.\nmetadata:\n  tags: pdf\n---\n");
/// let catalog = Catalog::compile(tree, None).unwrap();
/// assert_eq!(catalog.search(Grant::PUBLIC, "", &[], 5).unwrap_err().kind, SearchErrorKind::Query);
/// let e = catalog.search(Grant::PUBLIC, "forms", &["excel"], 5).unwrap_err();
/// assert_eq!(e.kind, SearchErrorKind::UnknownTag);
/// assert!(e.to_string().contains("excel"));
/// assert!(catalog.search(Grant::PUBLIC, "forms", &["pdf"], 5).is_ok());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchErrorKind {
    /// The query text: empty, longer than 1000 bytes, without a word to search for, or with
    /// more than 32 distinct words.
    Query,
    /// The limit: not from 1 to 50.
    Limit,
    /// The tags: more than 16 of them.
    Tags,
    /// A tag that no skill the caller sees carries (a tag only skills it may not see carry
    /// is unknown to it, as an absent one); the message names the tag.
    UnknownTag,
    /// The catalog was built without a search index: no argument can make the search run.
    NoIndex,
}

impl SearchError {
    pub(crate) fn new(kind: SearchErrorKind, message: impl Into<String>) -> SearchError {
        SearchError {
            kind,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for SearchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SearchError {}

/// The distinct terms of `query`, once the arguments are checked in turn: the query
/// ([`query_terms`]), the limit, the number of tags.
pub(crate) fn checked_arguments(
    query: &str,
    tags: &[&str],
    limit: usize,
) -> Result<Vec<String>, SearchError> {
    let terms = query_terms(query)?;
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(SearchError::new(
            SearchErrorKind::Limit,
            format!("`limit` must be from 1 to {MAX_LIMIT} (got {limit})"),
        ));
    }
    if tags.len() > MAX_QUERY_TAGS {
        return Err(SearchError::new(
            SearchErrorKind::Tags,
            format!(
                "`tags` names {} tags; a search filters by at most {MAX_QUERY_TAGS}",
                tags.len()
            ),
        ));
    }
    Ok(terms)
}

/// The description in a skill's entry: its frontmatter's. The entry starts `{"uri":…,
/// "frontmatter":{…},` as the compiler writes it, so the frontmatter is read alone, not the
/// resources and signature after it; an entry of another shape is read whole.
pub(crate) fn description(entry: &str) -> String {
    let of = |frontmatter: &crate::json::Node<'_>| {
        frontmatter
            .get("description")
            .and_then(|d| d.as_str())
            .unwrap_or_default()
            .to_owned()
    };
    let first = || {
        let rest = entry.strip_prefix("{\"uri\":")?;
        let (_, uri) = crate::json::parse_prefix(rest).ok()?;
        let rest = rest.get(uri..)?.strip_prefix(",\"frontmatter\":")?;
        let (frontmatter, _) = crate::json::parse_prefix(rest).ok()?;
        Some(of(&frontmatter))
    };
    first().unwrap_or_else(|| {
        crate::json::parse(entry)
            .ok()
            .and_then(|e| e.get("frontmatter").map(of))
            .unwrap_or_default()
    })
}

/// The skills carrying `tag`, sorted; an error when no skill the caller sees carries it (a
/// tag only skills it may not see carry is unknown to it, as an absent one).
pub(crate) fn tagged_visible(
    ix: &Index<'_>,
    tag: &str,
    visible: &impl Fn(u32) -> bool,
) -> Result<Vec<u32>, SearchError> {
    let list = ix.tagged(tag);
    if !list.iter().any(|&s| visible(s)) {
        return Err(SearchError::new(SearchErrorKind::UnknownTag, format!(
            "no skill carries the tag {}: `tags` names tags of `metadata.tags` (1–{} characters of a-z, 0-9 and hyphens); leave `tags` out to search every skill",
            echo(tag),
            text::MAX_TAG_CHARS
        )));
    }
    Ok(list)
}

/// A caller's statistics: its skills and the summed length of each field, the sums over the
/// audience classes `grant` holds (the public one and its private ones).
pub(crate) fn grant_stats(ix: &Index<'_>, grant: Grant) -> [u64; FIELDS + 1] {
    let mut stats = [0u64; FIELDS + 1];
    for k in 0..ix.classes {
        if k == 0 || grant.mask() & (1u64 << (k - 1)) != 0 {
            for (s, v) in stats.iter_mut().zip(ix.class_stats(k)) {
                *s += v;
            }
        }
    }
    stats
}

/// The sums by skill of the terms' contributions, given to `sink` in skill order: `found`
/// holds each term's (skill, contribution) sorted by skill, term after term, the term ending
/// at each of `ends`. Each skill's sum adds its terms' contributions in query order (the
/// first one alone, then each next one added). One pass, each step comparing the terms'
/// next skills.
pub(crate) fn merge_sums(found: &[(u32, f64)], ends: &[usize], mut sink: impl FnMut((u32, f64))) {
    if let [end] = ends {
        found.iter().take(*end).for_each(|&hit| sink(hit));
        return;
    }
    let mut at: Vec<usize> = Vec::with_capacity(ends.len());
    let mut start = 0;
    for &end in ends {
        at.push(start);
        start = end;
    }
    loop {
        // The least skill at the head of a term's list.
        let mut least = None;
        for (&a, &end) in at.iter().zip(ends) {
            if let Some(&(s, _)) = found.get(a..end).and_then(<[_]>::first) {
                least = Some(least.map_or(s, |l: u32| l.min(s)));
            }
        }
        let Some(least) = least else {
            return;
        };
        let mut sum: Option<f64> = None;
        for (a, &end) in at.iter_mut().zip(ends) {
            if let Some(&(s, v)) = found.get(*a..end).and_then(<[_]>::first)
                && s == least
            {
                sum = Some(sum.map_or(v, |t| t + v));
                *a += 1;
            }
        }
        if let Some(sum) = sum {
            sink((least, sum));
        }
    }
}

/// A term's contributions, the common ones remembered: a count of one in one field of a
/// length below [`Memo::LENS`] scores the same in every skill of that length, so it is
/// computed once per term, by the same operations in the same order (the same bits).
pub(crate) struct Memo {
    /// Per field and length, the contribution, or NaN before it is computed.
    one: [[f64; Memo::LENS]; FIELDS],
}

impl Memo {
    const LENS: usize = 64;

    pub(crate) fn new() -> Memo {
        Memo {
            one: [[f64::NAN; Memo::LENS]; FIELDS],
        }
    }

    /// The contribution of a posting with `counts` in a skill whose field lengths `lens`
    /// gives, for a term of inverse document frequency `idf`.
    pub(crate) fn score(
        &mut self,
        counts: &[u8; FIELDS],
        ix: &Index<'_>,
        skill: usize,
        avg: &[f64],
        idf: f64,
    ) -> f64 {
        let contribution = |lens: [u32; FIELDS]| {
            let w = weighted(counts, lens, avg);
            idf * w * (K1 + 1.0) / (K1 + w)
        };
        // Which field holds a count of one, the others none.
        let single = match *counts {
            [1, 0, 0, 0] => 0,
            [0, 1, 0, 0] => 1,
            [0, 0, 1, 0] => 2,
            [0, 0, 0, 1] => 3,
            _ => return contribution(ix.lens(skill)),
        };
        let len = ix.len(skill, single);
        let Some(slot) = usize::try_from(len)
            .ok()
            .and_then(|l| self.one[single].get_mut(l))
        else {
            return contribution(ix.lens(skill));
        };
        if slot.is_nan() {
            // The other fields' lengths do not count: their counts are zero.
            let mut lens = [0; FIELDS];
            lens[single] = len;
            *slot = contribution(lens);
        }
        *slot
    }
}

/// BM25F's weighted, length-normalised count of a term in a skill.
fn weighted(counts: &[u8; FIELDS], lens: [u32; FIELDS], avg: &[f64]) -> f64 {
    let mut w = 0.0;
    for f in 0..FIELDS {
        let tf = f64::from(counts[f]);
        if tf == 0.0 {
            continue;
        }
        let a = avg.get(f).copied().unwrap_or(0.0);
        let norm = if a > 0.0 {
            1.0 - B[f] + B[f] * f64::from(lens[f]) / a
        } else {
            1.0
        };
        w += WEIGHTS[f] * tf / norm;
    }
    w
}

/// The distinct terms of a query, in the order they first appear; an error for an empty, too
/// long or wordless query, and for one of more than [`MAX_QUERY_TERMS`] terms (refused, not
/// cut, so no word of it is dropped without the caller knowing).
fn query_terms(query: &str) -> Result<Vec<String>, SearchError> {
    if query.len() > MAX_QUERY_BYTES {
        return Err(SearchError::new(SearchErrorKind::Query, format!(
            "`query` has {} bytes; it must have 1 to {MAX_QUERY_BYTES}: a few words saying what the skill should do",
            query.len()
        )));
    }
    if query.trim().is_empty() {
        return Err(SearchError::new(SearchErrorKind::Query, format!(
            "`query` is empty; it must have 1 to {MAX_QUERY_BYTES} bytes: a few words saying what the skill should do"
        )));
    }
    let mut out: Vec<String> = Vec::new();
    for t in text::terms(query) {
        if out.contains(&t) {
            continue;
        }
        if out.len() == MAX_QUERY_TERMS {
            return Err(SearchError::new(SearchErrorKind::Query, format!(
                "`query` has more than {MAX_QUERY_TERMS} words to search for (distinct words of 2 to 32 letters or digits, other than words like \"the\"); a search takes at most {MAX_QUERY_TERMS}: keep the words that say what the skill should do"
            )));
        }
        out.push(t);
    }
    if out.is_empty() {
        return Err(SearchError::new(SearchErrorKind::Query,
            "`query` has no word to search for (letters or digits, other than words like \"the\" or \"how\"); say what the skill should do",
        ));
    }
    Ok(out)
}

/// What a caller sent, for an error message: a JSON string of at most 64 characters, marked
/// as cut with its length when it was longer.
fn echo(s: &str) -> String {
    let clipped: String = s.chars().take(64).collect();
    let quoted = serde_json::to_string(&clipped).unwrap_or_default();
    if clipped.len() == s.len() {
        quoted
    } else {
        format!("{quoted}… ({} characters)", s.chars().count())
    }
}

#[cfg(test)]
mod tests;
