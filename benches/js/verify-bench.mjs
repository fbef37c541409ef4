// Verifier throughput of the npm package in Node, side by side in one run, for 1 KiB, 64 KiB,
// 1 MiB and 16 MiB files:
//
//   sha256Digest        SHA-256 in WebAssembly (what runs where crypto.subtle is missing)
//   verifyFile          the same plus the entry check (the entry is validated on every call)
//   hash-wasm           hash-wasm 4.13's `sha256` (hand-tuned WebAssembly), awaited
//   node:crypto         createHash("sha256") (OpenSSL, the CPU's SHA extensions)
//   crypto.subtle       crypto.subtle.digest("SHA-256"), awaited (Node's WebCrypto)
//   sha256DigestAsync   the package's async digest in Node (node:crypto from 1 KiB, else
//                       WebAssembly)
//   verifyFileAsync     the package's async verifyFile in Node (from 1 KiB: node:crypto, then
//                       verifyFileDigest, with checkFileSize first from 1 MiB; else verifyFile),
//                       with the entry validateEntry gave back (frozen, so it is recognised
//                       without being read again), as a host that verifies many files holds it
//   verifyFileAsync (plain entry)  the same with the plain entry object, whose JSON text is
//                       compared with the kept entry's on every call
//   client (wasm)       SkillsClient's read of a text file (SkillsClientCore.read over an SDK-style
//                       io that hands back a ready resources/read result): the result read into
//                       the core, the content item read out, size and digest verified, the
//                       verified file handed back; hashed in WebAssembly, as on a plain-http page
//   client (platform)   the same with the platform digest SkillsClient uses in Node (node:crypto
//                       from 8 KiB, through io.digest)
//
// The client rows read files of the size less the bench skill's SKILL.md (a skill is at most
// 16 MiB in all), so their 16 MiB is 16 MiB less 45 bytes.
//
// The machine may be shared and busy: the rounds are interleaved (every function at every size
// in each round, in a rotating order), each figure is the best of N rounds, and each ratio is
// taken from the same rounds, as the ratio of the two bests and as the median of the per-round
// ratios. With --cpu the process's CPU time (every thread: crypto.subtle hashes on the libuv
// thread pool) is measured instead of the wall clock, which is steadier on a busy machine.
//
//   node benches/js/verify-bench.mjs [--rounds N] [--cpu] [path/to/pkg]   (default: pkg/ here, 7 rounds)
//
// Every digest is checked against node:crypto first. Then the size of the package's .wasm,
// raw and gzip -9.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args.splice(i, name === "--cpu" ? 1 : 2)[1] ?? true;
};
const ROUNDS = Number(flag("--rounds") ?? 7);
const CPU = flag("--cpu") !== undefined;
const pkgDir = resolve(args[0] ?? join(here, "..", "..", "pkg"));
const pkg = await import(pathToFileURL(join(pkgDir, "lib", "node.js")).href);
const { nodeIoDigest } = await import(pathToFileURL(join(pkgDir, "lib", "node-digest.js")).href);
const { sha256 } = createRequire(join(here, "..", "..", "package.json"))("hash-wasm");
const { subtle } = globalThis.crypto;

// Deterministic bytes (xorshift32), so every run hashes the same input.
function bytes(n, seed) {
  const out = new Uint8Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    out[i] = x & 255;
  }
  return out;
}
const hex = (digest) => "sha256:" + Buffer.from(digest).toString("hex");

const SIZES = [["1 KiB", 1024], ["64 KiB", 64 * 1024], ["1 MiB", 1 << 20], ["16 MiB", 16 << 20]];
const NAMES = ["sha256Digest", "verifyFile", "hash-wasm", "node:crypto", "crypto.subtle", "sha256DigestAsync", "verifyFileAsync", "verifyFileAsync (plain entry)", "client (wasm)", "client (platform)"];

const SKILL_MD = "---\nname: bench\ndescription: benchmark\n---\n";
const sha = (data) => "sha256:" + createHash("sha256").update(data).digest("hex");

/**
 * `read()` of a SkillsClientCore that holds a loaded skill with one text file of `size` bytes
 * (`text`), over an SDK-style io, with or without the platform digest: resolves to the file's
 * digest as verified.
 */
async function clientReader(text, size, platform) {
  const md = "skill://bench/SKILL.md";
  const uri = "skill://bench/data.md";
  const entry = {
    uri: md,
    frontmatter: { name: "bench", description: "benchmark" },
    resources: [{ uri: md, digest: sha(SKILL_MD), size: SKILL_MD.length }, { uri, digest: sha(text), size }],
  };
  const results = {
    "skills/list": { skills: [entry], ttlMs: 300_000, cacheScope: "public" },
    [md]: { contents: [{ uri: md, mimeType: "text/markdown", text: SKILL_MD }] },
    [uri]: { contents: [{ uri, mimeType: "text/markdown", text }] },
  };
  const io = {
    request: async (method, params) => results[method === "resources/read" ? params.uri : method],
    ...(platform && nodeIoDigest),
  };
  const core = new pkg.SkillsClientCore({ label: "bench" });
  core.attach({ protocolVersion: "2026-07-28", capabilities: {} });
  await core.list(io);
  await core.load(io, md);
  return async () => (await core.read(io, md, "data.md")).digest;
}

