//! Build diagnostics: every rule a skills folder must meet, with a stable id, and the
//! message a skill author sees (what, where, which rule, and the fix).

use std::fmt;

/// The construct a `frontmatter-sdk-*` warning names ([`Rule::SdkSubset`]).
pub use crate::skill::frontmatter::sdk_subset::SdkRule;

/// How serious a diagnostic is.
///
/// ```
/// use skills_edge::catalog::{compile::SourceTree, diag::Severity, Catalog, CatalogError};
/// let mut tree = SourceTree::default();
/// tree.add_file("hello/SKILL.md", "---\nname: hello\n---\n");
/// tree.add_file("hello/.DS_Store", "junk");
/// let Err(CatalogError::Compile(e)) = Catalog::compile(tree, None) else { panic!("refused") };
/// let d = |s| e.diagnostics.iter().find(|d| d.severity == s).unwrap().render("skills");
/// assert!(d(Severity::Error).starts_with("error[description-required]: skills/hello/SKILL.md"));
/// // A warning: the file would be published, but not served.
/// assert!(d(Severity::Warning).starts_with("warning[junk-file]: skills/hello/.DS_Store: "));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// The catalog cannot be published; the build stops.
    Error,
    /// Allowed, but worth the author's attention.
    Warning,
}

/// Every rule the catalog compiler enforces. `Rule::id` is stable and documented in the
/// docs/build-errors.md ("What each build error means").
///
/// ```
/// use skills_edge::catalog::{compile::SourceTree, Catalog, CatalogError};
/// use skills_edge::catalog::diag::Rule;
/// let mut tree = SourceTree::default();
/// tree.add_file("hello/SKILL.md", "---\nname: howdy\ndescription: Say hello.\n---\n");
/// let Err(CatalogError::Compile(e)) = Catalog::compile(tree, None) else { panic!("refused") };
/// let d = e.errors().next().unwrap();
/// assert_eq!(d.rule, Rule::NameMatchesDirectory);
/// assert_eq!(d.rule.id(), "name-matches-directory", "the id build logs and docs use");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// A frontmatter problem (delimiters, YAML syntax, a construct hosts would read
    /// differently); the id comes from the frontmatter parser.
    Frontmatter(&'static str),
    /// `SKILL.md` is not valid UTF-8.
    SkillMdUtf8,
    /// `name` is missing from the frontmatter.
    NameRequired,
    /// `name` is not a string.
    NameType,
    /// `name` breaks the naming rules.
    NameFormat,
    /// `name` differs from the skill's directory name.
    NameMatchesDirectory,
    /// `description` is missing.
    DescriptionRequired,
    /// `description` is not a string.
    DescriptionType,
    /// `description` is empty or longer than 1024 characters.
    DescriptionLength,
    /// `compatibility` is not a string.
    CompatibilityType,
    /// `compatibility` is empty or longer than 500 characters.
    CompatibilityLength,
    /// `license` is not a string.
    LicenseType,
    /// `metadata` is not a map of strings to strings.
    MetadataType,
    /// `metadata.tags` is not a list of tags separated by commas.
    MetadataTags,
    /// `allowed-tools` is neither a string nor a list of strings.
    AllowedToolsType,
    /// A path segment outside `[A-Za-z0-9._~-]`, or `.`/`..`/empty.
    PathSegment,
    /// A file or directory name that is not UTF-8.
    PathUtf8,
    /// A symbolic link in the skills folder.
    NoSymlinks,
    /// Something that is neither a regular file nor a directory (socket, FIFO, device).
    RegularFilesOnly,
    /// A `SKILL.md` whose name is not spelled exactly `SKILL.md`.
    SkillMdFilename,
    /// `SKILL.md` directly in the skills root (a skill needs its own directory).
    SkillAtRoot,
    /// More than 512 files in one skill (nested skills' files included).
    LimitFiles,
    /// More than 16 MiB in one skill (nested skills' files included).
    LimitSize,
    /// A skill's `.tar.gz` for the mirror is over 25 MiB (the Static Assets file limit).
    LimitArchive,
    /// More skills than a `skills/list` can give within the clients' 64 pages at the largest
    /// page size (`crate::compile::MAX_SKILLS`).
    LimitSkills,
    /// The skills folder cannot be read.
    Io,
    /// The signing key (`SKILLS_SIGNING_KEY`, `--sign`) cannot be read or is not an Ed25519
    /// secret key; the diagnostic's path is the key file as given, and its message never
    /// quotes the file.
    SigningKey,
    /// The OMS signing key (`SKILLS_OMS_KEY`, `--oms-sign`) cannot be read or is not a P-256
    /// private key, or a skill has a file that an OpenSSF Model Signing signature cannot cover
    /// (a git path at its root, which `model_signing` leaves out) (`crate::oms`).
    OmsSignature,
    /// A path given twice, or both as a file and as a directory (only a program that builds
    /// the source tree itself can do this; no file system can).
    DuplicatePath,
    /// `skills-edge.toml` does not read: not TOML, an unknown key, a missing or empty
    /// `skills`/`scopes`, a pattern with a character that is not a pattern character, a scope
    /// that is not an OAuth scope token (`crate::access`).
    AccessFile,
    /// A pattern of `skills-edge.toml` matches no skill.
    AccessPattern,
    /// A nested skill's audience differs from its parent's.
    AccessNested,
    /// More distinct scope sets than `crate::access::MAX_PRIVATE_CLASSES`.
    AccessClasses,
    /// Two skills share a name but not their audience: how a shared name is served (left out
    /// of the mirror, a path-based prompt name) is decided for the whole catalog, so a caller
    /// would learn the hidden one's name from the visible one's.
    AccessName,
    /// Warning: the catalog has private skills; they are served only where authentication is
    /// configured, and to nobody without it.
    AccessNeedsAuth,
    /// Warning: two skills share a name.
    DuplicateName,
    /// Warning: a `metadata` key uses the reserved `io.modelcontextprotocol/` prefix.
    ReservedMetadataKey,
    /// Warning: a file outside every skill; it is not served.
    FileOutsideSkill,
    /// Warning: an operating-system junk file (`.DS_Store`, `Thumbs.db`, …); it is not served.
    JunkFile,
    /// Two names in one directory differ only by letter case
    /// (`crate::skill::uri::fold_case`): an error inside a skill (its manifest and archive
    /// would hold two paths that are one file on macOS and Windows), a warning between
    /// directories outside every skill.
    CaseCollision,
    /// Warning: a path too long for a plain ustar header in the skill's mirror archive (it is
    /// written with a GNU long-name entry, which ustar-only readers skip).
    ArchiveLongPath,
    /// Warning: an invalid skill left out of the catalog (`crate::compile::Options::skip_invalid`);
    /// its errors follow as warnings.
    SkillLeftOut,
    /// Warning (an error in strict mode): frontmatter that the official MCP TypeScript SDK
    /// 2.4's reader cannot read, or reads differently; the id comes from the lint
    /// (`SdkRule::id`).
    SdkSubset(SdkRule),
}

