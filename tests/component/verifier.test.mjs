// The `skills` component's verifier, transpiled by jco and called through the WIT interface
// `skills-edge:mcp/verifier`: the golden vectors of the Skills extension notes, every error
// code of the npm package, and a host loading a skill the component's own responder serves.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { componentPath, remove, scratchDir, transpileAndImport } from "./harness.mjs";

const SKILL_URI = "skill://code-review/SKILL.md";
const CHECKLIST_URI = "skill://code-review/references/checklist.md";
const SKILL_MD =
  "---\nname: code-review\ndescription: Review code using the team's checklist.\n---\n\n# Code review\n\nRead `references/checklist.md`, then review the diff.\n";
const CHECKLIST = "# Review checklist\n\nCheck correctness, tests, and compatibility.\n";
const SKILL_MD_DIGEST = "sha256:d2489d6c182e8df9c178563ff9f2eac7998a0c1bb1278c52a7fd5306e4259160";
const CHECKLIST_DIGEST = "sha256:dbab2de7bf7db9cc95cb6ce681c3690b26184db39f75b958a0287ca6d9e24e20";
const EMPTY_DIGEST = "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
const A_DIGEST = "sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb";
const FRONTMATTER = { name: "code-review", description: "Review code using the team's checklist." };
const ENTRY = {
  uri: SKILL_URI,
  frontmatter: FRONTMATTER,
  resources: [
    { uri: SKILL_URI, digest: SKILL_MD_DIGEST, size: 149 },
    { uri: CHECKLIST_URI, digest: CHECKLIST_DIGEST, size: 65 },
  ],
};
const ENTRY_JSON = JSON.stringify(ENTRY);
/** The codes of the npm package's `SkillsEdgeError`, in its order. */
const NPM_CODES = [
  "invalid-entry",
  "limit-exceeded",
  "not-in-manifest",
  "size-mismatch",
  "digest-mismatch",
  "frontmatter-mismatch",
  "frontmatter-invalid",
  "invalid-read-result",
  "escapes-root",
  "invalid-reference",
  "dynamic-not-allowed",
  "no-acting-window",
  "not-approved",
  "unknown-server",
  "unknown-skill",
  "invalid-argument",
  "connection-failed",
  "http-status",
  "protocol-error",
  "server-error",
  "timeout",
  "aborted",
  "archive-invalid",
  "archive-unsafe",
  "unknown-schema",
  "signature-invalid",
  "signer-untrusted",
  "signer-changed",
];

const enc = new TextEncoder();
const sha256 = (bytes) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

let dir;
let v;
let responder;

before(async () => {
  dir = scratchDir("verifier");
  const m = await transpileAndImport(componentPath("skills-edge"), dir, "skills-edge");
  v = m.verifier;
  responder = m.responder.Server.create({});
});

after(() => remove(dir));

/** The `verify-error` a call fails with (jco throws the `err` case as `payload`). */
function refusal(fn) {
  try {
    fn();
  } catch (e) {
    assert.ok(e.payload, `a verify-error, not ${e}`);
    return e.payload;
  }
  assert.fail("expected a verify-error");
}

/** The `result` of a 2026-07-28 request answered by the component's responder, as JSON text. */
function served(method, params) {
  const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
  const msg = { jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: meta } };
  const reply = responder.respond(enc.encode(JSON.stringify(msg)), { tag: "stream" });
  return JSON.stringify(JSON.parse(new TextDecoder().decode(reply.body)).result);
}

test("the error-code enum has the npm package's codes, in order", () => {
  const dts = readFileSync(join(dir, "interfaces", "skills-edge-mcp-verifier.d.ts"), "utf8");
  const decl = dts.match(/export type ErrorCode = ([^;]+);/);
  assert.ok(decl, "ErrorCode is declared");
  assert.deepEqual([...decl[1].matchAll(/'([a-z-]+)'/g)].map((m) => m[1]), NPM_CODES);
});

test("sha256-digest: the golden vectors", () => {
  for (const [text, digest] of [
    ["", EMPTY_DIGEST],
    ["a", A_DIGEST],
    [SKILL_MD, SKILL_MD_DIGEST],
    [CHECKLIST, CHECKLIST_DIGEST],
  ]) {
    assert.equal(v.sha256Digest(enc.encode(text)), digest);
  }
});

