// The examples' READMEs walked as a user walks them: each block marked `<!-- example: NAME -->`
// in examples/*/README.md copied out and run with bash from the repository root, as the
// READMEs say ("From the repository root"), and its result checked. Only the placeholder port
// is substituted: 8787 (wrangler dev) and 3000 (the Node server) become a free port, since
// other tests run beside this one. A line that starts a server (`npx wrangler dev`, `node
// …/server.mjs`) is started in its own process group, waited for until it answers HTTP, and
// stopped by the test; every other line runs to its end and must exit 0. The prose commands
// the READMEs give for trying a server (`curl -i -X POST …`) are run the same way.
// Needs the npm package built in pkg/ (the root's node_modules links it) and the native
// command (SKILLS_EDGE_BIN, which scripts/build-worker.sh packs with; 35-example.sh sets it).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ROOT } from "./lib/worker.mjs";
import { freePort, spawnGroup, tail, tempDir } from "../lib/processes.mjs";

const scratch = tempDir("docs-walk-examples");
after(() => rmSync(scratch, { recursive: true, force: true }));

/** The code block after `<!-- example: name -->` in `file` (relative to the repository). */
function block(file, name) {
  const text = readFileSync(join(ROOT, file), "utf8");
  const m = text.match(new RegExp(`<!-- example: ${name} -->\\s*\`\`\`(\\w*)\\n([\\s\\S]*?)\`\`\``));
  assert.ok(m, `${file} has the example ${name}`);
  return m[2];
}

/** A block's commands: continuation lines joined, comments and blank lines dropped. */
function commands(code) {
  return code
    .replace(/\\\n\s*/g, "")
    .split("\n")
    .map((l) => l.replace(/\s+#.*$/, "").trim())
    .filter((l) => l && !l.startsWith("#"));
}

// Node 22 (the one running the tests) first on the PATH, as for the other Worker tests.
const ENV = {
  ...process.env,
  PATH: `${resolve(process.execPath, "..")}:${join(ROOT, "node_modules", ".bin")}:${process.env.PATH ?? ""}`,
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_HIDE_BANNER: "true",
  npm_config_update_notifier: "false",
};

/** Runs one command with bash from the repository root; it must exit 0. */
function run(command) {
  const r = spawnSync("bash", ["-euo", "pipefail", "-c", command], { cwd: ROOT, env: ENV, encoding: "utf8", timeout: 300_000 });
  if (r.error) throw r.error;
  assert.equal(r.status, 0, `${command}\n${r.stdout}\n${r.stderr}`);
  return r;
}

/** Starts a server command in its own process group; resolves once `origin` answers HTTP. */
async function serve(command, origin) {
  const log = join(scratch, `server-${Date.now()}.log`);
  const proc = spawnGroup("bash", ["-c", command], { cwd: ROOT, env: ENV, logFile: log });
  let exited = null;
  proc.exited.then((e) => (exited = e));
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (exited) throw new Error(`${command} exited (${JSON.stringify(exited)}):\n${tail(log, 60)}`);
    try {
      const res = await fetch(origin, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      return proc;
    } catch {}
    if (Date.now() > deadline) {
      await proc.stop();
      throw new Error(`${command} did not answer within 120 s:\n${tail(log, 60)}`);
    }
    await sleep(250);
  }
}

/** Runs a README's block line by line: builds and packs to their end, servers in the background. */
async function walk(file, name, port, servers) {
  const ran = [];
  for (const line of commands(block(file, name))) {
    const command = line.replaceAll("8787", String(port)).replace(/PORT=3000\b/, `PORT=${port}`);
    if (/^(npx wrangler dev|PORT=\d+ node )/.test(command)) {
      servers.push(await serve(command, `http://127.0.0.1:${port}/`));
    } else {
      run(command);
    }
    ran.push(line);
  }
  return ran;
}

/** The first inline `curl …` of `file`'s prose, its port substituted. */
function proseCurl(file, port) {
  const m = readFileSync(join(ROOT, file), "utf8").match(/`(curl -i -X POST http:\/\/127\.0\.0\.1:8787\/mcp)`/);
  assert.ok(m, `${file} names the curl command that shows the provider's 401`);
  return m[1].replace("8787", String(port));
}

async function stopAll(servers) {
  await Promise.all(servers.map((s) => s.stop()));
}

test("examples/js-worker: pack, wrangler dev, the curl of the README", async () => {
  const file = "examples/js-worker/README.md";
  const port = await freePort();
  const servers = [];
  try {
    const ran = await walk(file, "run", port, servers);
    assert.equal(ran.length, 2);
    assert.ok(existsSync(join(ROOT, "examples", "js-worker", "skills.pack")));
    const r = run(block(file, "try").replaceAll("8787", String(port)));
    const reply = JSON.parse(r.stdout);
    // "The answer declares tools (the Worker's) next to resources and the Skills extension".
    assert.ok(reply.result.capabilities.tools, r.stdout);
    assert.ok(reply.result.capabilities.resources, r.stdout);
    assert.ok(reply.result.capabilities.extensions["io.modelcontextprotocol/skills"], r.stdout);
  } finally {
    await stopAll(servers);
  }
});

test("examples/node-sdk: pack, the server, verify and MCP Inspector as the README runs them", async () => {
  const file = "examples/node-sdk/README.md";
  const port = await freePort();
  const servers = [];
  try {
    const ran = await walk(file, "run", port, servers);
    assert.equal(ran.length, 2);
    const lines = commands(block(file, "try"));
    assert.equal(lines.length, 2);
    const [verify, inspector] = lines.map((l) => l.replaceAll("3000", String(port)));
    const v = run(verify);
    assert.match(v.stdout, /verified/);
    const i = run(inspector);
    assert.match(i.stdout + i.stderr, /code-review/);
  } finally {
    await stopAll(servers);
  }
});

test("examples/agents-worker: pack into build/ (made by pack), wrangler dev, the provider's 401", async () => {
  const file = "examples/agents-worker/README.md";
  const port = await freePort();
  const servers = [];
  // The README's pack line writes into build/, which a fresh clone does not have.
  rmSync(join(ROOT, "examples", "agents-worker", "build", "skills.pack"), { force: true });
  try {
    const ran = await walk(file, "run", port, servers);
    assert.equal(ran.length, 2);
    const r = run(proseCurl(file, port));
    assert.match(r.stdout, /^HTTP\/1\.1 401 /, r.stdout);
    assert.match(r.stdout, /^www-authenticate: Bearer /im, r.stdout);
  } finally {
    await stopAll(servers);
  }
});

test("examples/oauth-provider: the Worker's build, the pack with its assets, wrangler dev, the provider's 401", async () => {
  const file = "examples/oauth-provider/README.md";
  const port = await freePort();
  const servers = [];
  rmSync(join(ROOT, "examples", "oauth-provider", "build"), { recursive: true, force: true });
  try {
    const ran = await walk(file, "run", port, servers);
    assert.equal(ran.length, 3);
    assert.ok(existsSync(join(ROOT, "examples", "oauth-provider", "build", "catalog.pack")));
    const r = run(proseCurl(file, port));
    assert.match(r.stdout, /^HTTP\/1\.1 401 /, r.stdout);
    assert.match(r.stdout, /^www-authenticate: Bearer /im, r.stdout);
  } finally {
    await stopAll(servers);
  }
});
