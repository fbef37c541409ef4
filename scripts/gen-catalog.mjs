// Writes a generated skills catalog shaped like a real one into a folder, for the scale test of
// the assets-backed Worker (tests/e2e/scale.test.mjs) and for measurements:
//   * 16 skills like the ones people publish: a SKILL.md of a few KB, reference pages in
//     markdown, scripts (Python, JavaScript, shell), and for some of them binary assets
//     (fonts, images, office templates: random bytes behind a real file signature), from a
//     few hundred bytes to a few hundred KB;
//   * one skill at exactly the spec's limits: 512 files and 16 MiB (16777216 bytes) in total.
// Text mixes ASCII prose and code with non-ASCII letters, quotes, backslashes and tabs, so
// JSON escaping is exercised; binary files are not UTF-8 (they are served as base64 blobs).
// The output is the same for the same seed.
//
// Usage: node scripts/gen-catalog.mjs <dir> [--seed N]    (prints a summary as JSON)
// As a module: import { generateCatalog } from "./gen-catalog.mjs"; generateCatalog(dir, { seed })
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The spec's limits for one skill (SEP-2640 §Limits). */
export const MAX_FILES = 512;
export const MAX_BYTES = 16 * 1024 * 1024;

/** A small deterministic PRNG (xorshift32). */
function rng(seed) {
  let x = seed >>> 0 || 0x9e3779b9;
  const next = () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 0x100000000;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    /** Log-uniform in [lo, hi]: many small values, a few large ones, as file sizes are. */
    logInt: (lo, hi) => Math.round(Math.exp(Math.log(lo) + next() * (Math.log(hi) - Math.log(lo)))),
    pick: (xs) => xs[Math.floor(next() * xs.length)],
  };
}

const WORDS = (
  "the a of to and in is for that with on as be this by are it from or an can when use your file " +
  "document page form field table chart image font template style layout section heading list " +
  "script function value option setting output input report draft review check test build run " +
  "skill agent task step guide example note warning error result data format text binary archive " +
  "extract merge split convert render export import parse validate sign encrypt compress resize " +
  "before after always never only each every first last next previous other same different new " +
  "open close read write create delete update move copy keep replace insert append remove select " +
  "customer invoice contract policy budget forecast quarter revenue margin summary appendix glossary " +
  "café naïve façade résumé Zürich São Paulo Ærø Ελληνικά русский 日本語 中文 한국어 emoji 🎉 ✓ → ≤ ≥"
).split(" ");

/** Markdown prose with headings, lists, quotes, code and characters JSON must escape. */
function markdown(r, bytes, title) {
  const out = [`# ${title}`, ""];
  let len = out.join("\n").length;
  while (len < bytes) {
    const kind = r.next();
    let block;
    if (kind < 0.12) block = `## ${sentence(r, 3, 6)}`;
    else if (kind < 0.3) block = Array.from({ length: r.int(2, 6) }, () => `- ${sentence(r, 4, 12)}`).join("\n");
    else if (kind < 0.4)
      block = "```python\n" + Array.from({ length: r.int(3, 12) }, () => codeLine(r)).join("\n") + "\n```";
    else if (kind < 0.45) block = `> "${sentence(r, 5, 14)}" \\ see C:\\Users\\docs\\${r.pick(WORDS)}.txt`;
    else block = Array.from({ length: r.int(2, 6) }, () => sentence(r, 6, 20) + ".").join(" ");
    out.push(block, "");
    len += block.length + 2;
  }
  return fit(out.join("\n"), bytes);
}

