// Deploying a skills folder without Rust: the packed npm tarball (SKILLS_EDGE_TARBALL, or
// `npm pack` of pkg/ when unset) installed into a scratch project, and its `skills-edge worker`
// run with a PATH that holds Node and wrangler (the repository's node_modules/.bin) but no
// cargo or rustc. The Worker project it writes is served with `wrangler dev` (same PATH) and
// checked over HTTP: skills/list, skills/get, every file read back byte-exact through /mcp and
// through the /.well-known/agent-skills/ mirror, the Host names of --allowed-hosts; and
// `wrangler deploy --dry-run` bundles it under 1 MB gzip. The build options pass through
// (--skip-invalid and SKILLS_ON_INVALID=skip, --strict and SKILLS_STRICT=1, --inline-max,
// --name, --allowed-hosts), the user's edits to wrangler.toml and package.json survive a rebuild
// after a skill change (vars, a custom domain, a KV binding, an [env] section; served after it),
// --var and --route change only their lines, a non-empty folder the command did not make is
// refused without --force, and bad arguments
// get exit status 2. The package must be built first (scripts/build-pkg.sh, which also builds
// the prebuilt Worker into pkg/worker/).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { ROOT, deployDryRun, startWorker } from "./lib/worker.mjs";
import { allSkills, mcp, mirrorEveryFile, readEveryFile } from "./lib/skills.mjs";
import { tempDir } from "../lib/processes.mjs";
import { installPackage } from "./lib/package.mjs";

const hex = (bytes) => createHash("sha256").update(bytes).digest("hex");

let scratch;
let PATH;
let app;
let pkg;
let folder;
let project;
let worker;
let made;

