// The page of tests/js/browser/async.test.mjs: loads the package's ES module entry point
// (/pkg/lib/index.js: the web glue and the async functions), initialises it, and for every size
// of bytes.mjs, as bytes and as text, compares each async function with its synchronous twin:
// same value or same error (name, code, uri, expected, actual, field, message). It counts the
// calls of crypto.subtle.digest where the page has it, and checks that hashing 16 MiB does not
// grow the module's memory. The outcome goes into <pre id="result"> as JSON.
import { SIZES, randomBytes, seeds, textOf } from "/bytes.mjs";

const out = {
  origin: location.origin,
  isSecureContext: globalThis.isSecureContext,
  subtle: typeof globalThis.crypto?.subtle,
  subtleCalls: 0,
  digests: {},
  checked: 0,
  mismatches: [],
};
const result = document.getElementById("result");

if (globalThis.crypto?.subtle) {
  const subtle = globalThis.crypto.subtle;
  const digest = subtle.digest.bind(subtle);
  subtle.digest = (...args) => {
    out.subtleCalls++;
    return digest(...args);
  };
}

/** Structural equality of results: plain objects, arrays, Uint8Arrays, primitives. */
function equal(a, b) {
  if (a === b) return true;
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    if (!(a instanceof Uint8Array && b instanceof Uint8Array) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a).sort(), kb = Object.keys(b).sort();
  return equal(ka.join("\0"), kb.join("\0")) && ka.every((k) => equal(a[k], b[k]));
}

const errorFields = (e) => ({ name: e.name, code: e.code, uri: e.uri, expected: e.expected, actual: e.actual, field: e.field, message: String(e.message).replace(/^[A-Za-z0-9]+: /, "") });
function outcome(run) {
  try {
    return { value: run() };
  } catch (e) {
    return { error: errorFields(e) };
  }
}
async function outcomeAsync(run) {
  let promise;
  try {
    promise = run();
  } catch (e) {
    return { threw: String(e) };
  }
  try {
    return { value: await promise };
  } catch (e) {
    return { error: errorFields(e) };
  }
}
const brief = (o) => JSON.stringify(o, (k, v) => (v instanceof Uint8Array ? `Uint8Array(${v.length})` : typeof v === "string" && v.length > 200 ? `${v.slice(0, 60)}…(${v.length})` : v));

