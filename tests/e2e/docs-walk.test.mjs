// The README's quick starts walked as a user walks them, with Node only: the packed npm tarball
// (SKILLS_EDGE_TARBALL, or `npm pack` of pkg/ when unset) installed into a scratch project, then
// each block marked `<!-- example: NAME -->` of the deploy, private and signing quick starts
// copied out of README.md and run with bash in that project, with a PATH that holds Node and
// the repository's node_modules/.bin (wrangler) but no cargo or rustc. Only the placeholders are
// substituted: the deployed URL `https://team-skills.<subdomain>.workers.dev/mcp` becomes the
// local `wrangler dev` URL, `npx wrangler dev` is started on a free port by the test (it binds
// 127.0.0.1:8787 otherwise), and `npx wrangler deploy` becomes `npx wrangler deploy --dry-run`
// (no account), and `npm install` (which needs the registry: the project has no lockfile) links
// the repository's node_modules, whose wrangler must be the pinned one. Each step's result is
// checked: the entries, the project's files, the wrangler version, every skill verified (and signed by the key the quick start made), the settings the
// options wrote. Then every user-facing doc (README.md, pkg/README.md, docs/, the examples' and
// the crates' READMEs) is read for the steps that could not work as written: installing from a
// registry where nothing is published, and a `[vars]` snippet that would make a second table.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, startWorker } from "./lib/worker.mjs";
import { allSkills } from "./lib/skills.mjs";
import { tempDir } from "../lib/processes.mjs";
import { installPackage } from "./lib/package.mjs";

let scratch;
let app;
let PATH;

/** The code block after `<!-- example: name -->` in `file` (relative to the repository). */
function block(name, file = "README.md") {
  const text = readFileSync(join(ROOT, file), "utf8");
  const m = text.match(new RegExp(`<!-- example: ${name} -->\\s*\`\`\`(\\w*)\\n([\\s\\S]*?)\`\`\``));
  assert.ok(m, `${file} has the example ${name}`);
  return m[2];
}

/** The first fenced block of `lang` in the README section that starts with `heading`. */
function sectionBlock(heading, lang, nth = 0) {
  const text = readFileSync(join(ROOT, "README.md"), "utf8");
  const start = text.indexOf(`\n### ${heading}\n`);
  assert.ok(start >= 0, `README.md has the section ${heading}`);
  const end = text.indexOf("\n### ", start + 1);
  const section = text.slice(start, end < 0 ? undefined : end);
  const blocks = [...section.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, "g"))].map((m) => m[1]);
  assert.ok(blocks.length > nth, `README.md's ${heading} has a ${lang} block #${nth}`);
  return blocks[nth];
}

/** Runs a shell block in the project, with Node only, npm offline. */
function sh(code, cwd = app) {
  const r = spawnSync("bash", ["-euo", "pipefail", "-c", code], {
    cwd,
    encoding: "utf8",
    timeout: 180_000,
    env: {
      PATH,
      HOME: scratch,
      npm_config_offline: "true",
      // The machine's npm cache (where `npm ci` put wrangler), read offline.
      npm_config_cache: NPM_CACHE,
      npm_config_update_notifier: "false",
      npm_config_fund: "false",
      npm_config_audit: "false",
      CLOUDFLARE_CF_FETCH_ENABLED: "false",
      WRANGLER_SEND_METRICS: "false",
      WRANGLER_HIDE_BANNER: "true",
    },
  });
  if (r.error) throw r.error;
  return r;
}

const NPM_CACHE = execFileSync("npm", ["config", "get", "cache"], { encoding: "utf8" }).trim();
const localUrl = (worker) => `http://127.0.0.1:${worker.port}/mcp`;
const DEPLOYED = "https://team-skills.<subdomain>.workers.dev/mcp";

