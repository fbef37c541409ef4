// Runs the Worker on real workerd through `wrangler dev`, on a free 127.0.0.1 port, with
// telemetry and update checks off. The Worker must be built first (scripts/build-worker.sh).
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort, spawnGroup, tail, tempDir } from "../../lib/processes.mjs";

export const ROOT = resolve(fileURLToPath(new URL("../../..", import.meta.url)));
const WRANGLER = join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");
const QUIET = {
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_HIDE_BANNER: "true",
  NO_UPDATE_NOTIFIER: "1",
  CI: "1",
};

/**
 * Copies the built Worker into `dest` in the repository's layout (wrangler.toml,
 * worker/entry.mjs, worker/build/), so it runs with `startWorker({ config })` on files a test
 * may change. `catalog: false` leaves out the pack and the assets (worker/build/catalog.pack,
 * worker/build/assets/) for the test to write its own. Returns the config's path.
 */
export function copyWorker(dest, { catalog = true } = {}) {
  const build = join(ROOT, "worker", "build");
  if (!existsSync(join(build, "skills_edge_worker_bg.wasm"))) {
    throw new Error("the Worker is not built: run `bash scripts/build-worker.sh` first");
  }
  mkdirSync(join(dest, "worker"), { recursive: true });
  cpSync(join(ROOT, "wrangler.toml"), join(dest, "wrangler.toml"));
  cpSync(join(ROOT, "worker", "entry.mjs"), join(dest, "worker", "entry.mjs"));
  cpSync(build, join(dest, "worker", "build"), {
    recursive: true,
    filter: (src) => {
      const rel = relative(build, src);
      return catalog || !(rel === "catalog.pack" || rel === "assets" || rel.startsWith(`assets${sep}`));
    },
  });
  return join(dest, "wrangler.toml");
}

/**
 * `wrangler deploy --dry-run --outdir` of the Worker described by `config` (the repository's
 * wrangler.toml by default): bundles it for upload without an account. Resolves
 * `{ kib, gzipKiB, stdout }` from wrangler's "Total Upload: … KiB / gzip: … KiB" line.
 */
export async function deployDryRun(config) {
  const out = tempDir("deploy");
  try {
    const args = [WRANGLER, "deploy", "--dry-run", "--outdir", join(out, "dist")];
    if (config) args.push("-c", config);
    const stdout = await new Promise((resolveRun, reject) => {
      execFile(
        process.execPath,
        args,
        { cwd: ROOT, timeout: 300_000, maxBuffer: 16 << 20, env: { ...process.env, ...QUIET, WRANGLER_LOG_PATH: join(out, "logs") } },
        (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stdout}\n${stderr}`)) : resolveRun(stdout)),
      );
    });
    const m = stdout.match(/Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/);
    if (!m) throw new Error(`no "Total Upload" line in wrangler's output:\n${stdout}`);
    return { kib: Number(m[1]), gzipKiB: Number(m[2]), stdout };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/**
 * Starts `wrangler dev` with the given Worker vars (`{ NAME: "value" }`, passed as
 * `--var NAME:value`) and waits until the Worker answers.
 * `config` (a wrangler.toml path relative to the repository) runs another Worker instead of
 * the repository's own (`-c config`); it must answer 404 with a JSON body on `/` as well.
 * Returns `{ port, url, origin, log, stop() }` (`url` uses `localhost`, `origin` is
 * `http://127.0.0.1:port`).
 */
export async function startWorker({ vars = {}, readyTimeoutMs = 90_000, config } = {}) {
  if (!config && !existsSync(join(ROOT, "worker", "build", "skills_edge_worker_bg.wasm"))) {
    throw new Error("the Worker is not built: run `bash scripts/build-worker.sh` first");
  }
  const port = await freePort();
  const inspectorPort = await freePort();
  const dir = tempDir("wrangler");
  const log = join(dir, "wrangler-dev.log");
  const args = [
    WRANGLER,
    "dev",
    "--ip", "127.0.0.1",
    "--port", String(port),
    "--inspector-port", String(inspectorPort),
    "--persist-to", join(dir, "state"),
    "--log-level", "info",
    "--show-interactive-dev-session=false",
  ];
  if (config) args.push("-c", config);
  for (const [name, value] of Object.entries(vars)) args.push("--var", `${name}:${value}`);
  const env = {
    ...process.env,
    // Node 22 (the npm package `node`) runs the tests; wrangler runs on the same binary.
    PATH: `${resolve(process.execPath, "..")}:${process.env.PATH ?? ""}`,
    ...QUIET,
    WRANGLER_LOG_PATH: join(dir, "logs"),
  };
  const proc = spawnGroup(process.execPath, args, { cwd: ROOT, env, logFile: log });
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyTimeoutMs;
  let exited = null;
  proc.exited.then((e) => (exited = e));
  for (;;) {
    if (exited) {
      throw new Error(`wrangler dev exited (${JSON.stringify(exited)}) before answering:\n${tail(log)}`);
    }
    try {
      const res = await fetch(`${origin}/`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      // The Worker itself answers 404 (JSON-RPC body) on other paths.
      if (res.status === 404 && (res.headers.get("content-type") ?? "").includes("application/json")) break;
    } catch {}
    if (Date.now() > deadline) {
      await proc.stop();
      throw new Error(`wrangler dev did not answer within ${readyTimeoutMs} ms:\n${tail(log)}`);
    }
    await sleep(250);
  }
  return {
    port,
    origin,
    url: `http://localhost:${port}/mcp`,
    log,
    logTail: (n) => tail(log, n),
    stop: () => proc.stop(),
  };
}
