// OpenSSF Model Signing on the npm package's host side: a skill folder signed by
// `model_signing sign key` itself (PyPI model-signing, the repository's target/py venv), served
// over MCP (a pack of the folder in the package's SkillsServer) and as a well-known archive.
// `npx skills-edge verify --trust oms.pub` prints the same bytes and exits the same as the
// native command (SKILLS_EDGE_BIN): the publisher's key verifies, another key is
// `signer-untrusted`, a file added after signing is `signature-invalid` naming the file.
// SkillsClient with the PEM key in `trust` gives the same verdicts from verify(),
// verifyWellKnown() and load(), and read() checks it again when a refresh loads the skill on a
// new entry (the publisher's v1, then a v2 signed by another key or not covered); SkillHost, which checks DSSE signers only, refuses a PEM key
// rather than ignore it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { createHash, generateKeyPairSync } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { SkillHost, SkillsServer } from "skills-edge";
import { SkillsClient } from "skills-edge/client";
import { SkillHost as VerifierHost } from "skills-edge/verifier";
import { REPO } from "./common.mjs";
import { startHttpServer } from "./http-server.mjs";

const run = promisify(execFile);
const NATIVE = process.env.SKILLS_EDGE_BIN;
const NPM_BIN = join(process.env.SKILLS_EDGE_PKG ?? "", "bin", "skills-edge.mjs");
const MODEL_SIGNING = join(REPO, "target", "py", "bin", "model_signing");
const SCHEMA = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";
const SKILL = "skill://code-review/SKILL.md";
const ADDED = "references/added.md";

/** A P-256 pair as PEM files under `dir`: the secret (PKCS#8) and the public key (SPKI). */
function p256(dir, name) {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const pub = publicKey.export({ type: "spki", format: "pem" });
  writeFileSync(join(dir, `${name}.key`), privateKey.export({ type: "pkcs8", format: "pem" }));
  writeFileSync(join(dir, `${name}.pub`), pub);
  return { pem: pub, pub: join(dir, `${name}.pub`), key: join(dir, `${name}.key`), hint: createHash("sha256").update(pub).digest("hex") };
}

/** One ustar header of a regular file (mode 0644, mtime 0). */
function header(name, size) {
  const h = Buffer.alloc(512);
  h.write(name, 0, "ascii");
  h.write("0000644\0", 100, "ascii");
  h.write("0000000\0", 108, "ascii");
  h.write("0000000\0", 116, "ascii");
  h.write(size.toString(8).padStart(11, "0") + "\0", 124, "ascii");
  h.write("00000000000\0", 136, "ascii");
  h.write("0", 156, "ascii");
  h.write("ustar\0", 257, "ascii");
  h.write("00", 263, "ascii");
  h.write("        ", 148, "ascii");
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, "0") + "\0 ", 148, "ascii");
  return h;
}

/** The gzipped tar of `files` ([path, bytes]). */
function tarGz(files) {
  const parts = [];
  for (const [name, bytes] of files) parts.push(header(name, bytes.length), bytes, Buffer.alloc((512 - (bytes.length % 512)) % 512));
  parts.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(parts));
}

let tmp;
let publisher;
let other;
/** name -> { mcp: http server of the pack, origin: well-known origin } for "signed" and "added". */
const sources = {};
const webs = [];
/** name -> SkillsServer for "signed", "resigned" and "stale" (served in turn by one server). */
const versions = {};

/** A node:http server publishing `folder`'s code-review skill as a well-known archive. */
async function wellKnown(folder) {
  const paths = ["SKILL.md", "references/checklist.md", "skill.oms.sig"];
  if (folder.endsWith("added")) paths.push(ADDED);
  const archive = tarGz(paths.map((p) => [p, readFileSync(join(folder, "code-review", p))]));
  const md = readFileSync(join(folder, "code-review", "SKILL.md"), "utf8");
  const index = {
    $schema: SCHEMA,
    skills: [{
      name: "code-review",
      type: "archive",
      description: /^description: (.*)$/m.exec(md)[1].trim(),
      url: "code-review.tar.gz",
      digest: `sha256:${createHash("sha256").update(archive).digest("hex")}`,
    }],
  };
  const web = createServer((req, res) => {
    if (req.url === "/.well-known/agent-skills/index.json") return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(index));
    if (req.url === "/.well-known/agent-skills/code-review.tar.gz") return res.writeHead(200, { "content-type": "application/gzip" }).end(archive);
    res.writeHead(404).end();
  });
  await new Promise((r) => web.listen(0, "127.0.0.1", r));
  webs.push(web);
  return `http://127.0.0.1:${web.address().port}`;
}

