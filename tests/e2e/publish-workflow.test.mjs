// The GitHub Actions workflow docs/serving.md ships, docs/examples/publish-skills.yml, run as
// written: the file is parsed with `yaml` (the YAML 1.2 parser in node_modules), and the `run:`
// commands of its job run in order with bash as GitHub's runner runs them (`bash --noprofile
// --norc -eo pipefail`), in a copy of a skills folder laid out as the checkout, with the job's
// and each step's `env:`. Replaced by test values: the secrets (`${{ secrets.NAME }}`: a key
// made by `skills-edge keygen`, tokens that the local store never reads), `R2` (`--local
// --persist-to DIR`: wrangler's local store instead of the account's bucket) and the runner's
// own variables (RUNNER_TEMP, GITHUB_WORKSPACE). Not run: the `uses:` actions (the folder is
// already the checkout; Node 22 is node_modules' node@22) and the install step, which builds
// the command from the repository and installs wrangler from npm: the test puts this build's
// native skills-edge and node_modules' wrangler on PATH instead, and checks that the step
// installs exactly those two. Afterwards the bucket's pointer, read back with wrangler, is a
// release naming the revision the workflow printed, signed by the key given as the secret,
// and the pack it names is there with that SHA-256. The key's text never reaches the output
// and its file is gone. About 15 s (six wrangler runs). Run with Node 22.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash, createPublicKey, verify } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync } from "node:fs";
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

before(async () => {
  assert.ok(BIN, "SKILLS_EDGE_BIN names the native skills-edge (scripts/native-bin.sh)");
  workflow = parse(readFileSync(WORKFLOW, "utf8"));
  job = workflow.jobs.publish;
  mkdirSync(runnerTemp, { recursive: true });
  // The checkout: a repository holding the skills folder (the job's SKILLS_DIR), where the
  // install step's `npm install wrangler` would leave node_modules.
  cpSync(SKILLS_DIR, join(workspace, job.env.SKILLS_DIR), { recursive: true });
  symlinkSync(join(ROOT, "node_modules"), join(workspace, "node_modules"));
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
    // This build's native command and node_modules' Node 22 and wrangler, as the skipped
    // install and setup-node steps would leave them.
    PATH: `${dirname(BIN)}:${join(ROOT, "node_modules", ".bin")}:${process.env.PATH}`,
    RUNNER_TEMP: runnerTemp,
    GITHUB_WORKSPACE: workspace,
    CI: "true",
    WRANGLER_SEND_METRICS: "false",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    WRANGLER_LOG_PATH: join(dir, "wrangler-logs"),
  };
  for (const name of ["SKILLS_EDGE_WRANGLER", "SKILLS_SIGNING_KEY", "SKILLS_CATALOG_ID"]) delete env[name];
  for (const [k, v] of Object.entries(job.env ?? {})) env[k] = expand(v);
  assert.equal(env.R2, "--remote", "the file publishes to the account's bucket");
  env.R2 = `--local --persist-to ${state}`;
  let output = "";
  let ran = 0;
  for (const step of job.steps) {
    if (step.uses) {
      assert.match(step.uses, /^actions\/(checkout|setup-node)@v\d+$/, "only the checkout and Node");
      continue;
    }
    if (step.id === "install") {
      const lines = step.run.trim().split("\n");
      assert.deepEqual(
        lines.map((l) => l.split(" ").at(-1)),
        ["skills-edge-cli", "wrangler@4.164.0"],
        "the install step installs the native command and the wrangler this build tests",
      );
      const pinned = JSON.parse(readFileSync(join(ROOT, "node_modules", "wrangler", "package.json"), "utf8")).version;
      assert.equal(`wrangler@${pinned}`, lines[1].split(" ").at(-1));
      continue;
    }
    const stepEnv = { ...env };
    for (const [k, v] of Object.entries(step.env ?? {})) stepEnv[k] = expand(v);
    const r = await run("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", step.run], { cwd: workspace, env: stepEnv });
    output += r.stdout + r.stderr;
    assert.equal(r.code, 0, `step ${JSON.stringify(step.name)} failed:\n${r.stdout}${r.stderr}`);
    ran++;
  }
  assert.equal(ran, 2, "the check and the publish ran");
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
