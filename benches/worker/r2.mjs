// The catalog from R2 against the embedded pack, on bare workerd (the binary wrangler runs), for
// a generated catalog of N skills (benches/scale.rs's shape, packed and signed by the native
// `skills-edge pack --sign --assets` at publish's default inline limit):
//   * CPU per request in steady state (`skills/list`, `skills/get`, `resources/read` of a guide:
//     sequential requests on one keep-alive connection), the Worker serving the pack from R2
//     (CATALOG_SOURCE = "r2", the default CATALOG_REFRESH_MS) against the same Worker serving
//     the same pack embedded, both running at once: each warmed (--warm requests of each kind),
//     then measured in alternating rounds (--rounds of --requests each), the median round of
//     each; the goal is within ×1.1;
//   * the cost of a switch: the pointer moved to a second revision (one skill changed), then the
//     workerd process's CPU from the request that starts the refresh until the new revision is
//     served and the process is idle again (one read of the pointer, one listing of the assets,
//     one fetch, the pack's SHA-256, its full check and one decode);
//   * the isolate's memory after its first answer (through workerd's V8 inspector, as
//     scale.mjs measures it), r2 against embedded.
// The bucket is served to the Worker from this process over HTTP on 127.0.0.1, through
// tests/e2e/lib/r2-bucket-entry.mjs (worker/entry.mjs with CATALOG_BUCKET replaced, as
// tests/e2e/r2-outage.test.mjs runs it): its CPU is this process's, not workerd's, so the
// figures are the Worker's own; what a real R2 read costs in latency is not measured here.
// CPU figures are workerd's process CPU time (benches/worker/lib.mjs), with the process
// otherwise idle.
//
// Usage: node_modules/.bin/node benches/worker/r2.mjs [--skills 1000] [--requests 200] [--warm 1000]
//          [--rounds 7] [--bin PATH]
// Needs the Worker built (bash scripts/build-worker.sh).
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { tempDir } from "../../tests/lib/processes.mjs";
import { signRelease } from "../../tests/e2e/lib/sign.mjs";
import { call, cpuNs, generate, heapAfterGc, idle, perRequest, post, withWorkerd, workerdConfig } from "./lib.mjs";

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const ESBUILD = join(ROOT, "node_modules", ".bin", "esbuild");

const opts = { skills: 1000, requests: 200, warm: 1000, rounds: 7, bin: null };
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  const value = () => {
    if (i + 1 >= process.argv.length) throw new Error(`${a} needs a value`);
    return process.argv[++i];
  };
  if (a === "--skills") opts.skills = Number(value());
  else if (a === "--requests") opts.requests = Number(value());
  else if (a === "--warm") opts.warm = Number(value());
  else if (a === "--rounds") opts.rounds = Number(value());
  else if (a === "--bin") opts.bin = value();
  else throw new Error(`unknown argument ${a} (see the comment at the top of benches/worker/r2.mjs)`);
}
if (!Number.isInteger(opts.skills) || opts.skills < 2) throw new Error("--skills: a whole number of at least 2");
for (const k of ["requests", "warm", "rounds"]) {
  if (!Number.isInteger(opts[k]) || opts[k] < 1) throw new Error(`--${k}: a whole number of at least 1`);
}
const NATIVE = opts.bin ?? process.env.SKILLS_EDGE_BIN ??
  [join(ROOT, "target", "release", "skills-edge"), join(ROOT, "target", "debug", "skills-edge")].find(existsSync);
if (!NATIVE || !existsSync(NATIVE)) throw new Error("no skills-edge binary: cargo build --release -p skills-edge-cli (or --bin PATH)");
const BUILD = join(ROOT, "worker", "build");
if (!existsSync(join(BUILD, "skills_edge_worker_bg.wasm"))) throw new Error("the Worker is not built: bash scripts/build-worker.sh");

const work = tempDir("r2-bench");
const objects = new Map();
const server = createServer((req, res) => {
  const url = new URL(req.url, "http://bucket.invalid");
  const key = url.searchParams.get("key") ?? "";
  if (url.pathname === "/list") {
    const list = [...objects].filter(([k]) => k.startsWith(key)).map(([k, v]) => ({ key: k, size: v.length }));
    return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(list));
  }
  const bytes = objects.get(key);
  if (!bytes) return res.writeHead(404).end();
  res.writeHead(200).end(bytes);
});

