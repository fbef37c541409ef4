// Benchmark of the Worker on bare workerd (`workerd serve` with a config file; the binary of
// the npm package `workerd` that wrangler runs). Two builds of the project's Worker, the same
// wasm and JavaScript with two packs of one bench catalog (skills/ plus a skill `bench-files`
// holding a 64 KiB text file, a 1 MiB binary file and, with --crossover, files of other sizes):
//   * skills-edge (inline): every file's bytes in the pack, today's design before Static
//     Assets (skills-edge.capnp);
//   * skills-edge (assets): the pack `skills-edge pack --assets` makes (files above the inline
//     limit left out), the assets served by a workerd `disk` service bound as ASSETS, which
//     stands in for Workers Static Assets on bare workerd (skills-edge-assets.capnp);
// the inline Worker with AUTH_MODE jwt, every request carrying a valid ES256 token (the key
// set fetched once from a `keys` service in the same process, then cached; the token verified
// once with WebCrypto, then remembered) (skills-edge-jwt.capnp), for skills/list and the 4 KiB
// read; and three baselines that answer every request with a fixed body: the empty Rust Worker
// (empty-rs/: workers-rs 0.8.7, built like the project's Worker) and a plain JavaScript Worker
// (empty-js.mjs), which do not read the request, and a plain JavaScript Worker that reads the
// body first (js-read-body.mjs), the floor for any Worker that answers MCP. And two Workers of
// the official TypeScript SDK 2.4 server (`@modelcontextprotocol/server`: an McpServer per
// request behind its `createMcpHandler`, its Skills extension, `nodejs_compat`), bundled with
// esbuild as wrangler does, over the same bench catalog: with the SDK's own catalog
// (`SkillsExtension.load(memorySkillFiles(files))`, sdk-catalog.mjs) and with skills-edge's
// `packSkillSource` over the inline pack (the npm package's `skills-edge/sdk`, sdk-source.mjs);
// what the second costs against the project's own Worker is what the SDK's layers cost.
// Prints the sizes (wasm, packs, assets) and, for skills/list, a 4 KiB resources/read, a
// 64 KiB text read and a 1 MiB binary read, from one run each: requests/s, p50/p99 latency
// and the workerd process's CPU time per request (the disk service runs in the same process,
// so its CPU is counted). The baselines run the first two only. Each Worker runs alone;
// nothing goes through wrangler. Every reply is checked once before it is measured: reads
// byte for byte against the file.
//
// Usage: node_modules/.bin/node benches/worker/bench.mjs [--no-build] [--rounds 3]
//          [--seconds 5] [--warmup 1] [--connections 8] [--json FILE]
//          [--inline-max BYTES] [--crossover] [--only CASES] [--workers IDS]
//   --inline-max BYTES  the assets-backed pack's inline limit (default: skills-edge pack's)
//   --crossover         also read text files of 8, 16 and 32 KiB and binary files of 4, 16
//                       and 64 KiB, and skip the baselines (with --inline-max 0 this compares
//                       a file in the pack with the same file as an asset, size by size)
//   --only A,B          run only the cases whose names contain one of these ("1 MiB,64 KiB")
//   --workers A,B       run only these Workers (inline, assets, jwt, empty-rs, empty-js, js-read-body,
//                       sdk-catalog, sdk-source, baseline)
//   --baseline DIR      also run the inline Worker of another checkout of this repository (a
//                       `git worktree` of an older revision), built and packed by that
//                       checkout's own scripts and command, in the same interleaved rounds, and
//                       print its ratios against this one (`bash benches/worker/bench.sh --vs REV`
//                       makes the checkout and passes it here)
// (bash benches/worker/bench.sh runs it with Node 22.) Needs scripts/setup.sh --no-browser; the
// sdk-source Worker needs the npm package's web build (pkg/web/, scripts/build-pkg.sh), which
// the build step makes when it is missing.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { createHash, generateKeyPairSync, sign } from "node:crypto";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort, spawnGroup, tail, tempDir } from "../../tests/lib/processes.mjs";
import { binaryFile, textFile } from "../../scripts/gen-catalog.mjs";

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const HERE = join(ROOT, "benches", "worker");
const WORKERD = join(ROOT, "node_modules", "workerd", "bin", "workerd");
const ESBUILD = join(ROOT, "node_modules", ".bin", "esbuild");
const STAGE = join(ROOT, "target", "bench-worker");
const STAGE_EMPTY_RS = join(ROOT, "target", "bench-empty-rs");
const LOADGEN_TARGET = join(ROOT, "target", "bench-loadgen");
const LOADGEN = join(LOADGEN_TARGET, "release", "skills-edge-loadgen");
const WASM = join(ROOT, "worker", "build", "skills_edge_worker_bg.wasm");

