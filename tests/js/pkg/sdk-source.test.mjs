// `skills-edge/sdk`: packSkillSource, the official TypeScript SDK 2.4's SkillSource over a pack
// that `npx skills-edge pack` wrote, as installed from the tarball.
//
// * Every method against the pack of the repository's skills/ folder, with small pages: list
//   over every page (the responder's entries, `_meta` included), get of every listed skill
//   and of unknown ones, read of every file byte for byte against the folder on disk (text
//   files as `text`, the others as `bytes`, exactly as resources/read decides), readDirectory
//   of every directory over every page (the children on disk), listResources (resources/list).
// * Scopes over tests/fixtures/private-skills (`[[access]]` rules): anonymous, a wrong scope and
//   the right one through `options.scopes(ctx)` from `ctx.http.authInfo`; a hidden skill, file
//   or directory is `undefined` exactly as an unknown one, and never listed.
// * Cursors over tests/fixtures/hidden-views (two folders that differ only in what is hidden):
//   for an anonymous caller, a scope no rule names and `billing`, with pages of 1 and 2, every
//   page of every list through SkillsServer.handle and the source, every cursor presented to
//   every list and forged (each character, each decoded byte): the same answers from both.
// * Refusals: wrong-typed arguments (`invalid-argument`, naming the argument), a pack with
//   assets without `options.assets`, a damaged pack; recommendedCacheHint (private for a
//   catalog with private skills).
// * A pack with assets (compileCatalog's `inlineMax`, as `pack --assets` makes it) and
//   `options.assets`: every file reads as from the pack that holds it; a missing, short,
//   longer, throwing, not-UTF-8 or wrong-typed asset fails the read with -32603 naming the
//   file; the SDK judge walks it on both eras.
// * The source attached to a real SDK 2.4 McpServer with SkillsExtension, judged by the official
//   SDK 2.4 client (tests/judges/sdk.mjs: SkillsClient lists, gets, reads and verifies every
//   file, walks every directory) on both eras over Streamable HTTP on a loopback port
//   (createMcpHandler and @modelcontextprotocol/node's toNodeHandler), with the caller's
//   authInfo scopes on every request.
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { SkillsServer, compileCatalog } from "skills-edge";
import { packSkillSource, recommendedCacheHint } from "skills-edge/sdk";
import { META, REPO } from "./common.mjs";
import { DSSE_META_KEY, SIGNER_META_KEY } from "./signing.mjs";

const run = promisify(execFile);
const fromRepo = createRequire(join(REPO, "package.json"));
const load = (spec) => import(pathToFileURL(fromRepo.resolve(spec)).href);
const { McpServer, createMcpHandler } = await load("@modelcontextprotocol/server");
const { toNodeHandler } = await load("@modelcontextprotocol/node");
const { Client } = await load("@modelcontextprotocol/client");
const { SkillsClient } = await load("@modelcontextprotocol/client/ext/skills");
const { SkillsExtension } = await load("@modelcontextprotocol/server/ext/skills");
const judges = (file) => import(pathToFileURL(join(REPO, "tests", "judges", file)).href);
const { ERAS, httpTransport, judgeSdk } = await judges("sdk.mjs");
const { published } = await judges("folder.mjs");

const SKILLS = join(REPO, "skills");
const PRIVATE = join(REPO, "tests", "fixtures", "private-skills");
const PAGE_SIZE = 2;
const BIN = join(dirname(createRequire(import.meta.url).resolve("skills-edge/package.json")), "bin", "skills-edge.mjs");

