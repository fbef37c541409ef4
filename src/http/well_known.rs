//! The routes under `/.well-known/agent-skills/`, which serve the catalog's mirror: the same
//! catalog as plain HTTP for agents that do not speak MCP (Agent Skills Discovery RFC v0.2.0).
//! The mirror itself (its index, which skills it publishes, their archives) is the catalog's
//! data, made at build time: see `crate::compile::mirror` and
//! `crate::compile::archive`; this module only answers HTTP requests for it.
//!
//! * `GET /.well-known/agent-skills/index.json`: the index, rendered at build time;
//! * `GET /.well-known/agent-skills/{name}.tar.gz`: the archive of the skill mirrored as
//!   `name` (`type: "archive"` in the index), `Content-Type: application/gzip` (the RFC's HTTP
//!   rules; never a `Content-Encoding`: the gzip bytes are the artifact its digest covers);
//! * `GET /.well-known/agent-skills/{name}/{path}`: a file of the skill mirrored as `name`,
//!   with its MIME type;
//! * in a signed catalog only (see `crate::compile::signing`):
//!   `GET /.well-known/agent-skills/{name}.dsse.json`, the DSSE envelope of the skill mirrored
//!   as `name`, and `GET /.well-known/agent-skills/keys.json`, the JWK Set of the signer's
//!   public key, both `Content-Type: application/json` (404 in a catalog that is not signed);
//! * each with a strong `ETag` made of its SHA-256 (`"<64 hex>"`), `Cache-Control` from the
//!   `TTL_MS` and `CACHE_SCOPE` settings, and `304 Not Modified` when `If-None-Match` names
//!   that tag; bytes kept as an asset are the raw asset, spliced in by the adapter (a missing or
//!   truncated asset answers 500, never other bytes);
//! * `HEAD` the same without the body; anything else under the prefix is 404;
//! * every answer inert in a browser: `X-Content-Type-Options: nosniff`,
//!   `Content-Security-Policy: default-src 'none'; sandbox`, `Content-Disposition:
//!   attachment` for a file of a type not in `INLINE_TYPES` (HTML, SVG, XML, JavaScript, PDF,
//!   archives, …: the type and the bytes stay the file's, so every digest holds), and
//!   `Cross-Origin-Resource-Policy`: `same-origin` for an answer made for a caller's grant
//!   (a browser hands it to this origin's pages only), `cross-origin` for the public ones.
//!
//! The `Host` and `Origin` rules and the CORS headers are the ones of `/mcp`: the endpoint
//! applies them to every path before routing.

use super::response::Response;
use crate::access::Grant;
use crate::compile::archive::{ARCHIVE_MIME, ARCHIVE_SUFFIX};
use crate::pack;
use crate::server::Config;
use crate::server::Splice;
use crate::view::Catalog;
use crate::view::Content;

/// The path prefix of the mirror.
pub(crate) use crate::compile::mirror::MIRROR_PREFIX;
use crate::compile::mirror::{ENVELOPE_SUFFIX, INDEX_PATH, KEYS_PATH};

/// The methods the mirror answers.
pub(crate) const WELL_KNOWN_METHODS: &str = "GET, HEAD, OPTIONS";

/// Bytes the mirror serves: a file or an archive.
struct Artifact<'a> {
    mime: &'a str,
    /// `sha256:` + 64 lowercase hex.
    digest: &'a str,
    size: u64,
    /// The bytes, when the pack has them (else they are the raw asset of the digest).
    inline: Option<&'a [u8]>,
}

/// What the routes answer, before the common headers (`Vary`, CORS) are added.
pub(crate) struct WellKnown {
    cache_control: String,
    /// `Cache-Control` of an answer made for a caller with a grant (a catalog with private
    /// skills): `private`, whatever `CACHE_SCOPE` says.
    cache_control_private: String,
    index_etag: String,
    /// The ETag of `keys.json` (signed catalogs only).
    keys_etag: Option<String>,
}

