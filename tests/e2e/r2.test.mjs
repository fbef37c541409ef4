// The catalog from R2 (CATALOG_SOURCE = "r2", docs/serving.md "Update skills without
// redeploying") on real workerd: one `wrangler dev` start whose local R2 bucket is filled by the
// native `skills-edge publish --local` (wrangler's own `r2 object`/`r2 bulk put` commands on
// the same local store), never a mock, with CATALOG_REFRESH_MS=300 so a switch is seen within a
// second. In order: with an empty bucket /mcp and the mirror answer 503 with Retry-After;
// publish v1, then the judges (the official SDK 2.4 SkillsClient on both eras, MCP Inspector
// --verify, the `skills` installer on the mirror) pass on it; publish v2 (with assets in the
// bucket) while readers run: every reply is wholly v1's or wholly v2's, the judges pass on v2
// (the installer unpacking archives read from R2), v1's cursor is refused as "the catalog has
// changed" and the mirror's ETag moved; `publish --rollback` to v1, judged by the SDK client,
// MCP Inspector and the installer; then each fault (a
// torn pointer, no pointer, a release signed by another key, an unsigned pack, a truncated
// pack, a pack of another digest, a missing asset) is logged and v1 stays served; `gc --keep 0`
// keeps what the pointer names and deletes the rest. With CATALOGS, a catalog whose last publish
// was refused before its first request is served from its history, one tenant's transcript is
// the same whatever another publishes, and a tenant's own "trust" refuses a release signed
// with CATALOG_TRUST's key. Run with Node 22.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, readFileSync, writeFileSync, appendFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ROOT, copyWorker, startWorker } from "./lib/worker.mjs";
import { allSkills, mcp, send } from "./lib/skills.mjs";
import { judgeInstaller } from "../judges/installer.mjs";
import { signRelease } from "./lib/sign.mjs";
import { tempDir } from "../lib/processes.mjs";
import { judgeSdk, httpTransport } from "../judges/sdk.mjs";
import { judgeInspector } from "../judges/inspector.mjs";
import { published, SKILLS_DIR } from "../judges/folder.mjs";

const BIN = process.env.SKILLS_EDGE_BIN;
const WRANGLER = join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");
const BUCKET = "skills-catalogs";
const REFRESH_MS = 300;
/** How long a switch may take to be seen: many refresh periods on a loaded machine. */
const SWITCH_MS = 20_000;

const dir = tempDir("r2");
const state = join(dir, "state");
const v1 = join(dir, "v1");
const v2 = join(dir, "v2");
let worker;
const env = {
  ...process.env,
  PATH: `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH}`,
  SKILLS_EDGE_WRANGLER: join(ROOT, "node_modules", ".bin", "wrangler"),
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_LOG_PATH: join(dir, "wrangler-logs"),
};
delete env.SKILLS_SIGNING_KEY;
delete env.SKILLS_CATALOG_ID;

function run(cmd, args) {
  return new Promise((resolve) => {
    execFile(cmd, args, { env, cwd: dir, timeout: 120_000, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? (err.code ?? 1) : 0, stdout: stdout.toString(), stderr: stderr.toString() }),
    );
  });
}

/** `skills-edge publish ARGS --bucket --local --persist-to`: the revision it printed. */
async function publish(...args) {
  const r = await run(BIN, ["publish", ...args, "--bucket", BUCKET, "--local", "--persist-to", state]);
  assert.equal(r.code, 0, `publish ${args.join(" ")}:\n${r.stderr}`);
  const rev = r.stdout.trim();
  assert.match(rev, /^[0-9a-f]{64}$/, r.stdout);
  return rev;
}

/** One object of the local bucket written (or, with `null`, deleted) by wrangler itself. */
async function object(key, bytes) {
  const file = join(dir, "object");
  const args = [WRANGLER, "r2", "object"];
  if (bytes === null) args.push("delete", `${BUCKET}/${key}`);
  else {
    writeFileSync(file, bytes);
    args.push("put", `${BUCKET}/${key}`, "--file", file);
  }
  const r = await run(process.execPath, [...args, "--local", "--persist-to", state]);
  assert.equal(r.code, 0, `wrangler r2 object ${args[3]} ${key}:\n${r.stdout}${r.stderr}`);
}

async function getObject(key) {
  const file = join(dir, "download");
  const r = await run(process.execPath, [WRANGLER, "r2", "object", "get", `${BUCKET}/${key}`, "--file", file, "--local", "--persist-to", state]);
  assert.equal(r.code, 0, `wrangler r2 object get ${key}:\n${r.stdout}${r.stderr}`);
  return readFileSync(file);
}

