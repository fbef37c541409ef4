// Benchmark of the Worker on bare workerd (`workerd serve` with a config file; the binary of
// the npm package `workerd` that wrangler runs), against three baselines that answer every
// request with a fixed body: the empty Rust Worker (empty-rs/: workers-rs 0.8.7, built like
// the project's Worker) and a plain JavaScript Worker (empty-js.mjs), which do not read the
// request, and a plain JavaScript Worker that reads the body first (js-read-body.mjs), the
// floor for any Worker that answers MCP.
// Prints the Worker's wasm size (raw and gzip) and, for skills/list and a 4 KiB
// resources/read, from one run each: requests/s, p50/p99 latency and the workerd process's
// CPU time per request. Each Worker runs alone; nothing goes through wrangler.
//
// Usage: node_modules/.bin/node benches/worker/bench.mjs [--no-build] [--rounds 3]
//          [--seconds 5] [--warmup 1] [--connections 8] [--json FILE]
// (bash benches/worker/bench.sh runs it with Node 22.) Needs scripts/setup.sh --no-browser.
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort, spawnGroup, tail, tempDir } from "../../tests/lib/processes.mjs";

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const HERE = join(ROOT, "benches", "worker");
const WORKERD = join(ROOT, "node_modules", "workerd", "bin", "workerd");
const ESBUILD = join(ROOT, "node_modules", ".bin", "esbuild");
const STAGE = join(ROOT, "target", "bench-worker");
const STAGE_EMPTY_RS = join(ROOT, "target", "bench-empty-rs");
const LOADGEN_TARGET = join(ROOT, "target", "bench-loadgen");
const LOADGEN = join(LOADGEN_TARGET, "release", "skills-edge-loadgen");
const WASM = join(ROOT, "worker", "build", "skills_edge_worker_bg.wasm");

const opts = { build: true, seconds: 5, warmup: 1, connections: 8, rounds: 3, json: null };
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a === "--no-build") opts.build = false;
  else if (["--seconds", "--warmup", "--connections", "--rounds"].includes(a)) opts[a.slice(2)] = Number(process.argv[++i]);
  else if (a === "--json") opts.json = process.argv[++i];
  else throw new Error(`unknown argument ${a}`);
}

const run = (cmd, args, env = {}) =>
  execFileSync(cmd, args, { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, ...env } });

// 1. Build the Worker, the load generator, and the single-module bundle workerd loads.
if (opts.build) run("bash", ["scripts/build-worker.sh"]);
run("cargo", ["build", "--release", "--locked", "--quiet", "--manifest-path", "benches/worker/loadgen/Cargo.toml"], {
  CARGO_TARGET_DIR: LOADGEN_TARGET,
});
/** One ES module of `entry` and its wasm-bindgen glue (as wrangler bundles), in `stage`. */
function bundle(entry, stage) {
  run(ESBUILD, [
    entry,
    "--bundle",
    "--format=esm",
    "--platform=browser",
    "--conditions=workerd,worker,browser",
    "--external:cloudflare:workers",
    "--external:*.wasm",
    "--log-level=warning",
    `--outfile=${join(stage, "worker.mjs")}`,
  ]);
}
rmSync(STAGE, { recursive: true, force: true });
mkdirSync(STAGE, { recursive: true });
bundle("worker/entry.mjs", STAGE);
copyFileSync(WASM, join(STAGE, "skills_edge_worker_bg.wasm"));

// The empty Rust Worker: the same toolchain and steps as scripts/build-worker.sh.
const EMPTY_RS = join(HERE, "empty-rs");
run("cargo", ["build", "--release", "--locked", "--quiet", "--target", "wasm32-unknown-unknown",
  "--manifest-path", join(EMPTY_RS, "Cargo.toml")], { CARGO_TARGET_DIR: join(ROOT, "target") });
rmSync(STAGE_EMPTY_RS, { recursive: true, force: true });
mkdirSync(STAGE_EMPTY_RS, { recursive: true });
run("wasm-bindgen", ["--target", "web", "--no-typescript", "--out-dir", join(STAGE_EMPTY_RS, "build"),
  join(ROOT, "target", "wasm32-unknown-unknown", "release", "skills_edge_empty_worker.wasm")]);
const emptyWasm = join(STAGE_EMPTY_RS, "build", "skills_edge_empty_worker_bg.wasm");
run(join(ROOT, "node_modules", ".bin", "wasm-opt"), ["-Oz", "--enable-bulk-memory",
  "--enable-nontrapping-float-to-int", "--enable-sign-ext", "--enable-mutable-globals",
  "--enable-reference-types", "--enable-multivalue", emptyWasm, "-o", emptyWasm]);
copyFileSync(join(EMPTY_RS, "entry.mjs"), join(STAGE_EMPTY_RS, "entry.mjs"));
bundle(join(STAGE_EMPTY_RS, "entry.mjs"), STAGE_EMPTY_RS);

