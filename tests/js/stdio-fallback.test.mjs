// The tools and prompts fallback over stdio (`skills-edge stdio --fallback …`) through the
// official SDK clients: v1 (@modelcontextprotocol/sdk, 2025-11-25) and v2
// (@modelcontextprotocol/client 2.4, legacy initialize and 2026-07-28 pinned). Each lists and
// calls every tool on every skill and file and gets every prompt, checking the bytes against
// resources/read and the manifests (tests/lib/fallback-sdk.mjs). Off (no flag), the server
// declares neither and answers -32601.
//
// Run: `node --test tests/js/` after `cargo build -p skills-edge-cli` (binary: $SKILLS_EDGE_BIN,
// or target/debug/skills-edge).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { assertNotOffered, clientV1, clientV2, exercise, LEGACY, MODERN } from "../lib/fallback-sdk.mjs";
import { inspectorMethod } from "../judges/inspector.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const BIN = resolve(ROOT, process.env.SKILLS_EDGE_BIN ?? "target/debug/skills-edge");

async function withClient(sdk, era, args, fn) {
  assert.ok(existsSync(BIN), `${BIN} is missing: run \`cargo build -p skills-edge-cli\` first`);
  const client = sdk === "v1" ? clientV1() : clientV2(era);
  const Transport = sdk === "v1" ? StdioV1 : StdioV2;
  await client.connect(new Transport({ command: BIN, args: ["stdio", ...args], stderr: "pipe" }));
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

for (const [sdk, era, version] of [
  ["v1", "legacy", LEGACY],
  ["v2", "legacy", LEGACY],
  ["v2", "modern", MODERN],
]) {
  test(`SDK ${sdk} (${version}) calls every tool and gets every prompt with --fallback tools,prompts`, async () => {
    const n = await withClient(sdk, era, ["--fallback", "tools,prompts"], async (client) => {
      if (sdk === "v2") assert.equal(client.getNegotiatedProtocolVersion(), version);
      return exercise(client, { label: `${sdk} ${version}` });
    });
    assert.equal(n.tools, 4);
    assert.ok(n.files >= 19 && n.blobs >= 1 && n.prompts >= 7, JSON.stringify(n));
  });
}

for (const [flag, tools, prompts] of [
  ["tools", true, false],
  ["prompts", false, true],
]) {
  test(`--fallback ${flag} offers only ${flag} (SDK v2, 2026-07-28)`, async () => {
    await withClient("v2", "modern", ["--fallback", flag], (client) =>
      exercise(client, { tools, prompts, label: flag }),
    );
  });
}

for (const era of ["modern", "legacy"]) {
  test(`MCP Inspector's command line lists search_skills and calls it (${era}, --fallback search)`, async () => {
    const target = { command: BIN, args: ["stdio", "--fallback", "search"] };
    const listed = await inspectorMethod({ target, era, method: "tools/list" });
    assert.deepEqual(listed.tools.map((t) => t.name), ["search_skills"], "--fallback search offers the search tool alone");
    const tool = listed.tools[0];
    assert.equal(tool.inputSchema.type, "object");
    assert.ok(tool.outputSchema?.properties?.results, "an outputSchema with results");
    const called = await inspectorMethod({
      target, era, method: "tools/call",
      extra: ["--tool-name", "search_skills", "--tool-arg", "query=review code with the team checklist", "--tool-arg", "limit=3"],
    });
    assert.notEqual(called.isError, true, JSON.stringify(called));
    const results = called.structuredContent.results;
    assert.deepEqual(JSON.parse(called.content[0].text), called.structuredContent);
    assert.ok(results.length >= 1 && results.length <= 3, JSON.stringify(results));
    assert.equal(results[0].uri, "skill://code-review/SKILL.md", "the skill the query describes comes first");
    for (const r of results) assert.match(r.uri, /^skill:\/\/.+\/SKILL\.md$/);
  });
}

test("without --fallback nothing is offered: no tools, no prompts, -32601", async () => {
  for (const [sdk, era] of [
    ["v1", "legacy"],
    ["v2", "modern"],
  ]) {
    await withClient(sdk, era, [], async (client) => {
      const caps = client.getServerCapabilities();
      assert.equal(caps.tools, undefined);
      assert.equal(caps.prompts, undefined);
      assert.doesNotMatch(client.getInstructions() ?? "", /list_skills/);
      await assertNotOffered(client, "tools");
      await assertNotOffered(client, "prompts");
    });
  }
});

test("a bad --fallback value stops the command with a message naming the flag", async () => {
  const res = await promisify(execFile)(BIN, ["stdio", "--fallback", "all"]).catch((e) => e);
  assert.equal(res.code, 2);
  assert.match(res.stderr, /option --fallback = "all" is invalid \(unknown item "all"\): use `none`, or a comma-separated set of `tools`, `prompts` and `search`/);
});
