//! The skills client against servers that try to exhaust it or confuse its reading of
//! replies: listings and walks past the byte budget, replies with a member twice, errors with
//! a `null` id, an endless reply to `notifications/initialized`, session ids with control
//! characters, event streams that start with a byte order mark, and connects that fail
//! halfway. Each test is named after what the server did.

use std::cell::{Cell, RefCell};
use std::future::{ready, Future};
use std::rc::Rc;

use serde_json::{json, Value as Json};
use skills_edge::client::http::{
    read_answer, Answer, HttpIo, HttpRequest, HttpResponse, HttpSession, ResponseBody,
    MAX_NOTIFICATION_REPLY_BYTES,
};
use skills_edge::client::{
    block_on, ClientError, ClientInfo, EraChoice, ExchangeKind, Result, Rpc, ServerFacts,
    SkillsClient, DEFAULT_LISTING_BUDGET,
};
use skills_edge::host::{ErrorCode, HostOptions};
use skills_edge::protocol::Era;
use skills_edge::skill::digest::digest_of;

/// An [`Rpc`] that answers from a function of (method, params) and counts the calls.
struct Fake<F> {
    answer: F,
    calls: Cell<usize>,
}

impl<F: Fn(&str, &Json) -> Json> Fake<F> {
    fn new(answer: F) -> Fake<F> {
        Fake {
            answer,
            calls: Cell::new(0),
        }
    }
}

impl<F: Fn(&str, &Json) -> Json> Rpc for Fake<F> {
    fn call(&self, method: &str, params: Json) -> impl Future<Output = Result<String>> {
        self.calls.set(self.calls.get() + 1);
        ready(Ok((self.answer)(method, &params).to_string()))
    }
    fn now_ms(&self) -> f64 {
        0.0
    }
}

/// The page number a request's cursor asks for (`None`: the first page).
fn page_of(params: &Json) -> usize {
    params["cursor"]
        .as_str()
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}

/// A result of `pages` pages, page `n` holding one item padded to `pad` bytes.
fn padded_page(field: &str, params: &Json, pages: usize, pad: usize) -> Json {
    let n = page_of(params);
    let mut result = json!({
        field: [{"uri": format!("skill://p{n}/x.md"), "pad": "x".repeat(pad)}],
        "ttlMs": 0,
    });
    if n + 1 < pages {
        result["nextCursor"] = json!((n + 1).to_string());
    }
    result
}

/// A client of a server that declares the Skills extension with `directoryRead`.
fn client() -> SkillsClient {
    let c = SkillsClient::new("docs", HostOptions::default()).unwrap();
    let caps = json!({"capabilities": {"extensions": {"io.modelcontextprotocol/skills": {"directoryRead": true}}}});
    c.set_facts(ServerFacts::from_result(Era::Modern, "2026-07-28", &caps))
        .unwrap();
    c
}

#[test]
fn server_lists_pages_of_large_items_past_the_budget() {
    let rpc = Fake::new(|_: &str, p: &Json| padded_page("skills", p, 40, 256 << 10));
    let c = client();
    assert_eq!(DEFAULT_LISTING_BUDGET, 256 << 20);
    assert_eq!(c.listing_budget(), DEFAULT_LISTING_BUDGET);
    // Under the default budget the 40 pages are read (their items are not entries).
    let listing = block_on(c.list(&rpc)).unwrap();
    assert_eq!((listing.pages, listing.rejected.len()), (40, 40));
    assert!(c.listing_bytes() > 10 << 20);
    // Under 2 MiB the listing stops at the page that passes it.
    c.set_listing_budget(2 << 20).unwrap();
    rpc.calls.set(0);
    let e = block_on(c.list(&rpc)).unwrap_err();
    assert_eq!(e.code, ExchangeKind::ProtocolError);
    assert!(
        e.message.contains("listing budget of 2097152 bytes"),
        "{}",
        e.message
    );
    assert!(e.message.contains("set_listing_budget"), "{}", e.message);
    assert_eq!(e.expected.as_deref(), Some("2097152"));
    assert_eq!(rpc.calls.get(), 8);
    // Each listing starts a budget of its own.
    let small = Fake::new(|_: &str, p: &Json| padded_page("skills", p, 1, 1 << 20));
    block_on(c.list(&small)).unwrap();
    block_on(c.list(&small)).unwrap();
}

