// SkillsServer.fetch: a Fetch API Request answered with the Worker's Streamable HTTP rules
// (Host, Origin, CORS, methods, media types, the body limit), configured with the Worker's
// settings under their npm option names, and the caller's own methods through `own`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { SkillsServer } from "skills-edge";
import { META, refused } from "./common.mjs";

const URL_ = "http://127.0.0.1:8787/mcp";
const ACCEPT = "application/json, text/event-stream";
const discover = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: META } });
const mcpHeaders = { "mcp-protocol-version": "2026-07-28", "mcp-method": "server/discover" };

/** A POST of `body` to `url` with the MCP headers, `headers` added (a `null` value removes one). */
function post(body = discover, headers = {}, url = URL_) {
  const h = { accept: ACCEPT, "content-type": "application/json", ...mcpHeaders, ...headers };
  for (const [k, v] of Object.entries(h)) if (v === null) delete h[k];
  return new Request(url, { method: "POST", headers: h, body });
}

/** The response's status, JSON-RPC error code (if any) and headers. */
async function answer(response) {
  assert.ok(response instanceof Response);
  const text = await response.text();
  const json = text === "" ? undefined : JSON.parse(text);
  return { status: response.status, code: json?.error?.code, json, text, headers: response.headers };
}

test("fetch answers a message with its status and the headers every response carries", async () => {
  const s = new SkillsServer();
  const ok = await answer(await s.fetch(post()));
  assert.equal(ok.status, 200);
  assert.equal(ok.headers.get("content-type"), "application/json");
  assert.equal(ok.headers.get("vary"), "Origin");
  assert.equal(ok.json.result.resultType, "complete");
  // The same reply as handleHttp gives for the message alone.
  assert.deepEqual(ok.json, JSON.parse(s.handleHttp(discover, mcpHeaders).body));
  const note = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });
  const n = await answer(await s.fetch(post(note, { "mcp-protocol-version": null, "mcp-method": null })));
  assert.deepEqual([n.status, n.text], [202, ""]);
  const local = await answer(await s.fetch(post(discover, { origin: "http://localhost:5173" })));
  assert.equal(local.status, 200);
  assert.equal(local.headers.get("access-control-allow-origin"), "http://localhost:5173");
});

test("fetch refuses a wrong Host, naming it", async () => {
  const s = new SkillsServer();
  const r = await answer(await s.fetch(post(discover, {}, "http://evil.example/mcp")));
  assert.deepEqual([r.status, r.code], [403, -32600]);
  assert.match(r.json.error.message, /evil\.example/);
  const allowed = new SkillsServer({ allowedHosts: "evil.example" });
  assert.equal((await allowed.fetch(post(discover, {}, "http://evil.example/mcp"))).status, 200);
  assert.equal((await allowed.fetch(post())).status, 403, "127.0.0.1 is no longer listed");
});

test("fetch refuses a wrong Origin, without CORS headers", async () => {
  const s = new SkillsServer();
  const r = await answer(await s.fetch(post(discover, { origin: "https://evil.example" })));
  assert.deepEqual([r.status, r.code], [403, -32600]);
  assert.equal(r.headers.get("access-control-allow-origin"), null);
  const listed = new SkillsServer({ allowedOrigins: "https://app.example" });
  const ok = await answer(await listed.fetch(post(discover, { origin: "https://app.example" })));
  assert.equal(ok.headers.get("access-control-allow-origin"), "https://app.example");
});

test("fetch refuses a wrong path and a wrong method", async () => {
  const s = new SkillsServer();
  const path = await answer(await s.fetch(post(discover, {}, "http://127.0.0.1:8787/other")));
  assert.equal(path.status, 404);
  for (const method of ["GET", "DELETE", "PUT"]) {
    const r = await answer(await s.fetch(new Request(URL_, { method, headers: { accept: ACCEPT } })));
    assert.deepEqual([r.status, r.headers.get("allow")], [405, "POST"], method);
  }
});

test("fetch refuses a wrong media type and an Accept without both types", async () => {
  const s = new SkillsServer();
  assert.equal((await s.fetch(post(discover, { "content-type": "text/plain" }))).status, 415);
  assert.equal((await s.fetch(post(discover, { "content-type": null }))).status, 415);
  assert.equal((await s.fetch(post(discover, { accept: "application/json" }))).status, 406);
  assert.equal((await s.fetch(post(discover, { "content-type": "application/json; charset=utf-8" }))).status, 200);
});

test("fetch refuses an oversized body, declared or streamed, and reads no further", async () => {
  const s = new SkillsServer({ maxBodyBytes: 64 });
  const big = await answer(await s.fetch(post(discover)));
  assert.deepEqual([big.status, big.code], [413, -32600]);
  let pulled = 0;
  const stream = new ReadableStream({
    pull(c) {
      pulled++;
      c.enqueue(new Uint8Array(40).fill(0x20));
    },
  });
  const chunked = new Request(URL_, {
    method: "POST",
    headers: { accept: ACCEPT, "content-type": "application/json" },
    body: stream,
    duplex: "half",
  });
  const r = await answer(await s.fetch(chunked));
  assert.equal(r.status, 413);
  assert.ok(pulled <= 4, `read ${pulled} chunks of an endless body`);
  refused(() => new SkillsServer({ maxBodyBytes: 0 }), "invalid-argument");
  assert.throws(() => new SkillsServer({ maxBodyBytes: 0 }), /maxBodyBytes/);
});

