// The ES module entry point for browsers, bundlers and workers: everything the wasm-bindgen glue
// of the web build exports (initialise it first with `await init()` or `initSync`), and the
// async verifier functions, which hash with crypto.subtle where the page or worker has it and in
// WebAssembly where it does not (async-verifier.js).
import * as glue from "../web/skills_edge.js";
import { asyncVerifier } from "./async-verifier.js";

export * from "../web/skills_edge.js";
export { default } from "../web/skills_edge.js";
export const { sha256DigestAsync, verifyFileAsync, verifyReadResultAsync, verifySkillMdAsync } = asyncVerifier(glue);
