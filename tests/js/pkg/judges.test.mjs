// External judges of the package's SkillsServer, as installed from the tarball, on both
// protocol eras (tests/judges/ in the repository):
//
// * the official TypeScript SDK client 2.4 (SkillsClient) through an in-process transport:
//   each message the client sends is handed to `server.handle(message)` and the reply object
//   is delivered back, the way an in-page host binds to an in-page server (no HTTP);
// * MCP Inspector 2.12 `--cli … --method skills/list --verify` over stdio: it spawns
//   stdio-server.mjs (this package's SkillsServer answering each stdin line with
//   `handleText`), since the Inspector needs a URL or a command to run.
//
// Both servers have two entries per page, so every list is walked through its cursors.
//
// Then the controls (each judge refuses a server whose content differs from its entries) and
// the one known gap: YAML 1.2 frontmatter that the compiler publishes (yaml@2 reads it the
// same way) but the SDK's built-in YAML subset refuses, so SkillsClient.read fails on it
// unless it is given yaml@2 as its parser. The gap is the SDK client's, not the server's:
// the Inspector, which reads frontmatter with yaml@2, verifies the same skills.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { SkillsServer, compileCatalog } from "skills-edge";
import { REPO } from "./common.mjs";

const judges = (file) => import(pathToFileURL(join(REPO, "tests", "judges", file)).href);
const { inProcessTransport, judgeSdk } = await judges("sdk.mjs");
const { judgeInspector } = await judges("inspector.mjs");
const { judgeTests } = await judges("suite.mjs");

const PAGE_SIZE = 2;
const STDIO_SERVER = join(dirname(fileURLToPath(import.meta.url)), "stdio-server.mjs");

judgeTests("the in-page SkillsServer", {
  pageSize: PAGE_SIZE,
  sdkTransport: () => {
    const server = new SkillsServer({ pageSize: PAGE_SIZE });
    return inProcessTransport((message) => server.handle(message));
  },
  inspectorTarget: () => ({ command: process.execPath, args: [STDIO_SERVER, "--page-size", String(PAGE_SIZE)] }),
});

// Controls: each judge refuses a server that publishes one thing and serves another, and
// names what differs.

const FILE = "skill://code-review/references/checklist.md";
const SKILL = "skill://code-review/SKILL.md";

/** The in-page server with `edit(request, reply)` applied to every reply. */
function tampered(edit) {
  const server = new SkillsServer({ pageSize: PAGE_SIZE });
  return inProcessTransport((message) => {
    const reply = server.handle(message);
    if (reply?.result) edit(message, reply.result);
    return reply;
  });
}

/** The last character of a text changed, the byte length kept. */
const flipLast = (text) => text.slice(0, -1) + (text.endsWith("\n") ? "x" : "\n");

