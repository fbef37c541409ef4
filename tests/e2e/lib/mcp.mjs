// What the end-to-end tests share about MCP itself: running one scenario of the official
// conformance suite (@modelcontextprotocol/conformance, Node 22), and reading the bytes of a
// resources/read content item.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./worker.mjs";

const CLI = join(ROOT, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");

/**
 * Runs one server scenario against `url`, writing results under `outRoot`; resolves
 * `{ code, output, checks }` (`checks` from the suite's checks.json, or null). Killed after
 * 120 s.
 */
export function runScenario(url, scenario, version, { outRoot, force = false, expectedFailures } = {}) {
  const out = join(outRoot, `${scenario}-${version}-${Math.random().toString(36).slice(2)}`);
  const args = [CLI, "server", "--url", url, "--scenario", scenario, "--spec-version", version, "-o", out];
  if (force) args.push("--force");
  if (expectedFailures) args.push("--expected-failures", expectedFailures);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      let checks = null;
      try {
        const dirs = readdirSync(out).filter((d) => d.startsWith(`server-${scenario}-`));
        if (dirs.length === 1) checks = JSON.parse(readFileSync(join(out, dirs[0], "checks.json"), "utf8"));
      } catch {}
      resolve({ code, output, checks });
    });
  });
}

/** Checks by status: `{ SUCCESS, FAILURE, WARNING, SKIPPED, INFO }`. */
export function counts(checks) {
  const n = { SUCCESS: 0, FAILURE: 0, WARNING: 0, SKIPPED: 0, INFO: 0 };
  for (const c of checks) n[c.status] = (n[c.status] ?? 0) + 1;
  return n;
}

/** The raw bytes of a resources/read content item, and whether it came as `text` or `blob`. */
export function contentBytes(content) {
  if (typeof content.text === "string") return { data: Buffer.from(content.text, "utf8"), text: true };
  if (typeof content.blob !== "string") throw new Error(`${content.uri} has neither text nor blob`);
  return { data: Buffer.from(content.blob, "base64"), text: false };
}
