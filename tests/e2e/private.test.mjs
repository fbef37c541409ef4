// A private catalog on the Worker with AUTH_MODE jwt (wrangler dev, real workerd), through
// real clients with tokens. tests/fixtures/private-skills/ has two public skills (hello,
// acme/tools/lint), a private nested pair under one rule (acme/billing/** for scope
// `billing`) and one more private skill under another (code-review for `review`); it is
// packed with the native `skills-edge pack --assets --inline-max 0` next to the Worker
// scripts/build-worker.sh built (the wasm does not depend on the catalog: only the pack and
// the assets differ). A local key server (node http) serves the issuer's metadata and an
// ES256 key made here; tokens are minted here. Callers: anonymous, a token whose scopes no
// rule names, a `billing` token and a `review` token. Checked:
//   * the Protected Resource Metadata lists the rules' scopes (`scopes_supported`);
//   * the official SDK 2.4 client (SkillsClient, the Authorization header through its
//     transport's `requestInit`), both eras, walks every page, entry, file and directory each
//     caller may see, and exactly those;
//   * a hidden skill answers as an absent one, byte for byte apart from the URI or name the
//     request sent: skills/get (-32602, also through the SDK in both eras), resources/read,
//     resources/directory/read, the mirror's index, per-file URLs and artifacts;
//   * `cacheScope: "private"` over MCP and `Cache-Control: private`, `Vary: Authorization` on
//     the mirror for the scoped caller, neither for the anonymous one;
//   * MCP Inspector 2.12 `--cli --verify --header "Authorization: Bearer …"` verifies what the
//     `billing` caller sees;
//   * the conformance suite's skills scenarios with the `billing` token: its command line has
//     no option for headers, so it runs through a local proxy that adds the Authorization
//     header to every request.
//   * the raw HTTP probes of http-probes.test.mjs (tests/e2e/lib/http-probes.mjs) with the
//     `billing` token on every request but the CORS preflights; the Worker runs with
//     MAX_BODY_BYTES 65536 for their 413 probe.
//   * grants that come with the browser: a second Worker with AUTH_MODE access (a copy of the
//     fixture with an HTML page, an SVG, scripts and an XML file added, one script private),
//     whose callers carry `Cf-Access-Jwt-Assertion` as Access adds it to every request a
//     browser sends with its cookie: a `<script src>`, `<img src>` or frame of a private file
//     from another site answers as an absent file; the grant's answers are
//     `Cache-Control: private, no-store` and `Cross-Origin-Resource-Policy: same-origin`; a
//     skill's HTML, SVG, script and XML are attachments under a sandbox CSP, byte for byte.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createServer } from "node:http";
import { createHash, generateKeyPairSync, sign } from "node:crypto";
import { appendFileSync, cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import { ROOT, copyWorker, startWorker } from "./lib/worker.mjs";
import { mcp, send } from "./lib/skills.mjs";
import { httpProbes } from "./lib/http-probes.mjs";
import { headerProxy } from "./lib/proxy.mjs";
import { runScenario } from "./lib/mcp.mjs";
import { tempDir } from "../lib/processes.mjs";
import { ERAS, judgeSdk } from "../judges/sdk.mjs";
import { judgeInspector } from "../judges/inspector.mjs";
import { published } from "../judges/folder.mjs";

const FIXTURE = join(ROOT, "tests", "fixtures", "private-skills");
const NATIVE = process.env.SKILLS_EDGE_BIN ?? join(process.env.CARGO_TARGET_DIR ?? join(ROOT, "target"), "debug", "skills-edge");
const MIRROR = "/.well-known/agent-skills";
const MAX_BODY_BYTES = 65536;

/** The fixture's skills: path, name, and the scopes that see it (none: public). */
const SKILLS = [
  { path: "acme/billing/invoices", name: "invoices", scopes: ["billing"] },
  { path: "acme/billing/invoices/refunds", name: "refunds", scopes: ["billing"] },
  { path: "acme/tools/lint", name: "lint", scopes: [] },
  { path: "code-review", name: "code-review", scopes: ["review"] },
  { path: "hello", name: "hello", scopes: [] },
];
const sees = (scopes, skill) => skill.scopes.length === 0 || skill.scopes.some((s) => scopes.includes(s));

/** The callers: the scopes of their token (`null`: no token). */
const CALLERS = {
  anonymous: null,
  "wrong scope": ["skills:read", "other"],
  billing: ["skills:read", "billing"],
  review: ["review"],
};

/**
 * What a caller with `scopes` may see, computed from the folder: `{ skills, files, bytes,
 * dirs }` as the SDK judge counts them (each manifest holds every file under its skill's
 * folder, nested skills' included; a directory is seen when a seen skill is at, under or
 * around it).
 */
function visible(scopes) {
  return published(FIXTURE, { roots: SKILLS.filter((s) => sees(scopes, s)).map((s) => s.path) });
}

const b64 = (buf) => Buffer.from(buf).toString("base64url");
const part = (obj) => b64(JSON.stringify(obj));
const key = generateKeyPairSync("ec", { namedCurve: "P-256" });
const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });

