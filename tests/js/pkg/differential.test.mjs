// Differential tests: the package against independent implementations, and its two paths
// against each other.
// * Digests equal node:crypto (OpenSSL) SHA-256 on pseudo-random buffers of many sizes up to
//   16 MiB (a seeded generator, so every run uses the same bytes).
// * The async functions (a platform digest, then the WebAssembly verifier with that digest) give
//   exactly the results and errors (code, uri, expected, actual, field, message) of the
//   synchronous ones (WebAssembly only), as exported in Node (node:crypto's createHash from
//   1 KiB, 8 KiB for verifyFileAsync), with node:crypto and with crypto.subtle at every size, and with no platform digest
//   (a plain-http page's fallback): sizes 0, 1, 55, 56, 63, 64, 65, the node:crypto and
//   crypto.subtle thresholds and the 64 KiB chunk +-1, 1 MiB and 16 MiB, as text and as bytes.
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
import {
  sha256Digest, sha256DigestAsync, validateEntry, verifyFile, verifyFileAsync, verifyReadResult,
  verifyReadResultAsync, verifySkillMd, verifySkillMdAsync,
} from "skills-edge";
import { REPO, asyncWith, entryFor, platformDigests } from "./common.mjs";

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

// ---------------------------------------------------------------------------------------------
// The async functions against the synchronous ones
// ---------------------------------------------------------------------------------------------

const exported = { sha256DigestAsync, verifyFileAsync, verifyReadResultAsync, verifySkillMdAsync };
const KiB = 1024;
const CHUNK = 64 * KiB;
const THRESHOLD = 16 * KiB; // crypto.subtle's
const NODE_THRESHOLD = KiB; // node:crypto's (Node's exports)
const PRECHECK = 1 << 20; // verifyFileAsync checks the size before hashing from here
const SIZES = [
  0, 1, 55, 56, 63, 64, 65, NODE_THRESHOLD - 1, NODE_THRESHOLD, NODE_THRESHOLD + 1, 2 * NODE_THRESHOLD,
  THRESHOLD - 1, THRESHOLD, THRESHOLD + 1, 2 * THRESHOLD, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK + 1, PRECHECK - 1, PRECHECK, 16 << 20,
];

/** What a call gave: its value, or its error's name, code, fields and message. */
function outcomeOf(run) {
  try {
    return { value: run() };
  } catch (e) {
    return { error: errorFields(e) };
  }
}
/** `outcomeOf` for an async call, which must not throw synchronously. */
async function outcomeOfAsync(run) {
  let promise;
  try {
    promise = run();
  } catch (e) {
    assert.fail(`threw synchronously: ${e}`);
  }
  assert.ok(promise instanceof Promise);
  try {
    return { value: await promise };
  } catch (e) {
    return { error: errorFields(e) };
  }
}
function errorFields(e) {
  assert.ok(e instanceof Error, String(e));
  // Argument errors start with the name of the function called, which differs.
  const message = e.message.replace(/^[A-Za-z0-9]+: /, "");
  return { name: e.name, code: e.code, uri: e.uri, expected: e.expected, actual: e.actual, field: e.field, message };
}

/** Text whose UTF-8 encoding is exactly `n` bytes, with 2-, 3- and 4-byte characters when it is long enough. */
function textOf(n, seed) {
  const next = prng(seed);
  const pool = ["é", "€", "😀", "a", "z", "\n", "日"];
  let s = "";
  let size = 0;
  while (n - size > 4) {
    const c = pool[next() % pool.length];
    s += c;
    size += Buffer.byteLength(c);
  }
  return s + "x".repeat(n - size);
}

const toBase64 = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("base64");
const skillMd = (n) => {
  const head = "---\nname: big\ndescription: A large SKILL.md.\n---\n";
  return head + "b".repeat(Math.max(0, n - head.length));
};

/**
 * Every async function of `variant` against its synchronous twin, for one file's content
 * (`file`: text or bytes): right, wrong digest, wrong size, unlisted, dynamic with and without
 * allowDynamic, and (with `deep`) as a read result (text or base64 blob) and as a SKILL.md of
 * the same size.
 */
