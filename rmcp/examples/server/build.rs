//! Compiles the skills folder into this binary: `SKILLS_DIR` (relative to this package), by
//! default the repository's `skills/`.
fn main() {
    skills_edge::build_script::embed("../../../skills");
}
