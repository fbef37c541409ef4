// A third-party skills server and the official client, for tests that verify what a peer
// publishes: serves a skills folder with `@olaservo/ext-skills` 0.14.0 (frontmatter read with
// yaml@2) over Streamable HTTP on a free 127.0.0.1 port, fetches it with the official MCP
// TypeScript SDK 2.4 client at 2026-07-28 (skills/list, then resources/read of every file of
// every skill), prints {"listing": {"skills": [...]}, "reads": {"<uri>": <resources/read
// result>}} as one JSON line on stdout, and exits. No verification here: the caller verifies.
//
//   node tests/js/peers/ext-skills.mjs <skills-folder>
import http from "node:http";
import { McpServer, createMcpHandler } from "@modelcontextprotocol/server";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import { discoverSkills, registerSkillResources } from "@olaservo/ext-skills/server";

const dir = process.argv[2];
if (!dir) {
  console.error("usage: node tests/js/peers/ext-skills.mjs <skills-folder>");
  process.exit(2);
}
const skillMap = discoverSkills(dir);
const handler = createMcpHandler(() => {
  const server = new McpServer({ name: "ola-skills", version: "0.0.0" }, { capabilities: { resources: {} } });
  registerSkillResources(server, skillMap, dir, { directoryRead: true, ttlMs: 0, cacheScope: "private" });
  return server;
});
const httpServer = http.createServer(toNodeHandler(handler));
await new Promise((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
const { port } = httpServer.address();
try {
  const client = new Client({ name: "skills-edge-tests", version: "0.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
  const listing = await new SkillsClient(client).list();
  const reads = {};
  for (const skill of listing.skills) {
    for (const { uri } of skill.resources === "dynamic" ? [{ uri: skill.uri }] : skill.resources) {
      reads[uri] = await client.readResource({ uri });
    }
  }
  await client.close();
  process.stdout.write(`${JSON.stringify({ listing: { skills: listing.skills }, reads })}\n`);
} finally {
  httpServer.closeAllConnections?.();
  await new Promise((resolve) => httpServer.close(resolve));
}