let dir;
let keyServer;
let ISS;
let worker;
const tokens = {};

/** An ES256 access token for this Worker with `scopes`. */
function mint(scopes) {
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    iss: ISS, aud: `http://localhost:${worker.port}/mcp`, sub: "e2e", client_id: "e2e-client",
    jti: `j-${Math.random()}`, iat: now, exp: now + 900, scope: scopes.join(" "),
  };
  const input = `${part({ alg: "ES256", kid: "k1", typ: "at+jwt" })}.${part(claims)}`;
  return `${input}.${b64(sign("sha256", Buffer.from(input), { key: key.privateKey, dsaEncoding: "ieee-p1363" }))}`;
}

/** The Authorization header of `caller` (none for the anonymous one). */
const auth = (caller) => (tokens[caller] ? { authorization: `Bearer ${tokens[caller]}` } : {});

before(async () => {
  dir = tempDir("private");
  keyServer = createServer((req, res) => {
    const json = (status, body) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.url === "/.well-known/oauth-authorization-server") return json(200, { issuer: ISS, jwks_uri: `${ISS}/jwks` });
    if (req.url === "/jwks") return json(200, { keys: [{ ...key.publicKey.export({ format: "jwk" }), kid: "k1", use: "sig" }] });
    if (req.url === "/access/certs") return json(200, { keys: [{ ...rsa.publicKey.export({ format: "jwk" }), kid: "rsa-1", use: "sig" }] });
    return json(404, { error: "not found" });
  });
  await new Promise((resolve) => keyServer.listen(0, "127.0.0.1", resolve));
  ISS = `http://127.0.0.1:${keyServer.address().port}`;
  const config = copyWorker(join(dir, "worker"), { catalog: false });
  const build = join(dir, "worker", "worker", "build");
  const packed = spawnSync(
    NATIVE,
    ["pack", FIXTURE, "--inline-max", "0", "--assets", join(build, "assets"), "-o", join(build, "catalog.pack")],
    { encoding: "utf8" },
  );
  if (packed.status !== 0) throw new Error(`skills-edge pack failed:\n${packed.stderr}`);
  worker = await startWorker({ config, vars: { AUTH_MODE: "jwt", AUTH_ISSUER: ISS, MAX_BODY_BYTES: String(MAX_BODY_BYTES), ALLOWED_HOSTS: "localhost,127.0.0.1,[::1]" }, readyTimeoutMs: 120_000 });
  for (const [caller, scopes] of Object.entries(CALLERS)) if (scopes) tokens[caller] = mint(scopes);
});

