// The search benchmark's deployment side (docs/search.md#size-and-speed): the generated
// catalog of benches/search.rs (each skill a two-word name, a 20-word description drawn from
// 400 words with a Zipf-like skew, two tags and three headings; a tenth private), packed by
// the native `skills-edge pack`, served by the Worker on bare workerd with `FALLBACK=search`,
// and a `search_skills` tools/call of the bench's three-word query answered for an anonymous
// caller: the workerd process's CPU per request over sequential requests on one keep-alive
// connection (its threads' schedstat, as benches/worker/scale.mjs measures; local workerd
// reports no CPU time per request). Beside it, in the same process, the same call for a word
// the catalog does not hold (no postings to read) and a `skills/get` (a request that reads one
// record: what a request costs around the work of the search), and the floor of a plain
// JavaScript Worker answering a fixed body.
//
// Each `--wasm LABEL=PATH` is a build of the Worker's wasm (default: worker/build's), its
// glue the `skills_edge_worker.js` and `snippets/` beside it (a copy of a worker/build); several are measured in turn, `--rounds` times
// (A B A B ...), so two builds compare on the same machine in one run.
//
// Usage: node_modules/.bin/node benches/worker/search.mjs [--skills 10000] [--requests 200]
//          [--rounds 2] [--warm 0] [--wasm LABEL=PATH]... [--bin PATH] [--v8-flag FLAG]...
// `--warm N` sends N `search_skills` calls of the query before measuring: V8 runs the wasm in
// its baseline tier (Liftoff) first and moves the hot functions to its optimising tier as they
// run, so the first requests of a fresh isolate cost more than later ones.
// `--v8-flag` passes a flag to workerd's V8 (the config's `v8Flags`), e.g. `--no-liftoff`: the
// wasm compiled by the optimising tier only, to tell the tiers apart.
// Needs the Worker built (bash scripts/build-worker.sh). Every server binds 127.0.0.1 on a
// free port and is stopped by the script; every step is bounded by a timeout.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "../../tests/lib/processes.mjs";
import { call, perRequest, post, withWorkerd, workerdConfig } from "./lib.mjs";

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const HERE = join(ROOT, "benches", "worker");
const ESBUILD = join(ROOT, "node_modules", ".bin", "esbuild");

const opts = { skills: 10_000, requests: 200, rounds: 2, warm: 0, wasm: [], bin: null, v8Flags: [] };
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  const value = () => {
    if (i + 1 >= process.argv.length) throw new Error(`${a} needs a value`);
    return process.argv[++i];
  };
  if (a === "--skills") opts.skills = Number(value());
  else if (a === "--requests") opts.requests = Number(value());
  else if (a === "--rounds") opts.rounds = Number(value());
  else if (a === "--warm") opts.warm = Number(value());
  else if (a === "--bin") opts.bin = value();
  else if (a === "--v8-flag") opts.v8Flags.push(value());
  else if (a === "--wasm") {
    const v = value();
    const eq = v.indexOf("=");
    if (eq < 1) throw new Error(`--wasm: ${JSON.stringify(v)} is not LABEL=PATH`);
    opts.wasm.push({ label: v.slice(0, eq), path: resolve(v.slice(eq + 1)) });
  } else throw new Error(`unknown argument ${a} (see the comment at the top of benches/worker/search.mjs)`);
}
for (const k of ["skills", "requests", "rounds"]) {
  if (!Number.isInteger(opts[k]) || opts[k] < 1) throw new Error(`--${k} must be a positive whole number`);
}
if (!Number.isInteger(opts.warm) || opts.warm < 0) throw new Error("--warm must be a whole number");
if (opts.wasm.length === 0) opts.wasm.push({ label: "worker/build", path: join(ROOT, "worker", "build", "skills_edge_worker_bg.wasm") });
for (const w of opts.wasm) {
  if (!existsSync(w.path) || !existsSync(join(dirname(w.path), "skills_edge_worker.js"))) {
    throw new Error(`${w.label}: ${w.path} and its skills_edge_worker.js are needed (bash scripts/build-worker.sh)`);
  }
}
const NATIVE = opts.bin ?? process.env.SKILLS_EDGE_BIN ??
  [join(ROOT, "target", "release", "skills-edge"), join(ROOT, "target", "debug", "skills-edge")].find(existsSync);
if (!NATIVE || !existsSync(NATIVE)) throw new Error("no skills-edge binary: cargo build -p skills-edge-cli (or --bin PATH)");

// ---------------------------------------------------------------------------------------
// The catalog of benches/search.rs, the same bytes.

const MASK = (1n << 64n) - 1n;
const SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "te", "vi", "do", "pe"];
const WORDS = SYLLABLES.flatMap((a) => SYLLABLES.flatMap((b) => ["n", "r", "s", "x"].map((c) => `${a}${b}${c}`)));

function generate(dir, n) {
  let s = 0x9e3779b97f4a7c15n;
  const next = () => {
    s ^= s >> 12n;
    s ^= (s << 25n) & MASK;
    s ^= s >> 27n;
    return Number(((s * 0x2545f4914f6cdd1dn) & MASK) >> 33n);
  };
  const pick = () => {
    const u = next() % 1000;
    return WORDS[Math.floor(Math.floor((u * u) / 1000) * WORDS.length / 1000)];
  };
  for (let i = 0; i < n; i++) {
    const name = `${pick()}-${pick()}-${i}`;
    const description = Array.from({ length: 20 }, pick).join(" ");
    const tags = `${pick()}, group-${i % 50}`;
    const headings = Array.from({ length: 3 }, () => `${pick()} ${pick()}`);
    const folder = join(dir, i % 10 === 0 ? join("private", name) : name);
    mkdirSync(folder, { recursive: true });
    let md = `---\nname: ${name}\ndescription: ${description}\nmetadata:\n  tags: "${tags}"\n---\n`;
    for (const h of headings) md += `## ${h}\n\nText.\n\n`;
    writeFileSync(join(folder, "SKILL.md"), md);
  }
  writeFileSync(join(dir, "skills-edge.toml"), '[[access]]\nskills = ["private/**"]\nscopes = ["team"]\n');
}

