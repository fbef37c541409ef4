// Headless Chromium serving a pack: a small skills folder (two skills, one with a binary file,
// one with a nested subdirectory) is written to a temporary directory and compiled with the
// package's CLI (`skills-edge pack <dir> -o <file>`), plus a corrupted copy (one byte flipped
// in the middle) and a truncated one. The node:http server of chromium.mjs (127.0.0.1 only)
// serves the page, the package's web build and the three packs; the page (pack-page.mjs)
// fetches /skills.pack from its own origin, serves it from an in-page SkillsServer and verifies
// every file. Here every size and digest the page got is checked against node:crypto over the
// source files, and the damaged packs against their `pack-invalid` errors.
//
// The page is visited on http://skills-edge.test:<port>/ (see chromium.mjs): not a secure
// context, so crypto.subtle is absent and all hashing is the package's own.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, existsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { REPO, PKG, HOST, TYPES, resultPage, script, webFile, startServer, visit } from "./chromium.mjs";

const run = promisify(execFile);
const PAGE = resultPage("skills-edge: a pack in the browser", "/pack-page.mjs");

/** The binary file: every byte value, in a scrambled order (not UTF-8). */
const BLOB = Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 37 + 11) & 0xff));

/** The test folder: path (relative to the skills folder) → content. */
const FOLDER = {
  "alpha-notes/SKILL.md":
    "---\nname: alpha-notes\ndescription: Test skill with a nested reference folder. Use when testing packs in a browser.\n---\n\n# Alpha notes\n\nRead `references/top.md`, then `references/deep/notes.md`.\n",
  "alpha-notes/references/top.md": "# Top\n\nThe first reference.\n",
  "alpha-notes/references/deep/notes.md": "# Deep notes\n\nA reference two folders down.\n",
  "beta-assets/SKILL.md":
    "---\nname: beta-assets\ndescription: Test skill with a binary asset. Use when testing packs in a browser.\n---\n\n# Beta assets\n\nThe bytes are in `assets/blob.bin`.\n",
  "beta-assets/assets/blob.bin": BLOB,
};
const SKILLS = ["skill://alpha-notes/SKILL.md", "skill://beta-assets/SKILL.md"];

const digest = (bytes) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

let tmp;
let server;
let port;
let requests;
/** uri → { size, digest }, from the source files. */
const expected = {};
/** directory uri → its children, from the source folder. */
const expectedDirs = {};
let packs;

