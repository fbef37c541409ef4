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
                skills_edge::server::Fallback {
                    tools,
                    prompts,
                    search: false,
                }
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
            | SettingKey::AuthScopesClaim
            | SettingKey::AuthTokenProfile
            | SettingKey::Scopes => None,
        })
        .map_err(|e| e.to_string())?;
        server::Responder::new(catalog, settings)
            .map(|r| wit::Server::new(Server(r)))
            .map_err(|e| settings::named_for(Source::Wit, e).to_string())
    }

    fn respond(&self, message: Vec<u8>, transport: wit::Transport) -> wit::Reply {
        self.answer(&message, &transport, server::Grant::PUBLIC)
    }

    fn respond_as(
        &self,
        message: Vec<u8>,
        transport: wit::Transport,
        scopes: Vec<String>,
    ) -> wit::Reply {
        // The scopes are the host's word: the component does not authenticate.
        let grant = self.0.catalog().grant(&scopes);
        self.answer(&message, &transport, grant)
    }
}

impl Server {
    /// The reply to `message` for a caller with `grant` ([`server::Responder::respond`]).
    fn answer(
        &self,
        message: &[u8],
        transport: &wit::Transport,
        grant: server::Grant,
    ) -> wit::Reply {
        let transport = match transport {
            wit::Transport::Stream => server::Transport::Stream,
            wit::Transport::Http(h) => server::Transport::Http(server::HttpHeaders {
                protocol_version: h.protocol_version.as_deref(),
                method: h.method.as_deref(),
                name: h.name.as_deref(),
            }),
        };
        let reply = self.0.respond(message, &transport, grant);
        wit::Reply {
            status: reply.status,
            body: reply.body,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skills_edge::catalog::compile::SourceTree;
    use skills_edge::catalog::Catalog;
    use std::sync::Arc;
    use wit::GuestServer;

    /// A server over a public skill and a private one (scope `team`).
    fn server() -> Server {
        let mut t = SourceTree::default();
        for n in ["hello", "secret"] {
            t.add_file(
                &format!("{n}/SKILL.md"),
                format!("---\nname: {n}\ndescription: The {n} skill, described.\n---\n\n# {n}\n"),
            );
        }
        t.add_file(
            "skills-edge.toml",
            "[[access]]\nskills = [\"secret\"]\nscopes = [\"team\"]\n",
        );
        let catalog = Arc::new(Catalog::compile(t, None).expect("compiles"));
        Server(server::Responder::new(catalog, server::Config::default()).expect("valid"))
    }

    fn message(id: u32, method: &str, params: &str) -> Vec<u8> {
        let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"0"}}"#;
        let sep = if params.is_empty() { "" } else { "," };
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{params}{sep}{meta}}}}}"#
        )
        .into_bytes()
    }

    fn text(reply: wit::Reply) -> String {
        String::from_utf8(reply.body.expect("a response")).expect("UTF-8")
    }

    #[test]
    fn respond_as_applies_the_access_rules_to_the_scopes() {
        let s = server();
        let list = || message(1, "skills/list", "");
        let get = || message(2, "skills/get", r#""uri":"skill://secret/SKILL.md""#);
        let read = || message(3, "resources/read", r#""uri":"skill://secret/SKILL.md""#);
        let anonymous = [
            s.respond(list(), wit::Transport::Stream),
            s.respond_as(list(), wit::Transport::Stream, vec![]),
            s.respond_as(list(), wit::Transport::Stream, vec!["other".into()]),
        ];
        for r in anonymous {
            let t = text(r);
            assert!(t.contains("skill://hello/SKILL.md"), "{t}");
            assert!(!t.contains("secret"), "{t}");
            assert!(t.contains(r#""cacheScope":"public""#), "{t}");
        }
        for m in [get(), read()] {
            let r = s.respond_as(m, wit::Transport::Stream, vec!["other".into()]);
            let t = text(r);
            assert!(t.contains(r#""code":-32602"#), "{t}");
            assert!(!t.contains("The secret skill"), "{t}");
        }
        let team = || vec!["other".to_owned(), "team".to_owned()];
        for m in [list(), get(), read()] {
            let t = text(s.respond_as(m, wit::Transport::Stream, team()));
            assert!(t.contains("skill://secret/SKILL.md"), "{t}");
            assert!(t.contains(r#""cacheScope":"private""#), "{t}");
            assert!(!t.contains(r#""error""#), "{t}");
        }
        let t = text(s.respond_as(read(), wit::Transport::Stream, team()));
        assert!(t.contains("The secret skill, described."), "{t}");
    }
}
