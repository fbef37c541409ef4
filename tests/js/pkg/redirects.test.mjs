// Redirects against the npm package's transport: the caller's headers (`--header`, `--token`,
// `CF-Access-*`; SkillsClient's `headers` and `token`) go only to the origin of the URL given,
// however a GET is redirected. A node:http server serves a catalog signed by the native command
// (`keygen`, `pack --sign`) through SkillsServer: MCP at /mcp, the mirror (index, archives,
// envelopes, keys.json) under /.well-known/agent-skills/. For each kind of GET (index,
// artifact, envelope, keys, protected resource metadata) it answers 302 to the same path on
// another origin (another port, the same catalog), which records every header it receives and
// must see none of the caller's: for `skills-edge verify` npm and native (the same output and
// exit status) and for SkillsClient (verifyWellKnown, connect). Five redirects within the
// origin are followed with the headers; a sixth is an error naming the limit.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { SkillsServer } from "skills-edge";
import { SkillsClient } from "skills-edge/client";
import { REPO } from "./common.mjs";

const run = promisify(execFile);
const NATIVE = process.env.SKILLS_EDGE_BIN;
const NPM_BIN = join(process.env.SKILLS_EDGE_PKG ?? "", "bin", "skills-edge.mjs");
const SECRET = "S3CRET";
const HEADERS = [
  ["X-Api-Key", `k3y-${SECRET}`],
  ["CF-Access-Client-Id", `access-id-${SECRET}`],
  ["CF-Access-Client-Secret", `access-secret-${SECRET}`],
];
const TOKEN = `t0ken-${SECRET}`;
const CALLER_NAMES = ["x-api-key", "cf-access-client-id", "cf-access-client-secret", "authorization"];
const KINDS = ["index", "artifact", "envelope", "keys", "metadata"];
const INDEX = "/.well-known/agent-skills/index.json";

function kindOf(path) {
  const p = path.split("?")[0];
  if (p.startsWith("/.well-known/oauth-protected-resource")) return "metadata";
  if (p === INDEX) return "index";
  if (p === "/.well-known/agent-skills/keys.json") return "keys";
  if (p.endsWith(".dsse.json")) return "envelope";
  if (p.startsWith("/.well-known/agent-skills/")) return "artifact";
  return undefined;
}

/** The caller's headers a request carried (by name, or a secret in any value). */
const callers = (seen) => Object.entries(seen.headers).filter(([k, v]) => CALLER_NAMES.includes(k) || String(v).includes(SECRET));

let dir;
let pack;
let publicKey;
const servers = [];

async function exec(file, args) {
  const env = { ...process.env };
  delete env.SKILLS_EDGE_TOKEN;
  try {
    const { stdout, stderr } = await run(file, args, { timeout: 60_000, maxBuffer: 16 << 20, env });
    return { code: 0, stdout, stderr };
  } catch (e) {
    if (typeof e.code !== "number") throw e;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Both commands: the same stdout, stderr and exit status; returns the native one's. */
async function both(args) {
  const n = await exec(NATIVE, ["verify", ...args]);
  const j = await exec(process.execPath, [NPM_BIN, "verify", ...args]);
  assert.equal(j.stdout, n.stdout);
  assert.equal(j.stderr, n.stderr);
  assert.equal(j.code, n.code);
  return n;
}

/**
 * The signed catalog on a free port: `plan` may redirect GETs of one kind to another origin
 * (`redirect: [kind, origin]`), answer POSTs 401 (`unauthorized`), and send the first GET of
 * the index through `hops` redirects within the origin.
 */
async function serve(plan = {}) {
  const skills = new SkillsServer({ pack: readFileSync(pack) });
  const seen = [];
  let hopped = false;
  const http = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    seen.push({ method: req.method, path: req.url, headers: req.headers });
    const kind = kindOf(req.url);
    const hop = /^\/hop\/(\d+)$/.exec(req.url);
    if (hop) {
      const n = Number(hop[1]);
      return res.writeHead(302, { location: n >= plan.hops ? INDEX : `/hop/${n + 1}` }).end();
    }
    if (req.method === "GET" && plan.redirect?.[0] === kind) {
      return res.writeHead(302, { location: `${plan.redirect[1]}${req.url}` }).end();
    }
    if (req.method === "GET" && kind === "index" && plan.hops > 0 && !hopped) {
      hopped = true;
      return res.writeHead(302, { location: "/hop/1" }).end();
    }
    if (kind === "metadata") return res.writeHead(404).end();
    if (req.method === "POST" && plan.unauthorized) {
      return res.writeHead(401, { "www-authenticate": 'Bearer realm="skills"' }).end();
    }
    const body = req.method === "POST" ? Buffer.concat(chunks) : undefined;
    const response = await skills.fetch(new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers: req.headers, body }));
    res.writeHead(response.status, Object.fromEntries(response.headers)).end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise((r) => http.listen(0, "127.0.0.1", r));
  // The index redirects again on its next GET (each command's run starts the chain anew).
  const again = () => {
    hopped = false;
  };
  const s = { origin: `http://127.0.0.1:${http.address().port}`, seen, http, again };
  servers.push(s);
  return s;
}

