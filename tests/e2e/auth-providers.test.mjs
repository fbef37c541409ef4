// The identity providers' recipes of docs/private.md on the real Worker
// (tests/fixtures/auth-providers/recipes.json: Auth0 with and without its RFC 9068 profile,
// an Okta custom authorization server, Microsoft Entra ID v1.0 and v2.0, Keycloak, Cloudflare
// Access by email, email domain, group and service token). One workerd process (the binary
// wrangler runs) serves one Worker per recipe, each with the recipe's vars, over a pack of
// tests/fixtures/auth-providers/skills/ (open is public, team private to the scopes the
// recipes grant). A local key server (node http on 127.0.0.1) serves the RSA key the tokens
// are signed with (node's crypto); every token is shaped as its provider documents it (header
// and claims) and must list exactly what the recipe says, or be refused with 401. Then, on
// the same Workers: a recipe's token re-signed by another key, or sent to another recipe's
// Worker, is 401; Access publishes no scopes (its rules name addresses).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { execFile } from "node:child_process";
import { generateKeyPairSync, sign } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { startWorkerd, ROOT } from "./lib/worker.mjs";
import { tempDir } from "../lib/processes.mjs";

const run = promisify(execFile);
const FIXTURE = join(ROOT, "tests", "fixtures", "auth-providers");
const { recipes } = JSON.parse(readFileSync(join(FIXTURE, "recipes.json"), "utf8"));
const V = "2026-07-28";
const META = { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {} };
const KID = "w6tLFbD7OeYcP5s2kA1mQ0rZ";

const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
const other = generateKeyPairSync("rsa", { modulusLength: 2048 });
const b64 = (buf) => Buffer.from(buf).toString("base64url");

/** `"now"`, `"now+N"`, `"now-N"` as seconds from now, at any depth. */
function times(v, now) {
  if (typeof v === "string") {
    const m = /^now(?:([+-])(\d+))?$/.exec(v);
    if (m) return now + (m[1] === "-" ? -1 : 1) * Number(m[2] ?? 0);
    return v;
  }
  if (Array.isArray(v)) return v.map((x) => times(x, now));
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, times(x, now)]));
  return v;
}

/** The token of `t` (a recipe's token), RS256-signed by `key`. */
function mint(t, key = rsa) {
  const header = Object.fromEntries(Object.entries(t.header).map(([k, v]) => [k, v === "KID" ? KID : v]));
  const claims = times(t.claims, Math.floor(Date.now() / 1000));
  const input = `${b64(JSON.stringify(header))}.${b64(JSON.stringify(claims))}`;
  return `${input}.${b64(sign("sha256", Buffer.from(input), key.privateKey))}`;
}

let keyServer;
let workerd;
let byName;

before(async () => {
  keyServer = createServer((req, res) => {
    res.writeHead(req.url === "/jwks" ? 200 : 404, { "content-type": "application/json" });
    res.end(JSON.stringify(req.url === "/jwks" ? { keys: [{ ...rsa.publicKey.export({ format: "jwk" }), kid: KID, use: "sig" }] } : {}));
  });
  await new Promise((resolve) => keyServer.listen(0, "127.0.0.1", resolve));
  const jwks = `http://127.0.0.1:${keyServer.address().port}/jwks`;
  // The native command 30-worker.sh exports (its Rust step's build), else the debug build.
  const bin = process.env.SKILLS_EDGE_BIN ?? join(process.env.CARGO_TARGET_DIR ?? join(ROOT, "target"), "debug", "skills-edge");
  const out = tempDir("auth-providers");
  mkdirSync(join(out, "assets"), { recursive: true });
  await run(bin, ["pack", join(FIXTURE, "skills"), "--assets", join(out, "assets"), "-o", join(out, "catalog.pack")], { cwd: ROOT });
  workerd = await startWorkerd({
    pack: join(out, "catalog.pack"),
    assets: join(out, "assets"),
    instances: recipes.map((r) => ({ ...r.vars, AUTH_JWKS_URL: jwks, ALLOWED_HOSTS: "localhost,127.0.0.1" })),
  });
  byName = Object.fromEntries(recipes.map((r, i) => [r.name, { recipe: r, origin: workerd.origins[i] }]));
});

