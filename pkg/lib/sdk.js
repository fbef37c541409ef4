// `skills-edge/sdk`: a SkillSource of the official TypeScript MCP SDK (2.4,
// `@modelcontextprotocol/server/ext/skills`) over a compiled pack or a SkillsServer, so that
// `new SkillsExtension({ source })` serves the pack's skills on an McpServer of your own.
//
// Every answer is the package's responder's (SkillsServer): entries and manifests as compiled
// (with their `_meta`, signed envelopes included), pages and cursors as compiled, what a caller
// sees decided by the catalog's access rules for the scopes `options.scopes(ctx)` gives (a
// hidden skill, file or directory is `undefined`, as an unknown one). Listings, entries and
// directories are the responder's 2026-07-28 replies (`handleText`, one JSON.parse each; the
// SDK adds its own cache fields); a file's content comes from `SkillsServer.readFile`, the
// responder's own lookup and text-or-bytes decision, with no JSON and no base64: one copy of
// the stored bytes (or one UTF-8 decode of a text file).

/** The `_meta` every message carries: the 2026-07-28 era, whose replies carry the entries as compiled. */
const META = '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}';

const OPTIONS = ["scopes", "pageSize"];

function invalid(message) {
  const e = new Error(message);
  e.name = "SkillsEdgeError";
  e.code = "invalid-argument";
  return e;
}

function typeName(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (v instanceof Uint8Array) return "Uint8Array";
  if (v instanceof ArrayBuffer) return "ArrayBuffer";
  if (typeof v === "object" && typeof v.constructor === "function" && v.constructor.name) return `${v.constructor.name} object`;
  return typeof v;
}

/** Reads an options object: only known keys, each read once. */
function readOptions(where, value) {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) {
    throw invalid(`${where}: options must be an object ({ scopes?, pageSize? }), got ${typeName(value)}`);
  }
  const out = {};
  for (const k of Object.keys(value)) {
    if (!OPTIONS.includes(k)) {
      throw invalid(`${where}: options has an unknown property ${JSON.stringify(k)} (known: ${OPTIONS.join(", ")})`);
    }
    out[k] = value[k];
  }
  return out;
}

/**
 * The error a JSON-RPC error reply of the responder becomes: its numeric `code`, `message`
 * and `data`, which the SDK sends to the client as they are (an invalid cursor is `-32602`).
 */
function rpcError(error) {
  const e = new Error(`${error.message}`);
  e.name = "SkillsEdgeRpcError";
  e.code = error.code;
  if (error.data !== undefined) e.data = error.data;
  return e;
}

/** Whether a `-32602` error names the URI asked for: no such skill, file or directory for this caller. */
function isNotFound(error) {
  return error.code === -32602 && error.data !== null && typeof error.data === "object" && typeof error.data.uri === "string";
}

/**
 * `packSkillSource` and `recommendedCacheHint` over a binding (`glue`: the Node or web build of
 * the package). `notReady(e)` turns what a constructor threw into the error to throw when it
 * means the binding's WebAssembly is not initialized yet (`undefined` otherwise).
 */