#[test]
fn server_sends_directories_past_the_budget_of_one_walk() {
    let rpc = Fake::new(|_: &str, p: &Json| padded_page("resources", p, 1, 256 << 10));
    let c = client();
    c.set_listing_budget(768 << 10).unwrap();
    // One directory at a time, each fits.
    for _ in 0..5 {
        block_on(c.read_directory(&rpc, "skill://p0")).unwrap();
    }
    // In one walk, the third directory passes the budget.
    c.begin_walk().unwrap();
    block_on(c.read_directory(&rpc, "skill://p0")).unwrap();
    block_on(c.read_directory(&rpc, "skill://p0")).unwrap();
    let e = block_on(c.read_directory(&rpc, "skill://p0")).unwrap_err();
    assert_eq!(e.code, ExchangeKind::ProtocolError);
    assert!(e.message.contains("in this walk"), "{}", e.message);
    assert!(c.end_walk().unwrap() > 768 << 10);
    block_on(c.read_directory(&rpc, "skill://p0")).unwrap();
}

/// An entry of a skill `name` at `skill://<prefix>/<name>` with the files `files`.
fn entry(prefix: &str, name: &str, files: &[&str]) -> Json {
    let root = if prefix.is_empty() {
        format!("skill://{name}")
    } else {
        format!("skill://{prefix}/{name}")
    };
    let digest = digest_of(b"x");
    let mut resources =
        vec![json!({"uri": format!("{root}/SKILL.md"), "digest": digest, "size": 1})];
    for f in files {
        resources.push(json!({"uri": format!("{root}/{f}"), "digest": digest, "size": 1}));
    }
    json!({
        "uri": format!("{root}/SKILL.md"),
        "frontmatter": {"name": name, "description": "d"},
        "resources": resources,
    })
}

/// An [`Rpc`] that answers every request with one result text.
struct Text(String);

impl Rpc for Text {
    fn call(&self, _method: &str, _params: Json) -> impl Future<Output = Result<String>> {
        ready(Ok(self.0.clone()))
    }
    fn now_ms(&self) -> f64 {
        0.0
    }
}

#[test]
fn server_pretty_prints_its_listing_the_entries_are_read_from_its_text() {
    // Whitespace, escapes and a repeated key in the text the transport handed over: the
    // listing budget counts those bytes, the entries are read by the registry's reader
    // from that one reading, and an entry that repeats a key is refused by it (as
    // `register_listing` refuses it), where the others register.
    let good = entry("", "s1", &[]).to_string();
    let twice = r#"{"uri": "skill://s2/SKILL.md", "uri": "skill://s3/SKILL.md"}"#;
    let text =
        format!("{{\n  \"skills\": [\n    {good},\n    {twice}\n  ],\n  \"ttl\\u004ds\": 5\n}}");
    let c = client();
    let listing = block_on(c.list(&Text(text.clone()))).unwrap();
    assert_eq!(listing.skills.len(), 1);
    assert_eq!(listing.skills[0].summary.name, "s1");
    assert_eq!(listing.hints.ttl_ms, 5);
    assert_eq!(c.listing_bytes(), text.len() as u64);
    let rejected = &listing.rejected[0];
    assert_eq!(
        (rejected.index, rejected.error.code),
        (1, ErrorCode::InvalidEntry)
    );
    assert!(
        rejected.error.message.contains("duplicate key \"uri\""),
        "{}",
        rejected.error.message
    );
}

#[test]
fn server_lists_many_skills_of_one_name() {
    // 300 skills named `same` under distinct prefixes, and 300 more under one prefix's
    // nested paths: every display name is unique and the listing keeps its order.
    let mut skills: Vec<Json> = (0..300)
        .map(|i| entry(&format!("o{i}"), "same", &[]))
        .collect();
    skills.push(entry("", "solo", &[]));
    let listed = skills.clone();
    let rpc = Fake::new(move |_: &str, _: &Json| json!({"skills": listed.clone(), "ttlMs": 0}));
    let c = client();
    let listing = block_on(c.list(&rpc)).unwrap();
    assert_eq!(listing.skills.len(), 301);
    let names: std::collections::HashSet<&str> = listing
        .skills
        .iter()
        .map(|s| s.summary.display_name.as_str())
        .collect();
    assert_eq!(names.len(), 301);
    assert!(names.contains("same (o7)") && names.contains("solo"));
    let from_host = c.host(|h, _| h.skills()).unwrap();
    for s in &listing.skills {
        assert!(from_host.contains(&s.summary));
    }
}