impl WellKnown {
    pub(crate) fn new(catalog: &Catalog, config: &Config) -> WellKnown {
        let scope = config.cache_scope.as_str();
        // The index is hashed once, when the endpoint is made; files carry their digests.
        let index_digest =
            crate::skill::digest::digest_of(catalog.mirror_index(Grant::PUBLIC).as_bytes());
        let keys_digest = catalog
            .keys_json()
            .map(|k| crate::skill::digest::digest_of(k.as_bytes()));
        WellKnown {
            cache_control: format!("{scope}, max-age={}", config.ttl_ms / 1000),
            cache_control_private: format!("private, max-age={}", config.ttl_ms / 1000),
            index_etag: etag(&index_digest),
            keys_etag: keys_digest.as_deref().map(etag),
        }
    }

    /// The answer to `GET`/`HEAD` of `path` (under [`MIRROR_PREFIX`]) for a caller with
    /// `grant`. In a catalog with private skills, a caller with a grant gets its own index
    /// (the skills it sees), and every answer made for it is `Cache-Control: private` with
    /// `Vary: Authorization` and `Cross-Origin-Resource-Policy: same-origin`; a skill it does
    /// not see is answered as one that does not exist (404, the same body). An anonymous
    /// caller's answers are the same as in a catalog without private skills. Every answer
    /// carries the headers of `inert`.
    pub(crate) fn get(
        &self,
        catalog: &Catalog,
        path: &str,
        head_only: bool,
        if_none_match: Option<&str>,
        grant: Grant,
    ) -> Response {
        let for_grant = catalog.has_private() && !grant.is_public();
        let mut r = if for_grant {
            self.get_for_grant(catalog, path, head_only, if_none_match, grant)
        } else {
            self.get_public(catalog, path, head_only, if_none_match, grant)
        };
        // Answers made for a grant are for this origin's pages only; public answers stay
        // usable from any page (the mirror is meant to be read from anywhere).
        let corp = if for_grant { CORP_GRANT } else { CORP_PUBLIC };
        inert(&mut r, corp);
        if let Some(s) = r.splice.as_mut() {
            inert(&mut s.fault, corp);
        }
        r
    }

    /// The answer to a caller with a grant in a catalog with private skills: its own index,
    /// `Cache-Control: private` and `Vary: Authorization`.
    fn get_for_grant(
        &self,
        catalog: &Catalog,
        path: &str,
        head_only: bool,
        if_none_match: Option<&str>,
        grant: Grant,
    ) -> Response {
        let mut r = if path == INDEX_PATH {
            let body = catalog.mirror_index(grant).into_owned();
            // Precomputed per audience class when the catalog loaded: no hashing per request.
            let tag = match catalog.mirror_index_tag_for(grant) {
                Some(hex) => format!("\"{hex}\""),
                None => self.index_etag.clone(),
            };
            self.ok(
                "application/json",
                &tag,
                if_none_match,
                head_only,
                body.into_bytes(),
            )
        } else {
            self.get_public(catalog, path, head_only, if_none_match, grant)
        };
        // Every answer made for the grant, a 404 (a skill it does not see, or none) and a
        // 500 (a missing asset) included, is private: a shared cache keeps none of them, and
        // an adapter's cache rule can make them all stricter (`Bearer::cache_rule`).
        match r.headers.iter_mut().find(|(n, _)| *n == "cache-control") {
            Some((_, value)) => value.clone_from(&self.cache_control_private),
            None => r
                .headers
                .push(("cache-control", self.cache_control_private.clone())),
        }
        r.headers.push(("vary", "Authorization".to_owned()));
        if let Some(s) = r.splice.as_mut() {
            s.fault
                .headers
                .push(("cache-control", self.cache_control_private.clone()));
        }
        r
    }

