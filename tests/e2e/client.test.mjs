// The host side against the Worker on real workerd (wrangler dev, a free loopback port):
// SkillsClient (the npm package's, pkg/) on both eras, walking every page and verifying every
// file; `skills-edge verify` native and npm with identical output, equal to
// SkillsClient.verify(); and the inspector page in headless Chromium (keyboard only, no
// crypto.subtle), from another origin the Worker allows (so CORS is exercised) and, with
// INSPECTOR=on, served by the Worker itself at /inspector/. Screenshots go to
// target/screenshots/. Needs the Worker built (30-worker.sh) and the npm package built
// (build-pkg.sh; 20-npm.sh).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { SkillsClient } from "skills-edge/client";
import { ROOT, startWorker } from "./lib/worker.mjs";
import { HOST } from "../js/browser/chromium.mjs";
import { openBrowser } from "../js/browser/webdriver.mjs";
import { SHOTS, expectedOf, inspect, servePackage } from "../js/browser/inspector-lib.mjs";

const run = promisify(execFile);
const NATIVE = process.env.SKILLS_EDGE_BIN ?? join(process.env.CARGO_TARGET_DIR ?? join(ROOT, "target"), "debug", "skills-edge");
const NPM_BIN = join(ROOT, "pkg", "bin", "skills-edge.mjs");
const digestOf = (bytes) => "sha256:" + createHash("sha256").update(bytes).digest("hex");

let site;
let worker;
let browser;

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  site = await servePackage();
  worker = await startWorker({
    vars: { PAGE_SIZE: "3", INSPECTOR: "on", ALLOWED_ORIGINS: `http://${HOST}:${site.port}` },
  });
});

after(async () => {
  await browser?.quit();
  await worker?.stop();
  await site?.close();
});

for (const era of ["2026-07-28", "2025-11-25"]) {
  test(`SkillsClient, ${era}: every page, every file, verified`, async () => {
    const c = await SkillsClient.connect(worker.url, { era });
    assert.equal(c.server.protocolVersion, era);
    const listing = await c.list();
    assert.equal(listing.pages, 3);
    assert.equal(listing.skills.length, 7);
    let files = 0;
    const roots = listing.skills.map((s) => s.uri.slice(0, -"/SKILL.md".length));
    for (const s of listing.skills) {
      // A skill inside another one needs its own approval before it is loaded: given here.
      if (roots.some((r) => s.uri.startsWith(`${r}/`) && s.uri !== `${r}/SKILL.md`)) c.approve(s.uri);
      await c.load(s);
      for (const r of s.entry.resources) {
        if (r.uri === s.uri) continue;
        const f = await c.read(s, r.uri);
        assert.equal(digestOf(f.bytes), r.digest);
        files++;
      }
    }
    assert.equal(files, 14);
    const report = await c.verify();
    assert.equal(report.exitCode, 0, report.table);
    c.close();
  });
}

async function exec(file, args) {
  try {
    const { stdout, stderr } = await run(file, args, { timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    if (typeof e.code !== "number") throw e;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

test("skills-edge verify, native and npm: the same output, equal to SkillsClient.verify()", async () => {
  for (const era of ["auto", "2026-07-28", "2025-11-25"]) {
    for (const json of [false, true]) {
      const args = ["verify", worker.url, "--era", era, ...(json ? ["--json"] : [])];
      const [n, j] = await Promise.all([exec(NATIVE, args), exec(process.execPath, [NPM_BIN, ...args])]);
      assert.equal(n.code, 0, n.stderr);
      assert.equal(j.code, 0, j.stderr);
      assert.equal(j.stdout, n.stdout, args.join(" "));
      assert.equal(j.stderr, n.stderr, args.join(" "));
      if (json && era === "auto") {
        const { report } = await expectedOf(worker.url);
        assert.deepEqual(report.skills, n.stdout.trimEnd().split("\n").map((l) => JSON.parse(l)));
      }
    }
  }
});

test("the inspector page from another origin: CORS through the Worker's allow-list", { timeout: 180_000 }, async () => {
  browser = await openBrowser();
  const page = await inspect(browser, `http://${HOST}:${site.port}/inspector/`, `${worker.origin}/mcp`);
  assert.equal(page.subtle, "undefined");
  assert.match(page.status, /^Done: all 7 skills verified\.$/, page.text.slice(0, 2000));
  const expected = await expectedOf(`${worker.origin}/mcp`);
  assert.deepEqual(page.skills, expected.skills);
  assert.deepEqual(page.files.map(({ uri, status }) => ({ uri, status })), expected.files.map(({ uri, status }) => ({ uri, status })));
  await browser.screenshot(join(SHOTS, "inspector-worker.png"));
  const preflights = (await import("node:fs")).readFileSync(worker.log, "utf8").split("\n").filter((l) => l.includes("OPTIONS /mcp"));
  assert.ok(preflights.length > 0, "the page's requests were preflighted");
});

test("INSPECTOR=on: the Worker serves the page at /inspector/", { timeout: 180_000 }, async () => {
  browser ??= await openBrowser();
  const page = await inspect(browser, `${worker.origin}/inspector/`, `${worker.origin}/mcp`);
  assert.match(page.status, /^Done: all 7 skills verified\.$/);
  await browser.screenshot(join(SHOTS, "inspector-served-by-worker.png"));
  // Every file of the page, with its type, and nothing else under the prefix.
  const { readFileSync } = await import("node:fs");
  // The one list of the page's files, as the npm package exports it (the Worker's build reads it too).
  const { inspectorFiles } = await import("skills-edge");
  const files = inspectorFiles();
  assert.ok(files.some(([f]) => f === "index.html") && files.some(([f]) => f === "web/skills_edge_bg.wasm"));
  for (const [file, type] of [["", "text/html; charset=utf-8"], ...files]) {
    const res = await fetch(`${worker.origin}/inspector/${file}`);
    assert.equal(res.status, 200, file);
    assert.equal(res.headers.get("content-type"), type, file);
    assert.equal(res.headers.get("x-content-type-options"), "nosniff");
    const body = Buffer.from(await res.arrayBuffer());
    if (file.startsWith("web/")) assert.ok(body.equals(readFileSync(join(ROOT, "pkg", file))), file);
  }
  for (const path of ["/inspector/../wrangler.toml", "/inspector/nope.js", "/inspector/lib/", "/catalog.pack"]) {
    const res = await fetch(`${worker.origin}${path}`);
    assert.equal(res.status, 404, path);
    await res.arrayBuffer();
  }
  const redirect = await fetch(`${worker.origin}/inspector`, { redirect: "manual" });
  assert.equal(redirect.status, 308);
  assert.equal(redirect.headers.get("location"), "/inspector/");
});

test("INSPECTOR unset: no page", async () => {
  const off = await startWorker({});
  try {
    const res = await fetch(`${off.origin}/inspector/`);
    assert.equal(res.status, 404);
    await res.arrayBuffer();
  } finally {
    await off.stop();
  }
});
