//! rmcp against the native stdio server and the Worker, in both protocol eras.
//!
//! `SKILLS_EDGE_BIN` is the absolute path of the native `skills-edge` command and
//! `SKILLS_EDGE_WORKER_URL` the Worker's MCP endpoint (Worker started with `PAGE_SIZE=3`);
//! scripts/test.d/32-rmcp.sh sets both. A test whose variable is missing fails and says so.

use std::collections::BTreeMap;
use std::path::PathBuf;

use rmcp::model::SkillResource;
use skills_edge_rmcp_judge::{
    bounded, check_bytes, compare_walk, connect_http, connect_stdio, judge, own_digest, Client,
    Era, Failure,
};

const HOW_TO_RUN: &str = "run `bash scripts/test.d/32-rmcp.sh`, which builds the command, \
                          starts the Worker and sets both variables";

fn required_env(name: &str, what: &str) -> Result<String, Failure> {
    match std::env::var(name) {
        Ok(value) if !value.is_empty() => Ok(value),
        _ => Err(Failure::new(format!(
            "{name} is not set: it must hold {what}; {HOW_TO_RUN}"
        ))),
    }
}

fn server_bin() -> Result<PathBuf, Failure> {
    let bin = PathBuf::from(required_env(
        "SKILLS_EDGE_BIN",
        "the absolute path of the native `skills-edge` command (cargo build -p skills-edge-cli)",
    )?);
    if bin.is_absolute() {
        Ok(bin)
    } else {
        Err(Failure::new(format!(
            "SKILLS_EDGE_BIN is {}, a relative path: give an absolute one (tests run in \
             tests/rmcp/)",
            bin.display()
        )))
    }
}

fn worker_url() -> Result<String, Failure> {
    required_env(
        "SKILLS_EDGE_WORKER_URL",
        "the Worker's MCP endpoint, e.g. http://127.0.0.1:8787/mcp, served with PAGE_SIZE=3",
    )
}

/// Judges the catalog behind `client`, then closes the connection (for stdio: end of input,
/// then the process is waited for, signalled or killed).
async fn judge_and_close(client: Client, era: Era, label: &str) -> Result<(), Failure> {
    let verdict = judge(&client, era).await;
    let closed = bounded(&format!("closing {label}"), client.cancel()).await;
    let tally = verdict?;
    closed?;
    println!("{label} at {}: {tally}", era.version());
    Ok(())
}

#[tokio::test]
async fn stdio_2026_07_28() -> Result<(), Failure> {
    let client = connect_stdio(&server_bin()?, Era::Modern).await?;
    judge_and_close(client, Era::Modern, "skills-edge stdio").await
}

#[tokio::test]
async fn stdio_2025_11_25() -> Result<(), Failure> {
    let client = connect_stdio(&server_bin()?, Era::Legacy).await?;
    judge_and_close(client, Era::Legacy, "skills-edge stdio").await
}

#[tokio::test]
async fn worker_2026_07_28() -> Result<(), Failure> {
    let url = worker_url()?;
    let client = connect_http(&url, Era::Modern).await?;
    judge_and_close(client, Era::Modern, &url).await
}

#[tokio::test]
async fn worker_2025_11_25() -> Result<(), Failure> {
    let url = worker_url()?;
    let client = connect_http(&url, Era::Legacy).await?;
    judge_and_close(client, Era::Legacy, &url).await
}

// The judge's own checks, on data with a known defect: each must fail and name it.

#[test]
fn own_digest_matches_the_fips_180_vectors() {
    assert_eq!(
        own_digest(b""),
        "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
    assert_eq!(
        own_digest(b"abc"),
        "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
}

#[test]
fn check_bytes_refuses_a_changed_byte_and_a_wrong_size() -> Result<(), Failure> {
    let file = SkillResource::from_bytes("skill://a/SKILL.md", b"abc");
    assert_eq!(check_bytes(&file, b"abc")?, 3);
    let changed = check_bytes(&file, b"abd").err().map(|e| e.to_string());
    assert!(
        changed
            .as_deref()
            .is_some_and(|m| m.contains("skill://a/SKILL.md has digest")),
        "{changed:?}"
    );
    let short = check_bytes(&file, b"ab").err().map(|e| e.to_string());
    assert!(
        short
            .as_deref()
            .is_some_and(|m| m.contains("is 2 bytes, the manifest says 3")),
        "{short:?}"
    );
    Ok(())
}

#[test]
fn compare_walk_refuses_missing_extra_and_resized_files() {
    let manifest = BTreeMap::from([
        ("skill://a/SKILL.md".to_owned(), 10),
        ("skill://a/references/x.md".to_owned(), 20),
    ]);
    let exact = BTreeMap::from([
        ("skill://a/SKILL.md".to_owned(), Some(10)),
        ("skill://a/references/x.md".to_owned(), None),
    ]);
    assert!(compare_walk("skill://a", &manifest, &exact).is_ok());

    let mut missing = exact.clone();
    missing.remove("skill://a/references/x.md");
    let mut extra = exact.clone();
    extra.insert("skill://a/unlisted.md".to_owned(), Some(1));
    let mut resized = exact.clone();
    resized.insert("skill://a/SKILL.md".to_owned(), Some(11));
    for (walked, needle) in [
        (missing, "not reached [\"skill://a/references/x.md\"]"),
        (extra, "not in the manifest [\"skill://a/unlisted.md\"]"),
        (
            resized,
            "skill://a/SKILL.md size Some(11), the manifest says Some(10)",
        ),
    ] {
        let message = compare_walk("skill://a", &manifest, &walked)
            .err()
            .map(|e| e.to_string());
        assert!(
            message.as_deref().is_some_and(|m| m.contains(needle)),
            "{message:?} should contain {needle}"
        );
    }
}
