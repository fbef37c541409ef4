//! `skills-edge:mcp/responder`: [`skills_edge::server::Responder`] as the `server` resource.

use crate::bindings::exports::skills_edge::mcp::responder as wit;
use crate::Component;
use skills_edge::server;

impl wit::Guest for Component {
    type Server = Server;
}

/// The `server` resource: a responder over the embedded catalog.
pub struct Server(server::Responder);

impl wit::GuestServer for Server {
    fn create(config: wit::Config) -> Result<wit::Server, String> {
        let catalog = skills_edge::embedded::catalog()
            .map_err(|e| format!("the embedded skills catalog cannot be read: {e}"))?;
        let defaults = server::Config::default();
        let settings = server::Config {
            page_size: config.page_size.map_or(defaults.page_size, |n| {
                usize::try_from(n).unwrap_or(usize::MAX)
            }),
            ttl_ms: config.ttl_ms.unwrap_or(defaults.ttl_ms),
            cache_scope: config
                .cache_scope
                .map_or(defaults.cache_scope, |s| match s {
                    wit::CacheScope::Public => server::CacheScope::Public,
                    wit::CacheScope::Private => server::CacheScope::Private,
                }),
            instructions: config.instructions,
            server_info: None,
        };
        server::Responder::new(catalog, settings)
            .map(|r| wit::Server::new(Server(r)))
            .map_err(|e| e.to_string())
    }

    fn respond(&self, message: Vec<u8>, transport: wit::Transport) -> wit::Reply {
        let transport = match &transport {
            wit::Transport::Stream => server::Transport::Stream,
            wit::Transport::Http(h) => server::Transport::Http(server::HttpHeaders {
                protocol_version: h.protocol_version.as_deref(),
                method: h.method.as_deref(),
                name: h.name.as_deref(),
            }),
        };
        let reply = self.0.respond(&message, &transport);
        wit::Reply {
            status: reply.status,
            body: reply.body,
        }
    }
}
