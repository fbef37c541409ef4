// Signed skills from the npm command: `npx skills-edge keygen` and `--sign` for pack, check and
// worker, against the native `skills-edge` (the same parser, files, messages and, signing
// being deterministic, the same pack bytes for the same key).
// * keygen writes signing.key (mode 0600) and signing.pub, prints the key id, refuses to
//   replace either file, with the native command's messages;
// * pack --sign writes the native command's signed pack byte for byte; every entry SkillsServer
//   serves carries an envelope that node:crypto verifies (Ed25519 over DSSE's PAE) against the
//   public key file, stating exactly the entry; worker --sign writes the native signed pack and
//   its assets, with the mirror's envelopes and keys.json;
// * a missing, public or damaged key stops check, pack and worker with the native command's
//   `signing-key` error naming the file;
// * the secret's `d` is in no byte of any pack, asset, project file, stdout or stderr.
//
// The native binary is $SKILLS_EDGE_BIN, or target/debug/skills-edge under $SKILLS_EDGE_REPO.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createPublicKey, verify } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { SkillsServer, compileCatalog, inspectPack } from "skills-edge";
import { REPO, call, listAll } from "./common.mjs";

const NATIVE = resolve(REPO || ".", process.env.SKILLS_EDGE_BIN ?? "target/debug/skills-edge");
const DSSE = "io.github.skills-edge/dsse";
const SIGNER = "io.github.skills-edge/signer";
const REVISION = "io.github.skills-edge/revision";
let tmp;

before(() => {
  assert.ok(REPO, "SKILLS_EDGE_REPO must name the repository root");
  assert.ok(existsSync(NATIVE), `${NATIVE} is missing: run \`cargo build -p skills-edge-cli\``);
  tmp = mkdtempSync(join(tmpdir(), "skills-edge-sign-"));
});
after(() => rmSync(tmp, { recursive: true, force: true }));

/** The environment without the build variables (the tests give them explicitly). */
function cleanEnv(extra = {}) {
  const env = { ...process.env, ...extra };
  for (const v of ["SKILLS_SIGNING_KEY", "SKILLS_CATALOG_ID", "SKILLS_STRICT", "SKILLS_ON_INVALID"]) {
    if (!(v in extra)) delete env[v];
  }
  return env;
}

function run(cmd, args, env) {
  const r = spawnSync(cmd, args, { encoding: "buffer", timeout: 60_000, env: cleanEnv(env) });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, out: r.stdout.toString("utf8"), err: r.stderr.toString("utf8") };
}
const npx = (args, env) => run("npx", ["--no-install", "skills-edge", ...args], env);
const native = (args, env) => run(NATIVE, args, env);

let n = 0;
const fresh = (tag) => join(tmp, `${tag}-${n++}`);
const SKILLS = () => join(REPO, "skills");

/** A key made by the native command: its folder, id and secret `d`. */
function nativeKey() {
  const dir = fresh("native-key");
  const r = native(["keygen", "--out", dir]);
  assert.equal(r.status, 0, r.err);
  const secret = JSON.parse(readFileSync(join(dir, "signing.key"), "utf8"));
  return { dir, key: join(dir, "signing.key"), pub: join(dir, "signing.pub"), id: r.out.trim(), d: secret.d };
}

/** Every file under `dir`, recursively. */
function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath ?? e.path, e.name));
}

function assertNoSecret(d, buffers, what) {
  for (const [i, b] of buffers.entries()) assert.ok(!Buffer.from(b).includes(d), `${what} ${i} holds the secret`);
}

/** DSSE's pre-authentication encoding. */
function pae(type, body) {
  return Buffer.concat([Buffer.from(`DSSEv1 ${Buffer.byteLength(type)} ${type} ${body.length} `), body]);
}

