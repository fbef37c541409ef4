//! The Streamable HTTP endpoint: the configuration, the responder, and the decisions on one
//! request (see the table in [`crate::http`]).

use super::body::{DEFAULT_MAX_BODY_BYTES, MAX_MAX_BODY_BYTES};
use super::head::{accepts, is_json_media_type, Head};
use super::origin::{HostList, OriginList, DEFAULT_ALLOWED_HOSTS, DEFAULT_ALLOWED_ORIGINS};
use super::response::Response;
use super::well_known::{
    inert_headers, WellKnown, CORP_GRANT, CORP_PUBLIC, INERT_NAMES, MIRROR_PREFIX,
    WELL_KNOWN_METHODS,
};
use crate::access::Grant;
use crate::protocol::Refusal;
use crate::server::{Config, ConfigError, Responder, SettingKey, Splice};
use crate::view::Catalog;
use std::sync::Arc;

/// The one MCP endpoint path.
pub const ENDPOINT_PATH: &str = "/mcp";

/// `Access-Control-Allow-Methods` of the preflight answer.
pub(crate) const ALLOW_METHODS: &str = "POST, OPTIONS";

/// `Access-Control-Allow-Headers` of the preflight answer: every request header an MCP
/// client sends (and `authorization`, for deployments that put a gateway in front).
pub(crate) const ALLOW_HEADERS: &str =
    "content-type, accept, mcp-protocol-version, mcp-method, mcp-name, authorization";

/// `Access-Control-Max-Age` of the preflight answer, in seconds (browsers cap it: Chromium
/// at 7200).
pub(crate) const MAX_AGE_SECONDS: &str = "7200";

/// The path prefix of the skills inspector page (served when [`HttpConfig::inspector`] is on).
pub const INSPECTOR_PREFIX: &str = "/inspector/";

/// The inspector page's files, as paths below [`INSPECTOR_PREFIX`] and in the adapter's static
/// files below `inspector/` (the npm package's `inspector/`, `lib/` and `web/` files, with
/// the page's import map pointing at `./lib/`), with their content types. Nothing else is
/// served under the prefix.
pub(crate) const INSPECTOR_FILES: &[(&str, &str)] = &[
    ("index.html", "text/html; charset=utf-8"),
    ("inspector.js", "text/javascript; charset=utf-8"),
    ("inspector.css", "text/css; charset=utf-8"),
    ("lib/client.js", "text/javascript; charset=utf-8"),
    ("lib/client-web.js", "text/javascript; charset=utf-8"),
    ("lib/async-verifier.js", "text/javascript; charset=utf-8"),
    ("lib/transport.js", "text/javascript; charset=utf-8"),
    ("web/skills_edge.js", "text/javascript; charset=utf-8"),
    ("web/skills_edge_bg.wasm", "application/wasm"),
];

/// Everything the HTTP endpoint is configured with (parsed from the settings table,
/// [`crate::settings`]).
///
/// ```
/// use skills_edge::http::{Endpoint, HttpConfig, OriginList};
/// let config = HttpConfig {
///     allowed_origins: OriginList::parse("https://app.example").unwrap(),
///     max_body_bytes: 64 * 1024,
///     ..HttpConfig::default()
/// };
/// let endpoint = Endpoint::new(skills_edge::embedded::catalog().unwrap(), config).unwrap();
/// assert_eq!(endpoint.max_body_bytes(), 65_536);
/// let e = HttpConfig { max_body_bytes: 0, ..HttpConfig::default() }.validate().unwrap_err();
/// assert!(e.to_string().starts_with("field max_body_bytes = \"0\" is invalid (out of range)"), "{e}");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpConfig {
    /// The responder's settings (page size, `ttlMs`, `cacheScope`, instructions).
    pub server: Config,
    /// Browser origins allowed (`ALLOWED_ORIGINS`). Requests without `Origin` are always
    /// allowed: they do not come from a web page.
    pub allowed_origins: OriginList,
    /// `Host` values accepted (`ALLOWED_HOSTS`).
    pub allowed_hosts: HostList,
    /// The largest body read, in bytes (`MAX_BODY_BYTES`).
    pub max_body_bytes: usize,
    /// Whether the catalog is also served under `/.well-known/agent-skills/` (`MIRROR`).
    pub mirror: bool,
    /// Whether the skills inspector page is served under `INSPECTOR_PREFIX` (`INSPECTOR`).
    pub inspector: bool,
}

