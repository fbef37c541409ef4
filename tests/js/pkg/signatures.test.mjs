// Signed skills in the npm package: SkillHost and SkillsClient check the signature an entry
// carries (signed here with node:crypto, common.mjs) under their signer options (`trust`,
// `trustOnFirstUse`, `pins`), name the signer, bind approvals to it and refuse tamperings;
// `skills-edge verify --trust FILE --pins FILE` gives the same output and exit status in the npm
// package's command and the native one (SKILLS_EDGE_BIN), against a signing server over
// node:http and a signed well-known source; and end to end, a pack signed by the compiler
// (`skills-edge keygen`, `skills-edge pack --sign`) served by SkillsServer.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { SkillHost, SkillsServer, approvalFingerprint } from "skills-edge";
import { SkillsClient } from "skills-edge/client";
import {
  DSSE_META_KEY, REPO, SIGNER_META_KEY, digestOf, entryFor, envelopeFor, refused, rejected, signed, signingKey, signingServer,
} from "./common.mjs";
import { startHttpServer } from "./http-server.mjs";

const U = "skill://a/SKILL.md";
const MD = "---\nname: a\ndescription: d\n---\nbody\n";
const entry = entryFor(U, { name: "a", description: "d" }, [[U, MD], ["skill://a/x.md", "x"]]);
const k1 = signingKey();
const k2 = signingKey();

function hostWith(options, origin) {
  const h = new SkillHost(options);
  h.addServer("s");
  if (origin) h.setOrigin("s", origin);
  return h;
}

test("SkillHost reports the signer under the default policy and requires nothing", () => {
  const h = hostWith();
  h.register("s", signed(entry, k1, "acme"));
  assert.deepEqual(h.signer("s", U), { keyId: k1.keyId, catalog: "acme", trust: "announced" });
  assert.deepEqual(h.skills()[0].signer, h.signer("s", U));
  // The entry read back keeps its signature, and registers again elsewhere.
  const back = h.entry("s", U);
  assert.deepEqual(back._meta[SIGNER_META_KEY], k1.publicJwk);
  const again = hostWith();
  again.register("s", back);
  assert.equal(again.signer("s", U).keyId, k1.keyId);
  // Unsigned: accepted, no signer.
  h.register("s", entry);
  assert.equal(h.signer("s", U), undefined);
  assert.equal("signer" in h.skills()[0], false);
});

test("a trust list requires a trusted signer; a secret key is refused as one", () => {
  for (const trust of [[k1.publicJwk], [JSON.stringify(k1.publicJwk)]]) {
    const h = hostWith({ trust });
    h.register("s", signed(entry, k1));
    assert.equal(h.signer("s", U).trust, "trusted");
    refused(() => h.register("s", signed(entry, k2)), "signer-untrusted", { uri: U });
    refused(() => h.register("s", entry), "signer-untrusted", { uri: U, actual: "unsigned" });
    // The refused entries left the trusted one registered.
    assert.equal(h.signer("s", U).keyId, k1.keyId);
  }
  const e = refused(() => new SkillHost({ trust: [k1.secretJwk] }), "invalid-argument");
  assert.match(e.message, /holds a secret/);
  assert.ok(!e.message.includes(k1.secretJwk.d));
  refused(() => new SkillHost({ trust: [7] }), "invalid-argument");
  refused(() => new SkillHost({ trust: [{ kty: "EC" }] }), "invalid-argument");
  refused(() => new SkillHost({ pins: "{" }), "invalid-argument");
  const wrong = refused(() => new SkillHost({ trustOnFirstUse: "yes" }), "invalid-argument");
  assert.equal(wrong.message, 'new SkillHost: options property "trustOnFirstUse" must be a boolean (true or false), got string');
  const host = refused(() => new SkillHost({ requireApproval: 1 }), "invalid-argument");
  assert.equal(host.message, 'new SkillHost: options property "requireApproval" must be a boolean (true or false), got number');
});