impl Rule {
    /// The stable, kebab-case id of the rule.
    pub fn id(self) -> &'static str {
        match self {
            Rule::Frontmatter(id) => id,
            Rule::SkillMdUtf8 => "skill-md-utf8",
            Rule::NameRequired => "name-required",
            Rule::NameType => "name-type",
            Rule::NameFormat => "name-format",
            Rule::NameMatchesDirectory => "name-matches-directory",
            Rule::DescriptionRequired => "description-required",
            Rule::DescriptionType => "description-type",
            Rule::DescriptionLength => "description-length",
            Rule::CompatibilityType => "compatibility-type",
            Rule::CompatibilityLength => "compatibility-length",
            Rule::LicenseType => "license-type",
            Rule::MetadataType => "metadata-type",
            Rule::MetadataTags => "metadata-tags",
            Rule::AllowedToolsType => "allowed-tools-type",
            Rule::PathSegment => "path-segment",
            Rule::PathUtf8 => "path-utf8",
            Rule::NoSymlinks => "no-symlinks",
            Rule::RegularFilesOnly => "regular-files-only",
            Rule::SkillMdFilename => "skill-md-filename",
            Rule::SkillAtRoot => "skill-at-root",
            Rule::LimitFiles => "limit-files",
            Rule::LimitSize => "limit-size",
            Rule::LimitArchive => "limit-archive",
            Rule::LimitSkills => "limit-skills",
            Rule::Io => "io",
            Rule::SigningKey => "signing-key",
            Rule::OmsSignature => "oms-signature",
            Rule::DuplicatePath => "duplicate-path",
            Rule::AccessFile => "access-file",
            Rule::AccessPattern => "access-pattern",
            Rule::AccessNested => "access-nested",
            Rule::AccessClasses => "access-classes",
            Rule::AccessName => "access-name",
            Rule::AccessNeedsAuth => "access-needs-auth",
            Rule::DuplicateName => "duplicate-name",
            Rule::ReservedMetadataKey => "reserved-metadata-key",
            Rule::FileOutsideSkill => "file-outside-skill",
            Rule::JunkFile => "junk-file",
            Rule::CaseCollision => "case-collision",
            Rule::SkillLeftOut => "skill-left-out",
            Rule::ArchiveLongPath => "archive-long-path",
            Rule::SdkSubset(rule) => rule.id(),
        }
    }
}

