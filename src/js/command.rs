//! The npm package's `skills-edge` command line, read by the library's one parser
//! ([`crate::command::args`], which the native command runs too): `parseCommand`,
//! `commandUsage`, `parseVerifyArgs`, `verifyUsage`, and the request timeout's default and
//! bounds (`timeoutBounds`) for the package's `SkillsClient`.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::compiler::build_env;
use super::convert::{arg, array_items, to_js, Arg};
use crate::command::args::{
    self, Invocation, PackArgs, Program, Route, VerifyArgs, DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS,
};
use crate::host::ErrorCode;
use crate::options::Signing;

/// `args`, an array of strings; `invalid-argument` names a wrong-typed item.
pub(super) fn strings(args: &JsValue, a: Arg) -> Result<Vec<String>, JsValue> {
    let items = array_items(args, a, "an array of strings")?;
    let mut strings = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        strings.push(
            item.as_string()
                .ok_or_else(|| a.at(i, "must be a string"))?,
        );
    }
    Ok(strings)
}

/// A usage error: `invalid-argument` whose message is what the command prints after `error: `.
fn usage_error(e: args::UsageError) -> JsValue {
    super::fail(ErrorCode::InvalidArgument, e.message)
}

/// The arguments after `verify` (`args`, checked as the parameter `a`), read.
pub(super) fn verify_args(args: &JsValue, a: Arg) -> Result<VerifyArgs, JsValue> {
    VerifyArgs::parse(&strings(args, a)?).map_err(usage_error)
}

/// `VerifyArgs`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct VerifyArgsJs<'a> {
    url: &'a str,
    era: &'a str,
    headers: &'a [(String, String)],
    #[serde(skip_serializing_if = "Option::is_none")]
    skill: Option<&'a str>,
    json: bool,
    timeout_ms: u64,
    well_known: bool,
    cross_check: bool,
    trust: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    pins: Option<&'a str>,
    allow_dynamic: bool,
}

impl<'a> From<&'a VerifyArgs> for VerifyArgsJs<'a> {
    fn from(a: &'a VerifyArgs) -> Self {
        VerifyArgsJs {
            url: &a.url,
            era: a.era.as_str(),
            headers: &a.headers,
            skill: a.skill.as_deref(),
            json: a.json,
            timeout_ms: a.timeout_ms,
            well_known: a.well_known,
            cross_check: a.cross_check,
            trust: &a.trust,
            pins: a.pins.as_deref(),
            allow_dynamic: a.allow_dynamic,
        }
    }
}

/// `ParsedCommand`: what the npm package's command line asks for.
#[derive(Serialize)]
#[serde(
    tag = "command",
    rename_all = "lowercase",
    rename_all_fields = "camelCase"
)]
enum CommandJs<'a> {
    Check {
        dir: &'a str,
        strict: bool,
        skip_invalid: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        sign: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        catalog_id: Option<&'a str>,
        /// `--oms-sign PATH` (or `SKILLS_OMS_KEY`): the OMS signing key's file.
        #[serde(skip_serializing_if = "Option::is_none")]
        oms_sign: Option<&'a str>,
    },
    Pack {
        dir: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        output: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        instructions: Option<&'a str>,
        strict: bool,
        skip_invalid: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        sign: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        catalog_id: Option<&'a str>,
        /// `--oms-sign PATH` (or `SKILLS_OMS_KEY`): the OMS signing key's file.
        #[serde(skip_serializing_if = "Option::is_none")]
        oms_sign: Option<&'a str>,
    },
    Worker {
        dir: &'a str,
        out: &'a str,
        name: &'a str,
        hosts: &'a [String],
        inline_max: u64,
        force: bool,
        unsigned: bool,
        /// `[[name, value], …]`.
        vars: &'a [(String, String)],
        /// `[{ pattern, zone }, …]`, `zone` `null` for a custom domain.
        routes: &'a [Route],
        strict: bool,
        skip_invalid: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        sign: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        catalog_id: Option<&'a str>,
        /// `--oms-sign PATH` (or `SKILLS_OMS_KEY`): the OMS signing key's file.
        #[serde(skip_serializing_if = "Option::is_none")]
        oms_sign: Option<&'a str>,
    },
    Verify(VerifyArgsJs<'a>),
    Keygen {
        out: &'a str,
    },
    Version,
    /// `usage`: what to print (the whole usage, or one subcommand's for `COMMAND --help`).
    Help {
        usage: &'a str,
    },
}

/// The key file and the catalog identity of `signing`, as the command hands them on.
fn sign_js(signing: &Option<Signing>) -> (Option<&str>, Option<&str>) {
    match signing {
        Some(s) => (
            Some(s.key_file.as_str()),
            s.catalog_id.as_ref().map(|id| id.as_str()),
        ),
        None => (None, None),
    }
}

fn pack_js(a: &PackArgs) -> CommandJs<'_> {
    let (sign, catalog_id) = sign_js(&a.signing);
    CommandJs::Pack {
        dir: &a.dir,
        output: a.output.as_deref(),
        instructions: a.instructions.as_deref(),
        strict: a.options.strict,
        skip_invalid: a.options.skip_invalid,
        sign,
        catalog_id,
        oms_sign: a.oms_key.as_deref(),
    }
}