after(async () => {
  await workerd?.stop();
  keyServer?.closeAllConnections?.();
  keyServer?.close();
});

/** skills/list at `origin` with `token` in the header its mode reads. */
async function list(origin, mode, token) {
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": V,
    "mcp-method": "skills/list",
  };
  if (token !== undefined) {
    if (mode === "access") headers["cf-access-jwt-assertion"] = token;
    else headers.authorization = `Bearer ${token}`;
  }
  const res = await fetch(`${origin}/mcp`, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "skills/list", params: { _meta: META } }),
  });
  if (res.status !== 200) {
    await res.arrayBuffer();
    return { status: res.status, challenge: res.headers.get("www-authenticate") };
  }
  const body = await res.json();
  assert.ok(body.result, JSON.stringify(body));
  return { status: 200, names: body.result.skills.map((s) => s.frontmatter.name).sort() };
}

for (const r of recipes) {
  test(`${r.name}: each token shaped as the provider documents it gets what the recipe says`, async () => {
    const { origin } = byName[r.name];
    // Anonymous: the public skill.
    assert.deepEqual(await list(origin, r.vars.AUTH_MODE), { status: 200, names: ["open"] });
    for (const t of r.tokens) {
      const got = await list(origin, r.vars.AUTH_MODE, mint(t));
      if (t.sees === 401) {
        assert.equal(got.status, 401, `${t.label}: ${JSON.stringify(got)}`);
        assert.match(got.challenge ?? "", /error="invalid_token"/, t.label);
      } else {
        assert.deepEqual(got, { status: 200, names: [...t.sees].sort() }, t.label);
      }
    }
  });
}

test("a recipe's token signed by another key, or sent to another recipe's Worker, is refused", async () => {
  for (const r of recipes) {
    const granted = r.tokens.find((t) => Array.isArray(t.sees) && t.sees.includes("team"));
    const { origin } = byName[r.name];
    assert.equal((await list(origin, r.vars.AUTH_MODE, mint(granted, other))).status, 401, `${r.name}: another key`);
    // Every other recipe's Worker (another issuer or audience, or the other profile).
    for (const o of recipes) {
      if (o.name === r.name || o.vars.AUTH_MODE !== r.vars.AUTH_MODE) continue;
      if (o.vars.AUTH_ISSUER === r.vars.AUTH_ISSUER && o.vars.AUTH_AUDIENCE === r.vars.AUTH_AUDIENCE) {
        // Auth0's two recipes share issuer and audience: the RFC 9068 Worker refuses the
        // Auth0 profile's token (its typ); the jwt profile takes an RFC 9068 token too.
        continue;
      }
      const got = await list(byName[o.name].origin, o.vars.AUTH_MODE, mint(granted));
      assert.equal(got.status, 401, `${r.name}'s token at ${o.name}: ${JSON.stringify(got)}`);
    }
  }
});

test("the Protected Resource Metadata lists the jwt recipes' scopes, and none for Access", async () => {
  const meta = async (name) => {
    const res = await fetch(`${byName[name].origin}/.well-known/oauth-protected-resource/mcp`);
    assert.equal(res.status, 200);
    return res.json();
  };
  const okta = await meta("okta");
  assert.deepEqual(okta.authorization_servers, ["https://acme.okta.com/oauth2/aus2fkb4q3pXyZ1s5358"]);
  assert.ok(okta.scopes_supported.includes("skills:read"), JSON.stringify(okta));
  // The rules name people's addresses: an Access Worker publishes no scopes.
  const access = await meta("access");
  assert.equal(access.scopes_supported, undefined, JSON.stringify(access));
  assert.ok(!JSON.stringify(access).includes("dana@partner.example"));
});
