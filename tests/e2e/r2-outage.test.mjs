// A catalog from R2 while R2 is slow or down (docs/serving.md, "Update skills without
// redeploying"): the Worker's own build on bare workerd, whose CATALOG_BUCKET is a bucket this
// test serves over HTTP on 127.0.0.1 (tests/e2e/lib/r2-bucket-entry.mjs), so the test decides
// when each R2 operation answers, fails (500) or hangs. wrangler dev's local R2 is never slow
// nor down, hence this bucket; the objects in it are real: the skills folder packed and signed
// by the native `skills-edge pack --sign`, its assets, and a release signed with node:crypto.
// Two Workers in one workerd process, each an isolate with a bucket of its own, at
// CATALOG_REFRESH_MS=300: "warm" served a good pack before R2 went wrong, "cold" never had one.
// Proves: while R2 fails or hangs, every request of the warm isolate is answered from the last
// good pack, without waiting on R2; each refresh logs its failure once (one pointer read, one
// log line), a hung read gives up after the Worker's 10 s bound, and only one refresh is under
// way at a time; the cold isolate answers /mcp and the mirror 503 with Retry-After, whether R2
// fails or hangs, and serves once R2 answers again. About 25 s, most of it the 10 s bound twice
// side by side. Run with Node 22.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ROOT, startWorkerd } from "./lib/worker.mjs";
import { mcp, send } from "./lib/skills.mjs";
import { signRelease } from "./lib/sign.mjs";
import { tempDir } from "../lib/processes.mjs";
import { SKILLS_DIR } from "../judges/folder.mjs";

const BIN = process.env.SKILLS_EDGE_BIN;
const REFRESH_MS = 300;
/** The Worker's bound on one R2 operation (worker/src/r2.rs, R2_DEADLINE_MS). */
const R2_DEADLINE_MS = 10_000;
const INDEX = "/.well-known/agent-skills/index.json";
const dir = tempDir("r2-outage");

function run(cmd, args) {
  return new Promise((resolve) => {
    execFile(cmd, args, { timeout: 120_000, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? (err.code ?? 1) : 0, stdout: stdout.toString(), stderr: stderr.toString() }),
    );
  });
}

/**
 * One bucket per Worker: its objects, how it answers now (`ok`, `fail`: 500 on every
 * operation, `slow`: never, until the test ends), and every pointer read it was asked for,
 * with the mode it met.
 */
function bucket() {
  return { objects: new Map(), mode: "ok", pointerReads: [], held: [] };
}
const buckets = { warm: bucket(), cold: bucket() };
const POINTER = "default/current.json";

const server = createServer((req, res) => {
  const url = new URL(req.url, "http://bucket.invalid");
  const [, name, op] = url.pathname.split("/");
  const b = buckets[name];
  const key = url.searchParams.get("key") ?? "";
  if (!b || !["get", "list"].includes(op)) return res.writeHead(400).end("no such bucket operation");
  if (op === "get" && key === POINTER) b.pointerReads.push(b.mode);
  if (b.mode === "fail") return res.writeHead(500).end("internal error");
  if (b.mode === "slow") return void b.held.push(res);
  if (op === "list") {
    const objects = [...b.objects].filter(([k]) => k.startsWith(key)).map(([k, v]) => ({ key: k, size: v.length }));
    return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(objects));
  }
  const bytes = b.objects.get(key);
  if (!bytes) return res.writeHead(404).end();
  res.writeHead(200).end(bytes);
});

let workerd;
let warm;
let cold;
let revision;

/** The log's lines about catalog `default` that contain `text`, from `from` on. */
function logLines(text, from = 0) {
  return readFileSync(workerd.log, "utf8").slice(from).split("\n").filter((l) => l.includes("catalog default:") && l.includes(text));
}
const logMark = () => readFileSync(workerd.log, "utf8").length;

