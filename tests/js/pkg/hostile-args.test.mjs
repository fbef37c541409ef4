// Wrong-typed and hostile arguments never break the WebAssembly instance. Every export,
// constructor and method (enumerated from the module and the classes' prototypes, so a new
// one without an argument table entry fails here) is called with every hostile value in every
// argument position and with too few arguments. Each call either succeeds (where the value is
// acceptable) or throws a SkillsEdgeError; a value of the wrong type is refused with a message
// naming the function and the parameter. The async functions never throw: their promise
// resolves or rejects the same way; they are called as exported and built to hash everything
// with crypto.subtle (threshold 0), so both of their paths meet every value. Afterwards the
// same instance still serves, verifies and keeps its registry state. Exotic values (throwing
// proxies, revoked proxies, fake and detached byte arrays) are repeated past the point where
// exceptions thrown through the WebAssembly frames used to exhaust its stack.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as pkg from "skills-edge";
import { SkillHost, SkillsServer, isSkillsEdgeError, compileCatalog, verifyFile } from "skills-edge";
import { META, asyncWith, digestOf, entryFor } from "./common.mjs";
import { envelopeFor, signingKey } from "./signing.mjs";

const U = "skill://a/SKILL.md";
const MD = "---\nname: a\ndescription: d\n---\nbody\n";
const entry = entryFor(U, { name: "a", description: "d" }, [[U, MD], ["skill://a/x.md", "x"]]);
const readResult = { contents: [{ uri: U, mimeType: "text/markdown", text: MD }] };
const { pack } = compileCatalog([{ path: "a/SKILL.md", bytes: MD }]);
const MD_SIZE = Buffer.byteLength(MD);
const MD_DIGEST = digestOf(MD);
const forced = await asyncWith({ threshold: 0 });
const SIGNING_KEY = signingKey();
const ENVELOPE = JSON.stringify(envelopeFor(entry, SIGNING_KEY, "acme", "sha256:0"));
const SIGNER = SIGNING_KEY.publicJwk;

// What each parameter accepts, as a JavaScript type (what is refused with invalid-argument,
// invalid-entry or invalid-read-result before anything else happens).
const isObject = (v) => (typeof v === "object" && v !== null);
const inst = (v, C) => { try { return v instanceof C; } catch { return false; } };
const isBytes = (v) => inst(v, Uint8Array);
const isArray = (v) => { try { return Array.isArray(v); } catch { return false; } };
const isRecord = (v) => isObject(v) && !isArray(v) && !isBytes(v) && !inst(v, ArrayBuffer);
const kinds = {
  string: (v) => typeof v === "string",
  entry: isRecord,
  content: (v) => typeof v === "string" || isBytes(v),
  contentOrResult: (v) => typeof v === "string" || isBytes(v) || isRecord(v),
  result: isRecord,
  options: (v) => v === undefined || v === null || isRecord(v),
  headers: (v) => v === undefined || v === null || isObject(v),
  message: (v) => typeof v === "string" || (isObject(v) && !isBytes(v)),
  json: (v) => isObject(v) && !isBytes(v),
  textOrJson: (v) => typeof v === "string" || (isObject(v) && !isBytes(v)),
  entries: isArray,
  bytes: isBytes,
  size: (v) => Number.isSafeInteger(v) && v >= 0,
  digest: (v) => typeof v === "string" && /^sha256:[0-9a-f]{64}$/.test(v),
  io: (v) => isObject(v),
  optionalString: (v) => v === undefined || v === null || typeof v === "string",
  optionalStrings: (v) => v === undefined || (isArray(v) && v.every((s) => typeof s === "string")),
  optionalLimit: (v) => v === undefined || (Number.isSafeInteger(v) && v >= 1),
  request: (v) => inst(v, Request),
  functionOrOptions: (v) => v === undefined || v === null || typeof v === "function" || isRecord(v),
  unknown: () => true,
};

// A transport for SkillsClientCore whose every request fails: the core's promises settle
// (with a SkillsEdgeError, or a command output with exit status 2) without a server.
const io = {
  post: async () => { throw { code: "connection-failed", message: "no server in this test" }; },
  request: async () => { throw { code: "connection-failed", message: "no server in this test" }; },
};

