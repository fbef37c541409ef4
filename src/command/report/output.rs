//! What the run prints: the table, the JSON lines, the summary and the exit status.

use super::*;

/// What a command prints and returns.
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
/// let args = VerifyArgs::parse(&["http://localhost/mcp".into()]).unwrap();
/// let out = block_on(verify_command(&args, &SignerFiles::default(), &io));
/// assert_eq!(out.exit_code, 0, "{}", out.stderr);
/// assert!(out.stdout.contains("skill://code-review/SKILL.md"));
/// assert_eq!(out.pins, None); // no `--pins`
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    /// Standard output: the table, or one JSON object per line.
    pub stdout: String,
    /// Standard error: a summary line, or the error that stopped the run.
    pub stderr: String,
    /// 0, 1 or 2 (see the module documentation).
    pub exit_code: u8,
    /// With `--pins`: the pins to write back to its file after the run (`None` without
    /// `--pins`, or when its file could not be read: it is then left as it is).
    pub pins: Option<String>,
}

#[derive(Serialize)]
struct CheckJson<'a> {
    uri: &'a str,
    status: FileStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    size: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    digest: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    expected: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    actual: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    field: Option<&'a str>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    fields: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    why: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SignerJson<'a> {
    key_id: &'a str,
    catalog: &'a str,
    trust: SignerTrust,
}

#[derive(Serialize)]
struct SkillJson<'a> {
    skill: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    revision: Option<&'a str>,
    files: usize,
    bytes: u64,
    status: SkillStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    why: Option<String>,
    refreshed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    signer: Option<SignerJson<'a>>,
    checks: Vec<CheckJson<'a>>,
}

impl SkillReport {
    /// A report on the skill `uri` with nothing checked yet: status `verified` until a check
    /// says otherwise, no figures.
    pub(crate) fn start(uri: String, name: Option<String>, description: Option<String>) -> Self {
        SkillReport {
            uri,
            name,
            description,
            revision: None,
            files: 0,
            bytes: 0,
            status: SkillStatus::Verified,
            error: None,
            refreshed: false,
            signer: None,
            checks: Vec::new(),
        }
    }

    /// The skill's JSON line (one object, no newline): `skill`, `name`, `description`,
    /// `revision`, `files`, `bytes`, `status`, `code` and `why` (when not verified),
    /// `refreshed`, `signer` (when signed: `keyId`, `catalog`, `trust`), and `checks`
    /// (`uri`, `status`, `size`, `digest`, and for a refusal `code`,
    /// `expected`, `actual`, `field`, `fields` (every differing frontmatter field, when
    /// there are several), `why`).
    pub fn to_json(&self) -> String {
        let checks = self
            .checks
            .iter()
            .map(|c| {
                let e = c.error.as_ref();
                CheckJson {
                    uri: &c.uri,
                    status: c.status,
                    size: c.size,
                    digest: c.digest.as_deref(),
                    code: e.map(|e| e.code.as_str()),
                    expected: e.and_then(|e| e.expected.as_deref()),
                    actual: e.and_then(|e| e.actual.as_deref()),
                    field: e.and_then(|e| e.field.as_deref()),
                    fields: e.map(|e| &*e.differences).unwrap_or_default(),
                    why: e.map(why),
                }
            })
            .collect();
        let j = SkillJson {
            skill: &self.uri,
            name: self.name.as_deref(),
            description: self.description.as_deref(),
            revision: self.revision.as_deref(),
            files: self.files,
            bytes: self.bytes,
            status: self.status,
            code: self.error.as_ref().map(|e| e.code.as_str()),
            why: self.error.as_ref().map(why),
            refreshed: self.refreshed,
            signer: self.signer.as_ref().map(|s| SignerJson {
                key_id: &s.key_id,
                catalog: &s.catalog,
                trust: s.trust,
            }),
            checks,
        };
        serde_json::to_string(&j).unwrap_or_default()
    }
}

impl Report {
    /// A run stopped before any skill was checked (connecting or listing failed).
    pub(crate) fn stopped(facts: Option<ServerFacts>, error: impl Into<ClientError>) -> Report {
        Report {
            facts,
            skills: Vec::new(),
            fatal: Some(error.into()),
        }
    }

    /// 0, 1 or 2 (see the module documentation), from the statuses alone: 2 when the run
    /// stopped or a skill is `error`, 1 when one is `failed`, `changed` or `downgraded`, or
    /// `dynamic` without `allow_dynamic` (`--allow-dynamic`, npm `allowDynamic`: the user
    /// accepts skills whose files cannot be verified, as `SkillHost` only does when told),
    /// else 0.
    pub fn exit_code(&self, allow_dynamic: bool) -> u8 {
        let fails = |st: SkillStatus| match st {
            SkillStatus::Failed | SkillStatus::Changed | SkillStatus::Downgraded => true,
            SkillStatus::Dynamic => !allow_dynamic,
            SkillStatus::Verified | SkillStatus::Error => false,
        };
        if self.fatal.is_some() || self.skills.iter().any(|s| s.status == SkillStatus::Error) {
            2
        } else if self.skills.iter().any(|s| fails(s.status)) {
            1
        } else {
            0
        }
    }

    /// How many skills are `dynamic`.
    fn dynamic_skills(&self) -> usize {
        self.skills
            .iter()
            .filter(|s| s.status == SkillStatus::Dynamic)
            .count()
    }

