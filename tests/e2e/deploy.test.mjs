// `wrangler deploy --dry-run`: wrangler.toml bundles the built Worker for upload (no account
// needed), and the upload (the wasm, its glue and the catalog pack; Static Assets are not
// part of it) stays well inside the free plan's 3 MB compressed limit.
import { test } from "node:test";
import assert from "node:assert/strict";
import { deployDryRun } from "./lib/worker.mjs";

test("wrangler deploy --dry-run bundles the Worker, far below 3 MB gzip", async () => {
  const { kib, gzipKiB, stdout } = await deployDryRun();
  console.log(`upload: ${kib} KiB, gzip ${gzipKiB} KiB`);
  assert.match(stdout, /env\.ASSETS\s+Assets/, "the Static Assets binding is part of the deployment");
  assert.ok(gzipKiB < 1024, `gzip upload ${gzipKiB} KiB (free plan limit: 3 MB)`);
});
