// What a server (or a caller spelling URLs) does to get past a host rule, through the npm
// package's public API, one test each, named after the attempt; tests/host_rules/attacks.rs is
// the same in Rust. The client talks to the package's SkillsServer over the embedded skills
// through a `fetch` that hands each request to `server.handleHttp`, logs it and can hold one.
import { test } from "node:test";
import assert from "node:assert/strict";
import { generateKeyPairSync, createHash } from "node:crypto";
import { SkillsServer, SkillHost, isSkillsEdgeError } from "skills-edge";
import { SkillsClient } from "skills-edge/client";
import { digestOf } from "./common.mjs";

const EXT = "io.modelcontextprotocol/skills";
const CODE_REVIEW = "skill://code-review/SKILL.md";
const NESTED = "skill://release-notes/changelog-lint/SKILL.md";
const NESTED_RULES = "skill://release-notes/changelog-lint/references/rules.md";

/**
 * A SkillsServer behind a fetch; `hold(method, params)` may return a promise to wait on first,
 * `tamper(method, result)` may change a result in place.
 */
function wire() {
  const server = new SkillsServer();
  const w = { log: [], hold: undefined, tamper: undefined };
  w.reads = (uri) => w.log.filter((r) => r.method === "resources/read" && r.params?.uri === uri).length;
  w.fetch = async (url, init) => {
    const msg = JSON.parse(init.body);
    w.log.push({ method: msg.method, params: msg.params });
    await w.hold?.(msg.method, msg.params);
    const reply = server.handleHttp(init.body, Object.fromEntries(new Headers(init.headers)));
    if (reply.body === undefined) return new Response(null, { status: reply.status });
    let text = reply.body;
    if (w.tamper) {
      const answer = JSON.parse(text);
      if (answer.result) {
        w.tamper(msg.method, answer.result);
        text = JSON.stringify(answer);
      }
    }
    return new Response(text, { status: reply.status, headers: { "content-type": "application/json" } });
  };
  return w;
}

const connect = (w, options = {}, url = "http://127.0.0.1:9/mcp") =>
  SkillsClient.connect(url, { fetch: w.fetch, era: "2026-07-28", ...options });

