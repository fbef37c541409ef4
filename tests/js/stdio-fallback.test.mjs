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
