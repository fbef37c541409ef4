//! The pack's size on the generated shape of the issue "Catalogs of ten thousand skills":
//! each skill a `SKILL.md` (name, a 24-word description, `metadata.team`) and a 2.5 KB
//! `references/guide.md`, as `benches/scale.rs` and `scripts/gen-catalog.mjs` generate them.
//! The test holds the pack to the figures of docs/pack-format.md#size: the bytes per skill
//! besides the files' bytes, with and without the mirror's archives (the files' bytes,
//! gzipped), the second within the 1.5 KB per skill of the issue "Catalogs of ten thousand
//! skills". The search index (section 21) is left out of these figures: it is an addition
//! whose size docs/search.md reports.

use crate::compile::{compile, SourceTree};

/// A deterministic generator (xorshift64*), the scale benchmark's.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn word<'a>(&mut self, words: &[&'a str]) -> &'a str {
        words[(self.next() % words.len() as u64) as usize]
    }
}

const WORDS: &[&str] = &[
    "review", "check", "the", "diff", "tests", "deploy", "edge", "skill", "verify", "digest",
    "release", "notes", "commit", "style", "guide", "team", "catalog", "server", "client",
    "archive", "format", "audit", "trace", "plan",
];

/// A folder of `n` skills of the benchmark's shape (the generator of `benches/scale.rs`).
pub(crate) fn generate(n: usize) -> SourceTree {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut tree = SourceTree::default();
    for i in 0..n {
        let dir = format!("skill-{i:05}");
        let description: Vec<&str> = (0..24).map(|_| rng.word(WORDS)).collect();
        let skill_md = format!(
            "---\nname: {dir}\ndescription: {}\nmetadata:\n  team: team-{}\n---\n\n# Skill {i}\n\nRead `references/guide.md` first.\n",
            description.join(" "),
            i % 20
        );
        tree.add_file(&format!("{dir}/SKILL.md"), skill_md);
        let mut guide = String::with_capacity(2560);
        while guide.len() < 2500 {
            guide.push_str(rng.word(WORDS));
            guide.push(if rng.next().is_multiple_of(12) {
                '\n'
            } else {
                ' '
            });
        }
        guide.push('\n');
        tree.add_file(&format!("{dir}/references/guide.md"), guide);
    }
    tree
}

/// What a pack of `n` generated skills holds per skill besides the files' bytes: in all, and
/// without the mirror's archives; and the pack's section sizes per skill (tag, bytes), for
/// the message of a failure.
fn per_skill(n: usize) -> (usize, usize, Vec<(u32, usize)>) {
    let compiled = compile(generate(n)).expect("the generated folder compiles");
    let pack = super::encode(&compiled, None);
    let files: usize = compiled.files.iter().map(|f| f.bytes.len()).sum();
    super::open(&pack, super::Check::Full).expect("the pack loads");
    let archives: usize = compiled
        .skills
        .iter()
        .filter_map(|s| s.archive.as_ref())
        .map(|a| a.size as usize)
        .sum();
    let table = super::section_table(&pack).expect("sections");
    let mut sections = Vec::new();
    let mut search = 0;
    for k in 0..table.count {
        let at = table.start + k * table.record_len;
        let w = |i: usize| {
            let b = &pack[at + 4 * i..at + 4 * i + 4];
            u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize
        };
        sections.push((w(0) as u32, w(2) / n));
        if w(0) == super::SECTION_SEARCH as usize {
            search = w(2);
        }
    }
    // The search index (section 21) is counted apart: docs/search.md gives its size.
    let besides = pack.len() - files - search;
    (besides / n, (besides - archives) / n, sections)
}

#[test]
fn a_generated_catalog_packs_in_2350_bytes_per_skill_besides_the_files_1450_without_archives() {
    let (bytes, no_archives, sections) = per_skill(1000);
    eprintln!(
        "{bytes} bytes per skill besides the files, {no_archives} without the archives; sections (tag, bytes per skill): {sections:?}"
    );
    assert!(
        bytes <= 2350,
        "{bytes} bytes per skill (sections: {sections:?})"
    );
    assert!(
        no_archives <= 1450,
        "{no_archives} bytes per skill without the archives (sections: {sections:?})"
    );
}