// ---------------------------------------------------------------------------------------

const work = tempDir("search-bench");
try {
  const skills = join(work, "skills");
  generate(skills, opts.skills);
  const pack = join(work, "catalog.pack");
  const packed = spawnSync(NATIVE, ["pack", skills, "-o", pack], { encoding: "utf8", timeout: 1_800_000 });
  if (packed.status !== 0) throw new Error(`skills-edge pack failed:\n${packed.stderr}`);
  const query = `${WORDS[3]} ${WORDS[40]} ${WORDS[200]}`;
  const search = call("tools/call", { name: "search_skills", arguments: { query, limit: 10 } });
  // A word the catalog does not hold: the same request without postings to read.
  const absent = call("tools/call", { name: "search_skills", arguments: { query: "zzzq", limit: 10 } });
  // A public skill (not under private/), for `skills/get`.
  const getUri = `skill://${readdirSync(skills).find((f) => f !== "private" && !f.endsWith(".toml"))}/SKILL.md`;
  const get = call("skills/get", { uri: getUri });

  // Each build: its glue bundled with worker/entry.mjs, staged with the pack.
  const stages = opts.wasm.map((w, k) => {
    const stage = join(work, `worker-${k}`);
    mkdirSync(join(stage, "build"), { recursive: true });
    mkdirSync(join(stage, "assets"), { recursive: true });
    writeFileSync(join(stage, "entry.mjs"), readFileSync(join(ROOT, "worker", "entry.mjs")));
    // The glue and its snippets, as scripts/build-worker.sh leaves them.
    cpSync(dirname(w.path), join(stage, "build"), { recursive: true, filter: (f) => !/[/\\]assets$/.test(f) });
    writeFileSync(join(stage, "build", "catalog.pack"), readFileSync(pack));
    execFileSync(ESBUILD, [join(stage, "entry.mjs"), "--bundle", "--format=esm", "--platform=browser",
      "--conditions=workerd,worker,browser", "--external:cloudflare:workers", "--external:*.wasm", "--external:*.pack",
      "--log-level=warning", `--outfile=${join(stage, "worker.mjs")}`], { stdio: "inherit" });
    writeFileSync(join(stage, "skills_edge_worker_bg.wasm"), readFileSync(w.path));
    writeFileSync(join(stage, "catalog.pack"), readFileSync(pack));
    const config = workerdConfig(stage, { by: "benches/worker/search.mjs", bindings: { FALLBACK: "search" } });
    if (opts.v8Flags.length) {
      const text = readFileSync(config, "utf8");
      writeFileSync(config, text.replace("const config :Workerd.Config = (\n",
        `const config :Workerd.Config = (\n  v8Flags = ${JSON.stringify(opts.v8Flags)},\n`));
    }
    return { ...w, config, stage };
  });

  const floor = await withWorkerd(join(HERE, "empty-js.capnp"), HERE, (pid, port) =>
    perRequest(pid, port, call("skills/list"), null, opts.requests));
  console.error(`floor (empty JavaScript Worker): ${floor.toFixed(0)} µs CPU per request`);
  const rows = [];
  for (let round = 1; round <= opts.rounds; round++) {
    for (const s of stages) {
      const row = await withWorkerd(s.config, s.stage, async (pid, port) => {
        const r = await post(port, search, "search_skills");
        const hits = JSON.parse(r.body)?.result?.structuredContent?.results;
        if (r.status !== 200 || !Array.isArray(hits) || hits.length === 0) {
          throw new Error(`search_skills: HTTP ${r.status}: ${r.body.slice(0, 300)}`);
        }
        for (let k = 0; k < opts.warm; k++) await post(port, search, "search_skills");
        return {
          search: await perRequest(pid, port, search, "search_skills", opts.requests),
          absent: await perRequest(pid, port, absent, "search_skills", opts.requests),
          get: await perRequest(pid, port, get, getUri, opts.requests),
        };
      });
      rows.push({ round, label: s.label, ...row });
      console.error(`round ${round}, ${s.label}: search_skills ${row.search.toFixed(0)} µs CPU (absent word ${row.absent.toFixed(0)}), skills/get ${row.get.toFixed(0)} µs CPU per request`);
    }
  }
  console.log(`\n${opts.skills} skills, query ${JSON.stringify(query)} (anonymous), ${opts.requests} requests each; floor ${floor.toFixed(0)} µs` +
    `${opts.warm ? `, after ${opts.warm} calls to warm up` : ""}${opts.v8Flags.length ? `; V8 flags ${opts.v8Flags.join(" ")}` : ""}\n`);
  console.log("| round | build | `search_skills` µs CPU | the same, an absent word | `skills/get` | search − `skills/get` |");
  console.log("|---:|---|---:|---:|---:|---:|");
  for (const r of rows) {
    console.log(`| ${r.round} | ${r.label} | ${r.search.toFixed(0)} | ${r.absent.toFixed(0)} | ${r.get.toFixed(0)} | ${(r.search - r.get).toFixed(0)} |`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
