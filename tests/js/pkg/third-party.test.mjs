// Verifying a skill a third-party server publishes: `@olaservo/ext-skills` 0.14.0 (frontmatter
// read with yaml@2), run by tests/js/peers/ext-skills.mjs on a free 127.0.0.1 port and fetched
// there with the official SDK 2.4 client. The skill's frontmatter uses values that are only
// ambiguous across YAML versions (`reviewed: yes`, `since: 2024-01-01`, `build: 007`) and a
// multi-line quoted description: this project refuses to publish it (a YAML 1.1 host would read
// other values), but a host verifying someone else's skill only asks whether the file matches
// its entry. So SkillHost loads it, and the same skill with one value changed in the entry (what
// a YAML 1.1 publisher, or a tampering proxy, would send) is refused with frontmatter-mismatch.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { SkillHost, verifySkillMd } from "skills-edge";
import { REPO, refused } from "./common.mjs";

const PEER = join(REPO, "tests", "js", "peers", "ext-skills.mjs");
const NATIVE = resolve(REPO || ".", process.env.SKILLS_EDGE_BIN ?? "target/debug/skills-edge");
const URI = "skill://release-notes/SKILL.md";
const GUIDE = "skill://release-notes/references/GUIDE.md";
const SKILL_MD = [
  "---",
  "name: release-notes",
  'description: "Draft release notes from merged pull requests.',
  '  Use when a release is cut."',
  "reviewed: yes",
  "since: 2024-01-01",
  "build: 007",
  "metadata:",
  "  owner: docs-team",
  "---",
  "# Release notes",
  "",
  "Read `references/GUIDE.md`, then list the merged pull requests.",
  "",
].join("\n");
/** What yaml@2 (and so the peer, and the host mode) reads. */
const READ = {
  name: "release-notes",
  description: "Draft release notes from merged pull requests. Use when a release is cut.",
  reviewed: "yes",
  since: "2024-01-01",
  build: 7,
  metadata: { owner: "docs-team" },
};

let tmp;
let fetched;
before(() => {
  assert.ok(REPO, "SKILLS_EDGE_REPO must name the repository root");
  tmp = mkdtempSync(join(tmpdir(), "skills-edge-third-party-"));
  mkdirSync(join(tmp, "skills", "release-notes", "references"), { recursive: true });
  writeFileSync(join(tmp, "skills", "release-notes", "SKILL.md"), SKILL_MD);
  writeFileSync(join(tmp, "skills", "release-notes", "references", "GUIDE.md"), "# Guide\n\nGroup changes by area.\n");
  const run = spawnSync(process.execPath, [PEER, join(tmp, "skills")], { cwd: REPO, encoding: "utf8", timeout: 60_000 });
  if (run.error) throw run.error;
  assert.equal(run.status, 0, `the peer failed:\n${run.stderr}`);
  fetched = JSON.parse(run.stdout);
});
after(() => rmSync(tmp, { recursive: true, force: true }));

const entryOf = () => structuredClone(fetched.listing.skills.find((s) => s.uri === URI));

test("the peer publishes yaml@2's reading of the frontmatter", () => {
  const entry = entryOf();
  assert.ok(entry, "the peer lists the skill");
  assert.equal(JSON.stringify(entry.frontmatter), JSON.stringify(READ));
  assert.equal(fetched.reads[URI].contents[0].text, SKILL_MD, "the peer serves the file as written");
});

test("SkillHost loads the third-party skill and reads its files", () => {
  const host = new SkillHost();
  host.addServer("ola");
  const outcome = host.registerListing("ola", fetched.listing);
  assert.deepEqual(outcome.rejected, []);
  const plan = host.planLoad("ola", URI);
  const loaded = host.load("ola", URI, fetched.reads[plan.uri]);
  assert.equal(JSON.stringify(loaded.frontmatter), JSON.stringify(READ));
  const next = host.planRead("ola", URI, "references/GUIDE.md");
  assert.equal(next.uri, GUIDE);
  assert.equal(host.read("ola", URI, next.uri, fetched.reads[GUIDE]).uri, GUIDE);
  assert.deepEqual(verifySkillMd(entryOf(), fetched.reads[URI]).frontmatter, READ);
});

test("the same skill with one value changed in the entry is refused with frontmatter-mismatch", () => {
  // YAML 1.1's readings (PyYAML: true, a date, octal 7), the value as written, and a tampered one.
  const changes = [
    ["reviewed", true],
    ["since", "2024-01-01T00:00:00.000Z"],
    ["build", "007"],
    ["build", 8],
    ["description", "Draft release notes from merged pull requests.\nUse when a release is cut."],
  ];
  for (const [field, value] of changes) {
    const entry = entryOf();
    entry.frontmatter[field] = value;
    const host = new SkillHost();
    host.addServer("proxy");
    assert.deepEqual(host.registerListing("proxy", [entry]).rejected, []);
    const e = refused(() => host.load("proxy", URI, fetched.reads[URI]), "frontmatter-mismatch", { uri: URI });
    assert.equal(e.field, field, `${field}: ${JSON.stringify(value)}`);
    assert.equal(e.actual, JSON.stringify(READ[field]));
    assert.equal(host.isActive("proxy", URI), false, "nothing is loaded");
  }
});

test("this project refuses to publish the same skill (a YAML 1.1 host would read other values)", () => {
  assert.ok(existsSync(NATIVE), `${NATIVE} is missing: run \`cargo build -p skills-edge-cli\``);
  const run = spawnSync(NATIVE, ["check", join(tmp, "skills")], { encoding: "utf8", timeout: 60_000 });
  assert.equal(run.status, 1, run.stderr);
  assert.match(run.stderr, /error\[frontmatter-yaml11-ambiguous\]: .*release-notes\/SKILL\.md:5: /);
});
