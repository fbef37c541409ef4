// `skills-edge/sdk`: a SkillSource of the official TypeScript MCP SDK 2.4
// (`@modelcontextprotocol/server/ext/skills`) over a compiled pack. The types are structural,
// so this module needs no SDK at install time; a value of `PackSkillSource` is assignable to
// the SDK's `SkillSource`.
import type { SkillsServer } from "../node/skills_edge.js";

/** What the source reads of the SDK's request context (`ServerContext`): the caller, as the HTTP layer authenticated it. */
export interface SdkContext {
  http?: {
    authInfo?: {
      /** The scopes the caller's token carries. */
      scopes?: readonly string[];
    };
  };
}

/** One file of a skill's manifest. */
export interface SdkSkillResource {
  uri: string;
  /** `sha256:` followed by 64 lowercase hex characters. */
  digest: string;
  size: number;
  [field: string]: unknown;
}

/** A skill entry as compiled, with its `_meta` (a signed catalog's DSSE envelope and signer). */
export interface SdkSkill {
  /** The URI of the skill's `SKILL.md`. */
  uri: string;
  /** The `SKILL.md` frontmatter as JSON. */
  frontmatter: { name: string; description: string; [field: string]: unknown };
  /** Every file of the skill. */
  resources: SdkSkillResource[] | "dynamic";
  _meta?: Record<string, unknown>;
  [field: string]: unknown;
}

/** A file's content: `text` for a text file, `bytes` for any other (the SDK sends those as a base64 `blob`). */
export type SdkSkillReadResult = { text: string; mimeType?: string } | { bytes: Uint8Array; mimeType?: string };

/** One child of a directory, or a `resources/list` item, as compiled. */
export interface SdkResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  _meta?: Record<string, unknown>;
  [field: string]: unknown;
}

/** The SkillSource `packSkillSource` returns: every method of the SDK's `SkillSource`, `readDirectory` and `listResources` included. */
export interface PackSkillSource {
  /** One page of the entries the caller sees, as compiled: the pack's page size and cursors. Rejects with the responder's `-32602` for a cursor it did not issue. */
  list(params: { cursor?: string }, ctx: SdkContext): Promise<{ skills: SdkSkill[]; nextCursor?: string }>;
  /** The entry whose `SKILL.md` is at `uri`; `undefined` when the caller sees no such skill (hidden or unknown alike). */
  get(uri: string, ctx: SdkContext): Promise<SdkSkill | undefined>;
  /** A file's stored bytes with its MIME type: `text` for a text file, `bytes` for any other; `undefined` when the caller sees no such file. */
  read(uri: string, ctx: SdkContext): Promise<SdkSkillReadResult | undefined>;
  /** One page of a directory's children the caller sees; `undefined` when the caller sees no directory at `uri`. */
  readDirectory(uri: string, params: { cursor?: string }, ctx: SdkContext): Promise<{ resources: SdkResource[]; nextCursor?: string } | undefined>;
  /** What `resources/list` lists for the caller: one item per skill it sees (every page). */
  listResources(ctx: SdkContext): Promise<SdkResource[]>;
}

/** Options of `packSkillSource`. */
export interface PackSkillSourceOptions {
  /**
   * The caller's scopes from the SDK's context, e.g. `(ctx) => ctx.http?.authInfo?.scopes`:
   * the caller sees the public skills and the private ones whose `[[access]]` rules name one
   * of them. Default: no scopes, the public skills only.
   */
  scopes?: ((ctx: SdkContext) => readonly string[] | string | undefined | null) | null;
  /** Items per page of `skills/list`, `resources/list` and directory reads (1-1000, default 50); for a pack only (a SkillsServer has its own). */
  pageSize?: number;
}

/** The `cacheHint` of `SkillsOptions` (`ttlMs`, `cacheScope`). */
export interface SdkCacheHint {
  ttlMs: number;
  cacheScope: "public" | "private";
}

/**
 * A SkillSource over a compiled pack (the bytes `skills-edge pack` writes) or a `SkillsServer`
 * already made. Throws a `SkillsEdgeError` (`invalid-argument`) for a wrong argument or for a
 * pack made with `--assets` (its files are not in it), `pack-invalid` for a damaged pack.
 */
export declare function packSkillSource(pack: Uint8Array | ArrayBuffer | SkillsServer, options?: PackSkillSourceOptions): PackSkillSource;

/**
 * The `cacheHint` for `new SkillsExtension({ source, cacheHint })`: the server's `ttlMs`
 * (default 300000), and `cacheScope` `"private"` when the catalog has private skills (the SDK
 * gives every caller the same hint, and an answer made for a caller's scopes must not be
 * cached publicly), else the server's (default `"public"`).
 */
export declare function recommendedCacheHint(source: PackSkillSource): SdkCacheHint;
