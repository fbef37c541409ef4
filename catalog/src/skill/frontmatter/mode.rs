//! The two readings of a frontmatter block: publishing (the catalog compiler) and verifying
//! (the host).

/// How the frontmatter reader types what it reads.
///
/// Both modes read YAML 1.2 core exactly as `yaml@2` (`YAML.parse`) does, and every value
/// either mode accepts is byte for byte what `JSON.stringify(YAML.parse(text))` prints (the
/// corpus in `tests/frontmatter/` proves both against `yaml@2.9.1`). They differ only in what
/// they refuse.
///
/// [`Mode::Publish`] refuses everything that *any* reader could type differently, YAML 1.1
/// readers (PyYAML, the YAML 1.1 type registry, `yaml@2` with `version: "1.1"`) included: what
/// this project publishes must read the same everywhere.
///
/// [`Mode::Host`] verifies a skill somebody else published. The only question there is whether
/// the file matches its entry, and every current server (the official TypeScript SDK's
/// built-in reader, servers on `yaml@2`, rmcp) reads and publishes YAML 1.2. So the host mode
/// **accepts**, with exactly `yaml@2`'s values, the plain scalars that are only ambiguous
/// across YAML versions:
///
/// * `yes`/`no`/`on`/`off`/`y`/`n` in any YAML 1.1 spelling, as values or keys: strings;
/// * dates and timestamps (`2024-01-01`, `2001-12-14t21:59:43.10-05:00`): strings;
/// * integers with leading zeros (`007` → 7, `-01` → −1, `010` → 10): decimal numbers;
/// * `0o14` → 12 (YAML 1.2 octal), `1e3` → 1000, `1.5e3`, `-.5`, `+.5`: numbers;
/// * `1_000`, `0b1010`, `-0x1F`, `1:20`, `190:20:30.15`, `=`, `<<` as a value: strings;
/// * the merge key `<<` as a plain key whose value is whatever follows it (YAML 1.2 has no
///   merge key; `<<: *base` is the key `"<<"` holding the aliased node);
/// * the raw characters U+0085, U+2028 and U+2029, which YAML 1.1 reads as line breaks and
///   YAML 1.2 as text: text.
///
/// It still **refuses**, with the same rules as [`Mode::Publish`]: YAML that does not parse;
/// duplicate keys; tags (`!!str`, `!!binary`, `!foo`: values depend on the reader's tag
/// library, and some have no JSON form); keys that are not strings (`1:`, `true:`, `~:`,
/// collections: JSON cannot carry them, readers stringify them differently); `.inf`, `.nan`
/// and overflowing floats; integers beyond ±(2^53 − 1); more than one document, document
/// markers and `%` directives (`%YAML 1.1` switches readers to YAML 1.1); control
/// characters, a byte order mark inside the block and a lone CR (YAML forbids them, or
/// readers split lines differently); alias abuse, recursion and nesting deeper than
/// [`MAX_DEPTH`](super::MAX_DEPTH); more than `MAX_YAML_BYTES`; and
/// every layout where `yaml@2` and the YAML spec disagree
/// ([`Unportable`](super::FrontmatterErrorKind::Unportable)), since a host cannot know which
/// reading the publisher used.
///
/// The compiler reads in [`Mode::Publish`] ([`parse_file_strict`](super::parse_file_strict)),
/// the host in [`Mode::Host`] ([`parse_file_host`](super::parse_file_host)):
///
/// ```
/// use skills_edge_catalog::skill::frontmatter::{parse_file_host, parse_file_strict, Mode};
/// assert_eq!(Mode::default(), Mode::Publish);
/// let file = "---\nname: a\ndescription: d\nsince: 2024-01-01\n---\n";
/// assert!(parse_file_strict(file).is_err(), "a YAML 1.1 reader makes it a date");
/// let host = parse_file_host(file).unwrap();
/// assert_eq!(host.get("since").and_then(|v| v.as_str()), Some("2024-01-01"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// The catalog compiler: refuse every construct a YAML 1.1 reader types differently.
    #[default]
    Publish,
    /// The host verifier: accept constructs that are only ambiguous across YAML versions,
    /// read as YAML 1.2 core exactly as `yaml@2` reads them.
    Host,
}
