// An MCP server of your own, made with the official TypeScript SDK 2.4 on Node: one tool
// (`server_time`) and, through the SDK's Skills extension, the skills of a pack that
// `npx skills-edge pack` wrote. Streamable HTTP at /mcp on 127.0.0.1:$PORT, both protocol
// eras (2026-07-28 `server/discover`, 2025-11-25 `initialize`), one McpServer per request
// (createMcpHandler), served by @modelcontextprotocol/node.
//
// The lines marked SKILLS are all it takes to add the skills.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { McpServer, createMcpHandler } from "@modelcontextprotocol/server";
import { SkillsExtension } from "@modelcontextprotocol/server/ext/skills"; // SKILLS
import { localhostHostValidation, toNodeHandler } from "@modelcontextprotocol/node";
import { packSkillSource, recommendedCacheHint } from "skills-edge/sdk"; // SKILLS

const port = Number(process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`PORT must be a TCP port number (1-65535), got ${JSON.stringify(process.env.PORT)}`);
  process.exit(2);
}
const packPath = process.env.SKILLS_PACK ?? fileURLToPath(new URL("../skills.pack", import.meta.url));

// SKILLS: the pack, read once; one source and one extension serve every request. A caller's
// scopes come from the authInfo your auth layer sets (`req.auth`, which toNodeHandler passes
// on); without one, every caller sees the public skills.
const source = packSkillSource(readFileSync(packPath), { scopes: (ctx) => ctx.http?.authInfo?.scopes }); // SKILLS
const skills = new SkillsExtension({ source, cacheHint: recommendedCacheHint(source) }); // SKILLS

const handler = createMcpHandler(
  () => {
    const mcp = new McpServer({ name: "node-sdk-example", version: "1.0.0" });
    mcp.registerTool(
      "server_time",
      { description: "The server's current time, as an ISO 8601 string." },
      async () => ({ content: [{ type: "text", text: new Date().toISOString() }] }),
    );
    skills.attach(mcp); // SKILLS
    return mcp;
  },
  { onerror: (e) => console.error(e) },
);

const validHost = localhostHostValidation();
const mcpHandler = toNodeHandler(handler);
const server = createServer((req, res) => {
  if (!validHost(req, res)) return;
  if (new URL(req.url ?? "/", "http://localhost").pathname !== "/mcp") {
    res.writeHead(404, { "content-type": "text/plain" }).end("not found: the MCP endpoint is /mcp\n");
    return;
  }
  void mcpHandler(req, res);
});
server.listen(port, "127.0.0.1", () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/mcp`);
});
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}