// name -> [[parameter, kind, a valid value], ...]; `this` for methods comes from `make`.
/** A PublishIo whose every step fails: `publish --help` only writes to stdout. */
const publishIo = {
  env: {},
  scratch: "/nonexistent/skills-edge-publish-test",
  readFolder: () => [],
  readFile: () => "No such file or directory (os error 2)",
  writeFile: () => "Permission denied (os error 13)",
  removeFile: () => {},
  makeDir: () => "Permission denied (os error 13)",
  removeDir: () => {},
  run: () => "No such file or directory (os error 2)",
  stdout: () => {},
  stderr: () => {},
};

const free = {
  inspectorFiles: [],
  validateEntry: [["entry", "entry", entry]],
  checkLimits: [["entry", "entry", entry]],
  verifyFile: [["entry", "entry", entry], ["uri", "string", U], ["content", "content", MD], ["options", "options", {}]],
  verifyReadResult: [["entry", "entry", entry], ["uri", "string", U], ["result", "result", readResult], ["options", "options", undefined]],
  verifySkillMd: [["entry", "entry", entry], ["content", "contentOrResult", MD]],
  resolveReference: [["skillUri", "string", U], ["reference", "string", "x.md"]],
  approvalFingerprint: [["serverLabel", "string", "s"], ["entry", "entry", entry]],
  skillRevision: [["entry", "entry", entry]],
  sha256Digest: [["content", "content", "x"]],
  verifyEnvelope: [["envelope", "textOrJson", ENVELOPE], ["key", "textOrJson", SIGNER]],
  verifyFileDigest: [["entry", "entry", entry], ["uri", "string", U], ["size", "size", MD_SIZE], ["digest", "digest", MD_DIGEST], ["options", "options", {}]],
  checkFileDigest: [["entry", "entry", entry], ["uri", "string", U], ["size", "size", MD_SIZE], ["digest", "digest", MD_DIGEST], ["options", "options", {}]],
  checkFileSize: [["entry", "entry", entry], ["uri", "string", U], ["size", "size", MD_SIZE], ["options", "options", undefined]],
  readResultContent: [["entry", "entry", entry], ["uri", "string", U], ["result", "result", readResult], ["options", "options", undefined]],
  verifySkillMdDigest: [["entry", "entry", entry], ["content", "contentOrResult", MD], ["digest", "digest", MD_DIGEST]],
  errorCodes: [],
  isSkillsEdgeError: [["value", "unknown", new Error("x")]],
  compileCatalog: [["entries", "entries", [{ path: "a/SKILL.md", bytes: MD }]], ["options", "options", { root: "r" }]],
  inspectPack: [["pack", "bytes", pack]],
  buildOptions: [["env", "entry", { SKILLS_STRICT: "1" }], ["inlineMax", "optionalString", "100"]],
  signingKeyFiles: [["out", "string", "keys"], ["seed", "bytes", new Uint8Array(32).fill(7)]],
  parseVerifyArgs: [["args", "entries", ["http://127.0.0.1:1/mcp"]]],
  verifyUsage: [],
  parseCommand: [["args", "entries", ["check", "skills"]], ["env", "entry", { SKILLS_STRICT: "1" }]],
  commandUsage: [],
  timeoutBounds: [],
  runVerifyCommand: [["args", "entries", ["http://127.0.0.1:1/mcp"]], ["io", "io", io], ["files", "options", { trust: [] }]],
  runPublishCommand: [["args", "entries", ["publish", "--help"]], ["io", "io", publishIo]],
  verifyWellKnown: [["io", "io", io], ["url", "string", "http://127.0.0.1:1"], ["options", "options", { trustOnFirstUse: true }]],
};
// The async functions (the ES module layer), with the parameters of their synchronous twins.
const asyncFree = {
  sha256DigestAsync: free.sha256Digest,
  verifyFileAsync: free.verifyFile,
  verifyReadResultAsync: free.verifyReadResult,
  verifySkillMdAsync: free.verifySkillMd,
};
const ctors = {
  SkillsServer: [["options", "options", { pageSize: 5 }]],
  SkillHost: [["options", "options", { allowDynamic: false }]],
  SkillsClientCore: [["options", "options", { label: "s" }]],
};
const IO = ["io", "io", io];
const PINS = '{"format":"skills-edge/pins","version":1,"pins":[]}';
const L = ["label", "string", "s"];
const uri = ["uri", "string", U];
const methods = {
  SkillsServer: {
    handle: [["message", "message", { jsonrpc: "2.0", id: 1, method: "ping" }], ["options", "options", { scopes: ["a"] }]],
    handleText: [["message", "string", '{"jsonrpc":"2.0","id":1,"method":"ping"}'], ["options", "options", undefined]],
    handleHttp: [["message", "string", '{"jsonrpc":"2.0","id":1,"method":"ping"}'], ["headers", "headers", {}], ["options", "options", { scopes: "a b" }]],
    // A GET: answered from its head (405), so one request serves every call. The second
    // argument is `own` (a function) or `{ own?, scopes? }`.
    fetch: [["request", "request", new Request("http://127.0.0.1/mcp")], ["options", "functionOrOptions", undefined]],
    readFile: [uri, ["options", "options", { scopes: ["a"] }]],
    catalogInfo: [],
  },
  SkillHost: {
    addServer: [L],
    removeServer: [L],
    servers: [],
    register: [L, ["entry", "entry", entry]],
    refresh: [L, ["entry", "entry", entry]],
    registerListing: [L, ["listing", "json", [entry]]],
    registerGetResult: [L, uri, ["result", "json", { skill: entry }]],
    forget: [L, uri],
    entry: [L, uri],
    skills: [],
    lookup: [["displayName", "string", "a"]],
    planLoad: [L, uri],
    load: [L, uri, ["content", "contentOrResult", MD]],
    planRead: [L, ["skillUri", "string", U], ["reference", "string", "x.md"]],
    read: [L, ["skillUri", "string", U], ["reference", "string", "x.md"], ["content", "contentOrResult", "x"]],
    isActive: [L, uri],
    closeWindow: [L, uri],
    approve: [L, uri],
    revoke: [L, uri],
    isApproved: [L, uri],
    exportApprovals: [],
    importApprovals: [["approvals", "textOrJson", '{"format":"skills-edge/approvals","version":1,"approvals":[]}']],
    setOrigin: [L, ["origin", "string", "https://skills.example"]],
    signer: [L, uri],
    exportPins: [],
    importPins: [["pins", "textOrJson", PINS]],
    acceptSignerChange: [["origin", "string", "https://skills.example"]],
  },
  SkillsClientCore: {
    setHeaders: [["headers", "json", [["authorization", "Bearer x"]]], ["token", "optionalString", undefined]],
    connect: [IO, ["era", "string", "auto"]],
    attach: [["facts", "json", { protocolVersion: "2026-07-28", capabilities: {} }]],
    facts: [],
    list: [IO],
    get: [IO, uri],
    load: [IO, uri],
    read: [IO, ["skillUri", "string", U], ["reference", "string", "x.md"]],
    readDirectory: [IO, ["uri", "string", "skill://a"]],
    search: [IO, ["query", "string", "review"], ["tags", "optionalStrings", ["a"]], ["limit", "optionalLimit", 3]],
    verify: [IO, ["url", "string", "http://127.0.0.1:1/mcp"], ["skill", "optionalString", undefined]],
    skills: [],
    entry: [uri],
    approve: [uri],
    isApproved: [uri],
    revoke: [uri],
    isActive: [uri],
    closeWindow: [uri],
    exportApprovals: [],
    importApprovals: [["approvals", "textOrJson", '{"format":"skills-edge/approvals","version":1,"approvals":[]}']],
    signer: [uri],
    origin: [],
    exportPins: [],
    importPins: [["pins", "textOrJson", PINS]],
    acceptSignerChange: [],
  },
};

