// The example in examples/js-worker/ (a hand-written TypeScript MCP Worker with a tool of its
// own that adds skills through the npm package's SkillsServer) on real workerd:
//
// * the repository's skills/ folder is packed with the package's CLI (`skills-edge pack`),
//   the example is type-checked (`tsc --strict`, against the package's declarations) and
//   served with `wrangler dev -c examples/js-worker/wrangler.toml` on a free 127.0.0.1 port;
// * the conformance suite's three Skills scenarios at 2026-07-28: every check SUCCESS (no
//   FAILURE, no WARNING, nothing SKIPPED);
// * four core scenarios at 2026-07-28 (tools-list, resources-list, sep-2164-resource-not-found,
//   dns-rebinding-protection): no FAILURE, WARNING or SKIPPED;
// * the official SDK client (2025-11-25 `initialize`): the capabilities hold both `tools` and
//   the Skills extension, the Worker's own tool is listed and called, skills/list and
//   skills/get answer, and every file of every skill is read and checked (size, SHA-256);
// * the judges of tests/judges/ on both eras (2026-07-28 pinned, 2025-11-25 legacy): the
//   official SDK client 2.4 (SkillsClient over Streamable HTTP: every page, entry, file and
//   directory) and MCP Inspector 2.12 `--cli URL --method skills/list --verify`;
// * raw 2026-07-28 POSTs: `server/discover` with the merged capabilities, and the HTTP rules
//   the example implements (403, 405, 406, 415, 202, -32700, -32601, -32602, -32020, -32022).
// Needs the npm package built (pkg/, by scripts/build-pkg.sh). Run with Node 22.
import { test, before, after, describe } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { startWorker, ROOT } from "./lib/worker.mjs";
import { contentBytes, runScenario as conformance } from "./lib/mcp.mjs";
import { tempDir } from "../lib/processes.mjs";
import { httpTransport } from "../judges/sdk.mjs";
import { judgeTests } from "../judges/suite.mjs";

const run = promisify(execFile);
const EXAMPLE = join(ROOT, "examples", "js-worker");
const PACK = join(EXAMPLE, "skills.pack");
const SKILLS_CLI = join(ROOT, "node_modules", ".bin", "skills-edge");
const TSC = join(ROOT, "node_modules", ".bin", "tsc");
const SKILLS = "io.modelcontextprotocol/skills";
const SERVER_INFO = "io.modelcontextprotocol/serverInfo";
const MODERN = "2026-07-28";
const META = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientCapabilities": {},
};

let worker;
const outRoot = tempDir("js-worker");

before(async () => {
  assert.ok(
    existsSync(join(ROOT, "pkg", "web", "skills_edge_bg.wasm")),
    "the npm package is not built: run `bash scripts/build-pkg.sh` first",
  );
  // The pack is not committed: made from skills/ exactly as the README says.
  await run(process.execPath, [SKILLS_CLI, "pack", "skills", "-o", PACK], { cwd: ROOT });
  worker = await startWorker({ config: "examples/js-worker/wrangler.toml" });
});

after(async () => {
  await worker?.stop();
  rmSync(outRoot, { recursive: true, force: true });
});