/** Verifies an envelope with node:crypto against the public JWK; returns its statement. */
function verifyEnvelope(envelope, jwk) {
  const key = createPublicKey({ key: jwk, format: "jwk" });
  const body = Buffer.from(envelope.payload, "base64");
  assert.equal(envelope.payloadType, "application/vnd.in-toto+json");
  const sigs = envelope.signatures.filter((s) => s.keyid === jwk.kid);
  assert.equal(sigs.length, 1);
  assert.ok(verify(null, pae(envelope.payloadType, body), key, Buffer.from(sigs[0].sig, "base64")), "the signature verifies");
  return JSON.parse(body.toString("utf8"));
}

/** The envelope of `entry` verifies against `jwk` and states exactly the entry. */
function checkEntry(entry, jwk, catalog) {
  assert.deepEqual(entry._meta[SIGNER], jwk, entry.uri);
  const st = verifyEnvelope(entry._meta[DSSE], jwk);
  assert.equal(st._type, "https://in-toto.io/Statement/v1");
  assert.deepEqual(st.subject, entry.resources.map((r) => ({ name: r.uri, digest: { sha256: r.digest.slice("sha256:".length) } })));
  assert.deepEqual(st.predicate, { skill: entry.uri, revision: entry._meta[REVISION], catalog });
}

test("npx skills-edge keygen writes the native command's files and messages", () => {
  const dir = fresh("npx-key");
  const r = npx(["keygen", "--out", dir]);
  assert.equal(r.status, 0, r.err);
  const secretText = readFileSync(join(dir, "signing.key"), "utf8");
  const publicText = readFileSync(join(dir, "signing.pub"), "utf8");
  const secret = JSON.parse(secretText);
  const pub = JSON.parse(publicText);
  assert.deepEqual(Object.keys(secret), ["crv", "d", "kid", "kty", "x"]);
  assert.deepEqual(pub, { crv: "Ed25519", kid: secret.kid, kty: "OKP", x: secret.x });
  assert.ok(secretText.endsWith("}\n") && publicText.endsWith("}\n"));
  assert.equal(r.out, `${pub.kid}\n`);
  if (process.platform !== "win32") {
    assert.equal(statSync(join(dir, "signing.key")).mode & 0o777, 0o600);
    assert.equal(statSync(join(dir, "signing.pub")).mode & 0o777, 0o644);
  }
  // The same message as the native command's, but for the folder.
  const other = fresh("native-key");
  const a = native(["keygen", "--out", other]);
  assert.equal(a.status, 0, a.err);
  assert.equal(r.err.replaceAll(dir, other), a.err);
  assertNoSecret(secret.d, [r.stdout, r.stderr], "keygen output");
  // The key signs: the native command reads npx's key file, npx the native one's, alike.
  const packA = fresh("a.pack");
  const packB = fresh("b.pack");
  assert.equal(native(["pack", SKILLS(), "-o", packA, "--sign", join(dir, "signing.key")]).status, 0);
  assert.equal(npx(["pack", SKILLS(), "-o", packB, "--sign", join(dir, "signing.key")]).status, 0);
  assert.ok(readFileSync(packA).equals(readFileSync(packB)), "the same signed pack");

  // Refusals: the same messages from both commands; nothing is replaced.
  for (const cmd of [npx, native]) {
    const again = cmd(["keygen", "--out", dir]);
    assert.equal(again.status, 1);
    assert.equal(again.out, "");
    assert.equal(again.err, `error: ${dir}/signing.key already exists\n  fix: delete it, or choose another --out folder (keygen never replaces a key)\n`);
  }
  assert.equal(readFileSync(join(dir, "signing.key"), "utf8"), secretText);
  rmSync(join(dir, "signing.key"));
  for (const cmd of [npx, native]) {
    const again = cmd(["keygen", "--out", dir]);
    assert.equal(again.status, 1);
    assert.match(again.err, new RegExp(`^error: ${dir.replaceAll("/", "\\/")}/signing\\.pub already exists\n`));
  }
  assert.ok(!existsSync(join(dir, "signing.key")), "no secret beside a public key that was there");
  const file = join(tmp, "plain-file");
  writeFileSync(file, "x");
  const bad = [npx(["keygen", "--out", file]), native(["keygen", "--out", file])];
  assert.equal(bad[0].status, 1);
  assert.equal(bad[0].err, bad[1].err);
  assert.match(bad[0].err, /^error: cannot write .*: File exists \(os error 17\)\n  fix: /);
  for (const args of [["keygen"], ["keygen", "x"], ["keygen", "--out"], ["keygen", "--out", "a", "--out", "b"]]) {
    const [b, a] = [npx(args), native(args)];
    assert.equal(b.status, 2, `${args}`);
    assert.equal(b.err.split("\n")[0], a.err.split("\n")[0], `${args}`);
  }
});