/** What the warm Worker answers from its pack: skills/list and the mirror's index. */
async function answers(port) {
  const list = await mcp(port, "skills/list");
  const index = await send(port, { path: INDEX });
  return { list: [list.status, list.body.toString("utf8")], index: [index.status, index.body.toString("utf8")] };
}

before(async () => {
  assert.ok(BIN, "SKILLS_EDGE_BIN names the native skills-edge (scripts/native-bin.sh)");
  assert.equal((await run(BIN, ["keygen", "--out", join(dir, "key")])).code, 0);
  const packFile = join(dir, "catalog.pack");
  const assets = join(dir, "assets");
  const packed = await run(BIN, ["pack", SKILLS_DIR, "--sign", join(dir, "key", "signing.key"), "--assets", assets, "--inline-max", "1024", "-o", packFile]);
  assert.equal(packed.code, 0, packed.stderr);
  const pack = readFileSync(packFile);
  revision = createHash("sha256").update(pack).digest("hex");
  const listed = readdirSync(assets).map((n) => [n, readFileSync(join(assets, n)).length]);
  const pointer = signRelease(readFileSync(join(dir, "key", "signing.key"), "utf8"), { pack: revision, size: pack.length, assets: listed });
  for (const b of Object.values(buckets)) {
    b.objects.set(POINTER, Buffer.from(pointer));
    b.objects.set(`default/releases/${revision}.json`, Buffer.from(pointer));
    b.objects.set(`default/packs/${revision}.pack`, pack);
    for (const [n] of listed) b.objects.set(`default/assets/${n}`, readFileSync(join(assets, n)));
  }
  assert.ok(listed.length > 0, "the pack leaves files out, so the Worker lists the bucket's assets too");
  buckets.cold.mode = "fail";
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const trust = readFileSync(join(dir, "key", "signing.pub"), "utf8").trim();
  const vars = (name) => ({ CATALOG_SOURCE: "r2", CATALOG_TRUST: trust, CATALOG_REFRESH_MS: String(REFRESH_MS), R2_TEST_ORIGIN: `${origin}/${name}` });
  workerd = await startWorkerd({
    entry: join(ROOT, "tests", "e2e", "lib", "r2-bucket-entry.mjs"),
    instances: [vars("warm"), vars("cold")],
    readyStatus: [404, 503],
  });
  [warm, cold] = workerd.origins.map((o) => Number(new URL(o).port));
});

