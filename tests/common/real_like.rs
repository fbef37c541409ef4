//! A catalog shaped like the public `anthropics/skills` one, generated (deterministic bytes):
//! 17 skills with scripts, references, templates, fonts and images, one of them with a
//! 1068-character description (over the 1024 the Agent Skills rules allow). Used by the
//! library's `skip_invalid` tests and by the command's.

use super::Rng;
use skills_edge::catalog::compile::SourceTree;

/// The names of the skills of the fixture, as the public catalog names its skills.
pub const NAMES: [&str; 17] = [
    "algorithmic-art",
    "brand-guidelines",
    "canvas-design",
    "doc-coauthoring",
    "docx",
    "frontend-design",
    "internal-comms",
    "mcp-builder",
    "pdf",
    "pptx",
    "skill-creator",
    "slack-gif-creator",
    "template-skill",
    "theme-factory",
    "web-artifacts-builder",
    "webapp-testing",
    "xlsx",
];

/// The skill whose description is too long.
pub const TOO_LONG: &str = "theme-factory";

/// A catalog shaped like a real one, generated (deterministic bytes).
pub fn real_like() -> SourceTree {
    let mut t = SourceTree::default();
    let mut rng = Rng(0x5eed_c0de_0f15_5151);
    for (i, name) in NAMES.iter().enumerate() {
        let description = if *name == TOO_LONG {
            let base = "Applies a theme (colours, fonts, spacing) to slides, documents and pages. ";
            let mut d = base.repeat(1068 / base.len() + 1);
            d.truncate(1068);
            d
        } else {
            format!(
                "Use this skill when the task involves {name}: what it does, and when to use it."
            )
        };
        assert!(*name != TOO_LONG || description.chars().count() == 1068);
        t.add_file(
            &format!("{name}/SKILL.md"),
            format!(
                "---\nname: {name}\ndescription: {description:?}\nlicense: Proprietary. LICENSE.txt has complete terms\n---\n\n# {name}\n\nRead `reference.md` first.\n"
            ),
        );
        t.add_file(
            &format!("{name}/LICENSE.txt"),
            "All rights reserved.\n".repeat(20),
        );
        t.add_file(
            &format!("{name}/reference.md"),
            format!(
                "# Reference of {name}\n\n{}",
                "Some guidance. ".repeat(200 + i * 7)
            ),
        );
        t.add_file(
            &format!("{name}/scripts/run.py"),
            format!("#!/usr/bin/env python3\nprint({name:?})\n"),
        );
        // Binary assets: fonts and images, a few KiB each.
        let n = 2 + (rng.next_u64() % 3) as usize;
        for j in 0..n {
            let len = 2048 + (rng.next_u64() % 8192) as usize;
            let bytes: Vec<u8> = (0..len).map(|_| (rng.next_u64() >> 56) as u8).collect();
            let ext = if j % 2 == 0 { "ttf" } else { "png" };
            t.add_file(&format!("{name}/assets/file-{j}.{ext}"), bytes);
        }
    }
    t
}
