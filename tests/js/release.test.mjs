// Ready to publish: the npm package's and the crates' metadata, and what a release would
// upload. scripts/test.d/37-deploy-npm.sh runs `npm publish --dry-run --json` in pkg/ and
// `cargo package --list` of skills-edge and skills-edge-cli into SKILLS_EDGE_RELEASE_DIR
// (npm-publish.json, skills-edge.files, cli.files); this file checks them, so a file the
// package needs that is left out of `files`, or a stray one that goes in, fails here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const DIR = process.env.SKILLS_EDGE_RELEASE_DIR;
const pkg = JSON.parse(readFileSync(join(ROOT, "pkg", "package.json"), "utf8"));

/** `key = "value"` of a Cargo.toml's [package] table. */
function cargoField(file, key) {
  const text = readFileSync(join(ROOT, file), "utf8");
  const table = text.slice(text.indexOf("[package]"), text.indexOf("\n[", text.indexOf("[package]") + 1));
  return new RegExp(`^${key} = (.+)$`, "m").exec(table)?.[1];
}

test("package.json has the metadata a published package needs", () => {
  assert.equal(pkg.name, "skills-edge");
  assert.equal(JSON.stringify(pkg.version), cargoField("Cargo.toml", "version"), "the npm and crate versions agree");
  assert.equal(JSON.stringify(pkg.license), cargoField("Cargo.toml", "license"), "the same license as the crates");
  assert.equal(pkg.repository.url, "git+https://github.com/skills-edge/skills-edge.git");
  assert.equal(pkg.repository.directory, "pkg");
  assert.ok(pkg.keywords.length >= 5);
  assert.match(pkg.engines.node, /^>=\d+$/);
  assert.equal(pkg.bin["skills-edge"], "./bin/skills-edge.mjs");
  assert.equal(pkg.publishConfig.access, "public");
  for (const f of ["README.md", "LICENSE-MIT", "LICENSE-APACHE"]) assert.ok(pkg.files.includes(f), `files lists ${f}`);
  // Every JavaScript entry point of `exports` comes with its declarations.
  const walk = (node, path) => {
    if (typeof node === "string") return;
    const keys = Object.keys(node);
    if (keys.includes("default") && /\.(c|m)?js$/.test(typeof node.default === "string" ? node.default : "")) {
      assert.ok(typeof node.types === "string", `exports${path} has types`);
      assert.equal(keys[0], "types", `exports${path}: "types" comes first`);
    }
    for (const k of keys) walk(node[k], `${path}.${k}`);
  };
  walk(pkg.exports, "");
  for (const k of ["Cargo.toml", "cli/Cargo.toml"]) {
    for (const field of ["description", "license", "repository", "readme", "keywords", "categories", "rust-version", "homepage", "documentation"]) {
      assert.ok(cargoField(k, field), `${k} has ${field}`);
    }
    assert.equal(cargoField(k, "version"), cargoField("Cargo.toml", "version"));
  }
  const changelog = readFileSync(join(ROOT, "CHANGELOG.md"), "utf8");
  assert.match(changelog, /^## \[Unreleased\]$/m, "CHANGELOG.md has an Unreleased section");
});

test("npm publish --dry-run uploads every file the package lists, and nothing else", { skip: !DIR && "SKILLS_EDGE_RELEASE_DIR is not set (scripts/test.d/37-deploy-npm.sh sets it)" }, () => {
  const out = JSON.parse(readFileSync(join(DIR, "npm-publish.json"), "utf8"));
  // npm prints the report itself or keyed by the package name.
  const report = out.files ? out : out[pkg.name];
  assert.equal(report.name, pkg.name);
  assert.equal(report.version, pkg.version);
  const files = new Set(report.files.map((f) => f.path));
  // `files` names files, and folders (ending in "/") whose every file goes in.
  const listed = (f) => f === "package.json" || pkg.files.some((e) => (e.endsWith("/") ? f.startsWith(e) : f === e));
  assert.deepEqual([...files].filter((f) => !listed(f)), [], "only listed files are published");
  for (const e of pkg.files) {
    assert.ok(existsSync(join(ROOT, "pkg", e)), `${e} exists`);
    assert.ok([...files].some((f) => (e.endsWith("/") ? f.startsWith(e) : f === e)), `${e} is published`);
  }
  // The no-Rust deployment: the prebuilt Worker and its template are in the package, and the
  // same Worker as a handler (worker/skills.mjs) for AUTH_MODE = "provider".
  for (const f of ["worker/entry.mjs", "worker/skills.mjs", "worker/wrangler.toml", "worker/versions.json", "worker/build/skills_edge_worker_bg.wasm", "worker/build/skills_edge_worker.js"]) {
    assert.ok(files.has(f), `${f} is published`);
  }
  // Every module the Worker's glue imports (its snippets) is published.
  const glue = readFileSync(join(ROOT, "pkg", "worker", "build", "skills_edge_worker.js"), "utf8");
  const imports = [...glue.matchAll(/from ['"]\.\/(snippets\/[^'"]+)['"]/g)].map((m) => `worker/build/${m[1]}`);
  assert.ok(imports.length > 0);
  for (const f of imports) assert.ok(files.has(f), `${f} (imported by the glue) is published`);
  // The handler imports exactly the glue and wasm the package ships beside it.
  const handler = readFileSync(join(ROOT, "pkg", "worker", "skills.mjs"), "utf8");
  for (const m of handler.matchAll(/from ['"]\.\/([^'"]+)['"]/g)) assert.ok(files.has(`worker/${m[1]}`), `worker/${m[1]} (imported by worker/skills.mjs) is published`);
  // Every file `exports` points to is published.
  const targets = [];
  const collect = (node) => (typeof node === "string" ? targets.push(node) : Object.values(node).forEach(collect));
  collect(pkg.exports);
  for (const t of targets.filter((t) => !t.includes("*"))) assert.ok(files.has(t.replace(/^\.\//, "")), `${t} (in exports) is published`);
  // The verifier module (`skills-edge/verifier`): its Node and web glue and declarations, and its
  // one .wasm.
  for (const f of [
    "verifier/node/package.json", "verifier/node/skills_edge_verifier.js", "verifier/node/skills_edge_verifier.d.ts",
    "verifier/web/skills_edge_verifier.js", "verifier/web/skills_edge_verifier.d.ts", "verifier/web/skills_edge_verifier_bg.wasm",
  ]) {
    assert.ok(files.has(f), `${f} is published`);
  }
  assert.equal([...files].filter((f) => f.startsWith("verifier/")).length, 6, "the verifier module is six files");
  console.log(`npm: ${report.files.length} files, ${report.size} bytes packed, ${report.unpackedSize} unpacked`);
});

test("cargo package --list of the crates holds their sources, the skills build.rs compiles and the licenses", { skip: !DIR && "SKILLS_EDGE_RELEASE_DIR is not set (scripts/test.d/37-deploy-npm.sh sets it)" }, () => {
  const list = (name) => new Set(readFileSync(join(DIR, name), "utf8").split("\n").filter(Boolean));
  const crate = list("skills-edge.files");
  // The declarations src/js/mod.rs includes (include_str!) with the `js` and `web-verifier` features.
  for (const f of ["Cargo.toml", "README.md", "build.rs", "src/lib.rs", "src/js/skills-edge.d.ts", "src/js/web-verifier.d.ts", "src/options.rs", "src/pack/mod.rs", "skills/code-review/SKILL.md", "LICENSE-MIT", "LICENSE-APACHE"]) {
    assert.ok(crate.has(f), `skills-edge: ${f}`);
  }
  for (const f of crate) {
    assert.doesNotMatch(f, /^(node_modules|target|pkg|worker|catalog|cli|rmcp|fuzz|component|scripts|tests\/(e2e|js|judges|lib|rmcp))\//, `skills-edge does not ship ${f}`);
  }
  // The command: its sources and the licenses; the library's sources are the library's.
  const cli = list("cli.files");
  for (const f of ["Cargo.toml", "README.md", "src/main.rs", "src/verify.rs", "LICENSE-MIT", "LICENSE-APACHE"]) {
    assert.ok(cli.has(f), `skills-edge-cli: ${f}`);
  }
  for (const f of cli) {
    assert.doesNotMatch(f, /^(tests|skills|build\.rs)(\/|$)/, `skills-edge-cli does not ship ${f}`);
  }
});