test("trust on first use pins the origin; a change is refused until accepted; pins persist", () => {
  const origin = "https://skills.example";
  const h = hostWith({ trustOnFirstUse: true }, origin);
  h.register("s", signed(entry, k1, "acme"));
  assert.equal(h.signer("s", U).trust, "first-use");
  for (const [other, actual] of [
    [signed(entry, k2, "acme"), `${k2.keyId} acme`],
    [signed(entry, k1, "evil"), `${k1.keyId} evil`],
    [entry, "unsigned"],
  ]) {
    refused(() => h.register("s", other), "signer-changed", { uri: U, expected: `${k1.keyId} acme`, actual });
  }
  const pins = h.exportPins();
  const saved = JSON.parse(pins);
  assert.deepEqual(saved.pins[0], { origin, keyId: k1.keyId, catalog: "acme", key: { crv: "Ed25519", kid: k1.keyId, kty: "OKP", x: k1.publicJwk.x } });
  // Another host given the pins (as text or object) holds the origin to them.
  for (const given of [pins, saved]) {
    const later = hostWith({ pins: given }, origin);
    refused(() => later.register("s", signed(entry, k2, "acme")), "signer-changed");
    later.register("s", signed(entry, k1, "acme"));
    assert.equal(later.signer("s", U).trust, "pinned");
  }
  const imported = hostWith({}, origin);
  assert.equal(imported.importPins(pins), 1);
  refused(() => imported.importPins("[]"), "invalid-argument");
  // Accepted, the next signature pins again.
  assert.equal(h.acceptSignerChange(origin), true);
  h.register("s", signed(entry, k2, "acme"));
  assert.equal(h.signer("s", U).trust, "first-use");
  assert.equal(JSON.parse(h.exportPins()).pins[0].keyId, k2.keyId);
});

test("every tampering of a signed entry is signature-invalid", () => {
  const good = signed(entry, k1);
  const env = good._meta[DSSE_META_KEY];
  const flip = (b64) => Buffer.from(b64, "base64").map((b, i) => (i === 5 ? b ^ 1 : b)).toString("base64");
  const withEnv = (e) => ({ ...good, _meta: { ...good._meta, [DSSE_META_KEY]: e } });
  const other = entryFor("skill://b/SKILL.md", { name: "b", description: "d" }, [["skill://b/SKILL.md", "b"]]);
  const cases = {
    "an entry digest": { ...good, resources: [good.resources[0], { ...good.resources[1], digest: digestOf("y") }] },
    "a digest in the statement": withEnv({
      ...env,
      payload: Buffer.from(Buffer.from(env.payload, "base64").toString().replace(good.resources[1].digest.slice(7), digestOf("y").slice(7))).toString("base64"),
    }),
    "the payload type": withEnv({ ...env, payloadType: "application/json" }),
    "the signature": withEnv({ ...env, signatures: [{ ...env.signatures[0], sig: flip(env.signatures[0].sig) }] }),
    "the key id": withEnv({ ...env, signatures: [{ ...env.signatures[0], keyid: k2.keyId }] }),
    "another skill's envelope": withEnv(envelopeFor(other, k1, "acme")),
    "the signer swapped": { ...good, _meta: { ...good._meta, [SIGNER_META_KEY]: k2.publicJwk } },
  };
  for (const [why, tampered] of Object.entries(cases)) {
    for (const options of [{}, { trustOnFirstUse: true }]) {
      const h = hostWith(options);
      const e = refused(() => h.register("s", tampered), "signature-invalid", { uri: U });
      if (why === "an entry digest") assert.equal(e.field, "subject[skill://a/x.md]");
      assert.ok(e.message.length > 0, why);
      assert.equal(h.entry("s", U), undefined, why);
    }
  }
  // The listing reports each by position, and registers the others.
  const out = hostWith().registerListing("s", [cases["the signature"], signed(other, k1)]);
  assert.deepEqual(out.rejected.map((r) => [r.index, r.error.code]), [[0, "signature-invalid"]]);
  assert.equal(out.registered[0].uri, "skill://b/SKILL.md");
});

test("an approval is bound to the signer it was given under", () => {
  const h = hostWith({ requireApproval: true });
  h.register("s", signed(entry, k1));
  const f = h.approve("s", U);
  assert.equal(h.isApproved("s", U), true);
  for (const other of [signed(entry, k2), signed(entry, k1, "other"), entry]) {
    const h2 = hostWith({ requireApproval: true });
    h2.importApprovals(h.exportApprovals());
    h2.register("s", signed(entry, k1));
    assert.equal(h2.isApproved("s", U), true);
    assert.equal(h2.register("s", other).approvalRevoked, true);
    refused(() => h2.planLoad("s", U), "not-approved", { uri: U });
  }
  // The unsigned skill's fingerprint is the one it always had, and not the signed one's.
  const unsigned = hostWith();
  unsigned.register("s", entry);
  assert.equal(unsigned.approve("s", U), approvalFingerprint("s", entry));
  assert.notEqual(f, approvalFingerprint("s", entry));
});

