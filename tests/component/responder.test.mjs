// The `skills` component's responder, transpiled by jco and called through the WIT
// interface `skills-edge:mcp/responder`: the golden vectors of tests/golden_vectors.rs, the
// statuses of the Streamable HTTP rules, and the configuration checks.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { componentPath, remove, scratchDir, transpileAndImport } from "./harness.mjs";

const SKILL_MD =
  "---\nname: code-review\ndescription: Review code using the team's checklist.\n---\n\n# Code review\n\nRead `references/checklist.md`, then review the diff.\n";
const CHECKLIST = "# Review checklist\n\nCheck correctness, tests, and compatibility.\n";
/**
 * The entry the Skills extension notes expect for skill://code-review/SKILL.md, byte for byte, plus
 * this server's revision of the skill in `_meta` (the Agent Skills Discovery RFC's skill-level digest).
 */
const ENTRY =
  '{"uri":"skill://code-review/SKILL.md",' +
  '"frontmatter":{"name":"code-review","description":"Review code using the team\'s checklist."},' +
  '"resources":[' +
  '{"uri":"skill://code-review/SKILL.md","digest":"sha256:d2489d6c182e8df9c178563ff9f2eac7998a0c1bb1278c52a7fd5306e4259160","size":149},' +
  '{"uri":"skill://code-review/references/checklist.md","digest":"sha256:dbab2de7bf7db9cc95cb6ce681c3690b26184db39f75b958a0287ca6d9e24e20","size":65}' +
  '],"_meta":{"io.github.skills-edge/revision":"sha256:e970acab7b703b9126893ca0b9c5e3d2b1659e5ab4560c5f96f3e2c3b19eddee"}}';

const MODERN = "2026-07-28";
const META = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientCapabilities": {},
};
const STREAM = { tag: "stream" };
const enc = new TextEncoder();
const dec = new TextDecoder("utf-8", { fatal: true });

let dir;
let Server;

before(async () => {
  dir = scratchDir("responder");
  const m = await transpileAndImport(componentPath("skills-edge"), dir, "skills-edge");
  ({ Server } = m.responder);
});

after(() => remove(dir));

/** A request in the 2026-07-28 era (`modern`) or the 2025-11-25 era. */
function request(modern, id, method, params = {}) {
  return { jsonrpc: "2.0", id, method, params: modern ? { ...params, _meta: META } : params };
}

function call(server, message, transport = STREAM) {
  const bytes = typeof message === "string" ? enc.encode(message) : enc.encode(JSON.stringify(message));
  const reply = server.respond(bytes, transport);
  return { status: reply.status, text: reply.body === undefined ? undefined : dec.decode(reply.body) };
}

test("skills/get serves the exact golden entry in both eras", () => {
  const server = Server.create({});
  for (const modern of [true, false]) {
    const { status, text } = call(server, request(modern, "get-1", "skills/get", { uri: "skill://code-review/SKILL.md" }));
    assert.equal(status, 200);
    assert.ok(text.startsWith(`{"jsonrpc":"2.0","id":"get-1","result":{`), text);
    assert.ok(text.includes(`"skill":${ENTRY}`), `entry bytes differ (${modern ? "modern" : "legacy"}): ${text}`);
    const result = JSON.parse(text).result;
    assert.deepEqual(result.skill, JSON.parse(ENTRY));
    if (modern) {
      assert.equal(result.resultType, "complete");
      assert.equal(result.ttlMs, 300000);
      assert.equal(result.cacheScope, "public");
    } else {
      assert.equal(result.resultType, undefined);
    }
  }
});

test("resources/read serves the golden bytes", () => {
  const server = Server.create({});
  for (const modern of [true, false]) {
    for (const [uri, body] of [
      ["skill://code-review/SKILL.md", SKILL_MD],
      ["skill://code-review/references/checklist.md", CHECKLIST],
    ]) {
      const { status, text } = call(server, request(modern, 1, "resources/read", { uri }));
      assert.equal(status, 200);
      const contents = JSON.parse(text).result.contents;
      assert.equal(contents.length, 1);
      assert.deepEqual(
        { uri: contents[0].uri, mimeType: contents[0].mimeType, text: contents[0].text },
        { uri, mimeType: "text/markdown", text: body },
      );
    }
  }
  assert.equal(enc.encode(SKILL_MD).length, 149);
  assert.equal(enc.encode(CHECKLIST).length, 65);
});

