// Runs a command next to the servers the rmcp judge reaches over HTTP: starts `wrangler dev`
// (tests/e2e/lib/worker.mjs: a free 127.0.0.1 port, its own process group) with PAGE_SIZE=3,
// and, when their binaries are given, the rmcp example server (tests/rmcp/example.mjs) twice:
// over the repository's skills (SKILLS_EDGE_RMCP_EXAMPLE_BIN) and over the private fixture
// catalog, reading scopes from the test header x-skills-scopes (SKILLS_EDGE_RMCP_PRIVATE_BIN),
// both with PAGE_SIZE=3, all started at once. It runs the command with
// SKILLS_EDGE_WORKER_URL, SKILLS_EDGE_RMCP_EXAMPLE_URL and SKILLS_EDGE_RMCP_PRIVATE_URL set
// to their MCP endpoints, then stops every server's process group and exits with the
// command's status. SIGINT/SIGTERM stop everything.
// Usage: node tests/rmcp/with-worker.mjs COMMAND [ARGS...]
import { spawn } from "node:child_process";
import { startWorker } from "../e2e/lib/worker.mjs";
import { startExample } from "./example.mjs";

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error("usage: node tests/rmcp/with-worker.mjs COMMAND [ARGS...]");
  process.exit(2);
}

/** The test header the private example maps to scopes (tests only; see its documentation). */
export const SCOPES_HEADER = "x-skills-scopes";

const servers = [];
let child;
const finish = async (code) => {
  await Promise.all(servers.map((s) => s.stop()));
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

const env = { ...process.env };
const starts = [
  startWorker({ vars: { PAGE_SIZE: "3" } }).then((worker) => {
    servers.push(worker);
    env.SKILLS_EDGE_WORKER_URL = `${worker.origin}/mcp`;
    return worker;
  }),
];
const examples = [
  ["SKILLS_EDGE_RMCP_EXAMPLE_BIN", "SKILLS_EDGE_RMCP_EXAMPLE_URL", {}],
  ["SKILLS_EDGE_RMCP_PRIVATE_BIN", "SKILLS_EDGE_RMCP_PRIVATE_URL", { SKILLS_SCOPES_HEADER: SCOPES_HEADER }],
];
for (const [binVar, urlVar, extra] of examples) {
  if (!process.env[binVar]) continue;
  starts.push(
    startExample(process.env[binVar], { env: { PAGE_SIZE: "3", ...extra } }).then((example) => {
      servers.push(example);
      env[urlVar] = example.url;
      return example;
    }),
  );
}
const started = await Promise.allSettled(starts);
const failed = started.find((s) => s.status === "rejected");
if (failed) {
  console.error(`with-worker: a server did not start: ${failed.reason?.message ?? failed.reason}`);
  await finish(1);
}
for (const name of ["SKILLS_EDGE_WORKER_URL", "SKILLS_EDGE_RMCP_EXAMPLE_URL", "SKILLS_EDGE_RMCP_PRIVATE_URL"]) {
  if (env[name]) console.error(`with-worker: ${name}=${env[name]}`);
}

child = spawn(command, args, { stdio: "inherit", env });
child.on("error", (err) => {
  console.error(`with-worker: cannot run ${command}: ${err.message}`);
  finish(127);
});
child.on("exit", (code, signal) => {
  if (code !== 0) {
    const logs = servers.map((s) => s.logTail(20)).join("\n---\n");
    console.error(`with-worker: ${command} exited with ${signal ?? code}; the servers' logs end:\n${logs}`);
  }
  finish(code ?? 1);
});
