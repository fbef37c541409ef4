//! Search through a server's `search_skills` tool (docs/search.md): the one implementation
//! behind `skills-edge search` and the npm package's `SkillsClient.search`.
//!
//! The server is asked only when it offers the tool: it declared `tools` and its `tools/list`
//! (at most 16 pages) names `search_skills`; otherwise the call is refused as
//! `invalid-argument` with `expected` the tool and `actual` what the server offers, as
//! `check_declared` refuses a method the server did not declare. A tool error result
//! (`isError: true`: the server refused the arguments, naming them and their bounds) is also
//! `invalid-argument`, with the server's text. Every result must carry a `skill://` URI of a
//! `SKILL.md` (`check_skill_md_uri`), a name, a description and a finite score, or the
//! reply is a `protocol-error`: search returns URIs only, and the skill itself is then fetched
//! and verified through `skills/get` like any other, so search never bypasses verification.

use crate::json::{Json as JsonNode, Node};
use serde_json::json;

use super::error::{ClientError, ExchangeKind, Result};
use super::{check_skill_md_uri, member, Rpc, ServerFacts};
use crate::host::error::{ErrorCode, VerifyError};

/// The tool's name (docs/search.md).
pub(crate) const SEARCH_TOOL: &str = "search_skills";
/// The most pages of `tools/list` read to find the tool.
pub(crate) const MAX_TOOL_PAGES: usize = 16;

/// What to ask the tool: its `query`, `tags` (only skills carrying every one; empty: none sent)
/// and `limit` (`None`: the server's default).
///
/// ```
/// use skills_edge::client::{block_on, search::{search, SearchQuery}, SkillsClient};
/// use skills_edge::host::ErrorCode;
/// # use std::cell::RefCell;
/// # use std::future::{ready, Future};
/// # use skills_edge::client::http::{HttpIo, HttpRequest, HttpResponse, ResponseBody};
/// # use skills_edge::server::{Config, Grant, HttpHeaders, Responder, Transport};
/// # struct Body(Option<Vec<u8>>);
/// # impl ResponseBody for Body {
/// #     fn next_chunk(&mut self) -> impl Future<Output = skills_edge::client::Result<Option<Vec<u8>>>> { ready(Ok(self.0.take())) }
/// # }
/// # struct Wire { responder: Responder, sent: RefCell<Vec<HttpRequest>> }
/// # impl Wire {
/// #     fn new(config: Config) -> Wire {
/// #         let responder = Responder::new(skills_edge::embedded::catalog().unwrap(), config).unwrap();
/// #         Wire { responder, sent: RefCell::new(Vec::new()) }
/// #     }
/// # }
/// # impl HttpIo for Wire {
/// #     type Body = Body;
/// #     fn post(&self, request: HttpRequest) -> impl Future<Output = skills_edge::client::Result<HttpResponse<Body>>> {
/// #         let header = |n: &str| request.headers.iter().find(|(k, _)| k == n).map(|(_, v)| v.as_str());
/// #         let transport = Transport::Http(HttpHeaders {
/// #             protocol_version: header("mcp-protocol-version"), method: header("mcp-method"), name: header("mcp-name") });
/// #         let reply = self.responder.respond(request.body.as_bytes(), &transport, Grant::PUBLIC);
/// #         self.sent.borrow_mut().push(request.clone());
/// #         ready(Ok(HttpResponse { status: reply.status, content_type: Some("application/json".into()),
/// #             session_id: None, www_authenticate: None, body: Body(reply.body) }))
/// #     }
/// #     fn now_ms(&self) -> f64 { 0.0 }
/// # }
/// # let wire = Wire::new(Config { fallback: skills_edge::server::Fallback { search: true, ..Default::default() }, ..Config::default() });
/// # let session = skills_edge::client::http::HttpSession::new(skills_edge::client::ClientInfo::default());
/// # let client = SkillsClient::new("docs", skills_edge::host::HostOptions::default()).unwrap();
/// # client.set_facts(block_on(session.connect(&wire, skills_edge::client::EraChoice::Auto)).unwrap()).unwrap();
/// # let rpc = session.rpc(&wire);
/// let q = SearchQuery { query: "review a diff".into(), limit: Some(1), ..SearchQuery::default() };
/// let hits = block_on(search(&rpc, client.facts().as_ref(), "docs", &q)).unwrap();
/// assert_eq!(hits.len(), 1);
/// // The server refuses a tag no skill carries, naming it.
/// let tagged = SearchQuery { tags: vec!["no-such-tag".into()], ..q };
/// let e = block_on(search(&rpc, client.facts().as_ref(), "docs", &tagged)).unwrap_err();
/// assert_eq!(e.code, ErrorCode::InvalidArgument);
/// assert!(e.message.contains("no-such-tag"));
/// ```
#[derive(Debug, Clone, Default)]
pub struct SearchQuery {
    /// The words of the query.
    pub query: String,
    /// The tags every result carries.
    pub tags: Vec<String>,
    /// The most results.
    pub limit: Option<u64>,
}