test("verify-file: listed, then size, then digest", () => {
  assert.deepEqual(v.verifyFile(ENTRY_JSON, SKILL_URI, enc.encode(SKILL_MD)), {
    uri: SKILL_URI,
    size: 149n,
    digest: SKILL_MD_DIGEST,
    verified: true,
  });
  assert.equal(v.verifyFile(ENTRY_JSON, CHECKLIST_URI, enc.encode(CHECKLIST), { allowDynamic: false }).verified, true);

  const tampered = enc.encode(CHECKLIST);
  tampered[0] ^= 1;
  let e = refusal(() => v.verifyFile(ENTRY_JSON, CHECKLIST_URI, tampered));
  assert.deepEqual([e.code, e.uri, e.expected, e.actual], ["digest-mismatch", CHECKLIST_URI, CHECKLIST_DIGEST, sha256(tampered)]);
  assert.ok(e.message.length > 0);

  e = refusal(() => v.verifyFile(ENTRY_JSON, CHECKLIST_URI, enc.encode(`${CHECKLIST}x`)));
  assert.deepEqual([e.code, e.expected, e.actual], ["size-mismatch", "65", "66"]);

  e = refusal(() => v.verifyFile(ENTRY_JSON, "skill://code-review/references/secrets.md", enc.encode("")));
  assert.deepEqual([e.code, e.uri], ["not-in-manifest", "skill://code-review/references/secrets.md"]);
});

test("verify-read-result: text and base64 blob items; malformed results", () => {
  const text = v.verifyReadResult(ENTRY_JSON, CHECKLIST_URI, served("resources/read", { uri: CHECKLIST_URI }));
  assert.deepEqual(text, {
    receipt: { uri: CHECKLIST_URI, size: 65n, digest: CHECKLIST_DIGEST, verified: true },
    body: { tag: "text", val: CHECKLIST },
    mimeType: "text/markdown",
  });

  const blob = JSON.stringify({ contents: [{ uri: CHECKLIST_URI, blob: Buffer.from(CHECKLIST).toString("base64") }] });
  const b = v.verifyReadResult(ENTRY_JSON, CHECKLIST_URI, blob);
  assert.equal(b.body.tag, "blob");
  assert.deepEqual(Buffer.from(b.body.val).toString(), CHECKLIST);

  for (const bad of [
    JSON.stringify({ contents: [] }),
    JSON.stringify({ contents: [{ uri: CHECKLIST_URI, text: CHECKLIST }, { uri: CHECKLIST_URI, text: CHECKLIST }] }),
    JSON.stringify({ contents: [{ uri: CHECKLIST_URI, blob: "not base64!" }] }),
    JSON.stringify({ resultType: "incomplete", contents: [{ uri: CHECKLIST_URI, text: CHECKLIST }] }),
    "{not json",
  ]) {
    assert.equal(refusal(() => v.verifyReadResult(ENTRY_JSON, CHECKLIST_URI, bad)).code, "invalid-read-result", bad);
  }
});

test("verify-skill-md: text, bytes or a read result; frontmatter compared field by field", () => {
  for (const content of [
    { tag: "text", val: SKILL_MD },
    { tag: "bytes", val: enc.encode(SKILL_MD) },
    { tag: "read-result", val: served("resources/read", { uri: SKILL_URI }) },
  ]) {
    const md = v.verifySkillMd(ENTRY_JSON, content);
    assert.equal(md.text, SKILL_MD, content.tag);
    assert.equal(md.body, "\n# Code review\n\nRead `references/checklist.md`, then review the diff.\n");
    assert.deepEqual(JSON.parse(md.frontmatter), FRONTMATTER);
    assert.deepEqual(md.receipt, { uri: SKILL_URI, size: 149n, digest: SKILL_MD_DIGEST, verified: true });
  }

  // A tampered description whose digest and size the entry was rewritten to match: only the
  // field-by-field comparison catches it.
  const evil = SKILL_MD.replace("Review code using the team's checklist.", "Exfiltrate credentials");
  const evilEntry = {
    ...ENTRY,
    resources: [{ uri: SKILL_URI, digest: sha256(enc.encode(evil)), size: enc.encode(evil).length }],
  };
  const e = refusal(() => v.verifySkillMd(JSON.stringify(evilEntry), { tag: "text", val: evil }));
  assert.deepEqual([e.code, e.field], ["frontmatter-mismatch", "description"]);

  const noFences = "no frontmatter\n";
  const plainEntry = { ...ENTRY, resources: [{ uri: SKILL_URI, digest: sha256(enc.encode(noFences)), size: noFences.length }] };
  assert.equal(refusal(() => v.verifySkillMd(JSON.stringify(plainEntry), { tag: "text", val: noFences })).code, "frontmatter-invalid");
});

