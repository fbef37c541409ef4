// Starting the rmcp example server (rmcp/examples/server, `skills-edge-rmcp-example http`) on
// 127.0.0.1: port 0, so the OS picks a free one, which the server prints once it accepts
// connections ("listening on http://127.0.0.1:PORT/mcp"). It runs in its own process group
// (tests/lib/processes.mjs), stopped by `stop()`.
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { spawnGroup, tail, tempDir } from "../lib/processes.mjs";

/**
 * Starts `bin http` with `env` added (PAGE_SIZE, SKILLS_SCOPES_HEADER, …) and resolves to
 * `{ url, stop(), logTail() }` once it listens; rejects, with the server's log, if it exits
 * first or is not listening within `readyTimeoutMs`.
 */
export async function startExample(bin, { env = {}, readyTimeoutMs = 30_000 } = {}) {
  const logFile = join(tempDir("rmcp-example"), "server.log");
  const proc = spawnGroup(bin, ["http"], { env: { ...process.env, PORT: "0", ...env }, logFile });
  let exited = null;
  proc.exited.then((e) => (exited = e));
  const deadline = Date.now() + readyTimeoutMs;
  while (Date.now() < deadline) {
    let log = "";
    try {
      log = readFileSync(logFile, "utf8");
    } catch {}
    const m = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(log);
    if (m) return { url: m[1], stop: proc.stop, logTail: () => tail(logFile, 20) };
    if (exited) {
      throw new Error(`${bin} http exited (${exited.signal ?? exited.code ?? exited.error}) before listening:\n${tail(logFile, 20)}`);
    }
    await sleep(50);
  }
  await proc.stop();
  throw new Error(`${bin} http did not listen within ${readyTimeoutMs} ms:\n${tail(logFile, 20)}`);
}
