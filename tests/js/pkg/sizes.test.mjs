// The sizes of the installed package's WebAssembly modules, as the docs state them
// (docs/performance.md, pkg/README.md, docs/verifying.md; markers read by the repository's
// tests/lib/doc-figures.mjs), and the bound the verifier module must stay within
// (tests/lib/size-bounds.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { REPO } from "./common.mjs";

const pkg = dirname(createRequire(import.meta.url).resolve("skills-edge/package.json"));
const lib = async (name) => import(pathToFileURL(join(REPO, "tests", "lib", name)).href);
/** The file of the installed package, raw and after gzip -9 (as scripts/build-pkg.sh prints it). */
const sizes = (path) => {
  const bytes = readFileSync(join(pkg, path));
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
};

test("the docs' figures of the package's .wasm are the size of the installed file", async () => {
  const { assertDocFigure } = await lib("doc-figures.mjs");
  const wasm = sizes("web/skills_edge_bg.wasm");
  console.log(`skills_edge_bg.wasm: ${wasm.raw} bytes, ${wasm.gzip} gzipped`);
  assertDocFigure("npm-wasm-raw", wasm.raw);
  assertDocFigure("npm-wasm-gzip", wasm.gzip);
});

test("the verifier module stays within its bound, and the docs' figures are its size", async () => {
  const { assertDocFigure } = await lib("doc-figures.mjs");
  const { VERIFIER_WASM_GZIP_MAX } = await lib("size-bounds.mjs");
  const wasm = sizes("verifier/web/skills_edge_verifier_bg.wasm");
  const glue = sizes("verifier/web/skills_edge_verifier.js");
  const main = sizes("web/skills_edge_bg.wasm");
  console.log(`skills_edge_verifier_bg.wasm: ${wasm.raw} bytes, ${wasm.gzip} gzipped ` +
    `(bound ${VERIFIER_WASM_GZIP_MAX}, ${VERIFIER_WASM_GZIP_MAX - wasm.gzip} to spare); ` +
    `its web glue ${glue.raw} bytes, ${glue.gzip} gzipped`);
  assert.ok(wasm.gzip <= VERIFIER_WASM_GZIP_MAX,
    `the verifier module's .wasm is ${wasm.gzip} bytes gzipped, above its bound of ${VERIFIER_WASM_GZIP_MAX} ` +
    "(tests/lib/size-bounds.mjs): it holds only src/js/verifier.rs and src/js/host.rs (feature web-verifier); " +
    "find what the change made reachable from them");
  // What it is for: a page that only verifies loads far less than the whole package.
  assert.ok(wasm.gzip * 2 < main.gzip, `verifier ${wasm.gzip} bytes, main module ${main.gzip} bytes gzipped`);
  assertDocFigure("npm-verifier-wasm-raw", wasm.raw);
  assertDocFigure("npm-verifier-wasm-gzip", wasm.gzip);
  assertDocFigure("npm-verifier-glue-gzip", glue.gzip);
});
