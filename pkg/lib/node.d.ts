// The ES module entry point for Node: the Node build's declarations and the async verifier
// functions (layer.d.ts).
export * from "../node/skills_edge.js";
export { default } from "../node/skills_edge.js";
import type { AsyncVerifier } from "./layer.js";

/** `sha256Digest`, asynchronously, with Node's `crypto.subtle` (`AsyncVerifier`). */
export declare const sha256DigestAsync: AsyncVerifier["sha256DigestAsync"];
/** `verifyFile`, asynchronously, with Node's `crypto.subtle` (`AsyncVerifier`). */
export declare const verifyFileAsync: AsyncVerifier["verifyFileAsync"];
/** `verifyReadResult`, asynchronously, with Node's `crypto.subtle` (`AsyncVerifier`). */
export declare const verifyReadResultAsync: AsyncVerifier["verifyReadResultAsync"];
/** `verifySkillMd`, asynchronously, with Node's `crypto.subtle` (`AsyncVerifier`). */
export declare const verifySkillMdAsync: AsyncVerifier["verifySkillMdAsync"];