test("npx skills-edge pack --sign writes the native signed pack, and its entries verify", () => {
  const k = nativeKey();
  const jwk = JSON.parse(readFileSync(k.pub, "utf8"));
  const outputs = [];
  for (const [extra, env, catalog] of [
    [["--sign", k.key, "--catalog-id", "acme.example/skills"], {}, "acme.example/skills"],
    [[], { SKILLS_SIGNING_KEY: k.key }, k.id],
    [["--sign", k.key], { SKILLS_CATALOG_ID: "from-env" }, "from-env"],
  ]) {
    const a = fresh("native.pack");
    const b = fresh("npx.pack");
    const viaNative = native(["pack", SKILLS(), "-o", a, ...extra], env);
    const viaNpx = npx(["pack", SKILLS(), "-o", b, ...extra], env);
    assert.equal(viaNative.status, 0, viaNative.err);
    assert.equal(viaNpx.status, 0, viaNpx.err);
    assert.equal(viaNpx.err.replaceAll(b, a), viaNative.err, "the same messages");
    const pack = readFileSync(b);
    assert.ok(pack.equals(readFileSync(a)), "byte-identical signed packs");
    assert.equal(pack.readUInt32LE(8), 7, "format 7, the one version: signatures are sections");
    assert.equal(inspectPack(pack).version, 7);
    const server = new SkillsServer({ pack, pageSize: 2 });
    const entries = listAll(server);
    assert.match(viaNpx.err, new RegExp(`\nsigned: ${entries.length} skills, key id ${k.id}, catalog ${catalog.replaceAll(".", "\\.")}\n$`));
    for (const entry of entries) {
      checkEntry(entry, jwk, catalog);
      assert.deepEqual(call(server, "skills/get", { uri: entry.uri }).skill, entry);
    }
    outputs.push(pack, viaNpx.stdout, viaNpx.stderr);
  }
  // check --sign prints the entries with their envelopes, and the key id and the identity.
  const a = native(["check", SKILLS(), "--sign", k.key, "--catalog-id", "acme"]);
  const b = npx(["check", SKILLS(), "--sign", k.key, "--catalog-id", "acme"]);
  assert.equal(b.status, 0, b.err);
  assert.equal(b.out, a.out);
  assert.equal(b.err, a.err);
  assert.match(b.err, new RegExp(`: ok\nsigned: \\d+ skills, key id ${k.id}, catalog acme\n$`));
  for (const entry of JSON.parse(b.out)) checkEntry(entry, jwk, "acme");
  outputs.push(b.stdout, b.stderr);
  // compileCatalog reports the signer, never the key.
  const compiled = compileCatalog([{ path: "a/SKILL.md", bytes: "---\nname: a\ndescription: A.\n---\n" }], {
    signingKey: { file: k.key, bytes: readFileSync(k.key) },
    catalogId: "api",
  });
  assert.deepEqual(compiled.signer, { keyId: k.id, catalog: "api" });
  checkEntry(compiled.skills[0], jwk, "api");
  outputs.push(compiled.pack, Buffer.from(JSON.stringify(compiled)));
  assertNoSecret(k.d, outputs, "output");
});

