// `npx skills-edge publish` and `gc` against the native `skills-edge publish` and `gc`, both on
// wrangler's local R2 (`--local --persist-to DIR`, a store each, wrangler from the
// repository's node_modules through SKILLS_EDGE_WRANGLER, as tests/e2e/r2.test.mjs runs it):
// the same exit status, stdout and stderr, byte for byte, for
// * refusals before any upload: no signing key, a key file that is missing, no --bucket,
//   --persist-to without --local, a flag of pack's parser it does not know, a flag without its
//   value, gc without --keep, a --keep that is no number, a --rollback too short;
// * a first publish (every asset uploaded), a second publish of an edited folder (the assets
//   already there not uploaded again), `--dry-run` (which changes nothing), `--rollback` to the
//   first revision, `gc --keep 0 --dry-run` and `gc --keep 0`;
// and the two buckets hold the same keys and the same objects under each, byte for byte, read
// back whole as wrangler reads its local store (Miniflare, r2-store.mjs): the pointer, the
// history, each revision's signed release and pack, each asset; after gc, the second
// revision's pack and release are gone from both.
//
// The native binary is $SKILLS_EDGE_BIN, or target/debug/skills-edge under $SKILLS_EDGE_REPO.
// Each publish is four wrangler runs on each store, each mostly wrangler's own start; the
// buckets are read with one Miniflare start each.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PKG_DIR, REPO } from "./common.mjs";
import { readStore } from "./r2-store.mjs";

const NATIVE = resolve(REPO || ".", process.env.SKILLS_EDGE_BIN ?? "target/debug/skills-edge");
const NPM_BIN = join(PKG_DIR, "bin", "skills-edge.mjs");
const WRANGLER = join(REPO || ".", "node_modules", "wrangler", "bin", "wrangler.js");
const BUCKET = "skills-catalogs";
let tmp;
let stores;
let v1;
let v2;
let key;

/** The environment without the build variables, wrangler named by SKILLS_EDGE_WRANGLER and run
 * by the repository's Node 22 (first on PATH: wrangler needs 22.12), as tests/e2e/r2.test.mjs
 * runs it; its logs in the test's folder. */
function envWith(extra = {}) {
  const bin = join(REPO, "node_modules", ".bin");
  const env = {
    ...process.env,
    PATH: `${bin}:${process.env.PATH}`,
    SKILLS_EDGE_WRANGLER: join(bin, "wrangler"),
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    WRANGLER_LOG_PATH: join(tmp, "wrangler-logs"),
    ...extra,
  };
  for (const v of ["SKILLS_SIGNING_KEY", "SKILLS_CATALOG_ID", "SKILLS_STRICT", "SKILLS_ON_INVALID"]) {
    if (!(v in extra)) delete env[v];
  }
  return env;
}

function run(cmd, args, env) {
  return new Promise((done) => {
    execFile(cmd, args, { cwd: tmp, env: envWith(env), encoding: "buffer", timeout: 240_000, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      if (err && typeof err.code !== "number") throw err;
      done({ status: err ? err.code : 0, stdout: stdout.toString("utf8"), stderr: stderr.toString("utf8") });
    });
  });
}

/** `args` run by both commands at once, each on its own local store (`store: false`: neither). */
async function both(args, { env = {}, store = true } = {}) {
  const where = (who) => (store ? ["--local", "--persist-to", stores[who]] : []);
  const [native, npm] = await Promise.all([
    run(NATIVE, [...args, ...where("native")], env),
    run(process.execPath, [NPM_BIN, ...args, ...where("npm")], env),
  ]);
  return { native, npm };
}

/** Both commands' status, stdout and stderr are the same; returns the native run. */
function same({ native, npm }, what) {
  assert.equal(npm.stderr, native.stderr, `${what}: stderr`);
  assert.equal(npm.stdout, native.stdout, `${what}: stdout`);
  assert.equal(npm.status, native.status, `${what}: exit status`);
  return native;
}

/** The object `key` of `who`'s bucket, or null when there is none (read as wrangler reads its
 * local store, r2-store.mjs). */
async function object(who, objectKey) {
  return (await readStore(REPO, stores[who], BUCKET)).get(objectKey) ?? null;
}

/** Every key the history and the revisions name: pointer, history, releases, packs, assets. */
function keysOf(history, revisions) {
  const assets = history
    .toString("utf8")
    .split("\n")
    .slice(1)
    .flatMap((line) => line.split(" ").slice(1))
    .filter((a) => a !== "");
  return [
    "default/current.json",
    "default/history",
    ...revisions.flatMap((r) => [`default/releases/${r}.json`, `default/packs/${r}.pack`]),
    ...[...new Set(assets)].map((a) => `default/assets/${a}`),
  ];
}

/**
 * The two buckets hold the same keys, and the same bytes under each; returns the native one's
 * objects under `keys` (null where there is none).
 */