const opts = { build: true, seconds: 5, warmup: 1, connections: 8, rounds: 3, json: null, inlineMax: null, crossover: false, only: null, workers: null, baseline: null };
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a === "--no-build") opts.build = false;
  else if (a === "--crossover") opts.crossover = true;
  else if (a === "--inline-max") opts.inlineMax = process.argv[++i];
  else if (a === "--only") opts.only = process.argv[++i].split(",");
  else if (a === "--workers") opts.workers = process.argv[++i].split(",");
  else if (["--seconds", "--warmup", "--connections", "--rounds"].includes(a)) opts[a.slice(2)] = Number(process.argv[++i]);
  else if (a === "--json") opts.json = process.argv[++i];
  else if (a === "--baseline") opts.baseline = resolve(process.argv[++i]);
  else throw new Error(`unknown argument ${a}`);
}

const run = (cmd, args, env = {}) =>
  execFileSync(cmd, args, { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, ...env } });

// 1. Build the Worker, the load generator, the bench catalog's two packs, and the
//    single-module bundle workerd loads.
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
    "--external:*.pack",
    "--log-level=warning",
    `--outfile=${join(stage, "worker.mjs")}`,
  ]);
}
/** The workerd configuration of a Worker staged in `dir` (`what` names it): its bundle
 *  `worker.mjs` and the `modules` given (capnp module entries), with `flags`. */
function writeConfig(dir, what, modules, flags = []) {
  writeFileSync(join(dir, "workerd.capnp"), `# Written by benches/worker/bench.mjs: ${what} on bare workerd.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [(name = "main", worker = .w)],
  sockets = [(name = "http", address = "127.0.0.1:8789", http = (), service = "main")],
);

const w :Workerd.Worker = (
  compatibilityDate = "2026-04-01",${flags.length ? `\n  compatibilityFlags = ${JSON.stringify(flags)},` : ""}
  modules = [
    (name = "worker.mjs", esModule = embed "worker.mjs"),
    ${modules.join(",\n    ")},
  ],
);
`);
}
rmSync(STAGE, { recursive: true, force: true });
mkdirSync(STAGE, { recursive: true });
bundle("worker/entry.mjs", STAGE);
copyFileSync(WASM, join(STAGE, "skills_edge_worker_bg.wasm"));

// The bench catalog: the project's skills and one skill of larger files.
const CATALOG = join(STAGE, "skills");
cpSync(join(ROOT, "skills"), CATALOG, { recursive: true });
const BENCH_FILES = [
  { path: "references/text-64k.md", bytes: textFile(64 * 1024, 64), label: "64 KiB text" },
  { path: "assets/blob-1m.bin", bytes: binaryFile(1024 * 1024, 1024), label: "1 MiB binary" },
];
if (opts.crossover) {
  for (const k of [8, 16, 32]) BENCH_FILES.push({ path: `references/text-${k}k.md`, bytes: textFile(k * 1024, k), label: `${k} KiB text` });
  for (const k of [4, 16, 64]) BENCH_FILES.push({ path: `assets/blob-${k}k.bin`, bytes: binaryFile(k * 1024, k), label: `${k} KiB binary` });
}
mkdirSync(join(CATALOG, "bench-files", "references"), { recursive: true });
mkdirSync(join(CATALOG, "bench-files", "assets"), { recursive: true });
writeFileSync(join(CATALOG, "bench-files", "SKILL.md"),
  "---\nname: bench-files\ndescription: Files of known sizes for the Worker benchmark. Use when measuring reads.\n---\n\n# Bench files\n");