/** A call's outcome, with a promise's rejection handled (the barrage checks what is thrown synchronously). */
function settle(value) {
  if (value && typeof value.then === "function") value.then(() => {}, () => {});
  return value;
}
// Methods wasm-bindgen adds to every class.
const GLUE = new Set(["constructor", "free", "__destroy_into_raw"]);

// Values that can only be made in the test: hostile objects and byte arrays.
function hostileValues() {
  const throwing = new Proxy({}, new Proxy({}, { get: () => () => { throw new Error("trap"); } }));
  const { proxy: revoked, revoke } = Proxy.revocable({}, {});
  revoke();
  const { proxy: revokedArray, revoke: revokeArray } = Proxy.revocable([], {});
  revokeArray();
  const spoofed = new Uint8Array(4);
  Object.defineProperty(spoofed, "length", { value: 2 ** 40 });
  const lying = new Uint8Array(4);
  Object.defineProperty(lying, "length", { get() { throw new Error("length"); } });
  const detached = new Uint8Array(8);
  structuredClone(detached.buffer, { transfer: [detached.buffer] });
  const cyclic = {};
  cyclic.self = cyclic;
  return {
    undefined: undefined,
    null: null,
    zero: 0,
    number: 42,
    NaN: NaN,
    fraction: -1.5,
    boolean: true,
    "empty string": "",
    "String object": new String("x"),
    symbol: Symbol("s"),
    bigint: 10n,
    function: () => 1,
    class: class X {},
    object: {},
    "null-prototype object": Object.create(null),
    array: [],
    "array of junk": [1, "a", null, {}],
    Uint8Array: new Uint8Array(2),
    ArrayBuffer: new ArrayBuffer(2),
    Date: new Date(0),
    Map: new Map([["a", 1]]),
    "throwing getters": { get uri() { throw new Error("getter"); }, get pageSize() { throw new Error("getter"); }, get path() { throw new Error("getter"); }, get length() { throw new Error("getter"); } },
    "throwing toJSON": { toJSON() { throw new Error("toJSON"); } },
    "proxy that throws on every trap": throwing,
    "revoked proxy": revoked,
    "revoked array proxy": revokedArray,
    "fake Uint8Array": Object.create(Uint8Array.prototype),
    "Uint8Array with a huge own length": spoofed,
    "Uint8Array whose length throws": lying,
    "detached Uint8Array": detached,
    "cyclic object": cyclic,
    "object with a BigInt": { id: 1n, pageSize: 1n },
  };
}
const hostile = hostileValues();
const EXOTIC = ["throwing getters", "throwing toJSON", "proxy that throws on every trap", "revoked proxy", "revoked array proxy", "fake Uint8Array", "Uint8Array with a huge own length", "Uint8Array whose length throws", "detached Uint8Array", "cyclic object"];