before(() => {
  scratch = tempDir("docs-walk");
  const nodeBin = join(scratch, "bin");
  mkdirSync(nodeBin);
  symlinkSync(process.execPath, join(nodeBin, "node"));
  // npm and npx are scripts run by `node`: the repository's Node 22, found first on the PATH.
  for (const tool of ["npm", "npx"]) {
    const real = execFileSync("bash", ["-c", `command -v ${tool}`], { encoding: "utf8" }).trim();
    symlinkSync(real, join(nodeBin, tool));
  }
  // The system's tools (bash, coreutils) stay; cargo and rustc live in ~/.cargo/bin, left out.
  PATH = `${nodeBin}:${join(ROOT, "node_modules", ".bin")}:/usr/bin:/bin`;
  // "install the package in the folder's parent": the project that holds my-skills.
  app = installPackage(ROOT, scratch, "team", "team");
  cpSync(join(ROOT, "skills"), join(app, "my-skills"), { recursive: true });
});

after(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test("the deploy quick start, step by step, with Node only", async () => {
  const which = (tool) => spawnSync("/bin/sh", ["-c", `command -v ${tool}`], { env: { PATH }, encoding: "utf8" }).status;
  assert.notEqual(which("cargo"), 0, "no cargo on the PATH");
  assert.notEqual(which("rustc"), 0, "no rustc on the PATH");

  // 1. Check the folder.
  const check = sh(block("check"));
  assert.equal(check.status, 0, check.stderr);
  const entries = JSON.parse(readFileSync(join(app, "entries.json"), "utf8"));
  const skillMds = readdirSync(join(ROOT, "skills"), { recursive: true }).filter((f) => f === "SKILL.md" || f.endsWith("/SKILL.md"));
  assert.deepEqual(entries.map((e) => e.uri).sort(), skillMds.map((f) => `skill://${f}`).sort(), "one entry per SKILL.md");

  // 2. Make the Worker project (FALLBACK included, as the quick start says).
  const made = sh(block("worker"));
  assert.equal(made.status, 0, made.stderr);
  const toml = readFileSync(join(app, "my-worker", "wrangler.toml"), "utf8");
  assert.match(toml, /^name = "team-skills"$/m);
  assert.match(toml, /^FALLBACK = "tools,prompts"$/m);
  assert.equal(toml.match(/^\[vars\]$/gm).length, 1);

  // 5. Try it locally, then deploy: `npm install` as written; `wrangler dev` on a free port.
  const dev = block("dev").split("\n");
  assert.deepEqual(dev.map((l) => l.replace(/\s*#.*$/, "")).filter(Boolean), ["cd my-worker", "npm install", "npx wrangler dev", "npx wrangler deploy"]);
  // `npm install` resolves the project's dependencies on the registry (the project has no
  // lockfile): the test links the repository's node_modules instead, whose wrangler must be
  // the version the project pins.
  symlinkSync(join(ROOT, "node_modules"), join(app, "my-worker", "node_modules"));
  const pinned = JSON.parse(readFileSync(join(app, "my-worker", "package.json"), "utf8")).devDependencies.wrangler;
  assert.equal(JSON.parse(readFileSync(join(app, "my-worker", "node_modules", "wrangler", "package.json"), "utf8")).version, pinned);
  const dry = sh("npx wrangler deploy --dry-run --outdir dist", join(app, "my-worker"));
  assert.equal(dry.status, 0, dry.stdout + dry.stderr);
  assert.match(dry.stdout, /Total Upload/);
  const worker = await startWorker({ config: join(app, "my-worker", "wrangler.toml"), env: { PATH } });
  try {
    assert.ok((await allSkills(worker.port)).length > 0);
    // 7. Check it: from the project that installed the package, the URL substituted.
    const verifyCode = block("verify-deployed");
    assert.ok(verifyCode.includes(DEPLOYED), "the placeholder URL is the one the test substitutes");
    const verified = sh(verifyCode.replace(DEPLOYED, localUrl(worker)), join(app, "my-worker"));
    assert.equal(verified.status, 0, verified.stdout + verified.stderr);
    assert.match(verified.stdout, /verified/);
  } finally {
    await worker.stop();
  }

  // 6. A custom domain: the route and its host added, *.workers.dev kept, the rest untouched.
  const route = sh(sectionBlock("Deploy your skills to Cloudflare Workers with Node only", "sh", 3));
  assert.match(sectionBlock("Deploy your skills to Cloudflare Workers with Node only", "sh", 3), /--route skills\.example\.com/);
  assert.equal(route.status, 0, route.stderr);
  const routed = readFileSync(join(app, "my-worker", "wrangler.toml"), "utf8");
  assert.match(routed, /\[\[routes\]\]\npattern = "skills\.example\.com"\ncustom_domain = true\n/);
  assert.match(routed, /^ALLOWED_HOSTS = "localhost,127\.0\.0\.1,\[::1\],\*\.workers\.dev,skills\.example\.com"$/m);
  assert.match(routed, /^FALLBACK = "tools,prompts"$/m, "the earlier option is kept");
});

test("the private quick start's --var lines land in the one [vars] table", () => {
  const code = sectionBlock("Keep skills private", "sh").replaceAll("<subdomain>", "acme");
  const tomlPath = join(app, "my-worker", "wrangler.toml");
  const before_ = readFileSync(tomlPath, "utf8");
  const r = sh(code);
  assert.equal(r.status, 0, r.stderr);
  const toml = readFileSync(join(app, "my-worker", "wrangler.toml"), "utf8");
  assert.equal(toml.match(/^\[vars\]$/gm).length, 1);
  assert.match(toml, /^AUTH_MODE = "jwt"$/m);
  assert.match(toml, /^AUTH_ISSUER = "https:\/\/auth\.example\.com"$/m);
  assert.match(toml, /^AUTH_AUDIENCE = "https:\/\/team-skills\.acme\.workers\.dev\/mcp"$/m);
  assert.match(toml, /^ALLOWED_HOSTS = ".*\*\.workers\.dev.*"$/m);
  // The next quick start starts from the public Worker again (no authorization server here).
  writeFileSync(tomlPath, before_);
  // The toml block of the same section is the skills folder's file: with the README's skill
  // paths (placeholders) replaced by the paths of this folder's skills, it compiles.
  const rules = sectionBlock("Keep skills private", "toml");
  assert.match(rules, /skills = \["billing\/\*\*", "incident-review"\]/);
  writeFileSync(join(app, "my-skills", "skills-edge.toml"), rules.replace('"billing/**", "incident-review"', '"acme/billing/**", "code-review"'));
  try {
    const checked = sh("npx skills-edge check ./my-skills > /dev/null");
    assert.equal(checked.status, 0, checked.stderr);
    assert.match(checked.stderr, /acme\/billing/, "the audience report names the private skills");
  } finally {
    rmSync(join(app, "my-skills", "skills-edge.toml"));
  }
});

test("the signing quick start: keygen, build signed, verify --trust", async () => {
  const lines = sectionBlock("Sign your skills", "sh").split("\n").filter((l) => l.trim() !== "");
  assert.equal(lines.length, 3);
  const [keygen, build, verify] = lines;
  let r = sh(keygen);
  assert.equal(r.status, 0, r.stderr);
  assert.ok(existsSync(join(app, "keys", "signing.pub")));
  // The project exists: run again as written, it rebuilds worker/ and keeps wrangler.toml.
  r = sh(build);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /signed: \d+ skills, key id /);
  const worker = await startWorker({ config: join(app, "my-worker", "wrangler.toml"), env: { PATH } });
  try {
    assert.ok(verify.includes(DEPLOYED));
    r = sh(verify.replace(DEPLOYED, localUrl(worker)));
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /trusted/);
  } finally {
    await worker.stop();
  }
});

test("pkg/README.md: install from the tarball, then the deploy quick start, with Node only", async () => {
  // A project of its own, as a user of the npm page starts: the Install block run as written,
  // in a folder holding the tarball under the name `npm pack` gives it.
  const project = join(scratch, "landing");
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), `{\n  "name": "landing",\n  "private": true\n}\n`);
  const version = JSON.parse(readFileSync(join(ROOT, "pkg", "package.json"), "utf8")).version;
  const install = block("install", "pkg/README.md").trim();
  assert.equal(install, `npm install ./skills-edge-${version}.tgz`, "the Install block names the tarball npm pack makes");
  const packed = execFileSync("npm", ["pack", "--silent", "--pack-destination", project], { cwd: join(ROOT, "pkg"), encoding: "utf8" }).trim().split("\n").at(-1);
  assert.equal(packed, `skills-edge-${version}.tgz`);
  let r = sh(install, project);
  assert.equal(r.status, 0, r.stderr);
  cpSync(join(ROOT, "skills"), join(project, "my-skills"), { recursive: true });

  const lines = block("deploy", "pkg/README.md").split("\n").map((l) => l.replace(/\s+#.*$/, "")).filter(Boolean);
  assert.equal(lines.length, 4);
  const [check, worker, deploy, verify] = lines;
  r = sh(check, project);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /skill:\/\/code-review/);
  r = sh(worker, project);
  assert.equal(r.status, 0, r.stderr);
  const toml = readFileSync(join(project, "my-worker", "wrangler.toml"), "utf8");
  assert.match(toml, /^name = "team-skills"$/m);
  assert.match(toml, /^FALLBACK = "tools,prompts"$/m);
  // The deploy line: npm install (the repository's node_modules linked, its wrangler the pinned
  // one, as in the README walk above); `wrangler login` needs an account and is not run;
  // `wrangler deploy` runs as a dry run, then the Worker is served by `wrangler dev`.
  assert.equal(deploy, "(cd my-worker && npm install && npx wrangler login && npx wrangler deploy)");
  symlinkSync(join(ROOT, "node_modules"), join(project, "my-worker", "node_modules"));
  const pinned = JSON.parse(readFileSync(join(project, "my-worker", "package.json"), "utf8")).devDependencies.wrangler;
  assert.equal(JSON.parse(readFileSync(join(ROOT, "node_modules", "wrangler", "package.json"), "utf8")).version, pinned);
  r = sh("npx wrangler deploy --dry-run --outdir dist", join(project, "my-worker"));
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const served = await startWorker({ config: join(project, "my-worker", "wrangler.toml"), env: { PATH } });
  try {
    assert.ok(verify.includes(DEPLOYED));
    r = sh(verify.replace(DEPLOYED, localUrl(served)), project);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /verified/);
  } finally {
    await served.stop();
  }
});

