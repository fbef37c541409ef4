// The R2 benchmark (benches/worker/r2.mjs) run once, small, so it keeps working: a catalog of
// 20 generated skills served from a bucket and embedded on bare workerd, each kind of request
// measured, a switch to a second revision served, the isolates' memory read. Its figures are
// not judged here (a timed test proves nothing on a shared machine); docs/performance.md gives
// those of a full run on an idle one. The benchmark itself fails when a Worker does not answer
// or the new revision is not served after the refresh. About 6 s.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "./lib/worker.mjs";

test("benches/worker/r2.mjs runs: every request kind measured on both Workers, the switch served", async () => {
  const args = [join(ROOT, "benches", "worker", "r2.mjs"), "--skills", "20", "--requests", "3", "--warm", "3", "--rounds", "1"];
  const out = await new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: ROOT, timeout: 240_000, maxBuffer: 16 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? (err.code ?? 1) : 0, stdout, stderr }),
    );
  });
  assert.equal(out.code, 0, `${out.stdout}${out.stderr}`);
  for (const kind of ["list", "get", "read"]) {
    assert.match(out.stdout, new RegExp(`^\\| ${kind} \\| \\d+ \\| \\d+ \\| \\d+\\.\\d\\d \\|$`, "m"), `${kind}: both Workers measured\n${out.stdout}`);
  }
  assert.match(out.stdout, /^switch to a new revision: \d+\.\d ms of workerd CPU/m);
  assert.match(out.stdout, /^isolate after its first answer: embedded \d+\.\d MB .*; r2 \d+\.\d MB/m);
});
