// A team's existing hand-written MCP server on Cloudflare Workers: Streamable HTTP at /mcp,
// stateless, JSON responses only, one tool of its own (`roll_dice`), both protocol eras
// (2026-07-28: `server/discover` and per-request `_meta`; 2025-11-25: `initialize`).
// The parts marked SKILLS are all it takes to serve Agent Skills too
// (io.modelcontextprotocol/skills, SEP-2640) with skills-edge's SkillsServer: load a pack,
// let it apply the Streamable HTTP rules and answer the skill methods, merge its
// `server/discover`/`initialize` answer with ours.
import { initSync, SkillsServer } from "skills-edge";
import type { HttpReply, JsonRpcMessage, JsonRpcResponse, JsonValue } from "skills-edge";
import wasm from "skills-edge/skills_edge_bg.wasm";
import pack from "../skills.pack"; // made by `npx skills-edge pack skills -o skills.pack`

// SKILLS: one server per isolate, built once when the module loads. It names this server in
// every result it makes (`serverInfo`, and `_meta` of 2026-07-28 results), and applies the
// Worker's HTTP rules to every request (Host and Origin allow-lists against DNS rebinding,
// CORS, POST only, Accept and Content-Type, a body limit). The defaults admit loopback hosts
// and local pages; deployed, list your host: `allowedHosts: "dice-mcp.example.workers.dev"`.
const SERVER_INFO = { name: "dice-mcp", version: "1.0.0" };
initSync({ module: wasm });
const skills = new SkillsServer({ pack, serverInfo: SERVER_INFO });

// Our own methods. Everything else goes to SkillsServer: skills/*, resources/* (this server
// has no resources of its own; if yours has, send only `skill://` URIs there and merge the two
// resources/list results), server/discover and initialize (merged with our capabilities
// below), ping, notifications, malformed messages and unknown methods, which it answers with
// the right JSON-RPC error and HTTP status.
const OWN_METHODS = new Set(["tools/list", "tools/call"]);

type Json = { [key: string]: JsonValue };
type Id = string | number | undefined;
const INFO_KEY = "io.modelcontextprotocol/serverInfo";
const MODERN = ["2026-07-28"]; // SkillsServer's `supportedVersions`
const TOOLS: JsonValue = [{
  name: "roll_dice",
  description: "Rolls a die and returns the number on top.",
  inputSchema: { type: "object", properties: { sides: { type: "integer", minimum: 2, maximum: 1000, default: 6 } } },
}];

const isObject = (v: unknown): v is { [key: string]: unknown } =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function error(id: Id, code: number, message: string, data?: JsonValue, status = 400): HttpReply {
  return { status, body: JSON.stringify({ jsonrpc: "2.0", id, error: { code, message, data } }) };
}

/** Our own results; 2026-07-28 ones carry `resultType`, caching hints and our identity. */
function result(id: Id, modern: boolean, body: Json, cacheable = false): HttpReply {
  if (modern) {
    body.resultType = "complete";
    if (cacheable) Object.assign(body, { ttlMs: 300_000, cacheScope: "public" });
    body._meta = { [INFO_KEY]: SERVER_INFO };
  }
  return { status: 200, body: JSON.stringify({ jsonrpc: "2.0", id, result: body }) };
}

/** SKILLS: SkillsServer's `server/discover` or `initialize` result, plus our tools. */
function withTools(body: string): string {
  const res = JSON.parse(body) as JsonRpcResponse;
  if ("result" in res) (res.result.capabilities as Json).tools = {}; // next to `resources` and the skills extension
  return JSON.stringify(res);
}

function rollDice(id: Id, modern: boolean, params: JsonRpcMessage["params"]): HttpReply {
  if (params?.name !== "roll_dice") return error(id, -32602, `Unknown tool: ${String(params?.name)}`, undefined, 200);
  const sides = isObject(params.arguments) ? params.arguments.sides ?? 6 : 6;
  if (typeof sides !== "number" || !Number.isInteger(sides) || sides < 2 || sides > 1000) {
    return result(id, modern, { content: [{ type: "text", text: "sides: an integer from 2 to 1000" }], isError: true });
  }
  const roll = 1 + Math.floor(Math.random() * sides);
  return result(id, modern, { content: [{ type: "text", text: String(roll) }] });
}

