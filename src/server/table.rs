//! The one table of the methods this server answers: a row names the method, the protocol
//! eras it is served in, when it is offered (always, or with the tools or prompts fallback),
//! how its 2026-07-28 result closes (cacheable or not), the body field `Mcp-Name` repeats,
//! the capability it declares, and the function that renders it. Both eras' dispatch, the
//! `Mcp-Name` check and the declared capabilities are read from it, so adding a method is one
//! row (and the function that renders it).

use super::{Fallback, Rendered, Responder};
use crate::access::Grant;
use crate::protocol::envelope::raw_str;
use crate::protocol::headers::NamedField;
use crate::protocol::{
    NamedParams, Params, RpcError, LEGACY_VERSIONS, MODERN_VERSIONS, SKILLS_EXTENSION,
};
use crate::skill::value::write_json_string;

/// The protocol eras a method is served in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Eras {
    /// 2025-11-25 only (`initialize`, `ping`: removed in 2026-07-28).
    Legacy,
    /// 2026-07-28 only (`server/discover`).
    Modern,
    /// Both.
    Both,
}

/// When a method is offered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Offer {
    /// Always.
    Always,
    /// With the tools fallback on ([`super::Fallback::tools`]).
    Tools,
    /// With the prompts fallback on ([`super::Fallback::prompts`]).
    Prompts,
}

/// What a method declares in `capabilities` when it is offered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Declares {
    /// Nothing of its own.
    Nothing,
    /// A capability of the server (`"resources":{}`).
    Capability(&'static str),
    /// The Skills extension.
    Extension,
    /// A setting of the Skills extension, `true` (`"directoryRead":true`).
    ExtensionSetting(&'static str),
}

/// The body field `Mcp-Name` repeats over HTTP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Named {
    /// `params.uri`, the resource URI.
    Uri,
    /// `params.name`; what it names, for the message (`the tool name`).
    Name(&'static str),
}

/// Renders a method's result, an object left open: the table's closing part follows it (the
/// cache hints and `_meta` of a 2026-07-28 result, or `}`). `modern` is the era.
type Run = for<'p> fn(&Responder, &Params<'p>, bool, Grant) -> Result<Rendered, RpcError>;

/// One method of the table.
pub(super) struct Method {
    /// The JSON-RPC method name.
    pub(super) name: &'static str,
    /// The eras it is served in.
    pub(super) eras: Eras,
    /// When it is offered.
    pub(super) offer: Offer,
    /// Whether a 2026-07-28 result carries the cache hints (`ttlMs`, `cacheScope`).
    pub(super) cacheable: bool,
    /// The body field `Mcp-Name` must repeat, if any.
    pub(super) named: Option<Named>,
    /// What it declares in `capabilities`.
    pub(super) declares: Declares,
    /// Its result.
    pub(super) run: Run,
    /// The adapters over the responder that answer it with their own types: the rmcp
    /// handler's method (`SkillsHandler::list_skills`) and the member of the npm package's
    /// `packSkillSource` (the official TypeScript SDK's `SkillSource`: `list`). Read by the
    /// test that checks each adapter has exactly the table's methods.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(super) adapters: Adapters,
}

/// The names of a method in the adapters that build their own result types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Adapters {
    /// `SkillsHandler`'s method (crate skills-edge-rmcp).
    pub(super) rmcp: Option<&'static str>,
    /// The member of the `SkillSource` that `packSkillSource` makes (pkg/lib/sdk.js).
    pub(super) sdk: Option<&'static str>,
}

/// A method the adapters leave to the SDK they plug into (or that only the responder serves).
const NONE: Adapters = Adapters {
    rmcp: None,
    sdk: None,
};