    /// The answer from the catalog's prebuilt parts; skills `grant` does not see are absent.
    fn get_public(
        &self,
        catalog: &Catalog,
        path: &str,
        head_only: bool,
        if_none_match: Option<&str>,
        grant: Grant,
    ) -> Response {
        let rest = path.strip_prefix(MIRROR_PREFIX).unwrap_or_default();
        // The skill mirrored as `name`, when the grant sees it.
        let seen = |name: &str| {
            catalog
                .mirrored_index(name)
                .is_some_and(|i| catalog.skill_visible(i, grant))
        };
        if path == INDEX_PATH {
            let body = catalog.mirror_index(Grant::PUBLIC).as_bytes().to_vec();
            return self.ok(
                "application/json",
                &self.index_etag,
                if_none_match,
                head_only,
                body,
            );
        }
        if path == KEYS_PATH {
            let (Some(keys), Some(tag)) = (catalog.keys_json(), &self.keys_etag) else {
                return not_found(path);
            };
            let body = keys.as_bytes().to_vec();
            return self.ok("application/json", tag, if_none_match, head_only, body);
        }
        let Some((name, file_path)) = rest.split_once('/') else {
            if let Some(name) = rest.strip_suffix(ENVELOPE_SUFFIX) {
                let Some(sig) = catalog.mirrored_signature(name).filter(|_| seen(name)) else {
                    return not_found(path);
                };
                let artifact = Artifact {
                    mime: "application/json",
                    digest: sig.digest,
                    size: sig.envelope_json.len() as u64,
                    inline: Some(sig.envelope_json.as_bytes()),
                };
                let what = format!("the signature of the skill {name} ({path})");
                return self.serve(&artifact, &what, head_only, if_none_match);
            }
            let archive = rest
                .strip_suffix(ARCHIVE_SUFFIX)
                .filter(|name| seen(name))
                .and_then(|name| Some((name, catalog.mirrored_archive(name)?)));
            let Some((name, a)) = archive else {
                return not_found(path);
            };
            let what = format!("the archive of the skill {name} ({path})");
            let artifact = Artifact {
                mime: ARCHIVE_MIME,
                digest: a.digest,
                size: a.size,
                inline: a.bytes,
            };
            return self.serve(&artifact, &what, head_only, if_none_match);
        };
        let Some(skill) = catalog.mirrored_skill(name).filter(|_| seen(name)) else {
            return not_found(path);
        };
        let uri = format!("{}/{file_path}", skill.root());
        let Some(file) = catalog.file(&uri) else {
            return not_found(path);
        };
        let mime = if file.is_text && file.mime.starts_with("text/") {
            format!("{}; charset=utf-8", file.mime)
        } else {
            file.mime.to_owned()
        };
        let inline = match file.content {
            Content::Inline(bytes) => Some(bytes),
            Content::External { .. } => None,
        };
        let artifact = Artifact {
            mime: &mime,
            digest: file.digest,
            size: file.size,
            inline,
        };
        self.serve(&artifact, &uri, head_only, if_none_match)
    }

    /// The answer for `a`: its bytes when the pack has them, else the raw asset of its digest
    /// spliced in by the adapter (`what` names them in the fault).
    fn serve(
        &self,
        a: &Artifact<'_>,
        what: &str,
        head_only: bool,
        if_none_match: Option<&str>,
    ) -> Response {
        let (mime, digest, size) = (a.mime, a.digest, a.size);
        let tag = etag(digest);
        match a.inline {
            Some(bytes) => self.ok(mime, &tag, if_none_match, head_only, bytes.to_vec()),
            None => {
                let mut r = self.ok(mime, &tag, if_none_match, head_only, Vec::new());
                if r.status == 200 && !head_only {
                    r.splice = Some(Box::new(Splice {
                        asset: pack::raw_asset_name(digest).to_owned(),
                        len: size,
                        tail: Vec::new(),
                        fault: fault(what),
                    }));
                }
                r
            }
        }
    }

    fn ok(
        &self,
        mime: &str,
        tag: &str,
        if_none_match: Option<&str>,
        head_only: bool,
        body: Vec<u8>,
    ) -> Response {
        let fresh = if_none_match.is_some_and(|v| matches_etag(v, tag));
        let mut r = Response {
            status: if fresh { 304 } else { 200 },
            headers: vec![
                ("etag", tag.to_owned()),
                ("cache-control", self.cache_control.clone()),
            ],
            body: Vec::new(),
            splice: None,
        };
        if !fresh {
            r.headers.push(("content-type", mime.to_owned()));
            if !shown_inline(mime) {
                r.headers
                    .push(("content-disposition", "attachment".to_owned()));
            }
            if !head_only {
                r.body = body;
            }
        }
        r
    }
}