test("npx skills-edge worker --sign writes the native signed pack and a mirror with envelopes", async () => {
  const k = nativeKey();
  const jwk = JSON.parse(readFileSync(k.pub, "utf8"));
  const assets = fresh("native-assets");
  const pack = fresh("native.pack");
  const out = fresh("worker");
  const a = native(["pack", SKILLS(), "-o", pack, "--assets", assets, "--inline-max", "0", "--sign", k.key, "--catalog-id", "acme"]);
  const b = npx(["worker", SKILLS(), "--out", out, "--inline-max", "0", "--sign", k.key, "--catalog-id", "acme"]);
  assert.equal(a.status, 0, a.err);
  assert.equal(b.status, 0, b.err);
  assert.match(b.err, new RegExp(`\nsigned: \\d+ skills, key id ${k.id}, catalog acme\n`));
  const build = join(out, "worker", "build");
  const served = readFileSync(join(build, "catalog.pack"));
  assert.ok(served.equals(readFileSync(pack)), "byte-identical signed packs");
  assert.deepEqual(readdirSync(join(build, "assets")).filter((f) => f !== "inspector").sort(), readdirSync(assets).sort());
  // The mirror of that pack: index, envelopes and keys.json (the server's fetch handler).
  const server = new SkillsServer({ pack: served });
  const get = async (path) => {
    const r = await server.fetch(new Request(`http://127.0.0.1${path}`));
    return { status: r.status, type: r.headers.get("content-type"), body: await r.text() };
  };
  const index = JSON.parse((await get("/.well-known/agent-skills/index.json")).body);
  assert.deepEqual(index._meta, { "io.github.skills-edge/keys": "/.well-known/agent-skills/keys.json" });
  const keys = await get("/.well-known/agent-skills/keys.json");
  assert.equal(keys.status, 200);
  assert.equal(keys.type, "application/json");
  assert.deepEqual(JSON.parse(keys.body), { keys: [jwk] });
  assert.ok(index.skills.length > 0);
  for (const s of index.skills) {
    assert.equal(s._meta[DSSE], `/.well-known/agent-skills/${s.name}.dsse.json`);
    const env = await get(s._meta[DSSE]);
    assert.equal(env.status, 200, s.name);
    assert.equal(env.type, "application/json");
    const st = verifyEnvelope(JSON.parse(env.body), jwk);
    assert.equal(st.predicate.revision, s._meta[REVISION]);
    assert.equal(st.predicate.catalog, "acme");
  }
  // No byte of the project, the native outputs or the messages holds the secret.
  const everything = [...filesUnder(out), ...filesUnder(assets), pack].map((f) => readFileSync(f));
  assertNoSecret(k.d, [...everything, a.stdout, a.stderr, b.stdout, b.stderr], "file or output");
});

test("a rebuild without the key of a Worker that served signed skills is refused, unless --unsigned", () => {
  const k = nativeKey();
  const out = fresh("worker-rebuild");
  const signed = npx(["worker", SKILLS(), "--out", out, "--sign", k.key]);
  assert.equal(signed.status, 0, signed.err);
  const pack = join(out, "worker", "build", "catalog.pack");
  const before = readFileSync(pack);
  assert.equal(new SkillsServer({ pack: before }).catalogInfo().signerKeyId, k.id);
  // The documented rebuild, run again without the key: refused, naming the key id and both fixes,
  // and nothing of the project is touched.
  const again = npx(["worker", SKILLS(), "--out", out]);
  assert.equal(again.status, 1, again.err);
  assert.match(again.err, new RegExp(`serves skills signed by key id ${k.id}, and this build has no signing key`));
  assert.match(again.err, /fix: give the key again \(--sign PATH or SKILLS_SIGNING_KEY\), or --unsigned/);
  assert.ok(readFileSync(pack).equals(before), "the signed pack is still the one served");
  // With the key (here from the environment) the rebuild goes through and stays signed.
  const withKey = npx(["worker", SKILLS(), "--out", out], { SKILLS_SIGNING_KEY: k.key });
  assert.equal(withKey.status, 0, withKey.err);
  assert.equal(new SkillsServer({ pack: readFileSync(pack) }).catalogInfo().signerKeyId, k.id);
  // --unsigned drops the signatures on purpose; a Worker that was never signed needs no flag.
  const dropped = npx(["worker", SKILLS(), "--out", out, "--unsigned"]);
  assert.equal(dropped.status, 0, dropped.err);
  assert.equal(new SkillsServer({ pack: readFileSync(pack) }).catalogInfo().signerKeyId, undefined);
  const plain = npx(["worker", SKILLS(), "--out", out]);
  assert.equal(plain.status, 0, plain.err);
  // --unsigned with a key is a contradiction, refused as a usage error.
  const both = npx(["worker", SKILLS(), "--out", out, "--unsigned", "--sign", k.key]);
  assert.equal(both.status, 2, both.err);
  assert.match(both.err, /--unsigned and a signing key/);
});