/** The pack `npx skills-edge pack DIR` writes (the installed package's command). */
async function packOf(dir) {
  const out = mkdtempSync(join(tmpdir(), "skills-edge-sdk-"));
  try {
    await run(process.execPath, [BIN, "pack", dir, "-o", join(out, "skills.pack")]);
    return new Uint8Array(readFileSync(join(out, "skills.pack")));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** A context as the SDK builds it for a caller whose token carries `scopes` (none: anonymous). */
const ctxOf = (scopes) => (scopes === undefined ? {} : { http: { authInfo: { token: "t", clientId: "c", scopes } } });
const byAuth = { scopes: (ctx) => ctx.http?.authInfo?.scopes };

/** Every item of a paged responder list, through `handle` (the reference the source must equal). */
function listAll(server, method, key, params = {}, scopes) {
  const items = [];
  let cursor;
  do {
    const reply = server.handle(
      { jsonrpc: "2.0", id: 1, method, params: { ...params, ...(cursor === undefined ? {} : { cursor }), _meta: META } },
      { scopes },
    );
    assert.ok(reply.result, `${method}: ${JSON.stringify(reply)}`);
    items.push(...reply.result[key]);
    cursor = reply.result.nextCursor;
  } while (cursor !== undefined);
  return items;
}

/** Every skill through `source.list`, following nextCursor; the page sizes. */
async function listSource(source, ctx) {
  const skills = [];
  const pages = [];
  let cursor;
  do {
    const page = await source.list(cursor === undefined ? {} : { cursor }, ctx);
    pages.push(page.skills.length);
    skills.push(...page.skills);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return { skills, pages };
}

/** Every child of a directory through `source.readDirectory`, over every page. */
async function dirSource(source, uri, ctx) {
  const first = await source.readDirectory(uri, {}, ctx);
  if (first === undefined) return undefined;
  const items = [...first.resources];
  let cursor = first.nextCursor;
  let pages = 1;
  while (cursor !== undefined) {
    const page = await source.readDirectory(uri, { cursor }, ctx);
    items.push(...page.resources);
    cursor = page.nextCursor;
    pages++;
  }
  return { items, pages };
}

/** The path on disk of a `skill://` URI below `root`. */
const diskPath = (root, uri) => join(root, ...uri.slice("skill://".length).split("/").map(decodeURIComponent));

/** Every directory below `root`, as skill:// URIs, with its children's names. */
function diskDirs(root, rel = "", out = new Map()) {
  for (const e of readdirSync(join(root, rel), { withFileTypes: true })) {
    if (rel === "" && e.name === "skills-edge.toml") continue;
    const path = rel === "" ? e.name : `${rel}/${e.name}`;
    if (e.isDirectory()) {
      out.set(`skill://${path}`, readdirSync(join(root, path)).sort());
      diskDirs(root, path, out);
    }
  }
  return out;
}

describe("packSkillSource over the pack of skills/", () => {
  let pack;
  let server;
  let source;
  before(async () => {
    pack = await packOf(SKILLS);
    server = new SkillsServer({ pack, pageSize: PAGE_SIZE });
    source = packSkillSource(pack, { pageSize: PAGE_SIZE });
  });

  test("list walks every page: the responder's entries as compiled, the pack's page size", async () => {
    const { skills, pages } = await listSource(source, {});
    assert.deepEqual(skills, listAll(server, "skills/list", "skills"));
    assert.equal(skills.length, published(SKILLS).skills);
    assert.equal(pages.length, Math.ceil(skills.length / PAGE_SIZE));
    assert.ok(pages.every((n) => n <= PAGE_SIZE));
    await assert.rejects(source.list({ cursor: "not-a-cursor" }, {}), (e) => e.code === -32602 && /cursor/i.test(e.message));
  });

  test("get returns each listed entry and undefined for an unknown skill", async () => {
    const { skills } = await listSource(source, {});
    for (const skill of skills) assert.deepEqual(await source.get(skill.uri, {}), skill);
    for (const uri of ["skill://nope/SKILL.md", "skill://code-review", "skill://code-review/references/checklist.md", "other://x/SKILL.md", ""]) {
      assert.equal(await source.get(uri, {}), undefined, uri);
    }
  });

  test("read returns every file's bytes as on disk: text as text, the others as bytes, with the MIME type", async () => {
    const { skills } = await listSource(source, {});
    let text = 0;
    let binary = 0;
    for (const skill of skills) {
      for (const entry of skill.resources) {
        const got = await source.read(entry.uri, {});
        const disk = readFileSync(diskPath(SKILLS, entry.uri));
        const served = server.handle({ jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: entry.uri, _meta: META } }).result.contents[0];
        assert.equal(got.mimeType, served.mimeType, entry.uri);
        if ("text" in got) {
          text++;
          assert.equal(typeof served.text, "string", `${entry.uri} is a blob in resources/read`);
          assert.equal(got.text, served.text);
          assert.ok(Buffer.from(got.text, "utf8").equals(disk), entry.uri);
        } else {
          binary++;
          assert.equal(typeof served.blob, "string", `${entry.uri} is text in resources/read`);
          assert.ok(got.bytes instanceof Uint8Array);
          assert.ok(Buffer.from(got.bytes).equals(disk), entry.uri);
        }
        assert.equal(Object.keys(got).length, 2);
      }
    }
    assert.ok(text > 0 && binary > 0, `${text} text and ${binary} binary files`);
    for (const uri of ["skill://code-review/nope.md", "skill://code-review", "skill://code-review/references", "skill://acme"]) {
      assert.equal(await source.read(uri, {}), undefined, uri);
    }
  });

  test("readDirectory lists every directory's children over every page; undefined for a file or nothing", async () => {
    const dirs = diskDirs(SKILLS);
    let paged = 0;
    for (const [uri, names] of dirs) {
      const got = await dirSource(source, uri, {});
      assert.ok(got, uri);
      assert.deepEqual(got.items, listAll(server, "resources/directory/read", "resources", { uri }), uri);
      assert.deepEqual(got.items.map((r) => r.name).sort(), names, uri);
      assert.equal(got.pages, Math.max(1, Math.ceil(names.length / PAGE_SIZE)), uri);
      if (got.pages > 1) paged++;
    }
    assert.ok(paged > 0, "some directory takes more than one page");
    for (const uri of ["skill://code-review/SKILL.md", "skill://nope", "skill://"]) {
      assert.equal(await source.readDirectory(uri, {}, {}), undefined, uri);
    }
    await assert.rejects(source.readDirectory("skill://code-review", { cursor: "bad" }, {}), (e) => e.code === -32602);
  });

  test("listResources is what resources/list lists, every page", async () => {
    const got = await source.listResources({});
    assert.deepEqual(got, listAll(server, "resources/list", "resources"));
    assert.equal(got.length, published(SKILLS).skills);
  });

  test("a SkillsServer already made serves the same; recommendedCacheHint is the server's for a public catalog", async () => {
    const over = packSkillSource(server);
    assert.deepEqual((await listSource(over, {})).skills, (await listSource(source, {})).skills);
    assert.deepEqual(recommendedCacheHint(source), { ttlMs: 300000, cacheScope: "public" });
    const own = packSkillSource(new SkillsServer({ pack, ttlMs: 5000, cacheScope: "private" }));
    assert.deepEqual(recommendedCacheHint(own), { ttlMs: 5000, cacheScope: "private" });
    const ab = pack.buffer.slice(pack.byteOffset, pack.byteOffset + pack.byteLength);
    assert.deepEqual((await listSource(packSkillSource(ab), {})).skills.length, published(SKILLS).skills);
  });
});

describe("scopes over tests/fixtures/private-skills", () => {
  let pack;
  let server;
  let source;
  before(async () => {
    pack = await packOf(PRIVATE);
    server = new SkillsServer({ pack, pageSize: PAGE_SIZE });
    source = packSkillSource(pack, { ...byAuth, pageSize: PAGE_SIZE });
  });

  const CALLERS = { anonymous: undefined, "a wrong scope": ["other"], billing: ["billing"], "billing and review": ["review", "billing"] };

  for (const [who, scopes] of Object.entries(CALLERS)) {
    test(`${who}: sees exactly what the responder shows it; everything hidden is undefined, as unknown`, async () => {
      const ctx = ctxOf(scopes);
      const seen = listAll(server, "skills/list", "skills", {}, scopes);
      const all = listAll(server, "skills/list", "skills", {}, ["billing", "review"]);
      assert.deepEqual((await listSource(source, ctx)).skills, seen);
      assert.deepEqual(await source.listResources(ctx), listAll(server, "resources/list", "resources", {}, scopes));
      const hidden = all.filter((s) => !seen.some((v) => v.uri === s.uri));
      if (scopes === undefined || scopes[0] === "other") assert.ok(hidden.length > 0, "some skills are private");
      for (const skill of seen) {
        assert.deepEqual(await source.get(skill.uri, ctx), skill);
        for (const r of skill.resources) {
          const got = await source.read(r.uri, ctx);
          const bytes = "text" in got ? Buffer.from(got.text, "utf8") : Buffer.from(got.bytes);
          assert.ok(bytes.equals(readFileSync(diskPath(PRIVATE, r.uri))), r.uri);
        }
      }
      for (const skill of hidden) {
        assert.equal(await source.get(skill.uri, ctx), undefined, skill.uri);
        for (const r of skill.resources) assert.equal(await source.read(r.uri, ctx), undefined, r.uri);
        const root = skill.uri.replace(/\/SKILL\.md$/, "");
        assert.equal(await source.readDirectory(root, {}, ctx), undefined, root);
      }
      // Directories: each one the caller sees lists what the responder lists for it; the others are undefined.
      for (const uri of diskDirs(PRIVATE).keys()) {
        const got = await dirSource(source, uri, ctx);
        const reply = server.handle({ jsonrpc: "2.0", id: 1, method: "resources/directory/read", params: { uri, _meta: META } }, { scopes });
        if (reply.error) assert.equal(got, undefined, uri);
        else assert.deepEqual(got.items, listAll(server, "resources/directory/read", "resources", { uri }, scopes), uri);
      }
    });
  }

  test("without options.scopes every caller gets the public view, whatever its token carries", async () => {
    const plain = packSkillSource(pack);
    const pub = listAll(server, "skills/list", "skills");
    assert.deepEqual((await listSource(plain, ctxOf(["billing", "review"]))).skills, pub);
  });

  test("recommendedCacheHint is private for a catalog with private skills", () => {
    assert.deepEqual(recommendedCacheHint(source), { ttlMs: 300000, cacheScope: "private" });
  });

  test("scopes(ctx) returning something else is refused, naming it", async () => {
    for (const bad of [42, [1], { scopes: [] }, [["billing"]]]) {
      const s = packSkillSource(pack, { scopes: () => bad });
      await assert.rejects(s.list({}, {}), (e) => e.code === "invalid-argument" && /options\.scopes\(ctx\)/.test(e.message), JSON.stringify(bad));
    }
    const joined = packSkillSource(pack, { scopes: () => ["billing review"] });
    for (const call of [() => joined.list({}, {}), () => joined.read("skill://hello/SKILL.md", {})]) {
      await assert.rejects(call(), (e) => e.code === "invalid-argument" && /^packSkillSource: options\.scopes\(ctx\) returned a list that holds "billing review", which is not an OAuth scope token/.test(e.message));
    }
  });
});

const HIDDEN_VIEWS = join(REPO, "tests", "fixtures", "hidden-views");

/** Cursors forged from `c`: each character changed to two others of the alphabet, each decoded byte changed four ways, truncated, extended, empty. */
function forged(c) {
  const A = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const out = [];
  for (let i = 0; i < c.length; i++) {
    const at = Math.max(0, A.indexOf(c[i]));
    for (const step of [1, 32]) out.push(c.slice(0, i) + A[(at + step) % 64] + c.slice(i + 1));
  }
  const bytes = Buffer.from(c, "base64url");
  for (let i = 0; i < bytes.length; i++) {
    for (const change of [(b) => b ^ 1, (b) => b ^ 0x80, () => 0, () => 0xff]) {
      const b = Buffer.from(bytes);
      b[i] = change(b[i]);
      out.push(b.toString("base64url"));
    }
  }
  out.push(c.slice(0, -1), `${c}A`, "");
  return out;
}

/**
 * What a caller gets from `lists` (each `{ name, ask(cursor) }`, `ask` resolving to a page or throwing): every page of
 * every list; then every cursor issued presented to every list, and forged (`forged`) against its own list.
 */
async function cursorTranscript(lists) {
  const out = [];
  const outcome = async (f) => {
    try {
      return JSON.stringify(await f()) ?? "undefined";
    } catch (e) {
      return JSON.stringify({ thrown: e.name, code: e.code, message: e.message, data: e.data });
    }
  };
  const issued = [];
  for (const list of lists) {
    let cursor;
    for (let n = 0; n < 100; n++) {
      let page;
      out.push(`${list.name} ${await outcome(async () => (page = await list.ask(cursor)))}`);
      if (page?.nextCursor === undefined) break;
      cursor = page.nextCursor;
      issued.push([list, cursor]);
    }
  }
  for (const [list, c] of issued) {
    for (const other of lists) out.push(`${other.name} ${c} ${await outcome(() => other.ask(c))}`);
    for (const f of forged(c)) out.push(`${list.name} ${f} ${await outcome(() => list.ask(f))}`);
  }
  return { out, issued: issued.length };
}

describe("cursors over tests/fixtures/hidden-views (one/ hides 1 skill, four/ hides 4)", () => {
  const packs = {};
  let dirs;
  before(async () => {
    packs.one = await packOf(join(HIDDEN_VIEWS, "one"));
    packs.four = await packOf(join(HIDDEN_VIEWS, "four"));
    dirs = [...new Set([...diskDirs(join(HIDDEN_VIEWS, "one")).keys(), ...diskDirs(join(HIDDEN_VIEWS, "four")).keys()])].sort();
  });

  /** The lists of a SkillsServer (handle) and of a packSkillSource over the same pack, for a caller with `scopes`. */
  function listsOf(pack, pageSize, scopes) {
    const server = new SkillsServer({ pack, pageSize });
    const source = packSkillSource(pack, { ...byAuth, pageSize });
    const ctx = ctxOf(scopes);
    const handled = (method, params) => async (cursor) => {
      const reply = server.handle({ jsonrpc: "2.0", id: 1, method, params: { ...params, ...(cursor === undefined ? {} : { cursor }), _meta: META } }, { scopes });
      if (reply.error) throw Object.assign(new Error(reply.error.message), { name: "reply", code: reply.error.code, data: reply.error.data });
      return reply.result;
    };
    const p = (cursor) => (cursor === undefined ? {} : { cursor });
    return [
      { name: "handle skills/list", ask: handled("skills/list", {}) },
      { name: "handle resources/list", ask: handled("resources/list", {}) },
      ...dirs.map((uri) => ({ name: `handle ${uri}`, ask: handled("resources/directory/read", { uri }) })),
      { name: "source.list", ask: (cursor) => source.list(p(cursor), ctx) },
      { name: "source.listResources", ask: () => source.listResources(ctx) },
      ...dirs.map((uri) => ({ name: `source.readDirectory ${uri}`, ask: (cursor) => source.readDirectory(uri, p(cursor), ctx) })),
    ];
  }

  for (const [who, scopes] of Object.entries({ anonymous: undefined, "a scope no rule names": ["nobody"], billing: ["billing"] })) {
    test(`${who}: cannot tell one hidden skill from four by the cursors it gets or forges (SkillsServer and packSkillSource, pages of 1 and 2)`, async () => {
      for (const pageSize of [1, 2]) {
        const one = await cursorTranscript(listsOf(packs.one, pageSize, scopes));
        const four = await cursorTranscript(listsOf(packs.four, pageSize, scopes));
        assert.ok(one.issued >= 4, `${who}, page size ${pageSize}: cursors were issued`);
        assert.equal(one.out.length, four.out.length, `${who}, page size ${pageSize}`);
        for (let i = 0; i < one.out.length; i++) assert.equal(four.out[i], one.out[i], `${who}, page size ${pageSize}, step ${i}`);
        assert.ok(one.out.some((line) => /"nextCursor"/.test(line)), "pages were compared");
        assert.ok(one.out.some((line) => /-32602/.test(line)), "refusals were compared");
      }
    });
  }
});

describe("refusals", () => {
  test("wrong-typed arguments are invalid-argument errors naming the argument and the fix", async () => {
    const pack = compileCatalog([{ path: "hello/SKILL.md", bytes: "---\nname: hello\ndescription: Hi.\n---\n" }]).pack;
    const bad = (f, pattern) => assert.throws(f, (e) => e.name === "SkillsEdgeError" && e.code === "invalid-argument" && pattern.test(e.message));
    for (const p of [undefined, null, "pack", 42, [1, 2], {}, new Uint16Array(4)]) bad(() => packSkillSource(p), /packSkillSource: pack must be a Uint8Array or an ArrayBuffer/);
    bad(() => packSkillSource(pack, 42), /options must be an object/);
    bad(() => packSkillSource(pack, { scope: () => [] }), /unknown property "scope"/);
    bad(() => packSkillSource(pack, { scopes: ["billing"] }), /options\.scopes must be a function/);
    bad(() => packSkillSource(pack, { pageSize: "2" }), /options\.pageSize must be a number/);
    bad(() => packSkillSource(pack, { pageSize: 0 }), /^packSkillSource: options\.pageSize = "0" is invalid \(out of range\): use an integer from 1 to 1000/);
    bad(() => packSkillSource(new SkillsServer({ pack }), { pageSize: 2 }), /options\.pageSize is for a pack/);
    bad(() => recommendedCacheHint({}), /recommendedCacheHint: source must be a SkillSource that packSkillSource made/);
    const source = packSkillSource(pack);
    await assert.rejects(source.get(42, {}), (e) => e.code === "invalid-argument" && /get: uri must be a string/.test(e.message));
    await assert.rejects(source.read(undefined, {}), (e) => e.code === "invalid-argument" && /read: uri must be a string/.test(e.message));
    await assert.rejects(source.list({ cursor: 3 }, {}), (e) => e.code === "invalid-argument" && /params\.cursor must be a string/.test(e.message));
  });

  test("a pack made with assets needs options.assets; a damaged pack is pack-invalid", () => {
    const { pack } = compileCatalog(
      [
        { path: "hello/SKILL.md", bytes: "---\nname: hello\ndescription: Hi.\n---\n" },
        { path: "hello/big.md", bytes: "x".repeat(9000) },
      ],
      { inlineMax: 1024 },
    );
    assert.throws(() => packSkillSource(pack), (e) => e.code === "invalid-argument" && /--assets/.test(e.message) && /options\.assets/.test(e.message));
    assert.throws(() => packSkillSource(pack, { assets: "dir" }), (e) => e.code === "invalid-argument" && /options\.assets must be a function/.test(e.message));
    const damaged = compileCatalog([{ path: "hello/SKILL.md", bytes: "---\nname: hello\ndescription: Hi.\n---\n" }]).pack.slice(0, 40);
    assert.throws(() => packSkillSource(damaged), (e) => e.code === "pack-invalid");
  });
});

/** The files of a folder as compileCatalog takes them. */
function entriesOf(root, rel = "", out = []) {
  for (const e of readdirSync(join(root, rel), { withFileTypes: true })) {
    const path = rel === "" ? e.name : `${rel}/${e.name}`;
    if (e.isDirectory()) entriesOf(root, path, out);
    else out.push({ path, bytes: new Uint8Array(readFileSync(join(root, path))) });
  }
  return out;
}

describe("a pack with assets (inlineMax, as --assets makes it) and options.assets", () => {
  const entries = entriesOf(SKILLS);
  const inline = compileCatalog(entries).pack;
  const withAssets = compileCatalog(entries, { inlineMax: 512 });
  const store = new Map(withAssets.assets.map((a) => [a.name, a.bytes]));
  const served = [];
  const fetcher = async (name) => {
    served.push(name);
    return store.get(name);
  };

  test("every file reads as from the pack that holds it, its asset fetched by name", async () => {
    assert.ok(withAssets.assets.length > 0, "some files are assets");
    const source = packSkillSource(withAssets.pack, { assets: fetcher, pageSize: PAGE_SIZE });
    const reference = packSkillSource(inline, { pageSize: PAGE_SIZE });
    const { skills } = await listSource(source, {});
    assert.deepEqual(skills, (await listSource(reference, {})).skills);
    served.length = 0;
    for (const skill of skills) {
      for (const r of skill.resources) assert.deepEqual(await source.read(r.uri, {}), await reference.read(r.uri, {}), r.uri);
    }
    assert.ok(served.length > 0 && served.every((n) => /^[0-9a-f]{64}$/.test(n)), "assets are fetched by their raw name");
    // An ArrayBuffer does as well as a Uint8Array.
    const ab = packSkillSource(withAssets.pack, { assets: (n) => store.get(n)?.slice().buffer });
    for (const skill of skills) for (const r of skill.resources) assert.deepEqual(await ab.read(r.uri, {}), await reference.read(r.uri, {}));
  });

  test("a missing, short, throwing or not-UTF-8 asset fails the read with -32603 naming the file; nothing wrong is served", async () => {
    const { skills } = await listSource(packSkillSource(inline), {});
    const file = skills.flatMap((s) => s.resources).find((r) => r.size > 512 && !r.uri.endsWith(".png"));
    const name = file.digest.slice("sha256:".length);
    const good = store.get(name);
    const faulty = {
      missing: () => undefined,
      short: () => good.subarray(1),
      longer: () => new Uint8Array([...good, 0x20]),
      throwing: () => {
        throw new Error("no such asset");
      },
      "not UTF-8": () => Uint8Array.from(good, (b, i) => (i === 0 ? 0xff : b)),
      "a string": () => new TextDecoder().decode(good),
    };
    for (const [what, assets] of Object.entries(faulty)) {
      const source = packSkillSource(withAssets.pack, { assets: (n) => (n === name ? assets() : store.get(n)) });
      await assert.rejects(source.read(file.uri, {}), (e) => {
        assert.equal(e.code, -32603, what);
        assert.deepEqual(e.data, { uri: file.uri });
        assert.match(e.message, new RegExp(`the bytes of ${file.uri} are missing or damaged`));
        return true;
      });
    }
  });

  test("the SDK 2.4 server over the assets pack, judged by SkillsClient on both eras", { timeout: 150_000 }, async () => {
    for (const era of Object.keys(ERAS)) {
      const s = await judged(withAssets.pack, undefined, era, { assets: fetcher });
      assert.deepEqual({ skills: s.skills, files: s.files, bytes: s.bytes, dirs: s.dirs }, published(SKILLS));
    }
  });
});

/**
 * A real SDK 2.4 server on a loopback port: an McpServer per request (createMcpHandler, both
 * eras) with a tool of its own and the source attached by SkillsExtension, behind
 * @modelcontextprotocol/node's toNodeHandler; every request carries `authInfo` with `scopes`
 * (`req.auth`, as an authentication middleware sets it; none: anonymous). Returns
 * `{ url, close() }`.
 */
async function startSdkServer(pack, scopes, options = {}) {
  const source = packSkillSource(pack, { ...byAuth, pageSize: PAGE_SIZE, ...options });
  const skills = new SkillsExtension({ source, cacheHint: recommendedCacheHint(source) });
  const handler = createMcpHandler(() => {
    const mcp = new McpServer({ name: "sdk-source-test", version: "1.0.0" });
    mcp.registerTool("echo", { description: "Echoes." }, async () => ({ content: [{ type: "text", text: "echo" }] }));
    skills.attach(mcp);
    return mcp;
  }, { onerror: () => {} });
  const node = toNodeHandler(handler);
  const server = createServer((req, res) => {
    if (scopes !== undefined) req.auth = { token: "t", clientId: "c", scopes };
    void node(req, res);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/mcp`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}

/** The SDK judge's summary of the source served by startSdkServer on `era`. */
async function judged(pack, scopes, era, options) {
  const s = await startSdkServer(pack, scopes, options);
  try {
    return await judgeSdk({ transport: httpTransport(s.url), era });
  } finally {
    await s.close();
  }
}

describe("an SDK 2.4 McpServer with SkillsExtension over packSkillSource, judged by the SDK 2.4 SkillsClient", () => {
  let pack;
  let privatePack;
  before(async () => {
    [pack, privatePack] = await Promise.all([packOf(SKILLS), packOf(PRIVATE)]);
  });
  for (const era of Object.keys(ERAS)) {
    test(`skills/, ${era} (${ERAS[era]}): every skill, file and directory verified`, { timeout: 150_000 }, async () => {
      const s = await judged(pack, undefined, era);
      assert.equal(s.protocolVersion, ERAS[era]);
      assert.deepEqual({ skills: s.skills, files: s.files, bytes: s.bytes, dirs: s.dirs }, published(SKILLS));
      assert.equal(s.listPages.length, Math.ceil(s.skills / PAGE_SIZE));
      assert.ok(s.textFiles > 0 && s.binaryFiles > 0);
    });

    test(`private-skills, ${era}: the caller's authInfo scopes decide what the client walks`, { timeout: 150_000 }, async () => {
      const full = published(PRIVATE);
      const all = await judged(privatePack, ["billing", "review"], era);
      assert.deepEqual({ skills: all.skills, files: all.files, bytes: all.bytes }, { skills: full.skills, files: full.files, bytes: full.bytes });
      const server = new SkillsServer({ pack: privatePack });
      for (const scopes of [undefined, ["other"], ["review"]]) {
        const s = await judged(privatePack, scopes, era);
        const expected = listAll(server, "skills/list", "skills", {}, scopes);
        assert.equal(s.skills, expected.length, JSON.stringify(scopes));
        assert.equal(s.files, expected.reduce((n, e) => n + e.resources.length, 0));
        assert.ok(s.skills < full.skills);
      }
    });
  }
});