after(async () => {
  for (const b of Object.values(buckets)) for (const res of b.held) res.destroy();
  await workerd?.stop();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe("a catalog from R2 while R2 is slow or down", { concurrency: false }, () => {
  test("a cold isolate with no good pack answers /mcp and the mirror 503 with Retry-After while R2 fails", async () => {
    for (const res of [await mcp(cold, "skills/list"), await send(cold, { path: INDEX })]) {
      assert.equal(res.status, 503, res.body.toString());
      assert.equal(res.headers["retry-after"], "1", "the refresh interval, at least a second");
      assert.match(JSON.parse(res.body.toString()).error.message, /not available yet/);
    }
    const said = logLines("R2 cannot be read");
    assert.ok(said.length > 0, workerd.logTail(20));
    assert.match(said[0], /R2 get default\/current\.json failed: 500.*; no good pack yet: its requests are answered 503/);
  });

  test("while R2 fails, every request is answered from the last good pack and each refresh logs the failure once", async () => {
    const good = await answers(warm);
    assert.equal(good.list[0], 200);
    assert.equal(good.index[0], 200);
    assert.match(logLines("serving revision")[0] ?? "", new RegExp(`serving revision ${revision}`));
    const from = logMark();
    const b = buckets.warm;
    b.pointerReads.length = 0;
    b.mode = "fail";
    // At least 10 refresh intervals and 4 refreshes that met the failure (bounded: a loaded
    // machine answers slower, and refreshes follow requests).
    const until = Date.now() + 10 * REFRESH_MS;
    const bound = Date.now() + 30_000;
    let asked = 0;
    while ((Date.now() < until || b.pointerReads.length < 4) && Date.now() < bound) {
      assert.deepEqual(await answers(warm), good, "answered from the last good pack");
      asked++;
      await sleep(50);
    }
    b.mode = "ok";
    // Let the last refresh that met the failure write its line.
    await sleep(3 * REFRESH_MS);
    await answers(warm);
    const failed = b.pointerReads.filter((m) => m === "fail").length;
    assert.ok(failed >= 4, `refreshes ran while R2 failed (${failed} pointer reads, ${asked} requests)`);
    const said = logLines("R2 cannot be read", from);
    assert.equal(said.length, failed, `one line per refresh that met the failure:\n${said.join("\n")}`);
    for (const l of said) assert.match(l, new RegExp(`R2 get default/current\\.json failed: 500 internal error\\); kept revision ${revision}$`));
    assert.deepEqual(await answers(warm), good);
  });

  test("while R2 hangs, requests do not wait on it, one refresh at a time gives up after 10 s and says so once; the cold isolate answers 503", { timeout: 60_000 }, async () => {
    const good = await answers(warm);
    const from = logMark();
    for (const b of Object.values(buckets)) {
      b.pointerReads.length = 0;
      b.mode = "slow";
    }
    // The cold isolate's request waits for its refresh (it has nothing else to answer from),
    // which gives up at the bound: 503 with Retry-After.
    const started = Date.now();
    const coldAnswer = mcp(cold, "skills/list").then((res) => ({ res, waited: Date.now() - started }));
    let asked = 0;
    while (Date.now() - started < R2_DEADLINE_MS / 2) {
      const t = Date.now();
      assert.deepEqual(await answers(warm), good, "answered from the last good pack while R2 hangs");
      // Far inside the bound: a request that waited on the hung read would take 10 s.
      assert.ok(Date.now() - t < R2_DEADLINE_MS / 2, `a request waited on R2 (${Date.now() - t} ms)`);
      asked++;
      await sleep(50);
    }
    assert.ok(asked >= 3, `requests were answered while the refresh hung (${asked})`);
    assert.deepEqual(buckets.warm.pointerReads, ["slow"], "one refresh under way, none piled up behind it");
    const deadline = started + 3 * R2_DEADLINE_MS;
    let said = [];
    while (Date.now() < deadline) {
      said = logLines("did not answer within", from);
      if (said.some((l) => l.includes("kept revision"))) break;
      assert.deepEqual(await answers(warm), good);
      await sleep(100);
    }
    const warmSaid = said.filter((l) => l.includes("kept revision"));
    assert.equal(warmSaid.length, 1, workerd.logTail(20));
    assert.match(warmSaid[0], new RegExp(`R2 cannot be read \\(R2 \\(get default/current\\.json\\) did not answer within ${R2_DEADLINE_MS} ms\\); kept revision ${revision}$`));
    const { res, waited } = await coldAnswer;
    assert.equal(res.status, 503, res.body.toString());
    assert.equal(res.headers["retry-after"], "1");
    assert.ok(waited >= R2_DEADLINE_MS - 500, `the cold request waited for its refresh's bound (${waited} ms)`);
    assert.ok(logLines("did not answer within", from).some((l) => l.endsWith("no good pack yet: its requests are answered 503")));
    for (const b of Object.values(buckets)) {
      b.mode = "ok";
      for (const r of b.held.splice(0)) r.destroy();
    }
  });

  test("once R2 answers again, the cold isolate serves the pack and the warm one keeps it", async () => {
    const good = await mcp(warm, "skills/list");
    assert.equal(good.status, 200);
    const deadline = Date.now() + 20_000;
    let seen;
    while (Date.now() < deadline) {
      seen = await mcp(cold, "skills/list");
      if (seen.status === 200) break;
      await sleep(100);
    }
    assert.equal(seen.status, 200, workerd.logTail(20));
    assert.deepEqual(seen.json.result, good.json.result, "the same pack's skills");
    assert.equal((await send(cold, { path: INDEX })).status, 200);
  });
});
