// A peer of the benchmark (bench.mjs): the same official TypeScript SDK 2.4 server as
// sdk-catalog.mjs (an McpServer per request behind the SDK's `createMcpHandler`, its Skills
// extension), with skills-edge's `packSkillSource` as the extension's source instead of the
// SDK's own catalog: entries, pages and reads come from the bench catalog's pack, compiled at
// build time (the npm package's web build, initialized once per isolate). The cache hint is
// the one the pack recommends, as for sdk-catalog.mjs.
import { McpServer, createMcpHandler } from "@modelcontextprotocol/server";
import { SkillsExtension } from "@modelcontextprotocol/server/ext/skills";
import { initSync } from "skills-edge";
import { packSkillSource, recommendedCacheHint } from "skills-edge/sdk";
import wasm from "./skills_edge_bg.wasm";
import pack from "./inline.pack";

initSync({ module: wasm });
const source = packSkillSource(pack);
const skills = new SkillsExtension({ source, cacheHint: recommendedCacheHint(source), onWarning: () => {} });
const handler = createMcpHandler(() => {
  const mcp = new McpServer({ name: "sdk-skills", version: "2.4.0" });
  skills.attach(mcp);
  return mcp;
}, { onerror: () => {} });

export default {
  fetch(request) {
    return handler.fetch(request);
  },
};
