// The pure verifier functions, against the embedded catalog served in-page and against
// hand-made entries: validateEntry, checkLimits, verifyFile, verifyReadResult, verifySkillMd,
// resolveReference, approvalFingerprint, sha256Digest, and for digests computed elsewhere
// verifyFileDigest, checkFileDigest and checkFileSize; each test through both modules that
// export them (the package's main module and `skills-edge/verifier`).
import { test } from "node:test";
import assert from "node:assert/strict";
import { HOST_MODULES, digestOf, entryFor, listAll, read, refused, server } from "./common.mjs";

const MD = "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\n---\n\nSkill body.\n";
const FORMS = "Supporting content.\n";
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 255]);
const U = "skill://pdf-processing/SKILL.md";
const FORMS_U = "skill://pdf-processing/references/FORMS.md";
const PNG_U = "skill://pdf-processing/assets/logo.png";
const FM = { name: "pdf-processing", description: "Extract, fill, and assemble PDF documents" };
const entry = entryFor(U, FM, [[U, MD], [FORMS_U, FORMS], [PNG_U, PNG]]);
const textResult = (uri, text) => ({ resultType: "complete", contents: [{ uri, mimeType: "text/markdown", text }], ttlMs: 0, cacheScope: "private" });
const blobResult = (uri, bytes) => ({ contents: [{ uri, mimeType: "image/png", blob: Buffer.from(bytes).toString("base64") }] });

