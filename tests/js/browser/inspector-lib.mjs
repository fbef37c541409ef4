// Shared by the inspector page's browser tests (inspector.test.mjs, tests/e2e/client.test.mjs):
// a static server for the package's files, the keyboard-only run of the page through WebDriver,
// and what SkillsClient.verify() says about the same server, in the page's terms.
import assert from "node:assert/strict";
import { existsSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { join, normalize, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { PKG, REPO, TYPES } from "./chromium.mjs";
import { KEY } from "./webdriver.mjs";

const { SkillsClient } = await import(pathToFileURL(join(PKG, "lib", "client-node.js")).href);

export const SHOTS = process.env.SKILLS_EDGE_SCREENSHOTS ?? join(process.env.CARGO_TARGET_DIR ?? join(REPO, "target"), "screenshots");

const CSS_TYPE = { ".css": "text/css; charset=utf-8" };

/** Serves the installed package's files (the page, its module, lib/ and web/) at their package paths. */
export async function servePackage() {
  const server = createServer((req, res) => {
    let path = new URL(req.url, "http://x").pathname;
    if (path.endsWith("/")) path += "index.html";
    const file = normalize(join(PKG, path));
    if (!file.startsWith(PKG + sep) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    const ext = file.slice(file.lastIndexOf("."));
    res.writeHead(200, { "content-type": TYPES[ext] ?? CSS_TYPE[ext] ?? "application/octet-stream", "cache-control": "no-store" });
    res.end(readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: server.address().port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}

/**
 * Opens the page on a plain-http origin, types `url` into it with the keyboard only, submits
 * with Enter and waits for the outcome. Returns what the page shows.
 */
export async function inspect(browser, pageUrl, url) {
  await browser.goto(pageUrl);
  await browser.until(() => document.readyState === "complete" && document.getElementById("status"));
  for (let i = 0; i < 8 && (await browser.focused()) !== "url"; i++) await browser.press(KEY.TAB);
  assert.equal(await browser.focused(), "url", "the URL field is reached with Tab");
  await browser.type(url);
  await browser.press(KEY.ENTER);
  const status = await browser.until(
    () => {
      const t = document.getElementById("status").textContent;
      return /^(Done|Failed)/.test(t) && t;
    },
    { timeoutMs: 90_000, what: "the verification" },
  );
  const page = await browser.run(() => ({
    secure: window.isSecureContext,
    subtle: typeof (globalThis.crypto && crypto.subtle),
    focused: document.activeElement && document.activeElement.id,
    text: document.body.innerText,
    skills: [...document.querySelectorAll("#skills tbody tr")].map((tr) => ({
      uri: tr.querySelector(".uri").textContent,
      status: tr.lastElementChild.textContent,
    })),
    files: [...document.querySelectorAll("#details tbody tr")].map((tr) => ({
      uri: tr.querySelector(".uri").textContent,
      status: tr.querySelector(".status").textContent,
      code: tr.querySelector(".reason strong")?.textContent ?? null,
      facts: [...tr.querySelectorAll(".reason dt")].map((dt) => [dt.textContent, dt.nextElementSibling.textContent]),
    })),
  }));
  return { status, ...page };
}

/** What SkillsClient.verify() says about `url`, in the page's terms. */
export async function expectedOf(url) {
  const c = await SkillsClient.connect(url);
  const report = await c.verify();
  c.close();
  return {
    report,
    skills: report.skills.map((s) => ({ uri: s.skill, status: s.status })),
    files: report.skills.flatMap((s) => s.checks.map((k) => ({ uri: k.uri, status: k.status, code: k.code ?? null }))),
  };
}