try {
  const n = opts.skills;
  const run = (args) => {
    const r = spawnSync(NATIVE, args, { encoding: "utf8", timeout: 1_800_000 });
    if (r.status !== 0) throw new Error(`skills-edge ${args[0]} failed:\n${r.stderr}`);
    return r;
  };
  run(["keygen", "--out", join(work, "key")]);
  const secret = readFileSync(join(work, "key", "signing.key"), "utf8");
  const trust = readFileSync(join(work, "key", "signing.pub"), "utf8").trim();
  // Two revisions: the generated catalog, and the same with one skill changed.
  const revisions = [];
  for (const v of [1, 2]) {
    const skills = join(work, `v${v}`);
    generate(skills, n);
    if (v === 2) writeFileSync(join(skills, "skill-00000", "SKILL.md"), readFileSync(join(skills, "skill-00000", "SKILL.md"), "utf8") + "\nVersion two.\n");
    const assets = join(work, `assets-v${v}`);
    const packFile = join(work, `v${v}.pack`);
    run(["pack", skills, "--sign", join(work, "key", "signing.key"), "--assets", assets, "-o", packFile]);
    const pack = readFileSync(packFile);
    const rev = createHash("sha256").update(pack).digest("hex");
    const listed = readdirSync(assets).map((f) => [f, readFileSync(join(assets, f)).length]);
    const release = Buffer.from(signRelease(secret, { pack: rev, size: pack.length, assets: listed }));
    revisions.push({ rev, pack, packFile, assets, listed, release });
  }
  const publish = ({ rev, pack, assets, listed, release }) => {
    for (const [f] of listed) objects.set(`default/assets/${f}`, readFileSync(join(assets, f)));
    objects.set(`default/packs/${rev}.pack`, pack);
    objects.set(`default/releases/${rev}.json`, release);
    objects.set("default/current.json", release); // the pointer, last
  };
  publish(revisions[0]);
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const origin = `http://127.0.0.1:${server.address().port}`;

  // Both Workers: the same wasm and glue; the embedded one bundles v1's pack, the r2 one reads it
  // from the bucket.
  const stage = (name, entry, vars) => {
    const dir = join(work, name);
    mkdirSync(dir, { recursive: true });
    execFileSync(ESBUILD, [entry, "--bundle", "--format=esm", "--platform=browser", "--conditions=workerd,worker,browser",
      "--external:cloudflare:workers", "--external:*.wasm", "--external:*.pack", "--log-level=warning", `--outfile=${join(dir, "worker.mjs")}`]);
    cpSync(join(BUILD, "skills_edge_worker_bg.wasm"), join(dir, "skills_edge_worker_bg.wasm"));
    cpSync(revisions[0].packFile, join(dir, "catalog.pack"));
    symlinkSync(revisions[0].assets, join(dir, "assets"));
    const file = workerdConfig(dir, { by: "benches/worker/r2.mjs", bindings: vars, internet: true });
    return { file, dir };
  };
  const embedded = stage("embedded", join(ROOT, "worker", "entry.mjs"), {});
  const r2Vars = { CATALOG_SOURCE: "r2", CATALOG_TRUST: trust, R2_TEST_ORIGIN: origin };
  const fromR2 = stage("r2", join(ROOT, "tests", "e2e", "lib", "r2-bucket-entry.mjs"), r2Vars);
  // The switch needs a refresh due: the lowest interval, so one request starts it.
  const switching = stage("r2-switch", join(ROOT, "tests", "e2e", "lib", "r2-bucket-entry.mjs"), { ...r2Vars, CATALOG_REFRESH_MS: "100" });

  const middle = `skill-${String(Math.floor(n / 2)).padStart(5, "0")}`;
  const getUri = `skill://${middle}/SKILL.md`;
  const readUri = `skill://${middle}/references/guide.md`;
  const kinds = {
    list: [call("skills/list"), null],
    get: [call("skills/get", { uri: getUri }), getUri],
    read: [call("resources/read", { uri: readUri }), readUri],
  };
  // Both Workers at once, each its own workerd: after a first answer, `--warm` requests of each
  // kind (a fresh isolate runs its first few hundred in V8's baseline tier), then `--rounds`
  // rounds, each measuring `--requests` requests of every kind on one Worker and then on the
  // other, so drift and load touch both alike; the figure is each side's median round.
  const steady = () => withWorkerd(embedded.file, embedded.dir, (pidE, portE) => withWorkerd(fromR2.file, fromR2.dir, async (pidR, portR) => {
    const sides = { embedded: [pidE, portE], r2: [pidR, portR] };
    const samples = {};
    for (const [side, [pid, port]] of Object.entries(sides)) {
      const r = await post(port, call("skills/list"));
      if (r.status !== 200) throw new Error(`${side}: first skills/list: HTTP ${r.status}: ${r.body.slice(0, 300)}`);
      for (const [msg, name] of Object.values(kinds)) await perRequest(pid, port, msg, name, opts.warm);
      samples[side] = { list: [], get: [], read: [] };
    }
    for (let round = 0; round < opts.rounds; round++) {
      for (const [side, [pid, port]] of Object.entries(sides)) {
        for (const [kind, [msg, name]] of Object.entries(kinds)) samples[side][kind].push(await perRequest(pid, port, msg, name, opts.requests));
      }
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const out = {};
    for (const side of Object.keys(sides)) out[side] = Object.fromEntries(Object.entries(samples[side]).map(([k, xs]) => [k, median(xs)]));
    return out;
  }));
  const heap = (w) => withWorkerd(w.file, w.dir, async (pid, port, start, inspectorPort) => {
    const r = await post(port, call("skills/list"));
    if (r.status !== 200) throw new Error(`first skills/list: HTTP ${r.status}`);
    return heapAfterGc(inspectorPort);
  }, { inspector: true });

  const rows = await steady();
  const memory = { embedded: await heap(embedded), r2: await heap(fromR2) };
  const served = async (port) => JSON.parse((await post(port, call("skills/get", { uri: "skill://skill-00000/SKILL.md" }), "skill://skill-00000/SKILL.md")).body);
  const sw = await withWorkerd(switching.file, switching.dir, async (pid, port) => {
    const before = await served(port);
    if (!before.result) throw new Error(`skills/get before the switch: ${JSON.stringify(before).slice(0, 300)}`);
    await perRequest(pid, port, call("skills/list"), null, 20); // warm, then let the process settle
    await idle(pid, Date.now() + 60_000);
    publish(revisions[1]);
    await sleep(150); // the refresh is due
    const c0 = cpuNs(pid);
    const t0 = Date.now();
    // Starts the refresh (answered from v1); then nothing until workerd is idle again.
    await post(port, call("skills/list"));
    await idle(pid, Date.now() + 120_000);
    const cpuMs = (cpuNs(pid) - c0) / 1e6;
    const wallMs = Date.now() - t0;
    const after = await served(port);
    if (JSON.stringify(after) === JSON.stringify(before)) throw new Error("the new revision is not served after the refresh");
    return { cpuMs, wallMs };
  });

  const f = (x) => x.toFixed(0);
  const MB = (b) => (b / 1e6).toFixed(1);
  const isolate = (h) => h.used + h.backing + h.wasm;
  console.log(`catalog from R2 vs embedded, ${n} skills (pack ${MB(revisions[0].pack.length)} MB, ${revisions[0].listed.length} assets), median of ${opts.rounds} rounds of ${opts.requests} requests per kind after ${opts.warm} to warm, load ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`);
  console.log("| CPU per request (µs) | embedded | r2 | r2 / embedded |\n|---|---|---|---|");
  for (const k of ["list", "get", "read"]) console.log(`| ${k} | ${f(rows.embedded[k])} | ${f(rows.r2[k])} | ${(rows.r2[k] / rows.embedded[k]).toFixed(2)} |`);
  console.log(`switch to a new revision: ${sw.cpuMs.toFixed(1)} ms of workerd CPU (the request that starts it and the whole refresh, until workerd is idle; ${sw.wallMs} ms wall, including the 200 ms of idleness that ends it)`);
  console.log(`isolate after its first answer: embedded ${MB(isolate(memory.embedded))} MB (heap ${MB(memory.embedded.used)}, ArrayBuffers ${MB(memory.embedded.backing)}, wasm ${MB(memory.embedded.wasm)}); ` +
    `r2 ${MB(isolate(memory.r2))} MB (heap ${MB(memory.r2.used)}, ArrayBuffers ${MB(memory.r2.backing)}, wasm ${MB(memory.r2.wasm)})`);
} finally {
  server.closeAllConnections();
  server.close();
  rmSync(work, { recursive: true, force: true });
}
