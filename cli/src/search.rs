//! `skills-edge search <url> <query> [--tag TAG]… [--limit N] [--json] [--header 'Name: value']…
//! [--timeout MS] [--era auto|2026-07-28|2025-11-25]`: connects to an MCP server over
//! Streamable HTTP and searches through its `search_skills` tool with the library's
//! [`skills_edge::client::search`] (docs/search.md), then prints the results, best first: score, name and `skill://` URI, then the
//! description; with `--json`, the checked results as `{"results":[…]}`. The connection options are
//! `verify`'s, read by its parser. Exit status: 0 with results or none, 1 when the server does
//! not offer the tool or answers a tool error (its text printed), 2 for a usage error or a
//! failed exchange.

use crate::verify::ureq_io;
use serde_json::json;
use skills_edge::client::http::HttpSession;
use skills_edge::client::search::{search, SearchHit, SearchQuery};
use skills_edge::client::{block_on, ClientInfo};
use skills_edge::command::args::VerifyArgs;
use skills_edge::host::ErrorCode;
use std::process::ExitCode;

/// The usage line.
const USAGE: &str = "usage: skills-edge search <url> <query> [--tag TAG]... [--limit N] [--json] [--header 'Name: value']... [--timeout MS] [--era auto|2026-07-28|2025-11-25]";
/// What the command line asks for.
struct SearchArgs {
    connection: VerifyArgs,
    query: String,
    tags: Vec<String>,
    limit: Option<u64>,
    json: bool,
}

fn parse(args: &[String]) -> Result<SearchArgs, String> {
    let mut forwarded = Vec::new();
    let mut positional = Vec::new();
    let (mut tags, mut limit, mut json) = (Vec::new(), None, false);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |flag: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match a.as_str() {
            "--tag" => tags.push(value("--tag")?),
            "--limit" => {
                let v = value("--limit")?;
                limit =
                    Some(v.parse::<u64>().map_err(|_| {
                        format!("--limit {v:?} is not a whole number from 1 to 50")
                    })?);
            }
            "--json" => json = true,
            "--header" | "--timeout" | "--era" | "--token" => {
                forwarded.push(a.clone());
                forwarded.push(value(a)?);
            }
            flag if flag.starts_with("--") => {
                return Err(format!("unknown option {flag} for search"))
            }
            _ => positional.push(a.clone()),
        }
    }
    let Some((url, words)) = positional.split_first() else {
        return Err("search needs the server's URL and a query".into());
    };
    if words.is_empty() {
        return Err("search needs a query after the URL: what the skill should do".into());
    }
    let mut line = vec![url.clone()];
    line.extend(forwarded);
    Ok(SearchArgs {
        connection: VerifyArgs::parse(&line).map_err(|e| e.message)?,
        query: words.join(" "),
        tags,
        limit,
        json,
    })
}

/// Runs `search` with the arguments after `search`; prints the results.
pub(crate) fn command(args: &[String]) -> ExitCode {
    let a = match parse(args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match block_on(run(&a)) {
        Ok((out, code)) => {
            print!("{out}");
            ExitCode::from(code)
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// The run: the printed text and the exit status, or the message of a failed exchange. The
/// search itself is the library's ([`skills_edge::client::search`]); a server that does not
/// offer the tool, or refuses the arguments, is the exit status 1 with its message.
async fn run(a: &SearchArgs) -> Result<(String, u8), String> {
    let url = &a.connection.url;
    let io = ureq_io(&a.connection);
    let session = HttpSession::new(ClientInfo::default());
    let facts = session
        .connect(&io, a.connection.era)
        .await
        .map_err(|e| e.to_string())?;
    let query = SearchQuery {
        query: a.query.clone(),
        tags: a.tags.clone(),
        limit: a.limit,
    };
    let hits = match search(&session.rpc(&io), Some(&facts), url, &query).await {
        Ok(h) => h,
        Err(e) if e.code == ErrorCode::InvalidArgument => {
            return Ok((format!("{}\n", escape(&e.message)), 1))
        }
        Err(e) => return Err(e.to_string()),
    };
    if a.json {
        return Ok((format!("{}\n", json!({ "results": hits })), 0));
    }
    Ok((render(&hits), 0))
}

/// The results as lines: score, name and URI, then the description indented.
fn render(hits: &[SearchHit]) -> String {
    if hits.is_empty() {
        return "no skill matches\n".to_owned();
    }
    let mut out = String::new();
    for h in hits {
        out.push_str(&format!(
            "{:>8.4}  {}  {}\n          {}\n",
            h.score,
            escape(&h.name),
            escape(&h.uri),
            escape(&h.description)
        ));
    }
    out
}

/// What a server sent, safe for a terminal: control characters as `\u{…}` escapes.
fn escape(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}
