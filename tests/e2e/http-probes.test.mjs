// Raw HTTP probes of the Worker's Streamable HTTP rules on real workerd (wrangler dev):
// CORS preflight, Origin and Host allow-lists, 405/406/413/415, notifications, batches,
// parse errors, unknown methods, header mirroring. The probes are tests/e2e/lib/http-probes.mjs's
// (private.test.mjs runs them with a token against its AUTH_MODE jwt Worker); here against the
// repository's Worker without authentication.
import { test, before, after } from "node:test";
import { startWorker } from "./lib/worker.mjs";
import { httpProbes } from "./lib/http-probes.mjs";
import assert from "node:assert/strict";
import { send } from "./lib/skills.mjs";

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

// Every answer under the mirror's prefix is inert in a browser, its refusals and preflights too:
// a page that loads one as a script, a stylesheet or a frame gets nothing that runs.
test("a page loads a mirror preflight, 405 or 403 as a script or a page: each is inert", async () => {
  const path = "/.well-known/agent-skills/hello/SKILL.md";
  const port = worker.port;
  const answers = {
    "OPTIONS 204": await send(port, { method: "OPTIONS", path, headers: { origin: "http://localhost:5173", "access-control-request-method": "GET" } }),
    "POST 405": await send(port, { method: "POST", path, body: "x" }),
    "DELETE 405": await send(port, { method: "DELETE", path }),
    "foreign Origin 403": await send(port, { path, headers: { origin: "https://evil.example" } }),
    "foreign Host 403": await send(port, { path, host: "evil.example" }),
    "404": await send(port, { path: "/.well-known/agent-skills/nothing/here.js" }),
  };
  const statuses = Object.fromEntries(Object.entries(answers).map(([k, r]) => [k, r.status]));
  assert.deepEqual(statuses, { "OPTIONS 204": 204, "POST 405": 405, "DELETE 405": 405, "foreign Origin 403": 403, "foreign Host 403": 403, "404": 404 });
  for (const [what, r] of Object.entries(answers)) {
    assert.equal(r.headers["x-content-type-options"], "nosniff", what);
    assert.equal(r.headers["content-security-policy"], "default-src 'none'; sandbox", what);
    assert.equal(r.headers["cross-origin-resource-policy"], "cross-origin", what);
  }
});
