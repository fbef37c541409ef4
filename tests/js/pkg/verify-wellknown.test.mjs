// `skills-edge verify` on a well-known skills source (Agent Skills Discovery RFC v0.2.0): the
// npm package's command and the native command (SKILLS_EDGE_BIN) print the same bytes and exit
// the same against a node:http server publishing the repository's code-review skill as a
// `.tar.gz` and git-commit-messages as a `skill-md`; a byte changed in an archive is
// `digest-mismatch` (exit 1), a symbolic link `archive-unsafe`, a wrapper folder
// `archive-invalid` (exit 1), an unknown `$schema` `unknown-schema` (exit 2). The npm
// SkillsClient.verifyWellKnown gives the same report as both commands.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { SkillsClient } from "skills-edge/client";
import { REPO } from "./common.mjs";

const run = promisify(execFile);
const NATIVE = process.env.SKILLS_EDGE_BIN;
const NPM_BIN = join(process.env.SKILLS_EDGE_PKG ?? "", "bin", "skills-edge.mjs");
const SCHEMA = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";
const sha256 = (b) => `sha256:${createHash("sha256").update(b).digest("hex")}`;

/** One ustar header: mode 0644, uid/gid 0, mtime 0, the given type. */
function header(name, size, type = "0") {
  const h = Buffer.alloc(512);
  h.write(name, 0, "ascii");
  h.write("0000644\0", 100, "ascii");
  h.write("0000000\0", 108, "ascii");
  h.write("0000000\0", 116, "ascii");
  h.write(size.toString(8).padStart(11, "0") + "\0", 124, "ascii");
  h.write("00000000000\0", 136, "ascii");
  h.write(type, 156, "ascii");
  h.write("ustar\0", 257, "ascii");
  h.write("00", 263, "ascii");
  h.write("        ", 148, "ascii");
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, "0") + "\0 ", 148, "ascii");
  return h;
}