async function agreeOn(variant, label, file, deep) {
  const bytes = typeof file === "string" ? Buffer.from(file, "utf8") : file;
  const n = bytes.length;
  const digest = sha(bytes);
  const uri = "skill://big/data.bin";
  const md = "skill://big/SKILL.md";
  const entryWith = (item) => ({ uri: md, frontmatter: { name: "big", description: "d" }, resources: [{ uri: md, digest, size: 1 }, item] });
  const right = entryWith({ uri, digest, size: n });
  const wrongDigest = entryWith({ uri, digest: sha(Buffer.from("other")), size: n });
  const wrongSize = entryWith({ uri, digest, size: n + 1 });
  const dynamic = { uri: md, frontmatter: { name: "big", description: "d" }, resources: "dynamic" };
  const same = async (what, sync, async) => {
    const expected = outcomeOf(sync);
    const got = await outcomeOfAsync(async);
    assert.deepEqual(got, expected, `${label}, ${n} bytes: ${what}`);
    return expected;
  };
  const ok = await same("sha256Digest", () => sha256Digest(file), () => variant.sha256DigestAsync(file));
  assert.equal(ok.value, digest, `${label}, ${n} bytes: the digest is node:crypto's`);
  assert.equal((await same("verifyFile", () => verifyFile(right, uri, file), () => variant.verifyFileAsync(right, uri, file))).value?.verified, true);
  await same("verifyFile, the entry validateEntry gave", () => verifyFile(right, uri, file), () => variant.verifyFileAsync(validateEntry(right), uri, file));
  await same("verifyFile, wrong size, the entry validateEntry gave", () => verifyFile(wrongSize, uri, file), () => variant.verifyFileAsync(validateEntry(wrongSize), uri, file));
  for (const [what, entry, options] of [
    ["digest-mismatch", wrongDigest], ["size-mismatch", wrongSize], ["not-in-manifest", right],
    ["dynamic-not-allowed", dynamic], ["allowDynamic", dynamic, { allowDynamic: true }],
  ]) {
    const u = what === "not-in-manifest" ? "skill://big/other.bin" : uri;
    const r = await same(what, () => verifyFile(entry, u, file, options), () => variant.verifyFileAsync(entry, u, file, options));
    assert.equal(r.error?.code ?? "allowDynamic", what);
  }
  if (!deep) return;
  const result = typeof file === "string"
    ? { contents: [{ uri, mimeType: "text/plain", text: file }] }
    : { contents: [{ uri, blob: toBase64(bytes) }] };
  for (const [what, entry] of [["read result", right], ["read result, wrong digest", wrongDigest], ["read result, wrong size", wrongSize]]) {
    await same(what, () => verifyReadResult(entry, uri, result), () => variant.verifyReadResultAsync(entry, uri, result));
  }
  // A SKILL.md of the same size, as text and as bytes: verified, tampered, frontmatter changed.
  const text = skillMd(n);
  const mdBytes = Buffer.from(text, "utf8");
  const mdEntry = (t, description = "A large SKILL.md.") => entryFor(md, { name: "big", description }, [[md, t]]);
  const tampered = text.slice(0, -1) + (text.endsWith("b") ? "c" : "b");
  for (const content of [text, mdBytes]) {
    await same("verifySkillMd", () => verifySkillMd(mdEntry(text), content), () => variant.verifySkillMdAsync(mdEntry(text), content));
    await same("verifySkillMd, tampered", () => verifySkillMd(mdEntry(text), tampered), () => variant.verifySkillMdAsync(mdEntry(text), tampered));
    await same("verifySkillMd, frontmatter", () => verifySkillMd(mdEntry(text, "other"), content), () => variant.verifySkillMdAsync(mdEntry(text, "other"), content));
  }
}

test("the async functions give the synchronous results and errors, with node:crypto, crypto.subtle and neither", { timeout: 600_000 }, async () => {
  assert.equal(typeof globalThis.crypto?.subtle?.digest, "function", "Node has crypto.subtle");
  const { nodeCrypto, NODE_DIGEST_THRESHOLD, PRECHECK_THRESHOLD } = await platformDigests();
  assert.deepEqual([NODE_DIGEST_THRESHOLD, PRECHECK_THRESHOLD], [NODE_THRESHOLD, PRECHECK]);
  const variants = {
    exported,
    "node:crypto at every size": await asyncWith({ subtle: () => nodeCrypto, threshold: 0 }),
    "node:crypto, size checked first, at every size": await asyncWith({ subtle: () => nodeCrypto, threshold: 0, precheck: 0 }),
    "crypto.subtle at every size": await asyncWith({ threshold: 0 }),
    "no platform digest": await asyncWith({ subtle: () => undefined }),
  };
  let seed = 100;
  for (const n of SIZES) {
    const bytes = randomBytes(n, seed++);
    const text = textOf(n, seed++);
    assert.equal(Buffer.byteLength(text), n);
    for (const [name, variant] of Object.entries(variants)) {
      // From 1 MiB less a byte on, the exported functions take the node:crypto path like the
      // forced ones: read results and SKILL.md files of that size are checked once, through them.
      const deep = n < PRECHECK - 1 || variant === exported;
      await agreeOn(variant, `${name}, bytes`, bytes, deep);
      await agreeOn(variant, `${name}, text`, text, deep);
    }
  }
});