/// One finding about a skills folder.
///
/// ```
/// use skills_edge::catalog::{compile::SourceTree, Catalog, CatalogError};
/// let mut tree = SourceTree::default();
/// tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say: hello: world\n---\n");
/// let Err(CatalogError::Compile(e)) = Catalog::compile(tree, None) else { panic!("refused") };
/// let d = e.errors().next().unwrap();
/// assert_eq!((d.path.as_str(), d.line), ("hello/SKILL.md", Some(3)));
/// assert_eq!(d.rule.id(), "frontmatter-yaml-syntax");
/// assert!(d.render("skills").starts_with("error[frontmatter-yaml-syntax]: skills/hello/SKILL.md:3: invalid YAML"));
/// assert!(d.fix.contains("quote values that contain `: `"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// The rule.
    pub rule: Rule,
    /// The file or directory, relative to the skills root, `/`-separated (`""` is the root).
    pub path: String,
    /// The 1-based line in that file, when the finding has one.
    pub line: Option<usize>,
    /// What is wrong, in one sentence.
    pub message: String,
    /// What to do about it.
    pub fix: String,
}

impl Diagnostic {
    /// A new error.
    pub(crate) fn error(
        rule: Rule,
        path: &str,
        message: impl Into<String>,
        fix: impl Into<String>,
    ) -> Self {
        Diagnostic {
            severity: Severity::Error,
            rule,
            path: path.to_owned(),
            line: None,
            message: message.into(),
            fix: fix.into(),
        }
    }

    /// A new warning.
    pub(crate) fn warning(
        rule: Rule,
        path: &str,
        message: impl Into<String>,
        fix: impl Into<String>,
    ) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(rule, path, message, fix)
        }
    }

    /// The same diagnostic with a line number.
    pub(crate) fn at_line(mut self, line: Option<usize>) -> Self {
        self.line = line;
        self
    }

    /// Renders the diagnostic with `root` (the skills folder as the user named it) in front
    /// of the path: `error[name-matches-directory]: skills/foo/SKILL.md:2: … \n  fix: …`.
    pub fn render(&self, root: &str) -> String {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let mut place = root.trim_end_matches('/').to_owned();
        if !self.path.is_empty() {
            if !place.is_empty() {
                place.push('/');
            }
            place.push_str(&self.path);
        }
        if let Some(line) = self.line {
            place.push_str(&format!(":{line}"));
        }
        format!(
            "{sev}[{}]: {place}: {}\n  fix: {}",
            self.rule.id(),
            self.message,
            self.fix
        )
    }
}

/// What a folder reader found besides regular files and directories. The native walker
/// (`walk`) and the npm package's reader both report through these constructors, so a folder
/// fails with the same message whichever tool reads it.
impl Diagnostic {
    /// A symbolic link (never followed).
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn symlink(path: &str) -> Self {
        Diagnostic::error(
            Rule::NoSymlinks,
            path,
            "this is a symbolic link; links are not followed, so its target would not be published",
            "replace the link with a copy of the file or directory it points to",
        )
    }

