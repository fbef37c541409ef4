// The host rules of the Skills extension, one test each, through the npm package's public API
// (`SkillsClient` from `skills-edge/client`, `SkillHost` from `skills-edge`): every test is
// named after its rule (the spec notes' numbering, H1 to H34, and G1 for the argument of
// skills/get) and quotes it. The client connects to the package's SkillsServer over the
// embedded skills through a `fetch` that hands each request to `server.handleHttp`, logs it,
// and can answer instead of the server (a JSON-RPC error, a network failure, no answer) or
// change a result, so a test can say what was sent and what was not. The rules no library can
// keep for its embedder are listed in docs/host-rules.md with the reason; the last test checks
// that every npm test that table names is here. tests/host_rules/ is the same suite in Rust.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SkillsServer, SkillHost, isSkillsEdgeError } from "skills-edge";
import { SkillsClient } from "skills-edge/client";
import { REPO, digestOf, listAll, read } from "./common.mjs";

const EXT = "io.modelcontextprotocol/skills";
const URL_A = "http://127.0.0.1:9/mcp";
const CODE_REVIEW = "skill://code-review/SKILL.md";
const CHECKLIST = "skill://code-review/references/checklist.md";
const OUTER = "skill://release-notes/SKILL.md";
const NESTED = "skill://release-notes/changelog-lint/SKILL.md";

/**
 * A SkillsServer behind a fetch: `log` holds each request's { method, params }; `fault(method,
 * params)` may return { error: { code, message } } (a JSON-RPC error), "network" (fetch
 * rejects) or "hang" (no answer until aborted); `tamper(method, params, result)` may change a
 * result in place.
 */
function wire(options = {}) {
  const server = new SkillsServer(options);
  const w = { log: [], fault: undefined, tamper: undefined };
  w.methods = () => w.log.map((r) => r.method).filter((m) => m !== "server/discover" && m !== "initialize" && m !== "notifications/initialized");
  w.count = (method) => w.log.filter((r) => r.method === method).length;
  w.reads = (uri) => w.log.filter((r) => r.method === "resources/read" && r.params?.uri === uri).length;
  w.fetch = async (url, init) => {
    const body = init.body;
    const msg = JSON.parse(body);
    w.log.push({ method: msg.method, params: msg.params });
    const f = w.fault?.(msg.method, msg.params);
    if (f === "network") throw new TypeError("fetch failed", { cause: { code: "ECONNRESET", message: "socket hang up" } });
    if (f === "hang") {
      return new Promise((_, reject) => init.signal.addEventListener("abort", () => reject(init.signal.reason ?? new Error("aborted")), { once: true }));
    }
    if (f?.error) {
      return new Response(JSON.stringify({ jsonrpc: "2.0", id: msg.id, error: f.error }), { status: 200, headers: { "content-type": "application/json" } });
    }
    const reply = server.handleHttp(body, Object.fromEntries(new Headers(init.headers)));
    if (reply.body === undefined) return new Response(null, { status: reply.status });
    let text = reply.body;
    if (w.tamper) {
      const answer = JSON.parse(text);
      if (answer.result) {
        w.tamper(msg.method, msg.params, answer.result);
        text = JSON.stringify(answer);
      }
    }
    return new Response(text, { status: reply.status, headers: { "content-type": "application/json" } });
  };
  return w;
}

/** A connected client of `w`'s server (at `url`), with `options`. */
const connect = (w, options = {}, url = URL_A) => SkillsClient.connect(url, { fetch: w.fetch, era: "2026-07-28", ...options });

/** Rejects with a SkillsEdgeError of `code`; returns it. */
async function refused(promise, code) {
  let error;
  try {
    await promise;
  } catch (e) {
    error = e;
  }
  assert.ok(error, `expected ${code}, it resolved`);
  assert.ok(isSkillsEdgeError(error), `a SkillsEdgeError: ${error?.stack ?? error}`);
  assert.equal(error.code, code, error.message);
  return error;
}