#[test]
fn server_lists_a_directory_across_nested_skills() {
    let skills = vec![
        entry("", "outer", &["a.md", "inner/notes.md"]),
        entry("outer", "inner", &["b.md"]),
        entry("", "outer2", &["a.md"]),
    ];
    let rpc = Fake::new(move |method: &str, _: &Json| match method {
        "skills/list" => json!({"skills": skills.clone(), "ttlMs": 0}),
        _ => json!({"resources": [
            {"uri": "skill://outer/a.md"},
            {"uri": "skill://outer/evil.md"},
            {"uri": "skill://outer/inner/b.md"},
            {"uri": "skill://outer/inner/notes.md"},
            {"uri": "skill://outer2/a.md"},
            {"uri": "skill://outer2x/a.md"},
            {"uri": "skill://outer/inner", "mimeType": "inode/directory"},
        ], "ttlMs": 0}),
    });
    let c = client();
    block_on(c.list(&rpc)).unwrap();
    let d = block_on(c.read_directory(&rpc, "skill://outer")).unwrap();
    let listed: Vec<Option<bool>> = d.children.iter().map(|c| c.listed).collect();
    // The inner skill governs its own files: it does not list notes.md, which only the outer
    // entry does.
    assert_eq!(
        listed,
        [
            Some(true),
            Some(false),
            Some(true),
            Some(false),
            Some(true),
            None,
            None
        ]
    );
}

/// A response body handed out chunk by chunk; `read` counts the bytes taken.
struct Chunks {
    chunks: std::vec::IntoIter<Vec<u8>>,
    /// Hand out this many more bytes of `x` after the chunks (an endless body, for practical
    /// purposes).
    endless: usize,
    read: Rc<Cell<usize>>,
}

impl ResponseBody for Chunks {
    fn next_chunk(&mut self) -> impl Future<Output = Result<Option<Vec<u8>>>> {
        let next = match self.chunks.next() {
            Some(c) => Some(c),
            None if self.endless > 0 => {
                let n = self.endless.min(4096);
                self.endless -= n;
                Some(vec![b'x'; n])
            }
            None => None,
        };
        if let Some(c) = &next {
            self.read.set(self.read.get() + c.len());
        }
        ready(Ok(next))
    }
}

/// What a scripted server sends back.
struct Reply {
    status: u16,
    content_type: &'static str,
    session_id: Option<String>,
    chunks: Vec<Vec<u8>>,
    endless: usize,
}

impl Reply {
    fn json(body: Json) -> Reply {
        Reply {
            status: 200,
            content_type: "application/json",
            session_id: None,
            chunks: vec![body.to_string().into_bytes()],
            endless: 0,
        }
    }
}

type Script = Box<dyn Fn(&str, &Json) -> Result<Reply>>;
/// A request as the server saw it: the method and the headers.
type Logged = (String, Vec<(String, String)>);

/// An [`HttpIo`] whose replies come from a script of (method, request); it logs every
/// request's method and headers.
struct Wire {
    script: RefCell<Script>,
    log: RefCell<Vec<Logged>>,
    read: Rc<Cell<usize>>,
}

impl Wire {
    fn new(script: impl Fn(&str, &Json) -> Result<Reply> + 'static) -> Wire {
        Wire {
            script: RefCell::new(Box::new(script)),
            log: RefCell::new(Vec::new()),
            read: Rc::new(Cell::new(0)),
        }
    }
    fn headers_of(&self, method: &str) -> Vec<Vec<(String, String)>> {
        self.log
            .borrow()
            .iter()
            .filter(|(m, _)| m == method)
            .map(|(_, h)| h.clone())
            .collect()
    }
}

