// SkillsServer: the embedded catalog served in-page, on both protocol eras, from every entry
// point of the package (ESM import, CommonJS require, the web build initialised by hand).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { SkillsServer, SkillHost, verifySkillMd, errorCodes } from "skills-edge";
import { META, call, listAll, read, refused, server } from "./common.mjs";

const require = createRequire(import.meta.url);

test("server/discover declares the skills extension and the cache hints", () => {
  const s = new SkillsServer({ ttlMs: 1234, cacheScope: "private", instructions: "Use the skills." });
  const r = call(s, "server/discover");
  assert.equal(r.resultType, "complete");
  assert.deepEqual(r.supportedVersions, ["2026-07-28"]);
  assert.deepEqual(r.capabilities.extensions["io.modelcontextprotocol/skills"], { directoryRead: true });
  assert.equal(r.ttlMs, 1234);
  assert.equal(r.cacheScope, "private");
  assert.equal(r.instructions, "Use the skills.");
  assert.equal(call(new SkillsServer({ instructions: "" }), "server/discover").instructions, undefined);
  assert.match(call(new SkillsServer(), "server/discover").instructions, /skill:\/\//);
});

test("skills/list pages by pageSize and every entry is complete", () => {
  const s = server();
  const first = call(s, "skills/list");
  assert.equal(first.skills.length, 2);
  assert.equal(typeof first.nextCursor, "string");
  const all = listAll(s);
  assert.ok(all.length >= 5);
  assert.equal(new Set(all.map((e) => e.uri)).size, all.length);
  const one = listAll(new SkillsServer({ pageSize: 1000 }));
  assert.deepEqual(one, all);
  for (const e of all) {
    const got = call(s, "skills/get", { uri: e.uri });
    assert.deepEqual(got.skill, e);
    const md = verifySkillMd(e, read(s, e.uri));
    assert.equal(md.frontmatter.name, e.frontmatter.name);
  }
});

test("handle takes a string or an object; notifications get undefined", () => {
  const s = server();
  const asText = s.handle(JSON.stringify({ jsonrpc: "2.0", id: "a", method: "skills/list", params: { _meta: META } }));
  const asObject = s.handle({ jsonrpc: "2.0", id: "a", method: "skills/list", params: { _meta: META } });
  assert.deepEqual(asText, asObject);
  assert.equal(s.handle({ jsonrpc: "2.0", method: "notifications/initialized" }), undefined);
  assert.equal(s.handleText('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}'), undefined);
  const parseError = s.handle("{not json");
  assert.equal(parseError.error.code, -32700);
  const unknown = s.handle({ jsonrpc: "2.0", id: 7, method: "tools/list", params: { _meta: META } });
  assert.equal(unknown.id, 7);
  assert.equal(unknown.error.code, -32601);
  const missing = s.handle({ jsonrpc: "2.0", id: 8, method: "skills/get", params: { uri: "skill://nope/SKILL.md", _meta: META } });
  assert.equal(missing.error.code, -32602);
  refused(() => s.handle({ jsonrpc: "2.0", id: 1n, method: "x" }), "invalid-argument");
});

test("the legacy era (2025-11-25 initialize) is served on the same object", () => {
  const s = server();
  const init = s.handle({
    jsonrpc: "2.0", id: 0, method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  });
  assert.equal(init.result.protocolVersion, "2025-11-25");
  assert.ok(init.result.capabilities.extensions["io.modelcontextprotocol/skills"]);
  const list = s.handle({ jsonrpc: "2.0", id: 1, method: "skills/list", params: {} });
  assert.equal(list.result.resultType, undefined);
  assert.equal(list.result.ttlMs, undefined);
  assert.ok(list.result.skills.length > 0);
});

test("options are checked", () => {
  for (const bad of [{ pageSize: 0 }, { pageSize: 1001 }, { pageSize: 1.5 }, { ttlMs: -1 }, { cacheScope: "shared" }, { pagesize: 5 }, { instructions: 5 }]) {
    refused(() => new SkillsServer(bad), "invalid-argument");
  }
  refused(() => new SkillsServer("x"), "invalid-argument");
  assert.ok(new SkillsServer(undefined));
  assert.ok(new SkillsServer(null));
});

test("CommonJS require and the web build initialised by hand give the same package", async () => {
  const cjs = require("skills-edge");
  assert.equal(typeof cjs.SkillsServer, "function");
  assert.deepEqual(cjs.errorCodes(), errorCodes());
  const web = await import("skills-edge/web");
  const wasm = readFileSync(require.resolve("skills-edge/skills_edge_bg.wasm"));
  web.initSync({ module: wasm });
  const entries = listAll(new web.SkillsServer({ pageSize: 3 }));
  assert.deepEqual(entries, listAll(server()));
  const host = new web.SkillHost();
  host.addServer("web");
  assert.equal(host.registerListing("web", entries).registered.length, entries.length);
  assert.ok(new SkillHost());
  assert.equal(require("skills-edge/package.json").name, "skills-edge");
});
