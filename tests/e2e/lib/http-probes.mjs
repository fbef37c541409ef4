// The raw HTTP probes of the Worker's Streamable HTTP rules, as node:test cases run against a
// given Worker: CORS preflight, Origin and Host allow-lists, 405/406/413/415, notifications,
// batches, parse errors, unknown methods, header mirroring. Sent with node:http so every header
// (Host included) is exactly what the probe says. tests/e2e/http-probes.test.mjs runs them
// against the default Worker (AUTH_MODE none), tests/e2e/private.test.mjs against its
// AUTH_MODE jwt Worker with a token, tests/component/browsers.test.mjs against the HTTP
// component with SCOPES (jco serve and wasmtime serve), tests/js/pkg/browsers.test.mjs against
// the npm SkillsServer.fetch with scopes behind node:http.
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";

const V = "2026-07-28";
const ACCEPT = "application/json, text/event-stream";
const META = {
  "io.modelcontextprotocol/protocolVersion": V,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "skills-edge-e2e", version: "1.0.0" },
};
const ALLOWED = "http://localhost:5173"; // a loopback origin: allowed by default
const FOREIGN = "http://evil.example.com";

/**
 * The probes, as `[name, run]` pairs to register with node:test's `test`.
 *
 * - `origin()`: where the Worker listens (`http://127.0.0.1:PORT`); requests go there with
 *   `Host: localhost:PORT` unless a probe says another. A function: it is called when a probe
 *   runs, once the Worker is up.
 * - `headers()`: headers added to every request (an `Authorization` header), except the CORS
 *   preflights, which browsers send without credentials. Default: none.
 * - `expectations`: what depends on how the Worker runs, not on the rules probed:
 *   `maxBodyBytes` (required), the Worker's `MAX_BODY_BYTES`; `tokenHost`, for a token bound
 *   to `http://<tokenHost>:PORT/mcp` (its `aud`): requests through another loopback Host are
 *   then 401 `invalid_token` instead of served. `logTail()` (optional) adds the Worker's log to
 *   a failure.
 *
 * No probe depends on the catalog beyond having a skill: the one that reads a file takes the
 * first skill skills/list gives the caller.
 */
