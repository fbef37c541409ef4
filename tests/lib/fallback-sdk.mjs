// The tools and prompts fallback through the official MCP SDK clients: v1
// (@modelcontextprotocol/sdk, 2025-11-25 initialize) and v2 (@modelcontextprotocol/client, either
// era). `exercise` lists and calls every tool on every skill and file and gets every prompt,
// checking each file's bytes, size and SHA-256 against resources/read and skills/list through
// the same client. Shared by the stdio, Worker and in-page tests; the in-page test imports this
// file from the repository, so the SDKs resolve from the repository's node_modules.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport as InMemoryV1 } from "@modelcontextprotocol/sdk/inMemory.js";
import { ResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV2, InMemoryTransport as InMemoryV2 } from "@modelcontextprotocol/client";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";

export const MODERN = "2026-07-28";
export const LEGACY = "2025-11-25";
const SKILLS = "io.modelcontextprotocol/skills";
const info = { name: "skills-edge-fallback-test", version: "0.0.0" };

export const sha256 = (bytes) => "sha256:" + createHash("sha256").update(bytes).digest("hex");

/** A v1 client (it always speaks 2025-11-25). */
export function clientV1() {
  return new ClientV1(info);
}

/** A v2 client: `modern` pins 2026-07-28 (server/discover), `legacy` uses initialize. */
export function clientV2(era) {
  return new ClientV2(info, era === "modern" ? { versionNegotiation: { mode: { pin: MODERN } } } : {});
}

/**
 * A client transport wired to an in-page `SkillsServer` (`server.handleText`), for `sdk`
 * "v1" or "v2": the SDK's own in-memory transport pair, the server side answering each
 * message with the server's reply.
 */
export function inPage(server, sdk) {
  const [client, side] = (sdk === "v1" ? InMemoryV1 : InMemoryV2).createLinkedPair();
  side.onmessage = (message) => {
    const reply = server.handleText(JSON.stringify(message));
    if (reply !== undefined) side.send(JSON.parse(reply));
  };
  side.start();
  return client;
}

/**
 * `tools` or `prompts` is not offered: v1 asks and gets -32601; v2 does not ask a server that
 * did not declare the capability and returns an empty list.
 */
export async function assertNotOffered(client, what) {
  const list = () => (what === "tools" ? client.listTools() : client.listPrompts());
  if (client instanceof ClientV2) assert.deepEqual((await list())[what], []);
  else await assert.rejects(list(), (e) => e.code === -32601);
}

/** The raw bytes of a resources/read item, an embedded resource or a text block. */
function bytesOf(item) {
  if (typeof item.text === "string") return Buffer.from(item.text, "utf8");
  if (typeof item.blob === "string") return Buffer.from(item.blob, "base64");
  throw new Error(`neither text nor blob: ${JSON.stringify(item).slice(0, 200)}`);
}