const sizeOf = (file) => {
  const bytes = readFileSync(file);
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
};
const sizes = {
  wasm: sizeOf(WASM),
  js: sizeOf(join(STAGE, "worker.mjs")),
  empty_rs_wasm: sizeOf(emptyWasm),
};

// 2. The two requests, as raw HTTP/1.1 keep-alive requests.
const V = "2026-07-28";
const META = { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {} };
const READ_URI = "skill://skill-authoring/SKILL.md"; // the largest text file: a ~4 KiB reply
const cases = [
  { name: "skills/list", method: "skills/list", params: {} },
  { name: "resources/read 4 KiB", method: "resources/read", params: { uri: READ_URI }, mcpName: READ_URI },
];
function rawRequest(port, c) {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: c.method, params: { ...c.params, _meta: META } });
  const head = [
    "POST /mcp HTTP/1.1",
    `Host: 127.0.0.1:${port}`,
    "Content-Type: application/json",
    "Accept: application/json, text/event-stream",
    `MCP-Protocol-Version: ${V}`,
    `Mcp-Method: ${c.method}`,
    ...(c.mcpName ? [`Mcp-Name: ${c.mcpName}`] : []),
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Connection: keep-alive",
  ];
  return { text: `${head.join("\r\n")}\r\n\r\n${body}`, body, headers: Object.fromEntries(head.slice(1).map((h) => h.split(": "))) };
}

// Pin workerd and the load generator to different CPUs when there are two or more, so they
// do not take turns on one (taskset from util-linux; skipped when missing).
const NCPU = readdirSync("/sys/devices/system/cpu").filter((d) => /^cpu\d+$/.test(d)).length;
let TASKSET = null;
try {
  execFileSync("taskset", ["--version"], { stdio: "ignore" });
  if (NCPU >= 2) TASKSET = "taskset";
} catch {}
const pinned = (cpu, cmd, args) => (TASKSET ? [TASKSET, ["-c", String(cpu), cmd, ...args]] : [cmd, args]);

const CLK_TCK = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;
/** CPU seconds (user + system, all threads) of a process so far. */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK; // utime, stime (fields 14, 15)
}

/** One load-generator run against `pid` listening on `port`; samples CPU around the window. */
function loadgen(pid, port, requestFile) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(
      ...pinned(0, LOADGEN, ["--addr", `127.0.0.1:${port}`, "--request", requestFile, "--connections",
        String(opts.connections), "--warmup", String(opts.warmup), "--seconds", String(opts.seconds)]),
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    let err = "";
    let cpu0 = null;
    let cpu1 = null;
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => {
      err += d;
      if (cpu0 === null && err.includes("measuring")) cpu0 = cpuSeconds(pid);
      if (cpu1 === null && err.includes("done")) cpu1 = cpuSeconds(pid);
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`load generator failed (${code}): ${err}`));
      const r = JSON.parse(out);
      r.cpu_us_per_request = cpu0 !== null && cpu1 !== null && r.requests ? ((cpu1 - cpu0) * 1e6) / r.requests : null;
      r.cpu_share = cpu0 !== null && cpu1 !== null ? (cpu1 - cpu0) / r.seconds : null;
      resolveRun(r);
    });
  });
}