test("the example type-checks strictly against the package's declarations", { timeout: 120_000 }, async () => {
  const res = await run(TSC, ["-p", join(EXAMPLE, "tsconfig.json")], { cwd: ROOT }).catch((e) => e);
  assert.equal(res.code ?? 0, 0, `${res.stdout}${res.stderr}`);
  const src = readFileSync(join(EXAMPLE, "src", "index.ts"), "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
  assert.doesNotMatch(src, /\bany\b/, "no `any` in the example");
});

const runScenario = (url, scenario, version) => conformance(url, scenario, version, { outRoot, force: true });

describe("conformance suite, Skills scenarios at 2026-07-28", () => {
  for (const scenario of ["sep-2640-skills-enumeration", "sep-2640-skills-manifest", "sep-2640-skills-directory"]) {
    test(scenario, { timeout: 150_000 }, async () => {
      const { code, output, checks } = await runScenario(worker.url, scenario, MODERN);
      assert.ok(checks?.length > 0, `${scenario}: no checks (exit ${code})\n${output}`);
      assert.doesNotMatch(output, /SKIPPED: scenario/, `${scenario} was skipped`);
      const bad = checks
        .filter((c) => c.status !== "SUCCESS")
        .map((c) => `  ${c.status} ${c.id}: ${c.errorMessage ?? c.description ?? ""}`);
      assert.deepEqual(bad, [], `${scenario}: every check must be SUCCESS`);
      assert.ok(checks.some((c) => c.id === "wire-schema-valid"), "wire-schema-valid ran");
      assert.equal(code, 0, output);
      console.log(`${scenario} @${MODERN}: ${checks.length} checks, all SUCCESS`);
    });
  }
});

// Core scenarios the example passes in full, its own tool included (INFO notes allowed). The
// others need the suite's diagnostic tools, prompts or subscriptions, which it does not have.
describe("conformance suite, core scenarios at 2026-07-28", () => {
  for (const scenario of ["tools-list", "resources-list", "sep-2164-resource-not-found", "dns-rebinding-protection"]) {
    test(scenario, { timeout: 150_000 }, async () => {
      const { code, output, checks } = await runScenario(worker.url, scenario, MODERN);
      assert.ok(checks?.length > 0, `${scenario}: no checks (exit ${code})\n${output}`);
      const bad = checks
        .filter((c) => c.status !== "SUCCESS" && c.status !== "INFO")
        .map((c) => `  ${c.status} ${c.id}: ${c.errorMessage ?? c.description ?? ""}`);
      assert.deepEqual(bad, [], `${scenario}: no FAILURE, WARNING or SKIPPED`);
      assert.equal(code, 0, output);
    });
  }
});

describe("the official SDK client (Streamable HTTP, 2025-11-25)", () => {
  let client;
  let transport;
  before(async () => {
    client = new Client({ name: "skills-edge-example-e2e", version: "1.0.0" });
    transport = new StreamableHTTPClientTransport(new URL(worker.url));
    await client.connect(transport);
  });
  after(async () => {
    await client?.close().catch(() => {});
  });
  const rpc = (method, params) => client.request({ method, params }, ResultSchema);

  test("initialize: the Worker's identity, its tools and the Skills extension", () => {
    assert.equal(transport.sessionId, undefined, "stateless: no session id");
    assert.deepEqual(client.getServerVersion(), { name: "dice-mcp", version: "1.0.0" });
    const caps = client.getServerCapabilities();
    assert.deepEqual(caps.tools, {}, "the Worker's own capability");
    assert.deepEqual(caps.resources, {}, "SkillsServer's resources capability");
    assert.deepEqual(caps.extensions?.[SKILLS], { directoryRead: true }, "SkillsServer's extension declaration");
    assert.match(client.getInstructions() ?? "", /skills\/list/, "SkillsServer's instructions");
  });

  test("lists and calls the Worker's own tool", async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ["roll_dice"]);
    for (let i = 0; i < 5; i++) {
      const res = await client.callTool({ name: "roll_dice", arguments: { sides: 20 } });
      assert.notEqual(res.isError, true);
      const n = Number(res.content[0].text);
      assert.ok(Number.isInteger(n) && n >= 1 && n <= 20, `a roll of a d20: ${res.content[0].text}`);
    }
    const bad = await client.callTool({ name: "roll_dice", arguments: { sides: 1 } });
    assert.equal(bad.isError, true, "bad arguments are a tool error");
    await assert.rejects(client.callTool({ name: "no_such_tool", arguments: {} }), (e) => e.code === -32602);
  });

  test("skills/list, skills/get, and every file read with matching size and SHA-256", async () => {
    const entries = [];
    let cursor;
    let pages = 0;
    do {
      const page = await rpc("skills/list", cursor ? { cursor } : {});
      entries.push(...page.skills);
      cursor = page.nextCursor;
      assert.ok(++pages <= 100, "pagination terminates");
    } while (cursor);
    const expected = readdirSync(join(ROOT, "skills"), { recursive: true }).filter((p) => p.endsWith("SKILL.md"));
    assert.equal(entries.length, expected.length, "one entry per SKILL.md in skills/");

    let text = 0;
    let binary = 0;
    for (const entry of entries) {
      const { skill } = await rpc("skills/get", { uri: entry.uri });
      assert.deepEqual(skill, entry, `skills/get ${entry.uri} equals its skills/list entry`);
      for (const file of entry.resources) {
        const { contents } = await client.readResource({ uri: file.uri });
        assert.equal(contents.length, 1, file.uri);
        const [content] = contents;
        assert.equal(content.uri, file.uri);
        const { data, text: isText } = contentBytes(content);
        if (isText) text++;
        else binary++;
        assert.equal(data.length, file.size, `size of ${file.uri}`);
        assert.equal(`sha256:${createHash("sha256").update(data).digest("hex")}`, file.digest, `digest of ${file.uri}`);
      }
    }
    assert.ok(text > 0 && binary > 0, "text and binary files were read");
    console.log(`read ${text} text and ${binary} binary files of ${entries.length} skills`);
    await assert.rejects(rpc("skills/get", { uri: "skill://no-such-skill/SKILL.md" }), (e) => e.code === -32602);
  });
});

