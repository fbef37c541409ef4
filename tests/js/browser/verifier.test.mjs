// Headless Chromium on a plain-http page that only verifies: the page imports the package's
// verifier module by its bare name, `skills-edge/verifier` (an import map points it at the file
// the package's `exports` give a browser), initialises it, and verifies skills a server
// published with SkillHost and verifyFile (verifier-page.mjs). The skills are the embedded ones,
// as the main module's SkillsServer serves them here in Node (/data.json).
//
// The node:http server of chromium.mjs serves the package's verifier/ folder only, and sends
// .wasm files gzipped (gzip -9) when the browser accepts it, as a web server would; the test
// checks that the page fetched one .wasm, the verifier's, and that the bytes it fetched stay
// within the verifier module's bound (tests/lib/size-bounds.mjs).
//
// The page is visited on http://skills-edge.test:<port>/ (see chromium.mjs): not a secure
// context, so crypto.subtle is absent and all hashing is the module's own.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { PKG, HOST, TYPES, script, startServer, visit, webFile } from "./chromium.mjs";
import { VERIFIER_WASM_GZIP_MAX } from "../../lib/size-bounds.mjs";

const PREFIX = "/node_modules/skills-edge/";
const WASM = "verifier/web/skills_edge_verifier_bg.wasm";
const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const READS = ["skill://code-review/SKILL.md", "skill://code-review/references/checklist.md", "skill://diagram-style/assets/palette.png"];

/**
 * The file `exports[subpath]` gives a browser or a bundler (conditions `browser`, `import`,
 * `default`, in the map's order), relative to the package.
 */