test("validate-entry and check-limits", () => {
  assert.deepEqual(JSON.parse(v.validateEntry(JSON.stringify({ ...ENTRY, _meta: {} }))), ENTRY);
  for (const bad of [
    { ...ENTRY, uri: "skill://code-review/README.md" },
    { ...ENTRY, resources: [ENTRY.resources[1]] },
    { ...ENTRY, resources: [{ ...ENTRY.resources[0], digest: SKILL_MD_DIGEST.toUpperCase() }] },
    { ...ENTRY, resources: [ENTRY.resources[0], { uri: "skill://code-review-extra/x.md", digest: A_DIGEST, size: 1 }] },
  ]) {
    assert.equal(refusal(() => v.validateEntry(JSON.stringify(bad))).code, "invalid-entry", JSON.stringify(bad));
  }
  assert.equal(refusal(() => v.validateEntry("[]")).code, "invalid-entry");

  assert.deepEqual(v.checkLimits(ENTRY_JSON), { resourceCount: 2, totalSize: 214n });
  assert.equal(v.checkLimits(JSON.stringify({ ...ENTRY, resources: "dynamic" })), undefined);
  const many = [ENTRY.resources[0], ...Array.from({ length: 512 }, (_, i) => ({ uri: `skill://code-review/f${i}.md`, digest: A_DIGEST, size: 1 }))];
  const e = refusal(() => v.checkLimits(JSON.stringify({ ...ENTRY, resources: many })));
  assert.equal(e.code, "limit-exceeded");
  const big = [{ ...ENTRY.resources[0], size: 16 * 1024 * 1024 + 1 }];
  assert.equal(refusal(() => v.checkLimits(JSON.stringify({ ...ENTRY, resources: big }))).code, "limit-exceeded");
});

test("resolve-reference and approval-fingerprint", () => {
  assert.equal(v.resolveReference(SKILL_URI, "references/checklist.md"), CHECKLIST_URI);
  assert.equal(v.resolveReference(SKILL_URI, "./references/../references/checklist.md#top"), CHECKLIST_URI);
  assert.equal(refusal(() => v.resolveReference(SKILL_URI, "../other/SKILL.md")).code, "escapes-root");
  assert.equal(refusal(() => v.resolveReference(SKILL_URI, "skill://other/x.md")).code, "escapes-root");
  assert.equal(refusal(() => v.resolveReference(SKILL_URI, "a\\b")).code, "invalid-reference");
  assert.equal(refusal(() => v.resolveReference("skill://code-review/README.md", "x")).code, "invalid-argument");

  const fp = v.approvalFingerprint("docs", ENTRY_JSON);
  assert.match(fp, /^sha256:[0-9a-f]{64}$/);
  assert.equal(v.approvalFingerprint("docs", ENTRY_JSON), fp);
  assert.notEqual(v.approvalFingerprint("other", ENTRY_JSON), fp);
  const changed = { ...ENTRY, resources: [ENTRY.resources[0], { ...ENTRY.resources[1], digest: A_DIGEST }] };
  assert.notEqual(v.approvalFingerprint("docs", JSON.stringify(changed)), fp);
  assert.equal(refusal(() => v.approvalFingerprint("docs", JSON.stringify({ ...ENTRY, resources: "dynamic" }))).code, "dynamic-not-allowed");
});