try {
  const pkg = await import("/pkg/lib/index.js");
  const wasm = await pkg.default(); // fetches /pkg/web/skills_edge_bg.wasm
  // First of all, 16 MiB hashed sync and async: the module's memory does not grow and stays
  // smaller than the array (later checks hash 16 MiB of text, which is copied whole).
  const big = randomBytes(16 << 20, 5);
  pkg.sha256Digest(big);
  const before = wasm.memory.buffer.byteLength;
  pkg.sha256Digest(big);
  await pkg.sha256DigestAsync(big);
  out.memory = { before, after: wasm.memory.buffer.byteLength, array: big.length };
  const bytesOf = (file) => (typeof file === "string" ? new TextEncoder().encode(file) : file);
  const same = async (label, sync, async) => {
    const expected = outcome(sync);
    const got = await outcomeAsync(async);
    out.checked++;
    if (!equal(got, expected)) out.mismatches.push(`${label}: ${brief(got)} != ${brief(expected)}`);
    return expected;
  };
  const md = "skill://big/SKILL.md";
  const uri = "skill://big/data.bin";
  const dynamic = { uri: md, frontmatter: { name: "big", description: "d" }, resources: "dynamic" };

  for (const [i, n] of SIZES.entries()) {
    const [bytesSeed, textSeed] = seeds(i);
    for (const [kind, file] of [["bytes", randomBytes(n, bytesSeed)], ["text", textOf(n, textSeed)]]) {
      const label = `${kind}, ${n} bytes`;
      const bytes = bytesOf(file);
      const digest = (await same(`${label}: sha256Digest`, () => pkg.sha256Digest(file), () => pkg.sha256DigestAsync(file))).value;
      out.digests[`${kind} ${n}`] = { size: bytes.length, digest };
      const entryWith = (item) => ({ uri: md, frontmatter: { name: "big", description: "d" }, resources: [{ uri: md, digest, size: 1 }, item] });
      const right = entryWith({ uri, digest, size: n });
      const wrongDigest = entryWith({ uri, digest: pkg.sha256Digest("other"), size: n });
      const wrongSize = entryWith({ uri, digest, size: n + 1 });
      for (const [what, entry, u, options] of [
        ["verified", right, uri], ["digest-mismatch", wrongDigest, uri], ["size-mismatch", wrongSize, uri],
        ["not-in-manifest", right, "skill://big/other.bin"], ["dynamic-not-allowed", dynamic, uri],
        ["allowDynamic", dynamic, uri, { allowDynamic: true }],
      ]) {
        await same(`${label}: verifyFile ${what}`, () => pkg.verifyFile(entry, u, file, options), () => pkg.verifyFileAsync(entry, u, file, options));
      }
      if (n >= 1 << 20) continue;
      let blob = "";
      for (let j = 0; j < bytes.length; j += 0x8000) blob += String.fromCharCode(...bytes.subarray(j, j + 0x8000));
      const result = kind === "text" ? { contents: [{ uri, mimeType: "text/plain", text: file }] } : { contents: [{ uri, blob: btoa(blob) }] };
      for (const [what, entry] of [["verified", right], ["digest-mismatch", wrongDigest], ["size-mismatch", wrongSize]]) {
        await same(`${label}: verifyReadResult ${what}`, () => pkg.verifyReadResult(entry, uri, result), () => pkg.verifyReadResultAsync(entry, uri, result));
      }
      const head = "---\nname: big\ndescription: A large SKILL.md.\n---\n";
      const text = head + "b".repeat(Math.max(0, n - head.length));
      const mdEntry = (description) => ({ uri: md, frontmatter: { name: "big", description }, resources: [{ uri: md, digest: pkg.sha256Digest(text), size: new TextEncoder().encode(text).length }] });
      const tampered = text.slice(0, -1) + (text.endsWith("b") ? "c" : "b");
      for (const content of [text, new TextEncoder().encode(text)]) {
        const k = typeof content === "string" ? "text" : "bytes";
        await same(`${label}: verifySkillMd ${k}`, () => pkg.verifySkillMd(mdEntry("A large SKILL.md."), content), () => pkg.verifySkillMdAsync(mdEntry("A large SKILL.md."), content));
        await same(`${label}: verifySkillMd ${k} tampered`, () => pkg.verifySkillMd(mdEntry("A large SKILL.md."), tampered), () => pkg.verifySkillMdAsync(mdEntry("A large SKILL.md."), tampered));
        await same(`${label}: verifySkillMd ${k} frontmatter`, () => pkg.verifySkillMd(mdEntry("other"), content), () => pkg.verifySkillMdAsync(mdEntry("other"), content));
      }
    }
  }

  // SkillsClient of the web build (client-web.js: crypto.subtle from 32 KiB where the page has
  // it) and one forced to crypto.subtle at every size, against one hashing in WebAssembly only,
  // over an in-page SkillsServer behind a fake SDK client that changes a byte of one file and
  // the size of another: every load and read gives the same result or error.
  const { SkillsClient } = await import("/pkg/lib/client-web.js");
  const { makeSkillsClient } = await import("/pkg/lib/client.js");
  const { ioDigest, platformSubtle } = await import("/pkg/lib/async-verifier.js");
  const KiB = 1024;
  const lines = (n, seed) => {
    let t = "";
    while (t.length < n) t += `${seed} ${t.length} ${"0123456789".repeat(4)}\n`;
    return t.slice(0, n - 1) + "\n";
  };
  const skillMd = (name, n) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n\n${lines(n, name)}`;
  const files = [
    { path: "big/SKILL.md", bytes: skillMd("big", 40 * KiB) },
    { path: "big/small.md", bytes: lines(500, "small") },
    { path: "big/64k.md", bytes: lines(64 * KiB, "64k") },
    { path: "big/1m.md", bytes: lines(1024 * KiB, "1m") },
    { path: "big/blob.bin", bytes: randomBytes(300 * KiB, 9) },
    { path: "big/changed.md", bytes: lines(48 * KiB, "changed") },
    { path: "big/resized.md", bytes: lines(36 * KiB, "resized") },
  ];
  const server = new pkg.SkillsServer({ pack: pkg.compileCatalog(files).pack });
  const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
  let id = 0;
  const sdk = {
    getNegotiatedProtocolVersion: () => "2026-07-28",
    getServerCapabilities: () => server.handle({ jsonrpc: "2.0", id: 0, method: "server/discover", params: { _meta: meta } }).result.capabilities,
    async request({ method, params }) {
      const reply = server.handle({ jsonrpc: "2.0", id: ++id, method, params: { ...params, _meta: meta } });
      if (reply.error) throw Object.assign(new Error(reply.error.message), { code: reply.error.code });
      const r = reply.result;
      for (const e of [...(r.skills ?? []), ...(r.skill ? [r.skill] : [])]) {
        for (const f of e.resources ?? []) if (f.uri.endsWith("/resized.md")) f.size += 1;
      }
      for (const c of r.contents ?? []) if (c.uri.endsWith("/changed.md")) c.text = c.text.replace("changed", "CHANGED");
      return r;
    },
  };
  let subtleDuring = out.subtleCalls;
  const walk = async (Client) => {
    const c = await Client.wrap(sdk, { label: "page" });
    const steps = [];
    try {
      const listing = await c.list();
      for (const s of listing.skills) {
        steps.push(await outcomeAsync(() => c.load(s.uri)));
        for (const f of s.entry.resources) if (f.uri !== s.uri) steps.push(await outcomeAsync(() => c.read(s, f.uri)));
      }
    } finally {
      c.close();
    }
    return steps;
  };
  const wasmOnly = await walk(makeSkillsClient(pkg, async () => {}, () => undefined));
  subtleDuring = out.subtleCalls - subtleDuring;
  out.client = {
    wasmOnlySubtleCalls: subtleDuring,
    codes: wasmOnly.map((o) => o.error?.code ?? (o.value?.verified ? "verified" : "?")).sort(),
    mismatches: [],
  };
  const subtleBefore = out.subtleCalls;
  for (const [name, Client] of [["as exported", SkillsClient], ["crypto.subtle at every size", makeSkillsClient(pkg, async () => {}, () => ioDigest(platformSubtle(), 0))]]) {
    const got = await walk(Client);
    if (!equal(got, wasmOnly)) out.client.mismatches.push(`${name}: ${brief(got)} != ${brief(wasmOnly)}`);
  }
  out.client.subtleCalls = out.subtleCalls - subtleBefore;

  result.textContent = "RESULT " + JSON.stringify(out);
} catch (e) {
  result.textContent = "ERROR " + (e && e.stack ? e.stack : String(e)) + " " + JSON.stringify(out);
}
