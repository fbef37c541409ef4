// A real browser against the Worker on real workerd: headless Chromium (Debian's `chromium`)
// loads a page from another loopback origin whose script calls the Worker with fetch().
// The Worker allows exactly one page origin (ALLOWED_ORIGINS); a second page, on another
// port, is a foreign origin. The allowed page gets through the CORS preflight and reads
// skills/list; the foreign page's preflight is refused (403), so its fetch fails and its
// POST never reaches the Worker.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { startWorker } from "./lib/worker.mjs";
import { spawnGroup, tail, tempDir } from "../lib/processes.mjs";

const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const V = "2026-07-28";

let worker;
const pages = {};
const dir = tempDir("browser");

/** The page: one fetch() to the Worker, its outcome written into <pre id="out">. */
function pageHtml(workerUrl) {
  const message = {
    jsonrpc: "2.0",
    id: 1,
    method: "skills/list",
    params: {
      _meta: {
        "io.modelcontextprotocol/protocolVersion": V,
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    },
  };
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>skills-edge browser test</title></head>
<body><pre id="out">PENDING</pre>
<script>
(async () => {
  const out = document.getElementById("out");
  try {
    const res = await fetch(${JSON.stringify(workerUrl)}, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "accept": "application/json, text/event-stream",
        "mcp-protocol-version": ${JSON.stringify(V)},
        "mcp-method": "skills/list",
      },
      body: ${JSON.stringify(JSON.stringify(message))},
    });
    const body = await res.json();
    out.textContent = "RESULT " + JSON.stringify({
      status: res.status,
      skills: body.result ? body.result.skills.length : null,
      uris: body.result ? body.result.skills.map((s) => s.uri) : null,
    });
  } catch (e) {
    out.textContent = "ERROR " + e.name + ": " + e.message;
  }
})();
</script></body></html>`;
}

let html = "";

/** A page server on a free 127.0.0.1 port, serving the current `html`. */
function servePage() {
  return new Promise((resolve) => {
    const server = createServer((req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
      res.end(html);
    });
    server.listen(0, "127.0.0.1", () => resolve({ server, origin: `http://127.0.0.1:${server.address().port}` }));
  });
}

before(async () => {
  // Pages first: the Worker is configured with the allowed page's origin.
  pages.allowed = await servePage();
  pages.foreign = await servePage();
  worker = await startWorker({ vars: { ALLOWED_ORIGINS: pages.allowed.origin } });
  html = pageHtml(`${worker.origin}/mcp`);
});

after(async () => {
  await worker?.stop();
  for (const p of Object.values(pages)) {
    p.server.closeAllConnections();
    p.server.close();
  }
  rmSync(dir, { recursive: true, force: true });
});

/** Loads `url` in headless Chromium and returns the text of <pre id="out"> from the DOM. */
async function loadInChromium(url, name) {
  const profile = join(dir, `profile-${name}`);
  const outFile = join(dir, `${name}.html`);
  const logFile = join(dir, `${name}.log`);
  const args = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--no-first-run",
    `--user-data-dir=${profile}`,
    "--virtual-time-budget=10000",
    "--dump-dom",
    url,
  ];
  const started = Date.now();
  const proc = spawnGroup(CHROMIUM, args, { logFile, outFile });
  try {
    const done = await Promise.race([proc.exited, sleep(60_000, null, { ref: false })]);
    assert.ok(done, `chromium did not finish within 60 s:\n${tail(logFile)}`);
    console.log(`chromium ${name}: ${Date.now() - started} ms`);
  } finally {
    await proc.stop();
  }
  const dom = readFileSync(outFile, "utf8");
  const m = dom.match(/<pre id="out">([\s\S]*?)<\/pre>/);
  assert.ok(m, `no result in the DOM:\n${dom}\n${tail(logFile)}`);
  return m[1].replaceAll("&quot;", '"').replaceAll("&amp;", "&");
}

function requests(method) {
  const lines = readFileSync(worker.log, "utf8").split("\n");
  return lines.filter((l) => l.includes(`${method} /mcp`));
}

test("chromium is installed", () => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: run bash scripts/setup.sh`);
});

test("a page from the allowed origin calls the Worker through the preflight", async () => {
  const out = await loadInChromium(`${pages.allowed.origin}/`, "allowed");
  assert.match(out, /^RESULT /, out);
  const result = JSON.parse(out.slice("RESULT ".length));
  assert.equal(result.status, 200);
  assert.ok(result.skills > 0, out);
  assert.ok(result.uris.every((u) => u.startsWith("skill://")));
  // Custom headers make the browser preflight the POST; both reached the Worker.
  assert.ok(requests("OPTIONS").some((l) => / 204 /.test(l)), worker.logTail(20));
  assert.equal(requests("POST").filter((l) => / 200 /.test(l)).length, 1, worker.logTail(20));
});

test("a page from a foreign origin is refused at the preflight", async () => {
  const postsBefore = requests("POST").length;
  const out = await loadInChromium(`${pages.foreign.origin}/`, "foreign");
  assert.match(out, /^ERROR TypeError/, out);
  assert.ok(requests("OPTIONS").some((l) => / 403 /.test(l)), worker.logTail(20));
  assert.equal(requests("POST").length, postsBefore, "the foreign POST never reached the Worker");
});
