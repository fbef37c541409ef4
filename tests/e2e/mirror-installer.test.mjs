// The mirror judged by the most-used Agent Skills installer: the npm `skills` CLI (pinned in
// package.json), which reads /.well-known/agent-skills/index.json (Agent Skills Discovery RFC
// v0.2.0 and v0.1.0), verifies each artifact's digest and unpacks archives with its own tar
// reader. On the Worker under wrangler dev (built by scripts/test.d/30-worker.sh with
// `--inline-max 0`, so every archive is a Static Asset):
//   * `skills add <url> --list` lists every mirrored skill;
//   * `skills add <url> --skill '*' --agent claude-code -y --copy` installs every one of them,
//     and the installed folder of each holds exactly the files of its MCP entry, each
//     byte-equal to the skills folder.
// The CLI runs with Node 22 (this test's own `process.execPath` under 30-worker.sh), a scratch
// HOME and working directory, and DO_NOT_TRACK=1 (no telemetry).
// Then our own host reads the same index: `skills-edge verify <index URL>` (native and npm,
// identical output) exits 0 with every skill verified, and exits 1 naming the digest when a
// proxy changes one byte of an archive in transit (nothing of it is unpacked).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createServer } from "node:http";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ROOT, startWorker } from "./lib/worker.mjs";
import { allSkills, send } from "./lib/skills.mjs";
import { INSTALLER_VERSION, judgeInstaller, skillsCli } from "../judges/installer.mjs";
import { tempDir } from "../lib/processes.mjs";

const SKILLS = join(ROOT, process.env.SKILLS_DIR ?? "skills");
let worker;
let site;
let index;
let entries;
let scratch;
before(async () => {
  worker = await startWorker();
  // The site's origin: the installer finds /.well-known/agent-skills/index.json below it.
  site = `http://localhost:${worker.port}`;
  const res = await send(worker.port, { path: "/.well-known/agent-skills/index.json" });
  assert.equal(res.status, 200);
  index = JSON.parse(res.body.toString("utf8"));
  entries = new Map((await allSkills(worker.port)).map((e) => [e.frontmatter.name, e]));
  scratch = tempDir("installer");
});
after(async () => {
  await worker?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test("the installer's version is the pinned one", () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, "node_modules", "skills", "package.json"), "utf8"));
  assert.equal(pkg.version, INSTALLER_VERSION);
});

test("skills add --list lists every mirrored skill", async () => {
  assert.ok(index.skills.length > 0);
  const { stdout, stderr } = await skillsCli(["add", site, "--list"], scratch, scratch);
  for (const s of index.skills) {
    assert.ok(stdout.includes(s.name), `${s.name} is listed:\n${stdout}\n${stderr}`);
  }
});

test("skills add installs every mirrored skill, each file byte-equal to the skills folder", async () => {
  const r = await judgeInstaller({ site, index, entries, folder: SKILLS, scratch });
  console.log(`installed ${r.skills} skills (${r.archives} from archives), ${r.files} files`);
  assert.equal(r.skills, index.skills.length);
  assert.ok(r.archives > 0, "archives were unpacked");
});

const NATIVE = process.env.SKILLS_EDGE_BIN ?? join(process.env.CARGO_TARGET_DIR ?? join(ROOT, "target"), "debug", "skills-edge");
const NPM_BIN = join(ROOT, "pkg", "bin", "skills-edge.mjs");

/** Runs a `skills-edge` command (`node` + script, or the native binary); resolves its output and exit status. */
function command(file, args) {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 120_000, maxBuffer: 16 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? err.code : 0, stdout, stderr }),
    );
  });
}
const native = (args) => command(NATIVE, args);
const npm = (args) => command(process.execPath, [NPM_BIN, ...args]);

/** A proxy on 127.0.0.1 that forwards every GET to the Worker and changes one byte of the
 * first `.tar.gz` it passes on; resolves `{ origin, close }`. */
function startArchiveTamperProxy(port) {
  let tampered = null;
  const server = createServer(async (req, res) => {
    const upstream = await fetch(`http://127.0.0.1:${port}${req.url}`, { method: req.method });
    const body = Buffer.from(await upstream.arrayBuffer());
    if (req.url.endsWith(".tar.gz") && body.length > 20 && (tampered === null || tampered === req.url)) {
      tampered = req.url;
      body[body.length - 20] ^= 0x01;
    }
    const headers = {};
    for (const h of ["content-type", "etag", "cache-control"]) {
      const v = upstream.headers.get(h);
      if (v) headers[h] = v;
    }
    res.writeHead(upstream.status, headers).end(body);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        origin: `http://127.0.0.1:${server.address().port}`,
        tampered: () => tampered,
        close: () => new Promise((r) => server.close(r)),
      }),
    ),
  );
}

test("skills-edge verify reads the Worker's index: every skill verified, native and npm alike", async () => {
  const url = `http://127.0.0.1:${worker.port}/.well-known/agent-skills/index.json`;
  const a = await native(["verify", url, "--json"]);
  const b = await npm(["verify", url, "--json"]);
  assert.equal(a.code, 0, `${a.stdout}${a.stderr}`);
  assert.deepEqual({ code: b.code, stdout: b.stdout, stderr: b.stderr }, { code: a.code, stdout: a.stdout, stderr: a.stderr });
  const lines = a.stdout.trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(lines.length, index.skills.length);
  for (const l of lines) {
    assert.equal(l.status, "verified", JSON.stringify(l));
    const entry = entries.get(l.name);
    assert.equal(l.revision, entry._meta["io.github.skills-edge/revision"], `${l.name}: the revision MCP lists`);
  }
  const table = await native(["verify", url]);
  assert.equal(table.code, 0, table.stderr);
});

test("one byte of an archive changed in transit: exit 1, naming the digest", async () => {
  const proxy = await startArchiveTamperProxy(worker.port);
  try {
    const url = `${proxy.origin}/.well-known/agent-skills/index.json`;
    const a = await native(["verify", url, "--json"]);
    const b = await npm(["verify", url, "--json"]);
    assert.equal(a.code, 1, `${a.stdout}${a.stderr}`);
    assert.deepEqual({ code: b.code, stdout: b.stdout }, { code: a.code, stdout: a.stdout });
    const path = proxy.tampered();
    assert.ok(path, "an archive passed the proxy");
    const name = path.slice(path.lastIndexOf("/") + 1, -".tar.gz".length);
    const want = index.skills.find((s) => s.name === name);
    const lines = a.stdout.trim().split("\n").map((l) => JSON.parse(l));
    const bad = lines.find((l) => l.name === name);
    assert.equal(bad.status, "failed", JSON.stringify(bad));
    assert.equal(bad.code, "digest-mismatch");
    assert.ok(bad.why.includes(want.digest), `the index's digest is named: ${bad.why}`);
    for (const l of lines.filter((l) => l.name !== name)) assert.equal(l.status, "verified", JSON.stringify(l));
  } finally {
    await proxy.close();
  }
});
