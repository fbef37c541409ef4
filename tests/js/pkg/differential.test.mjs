// Differential tests: the package against independent implementations.
// * Digests equal node:crypto (OpenSSL) SHA-256 on pseudo-random buffers of many sizes up to
//   16 MiB (a seeded generator, so every run uses the same bytes).
// * Frontmatter equality agrees with yaml@2 (what the reference SDK and the conformance suite
//   use): for every accepted case of the frontmatter corpus (tests/frontmatter/), a SKILL.md
//   built from the YAML verifies against an entry whose frontmatter is
//   JSON.parse(JSON.stringify(YAML.parse(yaml))), and is refused once a field changes; so does
//   every refused case the verifier's host mode accepts (only ambiguous across YAML versions,
//   expected/NNN-slug.host.json), and every other refused case is refused.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { sha256Digest, validateEntry, verifyFile, verifySkillMd } from "skills-edge";
import { REPO, entryFor } from "./common.mjs";

const YAML = createRequire(join(REPO, "package.json"))("yaml");

/** xorshift128+ over BigInt-free 32-bit halves: deterministic bytes for a seed. */
function prng(seed) {
  let a = seed | 0 || 1, b = 0x9e3779b9, c = 0x243f6a88, d = 0xb7e15162;
  return () => {
    const t = a ^ (a << 11);
    a = b; b = c; c = d;
    d = (d ^ (d >>> 19) ^ (t ^ (t >>> 8))) >>> 0;
    return d;
  };
}
function randomBytes(n, seed) {
  const next = prng(seed);
  const out = new Uint8Array(n);
  const words = new Uint32Array(out.buffer, 0, n >>> 2);
  for (let i = 0; i < words.length; i++) words[i] = next();
  for (let i = words.length * 4; i < n; i++) out[i] = next() & 255;
  return out;
}
const sha = (bytes) => "sha256:" + createHash("sha256").update(bytes).digest("hex");

test("sha256 equals node:crypto on random buffers up to 16 MiB", () => {
  const sizes = new Set([0, 1, 2, 3, 31, 32, 33, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000, 1023, 1024, 1025, 4095, 4096, 65535, 65536, 65537, 1 << 20, (1 << 20) + 3, 16 * 1024 * 1024 - 1, 16 * 1024 * 1024]);
  const next = prng(2640);
  while (sizes.size < 80) sizes.add(next() % 200000);
  let seed = 1;
  for (const n of [...sizes].sort((x, y) => x - y)) {
    const bytes = randomBytes(n, seed++);
    const expected = sha(bytes);
    assert.equal(sha256Digest(bytes), expected, `${n} bytes`);
    const uri = "skill://d/SKILL.md";
    const r = verifyFile({ uri, frontmatter: { name: "d", description: "x" }, resources: [{ uri, digest: expected, size: n }] }, uri, bytes);
    assert.equal(r.digest, expected);
  }
});

test("text is hashed as its UTF-8 bytes, like Buffer.byteLength and node:crypto", () => {
  const next = prng(7);
  const pool = ["a", "é", "€", "😀", "\n", "\r\n", "\u0000", "\u2028", "日本"];
  for (let i = 0; i < 200; i++) {
    let s = "";
    const len = next() % 300;
    for (let j = 0; j < len; j++) s += pool[next() % pool.length];
    assert.equal(sha256Digest(s), sha(Buffer.from(s, "utf8")));
  }
});

/**
 * The frontmatter corpus (tests/frontmatter/; layout in tests/frontmatter_corpus.rs):
 * corpus/NNN-slug.yaml is one block's YAML text (`.crlf.yaml`: LF read as CRLF);
 * expected/NNN-slug.json marks an accepted case, expected/NNN-slug.error.json a refused one,
 * expected/NNN-slug.host.json a refused case that the host mode (the verifier) accepts.
 */
function corpus() {
  const dir = join(REPO, "tests", "frontmatter");
  const files = readdirSync(join(dir, "corpus")).filter((f) => f.endsWith(".yaml")).sort();
  return files.map((f) => {
    const base = f.replace(/(\.crlf)?\.yaml$/, "");
    const raw = readFileSync(join(dir, "corpus", f), "utf8");
    const crlf = f.endsWith(".crlf.yaml");
    return {
      name: base,
      yaml: crlf ? raw.replace(/\n/g, "\r\n") : raw,
      nl: crlf ? "\r\n" : "\n",
      accepted: existsSync(join(dir, "expected", `${base}.json`)),
      refused: existsSync(join(dir, "expected", `${base}.error.json`)),
      hostAccepted: existsSync(join(dir, "expected", `${base}.host.json`)),
    };
  });
}

