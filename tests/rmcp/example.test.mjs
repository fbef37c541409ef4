// The rmcp example server (rmcp/examples/server: an rmcp 3.11 server with a tool of its own
// plus the repository's skills through skills-edge-rmcp) over Streamable HTTP on a free
// 127.0.0.1 port, with a page size of 3, judged by the JavaScript side:
//
// * the conformance suite's three Skills scenarios at 2026-07-28 and 2025-11-25: every check
//   SUCCESS (no FAILURE, no WARNING, nothing SKIPPED but, at 2025-11-25, the two cache-hint
//   checks that revision does not define), and `sep-2164-resource-not-found` at 2026-07-28;
// * the judges of tests/judges/ on both eras: the official SDK 2.4 client's SkillsClient
//   (every page, entry, file and directory, counts equal to what skills/ publishes) and MCP
//   Inspector 2.12 `--verify`.
//
// SKILLS_EDGE_RMCP_EXAMPLE_BIN is the built example (scripts/test.d/32-rmcp.sh builds it and
// runs this file with Node 22).
import { test, before, after, describe } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { startExample } from "./example.mjs";
import { runScenario } from "../e2e/lib/mcp.mjs";
import { tempDir } from "../lib/processes.mjs";
import { httpTransport } from "../judges/sdk.mjs";
import { judgeTests } from "../judges/suite.mjs";

const MODERN = "2026-07-28";
const LEGACY = "2025-11-25";
const PAGE_SIZE = 3;
const bin = process.env.SKILLS_EDGE_RMCP_EXAMPLE_BIN;
let server;
const outRoot = tempDir("rmcp-example");

before(async () => {
  assert.ok(bin, "SKILLS_EDGE_RMCP_EXAMPLE_BIN is not set: run `bash scripts/test.d/32-rmcp.sh`, which builds the example");
  server = await startExample(bin, { env: { PAGE_SIZE: String(PAGE_SIZE) } });
});

after(async () => {
  await server?.stop();
  rmSync(outRoot, { recursive: true, force: true });
});

const SKILLS_SCENARIOS = ["sep-2640-skills-enumeration", "sep-2640-skills-manifest", "sep-2640-skills-directory"];
// Checks the suite skips by protocol version: defined only from 2026-07-28.
const SKIPPED_BELOW_2026 = {
  "sep-2640-skills-enumeration": ["sep-2640-skills-list-cache-attributes", "sep-2640-skills-get-cache-attributes"],
};
const RUNS = [
  ...SKILLS_SCENARIOS.map((s) => [s, MODERN]),
  ["sep-2164-resource-not-found", MODERN],
  ...SKILLS_SCENARIOS.map((s) => [s, LEGACY]),
];

describe("conformance suite", () => {
  for (const [scenario, version] of RUNS) {
    test(`${scenario} at ${version}`, { timeout: 150_000 }, async () => {
      const { code, output, checks } = await runScenario(server.url, scenario, version, { outRoot, force: true });
      assert.ok(checks?.length > 0, `${scenario}: no checks (exit ${code})\n${output}\n${server.logTail()}`);
      assert.doesNotMatch(output, /SKIPPED: scenario/, `${scenario} was skipped`);
      // At 2025-11-25 the suite skips the checks of what that revision does not define, as for
      // the Worker (tests/e2e/conformance.test.mjs): those two, and only with that reason.
      const allowedSkips = version === LEGACY ? (SKIPPED_BELOW_2026[scenario] ?? []) : [];
      const skipped = checks.filter((c) => c.status === "SKIPPED" && allowedSkips.includes(c.id));
      for (const c of skipped) assert.match(c.errorMessage ?? "", /not applicable on negotiated protocol 2025-11-25/);
      const bad = checks
        .filter((c) => c.status !== "SUCCESS" && c.status !== "INFO" && !skipped.includes(c))
        .map((c) => `  ${c.status} ${c.id}: ${c.errorMessage ?? c.description ?? ""}`);
      assert.deepEqual(bad, [], `${scenario}: every check must be SUCCESS`);
      assert.equal(code, 0, output);
      const note = skipped.length ? ` (${skipped.length} skipped: not defined at ${version})` : "";
      console.log(`${scenario} @${version}: ${checks.length} checks, all SUCCESS${note}`);
    });
  }
});

judgeTests("the rmcp example over Streamable HTTP", {
  sdkTransport: () => httpTransport(server.url),
  inspectorTarget: () => server.url,
  pageSize: PAGE_SIZE,
});
