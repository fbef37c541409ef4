// The repository README's code blocks marked `<!-- example: NAME -->`, run as a user runs them:
// shell blocks with bash in a scratch folder inside the project that installed the packed
// tarball (so `npx skills-edge` is this package, offline), JavaScript blocks with node against
// the installed package. Each test also asserts that the block it runs is in the README, so a
// renamed or dropped example fails here.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { SkillsServer } from "skills-edge";
import { REPO } from "./common.mjs";
import { startHttpServer } from "./http-server.mjs";

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
/** The project that installed the tarball (this file runs from its test/ folder). */
const app = dirname(here);
const SKILL_COUNT = 7;

/** The code block (its language and text) that follows `<!-- example: name -->` in README.md. */
function readmeExample(name) {
  assert.ok(REPO, "SKILLS_EDGE_REPO names the repository");
  const readme = readFileSync(join(REPO, "README.md"), "utf8");
  const m = readme.match(new RegExp(`<!-- example: ${name} -->\\s*\`\`\`(\\w*)\\n([\\s\\S]*?)\`\`\``));
  assert.ok(m, `README.md has the example ${name}`);
  return { lang: m[1], code: m[2] };
}

let scratch;

before(() => {
  // Inside the project, so npx finds the installed package and never asks the registry.
  scratch = mkdtempSync(join(app, "readme-"));
  cpSync(join(REPO, "skills"), join(scratch, "my-skills"), { recursive: true });
});

after(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs a shell example in the scratch folder with npx kept offline. */
function sh(code) {
  return run("bash", ["-euo", "pipefail", "-c", code], {
    cwd: scratch,
    timeout: 120_000,
    env: { ...process.env, npm_config_offline: "true", npm_config_update_notifier: "false" },
  });
}

test("the README's check example prints the entries the folder publishes", async () => {
  const { lang, code } = readmeExample("check");
  assert.equal(lang, "sh");
  await sh(code);
  const entries = JSON.parse(readFileSync(join(scratch, "entries.json"), "utf8"));
  assert.ok(Array.isArray(entries));
  assert.equal(entries.length, SKILL_COUNT);
  assert.ok(entries.some((e) => JSON.stringify(e).includes("skill://code-review/SKILL.md")));
});

test("the README's check example fails, naming the file and the rule, on a bad skill", async () => {
  const { code } = readmeExample("check");
  const bad = join(scratch, "my-skills", "broken");
  cpSync(join(REPO, "skills", "code-review"), bad, { recursive: true });
  try {
    await assert.rejects(sh(code), (e) => {
      assert.equal(e.code, 1);
      assert.match(e.stderr, /error\[name-matches-directory\]: .*broken\/SKILL\.md/);
      return true;
    });
  } finally {
    rmSync(bad, { recursive: true, force: true });
  }
});

// What the command writes is served and deployed by its own end-to-end test; here, that the
// README's invocation runs as written and names the Worker as the README says.
test("the README's worker example writes a Worker project", async () => {
  const { lang, code } = readmeExample("worker");
  assert.equal(lang, "sh");
  await sh(code);
  const out = join(scratch, "my-worker");
  const toml = readFileSync(join(out, "wrangler.toml"), "utf8");
  assert.match(toml, /^name = "team-skills"$/m);
  assert.match(toml, /run_worker_first = true/);
  assert.ok(existsSync(join(out, "package.json")));
  assert.ok(readFileSync(join(out, "package.json"), "utf8").includes('"wrangler"'));
});

test("the README's web-page example lists and verifies every skill", async () => {
  const { lang, code } = readmeExample("web-verify");
  assert.equal(lang, "js");
  const placeholder = "https://team-skills.example.workers.dev/mcp";
  assert.ok(code.includes(placeholder), "the example connects to the documented URL");
  const server = await startHttpServer(new SkillsServer());
  const file = join(here, "readme-web-verify-example.mjs");
  writeFileSync(file, code.replace(placeholder, server.url));
  try {
    const { stdout } = await run(process.execPath, [file], { cwd: here, timeout: 60_000 });
    const lines = stdout.trimEnd().split("\n");
    assert.equal(lines[0], `${SKILL_COUNT} skills`);
    const rows = lines.slice(1, -1);
    assert.equal(rows.length, SKILL_COUNT, stdout);
    for (const row of rows) assert.match(row, /^skill:\/\/\S+\/SKILL\.md: verified\s*$/);
    assert.equal(lines.at(-1), "all verified");
  } finally {
    rmSync(file, { force: true });
    await server.close();
  }
});

test("the README's existing-server example answers the skills methods and leaves the rest", async () => {
  const { lang, code } = readmeExample("existing-server");
  assert.equal(lang, "js");
  const command = code.match(/^\/\/ (npx skills-edge pack .*)$/m);
  assert.ok(command, "the example says how to make its pack");
  await sh(command[1]);
  const file = join(scratch, "existing-server.mjs");
  writeFileSync(file, code);
  const cwd = process.cwd();
  process.chdir(scratch); // the example reads skills.pack from the working directory
  let answerSkills;
  try {
    ({ answerSkills } = await import(pathToFileURL(file).href));
  } finally {
    process.chdir(cwd);
  }
  const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "skills/list", params: { _meta: meta } });
  const headers = { "mcp-protocol-version": "2026-07-28", "mcp-method": "skills/list" };
  const reply = answerSkills(body, headers);
  assert.equal(reply.status, 200);
  assert.equal(JSON.parse(reply.body).result.skills.length, SKILL_COUNT);
  const own = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: meta } });
  assert.equal(answerSkills(own, { ...headers, "mcp-method": "tools/list" }), null);
});