for (const f of BENCH_FILES) writeFileSync(join(CATALOG, "bench-files", f.path), f.bytes);
// The native command packs it (built without SKILLS_DIR, as scripts/build-worker.sh does).
const nativeEnv = { ...process.env };
delete nativeEnv.SKILLS_DIR;
const skillsEdge = (args) => {
  const r = spawnSync("cargo", ["run", "--release", "--locked", "--quiet", "--bin", "skills-edge", "--", ...args], {
    cwd: ROOT, env: nativeEnv, encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`skills-edge ${args.join(" ")} failed:\n${r.stderr}`);
  return r.stderr.trim().split("\n").pop();
};
const packs = {
  inline: skillsEdge(["pack", CATALOG, "-o", join(STAGE, "inline.pack")]),
  assets: skillsEdge(["pack", CATALOG, "--assets", join(STAGE, "assets"), "-o", join(STAGE, "assets.pack"),
    ...(opts.inlineMax !== null ? ["--inline-max", opts.inlineMax] : [])]),
};
mkdirSync(join(STAGE, "assets"), { recursive: true });

// The jwt Worker's key set and the token every one of its requests carries.
const benchKey = generateKeyPairSync("ec", { namedCurve: "P-256" });
writeFileSync(join(STAGE, "jwks.json"), JSON.stringify({ keys: [{ ...benchKey.publicKey.export({ format: "jwk" }), kid: "bench", use: "sig" }] }));
const BENCH_TOKEN = (() => {
  const part = (o) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const now = Math.floor(Date.now() / 1000);
  const input = `${part({ alg: "ES256", kid: "bench", typ: "at+jwt" })}.${part({
    iss: "https://issuer.bench.invalid", aud: "https://bench.invalid/mcp", sub: "bench", client_id: "bench",
    jti: "bench-1", iat: now, exp: now + 86400, scope: "skills:read",
  })}`;
  const sig = sign("sha256", Buffer.from(input), { key: benchKey.privateKey, dsaEncoding: "ieee-p1363" });
  return `${input}.${sig.toString("base64url")}`;
})();

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

// The SDK 2.4 server's Workers (not with --crossover): each bundled with its dependencies into
// one module next to the files it imports, and a workerd configuration written beside it.
const STAGE_SDK = join(ROOT, "target", "bench-sdk");
const PKG_WASM = join(ROOT, "pkg", "web", "skills_edge_bg.wasm");
const wantSdk = !opts.crossover && (!opts.workers || opts.workers.some((w) => w.startsWith("sdk-")));
if (wantSdk) {
  if (opts.build || !existsSync(PKG_WASM)) run("bash", ["scripts/build-pkg.sh"]);
  rmSync(STAGE_SDK, { recursive: true, force: true });
  for (const id of ["sdk-catalog", "sdk-source"]) mkdirSync(join(STAGE_SDK, id), { recursive: true });
  // sdk-catalog: every file of the bench catalog as a data module, keyed by its path.
  const files = [];
  const walk = (dir, rel) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(join(dir, e.name), r);
      else if (e.isFile()) files.push(r);
    }
  };
  walk(CATALOG, "");
  const catalogDir = join(STAGE_SDK, "sdk-catalog");
  mkdirSync(join(catalogDir, "files"), { recursive: true });
  files.forEach((f, i) => copyFileSync(join(CATALOG, f), join(catalogDir, "files", `f${i}.bin`)));
  writeFileSync(join(catalogDir, "catalog-files.mjs"),
    files.map((_, i) => `import f${i} from "./files/f${i}.bin";`).join("\n") +
    `\nexport default {\n${files.map((f, i) => `  ${JSON.stringify(f)}: new Uint8Array(f${i}),`).join("\n")}\n};\n`);
  copyFileSync(join(HERE, "sdk-catalog.mjs"), join(catalogDir, "entry.mjs"));
  const sourceDir = join(STAGE_SDK, "sdk-source");
  copyFileSync(join(HERE, "sdk-source.mjs"), join(sourceDir, "entry.mjs"));
  copyFileSync(PKG_WASM, join(sourceDir, "skills_edge_bg.wasm"));
  copyFileSync(join(STAGE, "inline.pack"), join(sourceDir, "inline.pack"));
  for (const [id, extra] of [
    ["sdk-catalog", files.map((_, i) => `(name = "files/f${i}.bin", data = embed "files/f${i}.bin")`)],
    ["sdk-source", ['(name = "skills_edge_bg.wasm", wasm = embed "skills_edge_bg.wasm")',
      '(name = "inline.pack", data = embed "inline.pack")']],
  ]) {
    const dir = join(STAGE_SDK, id);
    run(ESBUILD, [join(dir, "entry.mjs"), "--bundle", "--format=esm", "--platform=browser",
      "--conditions=workerd,worker,browser", "--external:node:*", "--external:*.wasm", "--external:*.pack",
      "--external:*.bin", "--log-level=warning", `--outfile=${join(dir, "worker.mjs")}`]);
    writeConfig(dir, `the ${id} Worker`, extra, ["nodejs_compat"]);
  }
}