/// One result of the tool, best first.
///
/// ```
/// use skills_edge::client::{block_on, search::{search, SearchQuery}, SkillsClient};
/// # use std::cell::RefCell;
/// # use std::future::{ready, Future};
/// # use skills_edge::client::http::{HttpIo, HttpRequest, HttpResponse, ResponseBody};
/// # use skills_edge::server::{Config, Grant, HttpHeaders, Responder, Transport};
/// # struct Body(Option<Vec<u8>>);
/// # impl ResponseBody for Body {
/// #     fn next_chunk(&mut self) -> impl Future<Output = skills_edge::client::Result<Option<Vec<u8>>>> { ready(Ok(self.0.take())) }
/// # }
/// # struct Wire { responder: Responder, sent: RefCell<Vec<HttpRequest>> }
/// # impl Wire {
/// #     fn new(config: Config) -> Wire {
/// #         let responder = Responder::new(skills_edge::embedded::catalog().unwrap(), config).unwrap();
/// #         Wire { responder, sent: RefCell::new(Vec::new()) }
/// #     }
/// # }
/// # impl HttpIo for Wire {
/// #     type Body = Body;
/// #     fn post(&self, request: HttpRequest) -> impl Future<Output = skills_edge::client::Result<HttpResponse<Body>>> {
/// #         let header = |n: &str| request.headers.iter().find(|(k, _)| k == n).map(|(_, v)| v.as_str());
/// #         let transport = Transport::Http(HttpHeaders {
/// #             protocol_version: header("mcp-protocol-version"), method: header("mcp-method"), name: header("mcp-name") });
/// #         let reply = self.responder.respond(request.body.as_bytes(), &transport, Grant::PUBLIC);
/// #         self.sent.borrow_mut().push(request.clone());
/// #         ready(Ok(HttpResponse { status: reply.status, content_type: Some("application/json".into()),
/// #             session_id: None, www_authenticate: None, body: Body(reply.body) }))
/// #     }
/// #     fn now_ms(&self) -> f64 { 0.0 }
/// # }
/// # let wire = Wire::new(Config { fallback: skills_edge::server::Fallback { search: true, ..Default::default() }, ..Config::default() });
/// # let session = skills_edge::client::http::HttpSession::new(skills_edge::client::ClientInfo::default());
/// # let client = SkillsClient::new("docs", skills_edge::host::HostOptions::default()).unwrap();
/// # client.set_facts(block_on(session.connect(&wire, skills_edge::client::EraChoice::Auto)).unwrap()).unwrap();
/// # let rpc = session.rpc(&wire);
/// let q = SearchQuery { query: "code review checklist".into(), ..SearchQuery::default() };
/// let hits = block_on(search(&rpc, client.facts().as_ref(), "docs", &q)).unwrap();
/// let best = &hits[0];
/// assert_eq!((best.uri.as_str(), best.name.as_str()), ("skill://code-review/SKILL.md", "code-review"));
/// assert!(hits.windows(2).all(|w| w[0].score >= w[1].score));
/// // A hit is only a URI: the skill itself is loaded and verified like any other.
/// assert!(block_on(client.load(&rpc, &best.uri)).unwrap().skill.skill_md.receipt.verified);
/// ```
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SearchHit {
    /// The `skill://` URI of the skill's `SKILL.md`: load it to read and verify the skill.
    pub uri: String,
    /// The skill's name.
    pub name: String,
    /// The skill's description.
    pub description: String,
    /// Its score (higher is better).
    pub score: f64,
}

