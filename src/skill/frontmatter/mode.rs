//! The two readings of a frontmatter block: publishing (the catalog compiler) and verifying
//! (the host).

/// The frontmatter reader's two readings (see the module documentation, "The two readings").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Mode {
    /// The catalog compiler: refuse every construct a YAML 1.1 reader types differently.
    #[default]
    Publish,
    /// The host verifier: accept constructs that are only ambiguous across YAML versions,
    /// read as YAML 1.2 core exactly as `yaml@2` reads them.
    Host,
}
