// SkillsClient: a host's client of one skills server, over the package's SkillHost (the one
// verifier, in WebAssembly, so it runs on plain-http pages too).
//
// Everything that decides is in the WebAssembly core (SkillsClientCore): the requests, the
// era negotiation, the reading of JSON and event-stream replies, the cache, the refresh of a
// stale entry, the verification and the errors. This file checks arguments and hands the core
// an `io` object per operation (./transport.js), so each call can carry its own AbortSignal
// and timeout. Where the platform has a faster SHA-256 (node:crypto in Node, crypto.subtle on
// secure pages and in workers), the io object also carries it (`digest`, `digestThreshold`;
// async-verifier.js ioDigest): the core has it hash fetched content from the threshold up, and the
// verifier still checks the listing and the size, compares the digest and names any failure.
import { httpIo, sdkIo } from "./transport.js";

const SIGNER_OPTIONS = ["trust", "trustOnFirstUse", "pins"];
const HOST_OPTIONS = ["allowDynamic", "requireApproval", "nestedWithoutApproval"];
const CONNECT_OPTIONS = ["era", "headers", "token", "fetch", "timeoutMs", "signal", "label", ...HOST_OPTIONS, "clientInfo", "listingBudget", ...SIGNER_OPTIONS];
const WRAP_OPTIONS = ["timeoutMs", "label", ...HOST_OPTIONS, "listingBudget", "origin", ...SIGNER_OPTIONS];
const CALL_OPTIONS = ["signal", "timeoutMs"];
const VERIFY_OPTIONS = ["signal", "timeoutMs", "skill"];
const SEARCH_OPTIONS = ["signal", "timeoutMs", "tags", "limit"];
const WELL_KNOWN_OPTIONS = ["headers", "token", "fetch", "timeoutMs", "signal", "allowDynamic", ...SIGNER_OPTIONS];

function invalid(where, message) {
  const e = new Error(`${where}: ${message}`);
  e.name = "SkillsEdgeError";
  e.code = "invalid-argument";
  return e;
}

function typeName(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

/** Reads an options object: only `allowed` keys, read once (getters run here, not later). */
function readOptions(where, value, allowed) {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) {
    throw invalid(where, `options must be an object, got ${typeName(value)}`);
  }
  const out = {};
  let keys;
  try {
    keys = Object.keys(value);
  } catch (e) {
    throw invalid(where, `options could not be read (${e?.message ?? e})`);
  }
  for (const k of keys) {
    if (!allowed.includes(k)) {
      throw invalid(where, `options has an unknown property ${JSON.stringify(k)} (known: ${[...allowed].sort().join(", ")})`);
    }
    try {
      out[k] = value[k];
    } catch (e) {
      throw invalid(where, `options could not be read (${k}: ${e?.message ?? e})`);
    }
  }
  return out;
}

/**
 * `timeoutMs`, checked against `bounds` (the core's `timeoutBounds()`: the default and the
 * largest, those of `skills-edge verify --timeout`); undefined gives the default.
 */
function checkTimeout(where, ms, bounds) {
  if (ms === undefined) return bounds.defaultMs;
  if (typeof ms !== "number" || !Number.isInteger(ms) || ms < 1 || ms > bounds.maxMs) {
    throw invalid(where, `timeoutMs must be an integer from 1 to ${bounds.maxMs} (milliseconds), got ${typeof ms === "number" ? ms : typeName(ms)}`);
  }
  return ms;
}

/** The signer options (`trust`, `trustOnFirstUse`, `pins`), passed as given: the core checks them. */
function signerOptions(o) {
  return {
    ...(o.trust !== undefined && { trust: o.trust }),
    ...(o.trustOnFirstUse !== undefined && { trustOnFirstUse: o.trustOnFirstUse }),
    ...(o.pins !== undefined && { pins: o.pins }),
  };
}

/**
 * The options the WebAssembly core takes (`label`, `origin`, `listingBudget`, `allowDynamic`,
 * `requireApproval`, `nestedWithoutApproval`, the signer options, and the client's name and version), passed as
 * given: the core checks them, once.
 */
