// What the Worker benchmarks share (moved from scale.mjs): the generated catalog of
// benches/scale.rs's shape, and workerd's CPU time and memory, read from /proc.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort, spawnGroup, tail, tempDir } from "../../tests/lib/processes.mjs";

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const WORKERD = join(ROOT, "node_modules", "workerd", "bin", "workerd");

// ---------------------------------------------------------------------------------------
// The generated catalog: the shape of benches/scale.rs (the same generator, so the same
// sizes; xorshift64* over BigInt).

const WORDS = ["review", "check", "the", "diff", "tests", "deploy", "edge", "skill", "verify", "digest",
  "release", "notes", "commit", "style", "guide", "team", "catalog", "server", "client",
  "archive", "format", "audit", "trace", "plan"];
const MASK = (1n << 64n) - 1n;

export function generate(dir, n) {
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
export function cpuNs(pid) {
  let ns = 0;
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, "utf8").split(" ")[0]);
    } catch {} // a thread that ended between the listing and the read
  }
  return ns;
}
/** Resident memory of `pid`, bytes (VmRSS), and its peak (VmHWM). */
export function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key) => Number(status.match(new RegExp(`^${key}:\\s+(\\d+) kB`, "m"))?.[1] ?? NaN) * 1024;
  return { rss: kb("VmRSS"), peak: kb("VmHWM") };
}
/** Waits until `pid` has used under 1 ms of CPU in 200 ms (started, nothing left to do). */
export async function idle(pid, deadline) {
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
export function accepts(port) {
  return new Promise((res) => {
    const sock = connect({ host: "127.0.0.1", port });
    sock.once("connect", () => (sock.destroy(), res(true)));
    sock.once("error", () => (sock.destroy(), res(false)));
  });
}

const V = "2026-07-28";
const META = { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "scale-bench", version: "1" } };
export const call = (method, params = {}) => ({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: META } });
export async function post(port, msg, name) {
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
export async function withWorkerd(config, cwd, fn, { inspector = false } = {}) {
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
export async function heapAfterGc(inspectorPort) {
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
export async function first(pid, port, msg, check) {
  const c0 = cpuNs(pid);
  const r = await post(port, msg);
  await sleep(100);
  const cpuMs = (cpuNs(pid) - c0) / 1e6;
  check(r);
  return { cpuMs, ...memory(pid) };
}

/** The isolate's memory after its first answer, in a workerd of its own (with the inspector). */
export function isolateMemory(config, cwd) {
  return withWorkerd(config, cwd, async (pid, port, start, inspectorPort) => {
    const r = await post(port, call("skills/list"));
    if (r.status !== 200) throw new Error(`first request: HTTP ${r.status}`);
    return heapAfterGc(inspectorPort);
  }, { inspector: true });
}

/** CPU per request of `count` sequential requests (keep-alive), µs. */
export async function perRequest(pid, port, msg, name, count) {
  const ok = await post(port, msg, name); // warm: the connection and the code path
  if (ok.status !== 200 || !ok.body.includes('"result"')) throw new Error(`${msg.method}: HTTP ${ok.status}: ${ok.body.slice(0, 300)}`);
  const c0 = cpuNs(pid);
  for (let i = 0; i < count; i++) await post(port, msg, name);
  return (cpuNs(pid) - c0) / 1e3 / count;
}

/**
 * Writes `dir/workerd.capnp` for the Worker staged in `dir` (worker.mjs, the wasm, the pack,
 * assets/) and returns its path: the Worker on 127.0.0.1:8787 with the assets as a read-only
 * disk service bound as ASSETS, plus `bindings` (`{ NAME: "text" }`, text bindings) and, with
 * `internet`, a network service for loopback fetches. `by` names the script in the header.
 */
export function workerdConfig(dir, { by, bindings = {}, internet = false }) {
  const file = join(dir, "workerd.capnp");
  const all = ['(name = "ASSETS", service = "assets")',
    ...Object.entries(bindings).map(([k, v]) => `(name = ${JSON.stringify(k)}, text = ${JSON.stringify(v)})`)];
  writeFileSync(file, `# Written by ${by}.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = .w),
    (name = "assets", disk = (path = ${JSON.stringify(join(dir, "assets"))}, writable = false, allowDotfiles = false)),${internet ? '\n    (name = "internet", network = (allow = ["local"])),' : ""}
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
  bindings = [${all.join(", ")}],
);
`);
  return file;
}
