//! An rmcp 3.11 server with a tool of its own (`word_count`) and the skills its build script
//! compiled (skills-edge-rmcp), over stdio or Streamable HTTP on 127.0.0.1.
//!
//! ```text
//! skills-edge-rmcp-example stdio
//! skills-edge-rmcp-example http [--port N]     (or PORT=N; 0 or absent: a free port)
//! ```
//!
//! Options, from the environment:
//! * `PAGE_SIZE`: items per page of skills/list, resources/list and directory reads (1–1000,
//!   default 50);
//! * `SKILLS_SCOPES`: over stdio, the scopes of its one caller (space-separated), as the host
//!   that starts the process decided;
//! * `SKILLS_SCOPES_HEADER`: over HTTP, the name of a request header whose space-separated
//!   value is taken as the caller's scopes. For tests only: a real deployment puts
//!   authentication in front of the server (a token validator that puts the verified scopes
//!   into the request's extensions) and reads them from there, never from a header any client
//!   can send.
//!
//! Over HTTP it prints `listening on http://127.0.0.1:PORT/mcp` on stderr once it accepts
//! connections.

use std::sync::Arc;

use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
    GetSkillRequestParams, GetSkillResult, Implementation, ListResourceTemplatesResult,
    ListResourcesResult, ListSkillsResult, ListToolsResult, PaginatedRequestParams,
    ReadResourceDirectoryRequestParams, ReadResourceDirectoryResult, ReadResourceRequestParams,
    ReadResourceResponse, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ServerHandler, ServiceExt};
use skills_edge_rmcp::{capabilities, include_pack, Config, SkillsHandler};

/// The server: its own tool, and the skills.
#[derive(Clone)]
struct Server {
    skills: Arc<SkillsHandler>,
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(capabilities(
            ServerCapabilities::builder().enable_tools().build(),
        ))
        .with_server_info(Implementation::new(
            "skills-edge-rmcp-example",
            env!("CARGO_PKG_VERSION"),
        ))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _cx: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(vec![word_count_tool()]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _cx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if request.name != "word_count" {
            return Err(ErrorData::invalid_params(
                format!(
                    "Unknown tool: {} (this server has word_count)",
                    request.name
                ),
                None,
            ));
        }
        let text = request
            .arguments
            .as_ref()
            .and_then(|a| a.get("text"))
            .and_then(|t| t.as_str())
            .ok_or_else(|| ErrorData::invalid_params("word_count needs `text`, a string", None))?;
        let words = text.split_whitespace().count();
        Ok(CallToolResult::success(vec![ContentBlock::text(words.to_string())]).into())
    }

    async fn list_skills(
        &self,
        request: Option<PaginatedRequestParams>,
        cx: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        self.skills.list_skills(request, &cx)
    }

    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        cx: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        self.skills.get_skill(request, &cx)
    }

    async fn read_resource_directory(
        &self,
        request: ReadResourceDirectoryRequestParams,
        cx: RequestContext<RoleServer>,
    ) -> Result<ReadResourceDirectoryResult, ErrorData> {
        self.skills.read_resource_directory(request, &cx)
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        cx: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        self.skills.list_resources(request, &cx)
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        cx: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        self.skills.list_resource_templates(request, &cx)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        cx: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.skills.read_resource(request, &cx).map(Into::into)
    }
}

fn word_count_tool() -> Tool {
    let schema = serde_json::json!({
        "type": "object",
        "properties": { "text": { "type": "string", "description": "The text to count." } },
        "required": ["text"],
    });
    let serde_json::Value::Object(schema) = schema else {
        unreachable!("a JSON object literal")
    };
    Tool::new(
        "word_count",
        "Counts the whitespace-separated words of a text.",
        schema,
    )
}

/// Space-separated scopes.
fn scopes_of(value: &str) -> Vec<String> {
    value.split_whitespace().map(str::to_owned).collect()
}

fn fail(message: impl std::fmt::Display) -> ! {
    eprintln!("skills-edge-rmcp-example: {message}");
    std::process::exit(2)
}

fn usage() -> ! {
    fail(
        "usage: skills-edge-rmcp-example stdio | http [--port N] (PORT=N; env PAGE_SIZE, \
         SKILLS_SCOPES for stdio, SKILLS_SCOPES_HEADER for HTTP tests)",
    )
}

fn config() -> Config {
    let mut config = Config::default();
    if let Ok(v) = std::env::var("PAGE_SIZE") {
        config.page_size = v.parse().unwrap_or_else(|_| {
            fail(format!(
                "PAGE_SIZE is {v:?}: give a whole number from 1 to 1000"
            ))
        });
    }
    config
}

fn handler() -> SkillsHandler {
    SkillsHandler::new(include_pack!(), config()).unwrap_or_else(|e| fail(e))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap_or_else(|e| fail(format!("cannot start the async runtime: {e}")));
    match args.first().map(String::as_str) {
        Some("stdio") if args.len() == 1 => runtime.block_on(stdio()),
        Some("http") => {
            let port = match (args.get(1).map(String::as_str), args.get(2)) {
                (None, _) => std::env::var("PORT").unwrap_or_else(|_| "0".into()),
                (Some("--port"), Some(p)) if args.len() == 3 => p.clone(),
                _ => usage(),
            };
            let port: u16 = port.parse().unwrap_or_else(|_| {
                fail(format!(
                    "the port is {port:?}: give a number from 0 to 65535"
                ))
            });
            runtime.block_on(http(port));
        }
        _ => usage(),
    }
}

async fn stdio() {
    let scopes = scopes_of(&std::env::var("SKILLS_SCOPES").unwrap_or_default());
    // The host that starts the process decided its one caller's scopes.
    let skills = handler().with_scopes(move |_| scopes.clone());
    let server = Server {
        skills: Arc::new(skills),
    };
    let running = server
        .serve(rmcp::transport::stdio())
        .await
        .unwrap_or_else(|e| fail(format!("cannot serve over stdio: {e}")));
    if let Err(e) = running.waiting().await {
        fail(format!("the stdio server stopped: {e}"));
    }
}

async fn http(port: u16) {
    let mut skills = handler();
    if let Ok(name) = std::env::var("SKILLS_SCOPES_HEADER") {
        let name = http::HeaderName::try_from(name.as_str()).unwrap_or_else(|_| {
            fail(format!(
                "SKILLS_SCOPES_HEADER is {name:?}, not a header name"
            ))
        });
        // Tests only (see the module's documentation): the scopes a header claims.
        skills = skills.with_scopes(move |cx| {
            cx.extensions
                .get::<http::request::Parts>()
                .and_then(|parts| parts.headers.get(&name))
                .and_then(|v| v.to_str().ok())
                .map(scopes_of)
                .unwrap_or_default()
        });
    }
    let skills = Arc::new(skills);
    let service = StreamableHttpService::new(
        move || {
            Ok(Server {
                skills: skills.clone(),
            })
        },
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .unwrap_or_else(|e| fail(format!("cannot listen on 127.0.0.1:{port}: {e}")));
    let addr = listener
        .local_addr()
        .unwrap_or_else(|e| fail(format!("cannot read the listening address: {e}")));
    eprintln!("listening on http://{addr}/mcp");
    loop {
        let (stream, _) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    eprintln!("skills-edge-rmcp-example: accept failed: {e}");
                    continue;
                }
            },
            _ = tokio::signal::ctrl_c() => return,
        };
        let service = TowerToHyperService::new(service.clone());
        tokio::spawn(async move {
            let conn = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service);
            if let Err(e) = conn.await {
                eprintln!("skills-edge-rmcp-example: connection: {e}");
            }
        });
    }
}