judgeTests("examples/js-worker on wrangler dev", {
  sdkTransport: () => httpTransport(worker.url),
  inspectorTarget: () => worker.url,
});

/** A raw POST to the example; `headers` replace the defaults (null removes one). */
async function post(body, { method, name, ...headers } = {}) {
  const h = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": MODERN,
    ...(method ? { "mcp-method": method } : {}),
    ...(name ? { "mcp-name": name } : {}),
    ...headers,
  };
  for (const k of Object.keys(h)) if (h[k] === null) delete h[k];
  const res = await fetch(worker.url, {
    method: "POST",
    headers: h,
    body: typeof body === "string" ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: text ? JSON.parse(text) : undefined };
}

describe("raw Streamable HTTP at 2026-07-28", () => {
  test("server/discover: SkillsServer's answer with the Worker's tools and identity merged in", async () => {
    const res = await post({ jsonrpc: "2.0", id: "d", method: "server/discover", params: { _meta: META } }, { method: "server/discover" });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/json");
    const { result } = res.json;
    assert.equal(res.json.id, "d");
    assert.equal(result.resultType, "complete");
    assert.deepEqual(result.supportedVersions, [MODERN]);
    assert.deepEqual(result.capabilities, { resources: {}, extensions: { [SKILLS]: { directoryRead: true } }, tools: {} });
    assert.deepEqual(result._meta, { [SERVER_INFO]: { name: "dice-mcp", version: "1.0.0" } });
    assert.equal(typeof result.ttlMs, "number");
    assert.equal(result.cacheScope, "public");
    assert.match(result.instructions, /skill:\/\//);
  });

  test("the Worker's own methods carry the 2026-07-28 result fields", async () => {
    const list = await post({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META } }, { method: "tools/list" });
    assert.equal(list.status, 200);
    assert.equal(list.json.result.resultType, "complete");
    assert.equal(list.json.result.cacheScope, "public");
    assert.equal(typeof list.json.result.ttlMs, "number");
    const call = await post(
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "roll_dice", arguments: {}, _meta: META } },
      { method: "tools/call", name: "roll_dice" },
    );
    assert.equal(call.status, 200);
    assert.equal(call.json.result.resultType, "complete");
    assert.ok(Number(call.json.result.content[0].text) >= 1 && Number(call.json.result.content[0].text) <= 6);
  });

  test("skills/list is SkillsServer's reply, passed through, naming the Worker", async () => {
    const res = await post({ jsonrpc: "2.0", id: 3, method: "skills/list", params: { _meta: META } }, { method: "skills/list" });
    assert.equal(res.status, 200);
    assert.equal(res.json.result.resultType, "complete");
    assert.ok(res.json.result.skills.length > 0);
    assert.deepEqual(res.json.result._meta, { [SERVER_INFO]: { name: "dice-mcp", version: "1.0.0" } });
    // The Worker's own tools/call checks its Mcp-Name header as SkillsServer checks resources/read's.
    const call = await post(
      { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "roll_dice", arguments: {}, _meta: META } },
      { method: "tools/call", name: "other_tool" },
    );
    assert.deepEqual([call.status, call.json.error.code], [400, -32020]);
  });

  test("HTTP and JSON-RPC errors", async () => {
    const discover = { jsonrpc: "2.0", id: 9, method: "server/discover", params: { _meta: META } };
    const code = (r) => r.json?.error?.code;
    for (const m of ["GET", "DELETE"]) {
      const res = await fetch(worker.url, { method: m, headers: { accept: "application/json, text/event-stream" } });
      await res.arrayBuffer();
      assert.equal(res.status, 405, m);
      assert.equal(res.headers.get("allow"), "POST", m);
    }
    assert.equal((await post(discover, { method: "server/discover", "content-type": "text/plain" })).status, 415);
    assert.equal((await post(discover, { method: "server/discover", accept: "application/json" })).status, 406);
    assert.equal((await post(discover, { method: "server/discover", origin: "https://evil.example" })).status, 403);
    assert.equal((await post(discover, { method: "server/discover", origin: worker.origin })).status, 200, "a local page");

    const parse = await post("{not json", { method: "server/discover" });
    assert.deepEqual([parse.status, code(parse)], [400, -32700]);
    const note = await post({ jsonrpc: "2.0", method: "notifications/cancelled", params: { _meta: META } }, { method: "notifications/cancelled" });
    assert.deepEqual([note.status, note.text], [202, ""]);
    const unknown = await post({ jsonrpc: "2.0", id: 4, method: "no/such", params: { _meta: META } }, { method: "no/such" });
    assert.deepEqual([unknown.status, code(unknown), unknown.json.id], [404, -32601, 4]);
    const ping = await post({ jsonrpc: "2.0", id: 5, method: "ping", params: { _meta: META } }, { method: "ping" });
    assert.deepEqual([ping.status, code(ping)], [404, -32601], "ping is gone in 2026-07-28");
    const noMeta = await post({ jsonrpc: "2.0", id: 6, method: "skills/list", params: {} }, { method: "skills/list" });
    assert.deepEqual([noMeta.status, code(noMeta)], [400, -32602]);
    const mismatch = await post(discover, { method: "skills/list" });
    assert.deepEqual([mismatch.status, code(mismatch)], [400, -32020]);
    const noHeader = await post(discover, { method: "server/discover", "mcp-protocol-version": null });
    assert.deepEqual([noHeader.status, code(noHeader)], [400, -32020]);
    const uri = "skill://code-review/SKILL.md";
    const read = { jsonrpc: "2.0", id: 7, method: "resources/read", params: { uri, _meta: META } };
    assert.equal((await post(read, { method: "resources/read", name: uri })).status, 200);
    const b64 = `=?base64?${Buffer.from(uri).toString("base64")}?=`;
    assert.equal((await post(read, { method: "resources/read", name: b64 })).status, 200, "Mcp-Name in base64 form");
    const wrongName = await post(read, { method: "resources/read", name: "skill://other/SKILL.md" });
    assert.deepEqual([wrongName.status, code(wrongName)], [400, -32020]);
    const old = { ...META, "io.modelcontextprotocol/protocolVersion": "1900-01-01" };
    const version = await post(
      { jsonrpc: "2.0", id: 8, method: "server/discover", params: { _meta: old } },
      { method: "server/discover", "mcp-protocol-version": "1900-01-01" },
    );
    assert.deepEqual([version.status, code(version)], [400, -32022]);
    assert.deepEqual(version.json.error.data, { supported: [MODERN], requested: "1900-01-01" });
    const init = await post(
      { jsonrpc: "2.0", id: 10, method: "initialize", params: { _meta: META } },
      { method: "initialize" },
    );
    assert.deepEqual([init.status, code(init)], [404, -32601], "initialize is gone in 2026-07-28");
  });
});
