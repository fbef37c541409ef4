//! `verify`: its arguments, the token from the environment, the URL it accepts.

use super::{is_option, DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS};
use crate::client::{bearer_header, check_headers, EraChoice};
use crate::host::index::{index_url_of_origin, is_index_url};

/// The environment variable holding the bearer token `verify` sends when `--token` is not
/// given.
pub(crate) const TOKEN_ENV: &str = "SKILLS_EDGE_TOKEN";

/// The arguments of `verify`.
///
/// ```
/// use skills_edge::client::EraChoice;
/// use skills_edge::command::args::VerifyArgs;
/// let a = VerifyArgs::parse(&["https://skills.example.com/mcp".into(), "--era".into(), "2025-11-25".into(),
///     "--trust".into(), "signing.pub".into()]).unwrap();
/// assert_eq!((a.era, a.trust.as_slice()), (EraChoice::Legacy, &["signing.pub".to_owned()][..]));
/// assert_eq!((a.timeout_ms, a.well_known), (30_000, false));
/// let e = VerifyArgs::parse(&["https://x.example/mcp".into(), "--era".into(), "2026".into()]).unwrap_err();
/// assert!(e.message.starts_with(r#"--era "2026" is invalid"#), "{e}");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyArgs {
    /// The MCP endpoint (`http://` or `https://`).
    pub url: String,
    /// The protocol revision to speak.
    pub era: EraChoice,
    /// Extra request headers, checked (`check_headers`), names in lowercase.
    pub headers: Vec<(String, String)>,
    /// Only this skill (its `SKILL.md` URI).
    pub skill: Option<String>,
    /// One JSON object per skill instead of the table.
    pub json: bool,
    /// Time allowed for each request, in milliseconds.
    pub timeout_ms: u64,
    /// `url` is a well-known index (it ends in `/.well-known/agent-skills/index.json`, or
    /// `--well-known` turned an origin into one): read it instead of speaking MCP.
    pub well_known: bool,
    /// `--cross-check`: after the MCP run, verify the index of the same origin and compare.
    pub cross_check: bool,
    /// `--trust FILE` (repeatable): files holding a public JWK each, the trust list. The
    /// command's I/O reads them ([`SignerFiles`]).
    pub trust: Vec<String>,
    /// `--pins FILE`: pins read before the run when the file exists and written back after
    /// it; it turns trust on first use on.
    pub pins: Option<String>,
    /// `--allow-dynamic`: a `dynamic` skill (its files cannot be verified) does not fail the
    /// run. Without it the exit status is 1, as a `SkillHost` declines such skills by default.
    /// A skill `downgraded` from a manifest to `"dynamic"` fails either way.
    pub allow_dynamic: bool,
}

impl VerifyArgs {
    /// Reads the arguments after `verify`.
    ///
    /// ```
    /// use skills_edge::command::args::VerifyArgs;
    /// let a = VerifyArgs::parse(&["http://127.0.0.1:8787/mcp".into(), "--json".into(),
    ///     "--header".into(), "Authorization: Bearer t".into()]).unwrap();
    /// assert!(a.json);
    /// assert_eq!(a.headers, [("authorization".to_owned(), "Bearer t".to_owned())]);
    /// assert!(VerifyArgs::parse(&["ftp://x".into()]).is_err());
    /// ```
    pub fn parse(args: &[String]) -> Result<VerifyArgs, super::UsageError> {
        Ok(VerifyArgs::parse_with_env(args, &|_: &str| None)?)
    }

