// Every error code the package documents is thrown somewhere, as a real Error with the stable
// code, and with the URI and the expected and actual values where the code has them.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { SkillsClient } from "skills-edge/client";
import {
  SkillHost, SkillsServer, checkLimits, compileCatalog, errorCodes, isSkillsEdgeError, resolveReference,
  validateEntry, verifyFile, verifyReadResult, verifySkillMd,
} from "skills-edge";
import { SIGNER_META_KEY, entryFor, refused, signed, signingKey } from "./common.mjs";

const U = "skill://a/SKILL.md";
const MD = "---\nname: a\ndescription: d\n---\nbody\n";
const entry = entryFor(U, { name: "a", description: "d" }, [[U, MD], ["skill://a/x.md", "x"]]);
const dynamic = { uri: U, frontmatter: { name: "a", description: "d" }, resources: "dynamic" };
const [k1, k2] = [signingKey(), signingKey()];

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
  // Signed by k1, announcing k2 as the signer: nothing can check the envelope.
  "signature-invalid": [() => host().register("s", { ...signed(entry, k1), _meta: { ...signed(entry, k1)._meta, [SIGNER_META_KEY]: k2.publicJwk } }), { uri: U }],
  "signer-untrusted": [() => host({ trust: [k2.publicJwk] }), { uri: U, actual: "unsigned" }],
  "signer-changed": [
    () => {
      const h = new SkillHost({ trustOnFirstUse: true });
      h.addServer("s");
      h.register("s", signed(entry, k1, "acme"));
      h.register("s", signed(entry, k2, "acme"));
    },
    { uri: U, expected: `${k1.keyId} acme`, actual: `${k2.keyId} acme` },
  ],
  "catalog-invalid": [() => compileCatalog([{ path: "a/SKILL.md", bytes: "no frontmatter\n" }]), {}],
  "pack-invalid": [() => new SkillsServer({ pack: new Uint8Array(8) }), {}],
};

// The transport codes, from SkillsClient against servers on 127.0.0.1 (a test server answers
// by path: /slow after 2 s, /401 with 401, /html with a web page, anything else as a skills
// server over the package's SkillsServer).
let web;
let base;
before(async () => {
  const skills = new SkillsServer();
  web = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    if (req.url === "/slow") await new Promise((r) => setTimeout(r, 2000));
    if (req.url === "/401") return res.writeHead(401, { "content-type": "text/plain" }).end("no");
    if (req.url === "/html") return res.writeHead(200, { "content-type": "text/html" }).end("<html>");
    const reply = skills.handleHttp(Buffer.concat(chunks).toString("utf8"), req.headers);
    res.writeHead(reply.status, reply.body === undefined ? {} : { "content-type": "application/json" }).end(reply.body);
  });
  await new Promise((r) => web.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${web.address().port}`;
});
after(() => {
  web.closeAllConnections();
  web.close();
});

// code -> [async thunk, properties the error must carry]
const asyncCases = {
  "connection-failed": [() => SkillsClient.connect("http://127.0.0.1:1/mcp"), {}],
  "http-status": [() => SkillsClient.connect(`${base}/401`), { expected: "200", actual: "401" }],
  "protocol-error": [() => SkillsClient.connect(`${base}/html`), {}],
  "server-error": [async () => (await SkillsClient.connect(`${base}/mcp`)).get("skill://nope/SKILL.md"), { actual: "-32602" }],
  timeout: [() => SkillsClient.connect(`${base}/slow`, { timeoutMs: 100 }), {}],
  aborted: [() => SkillsClient.connect(`${base}/mcp`, { signal: AbortSignal.abort() }), {}],
};

// The codes of a well-known source's refusals, which `skills-edge verify` reports per skill (or
// as the error that stopped the run) and no function throws; verify-wellknown.test.mjs checks
// each in both commands' output.
const reportedCodes = ["archive-invalid", "archive-unsafe", "unknown-schema"];

test("the table covers exactly the documented codes", () => {
  assert.deepEqual([...Object.keys(cases), ...Object.keys(asyncCases), ...reportedCodes].sort(), [...errorCodes()].sort());
  assert.equal(errorCodes().length, 30);
});

for (const [code, [thunk, props]] of Object.entries(asyncCases)) {
  test(`${code} is thrown with its details`, async () => {
    let error;
    try {
      await thunk();
    } catch (e) {
      error = e;
    }
    assert.ok(error instanceof Error, `${code}: ${error}`);
    assert.ok(isSkillsEdgeError(error), `a SkillsEdgeError: ${error?.stack ?? error}`);
    assert.equal(error.code, code, error.message);
    for (const [k, v] of Object.entries(props)) assert.equal(error[k], v, `${code}.${k}`);
    assert.ok(error.message.length > 0);
  });
}

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
