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

test("handleHttp applies the MCP header rules and gives each reply its HTTP status", () => {
  const s = new SkillsServer();
  const uri = "skill://code-review/SKILL.md";
  const msg = (method, params = {}, id = 1) => JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: META } });
  const headers = (method, name) => ({ "mcp-protocol-version": "2026-07-28", "mcp-method": method, "mcp-name": name });
  const code = (r) => JSON.parse(r.body).error?.code;

  const ok = s.handleHttp(msg("resources/read", { uri }), headers("resources/read", uri));
  assert.equal(ok.status, 200);
  assert.equal(JSON.parse(ok.body).result.contents[0].uri, uri);
  // A platform Headers object works the same (case-insensitive names).
  const platform = new Headers({ "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "resources/read", "Mcp-Name": `=?base64?${Buffer.from(uri).toString("base64")}?=` });
  assert.equal(s.handleHttp(msg("resources/read", { uri }), platform).status, 200, "Headers, base64 Mcp-Name");

  const cases = [
    ["Mcp-Name differs", msg("resources/read", { uri }), headers("resources/read", "skill://x/SKILL.md"), 400, -32020],
    ["Mcp-Method differs", msg("skills/list"), headers("resources/read"), 400, -32020],
    ["no MCP-Protocol-Version", msg("skills/list"), { "mcp-method": "skills/list" }, 400, -32020],
    ["unsupported version", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "skills/list", params: { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "2099-01-01" } } }), { ...headers("skills/list"), "mcp-protocol-version": "2099-01-01" }, 400, -32022],
    ["a 2026-07-28 header without _meta", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "skills/list", params: {} }), headers("skills/list"), 400, -32602],
    ["unknown method", msg("no/such"), headers("no/such"), 404, -32601],
    ["parse error", "{", {}, 400, -32700],
    ["unknown skill", msg("skills/get", { uri: "skill://none/SKILL.md" }), headers("skills/get"), 200, -32602],
  ];
  for (const [label, body, h, status, rpc] of cases) {
    const r = s.handleHttp(body, h);
    assert.deepEqual([r.status, code(r)], [status, rpc], label);
  }
  const note = s.handleHttp(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  assert.deepEqual(note, { status: 202 }, "a notification: 202, no body");
  // Legacy clients send no _meta and a 2025 header (or none).
  const legacy = s.handleHttp(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "skills/list" }), { "mcp-protocol-version": "2025-11-25" });
  assert.equal(legacy.status, 200);
  refused(() => s.handleHttp("{}", 42), "invalid-argument");
  refused(() => s.handleHttp("{}", { "mcp-method": 7 }), "invalid-argument");
});

test("a 50 MB message to handleHttp is refused with 413 before it is processed", () => {
  const TOO_LARGE = '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Content Too Large: a message may have at most 1048576 bytes"}}';
  const headers = { "mcp-protocol-version": "2026-07-28", "mcp-method": "skills/list" };
  // A well-formed skills/list, padded to 50 MB: answered 200 if it were read.
  const padded = (bytes, pad = "x") => {
    const head = `{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{"_meta":${JSON.stringify(META)},"pad":"`;
    return head + pad.repeat(Math.ceil((bytes - head.length - 3) / Buffer.byteLength(pad))) + '"}}';
  };
  const s = new SkillsServer();
  const huge = padded(50 * 1024 * 1024);
  assert.deepEqual(s.handleHttp(huge, headers, { scopes: "a" }), { status: 413, body: TOO_LARGE });
  // At the limit it is a message; one byte over, by UTF-8 bytes (not UTF-16 units), it is not.
  const exact = padded(1 << 20);
  assert.equal(Buffer.byteLength(exact), 1 << 20);
  assert.equal(s.handleHttp(exact, headers).status, 200);
  const overByBytes = padded((1 << 20) + 2, "é");
  assert.ok(overByBytes.length <= 1 << 20 && Buffer.byteLength(overByBytes) > 1 << 20);
  assert.deepEqual(s.handleHttp(overByBytes, headers), { status: 413, body: TOO_LARGE });
  // maxBodyBytes changes it, as the Worker's MAX_BODY_BYTES, up to 16 MiB.
  const roomy = new SkillsServer({ maxBodyBytes: 16 * 1024 * 1024 });
  assert.equal(roomy.handleHttp(padded(8 * 1024 * 1024), headers).status, 200);
  assert.equal(roomy.handleHttp(huge, headers).status, 413);
  const tight = new SkillsServer({ maxBodyBytes: 256 });
  assert.equal(tight.handleHttp(padded(256), headers).status, 200);
  assert.equal(JSON.parse(tight.handleHttp(padded(257), headers).body).error.message, "Content Too Large: a message may have at most 256 bytes");
  // The server still answers.
  assert.equal(s.handleHttp(padded(1000), headers).status, 200);
});

test("serverInfo names the embedding server in every result", () => {
  const s = new SkillsServer({ serverInfo: { name: "dice-mcp", version: "1.0.0" } });
  const info = { name: "dice-mcp", version: "1.0.0" };
  assert.deepEqual(call(s, "server/discover")._meta["io.modelcontextprotocol/serverInfo"], info);
  assert.deepEqual(call(s, "skills/list")._meta["io.modelcontextprotocol/serverInfo"], info);
  const init = s.handle({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "0" } } });
  assert.deepEqual(init.result.serverInfo, info);
  refused(() => new SkillsServer({ serverInfo: { name: "x" } }), "invalid-argument");
  refused(() => new SkillsServer({ serverInfo: { name: "", version: "1" } }), "invalid-argument");
});