/// Reads the npm package's `skills-edge` command line (`args`, without the program name) with
/// the native command's parser: `check`, `pack` and `verify` are accepted and refused exactly
/// as `skills-edge` (crate `skills-edge-cli`) accepts and refuses them, with the same
/// messages; `worker` is the package's own, and `pack` has no `--assets` (the native command's
/// Static Assets folder; `worker` writes them). `env` (e.g. `process.env`) gives
/// `SKILLS_STRICT`, `SKILLS_ON_INVALID`, `SKILLS_SIGNING_KEY`, `SKILLS_CATALOG_ID` and
/// `SKILLS_OMS_KEY`, the defaults of `--strict`, `--skip-invalid`, `--sign`, `--catalog-id` and
/// `--oms-sign`; `keygen` is read
/// here too (the command draws the seed and writes the files, see `signingKeyFiles`).
/// Throws `invalid-argument` whose message is the usage error (the command prints it as
/// `error: MESSAGE`, then `commandUsage()`).
#[wasm_bindgen(js_name = parseCommand, unchecked_return_type = "ParsedCommand")]
pub fn parse_command(
    #[wasm_bindgen(unchecked_param_type = "string[]")] args: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Record<string, string | undefined>")] env: JsValue,
) -> Result<JsValue, JsValue> {
    let a = arg("parseCommand", "args");
    let line = strings(&args, a)?;
    let env = build_env(&env, a.with("env"))?;
    let invocation = args::parse(Program::Npm, &line, |n| env.get(n)).map_err(usage_error)?;
    let parsed = match &invocation {
        Invocation::Check(p) => {
            let (sign, catalog_id) = sign_js(&p.signing);
            CommandJs::Check {
                dir: &p.dir,
                strict: p.options.strict,
                skip_invalid: p.options.skip_invalid,
                sign,
                catalog_id,
                oms_sign: p.oms_key.as_deref(),
            }
        }
        Invocation::Pack(p) => pack_js(p),
        Invocation::Worker(w) => {
            let (sign, catalog_id) = sign_js(&w.signing);
            CommandJs::Worker {
                dir: &w.dir,
                out: &w.out,
                name: &w.name,
                hosts: &w.hosts,
                inline_max: w.inline_max,
                force: w.force,
                unsigned: w.unsigned,
                vars: &w.vars,
                routes: &w.routes,
                strict: w.options.strict,
                skip_invalid: w.options.skip_invalid,
                sign,
                catalog_id,
                oms_sign: w.oms_key.as_deref(),
            }
        }
        Invocation::Keygen(k) if k.oms => {
            return Err(usage_error(
                "keygen --oms is for the native skills-edge only"
                    .to_owned()
                    .into(),
            ))
        }
        Invocation::Keygen(k) => CommandJs::Keygen { out: &k.out },
        Invocation::Verify(v) => CommandJs::Verify(v.into()),
        Invocation::Version => CommandJs::Version,
        Invocation::Help(usage) => CommandJs::Help { usage },
        // Not a subcommand of the npm package's command: the parser refuses it.
        Invocation::Stdio(_) => {
            return Err(usage_error("unknown command \"stdio\"".to_owned().into()))
        }
    };
    to_js(&parsed)
}

/// The usage text of the npm package's `skills-edge`, from the same source as the native
/// command's.
#[wasm_bindgen(js_name = commandUsage)]
pub fn command_usage() -> String {
    args::usage(Program::Npm)
}

/// The arguments after `verify`, as both commands read them: `{ url, era, headers, skill?,
/// json, timeoutMs, wellKnown, crossCheck, trust, pins? }`. Throws `invalid-argument` whose message is the usage error.
#[wasm_bindgen(js_name = parseVerifyArgs, unchecked_return_type = "VerifyArgs")]
pub fn parse_verify_args(
    #[wasm_bindgen(unchecked_param_type = "string[]")] args: JsValue,
) -> Result<JsValue, JsValue> {
    let a = verify_args(&args, arg("parseVerifyArgs", "args"))?;
    to_js(&VerifyArgsJs::from(&a))
}

/// The usage of `verify`, as both commands print it.
#[wasm_bindgen(js_name = verifyUsage)]
pub fn verify_usage() -> String {
    args::verify_usage()
}

/// `TimeoutBounds`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TimeoutBoundsJs {
    default_ms: u64,
    max_ms: u64,
}

/// The time allowed for each request, in milliseconds: the default and the largest accepted
/// (`skills-edge verify --timeout`, `SkillsClient`'s `timeoutMs`; the smallest is 1).
#[wasm_bindgen(js_name = timeoutBounds, unchecked_return_type = "TimeoutBounds")]
pub fn timeout_bounds() -> Result<JsValue, JsValue> {
    to_js(&TimeoutBoundsJs {
        default_ms: DEFAULT_TIMEOUT_MS,
        max_ms: MAX_TIMEOUT_MS,
    })
}
