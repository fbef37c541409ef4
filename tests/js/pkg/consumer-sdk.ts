// `skills-edge/sdk` against the installed official SDK 2.4's own types: what packSkillSource
// returns is a `SkillSource`, its results are the SDK's `Skill`, `SkillReadResult` and
// `Resource`, and recommendedCacheHint is a `SkillsOptions["cacheHint"]`
// (types.test.mjs, moduleResolution nodenext).
import { McpServer, type Resource, type ServerContext } from "@modelcontextprotocol/server";
import {
  SkillsExtension,
  type Skill,
  type SkillReadResult,
  type SkillSource,
  type SkillsOptions,
} from "@modelcontextprotocol/server/ext/skills";
import { SkillsServer } from "skills-edge";
import { packSkillSource, recommendedCacheHint, type PackSkillSource } from "skills-edge/sdk";

declare const pack: Uint8Array;
declare const ctx: ServerContext;

const ours: PackSkillSource = packSkillSource(pack, { scopes: (c) => c.http?.authInfo?.scopes, pageSize: 20 });
const source: SkillSource = ours;
const fromServer: SkillSource = packSkillSource(new SkillsServer({ pack }));
const fromBuffer: SkillSource = packSkillSource(pack.buffer as ArrayBuffer);
const cacheHint: SkillsOptions["cacheHint"] = recommendedCacheHint(ours);
new SkillsExtension({ source, cacheHint }).attach(new McpServer({ name: "n", version: "1" }));

async function use(): Promise<void> {
  const page: { skills: Skill[]; nextCursor?: string } = await ours.list({}, ctx);
  const skill: Skill | undefined = await ours.get("skill://a/SKILL.md", ctx);
  const file: SkillReadResult | undefined = await ours.read("skill://a/SKILL.md", ctx);
  const dir: { resources: Resource[]; nextCursor?: string } | undefined = await ours.readDirectory("skill://a", {}, ctx);
  const listed: Resource[] = await ours.listResources(ctx);
  const meta: Record<string, unknown> | undefined = skill?._meta;
  void [page, file, dir, listed, meta, fromServer, fromBuffer];
}
void use;

// @ts-expect-error a pack is bytes or a SkillsServer, not a path
packSkillSource("skills.pack");
// @ts-expect-error scopes is a function of the SDK's context
packSkillSource(pack, { scopes: ["billing"] });
// @ts-expect-error the hint is for a source packSkillSource made
recommendedCacheHint({});
