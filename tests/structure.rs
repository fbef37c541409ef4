//! The shape of the house (docs/architecture.md): which layer may import which, and no file
//! that imports a file importing it back.
//!
//! Every path to another part of the code (`crate::…`, `super::…`, `skills_edge::…`,
//! `skills_edge::catalog::…`, in `use` lines and written inline) in the sources of the library
//! (`src/`), the command (`cli/src/`), the Worker (`worker/src/`), the components
//! (`component/*/src/`) and the rmcp crate and its example (`rmcp/src/`, `rmcp/examples/server/src/`) is read, outside comments. Each file belongs to one layer; a path
//! that reaches a layer its own may not import fails the test, naming the file, the line and
//! the rule. Paths that name a file of the same crate also make a graph of files, in which
//! no circle may appear. No dependency: a small reader of Rust paths, not a parser.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The library's layers, lowest first, and the adapters over them.
const LIBRARY: &[&str] = &[
    "catalog", "base64", "embedded", "protocol", "server", "auth", "http", "settings", "host",
    "client", "command",
];

/// What each layer may import besides itself (the table of docs/architecture.md).
fn allowed(layer: &str) -> &'static [&'static str] {
    match layer {
        // The catalog modules (`skill`, `json`, `compile`, `pack`, …): the rules of one skill,
        // the compiler and the pack format; `build.rs` compiles them alone, so they import
        // nothing else of this crate.
        "catalog" | "base64" => &[],
        "embedded" => &["catalog"],
        "protocol" => &["catalog", "base64"],
        "server" => &["catalog", "base64", "protocol"],
        "http" => &["catalog", "base64", "protocol", "server", "auth"],
        // Bearer token validation: beside the HTTP rules, on the ground layers only (strict
        // base64url, and the one strict reader of JSON from strangers, the catalog's `json`);
        // the adapters wire it to their requests.
        "auth" => &["catalog", "base64"],
        // The one table of settings configures the responder and the endpoint: it sits above them.
        "settings" => &["catalog", "protocol", "server", "http"],
        // The host rules: what a host applies to what a server sent. Never the server's side.
        "host" => &["catalog", "base64", "protocol"],
        // The connected client over the host rules.
        "client" => &["catalog", "base64", "protocol", "host"],
        // The command without its I/O: its arguments (`stdio`'s through the settings table,
        // into the responder's configuration), the run and report over the client (and the
        // compiler, for well-known sources).
        "command" => &[
            "catalog", "base64", "protocol", "server", "settings", "host", "client",
        ],
        // The adapters (the npm package's exports, the command, the Worker, the components,
        // the rmcp handler and its example) use the library; nothing imports them, and they
        // do not import each other.
        "js" | "bin" | "worker" | "component" | "rmcp" => LIBRARY,
        // The crate root declares the modules and re-exports the catalog modules' API.
        "lib" => LIBRARY,
        _ => &[],
    }
}

/// Arrows the table does not allow yet, each with the reason it stays: (file, layer it
/// reaches, why). Empty: every arrow of the house follows the table.
const EXCEPTIONS: &[(&str, &str, &str)] = &[];