/// Every method served, in the order the capabilities are declared.
pub(super) const METHODS: &[Method] = &[
    Method {
        name: "server/discover",
        eras: Eras::Modern,
        offer: Offer::Always,
        cacheable: true,
        named: None,
        declares: Declares::Nothing,
        run: |r, _, _, g| Ok(r.discover(g)),
        adapters: NONE,
    },
    Method {
        name: "initialize",
        eras: Eras::Legacy,
        offer: Offer::Always,
        cacheable: false,
        named: None,
        declares: Declares::Nothing,
        run: |r, p, _, g| r.initialize(p, g),
        adapters: NONE,
    },
    Method {
        name: "ping",
        eras: Eras::Legacy,
        offer: Offer::Always,
        cacheable: false,
        named: None,
        declares: Declares::Nothing,
        // An empty result (the closing `}` follows).
        run: |_, _, _, _| Ok(Rendered::Whole("{".to_owned())),
        adapters: NONE,
    },
    Method {
        name: "skills/list",
        eras: Eras::Both,
        offer: Offer::Always,
        cacheable: true,
        named: None,
        declares: Declares::Extension,
        run: |r, p, m, g| r.skills_list(p, m, g).map(Rendered::Whole),
        adapters: Adapters {
            rmcp: Some("list_skills"),
            sdk: Some("list"),
        },
    },
    Method {
        name: "skills/get",
        eras: Eras::Both,
        offer: Offer::Always,
        cacheable: true,
        named: None,
        declares: Declares::Extension,
        run: |r, p, m, g| r.skills_get(p, m, g).map(Rendered::Whole),
        adapters: Adapters {
            rmcp: Some("get_skill"),
            sdk: Some("get"),
        },
    },
    Method {
        name: "resources/list",
        eras: Eras::Both,
        offer: Offer::Always,
        cacheable: true,
        named: None,
        declares: Declares::Capability("resources"),
        run: |r, p, m, g| r.resources_list(p, m, g).map(Rendered::Whole),
        adapters: Adapters {
            rmcp: Some("list_resources"),
            sdk: Some("listResources"),
        },
    },
    Method {
        name: "resources/templates/list",
        eras: Eras::Both,
        offer: Offer::Always,
        cacheable: true,
        named: None,
        declares: Declares::Capability("resources"),
        run: |r, p, m, g| r.templates_list(p, m, g).map(Rendered::Whole),
        adapters: Adapters {
            rmcp: Some("list_resource_templates"),
            sdk: None,
        },
    },
    Method {
        name: "resources/read",
        eras: Eras::Both,
        offer: Offer::Always,
        cacheable: true,
        named: Some(Named::Uri),
        declares: Declares::Capability("resources"),
        run: |r, p, m, g| r.resources_read(p, m, g),
        adapters: Adapters {
            rmcp: Some("read_resource"),
            sdk: Some("read"),
        },
    },
    // Not a CacheableResult on the stable spec page, but the official TypeScript SDK (2.4)
    // requires ttlMs and cacheScope on it at 2026-07-28 (as its server sends them); clients
    // that follow the page ignore the extra fields.
    Method {
        name: "resources/directory/read",
        eras: Eras::Both,
        offer: Offer::Always,
        cacheable: true,
        named: None,
        declares: Declares::ExtensionSetting("directoryRead"),
        run: |r, p, m, g| r.directory_read(p, m, g).map(Rendered::Whole),
        adapters: Adapters {
            rmcp: Some("read_resource_directory"),
            sdk: Some("readDirectory"),
        },
    },
    Method {
        name: "tools/list",
        eras: Eras::Both,
        offer: Offer::Tools,
        cacheable: true,
        named: None,
        declares: Declares::Capability("tools"),
        run: |r, p, m, g| r.tools_list(p, m, g),
        adapters: NONE,
    },
    Method {
        name: "tools/call",
        eras: Eras::Both,
        offer: Offer::Tools,
        cacheable: false,
        named: Some(Named::Name("the tool name")),
        declares: Declares::Capability("tools"),
        run: |r, p, m, g| r.tools_call(p, m, g),
        adapters: NONE,
    },
    Method {
        name: "prompts/list",
        eras: Eras::Both,
        offer: Offer::Prompts,
        cacheable: true,
        named: None,
        declares: Declares::Capability("prompts"),
        run: |r, p, m, g| r.prompts_list(p, m, g),
        adapters: NONE,
    },
    Method {
        name: "prompts/get",
        eras: Eras::Both,
        offer: Offer::Prompts,
        cacheable: false,
        named: Some(Named::Name("the prompt name")),
        declares: Declares::Capability("prompts"),
        run: |r, p, m, g| r.prompts_get(p, m, g),
        adapters: NONE,
    },
];