test("a key that cannot sign stops check, pack and worker with the native command's error", () => {
  const k = nativeKey();
  const secret = readFileSync(k.key, "utf8");
  const damaged = fresh("damaged.key");
  writeFileSync(damaged, secret.replace(k.d.slice(0, 6), "AAAAAA"));
  const truncated = fresh("truncated.key");
  writeFileSync(truncated, secret.slice(0, secret.length >> 1));
  const missing = fresh("missing.key");
  for (const [file, says] of [
    [missing, "cannot read the signing key: No such file or directory (os error 2)"],
    [k.pub, 'the signing key has no secret ("d"): this is a public key'],
    [damaged, 'the signing key\'s "x" is not the public key of its "d": the file is damaged'],
    [truncated, "the signing key is not a JSON Web Key"],
    [k.dir, "cannot read the signing key: Is a directory (os error 21)"],
  ]) {
    const target = fresh("never");
    for (const args of [
      ["check", SKILLS(), "--sign", file],
      ["pack", SKILLS(), "-o", target, "--sign", file],
    ]) {
      const [b, a] = [npx(args), native(args)];
      assert.equal(b.status, 1, b.err);
      assert.equal(b.out, "");
      assert.equal(b.err, a.err, `${args}: the native command's message`);
      assert.ok(b.err.startsWith(`error[signing-key]: ${file}: ${says}`), b.err);
      assertNoSecret(k.d, [b.stderr, a.stderr], "message");
    }
    const w = npx(["worker", SKILLS(), "--out", target, "--sign", file]);
    assert.equal(w.status, 1);
    assert.ok(w.err.startsWith(`error[signing-key]: ${file}: ${says}`), w.err);
    assert.ok(!existsSync(target), "nothing is written");
  }
  // A catalog identity without a key is a usage error, from the flag or the variable.
  for (const [args, env] of [[["check", SKILLS(), "--catalog-id", "acme"], {}], [["check", SKILLS()], { SKILLS_CATALOG_ID: "acme" }]]) {
    const [b, a] = [npx(args, env), native(args, env)];
    assert.equal(b.status, 2);
    assert.equal(b.err.split("\n")[0], a.err.split("\n")[0]);
    assert.match(b.err, /is given but no signing key/);
  }
});

test("a key given as its text in SKILLS_SIGNING_KEY or --sign is never echoed, as in the native command", () => {
  const k = nativeKey();
  const secret = readFileSync(k.key, "utf8");
  const parts = [k.d.slice(0, 8), k.d.slice(18, 26), k.d.slice(-8)];
  for (const given of [secret.trim(), secret, k.d]) {
    const target = fresh("never");
    for (const [args, env] of [
      [["check", SKILLS()], { SKILLS_SIGNING_KEY: given }],
      [["pack", SKILLS(), "-o", target], { SKILLS_SIGNING_KEY: given }],
      [["pack", SKILLS(), "-o", target, "--sign", given], {}],
      [["worker", SKILLS(), "--out", target], { SKILLS_SIGNING_KEY: given }],
    ]) {
      const b = npx(args, env);
      assert.equal(b.status, 1, b.err);
      assert.ok(b.err.startsWith("error[signing-key]: --sign or SKILLS_SIGNING_KEY: the setting holds what looks like a key's text"), b.err);
      assert.match(b.err, /fix: write the key to a file/);
      if (args[0] !== "worker") assert.equal(b.err, native(args, env).err, "the native command's message");
      for (const p of parts) assertNoSecret(p, [b.stdout, b.stderr], `${args[0]}: output`);
      assert.ok(!existsSync(target), "nothing is written");
    }
  }
});