/// Calls `search_skills` on the server of `rpc` (`facts`: what it said about itself; `server`
/// names it in messages) and returns its results, best first. See the module documentation
/// for the errors.
pub async fn search<R: Rpc>(
    rpc: &R,
    facts: Option<&ServerFacts>,
    server: &str,
    q: &SearchQuery,
) -> Result<Vec<SearchHit>> {
    let not_offered = |actual: String| -> ClientError {
        VerifyError::new(
            ErrorCode::InvalidArgument,
            format!("{SEARCH_TOOL} was not called: {server} does not offer the {SEARCH_TOOL} tool ({actual}): this server does not offer search (a skills-edge server offers it with the setting fallback = search or tools)"),
        )
        .with_values(format!("tools/list naming {SEARCH_TOOL}"), actual)
        .into()
    };
    let Some(facts) = facts else {
        return Err(not_offered(
            "no capabilities observed: connect first".into(),
        ));
    };
    if facts.capabilities.get("tools").is_none() {
        return Err(not_offered("it declares no tools".into()));
    }
    let mut names = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..MAX_TOOL_PAGES {
        let params = match &cursor {
            Some(c) => json!({ "cursor": c }),
            None => json!({}),
        };
        cursor = rpc
            .call_read("tools/list", params, |page| {
                let tools = member(page, "tools").and_then(Node::as_array);
                for t in tools.into_iter().flatten() {
                    if let Some(n) = member(t, "name").and_then(Node::as_str) {
                        names.push(n.to_owned());
                    }
                }
                Ok(member(page, "nextCursor")
                    .and_then(Node::as_str)
                    .map(str::to_owned))
            })
            .await?;
        if cursor.is_none() {
            break;
        }
    }
    if !names.iter().any(|n| n == SEARCH_TOOL) {
        let listed = if names.is_empty() {
            "none".to_owned()
        } else {
            names.join(", ")
        };
        return Err(not_offered(format!("its tools: {listed}")));
    }
    let mut arguments = json!({ "query": q.query });
    if !q.tags.is_empty() {
        arguments["tags"] = json!(q.tags);
    }
    if let Some(l) = q.limit {
        arguments["limit"] = json!(l);
    }
    let params = json!({ "name": SEARCH_TOOL, "arguments": arguments });
    rpc.call_read("tools/call", params, |result| {
        if member(result, "isError").is_some_and(|e| e.value == JsonNode::Bool(true)) {
            let text = member(result, "content")
                .and_then(Node::as_array)
                .and_then(<[Node]>::first)
                .and_then(|c| member(c, "text"))
                .and_then(Node::as_str)
                .unwrap_or("(no text)");
            return Err(VerifyError::new(
                ErrorCode::InvalidArgument,
                format!("{SEARCH_TOOL}: {text}"),
            )
            .into());
        }
        hits(member(result, "structuredContent"))
    })
    .await
}

/// The results of a tool result's `structuredContent` (its members as `serde_json` reads
/// them: a repeated key, the last one), each checked.
fn hits(structured: Option<&Node<'_>>) -> Result<Vec<SearchHit>> {
    let broken = |what: String| {
        ClientError::exchange(
            ExchangeKind::ProtocolError,
            format!("{SEARCH_TOOL} answered {what}; its structuredContent must be {{\"results\":[{{\"uri\",\"name\",\"description\",\"score\"}}]}} (docs/search.md)"),
        )
    };
    let Some(results) = structured
        .and_then(|s| member(s, "results"))
        .and_then(Node::as_array)
    else {
        return Err(broken("no results array".into()));
    };
    let mut out = Vec::with_capacity(results.len());
    for (i, r) in results.iter().enumerate() {
        let text = |k: &str| {
            member(r, k)
                .and_then(Node::as_str)
                .map(str::to_owned)
                .ok_or_else(|| broken(format!("results[{i}] without a string {k}")))
        };
        let uri = text("uri")?;
        if check_skill_md_uri(&uri).is_err() {
            return Err(broken(format!(
                "results[{i}] whose uri is not a skill:// URI of a SKILL.md"
            )));
        }
        let score = member(r, "score")
            .and_then(Node::as_f64)
            .filter(|s| s.is_finite())
            .ok_or_else(|| broken(format!("results[{i}] without a numeric score")))?;
        out.push(SearchHit {
            uri,
            name: text("name")?,
            description: text("description")?,
            score,
        });
    }
    Ok(out)
}

#[cfg(all(test, not(target_family = "wasm")))]
mod tests {
    use super::*;
    use crate::client::block_on;
    use crate::protocol::Era;
    use serde_json::Value as Json;
    use std::cell::RefCell;
    use std::future::Future;

    /// A server whose `tools/list` pages are `pages` and whose `tools/call` answers `call`;
    /// every method asked is recorded.
    struct Fake {
        pages: Vec<Vec<&'static str>>,
        call: Json,
        asked: RefCell<Vec<String>>,
    }