/// Methods of 2025-11-25 that 2026-07-28 removed: `-32601` with a hint there.
pub(super) const REMOVED_IN_MODERN: &[&str] = &[
    "initialize",
    "ping",
    "logging/setLevel",
    "resources/subscribe",
    "resources/unsubscribe",
];

impl Method {
    /// Whether the method is served in the era (`modern`).
    fn in_era(&self, modern: bool) -> bool {
        match self.eras {
            Eras::Both => true,
            Eras::Modern => modern,
            Eras::Legacy => !modern,
        }
    }

    /// The body field `Mcp-Name` must repeat, with its value in `params`.
    pub(super) fn named_field<'p>(&self, params: &Params<'p>) -> Option<NamedField<'p>> {
        match self.named? {
            Named::Uri => Some(NamedField {
                field: "uri",
                what: "the resource URI",
                value: params.uri,
            }),
            Named::Name(what) => Some(NamedField {
                field: "name",
                what,
                value: NamedParams::parse(params.raw).ok().and_then(|n| n.name),
            }),
        }
    }

    /// Whether the method is offered with the fallback settings `f`.
    fn offered(&self, f: Fallback) -> bool {
        match self.offer {
            Offer::Always => true,
            Offer::Tools => f.any_tools(),
            Offer::Prompts => f.prompts,
        }
    }
}

/// `"capabilities":{…}` from the rows offered with the fallback settings `f`: each capability
/// once, in table order, then the Skills extension with its settings.
pub(super) fn declared_capabilities(f: Fallback) -> String {
    let offered = || METHODS.iter().filter(|m| m.offered(f));
    let mut ci = String::from("\"capabilities\":{");
    let mut seen: Vec<&str> = Vec::new();
    for m in offered() {
        if let Declares::Capability(c) = m.declares
            && !seen.contains(&c)
        {
            if !seen.is_empty() {
                ci.push(',');
            }
            seen.push(c);
            write_json_string(c, &mut ci);
            ci.push_str(":{}");
        }
    }
    if offered().any(|m| m.declares == Declares::Extension) {
        if !seen.is_empty() {
            ci.push(',');
        }
        ci.push_str("\"extensions\":{");
        write_json_string(SKILLS_EXTENSION, &mut ci);
        ci.push_str(":{");
        let mut first = true;
        for m in offered() {
            if let Declares::ExtensionSetting(s) = m.declares {
                if !first {
                    ci.push(',');
                }
                first = false;
                write_json_string(s, &mut ci);
                ci.push_str(":true");
            }
        }
        ci.push_str("}}");
    }
    ci.push('}');
    ci
}