/** `skills-edge worker …` of the installed package, with the PATH without cargo. */
function cli(args, env = {}) {
  const r = spawnSync(join(app, "node_modules", ".bin", "skills-edge"), args, {
    cwd: scratch,
    encoding: "utf8",
    timeout: 120_000,
    env: { PATH, HOME: scratch, ...env },
  });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The skills and files a written project's pack holds (the installed package reads it). */
function packOf(dir) {
  return pkg.inspectPack(readFileSync(join(dir, "worker", "build", "catalog.pack")));
}

let n = 0;
/** A skills folder in the scratch directory, from { "rel/path": content }. */
function skillsFolder(files) {
  const root = join(scratch, `skills-${n++}`);
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(join(root, rel, ".."), { recursive: true });
    writeFileSync(join(root, rel), content);
  }
  return root;
}
const skillMd = (name, description = "A skill used by the tests.") =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\nBody.\n`;

before(async () => {
  scratch = tempDir("deploy-npm");
  // Node and wrangler only: a folder holding a link to this Node, then the repository's
  // node_modules/.bin (wrangler, and nothing that compiles Rust).
  const nodeBin = join(scratch, "bin");
  mkdirSync(nodeBin);
  symlinkSync(process.execPath, join(nodeBin, "node"));
  PATH = `${nodeBin}:${join(ROOT, "node_modules", ".bin")}`;
  app = installPackage(ROOT, scratch, "app", "deploy-npm-test");
  pkg = createRequire(join(app, "package.json"))("skills-edge");
  // The project's skills, copied out of the repository, every non-empty file an asset.
  folder = join(scratch, "my-skills");
  cpSync(join(ROOT, "skills"), folder, { recursive: true });
  project = join(scratch, "my-worker");
  made = cli(["worker", folder, "--out", project, "--name", "team-skills", "--allowed-hosts", "skills.example.test,*.team.example.test", "--inline-max", "0"]);
  assert.equal(made.status, 0, made.stderr);
  worker = await startWorker({ config: join(project, "wrangler.toml"), env: { PATH } });
});

after(async () => {
  await worker?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test("the command runs with a PATH that has Node and wrangler but no cargo or rustc", () => {
  const which = (tool) => spawnSync("/bin/sh", ["-c", `command -v ${tool}`], { env: { PATH }, encoding: "utf8" });
  assert.notEqual(which("cargo").status, 0, `cargo is on the PATH: ${which("cargo").stdout}`);
  assert.notEqual(which("rustc").status, 0, `rustc is on the PATH: ${which("rustc").stdout}`);
  assert.equal(which("node").status, 0);
  assert.equal(which("wrangler").status, 0);
  assert.match(made.stderr, /: wrote the Worker "team-skills" into .*my-worker/);
  assert.match(made.stderr, /next: cd .*my-worker && npm install && npx wrangler dev/);
});

test("the project holds the prebuilt Worker, its pack and assets, wrangler.toml and package.json", () => {
  for (const f of ["wrangler.toml", "package.json", ".gitignore", "worker/entry.mjs", "worker/build/skills_edge_worker_bg.wasm", "worker/build/skills_edge_worker.js", "worker/build/catalog.pack"]) {
    assert.ok(existsSync(join(project, f)), `${f} is written`);
  }
  const toml = readFileSync(join(project, "wrangler.toml"), "utf8");
  const repoToml = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
  assert.match(toml, /^name = "team-skills"$/m);
  assert.match(toml, /^main = "worker\/entry.mjs"$/m);
  assert.match(toml, /^run_worker_first = true$/m);
  assert.match(toml, /^binding = "ASSETS"$/m);
  assert.match(toml, /^directory = "worker\/build\/assets"$/m);
  assert.match(toml, /^ALLOWED_HOSTS = "localhost,127\.0\.0\.1,\[::1\],\*\.workers\.dev,skills\.example\.test,\*\.team\.example\.test"$/m);
  // Everything after the name line is the repository's own wrangler.toml but the two lines.
  const rest = (t) => t.slice(t.search(/^name = /m)).replace(/^name = .*$/m, "").replace(/^ALLOWED_HOSTS = .*$/m, "");
  assert.equal(rest(toml), rest(repoToml), "the rules, [assets] and vars are the repository's");
  assert.match(toml, /every file of every skill is public/i);
  const project_ = JSON.parse(readFileSync(join(project, "package.json"), "utf8"));
  const wrangler = JSON.parse(readFileSync(join(ROOT, "node_modules", "wrangler", "package.json"), "utf8")).version;
  assert.equal(project_.name, "team-skills");
  assert.deepEqual(project_.devDependencies, { wrangler }, "wrangler pinned to the version the tests run");
  assert.equal(project_.scripts.deploy, "wrangler deploy");
  // The Worker is the one the package carries.
  for (const f of ["entry.mjs", "build/skills_edge_worker_bg.wasm", "build/skills_edge_worker.js"]) {
    assert.ok(readFileSync(join(project, "worker", f)).equals(readFileSync(join(app, "node_modules", "skills-edge", "worker", f))), f);
  }
  // --inline-max 0: every non-empty file is an asset (raw bytes and JSON string).
  const assets = new Set(readdirSync(join(project, "worker", "build", "assets")));
  const summary = packOf(project);
  let files = 0;
  for (const r of summary.skills.flatMap((s) => s.resources)) {
    if (r.size === 0) continue;
    const h = r.digest.slice("sha256:".length);
    assert.ok(assets.has(h) && assets.has(`${h}.json`), `${r.uri} is an asset`);
    files++;
  }
  assert.ok(files > 0);
});

test("wrangler dev serves it: skills/list, skills/get, every file byte-exact through /mcp and the mirror", async () => {
  const skills = await allSkills(worker.port);
  assert.deepEqual(skills.map((s) => s.uri), packOf(project).skills.map((s) => s.uri));
  assert.ok(skills.length > 0);
  for (const entry of skills) {
    const res = await mcp(worker.port, "skills/get", { uri: entry.uri });
    assert.equal(res.status, 200, res.body.toString());
    assert.deepEqual(res.json.result.skill, entry, `skills/get ${entry.uri}`);
  }
  const viaMcp = await readEveryFile(worker.port, folder, skills);
  const viaMirror = await mirrorEveryFile(worker.port, folder, skills);
  assert.equal(viaMcp.files, skills.reduce((k, s) => k + s.resources.length, 0));
  assert.ok(viaMirror.files > 0);
  console.log(`/mcp: ${viaMcp.files} files (${viaMcp.bytes} bytes); mirror: ${viaMirror.skills} skills, ${viaMirror.files} files`);
});

test("--allowed-hosts adds Host names: they are served, others still refused", async () => {
  for (const host of ["skills.example.test", "a.team.example.test", `localhost:${worker.port}`]) {
    const res = await mcp(worker.port, "skills/list", {}, { host });
    assert.equal(res.status, 200, `${host}: ${res.body}`);
  }
  for (const host of ["evil.example.test", "team.example.test.evil.test"]) {
    const res = await mcp(worker.port, "skills/list", {}, { host });
    assert.equal(res.status, 403, `${host} is refused`);
  }
});

test("wrangler deploy --dry-run bundles the project under 1 MB gzip", async () => {
  const { kib, gzipKiB, stdout } = await deployDryRun(join(project, "wrangler.toml"), { env: { PATH } });
  console.log(`upload: ${kib} KiB, gzip ${gzipKiB} KiB`);
  assert.match(stdout, /env\.ASSETS\s+Assets/, "the Static Assets binding is part of the deployment");
  assert.ok(gzipKiB < 1024, `gzip upload ${gzipKiB} KiB`);
});

test("--skip-invalid and SKILLS_ON_INVALID=skip, --strict and SKILLS_STRICT=1 pass through", () => {
  const dir = skillsFolder({
    "good/SKILL.md": skillMd("good"),
    // The official SDK 2.4 reader refuses a quoted value over two lines: a warning, an error with --strict.
    "wrapped/SKILL.md": `---\nname: wrapped\ndescription: "two\n  lines"\n---\n`,
    // A description over 1024 characters: an error, or the skill left out with --skip-invalid.
    "long/SKILL.md": skillMd("long", "x".repeat(1068)),
  });
  const out = (k) => join(scratch, `out-${k}`);
  const plain = cli(["worker", dir, "--out", out("plain")]);
  assert.equal(plain.status, 1, plain.stderr);
  assert.match(plain.stderr, /error\[description-length\]/);
  assert.ok(!existsSync(out("plain")), "nothing is written");
  const uris = (k) => packOf(out(k)).skills.map((s) => s.uri);
  const cases = [
    ["skip", ["--skip-invalid"], {}, 0, /warning\[skill-left-out\]/, ["skill://good/SKILL.md", "skill://wrapped/SKILL.md"]],
    ["skip-env", [], { SKILLS_ON_INVALID: "skip" }, 0, /warning\[skill-left-out\]/, ["skill://good/SKILL.md", "skill://wrapped/SKILL.md"]],
    ["strict", ["--strict"], {}, 1, /error\[frontmatter-sdk-multiline-quoted\]/],
    ["strict-env", [], { SKILLS_STRICT: "1" }, 1, /error\[frontmatter-sdk-multiline-quoted\]/],
    ["strict-skip", ["--strict", "--skip-invalid"], {}, 0, /warning\[skill-left-out\]/, ["skill://good/SKILL.md"]],
    ["strict-skip-env", ["--skip-invalid"], { SKILLS_STRICT: "1" }, 0, /warning\[skill-left-out\]/, ["skill://good/SKILL.md"]],
  ];
  for (const [k, flags, env, status, pattern, skills] of cases) {
    const r = cli(["worker", dir, "--out", out(k), ...flags], env);
    assert.equal(r.status, status, `${k}: ${r.stderr}`);
    assert.match(r.stderr, pattern, k);
    if (skills) assert.deepEqual(uris(k), skills, k);
    else assert.ok(!existsSync(out(k)), `${k}: nothing is written`);
  }
  assert.ok(readFileSync(join(out("skip"), "worker/build/catalog.pack")).equals(readFileSync(join(out("skip-env"), "worker/build/catalog.pack"))));
});

test("--inline-max decides which files are assets (default 8192), --name names the Worker", () => {
  const big = "b".repeat(9000);
  const dir = skillsFolder({ "a/SKILL.md": skillMd("a"), "a/big.md": big, "a/mid.md": "m".repeat(500) });
  const expect = { undefined: [big], 400: [big, "m".repeat(500)], 100000: [] };
  for (const [max, left] of Object.entries(expect)) {
    const out = join(scratch, `inline-${max}`);
    const r = cli(["worker", dir, "--out", out, ...(max === "undefined" ? [] : ["--inline-max", max])]);
    assert.equal(r.status, 0, r.stderr);
    // The skills' assets, beside the inspector page's folder.
    const raw = readdirSync(join(out, "worker", "build", "assets")).filter((f) => !f.endsWith(".json") && f !== "inspector").sort();
    assert.deepEqual(raw, left.map(hex).sort(), `--inline-max ${max}`);
    assert.match(readFileSync(join(out, "wrangler.toml"), "utf8"), /^name = "skills-edge"$/m, "the default name");
  }
});

test("a user's edits to wrangler.toml and package.json survive adding a skill and running the command again, with and without --force", async () => {
  const dir = skillsFolder({ "first/SKILL.md": skillMd("first") });
  const out = join(scratch, "kept");
  const first = cli(["worker", dir, "--out", out, "--name", "team-skills"]);
  assert.equal(first.status, 0, first.stderr);
  // What users set by hand today: vars (a second one in [vars], ALLOWED_HOSTS changed), a
  // custom domain, a KV binding, an [env.staging] section, comments; a script in package.json.
  const tomlPath = join(out, "wrangler.toml");
  const edited = readFileSync(tomlPath, "utf8")
    .replace(/^ALLOWED_HOSTS = "(.*)"$/m, 'ALLOWED_HOSTS = "$1,skills.example.test" # the team\'s domain\nFALLBACK = "tools"\nINSPECTOR = "on"') +
    '\n# ours\n[[routes]]\npattern = "skills.example.test"\ncustom_domain = true\n\n[[kv_namespaces]]\nbinding = "TEAM_CACHE"\nid = "0123456789abcdef0123456789abcdef"\n\n[env.staging.vars]\nPAGE_SIZE = "3"\n';
  writeFileSync(tomlPath, edited);
  const packagePath = join(out, "package.json");
  const project_ = JSON.parse(readFileSync(packagePath, "utf8"));
  project_.scripts.tail = "wrangler tail";
  writeFileSync(packagePath, `${JSON.stringify(project_, null, 2)}\n`);
  writeFileSync(join(out, ".gitignore"), "node_modules/\n.wrangler/\n.dev.vars\n");
  // A skill added, the command run again as the docs say (no --force), then with --force.
  mkdirSync(join(dir, "second"));
  writeFileSync(join(dir, "second", "SKILL.md"), skillMd("second"));
  for (const force of [[], ["--force"]]) {
    const again = cli(["worker", dir, "--out", out, ...force]);
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stderr, /kept .*wrangler\.toml as it was\n/);
    assert.match(again.stderr, /wrote the Worker "team-skills" into /, "the kept file's name, not the default");
    assert.equal(readFileSync(tomlPath, "utf8"), edited, "wrangler.toml byte for byte");
    assert.equal(JSON.parse(readFileSync(packagePath, "utf8")).scripts.tail, "wrangler tail");
    assert.equal(readFileSync(join(out, ".gitignore"), "utf8"), "node_modules/\n.wrangler/\n.dev.vars\n");
    assert.deepEqual(packOf(out).skills.map((s) => s.uri), ["skill://first/SKILL.md", "skill://second/SKILL.md"]);
  }
  // The kept settings are the ones served: FALLBACK's tools, INSPECTOR's page, the new skill.
  const served = await startWorker({ config: tomlPath, env: { PATH } });
  try {
    const tools = await mcp(served.port, "tools/list", {});
    assert.equal(tools.status, 200, tools.body.toString());
    assert.ok(tools.json.result.tools.length > 0, "FALLBACK = tools is served");
    assert.deepEqual((await allSkills(served.port)).map((s) => s.uri), ["skill://first/SKILL.md", "skill://second/SKILL.md"]);
    const page = await fetch(`http://127.0.0.1:${served.port}/inspector/`);
    assert.equal(page.status, 200, "the inspector page's files are in the project");
    assert.match(await page.text(), /<html/i);
    const host = await mcp(served.port, "skills/list", {}, { host: "skills.example.test" });
    assert.equal(host.status, 200, "the edited ALLOWED_HOSTS is served");
  } finally {
    await served.stop();
  }
});

