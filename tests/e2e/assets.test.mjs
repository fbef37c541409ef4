// The assets-backed Worker on real workerd (wrangler dev): file bytes in Workers Static Assets.
// scripts/test.d/30-worker.sh builds the Worker with `--inline-max 0`, so every non-empty file
// is an asset and every read below goes through the ASSETS binding.
//   * every file of the catalog reads back byte-exact through /mcp and through the
//     /.well-known/agent-skills/ mirror;
//   * nothing is reachable around the Worker's rules (run_worker_first = true): an asset's own
//     path is the Worker's 404 from an allowed Host, and 403 from a refused Host or Origin;
//   * a fault is loud and never serves wrong bytes: in a copy of the build with one file's
//     assets removed and another's truncated, /mcp answers -32603 naming the URI (status 500),
//     the mirror 500, and the other files are still served.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, rmSync, truncateSync, statSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ROOT, copyWorker, startWorker } from "./lib/worker.mjs";
import { allSkills, mcp, mirrorEveryFile, readEveryFile, send, sourceOf } from "./lib/skills.mjs";
import { tempDir } from "../lib/processes.mjs";

const SKILLS = join(ROOT, process.env.SKILLS_DIR ?? "skills");
const ASSETS = join(ROOT, "worker", "build", "assets");
const hexOf = (digest) => digest.slice("sha256:".length);

let worker;
let skills;
before(async () => {
  worker = await startWorker();
  skills = await allSkills(worker.port);
});
after(async () => {
  await worker?.stop();
});

test("the Worker under test keeps every non-empty file in Static Assets", () => {
  const names = new Set(readdirSync(ASSETS));
  let files = 0;
  for (const s of skills) {
    for (const r of s.resources) {
      if (r.size === 0) continue;
      assert.ok(names.has(hexOf(r.digest)), `${r.uri}: its bytes are the asset ${hexOf(r.digest)}`);
      assert.ok(names.has(`${hexOf(r.digest)}.json`), `${r.uri}: its JSON string is an asset`);
      assert.equal(statSync(join(ASSETS, hexOf(r.digest))).size, r.size);
      files++;
    }
  }
  assert.ok(files > 0);
});

test("every file reads back byte-exact through /mcp and through the mirror", async () => {
  const viaMcp = await readEveryFile(worker.port, SKILLS, skills);
  const viaMirror = await mirrorEveryFile(worker.port, SKILLS, skills);
  console.log(`/mcp: ${viaMcp.files} files (${viaMcp.bytes} bytes); mirror: ${viaMirror.skills} skills, ${viaMirror.files} files`);
  assert.equal(viaMcp.files, skills.reduce((n, s) => n + s.resources.length, 0));
  assert.ok(viaMirror.files > 0);
});

test("an asset's own path is not served: 404 from an allowed Host, 403 from a refused Host or Origin", async () => {
  const [file] = skills.flatMap((s) => s.resources).filter((r) => r.size > 0);
  for (const path of [`/${hexOf(file.digest)}`, `/${hexOf(file.digest)}.json`]) {
    for (const method of ["GET", "HEAD"]) {
      const ok = await send(worker.port, { method, path });
      assert.equal(ok.status, 404, `${method} ${path} from an allowed Host`);
      assert.ok(!ok.body.equals(sourceOf(SKILLS, file.uri)), "not the asset's bytes");
      const host = await send(worker.port, { method, path, host: "evil.example" });
      assert.equal(host.status, 403, `${method} ${path} with Host evil.example`);
      const origin = await send(worker.port, { method, path, headers: { origin: "https://evil.example" } });
      assert.equal(origin.status, 403, `${method} ${path} from Origin https://evil.example`);
      assert.equal(origin.headers["access-control-allow-origin"], undefined);
    }
  }
  // The mirror and /mcp follow the same rules.
  const skill = skills[0];
  const name = skill.frontmatter.name;
  const mirrored = await send(worker.port, { path: `/.well-known/agent-skills/${name}/SKILL.md`, host: "evil.example" });
  assert.equal(mirrored.status, 403);
  const read = await mcp(worker.port, "resources/read", { uri: skill.uri }, { headers: { origin: "https://evil.example" } });
  assert.equal(read.status, 403);
});

