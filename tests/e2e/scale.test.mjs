// A catalog shaped like a real one, at the spec's limits, on the assets-backed Worker (wrangler
// dev, real workerd). scripts/gen-catalog.mjs writes 17 skills: 16 like the ones people
// publish (markdown, scripts, fonts, images, office templates) and one at exactly 512 files
// and 16 MiB. It is packed with the native `skills-edge pack --assets` at its default inline
// limit, next to the Worker scripts/build-worker.sh built (the wasm does not depend on the
// catalog). Then:
//   * `wrangler deploy --dry-run` reports the Worker's upload under 1 MB gzip, the size the
//     docs state;
//   * every file reads back byte-exact through /mcp and through the mirror;
//   * the official SDK's SkillsClient verifies every file (size, digest, frontmatter).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ROOT, copyWorker, deployDryRun, startWorker } from "./lib/worker.mjs";
import { allSkills, mirrorEveryFile, readEveryFile, verifyWithSdk } from "./lib/skills.mjs";
import { tempDir } from "../lib/processes.mjs";
import { assertDocFigure } from "../lib/doc-figures.mjs";
import { generateCatalog, MAX_BYTES, MAX_FILES } from "../../scripts/gen-catalog.mjs";

const NATIVE = process.env.SKILLS_EDGE_BIN ?? join(process.env.CARGO_TARGET_DIR ?? join(ROOT, "target"), "debug", "skills-edge");
const dir = tempDir("scale");
const SKILLS = join(dir, "skills");
let config;
let generated;
let packSummary;
let worker;
let skills;

before(async () => {
  if (!existsSync(NATIVE)) throw new Error(`${NATIVE} is missing: run bash scripts/native-bin.sh first (or set SKILLS_EDGE_BIN)`);
  generated = generateCatalog(SKILLS);
  config = copyWorker(join(dir, "worker"), { catalog: false });
  const build = join(dir, "worker", "worker", "build");
  const packed = spawnSync(NATIVE, ["pack", SKILLS, "--assets", join(build, "assets"), "-o", join(build, "catalog.pack")], {
    encoding: "utf8",
  });
  if (packed.status !== 0) throw new Error(`skills-edge pack failed:\n${packed.stderr}`);
  packSummary = packed.stderr;
  worker = await startWorker({ config, readyTimeoutMs: 180_000 });
  skills = await allSkills(worker.port);
});

after(async () => {
  await worker?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("the generated catalog is shaped like a real one, with one skill at exactly 512 files and 16 MiB", () => {
  console.log(`generated: ${JSON.stringify(generated)}`);
  assert.ok(generated.files >= 300 && generated.bytes >= 10_000_000, JSON.stringify(generated));
  assert.ok(generated.textFiles > 0 && generated.binaryFiles > 0);
  assert.equal(skills.length, generated.skills);
  const files = skills.reduce((n, s) => n + s.resources.length, 0);
  assert.equal(files, generated.files);
  const full = skills.filter((s) => s.resources.length === MAX_FILES && s.resources.reduce((n, r) => n + r.size, 0) === MAX_BYTES);
  assert.equal(full.length, 1, "one skill at the limits, served whole");
});

test("wrangler deploy --dry-run reports the Worker under 1 MB gzip", async () => {
  const { kib, gzipKiB } = await deployDryRun(config);
  const assets = readdirSync(join(dir, "worker", "worker", "build", "assets")).length;
  console.log(`upload: ${kib} KiB, gzip ${gzipKiB} KiB; ${assets} assets`);
  assert.ok(gzipKiB < 1024, `gzip upload ${gzipKiB} KiB`);
  assert.ok(assets > 0);
  // The docs state this upload (docs/serving.md, docs/performance.md).
  assertDocFigure("scale-upload-gzip", gzipKiB * 1024);
});

test("every file reads back byte-exact through /mcp and through the mirror", async () => {
  const viaMcp = await readEveryFile(worker.port, SKILLS, skills);
  assert.equal(viaMcp.files, generated.files);
  assert.equal(viaMcp.bytes, generated.bytes);
  const viaMirror = await mirrorEveryFile(worker.port, SKILLS, skills);
  assert.equal(viaMirror.files, generated.files, "every skill is mirrored");
  assert.equal(viaMirror.bytes, generated.bytes);
  console.log(`read ${viaMcp.files} files (${viaMcp.bytes} bytes) through /mcp and the mirror; ${viaMirror.archives} archives of ${viaMirror.skills} skills, ${viaMirror.archiveBytes} bytes`);
});

test("the official SDK's SkillsClient verifies every file", async () => {
  const r = await verifyWithSdk(worker.url);
  assert.equal(r.skills, generated.skills);
  assert.equal(r.files, generated.files);
  assert.equal(r.verified, generated.files, "every file was checked against its entry");
});

test("the pack summary names what was left out", () => {
  console.log(packSummary.trim());
  assert.match(packSummary, /: wrote .*catalog\.pack \(\d+ bytes; \d+ files, \d+ bytes inline\); \d+ assets \(\d+ files and \d+ mirror archives? left out, \d+ bytes\)/);
});
