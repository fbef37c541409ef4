// `skills-edge/client` in Node: SkillsClient over the Node build (its WebAssembly is loaded
// synchronously when the build is imported).
import glue from "../node/skills_edge.js";
import { makeSkillsClient } from "./client.js";

export const SkillsClient = makeSkillsClient(glue, async () => {});
