// Verifying a signed skill's DSSE envelope in Node, side by side in one run, for skills of 1,
// 64 and 512 files (the statement's size grows with the files it signs):
//
//   verifyEnvelope (main)      the npm package's main module: the envelope's JSON read, its
//                              base64 decoded, DSSE's PAE built, Ed25519 verified in
//                              WebAssembly (ed25519-compact), the in-toto statement read
//   verifyEnvelope (verifier)  the same function in the verifier module (skills-edge/verifier,
//                              built for size: opt-level "z")
//   node:crypto                the same steps in JavaScript with crypto.verify (OpenSSL's
//                              Ed25519): JSON.parse, Buffer base64, PAE, verify, JSON.parse
//   crypto.subtle              the same with crypto.subtle.verify("Ed25519"), awaited, where
//                              the runtime has it (the key imported once, outside the timing)
//
// What a host runs where crypto.subtle is missing (plain-http pages, older engines) is the
// WebAssembly one; SkillHost runs it once per skill registered, never per file read.
//
// The rounds are interleaved (every function at every size in each round, rotating order);
// each figure is the best of N rounds, in microseconds per envelope, and the ratios come from
// the same rounds.
//
//   node benches/js/signature-bench.mjs [--rounds N] [path/to/pkg]   (default: pkg/ here, 7 rounds)
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify } from "node:crypto";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRequire } from "node:module";

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const r = args.indexOf("--rounds");
const ROUNDS = r === -1 ? 7 : Number(args.splice(r, 2)[1]);
const pkgDir = resolve(args[0] ?? join(here, "..", "..", "pkg"));
const main = await import(pathToFileURL(join(pkgDir, "lib", "node.js")).href);
const verifierModule = createRequire(import.meta.url)(join(pkgDir, "verifier", "node", "skills_edge_verifier.js"));
const { pae, thumbprint } = await import(pathToFileURL(join(here, "..", "..", "tests", "e2e", "lib", "sign.mjs")).href);

const PAYLOAD_TYPE = "application/vnd.in-toto+json";
const { privateKey } = generateKeyPairSync("ed25519");
const jwk = createPublicKey(privateKey).export({ format: "jwk" });
const kid = thumbprint(jwk);
const publicJwk = { ...jwk, kid };
const nodeKey = createPublicKey({ key: jwk, format: "jwk" });
const subtle = globalThis.crypto?.subtle;
let subtleKey = null;
try {
  subtleKey = await subtle.importKey("jwk", jwk, { name: "Ed25519" }, false, ["verify"]);
} catch {}

function envelopeOf(files) {
  const subject = [];
  for (let i = 0; i < files; i++) {
    const name = i === 0 ? "skill://bench/SKILL.md" : `skill://bench/references/file-${i}.md`;
    subject.push({ name, digest: { sha256: (i.toString(16).padStart(2, "0")).repeat(32).slice(0, 64) } });
  }
  const statement = {
    _type: "https://in-toto.io/Statement/v1",
    subject,
    predicateType: "https://github.com/skills-edge/skills-edge/blob/main/docs/signing.md#predicate-skill-v1",
    predicate: { skill: "skill://bench/SKILL.md", revision: "sha256:" + "ab".repeat(32), catalog: kid },
  };
  const body = Buffer.from(JSON.stringify(statement));
  const sig = sign(null, pae(PAYLOAD_TYPE, body), privateKey);
  return JSON.stringify({ payloadType: PAYLOAD_TYPE, payload: body.toString("base64"), signatures: [{ keyid: kid, sig: sig.toString("base64") }] });
}

function nodeVerify(text) {
  const env = JSON.parse(text);
  const body = Buffer.from(env.payload, "base64");
  const s = env.signatures.find((x) => x.keyid === kid);
  if (!verify(null, pae(env.payloadType, body), nodeKey, Buffer.from(s.sig, "base64"))) throw new Error("bad signature");
  return JSON.parse(body.toString("utf8"));
}