test("a missing or truncated asset answers -32603 naming the URI (500), the mirror 500; other files are served", async () => {
  const dir = tempDir("assets-fault");
  let broken;
  try {
    const config = copyWorker(dir);
    const assets = join(dir, "worker", "build", "assets");
    // Two files with assets of their own (no other file shares their bytes), in mirrored skills.
    const files = skills.flatMap((s) => s.resources.map((r) => ({ skill: s, ...r }))).filter((r) => r.size > 1);
    const shared = (r) => files.filter((f) => f.digest === r.digest).length > 1;
    const [gone, cut, ...rest] = files.filter((r) => !shared(r));
    assert.ok(gone && cut && rest.length, "the catalog has enough files");
    rmSync(join(assets, hexOf(gone.digest)));
    rmSync(join(assets, `${hexOf(gone.digest)}.json`));
    truncateSync(join(assets, hexOf(cut.digest)), cut.size - 1);
    const json = join(assets, `${hexOf(cut.digest)}.json`);
    truncateSync(json, statSync(json).size - 1);

    broken = await startWorker({ config });
    for (const f of [gone, cut]) {
      const res = await mcp(broken.port, "resources/read", { uri: f.uri });
      assert.equal(res.status, 500, `${f.uri}: ${res.body}`);
      assert.equal(res.headers["content-type"], "application/json");
      assert.equal(res.json.id, 1);
      assert.equal(res.json.error.code, -32603);
      assert.ok(res.json.error.message.includes(f.uri), res.json.error.message);
      assert.equal(res.json.error.data?.uri, f.uri);
      assert.equal(res.json.result, undefined);

      const path = `/.well-known/agent-skills/${f.skill.frontmatter.name}/${f.uri.slice(f.skill.uri.length - "SKILL.md".length)}`;
      const m = await send(broken.port, { path });
      assert.equal(m.status, 500, `${path}: ${m.body}`);
      assert.match(m.headers["content-type"], /^text\/plain/);
      assert.ok(m.body.toString().includes(f.uri), m.body.toString());
      assert.ok(!m.body.equals(sourceOf(SKILLS, f.uri).subarray(0, f.size - 1)), "not the truncated bytes");
    }
    // The fault is logged, naming the asset and what is wrong with it (wrangler writes the
    // Worker's console to its log a moment later).
    const logged = [
      new RegExp(`asset ${hexOf(gone.digest)}\\.json cannot be served: the binding answered 404`),
      new RegExp(`asset ${hexOf(gone.digest)} cannot be served: the binding answered 404`),
      new RegExp(`asset ${hexOf(cut.digest)}\\.json cannot be served: it is \\d+ bytes, the pack says \\d+`),
      new RegExp(`asset ${hexOf(cut.digest)} cannot be served: it is ${cut.size - 1} bytes, the pack says ${cut.size}`),
    ];
    for (let i = 0; i < 50 && !logged.every((re) => re.test(broken.logTail(1000))); i++) await sleep(200);
    for (const re of logged) assert.match(broken.logTail(1000), re);

    // Every other file is still served, byte-exact.
    const others = skills.map((s) => ({ ...s, resources: s.resources.filter((r) => r.digest !== gone.digest && r.digest !== cut.digest) }));
    const { files: n } = await readEveryFile(broken.port, SKILLS, others);
    assert.ok(n >= rest.length);
  } finally {
    await broken?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the assets are exactly the pack's: each named by the SHA-256 of its raw bytes", () => {
  // Beside the skill files, the one other entry is the inspector page's folder, there when the
  // npm package was built first (scripts/build-worker.sh; 30-worker.sh requires it).
  const entries = readdirSync(ASSETS, { withFileTypes: true });
  const others = entries.filter((e) => !(e.isFile() && /^[0-9a-f]{64}(\.json)?$/.test(e.name)));
  assert.ok(others.length <= 1, `unexpected assets: ${others.map((e) => e.name)}`);
  for (const e of others) assert.deepEqual([e.name, e.isDirectory()], ["inspector", true]);
  for (const { name } of entries) {
    if (name.endsWith(".json") || name === "inspector") continue;
    const digest = createHash("sha256").update(readFileSync(join(ASSETS, name))).digest("hex");
    assert.equal(digest, name, `${name} is named by its content`);
  }
});
