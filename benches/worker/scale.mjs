// The scale benchmark's deployment side: generated catalogs of N skills (the shape of
// benches/scale.rs: each skill a `SKILL.md` with a name, a 24-word description and
// `metadata.team`, and one `references/guide.md` of about 2.5 KB) packed for the Worker
// (`skills-edge pack --assets`, every file an asset by default: `--inline-max 0`), then, per N,
// in one run:
//   * the pack (raw and gzip level 6) and the asset files it makes, by kind;
//   * `wrangler deploy --dry-run` of the Worker with that pack and those assets: the upload
//     wrangler reports (the 64 MiB every plan allows) and the asset files (20,000 on the free
//     plan, 100,000 on paid plans);
//   * the Worker on bare workerd (`workerd serve`, the binary of the npm `workerd` package
//     wrangler runs; the ASSETS binding a workerd `disk` service over the assets folder, as in
//     skills-edge-assets.capnp): the process's CPU time while it starts (module evaluation:
//     the wasm instantiated and the bundled pack opened), the CPU of the first request
//     (`skills/list`) in that fresh isolate, the process's resident memory after that first
//     answer, and the CPU per request of a `skills/list` page, `skills/get` and a
//     `resources/read` of a guide (sequential requests on one keep-alive connection). Local
//     workerd reports no CPU time per request, so each figure is the workerd process's CPU
//     time (the sum of its threads' `/proc/PID/task/*/schedstat`, nanoseconds) across the
//     request(s), with the process otherwise idle. The same figures for a plain JavaScript
//     Worker that answers a fixed body (empty-js.mjs) are the floor: what workerd itself
//     costs; the Worker's own memory is its resident memory minus that floor's;
//   * Node: `new SkillsServer({ pack })` of the npm package (the checked path of a pack from
//     elsewhere: digest and every record, linear in the pack) and its first `skills/list`,
//     wall and CPU time, in a fresh Node process.
// With `--judges`, the official SDK 2.4 `SkillsClient` (both eras, every skill got, every file
// read and verified) and MCP Inspector `--verify` (both eras) judge the largest catalog through
// the Worker on workerd (tests/judges/): the benchmark-side run of "the judges pass at 10,000
// skills"; the test command judges 3,300 skills (tests/js/pkg/page-cap.test.mjs).
//
// The build itself (compile and pack times, the default pack, the native load and request
// figures) is benches/scale.rs (`cargo bench --bench scale`).
//
// Usage: node_modules/.bin/node benches/worker/scale.mjs [--skills 1000,10000,50000]
//          [--inline-max BYTES] [--requests 200] [--judges[=sdk,inspector]] [--no-node] [--no-deploy]
//          [--bin PATH] [--keep DIR]
//   --skills      the sizes (default 1000,10000,50000)
//   --inline-max  files up to BYTES stay in the pack (default 0: every file an asset)
//   --requests    sequential requests per kind for the CPU per request (default 200)
//   --judges      judge the largest catalog with the SDK client and MCP Inspector
//                 (--judges=inspector or --judges=sdk: one of them)
//   --no-node     skip the Node column (it needs the npm package: bash scripts/build-pkg.sh)
//   --no-deploy   skip `wrangler deploy --dry-run`
//   --bin PATH    the native skills-edge that packs (default: SKILLS_EDGE_BIN, else
//                 target/release/skills-edge, else target/debug/skills-edge)
// Needs the Worker built (bash scripts/build-worker.sh). Every server binds 127.0.0.1 on a
// free port and is stopped by the script; every step is bounded by a timeout.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { tempDir } from "../../tests/lib/processes.mjs";
import { call, first, generate, isolateMemory, memory, perRequest, post, withWorkerd, workerdConfig } from "./lib.mjs";
import { copyWorker, deployDryRun } from "../../tests/e2e/lib/worker.mjs";

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const HERE = join(ROOT, "benches", "worker");
const WORKERD = join(ROOT, "node_modules", "workerd", "bin", "workerd");
const ESBUILD = join(ROOT, "node_modules", ".bin", "esbuild");
const PKG_NODE = join(ROOT, "pkg", "lib", "node.js");