impl Responder {
    /// The row of `name` in the era (`modern`), when this responder offers it.
    pub(super) fn method(&self, name: &str, modern: bool) -> Option<&'static Method> {
        let f = self.config.fallback;
        METHODS
            .iter()
            .find(|m| m.name == name && m.in_era(modern) && m.offered(f))
    }

    /// `server/discover`'s result (open).
    fn discover(&self, g: Grant) -> Rendered {
        let mut b = String::from("{\"resultType\":\"complete\",\"supportedVersions\":[");
        for (i, v) in MODERN_VERSIONS.iter().enumerate() {
            if i > 0 {
                b.push(',');
            }
            write_json_string(v, &mut b);
        }
        b.push_str("],");
        b.push_str(&self.capabilities_for(g));
        Rendered::Whole(b)
    }

    /// `initialize`'s result (open): the version chosen, the capabilities and `serverInfo`.
    fn initialize(&self, params: &Params<'_>, g: Grant) -> Result<Rendered, RpcError> {
        let requested = params.protocol_version.and_then(raw_str).ok_or_else(|| {
            RpcError::InvalidParams("`protocolVersion` (a string) is required in initialize".into())
        })?;
        let chosen = LEGACY_VERSIONS
            .iter()
            .find(|v| **v == requested)
            .unwrap_or(&LEGACY_VERSIONS[0]);
        let mut b = String::from("{\"protocolVersion\":");
        write_json_string(chosen, &mut b);
        b.push(',');
        b.push_str(&self.capabilities_for(g));
        // 2025-11-25 carries serverInfo in the body; 2026-07-28 only in `_meta`.
        b.push_str(",\"serverInfo\":");
        b.push_str(&self.server_info);
        Ok(Rendered::Whole(b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A method has one row per era, so the dispatch finds the one meant.
    #[test]
    fn each_method_has_one_row_per_era() {
        for modern in [false, true] {
            let mut names: Vec<&str> = METHODS
                .iter()
                .filter(|m| m.in_era(modern))
                .map(|m| m.name)
                .collect();
            let all = names.len();
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), all, "a method named twice (modern: {modern})");
        }
    }

    /// What 2026-07-28 removed has no modern row (it is `-32601` with a hint there).
    #[test]
    fn removed_methods_have_no_modern_row() {
        for name in REMOVED_IN_MODERN {
            assert!(
                !METHODS.iter().any(|m| m.name == *name && m.in_era(true)),
                "{name}"
            );
        }
    }

    /// The adapters that build their own result types answer exactly the table's methods: the
    /// rmcp handler has a method per row that names one (and the example server calls it),
    /// the npm package's `packSkillSource` a member per row that names one, and neither has
    /// one the table does not name. Adding a method is a row; this test names the adapter
    /// that lacks it.
    #[test]
    fn the_adapters_answer_the_tables_methods() {
        let root = env!("CARGO_MANIFEST_DIR");
        let read = |p: &str| std::fs::read_to_string(format!("{root}/{p}")).expect(p);
        let (rmcp, example, sdk) = (
            read("rmcp/src/lib.rs"),
            read("rmcp/examples/server/src/main.rs"),
            read("pkg/lib/sdk.js"),
        );
        let named = |f: fn(&Adapters) -> Option<&'static str>| -> Vec<&str> {
            let mut v: Vec<&str> = METHODS.iter().filter_map(|m| f(&m.adapters)).collect();
            v.sort_unstable();
            v
        };
        // The handler's methods: those that take who asks.
        let mut handler: Vec<&str> = rmcp
            .split("pub fn ")
            .skip(1)
            .filter(|f| {
                f.split(')')
                    .next()
                    .is_some_and(|a| a.contains("who: impl Asker"))
            })
            .filter_map(|f| f.split('(').next())
            .collect();
        handler.sort_unstable();
        assert_eq!(handler, named(|a| a.rmcp), "rmcp/src/lib.rs");
        for m in named(|a| a.rmcp) {
            assert!(
                example.contains(&format!(".{m}(")),
                "the example server calls {m}"
            );
        }
        // The source's members: `async name(` inside `const source = {`.
        let source = sdk
            .split("const source = {")
            .nth(1)
            .and_then(|s| s.split("\n    };").next())
            .expect("pkg/lib/sdk.js has its source object");
        let mut members: Vec<&str> = source
            .split("async ")
            .skip(1)
            .filter_map(|f| f.split('(').next())
            .collect();
        members.sort_unstable();
        assert_eq!(members, named(|a| a.sdk), "pkg/lib/sdk.js");
    }

    /// The capabilities follow the rows offered: the fallback's capabilities only when on.
    #[test]
    fn capabilities_follow_the_rows_offered() {
        let ext = r#""extensions":{"io.modelcontextprotocol/skills":{"directoryRead":true}}"#;
        let off = Fallback::NONE;
        assert_eq!(
            declared_capabilities(off),
            format!(r#""capabilities":{{"resources":{{}},{ext}}}"#)
        );
        let on = Fallback::ALL;
        assert_eq!(
            declared_capabilities(on),
            format!(r#""capabilities":{{"resources":{{}},"tools":{{}},"prompts":{{}},{ext}}}"#)
        );
        let search = Fallback {
            search: true,
            ..Fallback::NONE
        };
        assert_eq!(
            declared_capabilities(search),
            format!(r#""capabilities":{{"resources":{{}},"tools":{{}},{ext}}}"#)
        );
    }
}
