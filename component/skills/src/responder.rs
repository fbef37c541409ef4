//! `skills-edge:mcp/responder`: [`skills_edge::server::Responder`] as the `server` resource.

use crate::bindings::exports::skills_edge::mcp::responder as wit;
use crate::Component;
use skills_edge::server::{self, SettingKey};
use skills_edge::settings::{self, Source};

impl wit::Guest for Component {
    type Server = Server;
}

/// The `server` resource: a responder over the embedded catalog.
pub struct Server(server::Responder);

impl wit::GuestServer for Server {
    fn create(config: wit::Config) -> Result<wit::Server, String> {
        let catalog = skills_edge::embedded::catalog()
            .map_err(|e| format!("the embedded skills catalog cannot be read: {e}"))?;
        // The typed record goes through the settings table like every other source, so the
        // ranges and the messages are the ones the Worker and the native command use.
        let settings = settings::server_config(Source::Wit, |s| match s.key {
            SettingKey::PageSize => config.page_size.map(|n| n.to_string()),
            SettingKey::TtlMs => config.ttl_ms.map(|n| n.to_string()),
            SettingKey::CacheScope => config.cache_scope.map(|c| {
                match c {
                    wit::CacheScope::Public => "public",
                    wit::CacheScope::Private => "private",
                }
                .to_owned()
            }),
            SettingKey::Instructions => config.instructions.clone(),
            SettingKey::Fallback => config.fallback.map(|f| {
                let has = |flag: wit::FallbackSurface| (f & flag) == flag;
                let tools = has(wit::FallbackSurface::TOOLS);
                let prompts = has(wit::FallbackSurface::PROMPTS);
                skills_edge::server::Fallback { tools, prompts }
                    .as_str()
                    .to_owned()
            }),
            // The record has no field for these (`Setting::wit` is empty), so they are
            // never asked for.
            SettingKey::ServerName
            | SettingKey::ServerVersion
            | SettingKey::AllowedOrigins
            | SettingKey::AllowedHosts
            | SettingKey::MaxBodyBytes
            | SettingKey::Mirror
            | SettingKey::Inspector
            | SettingKey::AuthMode
            | SettingKey::AuthIssuer
            | SettingKey::AuthAudience
            | SettingKey::AuthJwksUrl
            | SettingKey::AuthScopesClaim => None,
        })
        .map_err(|e| e.to_string())?;
        server::Responder::new(catalog, settings)
            .map(|r| wit::Server::new(Server(r)))
            .map_err(|e| settings::named_for(Source::Wit, e).to_string())
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