// The baseline (--baseline DIR): that checkout's Worker and native command, each built by its
// own scripts into its own target directory, packing the same bench catalog inline.
const STAGE_BASE = join(ROOT, "target", "bench-baseline");
const baseRev = opts.baseline ? execFileSync("git", ["-C", opts.baseline, "rev-parse", "--short=7", "HEAD"]).toString().trim() : null;
if (opts.baseline) {
  const base = opts.baseline;
  if (!existsSync(join(base, "worker", "entry.mjs")) || !existsSync(join(base, "scripts", "build-worker.sh"))) {
    throw new Error(`--baseline ${base}: not a checkout of this repository (no worker/entry.mjs or scripts/build-worker.sh)\n` +
      "  fix: make one with `git worktree add DIR REV`, or run `bash benches/worker/bench.sh --vs REV`");
  }
  const baseEnv = { ...nativeEnv, CARGO_TARGET_DIR: join(base, "target") };
  if (!existsSync(join(base, "node_modules"))) symlinkSync(join(ROOT, "node_modules"), join(base, "node_modules"));
  if (opts.build) execFileSync("bash", ["scripts/build-worker.sh"], { cwd: base, stdio: ["ignore", "inherit", "inherit"], env: baseEnv });
  rmSync(STAGE_BASE, { recursive: true, force: true });
  mkdirSync(STAGE_BASE, { recursive: true });
  bundle(join(base, "worker", "entry.mjs"), STAGE_BASE);
  copyFileSync(join(base, "worker", "build", "skills_edge_worker_bg.wasm"), join(STAGE_BASE, "skills_edge_worker_bg.wasm"));
  const r = spawnSync("cargo", ["run", "--release", "--locked", "--quiet", "--bin", "skills-edge", "--",
    "pack", CATALOG, "-o", join(STAGE_BASE, "inline.pack")], { cwd: base, env: baseEnv, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`the baseline's skills-edge pack failed:\n${r.stderr}`);
  writeConfig(STAGE_BASE, `the inline Worker of ${baseRev}`, [
    '(name = "build/skills_edge_worker_bg.wasm", wasm = embed "skills_edge_worker_bg.wasm")',
    '(name = "build/catalog.pack", data = embed "inline.pack")',
  ]);
}

const sizeOf = (file) => {
  const bytes = readFileSync(file);
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
};
const assetFiles = readdirSync(join(STAGE, "assets"));
const sizes = {
  wasm: sizeOf(WASM),
  ...(opts.baseline ? { baseline_wasm: sizeOf(join(STAGE_BASE, "skills_edge_worker_bg.wasm")) } : {}),
  js: sizeOf(join(STAGE, "worker.mjs")),
  empty_rs_wasm: sizeOf(emptyWasm),
  ...(wantSdk ? {
    sdk_catalog_js: sizeOf(join(STAGE_SDK, "sdk-catalog", "worker.mjs")),
    sdk_source_js: sizeOf(join(STAGE_SDK, "sdk-source", "worker.mjs")),
    pkg_wasm: sizeOf(PKG_WASM),
  } : {}),
  inline_pack: sizeOf(join(STAGE, "inline.pack")),
  assets_pack: sizeOf(join(STAGE, "assets.pack")),
  assets: {
    files: assetFiles.length,
    bytes: assetFiles.reduce((n, f) => n + readFileSync(join(STAGE, "assets", f)).length, 0),
  },
};

// 2. The requests, as raw HTTP/1.1 keep-alive requests.
const V = "2026-07-28";
const META = { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {} };
const READ_URI = "skill://skill-authoring/SKILL.md"; // the largest text file: a ~4 KiB reply
const read = (name, uri, bytes) => ({ name, method: "resources/read", params: { uri }, mcpName: uri, bytes });
const cases = [
  { name: "skills/list", method: "skills/list", params: {}, small: true },
  { ...read("resources/read 4 KiB", READ_URI, readFileSync(join(CATALOG, "skill-authoring", "SKILL.md"))), small: true },
  ...BENCH_FILES.map((f) => read(`resources/read ${f.label}`, `skill://bench-files/${f.path}`, f.bytes)),
];
function rawRequest(port, c, token) {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: c.method, params: { ...c.params, _meta: META } });
  const head = [
    "POST /mcp HTTP/1.1",
    `Host: 127.0.0.1:${port}`,
    "Content-Type: application/json",
    "Accept: application/json, text/event-stream",
    `MCP-Protocol-Version: ${V}`,
    `Mcp-Method: ${c.method}`,
    ...(c.mcpName ? [`Mcp-Name: ${c.mcpName}`] : []),
    ...(token ? [`Authorization: Bearer ${token}`] : []),
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Connection: keep-alive",
  ];
  return { text: `${head.join("\r\n")}\r\n\r\n${body}`, body, headers: Object.fromEntries(head.slice(1).map((h) => h.split(": "))) };
}

