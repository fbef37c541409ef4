// AUTH_MODE = "provider" from the npm package alone: `skills-edge worker` (pkg/bin, the
// prebuilt Worker the package ships, no Rust) writes a project whose worker/skills.mjs is the
// Worker as a handler; a Worker composed as docs/private.md's recipe for GitHub or Google
// sign-in composes it (@cloudflare/workers-oauth-provider's OAuthProvider, the skills handler
// as its apiHandler, and an authorization route that grants the scopes the signed-in user is
// allowed, never the ones the client asks for). The upstream sign-in is a fixed user here
// (the route stands where GitHub's or Google's callback would return). One `wrangler dev`
// start; the official SDK 2.4 client's OAuth flow (tests/e2e/lib/oauth.mjs): asking for
// skills:read, which the user is allowed, lists the private skill; asking for skills:admin,
// which the provider offers but the user is not allowed, gets a token without it and lists
// the public skill only.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import { startWorker, ROOT } from "./lib/worker.mjs";
import { oauthFlow } from "./lib/oauth.mjs";
import { freePort } from "../lib/processes.mjs";

const run = promisify(execFile);
const V = "2026-07-28";
// Inside the repository, so the composing Worker resolves @cloudflare/workers-oauth-provider
// from its node_modules, as a project that installed it would.
const PROJECT = join(ROOT, "target", "e2e-provider-npm");
const newClient = () => new Client({ name: "skills-edge-provider-npm-e2e", version: "1.0.0" }, { versionNegotiation: { mode: { pin: V } } });

// The composing Worker of docs/private.md ("Behind workers-oauth-provider, from the npm
// package"), its sign-in replaced by a fixed user.
const INDEX = `import { env } from "cloudflare:workers";
import { AuthorizationError, OAuthProvider } from "@cloudflare/workers-oauth-provider";
import pack from "./worker/build/catalog.pack";
import { skillsHandler } from "./worker/skills.mjs";

const skills = skillsHandler(env, pack);

// Who may have which scope: decided here, from the identity the sign-in verified.
const ALLOWED = { "octocat": ["skills:read"] };

async function authorize(request, env) {
  try {
    const oauthRequest = await env.OAUTH_PROVIDER.parseAuthRequest(request);
    // The upstream sign-in (GitHub's or Google's callback) would give the login here.
    const login = "octocat";
    const scope = oauthRequest.scope.filter((s) => (ALLOWED[login] ?? []).includes(s));
    const { redirectTo } = await env.OAUTH_PROVIDER.completeAuthorization({
      request: oauthRequest, userId: login, metadata: {}, scope, props: { login },
    });
    return Response.redirect(redirectTo, 302);
  } catch (error) {
    if (error instanceof AuthorizationError && error.redirectTo) return Response.redirect(error.redirectTo, 302);
    if (error instanceof AuthorizationError) return new Response(error.description, { status: 400 });
    throw error;
  }
}

export default new OAuthProvider({
  apiRoute: "/mcp",
  apiHandler: skills,
  defaultHandler: {
    fetch(request, env, ctx) {
      if (new URL(request.url).pathname === "/authorize") return authorize(request, env);
      return skills.fetch(request, env, ctx);
    },
  },
  authorizeEndpoint: "/authorize",
  tokenEndpoint: "/token",
  clientRegistrationEndpoint: "/register",
  scopesSupported: ["skills:read", "skills:admin"],
  resourceMetadata: { resource: new URL("/mcp", env.PUBLIC_URL).href },
});
`;

let worker;
let mcp;

before(async () => {
  if (!existsSync(join(ROOT, "pkg", "worker", "skills.mjs"))) {
    throw new Error("pkg/ is not built: run `bash scripts/build-pkg.sh` first");
  }
  rmSync(PROJECT, { recursive: true, force: true });
  mkdirSync(PROJECT, { recursive: true });
  await run(process.execPath, [join(ROOT, "pkg", "bin", "skills-edge.mjs"), "worker", join(ROOT, "tests", "fixtures", "auth-providers", "skills"), "--out", PROJECT, "--force"], { cwd: ROOT });
  assert.ok(existsSync(join(PROJECT, "worker", "skills.mjs")), "the project has the handler");
  writeFileSync(join(PROJECT, "index.mjs"), INDEX);
  writeFileSync(
    join(PROJECT, "provider.toml"),
    `name = "skills-edge-provider-npm"
main = "index.mjs"
compatibility_date = "2026-04-01"
[[rules]]
type = "Data"
globs = ["**/*.pack"]
fallthrough = false
[assets]
directory = "worker/build/assets"
binding = "ASSETS"
run_worker_first = true
[[kv_namespaces]]
binding = "OAUTH_KV"
id = "00000000000000000000000000000000"
[vars]
AUTH_MODE = "provider"
ALLOWED_HOSTS = "localhost,127.0.0.1"
`,
  );
  const port = await freePort();
  worker = await startWorker({ config: relative(ROOT, join(PROJECT, "provider.toml")), port, vars: { PUBLIC_URL: `http://127.0.0.1:${port}` } });
  mcp = `${worker.origin}/mcp`;
});

after(async () => {
  await worker?.stop();
  rmSync(PROJECT, { recursive: true, force: true });
});

async function names(scope) {
  const provider = await oauthFlow({ mcp, scope, client: newClient });
  const client = newClient();
  await client.connect(new StreamableHTTPClientTransport(new URL(mcp), { authProvider: provider }));
  try {
    const { skills } = await new SkillsClient(client).list();
    return { scope: provider.tokens().scope ?? "", names: skills.map((s) => s.frontmatter.name).sort() };
  } finally {
    await client.close().catch(() => {});
  }
}

test("without a token /mcp is the provider's 401; the mirror is the anonymous caller's", async () => {
  const res = await fetch(mcp, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  assert.equal(res.status, 401);
  assert.match(res.headers.get("www-authenticate") ?? "", /^Bearer .*resource_metadata=/);
  const index = await (await fetch(`${worker.origin}/.well-known/agent-skills/index.json`)).json();
  assert.deepEqual(index.skills.map((s) => s.name), ["open"]);
});

test("a scope the signed-in user is allowed opens the private skill", { timeout: 60_000 }, async () => {
  assert.deepEqual(await names("skills:read"), { scope: "skills:read", names: ["open", "team"] });
});

test("a scope the client asks for but the user is not allowed is not granted", { timeout: 60_000 }, async () => {
  const got = await names("skills:admin");
  assert.ok(!got.scope.includes("skills:admin"), got.scope);
  assert.deepEqual(got.names, ["open"]);
});