/** The message's JSON object, if the body is one. */
function parse(text: string): { [key: string]: unknown } | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return isObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the message is a well-formed request (with an id) for one of our own methods. */
function isOwnRequest(m: { [key: string]: unknown } | undefined): m is JsonRpcMessage & { [key: string]: unknown } {
  return m !== undefined && m.jsonrpc === "2.0" && typeof m.method === "string" && OWN_METHODS.has(m.method) &&
    (typeof m.id === "string" || Number.isInteger(m.id)) && (m.params === undefined || isObject(m.params));
}

/** A header value, decoding the `=?base64?…?=` form used for non-ASCII values. */
function header(request: Request, name: string): string | null {
  const v = request.headers.get(name);
  const b64 = v?.match(/^=\?base64\?(.*)\?=$/)?.[1];
  if (b64 === undefined) return v;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
}

/** 2026-07-28 checks of one of our requests: the per-request `_meta` and the mirrored headers. */
function checkModern(request: Request, { id, method, params }: JsonRpcMessage): HttpReply | undefined {
  const version = header(request, "mcp-protocol-version");
  if (version === null) return error(id, -32020, "The MCP-Protocol-Version header is required");
  const meta = isObject(params?._meta) ? params._meta : {};
  const declared = meta["io.modelcontextprotocol/protocolVersion"];
  if (typeof declared !== "string" || !isObject(meta["io.modelcontextprotocol/clientCapabilities"])) {
    return error(id, -32602, "params._meta needs io.modelcontextprotocol/protocolVersion and clientCapabilities");
  }
  if (declared !== version) return error(id, -32020, "MCP-Protocol-Version differs from _meta");
  if (!MODERN.includes(version)) {
    return error(id, -32022, "Unsupported protocol version", { supported: MODERN, requested: version });
  }
  if (header(request, "mcp-method") !== method) return error(id, -32020, "Mcp-Method differs from the method");
  if (method === "tools/call" && header(request, "mcp-name") !== params?.name) {
    return error(id, -32020, "Mcp-Name differs from the tool name");
  }
  return undefined;
}

/** Our answer to a message that passed the HTTP rules, or `undefined` to leave it to SkillsServer. */
function own(request: Request, text: string): HttpReply | undefined {
  const m = parse(text);
  if (m?.method === "server/discover" || m?.method === "initialize") {
    // SKILLS: SkillsServer's answer (it checks the message, its `_meta` and the MCP headers),
    // with our tools merged in.
    const { status, body } = skills.handleHttp(text, request.headers);
    return { status, body: status === 200 && body !== undefined ? withTools(body) : body };
  }
  if (!isOwnRequest(m)) return undefined;
  // Ours: 2026-07-28 when the body's `_meta` or a modern header says so; 2025-11-25 otherwise.
  const meta = m.params?._meta;
  const versionHeader = request.headers.get("mcp-protocol-version");
  const modern = (isObject(meta) && "io.modelcontextprotocol/protocolVersion" in meta) ||
    (versionHeader !== null && MODERN.includes(versionHeader));
  const invalid = modern ? checkModern(request, m) : undefined;
  if (invalid) return invalid;
  if (m.method === "tools/list") return result(m.id, modern, { tools: TOOLS }, true);
  return rollDice(m.id, modern, m.params);
}

export default {
  // SKILLS: SkillsServer applies the HTTP rules, hands each admitted message to `own`, and
  // answers the rest (skills/*, resources/*, notifications, malformed messages, unknown methods).
  fetch: (request: Request): Promise<Response> => skills.fetch(request, (text) => own(request, text)),
};