test("byte arrays of every kind hash alike on every path", async () => {
  const { nodeCrypto } = await platformDigests();
  const subtle = await asyncWith({ threshold: 0 });
  const node = await asyncWith({ subtle: () => nodeCrypto, threshold: 0 });
  const base = randomBytes(3 * CHUNK + 100, 7);
  const shared = new Uint8Array(new SharedArrayBuffer(CHUNK + 3));
  shared.set(base.subarray(0, CHUNK + 3));
  const cases = {
    "a view into the middle of a buffer": base.subarray(37, 37 + 2 * CHUNK + 5),
    "a pooled Buffer (non-zero byteOffset)": Buffer.from(base.subarray(0, 100)),
    "a Buffer over the whole array": Buffer.from(base.buffer, base.byteOffset, base.length),
    "a SharedArrayBuffer view (crypto.subtle refuses it; WebAssembly or node:crypto hashes it)": shared,
    "a Uint8Array with a lying own length": Object.defineProperty(base.slice(0, CHUNK + 1), "length", { value: 1 }),
    "lone surrogates in text": "\ud800a\udfffb\ud83d",
  };
  for (const [what, content] of Object.entries(cases)) {
    const real = typeof content === "string" ? Buffer.from(content, "utf8") : Buffer.from(content.buffer, content.byteOffset, content.byteLength);
    const expected = sha(real);
    assert.equal(sha256Digest(content), expected, what);
    assert.equal(await sha256DigestAsync(content), expected, what);
    const uri = "skill://k/x";
    const entry = { uri: "skill://k/SKILL.md", frontmatter: { name: "k", description: "d" }, resources: [{ uri: "skill://k/SKILL.md", digest: expected, size: 1 }, { uri, digest: expected, size: real.length }] };
    for (const forced of [subtle, node]) {
      assert.equal(await forced.sha256DigestAsync(content), expected, what);
      assert.deepEqual(await forced.verifyFileAsync(entry, uri, content), verifyFile(entry, uri, content), what);
    }
  }
});

for (const platform of ["crypto.subtle", "node:crypto"]) test(`the async functions refuse a wrong size or an unlisted file before hashing (verifyFileAsync from its precheck size), and fall back when ${platform} fails`, async () => {
  const { nodeCrypto } = await platformDigests();
  const digester = platform === "node:crypto" ? nodeCrypto : globalThis.crypto.subtle;
  let calls = 0;
  const spy = { digest: (alg, data) => { calls++; return digester.digest(alg, data); } };
  const counted = await asyncWith({ threshold: 0, precheck: CHUNK, subtle: () => spy });
  const bytes = randomBytes(CHUNK + 1, 3);
  const uri = "skill://s/x";
  const entry = { uri: "skill://s/SKILL.md", frontmatter: { name: "s", description: "d" }, resources: [{ uri: "skill://s/SKILL.md", digest: sha(bytes), size: 1 }, { uri, digest: sha(bytes), size: bytes.length }] };
  const refusals = async (verifier, content) => {
    await assert.rejects(verifier.verifyFileAsync(entry, uri, content), (e) => e.code === "size-mismatch");
    await assert.rejects(verifier.verifyFileAsync(entry, "skill://s/y", content), (e) => e.code === "not-in-manifest");
    await assert.rejects(verifier.verifyFileAsync({ uri: 1 }, uri, content), (e) => e.code === "invalid-entry");
  };
  await refusals(counted, bytes.subarray(1)); // CHUNK bytes: at the precheck size
  await assert.rejects(counted.verifyReadResultAsync(entry, uri, { contents: [{ uri, blob: toBase64(bytes.subarray(1)) }] }), (e) => e.code === "size-mismatch");
  assert.equal(calls, 0, `${platform} was called`);
  assert.equal((await counted.verifyFileAsync(entry, uri, bytes)).verified, true);
  assert.equal(calls, 1);
  // Below the precheck size the platform hashes first, and the same errors follow.
  calls = 0;
  await refusals(counted, bytes.subarray(2));
  assert.equal(calls, 3);
  // A digest that fails is no verdict: the WebAssembly path decides.
  const failing = await asyncWith({ threshold: 0, subtle: () => ({ digest: async () => { throw new Error("unavailable"); } }) });
  assert.deepEqual(await failing.verifyFileAsync(entry, uri, bytes), verifyFile(entry, uri, bytes));
  assert.equal(await failing.sha256DigestAsync(bytes), sha(bytes));
  // Argument errors name the async function.
  await assert.rejects(sha256DigestAsync(5), (e) => e.code === "invalid-argument" && e.message.startsWith("sha256DigestAsync: content "));
  await assert.rejects(verifyFileAsync(5, uri, bytes), (e) => e.code === "invalid-entry" && e.message.startsWith("verifyFileAsync: entry "));
  await assert.rejects(counted.verifyFileAsync(entry, uri, bytes, { allowDynamc: true }), (e) => e.code === "invalid-argument" && e.message.startsWith("verifyFileAsync: options "));
});