async function subtleVerify(text) {
  const env = JSON.parse(text);
  const body = Buffer.from(env.payload, "base64");
  const s = env.signatures.find((x) => x.keyid === kid);
  if (!(await subtle.verify({ name: "Ed25519" }, subtleKey, Buffer.from(s.sig, "base64"), pae(env.payloadType, body)))) throw new Error("bad signature");
  return JSON.parse(body.toString("utf8"));
}

const NAMES = ["verifyEnvelope (main)", "verifyEnvelope (verifier)", "node:crypto", ...(subtleKey ? ["crypto.subtle"] : [])];
const SIZES = [1, 64, 512];
const cases = SIZES.map((files) => {
  const text = envelopeOf(files);
  const fns = {
    "verifyEnvelope (main)": async () => main.verifyEnvelope(text, publicJwk).subjects.length,
    "verifyEnvelope (verifier)": async () => verifierModule.verifyEnvelope(text, publicJwk).subjects.length,
    "node:crypto": async () => nodeVerify(text).subject.length,
    "crypto.subtle": async () => (await subtleVerify(text)).subject.length,
  };
  return { files, bytes: text.length, fns };
});

// Every function must agree before anything is timed, and a changed byte must be refused.
for (const c of cases) {
  for (const name of NAMES) {
    const n = await c.fns[name]();
    if (n !== c.files) throw new Error(`${name} read ${n} subjects of ${c.files}`);
  }
}
{
  const env = JSON.parse(envelopeOf(2));
  env.payload = Buffer.from(Buffer.from(env.payload, "base64").toString().replace("bench", "bencH")).toString("base64");
  let refused = false;
  try {
    main.verifyEnvelope(JSON.stringify(env), publicJwk);
  } catch (e) {
    refused = e.code === "signature-invalid";
  }
  if (!refused) throw new Error("verifyEnvelope accepted a changed payload");
}

async function time(fn, iterations) {
  const t = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) await fn();
  return Number(process.hrtime.bigint() - t) / 1e3 / iterations;
}

const best = new Map();
const perRound = new Map();
for (let round = 0; round < ROUNDS; round++) {
  const order = NAMES.map((_, i) => NAMES[(i + round) % NAMES.length]);
  for (const c of cases) {
    const iterations = Math.max(20, Math.round(4000 / c.files));
    for (const name of order) {
      const us = await time(c.fns[name], iterations);
      const key = `${c.files}:${name}`;
      best.set(key, Math.min(best.get(key) ?? Infinity, us));
      (perRound.get(key) ?? perRound.set(key, []).get(key)).push(us);
    }
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(`Node ${process.version}, best of ${ROUNDS} rounds, µs per envelope (lower is better)\n`);
console.log(`| files (envelope bytes) | ${NAMES.join(" | ")} |`);
console.log(`|---|${NAMES.map(() => "---:").join("|")}|`);
for (const c of cases) {
  console.log(`| ${c.files} (${c.bytes}) | ${NAMES.map((n) => best.get(`${c.files}:${n}`).toFixed(1)).join(" | ")} |`);
}
const others = NAMES.slice(2);
console.log(`\nRatios, WebAssembly ÷ platform (best; median of per-round ratios in brackets)\n`);
console.log(`| files | ${others.map((o) => `main ÷ ${o} | verifier ÷ ${o}`).join(" | ")} |`);
console.log(`|---|${others.map(() => "---:|---:").join("|")}|`);
for (const c of cases) {
  const cells = [];
  for (const o of others) {
    for (const w of NAMES.slice(0, 2)) {
      const a = perRound.get(`${c.files}:${w}`);
      const b = perRound.get(`${c.files}:${o}`);
      const ratios = a.map((x, i) => x / b[i]);
      cells.push(`${(best.get(`${c.files}:${w}`) / best.get(`${c.files}:${o}`)).toFixed(2)} (${median(ratios).toFixed(2)})`);
    }
  }
  console.log(`| ${c.files} | ${cells.join(" | ")} |`);
}