/** A gzip-compressed tar of `[name, bytes, type?]` entries. */
function tarGz(entries) {
  const parts = [];
  for (const [name, bytes, type] of entries) {
    parts.push(header(name, bytes.length, type), bytes, Buffer.alloc((512 - (bytes.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(parts));
}

const skill = (name, path) => readFileSync(join(REPO, "skills", name, path));
const CR_MD = skill("code-review", "SKILL.md");
const CR_LIST = skill("code-review", "references/checklist.md");
const GIT_MD = skill("git-commit-messages", "SKILL.md");
const description = (md) => /^description: (.*)$/m.exec(md.toString("utf8"))[1].trim();

/** url path -> [content type, bytes]; the index is built from it on each request. */
let files;
let schema;
function publish({ archive = tarGz([["SKILL.md", CR_MD], ["references/checklist.md", CR_LIST]]), indexDigest } = {}) {
  files = new Map([
    ["/.well-known/agent-skills/code-review.tar.gz", ["application/gzip", archive]],
    ["/.well-known/agent-skills/git-commit-messages/SKILL.md", ["text/markdown", GIT_MD]],
  ]);
  schema = SCHEMA;
  const index = {
    $schema: SCHEMA,
    skills: [
      { name: "code-review", type: "archive", description: description(CR_MD), url: "code-review.tar.gz", digest: indexDigest ?? sha256(archive) },
      { name: "git-commit-messages", type: "skill-md", description: description(GIT_MD), url: "/.well-known/agent-skills/git-commit-messages/SKILL.md", digest: sha256(GIT_MD) },
    ],
  };
  return index;
}

let index;
let web;
let origin;
before(async () => {
  assert.ok(NATIVE && process.env.SKILLS_EDGE_PKG, "SKILLS_EDGE_BIN and SKILLS_EDGE_PKG are set (scripts/test.d/20-npm.sh)");
  web = createServer((req, res) => {
    if (req.url === "/.well-known/agent-skills/index.json") {
      return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ...index, $schema: schema }));
    }
    const f = files.get(req.url);
    if (!f) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": f[0] }).end(f[1]);
  });
  await new Promise((r) => web.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${web.address().port}`;
});
after(() => {
  web.closeAllConnections();
  web.close();
});

async function exec(file, args) {
  try {
    const { stdout, stderr } = await run(file, args, { timeout: 60_000, maxBuffer: 16 << 20 });
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

const byName = (stdout, name) => stdout.trimEnd().split("\n").map((l) => JSON.parse(l)).find((l) => l.name === name);

test("the published source verifies, by index URL and by origin", async () => {
  index = publish();
  const out = await both([`${origin}/.well-known/agent-skills/index.json`, "--json"]);
  assert.equal(out.code, 0, out.stderr);
  assert.equal(byName(out.stdout, "code-review").status, "verified");
  assert.equal(byName(out.stdout, "code-review").files, 2);
  assert.equal(byName(out.stdout, "git-commit-messages").status, "verified");
  assert.equal((await both(["--well-known", origin])).code, 0);
});

test("one byte changed in transit names the digest", async () => {
  const good = tarGz([["SKILL.md", CR_MD], ["references/checklist.md", CR_LIST]]);
  const bad = Buffer.from(good);
  bad[bad.length >> 1] ^= 1;
  index = publish({ archive: bad, indexDigest: sha256(good) });
  const out = await both(["--well-known", origin, "--json"]);
  assert.equal(out.code, 1);
  const s = byName(out.stdout, "code-review");
  assert.equal(s.code, "digest-mismatch");
  assert.ok(s.why.includes(sha256(good)), s.why);
});

test("hostile archives and an unknown $schema", async () => {
  for (const [archive, code] of [
    [tarGz([["SKILL.md", CR_MD], ["l", Buffer.alloc(0), "2"]]), "archive-unsafe"],
    [tarGz([["code-review/SKILL.md", CR_MD]]), "archive-invalid"],
  ]) {
    index = publish({ archive });
    const out = await both(["--well-known", origin, "--json"]);
    assert.equal(out.code, 1);
    assert.equal(byName(out.stdout, "code-review").code, code);
  }
  index = publish();
  schema = "https://schemas.agentskills.io/discovery/9.0.0/schema.json";
  const out = await both(["--well-known", origin]);
  assert.equal(out.code, 2);
  assert.ok(out.stderr.includes("unknown-schema"), out.stderr);
});

test("SkillsClient.verifyWellKnown reports what both commands print", async () => {
  index = publish();
  const out = await both(["--well-known", origin, "--json"]);
  for (const url of [origin, `${origin}/.well-known/agent-skills/index.json`]) {
    const r = await SkillsClient.verifyWellKnown(url);
    assert.equal(r.exitCode, out.code);
    assert.deepEqual(r.skills, out.stdout.trimEnd().split("\n").map((l) => JSON.parse(l)));
    assert.equal(`${r.summary}\n`, out.stderr);
  }
  const good = tarGz([["SKILL.md", CR_MD], ["references/checklist.md", CR_LIST]]);
  const bad = Buffer.from(good);
  bad[bad.length >> 1] ^= 1;
  index = publish({ archive: bad, indexDigest: sha256(good) });
  const r = await SkillsClient.verifyWellKnown(origin);
  assert.equal(r.exitCode, 1);
  assert.equal(r.skills.find((s) => s.name === "code-review").code, "digest-mismatch");
  for (const bad of [`${origin}/mcp`, "ftp://x", 7]) {
    await assert.rejects(SkillsClient.verifyWellKnown(bad), (e) => e.code === "invalid-argument");
  }
});

test("--header goes to the index's origin only, never to another host the index names", async () => {
  const seen = [];
  const archive = tarGz([["SKILL.md", CR_MD], ["references/checklist.md", CR_LIST]]);
  const cdn = createServer((req, res) => {
    seen.push(["cdn", req.url, req.headers.authorization]);
    if (req.url !== "/code-review.tar.gz") return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/gzip" }).end(archive);
  });
  await new Promise((r) => cdn.listen(0, "127.0.0.1", r));
  const home = createServer((req, res) => {
    seen.push(["home", req.url, req.headers.authorization]);
    if (req.url !== "/.well-known/agent-skills/index.json") return res.writeHead(404).end();
    const skills = [{ name: "code-review", type: "archive", description: description(CR_MD),
      url: `http://127.0.0.1:${cdn.address().port}/code-review.tar.gz`, digest: sha256(archive) }];
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ $schema: SCHEMA, skills }));
  });
  await new Promise((r) => home.listen(0, "127.0.0.1", r));
  try {
    const url = `http://127.0.0.1:${home.address().port}/.well-known/agent-skills/index.json`;
    const out = await both([url, "-H", "Authorization: Bearer t0ken", "--json"]);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(byName(out.stdout, "code-review").status, "verified");
    // Two runs (native, npm): each sent the header to the index and not to the other host.
    assert.deepEqual(seen.filter(([who]) => who === "home").map(([, , auth]) => auth), ["Bearer t0ken", "Bearer t0ken"]);
    assert.deepEqual(seen.filter(([who]) => who === "cdn").map(([, , auth]) => auth), [undefined, undefined]);
  } finally {
    for (const s of [cdn, home]) {
      s.closeAllConnections();
      s.close();
    }
  }
});