test("skills/list pages carry the golden entry exactly once on every page size", () => {
  for (const pageSize of [1, 2, 50]) {
    const server = Server.create({ pageSize });
    for (const modern of [true, false]) {
      let found = 0;
      let cursor;
      for (let pages = 0; ; pages++) {
        assert.ok(pages < 100, "paging terminates");
        const { status, text } = call(server, request(modern, 7, "skills/list", cursor ? { cursor } : {}));
        assert.equal(status, 200);
        const result = JSON.parse(text).result;
        assert.ok(result.skills.length <= pageSize);
        for (const entry of result.skills) {
          if (entry.uri === "skill://code-review/SKILL.md") {
            assert.ok(text.includes(ENTRY));
            found++;
          }
        }
        if (result.nextCursor === undefined) break;
        cursor = result.nextCursor;
      }
      assert.equal(found, 1, `page size ${pageSize}`);
    }
  }
});

test("server/discover declares the Skills extension with directoryRead", () => {
  const server = Server.create({ ttlMs: 5n, cacheScope: "private", instructions: "" });
  const { status, text } = call(server, request(true, 1, "server/discover"));
  assert.equal(status, 200);
  const result = JSON.parse(text).result;
  assert.deepEqual(result.supportedVersions, [MODERN]);
  assert.deepEqual(result.capabilities.extensions["io.modelcontextprotocol/skills"], { directoryRead: true });
  assert.equal(result.ttlMs, 5);
  assert.equal(result.cacheScope, "private");
  assert.equal(result.instructions, undefined, "the empty string sends no instructions");
  assert.deepEqual(result._meta["io.modelcontextprotocol/serverInfo"].name, "skills-edge");
});

test("errors: parse error, unknown method, unknown skill; notifications get no body", () => {
  const server = Server.create({});
  let r = call(server, "{not json");
  assert.equal(r.status, 400);
  assert.equal(JSON.parse(r.text).error.code, -32700);
  assert.equal(JSON.parse(r.text).id, undefined, "no id when it cannot be read");

  r = call(server, request(true, 2, "tools/list"));
  assert.equal(r.status, 404);
  assert.deepEqual([JSON.parse(r.text).id, JSON.parse(r.text).error.code], [2, -32601]);

  r = call(server, request(true, 3, "skills/get", { uri: "skill://no-such-skill/SKILL.md" }));
  assert.equal(JSON.parse(r.text).error.code, -32602);

  r = call(server, { jsonrpc: "2.0", method: "notifications/initialized" });
  assert.deepEqual(r, { status: 202, text: undefined });
});

test("the http transport checks the mirrored headers", () => {
  const server = Server.create({});
  const msg = request(true, 4, "resources/read", { uri: "skill://code-review/SKILL.md" });
  const headers = { protocolVersion: MODERN, method: "resources/read", name: "skill://code-review/SKILL.md" };
  let r = call(server, msg, { tag: "http", val: headers });
  assert.equal(r.status, 200);
  assert.equal(JSON.parse(r.text).result.contents[0].text, SKILL_MD);

  // Mcp-Name in the base64 form decodes to the same URI.
  const b64 = Buffer.from("skill://code-review/SKILL.md").toString("base64");
  r = call(server, msg, { tag: "http", val: { ...headers, name: `=?base64?${b64}?=` } });
  assert.equal(r.status, 200);

  for (const bad of [{ ...headers, name: "skill://other/SKILL.md" }, { ...headers, method: "skills/get" }, { method: "resources/read" }]) {
    r = call(server, msg, { tag: "http", val: bad });
    assert.equal(r.status, 400, JSON.stringify(bad));
    assert.equal(JSON.parse(r.text).error.code, -32020);
  }
});

test("create refuses settings out of range, naming the setting", () => {
  for (const [config, words] of [
    [{ pageSize: 0 }, 'config field page-size = "0" is invalid (out of range)'],
    [{ pageSize: 1001 }, 'config field page-size = "1001" is invalid (out of range)'],
    [{ ttlMs: 2n ** 53n }, 'config field ttl-ms = "9007199254740992" is invalid (out of range)'],
  ]) {
    assert.throws(
      () => Server.create(config),
      (e) => String(e.payload ?? e.message).includes(words),
      JSON.stringify(config, (_, v) => (typeof v === "bigint" ? String(v) : v)),
    );
  }
});

