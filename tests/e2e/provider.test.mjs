// The example in examples/oauth-provider/ (the skills Worker, AUTH_MODE = "provider", as the
// `apiHandler` of @cloudflare/workers-oauth-provider's OAuthProvider) on real workerd: its
// skills folder (one public skill, one private to the scope `skills:oncall`) is packed with
// the native `skills-edge pack`, and the example runs on `wrangler dev` (127.0.0.1, a free
// port, stopped afterwards) with the Worker 30-worker.sh built (worker/build/: the same wasm).
//
// * Without a token, /mcp is the provider's 401 with its Bearer challenge naming the Protected
//   Resource Metadata, which names this resource and the provider as its authorization
//   server; a token the provider did not issue is 401 `invalid_token`. The mirror, outside
//   /mcp, is the skills Worker's for an anonymous caller: the public skill only.
// * The official SDK 2.4 client with its OAuth support (an in-memory OAuthClientProvider):
//   the first connection is refused (UnauthorizedError) after dynamic client registration and
//   with the authorization URL (PKCE S256); the test follows it itself (the example's test
//   consent screen approves at once), reads the code from the redirect and calls
//   `finishAuth`, which exchanges it for a token; a new connection then lists the skills and
//   reads one (SkillsClient: size and SHA-256 checked).
// * Asking for `skills:oncall`, the private skill is listed and read; a second flow without
//   the scope sees the public skill only, and the private one answers like an absent one.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import { startWorker, ROOT } from "./lib/worker.mjs";
import { oauthFlow } from "./lib/oauth.mjs";
import { freePort } from "../lib/processes.mjs";

const run = promisify(execFile);
const EXAMPLE = join(ROOT, "examples", "oauth-provider");
const BUILD = join(EXAMPLE, "build");
const V = "2026-07-28";
const META = { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {} };
const PUBLIC = "skill://team-handbook/SKILL.md";
const PRIVATE = "skill://incident-runbook/SKILL.md";

let worker;
let mcp;

before(async () => {
  // The native command 30-worker.sh exports (its Rust step's build), else the debug build.
  const bin = process.env.SKILLS_EDGE_BIN ?? join(process.env.CARGO_TARGET_DIR ?? join(ROOT, "target"), "debug", "skills-edge");
  rmSync(BUILD, { recursive: true, force: true });
  mkdirSync(BUILD, { recursive: true });
  await run(bin, ["pack", join(EXAMPLE, "skills"), "--assets", join(BUILD, "assets"), "-o", join(BUILD, "catalog.pack")], { cwd: ROOT });
  mkdirSync(join(BUILD, "assets"), { recursive: true });
  const port = await freePort();
  worker = await startWorker({
    config: "examples/oauth-provider/wrangler.toml",
    port,
    vars: { PUBLIC_URL: `http://127.0.0.1:${port}` },
  });
  mcp = `${worker.origin}/mcp`;
});

after(async () => {
  await worker?.stop();
});

/** A raw 2026-07-28 POST to /mcp. */
function post(method, params = {}, headers = {}) {
  return fetch(mcp, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": V,
      "mcp-method": method,
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: META } }),
  });
}

const newClient = () => new Client({ name: "skills-edge-provider-e2e", version: "1.0.0" }, { versionNegotiation: { mode: { pin: V } } });

/**
 * The whole flow for a client asking for `scope` (none when undefined; tests/e2e/lib/oauth.mjs:
 * registration, PKCE authorization, token); returns a connected SkillsClient, its client and
 * the provider.
 */
async function authorizedSkills(scope) {
  const provider = await oauthFlow({ mcp, scope, client: newClient });
  const client = newClient();
  await client.connect(new StreamableHTTPClientTransport(new URL(mcp), { authProvider: provider }));
  return { client, skills: new SkillsClient(client), provider };
}

test("without a token /mcp is the provider's 401; its metadata names the resource and the issuer", async () => {
  const res = await post("skills/list");
  assert.equal(res.status, 401);
  const challenge = res.headers.get("www-authenticate") ?? "";
  assert.match(challenge, /^Bearer /);
  const prmUrl = `${worker.origin}/.well-known/oauth-protected-resource/mcp`;
  assert.ok(challenge.includes(`resource_metadata="${prmUrl}"`), challenge);
  const prm = await (await fetch(prmUrl)).json();
  assert.equal(prm.resource, mcp);
  assert.deepEqual(prm.authorization_servers, [worker.origin]);
  const as = await (await fetch(`${worker.origin}/.well-known/oauth-authorization-server`)).json();
  assert.equal(as.registration_endpoint, `${worker.origin}/register`);
  assert.deepEqual(as.code_challenge_methods_supported, ["S256"]);

  const forged = await post("skills/list", {}, { authorization: "Bearer example-user:grant:not-a-token" });
  assert.equal(forged.status, 401);
  assert.match(forged.headers.get("www-authenticate") ?? "", /error="invalid_token"/);
});

test("the mirror outside /mcp is the anonymous caller's: the public skill only", async () => {
  const res = await fetch(`${worker.origin}/.well-known/agent-skills/index.json`);
  assert.equal(res.status, 200);
  const names = (await res.json()).skills.map((s) => s.name);
  assert.deepEqual(names, ["team-handbook"]);
  const hidden = await fetch(`${worker.origin}/.well-known/agent-skills/incident-runbook/SKILL.md`);
  const absent = await fetch(`${worker.origin}/.well-known/agent-skills/no-such-skill/SKILL.md`);
  assert.equal(hidden.status, absent.status);
  assert.equal(hidden.status, 404);
});

test("the SDK client's OAuth flow with skills:oncall: the private skill is listed and read", { timeout: 60_000 }, async () => {
  const { client, skills, provider } = await authorizedSkills("skills:oncall");
  try {
    assert.equal(provider.tokens().scope, "skills:oncall", "the token carries the scope asked for");
    const { skills: listed } = await skills.list();
    assert.deepEqual(listed.map((s) => s.uri).sort(), [PRIVATE, PUBLIC]);
    const entry = listed.find((s) => s.uri === PRIVATE);
    const file = await skills.read(entry);
    assert.equal(file.verified, true);
    assert.match(new TextDecoder().decode(file.bytes ?? new TextEncoder().encode(file.text)), /# Incident runbook/);
  } finally {
    await client.close().catch(() => {});
  }
});

test("the flow without the scope: the public skill only; the private one answers like an absent one", { timeout: 60_000 }, async () => {
  const { client, skills, provider } = await authorizedSkills(undefined);
  try {
    assert.ok(!(provider.tokens().scope ?? "").includes("skills:oncall"));
    const { skills: listed } = await skills.list();
    assert.deepEqual(listed.map((s) => s.uri), [PUBLIC]);
    const file = await skills.read(listed[0]);
    assert.equal(file.verified, true);
    const token = provider.tokens().access_token;
    const read = async (uri) => {
      const res = await post("resources/read", { uri }, { authorization: `Bearer ${token}`, "mcp-name": uri });
      assert.equal(res.status, 200);
      const body = await res.json();
      assert.ok(body.error, `${uri}: an error, not a result`);
      return JSON.stringify(body.error).replaceAll(uri, "URI");
    };
    assert.equal(await read(PRIVATE), await read("skill://no-such-skill/SKILL.md"));
  } finally {
    await client.close().catch(() => {});
  }
});
