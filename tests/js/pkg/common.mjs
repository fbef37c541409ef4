// What the package tests share. These files are copied into a temporary project that
// installed the packed tarball, so `skills-edge` resolves exactly as it does for a user.
import assert from "node:assert/strict";
import { createHash, generateKeyPairSync, sign as ed25519Sign } from "node:crypto";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { SkillsServer, isSkillsEdgeError, skillRevision } from "skills-edge";

export const MODERN = "2026-07-28";
export const META = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** The repository root (for the frontmatter corpus and the development dependencies). */
export const REPO = process.env.SKILLS_EDGE_REPO ?? "";

export const digestOf = (bytes) => "sha256:" + createHash("sha256").update(bytes).digest("hex");

let nextId = 1;

/** Sends one 2026-07-28 request to an in-page server; returns the result (throws on an error). */
export function call(server, method, params = {}) {
  const reply = server.handle({ jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: META } });
  assert.ok(reply && "result" in reply, `${method}: ${JSON.stringify(reply)}`);
  return reply.result;
}

/** Every entry of skills/list, following nextCursor. */
export function listAll(server) {
  const entries = [];
  let cursor;
  for (let page = 0; page < 100; page++) {
    const result = call(server, "skills/list", cursor === undefined ? {} : { cursor });
    entries.push(...result.skills);
    cursor = result.nextCursor;
    if (cursor === undefined) return entries;
  }
  throw new Error("skills/list does not terminate");
}

/** A resources/read result. */
export const read = (server, uri) => call(server, "resources/read", { uri });

let shared;
/** One server over the embedded catalog, with small pages so paging is exercised. */
export function server() {
  shared ??= new SkillsServer({ pageSize: 2 });
  return shared;
}

/** An entry for `files` ([uri, text-or-bytes] pairs); the first file is the SKILL.md. */
export function entryFor(uri, frontmatter, files) {
  return {
    uri,
    frontmatter,
    resources: files.map(([u, content]) => {
      const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
      return { uri: u, digest: digestOf(bytes), size: bytes.length };
    }),
  };
}

/** Runs `fn`, expects a SkillsEdgeError with `code` (and the given properties); returns it. */
export function refused(fn, code, props = {}) {
  let error;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  return checkRefusal(error, code, props);
}

/** `refused` for an async function: the promise must reject (never throw synchronously). */
export async function rejected(fn, code, props = {}) {
  let promise;
  try {
    promise = fn();
  } catch (e) {
    assert.fail(`threw synchronously instead of rejecting: ${e}`);
  }
  assert.ok(promise instanceof Promise, "returns a promise");
  let error;
  try {
    await promise;
  } catch (e) {
    error = e;
  }
  return checkRefusal(error, code, props);
}

function checkRefusal(error, code, props) {
  assert.ok(error, `expected ${code}, nothing was thrown`);
  assert.ok(error instanceof Error, "a real Error");
  assert.ok(isSkillsEdgeError(error), `a SkillsEdgeError: ${error}`);
  assert.equal(error.name, "SkillsEdgeError");
  assert.equal(error.code, code, error.message);
  for (const [k, v] of Object.entries(props)) assert.equal(error[k], v, `${code}.${k}`);
  codesSeen.add(code);
  return error;
}

/** Every code some test in this process has seen thrown. */
export const codesSeen = new Set();

/** The installed package's folder. */
export const PKG_DIR = dirname(createRequire(import.meta.url).resolve("skills-edge/package.json"));

/**
 * The async verifier functions of the installed package built with other settings (async-verifier.js,
 * over the same instance of the Node glue): `{ threshold: 0 }` hashes everything with
 * crypto.subtle, `{ subtle: () => undefined }` nothing (the WebAssembly fallback of a
 * plain-http page).
 */
export async function asyncWith(settings) {
  const { asyncVerifier } = await import(pathToFileURL(join(PKG_DIR, "lib", "async-verifier.js")).href);
  return asyncVerifier(createRequire(import.meta.url)("skills-edge"), settings);
}

/**
 * node:crypto's SHA-256 as the installed package hands it to the async verifier functions
 * (nodeCrypto) and to SkillsClient in Node (nodeIoDigest, the `digest` and `digestThreshold` of
 * a SkillsClientCore io object; lib/node-digest.js), `ioDigest` (lib/async-verifier.js), which makes
 * those of a SubtleCrypto-like digest, and PRECHECK_THRESHOLD (lib/async-verifier.js), from which
 * verifyFileAsync checks the size before hashing.
 */
