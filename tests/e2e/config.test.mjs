// Worker configuration through Worker vars (`wrangler dev --var NAME:value`): values take
// effect, and a bad value stops the Worker at start with a message naming the variable, its
// value and the accepted form (instead of failing each request).
import { test } from "node:test";
import assert from "node:assert/strict";
import { startWorker } from "./lib/worker.mjs";

const V = "2026-07-28";
const META = { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {} };

async function discover(worker) {
  const res = await fetch(`${worker.origin}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": V,
      "mcp-method": "server/discover",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: META } }),
  });
  assert.equal(res.status, 200);
  return (await res.json()).result;
}

test("vars configure the Worker", async () => {
  const worker = await startWorker({
    vars: { TTL_MS: "1234", CACHE_SCOPE: "private", INSTRUCTIONS: "Load a skill before acting." },
  });
  try {
    const result = await discover(worker);
    assert.equal(result.ttlMs, 1234);
    assert.equal(result.cacheScope, "private");
    assert.equal(result.instructions, "Load a skill before acting.");
  } finally {
    await worker.stop();
  }
});

test("the defaults hold without vars", async () => {
  const worker = await startWorker();
  try {
    const result = await discover(worker);
    assert.equal(result.ttlMs, 300000);
    assert.equal(result.cacheScope, "public");
    assert.match(result.instructions, /skill:\/\//);
  } finally {
    await worker.stop();
  }
});

for (const [name, value, form] of [
  ["CACHE_SCOPE", "shared", "`public` or `private`"],
  ["PAGE_SIZE", "0", "an integer from 1 to 1000"],
  ["ALLOWED_ORIGINS", "localhost:3000", "comma-separated list of origins"],
]) {
  test(`a bad ${name} stops the Worker at start`, async () => {
    await assert.rejects(startWorker({ vars: { [name]: value }, readyTimeoutMs: 60_000 }), (err) => {
      assert.match(err.message, /exited/);
      assert.ok(err.message.includes(`configuration variable ${name} = "${value}" is invalid`), err.message);
      assert.ok(err.message.includes(form), err.message);
      return true;
    });
  });
}

test("AUTH_MODE jwt with ALLOWED_HOSTS * and no AUTH_AUDIENCE stops the Worker at start", async () => {
  // Any Host would choose the accepted audience: a token minted for another server would pass.
  const vars = { AUTH_MODE: "jwt", AUTH_ISSUER: "https://auth.example.com", ALLOWED_HOSTS: "*" };
  await assert.rejects(startWorker({ vars, readyTimeoutMs: 60_000 }), (err) => {
    assert.match(err.message, /exited/);
    assert.ok(
      err.message.includes("configuration variable AUTH_AUDIENCE is invalid (required with AUTH_MODE jwt when ALLOWED_HOSTS holds a wildcard (*)"),
      err.message,
    );
    assert.ok(err.message.includes("set AUTH_AUDIENCE to this server's MCP URL"), err.message);
    return true;
  });
});

test("a token minted for another service under the shipped *.workers.dev cannot pass: jwt without AUTH_AUDIENCE stops the Worker", async () => {
  // The shipped wrangler.toml admits *.workers.dev: without AUTH_AUDIENCE, a request naming
  // `Host: other-service.acct.workers.dev` would make that service's token this one's.
  const vars = { AUTH_MODE: "jwt", AUTH_ISSUER: "https://auth.example.com" };
  await assert.rejects(startWorker({ vars, readyTimeoutMs: 60_000 }), (err) => {
    assert.match(err.message, /exited/);
    assert.ok(
      err.message.includes("configuration variable AUTH_AUDIENCE is invalid (required with AUTH_MODE jwt when ALLOWED_HOSTS holds a wildcard (*.workers.dev)"),
      err.message,
    );
    assert.ok(err.message.includes("set AUTH_AUDIENCE to this server's MCP URL"), err.message);
    return true;
  });
  // With its audience named, the documented setup starts.
  const worker = await startWorker({ vars: { ...vars, AUTH_AUDIENCE: "https://skills.acct.workers.dev/mcp" }, readyTimeoutMs: 60_000 });
  await worker.stop();
});