/** A fresh, populated SkillHost: a server, an entry, an approval. */
function populatedHost() {
  const h = new SkillHost();
  h.addServer("s");
  h.register("s", entry);
  h.approve("s", U);
  return h;
}

/** A SkillsClientCore with a skill registered through an SDK-style transport and approved. */
async function populatedCore() {
  const core = new pkg.SkillsClientCore({ label: "s" });
  core.attach({ protocolVersion: "2026-07-28", capabilities: { extensions: { "io.modelcontextprotocol/skills": {} } } });
  const listing = { skills: [entry], ttlMs: 0, cacheScope: "private" };
  await core.list({ request: async () => listing });
  core.approve(U);
  return core;
}

/**
 * Calls `fn(args)` and checks the outcome against the parameter table; with `async`, `fn` must
 * return a promise and never throw, and its rejection is the outcome.
 */
async function check(label, params, args, fn, async) {
  let error;
  let result;
  try {
    result = fn(...args);
  } catch (e) {
    assert.ok(!async, `${label}: threw synchronously: ${e}`);
    error = e;
  }
  if (async && error === undefined) {
    assert.ok(result instanceof Promise, `${label}: did not return a promise`);
    try {
      await result;
    } catch (e) {
      error = e;
    }
  }
  const wrong = params.findIndex(([, kind], i) => !kinds[kind](args[i]));
  if (error === undefined) {
    assert.equal(wrong, -1, `${label}: ${params[wrong]?.[0]} of the wrong type was accepted`);
    return;
  }
  assert.ok(!(error instanceof WebAssembly.RuntimeError), `${label}: trapped: ${error}`);
  assert.ok(isSkillsEdgeError(error), `${label}: not a SkillsEdgeError: ${error?.stack ?? String(error)}`);
  if (wrong !== -1) {
    const [param] = params[wrong];
    assert.ok(error.message.includes(`: ${param} `), `${label}: the message does not name ${param}: ${error.message}`);
    assert.ok(["invalid-argument", "invalid-entry", "invalid-read-result"].includes(error.code), `${label}: ${error.code}`);
  }
}