function refusedNow(fn, code) {
  try {
    fn();
  } catch (e) {
    assert.ok(isSkillsEdgeError(e), String(e));
    assert.equal(e.code, code, e.message);
    return e;
  }
  assert.fail(`expected ${code}`);
}

/** The capabilities of `w`'s server/discover replaced with `capabilities`. */
function declaring(w, capabilities) {
  w.tamper = (method, _, result) => {
    if (method === "server/discover") result.capabilities = capabilities;
  };
}

/** A SKILL.md text and a hand-made entry for it (description "d") with `files` beside it. */
function skill(uri, files = [], text) {
  const name = uri.slice(0, -"/SKILL.md".length).split("/").pop();
  const md = text ?? `---\nname: ${name}\ndescription: d\n---\nBody.\n`;
  const size = (s) => Buffer.byteLength(s);
  return {
    md,
    entry: {
      uri,
      frontmatter: { name, description: "d" },
      resources: [{ uri, digest: digestOf(md), size: size(md) }, ...files.map(([u, b]) => ({ uri: u, digest: digestOf(b), size: size(b) }))],
    },
  };
}

test("h01_skills_methods_only_after_the_servers_declaration", async () => {
  // H1: "Issue `skills/list` and `skills/get` only after seeing the server's declaration."
  for (const capabilities of [{ resources: {} }, { resources: {}, extensions: {} }, { extensions: { [EXT]: true } }]) {
    const w = wire();
    declaring(w, capabilities);
    const c = await connect(w);
    w.tamper = undefined;
    assert.equal(c.server.skills, false);
    for (const call of [() => c.list(), () => c.get(CODE_REVIEW), () => c.load(CODE_REVIEW)]) {
      const e = await refused(call(), "invalid-argument");
      assert.equal(e.expected, `capabilities.extensions["${EXT}"]`);
      assert.match(e.message, /was not sent/);
    }
    assert.deepEqual(w.methods(), [], "nothing was sent");
    c.close();
  }
  // Through a wrapped SDK client that did not see the declaration either.
  const w = wire();
  const sdk = { getServerCapabilities: () => ({ resources: {} }), getNegotiatedProtocolVersion: () => "2026-07-28", request: async () => assert.fail("sent") };
  const c = await SkillsClient.wrap(sdk, { label: "sdk" });
  await refused(c.list(), "invalid-argument");
  c.close();
  // Declared: the same call goes out.
  const d = await connect(w);
  await d.list();
  assert.deepEqual(w.methods(), ["skills/list"]);
  d.close();
});

test("h02_no_directory_read_unless_directory_read_is_true", async () => {
  // H2: "MUST NOT call `resources/directory/read` unless the server declared `directoryRead: true`."
  for (const ext of [{}, { directoryRead: false }, { directoryRead: "true" }]) {
    const w = wire();
    declaring(w, { resources: {}, extensions: { [EXT]: ext } });
    const c = await connect(w);
    w.tamper = undefined;
    assert.equal(c.server.directoryRead, false);
    const e = await refused(c.readDirectory("skill://code-review"), "invalid-argument");
    assert.equal(e.expected, `capabilities.extensions["${EXT}"].directoryRead: true`);
    assert.equal(w.count("resources/directory/read"), 0);
    c.close();
  }
  const w = wire();
  const c = await connect(w);
  const d = await c.readDirectory("skill://code-review");
  assert.ok(d.resources.length > 0);
  assert.equal(w.count("resources/directory/read"), 1);
  c.close();
});

test("h03_a_skill_loads_from_its_uri_alone", async () => {
  // H3: "MUST NOT treat an empty or partial listing as proof that a server has no skills. MUST
  // support loading a skill from its URI alone, via `skills/get` then `resources/read`."
  const w = wire();
  w.tamper = (method, _, result) => {
    if (method === "skills/list") result.skills = [];
  };
  const c = await connect(w);
  assert.equal((await c.list()).skills.length, 0);
  const loaded = await c.load(CODE_REVIEW);
  assert.equal(loaded.verified, true);
  assert.deepEqual(w.methods(), ["skills/list", "skills/get", "resources/read"]);
  c.close();
});

