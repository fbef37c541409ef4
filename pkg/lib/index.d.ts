// The ES module entry point for browsers, bundlers and workers: the web build's declarations
// and the async verifier functions (async-verifier.d.ts).
export * from "../web/skills_edge.js";
export { default } from "../web/skills_edge.js";
import type { AsyncVerifier } from "./async-verifier.js";

/** `sha256Digest`, asynchronously, with `crypto.subtle` where the page has it (`AsyncVerifier`). */
export declare const sha256DigestAsync: AsyncVerifier["sha256DigestAsync"];
/** `verifyFile`, asynchronously, with `crypto.subtle` where the page has it (`AsyncVerifier`). */
export declare const verifyFileAsync: AsyncVerifier["verifyFileAsync"];
/** `verifyReadResult`, asynchronously, with `crypto.subtle` where the page has it (`AsyncVerifier`). */
export declare const verifyReadResultAsync: AsyncVerifier["verifyReadResultAsync"];
/** `verifySkillMd`, asynchronously, with `crypto.subtle` where the page has it (`AsyncVerifier`). */
export declare const verifySkillMdAsync: AsyncVerifier["verifySkillMdAsync"];
