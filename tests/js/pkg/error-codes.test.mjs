// Every error code the package documents is thrown somewhere, as a real Error with the stable
// code, and with the URI and the expected and actual values where the code has them.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  SkillHost, SkillsServer, checkLimits, compileCatalog, errorCodes, isSkillsEdgeError, resolveReference,
  validateEntry, verifyFile, verifyReadResult, verifySkillMd,
} from "skills-edge";
import { entryFor, refused } from "./common.mjs";

const U = "skill://a/SKILL.md";
const MD = "---\nname: a\ndescription: d\n---\nbody\n";
const entry = entryFor(U, { name: "a", description: "d" }, [[U, MD], ["skill://a/x.md", "x"]]);
const dynamic = { uri: U, frontmatter: { name: "a", description: "d" }, resources: "dynamic" };

function host(options) {
  const h = new SkillHost(options);
  h.addServer("s");
  h.register("s", entry);
  return h;
}

// code -> [thunk, properties the error must carry]
const cases = {
  "invalid-entry": [() => validateEntry({ uri: U, frontmatter: { name: "a", description: "d" } }), { uri: U }],
  "limit-exceeded": [() => checkLimits({ ...entry, resources: [{ ...entry.resources[0], size: 2 ** 24 + 1 }] }), { uri: U, expected: "16777216", actual: "16777217" }],
  "not-in-manifest": [() => verifyFile(entry, "skill://a/y.md", "x"), { uri: "skill://a/y.md" }],
  "size-mismatch": [() => verifyFile(entry, "skill://a/x.md", "xx"), { uri: "skill://a/x.md", expected: "1", actual: "2" }],
  "digest-mismatch": [() => verifyFile(entry, "skill://a/x.md", "y"), { uri: "skill://a/x.md", expected: entry.resources[1].digest }],
  "frontmatter-mismatch": [() => verifySkillMd(entryFor(U, { name: "a", description: "e" }, [[U, MD]]), MD), { uri: U, field: "description", expected: '"e"', actual: '"d"' }],
  "frontmatter-invalid": [() => verifySkillMd(entryFor(U, { name: "a", description: "d" }, [[U, "no fences"]]), "no fences"), { uri: U }],
  "invalid-read-result": [() => verifyReadResult(entry, "skill://a/x.md", { contents: [] }), { uri: "skill://a/x.md" }],
  "escapes-root": [() => resolveReference(U, "../b/SKILL.md"), { uri: "../b/SKILL.md" }],
  "invalid-reference": [() => resolveReference(U, ""), {}],
  "dynamic-not-allowed": [() => verifyFile(dynamic, "skill://a/x.md", "x"), { uri: "skill://a/x.md" }],
  "no-acting-window": [() => host().planRead("s", U, "x.md"), { uri: U }],
  "not-approved": [() => host({ requireApproval: true }).planLoad("s", U), { uri: U }],
  "unknown-server": [() => host().planLoad("t", U), {}],
  "unknown-skill": [() => host().planLoad("s", "skill://b/SKILL.md"), { uri: "skill://b/SKILL.md" }],
  "invalid-argument": [() => new SkillsServer({ pageSize: -1 }), {}],
  "catalog-invalid": [() => compileCatalog([{ path: "a/SKILL.md", bytes: "no frontmatter\n" }]), {}],
  "pack-invalid": [() => new SkillsServer({ pack: new Uint8Array(8) }), {}],
};

test("the table covers exactly the documented codes", () => {
  assert.deepEqual(Object.keys(cases).sort(), [...errorCodes()].sort());
  assert.equal(errorCodes().length, 18);
});

for (const [code, [thunk, props]] of Object.entries(cases)) {
  test(`${code} is thrown with its details`, () => {
    const e = refused(thunk, code, props);
    assert.equal(typeof e.message, "string");
    assert.ok(e.message.length > 0);
    assert.ok(typeof e.stack === "string");
  });
}

test("isSkillsEdgeError tells package errors from others", () => {
  assert.equal(isSkillsEdgeError(new Error("x")), false);
  assert.equal(isSkillsEdgeError({ name: "SkillsEdgeError", code: "digest-mismatch" }), false);
  assert.equal(isSkillsEdgeError(null), false);
  const fake = Object.assign(new Error("x"), { name: "SkillsEdgeError", code: "nope" });
  assert.equal(isSkillsEdgeError(fake), false);
});
