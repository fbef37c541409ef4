// The SDK-subset lint (src/skill/frontmatter/sdk_subset/) against the real reader it
// models: the official MCP TypeScript SDK 2.4 client's `SkillsClient.read`.
//
//   node --test tests/js/sdk-subset.test.mjs     (after `cargo build -p skills-edge-cli`)
//
// Every accepted case of the frontmatter corpus (tests/frontmatter/) whose root is a mapping
// becomes the SKILL.md of one skill (`name` and `description` added in front when the case has
// no usable ones; a root-level field that is not a valid Agent Skills field is renamed `x-…`),
// all in one skills folder. `skills-edge check` (this worktree's native binary,
// $SKILLS_EDGE_BIN) compiles the folder: its stdout is the entries this project publishes, its
// stderr the `frontmatter-sdk-*` warnings. The entries and the files are then served by the
// SDK 2.4 server's SkillsExtension (a hand-built source, so the server itself re-reads nothing)
// to an SDK 2.4 client in the same process, and `SkillsClient.read` verifies each SKILL.md:
// size, digest, and the frontmatter read by the SDK's built-in reader against the entry.
//
// The contract, per case:
// * no warning: the SDK reads the file, and its frontmatter is exactly the published one
//   (JSON.stringify equal to the entry's and to the corpus's yaml@2 expectation);
// * a warning: the SDK refuses the file (`SkillVerificationError`, reason `frontmatter`), at a
//   line the lint names when the SDK names one, or reports it as different when the lint says
//   `frontmatter-sdk-reads-differently`.
// Any disagreement is listed by case name. One child process, everything else in memory:
// bounded and deterministic.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { McpServer, InMemoryTransport } from "@modelcontextprotocol/server";
import { SkillsExtension } from "@modelcontextprotocol/server/ext/skills";
import { Client } from "@modelcontextprotocol/client";
import { SkillsClient, SkillVerificationError } from "@modelcontextprotocol/client/ext/skills";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const BIN = resolve(ROOT, process.env.SKILLS_EDGE_BIN ?? "target/debug/skills-edge");
const CORPUS = join(ROOT, "tests", "frontmatter");

const NAME_RE = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const chars = (s) => [...s].length;
/** Whether the root-level field `key` with value `v` is one a skill entry may carry. */
function validField(key, v) {
  switch (key) {
    case "name":
      return typeof v === "string" && NAME_RE.test(v) && v.length <= 64;
    case "description":
      return typeof v === "string" && chars(v) >= 1 && chars(v) <= 1024;
    case "compatibility":
      return typeof v === "string" && chars(v) >= 1 && chars(v) <= 500;
    case "license":
      return typeof v === "string";
    case "metadata":
      return v !== null && typeof v === "object" && !Array.isArray(v) && Object.values(v).every((x) => typeof x === "string");
    case "allowed-tools":
      return typeof v === "string" || (Array.isArray(v) && v.every((x) => typeof x === "string"));
    default:
      return true;
  }
}

/**
 * The SKILL.md of one corpus case and the frontmatter it must publish: `{ dir, file, expected }`,
 * or `{ skip }` when the case is not a mapping, or `{ error }` when it cannot be made a skill.
 */
