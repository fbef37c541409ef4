//! The npm package's `skills-edge publish` and `skills-edge gc`: `runPublishCommand`, the
//! library's run ([`crate::command::publish`], which the native command runs too) with the
//! I/O the package's command supplies from Node (its files, `child_process.spawnSync` of
//! wrangler, `process.stdout` and `process.stderr`). Every argument, message, wrangler
//! command line and exit status is the library's, so both commands behave alike.

use std::cell::RefCell;

use js_sys::{Array, Function};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::command::strings;
use super::compiler::source_tree;
use super::convert::{arg, bytes_of, get, is_record, string, Arg};
use crate::command::publish::{self, Io};
use crate::compile::SourceTree;
use crate::host::ErrorCode;

/// The functions of `PublishIo`, each checked to be one.
struct Functions {
    read_folder: Function,
    read_file: Function,
    write_file: Function,
    remove_file: Function,
    make_dir: Function,
    remove_dir: Function,
    run: Function,
    stdout: Function,
    stderr: Function,
}

fn function(io: &JsValue, name: &'static str, a: Arg) -> Result<Function, JsValue> {
    let f = get(io, name, a)?;
    f.dyn_into::<Function>()
        .map_err(|v| a.with(name).wrong("a function", &v))
}

/// What the caller's function gave back as the system's reason: a string, or `None`.
fn reason(v: &JsValue) -> Option<String> {
    v.as_string()
}

/// What `io.readFile` gave back: the bytes, or the reason it could not read them (`Ok(Err)`);
/// `Err` for an answer of another type.
fn file_answer(v: &JsValue) -> Result<Result<Vec<u8>, String>, JsValue> {
    if let Some(why) = reason(v) {
        return Ok(Err(why));
    }
    let a = arg("runPublishCommand", "io.readFile");
    bytes_of(v, false, a)?
        .map(Ok)
        .ok_or_else(|| a.wrong("a Uint8Array or a string (why it cannot be read)", v))
}

/// What `io.run` gave back: whether wrangler succeeded and its output, or the reason it could
/// not start (`Ok(Err)`); `Err` for an answer of another shape.
fn run_answer(v: &JsValue) -> Result<Result<(bool, String), String>, JsValue> {
    if let Some(why) = reason(v) {
        return Ok(Err(why));
    }
    let r = arg("runPublishCommand", "io.run");
    let ok = get(v, "ok", r)?.as_bool();
    let text = get(v, "text", r)?.as_string();
    match (ok, text) {
        (Some(ok), Some(text)) => Ok(Ok((ok, text))),
        _ => Err(r.wrong(
            "{ ok: boolean, text: string } or a string (why it could not start)",
            v,
        )),
    }
}

/// `runPublishCommand`'s arguments, checked: the command line, whether it is `gc`, and `io`'s
/// environment, scratch folder and functions.
struct Checked {
    line: Vec<String>,
    gc: bool,
    env: JsValue,
    scratch: String,
    fs: Functions,
}

/// Checks `runPublishCommand`'s arguments (`invalid-argument` naming the one that is wrong).
fn checked(args: &JsValue, io: &JsValue) -> Result<Checked, JsValue> {
    let a = arg("runPublishCommand", "args");
    let line = strings(args, a)?;
    let gc = match line.first().map(String::as_str) {
        Some("publish") => false,
        Some("gc") => true,
        _ => {
            return Err(a.error(
                ErrorCode::InvalidArgument,
                "must start with \"publish\" or \"gc\"",
            ))
        }
    };
    let i = arg("runPublishCommand", "io");
    if !is_record(io) {
        return Err(i.wrong("an object of functions (PublishIo)", io));
    }
    let env = get(io, "env", i)?;
    if !is_record(&env) {
        return Err(i
            .with("env")
            .wrong("an object of environment variables", &env));
    }
    let scratch = string(&get(io, "scratch", i)?, i.with("scratch"))?;
    let fs = Functions {
        read_folder: function(io, "readFolder", i)?,
        read_file: function(io, "readFile", i)?,
        write_file: function(io, "writeFile", i)?,
        remove_file: function(io, "removeFile", i)?,
        make_dir: function(io, "makeDir", i)?,
        remove_dir: function(io, "removeDir", i)?,
        run: function(io, "run", i)?,
        stdout: function(io, "stdout", i)?,
        stderr: function(io, "stderr", i)?,
    };
    Ok(Checked {
        line,
        gc,
        env,
        scratch,
        fs,
    })
}

