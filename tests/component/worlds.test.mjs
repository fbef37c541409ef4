// The built components implement the WIT worlds of wit/skills-edge.wit: what `jco wit`
// reads back from each binary.

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT, componentPath, run } from "./harness.mjs";

const JCO = join(ROOT, "node_modules", ".bin", "jco");

async function worldOf(name) {
  const { stdout } = await run(JCO, ["wit", componentPath(name)]);
  const lines = stdout.split("\n").map((l) => l.trim());
  return {
    exports: lines.filter((l) => l.startsWith("export ")),
    imports: lines.filter((l) => l.startsWith("import ")),
  };
}

test("skills-edge.wasm exports the responder and the verifier (world skills)", async () => {
  const w = await worldOf("skills-edge");
  assert.deepEqual(w.exports.sort(), ["export skills-edge:mcp/responder@0.1.0;", "export skills-edge:mcp/verifier@0.1.0;"]);
  assert.ok(!w.imports.some((l) => l.includes("wasi:http")), "no HTTP in the library world");
});

test("skills-edge-http.wasm exports wasi:http/incoming-handler@0.2 (world skills-http)", async () => {
  const w = await worldOf("skills-edge-http");
  assert.equal(w.exports.length, 1);
  assert.match(w.exports[0], /^export wasi:http\/incoming-handler@0\.2\.\d+;$/);
  assert.ok(w.imports.some((l) => /^import wasi:http\/types@0\.2\.\d+;$/.test(l)));
  assert.ok(!w.imports.some((l) => l.includes("outgoing-handler")), "the server makes no outgoing requests");
  for (const l of w.imports) {
    assert.match(l, /^import wasi:[a-z-]+\/[a-z-]+@0\.2\.\d+;$/, "WASI 0.2 imports only");
  }
});
