//! The ranking, its bounds, and hidden = absent at the catalog's level.

use super::{SearchError, SearchErrorKind};
use crate::compile::SourceTree;
use crate::pack::PackErrorKind;
use crate::{access::Grant, view::Catalog};

fn skill(name: &str, description: &str, extra: &str, body: &str) -> (String, String) {
    (
        format!("{name}/SKILL.md"),
        format!("---\nname: {name}\ndescription: {description}\n{extra}---\n{body}"),
    )
}

fn catalog(skills: &[(String, String)], toml: Option<&str>) -> Catalog {
    let mut tree = SourceTree::default();
    for (path, text) in skills {
        tree.add_file(path, text.as_str());
    }
    if let Some(t) = toml {
        tree.add_file("skills-edge.toml", t);
    }
    Catalog::compile(tree, None).expect("compiles")
}

fn corpus() -> Vec<(String, String)> {
    vec![
        skill(
            "pdf-forms",
            "Fill in and flatten PDF forms.",
            "metadata:\n  tags: pdf, forms\n",
            "# Filling forms\n",
        ),
        skill(
            "pdf-merge",
            "Merge several documents into one file.",
            "metadata:\n  tags: pdf\n",
            "# Merging PDF files\n",
        ),
        skill(
            "csv-clean",
            "Clean CSV files; trim cells, fix encodings.",
            "",
            "# Cleaning\n## Encodings\n",
        ),
        skill(
            "release-notes",
            "Write release notes from the commit log.",
            "metadata:\n  tags: git, docs\n",
            "# Notes\n",
        ),
        skill(
            "git-bisect",
            "Find the commit that broke a test with git bisect.",
            "metadata:\n  tags: git\n",
            "# Bisect\n",
        ),
    ]
}

fn uris(c: &Catalog, q: &str, tags: &[&str]) -> Vec<String> {
    c.search(Grant::PUBLIC, q, tags, 10)
        .expect("searches")
        .into_iter()
        .map(|h| h.uri.to_owned())
        .collect()
}

#[test]
fn a_term_in_the_name_outranks_the_same_term_in_a_heading() {
    let c = catalog(&corpus(), None);
    assert_eq!(
        uris(&c, "merge pdf", &[]).first().map(String::as_str),
        Some("skill://pdf-merge/SKILL.md")
    );
    let hits = c.search(Grant::PUBLIC, "pdf", &[], 10).expect("searches");
    assert_eq!(hits.len(), 2);
    assert!(hits[0].score >= hits[1].score && hits[1].score > 0.0);
}

#[test]
fn a_rare_term_weighs_more_than_a_common_one() {
    let c = catalog(&corpus(), None);
    // "bisect" is in one skill, "commit" in two: the skill with the rare one comes first.
    let hits = uris(&c, "commit bisect", &[]);
    assert_eq!(hits[0], "skill://git-bisect/SKILL.md");
    assert_eq!(hits.len(), 2);
}

#[test]
fn inflected_words_find_the_skill() {
    let c = catalog(&corpus(), None);
    assert_eq!(
        uris(&c, "cleaning encoding", &[])[0],
        "skill://csv-clean/SKILL.md"
    );
    assert_eq!(
        uris(&c, "flattening a form", &[])[0],
        "skill://pdf-forms/SKILL.md"
    );
}

#[test]
fn tags_filter_every_result_and_an_unknown_tag_is_an_error() {
    let c = catalog(&corpus(), None);
    assert_eq!(
        uris(&c, "notes commit", &["git", "docs"]),
        ["skill://release-notes/SKILL.md"]
    );
    assert_eq!(uris(&c, "pdf", &["forms"]), ["skill://pdf-forms/SKILL.md"]);
    let e = refused!(
        c.search(Grant::PUBLIC, "pdf", &["nope"], 10),
        SearchErrorKind::UnknownTag,
    );
    assert!(e.contains("\"nope\"") && e.contains("`tags`"), "{e}");
}

#[test]
fn bad_queries_and_limits_name_the_argument_and_its_bounds() {
    let c = catalog(&corpus(), None);
    let query = |q: &str| refused!(c.search(Grant::PUBLIC, q, &[], 10), SearchErrorKind::Query);
    assert!(query("").contains("`query` is empty"));
    assert!(query("   ").contains("`query` is empty"));
    assert!(query("?!… --- ,,,").contains("`query` has no word"));
    assert!(query("the how to").contains("`query` has no word"));
    assert!(query(&"pdf ".repeat(400)).contains("1 to 1000"));
    let words: String = (0..33).map(|k| format!("word{k} ")).collect();
    assert!(query(&words).contains("more than 32 words"));
    let limit = |n: usize| {
        refused!(
            c.search(Grant::PUBLIC, "pdf", &[], n),
            SearchErrorKind::Limit,
        )
    };
    assert_eq!(limit(0), "`limit` must be from 1 to 50 (got 0)");
    assert_eq!(limit(51), "`limit` must be from 1 to 50 (got 51)");
    let too_many: Vec<&str> = ["pdf"; 17].to_vec();
    let e = refused!(
        c.search(Grant::PUBLIC, "pdf", &too_many, 5),
        SearchErrorKind::Tags,
    );
    assert!(e.contains("at most 16"), "{e}");
    assert!(
        c.search(Grant::PUBLIC, "pdf", &[], 1)
            .expect("searches")
            .len()
            == 1
    );
    assert!(c
        .search(Grant::PUBLIC, "zebra", &[], 5)
        .expect("searches")
        .is_empty());
}

