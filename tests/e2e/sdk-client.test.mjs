// The official TypeScript SDK client (@modelcontextprotocol/sdk) over its Streamable HTTP
// transport against the Worker on real workerd: connect (2025-11-25 `initialize`, no
// session), list resources, walk skills/list, fetch each entry with skills/get, and read every
// file of every skill, checking its size and SHA-256 against the entry (node:crypto).
// The Worker runs with PAGE_SIZE=3 so every list is followed through its cursors.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { contentBytes } from "./lib/mcp.mjs";
import { startWorker } from "./lib/worker.mjs";

const SKILLS = "io.modelcontextprotocol/skills";
let worker;
let client;
let transport;

before(async () => {
  worker = await startWorker({ vars: { PAGE_SIZE: "3" } });
  client = new Client({ name: "skills-edge-e2e", version: "1.0.0" });
  transport = new StreamableHTTPClientTransport(new URL(worker.url));
  await client.connect(transport);
});

after(async () => {
  await client?.close().catch(() => {});
  await worker?.stop();
});

/** Follows `nextCursor` through every page of `fetchPage(cursor)`, collecting `key`. */
async function all(fetchPage, key) {
  const items = [];
  let cursor;
  let pages = 0;
  do {
    const page = await fetchPage(cursor);
    assert.ok(Array.isArray(page[key]), `${key} is an array`);
    items.push(...page[key]);
    cursor = page.nextCursor;
    assert.ok(++pages <= 100, "pagination terminates");
  } while (cursor);
  return { items, pages };
}

const rpc = (method, params) => client.request({ method, params }, ResultSchema);

test("connects statelessly and declares the Skills extension", () => {
  assert.equal(transport.sessionId, undefined, "no session id is minted");
  assert.equal(client.getServerVersion()?.name, "skills-edge");
  const caps = client.getServerCapabilities();
  assert.ok(caps.resources, "resources capability");
  assert.deepEqual(caps.extensions?.[SKILLS], { directoryRead: true });
});

test("lists resources, lists and gets skills, and reads every file with matching size and digest", async () => {
  const resources = await all((cursor) => client.listResources(cursor ? { cursor } : {}), "resources");
  const skills = await all((cursor) => rpc("skills/list", cursor ? { cursor } : {}), "skills");
  assert.ok(skills.items.length >= 2, "the embedded catalog has skills");
  assert.ok(skills.pages >= 2, "skills/list was paginated");
  assert.ok(resources.pages >= 2, "resources/list was paginated");

  const listed = new Set(resources.items.map((r) => r.uri));
  let text = 0;
  let binary = 0;
  let bytes = 0;
  for (const entry of skills.items) {
    assert.match(entry.uri, /^skill:\/\/.+\/SKILL\.md$/);
    assert.ok(listed.has(entry.uri), `${entry.uri} is in resources/list`);
    const got = await rpc("skills/get", { uri: entry.uri });
    assert.deepEqual(got.skill, entry, `skills/get ${entry.uri} equals its skills/list entry`);
    assert.ok(Array.isArray(entry.resources) && entry.resources.length > 0);
    assert.ok(entry.resources.some((r) => r.uri === entry.uri), "the entry lists its SKILL.md");
    for (const file of entry.resources) {
      const read = await client.readResource({ uri: file.uri });
      assert.equal(read.contents.length, 1, file.uri);
      const [content] = read.contents;
      assert.equal(content.uri, file.uri);
      const { data, text: isText } = contentBytes(content);
      if (isText) text++;
      else binary++;
      assert.equal(data.length, file.size, `size of ${file.uri}`);
      const digest = `sha256:${createHash("sha256").update(data).digest("hex")}`;
      assert.equal(digest, file.digest, `digest of ${file.uri}`);
      bytes += data.length;
    }
  }
  assert.ok(text > 0, "text files were read");
  assert.ok(binary > 0, "binary files were read");
  console.log(`read ${text} text and ${binary} binary files (${bytes} bytes) of ${skills.items.length} skills`);
});

test("an unknown skill is -32602 through the SDK", async () => {
  await assert.rejects(rpc("skills/get", { uri: "skill://no-such-skill/SKILL.md" }), (err) => {
    assert.equal(err.code, -32602);
    return true;
  });
});
