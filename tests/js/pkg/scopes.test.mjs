// SkillsServer's callers: the scopes the embedding host verified, given per call (`handle`,
// `handleText`, `handleHttp`: `{ scopes }`; `fetch`: `{ scopes, own }`), decide which private
// skills of a catalog with `[[access]]` rules a caller sees, with the Worker's predicate
// (Catalog::grant): a hidden skill is absent (-32602, never listed), the right scope lists and
// reads it, and its answers are cacheScope "private". Wrong-typed scopes are refused.
import { test } from "node:test";
import assert from "node:assert/strict";
import { SkillsServer, compileCatalog } from "skills-edge";
import { META, refused } from "./common.mjs";

const md = (n) => `---\nname: ${n}\ndescription: The ${n} skill, described.\n---\n\n# ${n}\n`;
const RULES = '[[access]]\nskills = ["secret"]\nscopes = ["team"]\n';
const { pack } = compileCatalog([
  { path: "hello/SKILL.md", bytes: md("hello") },
  { path: "secret/SKILL.md", bytes: md("secret") },
  { path: "skills-edge.toml", bytes: RULES },
]);
const server = new SkillsServer({ pack });
const SECRET = "skill://secret/SKILL.md";
const message = (method, params = {}) => ({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: META } });
const headers = (method, name) => ({ "mcp-protocol-version": "2026-07-28", "mcp-method": method, "mcp-name": name });

/** The replies to a list, a skills/get and a resources/read of the private skill, through `ask`. */
function walk(ask) {
  return [
    ask("skills/list", {}),
    ask("skills/get", { uri: SECRET }),
    ask("resources/read", { uri: SECRET }),
  ];
}

const ways = {
  handle: (options) => (m, p) => server.handle(message(m, p), options),
  handleText: (options) => (m, p) => JSON.parse(server.handleText(JSON.stringify(message(m, p)), options)),
  handleHttp: (options) => (m, p) =>
    JSON.parse(server.handleHttp(JSON.stringify(message(m, p)), headers(m, m === "resources/read" ? p.uri : undefined), options).body),
};

test("without the right scope the private skill is absent from every call", () => {
  for (const [name, way] of Object.entries(ways)) {
    for (const options of [undefined, {}, { scopes: [] }, { scopes: "" }, { scopes: ["other"] }, { scopes: null }]) {
      const [list, get, read] = walk(way(options));
      const ctx = `${name} ${JSON.stringify(options)}`;
      assert.deepEqual(list.result.skills.map((s) => s.uri), ["skill://hello/SKILL.md"], ctx);
      assert.equal(list.result.cacheScope, "public", ctx);
      for (const r of [get, read]) {
        assert.equal(r.error?.code, -32602, ctx);
        assert.ok(!JSON.stringify(r).includes("The secret skill"), ctx);
      }
    }
  }
});

test("with the right scope the private skill is listed and readable, and cacheScope is private", () => {
  for (const [name, way] of Object.entries(ways)) {
    for (const scopes of [["team"], ["other", "team"], "team", "other  team"]) {
      const [list, get, read] = walk(way({ scopes }));
      const ctx = `${name} ${JSON.stringify(scopes)}`;
      assert.deepEqual(list.result.skills.map((s) => s.uri), ["skill://hello/SKILL.md", SECRET], ctx);
      assert.equal(get.result.skill.uri, SECRET, ctx);
      assert.match(read.result.contents[0].text, /The secret skill, described\./, ctx);
      for (const r of [list, get, read]) assert.equal(r.result.cacheScope, "private", ctx);
    }
  }
});

test("fetch takes the scopes with the request, for /mcp and the mirror", async () => {
  const post = (m, p) =>
    new Request("http://127.0.0.1:8787/mcp", {
      method: "POST",
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json", ...headers(m, m === "resources/read" ? p.uri : undefined) },
      body: JSON.stringify(message(m, p)),
    });
  const index = () => new Request("http://127.0.0.1:8787/.well-known/agent-skills/index.json");
  const names = async (r) => (await r.json()).skills.map((s) => s.name);
  for (const options of [undefined, {}, { scopes: ["other"] }, () => undefined]) {
    const list = await (await server.fetch(post("skills/list", {}), options)).json();
    assert.deepEqual(list.result.skills.map((s) => s.uri), ["skill://hello/SKILL.md"]);
    const get = await (await server.fetch(post("skills/get", { uri: SECRET }), options)).json();
    assert.equal(get.error?.code, -32602);
    assert.deepEqual(await names(await server.fetch(index(), options)), ["hello"]);
  }
  const team = { scopes: "team" };
  const list = await (await server.fetch(post("skills/list", {}), team)).json();
  assert.deepEqual(list.result.skills.map((s) => s.uri), ["skill://hello/SKILL.md", SECRET]);
  assert.equal(list.result.cacheScope, "private");
  const read = await (await server.fetch(post("resources/read", { uri: SECRET }), team)).json();
  assert.match(read.result.contents[0].text, /The secret skill, described\./);
  const mirror = await server.fetch(index(), team);
  assert.deepEqual((await names(mirror)).sort(), ["hello", "secret"]);
  assert.match(mirror.headers.get("cache-control"), /^private/);
  // `own` still answers its methods next to the scopes.
  const own = (text) => (JSON.parse(text).method === "x/own" ? { status: 200, body: '{"jsonrpc":"2.0","id":1,"result":{}}' } : undefined);
  const mine = await server.fetch(post("x/own", {}), { own, scopes: ["team"] });
  assert.deepEqual(await mine.json(), { jsonrpc: "2.0", id: 1, result: {} });
  const theirs = await (await server.fetch(post("skills/list", {}), { own, scopes: ["team"] })).json();
  assert.equal(theirs.result.skills.length, 2);
});

test("scopes of the wrong type are refused, naming the option and the fix", () => {
  const m = JSON.stringify(message("skills/list"));
  const req = () => new Request("http://127.0.0.1:8787/mcp", { method: "POST", body: m });
  for (const [fn, where] of [
    [(o) => server.handle(m, o), "SkillsServer.handle: options.scopes"],
    [(o) => server.handleText(m, o), "SkillsServer.handleText: options.scopes"],
    [(o) => server.handleHttp(m, {}, o), "SkillsServer.handleHttp: options.scopes"],
    [(o) => server.fetch(req(), o), "SkillsServer.fetch: options.scopes"],
  ]) {
    for (const [scopes, says] of [
      [42, "must be an array of OAuth scope strings"],
      [{ team: true }, "must be an array of OAuth scope strings"],
      [[7], "[0]: must be a string (one scope), got number"],
      [["billing review"], 'holds "billing review", which is not an OAuth scope token'],
      ['team "x"', 'holds "\\"x\\"", which is not an OAuth scope token'],
    ]) {
      const e = refused(() => fn({ scopes }), "invalid-argument");
      assert.ok(e.message.startsWith(where), `${e.message} (expected ${where})`);
      assert.ok(e.message.includes(says), `${e.message} (expected ${says})`);
    }
    const unknown = refused(() => fn({ scope: "team" }), "invalid-argument");
    assert.match(unknown.message, /scope/);
  }
  const e = refused(() => server.fetch(req(), 5), "invalid-argument");
  assert.match(e.message, /^SkillsServer\.fetch: options must be a function \(your own methods\) or an object `\{ own\?, scopes\? \}`, got number/);
});