test("a 50 MB message to fetch is refused with 413 by the default limit, declared or streamed", async () => {
  const s = new SkillsServer();
  const size = 50 * 1024 * 1024;
  const declared = await answer(await s.fetch(post(new Uint8Array(size).fill(0x20))));
  assert.deepEqual([declared.status, declared.json?.error?.message], [413, "Content Too Large: a message may have at most 1048576 bytes"]);
  let sent = 0;
  const stream = new ReadableStream({
    pull(c) {
      if (sent >= size) return c.close();
      sent += 1 << 20;
      c.enqueue(new Uint8Array(1 << 20).fill(0x20));
    },
  });
  const streamed = new Request(URL_, { method: "POST", headers: { accept: ACCEPT, "content-type": "application/json" }, body: stream, duplex: "half" });
  const r = await answer(await s.fetch(streamed));
  assert.equal(r.status, 413);
  assert.ok(sent <= 4 << 20, `read ${sent} bytes of a 50 MB body`);
});

test("fetch refuses a body chunk whose length lies, with 400, and keeps serving", async () => {
  const s = new SkillsServer();
  const text = new TextEncoder().encode(discover);
  const lying = [
    (() => { const u = new Uint8Array(text); Object.defineProperty(u, "length", { value: 1 }); return u; })(),
    (() => { let n = 0; const u = new Uint8Array(text); Object.defineProperty(u, "length", { get: () => (n++ ? 3 : text.length) }); return u; })(),
    "not bytes",
  ];
  for (const chunk of lying) {
    const body = new ReadableStream({ start(c) { c.enqueue(chunk); c.close(); } });
    const r = await s.fetch(new Request(URL_, {
      method: "POST",
      headers: { accept: ACCEPT, "content-type": "application/json" },
      body,
      duplex: "half",
    }));
    assert.equal(r.status, 400, String(chunk));
  }
  assert.equal((await s.fetch(post(discover))).status, 200);
});

test("fetch answers the CORS preflight", async () => {
  const s = new SkillsServer();
  const pre = (origin) => new Request(URL_, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": "POST" },
  });
  const ok = await answer(await s.fetch(pre("http://localhost:3000")));
  assert.equal(ok.status, 204);
  assert.equal(ok.headers.get("access-control-allow-origin"), "http://localhost:3000");
  assert.equal(ok.headers.get("access-control-allow-methods"), "POST, OPTIONS");
  assert.match(ok.headers.get("access-control-allow-headers"), /mcp-protocol-version/);
  const evil = await answer(await s.fetch(pre("https://evil.example")));
  assert.equal(evil.status, 403);
  assert.equal(evil.headers.get("access-control-allow-origin"), null);
});

test("fetch serves the mirror unless it is off", async () => {
  const index = new Request("http://127.0.0.1:8787/.well-known/agent-skills/index.json");
  const on = await answer(await new SkillsServer().fetch(index));
  assert.equal(on.status, 200);
  assert.ok(Array.isArray(on.json.skills));
  const off = await new SkillsServer({ mirror: "off" }).fetch(index);
  assert.equal(off.status, 404);
});

test("fetch hands each admitted message to `own` first", async () => {
  const s = new SkillsServer();
  const seen = [];
  const own = (text) => {
    seen.push(JSON.parse(text).method);
    if (JSON.parse(text).method !== "tools/list") return undefined;
    return { status: 200, body: JSON.stringify({ jsonrpc: "2.0", id: 2, result: { tools: [] } }) };
  };
  const tools = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: META } });
  const mine = await answer(await s.fetch(post(tools, { "mcp-method": "tools/list", origin: "http://localhost:1" }), own));
  assert.deepEqual(mine.json, { jsonrpc: "2.0", id: 2, result: { tools: [] } });
  assert.equal(mine.headers.get("vary"), "Origin");
  assert.equal(mine.headers.get("access-control-allow-origin"), "http://localhost:1");
  assert.equal((await s.fetch(post(), own)).status, 200, "left to the server");
  // A refused request never reaches `own`.
  await s.fetch(post(tools, { origin: "https://evil.example" }), own);
  assert.deepEqual(seen, ["tools/list", "server/discover"]);
  const bad = () => ({ status: "200" });
  await assert.rejects(s.fetch(post(), bad), (e) => e.code === "invalid-argument" && /own/.test(e.message));
  await assert.rejects(s.fetch(post(), () => { throw new Error("boom"); }), /boom/);
  refused(() => s.fetch({ method: "POST" }), "invalid-argument");
  refused(() => s.fetch(post(), 42), "invalid-argument");
});
