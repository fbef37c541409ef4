// Deterministic content shared by the async browser page (async-page.mjs, served as /bytes.mjs)
// and its test (async.test.mjs), which checks the page's digests against node:crypto.

/** xorshift128 over 32-bit halves: deterministic numbers for a seed. */
export function prng(seed) {
  let a = seed | 0 || 1, b = 0x9e3779b9, c = 0x243f6a88, d = 0xb7e15162;
  return () => {
    const t = a ^ (a << 11);
    a = b; b = c; c = d;
    d = (d ^ (d >>> 19) ^ (t ^ (t >>> 8))) >>> 0;
    return d;
  };
}

/** `n` pseudo-random bytes for a seed. */
export function randomBytes(n, seed) {
  const next = prng(seed);
  const out = new Uint8Array(n);
  const words = new Uint32Array(out.buffer, 0, n >>> 2);
  for (let i = 0; i < words.length; i++) words[i] = next();
  for (let i = words.length * 4; i < n; i++) out[i] = next() & 255;
  return out;
}

/** Text whose UTF-8 encoding is exactly `n` bytes, with 2-, 3- and 4-byte characters when it is long enough. */
export function textOf(n, seed) {
  const next = prng(seed);
  const pool = [["é", 2], ["€", 3], ["😀", 4], ["a", 1], ["\n", 1], ["日", 3]];
  let s = "";
  let size = 0;
  while (n - size > 4) {
    const [c, len] = pool[next() % pool.length];
    s += c;
    size += len;
  }
  return s + "x".repeat(n - size);
}

const KiB = 1024;
/** The sizes the page checks: block and padding boundaries, the crypto.subtle thresholds (16 KiB, 32 KiB for verifyFileAsync) and the 64 KiB chunk +-1, 1 MiB, 16 MiB. */
export const SIZES = [0, 1, 55, 56, 63, 64, 65, 16 * KiB - 1, 16 * KiB, 16 * KiB + 1, 32 * KiB, 64 * KiB - 1, 64 * KiB, 64 * KiB + 1, 1 << 20, 16 << 20];

/** The seeds of size index `i`: bytes, then text. */
export const seeds = (i) => [1000 + 2 * i, 1001 + 2 * i];