function skillOf(name, text, nl, value) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return { skip: "not a mapping" };
  const lines = text.split(nl);
  const first = lines.find((l) => l.trim() !== "" && !l.trimStart().startsWith("#")) ?? "";
  const indent = /^ */.exec(first)[0];
  const flowRoot = first.trimStart().startsWith("{");
  let body = text;
  let expected = { ...value };
  // Rename root-level fields a skill entry may not carry (their lines start at the root's column).
  for (const [key, v] of Object.entries(value)) {
    if (key === "name" || validField(key, v)) continue;
    const at = new RegExp(`^${indent}${key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:`, "m");
    if (flowRoot || !at.test(body)) return { error: `cannot rename the field ${JSON.stringify(key)}` };
    body = body.replace(at, `${indent}x-${key}:`);
    expected = Object.fromEntries(Object.entries(expected).map(([k, w]) => [k === key ? `x-${key}` : k, w]));
  }
  const added = {};
  if (!validField("name", value.name)) {
    if ("name" in value) return { error: "an invalid name" };
    added.name = "case";
  }
  if (!("description" in expected)) added.description = `Corpus case ${name}.`;
  if (Object.keys(added).length) {
    if (flowRoot) {
      const pairs = Object.entries(added).map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}, `).join("");
      body = body.replace("{", `{${pairs}`);
    } else {
      body = Object.entries(added).map(([k, v]) => `${indent}${k}: ${JSON.stringify(v)}${nl}`).join("") + body;
    }
    expected = { ...added, ...expected };
  }
  const skill = added.name ?? value.name;
  return { dir: `${name}/${skill}`, file: `---${nl}${body}${nl}---${nl}# Body${nl}`, expected };
}

function corpusCases() {
  const files = readdirSync(join(CORPUS, "corpus")).filter((f) => f.endsWith(".yaml")).sort();
  const cases = [];
  for (const f of files) {
    const name = f.replace(/(\.crlf)?\.yaml$/, "");
    const expectedFile = join(CORPUS, "expected", `${name}.json`);
    if (!existsSync(expectedFile)) continue; // refused when publishing
    const raw = readFileSync(join(CORPUS, "corpus", f), "utf8");
    const crlf = f.endsWith(".crlf.yaml");
    const text = crlf ? raw.replace(/\n/g, "\r\n") : raw;
    cases.push({ name, ...skillOf(name, text, crlf ? "\r\n" : "\n", JSON.parse(readFileSync(expectedFile, "utf8"))) });
  }
  return cases;
}

/** `warning[rule]: <root>/<path>:<line>: …` lines of `check`'s stderr, by path. */
function warningsByPath(stderr, root) {
  const out = new Map();
  const prefix = root.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const re = new RegExp(`^(warning|error)\\[([a-z0-9-]+)\\]: ${prefix}/([^:]+?)(?::(\\d+))?: `, "gm");
  for (const m of stderr.matchAll(re)) {
    const [, severity, rule, path, line] = m;
    if (!out.has(path)) out.set(path, []);
    out.get(path).push({ severity, rule, line: line === undefined ? undefined : Number(line) });
  }
  return out;
}

/** Serves `entries` and their files' bytes with the SDK's SkillsExtension; returns a SkillsClient. */
async function sdkClient(entries, bytesOf) {
  const byUri = new Map(entries.map((e) => [e.uri, e]));
  const source = {
    async list() {
      return { skills: entries };
    },
    async get(uri) {
      return byUri.get(uri);
    },
    async read(uri) {
      const bytes = bytesOf(uri);
      return bytes === undefined ? undefined : { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes), mimeType: "text/markdown" };
    },
  };
  const server = new McpServer({ name: "skills-edge-entries", version: "0.0.0" });
  new SkillsExtension({ source }).attach(server);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "sdk-subset-test", version: "0.0.0" });
  await client.connect(clientSide);
  return { skills: new SkillsClient(client), close: () => client.close() };
}

