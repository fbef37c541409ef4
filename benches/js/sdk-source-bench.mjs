// The official TypeScript SDK 2.4 serving the same skills two ways, side by side, in Node:
// through `skills-edge/sdk`'s packSkillSource (a pack) and through the SDK's own catalog
// (`SkillsExtension.load(memorySkillFiles(files))`, which builds the entries at start and checks
// every file it reads against them). Both behind the SDK's createMcpHandler (one McpServer per
// request, as the SDK serves 2026-07-28 statelessly), so each figure is a whole HTTP request
// handled by the SDK (`handler.fetch(Request)` and the body read), and the only difference is
// where the skills come from.
//
//   node benches/js/sdk-source-bench.mjs [path/to/pkg]      (default: pkg/ of this repository)
//
// Requests at 2026-07-28: skills/list (8 skills), skills/get, resources/read of a 4 KiB text
// file and of a 1 MiB binary one, resources/directory/read. Each figure is the best of 7
// rounds of at least 250 ms of the process's CPU time each (the two sides' rounds interleaved),
// in requests per CPU second; the start of each catalog is timed once (wall clock). Every answer is checked before timing (the same result from both, byte for byte for
// the reads).
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..", "..");
const pkgDir = resolve(process.argv[2] ?? join(repo, "pkg"));
const fromRepo = createRequire(join(repo, "package.json"));
const load = (spec) => import(pathToFileURL(fromRepo.resolve(spec)).href);
const { McpServer, createMcpHandler } = await load("@modelcontextprotocol/server");
const { SkillsExtension, memorySkillFiles } = await load("@modelcontextprotocol/server/ext/skills");
const { compileCatalog } = createRequire(import.meta.url)(join(pkgDir, "node", "skills_edge.js"));
const { packSkillSource, recommendedCacheHint } = await import(pathToFileURL(join(pkgDir, "lib", "sdk-node.js")).href);

/** Deterministic text of `n` bytes. */
function text(n) {
  const words = ["check", "the", "diff", "for", "errors", "and", "name", "each", "finding", "with", "its", "fix"];
  let out = "";
  for (let i = 0; out.length < n; i++) out += words[(i * 7) % words.length] + (i % 13 === 12 ? ".\n" : " ");
  return out.slice(0, n - 1) + "\n";
}

/** Deterministic bytes of `n` (not UTF-8: served as a blob). */
function binary(n) {
  const b = new Uint8Array(n);
  let x = 0x9e3779b9;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    b[i] = x & 0xff;
  }
  b[0] = 0xff;
  return b;
}

const files = {};
for (let i = 0; i < 8; i++) {
  const name = `skill-${i}`;
  files[`${name}/SKILL.md`] = `---\nname: ${name}\ndescription: Benchmark skill number ${i}, for measuring a skills source.\n---\n\n# ${name}\n\nRead references/guide.md first.\n`;
  files[`${name}/references/guide.md`] = i === 0 ? text(4096) : `Guide ${i}.\n`;
  files[`${name}/templates/out.md`] = `Template ${i}.\n`;
}
files["skill-0/assets/blob.bin"] = binary(1 << 20);

const CACHE = { ttlMs: 300000, cacheScope: "public" };

function handlerOf(extension) {
  return createMcpHandler(() => {
    const mcp = new McpServer({ name: "bench", version: "1.0.0" });
    extension.attach(mcp);
    return mcp;
  }, { onerror: (e) => console.error(e) });
}

// The pack is made at build time (`skills-edge pack`); the start timed is loading it. The SDK's
// catalog is built from the files at start (every file read and hashed, every SKILL.md parsed).
const { pack } = compileCatalog(Object.entries(files).map(([path, bytes]) => ({ path, bytes })));
let t0 = performance.now();
const source = packSkillSource(pack);
const ours = handlerOf(new SkillsExtension({ source, cacheHint: recommendedCacheHint(source) }));
const oursStart = performance.now() - t0;
t0 = performance.now();
const theirs = handlerOf(await SkillsExtension.load(memorySkillFiles(files), { cacheHint: CACHE, pageSize: 50 }));
const theirsStart = performance.now() - t0;