const opts = { skills: [1000, 10_000, 50_000], inlineMax: "0", requests: 200, judges: null, node: true, deploy: true, bin: null, keep: null };
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  const value = () => {
    if (i + 1 >= process.argv.length) throw new Error(`${a} needs a value`);
    return process.argv[++i];
  };
  if (a === "--skills") opts.skills = value().split(",").map((s) => {
    const n = Number(s);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--skills: ${JSON.stringify(s)} is not a positive whole number`);
    return n;
  });
  else if (a === "--inline-max") opts.inlineMax = value();
  else if (a === "--requests") opts.requests = Number(value());
  else if (a === "--judges") opts.judges = ["sdk", "inspector"];
  else if (a.startsWith("--judges=")) opts.judges = a.slice("--judges=".length).split(",");
  else if (a === "--no-node") opts.node = false;
  else if (a === "--no-deploy") opts.deploy = false;
  else if (a === "--bin") opts.bin = value();
  else if (a === "--keep") opts.keep = value();
  else throw new Error(`unknown argument ${a} (see the comment at the top of benches/worker/scale.mjs)`);
}
const NATIVE = opts.bin ?? process.env.SKILLS_EDGE_BIN ??
  [join(ROOT, "target", "release", "skills-edge"), join(ROOT, "target", "debug", "skills-edge")].find(existsSync);
if (!NATIVE || !existsSync(NATIVE)) throw new Error("no skills-edge binary: cargo build --release -p skills-edge-cli (or --bin PATH)");
if (!existsSync(join(ROOT, "worker", "build", "skills_edge_worker_bg.wasm"))) {
  throw new Error("the Worker is not built: bash scripts/build-worker.sh");
}
if (opts.node && !existsSync(join(ROOT, "pkg", "web", "skills_edge_bg.wasm"))) {
  throw new Error("the npm package is not built (bash scripts/build-pkg.sh), or pass --no-node");
}

/** A workerd config for the Worker staged in `dir` (worker.mjs, wasm, pack, assets/). */
const workerConfig = (dir) => workerdConfig(dir, { by: "benches/worker/scale.mjs" });

// ---------------------------------------------------------------------------------------
// Node: the npm package's SkillsServer over the pack, in a fresh process.

function nodeFirst(packFile) {
  const script = `
    const { readFileSync } = await import("node:fs");
    const { SkillsServer } = await import(${JSON.stringify(pathToFileURL(PKG_NODE).href)});
    const pack = readFileSync(${JSON.stringify(packFile)});
    const msg = ${JSON.stringify(call("skills/list"))};
    const c0 = process.cpuUsage(); const t0 = performance.now();
    const s = new SkillsServer({ pack });
    const t1 = performance.now();
    const r = await s.handle(msg);
    const t2 = performance.now(); const c = process.cpuUsage(c0);
    if (!r || !r.result) throw new Error("no result: " + JSON.stringify(r).slice(0, 300));
    const t3 = performance.now(); await s.handle(msg); const t4 = performance.now();
    console.log(JSON.stringify({ loadMs: t1 - t0, firstMs: t2 - t1, totalMs: t2 - t0, cpuMs: (c.user + c.system) / 1e3, secondMs: t4 - t3 }));
  `;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 600_000, maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`node: ${r.stderr || r.error}`);
  return JSON.parse(r.stdout.trim().split("\n").pop());
}

// ---------------------------------------------------------------------------------------

const bundled = tempDir("scale-bundle");
execFileSync(ESBUILD, [join(ROOT, "worker", "entry.mjs"), "--bundle", "--format=esm", "--platform=browser",
  "--conditions=workerd,worker,browser", "--external:cloudflare:workers", "--external:*.wasm", "--external:*.pack",
  "--log-level=warning", `--outfile=${join(bundled, "worker.mjs")}`], { stdio: "inherit" });
const WORKER_JS = readFileSync(join(bundled, "worker.mjs"));
rmSync(bundled, { recursive: true, force: true });

const floor = await withWorkerd(join(HERE, "empty-js.capnp"), HERE, async (pid, port, start) => {
  const f = await first(pid, port, call("skills/list"), (r) => {
    if (r.status !== 200) throw new Error(`empty-js: HTTP ${r.status}`);
  });
  return { start, first: f, list: await perRequest(pid, port, call("skills/list"), null, opts.requests) };
});
floor.heap = await isolateMemory(join(HERE, "empty-js.capnp"), HERE);
console.error(`floor (empty JavaScript Worker): start ${floor.start.cpuMs.toFixed(1)} ms CPU, ` +
  `${(floor.first.rss / 1e6).toFixed(1)} MB after its first answer (${floor.first.cpuMs.toFixed(2)} ms CPU), ` +
  `${floor.list.toFixed(0)} µs CPU per request`);

const rows = [];
const MB = (b) => (b / 1e6).toFixed(1);
for (const n of opts.skills) {
  const work = opts.keep ? resolve(opts.keep, String(n)) : tempDir(`scale-${n}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  try {
    const skills = join(work, "skills");
    generate(skills, n);
    // The Worker in the repository's layout, with this catalog's pack and assets.
    const config = copyWorker(join(work, "project"), { catalog: false });
    const build = join(work, "project", "worker", "build");
    const assetsDir = join(build, "assets");
    const t = Date.now();
    const packed = spawnSync(NATIVE, ["pack", skills, "--assets", assetsDir, "-o", join(build, "catalog.pack"), "--inline-max", opts.inlineMax], {
      encoding: "utf8", timeout: 1_800_000,
    });
    if (packed.status !== 0) throw new Error(`skills-edge pack failed:\n${packed.stderr}`);
    const packMs = Date.now() - t;
    const warnings = packed.stderr.split("\n").filter((l) => l.startsWith("warning:"));
    mkdirSync(assetsDir, { recursive: true });
    const pack = readFileSync(join(build, "catalog.pack"));
    const names = readdirSync(assetsDir);
    const kinds = { raw: 0, json: 0, other: 0 };
    let assetBytes = 0;
    for (const f of names) {
      kinds[f.endsWith(".json") ? "json" : /^[0-9a-f]{64}$/.test(f) ? "raw" : "other"]++;
      assetBytes += statSync(join(assetsDir, f)).size;
    }
    const row = { n, packMs, pack: pack.length, packGz: gzipSync(pack, { level: 6 }).length, assets: names.length, kinds, assetBytes, warnings };
    console.error(`${n} skills: pack ${MB(row.pack)} MB (${MB(row.packGz)} MB gzip), ${names.length} asset files ` +
      `(${kinds.raw} raw, ${kinds.json} rendered .json; ${MB(assetBytes)} MB), packed in ${(packMs / 1e3).toFixed(1)} s` +
      (warnings.length ? `\n  ${warnings.join("\n  ")}` : ""));

    if (opts.deploy) {
      try {
        const d = await deployDryRun(config);
        row.upload = { kib: d.kib, gzipKiB: d.gzipKiB };
        console.error(`  wrangler deploy --dry-run: ${d.kib} KiB, gzip ${d.gzipKiB} KiB`);
      } catch (e) {
        row.upload = { error: String(e.message).split("\n").find((l) => /error|✘/i.test(l)) ?? String(e.message).slice(0, 200) };
        console.error(`  wrangler deploy --dry-run failed: ${row.upload.error}`);
      }
    }

    // Bare workerd: the same wasm and bundle, this pack, the assets as a disk service.
    const stage = join(work, "workerd");
    mkdirSync(stage, { recursive: true });
    writeFileSync(join(stage, "worker.mjs"), WORKER_JS);
    writeFileSync(join(stage, "skills_edge_worker_bg.wasm"), readFileSync(join(build, "skills_edge_worker_bg.wasm")));
    writeFileSync(join(stage, "catalog.pack"), pack);
    rmSync(join(stage, "assets"), { force: true });
    spawnSync("ln", ["-s", assetsDir, join(stage, "assets")]);
    const middle = `skill-${String(Math.floor(n / 2)).padStart(5, "0")}`;
    const readUri = `skill://${middle}/references/guide.md`;
    const judged = opts.judges && n === Math.max(...opts.skills);
    Object.assign(row, await withWorkerd(workerConfig(stage), stage, async (pid, port, start) => {
      const f = await first(pid, port, call("skills/list"), (r) => {
        if (r.status !== 200 || !r.body.includes('"skills"')) throw new Error(`first skills/list: HTTP ${r.status}: ${r.body.slice(0, 300)}`);
      });
      const read = await post(port, call("resources/read", { uri: readUri }), readUri);
      const text = JSON.parse(read.body).result?.contents?.[0]?.text;
      if (text !== readFileSync(join(skills, middle, "references", "guide.md"), "utf8")) {
        throw new Error(`resources/read ${readUri}: not the file's bytes: ${read.body.slice(0, 300)}`);
      }
      const out = {
        start,
        first: f,
        list: await perRequest(pid, port, call("skills/list"), null, opts.requests),
        get: await perRequest(pid, port, call("skills/get", { uri: `skill://${middle}/SKILL.md` }), `skill://${middle}/SKILL.md`, opts.requests),
        read: await perRequest(pid, port, call("resources/read", { uri: readUri }), readUri, opts.requests),
        after: memory(pid),
      };
      if (judged) out.judges = await judge(`http://127.0.0.1:${port}/mcp`, n);
      return out;
    }));
    row.heap = await isolateMemory(workerConfig(stage), stage);
    console.error(`  isolate after its first answer: JavaScript heap ${MB(row.heap.used)} MB in use, ArrayBuffers ${MB(row.heap.backing)} MB, wasm memory ${MB(row.heap.wasm)} MB`);
    console.error(`  workerd: start ${row.start.cpuMs.toFixed(1)} ms CPU (${row.start.wallMs} ms), first skills/list ` +
      `${row.first.cpuMs.toFixed(2)} ms CPU, ${MB(row.first.rss)} MB resident after it (${MB(row.first.rss - floor.first.rss)} MB above ` +
      `the empty Worker's), per request: list ${row.list.toFixed(0)} µs, get ${row.get.toFixed(0)} µs, read ${row.read.toFixed(0)} µs`);

    if (opts.node) {
      row.node = nodeFirst(join(build, "catalog.pack"));
      console.error(`  node: new SkillsServer({ pack }) ${row.node.loadMs.toFixed(1)} ms, first skills/list ${row.node.firstMs.toFixed(2)} ms ` +
        `(${row.node.cpuMs.toFixed(1)} ms CPU in all), the second ${row.node.secondMs.toFixed(2)} ms`);
    }
    rows.push(row);
  } finally {
    if (!opts.keep) rmSync(work, { recursive: true, force: true });
  }
}

/** The judges against `url`: the SDK 2.4 client and MCP Inspector, both eras. */
async function judge(url, n) {
  const { httpTransport, judgeSdk } = await import(pathToFileURL(join(ROOT, "tests", "judges", "sdk.mjs")).href);
  const { judgeInspector } = await import(pathToFileURL(join(ROOT, "tests", "judges", "inspector.mjs")).href);
  const out = {};
  for (const era of opts.judges.includes("sdk") ? ["modern", "legacy"] : []) {
    const t = Date.now();
    const v = await judgeSdk({ transport: httpTransport(url), era, timeoutMs: 3_600_000 });
    if (v.skills !== n) throw new Error(`SDK judge (${era}): ${v.skills} skills of ${n}: ${JSON.stringify(v).slice(0, 500)}`);
    out[`sdk-${era}`] = { skills: v.skills, seconds: (Date.now() - t) / 1e3 };
    console.error(`  judge: SDK 2.4 SkillsClient (${era}) listed, got, read and verified ${v.skills} skills in ${out[`sdk-${era}`].seconds} s`);
  }
  for (const era of opts.judges.includes("inspector") ? ["modern", "legacy"] : []) {
    const t = Date.now();
    const v = await judgeInspector({ target: url, era, expectedSkills: n, options: ["--skill-catalog-max-skills", String(n)], timeoutMs: 3_600_000 });
    out[`inspector-${era}`] = { skills: v.skills, files: v.files, seconds: (Date.now() - t) / 1e3 };
    console.error(`  judge: MCP Inspector --verify (${era}) verified ${v.skills} skills, ${v.files} files in ${out[`inspector-${era}`].seconds} s`);
  }
  return out;
}

const f1 = (x) => (x === undefined ? "-" : x.toFixed(1));
const f2 = (x) => (x === undefined ? "-" : x.toFixed(2));
const LOADAVG = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
console.log(`\nworkerd ${execFileSync(WORKERD, ["--version"]).toString().trim()}; --inline-max ${opts.inlineMax}; ` +
  `${opts.requests} sequential requests per kind; load average at the end: ${LOADAVG}`);
console.log(`floor, an empty JavaScript Worker on the same workerd: start ${f1(floor.start.cpuMs)} ms CPU, first request ` +
  `${f2(floor.first.cpuMs)} ms CPU, ${MB(floor.first.rss)} MB resident after it, ${floor.list.toFixed(0)} µs CPU per request`);
const isolate = (h) => h.used + h.backing + h.wasm;
console.log(`floor's isolate after its first answer: ${MB(isolate(floor.heap))} MB (JavaScript heap ${MB(floor.heap.used)}, ArrayBuffers ${MB(floor.heap.backing)}, wasm ${MB(floor.heap.wasm)})`);
console.log("\n| skills | pack MB | gzip MB | asset files (raw + .json) | upload KiB (gzip) | start ms CPU | first request ms CPU | isolate MB (heap + buffers + wasm) | resident MB (above floor) | list µs | get µs | read µs | Node: load ms | Node: first answer ms |");
console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const r of rows) {
  const upload = !r.upload ? "-" : r.upload.error ? "refused" : `${r.upload.kib} (${r.upload.gzipKiB})`;
  console.log(`| ${r.n} | ${MB(r.pack)} | ${MB(r.packGz)} | ${r.assets} (${r.kinds.raw} + ${r.kinds.json}) | ${upload} | ` +
    `${f1(r.start.cpuMs)} | ${f2(r.first.cpuMs)} | ${MB(isolate(r.heap))} (${MB(r.heap.used)} + ${MB(r.heap.backing)} + ${MB(r.heap.wasm)}) | ` +
    `${MB(r.first.rss)} (${MB(r.first.rss - floor.first.rss)}) | ` +
    `${r.list.toFixed(0)} | ${r.get.toFixed(0)} | ${r.read.toFixed(0)} | ${f1(r.node?.loadMs)} | ${f2(r.node && r.node.loadMs + r.node.firstMs)} |`);
}
for (const r of rows.filter((x) => x.judges)) {
  console.log(`\njudges at ${r.n} skills, through the Worker on workerd: ` +
    Object.entries(r.judges).map(([k, v]) => `${k} ${v.skills} skills (${v.seconds} s)`).join(", "));
}