/** Every call of the barrage: [label, params, args, fn, async]. */
function* calls(values, server, host, core) {
  const targets = [];
  for (const [name, params] of Object.entries(free)) targets.push([name, params, (...a) => settle(pkg[name](...a))]);
  for (const [name, params] of Object.entries(asyncFree)) {
    targets.push([name, params, (...a) => pkg[name](...a), true]);
    targets.push([`${name} (crypto.subtle at every size)`, params, (...a) => forced[name](...a), true]);
  }
  for (const [name, params] of Object.entries(ctors)) targets.push([`new ${name}`, params, (...a) => { const o = new pkg[name](...a); o.free(); }]);
  for (const [name, params] of Object.entries(methods.SkillsServer)) targets.push([`SkillsServer.${name}`, params, (...a) => server[name](...a)]);
  for (const [name, params] of Object.entries(methods.SkillHost)) targets.push([`SkillHost.${name}`, params, (...a) => host[name](...a)]);
  for (const [name, params] of Object.entries(methods.SkillsClientCore)) targets.push([`SkillsClientCore.${name}`, params, (...a) => settle(core[name](...a))]);
  for (const [label, params, fn, async = false] of targets) {
    const valid = params.map(([, , v]) => v);
    for (let n = 0; n < params.length; n++) yield [`${label} with ${n} arguments`, params, valid.slice(0, n), fn, async];
    for (let i = 0; i < params.length; i++) {
      for (const [what, value] of Object.entries(values)) {
        const args = [...valid];
        args[i] = value;
        yield [`${label}: ${params[i][0]} = ${what}`, params, args, fn, async];
      }
    }
  }
}

test("every export, constructor and method has an argument table entry", () => {
  const exported = Object.keys(pkg).filter((k) => typeof pkg[k] === "function");
  const classes = Object.keys(ctors);
  assert.deepEqual(exported.filter((k) => !classes.includes(k)).sort(), [...Object.keys(free), ...Object.keys(asyncFree)].sort(), "free functions");
  assert.deepEqual(exported.filter((k) => classes.includes(k)).sort(), classes.sort(), "classes");
  for (const c of classes) {
    const names = Object.getOwnPropertyNames(pkg[c].prototype).filter((k) => !GLUE.has(k));
    assert.deepEqual(names.sort(), Object.keys(methods[c]).sort(), `${c} methods`);
    for (const [name, params] of Object.entries(methods[c])) {
      assert.equal(pkg[c].prototype[name].length, params.length, `${c}.${name} arity`);
    }
  }
  for (const [name, params] of Object.entries({ ...free, ...asyncFree })) assert.equal(pkg[name].length, params.length, `${name} arity`);
  for (const name of Object.keys(asyncFree)) assert.equal(forced[name].length, pkg[name].length, `${name} arity`);
});

