// A small W3C WebDriver client for the browser tests that need to drive a page the way a user
// does (the keyboard), wait for it, read its text and take screenshots: Debian's chromedriver
// on a free 127.0.0.1 port, driving headless Chromium with a fresh profile. Chromium resolves
// `HOST` (chromium.mjs) to 127.0.0.1, so a page can be loaded from an origin that is not a
// secure context.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { CHROMIUM, HOST } from "./chromium.mjs";

export const CHROMEDRIVER = process.env.CHROMEDRIVER ?? "/usr/bin/chromedriver";

/** WebDriver key codes. */
export const KEY = Object.freeze({ TAB: "\uE004", ENTER: "\uE007", SHIFT: "\uE008" });

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts chromedriver and a session. Returns the session object; `quit()` ends the session,
 * stops chromedriver's process group and removes the profile.
 */
export async function openBrowser({ width = 1280, height = 1000 } = {}) {
  const port = await freePort();
  const driver = spawn(CHROMEDRIVER, [`--port=${port}`, "--allowed-ips=127.0.0.1"], {
    detached: true,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  driver.stderr.on("data", (d) => (log += d));
  const base = `http://127.0.0.1:${port}`;
  const stopDriver = () => {
    try {
      process.kill(-driver.pid, "SIGKILL");
    } catch {}
  };
  process.once("exit", stopDriver);
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      const r = await fetch(`${base}/status`);
      if ((await r.json()).value?.ready) break;
    } catch {}
    if (Date.now() > deadline) {
      stopDriver();
      throw new Error(`chromedriver did not start: ${log}`);
    }
    await sleep(100);
  }
  const profile = mkdtempSync(join(tmpdir(), "skills-edge-webdriver-"));
  async function command(method, path, body) {
    const r = await fetch(`${base}${path}`, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    const json = await r.json();
    if (!r.ok) throw new Error(`WebDriver ${method} ${path}: ${JSON.stringify(json.value)}`);
    return json.value;
  }
  let created;
  try {
    created = await command("POST", "/session", {
      capabilities: {
        alwaysMatch: {
          browserName: "chrome",
          "goog:chromeOptions": {
            binary: CHROMIUM,
            args: [
              "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--disable-background-networking", "--disable-component-update", "--disable-sync",
              "--no-first-run", "--no-default-browser-check", `--user-data-dir=${profile}`,
              `--host-resolver-rules=MAP ${HOST} 127.0.0.1`, `--window-size=${width},${height}`,
            ],
          },
        },
      },
    });
  } catch (e) {
    stopDriver();
    rmSync(profile, { recursive: true, force: true });
    throw e;
  }
  const s = `/session/${created.sessionId}`;
  const keys = (list) => ({
    actions: [{ type: "key", id: "keyboard", actions: list.flatMap((k) => [{ type: "keyDown", value: k }, { type: "keyUp", value: k }]) }],
  });
  return {
    goto: (url) => command("POST", `${s}/url`, { url }),
    /** Runs `fn` (a function, serialised) in the page with `args`; returns its JSON value. */
    run: (fn, ...args) => command("POST", `${s}/execute/sync`, { script: `return (${fn}).apply(null, arguments);`, args }),
    /** Presses keys, one after another (characters or KEY codes). */
    press: (...list) => command("POST", `${s}/actions`, keys(list)),
    /** Types text into the focused element, key by key. */
    type: (text) => command("POST", `${s}/actions`, keys([...text])),
    /** The id of the focused element. */
    focused: () => command("POST", `${s}/execute/sync`, { script: "return document.activeElement && document.activeElement.id;", args: [] }),
    /** Waits until `fn` run in the page returns something truthy; returns it. */
    async until(fn, { timeoutMs = 60_000, what = "the page" } = {}) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const v = await command("POST", `${s}/execute/sync`, { script: `return (${fn})();`, args: [] });
        if (v) return v;
        assert.ok(Date.now() < end, `${what} did not get there within ${timeoutMs} ms`);
        await sleep(150);
      }
    },
    /** Saves a PNG of the whole page at `file` (the window is resized to the page's height first). */
    async screenshot(file) {
      const h = await command("POST", `${s}/execute/sync`, { script: "return Math.ceil(document.documentElement.scrollHeight);", args: [] });
      await command("POST", `${s}/window/rect`, { width, height: Math.min(Math.max(h + 120, 600), 16_000) });
      const png = await command("GET", `${s}/screenshot`);
      writeFileSync(file, Buffer.from(png, "base64"));
      await command("POST", `${s}/window/rect`, { width, height });
    },
    async quit() {
      try {
        await command("DELETE", s);
      } catch {}
      stopDriver();
      process.removeListener("exit", stopDriver);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