export function httpProbes({ origin, headers = () => ({}), expectations = {}, logTail = () => "" }) {
  const { maxBodyBytes, tokenHost } = expectations;
  assert.ok(Number.isInteger(maxBodyBytes) && maxBodyBytes > 1024, "expectations.maxBodyBytes: the Worker's MAX_BODY_BYTES");
  const target = () => {
    const u = new URL(origin());
    return { hostname: u.hostname, port: Number(u.port) };
  };
  const extra = () => headers();
  const cases = [];
  const case_ = (name, run) => cases.push([name, run]);

  /**
   * One request; resolves `{ status, headers, body, json }`. `body` may be a Buffer or string.
   * `bare`: without the `headers()` every other request carries.
   */
  function send({ method = "POST", path = "/mcp", headers = {}, body, chunks, host, bare = false }) {
    const { hostname, port } = target();
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: hostname,
          port,
          method,
          path,
          headers: { host: host ?? `localhost:${port}`, connection: "close", ...(bare ? {} : extra()), ...headers },
          timeout: 20_000,
        },
        (res) => {
          const parts = [];
          res.on("data", (d) => parts.push(d));
          res.on("end", () => {
            const text = Buffer.concat(parts).toString("utf8");
            let json;
            try {
              json = text ? JSON.parse(text) : undefined;
            } catch {}
            resolve({ status: res.statusCode, headers: res.headers, body: text, json });
          });
        },
      );
      req.on("timeout", () => req.destroy(new Error("timeout")));
      // The server may answer (413) and close before the whole body is sent.
      req.on("error", (err) => (err.code === "EPIPE" || err.code === "ECONNRESET" ? undefined : reject(err)));
      if (chunks) {
        for (const c of chunks) req.write(c);
        req.end();
      } else {
        req.end(body);
      }
    });
  }

  function mcp(method, params = {}, { id = 1, headers = {}, ...rest } = {}) {
    const message = { jsonrpc: "2.0", method, params: { ...params, _meta: META } };
    if (id !== null) message.id = id;
    return send({
      headers: {
        "content-type": "application/json",
        accept: ACCEPT,
        "mcp-protocol-version": V,
        "mcp-method": method,
        ...headers,
      },
      body: JSON.stringify(message),
      ...rest,
    });
  }

  function assertJsonRpcError(res, code, { id } = {}) {
    assert.equal(res.headers["content-type"], "application/json", res.body);
    assert.equal(res.json?.jsonrpc, "2.0", res.body);
    assert.equal(res.json?.error?.code, code, res.body);
    assert.equal(typeof res.json.error.message, "string");
    if (id === undefined) assert.ok(!("id" in res.json), `no id: ${res.body}`);
    else assert.equal(res.json.id, id);
  }

  case_("a result is 200 application/json with Vary: Origin", async () => {
    const res = await mcp("server/discover");
    assert.equal(res.status, 200);
    assert.equal(res.headers["content-type"], "application/json");
    assert.match(res.headers.vary ?? "", /Origin/);
    assert.deepEqual(res.json.result.supportedVersions, [V]);
    assert.equal(res.headers["mcp-session-id"], undefined);
  });

  case_("preflight from an allowed origin is answered without auth", async () => {
    // A browser sends a preflight without credentials (Fetch standard, CORS-preflight request):
    // it is answered without them, also by a Worker that needs a token.
    const res = await send({
      method: "OPTIONS",
      bare: true,
      headers: {
        origin: ALLOWED,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, mcp-protocol-version, mcp-method, mcp-name, authorization",
      },
    });
    assert.equal(res.status, 204);
    assert.equal(res.body, "");
    assert.equal(res.headers["access-control-allow-origin"], ALLOWED);
    assert.equal(res.headers["access-control-allow-methods"], "POST, OPTIONS");
    const allowed = res.headers["access-control-allow-headers"].split(/,\s*/);
    for (const h of ["content-type", "accept", "mcp-protocol-version", "mcp-method", "mcp-name", "authorization"]) {
      assert.ok(allowed.includes(h), `${h} allowed`);
    }
    assert.ok(Number(res.headers["access-control-max-age"]) > 0);
    assert.match(res.headers.vary ?? "", /Origin/);
  });

  case_("an allowed origin gets CORS headers on results and errors", async () => {
    const ok = await mcp("skills/list", {}, { headers: { origin: ALLOWED } });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers["access-control-allow-origin"], ALLOWED);
    const notAcceptable = await mcp("skills/list", {}, { headers: { origin: ALLOWED, accept: "text/html" } });
    assert.equal(notAcceptable.status, 406);
    assert.equal(notAcceptable.headers["access-control-allow-origin"], ALLOWED);
    const notFound = await mcp("no/such-method", {}, { headers: { origin: ALLOWED } });
    assert.equal(notFound.status, 404);
    assert.equal(notFound.headers["access-control-allow-origin"], ALLOWED);
  });

  case_("CORS headers go only to the request with the allowed Origin", async () => {
    for (let i = 0; i < 3; i++) {
      const withOrigin = await mcp("skills/list", {}, { headers: { origin: ALLOWED } });
      assert.equal(withOrigin.headers["access-control-allow-origin"], ALLOWED);
      const without = await mcp("skills/list");
      assert.equal(without.status, 200);
      assert.equal(without.headers["access-control-allow-origin"], undefined);
      assert.match(without.headers.vary ?? "", /Origin/);
    }
  });

  case_("a foreign origin gets 403 with a JSON-RPC error and no CORS headers", async () => {
    for (const method of ["POST", "OPTIONS"]) {
      const res =
        method === "POST"
          ? await mcp("server/discover", {}, { headers: { origin: FOREIGN } })
          : await send({ method, bare: true, headers: { origin: FOREIGN, "access-control-request-method": "POST" } });
      assert.equal(res.status, 403, method);
      assertJsonRpcError(res, -32600);
      assert.equal(res.headers["access-control-allow-origin"], undefined);
    }
  });

  case_("Host reaches the Worker unchanged: a foreign Host is 403, a loopback one is served", async () => {
    const evil = await mcp("server/discover", {}, { host: "evil.example.com" });
    assert.equal(evil.status, 403);
    assertJsonRpcError(evil, -32600);
    assert.match(evil.json.error.message, /evil\.example\.com/);
    const { port } = target();
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) {
      const res = await mcp("server/discover", {}, { host });
      if (tokenHost === undefined || host.startsWith(`${tokenHost}:`)) assert.equal(res.status, 200, host);
      else {
        // The token names one resource (its aud): `http://<tokenHost>:port/mcp`. Through another
        // Host the Worker is another resource, so the same token is refused, not downgraded.
        assert.equal(res.status, 401, `${host}: ${res.status} ${res.body}`);
        assert.match(res.headers["www-authenticate"] ?? "", /^Bearer error="invalid_token", resource_metadata="/);
      }
    }
  });

  case_("GET and DELETE are 405 with Allow: POST", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await send({ method, headers: { accept: "text/event-stream" } });
      assert.equal(res.status, 405, method);
      assert.equal(res.headers.allow, "POST");
      assertJsonRpcError(res, -32600);
    }
  });

  case_("Accept without both types is 406", async () => {
    for (const accept of ["application/json", "text/event-stream", "text/html"]) {
      const res = await mcp("server/discover", {}, { headers: { accept } });
      assert.equal(res.status, 406, accept);
      assertJsonRpcError(res, -32600);
    }
  });

  case_("a Content-Type other than application/json is 415", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded"]) {
      const res = await mcp("server/discover", {}, { headers: { "content-type": type } });
      assert.equal(res.status, 415, type);
      assertJsonRpcError(res, -32600);
    }
  });

  case_("a body over the limit is 413, by Content-Length and when chunked", async () => {
    const big = Buffer.alloc(maxBodyBytes + 1, 0x20);
    const declared = await send({
      headers: { "content-type": "application/json", accept: ACCEPT, "content-length": String(big.length) },
      body: big,
    });
    assert.equal(declared.status, 413);
    assertJsonRpcError(declared, -32600);
    // No Content-Length: the Worker reads the stream and stops at the limit (two chunks, each
    // under it, together over it).
    const half = Math.ceil(maxBodyBytes * 0.61);
    const chunked = await send({
      headers: { "content-type": "application/json", accept: ACCEPT, "transfer-encoding": "chunked" },
      chunks: [Buffer.alloc(half, 0x20), Buffer.alloc(half, 0x20)],
    });
    assert.equal(chunked.status, 413);
    assertJsonRpcError(chunked, -32600);
    // Just under the limit is read and answered.
    const padded = JSON.stringify({ jsonrpc: "2.0", id: 3, method: "skills/list", params: { _meta: META } });
    const ok = await send({
      headers: { "content-type": "application/json", accept: ACCEPT, "mcp-protocol-version": V, "mcp-method": "skills/list" },
      body: padded + " ".repeat(maxBodyBytes - Buffer.byteLength(padded)),
    });
    assert.equal(ok.status, 200, ok.body + "\n" + logTail());
    // A chunked body within the limit is read chunk by chunk and answered.
    const text = JSON.stringify({ jsonrpc: "2.0", id: 4, method: "skills/list", params: { _meta: META } });
    const chunkedOk = await send({
      headers: {
        "content-type": "application/json", accept: ACCEPT, "transfer-encoding": "chunked",
        "mcp-protocol-version": V, "mcp-method": "skills/list",
      },
      chunks: [text.slice(0, 10), text.slice(10, 40), text.slice(40)],
    });
    assert.equal(chunkedOk.status, 200, chunkedOk.body);
    assert.equal(chunkedOk.json.id, 4);
  });

  case_("clients that go away mid-body do not disturb the requests that follow", async () => {
    // Bodies announced by Content-Length but cut short by the client, several at once.
    await Promise.all(Array.from({ length: 8 }, () => new Promise((resolve) => {
      const { hostname, port } = target();
      const req = httpRequest({
        host: hostname, port, method: "POST", path: "/mcp",
        headers: { host: `localhost:${port}`, ...extra(), "content-type": "application/json", accept: ACCEPT, "content-length": "1000" },
      });
      req.on("error", () => resolve());
      req.on("response", (res) => { res.resume(); resolve(); });
      req.write('{"jsonrpc":"2.0",');
      setTimeout(() => { req.destroy(); resolve(); }, 200);
    })));
    // Then many requests in parallel, each answered with its own id.
    const replies = await Promise.all(Array.from({ length: 32 }, (_, i) => mcp("skills/list", {}, { id: 100 + i })));
    for (const [i, r] of replies.entries()) {
      assert.equal(r.status, 200, r.body);
      assert.equal(r.json.id, 100 + i);
    }
  });

  case_("a notification is 202 with no body", async () => {
    const res = await mcp("notifications/initialized", {}, { id: null });
    assert.equal(res.status, 202);
    assert.equal(res.body, "");
    const legacy = await send({
      headers: { "content-type": "application/json", accept: ACCEPT, "mcp-protocol-version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    assert.equal(legacy.status, 202);
    assert.equal(legacy.body, "");
  });

  case_("a batch (JSON array) is 400 with -32600", async () => {
    const res = await send({
      headers: { "content-type": "application/json", accept: ACCEPT, "mcp-protocol-version": V },
      body: JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: META } }]),
    });
    assert.equal(res.status, 400);
    assertJsonRpcError(res, -32600);
  });

  case_("a body that is not JSON is 400 with -32700", async () => {
    const res = await send({
      headers: { "content-type": "application/json", accept: ACCEPT, "mcp-protocol-version": V },
      body: '{"jsonrpc":"2.0","id":1,',
    });
    assert.equal(res.status, 400);
    assertJsonRpcError(res, -32700);
  });

  case_("an unknown method is 404 with -32601 and the request id", async () => {
    const res = await mcp("no/such-method", {}, { id: "abc" });
    assert.equal(res.status, 404);
    assertJsonRpcError(res, -32601, { id: "abc" });
  });

  case_("header mirroring: mismatches are 400 -32020; Mcp-Name may be base64-encoded", async () => {
    const mismatch = await mcp("skills/list", {}, { id: 5, headers: { "mcp-method": "skills/get" } });
    assert.equal(mismatch.status, 400);
    assertJsonRpcError(mismatch, -32020, { id: 5 });
    const versionMismatch = await mcp("skills/list", {}, { id: 6, headers: { "mcp-protocol-version": "2025-11-25" } });
    assert.equal(versionMismatch.status, 400);
    assertJsonRpcError(versionMismatch, -32020, { id: 6 });

    const list = await mcp("skills/list");
    const uri = list.json.result.skills[0].uri;
    const encoded = `=?base64?${Buffer.from(uri, "utf8").toString("base64")}?=`;
    const read = await mcp("resources/read", { uri }, { headers: { "mcp-name": encoded } });
    assert.equal(read.status, 200, read.body);
    assert.equal(read.json.result.contents[0].uri, uri);
    const wrongName = await mcp("resources/read", { uri }, { id: 9, headers: { "mcp-name": "skill://other/SKILL.md" } });
    assert.equal(wrongName.status, 400);
    assertJsonRpcError(wrongName, -32020, { id: 9 });
  });

  case_("a 60,000-character Mcp-Method, Mcp-Name or MCP-Protocol-Version comes back clipped", async () => {
    // A header is not bounded by MAX_BODY_BYTES: a value repeated whole made a 60 KB reply.
    const long = "x".repeat(60_000);
    const list = await mcp("skills/list");
    const uri = list.json.result.skills[0].uri;
    for (const [name, res] of [
      ["Mcp-Method", await mcp("skills/list", {}, { id: 3, headers: { "mcp-method": long } })],
      ["MCP-Protocol-Version", await mcp("skills/list", {}, { id: 3, headers: { "mcp-protocol-version": long } })],
      ["Mcp-Name", await mcp("resources/read", { uri }, { id: 3, headers: { "mcp-name": long } })],
    ]) {
      assert.equal(res.status, 400, `${name}: ${res.body.slice(0, 300)}`);
      assertJsonRpcError(res, -32020, { id: 3 });
      assert.ok(res.body.length < 1000, `${name}: a ${res.body.length}-byte reply`);
      assert.ok(res.json.error.message.includes(`${"x".repeat(200)}…`), `${name}: ${res.json.error.message}`);
    }
  });

  case_("every mirror answer is inert in a browser: nosniff, a sandbox CSP, a resource policy", async () => {
    const index = await send({ method: "GET", path: "/.well-known/agent-skills/index.json" });
    assert.equal(index.status, 200, index.body);
    const paths = JSON.parse(index.body).skills.map((s) => s.url);
    paths.push("/.well-known/agent-skills/index.json", "/.well-known/agent-skills/no-such-skill/SKILL.md");
    for (const path of paths) {
      const res = await send({ method: "GET", path });
      assert.ok([200, 404].includes(res.status), `${path}: ${res.status}`);
      assert.equal(res.headers["x-content-type-options"], "nosniff", path);
      assert.equal(res.headers["content-security-policy"], "default-src 'none'; sandbox", path);
      assert.match(res.headers["cross-origin-resource-policy"] ?? "", /^(same-origin|cross-origin)$/, path);
      if (path.endsWith(".tar.gz")) assert.equal(res.headers["content-disposition"], "attachment", path);
    }
  });

  case_("an unsupported protocol version is 400 with -32022", async () => {
    const res = await send({
      headers: { "content-type": "application/json", accept: ACCEPT, "mcp-protocol-version": "v999", "mcp-method": "server/discover" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "server/discover",
        params: { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "v999" } },
      }),
    });
    assert.equal(res.status, 400);
    assertJsonRpcError(res, -32022, { id: 2 });
    assert.deepEqual(res.json.error.data.supported, [V]);
  });

  case_("other paths are 404 with a JSON-RPC error", async () => {
    const res = await send({ method: "GET", path: "/" });
    assert.equal(res.status, 404);
    assertJsonRpcError(res, -32600);
  });

  return cases;
}