test("wrong-typed and hostile arguments are refused with a SkillsEdgeError; the instance keeps working", async () => {
  const server = new SkillsServer({ pack, pageSize: 5 });
  const host = populatedHost();
  const core = await populatedCore();
  let count = 0;
  for (const [label, params, args, fn, async] of calls(hostile, server, host, core)) {
    await check(label, params, args, fn, async);
    count++;
  }
  assert.ok(count > 1500, `${count} calls`);

  // The same instance serves, verifies and keeps its registry state.
  const reply = server.handle({ jsonrpc: "2.0", id: 1, method: "skills/list", params: { _meta: META } });
  assert.deepEqual(reply.result.skills.map((s) => s.uri), [U]);
  assert.equal(verifyFile(entry, "skill://a/x.md", "x").verified, true);
  assert.equal(
    pkg.sha256Digest("abc"),
    "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
  );
  for (const digest of [pkg.sha256DigestAsync, forced.sha256DigestAsync]) {
    assert.equal(await digest("abc"), "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  }
  assert.equal((await forced.verifyFileAsync(entry, "skill://a/x.md", "x")).verified, true);
  assert.deepEqual(host.servers(), ["s"]);
  assert.deepEqual(host.entry("s", U), entry);
  assert.equal(host.isApproved("s", U), true);
  assert.match(host.exportApprovals(), /"fingerprint":"sha256:/);
  assert.equal(host.load("s", U, MD).verified, true);
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(core.isApproved(U), true);
  assert.deepEqual(core.entry(U), entry);
  // The barrage's connect calls with hostile io objects fail, and a failed connect forgets the
  // facts of the earlier connection (they describe no connection any more).
  assert.equal(core.facts(), undefined);
});

test("a hostile platform digest on the io object changes no outcome: the verifier hashes instead", async () => {
  const core = await populatedCore();
  const read = { contents: [{ uri: U, mimeType: "text/markdown", text: MD }] };
  const tampered = { contents: [{ uri: U, text: MD.replace("body", "evil") }] };
  const sdk = (result) => ({ request: async (method) => (method === "resources/read" ? result : { skill: entry, ttlMs: 0, cacheScope: "private" }) });
  const expected = await core.load(sdk(read), U);
  const refused = await core.load(sdk(tampered), U).then(() => assert.fail("tampered content loaded"), (e) => e);
  assert.equal(refused.code, "digest-mismatch");
  const ios = (result) => [
    ...Object.entries(hostile).map(([what, value]) => [`digest ${what}`, { ...sdk(result), digest: value }]),
    ...Object.entries(hostile).map(([what, value]) => [`digest giving ${what}`, { ...sdk(result), digest: () => value }]),
    ...Object.entries(hostile).map(([what, value]) => [`digest resolving to ${what}`, { ...sdk(result), digest: async () => value }]),
    ...Object.entries(hostile).map(([what, value]) => [`digestThreshold ${what}`, { ...sdk(result), digestThreshold: value, digest: () => "sha256:" + "0".repeat(64) }]),
    ["a throwing digest getter", Object.defineProperty(sdk(result), "digest", { get() { throw new Error("no"); } })],
    ["a digest that throws", { ...sdk(result), digest: () => { throw new Error("no"); } }],
    ["an uppercase digest", { ...sdk(result), digest: () => MD_DIGEST.toUpperCase() }],
  ];
  // A threshold the core can use (a number from 0 to the file's size; absent is 0) hands the
  // all-zero digest over, which the verifier compares and refuses; any other leaves the
  // hashing to WebAssembly.
  const usable = (v) => v === undefined || (typeof v === "number" && v >= 0 && v <= MD_SIZE);
  for (const [what, io] of ios(read)) {
    const got = await core.load(io, U).catch((e) => e);
    if (what.startsWith("digestThreshold") && usable(io.digestThreshold)) {
      assert.equal(got.code, "digest-mismatch", `${what}: ${got.message}`);
    } else {
      assert.deepEqual(got, expected, what);
    }
  }
  for (const [what, io] of ios(tampered)) {
    const got = await core.load(io, U).then(() => assert.fail(`${what}: tampered content loaded`), (e) => e);
    assert.equal(got.code, "digest-mismatch", what);
    assert.equal(got.message, refused.message, what);
  }
  assert.equal(core.isApproved(U), true);
});

test("exotic arguments repeated thousands of times do not exhaust the instance", async () => {
  const server = new SkillsServer();
  const host = populatedHost();
  const core = await populatedCore();
  const exotic = Object.fromEntries(EXOTIC.map((k) => [k, hostile[k]]));
  let count = 0;
  for (let round = 0; round < 8; round++) {
    for (const [label, params, args, fn, async] of calls(exotic, server, host, core)) {
      await check(label, params, args, fn, async);
      count++;
    }
  }
  assert.ok(count > 5000, `${count} calls`);
  const reply = server.handle({ jsonrpc: "2.0", id: 1, method: "skills/list", params: { _meta: META } });
  assert.ok(reply.result.skills.length > 0, JSON.stringify(reply));
  assert.deepEqual(host.servers(), ["s"]);
  assert.equal(host.isApproved("s", U), true);
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(core.isApproved(U), true);
});

test("a caller's code that re-enters the instance while an argument is read gets an error, not a trap", () => {
  const host = populatedHost();
  let inner;
  const reentrant = { toJSON() { try { host.addServer("x"); } catch (e) { inner = e; } return entry; } };
  for (let i = 0; i < 5000; i++) {
    try { host.register("s", reentrant); } catch (e) { assert.ok(!(e instanceof WebAssembly.RuntimeError), String(e)); }
  }
  assert.ok(inner instanceof Error && !(inner instanceof WebAssembly.RuntimeError), String(inner));
  assert.deepEqual(host.servers(), ["s"]);
  assert.equal(host.isApproved("s", U), true);
});

// A method called on a freed object, or on something that is not an instance of its class, is
// refused in JavaScript before any wasm runs (the guard build-pkg.sh puts at every method call
// site), so no number of such calls can exhaust the module's stack.
test("a method called on a freed object or a foreign `this` throws invalid-argument, never a trap", () => {
  const server = new SkillsServer();
  const host = populatedHost();
  server.free();
  host.free();
  const calls = [
    () => server.handleText("{}"),
    () => host.servers(),
    () => host.addServer("t"),
    () => SkillHost.prototype.addServer.call(new SkillsServer(), "t"),
    () => SkillsServer.prototype.handleText.call({ __wbg_ptr: 8 }, "{}"),
    () => SkillHost.prototype.servers.call(undefined),
  ];
  for (let i = 0; i < 20_000; i++) {
    const call = calls[i % calls.length];
    let error;
    try { call(); } catch (e) { error = e; }
    assert.ok(!(error instanceof WebAssembly.RuntimeError), `trapped at call ${i}: ${error}`);
    assert.ok(isSkillsEdgeError(error), `call ${i}: ${error}`);
    assert.equal(error.code, "invalid-argument");
  }
  const again = new SkillsServer();
  const reply = again.handle({ jsonrpc: "2.0", id: 1, method: "skills/list", params: { _meta: META } });
  assert.ok(reply.result.skills.length > 0, JSON.stringify(reply));
});

// Content is measured when its argument is read, and read after the options: an options getter
// that detaches or shrinks the content's buffer in between makes the call fail. It never gives
// a verdict over bytes it did not read (the fixed buffer still holds the last file's bytes).
test("an options getter that detaches or shrinks the content gets an error, never a verdict", async () => {
  const uri = "skill://a/x.bin";
  for (const n of [1000, 3 * 65536 + 7]) {
    const genuine = new Uint8Array(n).fill(7);
    const tampered = genuine.slice();
    tampered[n - 1] = 8;
    const e = { uri: U, frontmatter: { name: "a", description: "d" }, resources: [{ uri: U, digest: MD_DIGEST, size: MD_SIZE }, { uri, digest: digestOf(genuine), size: n }] };
    const cases = {
      detached: () => {
        const c = tampered.slice();
        return [c, () => structuredClone(c.buffer, { transfer: [c.buffer] })];
      },
      "shrunk by 1 byte": () => {
        const buffer = new ArrayBuffer(n, { maxByteLength: n });
        const c = new Uint8Array(buffer);
        c.set(tampered);
        return [c, () => buffer.resize(n - 1)];
      },
    };
    for (const [what, make] of Object.entries(cases)) {
      for (const [name, call] of [["verifyFile", (c, o) => verifyFile(e, uri, c, o)], ["verifyFileAsync", (c, o) => forced.verifyFileAsync(e, uri, c, o)]]) {
        assert.equal(verifyFile(e, uri, genuine).verified, true); // the fixed buffer now holds the genuine bytes
        const [content, change] = make();
        const options = { get allowDynamic() { change(); return false; } };
        let error;
        try {
          await call(content, options);
        } catch (x) {
          error = x;
        }
        assert.ok(isSkillsEdgeError(error), `${name}, ${n} bytes, ${what}: ${error}`);
        if (name === "verifyFile") {
          assert.equal(error.code, "invalid-argument", error.message);
          assert.match(error.message, /^verifyFile: content could not be read: its buffer was detached or resized/);
        } else {
          // The async path hashes what crypto.subtle still sees, or falls back: never verified.
          assert.ok(["invalid-argument", "digest-mismatch"].includes(error.code), `${name}, ${what}: ${error.code} ${error.message}`);
        }
      }
    }
  }
});