test("--var and --route change only the lines they name, in a new project and in an edited one", () => {
  const dir = skillsFolder({ "a/SKILL.md": skillMd("a") });
  const out = join(scratch, "settings");
  const made_ = cli(["worker", dir, "--out", out, "--var", "FALLBACK=tools", "--var", "AUTH_SCOPES_CLAIM=roles", "--route", "skills.example.test", "--route", "example.test/skills/*@example.test"]);
  assert.equal(made_.status, 0, made_.stderr);
  const toml = readFileSync(join(out, "wrangler.toml"), "utf8");
  assert.match(toml, /^\[vars\]$/m);
  assert.equal(toml.match(/^\[vars\]$/gm).length, 1, "one [vars] table");
  assert.match(toml, /^FALLBACK = "tools"$/m);
  assert.match(toml, /^AUTH_SCOPES_CLAIM = "roles"$/m);
  assert.match(toml, /^ALLOWED_HOSTS = "localhost,127\.0\.0\.1,\[::1\],\*\.workers\.dev,skills\.example\.test,example\.test"$/m, "*.workers.dev kept, the routes' hosts added");
  assert.match(toml, /\[\[routes\]\]\npattern = "skills\.example\.test"\ncustom_domain = true\n/);
  assert.match(toml, /\[\[routes\]\]\npattern = "example\.test\/skills\/\*"\nzone_name = "example\.test"\n/);
  // Again with a changed value: that line changes, nothing else; routes are not repeated.
  const again = cli(["worker", dir, "--out", out, "--var", "FALLBACK=tools,prompts", "--route", "skills.example.test"]);
  assert.equal(again.status, 0, again.stderr);
  assert.equal(readFileSync(join(out, "wrangler.toml"), "utf8"), toml.replace('FALLBACK = "tools"', 'FALLBACK = "tools,prompts"'));
  // A wrangler.toml whose routes are a key is not rewritten: the message says what to do.
  writeFileSync(join(out, "wrangler.toml"), `routes = ["x.example.test/*"]\n${toml}`);
  const refused = cli(["worker", dir, "--out", out, "--route", "y.example.test"]);
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /wrangler\.toml lists its routes as a key .*add y\.example\.test there by hand/);
});

