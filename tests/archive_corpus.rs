//! The host's archive readers against the extractors people use: every archive of a crafted
//! corpus (`archive_corpus/make_corpus.py`: every order of two extended tar headers and some of
//! three, size overrides, duplicate and case-colliding names, links, zip local headers that
//! differ from the central directory, trailing and interleaved bytes, and well-formed controls)
//! is either refused by the host, or extracted by each of GNU tar, bsdtar (libarchive), Python's
//! `tarfile` (tar.gz) and `zipfile`, Info-ZIP's `unzip` and bsdtar (zip) to exactly the
//! host's files: the same paths with the same bytes, nothing more.
//!
//! The tools are required: a missing one fails the test, naming the Debian package that has
//! it (`scripts/setup.sh` installs them). Each extraction runs in a fresh directory with a time
//! bound.

use skills_edge::host::archive::{unpack, ArchiveFormat};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long one extraction may take (each archive is a few KiB).
const BOUND: Duration = Duration::from_secs(60);

/// What an extractor left at a path: a file's bytes, or something that is not a file.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Node {
    File(Vec<u8>),
    Other(String),
}

/// A fresh directory under the system's temporary directory, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> Scratch {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static N: AtomicUsize = AtomicUsize::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let p = std::env::temp_dir().join(format!(
            "skills-edge-corpus-{}-{n}-{tag}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        Scratch(p)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `cmd` with no input, its output in files of `logs`, killed past [`BOUND`]; `Ok` on
/// exit status 0, else what it said.
fn run(mut cmd: Command, logs: &Path) -> Result<(), String> {
    let out = logs.join("stdout");
    let err = logs.join("stderr");
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .map_err(|e| format!("cannot start {cmd:?}: {e}"))?;
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > BOUND {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("{cmd:?} ran past {BOUND:?}"));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    if status.success() {
        Ok(())
    } else {
        let said = std::fs::read_to_string(&err).unwrap_or_default();
        Err(format!("exit {status}: {}", said.trim()))
    }
}

/// Every file and non-directory under `dir`, by `/`-separated path relative to it.
fn walk(dir: &Path) -> BTreeMap<String, Node> {
    let mut out = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let path = e.path();
            let rel = path
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let kind = std::fs::symlink_metadata(&path).unwrap().file_type();
            if kind.is_dir() {
                todo.push(path);
            } else if kind.is_file() {
                out.insert(rel, Node::File(std::fs::read(&path).unwrap()));
            } else if kind.is_symlink() {
                let to = std::fs::read_link(&path).unwrap();
                out.insert(rel, Node::Other(format!("symlink to {}", to.display())));
            } else {
                out.insert(rel, Node::Other(format!("{kind:?}")));
            }
        }
    }
    out
}