const MODERN = "2026-07-28";
const META = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} };

/** One 2026-07-28 request through `handler`; resolves the parsed JSON-RPC response. */
async function post(handler, method, params = {}) {
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": MODERN,
    "mcp-method": method,
  };
  if (typeof params.uri === "string" && (method === "resources/read" || method === "skills/get")) headers["mcp-name"] = params.uri;
  const res = await handler.fetch(
    new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: META } }),
    }),
  );
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${method}: HTTP ${res.status}: ${body.slice(0, 300)}`);
  return JSON.parse(body);
}

const CASES = [
  ["skills/list", {}],
  ["skills/get", { uri: "skill://skill-3/SKILL.md" }],
  ["resources/read 4 KiB text", { uri: "skill://skill-0/references/guide.md" }, "resources/read"],
  ["resources/read 1 MiB blob", { uri: "skill://skill-0/assets/blob.bin" }, "resources/read"],
  ["resources/directory/read", { uri: "skill://skill-0" }],
];

// The same answers from both, before anything is timed.
for (const [label, params, method = label] of CASES) {
  const a = await post(ours, method, params);
  const b = await post(theirs, method, params);
  if (a.error || b.error) throw new Error(`${label}: ${JSON.stringify(a.error ?? b.error)}`);
  const pick = (r) => {
    if (method === "skills/list") return r.result.skills.map((s) => [s.uri, s.resources.length]);
    if (method === "skills/get") return r.result.skill.resources;
    if (method === "resources/read") return [r.result.contents[0].text ?? r.result.contents[0].blob, r.result.contents[0].mimeType];
    return r.result.resources.map((x) => x.uri).sort();
  };
  if (JSON.stringify(pick(a)) !== JSON.stringify(pick(b))) {
    throw new Error(`${label}: the two answers differ:\n  ours:   ${JSON.stringify(pick(a)).slice(0, 300)}\n  theirs: ${JSON.stringify(pick(b)).slice(0, 300)}`);
  }
}

/** Requests per second of one round of at least 250 ms of CPU time (this process's user + system time, steadier than the wall clock on a busy machine). */
async function round(fn) {
  let n = 0;
  const start = process.cpuUsage();
  let used = 0;
  while (used < 250) {
    await fn();
    n++;
    const d = process.cpuUsage(start);
    used = (d.user + d.system) / 1000;
  }
  return (n * 1000) / used;
}

/** The best of 7 rounds of `a` and of `b`, interleaved (a, b, a, b, …) so both see the same machine. */
async function rates(a, b) {
  let bestA = 0;
  let bestB = 0;
  for (let r = 0; r < 7; r++) {
    bestA = Math.max(bestA, await round(a));
    bestB = Math.max(bestB, await round(b));
  }
  return [bestA, bestB];
}

const fmt = (n) => (n >= 100 ? Math.round(n).toLocaleString("en-US") : n.toFixed(1));
console.log(`SDK 2.4 createMcpHandler, ${Object.keys(files).length} files, Node ${process.version}; requests per CPU second, best of 7 interleaved rounds of 250 ms`);
console.log(`${"".padEnd(28)}${"packSkillSource".padStart(18)}${"SDK SkillCatalog".padStart(18)}${"ratio".padStart(8)}`);
console.log(`${"start (ms, once)".padEnd(28)}${oursStart.toFixed(1).padStart(18)}${theirsStart.toFixed(1).padStart(18)}`);
for (const [label, params, method = label] of CASES) {
  const [a, b] = await rates(() => post(ours, method, params), () => post(theirs, method, params));
  console.log(`${label.padEnd(28)}${fmt(a).padStart(18)}${fmt(b).padStart(18)}${(a / b).toFixed(2).padStart(8)}`);
}
