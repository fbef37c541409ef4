// OpenSSF Model Signing on real workerd, judged by the tools users run: a Worker project made by
// the npm command (`pkg/bin/skills-edge.mjs worker --oms-sign`, `--inline-max 0`, with a P-256
// key from `skills-edge keygen --oms`), one `wrangler dev` start.
// * The npm `skills` installer (the pinned 1.7.4) installs every mirrored skill from the
//   Worker; `model_signing verify key` (PyPI model-signing, target/py) accepts each installed
//   folder with the publisher's oms.pub, and refuses one after a byte of a file changes, after a
//   file is added, and under another key.
// * `skills-edge verify --trust oms.pub` (native and npm, the same output) exits 0 over MCP and
//   over the mirror, and 1 under another key.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { ROOT, startWorker } from "./lib/worker.mjs";
import { tempDir } from "../lib/processes.mjs";
import { installAll } from "../judges/installer.mjs";

const run = promisify(execFile);
const NATIVE = process.env.SKILLS_EDGE_BIN ?? join(process.env.CARGO_TARGET_DIR ?? join(ROOT, "target"), "debug", "skills-edge");
const NPM_BIN = join(ROOT, "pkg", "bin", "skills-edge.mjs");
const MODEL_SIGNING = join(ROOT, "target", "py", "bin", "model_signing");

async function exec(cmd, args, options = {}) {
  try {
    const { stdout, stderr } = await run(cmd, args, { cwd: ROOT, maxBuffer: 64 << 20, timeout: 180_000, ...options });
    return { code: 0, stdout, stderr };
  } catch (e) {
    if (typeof e.code !== "number") throw e;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** `model_signing verify key DIR --signature DIR/skill.oms.sig --public_key PUB`. */
const modelSigningVerify = (dir, pub) =>
  exec(MODEL_SIGNING, ["verify", "key", dir, "--signature", join(dir, "skill.oms.sig"), "--public_key", pub]);

let scratch;
let keys;
let other;
let worker;
before(async () => {
  scratch = tempDir("oms-e2e");
  keys = join(scratch, "keys");
  other = join(scratch, "other");
  for (const dir of [keys, other]) {
    const made = await exec(NATIVE, ["keygen", "--oms", "--out", dir]);
    assert.equal(made.code, 0, made.stderr);
  }
  const project = join(scratch, "project");
  const built = await exec(process.execPath, [NPM_BIN, "worker", join(ROOT, "skills"), "--out", project, "--inline-max", "0", "--oms-sign", join(keys, "oms.key")]);
  assert.equal(built.code, 0, built.stderr);
  assert.match(built.stderr, /OMS-signed: \d+ skills/);
  worker = await startWorker({ config: relative(ROOT, join(project, "wrangler.toml")) });
});
after(async () => {
  await worker?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test("skills add installs every mirrored skill, and model_signing verify key accepts each folder and refuses tampering and another key", async () => {
  const installed = await installAll(`http://localhost:${worker.port}`, scratch);
  const names = readdirSync(installed).sort();
  assert.ok(names.length >= 5, `the skills were installed: ${names}`);
  const pub = join(keys, "oms.pub");
  for (const name of names) {
    const dir = join(installed, name);
    const ok = await modelSigningVerify(dir, pub);
    assert.equal(ok.code, 0, `${name}: ${ok.stdout}${ok.stderr}`);
    assert.match(ok.stdout + ok.stderr, /Verification succeeded/);
  }
  // One folder (a skill with a nested skill), tampered with three ways.
  const dir = join(installed, "release-notes");
  const wrong = await modelSigningVerify(dir, join(other, "oms.pub"));
  assert.notEqual(wrong.code, 0, "verified under another key");
  assert.match(wrong.stdout + wrong.stderr, /Key mismatch/);
  const target = join(dir, "SKILL.md");
  const original = readFileSync(target);
  const changed = Buffer.from(original);
  changed[10] ^= 1;
  writeFileSync(target, changed);
  const byte = await modelSigningVerify(dir, pub);
  assert.notEqual(byte.code, 0, "a changed byte verified");
  assert.match(byte.stdout + byte.stderr, /Hash mismatch for 'SKILL\.md'/);
  writeFileSync(target, original);
  assert.equal((await modelSigningVerify(dir, pub)).code, 0, "restored");
  writeFileSync(join(dir, "added.md"), "# not signed\n");
  const added = await modelSigningVerify(dir, pub);
  assert.notEqual(added.code, 0, "an added file verified");
  assert.match(added.stdout + added.stderr, /added\.md/);
});

test("skills-edge verify --trust oms.pub accepts the Worker's skills over MCP and the mirror, and refuses another key (native and npm)", async () => {
  const mcp = `http://127.0.0.1:${worker.port}/mcp`;
  for (const target of [[mcp], ["--well-known", `http://127.0.0.1:${worker.port}`]]) {
    for (const [pub, code] of [[join(keys, "oms.pub"), 0], [join(other, "oms.pub"), 1]]) {
      const args = ["verify", ...target, "--trust", pub, "--json"];
      const a = await exec(NATIVE, args);
      const b = await exec(process.execPath, [NPM_BIN, ...args]);
      assert.deepEqual({ code: b.code, stdout: b.stdout, stderr: b.stderr }, { code: a.code, stdout: a.stdout, stderr: a.stderr });
      assert.equal(a.code, code, a.stdout + a.stderr);
      const lines = a.stdout.trim().split("\n").map((l) => JSON.parse(l));
      assert.ok(lines.length >= 5);
      for (const l of lines) assert.equal(l.status, code === 0 ? "verified" : "failed", JSON.stringify(l));
    }
  }
});
