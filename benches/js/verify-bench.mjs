// Verifier throughput of the npm package in Node: `verifyFile` (SHA-256 in WebAssembly, plus
// the entry check and the copy into wasm memory) next to node:crypto SHA-256 (OpenSSL) on the
// same bytes, for 1 KiB, 64 KiB and 16 MiB files; then the size of the package's .wasm, raw
// and gzip -9.
//
//   node benches/js/verify-bench.mjs [path/to/pkg]      (default: pkg/ of this repository)
//
// Each figure is the best of 5 rounds, each round hashing at least 64 MiB (and at least 3 calls).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const here = dirname(fileURLToPath(import.meta.url));
const pkgDir = resolve(process.argv[2] ?? join(here, "..", "..", "pkg"));
const { verifyFile, sha256Digest } = createRequire(import.meta.url)(join(pkgDir, "node", "skills_edge.js"));

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

function best(fn, size) {
  const calls = Math.max(3, Math.ceil((64 * 1024 * 1024) / size));
  for (let i = 0; i < Math.min(calls, 20); i++) fn(); // warm-up
  let bestMs = Infinity;
  for (let round = 0; round < 5; round++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) fn();
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    bestMs = Math.min(bestMs, ms);
  }
  return (calls * size) / (1024 * 1024) / (bestMs / 1000);
}

const rows = [];
for (const [label, size] of [["1 KiB", 1024], ["64 KiB", 64 * 1024], ["16 MiB", 16 * 1024 * 1024]]) {
  const data = bytes(size, size);
  const digest = "sha256:" + createHash("sha256").update(data).digest("hex");
  if (sha256Digest(data) !== digest) throw new Error(`digest disagreement at ${label}`);
  const uri = "skill://bench/SKILL.md";
  const entry = { uri, frontmatter: { name: "bench", description: "benchmark" }, resources: [{ uri, digest, size }] };
  const wasm = best(() => verifyFile(entry, uri, data), size);
  const hashOnly = best(() => sha256Digest(data), size);
  const native = best(() => createHash("sha256").update(data).digest(), size);
  rows.push({ file: label, "verifyFile MB/s": wasm.toFixed(1), "sha256Digest MB/s": hashOnly.toFixed(1), "node:crypto MB/s": native.toFixed(1) });
}
console.log(`Node ${process.version}, MB = 2^20 bytes, best of 5`);
console.table(rows);

const wasmFile = join(pkgDir, "web", "skills_edge_bg.wasm");
const raw = readFileSync(wasmFile);
console.log(`${wasmFile}: ${raw.length} bytes raw, ${gzipSync(raw, { level: 9 }).length} bytes gzip -9`);