test("access-needs-auth is printed only while the project sets no token mode", () => {
  const dir = skillsFolder({
    "pub/SKILL.md": skillMd("pub"),
    "priv/SKILL.md": skillMd("priv"),
    "skills-edge.toml": '[[access]]\nskills = ["priv"]\nscopes = ["team"]\n',
  });
  const out = join(scratch, "access-warning");
  const plain = cli(["worker", dir, "--out", out]);
  assert.equal(plain.status, 0, plain.stderr);
  assert.match(plain.stderr, /access-needs-auth/, "private skills and AUTH_MODE none: served to nobody, said");
  const jwt = cli(["worker", dir, "--out", out, "--var", "AUTH_MODE=jwt"]);
  assert.equal(jwt.status, 0, jwt.stderr);
  assert.doesNotMatch(jwt.stderr, /access-needs-auth/, "this run sets AUTH_MODE");
  const kept = cli(["worker", dir, "--out", out]);
  assert.equal(kept.status, 0, kept.stderr);
  assert.doesNotMatch(kept.stderr, /access-needs-auth/, "the kept wrangler.toml sets AUTH_MODE");
  const none = cli(["worker", dir, "--out", out, "--var", "AUTH_MODE=none"]);
  assert.match(none.stderr, /access-needs-auth/, "AUTH_MODE none again");
});