async function sameBuckets(keys) {
  const native = await readStore(REPO, stores.native, BUCKET);
  const npm = await readStore(REPO, stores.npm, BUCKET);
  assert.deepEqual([...npm.keys()].sort(), [...native.keys()].sort(), "the same keys in both buckets");
  for (const [k, bytes] of native) assert.ok(bytes.equals(npm.get(k)), `${k}: the same object in both buckets`);
  return Object.fromEntries(keys.map((k) => [k, native.get(k) ?? null]));
}

before(async () => {
  assert.ok(REPO, "SKILLS_EDGE_REPO must name the repository root");
  assert.ok(existsSync(NATIVE), `${NATIVE} is missing: run \`bash scripts/native-bin.sh\``);
  assert.ok(existsSync(WRANGLER), `${WRANGLER} is missing: run npm ci in the repository`);
  tmp = mkdtempSync(join(tmpdir(), "skills-edge-publish-cli-"));
  stores = { native: join(tmp, "r2-native"), npm: join(tmp, "r2-npm") };
  // Two revisions of one folder: v2 edits one skill, so most assets are shared.
  v1 = join(tmp, "v1");
  v2 = join(tmp, "v2");
  cpSync(join(REPO, "skills"), v1, { recursive: true });
  cpSync(join(REPO, "skills"), v2, { recursive: true });
  const edited = join(v2, "git-commit-messages", "SKILL.md");
  writeFileSync(edited, `${readFileSync(edited, "utf8")}\nOne more line for the second revision.\n`);
  const made = await run(NATIVE, ["keygen", "--out", join(tmp, "keys")]);
  assert.equal(made.status, 0, made.stderr);
  key = join(tmp, "keys", "signing.key");
});
after(() => rmSync(tmp, { recursive: true, force: true }));

test("refusals: the same message and exit status from both commands, nothing uploaded", async () => {
  const cases = [
    // [what, args, env, store, status, the message's start]
    ["no signing key", ["publish", v1, "--bucket", BUCKET], {}, true, 1, "error: publish needs a signing key: --sign PATH or SKILLS_SIGNING_KEY"],
    ["a key file that is missing", ["publish", v1, "--bucket", BUCKET], { SKILLS_SIGNING_KEY: join(tmp, "none.key") }, true, 1, "error: error[signing-key]: "],
    ["no --bucket", ["publish", v1, "--sign", key], {}, false, 2, "error: --bucket NAME is required"],
    ["--persist-to without --local", ["publish", v1, "--bucket", BUCKET, "--persist-to", tmp], {}, false, 2, "error: --persist-to goes with --local"],
    ["--local and --remote", ["publish", v1, "--bucket", BUCKET, "--remote"], {}, true, 2, "error: --local and --remote name different stores"],
    ["a flag pack's parser does not know", ["publish", v1, "--bucket", BUCKET, "--sign", key, "--n\u00f6pe"], {}, true, 2, "error: "],
    ["a flag without its value", ["publish", v1, "--bucket"], {}, false, 2, "error: --bucket needs a value"],
    ["a catalog id that is not one", ["publish", v1, "--bucket", BUCKET, "--catalog", "../x"], {}, false, 2, "error: --catalog: "],
    ["gc without --keep", ["gc", "--bucket", BUCKET], {}, true, 1, "error: gc needs --keep N"],
    ["a --keep that is no number", ["gc", "--keep", "many", "--bucket", BUCKET], {}, true, 2, 'error: --keep "many" is not a number of revisions'],
    ["gc with a folder", ["gc", "--keep", "1", v1, "--bucket", BUCKET], {}, true, 1, "error: gc takes no "],
    ["a --rollback too short", ["publish", "--rollback", "abc", "--bucket", BUCKET], {}, true, 2, 'error: --rollback "abc": give the revision publish printed'],
    ["--rollback with a folder", ["publish", "--rollback", "abcdef0123", v1, "--bucket", BUCKET], {}, true, 1, "error: --rollback takes no folder or pack flags"],
  ];
  for (const [what, args, env, store, status, start] of cases) {
    const r = same(await both(args, { env, store }), what);
    assert.equal(r.status, status, `${what}: ${r.stderr}`);
    assert.ok(r.stderr.startsWith(start), `${what}: ${r.stderr}`);
    assert.equal(r.stdout, "", what);
    if (status === 2) assert.match(r.stderr, /\n\nusage:\n {2}skills-edge publish <dir> --bucket NAME/, `${what}: then the usage`);
  }
  // --help: the usage on stdout, exit 0.
  const help = same(await both(["publish", "--help"], { store: false }), "--help");
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^usage:\n {2}skills-edge publish <dir>/);
  // The whole program's help lists publish and gc, with the lines `publish --help` prints, on
  // both commands.
  const lines = help.stdout.trim().split("\n").slice(1);
  const whole = await both(["--help"], { store: false });
  for (const [name, r] of Object.entries(whole)) {
    assert.equal(r.status, 0, `${name} --help`);
    assert.ok(r.stdout.includes(`  R2 catalogs (docs/serving.md, "Update skills without redeploying"):\n${lines.join("\n")}\n`), `${name} --help lists publish and gc:\n${r.stdout}`);
  }
  // Nothing reached either bucket.
  assert.equal(await object("native", "default/current.json"), null);
  assert.equal(await object("npm", "default/current.json"), null);
});

