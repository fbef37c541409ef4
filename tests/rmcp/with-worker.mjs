// Runs a command next to the Worker: starts `wrangler dev` (tests/e2e/lib/worker.mjs: a free
// 127.0.0.1 port, its own process group) with PAGE_SIZE=3, runs the command with
// SKILLS_EDGE_WORKER_URL set to the Worker's MCP endpoint, then stops the Worker's process
// group and exits with the command's status. SIGINT/SIGTERM stop both.
// Usage: node tests/rmcp/with-worker.mjs COMMAND [ARGS...]
import { spawn } from "node:child_process";
import { startWorker } from "../e2e/lib/worker.mjs";

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error("usage: node tests/rmcp/with-worker.mjs COMMAND [ARGS...]");
  process.exit(2);
}

let worker;
let child;
const finish = async (code) => {
  await worker?.stop();
  // process.exit runs tests/lib/processes.mjs's exit hook, which kills the process group of a
  // Worker still starting.
  process.exit(code);
};
for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]]) {
  process.on(signal, () => {
    child?.kill(signal);
    finish(code);
  });
}

worker = await startWorker({ vars: { PAGE_SIZE: "3" } });
const url = `${worker.origin}/mcp`;
console.error(`with-worker: the Worker serves ${url}`);

child = spawn(command, args, {
  stdio: "inherit",
  env: { ...process.env, SKILLS_EDGE_WORKER_URL: url },
});
child.on("error", (err) => {
  console.error(`with-worker: cannot run ${command}: ${err.message}`);
  finish(127);
});
child.on("exit", (code, signal) => {
  if (code !== 0) {
    console.error(`with-worker: ${command} exited with ${signal ?? code}; the Worker's log ends:\n${worker.logTail(20)}`);
  }
  finish(code ?? 1);
});
