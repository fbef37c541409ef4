// SkillsServer.fetch(request, { scopes }) where the scopes come with the browser (a cookie
// session the host hands over): what a page of another site can make a browser do with the
// mirror. The catalog is tests/fixtures/active-skills/ compiled by the package
// (compileCatalog); the granted caller has the `billing` scope, the anonymous one none. The
// cases are tests/lib/browser-probes.mjs's, shared with the HTTP component's `SCOPES`
// (tests/component/browsers.test.mjs): a `<script src>`, image or frame of a private file from
// another site answers exactly as an absent file and the index as the public one, the grant's
// answers are `Cross-Origin-Resource-Policy: same-origin` and the others `cross-origin`, a
// skill's HTML, SVG, script and XML are attachments under a sandbox CSP with `nosniff`, byte
// for byte, and a 60,000-character `Mcp-Method`, `Mcp-Name` or `MCP-Protocol-Version` comes
// back clipped (also from `handleHttp`). Then the Worker's raw HTTP probes
// (tests/e2e/lib/http-probes.mjs) against `fetch` with the scopes behind a node:http server
// on 127.0.0.1 that hands it each request as it came (every header, the body as a stream).
import { test, before, after } from "node:test";
import { createServer } from "node:http";
import { Readable } from "node:stream";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { SkillsServer, compileCatalog } from "skills-edge";
import { REPO } from "./common.mjs";

const { FIXTURE, SCOPE, browserProbes } = await import(pathToFileURL(join(REPO, "tests", "lib", "browser-probes.mjs")).href);
const { httpProbes } = await import(pathToFileURL(join(REPO, "tests", "e2e", "lib", "http-probes.mjs")).href);
const MAX_BODY_BYTES = 65536;

const files = readdirSync(FIXTURE, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile())
  .map((e) => join(e.parentPath, e.name))
  .map((p) => ({ path: relative(FIXTURE, p).split("\\").join("/"), bytes: readFileSync(p) }));
const { pack } = compileCatalog(files);
const server = new SkillsServer({ pack, maxBodyBytes: MAX_BODY_BYTES });
const ORIGIN = "http://127.0.0.1:8787";

/** The answer as the probes take it: status, every header by lowercase name, body bytes. */
async function answer(response) {
  const headers = Object.fromEntries(response.headers.entries());
  return { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()) };
}

const get = async (path, headers, granted) =>
  answer(await server.fetch(new Request(ORIGIN + path, { headers }), granted ? { scopes: [SCOPE] } : undefined));
const post = async (headers, body) => answer(await server.fetch(new Request(`${ORIGIN}/mcp`, { method: "POST", headers, body })));

for (const [name, run] of browserProbes({ get, post })) {
  test(`SkillsServer.fetch with a session's scopes: ${name}`, run);
}

test("SkillsServer.handleHttp: a 60,000-character Mcp-Method, Mcp-Name or MCP-Protocol-Version comes back clipped", () => {
  const long = "x".repeat(60_000);
  const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
  const uri = "skill://hello/SKILL.md";
  const message = (method, params = {}) => JSON.stringify({ jsonrpc: "2.0", id: 3, method, params: { ...params, _meta: meta } });
  const base = { "mcp-protocol-version": "2026-07-28" };
  for (const [name, reply] of [
    ["Mcp-Method", server.handleHttp(message("skills/list"), { ...base, "mcp-method": long }, { scopes: [SCOPE] })],
    ["MCP-Protocol-Version", server.handleHttp(message("skills/list"), { "mcp-protocol-version": long, "mcp-method": "skills/list" })],
    ["Mcp-Name", server.handleHttp(message("resources/read", { uri }), { ...base, "mcp-method": "resources/read", "mcp-name": long })],
  ]) {
    assert.equal(reply.status, 400, `${name}: ${reply.body.slice(0, 300)}`);
    assert.ok(reply.body.length < 1000, `${name}: a ${reply.body.length}-byte reply`);
    const json = JSON.parse(reply.body);
    assert.deepEqual([json.id, json.error.code], [3, -32020], name);
    assert.ok(json.error.message.includes(`${"x".repeat(200)}…`), `${name}: ${json.error.message}`);
    assert.ok(!json.error.message.includes("x".repeat(201)), `${name}: ${json.error.message}`);
  }
});

// `fetch` with the session's scopes behind node:http, as a host mounts it: the request's
// every header (Host included) and its body as a stream, the response as `fetch` made it.
// Node's bound on a request head is raised, so that a 60,000-character header reaches `fetch`.
let http;
before(async () => {
  http = createServer({ maxHeaderSize: 131072 }, async (req, res) => {
    try {
      const headers = new Headers();
      for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
      const body = req.method === "GET" || req.method === "HEAD" ? undefined : Readable.toWeb(req);
      const request = new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body, duplex: "half" });
      const response = await server.fetch(request, { scopes: [SCOPE] });
      const bytes = Buffer.from(await response.arrayBuffer());
      res.writeHead(response.status, Object.fromEntries(response.headers)).end(bytes);
    } catch {
      // The client went away mid-body: nobody to answer.
      res.destroy();
    }
  });
  await new Promise((resolve) => http.listen(0, "127.0.0.1", resolve));
});
after(async () => {
  http?.closeAllConnections();
  await new Promise((resolve) => (http ? http.close(resolve) : resolve()));
});

for (const [name, run] of httpProbes({
  origin: () => `http://127.0.0.1:${http.address().port}`,
  expectations: { maxBodyBytes: MAX_BODY_BYTES },
})) {
  test(`SkillsServer.fetch with a session's scopes behind node:http: HTTP probe: ${name}`, run);
}