export function makeSdk(glue, notReady = () => undefined) {
  const { SkillsServer } = glue;
  const servers = new WeakMap();

  function serverOf(pack, o) {
    const where = "packSkillSource";
    if (pack instanceof SkillsServer) {
      if (o.pageSize !== undefined) {
        throw invalid(`${where}: options.pageSize is for a pack; this SkillsServer has its own page size: make it with new SkillsServer({ pack, pageSize })`);
      }
      return pack;
    }
    if (!(pack instanceof Uint8Array) && !(pack instanceof ArrayBuffer)) {
      throw invalid(`${where}: pack must be a Uint8Array or an ArrayBuffer (the bytes of a .pack file that \`skills-edge pack\` wrote) or a SkillsServer of this build, got ${typeName(pack)}`);
    }
    if (o.pageSize !== undefined && typeof o.pageSize !== "number") {
      throw invalid(`${where}: options.pageSize must be a number (an integer from 1 to 1000), got ${typeName(o.pageSize)}`);
    }
    try {
      return new SkillsServer(o.pageSize === undefined ? { pack } : { pack, pageSize: o.pageSize });
    } catch (e) {
      throw notReady(e) ?? e;
    }
  }

  /**
   * A SkillSource over `pack` (bytes of a pack, or a SkillsServer already made). Throws
   * `invalid-argument` for a wrong argument or a pack made with `--assets`, `pack-invalid`
   * for a damaged pack.
   */
  function packSkillSource(pack, options) {
    const where = "packSkillSource";
    const o = readOptions(where, options);
    if (o.scopes !== undefined && o.scopes !== null && typeof o.scopes !== "function") {
      throw invalid(`${where}: options.scopes must be a function (ctx) => string[] | string | undefined, mapping the SDK's request context (ctx.http?.authInfo) to the caller's scopes, got ${typeName(o.scopes)}`);
    }
    const server = serverOf(pack, o);
    const info = server.catalogInfo();
    if (info.hasAssets) {
      throw invalid(`${where}: pack keeps some files outside it as assets (it was made with --assets, for the Cloudflare Worker's Static Assets), and a SkillSource reads every file from the pack: make it without --assets (\`skills-edge pack SKILLS -o skills.pack\`)`);
    }
    const scopesFn = typeof o.scopes === "function" ? o.scopes : undefined;

    function callOptions(ctx) {
      if (scopesFn === undefined) return undefined;
      const scopes = scopesFn(ctx);
      if (scopes === undefined || scopes === null) return undefined;
      if (typeof scopes === "string") return { scopes };
      if (Array.isArray(scopes) && scopes.every((s) => typeof s === "string")) return { scopes };
      throw invalid(`${where}: options.scopes(ctx) must return an array of scope strings, a space-separated string, or undefined, got ${typeName(scopes)}`);
    }

    /** The responder's 2026-07-28 reply to `method` with `params` (JSON members, without braces). */
    function call(method, params, ctx) {
      const text = `{"jsonrpc":"2.0","id":0,"method":${JSON.stringify(method)},"params":{${params}${params ? "," : ""}${META}}}`;
      return JSON.parse(server.handleText(text, callOptions(ctx)));
    }

    const member = (name, value) => (value === undefined ? "" : `${JSON.stringify(name)}:${JSON.stringify(value)}`);
    const members = (...m) => m.filter((s) => s !== "").join(",");
    const uriArg = (method, uri) => {
      if (typeof uri !== "string") throw invalid(`${where}: ${method}: uri must be a string, got ${typeName(uri)}`);
      return uri;
    };
    const cursorArg = (method, params) => {
      const cursor = params?.cursor;
      if (cursor !== undefined && typeof cursor !== "string") {
        throw invalid(`${where}: ${method}: params.cursor must be a string or absent, got ${typeName(cursor)}`);
      }
      return cursor;
    };

    const source = {
      async list(params, ctx) {
        const reply = call("skills/list", member("cursor", cursorArg("list", params)), ctx);
        if (reply.error) throw rpcError(reply.error);
        const { skills, nextCursor } = reply.result;
        return nextCursor === undefined ? { skills } : { skills, nextCursor };
      },
      async get(uri, ctx) {
        const reply = call("skills/get", member("uri", uriArg("get", uri)), ctx);
        if (reply.error) {
          if (isNotFound(reply.error)) return undefined;
          throw rpcError(reply.error);
        }
        return reply.result.skill;
      },
      async read(uri, ctx) {
        const file = server.readFile(uriArg("read", uri), callOptions(ctx));
        if (file === undefined) return undefined;
        return "text" in file ? { text: file.text, mimeType: file.mimeType } : { bytes: file.bytes, mimeType: file.mimeType };
      },
      async readDirectory(uri, params, ctx) {
        const reply = call(
          "resources/directory/read",
          members(member("uri", uriArg("readDirectory", uri)), member("cursor", cursorArg("readDirectory", params))),
          ctx,
        );
        if (reply.error) {
          if (isNotFound(reply.error)) return undefined;
          throw rpcError(reply.error);
        }
        const { resources, nextCursor } = reply.result;
        return nextCursor === undefined ? { resources } : { resources, nextCursor };
      },
      async listResources(ctx) {
        // Every page of `resources/list` (one item per skill the caller sees).
        const all = [];
        let cursor;
        do {
          const reply = call("resources/list", member("cursor", cursor), ctx);
          if (reply.error) throw rpcError(reply.error);
          all.push(...reply.result.resources);
          cursor = reply.result.nextCursor;
        } while (cursor !== undefined);
        return all;
      },
    };
    servers.set(source, { server, info });
    return source;
  }

  /**
   * The cache hint to give `new SkillsExtension({ source, cacheHint })` for a source that
   * packSkillSource made: the server's `ttlMs`, and `cacheScope` "private" whenever the
   * catalog has private skills (the SDK gives every caller the same hint, and an answer made
   * for a caller's scopes must not go into a shared cache), else the server's `cacheScope`.
   */
  function recommendedCacheHint(source) {
    const known = source !== null && typeof source === "object" ? servers.get(source) : undefined;
    if (known === undefined) {
      throw invalid(`recommendedCacheHint: source must be a SkillSource that packSkillSource made, got ${typeName(source)}`);
    }
    const { info } = known;
    return { ttlMs: info.ttlMs, cacheScope: info.hasPrivateSkills ? "private" : info.cacheScope };
  }

  return { packSkillSource, recommendedCacheHint };
}
