// The GitHub Actions workflow docs/serving.md ships, docs/examples/publish-skills.yml, run as
// written: the file is parsed with `yaml` (the YAML 1.2 parser in node_modules), and the `run:`
// commands of its job run in order with bash as GitHub's runner runs them (`bash --noprofile
// --norc -eo pipefail`), in a copy of a skills folder laid out as the checkout, with the job's
// and each step's `env:`, and with Node 22 (node_modules' node@22) the only tool on PATH beside
// the system's: the install step itself installs the npm package and wrangler with npm.
// Replaced by test values: the secrets (`${{ secrets.NAME }}`: a key made by `skills-edge
// keygen`, tokens that the local store never reads), `SKILLS_EDGE_PACKAGE` (a release's
// tarball URL: this build's `npm pack` of pkg/), `R2` (`--local --persist-to DIR`: wrangler's
// local store instead of the account's bucket) and the runner's own variables (RUNNER_TEMP,
// GITHUB_WORKSPACE). Not run: the two `uses:` actions, GitHub's own (actions/checkout: the
// folder is laid out as its checkout; actions/setup-node with Node 22: node@22 is first on
// PATH); the test checks the file uses those two and no other. After the install step, the
// checkout's node_modules holds this package's version and the wrangler the repository pins;
// the later steps run with npm offline, so `npx` can only run what that step installed.
// Afterwards the bucket's pointer, read back with wrangler, is a release naming the revision
// the workflow printed, signed by the key given as the secret, and the pack it names is there
// with that SHA-256. The key's text never reaches the output and its file is gone. About 30 s
// (the install, and six wrangler runs). Run with Node 22.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash, createPublicKey, verify } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { parse } from "yaml";
import { ROOT } from "./lib/worker.mjs";
import { pae, RELEASE_TYPE, thumbprint } from "./lib/sign.mjs";
import { tempDir } from "../lib/processes.mjs";
import { SKILLS_DIR } from "../judges/folder.mjs";

const BIN = process.env.SKILLS_EDGE_BIN;
const WORKFLOW = join(ROOT, "docs", "examples", "publish-skills.yml");
const WRANGLER = join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");
const dir = tempDir("publish-workflow");
const workspace = join(dir, "repo");
const runnerTemp = join(dir, "runner-temp");
const state = join(dir, "state");

function run(cmd, args, { cwd = dir, env = process.env } = {}) {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, env, timeout: 180_000, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? (err.code ?? 1) : 0, stdout: stdout.toString(), stderr: stderr.toString() }),
    );
  });
}

let workflow;
let job;
let secrets;
let secretKey;
let tarball;

before(async () => {
  assert.ok(BIN, "SKILLS_EDGE_BIN names the native skills-edge (scripts/native-bin.sh)");
  workflow = parse(readFileSync(WORKFLOW, "utf8"));
  job = workflow.jobs.publish;
  mkdirSync(runnerTemp, { recursive: true });
  // The checkout: a repository holding the skills folder (the job's SKILLS_DIR). npm installs
  // into the nearest folder above with a package.json or node_modules: none may be there, or
  // the install step would write outside the checkout.
  cpSync(SKILLS_DIR, join(workspace, job.env.SKILLS_DIR), { recursive: true });
  for (let d = dirname(workspace); ; d = dirname(d)) {
    for (const f of ["package.json", "node_modules"]) assert.ok(!existsSync(join(d, f)), `${join(d, f)} would take npm's install; set TMPDIR elsewhere`);
    if (d === dirname(d)) break;
  }
  // setup-node's Node 22: a folder holding only node@22's `node`, first on PATH.
  mkdirSync(join(dir, "node22"));
  symlinkSync(realpathSync(join(ROOT, "node_modules", ".bin", "node")), join(dir, "node22", "node"));
  // The release's tarball: this build's package, packed as a release packs it.
  const packed = await run("npm", ["pack", "--silent", "--pack-destination", dir], { cwd: join(ROOT, "pkg") });
  assert.equal(packed.code, 0, packed.stderr);
  tarball = join(dir, packed.stdout.trim().split("\n").at(-1));
  assert.ok(existsSync(tarball), tarball);
  assert.equal((await run(BIN, ["keygen", "--out", join(dir, "keys")])).code, 0);
  secretKey = readFileSync(join(dir, "keys", "signing.key"), "utf8").trim();
  secrets = {
    SKILLS_SIGNING_KEY: secretKey,
    CLOUDFLARE_API_TOKEN: "test-token-the-local-store-never-reads",
    CLOUDFLARE_ACCOUNT_ID: "0123456789abcdef0123456789abcdef",
  };
});

after(() => rmSync(dir, { recursive: true, force: true }));

/** A value of the file's `env:` with `${{ secrets.NAME }}` replaced; any other expression fails. */
function expand(value) {
  return String(value).replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expr) => {
    const m = /^secrets\.([A-Z0-9_]+)$/.exec(expr);
    assert.ok(m && m[1] in secrets, `the workflow uses \${{ ${expr} }}, which this test does not give`);
    return secrets[m[1]];
  });
}

/** The `version` of the package.json in `folder` (relative to the repository, or absolute). */
function version(folder) {
  return JSON.parse(readFileSync(join(folder.startsWith("/") ? "" : ROOT, folder, "package.json"), "utf8")).version;
}

/** PATH without any folder of this repository (its node_modules/.bin and the native command). */
function systemPath() {
  return process.env.PATH.split(":")
    .filter((p) => p && !p.startsWith(ROOT) && !(process.env.SKILLS_EDGE_BIN && p === dirname(process.env.SKILLS_EDGE_BIN)))
    .join(":");
}