#[test]
fn a_hidden_skill_changes_no_score_of_a_caller_that_cannot_see_it() {
    let toml = "[[access]]\nskills = [\"secret-pdf\"]\nscopes = [\"vault\"]\n";
    let mut with = corpus();
    with.push(skill(
        "secret-pdf",
        "Merge PDF files of the vault; PDF PDF.",
        "metadata:\n  tags: pdf, vault\n",
        "# PDF merge\n",
    ));
    let a = catalog(&with, Some(toml));
    let b = catalog(&corpus(), None);
    for q in ["merge pdf", "pdf", "commit notes", "vault"] {
        let ha = a.search(Grant::PUBLIC, q, &[], 50);
        let hb = b.search(Grant::PUBLIC, q, &[], 50);
        let strip = |h: Result<Vec<super::Hit<'_>>, SearchError>| {
            h.map(|v| {
                v.into_iter()
                    .map(|h| (h.uri.to_owned(), h.score.to_bits(), h.description))
                    .collect::<Vec<_>>()
            })
        };
        assert_eq!(strip(ha), strip(hb), "{q}");
    }
    // The tag only the hidden skill carries is unknown to the anonymous caller, as absent.
    assert_eq!(
        a.search(Grant::PUBLIC, "pdf", &["vault"], 5),
        b.search(Grant::PUBLIC, "pdf", &["vault"], 5)
    );
    // A caller holding the scope finds it.
    let vault = a.grant(&["vault"]);
    assert!(a
        .search(vault, "vault", &[], 5)
        .expect("searches")
        .iter()
        .any(|h| h.uri == "skill://secret-pdf/SKILL.md"));
}

#[test]
fn a_damaged_search_section_is_refused_by_the_full_check() {
    let compiled = crate::compile::compile({
        let mut tree = SourceTree::default();
        for (p, t) in corpus() {
            tree.add_file(&p, t.as_str());
        }
        tree
    })
    .expect("compiles");
    let pack = crate::pack::encode(&compiled, None);
    let table = crate::pack::section_table(&pack).expect("sections");
    let (off, len, at_tag) = (0..table.count)
        .map(|k| {
            let at = table.start + k * table.record_len;
            let w = |i: usize| {
                u32::from_le_bytes(pack[at + 4 * i..at + 4 * i + 4].try_into().unwrap()) as usize
            };
            (w(0), w(1), w(2), at)
        })
        .find(|s| s.0 == 21)
        .map(|s| (s.1, s.2, s.3))
        .expect("a search section");
    let heap_start = table.start + table.count * table.record_len + 4;
    let mut refusals = 0;
    for k in 0..len {
        let mut bad = pack.clone();
        bad[heap_start + off + k] ^= 0x5a;
        crate::pack::seal(&mut bad);
        if let Err(e) = Catalog::from_bytes(bad) {
            assert_eq!(e.kind, PackErrorKind::Inconsistent, "{e}");
            refusals += 1;
        }
    }
    // Term and tag text bytes may change into other valid orders; every structural word is
    // checked. Most single-byte changes are refused, none panics.
    assert!(
        refusals * 2 > len,
        "{refusals} of {len} damaged sections refused"
    );
    // The section's tag changed to one this reader does not know, not required: a catalog
    // without a search index, which no argument can search.
    let mut without = pack.clone();
    without[at_tag..at_tag + 4].copy_from_slice(&1000u32.to_le_bytes());
    without[at_tag + 12..at_tag + 16].copy_from_slice(&0u32.to_le_bytes());
    crate::pack::seal(&mut without);
    let c = Catalog::from_bytes(without).expect("loads without its search index");
    assert!(!c.has_search());
    assert_eq!(
        refused!(
            c.search(Grant::PUBLIC, "pdf", &[], 5),
            SearchErrorKind::NoIndex
        ),
        "this catalog was built without a search index"
    );
}

#[test]
fn a_hits_description_is_its_frontmatters_read_alone_or_from_the_whole_entry() {
    use super::description;
    let compiled = r#"{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"Fill \"forms\".","metadata":{"description":"no"}},"resources":[{"uri":"skill://a/SKILL.md","digest":"sha256:00","size":1}],"_meta":{}}"#;
    assert_eq!(description(compiled), "Fill \"forms\".");
    // Another order of members: the entry read whole.
    assert_eq!(
        description(r#"{"frontmatter":{"description":"x"},"uri":"u"}"#),
        "x"
    );
    assert_eq!(description(r#"{"uri":"u","frontmatter":[1]}"#), "");
    assert_eq!(description(r#"{"uri":"u","frontmatter":{}}"#), "");
    assert_eq!(description("{\"uri\":"), "");
    let c = catalog(&corpus(), None);
    let hits = c.search(Grant::PUBLIC, "bisect", &[], 5).expect("searches");
    assert_eq!(
        hits[0].description,
        "Find the commit that broke a test with git bisect."
    );
}