test("skills_get_uri_must_be_a_skill_md_uri", async () => {
  // skills/get: "`params.uri` MUST be a `SKILL.md` URI." get and load refuse anything else first.
  const w = wire();
  const c = await connect(w);
  for (const bad of [CHECKLIST, "skill://alpha/x.md", "skill://alpha", "skill://alpha/", "not a uri", "skill://SKILL.md", "skill://alpha/skill.md", ""]) {
    for (const call of [() => c.get(bad), () => c.load(bad)]) {
      const e = await refused(call(), "invalid-argument");
      assert.match(e.message, /is not a skill's SKILL\.md URI/);
    }
  }
  assert.deepEqual(w.methods(), [], "nothing was sent");
  await c.get(CODE_REVIEW);
  c.close();
});

test("h04_a_skill_only_from_a_listing_or_a_get_answer", async () => {
  // H4: "Decide that a resource is a skill only from a `skills/list` entry or a `skills/get`
  // answer, never from the URI scheme."
  const host = new SkillHost();
  host.addServer("s");
  refusedNow(() => host.planLoad("s", CODE_REVIEW), "unknown-skill");
  const w = wire();
  w.tamper = (method, _, result) => {
    if (method === "skills/get") result.skill.uri = "skill://other/SKILL.md";
  };
  const c = await connect(w);
  await refused(c.get(CODE_REVIEW), "invalid-entry");
  assert.equal(c.entry(CODE_REVIEW), undefined);
  c.close();
});

test("h05_no_resolution_of_the_uri_authority", async () => {
  // H5: "MUST NOT attempt DNS or network resolution of the URI authority." Every request goes
  // to the server's URL, whatever a skill URI's authority.
  const w = wire();
  const urls = [];
  const c = await SkillsClient.connect(URL_A, { fetch: (url, init) => (urls.push(String(url)), w.fetch(url, init)) });
  await c.list();
  await c.load(CODE_REVIEW);
  await c.read(CODE_REVIEW, "references/checklist.md");
  assert.ok(urls.length > 0 && urls.every((u) => u === URL_A), urls.join(" "));
  c.close();
});

test("h06_listed_entries_are_used_without_skills_get", async () => {
  // H6: "A host that builds its registry from `skills/list` does not need `skills/get` for listed entries."
  const w = wire();
  const c = await connect(w, { nestedWithoutApproval: true });
  for (const s of (await c.list()).skills) await c.load(s);
  assert.equal(w.count("skills/get"), 0);
  c.close();
});

test("h07_an_invalid_entry_is_never_loaded", async () => {
  // H7: "An entry with no `resources`, or with a value other than an array or `"dynamic"`, is
  // invalid. MUST NOT load it."
  const host = new SkillHost();
  host.addServer("s");
  const base = { uri: "skill://a/SKILL.md", frontmatter: { name: "a", description: "d" } };
  const entries = [base, { ...base, resources: null }, { ...base, resources: "static" }, { ...base, resources: {} }, { ...base, resources: 7 }];
  const out = host.registerListing("s", { skills: entries });
  assert.equal(out.registered.length, 0);
  assert.ok(out.rejected.length === 5 && out.rejected.every((r) => r.error.code === "invalid-entry"));
  refusedNow(() => host.planLoad("s", base.uri), "unknown-skill");
  host.register("s", { ...base, resources: "dynamic" });
  refusedNow(() => host.planLoad("s", base.uri), "dynamic-not-allowed");
});

test("h08_limits_are_checked_from_the_entry_before_fetching", async () => {
  // H8: "MUST support skills up to and including 512 entries and 16,777,216 total bytes" and
  // "Check the limits from the entry alone, before fetching anything."
  const host = new SkillHost();
  host.addServer("s");
  const md = "---\nname: big\ndescription: d\n---\nBody.\n";
  for (const [files, lastSize, ok] of [[511, 1, true], [512, 1, false], [1, 16_777_216 - 100, true], [1, 16_777_216, false]]) {
    const resources = [{ uri: "skill://big/SKILL.md", digest: digestOf(md), size: Buffer.byteLength(md) }];
    for (let i = 0; i < files; i++) resources.push({ uri: `skill://big/f${i}`, digest: digestOf("x"), size: i + 1 === files ? lastSize : 1 });
    host.register("s", { uri: "skill://big/SKILL.md", frontmatter: { name: "big", description: "d" }, resources });
    if (ok) host.planLoad("s", "skill://big/SKILL.md");
    else refusedNow(() => host.planLoad("s", "skill://big/SKILL.md"), "limit-exceeded");
  }
});

test("h09_nothing_is_retrieved_ahead_of_need", async () => {
  // H9: "MUST NOT retrieve a skill's files ahead of need: not on connection, not on listing,
  // not at approval."
  const w = wire();
  const c = await connect(w);
  await c.list();
  c.approve(CODE_REVIEW);
  assert.equal(w.count("resources/read"), 0);
  await c.load(CODE_REVIEW);
  assert.deepEqual([w.reads(CODE_REVIEW), w.reads(CHECKLIST)], [1, 0]);
  await c.read(CODE_REVIEW, "references/checklist.md");
  assert.equal(w.reads(CHECKLIST), 1);
  c.close();
});

test("h10_retrieved_files_are_cached_on_demand", async () => {
  // H10: "SHOULD cache what it retrieves, filling the cache on demand."
  const w = wire();
  const c = await connect(w);
  await c.list();
  for (let i = 0; i < 3; i++) {
    await c.load(CODE_REVIEW);
    await c.read(CODE_REVIEW, "references/checklist.md");
  }
  assert.deepEqual([w.reads(CODE_REVIEW), w.reads(CHECKLIST)], [1, 1]);
  c.close();
});

test("h11_every_file_is_verified_by_digest_and_size", async () => {
  // H11: "On retrieving any file listed in `resources`, the host MUST verify the content
  // against that item's `digest` and `size`."
  const host = new SkillHost();
  host.addServer("s");
  const a = skill("skill://a/SKILL.md", [["skill://a/x.md", "xy"]]);
  host.register("s", a.entry);
  refusedNow(() => host.load("s", a.entry.uri, a.md.replace("Body", "Bodi")), "digest-mismatch");
  refusedNow(() => host.load("s", a.entry.uri, a.md + " "), "size-mismatch");
  host.load("s", a.entry.uri, a.md);
  refusedNow(() => host.read("s", a.entry.uri, "x.md", "xz"), "digest-mismatch");
  refusedNow(() => host.read("s", a.entry.uri, "x.md", "xyz"), "size-mismatch");
  assert.equal(host.read("s", a.entry.uri, "x.md", "xy").verified, true);
});

test("h12_a_mismatch_is_not_used_and_the_entry_is_refreshed", async () => {
  // H12: "the host MUST NOT use the unverified content. To recover: call `skills/get` ...,
  // continue from the new `resources` set, and treat any content-bound approval as revoked."
  const stale = (result, entries) => {
    for (const e of entries) if (e.uri === CODE_REVIEW) for (const r of e.resources) if (r.uri === CHECKLIST) r.digest = "sha256:" + "0".repeat(64);
  };
  const w = wire();
  w.tamper = (method, _, result) => method === "skills/list" && stale(result, result.skills);
  const c = await connect(w);
  await c.list();
  c.approve(CODE_REVIEW);
  await c.load(CODE_REVIEW);
  const r = await c.read(CODE_REVIEW, "references/checklist.md");
  assert.ok(r.refreshed && r.approvalRevoked);
  assert.equal(w.count("skills/get"), 1);
  assert.equal(c.isApproved(CODE_REVIEW), false);
  c.close();
  const v = wire();
  v.tamper = (method, _, result) => (method === "skills/list" ? stale(result, result.skills) : method === "skills/get" && stale(result, [result.skill]));
  const d = await connect(v);
  await d.list();
  await d.load(CODE_REVIEW);
  await refused(d.read(CODE_REVIEW, "references/checklist.md"), "digest-mismatch");
  d.close();
});

test("h14_frontmatter_is_compared_field_by_field", async () => {
  // H14: "After fetching a `SKILL.md` for which it holds an entry, the host MUST parse the YAML
  // frontmatter and compare it field by field with the entry's `frontmatter`."
  const host = new SkillHost();
  host.addServer("s");
  const a = skill("skill://a/SKILL.md", [], "---\nname: a\ndescription: e\n---\nBody.\n");
  host.register("s", a.entry);
  const e = refusedNow(() => host.load("s", a.entry.uri, a.md), "frontmatter-mismatch");
  assert.equal(e.field, "description");
  assert.equal(host.isActive("s", a.entry.uri), false);
});

test("h15_the_acting_window_outlives_a_transient_error", async () => {
  // H15: "The host is acting on a skill from the moment it loads the skill's `SKILL.md` ...
  // until, at the earliest, that `SKILL.md` leaves context. It MAY keep the window open longer,
  // never shorter." A recovery skills/get that fails with -32603, a lost connection or a
  // timeout keeps the window; only -32602 (the skill is gone) closes it.
  for (const failure of [{ error: { code: -32603, message: "internal error" } }, "network", "hang"]) {
    const w = wire();
    const c = await connect(w, { timeoutMs: 200 });
    await c.list();
    await c.load(CODE_REVIEW);
    let changed = false;
    w.tamper = (method, params, result) => {
      if (method === "resources/read" && params.uri === CHECKLIST && !changed) {
        changed = true;
        result.contents[0].text = "changed in transit";
      }
    };
    w.fault = (method) => (method === "skills/get" ? failure : undefined);
    await refused(c.read(CODE_REVIEW, "references/checklist.md"), "size-mismatch");
    assert.equal(w.count("skills/get"), 1);
    assert.equal(c.isActive(CODE_REVIEW), true, JSON.stringify(failure));
    w.fault = w.tamper = undefined;
    const r = await c.read(CODE_REVIEW, "references/checklist.md");
    assert.ok(r.verified && !r.refreshed);
    c.close();
  }
  const w = wire();
  const c = await connect(w);
  await c.list();
  await c.load(CODE_REVIEW);
  w.tamper = (method, _, result) => method === "resources/read" && (result.contents[0].text = "changed");
  w.fault = (method) => (method === "skills/get" ? { error: { code: -32602, message: "No skill is served at skill://code-review/SKILL.md" } } : undefined);
  await refused(c.read(CODE_REVIEW, "references/checklist.md"), "size-mismatch");
  assert.equal(c.isActive(CODE_REVIEW), false);
  assert.equal(c.entry(CODE_REVIEW), undefined);
  c.close();
});

test("h16_reads_resolve_only_to_files_the_held_entry_lists", async () => {
  // H16: "While acting on a skill, the host MUST resolve reads of the skill's files only to URIs
  // listed in the held entry's `resources`."
  const w = wire();
  const c = await connect(w);
  await c.list();
  await c.load(CODE_REVIEW);
  const before = w.log.length;
  await refused(c.read(CODE_REVIEW, "references/other.md"), "not-in-manifest");
  await refused(c.read(CODE_REVIEW, "skill://code-review/references/other.md"), "not-in-manifest");
  await refused(c.read(CODE_REVIEW, "../git-commit-messages/SKILL.md"), "escapes-root");
  assert.equal(w.log.length, before, "nothing was fetched");
  c.close();
});

test("h17_a_directory_is_answered_from_the_entry", async () => {
  // H17: "For a skill with a manifest, the host MAY answer "what's in `templates/`" from the entry alone."
  const w = wire();
  const c = await connect(w);
  await c.list();
  const entry = c.entry("skill://acme/billing/refunds/SKILL.md");
  assert.equal(entry.resources.filter((r) => r.uri.startsWith("skill://acme/billing/refunds/templates/")).length, 3);
  assert.deepEqual(w.methods(), ["skills/list"]);
  c.close();
});

test("h18_a_directory_child_the_entry_does_not_list_is_not_a_file_of_the_skill", async () => {
  // H18: "If a live directory read shows a child the held entry doesn't have, the host: MUST
  // NOT read it; MUST NOT show it to the model as a file of the skill."
  const w = wire();
  const INJECTED = "skill://code-review/references/injected.md";
  w.tamper = (method, _, result) => method === "resources/directory/read" && result.resources.push({ uri: INJECTED, name: "injected.md" });
  const c = await connect(w);
  await c.list();
  await c.load(CODE_REVIEW);
  const d = await c.readDirectory("skill://code-review/references");
  assert.equal(d.resources.find((r) => r.uri === INJECTED).listed, false);
  assert.equal(d.resources.find((r) => r.uri === CHECKLIST).listed, true);
  await refused(c.read(CODE_REVIEW, "references/injected.md"), "not-in-manifest");
  assert.equal(w.reads(INJECTED), 0);
  c.close();
});

test("h19_a_listed_file_that_is_gone_fails_its_read_and_refreshes", async () => {
  // H19: "A child that is in the manifest but missing from the directory read is no longer
  // served. The read will fail; refresh."
  const w = wire();
  const c = await connect(w);
  await c.list();
  await c.load(CODE_REVIEW);
  w.tamper = (method, params, result) => method === "resources/read" && params.uri === CHECKLIST && (result.contents[0].text = "");
  await refused(c.read(CODE_REVIEW, "references/checklist.md"), "size-mismatch");
  assert.equal(w.count("skills/get"), 1);
  c.close();
});

test("h20_a_directory_result_never_extends_the_manifest", async () => {
  // H20: "MUST NOT treat a directory result as extending the manifest."
  const w = wire();
  w.tamper = (method, _, result) => method === "resources/directory/read" && (result.resources = [{ uri: "skill://code-review/new.md", name: "new.md" }]);
  const c = await connect(w);
  await c.list();
  const before = JSON.stringify(c.entry(CODE_REVIEW));
  await c.readDirectory("skill://code-review");
  assert.equal(JSON.stringify(c.entry(CODE_REVIEW)), before);
  await c.load(CODE_REVIEW);
  await refused(c.read(CODE_REVIEW, "new.md"), "not-in-manifest");
  c.close();
});

test("h21_reading_a_skill_md_does_not_activate_it", async () => {
  // H21: "A `resources/read` of a `SKILL.md` does not activate the skill. ... Such a read grants
  // no approval, opens no window, and gives the skill's supporting files no standing."
  const w = wire();
  const c = await connect(w);
  await c.list();
  await c.load(OUTER);
  const r = await c.read(OUTER, "changelog-lint/SKILL.md");
  assert.match(r.text, /^---\nname: changelog-lint/);
  assert.equal(c.isActive(NESTED), false);
  assert.equal(c.isApproved(NESTED), false);
  await refused(c.read(NESTED, "references/rules.md"), "no-acting-window");
  c.close();
});

test("h22_identity_is_the_server_and_the_uri", async () => {
  // H22: "The host MUST keep both halves of (server identity, `uri`) wherever a skill is recorded
  // or addressed: registry, persisted approvals, cache ... MUST NOT key any of these on `uri`
  // alone." Two clients of two URLs are two servers by default.
  const a = await connect(wire(), {}, "http://127.0.0.1:9/mcp");
  const b = await connect(wire(), {}, "HTTP://LOCALHOST:80/other");
  await a.list();
  await b.list();
  const labelOf = (c) => c.skills().find((s) => s.uri === CODE_REVIEW).serverLabel;
  assert.deepEqual([labelOf(a), labelOf(b)], [new URL("http://127.0.0.1:9/mcp").origin, new URL("HTTP://LOCALHOST:80/other").origin]);
  assert.deepEqual([labelOf(a), labelOf(b)], ["http://127.0.0.1:9", "http://localhost"]);
  assert.equal((await a.load(CODE_REVIEW)).serverLabel, "http://127.0.0.1:9");
  a.approve(CODE_REVIEW);
  const exported = a.exportApprovals();
  assert.equal(JSON.parse(exported).approvals[0].server, "http://127.0.0.1:9");
  const e = refusedNow(() => b.importApprovals(exported), "invalid-argument");
  assert.match(e.message, /http:\/\/127\.0\.0\.1:9/);
  assert.equal(b.isApproved(CODE_REVIEW), false);
  const again = await connect(wire(), {}, "http://127.0.0.1:9/elsewhere");
  await again.list();
  assert.equal(again.importApprovals(exported), 1);
  assert.equal(again.isApproved(CODE_REVIEW), true);
  // wrap has no URL to go by: a label (or an origin) is required.
  const sdk = { getServerCapabilities: () => ({ extensions: { [EXT]: {} } }), getNegotiatedProtocolVersion: () => "2026-07-28", request: async () => ({}) };
  await refused(SkillsClient.wrap(sdk), "invalid-argument");
  const wrapped = await SkillsClient.wrap(sdk, { origin: "https://Skills.Example:443" });
  assert.equal(wrapped.origin, "https://skills.example");
  wrapped.close();
  for (const c of [a, b, again]) c.close();
});

test("h23_names_resolve_per_origin_and_never_shadow", async () => {
  // H23: "MUST NOT assume names are unique. Within one listing, MUST disambiguate colliding
  // names ... Across origins, MUST resolve names in a per-origin namespace."
  const host = new SkillHost();
  for (const label of ["https://a.example", "https://b.example"]) {
    host.addServer(label);
    host.register(label, skill("skill://x/alpha/SKILL.md").entry);
  }
  host.register("https://a.example", skill("skill://y/alpha/SKILL.md").entry);
  const names = host.skills();
  assert.equal(names.length, 3);
  assert.equal(new Set(names.map((s) => s.displayName)).size, 3);
  for (const s of names) assert.equal(host.lookup(s.displayName).serverLabel, s.serverLabel);
});

test("h24_loaded_content_carries_its_server", async () => {
  // H24: "the host MUST tag MCP-served skill content with its originating server identity at
  // the point it enters model context."
  const w = wire();
  const c = await connect(w, { label: "docs" });
  await c.list();
  assert.equal((await c.load(CODE_REVIEW)).serverLabel, "docs");
  const f = await c.read(CODE_REVIEW, "references/checklist.md");
  assert.deepEqual([f.serverLabel, f.skillUri], ["docs", CODE_REVIEW]);
  c.close();
});

test("h28_reads_are_bound_to_the_skills_own_server", async () => {
  // H28: "A skill from server A MUST NOT cause a `resources/read` against server B."
  const s = new SkillsServer();
  const host = new SkillHost();
  host.addServer("a");
  host.addServer("b");
  host.registerListing("a", listAll(s));
  host.load("a", CODE_REVIEW, read(s, CODE_REVIEW));
  refusedNow(() => host.planRead("b", CODE_REVIEW, "references/checklist.md"), "no-acting-window");
  refusedNow(() => host.planRead("c", CODE_REVIEW, "references/checklist.md"), "unknown-server");
  refusedNow(() => host.planRead("a", CODE_REVIEW, "skill://other/x.md"), "escapes-root");
});

test("h29_a_skill_can_be_inspected_and_gated_before_loading", async () => {
  // H29: "The host SHOULD let users inspect a skill's content before it is loaded into context.
  // It MAY gate loading behind per-skill or per-server approval."
  const w = wire();
  const c = await connect(w, { requireApproval: true });
  await c.list();
  const s = c.skills().find((x) => x.uri === CODE_REVIEW);
  assert.equal(s.name, "code-review");
  assert.ok(c.entry(CODE_REVIEW).resources.length > 1);
  await refused(c.load(CODE_REVIEW), "not-approved");
  assert.equal(w.count("resources/read"), 0);
  c.approve(CODE_REVIEW);
  await c.load(CODE_REVIEW);
  c.close();
});

test("h30_an_approval_is_bound_to_every_uri_and_digest", async () => {
  // H30: "Any persisted per-skill approval MUST be bound to the entry's `resources` set as
  // observed at approval time: every `uri` and `digest`."
  const host = new SkillHost({ requireApproval: true });
  host.addServer("s");
  const v1 = skill("skill://a/SKILL.md", [["skill://a/x.md", "1"]]);
  for (const changed of [[["skill://a/x.md", "2"]], [["skill://a/y.md", "1"]], [["skill://a/x.md", "1"], ["skill://a/z.md", ""]], []]) {
    host.register("s", v1.entry);
    host.approve("s", v1.entry.uri);
    assert.equal(host.register("s", skill("skill://a/SKILL.md", changed).entry).approvalRevoked, true);
    refusedNow(() => host.planLoad("s", v1.entry.uri), "not-approved");
  }
  host.register("s", { uri: "skill://d/SKILL.md", frontmatter: { name: "d", description: "x" }, resources: "dynamic" });
  refusedNow(() => host.approve("s", "skill://d/SKILL.md"), "dynamic-not-allowed");
});

test("h31_a_nested_skill_needs_its_own_consent", async () => {
  // H31: "A nested `SKILL.md` read as supporting content is ordinary markdown ... Activating it
  // needs fresh, explicit user consent; approval of the enclosing skill does not count." With
  // the default options too.
  const w = wire();
  const c = await connect(w);
  await c.list();
  c.approve(OUTER);
  await c.load(OUTER);
  const e = await refused(c.load(NESTED), "not-approved");
  assert.ok(e.message.includes(OUTER) && /nested/.test(e.message), e.message);
  assert.equal(w.reads(NESTED), 0);
  c.approve(NESTED);
  await c.load(NESTED);
  c.close();
  // A verify run only checks (nothing reaches a model): the nested skill is checked without consent.
  const v = await connect(wire());
  const report = await v.verify();
  assert.equal(report.skills.find((r) => r.skill === NESTED)?.status, "verified", report.table);
  assert.equal(v.isActive(NESTED), false);
  v.close();
  // The embedder that asks for consent itself says so, by name.
  const d = await connect(wire(), { nestedWithoutApproval: true });
  await d.list();
  await d.load(NESTED);
  d.close();
  // The same rule in SkillHost.
  const s = new SkillsServer();
  const host = new SkillHost();
  host.addServer("s");
  host.registerListing("s", listAll(s));
  refusedNow(() => host.planLoad("s", NESTED), "not-approved");
  // A revoked approval closes the window it gated.
  host.approve("s", NESTED);
  host.load("s", NESTED, read(s, NESTED));
  assert.equal(host.revoke("s", NESTED), true);
  assert.equal(host.isActive("s", NESTED), false);
});

test("h34_the_ttl_is_freshness_and_the_held_entry_governs_reads", async () => {
  // H34: "`ttlMs`/`cacheScope` ... are freshness and sharing hints, not integrity. ... The held
  // entry governs reads during the acting window whatever the TTL."
  const w = wire({ ttlMs: 0 });
  const c = await connect(w);
  await c.list();
  await c.load(CODE_REVIEW);
  assert.equal(w.count("skills/get"), 1, "an entry past its TTL is fetched again before a load");
  await c.read(CODE_REVIEW, "references/checklist.md");
  assert.equal(w.count("skills/get"), 1, "reads go by the held entry");
  c.close();
});

test("every host rule the table names an npm test for is tested here", () => {
  const doc = readFileSync(join(REPO, "docs", "host-rules.md"), "utf8");
  const me = readFileSync(join(REPO, "tests", "js", "pkg", "host-rules.test.mjs"), "utf8");
  const rows = doc.split("\n").filter((l) => /^\| (H\d+|G1) \|/.test(l));
  assert.equal(rows.length, 35);
  for (const row of rows) {
    const cells = row.split("|").map((c) => c.trim());
    const npm = cells[cells.length - 2];
    const name = /^`(\w+)`$/.exec(npm)?.[1];
    if (name) assert.ok(me.includes(`test("${name}"`), `${cells[1]}: no test ${name}`);
    else assert.match(npm, /^embedder's/, `${cells[1]}: ${npm}`);
  }
});