test("the workflow runs on every push to main, checks before it publishes, and one publish at a time", () => {
  assert.deepEqual(workflow.on.push.branches, ["main"]);
  assert.equal(workflow.concurrency["cancel-in-progress"], false);
  const runs = job.steps.filter((s) => s.run).map((s) => s.run);
  const check = runs.findIndex((r) => /skills-edge check "\$SKILLS_DIR"/.test(r));
  const publish = runs.findIndex((r) => /skills-edge publish "\$SKILLS_DIR"/.test(r));
  assert.ok(check >= 0 && publish > check, "check, then publish");
});

test("its steps' commands, run in order against wrangler's local store, publish the folder: the pointer names the printed revision", { timeout: 300_000 }, async () => {
  const env = {
    ...process.env,
    // setup-node's Node 22 first; npm, npx and bash are the system's.
    PATH: `${join(dir, "node22")}:${systemPath()}`,
    RUNNER_TEMP: runnerTemp,
    GITHUB_WORKSPACE: workspace,
    CI: "true",
    WRANGLER_SEND_METRICS: "false",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    WRANGLER_LOG_PATH: join(dir, "wrangler-logs"),
    npm_config_update_notifier: "false",
  };
  for (const name of ["SKILLS_EDGE_WRANGLER", "SKILLS_SIGNING_KEY", "SKILLS_CATALOG_ID", "SKILLS_EDGE_BIN"]) delete env[name];
  for (const [k, v] of Object.entries(job.env ?? {})) env[k] = expand(v);
  assert.equal(env.R2, "--remote", "the file publishes to the account's bucket");
  env.R2 = `--local --persist-to ${state}`;
  assert.match(env.SKILLS_EDGE_PACKAGE, /^https:\/\/github\.com\/skills-edge\/skills-edge\/releases\/download\/v[0-9.]+\/skills-edge-[0-9.]+\.tgz$/, "a release's tarball");
  assert.ok(env.SKILLS_EDGE_PACKAGE.endsWith(`/skills-edge-${version("pkg")}.tgz`), "the release of this package's version");
  env.SKILLS_EDGE_PACKAGE = tarball;
  let output = "";
  let ran = 0;
  let installed = false;
  for (const step of job.steps) {
    if (step.uses) {
      assert.match(step.uses, /^actions\/(checkout|setup-node)@v\d+$/, "only the checkout and Node");
      if (step.uses.startsWith("actions/setup-node")) assert.equal(String(step.with?.["node-version"]), "22");
      continue;
    }
    const stepEnv = { ...env };
    // After the install, npm is offline: `npx` runs what the install step put in the checkout,
    // or fails, never a download of its own.
    if (installed) stepEnv.npm_config_offline = "true";
    for (const [k, v] of Object.entries(step.env ?? {})) stepEnv[k] = expand(v);
    const r = await run("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", step.run], { cwd: workspace, env: stepEnv });
    output += r.stdout + r.stderr;
    assert.equal(r.code, 0, `step ${JSON.stringify(step.name)} failed:\n${r.stdout}${r.stderr}`);
    ran++;
    if (/^npm install /.test(step.run)) {
      installed = true;
      assert.equal(version(join(workspace, "node_modules", "skills-edge")), version("pkg"), "the install step installed the package");
      assert.equal(version(join(workspace, "node_modules", "wrangler")), version(join("node_modules", "wrangler")), "and the wrangler the repository pins");
    }
  }
  assert.ok(installed, "a step installs the package with npm");
  assert.equal(ran, 3, "the install, the check and the publish ran");
  const rev = /^published revision ([0-9a-f]{64})$/m.exec(output)?.[1];
  assert.ok(rev, `the workflow printed the revision:\n${output}`);
  assert.ok(!output.includes(JSON.parse(secretKey).d), "the signing key's secret never reaches the output");
  assert.deepEqual(readdirSync(runnerTemp), [], "the key's file is removed");

  // The bucket, read back with wrangler from the same local store.
  const get = async (key) => {
    const file = join(dir, "download");
    rmSync(file, { force: true });
    const r = await run(process.execPath, [WRANGLER, "r2", "object", "get", `${env.BUCKET}/${key}`, "--file", file, "--local", "--persist-to", state], { env });
    assert.equal(r.code, 0, `wrangler r2 object get ${key}:\n${r.stdout}${r.stderr}`);
    assert.ok(existsSync(file), key);
    return readFileSync(file);
  };
  const pointer = JSON.parse((await get("default/current.json")).toString("utf8"));
  assert.equal(pointer.payloadType, RELEASE_TYPE);
  const payload = Buffer.from(pointer.payload, "base64");
  const release = JSON.parse(payload.toString("utf8"));
  assert.equal(release.catalog, "default");
  assert.equal(release.pack, rev, "the pointer names the published revision");
  const pub = JSON.parse(readFileSync(join(dir, "keys", "signing.pub"), "utf8"));
  const [sig] = pointer.signatures;
  assert.equal(sig.keyid, thumbprint(pub));
  assert.ok(verify(null, pae(RELEASE_TYPE, payload), createPublicKey({ key: pub, format: "jwk" }), Buffer.from(sig.sig, "base64")), "signed by the secret's key");
  const pack = await get(`default/packs/${rev}.pack`);
  assert.equal(pack.length, release.size);
  assert.equal(createHash("sha256").update(pack).digest("hex"), rev);
});