/** Per size: the data, how many calls make one measurement, and one async function per name. */
const cases = [];
for (const [label, size] of SIZES) {
  const data = bytes(size, size);
  const digest = "sha256:" + createHash("sha256").update(data).digest("hex");
  const uri = "skill://bench/data.bin";
  const md = "skill://bench/SKILL.md";
  const entry = {
    uri: md,
    frontmatter: { name: "bench", description: "benchmark" },
    resources: [{ uri: md, digest, size: 1 }, { uri, digest, size }],
  };
  const validated = pkg.validateEntry(entry);
  const run = {
    sha256Digest: () => pkg.sha256Digest(data),
    verifyFile: () => pkg.verifyFile(entry, uri, data).digest,
    "hash-wasm": async () => "sha256:" + (await sha256(data)),
    "node:crypto": () => "sha256:" + createHash("sha256").update(data).digest("hex"),
    "crypto.subtle": async () => hex(await subtle.digest("SHA-256", data)),
    sha256DigestAsync: () => pkg.sha256DigestAsync(data),
    verifyFileAsync: async () => (await pkg.verifyFileAsync(validated, uri, data)).digest,
    "verifyFileAsync (plain entry)": async () => (await pkg.verifyFileAsync(entry, uri, data)).digest,
  };
  // Printable ASCII text of the same bytes, for the client rows.
  const clientSize = Math.min(size, (16 << 20) - SKILL_MD.length);
  const text = Buffer.from(data.subarray(0, clientSize).map((b) => 32 + (b % 95))).toString("latin1");
  run["client (wasm)"] = await clientReader(text, clientSize, false);
  run["client (platform)"] = await clientReader(text, clientSize, true);
  for (const [name, f] of Object.entries(run)) {
    const got = await f();
    const want = name.startsWith("client") ? sha(text) : digest;
    if (got !== want) throw new Error(`${name} disagrees with node:crypto at ${label}: ${got}`);
  }
  // At least 32 MiB and 3 calls per measurement.
  const calls = Math.max(3, Math.ceil((32 << 20) / size));
  cases.push({ label, size, calls, run });
}

function clock() {
  if (!CPU) return performance.now();
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** ms[label][name] = the time of each round. */
const ms = Object.fromEntries(cases.map((c) => [c.label, Object.fromEntries(NAMES.map((n) => [n, []]))]));
for (let round = 0; round < ROUNDS; round++) {
  for (const c of cases) {
    const order = NAMES.map((_, i) => NAMES[(i + round) % NAMES.length]);
    for (const name of order) {
      const f = c.run[name];
      const t0 = clock();
      for (let i = 0; i < c.calls; i++) await f();
      ms[c.label][name].push(clock() - t0);
    }
  }
}

const mbs = (c, t) => (c.calls * c.size) / (1 << 20) / (t / 1000);
const best = (c, name) => Math.min(...ms[c.label][name]);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
/** Throughput ratio a / b: of the two bests, and the median of the per-round ratios. */
function ratio(c, a, b) {
  const perRound = ms[c.label][a].map((t, i) => ms[c.label][b][i] / t);
  return `${(best(c, b) / best(c, a)).toFixed(2)} (${median(perRound).toFixed(2)})`;
}

console.log(`Node ${process.version}, ${CPU ? "process CPU time" : "wall clock"}, MB = 2^20 bytes, best of ${ROUNDS} interleaved rounds`);
console.table(Object.fromEntries(cases.map((c) => [c.label, Object.fromEntries(NAMES.map((n) => [n, `${mbs(c, best(c, n)).toFixed(0)} MB/s`]))])));
console.log("Ratios: of the best rounds (median of the per-round ratios)");
console.table(Object.fromEntries(cases.map((c) => [c.label, {
  "sha256Digest ÷ hash-wasm": ratio(c, "sha256Digest", "hash-wasm"),
  "verifyFile ÷ hash-wasm": ratio(c, "verifyFile", "hash-wasm"),
  "sha256DigestAsync ÷ node:crypto": ratio(c, "sha256DigestAsync", "node:crypto"),
  "verifyFileAsync ÷ node:crypto": ratio(c, "verifyFileAsync", "node:crypto"),
  "plain entry ÷ node:crypto": ratio(c, "verifyFileAsync (plain entry)", "node:crypto"),
  "sha256DigestAsync ÷ crypto.subtle": ratio(c, "sha256DigestAsync", "crypto.subtle"),
  "client: platform ÷ wasm": ratio(c, "client (platform)", "client (wasm)"),
}])));

const wasmFile = join(pkgDir, "web", "skills_edge_bg.wasm");
const raw = readFileSync(wasmFile);
console.log(`${wasmFile}: ${raw.length} bytes raw, ${gzipSync(raw, { level: 9 }).length} bytes gzip -9`);
