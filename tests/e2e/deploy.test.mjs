// `wrangler deploy --dry-run`: wrangler.toml bundles the built Worker for upload (no account
// needed), and the upload stays well inside the free plan's 3 MB compressed limit.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./lib/worker.mjs";
import { tempDir } from "../lib/processes.mjs";

test("wrangler deploy --dry-run bundles the Worker, far below 3 MB gzip", async () => {
  const out = tempDir("deploy");
  try {
    const stdout = await new Promise((resolve, reject) => {
      execFile(
        process.execPath,
        [join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js"), "deploy", "--dry-run", "--outdir", out],
        {
          cwd: ROOT,
          timeout: 120_000,
          env: {
            ...process.env,
            WRANGLER_SEND_METRICS: "false",
            CLOUDFLARE_CF_FETCH_ENABLED: "false",
            WRANGLER_HIDE_BANNER: "true",
            WRANGLER_LOG_PATH: join(out, "logs"),
          },
        },
        (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stdout}\n${stderr}`)) : resolve(stdout)),
      );
    });
    const m = stdout.match(/Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/);
    assert.ok(m, stdout);
    const gzipKiB = Number(m[2]);
    console.log(`upload: ${m[1]} KiB, gzip ${m[2]} KiB`);
    assert.ok(gzipKiB < 1024, `gzip upload ${gzipKiB} KiB (free plan limit: 3 MB)`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
