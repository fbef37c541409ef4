// The async verifier functions over either build of the glue (async-verifier.js). The entry points
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

/** Below this many bytes content is hashed in WebAssembly even where crypto.subtle exists: 16 KiB. */
export declare const SUBTLE_THRESHOLD: number;

/** From this many bytes `verifyFileAsync` checks the size (`checkFileSize`) before hashing elsewhere: 1 MiB. */
export declare const PRECHECK_THRESHOLD: number;

/**
 * What the async functions use of SubtleCrypto: `digest` gives (or resolves to) the 32-byte
 * digest, or the digest in wire form (`sha256:` and 64 lowercase hex characters, as the Node
 * entry point's createHash gives it at once); anything else, a throw or a rejection makes the
 * WebAssembly verifier hash instead.
 */
export interface Digester {
  digest(algorithm: "SHA-256", data: Uint8Array): Promise<ArrayBuffer | string> | ArrayBuffer | string;
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
  | "checkFileDigest"
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
 * or more is hashed with it, off the calling thread, and the
 * WebAssembly verifier decides with that digest; below, WebAssembly is faster. Elsewhere
 * (plain-http pages) the WebAssembly functions do everything.
 */
export interface AsyncVerifier {
  /** `sha256Digest`: the SHA-256 of content (text: its UTF-8 bytes) in wire form. Rejects with `invalid-argument`. */
  sha256DigestAsync(content: FileContent): Promise<string>;
  /**
   * `verifyFile`: the URI must be listed, then the size must match, then the digest
   * (`checkFileDigest` over the platform's digest; from 1 MiB, `checkFileSize` first, so that a
   * wrong size is refused without hashing).
   */
  verifyFileAsync(entry: SkillEntry, uri: string, content: FileContent, options?: VerifyOptions): Promise<FileReceipt>;
  /**
   * `verifyReadResult`: the result is checked up to the digest in WebAssembly
   * (`readResultContent`), its content hashed, and the digest judged (`checkFileDigest`).
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
 * (`undefined`: WebAssembly only), content of fewer than `threshold` bytes is hashed in
 * WebAssembly, and `verifyFileAsync` checks the size before hashing elsewhere from `precheck`
 * bytes (default 1 MiB).
 */
export declare function asyncVerifier(
  glue: GlueModule,
  settings?: { subtle?: () => Digester | undefined; threshold?: number; precheck?: number },
): AsyncVerifier;