test("a non-empty folder is refused without --force; --force replaces the project and keeps other files", () => {
  const dir = skillsFolder({ "a/SKILL.md": skillMd("a"), "a/x.md": "x".repeat(20) });
  const out = join(scratch, "forced");
  mkdirSync(join(out, "worker", "build", "assets"), { recursive: true });
  writeFileSync(join(out, "NOTES.md"), "mine\n");
  writeFileSync(join(out, "worker", "build", "assets", "stale"), "old\n");
  const refused = cli(["worker", dir, "--out", out]);
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /^error: .*forced is not empty and holds no Worker project of skills-edge worker\n  fix: give a new or empty folder, or --force/);
  assert.ok(!existsSync(join(out, "wrangler.toml")), "nothing is written");
  const forced = cli(["worker", dir, "--out", out, "--force", "--inline-max", "0"]);
  assert.equal(forced.status, 0, forced.stderr);
  assert.ok(!existsSync(join(out, "worker", "build", "assets", "stale")), "the old assets are gone");
  assert.equal(readFileSync(join(out, "NOTES.md"), "utf8"), "mine\n");
  assert.deepEqual(packOf(out).skills.map((s) => s.uri), ["skill://a/SKILL.md"]);
});

test("bad arguments get exit status 2 and a message naming the fix", () => {
  const dir = skillsFolder({ "a/SKILL.md": skillMd("a") });
  const out = join(scratch, "never");
  const cases = [
    [["worker", dir], /^error: worker needs --out <dir>/],
    [["worker", "--out", out], /^error: worker needs a skills folder/],
    [["worker", dir, "--out", out, "--name", "Team_Skills"], /^error: --name "Team_Skills" is not a Worker name: use lowercase letters/],
    [["worker", dir, "--out", out, "--inline-max", "8k"], /^error: --inline-max "8k" is not a number of bytes: use a decimal integer/],
    [["worker", dir, "--out", out, "--allowed-hosts", 'a.test,"b'], /^error: --allowed-hosts: "\\"b" is not a host name/],
    [["worker", dir, "--out", out, "--frobnicate"], /^error: unknown option "--frobnicate"/],
    [["worker", dir, "--out"], /^error: --out needs a folder/],
    [["worker", dir, "--out", out, "--var", "FALL_BACK=tools"], /^error: --var: .*FALLBACK/],
    [["worker", dir, "--out", out, "--var", "FALLBACK"], /^error: --var "FALLBACK" has no '='/],
    [["worker", dir, "--out", out, "--route", "example.test/*"], /^error: --route "example\.test\/\*" is a pattern without its zone/],
  ];
  for (const [args, pattern] of cases) {
    const r = cli(args);
    assert.equal(r.status, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, pattern);
    assert.match(r.stderr, /skills-edge worker <dir> --out <dir>/, "the usage follows");
  }
  assert.ok(!existsSync(out), "nothing is written");
});