function sentence(r, lo, hi) {
  const n = r.int(lo, hi);
  const w = Array.from({ length: n }, () => r.pick(WORDS));
  const s = w.join(" ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function codeLine(r) {
  const name = `${r.pick(WORDS)}_${r.pick(WORDS)}`.replace(/[^a-z_]/g, "x");
  const forms = [
    () => `def ${name}(path, *, limit=${r.int(1, 9999)}):`,
    () => `\treturn {"${r.pick(WORDS)}": ${r.int(0, 100)}, "path": path}`,
    () => `    ${name} = read("${r.pick(WORDS)}.json")  # ${sentence(r, 2, 6)}`,
    () => `    if not ${name}:\n        raise ValueError("missing ${r.pick(WORDS)}")`,
    () => `const ${name.replace(/_/g, "")} = await fetch(\`/api/${r.pick(WORDS)}\`);`,
    () => `echo "${sentence(r, 2, 5)}" | tr -d '\\r' > "$OUT/${r.pick(WORDS)}.txt"`,
  ];
  return r.pick(forms)();
}

function code(r, bytes, lang) {
  const head = { py: "#!/usr/bin/env python3\n", js: "// @ts-check\n", sh: "#!/usr/bin/env bash\nset -euo pipefail\n" }[lang];
  const lines = [head];
  let len = head.length;
  while (len < bytes) {
    const l = codeLine(r);
    lines.push(l);
    len += l.length + 1;
  }
  return fit(lines.join("\n"), bytes);
}

/** Cuts or pads `text` to exactly `bytes` UTF-8 bytes without splitting a character. */
function fit(text, bytes) {
  let b = Buffer.from(text, "utf8");
  while (b.length < bytes) b = Buffer.concat([b, Buffer.from("\n" + "word ".repeat(64), "utf8")]);
  let cut = bytes;
  while (cut > 0 && (b[cut] & 0xc0) === 0x80) cut--;
  return Buffer.concat([b.subarray(0, cut), Buffer.alloc(bytes - cut, 0x20)]);
}

const SIGNATURES = {
  png: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  ttf: Buffer.from([0x00, 0x01, 0x00, 0x00, 0x00, 0x0f, 0x00, 0x80]),
  woff2: Buffer.from("wOF2\x00\x01\x00\x00", "latin1"),
  docx: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]),
  pptx: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]),
  pdf: Buffer.from("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "latin1"),
};

/** Random bytes behind a real signature, with a byte that is never valid UTF-8 at the start. */
function binary(r, bytes, ext) {
  const b = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i += 4) {
    const v = (r.next() * 0x100000000) >>> 0;
    b[i] = v & 0xff;
    if (i + 1 < bytes) b[i + 1] = (v >>> 8) & 0xff;
    if (i + 2 < bytes) b[i + 2] = (v >>> 16) & 0xff;
    if (i + 3 < bytes) b[i + 3] = v >>> 24;
  }
  const sig = SIGNATURES[ext] ?? SIGNATURES.png;
  sig.copy(b, 0, 0, Math.min(sig.length, bytes));
  b[0] = 0xff; // never starts valid UTF-8, whatever the signature
  if (bytes > 1) sig.copy(b, 1, 1, Math.min(sig.length, bytes));
  return b;
}

function skillMd(r, name, bytes) {
  const description = `${sentence(r, 8, 16)}. Use when a task involves ${r.pick(WORDS)} ${r.pick(WORDS)} files.`;
  const head = `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\nlicense: Apache-2.0\nmetadata:\n  version: "${r.int(1, 9)}.${r.int(0, 20)}"\n---\n\n`;
  return Buffer.concat([Buffer.from(head, "utf8"), markdown(r, Math.max(bytes - Buffer.byteLength(head), 200), name)]);
}

const NAMES = [
  "pdf-forms", "docx-reports", "pptx-decks", "xlsx-models", "brand-guidelines", "canvas-design",
  "algorithmic-art", "web-artifacts", "mcp-builder", "internal-comms", "theme-factory",
  "slack-gifs", "frontend-testing", "data-cleaning", "api-clients", "release-notes",
];

/**
 * Writes the catalog into `dir` (which must be empty or missing). Returns
 * `{ skills, files, bytes, textFiles, binaryFiles, largest: { name, files, bytes } }`.
 */