before(async () => {
  assert.ok(NATIVE && process.env.SKILLS_EDGE_PKG, "SKILLS_EDGE_BIN and SKILLS_EDGE_PKG are set (scripts/test.d/20-npm.sh)");
  tmp = mkdtempSync(join(tmpdir(), "skills-edge-oms-"));
  publisher = p256(tmp, "publisher");
  other = p256(tmp, "other");
  // The folder model_signing signs: the repository's code-review skill.
  const signed = join(tmp, "signed");
  mkdirSync(join(signed, "code-review"), { recursive: true });
  cpSync(join(REPO, "skills", "code-review"), join(signed, "code-review"), { recursive: true });
  const folder = join(signed, "code-review");
  execFileSync(MODEL_SIGNING, ["sign", "key", folder, "--private_key", publisher.key, "--signature", join(folder, "skill.oms.sig")], { stdio: "pipe" });
  // The same folder with a file added after signing.
  const added = join(tmp, "added");
  cpSync(signed, added, { recursive: true });
  writeFileSync(join(added, "code-review", ADDED), "# Added after signing\n");
  for (const [name, dir] of [["signed", signed], ["added", added]]) {
    const pack = join(tmp, `${name}.pack`);
    execFileSync(NATIVE, ["pack", dir, "-o", pack], { stdio: "pipe" });
    const mcp = await startHttpServer(new SkillsServer({ pack: readFileSync(pack) }));
    sources[name] = { mcp, origin: await wellKnown(dir) };
  }
  // Second versions of the signed folder, for a refresh during read: the checklist changed and
  // signed again by another key ("resigned"), or changed under the first version's bundle,
  // which no longer covers it ("stale").
  for (const name of ["resigned", "stale"]) {
    const dir = join(tmp, name);
    cpSync(signed, dir, { recursive: true });
    const folder = join(dir, "code-review");
    writeFileSync(join(folder, "references", "checklist.md"), readFileSync(join(folder, "references", "checklist.md"), "utf8") + "\n- changed in version 2\n");
    if (name === "resigned") execFileSync(MODEL_SIGNING, ["sign", "key", folder, "--private_key", other.key, "--signature", join(folder, "skill.oms.sig")], { stdio: "pipe" });
    const pack = join(tmp, `${name}.pack`);
    execFileSync(NATIVE, ["pack", dir, "-o", pack], { stdio: "pipe" });
    versions[name] = new SkillsServer({ pack: readFileSync(pack) });
  }
  versions.signed = new SkillsServer({ pack: readFileSync(join(tmp, "signed.pack")) });
});

