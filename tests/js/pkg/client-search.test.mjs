// SkillsClient.search (`skills-edge/client`) against the package's SkillsServer behind node:http
// on 127.0.0.1: with `fallback: "search"` its results are exactly the structuredContent the
// server's `search_skills` tool answers for the same arguments, on both eras, over HTTP and
// through a wrapped official SDK v2 client, and every result's URI then loads and verifies
// through skills/get; a server without the tool is refused with `invalid-argument` naming it,
// and nothing is called; the tool's own refusal (a limit out of bounds, an unknown tag) comes
// back as `invalid-argument` with the server's words; wrong-typed arguments throw before any
// request.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { SkillsServer, isSkillsEdgeError } from "skills-edge";
import { SkillsClient } from "skills-edge/client";
import { REPO, call, rejected } from "./common.mjs";
import { startHttpServer } from "./http-server.mjs";

const { connectV2 } = await import(pathToFileURL(join(REPO, "tests", "js", "peers", "sdk-clients.mjs")).href);

let searching;
let bare;
let withSearch;
before(async () => {
  searching = new SkillsServer({ fallback: "search" });
  withSearch = await startHttpServer(searching);
  bare = await startHttpServer(new SkillsServer());
});
after(async () => {
  await withSearch?.close();
  await bare?.close();
});

/** What the server's tool answers for `args`, asked directly. */
function toolAnswer(args) {
  const result = call(searching, "tools/call", { name: "search_skills", arguments: args });
  assert.notEqual(result.isError, true, JSON.stringify(result));
  return result.structuredContent.results;
}

const QUERIES = [
  ["review code", {}],
  ["write a commit message", { limit: 2 }],
  ["release notes changelog", { limit: 50 }],
  ["zzzz-no-such-word", {}],
];

test("search over HTTP: exactly the tool's results, on both eras, each loaded and verified", async () => {
  for (const era of ["2026-07-28", "2025-11-25"]) {
    // A nested skill (release-notes/changelog-lint) is loaded without its own approval here.
    const client = await SkillsClient.connect(withSearch.url, { era, nestedWithoutApproval: true });
    try {
      for (const [query, options] of QUERIES) {
        const got = await client.search(query, options);
        assert.deepEqual(got, toolAnswer({ query, ...options }), `${era} ${query}`);
      }
      const found = await client.search("review code");
      assert.ok(found.length > 0 && found.some((r) => r.uri === "skill://code-review/SKILL.md"), JSON.stringify(found));
      for (const r of found) {
        assert.match(r.uri, /^skill:\/\/.+\/SKILL\.md$/);
        // search hands over URIs only: the skill is fetched through skills/get and verified.
        const loaded = await client.load(r.uri);
        assert.equal(loaded.verified, true, r.uri);
        assert.equal(loaded.frontmatter.name, r.name);
        assert.ok(client.entry(r.uri), `registered through skills/get: ${r.uri}`);
      }
    } finally {
      client.close();
    }
  }
});

test("search through a wrapped SDK v2 client: the same results", async () => {
  const sdk = await connectV2(withSearch.url, "modern");
  const client = await SkillsClient.wrap(sdk, { label: "sdk" });
  try {
    for (const [query, options] of QUERIES) {
      assert.deepEqual(await client.search(query, options), toolAnswer({ query, ...options }), query);
    }
  } finally {
    client.close();
    await sdk.close();
  }
});

test("a server that does not offer search_skills: invalid-argument naming the tool, nothing called", async () => {
  const client = await SkillsClient.connect(bare.url);
  try {
    const before = { ...bare.counts };
    const e = await rejected(() => client.search("review code"), "invalid-argument");
    assert.match(e.message, /does not offer the search_skills tool/);
    assert.match(e.message, /this server does not offer search/);
    assert.equal(e.expected, "tools/list naming search_skills");
    assert.equal(e.actual, "it declares no tools");
    assert.deepEqual(bare.counts, before, "no request was sent");
  } finally {
    client.close();
  }
});

test("the tool's refusal comes back as invalid-argument in the server's words", async () => {
  const client = await SkillsClient.connect(withSearch.url);
  try {
    let e = await rejected(() => client.search("review", { limit: 500 }), "invalid-argument");
    assert.match(e.message, /`limit` must be an integer from 1 to 50/);
    e = await rejected(() => client.search("review", { tags: ["no-such-tag"] }), "invalid-argument");
    assert.match(e.message, /no-such-tag/);
    e = await rejected(() => client.search("!!!"), "invalid-argument");
    assert.match(e.message, /`query`/);
  } finally {
    client.close();
  }
});

test("wrong-typed arguments throw invalid-argument naming the argument, before any request", async () => {
  const client = await SkillsClient.connect(withSearch.url);
  try {
    const sent = withSearch.total();
    for (const [args, name] of [
      [[undefined], "query"],
      [[42], "query"],
      [[{ query: "x" }], "query"],
      [["x", { tags: "pdf" }], "tags"],
      [["x", { tags: ["pdf", 3] }], "tags"],
      [["x", { limit: "5" }], "limit"],
      [["x", { limit: 2.5 }], "limit"],
      [["x", { limit: 0 }], "limit"],
      [["x", { limit: Number.NaN }], "limit"],
      [["x", { nope: 1 }], "nope"],
      [["x", "options"], "options"],
      [["x", { timeoutMs: -1 }], "timeoutMs"],
    ]) {
      let error;
      try {
        client.search(...args);
      } catch (e) {
        error = e;
      }
      assert.ok(isSkillsEdgeError(error), `${JSON.stringify(args)} thrown synchronously`);
      assert.equal(error.code, "invalid-argument");
      assert.match(error.message, /^SkillsClient\.search: /);
      assert.ok(error.message.includes(name), `${error.message} names ${name}`);
    }
    assert.equal(withSearch.total(), sent, "nothing was sent");
  } finally {
    client.close();
  }
});
