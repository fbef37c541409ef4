// The tools and prompts fallback on the Worker (real workerd, `wrangler dev --var
// FALLBACK:tools,prompts`) through the official SDK clients over Streamable HTTP: v1
// (@modelcontextprotocol/sdk, 2025-11-25) and v2 (@modelcontextprotocol/client 2.4, 2025-11-25
// and 2026-07-28). Each lists and calls every tool on every skill and file and gets every
// prompt, checking the bytes against resources/read and the manifests
// (tests/lib/fallback-sdk.mjs). Then raw HTTP: Mcp-Name must mirror params.name on tools/call
// and prompts/get (400 -32020 otherwise), tools/list and prompts/list carry the cache hints,
// and a bad FALLBACK stops the Worker at start.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { clientV1, clientV2, exercise, LEGACY, MODERN } from "../lib/fallback-sdk.mjs";
import { startWorker } from "./lib/worker.mjs";

const META = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} };
let worker;

before(async () => {
  worker = await startWorker({ vars: { FALLBACK: "tools,prompts", PAGE_SIZE: "3" } });
});

after(async () => {
  await worker?.stop();
});

for (const [sdk, era, version] of [
  ["v1", "legacy", LEGACY],
  ["v2", "legacy", LEGACY],
  ["v2", "modern", MODERN],
]) {
  test(`SDK ${sdk} (${version}) calls every tool and gets every prompt on the Worker`, async () => {
    const client = sdk === "v1" ? clientV1() : clientV2(era);
    const url = new URL(worker.url);
    await client.connect(sdk === "v1" ? new HttpV1(url) : new HttpV2(url));
    try {
      if (sdk === "v2") assert.equal(client.getNegotiatedProtocolVersion(), version);
      const n = await exercise(client, { label: `${sdk} ${version}` });
      assert.ok(n.files >= 19 && n.blobs >= 1 && n.prompts >= 7, JSON.stringify(n));
    } finally {
      await client.close();
    }
  });
}

/** One raw 2026-07-28 POST. */
async function post(method, params, { name } = {}) {
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": MODERN,
    "mcp-method": method,
  };
  if (name !== undefined) headers["mcp-name"] = name;
  const res = await fetch(`${worker.origin}/mcp`, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params: { ...params, _meta: META } }),
  });
  return { status: res.status, body: await res.json() };
}

test("Mcp-Name mirrors the tool and prompt name over HTTP", async () => {
  const call = { name: "read_skill", arguments: { name: "code-review" } };
  let r = await post("tools/call", call, { name: "read_skill" });
  assert.equal(r.status, 200);
  assert.equal(r.body.result.isError, false);
  assert.equal(r.body.result.structuredContent.uri, "skill://code-review/SKILL.md");
  r = await post("tools/call", call);
  assert.deepEqual([r.status, r.body.error?.code, r.body.id], [400, -32020, 7]);
  assert.match(r.body.error.message, /Mcp-Name header is required on tools\/call/);
  r = await post("tools/call", call, { name: "list_skills" });
  assert.deepEqual([r.status, r.body.error?.code], [400, -32020]);
  r = await post("prompts/get", { name: "code-review" }, { name: "code-review" });
  assert.equal(r.status, 200);
  assert.equal(r.body.result.messages[0].content.resource.uri, "skill://code-review/SKILL.md");
  r = await post("prompts/get", { name: "code-review" }, { name: "release-notes" });
  assert.deepEqual([r.status, r.body.error?.code], [400, -32020]);
  r = await post("tools/call", { name: "test_simple_text", arguments: {} }, { name: "test_simple_text" });
  assert.deepEqual([r.status, r.body.error?.code, r.body.error?.data], [200, -32602, { name: "test_simple_text" }]);
});

test("tools/list and prompts/list carry the cache hints; both are one page", async () => {
  for (const method of ["tools/list", "prompts/list"]) {
    const r = await post(method, {});
    assert.equal(r.status, 200);
    assert.equal(r.body.result.resultType, "complete");
    assert.equal(r.body.result.ttlMs, 300000);
    assert.equal(r.body.result.cacheScope, "public");
    assert.equal(r.body.result.nextCursor, undefined, `${method}: one page even with PAGE_SIZE=3`);
  }
  const r = await post("prompts/list", {});
  assert.ok(r.body.result.prompts.length >= 7);
});

test("a bad FALLBACK stops the Worker at start, naming the variable", async () => {
  await assert.rejects(startWorker({ vars: { FALLBACK: "everything" }, readyTimeoutMs: 60_000 }), (err) => {
    assert.match(err.message, /exited/);
    assert.ok(
      err.message.includes('configuration variable FALLBACK = "everything" is invalid (unknown item "everything")'),
      err.message,
    );
    return true;
  });
});