impl HttpIo for Wire {
    type Body = Chunks;
    fn post(&self, request: HttpRequest) -> impl Future<Output = Result<HttpResponse<Chunks>>> {
        let msg: Json = serde_json::from_str(&request.body).unwrap();
        let method = msg["method"].as_str().unwrap_or_default().to_owned();
        self.log
            .borrow_mut()
            .push((method.clone(), request.headers.clone()));
        let reply = (self.script.borrow())(&method, &msg).map(|r| HttpResponse {
            status: r.status,
            content_type: Some(r.content_type.into()),
            session_id: r.session_id,
            www_authenticate: None,
            body: Chunks {
                chunks: r.chunks.into_iter(),
                endless: r.endless,
                read: self.read.clone(),
            },
        });
        ready(reply)
    }
    fn now_ms(&self) -> f64 {
        0.0
    }
}

/// A 2025-11-25 server: `server/discover` is 404, `initialize` answers with `session_id`,
/// `notifications/initialized` with `note`, anything else with an empty listing.
fn legacy(session_id: Option<&'static str>, note: fn() -> Result<Reply>) -> Wire {
    Wire::new(move |method, msg| match method {
        "server/discover" => Ok(Reply {
            status: 404,
            content_type: "text/plain",
            ..Reply::json(json!({}))
        }),
        "initialize" => Ok(Reply {
            session_id: session_id.map(str::to_owned),
            ..Reply::json(json!({"jsonrpc": "2.0", "id": msg["id"], "result": {
                "protocolVersion": "2025-11-25",
                "capabilities": {"extensions": {"io.modelcontextprotocol/skills": {}}},
                "serverInfo": {"name": "s", "version": "1"},
            }}))
        }),
        "notifications/initialized" => note(),
        _ => Ok(Reply::json(
            json!({"jsonrpc": "2.0", "id": msg["id"], "result": {"skills": []}}),
        )),
    })
}

fn accepted() -> Result<Reply> {
    Ok(Reply {
        status: 202,
        content_type: "text/plain",
        chunks: Vec::new(),
        ..Reply::json(json!({}))
    })
}

#[test]
fn server_answers_initialized_with_an_endless_body() {
    let wire = legacy(None, || {
        Ok(Reply {
            status: 200,
            content_type: "text/event-stream",
            chunks: Vec::new(),
            endless: 1 << 30,
            ..Reply::json(json!({}))
        })
    });
    let session = HttpSession::new(ClientInfo::default());
    let facts = block_on(session.connect(&wire, EraChoice::Auto)).unwrap();
    assert_eq!(facts.protocol_version, "2025-11-25");
    // What was read: the reply to initialize, and the notification's up to the cap and one
    // chunk.
    let read = wire.read.get();
    assert!(
        read <= MAX_NOTIFICATION_REPLY_BYTES + 4096 + 1024,
        "{read} bytes of the reply to notifications/initialized were read"
    );
}

#[test]
fn server_sets_a_session_id_with_cr_lf() {
    let wire = legacy(Some("abc\r\nx-injected: 1"), accepted);
    let session = HttpSession::new(ClientInfo::default());
    let facts = block_on(session.connect(&wire, EraChoice::Legacy)).unwrap();
    let c = client();
    c.set_facts(facts).unwrap();
    block_on(c.list(&session.rpc(&wire))).unwrap();
    for h in wire.headers_of("skills/list") {
        assert!(h.iter().all(|(n, _)| n != "mcp-session-id"), "{h:?}");
    }
    // A visible-ASCII id is echoed as it came.
    let wire = legacy(Some("abc-123_~!"), accepted);
    let facts = block_on(session.connect(&wire, EraChoice::Legacy)).unwrap();
    c.set_facts(facts).unwrap();
    block_on(c.list(&session.rpc(&wire))).unwrap();
    let h = wire.headers_of("skills/list");
    assert!(h[0]
        .iter()
        .any(|(n, v)| n == "mcp-session-id" && v == "abc-123_~!"));
}