    /// The table: one row per skill (skill, files, bytes, status, signer, why), every cell
    /// the server controls passed through [`escape_for_terminal`] (so a row is one line). The
    /// signer is its short form (`acme (key kPrK_qmx…, pinned)`), `-` for an unsigned skill.
    pub fn table(&self) -> String {
        let rows: Vec<[String; 6]> = self
            .skills
            .iter()
            .map(|s| {
                [
                    escape_for_terminal(&s.uri).into_owned(),
                    s.files.to_string(),
                    s.bytes.to_string(),
                    s.status.as_str().to_owned(),
                    s.signer.as_ref().map_or_else(
                        || "-".to_owned(),
                        |x| escape_for_terminal(&x.describe()).into_owned(),
                    ),
                    s.error
                        .as_ref()
                        .map(|e| escape_for_terminal(&why(e)).into_owned())
                        .unwrap_or_default(),
                ]
            })
            .collect();
        let head = ["SKILL", "FILES", "BYTES", "STATUS", "SIGNER", "WHY"].map(str::to_owned);
        let mut w = [0usize; 5];
        for row in rows.iter().chain(std::iter::once(&head)) {
            for (width, cell) in w.iter_mut().zip(row.iter()) {
                *width = (*width).max(cell.chars().count());
            }
        }
        let mut out = String::new();
        for [skill, files, bytes, status, signer, why] in std::iter::once(&head).chain(&rows) {
            let line = format!(
                "{skill:<w0$}  {files:>w1$}  {bytes:>w2$}  {status:<w3$}  {signer:<w4$}  {why}",
                w0 = w[0],
                w1 = w[1],
                w2 = w[2],
                w3 = w[3],
                w4 = w[4]
            );
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }

    /// One JSON object per skill, one per line.
    pub fn json_lines(&self) -> String {
        let mut out = String::new();
        for s in &self.skills {
            out.push_str(&s.to_json());
            out.push('\n');
        }
        out
    }

    /// The summary line: the server, then the counts, passed through
    /// [`escape_for_terminal`] (the server's name and version are its own text).
    pub fn summary(&self, url: &str) -> String {
        let line = self.summary_text(url);
        escape_for_terminal(&line).into_owned()
    }

    fn summary_text(&self, url: &str) -> String {
        let server = match &self.facts {
            Some(f) => match f.server_name() {
                Some(n) => format!("{url} ({n}, protocol {})", f.protocol_version),
                None => format!("{url} (protocol {})", f.protocol_version),
            },
            None => url.to_owned(),
        };
        let count = |st: SkillStatus| self.skills.iter().filter(|s| s.status == st).count();
        let files: usize = self.skills.iter().map(|s| s.files).sum();
        let bytes: u64 = self.skills.iter().map(|s| s.bytes).sum();
        let n = self.skills.len();
        let (failed, errors, dynamic, changed, downgraded) = (
            count(SkillStatus::Failed),
            count(SkillStatus::Error),
            count(SkillStatus::Dynamic),
            count(SkillStatus::Changed),
            count(SkillStatus::Downgraded),
        );
        let tail = if failed + errors + dynamic + changed + downgraded == 0 {
            "every file verified".to_owned()
        } else {
            let mut parts = vec![format!("{} verified", count(SkillStatus::Verified))];
            for (k, what) in [
                (dynamic, "dynamic (frontmatter only)"),
                (
                    downgraded,
                    "downgraded to dynamic after a listing with a manifest",
                ),
                (changed, "changed during the check"),
                (failed, "failed"),
                (errors, "with errors"),
            ] {
                if k > 0 {
                    parts.push(format!("{k} {what}"));
                }
            }
            parts.join(", ")
        };
        let signed = self.skills.iter().filter(|s| s.signer.is_some()).count();
        let signed = if signed > 0 {
            format!(", {signed} signed")
        } else {
            String::new()
        };
        format!("{server}: {n} skills, {files} files, {bytes} bytes: {tail}{signed}")
    }

    /// What a command prints: the table or the JSON lines on stdout, the summary (or the
    /// error that stopped the run) on stderr, and the exit status. The table, the summary and
    /// the error line are escaped for a terminal ([`escape_for_terminal`]); the JSON lines are
    /// JSON (see the module documentation).
    pub fn render(&self, args: &VerifyArgs) -> Output {
        if let Some(e) = &self.fatal {
            return Output {
                stdout: String::new(),
                stderr: format!("error: {} [{}]\n", escape_for_terminal(&e.message), e.code),
                exit_code: 2,
                pins: None,
            };
        }
        let mut stderr = format!("{}\n", self.summary(&args.url));
        let dynamic = self.dynamic_skills();
        if dynamic > 0 && !args.allow_dynamic {
            let what = if dynamic == 1 {
                "1 skill is dynamic: its files".to_owned()
            } else {
                format!("{dynamic} skills are dynamic: their files")
            };
            let _ = writeln!(
                stderr,
                "error: {what} cannot be verified (only the frontmatter was checked); pass --allow-dynamic to accept unverifiable skills"
            );
        }
        Output {
            stdout: if args.json {
                self.json_lines()
            } else {
                self.table()
            },
            stderr,
            exit_code: self.exit_code(args.allow_dynamic),
            pins: None,
        }
    }
}
