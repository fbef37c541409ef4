// OpenSSF Model Signing from the npm command: `--oms-sign` (or SKILLS_OMS_KEY) for pack, check
// and worker, against the native `skills-edge` with the same P-256 key (`keygen --oms`): the
// same pack bytes (ECDSA here is deterministic, RFC 6979), the same assets, the same entries
// and messages, the same `oms-signature` error for a key that cannot sign; compileCatalog's
// `omsKey` gives the key's hint, and the secret is in no output.
//
// The native binary is $SKILLS_EDGE_BIN, or target/debug/skills-edge under $SKILLS_EDGE_REPO.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { SkillsServer, compileCatalog } from "skills-edge";
import { REPO, listAll } from "./common.mjs";

const NATIVE = resolve(REPO || ".", process.env.SKILLS_EDGE_BIN ?? "target/debug/skills-edge");
const VARS = ["SKILLS_SIGNING_KEY", "SKILLS_CATALOG_ID", "SKILLS_STRICT", "SKILLS_ON_INVALID", "SKILLS_OMS_KEY"];
let tmp;

before(() => {
  assert.ok(REPO, "SKILLS_EDGE_REPO must name the repository root");
  assert.ok(existsSync(NATIVE), `${NATIVE} is missing: run \`cargo build -p skills-edge-cli\``);
  tmp = mkdtempSync(join(tmpdir(), "skills-edge-oms-sign-"));
});
after(() => rmSync(tmp, { recursive: true, force: true }));

function run(cmd, args, extra = {}) {
  const env = { ...process.env, ...extra };
  for (const v of VARS) if (!(v in extra)) delete env[v];
  const r = spawnSync(cmd, args, { encoding: "buffer", timeout: 60_000, env });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, out: r.stdout.toString("utf8"), err: r.stderr.toString("utf8") };
}
const npx = (args, env) => run("npx", ["--no-install", "skills-edge", ...args], env);
const native = (args, env) => run(NATIVE, args, env);

let n = 0;
const fresh = (tag) => join(tmp, `${tag}-${n++}`);
const SKILLS = () => join(REPO, "skills");

/** An OMS key made by the native command: its files, hint and the secret PEM's body. */
function omsKey() {
  const dir = fresh("oms-key");
  const r = native(["keygen", "--oms", "--out", dir]);
  assert.equal(r.status, 0, r.err);
  const secret = readFileSync(join(dir, "oms.key"), "utf8");
  const body = secret.split("\n").filter((l) => l && !l.startsWith("-----")).join("");
  return { key: join(dir, "oms.key"), pub: join(dir, "oms.pub"), hint: r.out.trim(), body };
}

function assertNoSecret(k, buffers) {
  for (const [i, b] of buffers.entries()) {
    const text = Buffer.from(b).toString("latin1");
    assert.ok(!text.includes(k.body.slice(0, 40)) && !text.includes(k.body.slice(-40)), `output ${i} holds the secret`);
  }
}

