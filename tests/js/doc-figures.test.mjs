// The docs' size markers: the parser of tests/lib/doc-figures.mjs, and the markers the docs
// carry (each known by a test that measures it). The measuring happens where the build is:
// the Worker's step (tests/e2e/deploy.test.mjs, tests/e2e/scale.test.mjs) and the package's
// (tests/js/pkg/sizes.test.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { allDocFigures, assertDocFigure, docFigures, figuresIn } from "../lib/doc-figures.mjs";

/** The figures some test measures; a marker with another name would never be checked. */
const MEASURED = [
  "worker-wasm-raw", // tests/e2e/deploy.test.mjs
  "worker-wasm-gzip",
  "worker-glue-gzip",
  "scale-upload-gzip", // tests/e2e/scale.test.mjs
  "npm-wasm-raw", // tests/js/pkg/sizes.test.mjs
  "npm-wasm-gzip",
  "npm-verifier-wasm-raw", // tests/js/pkg/sizes.test.mjs
  "npm-verifier-wasm-gzip",
  "npm-verifier-glue-gzip",
];

test("a marker gives the figure as written and in bytes", () => {
  const text = "a <!-- figure: a -->126 KB, <!-- figure: b -->791 KiB and <!-- figure: c -->1,065 KB, <!-- figure: d -->1.5 MB";
  assert.deepEqual(figuresIn(text), [
    { name: "a", text: "126 KB", bytes: 126_000 },
    { name: "b", text: "791 KiB", bytes: 791 * 1024 },
    { name: "c", text: "1,065 KB", bytes: 1_065_000 },
    { name: "d", text: "1.5 MB", bytes: 1_500_000 },
  ]);
  assert.deepEqual(figuresIn("126 KB without a marker"), []);
});

test("a figure within 3 % passes, one further off fails naming the file and the size", () => {
  const dir = mkdtempSync(join(tmpdir(), "doc-figures-"));
  try {
    mkdirSync(join(dir, "docs"));
    const file = join(dir, "docs", "sizes.md");
    writeFileSync(file, "the upload: <!-- figure: upload -->687 KiB\n");
    assertDocFigure("upload", 690 * 1024, [file]);
    assert.throws(() => assertDocFigure("upload", 791 * 1024, [file]), /figure upload says 687 KiB, the build measures 809984 bytes/);
    assert.throws(() => assertDocFigure("missing", 1, [file]), /no <!-- figure: missing -->/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("every marked figure in the docs is one a test measures, and each is stated", () => {
  for (const name of MEASURED) assert.ok(docFigures(name).length > 0, `no figure ${name} in the docs`);
  for (const f of allDocFigures()) {
    assert.ok(MEASURED.includes(f.name), `${f.file}: no test measures the figure ${f.name}`);
  }
});
