// A judge of a skills server: MCP Inspector 2.12's command line
// (`mcp-inspector --cli … --method skills/list --verify`), which walks skills/list, checks
// every entry against SEP-2640 (names, URIs, manifests, digest and size formats), reads every
// listed file with resources/read and compares its size and SHA-256, and compares each
// SKILL.md's frontmatter (read with yaml@2) with the entry. It prints one NDJSON report per
// skill on stdout and exits 0 only when every skill verified. The judge also refuses any
// issue the Inspector reports, warnings included.
//
// The judge runs it on Node 22 (the npm package `node`; the Inspector declares
// `engines.node >=22.19`), with its storage (client config, OAuth state, catalog) redirected
// into a fresh temporary directory, `--require-digests` (a "dynamic" skill would be a
// failure, not "unverifiable") and `--stored-auth-only` (never an interactive login), and
// kills it after a bounded time.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
/** The Inspector's launcher, as npm links it. */
export const INSPECTOR = join(ROOT, "node_modules", ".bin", "mcp-inspector");
/** Node 22 from the npm registry, the runtime the Inspector declares. */
const NODE22 = join(ROOT, "node_modules", ".bin", "node");
const ERAS = ["modern", "legacy"];

/**
 * Runs the Inspector against `target`: a URL string (Streamable HTTP) or
 * `{ command, args }` (a stdio server it spawns). `era` is `"modern"` (pinned to 2026-07-28)
 * or `"legacy"` (2025-11-25 `initialize`). Resolves with
 * `{ skills, files, bytes, reports, stderr }` when the run exits 0 and every report's
 * outcome is `verified`, with every file `verified` and no issue (not even a warning);
 * rejects with an Error naming the skill and file otherwise, or when `expectedSkills` is
 * given and differs from the number of reports. `headers` (`["Name: value", …]`, a URL target
 * only) are sent with every request (`--header`), e.g. a bearer token. `options` are more
 * Inspector options (e.g. `["--skill-catalog-max-skills", "4000"]` for a catalog larger than
 * its default read budget of 256 skills).
 */
export async function judgeInspector({ target, era, expectedSkills, headers = [], options = [], timeoutMs = 90_000 }) {
  if (!ERAS.includes(era)) throw new TypeError(`era must be "modern" or "legacy", not ${JSON.stringify(era)}`);
  const where = `Inspector judge (${era})`;
  const storage = mkdtempSync(join(tmpdir(), "skills-edge-inspector-"));
  const args = [INSPECTOR, "--cli"];
  const opts = ["--protocol-era", era, "--method", "skills/list", "--verify", "--require-digests", "--stored-auth-only", "--connect-timeout", "20000"];
  if (headers.length > 0) opts.push("--header", ...headers);
  opts.push(...options);
  if (typeof target === "string") args.push(target, ...opts);
  else args.push(...opts, "--", target.command, ...(target.args ?? []));
  const env = isolatedEnv(storage);
  let run;
  try {
    run = await spawnBounded(NODE22, args, { env, cwd: storage, timeoutMs });
  } finally {
    rmSync(storage, { recursive: true, force: true });
  }
  const { code, signal, stdout, stderr } = run;
  const context = `\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`;
  if (signal !== null) throw new Error(`${where}: killed by ${signal} after ${timeoutMs} ms${context}`);

  const reports = [];
  for (const line of stdout.split("\n")) {
    if (line.trim() === "") continue;
    try {
      reports.push(JSON.parse(line));
    } catch {
      throw new Error(`${where}: stdout line is not JSON: ${line}${context}`);
    }
  }
  const problems = [];
  let files = 0;
  let bytes = 0;
  for (const r of reports) {
    // Warnings too: the servers under test publish nothing the Inspector needs to warn about.
    const issues = [...(r.conformance ?? []), ...(r.frontmatter ?? [])].map((i) => `${i.severity} ${i.code}: ${i.message}`);
    if (r.outcome !== "verified" || r.ok !== true || issues.length > 0) {
      problems.push(`${r.uri}: outcome ${r.outcome}${issues.length ? ` (${issues.join("; ")})` : ""}`);
    }
    if (!Array.isArray(r.files) || r.files.length === 0) problems.push(`${r.uri}: no files were checked`);
    for (const f of r.files ?? []) {
      if (f.status !== "verified") problems.push(`${r.uri}: ${f.uri}: ${f.status}${f.reason ? ` (${f.reason})` : ""}`);
      else {
        files++;
        bytes += f.actualSize ?? 0;
      }
    }
  }
  if (problems.length > 0) throw new Error(`${where}: not verified:\n  ${problems.join("\n  ")}${context}`);
  if (code !== 0) throw new Error(`${where}: exit code ${code}${context}`);
  if (reports.length === 0) throw new Error(`${where}: no skill reports${context}`);
  if (expectedSkills !== undefined && reports.length !== expectedSkills) {
    throw new Error(`${where}: ${reports.length} skills verified, the server lists ${expectedSkills}${context}`);
  }
  return { skills: reports.length, files, bytes, reports, stderr: stderr.trim() };
}

