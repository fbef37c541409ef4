// The ES module entry point for Node (`import "skills-edge"`): everything the CommonJS
// wasm-bindgen glue exports (the same instance `require("skills-edge")` gives), and the async
// verifier functions, which hash with crypto.subtle from 16 KiB up (layer.js).
import * as glue from "../node/skills_edge.js";
import { asyncVerifier } from "./layer.js";

export * from "../node/skills_edge.js";
export { default } from "../node/skills_edge.js";
export const { sha256DigestAsync, verifyFileAsync, verifyReadResultAsync, verifySkillMdAsync } = asyncVerifier(glue);