export async function platformDigests() {
  const digests = await import(pathToFileURL(join(PKG_DIR, "lib", "node-digest.js")).href);
  const { nodeCrypto, nodeIoDigest, NODE_DIGEST_THRESHOLD } = digests;
  const { ioDigest, PRECHECK_THRESHOLD } = await import(pathToFileURL(join(PKG_DIR, "lib", "async-verifier.js")).href);
  return { nodeCrypto, nodeIoDigest, NODE_DIGEST_THRESHOLD, PRECHECK_THRESHOLD, ioDigest };
}

/**
 * SkillsClient of the installed package over the same instance of the Node glue, with
 * `platformDigest()` giving each operation's digest (lib/client.js makeSkillsClient;
 * `() => undefined`: WebAssembly only, as on a plain-http page).
 */
export async function clientWith(platformDigest) {
  const { makeSkillsClient } = await import(pathToFileURL(join(PKG_DIR, "lib", "client.js")).href);
  return makeSkillsClient(createRequire(import.meta.url)("skills-edge"), async () => {}, platformDigest);
}

// Signed skills, made here with node:crypto's Ed25519 (an implementation independent of the
// package's): the in-toto statement of an entry's files in a DSSE envelope, as the compiler
// signs it (docs/signing.md), and the `_meta` keys a signing server puts them under.

export const DSSE_META_KEY = "io.github.skills-edge/dsse";
export const SIGNER_META_KEY = "io.github.skills-edge/signer";
const PAYLOAD_TYPE = "application/vnd.in-toto+json";
const PREDICATE_TYPE = "https://github.com/skills-edge/skills-edge/blob/main/docs/signing.md#predicate-skill-v1";

/**
 * A fresh Ed25519 key: its id (the RFC 7638 thumbprint), its public JWK (with `kid`), its
 * secret JWK (to check that it is refused) and `sign(bytes)`.
 */
export function signingKey() {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const { x } = publicKey.export({ format: "jwk" });
  const keyId = createHash("sha256").update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`).digest("base64url");
  return {
    keyId,
    publicJwk: { kty: "OKP", crv: "Ed25519", x, kid: keyId },
    secretJwk: privateKey.export({ format: "jwk" }),
    sign: (bytes) => ed25519Sign(null, bytes, privateKey),
  };
}

/** The DSSE envelope of `entry`'s statement (its files, revision and `catalog`) signed by `key`. */
export function envelopeFor(entry, key, catalog) {
  const statement = {
    _type: "https://in-toto.io/Statement/v1",
    subject: entry.resources.map((r) => ({ name: r.uri, digest: { sha256: r.digest.slice("sha256:".length) } })),
    predicateType: PREDICATE_TYPE,
    predicate: { skill: entry.uri, revision: skillRevision(entry), catalog },
  };
  const payload = Buffer.from(JSON.stringify(statement), "utf8");
  const pae = Buffer.concat([Buffer.from(`DSSEv1 ${PAYLOAD_TYPE.length} ${PAYLOAD_TYPE} ${payload.length} `), payload]);
  return {
    payloadType: PAYLOAD_TYPE,
    payload: payload.toString("base64"),
    signatures: [{ keyid: key.keyId, sig: key.sign(pae).toString("base64") }],
  };
}

/** `entry` signed by `key` for `catalog`, its envelope and public key in `_meta`. */
export function signed(entry, key, catalog = "acme") {
  return { ...entry, _meta: { ...entry._meta, [DSSE_META_KEY]: envelopeFor(entry, key, catalog), [SIGNER_META_KEY]: key.publicJwk } };
}

/**
 * A SkillsServer whose skills/list and skills/get results carry signatures: `state.key`
 * signs for `state.catalog` (no key: unsigned), and `state.tamper(entry)`, when set, rewrites
 * each signed entry. For startHttpServer.
 */
export function signingServer(inner, state) {
  const signEntry = (e) => {
    const out = state.key ? signed(e, state.key, state.catalog ?? "acme") : e;
    return state.tamper ? state.tamper(out) : out;
  };
  return {
    handleHttp(body, headers) {
      const reply = inner.handleHttp(body, headers);
      if (reply.body === undefined) return reply;
      const msg = JSON.parse(reply.body);
      if (msg.result?.skills) msg.result.skills = msg.result.skills.map(signEntry);
      if (msg.result?.skill) msg.result.skill = signEntry(msg.result.skill);
      return { ...reply, body: JSON.stringify(msg) };
    },
  };
}
