// The example in examples/agents-worker/ on real workerd: @cloudflare/workers-oauth-provider
// in front of the Agents SDK's createMcpHandler (agents/mcp/server) in front of an official
// TypeScript SDK 2.4 McpServer with one tool of its own (`whoami`) and the SDK's Skills
// extension over skills-edge's pack (`packSkillSource` from skills-edge/sdk). Its skills folder
// (a public skill, and one private to the scope `skills:oncall` by its skills-edge.toml) is
// packed with the npm package's CLI, and the example runs on `wrangler dev` (127.0.0.1, a free
// port, stopped afterwards). Checked:
//
// * the example type-checks strictly (`tsc`) against the installed packages' declarations and
//   the Workers types `wrangler types` generates from its wrangler.toml, with no `any`;
// * without a token /mcp is the provider's 401 with its Bearer challenge, whose Protected
//   Resource Metadata names this resource and the provider, which offers the private skill's
//   scope; a token the provider did not issue is 401 `invalid_token`;
// * the test consent screen answers 400 without a redirect for an unknown client and for a
//   redirect URI the client did not register;
// * the official SDK 2.4 client's OAuth flow (tests/e2e/lib/oauth.mjs: dynamic registration,
//   PKCE through the example's test consent screen, `finishAuth`), once asking for
//   `skills:oncall` and once for no scope; then, with each token and on both eras (2026-07-28
//   pinned, 2025-11-25 legacy), the SDK judge (tests/judges/sdk.mjs: SkillsClient lists every
//   page, gets every entry, reads and verifies every file, walks every directory) sees exactly
//   what the token may see, computed from the folder;
// * the example's own tool answers on both eras with the user and the token's scopes;
// * without the scope the private skill is absent as an unknown one is: the same error on
//   skills/get (also through the SDK on both eras), resources/read and
//   resources/directory/read, apart from the URI the request named;
// * MCP Inspector 2.12 `--cli --verify --header "Authorization: Bearer …"`, both eras, with the
//   `skills:oncall` token: both skills verified;
// * the conformance suite's three skills scenarios at 2026-07-28 and 2025-11-25 with that token,
//   through a local proxy adding the header (tests/e2e/lib/proxy.mjs): every check SUCCESS,
//   nothing skipped but the two cache checks the suite itself skips below 2026-07-28;
// * the READMEs' blocks marked `<!-- example: agents-worker -->` (the quick start, the
//   package's README) are the example's code: each line, comments aside, is one of src/index.ts.
// Needs the npm package built (pkg/, by scripts/build-pkg.sh). Run with Node 22.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import { startWorker, ROOT } from "./lib/worker.mjs";
import { oauthFlow } from "./lib/oauth.mjs";
import { headerProxy } from "./lib/proxy.mjs";
import { runScenario } from "./lib/mcp.mjs";
import { freePort, tempDir } from "../lib/processes.mjs";
import { ERAS, judgeSdk } from "../judges/sdk.mjs";
import { judgeInspector } from "../judges/inspector.mjs";
import { published } from "../judges/folder.mjs";

const run = promisify(execFile);
const EXAMPLE = join(ROOT, "examples", "agents-worker");
const SKILLS_DIR = join(EXAMPLE, "skills");
const BUILD = join(EXAMPLE, "build");
const SKILLS_CLI = join(ROOT, "node_modules", ".bin", "skills-edge");
const WRANGLER = join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");
const TSC = join(ROOT, "node_modules", ".bin", "tsc");
const V = ERAS.modern;
const META = { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {} };
const ONCALL = "skills:oncall";
const PUBLIC = "deploy-checklist";
const PRIVATE = "incident-escalation";
const ABSENT = "no-such-skill";

let worker;
let mcp;
let outRoot;
/** `wrangler types` for the type check, run while the Worker starts. */
let workerTypes;
/** The two callers' OAuth providers (holding their tokens): with `skills:oncall`, and none. */
const callers = {};

/** What a caller seeing the skill folders `names` may see: `{ skills, files, bytes, dirs }`. */
const visible = (names) => published(SKILLS_DIR, { roots: names });