/// The extractors of a format, each as (name, command extracting `archive` into `into`).
type Extractor = (&'static str, fn(&Path, &Path) -> Command);

const PY_TAR: &str = "import sys, tarfile\n\
t = tarfile.open(sys.argv[1])\n\
kw = {'filter': 'data'} if hasattr(tarfile, 'data_filter') else {}\n\
t.extractall(sys.argv[2], **kw)\n";

const PY_ZIP: &str = "import sys, zipfile\nzipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])\n";

fn tar_extractors() -> [Extractor; 3] {
    [
        ("GNU tar", |a, d| {
            let mut c = Command::new("tar");
            c.arg("-xzf").arg(a).arg("-C").arg(d).arg("--no-same-owner");
            c
        }),
        ("bsdtar", |a, d| {
            let mut c = Command::new("bsdtar");
            c.arg("-xf").arg(a).arg("-C").arg(d);
            c
        }),
        ("Python tarfile", |a, d| {
            let mut c = Command::new("python3");
            c.arg("-c").arg(PY_TAR).arg(a).arg(d);
            c
        }),
    ]
}

fn zip_extractors() -> [Extractor; 3] {
    [
        ("unzip", |a, d| {
            let mut c = Command::new("unzip");
            c.arg("-qq").arg("-o").arg(a).arg("-d").arg(d);
            c
        }),
        ("bsdtar", |a, d| {
            let mut c = Command::new("bsdtar");
            c.arg("-xf").arg(a).arg("-C").arg(d);
            c
        }),
        ("Python zipfile", |a, d| {
            let mut c = Command::new("python3");
            c.arg("-c").arg(PY_ZIP).arg(a).arg(d);
            c
        }),
    ]
}

/// Fails, naming the package, when a tool is not installed.
fn require_tools() {
    for (tool, arg, package) in [
        ("tar", "--version", "tar (GNU tar)"),
        ("bsdtar", "--version", "libarchive-tools"),
        ("unzip", "-v", "unzip"),
        ("python3", "--version", "python3"),
    ] {
        let found = Command::new(tool)
            .arg(arg)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        assert!(
            found,
            "`{tool}` is missing: the archive differential test needs it (Debian package \
             `{package}`; `bash scripts/setup.sh` installs it)"
        );
    }
    let gnu = Command::new("tar").arg("--version").output().unwrap();
    assert!(
        String::from_utf8_lossy(&gnu.stdout).contains("GNU tar"),
        "`tar` is not GNU tar; the archive differential test compares with GNU tar"
    );
}

#[test]
fn every_crafted_archive_is_refused_or_extracted_alike_by_every_tool() {
    require_tools();
    let corpus = Scratch::new("archives");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/archive_corpus/make_corpus.py");
    let made = Command::new("python3")
        .arg(&script)
        .arg(&corpus.0)
        .output()
        .expect("python3 runs the corpus generator");
    assert!(
        made.status.success(),
        "make_corpus.py failed: {}",
        String::from_utf8_lossy(&made.stderr)
    );
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(corpus.0.join("manifest.json")).unwrap()).unwrap();
    let manifest = manifest.as_array().unwrap();
    assert!(manifest.len() > 150, "the corpus is too small");
    let (mut refused, mut agreed) = (0, 0);
    let mut failures = Vec::new();
    for item in manifest {
        let file = item["file"].as_str().unwrap();
        let expect = item["expect"].as_str().unwrap();
        let (format, extractors) = match item["format"].as_str().unwrap() {
            "tar.gz" => (ArchiveFormat::TarGz, tar_extractors()),
            _ => (ArchiveFormat::Zip, zip_extractors()),
        };
        let path = corpus.0.join(file);
        let bytes = std::fs::read(&path).unwrap();
        let members = match unpack(format, &bytes, file) {
            Err(e) => {
                if expect == "accept" {
                    failures.push(format!("{file}: a control archive was refused: {e}"));
                }
                refused += 1;
                continue;
            }
            Ok(m) => m,
        };
        let host: BTreeMap<String, Node> = members
            .into_iter()
            .map(|m| (m.path, Node::File(m.bytes)))
            .collect();
        for (tool, extract) in extractors {
            let out = Scratch::new("out");
            let logs = Scratch::new("logs");
            let got = run(extract(&path, &out.0), &logs.0).map(|()| walk(&out.0));
            match got {
                Ok(got) if got == host => {}
                Ok(got) => failures.push(format!(
                    "{file}: the host read {:?}, {tool} extracted {:?}",
                    summary(&host),
                    summary(&got)
                )),
                Err(e) => failures.push(format!(
                    "{file}: the host read {:?}, {tool} failed: {e}",
                    summary(&host)
                )),
            }
        }
        agreed += 1;
    }
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // Both outcomes occur: the controls are read, the attacks mostly refused.
    assert!(
        agreed >= 20 && refused >= 100,
        "{agreed} read, {refused} refused"
    );
}

/// Paths and sizes (or what the path is), for messages.
fn summary(m: &BTreeMap<String, Node>) -> Vec<String> {
    m.iter()
        .map(|(p, n)| match n {
            Node::File(b) => format!(
                "{p} ({} bytes: {:?})",
                b.len(),
                String::from_utf8_lossy(b.get(..b.len().min(24)).unwrap_or_default())
            ),
            Node::Other(o) => format!("{p} ({o})"),
        })
        .collect()
}
