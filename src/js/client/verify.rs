//! The `verify` command in the npm package: a server's well-known index or MCP endpoint checked, and the command's arguments run.

use super::*;

/// Reads and verifies a well-known skills source (an Agent Skills Discovery index, RFC v0.2.0 or
/// v0.1.0) through `io.get`: `url` is the index (ending in `/.well-known/agent-skills/index.json`)
/// or an origin (`https://host`, whose index that is). `options` holds the signer options
/// (`trust`, `trustOnFirstUse`, `pins`, as for `SkillHost`) and `allowDynamic` (a `dynamic`
/// skill, such as every skill of a v0.1.0 index, passes only with it, as with
/// `--allow-dynamic`). Resolves to what
/// `SkillsClient.verify` resolves to, `{ skills, exitCode, table, summary, error? }`, with the
/// same statuses and exit codes as `skills-edge verify`, which runs the same code, and `pins`
/// (the pins after the run, to persist) when `trustOnFirstUse` or `pins` was given. Throws
/// `invalid-argument` for a `url` that is neither, or a malformed option.
#[wasm_bindgen(js_name = verifyWellKnown, unchecked_return_type = "Promise<VerifyReport>")]
pub fn verify_well_known(
    #[wasm_bindgen(unchecked_param_type = "SkillsClientIo")] io: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] url: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "SignerOptions")] options: Option<JsValue>,
) -> Result<Promise, JsValue> {
    let a = arg("verifyWellKnown", "io");
    let io = io_arg(&io, a)?;
    let url = string(&url, a.with("url"))?;
    let record = option_record(
        &options.unwrap_or(JsValue::UNDEFINED),
        a.with("options"),
        &[
            SIGNER_FIELDS[0],
            SIGNER_FIELDS[1],
            SIGNER_FIELDS[2],
            "allowDynamic",
        ],
    )?;
    let allow_dynamic = match &record {
        Some(r) => r.bool("allowDynamic")?.unwrap_or(false),
        None => false,
    };
    let mut signer_options = SignerOptionsJs::read(record.as_ref())?;
    let oms_keys = signer_options.oms_keys(a.with("options"))?;
    let mut signers = signer_options.signers(a.with("options"))?;
    let hand_back = signer_options.pins_given();
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        return Err(a.with("url").error(
            ErrorCode::InvalidArgument,
            format_args!("{url:?} must start with http:// or https://"),
        ));
    }
    let index = if crate::host::index::is_index_url(&url) {
        url.clone()
    } else {
        crate::host::index::index_url_of_origin(&url).ok_or_else(|| {
            a.with("url").error(
                ErrorCode::InvalidArgument,
                format_args!(
                    "{url:?} is neither an index URL (ending in {}) nor an origin (http:// or https:// and a host)",
                    crate::compile::mirror::INDEX_PATH
                ),
            )
        })?
    };
    Ok(promise(async move {
        let r = run_well_known_with(&io, &index, &mut signers, oms_keys).await;
        report_with_pins(
            &r,
            &index,
            hand_back.then(|| signers.export_pins()),
            allow_dynamic,
        )
    }))
}

/// What the command's `--trust` and `--pins` files hold, read by the package's `bin`.
#[derive(serde::Deserialize, Default)]
struct FilesJs {
    trust: Option<Vec<String>>,
    pins: Option<String>,
}

/// The whole `verify` command after its arguments (`args`, as for `parseVerifyArgs`):
/// connect through `io.post`, verify, render. `files` holds the texts of the `--trust` files
/// (`trust`, in order) and of the `--pins` file (`pins`, absent when it does not exist yet).
/// Resolves to `{ stdout, stderr, exitCode, pins? }`, exactly what the native command prints
/// and returns, and with `--pins` the pins to write back to its file.
#[wasm_bindgen(js_name = runVerifyCommand, unchecked_return_type = "Promise<CommandOutput>")]
pub fn run_verify_command(
    #[wasm_bindgen(unchecked_param_type = "string[]")] args: JsValue,
    #[wasm_bindgen(unchecked_param_type = "SkillsClientIo")] io: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "VerifyFiles")] files: Option<JsValue>,
) -> Result<Promise, JsValue> {
    let a = arg("runVerifyCommand", "args");
    let parsed = verify_args(&args, a)?;
    let io = io_arg(&io, a.with("io"))?;
    let files: FilesJs = options(&files.unwrap_or(JsValue::UNDEFINED), a.with("files"))?;
    let files = SignerFiles {
        trust: files.trust.unwrap_or_default(),
        pins: files.pins,
    };
    // `--trust` files holding PEM are OMS keys, the others JWKs, as in the native command.
    let prepared = match trust_of(&parsed, &files) {
        Ok((oms, s)) => Ok((oms, s.clone(), throw(report::command_client(&parsed, s))?)),
        Err(e) => Err(e),
    };
    Ok(promise(async move {
        let out = match prepared {
            Err(e) => Report::stopped(None, e).render(&parsed),
            Ok((oms_keys, mut signers, _)) if parsed.well_known => {
                let r = run_well_known_with(&io, &parsed.url, &mut signers, oms_keys).await;
                output(&parsed, &r, &signers)
            }
            Ok((oms_keys, _, client)) => {
                // command::verify_command, over the same Rpc as SkillsClientCore's (one copy
                // of the client's code in the wasm, not two).
                let rpc = CallRpc {
                    inner: Rc::new(Inner {
                        client,
                        session: HttpSession::new(ClientInfo::default()),
                        mode: Cell::new(Mode::Http),
                        oms_keys: Vec::new(),
                    }),
                    io,
                };
                let report = match rpc.inner.session.connect(&rpc.io, parsed.era).await {
                    Err(e) => Report::stopped(None, e),
                    Ok(facts) => {
                        let _ = rpc.client().set_facts(facts);
                        let only = parsed.skill.as_deref();
                        report::run_with_oms(rpc.client(), &rpc, only, &oms_keys).await
                    }
                };
                after_mcp(&parsed, &rpc.io, rpc.client(), report, oms_keys).await
            }
        };
        to_js(&OutputJs {
            stdout: out.stdout,
            stderr: out.stderr,
            exit_code: out.exit_code,
            pins: out.pins,
        })
    }))
}

impl SkillsClientCore {
    /// The [`Rpc`] of one operation over `io` (checked and named after `a`), to move into the
    /// operation's promise: the shape of `list`, `get`, `load`, `read`, `readDirectory` and
    /// `verify`, whose other arguments are checked after it.
    pub(super) fn rpc(&self, io: &JsValue, a: Arg) -> Result<CallRpc, JsValue> {
        Ok(CallRpc {
            inner: self.inner.clone(),
            io: io_arg(io, a)?,
        })
    }

    /// `op(uri)` on the client's registry for a skill of this server, `uri` checked and named
    /// after `method`, the JavaScript method called: the shape of the registry queries above.
    pub(super) fn on_skill(
        &self,
        method: &'static str,
        uri: &JsValue,
        op: impl FnOnce(&mut SkillHost, &str, &str) -> bool,
    ) -> Result<bool, JsValue> {
        let uri = string(uri, arg(method, "uri"))?;
        throw(self.inner.client.host(|h, l| op(h, l, &uri)))
    }
}