/** A release of `pack` (its SHA-256 hex) signed with the secret JWK text, made with node:crypto. */
const release = (secretText, fields) => signRelease(secretText, fields);

const sha = (b) => createHash("sha256").update(b).digest("hex");

/** `uri@revision` of every skill, following the cursors; `null` when a walk failed. */
async function fingerprint() {
  try {
    const out = [];
    let cursor;
    do {
      const res = await mcp(worker.port, "skills/list", cursor ? { cursor } : {});
      if (res.status !== 200 || !res.json?.result) return null;
      for (const s of res.json.result.skills) out.push(`${s.uri}@${s._meta["io.github.skills-edge/revision"]}`);
      cursor = res.json.result.nextCursor;
    } while (cursor);
    return out.sort().join("\n");
  } catch {
    return null;
  }
}

/** The fingerprint `skills-edge check` gives for a folder, before anything is served. */
async function expected(folder) {
  const r = await run(BIN, ["check", folder]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout)
    .map((s) => `${s.uri}@${s._meta["io.github.skills-edge/revision"]}`)
    .sort()
    .join("\n");
}

async function waitServed(fp, what) {
  const deadline = Date.now() + SWITCH_MS;
  let seen;
  while (Date.now() < deadline) {
    seen = await fingerprint();
    if (seen === fp) return;
    await sleep(100);
  }
  assert.fail(`${what} was not served within ${SWITCH_MS} ms; serving:\n${seen}\n${worker.logTail(30)}`);
}

/**
 * The `skills` installer on the Worker's mirror: every skill it lists installed, each holding
 * exactly its entry's files, byte-equal to `folder`'s (tests/judges/installer.mjs).
 */
async function judgeMirror(folder) {
  const res = await send(worker.port, { path: "/.well-known/agent-skills/index.json" });
  assert.equal(res.status, 200);
  const index = JSON.parse(res.body.toString("utf8"));
  const entries = new Map((await allSkills(worker.port)).map((e) => [e.frontmatter.name, e]));
  const r = await judgeInstaller({ site: `http://localhost:${worker.port}`, index, entries, folder, scratch: dir });
  assert.equal(r.skills, index.skills.length);
  return r;
}

/** The log's length now, for `waitLogged`. */
const logMark = () => readFileSync(worker.log, "utf8").length;

/**
 * Waits until the Worker's log holds `reason` `times` times after `from` (once per refresh;
 * requests drive the refreshes), checking on each request that `fp` is still what is served.
 */
async function waitLogged(reason, times = 2, from = 0, fp) {
  const deadline = Date.now() + SWITCH_MS;
  while (Date.now() < deadline) {
    const seen = await fingerprint();
    if (fp !== undefined) assert.equal(seen, fp, `still served while waiting for ${JSON.stringify(reason)}`);
    const n = readFileSync(worker.log, "utf8").slice(from).split(reason).length - 1;
    if (n >= times) return;
    await sleep(100);
  }
  assert.fail(`the log does not say ${JSON.stringify(reason)} ${times} times:\n${worker.logTail(30)}`);
}

let fp1;
let fp2;
let rev1;
let rev2;
let trusted;
let other;

before(async () => {
  assert.ok(BIN, "SKILLS_EDGE_BIN names the native skills-edge (scripts/native-bin.sh)");
  cpSync(SKILLS_DIR, v1, { recursive: true });
  cpSync(SKILLS_DIR, v2, { recursive: true });
  appendFileSync(join(v2, "git-commit-messages", "SKILL.md"), "\nVersion two of this skill.\n");
  for (const k of ["trusted", "other"]) assert.equal((await run(BIN, ["keygen", "--out", join(dir, k)])).code, 0);
  trusted = readFileSync(join(dir, "trusted", "signing.key"), "utf8");
  other = readFileSync(join(dir, "other", "signing.key"), "utf8");
  const project = join(dir, "project");
  // The build's own pack is bundled (worker/entry.mjs imports it) but never served in r2 mode.
  const config = copyWorker(project);
  mkdirSync(join(project, "worker", "build", "assets"), { recursive: true });
  const pub = readFileSync(join(dir, "trusted", "signing.pub"), "utf8").trim();
  writeFileSync(
    config,
    readFileSync(config, "utf8").replace(
      "[vars]",
      `[[r2_buckets]]\nbinding = "CATALOG_BUCKET"\nbucket_name = "${BUCKET}"\n\n[vars]\nCATALOG_SOURCE = "r2"\nCATALOG_REFRESH_MS = "${REFRESH_MS}"\nPAGE_SIZE = "3"\nCATALOG_TRUST = '${pub}'`,
    ),
  );
  [fp1, fp2] = await Promise.all([expected(v1), expected(v2)]);
  assert.notEqual(fp1, fp2);
  worker = await startWorker({ config, persistTo: state, readyStatus: 503 });
});

