// `skills-edge verify <url>`: the npm package's command (bin/skills-edge.mjs, the installed
// tarball's) and the native command (SKILLS_EDGE_BIN) give byte-identical stdout and stderr
// and the same exit status against the same servers: the package's SkillsServer behind
// node:http (JSON and event-stream replies), the tampering proxy (each tampering with its own
// code, exit 1), the official SDK 2.4 server and @olaservo/ext-skills 0.14.0, on both eras,
// as a table and as JSON lines, for every skill and for one. Their JSON lines are what
// SkillsClient.verify() returns for the same server. Usage and connection errors exit 2.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { SkillsServer } from "skills-edge";
import { SkillsClient } from "skills-edge/client";
import { REPO } from "./common.mjs";
import { startHttpServer } from "./http-server.mjs";

const run = promisify(execFile);
const peer = (file) => import(pathToFileURL(join(REPO, "tests", "js", "peers", file)).href);
const { startTamperProxy, standardTamperings, TAMPERINGS } = await peer("tamper-proxy.mjs");
const { startSdkServer, startOlaServer } = await peer("sdk-servers.mjs");

const NATIVE = process.env.SKILLS_EDGE_BIN;
const PKG = process.env.SKILLS_EDGE_PKG;
const NPM_BIN = join(PKG ?? "", "bin", "skills-edge.mjs");

