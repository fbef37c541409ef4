// A judge of a skills server: the official TypeScript SDK client
// (@modelcontextprotocol/client 2.4.0 and its SkillsClient) connected on one protocol era,
// pinned to 2026-07-28 (`server/discover`) or legacy (2025-11-25 `initialize`), walking the
// whole catalog the way a host would and checking it against what the server published:
//
// * `list()` walks every page of skills/list (the pages are recorded on the wire and must add
//   up to the listing); SkillsClient refuses any invalid entry and, at 2026-07-28, a page
//   without `ttlMs` and `cacheScope`;
// * `get()` of each entry is deep-equal to the listed entry;
// * `read()` of every file of every entry: SkillsClient checks the size and SHA-256 (and, for a
//   skill's own SKILL.md, the frontmatter against the entry with its built-in YAML reader); the
//   judge checks `verified`, the byte length against the entry and re-hashes the bytes with
//   node:crypto;
// * `readDirectory()` of every directory: every skill root and every organizational prefix
//   directory (`skill://acme`, `skill://acme/billing` for `skill://acme/billing/refunds`),
//   recursing into `inode/directory` children; every child is a direct child with its own
//   name, and the files under each skill root reachable by the walk are exactly the entry's
//   files (nested skills' files included in the enclosing manifest), with the same sizes.
//
// SkillsClient reads frontmatter with the SDK's built-in YAML subset, which refuses some YAML
// 1.2 that skills-edge's compiler publishes (multi-line quoted scalars, block indentation
// indicators, anchors, multi-line flow collections, mappings in flow sequences);
// `frontmatter: "yaml"` gives it yaml@2 through its `parseFrontmatter` option instead.
//
// Any mismatch throws an Error naming the skill and the file. The result is a summary the
// tests assert on: counts of skills, files, directories and bytes, the pages walked and the
// requests sent.
import { createHash } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { DIRECTORY_MIME_TYPE, SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import YAML from "yaml";

/** The protocol revision each era negotiates. */
export const ERAS = Object.freeze({ modern: "2026-07-28", legacy: "2025-11-25" });

const CLIENT_INFO = { name: "skills-edge-judge", version: "1.0.0" };
/** The longest a whole judge run may take before it is failed. */
const RUN_TIMEOUT_MS = 120_000;
/** The longest one request may take. */
const REQUEST_TIMEOUT_MS = 20_000;

/** A Streamable HTTP transport factory for `url` (the SDK's own transport). */
export function httpTransport(url) {
  return () => new StreamableHTTPClientTransport(new URL(url));
}

/**
 * A transport factory for a server in the same process: every message the client sends is
 * handed to `handle(message)` (a JSON-RPC object in; the reply object, a Promise of it, or
 * `undefined` for a notification out) and the reply is delivered to the client
 * asynchronously, as a real transport would. No serialisation, no HTTP: the in-page binding.
 */
export function inProcessTransport(handle) {
  return () => {
    let closed = false;
    const transport = {
      onmessage: undefined,
      onclose: undefined,
      onerror: undefined,
      async start() {},
      async send(message) {
        if (closed) throw new Error("in-process transport: send after close");
        let reply;
        try {
          reply = await handle(message);
        } catch (error) {
          transport.onerror?.(error);
          throw error;
        }
        if (reply !== undefined && reply !== null) {
          queueMicrotask(() => {
            if (!closed) transport.onmessage?.(reply);
          });
        }
      },
      async close() {
        if (closed) return;
        closed = true;
        transport.onclose?.();
      },
    };
    return transport;
  };
}

/**
 * Wraps a transport so every request the client sends and every result it gets are
 * recorded: `requests` counts requests by method, `pages[method]` holds the number of items of
 * each page of the paginated methods.
 */
function recording(inner) {
  const requests = {};
  const pages = {};
  const pending = new Map();
  const itemsKey = { "skills/list": "skills", "resources/directory/read": "resources", "resources/list": "resources" };
  let onmessage;
  inner.onmessage = (message, extra) => {
    const method = pending.get(message?.id);
    if (method !== undefined) {
      pending.delete(message.id);
      const items = message.result?.[itemsKey[method]];
      if (Array.isArray(items)) (pages[method] ??= []).push(items.length);
    }
    onmessage?.(message, extra);
  };
  const proxy = new Proxy(inner, {
    get(target, prop) {
      if (prop === "send") {
        return (message, options) => {
          if (typeof message?.method === "string" && message.id !== undefined) {
            requests[message.method] = (requests[message.method] ?? 0) + 1;
            if (message.method in itemsKey) pending.set(message.id, message.method);
          }
          return target.send(message, options);
        };
      }
      if (prop === "onmessage") return onmessage;
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
    set(target, prop, value) {
      if (prop === "onmessage") {
        onmessage = value;
        return true;
      }
      return Reflect.set(target, prop, value);
    },
  });
  return { transport: proxy, requests, pages };
}

/** Throws an Error whose message names where the judge found the mismatch. */
function fail(where, message, cause) {
  throw new Error(`SDK judge: ${where}: ${message}`, cause === undefined ? undefined : { cause });
}

/** Runs `step`, re-throwing any error with `where` in front of its message. */
async function at(where, step) {
  try {
    return await step();
  } catch (error) {
    if (error instanceof Error && error.message.startsWith("SDK judge: ")) throw error;
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return fail(where, detail, error);
  }
}

/** `skill://a/b/SKILL.md` → `skill://a/b`. */
const skillRoot = (uri) => uri.replace(/\/SKILL\.md$/, "");

/** The organizational prefix directories above a skill root, outermost first. */
function prefixDirs(root) {
  const m = /^([a-z][a-z0-9+.-]*:\/\/)(.*)$/i.exec(root);
  if (!m) return [];
  const segments = m[2].split("/");
  const dirs = [];
  for (let i = 1; i < segments.length; i++) dirs.push(m[1] + segments.slice(0, i).join("/"));
  return dirs;
}

const sha256 = (bytes) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

/**
 * Judges the server behind `transport` (a factory: `() => Transport`) on `era`
 * (`"modern"` or `"legacy"`), SkillsClient reading frontmatter with the SDK's built-in parser
 * (`frontmatter: "sdk"`, the default) or with yaml@2 (`"yaml"`). Resolves with
 * `{ era, protocolVersion, serverInfo, skills, files, textFiles, binaryFiles, bytes, dirs,
 *    listPages, directoryPages, requests }`; rejects with an Error naming the skill and file
 * on any mismatch, or after two minutes.
 */
export async function judgeSdk({ transport, era, frontmatter = "sdk", timeoutMs = RUN_TIMEOUT_MS }) {
  if (!(era in ERAS)) throw new TypeError(`era must be "modern" or "legacy", not ${JSON.stringify(era)}`);
  if (frontmatter !== "sdk" && frontmatter !== "yaml") {
    throw new TypeError(`frontmatter must be "sdk" or "yaml", not ${JSON.stringify(frontmatter)}`);
  }
  const options = frontmatter === "yaml" ? { parseFrontmatter: (yaml) => YAML.parse(yaml) ?? {} } : {};
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`SDK judge (${era}): no verdict within ${timeoutMs} ms`)), timeoutMs);
  });
  const client = new Client(
    CLIENT_INFO,
    era === "modern" ? { versionNegotiation: { mode: { pin: ERAS.modern } } } : { versionNegotiation: { mode: "legacy" } },
  );
  const wire = recording(transport());
  try {
    return await Promise.race([walk(client, wire, era, options), timeout]);
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => {});
  }
}

