// The package's verifier module, `skills-edge/verifier`: what it exports (the host part of the
// package and nothing else), how Node resolves and loads it (ES module import, require, and its
// web build initialised by hand, as a bundler or a Worker does), and that its errors are the
// package's. Its behaviour is checked by verifier.test.mjs and host.test.mjs, which run every
// test through both modules.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as main from "skills-edge";
import * as verifier from "skills-edge/verifier";
import { PKG_DIR, digestOf, entryFor, refused } from "./common.mjs";

const require = createRequire(import.meta.url);

/** The exports of the package's host part (src/js/verifier.rs and src/js/host.rs). */
const HOST_PART = [
  "SkillHost", "approvalFingerprint", "checkFileDigest", "checkFileSize", "checkLimits", "errorCodes",
  "isSkillsEdgeError", "readResultContent", "resolveReference", "sha256Digest", "skillRevision",
  "validateEntry", "verifyEnvelope", "verifyFile", "verifyFileDigest", "verifyReadResult", "verifySkillMd", "verifySkillMdDigest",
];

const U = "skill://a/SKILL.md";
const X = "skill://a/x.md";
const MD = "---\nname: a\ndescription: d\n---\nbody\n";
const entry = entryFor(U, { name: "a", description: "d" }, [[U, MD], [X, "x"]]);

/** The module's own checks, run on each way of loading it. */
function verifies(m) {
  const frozen = m.validateEntry(entry);
  assert.ok(Object.isFrozen(frozen));
  assert.deepEqual(m.verifyFile(frozen, X, "x"), { uri: X, size: 1, digest: digestOf("x"), verified: true });
  refused(() => m.verifyFile(entry, X, "y"), "digest-mismatch", { uri: X, expected: digestOf("x"), actual: digestOf("y") });
  const host = new m.SkillHost();
  host.addServer("s");
  host.register("s", entry);
  assert.equal(host.load("s", U, MD).frontmatter.name, "a");
  assert.equal(host.read("s", U, "x.md", "x").verified, true);
  refused(() => host.read("s", U, "x.md", "y"), "digest-mismatch", { uri: X });
}

test("it exports the host part of the package and nothing else", () => {
  // `default` (and, from Node 23, `module.exports`) is the CommonJS module object itself.
  const names = Object.keys(verifier).filter((k) => k !== "default" && k !== "module.exports").sort();
  assert.deepEqual(names, [...HOST_PART].sort());
  for (const name of names) assert.equal(typeof verifier[name], typeof main[name], name);
  // The rest of the package stays in the main module.
  for (const name of ["SkillsServer", "compileCatalog", "inspectPack", "buildOptions", "SkillsClientCore", "runVerifyCommand", "verifyWellKnown", "parseCommand", "verifyFileAsync"]) {
    assert.ok(name in main, name);
    assert.equal(name in verifier, false, name);
  }
});

test("Node resolves it to its own CommonJS glue, which loads its own .wasm", () => {
  const resolved = fileURLToPath(import.meta.resolve("skills-edge/verifier"));
  assert.equal(resolved, join(PKG_DIR, "verifier", "node", "skills_edge_verifier.js"));
  assert.equal(require.resolve("skills-edge/verifier"), resolved);
  const glue = readFileSync(resolved, "utf8");
  assert.match(glue, /^const wasmPath = `\$\{__dirname\}\/\.\.\/web\/skills_edge_verifier_bg\.wasm`;$/m);
  assert.doesNotMatch(glue, /skills_edge_bg\.wasm/);
  assert.equal(require("skills-edge/verifier").verifyFile, verifier.verifyFile, "import and require share one instance");
  verifies(verifier);
});

test("its web build runs once initialised with the .wasm, as in a bundler or a Worker", async () => {
  const web = await import(pathToFileURL(join(PKG_DIR, "verifier", "web", "skills_edge_verifier.js")).href);
  assert.deepEqual(Object.keys(web).filter((k) => !["default", "initSync"].includes(k)).sort(), [...HOST_PART].sort());
  const wasm = readFileSync(join(PKG_DIR, "verifier", "web", "skills_edge_verifier_bg.wasm"));
  assert.equal(
    fileURLToPath(import.meta.resolve("skills-edge/verifier/skills_edge_verifier_bg.wasm")),
    join(PKG_DIR, "verifier", "web", "skills_edge_verifier_bg.wasm"),
  );
  web.initSync({ module: wasm });
  verifies(web);
});

test("its errors are the package's: the same codes, recognised by either module", () => {
  assert.deepEqual(verifier.errorCodes(), main.errorCodes());
  const fromVerifier = refused(() => verifier.verifyFile(entry, X, "y"), "digest-mismatch");
  const fromMain = refused(() => main.verifyFile(entry, X, "y"), "digest-mismatch");
  for (const m of [main, verifier]) {
    assert.equal(m.isSkillsEdgeError(fromVerifier), true);
    assert.equal(m.isSkillsEdgeError(fromMain), true);
    assert.equal(m.isSkillsEdgeError(new Error("x")), false);
  }
  assert.equal(fromVerifier.message, fromMain.message);
});

test("a SkillHost method called on a freed object or another module's SkillHost throws, never traps", () => {
  const host = new verifier.SkillHost();
  host.addServer("s");
  host.free();
  refused(() => host.addServer("t"), "invalid-argument");
  // Each module has its own instance and memory: the other module's SkillHost is not one.
  const other = new main.SkillHost();
  refused(() => verifier.SkillHost.prototype.servers.call(other), "invalid-argument");
  const live = new verifier.SkillHost();
  live.addServer("s");
  assert.deepEqual(live.servers(), ["s"]);
  assert.deepEqual(other.servers(), []);
});
