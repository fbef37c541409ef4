// Headless Chromium on plain-http pages: the package's web build (from the installed tarball
// when SKILLS_EDGE_PKG is set, else pkg/) is loaded with an explicit init, an in-page
// SkillsServer serves the embedded skills, and SkillHost verifies them (page.mjs).
//
// Two origins, both served by one node:http server bound to 127.0.0.1:
// * http://127.0.0.1:<port>/ — Chromium counts loopback as potentially trustworthy, so
//   crypto.subtle exists there; the page replaces it with a getter that throws and records
//   any use, which proves the verifier does not touch it;
// * http://skills-edge.test:<port>/ — the same server, reached through a host-resolver rule:
//   not a secure context, so crypto.subtle is genuinely absent, as on any plain-http site.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { PKG, HOST, TYPES, resultPage, script, webFile, startServer, dump, visit } from "./chromium.mjs";

const PAGE = resultPage("skills-edge in the browser", "/page.mjs");

/** The README's browser example (the HTML block after `<!-- example: browser -->`). */
function readmeExample() {
  const readme = readFileSync(join(PKG, "README.md"), "utf8");
  const m = readme.match(/<!-- example: browser -->\s*```html\n([\s\S]*?)```/);
  assert.ok(m, "the README has a browser example");
  return m[1];
}

let server;
let port;
let requests;

before(async () => {
  assert.ok(existsSync(join(PKG, "web", "skills_edge_bg.wasm")), `the web build is in ${PKG}`);
  server = await startServer((path) => {
    if (path === "/") return [PAGE, TYPES[".html"]];
    if (path === "/readme/") return [readmeExample(), TYPES[".html"]];
    if (path === "/page.mjs") return script("page.mjs");
    return webFile(path, "/node_modules/skills-edge/web/") ?? webFile(path, "/pkg/web/");
  });
  ({ port, requests } = server);
});

after(async () => {
  await server.close();
});

function checkPage(r) {
  assert.equal(r.declared, true);
  assert.ok(r.skills.includes("code-review"), r.skills.join(", "));
  assert.equal(r.loaded.name, "code-review");
  assert.equal(r.loaded.serverLabel, "page");
  assert.match(r.loaded.digest, /^sha256:[0-9a-f]{64}$/);
  assert.deepEqual(r.read, { uri: "skill://code-review/references/checklist.md", size: 65, verified: true });
  assert.deepEqual(r.blob, { bytes: r.blob.bytes, text: true, digestAgrees: true });
  assert.ok(r.blob.bytes > 0);
  const refused = (x, code) => {
    assert.equal(typeof x, "object", `${code}: ${JSON.stringify(x)}`);
    assert.equal(x.code, code);
    assert.equal(x.name, "SkillsEdgeError");
    assert.equal(x.isError, true);
  };
  refused(r.tamperedByte, "digest-mismatch");
  assert.equal(r.tamperedByte.uri, "skill://code-review/SKILL.md");
  assert.equal(r.tamperedByte.expected, r.loaded.digest);
  refused(r.wrongSize, "size-mismatch");
  assert.equal(r.wrongSize.expected, String(r.loaded.size));
  assert.equal(r.wrongSize.actual, String(r.loaded.size + 1));
  refused(r.changedFrontmatter, "frontmatter-mismatch");
  assert.equal(r.changedFrontmatter.field, "description");
  assert.equal(r.changedFrontmatter.actual, '"Exfiltrate credentials"');
  refused(r.unlisted, "not-in-manifest");
  assert.equal(r.unlisted.uri, "skill://code-review/references/unlisted.md");
  refused(r.escape, "escapes-root");
  assert.equal(r.errorsAreTyped, true);
  assert.equal(r.stillActive, true);
  assert.equal(r.subtleTouched, false, "the verifier used crypto.subtle");
}

test("http://127.0.0.1: verified without crypto.subtle (any use would throw)", { timeout: 120_000 }, async (t) => {
  const r = await visit(`http://127.0.0.1:${port}/`);
  assert.equal(r.origin, `http://127.0.0.1:${port}`);
  t.diagnostic(`isSecureContext ${r.isSecureContext}; crypto.subtle was ${r.subtle} before the page replaced it`);
  checkPage(r);
});

test("plain http on a non-loopback name: no crypto.subtle at all", { timeout: 120_000 }, async (t) => {
  const r = await visit(`http://${HOST}:${port}/`);
  assert.equal(r.origin, `http://${HOST}:${port}`);
  assert.equal(r.isSecureContext, false);
  assert.equal(r.subtle, "undefined");
  t.diagnostic(`isSecureContext ${r.isSecureContext}; crypto.subtle ${r.subtle}`);
  checkPage(r);
  assert.ok(requests.includes(`${HOST}:${port} /pkg/web/skills_edge_bg.wasm`), requests.join("\n"));
});

test("the README's web-host example runs on a plain-http page", { timeout: 120_000 }, async () => {
  const dom = await dump(`http://${HOST}:${port}/readme/`);
  const log = dom.match(/<pre id="log">([\s\S]*?)<\/pre>/);
  assert.ok(log, dom.slice(0, 2000));
  assert.match(log[1], /^loaded code-review \(\d+ bytes, sha256:[0-9a-f]{64}\)$/m);
  assert.match(log[1], /^refused: digest-mismatch$/m);
  assert.match(log[1], /^verified by hand: true$/m);
});
