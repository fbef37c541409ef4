// Headless Chromium: the async functions of the package's ES module entry point against the
// synchronous ones (async-page.mjs), on the two origins of chromium.mjs:
// * http://127.0.0.1:<port>/: a secure context, so crypto.subtle exists and the async
//   functions hash with it (its calls are counted);
// * http://skills-edge.test:<port>/: plain http, no crypto.subtle: the WebAssembly fallback.
// Either way every async result and error equals the synchronous one, every digest equals
// node:crypto's over the same bytes, and hashing 16 MiB leaves the module's memory as it was
// (and smaller than the array); and SkillsClient of the web build, as exported and with
// crypto.subtle at every size, gives the results and errors of one hashing in WebAssembly.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { PKG, HOST, TYPES, resultPage, script, webFile, startServer, visit } from "./chromium.mjs";
import { SIZES, randomBytes, seeds, textOf } from "./bytes.mjs";

const PAGE = resultPage("skills-edge: async verifier functions", "/async-page.mjs");

let server;
let port;
let requests;

before(async () => {
  assert.ok(existsSync(join(PKG, "lib", "index.js")), `the ES module layer is in ${PKG}`);
  server = await startServer((path) => {
    if (path === "/") return [PAGE, TYPES[".html"]];
    if (path === "/async-page.mjs") return script("async-page.mjs");
    if (path === "/bytes.mjs") return script("bytes.mjs");
    return webFile(path, "/pkg/web/") ?? webFile(path, "/pkg/lib/", "lib");
  });
  ({ port, requests } = server);
});

after(async () => {
  await server.close();
});

/** The digests node:crypto gives for the page's contents. */
function expectedDigests() {
  const out = {};
  for (const [i, n] of SIZES.entries()) {
    const [bytesSeed, textSeed] = seeds(i);
    for (const [kind, bytes] of [["bytes", randomBytes(n, bytesSeed)], ["text", Buffer.from(textOf(n, textSeed), "utf8")]]) {
      out[`${kind} ${n}`] = { size: bytes.length, digest: "sha256:" + createHash("sha256").update(bytes).digest("hex") };
    }
  }
  return out;
}

function checkPage(r) {
  assert.deepEqual(r.mismatches, []);
  // SkillsClient (web build): the same outcome with and without the platform digest.
  assert.deepEqual(r.client.mismatches, []);
  assert.deepEqual(r.client.codes, ["digest-mismatch", "size-mismatch", "verified", "verified", "verified", "verified", "verified"]);
  assert.equal(r.client.wasmOnlySubtleCalls, 0);
  assert.ok(r.checked > 400, `${r.checked} comparisons`);
  assert.deepEqual(r.digests, expectedDigests());
  assert.equal(r.memory.after, r.memory.before, "hashing 16 MiB grew the memory");
  assert.ok(r.memory.after < r.memory.array, `${r.memory.after} bytes of memory for a ${r.memory.array}-byte array`);
}

test("http://127.0.0.1 (crypto.subtle present): the async functions hash with it and agree", { timeout: 300_000 }, async (t) => {
  const r = await visit(`http://127.0.0.1:${port}/`);
  assert.equal(r.isSecureContext, true);
  assert.equal(r.subtle, "object");
  t.diagnostic(`${r.checked} comparisons; crypto.subtle.digest called ${r.subtleCalls} times, ${r.client.subtleCalls} of them by SkillsClient`);
  checkPage(r);
  assert.ok(r.subtleCalls > 50, `crypto.subtle.digest was called ${r.subtleCalls} times`);
  // As exported: the SKILL.md, 64k, 1m, blob and changed files (each from 32 KiB; resized.md is
  // refused for its size before hashing), then every fetched file when forced.
  assert.ok(r.client.subtleCalls >= 10, `SkillsClient called crypto.subtle.digest ${r.client.subtleCalls} times`);
  assert.ok(requests.includes(`127.0.0.1:${port} /pkg/lib/async-verifier.js`), requests.join("\n"));
});

test("plain http (no crypto.subtle): the async functions fall back to WebAssembly and agree", { timeout: 300_000 }, async (t) => {
  const r = await visit(`http://${HOST}:${port}/`);
  assert.equal(r.isSecureContext, false);
  assert.equal(r.subtle, "undefined");
  t.diagnostic(`${r.checked} comparisons`);
  checkPage(r);
  assert.equal(r.subtleCalls, 0);
  assert.equal(r.client.subtleCalls, 0);
});
