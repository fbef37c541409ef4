// A bearer token from the host side: SkillsClient's `token` option and `skills-edge verify
// --token` / SKILLS_EDGE_TOKEN (npm and native: identical output and status) against the
// package's SkillsServer behind node:http and a gate that requires `Authorization: Bearer
// RIGHT`: anything else is 401 with `WWW-Authenticate: Bearer [error="invalid_token", ]
// resource_metadata="…"` (RFC 6750 §3, RFC 9728 §5.1), and the Protected Resource Metadata
// document is served at `/.well-known/oauth-protected-resource/mcp`. Without a token and with a
// wrong one the error names the authorization server, scopes_supported, whether a token was
// sent and the fix; with the right one everything verifies. The token never reaches another
// origin (a challenge naming metadata there) nor any message or output.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createServer } from "node:http";
import { join } from "node:path";
import { promisify } from "node:util";
import { SkillsServer } from "skills-edge";
import { SkillsClient } from "skills-edge/client";
import { rejected } from "./common.mjs";

const run = promisify(execFile);
const NATIVE = process.env.SKILLS_EDGE_BIN;
const NPM_BIN = join(process.env.SKILLS_EDGE_PKG ?? "", "bin", "skills-edge.mjs");
const RIGHT = "right-token.S3CRET";
const WRONG = "wrong-token.S3CRET";

/** A node:http server: `gate(req, body)` answers first when it returns a reply. */
async function start(handle) {
  const seen = [];
  const http = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    seen.push({ method: req.method, path: req.url, authorization: req.headers.authorization });
    const r = handle(req, Buffer.concat(chunks).toString("utf8"));
    res.writeHead(r.status, r.headers ?? {}).end(r.body);
  });
  await new Promise((resolve) => http.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${http.address().port}`;
  return {
    origin,
    seen,
    close: () => new Promise((resolve) => { http.closeAllConnections(); http.close(resolve); }),
  };
}

const metadata = (resource) => ({
  status: 200,
  headers: { "content-type": "application/json" },
  body: JSON.stringify({
    resource,
    authorization_servers: ["https://auth.example"],
    scopes_supported: ["skills.read", "team.alpha"],
  }),
});

/** The skills server behind the gate; the challenge names `metadataUrl(origin)`. */
async function gated(metadataUrl) {
  const skills = new SkillsServer({ pageSize: 3 });
  const box = {};
  const s = await start((req, body) => {
    if (req.url.startsWith("/.well-known/oauth-protected-resource")) return metadata(`${box.origin}/mcp`);
    const auth = req.headers.authorization;
    if (auth !== `Bearer ${RIGHT}`) {
      const error = auth === undefined ? "" : `error="invalid_token", `;
      return {
        status: 401,
        headers: { "www-authenticate": `Bearer ${error}resource_metadata="${metadataUrl(box.origin)}"` },
        body: "",
      };
    }
    const reply = skills.handleHttp(body, req.headers);
    return { status: reply.status, headers: reply.body === undefined ? {} : { "content-type": "application/json" }, body: reply.body };
  });
  box.origin = s.origin;
  return s;
}

async function exec(file, args, token) {
  const env = { ...process.env };
  delete env.SKILLS_EDGE_TOKEN;
  if (token !== undefined) env.SKILLS_EDGE_TOKEN = token;
  try {
    const { stdout, stderr } = await run(file, args, { env, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    if (typeof e.code !== "number") throw e;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

function noToken(text) {
  for (const secret of [RIGHT, WRONG, "S3CRET"]) assert.ok(!text.includes(secret), `the token leaked: ${text}`);
  return text;
}

/**
 * npm and native `verify ARGS` (with SKILLS_EDGE_TOKEN = `token`): identical (for a usage error,
 * its first line: the usage text that follows is each program's own); returns it.
 */
async function both(args, token, { usage = false } = {}) {
  const [n, j] = await Promise.all([
    exec(NATIVE, ["verify", ...args], token),
    exec(process.execPath, [NPM_BIN, "verify", ...args], token),
  ]);
  assert.equal(j.stdout, n.stdout, `stdout of ${args.join(" ")}`);
  const first = (t) => (usage ? t.split("\n")[0] : t);
  assert.equal(first(j.stderr), first(n.stderr), `stderr of ${args.join(" ")}`);
  assert.equal(j.code, n.code, `exit status of ${args.join(" ")}`);
  noToken(n.stdout + n.stderr);
  return n;
}

let server;
let other;
let elsewhere;
before(async () => {
  assert.ok(NATIVE && process.env.SKILLS_EDGE_PKG, "SKILLS_EDGE_BIN and SKILLS_EDGE_PKG are set (scripts/test.d/20-npm.sh)");
  server = await gated((origin) => `${origin}/.well-known/oauth-protected-resource/mcp`);
  other = await start((req) => metadata(`http://other.example/mcp`));
  elsewhere = await gated(() => `${other.origin}/.well-known/oauth-protected-resource/mcp`);
});

after(async () => {
  for (const s of [server, other, elsewhere]) await s?.close();
});