/// One source file: its crate, its module path inside the crate, and its layer.
struct Source {
    path: PathBuf,
    /// The crate root's folder (`src`, `cli/src`, `worker/src`, …).
    root: PathBuf,
    /// The module path of the file inside its crate (`["client", "cache"]`).
    module: Vec<String>,
    /// The layer of the file.
    layer: String,
    /// Whether the crate is the library (`crate::` then names a library layer).
    library: bool,
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The module path of `file` below the crate root `root` (`mod.rs`, `lib.rs` and `main.rs`
/// name their folder).
fn module_of(root: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(root).unwrap_or(file);
    let mut parts: Vec<String> = rel
        .iter()
        .map(|s| s.to_string_lossy().trim_end_matches(".rs").to_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The catalog modules, at the library's root (where `build.rs` compiles them too, by path),
/// and `catalog`, the module that re-exports their API: one layer, the lowest.
const CATALOG_MODULES: &[&str] = &[
    "access",
    "build_script",
    "catalog",
    "compile",
    "diag",
    "json",
    "oms",
    "options",
    "pack",
    "release",
    "search",
    "sign",
    "skill",
    "view",
    "walk",
];

/// The layer of a library module path (its first segment; the catalog modules are one layer).
fn library_layer(module: &[String]) -> Option<String> {
    let first = module.first()?.as_str();
    let layer = match first {
        m if CATALOG_MODULES.contains(&m) => "catalog".to_owned(),
        m => m.to_owned(),
    };
    Some(layer)
}

fn sources() -> Vec<Source> {
    let repo = repo();
    let mut out = Vec::new();
    let mut lib = Vec::new();
    rust_files(&repo.join("src"), &mut lib);
    for path in lib {
        let rel = path.strip_prefix(&repo).unwrap_or(&path).to_path_buf();
        let root = PathBuf::from("src");
        let module = module_of(&root, &rel);
        let layer = library_layer(&module).unwrap_or_else(|| "lib".into());
        out.push(Source {
            path: rel,
            root,
            module,
            layer,
            library: true,
        });
    }
    let mut crates = vec![
        (PathBuf::from("cli/src"), "bin"),
        (PathBuf::from("worker/src"), "worker"),
        (PathBuf::from("rmcp/src"), "rmcp"),
        (PathBuf::from("rmcp/examples/server/src"), "rmcp"),
    ];
    if let Ok(entries) = fs::read_dir(repo.join("component")) {
        let mut dirs: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        dirs.sort();
        for d in dirs.into_iter().filter(|d| d.join("src").is_dir()) {
            let rel = d.strip_prefix(&repo).unwrap_or(&d).join("src");
            crates.push((rel, "component"));
        }
    }
    for (root, layer) in crates {
        let mut files = Vec::new();
        rust_files(&repo.join(&root), &mut files);
        for path in files {
            let rel = path.strip_prefix(&repo).unwrap_or(&path).to_path_buf();
            let module = module_of(&root, &rel);
            out.push(Source {
                path: rel,
                root: root.clone(),
                module,
                layer: layer.into(),
                library: false,
            });
        }
    }
    out
}

/// The text with comments, string and character literals blanked out (newlines kept, so
/// offsets keep their line numbers).
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        if rest.starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                out.push(b' ');
                i += 1;
            }
        } else if rest.starts_with(b"/*") {
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    out.extend_from_slice(b"  ");
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    out.extend_from_slice(b"  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(if b[i] == b'\n' { b'\n' } else { b' ' });
                    i += 1;
                }
            }
        } else if rest.starts_with(b"r#\"")
            || rest.starts_with(b"r\"")
            || rest.starts_with(b"br#\"")
            || rest.starts_with(b"br\"")
        {
            // A raw string: r"…", r#"…"#, br#"…"#.
            let start = i;
            let mut j = i;
            while b[j] != b'#' && b[j] != b'"' {
                j += 1;
            }
            let hashes = b[j..].iter().take_while(|&&c| c == b'#').count();
            let mut end = b"\"".to_vec();
            end.extend(std::iter::repeat_n(b'#', hashes));
            j += hashes + 1;
            while j < b.len() && !b[j..].starts_with(&end) {
                j += 1;
            }
            j = (j + end.len()).min(b.len());
            for &c in &b[start..j] {
                out.push(if c == b'\n' { b'\n' } else { b' ' });
            }
            i = j;
        } else if b[i] == b'"' {
            out.push(b' ');
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    out.push(b' ');
                    i += 1;
                }
                if i < b.len() {
                    out.push(if b[i] == b'\n' { b'\n' } else { b' ' });
                    i += 1;
                }
            }
            out.push(b' ');
            i += 1;
        } else if b[i] == b'\'' && (rest.get(2) == Some(&b'\'') || rest.get(1) == Some(&b'\\')) {
            // A character literal ('x', '\n', '\''); a lifetime has no closing quote.
            let len = if rest.get(1) == Some(&b'\\') {
                rest.iter()
                    .skip(2)
                    .position(|&c| c == b'\'')
                    .map_or(1, |p| p + 3)
            } else {
                3
            };
            out.extend(std::iter::repeat_n(b' ', len.min(rest.len())));
            i += len;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Every path to another module in `code`: (line, crate-absolute path, as written). `super`
/// is resolved against `module`; `crate::{a, b::c}` gives `a` and `b::c`.
fn paths(code: &str, module: &[String]) -> Vec<(usize, Vec<String>, String)> {
    let b = code.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !ident(b[i]) || (i > 0 && (ident(b[i - 1]) || b[i - 1] == b':')) {
            i += 1;
            continue;
        }
        let start = i;
        // Read `a::b::c` (or up to a `{`).
        let mut segs: Vec<String> = Vec::new();
        let mut j = i;
        loop {
            let s = j;
            while j < b.len() && ident(b[j]) {
                j += 1;
            }
            segs.push(code[s..j].to_owned());
            if b[j..].starts_with(b"::") && b.get(j + 2).is_some_and(|&c| ident(c)) {
                j += 2;
            } else {
                break;
            }
        }
        let braced = b[j..].starts_with(b"::{");
        i = j.max(start + 1);
        let head = segs[0].as_str();
        let base: Vec<String> = match head {
            "crate" => Vec::new(),
            "skills_edge" => Vec::new(),
            "super" => {
                let ups = segs.iter().take_while(|s| *s == "super").count();
                let mut m = module.to_vec();
                for _ in 0..ups {
                    m.pop();
                }
                segs.drain(..ups - 1);
                m
            }
            _ => continue,
        };
        let tail: Vec<String> = segs[1..].to_vec();
        let line = code[..start].matches('\n').count() + 1;
        let written = code[start..j].to_owned();
        let mut push = |extra: &[String]| {
            let mut p = base.clone();
            p.extend(tail.iter().cloned());
            p.extend(extra.iter().cloned());
            if !p.is_empty() {
                out.push((line, p, written.clone()));
            }
        };
        if braced {
            // The first segment of each item of the group, at depth 1.
            let mut k = j + 3;
            let mut depth = 1;
            let mut item_start = true;
            while k < b.len() && depth > 0 {
                match b[k] {
                    b'{' => depth += 1,
                    b'}' => depth -= 1,
                    b',' if depth == 1 => item_start = true,
                    c if depth == 1 && item_start && ident(c) => {
                        let s = k;
                        while k < b.len() && ident(b[k]) {
                            k += 1;
                        }
                        item_start = false;
                        let name = &code[s..k];
                        if name != "self" {
                            push(&[name.to_owned()]);
                        } else {
                            push(&[]);
                        }
                        continue;
                    }
                    _ => {}
                }
                k += 1;
            }
            i = k;
        } else {
            push(&[]);
        }
    }
    out
}

