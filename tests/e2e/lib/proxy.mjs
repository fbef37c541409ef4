// A local HTTP proxy that adds headers to every request it forwards: for clients whose command
// line sends no headers of their own (the conformance suite), against servers that need a
// bearer token.
import { createServer, request as httpRequest } from "node:http";

/**
 * A proxy on a free 127.0.0.1 port to the server at 127.0.0.1:`port` that adds `headers` to
 * every request and sends `Host: host` (`localhost:PORT` by default: a token's audience names
 * the host the server sees). Resolves `{ url, close() }`, `url` being the proxy's `/mcp`.
 */
export async function headerProxy({ port, headers, host = `localhost:${port}` }) {
  const server = createServer((req, res) => {
    const up = httpRequest(
      { host: "127.0.0.1", port, method: req.method, path: req.url, headers: { ...req.headers, host, ...headers } },
      (r) => {
        res.writeHead(r.statusCode, r.headers);
        r.pipe(res);
      },
    );
    up.on("error", () => res.destroy());
    req.pipe(up);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/mcp`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
