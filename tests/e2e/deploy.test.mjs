// `wrangler deploy --dry-run`: wrangler.toml bundles the built Worker for upload (no account
// needed), and the upload (the wasm, its glue and the catalog pack; Static Assets are not
// part of it) stays small: far inside the 64 MiB a Worker may be, and under 1 MB gzip.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { ROOT, deployDryRun } from "./lib/worker.mjs";
import { assertDocFigure } from "../lib/doc-figures.mjs";
import { WORKER_WASM_GZIP_MAX } from "../lib/size-bounds.mjs";

test("wrangler deploy --dry-run bundles the Worker, under 1 MB gzip", async () => {
  const { kib, gzipKiB, stdout } = await deployDryRun();
  console.log(`upload: ${kib} KiB, gzip ${gzipKiB} KiB`);
  assert.match(stdout, /env\.ASSETS\s+Assets/, "the Static Assets binding is part of the deployment");
  assert.ok(gzipKiB < 1024, `gzip upload ${gzipKiB} KiB (the bound this project keeps: 1 MB)`);
});

test("the docs' figures of the Worker's wasm and glue are the sizes the build wrote", () => {
  const build = join(ROOT, "worker", "build");
  const wasm = readFileSync(join(build, "skills_edge_worker_bg.wasm"));
  const glue = readFileSync(join(build, "skills_edge_worker.js"));
  // gzip -9, as scripts/build-worker.sh prints them.
  const gz = (bytes) => gzipSync(bytes, { level: 9 }).length;
  console.log(`wasm ${wasm.length} bytes (${gz(wasm)} gzipped), glue ${glue.length} bytes (${gz(glue)} gzipped)`);
  assertDocFigure("worker-wasm-raw", wasm.length);
  assertDocFigure("worker-wasm-gzip", gz(wasm));
  assertDocFigure("worker-glue-gzip", gz(glue));
});

test("the Worker's wasm stays within its bound (tests/lib/size-bounds.mjs)", () => {
  const wasm = readFileSync(join(ROOT, "worker", "build", "skills_edge_worker_bg.wasm"));
  const gzipped = gzipSync(wasm, { level: 9 }).length;
  assert.ok(
    gzipped <= WORKER_WASM_GZIP_MAX,
    `the Worker's wasm is ${gzipped} bytes gzipped, over its bound of ${WORKER_WASM_GZIP_MAX} ` +
      "(tests/lib/size-bounds.mjs): twiggy top/diff on worker/build/skills_edge_worker_bg.wasm shows what grew; " +
      "make it smaller, or raise the bound there and say why in docs/performance.md",
  );
});