before(async () => {
  assert.ok(
    existsSync(join(ROOT, "pkg", "web", "skills_edge_bg.wasm")),
    "the npm package is not built: run `bash scripts/build-pkg.sh` first",
  );
  outRoot = tempDir("agents-worker");
  rmSync(BUILD, { recursive: true, force: true });
  mkdirSync(BUILD, { recursive: true });
  // The pack is not committed: made from the example's skills/ as its README says.
  await run(process.execPath, [SKILLS_CLI, "pack", SKILLS_DIR, "-o", join(BUILD, "skills.pack")], { cwd: ROOT });
  const quiet = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_HIDE_BANNER: "true", WRANGLER_LOG_PATH: join(outRoot, "types-logs") };
  workerTypes = run(process.execPath, [WRANGLER, "types", "-c", join(EXAMPLE, "wrangler.toml"), join(BUILD, "worker-configuration.d.ts")], { cwd: ROOT, env: quiet })
    .then(() => null, (e) => e);
  const port = await freePort();
  worker = await startWorker({
    config: "examples/agents-worker/wrangler.toml",
    port,
    vars: { PUBLIC_URL: `http://127.0.0.1:${port}` },
  });
  mcp = `${worker.origin}/mcp`;
  const [oncall, none] = await Promise.all([oauthFlow({ mcp, scope: ONCALL }), oauthFlow({ mcp, scope: undefined })]);
  assert.equal(oncall.tokens().scope, ONCALL, "the token carries the scope asked for");
  assert.ok(!(none.tokens().scope ?? "").includes(ONCALL), "the token without the scope");
  Object.assign(callers, { oncall, none });
});

after(async () => {
  await workerTypes;
  await worker?.stop();
  if (outRoot) rmSync(outRoot, { recursive: true, force: true });
});

const bearer = (caller) => ({ authorization: `Bearer ${callers[caller].tokens().access_token}` });

/** A raw 2026-07-28 POST to /mcp; resolves `{ status, headers, json, text }`. */
async function post(method, params = {}, headers = {}) {
  const res = await fetch(mcp, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": V,
      "mcp-method": method,
      ...(params.uri ? { "mcp-name": params.uri } : {}),
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: META } }),
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, headers: res.headers, json, text };
}

/** An SDK 2.4 client of the example on `era` with `caller`'s OAuth provider; `use(client)`. */
async function withClient(caller, era, use) {
  const client = new Client(
    { name: "skills-edge-agents-e2e", version: "1.0.0" },
    era === "modern" ? { versionNegotiation: { mode: { pin: V } } } : { versionNegotiation: { mode: "legacy" } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(mcp), { authProvider: callers[caller] }));
  try {
    assert.equal(client.getNegotiatedProtocolVersion(), ERAS[era]);
    return await use(client);
  } finally {
    await client.close().catch(() => {});
  }
}