/** The JSON-RPC message of a reply: a JSON body, or the one `data:` of an event stream. */
function replyMessage(contentType, body) {
  const text = body.toString("utf8");
  if ((contentType ?? "").startsWith("text/event-stream")) {
    const data = text.split(/\r?\n/).filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trimStart());
    if (data.length !== 1) throw new Error(`an event stream with ${data.length} data lines: ${text.slice(0, 200)}`);
    return JSON.parse(data[0]);
  }
  return JSON.parse(text);
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
      if (/connection error/.test(err)) console.error(`load generator: ${err.match(/connection error.*/g).join("; ")}`);
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
//    (inline, assets, empty-rs, …, then the reverse order) so that a change in the machine's
//    load during the run affects all of them; each figure is the median over the rounds.
const samples = [];
// [id, config, label, cases it runs]
const picked = (name) => !opts.only || opts.only.some((o) => name.includes(o));
const ALL_WORKERS = [
  ["inline", "skills-edge.capnp", "skills-edge (inline)", cases],
  ["assets", "skills-edge-assets.capnp", "skills-edge (assets)", cases],
  ["jwt", "skills-edge-jwt.capnp", "skills-edge (jwt, valid token)", cases.filter((c) => c.small)],
  ...(opts.crossover ? [] : [
    ["empty-rs", "empty-rs.capnp", "empty-rs", cases.filter((c) => c.small)],
    ["empty-js", "empty-js.capnp", "empty-js", cases.filter((c) => c.small)],
    ["js-read-body", "js-read-body.capnp", "js-read-body", cases.filter((c) => c.small)],
    ["sdk-catalog", join(STAGE_SDK, "sdk-catalog", "workerd.capnp"), "SDK 2.4 server, SDK SkillCatalog", cases],
    ["sdk-source", join(STAGE_SDK, "sdk-source", "workerd.capnp"), "SDK 2.4 server, skills-edge packSkillSource", cases],
  ]),
  ...(opts.baseline ? [["baseline", join(STAGE_BASE, "workerd.capnp"), `skills-edge (inline) at ${baseRev}`, cases]] : []),
];
const WORKERS = ALL_WORKERS.map(([id, config, l, cs]) => [id, config, l, cs.filter((c) => picked(c.name))]).filter(
  ([id, , , cs]) => cs.length && (!opts.workers || opts.workers.includes(id)),
);
const sha256 = (b) => createHash("sha256").update(b).digest("hex");
for (let round = 1; round <= opts.rounds; round++) {
  // Every other round runs the Workers in reverse order, so neither of two Workers compared
  // always runs first.
  for (const [worker, config, , workerCases] of round % 2 ? WORKERS : [...WORKERS].reverse()) {
    await withWorkerd(worker, config, async (pid, port, dir) => {
      for (const c of workerCases) {
        const req = rawRequest(port, c, worker === "jwt" ? BENCH_TOKEN : null);
        // One checked request first: the reply must be a result, and a read must carry the
        // file's exact bytes.
        const check = await fetch(`http://127.0.0.1:${port}/mcp`, { method: "POST", headers: req.headers, body: req.body });
        const reply = Buffer.from(await check.arrayBuffer());
        if (check.status !== 200) throw new Error(`${worker} ${c.name}: HTTP ${check.status}: ${reply}`);
        if (worker !== "empty-rs" && worker !== "empty-js" && worker !== "js-read-body") {
          const result = replyMessage(check.headers.get("content-type"), reply).result;
          if (!result) throw new Error(`${worker} ${c.name}: ${reply}`);
          if (c.bytes) {
            const [item] = result.contents;
            const got = typeof item.text === "string" ? Buffer.from(item.text, "utf8") : Buffer.from(item.blob, "base64");
            if (sha256(got) !== sha256(c.bytes)) throw new Error(`${worker} ${c.name}: the reply does not carry the file's bytes`);
          }
        }
        const file = join(dir, "request.http");
        writeFileSync(file, req.text);
        const r = await loadgen(pid, port, file);
        const bad = Object.entries(r.statuses).filter(([s]) => s !== "200");
        // The project's Workers and the baselines must answer every request; a peer (the SDK's
        // Workers) that drops connections under this load is reported, not hidden: the table
        // counts them.
        if (bad.length || (r.connection_errors && !worker.startsWith("sdk-"))) {
          throw new Error(`${worker} ${c.name}: ${JSON.stringify(r)}`);
        }
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
for (const [worker, , , workerCases] of WORKERS) {
  for (const c of workerCases) {
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
      connection_errors: xs.reduce((n, x) => n + x.connection_errors, 0),
    });
  }
}

// 4. Report.
const fmt = (n, d = 0) => (n === null || n === undefined ? "-" : n.toFixed(d));
console.log(`\nworkerd ${execFileSync(WORKERD, ["--version"]).toString().trim()}, ${opts.connections} connections, ` +
  `${opts.rounds} rounds of ${opts.warmup} s warm-up + ${opts.seconds} s measured per case (medians), ${NCPU} CPUs` +
  (TASKSET ? " (workerd on CPU 1, load generator on CPU 0)" : "") +
  `, load average before: ${LOADAVG}`);
if (opts.baseline) console.log(`the baseline's Worker wasm: ${sizes.baseline_wasm.raw} bytes raw, ${sizes.baseline_wasm.gzip} bytes gzip -9`);
console.log(`Worker wasm: ${sizes.wasm.raw} bytes raw, ${sizes.wasm.gzip} bytes gzip -9 ` +
  `(JS glue bundle: ${sizes.js.raw} raw, ${sizes.js.gzip} gzip; the empty Rust Worker's wasm: ` +
  `${sizes.empty_rs_wasm.raw} raw, ${sizes.empty_rs_wasm.gzip} gzip)`);
if (wantSdk) {
  console.log(`SDK 2.4 Workers (one bundle each, with the SDK): SkillCatalog ${sizes.sdk_catalog_js.raw} bytes raw, ` +
    `${sizes.sdk_catalog_js.gzip} gzip (the catalog's files are data modules beside it); packSkillSource ` +
    `${sizes.sdk_source_js.raw} raw, ${sizes.sdk_source_js.gzip} gzip, plus the npm package's wasm ` +
    `${sizes.pkg_wasm.raw} raw, ${sizes.pkg_wasm.gzip} gzip and the inline pack`);
}
console.log(`bench catalog packs: inline ${sizes.inline_pack.raw} bytes raw, ${sizes.inline_pack.gzip} gzip; ` +
  `assets-backed ${sizes.assets_pack.raw} raw, ${sizes.assets_pack.gzip} gzip, with ${sizes.assets.files} assets ` +
  `(${sizes.assets.bytes} bytes)${opts.inlineMax !== null ? ` (--inline-max ${opts.inlineMax})` : ""}`);
console.log(`  ${packs.assets}`);
console.log("skills-edge (assets): the ASSETS binding is a workerd `disk` service over the assets folder " +
  "(bare workerd has no Static Assets), in the same workerd process, so its CPU is counted");
const label = Object.fromEntries(WORKERS.map(([id, , l]) => [id, l]));
console.log("\n| Worker | request | reply B | req/s | p50 ms | p99 ms | CPU µs/req | connections lost |");
console.log("|---|---|---:|---:|---:|---:|---:|---:|");
for (const r of results) {
  console.log(`| ${label[r.worker]} | ${r.case} | ${r.reply_bytes} | ${fmt(r.rps)} | ${fmt(r.p50_ms, 3)} | ${fmt(r.p99_ms, 3)} | ${fmt(r.cpu_us_per_request, 1)} | ${r.connection_errors} |`);
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
const have = (id) => WORKERS.some(([w]) => w === id);
for (const c of cases.filter((c) => picked(c.name))) {
  const pairs = c.small
    ? [["assets", "inline"], ["jwt", "inline"], ["inline", "empty-rs"], ["inline", "empty-js"], ["inline", "js-read-body"],
       ["empty-rs", "empty-js"], ["js-read-body", "empty-js"]]
    : [["assets", "inline"]];
  pairs.push(["sdk-source", "sdk-catalog"], ["inline", "sdk-source"], ["inline", "sdk-catalog"], ["inline", "baseline"]);
  for (const [worker, base] of pairs.filter(([w, b]) => have(w) && have(b))) {
    ratios.push({
      case: c.name, worker, baseline: base,
      rps: pairedRatio(worker, base, c.name, "rps"),
      cpu: pairedRatio(worker, base, c.name, "cpu_us_per_request"),
    });
  }
}
console.log("\nrequests/s and CPU per request relative to a baseline (medians of per-round ratios):");
for (const r of ratios) {
  let target = "";
  if (r.baseline === "baseline") target = ` (target: the same or better: ${r.cpu <= 1.05 ? "met" : "not met"} on CPU, within 5%)`;
  else if (r.worker === "inline" && !r.baseline.startsWith("sdk-")) target = ` (target x0.80: ${r.rps >= 0.8 ? "met" : "not met"})`;
  else if (r.worker === "jwt") target = ` (target: CPU at most x1.30 the anonymous request's: ${r.cpu <= 1.3 ? "met" : "not met"})`;
  else if (r.worker === "assets" && cases.find((c) => c.name === r.case)?.small) {
    // The same request on the same code path: the assets-backed Worker may not lose more than
    // 5% of the inline Worker's requests/s, nor spend more than 5% more CPU per request.
    const within = r.rps >= 0.95 && r.cpu <= 1.05;
    target = ` (target: no more than 5% slower than the inline Worker: ${within ? "met" : "not met"})`;
  }
  console.log(`${r.case}: ${label[r.worker]} / ${label[r.baseline]}: requests/s x${fmt(r.rps, 2)}, ` +
    `CPU per request x${fmt(r.cpu, 2)}${target}`);
}
if (opts.json) writeFileSync(opts.json, JSON.stringify({ sizes, packs, opts, results, ratios, samples }, null, 2));