impl Default for HttpConfig {
    fn default() -> Self {
        HttpConfig {
            server: Config::default(),
            allowed_origins: OriginList::parse(DEFAULT_ALLOWED_ORIGINS)
                .unwrap_or(OriginList::Only(Vec::new())),
            allowed_hosts: HostList::parse(DEFAULT_ALLOWED_HOSTS)
                .unwrap_or(HostList::Only(Vec::new())),
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            mirror: true,
            inspector: false,
        }
    }
}

impl HttpConfig {
    /// Checks every setting, the responder's ([`Config::validate`]) and the endpoint's: the one
    /// check of the ranges. [`Endpoint::new`] applies it; the settings table applies it to
    /// every source.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.server.validate()?;
        if !(1..=MAX_MAX_BODY_BYTES).contains(&self.max_body_bytes) {
            return Err(ConfigError::field(
                SettingKey::MaxBodyBytes,
                "max_body_bytes",
                self.max_body_bytes,
                "out of range",
                format!("use an integer from 1 to {MAX_MAX_BODY_BYTES}"),
            ));
        }
        Ok(())
    }
}

/// What the adapter does next with a request.
///
/// ```
/// use skills_edge::catalog::Grant;
/// use skills_edge::http::{Endpoint, Head, HttpConfig, Step};
/// let endpoint = Endpoint::new(skills_edge::embedded::catalog().unwrap(), HttpConfig::default()).unwrap();
/// let post = Head { method: "POST", path: "/mcp", host: Some("localhost"),
///     accept: Some("application/json, text/event-stream"),
///     content_type: Some("application/json"), ..Head::default() };
/// assert_eq!(endpoint.head(&post, Grant::PUBLIC), Step::ReadBody { limit: 1 << 20 });
/// // A body announced larger than the limit is refused before it is read.
/// let big = Head { content_length: Some("2000000"), ..post };
/// let Step::Respond(r) = endpoint.head(&big, Grant::PUBLIC) else { panic!("a 413") };
/// assert_eq!(r.status, 413);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Send this response; do not read the body.
    Respond(Response),
    /// Read the body with a [`super::BodyReader`] of this limit (it keeps at most
    /// `limit + 1` bytes), then call [`Endpoint::body`] with it, or
    /// [`Endpoint::body_too_large`] when it was longer.
    ReadBody {
        /// The largest acceptable body, in bytes.
        limit: usize,
    },
    /// Send `response` with the adapter's static file `inspector/<file>` as its body (a file of
    /// the inspector page, as the npm package's `inspectorFiles()` lists them); an adapter that
    /// has no such file sends `missing` instead (503, `-32603`: the page is switched on but not
    /// deployed).
    Page {
        /// The file, a path below `inspector/` of the adapter's static files.
        file: &'static str,
        /// Its status and headers (the body is the file).
        response: Response,
        /// What to send when the adapter has no such file.
        missing: Response,
    },
}

/// The Streamable HTTP endpoint: configuration plus the responder.
///
/// ```
/// use skills_edge::catalog::Grant;
/// use skills_edge::http::{Endpoint, Head, HttpConfig};
/// let endpoint = Endpoint::new(skills_edge::embedded::catalog().unwrap(), HttpConfig::default()).unwrap();
/// let get = Head { method: "GET", path: "/mcp", host: Some("localhost:8787"), ..Head::default() };
/// let r = endpoint.handle(&get, b"", Grant::PUBLIC);
/// assert_eq!((r.status, r.header("allow")), (405, Some("POST")));
/// // A `Host` outside the allow-list (DNS rebinding) is refused first.
/// let rebound = Head { host: Some("attacker.example"), ..get };
/// assert_eq!(endpoint.handle(&rebound, b"", Grant::PUBLIC).status, 403);
/// ```
pub struct Endpoint {
    responder: Responder,
    allowed_origins: OriginList,
    allowed_hosts: HostList,
    max_body_bytes: usize,
    well_known: Option<WellKnown>,
    inspector: bool,
}

impl Endpoint {
    /// An endpoint serving `catalog` with `config` (checked).
    pub fn new(catalog: Arc<Catalog>, config: HttpConfig) -> Result<Endpoint, ConfigError> {
        config.validate()?;
        let well_known = config
            .mirror
            .then(|| WellKnown::new(&catalog, &config.server));
        Ok(Endpoint {
            responder: Responder::new(catalog, config.server)?,
            allowed_origins: config.allowed_origins,
            allowed_hosts: config.allowed_hosts,
            max_body_bytes: config.max_body_bytes,
            well_known,
            inspector: config.inspector,
        })
    }

    /// The responder behind the endpoint.
    pub fn responder(&self) -> &Responder {
        &self.responder
    }

    /// The body limit in force.
    pub fn max_body_bytes(&self) -> usize {
        self.max_body_bytes
    }

