// What the package tests share. These files are copied into a temporary project that
// installed the packed tarball, so `skills-edge` resolves exactly as it does for a user.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import * as mainModule from "skills-edge";
import * as verifierModule from "skills-edge/verifier";
import { SkillsServer, isSkillsEdgeError, skillRevision } from "skills-edge";
import { envelopeFor as envelopeOf, signed as signedWith } from "./signing.mjs";

export const MODERN = "2026-07-28";
export const META = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientCapabilities": {},
};

/**
 * The package's two modules that export the verifier functions and SkillHost, as [name,
 * module]: the main one and `skills-edge/verifier` (their host part alone, in a module of its
 * own). The tests of those exports run once through each.
 */
export const HOST_MODULES = [
  ["skills-edge", mainModule],
  ["skills-edge/verifier", verifierModule],
];

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

// Signed skills (signing.mjs, which the browser tests share): envelopes and signed entries
// with the revision the package computes.
export { DSSE_META_KEY, SIGNER_META_KEY, signingKey, signingServer } from "./signing.mjs";

/** The DSSE envelope of `entry`'s statement (its files, revision and `catalog`) signed by `key`. */
export const envelopeFor = (entry, key, catalog) => envelopeOf(entry, key, catalog, skillRevision(entry));

/** `entry` signed by `key` for `catalog`, its envelope and public key in `_meta`. */
export const signed = (entry, key, catalog = "acme") => signedWith(entry, key, catalog, skillRevision(entry));
