// The ES module entry point for Node (`import "skills-edge"`): everything the CommonJS
// wasm-bindgen glue exports (the same instance `require("skills-edge")` gives), and the async
// verifier functions, which hash with node:crypto's createHash from 1 KiB up (node-digest.js),
// while async-verifier.js keeps every check and decision in the WebAssembly verifier.
import * as glue from "../node/skills_edge.js";
import { asyncVerifier } from "./async-verifier.js";
import { NODE_DIGEST_THRESHOLD, nodeCrypto } from "./node-digest.js";

export * from "../node/skills_edge.js";
export { default } from "../node/skills_edge.js";
export const { sha256DigestAsync, verifyFileAsync, verifyReadResultAsync, verifySkillMdAsync } = asyncVerifier(glue, {
  subtle: () => nodeCrypto,
  threshold: NODE_DIGEST_THRESHOLD,
});
