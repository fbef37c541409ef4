#!/usr/bin/env node
// A minimal MCP host for the conformance suite's SEP-2640 client scenarios, built on the npm
// package (SkillHost does every check; this file only moves messages).
//
//   node tests/conformance-client.mjs <server URL>
//
// The suite sets MCP_CONFORMANCE_SCENARIO (the scenario name) and
// MCP_CONFORMANCE_PROTOCOL_VERSION (2025-11-25 by default: `initialize`; 2026-07-28:
// `server/discover` and per-request `_meta`). The package is loaded from SKILLS_EDGE_PKG (an
// installed package directory) or else from this repository's pkg/.
//
// What it does, as a host would:
// * discovers the server and lists skills only if the server declares the extension (H1);
//   listing never fetches a skill file (H9), so `sep-2640-client-no-prefetch` stops there;
// * otherwise loads each listed skill: reads its SKILL.md from the same server and verifies it
//   (size, digest, frontmatter). Only after a successful load does it read the supporting files
//   the skill lists (as the model would when it follows the SKILL.md). A refused load stops
//   there: the tampered content is not used and nothing else of the skill is read.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const pkgDir = process.env.SKILLS_EDGE_PKG ?? join(here, "..", "pkg");
const { SkillHost, isSkillsEdgeError } = createRequire(import.meta.url)(join(pkgDir, "node", "skills_edge.js"));

const SKILLS = "io.modelcontextprotocol/skills";
const LABEL = "conformance"; // host-assigned, never the server's self-reported name
const MAX_PAGES = 100;

const serverUrl = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const version = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? "2025-11-25";
const modern = version >= "2026-07-28";
const log = (...a) => console.error("[conformance-client]", ...a);

let nextId = 1;
let sessionId;

/** One JSON-RPC message over Streamable HTTP; returns the result (or undefined for a notification). */
async function rpc(method, params, { notification = false } = {}) {
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  let body = { jsonrpc: "2.0", method, params: params ?? {} };
  if (modern) {
    body.params = {
      ...body.params,
      _meta: {
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": { extensions: { [SKILLS]: {} } },
        "io.modelcontextprotocol/clientInfo": { name: "skills-edge-conformance-client", version: "0.1.0" },
      },
    };
    headers["mcp-protocol-version"] = version;
    headers["mcp-method"] = method;
    if (method === "resources/read") headers["mcp-name"] = params.uri;
  } else if (method !== "initialize") {
    headers["mcp-protocol-version"] = version;
  }
  if (sessionId) headers["mcp-session-id"] = sessionId;
  const id = notification ? undefined : nextId++;
  if (id !== undefined) body = { ...body, id };
  const res = await fetch(serverUrl, { method: "POST", headers, body: JSON.stringify(body) });
  sessionId = res.headers.get("mcp-session-id") ?? sessionId;
  const text = await res.text();
  if (notification) return undefined;
  const messages = (res.headers.get("content-type") ?? "").includes("text/event-stream")
    ? text.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trim()).filter(Boolean).map((l) => JSON.parse(l))
    : [JSON.parse(text)];
  const reply = messages.find((m) => m.id === id);
  if (!reply) throw new Error(`${method}: no response (HTTP ${res.status})`);
  if (reply.error) throw new Error(`${method}: JSON-RPC error ${reply.error.code}: ${reply.error.message}`);
  return reply.result;
}

async function connect() {
  if (modern) return rpc("server/discover", {});
  const init = await rpc("initialize", {
    protocolVersion: version,
    capabilities: { extensions: { [SKILLS]: {} } },
    clientInfo: { name: "skills-edge-conformance-client", version: "0.1.0" },
  });
  await rpc("notifications/initialized", {}, { notification: true });
  return init;
}

async function main() {
  if (!serverUrl) throw new Error("usage: conformance-client.mjs <server URL>");
  log(`scenario ${scenario || "(none)"}, protocol ${version}`);
  const info = await connect();
  const declared = info?.capabilities?.extensions?.[SKILLS];
  if (declared === null || typeof declared !== "object" || Array.isArray(declared)) {
    log("the server does not declare the skills extension; nothing to do");
    return;
  }

  const host = new SkillHost();
  host.addServer(LABEL);
  let cursor;
  const seen = new Set();
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await rpc("skills/list", cursor === undefined ? {} : { cursor });
    const outcome = host.registerListing(LABEL, result);
    for (const r of outcome.rejected) log(`entry ${r.index} refused: ${r.error.code}: ${r.error.message}`);
    cursor = typeof result.nextCursor === "string" && result.nextCursor !== "" ? result.nextCursor : undefined;
    if (cursor === undefined) break;
    if (seen.has(cursor)) throw new Error("skills/list repeated a cursor");
    seen.add(cursor);
  }
  const skills = host.skills();
  log(`listed ${skills.map((s) => s.displayName).join(", ") || "no skills"}`);
  if (scenario === "sep-2640-client-no-prefetch") return; // listing only: no file is fetched ahead of need

  if (process.env.SKILLS_EDGE_CONFORMANCE_CONTROL === "unverified") {
    // A control for the tests only: a host that does not verify reads the supporting files
    // straight away, which the suite must report as a failure.
    for (const { uri } of skills) {
      for (const item of host.entry(LABEL, uri).resources) await rpc("resources/read", { uri: item.uri });
    }
    return;
  }

  for (const { uri, displayName } of skills) {
    try {
      const plan = host.planLoad(LABEL, uri);
      const loaded = host.load(LABEL, uri, await rpc("resources/read", { uri: plan.uri }));
      log(`loaded ${displayName} (${loaded.size} bytes, ${loaded.digest})`);
      // The model follows the skill: supporting files are read on demand, each verified.
      for (const item of host.entry(LABEL, uri).resources) {
        if (item.uri === uri) continue;
        const next = host.planRead(LABEL, uri, item.uri);
        const file = host.read(LABEL, uri, next.uri, await rpc("resources/read", { uri: next.uri }));
        log(`read ${file.uri} (${file.size} bytes, verified)`);
      }
    } catch (e) {
      if (!isSkillsEdgeError(e)) throw e;
      // A verification failure: the content is not used and nothing more of the skill is read.
      log(`refused ${displayName}: ${e.code}: ${e.message}` +
        (e.expected !== undefined ? ` (expected ${e.expected}, got ${e.actual})` : ""));
      host.closeWindow(LABEL, uri);
    }
  }
}

let code = 0;
try {
  await main();
} catch (e) {
  log(`error: ${e?.stack ?? e}`);
  code = 1;
}
if (sessionId) {
  await fetch(serverUrl, { method: "DELETE", headers: { "mcp-session-id": sessionId, "mcp-protocol-version": version } }).catch(() => {});
}
process.exit(code);
