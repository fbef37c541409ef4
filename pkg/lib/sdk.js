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

const OPTIONS = ["scopes", "pageSize", "assets"];

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
    throw invalid(`${where}: options must be an object ({ scopes?, pageSize?, assets? }), got ${typeName(value)}`);
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

/**
 * A SkillsEdgeError of the server re-worded for this module's caller: its `from` prefix (what
 * the server's method calls the value) replaced by `to` (what the caller gave).
 */
function renamed(e, from, to) {
  if (e?.name === "SkillsEdgeError" && typeof e.message === "string" && e.message.startsWith(from)) {
    e.message = to + e.message.slice(from.length);
  }
  return e;
}

/** Whether a `-32602` error names the URI asked for: no such skill, file or directory for this caller. */
function isNotFound(error) {
  return error.code === -32602 && error.data !== null && typeof error.data === "object" && typeof error.data.uri === "string";
}

/** A reply's result; `undefined` when it is the error of a URI the caller sees nothing at; its error thrown otherwise. */
function found(reply) {
  if (!reply.error) return reply.result;
  if (isNotFound(reply.error)) return undefined;
  throw rpcError(reply.error);
}

/** A page of a list result: its `key` items, and `nextCursor` only when there is a next page. */
function page(result, key) {
  const items = result[key];
  return result.nextCursor === undefined ? { [key]: items } : { [key]: items, nextCursor: result.nextCursor };
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
      throw notReady(e) ?? renamed(e, "new SkillsServer: option pageSize", `${where}: options.pageSize`);
    }
  }

  /**
   * A SkillSource over `pack` (bytes of a pack, or a SkillsServer already made). Throws
   * `invalid-argument` for a wrong argument or a pack made with `--assets` without
   * `options.assets`, `pack-invalid` for a damaged pack.
   */
  function packSkillSource(pack, options) {
    const where = "packSkillSource";
    const o = readOptions(where, options);
    if (o.scopes !== undefined && o.scopes !== null && typeof o.scopes !== "function") {
      throw invalid(`${where}: options.scopes must be a function (ctx) => string[] | string | undefined, mapping the SDK's request context (ctx.http?.authInfo) to the caller's scopes, got ${typeName(o.scopes)}`);
    }
    if (o.assets !== undefined && o.assets !== null && typeof o.assets !== "function") {
      throw invalid(`${where}: options.assets must be a function (name) => the asset's bytes (a Uint8Array or an ArrayBuffer, or a promise of one), got ${typeName(o.assets)}`);
    }
    const server = serverOf(pack, o);
    const info = server.catalogInfo();
    const assets = typeof o.assets === "function" ? o.assets : undefined;
    if (info.hasAssets && assets === undefined) {
      throw invalid(`${where}: pack keeps some files outside it as assets (it was made with --assets, for the Cloudflare Worker's Static Assets): give options.assets, a function (name) => the bytes of the asset file of that name (the folder --assets wrote), or make the pack without --assets (\`skills-edge pack SKILLS -o skills.pack\`)`);
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

    /** `f(options)` with the caller's options; a refusal of the scopes names `options.scopes(ctx)`. */
    function as(ctx, method, f) {
      const options = callOptions(ctx);
      try {
        return f(options);
      } catch (e) {
        throw renamed(e, `SkillsServer.${method}: options.scopes holds`, `${where}: options.scopes(ctx) returned a list that holds`);
      }
    }

    /** The responder's 2026-07-28 reply to `method` with `params` (JSON members, without braces). */
    function call(method, params, ctx) {
      const text = `{"jsonrpc":"2.0","id":0,"method":${JSON.stringify(method)},"params":{${params}${params ? "," : ""}${META}}}`;
      return JSON.parse(as(ctx, "handleText", (options) => server.handleText(text, options)));
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

    /**
     * A file kept outside the pack: its asset's bytes from `options.assets`, checked against the
     * length the pack recorded (an asset is named by its content's SHA-256, so no hashing is
     * needed), as the Worker checks its assets. A missing or damaged asset is the responder's
     * `-32603` naming the file: nothing wrong is served.
     */
    async function fromAsset(file) {
      const fault = (cause) => {
        const e = new Error(`Internal error: the bytes of ${file.uri} are missing or damaged on this server (its deployment is incomplete); nothing was served`, cause === undefined ? undefined : { cause });
        e.name = "SkillsEdgeRpcError";
        e.code = -32603;
        e.data = { uri: file.uri };
        return e;
      };
      let got;
      try {
        got = await assets(file.asset);
      } catch (e) {
        throw fault(e);
      }
      const bytes = got instanceof Uint8Array ? got : got instanceof ArrayBuffer ? new Uint8Array(got) : undefined;
      if (bytes === undefined || bytes.byteLength !== file.size) throw fault();
      if (!file.isText) return { bytes, mimeType: file.mimeType };
      try {
        return { text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes), mimeType: file.mimeType };
      } catch (e) {
        throw fault(e);
      }
    }

    const source = {
      async list(params, ctx) {
        const reply = call("skills/list", member("cursor", cursorArg("list", params)), ctx);
        if (reply.error) throw rpcError(reply.error);
        return page(reply.result, "skills");
      },
      async get(uri, ctx) {
        return found(call("skills/get", member("uri", uriArg("get", uri)), ctx))?.skill;
      },
      async read(uri, ctx) {
        const u = uriArg("read", uri);
        const file = as(ctx, "readFile", (options) => server.readFile(u, options));
        if (file === undefined) return undefined;
        if ("text" in file) return { text: file.text, mimeType: file.mimeType };
        if ("bytes" in file) return { bytes: file.bytes, mimeType: file.mimeType };
        return fromAsset(file);
      },
      async readDirectory(uri, params, ctx) {
        const result = found(call(
          "resources/directory/read",
          members(member("uri", uriArg("readDirectory", uri)), member("cursor", cursorArg("readDirectory", params))),
          ctx,
        ));
        return result === undefined ? undefined : page(result, "resources");
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
