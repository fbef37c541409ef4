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
import { execFile } from "node:child_process";
import { createServer } from "node:http";
import { mkdtempSync, readFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const PKG = process.env.SKILLS_EDGE_PKG ?? join(here, "..", "..", "..", "pkg");
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const HOST = "skills-edge.test";

const TYPES = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".html": "text/html; charset=utf-8" };
const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>skills-edge in the browser</title></head>
<body><pre id="result">PENDING</pre><script type="module" src="/page.mjs"></script></body></html>`;

/** The README's browser example (the HTML block after `<!-- example: browser -->`). */
function readmeExample() {
  const readme = readFileSync(join(PKG, "README.md"), "utf8");
  const m = readme.match(/<!-- example: browser -->\s*```html\n([\s\S]*?)```/);
  assert.ok(m, "the README has a browser example");
  return m[1];
}

let server;
let port;
const requests = [];

before(async () => {
  assert.ok(existsSync(join(PKG, "web", "skills_edge_bg.wasm")), `the web build is in ${PKG}`);
  server = createServer((req, res) => {
    const path = new URL(req.url, "http://x").pathname;
    requests.push(`${req.headers.host} ${path}`);
    let body;
    let type;
    if (path === "/") {
      [body, type] = [PAGE, TYPES[".html"]];
    } else if (path === "/readme/") {
      [body, type] = [readmeExample(), TYPES[".html"]];
    } else if (path.startsWith("/node_modules/skills-edge/web/")) {
      const file = normalize(join(PKG, "web", path.slice("/node_modules/skills-edge/web/".length)));
      if (file.startsWith(join(PKG, "web") + sep) && existsSync(file)) {
        [body, type] = [readFileSync(file), TYPES[file.slice(file.lastIndexOf("."))] ?? "application/octet-stream"];
      }
    } else if (path === "/page.mjs") {
      [body, type] = [readFileSync(join(here, "page.mjs")), TYPES[".mjs"]];
    } else if (path.startsWith("/pkg/web/")) {
      const file = normalize(join(PKG, "web", path.slice("/pkg/web/".length)));
      if (file.startsWith(join(PKG, "web") + sep) && existsSync(file)) {
        [body, type] = [readFileSync(file), TYPES[file.slice(file.lastIndexOf("."))] ?? "application/octet-stream"];
      }
    }
    if (body === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": type, "cache-control": "no-store" }).end(body);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = server.address().port;
});

after(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** Loads `url` in headless Chromium (a fresh profile each time) and returns the DOM. */
async function dump(url) {
  const profile = mkdtempSync(join(tmpdir(), "skills-edge-chromium-"));
  try {
    const { stdout } = await run(CHROMIUM, [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
      "--disable-quic", "--no-first-run", "--no-default-browser-check",
      `--user-data-dir=${profile}`,
      `--host-resolver-rules=MAP ${HOST} 127.0.0.1`,
      "--virtual-time-budget=20000", "--dump-dom", url,
    ], { timeout: 90_000, maxBuffer: 16 << 20 });
    return stdout;
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

/** Visits page.mjs's page and returns its JSON outcome. */
async function visit(url) {
  const stdout = await dump(url);
  const m = stdout.match(/<pre id="result">(RESULT|ERROR) ([\s\S]*?)<\/pre>/);
  assert.ok(m, `no result in the page:\n${stdout.slice(0, 2000)}`);
  const text = m[2].replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
  assert.equal(m[1], "RESULT", text);
  return JSON.parse(text);
}

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
