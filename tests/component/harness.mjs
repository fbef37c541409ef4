// Shared helpers of the component tests: where the built components are, transpiling one
// with jco, serving the HTTP world on a loopback port with a component runtime (`jco serve`
// or `wasmtime serve`, chosen by SKILLS_EDGE_COMPONENT_RUNTIME), and running the MCP
// conformance suite against it. Every wait is bounded and every process is stopped.

import { spawn, execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../lib/processes.mjs";

/** The repository root. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
/** Where scripts/build-component.sh puts the components (override: SKILLS_EDGE_COMPONENT_DIR). */
export const COMPONENT_DIR = process.env.SKILLS_EDGE_COMPONENT_DIR ?? join(ROOT, "build", "component");
const JCO = join(ROOT, "node_modules", ".bin", "jco");
/** Node 22 from the npm registry (the conformance CLI needs Node >= 22). */
const NODE22 = join(ROOT, "node_modules", ".bin", "node");
const CONFORMANCE = join(ROOT, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");

/** The path of a built component (`skills-edge` or `skills-edge-http`); throws if missing. */
export function componentPath(name) {
  const path = join(COMPONENT_DIR, `${name}.wasm`);
  if (!existsSync(path)) {
    throw new Error(`${path} is missing: build it first with scripts/build-component.sh`);
  }
  return path;
}

/**
 * A fresh scratch directory inside the repository (under build/component/), so that code
 * generated there resolves @bytecodealliance/preview2-shim from the repository's
 * node_modules. Remove it with `rmSync(dir, { recursive: true, force: true })`.
 */
export function scratchDir(prefix) {
  const base = join(ROOT, "build", "component");
  mkdirSync(base, { recursive: true });
  return mkdtempSync(join(base, `${prefix}-`));
}

/** Runs a command to completion within `timeoutMs`; resolves with stdout, rejects on failure. */
export function run(cmd, args, { timeoutMs = 120_000, env } = {}) {
  return new Promise((resolve, reject) => {
    execFile(
      cmd,
      args,
      { cwd: ROOT, timeout: timeoutMs, killSignal: "SIGKILL", env: env ?? process.env, maxBuffer: 64 << 20 },
      (err, stdout, stderr) => {
        if (err) {
          err.message += `\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`;
          reject(err);
        } else {
          resolve({ stdout, stderr });
        }
      },
    );
  });
}

/**
 * Transpiles a component with `jco transpile` into `outDir` and imports the generated ES
 * module.
 */
export async function transpileAndImport(wasmPath, outDir, name) {
  await run(JCO, ["transpile", wasmPath, "--name", name, "-o", outDir, "-q"]);
  return import(join(outDir, `${name}.js`));
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The component runtimes the HTTP world is served on. */
export const RUNTIMES = Object.freeze({
  /** `jco serve`: the component transpiled to JS, on Node with @bytecodealliance/preview2-shim. */
  jco: "jco serve",
  /** `wasmtime serve` (wasmtime 49.0.3, scripts/install-wasmtime.sh), the runtime edge platforms build on. */
  wasmtime: "wasmtime serve",
});

/** The runtime of this test run: SKILLS_EDGE_COMPONENT_RUNTIME (`jco` or `wasmtime`; default `jco`). */
export const RUNTIME = process.env.SKILLS_EDGE_COMPONENT_RUNTIME ?? "jco";
if (!(RUNTIME in RUNTIMES)) {
  throw new Error(`SKILLS_EDGE_COMPONENT_RUNTIME=${RUNTIME}: use one of ${Object.keys(RUNTIMES).join(", ")}`);
}

/** The wasmtime binary (override: WASMTIME); scripts/install-wasmtime.sh puts it in .tools/. */
export const WASMTIME = process.env.WASMTIME ?? join(ROOT, ".tools", "bin", "wasmtime");

/**
 * The command serving `wasmPath` on 127.0.0.1:`port` with `runtime`, the component's
 * environment being exactly `env` for wasmtime (`-S cli=y` and one `--env` per variable) and
 * the test's environment plus `env` for jco (preview2-shim hands the process environment to
 * the component). `workers` (jco only) runs each request in a worker thread of its own, from
 * a pool of that many (`--isolate-requests worker`); without it jco runs one request at a time.
 */
function serveCommand(runtime, wasmPath, port, env, scratch, workers) {
  if (runtime === "wasmtime") {
    if (!existsSync(WASMTIME)) {
      throw new Error(`${WASMTIME} is missing: install it with scripts/install-wasmtime.sh (or set WASMTIME)`);
    }
    const vars = Object.entries(env).flatMap(([k, v]) => ["--env", `${k}=${v}`]);
    // The pooling allocator is compiled out of the installed build (see install-wasmtime.sh).
    const args = ["serve", "-O", "pooling-allocator=n", "-S", "cli=y", ...vars, "--addr", `127.0.0.1:${port}`, wasmPath];
    return { cmd: WASMTIME, args, env: process.env };
  }
  const isolate = workers ? ["--isolate-requests", "worker", "--isolate-worker-pool-size", String(workers)] : [];
  const args = ["serve", "--host", "127.0.0.1", "--port", String(port), ...isolate, "--jco-dir", join(scratch, `serve-${port}`), wasmPath];
  return { cmd: JCO, args, env: { ...process.env, ...env } };
}

/**
 * Serves a `wasi:http` component with `runtime` (a key of RUNTIMES; default RUNTIME) on
 * 127.0.0.1 (a free port) in its own process group, and waits (bounded) until it answers.
 * `workers`: see serveCommand. Resolves with `{ port, url, runtime, stop, log }`; `stop()`
 * ends the whole process group and waits for it.
 */
export async function serve(wasmPath, { env = {}, scratch, readyMs = 30_000, runtime = RUNTIME, workers } = {}) {
  let lastError;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const { cmd, args, env: childEnv } = serveCommand(runtime, wasmPath, port, env, scratch, workers);
    const child = spawn(cmd, args, { cwd: ROOT, detached: true, stdio: ["ignore", "pipe", "pipe"], env: childEnv });
    let log = "";
    child.stdout.on("data", (d) => (log += d));
    child.stderr.on("data", (d) => (log += d));
    const exited = new Promise((resolve) => {
      child.once("exit", (code, signal) => resolve({ code, signal }));
      child.once("error", (error) => {
        log += `\n${error.message}`;
        resolve({ error });
      });
    });
    let done = false;
    exited.then(() => (done = true));
    const stop = async () => {
      if (!done) {
        try {
          process.kill(-child.pid, "SIGTERM");
        } catch {
          // already gone
        }
        const t = setTimeout(() => {
          try {
            process.kill(-child.pid, "SIGKILL");
          } catch {
            // already gone
          }
        }, 5_000);
        await exited;
        clearTimeout(t);
      }
    };
    const deadline = Date.now() + readyMs;
    while (!done && Date.now() < deadline) {
      try {
        await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2_000) });
        return { port, url: `http://127.0.0.1:${port}/mcp`, runtime, stop, log: () => log };
      } catch {
        await sleep(200);
      }
    }
    await stop();
    lastError = new Error(`${RUNTIMES[runtime]} did not answer on port ${port} within ${readyMs} ms:\n${log}`);
  }
  throw lastError;
}

/**
 * Runs one server scenario of the MCP conformance suite against `url` at protocol revision
 * 2026-07-28 (with --force: the Skills scenarios are extension scenarios) and returns the
 * checks it recorded. Throws when the run fails or records nothing.
 */
export async function conformance(url, scenario, outDir) {
  const args = [CONFORMANCE, "server", "--url", url, "--scenario", scenario, "--spec-version", "2026-07-28", "--force", "-o", outDir];
  await run(NODE22, args, { timeoutMs: 120_000 });
  const dirs = readdirSync(outDir).filter((d) => d.startsWith(`server-${scenario}-`));
  if (dirs.length !== 1) {
    throw new Error(`expected one result directory for ${scenario} in ${outDir}, found ${dirs.length}`);
  }
  const file = join(outDir, dirs[0], "checks.json");
  if (!existsSync(file)) {
    throw new Error(`${scenario} recorded no checks (skipped?): ${file} is missing`);
  }
  return JSON.parse(readFileSync(file, "utf8"));
}

/** Removes a scratch directory. */
export function remove(dir) {
  if (dir) rmSync(dir, { recursive: true, force: true });
}
