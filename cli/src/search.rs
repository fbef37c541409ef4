//! `skills-edge search <url> <query> [--tag TAG]… [--limit N] [--json] [--header 'Name: value']…
//! [--timeout MS] [--era auto|2026-07-28|2025-11-25]`: connects to an MCP server over
//! Streamable HTTP, checks that its `tools/list` offers `search_skills` (docs/search.md), calls
//! it and prints the results, best first: score, name and `skill://` URI, then the
//! description; with `--json`, the tool's `structuredContent`. The connection options are
//! `verify`'s, read by its parser. Exit status: 0 with results or none, 1 when the server does
//! not offer the tool or answers a tool error (its text printed), 2 for a usage error or a
//! failed exchange.

use crate::verify::ureq_io;
use serde_json::{json, Value};
use skills_edge::client::http::HttpSession;
use skills_edge::client::{block_on, ClientInfo, Rpc};
use skills_edge::command::args::VerifyArgs;
use std::process::ExitCode;

/// The usage line.
const USAGE: &str = "usage: skills-edge search <url> <query> [--tag TAG]... [--limit N] [--json] [--header 'Name: value']... [--timeout MS] [--era auto|2026-07-28|2025-11-25]";
/// The tool's name (docs/search.md).
const TOOL: &str = "search_skills";
/// The most pages of `tools/list` read.
const MAX_PAGES: usize = 16;

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
        connection: VerifyArgs::parse(&line)?,
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

/// The run: the printed text and the exit status, or the message of a failed exchange.
async fn run(a: &SearchArgs) -> Result<(String, u8), String> {
    let url = &a.connection.url;
    let io = ureq_io(&a.connection);
    let session = HttpSession::new(ClientInfo::default());
    let facts = session
        .connect(&io, a.connection.era)
        .await
        .map_err(|e| e.to_string())?;
    let rpc = session.rpc(&io);
    if facts.capabilities.get("tools").is_none() {
        return Ok((
            format!("{url} offers no tools, so no {TOOL}: this server does not offer search (a skills-edge server offers it with the setting fallback = search or tools)\n"),
            1,
        ));
    }
    let mut names = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..MAX_PAGES {
        let params = match &cursor {
            Some(c) => json!({ "cursor": c }),
            None => json!({}),
        };
        let page = rpc
            .call("tools/list", params)
            .await
            .map_err(|e| e.to_string())?;
        for t in page["tools"].as_array().into_iter().flatten() {
            if let Some(n) = t["name"].as_str() {
                names.push(n.to_owned());
            }
        }
        cursor = page["nextCursor"].as_str().map(str::to_owned);
        if cursor.is_none() {
            break;
        }
    }
    if !names.iter().any(|n| n == TOOL) {
        let listed = if names.is_empty() {
            "none".to_owned()
        } else {
            names.join(", ")
        };
        return Ok((
            format!("{url} does not offer the {TOOL} tool (its tools: {listed}): this server does not offer search\n"),
            1,
        ));
    }
    let mut arguments = json!({ "query": a.query });
    if !a.tags.is_empty() {
        arguments["tags"] = json!(a.tags);
    }
    if let Some(l) = a.limit {
        arguments["limit"] = json!(l);
    }
    let result = rpc
        .call(
            "tools/call",
            json!({ "name": TOOL, "arguments": arguments }),
        )
        .await
        .map_err(|e| e.to_string())?;
    if result["isError"] == true {
        let text = result["content"][0]["text"].as_str().unwrap_or("(no text)");
        return Ok((format!("{TOOL}: {}\n", escape(text)), 1));
    }
    let structured = &result["structuredContent"];
    if a.json {
        return Ok((format!("{structured}\n"), 0));
    }
    Ok((render(structured), 0))
}

/// The results as lines: score, name and URI, then the description indented.
fn render(structured: &Value) -> String {
    let results = structured["results"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    if results.is_empty() {
        return "no skill matches\n".to_owned();
    }
    let mut out = String::new();
    for r in &results {
        let field = |k: &str| escape(r[k].as_str().unwrap_or(""));
        let score = r["score"].as_f64().unwrap_or(0.0);
        out.push_str(&format!(
            "{score:>8.4}  {}  {}\n          {}\n",
            field("name"),
            field("uri"),
            field("description")
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