after(async () => {
  await worker?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("a catalog from R2 on wrangler dev", { concurrency: false }, () => {
  test("with an empty bucket, /mcp and the mirror answer 503 with Retry-After", async () => {
    for (const path of ["/mcp", "/.well-known/agent-skills/index.json"]) {
      const r = await send(worker.port, { path, method: path === "/mcp" ? "POST" : "GET", headers: { "content-type": "application/json" }, body: path === "/mcp" ? "{}" : undefined });
      assert.equal(r.status, 503, path);
      assert.equal(r.headers["retry-after"], "1", path);
    }
    await waitLogged("the pointer default/current.json is missing", 1, 0, null);
    // A host ALLOWED_HOSTS refuses gets the endpoint's 403 even before any pack is installed.
    const refused = await send(worker.port, { path: "/mcp", method: "POST", host: `evil.example:${worker.port}`, headers: { "content-type": "application/json" }, body: "{}" });
    assert.equal(refused.status, 403);
    assert.deepEqual(JSON.parse(refused.body.toString()), {
      jsonrpc: "2.0",
      error: { code: -32600, message: `Forbidden: the Host "evil.example:${worker.port}" is not served here` },
    });
  });

  test("publish v1: the judges pass on it", { timeout: 300_000 }, async () => {
    rev1 = await publish(v1, "--sign", join(dir, "trusted", "signing.key"));
    await waitServed(fp1, "v1");
    const expect = published(v1);
    for (const era of ["modern", "legacy"]) {
      const s = await judgeSdk({ transport: httpTransport(worker.url), era });
      assert.deepEqual({ skills: s.skills, files: s.files, bytes: s.bytes, dirs: s.dirs }, expect, `SDK 2.4 client, ${era}`);
    }
    const r = await judgeInspector({ target: worker.url, era: "modern", expectedSkills: expect.skills });
    assert.equal(r.files, expect.files);
    await judgeMirror(v1);
  });

  test("publish v2 while readers run: each reply is one revision's, then the judges see v2 and v1's cursor is refused", { timeout: 300_000 }, async () => {
    const page1 = await mcp(worker.port, "skills/list");
    const cursor = page1.json.result.nextCursor;
    assert.ok(cursor, "PAGE_SIZE 3 gives a second page");
    const index1 = await send(worker.port, { path: "/.well-known/agent-skills/index.json" });
    assert.equal(index1.status, 200);
    const bodies = new Set();
    let reading = true;
    const readers = Array.from({ length: 3 }, async () => {
      let n = 0;
      while (reading) {
        const r = await send(worker.port, { path: "/.well-known/agent-skills/index.json" });
        assert.equal(r.status, 200, "served during the switch");
        bodies.add(r.body.toString("utf8"));
        n++;
      }
      return n;
    });
    // Readers of the one file v2 changes, over MCP and the mirror: each read is v1's file or
    // v2's, whole, never a mix or a failure.
    const file = "git-commit-messages/SKILL.md";
    const versions = [readFileSync(join(v1, file), "utf8"), readFileSync(join(v2, file), "utf8")];
    const fileReads = { "resources/read": [], mirror: [] };
    readers.push(
      (async () => {
        while (reading) {
          const r = await mcp(worker.port, "resources/read", { uri: `skill://${file}` });
          assert.equal(r.status, 200, "resources/read during the switch");
          fileReads["resources/read"].push(r.json.result.contents[0].text);
        }
      })(),
      (async () => {
        while (reading) {
          const r = await send(worker.port, { path: `/.well-known/agent-skills/${file}` });
          assert.equal(r.status, 200, "the mirror's file during the switch");
          fileReads.mirror.push(r.body.toString("utf8"));
        }
      })(),
    );
    // Assets in the bucket too: every file above 3,700 bytes (and its archive) is read from R2.
    rev2 = await publish(v2, "--sign", join(dir, "trusted", "signing.key"), "--inline-max", "3700");
    await waitServed(fp2, "v2");
    await sleep(200);
    reading = false;
    const counts = (await Promise.all(readers)).slice(0, 3);
    const index2 = await send(worker.port, { path: "/.well-known/agent-skills/index.json" });
    assert.deepEqual([...bodies].sort(), [index1.body.toString("utf8"), index2.body.toString("utf8")].sort(), `${counts} reads: every index is v1's or v2's whole`);
    for (const [how, texts] of Object.entries(fileReads)) {
      assert.ok(texts.length > 0, `${how}: reads ran during the switch`);
      for (const t of texts) assert.ok(versions.includes(t), `${how}: a read of ${file} during the switch is v1's or v2's whole`);
      assert.equal(texts.at(-1), versions[1], `${how}: v2's file once v2 is served`);
    }
    assert.notEqual(index1.headers.etag, index2.headers.etag, "the mirror's ETag follows the pack");
    const old = await mcp(worker.port, "skills/list", { cursor });
    assert.match(JSON.stringify(old.json.error), /the catalog has changed/);
    const expect = published(v2);
    const s = await judgeSdk({ transport: httpTransport(worker.url), era: "modern" });
    assert.deepEqual({ skills: s.skills, files: s.files, bytes: s.bytes, dirs: s.dirs }, expect, "SDK 2.4 client on v2");
    const r = await judgeInspector({ target: worker.url, era: "modern", expectedSkills: expect.skills });
    assert.equal(r.files, expect.files);
    // Archives above --inline-max come from the bucket's assets.
    const m = await judgeMirror(v2);
    assert.ok(m.archives > 0, "the installer unpacked archives read from R2");
  });

  test("publish --rollback to v1: v1 is served again, v2's cursor is refused", { timeout: 120_000 }, async () => {
    const cursor = (await mcp(worker.port, "skills/list")).json.result.nextCursor;
    assert.equal(await publish("--rollback", rev1.slice(0, 8)), rev1, "the first 8 characters, as docs/serving.md rolls back");
    await waitServed(fp1, "v1 after the rollback");
    const old = await mcp(worker.port, "skills/list", { cursor });
    assert.match(JSON.stringify(old.json.error), /the catalog has changed/);
    const expect = published(v1);
    const s = await judgeSdk({ transport: httpTransport(worker.url), era: "modern" });
    assert.deepEqual({ skills: s.skills, files: s.files, bytes: s.bytes, dirs: s.dirs }, expect, "SDK 2.4 client on v1 again");
    const r = await judgeInspector({ target: worker.url, era: "modern", expectedSkills: expect.skills });
    assert.equal(r.files, expect.files);
    await judgeMirror(v1);
  });

  test("publish --dry-run names what it would upload and changes nothing", { timeout: 60_000 }, async () => {
    const r = await run(BIN, ["publish", v2, "--sign", join(dir, "trusted", "signing.key"), "--inline-max", "3700", "--dry-run", "--bucket", BUCKET, "--local", "--persist-to", state]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), rev2, "the same folder, key and flags make the same revision");
    assert.match(r.stderr, /\(0 to upload, 0 bytes\)/, "v2's assets are in the bucket already");
    assert.match(r.stderr, new RegExp(`would move ${BUCKET}/default/current.json to revision ${rev2}`));
    await sleep(3 * REFRESH_MS);
    assert.equal(await fingerprint(), fp1, "v1 is still served");
  });

  test("every fault is logged and v1 stays served", { timeout: 300_000 }, async () => {
    const v1Release = await getObject("default/current.json");
    const rev2Release = await getObject(`default/releases/${rev2}.json`);
    const p2 = await getObject(`default/packs/${rev2}.pack`);
    const faults = [
      ["a torn pointer", () => object("default/current.json", v1Release.subarray(0, 40)), "the release is torn"],
      ["no pointer", () => object("default/current.json", null), "the pointer default/current.json is missing"],
      [
        "a release signed by another key",
        () => object("default/current.json", release(other, { pack: rev2, size: p2.length })),
        "not signed by a trusted key",
      ],
      [
        "an unsigned pack",
        async () => {
          const pack = join(dir, "unsigned.pack");
          const r = await run(BIN, ["pack", v1, "-o", pack]);
          assert.equal(r.code, 0, r.stderr);
          const bytes = readFileSync(pack);
          await object(`default/packs/${sha(bytes)}.pack`, bytes);
          await object("default/current.json", release(trusted, { pack: sha(bytes), size: bytes.length }));
        },
        "the pack is not signed",
      ],
      [
        "a truncated pack",
        async () => {
          const cut = p2.subarray(0, p2.length - 100);
          const name = sha(Buffer.concat([p2, Buffer.from("t")]));
          await object(`default/packs/${name}.pack`, cut);
          await object("default/current.json", release(trusted, { pack: name, size: p2.length }));
        },
        "(truncated or replaced)",
      ],
      [
        "a pack of another digest",
        async () => {
          const name = sha(Buffer.concat([p2, Buffer.from("d")]));
          await object(`default/packs/${name}.pack`, p2);
          await object("default/current.json", release(trusted, { pack: name, size: p2.length }));
        },
        `the pack's SHA-256 is ${rev2}`,
      ],
      [
        "a missing asset",
        async () => {
          const payload = JSON.parse(Buffer.from(JSON.parse(rev2Release.toString()).payload, "base64"));
          assert.ok(payload.assets.length > 0, "v2 has assets");
          await object(`default/assets/${payload.assets[0][0]}`, null);
          await object("default/current.json", rev2Release);
        },
        "the asset default/assets/",
      ],
    ];
    for (const [what, make, reason] of faults) {
      const from = logMark();
      await make();
      await waitLogged(reason, 2, from, fp1);
      assert.equal(await fingerprint(), fp1, `${what}: v1 is still served`);
    }
    // The secret keys never reach the log.
    const log = readFileSync(worker.log, "utf8");
    for (const k of [trusted, other]) assert.ok(!log.includes(JSON.parse(k).d), "no secret in the log");
  });

  test("an asset deleted outside publish: publishing again trusts the history and is refused; publish --reupload repairs it", { timeout: 180_000 }, async () => {
    // The faults above left v2's first asset deleted from the bucket.
    const flags = [v2, "--sign", join(dir, "trusted", "signing.key"), "--inline-max", "3700", "--bucket", BUCKET, "--local", "--persist-to", state];
    let from = logMark();
    const again = await run(BIN, ["publish", ...flags]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout.trim(), rev2);
    assert.match(again.stderr, /\(0 to upload, 0 bytes\)/, "the history names every asset");
    await waitLogged("is missing (the bucket was changed outside publish: publish again with --reupload)", 1, from, fp1);
    from = logMark();
    const repaired = await run(BIN, ["publish", ...flags, "--reupload"]);
    assert.equal(repaired.code, 0, repaired.stderr);
    assert.equal(repaired.stdout.trim(), rev2);
    const [, n, all] = / (\d+) assets \((\d+) to upload, \d+ bytes\)/.exec(repaired.stderr) ?? [];
    assert.ok(Number(n) > 0 && n === all, `--reupload uploads every asset: ${repaired.stderr}`);
    await waitServed(fp2, "v2 after --reupload");
    // gc and --rollback upload nothing: --reupload is refused there.
    const gc = await run(BIN, ["gc", "--keep", "1", "--reupload", "--bucket", BUCKET, "--local", "--persist-to", state]);
    assert.equal(gc.code, 1);
    assert.match(gc.stderr, /^error: gc takes no --reupload/);
  });

  test("gc --keep 0 deletes every revision but the one the pointer names", { timeout: 120_000 }, async () => {
    await publish("--rollback", rev1);
    await waitServed(fp1, "v1");
    // With the Worker's trust list, as docs/serving.md runs it (with --keep 0 no revision is
    // counted, so it reads the file and opens no release).
    const r = await run(BIN, ["gc", "--keep", "0", "--trust", join(dir, "trusted", "signing.pub"), "--bucket", BUCKET, "--local", "--persist-to", state]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /keeping 1 revisions \(the pointer names [0-9a-f]{12}\), deleting 1 revisions and \d+ assets/);
    await getObject(`default/packs/${rev1}.pack`);
    const gone = await run(process.execPath, [WRANGLER, "r2", "object", "get", `${BUCKET}/default/packs/${rev2}.pack`, "--file", join(dir, "x"), "--local", "--persist-to", state]);
    assert.notEqual(gone.code, 0, "v2's pack was collected");
    await sleep(3 * REFRESH_MS);
    assert.equal(await fingerprint(), fp1, "v1 is still served");
  });
});

describe("r2 mode refuses to start without what it needs", { concurrency: false }, () => {
  /** The project's config with the bucket but without CATALOG_TRUST. */
  const untrusted = () => {
    const file = join(dir, "project", "untrusted.toml");
    const text = readFileSync(join(dir, "project", "wrangler.toml"), "utf8").replace(/^CATALOG_TRUST = .*$/m, "");
    writeFileSync(file, text);
    return file;
  };
  const refused = (options, ...messages) =>
    assert.rejects(startWorker({ readyTimeoutMs: 60_000, readyStatus: 503, ...options }), (err) => {
      assert.match(err.message, /exited/);
      for (const m of messages) assert.ok(err.message.includes(m), `${m}\n${err.message}`);
      return true;
    });

  test("without an R2 binding", () =>
    refused({ vars: { CATALOG_SOURCE: "r2" } }, 'CATALOG_SOURCE is "r2" but the Worker has no R2 binding CATALOG_BUCKET'));

  test("without CATALOG_TRUST", () =>
    refused({ config: untrusted() }, "configuration variable CATALOG_TRUST is invalid (required with CATALOG_SOURCE r2"));

  /** The r2 project's config with `CATALOGS` set to the JSON text `catalogs`. */
  const withCatalogs = (catalogs) => ({ config: join(dir, "project", "wrangler.toml"), vars: { CATALOGS: catalogs } });
  /** A public key of the test's, as its signing.pub text. */
  const pub = (k) => readFileSync(join(dir, k, "signing.pub"), "utf8").trim();

  test("with a catalog mapped by two hosts with different trusted keys", () => {
    const catalogs = `{"h2.localhost":{"catalog":"team-x","trust":${pub("other")}},"h1.localhost":"team-x"}`;
    return refused(
      withCatalogs(catalogs),
      "h1.localhost maps catalog team-x with other trusted keys than h2.localhost does (CATALOG_TRUST, against the \"trust\" of team-x in CATALOGS)",
    );
  });

  test("with a CATALOGS key given twice (JSON.parse would keep the last)", () => {
    const catalogs = `{"b.localhost":{"catalog":"team-b","trust":${pub("other")}},"b.localhost":"team-b"}`;
    return refused(withCatalogs(catalogs), 'the key "b.localhost" is given twice');
  });

  test("with a misspelt \"trust\" in a CATALOGS value", () => {
    const catalogs = `{"b.localhost":{"catalog":"team-b","Trust":${pub("other")}}}`;
    return refused(withCatalogs(catalogs), 'the value of b.localhost has a member "Trust": only "catalog" and "trust" are read');
  });

  test("with CATALOGS given as a table rather than a string of JSON", () => {
    const file = join(dir, "project", "table.toml");
    writeFileSync(file, readFileSync(join(dir, "project", "wrangler.toml"), "utf8").replace(/^(CATALOG_TRUST = .*)$/m, '$1\nCATALOGS = { "a.localhost" = "team-a" }'));
    return refused({ config: file }, "configuration variable CATALOGS is invalid (it is not a string");
  });

  test("with CATALOGS but not CATALOG_SOURCE r2", () =>
    refused({ vars: { CATALOGS: JSON.stringify({ "a.localhost": "team-a" }) } }, 'it is set, but CATALOG_SOURCE is not "r2"'));

  test("with a trust that gives \"keys\" twice (JSON readers differ on which counts)", () => {
    const catalogs = `{"b.localhost":{"catalog":"team-b","trust":{"keys":[${pub("other")}],"keys":[${pub("trusted")}]}}}`;
    return refused(withCatalogs(catalogs), 'gives the member "keys" twice');
  });

  test("with a CATALOGS host that has a port", () =>
    refused(withCatalogs(JSON.stringify({ "a.localhost:8787": "team-a" })), '"a.localhost:8787" is not a host name or *.suffix'));

  test("with a secret key as CATALOG_TRUST, never echoed", async () => {
    const d = JSON.parse(trusted).d;
    await assert.rejects(startWorker({ readyTimeoutMs: 60_000, readyStatus: 503, config: untrusted(), vars: { CATALOG_TRUST: trusted.trim() } }), (err) => {
      // wrangler lists the vars it was given (its own output); the Worker's message never
      // repeats the key.
      const line = err.message.split("\n").find((l) => l.includes("CATALOG_TRUST is invalid"));
      assert.ok(line?.includes("is a secret key: give its public half"), err.message);
      assert.ok(!line.includes(d) && !line.includes(d.slice(0, 12)), line);
      return true;
    });
  });
});

describe("many catalogs on one Worker (CATALOGS)", { concurrency: false }, () => {
  let tenants;
  const store = join(dir, "tenants-state");
  const a = () => `a.localhost:${tenants.port}`;
  const b = () => `b.localhost:${tenants.port}`;
  const bX = join(dir, "b-x");
  const bY = join(dir, "b-y");

  const cold = () => `cold.localhost:${tenants.port}`;

  const publishTo = async (catalog, folder, key = "trusted") => {
    const r = await run(BIN, ["publish", folder, "--catalog", catalog, "--sign", join(dir, key, "signing.key"), "--bucket", BUCKET, "--local", "--persist-to", store]);
    assert.equal(r.code, 0, r.stderr);
  };
  const call = (host, method, params = {}) => mcp(tenants.port, method, params, { host });
  /** `uri@revision` of every skill `host` lists, following the cursors; `null` on a failure. */
  const served = async (host) => {
    const out = [];
    let cursor;
    do {
      const r = await call(host, "skills/list", cursor ? { cursor } : {});
      if (r.status !== 200 || !r.json?.result) return null;
      out.push(...r.json.result.skills.map((s) => `${s.uri}@${s._meta["io.github.skills-edge/revision"]}`));
      cursor = r.json.result.nextCursor;
    } while (cursor);
    return out.sort().join("\n");
  };
  const waitFor = async (host, fp) => {
    const deadline = Date.now() + SWITCH_MS;
    while (Date.now() < deadline) {
      if ((await served(host)) === fp) return;
      await sleep(100);
    }
    assert.fail(`${host} did not serve the expected catalog:\n${tenants.logTail(20)}`);
  };
  /** Everything tenant A's host answers, the other tenant's names and cursor included. */
  const transcript = async (bCursor) => {
    const out = [];
    const keep = (r) => out.push({ status: r.status, etag: r.headers.etag ?? null, body: r.body.toString("utf8") });
    let cursor;
    const uris = [];
    do {
      const r = await call(a(), "skills/list", cursor ? { cursor } : {});
      keep(r);
      for (const s of r.json.result.skills) uris.push(...s.resources.map((x) => x.uri));
      cursor = r.json.result.nextCursor;
    } while (cursor);
    for (const uri of uris) keep(await call(a(), "resources/read", { uri }));
    keep(await send(tenants.port, { path: "/.well-known/agent-skills/index.json", host: a() }));
    keep(await send(tenants.port, { path: "/.well-known/agent-skills/git-commit-messages/SKILL.md", host: a() }));
    keep(await call(a(), "skills/get", { uri: "skill://only-in-b/SKILL.md" }));
    keep(await call(a(), "resources/read", { uri: "skill://only-in-b/SKILL.md" }));
    keep(await call(a(), "skills/list", { cursor: bCursor }));
    return out;
  };

  before(async () => {
    cpSync(join(SKILLS_DIR, "git-commit-messages"), join(bX, "git-commit-messages"), { recursive: true });
    cpSync(join(SKILLS_DIR, "release-notes"), join(bX, "only-in-b"), { recursive: true });
    writeFileSync(join(bX, "only-in-b", "SKILL.md"), readFileSync(join(bX, "only-in-b", "SKILL.md"), "utf8").replace(/^name: .*$/m, "name: only-in-b"));
    for (const s of ["release-notes", "skill-authoring"]) cpSync(join(SKILLS_DIR, s), join(bX, s), { recursive: true });
    cpSync(bX, bY, { recursive: true });
    appendFileSync(join(bY, "git-commit-messages", "SKILL.md"), "\nTenant B's own edit.\n");
    writeFileSync(join(bY, "only-in-b", "extra.md"), "# More of B\n");
    const project = join(dir, "project");
    const config = join(project, "tenants.toml");
    const pub = readFileSync(join(dir, "trusted", "signing.pub"), "utf8").trim();
    // Team B has a signer of its own ("other"), which CATALOG_TRUST does not hold; the others
    // are trusted through CATALOG_TRUST.
    const bPub = JSON.parse(readFileSync(join(dir, "other", "signing.pub"), "utf8"));
    // A wildcard before an exact name of its own domain: the exact name wins, whatever the
    // order of the keys.
    const catalogs = JSON.stringify({
      "a.localhost": "team-a",
      "*.b.localhost": "team-a",
      "b.localhost": { catalog: "team-b", trust: bPub },
      "x.b.localhost": { catalog: "team-b", trust: bPub },
      "cold.localhost": "team-cold",
    });
    writeFileSync(
      config,
      readFileSync(join(project, "wrangler.toml"), "utf8")
        .replace(/^CATALOG_TRUST = .*$/m, `CATALOG_TRUST = '${pub}'\nCATALOGS = '${catalogs}'`)
        .replace(/^ALLOWED_HOSTS = .*$/m, 'ALLOWED_HOSTS = "a.localhost,b.localhost,*.b.localhost,c.localhost,cold.localhost,localhost,127.0.0.1"'),
    );
    await publishTo("team-a", v1);
    await publishTo("team-b", bX, "other");
    // team-cold: a good publish, then a bad one (signed by a key CATALOG_TRUST does not hold),
    // before any request reaches it: its first request is a fresh isolate's.
    await publishTo("team-cold", v1);
    await publishTo("team-cold", v2, "other");
    tenants = await startWorker({ config, persistTo: store, readyStatus: 404 });
  });

  after(async () => {
    await tenants?.stop();
  });

  test("each host gets its own catalog; a host no mapping names gets 404", async () => {
    await waitFor(a(), fp1);
    const onA = await served(a());
    const onB = await served(b());
    assert.ok(onA.includes("skill://git-commit-messages/SKILL.md@"), onA);
    assert.ok(!onA.includes("only-in-b"), "A never lists B's skill");
    assert.ok(onB.includes("skill://only-in-b/SKILL.md@"), onB);
    const other = await send(tenants.port, { path: "/mcp", method: "POST", host: `c.localhost:${tenants.port}`, headers: { "content-type": "application/json" }, body: "{}" });
    assert.equal(other.status, 404);
    assert.match(other.body.toString(), /no skills catalog is served at this host/);
    // The most specific pattern wins: x.b.localhost is named exactly (team B), after the
    // wildcard *.b.localhost (team A) that also names it; y.b.localhost only by the wildcard.
    assert.equal(await served(`x.b.localhost:${tenants.port}`), onB);
    assert.equal(await served(`X.B.LOCALHOST:${tenants.port}`), onB, "any case");
    assert.equal(await served(`y.b.localhost:${tenants.port}`), onA);
    // ALLOWED_HOSTS first: a host it refuses gets its 403, whether or not CATALOGS names it.
    for (const host of [`z.localhost:${tenants.port}`, `a.localhost.:${tenants.port}`]) {
      const refused = await send(tenants.port, { path: "/mcp", method: "POST", host, headers: { "content-type": "application/json" }, body: "{}" });
      assert.equal(refused.status, 403, host);
      assert.match(refused.body.toString(), /Forbidden: the Host \\"[^"]+\\" is not served here/, host);
    }
    // A name with an empty label is no host name: no pattern names it.
    const empty = await send(tenants.port, { path: "/mcp", method: "POST", host: `y..b.localhost:${tenants.port}`, headers: { "content-type": "application/json" }, body: "{}" });
    assert.notEqual(empty.status, 200, "y..b.localhost is served nothing");
  });

  test("a bad publish before a fresh isolate's first request: the newest good release of the history is served", async () => {
    assert.equal(await served(cold()), fp1, "team-cold serves v1, its last good release, not 503");
    const mirror = await send(tenants.port, { path: "/.well-known/agent-skills/index.json", host: cold() });
    assert.equal(mirror.status, 200);
    const said = /catalog team-cold: the pointer team-cold\/current\.json is refused: the release is not signed by a trusted key[^\n]*; serving revision [0-9a-f]{64} of the history instead/;
    const deadline = Date.now() + SWITCH_MS;
    while (!said.test(readFileSync(tenants.log, "utf8")) && Date.now() < deadline) await sleep(100);
    const log = readFileSync(tenants.log, "utf8");
    // The refusal names where the Worker's keys come from (CATALOG_TRUST) and the fix there.
    assert.match(log, /catalog team-cold: the pointer team-cold\/current\.json is refused: the release is not signed by a trusted key \(it names [^;]+; CATALOG_TRUST holds [^)]+\): publish with a key CATALOG_TRUST holds, or add the publisher's public key \(signing\.pub\) to CATALOG_TRUST; serving revision [0-9a-f]{64} of the history instead/);
  });

  test("tenant A's transcript is the same whatever tenant B publishes", { timeout: 120_000 }, async () => {
    const cursorX = (await call(b(), "skills/list")).json.result.nextCursor;
    assert.ok(cursorX, "B's first page has a cursor");
    const before = await transcript(cursorX);
    const fpX = await served(b());
    await publishTo("team-b", bY, "other");
    const deadline = Date.now() + SWITCH_MS;
    while ((await served(b())) === fpX && Date.now() < deadline) await sleep(100);
    assert.notEqual(await served(b()), fpX, "B now serves its second catalog");
    const cursorY = (await call(b(), "skills/list")).json.result.nextCursor;
    assert.notEqual(cursorY, cursorX);
    const afterY = await transcript(cursorY);
    assert.deepEqual(afterY, before, "A's replies, B's names and cursors included, do not depend on B");
    assert.ok(before.length > 20, `${before.length} replies compared`);
  });

  test("a tenant's own trust rules its catalog: a release signed with CATALOG_TRUST's key is refused for B, and B keeps serving", { timeout: 120_000 }, async () => {
    const fpB = await served(b());
    assert.ok(fpB, "B serves its last publish");
    const mark = readFileSync(tenants.log, "utf8").length;
    // Signed by the Worker-wide key, which team A's releases pass; B's own "trust" lacks it.
    await publishTo("team-b", bX, "trusted");
    const said = /catalog team-b: the pointer team-b\/current\.json is refused: the release is not signed by a trusted key \(it names [^;]+; the "trust" of team-b in CATALOGS holds [^)]+\): publish with a key the "trust" of team-b in CATALOGS holds, or add the publisher's public key \(signing\.pub\) to the "trust" of team-b in CATALOGS/;
    // Requests to B drive its refreshes; each is answered from B's last good release.
    const deadline = Date.now() + SWITCH_MS;
    while (!said.test(readFileSync(tenants.log, "utf8").slice(mark)) && Date.now() < deadline) {
      assert.equal(await served(b()), fpB, "B still serves its last good release");
      await sleep(100);
    }
    assert.match(readFileSync(tenants.log, "utf8").slice(mark), said, tenants.logTail(20));
    assert.equal(await served(b()), fpB, "B still serves its last good release");
    await waitFor(a(), fp1);
  });
});
