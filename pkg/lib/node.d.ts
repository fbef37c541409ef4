// The ES module entry point for Node: the Node build's declarations and the async verifier
// functions (async-verifier.d.ts), which hash with node:crypto's createHash from 1 KiB up.
export * from "../node/skills_edge.js";
export { default } from "../node/skills_edge.js";
import type { AsyncVerifier } from "./async-verifier.js";

/** `sha256Digest`, asynchronously, with node:crypto's `createHash` from 1 KiB (`AsyncVerifier`). */
export declare const sha256DigestAsync: AsyncVerifier["sha256DigestAsync"];
/** `verifyFile`, asynchronously, with node:crypto's `createHash` from 8 KiB (`AsyncVerifier`). */
export declare const verifyFileAsync: AsyncVerifier["verifyFileAsync"];
/** `verifyReadResult`, asynchronously, with node:crypto's `createHash` from 1 KiB (`AsyncVerifier`). */
export declare const verifyReadResultAsync: AsyncVerifier["verifyReadResultAsync"];
/** `verifySkillMd`, asynchronously, with node:crypto's `createHash` from 1 KiB (`AsyncVerifier`). */
export declare const verifySkillMdAsync: AsyncVerifier["verifySkillMdAsync"];
