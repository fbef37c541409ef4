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
import { connect } from "node:net";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort, spawnGroup, tail, tempDir } from "../../tests/lib/processes.mjs";
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

// ---------------------------------------------------------------------------------------
// The generated catalog: the shape of benches/scale.rs (the same generator, so the same
// sizes; xorshift64* over BigInt).

const WORDS = ["review", "check", "the", "diff", "tests", "deploy", "edge", "skill", "verify", "digest",
  "release", "notes", "commit", "style", "guide", "team", "catalog", "server", "client",
  "archive", "format", "audit", "trace", "plan"];
const MASK = (1n << 64n) - 1n;

function generate(dir, n) {
  let s = 0x9e3779b97f4a7c15n;
  const next = () => {
    s ^= s >> 12n;
    s ^= (s << 25n) & MASK;
    s ^= s >> 27n;
    return (s * 0x2545f4914f6cdd1dn) & MASK;
  };
  const word = () => WORDS[Number(next() % BigInt(WORDS.length))];
  for (let i = 0; i < n; i++) {
    const name = `skill-${String(i).padStart(5, "0")}`;
    mkdirSync(join(dir, name, "references"), { recursive: true });
    const description = Array.from({ length: 24 }, word).join(" ");
    writeFileSync(join(dir, name, "SKILL.md"),
      `---\nname: ${name}\ndescription: ${description}\nmetadata:\n  team: team-${i % 20}\n---\n\n# Skill ${i}\n\nRead \`references/guide.md\` first.\n`);
    let guide = "";
    while (guide.length < 2500) guide += word() + (next() % 12n === 0n ? "\n" : " ");
    writeFileSync(join(dir, name, "references", "guide.md"), `${guide}\n`);
  }
}

// ---------------------------------------------------------------------------------------
// Processes: CPU time and memory of workerd.

/** CPU nanoseconds of every thread of `pid` so far (schedstat: time on a CPU). */
function cpuNs(pid) {
  let ns = 0;
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, "utf8").split(" ")[0]);
    } catch {} // a thread that ended between the listing and the read
  }
  return ns;
}
/** Resident memory of `pid`, bytes (VmRSS), and its peak (VmHWM). */
function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key) => Number(status.match(new RegExp(`^${key}:\\s+(\\d+) kB`, "m"))?.[1] ?? NaN) * 1024;
  return { rss: kb("VmRSS"), peak: kb("VmHWM") };
}
/** Waits until `pid` has used under 1 ms of CPU in 200 ms (started, nothing left to do). */
async function idle(pid, deadline) {
  let last = cpuNs(pid);
  for (;;) {
    await sleep(200);
    const now = cpuNs(pid);
    if (now - last < 1e6) return;
    if (Date.now() > deadline) throw new Error(`workerd (pid ${pid}) did not settle`);
    last = now;
  }
}
/** Resolves once a TCP connection to `port` is accepted (no request sent). */
function accepts(port) {
  return new Promise((res) => {
    const sock = connect({ host: "127.0.0.1", port });
    sock.once("connect", () => (sock.destroy(), res(true)));
    sock.once("error", () => (sock.destroy(), res(false)));
  });
}

const V = "2026-07-28";
const META = { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "scale-bench", version: "1" } };
const call = (method, params = {}) => ({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: META } });
async function post(port, msg, name) {
  const r = await fetch(`http://127.0.0.1:${port}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": V,
      "mcp-method": msg.method,
      ...(name ? { "mcp-name": name } : {}),
    },
    body: JSON.stringify(msg),
    signal: AbortSignal.timeout(60_000),
  });
  let body = await r.text();
  // An event stream carries the message in its one `data:` line.
  if ((r.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    body = body.split(/\r?\n/).filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trimStart()).join("");
  }
  return { status: r.status, body };
}

/**
 * Starts workerd on `config` (socket `http` on a free port), measures its start, runs
 * `fn(pid, port, start, inspectorPort)` and stops it. With `inspector`, workerd also serves the
 * V8 inspector protocol on a free port (see `heapAfterGc`).
 */
async function withWorkerd(config, cwd, fn, { inspector = false } = {}) {
  const port = await freePort();
  const inspectorPort = inspector ? await freePort() : null;
  const log = join(tempDir("scale-workerd"), "workerd.log");
  const t0 = Date.now();
  const args = ["serve", config, "--socket-addr", `http=127.0.0.1:${port}`];
  if (inspector) args.push("--inspector-addr", `127.0.0.1:${inspectorPort}`);
  const proc = spawnGroup(WORKERD, args, { cwd, logFile: log });
  try {
    const deadline = Date.now() + 600_000;
    let exited = null;
    proc.exited.then((e) => (exited = e));
    while (!(await accepts(port))) {
      if (exited) throw new Error(`workerd exited (${JSON.stringify(exited)}):\n${tail(log)}`);
      if (Date.now() > deadline) throw new Error(`workerd did not start:\n${tail(log)}`);
      await sleep(50);
    }
    await idle(proc.child.pid, deadline);
    const start = { cpuMs: cpuNs(proc.child.pid) / 1e6, wallMs: Date.now() - t0, ...memory(proc.child.pid) };
    return await fn(proc.child.pid, port, start, inspectorPort);
  } catch (e) {
    e.message += `\n--- workerd's log ---\n${tail(log, 4000)}`;
    throw e;
  } finally {
    await proc.stop();
  }
}