async function walk(client, wire, era, skillsOptions) {
  const opts = { timeout: REQUEST_TIMEOUT_MS };
  await at(`connect (${era})`, () => client.connect(wire.transport, opts));
  const protocolVersion = client.getNegotiatedProtocolVersion();
  if (protocolVersion !== ERAS[era]) fail(`connect (${era})`, `negotiated ${protocolVersion}, expected ${ERAS[era]}`);

  const skills = new SkillsClient(client, skillsOptions);
  if (!skills.supported) fail("capabilities", "the server does not declare io.modelcontextprotocol/skills");
  if (!skills.directoryRead) fail("capabilities", "the server does not declare directoryRead");

  const listing = await at("skills/list", () => skills.list({}, opts));
  if (listing.invalid.length > 0) fail("skills/list", `invalid entries: ${JSON.stringify(listing.invalid)}`);
  if (listing.skills.length === 0) fail("skills/list", "no skills listed");
  const listPages = wire.pages["skills/list"] ?? [];
  const paged = listPages.reduce((a, b) => a + b, 0);
  if (paged !== listing.skills.length) {
    fail("skills/list", `the pages on the wire hold ${paged} entries (${listPages.join("+")}), list() returned ${listing.skills.length}`);
  }
  if (era === "modern" && (typeof listing.ttlMs !== "number" || typeof listing.cacheScope !== "string")) {
    fail("skills/list", `no ttlMs/cacheScope at 2026-07-28: ${JSON.stringify({ ttlMs: listing.ttlMs, cacheScope: listing.cacheScope })}`);
  }

  let files = 0;
  let textFiles = 0;
  let binaryFiles = 0;
  let bytes = 0;
  for (const skill of listing.skills) {
    const got = await at(`skills/get ${skill.uri}`, () => skills.get(skill.uri, opts));
    if (!isDeepStrictEqual(got.skill, skill)) {
      fail(`skills/get ${skill.uri}`, `differs from the skills/list entry:\n  get:  ${JSON.stringify(got.skill)}\n  list: ${JSON.stringify(skill)}`);
    }
    if (!Array.isArray(skill.resources)) fail(skill.uri, `resources is ${JSON.stringify(skill.resources)}, not a manifest`);
    for (const entry of skill.resources) {
      const where = `${skill.uri}: read ${entry.uri}`;
      const file = await at(where, () => skills.read(skill, entry.uri, opts));
      if (file.verified !== true) fail(where, "SkillsClient did not verify it");
      if (file.bytes.byteLength !== entry.size) fail(where, `${file.bytes.byteLength} bytes, the entry lists ${entry.size}`);
      const digest = sha256(file.bytes);
      if (digest !== entry.digest) fail(where, `node:crypto says ${digest}, the entry lists ${entry.digest}`);
      if (entry.uri === skill.uri && !isDeepStrictEqual(file.frontmatter, skill.frontmatter)) {
        fail(where, `frontmatter ${JSON.stringify(file.frontmatter)} differs from the entry's ${JSON.stringify(skill.frontmatter)}`);
      }
      files++;
      bytes += file.bytes.byteLength;
      if (typeof file.text === "string") textFiles++;
      else binaryFiles++;
    }
  }

  // Every directory, from every skill root and every prefix directory.
  const roots = listing.skills.map((s) => skillRoot(s.uri));
  const starts = [...new Set([...roots.flatMap(prefixDirs), ...roots])];
  const dirs = new Map(); // directory URI → its children
  const walked = new Map(); // file URI → { size, dir }
  const visit = async (dir) => {
    if (dirs.has(dir)) return;
    dirs.set(dir, null);
    const { resources } = await at(`resources/directory/read ${dir}`, () => skills.readDirectory(dir, opts));
    dirs.set(dir, resources);
    const names = new Set();
    for (const child of resources) {
      const where = `resources/directory/read ${dir}: child ${JSON.stringify(child)}`;
      if (typeof child.uri !== "string" || !child.uri.startsWith(`${dir}/`)) fail(where, `not inside ${dir}`);
      const rest = child.uri.slice(dir.length + 1);
      if (rest === "" || rest.includes("/")) fail(where, "not a direct child");
      if (child.name !== decodeURIComponent(rest)) fail(where, `its name is not its last segment ${JSON.stringify(rest)}`);
      if (names.has(child.name)) fail(where, "listed twice");
      names.add(child.name);
      if (child.mimeType === DIRECTORY_MIME_TYPE) await visit(child.uri);
      else walked.set(child.uri, { size: child.size, dir });
    }
  };
  for (const start of starts) await visit(start);
  const directoryPages = wire.pages["resources/directory/read"] ?? [];

  // The walk against the manifests.
  const owned = new Set();
  // The walked files under each skill's root, found in one pass over the files: each file is
  // filed under every root that is a prefix of it ending at a "/" (a nested skill's files are
  // its parent's too). Filtering every file for every skill took 23 s at 10,000 skills, long
  // enough for workerd to close the idle connections the next era then reused.
  const under = new Map(listing.skills.map((s) => [`${skillRoot(s.uri)}/`, []]));
  for (const u of walked.keys()) {
    for (let i = u.indexOf("/", u.indexOf("://") + 3); i !== -1; i = u.indexOf("/", i + 1)) {
      under.get(u.slice(0, i + 1))?.push(u);
    }
  }
  for (const skill of listing.skills) {
    const root = `${skillRoot(skill.uri)}/`;
    const manifest = new Map(skill.resources.map((r) => [r.uri, r]));
    const reached = under.get(root);
    const unlisted = reached.filter((u) => !manifest.has(u));
    const unreached = [...manifest.keys()].filter((u) => !walked.has(u));
    if (unlisted.length > 0) fail(skill.uri, `the directory walk reaches files the entry does not list: ${unlisted.join(", ")}`);
    if (unreached.length > 0) fail(skill.uri, `the entry lists files the directory walk does not reach: ${unreached.join(", ")}`);
    for (const u of reached) {
      const { size } = walked.get(u);
      if (size !== undefined && size !== manifest.get(u).size) {
        fail(`${skill.uri}: ${u}`, `the directory listing says ${size} bytes, the entry ${manifest.get(u).size}`);
      }
      owned.add(u);
    }
  }
  const orphans = [...walked.keys()].filter((u) => !owned.has(u));
  if (orphans.length > 0) fail("directory walk", `files outside every skill: ${orphans.join(", ")}`);

  return {
    era,
    protocolVersion,
    serverInfo: client.getServerVersion(),
    skills: listing.skills.length,
    files,
    textFiles,
    binaryFiles,
    bytes,
    dirs: dirs.size,
    listPages,
    directoryPages,
    requests: { ...wire.requests },
  };
}
