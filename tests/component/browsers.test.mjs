// The HTTP component whose every caller has the `SCOPES` variable's grant (the host grants it
// by deciding who may reach the instance, so a browser brings it along to every request):
// what a page of another site can make a browser do with the mirror. The component is built
// a second time over tests/fixtures/active-skills/ (build/component/active/, by
// 40-component.sh) and served twice by the runtime of the run (`jco serve` or `wasmtime
// serve`, harness.mjs): with `SCOPES=billing` (the granted caller) and without (the anonymous
// one). The cases are tests/lib/browser-probes.mjs's, shared with the npm package's
// `SkillsServer.fetch` (tests/js/pkg/browsers.test.mjs); requests go out with node:http, so
// every header is exactly what a probe says. Then the Worker's raw HTTP probes
// (tests/e2e/lib/http-probes.mjs: CORS, Host and Origin, 405/406/413/415, JSON-RPC errors,
// header mirroring and clipping, the mirror's browser headers) against the instance with
// `SCOPES`, as tests/e2e/private.test.mjs runs them with a token; both instances have
// `MAX_BODY_BYTES` 65536 for their 413 probe.
import { test, before, after } from "node:test";
import { request as httpRequest } from "node:http";
import { RUNTIME, RUNTIMES, componentPath, remove, scratchDir, serve } from "./harness.mjs";
import { SCOPE, browserProbes } from "../lib/browser-probes.mjs";
import { httpProbes } from "../e2e/lib/http-probes.mjs";

const MAX_BODY_BYTES = 65536;

/** Headers a runtime adds to every answer by itself, which say nothing of the request. */
const RUNTIME_HEADERS = new Set(["date", "connection", "keep-alive"]);

let dir;
let granted;
let anonymous;

before(async () => {
  dir = scratchDir(`browsers-${RUNTIME}`);
  const wasm = componentPath("active/skills-edge-http");
  // `jco serve` is Node's HTTP server, whose 16 KiB default bound on a request head answers a
  // 60,000-character header with its own empty 431 before the component runs: raised here so
  // that the header reaches the component (`wasmtime serve` lets it through as it is).
  const nodeOptions = `${process.env.NODE_OPTIONS ?? ""} --max-http-header-size=131072`.trim();
  const runtimeEnv = { MAX_BODY_BYTES: String(MAX_BODY_BYTES), ...(RUNTIME === "jco" ? { NODE_OPTIONS: nodeOptions } : {}) };
  [granted, anonymous] = await Promise.all([
    serve(wasm, { scratch: dir, env: { ...runtimeEnv, SCOPES: SCOPE } }),
    serve(wasm, { scratch: dir, env: runtimeEnv }),
  ]);
});

after(async () => {
  await Promise.all([granted?.stop(), anonymous?.stop()]);
  remove(dir);
});

/** One request to `server`; resolves `{ status, headers, body }` (the body a Buffer). */
function send(server, { method, path, headers, body }) {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port: server.port,
        method,
        path,
        headers: { host: `localhost:${server.port}`, connection: "close", ...headers },
        timeout: 20_000,
      },
      (res) => {
        const parts = [];
        res.on("data", (d) => parts.push(d));
        res.on("end", () => {
          const kept = Object.entries(res.headers).filter(([k]) => !RUNTIME_HEADERS.has(k));
          resolve({ status: res.statusCode, headers: Object.fromEntries(kept), body: Buffer.concat(parts) });
        });
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`${method} ${path}: no answer within 20 s`)));
    req.on("error", reject);
    req.end(body);
  });
}

const get = (path, headers, isGranted) => send(isGranted ? granted : anonymous, { method: "GET", path, headers });
const post = (headers, body) => send(granted, { method: "POST", path: "/mcp", headers, body });

for (const [name, run] of browserProbes({ get, post })) {
  test(`${RUNTIMES[RUNTIME]} with SCOPES: ${name}`, run);
}

for (const [name, run] of httpProbes({
  origin: () => `http://127.0.0.1:${granted.port}`,
  expectations: { maxBodyBytes: MAX_BODY_BYTES },
  logTail: () => granted.log().slice(-4000),
})) {
  test(`${RUNTIMES[RUNTIME]} with SCOPES: HTTP probe: ${name}`, run);
}