    /// A socket, FIFO or device.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn special_file(path: &str) -> Self {
        Diagnostic::error(
            Rule::RegularFilesOnly,
            path,
            "this is neither a regular file nor a directory (a socket, FIFO or device)",
            "remove it from the skills folder",
        )
    }

    /// A directory entry named `name` (raw bytes) in `parent` whose name is not UTF-8.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn name_not_utf8(parent: &str, name: &[u8]) -> Self {
        let mut shown = String::from("\"");
        for chunk in name.utf8_chunks() {
            shown.extend(chunk.valid().escape_debug());
            for b in chunk.invalid() {
                shown.push_str(&format!("\\x{b:02X}"));
            }
        }
        shown.push('"');
        Diagnostic::error(
            Rule::PathUtf8,
            parent,
            format!("the name {shown} is not valid UTF-8"),
            "rename it using only letters, digits and . _ ~ -",
        )
    }

    /// An entry that exists but cannot be read; `detail` is the system's reason.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn unreadable(path: &str, kind: Unreadable, detail: &str) -> Self {
        let (message, fix) = match kind {
            Unreadable::Root => (
                "cannot read the skills folder",
                "create the folder or point SKILLS_DIR at an existing one",
            ),
            Unreadable::Directory => ("cannot list this directory", "check its permissions"),
            Unreadable::Entry => ("cannot read it", "check its permissions"),
            Unreadable::File => ("cannot read the file", "check its permissions"),
        };
        Diagnostic::error(Rule::Io, path, format!("{message}: {detail}"), fix)
    }

    /// The skills folder itself is not a directory.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn root_not_a_directory() -> Self {
        Diagnostic::error(
            Rule::Io,
            "",
            "the skills folder is not a directory",
            "point SKILLS_DIR (or the check command) at a directory of skills",
        )
    }
}

/// What could not be read (see `Diagnostic::unreadable`).
///
/// ```
/// use skills_edge::catalog::walk::walk;
/// let missing = walk(std::path::Path::new("no-such-skills-folder"));
/// let d = &missing.tree.diagnostics[0];
/// assert_eq!(d.rule.id(), "io");
/// assert!(d.render("skills").starts_with("error[io]: skills: cannot read the skills folder: "));
/// assert!(d.render("skills").ends_with("\n  fix: create the folder or point SKILLS_DIR at an existing one"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unreadable {
    /// The skills folder itself.
    Root,
    /// A directory that cannot be listed.
    Directory,
    /// An entry whose type cannot be read.
    Entry,
    /// A regular file whose bytes cannot be read.
    File,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(""))
    }
}

/// The compiler's verdict when a folder cannot be published: every error found (not just
/// the first), plus the warnings.
///
/// ```
/// use skills_edge::catalog::{compile::SourceTree, Catalog, CatalogError};
/// let mut tree = SourceTree::default();
/// tree.add_file("a/SKILL.md", "---\nname: a\n---\n");
/// tree.add_file("b/SKILL.md", "---\nname: B\ndescription: Skill b.\n---\n");
/// let Err(CatalogError::Compile(e)) = Catalog::compile(tree, None) else { panic!("refused") };
/// let ids: Vec<&str> = e.errors().map(|d| d.rule.id()).collect();
/// assert_eq!(ids, ["description-required", "name-format"], "every error, not just the first");
/// assert!(e.render("skills").ends_with("2 errors in the skills folder; nothing was published"));
/// ```
#[derive(Debug, Clone)]
pub struct CompileError {
    /// All diagnostics, errors and warnings, in path order.
    pub diagnostics: Vec<Diagnostic>,
}

impl CompileError {
    /// The errors only.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
    }

    /// Renders every diagnostic (see [`Diagnostic::render`]), one block per line group.
    pub fn render(&self, root: &str) -> String {
        let mut out = String::new();
        for d in &self.diagnostics {
            out.push_str(&d.render(root));
            out.push('\n');
        }
        let n = self.errors().count();
        out.push_str(&format!(
            "{n} error{} in the skills folder; nothing was published",
            if n == 1 { "" } else { "s" }
        ));
        out
    }
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(""))
    }
}

impl std::error::Error for CompileError {}