for (const [from, {
  approvalFingerprint, checkFileDigest, checkFileSize, checkLimits, resolveReference, sha256Digest,
  skillRevision, validateEntry, verifyFile, verifyFileDigest, verifyReadResult, verifySkillMd,
}] of HOST_MODULES) {
  test(`${from}: every file of every embedded skill verifies, as text or as blob`, () => {
    const s = server();
    let text = 0, blob = 0;
    for (const e of listAll(s)) {
      // validateEntry drops what the host does not read: here the server's `_meta`, which holds
      // the skill's revision.
      const { _meta, ...fields } = e;
      assert.deepEqual(validateEntry(e), fields);
      assert.equal(_meta["io.github.skills-edge/revision"], skillRevision(e));
      const limits = checkLimits(e);
      assert.equal(limits.dynamic, false);
      assert.equal(limits.resourceCount, e.resources.length);
      assert.equal(limits.totalSize, e.resources.reduce((a, r) => a + r.size, 0));
      const md = verifySkillMd(e, read(s, e.uri));
      assert.equal(md.mimeType, "text/markdown");
      assert.ok(md.text.endsWith(md.body));
      for (const r of e.resources) {
        const v = verifyReadResult(e, r.uri, read(s, r.uri));
        assert.equal(v.digest, r.digest);
        assert.equal(v.size, r.size);
        assert.equal(v.verified, true);
        assert.equal(digestOf(v.bytes), r.digest);
        assert.deepEqual(verifyFile(e, r.uri, v.bytes), { uri: r.uri, size: r.size, digest: r.digest, verified: true });
        if (v.text !== undefined) {
          text++;
          assert.equal(verifyFile(e, r.uri, v.text).digest, r.digest);
        } else {
          blob++;
        }
      }
    }
    assert.ok(text > 5 && blob >= 1, `text ${text}, blob ${blob}`);
  });

  test(`${from}: validateEntry refuses what a host must not load and ignores unknown fields`, () => {
    assert.deepEqual(validateEntry({ ...entry, _meta: { x: 1 }, vendor: true }), entry);
    const item0 = entry.resources[0];
    const bad = {
      "no resources": { uri: U, frontmatter: FM },
      "resources neither array nor dynamic": { ...entry, resources: "static" },
      "uri not SKILL.md": { ...entry, uri: "skill://pdf-processing/skill.md" },
      "final segment differs from name": { ...entry, frontmatter: { ...FM, name: "pdf" } },
      "name not a string": { ...entry, frontmatter: { ...FM, name: 5 } },
      "uppercase digest (A6)": { ...entry, resources: [{ ...item0, digest: item0.digest.toUpperCase().replace("SHA256", "sha256") }] },
      "malformed digest": { ...entry, resources: [{ ...item0, digest: "sha256:1234" }] },
      "negative size": { ...entry, resources: [{ ...item0, size: -1 }] },
      "fractional size": { ...entry, resources: [{ ...item0, size: 1.5 }] },
      "unsafe size": { ...entry, resources: [{ ...item0, size: 2 ** 53 }] },
      "file outside the root": { ...entry, resources: [item0, { ...item0, uri: "skill://pdf-processing-extra/x.md" }] },
      "dot segment": { ...entry, resources: [item0, { ...item0, uri: "skill://pdf-processing/a/../../x.md" }] },
      "duplicate uri": { ...entry, resources: [item0, item0] },
      "no SKILL.md item": { ...entry, resources: entry.resources.slice(1) },
      "not an object": [entry],
      "a string": JSON.stringify(entry),
    };
    for (const [why, e] of Object.entries(bad)) {
      const err = refused(() => validateEntry(e), "invalid-entry");
      assert.ok(err.message.length > 10, why);
    }
    const err = refused(() => validateEntry(bad["final segment differs from name"]), "invalid-entry");
    assert.equal(err.expected, "pdf");
    assert.equal(err.actual, "pdf-processing");
  });

  test(`${from}: checkLimits counts from the entry alone: 512 files and 16 MiB pass, one more fails`, () => {
    const files = [[U, MD], ...Array.from({ length: 511 }, (_, i) => [`skill://pdf-processing/f/${i}.txt`, ""])];
    const at = entryFor(U, FM, files);
    assert.deepEqual(checkLimits(at), { dynamic: false, resourceCount: 512, totalSize: MD.length });
    const over = entryFor(U, FM, [...files, ["skill://pdf-processing/f/x.txt", ""]]);
    refused(() => checkLimits(over), "limit-exceeded", { expected: "512", actual: "513", uri: U });
    const big = structuredClone(entry);
    big.resources[1].size = 16 * 1024 * 1024 - MD.length - PNG.length;
    assert.equal(checkLimits(big).totalSize, 16 * 1024 * 1024);
    big.resources[1].size += 1;
    refused(() => checkLimits(big), "limit-exceeded", { expected: String(16 * 1024 * 1024), actual: String(16 * 1024 * 1024 + 1) });
    assert.deepEqual(checkLimits({ ...entry, resources: "dynamic" }), { dynamic: true });
  });

  test(`${from}: verifyFile: listed, then size, then digest; text is hashed as UTF-8 bytes`, () => {
    assert.equal(verifyFile(entry, FORMS_U, FORMS).verified, true);
    assert.equal(verifyFile(entry, FORMS_U, Buffer.from(FORMS)).size, FORMS.length);
    refused(() => verifyFile(entry, "skill://pdf-processing/references/SECRET.md", FORMS), "not-in-manifest", { uri: "skill://pdf-processing/references/SECRET.md" });
    refused(() => verifyFile(entry, FORMS_U, FORMS + "x"), "size-mismatch", { uri: FORMS_U, expected: "20", actual: "21" });
    refused(() => verifyFile(entry, FORMS_U, FORMS.replace("S", "Z")), "digest-mismatch", {
      uri: FORMS_U, expected: digestOf(FORMS), actual: digestOf(FORMS.replace("S", "Z")),
    });
    // "é" is one UTF-16 unit but two UTF-8 bytes: the size is of the bytes.
    const e2 = entryFor(U, FM, [[U, MD], [FORMS_U, "é"]]);
    assert.equal(e2.resources[1].size, 2);
    assert.equal(verifyFile(e2, FORMS_U, "é").size, 2);
    refused(() => verifyFile(entry, FORMS_U, 42), "invalid-argument");
    refused(() => verifyFile(entry, FORMS_U, FORMS, { allowDynamc: true }), "invalid-argument");
    const wrong = refused(() => verifyFile(entry, FORMS_U, FORMS, { allowDynamic: "yes" }), "invalid-argument");
    assert.equal(wrong.message, 'verifyFile: options property "allowDynamic" must be a boolean (true or false), got string');
    // Absent, undefined and null are the default; an inherited property is no option.
    assert.equal(verifyFile(entry, FORMS_U, FORMS, { allowDynamic: null }).verified, true);
    assert.equal(verifyFile(entry, FORMS_U, FORMS, Object.create({ allowDynamic: "yes" })).verified, true);
  });

  test(`${from}: an entry changed between calls is read anew: the verifier keeps only the last entry's text`, () => {
    // One object, changed in place after each call: every call sees the entry as it is then.
    const e = structuredClone(entry);
    assert.equal(verifyFile(e, FORMS_U, FORMS).verified, true);
    e.resources[1].size += 1;
    refused(() => verifyFile(e, FORMS_U, FORMS), "size-mismatch", { uri: FORMS_U, expected: "21", actual: "20" });
    e.resources[1].size -= 1;
    e.resources[1].digest = digestOf("other");
    refused(() => verifyFile(e, FORMS_U, FORMS), "digest-mismatch", { uri: FORMS_U, expected: digestOf("other") });
    e.resources[1].digest = digestOf(FORMS);
    assert.equal(verifyFile(e, FORMS_U, FORMS).verified, true);
    // A file removed from the manifest, then an entry made invalid, then the same text again.
    e.resources.splice(1, 1);
    refused(() => verifyFile(e, FORMS_U, FORMS), "not-in-manifest", { uri: FORMS_U });
    e.frontmatter.name = "Other";
    refused(() => verifyFile(e, FORMS_U, FORMS), "invalid-entry");
    refused(() => validateEntry(e), "invalid-entry");
    assert.equal(verifyFile(entry, FORMS_U, FORMS).verified, true);
    assert.equal(verifyFile(structuredClone(entry), FORMS_U, FORMS).verified, true);
    // What validateEntry gives back is a new object every time, frozen all the way down, and it
    // verifies like the entry it came from.
    const a = validateEntry(entry);
    assert.notEqual(a, validateEntry(entry));
    assert.throws(() => { a.resources.length = 0; }, TypeError);
    assert.throws(() => { a.resources[1].size = 1; }, TypeError);
    assert.throws(() => { a.frontmatter.name = "other"; }, TypeError);
    assert.throws(() => { a.extra = 1; }, TypeError);
    assert.equal(validateEntry(entry).resources.length, 3);
    assert.equal(verifyFile(a, FORMS_U, FORMS).verified, true);
    refused(() => verifyFile(a, FORMS_U, FORMS + "x"), "size-mismatch");
    // Another entry read in between, then the frozen one again.
    refused(() => verifyFile(e, FORMS_U, FORMS), "invalid-entry");
    assert.equal(verifyFile(a, FORMS_U, FORMS).verified, true);
    const other = validateEntry({ ...entry, resources: entry.resources.slice(0, 1) });
    refused(() => verifyFile(other, FORMS_U, FORMS), "not-in-manifest");
    assert.equal(verifyFile(a, FORMS_U, FORMS).verified, true);
    refused(() => verifyFile(other, FORMS_U, FORMS), "not-in-manifest");
  });

  test(`${from}: verifyFileDigest, checkFileDigest and checkFileSize make verifyFile's checks with a digest given`, () => {
    const dyn = { uri: U, frontmatter: FM, resources: "dynamic" };
    const tampered = FORMS.replace(" ", "_");
    // [entry, uri, bytes, options]: every outcome of verifyFile, and the same with the bytes'
    // size and digest given.
    const cases = [
      [entry, FORMS_U, FORMS],
      [validateEntry(entry), FORMS_U, FORMS],
      [entry, FORMS_U, tampered],
      [entry, FORMS_U, FORMS + "x"],
      [entry, "skill://pdf-processing/references/SECRET.md", FORMS],
      [dyn, FORMS_U, FORMS],
      [dyn, FORMS_U, FORMS, { allowDynamic: true }],
      [dyn, "skill://other/x.md", FORMS, { allowDynamic: true }],
    ];
    const outcome = (f) => {
      try {
        return { value: f() };
      } catch (e) {
        return { code: e.code, message: e.message.replace(/^\w+: /, ""), uri: e.uri, expected: e.expected, actual: e.actual };
      }
    };
    const codes = new Set();
    for (const [e, uri, bytes, options] of cases) {
      const [size, digest] = [Buffer.byteLength(bytes), digestOf(bytes)];
      const what = `${uri} ${JSON.stringify(bytes)} ${JSON.stringify(options)}`;
      const direct = outcome(() => verifyFile(e, uri, bytes, options));
      codes.add(direct.code ?? String(direct.value.verified));
      assert.deepEqual(outcome(() => verifyFileDigest(e, uri, size, digest, options)), direct, what);
      const check = outcome(() => checkFileDigest(e, uri, size, digest, options));
      assert.deepEqual(check, direct.value ? { value: direct.value.verified } : direct, what);
      if (direct.code !== "digest-mismatch") {
        assert.deepEqual(outcome(() => checkFileSize(e, uri, size, options)), direct.value ? { value: undefined } : direct, what);
      }
    }
    assert.deepEqual([...codes].sort(), ["digest-mismatch", "dynamic-not-allowed", "escapes-root", "false", "not-in-manifest", "size-mismatch", "true"]);
    refused(() => checkFileDigest(entry, FORMS_U, FORMS.length, digestOf(FORMS).toUpperCase()), "invalid-argument");
    refused(() => checkFileDigest(entry, FORMS_U, -1, digestOf(FORMS)), "invalid-argument");
    // A size that is no byte count is named as JavaScript writes the number.
    for (const [size, shown] of [[-1, "-1"], [1.5, "1.5"], [Infinity, "Infinity"], [NaN, "NaN"], [1e21, "1e+21"]]) {
      const e = refused(() => checkFileSize(entry, FORMS_U, size), "invalid-argument");
      assert.equal(e.message, `checkFileSize: size must be a non-negative integer (a byte count), got ${shown}`);
    }
  });

  test(`${from}: dynamic entries are refused unless allowed, and then only inside the root`, () => {
    const dyn = { uri: U, frontmatter: FM, resources: "dynamic" };
    refused(() => verifyFile(dyn, FORMS_U, FORMS), "dynamic-not-allowed", { uri: FORMS_U });
    const r = verifyFile(dyn, FORMS_U, FORMS, { allowDynamic: true });
    assert.deepEqual(r, { uri: FORMS_U, size: 20, digest: digestOf(FORMS), verified: false });
    refused(() => verifyFile(dyn, "skill://other/x.md", FORMS, { allowDynamic: true }), "escapes-root");
    refused(() => verifyReadResult(dyn, FORMS_U, textResult(FORMS_U, FORMS)), "dynamic-not-allowed");
    // The frontmatter of a dynamic skill is still verified (H14).
    const md = verifySkillMd(dyn, MD);
    assert.equal(md.verified, false);
    refused(() => verifySkillMd(dyn, MD.replace("Extract", "Exfiltrate")), "frontmatter-mismatch", { field: "description" });
    refused(() => approvalFingerprint("s", dyn), "dynamic-not-allowed");
  });

  test(`${from}: verifyReadResult: exactly one item for the URI, text or strict base64 blob`, () => {
    const t = verifyReadResult(entry, FORMS_U, textResult(FORMS_U, FORMS));
    assert.equal(t.text, FORMS);
    assert.equal(t.mimeType, "text/markdown");
    assert.deepEqual([...t.bytes], [...Buffer.from(FORMS)]);
    const b = verifyReadResult(entry, PNG_U, blobResult(PNG_U, PNG));
    assert.equal(b.text, undefined);
    assert.deepEqual([...b.bytes], [...PNG]);
    // Legacy servers: no resultType; items for other URIs are ignored.
    const legacy = { contents: [{ uri: "skill://x/y", text: "?" }, { uri: FORMS_U, text: FORMS }] };
    assert.equal(verifyReadResult(entry, FORMS_U, legacy).text, FORMS);

    const b64 = Buffer.from(PNG).toString("base64");
    const bad = {
      "no item for the uri": { contents: [{ uri: PNG_U, blob: b64 }] },
      "two items for the uri": { contents: [{ uri: FORMS_U, text: FORMS }, { uri: FORMS_U, text: FORMS }] },
      "empty contents": { contents: [] },
      "no contents": {},
      "text and blob": { contents: [{ uri: FORMS_U, text: FORMS, blob: "" }] },
      "neither": { contents: [{ uri: FORMS_U }] },
      "text not a string": { contents: [{ uri: FORMS_U, text: 5 }] },
      "input_required": { resultType: "input_required", contents: [{ uri: FORMS_U, text: FORMS }] },
    };
    for (const [why, r] of Object.entries(bad)) refused(() => verifyReadResult(entry, FORMS_U, r), "invalid-read-result", { uri: FORMS_U });
    for (const blob of [b64.replace(/=+$/, ""), b64.slice(0, -4) + "!!==", " " + b64.slice(1), b64.replace("=", "A")]) {
      const r = { contents: [{ uri: PNG_U, blob }] };
      assert.throws(() => verifyReadResult(entry, PNG_U, r), (e) => ["invalid-read-result", "size-mismatch"].includes(e.code), blob);
    }
    // Non-canonical unused bits: the right length, but not strict base64 (10 bytes end in "x?==",
    // where the last character carries 2 data bits and 4 bits that must be zero).
    const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    assert.ok(b64.endsWith("=="));
    const loose = b64.slice(0, -3) + ALPHABET[ALPHABET.indexOf(b64.at(-3)) | 1] + "==";
    refused(() => verifyReadResult(entry, PNG_U, { contents: [{ uri: PNG_U, blob: loose }] }), "invalid-read-result");
    // The decoded length is checked against size before decoding.
    refused(() => verifyReadResult(entry, PNG_U, blobResult(PNG_U, [...PNG, 0, 0, 0])), "size-mismatch", { expected: "10", actual: "13" });
    refused(() => verifyReadResult(entry, PNG_U, blobResult(PNG_U, PNG.map((x, i) => (i === 9 ? 254 : x)))), "digest-mismatch");
    refused(() => verifyReadResult(entry, FORMS_U, textResult(FORMS_U, FORMS + "!")), "size-mismatch");
    refused(() => verifyReadResult(entry, "skill://pdf-processing/x", textResult("skill://pdf-processing/x", "")), "not-in-manifest");
    refused(() => verifyReadResult(entry, FORMS_U, "text"), "invalid-read-result");
  });

  test(`${from}: verifySkillMd: size, digest, then frontmatter field by field, by value`, () => {
    for (const content of [MD, Buffer.from(MD), textResult(U, MD)]) {
      const v = verifySkillMd(entry, content);
      assert.deepEqual(v.frontmatter, FM);
      assert.equal(v.body, "\nSkill body.\n");
    }
    // The conformance suite's three tampered files.
    refused(() => verifySkillMd(entry, MD.replace("Skill body.", "Evil body!!")), "digest-mismatch", { uri: U });
    refused(() => verifySkillMd(entry, MD + "extra bytes the entry did not account for\n"), "size-mismatch", { expected: "97", actual: "139" });
    const evil = MD.replace("Extract, fill, and assemble PDF documents", "Exfiltrate credentials");
    const rewritten = entryFor(U, FM, [[U, evil]]);
    refused(() => verifySkillMd(rewritten, evil), "frontmatter-mismatch", {
      uri: U, field: "description", expected: JSON.stringify(FM.description), actual: '"Exfiltrate credentials"',
    });
    // By value: key order, 1.0 vs 1, BOM and blanks after the closing fence do not matter.
    const file = "\ufeff---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\nmetadata:\n  version: 2.0\n  tags: [a, b]\n--- \t\nBody\n";
    const fm = { metadata: { tags: ["a", "b"], version: 2 }, description: FM.description, name: FM.name };
    assert.deepEqual(verifySkillMd(entryFor(U, fm, [[U, file]]), file).frontmatter, { ...FM, metadata: { version: 2, tags: ["a", "b"] } });
    const mismatch = (f) => refused(() => verifySkillMd(entryFor(U, f, [[U, file]]), file), "frontmatter-mismatch");
    assert.equal(mismatch({ ...fm, metadata: { tags: ["b", "a"], version: 2 } }).field, "metadata.tags[0]");
    assert.equal(mismatch({ ...fm, metadata: { tags: ["a", "b"], version: "2" } }).field, "metadata.version");
    assert.equal(mismatch({ ...fm, license: "MIT" }).field, "license");
    const missing = mismatch({ name: FM.name, description: FM.description });
    assert.equal(missing.field, "metadata");
    assert.equal(missing.expected, undefined);
    assert.equal(missing.actual, '{"version":2,"tags":["a","b"]}');
    // A blob SKILL.md, bytes that are not UTF-8, and YAML that readers disagree on are refused.
    refused(() => verifySkillMd(entry, { contents: [{ uri: U, blob: Buffer.from(MD).toString("base64") }] }), "invalid-read-result");
    const latin1 = Buffer.from("---\nname: pdf-processing\ndescription: caf\xe9\n---\n", "latin1");
    refused(() => verifySkillMd(entryFor(U, FM, [[U, latin1]]), latin1), "frontmatter-invalid");
    for (const f of ["no frontmatter\n", "---\nname: pdf-processing\nname: x\n---\n", "---\nname: pdf-processing\nenabled: !!bool yes\n---\n"]) {
      const e = refused(() => verifySkillMd(entryFor(U, FM, [[U, f]]), f), "frontmatter-invalid", { uri: U });
      assert.match(e.actual, /^frontmatter-/);
    }
    // Values that are only ambiguous across YAML versions (refused when publishing) verify as
    // yaml@2 reads them, and any other reading is a mismatch.
    const third = `---\nname: ${FM.name}\ndescription: ${FM.description}\nreviewed: yes\nsince: 2024-01-01\nbuild: 007\n---\n`;
    const read = { ...FM, reviewed: "yes", since: "2024-01-01", build: 7 };
    assert.deepEqual(verifySkillMd(entryFor(U, read, [[U, third]]), third).frontmatter, read);
    assert.equal(refused(() => verifySkillMd(entryFor(U, { ...read, reviewed: true }, [[U, third]]), third), "frontmatter-mismatch").field, "reviewed");
    assert.equal(refused(() => verifySkillMd(entryFor(U, { ...read, build: "007" }, [[U, third]]), third), "frontmatter-mismatch").field, "build");
  });

  test(`${from}: resolveReference resolves against the skill root and refuses escapes`, () => {
    const u = "skill://acme/billing/refunds/SKILL.md";
    assert.equal(resolveReference(u, "references/GUIDE.md"), "skill://acme/billing/refunds/references/GUIDE.md");
    assert.equal(resolveReference(u, "./templates/../a.md#top"), "skill://acme/billing/refunds/a.md");
    assert.equal(resolveReference("skill://acme/billing/refunds/nested/SKILL.md", "x.md"), "skill://acme/billing/refunds/nested/x.md");
    for (const r of ["../chargebacks/SKILL.md", "a/../../x", "/etc/passwd", "skill://acme/billing/refunds-extra/x", "https://example.com/x"]) {
      refused(() => resolveReference(u, r), "escapes-root", { uri: r });
    }
    refused(() => resolveReference(u, ""), "invalid-reference");
    refused(() => resolveReference(u, "a\\b"), "invalid-reference");
    refused(() => resolveReference("skill://acme", "x"), "invalid-argument");
  });

  test(`${from}: approvalFingerprint binds (label, skill URI, every {uri, digest}) and nothing else`, () => {
    const f = approvalFingerprint("work", entry);
    assert.match(f, /^sha256:[0-9a-f]{64}$/);
    assert.equal(approvalFingerprint("work", { ...entry, _meta: { x: 1 }, resources: [...entry.resources].reverse() }), f);
    assert.equal(approvalFingerprint("work", { ...entry, resources: entry.resources.map((r) => ({ ...r, size: r.size })) }), f);
    assert.notEqual(approvalFingerprint("home", entry), f);
    assert.notEqual(approvalFingerprint("work", entryFor(U, FM, [[U, MD], [FORMS_U, "changed"], [PNG_U, PNG]])), f);
    assert.notEqual(approvalFingerprint("work", entryFor(U, FM, [[U, MD], [FORMS_U, FORMS]])), f);
    // The documented encoding: length-prefixed fields, files sorted by URI.
    const field = (s) => { const b = Buffer.from(s); const n = Buffer.alloc(8); n.writeBigUInt64BE(BigInt(b.length)); return Buffer.concat([n, b]); };
    const count = Buffer.alloc(8); count.writeBigUInt64BE(3n);
    const pairs = [...entry.resources].sort((a, b) => Buffer.compare(Buffer.from(a.uri), Buffer.from(b.uri)));
    const msg = Buffer.concat([field("skills-edge approval v1"), field("work"), field(U), count, ...pairs.flatMap((r) => [field(r.uri), field(r.digest)])]);
    assert.equal(f, digestOf(msg));
  });

  test(`${from}: sha256Digest hashes text as UTF-8 and bytes as given`, () => {
    assert.equal(sha256Digest(""), "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    assert.equal(sha256Digest("a"), "sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb");
    assert.equal(sha256Digest("é😀"), digestOf(Buffer.from("é😀")));
    assert.equal(sha256Digest(PNG), digestOf(PNG));
    refused(() => sha256Digest({}), "invalid-argument");
  });

  test(`${from}: skillRevision is the Agent Skills Discovery RFC's skill-level digest, from the entry alone`, () => {
    // The RFC's worked example: SKILL.md = "# Hello\n", scripts/run.sh = "#!/bin/sh\n".
    const U = "skill://hello/SKILL.md";
    const rfc = {
      uri: U,
      frontmatter: { name: "hello", description: "d" },
      resources: [
        { uri: "skill://hello/scripts/run.sh", digest: sha256Digest("#!/bin/sh\n"), size: 10 },
        { uri: U, digest: sha256Digest("# Hello\n"), size: 8 },
      ],
    };
    assert.equal(skillRevision(rfc), "sha256:34f7a8c484e9991f3e71a309f31332d6335efc01f544105c4185a7c4ab12eb1e");
    // Any file change changes it; the order of `resources`, sizes and unknown fields do not.
    assert.equal(skillRevision({ ...rfc, resources: [...rfc.resources].reverse(), _meta: { x: 1 } }), skillRevision(rfc));
    const changed = { ...rfc, resources: [rfc.resources[0], { ...rfc.resources[1], digest: sha256Digest("# Hi\n") }] };
    assert.notEqual(skillRevision(changed), skillRevision(rfc));
    assert.equal(skillRevision({ ...rfc, resources: "dynamic" }), undefined);
    refused(() => skillRevision({ uri: U }), "invalid-entry");
  });
}
