// The README's Node example, taken from the installed package's README.md and run as written.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));

/** The code block that follows `<!-- example: <kind> -->` in the README. */
function example(readme, kind) {
  const m = readme.match(new RegExp(`<!-- example: ${kind} -->\\s*\`\`\`\\w*\\n([\\s\\S]*?)\`\`\``));
  assert.ok(m, `the README has a ${kind} example`);
  return m[1];
}

test("the README's Node example runs", async () => {
  const pkg = dirname(createRequire(import.meta.url).resolve("skills-edge/package.json"));
  const readme = readFileSync(join(pkg, "README.md"), "utf8");
  const file = join(here, "readme-example.mjs");
  writeFileSync(file, example(readme, "node"));
  try {
    const { stdout } = await run(process.execPath, [file], { cwd: here });
    assert.match(stdout, /^code-review: /m);
    assert.match(stdout, /\[docs\] code-review\n/);
    assert.match(stdout, /# Review checklist/);
    assert.match(stdout, /refused: not-in-manifest skill:\/\/code-review\/references\/secrets\.md/);
  } finally {
    rmSync(file, { force: true });
  }
});

test("the README's pack example runs", async () => {
  const pkg = dirname(createRequire(import.meta.url).resolve("skills-edge/package.json"));
  const readme = readFileSync(join(pkg, "README.md"), "utf8");
  const file = join(here, "readme-pack-example.mjs");
  writeFileSync(file, example(readme, "pack"));
  try {
    const { stdout } = await run(process.execPath, [file], { cwd: here });
    assert.equal(stdout, "greeting: 2 files 0\nHello! Welcome!\n");
  } finally {
    rmSync(file, { force: true });
  }
});

test("the README's async example runs", async () => {
  const pkg = dirname(createRequire(import.meta.url).resolve("skills-edge/package.json"));
  const readme = readFileSync(join(pkg, "README.md"), "utf8");
  const file = join(here, "readme-async-example.mjs");
  writeFileSync(file, example(readme, "async"));
  try {
    const { stdout } = await run(process.execPath, [file], { cwd: here });
    const zeros = "sha256:" + createHash("sha256").update(new Uint8Array(1 << 20)).digest("hex");
    assert.equal(stdout, `skill://code-review/references/checklist.md: 65 bytes, verified true\n${zeros}\nrefused: digest-mismatch\n`);
  } finally {
    rmSync(file, { force: true });
  }
});

test("the README's SkillsClient example runs", async () => {
  const pkg = dirname(createRequire(import.meta.url).resolve("skills-edge/package.json"));
  const readme = readFileSync(join(pkg, "README.md"), "utf8");
  const file = join(here, "readme-client-example.mjs");
  writeFileSync(file, example(readme, "client"));
  try {
    const { stdout } = await run(process.execPath, [file], { cwd: here, timeout: 60_000 });
    assert.match(stdout, /^protocol 2026-07-28$/m);
    assert.match(stdout, /^code-review: 2 files, 214 bytes$/m);
    assert.match(stdout, /^loaded code-review \(149 bytes, verified: true\)$/m);
    assert.match(stdout, /^# Review checklist$/m);
    assert.match(stdout, /^refused: not-in-manifest$/m);
    assert.match(stdout, /^verify: exit 0, 7 skills verified$/m);
  } finally {
    rmSync(file, { force: true });
  }
});

test("the README's SDK-client example runs", async () => {
  const pkg = dirname(createRequire(import.meta.url).resolve("skills-edge/package.json"));
  const readme = readFileSync(join(pkg, "README.md"), "utf8");
  // The example imports the official SDK client: make the repository's copy resolvable here.
  const { REPO } = await import("./common.mjs");
  const { existsSync, symlinkSync } = await import("node:fs");
  const link = join(dirname(here), "node_modules", "@modelcontextprotocol");
  if (!existsSync(link)) symlinkSync(join(REPO, "node_modules", "@modelcontextprotocol"), link, "dir");
  const { SkillsServer } = await import("skills-edge");
  const { startHttpServer } = await import("./http-server.mjs");
  const server = await startHttpServer(new SkillsServer());
  const file = join(here, "readme-wrap-example.mjs");
  writeFileSync(file, example(readme, "wrap"));
  try {
    const { stdout } = await run(process.execPath, [file], { cwd: here, timeout: 60_000, env: { ...process.env, SKILLS_URL: server.url } });
    assert.equal(stdout, "refunds: verified true over 2026-07-28\n");
  } finally {
    rmSync(file, { force: true });
    await server.close();
  }
});