/**
 * What the Worker's isolate holds, through workerd's V8 inspector (`Runtime.getHeapUsage`; its
 * inspector does not run `HeapProfiler.collectGarbage`): the JavaScript heap in use and the
 * backing stores of its ArrayBuffers (the bundled pack, a Data module, and the wasm instance's
 * linear memory among them), the memory an isolate's 128 MB limit counts. Bytes.
 */
async function heapAfterGc(inspectorPort) {
  const targets = await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`, { signal: AbortSignal.timeout(10_000) })).json();
  const url = targets.find((t) => t.webSocketDebuggerUrl)?.webSocketDebuggerUrl;
  if (!url) throw new Error(`workerd's inspector lists no target: ${JSON.stringify(targets)}`);
  const ws = new WebSocket(url);
  await new Promise((res, rej) => {
    ws.onopen = res;
    ws.onerror = () => rej(new Error(`cannot connect to ${url}`));
  });
  let id = 0;
  const pending = new Map();
  let context = null;
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data);
    if (m.method === "Runtime.executionContextCreated") context ??= m.params.context.id;
    if (m.id && pending.has(m.id)) {
      pending.get(m.id)(m);
      pending.delete(m.id);
    }
  };
  const send = (method, params = {}) =>
    new Promise((res, rej) => {
      const timer = setTimeout(() => rej(new Error(`${method}: no answer`)), 60_000);
      pending.set(++id, (m) => (clearTimeout(timer), m.error ? rej(new Error(`${method}: ${m.error.message}`)) : res(m.result)));
      ws.send(JSON.stringify({ id, method, params }));
    });
  try {
    const u = await send("Runtime.getHeapUsage");
    // The wasm instances' linear memories, which the heap usage leaves out: every live
    // WebAssembly.Memory, found by its prototype.
    await send("Runtime.enable");
    for (let i = 0; context === null && i < 100; i++) await sleep(50);
    const proto = await send("Runtime.evaluate", { expression: "WebAssembly.Memory.prototype", contextId: context });
    const found = await send("Runtime.queryObjects", { prototypeObjectId: proto.result.objectId });
    const sizes = await send("Runtime.callFunctionOn", {
      objectId: found.objects.objectId,
      functionDeclaration: "function () { return this.map((m) => m.buffer.byteLength); }",
      returnByValue: true,
    });
    const wasm = sizes.result.value.reduce((a, b) => a + b, 0);
    return { used: u.usedSize, total: u.totalSize, backing: u.backingStorageSize ?? NaN, wasm };
  } finally {
    ws.close();
  }
}

/** The first request in the fresh isolate and the memory after it. */
async function first(pid, port, msg, check) {
  const c0 = cpuNs(pid);
  const r = await post(port, msg);
  await sleep(100);
  const cpuMs = (cpuNs(pid) - c0) / 1e6;
  check(r);
  return { cpuMs, ...memory(pid) };
}

/** The isolate's memory after its first answer, in a workerd of its own (with the inspector). */
function isolateMemory(config, cwd) {
  return withWorkerd(config, cwd, async (pid, port, start, inspectorPort) => {
    const r = await post(port, call("skills/list"));
    if (r.status !== 200) throw new Error(`first request: HTTP ${r.status}`);
    return heapAfterGc(inspectorPort);
  }, { inspector: true });
}

/** CPU per request of `count` sequential requests (keep-alive), µs. */
async function perRequest(pid, port, msg, name, count) {
  const ok = await post(port, msg, name); // warm: the connection and the code path
  if (ok.status !== 200 || !ok.body.includes('"result"')) throw new Error(`${msg.method}: HTTP ${ok.status}: ${ok.body.slice(0, 300)}`);
  const c0 = cpuNs(pid);
  for (let i = 0; i < count; i++) await post(port, msg, name);
  return (cpuNs(pid) - c0) / 1e3 / count;
}

/** A workerd config for the Worker staged in `dir` (worker.mjs, wasm, pack, assets/). */
function workerConfig(dir) {
  const file = join(dir, "workerd.capnp");
  writeFileSync(file, `# Written by benches/worker/scale.mjs.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = .w),
    (name = "assets", disk = (path = ${JSON.stringify(join(dir, "assets"))}, writable = false, allowDotfiles = false)),
  ],
  sockets = [(name = "http", address = "127.0.0.1:8787", http = (), service = "main")],
);

const w :Workerd.Worker = (
  compatibilityDate = "2026-04-01",
  modules = [
    (name = "worker.mjs", esModule = embed "worker.mjs"),
    (name = "build/skills_edge_worker_bg.wasm", wasm = embed "skills_edge_worker_bg.wasm"),
    (name = "build/catalog.pack", data = embed "catalog.pack"),
  ],
  bindings = [(name = "ASSETS", service = "assets")],
);
`);
  return file;
}

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