test("npx skills-edge pack and check --oms-sign write the native command's pack, entries and messages", () => {
  const k = omsKey();
  const outputs = [];
  for (const [extra, env] of [
    [["--oms-sign", k.key], {}],
    [[], { SKILLS_OMS_KEY: k.key }],
  ]) {
    const a = fresh("native.pack");
    const b = fresh("npx.pack");
    const viaNative = native(["pack", SKILLS(), "-o", a, ...extra], env);
    const viaNpx = npx(["pack", SKILLS(), "-o", b, ...extra], env);
    assert.equal(viaNative.status, 0, viaNative.err);
    assert.equal(viaNpx.status, 0, viaNpx.err);
    assert.equal(viaNpx.err.replaceAll(b, a), viaNative.err, "the same messages");
    assert.match(viaNpx.err, new RegExp(`OMS-signed: \\d+ skills \\(skill\\.oms\\.sig in each\\), key hint ${k.hint}\n`));
    const pack = readFileSync(b);
    assert.ok(pack.equals(readFileSync(a)), "byte-identical OMS-signed packs");
    const entries = listAll(new SkillsServer({ pack }));
    for (const e of entries) {
      const root = e.uri.slice(0, -"SKILL.md".length);
      assert.ok(e.resources.some((r) => r.uri === `${root}skill.oms.sig`), `${e.uri} lists its skill.oms.sig`);
    }
    outputs.push(pack, viaNpx.stdout, viaNpx.stderr);
  }
  // With the DSSE key too: the catalog's envelopes cover each skill.oms.sig; the same bytes.
  const dsse = fresh("dsse");
  assert.equal(native(["keygen", "--out", dsse]).status, 0);
  const both = ["--sign", join(dsse, "signing.key"), "--oms-sign", k.key];
  const a = native(["check", SKILLS(), ...both]);
  const b = npx(["check", SKILLS(), ...both]);
  assert.equal(b.status, 0, b.err);
  assert.equal(b.out, a.out);
  assert.equal(b.err, a.err);
  outputs.push(b.stdout, b.stderr);
  // compileCatalog's omsKey: the hint, never the key.
  const compiled = compileCatalog([{ path: "a/SKILL.md", bytes: "---\nname: a\ndescription: A.\n---\n" }], {
    omsKey: { file: k.key, bytes: readFileSync(k.key) },
  });
  assert.equal(compiled.omsHint, k.hint);
  assert.deepEqual(compiled.skills[0].resources.map((r) => r.uri), ["skill://a/SKILL.md", "skill://a/skill.oms.sig"]);
  outputs.push(compiled.pack, Buffer.from(JSON.stringify(compiled)));
  assertNoSecret(k, outputs);
});

test("npx skills-edge worker --oms-sign writes the native OMS-signed pack and assets", () => {
  const k = omsKey();
  const assets = fresh("native-assets");
  const pack = fresh("native.pack");
  const out = fresh("worker");
  const a = native(["pack", SKILLS(), "-o", pack, "--assets", assets, "--inline-max", "0", "--oms-sign", k.key]);
  const b = npx(["worker", SKILLS(), "--out", out, "--inline-max", "0", "--oms-sign", k.key]);
  assert.equal(a.status, 0, a.err);
  assert.equal(b.status, 0, b.err);
  assert.match(b.err, new RegExp(`OMS-signed: \\d+ skills \\(skill\\.oms\\.sig in each\\), key hint ${k.hint}\n`));
  const build = join(out, "worker", "build");
  assert.ok(readFileSync(join(build, "catalog.pack")).equals(readFileSync(pack)), "byte-identical packs");
  const names = readdirSync(assets).sort();
  assert.deepEqual(readdirSync(join(build, "assets")).filter((f) => f !== "inspector").sort(), names);
  for (const f of names) assert.ok(readFileSync(join(build, "assets", f)).equals(readFileSync(join(assets, f))), f);
  const files = readdirSync(out, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  assertNoSecret(k, [...files.map((e) => readFileSync(join(e.parentPath ?? e.path, e.name))), b.stdout, b.stderr]);
});

test("a key that cannot OMS-sign stops check, pack and worker with the native command's error", () => {
  const k = omsKey();
  for (const file of [k.pub, fresh("missing.key")]) {
    for (const cmd of [["check", SKILLS()], ["pack", SKILLS(), "-o", fresh("x.pack")]]) {
      const a = native([...cmd, "--oms-sign", file]);
      const b = npx([...cmd, "--oms-sign", file]);
      assert.equal(a.status, 1, a.err);
      assert.equal(b.status, 1, b.err);
      assert.equal(b.err, a.err);
      assert.ok(b.err.startsWith(`error[oms-signature]: ${file}: `), b.err);
    }
    const w = npx(["worker", SKILLS(), "--out", fresh("worker"), "--oms-sign", file]);
    assert.equal(w.status, 1);
    assert.ok(w.err.startsWith(`error[oms-signature]: ${file}: `), w.err);
  }
});