/// The file of its crate that the module path `p` names, if one does (the longest prefix).
fn file_of(root: &Path, p: &[String], files: &BTreeSet<PathBuf>) -> Option<PathBuf> {
    for n in (0..=p.len()).rev() {
        let mut dir = root.to_path_buf();
        for s in &p[..n] {
            dir.push(s);
        }
        let candidates = if n == 0 {
            vec![root.join("lib.rs"), root.join("main.rs")]
        } else {
            vec![dir.with_extension("rs"), dir.join("mod.rs")]
        };
        if let Some(f) = candidates.into_iter().find(|c| files.contains(c)) {
            return Some(f);
        }
    }
    None
}

#[test]
fn imports_follow_the_table_and_make_no_circle() {
    let sources = sources();
    for file in [
        "src/http/endpoint.rs",
        "cli/src/main.rs",
        "cli/src/stdio.rs",
    ] {
        assert!(
            sources.iter().any(|s| s.path == Path::new(file)),
            "{file} was not found below {}",
            repo().display()
        );
    }
    let files: BTreeSet<PathBuf> = sources.iter().map(|s| s.path.clone()).collect();
    let mut broken = Vec::new();
    let mut used_exceptions = BTreeSet::new();
    let mut graph: BTreeMap<PathBuf, BTreeMap<PathBuf, usize>> = BTreeMap::new();
    for s in &sources {
        let text = fs::read_to_string(repo().join(&s.path)).unwrap_or_default();
        let code = code_only(&text);
        for (line, p, written) in paths(&code, &s.module) {
            let head = written.split("::").next().unwrap_or("");
            // A path into the library: from the library itself, or `skills_edge::` outside it.
            let into_library =
                (s.library && head != "skills_edge") || head.starts_with("skills_edge");
            if into_library {
                let Some(target) = library_layer(&p) else {
                    continue;
                };
                if target != s.layer && target != "lib" && LIBRARY.contains(&target.as_str()) {
                    let ok = allowed(&s.layer).contains(&target.as_str());
                    let excepted = EXCEPTIONS
                        .iter()
                        .find(|(f, t, _)| Path::new(f) == s.path && *t == target);
                    if let Some(e) = excepted {
                        used_exceptions.insert(*e);
                    } else if !ok {
                        broken.push(format!(
                            "{}:{line}: `{written}` makes {} import {target}; {} may import only {:?} (docs/architecture.md)",
                            s.path.display(),
                            s.layer,
                            s.layer,
                            allowed(&s.layer)
                        ));
                    }
                } else if target == "js" && s.layer != "js" {
                    broken.push(format!(
                        "{}:{line}: `{written}` makes the library import {target}, an adapter; nothing imports an adapter",
                        s.path.display()
                    ));
                }
            }
            // The graph of files of one crate.
            let same_crate = head == "crate" || head == "super";
            if same_crate
                && let Some(f) = file_of(&s.root, &p, &files)
                && f != s.path
            {
                graph
                    .entry(s.path.clone())
                    .or_default()
                    .entry(f)
                    .or_insert(line);
            }
        }
    }
    for e in EXCEPTIONS {
        assert!(
            used_exceptions.contains(e),
            "the exception {e:?} no longer matches any import: remove it from EXCEPTIONS"
        );
    }
    // Circles: a file that reaches itself through the files it imports.
    for start in graph.keys() {
        let mut stack = vec![(start.clone(), vec![start.clone()])];
        let mut seen = BTreeSet::new();
        while let Some((at, trail)) = stack.pop() {
            for next in graph.get(&at).into_iter().flat_map(|m| m.keys()) {
                if next == start {
                    let mut names: Vec<String> =
                        trail.iter().map(|p| p.display().to_string()).collect();
                    names.push(start.display().to_string());
                    let line = graph[&at][next];
                    broken.push(format!(
                        "{}:{line}: closes a circle of imports: {} (a file may not import a file that imports it back)",
                        at.display(),
                        names.join(" -> ")
                    ));
                } else if seen.insert(next.clone()) {
                    let mut t = trail.clone();
                    t.push(next.clone());
                    stack.push((next.clone(), t));
                }
            }
        }
    }
    broken.sort();
    broken.dedup();
    assert!(
        broken.is_empty(),
        "imports that break the house's shape:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_reader_sees_paths_and_skips_comments_and_strings() {
    let module = vec!["host".to_owned(), "client".to_owned(), "cache".to_owned()];
    let code = code_only(
        "use crate::protocol::{CacheScope, reply::{self, x}};\n// use crate::server::Config;\nlet s = \"crate::http\"; let c = '\"'; let l: &'a str;\nfn f() { super::super::entry::Entry::new(); skills_edge::server::Config::default(); }\n",
    );
    let found: Vec<(usize, String)> = paths(&code, &module)
        .into_iter()
        .map(|(line, p, _)| (line, p.join("::")))
        .collect();
    assert_eq!(
        found,
        vec![
            (1, "protocol::CacheScope".to_owned()),
            (1, "protocol::reply".to_owned()),
            (4, "host::entry::Entry::new".to_owned()),
            (4, "server::Config::default".to_owned()),
        ]
    );
    assert_eq!(
        library_layer(&["client".into(), "cache".into()]).as_deref(),
        Some("client")
    );
    assert_eq!(library_layer(&["skill".into()]).as_deref(), Some("catalog"));
    assert!(!allowed("host").contains(&"server"));
    assert!(!allowed("http").contains(&"settings"));
}

/// Files by concept (issue "Lean where it grew"): no source file over this many lines, its
/// tests left out: the inline test module (`#[cfg(test)] mod …` at the end) and the code of
/// its doc examples (the lines of doc comments inside their fences), which run as doctests.
const MAX_FILE_LINES: usize = 700;

/// No function (from `fn` to its closing brace) over this many lines.
const MAX_FN_LINES: usize = 100;

/// The files over [`MAX_FILE_LINES`] today, each with its count: a listed file may shrink,
/// never grow, and leaves the list once within the bound. Being split now; trimmed as they are.
const LONG_FILES: &[(&str, usize)] = &[("src/skill/frontmatter/sdk_subset/reader.rs", 876)];

/// The functions over [`MAX_FN_LINES`] today: (file, function, lines), the same rules.
const LONG_FNS: &[(&str, &str, usize)] = &[
    ("src/host/archive/tar.rs", "read_tar", 252),
    ("src/host/archive/zip.rs", "member", 281),
    ("src/host/archive/zip.rs", "read_zip", 140),
    ("src/http/bearer.rs", "new", 121),
    ("src/access.rs", "parse_rules", 141),
    ("src/compile/fallback.rs", "fallback_tools_json", 163),
    ("src/compile/skill_md.rs", "check_skill_md", 168),
    (
        "src/skill/frontmatter/scalar.rs",
        "resolve_plain_inner",
        102,
    ),
    (
        "src/skill/frontmatter/sdk_subset/constructs.rs",
        "find",
        144,
    ),
    ("src/skill/frontmatter/tree.rs", "read", 147),
];

/// The lines of `code` (comments and literals blanked) before its inline test module.
fn non_test_lines(code: &str) -> Vec<&str> {
    let lines: Vec<&str> = code.lines().collect();
    let end = (0..lines.len())
        .find(|&i| {
            lines[i].trim_end() == "#[cfg(test)]"
                && lines[i + 1..]
                    .iter()
                    .find(|l| !l.starts_with("#["))
                    .is_some_and(|l| l.starts_with("mod ") || l.starts_with("pub(crate) mod "))
        })
        .unwrap_or(lines.len());
    lines[..end].to_vec()
}

/// How many of the first `limit` lines of `text` are the code of doc examples: doc comment
/// lines (`///`, `//!`) from a fence (a line of three backticks, with or without a language)
/// to the closing one, both fences included.
fn doc_example_lines(text: &str, limit: usize) -> usize {
    let mut inside = false;
    let mut count = 0;
    for line in text.lines().take(limit) {
        let t = line.trim_start();
        let Some(doc) = t.strip_prefix("///").or_else(|| t.strip_prefix("//!")) else {
            inside = false;
            continue;
        };
        let fence = doc.trim_start().starts_with("```");
        if inside || fence {
            count += 1;
        }
        if fence {
            inside = !inside;
        }
    }
    count
}

#[test]
fn doc_examples_are_counted_as_tests() {
    let text = "/// A thing.\n///\n/// ```\n/// let x = 1;\n/// # let y = 2;\n/// ```\n///\n/// ```text\n/// out\n/// ```\nfn f() {}\n// ```\n";
    assert_eq!(doc_example_lines(text, 100), 7);
    assert_eq!(doc_example_lines(text, 4), 2);
}

/// Every function with a body in `code`: (name, lines from `fn` to its closing brace).
fn functions(code: &str) -> Vec<(String, usize)> {
    let b = code.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let line_at = |i: usize| b[..i].iter().filter(|&&c| c == b'\n').count();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(at) = code[i..].find("fn ").map(|p| p + i) {
        i = at + 3;
        if at > 0 && ident(b[at - 1]) {
            continue;
        }
        let name_start = at
            + 3
            + b[at + 3..]
                .iter()
                .take_while(|c| c.is_ascii_whitespace())
                .count();
        let name_len = b[name_start..].iter().take_while(|&&c| ident(c)).count();
        if name_len == 0 {
            continue;
        }
        let name = code[name_start..name_start + name_len].to_owned();
        // The body's opening brace, unless a `;` ends a declaration first.
        let Some(open) = b[name_start..]
            .iter()
            .position(|&c| c == b'{' || c == b';')
            .map(|p| p + name_start)
            .filter(|&p| b[p] == b'{')
        else {
            continue;
        };
        let mut depth = 0usize;
        let close = (open..b.len()).find(|&k| {
            match b[k] {
                b'{' => depth += 1,
                b'}' => depth -= 1,
                _ => {}
            }
            depth == 0
        });
        if let Some(close) = close {
            out.push((name, line_at(close) - line_at(at) + 1));
        }
    }
    out
}

#[test]
fn files_and_functions_stay_within_their_bounds() {
    let mut problems = Vec::new();
    let mut seen_files: BTreeSet<String> = BTreeSet::new();
    let mut seen_fns: BTreeSet<(String, String)> = BTreeSet::new();
    for s in sources() {
        let file = s.path.to_string_lossy().replace('\\', "/");
        if file.ends_with("/tests.rs") || file.contains("/tests/") {
            continue;
        }
        seen_files.insert(file.clone());
        let Ok(text) = fs::read_to_string(repo().join(&s.path)) else {
            problems.push(format!("{file}: cannot be read"));
            continue;
        };
        let code = code_only(&text);
        let lines = non_test_lines(&code);
        let counted = lines.len() - doc_example_lines(&text, lines.len());
        let listed = LONG_FILES.iter().find(|(f, _)| *f == file).map(|&(_, n)| n);
        match (counted > MAX_FILE_LINES, listed) {
            (true, None) => problems.push(format!(
                "{file}: {counted} lines (the bound is {MAX_FILE_LINES}): split it by concept"
            )),
            (true, Some(n)) if counted > n => problems.push(format!(
                "{file}: {counted} lines, grown from the {n} its exception allows: split it by concept"
            )),
            (false, Some(n)) => problems.push(format!(
                "{file}: {counted} lines, within the bound: remove its exception ({n}) from LONG_FILES"
            )),
            _ => {}
        }
        let mut longest: BTreeMap<String, usize> = BTreeMap::new();
        for (name, n) in functions(&lines.join("\n")) {
            let e = longest.entry(name).or_default();
            *e = (*e).max(n);
        }
        for (name, n) in longest {
            seen_fns.insert((file.clone(), name.clone()));
            let listed = LONG_FNS
                .iter()
                .find(|(f, g, _)| *f == file && *g == name)
                .map(|&(_, _, n)| n);
            match (n > MAX_FN_LINES, listed) {
                (true, None) => problems.push(format!(
                    "{file}: fn {name} has {n} lines (the bound is {MAX_FN_LINES}): split it"
                )),
                (true, Some(m)) if n > m => problems.push(format!(
                    "{file}: fn {name} has {n} lines, grown from the {m} its exception allows"
                )),
                (false, Some(m)) => problems.push(format!(
                    "{file}: fn {name} has {n} lines, within the bound: remove its exception ({m}) from LONG_FNS"
                )),
                _ => {}
            }
        }
    }
    // An exception whose file or function is gone is stale too.
    for (f, _) in LONG_FILES.iter().filter(|(f, _)| !seen_files.contains(*f)) {
        problems.push(format!("{f}: listed in LONG_FILES but gone: remove it"));
    }
    for (f, g, _) in LONG_FNS
        .iter()
        .filter(|(f, g, _)| !seen_fns.contains(&(f.to_string(), g.to_string())))
    {
        problems.push(format!(
            "{f}: fn {g} listed in LONG_FNS but gone: remove it"
        ));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_function_reader_measures_bodies_and_skips_declarations() {
    let code = code_only(
        "trait T {\n    fn decl(&self);\n}\nfn two() {\n    let s = \"fn fake() {\";\n    let f: fn(u8) -> u8 = id;\n}\nfn one() {}\n",
    );
    assert_eq!(
        functions(&code),
        [("two".to_owned(), 4), ("one".to_owned(), 1)]
    );
    let with_tests = "fn a() {}\n#[cfg(test)]\nmod tests {\n    fn b() {}\n}\n";
    assert_eq!(non_test_lines(with_tests), ["fn a() {}"]);
}