export function generateCatalog(dir, { seed = 2640 } = {}) {
  const r = rng(seed);
  const summary = { skills: 0, files: 0, bytes: 0, textFiles: 0, binaryFiles: 0, largest: null };
  const put = (skill, rel, bytes, text) => {
    const file = join(dir, skill, rel);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, bytes);
    summary.files++;
    summary.bytes += bytes.length;
    if (text) summary.textFiles++;
    else summary.binaryFiles++;
    return bytes.length;
  };

  // Skills as people publish them.
  for (const [i, name] of NAMES.entries()) {
    summary.skills++;
    put(name, "SKILL.md", skillMd(r, name, r.logInt(1500, 14000)), true);
    for (let k = 0, n = r.int(1, 6); k < n; k++)
      put(name, `references/${r.pick(WORDS).replace(/[^a-z]/g, "x")}-${k}.md`, markdown(r, r.logInt(1200, 48000), `${name} reference ${k}`), true);
    for (let k = 0, n = r.int(1, 5); k < n; k++) {
      const lang = r.pick(["py", "js", "sh"]);
      put(name, `scripts/tool-${k}.${lang}`, code(r, r.logInt(400, 24000), lang), true);
    }
    if (i % 3 === 0)
      for (let k = 0, n = r.int(2, 8); k < n; k++) put(name, `assets/fonts/face-${k}.ttf`, binary(r, r.logInt(20000, 400000), "ttf"), false);
    if (i % 2 === 0)
      for (let k = 0, n = r.int(2, 10); k < n; k++) put(name, `assets/images/img-${k}.png`, binary(r, r.logInt(300, 250000), "png"), false);
    if (i % 4 === 1)
      for (const ext of ["docx", "pptx"]) put(name, `templates/base.${ext}`, binary(r, r.logInt(40000, 700000), ext), false);
  }

  // One skill at exactly 512 files and 16 MiB.
  const big = "reference-library";
  summary.skills++;
  let files = 0;
  let bytes = 0;
  const add = (rel, b, text) => {
    files++;
    bytes += put(big, rel, b, text);
  };
  add("SKILL.md", skillMd(r, big, 9000), true);
  const TEXT = 400;
  for (let k = 0; k < TEXT; k++) {
    const chapter = `chapter-${String(Math.floor(k / 25)).padStart(2, "0")}`;
    if (k % 4 === 3) {
      const lang = r.pick(["py", "js", "sh"]);
      add(`examples/${chapter}/example-${k}.${lang}`, code(r, r.logInt(600, 30000), lang), true);
    } else {
      add(`docs/${chapter}/page-${k}.md`, markdown(r, r.logInt(1000, 60000), `Page ${k}`), true);
    }
  }
  // The binaries share what is left, the last one taking the exact remainder.
  const BIN = MAX_FILES - files;
  const left = MAX_BYTES - bytes;
  const weights = Array.from({ length: BIN }, () => r.logInt(1, 1000));
  const total = weights.reduce((a, b) => a + b, 0);
  let given = 0;
  for (let k = 0; k < BIN; k++) {
    const ext = r.pick(["png", "ttf", "woff2", "pdf"]);
    const size = k === BIN - 1 ? left - given : Math.max(64, Math.floor((left * weights[k]) / total));
    given += size;
    add(`media/${ext}/item-${k}.${ext}`, binary(r, size, ext), false);
  }
  if (files !== MAX_FILES || bytes !== MAX_BYTES) throw new Error(`${big}: ${files} files, ${bytes} bytes`);
  summary.largest = { name: big, files, bytes };
  return summary;
}

/** `bytes` bytes of markdown (UTF-8 text), the same for the same seed. */
export function textFile(bytes, seed = 1) {
  return markdown(rng(seed), bytes, "Text");
}

/** `bytes` random bytes that are not UTF-8 (served as a base64 blob), the same for the same seed. */
export function binaryFile(bytes, seed = 1) {
  return binary(rng(seed), bytes, "png");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  const i = process.argv.indexOf("--seed");
  if (!dir) {
    console.error("usage: node scripts/gen-catalog.mjs <dir> [--seed N]");
    process.exit(2);
  }
  console.log(JSON.stringify(generateCatalog(dir, { seed: i > 0 ? Number(process.argv[i + 1]) : undefined })));
}