test("the fallback record field turns on tools and prompts; left out, nothing changes", () => {
  const off = Server.create({});
  let r = call(off, request(true, 1, "server/discover"));
  let caps = JSON.parse(r.text).result.capabilities;
  assert.equal(caps.tools, undefined);
  assert.equal(caps.prompts, undefined);
  assert.equal(call(Server.create({ fallback: { tools: false, prompts: false } }), request(true, 2, "tools/list")).status, 404);

  const on = Server.create({ fallback: { tools: true, prompts: true } });
  r = call(on, request(true, 3, "server/discover"));
  const result = JSON.parse(r.text).result;
  assert.deepEqual([result.capabilities.tools, result.capabilities.prompts], [{}, {}]);
  assert.match(result.instructions, /^For clients without the io\.modelcontextprotocol\/skills extension/);
  r = call(on, request(true, 4, "tools/list"));
  // The catalog carries a search index, so the tools include search_skills (as the Worker's).
  assert.deepEqual(JSON.parse(r.text).result.tools.map((t) => t.name), ["list_skills", "read_skill", "read_skill_resource", "search_skills"]);
  r = call(on, request(true, 40, "tools/call", { name: "search_skills", arguments: { query: "code review checklist", limit: 3 } }));
  const found = JSON.parse(r.text).result;
  assert.equal(found.isError, false, r.text);
  assert.equal(found.structuredContent.results[0].uri, "skill://code-review/SKILL.md", r.text);
  r = call(on, request(true, 5, "tools/call", { name: "read_skill", arguments: { name: "code-review" } }));
  const read = JSON.parse(r.text).result;
  assert.equal(read.isError, false);
  assert.equal(read.content[0].text, SKILL_MD);
  r = call(on, request(true, 6, "tools/call", { name: "read_skill_resource", arguments: { skill: "code-review", path: "references/checklist.md" } }));
  assert.equal(JSON.parse(r.text).result.content[0].text, CHECKLIST);
  r = call(on, request(false, 7, "prompts/get", { name: "code-review" }));
  const prompt = JSON.parse(r.text).result;
  assert.equal(prompt.messages[0].content.resource.text, SKILL_MD);
  assert.equal(prompt.messages[1].content.uri, "skill://code-review/references/checklist.md");
  // Over HTTP, Mcp-Name mirrors the tool's name.
  const msg = request(true, 8, "tools/call", { name: "list_skills" });
  r = call(on, msg, { tag: "http", val: { protocolVersion: MODERN, method: "tools/call" } });
  assert.deepEqual([r.status, JSON.parse(r.text).error.code], [400, -32020]);
  r = call(on, msg, { tag: "http", val: { protocolVersion: MODERN, method: "tools/call", name: "list_skills" } });
  assert.equal(r.status, 200);

  const tools = Server.create({ fallback: { tools: true } });
  caps = JSON.parse(call(tools, request(true, 9, "server/discover")).text).result.capabilities;
  assert.deepEqual([caps.tools, caps.prompts], [{}, undefined]);
  assert.equal(call(tools, request(true, 10, "prompts/list")).status, 404);
});

test("respond-as answers with the caller's scopes; without access rules every caller is anonymous", () => {
  // The embedded catalog has no [[access]] rules: any scopes see what an anonymous caller sees,
  // byte for byte (the binding crate's unit test walks a catalog with a private skill).
  const server = Server.create({});
  for (const message of [
    request(true, 1, "skills/list"),
    request(true, 2, "skills/get", { uri: "skill://code-review/SKILL.md" }),
    request(true, 3, "skills/get", { uri: "skill://no-such/SKILL.md" }),
  ]) {
    const bytes = enc.encode(JSON.stringify(message));
    const anonymous = server.respond(bytes, STREAM);
    for (const scopes of [[], ["billing"], ["billing", "not a scope token"]]) {
      const reply = server.respondAs(bytes, STREAM, scopes);
      assert.equal(reply.status, anonymous.status);
      assert.equal(dec.decode(reply.body), dec.decode(anonymous.body), JSON.stringify(scopes));
    }
  }
});