async function refused(promise, code) {
  let error;
  try {
    await promise;
  } catch (e) {
    error = e;
  }
  assert.ok(error, `expected ${code}, it resolved`);
  assert.ok(isSkillsEdgeError(error), String(error?.stack ?? error));
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

function skill(uri, files = []) {
  const name = uri.slice(0, -"/SKILL.md".length).split("/").pop();
  const md = `---\nname: ${name}\ndescription: d\n---\nBody.\n`;
  const size = (s) => Buffer.byteLength(s);
  return {
    uri,
    frontmatter: { name, description: "d" },
    resources: [{ uri, digest: digestOf(md), size: size(md) }, ...files.map(([u, b]) => ({ uri: u, digest: digestOf(b), size: size(b) }))],
  };
}

test("loading a nested skill by URI before its parent is refused", async () => {
  // H31: "Activating it needs fresh, explicit user consent."
  const w = wire();
  const c = await connect(w);
  const e = await refused(c.load(NESTED), "not-approved");
  assert.ok(e.message.includes("skill://release-notes/SKILL.md"), e.message);
  assert.equal(w.reads(NESTED), 0, "nothing of it fetched");
  assert.equal(c.isActive(NESTED), false);
  c.close();
});

test("listing a nested skill without its parent keeps no window once the parent arrives", async () => {
  const w = wire();
  const c = await connect(w);
  w.tamper = (method, result) => {
    if (method === "skills/list") result.skills = result.skills.filter((s) => s.uri !== "skill://release-notes/SKILL.md");
  };
  await c.list();
  w.tamper = undefined;
  await c.load(NESTED);
  assert.equal(c.isActive(NESTED), true);
  await c.get("skill://release-notes/SKILL.md"); // the enclosing skill arrives
  assert.equal(c.isActive(NESTED), false);
  const before = w.reads(NESTED_RULES);
  await refused(c.read(NESTED, NESTED_RULES), "no-acting-window");
  assert.equal(w.reads(NESTED_RULES), before, "nothing fetched");
  await refused(c.load(NESTED), "not-approved");
  c.close();
});

test("reading during verify through the window its check opened is refused", async () => {
  const w = wire();
  const c = await connect(w);
  await c.list();
  let release;
  const gate = new Promise((r) => (release = r));
  let inside;
  const reached = new Promise((r) => (inside = r));
  w.hold = (method, params) => {
    if (method === "resources/read" && params.uri === NESTED_RULES) {
      w.hold = undefined;
      inside();
      return gate;
    }
  };
  const run = c.verify({ skill: NESTED });
  await reached; // verify is in the middle of the nested skill
  assert.equal(c.isActive(NESTED), false);
  await refused(c.read(NESTED, NESTED_RULES), "no-acting-window");
  release();
  const report = await run;
  assert.equal(report.skills[0].status, "verified", report.table);
  assert.equal(c.isActive(NESTED), false);
  await refused(c.read(NESTED, NESTED_RULES), "no-acting-window");
  c.close();
});

test("running verify does not close the embedder's window", async () => {
  // H15: a host "MAY keep the window open longer, never shorter".
  const w = wire();
  const c = await connect(w);
  await c.list();
  await c.load(CODE_REVIEW);
  const report = await c.verify();
  assert.equal(report.exitCode, 0, report.table);
  assert.equal(c.isActive(CODE_REVIEW), true);
  // A read through the window the embedder opened (no-acting-window, had verify closed it).
  const file = await c.read(CODE_REVIEW, "references/checklist.md");
  assert.equal(typeof file.text, "string");
  assert.ok(file.text.length > 0);
  c.close();
});

test("spelling the origin differently does not escape its pin", async () => {
  // The pin is kept under new URL(origin).origin, for wrap's `origin`, connect's URL and the
  // pins file alike.
  const { publicKey } = generateKeyPairSync("ed25519");
  const jwk = publicKey.export({ format: "jwk" });
  const keyId = createHash("sha256").update(JSON.stringify({ crv: "Ed25519", kty: "OKP", x: jwk.x })).digest("base64url");
  const pins = JSON.stringify({ format: "skills-edge/pins", version: 1, pins: [{ origin: "https://GOOD.example:443/", keyId, catalog: "c", key: jwk }] });
  const sdk = {
    getServerCapabilities: () => ({ extensions: { [EXT]: {} }, resources: {} }),
    getNegotiatedProtocolVersion: () => "2026-07-28",
    request: async ({ method }) => (method === "skills/list" ? { skills: [skill("skill://a/SKILL.md")] } : {}),
  };
  for (const origin of ["https://good.example", "https://good.example/", "HTTPS://GOOD.EXAMPLE", "https://good.example:443", "https://good.example:0443/mcp"]) {
    assert.equal(new URL(origin).origin, "https://good.example");
    const c = await SkillsClient.wrap(sdk, { origin, pins });
    assert.equal(c.origin, "https://good.example", origin);
    const listed = await c.list();
    assert.equal(listed.skills.length, 0, origin);
    assert.deepEqual(listed.rejected.map((r) => r.error.code), ["signer-changed"], origin);
    c.close();
  }
});

test("naming a skill like another server's prefixed skill takes no bare name", () => {
  // H23: "MUST resolve names in a per-origin namespace ... MUST NOT silently shadow".
  const host = new SkillHost();
  host.addServer("https://good");
  host.addServer("https://evil");
  host.register("https://good", skill("skill://prod/deploy/SKILL.md"));
  host.register("https://good", skill("skill://staging/deploy/SKILL.md"));
  host.register("https://evil", skill("skill://deploy/SKILL.md"));
  assert.deepEqual(
    host.skills().map((s) => s.displayName),
    ["https://good:deploy (prod)", "https://good:deploy (staging)", "https://evil:deploy"],
  );
  assert.equal(host.lookup("deploy"), undefined);
  assert.equal(host.lookup("deploy (prod)"), undefined);
  assert.deepEqual(host.lookup("https://evil:deploy"), { serverLabel: "https://evil", uri: "skill://deploy/SKILL.md" });
});

test("serving two endpoints on one origin shares one label unless the embedder labels them", async () => {
  // Decision (docs/host-rules.md): the origin is the server's identity by default.
  const a = await connect(wire(), {}, "http://127.0.0.1:9/mcp/good");
  const b = await connect(wire(), {}, "http://127.0.0.1:9/mcp/evil");
  await a.list();
  await b.list();
  const labelOf = (c) => c.skills()[0].serverLabel;
  assert.equal(labelOf(a), "http://127.0.0.1:9");
  assert.equal(labelOf(b), labelOf(a));
  a.approve(CODE_REVIEW);
  assert.equal(b.importApprovals(a.exportApprovals()), 1);
  const labelled = await connect(wire(), { label: "evil" }, "http://127.0.0.1:9/mcp/evil");
  await labelled.list();
  refusedNow(() => labelled.importApprovals(a.exportApprovals()), "invalid-argument");
  assert.equal(labelled.isApproved(CODE_REVIEW), false);
  for (const c of [a, b, labelled]) c.close();
});

test("spelling a URI in escapes or capitals is refused", () => {
  const host = new SkillHost();
  host.addServer("s");
  for (const item of ["skill://a/%2e%2e/b/x.md", "skill://a/%2E%2E/b/x.md", "skill://a/%61.md", "SKILL://a/x.md"]) {
    const entry = skill("skill://a/SKILL.md");
    entry.resources.push({ uri: item, digest: digestOf("x"), size: 1 });
    refusedNow(() => host.register("s", entry), "invalid-entry");
  }
  const e = refusedNow(() => host.planLoad("s", "file:///etc/SKILL.md"), "unknown-skill");
  assert.ok(e);
});

test("a label that looks like another server's is refused", () => {
  const host = new SkillHost();
  host.addServer("https://good.example");
  for (const label of ["https://good\u200b.example", "https://\u202eelpmaxe.doog", "https://good.example\ufeff"]) {
    refusedNow(() => host.addServer(label), "invalid-argument");
  }
  assert.deepEqual(host.servers(), ["https://good.example"]);
});