function coreOptions(o, info = {}, origin = o.origin) {
  return {
    ...(o.label !== undefined && { label: o.label }),
    ...(origin !== undefined && { origin }),
    ...signerOptions(o),
    ...(o.listingBudget !== undefined && { listingBudget: o.listingBudget }),
    ...(o.allowDynamic !== undefined && { allowDynamic: o.allowDynamic }),
    ...(o.requireApproval !== undefined && { requireApproval: o.requireApproval }),
    ...(o.nestedWithoutApproval !== undefined && { nestedWithoutApproval: o.nestedWithoutApproval }),
    ...(info.name !== undefined && { clientName: info.name }),
    ...(info.version !== undefined && { clientVersion: info.version }),
  };
}

function checkSignal(where, signal) {
  if (signal === undefined) return undefined;
  if (typeof AbortSignal === "undefined" || !(signal instanceof AbortSignal)) {
    throw invalid(where, `signal must be an AbortSignal, got ${typeName(signal)}`);
  }
  return signal;
}

function checkString(where, name, v) {
  if (typeof v !== "string") throw invalid(where, `${name} must be a string, got ${typeName(v)}`);
  return v;
}

function callOptions(where, options, defaults, bounds, allowed = CALL_OPTIONS) {
  const o = readOptions(where, options, allowed);
  return {
    ...o,
    signal: checkSignal(where, o.signal),
    timeoutMs: o.timeoutMs === undefined ? defaults.timeoutMs : checkTimeout(where, o.timeoutMs, bounds),
  };
}

/** The SKILL.md URI of a `skill` argument: a URI, or an object with one (a listed or loaded skill). */
function skillUri(where, skill) {
  if (typeof skill === "string") return skill;
  if (skill !== null && typeof skill === "object") {
    let uri;
    try {
      uri = skill.uri;
    } catch (e) {
      throw invalid(where, `skill could not be read (${e?.message ?? e})`);
    }
    if (typeof uri === "string") return uri;
  }
  throw invalid(where, `skill must be a SKILL.md URI or an object with a string uri, got ${typeName(skill)}`);
}

/**
 * The SkillsClient class over a binding (`glue`: the Node or web build of the package), a
 * function that makes sure its WebAssembly is initialized, and one that gives the platform
 * digest for each operation's io object (async-verifier.js ioDigest; undefined: WebAssembly only).
 */