/** The Inspector's environment with every file it keeps (client config, OAuth state, catalog) in `storage`. */
function isolatedEnv(storage) {
  return {
    ...process.env,
    HOME: storage,
    MCP_STORAGE_DIR: join(storage, "storage"),
    MCP_CLIENT_CONFIG_PATH: join(storage, "storage", "client.json"),
    MCP_CATALOG_PATH: join(storage, "mcp.json"),
    MCP_INSPECTOR_OAUTH_STATE_PATH: join(storage, "storage", "oauth.json"),
    MCP_INSPECTOR_SECRET_STORE: "memory",
    NO_COLOR: "1",
    NO_UPDATE_NOTIFIER: "1",
  };
}

/**
 * One method through the Inspector's command line against a stdio server (`{ command, args }`),
 * on `era`: `--method METHOD` with `extra` options (e.g. `["--tool-name", "x", "--tool-arg",
 * "k=v"]`). Resolves with the JSON result it prints; rejects naming the method when it exits
 * non-zero, prints no JSON, or runs past `timeoutMs`.
 */
export async function inspectorMethod({ target, era, method, extra = [], timeoutMs = 60_000 }) {
  if (!ERAS.includes(era)) throw new TypeError(`era must be "modern" or "legacy", not ${JSON.stringify(era)}`);
  const storage = mkdtempSync(join(tmpdir(), "skills-edge-inspector-"));
  const args = [INSPECTOR, "--cli", "--protocol-era", era, "--method", method, ...extra, "--stored-auth-only",
    "--", target.command, ...(target.args ?? [])];
  let run;
  try {
    run = await spawnBounded(NODE22, args, { env: isolatedEnv(storage), cwd: storage, timeoutMs });
  } finally {
    rmSync(storage, { recursive: true, force: true });
  }
  const context = `\n--- stdout ---\n${run.stdout}\n--- stderr ---\n${run.stderr}`;
  if (run.signal !== null) throw new Error(`Inspector ${method} (${era}): killed by ${run.signal} after ${timeoutMs} ms${context}`);
  if (run.code !== 0) throw new Error(`Inspector ${method} (${era}): exit code ${run.code}${context}`);
  try {
    return JSON.parse(run.stdout);
  } catch {
    throw new Error(`Inspector ${method} (${era}): stdout is not one JSON value${context}`);
  }
}

/** Runs a command to completion, killing its process group after `timeoutMs`. */
function spawnBounded(command, args, { env, cwd, timeoutMs }) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { env, cwd, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const kill = () => {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(kill, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      // A stdio server the Inspector spawned must not outlive it.
      kill();
      resolvePromise({ code, signal, stdout, stderr });
    });
  });
}