/** Runs a command; resolves `{ code, stdout, stderr }` whatever the exit status. */
async function exec(file, args) {
  try {
    const { stdout, stderr } = await run(file, args, { timeout: 120_000, maxBuffer: 16 << 20 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    if (typeof e.code !== "number") throw e;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const native = (args) => exec(NATIVE, ["verify", ...args]);
const npm = (args) => exec(process.execPath, [NPM_BIN, "verify", ...args]);

/** Both commands with `args`: identical output and status; returns it. */
async function both(args, { stderr = true } = {}) {
  const [n, j] = await Promise.all([native(args), npm(args)]);
  assert.equal(j.stdout, n.stdout, `stdout of ${args.join(" ")}`);
  assert.equal(j.code, n.code, `exit status of ${args.join(" ")}: ${n.stderr} / ${j.stderr}`);
  if (stderr) assert.equal(j.stderr, n.stderr, `stderr of ${args.join(" ")}`);
  return n;
}

const lines = (stdout) => stdout.trimEnd().split("\n").map((l) => JSON.parse(l));

const servers = {};
before(async () => {
  assert.ok(NATIVE && PKG, "SKILLS_EDGE_BIN and SKILLS_EDGE_PKG are set (scripts/test.d/20-npm.sh)");
  servers.plain = await startHttpServer(new SkillsServer({ pageSize: 3 }));
  servers.sse = await startHttpServer(new SkillsServer({ pageSize: 3 }), { sse: true, holdMs: 60_000 });
  servers.tampered = await startTamperProxy(servers.plain.url, standardTamperings());
  servers.sdk = await startSdkServer(join(REPO, "skills"));
  servers.ola = await startOlaServer(join(REPO, "skills"));
});

after(async () => {
  for (const s of Object.values(servers)) await s.close();
});

describe("the same servers, the same output", () => {
  for (const name of ["plain", "sse", "sdk", "ola"]) {
    for (const era of ["auto", "2026-07-28", "2025-11-25"]) {
      test(`${name}, --era ${era}: every skill verified (exit 0)`, async () => {
        const url = servers[name].url;
        const table = await both([url, "--era", era]);
        assert.equal(table.code, 0, table.stderr);
        const rows = table.stdout.trimEnd().split("\n");
        assert.match(rows[0], /^SKILL +FILES +BYTES +STATUS +SIGNER +WHY$/);
        assert.equal(rows.length, 8);
        // Unsigned skills: `-` in the SIGNER column.
        assert.ok(rows.slice(1).every((r) => / verified {2}-$/.test(r)), table.stdout);
        assert.match(table.stderr, new RegExp(`protocol ${era === "2025-11-25" ? "2025-11-25" : "2026-07-28"}\\): 7 skills, 21 files, \\d+ bytes: every file verified\\n$`));
        const json = await both([url, "--era", era, "--json"]);
        assert.equal(json.code, 0);
        const objects = lines(json.stdout);
        assert.equal(objects.length, 7);
        for (const o of objects) {
          assert.equal(o.status, "verified");
          assert.equal(o.checks.length, o.files);
          assert.ok(o.checks.every((c) => c.status === "verified" && /^sha256:[0-9a-f]{64}$/.test(c.digest)));
        }
        if (era === "auto") {
          // SkillsClient.verify() says the same.
          const c = await SkillsClient.connect(url);
          const report = await c.verify();
          c.close();
          assert.deepEqual(report.skills, objects);
          assert.equal(report.exitCode, 0);
        }
      });
    }
  }
});

test("the docs' verify output is what both commands print", async () => {
  const { readFileSync } = await import("node:fs");
  const table = await both([servers.plain.url]);
  for (const file of [join(PKG, "README.md"), join(REPO, "docs", "verifying.md")]) {
    const m = readFileSync(file, "utf8").match(/<!-- example: verify-output -->\s*```text\n([\s\S]*?)```/);
    assert.ok(m, `${file} has the verify output`);
    assert.equal(table.stdout, m[1], file);
  }
});

test("the tampering proxy: each tampering reported with its own code, exit 1", async () => {
  const url = servers.tampered.url;
  const table = await both([url]);
  assert.equal(table.code, 1);
  for (const t of TAMPERINGS) {
    const row = table.stdout.split("\n").find((l) => l.startsWith(`${t.skill} `));
    assert.ok(row, t.skill);
    const cols = row.split(/ +/);
    assert.equal(cols[3], "failed", row);
    assert.equal(cols[4], "-", row);
    assert.equal(cols[5], `${t.code}:`, row);
  }
  assert.match(table.stderr, /: 7 skills, 21 files, \d+ bytes: 3 verified, 4 failed\n$/);
  const json = await both([url, "--json"]);
  const objects = lines(json.stdout);
  for (const t of TAMPERINGS) {
    const o = objects.find((x) => x.skill === t.skill);
    assert.equal(o.code, t.code);
    assert.equal(o.checks.find((c) => c.uri === t.file).code, t.code);
  }
  const c = await SkillsClient.connect(url);
  const report = await c.verify();
  c.close();
  assert.deepEqual(report.skills, objects, "SkillsClient.verify() gives the same objects");
  assert.equal(report.exitCode, 1);
  // The unlisted file was never read by anyone.
  assert.equal(servers.tampered.requests.filter((r) => r.method === "resources/read" && r.uri?.endsWith("/secrets.md")).length, 0);
});

test("--skill checks one skill; --header reaches the server", async () => {
  const ok = await both([servers.plain.url, "--skill", "skill://code-review/SKILL.md", "--json", "--header", "X-Test: from the command"]);
  assert.equal(ok.code, 0);
  assert.deepEqual(lines(ok.stdout).map((o) => o.skill), ["skill://code-review/SKILL.md"]);
  const seen = servers.plain.seen.filter((s) => s.headers["x-test"] === "from the command");
  assert.ok(seen.length >= 4, `${seen.length} requests carried the header`);
  const bad = await both([servers.tampered.url, "--skill", "skill://diagram-style/SKILL.md"]);
  assert.equal(bad.code, 1);
  assert.match(bad.stdout, /failed +- +frontmatter-mismatch: /);
  const missing = await both([servers.plain.url, "--skill", "skill://nope/SKILL.md", "--json"]);
  assert.equal(missing.code, 1);
  assert.equal(lines(missing.stdout)[0].code, "server-error");
});

test("usage and connection errors exit 2", async () => {
  for (const args of [[], ["ftp://x/"], ["http://127.0.0.1:1/mcp", "--era", "modern"], ["http://127.0.0.1:1/mcp", "--header", "Mcp-Method: x"], ["http://127.0.0.1:1/mcp", "--timeout", "0"], ["http://a/", "http://b/"]]) {
    const r = await both(args, { stderr: false });
    assert.equal(r.code, 2, args.join(" "));
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /^error: /);
  }
  for (const r of [await native(["http://127.0.0.1:1/mcp"]), await npm(["http://127.0.0.1:1/mcp"])]) {
    assert.equal(r.code, 2);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /^error: the server could not be reached: .* \[connection-failed\]\n$/);
  }
});
