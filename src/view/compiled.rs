//! The catalog-wide replies a view assembles per request from each skill's items, held to the
//! bytes the compiler renders for the whole catalog, on the generated shape of
//! `crate::pack::size`.

use super::{Catalog, SkillFallback};
use crate::compile::compile;
use crate::pack::size::generate;

/// The catalog-wide replies assembled per request from each skill's items are the bytes the
/// compiler renders for the whole catalog.
#[test]
fn the_replies_assembled_per_request_are_the_compilers_bytes() {
    let compiled = compile(generate(120)).expect("the generated folder compiles");
    let c = Catalog::from_bytes(crate::pack::encode(&compiled, None)).expect("loads");
    let all = crate::access::Grant::PUBLIC;
    assert_eq!(c.mirror_index(all), compiled.mirror_index_json());
    assert_eq!(
        c.prompts_json(all).as_deref(),
        Some(
            compiled
                .fallback_prompts_json(&compiled.prompt_names())
                .as_str()
        )
    );
    assert_eq!(
        c.list_skills_json(all).as_deref(),
        Some(compiled.list_skills_result_json().as_str())
    );
    let f = c.fallback().expect("the fallback");
    for (i, s) in compiled.skills.iter().enumerate() {
        let view = c.skill_at(i).expect("the skill");
        assert_eq!(view.list_item_json, compiled.list_item_json(s));
        let parts = f.skill(i).expect("its parts");
        let (block, structured) = compiled.read_skill_parts(s);
        assert_eq!(parts.read_structured_json, structured);
        let mut b = String::new();
        SkillFallback::push_read_block(&parts.read_structured_json.to_string(), &mut b);
        assert_eq!(b, block);
        assert_eq!(parts.links_json, compiled.prompt_links_json(s));
    }
    for (k, d) in compiled.dirs.iter().enumerate() {
        let view = c.dir_at(k).expect("the directory");
        assert_eq!(view.uri, d.uri);
        for (n, ch) in d.children.iter().enumerate() {
            assert_eq!(
                view.child(n).expect("the child").to_string(),
                compiled.child_json(ch)
            );
        }
    }
}
