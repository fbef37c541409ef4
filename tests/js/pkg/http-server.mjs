// The package's SkillsServer behind a node:http server on 127.0.0.1 (a free port): each POST
// is answered with `server.handleHttp(body, headers)`, as a Worker would. `sse: true` answers
// requests with an event stream instead (a notification event first, the response, then the
// stream is left open for `holdMs`), so a client must take the response without waiting for
// the end. `token` requires `Authorization: Bearer <token>` on every POST: anything else is
// 401 with a `WWW-Authenticate: Bearer` challenge (`error="invalid_token"` when a token was
// sent) naming this server's metadata document, which GET serves at
// `/.well-known/oauth-protected-resource/mcp` (authorization server https://auth.example).
// CORS allows any origin and exposes WWW-Authenticate. Every request is counted by method in
// `counts`.
import { createServer } from "node:http";

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-expose-headers": "www-authenticate",
  "access-control-allow-headers": "content-type, accept, authorization, mcp-protocol-version, mcp-method, mcp-name, mcp-session-id, x-test",
};

export async function startHttpServer(server, { sse = false, holdMs = 60_000, delayMs = 0, token } = {}) {
  const counts = {};
  const seen = [];
  const timers = new Set();
  const http = createServer(async (req, res) => {
    if (req.method === "OPTIONS") {
      res.writeHead(204, CORS).end();
      return;
    }
    const origin = `http://${req.headers.host}`;
    if (token !== undefined && req.method === "GET" && req.url.startsWith("/.well-known/oauth-protected-resource")) {
      const doc = { resource: `${origin}/mcp`, authorization_servers: ["https://auth.example"], scopes_supported: ["skills.read"] };
      res.writeHead(200, { ...CORS, "content-type": "application/json" }).end(JSON.stringify(doc));
      return;
    }
    if (token !== undefined && req.headers.authorization !== `Bearer ${token}`) {
      for await (const _ of req);
      const error = req.headers.authorization === undefined ? "" : `error="invalid_token", `;
      const challenge = `Bearer ${error}resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`;
      res.writeHead(401, { ...CORS, "www-authenticate": challenge }).end();
      return;
    }
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = Buffer.concat(chunks).toString("utf8");
    let method;
    try {
      method = JSON.parse(body).method;
    } catch {}
    counts[method] = (counts[method] ?? 0) + 1;
    seen.push({ method, headers: { ...req.headers } });
    if (delayMs > 0) await new Promise((r) => { const t = setTimeout(r, delayMs); timers.add(t); });
    const reply = server.handleHttp(body, req.headers);
    if (reply.body === undefined) {
      res.writeHead(reply.status, CORS).end();
      return;
    }
    if (sse && reply.status === 200) {
      res.writeHead(200, { ...CORS, "content-type": "text/event-stream", "cache-control": "no-store" });
      res.write(`: hello\n\nevent: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}\n\n`);
      res.write(`event: message\ndata: ${reply.body}\n\n`);
      const t = setTimeout(() => res.end(), holdMs);
      timers.add(t);
      res.on("close", () => clearTimeout(t));
      return;
    }
    res.writeHead(reply.status, { ...CORS, "content-type": "application/json" }).end(reply.body);
  });
  await new Promise((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address();
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    counts,
    seen,
    total: () => Object.values(counts).reduce((a, b) => a + b, 0),
    close: () =>
      new Promise((resolve) => {
        for (const t of timers) clearTimeout(t);
        http.closeAllConnections();
        http.close(resolve);
      }),
  };
}