test("no doc tells a user to install what is not published, or to add a second [vars] table", () => {
  const docs = ["README.md", "pkg/README.md", "cli/README.md", "rmcp/README.md"]
    .concat(readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`))
    .concat(readdirSync(join(ROOT, "examples")).map((d) => `examples/${d}/README.md`))
    .filter((f) => existsSync(join(ROOT, f)));
  const wrong = [];
  for (const file of docs) {
    const text = readFileSync(join(ROOT, file), "utf8");
    for (const m of text.matchAll(/```(\w*)\n([\s\S]*?)```/g)) {
      const [, lang, code] = m;
      if (/^\s*npm (install|i) (--save-dev )?skills-edge(\s|$)/m.test(code)) wrong.push(`${file}: npm install skills-edge (not on the registry)`);
      if (/cargo install skills-edge/.test(code)) wrong.push(`${file}: cargo install skills-edge… (not on crates.io)`);
      // A toml snippet with a [vars] header, pasted into a wrangler.toml that has one, makes a
      // second table; only a whole file (with its name) may show one.
      if (lang === "toml" && /^\[vars\]/m.test(code) && !/^name = /m.test(code)) wrong.push(`${file}: a [vars] snippet`);
    }
    if (/`npm install skills-edge`/.test(text.replace(/`npm install skills-edge` (does not work|would fetch)/g, ""))) wrong.push(`${file}: \`npm install skills-edge\` in prose`);
  }
  assert.deepEqual(wrong, []);
});
