// The `skills-http` component served by a component runtime on a loopback port (`jco serve`,
// which runs it on @bytecodealliance/preview2-shim, or `wasmtime serve` with
// SKILLS_EDGE_COMPONENT_RUNTIME=wasmtime; see harness.mjs): the Streamable HTTP rules the
// Worker follows, then the MCP conformance suite's Skills scenarios at 2026-07-28, every
// check SUCCESS.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { RUNTIME, RUNTIMES, componentPath, conformance, remove, scratchDir, serve } from "./harness.mjs";

const MODERN = "2026-07-28";
const META = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientCapabilities": {},
};
const SCENARIOS = ["sep-2640-skills-enumeration", "sep-2640-skills-manifest", "sep-2640-skills-directory"];

let dir;
let server;

before(async () => {
  dir = scratchDir(`http-${RUNTIME}`);
  // PAGE_SIZE=2 makes every list page, so the suite follows cursors through the component.
  server = await serve(componentPath("skills-edge-http"), { scratch: dir, env: { PAGE_SIZE: "2" } });
});

after(async () => {
  await server?.stop();
  remove(dir);
});

function post(method, params = {}, headers = {}) {
  return fetch(server.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": MODERN,
      "mcp-method": method,
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: META } }),
    signal: AbortSignal.timeout(10_000),
  });
}

test("a request gets the responder's reply as application/json", async () => {
  const res = await post("skills/get", { uri: "skill://code-review/SKILL.md" });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "application/json");
  assert.equal(res.headers.get("vary"), "Origin");
  const body = await res.json();
  assert.equal(body.result.skill.resources[0].digest, "sha256:d2489d6c182e8df9c178563ff9f2eac7998a0c1bb1278c52a7fd5306e4259160");
});

test("configuration comes from the environment (PAGE_SIZE=2)", async () => {
  const body = await (await post("skills/list")).json();
  assert.equal(body.result.skills.length, 2);
  assert.equal(typeof body.result.nextCursor, "string");
});

test("the Streamable HTTP rules: statuses of the Worker's endpoint", async () => {
  const t = { signal: AbortSignal.timeout(10_000) };
  let res = await fetch(server.url, { method: "GET", ...t });
  assert.equal(res.status, 405);
  assert.equal(res.headers.get("allow"), "POST");

  res = await fetch(server.url.replace(/\/mcp$/, "/other"), { method: "POST", ...t });
  assert.equal(res.status, 404);

  res = await post("server/discover", {}, { origin: "http://evil.example" });
  assert.equal(res.status, 403);
  assert.equal(res.headers.get("access-control-allow-origin"), null);

  res = await post("server/discover", {}, { origin: "http://localhost:3000" });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("access-control-allow-origin"), "http://localhost:3000");

  res = await post("server/discover", {}, { accept: "application/json" });
  assert.equal(res.status, 406);

  res = await post("tools/list");
  assert.equal(res.status, 404);
  assert.equal((await res.json()).error.code, -32601);

  res = await post("resources/read", { uri: "skill://code-review/SKILL.md" }, { "mcp-name": "skill://other/SKILL.md" });
  assert.equal(res.status, 400);
  assert.equal((await res.json()).error.code, -32020);

  res = await fetch(server.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    ...t,
  });
  assert.equal(res.status, 202);
  assert.equal(await res.text(), "");
});

test("a body over the limit is refused with 413, by Content-Length or while reading", async () => {
  const text = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${"x".repeat(1 << 20)}"}}`;
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  let res = await fetch(server.url, { method: "POST", headers, body: text, signal: AbortSignal.timeout(20_000) });
  assert.equal(res.status, 413);
  await res.arrayBuffer();

  // A chunked upload (no Content-Length): the component stops reading past the limit.
  const big = new ReadableStream({
    start(c) {
      c.enqueue(new TextEncoder().encode(text));
      c.close();
    },
  });
  res = await fetch(server.url, {
    method: "POST",
    headers,
    body: big,
    duplex: "half",
    signal: AbortSignal.timeout(20_000),
  });
  assert.equal(res.status, 413);
});

