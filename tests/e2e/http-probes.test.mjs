// Raw HTTP probes of the Worker's Streamable HTTP rules on real workerd (wrangler dev):
// CORS preflight, Origin and Host allow-lists, 405/406/413/415, notifications, batches,
// parse errors, unknown methods, header mirroring. The probes are tests/e2e/lib/http-probes.mjs's
// (private.test.mjs runs them with a token against its AUTH_MODE jwt Worker); here against the
// repository's Worker without authentication.
import { test, before, after } from "node:test";
import { startWorker } from "./lib/worker.mjs";
import { httpProbes } from "./lib/http-probes.mjs";

const MAX_BODY_BYTES = 65536;

let worker;
before(async () => {
  worker = await startWorker({ vars: { MAX_BODY_BYTES: String(MAX_BODY_BYTES) } });
});
after(async () => {
  await worker?.stop();
});

for (const [name, run] of httpProbes({
  origin: () => worker.origin,
  expectations: { maxBodyBytes: MAX_BODY_BYTES },
  logTail: () => worker.logTail(30),
})) {
  test(name, run);
}
