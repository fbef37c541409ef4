// Shared by the browser tests (browser.test.mjs, pack.test.mjs, verifier.test.mjs, …): a
// node:http server bound to 127.0.0.1 that serves a test's routes and the package's web build
// (from the installed tarball when SKILLS_EDGE_PKG is set, else pkg/), and headless Chromium (a
// fresh profile each time) that loads a page and hands back its DOM.
//
// Chromium resolves HOST to 127.0.0.1 through a host-resolver rule, so the same server is also
// reachable on an origin that is not a secure context: crypto.subtle is genuinely absent there,
// as on any plain-http site.
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
export const REPO = process.env.SKILLS_EDGE_REPO ?? join(here, "..", "..", "..");
export const PKG = process.env.SKILLS_EDGE_PKG ?? join(here, "..", "..", "..", "pkg");
export const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
export const HOST = "skills-edge.test";

export const TYPES = {
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".wasm": "application/wasm",
  ".html": "text/html; charset=utf-8",
};

/** A page whose module script `src` writes its outcome into `<pre id="result">`. */
export function resultPage(title, src) {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${title}</title></head>
<body><pre id="result">PENDING</pre><script type="module" src="${src}"></script></body></html>`;
}

/** A script of this folder, as a route body. */
export function script(name) {
  return [readFileSync(join(here, name)), TYPES[".mjs"]];
}

/**
 * The file of the package's folder `dir` (default: the web build, `web`) that `path` names
 * below `prefix` (e.g. "/pkg/web/"), as a route body, or `undefined` when there is none (or it
 * is outside it).
 */
export function webFile(path, prefix, dir = "web") {
  if (!path.startsWith(prefix)) return undefined;
  const file = normalize(join(PKG, dir, path.slice(prefix.length)));
  if (!file.startsWith(join(PKG, dir) + sep) || !existsSync(file)) return undefined;
  return [readFileSync(file), TYPES[file.slice(file.lastIndexOf("."))] ?? "application/octet-stream"];
}

/**
 * Starts the node:http server on 127.0.0.1 (a free port). `route(path, request)` returns
 * `[body, type]`, `[body, type, headers]` (more response headers, e.g. `content-encoding`) or
 * `undefined` (404). Every request is recorded as `"<host header> <path>"`, and the bytes of
 * every body sent as `{ path, bytes }` in `sent`.
 */
export async function startServer(route) {
  const requests = [];
  const sent = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url, "http://x").pathname;
    requests.push(`${req.headers.host} ${path}`);
    const found = route(path, req);
    if (found === undefined) {
      res.writeHead(404).end();
      return;
    }
    const [body, type, headers = {}] = found;
    sent.push({ path, bytes: Buffer.byteLength(body) });
    res.writeHead(200, { "content-type": type, "cache-control": "no-store", ...headers }).end(body);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: server.address().port,
    requests,
    sent,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * Loads `url` in headless Chromium (a fresh profile each time) and returns the DOM. Chromium
 * is killed if it has not finished within 90 s.
 */
export async function dump(url) {
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

/** Visits a `resultPage` and returns its JSON outcome (failing on `ERROR` or no outcome). */
export async function visit(url) {
  const stdout = await dump(url);
  const m = stdout.match(/<pre id="result">(RESULT|ERROR) ([\s\S]*?)<\/pre>/);
  assert.ok(m, `no result in the page:\n${stdout.slice(0, 2000)}`);
  const text = m[2].replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
  assert.equal(m[1], "RESULT", text);
  return JSON.parse(text);
}