test("a caller of a misconfigured instance learns nothing of its settings: a generic 500, the reason in the log", async () => {
  const secret = "0-from-the-operator";
  const bad = await serve(componentPath("skills-edge-http"), { scratch: dir, env: { PAGE_SIZE: secret } });
  try {
    // Any request, from any Host or Origin, gets the same answer: the rules are not configured.
    const probes = [
      fetch(bad.url, { method: "POST", signal: AbortSignal.timeout(10_000) }),
      fetch(bad.url.replace(/\/mcp$/, "/.well-known/agent-skills/index.json"), {
        headers: { origin: "http://evil.example" },
        signal: AbortSignal.timeout(10_000),
      }),
    ];
    const bodies = [];
    for (const res of await Promise.all(probes)) {
      assert.equal(res.status, 500);
      assert.equal(res.headers.get("content-type"), "application/json");
      assert.equal(res.headers.get("vary"), "Origin");
      assert.equal(res.headers.get("access-control-allow-origin"), null);
      const text = await res.text();
      assert.ok(!text.includes("PAGE_SIZE") && !text.includes(secret), `the answer names the setting: ${text}`);
      const body = JSON.parse(text);
      assert.equal(body.jsonrpc, "2.0");
      assert.ok(!("id" in body), "no id: the request was not read");
      assert.equal(body.error.code, -32603);
      assert.match(body.error.message, /^Internal error: the server is misconfigured: see the server's log/);
      bodies.push(text);
    }
    assert.equal(bodies[0], bodies[1], "one answer for every request");
    // The operator's log says what to fix (its pipe may lag the answers a little).
    const reason = new RegExp(`configuration variable PAGE_SIZE = "${secret}" is invalid`);
    for (let i = 0; i < 50 && !reason.test(bad.log()); i++) await new Promise((r) => setTimeout(r, 100));
    assert.match(bad.log(), reason);
  } finally {
    await bad.stop();
  }
});

for (const scenario of SCENARIOS) {
  test(`${RUNTIMES[RUNTIME]}: conformance ${scenario} at ${MODERN}: every check SUCCESS`, async (t) => {
    const out = join(dir, "conformance", scenario);
    mkdirSync(out, { recursive: true });
    const checks = await conformance(server.url, scenario, out);
    assert.ok(checks.length > 0, "checks were recorded");
    assert.ok(checks.some((c) => c.id === "wire-schema-valid"), "the wire schema was checked");
    const notSuccess = checks.filter((c) => c.status !== "SUCCESS");
    assert.deepEqual(
      notSuccess.map((c) => `${c.id}: ${c.status} ${c.errorMessage ?? ""}`),
      [],
      `${scenario}: every check SUCCESS`,
    );
    t.diagnostic(`${scenario}: ${checks.length}/${checks.length} checks SUCCESS`);
  });
}

test("FALLBACK from the environment turns on the tools and prompts fallback", async () => {
  const sub = scratchDir("http-fallback");
  const fb = await serve(componentPath("skills-edge-http"), { scratch: sub, env: { FALLBACK: "tools,prompts" } });
  try {
    const rpc = async (method, params, headers) =>
      (
        await fetch(fb.url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-protocol-version": MODERN,
            "mcp-method": method,
            ...headers,
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: META } }),
          signal: AbortSignal.timeout(10_000),
        })
      ).json();
    const d = await rpc("server/discover", {});
    assert.deepEqual([d.result.capabilities.tools, d.result.capabilities.prompts], [{}, {}]);
    const call = await rpc(
      "tools/call",
      { name: "read_skill_resource", arguments: { uri: "skill://code-review/references/checklist.md" } },
      { "mcp-name": "read_skill_resource" },
    );
    assert.equal(call.result.structuredContent.digest, "sha256:dbab2de7bf7db9cc95cb6ce681c3690b26184db39f75b958a0287ca6d9e24e20");
    const p = await rpc("prompts/get", { name: "code-review" }, { "mcp-name": "code-review" });
    assert.equal(p.result.messages[0].content.resource.uri, "skill://code-review/SKILL.md");
    // The default server (no FALLBACK) still answers -32601.
    const off = await (await post("tools/list")).json();
    assert.equal(off.error.code, -32601);
  } finally {
    await fb.stop();
    remove(sub);
  }
});