describe("controls: the judges refuse a server whose content differs from its entries", () => {
  for (const era of ["modern", "legacy"]) {
    test(`SDK judge, ${era}: a changed byte (same size) is a digest mismatch of that file`, async () => {
      const transport = tampered((m, r) => {
        for (const c of m.method === "resources/read" ? r.contents : []) if (c.uri === FILE) c.text = flipLast(c.text);
      });
      await assert.rejects(judgeSdk({ transport, era }), (e) => {
        assert.match(e.message, new RegExp(`${SKILL}: read ${FILE}: SkillVerificationError: .*has digest`));
        return true;
      });
    });
  }

  test("SDK judge: skills/get differing from skills/list is named", async () => {
    const transport = tampered((m, r) => {
      if (m.method === "skills/get" && r.skill.uri === SKILL) r.skill.frontmatter.description += "!";
    });
    await assert.rejects(judgeSdk({ transport, era: "modern" }), new RegExp(`skills/get ${SKILL}: differs from the skills/list entry`));
  });

  test("SDK judge: an entry whose frontmatter differs from its SKILL.md is named", async () => {
    const transport = tampered((m, r) => {
      for (const s of m.method === "skills/list" ? r.skills : m.method === "skills/get" ? [r.skill] : []) {
        if (s.uri === SKILL) s.frontmatter.description += "!";
      }
    });
    await assert.rejects(judgeSdk({ transport, era: "legacy" }), new RegExp(`${SKILL}: read ${SKILL}: SkillVerificationError: the frontmatter .* differs`));
  });

  test("SDK judge: a file the directory walk does not reach is named", async () => {
    const transport = tampered((m, r) => {
      if (m.method === "resources/directory/read") r.resources = r.resources.filter((c) => c.uri !== FILE);
    });
    await assert.rejects(judgeSdk({ transport, era: "modern" }), new RegExp(`${SKILL}: the entry lists files the directory walk does not reach: ${FILE}`));
  });

  test("SDK judge: a directory child outside its directory is named", async () => {
    const transport = tampered((m, r) => {
      if (m.method === "resources/directory/read" && m.params.uri === "skill://code-review") {
        r.resources.push({ uri: "skill://elsewhere/x.md", name: "x.md", mimeType: "text/markdown" });
      }
    });
    await assert.rejects(judgeSdk({ transport, era: "modern" }), /resources\/directory\/read skill:\/\/code-review: child .* not inside/);
  });

  for (const era of ["modern", "legacy"]) {
    test(`Inspector judge, ${era}: a changed file fails with that file named`, { timeout: 120_000 }, async () => {
      const target = { command: process.execPath, args: [STDIO_SERVER, "--page-size", String(PAGE_SIZE), "--tamper", FILE] };
      await assert.rejects(judgeInspector({ target, era }), (e) => {
        assert.match(e.message, new RegExp(`${SKILL}: ${FILE}: mismatch`));
        return true;
      });
    });
  }
});

// Frontmatter the compiler accepts and SkillsClient's built-in parser refuses, with the
// SDK's message for each.
const SDK_REFUSES = {
  "multiline-quoted": ['description: "Two lines of\n  description."', "a quoted value must close on the same line"],
  "indent-indicator": ["description: |2\n   Indented by an indicator.", "block scalar indentation indicators are not supported"],
  "anchored-value": ["description: &d Anchored.", "anchors, aliases and tags are not supported"],
  "multiline-flow": ['description: d\nmetadata: {owner: "docs",\n  tier: "2"}', "a flow collection must close on the same line"],
  "flow-mapping": ["description: d\npairs: [a: 1]", "mappings inside flow collections are not supported"],
};

const packOf = (names) =>
  compileCatalog(names.map((name) => ({ path: `${name}/SKILL.md`, bytes: `---\nname: ${name}\n${SDK_REFUSES[name][0]}\n---\n\n# ${name}\n` }))).pack;

describe("known gap: YAML the compiler publishes and the SDK 2.4 client's built-in parser refuses", () => {
  for (const [name, [, message]] of Object.entries(SDK_REFUSES)) {
    test(`${name}: SkillsClient.read refuses it; with yaml@2 as its parser it verifies`, async () => {
      const server = new SkillsServer({ pack: packOf([name]) });
      const transport = inProcessTransport((m) => server.handle(m));
      const uri = `skill://${name}/SKILL.md`;
      await assert.rejects(judgeSdk({ transport, era: "modern" }), (e) => {
        assert.ok(e.message.includes(`${uri}: read ${uri}: SkillVerificationError: the frontmatter of ${uri} cannot be read`), e.message);
        assert.ok(e.message.includes(message), e.message);
        return true;
      });
      const s = await judgeSdk({ transport, era: "modern", frontmatter: "yaml" });
      assert.deepEqual([s.skills, s.files], [1, 1]);
    });
  }

  test("the Inspector (yaml@2) verifies all of them", { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "skills-edge-gap-"));
    try {
      const pack = join(dir, "gap.pack");
      const names = Object.keys(SDK_REFUSES);
      writeFileSync(pack, packOf(names));
      for (const era of ["modern", "legacy"]) {
        const target = { command: process.execPath, args: [STDIO_SERVER, "--pack", pack] };
        const r = await judgeInspector({ target, era, expectedSkills: names.length });
        assert.equal(r.files, names.length);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
