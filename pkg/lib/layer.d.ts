// The async verifier functions over either build of the glue (layer.js). The entry points
// index.js and node.js export the functions `asyncVerifier` returns for their glue. The types
// are taken from the Node build's declarations, which need no DOM library; the web build's are
// the same.
import type {
  FileContent,
  FileReceipt,
  ReadResourceResult,
  SkillEntry,
  VerifiedContent,
  VerifiedSkillMd,
  VerifyOptions,
} from "../node/skills_edge.js";
import type * as Glue from "../node/skills_edge.js";

/** Below this many bytes (twice as many for `verifyFileAsync`) content is hashed in WebAssembly even where crypto.subtle exists: 16 KiB. */
export declare const SUBTLE_THRESHOLD: number;

/** What the async functions use of SubtleCrypto. */
export interface Digester {
  digest(algorithm: "SHA-256", data: Uint8Array): Promise<ArrayBuffer>;
}

/** The platform's `crypto.subtle`, or `undefined` where there is none (plain-http pages). */
export declare function platformSubtle(): Digester | undefined;

/** From this many bytes SkillsClient has crypto.subtle hash fetched content (`ioDigest`'s default): 32 KiB. */
export declare const CLIENT_SUBTLE_THRESHOLD: number;

/** What a SkillsClientCore io object carries of a platform digest (see `SkillsClientIo`). */
export interface IoDigest {
  digestThreshold: number;
  digest(bytes: Uint8Array): Promise<string | undefined> | string;
}

/**
 * The `digest` and `digestThreshold` of a SkillsClientCore io object over `platform`, or
 * `undefined` where there is none: fetched content of `threshold` bytes (default 32 KiB) or more
 * is hashed with it, and the WebAssembly verifier decides with that digest.
 */
export declare function ioDigest(platform: Digester | undefined, threshold?: number): IoDigest | undefined;

/** What the async functions use of the glue. */
export type GlueModule = Pick<
  typeof Glue,
  | "sha256Digest"
  | "verifyFile"
  | "verifyFileDigest"
  | "checkFileSize"
  | "readResultContent"
  | "verifyReadResult"
  | "verifySkillMd"
  | "verifySkillMdDigest"
  | "isSkillsEdgeError"
>;

/**
 * The async verifier functions. Each gives exactly the result or the error of its synchronous
 * twin (argument errors name the async function); a promise is returned in every case, and an
 * error is a rejection, never a synchronous throw. Where `crypto.subtle` exists, content of 16 KiB
 * or more (32 KiB for `verifyFileAsync`) is hashed with it, off the calling thread, and the
 * WebAssembly verifier decides with that digest; below, WebAssembly is faster. Elsewhere
 * (plain-http pages) the WebAssembly functions do everything.
 */
export interface AsyncVerifier {
  /** `sha256Digest`: the SHA-256 of content (text: its UTF-8 bytes) in wire form. Rejects with `invalid-argument`. */
  sha256DigestAsync(content: FileContent): Promise<string>;
  /**
   * `verifyFile`: the URI must be listed, then the size must match (refused before any
   * hashing), then the digest (`checkFileSize`, then `verifyFileDigest`).
   */
  verifyFileAsync(entry: SkillEntry, uri: string, content: FileContent, options?: VerifyOptions): Promise<FileReceipt>;
  /**
   * `verifyReadResult`: the result is checked up to the digest in WebAssembly
   * (`readResultContent`), its content hashed, and the digest judged (`verifyFileDigest`).
   */
  verifyReadResultAsync(entry: SkillEntry, uri: string, result: ReadResourceResult, options?: VerifyOptions): Promise<VerifiedContent>;
  /**
   * `verifySkillMd`: text or bytes are hashed, then judged with the frontmatter
   * (`verifySkillMdDigest`); a `resources/read` result, whose text only the verifier reads out,
   * is verified in WebAssembly.
   */
  verifySkillMdAsync(entry: SkillEntry, content: FileContent | ReadResourceResult): Promise<VerifiedSkillMd>;
}

/**
 * The async verifier functions over `glue`; `subtle()` gives the digest to use at each call
 * (`undefined`: WebAssembly only), and content of fewer than `threshold` bytes (`fileThreshold`,
 * default `2 * threshold`, for `verifyFileAsync`) is hashed in WebAssembly.
 */
export declare function asyncVerifier(
  glue: GlueModule,
  settings?: { subtle?: () => Digester | undefined; threshold?: number; fileThreshold?: number },
): AsyncVerifier;