// --- SkillsClient and the command against a signing server over node:http -----------------

const state = { key: k1, catalog: "acme" };
let web;
let dir;
before(async () => {
  web = await startHttpServer(signingServer(new SkillsServer({ pageSize: 3 }), state));
  dir = mkdtempSync(join(tmpdir(), "skills-edge-signatures-"));
});
after(async () => {
  await web?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("SkillsClient names each signer and follows its policy", async () => {
  state.key = k1;
  const trusted = await SkillsClient.connect(web.url, { trust: [k1.publicJwk] });
  assert.equal(trusted.origin, new URL(web.url).origin);
  const listing = await trusted.list();
  assert.equal(listing.rejected.length, 0);
  assert.ok(listing.skills.every((s) => s.signer.trust === "trusted" && s.signer.keyId === k1.keyId), JSON.stringify(listing.skills[0]));
  const report = await trusted.verify();
  assert.equal(report.exitCode, 0, report.table);
  assert.ok(report.skills.every((s) => s.signer.trust === "trusted"));
  assert.match(report.table.split("\n")[0], /^SKILL +FILES +BYTES +STATUS +SIGNER +WHY$/);
  assert.match(report.summary, /every file verified, 7 signed$/);
  assert.deepEqual(trusted.signer(listing.skills[0].uri), listing.skills[0].signer);
  trusted.close();

  const untrusted = await SkillsClient.connect(web.url, { trust: [k2.publicJwk] });
  const refusedListing = await untrusted.list();
  assert.equal(refusedListing.skills.length, 0);
  assert.ok(refusedListing.rejected.every((r) => r.error.code === "signer-untrusted"));
  const failed = await untrusted.verify();
  assert.equal(failed.exitCode, 1);
  assert.ok(failed.skills.every((s) => s.status === "failed" && s.code === "signer-untrusted"));
  untrusted.close();

  // Trust on first use, persisted and given to a later client.
  const first = await SkillsClient.connect(web.url, { trustOnFirstUse: true });
  const firstListing = await first.list();
  assert.equal(firstListing.skills[0].signer.trust, "first-use");
  assert.ok(firstListing.skills.slice(1).every((s) => s.signer.trust === "pinned"));
  const pins = first.exportPins();
  first.close();
  state.key = k2;
  try {
    const later = await SkillsClient.connect(web.url, { pins });
    const changed = await later.list();
    assert.equal(changed.skills.length, 0);
    assert.ok(changed.rejected.every((r) => r.error.code === "signer-changed"));
    await rejected(() => later.get("skill://code-review/SKILL.md"), "signer-changed", { uri: "skill://code-review/SKILL.md" });
    assert.equal(later.acceptSignerChange(), true);
    const relisted = await later.list();
    assert.equal(relisted.rejected.length, 0);
    assert.equal(JSON.parse(later.exportPins()).pins[0].keyId, k2.keyId);
    later.close();
  } finally {
    state.key = k1;
  }
  await rejected(() => SkillsClient.connect(web.url, { trust: [k1.secretJwk] }), "invalid-argument");
});

const run = promisify(execFile);
const NATIVE = process.env.SKILLS_EDGE_BIN;
const NPM_BIN = join(process.env.SKILLS_EDGE_PKG ?? "", "bin", "skills-edge.mjs");

async function exec(file, args) {
  try {
    const { stdout, stderr } = await run(file, args, { timeout: 120_000, maxBuffer: 16 << 20 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    if (typeof e.code !== "number") throw e;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Both commands, one after the other (a pins file is written by each): the same output and status. */
async function both(args, reset = () => {}) {
  reset();
  const n = await exec(NATIVE, ["verify", ...args]);
  const nativePins = existsSync(join(dir, "pins.json")) ? readFileSync(join(dir, "pins.json"), "utf8") : undefined;
  reset();
  const j = await exec(process.execPath, [NPM_BIN, "verify", ...args]);
  const npmPins = existsSync(join(dir, "pins.json")) ? readFileSync(join(dir, "pins.json"), "utf8") : undefined;
  assert.equal(j.stdout, n.stdout, `stdout of ${args.join(" ")}`);
  assert.equal(j.stderr, n.stderr, `stderr of ${args.join(" ")}`);
  assert.equal(j.code, n.code, `exit status of ${args.join(" ")}`);
  assert.equal(npmPins, nativePins, "the pins written");
  return { ...n, pins: nativePins };
}

test("skills-edge verify --trust and --pins: both commands alike", async () => {
  assert.ok(NATIVE, "SKILLS_EDGE_BIN is set");
  state.key = k1;
  const pub = join(dir, "k1.pub");
  const other = join(dir, "k2.pub");
  const secret = join(dir, "k1.key");
  writeFileSync(pub, JSON.stringify(k1.publicJwk));
  writeFileSync(other, JSON.stringify(k2.publicJwk));
  writeFileSync(secret, JSON.stringify(k1.secretJwk));
  const ok = await both([web.url, "--trust", pub]);
  assert.equal(ok.code, 0, ok.stdout + ok.stderr);
  assert.ok(ok.stdout.split("\n").slice(1, -1).every((l) => / verified {2}acme \(key .{8}…, trusted\)$/.test(l)), ok.stdout);
  const json = await both([web.url, "--json", "--trust", other, "--trust", pub]);
  assert.equal(json.code, 0);
  const bad = await both([web.url, "--json", "--trust", other]);
  assert.equal(bad.code, 1);
  const rows = bad.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
  assert.ok(rows.every((r) => r.status === "failed" && r.code === "signer-untrusted" && r.signer === undefined));
  // A secret key file, a missing one: exit 2, the secret never printed.
  const s = await both([web.url, "--trust", secret]);
  assert.equal(s.code, 2);
  assert.match(s.stderr, /--trust .*k1\.key: the public key holds a secret/);
  assert.ok(!s.stderr.includes(k1.secretJwk.d));
  const missing = await both([web.url, "--trust", join(dir, "nope.pub")]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /^error: --trust .*nope\.pub: cannot be read: No such file or directory/);
  // --pins: written on first use, then enforced; a change of key fails and leaves them.
  const pinsFile = join(dir, "pins.json");
  const fresh = () => rmSync(pinsFile, { force: true });
  const first = await both([web.url, "--json", "--pins", pinsFile], fresh);
  assert.equal(first.code, 0);
  const pins = first.pins;
  assert.equal(JSON.parse(pins).pins[0].keyId, k1.keyId);
  const keep = () => writeFileSync(pinsFile, pins);
  state.key = k2;
  try {
    const changed = await both([web.url, "--json", "--pins", pinsFile], keep);
    assert.equal(changed.code, 1);
    assert.ok(changed.stdout.trimEnd().split("\n").every((l) => JSON.parse(l).code === "signer-changed"));
    assert.equal(changed.pins, pins);
  } finally {
    state.key = k1;
  }
  writeFileSync(pinsFile, "{");
  const broken = await both([web.url, "--pins", pinsFile], () => writeFileSync(pinsFile, "{"));
  assert.equal(broken.code, 2);
  assert.equal(readFileSync(pinsFile, "utf8"), "{", "a pins file that cannot be read is left as it is");
});

// --- A signed well-known source ---------------------------------------------------------------

test("a signed well-known source: verifyWellKnown and both commands check its envelope", async () => {
  const md = Buffer.from("---\nname: notes\ndescription: Take notes.\n---\n# Notes\n");
  const mcpEntry = entryFor("skill://notes/SKILL.md", { name: "notes", description: "Take notes." }, [["skill://notes/SKILL.md", md]]);
  let envelope = envelopeFor(mcpEntry, k1, "acme");
  const index = () => ({
    $schema: "https://schemas.agentskills.io/discovery/0.2.0/schema.json",
    skills: [{ name: "notes", type: "skill-md", description: "Take notes.", url: "notes/SKILL.md", digest: digestOf(md), _meta: { [DSSE_META_KEY]: "/.well-known/agent-skills/notes.dsse.json" } }],
  });
  const mirror = createServer((req, res) => {
    const body = {
      "/.well-known/agent-skills/index.json": () => JSON.stringify(index()),
      "/.well-known/agent-skills/notes/SKILL.md": () => md,
      "/.well-known/agent-skills/notes.dsse.json": () => JSON.stringify(envelope),
      "/.well-known/agent-skills/keys.json": () => JSON.stringify({ keys: [k1.publicJwk] }),
    }[req.url];
    if (!body) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": req.url.endsWith(".md") ? "text/markdown" : "application/json" }).end(body());
  });
  await new Promise((r) => mirror.listen(0, "127.0.0.1", r));
  const origin = `http://127.0.0.1:${mirror.address().port}`;
  try {
    const trusted = await SkillsClient.verifyWellKnown(origin, { trust: [k1.publicJwk] });
    assert.equal(trusted.exitCode, 0, trusted.table);
    assert.equal(trusted.skills[0].signer.trust, "trusted");
    assert.equal(trusted.pins, undefined);
    const announced = await SkillsClient.verifyWellKnown(origin, { trustOnFirstUse: true });
    assert.equal(announced.skills[0].signer.trust, "first-use");
    assert.equal(JSON.parse(announced.pins).pins[0].origin, origin);
    const untrusted = await SkillsClient.verifyWellKnown(origin, { trust: [k2.publicJwk] });
    assert.equal(untrusted.exitCode, 1);
    assert.equal(untrusted.skills[0].code, "signer-untrusted");
    writeFileSync(join(dir, "k1.pub"), JSON.stringify(k1.publicJwk));
    const ok = await both(["--well-known", origin, "--json", "--trust", join(dir, "k1.pub")]);
    assert.equal(ok.code, 0, ok.stdout);
    // An envelope of other bytes (a file that changed since signing): signature-invalid.
    envelope = envelopeFor({ ...mcpEntry, resources: [{ ...mcpEntry.resources[0], digest: digestOf("other") }] }, k1, "acme");
    const tampered = await both(["--well-known", origin, "--json", "--trust", join(dir, "k1.pub")]);
    assert.equal(tampered.code, 1);
    assert.equal(JSON.parse(tampered.stdout).code, "signature-invalid");
  } finally {
    mirror.closeAllConnections();
    mirror.close();
  }
});

// --- End to end: signed by the compiler, served by SkillsServer --------------------------------

test("end to end: `skills-edge pack --sign`, served by SkillsServer, verified by SkillsClient and both commands", async () => {
  const keys = join(dir, "keys");
  const made = await exec(NATIVE, ["keygen", "--out", keys]);
  assert.equal(made.code, 0, made.stderr);
  const packFile = join(dir, "signed.pack");
  const packed = await exec(NATIVE, ["pack", join(REPO, "skills"), "--sign", join(keys, "signing.key"), "--catalog-id", "acme", "-o", packFile]);
  assert.equal(packed.code, 0, packed.stderr);
  const skills = new SkillsServer({ pack: readFileSync(packFile) });
  // The package's own Streamable HTTP rules: MCP at /mcp, the mirror under /.well-known/.
  const web = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = req.method === "POST" ? Buffer.concat(chunks) : undefined;
    const response = await skills.fetch(new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers: req.headers, body }));
    res.writeHead(response.status, Object.fromEntries(response.headers)).end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise((r) => web.listen(0, "127.0.0.1", r));
  const origin = `http://127.0.0.1:${web.address().port}`;
  const pub = join(keys, "signing.pub");
  const other = join(dir, "k2.pub");
  writeFileSync(other, JSON.stringify(k2.publicJwk));
  try {
    const client = await SkillsClient.connect(`${origin}/mcp`, { trust: [readFileSync(pub, "utf8")] });
    const report = await client.verify();
    client.close();
    assert.equal(report.exitCode, 0, report.table);
    const keyId = JSON.parse(readFileSync(pub, "utf8")).kid;
    assert.ok(report.skills.every((s) => s.signer.keyId === keyId && s.signer.catalog === "acme" && s.signer.trust === "trusted"));
    for (const target of [[`${origin}/mcp`], ["--well-known", origin]]) {
      const ok = await both([...target, "--json", "--trust", pub]);
      assert.equal(ok.code, 0, ok.stdout + ok.stderr);
      const rows = ok.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
      assert.ok(rows.every((r) => r.status === "verified" && r.signer.trust === "trusted"), ok.stdout);
      const refused = await both([...target, "--json", "--trust", other]);
      assert.equal(refused.code, 1, refused.stdout);
      assert.ok(refused.stdout.trimEnd().split("\n").every((l) => JSON.parse(l).code === "signer-untrusted"));
    }
  } finally {
    web.closeAllConnections();
    web.close();
  }
});
