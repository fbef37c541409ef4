// `skills-edge/client` in Node: SkillsClient over the Node build (its WebAssembly is loaded
// synchronously when the build is imported); fetched content of 8 KiB or more is hashed with
// node:crypto's createHash (node-digest.js), the rest in WebAssembly.
import glue from "../node/skills_edge.js";
import { makeSkillsClient } from "./client.js";
import { nodeIoDigest } from "./node-digest.js";

export const SkillsClient = makeSkillsClient(glue, async () => {}, () => nodeIoDigest);
