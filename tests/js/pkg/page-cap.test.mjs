// Every catalog lists within the clients' page caps: the official TypeScript SDK 2.4 client
// (`listMaxPages`, default 64) and MCP Inspector stop a list that needs more than 64 pages, so
// with the default page size of 50 a catalog of more than 3,200 skills could not be listed.
// The responder sizes a list's pages to ⌈items / 64⌉ when the configured size would need more
// (src/server/paging.rs, docs/settings.md). Here a generated catalog of 3,300 skills (four
// prefix directories of 825), compiled by the package's compileCatalog and served by its
// SkillsServer at the default page size, is judged on both eras by the SDK 2.4 SkillsClient
// (in process: every page of skills/list, every entry, file and directory, verified) and by
// MCP Inspector over stdio (stdio-server.mjs with the pack): each lists every skill.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { SkillsServer, compileCatalog } from "skills-edge";
import { REPO } from "./common.mjs";

// The SDK as the repository installed it (this file runs in a project with the package alone).
const fromRepo = createRequire(join(REPO, "package.json"));
const { Client } = await import(pathToFileURL(fromRepo.resolve("@modelcontextprotocol/client")).href);

const judges = (file) => import(pathToFileURL(join(REPO, "tests", "judges", file)).href);
const { inProcessTransport, judgeSdk } = await judges("sdk.mjs");
const { judgeInspector } = await judges("inspector.mjs");

const SKILLS = 3300;
const STDIO_SERVER = join(dirname(fileURLToPath(import.meta.url)), "stdio-server.mjs");

const entries = [];
for (let i = 0; i < SKILLS; i++) {
  const name = `skill-${String(i).padStart(5, "0")}`;
  entries.push({
    path: `team-${i % 4}/${name}/SKILL.md`,
    bytes: `---\nname: ${name}\ndescription: Generated skill ${i} of a catalog larger than 64 pages of 50.\nmetadata:\n  team: team-${i % 4}\n---\n\n# ${name}\n`,
  });
}
const { pack } = compileCatalog(entries);
const server = () => new SkillsServer({ pack });

test("the default page size is 50 and 3,300 skills would need 66 pages of it", () => {
  assert.equal(server().catalogInfo().pageSize, 50);
  assert.ok(Math.ceil(SKILLS / 50) > 64);
});

for (const era of ["modern", "legacy"]) {
  test(`SDK 2.4 SkillsClient (listMaxPages 64), ${era}: lists, gets, reads and verifies all ${SKILLS} skills`, async () => {
    const s = server();
    const verdict = await judgeSdk({ transport: inProcessTransport((m) => s.handle(m)), era, timeoutMs: 600_000 });
    assert.equal(verdict.skills, SKILLS, JSON.stringify(verdict));
  });
}

test(`SDK 2.4 Client.listResources (listMaxPages 64) sees all ${SKILLS} SKILL.md resources`, async () => {
  const s = server();
  const client = new Client({ name: "page-cap-test", version: "1.0.0" });
  await client.connect(inProcessTransport((m) => s.handle(m))());
  try {
    const { resources } = await client.listResources();
    assert.equal(new Set(resources.map((r) => r.uri)).size, SKILLS);
  } finally {
    await client.close();
  }
});

for (const era of ["modern", "legacy"]) {
  test(`MCP Inspector skills/list --verify, ${era}: every one of ${SKILLS} skills over stdio`, async () => {
    const dir = mkdtempSync(join(tmpdir(), "skills-edge-page-cap-"));
    try {
      const file = join(dir, "catalog.pack");
      writeFileSync(file, pack);
      await judgeInspector({
        target: { command: process.execPath, args: [STDIO_SERVER, "--pack", file] },
        era,
        expectedSkills: SKILLS,
        // Its read budget is 256 skills and 64 MiB by default; listing has no such budget.
        options: ["--skill-catalog-max-skills", String(SKILLS)],
        timeoutMs: 600_000,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