    /// [`VerifyArgs::parse`], with the environment: `SKILLS_EDGE_TOKEN` (`TOKEN_ENV`) is the
    /// token when `--token` is not given and no `--header authorization` either. `--token TOKEN`
    /// (or the variable) adds `authorization: Bearer TOKEN` to the headers ([`bearer_header`]);
    /// `--token` with `--header authorization` is refused, as is `--token` given twice. The token
    /// is never repeated in a message.
    pub(crate) fn parse_with_env(
        args: &[String],
        env: &impl Fn(&str) -> Option<String>,
    ) -> Result<VerifyArgs, String> {
        let mut token = None;
        let mut url = None;
        let mut era = None;
        let mut headers = Vec::new();
        let mut skill = None;
        let mut json = false;
        let mut timeout = None;
        let mut origin = false;
        let mut cross_check = false;
        let mut trust = Vec::new();
        let mut pins = None;
        let mut allow_dynamic = false;
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let mut value = |flag: &str| {
                it.next()
                    .cloned()
                    .ok_or_else(|| format!("{flag} needs a value"))
            };
            match a.as_str() {
                "--era" => {
                    if era.is_some() {
                        return Err("--era is given twice".into());
                    }
                    let v = value("--era")?;
                    era = Some(EraChoice::parse(&v).ok_or_else(|| {
                        format!("--era {v:?} is invalid: use auto, 2026-07-28 or 2025-11-25")
                    })?);
                }
                "--header" | "-H" => {
                    headers.push(parse_header(&value("--header")?)?);
                }
                "--token" => {
                    if token.is_some() {
                        return Err("--token is given twice".into());
                    }
                    token = Some(value("--token")?);
                }
                "--skill" => {
                    if skill.is_some() {
                        return Err("--skill is given twice".into());
                    }
                    skill = Some(value("--skill")?);
                }
                "--trust" => trust.push(value("--trust")?),
                "--pins" => {
                    if pins.is_some() {
                        return Err("--pins is given twice".into());
                    }
                    pins = Some(value("--pins")?);
                }
                "--json" => json = true,
                "--allow-dynamic" => allow_dynamic = true,
                "--well-known" => origin = true,
                "--cross-check" => cross_check = true,
                "--timeout" => {
                    if timeout.is_some() {
                        return Err("--timeout is given twice".into());
                    }
                    timeout = Some(parse_timeout(&value("--timeout")?)?);
                }
                s if is_option(s) => return Err(format!("unknown option {s:?}")),
                _ if url.is_some() => return Err("verify takes exactly one URL".into()),
                _ => url = Some(a.clone()),
            }
        }
        let url = target_url(url, origin)?;
        let well_known = is_index_url(&url);
        if well_known && (cross_check || skill.is_some() || era.is_some()) {
            return Err(
                "--cross-check, --skill and --era apply to an MCP server, not to a well-known index"
                    .into(),
            );
        }
        let headers = headers_with_token(&headers, token, env)?;
        Ok(VerifyArgs {
            url,
            era: era.unwrap_or_default(),
            headers,
            skill,
            json,
            timeout_ms: timeout.unwrap_or(DEFAULT_TIMEOUT_MS),
            well_known,
            cross_check,
            trust,
            pins,
            allow_dynamic,
        })
    }
}

/// A `--header` value, `Name: value`, as (name, value) trimmed.
fn parse_header(v: &str) -> Result<(String, String), String> {
    // The value is not repeated: a header given without its name is often
    // a credential.
    let (name, val) = v.split_once(':').ok_or_else(|| {
        "a --header value has no ':' (not shown: it may be a credential): \
         use 'Name: value'"
            .to_owned()
    })?;
    Ok((name.trim().to_owned(), val.trim().to_owned()))
}

/// The URL `verify` reads: the one given, checked, or with `--well-known` (`origin`) the
/// index URL of the origin given.
fn target_url(url: Option<String>, origin: bool) -> Result<String, String> {
    let mut url = url.ok_or("verify needs the server's URL (http://… or https://…)")?;
    // A scheme is case-insensitive (RFC 3986 §3.1): `HTTPS://` is `https://`.
    if let Some(i) = url.find("://") {
        let scheme = url[..i].to_ascii_lowercase();
        if scheme == "http" || scheme == "https" {
            url.replace_range(..i, &scheme);
        }
    }
    check_url(&url)?;
    if origin {
        url = index_url_of_origin(&url).ok_or_else(|| {
            format!("--well-known takes an origin (https://host[:port]), not {url:?}")
        })?;
    }
    Ok(url)
}

/// `--timeout`'s value: milliseconds from 1 to [`MAX_TIMEOUT_MS`].
fn parse_timeout(v: &str) -> Result<u64, String> {
    v.parse::<u64>()
        .ok()
        .filter(|ms| (1..=MAX_TIMEOUT_MS).contains(ms))
        .ok_or_else(|| {
            format!("--timeout {v:?} is invalid: use milliseconds from 1 to {MAX_TIMEOUT_MS}")
        })
}