test("verify --token and SKILLS_EDGE_TOKEN: npm and native alike", async () => {
  const url = `${server.origin}/mcp`;
  const none = await both([url]);
  assert.equal(none.code, 2);
  for (const part of ["HTTP 401", "no token was sent", "authorization server(s) https://auth.example", "scopes_supported skills.read, team.alpha", "pass --token or set SKILLS_EDGE_TOKEN", "[http-status]"]) {
    assert.ok(none.stderr.includes(part), `${part}: ${none.stderr}`);
  }
  for (const [args, env] of [[[url, "--token", WRONG], undefined], [[url, "--json"], WRONG]]) {
    const wrong = await both(args, env);
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /a token was sent and refused \(error="invalid_token"\)/);
  }
  for (const [args, env] of [[[url], RIGHT], [[url, "--token", RIGHT], WRONG]]) {
    const right = await both(args, env);
    assert.equal(right.code, 0, right.stderr);
    assert.match(right.stderr, /every file verified/);
  }
  const bad = await both([url, "--token", "Bearer S3CRET"], undefined, { usage: true });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--token: not a bearer token \(not shown\)/);
});

test("SkillsClient's token option: sent, explained on a 401, never in a message", async () => {
  const url = `${server.origin}/mcp`;
  const none = await rejected(() => SkillsClient.connect(url), "http-status", { actual: "401" });
  assert.match(none.message, /no token was sent; its metadata .* names the authorization server\(s\) https:\/\/auth\.example and scopes_supported skills\.read, team\.alpha/);
  assert.match(none.message, /SkillsClient: the token option/);
  const wrong = await rejected(() => SkillsClient.connect(url, { token: WRONG }), "http-status");
  assert.match(noToken(wrong.message), /a token was sent and refused \(error="invalid_token"\)/);
  const client = await SkillsClient.connect(url, { token: RIGHT });
  const listing = await client.list();
  assert.equal(listing.skills.length, 7);
  const report = await client.verify();
  assert.equal(report.exitCode, 0, report.error);
  // setHeaders keeps the token.
  client.setHeaders({ "x-test": "1" });
  await client.load(listing.skills[0].uri);
  const seen = server.seen.filter((r) => r.method === "POST" && r.authorization === `Bearer ${RIGHT}`);
  assert.ok(seen.length >= 4, JSON.stringify(seen.length));
  // Refusals that would carry the token do not repeat it.
  const both = await rejected(() => SkillsClient.connect(url, { token: RIGHT, headers: { authorization: "Bearer x" } }), "invalid-argument");
  assert.match(noToken(both.message), /use one of them/);
  const bad = await rejected(() => SkillsClient.connect(url, { token: "Bearer S3CRET" }), "invalid-argument");
  assert.match(noToken(bad.message), /not a bearer token \(not shown\)/);
  await rejected(() => SkillsClient.connect(url, { token: 42 }), "invalid-argument");
});

test("the token never goes to another origin", async () => {
  const url = `${elsewhere.origin}/mcp`;
  const e = await rejected(() => SkillsClient.connect(url, { token: WRONG }), "http-status");
  // The other origin's document names another resource: not used (RFC 9728 §3.3), said so.
  assert.match(noToken(e.message), /no usable resource metadata/);
  const out = await both([url, "--token", WRONG]);
  assert.equal(out.code, 2);
  assert.ok(other.seen.length >= 3, JSON.stringify(other.seen));
  assert.ok(other.seen.every((r) => r.authorization === undefined), JSON.stringify(other.seen));
  assert.ok(elsewhere.seen.some((r) => r.authorization === `Bearer ${WRONG}`));
});

test("a 401 of a well-known index is explained as an endpoint's: npm and native alike", async () => {
  const index = `${server.origin}/.well-known/agent-skills/index.json`;
  const none = await both(["--well-known", server.origin]);
  assert.equal(none.code, 2);
  for (const part of [
    `the server answered GET ${index} with HTTP 401`,
    "no token was sent",
    `its metadata (${server.origin}/.well-known/oauth-protected-resource/mcp) names the authorization server(s) https://auth.example and scopes_supported skills.read, team.alpha`,
    "pass --token or set SKILLS_EDGE_TOKEN",
    "[http-status]",
  ]) {
    assert.ok(none.stderr.includes(part), `${part}: ${none.stderr}`);
  }
  const wrong = await both(["--well-known", server.origin, "--token", WRONG]);
  assert.equal(wrong.code, 2);
  assert.match(wrong.stderr, /a token was sent and refused \(error="invalid_token"\); its metadata .* names the authorization server\(s\) https:\/\/auth\.example/);
  // SkillsClient.verifyWellKnown: the same explanation in the report's error.
  const report = await SkillsClient.verifyWellKnown(index, { token: WRONG });
  assert.equal(report.exitCode, 2);
  const error = typeof report.error === "string" ? report.error : report.error?.message;
  assert.match(noToken(String(error)), /GET .*index\.json with HTTP 401: .*a token was sent and refused.* names the authorization server\(s\) https:\/\/auth\.example and scopes_supported skills\.read, team\.alpha/);
  // A challenge naming another origin's document: not used, said so, no token sent there.
  const before = other.seen.length;
  const elsewhereOut = await both(["--well-known", elsewhere.origin, "--token", WRONG]);
  assert.equal(elsewhereOut.code, 2);
  assert.match(elsewhereOut.stderr, /no usable resource metadata .*another origin/);
  assert.ok(other.seen.length > before);
  assert.ok(other.seen.every((r) => r.authorization === undefined), JSON.stringify(other.seen));
});