/** Writes the folder and returns what it serves, walked the way the page walks the server. */
function writeFolder(root) {
  for (const [path, content] of Object.entries(FOLDER)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  const walk = (dir, uri) => {
    const children = [];
    for (const name of readdirSync(dir, { withFileTypes: true })) {
      const childUri = `${uri}/${name.name}`;
      if (name.isDirectory()) {
        children.push({ uri: childUri, dir: true });
        walk(join(dir, name.name), childUri);
      } else {
        const bytes = readFileSync(join(dir, name.name));
        expected[childUri] = { size: bytes.length, digest: digest(bytes) };
        children.push({ uri: childUri, dir: false, size: bytes.length });
      }
    }
    expectedDirs[uri] = children.sort((a, b) => (a.uri < b.uri ? -1 : 1));
  };
  for (const skill of readdirSync(root)) walk(join(root, skill), `skill://${skill}`);
}

/** `skills-edge pack <dir> -o <out>`: the package's bin, else the repo's node_modules/.bin. */
async function packFolder(dir, out) {
  const bin = join(PKG, "bin", "skills-edge.mjs");
  const [file, args] = existsSync(bin)
    ? [process.execPath, [bin, "pack", dir, "-o", out]]
    : [join(REPO, "node_modules", ".bin", "skills-edge"), ["pack", dir, "-o", out]];
  const { stderr } = await run(file, args, { timeout: 60_000 });
  return stderr;
}

before(async () => {
  assert.ok(existsSync(join(PKG, "web", "skills_edge_bg.wasm")), `the web build is in ${PKG}`);
  tmp = mkdtempSync(join(tmpdir(), "skills-edge-pack-"));
  const skills = join(tmp, "skills");
  writeFolder(skills);
  const stderr = await packFolder(skills, join(tmp, "skills.pack"));
  assert.match(stderr, /: 2 skills, 5 files, \d+ bytes: wrote /, stderr);

  const good = readFileSync(join(tmp, "skills.pack"));
  const corrupt = Buffer.from(good);
  corrupt[corrupt.length >> 1] ^= 0xff;
  const truncated = good.subarray(0, good.length - 64);
  packs = { "/skills.pack": good, "/corrupt.pack": corrupt, "/truncated.pack": truncated };

  server = await startServer((path) => {
    if (path === "/") return [PAGE, TYPES[".html"]];
    if (path === "/pack-page.mjs") return script("pack-page.mjs");
    if (Object.hasOwn(packs, path)) return [packs[path], "application/octet-stream"];
    return webFile(path, "/pkg/web/");
  });
  ({ port, requests } = server);
});

after(async () => {
  await server?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** The page's outcome: one Chromium visit, shared by the tests below. */
let visited;
const page = () => (visited ??= visit(`http://${HOST}:${port}/`));

test("an in-page server serves the pack fetched from the page's origin", { timeout: 120_000 }, async (t) => {
  const r = await page();
  assert.equal(r.origin, `http://${HOST}:${port}`);
  assert.equal(r.isSecureContext, false);
  assert.equal(r.subtle, "undefined");
  t.diagnostic(`isSecureContext ${r.isSecureContext}; crypto.subtle ${r.subtle}; pack ${r.packBytes} bytes`);
  assert.ok(requests.includes(`${HOST}:${port} /skills.pack`), requests.join("\n"));
  assert.ok(requests.includes(`${HOST}:${port} /pkg/web/skills_edge_bg.wasm`), requests.join("\n"));
  assert.equal(r.packBytes, packs["/skills.pack"].length);

  assert.deepEqual(r.supportedVersions, ["2026-07-28"]);
  assert.equal(r.declared, true);
  assert.deepEqual(r.skills, SKILLS);
  assert.equal(r.listPages, 2, "pageSize 1: one page per skill");
  assert.equal(r.rejected, 0);
  for (const uri of SKILLS) assert.equal(r.getMatchesList[uri], true, `skills/get ${uri}`);

  const sizes = Object.values(expected).map((f) => f.size);
  // The format version is the header's (bytes 8..12, little-endian), so a format change moves both.
  const version = packs["/skills.pack"].readUInt32LE(8);
  assert.deepEqual(r.inspected, { version, skills: SKILLS, files: sizes.length, bytes: sizes.reduce((a, b) => a + b, 0) });
});

test("every file's size and digest in the page equal node:crypto's over the source files", { timeout: 120_000 }, async () => {
  const r = await page();
  assert.deepEqual(Object.keys(r.files).sort(), Object.keys(expected).sort());
  for (const [uri, want] of Object.entries(expected)) {
    const f = r.files[uri];
    assert.equal(f.size, want.size, `${uri}: size`);
    assert.equal(f.digest, want.digest, `${uri}: digest`);
    assert.deepEqual(f.listed, want, `${uri}: manifest item`);
    assert.equal(f.verified, true, uri);
    assert.equal(f.host.size, want.size, `${uri}: SkillHost size`);
    assert.equal(f.host.digest, want.digest, `${uri}: SkillHost digest`);
    assert.equal(f.host.verified, true, uri);
    if (uri.endsWith("/SKILL.md")) {
      assert.equal(f.host.name, uri.slice("skill://".length, -"/SKILL.md".length));
    } else {
      assert.equal(f.host.bytesDigest, want.digest, `${uri}: SkillHost bytes`);
    }
    const binary = uri.endsWith(".bin");
    assert.equal(f.asText, !binary, `${uri}: ${binary ? "blob" : "text"}`);
    if (!binary) assert.equal(f.mimeType, "text/markdown", uri);
  }
});

test("resources/directory/read walks each skill's tree, the nested folder included", { timeout: 120_000 }, async () => {
  const r = await page();
  assert.deepEqual(Object.keys(r.dirs).sort(), Object.keys(expectedDirs).sort());
  assert.ok("skill://alpha-notes/references/deep" in r.dirs);
  for (const [dir, want] of Object.entries(expectedDirs)) {
    const got = r.dirs[dir]
      .map((c) => {
        assert.equal(c.name, c.uri.slice(c.uri.lastIndexOf("/") + 1), c.uri);
        const isDir = c.mimeType === "inode/directory";
        return isDir ? { uri: c.uri, dir: true } : { uri: c.uri, dir: false, size: c.size };
      })
      .sort((a, b) => (a.uri < b.uri ? -1 : 1));
    assert.deepEqual(got, want, dir);
  }
});

test("the pack as an ArrayBuffer serves the same", { timeout: 120_000 }, async () => {
  const r = await page();
  assert.equal(r.arrayBuffer.sameListing, true);
  assert.deepEqual(r.arrayBuffer.files, Object.fromEntries(Object.entries(expected).map(([uri, f]) => [uri, f.digest])));
});

function refused(x, code, message, what) {
  assert.equal(typeof x, "object", `${what}: ${JSON.stringify(x)}`);
  assert.equal(x.code, code, `${what}: ${x.message}`);
  assert.equal(x.name, "SkillsEdgeError", what);
  assert.equal(x.isError, true, what);
  assert.match(x.message, message, what);
}

test("a corrupted pack (one byte flipped) is refused: pack-invalid, checksum", { timeout: 120_000 }, async (t) => {
  const r = await page();
  assert.ok(requests.includes(`${HOST}:${port} /corrupt.pack`), requests.join("\n"));
  assert.equal(r.corrupt.bytes, packs["/corrupt.pack"].length);
  refused(r.corrupt.server, "pack-invalid", /checksum/, "new SkillsServer({ pack: Uint8Array })");
  refused(r.corrupt.serverFromBuffer, "pack-invalid", /checksum/, "new SkillsServer({ pack: ArrayBuffer })");
  refused(r.corrupt.inspect, "pack-invalid", /checksum/, "inspectPack");
  assert.equal(r.corrupt.typed, true);
  t.diagnostic(r.corrupt.server.message);
});

test("a truncated pack is refused: pack-invalid, truncated", { timeout: 120_000 }, async (t) => {
  const r = await page();
  assert.ok(requests.includes(`${HOST}:${port} /truncated.pack`), requests.join("\n"));
  assert.equal(r.truncated.bytes, packs["/truncated.pack"].length);
  refused(r.truncated.server, "pack-invalid", /truncated/, "new SkillsServer({ pack: Uint8Array })");
  refused(r.truncated.serverFromBuffer, "pack-invalid", /truncated/, "new SkillsServer({ pack: ArrayBuffer })");
  refused(r.truncated.inspect, "pack-invalid", /truncated/, "inspectPack");
  assert.equal(r.truncated.typed, true);
  t.diagnostic(r.truncated.server.message);
});