    /// The echoed origin, if the request has an allowed one.
    fn cors_origin<'h>(&self, head: &Head<'h>) -> Option<&'h str> {
        head.origin.filter(|o| self.allowed_origins.allows(o))
    }

    /// Whether `head` asks for a path of the mirror (served: [`HttpConfig::mirror`] is on).
    fn under_mirror(&self, head: &Head<'_>) -> bool {
        self.well_known.is_some() && head.path.starts_with(MIRROR_PREFIX)
    }

    /// The headers every response carries: `Vary`, the CORS headers of an allowed origin, and
    /// under the mirror's prefix the headers that keep an answer inert in a browser
    /// ([`inert_headers`]: whatever answers there, a file, a 404, a 403, a 405, a 401, a
    /// preflight), with `Cross-Origin-Resource-Policy: cross-origin` unless the answer is
    /// made for a grant (the routes set `same-origin` then, and [`Endpoint::framed`] keeps it).
    fn base(&self, head: &Head<'_>, status: u16) -> Response {
        let mut headers = Vec::with_capacity(8);
        headers.push(("vary", "Origin".to_owned()));
        if let Some(o) = self.cors_origin(head) {
            headers.push(("access-control-allow-origin", o.to_owned()));
        }
        if self.under_mirror(head) {
            headers.extend(inert_headers(CORP_PUBLIC));
        }
        Response {
            status,
            headers,
            body: Vec::new(),
            splice: None,
        }
    }

    /// `r` with the headers every response carries (`Vary`, the CORS headers of an allowed
    /// origin, under the mirror's prefix the inert ones) in front of its own: for an adapter
    /// that answers some messages itself (its own methods, after the head passed
    /// [`Endpoint::head`]). An inert header `r` sets itself replaces the common one, so each
    /// is sent once.
    pub fn framed(&self, head: &Head<'_>, r: Response) -> Response {
        let mut out = self.base(head, r.status);
        for (name, value) in r.headers {
            let inert = INERT_NAMES.contains(&name);
            match out.headers.iter_mut().find(|(n, _)| inert && *n == name) {
                Some(slot) => slot.1 = value,
                None => out.headers.push((name, value)),
            }
        }
        out.body = r.body;
        out.splice = r.splice.map(|s| {
            let fault = self.framed(head, s.fault);
            Box::new(Splice { fault, ..*s })
        });
        out
    }

    /// The response to a refused request: its status and headers, the CORS headers of an
    /// allowed origin, and a JSON-RPC error body without `id`.
    pub(crate) fn refuse(&self, head: &Head<'_>, refusal: &Refusal) -> Response {
        let mut r = self.base(head, refusal.status());
        r.set_refusal(refusal);
        r
    }

    /// Decides from the request head alone, for a caller with `grant` ([`Grant::PUBLIC`] for an
    /// anonymous one; what the mirror's routes answer depends on it): an immediate response,
    /// or read the body.
    pub fn head(&self, head: &Head<'_>, grant: Grant) -> Step {
        match self.check_head(head, grant) {
            Ok(step) => step,
            Err(refusal) => Step::Respond(self.refuse(head, &refusal)),
        }
    }

    /// The `Origin` and `Host` rules alone (the first two rows of the table in
    /// [`crate::http`]): `Err` holds the 403 to send. For a step an adapter takes before
    /// [`Endpoint::head`] (the bearer token check, [`crate::http::Bearer`]), so a refused
    /// origin or host gets its 403 before any token is looked at.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn admit(&self, head: &Head<'_>) -> Result<(), Response> {
        self.check_admission(head)
            .map_err(|refusal| self.refuse(head, &refusal))
    }

    fn check_admission(&self, head: &Head<'_>) -> Result<(), Refusal> {
        if let Some(origin) = head.origin
            && !self.allowed_origins.allows(origin)
            && !self.own_page_origin(head, origin)
        {
            // `refuse` adds no CORS headers here: the page must not read the refusal.
            return Err(Refusal::Origin {
                origin: origin.to_owned(),
            });
        }
        if !head.host.is_some_and(|h| self.allowed_hosts.allows(h)) {
            return Err(Refusal::Host {
                host: head.host.map(str::to_owned),
            });
        }
        Ok(())
    }

    fn check_head(&self, head: &Head<'_>, grant: Grant) -> Result<Step, Refusal> {
        self.check_admission(head)?;
        if let Some(routes) = self
            .well_known
            .as_ref()
            .filter(|_| head.path.starts_with(MIRROR_PREFIX))
        {
            return self.well_known_head(routes, head, grant);
        }
        if self.inspector && (head.path == "/inspector" || head.path.starts_with(INSPECTOR_PREFIX))
        {
            return self.page_head(head);
        }
        if head.path != ENDPOINT_PATH {
            return Err(Refusal::Path {
                endpoint: ENDPOINT_PATH,
            });
        }
        if head.method.eq_ignore_ascii_case("OPTIONS") {
            return Ok(Step::Respond(self.preflight(
                head,
                ALLOW_METHODS,
                ALLOW_HEADERS,
            )));
        }
        if !head.method.eq_ignore_ascii_case("POST") {
            return Err(Refusal::Method {
                method: head.method.to_owned(),
            });
        }
        let accept = head.accept.unwrap_or("*/*");
        if !accepts(accept, "application", "json") || !accepts(accept, "text", "event-stream") {
            return Err(Refusal::Accept);
        }
        if !head.content_type.is_some_and(is_json_media_type) {
            return Err(Refusal::MediaType);
        }
        if let Some(len) = head.content_length {
            let t = len.trim();
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
                return Err(Refusal::Length);
            }
            // Too many digits to parse is larger than any limit.
            let n = t.parse::<u64>().unwrap_or(u64::MAX);
            if n > self.max_body_bytes as u64 {
                return Err(self.too_large());
            }
        }
        Ok(Step::ReadBody {
            limit: self.max_body_bytes,
        })
    }

    /// With the inspector page on, a request from a page of this server itself: its `Origin`
    /// names the host it was sent to (the `Host` rule, checked next, must allow that host, so
    /// a rebound DNS name is still refused). The page loads its modules and calls `/mcp`
    /// from there.
    fn own_page_origin(&self, head: &Head<'_>, origin: &str) -> bool {
        let authority = origin
            .strip_prefix("https://")
            .or_else(|| origin.strip_prefix("http://"));
        self.inspector
            && matches!((authority, head.host), (Some(a), Some(h)) if a.eq_ignore_ascii_case(h))
    }

    /// A request for the inspector page (the Origin and Host rules have passed): `GET` or
    /// `HEAD` of one of [`INSPECTOR_FILES`]; `/inspector` is redirected to `/inspector/`.
    fn page_head(&self, head: &Head<'_>) -> Result<Step, Refusal> {
        let m = head.method;
        let head_only = m.eq_ignore_ascii_case("HEAD");
        if !head_only && !m.eq_ignore_ascii_case("GET") {
            return Err(Refusal::PageMethod {
                method: m.to_owned(),
            });
        }
        if head.path == "/inspector" {
            let mut r = self.base(head, 308);
            r.headers.push(("location", INSPECTOR_PREFIX.to_owned()));
            return Ok(Step::Respond(r));
        }
        let rest = head.path.get(INSPECTOR_PREFIX.len()..).unwrap_or("");
        let rest = if rest.is_empty() { "index.html" } else { rest };
        let Some(&(file, content_type)) = INSPECTOR_FILES.iter().find(|(f, _)| *f == rest) else {
            return Err(Refusal::PageFile {
                path: head.path.to_owned(),
            });
        };
        let mut r = self.base(head, 200);
        r.headers.extend([
            ("content-type", content_type.to_owned()),
            ("cache-control", "no-cache".to_owned()),
            ("x-content-type-options", "nosniff".to_owned()),
            ("referrer-policy", "no-referrer".to_owned()),
            ("x-frame-options", "DENY".to_owned()),
        ]);
        if head_only {
            return Ok(Step::Respond(r));
        }
        Ok(Step::Page {
            file,
            response: r,
            missing: self.refuse(head, &Refusal::PageUnavailable),
        })
    }

    /// A request under the mirror's prefix (the Origin and Host rules have passed).
    fn well_known_head(
        &self,
        routes: &WellKnown,
        head: &Head<'_>,
        grant: Grant,
    ) -> Result<Step, Refusal> {
        let m = head.method;
        if m.eq_ignore_ascii_case("OPTIONS") {
            return Ok(Step::Respond(self.preflight(
                head,
                WELL_KNOWN_METHODS,
                "if-none-match",
            )));
        }
        let head_only = m.eq_ignore_ascii_case("HEAD");
        if !head_only && !m.eq_ignore_ascii_case("GET") {
            return Err(Refusal::MirrorMethod {
                method: m.to_owned(),
            });
        }
        // A browser's request from a page of another origin that is no CORS request (a
        // `<script>` or `<img>` load, a frame, a navigation) may carry a grant that comes with
        // the browser (a cookie session, Access's cookie, a component's `SCOPES`), not from the
        // page: it is answered as an anonymous caller's.
        let grant = if head.from_another_origin() {
            Grant::PUBLIC
        } else {
            grant
        };
        let mut r = routes.get(
            self.responder.catalog(),
            head.path,
            head_only,
            head.if_none_match,
            grant,
        );
        if self.cors_origin(head).is_some() {
            r.headers
                .push(("access-control-expose-headers", "etag".to_owned()));
        }
        let mut r = self.framed(head, r);
        // One `Vary` line: `Origin` (every response), and `Authorization` for an answer made
        // for a caller's grant.
        if let Some(pos) = r
            .headers
            .iter()
            .position(|(n, v)| *n == "vary" && v == "Authorization")
        {
            r.headers.remove(pos);
            if let Some((_, v)) = r.headers.iter_mut().find(|(n, _)| *n == "vary") {
                v.push_str(", Authorization");
            }
        }
        Ok(Step::Respond(r))
    }

    /// The CORS preflight answer (204; the CORS headers only for an allowed origin).
    pub(super) fn preflight(&self, head: &Head<'_>, methods: &str, headers: &str) -> Response {
        let mut r = self.base(head, 204);
        if self.cors_origin(head).is_some() {
            r.headers
                .push(("access-control-allow-methods", methods.to_owned()));
            r.headers
                .push(("access-control-allow-headers", headers.to_owned()));
            r.headers
                .push(("access-control-max-age", MAX_AGE_SECONDS.to_owned()));
        }
        r.headers.push(("allow", methods.to_owned()));
        r
    }

    fn too_large(&self) -> Refusal {
        Refusal::TooLarge {
            limit: self.max_body_bytes,
        }
    }

    /// The 413 response for a body longer than the limit.
    pub fn body_too_large(&self, head: &Head<'_>) -> Response {
        self.refuse(head, &self.too_large())
    }

    /// The 400 response for a body the platform could not deliver (the client went away, or
    /// sent fewer bytes than its `Content-Length`).
    pub fn body_unreadable(&self, head: &Head<'_>) -> Response {
        self.refuse(head, &Refusal::Unreadable)
    }

    /// The 503 response for a request an adapter had to drop while its body was being read
    /// (too many in progress at once). Its head is gone, so it carries no CORS headers.
    pub fn overloaded(&self) -> Response {
        Response::refused(&Refusal::Overloaded)
    }

    /// Answers a request whose head passed [`Endpoint::head`] with its body, for a caller
    /// with `grant` ([`Responder::respond`]; [`Grant::PUBLIC`] for an anonymous one). In a
    /// catalog with private skills, an answer made for a caller with a grant (not the public
    /// one) carries `Cache-Control: private` (an adapter's cache rule may make it stricter,
    /// [`crate::http::Bearer::cache_rule`]) and `Cross-Origin-Resource-Policy: same-origin`,
    /// as the mirror's answers made for a grant do; the fault of its splice too.
    pub fn body(&self, head: &Head<'_>, body: &[u8], grant: Grant) -> Response {
        if body.len() > self.max_body_bytes {
            return self.body_too_large(head);
        }
        let reply = self.responder.respond(body, &head.transport(), grant);
        let for_grant = self.responder.catalog().has_private() && !grant.is_public();
        let base = |status| {
            let mut r = self.base(head, status);
            if for_grant {
                r.headers.extend([
                    ("cache-control", "private".to_owned()),
                    ("cross-origin-resource-policy", CORP_GRANT.to_owned()),
                ]);
            }
            r
        };
        let mut r = base(reply.status);
        if let Some(b) = reply.body {
            r.headers
                .push(("content-type", "application/json".to_owned()));
            r.body = b;
        }
        r.splice = reply.splice.map(|s| {
            let Splice {
                asset,
                len,
                tail,
                fault: reply,
            } = *s;
            let mut fault = base(reply.status);
            fault
                .headers
                .push(("content-type", "application/json".to_owned()));
            fault.body = reply.body.unwrap_or_default();
            Box::new(Splice {
                asset,
                len,
                tail,
                fault,
            })
        });
        r
    }

    /// Both steps at once, for adapters that already hold the whole body (tests, servers
    /// whose platform enforces the limit), for a caller with `grant` (the scopes of its token,
    /// mapped by [`Catalog::grant`]; [`Grant::PUBLIC`] for an anonymous one):
    /// [`Endpoint::head`], then [`Endpoint::body`]. A page file comes back as its `missing`
    /// response (this function has no static files).
    pub fn handle(&self, head: &Head<'_>, body: &[u8], grant: Grant) -> Response {
        match self.head(head, grant) {
            Step::Respond(r) => r,
            Step::ReadBody { .. } => self.body(head, body, grant),
            Step::Page { missing, .. } => missing,
        }
    }
}
