// Two other skills servers, run in the test's process as node:http servers on 127.0.0.1 (free
// ports), both serving a skills folder on both protocol eras through the official SDK's
// createMcpHandler (one McpServer per HTTP request):
//
// * the official TypeScript SDK 2.4 server's Skills extension (`ext/skills`: loadSkills,
//   SkillsExtension#attach), whose catalog builder reads frontmatter with the SDK's own YAML
//   subset and skips a skill it cannot read;
// * @olaservo/ext-skills 0.14.0 (discoverSkills, registerSkillResources; yaml@2), with
//   directoryRead on and ttlMs 60000 public (its skills/get and directory results carry no
//   cache hints, even at 2026-07-28).
//
// Each returns `{ url, close() }`.
import { createServer } from "node:http";
import { McpServer, createMcpHandler } from "@modelcontextprotocol/server";
import { loadSkills } from "@modelcontextprotocol/server/ext/skills/node";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { discoverSkills, registerSkillResources } from "@olaservo/ext-skills/server";

async function listen(handler) {
  const server = createServer(toNodeHandler(handler));
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}

/** The SDK 2.4 server's Skills extension over `dir`. `skipped` lists the skills it left out. */
export async function startSdkServer(dir) {
  const skipped = [];
  const skills = await loadSkills(dir, { onWarning: (w) => skipped.push(String(w?.message ?? w)) });
  const handler = createMcpHandler(() => {
    const mcp = new McpServer({ name: "sdk-skills", version: "2.4.0" });
    skills.attach(mcp);
    return mcp;
  }, { onerror: () => {} });
  const s = await listen(handler);
  return { ...s, entries: skills.entries, skipped };
}

/** @olaservo/ext-skills 0.14.0 over `dir`. */
export async function startOlaServer(dir) {
  const map = discoverSkills(dir);
  const handler = createMcpHandler(() => {
    const mcp = new McpServer({ name: "ola-skills", version: "0.14.0" }, { capabilities: { resources: {} } });
    registerSkillResources(mcp, map, dir, { directoryRead: true, ttlMs: 60_000, cacheScope: "public" });
    return mcp;
  }, { onerror: () => {} });
  const s = await listen(handler);
  return { ...s, skills: [...map.keys()] };
}