/** Every entry of skills/list, following nextCursor (v2: through its SkillsClient). */
async function entries(client) {
  if (client instanceof ClientV2) return (await new SkillsClient(client).list()).skills;
  const out = [];
  let cursor;
  do {
    const page = await client.request({ method: "skills/list", params: cursor ? { cursor } : {} }, ResultSchema);
    out.push(...page.skills);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

/**
 * Lists and calls every tool and gets every prompt through `client` (connected), checking the
 * bytes of every file against resources/read and the manifest of skills/list. `tools` and
 * `prompts` say which halves the server offers (the others must be absent). Returns counts.
 */
export async function exercise(client, { tools = true, prompts = true, label = "" } = {}) {
  const caps = client.getServerCapabilities();
  assert.equal(Boolean(caps.tools), tools, `${label}: tools capability`);
  assert.equal(Boolean(caps.prompts), prompts, `${label}: prompts capability`);
  assert.deepEqual(caps.extensions?.[SKILLS], { directoryRead: true }, `${label}: the extension is still declared`);
  const instructions = client.getInstructions?.() ?? "";
  if (tools) assert.match(instructions.slice(0, 2048), /read_skill_resource/, `${label}: instructions`);
  if (prompts) assert.match(instructions.slice(0, 2048), /Prompts: one per skill/, `${label}: instructions`);

  const all = await entries(client);
  assert.ok(all.length >= 5, `${label}: skills/list`);
  const reads = new Map();
  const read = async (uri) => {
    if (!reads.has(uri)) {
      const r = await client.readResource({ uri });
      assert.equal(r.contents.length, 1);
      reads.set(uri, r.contents[0]);
    }
    return reads.get(uri);
  };
  const n = { tools: 0, calls: 0, files: 0, blobs: 0, prompts: 0 };

  if (tools) {
    const listed = await client.listTools();
    assert.deepEqual(listed.tools.map((t) => t.name), ["list_skills", "read_skill", "read_skill_resource", "search_skills"]);
    n.tools = listed.tools.length;
    for (const t of listed.tools) assert.match(t.description, /not part of that extension/);

    const ls = await client.callTool({ name: "list_skills", arguments: {} });
    n.calls++;
    assert.equal(ls.isError, false);
    assert.deepEqual(
      ls.structuredContent.skills.map((s) => [s.uri, s.name, s.description]),
      all.map((e) => [e.uri, e.frontmatter.name, e.frontmatter.description]),
      `${label}: list_skills names every skill`,
    );
    assert.deepEqual(JSON.parse(ls.content[0].text), ls.structuredContent);

    for (const e of all) {
      const byName = await client.callTool({ name: "read_skill", arguments: { name: e.frontmatter.name } });
      const byUri = await client.callTool({ name: "read_skill", arguments: { uri: e.uri } });
      n.calls += 2;
      assert.deepEqual(byName, byUri, `${label}: read_skill by name and by uri`);
      assert.equal(byName.isError, false);
      const md = bytesOf(byName.content[0]);
      assert.deepEqual(md, bytesOf(await read(e.uri)), `${label}: ${e.uri} equals resources/read`);
      assert.equal(md.length, e.resources[0].size);
      assert.equal(sha256(md), e.resources[0].digest);
      assert.equal(byName.structuredContent.digest, e.resources[0].digest);
      assert.deepEqual(
        byName.structuredContent.files.map((f) => f.uri),
        e.resources.slice(1).map((r) => r.uri),
        `${label}: read_skill lists the skill's other files`,
      );
      const root = e.uri.slice(0, -"SKILL.md".length);
      for (const m of e.resources) {
        const viaUri = await client.callTool({ name: "read_skill_resource", arguments: { uri: m.uri } });
        const viaPath = await client.callTool({
          name: "read_skill_resource",
          arguments: { skill: e.frontmatter.name, path: m.uri.slice(root.length) },
        });
        n.calls += 2;
        assert.equal(viaPath.isError, false, `${label}: ${m.uri}`);
        assert.deepEqual(viaUri.content[0], viaPath.content[0]);
        const item = await read(m.uri);
        const block = viaPath.content[0];
        if (typeof item.text === "string") {
          assert.equal(block.type, "text");
        } else {
          assert.equal(block.type, "resource");
          assert.deepEqual(block.resource, item, `${label}: the embedded resource is the resources/read item`);
          n.blobs++;
        }
        const bytes = bytesOf(block.type === "text" ? block : block.resource);
        assert.deepEqual(bytes, bytesOf(item), `${label}: ${m.uri} equals resources/read`);
        assert.equal(bytes.length, m.size, `${label}: size of ${m.uri}`);
        assert.equal(sha256(bytes), m.digest, `${label}: digest of ${m.uri}`);
        const s = viaPath.structuredContent;
        assert.deepEqual([s.uri, s.skill, s.size, s.digest, s.mimeType], [m.uri, e.uri, m.size, m.digest, item.mimeType]);
        n.files++;
      }
    }
    // search_skills (docs/search.md): the SDK client checks structuredContent against the
    // tool's outputSchema; each skill is found by its own description, and every result is a
    // skill of skills/list, fetched through the extension like any other.
    const uris = new Set(all.map((e) => e.uri));
    for (const e of all) {
      const found = await client.callTool({ name: "search_skills", arguments: { query: e.frontmatter.description.slice(0, 500), limit: 50 } });
      n.calls++;
      assert.equal(found.isError, false, `${label}: search_skills for ${e.uri}`);
      assert.deepEqual(JSON.parse(found.content[0].text), found.structuredContent);
      const results = found.structuredContent.results;
      assert.ok(results.some((r) => r.uri === e.uri), `${label}: search_skills finds ${e.uri} by its description`);
      for (const r of results) assert.ok(uris.has(r.uri), `${label}: ${r.uri} is a skill of skills/list`);
      for (let k = 1; k < results.length; k++) assert.ok(results[k - 1].score >= results[k].score, `${label}: best first`);
    }
    const badLimit = await client.callTool({ name: "search_skills", arguments: { query: "skill", limit: 0 } });
    assert.equal(badLimit.isError, true);
    assert.match(badLimit.content[0].text, /`limit` must be an integer from 1 to 50/);
    // Tool errors are results, not protocol errors.
    const missing = await client.callTool({ name: "read_skill", arguments: { name: "no-such-skill" } });
    assert.equal(missing.isError, true);
    assert.match(missing.content[0].text, /no skill is named "no-such-skill"/);
    const traversal = await client.callTool({
      name: "read_skill_resource",
      arguments: { skill: all[0].frontmatter.name, path: "../x" },
    });
    assert.equal(traversal.isError, true);
    await assert.rejects(client.callTool({ name: "test_simple_text", arguments: {} }), (e) => e.code === -32602);
  } else {
    await assertNotOffered(client, "tools");
  }

  if (prompts) {
    const listed = await client.listPrompts();
    assert.equal(listed.prompts.length, all.length, `${label}: one prompt per skill`);
    for (const p of listed.prompts) {
      const e = all.find((x) => x.frontmatter.name === p.name);
      assert.ok(e, `${label}: prompt ${p.name} is named after its skill`);
      assert.equal(p.description, e.frontmatter.description);
      const got = await client.getPrompt({ name: p.name });
      n.prompts++;
      assert.equal(got.description, e.frontmatter.description);
      assert.equal(got.messages.length, e.resources.length);
      const [first, ...links] = got.messages;
      assert.equal(first.role, "user");
      assert.equal(first.content.type, "resource");
      assert.deepEqual(first.content.resource, await read(e.uri), `${label}: the prompt embeds the SKILL.md`);
      assert.equal(sha256(bytesOf(first.content.resource)), e.resources[0].digest);
      assert.deepEqual(
        links.map((l) => [l.role, l.content.type, l.content.uri, l.content.size]),
        e.resources.slice(1).map((r) => ["user", "resource_link", r.uri, r.size]),
      );
    }
    await assert.rejects(client.getPrompt({ name: "test_simple_prompt" }), (e) => e.code === -32602);
  } else {
    await assertNotOffered(client, "prompts");
  }
  return n;
}
