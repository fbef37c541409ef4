// The conformance suite's SEP-2640 host scenarios (@modelcontextprotocol/conformance, run with
// Node 22 from the npm package `node`) against tests/conformance-client.mjs, a host built on
// this package as installed from the tarball. Every check must be SUCCESS; a SKIPPED check has
// tested nothing and fails the test.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { REPO } from "./common.mjs";

const run = promisify(execFile);
const NODE22 = join(REPO, "node_modules", ".bin", "node");
const CLI = join(REPO, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
const CLIENT = join(REPO, "tests", "conformance-client.mjs");

const expected = {
  "sep-2640-client-no-prefetch": ["sep-2640-host-no-prefetch"],
  "sep-2640-client-verify-digest": ["sep-2640-host-verify-digest"],
  "sep-2640-client-verify-size": ["sep-2640-host-size-mismatch-failure"],
  "sep-2640-client-verify-frontmatter": ["sep-2640-host-frontmatter-comparison"],
};

for (const [scenario, ids] of Object.entries(expected)) {
  for (const version of ["2025-11-25", "2026-07-28"]) {
    test(`${scenario} (${version})`, { timeout: 90_000 }, async (t) => {
      const out = mkdtempSync(join(tmpdir(), "skills-edge-conformance-"));
      try {
        const args = [CLI, "client", "--command", `${process.execPath} ${CLIENT}`, "--scenario", scenario, "-o", out, "--timeout", "30000"];
        if (version !== "2025-11-25") args.push("--spec-version", version, "--force");
        const res = await run(NODE22, args, { cwd: out, env: { ...process.env }, maxBuffer: 16 << 20 }).catch((e) => e);
        const dirs = readdirSync(out).filter((d) => d.startsWith(scenario));
        assert.equal(dirs.length, 1, `one result directory\n${res.stdout}\n${res.stderr}`);
        const checks = JSON.parse(readFileSync(join(out, dirs[0], "checks.json"), "utf8"));
        const stderr = readFileSync(join(out, dirs[0], "stderr.txt"), "utf8");
        t.diagnostic(checks.map((c) => `${c.id}: ${c.status}`).join(", "));
        t.diagnostic(stderr.trim().split("\n").filter((l) => l.includes("refused") || l.includes("listed")).join(" | "));
        assert.deepEqual(checks.map((c) => c.id).filter((id) => ids.includes(id)).sort(), [...ids].sort(), JSON.stringify(checks));
        for (const c of checks) assert.equal(c.status, "SUCCESS", `${c.id}: ${c.status} ${c.errorMessage ?? ""}\n${stderr}`);
        assert.equal(res.code ?? 0, 0, `exit code\n${res.stdout}\n${res.stderr}`);
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    });
  }
}

test("control: a host that does not verify fails the verify scenarios", { timeout: 90_000 }, async () => {
  const out = mkdtempSync(join(tmpdir(), "skills-edge-conformance-"));
  try {
    const scenario = "sep-2640-client-verify-digest";
    const args = [CLI, "client", "--command", `${process.execPath} ${CLIENT}`, "--scenario", scenario, "-o", out];
    const env = { ...process.env, SKILLS_EDGE_CONFORMANCE_CONTROL: "unverified" };
    const res = await run(NODE22, args, { cwd: out, env, maxBuffer: 16 << 20 }).catch((e) => e);
    assert.notEqual(res.code ?? 0, 0);
    const dir = readdirSync(out).find((d) => d.startsWith(scenario));
    const checks = JSON.parse(readFileSync(join(out, dir, "checks.json"), "utf8"));
    assert.deepEqual(checks.map((c) => [c.id, c.status]), [["sep-2640-host-verify-digest", "FAILURE"]]);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