/// `Content-Security-Policy` of every answer of the mirror: nothing is loaded and no script
/// runs, whatever a file holds or a browser guesses it to be (the `sandbox` directive gives
/// a document an opaque origin of its own, so it never acts as the server's origin).
pub(crate) const MIRROR_CSP: &str = "default-src 'none'; sandbox";

/// The media types a browser may show in its window as they are (text and raster images,
/// which run nothing); every other file, `text/html`, `image/svg+xml`, XML, JavaScript, PDF
/// and any type this list does not name included, carries `Content-Disposition: attachment`,
/// so opening its URL saves it instead of rendering it on the server's origin. The type
/// itself stays the file's (the one `resources/read` gives), and the bytes are the file's.
const INLINE_TYPES: &[&str] = &[
    "text/plain",
    "text/markdown",
    "text/csv",
    "text/tab-separated-values",
    "application/json",
    "application/x-ndjson",
    "image/png",
    "image/jpeg",
    "image/gif",
    "image/webp",
];

/// Whether a file of media type `mime` (parameters allowed) is one of [`INLINE_TYPES`].
fn shown_inline(mime: &str) -> bool {
    let essence = mime.split(';').next().unwrap_or("").trim();
    INLINE_TYPES.iter().any(|t| t.eq_ignore_ascii_case(essence))
}

/// `Cross-Origin-Resource-Policy` of an answer made for a caller's grant: a browser hands it
/// to this origin's pages only.
pub(crate) const CORP_GRANT: &str = "same-origin";

/// `Cross-Origin-Resource-Policy` of every other answer of the mirror: usable from any page.
pub(crate) const CORP_PUBLIC: &str = "cross-origin";

/// The names of the headers of [`inert_headers`].
pub(crate) const INERT_NAMES: [&str; 3] = [
    "x-content-type-options",
    "content-security-policy",
    "cross-origin-resource-policy",
];

/// The headers that keep every answer of the mirror inert in a browser: `nosniff` (the type is
/// the one given, never guessed: a text file is no script or stylesheet), [`MIRROR_CSP`], and
/// `Cross-Origin-Resource-Policy: corp`. The endpoint puts them on every answer under the
/// mirror's prefix, its refusals and preflights included.
pub(crate) fn inert_headers(corp: &str) -> [(&'static str, String); 3] {
    let [nosniff, csp, corp_name] = INERT_NAMES;
    [
        (nosniff, "nosniff".to_owned()),
        (csp, MIRROR_CSP.to_owned()),
        (corp_name, corp.to_owned()),
    ]
}

/// Adds [`inert_headers`] to `r`.
fn inert(r: &mut Response, corp: &str) {
    r.headers.extend(inert_headers(corp));
}

/// The strong entity tag of content with `digest`: its 64 hex digits, quoted.
fn etag(digest: &str) -> String {
    format!("\"{}\"", pack::raw_asset_name(digest))
}

/// Whether an `If-None-Match` value matches `tag` (RFC 9110 §13.1.2: `*`, or a list of entity
/// tags compared weakly, so `W/"…"` matches too).
fn matches_etag(value: &str, tag: &str) -> bool {
    value
        .split(',')
        .map(str::trim)
        .any(|t| t == "*" || t == tag || t.strip_prefix("W/") == Some(tag))
}

fn text_response(status: u16, message: &str) -> Response {
    Response {
        status,
        headers: vec![("content-type", "text/plain; charset=utf-8".to_owned())],
        body: format!("{message}\n").into_bytes(),
        splice: None,
    }
}

fn not_found(path: &str) -> Response {
    text_response(
        404,
        &format!(
            "Not Found: {} is not a file of this server's skills mirror (see {INDEX_PATH})",
            crate::protocol::error::clip(path)
        ),
    )
}

/// The answer when a mirrored file's or archive's asset is missing or damaged.
fn fault(uri: &str) -> Response {
    text_response(
        500,
        &format!(
            "Internal Server Error: the bytes of {uri} are missing or damaged on this server (its deployment is incomplete); nothing was served"
        ),
    )
}
