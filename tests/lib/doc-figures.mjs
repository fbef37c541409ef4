// The size figures the docs state, marked `<!-- figure: NAME -->VALUE UNIT` (KB, KiB, MB or
// MiB right after the marker), checked against what the build produced: a figure that drifts
// from the measured size by more than TOLERANCE fails its test, so the docs cannot keep a size
// the build no longer has. The markers are HTML comments, invisible when the Markdown is shown.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));

/** How far a figure may be from the measured size (the figures are rounded). */
export const TOLERANCE = 0.03;

const UNITS = { KB: 1000, KiB: 1024, MB: 1000 * 1000, MiB: 1024 * 1024 };
const MARKER = /<!-- figure: ([a-z0-9-]+) -->([\d,]+(?:\.\d+)?) ?(KB|KiB|MB|MiB)\b/g;

/** The Markdown files that may carry figures: README.md, pkg/README.md and docs/*.md. */
export function docFiles(root = ROOT) {
  const docs = readdirSync(join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => join(root, "docs", f));
  return [join(root, "README.md"), join(root, "pkg", "README.md"), ...docs];
}

/** Every marked figure of `text`: `{ name, text, bytes }`, `text` as written (`126 KB`). */
export function figuresIn(text) {
  return [...text.matchAll(MARKER)].map((m) => ({
    name: m[1],
    text: `${m[2]} ${m[3]}`,
    bytes: Number(m[2].replaceAll(",", "")) * UNITS[m[3]],
  }));
}

/** Every marked figure of the docs, each with the file it is in. */
export function allDocFigures(files = docFiles()) {
  return files.flatMap((file) =>
    figuresIn(readFileSync(file, "utf8")).map((f) => ({ ...f, file: relative(ROOT, file) })),
  );
}

/** Every occurrence of the figure `name` in the docs. */
export function docFigures(name, files = docFiles()) {
  return allDocFigures(files).filter((f) => f.name === name);
}

/**
 * Asserts that the docs state `name` at least once and that every occurrence is within
 * TOLERANCE of `bytes`, the size measured now; the message says what to write instead.
 */
export function assertDocFigure(name, bytes, files = docFiles()) {
  const found = docFigures(name, files);
  assert.ok(found.length > 0, `no <!-- figure: ${name} --> in README.md, pkg/README.md or docs/`);
  for (const f of found) {
    const drift = Math.abs(f.bytes - bytes) / bytes;
    assert.ok(
      drift <= TOLERANCE,
      `${f.file}: figure ${name} says ${f.text}, the build measures ${bytes} bytes ` +
        `(${(bytes / 1000).toFixed(1)} KB, ${(bytes / 1024).toFixed(1)} KiB): update the figure`,
    );
  }
}