test("the SDK-subset lint agrees with SkillsClient.read 2.4 on every accepted corpus case", async (t) => {
  assert.ok(existsSync(BIN), `${BIN} is missing: run \`cargo build -p skills-edge-cli\` first`);
  const cases = corpusCases();
  const broken = cases.filter((c) => c.error).map((c) => `${c.name}: ${c.error}`);
  assert.deepEqual(broken, [], "every accepted mapping case can be made a skill");
  const served = cases.filter((c) => c.dir);
  assert.ok(served.length >= 55, `only ${served.length} cases`);

  const tmp = mkdtempSync(join(tmpdir(), "skills-edge-sdk-subset-"));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  const root = join(tmp, "skills");
  for (const c of served) {
    mkdirSync(join(root, c.dir), { recursive: true });
    writeFileSync(join(root, c.dir, "SKILL.md"), c.file);
  }
  const run = spawnSync(BIN, ["check", root], { encoding: "utf8", timeout: 60_000, maxBuffer: 64 << 20 });
  if (run.error) throw run.error;
  assert.equal(run.status, 0, `skills-edge check failed:\n${run.stderr}`);
  const entries = JSON.parse(run.stdout);
  const warnings = warningsByPath(run.stderr, root);
  const sdkWarnings = (c) => (warnings.get(`${c.dir}/SKILL.md`) ?? []).filter((w) => w.rule.startsWith("frontmatter-sdk-"));
  const otherRules = [...warnings.values()].flat().filter((w) => !w.rule.startsWith("frontmatter-sdk-") && w.rule !== "duplicate-name");
  assert.deepEqual(otherRules, [], "no other findings than the lint's (and duplicate names)");

  const entryOf = new Map(entries.map((e) => [e.uri, e]));
  const { skills, close } = await sdkClient(entries, (uri) => {
    const path = uri.replace(/^skill:\/\//, "");
    return existsSync(join(root, path)) ? readFileSync(join(root, path)) : undefined;
  });
  t.after(close);
  const listing = await skills.list();
  assert.equal(listing.invalid.length, 0);
  assert.equal(listing.skills.length, served.length, "the SDK client accepts every entry");
  const listed = new Map(listing.skills.map((s) => [s.uri, s]));

  const disagreements = [];
  let warned = 0;
  const rulesSeen = new Set();
  for (const c of served) {
    const uri = `skill://${c.dir}/SKILL.md`;
    const entry = entryOf.get(uri);
    const skill = listed.get(uri);
    if (!entry || !skill) {
      disagreements.push(`${c.name}: not published`);
      continue;
    }
    const published = JSON.stringify(entry.frontmatter);
    if (published !== JSON.stringify(c.expected)) {
      disagreements.push(`${c.name}: published ${published}, the corpus expects ${JSON.stringify(c.expected)}`);
      continue;
    }
    const found = sdkWarnings(c);
    let outcome;
    try {
      const file = await skills.read(skill);
      outcome = { ok: true, frontmatter: JSON.stringify(file.frontmatter), verified: file.verified };
    } catch (e) {
      if (!(e instanceof SkillVerificationError)) throw e;
      outcome = { ok: false, reason: e.reason, message: e.message };
    }
    const shown = found.map((w) => `${w.rule}@${w.line ?? "-"}`).join(", ");
    if (found.length === 0) {
      if (!outcome.ok) disagreements.push(`${c.name}: no warning, but the SDK refuses it: ${outcome.message}`);
      else if (outcome.frontmatter !== published) disagreements.push(`${c.name}: no warning, but the SDK reads ${outcome.frontmatter}, published ${published}`);
      else if (!outcome.verified) disagreements.push(`${c.name}: not verified`);
      continue;
    }
    warned++;
    for (const w of found) rulesSeen.add(w.rule);
    if (outcome.ok) {
      disagreements.push(`${c.name}: warned (${shown}), but the SDK reads it as published`);
      continue;
    }
    if (outcome.reason !== "frontmatter") {
      disagreements.push(`${c.name}: the SDK refuses it for ${outcome.reason}: ${outcome.message}`);
      continue;
    }
    const at = /cannot be read: line (\d+): /.exec(outcome.message);
    if (at && !found.some((w) => w.line === Number(at[1]))) {
      disagreements.push(`${c.name}: the SDK stops at line ${at[1]} (${outcome.message}); the lint warns at ${shown}`);
    }
    if (/differs from the skill entry/.test(outcome.message) && !found.some((w) => w.rule === "frontmatter-sdk-reads-differently")) {
      disagreements.push(`${c.name}: the SDK reads it differently (${outcome.message}); the lint warns ${shown}`);
    }
  }
  t.diagnostic(`${served.length} corpus cases served, ${warned} warned by the lint, ${disagreements.length} disagreements`);
  assert.deepEqual(disagreements, [], "the lint and SkillsClient.read 2.4 agree on every case");
  assert.ok(warned >= 15 && warned < served.length, `${warned} of ${served.length} warned`);
  // The corpus exercises every rule of the lint (catalog's `SdkRule::ALL`).
  assert.deepEqual([...rulesSeen].sort(), RULES.slice().sort(), "every lint rule warned on some case");
});

const RULES = [
  "frontmatter-sdk-multiline-quoted",
  "frontmatter-sdk-indent-indicator",
  "frontmatter-sdk-anchor",
  "frontmatter-sdk-proto-key",
  "frontmatter-sdk-explicit-key",
  "frontmatter-sdk-multiline-flow",
  "frontmatter-sdk-flow-mapping",
  "frontmatter-sdk-flow-empty-value",
  "frontmatter-sdk-too-deep",
  "frontmatter-sdk-flow-root",
  "frontmatter-sdk-document-end",
  "frontmatter-sdk-tab-indent",
  "frontmatter-sdk-key-spacing",
  "frontmatter-sdk-unreadable",
  "frontmatter-sdk-reads-differently",
];