before(async () => {
  assert.ok(NATIVE && process.env.SKILLS_EDGE_PKG, "SKILLS_EDGE_BIN and SKILLS_EDGE_PKG are set (scripts/test.d/20-npm.sh)");
  dir = mkdtempSync(join(tmpdir(), "skills-edge-redirects-"));
  const keys = join(dir, "keys");
  const made = await exec(NATIVE, ["keygen", "--out", keys]);
  assert.equal(made.code, 0, made.stderr);
  pack = join(dir, "signed.pack");
  const packed = await exec(NATIVE, ["pack", join(REPO, "skills"), "--sign", join(keys, "signing.key"), "-o", pack]);
  assert.equal(packed.code, 0, packed.stderr);
  publicKey = join(keys, "signing.pub");
});

after(() => {
  for (const s of servers) {
    s.http.closeAllConnections();
    s.http.close();
  }
  rmSync(dir, { recursive: true, force: true });
});

/** Checks that `elsewhere` followed a `kind` redirect and saw none of the caller's headers. */
function nothingLeaked(kind, elsewhere, what) {
  assert.ok(elsewhere.seen.some((s) => kindOf(s.path) === kind), `${what} ${kind}: the redirect was not followed`);
  for (const s of elsewhere.seen) {
    assert.deepEqual(callers(s), [], `${what} ${kind}: ${s.method} ${s.path} reached another origin with the caller's headers`);
  }
}

const headerArgs = HEADERS.flatMap(([k, v]) => ["--header", `${k}: ${v}`]);

test("server redirects each GET to another origin: the commands send it none of the caller's headers", async () => {
  for (const kind of KINDS) {
    const elsewhere = await serve();
    const home = await serve({ redirect: [kind, elsewhere.origin], unauthorized: kind === "metadata" });
    const target = kind === "metadata" ? [`${home.origin}/mcp`] : ["--well-known", home.origin];
    const out = await both([...target, ...headerArgs, "--token", TOKEN, "--trust", publicKey]);
    assert.ok(!`${out.stdout}${out.stderr}`.includes(SECRET), `${kind}: a secret in the output`);
    assert.equal(out.code, kind === "metadata" ? 2 : 0, `${kind}: ${out.stdout}${out.stderr}`);
    nothingLeaked(kind, elsewhere, "the commands");
    // The origin named got every header on every request, of both commands.
    for (const s of home.seen) {
      const names = callers(s).map(([k]) => k);
      for (const n of CALLER_NAMES) assert.ok(names.includes(n), `${kind}: ${s.path} lacks ${n}`);
    }
  }
});

test("server redirects each GET to another origin: SkillsClient sends it none of the caller's headers", async () => {
  const trust = [readFileSync(publicKey, "utf8")];
  for (const kind of KINDS) {
    const elsewhere = await serve();
    const home = await serve({ redirect: [kind, elsewhere.origin], unauthorized: kind === "metadata" });
    const options = { headers: HEADERS, token: TOKEN, trust };
    if (kind === "metadata") {
      await assert.rejects(SkillsClient.connect(`${home.origin}/mcp`, options), (e) => {
        assert.equal(e.code, "http-status");
        assert.ok(!e.message.includes(SECRET));
        return true;
      });
    } else {
      const report = await SkillsClient.verifyWellKnown(home.origin, options);
      assert.equal(report.exitCode, 0, `${kind}: ${report.table}${report.summary}`);
    }
    nothingLeaked(kind, elsewhere, "SkillsClient");
  }
});

test("server redirects within its origin: five are followed with the headers, a sixth is refused naming the limit", async () => {
  const five = await serve({ hops: 4 });
  const ok = await exec(process.execPath, [NPM_BIN, "verify", "--well-known", five.origin, "--header", "X-Hopped: 1", "--trust", publicKey]);
  assert.equal(ok.code, 0, ok.stdout + ok.stderr);
  const hops = five.seen.filter((s) => s.path.startsWith("/hop/"));
  assert.equal(hops.length, 4);
  for (const s of five.seen.filter((s) => s.path.startsWith("/hop/") || s.path === INDEX)) {
    assert.equal(s.headers["x-hopped"], "1", `${s.path} lost the caller's header`);
  }
  const six = await serve({ hops: 5 });
  const n = await exec(NATIVE, ["verify", "--well-known", six.origin]);
  six.again();
  const j = await exec(process.execPath, [NPM_BIN, "verify", "--well-known", six.origin]);
  six.again();
  assert.deepEqual(j, n, "the npm command prints what the native one prints");
  assert.equal(n.code, 2);
  assert.match(n.stderr, /was redirected more than 5 times \(the limit\).*\[http-status\]/);
  const report = await SkillsClient.verifyWellKnown(six.origin);
  assert.equal(report.exitCode, 2);
  assert.equal(report.error.code, "http-status");
  assert.match(report.error.message, /more than 5 times \(the limit\)/);
});
