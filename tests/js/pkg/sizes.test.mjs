// The size of the installed package's WebAssembly module, as the docs state it
// (docs/performance.md, pkg/README.md; markers read by the repository's tests/lib/doc-figures.mjs).
import { test } from "node:test";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { REPO } from "./common.mjs";

test("the docs' figures of the package's .wasm are the size of the installed file", async () => {
  const { assertDocFigure } = await import(pathToFileURL(join(REPO, "tests", "lib", "doc-figures.mjs")).href);
  const pkg = dirname(createRequire(import.meta.url).resolve("skills-edge/package.json"));
  const wasm = readFileSync(join(pkg, "web", "skills_edge_bg.wasm"));
  const gzip = gzipSync(wasm, { level: 9 }).length; // gzip -9, as scripts/build-pkg.sh prints it
  console.log(`skills_edge_bg.wasm: ${wasm.length} bytes, ${gzip} gzipped`);
  assertDocFigure("npm-wasm-raw", wasm.length);
  assertDocFigure("npm-wasm-gzip", gzip);
});