test("the example type-checks strictly against the packages' and the Workers' declarations", { timeout: 120_000 }, async () => {
  const failed = await workerTypes;
  assert.equal(failed, null, `wrangler types: ${failed?.message}\n${failed?.stdout ?? ""}${failed?.stderr ?? ""}`);
  const res = await run(TSC, ["-p", join(EXAMPLE, "tsconfig.json")], { cwd: ROOT }).catch((e) => e);
  assert.equal(res.code ?? 0, 0, `${res.stdout}${res.stderr}`);
  const src = readFileSync(join(EXAMPLE, "src", "index.ts"), "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
  assert.doesNotMatch(src, /\bany\b/, "no `any` in the example");
});

test("without a token /mcp is the provider's 401; the metadata names the resource, the issuer and the scope", async () => {
  const res = await post("skills/list");
  assert.equal(res.status, 401);
  const prmUrl = `${worker.origin}/.well-known/oauth-protected-resource/mcp`;
  const challenge = res.headers.get("www-authenticate") ?? "";
  assert.match(challenge, /^Bearer /);
  assert.ok(challenge.includes(`resource_metadata="${prmUrl}"`), challenge);
  const prm = await (await fetch(prmUrl)).json();
  assert.equal(prm.resource, mcp);
  assert.deepEqual(prm.authorization_servers, [worker.origin]);
  // The private skill's scope is the authorization server's to offer, not a scope every token
  // needs (the PRM's scopes_supported, which clients would ask for by default).
  assert.equal(prm.scopes_supported, undefined);
  const as = await (await fetch(`${worker.origin}/.well-known/oauth-authorization-server`)).json();
  assert.deepEqual(as.scopes_supported, [ONCALL]);
  assert.equal(as.registration_endpoint, `${worker.origin}/register`);
  assert.deepEqual(as.code_challenge_methods_supported, ["S256"]);
  const forged = await post("skills/list", {}, { authorization: "Bearer example-user:grant:not-a-token" });
  assert.equal(forged.status, 401);
  assert.match(forged.headers.get("www-authenticate") ?? "", /error="invalid_token"/);
  assert.doesNotMatch(forged.text, /deploy-checklist/);
});

test("the test consent screen refuses what the provider cannot validate, without redirecting", async () => {
  const { client_id: clientId } = callers.none.clientInformation();
  const base = { response_type: "code", code_challenge: "x".repeat(43), code_challenge_method: "S256", state: "s" };
  const cases = {
    "an unknown client": { ...base, client_id: "no-such-client", redirect_uri: "http://127.0.0.1:9/callback" },
    "a redirect URI the client did not register": { ...base, client_id: clientId, redirect_uri: "http://attacker.example/callback" },
  };
  for (const [what, params] of Object.entries(cases)) {
    const res = await fetch(`${worker.origin}/authorize?${new URLSearchParams(params)}`, { redirect: "manual" });
    const text = await res.text();
    assert.equal(res.status, 400, `${what}: ${text}`);
    assert.equal(res.headers.get("location"), null, `${what}: no redirect`);
    assert.match(text, /^authorization refused: /, what);
  }
  // Other paths are 404 (JSON), as wrangler dev's readiness check expects.
  const other = await fetch(`${worker.origin}/nothing-here`);
  assert.equal(other.status, 404);
  assert.equal((await other.json()).error, "not_found");
});

test("after the OAuth flow the SDK client sees exactly what each token may see, on both eras", { timeout: 240_000 }, async () => {
  const want = { oncall: visible([PUBLIC, PRIVATE]), none: visible([PUBLIC]) };
  await Promise.all(
    Object.keys(callers).flatMap((caller) =>
      Object.keys(ERAS).map(async (era) => {
        const transport = () => new StreamableHTTPClientTransport(new URL(mcp), { authProvider: callers[caller] });
        const s = await judgeSdk({ transport, era });
        assert.deepEqual({ skills: s.skills, files: s.files, bytes: s.bytes, dirs: s.dirs }, want[caller], `${caller}, ${era}`);
        assert.equal(s.serverInfo.name, "team-mcp");
        const names = await withClient(caller, era, async (client) => {
          const listing = await new SkillsClient(client).list();
          // recommendedCacheHint: the pack has a private skill, so every answer is private.
          if (era === "modern") assert.equal(listing.cacheScope, "private", `${caller}: cacheScope`);
          return listing.skills.map((x) => x.frontmatter.name).sort();
        });
        assert.deepEqual(names, caller === "oncall" ? [PUBLIC, PRIVATE] : [PUBLIC], `${caller}, ${era}`);
      }),
    ),
  );
});

test("the example's own tool answers with the user and the token's scopes, on both eras", async () => {
  for (const caller of Object.keys(callers)) {
    for (const era of Object.keys(ERAS)) {
      await withClient(caller, era, async (client) => {
        const caps = client.getServerCapabilities();
        assert.ok(caps.tools, `${era}: tools declared`);
        assert.ok(caps.extensions?.["io.modelcontextprotocol/skills"], `${era}: the skills extension declared`);
        const { tools } = await client.listTools();
        assert.deepEqual(tools.map((t) => t.name), ["whoami"]);
        const res = await client.callTool({ name: "whoami", arguments: {} });
        assert.notEqual(res.isError, true, JSON.stringify(res));
        const text = res.content.find((c) => c.type === "text")?.text;
        assert.deepEqual(JSON.parse(text), { user: "example-user", scopes: caller === "oncall" ? [ONCALL] : [] }, `${caller}, ${era}`);
        assert.doesNotMatch(text, new RegExp(callers[caller].tokens().access_token), "the token is never in a reply");
      });
    }
  }
});

test("without the scope the private skill answers as an unknown one", async () => {
  const headers = bearer("none");
  const hidden = `skill://${PRIVATE}`;
  const absent = `skill://${ABSENT}`;
  const pairs = [
    ["skills/get", { uri: `${hidden}/SKILL.md` }, { uri: `${absent}/SKILL.md` }],
    ["resources/read", { uri: `${hidden}/SKILL.md` }, { uri: `${absent}/SKILL.md` }],
    ["resources/read", { uri: `${hidden}/references/severity.md` }, { uri: `${absent}/references/severity.md` }],
    ["resources/directory/read", { uri: hidden }, { uri: absent }],
  ];
  for (const [method, h, a] of pairs) {
    const got = await post(method, h, headers);
    const want = await post(method, a, headers);
    assert.ok(want.json?.error, `${method} ${a.uri} is an error: ${want.text}`);
    assert.equal(got.status, want.status, `${method} ${h.uri}: status`);
    assert.equal(got.text.split(PRIVATE).join(ABSENT), want.text, `${method} ${h.uri}: body`);
  }
  // The same calls with the scope are answered.
  for (const [method, h] of pairs) {
    const got = await post(method, h, bearer("oncall"));
    assert.ok(got.json?.result, `${method} ${h.uri} with ${ONCALL}: ${got.text}`);
  }
  // Through the SDK, both eras: the same error code, the same message but for the URI.
  for (const era of Object.keys(ERAS)) {
    await withClient("none", era, async (client) => {
      const skills = new SkillsClient(client);
      const error = async (uri) => {
        try {
          await skills.get(uri);
        } catch (e) {
          return e;
        }
        assert.fail(`${era}: skills/get ${uri} answered`);
      };
      const h = await error(`${hidden}/SKILL.md`);
      const a = await error(`${absent}/SKILL.md`);
      assert.equal(h.code, a.code, `${era}: ${h.message}`);
      assert.equal(h.message.split(PRIVATE).join(ABSENT), a.message, era);
    });
  }
});

test("MCP Inspector 2.12 --verify with the skills:oncall token's header, both eras", { timeout: 180_000 }, async () => {
  const want = visible([PUBLIC, PRIVATE]);
  await Promise.all(
    Object.keys(ERAS).map(async (era) => {
      const r = await judgeInspector({
        target: mcp,
        era,
        expectedSkills: want.skills,
        headers: [`Authorization: Bearer ${callers.oncall.tokens().access_token}`],
      });
      assert.equal(r.files, want.files, era);
      assert.equal(r.bytes, want.bytes, era);
      assert.deepEqual(r.reports.map((x) => x.uri).sort(), [`skill://${PUBLIC}/SKILL.md`, `skill://${PRIVATE}/SKILL.md`]);
    }),
  );
});

// The suite itself skips these below 2026-07-28: ttlMs and cacheScope do not exist there.
const SKIPPED_BELOW_2026 = {
  "sep-2640-skills-enumeration": ["sep-2640-skills-list-cache-attributes", "sep-2640-skills-get-cache-attributes"],
};

test("the conformance suite's skills scenarios with the skills:oncall token, both versions", { timeout: 180_000 }, async () => {
  // The token is for http://127.0.0.1:PORT/mcp: the proxy sends that Host.
  const proxy = await headerProxy({ port: worker.port, host: `127.0.0.1:${worker.port}`, headers: bearer("oncall") });
  try {
    const runs = [];
    for (const version of [ERAS.modern, ERAS.legacy]) {
      for (const scenario of ["sep-2640-skills-enumeration", "sep-2640-skills-manifest", "sep-2640-skills-directory"]) {
        runs.push(runScenario(proxy.url, scenario, version, { outRoot, force: true }).then((r) => ({ ...r, scenario, version })));
      }
    }
    for (const r of await Promise.all(runs)) {
      const what = `${r.scenario} at ${r.version}\n${r.output}`;
      assert.ok(r.checks?.length > 0, `no checks ran: ${what}`);
      const allowed = r.version === ERAS.legacy ? (SKIPPED_BELOW_2026[r.scenario] ?? []) : [];
      const bad = r.checks
        .filter((c) => c.status !== "SUCCESS" && !(c.status === "SKIPPED" && allowed.includes(c.id)))
        .map((c) => `${c.status} ${c.id}: ${c.errorMessage ?? ""}`);
      assert.deepEqual(bad, [], what);
      assert.ok(r.checks.some((c) => c.id === "wire-schema-valid" && c.status === "SUCCESS"), `wire-schema-valid ran: ${what}`);
      assert.equal(r.code, 0, what);
    }
  } finally {
    proxy.close();
  }
});

test("the READMEs' agents-worker blocks are the example's code", () => {
  const code = (text) => text.split("\n").map((l) => l.replace(/\s*\/\/.*$/, "").trim()).filter((l) => l !== "");
  const source = new Set(code(readFileSync(join(EXAMPLE, "src", "index.ts"), "utf8")));
  for (const file of ["README.md", join("pkg", "README.md")]) {
    const readme = readFileSync(join(ROOT, file), "utf8");
    const block = readme.match(/<!-- example: agents-worker -->\s*```ts\n([\s\S]*?)```/)?.[1];
    assert.ok(block, `${file} has the agents-worker example`);
    const missing = code(block).filter((l) => !source.has(l));
    assert.deepEqual(missing, [], `${file}: lines that are not in examples/agents-worker/src/index.ts`);
  }
});