async function withWorkerd(name, config, fn) {
  const port = await freePort();
  const dir = tempDir(`bench-${name}`);
  const log = join(dir, "workerd.log");
  const proc = spawnGroup(...pinned(1, WORKERD, ["serve", config, "--socket-addr", `http=127.0.0.1:${port}`]), {
    cwd: HERE,
    logFile: log,
  });
  try {
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(1000) });
        await res.arrayBuffer();
        break;
      } catch {}
      if (Date.now() > deadline) throw new Error(`workerd (${name}) did not start:\n${tail(log)}`);
      await sleep(100);
    }
    return await fn(proc.child.pid, port, dir);
  } finally {
    await proc.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const LOADAVG = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

// 3. Run every case on every Worker, one Worker at a time, in `rounds` interleaved rounds
//    (skills-edge, empty-rs, empty-js, skills-edge, …) so that a change in the machine's load
//    during the run affects all of them; each figure is the median over the rounds.
const samples = [];
const WORKERS = [
  ["skills-edge", "skills-edge.capnp"],
  ["empty-rs", "empty-rs.capnp"],
  ["empty-js", "empty-js.capnp"],
  ["js-read-body", "js-read-body.capnp"],
];
for (let round = 1; round <= opts.rounds; round++) {
  for (const [worker, config] of WORKERS) {
    await withWorkerd(worker, config, async (pid, port, dir) => {
      for (const c of cases) {
        const req = rawRequest(port, c);
        // One checked request first: the reply must be a result.
        const check = await fetch(`http://127.0.0.1:${port}/mcp`, { method: "POST", headers: req.headers, body: req.body });
        const reply = Buffer.from(await check.arrayBuffer());
        if (check.status !== 200) throw new Error(`${worker} ${c.name}: HTTP ${check.status}: ${reply}`);
        if (worker === "skills-edge" && !JSON.parse(reply).result) throw new Error(`${c.name}: ${reply}`);
        const file = join(dir, "request.http");
        writeFileSync(file, req.text);
        const r = await loadgen(pid, port, file);
        const bad = Object.entries(r.statuses).filter(([s]) => s !== "200");
        if (bad.length || r.connection_errors) throw new Error(`${worker} ${c.name}: ${JSON.stringify(r)}`);
        samples.push({ round, worker, case: c.name, reply_bytes: reply.length, ...r });
        console.error(`round ${round}: ${worker} ${c.name}: ${r.rps.toFixed(0)} req/s, ${r.cpu_us_per_request?.toFixed(1)} µs CPU/req`);
      }
    });
  }
}
const median = (xs) => {
  const v = xs.filter((x) => typeof x === "number").sort((a, b) => a - b);
  return v.length ? (v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2) : null;
};
const results = [];
for (const [worker] of WORKERS) {
  for (const c of cases) {
    const xs = samples.filter((x) => x.worker === worker && x.case === c.name);
    results.push({
      worker,
      case: c.name,
      reply_bytes: xs[0].reply_bytes,
      requests: xs.reduce((n, x) => n + x.requests, 0),
      rps: median(xs.map((x) => x.rps)),
      p50_ms: median(xs.map((x) => x.p50_ms)),
      p99_ms: median(xs.map((x) => x.p99_ms)),
      cpu_us_per_request: median(xs.map((x) => x.cpu_us_per_request)),
    });
  }
}

// 4. Report.
const fmt = (n, d = 0) => (n === null || n === undefined ? "-" : n.toFixed(d));
console.log(`\nworkerd ${execFileSync(WORKERD, ["--version"]).toString().trim()}, ${opts.connections} connections, ` +
  `${opts.rounds} rounds of ${opts.warmup} s warm-up + ${opts.seconds} s measured per case (medians), ${NCPU} CPUs` +
  (TASKSET ? " (workerd on CPU 1, load generator on CPU 0)" : "") +
  `, load average before: ${LOADAVG}`);
console.log(`Worker wasm: ${sizes.wasm.raw} bytes raw, ${sizes.wasm.gzip} bytes gzip -9 ` +
  `(JS glue bundle: ${sizes.js.raw} raw, ${sizes.js.gzip} gzip; the empty Rust Worker's wasm: ` +
  `${sizes.empty_rs_wasm.raw} raw, ${sizes.empty_rs_wasm.gzip} gzip)`);
console.log("\n| Worker | request | reply B | req/s | p50 ms | p99 ms | CPU µs/req |");
console.log("|---|---|---:|---:|---:|---:|---:|");
for (const r of results) {
  console.log(`| ${r.worker} | ${r.case} | ${r.reply_bytes} | ${fmt(r.rps)} | ${fmt(r.p50_ms, 3)} | ${fmt(r.p99_ms, 3)} | ${fmt(r.cpu_us_per_request, 1)} |`);
}
// Ratios are paired by round (both Workers measured minutes apart under the same load) and
// the median over the rounds is reported, which is steadier on a shared machine than a ratio
// of medians.
const pairedRatio = (worker, base, caseName, key) =>
  median(Array.from({ length: opts.rounds }, (_, i) => {
    const a = samples.find((x) => x.round === i + 1 && x.worker === worker && x.case === caseName);
    const b = samples.find((x) => x.round === i + 1 && x.worker === base && x.case === caseName);
    return a?.[key] && b?.[key] ? a[key] / b[key] : null;
  }));
const ratios = [];
for (const c of cases) {
  for (const [worker, base] of [
    ["skills-edge", "empty-rs"], ["skills-edge", "empty-js"], ["skills-edge", "js-read-body"],
    ["empty-rs", "empty-js"], ["js-read-body", "empty-js"],
  ]) {
    ratios.push({
      case: c.name, worker, baseline: base,
      rps: pairedRatio(worker, base, c.name, "rps"),
      cpu: pairedRatio(worker, base, c.name, "cpu_us_per_request"),
    });
  }
}
console.log("\nrequests/s and CPU per request relative to a baseline (medians of per-round ratios):");
for (const r of ratios) {
  const target = r.worker === "skills-edge" ? ` (target x0.80: ${r.rps >= 0.8 ? "met" : "not met"})` : "";
  console.log(`${r.case}: ${r.worker} / ${r.baseline}: requests/s x${fmt(r.rps, 2)}${target}, ` +
    `CPU per request x${fmt(r.cpu, 2)}`);
}
if (opts.json) writeFileSync(opts.json, JSON.stringify({ sizes, opts, results, ratios, samples }, null, 2));
