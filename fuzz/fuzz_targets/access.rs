//! The access file's reader and its rules applied to skills:
//! `skills_edge::catalog::access::parse_rules` (the TOML text of `skills-edge.toml`) and
//! `resolve` (the rules over skill paths). Input: the file's text, a NUL byte, then skill
//! paths separated by LF (kept sorted and unique, as a catalog's are).
//!
//! Properties: no panic; every problem is an error diagnostic of the access file with a line,
//! a message and a fix; `resolve` gives every skill a class, and every class exists; each class
//! has a non-empty scope set, sorted and without repeats, of OAuth scope tokens; a skill's
//! scopes are its class's; `**` matches every path.

#![no_main]

use libfuzzer_sys::fuzz_target;
use skills_edge::catalog::access::{
    glob_matches, is_scope_token, parse_rules, resolve, ACCESS_FILE,
};
use skills_edge::catalog::diag::{Diagnostic, Severity};

fn check(diags: &[Diagnostic]) {
    for d in diags {
        assert!(matches!(d.severity, Severity::Error), "{d:?}");
        assert_eq!(d.path, ACCESS_FILE, "{d:?}");
        assert!(d.line.is_some_and(|l| l >= 1), "{d:?}");
        assert!(!d.message.is_empty() && !d.fix.is_empty(), "{d:?}");
    }
}

fuzz_target!(|data: &[u8]| {
    let (text, rest) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    let text = String::from_utf8_lossy(text);
    let mut diags = Vec::new();
    let rules = parse_rules(&text, &mut diags);
    check(&diags);
    let rest = String::from_utf8_lossy(rest);
    let mut paths: Vec<&str> = rest
        .split('\n')
        .filter(|p| !p.is_empty())
        .take(64)
        .collect();
    paths.sort_unstable();
    paths.dedup();
    let mut diags = Vec::new();
    let access = resolve(&rules, &paths, &mut diags);
    check(&diags);
    assert_eq!(access.skill_class.len(), paths.len());
    for (i, &c) in access.skill_class.iter().enumerate() {
        assert!(
            c as usize <= access.classes.len(),
            "class {c} of {}",
            access.classes.len()
        );
        let want: &[String] = if c == 0 {
            &[]
        } else {
            &access.classes[c as usize - 1]
        };
        assert_eq!(access.scopes_of(i), want);
        assert!(glob_matches("**", paths[i]), "{}", paths[i]);
    }
    for set in &access.classes {
        assert!(!set.is_empty());
        assert!(set.windows(2).all(|w| w[0] < w[1]), "{set:?}");
        assert!(set.iter().all(|s| is_scope_token(s)), "{set:?}");
    }
});
