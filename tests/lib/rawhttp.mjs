// HTTP/1.1 over raw sockets (node:net), for the fault tests: requests node:http cannot send (a
// body shorter or longer than its Content-Length, a body dribbled byte by byte, a client that
// goes away mid-body, headers past a runtime's limit), each exchange bounded by a timeout and
// its outcome reported exactly (a response, the connection closed or reset without one, or
// nothing before the timeout).
import { connect } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

export const V = "2026-07-28";
export const ACCEPT = "application/json, text/event-stream";
export const META = {
  "io.modelcontextprotocol/protocolVersion": V,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "skills-edge-faults", version: "1.0.0" },
};

/** The JSON text of a 2026-07-28 request (`id: null` makes a notification). */
export function message(method, { id = 1, params = {} } = {}) {
  const m = { jsonrpc: "2.0", method, params: { ...params, _meta: META } };
  if (id !== null) m.id = id;
  return JSON.stringify(m);
}

/**
 * The head of a POST to `path` for `method`, with `extra` header lines (each `name: value`,
 * no line ends) after the MCP headers. `framing` is `{ length }` (a Content-Length, which may
 * differ from what is sent) or `"chunked"`.
 */
export function postHead(port, method, framing, { path = "/mcp", extra = [], close = true } = {}) {
  const lines = [
    `POST ${path} HTTP/1.1`,
    `host: localhost:${port}`,
    "content-type: application/json",
    `accept: ${ACCEPT}`,
    `mcp-protocol-version: ${V}`,
    `mcp-method: ${method}`,
  ];
  if (close) lines.push("connection: close");
  lines.push(framing === "chunked" ? "transfer-encoding: chunked" : `content-length: ${framing.length}`);
  return [...lines, ...extra, "", ""].join("\r\n");
}

/** A chunk of a chunked body (an empty `data` is the last chunk). */
export function chunk(data) {
  const bytes = Buffer.from(data);
  return bytes.length === 0 ? "0\r\n\r\n" : Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from("\r\n")]);
}

/** Parses one response from `buf`: `null` while it is incomplete. */
function parseResponse(buf, { closed }) {
  const end = buf.indexOf("\r\n\r\n");
  if (end < 0) return null;
  const lines = buf.subarray(0, end).toString("latin1").split("\r\n");
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? "");
  if (!m) return { status: NaN, headers: {}, body: buf.toString("latin1") };
  const headers = {};
  for (const line of lines.slice(1)) {
    const i = line.indexOf(":");
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  const rest = buf.subarray(end + 4);
  let body;
  if (headers["content-length"] !== undefined) {
    const len = Number(headers["content-length"]);
    if (rest.length < len) return null;
    body = rest.subarray(0, len);
  } else if (/chunked/i.test(headers["transfer-encoding"] ?? "")) {
    const parts = [];
    let at = 0;
    for (;;) {
      const eol = rest.indexOf("\r\n", at);
      if (eol < 0) return null;
      const size = parseInt(rest.subarray(at, eol).toString("latin1"), 16);
      if (Number.isNaN(size)) return null;
      if (size === 0) break;
      if (rest.length < eol + 2 + size + 2) return null;
      parts.push(rest.subarray(eol + 2, eol + 2 + size));
      at = eol + 2 + size + 2;
    }
    body = Buffer.concat(parts);
  } else {
    // No framing: the body runs to the end of the connection.
    if (!closed) return null;
    body = rest;
  }
  const text = body.toString("utf8");
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {}
  return { status: Number(m[1]), headers, body: text, json };
}

/**
 * Opens a connection to 127.0.0.1:`port` and writes `parts` in order: strings and Buffers are
 * written, numbers are pauses in milliseconds. Then, with `halfClose`, ends the sending side.
 * Resolves, within `timeoutMs`, to `{ outcome, status, headers, body, json, ms }`, `outcome`
 * being `"response"` (a whole response arrived; the socket is then destroyed), `"closed"` or
 * `"reset"` (the connection ended without a whole response) or `"timeout"` (nothing whole
 * before `timeoutMs`; the socket is destroyed). `abortAfterMs` destroys the socket that long
 * after the last part is written and resolves `"aborted"` (a client going away mid-body).
 * `onSocket(socket, abort)` is called at once: `socket` to write more later, `abort()` to go
 * away from outside (the outcome is then `"aborted"`).
 */
export function exchange(port, parts, { halfClose = false, timeoutMs = 20_000, abortAfterMs, onSocket } = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = connect({ port, host: "127.0.0.1", noDelay: true });
    const got = [];
    let settled = false;
    let writing = true;
    const settle = (outcome, extra = {}) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      writing = false;
      socket.destroy();
      resolve({ outcome, ms: Date.now() - started, ...extra });
    };
    const timer = setTimeout(() => settle("timeout"), timeoutMs);
    const check = (closed) => {
      const r = parseResponse(Buffer.concat(got), { closed });
      if (r) settle("response", r);
      else if (closed) settle("closed", { received: Buffer.concat(got).toString("latin1") });
    };
    socket.on("data", (d) => {
      got.push(d);
      check(false);
    });
    socket.on("end", () => check(true));
    socket.on("close", () => check(true));
    socket.on("error", (err) => {
      // Writing after the server answered and closed (EPIPE) or reset: keep what arrived.
      const r = parseResponse(Buffer.concat(got), { closed: true });
      if (r) settle("response", r);
      else settle("reset", { error: err.code });
    });
    onSocket?.(socket, () => settle("aborted"));
    socket.on("connect", async () => {
      for (const part of parts) {
        if (!writing) return;
        if (typeof part === "number") await sleep(part);
        else socket.write(part);
      }
      if (!writing) return;
      if (halfClose) socket.end();
      if (abortAfterMs !== undefined) {
        await sleep(abortAfterMs);
        settle("aborted");
      }
    });
  });
}

/** The parts of a body dribbled one byte at a time, `gapMs` apart. */
export function dribble(text, gapMs) {
  const parts = [];
  for (const byte of Buffer.from(text)) parts.push(gapMs, Buffer.from([byte]));
  return parts;
}

/**
 * The exact JSON-RPC error bodies of the refusals the fault tests provoke, with a body limit
 * of 65536 bytes: every adapter of the shared HTTP rules (the Worker, the HTTP component)
 * must answer these bytes.
 */
export const REFUSALS = Object.freeze({
  /** 413: a body over the limit (by Content-Length, or read chunk by chunk). */
  tooLarge: '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Content Too Large: a message may have at most 65536 bytes"}}',
  /** 400: the 10 bytes `{"jsonrpc"` a Content-Length of 10 cuts a message to. */
  cutToTen: '{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error: EOF while parsing an object at line 1 column 10"}}',
  /** 400: a body the platform could not deliver. */
  unreadable: '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Bad Request: the request body could not be read"}}',
});
