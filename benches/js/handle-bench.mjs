// In-page server throughput of the npm package in Node: `SkillsServer.handle` with a message
// object (the response comes back as an object) and `handleText` with JSON text (the response
// comes back as text), for `skills/list`, `skills/get`, `resources/read` of a 4 KiB text file
// and `server/discover`, on the 2026-07-28 protocol. The catalog is a pack compiled in-process:
// 8 skills of 3 files each, one of them with the 4 KiB file.
//
//   node benches/js/handle-bench.mjs [path/to/pkg]      (default: pkg/ of this repository)
//
// Each figure is the best of 7 rounds of at least 250 ms each, in calls per second.
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const pkgDir = resolve(process.argv[2] ?? join(here, "..", "..", "pkg"));
const { SkillsServer, compileCatalog } = createRequire(import.meta.url)(join(pkgDir, "node", "skills_edge.js"));

// A deterministic 4 KiB of markdown-ish text.
function text(n) {
  const words = ["check", "the", "diff", "for", "errors", "and", "name", "each", "finding", "with", "its", "fix"];
  let out = "";
  for (let i = 0; out.length < n; i++) out += words[(i * 7) % words.length] + (i % 13 === 12 ? ".\n" : " ");
  return out.slice(0, n - 1) + "\n";
}

const sources = [];
for (let i = 0; i < 8; i++) {
  const name = `skill-${i}`;
  sources.push(
    { path: `${name}/SKILL.md`, bytes: `---\nname: ${name}\ndescription: Benchmark skill number ${i}, for measuring the in-page server.\nmetadata:\n  version: "1.${i}"\n---\n\n# ${name}\n\nRead references/guide.md first.\n` },
    { path: `${name}/references/guide.md`, bytes: i === 0 ? text(4096) : `Guide ${i}.\n` },
    { path: `${name}/templates/out.md`, bytes: `Template ${i}.\n` },
  );
}
const { pack } = compileCatalog(sources);
const server = new SkillsServer({ pack });
const guide = "skill://skill-0/references/guide.md";

const meta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};
const cases = [
  ["skills/list", {}],
  ["skills/get", { uri: "skill://skill-3/SKILL.md" }],
  ["resources/read 4 KiB", { uri: guide }, "resources/read"],
  ["server/discover", {}],
];

function best(fn) {
  for (let i = 0; i < 2000; i++) fn(); // warm-up
  let bestRate = 0;
  for (let round = 0; round < 7; round++) {
    let calls = 0;
    const t0 = process.hrtime.bigint();
    let ms = 0;
    while (ms < 250) {
      for (let i = 0; i < 200; i++) fn();
      calls += 200;
      ms = Number(process.hrtime.bigint() - t0) / 1e6;
    }
    bestRate = Math.max(bestRate, calls / (ms / 1000));
  }
  return bestRate;
}

const rows = [];
for (const [label, params, method = label] of cases) {
  const message = { jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: meta } };
  const asText = JSON.stringify(message);
  // Both forms answer the same, and with a result.
  const reply = server.handle(message);
  if (!reply || !("result" in reply)) throw new Error(`${label}: ${JSON.stringify(reply)}`);
  if (JSON.stringify(JSON.parse(server.handleText(asText))) !== JSON.stringify(reply)) throw new Error(`${label}: handle and handleText differ`);
  if (method === "resources/read" && reply.result.contents[0].text.length !== 4096) throw new Error("the file is not 4 KiB");
  const handle = best(() => server.handle(message));
  const handleText = best(() => server.handleText(asText));
  rows.push({ method: label, "handle(object) ops/s": Math.round(handle), "handleText(string) ops/s": Math.round(handleText) });
}
console.log(`Node ${process.version}, best of 7 rounds of 250 ms`);
console.table(rows);