function browserTarget(exports, subpath) {
  let target = exports[subpath];
  while (target !== null && typeof target === "object") {
    const key = Object.keys(target).find((k) => ["browser", "import", "default"].includes(k));
    assert.ok(key, `${subpath}: no browser, import or default condition in ${JSON.stringify(target)}`);
    target = target[key];
  }
  assert.equal(typeof target, "string", subpath);
  return target.replace(/^\.\//, "");
}

/** A skills/list result with every entry, and the resources/read results of READS. */
function publish() {
  const { SkillsServer } = createRequire(import.meta.url)(join(PKG, "node", "skills_edge.js"));
  const server = new SkillsServer({ pageSize: 3 });
  let id = 1;
  const call = (method, params) => server.handle({ jsonrpc: "2.0", id: id++, method, params: { ...params, _meta: META } }).result;
  const skills = [];
  let cursor;
  do {
    const page = call("skills/list", cursor === undefined ? {} : { cursor });
    skills.push(...page.skills);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  const reads = Object.fromEntries(READS.map((uri) => [uri, call("resources/read", { uri })]));
  return { listing: { skills }, reads };
}

let server;
let port;
let requests;
let sent;
let data;
const wasmGzip = () => gzipSync(readFileSync(join(PKG, WASM)), { level: 9 });

before(async () => {
  assert.ok(existsSync(join(PKG, WASM)), `the verifier module is in ${PKG}`);
  const pkg = JSON.parse(readFileSync(join(PKG, "package.json"), "utf8"));
  const entry = browserTarget(pkg.exports, "./verifier");
  assert.equal(entry, "verifier/web/skills_edge_verifier.js");
  const page = `<!doctype html>
<html><head><meta charset="utf-8"><title>skills-edge/verifier in the browser</title>
<script type="importmap">${JSON.stringify({ imports: { "skills-edge/verifier": PREFIX + entry } })}</script>
</head><body><pre id="result">PENDING</pre><script type="module" src="/verifier-page.mjs"></script></body></html>`;
  data = JSON.stringify(publish());
  server = await startServer((path, req) => {
    if (path === "/") return [page, TYPES[".html"]];
    if (path === "/verifier-page.mjs") return script("verifier-page.mjs");
    if (path === "/data.json") return [data, "application/json"];
    // The verifier module's folder, and nothing else of the package.
    const found = webFile(path, `${PREFIX}verifier/`, "verifier");
    if (found && path.endsWith(".wasm") && /\bgzip\b/.test(req.headers["accept-encoding"] ?? "")) {
      return [gzipSync(found[0], { level: 9 }), found[1], { "content-encoding": "gzip" }];
    }
    return found;
  });
  ({ port, requests, sent } = server);
});

after(async () => {
  await server?.close();
});

test("a plain-http page verifies skills with skills-edge/verifier alone", { timeout: 120_000 }, async (t) => {
  const r = await visit(`http://${HOST}:${port}/`);
  assert.equal(r.origin, `http://${HOST}:${port}`);
  assert.equal(r.isSecureContext, false);
  assert.equal(r.subtle, "undefined");
  // The module's exports: the host part, its initialisers, and no server, compiler or client.
  assert.ok(r.exports.includes("SkillHost") && r.exports.includes("verifyFile") && r.exports.includes("default"), r.exports.join(", "));
  for (const name of ["SkillsServer", "compileCatalog", "SkillsClientCore"]) assert.equal(r.exports.includes(name), false, name);

  const { listing, reads } = JSON.parse(data);
  assert.equal(r.registered, listing.skills.length);
  assert.equal(r.rejected, 0);
  const md = listing.skills.find((s) => s.uri === "skill://code-review/SKILL.md");
  const item = (entry, uri) => entry.resources.find((x) => x.uri === uri);
  assert.deepEqual(r.loaded, { name: "code-review", ...pick(item(md, md.uri)), verified: true });
  const checklist = "skill://code-review/references/checklist.md";
  assert.deepEqual(r.read, { uri: checklist, ...pick(item(md, checklist)), verified: true });
  const png = "skill://diagram-style/assets/palette.png";
  const diagram = listing.skills.find((s) => s.uri === "skill://diagram-style/SKILL.md");
  assert.deepEqual(r.blob, { uri: png, ...pick(item(diagram, png)), verified: true, digestAgrees: true });
  assert.equal(r.blob.size, Buffer.from(reads[png].contents[0].blob, "base64").length);

  const refused = (x, code, uri) => {
    assert.equal(typeof x, "object", `${code}: ${JSON.stringify(x)}`);
    assert.equal(x.code, code);
    assert.equal(x.name, "SkillsEdgeError");
    assert.equal(x.isError, true);
    assert.equal(x.uri, uri);
  };
  refused(r.tamperedByte, "digest-mismatch", png);
  assert.equal(r.tamperedByte.expected, item(diagram, png).digest);
  assert.notEqual(r.tamperedByte.actual, r.tamperedByte.expected);
  refused(r.tamperedRead, "digest-mismatch", checklist);
  refused(r.unlisted, "not-in-manifest", "skill://code-review/references/unlisted.md");
  assert.equal(r.errorsAreTyped, true);

  // What the page fetched of the package: the verifier's glue and .wasm, nothing else.
  const fetched = sent.filter((s) => s.path.startsWith(PREFIX));
  assert.deepEqual(fetched.map((s) => s.path).sort(), [`${PREFIX}verifier/web/skills_edge_verifier.js`, PREFIX + WASM], requests.join("\n"));
  const wasm = fetched.find((s) => s.path === PREFIX + WASM);
  const glue = fetched.find((s) => s.path !== PREFIX + WASM);
  t.diagnostic(`the page fetched ${wasm.bytes} bytes of .wasm (gzip -9; bound ${VERIFIER_WASM_GZIP_MAX}) and ${glue.bytes} bytes of glue (uncompressed)`);
  assert.equal(wasm.bytes, wasmGzip().length, "the .wasm went out gzipped (the browser accepts gzip)");
  assert.ok(wasm.bytes <= VERIFIER_WASM_GZIP_MAX, `the page fetched ${wasm.bytes} bytes of .wasm, above the bound of ${VERIFIER_WASM_GZIP_MAX}`);
});

/** The size and digest of a manifest item. */
function pick({ size, digest }) {
  return { size, digest };
}
