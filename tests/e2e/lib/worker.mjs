// Runs the Worker on real workerd through `wrangler dev`, on a free 127.0.0.1 port, with
// telemetry and update checks off. The Worker must be built first (scripts/build-worker.sh).
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort, spawnGroup, tail, tempDir } from "../../lib/processes.mjs";

export const ROOT = resolve(fileURLToPath(new URL("../../..", import.meta.url)));
const WRANGLER = join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");

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
    WRANGLER_SEND_METRICS: "false",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    WRANGLER_HIDE_BANNER: "true",
    WRANGLER_LOG_PATH: join(dir, "logs"),
    NO_UPDATE_NOTIFIER: "1",
    CI: "1",
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