    impl Rpc for Fake {
        fn call(&self, method: &str, params: Json) -> impl Future<Output = Result<String>> {
            self.asked.borrow_mut().push(method.to_owned());
            let page: usize = params["cursor"]
                .as_str()
                .and_then(|c| c.parse().ok())
                .unwrap_or(0);
            let result = match method {
                "tools/list" => {
                    let tools: Vec<Json> = self.pages[page]
                        .iter()
                        .map(|n| json!({ "name": n }))
                        .collect();
                    let mut r = json!({ "tools": tools });
                    if page + 1 < self.pages.len() {
                        r["nextCursor"] = json!((page + 1).to_string());
                    }
                    r
                }
                _ => self.call.clone(),
            };
            std::future::ready(Ok(result.to_string()))
        }

        fn now_ms(&self) -> f64 {
            0.0
        }
    }

    fn facts(capabilities: Json) -> ServerFacts {
        ServerFacts::from_result(
            Era::Modern,
            "2026-07-28",
            &json!({ "capabilities": capabilities }),
        )
    }

    fn ask(fake: &Fake, capabilities: Json) -> Result<Vec<SearchHit>> {
        let q = SearchQuery {
            query: "review code".into(),
            ..SearchQuery::default()
        };
        block_on(search(fake, Some(&facts(capabilities)), "srv", &q))
    }

    #[test]
    fn a_server_without_the_tool_is_refused_before_any_call_of_it() {
        let fake = Fake {
            pages: vec![vec!["list_skills"], vec!["read_skill"]],
            call: json!({}),
            asked: RefCell::default(),
        };
        let e = ask(&fake, json!({ "tools": {} })).expect_err("refused");
        assert_eq!(e.code, ErrorCode::InvalidArgument);
        assert_eq!(
            e.actual.as_deref(),
            Some("its tools: list_skills, read_skill")
        );
        assert!(e.message.contains("does not offer the search_skills tool"));
        assert_eq!(*fake.asked.borrow(), ["tools/list", "tools/list"]);
        let e = ask(&fake, json!({})).expect_err("no tools declared");
        assert_eq!(e.actual.as_deref(), Some("it declares no tools"));
        assert_eq!(fake.asked.borrow().len(), 2, "nothing asked without tools");
    }

    #[test]
    fn the_tool_on_a_later_page_is_called_and_its_refusal_is_invalid_argument() {
        let hit =
            json!({"uri": "skill://a/SKILL.md", "name": "a", "description": "d", "score": 2.5});
        let fake = Fake {
            pages: vec![vec!["list_skills"], vec![SEARCH_TOOL]],
            call: json!({ "structuredContent": { "results": [hit] } }),
            asked: RefCell::default(),
        };
        let hits = ask(&fake, json!({ "tools": {} })).expect("results");
        assert_eq!(hits[0].uri, "skill://a/SKILL.md");
        assert_eq!(hits[0].score, 2.5);
        let refusing = Fake {
            pages: vec![vec![SEARCH_TOOL]],
            call: json!({ "isError": true, "content": [{ "type": "text", "text": "`limit` must be an integer from 1 to 50 (got 500)" }] }),
            asked: RefCell::default(),
        };
        let e = ask(&refusing, json!({ "tools": {} })).expect_err("refused");
        assert_eq!(e.code, ErrorCode::InvalidArgument);
        assert!(
            e.message
                .contains("`limit` must be an integer from 1 to 50"),
            "{e}"
        );
    }

    #[test]
    fn a_result_that_is_not_a_skill_uri_is_refused() {
        let ok = json!({"results": [{"uri": "skill://a/SKILL.md", "name": "a", "description": "d", "score": 1.5}]});
        let read = |v: &Json| v.to_string();
        let ok = read(&ok);
        let node = crate::json::parse(&ok).unwrap();
        assert_eq!(hits(Some(&node)).map(|h| h.len()).ok(), Some(1));
        for bad in [
            json!({}),
            json!({"results": [{"uri": "https://evil.example/SKILL.md", "name": "a", "description": "d", "score": 1}]}),
            json!({"results": [{"uri": "skill://a/SKILL.md", "name": "a", "description": "d"}]}),
            json!({"results": [{"uri": "skill://a/SKILL.md", "name": 1, "description": "d", "score": 1}]}),
        ] {
            let text = read(&bad);
            let node = crate::json::parse(&text).unwrap();
            let e = hits(Some(&node)).expect_err("refused");
            assert_eq!(e.code, ExchangeKind::ProtocolError, "{bad}");
        }
    }
}