test("a signed pack: the entries keep their _meta (envelope and signer) through the source and through the SDK to its client", { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "skills-edge-sdk-signed-"));
  try {
    await run(process.execPath, [BIN, "keygen", "--out", dir]);
    await run(process.execPath, [BIN, "pack", SKILLS, "--sign", join(dir, "signing.key"), "-o", join(dir, "signed.pack")]);
    const pack = new Uint8Array(readFileSync(join(dir, "signed.pack")));
    const source = packSkillSource(pack, { pageSize: PAGE_SIZE });
    const { skills } = await listSource(source, {});
    assert.deepEqual(skills, listAll(new SkillsServer({ pack, pageSize: PAGE_SIZE }), "skills/list", "skills"));
    for (const skill of skills) {
      assert.ok(skill._meta?.[DSSE_META_KEY] && skill._meta?.[SIGNER_META_KEY], `${skill.uri} carries its envelope and signer`);
      assert.deepEqual(await source.get(skill.uri, {}), skill);
    }
    const served = await startSdkServer(pack, undefined);
    const client = new Client({ name: "sdk-source-test", version: "1.0.0" }, { versionNegotiation: { mode: { pin: ERAS.modern } } });
    try {
      await client.connect(httpTransport(served.url)());
      const listed = await new SkillsClient(client).list();
      assert.deepEqual(listed.invalid, []);
      assert.deepEqual(listed.skills, skills, "the SDK's client lists the entries as compiled, _meta included");
    } finally {
      await client.close();
      await served.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the web build's source (workers, browsers): refused before the WebAssembly is initialized, then the same answers", async () => {
  const pkgDir = dirname(createRequire(import.meta.url).resolve("skills-edge/package.json"));
  const web = await import(pathToFileURL(join(pkgDir, "lib", "sdk-web.js")).href);
  const glue = await import(pathToFileURL(join(pkgDir, "web", "skills_edge.js")).href);
  const pack = await packOf(SKILLS);
  assert.throws(
    () => web.packSkillSource(pack),
    (e) => e.name === "SkillsEdgeError" && e.code === "invalid-argument" && /not initialized: call initSync\(\{ module \}\)/.test(e.message),
  );
  glue.initSync({ module: readFileSync(join(pkgDir, "web", "skills_edge_bg.wasm")) });
  const source = web.packSkillSource(pack, { pageSize: PAGE_SIZE });
  const reference = packSkillSource(pack, { pageSize: PAGE_SIZE });
  assert.deepEqual(await listSource(source, {}), await listSource(reference, {}));
  assert.deepEqual(await source.read("skill://diagram-style/assets/palette.png", {}), await reference.read("skill://diagram-style/assets/palette.png", {}));
  assert.deepEqual(await source.listResources({}), await reference.listResources({}));
  assert.deepEqual(web.recommendedCacheHint(source), recommendedCacheHint(reference));
  // A SkillsServer of the web build is taken as it is; one of the Node build is not one.
  assert.ok(web.packSkillSource(new glue.SkillsServer({ pack })));
  assert.throws(() => web.packSkillSource(new SkillsServer({ pack })), (e) => e.code === "invalid-argument" && /SkillsServer of this build/.test(e.message));
});