/** The field path the verifier reports for a top-level key (VerifyError.field). */
const fieldOf = (key) => (key !== "" && !/[.[\]"\\\s\p{Cc}]/u.test(key) ? key : `[${JSON.stringify(key)}]`);

const URI_OF = (name) => `skill://corpus/${name}/SKILL.md`;
const NAME_RE = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * One accepted case: the SKILL.md made of the YAML between fences verifies against an entry
 * whose frontmatter is yaml@2's reading of the same YAML, round-tripped through JSON, and is
 * refused as soon as one field of the entry changes or one is added. Returns how it went.
 */
function agree(c) {
  const parsed = YAML.parse(c.yaml);
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return "not a mapping";
  let yaml = c.yaml;
  let fm = JSON.parse(JSON.stringify(parsed));
  if (typeof fm.name !== "string" || !NAME_RE.test(fm.name) || typeof fm.description !== "string") {
    // An entry needs a valid name and a description: add them in front of a block mapping,
    // and use the case only if yaml@2 then reads exactly the original fields plus these two.
    if ("name" in fm || "description" in fm || /^\s*[{[]/.test(yaml.replace(/^(#.*|\s*)(\r?\n)/gm, ""))) return "no usable name";
    yaml = `name: corpus${c.nl}description: corpus case${c.nl}${yaml}`;
    let again;
    try {
      again = JSON.parse(JSON.stringify(YAML.parse(yaml)));
    } catch {
      return "no usable name";
    }
    if (JSON.stringify(again) !== JSON.stringify({ name: "corpus", description: "corpus case", ...fm })) return "no usable name";
    fm = again;
  }
  const uri = URI_OF(fm.name);
  const file = `---${c.nl}${yaml}${yaml.endsWith(c.nl) ? "" : c.nl}---${c.nl}# Body${c.nl}`;
  const ok = verifySkillMd(entryFor(uri, fm, [[uri, file]]), file);
  assert.equal(JSON.stringify(ok.frontmatter), JSON.stringify(fm), `${c.name}: same value, same key order`);
  for (const key of Object.keys(fm)) {
    if (key === "name") continue;
    const changed = { ...fm, [key]: typeof fm[key] === "string" ? `${fm[key]}!` : "changed" };
    assert.throws(() => verifySkillMd(entryFor(uri, changed, [[uri, file]]), file),
      (e) => e.code === "frontmatter-mismatch" && e.field === fieldOf(key), `${c.name}: changed ${key}`);
  }
  const added = { ...fm, "x-added": null };
  assert.throws(() => verifySkillMd(entryFor(uri, added, [[uri, file]]), file),
    (e) => e.code === "frontmatter-mismatch" && e.field === "x-added", `${c.name}: added field`);
  const { description, ...missing } = fm;
  void description;
  assert.throws(() => validateEntry(entryFor(uri, missing, [[uri, file]])), (e) => e.code === "invalid-entry");
  return "agreed";
}

test("frontmatter equality agrees with yaml@2 on the corpus (tests/frontmatter/)", (t) => {
  const cases = corpus();
  assert.ok(cases.length > 0, "the corpus is present");
  const tally = {};
  for (const c of cases.filter((x) => x.accepted || x.hostAccepted)) {
    const r = agree(c);
    tally[r] = (tally[r] ?? 0) + 1;
  }
  // Other refused cases: the verifier reads the fenced file with the same parser, so it refuses
  // it whatever the entry says (frontmatter-invalid), rather than guess at what a host would see.
  let refused = 0;
  // A `---` line inside the text closes the fenced block early (as in every peer's reader), so
  // such a case says nothing about the YAML reader here.
  const cut = (c) => c.yaml.split(/\r?\n/).some((l) => /^---[ \t]*$/.test(l));
  const refusedCases = cases.filter((x) => x.refused && !x.hostAccepted && !cut(x));
  for (const c of refusedCases) {
    const file = `---${c.nl}name: corpus${c.nl}description: refused case${c.nl}${c.yaml}${c.yaml.endsWith(c.nl) ? "" : c.nl}---${c.nl}`;
    const uri = URI_OF("corpus");
    try {
      verifySkillMd(entryFor(uri, { name: "corpus", description: "refused case" }, [[uri, file]]), file);
    } catch (e) {
      if (e.code === "frontmatter-invalid") refused++;
    }
  }
  t.diagnostic(`accepted cases: ${JSON.stringify(tally)}; refused cases refused by the verifier: ${refused} of ${refusedCases.length}`);
  assert.ok((tally.agreed ?? 0) >= 80, JSON.stringify(tally));
  assert.equal(refused, refusedCases.length);
});

// Cases that hold whatever the corpus holds.
const BUILT_IN = [
  "name: a\ndescription: d\n",
  "name: a\ndescription: 'quoted: yes'\nlicense: MIT\n",
  "name: a\ndescription: >\n  folded\n  text\nmetadata:\n  version: \"2.1.0\"\n  b: 1.0\n  a: [1, 2.5, -3]\n",
  "name: a\ndescription: |\n  literal\n  block\nallowed-tools: [Read, 'Bash(git:*)']\n",
  "name: a\ndescription: d\nhex: 0x1F\nz: ~\nt: true\nf: 1.5\nempty:\n",
  "name: a\ndescription: d\nnested: {x: {w: [{q: null}]}}\n\"2\": two\n\"10\": ten\n",
  "name: a\ndescription: \"é😀 \\u00e9\\t\"\nx: &anchor [1, 2]\nw: *anchor\nio.x/k: v\n",
  "# comment\nname: a # trailing\ndescription: d\n",
];

test("frontmatter equality agrees with yaml@2 on the built-in cases", () => {
  for (const [i, yaml] of BUILT_IN.entries()) {
    assert.equal(agree({ name: `built-in ${i}`, yaml, nl: "\n" }), "agreed", yaml);
  }
});