/// The `--header` values checked, with the token of `--token` (or of `TOKEN_ENV`) as
/// `authorization: Bearer TOKEN` unless a `--header authorization` is given.
fn headers_with_token(
    headers: &[(String, String)],
    token: Option<String>,
    env: &impl Fn(&str) -> Option<String>,
) -> Result<Vec<(String, String)>, String> {
    let mut headers = check_headers(headers).map_err(|e| format!("--header: {}", e.message))?;
    let has_authorization = headers.iter().any(|(k, _)| k == "authorization");
    match token {
        Some(_) if has_authorization => {
            return Err("--token and --header authorization are both given: use one of them".into())
        }
        Some(t) => headers.push(bearer_header("--token", &t).map_err(|e| e.message)?),
        None if has_authorization => {}
        None => {
            if let Some(t) = env(TOKEN_ENV).filter(|t| !t.is_empty()) {
                headers.push(bearer_header(TOKEN_ENV, &t).map_err(|e| e.message)?);
            }
        }
    }
    Ok(headers)
}

/// A URL the commands accept: `http://` or `https://`, a host, no whitespace or control
/// characters, no fragment.
fn check_url(url: &str) -> Result<(), String> {
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"))
        .ok_or_else(|| format!("the URL {url:?} must start with http:// or https://"))?;
    let host = rest.split(['/', '?']).next().unwrap_or_default();
    if host.is_empty() || host.starts_with(':') {
        return Err(format!("the URL {url:?} has no host"));
    }
    if url.chars().any(|c| c.is_whitespace() || c.is_control()) || url.contains('#') {
        return Err(format!(
            "the URL {url:?} must not contain whitespace, control characters or a fragment"
        ));
    }
    Ok(())
}

/// What the `--trust` and `--pins` files hold, read by the command's I/O.
///
/// ```
/// use skills_edge::client::block_on;
/// use skills_edge::command::args::VerifyArgs;
/// use skills_edge::command::verify::{verify_command, SignerFiles};
/// # use skills_edge::catalog::Grant;
/// # use skills_edge::client::http::{HttpIo, HttpRequest, HttpResponse, ResponseBody};
/// # use skills_edge::http::{Endpoint, Head, HttpConfig};
/// # use std::future::{ready, Future};
/// # struct Body(Option<Vec<u8>>);
/// # impl ResponseBody for Body {
/// #     fn next_chunk(&mut self) -> impl Future<Output = skills_edge::client::Result<Option<Vec<u8>>>> {
/// #         ready(Ok(self.0.take()))
/// #     }
/// # }
/// # /// The embedded catalog's endpoint, in this process.
/// # struct InProcess(Endpoint);
/// # impl HttpIo for InProcess {
/// #     type Body = Body;
/// #     fn post(&self, r: HttpRequest) -> impl Future<Output = skills_edge::client::Result<HttpResponse<Body>>> {
/// #         let headers = r.headers.iter().map(|(n, v)| (n.as_str(), v.as_str()));
/// #         let head = Head::from_headers("POST", "/mcp", headers.chain([("host", "localhost")]));
/// #         let resp = self.0.handle(&head, r.body.as_bytes(), Grant::PUBLIC);
/// #         ready(Ok(HttpResponse { status: resp.status, content_type: resp.header("content-type").map(str::to_owned),
/// #             session_id: None, www_authenticate: None, body: Body(Some(resp.body)) }))
/// #     }
/// #     fn now_ms(&self) -> f64 { 0.0 }
/// # }
/// # let io = InProcess(Endpoint::new(skills_edge::embedded::catalog().unwrap(), HttpConfig::default()).unwrap());
/// let args = VerifyArgs::parse(&["http://localhost/mcp".into(), "--trust".into(), "signing.pub".into()]).unwrap();
/// // One text per `--trust` file, in order: here the file could not be read.
/// let files = SignerFiles { trust: vec![], pins: None };
/// let out = block_on(verify_command(&args, &files, &io));
/// assert_eq!(out.exit_code, 2);
/// assert!(out.stderr.contains("0 --trust files were read for 1 given"), "{}", out.stderr);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SignerFiles {
    /// The text of each `--trust` file, in the order of [`VerifyArgs::trust`].
    pub trust: Vec<String>,
    /// The text of the `--pins` file; `None` when it does not exist yet (or without `--pins`).
    pub pins: Option<String>,
}