/// Runs `skills-edge publish …` or `skills-edge gc …` (`args`, from the subcommand on) as the
/// native command runs it, with `io`'s functions for the files, wrangler and the output;
/// returns the exit status (0 done, 1 failed, 2 bad arguments). Throws `invalid-argument` for
/// arguments of the wrong type, and rethrows what an `io` function throws (after the run
/// stops at that step).
#[wasm_bindgen(js_name = runPublishCommand)]
pub fn run_publish_command(
    #[wasm_bindgen(unchecked_param_type = "string[]")] args: JsValue,
    #[wasm_bindgen(unchecked_param_type = "PublishIo")] io: JsValue,
) -> Result<u8, JsValue> {
    let Checked {
        line,
        gc,
        env,
        scratch,
        fs,
    } = checked(&args, &io)?;
    // The first exception an `io` function threw (or a malformed answer); the run is told
    // the step failed, and the exception is rethrown once it returns.
    let thrown: RefCell<Option<JsValue>> = RefCell::new(None);
    let keep = |e: JsValue| {
        thrown.borrow_mut().get_or_insert(e);
        "the command's I/O failed".to_owned()
    };
    let call = |f: &Function, args: &[JsValue]| -> Result<JsValue, String> {
        let list: Array = args.iter().collect();
        f.apply(&JsValue::UNDEFINED, &list).map_err(keep)
    };
    let s = |v: &str| JsValue::from_str(v);
    let env_fn = |name: &str| {
        js_sys::Reflect::get(&env, &s(name))
            .ok()
            .and_then(|v| v.as_string())
    };
    let read_folder = |dir: &str| -> SourceTree {
        call(&fs.read_folder, &[s(dir)])
            .ok()
            .and_then(|entries| {
                source_tree(&entries, arg("runPublishCommand", "io.readFolder"))
                    .map_err(keep)
                    .ok()
            })
            .unwrap_or_default()
    };
    let read_file = |path: &str| -> Result<Vec<u8>, String> {
        file_answer(&call(&fs.read_file, &[s(path)])?).map_err(keep)?
    };
    let done = |v: JsValue| -> Result<(), String> { reason(&v).map_or(Ok(()), Err) };
    let write_file = |path: &str, bytes: &[u8]| -> Result<(), String> {
        done(call(
            &fs.write_file,
            &[s(path), js_sys::Uint8Array::from(bytes).into()],
        )?)
    };
    let remove_file = |path: &str| {
        let _ = call(&fs.remove_file, &[s(path)]);
    };
    let make_dir = |path: &str| -> Result<(), String> { done(call(&fs.make_dir, &[s(path)])?) };
    let remove_dir = |path: &str| {
        let _ = call(&fs.remove_dir, &[s(path)]);
    };
    let run = |program: &str, args: &[String]| -> Result<(bool, String), String> {
        let list: Array = args.iter().map(|a| s(a)).collect();
        run_answer(&call(&fs.run, &[s(program), list.into()])?).map_err(keep)?
    };
    let stdout = |text: &str| {
        let _ = call(&fs.stdout, &[s(text)]);
    };
    let stderr = |text: &str| {
        let _ = call(&fs.stderr, &[s(text)]);
    };
    let status = publish::command(
        &line[1..],
        gc,
        &Io {
            env: &env_fn,
            read_folder: &read_folder,
            read_file: &read_file,
            write_file: &write_file,
            remove_file: &remove_file,
            make_dir: &make_dir,
            remove_dir: &remove_dir,
            scratch: &scratch,
            run: &run,
            stdout: &stdout,
            stderr: &stderr,
        },
    );
    match thrown.into_inner() {
        Some(e) => Err(e),
        None => Ok(status),
    }
}