// The tests below run in order on the same two buckets (each its own time bound).
const flags = () => ["--sign", key, "--inline-max", "3000", "--bucket", BUCKET];
let rev1;
let rev2;
let keys;
let published;

test("a first publish, then a second whose shared assets are not uploaded again: the same output and the same buckets", async () => {
  // A first publish: every asset uploaded.
  const first = same(await both(["publish", v1, ...flags()]), "first publish");
  assert.equal(first.status, 0, first.stderr);
  rev1 = first.stdout.trim();
  assert.match(rev1, /^[0-9a-f]{64}$/);
  assert.match(first.stderr, / assets \((\d+) to upload, \d+ bytes\)\n/);
  const uploadedFirst = Number(/\((\d+) to upload/.exec(first.stderr)[1]);
  assert.ok(uploadedFirst > 0, first.stderr);
  assert.ok(first.stderr.endsWith(`published ${BUCKET}/default: pointer default/current.json -> revision ${rev1}\n`), first.stderr);

  // A second publish of the edited folder: the assets already there are not uploaded again.
  const second = same(await both(["publish", v2, ...flags()]), "second publish");
  assert.equal(second.status, 0, second.stderr);
  rev2 = second.stdout.trim();
  assert.notEqual(rev2, rev1);
  const uploadedSecond = Number(/\((\d+) to upload/.exec(second.stderr)[1]);
  assert.ok(uploadedSecond < uploadedFirst, second.stderr);

  const history = await object("native", "default/history");
  keys = keysOf(history, [rev1, rev2]);
  published = await sameBuckets(keys);
  for (const k of keys) assert.notEqual(published[k], null, `${k} is in the bucket`);
  assert.deepEqual(published["default/current.json"], published[`default/releases/${rev2}.json`], "the pointer is the second release");
});

test("--dry-run changes nothing, --rollback moves the pointer back, an unknown revision is refused: the same output", async () => {
  assert.ok(published, "the publishes above ran");
  const before = published;
  // --dry-run: what would be uploaded, and nothing changes.
  const dry = same(await both(["publish", v1, ...flags(), "--dry-run"]), "publish --dry-run");
  assert.equal(dry.status, 0, dry.stderr);
  assert.equal(dry.stdout, `${rev1}\n`);
  assert.match(dry.stderr, new RegExp(`would move ${BUCKET}/default/current.json to revision ${rev1}\n$`));
  assert.deepEqual(await object("npm", "default/current.json"), before["default/current.json"]);

  // --rollback to the first revision, by its first 12 characters.
  const back = same(await both(["publish", "--rollback", rev1.slice(0, 12), "--bucket", BUCKET]), "--rollback");
  assert.equal(back.status, 0, back.stderr);
  assert.equal(back.stdout, `${rev1}\n`);
  assert.equal(back.stderr, `rolled back ${BUCKET}/default: pointer -> revision ${rev1}\n`);
  const rolled = await sameBuckets(["default/current.json"]);
  assert.deepEqual(rolled["default/current.json"], before[`default/releases/${rev1}.json`]);

  // A revision no publish printed.
  const unknown = same(await both(["publish", "--rollback", "0123456789ab", "--bucket", BUCKET]), "--rollback of an unknown revision");
  assert.equal(unknown.status, 1);
  assert.match(unknown.stderr, /^error: no published revision starts with "0123456789ab"/);

});

test("gc --keep 0 --dry-run, then gc --keep 0: the same output, and the same buckets after it", async () => {
  assert.ok(published, "the publishes above ran");
  const before = published;
  // gc --keep 0: only the pointer's revision stays; --dry-run first deletes nothing.
  const gcDry = same(await both(["gc", "--keep", "0", "--dry-run", "--bucket", BUCKET]), "gc --dry-run");
  assert.equal(gcDry.status, 0, gcDry.stderr);
  assert.ok(gcDry.stderr.endsWith(`would delete revision ${rev2}\n`), gcDry.stderr);
  assert.notEqual(await object("npm", `default/packs/${rev2}.pack`), null);
  const gc = same(await both(["gc", "--keep", "0", "--bucket", BUCKET]), "gc --keep 0");
  assert.equal(gc.status, 0, gc.stderr);
  assert.match(gc.stderr, new RegExp(`^gc ${BUCKET}/default: keeping 1 revisions \\(the pointer names ${rev1.slice(0, 12)}\\), deleting 1 revisions and \\d+ assets\n$`));
  const after = await sameBuckets(keys);
  assert.equal(after[`default/packs/${rev2}.pack`], null, "the second pack is collected");
  assert.equal(after[`default/releases/${rev2}.json`], null, "the second release is collected");
  assert.deepEqual(after[`default/packs/${rev1}.pack`], before[`default/packs/${rev1}.pack`]);
  assert.deepEqual(after["default/current.json"], before[`default/releases/${rev1}.json`]);
});
