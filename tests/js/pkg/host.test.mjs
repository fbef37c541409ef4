// SkillHost: a registry keyed by (server label, URI), display names, acting windows, nested
// skills and approvals, driven against in-page servers exactly as a web host would; each test
// through both modules that export SkillHost (the package's main module and
// `skills-edge/verifier`), against the main module's SkillsServer.
import { test } from "node:test";
import assert from "node:assert/strict";
import { SkillsServer } from "skills-edge";
import { HOST_MODULES, call, digestOf, entryFor, listAll, read, refused, server } from "./common.mjs";

const md = (name) => `---\nname: ${name}\ndescription: about ${name}\n---\n# ${name}\n`;
const skill = (uri, extra = []) => {
  const name = uri.replace(/\/SKILL\.md$/, "").split("/").pop();
  return { entry: entryFor(uri, { name, description: `about ${name}` }, [[uri, md(name)], ...extra]), text: md(name) };
};
const textResult = (uri, text) => ({ contents: [{ uri, mimeType: "text/markdown", text }] });

for (const [from, { SkillHost, approvalFingerprint, skillRevision }] of HOST_MODULES) {
  test(`${from}: a host against the in-page server: list, load, read, refuse`, () => {
    const s = server();
    const host = new SkillHost();
    host.addServer("local");
    const outcome = host.registerListing("local", call(s, "skills/list"));
    assert.equal(outcome.rejected.length, 0);
    host.registerListing("local", listAll(s));
    const uri = "skill://acme/billing/refunds/SKILL.md";
    const plan = host.planLoad("local", uri);
    assert.equal(plan.uri, uri);
    assert.match(plan.digest, /^sha256:/);
    const loaded = host.load("local", uri, read(s, plan.uri));
    assert.equal(loaded.serverLabel, "local");
    assert.equal(loaded.displayName, "refunds");
    assert.equal(loaded.frontmatter.name, "refunds");
    assert.ok(host.isActive("local", uri));
    const next = host.planRead("local", uri, "templates/refund-email.md");
    assert.equal(next.uri, "skill://acme/billing/refunds/templates/refund-email.md");
    const file = host.read("local", uri, next.uri, read(s, next.uri));
    assert.equal(file.skillUri, uri);
    assert.equal(file.serverLabel, "local");
    assert.equal(file.digest, next.digest);
    refused(() => host.planRead("local", uri, "templates/unlisted.md"), "not-in-manifest", { uri: "skill://acme/billing/refunds/templates/unlisted.md" });
    refused(() => host.planRead("local", uri, "../../other/SKILL.md"), "escapes-root");
    refused(() => host.read("local", uri, next.uri, { contents: [{ uri: next.uri, text: "tampered" }] }), "size-mismatch");
    assert.equal(host.closeWindow("local", uri), true);
    refused(() => host.planRead("local", uri, "templates/refund-email.md"), "no-acting-window", { uri });
  });

  test(`${from}: the same URI on two servers is two skills; names never shadow each other`, () => {
    const host = new SkillHost();
    host.addServer("work");
    host.addServer("home");
    const a = skill("skill://code-review/SKILL.md", [["skill://code-review/a.md", "work"]]);
    const b = skill("skill://code-review/SKILL.md", [["skill://code-review/a.md", "home"]]);
    host.register("work", a.entry);
    host.register("home", b.entry);
    for (const u of ["skill://x/refunds/SKILL.md", "skill://y/refunds/SKILL.md"]) host.register("work", skill(u).entry);
    const names = host.skills().map((s) => `${s.serverLabel}|${s.displayName}`);
    assert.deepEqual(names, ["work|work:code-review", "work|refunds (x)", "work|refunds (y)", "home|home:code-review"]);
    assert.deepEqual(host.lookup("home:code-review"), { serverLabel: "home", uri: "skill://code-review/SKILL.md" });
    assert.deepEqual(host.lookup("refunds (y)"), { serverLabel: "work", uri: "skill://y/refunds/SKILL.md" });
    assert.equal(host.lookup("code-review"), undefined);
    host.load("work", a.entry.uri, a.text);
    // The home server's bytes never verify as the work server's file.
    refused(() => host.read("work", a.entry.uri, "a.md", "home"), "digest-mismatch");
    assert.equal(host.read("work", a.entry.uri, "a.md", "work").text, "work");
    refused(() => host.planRead("home", a.entry.uri, "a.md"), "no-acting-window");
    assert.deepEqual(host.servers(), ["work", "home"]);
    for (const label of ["", "a\nb", " a", "work", "x".repeat(2049)]) refused(() => host.addServer(label), "invalid-argument");
    // A server's origin is a label (a client's default).
    host.addServer("https://skills.example:8443");
    host.removeServer("https://skills.example:8443");
    refused(() => host.register("nowhere", a.entry), "unknown-server");
    refused(() => host.planLoad("work", "skill://none/SKILL.md"), "unknown-skill");
    host.removeServer("home");
    refused(() => host.removeServer("home"), "unknown-server");
  });

  test(`${from}: the acting window holds the entry the skill was loaded from`, () => {
    const host = new SkillHost();
    host.addServer("s");
    const v1 = skill("skill://r/SKILL.md", [["skill://r/a.md", "A"]]);
    host.register("s", v1.entry);
    refused(() => host.read("s", v1.entry.uri, "a.md", "A"), "no-acting-window");
    host.load("s", v1.entry.uri, textResult(v1.entry.uri, v1.text));
    const v2 = skill("skill://r/SKILL.md", [["skill://r/a.md", "A"], ["skill://r/b.md", "B"]]);
    const out = host.refresh("s", v2.entry);
    assert.deepEqual(out, { uri: v1.entry.uri, added: false, changed: true, approvalRevoked: false });
    // A refreshed entry does not widen the open window; loading again does.
    refused(() => host.planRead("s", v1.entry.uri, "b.md"), "not-in-manifest");
    host.load("s", v2.entry.uri, v2.text);
    assert.equal(host.read("s", v1.entry.uri, "b.md", "B").text, "B");
    refused(() => host.refresh("s", skill("skill://q/SKILL.md").entry), "unknown-skill");
    assert.equal(host.forget("s", v1.entry.uri), true);
    assert.equal(host.isActive("s", v1.entry.uri), false);
    assert.equal(host.entry("s", v1.entry.uri), undefined);
  });

  test(`${from}: a nested SKILL.md read as a file is ordinary content; activating it is its own load`, () => {
    const s = server();
    const host = new SkillHost({ requireApproval: true });
    host.addServer("local");
    host.registerListing("local", listAll(s));
    const outer = "skill://release-notes/SKILL.md";
    const inner = "skill://release-notes/changelog-lint/SKILL.md";
    host.approve("local", outer);
    host.load("local", outer, read(s, outer));
    const nested = host.read("local", outer, "changelog-lint/SKILL.md", read(s, inner));
    assert.match(nested.text, /^---\nname: changelog-lint/);
    assert.equal(host.isActive("local", inner), false);
    refused(() => host.planRead("local", inner, "references/rules.md"), "no-acting-window");
    // The enclosing skill's approval does not cover the nested one.
    assert.equal(host.isApproved("local", inner), false);
    refused(() => host.planLoad("local", inner), "not-approved", { uri: inner });
    host.approve("local", inner);
    host.load("local", inner, read(s, inner));
    assert.ok(host.planRead("local", inner, "references/rules.md"));
    refused(() => host.planRead("local", inner, "../templates/release-notes.md"), "escapes-root");
  });

  test(`${from}: approvals are bound to content, revoked on change, and persist as JSON`, () => {
    const host = new SkillHost({ requireApproval: true });
    host.addServer("s");
    const v1 = skill("skill://r/SKILL.md", [["skill://r/a.md", "A"]]);
    host.register("s", v1.entry);
    refused(() => host.planLoad("s", v1.entry.uri), "not-approved");
    const f = host.approve("s", v1.entry.uri);
    assert.equal(f, approvalFingerprint("s", v1.entry));
    assert.ok(host.isApproved("s", v1.entry.uri));
    assert.ok(host.skills()[0].approved);
    // Unknown fields and item order do not matter.
    const same = host.refresh("s", { ...v1.entry, _meta: { ts: 1 }, resources: [...v1.entry.resources].reverse() });
    assert.equal(same.approvalRevoked, false);
    const saved = host.exportApprovals();
    assert.deepEqual(JSON.parse(saved), { format: "skills-edge/approvals", version: 1, approvals: [{ server: "s", uri: v1.entry.uri, fingerprint: f }] });
    const rotated = skill("skill://r/SKILL.md", [["skill://r/a.md", "A2"]]);
    assert.equal(host.refresh("s", rotated.entry).approvalRevoked, true);
    assert.equal(host.isApproved("s", v1.entry.uri), false);
    refused(() => host.planLoad("s", v1.entry.uri), "not-approved");
    // The old approval cannot be restored over the changed entry.
    assert.equal(host.importApprovals(saved), 0);
    // After a restart, a new host restores it before the server is known; it applies to the same content only.
    const next = new SkillHost();
    assert.equal(next.importApprovals(JSON.parse(saved)), 1);
    next.addServer("s");
    next.register("s", v1.entry);
    assert.ok(next.isApproved("s", v1.entry.uri));
    next.addServer("t");
    next.register("t", v1.entry);
    assert.equal(next.isApproved("t", v1.entry.uri), false);
    assert.equal(next.revoke("s", v1.entry.uri), true);
    assert.equal(next.isApproved("s", v1.entry.uri), false);
    refused(() => next.importApprovals("not json"), "invalid-argument");
    refused(() => next.importApprovals({ format: "other", version: 1, approvals: [] }), "invalid-argument");
    const dyn = { uri: "skill://d/SKILL.md", frontmatter: { name: "d", description: "x" }, resources: "dynamic" };
    next.register("s", dyn);
    refused(() => next.approve("s", dyn.uri), "dynamic-not-allowed");
  });

  test(`${from}: dynamic skills follow the host policy`, () => {
    const dyn = { uri: "skill://d/SKILL.md", frontmatter: { name: "d", description: "about d" }, resources: "dynamic" };
    const strict = new SkillHost();
    strict.addServer("s");
    strict.register("s", dyn);
    refused(() => strict.planLoad("s", dyn.uri), "dynamic-not-allowed");
    const open = new SkillHost({ allowDynamic: true });
    open.addServer("s");
    open.register("s", dyn);
    const loaded = open.load("s", dyn.uri, md("d"));
    assert.equal(loaded.verified, false);
    refused(() => open.load("s", dyn.uri, md("d").replace("about d", "other")), "frontmatter-mismatch");
    const plan = open.planRead("s", dyn.uri, "anything.md");
    assert.deepEqual(plan, { uri: "skill://d/anything.md" });
    assert.equal(open.read("s", dyn.uri, "anything.md", "x").verified, false);
    refused(() => open.read("s", dyn.uri, "big.bin", new Uint8Array(16 * 1024 * 1024)), "limit-exceeded");
    refused(() => new SkillHost({ allowDynamics: true }), "invalid-argument");
  });

  test(`${from}: registerListing reports invalid entries; registerGetResult checks the echoed URI`, () => {
    const host = new SkillHost();
    host.addServer("s");
    const a = skill("skill://a/SKILL.md");
    const out = host.registerListing("s", { resultType: "complete", skills: [a.entry, { uri: "skill://b/SKILL.md", frontmatter: { name: "b", description: "x" } }] });
    assert.equal(out.registered.length, 1);
    assert.equal(out.rejected.length, 1);
    assert.equal(out.rejected[0].index, 1);
    assert.equal(out.rejected[0].error.code, "invalid-entry");
    assert.ok(out.rejected[0].error instanceof Error);
    refused(() => host.registerListing("s", { resultType: "input_required", skills: [] }), "invalid-argument");
    const b = skill("skill://b/SKILL.md");
    assert.equal(host.registerGetResult("s", b.entry.uri, { resultType: "complete", skill: b.entry, ttlMs: 0, cacheScope: "public" }).added, true);
    refused(() => host.registerGetResult("s", "skill://c/SKILL.md", { skill: b.entry }), "invalid-entry", { expected: "skill://c/SKILL.md", actual: b.entry.uri });
    refused(() => host.registerGetResult("s", b.entry.uri, {}), "invalid-entry");
    assert.deepEqual(host.entry("s", b.entry.uri), b.entry);
  });

  test(`${from}: limits are checked before anything is fetched`, () => {
    const host = new SkillHost();
    host.addServer("s");
    const big = skill("skill://big/SKILL.md");
    big.entry.resources[0].size = 16 * 1024 * 1024 + 1;
    host.register("s", big.entry);
    refused(() => host.planLoad("s", big.entry.uri), "limit-exceeded", { uri: big.entry.uri });
    refused(() => host.load("s", big.entry.uri, big.text), "limit-exceeded");
  });

  test(`${from}: the embedded catalog fetched from two in-page servers loads under both labels`, () => {
    const one = new SkillsServer({ pageSize: 3 });
    const two = new SkillsServer({ pageSize: 50, cacheScope: "private" });
    const host = new SkillHost();
    host.addServer("one");
    host.addServer("two");
    host.registerListing("one", listAll(one));
    host.registerListing("two", listAll(two));
    const names = host.skills().map((s) => s.displayName);
    assert.equal(new Set(names).size, names.length);
    for (const { serverLabel, uri } of host.skills()) {
      const origin = serverLabel === "one" ? one : two;
      // A nested skill needs its own approval before it is loaded: given here.
      host.approve(serverLabel, uri);
      host.load(serverLabel, uri, read(origin, host.planLoad(serverLabel, uri).uri));
      for (const r of host.entry(serverLabel, uri).resources) {
        const plan = host.planRead(serverLabel, uri, r.uri);
        const file = host.read(serverLabel, uri, r.uri, read(origin, plan.uri));
        assert.equal(file.digest, r.digest);
        assert.equal(digestOf(file.bytes), r.digest);
      }
    }
  });

  test(`${from}: every served entry publishes its revision, which SkillHost and skillRevision compute alike`, () => {
    const entries = listAll(new SkillsServer());
    const host = new SkillHost();
    host.addServer("s");
    host.registerListing("s", entries);
    const byUri = new Map(host.skills().map((s) => [s.uri, s]));
    for (const e of entries) {
      const published = e._meta?.["io.github.skills-edge/revision"];
      assert.match(published, /^sha256:[0-9a-f]{64}$/, e.uri);
      assert.equal(skillRevision(e), published, e.uri);
      assert.equal(byUri.get(e.uri).revision, published, e.uri);
    }
  });
}