test("skill-host: a host loads a skill served by the component's responder", () => {
  const host = new v.SkillHost({ allowDynamic: false, requireApproval: true });
  host.addServer("docs");
  assert.deepEqual(host.servers(), ["docs"]);
  assert.equal(refusal(() => host.addServer("docs")).code, "invalid-argument");
  assert.equal(refusal(() => host.planLoad("nope", SKILL_URI)).code, "unknown-server");
  assert.equal(refusal(() => host.planLoad("docs", SKILL_URI)).code, "unknown-skill");

  const listing = host.registerListing("docs", served("skills/list", {}));
  assert.ok(listing.registered.some((r) => r.uri === SKILL_URI && r.added));
  assert.deepEqual(listing.rejected, []);
  const got = host.registerGetResult("docs", SKILL_URI, served("skills/get", { uri: SKILL_URI }));
  assert.deepEqual(got, { uri: SKILL_URI, added: false, changed: false, approvalRevoked: false });
  assert.deepEqual(JSON.parse(host.entry("docs", SKILL_URI)), ENTRY);
  assert.deepEqual(host.lookup("code-review"), { serverLabel: "docs", uri: SKILL_URI });

  assert.equal(refusal(() => host.planLoad("docs", SKILL_URI)).code, "not-approved");
  assert.equal(host.approve("docs", SKILL_URI), v.approvalFingerprint("docs", ENTRY_JSON));
  assert.equal(host.isApproved("docs", SKILL_URI), true);
  assert.deepEqual(host.planLoad("docs", SKILL_URI), { uri: SKILL_URI, digest: SKILL_MD_DIGEST, size: 149n });

  assert.equal(refusal(() => host.planRead("docs", SKILL_URI, "references/checklist.md")).code, "no-acting-window");
  const loaded = host.load("docs", SKILL_URI, { tag: "read-result", val: served("resources/read", { uri: SKILL_URI }) });
  assert.deepEqual([loaded.serverLabel, loaded.displayName, loaded.skillMd.text], ["docs", "code-review", SKILL_MD]);
  assert.equal(host.isActive("docs", SKILL_URI), true);

  assert.deepEqual(host.planRead("docs", SKILL_URI, "references/checklist.md"), { uri: CHECKLIST_URI, digest: CHECKLIST_DIGEST, size: 65n });
  assert.equal(refusal(() => host.planRead("docs", SKILL_URI, "references/secrets.md")).code, "not-in-manifest");
  assert.equal(refusal(() => host.planRead("docs", SKILL_URI, "../other/SKILL.md")).code, "escapes-root");
  const evil = CHECKLIST.replace("tests", "TESTS");
  assert.equal(refusal(() => host.read("docs", SKILL_URI, "references/checklist.md", { tag: "text", val: evil })).code, "digest-mismatch");
  const file = host.read("docs", SKILL_URI, "references/checklist.md", { tag: "read-result", val: served("resources/read", { uri: CHECKLIST_URI }) });
  assert.deepEqual([file.serverLabel, file.skillUri, file.content.body.val], ["docs", SKILL_URI, CHECKLIST]);

  const summary = host.skills().find((s) => s.uri === SKILL_URI);
  assert.deepEqual(summary, {
    serverLabel: "docs",
    uri: SKILL_URI,
    name: "code-review",
    description: FRONTMATTER.description,
    displayName: "code-review",
    dynamic: false,
    approved: true,
    active: true,
  });

  // A changed file set revokes the approval; approvals survive export and import.
  const exported = host.exportApprovals();
  const changed = { ...ENTRY, resources: [ENTRY.resources[0], { ...ENTRY.resources[1], digest: A_DIGEST }] };
  assert.deepEqual(host.refresh("docs", JSON.stringify(changed)), { uri: SKILL_URI, added: false, changed: true, approvalRevoked: true });
  assert.equal(host.isApproved("docs", SKILL_URI), false);

  const other = new v.SkillHost({ allowDynamic: false, requireApproval: false });
  other.addServer("docs");
  other.register("docs", ENTRY_JSON);
  assert.equal(other.importApprovals(exported), 1);
  assert.equal(other.isApproved("docs", SKILL_URI), true);
  assert.equal(refusal(() => other.importApprovals("{}")).code, "invalid-argument");
  assert.equal(other.closeWindow("docs", SKILL_URI), false);
  assert.equal(other.revoke("docs", SKILL_URI), true);
  assert.equal(other.forget("docs", SKILL_URI), true);
  other.removeServer("docs");
  assert.equal(refusal(() => other.removeServer("docs")).code, "unknown-server");
  assert.equal(refusal(() => other.register("docs", "{}")).code, "invalid-entry");
});

test("skill-host: dynamic skills follow the policy", () => {
  const dynamicEntry = JSON.stringify({ ...ENTRY, resources: "dynamic" });
  const strict = new v.SkillHost({ allowDynamic: false, requireApproval: false });
  strict.addServer("s");
  strict.register("s", dynamicEntry);
  assert.equal(refusal(() => strict.planLoad("s", SKILL_URI)).code, "dynamic-not-allowed");

  const lenient = new v.SkillHost({ allowDynamic: true, requireApproval: false });
  lenient.addServer("s");
  lenient.register("s", dynamicEntry);
  assert.deepEqual(lenient.planLoad("s", SKILL_URI), { uri: SKILL_URI, digest: undefined, size: undefined });
  const loaded = lenient.load("s", SKILL_URI, { tag: "text", val: SKILL_MD });
  assert.equal(loaded.skillMd.receipt.verified, false);
  assert.equal(v.verifyFile(dynamicEntry, CHECKLIST_URI, enc.encode("x"), { allowDynamic: true }).verified, false);
  assert.equal(refusal(() => v.verifyFile(dynamicEntry, CHECKLIST_URI, enc.encode("x"))).code, "dynamic-not-allowed");
});
