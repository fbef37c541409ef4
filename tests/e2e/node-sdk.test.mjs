// The example in examples/node-sdk/ (an MCP server made with the official TypeScript SDK 2.4 on
// Node, with a tool of its own and the skills of a pack served through the SDK's
// SkillsExtension over `skills-edge/sdk`'s packSkillSource):
//
// * the repository's skills/ folder is packed with the package's CLI (`skills-edge pack`) and
//   the example is started on a free 127.0.0.1 port (`PORT`, `SKILLS_PACK`), as its README
//   says; its process group is stopped afterwards;
// * the conformance suite's three Skills scenarios at 2026-07-28 and 2025-11-25 (the SDK's
//   createMcpHandler serves both): every check SUCCESS, nothing skipped but the two cache
//   checks the suite itself skips below 2026-07-28;
// * the judges of tests/judges/ on both eras: the official SDK 2.4 client (SkillsClient over
//   Streamable HTTP: every page, entry, file and directory, every file verified) and MCP
//   Inspector 2.12 `--cli URL --method skills/list --verify`;
// * the example's own tool is listed and called next to the skills.
// Needs the npm package built (pkg/, by scripts/build-pkg.sh). Run with Node 22.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { ROOT } from "./lib/worker.mjs";
import { runScenario } from "./lib/mcp.mjs";
import { freePort, spawnGroup, tail, tempDir } from "../lib/processes.mjs";
import { httpTransport } from "../judges/sdk.mjs";
import { judgeTests } from "../judges/suite.mjs";

const run = promisify(execFile);
const SKILLS_CLI = join(ROOT, "node_modules", ".bin", "skills-edge");
const SERVER = join(ROOT, "examples", "node-sdk", "src", "server.mjs");
const dir = tempDir("node-sdk");
const PACK = join(dir, "skills.pack");
const LOG = join(dir, "server.log");
let server;
let url;

before(async () => {
  await run(process.execPath, [SKILLS_CLI, "pack", "skills", "-o", PACK], { cwd: ROOT });
  const port = await freePort();
  server = spawnGroup(process.execPath, [SERVER], {
    cwd: join(ROOT, "examples", "node-sdk"),
    env: { ...process.env, PORT: String(port), SKILLS_PACK: PACK },
    logFile: LOG,
  });
  url = `http://127.0.0.1:${port}/mcp`;
  let exited = null;
  server.exited.then((e) => (exited = e));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (exited) throw new Error(`the example exited (${JSON.stringify(exited)}):\n${tail(LOG)}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status === 404) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`the example did not answer within 30 s:\n${tail(LOG)}`);
    await sleep(100);
  }
});

after(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

// The suite itself skips these below 2026-07-28: ttlMs and cacheScope do not exist there.
const SKIPPED_BELOW_2026 = {
  "sep-2640-skills-enumeration": ["sep-2640-skills-list-cache-attributes", "sep-2640-skills-get-cache-attributes"],
};

describe("conformance suite, Skills scenarios", () => {
  for (const version of ["2026-07-28", "2025-11-25"]) {
    for (const scenario of ["sep-2640-skills-enumeration", "sep-2640-skills-manifest", "sep-2640-skills-directory"]) {
      test(`${scenario} at ${version}`, { timeout: 150_000 }, async () => {
        const { code, output, checks } = await runScenario(url, scenario, version, { outRoot: dir, force: true });
        assert.ok(checks?.length > 0, `${scenario}: no checks (exit ${code})\n${output}`);
        const allowed = version === "2025-11-25" ? (SKIPPED_BELOW_2026[scenario] ?? []) : [];
        const bad = checks
          .filter((c) => c.status !== "SUCCESS" && !(c.status === "SKIPPED" && allowed.includes(c.id)))
          .map((c) => `  ${c.status} ${c.id}: ${c.errorMessage ?? c.description ?? ""}`);
        assert.deepEqual(bad, [], `${scenario} at ${version}: every check SUCCESS`);
        assert.ok(checks.some((c) => c.id === "wire-schema-valid" && c.status === "SUCCESS"), "wire-schema-valid ran");
        assert.equal(code, 0, output);
      });
    }
  }
});

judgeTests("examples/node-sdk (SDK 2.4 McpServer + SkillsExtension over packSkillSource)", {
  sdkTransport: () => httpTransport(url),
  inspectorTarget: () => url,
});

test("the example's own tool is served next to the skills", { timeout: 30_000 }, async () => {
  const client = new Client({ name: "node-sdk-e2e", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    assert.deepEqual(client.getServerVersion(), { name: "node-sdk-example", version: "1.0.0" });
    assert.deepEqual(client.getServerCapabilities()?.extensions?.["io.modelcontextprotocol/skills"], { directoryRead: true });
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ["server_time"]);
    const res = await client.callTool({ name: "server_time", arguments: {} });
    assert.ok(!Number.isNaN(Date.parse(res.content[0].text)), res.content[0].text);
  } finally {
    await client.close();
  }
});
