// The tools and prompts fallback in-page: `new SkillsServer({ fallback })` driven by the official
// SDK clients v1 (@modelcontextprotocol/sdk, 2025-11-25) and v2 (@modelcontextprotocol/client,
// 2025-11-25 and 2026-07-28) over their in-memory transports, each listing and calling every tool
// on every skill and file and getting every prompt, with the bytes checked against
// resources/read (the repository's tests/lib/fallback-sdk.mjs, which the stdio and Worker tests
// share). The option is read through the settings table (option `fallback`, the text form of
// FALLBACK); a bad value is `invalid-argument`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { SkillsServer } from "skills-edge";
import { REPO, refused } from "./common.mjs";

const sdk = await import(pathToFileURL(join(REPO, "tests", "lib", "fallback-sdk.mjs")).href);

/** A connected SDK client on an in-page server. */
async function connected(server, kind, era) {
  const client = kind === "v1" ? sdk.clientV1() : sdk.clientV2(era);
  await client.connect(sdk.inPage(server, kind));
  return client;
}

for (const [kind, era, version] of [
  ["v1", "legacy", sdk.LEGACY],
  ["v2", "legacy", sdk.LEGACY],
  ["v2", "modern", sdk.MODERN],
]) {
  test(`in-page SkillsServer({ fallback: "tools,prompts" }) through SDK ${kind} (${version})`, async () => {
    const client = await connected(new SkillsServer({ fallback: "tools,prompts", pageSize: 2 }), kind, era);
    try {
      if (kind === "v2") assert.equal(client.getNegotiatedProtocolVersion(), version);
      const n = await sdk.exercise(client, { label: `in-page ${kind} ${version}` });
      assert.ok(n.files >= 19 && n.blobs >= 1 && n.prompts >= 7, JSON.stringify(n));
    } finally {
      await client.close();
    }
  });
}

test("each half on its own, and off by default", async () => {
  for (const [fallback, tools, prompts] of [
    ["tools", true, false],
    ["prompts", false, true],
    [undefined, false, false],
    ["none", false, false],
    ["", false, false],
  ]) {
    const options = fallback === undefined ? {} : { fallback };
    const client = await connected(new SkillsServer(options), "v2", "modern");
    try {
      if (tools || prompts) await sdk.exercise(client, { tools, prompts, label: `fallback ${fallback}` });
      else {
        const caps = client.getServerCapabilities();
        assert.deepEqual([caps.tools, caps.prompts], [undefined, undefined]);
      }
    } finally {
      await client.close();
    }
  }
  // Off, the methods are -32601 on the wire.
  const off = new SkillsServer();
  const reply = off.handle({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: {
    "io.modelcontextprotocol/protocolVersion": sdk.MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
  } } });
  assert.equal(reply.error.code, -32601);
});

test("a bad fallback value is invalid-argument, in the settings table's words", () => {
  const e = refused(() => new SkillsServer({ fallback: "everything" }), "invalid-argument");
  assert.match(e.message, /fallback = "everything" is invalid \(unknown item "everything"\): use `none`, or a comma-separated set of `tools`, `prompts` and `search`/);
});