after(async () => {
  await worker?.stop();
  keyServer?.closeAllConnections?.();
  keyServer?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("the Protected Resource Metadata lists the access rules' scopes", async () => {
  const res = await send(worker.port, { path: "/.well-known/oauth-protected-resource/mcp" });
  assert.equal(res.status, 200);
  assert.deepEqual(JSON.parse(res.body.toString("utf8")), {
    resource: `http://localhost:${worker.port}/mcp`,
    authorization_servers: [ISS],
    bearer_methods_supported: ["header"],
    scopes_supported: ["billing", "review"],
  });
});

/** An SDK 2.4 client of the Worker on `era` with `caller`'s token; `run(skills)` uses it. */
async function withSdk(caller, era, run) {
  const client = new Client(
    { name: "skills-edge-e2e", version: "1.0.0" },
    era === "modern" ? { versionNegotiation: { mode: { pin: ERAS.modern } } } : { versionNegotiation: { mode: "legacy" } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(worker.url), { requestInit: { headers: auth(caller) } }));
  try {
    return await run(new SkillsClient(client));
  } finally {
    await client.close().catch(() => {});
  }
}

test("the official SDK 2.4 client sees exactly what each caller may see, on both eras", async () => {
  await Promise.all(
    Object.entries(CALLERS).flatMap(([caller, scopes]) =>
      Object.keys(ERAS).map(async (era) => {
        const transport = () =>
          new StreamableHTTPClientTransport(new URL(worker.url), { requestInit: { headers: auth(caller) } });
        const s = await judgeSdk({ transport, era });
        const want = visible(scopes ?? []);
        assert.deepEqual({ skills: s.skills, files: s.files, bytes: s.bytes, dirs: s.dirs }, want, `${caller}, ${era}`);
        const names = await withSdk(caller, era, async (skills) => {
          const listing = await skills.list();
          if (era === "modern") {
            // Answers made for a token that sees private skills are for that caller only.
            assert.equal(listing.cacheScope === "private", ["billing", "review"].includes(caller), `${caller}: cacheScope ${listing.cacheScope}`);
          }
          return listing.skills.map((x) => x.frontmatter.name).sort();
        });
        assert.deepEqual(names, SKILLS.filter((x) => sees(scopes ?? [], x)).map((x) => x.name).sort(), `${caller}, ${era}`);
      }),
    ),
  );
});

/** `text` with every `from` replaced by `to`. */
const swap = (text, from, to) => text.split(from).join(to);

/** The headers that must match between a hidden and an absent answer. */
function shape(res) {
  const h = { ...res.headers };
  delete h.date;
  delete h["cf-ray"];
  delete h["content-length"];
  return h;
}

/**
 * `a` (about `hidden`) and `b` (about `absent`) are the same answer: status, headers and body,
 * once `hidden` in `a`'s body is read as `absent`.
 */
function sameAnswer(a, b, hidden, absent, what) {
  assert.equal(a.status, b.status, `${what}: status`);
  assert.deepEqual(shape(a), shape(b), `${what}: headers`);
  assert.equal(swap(a.body.toString("utf8"), hidden, absent), b.body.toString("utf8"), `${what}: body`);
}

test("a hidden skill answers as an absent one on every surface", async () => {
  const absentPath = "acme/billing/estimates"; // never existed
  for (const caller of ["anonymous", "wrong scope", "review"]) {
    for (const skill of SKILLS.filter((s) => !sees(CALLERS[caller] ?? [], s))) {
      const headers = auth(caller);
      const hidden = `skill://${skill.path}`;
      const absent = `skill://${absentPath}`;
      const pairs = [
        ["skills/get", { uri: `${hidden}/SKILL.md` }, { uri: `${absent}/SKILL.md` }],
        ["resources/read", { uri: `${hidden}/SKILL.md` }, { uri: `${absent}/SKILL.md` }],
        ["resources/read", { uri: hidden }, { uri: absent }],
        ["resources/directory/read", { uri: hidden }, { uri: absent }],
      ];
      for (const [method, h, a] of pairs) {
        const got = await mcp(worker.port, method, h, { headers });
        const want = await mcp(worker.port, method, a, { headers });
        sameAnswer(got, want, hidden, absent, `${caller}: ${method} ${h.uri}`);
        assert.ok(want.json?.error, `${method} ${a.uri} is an error`);
        if (method === "skills/get") assert.equal(got.json.error.code, -32602);
      }
      // The mirror: the skill's artifact and its files, as for a name that never existed.
      for (const [h, a] of [
        [`${MIRROR}/${skill.name}/SKILL.md`, `${MIRROR}/estimates/SKILL.md`],
        [`${MIRROR}/${skill.name}.tar.gz`, `${MIRROR}/estimates.tar.gz`],
        [`${MIRROR}/${skill.name}.dsse.json`, `${MIRROR}/estimates.dsse.json`],
      ]) {
        const got = await send(worker.port, { path: h, headers });
        const want = await send(worker.port, { path: a, headers });
        assert.equal(want.status, 404, a);
        sameAnswer(got, want, skill.name, "estimates", `${caller}: GET ${h}`);
      }
    }
  }
  // The same through the SDK, on both eras: the same error code and message shape.
  for (const era of Object.keys(ERAS)) {
    await withSdk("review", era, async (skills) => {
      const error = async (uri) => {
        try {
          await skills.get(uri);
        } catch (e) {
          return e;
        }
        assert.fail(`${era}: skills/get ${uri} answered`);
      };
      const hidden = await error("skill://acme/billing/invoices/SKILL.md");
      const absent = await error(`skill://${absentPath}/SKILL.md`);
      assert.equal(hidden.code, -32602, `${era}: ${hidden.message}`);
      assert.equal(absent.code, -32602);
      assert.equal(swap(hidden.message, "acme/billing/invoices", absentPath), absent.message, era);
    });
  }
});

test("the mirror's index lists what each caller may see; scoped answers are private", async () => {
  const index = async (caller) => {
    const res = await send(worker.port, { path: `${MIRROR}/index.json`, headers: auth(caller) });
    assert.equal(res.status, 200, caller);
    return { res, names: JSON.parse(res.body.toString("utf8")).skills.map((s) => s.name).sort() };
  };
  for (const [caller, scopes] of Object.entries(CALLERS)) {
    const { res, names } = await index(caller);
    // Every skill the caller sees, nested ones too (each is mirrored on its own as well).
    const want = SKILLS.filter((s) => sees(scopes ?? [], s)).map((s) => s.name).sort();
    assert.deepEqual(names, want, caller);
    const scoped = caller === "billing" || caller === "review";
    assert.equal(/(^|,\s*)private(,|$)/.test(res.headers["cache-control"]), scoped, `${caller}: Cache-Control ${res.headers["cache-control"]}`);
    assert.equal(/\bauthorization\b/i.test(res.headers.vary ?? ""), scoped, `${caller}: Vary ${res.headers.vary}`);
  }
  // The billing caller's artifact of a private skill is private too; the anonymous caller's
  // public artifact is not.
  const priv = await send(worker.port, { path: `${MIRROR}/invoices.tar.gz`, headers: auth("billing") });
  assert.equal(priv.status, 200);
  assert.match(priv.headers["cache-control"], /^private, max-age=\d+$/);
  assert.match(priv.headers.vary, /Authorization/);
  const pub = await send(worker.port, { path: `${MIRROR}/hello.tar.gz` });
  assert.equal(pub.status, 200);
  assert.doesNotMatch(pub.headers["cache-control"], /private/);
});

test("MCP Inspector 2.12 --verify with the billing token's header, both eras", async () => {
  const want = visible(CALLERS.billing);
  await Promise.all(
    Object.keys(ERAS).map(async (era) => {
      const r = await judgeInspector({
        target: worker.url,
        era,
        expectedSkills: want.skills,
        headers: [`Authorization: Bearer ${tokens.billing}`],
      });
      assert.equal(r.files, want.files, era);
      assert.equal(r.bytes, want.bytes, era);
      assert.deepEqual(r.reports.map((x) => x.uri).sort(), SKILLS.filter((s) => sees(CALLERS.billing, s)).map((s) => `skill://${s.path}/SKILL.md`).sort());
    }),
  );
});

test("the conformance suite's skills scenarios with the billing token", async () => {
  const proxy = await headerProxy({ port: worker.port, headers: auth("billing") });
  const out = join(dir, "conformance");
  try {
    const scenarios = ["sep-2640-skills-enumeration", "sep-2640-skills-manifest", "sep-2640-skills-directory"];
    const runs = await Promise.all(scenarios.map((s) => runScenario(proxy.url, s, "2026-07-28", { outRoot: out, force: true })));
    runs.forEach((r, i) => {
      const what = `${scenarios[i]}\n${r.output}`;
      assert.ok(r.checks?.length > 0, `no checks ran: ${what}`);
      // Every check SUCCESS, as for the anonymous Worker (conformance.test.mjs): nothing failed,
      // warned or was skipped.
      const bad = r.checks.filter((c) => c.status !== "SUCCESS").map((c) => `${c.status} ${c.id}: ${c.errorMessage ?? ""}`);
      assert.deepEqual(bad, [], what);
      assert.ok(r.checks.some((c) => c.id === "wire-schema-valid"), `wire-schema-valid ran: ${what}`);
      assert.equal(r.code, 0, what);
    });
  } finally {
    proxy.close();
  }
});

// The raw HTTP probes with the billing token. Its aud is `http://localhost:PORT/mcp`: through
// Host 127.0.0.1:PORT the same token is refused (tokenHost).
for (const [name, run] of httpProbes({
  origin: () => worker.origin,
  headers: () => auth("billing"),
  expectations: { maxBodyBytes: MAX_BODY_BYTES, tokenHost: "localhost" },
  logTail: () => worker.logTail(30),
})) {
  test(`HTTP probe with the billing token: ${name}`, run);
}

test("a page on another origin embeds an /mcp answer made for the billing grant: it is same-origin and private", async () => {
  const uri = "skill://acme/billing/invoices/SKILL.md";
  const granted = await mcp(worker.port, "skills/get", { uri }, { headers: auth("billing") });
  assert.equal(granted.status, 200, granted.body.toString());
  assert.ok(granted.json.result, granted.body.toString());
  assert.equal(granted.headers["cross-origin-resource-policy"], "same-origin");
  assert.equal(granted.headers["cache-control"], "private");
  // An error made for the grant too; the anonymous caller's answers are as before.
  const absent = await mcp(worker.port, "skills/get", { uri: "skill://estimates/SKILL.md" }, { headers: auth("billing") });
  assert.equal(absent.headers["cross-origin-resource-policy"], "same-origin");
  const anonymous = await mcp(worker.port, "skills/get", { uri });
  assert.equal(anonymous.headers["cross-origin-resource-policy"], undefined);
  assert.equal(anonymous.headers["cache-control"], undefined);
});

test("a page loads the mirror's 401 for a bad token as a script or a page: it is inert", async () => {
  const res = await send(worker.port, { path: `${MIRROR}/invoices/SKILL.md`, headers: { authorization: "Bearer not.a.token" } });
  assert.equal(res.status, 401);
  assert.equal(res.headers["x-content-type-options"], "nosniff");
  assert.equal(res.headers["content-security-policy"], "default-src 'none'; sandbox");
  assert.equal(res.headers["cross-origin-resource-policy"], "cross-origin");
});

// Grants that come with the browser: AUTH_MODE access, where Access checks its cookie at the
// edge and adds `Cf-Access-Jwt-Assertion` to whatever request the browser sends, whichever page
// caused it. The Worker serves a copy of the fixture with active files added.
const ACCESS_TEAM = "acme.cloudflareaccess.com";
const ACCESS_AUD = "32eafc7626e974616deaf0dc3ce63d7bcbed58a2731e84d06bc3cdf1b53c4228";
const ACTIVE = {
  "hello/page.html": ["<!doctype html><script>fetch('/mcp')</script>\n", "text/html; charset=utf-8"],
  "hello/logo.svg": ['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>\n', "image/svg+xml"],
  "hello/app.js": ["window.x = 1;\n", "text/javascript; charset=utf-8"],
  "hello/data.xml": ['<?xml version="1.0"?><r/>\n', "application/xml"],
  "acme/billing/invoices/app.js": ["window.leak = 'the private body';\n", "text/javascript; charset=utf-8"],
};

test("AUTH_MODE access: what a page of another site can make a browser do with the mirror", async (t) => {
  const folder = join(dir, "access-skills");
  cpSync(FIXTURE, folder, { recursive: true });
  for (const [path, [text]] of Object.entries(ACTIVE)) writeFileSync(join(folder, path), text);
  // Access grants by what it asserts (docs/private.md, Access grants): the billing skills
  // are also the signed-in domain's.
  appendFileSync(join(folder, "skills-edge.toml"), '\n[[access]]\nskills = ["acme/billing/**"]\nscopes = ["email-domain:acme.example"]\n');
  const config = copyWorker(join(dir, "access"), { catalog: false });
  const build = join(dir, "access", "worker", "build");
  const packed = spawnSync(
    NATIVE,
    ["pack", folder, "--inline-max", "0", "--assets", join(build, "assets"), "-o", join(build, "catalog.pack")],
    { encoding: "utf8" },
  );
  assert.equal(packed.status, 0, packed.stderr);
  const access = await startWorker({
    config,
    vars: { AUTH_MODE: "access", AUTH_ISSUER: ACCESS_TEAM, AUTH_AUDIENCE: ACCESS_AUD, AUTH_JWKS_URL: `${ISS}/access/certs` },
    readyTimeoutMs: 120_000,
  });
  try {
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: `https://${ACCESS_TEAM}`, aud: [ACCESS_AUD], sub: "u-1", email: "ann@acme.example",
      iat: now, exp: now + 600, type: "app",
    };
    const input = `${part({ alg: "RS256", kid: "rsa-1", typ: "JWT" })}.${part(claims)}`;
    const token = `${input}.${b64(sign("sha256", Buffer.from(input), rsa.privateKey))}`;
    // What Access adds to a request the browser sends with its cookie.
    const cookie = { "cf-access-jwt-assertion": token };
    const get = (path, headers = {}) => send(access.port, { path: `${MIRROR}/${path}`, headers });
    const fromAnotherSite = (mode, dest) => ({ ...cookie, "sec-fetch-site": "cross-site", "sec-fetch-mode": mode, "sec-fetch-dest": dest });

    await t.test("the grant's own page reads the private file; the answer is same-origin and never stored", async () => {
      const own = await get("invoices/app.js", { ...cookie, "sec-fetch-site": "same-origin", "sec-fetch-mode": "no-cors", "sec-fetch-dest": "script" });
      assert.equal(own.status, 200, own.body.toString());
      assert.equal(own.body.toString(), ACTIVE["acme/billing/invoices/app.js"][0]);
      assert.equal(own.headers["cross-origin-resource-policy"], "same-origin");
      for (const path of ["index.json", "invoices/app.js", "invoices.tar.gz"]) {
        const res = await get(path, cookie);
        assert.equal(res.status, 200, path);
        assert.equal(res.headers["cache-control"], "private, no-store", path);
        assert.equal(res.headers["cross-origin-resource-policy"], "same-origin", path);
      }
      const anonymous = await get("index.json");
      assert.doesNotMatch(anonymous.headers["cache-control"], /private|no-store/);
      assert.equal(anonymous.headers["cross-origin-resource-policy"], "cross-origin");
    });

    await t.test("a <script src> of a private file on another site answers as an absent file", async () => {
      for (const [mode, dest] of [["no-cors", "script"], ["no-cors", "image"], ["navigate", "iframe"]]) {
        const headers = fromAnotherSite(mode, dest);
        for (const [hidden, absent] of [
          ["invoices/app.js", "estimates/app.js"],
          ["invoices/SKILL.md", "estimates/SKILL.md"],
          ["invoices.tar.gz", "estimates.tar.gz"],
        ]) {
          const got = await get(hidden, headers);
          const want = await get(absent, headers);
          assert.equal(got.status, 404, `${mode} ${dest} ${hidden}`);
          assert.equal(got.body.toString().replaceAll("invoices", "estimates"), want.body.toString(), hidden);
          for (const h of ["content-type", "cache-control", "cross-origin-resource-policy", "x-content-type-options"]) {
            assert.equal(got.headers[h], want.headers[h], `${hidden}: ${h}`);
          }
        }
        // The index is the anonymous one, byte for byte.
        const index = await get("index.json", headers);
        const anonymous = await get("index.json");
        assert.equal(index.body.toString(), anonymous.body.toString(), `${mode} ${dest}`);
        assert.ok(!index.body.toString().includes("invoices"));
      }
    });

    await t.test("a page of another site repeats Sec-Fetch-Site to keep the grant: it answers as an absent file", async () => {
      const want = await get("estimates/app.js", fromAnotherSite("no-cors", "script"));
      for (const site of [["cross-site", "cross-site"], ["same-origin", "cross-site"], ["cross-site", "same-origin"]]) {
        const got = await get("invoices/app.js", { ...cookie, "sec-fetch-site": site, "sec-fetch-mode": "no-cors", "sec-fetch-dest": "script" });
        assert.equal(got.status, 404, site.join(", "));
        assert.equal(got.body.toString().replaceAll("invoices", "estimates"), want.body.toString(), site.join(", "));
      }
    });

    await t.test("a shared browser replays an Access caller's 404 or /mcp answer: neither is stored", async () => {
      for (const path of ["invoices/nothing.js", "estimates/app.js"]) {
        const res = await get(path, cookie);
        assert.equal(res.status, 404, path);
        assert.equal(res.headers["cache-control"], "private, no-store", path);
        assert.equal(res.headers["cross-origin-resource-policy"], "same-origin", path);
      }
      const res = await mcp(access.port, "skills/get", { uri: "skill://acme/billing/invoices/SKILL.md" }, { headers: cookie });
      assert.equal(res.status, 200, res.body.toString());
      assert.ok(res.json.result, res.body.toString());
      assert.equal(res.headers["cache-control"], "private, no-store");
      assert.equal(res.headers["cross-origin-resource-policy"], "same-origin");
    });

    await t.test("a skill's HTML, SVG, script or XML runs nothing on the origin; bytes and digests hold", async () => {
      for (const [path, [text, type]] of Object.entries(ACTIVE).filter(([p]) => p.startsWith("hello/"))) {
        const res = await get(path);
        assert.equal(res.status, 200, path);
        assert.equal(res.headers["content-type"], type, path);
        assert.equal(res.headers["content-disposition"], "attachment", path);
        assert.equal(res.headers["content-security-policy"], "default-src 'none'; sandbox", path);
        assert.equal(res.headers["x-content-type-options"], "nosniff", path);
        assert.equal(res.body.toString(), text, path);
        assert.equal(res.headers.etag, `"${createHash("sha256").update(res.body).digest("hex")}"`, path);
      }
      const md = await get("hello/SKILL.md");
      assert.equal(md.headers["content-disposition"], undefined, "Markdown is shown as text");
      const index = JSON.parse((await get("index.json")).body.toString());
      const hello = index.skills.find((s) => s.name === "hello");
      const archive = await send(access.port, { path: hello.url });
      assert.equal(archive.status, 200);
      assert.equal(hello.digest, `sha256:${createHash("sha256").update(archive.body).digest("hex")}`);
    });
  } finally {
    await access.stop();
  }
});