after(async () => {
  for (const s of Object.values(sources)) await s.mcp.close();
  for (const w of webs) {
    w.closeAllConnections();
    w.close();
  }
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

async function exec(file, args) {
  try {
    const { stdout, stderr } = await run(file, args, { timeout: 60_000, maxBuffer: 16 << 20 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    if (typeof e.code !== "number") throw e;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Both commands: the same stdout, stderr and exit status; returns the native one's, its JSON line of code-review read. */
async function both(args) {
  const n = await exec(NATIVE, ["verify", ...args, "--json"]);
  const j = await exec(process.execPath, [NPM_BIN, "verify", ...args, "--json"]);
  assert.equal(j.stdout, n.stdout);
  assert.equal(j.stderr, n.stderr);
  assert.equal(j.code, n.code);
  const line = n.stdout.trimEnd().split("\n").map((l) => JSON.parse(l)).find((l) => l.name === "code-review");
  assert.ok(line, n.stdout + n.stderr);
  return { ...n, line };
}

/** The failed checks of a report line: [uri, code]. */
const failures = (line) => line.checks.filter((c) => c.status === "failed").map((c) => [c.uri, c.code]);

for (const kind of ["mcp", "well-known"]) {
  const target = (name) => (kind === "mcp" ? [sources[name].mcp.url] : ["--well-known", sources[name].origin]);
  const fileUri = (path) => (kind === "mcp" ? `skill://code-review/${path}` : `${sources.added.origin}/.well-known/agent-skills/code-review.tar.gz#${path}`);

  test(`${kind}: npm verify --trust oms.pub accepts what model_signing signed, as native does`, async () => {
    const out = await both([...target("signed"), "--trust", publisher.pub]);
    assert.equal(out.code, 0, out.stdout + out.stderr);
    assert.equal(out.line.status, "verified");
    assert.deepEqual(out.line.signer, { keyId: `oms:${publisher.hint}`, catalog: "OpenSSF Model Signing", trust: "trusted" });
  });

  test(`${kind}: npm verify refuses the skill under another OMS key, as native does`, async () => {
    const out = await both([...target("signed"), "--trust", other.pub]);
    assert.equal(out.code, 1);
    assert.equal(out.line.status, "failed");
    assert.equal(out.line.code, "signer-untrusted");
  });

  test(`${kind}: npm verify names a file added after signing, as native does`, async () => {
    const out = await both([...target("added"), "--trust", publisher.pub]);
    assert.equal(out.code, 1);
    assert.deepEqual(failures(out.line), [[fileUri(ADDED), "signature-invalid"]]);
    assert.match(out.line.why, /references\/added\.md is not covered by the OMS signature/);
  });
}

test("SkillsClient with an OMS key in trust: verify() and load() accept the signed skill", async () => {
  const client = await SkillsClient.connect(sources.signed.mcp.url, { trust: [publisher.pem] });
  const report = await client.verify();
  assert.equal(report.exitCode, 0, report.table);
  assert.equal(report.skills[0].signer.keyId, `oms:${publisher.hint}`);
  const skill = await client.load(SKILL);
  assert.equal(skill.frontmatter.name, "code-review");
});

test("SkillsClient refuses under another OMS key and names a file the signature does not cover", async () => {
  const wrong = await SkillsClient.connect(sources.signed.mcp.url, { trust: [other.pem] });
  assert.equal((await wrong.verify()).exitCode, 1);
  await assert.rejects(wrong.load(SKILL), (e) => e.code === "signer-untrusted");
  // The refused skill is not left active: none of its files can be read.
  assert.equal(wrong.isActive(SKILL), false);
  await assert.rejects(wrong.read(SKILL, "references/checklist.md"), (e) => e.code === "no-acting-window");
  const added = await SkillsClient.connect(sources.added.mcp.url, { trust: [publisher.pem] });
  const report = await added.verify();
  assert.equal(report.exitCode, 1);
  assert.equal(report.skills[0].code, "signature-invalid");
  await assert.rejects(added.load(SKILL), (e) => e.code === "signature-invalid" && e.message.includes(ADDED));
});

test("SkillsClient.verifyWellKnown takes OMS keys in trust", async () => {
  const ok = await SkillsClient.verifyWellKnown(sources.signed.origin, { trust: [publisher.pem] });
  assert.equal(ok.exitCode, 0, ok.table);
  assert.equal(ok.skills[0].signer.keyId, `oms:${publisher.hint}`);
  assert.equal((await SkillsClient.verifyWellKnown(sources.signed.origin, { trust: [other.pem] })).exitCode, 1);
  const added = await SkillsClient.verifyWellKnown(sources.added.origin, { trust: [publisher.pem] });
  assert.equal(added.exitCode, 1);
  assert.equal(added.skills[0].code, "signature-invalid");
});

test("a PEM key given to SkillHost is refused, never ignored", () => {
  assert.throws(() => new SkillHost({ trust: [publisher.pem] }), (e) => e.code === "invalid-argument" && /SkillHost cannot enforce/.test(e.message) && /SkillsClient \(skills-edge\/client\)/.test(e.message) && !e.message.includes(publisher.pem));
});

for (const [v2, code, why] of [
  ["resigned", "signer-untrusted", /not trusted here/],
  ["stale", "signature-invalid", /references\/checklist\.md/],
]) {
  test(`SkillsClient.read refuses a refreshed entry whose OMS signature fails (${v2}), as load would`, async () => {
    // One server: the publisher's v1 while the skill loads, then v2 while a file is read.
    let current = versions.signed;
    const server = await startHttpServer({ handleHttp: (body, headers) => current.handleHttp(body, headers) });
    try {
      const client = await SkillsClient.connect(server.url, { trust: [publisher.pem] });
      await client.load(SKILL);
      current = versions[v2];
      // The checklist no longer matches the held entry: the entry is refreshed and the skill
      // loaded again on v2, whose skill.oms.sig fails.
      await assert.rejects(client.read(SKILL, "references/checklist.md"), (e) => e.code === code && why.test(e.message));
      assert.equal(client.isActive(SKILL), false);
      await assert.rejects(client.read(SKILL, "references/checklist.md"), (e) => e.code === "no-acting-window");
      // load gives the same verdict on v2.
      const fresh = await SkillsClient.connect(server.url, { trust: [publisher.pem] });
      await assert.rejects(fresh.load(SKILL), (e) => e.code === code && why.test(e.message));
    } finally {
      await server.close();
    }
  });
}

/** One server serving `versions[current.name]` in turn; `current.name` is switched by the test. */
async function switching(current) {
  return startHttpServer({ handleHttp: (body, headers) => versions[current.name].handleHttp(body, headers) });
}

test("SkillsClient: a server that swaps to another trusted OMS key after first use is refused (signer-changed) until the change is accepted", async () => {
  const current = { name: "signed" };
  const server = await switching(current);
  try {
    const trust = [publisher.pem, other.pem];
    const first = await SkillsClient.connect(server.url, { trust, trustOnFirstUse: true });
    await first.load(SKILL);
    const pins = first.exportPins();
    const { version, omsPins } = JSON.parse(pins);
    assert.equal(version, 2);
    assert.deepEqual(omsPins.map((p) => [p.origin, p.hint]), [[new URL(server.url).origin, publisher.hint]]);
    // The server now signs with the other trusted key.
    current.name = "resigned";
    const later = await SkillsClient.connect(server.url, { trust, pins });
    await assert.rejects(later.load(SKILL), (e) => e.code === "signer-changed" && e.message.includes(publisher.hint));
    assert.equal(later.isActive(SKILL), false);
    const report = await later.verify();
    assert.equal(report.exitCode, 1);
    assert.equal(report.skills[0].code, "signer-changed");
    // Accepted: the new key pins on its next sight.
    assert.equal(later.acceptSignerChange(), true);
    await later.load(SKILL);
    assert.deepEqual(JSON.parse(later.exportPins()).omsPins.map((p) => p.hint), [other.hint]);
  } finally {
    await server.close();
  }
});

test("npm verify --pins: an OMS pin made on first use refuses another key, and verifies alone, as native does", async () => {
  const current = { name: "signed" };
  const server = await switching(current);
  const pins = join(tmp, "oms-pins.json");
  try {
    const trusted = ["--trust", publisher.pub, "--trust", other.pub];
    const first = await both([server.url, ...trusted, "--pins", pins]);
    assert.equal(first.code, 0, first.stdout + first.stderr);
    assert.deepEqual(JSON.parse(readFileSync(pins, "utf8")).omsPins.map((p) => p.hint), [publisher.hint]);
    current.name = "resigned";
    const swapped = await both([server.url, ...trusted, "--pins", pins]);
    assert.equal(swapped.code, 1);
    assert.equal(swapped.line.code, "signer-changed");
    // The pins file alone: the pinned key verifies the publisher's bundle.
    current.name = "signed";
    const alone = await both([server.url, "--pins", pins]);
    assert.equal(alone.code, 0, alone.stdout + alone.stderr);
    assert.equal(alone.line.signer.trust, "pinned");
  } finally {
    await server.close();
  }
});

test("pins holding an OMS pin: the main module's SkillHost keeps them, skills-edge/verifier refuses them rather than drop them", () => {
  const pins = JSON.stringify({ format: "skills-edge/pins", version: 2, pins: [], omsPins: [{ origin: "https://skills.example", hint: publisher.hint, key: publisher.pem }] });
  const kept = new SkillHost({ pins });
  assert.deepEqual(JSON.parse(kept.exportPins()), JSON.parse(pins));
  assert.throws(() => new VerifierHost({ pins }), (e) => e.code === "invalid-argument" && /omsPins/.test(e.message));
  assert.throws(() => new VerifierHost().importPins(pins), (e) => e.code === "invalid-argument");
  // A key that is not the one its hint names is refused by both.
  const swapped = pins.replace(publisher.hint, other.hint);
  assert.throws(() => new SkillHost({ pins: swapped }), (e) => e.code === "invalid-argument" && e.message.includes(other.hint));
});