export function makeSkillsClient(glue, ready, platformDigest = () => undefined) {
  const { SkillsClientCore } = glue;
  // The request timeout's default and bounds, the core's (read once its WebAssembly is ready).
  let timeouts;
  const bounds = () => (timeouts ??= glue.timeoutBounds());
  /** `io` with the platform digest, where there is one. */
  const withDigest = (io) => Object.assign(io, platformDigest());

  class SkillsClient {
    #core;
    #io;
    #defaults;
    #url;

    constructor(token, core, io, defaults, url) {
      if (token !== PRIVATE) throw invalid("new SkillsClient", "use SkillsClient.connect(url, options) or SkillsClient.wrap(client, options)");
      this.#core = core;
      this.#io = io;
      this.#defaults = defaults;
      this.#url = url;
    }

    /**
     * Connects to a skills server over Streamable HTTP with fetch: `server/discover` at
     * 2026-07-28, falling back to a 2025-11-25 `initialize` (`era`: "auto", "2026-07-28" or
     * "2025-11-25"). Options: `headers` (sent on every request), `token` (a bearer token, sent
     * as `Authorization: Bearer …` on every request to the URL's origin only; a 401 names the
     * server's authorization servers and scopes), `fetch`,
     * `timeoutMs` (per request, default 30000), `signal` (for the connection), `label` (the
     * host's name for the server, its identity wherever its skills and approvals are kept;
     * default the URL's origin, the label `skills-edge verify` and the inspector page give it),
     * `allowDynamic`, `requireApproval` (default off), `nestedWithoutApproval` (default off: a
     * nested skill needs its own approval),
     * `clientInfo` ({ name, version }), `listingBudget` (the most result bytes one listing or
     * walk may read, default 256 MiB), and the signer policy: `trust` (public JWKs, objects or
     * JSON text), `trustOnFirstUse`, `pins` (exported before). The server's signer is pinned
     * under the URL's origin.
     */
    static async connect(url, options) {
      const where = "SkillsClient.connect";
      let target;
      try {
        target = new URL(checkString(where, "url", url));
      } catch (e) {
        if (e?.code === "invalid-argument") throw e;
        throw invalid(where, `url ${JSON.stringify(url)} is not a URL`);
      }
      if (target.protocol !== "http:" && target.protocol !== "https:") {
        throw invalid(where, `url must be http:// or https://, got ${target.protocol}`);
      }
      const o = readOptions(where, options, CONNECT_OPTIONS);
      const era = o.era === undefined ? "auto" : checkString(where, "era", o.era);
      const fetchFn = o.fetch ?? globalThis.fetch;
      if (typeof fetchFn !== "function") throw invalid(where, `fetch must be a function, got ${typeName(fetchFn)}`);
      await ready();
      const timeoutMs = checkTimeout(where, o.timeoutMs, bounds());
      const signal = checkSignal(where, o.signal);
      const info = readOptions(`${where}: clientInfo`, o.clientInfo, ["name", "version"]);
      const core = new SkillsClientCore(coreOptions(o, info, target.origin));
      try {
        const headers = core.setHeaders(o.headers ?? [], o.token);
        const state = { url: target.href, headers, fetch: fetchFn };
        const io = (call) => withDigest(httpIo(state, call));
        await core.connect(io({ signal, timeoutMs }), era);
        return new SkillsClient(PRIVATE, core, io, { timeoutMs, state, token: o.token }, target.href);
      } catch (e) {
        core.free();
        throw e;
      }
    }

    /**
     * Reads and verifies a well-known skills source (an Agent Skills Discovery index) as
     * `skills-edge verify` does: `url` is the index (`…/.well-known/agent-skills/index.json`)
     * or an origin (`https://host`). Every artifact's digest is checked before it is unpacked,
     * archives are unpacked in memory with the RFC's safety rules, and every file goes through
     * the compiler's checks; the signature each entry names is checked against the files.
     * Options: `headers`, `token` (as for `connect`), `fetch`, `timeoutMs` (per request,
     * default 30000), `signal`, `allowDynamic` (a dynamic skill, such as every skill of a
     * v0.1.0 index, passes only with it), and the signer policy (`trust`, `trustOnFirstUse`, `pins`). Resolves to `{ skills, exitCode,
     * table, summary, error?, pins? }`, as `verify()`; `pins` (with `trustOnFirstUse` or
     * `pins`) is what to persist.
     */
    static async verifyWellKnown(url, options) {
      const where = "SkillsClient.verifyWellKnown";
      const u = checkString(where, "url", url);
      const o = readOptions(where, options, WELL_KNOWN_OPTIONS);
      const fetchFn = o.fetch ?? globalThis.fetch;
      if (typeof fetchFn !== "function") throw invalid(where, `fetch must be a function, got ${typeName(fetchFn)}`);
      await ready();
      const timeoutMs = checkTimeout(where, o.timeoutMs, bounds());
      const signal = checkSignal(where, o.signal);
      // The transport's own header rules, checked once, as for connect().
      const checker = new SkillsClientCore({ label: "headers" });
      let headers;
      try {
        headers = checker.setHeaders(o.headers ?? [], o.token);
      } finally {
        checker.free();
      }
      const verifyOptions = { ...signerOptions(o), ...(o.allowDynamic !== undefined && { allowDynamic: o.allowDynamic }) };
      return glue.verifyWellKnown(withDigest(httpIo({ url: u, headers, fetch: fetchFn }, { signal, timeoutMs })), u, verifyOptions);
    }

    /**
     * Wraps an official SDK Client that is already connected (v2 `@modelcontextprotocol/client`,
     * or v1 `@modelcontextprotocol/sdk`, which speaks 2025-11-25): requests go through its
     * `request()`, with its transport, era and headers. Options: `label` (the host's name for
     * the server, its identity; required unless `origin` is given, from which it is derived:
     * an SDK client does not say which server it talks to), `timeoutMs`, `allowDynamic`,
     * `requireApproval`, `nestedWithoutApproval`, `listingBudget`, the signer policy (`trust`,
     * `trustOnFirstUse`, `pins`) and `origin` (what the server's signer is pinned under;
     * default the label).
     */
    static async wrap(client, options) {
      const where = "SkillsClient.wrap";
      if (client === null || typeof client !== "object" || typeof client.request !== "function") {
        throw invalid(where, `client must be a connected SDK Client (with request()), got ${typeName(client)}`);
      }
      const o = readOptions(where, options, WRAP_OPTIONS);
      if (o.label === undefined && o.origin === undefined) {
        throw invalid(where, "options.label is required (or options.origin, from which it is derived): the host's name for the server, its identity wherever its skills and approvals are kept");
      }
      await ready();
      const timeoutMs = checkTimeout(where, o.timeoutMs, bounds());
      const version =
        (typeof client.getNegotiatedProtocolVersion === "function" && client.getNegotiatedProtocolVersion()) ||
        client.transport?.protocolVersion ||
        "2025-11-25";
      const capabilities = client.getServerCapabilities?.() ?? {};
      const serverInfo = client.getServerVersion?.();
      const instructions = client.getInstructions?.();
      const core = new SkillsClientCore(coreOptions(o));
      try {
        core.attach({
          protocolVersion: version,
          capabilities: JSON.parse(JSON.stringify(capabilities)),
          ...(serverInfo && { serverInfo: JSON.parse(JSON.stringify(serverInfo)) }),
          ...(typeof instructions === "string" && { instructions }),
        });
        return new SkillsClient(PRIVATE, core, (call) => withDigest(sdkIo(client, call)), { timeoutMs }, "sdk-client");
      } catch (e) {
        core.free();
        throw e;
      }
    }

    /** What the server says about itself: `{ protocolVersion, capabilities, serverInfo?, instructions?, skills, directoryRead }`. */
    get server() {
      return this.#core.facts();
    }

    /**
     * Replaces the headers sent on every request (a new token, another user). Private cached
     * results of the previous headers are dropped: they are never shared across
     * authorization contexts. The `token` given to `connect` is kept. Only for a client made
     * with `connect`.
     */
    setHeaders(headers) {
      if (!this.#defaults.state) throw invalid("SkillsClient.setHeaders", "a wrapped SDK client keeps its own headers");
      this.#defaults.state.headers = this.#core.setHeaders(headers, this.#defaults.token);
    }

    #call(where, options, allowed) {
      return this.#io(callOptions(where, options, this.#defaults, bounds(), allowed));
    }

    /** Every page of `skills/list`, registered: `{ skills, rejected, ttlMs, cacheScope, pages }`. */
    list(options) {
      return this.#core.list(this.#call("SkillsClient.list", options));
    }

    /** `skills/get` for a SKILL.md URI, registered: `{ skill, changed, approvalRevoked, ttlMs, cacheScope }`. */
    get(uri, options) {
      const where = "SkillsClient.get";
      return this.#core.get(this.#call(where, options), checkString(where, "uri", uri));
    }

    /**
     * Loads a skill (a SKILL.md URI or a listed skill): its entry (fetched again when no
     * longer current), the limit and policy checks, then its SKILL.md fetched and verified
     * (size, SHA-256, frontmatter); the acting window opens. A verification failure refreshes
     * the entry once with `skills/get` and verifies again; a second one throws.
     */
    load(skill, options) {
      const where = "SkillsClient.load";
      return this.#core.load(this.#call(where, options), skillUri(where, skill));
    }

    /**
     * Reads a file of a loaded skill: `reference` is relative to the skill root (or an
     * absolute URI) and must be a file the held entry lists (else `not-in-manifest` or
     * `escapes-root`, and nothing is fetched). Verified like `load`, with the same refresh;
     * with OMS keys in `trust`, a refresh checks the new entry's `skill.oms.sig` as `load`
     * does, and the file is not returned when it fails.
     */
    read(skill, reference, options) {
      const where = "SkillsClient.read";
      const uri = skillUri(where, skill);
      return this.#core.read(this.#call(where, options), uri, checkString(where, "reference", reference));
    }

    /** Every page of `resources/directory/read` for a directory URI (e.g. `skill://code-review`). */
    readDirectory(uri, options) {
      const where = "SkillsClient.readDirectory";
      return this.#core.readDirectory(this.#call(where, options), checkString(where, "uri", uri));
    }

    /**
     * Searches through the server's `search_skills` tool (docs/search.md), when it offers it:
     * `query` a string, options `tags` (an array of strings: only skills carrying every one),
     * `limit` (a positive integer; the server's bounds are 1 to 50, default 10), `signal`,
     * `timeoutMs`. Resolves to `[{ uri, name, description, score }]`, best first; each `uri`
     * is a `skill://` URI of a SKILL.md that `load` then fetches and verifies (search returns
     * no content). A server that does not offer the tool rejects with `invalid-argument`
     * (`expected` the tool, `actual` what the server offers), as does one that refuses the
     * arguments (its message); a result that is not a skill URI is a `protocol-error`.
     */
    search(query, options) {
      const where = "SkillsClient.search";
      checkString(where, "query", query);
      const o = callOptions(where, options, this.#defaults, bounds(), SEARCH_OPTIONS);
      if (o.tags !== undefined && (!Array.isArray(o.tags) || !o.tags.every((t) => typeof t === "string"))) {
        throw invalid(where, `tags must be an array of strings, got ${Array.isArray(o.tags) ? "an array with a " + typeName(o.tags.find((t) => typeof t !== "string")) : typeName(o.tags)}`);
      }
      if (o.limit !== undefined && (typeof o.limit !== "number" || !Number.isSafeInteger(o.limit) || o.limit < 1)) {
        throw invalid(where, `limit must be a positive integer (the server's bounds: 1 to 50), got ${typeof o.limit === "number" ? o.limit : typeName(o.limit)}`);
      }
      return this.#core.search(this.#io(o), query, o.tags === undefined ? undefined : [...o.tags], o.limit);
    }

    /**
     * Lists, loads and verifies every skill (or only `options.skill`), exactly as
     * `skills-edge verify` does: `{ skills, exitCode, table, summary }`, where `skills` are
     * the objects `skills-edge verify --json` prints.
     */
    verify(options) {
      const where = "SkillsClient.verify";
      const o = callOptions(where, options, this.#defaults, bounds(), VERIFY_OPTIONS);
      const skill = o.skill === undefined ? undefined : checkString(where, "skill", o.skill);
      return this.#core.verify(this.#io(o), this.#url, skill);
    }

    /** The skills registered so far, with display names. */
    skills() {
      return this.#core.skills();
    }

    /** The registered entry of a skill, or `undefined`. */
    entry(uri) {
      return this.#core.entry(uri);
    }

    /** Approves a skill as its entry stands; returns the fingerprint. */
    approve(uri) {
      return this.#core.approve(uri);
    }

    /** Whether a stored approval matches the skill's current entry. */
    isApproved(uri) {
      return this.#core.isApproved(uri);
    }

    /** Withdraws an approval. */
    revoke(uri) {
      return this.#core.revoke(uri);
    }

    /** Whether an acting window is open for the skill. */
    isActive(uri) {
      return this.#core.isActive(uri);
    }

    /** Closes the skill's acting window. */
    closeWindow(uri) {
      return this.#core.closeWindow(uri);
    }

    /** The approvals as JSON text, for storage. */
    exportApprovals() {
      return this.#core.exportApprovals();
    }

    /** Restores approvals exported by a client of the same server (another server's are refused: `invalid-argument`). */
    importApprovals(approvals) {
      return this.#core.importApprovals(approvals);
    }

    /** The verified signer of a registered skill (`{ keyId, catalog, trust }`), or `undefined` (unsigned). */
    signer(uri) {
      return this.#core.signer(uri);
    }

    /** The origin the server's signer is pinned under (the URL's origin, or the label). */
    get origin() {
      return this.#core.origin();
    }

    /** The pins as JSON text, for storage (give them back as the `pins` option). */
    exportPins() {
      return this.#core.exportPins();
    }

    /** Restores exported pins; returns how many were read. */
    importPins(pins) {
      return this.#core.importPins(pins);
    }

    /**
     * Accepts a change of the server's signer: its origin's pin is dropped, and the next
     * signature that holds pins it again (list or get the skills again). Returns whether
     * there was a pin.
     */
    acceptSignerChange() {
      return this.#core.acceptSignerChange();
    }

    /** Releases the WebAssembly state. The client cannot be used afterwards. */
    close() {
      this.#core.free();
    }
  }

  return SkillsClient;
}

const PRIVATE = Symbol("SkillsClient");