#[test]
fn server_drops_the_connection_after_initialize() {
    let session = HttpSession::new(ClientInfo::default());
    // Connected once.
    let good = legacy(Some("s1"), accepted);
    block_on(session.connect(&good, EraChoice::Legacy)).unwrap();
    assert!(session.facts().is_some());
    // Connecting again: initialize answers, then the notification's POST fails.
    let failing = legacy(Some("s2"), || {
        Err(ClientError::exchange(
            ExchangeKind::ConnectionFailed,
            "reset",
        ))
    });
    let e = block_on(session.connect(&failing, EraChoice::Legacy)).unwrap_err();
    assert_eq!(e.code, ExchangeKind::ConnectionFailed);
    assert!(session.facts().is_none());
    // Nothing can be sent on the failed session.
    let e = block_on(session.rpc(&failing).call("skills/list", json!({}))).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidArgument);
    // The session owns this rule; a `SkillsClient` holds the facts its owner gives it (the
    // npm `SkillsClientCore.connect` clears them on a failed connect, tested with the package).
}

fn response(content_type: &'static str, chunks: Vec<Vec<u8>>) -> HttpResponse<Chunks> {
    HttpResponse {
        status: 200,
        content_type: Some(content_type.into()),
        session_id: None,
        www_authenticate: None,
        body: Chunks {
            chunks: chunks.into_iter(),
            endless: 0,
            read: Rc::new(Cell::new(0)),
        },
    }
}

fn answer_to(body: &str, id: u64) -> Result<Answer> {
    block_on(read_answer(
        response("application/json", vec![body.as_bytes().to_vec()]),
        id,
        "skills/list",
    ))
}

fn event_answer_to(body: &str, id: u64) -> Result<Answer> {
    let stream = format!("data: {body}\n\n");
    block_on(read_answer(
        response("text/event-stream", vec![stream.into_bytes()]),
        id,
        "skills/list",
    ))
}

