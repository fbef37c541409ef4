//! rmcp against the native stdio server, the Worker and the rmcp example server
//! (rmcp/examples/server: an rmcp server serving skills with skills-edge-rmcp), in both
//! protocol eras.
//!
//! `SKILLS_EDGE_BIN` is the absolute path of the native `skills-edge` command,
//! `SKILLS_EDGE_WORKER_URL` the Worker's MCP endpoint (Worker started with `PAGE_SIZE=3`),
//! `SKILLS_EDGE_RMCP_EXAMPLE_BIN` the example built over the repository's skills and
//! `SKILLS_EDGE_RMCP_EXAMPLE_URL` its HTTP endpoint, `SKILLS_EDGE_RMCP_PRIVATE_URL` the
//! example built over the private fixture catalog (tests/fixtures/private-skills), reading
//! scopes from the test header `x-skills-scopes`; scripts/test.d/32-rmcp.sh sets them all.
//! A test whose variable is missing fails and says so.

use std::collections::BTreeMap;
use std::path::PathBuf;

use rmcp::model::SkillResource;
use rmcp::model::{CacheScope, ReadResourceDirectoryRequestParams};
use skills_edge_rmcp_judge::{
    bounded, check_bytes, compare_walk, connect_command, connect_http, connect_http_with,
    connect_stdio, judge, judge_server, own_digest, refused_as_absent, Ask, Client, Era, Failure,
    PAGE_SIZE,
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

/// The rmcp example's `serverInfo.name`.
const EXAMPLE: &str = "skills-edge-rmcp-example";

/// The test header the private example reads scopes from.
const SCOPES_HEADER: &str = "x-skills-scopes";

fn example_bin() -> Result<PathBuf, Failure> {
    let bin = PathBuf::from(required_env(
        "SKILLS_EDGE_RMCP_EXAMPLE_BIN",
        "the absolute path of the rmcp example server \
         (cargo build -p skills-edge-rmcp-example)",
    )?);
    if bin.is_absolute() && bin.is_file() {
        Ok(bin)
    } else {
        Err(Failure::new(format!(
            "SKILLS_EDGE_RMCP_EXAMPLE_BIN is {}: give the absolute path of the built example",
            bin.display()
        )))
    }
}

/// The example over stdio, with the judge's page size.
async fn connect_example_stdio(era: Era) -> Result<Client, Failure> {
    let bin = example_bin()?;
    let mut command = tokio::process::Command::new(&bin);
    command.arg("stdio").env("PAGE_SIZE", PAGE_SIZE.to_string());
    connect_command(command, &format!("{} stdio", bin.display()), era).await
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

#[tokio::test]
async fn rmcp_example_stdio_2026_07_28() -> Result<(), Failure> {
    let client = connect_example_stdio(Era::Modern).await?;
    let verdict = judge_server(&client, Era::Modern, EXAMPLE).await;
    close(client, verdict, "the rmcp example over stdio", Era::Modern).await
}

#[tokio::test]
async fn rmcp_example_stdio_2025_11_25() -> Result<(), Failure> {
    let client = connect_example_stdio(Era::Legacy).await?;
    let verdict = judge_server(&client, Era::Legacy, EXAMPLE).await;
    close(client, verdict, "the rmcp example over stdio", Era::Legacy).await
}

#[tokio::test]
async fn rmcp_example_http_2026_07_28() -> Result<(), Failure> {
    let url = required_env(
        "SKILLS_EDGE_RMCP_EXAMPLE_URL",
        "the rmcp example's MCP endpoint",
    )?;
    let client = connect_http(&url, Era::Modern).await?;
    let verdict = judge_server(&client, Era::Modern, EXAMPLE).await;
    close(client, verdict, &url, Era::Modern).await
}

#[tokio::test]
async fn rmcp_example_http_2025_11_25() -> Result<(), Failure> {
    let url = required_env(
        "SKILLS_EDGE_RMCP_EXAMPLE_URL",
        "the rmcp example's MCP endpoint",
    )?;
    let client = connect_http(&url, Era::Legacy).await?;
    let verdict = judge_server(&client, Era::Legacy, EXAMPLE).await;
    close(client, verdict, &url, Era::Legacy).await
}

/// Closes `client` after a judge run, then reports the run's verdict.
async fn close(
    client: Client,
    verdict: Result<skills_edge_rmcp_judge::Tally, Failure>,
    label: &str,
    era: Era,
) -> Result<(), Failure> {
    let closed = bounded(&format!("closing {label}"), client.cancel()).await;
    let tally = verdict?;
    closed?;
    println!("{label} at {}: {tally}", era.version());
    Ok(())
}

fn private_url() -> Result<String, Failure> {
    required_env(
        "SKILLS_EDGE_RMCP_PRIVATE_URL",
        "the MCP endpoint of the rmcp example built over tests/fixtures/private-skills, \
         started with SKILLS_SCOPES_HEADER=x-skills-scopes",
    )
}

/// The private fixture catalog through the example's scopes hook: an anonymous caller sees
/// the public skills only, and every hidden skill, file and directory is refused exactly as
/// one that does not exist; a caller with both scopes sees and verifies every skill, with
/// `cacheScope` private.
#[tokio::test]
async fn rmcp_example_private_skills_follow_the_scopes_hook() -> Result<(), Failure> {
    let url = private_url()?;
    let anonymous = connect_http(&url, Era::Modern).await?;
    let outcome = check_anonymous(&anonymous).await;
    let closed = bounded("closing the anonymous client", anonymous.cancel()).await;
    outcome?;
    closed?;

    let granted =
        connect_http_with(&url, Era::Modern, &[(SCOPES_HEADER, "billing review")]).await?;
    let outcome = check_granted(&granted).await;
    let verdict = judge_server(&granted, Era::Modern, EXAMPLE).await;
    let closed = bounded("closing the granted client", granted.cancel()).await;
    outcome?;
    let tally = verdict?;
    closed?;
    println!("{url} with scopes billing and review: {tally}");
    Ok(())
}

async fn check_anonymous(client: &Client) -> Result<(), Failure> {
    let peer = client.peer();
    let skills = bounded("skills/list (anonymous)", peer.list_all_skills()).await?;
    let uris: Vec<&str> = skills.iter().map(|s| s.uri.as_str()).collect();
    if uris != ["skill://acme/tools/lint/SKILL.md", "skill://hello/SKILL.md"] {
        return Err(Failure::new(format!(
            "an anonymous caller sees {uris:?}, expected the two public skills"
        )));
    }
    let resources = bounded("resources/list (anonymous)", peer.list_all_resources()).await?;
    if resources
        .iter()
        .any(|r| r.uri.contains("billing") || r.uri.contains("code-review"))
    {
        return Err(Failure::new(format!(
            "resources/list shows a private skill to an anonymous caller: {resources:?}"
        )));
    }
    let acme = bounded(
        "resources/directory/read skill://acme (anonymous)",
        peer.read_resource_directory(ReadResourceDirectoryRequestParams::new("skill://acme")),
    )
    .await?;
    let children: Vec<&str> = acme.resources.iter().map(|r| r.uri.as_str()).collect();
    if children != ["skill://acme/tools"] {
        return Err(Failure::new(format!(
            "skill://acme lists {children:?} to an anonymous caller, expected only skill://acme/tools"
        )));
    }
    for (ask, hidden, absent) in [
        (
            Ask::Get,
            "skill://code-review/SKILL.md",
            "skill://code-reviews/SKILL.md",
        ),
        (
            Ask::Get,
            "skill://acme/billing/invoices/SKILL.md",
            "skill://acme/billing/invoice/SKILL.md",
        ),
        (
            Ask::Read,
            "skill://code-review/checklist.md",
            "skill://code-reviews/checklist.md",
        ),
        (
            Ask::Read,
            "skill://acme/billing/invoices/references/rates.md",
            "skill://acme/billing/invoices/references/rate.md",
        ),
        (
            Ask::Directory,
            "skill://acme/billing",
            "skill://acme/billings",
        ),
        (
            Ask::Directory,
            "skill://code-review",
            "skill://code-reviews",
        ),
        (
            Ask::Directory,
            "skill://acme/billing/invoices/references",
            "skill://acme/billing/invoices/reference",
        ),
    ] {
        refused_as_absent(peer, ask, hidden, absent).await?;
    }
    Ok(())
}

async fn check_granted(client: &Client) -> Result<(), Failure> {
    let peer = client.peer();
    let first = bounded("skills/list (granted)", peer.list_skills(None)).await?;
    if first.cache_scope != Some(CacheScope::Private) {
        return Err(Failure::new(format!(
            "skills/list for a caller with scopes has cacheScope {:?}, expected private",
            first.cache_scope
        )));
    }
    let skills = bounded("skills/list (granted, every page)", peer.list_all_skills()).await?;
    let mut uris: Vec<&str> = skills.iter().map(|s| s.uri.as_str()).collect();
    uris.sort_unstable();
    let expected = [
        "skill://acme/billing/invoices/SKILL.md",
        "skill://acme/billing/invoices/refunds/SKILL.md",
        "skill://acme/tools/lint/SKILL.md",
        "skill://code-review/SKILL.md",
        "skill://hello/SKILL.md",
    ];
    if uris != expected {
        return Err(Failure::new(format!(
            "a caller with scopes billing and review sees {uris:?}, expected {expected:?}"
        )));
    }
    Ok(())
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