#[test]
fn server_sends_a_reply_with_two_ids() {
    for body in [
        r#"{"jsonrpc":"2.0","id":0,"id":1,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":1,"id":1,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"a":1},"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"},"error":{"code":2,"message":"n"}}"#,
        r#"{"jsonrpc":"1.0","jsonrpc":"2.0","id":1,"result":{}}"#,
    ] {
        for e in [answer_to(body, 1), event_answer_to(body, 1)] {
            let e = e.unwrap_err();
            assert_eq!(e.code, ExchangeKind::ProtocolError, "{body}");
            assert!(e.message.contains("duplicate member"), "{}", e.message);
            assert!(
                e.message.contains("names each member once"),
                "{}",
                e.message
            );
        }
    }
    // Members inside the result are the result's business; the envelope is fine.
    assert_eq!(
        answer_to(r#"{"jsonrpc":"2.0","id":1,"result":{"a":1}}"#, 1).unwrap(),
        Answer::Result(r#"{"a":1}"#.into())
    );
}

#[test]
fn server_answers_an_unreadable_request_with_a_null_id() {
    let body = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#;
    for a in [answer_to(body, 4), event_answer_to(body, 4)] {
        assert_eq!(
            a.unwrap(),
            Answer::Error {
                code: -32700,
                message: "Parse error".into(),
                data: None
            }
        );
    }
    // A result must carry the request's own id.
    let e = answer_to(r#"{"jsonrpc":"2.0","id":null,"result":{}}"#, 4).unwrap_err();
    assert_eq!(e.code, ExchangeKind::ProtocolError);
    // An error for another request is still not this one's.
    let other = r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32700,"message":"Parse error"}}"#;
    assert_eq!(
        answer_to(other, 4).unwrap_err().code,
        ExchangeKind::ProtocolError
    );
}

#[test]
fn server_starts_its_event_stream_with_a_byte_order_mark() {
    let body = br#"{"jsonrpc":"2.0","id":2,"result":{"ok":true}}"#;
    let mut stream = b"\xEF\xBB\xBFdata: ".to_vec();
    stream.extend_from_slice(body);
    stream.extend_from_slice(b"\n\n");
    // Whole, and with the mark split over chunks.
    for split in [0, 1, 2, 3, 5] {
        let (a, b) = stream.split_at(split);
        let r = response("text/event-stream", vec![a.to_vec(), b.to_vec()]);
        let answer = block_on(read_answer(r, 2, "skills/list")).unwrap();
        assert_eq!(
            answer,
            Answer::Result(r#"{"ok":true}"#.into()),
            "split at {split}"
        );
    }
}

/// The embedded catalog's responder behind an in-memory endpoint, answering as JSON or, with
/// `stream`, as one event of an event stream after a notification.
struct InProcess {
    responder: skills_edge::server::Responder,
    stream: bool,
}

struct Chunk(Option<Vec<u8>>);

impl ResponseBody for Chunk {
    async fn next_chunk(&mut self) -> Result<Option<Vec<u8>>> {
        Ok(self.0.take())
    }
}

impl HttpIo for InProcess {
    type Body = Chunk;
    async fn post(&self, request: HttpRequest) -> Result<HttpResponse<Chunk>> {
        let header = |n: &str| {
            request
                .headers
                .iter()
                .find(|(k, _)| k == n)
                .map(|(_, v)| v.as_str())
        };
        let transport = skills_edge::server::Transport::Http(skills_edge::server::HttpHeaders {
            protocol_version: header("mcp-protocol-version"),
            method: header("mcp-method"),
            name: header("mcp-name"),
        });
        let reply = self.responder.respond(
            request.body.as_bytes(),
            &transport,
            skills_edge::catalog::Grant::PUBLIC,
        );
        let (content_type, body) = if self.stream && reply.body.is_some() {
            let mut events = b"data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n".to_vec();
            events.extend_from_slice(b"data: ");
            events.extend_from_slice(reply.body.as_deref().unwrap_or_default());
            events.extend_from_slice(b"\n\n");
            ("text/event-stream", Some(events))
        } else {
            ("application/json", reply.body)
        };
        Ok(HttpResponse {
            status: reply.status,
            content_type: Some(content_type.into()),
            session_id: None,
            www_authenticate: None,
            body: Chunk(body),
        })
    }
    fn now_ms(&self) -> f64 {
        0.0
    }
}

/// Each reply, JSON or an event stream, is read once: the client works from the reading of
/// its `result` the exchange made (the strict reader's documents are counted). A cached result
/// is read once when it is used.
#[test]
fn each_reply_is_read_once() {
    use skills_edge::json::PARSED;
    let parsed = || PARSED.with(|p| p.get());
    for stream in [false, true] {
        let io = InProcess {
            responder: skills_edge::server::Responder::new(
                skills_edge::embedded::catalog().unwrap(),
                skills_edge::server::Config::default(),
            )
            .unwrap(),
            stream,
        };
        let session = HttpSession::new(ClientInfo::default());
        let before = parsed();
        let facts = block_on(session.connect(&io, EraChoice::Modern)).unwrap();
        // The server/discover reply: one reading.
        assert_eq!(
            parsed() - before,
            if stream { 2 } else { 1 },
            "stream {stream}"
        );
        let client = SkillsClient::new("docs", HostOptions::default()).unwrap();
        client.set_facts(facts).unwrap();
        let rpc = session.rpc(&io);
        // Every page of a listing: one reading each.
        let before = parsed();
        let listing = block_on(client.list(&rpc)).unwrap();
        let per_reply = if stream { 2 } else { 1 };
        assert_eq!(
            parsed() - before,
            per_reply * listing.pages,
            "skills/list, stream {stream}"
        );
        let uri = "skill://code-review/SKILL.md";
        let before = parsed();
        let got = block_on(client.get(&rpc, uri)).unwrap();
        assert_eq!(got.skill.entry.uri(), uri);
        // A stream's notification event is read too, to learn it is not the response. The
        // listing is cached: skills/get is asked for with its cache (another request).
        assert_eq!(parsed() - before, per_reply, "skills/get, stream {stream}");
        let before = parsed();
        block_on(client.load(&rpc, uri)).unwrap();
        assert_eq!(
            parsed() - before,
            per_reply,
            "resources/read, stream {stream}"
        );
        // The same request again within its TTL: the cached text, read once.
        let before = parsed();
        block_on(client.get(&rpc, uri)).unwrap();
        assert_eq!(parsed() - before, 1, "cached skills/get, stream {stream}");
    }
}
